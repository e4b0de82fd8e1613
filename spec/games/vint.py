"""Vint (Винт), the Russian partnership auction whist, as played in the early 20th century.

Players: 4 in two fixed partnerships, partners opposite; everything goes clockwise.
Deck: the 52-card French pack, A high.  An auction of 35 bids (♠ < ♣ < ♦ < ♥ < Grand at
each level) ends only after eight passes in a row; the last bidder declares and all four
play their own hands (no dummy).  Both sides write their tricks below the line, at ten
times the contract's level a trick, and the first side to 500 wins the game; penalties,
slams, coronets (a single hand's aces and top sequences) and honours (a partnership's
aces and top trumps) go above the line.  Two games win the rubber.

Sources:
  [seed] the Japanese rules page ``003_c3dee0604047e5f9.txt`` (the early-20th-century rules)
  [F]    R. F. Foster, *Foster's Complete Hoyle*, the Vint chapter
  [WPV]  https://en.wikipedia.org/wiki/Vint
  [EB]   1911 Encyclopaedia Britannica, "Vint" (after Haddan, 1900)
  [PGV]  https://www.pagat.com/auctionwhist/vint.html (the 1886 Russian rules)

Deviations and open points, each a named variant (see ``VARIANTS``):
  * a player may not raise his own standing bid unless someone else has bid since ([F]);
    the 1886 rules allow it (``self_overcall``) and end the auction after twelve passes
    (``twelve_passes``);
  * a deal that wins a game is written whole in that game ([assumption], G12);
    ``carry_over`` writes what it scores after the deciding trick in the next game;
  * three or more trump honours score by the number held (G9: "3 of the 5" read as
    "at least 3");
  * the rubber is settled by the difference of the grand totals (G13, as in bridge).
"""
from __future__ import annotations

from spec.cards import FRENCH_52, SUITS, Card, CardSet, Rank, Suit
from spec.dsl import (
    AfterGame,
    AuctionTurns,
    BidOrder,
    CallRule,
    Claim,
    DealerRotation,
    DealPackets,
    DeckIs,
    Direction,
    Game,
    GameBonus,
    GameTarget,
    HighestBidderDeclares,
    Ladder,
    PlayDirection,
    Property,
    RankOrder,
    RedealIfNoBid,
    Rubber,
    RubberSettlement,
    Rule,
    Scope,
    ScoreRule,
    Seats,
    Shuffle,
    TrickPlay,
    TrickScores,
    TrickValue,
    Variant,
    all_of,
    assumption,
    auction_over,
    awarded,
    bid,
    call,
    calls_made,
    cards_of,
    carries_over,
    const,
    contract,
    dealer,
    dealt_hand,
    declarer,
    first_leader,
    first_to_call,
    free_bid,
    free_cards,
    game_bonus,
    game_target,
    games_won,
    hand,
    if_then_else,
    implies,
    is_leading,
    led_suit,
    legal_call,
    legal_cards,
    let,
    match_over,
    next_dealer,
    no_bid_redealer,
    no_suit,
    partner,
    passes_in_row,
    played_card,
    rank_table,
    ranks,
    receives,
    score_of,
    seat,
    seat_after,
    seed,
    source,
    standing,
    trick_winner,
    tricks_won,
    trump,
    with_dealt,
)
from spec.dsl.blocks import (
    ends_after_passes,
    follow_suit,
    led_suit_wins,
    overcall,
    trumps_win,
)

# 1. Players and seats ---------------------------------------------------------------
PLAYERS = 4
NORTH, EAST, SOUTH, WEST = range(PLAYERS)  # in order of play (clockwise); West deals first

SEATING = Rule(
    id="setup.seats",
    text="Four play in two fixed partnerships, partners sitting opposite: North and South "
    "against East and West.",
    source=seed("VNT-SETUP-1"),
    body=Seats(("North", "East", "South", "West"), partnerships=((NORTH, SOUTH), (EAST, WEST))),
)
CLOCKWISE = Rule(
    id="setup.clockwise",
    text="Dealing, bidding and play go clockwise.",
    source=seed("VNT-SETUP-2"),
    body=PlayDirection(Direction.CLOCKWISE),
)
NEXT_DEALER = Rule(
    id="setup.next_dealer",
    text="The first dealer is chosen by any method; after each deal the deal passes to the "
    "left.",
    source=seed("VNT-SETUP-2"),
    body=DealerRotation(steps=1),
)

# 2. The cards -------------------------------------------------------------------------
DECK = FRENCH_52
RANK_ORDER = ranks("A K Q J 10 9 8 7 6 5 4 3 2")  # high to low, in every suit
TRICKS = len(DECK) // PLAYERS  # 13
BOOK = 6  # the tricks a contract's level counts above

PACK = Rule(
    id="deck.cards",
    text="The pack has 52 cards, A K Q J 10 9 8 7 6 5 4 3 2 in each suit.",
    source=seed("VNT-DECK-1"),
    body=DeckIs(DECK),
)
RANKS = Rule(
    id="deck.rank_order",
    text="In every suit the ace ranks highest, then K, Q, J, 10 and so down to the 2.",
    source=seed("VNT-DECK-1"),
    body=RankOrder(RANK_ORDER),
)

# 3. The deal --------------------------------------------------------------------------
SHUFFLE = Rule(
    id="deal.shuffle",
    text="The dealer shuffles the pack before every deal.",
    source=assumption("VNT-DEAL-1", "the digest does not say how the pack is readied; a fresh "
                      "shuffle is whist's custom, and no rule carries the cards over"),
    body=Shuffle(),
)
DEAL = Rule(
    id="deal.one_at_a_time",
    text="The dealer deals the whole pack one card at a time clockwise, starting on his "
    "left: thirteen cards each.",
    source=seed("VNT-DEAL-1"),
    body=DealPackets((1,) * TRICKS, first=seat_after(dealer)),
)

# 4. The auction -----------------------------------------------------------------------
STRAINS = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None)  # low to high
PASSES_TO_END = 8

