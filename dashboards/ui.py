"""What every page shares: the data folder and its version, cached queries, the sidebar
filters, state kept in the URL, the empty state, and small display helpers.

The data folder comes from the ``MJAUDIT_DATA`` environment variable (set by
:func:`dashboards.app.launch`). The sidebar's options come from a light index of the whole
archive (:func:`dashboards.data.index`); the pages' queries run on the archive opened with
the scope of the sidebar's game, ruleset and dates (:meth:`Filters.scope`), so choosing a
ruleset or a period reads only those partitions. Archives are cached on (folder, manifest
version, scope) and query results on those and the arguments, so a new ingest or replay
shows up on the next rerun and nothing is read twice for the same view. Widgets take their
first value from the URL, then from what the page showed last in this session; after each
run the URL is rewritten from the widgets, so a copied link opens the same view.

The sidebar's Game selector (mahjong / chắn) offers the families present in the data and
starts on the one present (mahjong when both are): fan and cước are different units, so
every statistic is of one family.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import polars as pl
import streamlit as st
from mjaudit.parts.dashboards import data
from mjaudit.parts.dashboards.app import DATA_ENV
from mjaudit.parts.dashboards.queries import Filters
from mjaudit.parts.ingest.partitions import Scope
from mjaudit.parts.schemas.rulesets import DEFAULT_GAME, GAME_TERMS

DEFAULT_DATA = "mjdata"
ALL = "All"
QUERIES = frozenset(
    {
        "status",
        "filter_options",
        "overview",
        "activity",
        "leaderboard",
        "player_table",
        "riichi_table",
        "player_sittings",
        "player_fans",
        "player_draws",
        "head_to_head",
        "fan_histogram",
        "pattern_frequency",
        "payment_by_fan",
        "limit_hands",
        "finding_options",
        "findings",
        "finding_counts",
        "sittings",
        "hands_of",
        "load_record",
        "hand_findings",
        "computed_result",
        "hand_report",
        "chan_player_stats",
        "chan_summary",
        "cuoc_frequency",
        "score_histogram",
    }
)
# Queries that load no hand rows into memory (dashboards.data: the summary tables, and the
# findings list's page straight from its files), and those that do not unless the filters
# select players (then only the hand rows of the sittings they sat at) or some hands are
# not replayed yet (then the hand rows of the filters' scope).
SUMMARY_QUERIES = frozenset(
    {
        "leaderboard",
        "player_table",
        "riichi_table",
        "player_sittings",
        "player_fans",
        "head_to_head",
        "fan_histogram",
        "pattern_frequency",
        "payment_by_fan",
        "limit_hands",
        "finding_options",
        "chan_player_stats",
        "cuoc_frequency",
        "score_histogram",
    }
)
# Queries of one sitting (game_id first): the replayer may follow a link to any sitting.
SITTING_QUERIES = frozenset(
    {"hands_of", "load_record", "hand_findings", "computed_result", "hand_report"}
)
GAME_LABELS = {game.value: terms.label for game, terms in GAME_TERMS.items()}
_CTX = "_mj_ctx"
_URL = "_mj_url"
_KEPT = "_mj_kept"


def data_root() -> Path:
    return Path(os.environ.get(DATA_ENV) or DEFAULT_DATA).absolute()


@st.cache_data(max_entries=4, show_spinner=False)
def _index(root: str, version: int) -> dict[str, Any]:
    return data.index(Path(root))


@st.cache_resource(max_entries=3, show_spinner="Reading the archive into memory…")
def _archive(root: str, version: int, scope: tuple[str | None, ...]) -> data.Archive:
    return data.open_archive(Path(root), Scope.from_key(scope))


@st.cache_data(max_entries=512, show_spinner=False)
def _run(
    root: str, version: int, scope: tuple[str | None, ...], name: str, args: tuple[Any, ...]
) -> Any:
    con = _archive(root, version, scope).cursor()
    try:
        return getattr(data, name)(con, *args)
    finally:
        con.close()


@dataclass
class Context:
    """This run's data folder, version and filters."""

    root: Path
    version: int | None
    filters: Filters = field(default_factory=Filters)
    status: dict[str, int] = field(default_factory=lambda: {"hands": 0, "replayed": 0})
    options: dict[str, Any] = field(default_factory=dict)
    scope: Scope = field(default_factory=Scope)  # the partitions the pages' queries read
    unsummarised: int = 0  # replay files written before the summary tables existed

    @property
    def empty(self) -> bool:
        return self.version is None or self.status["hands"] == 0

    def q(self, name: str, *args: Any) -> Any:
        """Run the query ``dashboards.data.<name>(con, *args)`` on the archive opened with
        this run's scope, cached on the version and the scope."""
        if name not in QUERIES:
            raise ValueError(f"unknown query {name!r}")
        assert self.version is not None
        scope = self.scope.key()
        if name in SUMMARY_QUERIES or self.status["hands"] <= self.status["replayed"]:
            # The summary tables are small: one copy of the whole archive's answers every
            # filter, so changing the game, ruleset or dates loads nothing again; every
            # hand row a page reads then is read from the files, by game.
            scope = Scope().key()
        if name in SITTING_QUERIES and not self.scope.everything:
            # A link may name a sitting outside the filters: read it from the whole archive.
            here = _run(str(self.root), self.version, scope, "hands_of", args[:1])
            if here.is_empty():
                scope = Scope().key()
        return _run(str(self.root), self.version, scope, name, args)


