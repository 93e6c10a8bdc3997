"""Hand replayer: pick a sitting and hand (or arrive from a link), step through the
events, see the table drawn with tiles, the findings so far, and at the end the result
the replay computed beside the one the log recorded."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from dashboards import ui
from dashboards.table_view import describe, table_html, table_view
from replay.engine import replay_hand, supported

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


ui.start("r_game", "game", games[0] if games else None, valid=_exists)
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
    + (f", {r['fan']} fan" if r["fan"] is not None and r["ended_by"] == "win" else "")
    + (f" · {r['n_serious']} finding{'s' if r['n_serious'] > 1 else ''}" if r["n_serious"] else "")
    for r in hands.iter_rows(named=True)
}
hand_nos = list(hand_labels)
ui.start("r_hand", "hand", hand_nos[0], valid=lambda h: h in hand_labels, parse=int)
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
ui.share(game=game, hand=hand_no)
if not supported(record["ruleset"]) or n == 0:
    why = "it has no events" if n == 0 else f"the {record['ruleset']} rules engine is not built yet"
    st.info(f"This hand cannot be drawn: {why}.")
    st.dataframe(pl.DataFrame({"event": [describe(record, i) for i in range(n)]}), hide_index=True)
    st.stop()

audit = ctx.q("hand_findings", game, hand_no)
ui.start("r_event", "event", -1, valid=lambda e: isinstance(e, int) and -1 <= e < n, parse=int)
at = st.session_state["r_event"]
view = table_view(record, at)
if audit.is_empty() and ctx.q("computed_result", game, hand_no) is None:
    # not replayed yet: the findings the engine raised while stepping
    audit = pl.DataFrame(
        [
            {
                "event_index": x.event_index,
                "seat": x.seat,
                "player": record["players"][x.seat] if x.seat is not None else None,
                "code": x.code,
                "class": x.cls.value,
                "message": x.message,
            }
            for x in table_view(record, n - 1).findings
        ],
        schema={
            "event_index": pl.Int64,
            "seat": pl.Int64,
            "player": pl.String,
            "code": pl.String,
            "class": pl.String,
            "message": pl.String,
        },
    )
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

st.markdown(
    f"**{view.description}** · {record['ruleset']} · dealer {record['players'][record['dealer']]}"
)
now = audit.filter(pl.col("event_index") == at)
flagged = {int(s) for s in now["seat"].to_list() if s is not None}
st.html(table_html(view, flagged))

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
        how = ", self-drawn"
    elif res.get("discarder") is not None:
        how = f", on {names[res['discarder']]}'s discard"
    fan = f", {res['fan']} fan" if res.get("fan") is not None else ""
    raw = f" (raw {res['raw_fan']})" if res.get("raw_fan") not in (None, res.get("fan")) else ""
    return f"{who} wins{how}{fan}{raw}"


if at == n - 1:
    st.subheader("Result")
    names = record["players"]
    computed = ctx.q("computed_result", game, hand_no)
    if computed is None:  # not replayed yet: settle it now with the engine
        rep = replay_hand(record)
        computed = {
            "ended_by": rep.ended_by,
            "winners": list(rep.winners),
            "self_drawn": rep.self_drawn,
            "discarder": rep.discarder,
            "fan": rep.fan,
            "raw_fan": rep.raw_fan,
            "liable": rep.liable,
            "matches_recorded": rep.matches_recorded,
            "deltas": None if rep.deltas is None else list(rep.deltas),
            "patterns": list(rep.patterns),
        }
    recorded = record.get("result")
    left, right = st.columns(2)
    with left:
        st.markdown("**Computed by the replay**")
        st.markdown(_outcome(computed, names))
        if computed["patterns"]:
            st.markdown("Patterns: " + ", ".join(f"{p} {v}" for p, v in computed["patterns"]))
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
                st.markdown("Patterns: " + ", ".join(recorded["patterns"]))
    rec_deltas = (recorded or {}).get("deltas")
    pay = pl.DataFrame(
        {
            "player": names,
            "computed": computed["deltas"] or [None] * len(names),
            "recorded": rec_deltas or [None] * len(names),
        },
        schema={"player": pl.String, "computed": pl.Float64, "recorded": pl.Float64},
    )
    st.dataframe(pay, hide_index=True)
    if computed["matches_recorded"] is True:
        st.success("The recorded result matches the rules.")
    elif computed["matches_recorded"] is False:
        st.error("The recorded result differs from the rules: see RECORDED_RESULT_MISMATCH above.")

with st.expander(f"All {n} events"):
    st.dataframe(
        pl.DataFrame({"event": [describe(record, i) for i in range(n)]}),
        hide_index=True,
        width="stretch",
    )
