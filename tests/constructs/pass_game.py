"""A test game with a phase no registered game has: before the play each seat passes three
cards to the seat on its left, face down, as in Hearts; then a plain auction's contract is
played out.  Four hands of eight from a 32-card pack.

The card pass is a phase of the game's own: the construct (:class:`PassCards`) and the
block that writes its steps are stated here, in the game module, and every back end reads
it through those steps alone.  ``test_own_phases.py`` plays and proves the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from spec.cards import PIQUET_32
from spec.dsl import (
    SUITS,
    AuctionTurns,
    BidOrder,
    Claim,
    DealerRotation,
    DealPackets,
    DeckIs,
    Direction,
    Expr,
    Game,
    HighestBidderDeclares,
    Ladder,
    MatchLength,
    MatchOf,
    PlayDirection,
    RankOrder,
    RedealIfNoBid,
    Rule,
    Scope,
    ScoreRule,
    Seats,
    Shuffle,
    SidesByContract,
    TrickPlay,
    TrickValue,
    assumption,
    bid,
    const,
    contract,
    dealer,
    declarer,
    if_then_else,
    partner,
    ranks,
    score_of,
    seat,
    seat_after,
    tricks_won,
)
from spec.dsl import _steps as S
from spec.dsl._constructs import PhaseConstruct
from spec.dsl.blocks import ends_after_passes, follow_suit, led_suit_wins, overcall, trumps_win

PLAYERS = 4
HAND = 8


@dataclass(frozen=True, slots=True, eq=False)
class PassCards(PhaseConstruct):
    """Once the contract is settled, each seat in turn from ``first`` (scope: STATUS)
    passes ``count`` cards of his hand, one at a time and face down, towards the seat on
    his left; when every seat has passed, each takes up the cards passed to him."""

    kind: ClassVar[str] = "pass"
    actor: ClassVar[str] = "each seat in turn, from the first, in the direction of play"
    action: ClassVar[str] = "pass a card to the left"
    scopes: ClassVar[dict[str, Scope]] = {"first": Scope.STATUS}

    first: Expr
    count: int = 3

    def steps(self, w: Any, phase: Any) -> tuple[S.Step, ...]:
        turn, aside = S.Get("turn"), S.Get("aside")
        mine = S.Only(turn, S.Acted())
        # the cards a seat has passed lie face down before him until all have passed
        passed_all: S.Value = S.Lit(True)
        for s in range(w.players):
            passed_all = S.Op("and", passed_all,
                              S.AtLeast(S.Count(S.At(aside, S.Lit(s))), S.Lit(self.count)))
        passing = S.Step(
            "pass", self.kind, None, phase.opened_by, "pass a card of his hand to his left",
            enter=(S.Set("turn", S.Stated(self.first, "status", "first_to_pass",
                                          phase.opened_by)),),
            actor=turn, legal=phase.rules, ends=passed_all, card="lay",
            effects=(S.Fire(phase.opened_by), S.Set("hands", S.Less(S.Get("hands"), mine)),
                     S.Set("aside", S.Joined(aside, mine)), S.Record(turn),
                     S.When(S.AtLeast(S.Count(S.At(aside, turn)), S.Lit(self.count)),
                            (S.Set("turn", S.After(turn)),))))
        # each seat takes up what the seat on his right passed him
        taking = S.Step("take up", None, None, phase.opened_by, None, enter=(
            *(S.Set("hands", S.Joined(S.Get("hands"), S.Only(S.After(S.Lit(s)),
                                                             S.At(aside, S.Lit(s)))))
              for s in range(w.players)),
            S.Set("aside", S.Lit(0, per_seat=True))))
        return passing, taking


def _rule(rid: str, ref: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=assumption(ref, "a test game"), body=body)


_SIDE_TRICKS = tricks_won(declarer) + tricks_won(partner(declarer))
_MADE = _SIDE_TRICKS >= contract.level
RULES = (
    _rule("setup.seats", "PAS-SETUP-1", "Four play, partners sitting opposite.",
          Seats(("North", "East", "South", "West"), partnerships=((0, 2), (1, 3)))),
    _rule("setup.clockwise", "PAS-SETUP-2", "Dealing, passing, bidding and play go clockwise.",
          PlayDirection(Direction.CLOCKWISE)),
    _rule("setup.sides", "PAS-SETUP-3", "The declarer plays with his partner.",
          SidesByContract(declarer_alone=False)),
    _rule("deck.cards", "PAS-DECK-1", "A 32-card pack, ace high to seven.", DeckIs(PIQUET_32)),
    _rule("deck.rank_order", "PAS-DECK-2", "Ace, king, queen, jack, ten, nine, eight, seven.",
          RankOrder(ranks("A K Q J 10 9 8 7"))),
    _rule("deck.trick_value", "PAS-DECK-3", "Each trick counts one.", TrickValue(const(1))),
    _rule("deal.shuffle", "PAS-DEAL-1", "The dealer shuffles the pack before every deal.",
          Shuffle()),
    _rule("deal.packets", "PAS-DEAL-2", "Four cards each from the dealer's left, then four.",
          DealPackets((4, 4), first=seat_after(dealer))),
    _rule("deal.next_dealer", "PAS-DEAL-3", "The deal passes to the left.", DealerRotation(1)),
    _rule("auction.turns", "PAS-AUC-1", "The dealer's left calls first; the auction ends after "
          "three passes in a row following a bid, or four passes.",
          AuctionTurns(first=seat_after(dealer), ends_when=ends_after_passes(3, 4))),
    _rule("auction.bids", "PAS-AUC-2", "A bid is five to eight tricks for the side, in a suit "
          "or no trumps.", Ladder(levels=tuple(range(5, HAND + 1)), strains=(*SUITS, None))),
    _rule("auction.bid_order", "PAS-AUC-3", "More tricks beat fewer; then no trumps, spades, "
          "hearts, diamonds, clubs.", BidOrder(key=5 * bid.level + bid.strain_rank)),
    _rule("auction.overcall", "PAS-AUC-4", "A bid must beat the highest bid so far.", overcall()),
    _rule("auction.declarer", "PAS-AUC-5", "The highest bidder declares; his strain is trumps.",
          HighestBidderDeclares()),
    _rule("auction.all_pass", "PAS-AUC-6", "If all pass the next dealer deals.", RedealIfNoBid(1)),
    _rule("pass.cards", "PAS-PASS-1", "Once the contract is known, each player from the "
          "declarer on passes three cards face down to the player on his left, who takes them "
          "up when all have passed.", PassCards(first=declarer)),
    _rule("play.tricks", "PAS-PLAY-1", "Eight tricks; the declarer's left leads to the first.",
          TrickPlay(first_lead=seat_after(declarer))),
    _rule("play.follow_suit", "PAS-PLAY-2", "Follow suit if you can.", follow_suit()),
    _rule("play.trumps_win", "PAS-PLAY-3", "The highest trump wins.", trumps_win()),
    _rule("play.led_suit_wins", "PAS-PLAY-4", "Otherwise the highest card of the led suit wins.",
          led_suit_wins()),
    _rule("score.side", "PAS-SCORE-1", "A side that makes its bid scores its level; otherwise "
          "the other side scores it.",
          ScoreRule(when=const(True), amount=if_then_else(
              (seat == declarer) | (seat == partner(declarer)),
              if_then_else(_MADE, contract.level, -contract.level),
              if_then_else(_MADE, -contract.level, contract.level)))),
    _rule("score.zero_sum", "PAS-SCORE-2", "What one side wins the other loses.",
          Claim(Scope.OUTCOME, score_of(0) + score_of(1) + score_of(2) + score_of(3) == 0)),
    _rule("play.eight_tricks", "PAS-PLAY-5", "The eight tricks go to the four seats.",
          Claim(Scope.OUTCOME, tricks_won(0) + tricks_won(1) + tricks_won(2) + tricks_won(3)
                == HAND)),
    _rule("game.match", "PAS-GAME-1", "A match is a number of deals; the highest total wins.",
          MatchOf()),
    _rule("game.length", "PAS-GAME-2", "Four deals, one for each dealer.", MatchLength(deals=4)),
)

GAME = Game(name="Card pass test game", key="pass_test", ref_prefix="PAS", doc=__doc__ or "",
            rules=RULES)
