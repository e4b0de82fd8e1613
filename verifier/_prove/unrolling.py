"""An auction stage unrolled call by call for Z3, and what a model of it says.

:func:`auction_steps` gives the facts of the stage's start and, for each call, the terms of
the moment before it and after it: whether the call is legal, whether it ends the stage,
who holds the standing bid.  The properties of the auction check their claims on these
rows, and the whole deal unrolled for the scenario search (:mod:`verifier._unrolled`) is
built on them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._nodes import Ctx, PartnerOf, T, Var
from spec.dsl._program import PhaseKind
from spec.seats import seat_after
from verifier._z3 import encoding as E
from verifier._z3.compile import Encoding, Z3Compiler


def call_legal_term(enc: Encoding, env: dict[Any, Any]) -> Any:
    """The call of ``env`` is legal: the call rules allow it and, when the partner names
    it (``Ctx.PROXY``), the seat may ask him to (the ProxyCall rule, judged as asked)."""
    g = enc.game
    legal = Z3Compiler(enc, env).visit(D.call_legal(g))
    proxies = g.constructs(K.ProxyCall)
    if not proxies:
        return legal
    body = proxies[0][1]
    assert isinstance(body, K.ProxyCall)
    may = Z3Compiler(enc, {**env, Ctx.PROXY: enc.bool(False)}).visit(body.when)
    return z3.And(legal, z3.Implies(env[Ctx.PROXY], may))


@dataclass
class _Stage:
    """What stays the same along an unrolled auction stage: its dealer, hands, idle seat
    and tracked values as terms, and what its rules read and allow."""

    enc: Encoding
    stage: int
    prefix: str
    dealer: Any
    hands: list[Any]
    idle: Any
    tracked: dict[Any, Any]
    reads_holds: bool  # a rule reads whether the seat holds the standing bid
    reads_others: bool  # a rule reads whether every other seat has passed
    proxies: bool  # a call may be named by the seat's partner
    namer_declares: bool  # a bid so named is declared by the partner who named it
    counts_for_partner: bool  # a call so named counts as one of the partner's calls too


@dataclass
class _Moment:
    """An unrolled auction stage between two calls, as terms: the seat to call, the
    standing bid (whether there is one, its highest bidder, the seat that would declare
    it and the seat that accepted it, -1 for none), the calls made and the passes in a row,
    whether a bid was made in the stage, each seat's calls, passes and joining of the
    standing bid, and whether the stage is over."""

    seat: Any
    standing: Any
    has: Any
    high: Any
    maker: Any
    accepter: Any
    calls: Any
    passes: Any
    stage_bid: Any
    seat_calls: list[Any]
    passed: list[Any]
    joined: list[Any]
    over: Any


def auction_steps(enc: Encoding, steps: int, stage: int = 1, prefix: str = ""
                  ) -> tuple[list[Any], list[dict[str, Any]], Any]:
    """Unroll ``steps`` calls from the start of an auction stage; returns facts and per-step
    terms.

    Stage 1 starts with no bid.  A later stage starts from any standing bid that the
    earlier stage can end with (a bid legal there) and any highest bidder; the counts of
    calls start again, as in the engine.  A step may be a call named by the seat's partner
    in its place when the game allows that; it is still the seat's own call, and a bid so
    made is the seat's.  ``prefix`` names the variables, so that
    several stages unroll side by side; each step's row has the context before the call
    (``env``) and after it (``after``).
    """
    st, now, facts = _first_moment(enc, stage, prefix)
    rows = []
    for t in range(steps):
        row, now = _call(st, now, t, facts)
        rows.append(row)
    return facts, rows, st.dealer


def _first_moment(enc: Encoding, stage: int, prefix: str) -> tuple[_Stage, _Moment, list[Any]]:
    """An auction stage before its first call: what stays the same along it, its first
    moment, and the facts of its start."""
    g = enc.game
    n = g.players
    dealer = enc.int_var(f"{prefix}dealer")
    facts: list[Any] = [dealer >= 0, dealer < n]
    hands = [enc.cards_var(f"{prefix}hand_{s}") for s in range(n)]
    turns = g.program.phase(PhaseKind.AUCTION, stage)
    assert turns is not None and turns.first is not None
    tracked: dict[Any, Any] = {}
    for name, track in g.tracked.items():
        v = enc.bool_var(f"{prefix}tv_{name}") if track.type is T.BOOL else enc.int_var(f"{prefix}tv_{name}")
        tracked[("tracked", name)] = v
    standing, has, high, maker, accepter = _standing_at_start(enc, stage, prefix, facts)
    calls, passes, stage_bid = enc.int(0), enc.int(0), enc.bool(False)
    seat_calls = [enc.int(0)] * n
    passed = [enc.bool(False)] * n
    # the seats that joined the standing bid: none before the first bid; a later stage
    # starts with any that the earlier one may have left (the engine keeps them)
    # (kept only where a rule reads who holds the standing bid: terms no rule reads would
    # still change the formula Z3 is given, and the steps it takes)
    reads_holds = D.reads_ctx(g, Ctx.SEAT_HOLDS)
    reads_others = D.reads_ctx(g, Ctx.OTHERS_PASSED)
    joined = ([enc.bool(False)] * n if stage == 1 or not (reads_holds or reads_others)
              else [enc.bool_var(f"{prefix}joined_0_{s}") for s in range(n)])
    idle = E.idle_seat(enc, dealer)  # the seat idle for the deal makes no call
    program = g.program
    st = _Stage(enc, stage, prefix, dealer, hands, idle, tracked, reads_holds, reads_others,
                proxies=program.proxy, namer_declares=program.namer_declares,
                counts_for_partner=program.proxy_counts)
    first_env = {Ctx.DEALER: dealer, Ctx.STAGE: enc.int(stage), Ctx.HAS_STANDING: has,
                 Ctx.STANDING: standing, Ctx.HIGH_BIDDER: high, Ctx.CALLS_MADE: calls,
                 Ctx.STANDING_MAKER: maker,
                 Ctx.PASSES_IN_ROW: passes, Ctx.BID_THIS_STAGE: stage_bid,
                 Ctx.PROXY: enc.bool(False), Ctx.SEAT_CALLS: enc.int(0),
                 Ctx.SEAT_PASSED: enc.bool(False), Ctx.STANDING_ACCEPTED: accepter >= 0,
                 **_holding(st, passed, joined, high, accepter), **tracked}
    seat = Z3Compiler(enc, first_env).visit(turns.first)
    if g.constructs(K.IdleSeat):
        seat = z3.If(seat == idle, seat_after(seat, n), seat)
    over = enc.bool(False)
    return st, _Moment(seat, standing, has, high, maker, accepter, calls, passes, stage_bid,
                       seat_calls, passed, joined, over), facts


def _standing_at_start(enc: Encoding, stage: int, prefix: str, facts: list[Any]
                       ) -> tuple[Any, Any, Any, Any, Any]:
    """The standing bid as an auction stage starts: the bid, whether there is one, its
    highest bidder, the seat that would declare it and the seat that accepted it (-1:
    none).  Stage 1 starts with none; a later stage with any bid legal in the stage before
    it, the facts of which are added to ``facts``."""
    g = enc.game
    n = g.players
    # the seat that accepted the standing bid (-1: none), which carries over between stages
    accepter: Any = enc.int(-1)
    if stage == 1:
        standing, has, high = enc.int(-1), enc.bool(False), enc.int(-1)
        maker: Any = enc.int(-1)
        return standing, has, high, maker, accepter
    standing, high = enc.int_var(f"{prefix}standing_0"), enc.int_var(f"{prefix}high_0")
    maker = enc.int_var(f"{prefix}maker_0")
    earlier = E.call_situation(enc, f"{prefix}earlier")
    earlier.env.update({Ctx.CALL_IS_BID: enc.bool(True), Ctx.CALL_BID: standing,
                        Ctx.STAGE: enc.int(stage - 1)})
    facts += earlier.facts + [enc.bid_in_ladder(standing), high >= 0, high < n,
                              maker >= 0, maker < n, earlier.compile(D.call_legal(g))]
    has = enc.bool(True)
    if g.program.partner_by_call:
        accepter = enc.int_var(f"{prefix}accepter_0")
        facts.append(z3.Or(accepter == -1, z3.And(accepter >= 0, accepter < n,
                                                  accepter != high)))
    return standing, has, high, maker, accepter


def _holding(st: _Stage, passed: list[Any], joined: list[Any], high: Any, accepter: Any,
             seat: Any = None) -> dict[Ctx, Any]:
    """Whether every seat but those holding the standing bid (and the idle one) has
    passed, and whether ``seat`` holds it, where a rule reads them."""
    enc, n = st.enc, st.enc.game.players
    out: dict[Ctx, Any] = {}
    if st.reads_others:
        out[Ctx.OTHERS_PASSED] = z3.And(*[
            z3.Or(passed[s], joined[s], high == s, accepter == s, st.idle == s)
            for s in range(n)])
    if st.reads_holds and seat is not None:
        out[Ctx.SEAT_HOLDS] = z3.Or(enc.select(seat, joined), high == seat, accepter == seat)
    return out


def _call(st: _Stage, now: _Moment, t: int, facts: list[Any]) -> tuple[dict[str, Any], _Moment]:
    """Call ``t`` of the stage, made at the moment ``now``: its row (see
    :func:`auction_steps`) and the moment after it; the facts of the call are added to
    ``facts``."""
    enc = st.enc
    g, n, prefix = enc.game, enc.game.players, st.prefix
    seat = now.seat
    is_bid = enc.bool_var(f"{prefix}is_bid_{t}")
    b = enc.int_var(f"{prefix}bid_{t}")
    proxy = enc.bool_var(f"{prefix}proxy_{t}")
    facts.append(z3.If(is_bid, enc.bid_in_ladder(b), b == -1))
    hand = enc.select(seat, st.hands)
    mine = enc.select(seat, now.seat_calls)
    env = {
        Ctx.SEAT: seat, Ctx.DEALER: st.dealer, Ctx.HAND: hand, Ctx.HAS_STANDING: now.has,
        Ctx.STANDING: now.standing, Ctx.HIGH_BIDDER: now.high, Ctx.CALLS_MADE: now.calls,
        Ctx.STANDING_MAKER: now.maker,
        Ctx.PASSES_IN_ROW: now.passes, Ctx.CALL_IS_BID: is_bid, Ctx.CALL_BID: b,
        Ctx.STAGE: enc.int(st.stage), Ctx.SEAT_CALLS: mine, Ctx.BID_THIS_STAGE: now.stage_bid,
        Ctx.SEAT_PASSED: enc.select(seat, now.passed),
        Ctx.PROXY: proxy, Ctx.STANDING_ACCEPTED: now.accepter >= 0,
        **_holding(st, now.passed, now.joined, now.high, now.accepter, seat), **st.tracked,
    }
    legal = call_legal_term(enc, env)
    if st.proxies:
        turn = Var("turn", T.SEAT)
        namer = z3.If(proxy, Z3Compiler(enc, {turn: seat}).visit(PartnerOf(turn)), seat)
    else:
        facts.append(z3.Not(proxy))
        namer = seat
    before_key = z3.If(now.has, enc.bid_key(now.standing), enc.int(-(10 ** 9)))
    nxt, mine_after, joins, accepts = _changes(st, now, env, is_bid, b, proxy, namer)
    after = {
        Ctx.SEAT: seat, Ctx.DEALER: st.dealer, Ctx.HAND: hand, Ctx.HAS_STANDING: nxt.has,
        Ctx.STANDING: nxt.standing, Ctx.HIGH_BIDDER: nxt.high, Ctx.CALLS_MADE: nxt.calls,
        Ctx.STANDING_MAKER: nxt.maker,
        Ctx.PASSES_IN_ROW: nxt.passes, Ctx.STAGE: enc.int(st.stage), Ctx.SEAT_CALLS: mine_after,
        Ctx.SEAT_PASSED: enc.select(seat, nxt.passed),
        Ctx.BID_THIS_STAGE: nxt.stage_bid, Ctx.PROXY: proxy,
        Ctx.STANDING_ACCEPTED: nxt.accepter >= 0,
        **_holding(st, nxt.passed, nxt.joined, nxt.high, nxt.accepter, seat), **st.tracked,
    }
    ends = Z3Compiler(enc, after).visit(D.auction_over(g, st.stage))
    row = {"env": env, "legal": legal, "is_bid": is_bid, "bid": b, "before_key": before_key,
           "joins": joins, "accepts": accepts, "accepter": now.accepter,
           "accepter_after": nxt.accepter,
           "had": now.has, "over_before": now.over, "ends": ends, "has_after": nxt.has,
           "high_after": nxt.high, "maker_after": nxt.maker, "seat": seat,
           "proxy": proxy, "after": after}
    nxt.over = z3.Or(now.over, ends)
    nxt.seat = seat_after(seat, n)
    if g.constructs(K.IdleSeat):
        nxt.seat = z3.If(nxt.seat == st.idle, seat_after(nxt.seat, n), nxt.seat)
    return row, nxt


def _changes(st: _Stage, now: _Moment, env: dict[Any, Any], is_bid: Any, b: Any, proxy: Any,
             namer: Any) -> tuple[_Moment, Any, Any, Any]:
    """What a call (``is_bid``, the bid ``b``, named by the partner when ``proxy``, by the
    seat ``namer``) changes: the moment after it (its seat and end still those of
    ``now``), the seat's count of calls after it, and whether the call joins and whether it
    accepts the standing bid."""
    enc = st.enc
    g, n = enc.game, enc.game.players
    seat = now.seat
    new_standing = z3.If(is_bid, b, now.standing)
    new_has = z3.Or(now.has, is_bid)
    # a bid named by the partner is the seat's own; one that joins or accepts the
    # standing bid leaves its first bidder the highest
    joins = (Z3Compiler(enc, env).visit(D.call_joins(g)) if g.program.joinable
             else enc.bool(False))
    accepts = (Z3Compiler(enc, env).visit(D.call_accepts(g)) if g.program.partner_by_call
               else enc.bool(False))
    renews = z3.And(is_bid, z3.Not(joins), z3.Not(accepts))
    new_high = z3.If(renews, seat, now.high)
    # the seat that would declare the standing bid: its bidder, or who named it
    new_maker = z3.If(renews, namer if st.namer_declares else seat, now.maker)
    # a new highest bid takes the standing bid, and its acceptance, from the pair
    new_accepter = z3.If(accepts, seat,
                         z3.If(z3.And(is_bid, z3.Not(joins)), enc.int(-1), now.accepter))
    new_calls = now.calls + 1
    new_passes = z3.If(is_bid, enc.int(0), now.passes + 1)
    new_stage_bid = z3.Or(now.stage_bid, is_bid)
    new_seat_calls = [
        now.seat_calls[s] + z3.If(seat == s, enc.int(1), enc.int(0))
        + (z3.If(z3.And(proxy, namer == s), enc.int(1), enc.int(0)) if st.counts_for_partner
           else enc.int(0))
        for s in range(n)]
    mine_after = enc.select(seat, new_seat_calls)
    new_passed = [z3.Or(now.passed[s], z3.And(seat == s, z3.Not(is_bid))) for s in range(n)]
    # a seat joins the standing bid; a new highest bid leaves none joined
    new_joined = ([z3.Or(z3.And(joins, seat == s), z3.And(z3.Not(renews), now.joined[s]))
                   for s in range(n)] if st.reads_holds or st.reads_others else now.joined)
    nxt = _Moment(seat, new_standing, new_has, new_high, new_maker, new_accepter, new_calls,
                  new_passes, new_stage_bid, new_seat_calls, new_passed, new_joined, now.over)
    return nxt, mine_after, joins, accepts


def decode_calls(model: z3.ModelRef, rows: list[dict[str, Any]], upto: int) -> list[tuple[int, bool]]:
    """The calls of an unrolled auction: (bid number or -1, made by the partner)."""
    out = []
    for r in rows[:upto]:
        isb = z3.is_true(model.eval(r["is_bid"], model_completion=True))
        proxy = z3.is_true(model.eval(r["proxy"], model_completion=True))
        out.append((model.eval(r["bid"], model_completion=True).as_long() if isb else -1, proxy))
    return out


def stage_start(model: z3.ModelRef, stage: int) -> tuple[int, int] | None:
    """The standing bid and its highest bidder that an unrolled later stage starts from in
    ``model``; None for stage 1, which starts with no bid."""
    if stage == 1:
        return None
    standing = model.eval(z3.Int("standing_0", model.ctx), model_completion=True).as_long()
    high = model.eval(z3.Int("high_0", model.ctx), model_completion=True).as_long()
    return standing, high
