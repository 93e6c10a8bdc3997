"""The Streamlit entry script (``streamlit run dashboards/streamlit_app.py``; use
``mjaudit dashboard`` or :func:`dashboards.app.launch`, which set the data folder and the
offline server options). It draws the sidebar filters, then the chosen page, then writes
the URL so that the view can be shared."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from mjaudit.parts.dashboards import ui

HERE = Path(__file__).parent

st.set_page_config(page_title="mjaudit", page_icon="🀄", layout="wide")
PAGES = {
    "Club": [
        st.Page(
            HERE / "views" / "overview.py",
            title="Club overview",
            icon=":material/home:",
            default=True,
        ),
        st.Page(
            HERE / "views" / "players.py",
            title="Players",
            icon=":material/groups:",
            url_path="players",
        ),
        st.Page(
            HERE / "views" / "player.py",
            title="Player",
            icon=":material/person:",
            url_path="player",
        ),
    ],
    "Hands": [
        st.Page(
            HERE / "views" / "fans.py",
            title="Fans · cước",
            icon=":material/bar_chart:",
            url_path="fans",
        ),
        st.Page(
            HERE / "views" / "violations.py",
            title="Violations",
            icon=":material/report:",
            url_path="violations",
        ),
        st.Page(
            HERE / "views" / "replayer.py",
            title="Hand replayer",
            icon=":material/play_circle:",
            url_path="replayer",
        ),
    ],
}
page = st.navigation(PAGES)
ui.context()
page.run()
ui.write_url()
