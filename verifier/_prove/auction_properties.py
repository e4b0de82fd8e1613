"""Proofs of the generic properties of the auction: the bid order, the auction's end, the
standing bid that only goes up, a legal call at every moment, one accepter of a bid.

Each decides the property of :mod:`verifier.properties` that names it (``GENERIC`` there).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Bid, Game
from spec.dsl._nodes import Ctx
from spec.dsl._origins import own_steps
from verifier import trace
from verifier._prove.cones import prove, witnessed
from verifier._prove.decision import Options, Verdict
from verifier._prove.ranking import (
    auction_bound,
    call_holds,
    calls_to_end,
    raises_everywhere,
    ranking_end,
    stage_name,
    stage_situation,
)
from verifier._prove.unrolling import (
    auction_steps,
    call_legal_term,
    decode_calls,
    stage_start,
)
from verifier._z3 import encoding as E
from verifier._z3.compile import Encoding
from verifier._z3.solver import Solving


def bid_order_total(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    a, la, sa, ka = E.bid_definition(enc, "a")
    b, lb, sb, kb = E.bid_definition(enc, "b")
    different = z3.Or(la != lb, sa != sb)
    claim = z3.Implies(different, ka != kb)
    model = prove(solving, a.facts + b.facts, claim)
    n = len(game.ladder)
    if model is None:
        if not witnessed(solving, [(a.facts + b.facts, different)]):
            return Verdict.VACUOUS, "it holds only because the ladder has a single bid", None
        return Verdict.HOLDS, f"{n} bids, each with its own place in the order", None
    va, vb = a.decode(model), b.decode(model)
    strains = enc.strains
    bid_a = Bid(va["a_level"], strains[va["a_strain_rank"]])
    bid_b = Bid(vb["b_level"], strains[vb["b_strain_rank"]])
    pt = trace.Playthrough([f"{bid_a.symbol} and {bid_b.symbol} rank equal in the bid order "
                            f"(both at place {va['a_key']})"],
                           {"bids": [str(bid_a), str(bid_b)], "key": va["a_key"]})
    return Verdict.VIOLATED, "two different bids are equal in the bid order", pt


def auction_ends(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """Bound, for each auction stage, the number of calls after which it is over: by a
    ranking argument on single calls, or else by unrolling the auction call by call.  An
    auction that cannot go on (the seat to call has no legal call) never ends: within the
    bound, none may."""
    found: list[str] = []
    own = _own_calls(game)
    if own:  # bounded stage by stage, the auction's stages only
        return Verdict.UNKNOWN, own, None
    for stage in range(1, game.stages + 1):
        ranked = ranking_end(game, solving, stage)
        if ranked is not None:
            stuck = (None if _always_a_call(game, solving, stage)
                     else _cannot_go_on(game, solving, stage, ranked[0]))
            if stuck is not None:
                return Verdict.VIOLATED, "an auction that cannot go on: no legal call", stuck
            found.append(ranked[1])
            continue
        enc = Encoding.of(game, solving)
        facts, rows, dealer = auction_steps(enc, opts.bound, stage)
        calls = calls_to_end(solving, facts, rows)
        if calls is not None:
            stuck = (None if _always_a_call(game, solving, stage)
                     else _cannot_go_on(game, solving, stage, calls))
            if stuck is not None:
                return Verdict.VIOLATED, "an auction that cannot go on: no legal call", stuck
            t = calls - 1
            # and when it is over it has a declarer or is redealt: the last bid stands
            ok = prove(solving, facts + [rows[i]["legal"] for i in range(t + 1)],
                       z3.Implies(rows[t]["ends"], z3.Or(z3.Not(rows[t]["has_after"]),
                                                         z3.And(rows[t]["high_after"] >= 0,
                                                                rows[t]["high_after"] < game.players))))
            if ok is not None:
                decoded = decode_calls(ok, rows, t + 1)
                pt = trace.replay_auction(game, decoded, ok.eval(dealer).as_long(), "no declarer",
                                          stage=stage, start=stage_start(ok, stage))
                return Verdict.VIOLATED, "an auction ends with a bid but no declarer", pt
            found.append(f"{stage_name(game, stage)} is over after at most {calls} calls")
            continue
        stuck = _cannot_go_on(game, solving, stage, opts.bound)
        if stuck is not None:
            return Verdict.VIOLATED, "an auction that cannot go on: no legal call", stuck
        s = solving.solver()
        s.add(*facts)
        # still going after the bound: show the sequence
        s.add(*[r["legal"] for r in rows], *[z3.Not(r["ends"]) for r in rows])
        if solving.sat(s):
            model = s.model()
            decoded = decode_calls(model, rows, len(rows))
            pt = trace.replay_auction(game, decoded, model.eval(dealer).as_long(),
                                      f"still not over after {len(rows)} calls", stage=stage,
                                      start=stage_start(model, stage))
            return (Verdict.UNKNOWN,
                    f"{stage_name(game, stage)} can run past {opts.bound} calls; raise --bound "
                    "to look further", pt)
        found.append(f"{stage_name(game, stage)} is over within {opts.bound} calls")  # pragma: no cover
    return Verdict.HOLDS, ("; ".join(found) + f", with {who_declares(game)} declaring or a "
                           "redeal"), None


def who_declares(game: Game) -> str:
    """Who declares as an auction ends, in words."""
    if game.program.joinable and game.program.contest:
        return "one of the highest bidder and the seats that joined his bid, as they choose,"
    if game.program.joinable:
        return "the highest bidder and the seats that joined his bid"
    if game.program.namer_declares:
        return "the highest bidder, or the partner who named his bid,"
    return "the highest bidder"


def _bid_over_a_bid(game: Game, solving: Solving) -> bool:
    """Some stage of some auction has a legal bid while a bid stands: the premise of
    "every legal bid beats the standing bid" can occur."""
    enc = Encoding.of(game, solving)

    def cases() -> Iterator[tuple[list[Any], Any]]:
        for stage in range(1, game.stages + 1):
            sit = stage_situation(enc, stage)
            env = sit.env
            yield sit.facts, z3.And(sit.compile(D.call_legal(game)), env[Ctx.CALL_IS_BID],
                                    env[Ctx.HAS_STANDING])
    return witnessed(solving, cases())


def standing_increases(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    if not _bid_over_a_bid(game, solving):
        return (Verdict.VACUOUS, "it holds only because no legal bid is ever made over "
                "another bid", None)
    joins = (bool(game.program.joinable) or game.program.partner_by_call
             or bool(game.constructs(K.HoldBid)))
    if all(raises_everywhere(game, solving, k, joins) for k in range(1, game.stages + 1)):
        return Verdict.HOLDS, "for every call at any moment of every auction", None

    # otherwise check every call of real auctions, unrolled from the start to their end
    def claim(enc: Encoding, r: dict[str, Any]) -> Any:
        return z3.Implies(z3.And(r["is_bid"], r["had"]),
                          z3.Or(enc.bid_key(r["bid"]) > r["before_key"], r["joins"],
                                r["accepts"],
                                call_holds(enc, r["env"]) if game.constructs(K.HoldBid)
                                else enc.bool(False)))
    return _every_call(game, solving, opts, claim, "does not beat the standing bid",
                       "a legal bid that does not raise the standing bid")


def one_accepter(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """A call that accepts the standing bid finds it unaccepted and is not its bidder's,
    and while the pair holds the standing bid the accepter is another seat than its bidder:
    checked on every call of real auctions, unrolled from the start to their end."""
    def claim(_enc: Encoding, r: dict[str, Any]) -> Any:
        return z3.And(
            z3.Implies(r["accepts"], z3.And(r["accepter"] == -1,
                                            r["seat"] != r["env"][Ctx.HIGH_BIDDER])),
            z3.Implies(r["accepter_after"] >= 0, r["accepter_after"] != r["high_after"]))
    return _every_call(game, solving, opts, claim, "accepts a bid twice or its own",
                       "a bid accepted twice, or by its own bidder")


def _own_calls(game: Game) -> str:
    """Why the auction's stages, unrolled, are not every call of a deal ("" where they
    are): a phase the game writes as steps of its own has calls of its own."""
    own = [s.phase for s in own_steps(game) if s.action == "call"]
    return (f"the calls of the phase {own[0]!r} (a phase the game writes as steps of its "
            "own) are not unrolled yet" if own else "")


def _every_call(game: Game, solving: Solving, opts: Options,
                claim: Callable[[Encoding, dict[str, Any]], Any], fails: str, violated: str
                ) -> tuple[Verdict, str, trace.Playthrough | None]:
    """``claim`` of each legal call of every auction stage, unrolled from its start for as
    many calls as the stage is proved to take (:func:`auction_bound`): HOLDS only when
    that covers every call; when no bound within ``--bound`` is proved, the calls
    unrolled are checked (a violation is still one) and the verdict is UNKNOWN."""
    if _own_calls(game):
        return Verdict.UNKNOWN, _own_calls(game), None
    reached = []
    for stage in range(1, game.stages + 1):
        proved = auction_bound(game, solving, stage, opts.bound)
        steps = opts.bound if proved is None else min(proved[0], opts.bound)
        enc = Encoding.of(game, solving)
        facts, rows, dealer = auction_steps(enc, steps, stage)
        for t, r in enumerate(rows):
            prefix = [rows[i]["legal"] for i in range(t + 1)] + [z3.Not(rows[i]["ends"]) for i in range(t)]
            model = prove(solving, facts + prefix, claim(enc, r))
            if model is not None:
                calls = decode_calls(model, rows, t + 1)
                pt = trace.replay_auction(game, calls, model.eval(dealer).as_long(),
                                          f"call {t + 1} {fails}", stage=stage,
                                          start=stage_start(model, stage))
                return Verdict.VIOLATED, violated, pt
        if proved is None or proved[0] > opts.bound:
            return Verdict.UNKNOWN, _past_the_bound(game, stage, opts.bound, proved), None
        reached.append(proved[0])
    return Verdict.HOLDS, _every_call_text(game, reached), None


def _past_the_bound(game: Game, stage: int, bound: int, proved: tuple[int, str] | None) -> str:
    """Why a check of the calls unrolled up to ``--bound`` proves nothing of the rest."""
    longest = ("no bound on its calls is proved" if proved is None
               else f"it may take {proved[0]} calls")
    return (f"checked the first {bound} calls of {stage_name(game, stage)}, but {longest}; "
            "raise --bound to look further")


def _every_call_text(game: Game, most: list[int]) -> str:
    if game.stages == 1:
        return f"for every call of every auction (each is over within {most[0]} calls)"
    return ("for every call of every auction stage (over within "
            + ", ".join(f"{m} calls" for m in most) + " in turn)")


def _call_options(enc: Encoding, env: dict[Any, Any]) -> Any:
    """Some call is legal in the moment of ``env``: a pass, a bid of the ladder, or one the
    seat's partner names for it where the game allows that."""
    game = enc.game
    proxies = game.constructs(K.ProxyCall)

    def legal(proxy: bool, is_bid: bool, bid: int) -> Any:
        return call_legal_term(enc, {**env, Ctx.PROXY: enc.bool(proxy),
                                     Ctx.CALL_IS_BID: enc.bool(is_bid),
                                     Ctx.CALL_BID: enc.int(bid)})

    return z3.Or(*[legal(proxy, is_bid, b)
                   for proxy in ((False, True) if proxies else (False,))
                   for is_bid, b in [(False, -1)] + [(True, k) for k in range(len(game.ladder))]])


