"""``mjaudit card``: validate an American card file and match hands against it.

Mounted by ``mjaudit/cli.py`` as ``app.add_typer(card_app, name="card")``. For ``mjaudit
check --card FILE`` the CLI calls :func:`load_card_for_check` once (a CARD_INVALID error
is a usage error, exit 2) and then either relies on the registry (records name the card
by ``options.card``) or passes ``{"card_file": FILE}`` in the replay overrides.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from mjaudit.parts.replay.rulesets.american.card import (
    Card,
    CardInvalid,
    load_and_register,
    load_card,
)

card_app = typer.Typer(
    name="card",
    help="American (NMJL-style) card files: validate one, or match a hand against it.",
    no_args_is_help=True,
    add_completion=False,
)
_out = Console(highlight=False, soft_wrap=True)
_err = Console(stderr=True, highlight=False, soft_wrap=True)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def load_card_for_check(path: str | Path) -> Card:
    """Load, validate and register a card so american records naming it can be replayed.

    Raises :class:`CardInvalid` (its message names the hand and the token or field).
    """
    return load_and_register(path)


@card_app.command("validate")
def validate(
    file: Annotated[Path, typer.Argument(help="The mj-card/1 file (YAML or JSON).")],
) -> None:
    """Check a card file against the card-file rules (american §5) (exit 1 if it is invalid)."""
    try:
        card = load_card(file)
    except CardInvalid as exc:
        _err.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(EXIT_FINDINGS) from None
    from mjaudit.parts.dashboards.rules_terminal import card_table

    table = card_table(card)
    _out.print(table)


@card_app.command("match")
def match(
    file: Annotated[Path, typer.Argument(help="The mj-card/1 file.")],
    tiles: Annotated[list[str], typer.Argument(help="The concealed tiles, e.g. 1m 2m J f1.")],
    exposure: Annotated[
        list[str] | None,
        typer.Option("--exposure", "-x", help="An exposure, e.g. '3p 3p 3p J' (repeatable)."),
    ] = None,
    no_jokerless_doubles: Annotated[
        bool, typer.Option("--no-jokerless-doubles", help="Option jokerless_doubles = false.")
    ] = False,
) -> None:
    """Which card hands 14 tiles are (§5.3), and which scores (§5.5). Exit 1 if none.

    The same matching as `mjaudit score --ruleset american --card FILE`, which also
    prints the payments.
    """
    from mjaudit.parts.replay.engine.scorecard import NotationError
    from mjaudit.parts.replay.rulesets.american.score import evaluate, matches_text, parse_hand

    try:
        card = load_card(file)
    except CardInvalid as exc:
        _err.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(EXIT_USAGE) from None
    text = " ".join([*tiles, *(f"[{e}]" for e in exposure or [])])
    try:
        hand = parse_hand(text)
    except NotationError as exc:
        _err.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(EXIT_USAGE) from None
    ev = evaluate(card, hand, jokerless_doubles=not no_jokerless_doubles)
    if ev.best is None:
        _out.print("no card hand matches")
        raise typer.Exit(EXIT_FINDINGS)
    for line in matches_text(ev):
        _out.print(escape(line))


@card_app.command("add")
def add(
    file: Annotated[Path, typer.Argument(help="The mj-card/1 file (YAML or JSON).")],
    data: Annotated[
        Path, typer.Option(envvar="MJAUDIT_DATA", help="The data folder; also from MJAUDIT_DATA.")
    ] = Path("mjdata"),
    wait: Annotated[
        bool, typer.Option(help="If another command is writing to the data folder, wait for it.")
    ] = False,
) -> None:
    """Keep a validated card in the data folder (cards/), for `mjaudit replay`.

    Records name their card in options.card; the next `mjaudit replay` replays the
    folder's american hands against the cards it then holds. A card with the same id is
    replaced (a club's corrected card).
    """
    from mjaudit.parts.ingest.store import DataDir, DataDirBusy, DataDirError
    from mjaudit.parts.replay.rulesets.american.card import CARDS_DIR, card_files

    try:
        card = load_card(file)
    except CardInvalid as exc:
        _err.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(EXIT_FINDINGS) from None
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in card.card_id)
    try:
        with DataDir(data).writing(
            wait=wait, on_wait=lambda message: _err.print(message, markup=False)
        ) as store:
            folder = store.root / CARDS_DIR
            folder.mkdir(exist_ok=True)
            for old in card_files(store.root):  # the same card under another suffix
                if old.stem == safe and old.suffix != file.suffix:
                    old.unlink()
            target = folder / f"{safe}{file.suffix}"
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_bytes(file.read_bytes())
            tmp.replace(target)  # atomic: a reader sees the old card or the new one
    except (DataDirBusy, DataDirError) as exc:
        _err.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(EXIT_USAGE) from None
    _out.print(
        f"card {card.card_id} ({len(card.hands)} hands) kept as {target}; "
        f"run `mjaudit replay --data {data}` to replay the american hands against it"
    )
