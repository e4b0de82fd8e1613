"""304 (Three-Nought-Four), the Sri Lankan partnership game of the Jass family.

Players: 4 in two fixed partnerships, partners opposite; everything goes counter-clockwise.
Deck: 7 to A of each suit (32 cards); J and 9 rank above the ace in every suit, and the
cards carry 304 points between them.  The deal comes in two batches of four with an
auction after each; the winner of the first auction chooses trumps by laying a card
face down (the *indicator*), and until trumps are revealed a player who cannot follow
plays face down, so only the trump maker knows whether a trick was cut.

Sources:
  [seed] the Japanese summary of pagat's page, ``001_45f8af9cbb07519d.txt``
  [PG]   https://www.pagat.com/jass/304.html (John McLeod), the seed's own source
  [ML]   marc-la/304-game, docs/specs/rules.md, "House Rules vs Standard Rules"
  [RR]   rrathip-glitch/304, docs/RULES.md
  [KM]   kamalrajmuruganathan/304 ("version Jaffna")
  [CAT]  https://catsatcards.com/Games/304.html

Deviations and open points, each a named variant (see ``VARIANTS``):
  * a proxy call does not count as the asked partner's own call
    (``proxy_counts_as_partner_call``);
  * partner requests only in the four-card auction (``partner_request_in_eight_card_auction``);
  * overcalling one's partner is allowed in the eight-card auction
    (``no_overcalling_partner_in_eight_card_auction``, as [KM]);
  * a deal spoilt by trumps is redealt by the same dealer (``spoilt_trumps_next_dealer``);
  * a trump maker who leads to trick 1 with only trumps must play Open Trump
    (``literal_first_lead`` keeps the rule as written, which leaves him no legal lead);
  * Caps must be claimed before trick 8 starts; ``caps_when_certain`` makes it a duty to
    claim at the first moment of certainty, which the engine judges by a search over the
    deals the claimer cannot tell apart;
  * the game is won at 11 game points; ``tokens`` plays with ten counters a side.
"""
from __future__ import annotations

from spec.cards import PIQUET_32, Card, Rank, Suit
from spec.dsl import (
    lead_total,
    trail_total,
    match_over,
    T,
    Expr,
    cards,
    played_card,
    taken,
    Announce,
    AuctionTurns,
    BidOrder,
    CallRule,
    CardPoints,
    Claim,
    DealerRotation,
    DealPackets,
    Decide,
    DeckIs,
    Direction,
    FaceDown,
    Game,
    HighestBidderDeclares,
    Ladder,
    MatchTarget,
    Moment,
    Option,
    PlayableAside,
    PlayDirection,
    PlayRule,
    Property,
    ProxyCall,
    RankOrder,
    RedealIfNoBid,
    Rule,
    Scope,
    ScoreRule,
    Seats,
    SetAside,
    Shuffle,
    SitsOut,
    Track,
    TrickPlay,
    Update,
    Variant,
    VoidWhen,
    all_of,
    amended,
    any_of,
    assumption,
    bid,
    bid_this_stage,
    by_proxy,
    call,
    calls_made,
    card,
    card_table,
    cards_of,
    certain,
    const,
    contract,
    dealer,
    dealt_hand,
    declarer,
    free_suit,
    hand,
    if_then_else,
    implies,
    is_leading,
    leader,
    legal_call,
    first_leader,
    first_to_call,
    next_dealer,
    no_bid_redealer,
    receives,
    lays_aside,
    deal_void,
    redealer,
    aside,
    turned_up,
    tracked_after,
    auction_over,
    may_ask_partner,
    may_announce,
    announcing,
    legal_cards,
    led_suit,
    partner,
    passes_in_row,
    played_face_down,
    played_suit,
    points_won,
    ranks,
    score_of,
    seat,
    seat_after,
    seat_calls,
    seed,
    source,
    stage,
    standing,
    tracked,
    trick_number,
    trick_size,
    trick_winner,
    tricks_won,
    trump,
)
from spec.dsl.blocks import ends_after_passes, follow_suit, led_suit_wins, overcall, trumps_win

# 1. Players and seats ---------------------------------------------------------------
PLAYERS = 4
# Seats in the order of play.  Play goes counter-clockwise, so each next seat sits on
# the right: North, then West, South and East; the default dealer is East.
NORTH, WEST, SOUTH, EAST = range(PLAYERS)

SEATING = Rule(
    id="setup.seats",
    text="Four play in two fixed partnerships, partners sitting opposite: North and South "
    "against West and East.",
    source=seed("304-SETUP-1"),
    body=Seats(("North", "West", "South", "East"), partnerships=((NORTH, SOUTH), (WEST, EAST))),
)
COUNTER_CLOCKWISE = Rule(
    id="setup.counter_clockwise",
    text="Dealing, bidding and play all go counter-clockwise: each next player sits on the "
    "right.",
    source=seed("304-SETUP-2"),
    body=PlayDirection(Direction.COUNTER_CLOCKWISE),
)
NEXT_DEALER = Rule(
    id="setup.next_dealer",
    text="The first dealer is chosen by any method; after each deal the deal passes to the "
    "right.",
    source=seed("304-SETUP-3"),
    body=DealerRotation(steps=1),
)

# 2. The cards -------------------------------------------------------------------------
DECK = PIQUET_32  # 7, 8, 9, 10, J, Q, K, A of each suit
RANK_ORDER = ranks("J 9 A 10 K Q 8 7")  # high to low, in every suit, trumps included
#                   J    9    A   10    K   Q   8   7
CARD_POINTS = card_table("card points", {
    Rank.JACK: 30, Rank.NINE: 20, Rank.ACE: 11, Rank.TEN: 10,
    Rank.KING: 3, Rank.QUEEN: 2, Rank.EIGHT: 0, Rank.SEVEN: 0,
}, DECK)
TOTAL_POINTS = 304
ALL_CARDS = const(DECK.full)
TRICKS = len(DECK) // PLAYERS  # 8

PACK = Rule(
    id="deck.cards",
    text="The pack has 32 cards: 7, 8, 9, 10, J, Q, K and A of each suit.",
    source=seed("304-DECK-1", "with [PG]"),
    body=DeckIs(DECK),
)
RANKS = Rule(
    id="deck.rank_order",
    text="In every suit, trumps or not, the cards rank J (highest), 9, A, 10, K, Q, 8, 7.",
    source=seed("304-DECK-2", "with [PG]; the scraped seed lost every rank name but the 10"),
    body=RankOrder(RANK_ORDER),
)
POINTS = Rule(
    id="deck.card_points",
    text="Each team scores the points of the cards in the tricks it wins: J 30, 9 20, A 11, "
    "10 10, K 3, Q 2, 8 and 7 nothing; 76 a suit and 304 in all.",
    source=seed("304-DECK-3", "with [PG] and [WP]"),
    body=CardPoints(CARD_POINTS),
)

# 3. The deal --------------------------------------------------------------------------
SHUFFLE = Rule(
    id="deal.shuffle_and_cut",
    text="The dealer shuffles (lightly if he likes) and the player on his left may cut or "
    "decline.",
    source=seed("304-DEAL-1"),
    body=Shuffle(cut_by=seat_after(dealer, PLAYERS - 1)),
)
FIRST_BATCH = Rule(
    id="deal.first_batch",
    text="The dealer gives four cards to each player in one packet, counter-clockwise, "
    "starting with the player on his right and ending with himself.",
    source=seed("304-DEAL-2"),
    body=DealPackets((4,), first=seat_after(dealer), stage=1),
)
REDEAL_DEMAND = Rule(
    id="deal.low_points_redeal",
    text="Before any call, the player on the dealer's right, and only he, may demand a new "
    "deal if his four cards are worth less than 15 points.",
    source=source("304-DEAL-3", "seed; who and when from [CAT]"),
    body=Announce("redeal", Scope.CALL,
                  when=(stage == 1) & (calls_made == 0) & ~by_proxy
                  & (seat == seat_after(dealer)) & (CARD_POINTS.total(hand) < 15),
                  sets=(("redeal_demanded", const(True)),)),
)
REDEAL_DEMANDED = Rule(
    id="deal.low_points_redeal_same_dealer",
    text="After such a demand the same dealer deals again.",
    source=seed("304-DEAL-3"),
    body=VoidWhen(when=tracked("redeal_demanded"), redeal_steps=0),
)
REDEAL_FLAG = Rule(
    id="deal.redeal_demand_kept",
    text="Whether the new deal has been demanded is remembered until the cards are dealt "
    "again.",
    source=seed("304-DEAL-3"),
    body=Track("redeal_demanded", T.BOOL, False),
)
SECOND_BATCH = Rule(
    id="deal.second_batch",
    text="After the four-card auction and the laying of the trump indicator, each player "
    "gets four more cards, in the same order.",
    source=seed("304-DEAL-4"),
    body=DealPackets((4,), first=seat_after(dealer), stage=2),
)