LADDER = Rule(
    id="auction.bids",
    text="A call is a pass or a bid of a level from 1 to 7 (tricks above six) and a strain: "
    "spades, clubs, diamonds, hearts or Grand (no trumps, written NT).",
    source=seed("VNT-AUC-2"),
    body=Ladder(levels=tuple(range(1, 8)), strains=STRAINS, no_trumps="Grand"),
)
BID_ORDER = Rule(
    id="auction.bid_order",
    text="A higher level beats a lower one; at the same level spades are lowest, then clubs, "
    "diamonds, hearts, and Grand highest: 35 bids from 1 spade to 7 Grand.",
    source=seed("VNT-AUC-3"),
    body=BidOrder(key=5 * (bid.level - 1) + bid.strain_rank),
)
TURNS = Rule(
    id="auction.turns",
    text="The dealer calls first and the calls go round clockwise as often as needed; after "
    "a bid the auction ends when eight passes in a row follow it (every player passes "
    "twice), and it ends at once if the first four calls are passes.",
    source=source("VNT-AUC-1", "[F] for the dealer calling first; the eight passes from the "
                  "seed", also=("VNT-AUC-7",)),
    body=AuctionTurns(first=dealer, ends_when=ends_after_passes(PASSES_TO_END, PLAYERS)),
)
OVERCALL = Rule(
    id="auction.overcall",
    text="A bid must beat the highest bid so far.",
    source=seed("VNT-AUC-4"),
    body=overcall(),
)
PASS_NOT_FINAL = Rule(
    id="auction.pass_not_final",
    text="Passing is not final: a player who has passed may bid later, over anyone's bid "
    "but his own.",
    source=seed("VNT-AUC-5", "implied by the eight passes; [WPV]"),
    body=Claim(Scope.CALL, implies(
        call.is_bid & (~standing.exists | ((call.bid.key > standing.bid.key)
                                           & (standing.bidder != seat))),
        legal_call)),
)
NO_SELF_OVERCALL = Rule(
    id="auction.no_self_overcall",
    text="A player may not raise his own highest bid unless another player has bid since; "
    "he may raise his partner's.",
    source=source("VNT-AUC-6", "[F]; the 1886 rules allow it (variant self_overcall)"),
    body=CallRule(applies=call.is_bid & standing.exists, requires=standing.bidder != seat),
)
ALL_PASS = Rule(
    id="auction.all_pass",
    text="If the first four calls are all passes there is no play and the next dealer deals.",
    source=seed("VNT-AUC-8"),
    body=RedealIfNoBid(steps=1),
)
DECLARER = Rule(
    id="auction.declarer",
    text="The last bidder declares and his bid is the contract (not the first to name the "
    "strain).",
    source=seed("VNT-AUC-9"),
    body=HighestBidderDeclares(),
)

# 5. The play --------------------------------------------------------------------------
FIRST_LEAD = Rule(
    id="play.first_lead",
    text="The declarer's left-hand opponent leads to the first trick and play goes "
    "clockwise; all four play their own hands (there is no dummy).",
    source=seed("VNT-PLAY-1"),
    body=TrickPlay(first_lead=seat_after(declarer)),
)
FOLLOW_SUIT = Rule(
    id="play.follow_suit",
    text="A player who holds a card of the led suit must play one; otherwise he may play "
    "any card.",
    source=source("VNT-PLAY-2", "[F]; the seed's list of play rules was lost"),
    body=follow_suit(),
)
NO_OBLIGATION = Rule(
    id="play.no_obligation",
    text="The leader may lead any card, and a player who cannot follow suit need not trump.",
    source=source("VNT-PLAY-2", "[F]"),
    body=Claim(Scope.PLAY, implies(is_leading | ~hand.holds_any(cards_of(led_suit)),
                                   legal_cards == hand)),
)
TRUMPS_WIN = Rule(
    id="play.trumps_win",
    text="The highest trump played wins the trick.",
    source=source("VNT-PLAY-3", "[F]"),
    body=trumps_win(),
)
LED_SUIT_WINS = Rule(
    id="play.led_suit_wins",
    text="If no trump is played, and always in Grand, the highest card of the led suit wins; "
    "the winner leads to the next trick.",
    source=source("VNT-PLAY-3", "[F]"),
    body=led_suit_wins(),
)

# 6. Tricks below the line -------------------------------------------------------------
BELOW, ABOVE = "below", "above"
TRICK_VALUE = 10 * contract.level
GRAND = trump == no_suit
SIDE = (seat == declarer) | (seat == partner(declarer))  # the seat scored is a declarer
DECLARERS_TRICKS = tricks_won(declarer) + tricks_won(partner(declarer))
SIDE_TRICKS = tricks_won(seat) + tricks_won(partner(seat))
NEEDED = BOOK + contract.level
MADE = DECLARERS_TRICKS >= NEEDED
UNDERTRICKS = if_then_else(MADE, 0, NEEDED - DECLARERS_TRICKS)

VALUE = Rule(
    id="score.trick_value",
    text="A trick is worth ten times the contract's level, whatever the strain: 10 at the "
    "one level up to 70 at the seven level.",
    source=seed("VNT-SCORE-1"),
    body=TrickValue(TRICK_VALUE),
)
BELOW_THE_LINE = Rule(
    id="score.below_the_line",
    text="Each side writes below the line the trick value for every trick it took, whether "
    "or not the contract was made.",
    source=seed("VNT-SCORE-2", "the value times the tricks, as the seed's example and [F] "
                "(G6)"),
    body=TrickScores(BELOW),
)
CONTRACT_MADE = Rule(
    id="score.contract_made",
    text="The contract is made when the declaring side takes six tricks more than its "
    "level; each trick it falls short is an undertrick.",
    source=seed("VNT-SCORE-3"),
    body=Claim(Scope.OUTCOME, all_of(UNDERTRICKS >= 0, UNDERTRICKS <= NEEDED,
                                     (UNDERTRICKS == 0) == MADE)),
)
UNDERTRICK_PENALTY = Rule(
    id="score.undertricks",
    text="For each undertrick the defending side writes a hundred times the trick value "
    "above the line.",
    source=seed("VNT-PEN-1"),
    body=ScoreRule(when=~SIDE & (UNDERTRICKS > 0), amount=100 * TRICK_VALUE * UNDERTRICKS,
                   line=ABOVE),
)

# the rules of the coronets, below: scored for one hand each
CORONETS = ("coronet.aces", "coronet.sequence", "coronet.trump_double", "coronet.grand_double")

NO_OVERTRICKS = Rule(
    id="score.no_overtricks",
    text="Tricks beyond the contract earn nothing extra: short of a slam, the declarers "
    "write above the line only their coronets and honours.",
    source=seed("VNT-SCORE-4"),
    body=Claim(Scope.OUTCOME, implies(
        SIDE & MADE & (DECLARERS_TRICKS < TRICKS - 1),
        score_of(seat, ABOVE) == awarded(*CORONETS, "honours.aces", "honours.trumps"))),
)

