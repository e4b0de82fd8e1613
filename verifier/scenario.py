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
from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game, suit_from_code
from spec.dsl._nodes import (
    NO_SUIT,
    CallerOf,
    Ctx,
    DealtHand,
    Dropped,
    Expr,
    Idle,
    Invited,
    IsDeclarer,
    LeaderOf,
    LedTo,
    PlayedTo,
    Ref,
    Scope,
    Taken,
    WinnerOf,
    WonTrick,
)
from spec.dsl._program import PhaseKind
from spec.dsl._visitor import ConstructVisitor, UnsupportedNodeError
from spec.engine import (
    PASS,
    Action,
    Call,
    Declare,
    Discard,
    Lay,
    Phase,
    Play,
    State,
    engine_for,
    lowest_bot,
    modest_bot,
    play_deal,
    random_bot,
)
from spec.errors import IllegalActionError, NotationError
from verifier._z3.compile import Z3Compiler
from verifier._z3.encoding import (
    beating_of,
    beating_term,
    exchange,
    not_beaten_by,
    partner_named,
    reads_beating,
    strength_table,
    tracked_initial,
    turn_up_holder,
)
from verifier._z3.solver import Solving
from verifier.deals import _Owners
from verifier.errors import ReplayMismatchError, SolverUnknownError
from verifier.properties import _auction_steps

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


# the kinds of phase a scenario unrolls, each in the program's order
_UNROLLED = (PhaseKind.AUCTION, PhaseKind.SET_ASIDE, PhaseKind.EXCHANGE, PhaseKind.DECIDE,
             PhaseKind.DROP_OUT, PhaseKind.PLAY)

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

    def visit_SetAside(self, b: K.SetAside) -> str:
        if b.count != 1:
            raise UnsupportedNodeError(b, "the scenario unroller", "several cards laid aside at once")
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
    unrolling = Unrolling()
    refused = set()
    for rule in game.rules:
        try:
            unrolling.visit(rule.body)
        except UnsupportedNodeError as e:
            missing.append(str(e).split(": ", 1)[-1])
            refused.add(rule.id)
    missing += [f"a phase of kind {p.kind.value!r}" for p in game.program.phases
                if p.kind not in _UNROLLED and p.opened_by not in refused]
    if game.program.talon_cards and game.constructs(K.SetAside):
        missing.append("a talon and cards laid aside")
    if missing:
        return (f"Z3 does not unroll the play of {game.name} yet (it has "
                + ", ".join(dict.fromkeys(missing)) + ")")
    return ""


