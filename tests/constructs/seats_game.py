"""A test game for the seats out of the play: four at the table, the dealer sits each deal
out, the other three play (the seating of four-handed Préférence), and after the auction
and the exchange each defender chooses to play or to pass.  A defender who passes lays his
hand down; with one defender the tricks have two cards, and when both pass the declarer is
credited with every trick without play.  The auction and the score are plain.

Its rules are stated as a game module states them, and every property the verifier
derives for a game must hold for it; ``test_idle_and_drop_out.py`` plays and proves it.
"""
from __future__ import annotations

from spec.cards import PIQUET_32
from spec.dsl import (
    SUITS,
    AllOut,
    AuctionTurns,
    BidOrder,
    Claim,
    DealerRotation,
    DealPackets,
    DeckIs,
    Direction,
    DropOut,
    Game,
    HighestBidderDeclares,
    IdleSeat,
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
    dropped,
    idle,
    if_then_else,
    implies,
    passes_in_row,
    ranks,
    score_of,
    seat,
    seat_after,
    standing,
    trick_size,
    tricks_won,
)
from spec.dsl.blocks import follow_suit, led_suit_wins, overcall, trumps_win

PLAYERS = 4
ACTIVE = PLAYERS - 1  # the dealer sits out
HAND = 10


def _rule(rid: str, ref: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=assumption(ref, "a test game"), body=body)


def _defends(s: object):  # type: ignore[no-untyped-def]
    """The seat is a defender who plays: not the declarer, not idle, not dropped out."""
    return (s != declarer) & ~idle(s) & ~dropped(s)


_MADE = tricks_won(declarer) >= contract.level
_STAKE = if_then_else(_MADE, contract.level, -contract.level)  # what each defender pays
_DECLARER_WINS = sum((if_then_else(_defends(s), _STAKE, 0) + if_then_else(dropped(s), 1, 0)
                      for s in range(PLAYERS)), const(0))