# -- URL and widget state -------------------------------------------------------------------


def _url_params() -> dict[str, list[str]]:
    """The query string this session arrived with (read once, before any rewrite)."""
    if "_mj_arrived" not in st.session_state:
        st.session_state["_mj_arrived"] = {
            k: st.query_params.get_all(k)
            for k in st.query_params.keys()  # noqa: SIM118
        }
    return st.session_state["_mj_arrived"]


def start(
    key: str,
    url: str,
    default: Any,
    *,
    valid: Callable[[Any], bool] = lambda v: True,
    parse: Callable[[str], Any] = str,
    multi: bool = False,
    expect: str = "not one of the choices",
) -> None:
    """Give widget ``key`` its value before it is drawn: kept if still valid, else the
    URL's (``url``), else the value the page had when last shown, else ``default``. A URL
    value that does not parse or is not ``valid`` is reported (``expect`` says what the
    parameter takes) and ignored."""
    if key in st.session_state:
        if valid(st.session_state[key]):
            return
        del st.session_state[key]
    raw = _url_params().get(url, [])
    if raw and url not in st.session_state.setdefault("_mj_url_used", set()):
        try:
            value = [parse(x) for x in raw] if multi else parse(raw[-1])
        except (ValueError, OverflowError):
            value = _REJECTED
        if value is not _REJECTED and valid(value):
            st.session_state[key] = value
            return
        # A link from elsewhere can hold anything: say what was ignored, never fail on it.
        shown = ", ".join(raw) if multi else raw[-1]
        st.warning(f"The link's {url}={shown[:80]!r} is not valid here: {expect}; ignored.")
    kept = st.session_state.setdefault(_KEPT, {})
    if key in kept and valid(kept[key]):
        st.session_state[key] = kept[key]
        return
    st.session_state[key] = default


_REJECTED = object()


def int_between(lo: int, hi: int) -> Callable[[Any], bool]:
    """A ``valid`` test for a whole number within bounds (URL numbers can be any size)."""
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def start_count(key: str, url: str, default: int, lo: int, hi: int, unit: str) -> None:
    """:func:`start` for a number input counting ``unit`` (hands, say) from ``lo`` to ``hi``."""
    start(
        key,
        url,
        default,
        valid=int_between(lo, hi),
        parse=int,
        expect=f"a whole number of {unit} from {lo:,} to {hi:,}",
    )


def keep(key: str) -> None:
    """Remember widget ``key``'s value for the next visit to the page (Streamlit drops the
    state of widgets that a run does not draw), and stop reading it from the URL."""
    if key in st.session_state:
        st.session_state.setdefault(_KEPT, {})[key] = st.session_state[key]


def forget(key: str) -> None:
    """Drop widget ``key``'s value and its kept copy, so it starts from its default."""
    st.session_state.pop(key, None)
    st.session_state.get(_KEPT, {}).pop(key, None)


def share(**params: Any) -> None:
    """Put ``params`` in this run's URL (None and empty values are left out)."""
    url = st.session_state.setdefault(_URL, {})
    for name, value in params.items():
        if value is None or value == () or value == []:
            url.pop(name, None)
        elif isinstance(value, list | tuple):
            url[name] = [str(v) for v in value]
        else:
            url[name] = str(value)