# 7. Slams -----------------------------------------------------------------------------
SMALL_SLAM, GRAND_SLAM = TRICKS - 1, TRICKS


def _slam(small: int, grand: int, tricks: object) -> object:
    return if_then_else(tricks == GRAND_SLAM, grand, small)


SLAM_LOW = Rule(
    id="slam.low_contract",
    text="A declaring side in a contract of level five or less that takes twelve tricks "
    "writes 1000 above the line, and 2000 for all thirteen.",
    source=seed("VNT-SLAM-1"),
    body=ScoreRule(when=SIDE & (contract.level <= 5) & (DECLARERS_TRICKS >= SMALL_SLAM),
                   amount=_slam(1000, 2000, DECLARERS_TRICKS), line=ABOVE),
)
SLAM_SIX = Rule(
    id="slam.six",
    text="In a six-level contract twelve tricks are worth 6000 (5000 for bidding the slam "
    "and 1000 for making it) and thirteen 7000.",
    source=seed("VNT-SLAM-2"),
    body=ScoreRule(when=SIDE & (contract.level == 6) & (DECLARERS_TRICKS >= SMALL_SLAM),
                   amount=_slam(6000, 7000, DECLARERS_TRICKS), line=ABOVE),
)
SLAM_SEVEN = Rule(
    id="slam.seven",
    text="In a seven-level contract thirteen tricks are worth 12000 (10000 and 2000); "
    "twelve earn nothing, the contract having failed by one.",
    source=seed("VNT-SLAM-3", "G8: the seed's table has no entry for twelve"),
    body=ScoreRule(when=SIDE & (contract.level == 7) & (DECLARERS_TRICKS == GRAND_SLAM),
                   amount=const(12000), line=ABOVE),
)
SLAM_DEFENDERS = Rule(
    id="slam.defenders",
    text="A defending side that takes twelve tricks writes 1000 above the line, and 2000 "
    "for all thirteen.",
    source=seed("VNT-SLAM-4"),
    body=ScoreRule(when=~SIDE & (SIDE_TRICKS >= SMALL_SLAM),
                   amount=_slam(1000, 2000, SIDE_TRICKS), line=ABOVE),
)

# 8. Coronets: what one hand was dealt -------------------------------------------------
ACES = CardSet.of(DECK, [Card(s, Rank.ACE) for s in SUITS])
TOP_RANKS = RANK_ORDER  # a sequence runs down from the ace


def _top(suit: Suit, k: int) -> CardSet:
    """The ``k`` highest cards of a suit."""
    return CardSet.of(DECK, [Card(suit, r) for r in TOP_RANKS[:k]])


def aces_coronet(cards: object) -> object:
    """500 for three aces in the hand, 1000 for four."""
    n = (cards & const(ACES)).count  # type: ignore[operator]
    return if_then_else(n == 4, 1000, if_then_else(n == 3, 500, 0))


def sequence_coronet(cards: object, suit: Suit, k: int = 3) -> object:
    """500 for A-K-Q of ``suit`` in the hand, and 500 more for each card continuing it
    (written as nested conditions: a longer sequence is looked for only after a shorter)."""
    more = sequence_coronet(cards, suit, k + 1) if k < TRICKS else const(0)
    held = (const(_top(suit, k)) - cards).is_empty  # type: ignore[operator]
    return if_then_else(held, 500 + more, 0)  # type: ignore[operator]


def hands_of_side() -> tuple[object, object]:
    """The hands dealt to the seat scored and to its partner."""
    return dealt_hand(seat), dealt_hand(partner(seat))


def side_sum(per_hand) -> object:  # type: ignore[no-untyped-def]  # builds an expression
    """A coronet summed over both hands of the seat's side: each hand on its own."""
    a, b = hands_of_side()
    return per_hand(a) + per_hand(b)


def all_sequences(cards: object) -> object:
    total: object = const(0)
    for s in SUITS:
        total = total + sequence_coronet(cards, s)
    return total


def trump_sequence(cards: object) -> object:
    total: object = const(0)
    for s in SUITS:
        total = total + if_then_else(trump == s, sequence_coronet(cards, s), 0)
    return total


CORONET_ACES = Rule(
    id="coronet.aces",
    text="Three aces in one hand are a coronet worth 500 above the line; four aces 1000.",
    source=seed("VNT-COR-1"),
    body=ScoreRule(when=const(True), amount=side_sum(aces_coronet), line=ABOVE),
)
CORONET_SEQUENCE = Rule(
    id="coronet.sequence",
    text="In any suit, the ace, king and queen in one hand are a coronet worth 500; each "
    "further card continuing the sequence downward (jack, ten, ...) adds 500.",
    source=seed("VNT-COR-2", "each suit separately, always from the ace (G10)"),
    body=ScoreRule(when=const(True), amount=side_sum(all_sequences), line=ABOVE),
)
CORONET_TRUMPS = Rule(
    id="coronet.trump_double",
    text="A sequence in the trump suit counts double.",
    source=seed("VNT-COR-3"),
    body=ScoreRule(when=~GRAND, amount=side_sum(trump_sequence), line=ABOVE),
)
CORONET_GRAND = Rule(
    id="coronet.grand_double",
    text="In a Grand contract every coronet, aces and sequences alike, counts double.",
    source=seed("VNT-COR-4"),
    body=ScoreRule(when=GRAND, amount=side_sum(aces_coronet) + side_sum(all_sequences),
                   line=ABOVE),
)


CORONETS_SCORED = awarded(*CORONETS)  # every coronet the seat's side writes in a deal


CORONET_HOLDERS = Rule(
    id="coronet.holders_side",
    text="Coronets are written for the holder's side, declaring or defending.",
    source=seed("VNT-COR-5"),
    body=Claim(Scope.OUTCOME, let(declarer, seat_after(declarer), CORONETS_SCORED) == CORONETS_SCORED),
)

# 9. Honours: what a partnership was dealt ---------------------------------------------
HONOUR_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
HONOURS = CardSet.of(DECK, [Card(s, r) for s in SUITS for r in HONOUR_RANKS])
SIDE_HAND = dealt_hand(seat) | dealt_hand(partner(seat))
SIDE_ACES = (SIDE_HAND & const(ACES)).count
SIDE_TRUMP_HONOURS = (SIDE_HAND & const(HONOURS) & cards_of(trump)).count
ACES_ONLY_WITH_SEVEN = 7

