"""Club overview: headline figures, hands and wins over time, the leaderboard."""

from __future__ import annotations

import streamlit as st
from mjaudit.parts.dashboards import ui
from mjaudit.parts.schemas.rulesets import game_terms

ctx = ui.require()
f = ctx.filters
st.header("Club overview")

terms = game_terms(f.game)  # chắn: draws are hòa, points are điểm, there are no deal-ins
head = ctx.q("overview", f)
first, last = head["first_day"], head["last_day"]
period = f"{first} – {last}" if first else "–"
cols = st.columns(6)
cols[0].metric("Sittings", f"{head['sittings']:,}")
cols[1].metric("Hands", f"{head['hands']:,}")
cols[2].metric("Players", f"{head['players']:,}")
cols[3].metric("Violations", f"{head['violations']:,}", help="PLAYER_VIOLATION findings")
cols[4].metric(
    terms.draws,
    ui.pct(head["exhaustive_draw_rate"]),
    help="of replayed hands",
)
cols[5].metric(
    "Win rate",
    ui.pct(head["wins"] / head["replayed"] if head["replayed"] else None),
    help="replayed hands that ended in a win",
)
st.caption(f"Period: {period} (local dates of the tables)")

grain, activity = ctx.q("activity", f)
st.subheader(f"Hands and wins per {grain}")
if activity.is_empty():
    st.info("No hands match the filters.")
else:
    st.bar_chart(
        activity.select("period", "hands", "wins"),
        x="period",
        y=["hands", "wins"],
        x_label=grain,
        y_label="hands",
        stack=False,
        height=280,
    )

st.subheader("Leaderboard")
MAX_MIN_HANDS = 1_000_000_000
ui.start_count("o_min_hands", "min_hands", 10, 0, MAX_MIN_HANDS, "hands")
min_hands = st.number_input(
    "Minimum hands played",
    min_value=0,
    max_value=MAX_MIN_HANDS,
    step=5,
    key="o_min_hands",
    help="Players with fewer replayed hands are left out.",
)
ui.keep("o_min_hands")
ui.share(min_hands=min_hands if min_hands != 10 else None)
board = ctx.q("leaderboard", f, int(min_hands))
if board.is_empty():
    st.info("No player has that many replayed hands under these filters.")
else:
    board = board.with_columns(
        board["player"]
        .map_elements(lambda p: ui.link("player", name=p), return_dtype=str)
        .alias("page")
    )
    st.dataframe(
        board,
        hide_index=True,
        width="stretch",
        height=min(560, 38 + 35 * board.height),
        column_config={
            "player": "Player",
            "unit": "Unit",
            "hands": st.column_config.NumberColumn("Hands", format="localized"),
            "wins": st.column_config.NumberColumn("Wins", format="localized"),
            "win_rate": st.column_config.NumberColumn("Win rate", format="percent"),
            "deal_in_rate": st.column_config.NumberColumn("Deal-in rate", format="percent")
            if terms.deal_ins
            else None,
            "net_points": st.column_config.NumberColumn(f"Net {terms.points}", format="localized"),
            "net_per_hand": st.column_config.NumberColumn("Net / hand", format="%.2f"),
            "page": st.column_config.LinkColumn("Details", display_text="open ›"),
        },
    )