# 4. The four-card auction -------------------------------------------------------------
IS_PCC = contract.level > 300
LADDER = Rule(
    id="auction.bids",
    text="A bid is a multiple of 10 from 160 to 300; above them all is Partner Close Caps "
    "(PCC).",
    source=seed("304-AUC-2", also=("304-AUC8-2",)),
    body=Ladder(levels=(*range(160, 301, 10), 310), strains=(None,), names=((310, "PCC"),)),
)
BID_ORDER = Rule(
    id="auction.bid_order",
    text="A higher number beats a lower one, and Partner Close Caps beats every number.",
    source=seed("304-AUC8-3"),
    body=BidOrder(key=bid.level),
)
FOUR_CARD_TURNS = Rule(
    id="auction.four_card_turns",
    text="The four-card auction starts with the player on the dealer's right and goes "
    "round counter-clockwise as often as needed; it ends when a bid has been followed by "
    "three passes in a row, or when all four pass without a bid.",
    source=seed("304-AUC-1", also=("304-AUC-6",)),
    body=AuctionTurns(first=seat_after(dealer), ends_when=ends_after_passes(PLAYERS - 1, PLAYERS),
                      stage=1),
)
OVERCALL = Rule(
    id="auction.overcall",
    text="A bid must beat the highest bid so far.",
    source=seed("304-AUC-2"),
    body=overcall(),
)
PASS_NOT_FINAL = Rule(
    id="auction.pass_not_final",
    text="Passing is not final: a player who has passed may bid later, and a player may "
    "bid over his partner, from 200 up.",
    source=seed("304-AUC-3"),
    body=Claim(Scope.CALL, implies(
        (stage == 1) & call.is_bid & (call.bid.level >= 200) & (call.bid.level <= 300)
        & (~standing.exists | (call.bid.key > standing.bid.key)),
        legal_call)),
)
FLOOR_200 = Rule(
    id="auction.floor_200",
    text="A bid below 200 is allowed only as a player's first call of the four-card "
    "auction, and never over his partner's bid.",
    source=source("304-AUC-4", "[ML] standard column, [RR], [KM]; pagat's wording not seen"),
    body=CallRule(applies=(stage == 1) & call.is_bid & (call.bid.level < 200),
                  requires=(seat_calls == 0)
                  & ~(standing.exists & (standing.bidder == partner(seat)))),
)
PARTNER_REQUEST = Rule(
    id="auction.partner_request",
    text="On his turn in the four-card auction a player may ask his partner to call for "
    "him: the partner bids or passes at once in his place, using his turn, and for the "
    "turn and floor rules the call is the asker's; a bid so made belongs to the "
    "partnership, and if it stands the partner who named it is trump maker and lays the "
    "indicator from his own cards.",
    source=source("304-AUC-5", "the seed: 「この場合は、パートナーは代理としてビッドするだけで"
                  "あり、パートナー自身のビッドにはなりません」, 'in this case the partner only "
                  "bids as a proxy, and it does not become the partner's own bid'; turn "
                  "accounting from [ML] H-1..H-4; the partner who named the bid as trump "
                  "maker is the digest's resolution of G4 ([assumption]), the asker as trump "
                  "maker the variant asker_makes_trump"),
    body=ProxyCall(when=stage == 1, counts_for_partner=False, namer_declares=True),
)
MAKER = Rule(
    id="auction.trump_maker",
    text="The last and highest bidder is the trump maker and his bid is the contract.",
    source=seed("304-AUC-6"),
    body=HighestBidderDeclares(),
)
ALL_PASS = Rule(
    id="auction.all_pass",
    text="If all four pass without a bid the deal is abandoned and the next dealer deals.",
    source=seed("304-AUC-7"),
    body=RedealIfNoBid(steps=1),
)

# 5. The trump indicator ---------------------------------------------------------------
TRUMP_OPEN = "trump_open"
IS_OPEN = tracked(TRUMP_OPEN)
INDICATOR = Rule(
    id="trump.indicator",
    text="The trump maker lays one of his four cards face down: the trump indicator, whose "
    "suit is trumps and which nobody else sees; it goes back to his hand as soon as trumps "
    "are open.",
    source=seed("304-TRUMP-1"),
    body=SetAside(stage=1, when=standing.exists, returns_when=IS_OPEN, count=1, names_trump=True),
)
INDICATOR_NOT_IN_HAND = Rule(
    id="trump.indicator_not_in_hand",
    text="While face down the indicator is not part of the maker's hand for following suit: "
    "a player with no card of the led suit in hand may play any card of his hand.",
    source=seed("304-TRUMP-2"),
    body=Claim(Scope.PLAY, implies(~is_leading & ~hand.holds_any(cards_of(led_suit)),
                                   (legal_cards & hand) == hand)),
)

# 6. The eight-card auction ------------------------------------------------------------
EIGHT_CARD_TURNS = Rule(
    id="auction.eight_card_turns",
    text="After the second batch there is one more round of calls, starting with the trump "
    "maker and going counter-clockwise: each player calls exactly once.",
    source=seed("304-AUC8-1"),
    body=AuctionTurns(first=standing.maker, ends_when=calls_made == PLAYERS, stage=2),
)
EIGHT_CARD_MINIMUM = Rule(
    id="auction.eight_card_minimum",
    text="A bid in the eight-card auction must be at least 250 (and beat the highest bid so "
    "far).",
    source=seed("304-AUC8-2", "numeric bids stop at 300 by assumption"),
    body=CallRule(applies=(stage == 2) & call.is_bid, requires=call.bid.level >= 250),
)
NEW_INDICATOR = Rule(
    id="auction.new_indicator",
    text="If anyone bids in the eight-card auction, the old indicator goes back to the old "
    "maker's hand and the new maker lays any of his eight cards face down as the indicator "
    "(the old maker, if he bid again, may change it); if nobody bids, maker, indicator and "
    "contract stand.",
    source=seed("304-AUC8-5", also=("304-AUC8-4", "304-AUC8-6")),
    body=SetAside(stage=2, when=bid_this_stage, returns_when=IS_OPEN, count=1, names_trump=True),
)
PCC_ONLY_LATE = Rule(
    id="auction.pcc_eight_card_only",
    text="Partner Close Caps can be bid only in the eight-card auction.",
    source=assumption("304-AUC8-7", "the seed is silent; partner requests in this auction "
                      "are the variant partner_request_in_eight_card_auction ([ML])"),
    body=CallRule(applies=call.is_bid & (call.bid.level > 300), requires=stage == 2),
)

# 7. The play --------------------------------------------------------------------------
FIRST_LEAD = Rule(
    id="play.first_lead",
    text="The player on the dealer's right leads to the first trick, whoever the trump "
    "maker is; in Partner Close Caps the bidder leads.",
    source=seed("304-PLAY-1", also=("304-PCC-4",)),
    body=TrickPlay(first_lead=if_then_else(IS_PCC, declarer, seat_after(dealer))),
)
EXHAUSTED = "trumps_exhausted"
LEAD_ANY = Rule(
    id="play.lead_any",
    text="Once trumps are open the leader may lead any card, unless the exhausted-trumps "
    "rule binds the maker.",
    source=seed("304-PLAY-2"),
    body=Claim(Scope.PLAY, implies(is_leading & IS_OPEN
                                   & ~(tracked(EXHAUSTED) & (seat == declarer)),
                                   legal_cards == hand)),
)
FOLLOW_SUIT = Rule(
    id="play.follow_suit",
    text="A player who holds a card of the led suit must play one; otherwise he may play "
    "any card, and nobody must trump or beat.",
    source=seed("304-PLAY-3"),
    body=follow_suit(),
)
TRUMPS_WIN = Rule(
    id="play.trumps_win",
    text="The highest trump played wins the trick.",
    source=seed("304-PLAY-4"),
    body=trumps_win(),
)
LED_SUIT_WINS = Rule(
    id="play.led_suit_wins",
    text="If no trump is played the highest card of the led suit wins; the winner leads next.",
    source=seed("304-PLAY-4"),
    body=led_suit_wins(),
)
OPEN_OR_CLOSED = Rule(
    id="play.open_or_closed",
    text="Before the first lead the trump maker either turns the indicator up and takes it "
    "into his hand (Open Trump) or keeps it face down (Closed Trump); a maker who is to "
    "lead the first trick holding only trumps must play Open Trump.",
    source=assumption("304-PLAY-5", "the seed gives the choice; the duty to open with only "
                      "trumps on lead is proposed by the digest (G6), no source covers it; "
                      "variant literal_first_lead drops it"),
    body=Decide(by=declarer, options=(
        Option("open", when=const(True), sets=((TRUMP_OPEN, const(True)),)),
        Option("closed", when=~(((seat_after(dealer) == declarer) | IS_PCC)
                                & (dealt_hand(declarer) - cards_of(trump)).is_empty)),
    )),
)
OPEN_FLAG = Rule(
    id="closed.never_again",
    text="Once trumps are open the game never becomes closed again.",
    source=seed("304-CLOSED-7"),
    body=Track(TRUMP_OPEN, T.BOOL, False, monotone=True),
)

# 7a. Closed trump
MAKER_LEADS_CLOSED = ~IS_OPEN & is_leading & (trick_number == 1) & (seat == declarer)
NON_TRUMPS = ALL_CARDS - cards_of(trump)
NO_TRUMP_LEAD = Rule(
    id="closed.no_trump_lead_to_first",
    text="In Closed Trump a maker who leads to the first trick may not lead a trump, unless "
    "he holds nothing else (and then he has opened).",
    source=assumption("304-CLOSED-1", "the seed forbids the trump lead; the exception for a "
                      "hand of trumps only is the digest's proposal (G6)"),
    body=PlayRule(applies=MAKER_LEADS_CLOSED & hand.holds_any(NON_TRUMPS),
                  permits=NON_TRUMPS),
)
INDICATOR_PLAY = Rule(
    id="closed.indicator_play",
    text="The face-down indicator may be played only face down by the maker to a trick led "
    "in another suit that he cannot follow, or at trick 8 as his last card; never led "
    "before trick 8 and never to a trump lead before it.",
    source=source("304-CLOSED-2", "seed with [ML], [RR]"),
    body=PlayableAside(when=(~is_leading & (led_suit != trump)
                             & ~hand.holds_any(cards_of(led_suit)))
                       | ((trick_number == TRICKS) & hand.is_empty)),
)
# a closed trick in which some card played face down is a trump: a cut, found by the maker
CUT_FOUND = ~IS_OPEN & any_of(*(played_face_down(i) & (played_suit(i) == trump)
                                for i in range(1, PLAYERS)))
FACE_DOWN = Rule(
    id="closed.face_down",
    text="In Closed Trump a player who cannot follow suit plays any card face down, a trump "
    "(a cut) or not (a discard); the trump maker alone looks at the face-down cards, and if "
    "one is a trump all four cards are turned face up.  A card of the led suit is played "
    "face up: the indicator, played from the table as the maker's last card at trick 8, "
    "follows suit face up when it is of the led suit.",
    source=seed("304-CLOSED-3", also=("304-CLOSED-4",)),
    body=FaceDown(when=~IS_OPEN & ~is_leading & ~hand.holds_any(cards_of(led_suit))
                  & (card.suit != led_suit),
                  seen_by=declarer, revealed_when=CUT_FOUND),
)
FACE_DOWN_NEVER_WINS = Rule(
    id="closed.uncut_trick",
    text="If no face-down card is a trump, the highest face-up card of the led suit wins "
    "and the face-down cards stay hidden.",
    source=seed("304-CLOSED-4"),
    body=Claim(Scope.TRICK, all_of(*(
        implies(played_face_down(i) & (played_suit(i) != trump), trick_winner != i)
        for i in range(1, PLAYERS)))),
)
CUT_REVEALS = Rule(
    id="closed.cut_opens",
    text="When a face-down card is a trump the maker shows the trump suit, the highest trump "
    "wins, and from the next trick on the game is open, the indicator back in the maker's "
    "hand unless it was played.",
    source=seed("304-CLOSED-5"),
    body=Update(when=CUT_FOUND, sets=((TRUMP_OPEN, const(True)),)),
)
REVEAL_AT_250 = Rule(
    id="closed.reveal_at_250",
    text="If the contract is 250 or more the indicator is shown and returned to the maker's "
    "hand at the end of the first trick even if nothing was cut: open from trick 2.",
    source=seed("304-CLOSED-6"),
    body=Update(when=~IS_OPEN & (trick_number == 1) & (contract.level >= 250),
                sets=((TRUMP_OPEN, const(True)),)),
)

