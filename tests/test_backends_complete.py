"""Every back end implements every node class of the rules language."""
from __future__ import annotations

import pathlib
import sys

import pytest

from spec.dsl._nodes import NODE_CLASSES
from spec.dsl._pycompile import PyCompiler
from spec.dsl._visitor import RuleVisitor
from verifier._z3.compile import Z3Compiler

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "docs" / "_ext"))
from rulebook._expr import ExprRenderer  # noqa: E402  # the documentation back end, in docs/_ext


def test_visitor_is_abstract_in_every_node() -> None:
    assert RuleVisitor.__abstractmethods__ == {"visit_" + c.__name__ for c in NODE_CLASSES}


@pytest.mark.parametrize("backend", [PyCompiler, Z3Compiler, ExprRenderer], ids=lambda b: b.__name__)
def test_backend_has_every_visit_method(backend: type) -> None:
    # its own, or shared by the compiling back ends (spec.dsl._derive.ByDerivation)
    missing = [c.__name__ for c in NODE_CLASSES
               if getattr(backend, "visit_" + c.__name__) is getattr(RuleVisitor, "visit_" + c.__name__)]
    assert not missing
    assert not getattr(backend, "__abstractmethods__", frozenset())


def test_a_backend_missing_a_method_cannot_be_built() -> None:
    class Partial(RuleVisitor[str]):
        def visit_Const(self, node):  # type: ignore[no-untyped-def]
            return ""

    with pytest.raises(TypeError):
        Partial()  # type: ignore[abstract]
