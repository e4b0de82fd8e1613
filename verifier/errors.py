"""Errors of the verifier.  A violated property is a result, never an exception."""
from __future__ import annotations

from spec.dsl._visitor import UnsupportedNodeError

__all__ = ["VerifierError", "UnsupportedNodeError", "SolverUnknownError", "NotStatedError", "ReplayMismatchError",
           "InputError"]


class VerifierError(Exception):
    """Base class of the verifier's own errors."""


class SolverUnknownError(VerifierError):
    """Z3 answered unknown (often a timeout); carries Z3's reason."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"the solver gave no answer: {reason}")


class NotStatedError(SolverUnknownError):
    """A situation the verifier cannot state soundly for this game yet (a phase the game
    writes as steps of its own changes what its facts assume): a check that needs it is
    UNKNOWN, with the reason, as when Z3 gives no answer."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.args = (reason,)


class ReplayMismatchError(VerifierError):
    """A counterexample decoded from Z3 does not replay in the engine: a compiler bug."""


class InputError(VerifierError, ValueError):
    """Input handed to the tool that it cannot use: a file it cannot read, an option out of
    range, options that do not go together.  The message says what is wrong and what would
    be right; the command line answers it with exit code 2."""
