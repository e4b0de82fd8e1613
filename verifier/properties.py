"""Properties of games, proved with Z3 from the compiled rules.

Three kinds of property are checked for a game:

* the **generic** properties below, which every trick-taking game must have (the deal
  shares out the deck, the bid order is a strict total order, the auction only goes up
  and ends, a legal card always exists, every trick has one winner);
* the **claims** in the game's own rules (a rule whose construct is ``Claim``: a
  consequence the rulebook states, such as "the leader may lead any card");
* the game's **properties** (``PROPERTIES`` in its module), findings included.

Each check returns a :class:`Result`: ``HOLDS``, ``VIOLATED`` with a counterexample that
has been replayed through the engine, or ``UNKNOWN`` with the solver's reason.
"""
from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game
from spec.dsl._nodes import Ctx, Expr, Scope, Strength, Var
from verifier import trace
from verifier._z3 import encoding as E
from verifier._z3.compile import Encoding, Z3Compiler
from verifier._z3.solver import Solving
from verifier.errors import SolverUnknownError

__all__ = ["Verdict", "Result", "Check", "checks_for", "run_check", "check_game"]


class Verdict(enum.Enum):
    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    UNKNOWN = "UNKNOWN"


@dataclass
class Result:
    """The verdict on one property, with its time and, when violated, a playthrough."""

    id: str
    text: str
    verdict: Verdict
    seconds: float
    kind: str
    detail: str = ""
    playthrough: trace.Playthrough | None = None
    finding: bool = False
    covers: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "text": self.text, "verdict": self.verdict.value,
            "seconds": round(self.seconds, 3), "kind": self.kind, "finding": self.finding,
            "covers": list(self.covers),
        }
        if self.detail:
            out["detail"] = self.detail
        if self.playthrough is not None:
            out["counterexample"] = {"text": self.playthrough.lines, "data": self.playthrough.data,
                                     "replayed": self.playthrough.replayed}
        return out


@dataclass
class Check:
    """A property to check: its id, its statement, and how to decide it."""

    id: str
    text: str
    kind: str  # "generic", "rule" or "property"
    decide: Callable[[Game, Solving, "Options"], tuple[Verdict, str, trace.Playthrough | None]]
    finding: bool = False
    covers: tuple[str, ...] = ()


@dataclass
class Options:
    timeout: float = 60.0
    bound: int = 64


class _Violated(Exception):
    def __init__(self, detail: str, playthrough: trace.Playthrough | None) -> None:
        self.detail = detail
        self.playthrough = playthrough


def _prove(solving: Solving, facts: list[Any], claim: Any) -> z3.ModelRef | None:
    """None when the claim follows from the facts; otherwise a model of a violation."""
    s = solving.solver()
    s.add(*facts)
    s.add(z3.Not(claim))
    if Solving.check(s):
        return s.model()
    return None


# -- generic properties ------------------------------------------------------------------

