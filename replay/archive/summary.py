"""The summary tables of replayed hands (``schemas/tables.py`` SUMMARY_TABLES).

:func:`summary_tables` derives them from the hand rows of some whole games (their
``hand_results``, ``scores`` and ``findings``) and the columns of their ``hands`` the
filters select on. The replay calls it for every chunk of games it replays, and the
benchmark for the archives it writes straight into the tables, so both write the same
rows. Readers sum these rows; :func:`missing_summaries` tells them (and the replay, which
then replays those buckets again) where an archive written before these tables has none.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath

import polars as pl
import pyarrow as pa
from mjaudit.parts.ingest.partitions import game_of
from mjaudit.parts.schemas.tables import HAND_REPLAY_TABLES, SUMMARY_KEY, SUMMARY_TABLES

KEY = ["game_id", "hand_no"]
GROUP = [f.name for f in SUMMARY_KEY]
# Hand columns the summary keys on, as the hands table names them.
HAND_COLUMNS = ("game_id", "hand_no", "source_kind", "venue", "table", "started_at")
LIABILITY = {
    "pao_paid": "PAO_LIABILITY",
    "nine_tile_paid": "NINE_TILE_LIABILITY",
    "last_five_paid": "LAST_FIVE_LIABILITY",
}
# The sort of each table's rows: its whole key, so a bucket's bytes are deterministic.
# Most are in game order. Two are in the order of the dashboard's reads from their files
# (ACROSS_BUCKET: sorted over the whole bucket, not range by range): `player_games` and
# `player_pairs` in player order, as a player's page copies their rows (at 10M hands one
# player's copy took 0.55 s of CPU in game order, 0.35 s in player order), and
# `player_patterns` in venue and table order, as the fans page reads its 11M rows with a
# venue or table filter (0.16-0.25 s of CPU in game order, 0.09-0.14 s in venue order).
_PLACE = ["venue", "table"]
SORT = {
    "game_days": GROUP,
    "player_games": ["player", *GROUP],
    "player_fans": [*GROUP, "player", "fan", "by_win"],
    "finding_counts": [*GROUP, "player", "class", "code"],
    "player_patterns": [*_PLACE, *(c for c in GROUP if c not in _PLACE), "player", "pattern"],
    "player_pairs": ["player", *GROUP, "opponent"],
    "limit_wins": [*GROUP, "hand_no", "seat"],
    "riichi_players": [*GROUP, "player"],
}
ACROSS_BUCKET = tuple(name for name, key in SORT.items() if key[0] != "game_id")


def hand_facts(hands: pl.DataFrame) -> pl.DataFrame:
    """Per hand: the summary's key columns but the ruleset (game_id, game, source_kind,
    venue, table, day) and ``started_at``. ``day`` is the table's local date, as the
    readers' LOCAL_TIME gives it; ``game`` is derived from the ruleset where a folder
    written before that column has none."""
    offset = (
        pl.col("utc_offset_minutes").fill_null(0)
        if "utc_offset_minutes" in hands.columns
        else pl.lit(0)
    )
    game = pl.col("ruleset").map_elements(game_of, return_dtype=pl.String)
    if "game" in hands.columns:
        game = pl.col("game").fill_null(game)
    local = pl.col("started_at").dt.convert_time_zone("UTC") + pl.duration(minutes=offset)
    return hands.select(
        *HAND_COLUMNS,
        game.alias("game"),
        local.dt.date().alias("day"),
        local.dt.replace_time_zone(None).alias("at"),
    ).with_columns(pl.col("started_at").dt.convert_time_zone("UTC"))


def summary_tables(
    hands: pl.DataFrame, replay: Mapping[str, pa.Table | pl.DataFrame]
) -> dict[str, pa.Table]:
    """The summary rows of the games in ``replay`` (its ``hand_results``, ``scores`` and
    ``findings`` rows), whose hands are among ``hands`` (the ``hands`` table's columns
    HAND_COLUMNS, ``ruleset`` and, where the folder has them, ``game`` and
    ``utc_offset_minutes``). Unsorted: the bucket writer sorts every table."""
    results = pl.DataFrame(replay["hand_results"]).select(
        *KEY, "ruleset", "ended_by", "self_drawn", "fan", "raw_fan", "is_limit"
    )
    facts = hand_facts(hands.join(results.select(KEY), on=KEY, how="semi"))
    hr = results.join(facts, on=KEY, how="left")
    if hr["game"].null_count():
        raise ValueError("replayed hands missing from the hands rows given to summary_tables")
    days = hr.group_by(GROUP).agg(
        pl.col("started_at").min().alias("first_at"),
        pl.col("started_at").max().alias("last_at"),
        pl.len().alias("hands"),
        (pl.col("ended_by") == "win").sum().alias("wins"),
        (pl.col("ended_by") == "exhaustive_draw").sum().alias("draws"),
    )
    findings = pl.DataFrame(replay["findings"])
    seats = pl.DataFrame(replay["scores"]).join(hr, on=KEY, how="inner")
    for name, code in LIABILITY.items():
        liable = (
            findings.filter(pl.col("code") == code)
            .select(*KEY, "seat")
            .unique()
            .with_columns(pl.lit(True).alias(name))
        )
        seats = seats.join(liable, on=[*KEY, "seat"], how="left").with_columns(
            pl.col(name).fill_null(False) & pl.col("is_liable")
        )
    delta = pl.col("delta")
    by_win = pl.col("ended_by") == "win"
    players = seats.group_by([*GROUP, "player"]).agg(
        pl.len().alias("hands"),
        pl.col("is_winner").sum().alias("wins"),
        (pl.col("is_winner") & by_win).sum().alias("win_hands"),
        (pl.col("is_winner") & pl.col("self_drawn")).sum().alias("self_draws"),
        pl.col("is_discarder").sum().alias("deal_ins"),
        delta.sum().alias("net"),
        delta.filter(delta > 0).sum().alias("won"),
        (-delta).filter(delta < 0).sum().alias("paid"),
        pl.col("is_liable").sum().alias("liable"),
        *(pl.col(name).sum().alias(name) for name in LIABILITY),
    )
    own = delta.filter(pl.col("self_drawn"))
    fans = (
        seats.filter(pl.col("is_winner"))
        .with_columns(by_win.alias("by_win"))
        .group_by([*GROUP, "player", "fan", "by_win"])
        .agg(
            pl.len().alias("wins"),
            pl.col("self_drawn").sum().alias("self_draws"),
            delta.sum().alias("gain"),
            delta.count().alias("gain_n"),
            own.sum().alias("self_gain"),
            own.count().alias("self_gain_n"),
        )
    )
    counts = (
        findings.select(*KEY, "player", "class", "code")
        .join(hr.select(*KEY, *GROUP[1:]), on=KEY, how="inner")
        .group_by([*GROUP, "player", "class", "code"])
        .agg(pl.len().alias("n"))
    )
    frames = {"game_days": days, "player_games": players, "player_fans": fans}
    frames["finding_counts"] = counts
    fan_rows = pl.DataFrame(replay["fans"]) if "fans" in replay else None
    frames["player_patterns"] = _patterns(hr, fan_rows)
    frames["player_pairs"] = _pairs(seats)
    frames["limit_wins"] = _limit_wins(seats, fan_rows)
    frames["riichi_players"] = _riichi_players(seats)
    return {
        name: frames[name].select(schema.names).to_arrow().cast(schema)
        for name, schema in SUMMARY_TABLES.items()
    }


def _patterns(hr: pl.DataFrame, fans: pl.DataFrame | None) -> pl.DataFrame:
    """Per key, player and pattern: the winners' seats that scored it, its rows and the
    sum of their values (the fans rows of every replayed hand, as the raw query reads)."""
    if fans is None:
        fans = pl.DataFrame(HAND_REPLAY_TABLES["fans"].empty_table())
    rows = fans.select(*KEY, "seat", "player", "pattern", "fan").join(
        hr.select(*KEY, *GROUP[1:]), on=KEY, how="inner"
    )
    return rows.group_by([*GROUP, "player", "pattern"]).agg(
        pl.struct("hand_no", "seat").n_unique().alias("wins_with"),
        pl.len().alias("rows"),
        pl.col("fan").cast(pl.Float64).sum().alias("fan_sum"),
    )


def _pairs(seats: pl.DataFrame) -> pl.DataFrame:
    """Per key, player and opponent: what the head-to-head table shows (each replayed
    seat row of the player beside every other seat row of the same hand)."""
    cols = [*KEY, "player", "delta", "is_winner", "is_discarder"]
    me = seats.select(*cols, *GROUP[1:])
    other = seats.select(cols).rename(
        {c: f"o_{c}" for c in ("player", "delta", "is_winner", "is_discarder")}
    )
    both = me.join(other, on=KEY, how="inner").filter(pl.col("player") != pl.col("o_player"))
    d, od = pl.col("delta"), pl.col("o_delta")
    return both.group_by([*GROUP, "player", pl.col("o_player").alias("opponent")]).agg(
        pl.len().alias("hands"),
        d.fill_null(0).sum().alias("net"),
        od.fill_null(0).sum().alias("their_net"),
        pl.col("is_winner").sum().alias("wins"),
        pl.col("o_is_winner").sum().alias("their_wins"),
        (pl.col("is_discarder") & pl.col("o_is_winner")).sum().alias("dealt_in_to_them"),
        (pl.col("o_is_discarder") & pl.col("is_winner")).sum().alias("they_dealt_in"),
        (-d).filter(pl.col("o_is_winner") & (d < 0)).sum().alias("paid_to"),
        (-od).filter(pl.col("is_winner") & (od < 0)).sum().alias("received_from"),
    )


def _limit_wins(seats: pl.DataFrame, fans: pl.DataFrame | None) -> pl.DataFrame:
    """The winners' seat rows of wins that reached the fan cap, with their patterns."""
    wins = seats.filter(
        pl.col("is_winner") & (pl.col("ended_by") == "win") & pl.col("is_limit").fill_null(False)
    ).select(
        *GROUP,
        "hand_no",
        "seat",
        "player",
        "started_at",
        "at",
        "fan",
        "raw_fan",
        "self_drawn",
        "delta",
    )
    if fans is None or wins.is_empty():
        return wins.with_columns(pl.lit(None, pl.String).alias("patterns"))
    names = (
        fans.join(wins.select(*KEY, "seat"), on=[*KEY, "seat"], how="semi")
        .sort([*KEY, "seat", "fan", "pattern"], descending=[False, False, False, True, False])
        .group_by([*KEY, "seat"], maintain_order=True)
        .agg(pl.col("pattern").str.join(", ").alias("patterns"))
    )
    return wins.join(names, on=[*KEY, "seat"], how="left")


