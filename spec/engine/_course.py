"""The course of a deal, run from the step program: when a step ends, the next step of
:attr:`Game.steps <spec.dsl._build.Game.steps>` that takes place begins.

The steps (:mod:`spec.dsl._steps`) say, for every game, which step follows which, under
what condition each takes place and what its entry and its actions do, as effects on
declared fields.  The course does not know the kinds of phase that wrote them: it runs the
functions :class:`~spec.engine._source.StepSource` generates from the effects (the play
of a trick and the defenders' choice are still handled by kind, in ``_play.py`` and
``_auction.py``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec.dsl import _steps as S
from spec.engine._source import StepSource
from spec.engine._state import Phase

# a step as the engine runs it: the step, whether it takes place, its entry
Compiled = tuple[S.Step, Callable[[Any], bool], Callable[[Any], None]]


def _always(w: Any) -> bool:
    return True


class Course(StepSource):
    """Walks the steps of the deal (see the module's docstring)."""

    def _course(self) -> tuple[Compiled, ...]:
        """The game's steps, compiled once: each with whether it takes place and its entry."""
        steps = getattr(self, "_steps", None)
        if steps is None:
            game_steps = self.game.steps
            steps = self._steps = tuple(
                (s, _always if s.when is None else self._when_fn(s, i), self._entry_fn(s, i))  # type: ignore[attr-defined]
                for i, s in enumerate(game_steps))
            # where each step is found from the state it leaves: its phase and stage
            self._step_at = {(s.phase, s.stage): i for i, (s, _t, _e) in enumerate(steps)
                             if s.phase is not None}
            assert len(self._step_at) == sum(s.phase is not None for s in game_steps), \
                "two steps show the same phase in the same stage"
            # the steps whose action is a card of the actor's hand, by the phase and the
            # dealing stage of a state in them: the step, what its action does, and the
            # actions by card number
            self._card_steps = {}
            for i, s in enumerate(game_steps):
                if s.card is not None:
                    found = (s, self._card_fn(s, i), self._card_table[s.card])  # type: ignore[attr-defined]
                    for stage in ((s.stage,) if s.stage is not None else range(1, self.stages + 1)):
                        self._card_steps[(Phase(s.phase), stage)] = found  # type: ignore[arg-type]
        return steps  # type: ignore[no-any-return]

    # -- steps whose action is a card of the actor's hand ---------------------------------
    def card_step(self, s: Any) -> S.Step | None:
        """The step ``s`` is in, if its action is a card of the actor's hand."""
        self._course()
        found = self._card_steps.get((s.phase, s.stage))
        return found[0] if found is not None else None

    def _do_card(self, w: Any, action: Any, i: int) -> None:
        """The card ``i`` of the actor's hand is acted (laid aside, discarded ...), as the
        step says; then, if the step is over, the next step."""
        self._card_steps[(w.phase, w.stage)][1](w, action, i)

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
