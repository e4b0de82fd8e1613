"""A test game for a partnership formed by a call in the auction: four seats, no fixed
partnerships, 52 cards, one round of bidding (the *vraag* and *meegaan* of Belgian Wiezen,
cut down).

* *ask*: the asker proposes to take eight tricks with a partner.  A later seat may accept
  by bidding ask too (*meegaan*), once, and becomes the asker's partner; a higher bid
  takes the ask from the pair.  An ask nobody accepted is played alone, for five tricks;
* *solo*: five tricks or more, alone against the other three;
* *abondance*: nine tricks or more, alone.

There are no trumps.  Each seat of the declarer's side receives the contract's value from
each seat against it if the side makes it, and pays it to each if not, so the scores add up
to nothing.  Its rules are stated as a game module states them, and every property the
verifier derives for a game must hold for it; ``test_accept.py`` plays and proves it.
"""
from __future__ import annotations

from spec.cards import FRENCH_52
from spec.dsl import (
    AuctionTurns,
    BidOrder,
    CallRule,
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
    PartnerAccepts,
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
    call,
    calls_made,
    const,
    contract,
    dealer,
    declarer,
    declarer_partner,
    free_seat,
    if_then_else,
    implies,
    ranks,
    score_of,
    seat,
    seat_after,
    standing,
    tricks_won,
)
from spec.dsl.blocks import follow_suit, led_suit_wins

PLAYERS = 4
ASK, SOLO, ABONDANCE = 1, 2, 3  # levels of the ladder


def _rule(rid: str, ref: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=assumption(ref, "a test game"), body=body)


# the declarer's side: he and his partner (he alone when his partner is himself)
ALONE = declarer_partner == declarer
ON_SIDE = (seat == declarer) | (seat == declarer_partner)
SIDE_TRICKS = if_then_else(ALONE, tricks_won(declarer),
                           tricks_won(declarer) + tricks_won(declarer_partner))
# an accepted ask is for eight tricks together; an ask nobody accepted and a solo for five
# alone; an abondance for nine
TARGET = if_then_else(contract.level == ABONDANCE, 9, if_then_else(~ALONE, 8, 5))
_MADE = SIDE_TRICKS >= TARGET
# [WZ] scoring table: the ask and the solo are worth 1 and 1 more for each trick over or
# short, doubled when the side takes all thirteen; the abondance 8 either way
_ODD = if_then_else(_MADE, SIDE_TRICKS - TARGET, TARGET - SIDE_TRICKS)
_VALUE = if_then_else(contract.level == ABONDANCE, 8,
                      if_then_else(SIDE_TRICKS == 13, 2 * (1 + _ODD), 1 + _ODD))
WON = if_then_else(_MADE, _VALUE, -_VALUE)
_OTHER = free_seat("other")

