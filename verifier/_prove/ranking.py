"""Bounds on the calls of an auction stage.

The ranking argument (:func:`ranking_end`) is proved on one symbolic call at any moment of
the stage (:func:`stage_situation`), and bounds the stage without unrolling it;
:func:`auction_bound` falls back on unrolling the stage call by call.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game
from spec.dsl._nodes import Ctx
from verifier._prove.cones import prove
from verifier._prove.unrolling import auction_steps
from verifier._z3 import encoding as E
from verifier._z3.compile import Encoding, Z3Compiler
from verifier._z3.solver import Solving


def stage_name(game: Game, stage: int) -> str:
    """An auction stage as a detail names it."""
    return "the auction" if game.stages == 1 else f"auction stage {stage}"


_RANKING_CAP = 32  # the largest count of calls or passes searched for an end of the auction


def stage_situation(enc: Encoding, stage: int) -> E.Situation:
    """Any moment of one auction stage, after a call (over-approximation).

    Before the first bid every call was a pass, so the passes in a row are the calls made."""
    sit = E.call_situation(enc, f"rank{stage}")
    env = sit.env
    sit.facts += [env[Ctx.STAGE] == stage,
                  z3.Implies(z3.Not(env[Ctx.HAS_STANDING]),
                             env[Ctx.PASSES_IN_ROW] == env[Ctx.CALLS_MADE])]
    return sit


def _least(solving: Solving, sit: E.Situation, ends: Any, condition: Callable[[int], Any]) -> int | None:
    """The least k up to the cap for which ``condition(k)`` always ends the auction."""
    for k in range(1, _RANKING_CAP + 1):
        if prove(solving, sit.facts + [condition(k)], ends) is None:
            return k
    return None


def ranking_end(game: Game, solving: Solving, stage: int) -> tuple[int, str] | None:
    """A bound on the calls of one auction stage, by a ranking argument on single calls.

    Either some number of calls always ends the stage; or (1) a pass is always legal, (2)
    every legal bid beats the standing bid, so there are at most as many bids as the
    ladder has, (3) some number P of passes in a row after a bid always ends it, and some
    number P0 of opening passes does.  A pass adds one to the passes in a row and a bid
    starts them again (the engine's bookkeeping), so the stage ends within
    P0 + bids x P calls; a later stage, which may start with a bid standing, within the
    larger of that and (bids + 1) x P.
    Returns the bound and how it was found; None when the argument does not go through
    (the caller then unrolls the auction).
    """
    enc = Encoding.of(game, solving)
    sit = stage_situation(enc, stage)
    env = sit.env
    ends = sit.compile(D.auction_over(game, stage))
    calls = _least(solving, sit, ends, lambda k: env[Ctx.CALLS_MADE] == k)
    if calls is not None:
        return calls, f"{stage_name(game, stage)} is over after at most {calls} calls"
    pass_env = {**env, Ctx.CALL_IS_BID: enc.bool(False), Ctx.CALL_BID: enc.int(-1)}
    if prove(solving, sit.facts, Z3Compiler(enc, pass_env).visit(D.call_legal(game))) is not None:
        return None
    if not raises_everywhere(game, solving, stage):
        return None
    after_bid = _least(solving, sit, ends, lambda k: z3.And(env[Ctx.HAS_STANDING],
                                                             env[Ctx.PASSES_IN_ROW] == k))
    if after_bid is None:
        return None
    bids = len(game.ladder)
    opening = _least(solving, sit, ends, lambda k: z3.And(z3.Not(env[Ctx.HAS_STANDING]),
                                                           env[Ctx.PASSES_IN_ROW] == k))
    if opening is None:
        return None
    bound = opening + bids * after_bid
    how = f"{opening} opening passes or {after_bid} passes after a bid end it"
    if stage > 1:  # the stage may also start with the earlier stage's bid standing
        bound = max(bound, (bids + 1) * after_bid)
    return bound, (f"{stage_name(game, stage)} is over after at most {bound} calls (a pass is "
                   f"always legal; at most {bids} bids, each beating the last; {how})")


def calls_to_end(solving: Solving, facts: list[Any], rows: list[dict[str, Any]]) -> int | None:
    """The fewest calls after which every legal sequence of calls of an unrolled auction
    stage (``rows``, see :func:`auction_steps`) is over; None if one is still going after
    them all.  Z3's unknown raises (``SolverUnknownError``), never reads as over."""
    s = solving.solver()
    s.add(*facts)
    for t in range(len(rows)):
        # is there a legal sequence of t+1 calls after which the auction is still going?
        s.push()
        s.add(*[rows[i]["legal"] for i in range(t + 1)])
        s.add(*[z3.Not(rows[i]["ends"]) for i in range(t + 1)])
        going = solving.sat(s)
        s.pop()
        if not going:
            return t + 1
    return None


def auction_bound(game: Game, solving: Solving, stage: int, bound: int) -> tuple[int, str] | None:
    """The most calls an auction stage can take, and how it was found: by the ranking
    argument, or else by unrolling up to ``bound`` calls; None when neither finds one."""
    ranked = ranking_end(game, solving, stage)
    if ranked is not None:
        return ranked
    facts, rows, _dealer = auction_steps(Encoding.of(game, solving), bound, stage)
    calls = calls_to_end(solving, facts, rows)
    return None if calls is None else (calls, f"unrolled: over after at most {calls} calls")


def raises_everywhere(game: Game, solving: Solving, stage: int, joins: bool = False) -> bool:
    """Every legal bid beats the standing bid at any moment of the stage (single calls);
    with ``joins``, or repeats it where the rules let other seats join or accept it."""
    enc = Encoding.of(game, solving)
    sit = stage_situation(enc, stage)
    env = sit.env
    beats = enc.bid_key(env[Ctx.CALL_BID]) > enc.bid_key(env[Ctx.STANDING])
    if joins:
        beats = z3.Or(beats, sit.compile(D.call_joins(game)), sit.compile(D.call_accepts(game)))
    if joins and game.constructs(K.HoldBid):
        beats = z3.Or(beats, call_holds(enc, env))
    raises = z3.Implies(z3.And(sit.compile(D.call_legal(game)), env[Ctx.CALL_IS_BID],
                               env[Ctx.HAS_STANDING]), beats)
    return prove(solving, sit.facts, raises) is None


def call_holds(enc: Encoding, env: dict[Any, Any]) -> Any:
    """The call of ``env`` repeats the standing bid where a ``HoldBid`` rule lets the seat
    hold it (a hold: the same bid, taken over)."""
    rules = enc.game.constructs(K.HoldBid)
    when = z3.Or(*[Z3Compiler(enc, env).visit(b.when) for _r, b in rules])  # type: ignore[attr-defined]
    return z3.And(env[Ctx.CALL_BID] == env[Ctx.STANDING], when)
