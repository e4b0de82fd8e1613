"""The names a page gives a game's strains and bids: the game's own, one per strain.

A strain that is a suit is its suit symbol.  The strain without trumps has the name the
game's ladder gives it (``Ladder.no_trumps``: "no trumps", "Grand").  Every table, example
and fact on the page uses this one name, so a page never calls one strain "NT" in one
place and "Grand" in another.
"""
from __future__ import annotations

from spec.dsl import _constructs as K
from spec.dsl._build import Bid, Game

__all__ = ["no_trump_name", "strain_text", "bid_text"]

def no_trump_name(game: Game) -> str:
    """What the game calls the strain without trumps."""
    ladder = game.one(K.Ladder)
    assert isinstance(ladder, K.Ladder)
    return ladder.no_trumps


def strain_text(game: Game, strain: object) -> str:
    """A strain as the page names it: a suit symbol, or the game's no-trump name."""
    return no_trump_name(game) if strain is None else strain.symbol  # type: ignore[attr-defined]


def bid_text(game: Game, bid: Bid) -> str:
    """A bid as the page writes it: the game's label, or level and strain (``4♥``,
    ``1 Grand``)."""
    if bid.label:
        return bid.label
    if bid.strain is None:
        return f"{bid.level} {no_trump_name(game)}"
    return f"{bid.level}{bid.strain.symbol}"
