"""Crescendo (クレッシェンド), a three-player solo-bid trick-taking game by rikkati.

Players: 3, no partnerships; one soloist per deal.  Deck: A 5 4 3 2 of each suit and
one joker (21 cards).  Trick *k* is worth *k* points, so the late tricks decide the deal.

Sources:
  [seed] the designer's rules page, as scraped in ``000_1bd38c10ddd6cc68.txt``
  [R]    https://rikkati.web.fc2.com/mygame8.htm (the seed's original)
  [G]    https://gokurakism.com/crescendo/ (review with a rules summary)

Deviations from the sources: the designer sets no top bid; by default the engine offers
bids up to 28, the most a soloist can take (variant ``allow_unmakeable_bids`` lifts that
limit, and the ladder then stops at 56).  Whether a led joker may name the trump suit is
not stated; by default it may (variant ``joker_names_plain_suit`` forbids it).
"""
from __future__ import annotations

from spec.cards import JOKER, SUITS, Card, Suit, make_deck, ranks
from spec.dsl import (
    AlwaysPlayable,
    AuctionTurns,
    BidOrder,
    CallRule,
    Claim,
    CountsAsSuit,
    DealerRotation,
    DealPackets,
    DeckIs,
    DeclarationRule,
    Direction,
    Expr,
    Game,
    HighestBidderDeclares,
    Ladder,
    MatchLength,
    MatchOf,
    NameSuit,
    PlayDirection,
    Property,
    RankOrder,
    RecordTricks,
    RedealIfNoBid,
    Rule,
    Scope,
    ScoreRule,
    Seats,
    Shuffle,
    SidesByContract,
    TrickPlay,
    TrickValue,
    Variant,
    all_of,
    assumption,
    auction_over,
    bid,
    call,
    caller_of,
    calls_made,
    card,
    cards,
    cards_of,
    contract,
    dealer,
    deals_played,
    declared_suit,
    declarer,
    first_to_call,
    free_bid,
    hand,
    if_then_else,
    implies,
    is_leading,
    leader_of,
    led_suit,
    legal_call,
    legal_cards,
    let,
    match_over,
    next_dealer,
    no_bid_redealer,
    no_suit,
    played_card,
    played_declared,
    played_suit,
    points,
    points_won,
    receives,
    score_of,
    seat,
    seat_after,
    seed,
    source,
    standing,
    trick_number,
    trick_winner,
    trump,
    winner_of,
    won_trick,
)
from spec.dsl.blocks import follow_suit, led_suit_wins, overcall, trumps_win

# 1. Players and seats ---------------------------------------------------------------
PLAYERS = 3

SEATING = Rule(
    id="setup.seats",
    text="Three play: Forehand on the dealer's left, Middlehand on the dealer's right, "
    "and Rearhand, who deals.",
    source=seed("CR-SETUP-1"),
    body=Seats(("Forehand", "Middlehand", "Rearhand")),
)
CLOCKWISE = Rule(
    id="setup.clockwise",
    text="Dealing, bidding and play go clockwise: Forehand, Middlehand, Rearhand.",
    source=seed("CR-SETUP-2"),
    body=PlayDirection(Direction.CLOCKWISE),
)
SOLOIST_ALONE = Rule(
    id="setup.soloist_alone",
    text="There are no partnerships: the auction makes one seat the soloist, who plays "
    "alone against the other two.",
    source=seed("CR-SETUP-3"),
    body=SidesByContract(declarer_alone=True),
)

# 2. The cards -------------------------------------------------------------------------
DECK = make_deck("A 5 4 3 2", jokers=1, name="Crescendo 21-card")
RANK_ORDER = ranks("A 5 4 3 2 JK")  # high to low; the joker sits below the 2
TRICKS = len(DECK) // PLAYERS  # 7
TOTAL_POINTS = sum(range(1, TRICKS + 1))  # 28: what the trick values add up to
LADDER_TOP = 2 * TOTAL_POINTS  # where the ladder stops when unmakeable bids are allowed

PACK = Rule(
    id="deck.cards",
    text="The pack is the A, 5, 4, 3 and 2 of each suit and one joker: 21 cards.",
    source=seed("CR-DECK-1"),
    body=DeckIs(DECK),
)
RANKS = Rule(
    id="deck.rank_order",
    text="In every suit the ace is highest, then 5, 4, 3 and 2; the joker ranks below the 2.",
    source=seed("CR-DECK-2"),
    body=RankOrder(RANK_ORDER),
)
TRICK_VALUES = Rule(
    id="deck.trick_values",
    text="Cards carry no points: trick k is worth k points to whoever wins it.",
    source=seed("CR-DECK-3"),
    body=TrickValue(trick_number),
)

