"""A test game for the talon: three hands of ten from a 32-card pack, two cards to the
table, taken and discarded by the declarer (the deal and exchange of Préférence, with a
plain auction and a plain score).

Its rules are stated as a game module states them, and every property the verifier
derives for a game must hold for it; ``test_talon.py`` plays and proves it.
"""
from __future__ import annotations

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
    TakeTalon,
    Talon,
    TrickPlay,
    TrickValue,
    assumption,
    bid,
    calls_made,
    const,
    contract,
    dealer,
    declarer,
    if_then_else,
    implies,
    passes_in_row,
    ranks,
    score_of,
    seat,
    seat_after,
    standing,
    tricks_won,
)
from spec.dsl.blocks import follow_suit, led_suit_wins, overcall, trumps_win

PLAYERS = 3
HAND = 10


def _rule(rid: str, ref: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=assumption(ref, "a test game"), body=body)


_MADE = tricks_won(declarer) >= contract.level
RULES = (
    _rule("setup.seats", "TAL-SETUP-1", "Three play, each for himself.",
          Seats(("East", "South", "West"))),
    _rule("setup.clockwise", "TAL-SETUP-2", "Dealing, bidding and play go clockwise.",
          PlayDirection(Direction.CLOCKWISE)),
    _rule("setup.declarer_alone", "TAL-SETUP-3", "The declarer plays alone against the other two.",
          SidesByContract(declarer_alone=True)),
    _rule("deck.cards", "TAL-DECK-1", "A 32-card pack, ace high to seven.", DeckIs(PIQUET_32)),
    _rule("deck.rank_order", "TAL-DECK-2", "Ace, king, queen, jack, ten, nine, eight, seven.",
          RankOrder(ranks("A K Q J 10 9 8 7"))),
    _rule("deck.trick_value", "TAL-DECK-3", "Each trick counts one.", TrickValue(const(1))),
    _rule("deal.shuffle", "TAL-DEAL-1", "The dealer shuffles the pack before every deal.",
          Shuffle()),
    _rule("deal.packets", "TAL-DEAL-1", "Three cards each from the dealer's left, then four, "
          "then three.", DealPackets((3, 4, 3), first=seat_after(dealer))),
    _rule("deal.talon", "TAL-DEAL-2", "After the first round two cards go face down to the "
          "table: the talon.", Talon(2, after_round=1)),
    _rule("deal.next_dealer", "TAL-DEAL-3", "The deal passes to the left.", DealerRotation(1)),
    _rule("auction.turns", "TAL-AUC-1", "The dealer's left calls first; the auction ends after "
          "two passes in a row following a bid, or three passes.",
          AuctionTurns(first=seat_after(dealer),
                       ends_when=(standing.exists & (passes_in_row == PLAYERS - 1))
                       | (~standing.exists & (calls_made == PLAYERS)))),
    _rule("auction.bids", "TAL-AUC-2", "A bid is six to ten tricks in a suit or no trumps.",
          Ladder(levels=tuple(range(6, HAND + 1)), strains=(*SUITS, None))),
    _rule("auction.bid_order", "TAL-AUC-3", "More tricks beat fewer; then no trumps, spades, "
          "hearts, diamonds, clubs.", BidOrder(key=5 * bid.level + bid.strain_rank)),
    _rule("auction.overcall", "TAL-AUC-4", "A bid must beat the highest bid so far.", overcall()),
    _rule("auction.declarer", "TAL-AUC-5", "The highest bidder declares; his strain is trumps.",
          HighestBidderDeclares()),
    _rule("auction.all_pass", "TAL-AUC-6", "If all pass the next dealer deals.", RedealIfNoBid(1)),
    _rule("exchange.take_talon", "TAL-EXCH-1", "The declarer takes the talon and discards two "
          "cards face down.", TakeTalon(when=const(True), discards=2)),
    _rule("play.tricks", "TAL-PLAY-1", "Ten tricks; the dealer's left leads to the first.",
          TrickPlay(first_lead=seat_after(dealer))),
    _rule("play.follow_suit", "TAL-PLAY-2", "Follow suit if you can.", follow_suit()),
    _rule("play.trumps_win", "TAL-PLAY-3", "The highest trump wins.", trumps_win()),
    _rule("play.led_suit_wins", "TAL-PLAY-4", "Otherwise the highest card of the led suit wins.",
          led_suit_wins()),
    _rule("score.declarer", "TAL-SCORE-1", "A declarer who makes his bid wins twice its level; "
          "otherwise he loses twice its level.",
          ScoreRule(when=seat == declarer,
                    amount=if_then_else(_MADE, 2 * contract.level, -2 * contract.level))),
    _rule("score.defenders", "TAL-SCORE-2", "Each defender pays or receives the level.",
          ScoreRule(when=seat != declarer,
                    amount=if_then_else(_MADE, -contract.level, contract.level))),
    _rule("score.zero_sum", "TAL-SCORE-3", "What the declarer wins the defenders pay: the score "
          "adds up to nothing.",
          Claim(Scope.OUTCOME, score_of(0) + score_of(1) + score_of(2) == 0)),
    _rule("play.ten_tricks", "TAL-PLAY-5", "The ten tricks go to the three seats.",
          Claim(Scope.OUTCOME, implies(const(True), tricks_won(0) + tricks_won(1) + tricks_won(2)
                                       == HAND))),
    _rule("game.match", "TAL-GAME-1", "A match is a number of deals; the highest total wins.",
          MatchOf()),
    _rule("game.length", "TAL-GAME-2", "Three deals, one for each dealer.", MatchLength(deals=3)),
)

GAME = Game(name="Talon test game", key="talon_test", ref_prefix="TAL", doc=__doc__ or "",
            rules=RULES)