class _Unrolled:
    """One symbolic deal: the owner of each card, every trick of the play, and the history
    a scenario reads; :meth:`auction` adds an auction that leads to the play's contract.

    Each seat has a card in each trick (so no hand depends on who led); the order of play,
    a seat sitting out, announcements and the tracked values they change follow the
    positions in the trick, tables over the leader.  What the auction decides for the play
    (contract, declarer, trumps named by a card laid aside, the cards aside) are variables
    that :meth:`auction` ties to its calls.
    """

    def __init__(self, game: Game, solving: Solving, dealer: int) -> None:
        self.game, self.solving, self.dealer = game, solving, dealer
        self.owners = _Owners(game, solving, dealer)
        self.enc = enc = self.owners.enc
        self.eng = eng = engine_for(game)
        n = self.n = game.players
        self.facts: list[Any] = list(self.owners.facts)
        self.contract = enc.int_var("contract")
        self.declarer = enc.int_var("declarer")
        self.facts += [enc.bid_in_ladder(self.contract), self.declarer >= 0, self.declarer < n]
        if eng.trump_from_aside:
            self.trump: Any = enc.int_var("trump")
        else:
            self.trump = enc.bid_strain(self.contract)
        dealt = self.owners.hands
        self.set_aside = {b.stage: (r, b) for r, b in game.constructs(K.SetAside)}  # type: ignore[attr-defined]
        self.aside0 = ([enc.cards_var(f"aside_{s}") for s in range(n)] if self.set_aside
                       else [enc.bv(0)] * n)
        self.tracked0 = {("tracked", name): self._initial(t) for name, t in game.tracked.items()}
        # who is out of the play: the seat idle for the deal (the engine's), the defenders
        # who drop out and the guest invited back (the drop-out phase sets them)
        self.idle = eng.idle_seat(dealer)
        self.dropped: list[Any] = [enc.bool(False)] * n
        self.invited: list[Any] = [enc.bool(False)] * n
        self.all_out: Any = enc.bool(False)
        self.drop_out: tuple[Any, Any, list[Any], Any] | None = None
        # play rules that read the cards that would win the trick make the search hard:
        # each card's legality is a fact guarded by its own literal, assumed when needed,
        # and ``relaxed`` (assumed only while searching) stands in for those not yet
        self.exact: list[tuple[Any, Any]] = []
        self.relaxed = enc.bool_var("relaxed")
        base = {Ctx.DEALER: enc.int(dealer), Ctx.CONTRACT: self.contract,
                Ctx.DECLARER: self.declarer, Ctx.TRUMP: self.trump,
                DealtHand: lambda seat: enc.select(seat, dealt),
                Idle: lambda seat: seat == self.idle,
                Dropped: lambda seat: enc.select(seat, self.dropped),
                Invited: lambda seat: enc.select(seat, self.invited)}
        # a pot carried from deal to deal: any pot a deal may begin with, a whole number
        # of units of its granularity (as the outcome situation has it)
        self.pot: Any = None
        for _r, pot_rule in game.constructs(K.Pot):
            units = enc.int_var("pot_units")
            self.facts.append(units >= 1)
            self.pot = base[Ctx.POT] = pot_rule.granularity * units  # type: ignore[attr-defined]
        # the card dealt face up: any card of the hand it is dealt to (the dealer is known)
        self.turn_up: Any = None
        if game.program.turn_up is not None:
            self.turn_up = base[Ctx.TURN_UP] = enc.cards_var("turn_up")
            holder = z3.simplify(turn_up_holder(enc, enc.int(dealer)))
            self.facts += [enc.one_hot(self.turn_up),
                           self.turn_up & ~enc.select(holder, dealt) == 0]
        # who declares and who partners the declarer, as the engine settles them when the
        # auction ends: the seats that joined his bid declare with him; the seat that
        # accepted it is his partner, else the seat the partner rule names (he himself
        # without one); :meth:`auction` ties the joins and the acceptance to the calls
        program = game.program
        self.declares = [enc.bool_var(f"declares_{s}") for s in range(n)]
        self.facts += [z3.Implies(self.declarer == s, d) for s, d in enumerate(self.declares)]
        if not program.several_declarers:
            self.facts += [d == (self.declarer == s) for s, d in enumerate(self.declares)]
        self.partner = enc.int_var("partner")
        self.accepter: Any = enc.int(-1)
        if program.partner_by_call:
            self.accepter = enc.int_var("accepter")
        # no seat (-1: the winner of a trick never played) declares, as in the engine
        base[IsDeclarer] = lambda seat: z3.And(seat >= 0, enc.select(seat, self.declares))
        base[Ctx.DECLARER_PARTNER] = self.partner
        self.base = base
        tv = dict(self.tracked0)

        def status(number: int, values: dict[Any, Any]) -> dict[Any, Any]:
            return {**base, Ctx.TRICK_NUMBER: enc.int(number), **values}

        named = partner_named(enc, status(1, tv), self.declarer)
        self.facts.append(self.partner == z3.If(self.accepter >= 0, self.accepter, named))

        if game.constructs(K.TrumpIs):  # trumps as the rules state them, from the start
            self._trumps(status(1, tv))

        # who sits out, who leads, and the decision before the first lead
        sits = game.constructs(K.SitsOut)
        out: Any = enc.int(-1)
        if sits:
            body = sits[0][1]
            comp = Z3Compiler(enc, status(1, tv))
            out = z3.If(comp.visit(body.when), comp.visit(body.seat), enc.int(-1))  # type: ignore[attr-defined]
        play = game.one(K.TrickPlay)
        leader = Z3Compiler(enc, {**base, **tv}).visit(play.first_lead)  # type: ignore[attr-defined]
        self.facts += [leader >= 0, leader < n]
        # a seat's hand is what it holds (as dealt, less cards aside, plus cards aside once
        # returned) less what it has played; its cards aside likewise
        held = [d & ~a for d, a in zip(dealt, self.aside0)] if self.set_aside else list(dealt)
        laid = list(self.aside0)
        played = [enc.bv(0)] * n
        # the phases between the auction and the play, in the program's order
        self.exchange: tuple[Any, Any] | None = None
        self.decision: tuple[Any, tuple[Any, ...]] | None = None
        for phase in game.program.phases:
            if phase.kind is PhaseKind.EXCHANGE:
                held = self._exchange(held, status(1, tv), phase.when)
            elif phase.kind is PhaseKind.DECIDE:
                tv = self._decide(tv, status)
                if game.constructs(K.TrumpIs):  # trumps the choice names
                    self._trumps(status(1, tv))
                held, laid = self._after_status(1, tv, held, laid, status)
            elif phase.kind is PhaseKind.DROP_OUT:
                self._drop_out(status(1, tv), phase.when)
        trump = self.trump
        # the seats out of the play, as a bit per seat; the positions of a trick are
        # tables over the leader and the seats out
        absent = [z3.Or(out == s, self.dropped[s], enc.bool(self.idle == s)) for s in range(n)]
        varies = bool(sits) or self.idle >= 0 or self.drop_out is not None
        # the sets of seats out that can occur (a seat idle for the deal, at most one
        # sitting out, any defenders dropped out), less the set of every seat: a table over
        # them is as small as the game allows
        idle_bit = 1 << self.idle if self.idle >= 0 else 0
        outs = [0, *(1 << s for s in range(n))] if sits else [0]
        drops = range(2 ** n) if self.drop_out is not None else [0]
        masks = (sorted({idle_bit | o | d for o in outs for d in drops} - {2 ** n - 1})
                 if varies else [0])
        mask = z3.Sum([z3.If(a, enc.int(1 << s), enc.int(0)) for s, a in enumerate(absent)])
        if self.drop_out is not None:  # the first leader, if out, passes the lead on
            leader = self._present_after(leader, absent)

        def by_leader(table: Any) -> Any:
            """A value chosen by this trick's leader and the seats out: table(leader, out)."""
            per_out = [enc.select(leader, [table(x, m) for x in range(n)]) for m in masks]
            return enc.select(mask, per_out, keys=masks) if varies else per_out[0]

        size = enc.int(n) - z3.Sum([z3.If(a, enc.int(1), enc.int(0)) for a in absent]) \
            if varies else enc.int(n)
        beats = reads_beating(game)
        announces = [(r, b) for r, b in game.constructs(K.Announce) if b.scope is Scope.PLAY]  # type: ignore[attr-defined]
        updates = [b for _r, b in game.constructs(K.Update)]
        face_down = D.face_down(game) if game.constructs(K.FaceDown) else None
        self.cards: list[list[Any]] = []  # per trick, per seat
        self.named: list[list[Any]] = []
        self.leaders: list[Any] = []
        self.winners: list[Any] = []
        self.position_seats: list[list[Any]] = []  # per trick, the seat at each position
        self.announced: list[list[list[Any]]] = []  # per trick, per position, per announcement
        self.announcements = [b.name for _r, b in announces]  # type: ignore[attr-defined]
        self.play_envs: list[tuple[int, int, dict[Any, Any]]] = []
        self.trick_envs: list[tuple[int, dict[Any, Any]]] = []
        choices = D.declaration_choices(game)
        for k in range(1, game.tricks + 1):
            seat_at = [by_leader(lambda x, o, j=j: self._seat_at(x, o, j)) for j in range(n)]
            pos_of = [by_leader(lambda x, o, s=s: self._position_of(x, o, s)) for s in range(n)]
            cards = [enc.cards_var(f"card_{k}_{s}") for s in range(n)]
            hands = [h & ~p for h, p in zip(held, played)]
            aside = [a & ~p for a, p in zip(laid, played)] if self.set_aside else laid
            named = [enc.int_var(f"named_{k}_{s}") for s in range(n)]
            # announcements, position by position: the values each seat plays under
            before = dict(tv)
            at_position: list[dict[Any, Any]] = []
            made: list[list[Any]] = []
            for j in range(n):
                env_j = {**base, **before, Ctx.SEAT: seat_at[j],
                         Ctx.HAND: enc.select(seat_at[j], hands),
                         Ctx.ASIDE: enc.select(seat_at[j], aside), Ctx.IS_LEADING: enc.bool(j == 0),
                         Ctx.POSITION: enc.int(j), Ctx.TRICK_NUMBER: enc.int(k),
                         Ctx.LEADER: leader}
                row = []
                for t, (_r, body) in enumerate(announces):
                    flag = enc.bool_var(f"announce_{k}_{j}_{t}")
                    comp = Z3Compiler(enc, {**env_j, **before})
                    active = j < size if varies else enc.bool(True)
                    self.facts.append(z3.Implies(flag, z3.And(active, comp.visit(body.when))))  # type: ignore[attr-defined]
                    if body.required is not None:  # type: ignore[attr-defined]
                        self.facts.append(z3.Implies(z3.And(active, comp.visit(body.required)),  # type: ignore[attr-defined]
                                                     flag))
                    after = dict(before)
                    for name, value in body.sets:  # type: ignore[attr-defined]
                        key = ("tracked", name)
                        after[key] = z3.If(flag, comp.visit(value), before[key])
                    before = after
                    row.append(flag)
                made.append(row)
                at_position.append(before)
                if announces:
                    self._no_void(k, before, status)
            tv_trick = before  # the values when the trick is complete
            lead_envs = [{Ctx.CARD: cards[s], Ctx.DECLARED: named[s], Ctx.IS_LEADING: enc.bool(True),
                          Ctx.POSITION: enc.int(0), Ctx.LED_SUIT: enc.int(NO_SUIT), Ctx.TRUMP: trump,
                          Ctx.TRICK_NUMBER: enc.int(k), Ctx.CONTRACT: self.contract}
                         for s in range(n)]
            led = enc.select(leader, [Z3Compiler(enc, e).visit(D.entry_suit(game)) for e in lead_envs])
            # the card at each position: a table over who led, not arithmetic modulo n
            at_cards = [by_leader(lambda x, o, j=j, c=cards: self._at(x, o, j, c, enc.bv(0)))
                        for j in range(n)]
            at_named = [by_leader(lambda x, o, j=j, d=named: self._at(x, o, j, d, enc.int(NO_SUIT)))
                        for j in range(n)]
            if beats:
                beating = self._beating(k, leader, pos_of, seat_at, cards, at_cards, at_named,
                                        hands, tv_trick, led, by_leader, trump)
            faces = []
            for s in range(n):
                leading = leader == s
                values = ({key: enc.select(pos_of[s], [v[key] for v in at_position])
                           for key in tv} if announces else tv)
                env = {**base, **values, Ctx.SEAT: enc.int(s), Ctx.HAND: hands[s],
                       Ctx.IS_LEADING: leading, Ctx.LED_SUIT: z3.If(leading, enc.int(NO_SUIT), led),
                       Ctx.TRICK_NUMBER: enc.int(k), Ctx.POSITION: pos_of[s],
                       Ctx.ASIDE: aside[s], Ctx.LEADER: leader}
                if beats:
                    env[Ctx.BEATING] = beating[s]

                def plays(legal_env: dict[Any, Any], card: Any = cards[s], s: int = s) -> Any:
                    legal = Z3Compiler(enc, legal_env).visit(D.legal_cards(game))
                    each = z3.And(enc.one_hot(card), card & ~legal == 0)
                    return (z3.If(z3.Or(absent[s], self.all_out), card == 0, each)
                            if varies else each)
                if beats:
                    # the card is legal, a fact assumed once the search needs it; until
                    # then legal as if no card could beat the trick (see _check)
                    fact = plays(env)
                    self.exact.append((enc.bool_var(f"legal_{k}_{s}"), fact))
                    self.facts += [z3.Implies(self.exact[-1][0], fact), z3.Implies(
                        self.relaxed, plays({**env, Ctx.BEATING: enc.bv(0)}))]
                else:
                    self.facts.append(plays(env))
                with_card = {**env, Ctx.CARD: cards[s], Ctx.DECLARED: named[s]}
                self.play_envs.append((k, s, with_card))
                needs = Z3Compiler(enc, with_card).visit(D.needs_declaration(game))
                ok = Z3Compiler(enc, with_card).visit(D.declaration_ok(game))
                self.facts.append(z3.If(needs, z3.And(ok, z3.Or([named[s] == ch for ch in choices]
                                                                or [enc.bool(False)])),
                                        named[s] == NO_SUIT))
                faces.append(Z3Compiler(enc, with_card).visit(face_down) if face_down is not None
                             else enc.bool(False))
            trick = {**base, **tv_trick, Ctx.TRICK_NUMBER: enc.int(k), Ctx.LEADER: leader,
                     Ctx.TRICK_SIZE: size}
            for j in range(n):
                trick[(Ctx.PLAYED_CARD, j)] = at_cards[j]
                trick[(Ctx.PLAYED_DECLARED, j)] = at_named[j]
                trick[(Ctx.PLAYED_FACE_DOWN, j)] = by_leader(
                    lambda x, o, j=j, f=faces: self._at(x, o, j, f, enc.bool(False)))
            self.trick_envs.append((k, trick))
            w = Z3Compiler(enc, trick).visit(D.trick_winner(game))
            winner = by_leader(lambda x, o, w=w: enc.select(
                w, [enc.int(seat) for seat in self.eng.seats_among(x, o)]))
            # nobody defends: no play, and the declarer is credited with every trick
            winner = z3.If(self.all_out, self.declarer, winner)
            self.facts += [winner >= 0, winner < n]
            # the updates at the end of the trick all read the values before them
            comp = Z3Compiler(enc, trick)
            new = dict(tv_trick)
            for body in updates:
                assert isinstance(body, K.Update)
                cond = comp.visit(body.when)
                for name, value in body.sets:
                    key = ("tracked", name)
                    new[key] = z3.If(cond, comp.visit(value), new[key])
            tv = new
            played = [p | c for p, c in zip(played, cards)]
            if k < game.tricks:
                held, laid = self._after_status(k + 1, tv, held, laid, status)
            self.cards.append(cards)
            self.named.append(named)
            self.leaders.append(leader)
            self.winners.append(winner)
            self.position_seats.append(seat_at)
            self.announced.append(made)
            leader = winner
        self.final_tracked = tv

    def _decide(self, tv: dict[Any, Any], status: Any) -> dict[Any, Any]:
        """A seat's choice before the first lead: one of the rule's options, allowed when
        its condition holds; the tracked values after it."""
        enc = self.enc
        body = self.game.constructs(K.Decide)[0][1]
        assert isinstance(body, K.Decide)
        choice = enc.int_var("decision")
        comp = Z3Compiler(enc, status(1, tv))
        self.facts += [choice >= 0, choice < len(body.options)]
        new = dict(tv)
        for i, option in enumerate(body.options):
            self.facts.append(z3.Implies(choice == i, comp.visit(option.when)))
            for name, value in option.sets:
                key = ("tracked", name)
                new[key] = z3.If(choice == i, comp.visit(value), new[key])
        self.decision = (choice, tuple(o.name for o in body.options))
        return new

    def _exchange(self, held: list[Any], status: dict[Any, Any], when: Expr | None) -> list[Any]:
        """The hands after the exchange (:func:`~verifier._z3.encoding.exchange`), the
        declarer taking the talon when the rule's condition holds."""
        enc = self.enc
        dealt: Any = enc.bv(0)
        for h in self.owners.hands:
            dealt = dealt | h
        talon = enc.bv((1 << len(self.game.deck)) - 1) & ~dealt
        takes = enc.bool(True) if when is None else Z3Compiler(enc, status).visit(when)
        after, discards, facts = exchange(enc, held, talon, self.declarer, takes)
        self.facts += facts
        self.exchange = (takes, discards)
        return after

    def _beating(self, k: int, leader: Any, pos_of: list[Any], seat_at: list[Any],
                 cards: list[Any], at_cards: list[Any], at_named: list[Any], hands: list[Any],
                 values: dict[Any, Any], led: Any, by_leader: Any, trump: Any) -> list[Any]:
        """The cards of each seat's hand that would win trick ``k`` when its turn comes
        (none for the leader).  With a strength table (the led suit ``led`` and trumps
        decide), each seat's hand and the cards played before it are read directly, not
        through the seat at a position: Z3 solves that far faster."""
        enc, n = self.enc, self.n
        table = strength_table(enc)
        if table is not None:  # the lead's suit and trumps decide: card sets, no arithmetic
            stronger = not_beaten_by(enc, table, led, trump)

            def cards_before(s: int, x: int, m: int) -> Any:
                seats = self.eng.seats_among(x, m)
                out: Any = enc.bv(0)
                for t in seats[:seats.index(s)] if s in seats else ():
                    out = out | cards[t]
                return out

            return [beating_of(enc, hands[s], by_leader(lambda x, m, s=s: cards_before(s, x, m)),
                               stronger) for s in range(n)]
        # else the shared encoding, position by position
        judge = {**self.base, **values, Ctx.TRUMP: trump, Ctx.TRICK_NUMBER: enc.int(k),
                 Ctx.LEADER: leader, Ctx.CONTRACT: self.contract}
        at_position = [beating_term(enc, judge, enc.select(seat_at[j], hands), at_cards[:j],
                                    at_named[:j]) for j in range(n)]
        return [enc.select(pos_of[s], at_position) for s in range(n)]

    def legal(self) -> list[Any]:
        """The literals that make every card played legal by the exact facts."""
        return [g for g, _f in self.exact]

    def _seat_at(self, leader: int, out: int, j: int) -> Any:
        seats = self.eng.seats_among(leader, out)
        return self.enc.int(seats[j] if j < len(seats) else -1)

    def _at(self, leader: int, out: int, j: int, per_seat: list[Any], none: Any) -> Any:
        """What the seat at position ``j`` of a trick led by ``leader`` played (``out``:
        a bit per seat out of the play)."""
        seats = self.eng.seats_among(leader, out)
        return per_seat[seats[j]] if j < len(seats) else none

    def _position_of(self, leader: int, out: int, seat: int) -> Any:
        seats = self.eng.seats_among(leader, out)
        return self.enc.int(seats.index(seat) if seat in seats else 0)

    def _present_after(self, seat: Any, absent: list[Any]) -> Any:
        """The first seat from ``seat`` on, in the direction of play, in the play."""
        enc, n = self.enc, self.n
        out: Any = seat
        for d in reversed(range(n)):
            at = (seat + d) % n
            out = z3.If(z3.Not(enc.select(at, absent)), at, out)
        return out

    def _trumps(self, status: dict[Any, Any]) -> None:
        """Trumps as the game's ``TrumpIs`` rules state them in ``status``."""
        self.trump = self.base[Ctx.TRUMP] = Z3Compiler(self.enc, status).visit(D.trump(self.game))

    def _drop_out(self, status: dict[Any, Any], when: Expr | None) -> None:
        """The defenders' choices, when the drop-out rule applies: each may leave the
        play (not every one when the last must play); with exactly one left of two, the one
        who stayed may invite him back as his guest."""
        enc, n = self.enc, self.n
        body = self.game.one(K.DropOut)
        assert isinstance(body, K.DropOut)
        comp = Z3Compiler(enc, status)
        takes = comp.visit(body.when) if when is None else z3.And(comp.visit(body.when),
                                                                  comp.visit(when))
        defends = [z3.And(self.declarer != s, enc.bool(self.idle != s)) for s in range(n)]
        leaves = [enc.bool_var(f"leaves_{s}") for s in range(n)]
        self.facts += [z3.Implies(leaves[s], z3.And(defends[s], takes)) for s in range(n)]
        count = z3.Sum([z3.If(d, enc.int(1), enc.int(0)) for d in defends])
        left = z3.Sum([z3.If(x, enc.int(1), enc.int(0)) for x in leaves])
        if body.all_out is K.AllOut.LAST_MUST_PLAY:
            self.facts.append(left < count)
        else:
            self.all_out = left == count
        invites: Any = enc.bool(False)
        if body.invite:
            invites = enc.bool_var("invites")
            self.facts.append(z3.Implies(invites, z3.And(left == 1, count == 2)))
        self.dropped = [z3.And(x, z3.Not(invites)) for x in leaves]
        self.invited = [z3.And(x, invites) for x in leaves]
        self.drop_out = (takes, comp.visit(body.first), leaves, invites)

    def _no_void(self, number: int, values: dict[Any, Any], status: Any) -> None:
        """A scenario is a deal played out: no rule voids it on the way."""
        comp = Z3Compiler(self.enc, status(number, values))
        self.facts += [z3.Not(comp.visit(b.when)) for _r, b in self.game.constructs(K.VoidWhen)]  # type: ignore[attr-defined]

    def _after_status(self, number: int, values: dict[Any, Any], held: list[Any],
                      laid: list[Any], status: Any) -> tuple[list[Any], list[Any]]:
        """What the engine does after a change of state: no void deal, and the cards aside
        back in their owners' hands when the rule says so."""
        self._no_void(number, values, status)
        backs = [b.returns_when for _r, b in self.set_aside.values()]
        if not backs:
            return held, laid
        enc = self.enc
        # (cards aside already played are no longer held either way)
        back = Z3Compiler(enc, status(number, values)).visit(backs[0])
        return ([z3.If(back, h | a, h) for h, a in zip(held, laid)],
                [z3.If(back, enc.bv(0), a) for a in laid])

    def _initial(self, track: K.Track) -> Any:
        return tracked_initial(self.enc, track)

    def history(self, rows: list[dict[str, Any]] | None = None) -> dict[Any, Any]:
        """The environment a scenario is judged in; with the auction's ``rows`` (from
        :meth:`auction`), who made each call too."""
        enc = self.enc
        winners, leaders = self.winners, self.leaders

        def by_trick(items: list[Any], trick: Any) -> Any:
            return enc.select(trick, items, keys=list(range(1, len(items) + 1)))

        def played(trick: Any, seat: Any) -> Any:
            return by_trick([enc.select(seat, cards) for cards in self.cards], trick)

        def taken(seat: Any) -> Any:
            out: Any = enc.bv(0)
            for cards, w in zip(self.cards, winners):
                all_cards = cards[0]
                for c in cards[1:]:
                    all_cards = all_cards | c
                out = out | z3.If(w == seat, all_cards, enc.bv(0))
            return out

        return {
            **self.base, **self.final_tracked,
            WonTrick: lambda seat, number: by_trick([w == seat for w in winners], number)
            if not z3.is_int_value(number) else (winners[number.as_long() - 1] == seat
                                                 if 1 <= number.as_long() <= len(winners)
                                                 else enc.bool(False)),
            Taken: taken, PlayedTo: played,
            LedTo: lambda trick: by_trick([enc.select(ld, cards) for ld, cards
                                           in zip(leaders, self.cards)], trick),
            # a deal without play (nobody defends) has neither leaders nor winners
            LeaderOf: lambda trick: by_trick([z3.If(self.all_out, enc.int(-1), x)
                                              for x in leaders], trick),
            WinnerOf: lambda trick: by_trick([z3.If(self.all_out, enc.int(-1), x)
                                              for x in winners], trick),
            Ctx.TRICK_NUMBER: enc.int(self.game.tricks + 1),
            Ctx.SEAT: enc.int(0),
            **({CallerOf: lambda k: enc.select(k, [r["seat"] for r in rows] + [enc.int(-1)],
                                               keys=list(range(1, len(rows) + 1)) + [-1])}
               if rows is not None else {}),
        }

    def auction(self, calls: tuple[int, ...]) -> tuple[list[Any], list[dict[str, Any]]]:
        """Facts for an auction of ``calls[k]`` calls in stage k + 1 that ends with this
        contract, declarer, trumps and cards aside; and every call's row."""
        enc, game, n = self.enc, self.game, self.n
        stage_cards = self._stage_cards()
        facts: list[Any] = []
        rows_all: list[dict[str, Any]] = []
        aside: list[Any] = [enc.bv(0)] * n
        trump: Any = enc.int(NO_SUIT)
        standing: Any = None
        high: Any = None
        for k, count in enumerate(calls, start=1):
            prefix = f"s{k}_" if len(calls) > 1 else ""
            f, rows, dealer = _auction_steps(enc, count, k, prefix)
            facts += list(f) + [dealer == self.dealer]
            facts += [enc.cards_var(f"{prefix}hand_{s}") == stage_cards[k - 1][s] & ~aside[s]
                      for s in range(n)]
            for name, value in self.tracked0.items():  # no announcement in the auction
                var = (enc.bool_var if z3.is_bool(value) else enc.int_var)(f"{prefix}tv_{name[1]}")
                facts.append(var == value)
            if k > 1:
                facts += [enc.int_var(f"{prefix}standing_0") == standing,
                          enc.int_var(f"{prefix}high_0") == high]
                if game.program.partner_by_call:  # an acceptance carries over
                    facts.append(enc.int_var(f"{prefix}accepter_0")
                                 == rows_all[-1]["accepter_after"])
            facts += [r["legal"] for r in rows]
            facts += [z3.Not(r["ends"]) for r in rows[:-1]] + [rows[-1]["ends"], rows[-1]["has_after"]]
            for r in rows:
                standing = z3.If(r["is_bid"], r["bid"], standing if standing is not None
                                 else enc.int(-1))
            high = rows[-1]["high_after"]
            if not game.constructs(K.ProxyCall):
                facts += [z3.Not(r["proxy"]) for r in rows]
            rows_all += rows
            lay_rule = self.set_aside.get(k)
            if lay_rule is not None:
                body = lay_rule[1]
                after = rows[-1]["after"]
                env = {**after, Ctx.SEAT: (rows[-1]["seat"] + 1) % n, Ctx.PROXY: enc.bool(False)}
                env[Ctx.HAND] = enc.select(env[Ctx.SEAT], [c & ~a for c, a in zip(stage_cards[k - 1], aside)])
                env[Ctx.SEAT_CALLS] = enc.int(0)
                env[Ctx.SEAT_PASSED] = enc.bool(False)
                lays = Z3Compiler(enc, env).visit(body.when)
                card = enc.cards_var(f"lay_{k}")
                if body.count != 1:
                    raise NotationError(f"{game.name}: Z3 unrolls a card laid aside one at a time only")
                # cards laid aside before go back to their owners first
                held = enc.select(high, stage_cards[k - 1])
                facts += [z3.Implies(lays, z3.And(enc.one_hot(card), card & ~held == 0))]
                aside = [z3.If(lays, z3.If(high == s, card, enc.bv(0)), aside[s]) for s in range(n)]
                if body.names_trump:
                    suit = Z3Compiler(enc, {Ctx.CARD: card}).visit(Ref(Ctx.CARD).suit)
                    trump = z3.If(lays, suit, trump)
                rows[-1]["lay"] = (lays, card)
        facts += [standing == self.contract, high == self.declarer]
        if game.program.several_declarers:  # the seats that joined the final bid
            joined = [enc.bool(False)] * n
            for r in rows_all:
                renew = z3.And(r["is_bid"], z3.Not(r["joins"]), z3.Not(r["accepts"]))
                joined = [z3.Or(z3.And(r["joins"], r["seat"] == s),
                                z3.And(z3.Not(renew), joined[s])) for s in range(n)]
            facts += [d == z3.Or(self.declarer == s, joined[s])
                      for s, d in enumerate(self.declares)]
        if game.program.partner_by_call:
            facts.append(self.accepter == rows_all[-1]["accepter_after"])
        facts += [a == b for a, b in zip(aside, self.aside0)] if self.set_aside else []
        if self.eng.trump_from_aside:
            facts.append(trump == self.trump)
        return facts, rows_all

    def _stage_cards(self) -> list[list[Any]]:
        """Each seat's cards by the end of each dealing stage: the lowest-numbered cards of a
        hand come first, as the engine splits hands given whole."""
        enc, game = self.enc, self.game
        dealt = self.owners.hands
        stages = self.eng.stages
        if stages == 1:
            return [list(dealt)]
        owner = self.owners.owner
        sizes = [sum(d.packets) for d in self.eng._deals]  # type: ignore[union-attr]
        before = [z3.Sum([z3.If(owner[j] == owner[i], enc.int(1), enc.int(0)) for j in range(i)])
                  if i else enc.int(0) for i in range(len(game.deck))]
        out = []
        total = 0
        for k in range(stages):
            total += sizes[k]
            if k == stages - 1:
                out.append(list(dealt))
                break
            mask = [z3.If(before[i] < total, enc.bv(1 << i), enc.bv(0)) for i in range(len(game.deck))]
            early: Any = mask[0]
            for m in mask[1:]:
                early = early | m
            out.append([d & early for d in dealt])
        return out


