"""The course of a deal, run from the deal program: when a phase ends, the next phase of
:attr:`Game.program <spec.dsl._build.Game.program>` that takes place begins.

The program lists the phases of a deal in order (an auction per dealing stage, each
perhaps followed by cards laid aside, then the exchange of the talon, a seat's choice and
the play), each with the condition under which it takes place.  The engine does not
know that order: it walks the program.  What each *kind* of phase does on entry is
written once here, for every game; a kind the engine does not run is refused when the
engine is built.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec.dsl._program import Phase as ProgramPhase
from spec.dsl._program import PhaseKind
from spec.dsl._visitor import UnsupportedNodeError
from spec.engine._compiled import CompiledRules
from spec.engine._state import Phase, fired

# the state's phase while the program's phase of each kind runs
_PHASE_OF = {PhaseKind.AUCTION: Phase.AUCTION, PhaseKind.SET_ASIDE: Phase.SET_ASIDE,
             PhaseKind.EXCHANGE: Phase.EXCHANGE, PhaseKind.DROP_OUT: Phase.DROP_OUT,
             PhaseKind.DECIDE: Phase.DECIDE,
             PhaseKind.PLAY: Phase.PLAY}
_SETTLED = (PhaseKind.AUCTION, PhaseKind.SET_ASIDE)  # the phases before the contract is settled

def _always(w: Any) -> bool:
    return True


Step = tuple[PhaseKind, int, Callable[[Any], bool], Callable[[Any], None]]


class Course(CompiledRules):
    """Walks the phases of the deal program (see the module's docstring)."""

    def _course(self) -> tuple[Step, ...]:
        """The program's phases as steps: kind, stage, whether it takes place, its entry."""
        steps = getattr(self, "_steps", None)
        if steps is None:
            steps = self._steps = tuple(self._step(p) for p in self.game.program.phases)
        return steps  # type: ignore[no-any-return]

    def _step(self, phase: ProgramPhase) -> Step:
        kind, stage = phase.kind, phase.stage
        enter: Callable[[Any], None]
        if kind is PhaseKind.AUCTION:
            def enter(w: Any) -> None:
                self._enter_auction(w, stage)
        elif kind is PhaseKind.SET_ASIDE:
            enter = self._enter_set_aside
        elif kind is PhaseKind.EXCHANGE:
            enter = self._enter_exchange
        elif kind is PhaseKind.DROP_OUT:
            enter = self._enter_drop_out
        elif kind is PhaseKind.DECIDE:
            enter = self._enter_decide
        elif kind is PhaseKind.PLAY:
            enter = self._enter_play
        else:
            raise UnsupportedNodeError(self.game.rule(phase.opened_by).body, "the engine",
                                       f"it runs no phase of kind {kind.value!r}")
        # whether it takes place, read in the state the phase before it leaves: cards
        # are laid aside as the auction's last call leaves it, the rest once it is settled
        if phase.when is None:
            return kind, stage, _always, enter
        env = self.envs.call if kind is PhaseKind.SET_ASIDE else self.envs.status
        return kind, stage, self._fn(env, phase.when, f"{kind.name.lower()}_takes_place"), enter

    def _advance(self, w: Any, kind: PhaseKind, stage: int = 1) -> None:
        """The phase ``kind`` (of ``stage``) of ``w`` is over: begin the next that takes
        place, settling the contract on the way out of the auction."""
        later = self._later.get((kind, stage))
        if later is None:  # the steps after each, found once
            steps = self._course()
            for i, (k, s, _t, _e) in enumerate(steps):
                self._later.setdefault((k, s), steps[i + 1:])
            later = self._later[(kind, stage)]
        settled = kind not in _SETTLED
        for k, _s, takes_place, enter in later:
            if not settled and k not in _SETTLED:
                self._settle(w)
                settled = True
            if takes_place(w):
                w.phase = _PHASE_OF[k]
                enter(w)
                return
        raise AssertionError("the play is the last phase and always takes place")

    def maker(self, w: Any) -> int:
        """The seat that would declare the standing bid: its highest bidder, or the partner
        who named it for him where the ProxyCall rule says the namer declares."""
        return w.high_namer if self._namer_declares else w.high_bidder  # type: ignore[attr-defined,no-any-return]

    def _settle(self, w: Any) -> None:
        """The auction is over: the contract, its declarer and trumps, who sits out and
        who leads."""
        w.contract, w.declarer = w.standing, self.maker(w)
        if self._trump_is is not None:
            w.trump = self._trump_is(w)
        elif not self.trump_from_aside:
            w.trump = self._trump_of[w.contract]
        w.declarers = 1 << w.declarer | w.joined
        self._seat_the_play(w)

    def _seat_the_play(self, w: Any) -> None:
        """The declarer known: his partner, who sits out, and who leads."""
        if w.accepter >= 0:  # the seat that accepted the contract in the auction
            w.partner = w.accepter
        else:
            w.partner = w.declarer if self._partner is None else self._partner(w)
        out = -1
        if self._sits_out is not None and self._sits_out[0](w):
            out = self._sits_out[1](w)
            fired(w, self._sits_rule)
        leader = self._first_lead(w)  # type: ignore[attr-defined]
        if w.absent >> leader & 1:  # the seat idle for the deal leads to no trick
            leader = self.present_after(leader, w.absent)  # type: ignore[attr-defined]
        w.out, w.leader, w.turn = out, leader, leader

    # -- entering each kind of phase ---------------------------------------------------
    def _enter_auction(self, w: Any, stage: int) -> None:
        """A later stage: its cards are dealt (the pending cards, in the stage's packets)."""
        share = sum(self._deals[stage - 1].packets)  # type: ignore[union-attr]
        hands_l, pending_l = list(w.hands), list(w.pending)
        last = stage == self.stages
        for seat in range(self.n):
            rest = now = pending_l[seat]
            if not last:  # the stage's share of the cards still to come, the lowest first
                now = 0
                for _ in range(share):
                    low = rest & -rest
                    now |= low
                    rest ^= low
            hands_l[seat] |= now
            pending_l[seat] &= ~now
        w.stage, w.hands, w.pending = stage, tuple(hands_l), tuple(pending_l)
        w.stage_calls, w.passes_in_row, w.seat_calls, w.stage_bid = 0, 0, (0,) * self.n, False
        w.passed = 0
        w.turn = self._auction_first[stage - 1](w)
        if w.turn == w.idle:
            w.turn = (w.turn + 1) % self.n

    def _enter_set_aside(self, w: Any) -> None:
        # cards laid aside earlier go back to their owners first
        self._return_aside(w)  # type: ignore[attr-defined]
        w.turn = self.maker(w)

    def _enter_exchange(self, w: Any) -> None:
        # the declarer takes the talon into his hand, then discards
        assert self._take_talon is not None
        fired(w, self._take_talon[0])
        w.hands = tuple(h | w.talon if i == w.declarer else h for i, h in enumerate(w.hands))
        w.turn, w.talon = w.declarer, 0

    def _enter_drop_out(self, w: Any) -> None:
        w.turn = self.defenders(w)[0]  # type: ignore[attr-defined]

    def _enter_decide(self, w: Any) -> None:
        assert self._decide is not None
        w.turn = self._decide[1](w)

    def _enter_play(self, w: Any) -> None:
        w.turn = w.leader
        # a rule may void the deal as soon as its contract is settled (VoidWhen: "as soon
        # as"); judged after every action of the play, and here before the first
        self._void_now(w)  # type: ignore[attr-defined]
