"""Ingest: read log files and score sheets, validate them, write Parquet tables."""