def write_url() -> None:
    """Replace the query string with this run's parameters (the main script calls this
    after the page ran)."""
    params = st.session_state.get(_URL, {})
    current = {k: st.query_params.get_all(k) for k in st.query_params.keys()}  # noqa: SIM118
    wanted = {k: v if isinstance(v, list) else [v] for k, v in params.items()}
    if current != wanted:
        st.query_params.from_dict(params)
    st.session_state[_URL] = {}
    st.session_state["_mj_url_used"] = set(_url_params())


def link(page: str, **params: Any) -> str:
    """A relative link to ``page`` with ``params`` (for link columns and markdown)."""
    clean = {k: v for k, v in params.items() if v is not None}
    return f"{page}?{urlencode(clean, doseq=True)}" if clean else page


# -- the sidebar --------------------------------------------------------------------------


def _parse_day(text: str) -> date:
    return date.fromisoformat(text)


def sidebar(ctx: Context) -> Filters:
    """Draw the filters every page honours and return them."""
    opts = ctx.options
    first, last = opts["first_day"], opts["last_day"]
    side = st.sidebar
    side.header("Filters")
    games = opts.get("games") or [DEFAULT_GAME.value]
    start("f_game", "game", games[0], valid=lambda v: v in games)
    game = side.radio(
        "Game",
        games,
        key="f_game",
        format_func=lambda g: GAME_LABELS.get(g, g),
        horizontal=True,
        disabled=len(games) < 2,
        help="Mahjong hands score fan, chắn hands score cước and điểm: figures never mix them.",
    )
    rulesets = [ALL, *opts.get("rulesets_by_game", {}).get(game, opts["rulesets"])]
    start("f_ruleset", "ruleset", ALL, valid=lambda v: v in rulesets)
    ruleset = side.selectbox("Ruleset", rulesets, key="f_ruleset")
    venues = [ALL, *opts["venues"]]
    start("f_venue", "venue", ALL, valid=lambda v: v in venues)
    venue = side.selectbox("Venue", venues, key="f_venue")
    tables = [ALL, *opts["tables"]]
    start("f_table", "table", ALL, valid=lambda v: v in tables)
    table = side.selectbox("Table", tables, key="f_table")
    since = until = None
    if first is not None and last is not None:

        def in_range(v: Any) -> bool:
            return (
                isinstance(v, tuple)
                and 1 <= len(v) <= 2
                and all(isinstance(d, date) and first <= d <= last for d in v)
            )

        url = _url_params()
        if "f_dates" not in st.session_state and ("since" in url or "until" in url):
            try:
                pick = (
                    max(first, _parse_day(url.get("since", [first.isoformat()])[-1])),
                    min(last, _parse_day(url.get("until", [last.isoformat()])[-1])),
                )
                if pick[0] <= pick[1]:
                    st.session_state["f_dates"] = pick
            except ValueError:
                pass
        start("f_dates", "", (first, last), valid=in_range)
        dates = side.date_input(
            "Dates (local time of the table)",
            min_value=first,
            max_value=last,
            key="f_dates",
            format="YYYY-MM-DD",
        )
        picked = tuple(dates) if isinstance(dates, tuple | list) else (dates,)
        if picked and picked[0] > first:
            since = picked[0]
        if len(picked) == 2 and picked[1] < last:
            until = picked[1]
    source = ALL
    sources = [ALL, *opts.get("sources", [])]
    if len(sources) > 2:  # full logs and score sheets both present
        start("f_source", "source", ALL, valid=lambda v: v in sources)
        source = side.selectbox(
            "Source", sources, key="f_source", help="log: full game logs; sheet: score sheets"
        )
    players = opts["players"]
    known = set(players)
    start(
        "f_players",
        "players",
        [],
        valid=lambda v: isinstance(v, list) and all(p in known for p in v),
        parse=str,
        multi=True,
    )
    chosen = side.multiselect("Players", players, key="f_players", placeholder="everyone")
    filters = Filters(
        game=game,
        ruleset=None if ruleset == ALL else ruleset,
        since=since,
        until=until,
        venue=None if venue == ALL else venue,
        table=None if table == ALL else table,
        players=tuple(chosen),
        source_kind=None if source == ALL else source,
    )
    share(
        game=game if game != games[0] else None,
        source=filters.source_kind,
        ruleset=filters.ruleset,
        venue=filters.venue,
        table=filters.table,
        since=since.isoformat() if since else None,
        until=until.isoformat() if until else None,
        players=list(filters.players),
    )
    side.caption(f"Data: `{ctx.root}` (version {ctx.version})")
    return filters