HONOURS_ACES = Rule(
    id="honours.aces",
    text="A side whose two hands hold three or four aces writes the number of aces times ten "
    "times the trick value (twenty-five times in Grand); with two aces only if it took at "
    "least seven tricks.",
    source=seed("VNT-HON-1"),
    body=ScoreRule(
        when=(SIDE_ACES >= 3) | ((SIDE_ACES == 2) & (SIDE_TRICKS >= ACES_ONLY_WITH_SEVEN)),
        amount=SIDE_ACES * TRICK_VALUE * if_then_else(GRAND, 25, 10), line=ABOVE),
)
HONOURS_TRUMPS = Rule(
    id="honours.trumps",
    text="In a suit contract, a side whose two hands hold three or more of the five trump "
    "honours (A K Q J 10) writes their number times ten times the trick value.",
    source=assumption("VNT-HON-2", "the seed says '3 of the 5'; read as at least three, "
                      "scored by the number held (its example has four) (G9)"),
    body=ScoreRule(when=~GRAND & (SIDE_TRUMP_HONOURS >= 3),
                   amount=SIDE_TRUMP_HONOURS * TRICK_VALUE * 10, line=ABOVE),
)
ACE_OF_TRUMPS = cards_of(trump) & const(ACES)
ACE_COUNTS_TWICE = Rule(
    id="honours.ace_of_trumps",
    text="The ace of trumps counts both as an ace and as a trump honour.",
    source=source("VNT-HON-3", "[F]"),
    body=Claim(Scope.OUTCOME, implies(
        ~GRAND & ~(SIDE_HAND & ACE_OF_TRUMPS).is_empty & (SIDE_ACES >= 3)
        & (SIDE_TRUMP_HONOURS >= 3),
        awarded("honours.aces", "honours.trumps")
        == (SIDE_ACES + SIDE_TRUMP_HONOURS) * TRICK_VALUE * 10)),
)

# 10. Games and the rubber -------------------------------------------------------------
GAME_POINTS = 500

GAME_AT_500 = Rule(
    id="game.at_500",
    text="A side that has 500 below the line, over one or more deals, wins the game; if both "
    "sides get there in the same deal, the side whose trick reached 500 first wins it.",
    source=seed("VNT-GAME-1", also=("VNT-GAME-2",)),
    body=GameTarget(line=BELOW, target=GAME_POINTS),
)
LINE_DRAWN = Rule(
    id="game.line_drawn",
    text="After a game a line is drawn under the scores below the line and the next game "
    "starts from zero for both sides; the deal that won the game is written whole in it.",
    source=assumption("VNT-GAME-3", "the seed draws the line; that the winning deal is "
                      "written whole (no carry-over) is our reading of G12, and the variant "
                      "carry_over moves what it scored after the deciding trick to the next "
                      "game"),
    body=AfterGame(carry_over=False),
)
GAME_BONUS = Rule(
    id="game.bonus",
    text="The side that wins a game writes 1000 above the line.",
    source=seed("VNT-GAME-4"),
    body=GameBonus(amount=1000, line=ABOVE),
)
RUBBER = Rule(
    id="game.rubber",
    text="The first side to win two games wins the rubber, and that game is worth 2000 "
    "instead of 1000.",
    source=seed("VNT-GAME-5", "2000 instead of, not on top of, 1000 (G7)"),
    body=Rubber(games=2, final_bonus=2000),
)
SETTLEMENT = Rule(
    id="game.settlement",
    text="At the end of the rubber each side adds up everything it wrote above and below the "
    "line; the higher total wins the difference.",
    source=assumption("VNT-GAME-6", "the seed does not say; the bridge convention (G13)"),
    body=RubberSettlement(),
)

# Variants -------------------------------------------------------------------------------
VARIANTS = (
    Variant(
        id="self_overcall",
        text="A player may raise his own highest bid (the 1886 rules).",
        replaces=((NO_SELF_OVERCALL, None),),
        source=source("VNT-AUC-6", "[PGV], from the 1886 Russian rulebook"),
    ),
    Variant(
        id="twelve_passes",
        text="After a bid the auction ends when twelve passes in a row follow it (the 1886 "
        "rules).",
        replaces=((TURNS, Rule(
            id="auction.turns", text="The dealer calls first and the calls go round clockwise; "
            "after a bid the auction ends when twelve passes in a row follow it, and at once "
            "if the first four calls are passes.", source=TURNS.source,
            body=AuctionTurns(first=dealer, ends_when=ends_after_passes(12, PLAYERS)))),),
        source=source("VNT-AUC-7", "[PGV], from the 1886 Russian rulebook"),
    ),
    Variant(
        id="carry_over",
        text="What the deal that wins a game scores below the line after the deciding trick "
        "is written in the next game.",
        replaces=((LINE_DRAWN, Rule(
            id="game.line_drawn", text="After a game a line is drawn and the next game starts "
            "with what the winning deal scored after the deciding trick.",
            source=LINE_DRAWN.source, body=AfterGame(carry_over=True))),),
        source=assumption("VNT-GAME-3", "the alternative reading of G12"),
    ),
)

# Properties -----------------------------------------------------------------------------
OTHER = free_bid("other")
OTHER_SIDE = seat_after(seat)
SPLIT = free_cards("split")
SLAM_RULES = ("slam.low_contract", "slam.six", "slam.seven", "slam.defenders")


SLAMS_SCORED = awarded(*SLAM_RULES)


def _regrouped(body: object) -> object:
    """``body`` with the side's cards shared out afresh between the two partners: ``split``
    (the part of their cards the seat now holds) and the rest."""
    union = dealt_hand(seat) | dealt_hand(partner(seat))
    return with_dealt(((seat, SPLIT & union), (partner(seat), union - SPLIT)),  # type: ignore[operator]
                      body)  # type: ignore[arg-type]


HONOURS_SCORED = awarded("honours.aces", "honours.trumps")


def for_other_side(body: object) -> object:
    """``body`` judged for the seat on the scored seat's left: the other side."""
    return let(seat, OTHER_SIDE, body)  # type: ignore[arg-type]


