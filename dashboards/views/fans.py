"""Fans: winning fan per ruleset, pattern frequencies, payment by fan, limit hands."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import ui

ctx = ui.require()
f = ctx.filters
st.header("Fans")

hist = ctx.q("fan_histogram", f)
if hist.is_empty():
    st.info("No replayed wins match the filters.")
    st.stop()
total = int(hist["wins"].sum())
st.caption(f"{total:,} wins" + (f" by {ui.players_line(f.players)}" if f.players else ""))
st.subheader("Winning fan")
ui.bars(hist, "fan", "wins", color="ruleset", category_title="fan (capped)", height=280)

st.subheader("Pattern frequencies")
pats = ctx.q("pattern_frequency", f)
st.caption("Share of the ruleset's wins in which each pattern appears.")
for ruleset, group in pats.group_by("ruleset", maintain_order=True):
    with st.expander(f"{ruleset[0]} ({group.height} patterns)", expanded=True):
        st.dataframe(
            group.drop("ruleset"),
            hide_index=True,
            width="stretch",
            column_config={
                "pattern": "Pattern",
                "wins_with": st.column_config.NumberColumn("Wins with it", format="localized"),
                "share": st.column_config.ProgressColumn(
                    "Share of wins", format="percent", min_value=0.0, max_value=1.0
                ),
                "fan": st.column_config.NumberColumn("Fan", format="%.0f"),
            },
        )

st.subheader("Average payment by fan")
pay = ctx.q("payment_by_fan", f)
st.caption("The winner's average gain per hand (all losers' payments together).")
ui.bars(pay, "fan", "avg_gain", color="ruleset", value_title="average gain")
st.dataframe(
    pay,
    hide_index=True,
    width="stretch",
    column_config={
        "avg_gain": st.column_config.NumberColumn("Avg gain", format="%.1f"),
        "avg_gain_self_drawn": st.column_config.NumberColumn("Self-drawn", format="%.1f"),
        "avg_gain_on_discard": st.column_config.NumberColumn("On a discard", format="%.1f"),
    },
)

st.subheader("Limit hands seen")
limits, n_limits = ctx.q("limit_hands", f)
st.caption("Wins whose raw fan reached the preset's cap (hk-classic 8, hk-mahjongo 10).")
if limits.is_empty():
    st.caption("None yet.")
else:
    ui.note_rows(limits.height, n_limits, "limit hands")
    st.dataframe(
        limits.with_columns(
            pl.struct("game_id", "hand_no")
            .map_elements(
                lambda r: ui.link("replayer", game=r["game_id"], hand=r["hand_no"]),
                return_dtype=pl.String,
            )
            .alias("replay")
        ),
        hide_index=True,
        width="stretch",
        column_config={
            "at": st.column_config.DatetimeColumn("When", format="YYYY-MM-DD HH:mm"),
            "replay": st.column_config.LinkColumn("Replay", display_text="open ▶"),
        },
    )
