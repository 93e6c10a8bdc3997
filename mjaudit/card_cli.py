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
from rich.table import Table

from replay.american.card import Card, CardInvalid, describe_groups, load_and_register, load_card
from replay.american.matcher import ExposureShape, match_all
from replay.american.tiles import JOKER_KIND, counts, is_known, kind

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


def _split(text: list[str]) -> list[str]:
    return [t for chunk in text for t in chunk.replace(",", " ").split()]


def _exposure(spec: str) -> ExposureShape:
    codes = _split([spec])
    bad = [c for c in codes if not is_known(c)]
    if bad:
        raise typer.BadParameter(f"unknown tile {bad[0]!r}", param_hint="--exposure")
    naturals = {kind(c) for c in codes if c != "J"}
    if len(codes) < 3 or len(naturals) != 1:
        raise typer.BadParameter(
            f"{spec!r} is not 3-6 identical tiles and jokers", param_hint="--exposure"
        )
    jokers = sum(1 for c in codes if c == "J")
    return ExposureShape(naturals.pop(), len(codes), jokers)


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
    table = Table(title=f"{card.card_id}: {len(card.hands)} hands, valid")
    for col in ("hand", "C/X", "value", "groups", "bindings"):
        table.add_column(col)
    for h in card.hands:
        table.add_row(
            h.id,
            "C" if h.concealed else "X",
            str(h.value),
            h.display or " ".join(f"{t.text}×{n}" for t, n in h.groups),
            str(len(h.bindings)),
        )
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
    """Which card hands 14 tiles are (§5.3), and which scores (§5.5). Exit 1 if none."""
    try:
        card = load_card(file)
    except CardInvalid as exc:
        _err.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(EXIT_USAGE) from None
    codes = _split(tiles)
    bad = [c for c in codes if not is_known(c)]
    if bad:
        _err.print(f"[red]unknown tile {escape(repr(bad[0]))}[/red]")
        raise typer.Exit(EXIT_USAGE)
    shapes = [_exposure(e) for e in exposure or []]
    concealed = counts(codes)
    total = len(codes) + sum(s.size for s in shapes)
    if total != 14:
        _err.print(f"[red]the hand has {total} tiles, not 14[/red]")
        raise typer.Exit(EXIT_USAGE)
    found = match_all(card, concealed, shapes, jokerless_doubles=not no_jokerless_doubles)
    if not found:
        _out.print("no card hand matches")
        raise typer.Exit(EXIT_FINDINGS)
    best = max(found, key=lambda m: (m.final, -m.hand.index))
    for m in found:
        mark = "*" if m is best else " "
        bonus = " (jokerless, doubled)" if m.bonus else ""
        _out.print(
            f"{mark} {m.hand.id}: V = {m.final}{bonus}; {m.binding.describe() or 'no variables'}; "
            f"{describe_groups(m.binding)}"
        )
    jokers = concealed[JOKER_KIND] + sum(s.jokers for s in shapes)
    _out.print(f"scores: {best.hand.id} V = {best.final} ({jokers} joker(s))")


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
    from ingest.store import DataDir, DataDirBusy, DataDirError
    from replay.american.card import CARDS_DIR, card_files

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