def _call_counts(u: _Unrolled, most: int) -> list[tuple[int, ...]]:
    """The numbers of calls in each auction stage worth trying, fewest in all first: each
    stage's count must let that stage's auction end on its own."""
    enc = u.enc
    possible = []
    for stage in range(1, u.game.stages + 1):
        ok = []
        for calls in range(1, most + 1):
            facts, rows, _dealer = _auction_steps(enc, calls, stage, f"probe{stage}_{calls}_")
            s = u.solving.solver()
            s.add(*facts, *[r["legal"] for r in rows], *[z3.Not(r["ends"]) for r in rows[:-1]],
                  rows[-1]["ends"], rows[-1]["has_after"])
            if u.solving.sat(s):
                ok.append(calls)
        possible.append(ok)
    counts = [c for c in itertools.product(*possible) if sum(c) <= most]
    return sorted(counts, key=lambda c: (sum(c), c))


def _fewest_calls(u: _Unrolled, most: int) -> list[tuple[int, ...]]:
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


def _decode(u: _Unrolled, model: z3.ModelRef, rows: list[dict[str, Any]]) -> tuple[tuple[int, ...], list[Action]]:
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
    # the phases between the auction and the play, in the program's order
    for phase in game.program.phases:
        if phase.kind is PhaseKind.EXCHANGE and u.exchange is not None and value(u.exchange[0]):
            mask = value(u.exchange[1])
            actions += [Discard(c) for i, c in enumerate(game.deck) if mask >> i & 1]
        elif phase.kind is PhaseKind.DECIDE and u.decision is not None:
            choice, names = u.decision
            actions.append(Declare(names[value(choice)]))
        elif phase.kind is PhaseKind.DROP_OUT and u.drop_out is not None:
            actions += _drop_out_actions(u, value)
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


