"""A game with some of its rules written otherwise, and what check makes of its facts.

The tests that show a fact pins its rule swap the rule for a wrong one and expect the fact
to fail.  Importable from any test: pytest puts ``tests/`` on the path for its
``conftest.py``.
"""
from __future__ import annotations

from spec.dsl import Game, Rule
from verifier.properties import check_game


def swapped(game: Game, *rules: Rule) -> Game:
    """The game with these rules in place of its rules of the same ids."""
    by_id = {r.id: r for r in rules}
    assert set(by_id) <= {r.id for r in game.rules}, "a swap names a rule the game lacks"
    return game.with_rules(tuple(by_id.get(r.id, r) for r in game.rules))


def verdicts(game: Game, *ids: str) -> list[str]:
    """The verdict of each property named, in order: ``HOLDS``, ``VIOLATED``, ..."""
    return [r.verdict.name for r in check_game(game, only=ids)]
