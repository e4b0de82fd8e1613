"""The abstract visitor every back end subclasses (engine, Z3 compiler, documentation).

Each node class has an abstract ``visit_<NodeClass>`` method, so a back end that misses
one cannot be instantiated, and ``tests/test_backends_complete.py`` checks the set again.
"""
from __future__ import annotations

import abc
from typing import Generic, TypeVar

from spec.dsl._nodes import NODE_CLASSES, Expr

R = TypeVar("R")


class UnsupportedNodeError(Exception):
    """A back end met a node it cannot encode; raised, never logged and skipped."""

    def __init__(self, node: Expr, backend: str, why: str = "") -> None:
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


def _abstract(name: str):  # type: ignore[no-untyped-def]  # builds abstract methods
    def method(self, node):  # type: ignore[no-untyped-def]
        raise NotImplementedError
    method.__name__ = name
    return abc.abstractmethod(method)


for _cls in NODE_CLASSES:
    setattr(RuleVisitor, "visit_" + _cls.__name__, _abstract("visit_" + _cls.__name__))
RuleVisitor.__abstractmethods__ = frozenset(  # type: ignore[misc]  # set after the loop above
    "visit_" + c.__name__ for c in NODE_CLASSES
)
