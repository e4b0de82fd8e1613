"""Scenarios: a deal and a complete legal sequence of calls and cards that makes a condition
about the play come true, found by Z3 from the compiled rules and replayed by the engine.

The deal is unrolled symbolically: each card has an owner; the auction is unrolled call by
call (the fewest calls first) and must end with the contract and declarer the play uses;
then every trick, card by card, each card legal by the game's play rules for the hand
that plays it, each trick won as the game's winning rules say.  The condition (a
constraint that reads ``lead(k)``, ``winner(k)``, ``won(seat)``, ``score(seat)``,
``contract``, ...) is judged on the unrolled deal.  A model gives the hands and the
actions; the engine replays them and must find the condition true.

The rest of what a deal can hold is unrolled too: an auction in stages, dealt in packets
(each stage's hands are the lowest-numbered cards of each hand, as the engine splits hands
given whole), calls made by a partner, a card laid aside that names trumps, a talon taken by the declarer
who discards, a decision
before the first lead, announcements during the play, cards face down, tracked values
changed at the end of a trick, a seat sitting out or idle for the deal, defenders who drop
out (a deal without play when all do), trumps named by a choice, play rules that read the
cards that would win the trick, the pot a deal begins with.  A scenario is a deal played out: no
deal voided on the way, and no announcement in the auction.
"""
from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import z3

from spec.constraints import history_test
from spec.double_dummy import Judge, reads_double_dummy
from spec.dsl import _constructs as K
from spec.dsl._build import Game, suit_from_code
from spec.dsl._nodes import (
    NO_SUIT,
    Expr,
    Scope,
)
from spec.dsl._origins import own_steps
from spec.dsl._visitor import ConstructVisitor, UnsupportedNodeError
from spec.engine import (
    PASS,
    Action,
    Call,
    Declare,
    Lay,
    Phase,
    Play,
    State,
    engine_for,
    low_bidder,
    modest_bot,
    play_deal,
    random_bot,
)
from spec.errors import IllegalActionError, NotationError
from verifier._prove.ranking import auction_bound
from verifier._prove.unrolling import auction_steps
from verifier._unrolled import Unrolled
from verifier._z3.compile import Z3Compiler
from verifier._z3.solver import SEARCH_RLIMIT, Solving
from verifier._z3.steps import StepEncoder
from verifier.deals import Z3_REFUSES_DD
from verifier.errors import ReplayMismatchError, SolverUnknownError

__all__ = ["Scenario", "Unrolling", "played_deals", "scenarios_where", "solve_scenarios",
           "unsupported"]


@dataclass
class Scenario:
    """The answer: ``found`` with finished deals (states replayed by the engine),
    ``impossible`` or ``unknown``."""

    status: str
    states: list[State] = field(default_factory=list)
    reason: str = ""
    seconds: float = 0.0
    method: str = "z3"
    skipped: dict[str, int] = field(default_factory=dict)  # by why: a dd() unknown, no play


_SITUATION = "stated as facts of the unrolled deal"
_NOT_PLAYED = "not part of one deal played out"


