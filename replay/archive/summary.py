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
from mjaudit.parts.schemas.tables import SUMMARY_KEY, SUMMARY_TABLES

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
SORT = {
    "game_days": GROUP,
    "player_games": [*GROUP, "player"],
    "player_fans": [*GROUP, "player", "fan", "by_win"],
    "finding_counts": [*GROUP, "player", "class", "code"],
}


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
        *HAND_COLUMNS, game.alias("game"), local.dt.date().alias("day")
    ).with_columns(pl.col("started_at").dt.convert_time_zone("UTC"))


def summary_tables(
    hands: pl.DataFrame, replay: Mapping[str, pa.Table | pl.DataFrame]
) -> dict[str, pa.Table]:
    """The summary rows of the games in ``replay`` (its ``hand_results``, ``scores`` and
    ``findings`` rows), whose hands are among ``hands`` (the ``hands`` table's columns
    HAND_COLUMNS, ``ruleset`` and, where the folder has them, ``game`` and
    ``utc_offset_minutes``). Unsorted: the bucket writer sorts every table."""
    results = pl.DataFrame(replay["hand_results"]).select(
        *KEY, "ruleset", "ended_by", "self_drawn", "fan"
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
    return {
        name: frames[name].select(schema.names).to_arrow().cast(schema)
        for name, schema in SUMMARY_TABLES.items()
    }


def _bucket_folder(rel: str) -> tuple[str, str] | None:
    """``hand_results/ruleset=x/bucket-03-00000012.parquet`` -> (``ruleset=x``, ``03``);
    None for a file that is not a bucket's."""
    path = PurePosixPath(rel)
    if not path.name.startswith("bucket-"):
        return None
    return str(path.parent.relative_to(path.parts[0])), path.name.split("-")[1]


def missing_summaries(manifest: dict) -> list[str]:
    """The ``hand_results`` bucket files whose bucket (and ruleset folder) has no
    ``game_days`` file: their hands were replayed before the summary tables existed."""
    tables = manifest["tables"]
    have = {_bucket_folder(rel) for rel in tables.get("game_days", [])}
    return [
        rel
        for rel in tables.get("hand_results", [])
        if (where := _bucket_folder(rel)) is not None and where not in have
    ]
