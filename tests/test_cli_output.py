"""What the CLI prints is the data as it is: text from logs is never read as Rich markup,
and each --format gives what it names (issue: what users touch)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from mjaudit.cli import app
from tests.dashboards.chan_archive import build as build_chan

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()


def test_check_keeps_the_info_tag() -> None:
    """`[info]` was read as Rich markup and swallowed (mjaudit check vn160-evening)."""
    result = runner.invoke(app, ["check", str(EXAMPLES / "vn160-evening.jsonl")])
    assert "  [info] event 21 Wai-man: MAT_U:" in result.stdout


def test_show_prints_the_melds(tmp_path: Path) -> None:
    """`[pung 2m2m2m <- 2]` was read as Rich markup: `melds:` printed empty."""
    log = EXAMPLES / "club-night.jsonl"
    records = [json.loads(ln) for ln in log.read_text(encoding="utf-8").splitlines()]
    rec, at = next(
        (r, i) for r in records for i, ev in enumerate(r["events"]) if ev["type"] == "pung"
    )
    data = tmp_path / "data"
    assert runner.invoke(app, ["ingest", str(log), "--data", str(data)]).exit_code == 0
    shown = runner.invoke(
        app, ["show", rec["game_id"], str(rec["hand_no"]), "--data", str(data), "--at", str(at)]
    )
    assert shown.exit_code == 0, shown.output
    melds = [ln for ln in shown.stdout.splitlines() if ln.strip().startswith("melds:")]
    assert any("[pung " in ln for ln in melds), melds


def test_unreadable_records_keep_their_corrupt_tag() -> None:
    result = runner.invoke(app, ["check", str(EXAMPLES / "with-problems.jsonl")])
    assert "unreadable record: [CORRUPT] UNKNOWN_TILE:" in result.stdout


def test_stats_rejects_an_unknown_ruleset_with_the_list(tmp_path: Path) -> None:
    """`stats --ruleset mcr` silently matched nothing."""
    data = tmp_path / "data"
    runner.invoke(app, ["ingest", str(EXAMPLES / "club-night.jsonl"), "--data", str(data)])
    result = runner.invoke(app, ["stats", "--data", str(data), "--ruleset", "mcr"])
    assert result.exit_code == 2
    assert "unknown ruleset 'mcr'" in result.output and "hk-classic" in result.output


def test_chan_stats_tsv_is_tab_separated(tmp_path: Path) -> None:
    """`stats --game chan --format tsv` printed JSON."""
    data = build_chan(tmp_path / "data")
    result = runner.invoke(app, ["stats", "--data", str(data), "--game", "chan", "--format", "tsv"])
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.split("\t")[0] == "player" and rows
    assert not result.stdout.lstrip().startswith(("[", "{"))
    assert all(len(r.split("\t")) == len(header.split("\t")) for r in rows)


def test_an_unknown_event_type_lists_the_vocabulary_without_calling_it_unsupported() -> None:
    from mjaudit.parts.schemas.records import RecordError, parse_record

    rec = json.loads((EXAMPLES / "club-night.jsonl").read_text(encoding="utf-8").splitlines()[0])
    rec["events"][0]["type"] = "kita"
    try:
        parse_record(json.dumps(rec).encode())
    except RecordError as exc:
        assert "charleston_pass" in exc.message and "eat" in exc.message
        assert "not supported" not in exc.message
    else:
        raise AssertionError("an unknown event type was accepted")


def test_data_folder_from_mjaudit_data(tmp_path: Path, monkeypatch) -> None:
    """--data comes from MJAUDIT_DATA when not given (the dashboard reads the same)."""
    data = tmp_path / "from-env"
    monkeypatch.setenv("MJAUDIT_DATA", str(data))
    assert runner.invoke(app, ["ingest", str(EXAMPLES / "club-night.jsonl")]).exit_code == 0
    assert (data / "hands" / "_delta_log").is_dir()
    replayed = runner.invoke(app, ["replay"])
    assert replayed.exit_code == 0 and str(data) in replayed.stdout
    other = tmp_path / "given"
    assert (
        runner.invoke(
            app, ["ingest", str(EXAMPLES / "club-night.jsonl"), "--data", str(other)]
        ).exit_code
        == 0
    )
    assert (other / "hands" / "_delta_log").is_dir()


def test_shell_completion_is_on() -> None:
    result = runner.invoke(app, ["--help"])
    assert "--install-completion" in result.output and "--show-completion" in result.output


def _terminal_stderr(monkeypatch) -> io.StringIO:
    """The CLI's stderr console as a terminal would see it (progress is shown only there)."""
    import mjaudit.cli as cli

    buf = io.StringIO()
    monkeypatch.setattr(cli, "err", Console(file=buf, force_terminal=True, width=150))
    return buf


