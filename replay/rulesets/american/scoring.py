"""Who pays whom (american.md §7.2, §8.1 option): pure functions of V and the seats.

Deltas are signed, per seat, in card points times ``point_value``. Dead hands pay like
any loser; there is no East bonus and nobody pays on a wall game.
"""

from __future__ import annotations

N_SEATS = 4


def settle(value: int, winner: int, discarder: int | None, point_value: float = 1) -> list[float]:
    """Discard win: discarder 2V, others V, winner 4V. Self-drawn: 2V each, winner 6V."""
    deltas = [0.0] * N_SEATS
    for seat in range(N_SEATS):
        if seat == winner:
            continue
        pay = 2 * value if discarder is None or seat == discarder else value
        deltas[seat] -= pay * point_value
        deltas[winner] += pay * point_value
    return deltas


def mahjong_in_error_deltas(seat: int, each: float, point_value: float = 1) -> list[float]:
    """Option ``mahjong_in_error_payment = {each: points}``: the erring player pays each other."""
    deltas = [0.0] * N_SEATS
    for other in range(N_SEATS):
        if other != seat:
            deltas[other] += each * point_value
            deltas[seat] -= each * point_value
    return deltas


def add(a: list[float], b: list[float]) -> list[float]:
    return [x + y for x, y in zip(a, b, strict=True)]
