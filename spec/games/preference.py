"""Austrian Préférence, the Viennese three-handed game of the Rams family, played for a pot.

Players: 3 active (a fourth may join: he deals and sits the deal out), each for himself.
Deck: 32 cards, A K Q J 10 9 8 7; no card points.  The deal is 3 each, 2 face down to the
table (the talon), 4 each and 3 each.  The auction names a contract only, which restricts
the declarer's choice of trumps: One (any suit), Two (not spades), Three (diamonds or
hearts), Four (hearts), then Game in a suit (no talon) and Hearts.  The declarer of One to
Four takes the talon and discards two cards; he names trumps; each defender then plays or
passes, and one who plays alone may invite the other as his guest.  The declarer must win
6 of the 10 tricks; payments go to and from the pot.

Sources:
  [seed] the Japanese summary ``002_a19d92de03ebcb1b.txt``, which follows pagat's page
  [PG]   https://pagat.com/preference/austpref.html ("Preference (Austrian rules)")
  [DX]   https://www.denexa.com/blog/tag/preference/
  [WP]   https://en.wikipedia.org/wiki/Préférence
  [DEWP] https://de.wikipedia.org/wiki/Pr%C3%A9f%C3%A9rence
  [KS]   http://www.kartenspiele-regeln.de/preference.html
  [LM]   the Russian translation of [PG], https://litmir.club/br/?b=315358&p=184
  [CH]   the same translation's Variations, https://hello.chitka.online/b/-282/p/301

How the rules are written (each a choice the digest leaves open, or a way of saying it):
  * the contracts are the levels of one ladder: One to Four, Game and Hearts; Game is one
    bid, which a player at his first turn may bid again over another's (he joins it);
    after the auction each Game bidder names a suit but hearts, the most senior first, and
    the highest suit by the seed's numbers wins, of equal suits the most senior's: he alone
    declares (naming in seniority order, binding: the digest's assumption, G9);
  * a pass is final: a seat that has passed may only pass when its turn comes round
    again, and the auction is over after two passes in a row following a bid;
  * the declarer names trumps as a choice after the exchange, from the suits his contract
    allows (in Hearts, hearts; in Game, any suit but hearts);
  * the first bid of the auction must be One unless it is Game or Hearts, which the seed
    allows at a player's first turn "irrespective of the step rule".

Variants (see ``VARIANTS``): ``four_players`` (the dealer sits out), ``pagat_suit_order``
(spades rank above clubs), ``old_scoring`` (the unlimited pot).  The ace and no-ace
bonuses and the extra contracts Five to Seven were lost from the sources (digest G13,
G14): the bonuses are an open parameter (``ace_bonuses``, off), the extra contracts an
open question on the sources page.
"""
from __future__ import annotations

from spec.cards import PIQUET_32, Card, Rank, Suit
from spec.dsl import (
    AllOut,
    AuctionTurns,
    BidOrder,
    CallRule,
    Claim,
    DealerRotation,
    DealPackets,
    Decide,
    DeckIs,
    Direction,
    DropOut,
    Expr,
    Game,
    HighestBidderDeclares,
    HoldBid,
    IdleSeat,
    Ladder,
    MatchOf,
    Option,
    PlayDirection,
    PlayRule,
    Pot,
    Property,
    RankOrder,
    RedealIfNoBid,
    SameBidJoins,
    Rule,
    Scope,
    ScoreRule,
    Seats,
    Shuffle,
    SidesByContract,
    T,
    TakeTalon,
    Talon,
    Track,
    TrickPlay,
    TrickValue,
    TrumpIs,
    Variant,
    all_of,
    any_of,
    assumption,
    auction_over,
    awarded,
    beating,
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
    dropped,
    each_seat,
    first_defender,
    first_leader,
    first_to_call,
    free_suit,
    hand,
    idle,
    if_then_else,
    implies,
    invited,
    is_leading,
    leader,
    led_suit,
    legal_call,
    legal_cards,
    lowest,
    next_dealer,
    no_bid_redealer,
    no_suit,
    passes_in_row,
    played_card,
    points_won,
    position,
    pot,
    rank_table,
    ranks,
    receives,
    score_of,
    seat,
    seat_after,
    seat_calls,
    seat_passed,
    seed,
    source,
    standing,
    talon_taken,
    tracked,
    trick_size,
    trick_winner,
    tricks_won,
    trump,
)
from spec.dsl.blocks import ends_after_passes, follow_suit, led_suit_wins, trumps_win

TRICKS = 10
ACTIVE = 3  # the seats that play a deal, with three players or with four
TO_MAKE = 6  # the declarer's tricks
DEFENDER_MINIMUM = 2  # a defender's own tricks
TEAM_MINIMUM = 4  # host's and guest's tricks together

# -- the contracts ------------------------------------------------------------------------
# One ladder of levels: One to Four, Game (its suit named after the auction), Hearts.
ONE, FOUR, GAME, HEARTS = 1, 4, 5, 6
LEVEL = contract.level
IS_NUMBERED = LEVEL <= FOUR
# seed: hearts 4, diamonds 3, clubs 2, spades 1; pagat: spades 2, clubs 1
SEED_NUMBERS = {Suit.HEARTS: 4, Suit.DIAMONDS: 3, Suit.CLUBS: 2, Suit.SPADES: 1}
PAGAT_NUMBERS = {Suit.HEARTS: 4, Suit.DIAMONDS: 3, Suit.SPADES: 2, Suit.CLUBS: 1}
NAMED = "trumps_named"  # the suit the declarer names after the exchange


def seniority(s: Expr) -> Expr:
    """How senior a seat is: forehand (the dealer's left) 0, then 1, then 2; with four
    players the dealer, who sits out, comes last."""
    return if_then_else(s == seat_after(dealer, 1), 0,
                        if_then_else(s == seat_after(dealer, 2), 1,
                                     if_then_else(s == seat_after(dealer, 3), 2, 3)))


def allowed(suit: Suit, numbers: dict[Suit, int]) -> Expr:
    """The contract allows ``suit`` as trumps: a numbered contract up to the suit's
    number; Game any suit but hearts; Hearts hearts."""
    return (IS_NUMBERED & (LEVEL <= numbers[suit])) | (
        LEVEL == (HEARTS if suit is Suit.HEARTS else GAME))


# -- who is what in the play, for the payoff --------------------------------------------
# Totals over every seat at the table (``each_seat``), so that each payoff rule is the same
# with three players or four, and the variants that change the payoff and the number of
# players go together.
HAS_GUEST = each_seat(if_then_else(invited(seat), 1, 0)) > 0
GUEST_TRICKS = each_seat(if_then_else(invited(seat), tricks_won(seat), 0))


DEFENDS = (seat != declarer) & ~idle(seat) & ~dropped(seat) & ~invited(seat)
DECLARER_TRICKS = tricks_won(declarer)


def _seat_rules(n: int) -> dict[str, Rule]:
    """The rules that name every seat, for three players or four."""
    names = ("Anna", "Berta", "Carl", "Dora")[:n]
    return {
        "seats": Rule(
            id="setup.seats", text=("Three players, each for himself." if n == 3 else
                                    "Four players, each for himself; three play each deal."),
            source=seed("PRF-SETUP-1"), body=Seats(names)),
        "sits_out": Rule(
            id="setup.dealer_sits_out",
            text=("With three players every seat is dealt in." if n == 3 else
                  "With four players the dealer deals and sits the deal out."),
            source=seed("PRF-SETUP-1"),
            # with three, each seat, the dealer included, gets a card of the first round
            body=(Claim(Scope.DEAL, all_of(*(any_of(*(receives(k) == s for k in range(1, 3 * n + 1)))
                                             for s in range(n)))) if n == 3
                  else IdleSeat(seat=dealer))),
    }


