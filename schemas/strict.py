"""Strict record types: the fast path of :func:`schemas.records.parse_record`.

Most records in an archive use canonical tile codes and no unknown fields. For those, the
checks that :mod:`schemas.records` does in Python per event (tile code, seat in range) can
be done by msgspec in C while decoding, with a copy of the ``mjlog/1`` structs in which a
tile is a ``Literal`` of the ruleset family's canonical codes, a seat is bounded by the
number of players, and unknown fields are forbidden.

These types are *derived* from :mod:`schemas.mjlog` (field by field), so they cannot drift
from the published format. A record they reject is not necessarily bad: it may use a tile
alias or carry an unknown field. The caller then takes the general path, which either
accepts it or says exactly what is wrong.
"""

from __future__ import annotations

import functools
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
from mjaudit.parts.schemas.mjlog import BlindTile, Event, HandRecord, Penalty, Result, Seat, Tile
from mjaudit.parts.schemas.tiles import TileSet
from msgspec import Meta, Struct


class Header(Struct):
    """Just enough of a record to choose its strict type."""

    ruleset: str = ""
    players: list[Any] = []


def _map(tp: Any, tile: Any, seat: Any, structs: dict[type, type]) -> Any:
    """``tp`` with Tile and Seat replaced and nested structs swapped for their strict copy."""
    if tp is Tile:
        return tile
    if tp is Seat:
        return seat
    if isinstance(tp, type) and tp in structs:
        return structs[tp]
    origin = get_origin(tp)
    if origin is Annotated:
        inner, *meta = get_args(tp)
        return Annotated[(_map(inner, tile, seat, structs), *meta)]  # type: ignore[return-value]
    if origin in (Union, types.UnionType):
        return Union[tuple(_map(a, tile, seat, structs) for a in get_args(tp))]
    if origin is list:
        (item,) = get_args(tp)
        return list[_map(item, tile, seat, structs)]  # type: ignore[misc]
    return tp


def _copy(cls: type[Struct], tile: Any, seat: Any, structs: dict[type, type]) -> type[Struct]:
    config = cls.__struct_config__
    fields = []
    for f in msgspec.structs.fields(cls):
        tp = _map(f.type, tile, seat, structs)
        name = f.name
        if f.default is not msgspec.NODEFAULT:
            fields.append((name, tp, msgspec.field(default=f.default, name=f.encode_name)))
        elif f.default_factory is not msgspec.NODEFAULT:
            fields.append(
                (name, tp, msgspec.field(default_factory=f.default_factory, name=f.encode_name))
            )
        elif f.encode_name != f.name:
            fields.append((name, tp, msgspec.field(name=f.encode_name)))
        else:
            fields.append((name, tp))
    return msgspec.defstruct(
        f"Strict{cls.__name__}",
        fields,
        tag_field=config.tag_field,
        tag=config.tag,
        forbid_unknown_fields=True,
        omit_defaults=config.omit_defaults,
        frozen=True,
        # Decoded values hold no reference cycles; untracked instances make decoding and
        # the collector's passes over a batch much cheaper (half the decode time).
        gc=False,
    )


def strict_record_type(tiles: TileSet, n_players: int) -> type[Struct]:
    """The strict ``HandRecord`` for one tile family and number of players."""
    return _strict(tiles.codes, n_players)


@functools.cache
def _strict(codes: tuple[str, ...], n_players: int) -> type[Struct]:
    tile = Literal[codes]  # type: ignore[valid-type]
    seat = Annotated[int, Meta(ge=0, lt=n_players)]
    structs: dict[type, type] = {}
    for cls in (Penalty, Result, BlindTile, *Event.__args__):  # type: ignore[attr-defined]
        structs[cls] = _copy(cls, tile, seat, structs)
    return _copy(HandRecord, tile, seat, structs)
