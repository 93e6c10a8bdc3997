"""Fans: winning fan per ruleset, pattern frequencies, payment by fan, limit hands. With
the Game selector on chắn: the chắn view instead (wins, điểm, cước frequencies,
violations), since chắn hands score cước and điểm, not fan."""

from __future__ import annotations

import polars as pl
import streamlit as st
from mjaudit.parts.dashboards import chan_terms, ui
from mjaudit.parts.schemas.rulesets import game_terms

ctx = ui.require()
f = ctx.filters


def chan_view() -> None:
    """The chắn statistics: headline figures, per-player điểm, cước frequencies, the
    distribution of scores and the violations by code and by player."""
    st.header("Chắn: cước and điểm")
    head = ctx.q("chan_summary", f)
    cols = st.columns(5)
    cols[0].metric("Hands", f"{head['hands']:,}")
    cols[1].metric("Wins (ù)", f"{head['wins']:,}")
    cols[2].metric("Win rate", ui.pct(head["win_rate"]), help="replayed hands won (ù)")
    cols[3].metric("Draws (hòa)", f"{head['draws']:,}")
    cols[4].metric("Average score", ui.num(head["avg_score"]), help="điểm of a win (total T)")
    if not head["wins"]:
        st.info("No replayed chắn wins match the filters.")
    st.subheader("Players")
    players = ctx.q("chan_player_stats", f)
    st.dataframe(
        players,
        hide_index=True,
        width="stretch",
        column_config=ui.chan_stat_columns(),
    )
    st.subheader("Cước frequencies")
    cuoc = ctx.q("cuoc_frequency", f)
    st.caption("Share of the chắn wins in which each cước (or gà) was scored.")
    if cuoc.is_empty():
        st.caption("No cước recorded for these wins.")
    else:
        cuoc = cuoc.with_columns(
            pl.col("cuoc").map_elements(chan_terms.cuoc_name, return_dtype=pl.String).alias("name"),
            pl.col("cuoc").map_elements(chan_terms.kind, return_dtype=pl.String).alias("kind"),
        )
        ui.bars(
            cuoc,
            "name",
            "wins_with",
            color="kind",
            group=False,
            horizontal=True,
            category_title="cước",
            value_title="wins with it",
        )
        st.dataframe(
            cuoc,
            hide_index=True,
            width="stretch",
            column_order=["name", "cuoc", "kind", "wins_with", "share", "rows", "value"],
            column_config={
                "name": "Cước",
                "cuoc": "Id",
                "kind": "Kind",
                "wins_with": st.column_config.NumberColumn("Wins with it", format="localized"),
                "share": st.column_config.ProgressColumn(
                    "Share of wins", format="percent", min_value=0.0, max_value=1.0
                ),
                "rows": st.column_config.NumberColumn("Times scored"),
                "value": st.column_config.NumberColumn(
                    "Điểm added (avg)",
                    format="%.1f",
                    help="what it added to the total T: the largest cước its điểm, each "
                    "other its dịch, a gà its gà points (rules/chan.md §7.1)",
                ),
            },
        )
    st.subheader("Scores of wins")
    ui.bars(ctx.q("score_histogram", f), "diem", "wins", category_title="điểm (total T)")
    st.subheader("Violations")
    counts = ctx.q("finding_counts", f, (), ("PLAYER_VIOLATION",))
    a, b = st.columns(2)
    with a:
        st.markdown("**By code**")
        ui.bars(counts["by_code"].head(20), "code", "n", horizontal=True, category_title="")
    with b:
        st.markdown("**By player**")
        ui.bars(counts["by_player"].head(20), "player", "n", horizontal=True, category_title="")


if not game_terms(f.game).scores_fan:  # chắn scores cước and điểm
    chan_view()
    st.stop()

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
                lambda r: ui.link("replayer", sitting=r["game_id"], hand=r["hand_no"]),
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
