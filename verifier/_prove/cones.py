"""Proofs and witnesses from the facts that bear on a claim.

A situation's facts constrain many variables, and a claim reads few of them: the facts
that bear on it (its *cone*, :func:`cone`) are those that share a variable with it,
directly or through other such facts.  :func:`prove` proves a claim from its cone, and
:func:`witnessed` shows that a premise can occur from its cone and the situation's own
facts.  Each query is remembered in the check's
:class:`~verifier._z3.solver.Solving`, so that it is asked once.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import z3
from z3 import z3core as _C

from verifier._z3.solver import Solving


def _variables(solving: Solving, term: Any) -> frozenset[str]:
    """The names of the variables a Z3 term reads.

    Remembered in ``solving`` by AST id for every subterm, so that the facts of a situation
    shared by several queries are read once; each term read is kept alive there, so that
    its ids stay its own.  The walk uses Z3's C API on raw ASTs: no Python object per node.
    """
    memo: dict[int, frozenset[str]] = solving.memo.setdefault("variables", {})
    c = term.ctx.ref()
    root = term.as_ast()
    found = memo.get(_C.Z3_get_ast_id(c, root))
    if found is not None:
        return found
    solving.memo.setdefault("variables_read", []).append(term)
    stack = [root]
    while stack:
        a = stack[-1]
        key = _C.Z3_get_ast_id(c, a)
        if key in memo:
            stack.pop()
            continue
        kind = _C.Z3_get_ast_kind(c, a)
        kids: list[Any] = []
        own: frozenset[str] = frozenset()
        if kind == z3.Z3_APP_AST:
            app = _C.Z3_to_app(c, a)
            kids = [_C.Z3_get_app_arg(c, app, i) for i in range(_C.Z3_get_app_num_args(c, app))]
            decl = _C.Z3_get_app_decl(c, app)
            if _C.Z3_get_decl_kind(c, decl) == z3.Z3_OP_UNINTERPRETED:
                # a variable, or a function symbol (whose applications share its meaning)
                own = frozenset((_symbol_name(c, _C.Z3_get_decl_name(c, decl)),))
        elif kind == z3.Z3_QUANTIFIER_AST:
            kids = [_C.Z3_get_quantifier_body(c, a)]
        todo = [k for k in kids if _C.Z3_get_ast_id(c, k) not in memo]
        if todo:
            stack.extend(todo)
            continue
        memo[key] = own.union(*(memo[_C.Z3_get_ast_id(c, k)] for k in kids))
        stack.pop()
    return memo[_C.Z3_get_ast_id(c, root)]


def _symbol_name(c: Any, sym: Any) -> str:
    """A symbol's name, as ``z3.FuncDeclRef.name`` gives it."""
    if _C.Z3_get_symbol_kind(c, sym) == z3.Z3_INT_SYMBOL:
        return f"k!{_C.Z3_get_symbol_int(c, sym)}"
    return str(_C.Z3_get_symbol_string(c, sym))


def cone(solving: Solving, facts: list[Any], claim: Any, steps: int | None = None) -> list[Any]:
    """The facts that bear on the claim: those sharing variables with it, directly or
    through other such facts.  The rest constrain only variables the claim never reads.

    With ``steps``, only the facts that many links from the claim: 1, those that read a
    variable of the claim; 2, also those that read a variable of those; and so on.
    """
    names = [_variables(solving, f) for f in facts]
    wanted = set(_variables(solving, claim))
    kept = [False] * len(facts)
    grew, step = True, 0
    while grew and (steps is None or step < steps):
        grew, step = False, step + 1
        reached: set[str] = set()
        for i, n in enumerate(names):
            if not kept[i] and not n.isdisjoint(wanted):
                kept[i] = True
                reached |= n
                grew = True
        wanted |= reached
    return [f for f, k in zip(facts, kept) if k]


def _query_key(kind: str, terms: list[Any]) -> tuple[Any, ...]:
    """A query by the identity of its terms: within one context the same AST ids are the
    same terms, so the same key is the same question (not a hash: no two queries share one)."""
    return (kind, *(t.get_id() for t in terms))


def _refuted(solving: Solving, facts: list[Any], claim: Any) -> z3.ModelRef | None:
    """None when the claim follows from the facts (as it did before in this context, if
    it did); otherwise a model of the facts that violates it."""
    key = _query_key("proved", [*facts, claim])
    if key in solving.memo:
        return None
    s = solving.one_shot()
    s.add(*facts)
    s.add(z3.Not(claim))
    if solving.sat(s):
        return s.model()
    solving.memo[key] = [*facts, claim]  # kept alive, so that the ids stay theirs
    return None


def prove(solving: Solving, facts: list[Any], claim: Any) -> z3.ModelRef | None:
    """None when the claim follows from the facts; otherwise a model of a violation.

    A conjunction is proved part by part.  The proof uses only the facts that bear on the
    claim (facts about variables the claim never reads can only make it easier to hold),
    and first only those that read a variable of the claim: often enough, and a much
    smaller query (when it is not, the answer is no proof, and the proof is looked for
    again from all the facts that bear).  A violation is then looked for again with every
    fact, so that the counterexample is a complete situation.  A proof found before in the
    same context, of the same claim from the same facts (another seat's situation that the
    claim does not read, say), is not made again.
    """
    for part in _conjuncts(claim):
        kept = cone(solving, facts, part)
        near = cone(solving, facts, part, steps=1)
        if len(near) < len(kept) and _refuted(solving, near, part) is None:
            continue  # a proof from some of the facts is a proof from all of them
        model = _refuted(solving, kept, part)
        if model is not None and len(kept) < len(facts):
            model = _refuted(solving, facts, part)  # a complete situation
        if model is not None:
            return model
    return None


def _conjuncts(claim: Any) -> list[Any]:
    """The parts of a conjunction (nested ones flattened), or the claim itself: the facts
    imply the claim exactly when they imply each part, and each part alone reads fewer
    variables, so fewer facts bear on it."""
    if not z3.is_and(claim):
        return [claim]
    return [p for c in claim.children() for p in _conjuncts(c)]


def satisfiable(solving: Solving, terms: list[Any]) -> bool:
    """Some values satisfy every term (asked once in this context)."""
    key = _query_key("satisfiable", terms)
    known = solving.memo.get(key)
    if known is None:
        s = solving.one_shot()
        s.add(*terms)
        known = solving.memo[key] = (solving.sat(s), terms)  # the terms kept alive
    return bool(known[0])


def witnessed(solving: Solving, facts_and_terms: Iterable[tuple[list[Any], Any]],
              occurs: tuple[bool, ...] = ()) -> bool:
    """Some situation satisfies its facts and the term: the premise can occur.

    The facts that do not bear on the term (:func:`cone`) read none of the variables of
    those that do, nor of the term: the facts and the term are satisfiable together exactly
    when the facts are (a situation that can occur, asked once for all premises) and the
    facts that bear are with the term (a much smaller query); the two models, on
    different variables, make one.  ``occurs`` says, for the first situations, that their
    facts are satisfiable (:func:`situations_occur`), which is then not asked again.
    """
    for i, (facts, term) in enumerate(facts_and_terms):
        kept = cone(solving, facts, term)
        if len(kept) == len(facts):
            if satisfiable(solving, [*facts, term]):
                return True
        elif ((i < len(occurs) and occurs[i]) or satisfiable(solving, facts)) and \
                satisfiable(solving, [*kept, term]):
            return True
    return False