def _always_a_call(game: Game, solving: Solving, stage: int) -> bool:
    """At any moment of the stage (the over-approximation of :func:`stage_situation`),
    the seat to call has a legal call: so along every auction, by induction on its calls."""
    enc = Encoding.of(game, solving)
    sit = stage_situation(enc, stage)
    return prove(solving, sit.facts, _call_options(enc, sit.env)) is None


def _cannot_go_on(game: Game, solving: Solving, stage: int, calls: int
                  ) -> trace.Playthrough | None:
    """An auction of the stage that is not over after some legal calls (fewer than
    ``calls``) while the seat to call has no legal call, replayed; None when there is none
    within ``calls`` calls."""
    enc = Encoding.of(game, solving)
    facts, rows, dealer = auction_steps(enc, calls, stage)
    for t, r in enumerate(rows):
        prefix = [rows[i]["legal"] for i in range(t)] + [z3.Not(rows[i]["ends"]) for i in range(t)]
        model = prove(solving, facts + prefix, _call_options(enc, r["env"]))
        if model is not None:
            return trace.replay_auction(game, decode_calls(model, rows, t),
                                        model.eval(dealer).as_long(),
                                        f"call {t + 1} has no legal choice", stage=stage,
                                        start=stage_start(model, stage), stuck=True)
    return None


