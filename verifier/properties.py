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

This module is the catalogue: which properties a game has, what each states and which
rules it covers, and how they are run.  How each is proved (the situations, the proofs
from the facts that bear on a claim, the bounds on an auction, the replays) is in the
package ``verifier/_prove/``.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl._build import Game
from spec.dsl._nodes import Arith, Compare, Const, Ctx, Op, Ref, Scope, ScoreOf, T
from verifier import trace
from verifier._prove.auction_properties import (
    auction_ends,
    bid_order_total,
    legal_call_exists,
    one_accepter,
    standing_increases,
    who_declares,
)
from verifier._prove.claims import (
    dsl_decider,
    history_decider,
    legal_bids_in,
    monotone_decider,
    setters_of,
)
from verifier._prove.deal_properties import (
    cards_held,
    deal_partitions,
    decide_choice_exists,
    exchange_keeps_hands,
    game_one_winner,
    legal_card_exists,
    one_winner,
    rubber_length,
)
from verifier._prove.decision import Decider, Options, Verdict
from verifier._prove.readings import reading_differs
from verifier._prove.vacuity import premises  # noqa: F401  (what a claim assumes, read here too)
from verifier._z3.compile import Encoding
from verifier._z3.reading import Z3Reading
from verifier._z3.solver import DEFAULT_RLIMIT, Solving
from verifier.errors import SolverUnknownError, UnsupportedNodeError

__all__ = ["Verdict", "Result", "Check", "checks_for", "run_check", "check_game", "legal_bids",
           "variant_checks", "DEFAULT_RLIMIT"]


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
    decide: Decider
    finding: bool = False
    covers: tuple[str, ...] = ()


# Each generic property covers the rules that state the constructs its proof reads: a
# game's rules of those kinds are the rules the property is about.
GENERIC: tuple[tuple[str, str, Callable[..., Any], tuple[type[K.Construct], ...]], ...] = (
    ("deal.partitions_deck", "Every deal gives each seat its share of the pack, each card "
     "to exactly one seat (the build refuses packets that do not add up; this proves the "
     "Z3 encoding of the deal agrees).", deal_partitions, (K.Seats, K.DeckIs, K.DealPackets)),
    ("auction.bid_order_total", "The bid order is a strict total order: no two different "
     "bids are equal (the build refuses a ladder with equal bids; this proves the Z3 "
     "encoding of the order agrees).", bid_order_total, (K.Ladder, K.BidOrder)),
    ("auction.standing_bid_increases", "Every legal bid beats the standing bid, so the "
     "standing bid only goes up.", standing_increases, (K.BidOrder, K.CallRule, K.ProxyCall,
                                               K.SameBidJoins, K.PartnerAccepts, K.HoldBid)),
    ("auction.ends", "Every auction ends, with one declarer (the highest bidder) or a redeal.",
     auction_ends, (K.AuctionTurns, K.HighestBidderDeclares, K.RedealIfNoBid, K.SameBidJoins)),
    ("auction.legal_call_exists", "A seat to call in an auction not yet over always has a "
     "legal call: a pass, a bid, or one its partner may name for it.", legal_call_exists,
     (K.AuctionTurns, K.CallRule, K.ProxyCall)),
    ("play.legal_card_exists", "A seat with cards always has a legal card to play, whatever "
     "its hand, the contract and the cards already played.", legal_card_exists,
     (K.PlayRule, K.AlwaysPlayable, K.PlayableAside)),
    ("play.one_winner", "Every complete trick has exactly one winner.", one_winner,
     (K.RankOrder, K.WinningTier, K.CountsAsSuit, K.NameSuit)),
    ("play.cards_held", "Every legal card is one the seat holds, in hand or laid aside.",
     cards_held, (K.PlayRule, K.AlwaysPlayable, K.PlayableAside, K.SetAside)),
)


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
    if pid == "auction.ends" and who_declares(game) != "the highest bidder":
        return f"Every auction ends, with {who_declares(game)} declaring or a redeal."
    return text


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
    out += _construct_checks(game)
    for r in game.rules:
        if isinstance(r.body, K.Claim):
            out.append(Check(r.id, r.text, "rule", dsl_decider(r.body.scope, r.body.holds, r.body.free, False),
                             covers=(r.id,)))
    for p in game.properties:
        if not p.applies_to(game):
            continue
        kind = "fact" if p.source is not None else "property"
        decide = (history_decider(p.holds) if p.scope is Scope.HISTORY
                  else dsl_decider(p.scope, p.holds, p.free, p.exists))
        out.append(Check(p.id, p.text, kind, decide, finding=p.finding, covers=p.covers))
    return out


