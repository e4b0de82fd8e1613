"""The bots by name: the names the command line, the rulebook and the benchmarks accept.

* ``random``: uniform among the legal actions (the bots of the golden records);
* ``modest``: passes one time in two and otherwise makes the lowest bid, so contracts stay
  low, and plays at random;
* ``cautious``: passes seven times in eight, so contracts are lower still;
* ``sensible``: bids the highest contract a greedy playout of its hand, in a few deals drawn
  from what it has seen, scores above nothing, and plays the cards greedily: the lowest card
  where its side wins the trick so far, else the lowest that wins, else the lowest
  (:func:`spec.solver.sensible_bot`; milliseconds a deal);
* ``thinking``: draws the hidden hands from what it has seen and solves each deal double
  dummy (:func:`spec.solver.thinking_bot`; slow: seconds a deal).

Each bot sees only its own seat's view of the deal.
"""
from __future__ import annotations

from collections.abc import Callable

from spec.engine import Bot, low_bidder, modest_bot, random_bot
from spec.errors import NotationError

__all__ = ["BOT_NAMES", "CAUTIOUS_PASS_CHANCE", "bot_named"]

CAUTIOUS_PASS_CHANCE = 7 / 8


def _sensible() -> Bot:
    from spec.solver import sensible_bot  # the solver is built on the engine

    return sensible_bot()


def _thinking() -> Bot:
    from spec.solver import thinking_bot  # the solver is built on the engine

    return thinking_bot()


_MAKERS: dict[str, Callable[[], Bot]] = {
    "random": lambda: random_bot,
    "modest": lambda: modest_bot,
    "cautious": lambda: low_bidder(CAUTIOUS_PASS_CHANCE),
    "sensible": _sensible,
    "thinking": _thinking,
}
BOT_NAMES = tuple(_MAKERS)


def bot_named(name: str) -> Bot:
    """A new bot of the kind ``name`` (one of :data:`BOT_NAMES`).

    Raises:
        NotationError: no bot has that name.
    """
    maker = _MAKERS.get(name)
    if maker is None:
        raise NotationError(f"no bot {name!r} (bots: {', '.join(BOT_NAMES)})", value=name)
    return maker()