# 7b. Exhausted trumps
EXHAUSTED_FLAG = Rule(
    id="exhausted.kept",
    text="Whether trumps are exhausted is remembered for the rest of the deal.",
    source=seed("304-EXH-1"),
    body=Track(EXHAUSTED, T.BOOL, False, monotone=True),
)
EXHAUSTED_TRIGGER = Rule(
    id="exhausted.trigger",
    text="When the trump maker leads a trump and nobody else plays a trump to that trick, "
    "trumps are exhausted (not in Partner Close Caps).",
    source=seed("304-EXH-1"),
    body=Update(when=(leader == declarer) & (played_suit(0) == trump) & ~IS_PCC
                & all_of(*(((played_suit(i) != trump) | (trick_size <= i))
                           for i in range(1, PLAYERS))),
                sets=((EXHAUSTED, const(True)),)),
)
EXHAUSTED_LEAD = Rule(
    id="exhausted.lead_trumps",
    text="After that, whenever the maker leads he must lead a trump while he holds one in "
    "hand (the face-down indicator does not count).",
    source=seed("304-EXH-1"),
    body=PlayRule(applies=tracked(EXHAUSTED) & is_leading & (seat == declarer)
                  & hand.holds_any(cards_of(trump)),
                  permits=cards_of(trump)),
)

# 7c. Spoilt trumps
SPOILT = "spoilt"
SPOILT_DECLARED = Rule(
    id="spoilt.declare",
    text="If it becomes known, before the last trick is complete, that the maker's two "
    "opponents were dealt no trumps at all, either of them may declare it; play stops and "
    "the deal is void.",
    source=seed("304-SPOIL-1", "'becomes known' is read as: trumps are open"),
    body=Announce(SPOILT, Scope.PLAY,
                  when=IS_OPEN & (seat != declarer) & (seat != partner(declarer))
                  & ~(dealt_hand(seat) | dealt_hand(partner(seat))).holds_any(cards_of(trump)),
                  sets=((SPOILT, const(True)),)),
)
SPOILT_FLAG = Rule(
    id="spoilt.kept",
    text="A declaration of spoilt trumps is remembered until the cards are dealt again.",
    source=seed("304-SPOIL-1"),
    body=Track(SPOILT, T.BOOL, False),
)
SPOILT_REDEAL = Rule(
    id="spoilt.redeal",
    text="A deal void for spoilt trumps scores nothing and is dealt again by the same dealer.",
    source=assumption("304-SPOIL-2", "same dealer as [RR]; [ML] passes the deal on "
                      "(variant spoilt_trumps_next_dealer)"),
    body=VoidWhen(when=tracked(SPOILT), redeal_steps=0),
)

# 7d. Caps
CAPS_AT = "caps_trick"
CAPS_BY = "caps_by"
CLAIMED = tracked(CAPS_AT, T.INT) > 0
CLAIMER = tracked(CAPS_BY, T.SEAT)


def team_tricks(s):  # type: ignore[no-untyped-def]  # builds an expression
    """The tricks won by a seat's team."""
    return tricks_won(s) + tricks_won(partner(s))


def team_points(s):  # type: ignore[no-untyped-def]  # builds an expression
    """The card points won by a seat's team."""
    return points_won(s) + points_won(partner(s))


CAPS_DEFINED = Rule(
    id="caps.definition",
    text="A team that wins all eight tricks has Caps, and with them all 304 points.",
    source=seed("304-CAPS-1"),
    body=Claim(Scope.OUTCOME, implies(~IS_PCC & (team_tricks(seat) == TRICKS),
                                      team_points(seat) == TOTAL_POINTS)),
)
CAPS_CLAIM_TRICK = Rule(
    id="caps.claim_kept",
    text="The trick at which Caps is claimed is remembered (0: no claim).",
    source=seed("304-CAPS-2"),
    body=Track(CAPS_AT, T.INT, 0),
)
CAPS_CLAIMER = Rule(
    id="caps.claimer_kept",
    text="So is the player who claimed.",
    source=seed("304-CAPS-2"),
    body=Track(CAPS_BY, T.SEAT, 0),
)
CAPS_CLAIM = Rule(
    id="caps.claim",
    text="A player who is sure his team will win every remaining trick claims Caps on his "
    "turn, at the latest before trick 8 starts; there is no Caps in Partner Close Caps.",
    source=source("304-CAPS-2", "seed; the latest moment from [ML] caps_formalism",
                  also=("304-CAPS-6",)),
    body=Announce("caps", Scope.PLAY,
                  when=~CLAIMED & ~IS_PCC
                  & ((trick_number < TRICKS) | ((trick_number == TRICKS) & is_leading)),
                  sets=((CAPS_AT, trick_number), (CAPS_BY, seat))),
)

# 7e. Caps at the first moment of certainty (variant caps_when_certain)
CAPS_SURE = "caps_sure"
CAPS_MISSED = "caps_missed"
CAPS_MISSED_BY = "caps_missed_by"
# the seat to act can be sure now that his team takes all eight tricks: it has taken every
# trick so far, and he can be sure it takes every one to come whatever the others play.
# Where the search cannot decide, the seat has the benefit of the doubt both ways: a claim
# counts as one he could be sure of (it is then judged by the tricks alone, as without the
# variant), and a card he plays lets no moment pass.
SWEPT_SO_FAR = team_tricks(seat) == trick_number - 1
SURE_OF_CAPS = SWEPT_SO_FAR & certain(seat)
SURE_OR_UNDECIDED = SWEPT_SO_FAR & certain(seat, undecided=True)
CLAIM_WHEN_SURE = Rule(
    id="caps.claim",
    text="A player claims Caps on his turn, at the latest before trick 8 starts, and the "
    "claim is judged by whether he could be sure then, from his hand and all he had seen, "
    "that his team takes every trick whatever the others play; there is no Caps in Partner "
    "Close Caps.",
    source=source("304-CAPS-2", "seed; the formal test from [ML] caps_formalism, with the "
                  "quantifiers the digest's way", also=("304-CAPS-6",)),
    body=Announce("caps", Scope.PLAY, when=CAPS_CLAIM.body.when,
                  sets=((CAPS_AT, trick_number), (CAPS_BY, seat),
                        (CAPS_SURE, SURE_OR_UNDECIDED))),
)
CAPS_SURE_KEPT = Rule(
    id="caps.sure_kept",
    text="Whether the claimer could be sure when he claimed is remembered.",
    source=source("304-CAPS-2", "[ML] caps_formalism.md"),
    body=Track(CAPS_SURE, T.BOOL, False),
)
CAPS_MISSED_KEPT = Rule(
    id="caps.missed_kept",
    text="Whether a player let his first moment of certainty pass is remembered for the rest "
    "of the deal.",
    source=source("304-CAPS-2", "[ML] caps_formalism.md"),
    body=Track(CAPS_MISSED, T.BOOL, False, monotone=True),
)
CAPS_MISSED_BY_KEPT = Rule(
    id="caps.missed_by_kept",
    text="So is the player who let it pass.",
    source=source("304-CAPS-2", "[ML] caps_formalism.md"),
    body=Track(CAPS_MISSED_BY, T.SEAT, 0),
)
CAPS_DUE = Rule(
    id="caps.due",
    text="A player who, on his turn and while he may still claim, can be sure his team takes "
    "every trick must claim Caps then: if he plays a card instead, the moment has passed and "
    "a later claim, or Caps taken without one, is late.",
    source=source("304-CAPS-2", "seed: claim 'as soon as it becomes certain'; [ML] "
                  "caps_formalism", also=("304-CAPS-4",)),
    # a duty only while a claim is allowed: the claim's own condition, not repeated
    body=Update(when=CAPS_CLAIM.body.when & ~tracked(CAPS_MISSED) & SURE_OF_CAPS,
                sets=((CAPS_MISSED, const(True)), (CAPS_MISSED_BY, seat)), at=Moment.CARD),
)

# 7f. Partner Close Caps
PCC_PARTNER_OUT = Rule(
    id="pcc.partner_out",
    text="In Partner Close Caps the bidder's partner lays his cards face down and takes no "
    "part: the play is three-handed, counter-clockwise, skipping him.",
    source=seed("304-PCC-1", also=("304-PCC-4",)),
    body=SitsOut(when=IS_PCC, seat=partner(declarer)),
)

# 8. Scoring ---------------------------------------------------------------------------
BIDDERS = (seat == declarer) | (seat == partner(declarer))
MADE = if_then_else(IS_PCC, tricks_won(declarer) == TRICKS,
                    team_points(declarer) >= contract.level)
PAYEE = BIDDERS == MADE  # the bidders if the contract is made, else their opponents
#            final bid    160-190  200-240  250-300  PCC
GAME_POINTS = {"made": (1, 2, 3, 4), "failed": (2, 3, 4, 5)}


def _by_band(row):  # type: ignore[no-untyped-def]  # builds an expression
    a, b, c, d = row
    return if_then_else(IS_PCC, d, if_then_else(contract.level >= 250, c,
                                                if_then_else(contract.level >= 200, b, a)))


STAKE = if_then_else(MADE, _by_band(GAME_POINTS["made"]), _by_band(GAME_POINTS["failed"]))
SWEEP_BY_SEAT = team_tricks(seat) == TRICKS
ANY_SWEEP = (team_tricks(declarer) == TRICKS) | (team_tricks(seat_after(declarer)) == TRICKS)
CLAIM_SWEPT = team_tricks(CLAIMER) == TRICKS
CLAIMER_TEAM = (seat == CLAIMER) | (seat == partner(CLAIMER))

