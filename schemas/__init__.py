"""Schemas: the mjlog/1 format, tile codes, table schemas. Imports nothing else of the project."""
