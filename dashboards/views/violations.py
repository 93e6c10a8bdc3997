"""Violations: every finding, filterable by code and class (and the sidebar's player,
venue and dates), counted by code and by player, each linked to the replayer."""

from __future__ import annotations

import polars as pl
import streamlit as st
from mjaudit.parts.dashboards import data, ui

ctx = ui.require()
f = ctx.filters
st.header("Violations and findings")
opts = ctx.q("finding_options")
if not opts["codes"]:
    st.info(
        "The replay raised no findings"
        + (" yet." if ctx.status["replayed"] else ": nothing is replayed yet.")
    )
    st.stop()

default_classes = [c for c in opts["classes"] if c in data.SERIOUS_CLASSES] or opts["classes"]
left, right = st.columns(2)
with left:
    ui.start(
        "v_class",
        "class",
        default_classes,
        multi=True,
        valid=lambda v: isinstance(v, list) and all(c in opts["classes"] for c in v),
    )
    classes = st.multiselect("Class", opts["classes"], key="v_class", placeholder="every class")
    ui.keep("v_class")
with right:
    ui.start(
        "v_code",
        "code",
        [],
        multi=True,
        valid=lambda v: isinstance(v, list) and all(c in opts["codes"] for c in v),
    )
    codes = st.multiselect("Code", opts["codes"], key="v_code", placeholder="every code")
    ui.keep("v_code")
ui.share(**{"class": classes if classes != default_classes else None, "code": codes})

counts = ctx.q("finding_counts", f, tuple(codes), tuple(classes))
total = int(counts["by_code"]["n"].sum()) if not counts["by_code"].is_empty() else 0
st.metric("Findings", f"{total:,}")
if not total:
    st.info("No findings match these filters.")
    st.stop()
PAGE = 500
pages = -(-total // PAGE)
page = 1
if pages > 1:
    page = int(
        st.number_input(
            f"Page (of {pages:,}, {PAGE} findings each, newest first)",
            min_value=1,
            max_value=pages,
            step=1,
            key="v_page",
        )
    )
rows, _ = ctx.q("findings", f, tuple(codes), tuple(classes), PAGE, (page - 1) * PAGE)

a, b = st.columns(2)
with a:
    st.subheader("By code")
    ui.bars(
        counts["by_code"].head(20),
        "code",
        "n",
        color="class",
        group=False,
        horizontal=True,
        category_title="",
        value_title="findings",
    )
with b:
    st.subheader("By player")
    if counts["by_player"].is_empty():
        st.caption("None of these findings names a player.")
    else:
        ui.bars(
            counts["by_player"].head(20),
            "player",
            "n",
            horizontal=True,
            category_title="",
            value_title="findings",
        )

st.subheader("Findings")
if pages > 1:
    first = (page - 1) * PAGE + 1
    st.caption(f"Findings {first:,}–{first + rows.height - 1:,} of {total:,}.")
rows = rows.with_columns(
    pl.struct("game_id", "hand_no", "event_index")
    .map_elements(
        lambda r: ui.link(
            "replayer", sitting=r["game_id"], hand=r["hand_no"], event=r["event_index"]
        ),
        return_dtype=pl.String,
    )
    .alias("replay")
)
st.dataframe(
    rows,
    hide_index=True,
    width="stretch",
    height=min(600, 38 + 35 * rows.height),
    column_order=[
        "at",
        "replay",
        "code",
        "class",
        "player",
        "message",
        "game_id",
        "hand_no",
        "event_index",
        "reason",
        "venue",
        "table",
        "ruleset",
    ],
    column_config={
        "at": st.column_config.DatetimeColumn("When", format="YYYY-MM-DD HH:mm"),
        "replay": st.column_config.LinkColumn("Replay", display_text="at the event ▶"),
        "game_id": "Sitting",
        "hand_no": "Hand",
        "event_index": "Event",
        "message": st.column_config.TextColumn("Message", width="large"),
    },
)

shown = rows.select("game_id", "hand_no").unique(maintain_order=True).rows()
pick = st.selectbox(
    "Report of a hand with these findings",
    shown,
    format_func=lambda gh: f"{gh[0]} · hand {gh[1]}",
    key="v_report_hand",
)
if pick is not None:
    ui.report_button(ctx, pick[0], pick[1], key="v_report")