COUNT_POINTS = Rule(
    id="score.count",
    text="The bidding team counts the card points in its tricks: at least the bid is a "
    "success, less is a failure; without Caps the successful team, or the opponents of a "
    "failed one, receive the game points of the table.",
    source=seed("304-SCORE-1", also=("304-SCORE-2",)),
    body=ScoreRule(when=~IS_PCC & ~CLAIMED & ~ANY_SWEEP & PAYEE, amount=STAKE),
)
PCC_SCORE = Rule(
    id="score.pcc",
    text="Partner Close Caps succeeds only if the bidder wins all eight tricks: 4 game "
    "points to his team, otherwise 5 to the opponents; Caps and exhausted trumps do not "
    "apply.",
    source=seed("304-PCC-2", also=("304-PCC-3", "304-SCORE-2")),
    body=ScoreRule(when=IS_PCC & PAYEE, amount=STAKE),
)
NO_EXTRA = Rule(
    id="score.no_extra",
    text="Taking more than the bid earns nothing extra.",
    source=seed("304-SCORE-3"),
    body=Claim(Scope.OUTCOME, implies(~IS_PCC & ~CLAIMED & ~ANY_SWEEP & BIDDERS & MADE,
                                      score_of(seat) == _by_band(GAME_POINTS["made"]))),
)
PAY_TO_OTHERS = Rule(
    id="score.pay_means_receive",
    text="Paying game points means the other team receives them: after a deal exactly one "
    "team's total has grown, by 1 to 6, the same for both partners.",
    source=assumption("304-SCORE-4", "'pay' (支払) is read as adding to the other team's total"),
    body=Claim(Scope.OUTCOME, all_of(
        score_of(seat) == score_of(partner(seat)),
        (score_of(seat) == 0) != (score_of(seat_after(seat)) == 0),
        score_of(seat) >= 0, score_of(seat) <= 6)),
)
CAPS_BONUS = Rule(
    id="score.caps",
    text="A correct Caps claim with all eight tricks won earns the usual game points plus 1, "
    "for either team.",
    source=source("304-CAPS-3", "seed; the +1 for the non-bidding team from [ML]"),
    body=ScoreRule(when=~IS_PCC & CLAIMED & CLAIM_SWEPT & PAYEE, amount=STAKE + 1),
)
LATE_CAPS = Rule(
    id="score.late_caps",
    text="A team that wins all eight tricks without a timely claim pays 2 game points and "
    "loses whatever the bid would have earned it.",
    source=seed("304-CAPS-4"),
    body=ScoreRule(when=~IS_PCC & ~CLAIMED & ANY_SWEEP & ~SWEEP_BY_SEAT, amount=const(2)),
)
WRONG_CAPS = Rule(
    id="score.wrong_caps",
    text="A team that claims Caps and then loses a trick pays 5 game points, whatever "
    "happened to the bid.",
    source=seed("304-CAPS-5"),
    body=ScoreRule(when=~IS_PCC & CLAIMED & ~CLAIM_SWEPT & ~CLAIMER_TEAM, amount=const(5)),
)

# Where Caps is judged by certainty (variant caps_when_certain): a claim counts only if the
# claimer could be sure when he made it, and a team that let its first moment of certainty
# pass is late, whether it claims later or takes every trick unclaimed.
SURE_WHEN_CLAIMED = tracked(CAPS_SURE)
MISSED_BY = tracked(CAPS_MISSED_BY, T.SEAT)


def let_pass(s):  # type: ignore[no-untyped-def]  # builds an expression
    """A seat's team let its first moment of certainty pass."""
    return tracked(CAPS_MISSED) & ((MISSED_BY == s) | (MISSED_BY == partner(s)))


RIGHT_CLAIM = CLAIMED & SURE_WHEN_CLAIMED & CLAIM_SWEPT & ~let_pass(CLAIMER)
LATE_CLAIM = CLAIMED & SURE_WHEN_CLAIMED & CLAIM_SWEPT & let_pass(CLAIMER)
LATE_SWEEP = ~CLAIMED & tracked(CAPS_MISSED) & (team_tricks(MISSED_BY) == TRICKS)
COUNT_WHEN_CERTAIN = Rule(
    id="score.count",
    text="The bidding team counts the card points in its tricks: at least the bid is a "
    "success, less is a failure; unless Caps was claimed, or taken by a team that let its "
    "moment to claim pass, the successful team, or the opponents of a failed one, receive "
    "the game points of the table.",
    source=COUNT_POINTS.source,
    body=ScoreRule(when=~IS_PCC & ~CLAIMED & ~LATE_SWEEP & PAYEE, amount=STAKE),
)
BONUS_WHEN_CERTAIN = Rule(
    id="score.caps",
    text="A claim made when the claimer could be sure, at the first moment he could, with "
    "all eight tricks won, earns the usual game points plus 1, for either team.",
    source=CAPS_BONUS.source,
    body=ScoreRule(when=~IS_PCC & RIGHT_CLAIM & PAYEE, amount=STAKE + 1),
)
LATE_WHEN_CERTAIN = Rule(
    id="score.late_caps",
    text="A team that let its first moment of certainty pass and then claims, or takes all "
    "eight tricks unclaimed, pays 2 game points and loses whatever the bid would have "
    "earned it.",
    source=LATE_CAPS.source,
    body=ScoreRule(when=~IS_PCC & (LATE_CLAIM | LATE_SWEEP) & ~let_pass(seat), amount=const(2)),
)
WRONG_WHEN_CERTAIN = Rule(
    id="score.wrong_caps",
    text="A team whose player claims Caps when he could not be sure, or that then loses a "
    "trick, pays 5 game points, whatever happened to the bid.",
    source=WRONG_CAPS.source,
    body=ScoreRule(when=~IS_PCC & CLAIMED & ~(SURE_WHEN_CLAIMED & CLAIM_SWEPT) & ~CLAIMER_TEAM,
                   amount=const(5)),
)

# 9. The end of the game ---------------------------------------------------------------
GAME_TO_11 = Rule(
    id="game.to_eleven",
    text="After each deal, a team whose game points add up to 11 or more wins; only one "
    "team scores in a deal, so both never finish together.",
    source=seed("304-GAME-1"),
    body=MatchTarget(11),
)

# Variants -------------------------------------------------------------------------------
VARIANTS = (
    Variant(
        id="proxy_counts_as_partner_call",
        text="A call made for his partner also counts as the asked player's own call, so he "
        "too may no longer bid below 200.",
        replaces=((PARTNER_REQUEST, amended(PARTNER_REQUEST, counts_for_partner=True)),),
        source=source("304-AUC-5", "[ML] counts it; the seed's wording suggests not"),
    ),
    Variant(
        id="asker_makes_trump",
        text="A bid the partner names for the asker is the asker's for every rule: if it "
        "stands the asker is trump maker and lays the indicator from his own cards (the "
        "seed's 'it is not the partner's own bid' read as who makes trump).",
        replaces=((PARTNER_REQUEST, amended(
            PARTNER_REQUEST, namer_declares=False,
            text="On his turn in the four-card auction a player may ask his partner to call "
            "for him: the partner bids or passes at once in his place, using his turn, and "
            "the call is the asker's own, so a bid so made is his and makes him trump maker "
            "if it stands.")),),
        source=seed("304-AUC-5", "the seed: the partner bids only as a proxy, 'and it does "
                    "not become the partner's own bid' (digest G4)"),
        reading=True,
    ),
    Variant(
        id="partner_request_in_eight_card_auction",
        text="A player may also ask his partner to call for him in the eight-card auction.",
        replaces=((PARTNER_REQUEST, amended(PARTNER_REQUEST, when=(stage == 1) | (stage == 2))),),
        source=source("304-AUC8-7", "[ML] standard column"),
    ),
    Variant(
        id="no_overcalling_partner_in_eight_card_auction",
        text="In the eight-card auction a player may not bid over his partner's bid.",
        replaces=((EIGHT_CARD_MINIMUM, Rule(
            id="auction.eight_card_minimum", text=EIGHT_CARD_MINIMUM.text,
            source=EIGHT_CARD_MINIMUM.source,
            body=CallRule(applies=(stage == 2) & call.is_bid,
                          requires=(call.bid.level >= 250)
                          & (standing.bidder != partner(seat))))),),
        source=source("304-AUC8-7", "[KM]; the seed is silent (G10)"),
    ),
    Variant(
        id="spoilt_trumps_next_dealer",
        text="A deal void for spoilt trumps is dealt again by the next dealer.",
        replaces=((SPOILT_REDEAL, Rule(
            id="spoilt.redeal", text="A deal void for spoilt trumps scores nothing and is dealt "
            "again by the next dealer.", source=SPOILT_REDEAL.source,
            body=VoidWhen(when=tracked(SPOILT), redeal_steps=1))),),
        source=source("304-SPOIL-2", "[ML]"),
    ),
    Variant(
        id="literal_first_lead",
        text="The rule as written: a maker leading to the first trick in Closed Trump may "
        "never lead a trump, and may keep trumps closed whatever his hand; with only trumps "
        "he then has no legal lead.",
        replaces=(
            (NO_TRUMP_LEAD, Rule(
                id="closed.no_trump_lead_to_first", text="In Closed Trump a maker who leads to "
                "the first trick may not lead a trump.", source=seed("304-CLOSED-1"),
                body=PlayRule(applies=MAKER_LEADS_CLOSED, permits=NON_TRUMPS))),
            (OPEN_OR_CLOSED, Rule(
                id="play.open_or_closed", text="Before the first lead the trump maker either "
                "turns the indicator up (Open Trump) or keeps it face down (Closed Trump).",
                source=seed("304-PLAY-5"),
                body=Decide(by=declarer, options=(
                    Option("open", when=const(True), sets=((TRUMP_OPEN, const(True)),)),
                    Option("closed", when=const(True)))))),
        ),
        source=seed("304-CLOSED-1"),
    ),
    Variant(
        id="caps_when_certain",
        text="Caps must be claimed at the first moment the claimer can be sure, from what he "
        "has seen, that his team will win every remaining trick whatever the others do: a "
        "claim he could not be sure of is wrong, and a later claim, or Caps taken unclaimed "
        "after that moment, is late.  Where the engine's search cannot decide, the player has "
        "the benefit of the doubt: his claim is judged by the tricks, and no moment passes.",
        # not the default: judging certainty at each card of a side that has taken every
        # trick so far costs a deal of 304 up to about a second (benchmarks/certain.py), and
        # the double-dummy search, whose positions then differ by the tricks each seat has
        # won, runs several times longer and spends its budget on deals it solves without
        # the variant
        replaces=((CAPS_CLAIM, CLAIM_WHEN_SURE), (COUNT_POINTS, COUNT_WHEN_CERTAIN),
                  (CAPS_BONUS, BONUS_WHEN_CERTAIN), (LATE_CAPS, LATE_WHEN_CERTAIN),
                  (WRONG_CAPS, WRONG_WHEN_CERTAIN)),
        adds=(CAPS_SURE_KEPT, CAPS_MISSED_KEPT, CAPS_MISSED_BY_KEPT, CAPS_DUE),
        source=source("304-CAPS-2", "[ML] caps_formalism.md, with the quantifiers the "
                      "digest's way", also=("304-CAPS-4", "304-CAPS-5")),
    ),
    Variant(
        id="tokens",
        text="Each team starts with 10 counters and game points are paid in counters; the "
        "game ends when one team has none.",
        replaces=((GAME_TO_11, Rule(
            id="game.to_eleven", text="The game ends when one team's game points exceed the "
            "other's by 10: it has won all 20 counters.", source=source("304-GAME-2", "[ML], "
            "[RR], [KM]"), body=MatchTarget(10, by_difference=True))),),
        source=source("304-GAME-2", "[ML], [RR], [KM]"),
    ),
)