PROPERTIES = (
    Property(
        id="score.below_line_total",
        text="The two sides' scores below the line add up to thirteen times the trick value "
        "in every deal.",
        scope=Scope.OUTCOME,
        holds=score_of(seat, BELOW) + score_of(OTHER_SIDE, BELOW) == TRICKS * TRICK_VALUE,
        covers=("score.below_the_line", "score.trick_value"),
    ),
    Property(
        id="score.penalty_bound",
        text="An undertrick penalty is never more than 100 × 70 × 13 = 91000.",
        scope=Scope.OUTCOME,
        holds=awarded("score.undertricks") <= 100 * 70 * TRICKS,
        covers=("score.undertricks",),
    ),
    Property(
        id="honours.aces_one_side",
        text="In every deal exactly one side scores for aces: the split is 4-0, 3-1 or 2-2, "
        "and with 2-2 exactly one side has seven tricks.",
        scope=Scope.OUTCOME,
        holds=(awarded("honours.aces") > 0) != (for_other_side(awarded("honours.aces")) > 0),
        covers=("honours.aces",),
    ),
    Property(
        id="honours.trumps_one_side",
        text="In a suit contract exactly one side scores for trump honours (five honours "
        "cannot split evenly); in Grand neither does.",
        scope=Scope.OUTCOME,
        holds=if_then_else(GRAND,
                           (awarded("honours.trumps") == 0)
                           & (for_other_side(awarded("honours.trumps")) == 0),
                           (awarded("honours.trumps") > 0)
                           != (for_other_side(awarded("honours.trumps")) > 0)),
        covers=("honours.trumps",),
    ),
    Property(
        id="honours.partnership_holding",
        text="Honours depend only on what the two partners hold together: sharing their cards "
        "out differently between them never changes the honours they score.",
        scope=Scope.OUTCOME, free=(SPLIT,),
        holds=_regrouped(HONOURS_SCORED) == HONOURS_SCORED,
        covers=("honours.aces", "honours.trumps", "honours.ace_of_trumps"),
    ),
    Property(
        id="coronet.single_hand",
        text="Coronets depend on the single hand: some deal's coronets change when the "
        "partners' cards are shared out differently between them, thirteen each.",
        scope=Scope.OUTCOME, free=(SPLIT,), exists=True,
        holds=((SPLIT & SIDE_HAND).count == TRICKS) & (_regrouped(CORONETS_SCORED) != CORONETS_SCORED),
        covers=CORONETS,
    ),
    Property(
        id="slam.one_side",
        text="At most one side scores a slam bonus in a deal.",
        scope=Scope.OUTCOME,
        holds=(SLAMS_SCORED == 0) | (for_other_side(SLAMS_SCORED) == 0),
        covers=SLAM_RULES,
    ),
    Property(
        id="auction.no_two_bids_running",
        text="No player makes two bids in a row: between two bids of his there is always "
        "another player's bid.",
        scope=Scope.CALL,
        holds=implies(legal_call & call.is_bid & standing.exists, standing.bidder != seat),
        covers=("auction.no_self_overcall",),
    ),
    Property(
        id="score.undertrick_outweighs_tricks",
        text="A single undertrick is worth more to the defenders than all thirteen tricks "
        "below the line, and at least as much as a game: 100 times the trick value.",
        scope=Scope.OUTCOME,
        holds=implies(~SIDE & (UNDERTRICKS > 0),
                      (awarded("score.undertricks") > TRICKS * TRICK_VALUE)
                      & (awarded("score.undertricks") >= 1000)),
        covers=("score.undertricks",), finding=True,
    ),
    Property(
        id="slam.seven_down_one",
        text="A seven-level contract that takes twelve tricks earns the declarers no slam and "
        "gives the defenders 7000.",
        scope=Scope.OUTCOME,
        holds=implies((contract.level == 7) & (DECLARERS_TRICKS == SMALL_SLAM),
                      if_then_else(SIDE, SLAMS_SCORED == 0, awarded("score.undertricks") == 7000)),
        covers=("slam.seven", "score.undertricks"), finding=True,
    ),
    Property(
        id="score.strain_never_changes_tricks",
        text="The strain changes only the auction's order and the honours and coronets, "
        "never what the tricks are worth below the line.",
        scope=Scope.OUTCOME, free=(OTHER,),
        holds=implies(OTHER.level == contract.level,
                      let(contract, OTHER, score_of(seat, BELOW)) == score_of(seat, BELOW)),
        covers=("score.trick_value",), finding=True,
    ),
)

# Facts ------------------------------------------------------------------------------------
# The rulebook's own cards and numbers, written out as the seed or the digest prints them and
# apart from the rules above (no constant or helper of theirs is used here): which card wins
# which trick, which bid beats which, what each table of the score sheet pays, and the
# digest's worked examples.  A rule transcribed wrongly contradicts one of them.

# [seed] 各スートの強さは、(強)A、K、Q、J、10、9、8、7、6、5、4、3、2(弱)
SEED_RANKS = ranks("A K Q J 10 9 8 7 6 5 4 3 2")
SEED_STRENGTH = rank_table("seed_strength", SEED_RANKS, DECK)  # 13 for an ace ... 1 for a two
# [seed] スートの強さは、強いものからハート、ダイアモンド、クラブ、スペードの順ですが、グランドの
# 方がハートより強くなります: the strains from the weakest up
SEED_STRAINS = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None)

# The score tables by the contract's level, 1 to 7, as the seed's formulas give them
TRICK_POINTS = (10, 20, 30, 40, 50, 60, 70)  # a trick: ten times the level (VNT-SCORE-1)
CONTRACT_TRICKS = (7, 8, 9, 10, 11, 12, 13)  # the level is the tricks undertaken less six
ONE_DOWN = (1000, 2000, 3000, 4000, 5000, 6000, 7000)  # an undertrick: 100 x the trick points
PER_HONOUR = (100, 200, 300, 400, 500, 600, 700)  # an ace or trump honour: 10 x trick points
PER_ACE_IN_GRAND = (250, 500, 750, 1000, 1250, 1500, 1750)  # in Grand: 25 x the trick points
# [seed] the slam table: コントラクト | 12トリック | 13トリック
SLAMS_TO_FIVE, SLAMS_AT_SIX, SLAMS_AT_SEVEN = (1000, 2000), (6000, 7000), (0, 12000)
SLAMS_TO_DEFENDERS = (1000, 2000)  # as for a contract of five or less

FOUR_ACES = CardSet.parse("AS AH AD AC", DECK)
EVERY_HONOUR = CardSet.parse(" ".join(f"{r}{s}" for r in "A K Q J 10".split() for s in "SHDC"),
                             DECK)
