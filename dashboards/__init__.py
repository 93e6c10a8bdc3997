"""Dashboards: Streamlit pages over the tables (`mjaudit dashboard`, `dashboards.app.launch`)."""
