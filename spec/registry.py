"""The registered games, found by name or alias."""
from __future__ import annotations

from spec.dsl._build import Game
from spec.errors import NotationError
from spec.games import crescendo, preference, three_oh_four, vint, wiezen

__all__ = ["GAMES", "find_game"]

GAMES: dict[str, Game] = {g.key: g for g in (crescendo.GAME, three_oh_four.GAME, vint.GAME,
                                              preference.GAME, wiezen.GAME)}


def find_game(name: str) -> Game:
    """The game registered under a name or alias (any case).

    Raises:
        NotationError: no such game; the message lists the known ones.
    """
    key = name.strip().lower()
    for g in GAMES.values():
        if key == g.key or key in g.aliases or key == g.name.lower():
            return g
    raise NotationError(
        f"unknown game {name!r} (known games: {', '.join(sorted(GAMES))})", value=name
    )