def _riichi_players(seats: pl.DataFrame) -> pl.DataFrame:
    """Per key and player of the riichi hands (whose scores rows have the riichi columns): the counts riichi players' statistics need
    (the scores rows' riichi columns; a place only on a game's last hand)."""
    rows = seats.filter(pl.col("riichi").is_not_null())  # only riichi reports set it
    win = pl.col("is_winner") & (pl.col("ended_by") == "win")
    place = pl.col("place")
    return rows.group_by([*GROUP, "player"]).agg(
        pl.len().alias("hands"),
        win.sum().alias("wins"),
        pl.col("is_discarder").sum().alias("deal_ins"),
        pl.col("riichi").fill_null(False).sum().alias("riichi"),
        pl.col("open_call").fill_null(False).sum().alias("open_hands"),
        (pl.col("ended_by") == "exhaustive_draw").sum().alias("exhaustive_draws"),
        (pl.col("ended_by") == "abortive_draw").sum().alias("abortive_draws"),
        pl.col("win_points").filter(win).cast(pl.Float64).sum().alias("win_points"),
        pl.col("win_han").filter(win).cast(pl.Float64).sum().alias("win_han"),
        pl.col("win_points").filter(win).count().alias("valued_wins"),
        place.count().alias("games_ended"),
        *((place == k).sum().alias(name) for k, name in enumerate(PLACES, 1)),
        place.cast(pl.Int64).sum().alias("place_sum"),
    )