# 3. The deal --------------------------------------------------------------------------
SHUFFLE = Rule(
    id="deal.shuffle",
    text="The dealer shuffles the pack before every deal.",
    source=assumption(
        "CR-DEAL-1", "the seed names a shuffle only for the redeal after three passes "
        "(CR-AUC-6); no rule carries the cards from one deal to the next unshuffled"
    ),
    body=Shuffle(),
)
DEAL = Rule(
    id="deal.one_at_a_time",
    text="The dealer deals the whole pack one card at a time clockwise, starting with "
    "Forehand: seven cards each and no talon.",
    source=seed("CR-DEAL-1"),
    body=DealPackets((1,) * TRICKS, first=seat_after(dealer)),
)
NEXT_DEALER = Rule(
    id="deal.next_dealer",
    text="The first dealer is chosen by any method; after each played deal the deal "
    "passes to the left.",
    source=assumption(
        "CR-DEAL-2", "the designer does not say; [G]: 'choose the dealer by any method'"
    ),
    body=DealerRotation(steps=1),
)

# 4. The auction -----------------------------------------------------------------------
ONE_ROUND = Rule(
    id="auction.one_round",
    text="The auction is a single round: Forehand, Middlehand and Rearhand each make "
    "exactly one call.",
    source=seed("CR-AUC-1"),
    body=AuctionTurns(first=seat_after(dealer), ends_when=calls_made == PLAYERS),
)
BIDS = Rule(
    id="auction.bids",
    text="A call is a pass or a bid: at least 15 points and a strain, one of clubs, "
    "diamonds, hearts, spades or no trumps.",
    source=seed("CR-AUC-2"),
    body=Ladder(levels=tuple(range(15, LADDER_TOP + 1)), strains=(*SUITS, None)),
)
BID_ORDER = Rule(
    id="auction.bid_order",
    text="More points beat fewer; at equal points no trumps beats spades, spades beat "
    "hearts, hearts beat diamonds and diamonds beat clubs.",
    source=seed("CR-AUC-3"),
    # strains are listed low to high above: clubs 0, diamonds 1, hearts 2, spades 3, NT 4
    body=BidOrder(key=5 * bid.level + bid.strain_rank),
)
OVERCALL = Rule(
    id="auction.overcall",
    text="Once someone has bid, a bid must beat the highest bid so far.",
    source=seed("CR-AUC-4"),
    body=overcall(),
)
SOLOIST = Rule(
    id="auction.soloist",
    text="After the three calls the highest bidder is the soloist, and the strain of the "
    "bid is trumps (or no trumps).",
    source=seed("CR-AUC-5"),
    body=HighestBidderDeclares(),
)
ALL_PASS = Rule(
    id="auction.all_pass",
    text="If all three pass, the same dealer gathers the cards, shuffles and deals again, "
    "and Forehand calls first again.",
    source=seed("CR-AUC-6"),
    body=RedealIfNoBid(steps=0),
)
MAKEABLE_BIDS = Rule(
    id="auction.makeable_bids",
    text="No bid may be above 28 points, the most that can be taken.",
    source=assumption(
        "CR-AUC-7",
        "the designer sets no top bid; bids above 28 can never be made, so they are "
        "offered only under the variant allow_unmakeable_bids",
    ),
    body=CallRule(applies=call.is_bid, requires=call.bid.level <= TOTAL_POINTS),
)

# 5. The play --------------------------------------------------------------------------
TRICK_PLAY = Rule(
    id="play.tricks",
    text="Seven tricks are played; Forehand leads to the first (not the soloist), and "
    "the winner of each trick leads to the next.",
    source=seed("CR-PLAY-1"),
    body=TrickPlay(first_lead=seat_after(dealer)),
)
LEAD_ANY = Rule(
    id="play.lead_any",
    text="The leader may lead any card.",
    source=seed("CR-PLAY-2"),
    body=Claim(Scope.PLAY, implies(is_leading, legal_cards == hand)),
)
FOLLOW_SUIT = Rule(
    id="play.follow_suit",
    text="A follower who holds a card of the led suit must play a card of that suit "
    "(or the joker).",
    source=seed("CR-PLAY-3"),
    body=follow_suit(),
)
NO_OBLIGATION = Rule(
    id="play.no_obligation",
    text="A follower who cannot follow suit may play any card: nobody is obliged to "
    "trump or to beat.",
    source=seed("CR-PLAY-4"),
    body=Claim(
        Scope.PLAY,
        implies(~is_leading & ~hand.holds_any(cards_of(led_suit)), legal_cards == hand),
    ),
)
TRUMPS_WIN = Rule(
    id="play.trumps_win",
    text="In a suit contract, if trumps are played the highest trump wins the trick.",
    source=seed("CR-PLAY-5"),
    body=trumps_win(),
)
LED_SUIT_WINS = Rule(
    id="play.led_suit_wins",
    text="Otherwise, and always in no trumps, the highest card of the led suit wins; "
    "cards of other suits never win.",
    source=seed("CR-PLAY-6"),
    body=led_suit_wins(),
)
RECORD = Rule(
    id="play.record_tricks",
    text="The tricks each seat wins are kept by their number, since the number is the "
    "trick's value.",
    source=seed("CR-PLAY-7"),
    body=RecordTricks(),
)

