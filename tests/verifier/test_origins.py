"""Where a seat's cards may come from is read from the steps, and the Z3 trick situation
assumes no more than that.

A situation that began from "a seat holds only cards dealt to it" would leave out every
position in which the declarer holds a card of the talon, and a property false only there
would be proved: the fact is derived from the steps' effects, and a step the reading does
not recognise widens it to any card.
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import pytest
import z3

from spec.dsl import _steps as S
from spec.dsl import Rule, const
from spec.dsl._constructs import PhaseConstruct
from spec.dsl._origins import ANY, DEALT, Origin, hand_origins, origins_of_steps, tracked_by_own_steps
from spec.registry import GAMES
from verifier._z3.compile import Encoding
from verifier._z3.encoding import trick_situation

TALON_TO_DECLARER = Origin("talon", "declarer")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_each_game_gives_a_seat_only_the_cards_its_steps_give(key: str) -> None:
    takes_talon = any(s.name == "exchange" for s in GAMES[key].steps)
    assert hand_origins(GAMES[key]) == ({DEALT, TALON_TO_DECLARER} if takes_talon else {DEALT})


def test_a_step_the_reading_does_not_know_gives_any_card() -> None:
    steps = GAMES["vint"].steps
    passes = dataclasses.replace(steps[0], enter=(
        S.Set("hands", S.Joined(S.Get("hands"), S.Get("trick"))),))
    assert origins_of_steps(steps) == {DEALT}
    assert ANY in origins_of_steps((passes, *steps[1:]))


def _holds_undealt(key: str) -> z3.CheckSatResult:
    """Whether the trick situation of ``key`` lets the seat to lead hold a card dealt to
    no seat."""
    enc = Encoding(GAMES[key], z3.Context())
    sit = trick_situation(enc, 0)
    hand = sit.values["hand_0"]
    undealt = ~(sit.values["dealt_0"] | sit.values["dealt_1"] | sit.values["dealt_2"]
                | (sit.values["dealt_3"] if "dealt_3" in sit.values else enc.bv(0)))
    s = z3.Solver(ctx=enc.ctx)
    s.set("rlimit", 50_000_000)
    s.add(*sit.facts, hand & undealt != 0)
    return s.check()


def test_the_declarer_may_hold_a_card_of_the_talon_in_the_play() -> None:
    # Préférence: the declarer takes the talon into his hand before the play
    assert _holds_undealt("preference") == z3.sat


def test_no_seat_holds_a_card_not_dealt_where_no_step_gives_one() -> None:
    assert _holds_undealt("vint") == z3.unsat


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class _Marks(PhaseConstruct):
    """A phase of a test's own that sets a tracked value before the play."""

    kind: ClassVar[str] = "mark"
    actor: ClassVar[str] = "nobody"
    action: ClassVar[str] = "none"

    def steps(self, w: Any, phase: Any) -> tuple[S.Step, ...]:
        return (S.Step("mark", None, None, phase.opened_by, None, enter=(
            S.Track((("trumps_exhausted", S.Stated(const(True), "status", "out")),)),)),)


def test_a_tracked_value_a_phase_of_the_games_own_sets_is_not_assumed_unset() -> None:
    game = GAMES["304"]
    marked = game.with_rules([*game.rules, Rule(id="play.mark", text="A test rule.",
                                                source=game.rules[-1].source,
                                                body=_Marks())])
    assert tracked_by_own_steps(game) == frozenset()
    assert tracked_by_own_steps(marked) == {"trumps_exhausted"}
    assert [s.name for s in marked.steps][-3:] == ["decide", "mark", "play"]
    # at trick 1 the value may already be set: only the end of a trick sets it otherwise
    assert _set_at_trick_1(marked) == z3.sat and _set_at_trick_1(game) == z3.unsat


def _set_at_trick_1(game: Any) -> z3.CheckSatResult:
    enc = Encoding(game, z3.Context())
    sit = trick_situation(enc, 0)
    s = z3.Solver(ctx=enc.ctx)
    s.set("rlimit", 50_000_000)
    s.add(*sit.facts, sit.values["trick_number"] == 1, sit.env[("tracked", "trumps_exhausted")])
    return s.check()
