"""Errors of the verifier.  A violated property is a result, never an exception."""
from __future__ import annotations

from spec.dsl._visitor import UnsupportedNodeError

__all__ = ["VerifierError", "UnsupportedNodeError", "SolverUnknownError", "ReplayMismatchError"]


class VerifierError(Exception):
    """Base class of the verifier's own errors."""


class SolverUnknownError(VerifierError):
    """Z3 answered unknown (often a timeout); carries Z3's reason."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"the solver gave no answer: {reason}")


class ReplayMismatchError(VerifierError):
    """A counterexample decoded from Z3 does not replay in the engine: a compiler bug."""