class Unrolling(ConstructVisitor[str]):
    """How a scenario unrolls each construct; raises UnsupportedNodeError for what it does
    not unroll yet, which :func:`unsupported` reports."""

    def _fact(self, b: K.Construct) -> str:
        return _SITUATION

    visit_Seats = visit_PlayDirection = visit_DeckIs = visit_RankOrder = _fact
    visit_SidesByContract = visit_DealPackets = visit_Talon = visit_TakeTalon = _fact
    visit_AuctionTurns = visit_ProxyCall = visit_Ladder = visit_BidOrder = _fact
    visit_CallRule = visit_HighestBidderDeclares = visit_TrickPlay = visit_PlayRule = _fact
    visit_HoldBid = visit_TrumpIs = visit_IdleSeat = visit_DropOut = _fact
    visit_SameBidJoins = visit_PartnerHolds = visit_PartnerAccepts = _fact
    visit_PlayableAside = visit_FaceDown = visit_SitsOut = visit_Track = _fact
    visit_Decide = visit_AlwaysPlayable = visit_NameSuit = visit_DeclarationRule = _fact
    visit_CountsAsSuit = visit_WinningTier = visit_RecordTricks = visit_TrickValue = _fact
    visit_CardPoints = visit_ScoreRule = visit_TrickScores = visit_Claim = _fact

    def __init__(self, game: Game | None = None) -> None:
        self.game = game

    def visit_phase(self, b: K.PhaseConstruct) -> str:
        """A phase a game writes as steps of its own is unrolled from its steps where each
        is one the unroller reads: a card of the actor's hand, action by action, or a step
        at which nobody acts (its entry)."""
        game = self.game
        steps = [s for s in own_steps(game) if game.rule(s.opened_by).body is b] if game else []  # type: ignore[arg-type]
        # the unroller reads the steps between the settling of the contract and the play
        if b.before_contract or not steps or not all(map(StepEncoder.unrolls_alone, steps)):
            raise UnsupportedNodeError(b, "the scenario unroller",
                                       f"the steps of the phase {b.kind!r}")
        return "unrolled from its steps, action by action"

    def visit_SetAside(self, b: K.SetAside) -> str:
        if b.count != 1:
            raise UnsupportedNodeError(b, "the scenario unroller", "several cards laid aside at once")
        if self.game is not None and self.game.program.talon_cards:
            raise UnsupportedNodeError(b, "the scenario unroller", "a talon and cards laid aside")
        return _SITUATION

    def visit_Update(self, b: K.Update) -> str:
        if b.at is not K.Moment.TRICK_END:
            raise UnsupportedNodeError(b, "the scenario unroller", "tracked values changed at "
                                       "other moments than the end of a trick")
        return _SITUATION

    def visit_Announce(self, b: K.Announce) -> str:
        return ("no announcement in the auction: a scenario's auction is calls only"
                if b.scope is Scope.CALL else _SITUATION)

    def visit_TurnUp(self, b: K.TurnUp) -> str:
        return "any card of the hand it is dealt to, which the engine's replay deals face up"

    def visit_LayOpen(self, b: K.LayOpen) -> str:
        return ("the same deal: a hand laid open changes what the seats see, not what is "
                "legal, won or scored")




    def visit_VoidWhen(self, b: K.VoidWhen) -> str:
        return "never: a scenario is a deal played out, voided by no rule on the way"

    def visit_Pot(self, b: K.Pot) -> str:
        return ("any pot the deal may begin with: a whole number of units, at least one, "
                "which the engine's replay begins with")

    def visit_RedealIfNoBid(self, b: K.RedealIfNoBid) -> str:
        return "never: a scenario's auction ends with a contract"

    def _session(self, b: K.Construct) -> str:
        return _NOT_PLAYED

    visit_Shuffle = visit_GatherAndCut = visit_DealerRotation = visit_GameTarget = _session
    visit_AfterGame = visit_GameBonus = visit_Rubber = visit_RubberSettlement = _session
    visit_MatchOf = visit_MatchTarget = visit_MatchLength = _session


def unsupported(game: Game) -> str:
    """Why Z3 cannot unroll the game's deals yet ("" when it can)."""
    missing = []
    unrolling = Unrolling(game)
    for rule in game.rules:
        try:
            unrolling.visit(rule.body)
        except UnsupportedNodeError as e:
            missing.append(str(e).split(": ", 1)[-1])
    if missing:
        return (f"Z3 does not unroll the play of {game.name} yet (it has "
                + ", ".join(dict.fromkeys(missing)) + ")")
    return ""


