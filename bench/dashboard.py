"""Dashboard benchmark: the queries behind each page, timed on a large archive.

    python bench/dashboard.py [--hands 1000000] [--workdir bench/out] [--rebuild]

Ingesting a million hands from JSON would take long, so the archive is written straight
into the table schemas (``schemas/tables.py``) through ``DataDir.commit_parts``: the
ingest tables repeat the events, walls and deals of a few real synthetic hands
(``bench/synthlog.py``) under fresh keys, and the replay tables get plausible outcomes
(wins, self-draws, deal-ins, fans, patterns, violations) drawn from seeded random numbers.
The outcomes do not follow from the events; only sizes and distributions matter here.

The summary tables are derived from those rows by the replay's own function
(``replay/archive/summary.py``), and every replay table is written by the replay's own
bucket writer (``replay/archive/update.py``: a file per bucket and ruleset, the player
summaries in player order across the bucket), so the pages read the files a real replay
leaves.

The archive is kept in ``WORKDIR/dashboard-HANDS`` and reused unless ``--rebuild``. Then
the script opens the archive as the dashboard does (first load, timed on its own) and
times the queries of each page with fresh filters (nothing cached), printing seconds per
query and per page, then each page as Streamlit runs it and ``mjaudit stats`` as a user
runs it (five runs: wall and CPU seconds). Targets: a page's first render under 1 s once
the app is up, under 0.3 s when the filters change; ``mjaudit stats`` under 2 s with its
start-up.

``--events-hands M`` writes the events of the first M hands only: the events are most of
the bytes and of the writing time, and only the replayer reads them, one hand at a time
(it opens a sitting among the first 3% of the games). A 10M-hand archive with
``--events-hands 500000`` is written in about 6 minutes on this machine.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import msgspec
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjaudit.parts.dashboards.table_view import table_view  # noqa: E402
from mjaudit.parts.ingest.store import DataDir, Part  # noqa: E402
from mjaudit.parts.replay.archive.plan import N_BUCKETS, bucket_of  # noqa: E402
from mjaudit.parts.replay.archive.summary import summary_tables  # noqa: E402
from mjaudit.parts.replay.archive.totals import refresh_totals, totals_parts  # noqa: E402
from mjaudit.parts.replay.archive.update import _Spill, _Staged, finish_bucket  # noqa: E402
from mjaudit.parts.schemas.records import parse_record  # noqa: E402
from mjaudit.parts.schemas.rows import RowBuffers  # noqa: E402
from mjaudit.parts.schemas.tables import (  # noqa: E402
    ALL_TABLES,
    REPLAY_TABLES,
    RIICHI_SEAT_FACTS,
    SCORES,
    TOTALS_OF,
)

from bench.common import add_smoke, print_peak_memory, smoke_workdir  # noqa: E402
from bench.synthlog import hand as synth_hand  # noqa: E402

HANDS_PER_GAME = 16
N_PLAYERS = 2000
N_TEMPLATES = 64
CHUNK_HANDS = 100_000
VENUES = ("Lotus Club", "Jade Hall", "Harbour Room")
# (ruleset, patterns with their fan, pattern weights, cap, min fan)
RULESETS = {
    "hk-mahjongo": (
        [
            ("self_draw", 1),
            ("all_chows", 1),
            ("concealed_hand", 1),
            ("dragon_pung", 1),
            ("seat_wind_pung", 1),
            ("prevailing_wind_pung", 1),
            ("half_flush", 3),
            ("all_pungs", 3),
            ("little_three_dragons", 3),
            ("full_flush", 7),
            ("all_honours", 10),
            ("thirteen_orphans", 10),
        ],
        [14, 12, 12, 14, 10, 8, 12, 8, 4, 3, 0.6, 0.4],
        10,
        3,
    ),
    "hk-classic": (
        [
            ("self_draw", 1),
            ("no_flowers", 1),
            ("seat_flower", 1),
            ("all_chows", 1),
            ("dragon_pung", 1),
            ("half_flush", 3),
            ("all_pungs", 3),
            ("full_flush", 6),
            ("big_three_dragons", 6),
            ("thirteen_orphans", 8),
            ("chicken_hand", 0),
        ],
        [14, 10, 12, 12, 14, 10, 8, 3, 1, 0.5, 6],
        8,
        0,
    ),
}
VIOLATIONS = (
    "FALSE_WIN",
    "DISCARD_OUT_OF_TURN",
    "SHORT_HAND",
    "LONG_HAND",
    "FLOWER_NOT_DECLARED",
    "CHOW_NOT_FROM_LEFT",
    "CLAIM_PRIORITY_VIOLATION",
    "DRAW_OUT_OF_TURN",
)


def _templates(seed: int) -> tuple[pa.Table, pa.Table, np.ndarray]:
    """Hands and events of ``N_TEMPLATES`` real synthetic hands, and each one's event count."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, 19, 0, tzinfo=timezone(timedelta(hours=7)))
    buf = RowBuffers()
    for t in range(N_TEMPLATES):
        rec = synth_hand(rng, f"tpl-{t}", 1, ["a", "b", "c", "d"], start)
        buf.add(parse_record(msgspec.json.encode(rec)), "bench", t + 1)
    tables = buf.to_tables()
    counts = np.asarray(tables["hands"]["n_events"].to_numpy(), dtype=np.int64)
    return tables["hands"], tables["events"], counts


