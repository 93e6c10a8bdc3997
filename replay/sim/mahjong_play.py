"""The driver the mahjong simulators share (Hong Kong, vn-160), over the shared hand state.

A hand is a walk over table states: ``("draw" | "act" | "discard" | "claims", seat)``, None
once the hand has ended. Each event the driver writes is appended to the record and at once
stepped through the ruleset's hand (:class:`replay.rulesets.mahjong.hand.MahjongHand`), so
the bots see the engine's own table. :class:`MahjongHandSim` holds the walk, the own-kong
choice, and the planting steps both rulesets take the same way; a ruleset's subclass says
what each state does (``do_draw``, ``do_act``, ``do_discard``, ``do_claims``) and plants
its own scenarios. Bots stay per ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from mjaudit.parts.replay.engine.findings import Stop
from mjaudit.parts.replay.rulesets.mahjong.hand import MahjongHand
from mjaudit.parts.replay.rulesets.mahjong.melds import MeldKind
from mjaudit.parts.replay.sim.core import HandSim, engine_stopped

State = tuple[str, int] | None  # ("draw" | "act" | "discard" | "claims", seat); None = ended
N_KINDS = 34  # the playing kinds a kong can be of


class Plant(Protocol):
    """What the shared steps read of a ruleset's plant."""

    earliest: int  # no takeover before this event index
    chance: float  # per opportunity, once past ``earliest``
    done: bool


class MahjongHandSim(HandSim):
    """One hand being played (module docstring); the subclass makes ``hand``. A plant's
    ``oblivious`` seat is a dead hand that plays on as if it were not."""

    hand: MahjongHand
    # What the subclass defines: what each table state does, a seat's view for its bot,
    # and the KONG_WITHOUT_REPLACEMENT plant's discard after the kong.
    do_draw: Callable[[int], State]
    do_act: Callable[[int], State]
    do_discard: Callable[[int], State]
    do_claims: Callable[[int], State]
    view: Callable[[int], Any]
    kong_then_discard: Callable[[int], State]

    def emit(self, ev: dict[str, Any]) -> int:
        """Append ``ev`` to the record and step it; the engine stopping is a simulator bug."""
        i = len(self.events)
        self.events.append(ev)
        try:
            self.hand.step(i, ev)
        except Stop:
            raise engine_stopped(self.record, i, ev, self.hand.findings[-1]) from None
        return i

    def play(self, state: State) -> None:
        """Walk the table states from ``state`` until the hand ends."""
        while state is not None:
            step, seat = state
            if step == "draw":
                state = self.do_draw(seat)
            elif step == "act":
                state = self.do_act(seat)
            elif step == "discard":
                state = self.do_discard(seat)
            else:
                state = self.do_claims(seat)

    def inactive(self, seat: int) -> bool:
        """A dead hand (mất ù) that knows it: it plays on but never claims, kongs or wins."""
        return seat in self.hand.dead and (self.plant is None or self.plant.oblivious != seat)

    def chow_options(self, seat: int, t: int) -> list[tuple[int, int]]:
        """The pairs of natural tiles in hand that make a chow with ``t`` (lowest run first)."""
        if t >= 27:
            return []
        c = self.hand.concealed[seat]
        r = t % 9
        out = []
        for low_rank in (r - 2, r - 1, r):
            if 0 <= low_rank <= 6:
                low = t - r + low_rank
                a, b = (x for x in (low, low + 1, low + 2) if x != t)
                if c[a] and c[b]:
                    out.append((a, b))
        return out

    # -- kongs -------------------------------------------------------------------------------

    def kong_options(self, seat: int) -> list[tuple[int, bool]]:
        """(tile, added) for each kong the seat could declare: four held, or a pung's fourth."""
        h = self.hand
        c = h.concealed[seat]
        options = [(t, False) for t in range(N_KINDS) if c[t] == 4]
        options += [(m.tile, True) for m in h.melds[seat] if m.kind is MeldKind.PUNG and c[m.tile]]
        return options

    def own_kong(self, seat: int) -> tuple[int, bool] | None:
        """The first kong the seat's bot wants, lowest tile first."""
        options = self.kong_options(seat)
        if not options:
            return None
        bot = self.bots[seat]
        v = self.view(seat)
        for t, added in sorted(options):
            if bot.wants_own_kong(v, t, added):
                return t, added
        return None

    def chosen_kong(self, seat: int) -> tuple[int, bool] | None:
        """The kong the seat's bot declares now, if any (none with no live tile left)."""
        if self.inactive(seat) or self.hand.live_count < 1:
            return None
        choice = self.own_kong(seat)
        if choice is not None:
            self.declare_kong(seat, *choice)
        return choice

    def declare_kong(self, seat: int, t: int, added: bool) -> int:
        return self.emit(
            {
                "type": "added_kong" if added else "concealed_kong",
                "seat": seat,
                "tile": self.hand.CODES[t],
            }
        )

    # -- planting ----------------------------------------------------------------------------

    def ready(self, p: Plant) -> bool:
        """The plant takes this opportunity: not done, past its earliest event, by chance."""
        return (
            not p.done
            and len(self.events) >= p.earliest
            and (p.chance >= 1 or self.rng.random() < p.chance)
        )

    def planted_kong(self, seat: int) -> tuple[bool, State]:
        """A kong the seat holds (one at random), declared with no replacement to follow."""
        options = self.kong_options(seat)
        if not options:
            return False, None
        k, added = options[self.rng.randrange(len(options))]
        self.declare_kong(seat, k, added)
        return True, self.kong_then_discard(seat)