# Properties -----------------------------------------------------------------------------
SUIT = free_suit("suit")
PROPERTIES = (
    Property(
        id="deck.points_per_suit",
        text="Every suit carries 76 card points.",
        scope=Scope.OUTCOME, holds=CARD_POINTS.total(cards_of(SUIT)) == 76, free=(SUIT,),
        covers=("deck.card_points",),
    ),
    Property(
        id="deck.points_total",
        text="The whole pack carries 304 card points.",
        scope=Scope.OUTCOME, holds=CARD_POINTS.total(DECK.full) == TOTAL_POINTS,
        covers=("deck.card_points",),
    ),
    Property(
        id="score.threshold_duality",
        text="Outside Partner Close Caps the bidders fail exactly when their opponents take "
        "more than 304 minus the bid.",
        scope=Scope.OUTCOME,
        holds=implies(~IS_PCC, (~MADE) == (team_points(seat_after(declarer))
                                            > TOTAL_POINTS - contract.level)),
        covers=("score.count",), finding=True,
    ),
    Property(
        id="score.sweep_can_cost",
        text="Taking every trick can cost game points: a team that sweeps without claiming "
        "Caps in time pays 2, even when its bid was made.",
        scope=Scope.OUTCOME,
        holds=implies(~IS_PCC & ~CLAIMED & (team_tricks(declarer) == TRICKS) & BIDDERS,
                      score_of(seat) == 0),
        covers=("score.late_caps",), finding=True,
        # there only a team that let its moment of certainty pass pays
        unless=("caps_when_certain",),
    ),
    Property(
        id="auction.floor_after_first_call",
        text="No bid below 200 is legal after the bidder's first call of the four-card "
        "auction or over his partner's standing bid.",
        scope=Scope.CALL,
        holds=implies(legal_call & call.is_bid & (stage == 1)
                      & ((seat_calls > 0) | (standing.exists & (standing.bidder == partner(seat)))),
                      call.bid.level >= 200),
        covers=("auction.floor_200",),
    ),
)

# 10. Facts: the rulebook's own cards and numbers ----------------------------------------
# Each fact states what the seed or the digest says in literal cards and numbers, apart
# from the rules above (no constant or table of theirs is reused), so that a rule
# transcribed wrongly contradicts one of them.
_SPADES_HIGH_TO_LOW = ("JS", "9S", "AS", "10S", "KS", "QS", "8S", "7S")


def _trick(trumps: str, plays: tuple[str, ...], winner: int) -> Expr:
    """With ``trumps`` trumps, the trick of these cards (in order of play) is won by the
    card at ``winner``."""
    return implies(all_of(trump == Suit.parse(trumps),
                          *(played_card(i) == Card.parse(c) for i, c in enumerate(plays))),
                   trick_winner == winner)


def _took_one_trick(s: Expr, four: str) -> Expr:
    """The seat took exactly one trick, of these four cards."""
    return (tricks_won(s) == 1) & (taken(s) == cards(*(Card.parse(c) for c in four.split())))


def _made_or_failed(level: int, team_took: int) -> Expr:
    """A bid of ``level`` ends with the bidders' team holding ``team_took`` card points,
    in fewer than eight tricks and with no Caps claimed."""
    return ((contract.level == level) & (points_won(declarer) + points_won(partner(declarer))
                                         == team_took)
            & (tricks_won(declarer) + tricks_won(partner(declarer)) < 8)
            & (tracked(CAPS_AT, T.INT) == 0))


# seats in the order of play (counter-clockwise), as the table names them
NORTH, WEST, SOUTH, EAST = 0, 1, 2, 3


def _cards(text: str) -> Expr:
    return cards(*(Card.parse(c) for c in text.split()))


def _claimed(at: int, by: int) -> Expr:
    """Caps was claimed at trick ``at`` (0: never) by the seat ``by``."""
    return (tracked(CAPS_AT, T.INT) == at) & ((tracked(CAPS_BY, T.SEAT) == by) if at else const(True))


def _judged(sure: bool, missed_by: int | None) -> Expr:
    """Caps judged by certainty: the claim was made when the claimer could be sure (or
    not), and the seat ``missed_by`` let its first moment of certainty pass (None: no
    seat did)."""
    missed = (tracked(CAPS_MISSED) & (tracked(CAPS_MISSED_BY, T.SEAT) == missed_by)
              if missed_by is not None else ~tracked(CAPS_MISSED))
    return (tracked(CAPS_SURE) if sure else ~tracked(CAPS_SURE)) & missed


def _pays(level_is: Expr, team_tricks_of_north: int, claim: Expr, receiver: int,
          amount: int) -> Expr:
    """North the maker, with North-South taking this many tricks and this Caps claim: only
    ``receiver``'s team scores, ``amount``."""
    other = WEST if receiver in (NORTH, SOUTH) else NORTH
    return implies(level_is & (declarer == NORTH)
                   & (tricks_won(NORTH) + tricks_won(SOUTH) == team_tricks_of_north) & claim,
                   (score_of(receiver) == amount) & (score_of(other) == 0))


def _closed_trick(level: int, number: int, plays: tuple[str, ...]) -> Expr:
    """Clubs trumps, still closed, a contract of ``level``: trick ``number`` of these cards."""
    return ((trump == Suit.CLUBS) & ~IS_OPEN & (contract.level == level)
            & (trick_number == number)
            & all_of(*(played_card(i) == Card.parse(c) for i, c in enumerate(plays))))


def _maker_closed(number: int, led: str | None, held: str) -> Expr:
    """Clubs trumps, still closed, trick ``number``: the maker, holding ``held`` with the
    ♣J face down as the indicator, plays to a lead of ``led`` (None: he leads)."""
    lead = is_leading if led is None else (~is_leading & (led_suit == Suit.parse(led)))
    return ((trump == Suit.CLUBS) & ~IS_OPEN & (seat == declarer) & ~tracked(EXHAUSTED)
            & (trick_number == number) & lead & (hand == _cards(held))
            & (aside == _cards("JC")))


def _maker_leads(number: int, is_open: bool, held: str) -> Expr:
    """Clubs trumps, trick ``number``: the maker leads holding ``held``, the ♣J face down
    as the indicator unless trumps are open."""
    return ((trump == Suit.CLUBS) & (IS_OPEN if is_open else ~IS_OPEN) & (seat == declarer)
            & ~tracked(EXHAUSTED) & (trick_number == number) & is_leading
            & (hand == _cards(held)) & (aside == (_cards("") if is_open else _cards("JC"))))


# hands of eight cards without a heart, for the spoilt-trumps fact
_NO_HEARTS_WEST = "7C 8C 9C 10C 7D 8D 9D 10D"
_NO_HEARTS_EAST = "JC QC KC AC JD QD KD AD"