HOST = Rule(
    id="pay.host", text="The host pays 10 chips into the pot if he and his guest took "
    "fewer than 4 tricks together; the guest never pays.", source=seed("PRF-PAY-5"),
    body=ScoreRule(when=DEFENDS & HAS_GUEST & (tricks_won(seat) + GUEST_TRICKS < TEAM_MINIMUM),
                   amount=const(-10)))
OWN_ACCOUNT = Rule(
    id="pay.defender", text="A defender who played on his own account (neither host "
    "nor guest) and took fewer than 2 tricks pays 10 chips into the pot.",
    source=seed("PRF-PAY-4", also=("PRF-DEF-2",)),
    body=ScoreRule(when=DEFENDS & ~HAS_GUEST & (tricks_won(seat) < DEFENDER_MINIMUM),
                   amount=const(-10)))
TRICK_CHIPS = Rule(
    id="pay.trick_chips", text="From those 10 chips the declarer pays each defender who "
    "played 1 chip for each trick he took, the guest's to the host, and keeps the rest.",
    source=seed("PRF-PAY-2"),
    body=ScoreRule(when=DEFENDS,
                   amount=tricks_won(seat) + if_then_else(HAS_GUEST, GUEST_TRICKS, 0)))
TEN_TRICKS = Rule(
    id="play.ten_tricks", text="All 10 tricks are played, with two cards each when one "
    "defender plays; when both pass the declarer is credited with all 10.",
    source=seed("PRF-PLAY-6", also=("PRF-DEF-5",)),
    body=Claim(Scope.OUTCOME, each_seat(tricks_won(seat)) == TRICKS))


SEATS3, SEATS4 = _seat_rules(3), _seat_rules(4)


def _name_trumps(numbers: dict[Suit, int]) -> Rule:
    """The rule that reads the suit numbers: the trumps each contract allows, and which
    suit wins where several Game bidders name one."""
    return Rule(
        id="exchange.name_trumps", text="The declarer then names trumps from the suits his "
        "contract allows: One any suit, Two those numbered 2 or more, Three those numbered 3 "
        "or more, Four hearts, Game any suit but hearts, Hearts hearts.  Where several "
        "players bid Game, each names a suit in turn, the most senior first, each heard by "
        "all; the highest-numbered suit named wins, of equal suits the most senior's, and "
        "that player alone declares, his suit trumps.",
        source=seed("PRF-EXCH-3", "several Game bidders: PRF-AUC-9; naming in seniority "
                    "order, binding, is the digest's [assumption] (G9)",
                    also=("PRF-DECK-3", "PRF-AUC-9")),
        body=Decide(by=declarer, each_declarer=True, options=tuple(
            Option(s.name.lower(), when=allowed(s, numbers), sets=((NAMED, const(s)),),
                   rank=numbers[s])
            for s in (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS))))


SEED_TRUMPS, PAGAT_TRUMPS = _name_trumps(SEED_NUMBERS), _name_trumps(PAGAT_NUMBERS)

# 1. Players, seats, direction ------------------------------------------------------------
SIDES = Rule(
    id="setup.declarer_alone", text="No fixed partnerships: the declarer plays alone against "
    "the others.", source=seed("PRF-AUC-1"), body=SidesByContract(declarer_alone=True))
CLOCKWISE = Rule(
    id="setup.clockwise", text="Dealing, bidding and play go clockwise.",
    source=source("PRF-SETUP-2", "[seed] + [WP]"), body=PlayDirection(Direction.CLOCKWISE))
NEXT_DEALER = Rule(
    id="deal.next_dealer", text="The first dealer is chosen at random; the deal passes to the "
    "left after every deal, also after all have passed.",
    source=assumption("PRF-SETUP-4", "the seed says only 'the next dealer' (G16)"),
    body=DealerRotation(1))

# 2. The deck -----------------------------------------------------------------------------
PACK = Rule(
    id="deck.cards", text="A pack of 32 cards, A K Q J 10 9 8 7 in each suit (French or German "
    "suits).", source=seed("PRF-DECK-1"), body=DeckIs(PIQUET_32))
RANKS = Rule(
    id="deck.rank_order", text="In each suit ace, king, queen, jack, ten, nine, eight, seven; "
    "no card counts points.", source=seed("PRF-DECK-2"), body=RankOrder(ranks("A K Q J 10 9 8 7")))
TRICK_VALUE = Rule(
    id="deck.trick_value", text="Only tricks count, one each.", source=seed("PRF-DECK-2"),
    body=TrickValue(const(1)))

# 3. The pot ------------------------------------------------------------------------------
ANTE = 10
POT = Rule(
    id="pot.ante", text=f"Before the first deal every player puts {ANTE} chips into the pot, so "
    "that it holds a multiple of 10; whenever a deal leaves it empty they fill it again the "
    "same way.  The payoff of each deal is paid from and into it.",
    source=source("PRF-POT-1", "[seed]; the pot a multiple of 10: [DX] (G3); the dealer "
                  "sitting out antes too ([assumption], G4); the ante of 10 each is ours, the "
                  "seed says only that the pot holds at least 10",
                  also=("PRF-POT-2", "PRF-POT-3")),
    body=Pot(ante=ANTE, granularity=10))

# 4. The deal -----------------------------------------------------------------------------
SHUFFLE = Rule(
    id="deal.shuffle", text="The dealer shuffles the pack before every deal.",
    source=assumption("PRF-DEAL-1", "the digest does not say how the pack is readied; a fresh "
                      "shuffle is the custom, and no rule carries the cards over"),
    body=Shuffle())
PACKETS = Rule(
    id="deal.packets", text="Clockwise from forehand: 3 cards each, then 4 each, then 3 each: "
    "10 to each player.", source=source("PRF-DEAL-1", "[seed] + [WP], [KS]"),
    body=DealPackets((3, 4, 3), first=seat_after(dealer)))
TALON = Rule(
    id="deal.talon", text="After the first round 2 cards go face down to the table: the talon.",
    source=source("PRF-DEAL-1", "[seed] + [KS]"), body=Talon(2, after_round=1))

# 5. The contracts and the auction --------------------------------------------------------
BID = call.bid.level
STANDING = standing.bid.level
SENIOR_TO_HOLDER = seniority(seat) < seniority(standing.bidder)
CONTRACTS = Rule(
    id="auction.contracts", text="The contracts, lowest first: One, Two, Three, Four, Game "
    "and Hearts.  Each means the declarer alone undertakes to win 6 of the 10 tricks; they "
    "differ in the trumps they allow.", source=seed("PRF-AUC-1"),
    body=Ladder(levels=tuple(range(ONE, HEARTS + 1)), strains=(None,),
                names=((1, "One"), (2, "Two"), (3, "Three"), (4, "Four"), (GAME, "Game"),
                       (HEARTS, "Hearts"))))
BID_ORDER = Rule(
    id="auction.bid_order", text="Each contract beats those before it on the ladder.",
    source=seed("PRF-AUC-1"), body=BidOrder(key=bid.level))
TURNS = Rule(
    id="auction.turns", text="Forehand calls first, then each player in turn, clockwise, for as "
    "many rounds as it takes.  A Hearts bid ends the auction; otherwise it ends when all but "
    "one have passed (two passes in a row after a bid), or when all three pass without a bid.",
    source=seed("PRF-AUC-2", also=("PRF-AUC-7", "PRF-AUC-10")),
    body=AuctionTurns(first=seat_after(dealer),
                      ends_when=ends_after_passes(ACTIVE - 1, ACTIVE)
                      | (standing.exists & (STANDING == HEARTS))))
