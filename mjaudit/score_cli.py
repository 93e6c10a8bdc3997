"""``mjaudit score``: what one winning hand is worth and who pays, without a log.

The command only reads flags and prints: the ruleset's own scorer
(:data:`replay.scorecard.Scorer`, declared on its :class:`replay.ruleset.Ruleset`) parses
the notation and calls the engine's scoring. Mounted by ``mjaudit/cli.py``.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from mjaudit.parts.replay.engine.scorecard import NotationError, ScoreReport, ScoreRequest

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

_out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 140)
_err = Console(stderr=True, highlight=False, soft_wrap=True)


class ScoreFormat(StrEnum):
    text = "text"
    json = "json"


def _fail(message: str) -> None:
    _err.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(EXIT_USAGE)


def _options(pairs: list[str]) -> dict[str, object]:
    """``K=V`` pairs; values stay text, the ruleset's option table types them."""
    found: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            _fail(f"--option {pair!r}: expected KEY=VALUE")
        found[key.strip()] = value.strip()
    return found


def score(
    hand: Annotated[
        list[str],
        typer.Argument(
            help="The hand in compact notation, e.g. '123m 456p 789s EEE 5p' with exposed "
            "melds as \\[pung 5p5p5p] or \\[ckong 4m]; american: tiles; vn-160: khung codes too.",
            show_default=False,
        ),
    ],
    ruleset: Annotated[str, typer.Option(help="The ruleset id.")] = "hk-classic",
    win: Annotated[
        str | None, typer.Option(help="The winning tile (default: the last tile written).")
    ] = None,
    from_seat: Annotated[
        str | None, typer.Option("--from", help="Seat that discarded the winning tile (E S W N).")
    ] = None,
    seat: Annotated[str, typer.Option(help="The winner's seat wind (E S W N).")] = "E",
    round_wind: Annotated[str, typer.Option("--round", help="The prevailing wind.")] = "E",
    dealer: Annotated[
        str,
        typer.Option(
            help="The dealer's seat (Hong Kong and vn-160 seats are seat winds: E deals)."
        ),
    ] = "E",
    flowers: Annotated[
        str,
        typer.Option(
            help="The winner's bonus tiles, comma-separated (f1,g2); vn-160: the declared "
            "flowers and khung, BT+ for one declared in the initial phase."
        ),
    ] = "",
    self_draw: Annotated[bool, typer.Option("--self-draw", help="Won by self-draw.")] = False,
    last_tile: Annotated[
        bool, typer.Option("--last-tile", help="Won on the last tile of the wall.")
    ] = False,
    robbing_kong: Annotated[
        bool,
        typer.Option("--robbing-kong", help="Won by robbing a kong (--from names the konger)."),
    ] = False,
    kong_replacement: Annotated[
        bool, typer.Option("--kong-replacement", help="Won on a kong replacement tile.")
    ] = False,
    heavenly: Annotated[
        bool,
        typer.Option("--heavenly", help="The dealer's first-turn win (heavenly hand, thiên ù)."),
    ] = False,
    earthly: Annotated[
        bool,
        typer.Option(
            "--earthly", help="A win on the dealer's first discard (earthly hand, địa ù)."
        ),
    ] = False,
    kong_chain: Annotated[
        int | None,
        typer.Option(
            help="hk-mahjongo: kongs declared back to back before the winning replacement "
            "(2+ is consecutive_kong_win; implies --kong-replacement).",
            min=1,
        ),
    ] = None,
    liable: Annotated[
        str | None,
        typer.Option(
            help="The seat a liability rule (nine-tile warning, last five tiles, Pao) makes "
            "pay: it depends on the play, so it is given."
        ),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A ruleset option, KEY=VALUE.")
    ] = None,
    card: Annotated[
        Path | None, typer.Option(help="american: the mj-card/1 card file to score against.")
    ] = None,
    fmt: Annotated[ScoreFormat, typer.Option("--format", help="text or json.")] = (
        ScoreFormat.text
    ),
) -> None:
    """Value one winning hand: its patterns, fan after the cap, the minimum, who pays.

    Exit 1 when the hand is not a win or is below the minimum; 2 for bad notation.
    """
    from mjaudit.parts.replay.engine.registry import RULESETS, get

    rules = get(ruleset)
    if rules is None:
        _fail(f"unknown ruleset {ruleset!r} (expected one of {', '.join(RULESETS)})")
        return
    if rules.scorer is None:
        scorable = [r.id for r in RULESETS.values() if r.scorer is not None]
        _fail(f"{ruleset} has no hand scorer yet (scorable: {', '.join(scorable) or 'none'})")
        return
    request = ScoreRequest(
        hand=" ".join(hand),
        win=win,
        seat=seat.upper(),
        from_seat=from_seat.upper() if from_seat else None,
        round=round_wind.upper(),
        dealer=dealer.upper(),
        flowers=tuple(f.strip() for f in flowers.split(",") if f.strip()),
        self_draw=self_draw,
        last_tile=last_tile,
        robbing_kong=robbing_kong,
        kong_replacement=kong_replacement or kong_chain is not None,
        heavenly=heavenly,
        earthly=earthly,
        liable=liable.upper() if liable else None,
        options=_options(option or []),
        extras={
            **({"card": card} if card is not None else {}),
            **({"kong_chain": kong_chain} if kong_chain is not None else {}),
        },
    )
    try:
        report = rules.scorer(ruleset, request)
    except NotationError as exc:
        _fail(str(exc))
        return
    except ValueError as exc:  # not a win: say why, exit 1
        if fmt is ScoreFormat.json:
            print(json.dumps({"ruleset": ruleset, "win": False, "reason": str(exc)}))
        else:
            _out.print(f"not a win: {escape(str(exc))}")
        raise typer.Exit(EXIT_FINDINGS) from None
    if fmt is ScoreFormat.json:
        print(json.dumps({"win": True, **report.as_json()}, ensure_ascii=False, indent=2))
    else:
        _print(report)
    if not report.meets_minimum:
        raise typer.Exit(EXIT_FINDINGS)


def _print(report: ScoreReport) -> None:
    from mjaudit.parts.dashboards.rules_terminal import score_lines

    for line in score_lines(report):
        _out.print(line)