FACTS = (
    Property(
        id="deal.dealing_seen",
        text="East deals: the 1st to 4th cards of the pack go to North on his right, the 5th "
        "to 8th to West, the 13th to 16th to East himself; the second batch starts again "
        "with North at the 17th card and ends with East at the 32nd; North deals next.",
        scope=Scope.DEAL,
        holds=implies(dealer == EAST, all_of(
            *(receives(k) == NORTH for k in (1, 2, 3, 4, 17, 20)),
            receives(5) == WEST, receives(8) == WEST, receives(9) == SOUTH,
            receives(13) == EAST, receives(16) == EAST, receives(21) == WEST,
            receives(32) == EAST, receives(33) == -1, next_dealer == NORTH)),
        covers=("deal.first_batch", "deal.second_batch", "setup.next_dealer"),
        source=seed("304-DEAL-2", also=("304-DEAL-4", "304-SETUP-3")),
    ),
    Property(
        id="deal.fresh_start_seen",
        text="Every deal starts with no new deal demanded, trumps closed and not exhausted, "
        "no spoilt trumps declared and no Caps claimed.",
        scope=Scope.DEAL,
        holds=~tracked("redeal_demanded") & ~IS_OPEN & ~tracked(EXHAUSTED) & ~tracked(SPOILT)
        & (tracked(CAPS_AT, T.INT) == 0),
        covers=("deal.redeal_demand_kept", "closed.never_again", "exhausted.kept",
                "spoilt.kept", "caps.claim_kept"),
        source=seed("304-DEAL-3", also=("304-PLAY-5", "304-EXH-1", "304-SPOIL-1",
                                        "304-CAPS-2")),
    ),
    Property(
        id="deal.redeal_demand_seen",
        text="East deals: before any call North, on his right, may demand a new deal with ♠A "
        "♠K ♥7 ♦7 (14 points) but not with ♠10 ♠K ♥Q ♦7 (15); West, South and East never "
        "may; nobody may once a call is made, nor in the eight-card auction; a demand made "
        "stands, and voids the deal.",
        scope=Scope.CALL,
        holds=all_of(
            implies((stage == 1) & (calls_made == 0) & ~by_proxy & (dealer == EAST)
                    & (seat == NORTH) & (hand == _cards("AS KS 7H 7D")), may_announce("redeal")),
            implies((dealer == EAST) & (seat == NORTH) & (hand == _cards("10S KS QH 7D")),
                    ~may_announce("redeal")),
            implies((dealer == EAST) & (seat != NORTH), ~may_announce("redeal")),
            implies(calls_made > 0, ~may_announce("redeal")),
            implies(stage == 2, ~may_announce("redeal")),
            implies(may_announce("redeal"), announcing("redeal", "redeal_demanded")),
        ),
        covers=("deal.low_points_redeal",),
        source=source("304-DEAL-3", "seed; who and when from [CAT]"),
    ),
    Property(
        id="auction.ends_seen",
        text="The four-card auction ends when a bid has been followed by three passes in a "
        "row (not two), or after four passes without a bid (not three); the eight-card "
        "auction ends after four calls, not three.",
        scope=Scope.CALL,
        holds=all_of(
            implies((stage == 1) & standing.exists & (passes_in_row == 3), auction_over),
            implies((stage == 1) & standing.exists & (passes_in_row == 2), ~auction_over),
            implies((stage == 1) & ~standing.exists & (calls_made == 4), auction_over),
            implies((stage == 1) & ~standing.exists & (calls_made == 3) & (passes_in_row == 3),
                    ~auction_over),
            implies((stage == 2) & (calls_made == 4), auction_over),
            implies((stage == 2) & (calls_made == 3), ~auction_over),
        ),
        covers=("auction.four_card_turns", "auction.eight_card_turns"),
        source=seed("304-AUC-6", also=("304-AUC-7", "304-AUC8-1")),
    ),
    Property(
        id="trump.indicator_laid_seen",
        text="The four-card auction won, its maker lays an indicator; after the eight-card "
        "auction a new one is laid only if somebody bid in it.",
        scope=Scope.CALL,
        holds=all_of(
            implies((stage == 1) & standing.exists, lays_aside),
            implies((stage == 2) & bid_this_stage, lays_aside),
            implies((stage == 2) & ~bid_this_stage, ~lays_aside),
        ),
        covers=("trump.indicator", "auction.new_indicator"),
        source=seed("304-TRUMP-1", also=("304-AUC8-4", "304-AUC8-5")),
    ),
    Property(
        id="trump.indicator_names_trump_seen",
        text="The maker has one card laid aside at most, and its suit is trumps: with the ♣J "
        "laid aside clubs are trumps, with the ♥7 hearts.",
        scope=Scope.PLAY,
        holds=all_of(
            implies(seat == declarer, aside.count <= 1),
            implies((seat == declarer) & (aside == _cards("JC")), trump == Suit.CLUBS),
            implies((seat == declarer) & (aside == _cards("7H")), trump == Suit.HEARTS),
        ),
        covers=("trump.indicator", "auction.new_indicator"),
        source=seed("304-TRUMP-1", also=("304-AUC8-4",)),
    ),
    Property(
        id="auction.first_calls_seen",
        text="East deals: North, on his right, calls first in the four-card auction; West, "
        "the trump maker after it, calls first in the eight-card auction.",
        scope=Scope.CALL,
        holds=implies((dealer == EAST) & (stage == 1), first_to_call == NORTH)
        & implies((stage == 2) & standing.exists & (standing.maker == WEST), first_to_call == WEST),
        covers=("auction.four_card_turns", "auction.eight_card_turns"),
        source=seed("304-AUC-1", also=("304-AUC8-1",)),
    ),
    Property(
        id="auction.proxy_maker_calls_first",
        text="North's bid, named for him by South, stands after the four-card auction: South, "
        "the trump maker, calls first in the eight-card auction, not North.",
        scope=Scope.CALL,
        holds=implies((stage == 2) & standing.exists & (standing.bidder == NORTH)
                      & (standing.maker == SOUTH), first_to_call == SOUTH),
        covers=("auction.eight_card_turns", "auction.partner_request"),
        source=source("304-AUC8-1", "the trump maker of a proxy bid: 304-AUC-5 (G4)"),
        unless=("asker_makes_trump",),
    ),
    Property(
        id="auction.partner_request_seen",
        text="A player may ask his partner to call for him in the four-card auction, and "
        "not in the eight-card auction.",
        scope=Scope.CALL,
        holds=implies(stage == 1, may_ask_partner) & implies(stage == 2, ~may_ask_partner),
        covers=("auction.partner_request",),
        unless=("partner_request_in_eight_card_auction",),
        source=seed("304-AUC-5", also=("304-AUC8-7",)),
    ),
    Property(
        id="closed.face_down_seen",
        text="Clubs trumps, trumps closed, ♠A led: a follower who plays the ♦7 or the ♣7 "
        "(having no spade) plays it face down, the ♠K and the ♠Q are played face up; with "
        "trumps open every card is face up.",
        scope=Scope.TRICK,
        holds=all_of(*(
            implies((trump == Suit.CLUBS) & (IS_OPEN if is_open else ~IS_OPEN)
                    & all_of(*(played_card(i) == Card.parse(c) for i, c in enumerate(plays))),
                    all_of(*((played_face_down(i) if (not is_open and c[-1] not in "S")
                              else ~played_face_down(i)) for i, c in enumerate(plays))))
            for plays in (("AS", "7D", "KS", "QS"), ("AS", "KS", "7C", "QS"))
            for is_open in (True, False))),
        covers=("closed.face_down",),
        source=seed("304-CLOSED-3"),
    ),
    Property(
        id="closed.opening_seen",
        text="Clubs trumps, trumps closed, the spades led: a ♣7 cut turns the trick face up "
        "and opens trumps from the next trick, a ♦7 discard does neither; with nothing cut, a contract of 250 opens them "
        "after trick 1 and one of 240 does not (nor would 250 after trick 2); open trumps "
        "stay open.",
        scope=Scope.TRICK,
        holds=all_of(
            implies(_closed_trick(200, 3, ("AS", "7C", "KS", "QS")), tracked_after(TRUMP_OPEN)),
            implies(_closed_trick(200, 3, ("AS", "7D", "KS", "QS")), ~tracked_after(TRUMP_OPEN)),
            implies(_closed_trick(250, 1, ("AS", "KS", "QS", "JS")), tracked_after(TRUMP_OPEN)),
            implies(_closed_trick(240, 1, ("AS", "KS", "QS", "JS")), ~tracked_after(TRUMP_OPEN)),
            implies(_closed_trick(250, 2, ("AS", "KS", "QS", "JS")), ~tracked_after(TRUMP_OPEN)),
            implies(IS_OPEN, tracked_after(TRUMP_OPEN)),
            implies(_closed_trick(200, 3, ("AS", "7C", "KS", "QS")), turned_up),
            implies(_closed_trick(200, 3, ("AS", "7D", "KS", "QS")), ~turned_up),
        ),
        covers=("closed.cut_opens", "closed.reveal_at_250", "closed.never_again",
                "closed.face_down"),
        source=seed("304-CLOSED-5", also=("304-CLOSED-6", "304-CLOSED-7")),
    ),
    Property(
        id="exhausted.trigger_seen",
        text="Clubs trumps, North the maker: North leads the ♣J and the others play spades: "
        "trumps are exhausted from then on; if one of them plays the ♣7, or West leads the "
        "♣J, or the contract is Partner Close Caps, they are not.",
        scope=Scope.TRICK,
        holds=all_of(*(
            implies((trump == Suit.CLUBS) & (declarer == NORTH) & (leader == lead)
                    & IS_OPEN & ~tracked(EXHAUSTED) & (contract.level == level)
                    & (trick_size == size)
                    & all_of(*(played_card(i) == Card.parse(c) for i, c in enumerate(plays))),
                    tracked_after(EXHAUSTED) if exhausted else ~tracked_after(EXHAUSTED))
            for lead, level, size, plays, exhausted in (
                (NORTH, 200, 4, ("JC", "AS", "KS", "QS"), True),
                (NORTH, 200, 4, ("JC", "AS", "7C", "QS"), False),
                (NORTH, 200, 4, ("JC", "AS", "KS", "7C"), False),
                (WEST, 200, 4, ("JC", "AS", "KS", "QS"), False),
                (NORTH, 310, 3, ("JC", "AS", "KS"), False),
            ))),
        covers=("exhausted.trigger",),
        source=seed("304-EXH-1", also=("304-PCC-3",)),
    ),
    Property(
        id="auction.pcc_seen",
        text="Partner Close Caps is the one bid above 300: it may be bid over 300 in the "
        "eight-card auction (over a partner's too, as 304-AUC8-7 leaves it), and never in the "
        "four-card auction.",
        scope=Scope.CALL,
        holds=all_of(
            implies((stage == 2) & standing.exists & (standing.bid.level == 300)
                    & call.is_bid & (call.bid.level > 300), legal_call),
            implies((stage == 1) & call.is_bid & (call.bid.level > 300), ~legal_call),
            implies(call.is_bid & (call.bid.level > 300), call.bid.level == 310),
        ),
        covers=("auction.bids", "auction.pcc_eight_card_only"),
        unless=("no_overcalling_partner_in_eight_card_auction",),
        source=seed("304-AUC8-3", also=("304-AUC8-7",)),
    ),
    Property(
        id="play.open_or_closed_seen",
        text="Clubs trumps, East deals: North, the maker and on lead to trick 1, dealt all "
        "eight clubs must play Open Trump; dealt seven clubs and the ♠7 he may keep trumps "
        "closed; West, the maker but not on lead, may keep them closed with eight clubs, "
        "unless he bid Partner Close Caps; Open Trump is always allowed.",
        scope=Scope.PLAY,
        holds=all_of(*(
            implies((trump == Suit.CLUBS) & (dealer == EAST) & (declarer == maker)
                    & (contract.level == level) & (dealt_hand(maker) == _cards(dealt)),
                    may_announce("open") & (may_announce("closed") if closed
                                            else ~may_announce("closed")))
            for maker, level, dealt, closed in (
                (NORTH, 200, "7C 8C 9C 10C JC QC KC AC", False),
                (NORTH, 200, "7C 8C 9C 10C JC QC KC 7S", True),
                (WEST, 200, "7C 8C 9C 10C JC QC KC AC", True),
                (WEST, 310, "7C 8C 9C 10C JC QC KC AC", False),
            ))),
        covers=("play.open_or_closed",),
        unless=("literal_first_lead",),
        source=assumption("304-PLAY-5", "the choice from the seed; the duty to open with only "
                          "trumps on lead is the digest's proposal (G6)", also=("304-CLOSED-1",)),
    ),
    Property(
        id="deal.void_seen",
        text="East deals: once a new deal has been demanded for low points, or spoilt trumps "
        "declared, the deal is void and East deals again; with neither it goes on.",
        scope=Scope.PLAY,
        holds=all_of(
            implies((dealer == EAST) & tracked("redeal_demanded"),
                    deal_void & (redealer == EAST)),
            implies((dealer == EAST) & tracked(SPOILT), deal_void & (redealer == EAST)),
            implies(~tracked("redeal_demanded") & ~tracked(SPOILT), ~deal_void),
        ),
        covers=("deal.low_points_redeal_same_dealer", "spoilt.redeal"),
        unless=("spoilt_trumps_next_dealer",),
        source=source("304-DEAL-3", "seed; the same dealer after spoilt trumps is the "
                      "digest's assumption 304-SPOIL-2", also=("304-SPOIL-1", "304-SPOIL-2")),
    ),
    Property(
        id="play.first_lead_seen",
        text="East deals and West is the trump maker: North, on East's right, leads to the "
        "first trick; if West bid Partner Close Caps, West leads.",
        scope=Scope.PLAY,
        holds=implies((dealer == EAST) & (declarer == WEST) & (contract.level <= 300),
                      first_leader == NORTH)
        & implies((dealer == EAST) & (declarer == WEST) & (contract.level > 300),
                  first_leader == WEST),
        covers=("play.first_lead",),
        source=seed("304-PLAY-1", also=("304-PCC-4",)),
    ),
    Property(
        id="closed.first_lead_seen",
        text="Clubs trumps, trumps closed, the ♣J the face-down indicator: the maker leading "
        "to trick 1 with ♣7 ♠A ♠K ♠Q ♥A ♥K ♥Q may lead any of them but the ♣7; at trick 2 "
        "with ♣7 ♠A ♠K ♠Q ♥A ♥K, any; with trumps open, at trick 1 with the ♣J and the ♣7 "
        "too, any.",
        scope=Scope.PLAY,
        holds=all_of(
            implies(_maker_leads(1, False, "7C AS KS QS AH KH QH"),
                    legal_cards == _cards("AS KS QS AH KH QH")),
            implies(_maker_leads(2, False, "7C AS KS QS AH KH"),
                    legal_cards == _cards("7C AS KS QS AH KH")),
            implies(_maker_leads(1, True, "JC 7C AS KS QS AH KH QH"),
                    legal_cards == _cards("JC 7C AS KS QS AH KH QH")),
        ),
        covers=("closed.no_trump_lead_to_first",),
        source=seed("304-CLOSED-1"),
    ),
    Property(
        id="closed.indicator_play_seen",
        text="Clubs trumps, trumps closed, the ♣J the face-down indicator: at trick 3 the "
        "maker may add it to a heart lead when he holds no heart (♠A ♠K ♠Q ♦A ♦K), not when "
        "he holds the ♥7, nor to a club lead; he may not lead it; at trick 8 it is his last "
        "card and he plays it.",
        scope=Scope.PLAY,
        holds=all_of(
            implies(_maker_closed(3, "H", "AS KS QS AD KD"), legal_cards == _cards("AS KS QS AD KD JC")),
            implies(_maker_closed(3, "H", "7H AS KS QS AD"), legal_cards == _cards("7H")),
            implies(_maker_closed(3, "C", "AS KS QS AD KD"), legal_cards == _cards("AS KS QS AD KD")),
            implies(_maker_closed(3, None, "AS KS QS AD KD"), legal_cards == _cards("AS KS QS AD KD")),
            implies(_maker_closed(8, None, ""), legal_cards == _cards("JC")),
        ),
        covers=("closed.indicator_play",),
        source=source("304-CLOSED-2", "seed with [ML], [RR]"),
    ),
    Property(
        id="caps.claim_seen",
        text="A bid of 200: Caps may be claimed at trick 3, or by the leader of trick 8, but "
        "not by a later player of trick 8, not twice (after a claim at trick 1 or 2), and "
        "never in Partner Close Caps.",
        scope=Scope.PLAY,
        holds=all_of(
            implies((trick_number == 3) & (contract.level == 200) & _claimed(0, NORTH),
                    may_announce("caps")),
            implies((trick_number == 8) & is_leading & (contract.level == 200) & _claimed(0, NORTH),
                    may_announce("caps")),
            implies((trick_number == 8) & ~is_leading, ~may_announce("caps")),
            implies(tracked(CAPS_AT, T.INT) == 1, ~may_announce("caps")),
            implies(tracked(CAPS_AT, T.INT) == 2, ~may_announce("caps")),
            implies(contract.level > 300, ~may_announce("caps")),
        ),
        covers=("caps.claim",),
        source=source("304-CAPS-2", "seed; the latest moment from [ML] caps_formalism",
                      also=("304-CAPS-6",)),
    ),
    Property(
        id="spoilt.declare_seen",
        text="Hearts trumps, North the maker, West dealt " + _NO_HEARTS_WEST + " and East "
        + _NO_HEARTS_EAST + ": once trumps are open West or East may declare spoilt trumps, "
        "North and South may not, and nobody may while trumps are closed; with the ♥7 dealt "
        "to East nobody may. A declaration made stands, and voids the deal.",
        scope=Scope.PLAY,
        holds=all_of(
            implies(may_announce(SPOILT), announcing(SPOILT, SPOILT)), *(
            implies((trump == Suit.HEARTS) & (declarer == NORTH)
                    & (dealt_hand(WEST) == _cards(_NO_HEARTS_WEST if east_void else
                                                  "7C 8C 9C 10C 7D 8D 9D 10D"))
                    & (dealt_hand(EAST) == _cards(_NO_HEARTS_EAST if east_void else
                                                  "JC QC KC AC JD QD KD 7H"))
                    & (IS_OPEN if is_open else ~IS_OPEN) & (seat == who),
                    may_announce(SPOILT) if (is_open and east_void and who in (WEST, EAST))
                    else ~may_announce(SPOILT))
            for who in (NORTH, WEST, SOUTH, EAST) for is_open in (True, False)
            for east_void in (True, False))),
        covers=("spoilt.declare",),
        source=seed("304-SPOIL-1", "'becomes known' is read as: trumps are open"),
    ),
    Property(
        id="score.caps_worked_examples",
        text="The digest's Caps examples, North the maker: bid 200, Caps claimed and all 8 "
        "tricks won: North-South +3; bid 170, all 8 tricks never claimed: East-West +2; bid "
        "250, Caps claimed at trick 6 and trick 7 lost: East-West +5; Partner Close Caps with "
        "a trick lost: East-West +5, with all 8: North-South +4; bid 200, East-West claim and "
        "take all 8: East-West +4.",
        scope=Scope.OUTCOME,
        holds=all_of(
            _pays(contract.level == 200, 8, _claimed(5, NORTH), NORTH, 3),
            _pays(contract.level == 170, 8, _claimed(0, NORTH), WEST, 2),
            _pays(contract.level == 250, 7, _claimed(6, NORTH), WEST, 5),
            _pays(contract.level > 300, 7, _claimed(0, NORTH) & (tricks_won(SOUTH) == 0),
                  WEST, 5),
            _pays(contract.level > 300, 8, _claimed(0, NORTH) & (tricks_won(SOUTH) == 0),
                  NORTH, 4),
            _pays(contract.level == 200, 0, _claimed(2, WEST), WEST, 4),
        ),
        covers=("score.caps", "score.late_caps", "score.wrong_caps", "score.pcc", "score.count"),
        source=seed("304-SCORE-2", also=("304-CAPS-3", "304-CAPS-4", "304-CAPS-5",
                                         "304-PCC-2")),
        # there a claim counts by whether the claimer could be sure (worked out below)
        unless=("caps_when_certain",),
    ),
    Property(
        id="score.caps_when_certain_examples",
        text="Caps judged by certainty, North the maker, bid 200, all 8 tricks to "
        "North-South: claimed at the first moment North could be sure: North-South +3; "
        "claimed by North when he could be sure, but after that moment had passed: "
        "East-West +2; claimed by North when he could not be sure: East-West +5; never "
        "claimed, the moment let pass: East-West +2; never claimed, never sure: North-South "
        "+2, the bid made.",
        scope=Scope.OUTCOME,
        under=("caps_when_certain",),
        holds=all_of(
            _pays(contract.level == 200, 8, _claimed(5, NORTH) & _judged(True, None), NORTH, 3),
            _pays(contract.level == 200, 8, _claimed(5, NORTH) & _judged(True, SOUTH), WEST, 2),
            _pays(contract.level == 200, 8, _claimed(5, NORTH) & _judged(False, None), WEST, 5),
            _pays(contract.level == 200, 8, _claimed(0, NORTH) & _judged(False, NORTH), WEST, 2),
            _pays(contract.level == 200, 8, _claimed(0, NORTH) & _judged(False, None), NORTH, 2),
        ),
        covers=("score.caps", "score.late_caps", "score.wrong_caps", "score.count"),
        source=source("304-CAPS-2", "[ML] caps_formalism.md", also=("304-CAPS-3",
                                                                    "304-CAPS-4",
                                                                    "304-CAPS-5")),
    ),
    Property(
        id="deck.ranks_seen_in_tricks",
        text="Clubs trumps, four spades played: the higher spade wins, J over 9, 9 over A, A "
        "over 10, 10 over K, K over Q, Q over 8 and 8 over 7, whichever is led.",
        scope=Scope.TRICK,
        holds=all_of(*(
            _trick("C", (low, high) + tuple(c for c in _SPADES_HIGH_TO_LOW if c not in (high, low))[-2:], 1)
            for high, low in zip(_SPADES_HIGH_TO_LOW, _SPADES_HIGH_TO_LOW[1:])
            if len([c for c in _SPADES_HIGH_TO_LOW[_SPADES_HIGH_TO_LOW.index(high) + 1:]
                    if c != low]) >= 2)),
        covers=("deck.rank_order", "play.led_suit_wins"),
        source=seed("304-DECK-2", "with [PG]"),
    ),
    Property(
        id="deck.low_ranks_seen_in_tricks",
        text="Clubs trumps, two spades and two hearts played: ♠Q over a led ♠8, ♠8 over a led "
        "♠7, and a led ♠Q over ♠8, the hearts losing.",
        scope=Scope.TRICK,
        holds=all_of(_trick("C", ("8S", "QS", "7H", "8H"), 1),
                     _trick("C", ("7S", "8S", "7H", "8H"), 1),
                     _trick("C", ("QS", "8S", "8H", "7H"), 0)),
        covers=("deck.rank_order", "play.led_suit_wins"),
        source=seed("304-DECK-2", "with [PG]"),
    ),
    Property(
        id="play.follow_suit_seen",
        text="Spades led: a follower holding the ♠7 and the ♥A may play the ♠7 but not the ♥A, "
        "whatever is trumps and whether trumps are open or closed.",
        scope=Scope.PLAY,
        holds=implies(~is_leading & (led_suit == Suit.SPADES) & hand.holds(Card.parse("7S"))
                      & hand.holds(Card.parse("AH")),
                      legal_cards.holds(Card.parse("7S")) & ~legal_cards.holds(Card.parse("AH"))),
        covers=("play.follow_suit",),
        source=seed("304-PLAY-3"),
    ),
    Property(
        id="play.trumps_seen_in_tricks",
        text="Clubs trumps: the 7 of clubs played to a led jack of spades wins the trick, and "
        "of two trumps played the jack of clubs beats the 9.",
        scope=Scope.TRICK,
        holds=_trick("C", ("JS", "7C", "7S", "8S"), 1) & _trick("C", ("AS", "9C", "JC", "7S"), 2),
        covers=("play.trumps_win",),
        source=seed("304-PLAY-4"),
    ),
    Property(
        id="deck.points_seen_in_tricks",
        text="A seat that takes one trick of four spades, or a lone honour with three sevens, "
        "takes its cards' points: J 30, 9 20, A 11, 10 10, K 3, Q 2, 8 and 7 nothing; J 9 A "
        "10 of one suit together make 71.",
        scope=Scope.OUTCOME,
        holds=all_of(
            implies(_took_one_trick(seat, "JS 7H 7D 7C"), points_won(seat) == 30),
            implies(_took_one_trick(seat, "9S 7H 7D 7C"), points_won(seat) == 20),
            implies(_took_one_trick(seat, "AS 7H 7D 7C"), points_won(seat) == 11),
            implies(_took_one_trick(seat, "10S 7H 7D 7C"), points_won(seat) == 10),
            implies(_took_one_trick(seat, "KS 7H 7D 7C"), points_won(seat) == 3),
            implies(_took_one_trick(seat, "QS 7H 7D 7C"), points_won(seat) == 2),
            implies(_took_one_trick(seat, "8S 7H 7D 7C"), points_won(seat) == 0),
            implies(_took_one_trick(seat, "7S 8H 8D 8C"), points_won(seat) == 0),
            implies(_took_one_trick(seat, "JS 9S AS 10S"), points_won(seat) == 71),
        ),
        covers=("deck.card_points", "score.count"),
        source=seed("304-DECK-3", "with [PG]"),
    ),
    Property(
        id="auction.ladder_seen_in_calls",
        text="In the four-card auction 160 may open and nothing lower may ever be bid; 300 "
        "is the highest number; bids go up in tens.",
        scope=Scope.CALL,
        holds=implies((stage == 1) & (calls_made == 0) & ~standing.exists & ~by_proxy
                      & call.is_bid & (call.bid.level == 160), legal_call)
        & implies(call.is_bid & legal_call, (call.bid.level >= 160)
                  & ((call.bid.level <= 300) | (call.bid.level > 300) & (stage == 2))),
        covers=("auction.bids", "auction.overcall", "auction.pcc_eight_card_only"),
        source=seed("304-AUC-2", also=("304-AUC8-2", "304-AUC8-7")),
    ),
    Property(
        id="auction.eight_card_floor_seen",
        text="In the eight-card auction no bid below 250 is legal.",
        scope=Scope.CALL,
        holds=implies((stage == 2) & call.is_bid & legal_call, call.bid.level >= 250),
        covers=("auction.eight_card_minimum",),
        source=seed("304-AUC8-2"),
    ),
    Property(
        id="score.worked_examples",
        text="The digest's examples: bid 160, the team takes 170: the bidders +1; 150: the "
        "opponents +2; bid 210 and 205: the opponents +3; bid 250 and 260: the bidders +3; "
        "bid 200 and 240: the bidders +2.",
        scope=Scope.OUTCOME,
        holds=all_of(
            implies(_made_or_failed(160, 170), (score_of(declarer) == 1)
                    & (score_of(seat_after(declarer)) == 0)),
            implies(_made_or_failed(160, 150), (score_of(declarer) == 0)
                    & (score_of(seat_after(declarer)) == 2)),
            implies(_made_or_failed(210, 205), (score_of(declarer) == 0)
                    & (score_of(seat_after(declarer)) == 3)),
            implies(_made_or_failed(250, 260), (score_of(declarer) == 3)
                    & (score_of(seat_after(declarer)) == 0)),
            implies(_made_or_failed(200, 240), (score_of(declarer) == 2)
                    & (score_of(seat_after(declarer)) == 0)),
        ),
        covers=("score.count", "score.pay_means_receive"),
        source=seed("304-SCORE-2", also=("304-SCORE-1", "304-SCORE-4")),
    ),
    Property(
        id="game.to_eleven_seen",
        text="A team with 11 game points after a deal has won the game, whatever the other "
        "team has; with 10 at most each, it goes on.",
        scope=Scope.MATCH,
        holds=implies(lead_total == 11, match_over) & implies(lead_total == 10, ~match_over),
        covers=("game.to_eleven",),
        unless=("tokens",),
        source=seed("304-GAME-1"),
    ),
    Property(
        id="game.counters_seen",
        text="Paid in counters, ten each: the game ends when one team is 10 game points ahead "
        "(it holds all 20); 9 ahead, it goes on.",
        scope=Scope.MATCH,
        holds=implies(lead_total - trail_total == 10, match_over)
        & implies(lead_total - trail_total == 9, ~match_over),
        covers=("game.to_eleven",),
        under=("tokens",),
        source=source("304-GAME-2", "[ML], [RR], [KM]"),
    ),
    Property(
        id="setup.partners_seen",
        text="North and South are partners, and West and East.",
        scope=Scope.CALL,
        holds=(partner(NORTH) == SOUTH) & (partner(SOUTH) == NORTH) & (partner(WEST) == EAST)
        & (partner(EAST) == WEST),
        covers=("setup.seats",),
        source=seed("304-SETUP-1"),
    ),
    Property(
        id="auction.first_caller_seen",
        text="North deals: West, on his right, calls first in the four-card auction; West "
        "deals: South; South deals: East.",
        scope=Scope.CALL,
        holds=implies((dealer == NORTH) & (stage == 1), first_to_call == WEST)
        & implies((dealer == WEST) & (stage == 1), first_to_call == SOUTH)
        & implies((dealer == SOUTH) & (stage == 1), first_to_call == EAST),
        covers=("auction.four_card_turns",),
        source=seed("304-AUC-1", also=("304-SETUP-2",)),
    ),
    Property(
        id="auction.all_pass_seen",
        text="East deals and all four pass without a bid: the deal is abandoned and North, on "
        "his right, deals next; North deals and all pass: West deals next.",
        scope=Scope.DEAL,
        holds=implies(dealer == EAST, no_bid_redealer == NORTH)
        & implies(dealer == NORTH, no_bid_redealer == WEST),
        covers=("auction.all_pass",),
        source=seed("304-AUC-7"),
    ),
    Property(
        id="spoilt.next_dealer_seen",
        text="Under spoilt_trumps_next_dealer, East deals: once spoilt trumps are declared the "
        "deal is void and North, on his right, deals again; after a demand for low points "
        "East still deals again.",
        scope=Scope.PLAY,
        holds=all_of(
            implies((dealer == EAST) & tracked(SPOILT) & ~tracked("redeal_demanded"),
                    deal_void & (redealer == NORTH)),
            implies((dealer == EAST) & tracked("redeal_demanded"), deal_void & (redealer == EAST)),
        ),
        covers=("spoilt.redeal", "deal.low_points_redeal_same_dealer"),
        under=("spoilt_trumps_next_dealer",),
        source=source("304-SPOIL-2", "[ML]", also=("304-SPOIL-1", "304-DEAL-3")),
    ),
    Property(
        id="auction.eight_card_request_seen",
        text="Under partner_request_in_eight_card_auction, a player may ask his partner to "
        "call for him in either auction.",
        scope=Scope.CALL,
        holds=implies(stage == 1, may_ask_partner) & implies(stage == 2, may_ask_partner),
        covers=("auction.partner_request",),
        under=("partner_request_in_eight_card_auction",),
        source=source("304-AUC8-7", "[ML] standard column"),
    ),
    Property(
        id="auction.eight_card_partner_seen",
        text="Under no_overcalling_partner_in_eight_card_auction, over South's 250 in the "
        "eight-card auction North may not bid 260, and West may.",
        scope=Scope.CALL,
        holds=all_of(*(
            implies((stage == 2) & standing.exists & (standing.bidder == SOUTH)
                    & (standing.bid.level == 250) & ~auction_over & (seat == who) & call.is_bid
                    & (call.bid.level == 260), legal_call if may else ~legal_call)
            for who, may in ((NORTH, False), (WEST, True)))),
        covers=("auction.eight_card_minimum",),
        under=("no_overcalling_partner_in_eight_card_auction",),
        source=source("304-AUC8-7", "[KM]; the seed is silent (G10)"),
    ),
    Property(
        id="closed.literal_first_lead_seen",
        text="Under literal_first_lead, clubs trumps, East deals: North, the maker and on lead "
        "to trick 1, dealt all eight clubs may keep trumps closed; with the ♣J face down and "
        "the seven other clubs in hand he then has no legal lead.",
        scope=Scope.PLAY,
        holds=all_of(
            implies((trump == Suit.CLUBS) & (dealer == EAST) & (declarer == NORTH)
                    & (contract.level == 200)
                    & (dealt_hand(NORTH) == _cards("7C 8C 9C 10C JC QC KC AC")),
                    may_announce("closed")),
            implies(_maker_leads(1, False, "7C 8C 9C 10C QC KC AC"), legal_cards == _cards("")),
        ),
        covers=("closed.no_trump_lead_to_first", "play.open_or_closed"),
        under=("literal_first_lead",),
        source=seed("304-CLOSED-1", "as written, without the digest's proposal (G6)",
                    also=("304-PLAY-5",)),
    ),
)

