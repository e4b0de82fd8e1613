"""trickspec: formal, machine-checked rules for traditional trick-taking card games.

``spec`` holds the game-neutral value types (cards, seats), the rules language
(:mod:`spec.dsl`), the game modules written in it (:mod:`spec.games`), and the engine
that plays them (:mod:`spec.engine`).  It never imports z3.
"""
from __future__ import annotations

from spec.cards import JOKER, Card, CardSet, Deck, Rank, Suit
from spec.errors import (
    AmbiguousActionError,
    IllegalActionError,
    NotationError,
    SpecDefinitionError,
    SpecError,
)
from spec.seats import Direction, Table

__all__ = [
    "JOKER", "Card", "CardSet", "Deck", "Rank", "Suit", "Direction", "Table",
    "AmbiguousActionError", "IllegalActionError", "NotationError", "SpecDefinitionError",
    "SpecError",
]