# 5a. The joker
JOKER_ANY_TIME = Rule(
    id="play.joker_any_time",
    text="The joker may be played to any trick at any time, even by a player who could "
    "follow suit, and it is never compulsory.",
    source=seed("CR-JOKER-1"),
    body=AlwaysPlayable(cards(JOKER)),
)
JOKER_FOLLOWING = Rule(
    id="play.joker_following",
    text="Played second or third, the joker counts as a card of the led suit ranked "
    "below the 2, so it cannot win.",
    source=seed("CR-JOKER-2"),
    body=CountsAsSuit(when=(card == JOKER) & ~is_leading, suit=led_suit),
)
JOKER_LED = Rule(
    id="play.joker_led",
    text="Whoever leads the joker names a suit; the joker is the lowest card of that "
    "suit, and that suit is the led suit.",
    source=seed("CR-JOKER-3"),
    body=NameSuit(when=is_leading & (card == JOKER), choices=SUITS),
)
_NO_FOLLOWER_IN_SUIT_OR_TRUMP = all_of(
    *(
        (played_suit(i) != played_suit(0)) & (played_suit(i) != trump)
        for i in range(1, PLAYERS)
    )
)
JOKER_LED_WINS = Rule(
    id="play.joker_led_wins",
    text="Followers must follow the named suit, so a led joker wins only if neither "
    "follower plays that suit and nobody plays a trump.",
    source=seed("CR-JOKER-4", "with [G]"),
    body=Claim(
        Scope.TRICK,
        implies(played_card(0) == JOKER, (trick_winner == 0) == _NO_FOLLOWER_IN_SUIT_OR_TRUMP),
    ),
)
JOKER_NAMES_TRUMP = Rule(
    id="play.joker_names_trump",
    text="The suit named for a led joker may be trumps; the joker is then the lowest "
    "trump and wins only if nobody else plays a trump.",
    source=assumption(
        "CR-JOKER-5",
        "the designer is silent; the variant joker_names_plain_suit forbids naming trumps",
    ),
    body=Claim(
        Scope.TRICK,
        implies(
            (played_card(0) == JOKER) & (played_suit(0) == trump),
            (trick_winner == 0)
            == all_of(*(played_suit(i) != trump for i in range(1, PLAYERS))),
        ),
    ),
)

# 6. Scoring ---------------------------------------------------------------------------
# points: the sum of the numbers of the tricks the seat won; contract.level: the bid
IS_SOLOIST = seat == declarer

SCORE_EXACT = Rule(
    id="score.exact",
    text="A soloist who takes exactly the points bid scores twice the bid.",
    source=seed("CR-SCORE-1"),
    body=ScoreRule(when=IS_SOLOIST & (points == contract.level), amount=2 * contract.level),
)
SCORE_OVER = Rule(
    id="score.over",
    text="A soloist who takes more points than bid scores the points taken.",
    source=seed("CR-SCORE-2"),
    body=ScoreRule(when=IS_SOLOIST & (points > contract.level), amount=points),
)
SCORE_UNDER = Rule(
    id="score.under",
    text="A soloist who takes fewer points than bid loses the bid.",
    source=seed("CR-SCORE-3"),
    body=ScoreRule(when=IS_SOLOIST & (points < contract.level), amount=-contract.level),
)
OTHERS_SCORE_NOTHING = Rule(
    id="score.others_nothing",
    text="The other two seats score nothing, whatever happens: the game is not zero-sum.",
    source=seed("CR-SCORE-4"),
    body=Claim(Scope.OUTCOME, implies(seat != declarer, score_of(seat) == 0)),
)
_OTHER = free_bid("other")
STRAIN_IRRELEVANT = Rule(
    id="score.strain_irrelevant",
    text="The strain of the contract does not change the score.",
    source=seed("CR-SCORE-5"),
    body=Claim(
        Scope.OUTCOME,
        implies(_OTHER.level == contract.level, let(contract, _OTHER, score_of(seat)) == score_of(seat)),
        free=(_OTHER,),
    ),
)