def test_simulate_and_replay_show_progress_in_hands_and_sittings(
    tmp_path: Path, monkeypatch
) -> None:
    """`simulate` ran minutes with no progress; `replay` showed a bare bar over tasks."""
    buf = _terminal_stderr(monkeypatch)
    log = tmp_path / "sim.jsonl"
    made = runner.invoke(
        app, ["simulate", "--ruleset", "hk-classic", "--games", "2", "--out", str(log)]
    )
    assert made.exit_code == 0, made.output
    hands = sum(1 for _ in log.open())
    shown = buf.getvalue()
    assert "2/2" in shown and f"{hands} hands" in shown and "eta" in shown
    data = tmp_path / "data"
    ingested = runner.invoke(app, ["ingest", str(log), "--data", str(data), "--no-replay"])
    assert ingested.exit_code == 0
    buf.truncate(0)
    assert runner.invoke(app, ["replay", "--data", str(data)]).exit_code == 0
    shown = buf.getvalue()
    assert "replay hands" in shown and f"{hands}/{hands}" in shown and "eta" in shown


def test_help_text_reflows_to_the_terminal() -> None:
    """Docstrings were wrapped at source width and wrapped again by the terminal."""
    result = runner.invoke(app, ["ingest", "--help"], env={"COLUMNS": "200"}, terminal_width=200)
    assert result.exit_code == 0
    line = next(ln for ln in result.stdout.splitlines() if "Logs: .jsonl" in ln)
    # the whole first sentence pair sits on one line of a wide terminal
    assert "Score sheets (Hong Kong club sheet text" in line, line


def test_reflow_keeps_lists_and_joins_prose() -> None:
    from mjaudit.helptext import reflow

    text = "First line\nwraps here.\n\nItems:\n- one\n- two\n\n    code block\n    kept"
    assert (
        reflow(text) == "First line wraps here.\n\nItems:\n- one\n- two\n\n    code block\n    kept"
    )


def test_ingest_replay_show_compact_print_one_json_object(tmp_path: Path) -> None:
    """`--format json` (ingest: `--output json`, its --format is the input's) for scripts."""
    log = tmp_path / "mixed.jsonl"
    good = (EXAMPLES / "club-night.jsonl").read_text(encoding="utf-8").splitlines()[:3]
    log.write_text("\n".join([*good, '{"format": "mjlog/1", "game_id": 5}']) + "\n")
    data = tmp_path / "data"
    ing = runner.invoke(
        app, ["ingest", str(log), "--data", str(data), "--output", "json", "--no-replay"]
    )
    assert ing.exit_code == 1, ing.output  # one record quarantined
    got = json.loads(ing.stdout)
    assert (got["hands_added"], got["quarantined"]) == (3, 1)
    assert sum(got["quarantine_codes"].values()) == 1
    rep = runner.invoke(app, ["replay", "--data", str(data), "--format", "json"])
    assert rep.exit_code == 0, rep.output
    got = json.loads(rep.stdout)
    assert (got["hands"], got["replayed"], got["engine_errors"]) == (3, 3, 0)
    rec = json.loads(good[0])
    shown = runner.invoke(
        app,
        [
            "show",
            rec["game_id"],
            str(rec["hand_no"]),
            "--data",
            str(data),
            "--at",
            "5",
            "--format",
            "json",
        ],
    )
    assert shown.exit_code == 0, shown.output
    got = json.loads(shown.stdout)
    assert got["event"] == rec["events"][5] and got["at"] == 5
    assert got["position"].startswith(f"game {rec['game_id']} hand {rec['hand_no']}")
    assert all(f["event_index"] is None or f["event_index"] <= 5 for f in got["findings"])
    comp = runner.invoke(app, ["compact", "--data", str(data), "--output", "json"])
    assert comp.exit_code == 0, comp.output
    tables = json.loads(comp.stdout)["tables"]
    assert tables["hands"]["files_after"] <= tables["hands"]["files_before"]