def _call_counts(u: Unrolled, most: int) -> list[tuple[int, ...]]:
    """The numbers of calls in each auction stage worth trying, fewest in all first: each
    stage's count must let that stage's auction end on its own."""
    enc = u.enc
    possible = []
    for stage in range(1, u.game.stages + 1):
        ok = []
        for calls in range(1, most + 1):
            facts, rows, _dealer = auction_steps(enc, calls, stage, f"probe{stage}_{calls}_")
            s = u.solving.solver()
            s.add(*facts, *[r["legal"] for r in rows], *[z3.Not(r["ends"]) for r in rows[:-1]],
                  rows[-1]["ends"], rows[-1]["has_after"])
            if u.solving.sat(s):
                ok.append(calls)
        possible.append(ok)
    counts = [c for c in itertools.product(*possible) if sum(c) <= most]
    return sorted(counts, key=lambda c: (sum(c), c))


def _fewest_calls(u: Unrolled, most: int) -> list[tuple[int, ...]]:
    """The numbers of calls, from the fewest, of auctions that end with a contract (the
    auction alone).

    Raises:
        SolverUnknownError: Z3 could not decide whether some number of calls can end an
            auction; no number is left out on an unknown answer.
    """
    counts = _call_counts(u, most)
    for k, calls in enumerate(counts):
        s = u.solving.solver()
        s.add(*u.owners.facts, *u.auction(calls)[0])
        if u.solving.sat(s):
            return counts[k:]
    return []


def _none_within(u: Unrolled, max_calls: int, why: str, start: float) -> Scenario:
    """No scenario with an auction of at most ``max_calls`` calls: impossible when no
    auction can take more (each stage's length proved, :func:`auction_bound`), else
    unknown, with the bound that was reached."""
    longest = 0
    for stage in range(1, u.game.stages + 1):
        proved = auction_bound(u.game, u.solving, stage, max_calls)
        if proved is None:
            longest = -1
            break
        longest += proved[0]
    if 0 <= longest <= max_calls:
        return Scenario("impossible", [], why, time.perf_counter() - start)
    more = ("its auctions may take " + (f"{longest} calls" if longest > 0 else
                                        "more calls") + ", so that proves nothing of longer ones")
    return Scenario("unknown", [], f"{why}; {more}", time.perf_counter() - start)


def _decode(u: Unrolled, model: z3.ModelRef, rows: list[dict[str, Any]]) -> tuple[tuple[int, ...], list[Action]]:
    game = u.game
    hands = u.owners.decode(model)

    def value(term: Any) -> Any:
        v = model.eval(term, model_completion=True)
        return z3.is_true(v) if z3.is_bool(v) else v.as_long()

    actions: list[Action] = []
    for r in rows:
        if value(r["proxy"]):
            actions.append(Declare("partner"))
        actions.append(Call(game.ladder[value(r["bid"])]) if value(r["is_bid"]) else PASS)
        if "lay" in r and value(r["lay"][0]):
            actions.append(Lay(game.deck[u.enc.card_index(r["lay"][1], model)]))
    for replay in u.replays:  # the steps between the auction and the play, in order
        actions += replay(value)
    if value(u.all_out):  # nobody defends: no play
        return hands, actions
    n = game.players
    for cards, named, seats, made in zip(u.cards, u.named, u.position_seats, u.announced):
        for j in range(n):
            seat = value(seats[j])
            if seat < 0:
                continue
            actions += [Declare(name) for name, flag in zip(u.announcements, made[j])
                        if value(flag)]
            i = u.enc.card_index(cards[seat], model)
            code = value(named[seat])
            actions.append(Play(game.deck[i], suit_from_code(code) if code != NO_SUIT else None))
    return hands, actions


# ``method="auto"`` looks among this many deals played by bots before it asks Z3;
# ``"rejection"`` looks among at most ``REJECTION_DEALS`` and never asks Z3.  Counts, not
# times, so that one seed gives the same deals on any machine, however busy
QUICK_DEALS = 2_000
REJECTION_DEALS = 100_000
# ``"auto"`` first looks among this many random deals played together by the batch back end,
# where it runs the game's deals whole, this many at a time
BATCH_DEALS = 65_536
BATCH_SIZE = 8_192
METHODS = ("auto", "z3", "rejection")