def _construct_checks(game: Game) -> list[Check]:
    """The generic properties that only some games have, for the constructs their rules
    state: an accepted bid, a choice after the auction, an exchange, a pot, other readings
    of a rule, a game target, a rubber, a tracked value that stays true."""
    out = []
    accepts = game.constructs(K.PartnerAccepts)
    if accepts:
        out.append(Check("auction.one_accepter", "A bid is accepted at most once, never by "
                         "its own bidder: the partner a call forms is one other seat.", "generic",
                         one_accepter, covers=tuple(r.id for r, _b in accepts)))
    for rule, _b in game.constructs(K.Decide):
        out.append(Check("decide.choice_exists", "Whoever must choose after the auction has a "
                         "choice the rules allow, whatever the contract, the declarer, the "
                         "dealer and the hands.", "generic", decide_choice_exists,
                         covers=(rule.id,)))
    if game.constructs(K.TakeTalon):
        out.append(Check("deal.exchange_keeps_hands", "After the exchange the declarer holds "
                         "as many cards as before and has discarded as many as he took: every "
                         "card is still in exactly one place.", "generic", exchange_keeps_hands,
                         covers=tuple(r.id for r, _b in game.rules_with(K.Talon, K.TakeTalon))))
    for rule, body in game.constructs(K.Pot):
        assert isinstance(body, K.Pot)
        left = _pot_after(game)
        unit = body.granularity
        covers = (rule.id, *(r.id for r, _b in game.rules_with(K.ScoreRule)))
        out.append(Check("pot.covers_the_deal", "A deal never takes more chips from the pot "
                         "than it holds: whatever the players win together, the pot can pay.",
                         "generic", dsl_decider(Scope.OUTCOME, Compare(Op.GE, left, Const(0, T.INT)),
                                                (), False), covers=covers))
        out.append(Check("pot.whole_units", f"The pot changes only by whole multiples of {unit} "
                         f"chips, so, filled by antes that add up to a multiple of {unit}, it "
                         f"never holds 1 to {unit - 1} chips.", "generic",
                         dsl_decider(Scope.OUTCOME, Compare(
                             Op.EQ, Arith(Op.MUL, Arith(Op.DIV, left, Const(unit, T.INT)),
                                          Const(unit, T.INT)), left), (), False),
                         covers=covers))
    for v in game.variants:
        if v.reading and not v.not_decidable and v.id not in game.active_variants:
            out.append(Check(f"variant.{v.id}", f"The reading of variant {v.id} plays some "
                             "deal otherwise than the rules in force: a deal where the two "
                             "readings differ.", "generic", reading_differs(v.id),
                             covers=tuple(old.id for old, _new in v.replaces)))
    for rule, _b in game.constructs(K.GameTarget):
        out.append(Check("game.one_winner", "Every game has exactly one winner: the side whose "
                         "trick first reaches the target.", "generic", game_one_winner,
                         covers=(rule.id,)))
    for rule, _b in game.constructs(K.Rubber):
        out.append(Check("rubber.length", "A rubber ends as soon as a side has won the games "
                         "it needs, and it always does.", "generic", rubber_length,
                         covers=(rule.id,)))
    for r in game.rules:
        if isinstance(r.body, K.Track) and r.body.monotone:
            name = r.body.name
            out.append(Check(f"state.{name}_monotone",
                             f"Once {name.replace('_', ' ')} holds it holds for the rest of the "
                             "deal.", "generic", monotone_decider(name),
                             covers=(r.id, *(s.rule_id for s in setters_of(game, name)))))
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
    except UnsupportedNodeError as e:  # a rule Z3 cannot state: this check, not the run
        verdict, detail, pt = Verdict.UNKNOWN, str(e), None
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
    return legal_bids_in(solving, Encoding.of(game, solving))


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
    changed |= {r.id for r in variant.adds}
    played = game.with_variants(variant_id)
    before = {c.id for c in checks_for(game) if changed & set(c.covers)}
    before |= {p.id for p in game.properties if variant_id in p.under}
    return played, [c for c in checks_for(played) if c.id in before or changed & set(c.covers)]
