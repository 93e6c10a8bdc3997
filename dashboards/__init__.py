"""Dashboards: Streamlit pages that read the tables (not built yet)."""
