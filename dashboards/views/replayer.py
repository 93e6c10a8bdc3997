"""Hand replayer: pick a sitting and hand (or arrive from a link), step through the
events, see the table drawn with tiles (chắn: cards), the findings so far, and at the end
the result the replay computed beside the one the log recorded.

Every ruleset's table is the engine's own view model (:func:`replay.engine.run.table_view`:
the hand state the auditor steps, up to the event), with the findings of the replay tables
(or of the engine, run now, for a hand not replayed)."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st
from mjaudit.parts.dashboards import chan_terms, ui
from mjaudit.parts.dashboards.describe import describe
from mjaudit.parts.dashboards.faces import is_cards
from mjaudit.parts.dashboards.table_view import (
    engine_report,
    events_html,
    findings_frame,
    result_of,
    steps,
    table_html,
    table_view,
)
from mjaudit.parts.replay.engine.view import position_text

ctx = ui.require(replayed=False)
f = ctx.filters
st.header("Hand replayer")

sits, n_sits = ctx.q("sittings", f)
games: list[str] = sits["game_id"].to_list()
labels = {
    r["game_id"]: f"{r['game_id']} · {r['day']} · {r['venue'] or '–'} {r['table'] or ''} · "
    f"{r['hands']} hands"
    for r in sits.iter_rows(named=True)
}


def _exists(game: Any) -> bool:
    return isinstance(game, str) and (game in labels or not ctx.q("hands_of", game).is_empty())


def _reset(*keys: str) -> None:
    """A new sitting or hand starts at its first hand, after the deal."""
    for key in keys:
        ui.forget(key)


ui.start("r_game", "sitting", games[0] if games else None, valid=_exists, expect="no such sitting")
game = st.session_state["r_game"]
if game is None:
    st.info("No sittings match the filters.")
    st.stop()
if game not in labels:
    games = [game, *games]  # arrived from a link to a sitting the filters leave out
    labels[game] = game
top = st.columns([3, 2])
top[0].selectbox(
    "Sitting",
    games,
    key="r_game",
    format_func=lambda g: labels.get(g, g),
    on_change=_reset,
    args=("r_hand", "r_event"),
)
ui.keep("r_game")
ui.note_rows(len(games), max(n_sits, len(games)), "sittings")

hands = ctx.q("hands_of", game)
hand_labels = {
    r["hand_no"]: f"hand {r['hand_no']}"
    + (f" · {r['ended_by'].replace('_', ' ')}" if r["ended_by"] else " · not replayed")
    + (f" by {r['winners']}" if r["winners"] else "")
    + (
        f", {r['fan']} {'điểm' if is_cards(r['ruleset']) else 'fan'}"
        if r["fan"] is not None and r["ended_by"] == "win"
        else ""
    )
    + (f" · {r['n_serious']} finding{'s' if r['n_serious'] > 1 else ''}" if r["n_serious"] else "")
    for r in hands.iter_rows(named=True)
}
hand_nos = list(hand_labels)
ui.start(
    "r_hand",
    "hand",
    hand_nos[0],
    valid=lambda h: h in hand_labels,
    parse=int,
    expect=f"this sitting's hands are {hand_nos[0]}-{hand_nos[-1]}",
)
top[1].selectbox(
    "Hand",
    hand_nos,
    key="r_hand",
    format_func=lambda h: hand_labels[h],
    on_change=_reset,
    args=("r_event",),
)
ui.keep("r_hand")
hand_no = st.session_state["r_hand"]

record = ctx.q("load_record", game, hand_no)
if record is None:
    st.error(f"Hand {hand_no} of {game} is not in the archive.")
    st.stop()
events = record["events"]
n = len(events)
ruleset = record["ruleset"]
cards = is_cards(ruleset)
ui.share(sitting=game, hand=hand_no)
ui.report_button(ctx, game, hand_no, key="r_report")
if n == 0:
    st.info("This hand has no events to step through (a results-only hand).")

audit = ctx.q("hand_findings", game, hand_no)
computed = ctx.q("computed_result", game, hand_no)
engine_error: str | None = None
report = None
if audit.is_empty() and computed is None:
    # not replayed yet: the findings the engine raises now (any registered ruleset)
    report, engine_error = engine_report(record)
    audit = findings_frame(record, report.findings if report is not None else ())
if engine_error:
    st.error(f"The {ruleset} engine failed on this hand: {engine_error}")
if n == 0:
    st.dataframe(audit, hide_index=True, width="stretch")
    st.stop()
ui.start(
    "r_event",
    "event",
    -1,
    valid=ui.int_between(-1, n - 1),
    parse=int,
    expect=f"an event index from -1 (the deal) to {n - 1}",
)
at = st.session_state["r_event"]
finding_events = sorted({e for e in audit["event_index"].to_list() if e is not None})


def _go(to: int) -> None:
    st.session_state["r_event"] = max(-1, min(n - 1, to))


later = [e for e in finding_events if e > at]
buttons = st.columns([1, 1, 1, 1, 1.4, 3])
buttons[0].button(
    "Deal",
    icon=":material/first_page:",
    on_click=_go,
    args=(-1,),
    key="r_first",
    disabled=at <= -1,
    width="stretch",
)
buttons[1].button(
    "Back",
    icon=":material/chevron_left:",
    on_click=_go,
    args=(at - 1,),
    key="r_prev",
    disabled=at <= -1,
    width="stretch",
)
buttons[2].button(
    "Next",
    icon=":material/chevron_right:",
    on_click=_go,
    args=(at + 1,),
    key="r_next",
    disabled=at >= n - 1,
    width="stretch",
)
buttons[3].button(
    "End",
    icon=":material/last_page:",
    on_click=_go,
    args=(n - 1,),
    key="r_last",
    disabled=at >= n - 1,
    width="stretch",
)
buttons[4].button(
    "Next finding",
    icon=":material/report:",
    on_click=_go,
    args=(later[0] if later else at,),
    key="r_next_finding",
    disabled=not later,
    width="stretch",
)
st.slider("Event (−1 = after the deal)", min_value=-1, max_value=n - 1, key="r_event")
ui.keep("r_event")
ui.share(event=at)

try:
    if not steps(record):
        raise ValueError(f"the {ruleset} engine has no step-through view")
    view = table_view(record, at)
except Exception as exc:  # a hand the engine cannot step: the event list still shows
    st.error(f"The table cannot be drawn for this hand ({type(exc).__name__}: {exc}).")
    st.html(events_html(record, at, audit))
    st.stop()
dealer_word = "cái" if cards else "dealer"
st.markdown(
    f"**{describe(record, at)}** · {ruleset} · {dealer_word} {record['players'][record['dealer']]}"
)
now = audit.filter(pl.col("event_index") == at)
flagged = {int(s) for s in now["seat"].to_list() if s is not None}
st.html(table_html(view, flagged))
with st.expander("The same table as text (as `mjaudit show` prints it)"):
    st.code(position_text(view), language=None)

shown = audit.filter(pl.col("event_index").is_null() | (pl.col("event_index") <= at))
for r in now.iter_rows(named=True):
    who = f"{r['player']}: " if r["player"] else ""
    box = st.error if r["class"] != "INFO" else st.info
    box(
        f"**event {at} · {r['code']}** ({r['class']}) — {who}{r['message']}",
        icon=":material/report:",
    )
st.subheader("Findings so far")
if shown.is_empty():
    st.caption("No findings up to this event." + (" (The hand has some later.)" if later else ""))
else:
    st.dataframe(
        shown.select("event_index", "player", "code", "class", "message"),
        hide_index=True,
        width="stretch",
        column_config={
            "event_index": "Event",
            "message": st.column_config.TextColumn(width="large"),
        },
    )


def _outcome(res: dict[str, Any], names: list[str]) -> str:
    ended = (res.get("ended_by") or "").replace("_", " ")
    if not res.get("winners"):
        return ended or "no winner"
    who = ", ".join(names[w] for w in res["winners"])
    how = ""
    if res.get("self_drawn"):
        how = ", on their own draw" if cards else ", self-drawn"
    elif res.get("discarder") is not None:
        whose = names[res["discarder"]]
        how = f", on the card {whose} drew" if cards else f", on {whose}'s discard"
    unit = "điểm" if cards else "fan"
    fan = f", {res['fan']} {unit}" if res.get("fan") is not None else ""
    raw = f" (raw {res['raw_fan']})" if res.get("raw_fan") not in (None, res.get("fan")) else ""
    return f"{who} wins{how}{fan}{raw}"


def _patterns(pairs: list[tuple[str, int]] | list[str]) -> str:
    """``Patterns: a 1, b 2`` (mahjong) or ``Cước: Tôm 4, Chì 3`` (chắn)."""
    counted: dict[tuple[str, int | None], int] = {}
    for item in pairs:
        key = (item, None) if isinstance(item, str) else (item[0], item[1])
        counted[key] = counted.get(key, 0) + 1
    items = []
    for (pid, value), k in counted.items():
        label = chan_terms.cuoc_name(pid) if cards else pid
        text = label if value is None else f"{label} {value}"
        items.append(text + (f" ×{k}" if k > 1 else ""))
    return ("Cước: " if cards else "Patterns: ") + ", ".join(items)


if at == n - 1:
    st.subheader("Result")
    names = record["players"]
    if computed is None and report is not None:  # not replayed yet: the engine's report now
        computed = result_of(report)
    recorded = record.get("result")
    left, right = st.columns(2)
    with left:
        st.markdown("**Computed by the replay**")
        if computed is None:
            st.markdown(f"Nothing: the {ruleset} rules engine is not built yet.")
        else:
            st.markdown(_outcome(computed, names))
            if computed["patterns"]:
                st.markdown(_patterns(computed["patterns"]))
            if computed["liable"] is not None:
                st.markdown(f"Liable: {names[computed['liable']]}")
    with right:
        st.markdown("**Recorded in the log**")
        if recorded is None:
            st.markdown("The log records no result.")
        else:
            st.markdown(
                _outcome(
                    {
                        "winners": recorded.get("winners", []),
                        "fan": recorded.get("fan"),
                        "ended_by": "no winner",
                    },
                    names,
                )
            )
            if recorded.get("patterns"):
                st.markdown(_patterns(recorded["patterns"]))
    rec_deltas = (recorded or {}).get("deltas")
    deltas = (computed or {}).get("deltas")
    pay = pl.DataFrame(
        {
            "player": names,
            "computed": deltas or [None] * len(names),
            "recorded": rec_deltas or [None] * len(names),
        },
        schema={"player": pl.String, "computed": pl.Float64, "recorded": pl.Float64},
    )
    st.dataframe(pay, hide_index=True)
    if computed is not None and computed["matches_recorded"] is True:
        st.success("The recorded result matches the rules.")
    elif computed is not None and computed["matches_recorded"] is False:
        st.error("The recorded result differs from the rules: see RECORDED_RESULT_MISMATCH above.")

with st.expander(f"All {n} events"):
    st.html(events_html(record, at, audit))