def test_ingest_replays_what_it_added_unless_no_replay(tmp_path: Path) -> None:
    """Score sheets: `stats --format tsv` printed only the header until `mjaudit replay`."""
    sheet = EXAMPLES / "club-sheet.txt"
    later = tmp_path / "later"
    held = runner.invoke(app, ["ingest", str(sheet), "--data", str(later), "--no-replay"])
    assert held.exit_code == 0 and "not replayed (--no-replay)" in held.stdout
    header_only = runner.invoke(app, ["stats", "--data", str(later), "--format", "tsv"])
    assert len(header_only.stdout.splitlines()) == 1
    now = tmp_path / "now"
    done = runner.invoke(app, ["ingest", str(sheet), "--data", str(now), "--output", "json"])
    assert done.exit_code == 0, done.output
    got = json.loads(done.stdout)
    assert got["replay"]["replayed"] == got["hands_added"] > 0
    rows = runner.invoke(app, ["stats", "--data", str(now), "--format", "tsv"]).stdout
    lines = rows.splitlines()
    assert lines[-1].startswith("*\t") and len(lines) > 2
    players = [ln.split("\t") for ln in lines[1:-1]]
    star = lines[-1].split("\t")
    assert int(star[1]) == sum(int(p[1]) for p in players)  # the sum of the player rows
    assert int(star[2]) == sum(int(p[2]) for p in players)


def test_stats_of_a_missing_folder_names_the_folder(tmp_path: Path) -> None:
    """The error names the path given, the same on every run (not a DataDir's repr)."""
    missing = tmp_path / "nothing"
    res = CliRunner().invoke(app, ["stats", "--data", str(missing)], env={"COLUMNS": "400"})
    assert res.exit_code == 2
    assert f"{missing}: no data here yet; run `mjaudit ingest FILES --data {missing}`" in res.output


def test_check_reports_in_hand_order_whatever_the_file_order(tmp_path: Path) -> None:
    """`check` keeps the validated records and builds each one's plain form when its turn
    comes (issue 24: half the memory): the output is still each game's hands in order,
    each seeing the hand before it, whatever order the lines come in; of two records of
    one hand the later line is the one replayed."""
    from mjaudit.parts.replay.engine.run import replay_hand
    from mjaudit.parts.schemas.records import parse_record

    lines = (EXAMPLES / "club-night.jsonl").read_bytes().splitlines()
    assert len(lines) > 3
    records = [parse_record(line).record for line in lines]
    # the reference, written out: hands by key, each replayed after the one before it
    by_key = {(r["game_id"], r["hand_no"]): r for r in records}
    want, previous = [], None
    for game_id, hand_no in sorted(by_key):
        prior = (
            previous
            if previous is not None
            and (previous.game_id, previous.hand_no + 1) == (game_id, hand_no)
            else None
        )
        previous = replay_hand(by_key[(game_id, hand_no)], None, prior)
        want.append(json.loads(json.dumps(previous.to_json())))
    # reversed, and the first hand written twice: an edited copy first, the original last
    edited = json.loads(lines[0])
    edited["players"] = ["w", "x", "y", "z"]
    shuffled = [json.dumps(edited).encode(), *reversed(lines)]
    log = tmp_path / "shuffled.jsonl"
    log.write_bytes(b"\n".join(shuffled) + b"\n")
    result = runner.invoke(app, ["check", "--format", "json", str(log)])
    got = [json.loads(line) for line in result.stdout.splitlines()]
    assert got == want
    assert [(r["game_id"], r["hand_no"]) for r in got] == sorted(
        (r["game_id"], r["hand_no"]) for r in records
    )


def test_check_ruleset_replays_every_record_under_it() -> None:
    result = runner.invoke(
        app,
        [
            "check",
            "--format",
            "json",
            "--ruleset",
            "hk-mahjongo",
            str(EXAMPLES / "club-night.jsonl"),
        ],
    )
    rulesets = {json.loads(line)["ruleset"] for line in result.stdout.splitlines()}
    assert rulesets == {"hk-mahjongo"}
