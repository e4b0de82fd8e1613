"""A test game for sides formed during the deal: four seats, no fixed partnerships, 52
cards, one round of bidding (the contracts of Belgian Wiezen, cut down).

* *solo*: five tricks or more, alone against the other three;
* *misère*: no trick at all; a later seat may bid misère too, and then every misère
  bidder declares at once, each settled on his own tricks against the other three;
* *troel*: a seat with three aces or more bids to take eight tricks with a partner found
  by the cards: the holder of the ace he lacks (with all four, of the highest heart he
  lacks).

Every settlement is between a declarer's side and the seats against it, so the scores add
up to nothing.  Its rules are stated as a game module states them, and every property the
verifier derives for a game must hold for it; ``test_sides.py`` plays and proves it.
"""
from __future__ import annotations

from spec.cards import FRENCH_52, Rank, Suit
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
    PartnerHolds,
    PlayDirection,
    RankOrder,
    RedealIfNoBid,
    Rule,
    SameBidJoins,
    Scope,
    ScoreRule,
    Seats,
    Shuffle,
    SidesByContract,
    TrickPlay,
    TrickValue,
    all_of,
    assumption,
    bid,
    call,
    calls_made,
    cards,
    cards_of,
    const,
    contract,
    dealer,
    dealt_hand,
    declarer,
    declarer_partner,
    declares,
    each_declarer,
    free_seat,
    hand,
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
SOLO, MISERE, TROEL = 1, 2, 3  # levels of the ladder
ACES = cards(*(c for c in FRENCH_52 if c.rank is Rank.ACE))


def _rule(rid: str, ref: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=assumption(ref, "a test game"), body=body)


# the declarer's side: he and his partner (he alone when his partner is himself)
_ALONE = declarer_partner == declarer
_ON_SIDE = (seat == declarer) | (seat == declarer_partner)
_SIDE = if_then_else(_ALONE, 1, 2)
_SIDE_TRICKS = if_then_else(_ALONE, tricks_won(declarer),
                            tricks_won(declarer) + tricks_won(declarer_partner))
_MADE = if_then_else(contract.level == SOLO, _SIDE_TRICKS >= 5,
                     if_then_else(contract.level == MISERE, tricks_won(declarer) == 0,
                                  _SIDE_TRICKS >= 8))
_VALUE = if_then_else(contract.level == SOLO, 2, if_then_else(contract.level == MISERE, 5, 4))
_WON = if_then_else(_MADE, _VALUE, -_VALUE)
# the partner of a troel: the holder of the ace the declarer lacks; with all four, of the
# highest heart he lacks
_HIS = dealt_hand(declarer)
_TROEL_PARTNER = if_then_else((_HIS & ACES).count == 4, cards_of(Suit.HEARTS) - _HIS,
                              ACES - _HIS)
_OTHER = free_seat("other")

