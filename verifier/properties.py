"""Properties of games, proved with Z3 from the compiled rules.

Three kinds of property are checked for a game:

* the **generic** properties below, which every trick-taking game must have (the deal
  shares out the deck, the bid order is a strict total order, the auction only goes up
  and ends, a legal card always exists, every trick has one winner);
* the **claims** in the game's own rules (a rule whose construct is ``Claim``: a
  consequence the rulebook states, such as "the leader may lead any card");
* the game's **properties** (``PROPERTIES`` in its module), findings included, and its
  **facts**: properties with a source, the numbers and cards of the rulebook itself
  (``FACTS``), which pin the rules to what the rulebook says.

Each check returns a :class:`Result`: ``HOLDS``, ``VIOLATED`` with a counterexample that
has been replayed through the engine, ``VACUOUS`` when it holds only because its
situation or a premise can never occur, or ``UNKNOWN`` with the solver's reason.
"""
from __future__ import annotations

import enum
import itertools
import linecache
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import z3
from z3 import z3core as _C

from spec.cards import CardSet
from spec.constraints import history_test
from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game, suit_from_code
from spec.dsl._nodes import (
    NO_SUIT,
    Arith,
    Compare,
    Const,
    Ctx,
    Expr,
    Op,
    PartnerOf,
    PointsWon,
    Ref,
    Scope,
    ScoreOf,
    Strength,
    T,
    TricksWon,
    Var,
    WonTrick,
)
from spec.dsl._program import PhaseKind
from spec.engine import Phase, apply, engine_for, legal_actions, new_deal, pick, play_deal
from spec.errors import NoLegalActionError
from spec.records import to_record
from verifier import trace
from verifier._z3 import encoding as E
from verifier._z3.compile import Encoding, Z3Compiler
from verifier._z3.reading import Z3Reading
from verifier._z3.solver import DEFAULT_RLIMIT, Solving
from verifier.errors import SolverUnknownError

__all__ = ["Verdict", "Result", "Check", "checks_for", "run_check", "check_game", "legal_bids",
           "variant_checks", "DEFAULT_RLIMIT"]


class Verdict(enum.Enum):
    """A property's verdict.  VACUOUS: it holds only because its premise (or its situation)
    can never occur, so it proves nothing; a failure, like VIOLATED."""

    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    VACUOUS = "VACUOUS"
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

    def to_json(self, *, timings: bool = False) -> dict[str, Any]:
        """The result for scripts; its seconds only with ``timings`` (they differ from run
        to run, and everything else is the same on any machine)."""
        out: dict[str, Any] = {
            "id": self.id, "text": self.text, "verdict": self.verdict.value,
            "kind": self.kind, "finding": self.finding, "covers": list(self.covers),
        }
        if timings:
            out["seconds"] = round(self.seconds, 3)
        if self.detail:
            out["detail"] = self.detail
        if self.playthrough is not None:
            out["counterexample"] = {"text": self.playthrough.lines, "data": self.playthrough.data,
                                     "replayed": self.playthrough.replayed}
        return out


@dataclass
class Check:
    """A property to check: its id, its statement, and how to decide it.

    ``covers`` lists the ids of the game's rules the property is about: for a game's own
    property, the rules it names; for a claim, its rule; for a generic property, the rules
    stating the constructs its proof reads.
    """

    id: str
    text: str
    kind: str  # "generic", "rule", "property" or "fact" (a property with a source)
    decide: Callable[[Game, Solving, "Options"], tuple[Verdict, str, trace.Playthrough | None]]
    finding: bool = False
    covers: tuple[str, ...] = ()


@dataclass
class Options:
    """The budget of each solver query and the most auction calls a property unrolls.

    By default a query may spend :data:`~verifier._z3.solver.DEFAULT_RLIMIT` of Z3's
    resource units, a budget that gives the same verdict on any machine and under any
    load, with ``timeout`` seconds of wall-clock time as a backstop.
    """

    timeout: float = 600.0
    bound: int = 64
    rlimit: int | None = DEFAULT_RLIMIT


class _Violated(Exception):
    def __init__(self, detail: str, playthrough: trace.Playthrough | None) -> None:
        self.detail = detail
        self.playthrough = playthrough


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


def _cone(solving: Solving, facts: list[Any], claim: Any, steps: int | None = None) -> list[Any]:
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


def _prove(solving: Solving, facts: list[Any], claim: Any) -> z3.ModelRef | None:
    """None when the claim follows from the facts; otherwise a model of a violation.

    A conjunction is proved part by part.  The proof uses only the facts that bear on the claim (facts about variables the claim
    never reads can only make it easier to hold), and first only those that read a
    variable of the claim: often enough, and a much smaller query (when it is not, the
    answer is no proof, and the proof is looked for again from all the facts that bear).
    A violation is then looked for again with every fact, so that the counterexample is
    a complete situation.  A proof found
    before in the same context, of the same claim from the same facts (another seat's
    situation that the claim does not read, say), is not made again.
    """
    for part in _conjuncts(claim):
        kept = _cone(solving, facts, part)
        near = _cone(solving, facts, part, steps=1)
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


# -- generic properties ------------------------------------------------------------------