PASS_FINAL = Rule(
    id="auction.pass_final", text="A pass is final: a player who has passed may only pass "
    "when his turn comes round again.", source=seed("PRF-AUC-2"),
    body=CallRule(applies=seat_passed, requires=~call.is_bid))
OPEN_ONE = Rule(
    id="auction.open_one", text="The first numbered bid of the auction must be One.",
    source=seed("PRF-AUC-3", "Game and Hearts, open at a first turn whatever the step rule "
                "says, may open the auction (G6)"),
    body=CallRule(applies=call.is_bid & ~standing.exists, requires=(BID == ONE) | (BID > FOUR)))
ONE_STEP = Rule(
    id="auction.one_step", text="Every later numbered bid is exactly one step above the "
    "current contract (One, Two, Three, Four), unless it holds it.", source=seed("PRF-AUC-4"),
    body=CallRule(applies=call.is_bid & standing.exists & (BID <= FOUR),
                  requires=(BID == STANDING + 1) | (BID == STANDING)))
HOLD = Rule(
    id="auction.hold", text="A player senior to the holder of the current numbered contract "
    "may instead hold it: repeat it and take it over; the displaced junior must then go one "
    "step up or pass.  A junior can never hold a senior's bid.",
    source=source("PRF-AUC-5", "[seed] + [WP] (G5)", also=("PRF-SETUP-3",)),
    body=HoldBid(when=(BID <= FOUR) & SENIOR_TO_HOLDER))
FIRST_TURN = Rule(
    id="auction.game_first_turn", text="Game or Hearts may be bid only at a player's first "
    "turn, whatever the step rule says; a pass there uses the chance up.",
    source=seed("PRF-AUC-6", "a pass at the first turn uses the chance up (G7)"),
    body=CallRule(applies=call.is_bid & (BID > FOUR), requires=seat_calls == 0))
AFTER_GAME = Rule(
    id="auction.after_game", text="After a Game bid only a player who has not yet had a turn "
    "may bid (Game or Hearts); everybody else is out (the first-turn rule and the step rule "
    "together say so).", source=seed("PRF-AUC-8"),
    body=Claim(Scope.CALL, implies(standing.exists & (STANDING > FOUR) & (seat_calls > 0)
                                   & call.is_bid, ~legal_call)))
SEVERAL_GAMES = Rule(
    id="auction.several_games", text="After a Game bid a player who has not yet had a turn "
    "may bid Game too: he joins it, and after the auction every Game bidder names a suit "
    "(exchange.name_trumps).", source=seed("PRF-AUC-9", also=("PRF-AUC-8",)),
    body=SameBidJoins(bids=bid.level == GAME))
DECLARER = Rule(
    id="auction.declarer", text="When all but one have passed, that player declares the "
    "current contract (a Hearts bidder at once).", source=seed("PRF-AUC-10"),
    body=HighestBidderDeclares())
ALL_PASS = Rule(
    id="auction.all_pass", text="If all pass without a bid, the next dealer deals afresh.",
    source=seed("PRF-AUC-10"), body=RedealIfNoBid(1))

# 6. The exchange and trumps --------------------------------------------------------------
EXCHANGE = Rule(
    id="exchange.talon", text="In One to Four the declarer takes the two talon cards and "
    "discards two cards face down; nobody else sees either.  In Game and Hearts the talon "
    "stays face down and unused.",
    source=source("PRF-EXCH-1", "[seed] + [LM]; the talon in Game and Hearts: PRF-EXCH-2, "
                  "[assumption] (G10)"),
    body=TakeTalon(when=IS_NUMBERED, discards=2))
TRUMPS_NAMED = Rule(
    id="exchange.trumps_named", text="The suit the declarer names (none before he names it).",
    source=seed("PRF-EXCH-3"), body=Track(NAMED, T.SUIT, None))
TRUMPS = Rule(
    id="exchange.trumps", text="The suit the declarer names is trumps.", source=seed("PRF-EXCH-3"),
    body=TrumpIs(when=const(True), suit=tracked(NAMED, T.SUIT)))
# 7. The defenders' decisions -------------------------------------------------------------
DEFENCE = Rule(
    id="defence.play_or_pass", text="Starting left of the declarer, each other player says "
    "play or pass.  If exactly one plays he may invite the other, who must then play: the "
    "host and his guest.  A player who passes lays his hand aside face down; if both pass "
    "there is no play and the declarer is credited with all 10 tricks.",
    source=source("PRF-DEF-1", "[seed] + [LM]",
                  also=("PRF-DEF-3", "PRF-DEF-4", "PRF-DEF-5")),
    body=DropOut(first=seat_after(declarer), when=const(True),
                 all_out=AllOut.DECLARER_TAKES_ALL, stay="play", leave="pass",
                 invite="invite", alone="alone"))

# 8. The play -----------------------------------------------------------------------------
FIRST_LEAD = Rule(
    id="play.first_lead", text="The declarer leads to the first trick; the winner of each "
    "trick leads to the next; the players taking part play clockwise.", source=seed("PRF-PLAY-1"),
    body=TrickPlay(first_lead=declarer))
FOLLOW = Rule(
    id="play.follow_suit", text="Follow suit if you can.", source=seed("PRF-PLAY-2"),
    body=follow_suit())
HOLDS_LED = hand.holds_any(cards_of(led_suit))
HOLDS_TRUMP = (trump != no_suit) & hand.holds_any(cards_of(trump))
TRUMP_IF_VOID = Rule(
    id="play.trump_if_void", text="If you cannot follow suit, play a trump if you can; "
    "otherwise any card.", source=seed("PRF-PLAY-2"),
    body=PlayRule(applies=~is_leading & ~HOLDS_LED & HOLDS_TRUMP, permits=cards_of(trump)))
# the cards PRF-PLAY-2 allows: of the led suit, else trumps, else any
ALLOWED = if_then_else(HOLDS_LED, hand & cards_of(led_suit),
                       if_then_else(HOLDS_TRUMP, hand & cards_of(trump), hand))
WINNING = ALLOWED & beating
MUST_BEAT = Rule(
    id="play.must_beat", text="If a card you may play beats the best card so far in the "
    "trick, you must play such a card (even over your co-defender).", source=seed("PRF-PLAY-3", "no exception for a co-defender's card (G12)"),
    body=PlayRule(applies=~is_leading & ~WINNING.is_empty, permits=beating))
LOWEST_WINNER = Rule(
    id="play.lowest_winner", text="When the declarer has led, the next player, if two or more "
    "of the cards he may play beat the lead, must play the lowest of them.",
    source=seed("PRF-PLAY-4"),
    body=PlayRule(applies=(position == 1) & (leader == declarer) & (WINNING.count >= 2),
                  permits=lowest(WINNING)))
TRUMPS_WIN = Rule(
    id="play.trumps_win", text="The highest trump wins the trick.", source=seed("PRF-PLAY-5"),
    body=trumps_win())
LED_WINS = Rule(
    id="play.led_suit_wins", text="Without a trump the highest card of the led suit wins.",
    source=seed("PRF-PLAY-5"), body=led_suit_wins())

# 9. The payoff from the pot --------------------------------------------------------------
PAYOFF = ("pay.from_the_pot", "pay.declarer_pays_tricks", "pay.declarer_fails", "pay.trick_chips",
          "pay.defender", "pay.host")