def played_deals(game: Game, *, seed: int, most: int, dealer: int | None = None,
                 lowest: bool = False) -> Iterator[tuple[State, str]]:
    """Whole deals played by bots from seeds ``seed``, ``seed + 1``, ... (at most ``most``
    of them), each with how it was played.

    Random bots and modest ones (:func:`~spec.engine.modest_bot`: low contracts, no
    announcement unless demanded) take turns, so that situations rare among random
    auctions, a low contract made or a deal without announcements, turn up as well; with
    ``lowest``, bots that bid the lowest legal bid (:func:`~spec.engine.low_bidder`) take
    every third deal, for the contracts at the foot of the ladder.
    """
    kinds = ((random_bot, ""), (modest_bot, ", modest bots"),
             *([(low_bidder(), ", bots bidding low")] if lowest else []))
    for k in range(most):
        bot, how = kinds[k % len(kinds)]
        state = play_deal(game, seed=seed + k, dealer=dealer, bots=[bot] * game.players)
        yield state, f"random deals ({k + 1}{how})"


# long: the methods in turn (the batch's deals, the bots', Z3), each saying how it ended
def scenarios_where(game: Game, where: Expr, *, n: int = 1, seed: int = 0,
                    dealer: int | None = None, timeout: float = 600.0,
                    rlimit: int | None = SEARCH_RLIMIT, max_calls: int | None = None,
                    on_found: Callable[[State], None] | None = None,
                    method: str = "z3", budget: int | None = None) -> Scenario:
    """``n`` distinct deals, each with a complete legal sequence of calls and cards, that
    make ``where`` true; every one replayed by the engine, and passed to ``on_found`` as
    soon as it is.  ``rlimit`` bounds each Z3 query in Z3's resource units, so that the answer
    is the same on any machine; ``timeout`` seconds is only a backstop.

    ``method``: ``"z3"`` unrolls the deal in Z3; ``"rejection"`` judges deals played by
    bots (:func:`played_deals`) with the engine, and never answers ``impossible``;
    ``"auto"`` first looks among :data:`BATCH_DEALS` random deals played together (where
    the batch back end runs the game's deals whole and can judge the condition: see
    :mod:`spec.batch`), then among the first :data:`QUICK_DEALS` of the bots' deals, then
    asks Z3 for the rest.  A deal counts when it was dealt once (no deal thrown in before it) and played
    out (not voided), as Z3 unrolls deals.

    A condition that reads ``dd()`` is judged by the solver (``budget``: the nodes of each
    search), among deals played by bots only ("auto" never asks Z3); a deal on which it is
    neither true nor false is skipped, and counted in ``skipped``.

    Raises:
        NotationError: Z3 cannot unroll the game's deals yet (see :func:`unsupported`),
            and the deals played by bots did not give ``n`` deals; or the condition reads
            ``dd()`` and the method is "z3".
        ReplayMismatchError: the engine does not reach the scenario Z3 found (a bug).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    start = time.perf_counter()
    judge = None
    test: Callable[[State], bool]
    if reads_double_dummy(where):
        if method == "z3":
            raise NotationError(Z3_REFUSES_DD)
        judge = Judge(game, where, budget=budget, played=True)
        test = judge.accepts_state
    else:
        test = history_test(game, where)
    dealer = game.players - 1 if dealer is None else dealer
    states: list[State] = []
    dealt = played = batched = 0
    seen: set[tuple[int, ...]] = set()
    if method == "auto" and judge is None:  # first among many deals played together
        dealt = _batch_scenarios(game, where, test, n, seed, dealer, states, seen, on_found)
        batched = len(states)
        if batched == n:
            return Scenario("found", states, "", time.perf_counter() - start, "batch", {})
    if method != "z3":
        most = QUICK_DEALS if method == "auto" else REJECTION_DEALS
        for state, _how in played_deals(game, seed=seed * most, dealer=dealer, most=most,
                                        lowest=True):
            dealt += 1
            if state.dealer == dealer and _kept(state, test, states, seen, on_found) == n:
                break
        played = len(states)
        if played == n or method == "rejection" or judge:  # nothing else looks for dd()
            took = time.perf_counter() - start
            skipped = dict(judge.skipped) if judge else {}
            label = _label(batched, played - batched, 0)
            if len(states) == n:
                return Scenario("found", states, "", took, label, skipped)
            some = f"only {len(states)}" if states else "none"
            how = "a condition with dd() is judged on such deals only" if judge else "rejection"
            return Scenario("unknown", states, f"{some} among {dealt} deals played by bots "
                            f"({how})", took, label, skipped)
    result = solve_scenarios(game, lambda u, rows: Z3Compiler(u.enc, u.history(rows)).visit(where),
                             lambda state, _model, _rows: test(state), n=n, seed=seed,
                             dealer=dealer, timeout=timeout, rlimit=rlimit, max_calls=max_calls,
                             on_found=on_found, found=states)
    if played:
        result.method = _label(batched, played - batched, len(result.states) - played)
    result.seconds = time.perf_counter() - start
    return result


def _label(batched: int, played: int, solved: int) -> str:
    """How the deals were found: among the batch's deals, the bots' deals, by Z3."""
    return "+".join(name for name, count in (("batch", batched), ("rejection", played),
                                             ("z3", solved)) if count) or "rejection"


def _batch_scenarios(game: Game, where: Expr, test: Callable[[State], bool], n: int, seed: int,
                     dealer: int, states: list[State], seen: set[tuple[int, ...]],
                     on_found: Callable[[State], None] | None) -> int:
    """Deals that meet ``where`` among :data:`BATCH_DEALS` random deals played together
    (:mod:`spec.batch`), where the batch runs the game's deals whole and can judge the
    condition: each found is played again by the engine from its hands, action by action,
    and judged there too; the number of deals looked at."""
    from spec.batch import NotBatchable, play_batch
    eng = engine_for(game)
    try:
        batch = eng.batch()
        judge = batch.condition(where)
    except NotBatchable:
        return 0
    if not batch.deals_whole:
        return 0
    dealt = 0
    for first in range(seed * BATCH_DEALS, (seed + 1) * BATCH_DEALS, BATCH_SIZE):
        # numpy alone: compiling a game's lanes costs more than it saves on one batch
        played = play_batch(eng, range(first, first + BATCH_SIZE), seed=seed, dealer=dealer,
                            compiled=False)
        dealt += BATCH_SIZE
        for k in played.meeting(judge):
            if _kept(played.replayed(int(k)), test, states, seen, on_found) == n:
                return dealt
    return dealt


def _kept(state: State, test: Callable[[State], bool], states: list[State],
          seen: set[tuple[int, ...]], on_found: Callable[[State], None] | None) -> int:
    """``state`` added to ``states`` where it counts (dealt once, played out, not found
    already, the condition true there), told to ``on_found``; how many there are."""
    if not (state.thrown_in or state.void or state.dealt in seen) and test(state):
        seen.add(state.dealt)
        states.append(state)
        if on_found is not None:
            on_found(state)
    return len(states)


def solve_scenarios(game: Game, claim_of: Any, confirm: Any, *, n: int = 1, seed: int = 0,
                    dealer: int | None = None, timeout: float = 600.0,
                    rlimit: int | None = SEARCH_RLIMIT, max_calls: int | None = None,
                    on_found: Callable[[State], None] | None = None,
                    found: list[State] | None = None) -> Scenario:
    """The search behind :func:`scenarios_where`: ``claim_of(unrolled, auction rows)`` gives
    the Z3 condition; ``confirm(state, model, rows)`` checks the engine's replay.  An
    unknown answer from Z3 anywhere makes the answer ``unknown`` (with the deals found
    before it), never ``impossible``.  ``found``: deals found already (by the same dealer),
    which count towards ``n`` and which Z3 does not give again."""
    why = unsupported(game)
    if why:
        raise NotationError(why)
    start = time.perf_counter()
    dealer = game.players - 1 if dealer is None else dealer
    states: list[State] = [] if found is None else found
    try:
        return _solve(game, claim_of, confirm, n, seed, dealer, Solving(timeout, rlimit),
                      max_calls, on_found, states, start)
    except SolverUnknownError as e:
        return Scenario("unknown", states, e.reason, time.perf_counter() - start)


def _solve(game: Game, claim_of: Any, confirm: Any, n: int, seed: int, dealer: int,
           solving: Solving, max_calls: int | None, on_found: Callable[[State], None] | None,
           states: list[State], start: float) -> Scenario:
    u = Unrolled(game, solving, dealer)
    s = solving.solver()
    s.add(*u.facts)
    for state in states:  # found already: not again
        _block(u, s, state.dealt)
    eng = engine_for(game)
    max_calls = max_calls or 4 * game.players + 8
    rng = random.Random(seed)
    refined: list[Any] = []
    counts = _fewest_calls(u, max_calls)
    quiet = (" without announcements in the auction"
             if any(b.scope is Scope.CALL for _r, b in game.constructs(K.Announce)) else "")  # type: ignore[attr-defined]
    if not counts:
        return _none_within(u, max_calls, f"no auction of at most {max_calls} calls{quiet} "
                            "ends with a contract", start)
    while len(states) < n:
        found = None
        for calls in counts:
            s.push()
            facts, rows = u.auction(calls)
            s.add(*facts, claim_of(u, rows))
            # start from a random deal: keep what cards the scenario allows
            target = eng.hands_from_order(eng.deal_order(seed, 10 ** 6 + len(states)), dealer)
            keep = {}
            tag = "_".join(map(str, calls))
            for seat, m in enumerate(target):
                for i in range(len(game.deck)):
                    if m >> i & 1 and rng.random() < 0.5:
                        lit = u.enc.bool_var(f"keep_{len(states)}_{tag}_{i}")
                        s.add(z3.Implies(lit, u.owners.owner[i] == seat))
                        keep[str(lit)] = lit
            active = list(keep.values())
            r = _check(u, s, active, refined)
            rounds = 0
            while r == z3.unsat and active and rounds < 4:
                core = {str(x) for x in s.unsat_core()}
                if not core:
                    break
                active = [x for x in active if str(x) not in core]
                r = _check(u, s, active, refined)
                rounds += 1
            if r == z3.unsat and active:
                r = _check(u, s, [], refined)
            if r == z3.sat:
                found = (s.model(), rows)
                s.pop()
                break
            s.pop()
            if r == z3.unknown:
                return Scenario("unknown", states, solving.reason(s),
                                time.perf_counter() - start)
        if found is None and not states:
            return _none_within(u, max_calls, f"no deal makes it true with an auction of at "
                                f"most {max_calls} calls{quiet}", start)
        if found is None:
            return Scenario("found", states, f"only {len(states)} deal"
                            f"{'s make' if len(states) > 1 else ' makes'} it true",
                            time.perf_counter() - start)
        model, rows = found
        hands, actions = _decode(u, model, rows)
        state = _start(u, model, hands, dealer, seed)
        for a in actions:
            try:
                state = eng.apply(state, a)
            except IllegalActionError as e:
                raise ReplayMismatchError(f"the engine refuses the scenario Z3 found at {a}: "
                                          f"{e}") from None
        if state.phase is not Phase.OVER or not confirm(state, model, rows):
            raise ReplayMismatchError("the engine's replay of the scenario does not make the "
                                      "condition true")
        states.append(state)
        if on_found is not None:
            on_found(state)
        _block(u, s, hands)
    return Scenario("found", states, "", time.perf_counter() - start)


def _block(u: Unrolled, s: Any, hands: Any) -> None:
    """No deal of these hands again."""
    s.add(z3.Not(z3.And(*[h == u.enc.bv(m) for h, m in zip(u.owners.hands, hands)])))




def _check(u: Unrolled, s: Any, keep: list[Any], refined: list[Any]) -> Any:
    """Z3's answer with the literals ``keep`` assumed.  When the play's legality is guarded
    (see ``Unrolled.exact``), the search assumes the relaxed legality and the exact one
    of each card found wanting so far (``refined``, kept across calls); a model is taken only
    when every card it plays is legal by the exact facts, evaluated in the model.  Without
    ``keep``, an unsat answer of the relaxed search is never taken: the exact question is
    asked, every card's legality assumed."""
    if not u.exact:
        return s.check(*keep)
    while True:
        r = s.check(*keep, u.relaxed, *refined)
        if r == z3.sat:
            model, done = s.model(), set(map(str, refined))
            wanting = [g for g, fact in u.exact if str(g) not in done
                       and not z3.is_true(model.eval(fact, model_completion=True))]
            if not wanting:
                return r
            refined += wanting
            continue
        if r == z3.unsat and not keep:
            return s.check(*u.legal())
        return r


