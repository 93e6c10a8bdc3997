"""Riichi replay throughput: our engine beside RiichiEnv (PyPI ``riichienv``) on the same logs.

Run: ``.venv/bin/python bench/riichi.py [--repeat N] [--smoke]``. The logs are the shipped
corpus (``tests/data/riichi/``: Tenhou XML, tenhou.net/6 JSON, MJAI), imported once before
timing. **Ours** replays every hand through ``replay_riichi`` (every action checked, the
value of each win from the ``mahjong`` package, the settlement compared with the log).

**RiichiEnv** reads only MJAI (and Mahjong Soul) logs, so every game is first written as
MJAI JSON lines (``to_mjai`` below, outside the timing; the RiichiEnv sample is the same
game as its original file). What RiichiEnv can do with such a log, and what is timed:
``MjaiReplay.from_jsonl`` (parse), every kyoku's ``steps()`` (its table replayed action by
action, an observation per decision) and ``take_win_result_contexts()`` with
``calculate`` (each recorded win's han and fu recomputed by its own scorer). It does not
check the legality findings we check or the payments, so the two figures are of different
work on the same hands; the bench also prints how many of the log's wins RiichiEnv's han
and ours agree on, and which games RiichiEnv refused. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mjaudit.parts.ingest.riichi_logs import ImportedRecord, read, sniff
from mjaudit.parts.replay.rulesets.riichi.replayer import replay_riichi
from mjaudit.parts.replay.rulesets.riichi.waits import waits

from bench.common import add_smoke, print_peak_memory

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "riichi"
SOURCES = ("mjx", "mjai-reviewer", "riichienv")
SMOKE_FILES = ("mjx/double-ron.mjlog", "riichienv/126_204_0_mjai.jsonl")
WINDS = "ESWN"


def games(smoke: bool) -> list[tuple[str, list[dict[str, Any]]]]:
    """(file, its hand records) for every corpus file, imported once."""
    paths = (
        [CORPUS / f for f in SMOKE_FILES]
        if smoke
        else [p for s in SOURCES for p in sorted((CORPUS / s).iterdir())]
    )
    out = []
    for path in paths:
        fmt = sniff(path)
        if fmt is None:
            continue
        recs = [i.record for i in read(path, fmt) if isinstance(i, ImportedRecord)]
        out.append((f"{path.parent.name}/{path.name}", recs))
    return out


def _mjai_tile(code: str) -> str:
    return {"0m": "5mr", "0p": "5pr", "0s": "5sr"}.get(code, code)


def to_mjai(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One game's records as MJAI events (what RiichiEnv reads)."""
    t = _mjai_tile
    out: list[dict[str, Any]] = [{"type": "start_game", "names": records[0]["players"]}]
    for rec in records:
        rnd = rec.get("round", 0)
        out.append(
            {
                "type": "start_kyoku",
                "bakaze": WINDS[(rnd // 4) % 4],
                "kyoku": rnd % 4 + 1,
                "honba": rec.get("honba", 0),
                "kyotaku": rec.get("riichi_sticks", 0),
                "oya": rec["dealer"],
                "scores": rec["scores"],
                "dora_marker": t(rec["dora"][0]),
                "tehais": [[t(c) for c in h] for h in rec["start_hands"]],
            }
        )
        pons: dict[tuple[int, str], list[str]] = {}
        events = rec["events"]
        drawn: dict[int, str] = {}
        reach: int | None = None
        wins = [e for e in events if e["type"] == "win"]
        for i, ev in enumerate(events):
            kind, seat = ev["type"], ev.get("seat")
            if (
                reach is not None
                and kind != "discard"
                and not (kind == "win" and ev.get("from") == reach)
            ):
                out.append({"type": "reach_accepted", "actor": reach})
                reach = None
            if kind in ("draw", "replacement"):
                drawn[seat] = ev["tile"]
                out.append({"type": "tsumo", "actor": seat, "pai": t(ev["tile"])})
            elif kind == "discard":
                out.append(
                    {
                        "type": "dahai",
                        "actor": seat,
                        "pai": t(ev["tile"]),
                        "tsumogiri": drawn.get(seat) == ev["tile"],
                    }
                )
                drawn.pop(seat, None)
                if reach == seat:
                    nxt = events[i + 1] if i + 1 < len(events) else {}
                    if not (nxt.get("type") == "win" and nxt.get("from") == seat):
                        out.append({"type": "reach_accepted", "actor": seat})
                    reach = None
            elif kind == "riichi":
                out.append({"type": "reach", "actor": seat})
                reach = seat
            elif kind == "chow":
                used = list(ev["tiles"])
                used.remove(ev["tile"])
                out.append(
                    {
                        "type": "chi",
                        "actor": seat,
                        "target": ev["from"],
                        "pai": t(ev["tile"]),
                        "consumed": [t(c) for c in used],
                    }
                )
            elif kind in ("pung", "kong"):
                used = list(ev.get("with") or [ev["tile"]] * (2 if kind == "pung" else 3))
                mj = "pon" if kind == "pung" else "daiminkan"
                out.append(
                    {
                        "type": mj,
                        "actor": seat,
                        "target": ev["from"],
                        "pai": t(ev["tile"]),
                        "consumed": [t(c) for c in used],
                    }
                )
                if kind == "pung":
                    pons[(seat, ev["tile"].replace("0", "5"))] = [*used, ev["tile"]]
            elif kind == "concealed_kong":
                used = list(ev.get("with") or [])
                if len(used) == 3:
                    used.append(ev["tile"])
                out.append({"type": "ankan", "actor": seat, "consumed": [t(c) for c in used]})
            elif kind == "added_kong":
                pon = pons.get((seat, ev["tile"].replace("0", "5")), [ev["tile"]] * 3)
                out.append(
                    {
                        "type": "kakan",
                        "actor": seat,
                        "pai": t(ev["tile"]),
                        "consumed": [t(c) for c in pon],
                    }
                )
            elif kind == "dora":
                out.append({"type": "dora", "dora_marker": t(ev["tile"])})
            elif kind == "win":
                last = ev is wins[-1]
                deltas = rec["result"].get("deltas") if last else [0, 0, 0, 0]
                out.append(
                    {
                        "type": "hora",
                        "actor": seat,
                        "target": ev.get("from", seat),
                        "pai": t(ev["tile"]),
                        "ura_markers": [t(c) for c in ev.get("ura", [])],
                        "deltas": deltas or [0, 0, 0, 0],
                    }
                )
            elif kind in ("exhaustive_draw", "abortive_draw"):
                out.append(
                    {"type": "ryukyoku", "deltas": rec["result"].get("deltas") or [0, 0, 0, 0]}
                )
        out.append({"type": "end_kyoku"})
    out.append({"type": "end_game"})
    return out


def bench_ours(
    corpus: list[tuple[str, list[dict[str, Any]]]], repeat: int
) -> tuple[int, float, int, dict[str, list[int]]]:
    """Hands a pass, the median pass's seconds, hands matching what their log recorded,
    and each game's computed han per win. The tenpai/wait cache is emptied before every
    pass, so a pass does not reuse the one before."""
    passes = []
    hans: dict[str, list[int]] = {}
    hands = matched = 0
    for _ in range(repeat):
        waits.cache_clear()
        hands = matched = 0
        started = time.perf_counter()
        for name, recs in corpus:
            previous = None
            for rec in recs:
                previous = replay_riichi(rec, None, previous)
                hands += 1
                matched += previous.matches_recorded is True
                hans.setdefault(name, []).extend(w["han"] for w in previous.extras["wins"])
        passes.append(time.perf_counter() - started)
    return (
        hands,
        statistics.median(passes),
        matched,
        {k: v[: len(v) // repeat] for k, v in hans.items()},
    )


def bench_riichienv(
    corpus: list[tuple[str, list[dict[str, Any]]]], repeat: int, ours_han: dict[str, list[int]]
) -> tuple[int, float, int, int, list[str]] | str:
    """Kyokus a pass, the median pass's seconds, wins recomputed, wins whose han equals
    ours, refused games."""
    try:
        from riichienv import MjaiReplay
    except ImportError as exc:  # the bench still prints our figure
        return f"riichienv is not installed ({exc})"
    folder = Path(tempfile.mkdtemp(prefix="mjaudit-bench-riichi-"))
    files = []
    for name, recs in corpus:
        path = folder / (name.replace("/", "__") + ".jsonl")
        path.write_text("".join(json.dumps(e) + "\n" for e in to_mjai(recs)))
        files.append((name, path))
    kyokus = wins = agree = 0
    refused: list[str] = []
    passes = []
    for n in range(repeat):
        kyokus = 0
        started = time.perf_counter()
        for name, path in files:
            try:
                replay = MjaiReplay.from_jsonl(str(path))
                hans = []
                for kyoku in replay.take_kyokus():
                    for _ in kyoku.steps():
                        pass
                    for ctx in kyoku.take_win_result_contexts():
                        hans.append(ctx.calculate(ctx.create_calculator()).han)
                    kyokus += 1
            except BaseException as exc:
                if n == 0:
                    refused.append(f"{name}: {type(exc).__name__}: {str(exc)[:80]}")
                continue
            if n == 0:
                wins += len(hans)
                agree += sum(a == b for a, b in zip(hans, ours_han.get(name, []), strict=False))
        passes.append(time.perf_counter() - started)
    return kyokus, statistics.median(passes), wins, agree, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="passes over the corpus")
    add_smoke(parser)
    args = parser.parse_args()
    repeat = 1 if args.smoke else max(1, args.repeat)
    corpus = games(args.smoke)
    n_hands = sum(len(r) for _, r in corpus)
    print(
        f"corpus: {len(corpus)} games, {n_hands} hands ({'smoke' if args.smoke else 'tests/data/riichi'})"
    )
    hands, secs, matched, ours_han = bench_ours(corpus, repeat)
    print(
        f"ours (mjaudit replay_riichi): {hands / secs:,.0f} hands/s ({hands} hands in "
        f"{secs:.2f} s, median of {repeat} passes; {matched} of {n_hands} match their log)"
    )
    got = bench_riichienv(corpus, repeat, ours_han)
    if isinstance(got, str):
        print(f"riichienv: not measured: {got}")
    else:
        kyokus, secs, wins, agree, refused = got
        print(
            f"riichienv (MjaiReplay steps + win recompute): {kyokus / secs:,.0f} hands/s "
            f"({kyokus} hands in {secs:.2f} s, median of {repeat} passes; {wins} wins "
            f"recomputed, han equal to ours on {agree})"
        )
        for line in refused:
            print(f"  riichienv refused {line}")
    print_peak_memory()


if __name__ == "__main__":
    main()
