"""The course of a deal, run from the step program: when a step ends, the next step of
:attr:`Game.steps <spec.dsl._build.Game.steps>` that takes place begins.

The steps (:mod:`spec.dsl._steps`) say, for every game, which step follows which, under
what condition each takes place and what its entry and its actions do, as effects on
declared fields.  The course does not know the kinds of phase that wrote them: it runs the
functions :class:`~spec.engine._source.StepSource` generates from the effects (the fast
playout of the play of the cards is generated from the same play step, in a loop of its
own: see ``_playout.py``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec.dsl import _steps as S
from spec.engine._source import StepSource
from spec.engine._state import Action, Declare, Phase, State

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
            first, _t, enter = steps[0]
            if first.when is None and first.actor is not None:  # a deal begins with it
                self._begin = enter  # type: ignore[method-assign]
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
            # the steps whose action is a choice among named options, by their phase: the
            # step, per option (its action, whether it is on offer, whether it may be
            # chosen, what choosing it does), the refusals of an action that is no choice
            # and of a choice of no option on offer, and the options by name
            self._choices = {}
            for i, s in enumerate(game_steps):
                if s.options:
                    opts = tuple((self._option_declares[(i, name)], offered, may, choose)  # type: ignore[attr-defined]
                                 for name, offered, may, choose in self._choice_fns(s, i))  # type: ignore[attr-defined]
                    assert s.other is not None and s.unknown is not None
                    self._choices[Phase(s.phase)] = (  # type: ignore[arg-type]
                        s, opts, self._value_fn(s.other, f"other_{i}"),  # type: ignore[attr-defined]
                        self._value_fn(s.unknown, f"unknown_{i}"),  # type: ignore[attr-defined]
                        {opt[0].name: (c, opt) for opt, c in zip(opts, s.options)})
        return steps  # type: ignore[no-any-return]

    # -- steps whose action is a choice among named options -------------------------------
    def choice_step(self, s: Any) -> S.Step | None:
        """The step ``s`` is in, if its action is a choice among named options."""
        found = self._choices.get(s.phase)
        return found[0] if found is not None else None

    def _choice_options(self, s: Any) -> tuple[Declare, ...]:
        """The options the actor may choose now, in the step's order."""
        return tuple(d for d, offered, may, _c in self._choices[s.phase][1]
                     if (offered is None or offered(s)) and may(s))

    def _check_choice(self, s: State, action: Action) -> None:
        """Refuse ``action`` unless it is an option the actor may choose now, as the step's
        refusals say."""
        step, opts, other, unknown, by_name = self._choices[s.phase]
        rule = self.game.rule(step.opened_by) if step.opened_by is not None else None
        found = by_name.get(action.name) if isinstance(action, Declare) else None
        if found is not None and found[1][1] is not None and not found[1][1](s):
            found = None  # not on offer now
        if found is None:
            text, by_rule = (other if not isinstance(action, Declare) else unknown)(s)
            opened = self._choice_options(s)
            raise self._refuse(rule if by_rule else None, text.format(  # type: ignore[attr-defined]
                seat=self.table.name(s.turn), action=action,
                open=", ".join(d.name for d in opened), open_or=" or ".join(d.name for d in opened),
                offered=", ".join(d.name for d, offered, _m, _c in opts
                                  if offered is None or offered(s))), action)
        choice, (_d, _o, may, _c) = found
        if not may(s):
            raise self._refuse(rule, choice.refused.format(  # type: ignore[attr-defined]
                seat=self.table.name(s.turn), name=choice.name), action)

    def _do_choice(self, w: Any, action: Declare, _payload: Any = None) -> None:
        """The option ``action`` names chosen, as the step says."""
        self._choices[w.phase][4][action.name][1][3](w, action)

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

    def _begin(self, w: Any) -> None:
        """The deal is dealt: begin the first step that takes place (where the first
        always does and someone acts at it, :meth:`_course` makes its entry this)."""
        self._after(w, self._course())

    def _advance(self, w: Any) -> None:
        """The step ``w`` is in is over: begin the next that takes place (a step at which
        nobody acts runs its entry and passes straight on)."""
        steps = self._course()
        at = self._step_at.get((w.phase.value, w.stage))
        if at is None:
            at = self._step_at[(w.phase.value, None)]
        self._after(w, steps[at + 1:])

    @staticmethod
    def _after(w: Any, steps: tuple[Compiled, ...]) -> None:
        """Begin the first of ``steps`` that takes place (a step at which nobody acts runs
        its entry and passes straight on)."""
        for _step, takes_place, enter in steps:
            if takes_place(w):
                enter(w)
                if _step.actor is not None:
                    return
        raise AssertionError("the play is the last step and always takes place")