def _drop_out_actions(u: _Unrolled, value: Callable[[Any], Any]) -> list[Action]:
    """The defenders' choices in the engine's order: from the rule's first seat, past the
    declarer and the idle seat; then the host's, when exactly one left."""
    assert u.drop_out is not None
    takes, first, leaves, invites = u.drop_out
    if not value(takes):
        return []
    body = u.game.one(K.DropOut)
    assert isinstance(body, K.DropOut)
    n, declarer = u.n, value(u.declarer)
    order = [k for k in ((value(first) + j) % n for j in range(n))
             if k != declarer and k != u.idle]
    left = [k for k in order if value(leaves[k])]
    out: list[Action] = [Declare(body.leave if k in left else body.stay) for k in order]
    if body.invite and len(left) == 1 and len(order) == 2:
        out.append(Declare(body.invite if value(invites) else body.alone))
    return out


# ``method="auto"`` looks among this many deals played by bots before it asks Z3 (a count,
# not a time, so that one seed gives the same deals on any machine); ``"rejection"`` looks
# among at most ``REJECTION_DEALS`` (and ``timeout`` seconds) and never asks Z3
QUICK_DEALS = 2_000
REJECTION_DEALS = 100_000
METHODS = ("auto", "z3", "rejection")


def played_deals(game: Game, *, seed: int, seconds: float, most: int,
                 dealer: int | None = None, lowest: bool = False
                 ) -> Iterator[tuple[State, str]]:
    """Whole deals played by bots from seeds ``seed``, ``seed + 1``, ... (at most ``most``
    of them, or as many as ``seconds`` allow), each with how it was played.

    Random bots and modest ones (:func:`~spec.engine.modest_bot`: low contracts, no
    announcement unless demanded) take turns, so that situations rare among random
    auctions, a low contract made or a deal without announcements, turn up as well; with
    ``lowest``, bots that bid the lowest legal bid (:func:`~spec.engine.lowest_bot`) take
    every third deal, for the contracts at the foot of the ladder.
    """
    kinds = ((random_bot, ""), (modest_bot, ", modest bots"),
             *([(lowest_bot, ", bots bidding low")] if lowest else []))
    start = time.perf_counter()
    for k in range(most):
        if k and time.perf_counter() - start > seconds:
            return
        bot, how = kinds[k % len(kinds)]
        state = play_deal(game, seed=seed + k, dealer=dealer, bots=[bot] * game.players)
        yield state, f"random deals ({k + 1}{how})"


