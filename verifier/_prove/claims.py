"""Proofs of the claims and properties written in the rules language.

A claim is proved in each situation of its scope (:mod:`verifier._prove.situations`), a
counterexample replayed by the engine (:mod:`verifier.trace`); one that holds is checked
for vacuity (:mod:`verifier._prove.vacuity`).  A property that asks for an example finds a
witness for each value of its free variables; one of whole deals (scope HISTORY) is
decided on deals unrolled from the start (:func:`verifier.scenario.decide_history`); a
tracked value that must stay true once true is proved of every rule that changes it.
"""
from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import z3

from spec.constraints import history_test
from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl import score_of
from spec.dsl._build import Game, suit_from_code
from spec.dsl._nodes import (
    NO_SUIT,
    BoolOp,
    Const,
    Ctx,
    Expr,
    IfThenElse,
    Implies,
    Op,
    Ref,
    Scope,
    T,
    Tracked,
    Var,
    walk,
)
from spec.engine import engine_for
from spec.records import to_record
from verifier import trace
from verifier._prove.cones import prove
from verifier._prove.decision import Options, Verdict
from verifier._prove.ranking import ranking_end, stage_name
from verifier._prove.situations import situations
from verifier._prove.vacuity import vacuous_premise
from verifier._z3 import encoding as E
from verifier._z3.compile import Encoding
from verifier._z3.solver import Solving
from verifier.errors import UnsupportedNodeError
from verifier.scenario import decide_history


def _replay(game: Game, scope: Scope, sit: E.Situation, model: z3.ModelRef, played: int,
            holds: Expr, free: tuple[Var, ...], *, witness: bool = False) -> trace.Playthrough:
    """The situation of ``model`` where ``holds`` fails (or, with ``witness``, holds),
    replayed by the engine where its scope can be: a position or trick played, an outcome
    scored, a deal dealt, a match state judged; a moment of an auction told in words."""
    v = sit.decode(model)
    free_vals = {var: _value(model, sit.env[var]) for var in free}
    if scope in (Scope.PLAY, Scope.TRICK):
        return trace.replay_trick(game, v, played, holds, free_vals)
    if scope is Scope.OUTCOME:
        z3_scores = [model.eval(sit.compile(score_of(s)), model_completion=True).as_long()
                     for s in range(game.players)]
        v["seat"] = model.eval(sit.env[Ctx.SEAT], model_completion=True).as_long()
        v["declarer"] = model.eval(sit.env[Ctx.DECLARER], model_completion=True).as_long()
        v["dealer"] = model.eval(sit.env[Ctx.DEALER], model_completion=True).as_long()
        return trace.replay_outcome(game, v, holds, free_vals, z3_scores, witness=witness)
    if scope is Scope.DEAL:  # the pack in its own order, dealt by the engine
        dealer = model.eval(sit.values["dealer"], model_completion=True).as_long()
        pt = trace.replay_deal(game, list(range(len(game.deck))), dealer, None)
        return trace.Playthrough(pt.lines, pt.data, replayed=bool(engine_for(game).judge(
            Scope.DEAL, holds)(dealer)) == witness)
    if scope is Scope.MATCH:  # the same match state, judged by the engine
        args = (v["deals_played"], v["lead_total"], v["trail_total"], v["games_won"])
        return trace.match_moment(
            game, v, bool(engine_for(game).judge(Scope.MATCH, holds)(*args)) == witness)
    if scope is Scope.CALL:
        return _call_moment(game, sit, model, holds, free_vals, v)
    return trace.Playthrough([f"{k} = {x}" for k, x in v.items()], v)


def _call_moment(game: Game, sit: E.Situation, model: z3.ModelRef, holds: Expr,
                 free: dict[Var, object], v: dict[str, Any]) -> trace.Playthrough:
    """The moment of an auction of ``model`` in words (:func:`trace.call_moment`): the
    values that tell every call, those the claim or the call rules read, and whether the
    call rules allow the call; ``v``, the situation decoded, is its data."""
    legal = D.call_legal(game)
    read = {node.ctx for e in (holds, legal) for node in walk(e) if isinstance(node, Ref)}
    at: dict[Ctx, Any] = {}
    for ctx in (*trace.CALL_CORE, *sorted(read - set(trace.CALL_CORE), key=lambda c: c.name)):
        if ctx in sit.env or ctx in read:
            at[ctx] = _value(model, sit.compile(Ref(ctx)))
    allowed = bool(z3.is_true(model.eval(sit.compile(legal), model_completion=True)))
    return trace.call_moment(game, at, trace.tracked_of(game, v), free, v, allowed=allowed)


