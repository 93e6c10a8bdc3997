"""Settlement of one chắn hand (chan.md §9): who pays whom, in points × stake. Pure.

The replay reduces the hand to an :class:`Outcome`; :func:`settle` picks the case A-I and
adds error 10 (case H) on top.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjaudit.parts.replay.rulesets.chan.options import ChanOptions

# Void codes of a win, in the order §9 applies them, and their case.
VOID_CASE = {
    "BO_U": "E",
    "U_LAO": "E",
    "U_CHI_RONG": "E",
    "U_4_11_THIEU_DIEM": "F",
    "XUONG_SAI": "D",
    "TACH_CHAN_AN_CA": "I",
    "TACH_CA_AN_CA": "I",
}


@dataclass(frozen=True)
class Outcome:
    """What settlement needs to know.

    ``kind``: ``win`` (a `win` event ended the hand), ``draw``, ``abandon`` or ``none``.
    ``void``: the code voiding the win (None if it stands); ``void_case_i`` when the code is
    one of the winner's own errors 1-9 (§9 case I). ``zero``: case C (treo tranh / trái vỉ
    by the winner). ``caught``: errors 1-9 offenders other than the winner, earliest first.
    ``an_ca_doi_cho``: players caught for error 10 (case H).
    """

    kind: str
    winner: int | None = None
    t_decl: int = 0
    auto_value: int = 0
    valid_value: int = 0
    void: str | None = None
    void_case_i: bool = False
    zero: bool = False
    caught: tuple[int, ...] = ()
    an_ca_doi_cho: tuple[int, ...] = ()
    extra_void: tuple[tuple[int, str, int], ...] = ()  # (seat, case, T_decl) of earlier void wins


@dataclass(frozen=True)
class Settlement:
    deltas: tuple[float, ...]
    case: str
    payers: tuple[int, ...]
    penalties: tuple[tuple[int, str, tuple[float, ...]], ...]  # (seat, code, deltas)


def _pays_each(n: int, payer: int, amount: float, to: list[int] | None = None) -> list[float]:
    d = [0.0] * n
    for s in range(n) if to is None else to:
        if s != payer:
            d[s] += amount
            d[payer] -= amount
    return d


def _void_deltas(n: int, seat: int, case: str, t_decl: int, opts: ChanOptions) -> list[float]:
    amount = {"E": opts.intentional_penalty, "F": opts.penalty_4_11, "I": t_decl, "D": t_decl}[case]
    return _pays_each(n, seat, amount)


def settle(o: Outcome, n: int, opts: ChanOptions) -> Settlement:
    """The deltas of every seat (sum 0), the case applied and the payers."""
    total = [0.0] * n
    penalties: list[tuple[int, str, tuple[float, ...]]] = []
    payers: list[int] = []
    case = "G" if o.kind == "draw" else "-"

    def add(d: list[float]) -> None:
        for i, x in enumerate(d):
            total[i] += x

    for seat, vcase, t in o.extra_void:  # continue_after_void_u: earlier void wins
        d = _void_deltas(n, seat, vcase, t, opts)
        penalties.append((seat, f"case_{vcase}", tuple(d)))
        add(d)
    if o.kind == "win" and o.winner is not None:
        w = o.winner
        caught = [v for v in o.caught if v != w]
        if o.void is not None:
            case = "I" if o.void_case_i else VOID_CASE.get(o.void, "E")
            if case == "D":
                payees = [s for s in range(n) if s != w and s not in caught]
                add(_pays_each(n, w, o.t_decl, payees))
                payers.append(w)
                if caught:
                    basis = (
                        o.auto_value
                        if opts.den_lang_basis_on_wrong_call == "auto_value"
                        else o.valid_value
                    )
                    vs = caught if opts.den_lang_multiple == "each" else caught[:1]
                    for v in vs:
                        add(_pays_each(n, v, basis, payees))
                        payers.append(v)
            else:
                add(_void_deltas(n, w, case, o.t_decl, opts))
                payers.append(w)
        elif o.zero:
            case = "C"
        elif caught:
            case = "B"
            vs = caught if opts.den_lang_multiple == "each" else caught[:1]
            for v in vs:
                amount = (n - 1) * o.t_decl
                total[v] -= amount
                total[w] += amount
                payers.append(v)
        else:
            case = "A"
            add(_pays_each(n, w, -o.t_decl))  # everyone pays the winner
            payers.extend(s for s in range(n) if s != w)
    for v in o.an_ca_doi_cho:
        d = _pays_each(n, v, opts.intentional_penalty)
        penalties.append((v, "AN_CA_DOI_CHO", tuple(d)))
        add(d)
    stake = opts.stake
    return Settlement(tuple(x * stake + 0.0 for x in total), case, tuple(payers), tuple(penalties))
