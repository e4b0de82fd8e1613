"""Many deals played at once: the batch back end of the play of the cards.

The play step of a game's deal program is interpreted over numpy columns, one entry a deal,
and the rules it reads (the legal cards, a card's strength, the scores) are compiled to
numpy from the same expressions the engine compiles (see :mod:`spec.engine._batch`).  A deal
enters the batch as the engine's state at the start of its play and leaves it as the
engine's state at its end, so its record is the engine's record for the same actions.  A
batch holds at most :data:`MOST_DEALS` deals (about half a GiB); :func:`play_batches` plays
more, a batch at a time::

    >>> from spec.batch import play_batch
    >>> from spec.engine import engine_for
    >>> from spec.registry import GAMES
    >>> batch = play_batch(engine_for(GAMES["vint"]), range(100))
    >>> batch.scores().shape
    (100, 4)

``policy`` chooses the actions: a function of the step's name, each deal's legal actions
(a bit mask a deal where the step has at most 63: bit 0 a pass and bit ``k + 1`` bid ``k``
in an auction, a card's bit its number, an option's bit its place in its step; a boolean
matrix a deal by action where it has more), each deal's number and its number of decisions
so far, returning an action a deal as a numpy array of whole numbers (deals at another
step are offered nothing; their answer is not read).  :func:`random_policy` is the
default; its deals run in compiled code where numba is installed (the ``fast`` extra),
compiled once a machine and kept in the user's cache folder (``TRICKSPEC_CACHE``: another
folder, or ``none``).
A game whose play uses a construct the batch does not run is refused with
:class:`NotBatchable`, which names it; a deal thrown in is handed back to the engine,
which plays it on with its random bots.  A :class:`Watch` (``BatchEngine.watch``) judges
where rules take effect as the deals play, as the fixtures' judge of a deal does.
"""
from __future__ import annotations

from spec.engine._batch import (
    MOST_DEALS,
    Batch,
    BatchEngine,
    NotBatchable,
    Policy,
    Watch,
    play_batch,
    play_batches,
    random_policy,
)

__all__ = ["MOST_DEALS", "Batch", "BatchEngine", "NotBatchable", "Policy", "Watch", "play_batch",
           "play_batches", "random_policy"]