RULES = (
    _rule("setup.seats", "SEA-SETUP-1", "Four sit at the table, each for himself.",
          Seats(("North", "East", "South", "West"))),
    _rule("setup.idle_dealer", "SEA-SETUP-2", "The dealer sits the deal out: he is dealt no "
          "cards, makes no call and plays to no trick.", IdleSeat(seat=dealer)),
    _rule("setup.clockwise", "SEA-SETUP-3", "Dealing, bidding and play go clockwise.",
          PlayDirection(Direction.CLOCKWISE)),
    _rule("setup.declarer_alone", "SEA-SETUP-4", "The declarer plays alone against the "
          "defenders.", SidesByContract(declarer_alone=True)),
    _rule("deck.cards", "SEA-DECK-1", "A 32-card pack, ace high to seven.", DeckIs(PIQUET_32)),
    _rule("deck.rank_order", "SEA-DECK-2", "Ace, king, queen, jack, ten, nine, eight, seven.",
          RankOrder(ranks("A K Q J 10 9 8 7"))),
    _rule("deck.trick_value", "SEA-DECK-3", "Each trick counts one.", TrickValue(const(1))),
    _rule("deal.shuffle", "SEA-DEAL-1", "The dealer shuffles the pack before every deal.",
          Shuffle()),
    _rule("deal.packets", "SEA-DEAL-1", "Three cards each from the dealer's left, then four, "
          "then three, to the three who play.", DealPackets((3, 4, 3), first=seat_after(dealer))),
    _rule("deal.talon", "SEA-DEAL-2", "After the first round two cards go face down to the "
          "table: the talon.", Talon(2, after_round=1)),
    _rule("deal.next_dealer", "SEA-DEAL-3", "The deal passes to the left.", DealerRotation(1)),
    _rule("auction.turns", "SEA-AUC-1", "The dealer's left calls first; the auction ends after "
          "two passes in a row following a bid, or three passes.",
          AuctionTurns(first=seat_after(dealer),
                       ends_when=(standing.exists & (passes_in_row == ACTIVE - 1))
                       | (~standing.exists & (calls_made == ACTIVE)))),
    _rule("auction.bids", "SEA-AUC-2", "A bid is six to ten tricks in a suit or no trumps.",
          Ladder(levels=tuple(range(6, HAND + 1)), strains=(*SUITS, None))),
    _rule("auction.bid_order", "SEA-AUC-3", "More tricks beat fewer; then no trumps, spades, "
          "hearts, diamonds, clubs.", BidOrder(key=5 * bid.level + bid.strain_rank)),
    _rule("auction.overcall", "SEA-AUC-4", "A bid must beat the highest bid so far.", overcall()),
    _rule("auction.declarer", "SEA-AUC-5", "The highest bidder declares; his strain is trumps.",
          HighestBidderDeclares()),
    _rule("auction.all_pass", "SEA-AUC-6", "If all pass the next dealer deals.", RedealIfNoBid(1)),
    _rule("exchange.take_talon", "SEA-EXCH-1", "The declarer takes the talon and discards two "
          "cards face down.", TakeTalon(when=const(True), discards=2)),
    _rule("defence.play_or_pass", "SEA-DEF-1", "From the declarer's left, each defender says "
          "play or pass; a defender who passes lays his hand down and takes no part.  If both "
          "pass there is no play: the declarer is credited with every trick.",
          DropOut(first=seat_after(declarer), when=const(True),
                  all_out=AllOut.DECLARER_TAKES_ALL)),
    _rule("play.tricks", "SEA-PLAY-1", "Ten tricks among those who play; the declarer leads "
          "to the first.", TrickPlay(first_lead=declarer)),
    _rule("play.follow_suit", "SEA-PLAY-2", "Follow suit if you can.", follow_suit()),
    _rule("play.trumps_win", "SEA-PLAY-3", "The highest trump wins.", trumps_win()),
    _rule("play.led_suit_wins", "SEA-PLAY-4", "Otherwise the highest card of the led suit wins.",
          led_suit_wins()),
    _rule("score.declarer", "SEA-SCORE-1", "Each defender who plays pays the declarer the "
          "level of the contract if he makes it, and receives it if not; each who passes "
          "pays him one.", ScoreRule(when=seat == declarer, amount=_DECLARER_WINS)),
    _rule("score.defenders", "SEA-SCORE-2", "A defender who plays pays or receives the level.",
          ScoreRule(when=_defends(seat), amount=-_STAKE)),
    _rule("score.passed", "SEA-SCORE-3", "A defender who passes pays one.",
          ScoreRule(when=dropped(seat), amount=const(-1))),
    _rule("score.zero_sum", "SEA-SCORE-4", "What the declarer wins the others pay: the score "
          "adds up to nothing.",
          Claim(Scope.OUTCOME, score_of(0) + score_of(1) + score_of(2) + score_of(3) == 0)),
    _rule("score.idle_nothing", "SEA-SCORE-5", "The seat that sits out takes no trick and "
          "scores nothing.",
          Claim(Scope.OUTCOME, implies(idle(seat), (tricks_won(seat) == 0)
                                       & (score_of(seat) == 0)))),
    _rule("play.passed_no_trick", "SEA-PLAY-5", "A defender who passed takes no trick.",
          Claim(Scope.OUTCOME, implies(dropped(seat), tricks_won(seat) == 0))),
    _rule("play.ten_tricks", "SEA-PLAY-6", "The ten tricks go to the seats.",
          Claim(Scope.OUTCOME, implies(const(True), tricks_won(0) + tricks_won(1)
                                       + tricks_won(2) + tricks_won(3) == HAND))),
    _rule("play.only_players_play", "SEA-PLAY-7", "The seat to play neither sits out nor has "
          "passed.", Claim(Scope.PLAY, ~idle(seat) & ~dropped(seat))),
    _rule("play.trick_sizes", "SEA-PLAY-8", "A trick has a card from each seat that plays: "
          "three, or two with one defender.",
          Claim(Scope.TRICK, trick_size + sum((if_then_else(dropped(s), 1, 0)
                                               for s in range(PLAYERS)), const(0)) == ACTIVE)),
    _rule("game.match", "SEA-GAME-1", "A match is a number of deals; the highest total wins.",
          MatchOf()),
    _rule("game.length", "SEA-GAME-2", "Four deals, one for each dealer.", MatchLength(deals=4)),
)

GAME = Game(name="Seats test game", key="seats_test", ref_prefix="SEA", doc=__doc__ or "",
            rules=RULES)