GUEST = Rule(
    id="pay.guest_never_pays", text="The guest never pays and receives nothing: his tricks are "
    "paid to the host.", source=seed("PRF-PAY-5"),
    body=Claim(Scope.OUTCOME, implies(invited(seat), awarded(*PAYOFF) == 0)))
PASSER = Rule(
    id="pay.passer", text="A player who passed and was not invited neither receives trick chips "
    "nor pays penalties.", source=seed("PRF-PAY-6", also=("PRF-DEF-4",)),
    body=Claim(Scope.OUTCOME, implies(dropped(seat), awarded(*PAYOFF) == 0)))
FROM_THE_POT = Rule(
    id="pay.from_the_pot", text="Whatever the result, the declarer takes 10 chips from the pot.",
    source=seed("PRF-PAY-1"), body=ScoreRule(when=seat == declarer, amount=const(10)))
PAYS_TRICKS = Rule(
    id="pay.declarer_pays_tricks", text="The declarer pays the defenders 1 chip for each trick "
    "they took (10 less his own tricks).", source=seed("PRF-PAY-2"),
    body=ScoreRule(when=seat == declarer, amount=DECLARER_TRICKS - TRICKS))
DECLARER_FAILS = Rule(
    id="pay.declarer_fails", text="A declarer who takes fewer than 6 tricks pays 20 chips into "
    "the pot.", source=seed("PRF-PAY-3"),
    body=ScoreRule(when=(seat == declarer) & (DECLARER_TRICKS < TO_MAKE), amount=const(-20)))

# 10. Bonuses (open) ----------------------------------------------------------------------
# The amounts of the ace and no-ace bonuses were lost from the sources (digest G13): these
# two numbers are the parameters a user fills in before playing the ``ace_bonuses``
# variant; the values here are placeholders, not rules.
ACE_BONUS = 1  # chips from each other active player, per ace held as dealt
NO_ACE_BONUS = 1  # chips from each other active player, to a player dealt no ace
ACES = cards(*(c for c in PIQUET_32 if c.rank is Rank.ACE))


def _aces(k: Expr | int) -> Expr:
    return (dealt_hand(k) & ACES).count


def _bonus() -> Expr:
    """The bonuses, as transfers between the seats dealt in: each pays every other the
    bonus per ace that one holds, and the bonus for holding none.  The totals run over
    every seat at the table, so the rule is the same with three players or four."""
    aces_total = each_seat(if_then_else(idle(seat), 0, _aces(seat)))
    none_total = each_seat(if_then_else(~idle(seat) & (_aces(seat) == 0), 1, 0))
    return (ACE_BONUS * (ACTIVE * _aces(seat) - aces_total)
            + NO_ACE_BONUS * (ACTIVE * if_then_else(_aces(seat) == 0, 1, 0) - none_total))


BONUSES_OFF = Rule(
    id="bonus.off", text="There is an ace bonus and a no-ace bonus, paid and received also by "
    "players who passed, never by a dealer sitting out; their amounts are not known, so by "
    "default no bonus is paid, and no player gains more in a deal than the pot holds (the "
    "ace_bonuses variant pays them).",
    source=assumption("PRF-BON-3", "the amounts were lost from the sources (G13)",
                      also=("PRF-BON-1", "PRF-BON-2")),
    body=Claim(Scope.OUTCOME, score_of(seat) <= pot))

# 11. The end of the session --------------------------------------------------------------
SESSION = Rule(
    id="game.session", text="Deals go on as long as the players like, the pot filled again "
    "whenever it is empty; at the end each player's result is his net chips won.",
    source=assumption("PRF-GAME-1", "[CH]'s Styrian pot: stop when the pot empties and the "
                      "players do not refill it (G17)"),
    body=MatchOf())

# Variants --------------------------------------------------------------------------------
# old (unlimited-pot) scoring: the declarer takes the whole pot P and pays P / 10 a trick
UNIT = pot // 10


def _old_scoring() -> tuple[tuple[Rule, Rule], ...]:
    old = "PRF-VAR-1"
    return (
        (FROM_THE_POT, Rule(id=FROM_THE_POT.id, text="The declarer takes the whole pot.",
                            source=seed(old), body=ScoreRule(when=seat == declarer, amount=pot))),
        (PAYS_TRICKS, Rule(id=PAYS_TRICKS.id, text="He pays each defender who played a tenth of "
                           "the pot for each trick he took.", source=seed(old),
                           body=ScoreRule(when=seat == declarer,
                                          amount=(DECLARER_TRICKS - TRICKS) * UNIT))),
        (DECLARER_FAILS, Rule(id=DECLARER_FAILS.id, text="A declarer who takes fewer than 6 "
                              "tricks pays twice the pot (as it was before the payoff) into it.",
                              source=seed(old), body=ScoreRule(
                                  when=(seat == declarer) & (DECLARER_TRICKS < TO_MAKE),
                                  amount=-2 * pot))),
        (TRICK_CHIPS, Rule(
            id="pay.trick_chips", text="Each defender who played receives a tenth of the pot "
            "for each trick he took, the guest's going to the host.", source=seed(old),
            body=ScoreRule(when=DEFENDS, amount=(tricks_won(seat) + GUEST_TRICKS) * UNIT))),
        (OWN_ACCOUNT, Rule(
            id="pay.defender", text="A defender on his own account with fewer than 2 tricks "
            "pays the pot into it.", source=seed(old),
            body=ScoreRule(when=DEFENDS & ~HAS_GUEST & (tricks_won(seat) < DEFENDER_MINIMUM),
                           amount=-pot))),
        (HOST, Rule(
            id="pay.host", text="A host whose team took fewer than 4 tricks pays the pot into "
            "it.", source=seed(old),
            body=ScoreRule(when=DEFENDS & HAS_GUEST
                           & (tricks_won(seat) + GUEST_TRICKS < TEAM_MINIMUM), amount=-pot))),
    )


VARIANTS = (
    Variant(
        id="old_scoring",
        text="Old scoring, with an unlimited pot: the declarer takes the whole pot and pays a "
        "tenth of it per trick to the defenders who played; a failing declarer pays twice the "
        "pot into it, a failing defender the pot.",
        replaces=_old_scoring(),
        source=seed("PRF-VAR-1", "the pot a multiple of 10 so that a tenth is whole (G15)"),
    ),
    Variant(
        id="extra_contracts",
        text="Extra contracts numbered Five, Six and Seven (perhaps more) above Four, paid "
        "between the players and not from the pot: defenders may not drop out, the talon is "
        "exchanged, no bonuses are paid; after the exchange the declarer of One to Seven may "
        "name a higher number; Game versions without the exchange score double and beat suit "
        "Games.",
        replaces=(),
        source=seed("PRF-VAR-2", "the list of contracts and their scores was lost from every "
                    "stored source (G14); the seed's 'One to Seven may change to a larger "
                    "number' suggests a contract above Seven"),
        not_decidable="the contracts' names, trick targets and scores are not known: the "
        "sources that listed them were lost (digest G14), so there is nothing to play or "
        "prove until they are found",
    ),
    Variant(
        id="four_players",
        text="Four play: the dealer deals to the other three and sits the deal out.",
        replaces=tuple((SEATS3[k], SEATS4[k]) for k in SEATS3),
        source=seed("PRF-SETUP-1", "the sitting-out dealer antes too ([assumption], G4)"),
    ),
    Variant(
        id="pagat_suit_order",
        text="Pagat's current suit numbers: hearts 4, diamonds 3, spades 2, clubs 1.",
        replaces=((SEED_TRUMPS, PAGAT_TRUMPS),),
        source=source("PRF-VAR-3", "[PG], [WP], [DEWP] (G2)"),
    ),
    Variant(
        id="ace_bonuses",
        text=f"The ace and no-ace bonuses, with amounts the user fills in (ACE_BONUS = "
        f"{ACE_BONUS}, NO_ACE_BONUS = {NO_ACE_BONUS} in spec/games/preference.py are "
        "placeholders): each player dealt in receives from each other the bonus per ace he "
        "was dealt, and the no-ace bonus if he was dealt none.  Players who passed pay and "
        "receive them too; the dealer sitting out does not.",
        replaces=((BONUSES_OFF, Rule(
            id="bonus.aces", text="Ace and no-ace bonuses between the players dealt in.",
            source=assumption("PRF-BON-1", "amounts unknown (G13); a transfer between active "
                              "players only, so chips stay conserved (PRF-BON-3)",
                              also=("PRF-BON-2", "PRF-BON-3")),
            body=ScoreRule(when=~idle(seat), amount=_bonus()))),),
        source=assumption("PRF-BON-1", "amounts unknown (G13)"),
    ),
)