def scenarios_where(game: Game, where: Expr, *, n: int = 1, seed: int = 0,
                    dealer: int | None = None, timeout: float = 120.0,
                    rlimit: int | None = None, max_calls: int | None = None,
                    on_found: Callable[[State], None] | None = None,
                    method: str = "z3") -> Scenario:
    """``n`` distinct deals, each with a complete legal sequence of calls and cards, that
    make ``where`` true; every one replayed by the engine, and passed to ``on_found`` as
    soon as it is.  ``timeout`` and ``rlimit`` bound each Z3 query.

    ``method``: ``"z3"`` unrolls the deal in Z3; ``"rejection"`` judges deals played by
    bots (:func:`played_deals`) with the engine, and never answers ``impossible``;
    ``"auto"`` looks among the first :data:`QUICK_DEALS` of those, then asks Z3 for the
    rest.  A deal counts when it was dealt once (no deal thrown in before it) and played
    out (not voided), as Z3 unrolls deals.

    Raises:
        NotationError: Z3 cannot unroll the game's deals yet (see :func:`unsupported`),
            and the deals played by bots did not give ``n`` deals.
        ReplayMismatchError: the engine does not reach the scenario Z3 found (a bug).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    start = time.perf_counter()
    test = history_test(game, where)
    dealer = game.players - 1 if dealer is None else dealer
    states: list[State] = []
    dealt = played = 0
    if method != "z3":
        most = QUICK_DEALS if method == "auto" else REJECTION_DEALS
        seen: set[tuple[int, ...]] = set()
        for state, _how in played_deals(game, seed=seed * most, dealer=dealer, most=most,
                                        seconds=timeout, lowest=True):
            dealt += 1
            if (state.thrown_in or state.void or state.dealt in seen or state.dealer != dealer
                    or not test(state)):
                continue
            seen.add(state.dealt)
            states.append(state)
            if on_found is not None:
                on_found(state)
            if len(states) == n:
                break
        played = len(states)
        if played == n or method == "rejection":
            took = time.perf_counter() - start
            if len(states) == n:
                return Scenario("found", states, "", took, "rejection")
            some = f"only {len(states)}" if states else "none"
            return Scenario("unknown", states, f"{some} among {dealt} deals played by bots "
                            "(rejection)", took, "rejection")
    result = solve_scenarios(game, lambda u, rows: Z3Compiler(u.enc, u.history(rows)).visit(where),
                             lambda state, _model, _rows: test(state), n=n, seed=seed,
                             dealer=dealer, timeout=timeout, rlimit=rlimit, max_calls=max_calls,
                             on_found=on_found, found=states)
    if played:
        result.method = "rejection+z3" if len(result.states) > played else "rejection"
    result.seconds = time.perf_counter() - start
    return result


def solve_scenarios(game: Game, claim_of: Any, confirm: Any, *, n: int = 1, seed: int = 0,
                    dealer: int | None = None, timeout: float = 120.0,
                    rlimit: int | None = None, max_calls: int | None = None,
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
    u = _Unrolled(game, solving, dealer)
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
        return Scenario("impossible", [], f"no auction of at most {max_calls} calls{quiet} "
                        "ends with a contract", time.perf_counter() - start)
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
        if found is None:
            status = "found" if states else "impossible"
            return Scenario(status, states, f"no deal makes it true with an auction of at most "
                            f"{max_calls} calls{quiet}" if not states else
                            f"only {len(states)} deal{'s make' if len(states) > 1 else ' makes'}"
                            " it true",
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


def _block(u: _Unrolled, s: Any, hands: Any) -> None:
    """No deal of these hands again."""
    s.add(z3.Not(z3.And(*[h == u.enc.bv(m) for h, m in zip(u.owners.hands, hands)])))




def _check(u: _Unrolled, s: Any, keep: list[Any], refined: list[Any]) -> Any:
    """Z3's answer with the literals ``keep`` assumed.  When the play's legality is guarded
    (see ``_Unrolled.exact``), the search assumes the relaxed legality and the exact one
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


def _start(u: _Unrolled, model: z3.ModelRef, hands: Any, dealer: int, seed: int) -> State:
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
        u = _Unrolled(game, solving, dealer)
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