# [digest] the coronet examples: A K Q J of spades and three aces in one hand (the 9♠ does
# not continue the sequence); and four aces without a sequence
CORONET_HAND = CardSet.parse("AS KS QS JS 9S AH 3H 2H AD 3D 2D 3C 2C", DECK)
ACES_HAND = CardSet.parse("AS AH AD AC 4S 3S 2S 4H 3H 2H 3D 2D 2C", DECK)

OPPOSITE = seat_after(seat, 2)  # [seed] 向かい合った2人がパートナー
TAKEN_BY_SIDE = tricks_won(seat) + tricks_won(OPPOSITE)
TAKEN_BY_DECLARERS = tricks_won(declarer) + tricks_won(seat_after(declarer, 2))
DECLARING = (seat == declarer) | (seat == seat_after(declarer, 2))
HELD_BY_SIDE = dealt_hand(seat) | dealt_hand(OPPOSITE)
ACES_HELD = (HELD_BY_SIDE & const(FOUR_ACES)).count
TRUMP_HONOURS_HELD = (HELD_BY_SIDE & const(EVERY_HONOUR) & cards_of(trump)).count
IN_GRAND = contract.strain == no_suit
SLAMS_WRITTEN = awarded("slam.low_contract", "slam.six", "slam.seven", "slam.defenders")
CORONETS_WRITTEN = awarded("coronet.aces", "coronet.sequence", "coronet.trump_double",
                           "coronet.grand_double")


def _by_level(entry) -> object:  # type: ignore[no-untyped-def]  # builds an expression
    """A table by the contract's level: ``entry(i)`` is the number for level ``i + 1``."""
    out: object = entry(6)
    for i in range(5, -1, -1):
        out = if_then_else(contract.level == i + 1, entry(i), out)
    return out


def _twelve_or_thirteen(pair: tuple[int, int]) -> object:
    return if_then_else(TAKEN_BY_SIDE == 12, pair[0], pair[1])


def _outranks(high: tuple[int, Suit | None], low: tuple[int, Suit | None]) -> object:
    """Over ``low`` another player may bid ``high``, and over ``high`` nobody may bid ``low``."""
    def bid_is(b: object, named: tuple[int, Suit | None]) -> object:
        return (b.level == named[0]) & (b.strain == named[1])  # type: ignore[attr-defined]

    return all_of(
        implies(standing.exists & bid_is(standing.bid, low) & call.is_bid
                & bid_is(call.bid, high) & (standing.bidder != seat), legal_call),
        implies(standing.exists & bid_is(standing.bid, high) & call.is_bid
                & bid_is(call.bid, low), ~legal_call))