def legal_call_exists(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """At every moment of every auction not yet over, the seat to call has a legal call: a
    pass, a bid of the ladder, or one named by its partner where the game allows that.
    Proved for any moment of the stage at once where that goes through; else along every
    auction unrolled from its start for as many calls as the stage is proved to take."""
    reached = []
    for stage in range(1, game.stages + 1):
        if _always_a_call(game, solving, stage):
            reached.append(None)
            continue
        if _own_calls(game):  # the calls unrolled would not be all of them
            return Verdict.UNKNOWN, _own_calls(game), None
        proved = auction_bound(game, solving, stage, opts.bound)
        steps = opts.bound if proved is None else min(proved[0], opts.bound)
        stuck = _cannot_go_on(game, solving, stage, steps)
        if stuck is not None:
            return Verdict.VIOLATED, "a seat with no legal call in an auction not over", stuck
        if proved is None or proved[0] > opts.bound:
            return Verdict.UNKNOWN, _past_the_bound(game, stage, opts.bound, proved), None
        reached.append(proved[0])
    if all(m is None for m in reached):
        return Verdict.HOLDS, "at any moment of every auction, whatever the calls before", None
    most = [m for m in reached if m is not None]
    return Verdict.HOLDS, _every_call_text(game, most) if len(most) == len(reached) else (
        "at any moment of every auction stage (unrolled where no shorter proof goes "
        "through: " + ", ".join(f"over within {m} calls" for m in most) + ")"), None
