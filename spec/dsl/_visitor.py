"""The abstract visitors every back end subclasses: one over the expression nodes (engine,
Z3 compiler, documentation), one over the constructs a rule can state (the lowering to the
deal program, and when a rule visibly fires).

Each node or construct class has an abstract ``visit_<Class>`` method, so a back end that
misses one cannot be instantiated, and ``tests/test_backends_complete.py`` checks the set
again.
"""
from __future__ import annotations

import abc
from typing import Generic, TypeVar

from spec.dsl._constructs import CONSTRUCT_CLASSES, Construct, PhaseConstruct
from spec.dsl._nodes import NODE_CLASSES, Expr

R = TypeVar("R")


class UnsupportedNodeError(Exception):
    """A back end met a node or construct it cannot encode; raised, never logged and skipped."""

    def __init__(self, node: Expr | Construct, backend: str, why: str = "") -> None:
        self.node = node
        loc = getattr(node, "src_loc", None)
        where = f" ({loc})" if loc else ""
        super().__init__(f"{backend} cannot encode {type(node).__name__}{where}" + (f": {why}" if why else ""))


class RuleVisitor(abc.ABC, Generic[R]):
    """Dispatch on the node class to ``visit_<NodeClass>``."""

    def visit(self, node: Expr) -> R:
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise UnsupportedNodeError(node, type(self).__name__)
        return method(node)  # type: ignore[no-any-return]  # each visit_ returns R


class ConstructVisitor(abc.ABC, Generic[R]):
    """Dispatch on the construct class to ``visit_<ConstructClass>``; a phase a game
    writes as steps of its own (a :class:`~spec.dsl._constructs.PhaseConstruct`) goes to
    ``visit_phase``, whatever its class: a back end reads such a phase through its steps."""

    def visit(self, body: Construct) -> R:
        method = getattr(self, "visit_" + type(body).__name__, None)
        if method is None and isinstance(body, PhaseConstruct):
            method = self.visit_phase
        if method is None:
            raise UnsupportedNodeError(body, type(self).__name__)
        return method(body)  # type: ignore[no-any-return]  # each visit_ returns R

    @abc.abstractmethod
    def visit_phase(self, body: PhaseConstruct) -> R:
        """A phase written as steps of its own (see the class's docstring)."""


def _abstract(name: str):  # type: ignore[no-untyped-def]  # builds abstract methods
    def method(self, node):  # type: ignore[no-untyped-def]
        raise NotImplementedError
    method.__name__ = name
    return abc.abstractmethod(method)


def _make_abstract(visitor: type, classes: tuple[type, ...]) -> None:
    for cls in classes:
        setattr(visitor, "visit_" + cls.__name__, _abstract("visit_" + cls.__name__))
    visitor.__abstractmethods__ = frozenset(  # type: ignore[attr-defined]  # set after the loop
        {"visit_" + c.__name__ for c in classes} | set(visitor.__abstractmethods__))  # type: ignore[attr-defined]


_make_abstract(RuleVisitor, NODE_CLASSES)
_make_abstract(ConstructVisitor, CONSTRUCT_CLASSES)