def _start(u: Unrolled, model: z3.ModelRef, hands: Any, dealer: int, seed: int) -> State:
    """The engine's deal of the hands Z3 found, with the pot Z3 found (a game with a pot)."""
    up = None if u.turn_up is None else u.enc.card_index(u.turn_up, model)
    state = u.eng.start(hands, dealer=dealer, seed=seed, turn_up=up)
    if u.pot is not None:
        state = replace(state, pot=u.eng.checked_pot(
            model.eval(u.pot, model_completion=True).as_long()))
    return state


def decide_history(game: Game, holds: Expr, solving: Solving, most: int
                   ) -> tuple[str, str, State | None]:
    """Whether ``holds`` (scope HISTORY) is true of every deal played out, for every dealer,
    with every auction of at most ``most`` calls in all (the caller proves that no auction
    takes more).  Returns the verdict's name (``HOLDS``, ``VIOLATED``, ``VACUOUS`` or
    ``UNKNOWN``), a detail, and for ``VIOLATED`` the deal replayed by the engine.

    Raises:
        SolverUnknownError: a query has no answer (never read as "no such deal").
        ReplayMismatchError: the engine does not reach the deal Z3 found (a bug).
    """
    why = unsupported(game)
    if why:
        return "UNKNOWN", why, None
    if any(b.scope is Scope.CALL for _r, b in game.constructs(K.Announce)):  # type: ignore[attr-defined]
        return "UNKNOWN", ("the deals are unrolled without the auction's announcements, so not "
                           "every deal is seen"), None
    if game.stages > 1:  # each stage's cards are the lowest of a hand (see _stage_cards)
        return "UNKNOWN", ("the deals are unrolled with each dealing stage's cards fixed as the "
                           "lowest of each hand, so not every deal is seen"), None
    played = False
    eng = engine_for(game)
    for dealer in range(game.players):
        u = Unrolled(game, solving, dealer)
        counts = _fewest_calls(u, most)
        played = played or bool(counts)
        for calls in counts:
            s = solving.solver()
            facts, rows = u.auction(calls)
            s.add(*u.facts, *u.legal(), *facts,
                  z3.Not(Z3Compiler(u.enc, u.history(rows)).visit(holds)))
            if not solving.sat(s):
                continue
            hands, actions = _decode(u, s.model(), rows)
            state = _start(u, s.model(), hands, dealer, 0)
            for a in actions:
                try:
                    state = eng.apply(state, a)
                except IllegalActionError as e:
                    raise ReplayMismatchError(f"the engine refuses the deal Z3 found at {a}: "
                                              f"{e}") from None
            if state.phase is not Phase.OVER:
                raise ReplayMismatchError("the engine's replay of the deal Z3 found is not over")
            return "VIOLATED", "", state
    if not played:
        return "VACUOUS", ("it holds only because no deal is ever played out (no auction of at "
                           f"most {most} calls ends with a contract)"), None
    return "HOLDS", (f"for every dealer and every deal played out (its auctions take at most "
                     f"{most} calls)"), None