def _chunk(
    rng: np.random.Generator,
    first: int,
    n: int,
    templates: tuple[pa.Table, pa.Table, np.ndarray],
    events_hands: int | None = None,
) -> dict[str, pa.Table]:
    """Rows of every table for hands ``first .. first + n - 1`` (whole games); events
    only for the hands before ``events_hands`` (None: all)."""
    tpl_hands, tpl_events, tpl_counts = templates
    idx = np.arange(first, first + n)
    game = idx // HANDS_PER_GAME
    hand_no = (idx % HANDS_PER_GAME + 1).astype(np.int64)
    games = np.unique(game)
    game_ids = pa.array([f"bench-{g:07d}" for g in games])
    gpos = game - games[0]
    game_id = pc.take(game_ids, pa.array(gpos))
    # per game: ruleset, venue, table, day, four distinct players
    n_games = len(games)
    g_rule = np.where(rng.random(n_games) < 0.7, 0, 1)
    g_venue = rng.integers(0, len(VENUES), n_games)
    g_table = rng.integers(1, 9, n_games)
    g_seat0 = rng.integers(0, N_PLAYERS, n_games)
    g_step = rng.integers(1, N_PLAYERS // 4, n_games)
    rule_names = list(RULESETS)
    ruleset = np.array(rule_names, dtype=object)[g_rule][gpos]
    day = games // 32  # 32 sittings a day across the club's rooms: 1M hands = 5.3 years
    base = np.datetime64("2019-01-01T12:00:00", "us")  # 19:00 at +07:00
    started = (
        base
        + (day[gpos] * 86_400_000_000).astype("timedelta64[us]")
        + (hand_no * 12 * 60_000_000).astype("timedelta64[us]")
    )
    tpl = rng.integers(0, N_TEMPLATES, n)
    seat = np.tile(np.arange(4, dtype=np.int64), n)
    hand_of_seat = np.repeat(np.arange(n), 4)
    player_no = (g_seat0[gpos][hand_of_seat] + seat * g_step[gpos][hand_of_seat]) % N_PLAYERS
    players = pa.array([f"player{p:04d}" for p in range(N_PLAYERS)])
    player = pc.take(players, pa.array(player_no))
    seat_game_id = pc.take(game_id, pa.array(hand_of_seat))
    seat_hand_no = hand_no[hand_of_seat]

    hands = pc.take(tpl_hands, pa.array(tpl))
    hands = hands.set_column(0, "game_id", game_id)
    hands = hands.set_column(1, "hand_no", pa.array(hand_no))
    hands = hands.set_column(hands.schema.get_field_index("ruleset"), "ruleset", pa.array(ruleset))
    hands = hands.set_column(
        hands.schema.get_field_index("started_at"),
        "started_at",
        pa.array(started, pa.timestamp("us", tz="UTC")),
    )
    hands = hands.set_column(
        hands.schema.get_field_index("venue"),
        "venue",
        pa.array(np.array(VENUES, dtype=object)[g_venue][gpos]),
    )
    hands = hands.set_column(
        hands.schema.get_field_index("table"),
        "table",
        pa.array([f"T{t}" for t in g_table[gpos]]),
    )
    hands = hands.set_column(
        hands.schema.get_field_index("content_hash"),
        "content_hash",
        pa.array([f"{i:016x}" for i in idx]),
    )

    # events: the template's rows under this hand's key
    offsets = np.concatenate([[0], np.cumsum(tpl_counts)])
    counts = tpl_counts[tpl]
    with_events = counts if events_hands is None else np.where(idx < events_hands, counts, 0)
    ev_hand = np.repeat(np.arange(n), with_events)
    ev_start = np.repeat(
        offsets[tpl] - np.concatenate([[0], np.cumsum(with_events)[:-1]]), with_events
    )
    ev_rows = np.arange(with_events.sum()) + ev_start
    events = pc.take(tpl_events, pa.array(ev_rows))
    events = events.set_column(0, "game_id", pc.take(game_id, pa.array(ev_hand)))
    events = events.set_column(1, "hand_no", pa.array(hand_no[ev_hand]))

    seats = pa.table(
        {
            "game_id": seat_game_id,
            "hand_no": seat_hand_no,
            "seat": seat,
            "player": player,
            "seat_wind": pa.array(np.array(["E", "S", "W", "N"], dtype=object)[seat]),
        }
    )

    # outcomes
    roll = rng.random(n)
    ended = np.select(
        [roll < 0.80, roll < 0.98, roll < 0.99], ["win", "exhaustive_draw", "false_win"], "abandon"
    )
    win = ended == "win"
    winner = rng.integers(0, 4, n)
    self_drawn = win & (rng.random(n) < 0.35)
    discarder = np.where(win & ~self_drawn, (winner + rng.integers(1, 4, n)) % 4, -1)
    n_pat = rng.integers(1, 4, n)
    fan = np.zeros(n, dtype=np.int64)
    raw_fan = np.zeros(n, dtype=np.int64)
    is_limit = np.zeros(n, dtype=bool)
    pat_rows: list[tuple[np.ndarray, list[str], np.ndarray]] = []
    for r, name in enumerate(rule_names):
        pats, weights, cap, min_fan = RULESETS[name]
        mask = win & (g_rule[gpos] == r)
        w = np.asarray(weights, dtype=float) / sum(weights)
        picks = rng.choice(len(pats), size=(n, 3), p=w)
        values = np.array([v for _, v in pats])[picks]
        used = np.arange(3)[None, :] < n_pat[:, None]
        raw = np.maximum((values * used).sum(axis=1), min_fan)
        raw_fan = np.where(mask, raw, raw_fan)
        fan = np.where(mask, np.minimum(raw, cap), fan)
        is_limit = np.where(mask, raw >= cap, is_limit)
        for k in range(3):
            sel = mask & used[:, k]
            # a pattern picked twice in one hand counts once
            if k:
                for j in range(k):
                    sel &= picks[:, k] != picks[:, j]
            pat_rows.append((np.flatnonzero(sel), [p for p, _ in pats], picks[sel, k]))
    points = 2.0 ** np.minimum(fan, 6)
    is_winner = win[hand_of_seat] & (seat == winner[hand_of_seat])
    is_disc = seat == discarder[hand_of_seat]
    delta = np.zeros(4 * n)
    p_seat = points[hand_of_seat]
    sd = self_drawn[hand_of_seat]
    won = win[hand_of_seat]
    delta = np.where(won & is_winner, np.where(sd, 6 * p_seat, 4 * p_seat), delta)
    delta = np.where(won & ~is_winner, np.where(sd | is_disc, -2 * p_seat, -p_seat), delta)
    false_win = (ended == "false_win")[hand_of_seat]
    delta = np.where(false_win, np.where(seat == winner[hand_of_seat], -192.0, 64.0), delta)
    liable = np.where(win & (rng.random(n) < 0.01), discarder, -1)
    scores = pa.table(
        {
            "game_id": seat_game_id,
            "hand_no": seat_hand_no,
            "seat": seat,
            "player": player,
            "delta": delta,
            "is_winner": is_winner,
            "is_discarder": is_disc & won,
            "is_liable": (seat == liable[hand_of_seat]) & (liable[hand_of_seat] >= 0),
            # riichi's own columns: the synthetic rulesets are not riichi
            **{f.name: pa.nulls(4 * n, f.type) for f in SCORES if f.name in RIICHI_SEAT_FACTS},
        }
    )
    recorded = pa.table(
        {
            "game_id": seat_game_id,
            "hand_no": seat_hand_no,
            "seat": seat,
            "player": player,
            "delta": delta,
            "is_winner": is_winner,
            "fan": pa.array(np.where(win, fan, 0)[hand_of_seat]),
            "patterns": pa.nulls(4 * n, pa.list_(pa.string())),
        }
    )

    # findings: violations on some hands, a score mismatch on a few
    viol = rng.random(n) < 0.03
    mism = rng.random(n) < 0.005
    f_hand = np.concatenate([np.flatnonzero(viol), np.flatnonzero(mism)])
    f_viol = np.concatenate([np.ones(viol.sum(), bool), np.zeros(mism.sum(), bool)])
    f_seat = np.where(f_viol, rng.integers(0, 4, len(f_hand)), -1)
    f_code = np.where(
        f_viol,
        np.array(VIOLATIONS, dtype=object)[rng.integers(0, len(VIOLATIONS), len(f_hand))],
        "RECORDED_RESULT_MISMATCH",
    )
    n_events = counts[f_hand]
    f_event = (rng.random(len(f_hand)) * n_events).astype(np.int64)
    order = np.argsort(f_hand, kind="stable")
    f_hand, f_viol, f_seat, f_code, f_event = (
        a[order] for a in (f_hand, f_viol, f_seat, f_code, f_event)
    )
    f_player = pc.take(player, pa.array(np.where(f_seat >= 0, f_hand * 4 + f_seat, 0)))
    f_player = pc.if_else(pa.array(f_seat >= 0), f_player, pa.nulls(len(f_hand), pa.string()))
    findings = pa.table(
        {
            "game_id": pc.take(game_id, pa.array(f_hand)),
            "hand_no": pa.array(hand_no[f_hand]),
            "ruleset": pa.array(ruleset[f_hand]),
            "seq": pa.array(np.zeros(len(f_hand), dtype=np.int32)),
            "event_index": pa.array(f_event),
            "seat": pa.array(f_seat, mask=f_seat < 0),
            "player": f_player,
            "code": pa.array(f_code),
            "reason": pa.nulls(len(f_hand), pa.string()),
            "class": pa.array(np.where(f_viol, "PLAYER_VIOLATION", "SCORE_MISMATCH")),
            "message": pa.array(
                np.where(f_viol, "a synthetic violation", "a synthetic score mismatch")
            ),
        }
    )
    n_find = np.bincount(f_hand, minlength=n).astype(np.int32)
    winners = pa.ListArray.from_arrays(
        pa.array(np.concatenate([[0], np.cumsum(win.astype(np.int32))]).astype(np.int32)),
        pa.array(winner[win].astype(np.int8)),
    )
    hand_results = pa.table(
        {
            "game_id": game_id,
            "hand_no": pa.array(hand_no),
            "ruleset": pa.array(ruleset),
            "content_hash": hands["content_hash"],
            "ended_by": pa.array(ended),
            "winners": winners,
            "self_drawn": pa.array(self_drawn),
            "discarder": pa.array(discarder, mask=discarder < 0),
            "fan": pa.array(fan, mask=~win),
            "raw_fan": pa.array(raw_fan, mask=~win),
            "is_limit": pa.array(is_limit, mask=~win),
            "liable": pa.array(liable, mask=liable < 0),
            "matches_recorded": pa.array(~mism),
            "n_findings": pa.array(n_find),
            "n_serious": pa.array(n_find),
        }
    )
    fan_parts = []
    for rows, names, picks in pat_rows:
        if not len(rows):
            continue
        values = np.array([RULESETS[ruleset[rows[0]]][0][p][1] for p in picks])
        fan_parts.append(
            pa.table(
                {
                    "game_id": pc.take(game_id, pa.array(rows)),
                    "hand_no": pa.array(hand_no[rows]),
                    "ruleset": pa.array(ruleset[rows]),
                    "seat": pa.array(winner[rows]),
                    "player": pc.take(player, pa.array(rows * 4 + winner[rows])),
                    "pattern": pa.array(np.array(names, dtype=object)[picks]),
                    "fan": pa.array(values),
                }
            )
        )
    fans = pa.concat_tables(fan_parts) if fan_parts else ALL_TABLES["fans"].empty_table()
    hands = hands.set_column(
        hands.schema.get_field_index("has_result"), "has_result", pa.array(np.ones(n, bool))
    )
    replayed = {"findings": findings, "scores": scores, "hand_results": hand_results, "fans": fans}
    hand_rows = pl.from_arrow(hands)
    assert isinstance(hand_rows, pl.DataFrame)
    return {
        "hands": hands,
        "seats": seats,
        "events": events,
        "recorded_results": recorded,
        "quarantine": ALL_TABLES["quarantine"].empty_table(),
        **replayed,
        **summary_tables(hand_rows, replayed),
    }


def _by_bucket(tables: dict[str, pa.Table]) -> dict[int, dict[str, pa.Table]]:
    """A chunk's replay rows split by their game's bucket, as a replay chunk returns them
    (``replay.archive.update.Fresh``)."""
    out: dict[int, dict[str, pa.Table]] = {}
    for name, table in tables.items():
        frame = pl.from_arrow(table)
        assert isinstance(frame, pl.DataFrame)
        games = frame["game_id"].unique().to_list()
        buckets = frame["game_id"].replace_strict(
            {g: bucket_of(g) for g in games}, return_dtype=pl.UInt8
        )
        for b in sorted(buckets.unique().to_list()):
            out.setdefault(b, {})[name] = table.filter((buckets == b).to_arrow())
    return out


def write_archive(root: Path, hands: int, seed: int = 7, events_hands: int | None = None) -> float:
    """Write an archive of ``hands`` hands (whole games) into ``root``, the events of the
    first ``events_hands`` only (None: all); return seconds."""
    start = time.perf_counter()
    shutil.rmtree(root, ignore_errors=True)
    templates = _templates(seed)
    rng = np.random.default_rng(seed)
    chunk = CHUNK_HANDS - CHUNK_HANDS % HANDS_PER_GAME
    data = DataDir(root)

    root.mkdir(parents=True)
    spill = _Spill(Path(tempfile.mkdtemp(prefix=".replayed-", dir=root.parent)))

    def parts() -> Iterator[Part]:
        for k, first in enumerate(range(0, hands, chunk)):
            tables = _chunk(rng, first, min(chunk, hands - first), templates, events_hands)
            spill.add(_by_bucket({n: t for n, t in tables.items() if n in REPLAY_TABLES}))
            for name, table in tables.items():
                if name not in REPLAY_TABLES and (table.num_rows or k == 0):
                    yield Part(name, table, stem=f"part{k:03d}")
            print(f"  wrote hands {first:,}..{min(first + chunk, hands) - 1:,}", flush=True)

    try:
        with data.writing():
            data.commit_parts(parts())
            # The replay tables as a replay writes them: a file per bucket and ruleset, the
            # summaries in their own order across the bucket, committed with their totals.
            spill.close()
            staged = _Staged(data)
            for b in range(N_BUCKETS):
                staged.written.extend(finish_bucket(str(root), b, None, spill.files(b)))
                print(f"  wrote the replay tables of bucket {b}", flush=True)
            staged.commit()
            refresh_totals(data)
    finally:
        shutil.rmtree(spill.folder, ignore_errors=True)
    return time.perf_counter() - start


def totals_seconds(root: Path) -> float:
    """Seconds the replay's recomputation of the stored totals takes (replay/archive/
    totals.py); commits them first if the archive has none of its summary files (one
    written before them)."""
    data = DataDir(root)
    with data.writing():
        if refresh_totals(data) is not None:
            print("  the archive had no totals of its summary files: committed them")
        files = {s: list(data.manifest()["tables"].get(s, [])) for s in TOTALS_OF.values()}
        return _timed(lambda: totals_parts(data, files, data.work_dir("totals")))


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(root: Path) -> list[tuple[str, str, float]]:
    """(page, query, seconds) for the queries behind each page, nothing cached."""
    from mjaudit.parts.dashboards import data as dd
    from mjaudit.parts.dashboards.queries import Filters

    timings: list[tuple[str, str, float]] = []
    t0 = time.perf_counter()
    archive = dd.open_archive(root)
    timings.append(("(first load)", "open archive", time.perf_counter() - t0))
    con = archive.con
    opts: dict[str, object] = {}
    timings.append(
        ("(first load)", "filter options", _timed(lambda: opts.update(dd.filter_options(con))))
    )
    players = opts["players"]
    assert isinstance(players, list) and players
    player = players[len(players) // 2]
    last = opts["last_day"]
    assert isinstance(last, date)
    # Each page is timed twice: the whole archive, and a narrower filter (one ruleset, the
    # last year, one venue), both never seen before by the connection.
    scopes = {
        "all": Filters(),
        "filtered": Filters(
            ruleset="hk-mahjongo", since=last - timedelta(days=365), until=last, venue=VENUES[0]
        ),
        # the sidebar's player choice: the hand figures of the hands they sat at
        "2 players": Filters(players=(player, players[0])),
    }
    (game,) = con.execute(  # a sitting in the middle (its hand 7 is drawn)
        "SELECT game_id FROM game_days WHERE ruleset = 'hk-mahjongo' "
        "ORDER BY game_id LIMIT 1 OFFSET (SELECT count(*) // 40 FROM game_days)"
    ).fetchall()[0]
    record = dd.load_record(con, game, 7)
    assert record is not None
    for scope, f in scopes.items():
        pages: dict[str, list[tuple[str, Callable[[], object]]]] = {
            "overview": [
                ("headline", lambda f=f: dd.overview(con, f)),
                ("activity", lambda f=f: dd.activity(con, f)),
                ("leaderboard", lambda f=f: dd.leaderboard(con, f, min_hands=50)),
            ],
            "players": [("player_stats", lambda f=f: dd.player_table(con, f))],
            "player": [
                ("player sittings", lambda f=f: dd.player_sittings(con, f, player)),
                ("player fans", lambda f=f: dd.player_fans(con, f, player)),
                ("head to head", lambda f=f: dd.head_to_head(con, f, player)),
            ],
            "fans": [
                ("fan histogram", lambda f=f: dd.fan_histogram(con, f)),
                ("pattern frequency", lambda f=f: dd.pattern_frequency(con, f)),
                ("payment by fan", lambda f=f: dd.payment_by_fan(con, f)),
                ("limit hands", lambda f=f: dd.limit_hands(con, f)),
            ],
            "violations": [
                ("finding options", lambda: dd.finding_options(con)),
                ("findings", lambda f=f: dd.findings(con, f, classes=("PLAYER_VIOLATION",))),
                ("counts", lambda f=f: dd.finding_counts(con, f, classes=("PLAYER_VIOLATION",))),
                (
                    "page 5",
                    lambda f=f: dd.findings(
                        con, f, classes=("PLAYER_VIOLATION",), limit=500, offset=2000
                    ),
                ),
            ],
            "replayer": [
                ("sittings", lambda f=f: dd.sittings(con, f)),
                ("hands of a sitting", lambda: dd.hands_of(con, game)),
                ("load one hand", lambda: dd.load_record(con, game, 7)),
                ("its findings", lambda: dd.hand_findings(con, game, 7)),
                ("its result", lambda: dd.computed_result(con, game, 7)),
                ("draw the table", lambda: table_view(record, len(record["events"]) // 2)),
            ],
        }
        for page, queries in pages.items():
            for name, fn in queries:
                timings.append((f"{page} [{scope}]", name, _timed(fn)))
    return timings


def measure_pages(root: Path) -> list[tuple[str, float]]:
    """Seconds per page as Streamlit runs it (AppTest, no browser): the first load, then
    every page with filters it has not seen (so no query result is cached)."""
    import os

    from mjaudit.parts.dashboards.app import DATA_ENV, SCRIPT
    from streamlit.testing.v1 import AppTest

    os.environ[DATA_ENV] = str(root)
    at = AppTest.from_file(SCRIPT, default_timeout=300)
    timings = [("(first load) overview", _timed(at.run))]
    pages = ["overview", "players", "player", "fans", "violations", "replayer"]

    def run(label: str) -> None:
        timings.append((label, _timed(at.run)))
        if at.exception:
            raise RuntimeError(f"{label}: {at.exception[0].value}")

    for scope, venue in (("all", "All"), ("one venue", VENUES[1])):
        if venue != "All":
            at.selectbox(key="f_venue").set_value(venue)
        for page in pages:
            at.switch_page(f"views/{page}.py")
            if page == "overview" and scope == "all":
                at.selectbox(key="f_ruleset").set_value("hk-classic")  # not seen yet
            run(f"{page} [{scope}]")
    # A filter changed on the page (a table, then a player chosen in the sidebar), each
    # value not seen before.
    tables = [f"T{t}" for t in range(1, 9)]
    for k, page in enumerate(pages):
        at.switch_page(f"views/{page}.py")
        at.run()
        at.selectbox(key="f_table").set_value(tables[k % len(tables)])
        run(f"{page} [table changed]")
    at.selectbox(key="f_table").set_value("All")
    players = at.multiselect(key="f_players").options
    for k, page in enumerate(pages):
        at.switch_page(f"views/{page}.py")
        at.run()
        at.multiselect(key="f_players").set_value([players[(37 * k + 11) % len(players)]])
        run(f"{page} [a player chosen]")
    return timings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--workdir", type=Path, default=ROOT / "bench" / "out")
    ap.add_argument("--rebuild", action="store_true", help="write the archive again")
    ap.add_argument(
        "--events-hands",
        type=int,
        default=None,
        metavar="M",
        help="write events for the first M hands only (a 10M archive builds in minutes;\n"
        "only the replayer reads events, and it opens a hand among the first 3%%)",
    )
    add_smoke(ap)
    args = ap.parse_args()
    if args.smoke:
        args.hands, args.workdir, args.rebuild = 2000, smoke_workdir("dashboard"), True
        args.events_hands = 1000
    suffix = f"-events{args.events_hands}" if args.events_hands is not None else ""
    root = args.workdir / f"dashboard-{args.hands}{suffix}"
    if args.rebuild or not DataDir(root).exists():
        print(f"writing an archive of {args.hands:,} hands into {root}")
        secs = write_archive(root, args.hands, events_hands=args.events_hands)
        size = sum(p.stat().st_size for p in root.rglob("*.parquet"))
        print(
            f"written in {secs:.1f} s ({args.hands / secs:,.0f} hands/s, "
            f"{size / 1e6 / secs:,.1f} MB/s, {size / 1e6:,.0f} MB of Parquet)"
        )
    print(f"stored totals recomputed from the summary tables in {totals_seconds(root):.2f} s")
    t0 = time.perf_counter()
    timings = measure(root)
    print(f"\n{'page':<24} {'query':<20} {'seconds':>8}")
    totals: dict[str, float] = {}
    for page, name, secs in timings:
        print(f"{page:<24} {name:<20} {secs:>8.3f}")
        totals[page] = totals.get(page, 0.0) + secs
    print(f"\n{'page':<24} {'total s':>8}")
    for page, secs in totals.items():
        flag = "" if page.startswith("(") or secs < 1 else "  over the 1 s target"
        print(f"{page:<24} {secs:>8.3f}{flag}")
    print(f"(queries measured in {time.perf_counter() - t0:.1f} s)")
    print(f"\n{'page as Streamlit runs it (AppTest)':<40} {'seconds':>8}")
    for page, secs in measure_pages(root):
        target = 0.3 if "changed" in page or "chosen" in page else 1.0
        flag = "" if page.startswith("(") or secs < target else f"  over the {target} s target"
        print(f"{page:<40} {secs:>8.3f}{flag}")
    runs = [_stats_seconds(root) for _ in range(5)]
    walls = sorted(w for w, _ in runs)
    cpus = sorted(c for _, c in runs)
    print(
        f"\n`mjaudit stats` (a new process, start-up included), 5 runs: wall median "
        f"{walls[2]:.2f} s (min {walls[0]:.2f}), CPU median {cpus[2]:.2f} s; "
        f"{args.hands / walls[2]:,.0f} hands/s"
    )
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print_peak_memory()


def _stats_seconds(root: Path) -> tuple[float, float]:
    """Wall and CPU seconds of ``mjaudit stats --data ROOT --format csv`` as a user runs it."""
    import resource
    import subprocess

    command = [sys.executable, "-m", "mjaudit", "stats", "--data", str(root), "--format", "csv"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


if __name__ == "__main__":
    main()
