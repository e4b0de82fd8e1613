"""A test game for a card dealt face up and a hand laid open: four hands of thirteen,
dealt 4-4-5 from the dealer's left, the dealer's last card turned up to fix trumps, and a
*misère op tafel* whose declarer lays his hand open after the first trick (the deal and
two contracts of Belgian Wiezen, WZ-DEAL-2, WZ-DEAL-3, WZ-CON-1..4, with a plain auction
and a plain score).

Its rules are stated as a game module states them, and every property the verifier
derives for a game must hold for it; ``test_turnup.py`` plays and proves it.
"""
from __future__ import annotations

from spec.cards import FRENCH_52
from spec.dsl import (
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
    LayOpen,
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
    TrumpIs,
    TurnUp,
    assumption,
    bid,
    calls_made,
    const,
    contract,
    dealer,
    dealt_hand,
    declarer,
    if_then_else,
    implies,
    passes_in_row,
    ranks,
    receives,
    score_of,
    seat,
    seat_after,
    standing,
    tricks_won,
    trump,
    turn_up,
    turned_suit,
)
from spec.dsl.blocks import follow_suit, led_suit_wins, overcall, trumps_win

PLAYERS = 4
HAND = 13
MISERE = 0  # the level of misère op tafel on the ladder: no tricks
MISERE_VALUE = 16

TRICK_LEVELS = (5, 6, 7, 8, 9)


def _rule(rid: str, ref: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=assumption(ref, "a test game"), body=body)


_IS_MISERE = contract.level == MISERE
_MADE = if_then_else(_IS_MISERE, tricks_won(declarer) == 0,
                     tricks_won(declarer) >= contract.level)
_VALUE = if_then_else(_IS_MISERE, MISERE_VALUE, contract.level)
RULES = (
    _rule("setup.seats", "TU-SETUP-1", "Four play, each for himself.",
          Seats(("North", "East", "South", "West"))),
    _rule("setup.clockwise", "TU-SETUP-2", "Dealing, bidding and play go clockwise.",
          PlayDirection(Direction.CLOCKWISE)),
    _rule("setup.declarer_alone", "TU-SETUP-3", "The declarer plays alone against the other "
          "three.", SidesByContract(declarer_alone=True)),
    _rule("deck.cards", "TU-DECK-1", "A 52-card pack, ace high to two.", DeckIs(FRENCH_52)),
    _rule("deck.rank_order", "TU-DECK-2", "Ace, king, queen, jack, ten down to two.",
          RankOrder(ranks("A K Q J 10 9 8 7 6 5 4 3 2"))),
    _rule("deck.trick_value", "TU-DECK-3", "Each trick counts one.", TrickValue(const(1))),
    _rule("deal.shuffle", "TU-DEAL-1", "The dealer shuffles the pack before every deal.",
          Shuffle()),
    _rule("deal.packets", "TU-DEAL-1", "Four cards each from the dealer's left, again four, "
          "then five.", DealPackets((4, 4, 5), first=seat_after(dealer))),
    _rule("deal.turn_up", "TU-DEAL-2", "The dealer's last card, the last of the pack, is dealt "
          "face up: the turn-up.  It is one of his thirteen.", TurnUp(position=-1)),
    _rule("deal.next_dealer", "TU-DEAL-3", "The deal passes to the left.", DealerRotation(1)),
    _rule("auction.turns", "TU-AUC-1", "The dealer's left calls first; the auction ends after "
          "three passes in a row following a bid, or four passes.",
          AuctionTurns(first=seat_after(dealer),
                       ends_when=(standing.exists & (passes_in_row == PLAYERS - 1))
                       | (~standing.exists & (calls_made == PLAYERS)))),
    _rule("auction.bids", "TU-AUC-2", "A bid is five to nine tricks, or misère op tafel: no "
          "trick at all, the hand laid open.",
          Ladder(levels=(MISERE, *TRICK_LEVELS), strains=(None,),
                 names=((MISERE, "MOT"),))),
    _rule("auction.bid_order", "TU-AUC-3", "More tricks beat fewer; misère op tafel ranks "
          "between seven and eight tricks.",
          BidOrder(key=if_then_else(bid.level == MISERE, 75, 10 * bid.level))),
    _rule("auction.overcall", "TU-AUC-4", "A bid must beat the highest bid so far.", overcall()),
    _rule("auction.declarer", "TU-AUC-5", "The highest bidder declares.",
          HighestBidderDeclares()),
    _rule("auction.all_pass", "TU-AUC-6", "If all pass the next dealer deals.", RedealIfNoBid(1)),
    _rule("auction.turned_trumps", "TU-CON-1", "In a contract of tricks the turned suit is "
          "trumps; misère op tafel has none.",
          TrumpIs(when=~_IS_MISERE, suit=turned_suit)),
    _rule("play.lay_open", "TU-CON-2", "In misère op tafel the declarer lays his hand face up "
          "after the first trick and plays from the table.",
          LayOpen(seat=declarer, after_trick=1, when=_IS_MISERE)),
    _rule("play.tricks", "TU-PLAY-1", "Thirteen tricks; the dealer's left leads to the first.",
          TrickPlay(first_lead=seat_after(dealer))),
    _rule("play.follow_suit", "TU-PLAY-2", "Follow suit if you can.", follow_suit()),
    _rule("play.trumps_win", "TU-PLAY-3", "The highest trump wins.", trumps_win()),
    _rule("play.led_suit_wins", "TU-PLAY-4", "Otherwise the highest card of the led suit wins.",
          led_suit_wins()),
    _rule("score.declarer", "TU-SCORE-1", "A declarer who makes his contract wins three times "
          "its value (the tricks bid, or 16 for misère op tafel); otherwise he loses as much.",
          ScoreRule(when=seat == declarer, amount=if_then_else(_MADE, 3 * _VALUE, -3 * _VALUE))),
    _rule("score.defenders", "TU-SCORE-2", "Each defender pays or receives the value.",
          ScoreRule(when=seat != declarer, amount=if_then_else(_MADE, -_VALUE, _VALUE))),
    _rule("score.zero_sum", "TU-SCORE-3", "What the declarer wins the defenders pay: the score "
          "adds up to nothing.",
          Claim(Scope.OUTCOME, score_of(0) + score_of(1) + score_of(2) + score_of(3) == 0)),
    _rule("deal.turn_up_is_dealers", "TU-DEAL-4", "The last card of the pack goes to the dealer, "
          "whoever deals.", Claim(Scope.DEAL, receives(PLAYERS * HAND) == dealer)),
    _rule("deal.dealer_holds_turn_up", "TU-DEAL-5", "The turn-up is one of the dealer's "
          "thirteen cards.", Claim(Scope.OUTCOME, dealt_hand(dealer).holds(turn_up))),
    _rule("play.turned_suit_trumps", "TU-CON-3", "In a contract of tricks trumps are the "
          "turn-up's suit.", Claim(Scope.PLAY, implies(~_IS_MISERE, trump == turned_suit))),
    _rule("game.match", "TU-GAME-1", "A match is a number of deals; the highest total wins.",
          MatchOf()),
    _rule("game.length", "TU-GAME-2", "Four deals, one for each dealer.", MatchLength(deals=4)),
)

GAME = Game(name="Turn-up test game", key="turnup_test", ref_prefix="TU", doc=__doc__ or "",
            rules=RULES)