# 7. End of the game -------------------------------------------------------------------
MATCH = Rule(
    id="game.match",
    text="Play an agreed number of deals (or to an agreed target); the highest total "
    "score wins.",
    source=seed("CR-GAME-1"),
    body=MatchOf(),
)
MATCH_LENGTH = Rule(
    id="game.match_length",
    text="By default a match is a multiple of three deals, so every seat deals equally "
    "often, and equal totals share the win.",
    source=assumption("CR-GAME-2", "the seat says 'several games'; any count or a target score works"),
    body=MatchLength(deals=PLAYERS, multiple_of=PLAYERS),
)

# 8. Variants --------------------------------------------------------------------------
ALLOW_UNMAKEABLE_BIDS = Variant(
    id="allow_unmakeable_bids",
    text="Bids above 28 are allowed (up to 56); they can never be made.",
    replaces=((MAKEABLE_BIDS, None),),
    source=assumption("CR-AUC-7", "the designer sets no top bid"),
)
JOKER_NAMES_PLAIN_SUIT = Variant(
    id="joker_names_plain_suit",
    text="The suit named for a led joker may not be trumps.",
    replaces=(
        (
            JOKER_NAMES_TRUMP,
            Rule(
                id="play.joker_names_plain_suit",
                text="The suit named for a led joker may not be trumps.",
                source=assumption("CR-JOKER-5", "the alternative to naming trumps"),
                body=DeclarationRule(
                    applies=is_leading & (card == JOKER), requires=declared_suit != trump
                ),
            ),
        ),
    ),
    source=assumption("CR-JOKER-5", "the designer is silent"),
)

# 9. Properties to prove -----------------------------------------------------------------
PROPERTIES = (
    Property(
        id="deck.trick_values_total",
        text="The seven tricks are worth 28 points in all, whoever wins them.",
        scope=Scope.OUTCOME,
        holds=sum((points_won(s) for s in range(1, PLAYERS)), points_won(0)) == TOTAL_POINTS,
        covers=("deck.trick_values",),
    ),
    Property(
        id="score.every_bid_reachable",
        text="Every bid from 15 to 28 can be made exactly: some set of tricks is worth "
        "exactly the bid.",
        scope=Scope.OUTCOME,
        free=(_OTHER,),
        exists=True,
        holds=(_OTHER.level > TOTAL_POINTS) | (points_won(declarer) == _OTHER.level),
        covers=("deck.trick_values", "auction.bids"),
    ),
    Property(
        id="play.joker_never_wins_following",
        text="The joker never wins a trick it does not lead.",
        scope=Scope.TRICK,
        holds=all_of(*(implies(played_card(i) == JOKER, trick_winner != i) for i in range(1, PLAYERS))),
        covers=("play.joker_following",),
    ),
    Property(
        id="score.soloist_range",
        text="The soloist's score lies between -28 and +56.",
        scope=Scope.OUTCOME,
        holds=(score_of(declarer) >= -TOTAL_POINTS) & (score_of(declarer) <= 2 * TOTAL_POINTS),
        covers=("score.exact", "score.over", "score.under"),
    ),
    Property(
        id="score.overshoot_costs",
        text="Taking more points than bid always scores less than taking exactly the bid.",
        scope=Scope.OUTCOME,
        holds=implies(
            points_won(declarer) > contract.level,
            score_of(declarer) < let(points, contract.level, score_of(declarer)),
        ),
        finding=True,
        covers=("score.exact", "score.over"),
    ),
    Property(
        id="score.unmakeable_bid_loses",
        text="A bid above 28 (possible only under allow_unmakeable_bids) always loses the bid.",
        scope=Scope.OUTCOME,
        holds=implies(contract.level > TOTAL_POINTS, score_of(declarer) == -contract.level),
        covers=("score.under",),
        under=("allow_unmakeable_bids",),
    ),
)

# 10. Facts: the rulebook's own cards and numbers ----------------------------------------
# Each fact states what the seed or the digest says in literal cards, bids and numbers,
# apart from the rules above (no constant or expression of theirs is reused), so that a
# rule transcribed wrongly contradicts one of them.  A trick is written in order of play,
# "JK:H" being the joker led naming hearts, with the contract's strain ("NT": no trumps)
# and the position of the card that wins it (0: the lead).


