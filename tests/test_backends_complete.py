"""Every back end implements every node class and every construct of the rules language."""
from __future__ import annotations

import pathlib
import sys

import pytest

from spec.dsl import _constructs as K
from spec.dsl._derive import Firing
from spec.dsl._nodes import NODE_CLASSES
from spec.dsl._program import Lowering
from spec.dsl._pycompile import PyCompiler
from spec.dsl._visitor import ConstructVisitor, RuleVisitor, UnsupportedNodeError
from spec.engine._reading import EngineReading
from spec.registry import GAMES
from verifier._z3.compile import Z3Compiler
from verifier._z3.reading import Z3Reading
from verifier.scenario import Unrolling, unsupported

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


# -- constructs: what a rule can state ---------------------------------------------------

def test_every_construct_is_listed() -> None:
    stated = {c for c in vars(K).values()
              if isinstance(c, type) and issubclass(c, K.Construct) and c is not K.Construct}
    # Option is part of a Decide rule, never a rule's body of its own; a PhaseConstruct is
    # the base of the phases a game writes as steps of its own (visit_phase reads them all)
    assert stated - {K.Option, K.PhaseConstruct} == set(K.CONSTRUCT_CLASSES)


def test_construct_visitor_is_abstract_in_every_construct() -> None:
    assert ConstructVisitor.__abstractmethods__ == {
        "visit_phase", *("visit_" + c.__name__ for c in K.CONSTRUCT_CLASSES)}


@pytest.mark.parametrize("visitor", [Lowering, Firing, EngineReading, Z3Reading, Unrolling],
                         ids=lambda b: b.__name__)
def test_construct_visitor_has_every_visit_method(visitor: type) -> None:
    missing = [c.__name__ for c in K.CONSTRUCT_CLASSES
               if getattr(visitor, "visit_" + c.__name__) is getattr(ConstructVisitor, "visit_" + c.__name__)]
    assert not missing
    assert visitor.visit_phase is not ConstructVisitor.visit_phase
    assert not getattr(visitor, "__abstractmethods__", frozenset())


def test_a_construct_visitor_missing_a_method_cannot_be_built() -> None:
    class Partial(ConstructVisitor[None]):
        def visit_Seats(self, body):  # type: ignore[no-untyped-def]
            return None

    with pytest.raises(TypeError):
        Partial()  # type: ignore[abstract]


def test_an_unknown_construct_is_refused_not_skipped() -> None:
    class Stray(K.Construct):
        __slots__ = ()

    with pytest.raises(UnsupportedNodeError, match="Stray"):
        Lowering(GAMES["vint"]).visit(Stray())


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_deal_program_files_every_rule_once(key: str) -> None:
    game = GAMES[key]
    filed = [rid for ids in game.program.parts.values() for rid in ids]
    assert sorted(filed) == sorted(r.id for r in game.rules)


# games whose deals the scenario unroller cannot unroll yet, and the reason it gives: a
# strict expectation, so that the test fails as soon as the reason changes or goes away
# the games whose deals the scenarios do not unroll yet, with the reason they give (none)
NOT_UNROLLED: dict[str, str] = {}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_back_end_says_how_it_reads_each_rule(key: str) -> None:
    # the engine refuses, when it is built, a rule it does not run; the verifier likewise
    # before it proves anything; the scenarios say what they do not unroll
    from spec.engine import engine_for
    from verifier.properties import checks_for

    game = GAMES[key]
    reading = engine_for(game).reading
    assert sorted(reading) == sorted(r.id for r in game.rules) and all(reading.values())
    assert checks_for(game)
    assert all(Z3Reading().visit(r.body) for r in game.rules)
    assert unsupported(game) == NOT_UNROLLED.get(key, "")


def test_what_the_scenarios_do_not_unroll_is_said() -> None:
    # several cards laid aside at once: built from a 304 rule with a count of two
    import dataclasses

    game = GAMES["304"]
    rule = next(r for r in game.rules if isinstance(r.body, K.SetAside))
    with pytest.raises(UnsupportedNodeError, match="several cards laid aside at once"):
        Unrolling().visit(dataclasses.replace(rule.body, count=2))