# -- facts: the rulebook's own cards and numbers ------------------------------------------
# Each fact states what the seed or the digest says in literal cards, contracts, seats and
# chips, apart from the rules above (none of their constants or expressions is reused), so
# that a rule transcribed wrongly contradicts one of them.  The ladder's levels, as the
# contracts are bid: One 1, Two 2, Three 3, Four 4, Game in spades 5, in clubs 6, in
# diamonds 7 (by the seed's suit numbers: diamonds 3, clubs 2, spades 1), Hearts 8.  In the
# auction examples the dealer is seat 2, so forehand is seat 0, middlehand 1, rearhand 2.
#
# The facts of the play and the payoff list many cases in one property, each written
# ``_case(situation, then)``, "the situation does not arise or then holds", rather than as
# an implication: the checker proves that each premise of a property can occur with a
# query of its own, on a whole trick or deal, which for these two dozen cases would cost
# more than the rest of the check together.  tests/games/test_preference.py proves that
# every case (a situation and what holds in it) can occur.
_ONE, _TWO, _THREE, _FOUR, _GAME, _HEARTS = range(1, 7)
_SUIT = free_suit("suit")


def _seed_number(suit: Expr) -> Expr:
    """A suit's number as the seed gives it, written out apart from the rules' table."""
    return if_then_else(suit == Suit.SPADES, 1, if_then_else(
        suit == Suit.CLUBS, 2, if_then_else(suit == Suit.DIAMONDS, 3, 4)))
# [seed] PRF-DECK-2: in each suit A > K > Q > J > 10 > 9 > 8 > 7
_SEED_RANK = rank_table("seed_rank", ranks("A K Q J 10 9 8 7"), PIQUET_32)


def _case(situation: Expr, then: Expr) -> Expr:
    """The situation does not arise, or ``then`` holds in it."""
    return ~situation | then


def _cards(text: str) -> Expr:
    return cards(*(Card.parse(c) for c in text.split()))


def _strength(i: int) -> Expr:
    """How strongly the card at position ``i`` of a complete trick stands in it, by
    PRF-PLAY-5: a trump above any card of the led suit, which stands above any other card
    (which cannot win); within a suit by the seed's rank order.  0 when the trick has no
    card there (one defender plays, PRF-PLAY-6)."""
    c = played_card(i)
    return if_then_else(trick_size <= i, 0, if_then_else(
        c.suit == trump, 20 + _SEED_RANK[c],
        if_then_else(c.suit == played_card(0).suit, 10 + _SEED_RANK[c], 0)))


def _bids(level: int) -> Expr:
    return call.is_bid & (call.bid.level == level)


def _over(standing_level: int, level: int) -> Expr:
    """A bid of ``level`` by a seat still in the auction, over a standing ``standing_level``
    that another seat bid."""
    return (standing.exists & (standing.bid.level == standing_level) & (standing.bidder != seat)
            & ~seat_passed & ~auction_over & _bids(level))


def _opening(level: int) -> Expr:
    """A bid of ``level`` at the seat's first turn, nobody having bid yet."""
    return ~standing.exists & (seat_calls == 0) & ~auction_over & _bids(level)


def _spades_led(at: int | None = None) -> Expr:
    """Hearts trumps, a spade led, the seat to play at position ``at`` (any but the lead)."""
    where = ~is_leading if at is None else (position == at)
    return where & (trump == Suit.HEARTS) & (led_suit == Suit.SPADES)


def _holds_of(suit: Suit, text: str) -> Expr:
    """The seat's cards of ``suit`` are exactly these."""
    return (hand & cards_of(suit)) == _cards(text)


# the digest's worked examples (section 3), the declarer D, E on his left and W on his
# right: the tricks of D, E, W; what E and W said ("plays", "passes", "host", "guest"); the
# chips of D, E, W
_PAYOFFS = (
    ((10, 0, 0), ("passes", "passes"), (10, 0, 0)),
    ((7, 2, 1), ("plays", "plays"), (7, 2, -9)),
    ((5, 3, 2), ("plays", "plays"), (-15, 3, 2)),
    ((6, 3, 1), ("host", "guest"), (6, 4, 0)),
    ((7, 2, 1), ("host", "guest"), (7, -7, 0)),
    ((8, 2, 0), ("plays", "passes"), (8, 2, 0)),
    ((0, 5, 5), ("plays", "plays"), (-20, 5, 5)),  # "a declarer who takes 0 tricks nets -20"
)
# the host-and-guest examples again with W the host and E his guest
_GUEST_ON_THE_LEFT = (
    ((6, 1, 3), ("guest", "host"), (6, 0, 4)),
    ((7, 1, 2), ("guest", "host"), (7, 0, -7)),
)


# old scoring (PRF-VAR-1) with 30 chips in the pot, a tenth of it 3 a trick: D7 E2 W1 all
# playing, the declarer takes the pot and pays 9 for the defenders' 3 tricks (+21), E
# receives 6, W receives 3 and pays the pot for his single trick (-27); D5 E3 W2, the
# declarer pays 15 and twice the pot (+30 - 15 - 60 = -45), E +9, W +6
_OLD_PAYOFFS = (
    ((7, 2, 1), ("plays", "plays"), (21, 6, -27)),
    ((5, 3, 2), ("plays", "plays"), (-45, 9, 6)),
    ((10, 0, 0), ("passes", "passes"), (30, 0, 0)),
)


def _decision(s: int, said: str) -> Expr:
    out, guest = dropped(s), invited(s)
    return {"plays": ~out & ~guest, "host": ~out & ~guest, "passes": out & ~guest,
            "guest": guest}[said]


def _paid(d: int, example: tuple[tuple[int, int, int], tuple[str, str],
                                  tuple[int, int, int]], seats: int = 3) -> tuple[Expr, Expr]:
    """Seat ``d`` declares, E is the seat after him and W the one after E (with four
    players the dealer, who sits out, is the fourth and scores nothing): the example's
    chips."""
    won, said, chips = example
    e, w = (d + 1) % seats, (d + 2) % seats
    return (all_of(declarer == d, _decision(e, said[0]), _decision(w, said[1]),
                   tricks_won(d) == won[0], tricks_won(e) == won[1], tricks_won(w) == won[2]),
            score_of(seat) == if_then_else(seat == d, chips[0], if_then_else(
                seat == e, chips[1], if_then_else(seat == w, chips[2], 0))))