def _contract_strain(strain: str) -> Expr:
    return trump == (no_suit if strain == "NT" else Suit.parse(strain))


def _trick_won_by(strain: str, plays: str, winner: int) -> Expr:
    """In that contract, the trick of these cards is won by the card at ``winner``."""
    parts = [_contract_strain(strain)]
    for i, play in enumerate(plays.split()):
        card_text, _, named = play.partition(":")
        parts.append(played_card(i) == Card.parse(card_text))
        if named:
            parts.append(played_declared(i) == Suit.parse(named))
    return implies(all_of(*parts), trick_winner == winner)


def _tricks(table: tuple[tuple[str, str, int], ...]) -> Expr:
    return all_of(*(_trick_won_by(*row) for row in table))


# [seed] CR-DECK-2: A > 5 > 4 > 3 > 2, and the joker ranks below the 2.  Each pair of
# neighbours, the lower led and the higher following, with a card of another suit third.
RANKS_IN_TRICKS = (
    ("NT", "5S AS 2H", 1),
    ("NT", "4H 5H 2D", 1),
    ("NT", "3D 4D 2C", 1),
    ("NT", "2C 3C 2S", 1),
    ("NT", "JK:S 2S 2H", 1),
)
# [seed] CR-PLAY-5: trumps are the strongest suit, the led suit the next, any other suit
# loses; the last row is the seed's own example (clubs trumps: ♦3, ♥5, ♦4; the ♦4 wins).
SUITS_IN_TRICKS = (
    ("H", "AS 2H 5S", 1),
    ("H", "AS 2H 3H", 2),
    ("H", "2S AD AC", 0),
    ("C", "3D 5H 4D", 2),
)
# [seed] CR-PLAY-6: in no trumps there are no trumps; the led suit alone can win.
NO_TRUMP_TRICKS = (
    ("NT", "2S AC AH", 0),
    ("NT", "2S AC 3S", 2),
)
# the digest's trick examples (CR-JOKER-4), and the same in no trumps (digest G7)
JOKER_TRICKS = (
    ("C", "JK:H AD 5S", 0),
    ("C", "JK:H AD 2C", 2),
    ("NT", "JK:H AD 2C", 0),
)

# [assumption] CR-JOKER-5, the default: a led joker may name trumps, and is then the lowest
# trump (any other trump beats it, a card of another suit does not).
JOKER_NAMES_TRUMP_TRICKS = (
    ("H", "JK:H 2H AS", 1),
    ("H", "JK:H AS 5D", 0),
)


def _bid_is(b: Expr, level: int, strain: str) -> Expr:
    return (b.level == level) & (b.strain == (no_suit if strain == "NT" else Suit.parse(strain)))


def _opening(level: int, strain: str) -> Expr:
    """The call is a bid of ``level`` in ``strain`` with no bid standing."""
    return ~standing.exists & call.is_bid & _bid_is(call.bid, level, strain)


def _over(standing_bid: tuple[int, str], level: int, strain: str) -> Expr:
    """The call is a bid of ``level`` in ``strain`` over the standing bid."""
    return (standing.exists & _bid_is(standing.bid, *standing_bid) & call.is_bid
            & _bid_is(call.bid, level, strain))


# [seed] CR-AUC-3: at equal points NT > ♠ > ♥ > ♦ > ♣; each strain over the next lower
STRAINS_LOW_TO_HIGH = ("C", "D", "H", "S", "NT")
# [seed] CR-AUC-2: the seed's example bids 「ダイヤ15」「スペード19」「ノートランプ23」
SEED_BIDS = ((15, "D"), (19, "S"), (23, "NT"))
# [seed] CR-DECK-3: trick k is worth k points: pp 1, p 2, mp 3, mf 4, f 5, ff 6, fff 7
TRICK_POINTS = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}
# the digest's worked scoring examples: bid, tricks the soloist won, score
SCORING_EXAMPLES = (
    ((19, "S"), (3, 4, 5, 7), 38),
    ((19, "S"), (2, 5, 6, 7), 20),
    ((19, "S"), (5, 6, 7), -19),
    ((15, "D"), (1, 2, 5, 7), 30),
    ((15, "D"), (1, 3, 5, 7), 16),
    ((28, "NT"), (1, 2, 3, 4, 5, 6, 7), 56),
)


def _won_exactly(s: Expr, numbers: tuple[int, ...]) -> Expr:
    """The seat won the tricks with these numbers and no others."""
    return all_of(*(won_trick(s, k) if k in numbers else ~won_trick(s, k) for k in range(1, 8)))