FACTS = (
    Property(
        id="deal.dealing_seen",
        text="North deals one card at a time clockwise from his left: the 1st card of the "
        "pack to East, the 2nd to South, the 3rd to West, the 4th to himself, the 5th to East "
        "again, the 52nd and last to himself; East, on his left, deals next.",
        scope=Scope.DEAL,
        holds=implies(dealer == 0, all_of(
            receives(1) == 1, receives(2) == 2, receives(3) == 3, receives(4) == 0,
            receives(5) == 1, receives(52) == 0, receives(53) == -1, next_dealer == 1)),
        covers=("deal.one_at_a_time", "setup.next_dealer"),
        source=seed("VNT-DEAL-1", also=("VNT-SETUP-2",)),
    ),
    Property(
        id="auction.eight_passes_seen",
        text="After a bid the auction ends with the eighth pass in a row, not the seventh; "
        "four passes with no bid end it, three do not.",
        scope=Scope.CALL,
        holds=all_of(
            implies(standing.exists & (passes_in_row == 8), auction_over),
            implies(standing.exists & (passes_in_row == 7), ~auction_over),
            implies(~standing.exists & (calls_made == 4) & (passes_in_row == 4), auction_over),
            implies(~standing.exists & (calls_made == 3) & (passes_in_row == 3), ~auction_over),
        ),
        covers=("auction.turns",),
        unless=("twelve_passes",),
        source=seed("VNT-AUC-7", also=("VNT-AUC-8",)),
    ),
    Property(
        id="play.first_lead_seen",
        text="North declares: East, on his left, leads to the first trick; West declares: "
        "North leads.",
        scope=Scope.PLAY,
        holds=implies(declarer == 0, first_leader == 1) & implies(declarer == 3, first_leader == 0),
        covers=("play.first_lead",),
        source=seed("VNT-PLAY-1"),
    ),
    Property(
        id="setup.partners_opposite",
        text="Partners sit opposite: each seat's partner is the seat two places on.",
        scope=Scope.CALL,
        holds=partner(seat) == seat_after(seat, 2),
        covers=("setup.seats",), source=seed("VNT-SETUP-1"),
    ),
    Property(
        id="deck.ranks_seen_in_tricks",
        text="In every suit A beats K, K beats Q, Q beats J, J beats 10 and so down to 3 "
        "beating 2: in Grand, when the second card follows suit and the last two do not, the "
        "second card wins exactly when it ranks above the lead.",
        scope=Scope.TRICK,
        holds=implies((trump == no_suit) & (played_card(1).suit == played_card(0).suit)
                      & (played_card(2).suit != played_card(0).suit)
                      & (played_card(3).suit != played_card(0).suit),
                      (trick_winner == 1)
                      == (SEED_STRENGTH[played_card(1)] > SEED_STRENGTH[played_card(0)])),
        covers=("deck.rank_order", "play.led_suit_wins"), source=seed("VNT-DECK-1"),
    ),
    Property(
        id="play.trumps_seen_in_tricks",
        text="A trump beats the suit led: a heart led in a spade contract, followed by a spade "
        "and two hearts, is won by the spade; of two trumps the higher wins; in Grand a spade "
        "played to a heart lead is a discard, and three discards lose to the lead.",
        scope=Scope.TRICK,
        holds=all_of(
            implies((trump == Suit.SPADES) & (played_card(0).suit == Suit.HEARTS)
                    & (played_card(1).suit == Suit.SPADES) & (played_card(2).suit == Suit.HEARTS)
                    & (played_card(3).suit == Suit.HEARTS), trick_winner == 1),
            implies((trump == Suit.SPADES) & (played_card(0).suit == Suit.HEARTS)
                    & (played_card(1).suit == Suit.SPADES) & (played_card(2).suit == Suit.SPADES)
                    & (played_card(3).suit == Suit.HEARTS),
                    (trick_winner == 1)
                    == (SEED_STRENGTH[played_card(1)] > SEED_STRENGTH[played_card(2)])),
            implies((trump == no_suit) & (played_card(0).suit == Suit.HEARTS)
                    & (played_card(1).suit == Suit.SPADES) & (played_card(2).suit == Suit.SPADES)
                    & (played_card(3).suit == Suit.SPADES), trick_winner == 0)),
        covers=("play.trumps_win", "play.led_suit_wins"),
        source=source("VNT-PLAY-3", "[F]; the seed's list of play rules was lost (G2)"),
    ),
    Property(
        id="play.follow_suit_seen",
        text="Hearts led, a player holding the 2♥ and the A♠ may play the 2♥ but not the A♠.",
        scope=Scope.PLAY,
        holds=implies(~is_leading & (led_suit == Suit.HEARTS) & hand.holds(Card.parse("2H"))
                      & hand.holds(Card.parse("AS")),
                      legal_cards.holds(Card.parse("2H")) & ~legal_cards.holds(Card.parse("AS"))),
        covers=("play.follow_suit",),
        source=source("VNT-PLAY-2", "[F]; the seed's list of play rules was lost (G2)"),
    ),
    Property(
        id="auction.strains_seen_in_bids",
        text="At each level from one to seven, clubs overcall spades, diamonds clubs, hearts "
        "diamonds and Grand hearts, and never the other way round.",
        scope=Scope.CALL,
        holds=all_of(*(_outranks((level, high), (level, low))
                       for level in range(1, 8)
                       for low, high in zip(SEED_STRAINS, SEED_STRAINS[1:]))),
        covers=("auction.bids", "auction.bid_order", "auction.overcall"),
        source=seed("VNT-AUC-3"),
    ),
    Property(
        id="auction.levels_seen_in_bids",
        text="A spade bid of the next level overcalls Grand: 2♠ beats 1 Grand, and so up to 7♠ "
        "beating 6 Grand, never the other way round.",
        scope=Scope.CALL,
        holds=all_of(*(_outranks((level + 1, Suit.SPADES), (level, None)) for level in range(1, 7))),
        covers=("auction.bids", "auction.bid_order", "auction.overcall"),
        source=seed("VNT-AUC-3"),
    ),
    Property(
        id="auction.ladder_ends",
        text="Bids run from one to seven: one spade is the lowest and may open the auction, "
        "nothing may be bid over seven Grand, and a bid must be higher than the bid standing, "
        "not equal to it.",
        scope=Scope.CALL,
        holds=all_of(
            implies(call.is_bid, (call.bid.level >= 1) & (call.bid.level <= 7)),
            implies(~standing.exists & call.is_bid & (call.bid.level == 1)
                    & (call.bid.strain == Suit.SPADES), legal_call),
            implies(standing.exists & (standing.bid.level == 7) & (standing.bid.strain == no_suit)
                    & call.is_bid, ~legal_call),
            implies(standing.exists & call.is_bid & (call.bid == standing.bid), ~legal_call)),
        covers=("auction.bids", "auction.bid_order", "auction.overcall"),
        source=seed("VNT-AUC-2", also=("VNT-AUC-3", "VNT-AUC-4")),
    ),
    Property(
        id="score.undertrick_table",
        text="A contract undertakes six tricks more than its level; for each trick short the "
        "defenders write 1000 at the one level, 2000 at the two and so up to 7000 at the seven "
        "(4♥ with nine tricks: 4000; five Grand two down: 10000); nobody else writes any.",
        scope=Scope.OUTCOME,
        holds=awarded("score.undertricks") == _by_level(
            lambda i: if_then_else(DECLARING | (TAKEN_BY_DECLARERS >= CONTRACT_TRICKS[i]), 0,
                                   ONE_DOWN[i] * (CONTRACT_TRICKS[i] - TAKEN_BY_DECLARERS))),
        covers=("score.undertricks", "score.contract_made"),
        source=seed("VNT-PEN-1", also=("VNT-SCORE-3",)),
    ),
    Property(
        id="slam.table",
        text="Twelve tricks are worth 1000 and thirteen 2000 in a contract of five or less, "
        "6000 and 7000 at six, nothing and 12000 at seven; defenders write 1000 and 2000; "
        "eleven tricks or fewer earn no slam.",
        scope=Scope.OUTCOME,
        holds=SLAMS_WRITTEN == if_then_else(
            TAKEN_BY_SIDE < 12, 0,
            if_then_else(~DECLARING, _twelve_or_thirteen(SLAMS_TO_DEFENDERS),
                         if_then_else(contract.level <= 5, _twelve_or_thirteen(SLAMS_TO_FIVE),
                                      if_then_else(contract.level == 6,
                                                   _twelve_or_thirteen(SLAMS_AT_SIX),
                                                   _twelve_or_thirteen(SLAMS_AT_SEVEN))))),
        covers=("slam.low_contract", "slam.six", "slam.seven", "slam.defenders"),
        source=seed("VNT-SLAM-1", also=("VNT-SLAM-2", "VNT-SLAM-3", "VNT-SLAM-4")),
    ),
    Property(
        id="honours.aces_table",
        text="A side holding three or four aces, or two and seven tricks, writes for each ace "
        "100 at the one level up to 700 at the seven, in Grand 250 up to 1750 (2♦ with three "
        "aces: 600; five Grand with three: 3750; 4♥, two aces and nine tricks: 800).",
        scope=Scope.OUTCOME,
        holds=awarded("honours.aces") == if_then_else(
            (ACES_HELD >= 3) | ((ACES_HELD == 2) & (TAKEN_BY_SIDE >= 7)),
            _by_level(lambda i: if_then_else(IN_GRAND, PER_ACE_IN_GRAND[i] * ACES_HELD,
                                             PER_HONOUR[i] * ACES_HELD)), 0),
        covers=("honours.aces", "honours.ace_of_trumps"),
        source=seed("VNT-HON-1"),
    ),
    Property(
        id="honours.trumps_table",
        text="In a suit contract a side holding three or more of the trumps A K Q J 10 writes "
        "for each 100 at the one level up to 700 at the seven (2♦ with four: 800); in Grand "
        "nobody does.",
        scope=Scope.OUTCOME,
        holds=awarded("honours.trumps") == if_then_else(
            IN_GRAND | (TRUMP_HONOURS_HELD < 3), 0,
            _by_level(lambda i: PER_HONOUR[i] * TRUMP_HONOURS_HELD)),
        covers=("honours.trumps", "honours.ace_of_trumps"),
        source=seed("VNT-HON-2"),
    ),
    Property(
        id="coronet.worked_examples",
        text="A hand of A K Q J 9 of spades, three aces and small cards, its partner without "
        "the fourth ace, is worth 1500 in coronets in a heart contract, 2500 in spades and "
        "3000 in Grand; four aces without a sequence are worth 1000, and 2000 in Grand.",
        scope=Scope.OUTCOME,
        holds=all_of(
            implies((dealt_hand(seat) == const(CORONET_HAND))
                    & ~dealt_hand(OPPOSITE).holds(Card.parse("AC")),
                    CORONETS_WRITTEN == if_then_else(
                        IN_GRAND, 3000, if_then_else(contract.strain == Suit.SPADES, 2500, 1500))),
            implies(dealt_hand(seat) == const(ACES_HAND),
                    CORONETS_WRITTEN == if_then_else(IN_GRAND, 2000, 1000))),
        covers=CORONETS, source=seed("VNT-COR-1", also=("VNT-COR-2", "VNT-COR-3", "VNT-COR-4")),
    ),
    Property(
        id="game.bonus_seen",
        text="A side that wins its first game writes 1000 above the line and the rubber "
        "goes on; its second game wins the rubber and is worth 2000, not 1000.",
        scope=Scope.MATCH,
        holds=implies(games_won == 1, (game_bonus == 1000) & ~match_over)
        & implies(games_won == 2, (game_bonus == 2000) & match_over),
        covers=("game.bonus", "game.rubber"),
        source=seed("VNT-GAME-4", also=("VNT-GAME-5",)),
    ),
    Property(
        id="game.line_drawn_seen",
        text="The deal that wins a game is written whole in that game: nothing it scores "
        "after the deciding trick counts towards the next game.",
        scope=Scope.MATCH,
        holds=~carries_over,
        covers=("game.line_drawn",),
        unless=("carry_over",),
        source=assumption("VNT-GAME-3", "our reading of G12; the variant carry_over is the "
                          "other"),
    ),
    Property(
        id="auction.dealer_calls_first",
        text="North deals: North calls first; West deals: West calls first.",
        scope=Scope.CALL,
        holds=implies(dealer == 0, first_to_call == 0) & implies(dealer == 3, first_to_call == 3),
        covers=("auction.turns",),
        source=source("VNT-AUC-1", "[F] (G1)"),
    ),
    Property(
        id="auction.all_pass_seen",
        text="North deals and the first four calls are passes: there is no play and East, on "
        "his left, deals next; West deals and all four pass: North deals next.",
        scope=Scope.DEAL,
        holds=implies(dealer == 0, no_bid_redealer == 1) & implies(dealer == 3, no_bid_redealer == 0),
        covers=("auction.all_pass",),
        source=seed("VNT-AUC-8", "(G14)"),
    ),
    Property(
        id="game.target_seen",
        text="A side wins a game when its score below the line reaches 500, over one or more "
        "deals; its first game won does not end the rubber, its second does.",
        scope=Scope.MATCH,
        holds=(game_target == 500) & implies(games_won == 1, ~match_over)
        & implies(games_won == 2, match_over),
        covers=("game.at_500", "game.rubber"),
        source=seed("VNT-GAME-1", also=("VNT-GAME-5",)),
    ),
    Property(
        id="auction.twelve_passes_seen",
        text="Under twelve_passes, after a bid the auction ends with the twelfth pass in a "
        "row, not the eighth or the eleventh; four passes with no bid still end it.",
        scope=Scope.CALL,
        holds=all_of(
            implies(standing.exists & (passes_in_row == 12), auction_over),
            implies(standing.exists & (passes_in_row == 11), ~auction_over),
            implies(standing.exists & (passes_in_row == 8), ~auction_over),
            implies(~standing.exists & (calls_made == 4) & (passes_in_row == 4), auction_over),
        ),
        covers=("auction.turns",),
        under=("twelve_passes",),
        source=source("VNT-AUC-7", "[PGV], from the 1886 Russian rulebook"),
    ),
    Property(
        id="auction.self_overcall_seen",
        text="Under self_overcall, a player whose 1♠ is the highest bid may raise it himself "
        "to 2♠.",
        scope=Scope.CALL,
        holds=implies(standing.exists & (standing.bidder == seat) & (standing.bid.level == 1)
                      & (standing.bid.strain == Suit.SPADES) & ~auction_over & call.is_bid
                      & (call.bid.level == 2) & (call.bid.strain == Suit.SPADES), legal_call),
        covers=("auction.no_self_overcall", "auction.pass_not_final"),
        under=("self_overcall",),
        source=source("VNT-AUC-6", "[PGV], from the 1886 Russian rulebook"),
    ),
    Property(
        id="game.carry_over_seen",
        text="Under carry_over, what the deal that wins a game scores below the line after the "
        "deciding trick is written in the next game.",
        scope=Scope.MATCH,
        holds=carries_over,
        covers=("game.line_drawn",),
        under=("carry_over",),
        source=assumption("VNT-GAME-3", "the alternative reading of G12"),
    ),
)

