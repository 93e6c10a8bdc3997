"""One player: net points over time, moving win and deal-in rates, fans, how they win,
who they pay, and head-to-head against each opponent, all from the summary tables (per
sitting and day, so the moving rates cover whole sittings)."""

from __future__ import annotations

import polars as pl
import streamlit as st
from mjaudit.parts.dashboards import data, ui
from mjaudit.parts.schemas.rulesets import RULESETS as SHAPES
from mjaudit.parts.schemas.rulesets import game_terms

ctx = ui.require()
f = ctx.filters
st.header("Player")
names = list(f.players) or ctx.options["players"]
ui.start("p_name", "name", names[0], valid=lambda v: v in names)
name = st.selectbox("Player", names, key="p_name")
ui.keep("p_name")
MAX_WINDOW = 100_000  # hands; a larger window is the whole history anyway
ui.start_count("p_window", "window", 50, 1, MAX_WINDOW, "hands")
ui.share(name=name)

terms = game_terms(f.game)  # chắn: điểm instead of fan; no deal-ins (no win on a discard)
# Per sitting and day, from the summary tables (a player of 10M hands has ~20,000 hands;
# the page never reads them one by one).
sits = ctx.q("player_sittings", f, name)
if sits.is_empty():
    st.info(f"{name} has no replayed hands under these filters.")
    st.stop()
fans = ctx.q("player_fans", f, name)
# Fan, phán and card points (and the currencies they are paid in) never add up: a player
# of several units is shown one unit at a time.
unit_of = {rid: shape.unit for rid, shape in SHAPES.items()}  # (the engines not imported)
by_unit: dict[str, list[str]] = {}
for rid in sorted(set(sits["ruleset"].to_list())):
    by_unit.setdefault(unit_of.get(rid, rid), []).append(rid)
units = sorted(by_unit)
unit = units[0]
if len(units) > 1:
    unit = st.radio("Unit", units, horizontal=True, key="p_unit", help="never added together")
    sits = sits.filter(pl.col("ruleset").is_in(by_unit[unit]))
    fans = fans.filter(pl.col("ruleset").is_in(by_unit[unit]))
chosen = tuple(by_unit[unit]) if len(units) > 1 else None
n, n_wins = int(sits["hands"].sum()), int(sits["wins"].sum())
self_drawn = int(sits["self_draws"].sum())
deal_ins = int(sits["deal_ins"].sum())
net = float(sits["net"].sum())
valued = fans.filter(pl.col("fan").is_not_null())
avg_fan = (
    float((valued["fan"] * valued["wins"]).sum() / valued["wins"].sum())
    if valued["wins"].sum()
    else None
)
cols = st.columns(6)
cols[0].metric("Hands", f"{n:,}")
cols[1].metric("Wins", f"{n_wins:,}", ui.pct(n_wins / n), delta_color="off", delta_arrow="off")
cols[2].metric(
    terms.own_draw,
    f"{self_drawn:,}",
    ui.pct(self_drawn / n_wins if n_wins else None),
    delta_color="off",
    delta_arrow="off",
    help="share of their wins",
)
if terms.deal_ins:
    cols[3].metric(
        "Deal-ins", f"{deal_ins:,}", ui.pct(deal_ins / n), delta_color="off", delta_arrow="off"
    )
else:  # no win on a discard (chắn): the hands that ended without a winner instead
    draws = ctx.q("player_draws", f, name)
    cols[3].metric(
        terms.draws, f"{draws:,}", ui.pct(draws / n), delta_color="off", delta_arrow="off"
    )
cols[4].metric(f"Net {terms.points}", ui.num(net))
cols[5].metric(f"Avg {unit}", ui.num(avg_fan) if avg_fan is not None else "–")

series = sits.with_columns(
    pl.col("hands").cum_sum().alias("hand"),
    pl.col("net").cum_sum().alias("net points"),
)
st.subheader("Net points over time")
ui.lines(ui.thin(series.select("at", "net points")), "at", ["net points"], x_title="date")

rate_cols = ["win rate", "deal-in rate"] if terms.deal_ins else ["win rate"]
st.subheader("Win and deal-in rates" if terms.deal_ins else "Win rate")
window = st.number_input(
    "Moving average over the last N hands (whole sittings)",
    min_value=1,
    max_value=MAX_WINDOW,
    step=10,
    key="p_window",
)
ui.keep("p_window")
ui.share(window=window if window != 50 else None)
rates = data.moving_rates(sits, int(window))
ui.lines(
    ui.thin(rates.select("hand", *rate_cols)),
    "hand",
    rate_cols,
    x_title="hand",
    y_title="rate",
    height=240,
)

left, right = st.columns(2)
with left:
    st.subheader(f"{unit.capitalize()} of their wins")
    if n_wins:
        ui.bars(
            fans.group_by("fan").agg(pl.col("wins").sum()).sort("fan"),
            "fan",
            "wins",
            category_title=unit,
            height=240,
        )
    else:
        st.caption("No wins yet.")
with right:
    st.subheader("How they win")
    ways = list(terms.win_ways)
    how = pl.DataFrame({"how": ways, "wins": [self_drawn, n_wins - self_drawn]})
    ui.bars(how, "how", "wins", horizontal=True, category_title="")

h2h = ctx.q("head_to_head", f, name, chosen)
st.subheader("Who they pay")
st.caption("Points they lost in hands each opponent won (and won from each opponent).")
pay = (
    h2h.filter((pl.col("paid_to") > 0) | (pl.col("received_from") > 0))
    .sort("paid_to", descending=True)
    .head(15)
)
if pay.is_empty():
    st.caption("No payments between them and anyone yet.")
else:
    flows = pay.select(
        "opponent",
        pl.col("paid_to").alias("paid to"),
        pl.col("received_from").alias("received from"),
    ).unpivot(index="opponent", variable_name="direction", value_name="points")
    ui.bars(flows, "opponent", "points", color="direction", horizontal=True, category_title="")
st.subheader("Head to head")
st.dataframe(
    h2h.with_columns(
        pl.col("opponent")
        .map_elements(lambda p: ui.link("player", name=p), return_dtype=pl.String)
        .alias("page")
    ),
    hide_index=True,
    width="stretch",
    column_order=[
        "opponent",
        "page",
        "hands",
        "net",
        "their_net",
        "wins",
        "their_wins",
        "dealt_in_to_them",
        "they_dealt_in",
        "paid_to",
        "received_from",
    ],
    column_config={
        "opponent": "Opponent",
        "page": st.column_config.LinkColumn("Details", display_text="open ›"),
        "hands": "Hands together",
        "net": st.column_config.NumberColumn(f"{name} net", format="localized"),
        "their_net": st.column_config.NumberColumn("Their net", format="localized"),
        "wins": f"{name} wins",
        "their_wins": "Their wins",
        "dealt_in_to_them": f"{name} dealt in to them",
        "they_dealt_in": f"They dealt in to {name}",
        "paid_to": st.column_config.NumberColumn("Paid to them", format="localized"),
        "received_from": st.column_config.NumberColumn("Received from them", format="localized"),
    },
)
