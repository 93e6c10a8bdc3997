"""§0 of every ruleset: "After an out-of-turn action the table follows the log."

An out-of-turn ``draw`` or ``discard`` is flagged once, against the player who made it, with
its consequence. The table then goes on in the order the recorded actions imply, and the
player whose turn it was keeps it too; neither is flagged:

* after an out-of-turn draw the offender holds the turn, so its discard is in turn, and the
  seat after it draws next;
* after an out-of-turn discard the seat after the offender draws next (and the discard is
  the latest one, open to claims);
* either way the entitled player may still take the turn the rules gave them (draw,
  discard, claim or win as they could before the out-of-turn action), and the table then
  goes on from there.

The first action by another player that fits neither order is out of turn again, and is
flagged as before. A second draw by the turn player is its own finding (a double draw), not
an out-of-turn action.

:class:`FollowsTheLog` is the shared piece. An engine lists its per-turn attributes in
:attr:`FollowsTheLog.TURN_FIELDS` and says which actions a seat may make in a turn state
(:meth:`FollowsTheLog.may_act`); after flagging an out-of-turn action it calls
:meth:`~FollowsTheLog.keep_turn` and then moves its state to the log's order, and before it
judges an action against the turn it calls :meth:`~FollowsTheLog.resume`.
:class:`MahjongTurns` is ``may_act`` for the hands whose turn is ``turn`` / ``phase`` /
``live`` (Hong Kong and vn-160).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

WAIT, ACT, MUST_DISCARD, ENDED = "wait", "act", "must_discard", "ended"

# The actions judged against the turn, as ``resume``/``may_act`` take them.
DRAW = ("draw",)
DISCARD = ("discard",)
OWN_TURN = ("own_turn",)  # a self-drawn win, an own kong, a joker exchange: holding the turn


def claim_of(frm: Any, tile: Any) -> tuple[str, Any, Any]:
    """A claim (a meld or a win) of ``frm``'s discard of ``tile``."""
    return ("claim", frm, tile)


@dataclass(slots=True)
class KeptTurn:
    """The turn the rules gave when an out-of-turn action was made."""

    state: dict[str, Any]  # the engine's TURN_FIELDS at that moment
    offender: int | None  # the offender while its discard after its out-of-turn draw is to come


class FollowsTheLog:
    """Mixin: keep the entitled turn open after an out-of-turn action (module docstring)."""

    TURN_FIELDS: ClassVar[tuple[str, ...]] = ()
    kept: KeptTurn | None = None

    def may_act(self, state: dict[str, Any], seat: int, action: tuple[Any, ...]) -> bool:
        """Whether ``seat`` may make ``action`` in the turn ``state`` (TURN_FIELDS values)."""
        raise NotImplementedError

    def turn_state(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.TURN_FIELDS}

    def keep_turn(self, offender: int, *, continues: bool) -> None:
        """``offender``'s out-of-turn action is flagged: remember the turn as it is, before
        the engine moves it to the log's order. ``continues``: an out-of-turn draw, whose
        discard is still to come."""
        self.kept = KeptTurn(self.turn_state(), offender if continues else None)

    def resume(self, seat: int, action: tuple[Any, ...]) -> bool:
        """Before ``seat``'s ``action`` is judged against the turn: when only the kept turn
        allows it, the entitled player takes that turn (the state is restored, True is
        returned); any other action by another player ends the kept turn."""
        kept = self.kept
        if kept is None:
            return False
        if seat == kept.offender:
            if action == DISCARD:
                kept.offender = None  # the continuation is made; the entitled turn stays open
            return False
        self.kept = None
        if self.may_act(self.turn_state(), seat, action) or not self.may_act(
            kept.state, seat, action
        ):
            return False
        for name, value in kept.state.items():
            setattr(self, name, value)
        return True

    def continuing(self, seat: int) -> bool:
        """``seat`` made an out-of-turn draw and its discard is still to come."""
        return self.kept is not None and self.kept.offender == seat


class MahjongTurns(FollowsTheLog):
    """``may_act`` for a turn of ``turn`` (seat), ``phase`` (WAIT: draw next; ACT: holding
    14; MUST_DISCARD: after a chow or pung) and ``live`` (the discard open to claims, with
    ``seat``, ``tile`` and ``claimable``)."""

    # vn-160: the turn player who skipped the draw still discards in turn (SHORT_HAND follows)
    DISCARD_WITHOUT_DRAW: ClassVar[bool] = False

    def may_act(self, state: dict[str, Any], seat: int, action: tuple[Any, ...]) -> bool:
        turn, phase = state["turn"], state["phase"]
        what = action[0]
        if what == "draw":
            return seat == turn and phase == WAIT
        if what == "discard":
            holding = phase in (ACT, MUST_DISCARD) or (self.DISCARD_WITHOUT_DRAW and phase == WAIT)
            return seat == turn and holding
        if what == "own_turn":
            return seat == turn and phase == ACT
        live = state["live"]
        return (
            live is not None
            and live.claimable
            and live.seat == action[1]
            and live.tile == action[2]
            and seat != live.seat
        )