PLACES = ("first", "second", "third", "fourth")


def _bucket_folder(rel: str) -> tuple[str, str] | None:
    """``hand_results/ruleset=x/bucket-03-00000012.parquet`` -> (``ruleset=x``, ``03``);
    None for a file that is not a bucket's."""
    path = PurePosixPath(rel)
    if not path.name.startswith("bucket-"):
        return None
    return str(path.parent.relative_to(path.parts[0])), path.name.split("-")[1]


# Tables every bucket of replayed hands has a file of (a game_days row per game and day,
# a player_pairs row per two players of a hand): a bucket without one of them was written
# before that table existed. (A bucket whose every hand has one player, which no ruleset
# deals, would be replayed again each time: correct, only slower.)
MARKERS = ("game_days", "player_pairs")


# The riichi folders' marker too: their scores rows have the riichi columns since then.
RIICHI_MARKER = ("ruleset=riichi", "riichi_players")


def missing_summaries(manifest: dict) -> list[str]:
    """The ``hand_results`` bucket files whose bucket (and ruleset folder) lacks a file of
    one of the MARKERS (a riichi folder: or RIICHI_MARKER's): their hands were replayed
    before those summary tables existed."""
    tables = manifest["tables"]
    have = {_bucket_folder(rel) for rel in tables.get(MARKERS[0], [])}
    for name in MARKERS[1:]:
        have &= {_bucket_folder(rel) for rel in tables.get(name, [])}
    folder, marker = RIICHI_MARKER
    riichi = {_bucket_folder(rel) for rel in tables.get(marker, [])}
    return [
        rel
        for rel in tables.get("hand_results", [])
        if (where := _bucket_folder(rel)) is not None
        and (where not in have or (where[0] == folder and where not in riichi))
    ]
