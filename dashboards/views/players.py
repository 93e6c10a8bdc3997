"""Players: every player's statistics, as `mjaudit stats` prints them (sortable)."""

from __future__ import annotations

import polars as pl
import streamlit as st
from mjaudit.parts.dashboards import ui
from mjaudit.parts.dashboards.data import CHAN_STAT_COLUMNS
from mjaudit.parts.dashboards.queries import STAT_COLUMNS
from mjaudit.parts.dashboards.riichi_stats import RIICHI_COLUMNS
from mjaudit.parts.schemas.rulesets import game_terms

ctx = ui.require()
st.header("Players")
if not game_terms(ctx.filters.game).scores_fan:  # chắn: wins and điểm, no fan or deal-ins
    chan = ctx.q("chan_player_stats", ctx.filters)
    if chan.is_empty():
        st.info("No replayed chắn hands match the filters.")
        st.stop()
    st.caption(f"{chan.height:,} chắn players; scores in điểm (see Fans · cước for the cước).")
    st.dataframe(
        chan.with_columns(
            pl.col("player")
            .map_elements(lambda p: ui.link("player", name=p), return_dtype=pl.String)
            .alias("page")
        ),
        hide_index=True,
        width="stretch",
        column_order=["player", "page", *CHAN_STAT_COLUMNS[1:]],
        column_config={
            **ui.chan_stat_columns(),
            "player": st.column_config.TextColumn("Player", pinned=True),
            "page": st.column_config.LinkColumn("Details", display_text="open ›"),
        },
    )
    st.download_button(
        "Download CSV", chan.write_csv(), file_name="chan-player-stats.csv", mime="text/csv"
    )
    st.stop()
stats = ctx.q("player_table", ctx.filters)
if stats.is_empty():
    st.info("No replayed hands match the filters.")
    st.stop()
st.caption(
    f"{stats.height:,} players. Click a column header to sort; rates: win = wins / hands, "
    "self-draw = self-drawn wins / wins, deal-in = hands whose winning tile they discarded / hands."
)
stats = stats.with_columns(
    pl.col("player")
    .map_elements(lambda p: ui.link("player", name=p), return_dtype=pl.String)
    .alias("page")
)
pct = {"format": "percent"}
st.dataframe(
    stats,
    hide_index=True,
    width="stretch",
    height=min(700, 38 + 35 * stats.height),
    column_order=["player", "page", *STAT_COLUMNS[1:]],
    column_config={
        "player": st.column_config.TextColumn("Player", pinned=True),
        "page": st.column_config.LinkColumn("Details", display_text="open ›"),
        "unit": st.column_config.TextColumn("Unit", help="fan, phán or card points: never added"),
        "hands": st.column_config.NumberColumn("Hands", format="localized"),
        "wins": st.column_config.NumberColumn("Wins", format="localized"),
        "win_rate": st.column_config.NumberColumn("Win rate", **pct),
        "self_draws": st.column_config.NumberColumn("Self-draws", format="localized"),
        "self_draw_rate": st.column_config.NumberColumn("Self-draw rate", **pct),
        "deal_ins": st.column_config.NumberColumn("Deal-ins", format="localized"),
        "deal_in_rate": st.column_config.NumberColumn("Deal-in rate", **pct),
        "avg_fan": st.column_config.NumberColumn("Avg fan", format="%.2f"),
        "fan_distribution": st.column_config.TextColumn("Fan: wins"),
        "net_points": st.column_config.NumberColumn("Net points", format="localized"),
        "net_per_hand": st.column_config.NumberColumn("Net / hand", format="%.2f"),
        "pao_paid": st.column_config.NumberColumn("Pao paid"),
        "nine_tile_paid": st.column_config.NumberColumn("Nine-tile paid"),
        "last_five_paid": st.column_config.NumberColumn("Last-five paid"),
        "n_violations": st.column_config.NumberColumn("Violations"),
        "violations": st.column_config.TextColumn("By code"),
    },
)
st.download_button(
    "Download CSV", stats.drop("page").write_csv(), file_name="player-stats.csv", mime="text/csv"
)

riichi = ctx.q("riichi_table", ctx.filters)
if not riichi.is_empty():
    st.subheader("Riichi")
    st.caption(
        f"{riichi.height:,} players of riichi hands, as `mjaudit stats --riichi` prints them. "
        "Rates per hand: riichi = hands with a riichi declaration, call = hands with an "
        "open call (not a concealed kong), draw = exhaustive draws, abortive = abortive "
        "draws; average win in points (before honba and sticks) and han; places at the "
        "games' ends the logs record."
    )
    st.dataframe(
        riichi,
        hide_index=True,
        width="stretch",
        column_config={
            "player": st.column_config.TextColumn("Player", pinned=True),
            "hands": st.column_config.NumberColumn("Hands", format="localized"),
            **{
                c: st.column_config.NumberColumn(c.replace("_", " ").capitalize(), **pct)
                for c in RIICHI_COLUMNS
                if c.endswith("_rate")
            },
            "avg_win_points": st.column_config.NumberColumn("Avg win (points)", format="%.0f"),
            "avg_win_han": st.column_config.NumberColumn("Avg win (han)", format="%.2f"),
            "games": st.column_config.NumberColumn("Games ended"),
            "avg_place": st.column_config.NumberColumn("Avg place", format="%.2f"),
        },
    )
    st.download_button(
        "Download riichi CSV", riichi.write_csv(), file_name="riichi-stats.csv", mime="text/csv"
    )
