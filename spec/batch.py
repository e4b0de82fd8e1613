"""Many deals played at once: the batch back end of the play of the cards.

The play step of a game's deal program is interpreted over numpy columns, one entry a deal,
and the rules it reads (the legal cards, a card's strength, the scores) are compiled to
numpy from the same expressions the engine compiles (see :mod:`spec.engine._batch`).  A deal
enters the batch as the engine's state at the start of its play and leaves it as the
engine's state at its end, so its record is the engine's record for the same cards::

    >>> from spec.batch import play_batch
    >>> from spec.engine import engine_for
    >>> from spec.registry import GAMES
    >>> batch = play_batch(engine_for(GAMES["vint"]), range(100))
    >>> batch.scores().shape
    (100, 4)

``policy`` chooses the cards: a function of each deal's mask of legal cards, its number
and its number of cards chosen so far, returning a card number a deal
(:func:`random_policy` by default).  A game whose play uses a construct the batch does not
run yet is refused with :class:`NotBatchable`, which names it.
"""
from __future__ import annotations

from spec.engine._batch import Batch, BatchEngine, NotBatchable, Policy, play_batch, random_policy

__all__ = ["Batch", "BatchEngine", "NotBatchable", "Policy", "play_batch", "random_policy"]