PLAY_CASES = (
    # [seed] PRF-PLAY-2: follow suit; void, a trump; void of both, any card
    (_spades_led() & _holds_of(Suit.SPADES, "7S") & hand.holds(Card.parse("AH")),
     legal_cards.holds(Card.parse("7S")) & ~legal_cards.holds(Card.parse("AH"))),
    (_spades_led() & _holds_of(Suit.SPADES, "") & _holds_of(Suit.HEARTS, "7H")
     & hand.holds(Card.parse("AC")),
     legal_cards.holds(Card.parse("7H")) & ~legal_cards.holds(Card.parse("AC"))),
    (_spades_led() & _holds_of(Suit.SPADES, "") & _holds_of(Suit.HEARTS, "")
     & hand.holds(Card.parse("7C")) & hand.holds(Card.parse("AD")),
     legal_cards.holds(Card.parse("7C")) & legal_cards.holds(Card.parse("AD"))),
    # [seed] PRF-PLAY-4, the digest's example: the declarer leads a spade (the ♠9); the
    # next player holds ♠A ♠J ♠8, of which the ♠A and ♠J beat it: he must play the ♠J
    (_spades_led(1) & (leader == declarer) & _holds_of(Suit.SPADES, "AS JS 8S")
     & ((beating & cards_of(Suit.SPADES)) == _cards("AS JS")),
     legal_cards == _cards("JS")),
    # ... and the third player, holding ♠K ♠7, the ♠K beating the ♠J, must play the ♠K
    (_spades_led(2) & _holds_of(Suit.SPADES, "KS 7S") & beating.holds(Card.parse("KS")),
     legal_cards == _cards("KS")),
    # [seed] PRF-PLAY-3/4: after a defender's lead the next player may beat with either
    (_spades_led(1) & (leader != declarer) & _holds_of(Suit.SPADES, "AS JS 8S")
     & ((beating & cards_of(Suit.SPADES)) == _cards("AS JS")),
     legal_cards == _cards("AS JS")),
    # void in spades after the declarer's lead, holding ♥A ♥7 that both beat: the ♥7; the
    # third player in the same case may trump with either, and must trump
    (_spades_led(1) & (leader == declarer) & _holds_of(Suit.SPADES, "")
     & _holds_of(Suit.HEARTS, "AH 7H") & beating.holds(Card.parse("7H")),
     legal_cards == _cards("7H")),
    (_spades_led(2) & _holds_of(Suit.SPADES, "") & _holds_of(Suit.HEARTS, "AH 7H")
     & beating.holds(Card.parse("7H")),
     legal_cards == _cards("AH 7H")),
)
PAYOFF_CASES = (
    *(_paid(0, example) for example in _PAYOFFS),
    *(_paid(d, example) for d in (1, 2) for example in _PAYOFFS[3:5] + _GUEST_ON_THE_LEFT),
)

FOUR_PLAYER_CASES = tuple(
    # the dealer, seat 3, sits out: seat 0 declares, seats 1 and 2 defend
    (idle(3) & situation, then) for situation, then in (_paid(0, ex, 4) for ex in _PAYOFFS[:3]))
OLD_SCORING_CASES = tuple((situation & (pot == 30), then)
                          for situation, then in (_paid(0, ex) for ex in _OLD_PAYOFFS))
_ACES = cards(*(Card.parse(f"A{s}") for s in "SHDC"))

