"""A test game with a phase no registered game has: after a first round of calls, the two
highest bidders alone bid again, in turn, until one of them passes.  Four play, each for
himself, with hands of eight from a 32-card pack.

The second round is a phase of the game's own: the construct (:class:`HighestTwoBidOn`)
and the block that writes its steps are stated here, in the game module, and every back
end reads it through those steps alone.  ``test_own_phases.py`` plays and proves the game.
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
class HighestTwoBidOn(PhaseConstruct):
    """After the first round of calls, where a second seat made a bid, the highest bidder
    and the seat that made the highest bid of the others bid on: from the latter, in turn,
    each beats the standing bid or passes, and the first pass ends the auction.  The rules
    of a call are the auction's."""

    kind: ClassVar[str] = "bidding on"
    actor: ClassVar[str] = "the two highest bidders in turn, the lower first"
    action: ClassVar[str] = "call"
    before_contract: ClassVar[bool] = True

    def steps(self, w: Any, phase: Any) -> tuple[S.Step, ...]:
        keys = w.game.bid_keys
        by_key = (*((b, k) for b, k in enumerate(keys)), (-1, min(keys) - 1))
        # the highest call of a seat that does not hold the standing bid
        second = S.Best(S.Get("calls"), by_key, outside=S.Bit(S.Get("high_bidder")))
        every = S.Lit((1 << w.players) - 1)
        runner_up = S.Item(second, 0)
        enter: tuple[S.Effect, ...] = (
            S.Fire(phase.opened_by),
            S.Set("passed", S.Op("^", every, S.Op("|", S.Bit(S.Get("high_bidder")),
                                                  S.Bit(runner_up)))),
            S.Set("turn", runner_up), S.Set("passes_in_row", S.Lit(0)))
        over = S.AtLeast(S.Get("passes_in_row"), S.Lit(1))
        return (S.Step("bidding on", self.kind, None, phase.opened_by, "call",
                       when=S.AtLeast(S.Item(second, 1), S.Lit(0)), enter=enter,
                       actor=S.Get("turn"), legal=w.program.phases[0].rules,
                       ends=S.Local("over"),
                       effects=S.call_effects(w, over, outside=S.Get("passed"))),)


def _rule(rid: str, ref: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=assumption(ref, "a test game"), body=body)


_MADE = tricks_won(declarer) >= contract.level
RULES = (
    _rule("setup.seats", "RND-SETUP-1", "Four play, each for himself.",
          Seats(("North", "East", "South", "West"))),
    _rule("setup.clockwise", "RND-SETUP-2", "Dealing, bidding and play go clockwise.",
          PlayDirection(Direction.CLOCKWISE)),
    _rule("setup.declarer_alone", "RND-SETUP-3", "The declarer plays alone against the others.",
          SidesByContract(declarer_alone=True)),
    _rule("deck.cards", "RND-DECK-1", "A 32-card pack, ace high to seven.", DeckIs(PIQUET_32)),
    _rule("deck.rank_order", "RND-DECK-2", "Ace, king, queen, jack, ten, nine, eight, seven.",
          RankOrder(ranks("A K Q J 10 9 8 7"))),
    _rule("deck.trick_value", "RND-DECK-3", "Each trick counts one.", TrickValue(const(1))),
    _rule("deal.shuffle", "RND-DEAL-1", "The dealer shuffles the pack before every deal.",
          Shuffle()),
    _rule("deal.packets", "RND-DEAL-2", "Four cards each from the dealer's left, then four.",
          DealPackets((4, 4), first=seat_after(dealer))),
    _rule("deal.next_dealer", "RND-DEAL-3", "The deal passes to the left.", DealerRotation(1)),
    _rule("auction.turns", "RND-AUC-1", "The dealer's left calls first; the first round ends "
          "after three passes in a row following a bid, or four passes.",
          AuctionTurns(first=seat_after(dealer), ends_when=ends_after_passes(3, 4))),
    _rule("auction.bids", "RND-AUC-2", "A bid is two to eight tricks, in a suit or no trumps.",
          Ladder(levels=tuple(range(2, HAND + 1)), strains=(*SUITS, None))),
    _rule("auction.bid_order", "RND-AUC-3", "More tricks beat fewer; then no trumps, spades, "
          "hearts, diamonds, clubs.", BidOrder(key=5 * bid.level + bid.strain_rank)),
    _rule("auction.overcall", "RND-AUC-4", "A bid must beat the highest bid so far.", overcall()),
    _rule("auction.bid_on", "RND-AUC-5", "Where two players or more bid, the highest bidder and "
          "the next highest bid on, the lower first, until one of them passes.",
          HighestTwoBidOn()),
    _rule("auction.declarer", "RND-AUC-6", "The highest bidder declares; his strain is trumps.",
          HighestBidderDeclares()),
    _rule("auction.all_pass", "RND-AUC-7", "If all pass the next dealer deals.", RedealIfNoBid(1)),
    _rule("play.tricks", "RND-PLAY-1", "Eight tricks; the declarer's left leads to the first.",
          TrickPlay(first_lead=seat_after(declarer))),
    _rule("play.follow_suit", "RND-PLAY-2", "Follow suit if you can.", follow_suit()),
    _rule("play.trumps_win", "RND-PLAY-3", "The highest trump wins.", trumps_win()),
    _rule("play.led_suit_wins", "RND-PLAY-4", "Otherwise the highest card of the led suit wins.",
          led_suit_wins()),
    _rule("score.declarer", "RND-SCORE-1", "A declarer who makes his bid wins three times its "
          "level; otherwise he loses three times its level.",
          ScoreRule(when=seat == declarer,
                    amount=if_then_else(_MADE, 3 * contract.level, -3 * contract.level))),
    _rule("score.defenders", "RND-SCORE-2", "Each defender pays or receives the level.",
          ScoreRule(when=seat != declarer,
                    amount=if_then_else(_MADE, -contract.level, contract.level))),
    _rule("score.zero_sum", "RND-SCORE-3", "What the declarer wins the defenders pay.",
          Claim(Scope.OUTCOME, score_of(0) + score_of(1) + score_of(2) + score_of(3) == 0)),
    _rule("game.match", "RND-GAME-1", "A match is a number of deals; the highest total wins.",
          MatchOf()),
    _rule("game.length", "RND-GAME-2", "Four deals, one for each dealer.", MatchLength(deals=4)),
)

GAME = Game(name="Second round test game", key="rounds_test", ref_prefix="RND",
            doc=__doc__ or "", rules=RULES)