def _deal_partitions(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    sit, dest = E.deal_schedule(enc)
    n, size = game.players, len(game.deck)
    counts = [z3.Sum([z3.If(d == s, enc.int(1), enc.int(0)) for d in dest]) for s in range(n)]
    talon = z3.Sum([z3.If(d == -1, enc.int(1), enc.int(0)) for d in dest])
    idle = sit.values["idle"]
    # every pack position goes to a real seat or the talon, each seat gets its share (the
    # seat idle for the deal none), the talon its cards, and no position is left over
    shares = [c == z3.If(idle == s, enc.int(0), enc.int(game.tricks)) for s, c in enumerate(counts)]
    claim = z3.And(*[z3.And(d >= -1, d < n) for d in dest], *shares,
                   talon == game.program.talon_cards, enc.bool(len(dest) == size))
    model = _prove(solving, sit.facts, claim)
    if model is None:
        stages = f" in {game.stages} stages" if game.stages > 1 else ""
        talon = f" and {game.program.talon_cards} to the talon" if game.program.talon_cards else ""
        seats = (f"{game.program.dealt_seats} seats (the idle seat none)"
                 if game.program.dealt_seats < n else f"{n} seats")
        return (Verdict.HOLDS, f"{game.tricks} cards to each of {seats}{talon} from the {size}-card "
                f"pack{stages}, for every dealer (the cards' distinctness is checked when the "
                "game is built)", None)
    dealer = model.eval(sit.values["dealer"], model_completion=True).as_long()
    pt = trace.replay_deal(game, list(range(size)), dealer, None)
    return Verdict.VIOLATED, "a deal that does not share out the deck", pt


def _exchange_keeps_hands(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    rule, body = game.constructs(K.TakeTalon)[0]
    assert isinstance(body, K.TakeTalon)
    # the exchange can happen: some deal's status lets the declarer take the talon
    status = E.outcome_situation(enc)
    when = Z3Compiler(enc, E.status_env(status)).visit(body.when)
    if not _witnessed(solving, [(status.facts, when)]):
        return (Verdict.VACUOUS, f"the declarer never takes the talon ({rule.id}'s condition "
                "never holds)", None)
    # the hands and the talon a deal makes (the schedule of deal.partitions_deck, the pack
    # in its own order: a shuffle only renames the cards), then any exchange
    sit, dest = E.deal_schedule(enc)
    n = game.players
    hands, talon = [enc.owned_by(dest, s) for s in range(n)], enc.owned_by(dest, -1)
    idle = sit.values["idle"]
    declarer = enc.int_var("declarer")
    sit.facts += [declarer >= 0, declarer < n, declarer != idle]
    after, discards, facts = E.exchange(enc, hands, talon, declarer, enc.bool(True))
    union: Any = discards
    disjoint = []
    for s, h in enumerate(after):
        disjoint += [h & discards == 0, *[h & after[t] == 0 for t in range(s)]]
        union = union | h
    kept = game.tricks
    claim = z3.And(*[enc.popcount(h) == z3.If(idle == s, enc.int(0), enc.int(kept))
                     for s, h in enumerate(after)],
                   enc.popcount(discards) == game.program.talon_cards, *disjoint,
                   union == enc.bv(enc.full))
    model = _prove(solving, sit.facts + facts, claim)
    if model is None:
        return (Verdict.HOLDS, f"the declarer takes the {game.program.talon_cards} cards of the "
                f"talon and discards {body.discards}: {kept} cards in his hand and "
                f"{game.program.talon_cards} discarded, every card still in one place, for "
                "every deal and every choice of discards (the build refuses an exchange that "
                "does not add up; this proves the Z3 encoding of the exchange agrees)", None)
    deck = game.deck
    seat = model.eval(declarer, model_completion=True).as_long()
    cards = [model.eval(h, model_completion=True).as_long() for h in after]
    gone = model.eval(discards, model_completion=True).as_long()
    lines = [f"{game.table.name(s)} holds {CardSet(deck, c)}" for s, c in enumerate(cards)]
    lines.append(f"{game.table.name(seat)} discarded {CardSet(deck, gone)}")
    return Verdict.VIOLATED, "an exchange that changes the size of a hand", trace.Playthrough(
        lines, {"declarer": seat, "hands": cards, "discards": gone})


def _decide_choice_exists(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """Whoever must choose after the auction (trumps, say) has a choice the rules allow,
    for every contract the auction can end with, declarer, dealer and hands as dealt."""
    enc = Encoding.of(game, solving)
    phase = game.program.phase(PhaseKind.DECIDE)
    assert phase is not None and isinstance(phase.body, K.Decide)
    rule, body = game.rule(phase.opened_by), phase.body
    sit = E.outcome_situation(enc)  # the status the play starts from, and what it reads
    # not what holds once the choice is made: that a choice was allowed is the question
    facts = sit.before_the_choice()
    comp = Z3Compiler(enc, {**E.status_env(sit), Ctx.TRICK_NUMBER: enc.int(1)})
    applies = enc.bool(True) if phase.when is None else comp.visit(phase.when)
    allowed = [comp.visit(o.when) for o in body.options]
    if not _witnessed(solving, [(facts, applies)]):
        return Verdict.VACUOUS, f"the choice of {rule.id} is never made", None
    model = _prove(solving, facts, z3.Implies(applies, z3.Or(*allowed)))
    names = ", ".join(o.name for o in body.options)
    if model is None:
        return (Verdict.HOLDS, f"one of {names} is allowed for every contract, declarer, dealer "
                "and hands as dealt", None)
    # Z3's status leaves free what the choice does not read, and over-approximates the rest
    # (tracked values, trumps, sides), so it may be a moment no deal reaches: the verdict
    # is VIOLATED only for a real deal, played by the bots, that stops there
    c, d = (model.eval(sit.env[k], model_completion=True).as_long()
            for k in (Ctx.CONTRACT, Ctx.DECLARER))
    stuck = _stuck_deciding(game)
    if stuck is None:
        return (Verdict.UNKNOWN, f"Z3 finds a {game.ladder[c]} by {game.table.name(d)} with no "
                f"choice, but none of {_DECIDE_DEALS} deals played by the bots reaches such a "
                "moment", None)
    seed, state = stuck
    bid, seat = game.ladder[state.contract], game.table.name(state.declarer)
    hands = "; ".join(f"{game.table.name(s)} {CardSet(game.deck, h)}"
                      for s, h in enumerate(state.dealt))
    return Verdict.VIOLATED, "a contract that leaves no choice", trace.Playthrough(
        [f"deal seed {seed}: {seat} declares {bid} (dealer {game.table.name(state.dealer)}; "
         f"dealt: {hands}): none of {names} is allowed"],
        {"seed": seed, "contract": str(bid), "declarer": state.declarer,
         "dealer": state.dealer, "dealt": list(state.dealt)}, replayed=True)


_DECIDE_DEALS = 2_000


def _stuck_deciding(game: Game) -> tuple[int, Any] | None:
    """A deal played by random bots (seeds 0, 1, ...) that reaches a choice after the
    auction with none allowed: its seed and the state there."""
    for seed in range(_DECIDE_DEALS):
        state, rng = new_deal(game, seed=seed), random.Random(seed)
        while state.phase is not Phase.OVER:
            try:
                actions = legal_actions(state)
            except NoLegalActionError:
                if state.phase is Phase.DECIDE:
                    return seed, state
                break  # stuck elsewhere: another property's business
            state = apply(state, actions[pick(rng, len(actions))])
    return None


def _bid_order_total(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    a, la, sa, ka = E.bid_definition(enc, "a")
    b, lb, sb, kb = E.bid_definition(enc, "b")
    different = z3.Or(la != lb, sa != sb)
    claim = z3.Implies(different, ka != kb)
    model = _prove(solving, a.facts + b.facts, claim)
    n = len(game.ladder)
    if model is None:
        if not _witnessed(solving, [(a.facts + b.facts, different)]):
            return Verdict.VACUOUS, "it holds only because the ladder has a single bid", None
        return Verdict.HOLDS, f"{n} bids, each with its own place in the order", None
    va, vb = a.decode(model), b.decode(model)
    strains = enc.strains
    from spec.dsl._build import Bid

    bid_a = Bid(va["a_level"], strains[va["a_strain_rank"]])
    bid_b = Bid(vb["b_level"], strains[vb["b_strain_rank"]])
    pt = trace.Playthrough([f"{bid_a.symbol} and {bid_b.symbol} both have key {va['a_key']}"],
                           {"bids": [str(bid_a), str(bid_b)], "key": va["a_key"]})
    return Verdict.VIOLATED, "two different bids are equal in the bid order", pt


def _call_legal_term(enc: Encoding, env: dict[Any, Any]) -> Any:
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


def _auction_steps(enc: Encoding, steps: int, stage: int = 1, prefix: str = ""
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
        legal = _call_legal_term(enc, env)
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


def _decode_calls(model: z3.ModelRef, rows: list[dict[str, Any]], upto: int) -> list[tuple[int, bool]]:
    """The calls of an unrolled auction: (bid number or -1, made by the partner)."""
    out = []
    for r in rows[:upto]:
        isb = z3.is_true(model.eval(r["is_bid"], model_completion=True))
        proxy = z3.is_true(model.eval(r["proxy"], model_completion=True))
        out.append((model.eval(r["bid"], model_completion=True).as_long() if isb else -1, proxy))
    return out


def _start(model: z3.ModelRef, stage: int) -> tuple[int, int] | None:
    if stage == 1:
        return None
    standing = model.eval(z3.Int("standing_0", model.ctx), model_completion=True).as_long()
    high = model.eval(z3.Int("high_0", model.ctx), model_completion=True).as_long()
    return standing, high


def _stage_name(game: Game, stage: int) -> str:
    return "the auction" if game.stages == 1 else f"auction stage {stage}"


_RANKING_CAP = 32  # the largest count of calls or passes searched for an end of the auction


def _stage_situation(enc: Encoding, stage: int) -> E.Situation:
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
        if _prove(solving, sit.facts + [condition(k)], ends) is None:
            return k
    return None


def _ranking_end(game: Game, solving: Solving, stage: int) -> tuple[int, str] | None:
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
    sit = _stage_situation(enc, stage)
    env = sit.env
    ends = sit.compile(D.auction_over(game, stage))
    calls = _least(solving, sit, ends, lambda k: env[Ctx.CALLS_MADE] == k)
    if calls is not None:
        return calls, f"{_stage_name(game, stage)} is over after at most {calls} calls"
    pass_env = {**env, Ctx.CALL_IS_BID: enc.bool(False), Ctx.CALL_BID: enc.int(-1)}
    if _prove(solving, sit.facts, Z3Compiler(enc, pass_env).visit(D.call_legal(game))) is not None:
        return None
    if not _raises_everywhere(game, solving, stage):
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
    return bound, (f"{_stage_name(game, stage)} is over after at most {bound} calls (a pass is "
                   f"always legal; at most {bids} bids, each beating the last; {how})")


def _auction_ends(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """Bound, for each auction stage, the number of calls after which it is over: by a
    ranking argument on single calls, or else by unrolling the auction call by call.  An
    auction that cannot go on (the seat to call has no legal call) never ends: within the
    bound, none may."""
    found: list[str] = []
    for stage in range(1, game.stages + 1):
        ranked = _ranking_end(game, solving, stage)
        if ranked is not None:
            stuck = (None if _always_a_call(game, solving, stage)
                     else _cannot_go_on(game, solving, stage, ranked[0]))
            if stuck is not None:
                return Verdict.VIOLATED, "an auction that cannot go on: no legal call", stuck
            found.append(ranked[1])
            continue
        enc = Encoding.of(game, solving)
        facts, rows, dealer = _auction_steps(enc, opts.bound, stage)
        calls = _calls_to_end(solving, facts, rows)
        if calls is not None:
            stuck = (None if _always_a_call(game, solving, stage)
                     else _cannot_go_on(game, solving, stage, calls))
            if stuck is not None:
                return Verdict.VIOLATED, "an auction that cannot go on: no legal call", stuck
            t = calls - 1
            # and when it is over it has a declarer or is redealt: the last bid stands
            ok = _prove(solving, facts + [rows[i]["legal"] for i in range(t + 1)],
                        z3.Implies(rows[t]["ends"], z3.Or(z3.Not(rows[t]["has_after"]),
                                                          z3.And(rows[t]["high_after"] >= 0,
                                                                 rows[t]["high_after"] < game.players))))
            if ok is not None:
                decoded = _decode_calls(ok, rows, t + 1)
                pt = trace.replay_auction(game, decoded, ok.eval(dealer).as_long(), "no declarer",
                                          stage=stage, start=_start(ok, stage))
                return Verdict.VIOLATED, "an auction ends with a bid but no declarer", pt
            found.append(f"{_stage_name(game, stage)} is over after at most {calls} calls")
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
            decoded = _decode_calls(model, rows, len(rows))
            pt = trace.replay_auction(game, decoded, model.eval(dealer).as_long(),
                                      f"still not over after {len(rows)} calls", stage=stage,
                                      start=_start(model, stage))
            return (Verdict.UNKNOWN,
                    f"{_stage_name(game, stage)} can run past {opts.bound} calls; raise --bound "
                    "to look further", pt)
        found.append(f"{_stage_name(game, stage)} is over within {opts.bound} calls")  # pragma: no cover
    return Verdict.HOLDS, ("; ".join(found) + f", with {_who_declares(game)} declaring or a "
                           "redeal"), None


def _calls_to_end(solving: Solving, facts: list[Any], rows: list[dict[str, Any]]) -> int | None:
    """The fewest calls after which every legal sequence of calls of an unrolled auction
    stage (``rows``, see :func:`_auction_steps`) is over; None if one is still going after
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
    ranked = _ranking_end(game, solving, stage)
    if ranked is not None:
        return ranked
    facts, rows, _dealer = _auction_steps(Encoding.of(game, solving), bound, stage)
    calls = _calls_to_end(solving, facts, rows)
    return None if calls is None else (calls, f"unrolled: over after at most {calls} calls")


def _raises_everywhere(game: Game, solving: Solving, stage: int, joins: bool = False) -> bool:
    """Every legal bid beats the standing bid at any moment of the stage (single calls);
    with ``joins``, or repeats it where the rules let other seats join or accept it."""
    enc = Encoding.of(game, solving)
    sit = _stage_situation(enc, stage)
    env = sit.env
    beats = enc.bid_key(env[Ctx.CALL_BID]) > enc.bid_key(env[Ctx.STANDING])
    if joins:
        beats = z3.Or(beats, sit.compile(D.call_joins(game)), sit.compile(D.call_accepts(game)))
    if joins and game.constructs(K.HoldBid):
        beats = z3.Or(beats, _holds(enc, env))
    raises = z3.Implies(z3.And(sit.compile(D.call_legal(game)), env[Ctx.CALL_IS_BID],
                               env[Ctx.HAS_STANDING]), beats)
    return _prove(solving, sit.facts, raises) is None


def _holds(enc: Encoding, env: dict[Any, Any]) -> Any:
    """The call of ``env`` repeats the standing bid where a ``HoldBid`` rule lets the seat
    hold it (a hold: the same bid, taken over)."""
    rules = enc.game.constructs(K.HoldBid)
    when = z3.Or(*[Z3Compiler(enc, env).visit(b.when) for _r, b in rules])  # type: ignore[attr-defined]
    return z3.And(env[Ctx.CALL_BID] == env[Ctx.STANDING], when)


def _bid_over_a_bid(game: Game, solving: Solving) -> bool:
    """Some stage of some auction has a legal bid while a bid stands: the premise of
    "every legal bid beats the standing bid" can occur."""
    enc = Encoding.of(game, solving)

    def cases() -> Iterator[tuple[list[Any], Any]]:
        for stage in range(1, game.stages + 1):
            sit = _stage_situation(enc, stage)
            env = sit.env
            yield sit.facts, z3.And(sit.compile(D.call_legal(game)), env[Ctx.CALL_IS_BID],
                                    env[Ctx.HAS_STANDING])
    return _witnessed(solving, cases())


def _standing_increases(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    if not _bid_over_a_bid(game, solving):
        return (Verdict.VACUOUS, "it holds only because no legal bid is ever made over "
                "another bid", None)
    joins = (bool(game.program.joinable) or game.program.partner_by_call
             or bool(game.constructs(K.HoldBid)))
    if all(_raises_everywhere(game, solving, k, joins) for k in range(1, game.stages + 1)):
        return Verdict.HOLDS, "for every call at any moment of every auction", None

    # otherwise check every call of real auctions, unrolled from the start to their end
    def claim(enc: Encoding, r: dict[str, Any]) -> Any:
        return z3.Implies(z3.And(r["is_bid"], r["had"]),
                          z3.Or(enc.bid_key(r["bid"]) > r["before_key"], r["joins"],
                                r["accepts"],
                                _holds(enc, r["env"]) if game.constructs(K.HoldBid)
                                else enc.bool(False)))
    return _every_call(game, solving, opts, claim, "does not beat the standing bid",
                       "a legal bid that does not raise the standing bid")


def _one_accepter(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
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


def _every_call(game: Game, solving: Solving, opts: Options,
                claim: Callable[[Encoding, dict[str, Any]], Any], fails: str, violated: str
                ) -> tuple[Verdict, str, trace.Playthrough | None]:
    """``claim`` of each legal call of every auction stage, unrolled from its start for as
    many calls as the stage is proved to take (:func:`auction_bound`): HOLDS only when
    that covers every call; when no bound within ``--bound`` is proved, the calls
    unrolled are checked (a violation is still one) and the verdict is UNKNOWN."""
    reached = []
    for stage in range(1, game.stages + 1):
        proved = auction_bound(game, solving, stage, opts.bound)
        steps = opts.bound if proved is None else min(proved[0], opts.bound)
        enc = Encoding.of(game, solving)
        facts, rows, dealer = _auction_steps(enc, steps, stage)
        for t, r in enumerate(rows):
            prefix = [rows[i]["legal"] for i in range(t + 1)] + [z3.Not(rows[i]["ends"]) for i in range(t)]
            model = _prove(solving, facts + prefix, claim(enc, r))
            if model is not None:
                calls = _decode_calls(model, rows, t + 1)
                pt = trace.replay_auction(game, calls, model.eval(dealer).as_long(),
                                          f"call {t + 1} {fails}", stage=stage,
                                          start=_start(model, stage))
                return Verdict.VIOLATED, violated, pt
        if proved is None or proved[0] > opts.bound:
            return Verdict.UNKNOWN, _past_the_bound(game, stage, opts.bound, proved), None
        reached.append(proved[0])
    return Verdict.HOLDS, _every_call_text(game, reached), None


def _past_the_bound(game: Game, stage: int, bound: int, proved: tuple[int, str] | None) -> str:
    """Why a check of the calls unrolled up to ``--bound`` proves nothing of the rest."""
    longest = ("no bound on its calls is proved" if proved is None
               else f"it may take {proved[0]} calls")
    return (f"checked the first {bound} calls of {_stage_name(game, stage)}, but {longest}; "
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
        return _call_legal_term(enc, {**env, Ctx.PROXY: enc.bool(proxy),
                                      Ctx.CALL_IS_BID: enc.bool(is_bid),
                                      Ctx.CALL_BID: enc.int(bid)})

    return z3.Or(*[legal(proxy, is_bid, b)
                   for proxy in ((False, True) if proxies else (False,))
                   for is_bid, b in [(False, -1)] + [(True, k) for k in range(len(game.ladder))]])


def _always_a_call(game: Game, solving: Solving, stage: int) -> bool:
    """At any moment of the stage (the over-approximation of :func:`_stage_situation`),
    the seat to call has a legal call: so along every auction, by induction on its calls."""
    enc = Encoding.of(game, solving)
    sit = _stage_situation(enc, stage)
    return _prove(solving, sit.facts, _call_options(enc, sit.env)) is None


def _cannot_go_on(game: Game, solving: Solving, stage: int, calls: int
                  ) -> trace.Playthrough | None:
    """An auction of the stage that is not over after some legal calls (fewer than
    ``calls``) while the seat to call has no legal call, replayed; None when there is none
    within ``calls`` calls."""
    enc = Encoding.of(game, solving)
    facts, rows, dealer = _auction_steps(enc, calls, stage)
    for t, r in enumerate(rows):
        prefix = [rows[i]["legal"] for i in range(t)] + [z3.Not(rows[i]["ends"]) for i in range(t)]
        model = _prove(solving, facts + prefix, _call_options(enc, r["env"]))
        if model is not None:
            return trace.replay_auction(game, _decode_calls(model, rows, t),
                                        model.eval(dealer).as_long(),
                                        f"call {t + 1} has no legal choice", stage=stage,
                                        start=_start(model, stage), stuck=True)
    return None


def _legal_call_exists(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """At every moment of every auction not yet over, the seat to call has a legal call: a
    pass, a bid of the ladder, or one named by its partner where the game allows that.
    Proved for any moment of the stage at once where that goes through; else along every
    auction unrolled from its start for as many calls as the stage is proved to take."""
    reached = []
    for stage in range(1, game.stages + 1):
        if _always_a_call(game, solving, stage):
            reached.append(None)
            continue
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


def _legal_card_exists(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    for p in range(game.program.dealt_seats):  # a position past the seats dealt in never is
        sit = E.trick_situation(enc, p)
        held = sit.env[Ctx.HAND] | sit.env[Ctx.ASIDE]
        claim = z3.Implies(held != 0, sit.values["legal"] != 0)
        model = _prove(solving, sit.facts, claim)
        occurs = _occurs(game, Scope.PLAY, solving.timeout, solving.rlimit)[p:p + 1]
        if model is None and not _witnessed(solving, [(sit.facts, held != 0)], occurs):
            return (Verdict.VACUOUS, f"it holds only because no seat at position {p + 1} "
                    "ever has a card", None)
        if model is not None:
            v = sit.decode(model)
            from spec.dsl import aside as aside_ref
            from spec.dsl import hand as hand_ref
            from spec.dsl import implies as implies_
            from spec.dsl import legal_cards

            holds = implies_(~(hand_ref | aside_ref).is_empty, ~legal_cards.is_empty)
            pt = trace.replay_trick(game, v, p, holds, {})
            return Verdict.VIOLATED, f"a seat at position {p + 1} with cards but no legal card", pt
    return Verdict.HOLDS, "for every hand, contract and trick so far, in every position", None


def _one_winner(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    n = game.players
    sit = E.trick_situation(enc, n)
    strengths = [sit.compile(Strength(i)) for i in range(n)]
    w = sit.values["winner"]
    size = sit.env[Ctx.TRICK_SIZE]
    best = strengths[0]
    for i in range(1, n):
        best = z3.If(w == i, strengths[i], best)
    claim = z3.And(best >= 0, w < size,
                   *[z3.Or(w == i, size <= i, strengths[i] < best) for i in range(n)])
    model = _prove(solving, sit.facts, claim)
    if model is None:
        occurs = _occurs(game, Scope.TRICK, solving.timeout, solving.rlimit)
        if not _witnessed(solving, [(sit.facts, size == game.program.dealt_seats)], occurs):
            return Verdict.VACUOUS, "it holds only because no trick is ever complete", None
        return Verdict.HOLDS, "the winning card is strictly stronger than every other card", None
    v = sit.decode(model)
    from spec.dsl import all_of, strength, trick_winner

    ws = v["winner"]
    from spec.dsl import trick_size

    holds = all_of(*[(trick_winner == i) | (trick_size <= i) | (strength(i) < strength(ws))
                     for i in range(n)], strength(ws) >= 0, trick_winner < trick_size)
    pt = trace.replay_trick(game, v, n, holds, {})
    return Verdict.VIOLATED, "a trick with no single winner", pt


def _cards_held(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    for p in range(game.program.dealt_seats):
        sit = E.trick_situation(enc, p)
        held = sit.env[Ctx.HAND] | sit.env[Ctx.ASIDE]
        model = _prove(solving, sit.facts, sit.values["legal"] & ~held == 0)
        occurs = _occurs(game, Scope.PLAY, solving.timeout, solving.rlimit)[p:p + 1]
        if model is None and not _witnessed(solving, [(sit.facts, sit.values["legal"] != 0)],
                                            occurs):
            return (Verdict.VACUOUS, f"it holds only because no seat at position {p + 1} "
                    "ever has a legal card", None)
        if model is not None:
            from spec.dsl import aside as aside_ref
            from spec.dsl import hand as hand_ref
            from spec.dsl import legal_cards

            holds = (legal_cards - (hand_ref | aside_ref)).is_empty
            pt = trace.replay_trick(game, sit.decode(model), p, holds, {})
            return Verdict.VIOLATED, "a legal card that the seat does not hold", pt
    return Verdict.HOLDS, ("a card is played from its holder's hand or from the cards he laid "
                           "aside, so every card is always in exactly one place"), None


def _game_one_winner(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """The trick that first takes a side to the game target is one side's alone.

    Each side's score on the game line is worked out from the game's own scoring rules
    after each prefix of the tricks (the tricks after it not yet won), from any scores
    below the target before the deal: the line must never go down, and no trick may take
    two sides to the target at once.
    """
    body = game.constructs(K.GameTarget)[0][1]
    assert isinstance(body, K.GameTarget)
    enc = Encoding.of(game, solving)
    sit = E.outcome_situation(enc)
    sides = game.table.sides
    won = sit.env[WonTrick]
    before = [enc.int_var(f"before_{i}") for i in range(len(sides))]
    sit.facts += [z3.And(b >= 0, b < body.target) for b in before]

    def line_after(k: int, side: tuple[int, ...]) -> Any:
        env = {key: v for key, v in sit.env.items() if key not in (PointsWon, TricksWon)}
        env[WonTrick] = lambda seat, number: z3.And(won(seat, number), number <= k)
        env[Ctx.SEAT] = enc.int(side[0])
        return Z3Compiler(enc, env).visit(D.score(game, Ref(Ctx.SEAT), body.line))

    previous = [line_after(0, side) for side in sides]
    claims = []
    for k in range(1, game.tricks + 1):
        now = [line_after(k, side) for side in sides]
        crossed = [z3.And(b + p < body.target, b + x >= body.target)
                   for b, p, x in zip(before, previous, now)]
        claims += [x >= p for p, x in zip(previous, now)]
        claims.append(z3.Sum([z3.If(c, enc.int(1), enc.int(0)) for c in crossed]) <= 1)
        previous = now
    model = _prove(solving, sit.facts, z3.And(*claims))
    if model is None:
        return (Verdict.HOLDS, f"from any scores below {body.target}, the {body.line} line never "
                "goes down trick by trick and no trick takes two sides to the target", None)
    v = sit.decode(model)
    pt = trace.Playthrough([f"{k} = {x}" for k, x in v.items()], v)
    return Verdict.VIOLATED, "a trick that lowers a side's game line or takes two sides to the target", pt


def _rubber_length(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """A rubber ends after at least ``games`` and at most ``sides x (games-1) + 1`` games."""
    body = game.constructs(K.Rubber)[0][1]
    assert isinstance(body, K.Rubber)
    enc = Encoding.of(game, solving)
    sides = len(game.table.sides)
    most = sides * (body.games - 1) + 1
    winners = [enc.int_var(f"game_{k}") for k in range(most)]
    facts = [z3.And(w >= 0, w < sides) for w in winners]

    def wins(side: int, upto: int) -> Any:
        return z3.Sum([z3.If(w == side, enc.int(1), enc.int(0)) for w in winners[:upto]] or [enc.int(0)])

    over_at = [z3.Or(*[wins(s, k) >= body.games for s in range(sides)]) for k in range(most + 1)]
    claim = z3.And(over_at[most], *[z3.Not(over_at[k]) for k in range(body.games)])
    model = _prove(solving, facts, claim)
    if model is None:
        return (Verdict.HOLDS, f"{sides} sides, {body.games} games to win: every rubber lasts "
                f"{body.games} to {most} games", None)
    seq = [model.eval(w, model_completion=True).as_long() for w in winners]
    return Verdict.VIOLATED, "a rubber of the wrong length", trace.Playthrough(
        [f"game winners {seq}"], {"winners": seq})


# Each generic property covers the rules that state the constructs its proof reads: a
# game's rules of those kinds are the rules the property is about.
GENERIC: tuple[tuple[str, str, Callable[..., Any], tuple[type[K.Construct], ...]], ...] = (
    ("deal.partitions_deck", "Every deal gives each seat its share of the pack, each card "
     "to exactly one seat (the build refuses packets that do not add up; this proves the "
     "Z3 encoding of the deal agrees).", _deal_partitions, (K.Seats, K.DeckIs, K.DealPackets)),
    ("auction.bid_order_total", "The bid order is a strict total order: no two different "
     "bids are equal (the build refuses a ladder with equal bids; this proves the Z3 "
     "encoding of the order agrees).", _bid_order_total, (K.Ladder, K.BidOrder)),
    ("auction.standing_bid_increases", "Every legal bid beats the standing bid, so the "
     "standing bid only goes up.", _standing_increases, (K.BidOrder, K.CallRule, K.ProxyCall,
                                                K.SameBidJoins, K.PartnerAccepts, K.HoldBid)),
    ("auction.ends", "Every auction ends, with one declarer (the highest bidder) or a redeal.",
     _auction_ends, (K.AuctionTurns, K.HighestBidderDeclares, K.RedealIfNoBid, K.SameBidJoins)),
    ("auction.legal_call_exists", "A seat to call in an auction not yet over always has a "
     "legal call: a pass, a bid, or one its partner may name for it.", _legal_call_exists,
     (K.AuctionTurns, K.CallRule, K.ProxyCall)),
    ("play.legal_card_exists", "A seat with cards always has a legal card to play, whatever "
     "its hand, the contract and the cards already played.", _legal_card_exists,
     (K.PlayRule, K.AlwaysPlayable, K.PlayableAside)),
    ("play.one_winner", "Every complete trick has exactly one winner.", _one_winner,
     (K.RankOrder, K.WinningTier, K.CountsAsSuit, K.NameSuit)),
    ("play.cards_held", "Every legal card is one the seat holds, in hand or laid aside.",
     _cards_held, (K.PlayRule, K.AlwaysPlayable, K.PlayableAside, K.SetAside)),
)


# -- claims and properties written in the rules language ----------------------------------

def _situations(enc: Encoding, scope: Scope) -> Iterator[tuple[E.Situation, int]]:
    g = enc.game
    if scope is Scope.PLAY:
        for p in range(g.program.dealt_seats):  # a position past the seats dealt in never is
            yield E.trick_situation(enc, p), p
    elif scope is Scope.TRICK:
        yield E.trick_situation(enc, g.players), g.players
    elif scope is Scope.OUTCOME:
        # one query per seat scored: the same claim, and much easier for Z3 when the seat
        # (and so its partner and opponents) is a number
        for seat in range(g.players):
            sit = E.outcome_situation(enc)
            sit.facts.append(sit.env[Ctx.SEAT] == seat)
            yield sit, -1
    elif scope is Scope.CALL:
        yield E.call_situation(enc, "call"), -1
    elif scope is Scope.DEAL:
        yield E.deal_schedule(enc)[0], -1
    elif scope is Scope.MATCH:
        yield E.match_situation(enc), -1
    else:
        raise NotImplementedError(f"claims judged on {scope.value}")


def _replay(game: Game, scope: Scope, sit: E.Situation, model: z3.ModelRef, played: int,
            holds: Expr, free: tuple[Var, ...], *, witness: bool = False) -> trace.Playthrough:
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
        return trace.replay_outcome(game, v, holds, free_vals, z3_scores, witness=witness)
    if scope is Scope.DEAL:  # the pack in its own order, dealt by the engine
        dealer = model.eval(sit.values["dealer"], model_completion=True).as_long()
        pt = trace.replay_deal(game, list(range(len(game.deck))), dealer, None)
        return trace.Playthrough(pt.lines, pt.data, replayed=not engine_for(game).judge(
            Scope.DEAL, holds)(dealer))
    if scope is Scope.MATCH:  # the same match state, judged by the engine
        args = (v["deals_played"], v["lead_total"], v["trail_total"], v["games_won"])
        return trace.Playthrough([f"{k} = {x}" for k, x in v.items()], v,
                                 replayed=not engine_for(game).judge(Scope.MATCH, holds)(*args))
    return trace.Playthrough([f"{k} = {x}" for k, x in v.items()], v)


def premises(holds: Expr) -> list[tuple[Expr, Expr]]:
    """The conditions a claim assumes, each of which must be able to occur for its proof to
    say anything: the condition of an implication (with those of its conclusion, under
    it), of each part of a conjunction, and both ways of a condition choosing between two
    claims.  Each comes as (the condition as written, the condition with those it sits
    under).  A disjunction with negated parts, "the case does not arise, or ...", is an
    implication from the case: ``~a | ~b | c`` assumes ``a and b``."""
    from spec.dsl._nodes import BoolOp, IfThenElse, Implies, Not, Op

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
    from spec.dsl._nodes import BoolOp, Op

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


def _satisfiable(solving: Solving, terms: list[Any]) -> bool:
    """Some values satisfy every term (asked once in this context)."""
    key = _query_key("satisfiable", terms)
    known = solving.memo.get(key)
    if known is None:
        s = solving.one_shot()
        s.add(*terms)
        known = solving.memo[key] = (solving.sat(s), terms)  # the terms kept alive
    return bool(known[0])


# Whether each situation a scope's properties read can occur, found once per game, scope
# and budget, each in a Z3 context of its own (so the same whoever asks first); a
# situation is known to occur only on Z3's "sat".  (game, occurs) by (id, scope, budget).
_OCCURS: dict[tuple[int, Scope, float, int | None], tuple[Game, tuple[bool, ...]]] = {}


def _occurs(game: Game, scope: Scope, timeout: float, rlimit: int | None) -> tuple[bool, ...]:
    """For each situation of ``scope`` (as :func:`_situations` yields them, no free
    variables bound): whether it can occur, proved by a model; False where unknown."""
    key = (id(game), scope, timeout, rlimit)
    known = _OCCURS.get(key)
    if known is None or known[0] is not game:
        solving = Solving(timeout, rlimit)
        out = []
        for sit, _played in _situations(Encoding.of(game, solving), scope):
            s = solving.one_shot()
            s.add(*sit.facts)
            out.append(s.check() == z3.sat)
        known = _OCCURS[key] = (game, tuple(out))
    return known[1]


def _witnessed(solving: Solving, facts_and_terms: Iterable[tuple[list[Any], Any]],
               occurs: tuple[bool, ...] = ()) -> bool:
    """Some situation satisfies its facts and the term: the premise can occur.

    The facts that do not bear on the term (:func:`_cone`) read none of the variables of
    those that do, nor of the term: the facts and the term are satisfiable together exactly
    when the facts are (a situation that can occur, asked once for all premises) and the
    facts that bear are with the term (a much smaller query); the two models, on
    different variables, make one.  ``occurs`` says, for the first situations, that their
    facts are satisfiable (:func:`_occurs`), which is then not asked again.
    """
    for i, (facts, term) in enumerate(facts_and_terms):
        kept = _cone(solving, facts, term)
        if len(kept) == len(facts):
            if _satisfiable(solving, [*facts, term]):
                return True
        elif ((i < len(occurs) and occurs[i]) or _satisfiable(solving, facts)) and \
                _satisfiable(solving, [*kept, term]):
            return True
    return False


def _vacuous_premise(solving: Solving, enc: Encoding, scope: Scope, holds: Expr,
                     free: tuple[Var, ...]) -> str:
    """"" when the claim's situations and each of its premises can occur; otherwise which
    cannot."""
    def cases(premise: Expr | None) -> Iterator[tuple[list[Any], Any]]:
        for sit, _played in _situations(enc, scope):
            E.bind_free(sit, free)
            yield sit.facts, (z3.BoolVal(True, enc.ctx) if premise is None
                              else sit.compile(premise))

    occurs = () if free else _occurs(enc.game, scope, solving.timeout, solving.rlimit)
    if not _witnessed(solving, cases(None), occurs):
        return f"no situation of its scope ({scope.value}) can occur"
    for written, premise in premises(holds):
        if not _witnessed(solving, cases(premise), occurs):
            return f"{_where(written)} never occurs"
    return ""


def _dsl_decider(scope: Scope, holds: Expr, free: tuple[Var, ...], exists: bool):  # type: ignore[no-untyped-def]
    def decide(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
        enc = Encoding.of(game, solving)
        if exists:
            return _decide_exists(game, solving, enc, scope, holds, free)
        for sit, played in _situations(enc, scope):
            E.bind_free(sit, free)
            model = _prove(solving, sit.facts, sit.compile(holds))
            if model is not None:
                return Verdict.VIOLATED, "", _replay(game, scope, sit, model, played, holds, free)
        vacuous = _vacuous_premise(solving, enc, scope, holds, free)
        if vacuous:
            return Verdict.VACUOUS, f"it holds only because {vacuous}", None
        return Verdict.HOLDS, "", None
    return decide


def _history_decider(holds: Expr):  # type: ignore[no-untyped-def]
    """A property of whole deals played out (scope HISTORY): decided by unrolling every deal,
    auction and play (see :func:`verifier.scenario.decide_history`)."""
    def decide(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
        from verifier.scenario import (
            decide_history,  # the unroller builds on this module
        )

        bounds = []
        for stage in range(1, game.stages + 1):
            ranked = _ranking_end(game, solving, stage)
            if ranked is None:
                return (Verdict.UNKNOWN, f"no bound on the calls of {_stage_name(game, stage)} "
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
        for sit, played in _situations(enc, scope):
            E.bind_free(sit, free)
            s = solving.solver()
            s.add(*sit.facts, sit.compile(holds))
            if solving.sat(s):
                model = s.model()
                if scope is Scope.OUTCOME:
                    pt = _replay(game, scope, sit, model, played, holds, free, witness=True)
                else:
                    v = sit.decode(model)
                    pt = trace.Playthrough([f"{k} = {x}" for k, x in v.items()], v)
                return Verdict.HOLDS, "shown by the example below", pt
        return Verdict.VIOLATED, "no situation makes it true", None
    checked = 0
    for sit, _played in _situations(enc, scope):
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
        return _legal_bids(solving, enc)  # the same bids for every situation: found once
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


def _setters(game: Game, name: str) -> list[tuple[str, Scope, Expr]]:
    """Each rule that changes a tracked value: (rule id, scope, "true stays true" in it)."""
    from spec.dsl._nodes import BoolOp, IfThenElse, Implies, Op, Tracked

    old = Tracked(name, T.BOOL)
    out: list[tuple[str, Scope, Expr]] = []
    for r in game.rules:
        b = r.body
        if isinstance(b, K.Update):
            for n_, value in b.sets:
                if n_ == name:
                    out.append((r.id, Scope.TRICK, Implies(old, IfThenElse(b.when, value, old))))
        elif isinstance(b, K.Announce):
            for n_, value in b.sets:
                if n_ == name:
                    out.append((r.id, b.scope, Implies(BoolOp(Op.AND, (old, b.when)), value)))
        elif isinstance(b, K.Decide):
            for o in b.options:
                for n_, value in o.sets:
                    if n_ == name:  # STATUS values are all known before the first lead
                        out.append((r.id, Scope.PLAY, Implies(BoolOp(Op.AND, (old, o.when)), value)))
    return out


def _monotone_decider(name: str):  # type: ignore[no-untyped-def]
    def decide(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
        setters = _setters(game, name)
        for rule_id, scope, holds in setters:
            verdict, _detail, pt = _dsl_decider(scope, holds, (), False)(game, solving, opts)
            if verdict is Verdict.VIOLATED:
                return verdict, f"{rule_id} turns {name} back to false", pt
            # VACUOUS is a proof here: the rule can never act while the value is true
        return Verdict.HOLDS, (f"each of the {len(setters)} rules that change {name} keeps it true "
                               "once it is true"), None
    return decide


READING_SEEDS = 1000  # deals played by the random bots to find where two readings differ


def _reading_differs(variant_id: str):  # type: ignore[no-untyped-def]
    """A deal the random bots play by the rules in force (seeds from 0) that the variant,
    another reading of the same text, plays or scores otherwise: its actions, applied one
    by one to the same deal under the variant, meet one the variant refuses, or end with
    other scores.  UNKNOWN when no deal of the first :data:`READING_SEEDS` differs (the
    search proves nothing)."""
    def decide(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
        from spec.errors import IllegalActionError

        other = game.with_variants(variant_id)
        t = game.table
        for seed in range(READING_SEEDS):
            state = play_deal(game, seed=seed)
            first = state.thrown_in[0].dealer if state.thrown_in else state.dealer
            actions = [x for d in state.thrown_in for x in d.log] + list(state.log)
            there = new_deal(other, seed=seed, dealer=first)
            why = ""
            for k, (seat, action) in enumerate(actions, start=1):
                try:
                    there = apply(there, action)
                except IllegalActionError as e:
                    why = f"action {k}, {t.name(seat)} {action}, is refused: {e}"
                    break
            else:
                if there.phase is not Phase.OVER:
                    why = f"the deal is not over after its {len(actions)} actions"
                elif there.scores != state.scores:
                    why = (f"the scores are {_scores(game, there.scores)} against "
                           f"{_scores(game, state.scores)}")
            if why:
                flags = "".join(f" --variant {v}" for v in game.active_variants)
                lines = [f"seed {seed}, dealer {t.name(first)}: the deal the rules in force play "
                         f"(trickspec play {game.key} --seed {seed}{flags});",
                         f"played the same way with {variant_id}, {why}"]
                return (Verdict.HOLDS, f"the readings part in the deal of seed {seed}",
                        trace.Playthrough(lines, to_record(state), replayed=True))
        return (Verdict.UNKNOWN, f"no deal of the first {READING_SEEDS} played by the random "
                f"bots is played otherwise with {variant_id}", None)
    return decide


def _scores(game: Game, scores: tuple[int, ...] | None) -> str:
    return ", ".join(f"{game.table.name(k)} {x:+d}" for k, x in enumerate(scores or ()))


def _generic_text(game: Game, pid: str, text: str) -> str:
    """A generic property as it reads for ``game``: where several seats may declare one
    bid, a bid may repeat the standing bid, and the auction ends with its declarers."""
    if (game.program.partner_by_call and not game.program.joinable
            and pid == "auction.standing_bid_increases"):
        return ("Every legal bid beats the standing bid or accepts it (repeats a bid the "
                "rules let one other seat accept), so the standing bid never goes down.")
    if game.program.joinable and pid == "auction.standing_bid_increases":
        return ("Every legal bid beats the standing bid or joins it (repeats a bid the "
                "rules let other seats join), so the standing bid never goes down.")
    if pid == "auction.ends" and _who_declares(game) != "the highest bidder":
        return f"Every auction ends, with {_who_declares(game)} declaring or a redeal."
    return text


def _who_declares(game: Game) -> str:
    """Who declares as an auction ends, in words."""
    if game.program.joinable and game.program.contest:
        return "one of the highest bidder and the seats that joined his bid, as they choose,"
    if game.program.joinable:
        return "the highest bidder and the seats that joined his bid"
    if any(getattr(b, "namer_declares", False) for _r, b in game.rules_with(K.ProxyCall)):
        return "the highest bidder, or the partner who named his bid,"
    return "the highest bidder"


def _pot_after(game: Game) -> Any:
    """The chips in the pot after the deal's payoff (scope: OUTCOME): what it held, less
    what the players won together."""
    left: Any = Ref(Ctx.POT)
    for k in range(game.players):
        left = Arith(Op.SUB, left, ScoreOf(Const(k, T.SEAT)))
    return left


def checks_for(game: Game) -> list[Check]:
    """Every property of a game: the generic ones, its rules' claims, its own properties.

    Raises:
        UnsupportedNodeError: a rule states a construct the Z3 encoding does not model.
    """
    reading = Z3Reading()
    for rule in game.rules:
        reading.visit(rule.body)
    out = [Check(pid, _generic_text(game, pid, text), "generic", fn,
                 covers=tuple(r.id for r, _b in game.rules_with(*kinds)))
           for pid, text, fn, kinds in GENERIC]
    accepts = game.constructs(K.PartnerAccepts)
    if accepts:
        out.append(Check("auction.one_accepter", "A bid is accepted at most once, never by "
                         "its own bidder: the partner a call forms is one other seat.", "generic",
                         _one_accepter, covers=tuple(r.id for r, _b in accepts)))
    for rule, _b in game.constructs(K.Decide):
        out.append(Check("decide.choice_exists", "Whoever must choose after the auction has a "
                         "choice the rules allow, whatever the contract, the declarer, the "
                         "dealer and the hands.", "generic", _decide_choice_exists,
                         covers=(rule.id,)))
    if game.constructs(K.TakeTalon):
        out.append(Check("deal.exchange_keeps_hands", "After the exchange the declarer holds "
                         "as many cards as before and has discarded as many as he took: every "
                         "card is still in exactly one place.", "generic", _exchange_keeps_hands,
                         covers=tuple(r.id for r, _b in game.rules_with(K.Talon, K.TakeTalon))))
    for rule, body in game.constructs(K.Pot):
        assert isinstance(body, K.Pot)
        left = _pot_after(game)
        unit = body.granularity
        covers = (rule.id, *(r.id for r, _b in game.rules_with(K.ScoreRule)))
        out.append(Check("pot.covers_the_deal", "A deal never takes more chips from the pot "
                         "than it holds: whatever the players win together, the pot can pay.",
                         "generic", _dsl_decider(Scope.OUTCOME, Compare(Op.GE, left, Const(0, T.INT)),
                                                 (), False), covers=covers))
        out.append(Check("pot.whole_units", f"The pot changes only by whole multiples of {unit} "
                         f"chips, so, filled by antes that add up to a multiple of {unit}, it "
                         f"never holds 1 to {unit - 1} chips.", "generic",
                         _dsl_decider(Scope.OUTCOME, Compare(
                             Op.EQ, Arith(Op.MUL, Arith(Op.DIV, left, Const(unit, T.INT)),
                                          Const(unit, T.INT)), left), (), False),
                         covers=covers))
    for v in game.variants:
        if v.reading and not v.not_decidable and v.id not in game.active_variants:
            out.append(Check(f"variant.{v.id}", f"The reading of variant {v.id} plays some "
                             "deal otherwise than the rules in force: a deal where the two "
                             "readings differ.", "generic", _reading_differs(v.id),
                             covers=tuple(old.id for old, _new in v.replaces)))
    for rule, _b in game.constructs(K.GameTarget):
        out.append(Check("game.one_winner", "Every game has exactly one winner: the side whose "
                         "trick first reaches the target.", "generic", _game_one_winner,
                         covers=(rule.id,)))
    for rule, _b in game.constructs(K.Rubber):
        out.append(Check("rubber.length", "A rubber ends as soon as a side has won the games "
                         "it needs, and it always does.", "generic", _rubber_length,
                         covers=(rule.id,)))
    for r in game.rules:
        if isinstance(r.body, K.Track) and r.body.monotone:
            name = r.body.name
            out.append(Check(f"state.{name}_monotone",
                             f"Once {name.replace('_', ' ')} holds it holds for the rest of the "
                             "deal.", "generic", _monotone_decider(name),
                             covers=(r.id, *(rid for rid, _s, _h in _setters(game, name)))))
    for r in game.rules:
        if isinstance(r.body, K.Claim):
            out.append(Check(r.id, r.text, "rule", _dsl_decider(r.body.scope, r.body.holds, r.body.free, False),
                             covers=(r.id,)))
    for p in game.properties:
        if not p.applies_to(game):
            continue
        kind = "fact" if p.source is not None else "property"
        decide = (_history_decider(p.holds) if p.scope is Scope.HISTORY
                  else _dsl_decider(p.scope, p.holds, p.free, p.exists))
        out.append(Check(p.id, p.text, kind, decide, finding=p.finding, covers=p.covers))
    return out


def run_check(game: Game, check: Check, opts: Options | None = None) -> Result:
    """Decide one check in a Z3 context of its own, each query with the budget of ``opts``:
    its verdict does not depend on which checks ran before it, nor where."""
    opts = opts or Options()
    start = time.perf_counter()
    solving = Solving(opts.timeout, opts.rlimit)
    try:
        verdict, detail, pt = check.decide(game, solving, opts)
    except SolverUnknownError as e:
        verdict, detail, pt = Verdict.UNKNOWN, e.reason, None
    finally:
        _let_go(solving)
    return Result(check.id, check.text, verdict, time.perf_counter() - start, check.kind, detail,
                  pt, check.finding, check.covers)


def _let_go(solving: Solving) -> None:
    """Drop what one check built in its context, the situations first (they and the
    encoding refer to each other), so that the context is freed as the check ends rather
    than at the next collection of cycles."""
    for value in solving.memo.values():
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], Encoding):
            value[1].made.clear()
    solving.memo.clear()


def check_game(game: Game, *, only: tuple[str, ...] = (), opts: Options | None = None,
               on_result: Callable[[Result], None] | None = None) -> list[Result]:
    """Check every property of a game (or only the named ones), each in a Z3 context of
    its own."""
    opts = opts or Options()
    results = []
    for c in checks_for(game):
        if only and c.id not in only:
            continue
        r = run_check(game, c, opts)
        if on_result:
            on_result(r)
        results.append(r)
    return results


def legal_bids(game: Game, *, timeout: float = 60.0, rlimit: int | None = None) -> tuple[int, ...]:
    """The bids of the ladder (by number) that the call rules allow in some situation of
    some auction; the others can never be called.

    Raises:
        SolverUnknownError: Z3 could not decide a bid within ``timeout`` seconds.
    """
    solving = Solving(timeout, rlimit)
    return _legal_bids(solving, Encoding.of(game, solving))


def _legal_bids(solving: Solving, enc: Encoding) -> tuple[int, ...]:
    """The bids (by number) that the call rules allow in some auction situation: for each
    bid of the ladder, whether the rules let it be called (:func:`E.biddable`)."""
    b = enc.int_var("bid")
    s = solving.solver()
    s.add(E.biddable(enc, b, "legal"))
    return tuple(i for i in range(len(enc.game.ladder)) if solving.sat(s, b == i))


def variant_checks(game: Game, variant_id: str) -> tuple[Game, list[Check]]:
    """The game with a variant in force, and its checks that cover a rule the variant
    replaces, in the game without the variant or with it: the properties the variant can
    change.

    Raises:
        NotationError: the variant is unknown or cannot be checked yet.
    """
    variant = game.variant(variant_id)
    changed = {old.id for old, _new in variant.replaces}
    changed |= {new.id for _old, new in variant.replaces if new is not None}
    played = game.with_variants(variant_id)
    before = {c.id for c in checks_for(game) if changed & set(c.covers)}
    before |= {p.id for p in game.properties if variant_id in p.under}
    return played, [c for c in checks_for(played) if c.id in before or changed & set(c.covers)]
