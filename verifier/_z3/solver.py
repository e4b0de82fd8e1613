"""Solvers with an explicit context and a timeout; ``unknown`` is never ignored."""
from __future__ import annotations

import z3

from verifier.errors import SolverUnknownError


class Solving:
    """One Z3 context for one check, with a timeout in seconds."""

    def __init__(self, timeout: float = 60.0) -> None:
        self.ctx = z3.Context()
        self.timeout_ms = max(1, int(timeout * 1000))

    def solver(self) -> z3.Solver:
        """An incremental solver (for checks that push and pop)."""
        s = z3.Solver(ctx=self.ctx)
        s.set("timeout", self.timeout_ms)
        return s

    def one_shot(self) -> z3.Solver:
        """A solver for one query, which first simplifies, propagates the values that the
        facts fix and eliminates equations.  Situations define many terms by equations (a
        seat's card points, the owner of each card); solved away first, the arithmetic left
        is small.  Models are translated back to the original variables by Z3."""
        c = self.ctx
        tactic = z3.Then(z3.Tactic("simplify", c), z3.Tactic("propagate-values", c),
                         z3.Tactic("solve-eqs", c), z3.Tactic("smt", c))
        s = tactic.solver()
        s.set("timeout", self.timeout_ms)
        return s

    @staticmethod
    def check(solver: z3.Solver, *assumptions: z3.BoolRef) -> bool:
        """True when satisfiable, False when unsatisfiable.

        Raises:
            SolverUnknownError: Z3 could not decide (timeout or incompleteness).
        """
        r = solver.check(*assumptions)
        if r == z3.sat:
            return True
        if r == z3.unsat:
            return False
        raise SolverUnknownError(solver.reason_unknown() or "unknown")


def unknown_reason(solver: z3.Solver, timeout: float) -> str:
    """Why Z3 gave up, in words: its time ran out, or its own reason."""
    reason = solver.reason_unknown() or "unknown"
    if reason in ("canceled", "timeout"):
        return f"the solver's {timeout:g} s ran out"
    return reason