GAME = Game(
    name="304",
    key="304",
    ref_prefix="304",
    aliases=("three_oh_four", "three-nought-four"),
    doc=__doc__ or "",
    rules=(
        SEATING, COUNTER_CLOCKWISE, NEXT_DEALER,
        PACK, RANKS, POINTS,
        SHUFFLE, FIRST_BATCH, REDEAL_FLAG, REDEAL_DEMAND, REDEAL_DEMANDED, SECOND_BATCH,
        LADDER, BID_ORDER, FOUR_CARD_TURNS, OVERCALL, PASS_NOT_FINAL, FLOOR_200,
        PARTNER_REQUEST, MAKER, ALL_PASS,
        INDICATOR, INDICATOR_NOT_IN_HAND,
        EIGHT_CARD_TURNS, EIGHT_CARD_MINIMUM, NEW_INDICATOR, PCC_ONLY_LATE,
        FIRST_LEAD, LEAD_ANY, FOLLOW_SUIT, TRUMPS_WIN, LED_SUIT_WINS, OPEN_FLAG, OPEN_OR_CLOSED,
        NO_TRUMP_LEAD, INDICATOR_PLAY, FACE_DOWN, FACE_DOWN_NEVER_WINS, CUT_REVEALS,
        REVEAL_AT_250,
        EXHAUSTED_FLAG, EXHAUSTED_TRIGGER, EXHAUSTED_LEAD,
        SPOILT_FLAG, SPOILT_DECLARED, SPOILT_REDEAL,
        CAPS_DEFINED, CAPS_CLAIM_TRICK, CAPS_CLAIMER, CAPS_CLAIM,
        PCC_PARTNER_OUT,
        COUNT_POINTS, PCC_SCORE, NO_EXTRA, PAY_TO_OTHERS, CAPS_BONUS, LATE_CAPS, WRONG_CAPS,
        GAME_TO_11,
    ),
    variants=VARIANTS,
    properties=PROPERTIES + FACTS,
)