def context() -> Context:
    """Build this run's context and draw the sidebar (the main script calls this once)."""
    root = data_root()
    try:
        version = data.data_version(root)
    except Exception as exc:  # an unreadable manifest: say so instead of a traceback
        st.error(f"Cannot read the data folder `{root}`: {exc}")
        version = None
    ctx = Context(root, version)
    if version is not None:
        found = _index(str(root), version)
        ctx.status = found["status"]
        ctx.unsummarised = found["unsummarised"]
        if ctx.status["hands"]:
            ctx.options = found["options"]
            ctx.filters = sidebar(ctx)
            ctx.scope = ctx.filters.scope()
    st.session_state[_CTX] = ctx
    return ctx


def require(replayed: bool = True) -> Context:
    """This run's context; with no data, show how to get some and stop the page.
    ``replayed``: the page shows replay results, so note hands not replayed yet."""
    ctx: Context = st.session_state.get(_CTX) or context()
    if ctx.empty:
        st.info(data.how_to_get_data(ctx.root), icon=":material/inbox:")
        st.stop()
    if replayed and ctx.unsummarised:
        st.warning(
            "This folder was replayed before the summary tables the statistics read "
            f"existed: its figures leave those hands out. Run `mjaudit replay --data {ctx.root}` "
            "once to write them."
        )
    elif replayed and ctx.status["replayed"] < ctx.status["hands"]:
        missing = ctx.status["hands"] - ctx.status["replayed"]
        st.warning(
            f"{missing:,} of {ctx.status['hands']:,} hands are not replayed yet and are left "
            f"out of the statistics: run `mjaudit replay --data {ctx.root}`."
        )
    return ctx


# -- display helpers ----------------------------------------------------------------------


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def num(x: float | None) -> str:
    if x is None:
        return "–"
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.2f}"