def _deal_partitions(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding(game, solving.ctx)
    sit, dest = E.deal_schedule(enc)
    n, size = game.players, len(game.deck)
    counts = [z3.Sum([z3.If(d == s, enc.int(1), enc.int(0)) for d in dest]) for s in range(n)]
    # every pack position goes to a real seat, and each seat gets its share
    claim = z3.And(*[z3.And(d >= 0, d < n) for d in dest], *[c == game.tricks for c in counts])
    model = _prove(solving, sit.facts, claim)
    if model is None:
        return (Verdict.HOLDS, f"{game.tricks} cards to each of {n} seats from the {size}-card "
                "pack, for every dealer (the cards' distinctness is checked when the game is built)",
                None)
    dealer = model.eval(sit.values["dealer"], model_completion=True).as_long()
    pt = trace.replay_deal(game, list(range(size)), dealer, None)
    return Verdict.VIOLATED, "a deal that does not share out the deck", pt


def _bid_order_total(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding(game, solving.ctx)
    a, la, sa, ka = E.bid_definition(enc, "a")
    b, lb, sb, kb = E.bid_definition(enc, "b")
    claim = z3.Implies(z3.Or(la != lb, sa != sb), ka != kb)
    model = _prove(solving, a.facts + b.facts, claim)
    n = len(game.ladder)
    if model is None:
        return Verdict.HOLDS, f"{n} bids, each with its own place in the order", None
    va, vb = a.decode(model), b.decode(model)
    strains = enc.strains
    from spec.dsl._build import Bid

    bid_a = Bid(va["a_level"], strains[va["a_strain_rank"]])
    bid_b = Bid(vb["b_level"], strains[vb["b_strain_rank"]])
    pt = trace.Playthrough([f"{bid_a.symbol} and {bid_b.symbol} both have key {va['a_key']}"],
                           {"bids": [str(bid_a), str(bid_b)], "key": va["a_key"]})
    return Verdict.VIOLATED, "two different bids are equal in the bid order", pt


def _auction_steps(enc: Encoding, steps: int) -> tuple[list[Any], list[dict[str, Any]], Any]:
    """Unroll ``steps`` calls from the start of an auction; returns facts and per-step terms."""
    g = enc.game
    n = g.players
    dealer = enc.int_var("dealer")
    facts: list[Any] = [dealer >= 0, dealer < n]
    hands = [enc.cards_var(f"hand_{s}") for s in range(n)]
    turns = g.one(K.AuctionTurns)
    assert isinstance(turns, K.AuctionTurns)
    seat = Z3Compiler(enc, {Ctx.DEALER: dealer}).visit(turns.first)
    standing, has, high, calls, passes = enc.int(-1), enc.bool(False), enc.int(-1), enc.int(0), enc.int(0)
    over = enc.bool(False)
    rows = []
    for t in range(steps):
        is_bid = enc.bool_var(f"is_bid_{t}")
        b = enc.int_var(f"bid_{t}")
        facts.append(z3.If(is_bid, enc.bid_in_ladder(b), b == -1))
        hand = hands[0]
        for s in range(1, n):
            hand = z3.If(seat == s, hands[s], hand)
        env = {
            Ctx.SEAT: seat, Ctx.DEALER: dealer, Ctx.HAND: hand, Ctx.HAS_STANDING: has,
            Ctx.STANDING: standing, Ctx.HIGH_BIDDER: high, Ctx.CALLS_MADE: calls,
            Ctx.PASSES_IN_ROW: passes, Ctx.CALL_IS_BID: is_bid, Ctx.CALL_BID: b,
        }
        legal = Z3Compiler(enc, env).visit(D.call_legal(g))
        before_key = z3.If(has, enc.bid_key(standing), enc.int(-(10 ** 9)))
        new_standing = z3.If(is_bid, b, standing)
        new_has = z3.Or(has, is_bid)
        new_high = z3.If(is_bid, seat, high)
        new_calls = calls + 1
        new_passes = z3.If(is_bid, enc.int(0), passes + 1)
        after = {
            Ctx.SEAT: seat, Ctx.DEALER: dealer, Ctx.HAND: hand, Ctx.HAS_STANDING: new_has,
            Ctx.STANDING: new_standing, Ctx.HIGH_BIDDER: new_high, Ctx.CALLS_MADE: new_calls,
            Ctx.PASSES_IN_ROW: new_passes,
        }
        ends = Z3Compiler(enc, after).visit(D.auction_over(g))
        rows.append({"legal": legal, "is_bid": is_bid, "bid": b, "before_key": before_key,
                     "had": has, "over_before": over, "ends": ends, "has_after": new_has,
                     "high_after": new_high, "seat": seat})
        standing, has, high, calls, passes = new_standing, new_has, new_high, new_calls, new_passes
        over = z3.Or(over, ends)
        seat = (seat + 1) % n
    return facts, rows, dealer


def _decode_calls(model: z3.ModelRef, rows: list[dict[str, Any]], upto: int) -> list[int]:
    out = []
    for r in rows[:upto]:
        isb = z3.is_true(model.eval(r["is_bid"], model_completion=True))
        out.append(model.eval(r["bid"], model_completion=True).as_long() if isb else -1)
    return out


def _auction_ends(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """Find the least number of calls after which every legal auction is over."""
    enc = Encoding(game, solving.ctx)
    facts, rows, dealer = _auction_steps(enc, opts.bound)
    s = solving.solver()
    s.add(*facts)
    for t, r in enumerate(rows):
        # is there a legal sequence of t+1 calls after which the auction is still going?
        s.push()
        s.add(*[rows[i]["legal"] for i in range(t + 1)])
        s.add(*[z3.Not(rows[i]["ends"]) for i in range(t + 1)])
        going = Solving.check(s)
        s.pop()
        if not going:
            # and when it is over it has a declarer or is redealt: the last bid stands
            ok = _prove(solving, facts + [rows[i]["legal"] for i in range(t + 1)],
                        z3.Implies(rows[t]["ends"], z3.Or(z3.Not(rows[t]["has_after"]),
                                                          z3.And(rows[t]["high_after"] >= 0,
                                                                 rows[t]["high_after"] < game.players))))
            if ok is not None:
                calls = _decode_calls(ok, rows, t + 1)
                pt = trace.replay_auction(game, calls, ok.eval(dealer).as_long(), "no declarer")
                return Verdict.VIOLATED, "an auction ends with a bid but no declarer", pt
            return Verdict.HOLDS, (f"every auction is over after at most {t + 1} calls, with "
                                   "the highest bidder declaring or a redeal"), None
    # still going after the bound: show the sequence
    s.add(*[r["legal"] for r in rows], *[z3.Not(r["ends"]) for r in rows])
    if Solving.check(s):
        model = s.model()
        calls = _decode_calls(model, rows, len(rows))
        pt = trace.replay_auction(game, calls, model.eval(dealer).as_long(),
                                  f"still not over after {len(rows)} calls")
        return (Verdict.UNKNOWN,
                f"an auction can run past {opts.bound} calls; raise --bound to look further", pt)
    return Verdict.HOLDS, f"every auction is over within {opts.bound} calls", None  # pragma: no cover


def _standing_increases(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding(game, solving.ctx)
    steps = min(opts.bound, max(game.players * 2, 8))
    facts, rows, dealer = _auction_steps(enc, steps)
    for t, r in enumerate(rows):
        prefix = [rows[i]["legal"] for i in range(t + 1)] + [z3.Not(rows[i]["ends"]) for i in range(t)]
        claim = z3.Implies(z3.And(r["is_bid"], r["had"]), enc.bid_key(r["bid"]) > r["before_key"])
        model = _prove(solving, facts + prefix, claim)
        if model is not None:
            calls = _decode_calls(model, rows, t + 1)
            pt = trace.replay_auction(game, calls, model.eval(dealer).as_long(),
                                      f"call {t + 1} does not beat the standing bid")
            return Verdict.VIOLATED, "a legal bid that does not raise the standing bid", pt
    return Verdict.HOLDS, f"checked for the first {steps} calls of every auction", None


def _legal_card_exists(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding(game, solving.ctx)
    for p in range(game.players):
        sit = E.trick_situation(enc, p)
        hand = sit.env[Ctx.HAND]
        claim = z3.Implies(hand != 0, sit.values["legal"] != 0)
        model = _prove(solving, sit.facts, claim)
        if model is not None:
            v = sit.decode(model)
            from spec.dsl import legal_cards, hand as hand_ref, implies as implies_

            holds = implies_(~hand_ref.is_empty, ~legal_cards.is_empty)
            pt = trace.replay_trick(game, v, p, holds, {})
            return Verdict.VIOLATED, f"a seat at position {p + 1} with cards but no legal card", pt
    return Verdict.HOLDS, "for every hand, contract and trick so far, in every position", None


def _one_winner(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding(game, solving.ctx)
    n = game.players
    sit = E.trick_situation(enc, n)
    strengths = [sit.compile(Strength(i)) for i in range(n)]
    w = sit.values["winner"]
    best = strengths[0]
    for i in range(1, n):
        best = z3.If(w == i, strengths[i], best)
    claim = z3.And(best >= 0, *[z3.Or(w == i, strengths[i] < best) for i in range(n)])
    model = _prove(solving, sit.facts, claim)
    if model is None:
        return Verdict.HOLDS, "the winning card is strictly stronger than every other card", None
    v = sit.decode(model)
    from spec.dsl import all_of, strength, trick_winner

    ws = v["winner"]
    holds = all_of(*[(trick_winner == i) | (strength(i) < strength(ws)) for i in range(n)], strength(ws) >= 0)
    pt = trace.replay_trick(game, v, n, holds, {})
    return Verdict.VIOLATED, "a trick with no single winner", pt


GENERIC: tuple[tuple[str, str, Callable[..., Any], tuple[str, ...]], ...] = (
    ("deal.partitions_deck", "Every deal gives each seat its share of the pack, each card "
     "to exactly one seat.", _deal_partitions, ()),
    ("auction.bid_order_total", "The bid order is a strict total order: no two different "
     "bids are equal.", _bid_order_total, ()),
    ("auction.standing_bid_increases", "Every legal bid beats the standing bid, so the "
     "standing bid only goes up.", _standing_increases, ()),
    ("auction.ends", "Every auction ends, with one declarer (the highest bidder) or a redeal.",
     _auction_ends, ()),
    ("play.legal_card_exists", "A seat with cards always has a legal card to play, whatever "
     "its hand, the contract and the cards already played.", _legal_card_exists, ()),
    ("play.one_winner", "Every complete trick has exactly one winner.", _one_winner, ()),
)


# -- claims and properties written in the rules language ----------------------------------

def _situations(enc: Encoding, scope: Scope) -> Iterator[tuple[E.Situation, int]]:
    g = enc.game
    if scope is Scope.PLAY:
        for p in range(g.players):
            yield E.trick_situation(enc, p), p
    elif scope is Scope.TRICK:
        yield E.trick_situation(enc, g.players), g.players
    elif scope is Scope.OUTCOME:
        yield E.outcome_situation(enc), -1
    elif scope is Scope.CALL:
        yield E.call_situation(enc, "call"), -1
    else:
        raise NotImplementedError(f"claims judged on {scope.value}")


def _replay(game: Game, scope: Scope, sit: E.Situation, model: z3.ModelRef, played: int,
            holds: Expr, free: tuple[Var, ...]) -> trace.Playthrough:
    v = sit.decode(model)
    free_vals = {var: model.eval(sit.env[var], model_completion=True).as_long() for var in free}
    if scope in (Scope.PLAY, Scope.TRICK):
        return trace.replay_trick(game, v, played, holds, free_vals)
    if scope is Scope.OUTCOME:
        from spec.dsl import score_of

        z3_scores = [model.eval(sit.compile(score_of(s)), model_completion=True).as_long()
                     for s in range(game.players)]
        v["seat"] = model.eval(sit.env[Ctx.SEAT], model_completion=True).as_long()
        v["declarer"] = model.eval(sit.env[Ctx.DECLARER], model_completion=True).as_long()
        v["dealer"] = model.eval(sit.env[Ctx.DEALER], model_completion=True).as_long()
        return trace.replay_outcome(game, v, holds, free_vals, z3_scores)
    return trace.Playthrough([f"{k} = {x}" for k, x in v.items()], v)


def _dsl_decider(scope: Scope, holds: Expr, free: tuple[Var, ...], exists: bool):  # type: ignore[no-untyped-def]
    def decide(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
        enc = Encoding(game, solving.ctx)
        if exists:
            return _decide_exists(game, solving, enc, scope, holds, free)
        for sit, played in _situations(enc, scope):
            E.bind_free(sit, free)
            model = _prove(solving, sit.facts, sit.compile(holds))
            if model is not None:
                return Verdict.VIOLATED, "", _replay(game, scope, sit, model, played, holds, free)
        return Verdict.HOLDS, "", None
    return decide


def _decide_exists(game: Game, solving: Solving, enc: Encoding, scope: Scope, holds: Expr,
                   free: tuple[Var, ...]):  # type: ignore[no-untyped-def]
    """For every value of the (bid) free variable, some situation makes ``holds`` true."""
    (var,) = free
    checked = 0
    for sit, _played in _situations(enc, scope):
        E.bind_free(sit, free)
        s = solving.solver()
        s.add(*sit.facts)
        term = sit.env[var]
        s.add(sit.compile(holds))
        for i, bid in enumerate(game.ladder):
            probe = solving.solver()
            probe.add(E.biddable(enc, enc.int(i), f"probe{i}"))
            if not Solving.check(probe):
                continue
            checked += 1
            if not Solving.check(s, term == i):
                pt = trace.Playthrough([f"no situation works for {var.name} = {bid.symbol}"],
                                       {var.name: str(bid)})
                return Verdict.VIOLATED, f"fails for {bid}", pt
    return Verdict.HOLDS, f"witnessed for each of the {checked} legal bids", None


def checks_for(game: Game) -> list[Check]:
    """Every property of a game: the generic ones, its rules' claims, its own properties."""
    out = [Check(pid, text, "generic", fn, covers=cov) for pid, text, fn, cov in GENERIC]
    for r in game.rules:
        if isinstance(r.body, K.Claim):
            out.append(Check(r.id, r.text, "rule", _dsl_decider(r.body.scope, r.body.holds, r.body.free, False),
                             covers=(r.id,)))
    for p in game.properties:
        out.append(Check(p.id, p.text, "property", _dsl_decider(p.scope, p.holds, p.free, p.exists),
                         finding=p.finding, covers=p.covers))
    return out


def run_check(game: Game, check: Check, opts: Options | None = None) -> Result:
    opts = opts or Options()
    start = time.perf_counter()
    solving = Solving(opts.timeout)
    try:
        verdict, detail, pt = check.decide(game, solving, opts)
    except SolverUnknownError as e:
        verdict, detail, pt = Verdict.UNKNOWN, e.reason, None
    return Result(check.id, check.text, verdict, time.perf_counter() - start, check.kind, detail,
                  pt, check.finding, check.covers)


def check_game(game: Game, *, only: tuple[str, ...] = (), opts: Options | None = None,
               on_result: Callable[[Result], None] | None = None) -> list[Result]:
    """Check every property of a game (or only the named ones)."""
    results = []
    for c in checks_for(game):
        if only and c.id not in only:
            continue
        r = run_check(game, c, opts)
        if on_result:
            on_result(r)
        results.append(r)
    return results