RULES = (
    _rule("setup.seats", "SID-SETUP-1", "Four play, with no fixed partnerships.",
          Seats(("North", "East", "South", "West"))),
    _rule("setup.clockwise", "SID-SETUP-2", "Dealing, bidding and play go clockwise.",
          PlayDirection(Direction.CLOCKWISE)),
    _rule("setup.sides", "SID-SETUP-3", "The contract makes the sides: one or two seats "
          "against the others.", SidesByContract(declarer_alone=False)),
    _rule("deck.cards", "SID-DECK-1", "A 52-card pack, ace high.", DeckIs(FRENCH_52)),
    _rule("deck.rank_order", "SID-DECK-2", "Ace, king, queen, jack, ten down to two.",
          RankOrder(ranks("A K Q J 10 9 8 7 6 5 4 3 2"))),
    _rule("deck.trick_value", "SID-DECK-3", "Each trick counts one.", TrickValue(const(1))),
    _rule("deal.shuffle", "SID-DEAL-1", "The dealer shuffles the pack before every deal.",
          Shuffle()),
    _rule("deal.packets", "SID-DEAL-1", "Four cards each from the dealer's left, again four, "
          "then five.", DealPackets((4, 4, 5), first=seat_after(dealer))),
    _rule("deal.next_dealer", "SID-DEAL-2", "The deal passes to the left.", DealerRotation(1)),
    _rule("auction.turns", "SID-AUC-1", "Each seat calls once, from the dealer's left.",
          AuctionTurns(first=seat_after(dealer), ends_when=calls_made == PLAYERS)),
    _rule("auction.bids", "SID-AUC-2", "The bids are solo, misère and troel, in that order.",
          Ladder(levels=(SOLO, MISERE, TROEL), strains=(None,),
                 names=((SOLO, "solo"), (MISERE, "misere"), (TROEL, "troel")))),
    _rule("auction.bid_order", "SID-AUC-3", "Troel beats misère, which beats solo.",
          BidOrder(key=bid.level)),
    _rule("auction.overcall", "SID-AUC-4", "A bid must beat the standing bid, unless it "
          "joins a standing misère.",
          CallRule(applies=call.is_bid & standing.exists,
                   requires=(call.bid.key > standing.bid.key) | call.joins)),
    _rule("auction.troel_aces", "SID-AUC-5", "Only a seat with three aces or more may bid "
          "troel.", CallRule(applies=call.is_bid & (call.bid.level == TROEL),
                             requires=(hand & ACES).count >= 3)),
    _rule("auction.misere_joined", "SID-AUC-6", "Later seats may bid a standing misère too, "
          "and every misère bidder declares, each for himself.",
          SameBidJoins(bids=bid.level == MISERE)),
    _rule("auction.declarer", "SID-AUC-7", "The highest bidder declares.", HighestBidderDeclares()),
    _rule("auction.troel_partner", "SID-AUC-8", "The troel bidder's partner is the holder of "
          "the ace he lacks; with all four aces, of the highest heart he lacks.",
          PartnerHolds(when=contract.level == TROEL, cards=_TROEL_PARTNER)),
    _rule("auction.all_pass", "SID-AUC-9", "If all pass the next dealer deals.", RedealIfNoBid(1)),
    _rule("play.tricks", "SID-PLAY-1", "Thirteen tricks; the dealer's left leads to the first.",
          TrickPlay(first_lead=seat_after(dealer))),
    _rule("play.follow_suit", "SID-PLAY-2", "Follow suit if you can.", follow_suit()),
    _rule("play.led_suit_wins", "SID-PLAY-3", "The highest card of the led suit wins; there "
          "are no trumps.", led_suit_wins()),
    _rule("score.settle", "SID-SCORE-1", "Each declarer settles on his own: each seat of his "
          "side receives the contract's value from each seat against it if he makes it, "
          "and pays it to each if not.",
          ScoreRule(when=const(True), amount=each_declarer(
              if_then_else(_ON_SIDE, (PLAYERS - _SIDE) * _WON, -_SIDE * _WON)))),
    _rule("score.zero_sum", "SID-SCORE-2", "What one side wins the other pays: the scores "
          "add up to nothing.",
          Claim(Scope.OUTCOME, score_of(0) + score_of(1) + score_of(2) + score_of(3) == 0)),
    _rule("sides.troel_fourth_ace", "SID-SIDES-1", "With three aces the troel partner holds "
          "the fourth.",
          Claim(Scope.OUTCOME, implies((contract.level == TROEL) & ((_HIS & ACES).count == 3),
                                       (dealt_hand(declarer_partner) & ACES).count == 1))),
    _rule("sides.troel_four_aces", "SID-SIDES-2", "With four aces the troel partner is "
          "another seat, and holds a heart.",
          Claim(Scope.OUTCOME, implies((contract.level == TROEL) & ((_HIS & ACES).count == 4),
                                       all_of(declarer_partner != declarer,
                                              dealt_hand(declarer_partner).holds_any(
                                                  cards_of(Suit.HEARTS)))))),
    _rule("sides.alone_but_troel", "SID-SIDES-3", "Only a troel has a partner.",
          Claim(Scope.OUTCOME, implies(contract.level != TROEL, _ALONE))),
    _rule("sides.joined_misere", "SID-SIDES-4", "Only a misère has several declarers.",
          Claim(Scope.OUTCOME, implies(declares(_OTHER) & (_OTHER != declarer),
                                       contract.level == MISERE), free=(_OTHER,))),
    _rule("game.match", "SID-GAME-1", "A match is a number of deals; the highest total wins.",
          MatchOf()),
    _rule("game.length", "SID-GAME-2", "Four deals, one for each dealer.", MatchLength(deals=4)),
)

GAME = Game(name="Sides test game", key="sides_test", ref_prefix="SID", doc=__doc__ or "",
            rules=RULES)
