"""What deciding a property takes and gives: the budget of its queries, and its verdict.

Every property of :mod:`verifier.properties` is decided by a function of the game, the
Z3 context and budget of its check (:class:`~verifier._z3.solver.Solving`) and the
:class:`Options`; it returns a :data:`Decision`: the verdict, a detail in words, and for a
violation (or a witness) a playthrough.
"""
from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from spec.dsl._build import Game
from verifier import trace
from verifier._z3.solver import DEFAULT_RLIMIT, Solving


class Verdict(enum.Enum):
    """A property's verdict.  VACUOUS: it holds only because its premise (or its situation)
    can never occur, so it proves nothing; a failure, like VIOLATED."""

    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    VACUOUS = "VACUOUS"
    UNKNOWN = "UNKNOWN"


@dataclass
class Options:
    """The budget of each solver query and the most auction calls a property unrolls.

    By default a query may spend :data:`~verifier._z3.solver.DEFAULT_RLIMIT` of Z3's
    resource units, a budget that gives the same verdict on any machine and under any
    load, with ``timeout`` seconds of wall-clock time as a backstop.
    """

    timeout: float = 600.0
    bound: int = 64
    rlimit: int | None = DEFAULT_RLIMIT


# What deciding a property gives: its verdict, a detail in words, and a playthrough (a
# counterexample replayed by the engine, or a witness) or None.
Decision = tuple[Verdict, str, trace.Playthrough | None]
Decider = Callable[[Game, Solving, Options], Decision]