FACTS = (
    Property(
        id="deal.dealing_seen",
        text="Seat 2 deals: the 1st to 3rd cards of the pack go to seat 0 on his left, the "
        "4th to 6th to seat 1, the 7th to 9th to himself; the 10th and 11th are the talon; "
        "then 4 each from the 12th (seat 0) to the 23rd (seat 2), then 3 each, the 32nd and "
        "last to the dealer; seat 0 deals next.",
        scope=Scope.DEAL,
        holds=implies(dealer == 2, all_of(
            *(receives(k) == 0 for k in (1, 2, 3, 12, 13, 14, 15, 24, 25, 26)),
            *(receives(k) == 1 for k in (4, 5, 6, 16, 17, 18, 19, 27, 28, 29)),
            *(receives(k) == 2 for k in (7, 8, 9, 20, 21, 22, 23, 30, 31, 32)),
            receives(10) == -1, receives(11) == -1, receives(33) == -1, next_dealer == 0)),
        covers=("deal.packets", "deal.talon", "deal.next_dealer"),
        unless=("four_players",),
        source=source("PRF-DEAL-1", "[seed] + [WP], [KS]; the deal passing left is the "
                      "digest's assumption PRF-SETUP-4", also=("PRF-SETUP-3", "PRF-SETUP-4")),
    ),
    Property(
        id="play.trick_winner_seen",
        text="Every trick is won by its highest trump, or without a trump by the highest card "
        "of the suit led, ranking A K Q J 10 9 8 7: the digest's ♠9 led, ♠J and ♠K is won by "
        "the ♠K; any trump beats the led ace; a card of another suit never wins.",
        scope=Scope.TRICK,
        holds=all_of(*(
            if_then_else(trick_winner == 0, _strength(0),
                         if_then_else(trick_winner == 1, _strength(1), _strength(2)))
            >= _strength(i) for i in range(3))),
        covers=("deck.rank_order", "play.trumps_win", "play.led_suit_wins"),
        source=seed("PRF-PLAY-5", also=("PRF-DECK-2", "PRF-PLAY-6")),
    ),
    Property(
        id="play.legal_cards_seen",
        text="The declarer leads to the first trick.  Hearts trumps, spades led: holding the "
        "♠7 alone and the ♥A, the ♠7 and not the ♥A; void in spades with the ♥7 and the ♣A, "
        "the ♥7; void in both, the ♣7 or the ♦A.  The declarer leads a spade and the next "
        "player holds ♠A ♠J ♠8, the ♠A and ♠J beating it: the ♠J; the third player holding "
        "♠K ♠7, the ♠K beating the trick: the ♠K; after a defender's lead, ♠A or ♠J; void "
        "in spades with ♥A ♥7 after the declarer's lead, the ♥7, and third, ♥A or ♥7.",
        scope=Scope.PLAY,
        # every case has hearts trumps; as a premise of its own, the checker proves that
        # hearts can be trumps at all
        holds=all_of(first_leader == declarer,
                     implies(trump == Suit.HEARTS, all_of(*(_case(*c) for c in PLAY_CASES)))),
        covers=("play.first_lead", "play.follow_suit", "play.trump_if_void", "play.must_beat",
                "play.lowest_winner"),
        source=seed("PRF-PLAY-2", "the digest's play example for PRF-PLAY-4",
                    also=("PRF-PLAY-1", "PRF-PLAY-3", "PRF-PLAY-4")),
    ),
    Property(
        id="auction.forehand_calls_first",
        text="Seat 2 deals: seat 0, on his left, calls first; seat 0 deals: seat 1 calls first.",
        scope=Scope.CALL,
        holds=implies(dealer == 2, first_to_call == 0) & implies(dealer == 0, first_to_call == 1),
        covers=("auction.turns",),
        unless=("four_players",),
        source=seed("PRF-AUC-2", also=("PRF-SETUP-3",)),
    ),
    Property(
        id="auction.ends_seen",
        text="After a bid below Hearts two passes in a row end the auction, one does not; a "
        "Hearts bid ends it at once; three passes with no bid end it, two do not.",
        scope=Scope.CALL,
        holds=all_of(
            implies(standing.exists & (standing.bid.level == _TWO) & (passes_in_row == 2),
                    auction_over),
            implies(standing.exists & (standing.bid.level == _GAME) & (passes_in_row == 2),
                    auction_over),
            implies(standing.exists & (standing.bid.level == _TWO) & (passes_in_row == 1),
                    ~auction_over),
            implies(standing.exists & (standing.bid.level == _ONE) & (passes_in_row == 0),
                    ~auction_over),
            implies(standing.exists & (standing.bid.level == _HEARTS), auction_over),
            implies(~standing.exists & (calls_made == 3), auction_over),
            implies(~standing.exists & (calls_made == 2), ~auction_over)),
        covers=("auction.turns",),
        source=seed("PRF-AUC-10", also=("PRF-AUC-2", "PRF-AUC-7")),
    ),
    Property(
        id="auction.opening_seen",
        text="The first bid of the auction may be One, or at a first turn Game or Hearts, and "
        "never Two, Three or Four.",
        scope=Scope.CALL,
        holds=all_of(
            *(implies(_opening(level), legal_call) for level in (_ONE, _GAME, _HEARTS)),
            *(implies(~standing.exists & _bids(level), ~legal_call)
              for level in (_TWO, _THREE, _FOUR))),
        covers=("auction.contracts", "auction.open_one", "auction.game_first_turn"),
        source=seed("PRF-AUC-3", also=("PRF-AUC-6",)),
    ),
    Property(
        id="auction.step_seen",
        text="Over One, Two may be bid and Three not; over Two, Three and not Four or One; "
        "over Three, Four and not One; over Four not Three; nothing is ever bid above Hearts.",
        scope=Scope.CALL,
        holds=all_of(
            implies(_over(_ONE, _TWO), legal_call), implies(_over(_ONE, _THREE), ~legal_call),
            implies(_over(_TWO, _THREE), legal_call), implies(_over(_TWO, _FOUR), ~legal_call),
            implies(_over(_TWO, _ONE), ~legal_call), implies(_over(_THREE, _FOUR), legal_call),
            implies(_over(_THREE, _ONE), ~legal_call), implies(_over(_FOUR, _THREE), ~legal_call),
            implies(call.is_bid & legal_call,
                    (call.bid.level >= _ONE) & (call.bid.level <= _HEARTS))),
        covers=("auction.contracts", "auction.one_step", "auction.bid_order"),
        source=seed("PRF-AUC-4", also=("PRF-AUC-1",)),
    ),
    Property(
        id="auction.hold_seen",
        text="Seat 2 deals: over middlehand's Two, forehand may hold Two and rearhand may not; "
        "over forehand's Two middlehand may not hold it; over rearhand's Three middlehand may "
        "hold it; forehand may hold middlehand's Four.",
        scope=Scope.CALL,
        holds=all_of(
            implies((dealer == 2) & (standing.bidder == 1) & (seat == 0) & _over(_TWO, _TWO),
                    legal_call),
            implies((dealer == 2) & (standing.bidder == 1) & (seat == 2) & _over(_TWO, _TWO),
                    ~legal_call),
            implies((dealer == 2) & (standing.bidder == 0) & (seat == 1) & _over(_TWO, _TWO),
                    ~legal_call),
            implies((dealer == 2) & (standing.bidder == 2) & (seat == 1) & _over(_THREE, _THREE),
                    legal_call),
            implies((dealer == 2) & (standing.bidder == 1) & (seat == 0) & _over(_FOUR, _FOUR),
                    legal_call)),
        covers=("auction.hold",),
        unless=("four_players",),
        source=source("PRF-AUC-5", "[seed] + [WP]", also=("PRF-SETUP-3",)),
    ),
    Property(
        id="auction.games_seen",
        text="Game may be bid over One at a first turn but not at a later one, nor Hearts; "
        "over Game, Game again (joining it) or Hearts may be bid at a first turn, but not at "
        "a later one, nor Four; a player who has passed may only pass.",
        scope=Scope.CALL,
        holds=all_of(
            implies(_over(_ONE, _GAME) & (seat_calls == 0), legal_call),
            implies(_over(_ONE, _GAME) & (seat_calls == 1), ~legal_call),
            implies(_over(_ONE, _HEARTS) & (seat_calls == 1), ~legal_call),
            implies(_over(_GAME, _GAME) & (seat_calls == 0), legal_call),
            implies(_over(_GAME, _HEARTS) & (seat_calls == 0), legal_call),
            implies(_over(_GAME, _GAME) & (seat_calls == 1), ~legal_call),
            implies(_over(_GAME, _FOUR), ~legal_call),
            implies(seat_passed & call.is_bid, ~legal_call)),
        covers=("auction.game_first_turn", "auction.several_games", "auction.pass_final"),
        source=seed("PRF-AUC-8", also=("PRF-AUC-6", "PRF-AUC-9", "PRF-AUC-2")),
    ),
    Property(
        id="exchange.trumps_seen",
        text="The trumps the declarer names follow his contract: in Two never spades, in "
        "Three diamonds or hearts, in Four hearts; in Game spades, clubs or diamonds, never "
        "hearts; in Hearts hearts.",
        scope=Scope.OUTCOME,
        holds=all_of(
            implies(LEVEL == _TWO, trump != Suit.SPADES),
            implies(LEVEL == _THREE, (trump == Suit.DIAMONDS) | (trump == Suit.HEARTS)),
            implies(LEVEL == _FOUR, trump == Suit.HEARTS),
            implies(LEVEL == _GAME, (trump == Suit.SPADES) | (trump == Suit.CLUBS)
                    | (trump == Suit.DIAMONDS)),
            implies(LEVEL == _HEARTS, trump == Suit.HEARTS)),
        covers=("exchange.name_trumps", "exchange.trumps"),
        unless=("pagat_suit_order",),
        source=seed("PRF-EXCH-3", "the suit numbers of the seed: spades 1, clubs 2, "
                    "diamonds 3, hearts 4", also=("PRF-DECK-3",)),
    ),
    Property(
        id="exchange.trumps_offered",
        text="Each suit can be trumps in the highest numbered contract its number allows "
        "(the seed's suit numbers): spades in One, clubs in Two, diamonds in Three, hearts "
        "in Four.",
        scope=Scope.OUTCOME,
        free=(_SUIT,),
        exists=True,
        holds=(LEVEL == _seed_number(_SUIT)) & (trump == _SUIT),
        covers=("exchange.name_trumps",),
        unless=("pagat_suit_order",),
        source=seed("PRF-EXCH-3", also=("PRF-DECK-3",)),
    ),
    Property(
        id="pay.worked_examples",
        text="The ten tricks of a deal count ten in all, one each (no card counts points).  "
        "The digest's worked payoffs, D declaring with E on his left and W: both pass, "
        "D +10; D7 E2 W1 all playing, +7, +2, -9; D5 E3 W2, -15, +3, +2; E host and W guest, "
        "D6 E3 W1, +6, +4, 0, and D7 E2 W1, +7, -7, 0 (the same with W host and E guest, "
        "whoever declares); E alone, D8 E2, +8, +2, 0; D taking no trick against E5 W5, -20, "
        "+5, +5.",
        scope=Scope.OUTCOME,
        holds=all_of(points_won(0) + points_won(1) + points_won(2) == 10,
                     *(_case(*c) for c in PAYOFF_CASES)),
        covers=("deck.trick_value", "pay.from_the_pot", "pay.declarer_pays_tricks",
                "pay.declarer_fails", "pay.trick_chips", "pay.defender", "pay.host"),
        unless=("old_scoring", "four_players", "ace_bonuses"),
        source=seed("PRF-PAY-1", "the digest's worked examples (section 3)",
                    also=("PRF-DECK-2", "PRF-PAY-2", "PRF-PAY-3", "PRF-PAY-4", "PRF-PAY-5",
                          "PRF-PAY-6", "PRF-DEF-5")),
    ),
    Property(
        id="auction.all_pass_seen",
        text="Seat 2 deals and all three pass: seat 0, on his left, deals afresh; seat 0 "
        "deals and all pass: seat 1.",
        scope=Scope.DEAL,
        holds=implies(dealer == 2, no_bid_redealer == 0) & implies(dealer == 0, no_bid_redealer == 1),
        covers=("auction.all_pass",),
        unless=("four_players",),
        source=seed("PRF-AUC-10"),
    ),
    Property(
        id="exchange.talon_seen",
        text="In One, Two, Three and Four the declarer takes the talon; in Game and Hearts "
        "he does not.",
        scope=Scope.OUTCOME,
        holds=all_of(*(implies(LEVEL == level, talon_taken) for level in (_ONE, _TWO, _THREE, _FOUR)),
                     implies(LEVEL == _GAME, ~talon_taken), implies(LEVEL == _HEARTS, ~talon_taken)),
        covers=("exchange.talon",),
        source=seed("PRF-EXCH-1", "the talon in Game and Hearts: PRF-EXCH-2, [assumption]",
                    also=("PRF-EXCH-2",)),
    ),
    Property(
        id="defence.order_seen",
        text="Seat 2 deals: when seat 0 declares, seat 1, on his left, chooses first whether "
        "to play; when seat 1 declares, seat 2; when seat 2 declares, seat 0.",
        scope=Scope.OUTCOME,
        holds=all_of(implies((dealer == 2) & (declarer == 0), first_defender == 1),
                     implies((dealer == 2) & (declarer == 1), first_defender == 2),
                     implies((dealer == 2) & (declarer == 2), first_defender == 0)),
        covers=("defence.play_or_pass",),
        unless=("four_players",),
        source=seed("PRF-DEF-1"),
    ),
    Property(
        id="setup.four_players_seen",
        text="With four players, seat 3 deals: he is dealt no card and sits the deal out, "
        "seats 0, 1 and 2 are dealt 10 cards each from seat 0 on, and seat 0 deals next; "
        "when seat 0 declares, seat 1 chooses first whether to play, and when seat 2 "
        "declares, seat 0 (the dealer passed over).",
        scope=Scope.DEAL,
        holds=implies(dealer == 3, all_of(
            *(receives(k) != 3 for k in range(1, 33)),
            receives(1) == 0, receives(4) == 1, receives(7) == 2,
            receives(10) == -1, receives(11) == -1, next_dealer == 0)),
        covers=("setup.dealer_sits_out", "deal.packets", "deal.next_dealer"),
        under=("four_players",),
        source=seed("PRF-SETUP-1", also=("PRF-DEAL-1", "PRF-SETUP-3")),
    ),
    Property(
        id="defence.four_players_order_seen",
        text="With four players, seat 3 deals and sits out: when seat 0 declares, seat 1 "
        "chooses first whether to play; when seat 2 declares, seat 0, the dealer passed over.",
        scope=Scope.OUTCOME,
        holds=all_of(implies((dealer == 3) & (declarer == 0), first_defender == 1),
                     implies((dealer == 3) & (declarer == 2), first_defender == 0)),
        covers=("defence.play_or_pass", "setup.dealer_sits_out"),
        under=("four_players",),
        source=seed("PRF-DEF-1", also=("PRF-SETUP-1",)),
    ),
    Property(
        id="pay.four_players_seen",
        text="With four players the digest's worked payoffs are the same for the three who "
        "play, and the dealer who sits out pays and receives nothing: seat 3 deals, seat 0 "
        "declares with seats 1 and 2 defending: both pass, +10, 0, 0; D7 E2 W1, +7, +2, -9; "
        "D5 E3 W2, -15, +3, +2; the dealer 0 each time.",
        scope=Scope.OUTCOME,
        holds=all_of(*(_case(*c) for c in FOUR_PLAYER_CASES)),
        covers=("setup.dealer_sits_out", "pay.from_the_pot", "pay.declarer_pays_tricks",
                "pay.declarer_fails", "pay.trick_chips", "pay.defender"),
        under=("four_players",),
        unless=("old_scoring", "ace_bonuses"),
        source=seed("PRF-PAY-1", "the digest's worked examples with the dealer sitting out",
                    also=("PRF-SETUP-1", "PRF-BON-2")),
    ),
    Property(
        id="pay.old_scoring_seen",
        text="Old scoring with 30 chips in the pot, a tenth of it 3 chips a trick: D7 E2 W1 "
        "all playing, D +21 (the pot, less 9 for the defenders' tricks), E +6, W -27 (3 for "
        "his trick, less the pot for taking fewer than 2); D5 E3 W2, D -45 (the pot, less "
        "15, less twice the pot), E +9, W +6; both defenders pass, D +30.",
        scope=Scope.OUTCOME,
        holds=all_of(*(_case(*c) for c in OLD_SCORING_CASES)),
        covers=("pay.from_the_pot", "pay.declarer_pays_tricks", "pay.declarer_fails",
                "pay.trick_chips", "pay.defender"),
        under=("old_scoring",),
        unless=("four_players", "ace_bonuses"),
        source=seed("PRF-VAR-1", "the variant's payoffs worked out with a pot of 30"),
    ),
    Property(
        id="bonus.aces_seen",
        text="With the ace bonuses (1 chip an ace, 1 for none, the placeholders): seat 0 "
        "dealt two aces, seat 1 two and seat 2 none, seat 0 receives 2 from each other and "
        "pays 2 to seat 1 and 1 to seat 2 (+1), seat 1 likewise (+1), seat 2 pays 4 and "
        "receives 2 for his none (-2): the bonuses add up to nothing.",
        scope=Scope.OUTCOME,
        holds=implies(((dealt_hand(0) & _ACES).count == 2) & ((dealt_hand(1) & _ACES).count == 2),
                      awarded("bonus.aces") == if_then_else(seat == 2, -2, 1)),
        covers=("bonus.aces",),
        under=("ace_bonuses",),
        unless=("four_players",),
        source=assumption("PRF-BON-1", "the amounts are the placeholders ACE_BONUS and "
                          "NO_ACE_BONUS (G13); each pays every other, as PRF-BON-2 says",
                          also=("PRF-BON-2", "PRF-BON-3")),
    ),
)


