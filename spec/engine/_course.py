"""The course of a deal, run from the step program: when a step ends, the next step of
:attr:`Game.steps <spec.dsl._build.Game.steps>` that takes place begins.

The steps (:mod:`spec.dsl._steps`) say, for every game, which step follows which, under
what condition each takes place and what its entry does, as effects on declared fields.
The engine does not know the kinds of phase that wrote them: it interprets the effects
(:meth:`Course._effect`, one case per kind of expression or effect, none per phase).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec.dsl import _steps as S
from spec.engine._compiled import CompiledRules
from spec.engine._state import Phase, fired
from spec.seats import seat_from

Fn = Callable[[Any], Any]
# a step as the engine runs it: the step, whether it takes place, its entry
Compiled = tuple[S.Step, Callable[[Any], bool], Callable[[Any], None]]


def _always(w: Any) -> bool:
    return True


class Course(CompiledRules):
    """Walks the steps of the deal (see the module's docstring)."""

    def _course(self) -> tuple[Compiled, ...]:
        """The game's steps, compiled once: each with whether it takes place and its entry."""
        steps = getattr(self, "_steps", None)
        if steps is None:
            steps = self._steps = tuple(self._compile_step(s) for s in self.game.steps)
            # where each step is found from the state it leaves: its phase and stage
            self._step_at = {(s.phase, s.stage): i for i, (s, _t, _e) in enumerate(steps)
                             if s.phase is not None}
        return steps  # type: ignore[no-any-return]

    def _compile_step(self, step: S.Step) -> Compiled:
        effects = tuple(self._effect(e) for e in step.enter)
        phase = Phase(step.phase) if step.phase is not None else None

        def enter(w: Any) -> None:
            if phase is not None:
                w.phase = phase
            for effect in effects:
                effect(w)
        # whether it takes place, read in the state the step before it leaves
        takes_place = _always if step.when is None else self._value(step.when)
        return step, takes_place, enter

    def _effect(self, e: S.Effect) -> Callable[[Any], None]:
        """An effect of a step's entry, as a function of the working state."""
        if isinstance(e, S.Set):
            name, value = e.field, self._value(e.value)

            def set_field(w: Any) -> None:
                setattr(w, name, value(w))
            return set_field
        if isinstance(e, S.Fire):
            rule = self.game.rule(e.rule)
            return lambda w: fired(w, rule)
        if e.what is S.Judgement.SETTLE:
            return self._settle
        return self._void_now  # type: ignore[attr-defined,no-any-return]

    def _value(self, v: S.Value) -> Fn:  # noqa: C901 - one case per kind of expression
        """An expression over the declared state, as a function of the working state."""
        n = self.n
        if isinstance(v, S.Get):
            return lambda w, f=v.field: getattr(w, f)
        if isinstance(v, S.Lit):
            const = (v.value,) * n if v.per_seat else v.value
            return lambda w: const
        if isinstance(v, S.Stated):
            return self._fn(getattr(self.envs, v.scope), v.expr, v.name)
        if isinstance(v, S.SeatFrom):
            seat, skip = self._value(v.seat), tuple(self._value(x) for x in v.skip)
            return lambda w: seat_from(seat(w), n, [s(w) for s in skip])
        if isinstance(v, S.Share):
            return self._share(v.stage)
        a = self._value(v.a) if isinstance(v, S.Joined | S.Less) else None
        b = self._value(v.b) if isinstance(v, S.Joined | S.Less) else None
        if isinstance(v, S.Joined):
            return lambda w: tuple(x | y for x, y in zip(a(w), b(w)))  # type: ignore[misc]
        if isinstance(v, S.Less):
            return lambda w: tuple(x & ~y for x, y in zip(a(w), b(w)))  # type: ignore[misc]
        assert isinstance(v, S.Only), v
        seat, cards = self._value(v.seat), self._value(v.cards)
        return lambda w: tuple(cards(w) if i == seat(w) else 0 for i in range(n))

    def _share(self, stage: int) -> Fn:
        """Per seat, the cards of dealing stage ``stage`` still to come to it: the lowest of
        its pending cards, as many as the stage's packets give; all of them in the last."""
        share = sum(self.game.program.packets[stage - 1])
        last = stage == self.stages

        def cards(w: Any) -> tuple[int, ...]:
            out = []
            for rest in w.pending:
                now = rest
                if not last:
                    now = 0
                    for _ in range(share):
                        low = rest & -rest
                        now |= low
                        rest ^= low
                out.append(now)
            return tuple(out)
        return cards

    def _advance(self, w: Any) -> None:
        """The step ``w`` is in is over: begin the next that takes place (a step at which
        nobody acts runs its entry and passes straight on)."""
        steps = self._course()
        at = self._step_at.get((w.phase.value, w.stage))
        if at is None:
            at = self._step_at[(w.phase.value, None)]
        for _step, takes_place, enter in steps[at + 1:]:
            if takes_place(w):
                enter(w)
                if _step.actor is not None:
                    return
        raise AssertionError("the play is the last step and always takes place")

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