def thin(frame: pl.DataFrame, points: int = 2000) -> pl.DataFrame:
    """Every k-th row (and the last) so a chart draws at most about ``points`` points."""
    if frame.height <= points:
        return frame
    step = -(-frame.height // points)
    return (
        frame.with_row_index("_i")
        .filter((pl.col("_i") % step == 0) | (pl.col("_i") == frame.height - 1))
        .drop("_i")
    )


def note_rows(shown: int, total: int, what: str) -> None:
    if total > shown:
        st.caption(
            f"Showing the newest {shown:,} of {total:,} {what}; narrow the filters to see others."
        )


def chan_stat_columns() -> dict[str, Any]:
    """How the Players and Fans · cước pages show the columns of
    :data:`dashboards.data.CHAN_STAT_COLUMNS` (one place, so the two tables agree)."""
    num_col = st.column_config.NumberColumn
    return {
        "player": "Player",
        "hands": "Hands",
        "wins": "Wins (ù)",
        "win_rate": num_col("Win rate", format="percent"),
        "diem_won": num_col("Điểm won", format="localized"),
        "diem_paid": num_col("Điểm paid", format="localized"),
        "net_diem": num_col("Net điểm", format="localized"),
        "net_per_hand": num_col("Net / hand", format="%.2f"),
        "avg_score": num_col("Avg điểm of wins", format="%.2f"),
        "liable": num_col("Liable (đền)"),
        "n_violations": num_col("Violations"),
        "violations": st.column_config.TextColumn("By code"),
    }


def players_line(names: Iterable[str]) -> str:
    return ", ".join(names) or "–"


# Charts are given to Streamlit as Vega-Lite specs (plain dicts), not Altair objects: at
# 10M hands Altair's schema validation and deep copies took 0.13 s of the player page's
# 0.26 s when only a filter changed (its queries cached); the specs are the same charts.


def _vl_type(dtype: pl.DataType) -> str:
    if dtype.is_temporal() and not isinstance(dtype, pl.Duration):
        return "temporal"
    return "quantitative" if dtype.is_numeric() else "nominal"


def _tooltip(frame: pl.DataFrame) -> list[dict[str, str]]:
    return [{"field": c, "type": _vl_type(t)} for c, t in frame.schema.items()]


def lines(
    frame: pl.DataFrame,
    x: str,
    y: list[str],
    *,
    x_title: str,
    y_title: str | None = None,
    height: int = 260,
) -> None:
    """A line per column of ``y`` against ``x`` (one colour each, named in the legend);
    with few rows, each one is also a dot (a series of one row draws no line)."""
    x_axis = {"format": "d", "tickMinStep": 1} if frame.schema[x].is_integer() else {}
    mark = {"type": "line", "tooltip": True, "point": frame.height <= 60}
    x_enc = {"field": x, "type": _vl_type(frame.schema[x]), "title": x_title, "axis": x_axis}
    if len(y) == 1:  # one series: the theme's colour, its own name in the tooltip
        y_enc = {"field": y[0], "type": "quantitative", "title": y_title or y[0]}
        spec: dict[str, Any] = {"mark": mark, "encoding": {"x": x_enc, "y": y_enc}}
    else:
        spec = {
            "transform": [{"fold": y, "as": ["series", "value"]}],
            "mark": mark,
            "encoding": {
                "x": x_enc,
                "y": {"field": "value", "type": "quantitative", "title": y_title or ", ".join(y)},
                "color": {"field": "series", "type": "nominal", "title": None},
            },
        }
    spec["height"] = height
    st.vega_lite_chart(frame, spec, width="stretch")


def bars(
    frame: pl.DataFrame,
    category: str,
    value: str,
    *,
    color: str | None = None,
    group: bool = True,
    horizontal: bool = False,
    category_title: str | None = None,
    value_title: str | None = None,
    height: int = 260,
) -> None:
    """A bar chart with readable category labels: horizontal bars sorted by value (long
    names fit), or vertical bars in category order. Bars of each ``color`` stand side by
    side when ``group`` (else the colour only labels the bar)."""
    if frame.is_empty():
        st.caption("Nothing to show.")
        return
    cat_title = category if category_title is None else category_title
    val_title = value if value_title is None else value_title
    counts = frame.schema[value].is_integer()
    val_axis = {"format": "d", "tickMinStep": 1} if counts else {}
    val_enc = {"field": value, "type": "quantitative", "title": val_title, "axis": val_axis}
    grouped = color is not None and group
    enc: dict[str, Any] = {"tooltip": _tooltip(frame)}
    spec: dict[str, Any] = {"mark": {"type": "bar"}, "encoding": enc}
    if horizontal:
        enc["y"] = {
            "field": category,
            "type": "nominal",
            "sort": "-x",
            "title": cat_title,
            "axis": {"labelLimit": 320},
        }
        enc["x"] = val_enc
        per = 22 * (frame[color].n_unique() if grouped and color else 1) + 8
        spec["height"] = {"step": per}  # one band per category, however many there are
    else:
        enc["x"] = {
            "field": category,
            "type": "ordinal",
            "title": cat_title,
            "axis": {"labelAngle": 0},
        }
        enc["y"] = val_enc
        spec["height"] = height
    if color is not None:
        enc["color"] = {"field": color, "type": "nominal"}
        if grouped:
            enc["yOffset" if horizontal else "xOffset"] = {"field": color, "type": "nominal"}
    st.vega_lite_chart(frame, spec, width="stretch")


def report_button(ctx: Context, game_id: str, hand_no: int, key: str) -> None:
    """ "Download report": the hand's self-contained HTML report, the file ``mjaudit
    report GAME_ID HAND_NO`` writes (:mod:`dashboards.report`); built when the button is
    clicked (Streamlit calls ``build`` then: built on every run it took 0.2 s of the
    violations page at 10M hands, each time its hand changed), once per hand and archive
    version (cached like every query)."""

    def build() -> str:
        html = ctx.q("hand_report", game_id, hand_no, str(ctx.root))
        if html is None:  # the pages offer only hands they list: a folder changed since
            return f"<!doctype html><p>No hand {hand_no} in sitting {game_id}.</p>"
        return html

    st.download_button(
        "Download report",
        build,
        file_name=f"{game_id}-hand-{hand_no}.html",
        mime="text/html",
        icon=":material/download:",
        key=key,
        on_click="ignore",
        help="One HTML file to share: the findings, the table at each, the settlement.",
    )
