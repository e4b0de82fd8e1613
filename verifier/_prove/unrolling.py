"""An auction stage unrolled call by call for Z3, and what a model of it says.

:func:`auction_steps` gives the facts of the stage's start and, for each call, the terms of
the moment before it and after it: whether the call is legal, whether it ends the stage,
who holds the standing bid.  The properties of the auction check their claims on these
rows, and the whole deal unrolled for the scenario search (:mod:`verifier._unrolled`) is
built on them.
"""
from __future__ import annotations

from typing import Any

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._nodes import Ctx, PartnerOf, T, Var
from spec.dsl._program import PhaseKind
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
    # the seat that accepted the standing bid (-1: none), which carries over between stages
    accepter: Any = enc.int(-1)
    if stage == 1:
        standing, has, high = enc.int(-1), enc.bool(False), enc.int(-1)
        maker: Any = enc.int(-1)
    else:
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
    calls, passes, stage_bid = enc.int(0), enc.int(0), enc.bool(False)
    seat_calls = [enc.int(0)] * n
    passed = [enc.bool(False)] * n
    # the seats that joined the standing bid: none before the first bid; a later stage
    # starts with any that the earlier one may have left (the engine keeps them)
    # (kept only where a rule reads who holds the standing bid: terms no rule reads would
    # still change the formula Z3 is given, and the steps it takes)
    reads_holds = D.reads_ctx(g, Ctx.SEAT_HOLDS)
    reads_others = D.reads_ctx(g, Ctx.OTHERS_PASSED)
    keeps_joined = reads_holds or reads_others
    joined = ([enc.bool(False)] * n if stage == 1 or not keeps_joined
              else [enc.bool_var(f"{prefix}joined_0_{s}") for s in range(n)])
    idle = E.idle_seat(enc, dealer)  # the seat idle for the deal makes no call

    def holding(passed: list[Any], joined: list[Any], high: Any, accepter: Any,
                seat: Any = None) -> dict[Ctx, Any]:
        """Whether every seat but those holding the standing bid (and the idle one) has
        passed, and whether ``seat`` holds it, where a rule reads them."""
        out: dict[Ctx, Any] = {}
        if reads_others:
            out[Ctx.OTHERS_PASSED] = z3.And(*[
                z3.Or(passed[s], joined[s], high == s, accepter == s, idle == s)
                for s in range(n)])
        if reads_holds and seat is not None:
            out[Ctx.SEAT_HOLDS] = z3.Or(enc.select(seat, joined), high == seat, accepter == seat)
        return out

    first_env = {Ctx.DEALER: dealer, Ctx.STAGE: enc.int(stage), Ctx.HAS_STANDING: has,
                 Ctx.STANDING: standing, Ctx.HIGH_BIDDER: high, Ctx.CALLS_MADE: calls,
                 Ctx.STANDING_MAKER: maker,
                 Ctx.PASSES_IN_ROW: passes, Ctx.BID_THIS_STAGE: stage_bid,
                 Ctx.PROXY: enc.bool(False), Ctx.SEAT_CALLS: enc.int(0),
                 Ctx.SEAT_PASSED: enc.bool(False), Ctx.STANDING_ACCEPTED: accepter >= 0,
                 **holding(passed, joined, high, accepter), **tracked}
    seat = Z3Compiler(enc, first_env).visit(turns.first)
    if g.constructs(K.IdleSeat):
        seat = z3.If(seat == idle, (seat + 1) % n, seat)
    proxy_rules = g.constructs(K.ProxyCall)
    namer_declares = bool(proxy_rules and proxy_rules[0][1].namer_declares)  # type: ignore[attr-defined]
    over = enc.bool(False)
    rows = []
    for t in range(steps):
        is_bid = enc.bool_var(f"{prefix}is_bid_{t}")
        b = enc.int_var(f"{prefix}bid_{t}")
        proxy = enc.bool_var(f"{prefix}proxy_{t}")
        facts.append(z3.If(is_bid, enc.bid_in_ladder(b), b == -1))
        hand = enc.select(seat, hands)
        mine = enc.select(seat, seat_calls)
        env = {
            Ctx.SEAT: seat, Ctx.DEALER: dealer, Ctx.HAND: hand, Ctx.HAS_STANDING: has,
            Ctx.STANDING: standing, Ctx.HIGH_BIDDER: high, Ctx.CALLS_MADE: calls,
            Ctx.STANDING_MAKER: maker,
            Ctx.PASSES_IN_ROW: passes, Ctx.CALL_IS_BID: is_bid, Ctx.CALL_BID: b,
            Ctx.STAGE: enc.int(stage), Ctx.SEAT_CALLS: mine, Ctx.BID_THIS_STAGE: stage_bid,
            Ctx.SEAT_PASSED: enc.select(seat, passed),
            Ctx.PROXY: proxy, Ctx.STANDING_ACCEPTED: accepter >= 0,
            **holding(passed, joined, high, accepter, seat), **tracked,
        }
        legal = call_legal_term(enc, env)
        if proxy_rules:
            turn = Var("turn", T.SEAT)
            namer = z3.If(proxy, Z3Compiler(enc, {turn: seat}).visit(PartnerOf(turn)), seat)
        else:
            facts.append(z3.Not(proxy))
            namer = seat
        before_key = z3.If(has, enc.bid_key(standing), enc.int(-(10 ** 9)))
        new_standing = z3.If(is_bid, b, standing)
        new_has = z3.Or(has, is_bid)
        # a bid named by the partner is the seat's own; one that joins or accepts the
        # standing bid leaves its first bidder the highest
        joins = (Z3Compiler(enc, env).visit(D.call_joins(g)) if g.program.joinable
                 else enc.bool(False))
        accepts = (Z3Compiler(enc, env).visit(D.call_accepts(g)) if g.program.partner_by_call
                   else enc.bool(False))
        renews = z3.And(is_bid, z3.Not(joins), z3.Not(accepts))
        new_high = z3.If(renews, seat, high)
        # the seat that would declare the standing bid: its bidder, or who named it
        new_maker = z3.If(renews, namer if namer_declares else seat, maker)
        # a new highest bid takes the standing bid, and its acceptance, from the pair
        new_accepter = z3.If(accepts, seat,
                             z3.If(z3.And(is_bid, z3.Not(joins)), enc.int(-1), accepter))
        new_calls = calls + 1
        new_passes = z3.If(is_bid, enc.int(0), passes + 1)
        new_stage_bid = z3.Or(stage_bid, is_bid)
        counts_for_partner = bool(proxy_rules and proxy_rules[0][1].counts_for_partner)  # type: ignore[attr-defined]
        new_seat_calls = [
            seat_calls[s] + z3.If(seat == s, enc.int(1), enc.int(0))
            + (z3.If(z3.And(proxy, namer == s), enc.int(1), enc.int(0)) if counts_for_partner
               else enc.int(0))
            for s in range(n)]
        mine_after = enc.select(seat, new_seat_calls)
        new_passed = [z3.Or(passed[s], z3.And(seat == s, z3.Not(is_bid))) for s in range(n)]
        # a seat joins the standing bid; a new highest bid leaves none joined
        new_joined = ([z3.Or(z3.And(joins, seat == s), z3.And(z3.Not(renews), joined[s]))
                       for s in range(n)] if keeps_joined else joined)
        after = {
            Ctx.SEAT: seat, Ctx.DEALER: dealer, Ctx.HAND: hand, Ctx.HAS_STANDING: new_has,
            Ctx.STANDING: new_standing, Ctx.HIGH_BIDDER: new_high, Ctx.CALLS_MADE: new_calls,
            Ctx.STANDING_MAKER: new_maker,
            Ctx.PASSES_IN_ROW: new_passes, Ctx.STAGE: enc.int(stage), Ctx.SEAT_CALLS: mine_after,
            Ctx.SEAT_PASSED: enc.select(seat, new_passed),
            Ctx.BID_THIS_STAGE: new_stage_bid, Ctx.PROXY: proxy,
            Ctx.STANDING_ACCEPTED: new_accepter >= 0,
            **holding(new_passed, new_joined, new_high, new_accepter, seat), **tracked,
        }
        ends = Z3Compiler(enc, after).visit(D.auction_over(g, stage))
        rows.append({"env": env, "legal": legal, "is_bid": is_bid, "bid": b, "before_key": before_key,
                     "joins": joins, "accepts": accepts, "accepter": accepter,
                     "accepter_after": new_accepter,
                     "had": has, "over_before": over, "ends": ends, "has_after": new_has,
                     "high_after": new_high, "maker_after": new_maker, "seat": seat,
                     "proxy": proxy, "after": after})
        standing, has, high, calls, passes = new_standing, new_has, new_high, new_calls, new_passes
        maker = new_maker
        accepter = new_accepter
        stage_bid, seat_calls, passed, joined = new_stage_bid, new_seat_calls, new_passed, new_joined
        over = z3.Or(over, ends)
        seat = (seat + 1) % n
        if g.constructs(K.IdleSeat):
            seat = z3.If(seat == idle, (seat + 1) % n, seat)
    return facts, rows, dealer


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