def _scored(example: tuple[tuple[int, str], tuple[int, ...], int]) -> Expr:
    """In the deal of the example the soloist scores its score and the others nothing."""
    (level, strain), won, score = example
    return implies(_bid_is(contract, level, strain) & _won_exactly(declarer, won),
                   score_of(seat) == if_then_else(seat == declarer, score, 0))


FACTS = (
    Property(
        id="deal.dealing_seen",
        text="Rearhand deals one card at a time: the 1st card of the pack to Forehand, the "
        "2nd to Middlehand, the 3rd to himself, the 4th to Forehand again, the 21st and last "
        "to himself; Forehand deals next.",
        scope=Scope.DEAL,
        holds=implies(dealer == 2, all_of(
            receives(1) == 0, receives(2) == 1, receives(3) == 2, receives(4) == 0,
            receives(20) == 1, receives(21) == 2, receives(22) == -1, next_dealer == 0)),
        covers=("deal.one_at_a_time", "deal.next_dealer"),
        source=source("CR-DEAL-1", "seed; the deal passing clockwise is the digest's "
                      "assumption CR-DEAL-2", also=("CR-DEAL-2",)),
    ),
    Property(
        id="auction.one_round_seen",
        text="The auction ends after three calls, bids or passes, and not after two.",
        scope=Scope.CALL,
        holds=implies(calls_made == 3, auction_over) & implies(calls_made == 2, ~auction_over),
        covers=("auction.one_round",),
        source=seed("CR-AUC-1"),
    ),
    Property(
        id="deck.ranks_in_tricks",
        text="In every suit the ace beats the 5, the 5 the 4, the 4 the 3 and the 3 the 2, "
        "and the 2 beats a led joker naming its suit.",
        scope=Scope.TRICK,
        holds=_tricks(RANKS_IN_TRICKS),
        covers=("deck.rank_order", "play.led_suit_wins", "play.joker_led"),
        source=seed("CR-DECK-2", also=("CR-JOKER-3",)),
    ),
    Property(
        id="play.suits_in_tricks",
        text="The lowest trump beats the led ace, a higher trump a lower one, and an ace of "
        "neither trumps nor the led suit loses to the led 2; with clubs trumps, ♦3 led, ♥5 "
        "and ♦4, the ♦4 wins.",
        scope=Scope.TRICK,
        holds=_tricks(SUITS_IN_TRICKS),
        covers=("play.trumps_win", "play.led_suit_wins"),
        source=seed("CR-PLAY-5", "with the seed's example trick"),
    ),
    Property(
        id="play.no_trump_tricks",
        text="In no trumps a club is no trump: ♠2 led, ♣A and ♥A, the ♠2 wins; ♠2, ♣A, ♠3, "
        "the ♠3 wins.",
        scope=Scope.TRICK,
        holds=_tricks(NO_TRUMP_TRICKS),
        covers=("play.trumps_win", "play.led_suit_wins"),
        source=seed("CR-PLAY-6"),
    ),
    Property(
        id="play.joker_led_tricks",
        text="With clubs trumps, the joker led naming hearts, ♦A and ♠5: the joker wins; "
        "♦A and ♣2: the ♣2 wins; in no trumps the joker wins over ♦A and ♣2.",
        scope=Scope.TRICK,
        holds=_tricks(JOKER_TRICKS),
        covers=("play.joker_led", "play.trumps_win", "play.led_suit_wins"),
        source=seed("CR-JOKER-4", "the digest's trick examples, and G7 for no trumps"),
    ),
    Property(
        id="play.joker_named_trump_tricks",
        text="With hearts trumps, the joker led naming hearts is the lowest trump: ♥2 after "
        "it wins; over ♠A and ♦5 the joker wins.",
        scope=Scope.TRICK,
        holds=_tricks(JOKER_NAMES_TRUMP_TRICKS),
        covers=("play.joker_names_trump", "play.joker_led"),
        unless=("joker_names_plain_suit",),
        source=assumption("CR-JOKER-5", "the digest's default: a led joker may name trumps"),
    ),
    Property(
        id="auction.forehand_calls_first",
        text="In every deal played out, Forehand, the seat after the dealer, makes the first "
        "call, then Middlehand, then Rearhand (the dealer), and nobody a fourth.",
        scope=Scope.HISTORY,
        holds=(caller_of(1) == seat_after(dealer)) & (caller_of(2) == seat_after(dealer, 2))
        & (caller_of(3) == dealer) & (caller_of(4) == -1),
        covers=("auction.one_round",),
        source=seed("CR-AUC-1"),
    ),
    Property(
        id="play.forehand_leads_first",
        text="In every deal played out, Forehand, the seat after the dealer, leads to the "
        "first trick, whoever the soloist is, and each trick's winner leads to the next.",
        scope=Scope.HISTORY,
        holds=(leader_of(1) == seat_after(dealer))
        & all_of(*(leader_of(k + 1) == winner_of(k) for k in range(1, TRICKS))),
        covers=("play.tricks",),
        source=seed("CR-PLAY-1"),
    ),
    Property(
        id="play.follow_or_joker",
        text="Hearts trumps, spades led: a follower holding the ♠2, the ♥A and the joker may "
        "play the ♠2 or the joker, but not the ♥A.",
        scope=Scope.PLAY,
        holds=implies(
            ~is_leading & (trump == Suit.HEARTS) & (led_suit == Suit.SPADES)
            & hand.holds(Card.parse("2S")) & hand.holds(Card.parse("AH")) & hand.holds(JOKER),
            legal_cards.holds(Card.parse("2S")) & legal_cards.holds(JOKER)
            & ~legal_cards.holds(Card.parse("AH")),
        ),
        covers=("play.follow_suit", "play.joker_any_time"),
        source=seed("CR-PLAY-3", also=("CR-JOKER-1",)),
    ),
    Property(
        id="auction.strain_order",
        text="At 20 points, diamonds may bid over clubs, hearts over diamonds, spades over "
        "hearts and no trumps over spades, and never the other way.",
        scope=Scope.CALL,
        holds=all_of(*(
            implies(_over((20, low), 20, high), legal_call)
            & implies(_over((20, high), 20, low), ~legal_call)
            for low, high in zip(STRAINS_LOW_TO_HIGH, STRAINS_LOW_TO_HIGH[1:])
        )),
        covers=("auction.bid_order", "auction.overcall", "auction.bids"),
        source=seed("CR-AUC-3"),
    ),
    Property(
        id="auction.points_before_strain",
        text="20 clubs may bid over 19 no trumps, and 19 no trumps may not bid over 20 clubs.",
        scope=Scope.CALL,
        holds=implies(_over((19, "NT"), 20, "C"), legal_call)
        & implies(_over((20, "C"), 19, "NT"), ~legal_call),
        covers=("auction.bid_order", "auction.overcall"),
        source=seed("CR-AUC-3"),
    ),
    Property(
        id="auction.equal_bid_refused",
        text="Over 20 spades, another 20 spades may not be bid.",
        scope=Scope.CALL,
        holds=implies(_over((20, "S"), 20, "S"), ~legal_call),
        covers=("auction.overcall",),
        source=seed("CR-AUC-4"),
    ),
    Property(
        id="auction.lowest_bid",
        text="15 clubs, the weakest bid, may open the auction, and no bid below 15 points "
        "is ever legal.",
        scope=Scope.CALL,
        holds=implies(_opening(15, "C"), legal_call)
        & implies(call.is_bid & legal_call, call.bid.level >= 15),
        covers=("auction.bids",),
        source=seed("CR-AUC-2"),
    ),
    Property(
        id="auction.seed_bids",
        text="The seed's example bids, 15 diamonds, 19 spades and 23 no trumps, may each "
        "open the auction.",
        scope=Scope.CALL,
        holds=all_of(*(implies(_opening(level, strain), legal_call) for level, strain in SEED_BIDS)),
        covers=("auction.bids",),
        source=seed("CR-AUC-2", "「ダイヤ15」「スペード19」「ノートランプ23」"),
    ),
    Property(
        id="auction.every_level_to_28",
        text="Every whole number of points from 15 to 28 may be bid, and none above 28.",
        scope=Scope.CALL,
        holds=all_of(
            *(implies(_opening(level, "C"), legal_call) for level in range(15, 29)),
            implies(_opening(28, "NT"), legal_call),
            implies(call.is_bid & legal_call, call.bid.level <= 28),
        ),
        covers=("auction.bids", "auction.makeable_bids"),
        source=assumption(
            "CR-AUC-7",
            "the seed gives only the floor of 15; whole points (digest G3) up to 28, the most "
            "that can be taken (G2), are the digest's choice",
            also=("CR-AUC-2",),
        ),
    ),
    Property(
        id="deck.trick_points",
        text="A seat that wins only trick k has taken k points, for k = 1 to 7, and a seat "
        "that wins all seven has taken 28.",
        scope=Scope.OUTCOME,
        holds=all_of(
            *(implies(_won_exactly(seat, (k,)), points_won(seat) == value)
              for k, value in TRICK_POINTS.items()),
            implies(_won_exactly(seat, (1, 2, 3, 4, 5, 6, 7)), points_won(seat) == 28),
        ),
        covers=("deck.trick_values",),
        source=seed("CR-DECK-3"),
    ),
    Property(
        id="score.worked_examples",
        text="♠19 making 19, 20 or 18 scores +38, +20 or -19; ♦15 making 15 or 16 scores "
        "+30 or +16; NT28 taking all seven scores +56; the other two seats score 0.",
        scope=Scope.OUTCOME,
        holds=all_of(*(_scored(example) for example in SCORING_EXAMPLES)),
        covers=("score.exact", "score.over", "score.under", "score.others_nothing"),
        source=seed("CR-SCORE-1", "the digest's worked examples",
                    also=("CR-SCORE-2", "CR-SCORE-3", "CR-SCORE-4")),
    ),
    Property(
        id="score.unmakeable_example",
        text="Under allow_unmakeable_bids, ♣29 taking all seven tricks scores -29.",
        scope=Scope.OUTCOME,
        holds=_scored(((29, "C"), (1, 2, 3, 4, 5, 6, 7), -29)),
        covers=("score.under",),
        under=("allow_unmakeable_bids",),
        source=assumption("CR-AUC-7", "the digest's worked example for the variant",
                          also=("CR-SCORE-3",)),
    ),
    Property(
        id="game.match_length_seen",
        text="A match is three deals by default, so each seat deals once: it goes on after "
        "the second deal and ends after the third.",
        scope=Scope.MATCH,
        holds=implies(deals_played == 2, ~match_over) & implies(deals_played == 3, match_over),
        covers=("game.match_length",),
        source=assumption("CR-GAME-2", "the seat says 'several games'; any count or a "
                          "target score works"),
    ),
    Property(
        id="auction.first_caller_seen",
        text="Seat 2 deals: seat 0, Forehand on his left, calls first; seat 0 deals: seat 1 "
        "calls first; seat 1 deals: seat 2.",
        scope=Scope.CALL,
        holds=implies(dealer == 2, first_to_call == 0) & implies(dealer == 0, first_to_call == 1)
        & implies(dealer == 1, first_to_call == 2),
        covers=("auction.one_round",),
        source=seed("CR-AUC-1", also=("CR-SETUP-1",)),
    ),
    Property(
        id="auction.all_pass_seen",
        text="Seat 2 deals and all three pass: seat 2 gathers the cards and deals again (and "
        "Forehand, seat 0, calls first again); seat 0 deals and all pass: seat 0 deals again.",
        scope=Scope.DEAL,
        holds=implies(dealer == 2, no_bid_redealer == 2) & implies(dealer == 0, no_bid_redealer == 0),
        covers=("auction.all_pass",),
        source=seed("CR-AUC-6"),
    ),
    Property(
        id="play.joker_plain_suit_tricks",
        text="Under joker_names_plain_suit, with hearts trumps the joker led names spades, "
        "diamonds or clubs, never hearts.",
        scope=Scope.TRICK,
        holds=implies((trump == Suit.HEARTS) & (played_card(0) == JOKER),
                      played_declared(0) != Suit.HEARTS),
        covers=("play.joker_names_trump", "play.joker_led"),
        under=("joker_names_plain_suit",),
        source=assumption("CR-JOKER-5", "the variant's reading: the suit named may not be "
                          "trumps"),
    ),
)

GAME = Game(
    name="Crescendo",
    key="crescendo",
    ref_prefix="CR",
    doc=__doc__ or "",
    rules=(
        SEATING, CLOCKWISE, SOLOIST_ALONE,
        PACK, RANKS, TRICK_VALUES,
        SHUFFLE, DEAL, NEXT_DEALER,
        ONE_ROUND, BIDS, BID_ORDER, OVERCALL, SOLOIST, ALL_PASS, MAKEABLE_BIDS,
        TRICK_PLAY, LEAD_ANY, FOLLOW_SUIT, NO_OBLIGATION, TRUMPS_WIN, LED_SUIT_WINS, RECORD,
        JOKER_ANY_TIME, JOKER_FOLLOWING, JOKER_LED, JOKER_LED_WINS, JOKER_NAMES_TRUMP,
        SCORE_EXACT, SCORE_OVER, SCORE_UNDER, OTHERS_SCORE_NOTHING, STRAIN_IRRELEVANT,
        MATCH, MATCH_LENGTH,
    ),
    variants=(ALLOW_UNMAKEABLE_BIDS, JOKER_NAMES_PLAIN_SUIT),
    properties=PROPERTIES + FACTS,
)