GAME = Game(
    name="Vint",
    key="vint",
    ref_prefix="VNT",
    aliases=("russian_whist", "винт"),
    doc=__doc__ or "",
    rules=(
        SEATING, CLOCKWISE, NEXT_DEALER,
        PACK, RANKS,
        SHUFFLE, DEAL,
        LADDER, BID_ORDER, TURNS, OVERCALL, PASS_NOT_FINAL, NO_SELF_OVERCALL, ALL_PASS,
        DECLARER,
        FIRST_LEAD, FOLLOW_SUIT, NO_OBLIGATION, TRUMPS_WIN, LED_SUIT_WINS,
        VALUE, BELOW_THE_LINE, CONTRACT_MADE, NO_OVERTRICKS, UNDERTRICK_PENALTY,
        SLAM_LOW, SLAM_SIX, SLAM_SEVEN, SLAM_DEFENDERS,
        CORONET_ACES, CORONET_SEQUENCE, CORONET_TRUMPS, CORONET_GRAND, CORONET_HOLDERS,
        HONOURS_ACES, HONOURS_TRUMPS, ACE_COUNTS_TWICE,
        GAME_AT_500, LINE_DRAWN, GAME_BONUS, RUBBER, SETTLEMENT,
    ),
    variants=VARIANTS,
    properties=PROPERTIES + FACTS,
)
