"""The premises a claim assumes, and whether they can occur.

A claim proved of situations that never occur, or whose premise never holds, holds only
because of that: it proves nothing, and its verdict is ``VACUOUS``.
"""
from __future__ import annotations

import linecache
from collections.abc import Iterator
from typing import Any

import z3

from spec.dsl._nodes import BoolOp, Expr, IfThenElse, Implies, Not, Op, Scope, T, Var
from verifier._prove.cones import witnessed
from verifier._prove.situations import situations, situations_occur
from verifier._z3 import encoding as E
from verifier._z3.compile import Encoding
from verifier._z3.solver import Solving


def premises(holds: Expr) -> list[tuple[Expr, Expr]]:
    """The conditions a claim assumes, each of which must be able to occur for its proof to
    say anything: the condition of an implication (with those of its conclusion, under
    it), of each part of a conjunction, and both ways of a condition choosing between two
    claims.  Each comes as (the condition as written, the condition with those it sits
    under).  A disjunction with negated parts, "the case does not arise, or ...", is an
    implication from the case: ``~a | ~b | c`` assumes ``a and b``."""
    def under(cond: Expr, inner: Expr) -> list[tuple[Expr, Expr]]:
        return [(at, BoolOp(Op.AND, (cond, p), src_loc=at.src_loc)) for at, p in premises(inner)]

    if isinstance(holds, Implies):
        return [(holds.cond, holds.cond), *under(holds.cond, holds.then)]
    if isinstance(holds, BoolOp) and holds.op is Op.OR:
        parts = _disjuncts(holds)
        cases = [a.arg for a in parts if isinstance(a, Not)]
        rest = [a for a in parts if not isinstance(a, Not)]
        if cases and rest:
            case = cases[0] if len(cases) == 1 else BoolOp(Op.AND, tuple(cases),
                                                           src_loc=holds.src_loc)
            then = rest[0] if len(rest) == 1 else BoolOp(Op.OR, tuple(rest), src_loc=holds.src_loc)
            return [(case, case), *under(case, then)]
    if isinstance(holds, BoolOp) and holds.op is Op.AND:
        return [p for a in holds.args for p in premises(a)]
    if isinstance(holds, IfThenElse) and holds.type is T.BOOL:
        yes, no = holds.cond, Not(holds.cond, src_loc=holds.cond.src_loc)
        return [(yes, yes), (no, no), *under(yes, holds.then), *under(no, holds.orelse)]
    return []


def _disjuncts(e: Expr) -> list[Expr]:
    """The parts of a disjunction, nested ones flattened."""
    if isinstance(e, BoolOp) and e.op is Op.OR:
        return [p for a in e.args for p in _disjuncts(a)]
    return [e]


def _where(e: Expr) -> str:
    """Where a premise is written, with the line as its game module writes it."""
    loc = e.src_loc
    if loc.line <= 0:
        return "a premise"
    line = linecache.getline(loc.file, loc.line).strip()
    return f"the premise at {loc}" + (f" ({line[:90]})" if line else "")


def vacuous_premise(solving: Solving, enc: Encoding, scope: Scope, holds: Expr,
                    free: tuple[Var, ...]) -> str:
    """"" when the claim's situations and each of its premises can occur; otherwise which
    cannot."""
    def cases(premise: Expr | None) -> Iterator[tuple[list[Any], Any]]:
        for sit, _played in situations(enc, scope):
            E.bind_free(sit, free)
            yield sit.facts, (z3.BoolVal(True, enc.ctx) if premise is None
                              else sit.compile(premise))

    occurs = () if free else situations_occur(enc.game, scope, solving.timeout, solving.rlimit)
    if not witnessed(solving, cases(None), occurs):
        return f"no situation of its scope ({scope.value}) can occur"
    for written, premise in premises(holds):
        if not witnessed(solving, cases(premise), occurs):
            return f"{_where(written)} never occurs"
    return ""