def _value(model: z3.ModelRef, term: Any) -> Any:
    """A term's value in a model: True or False, or a number (a set of cards as its mask)."""
    x = model.eval(term, model_completion=True)
    return z3.is_true(x) if z3.is_bool(x) else x.as_long()


def dsl_decider(scope: Scope, holds: Expr, free: tuple[Var, ...], exists: bool):  # type: ignore[no-untyped-def]
    """The decision of a claim written in the rules language, for every value of its free
    variables ``free``: proved in every situation of ``scope`` (a counterexample
    replayed; the premises checked for vacuity), or with ``exists``, witnessed."""
    def decide(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
        enc = Encoding.of(game, solving)
        if exists:
            return _decide_exists(game, solving, enc, scope, holds, free)
        for sit, played in situations(enc, scope):
            E.bind_free(sit, free)
            model = prove(solving, sit.facts, sit.compile(holds))
            if model is not None:
                return Verdict.VIOLATED, "", _replay(game, scope, sit, model, played, holds, free)
        vacuous = vacuous_premise(solving, enc, scope, holds, free)
        if vacuous:
            return Verdict.VACUOUS, f"it holds only because {vacuous}", None
        return Verdict.HOLDS, "", None
    return decide


def history_decider(holds: Expr):  # type: ignore[no-untyped-def]
    """A property of whole deals played out (scope HISTORY): decided by unrolling every deal,
    auction and play (see :func:`verifier.scenario.decide_history`)."""
    def decide(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
        bounds = []
        for stage in range(1, game.stages + 1):
            ranked = ranking_end(game, solving, stage)
            if ranked is None:
                return (Verdict.UNKNOWN, f"no bound on the calls of {stage_name(game, stage)} "
                        "is proved by a ranking argument, so not every deal can be unrolled", None)
            bounds.append(ranked[0])
        most = sum(bounds)
        if most > opts.bound:
            return (Verdict.UNKNOWN, f"a deal's auctions may take {most} calls, more than "
                    f"--bound {opts.bound}", None)
        verdict, detail, state = decide_history(game, holds, solving, most)
        if state is None:
            return Verdict[verdict], detail, None
        record = to_record(state)
        lines = [f"A deal played out, found by Z3 and replayed by the engine: dealer "
                 f"{record['dealer']}", *(f"  {seat}: {cards}" for seat, cards in record["hands"].items()),
                 "  " + ", ".join(f"{a['seat']} {v}" for a in record["actions"]
                                  for k, v in a.items() if k != "seat")]
        return Verdict[verdict], detail, trace.Playthrough(
            lines, record, replayed=not history_test(game, holds)(state))
    return decide


def _decide_exists(game: Game, solving: Solving, enc: Encoding, scope: Scope, holds: Expr,
                   free: tuple[Var, ...]):  # type: ignore[no-untyped-def]
    """For every value of free variables that range over a few values (bids the rules
    allow, suits, seats, yes and no), some situation makes ``holds`` true; with other free
    variables (numbers, sets of cards) or none, some situation and some values of them
    do: a witness, replayed."""
    domains = [_few_values(solving, enc, v) for v in free]
    if not free or any(d is None for d in domains):
        for sit, played in situations(enc, scope):
            E.bind_free(sit, free)
            s = solving.solver()
            s.add(*sit.facts, sit.compile(holds))
            if solving.sat(s):
                model = s.model()
                if scope not in (Scope.PLAY, Scope.TRICK):  # a replay of play wants it false
                    pt = _replay(game, scope, sit, model, played, holds, free, witness=True)
                else:
                    v = sit.decode(model)
                    pt = trace.Playthrough([f"{k} = {x}" for k, x in v.items()], v)
                return Verdict.HOLDS, "shown by the example below", pt
        return Verdict.VIOLATED, "no situation makes it true", None
    checked = 0
    for sit, _played in situations(enc, scope):
        E.bind_free(sit, free)
        s = solving.solver()
        s.add(*sit.facts)
        s.add(sit.compile(holds))
        terms = [sit.env[v] for v in free]
        for values in itertools.product(*domains):  # type: ignore[arg-type]
            checked += 1
            if not solving.sat(s, *[t == x for t, x in zip(terms, values)]):
                if len(free) == 1 and free[0].type is T.BID:  # a bid, as the ladder names it
                    bid = game.ladder[values[0]]
                    pt = trace.Playthrough([f"no situation works for {free[0].name} = "
                                            f"{bid.symbol}"], {free[0].name: str(bid)})
                    return Verdict.VIOLATED, f"fails for {bid}", pt
                shown = {v.name: _value_text(game, v, x) for v, x in zip(free, values)}
                what = ", ".join(f"{k} = {x}" for k, x in shown.items())
                pt = trace.Playthrough([f"no situation works for {what}"], shown)
                return Verdict.VIOLATED, f"fails for {what}", pt
    if len(free) == 1 and free[0].type is T.BID:
        return Verdict.HOLDS, f"witnessed for each of the {checked} legal bids", None
    names = " and ".join(v.name for v in free)
    values = len(list(itertools.product(*domains)))  # type: ignore[arg-type]
    return Verdict.HOLDS, f"witnessed for each of the {values} values of {names}", None


def _few_values(solving: Solving, enc: Encoding, var: Var) -> tuple[Any, ...] | None:
    """The values a free variable ranges over, as its terms take them, where they are
    few (None for a number or a set of cards)."""
    if var.type is T.BID:
        return legal_bids_in(solving, enc)  # the same bids for every situation: found once
    if var.type is T.SUIT:
        return tuple(range(NO_SUIT))
    if var.type is T.SEAT:
        return tuple(range(enc.game.players))
    if var.type is T.BOOL:
        return (z3.BoolVal(False, enc.ctx), z3.BoolVal(True, enc.ctx))
    return None


def _value_text(game: Game, var: Var, value: Any) -> str:
    """A free variable's value as a player would name it."""
    if var.type is T.SUIT:
        return suit_from_code(value).name.lower()
    if var.type is T.SEAT:
        return game.table.name(value)
    return str(value)


def legal_bids_in(solving: Solving, enc: Encoding) -> tuple[int, ...]:
    """The bids (by number) that the call rules allow in some auction situation: for each
    bid of the ladder, whether the rules let it be called (:func:`E.biddable`)."""
    b = enc.int_var("bid")
    s = solving.solver()
    s.add(E.biddable(enc, b, "legal"))
    return tuple(i for i in range(len(enc.game.ladder)) if solving.sat(s, b == i))


class Setter(NamedTuple):
    """A rule that changes a tracked value: its id, its scope, "true stays true" in it, and
    the value it sets."""

    rule_id: str
    scope: Scope
    holds: Expr
    value: Expr


def setters_of(game: Game, name: str) -> list[Setter]:
    """Each rule that changes a tracked value (see :class:`Setter`)."""
    old = Tracked(name, T.BOOL)
    out: list[Setter] = []
    for r in game.rules:
        b = r.body
        if isinstance(b, K.Update):
            for n_, value in b.sets:
                if n_ == name:
                    out.append(Setter(r.id, b.at.scope,
                                      Implies(old, IfThenElse(b.when, value, old)), value))
        elif isinstance(b, K.Announce):
            for n_, value in b.sets:
                if n_ == name:
                    out.append(Setter(r.id, b.scope, Implies(BoolOp(Op.AND, (old, b.when)), value),
                                      value))
        elif isinstance(b, K.Decide):
            for o in b.options:
                for n_, value in o.sets:
                    if n_ == name:  # STATUS values are all known before the first lead
                        out.append(Setter(r.id, Scope.PLAY,
                                          Implies(BoolOp(Op.AND, (old, o.when)), value), value))
    return out


def monotone_decider(name: str):  # type: ignore[no-untyped-def]
    """The decision that the tracked value ``name`` stays true once true: each rule that
    changes it (:func:`setters_of`) keeps it true."""
    def decide(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
        setters = setters_of(game, name)
        for rule_id, scope, holds, value in setters:
            try:
                verdict, _detail, pt = dsl_decider(scope, holds, (), False)(game, solving, opts)
            except UnsupportedNodeError:
                # a rule that sets the value to true, and nothing else, keeps it true
                # whatever its condition, which Z3 cannot state here
                if isinstance(value, Const) and value.value is True:
                    continue
                raise
            if verdict is Verdict.VIOLATED:
                return verdict, f"{rule_id} turns {name} back to false", pt
            # VACUOUS is a proof here: the rule can never act while the value is true
        return Verdict.HOLDS, (f"each of the {len(setters)} rules that change {name} keeps it true "
                               "once it is true"), None
    return decide