GAME = Game(
    name="Austrian Préférence",
    key="preference",
    ref_prefix="PRF",
    aliases=("preferance", "austrian_preference", "préférence"),
    doc=__doc__ or "",
    rules=(
        SEATS3["seats"], SIDES, CLOCKWISE, SEATS3["sits_out"], NEXT_DEALER,
        PACK, RANKS, TRICK_VALUE,
        SHUFFLE, PACKETS, TALON,
        CONTRACTS, BID_ORDER, TURNS, PASS_FINAL, OPEN_ONE, ONE_STEP, HOLD,
        FIRST_TURN, AFTER_GAME, SEVERAL_GAMES, DECLARER, ALL_PASS,
        EXCHANGE, TRUMPS_NAMED, SEED_TRUMPS, TRUMPS,
        DEFENCE,
        FIRST_LEAD, FOLLOW, TRUMP_IF_VOID, MUST_BEAT, LOWEST_WINNER, TRUMPS_WIN, LED_WINS, TEN_TRICKS,
        FROM_THE_POT, PAYS_TRICKS, DECLARER_FAILS, TRICK_CHIPS,
        OWN_ACCOUNT, HOST, GUEST, PASSER,
        BONUSES_OFF, POT, SESSION,
    ),
    variants=VARIANTS,
    properties=FACTS,
)
