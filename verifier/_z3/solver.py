"""Solvers with an explicit context and a budget; ``unknown`` is never read as an answer.

Every solver of the verifier is made here, and every ``check`` of one goes through
:meth:`Solving.answer`: the one place where Z3's answer is read.  ``sat`` and ``unsat``
come back as they are; ``unknown`` (a budget ran out, or Z3 cannot decide the theory)
comes back as ``unknown`` with its reason, or, through :meth:`Solving.sat`, as a
:class:`~verifier.errors.SolverUnknownError`, which every caller turns into an UNKNOWN
verdict.  Nothing here, or above, reads ``unknown`` as "holds", "violated", "impossible"
or "no such deal".

Two budgets bound one query: wall-clock seconds (``timeout``), which depend on how busy
the machine is, and Z3's resource limit (``rlimit``), a count of the solver's own basic
steps, which does not: with ``rlimit`` a verdict is the same on any machine and any load.

Tests force ``unknown`` at any query with :func:`forced_unknown`, to show that each place
that reads an answer passes it on.

A check stopped by Ctrl-C is no answer either: it raises ``KeyboardInterrupt``, never
``unknown``.  :func:`stop_solvers` stops every check of the process at once, from any
thread (:mod:`verifier.interrupts` calls it when Ctrl-C is pressed).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import z3

from verifier.errors import SolverUnknownError

__all__ = ["DEFAULT_RLIMIT", "SEARCH_RLIMIT", "FIXTURES_RLIMIT", "Solving", "Remembering",
           "forced_unknown", "checks_made", "stop_solvers", "solvers_stopped", "restart_solvers",
           "set_z3_catches_ctrl_c"]

# The resource budget of one query of ``trickspec check``: some ten times what the
# hardest query of any game needed when it was set (304's play.one_winner as one query,
# about 47 million units, 11 s on one core of the reference machine; it is now proved
# part by part, each part a smaller query).
DEFAULT_RLIMIT = 500_000_000

# The resource budget of one query of ``trickspec deals`` (deals and scenarios): some ten
# times what the hardest query of the README's examples needs (a scenario by Z3 alone, the
# joker led to the seventh trick and winning it: 6.5 million units; the other examples
# need under 100,000).
SEARCH_RLIMIT = 65_000_000

# The resource budget of one query of ``trickspec fixtures``: some nine times what the
# hardest rule of any game needs (a small slam, which only Z3 finds: 438 million units,
# 132 s on one core), near the most Z3 takes (2**32 - 1).  No rule now runs out of it; one
# that did would search that long before turning to random deals.
FIXTURES_RLIMIT = 4_000_000_000

# A test's fault: the number of the check (from 0, counted from when it was set) that is
# to answer unknown, or a predicate on that number.
_fault: Callable[[int], bool] | None = None
_counter = [0]


@contextlib.contextmanager
def forced_unknown(at: int | Callable[[int], bool] | None = None) -> Iterator[None]:
    """Make solver checks answer ``unknown``, as a spent budget would: the ``at``-th check
    made inside the block (from 0), those for which ``at(k)`` is true, or every one
    (``at=None``).  For tests."""
    global _fault
    if at is None:
        test: Callable[[int], bool] = lambda _k: True
    elif isinstance(at, int):
        test = at.__eq__
    else:
        test = at
    old, start = _fault, _counter[0]
    _fault = lambda k: test(k - start)
    try:
        yield
    finally:
        _fault = old


def checks_made() -> int:
    """How many solver checks this process has made (for tests counting queries)."""
    return _counter[0]


_FORCED = "forced unknown"


# -- Ctrl-C -------------------------------------------------------------------------------

_contexts: weakref.WeakSet[z3.Context] = weakref.WeakSet()  # of every Solving alive
# held while a context is interrupted or deleted, so that Ctrl-C's thread never interrupts
# a context another thread is deleting (a context being deleted is still in the weak set:
# Python runs __del__ before it clears weak references); reentrant, as a context the
# interrupting thread held last is deleted in that thread
_contexts_lock = threading.RLock()
_stopped = threading.Event()
_z3_catches_ctrl_c = [True]
_KEYBOARD = "interrupted from keyboard"  # Z3's reason when it caught Ctrl-C itself


def _after_fork() -> None:  # a worker forked while another thread held the lock
    global _contexts_lock
    _contexts_lock = threading.RLock()
    _stopped.clear()


os.register_at_fork(after_in_child=_after_fork)


def stop_solvers() -> None:
    """Stop every check of this process: the one under way returns at once, and it and
    every check begun later raise ``KeyboardInterrupt`` (until :func:`restart_solvers`).
    Called from any thread."""
    _stopped.set()
    with _contexts_lock:
        for ctx in list(_contexts):
            if ctx.ctx is not None:  # not deleted already
                ctx.interrupt()


def solvers_stopped() -> bool:
    """Whether :func:`stop_solvers` was called (since the last :func:`restart_solvers`)."""
    return _stopped.is_set()


def restart_solvers() -> None:
    """Let checks run again after :func:`stop_solvers`."""
    _stopped.clear()


def set_z3_catches_ctrl_c(catches: bool) -> None:
    """Whether Z3 catches Ctrl-C during a check of a solver made from now on (its default;
    the check then answers ``unknown``, which :meth:`Solving._answer` turns into
    ``KeyboardInterrupt``), or leaves it to Python (whose handler then calls
    :func:`stop_solvers`: :func:`verifier.interrupts.obeyed`)."""
    _z3_catches_ctrl_c[0] = catches


class _Context(z3.Context):
    """A Z3 context that Ctrl-C's thread may interrupt: deleted under the lock that
    interrupting takes (see ``_contexts_lock``)."""

    def __del__(self) -> None:
        with _contexts_lock:
            _contexts.discard(self)
            super().__del__()


class Solving:
    """One Z3 context for one piece of work, with the budget of each query: ``rlimit`` of
    Z3's resource units (by default :data:`DEFAULT_RLIMIT`; ``None``: no such budget) and
    ``timeout`` seconds of wall-clock time, a backstop.

    ``memo`` keeps what the work has built in this context, for its builders to reuse (the
    encoding of a game and its situations, the variables each term reads, the answers to
    queries already put): several checks of one game share one ``Solving``, and so build
    the same terms once.  Z3 makes a term once per context, so within it the same AST id is
    the same term, and the same query the same question.
    """

    def __init__(self, timeout: float = 600.0, rlimit: int | None = DEFAULT_RLIMIT) -> None:
        self.ctx = _Context()
        with _contexts_lock:
            _contexts.add(self.ctx)
        self.timeout = timeout
        self.timeout_ms = max(1, int(timeout * 1000))
        self.rlimit = rlimit
        self.memo: dict[Any, Any] = {}

    def _limited(self, s: z3.Solver) -> z3.Solver:
        s.set("timeout", self.timeout_ms)
        if self.rlimit is not None:
            s.set("rlimit", self.rlimit)
        if not _z3_catches_ctrl_c[0]:
            s.set("ctrl_c", False)
        ref = weakref.ref(s)  # no cycle: the solver is freed as soon as its user drops it

        def check(*assumptions: Any) -> z3.CheckSatResult:
            me = ref()
            assert me is not None
            return self._answer(me, assumptions)

        s.check = check  # every check of this solver is read by _answer
        return s

    def solver(self) -> z3.Solver:
        """An incremental solver (for checks that push and pop)."""
        return self._limited(z3.Solver(ctx=self.ctx))

    def one_shot(self) -> z3.Solver:
        """A solver for one query, which first simplifies, propagates the values that the
        facts fix and eliminates equations.  Situations define many terms by equations (a
        seat's card points, the owner of each card); solved away first, the arithmetic left
        is small.  Models are translated back to the original variables by Z3."""
        c = self.ctx
        tactic = z3.Then(z3.Tactic("simplify", c), z3.Tactic("propagate-values", c),
                         z3.Tactic("solve-eqs", c), z3.Tactic("smt", c))
        return self._limited(tactic.solver())

    def _answer(self, s: z3.Solver, assumptions: tuple[Any, ...]) -> z3.CheckSatResult:
        """Z3's answer to one check; for ``unknown``, the reason is kept on the solver.

        Raises:
            KeyboardInterrupt: Ctrl-C stopped the check, or had stopped the solvers before.
        """
        if _stopped.is_set():
            raise KeyboardInterrupt
        k = _counter[0]
        _counter[0] += 1
        if _fault is not None and _fault(k):
            s.unknown_reason = _FORCED
            return z3.unknown
        start = time.perf_counter()
        if assumptions and all(isinstance(a, z3.BoolRef) for a in assumptions):
            # what z3.Solver.check does, without casting each assumption to a Boolean
            # again: a deal search assumes a literal per card, and the casts cost more
            # than the check
            asts = (z3.Ast * len(assumptions))(*(a.as_ast() for a in assumptions))
            r = z3.CheckSatResult(z3.Z3_solver_check_assumptions(
                s.ctx.ref(), s.solver, len(assumptions), asts))
        else:
            r = z3.Solver.check(s, *assumptions)
        if _stopped.is_set() or (r == z3.unknown and s.reason_unknown() == _KEYBOARD):
            raise KeyboardInterrupt
        if r == z3.unknown:
            s.unknown_reason = self._why(s, time.perf_counter() - start)
        return r

    def _why(self, s: z3.Solver, seconds: float) -> str:
        reason = s.reason_unknown() or "unknown"
        if reason in ("canceled", "timeout") or "resource" in reason or "rlimit" in reason:
            # Z3 says "canceled" for both budgets; the clock tells which one ran out
            if self.rlimit is not None and seconds < 0.95 * self.timeout:
                return f"the solver's resource limit ran out (rlimit {self.rlimit:,})"
            return f"the solver's time ran out (timeout {self.timeout:g} s)"
        if "incomplete" in reason or "theory" in reason:
            return f"Z3 cannot decide it (incomplete theory: {reason})"
        return f"Z3 gave no answer ({reason})"

    def reason(self, s: z3.Solver) -> str:
        """Why the last check of ``s`` answered unknown, in words."""
        return str(getattr(s, "unknown_reason", "Z3 gave no answer"))

    def sat(self, s: z3.Solver, *assumptions: Any) -> bool:
        """True when satisfiable, False when unsatisfiable.

        Raises:
            SolverUnknownError: Z3 could not decide (a budget ran out, or incompleteness),
                with the reason.
        """
        r = s.check(*assumptions)
        if r == z3.sat:
            return True
        if r == z3.unsat:
            return False
        raise SolverUnknownError(self.reason(s))


def _fingerprint(s: z3.Solver, assumptions: tuple[Any, ...]) -> str:
    """A query's identity: Z3's structural hash of each assertion and assumption (cheap,
    kept in every term, the same in any context and process).

    Two different queries could share a fingerprint (the hashes are of 32 bits each), and a
    reused answer could then be wrong either way: a check could hold that fails, or fail
    (VIOLATED, or VACUOUS from a premise reused as unsat) where it holds.  So answers are
    reused only to screen mutants, and a mutant a check kills with a reused answer is
    checked again without reuse before it counts (``trickspec mutate``); a user's verdict
    never reuses an answer.
    """
    text = repr((tuple(a.hash() for a in s.assertions()), tuple(a.hash() for a in assumptions)))
    return hashlib.sha1(text.encode()).hexdigest()


class Remembering(Solving):
    """A ``Solving`` that answers a query the original game already put, without solving;
    for mutation testing only (see :func:`_fingerprint`).

    The same query has the same answer, so a check of a changed game (a mutant, say) whose
    queries the change did not touch gets the original's answers at no solving cost.  A
    known ``sat`` is only solved again when the caller asks for its model.  ``learn``
    collects the answers of the queries it solves; ``reused`` counts the answers given
    without solving, so that a verdict resting on one can be decided again.
    """

    def __init__(self, timeout: float, rlimit: int | None, known: Mapping[str, bool],
                 learn: dict[str, bool] | None = None) -> None:
        super().__init__(timeout, rlimit)
        self.known, self.learn = known, learn
        self.reused = 0

    def _answer(self, s: z3.Solver, assumptions: tuple[Any, ...]) -> z3.CheckSatResult:
        if "model" in vars(s):
            del s.model  # a model asked for now is this query's
        key = _fingerprint(s, assumptions)
        found = self.known.get(key)
        if found is not None:
            self.reused += 1
            if not found:
                return z3.unsat

            def model() -> z3.ModelRef:
                del s.model
                if super(Remembering, self)._answer(s, assumptions) != z3.sat:
                    raise SolverUnknownError(self.reason(s))
                return z3.Solver.model(s)

            s.model = model
            return z3.sat
        r = super()._answer(s, assumptions)
        if self.learn is not None and r != z3.unknown:
            self.learn[key] = r == z3.sat
        return r
