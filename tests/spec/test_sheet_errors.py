"""Malformed score sheets, games and rubbers fail when the game is built, naming the rule."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from spec.dsl import (
    Game,
    GameTarget,
    Property,
    Rule,
    Rubber,
    Scope,
    ScoreRule,
    TrickScores,
    awarded,
    const,
    score_of,
    seat,
    seed,
)
from spec.errors import SpecDefinitionError
from spec.games.vint import GAME


def _vint(replace: dict[str, Rule | None] | None = None, extra: tuple[Rule, ...] = (),
          properties: tuple[Property, ...] = ()) -> Game:
    rules = [replace.get(r.id, r) if replace and r.id in replace else r for r in GAME.rules]
    return Game(name="Vint", key="vint", ref_prefix="VNT",
                rules=tuple(r for r in rules if r is not None) + extra, properties=properties)


def _target_on_unwritten_line() -> Game:
    return _vint({"game.at_500": Rule(id="game.at_500", text="Game is 500 on the side line.",
                                      source=seed("VNT-GAME-1"),
                                      body=GameTarget(line="side", target=500))})


def _rubber_without_games() -> Game:
    return _vint({"game.at_500": None, "game.line_drawn": None, "game.bonus": None,
                  "game.settlement": None})


def _bonus_on_the_game_line() -> Game:
    return _vint(extra=(Rule(id="score.extra_below", text="A side writes 10 below the line.",
                             source=seed("VNT-SCORE-2"),
                             body=ScoreRule(when=const(True), amount=const(10), line="below")),))


def _two_trick_lines() -> Game:
    return _vint(extra=(Rule(id="score.twice", text="Tricks are written twice.",
                             source=seed("VNT-SCORE-2"), body=TrickScores("below")),))


def _unknown_line_read() -> Game:
    return _vint(properties=(Property(id="score.middle", text="Nothing in the middle.",
                                      scope=Scope.OUTCOME,
                                      holds=score_of(seat, "middle") == 0),))


def _awarded_unknown_rule() -> Game:
    return _vint(properties=(Property(id="score.ghost", text="A rule that is not there.",
                                      scope=Scope.OUTCOME,
                                      holds=awarded("slam.ghost") == 0),))


def _rubber_of_no_games() -> Game:
    return _vint({"game.rubber": Rule(id="game.rubber", text="Nobody wins a rubber.",
                                      source=seed("VNT-GAME-5"), body=Rubber(games=0, final_bonus=0))})


CASES: list[tuple[Callable[[], Game], str, str]] = [
    (_target_on_unwritten_line, "vint/game.at_500", "which no TrickScores rule writes"),
    (_rubber_without_games, "vint/game.rubber", "Rubber needs a GameTarget rule"),
    (_bonus_on_the_game_line, "vint/score.extra_below", "only a TrickScores rule may write"),
    (_two_trick_lines, "vint/score.twice", "two TrickScores rules write line 'below'"),
    (_unknown_line_read, "vint/score.middle", "score line 'middle' is written by no scoring rule"),
    (_awarded_unknown_rule, "vint/score.ghost", "awarded\\('slam.ghost'\\) names no scoring rule"),
    (_rubber_of_no_games, "vint/game.rubber", "at least one game"),
]


@pytest.mark.parametrize("build, rule_id, message", CASES, ids=[c[0].__name__ for c in CASES])
def test_malformed_sheet_is_refused(build: Callable[[], Game], rule_id: str, message: str) -> None:
    with pytest.raises(SpecDefinitionError, match=message) as info:
        build()
    assert info.value.rule_id == rule_id
    assert "test_sheet_errors.py" in str(info.value.src_loc) or "vint.py" in str(info.value.src_loc)


def test_the_unbroken_rules_build() -> None:
    assert _vint().rules == GAME.rules
