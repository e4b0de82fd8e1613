"""A test game for the pot: three hands of ten from a 32-card pack and a talon of two, a
plain auction for trumps, and every deal paid from and into a pot of chips carried from
deal to deal (the payoff of Préférence, without its holds, drop-outs and guests).

Each player antes 10 chips before the first deal and again whenever a deal leaves the pot
empty.  The declarer takes 10 chips from the pot and pays each defender 1 chip a trick;
if he takes fewer than 6 tricks he pays 20 into the pot; a defender with fewer than 2
tricks pays 10 into it.  The ``old_scoring`` variant plays for the whole pot instead: the
declarer takes it and pays a tenth of it a trick, and a failure costs twice the pot (the
declarer) or the pot (a defender).

Its rules are stated as a game module states them, and every property the verifier
derives for a game must hold for it; ``test_pot.py`` plays and proves it.
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
    MatchOf,
    PlayDirection,
    Pot,
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
    Variant,
    assumption,
    bid,
    calls_made,
    const,
    dealer,
    declarer,
    passes_in_row,
    pot,
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
ANTE = 10
TAKES = 10  # chips the declarer takes from the pot
TO_MAKE = 6  # the declarer's tricks
DECLARER_PENALTY = 20
DEFENDER_MINIMUM = 2
DEFENDER_PENALTY = 10


def _rule(rid: str, ref: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=assumption(ref, "a test game"), body=body)


DECLARES = seat == declarer
DEFENDS = seat != declarer
DECLARER_TRICKS = tricks_won(declarer)

# -- the payoff -------------------------------------------------------------------------
FROM_THE_POT = _rule("pay.from_the_pot", "POT-PAY-1", f"The declarer takes {TAKES} chips from "
                     "the pot.", ScoreRule(when=DECLARES, amount=const(TAKES)))
PAYS_TRICKS = _rule("pay.declarer_pays_tricks", "POT-PAY-2", "He pays each defender 1 chip for "
                    "each trick that defender took.",
                    ScoreRule(when=DECLARES, amount=DECLARER_TRICKS - HAND))
DECLARER_FAILS = _rule("pay.declarer_fails", "POT-PAY-3", f"A declarer who takes fewer than "
                       f"{TO_MAKE} tricks pays {DECLARER_PENALTY} chips into the pot.",
                       ScoreRule(when=DECLARES & (DECLARER_TRICKS < TO_MAKE),
                                 amount=const(-DECLARER_PENALTY)))
TRICK_CHIPS = _rule("pay.trick_chips", "POT-PAY-4", "Each defender receives 1 chip for each "
                    "trick he took.", ScoreRule(when=DEFENDS, amount=tricks_won(seat)))
DEFENDER_FAILS = _rule("pay.defender_fails", "POT-PAY-5", f"A defender who takes fewer than "
                       f"{DEFENDER_MINIMUM} tricks pays {DEFENDER_PENALTY} chips into the pot.",
                       ScoreRule(when=DEFENDS & (tricks_won(seat) < DEFENDER_MINIMUM),
                                 amount=const(-DEFENDER_PENALTY)))

RULES = (
    _rule("setup.seats", "POT-SETUP-1", "Three play, each for himself.",
          Seats(("East", "South", "West"))),
    _rule("setup.clockwise", "POT-SETUP-2", "Dealing, bidding and play go clockwise.",
          PlayDirection(Direction.CLOCKWISE)),
    _rule("setup.declarer_alone", "POT-SETUP-3", "The declarer plays alone against the other "
          "two.", SidesByContract(declarer_alone=True)),
    _rule("deck.cards", "POT-DECK-1", "A 32-card pack, ace high to seven.", DeckIs(PIQUET_32)),
    _rule("deck.rank_order", "POT-DECK-2", "Ace, king, queen, jack, ten, nine, eight, seven.",
          RankOrder(ranks("A K Q J 10 9 8 7"))),
    _rule("deck.trick_value", "POT-DECK-3", "Each trick counts one.", TrickValue(const(1))),
    _rule("pot.ante", "POT-POT-1", f"Before the first deal every player puts {ANTE} chips into "
          "the pot; whenever a deal leaves it empty they fill it again the same way.  Each "
          "deal is paid from and into it.", Pot(ante=ANTE, granularity=10)),
    _rule("deal.shuffle", "POT-DEAL-1", "The dealer shuffles the pack before every deal.",
          Shuffle()),
    _rule("deal.packets", "POT-DEAL-1", "Three cards each from the dealer's left, then four, "
          "then three.", DealPackets((3, 4, 3), first=seat_after(dealer))),
    _rule("deal.talon", "POT-DEAL-2", "After the first round two cards go face down to the "
          "table: the talon.", Talon(2, after_round=1)),
    _rule("deal.next_dealer", "POT-DEAL-3", "The deal passes to the left.", DealerRotation(1)),
    _rule("auction.turns", "POT-AUC-1", "The dealer's left calls first; the auction ends after "
          "two passes in a row following a bid, or three passes.",
          AuctionTurns(first=seat_after(dealer),
                       ends_when=(standing.exists & (passes_in_row == PLAYERS - 1))
                       | (~standing.exists & (calls_made == PLAYERS)))),
    _rule("auction.bids", "POT-AUC-2", f"A bid names trumps, a suit or none, and undertakes "
          f"{TO_MAKE} of the {HAND} tricks.", Ladder(levels=(TO_MAKE,), strains=(*SUITS, None))),
    _rule("auction.bid_order", "POT-AUC-3", "No trumps beats spades, hearts, diamonds, clubs.",
          BidOrder(key=bid.strain_rank)),
    _rule("auction.overcall", "POT-AUC-4", "A bid must beat the highest bid so far.", overcall()),
    _rule("auction.declarer", "POT-AUC-5", "The highest bidder declares; his strain is trumps.",
          HighestBidderDeclares()),
    _rule("auction.all_pass", "POT-AUC-6", "If all pass the next dealer deals.",
          RedealIfNoBid(1)),
    _rule("exchange.take_talon", "POT-EXCH-1", "The declarer takes the talon and discards two "
          "cards face down.", TakeTalon(when=const(True), discards=2)),
    _rule("play.tricks", "POT-PLAY-1", "Ten tricks; the declarer leads to the first.",
          TrickPlay(first_lead=declarer)),
    _rule("play.follow_suit", "POT-PLAY-2", "Follow suit if you can.", follow_suit()),
    _rule("play.trumps_win", "POT-PLAY-3", "The highest trump wins.", trumps_win()),
    _rule("play.led_suit_wins", "POT-PLAY-4", "Otherwise the highest card of the led suit wins.",
          led_suit_wins()),
    FROM_THE_POT, PAYS_TRICKS, DECLARER_FAILS, TRICK_CHIPS, DEFENDER_FAILS,
    _rule("pay.within_the_pot", "POT-PAY-6", "Nobody wins more in a deal than the pot holds.",
          Claim(Scope.OUTCOME, score_of(seat) <= pot)),
    _rule("game.session", "POT-GAME-1", "Deals go on as long as the players like; each "
          "player's result is his net chips won.", MatchOf()),
)

# -- the old scoring: the whole pot, a tenth of it a trick ------------------------------
UNIT = pot // 10
OLD_SCORING = Variant(
    id="old_scoring",
    text="Old scoring: the declarer takes the whole pot and pays a tenth of it a trick; a "
    "failing declarer pays twice the pot into it, a failing defender the pot.",
    replaces=(
        (FROM_THE_POT, _rule(FROM_THE_POT.id, "POT-VAR-1", "The declarer takes the whole pot.",
                             ScoreRule(when=DECLARES, amount=pot))),
        (PAYS_TRICKS, _rule(PAYS_TRICKS.id, "POT-VAR-1", "He pays each defender a tenth of "
                            "the pot for each trick that defender took.",
                            ScoreRule(when=DECLARES, amount=(DECLARER_TRICKS - HAND) * UNIT))),
        (DECLARER_FAILS, _rule(DECLARER_FAILS.id, "POT-VAR-1", f"A declarer who takes fewer "
                               f"than {TO_MAKE} tricks pays twice the pot (as it was before "
                               "the payoff) into it.",
                               ScoreRule(when=DECLARES & (DECLARER_TRICKS < TO_MAKE),
                                         amount=-2 * pot))),
        (TRICK_CHIPS, _rule(TRICK_CHIPS.id, "POT-VAR-1", "Each defender receives a tenth of "
                            "the pot for each trick he took.",
                            ScoreRule(when=DEFENDS, amount=tricks_won(seat) * UNIT))),
        (DEFENDER_FAILS, _rule(DEFENDER_FAILS.id, "POT-VAR-1", f"A defender who takes fewer "
                               f"than {DEFENDER_MINIMUM} tricks pays the pot into it.",
                               ScoreRule(when=DEFENDS & (tricks_won(seat) < DEFENDER_MINIMUM),
                                         amount=-pot))),
    ),
    source=assumption("POT-VAR-1", "a test game"),
)

GAME = Game(name="Pot test game", key="pot_test", ref_prefix="POT", doc=__doc__ or "",
            rules=RULES, variants=(OLD_SCORING,))