RULES = (
    _rule("setup.seats", "ASK-SETUP-1", "Four play, with no fixed partnerships.",
          Seats(("North", "East", "South", "West"))),
    _rule("setup.clockwise", "ASK-SETUP-2", "Dealing, bidding and play go clockwise.",
          PlayDirection(Direction.CLOCKWISE)),
    _rule("setup.sides", "ASK-SETUP-3", "The contract makes the sides: one or two seats "
          "against the others.", SidesByContract(declarer_alone=False)),
    _rule("deck.cards", "ASK-DECK-1", "A 52-card pack, ace high.", DeckIs(FRENCH_52)),
    _rule("deck.rank_order", "ASK-DECK-2", "Ace, king, queen, jack, ten down to two.",
          RankOrder(ranks("A K Q J 10 9 8 7 6 5 4 3 2"))),
    _rule("deck.trick_value", "ASK-DECK-3", "Each trick counts one.", TrickValue(const(1))),
    _rule("deal.shuffle", "ASK-DEAL-1", "The dealer shuffles the pack before every deal.",
          Shuffle()),
    _rule("deal.packets", "ASK-DEAL-1", "Four cards each from the dealer's left, again four, "
          "then five.", DealPackets((4, 4, 5), first=seat_after(dealer))),
    _rule("deal.next_dealer", "ASK-DEAL-2", "The deal passes to the left.", DealerRotation(1)),
    _rule("auction.turns", "ASK-AUC-1", "Each seat calls once, from the dealer's left.",
          AuctionTurns(first=seat_after(dealer), ends_when=calls_made == PLAYERS)),
    _rule("auction.bids", "ASK-AUC-2", "The bids are ask, solo and abondance, in that order.",
          Ladder(levels=(ASK, SOLO, ABONDANCE), strains=(None,),
                 names=((ASK, "ask"), (SOLO, "solo"), (ABONDANCE, "abondance")))),
    _rule("auction.bid_order", "ASK-AUC-3", "Abondance beats solo, which beats ask.",
          BidOrder(key=bid.level)),
    _rule("auction.overcall", "ASK-AUC-4", "A bid must beat the standing bid, unless it "
          "accepts a standing ask nobody has accepted.",
          CallRule(applies=call.is_bid & standing.exists,
                   requires=(call.bid.key > standing.bid.key) | call.accepts)),
    _rule("auction.accept", "ASK-AUC-5", "A later seat may accept a standing ask by bidding "
          "ask too, once; he becomes the asker's partner, and a higher bid takes the ask "
          "from both.", PartnerAccepts(bids=bid.level == ASK)),
    _rule("auction.declarer", "ASK-AUC-6", "The highest bidder declares; an ask nobody "
          "accepted he plays alone, for five tricks.", HighestBidderDeclares()),
    _rule("auction.all_pass", "ASK-AUC-7", "If all pass the next dealer deals.", RedealIfNoBid(1)),
    _rule("play.tricks", "ASK-PLAY-1", "Thirteen tricks; the dealer's left leads to the first.",
          TrickPlay(first_lead=seat_after(dealer))),
    _rule("play.follow_suit", "ASK-PLAY-2", "Follow suit if you can.", follow_suit()),
    _rule("play.led_suit_wins", "ASK-PLAY-3", "The highest card of the led suit wins; there "
          "are no trumps.", led_suit_wins()),
    _rule("score.settle", "ASK-SCORE-1", "Each seat of the declarer's side receives the "
          "contract's value from each seat against it if the side makes it, and pays it to "
          "each if not.",
          ScoreRule(when=const(True), amount=if_then_else(
              ALONE, if_then_else(seat == declarer, 3 * WON, -WON),
              if_then_else(ON_SIDE, 2 * WON, -2 * WON)))),
    _rule("score.zero_sum", "ASK-SCORE-2", "What one side wins the other pays: the scores "
          "add up to nothing.",
          Claim(Scope.OUTCOME, score_of(0) + score_of(1) + score_of(2) + score_of(3) == 0)),
    _rule("sides.only_an_ask_is_accepted", "ASK-SIDES-1", "Only an ask has a partner.",
          Claim(Scope.OUTCOME, implies(contract.level != ASK, ALONE))),
    _rule("sides.pair_against_two", "ASK-SIDES-2", "An accepted ask puts the asker and the "
          "accepter against the other two: the pair score alike, and each of the others "
          "the opposite.",
          Claim(Scope.OUTCOME, implies(~ALONE & (_OTHER != declarer) & (_OTHER != declarer_partner),
                                       (score_of(declarer) == score_of(declarer_partner))
                                       & (score_of(_OTHER) == -score_of(declarer))),
                free=(_OTHER,))),
    _rule("sides.unaccepted_ask_alone", "ASK-SIDES-3", "An ask nobody accepted is played "
          "alone: the asker wins or pays three times what each other seat pays or wins.",
          Claim(Scope.OUTCOME, implies((contract.level == ASK) & ALONE & (_OTHER != declarer),
                                       score_of(declarer) == -3 * score_of(_OTHER)),
                free=(_OTHER,))),
    _rule("sides.failed_ask_costs", "ASK-SIDES-4", "An accepted ask that fails costs each of "
          "the pair at least four.",
          Claim(Scope.OUTCOME, implies((contract.level == ASK) & ~ALONE & (SIDE_TRICKS < 8),
                                       score_of(declarer_partner) <= -4))),
    _rule("game.match", "ASK-GAME-1", "A match is a number of deals; the highest total wins.",
          MatchOf()),
    _rule("game.length", "ASK-GAME-2", "Four deals, one for each dealer.", MatchLength(deals=4)),
)

GAME = Game(name="Ask test game", key="ask_test", ref_prefix="ASK", doc=__doc__ or "",
            rules=RULES)
