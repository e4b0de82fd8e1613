"""Wiezen (Belgian Whist) with the turned-up trump, a solo game of the whist family.

Players: 4, each for himself; the contract makes the sides, one seat or two against the
others.  Deck: the 52-card French pack, A K Q J 10 9 8 7 6 5 4 3 2 in every suit.  The
pack is shuffled once, at the start of the session; afterwards the tricks are gathered,
cut and dealt again without a shuffle.  The dealer deals 4, 4 and 5 cards to each from
his left, and his last card, the 52nd, is dealt face up: the turn-up, whose suit is the
turned trump suit.  The auction climbs a ladder of nine contracts: Vraag (with a partner
who says *meegaan*, 8 tricks), Piccolo (one trick), Solo (5 tricks alone, only for an
asker nobody joined), Abondance (9 tricks, trumps named), Abondance in troef (9 in the
turned suit, only over an Abondance), Miserie (no trick), Troel (three or four aces, with
the partner the cards give, 8 tricks), Miserie op tafel (no trick, the hand laid open
after the first trick) and Solo slim (all 13).  Each deal is settled on its own:
every settlement is a payment between the declarer's side and each seat against it.

This is *not* Kleurenwiezen, in which nobody turns a card up and the bidders propose
suits: the seed describes the turned-up trump only (digest §0, G0).

Sources:
  [seed] the Japanese summary ``004_1f0be59358d3f297.txt`` (2006), after pagat.com
  [PW]   https://www.pagat.com/boston/wiezen.html ("Wiezen")
  [GW]   https://gambiter.com/cards/boston/wiezen.html, an older mirror of [PW]
  [MF]   https://www.makeitfly.group/nl/wiezen-bied-je-weg-naar-de-overwinning
  [SP]   https://sporza.be/nl/2020/01/31/spelregels-wiezen/
  [DG]   http://users.belgacom.net/megascore/kleurenwiezen.htm
  [FH]   Foster's Complete Hoyle, Solo Whist

How the rules are written (each a choice the digest leaves open, or a way of saying it):
  * *meegaan* is said by bidding Vraag again over a Vraag nobody has joined: the seat
    becomes the asker's partner (``call.accepts``); at most one seat does;
  * *wachten* is an announcement the dealer's left makes at his first call, before he
    passes for now: a pass that is not final, for he may still say *meegaan* later and
    nothing else (digest G10);
  * a Troel holder whose first turn comes after a higher bid announces his Troel, which
    is then no bid; a Troel below the standing bid it outranks is bid at once (G7);
  * the auction ends when every seat but the holders of the standing bid (its bidder, the
    seats that bid it again, the partner who said *meegaan*) has passed; an asker nobody
    joined speaks once more when the other three have passed, and if he passes too the
    deal is thrown in (G15, an assumption; ``passes_in_a_row`` is the other reading);
  * Solo is bid only by an asker whose Vraag stands with nobody joining it, that is when
    the other three have passed after it (the seed's "if everyone else passes after a
    Vraag", WZ-AUC-7, and its "only when nobody said meegaan", WZ-AUC-8); the digest's
    wider reading, a Solo over a later higher bid (G5), is the variant
    ``solo_after_an_overcall``, stated but not yet playable: the rules keep no memory of
    the Vraag once it is overcalled;
  * a deal thrown in is gathered hand by hand and cut again, and the same dealer deals.

Variants (see ``VARIANTS``): ``piccolo_with_trumps`` (G4), ``declarers_settle_once``
(the digest's worked table for two misère declarers, where one makes his contract and
the other fails: the reading of WZ-SCORE-5 its example shows), ``passes_in_a_row`` (the
auction ends after three passes in a row, G15), ``solo_after_an_overcall`` (G5, not yet
playable), ``shuffled`` (a fresh shuffle before every deal, G18).
"""
from __future__ import annotations

from spec.cards import FRENCH_52, Card, Rank, Suit
from spec.dsl import (
    Announce,
    Property,
    AuctionTurns,
    BidOrder,
    CallRule,
    Claim,
    DealerRotation,
    DealPackets,
    Decide,
    DeckIs,
    Direction,
    Expr,
    Game,
    GatherAndCut,
    HighestBidderDeclares,
    Ladder,
    LayOpen,
    MatchLength,
    MatchOf,
    Option,
    PartnerAccepts,
    PartnerHolds,
    PlayDirection,
    PlayRule,
    RankOrder,
    RedealIfNoBid,
    Rule,
    SameBidJoins,
    Scope,
    ScoreRule,
    Seats,
    Shuffle,
    SidesByContract,
    T,
    Track,
    TrickPlay,
    TrickValue,
    TrumpIs,
    TurnUp,
    Variant,
    VoidWhen,
    all_of,
    announcing,
    any_of,
    assumption,
    auction_over,
    bid,
    call,
    calls_made,
    cards,
    cards_of,
    const,
    contract,
    dealer,
    deal_void,
    deals_played,
    dealt_hand,
    declarer,
    declarer_partner,
    declares,
    each_declarer,
    each_seat,
    first_leader,
    first_to_call,
    hand,
    if_then_else,
    implies,
    is_leading,
    led_suit,
    legal_call,
    legal_cards,
    let,
    match_over,
    may_announce,
    next_dealer,
    no_bid_redealer,
    no_suit,
    others_passed,
    passes_in_row,
    played_card,
    points_won,
    rank_table,
    ranks,
    receives,
    score_of,
    seat,
    seat_after,
    seat_calls,
    seat_holds,
    seat_passed,
    seed,
    source,
    standing,
    tracked,
    trick_number,
    trick_winner,
    tricks_won,
    trump,
    turn_up,
    turned_suit,
)
from spec.dsl.blocks import follow_suit, led_suit_wins, trumps_win

PLAYERS = 4
DECK = FRENCH_52
TRICKS = len(DECK) // PLAYERS
RANK_ORDER = ranks("A K Q J 10 9 8 7 6 5 4 3 2")
ACES = cards(*(c for c in DECK if c.rank is Rank.ACE))

# -- the contracts ------------------------------------------------------------------------
# [seed] the ladder, lowest first, and its score table: who plays, the tricks he needs
# (exactly, for Piccolo and the misères), the base value and the value of each trick over
# or short (None: the base either way), whether all thirteen tricks double the value, and
# the trumps.  "asker+1": the asker and the seat that says meegaan; "troel": the Troel
# bidder and the partner his cards give.
VRAAG, PICCOLO, SOLO, ABONDANCE, ABONDANCE_IN_TROEF = 1, 2, 3, 4, 5
MISERIE, TROEL, MISERIE_OP_TAFEL, SOLO_SLIM = 6, 7, 8, 9
TURNED, NAMED_SUIT, NONE, TROEL_SUIT = "the turned suit", "named", "none", "the troel suit"
CONTRACTS = (
    # level              name                  who        tricks exact base per  x2    trumps
    (VRAAG,              "vraag",              "asker+1", 8,  False, 1,  1,    True,  TURNED),
    (PICCOLO,            "piccolo",            "alone",   1,  True,  6,  None, False, NONE),
    (SOLO,               "solo",               "alone",   5,  False, 1,  1,    True,  TURNED),
    (ABONDANCE,          "abondance",          "alone",   9,  False, 8,  None, False, NAMED_SUIT),
    (ABONDANCE_IN_TROEF, "abondance_in_troef", "alone",   9,  False, 8,  None, False, TURNED),
    (MISERIE,            "miserie",            "alone",   0,  True,  10, None, False, NONE),
    (TROEL,              "troel",              "troel",   8,  False, 2,  2,    True,  TROEL_SUIT),
    (MISERIE_OP_TAFEL,   "miserie_op_tafel",   "alone",   0,  True,  16, None, False, NONE),
    (SOLO_SLIM,          "solo_slim",          "alone",   13, False, 24, None, False, NAMED_SUIT),
)
LEVEL = contract.level
# the contracts a later seat may bid again, all bidders then declaring (WZ-AUC-10)
REPEATABLE = (PICCOLO, MISERIE, MISERIE_OP_TAFEL)
NAMED = "trumps_named"  # the suit the declarer of Abondance or Solo slim names
WAITED = "waited"  # the dealer's left said wachten
TROEL_SAID = "troel_announced"  # a Troel announced over a higher bid


def _is(*levels: int) -> Expr:
    """The contract is one of ``levels``."""
    return any_of(*(LEVEL == lv for lv in levels))


def _trumps(kind: str) -> tuple[int, ...]:
    return tuple(row[0] for row in CONTRACTS if row[8] == kind)


# -- the declarer's side ---------------------------------------------------------------------
ALONE = declarer_partner == declarer
ON_SIDE = (seat == declarer) | (seat == declarer_partner)
SIDE_TRICKS = if_then_else(ALONE, tricks_won(declarer),
                           tricks_won(declarer) + tricks_won(declarer_partner))


def _by_contract(value: object, of_row) -> Expr:  # type: ignore[no-untyped-def]
    """An expression of the contract, from the score table row by row (``value`` for a
    level no row names)."""
    out = value if isinstance(value, Expr) else const(value)
    for row in reversed(CONTRACTS):
        out = if_then_else(LEVEL == row[0], of_row(row), out)
    return out


def _made(row) -> Expr:  # type: ignore[no-untyped-def]
    _lv, _n, _who, target, exact, *_r = row
    return SIDE_TRICKS == target if exact else SIDE_TRICKS >= target


def _value(row) -> Expr:  # type: ignore[no-untyped-def]
    _lv, _n, _who, target, exact, base, per, doubles, _t = row
    if per is None:
        return const(base)
    odd = if_then_else(SIDE_TRICKS >= target, SIDE_TRICKS - target, target - SIDE_TRICKS)
    plain = base + per * odd
    return if_then_else(SIDE_TRICKS == TRICKS, 2 * plain, plain) if doubles else plain


MADE = _by_contract(False, _made)
VALUE = _by_contract(0, _value)
WON = if_then_else(MADE, VALUE, -VALUE)  # what each seat against the side pays the side
# several seats declare one contract, each for himself
SEVERAL = each_seat(if_then_else(declares(seat), 1, 0)) > 1

# -- the Troel: the partner, his card and the trumps ------------------------------------------
HIS = dealt_hand(declarer)
FOUR_ACES = (HIS & ACES).count == 4
LACKED_HEARTS = cards_of(Suit.HEARTS) - HIS
HEARTS_HIGH_FIRST = [c for r in RANK_ORDER for c in DECK if c.suit is Suit.HEARTS and c.rank is r]


def _highest_heart_lacked() -> Expr:
    """The highest heart the declarer was not dealt, as a set of one card."""
    out: Expr = cards()
    for c in reversed(HEARTS_HIGH_FIRST):
        out = if_then_else(LACKED_HEARTS.holds(c), cards(c), out)
    return out


def _suit_of_the_ace_lacked() -> Expr:
    out: Expr = no_suit
    for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES):
        out = if_then_else(~HIS.holds(Card(s, Rank.ACE)), const(s), out)
    return out


# the card the partner leads to the first trick: the ace the bidder lacks; with all four,
# the highest heart he lacks
TROEL_CARD = if_then_else(FOUR_ACES, _highest_heart_lacked(), ACES - HIS)


def _aces_held() -> Expr:
    return (hand & ACES).count


# 1. Players, seats, direction ---------------------------------------------------------------
SEATS = Rule(
    id="setup.seats", text="Four players, each for himself: the contract of each deal makes "
    "the sides, two against two or one against three.", source=seed("WZ-SETUP-1"),
    body=Seats(("North", "East", "South", "West")))
SIDES = Rule(
    id="setup.sides", text="No fixed partnerships: the declarer plays alone, or with the "
    "partner a call or the cards give him.", source=seed("WZ-SETUP-1"),
    body=SidesByContract(declarer_alone=False))
CLOCKWISE = Rule(
    id="setup.clockwise", text="Dealing, bidding and play go clockwise.",
    source=seed("WZ-SETUP-2"), body=PlayDirection(Direction.CLOCKWISE))
NEXT_DEALER = Rule(
    id="setup.next_dealer", text="The first dealer is chosen by any means; after a deal played "
    "the deal passes to the left.", source=seed("WZ-SETUP-3"), body=DealerRotation(1))
SESSION = Rule(
    id="setup.session", text="Each deal is settled on its own; over a session each player's "
    "result is the sum of his deals, and the highest total wins.",
    source=seed("WZ-SETUP-3", "each deal settled on its own: the seed's scoring section"),
    body=MatchOf())
SESSION_LENGTH = Rule(
    id="setup.session_length", text="A session is a number of deals the players agree on, a "
    "multiple of four so that each deals as often as the others (20 unless they agree "
    "otherwise).",
    source=assumption("WZ-SETUP-3", "the seed says only that play goes on deal by deal "
                      "(digest G17); the multiple of four is the digest's assumption, the "
                      "twenty deals ours"),
    body=MatchLength(deals=20, multiple_of=PLAYERS))

# 2. The deck ---------------------------------------------------------------------------------
PACK = Rule(
    id="deck.cards", text="The 52-card pack, ace high, in each suit ace, king, queen, jack, "
    "ten down to two.", source=seed("WZ-DECK-1"), body=DeckIs(DECK))
RANKS = Rule(
    id="deck.rank_order", text="In each suit ace, king, queen, jack, ten, nine down to two.",
    source=seed("WZ-DECK-1"), body=RankOrder(RANK_ORDER))
TRICK_VALUE = Rule(
    id="deck.trick_value", text="Only tricks count, one each.", source=seed("WZ-DECK-1"),
    body=TrickValue(const(1)))

# 3. The deal ---------------------------------------------------------------------------------
LEAST_CUT = 4
GATHERED = Rule(
    id="deal.gather_and_cut", text="The pack is shuffled only before the first deal of the "
    "session: afterwards the cards of the deal just played are gathered in the order the "
    "tricks were played, the player on the new dealer's right cuts, and the pack is dealt "
    "without a shuffle; a deal thrown in is gathered hand by hand and cut again.",
    source=source("WZ-DEAL-1", f"[seed] + [GW], [MF]; the cut leaving at least {LEAST_CUT} "
                  "cards in each part is ours (the seed does not say); a deal thrown in is "
                  "gathered hand by hand (G9)"),
    # after a deal played, the new dealer's right is the one who has just dealt
    body=GatherAndCut(cut_by=dealer, least=LEAST_CUT))
PACKETS = Rule(
    id="deal.packets", text="The dealer deals from his left, clockwise: 4 cards to each, again "
    "4 to each, then 5 to each: 13 each.", source=seed("WZ-DEAL-2"),
    body=DealPackets((4, 4, 5), first=seat_after(dealer)))
TURN_UP = Rule(
    id="deal.turn_up", text="The dealer's last card, the 52nd, is dealt face up in the middle "
    "of the table: the turn-up.  Its suit is the turned trump suit (troef); every player "
    "sees it, and it is one of the dealer's thirteen cards.",
    source=seed("WZ-DEAL-2", also=("WZ-DEAL-3",)), body=TurnUp(position=-1))
TAKES_TURN_UP = Rule(
    id="deal.dealer_takes_turn_up", text="Before the play the dealer takes the turn-up into "
    "his hand: it is one of his thirteen cards.", source=seed("WZ-CON-1", also=("WZ-DEAL-3",)),
    body=Claim(Scope.OUTCOME, dealt_hand(dealer).holds(turn_up)))

# 4. The contracts and the auction ----------------------------------------------------------
BID_LEVEL = call.bid.level
UNACCEPTED_VRAAG = (standing.exists & (standing.bid.level == VRAAG) & ~standing.accepted)
LEFT = seat_after(dealer)
# the dealer's left after wachten (which a player holding three aces cannot say)
WAITER = (seat == LEFT) & tracked(WAITED) & (_aces_held() < 3)
LADDER = Rule(
    id="auction.contracts", text="The contracts, lowest first: Vraag, Piccolo, Solo, "
    "Abondance, Abondance in troef, Miserie, Troel, Miserie op tafel, Solo slim.",
    source=seed("WZ-AUC-3", "the names lost from the seed's paragraphs, recovered from its "
                "score table (digest G1)", also=("WZ-AUC-13",)),
    body=Ladder(levels=tuple(row[0] for row in CONTRACTS), strains=(None,),
                names=tuple((row[0], row[1]) for row in CONTRACTS)))
BID_ORDER = Rule(
    id="auction.bid_order", text="Each contract beats those before it on the ladder.",
    source=seed("WZ-AUC-3"), body=BidOrder(key=bid.level))
TURNS = Rule(
    id="auction.turns", text="The dealer's left calls first, then each player in turn, "
    "clockwise, for as many rounds as it takes.  The auction ends when every player but the "
    "holders of the highest bid (its bidder, those who bid it again, the partner who said "
    "meegaan) has passed; over a Vraag nobody joined, the asker speaks once more after the "
    "other three have passed, and the auction ends if he passes too.",
    source=assumption("WZ-AUC-12", "the end of the auction is the digest's assumption "
                      "(G15); the asker speaking again is the seed's WZ-AUC-7",
                      also=("WZ-AUC-1", "WZ-AUC-7")),
    body=AuctionTurns(first=LEFT,
                      ends_when=(~UNACCEPTED_VRAAG & others_passed)
                      | (UNACCEPTED_VRAAG & (passes_in_row == PLAYERS))))
PASS_FINAL = Rule(
    id="auction.pass_final", text="A pass is final: a player who has passed may only pass "
    "when his turn comes round again (but after wachten).", source=seed("WZ-AUC-2"),
    body=CallRule(applies=seat_passed & ~WAITER, requires=~call.is_bid))
OVERCALL = Rule(
    id="auction.overcall", text="Once a bid has been made, a new bid must be higher on the "
    "ladder, but for meegaan and a Piccolo, Miserie or Miserie op tafel bid again by a "
    "player who has not bid it.",
    source=seed("WZ-AUC-3", "each player bids a repeated contract once (digest §3.5)"),
    body=CallRule(applies=call.is_bid & standing.exists,
                  requires=(call.bid.key > standing.bid.key) | call.accepts
                  | (call.joins & ~seat_holds)))
MEEGAAN = Rule(
    id="auction.meegaan", text="Vraag proposes to take 8 tricks with a partner, the turned "
    "suit trumps.  A player who has not passed and speaks after it may say meegaan (bid "
    "Vraag again) while nobody has: he becomes the asker's partner.  A higher bid takes the "
    "Vraag from both.", source=seed("WZ-AUC-5", also=("WZ-AUC-4",)),
    body=PartnerAccepts(bids=bid.level == VRAAG))
WACHTEN = Rule(
    id="auction.wachten", text="The dealer's left, at his first turn only, may say wachten "
    "(wait) and pass for now, unless he must announce a Troel.",
    source=source("WZ-AUC-6", "[seed] + [GW] (G10)"),
    body=Announce("wachten", Scope.CALL,
                  when=(seat == LEFT) & (seat_calls == 0) & ~tracked(WAITED)
                  & (_aces_held() < 3),
                  sets=((WAITED, const(True)),)))
WAITED_FLAG = Rule(
    id="auction.waited", text="Whether the dealer's left has said wachten is remembered "
    "until the cards are dealt again.", source=seed("WZ-AUC-6"),
    body=Track(WAITED, T.BOOL, False))
AFTER_WACHTEN = Rule(
    id="auction.after_wachten", text="A player who said wachten passes for now, and later "
    "may only say meegaan or pass.", source=seed("WZ-AUC-6"),
    body=CallRule(applies=WAITER, requires=~call.is_bid | call.accepts))
SOLO_RULE = Rule(
    id="auction.solo", text="Solo may be bid only by the asker, over his own Vraag that "
    "nobody joined, when the other three have passed after it.",
    source=assumption("WZ-AUC-8", "the seed's 'if everyone else passes after a Vraag' "
                      "(WZ-AUC-7); the digest's wider reading, a Solo over a later higher bid, "
                      "is left open (G5)", also=("WZ-AUC-7",)),
    body=CallRule(applies=call.is_bid & (BID_LEVEL == SOLO),
                  requires=UNACCEPTED_VRAAG & (standing.bidder == seat)))
IN_TROEF = Rule(
    id="auction.abondance_in_troef", text="Abondance in troef may be bid only over an "
    "Abondance.", source=source("WZ-AUC-9", "[seed] + [FH] (G6)"),
    body=CallRule(applies=call.is_bid & (BID_LEVEL == ABONDANCE_IN_TROEF),
                  requires=standing.exists & (standing.bid.level == ABONDANCE)))
SAME_BID = Rule(
    id="auction.same_bid", text="Over a Piccolo, a Miserie or a Miserie op tafel a later "
    "player may bid the same contract; if nothing higher follows, every one of its bidders "
    "declares, and all play at once.", source=seed("WZ-AUC-10", also=("WZ-PLAY-4",)),
    body=SameBidJoins(bids=any_of(*(bid.level == lv for lv in REPEATABLE))))
TROEL_ACES = Rule(
    id="auction.troel_aces", text="Only a player holding three aces or more may bid Troel.",
    source=seed("WZ-AUC-11"),
    body=CallRule(applies=call.is_bid & (BID_LEVEL == TROEL), requires=_aces_held() >= 3))
TROEL_FIRST = Rule(
    id="auction.troel_compulsory", text="A player holding three aces or more must bid Troel "
    "at his first turn, unless a higher bid has already been made.",
    source=seed("WZ-AUC-11"),
    body=CallRule(applies=(seat_calls == 0) & (_aces_held() >= 3)
                  & (~standing.exists | (standing.bid.level < TROEL)),
                  requires=call.is_bid & (BID_LEVEL == TROEL)))
TROEL_OUTRANKED = Rule(
    id="auction.troel_announced", text="If a higher bid has already been made, he must still "
    "announce his Troel at his first turn, before his call; it is then no bid.",
    source=seed("WZ-AUC-11", "the announcement has no effect as a bid (G7)"),
    body=Announce("troel_held", Scope.CALL,
                  when=(seat_calls == 0) & (_aces_held() >= 3) & ~tracked(TROEL_SAID)
                  & standing.exists & (standing.bid.level > TROEL),
                  sets=((TROEL_SAID, const(True)),),
                  required=const(True)))
TROEL_FLAG = Rule(
    id="auction.troel_said", text="Whether a Troel has been announced over a higher bid is "
    "remembered until the cards are dealt again.", source=seed("WZ-AUC-11"),
    body=Track(TROEL_SAID, T.BOOL, False))
DECLARER = Rule(
    id="auction.declarer", text="The highest bid is the contract: its bidder declares it, with "
    "the partner who said meegaan to a Vraag, or the Troel partner.", source=seed("WZ-AUC-13"),
    body=HighestBidderDeclares())
ALL_PASS = Rule(
    id="auction.all_pass", text="If everybody passes, there is no play: the cards are thrown "
    "in and the same dealer deals again.", source=seed("WZ-AUC-14", also=("WZ-SETUP-3",)),
    body=RedealIfNoBid(0))
LONE_ASKER = Rule(
    id="auction.vraag_alone", text="If nobody joins a Vraag and the asker bids nothing else, "
    "there is no play: the cards are thrown in and the same dealer deals again.",
    source=seed("WZ-AUC-14"),
    body=VoidWhen(when=(LEVEL == VRAAG) & ALONE, redeal_steps=0))

# 5. Trumps, partners and the hand laid open --------------------------------------------------
NO_TRUMPS = Rule(
    id="contract.no_trumps", text="Piccolo, Miserie and Miserie op tafel are played without "
    "trumps.", source=seed("WZ-CON-3", "Piccolo without trumps: the seed (G4)"),
    body=TrumpIs(when=_is(*_trumps(NONE)), suit=no_suit))
TURNED_TRUMPS = Rule(
    id="contract.turned_trumps", text="In Vraag, Solo and Abondance in troef the turned suit is "
    "trumps.", source=seed("WZ-AUC-4", "the trumps of each contract: the ladder of the digest",
                           also=("WZ-AUC-8", "WZ-AUC-9")),
    body=TrumpIs(when=_is(*_trumps(TURNED)), suit=turned_suit))
TROEL_TRUMPS = Rule(
    id="contract.troel_trumps", text="In a Troel with three aces the suit of the fourth ace is "
    "trumps; with all four, hearts.", source=seed("WZ-CON-5", also=("WZ-CON-6",)),
    body=TrumpIs(when=_is(*_trumps(TROEL_SUIT)),
                 suit=if_then_else(FOUR_ACES, const(Suit.HEARTS), _suit_of_the_ace_lacked())))
NAME_TRUMPS = Rule(
    id="contract.name_trumps", text="After the auction the declarer of an Abondance or a Solo "
    "slim names trumps: any suit, the turned one included.", source=seed("WZ-CON-2"),
    body=Decide(by=declarer, when=_is(*_trumps(NAMED_SUIT)), options=tuple(
        Option(s.name.lower(), when=const(True), sets=((NAMED, const(s)),))
        for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS))))
TRUMPS_NAMED = Rule(
    id="contract.trumps_named", text="The suit the declarer names (none before he names it).",
    source=seed("WZ-CON-2"), body=Track(NAMED, T.SUIT, None))
NAMED_TRUMPS = Rule(
    id="contract.named_trumps", text="In Abondance and Solo slim the suit the declarer named "
    "is trumps.", source=seed("WZ-CON-2"),
    body=TrumpIs(when=_is(*_trumps(NAMED_SUIT)), suit=tracked(NAMED, T.SUIT)))
TROEL_PARTNER = Rule(
    id="contract.troel_partner", text="The Troel bidder's partner is the holder of the ace he "
    "lacks; with all four aces, the holder of the highest heart he lacks, which he names.",
    source=source("WZ-CON-5", "[seed] + [SP], [DG]", also=("WZ-CON-6",)),
    body=PartnerHolds(when=LEVEL == TROEL,
                      cards=if_then_else(FOUR_ACES, LACKED_HEARTS, ACES - HIS)))
TROEL_TARGET = Rule(
    id="contract.troel_target", text="A Troel is for 8 tricks, the bidder and his partner "
    "together.", source=seed("WZ-CON-7"),
    body=Claim(Scope.OUTCOME, implies((LEVEL == TROEL) & ~ALONE,
                                      MADE == (SIDE_TRICKS >= 8))))
LAY_OPEN = Rule(
    id="contract.lay_open", text="In Miserie op tafel the declarer lays his whole hand face up "
    "on the table after the first trick and plays from it; where several play it, each "
    "does.", source=seed("WZ-CON-4"),
    body=LayOpen(seat=declarer, after_trick=1, when=LEVEL == MISERIE_OP_TAFEL,
                 each_declarer=True))

# 6. The play --------------------------------------------------------------------------------
FIRST_LEAD = Rule(
    id="play.first_lead", text="The dealer's left leads to the first trick, but in a Troel the "
    "partner leads and in Solo slim the declarer; the winner of each trick leads to the "
    "next.", source=seed("WZ-PLAY-1", also=("WZ-PLAY-3",)),
    body=TrickPlay(first_lead=if_then_else(
        LEVEL == TROEL, declarer_partner,
        if_then_else(LEVEL == SOLO_SLIM, declarer, seat_after(dealer)))))
TROEL_LEAD = Rule(
    id="play.troel_lead", text="In a Troel the partner leads to the first trick the ace the "
    "bidder lacks, or with all four aces the highest heart he lacks.",
    source=seed("WZ-CON-5", also=("WZ-CON-6",)),
    # the partner leads, and holds it (contract.troel_partner): the leader holding it
    body=PlayRule(applies=(LEVEL == TROEL) & (trick_number == 1) & is_leading
                  & hand.holds_any(TROEL_CARD), permits=TROEL_CARD))
FOLLOW = Rule(
    id="play.follow_suit", text="Follow suit if you can; otherwise play any card.",
    source=source("WZ-PLAY-2", "[seed]'s 'as in bridge' + [FH] (G3)"), body=follow_suit())
TRUMPS_WIN = Rule(
    id="play.trumps_win", text="The highest trump wins the trick.", source=seed("WZ-PLAY-3"),
    body=trumps_win())
LED_WINS = Rule(
    id="play.led_suit_wins", text="Without a trump in it the highest card of the suit led "
    "wins.", source=seed("WZ-PLAY-3"), body=led_suit_wins())
EACH_OWN_TRICKS = Rule(
    id="play.each_his_own", text="Where several declare at once, everybody plays as usual and "
    "each declarer's own tricks decide his contract.", source=seed("WZ-PLAY-4"),
    body=Claim(Scope.OUTCOME, implies(SEVERAL, ALONE)))

# 7. Scoring ---------------------------------------------------------------------------------
VALUE_TEXT = ("its value: the base of the score table, with the value per trick over or "
              "short where the table gives one, and doubled where all 13 tricks are taken "
              "in a Vraag, a Solo or a Troel")
SINGLE = Rule(
    id="score.declarer_alone", text="A declarer alone receives " + VALUE_TEXT + " from each "
    "of the other three if he makes his contract, and pays it to each if not.",
    source=seed("WZ-SCORE-3", also=("WZ-SCORE-1", "WZ-SCORE-2")),
    body=ScoreRule(when=ALONE & ~SEVERAL,
                   amount=if_then_else(seat == declarer, (PLAYERS - 1) * WON, -WON)))
PARTNERS = Rule(
    id="score.partners", text="In a Vraag with meegaan and in a Troel each partner receives "
    "the value from each of the two opponents, or pays it to each.",
    source=seed("WZ-SCORE-4", also=("WZ-SCORE-1", "WZ-SCORE-2")),
    body=ScoreRule(when=~ALONE, amount=if_then_else(ON_SIDE, 2 * WON, -2 * WON)))
SEVERAL_SETTLED = Rule(
    id="score.several_declarers", text="Where several declare a Piccolo, a Miserie or a "
    "Miserie op tafel at once, each is settled on his own, against each of the other three, "
    "as a declarer alone.",
    source=seed("WZ-SCORE-5", "the digest contradicts itself here: its rule, each settled "
                "against the other three, gives a Miserie declarer who makes it +40 and one "
                "who fails -40 in the same deal; its table of worked examples gives +30 and "
                "-30.  The rule as written is the default, the table's reading the variant "
                "declarers_settle_once; trickspec check wiezen shows a deal where the two "
                "part (variant.declarers_settle_once)"),
    body=ScoreRule(when=SEVERAL, amount=each_declarer(
        if_then_else(seat == declarer, (PLAYERS - 1) * WON, -WON))))
ZERO_SUM = Rule(
    id="score.zero_sum", text="Every payment is between two players: the scores of a deal "
    "add up to nothing.", source=seed("WZ-SCORE-3", also=("WZ-SCORE-4", "WZ-SCORE-5")),
    body=Claim(Scope.OUTCOME, score_of(0) + score_of(1) + score_of(2) + score_of(3) == 0))

# Variants -------------------------------------------------------------------------------------
PICCOLO_TRUMPS = Rule(
    id="contract.no_trumps", text="Miserie and Miserie op tafel are played without trumps.",
    source=source("WZ-CON-3", "many clubs play Piccolo with the turned trump (G4)"),
    body=TrumpIs(when=_is(MISERIE, MISERIE_OP_TAFEL), suit=no_suit))
PICCOLO_TURNED = Rule(
    id="contract.turned_trumps", text="In Vraag, Piccolo, Solo and Abondance in troef the "
    "turned suit is trumps.", source=source("WZ-CON-3", "many clubs (G4)"),
    body=TrumpIs(when=_is(VRAAG, PICCOLO, SOLO, ABONDANCE_IN_TROEF), suit=turned_suit))
# the digest's worked table: two misère declarers, one who makes it and one who fails, pay
# each other once; a seat scored here by another declarer's settlement
_OWN_MADE = let(declarer_partner, seat, let(declarer, seat, MADE))
ONCE = Rule(
    id="score.several_declarers", text="Where several declare a Piccolo, a Miserie or a "
    "Miserie op tafel at once, each is settled against each of the other three, but two "
    "declarers of whom one makes his contract and the other fails pay each other once: the "
    "one who fails pays the one who made it the value, not twice.",
    source=seed("WZ-SCORE-5", "the digest's worked example (A +30, B -30), read against the "
                "rule as written (A +40, B -40)"),
    body=ScoreRule(when=SEVERAL, amount=each_declarer(
        if_then_else(seat == declarer, (PLAYERS - 1) * WON,
                     if_then_else(declares(seat) & (_OWN_MADE != MADE), 0, -WON)))))
THREE_PASSES = Rule(
    id="auction.turns", text="The dealer's left calls first, then each player in turn, "
    "clockwise, for as many rounds as it takes.  The auction ends after three passes in a "
    "row following a bid, four over a Vraag nobody joined, or four passes with no bid: the "
    "holders of the highest bid speak again in turn, and may raise it.",
    source=assumption("WZ-AUC-12", "the end of the auction is open (digest G15): here the "
                      "whist family's passes in a row", also=("WZ-AUC-1", "WZ-AUC-7")),
    body=AuctionTurns(first=LEFT,
                      ends_when=(standing.exists & ~UNACCEPTED_VRAAG & (passes_in_row == 3))
                      | (UNACCEPTED_VRAAG & (passes_in_row == PLAYERS))
                      | (~standing.exists & (calls_made == PLAYERS))))
SHUFFLED = Rule(
    id="deal.gather_and_cut", text="The dealer shuffles the pack before every deal.",
    source=assumption("WZ-DEAL-1", "the digest's simulation reading of 'no shuffling' (G18): "
                      "each deal any order of the pack"),
    body=Shuffle())

VARIANTS = (
    Variant(
        id="piccolo_with_trumps",
        text="Piccolo is played with the turned suit trumps, as many clubs play it.",
        replaces=((TURNED_TRUMPS, PICCOLO_TURNED), (NO_TRUMPS, PICCOLO_TRUMPS)),
        source=source("WZ-CON-3", "many clubs (digest G4)"),
    ),
    Variant(
        id="declarers_settle_once",
        text="Two declarers of one Piccolo, Miserie or Miserie op tafel, one making it and the "
        "other failing, pay each other the value once: the digest's worked table (A +30, "
        "B -30, the others 0) rather than its rule (A +40, B -40).",
        replaces=((SEVERAL_SETTLED, ONCE),),
        source=seed("WZ-SCORE-5", "the digest contradicts itself: the rule as written is the "
                    "default"),
        reading=True,
    ),
    Variant(
        id="passes_in_a_row",
        text="The auction ends after three passes in a row following a bid (four over a "
        "Vraag nobody joined): the holders of the highest bid, the asker and his partner or "
        "the first of several misère bidders, speak again and may raise it.",
        replaces=((TURNS, THREE_PASSES),),
        source=assumption("WZ-AUC-12", "digest G15, an open question"),
    ),
    Variant(
        id="solo_after_an_overcall",
        text="The digest's reading of Solo: an asker nobody joined may bid Solo at a later "
        "turn over any bid it outranks, his Vraag overcalled meanwhile.",
        replaces=(),
        source=assumption("WZ-AUC-8", "digest G5, its resolution for the interleaving"),
        not_decidable="the rules keep no memory of a call once a higher bid stands: which "
        "seat asked, and whether anybody joined him, is gone when another seat overcalls "
        "his Vraag (a value kept through the auction, set by its calls, would say it)",
    ),
    Variant(
        id="shuffled",
        text="The pack is shuffled before every deal, as a simulation that treats each deal "
        "as any order of the pack.",
        replaces=((GATHERED, SHUFFLED),),
        source=assumption("WZ-DEAL-1", "digest G18"),
    ),
)

# -- facts: the rulebook's own cards and numbers ------------------------------------------
# Each fact states what the seed or the digest says in literal cards, contracts, seats and
# points, apart from the rules above (none of their constants or expressions is reused),
# so that a rule transcribed wrongly contradicts one of them.  The contracts by their
# places on the ladder, lowest first: Vraag 1, Piccolo 2, Solo 3, Abondance 4, Abondance
# in troef 5, Miserie 6, Troel 7, Miserie op tafel 8, Solo slim 9.  In the examples West
# (seat 3) deals, so North (seat 0) is on his left.
#
# The facts of the play and of the scores list many cases in one property, each written
# ``_case(situation, then)``, "the situation does not arise or then holds", rather than as
# an implication, whose premise the checker would prove can occur with a query of its own;
# tests/games/test_wiezen.py proves that every case can occur.
_VRAAG, _PICCOLO, _SOLO, _ABONDANCE, _IN_TROEF = 1, 2, 3, 4, 5
_MISERIE, _TROEL, _OP_TAFEL, _SLIM = 6, 7, 8, 9
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
# [seed] WZ-DECK-1: in each suit A > K > Q > J > 10 > ... > 2
_SEED_RANK = rank_table("seed_rank", ranks("A K Q J 10 9 8 7 6 5 4 3 2"), DECK)
_ALL_ACES = cards(*(Card.parse(f"A{x}") for x in "SHDC"))


def _case(situation: Expr, then: Expr) -> Expr:
    """The situation does not arise, or ``then`` holds in it."""
    return ~situation | then


def _cards(text: str) -> Expr:
    return cards(*(Card.parse(c) for c in text.split()))


def _level(level: int) -> Expr:
    return contract.level == level


def _bids(level: int) -> Expr:
    return call.is_bid & (call.bid.level == level)


def _free_to_bid() -> Expr:
    """The seat to call may bid at all: it has not passed, did not say wachten, holds
    fewer than three aces (so no Troel is due), and the auction goes on."""
    return (~seat_passed & ~tracked("waited") & ((hand & _ALL_ACES).count < 3)
            & ~auction_over)


def _over(level: int, bid_level: int, *, accepted: bool = False) -> Expr:
    """A bid of ``bid_level`` by a seat free to bid, over a standing bid of ``level`` it
    does not hold (accepted or not, for a Vraag)."""
    return (standing.exists & (standing.bid.level == level) & ~seat_holds
            & (standing.accepted if accepted else ~standing.accepted)
            & _free_to_bid() & _bids(bid_level))


def _strength(i: int) -> Expr:
    """How strongly the card at position ``i`` of a complete trick stands in it, by
    WZ-PLAY-3: a trump above any card of the led suit, which stands above any other card
    (which cannot win); within a suit by the seed's rank order."""
    c = played_card(i)
    return if_then_else(c.suit == trump, 40 + _SEED_RANK[c],
                        if_then_else(c.suit == played_card(0).suit, 20 + _SEED_RANK[c], 0))


def _tricks(*per_seat: int) -> Expr:
    return all_of(*(tricks_won(k) == n for k, n in enumerate(per_seat)))


def _scores(*per_seat: int) -> Expr:
    """The seat scored scores its number of ``per_seat``."""
    out: Expr = const(per_seat[-1])
    for k in range(len(per_seat) - 2, -1, -1):
        out = if_then_else(seat == k, per_seat[k], out)
    return score_of(seat) == out


def _single(level: int, declarer_seat: int, won: tuple[int, ...], paid: tuple[int, ...]
            ) -> tuple[Expr, Expr]:
    """A contract of ``level`` declared by one seat alone, the tricks ``won`` by North,
    East, South and West: the scores ``paid``."""
    others = [k for k in range(PLAYERS) if k != declarer_seat]
    return (all_of(_level(level), declarer == declarer_seat, declarer_partner == declarer_seat,
                   *(~declares(k) for k in others), _tricks(*won)),
            _scores(*paid))


def _pair(level: int, pair: tuple[int, int], won: tuple[int, ...], paid: tuple[int, ...]
          ) -> tuple[Expr, Expr]:
    """A contract of ``level`` declared by ``pair[0]`` with ``pair[1]`` his partner."""
    return (all_of(_level(level), declarer == pair[0], declarer_partner == pair[1],
                   _tricks(*won)), _scores(*paid))


def _joined(level: int, seats: tuple[int, ...], won: tuple[int, ...], paid: tuple[int, ...]
            ) -> tuple[Expr, Expr]:
    """A contract of ``level`` declared at once by ``seats``, the first its first bidder."""
    return (all_of(_level(level), declarer == seats[0], declarer_partner == seats[0],
                   *(declares(k) if k in seats else ~declares(k) for k in range(PLAYERS)),
                   _tricks(*won)), _scores(*paid))


# the digest's worked examples (section 2), North declaring, South his partner: the tricks
# of North, East, South, West and the net scores
SCORE_CASES = (
    _pair(_VRAAG, (NORTH, SOUTH), (4, 3, 4, 2), (2, -2, 2, -2)),        # 8 tricks: 1
    _pair(_VRAAG, (NORTH, SOUTH), (5, 1, 5, 2), (6, -6, 6, -6)),        # 10 tricks: 1 + 2
    _pair(_VRAAG, (NORTH, SOUTH), (7, 0, 6, 0), (24, -24, 24, -24)),    # 13: (1 + 5) x 2
    _pair(_VRAAG, (NORTH, SOUTH), (4, 3, 3, 3), (-4, 4, -4, 4)),        # 7 tricks: 1 + 1
    _pair(_TROEL, (NORTH, SOUTH), (5, 2, 5, 1), (12, -12, 12, -12)),    # 10 tricks: 2 + 2x2
    _pair(_TROEL, (NORTH, SOUTH), (7, 0, 6, 0), (48, -48, 48, -48)),    # 13: (2 + 2x5) x 2
    _single(_SOLO, NORTH, (5, 3, 3, 2), (3, -1, -1, -1)),               # 5 tricks: 1
    _single(_SOLO, NORTH, (3, 4, 3, 3), (-9, 3, 3, 3)),                 # 3 tricks: 1 + 2
    _single(_SOLO, NORTH, (13, 0, 0, 0), (54, -18, -18, -18)),          # 13: (1 + 8) x 2
    _single(_ABONDANCE, NORTH, (9, 2, 1, 1), (24, -8, -8, -8)),         # 9 or more: 8
    _single(_ABONDANCE, NORTH, (8, 2, 2, 1), (-24, 8, 8, 8)),
    _single(_SLIM, NORTH, (13, 0, 0, 0), (72, -24, -24, -24)),          # 24
    _single(_SLIM, NORTH, (12, 1, 0, 0), (-72, 24, 24, 24)),
    _single(_PICCOLO, NORTH, (1, 4, 4, 4), (18, -6, -6, -6)),          # exactly 1: 6
    _single(_PICCOLO, NORTH, (0, 5, 4, 4), (-18, 6, 6, 6)),            # none is no Piccolo
    _single(_MISERIE, NORTH, (0, 5, 4, 4), (30, -10, -10, -10)),       # 10
    _single(_OP_TAFEL, NORTH, (1, 4, 4, 4), (-48, 16, 16, 16)),        # 16, lost
)
# the rule as written (WZ-SCORE-5): two misère declarers, North making it and East
# failing, each settled against the other three; the table of worked examples says
# North +30, East -30 (the variant declarers_settle_once)
SEVERAL_CASES = (
    _joined(_MISERIE, (NORTH, EAST), (0, 3, 5, 5), (40, -40, 0, 0)),
    _joined(_MISERIE, (NORTH, EAST), (0, 0, 6, 7), (20, 20, -20, -20)),
    _joined(_MISERIE, (NORTH, EAST), (2, 3, 4, 4), (-20, -20, 20, 20)),
    _joined(_PICCOLO, (NORTH, SOUTH), (1, 6, 2, 4), (24, 0, -24, 0)),
)
SETTLED_ONCE_CASES = (
    _joined(_MISERIE, (NORTH, EAST), (0, 3, 5, 5), (30, -30, 0, 0)),
    _joined(_MISERIE, (NORTH, EAST), (0, 0, 6, 7), (20, 20, -20, -20)),
    _joined(_MISERIE, (NORTH, EAST), (2, 3, 4, 4), (-20, -20, 20, 20)),
    _joined(_PICCOLO, (NORTH, SOUTH), (1, 6, 2, 4), (18, 0, -18, 0)),
)
# [seed] doubling for all 13 tricks only in Vraag with meegaan, Solo and Troel; never in
# Abondance, Abondance in troef (8), Miserie or Solo slim; each declarer's value at least
# its base: a failing Vraag costs each of the pair 2 from each opponent at least
DOUBLING_CASES = (
    _single(_IN_TROEF, NORTH, (13, 0, 0, 0), (24, -8, -8, -8)),
    _single(_ABONDANCE, NORTH, (13, 0, 0, 0), (24, -8, -8, -8)),
    _pair(_VRAAG, (NORTH, EAST), (7, 6, 0, 0), (24, 24, -24, -24)),
    _pair(_TROEL, (NORTH, WEST), (6, 0, 0, 7), (48, -48, -48, 48)),
    _single(_SOLO, NORTH, (12, 1, 0, 0), (24, -8, -8, -8)),
)
# the base values of the seed's table, for a declarer alone and for a pair
_BASES = {_PICCOLO: 6, _SOLO: 1, _ABONDANCE: 8, _IN_TROEF: 8, _MISERIE: 10, _OP_TAFEL: 16,
          _SLIM: 24}
_PAIR_BASES = {_VRAAG: 1, _TROEL: 2}


def _won_or_lost(who: Expr) -> Expr:
    """What a seat won or lost, without its sign."""
    return if_then_else(score_of(who) >= 0, score_of(who), -score_of(who))


_ALONE_ONLY = (declarer_partner == declarer) & all_of(
    *(implies(declares(k), declarer == k) for k in range(PLAYERS)))
BASE_CASES = tuple(
    (_level(level) & _ALONE_ONLY, _won_or_lost(declarer) >= 3 * base)
    for level, base in _BASES.items()) + tuple(
    (_level(level) & (declarer_partner != declarer), _won_or_lost(declarer) >= 2 * base)
    for level, base in _PAIR_BASES.items()) + (
    # a failing Vraag costs each of the pair at least 2 from each opponent
    (_level(_VRAAG) & (declarer_partner != declarer)
     & (tricks_won(declarer) + tricks_won(declarer_partner) < 8),
     score_of(declarer) <= -4),
)


def _legal_over(level: int, allowed: tuple[int, ...], accepted: bool = False) -> Expr:
    """Over another seat's ``level``, exactly the bids ``allowed`` may be made by a seat
    free to bid, of the nine."""
    return all_of(*(implies(_over(level, b, accepted=accepted),
                            legal_call if b in allowed else ~legal_call)
                    for b in range(1, 10)))


def _trick_led(suit: Suit, trumps: Suit | None) -> Expr:
    return ~is_leading & (led_suit == suit) & (trump == (no_suit if trumps is None else trumps))


_TROEL_HANDS = (
    # three aces: the fourth's holder is the partner, its suit trumps, and he leads it
    ("AS AH AD", "AC", Suit.CLUBS), ("AS AH AC", "AD", Suit.DIAMONDS),
    ("AS AD AC", "AH", Suit.HEARTS), ("AH AD AC", "AS", Suit.SPADES),
)

# North bids a Troel with the aces ``held`` (the holding as dealt), the four with the ♥K
# but not the ♥Q: his partner and trumps, and what the partner may lead to trick 1
_FOUR_WITH_KING = (_level(_TROEL) & (declarer == NORTH)
                   & ((dealt_hand(NORTH) & _cards("AS AH AD AC KH")).count == 5)
                   & ~dealt_hand(NORTH).holds(Card.parse("QH")))
TROEL_CASES = (
    *((_level(_TROEL) & (declarer == NORTH) & ((dealt_hand(NORTH) & _ALL_ACES) == _cards(held)),
       all_of(dealt_hand(declarer_partner).holds(Card.parse(ace)), declarer_partner != NORTH,
              trump == suit))
      for held, ace, suit in _TROEL_HANDS),
    (_FOUR_WITH_KING, all_of(dealt_hand(declarer_partner).holds(Card.parse("QH")),
                             declarer_partner != NORTH, trump == Suit.HEARTS)),
)
TROEL_LEAD_CASES = (
    *((_level(_TROEL) & (declarer == NORTH) & (trick_number == 1) & is_leading
       & ((dealt_hand(NORTH) & _ALL_ACES) == _cards(held)) & hand.holds(Card.parse(ace)),
       legal_cards == _cards(ace))
      for held, ace, _suit in _TROEL_HANDS),
    (_FOUR_WITH_KING & (trick_number == 1) & is_leading & hand.holds(Card.parse("QH")),
     legal_cards == _cards("QH")),
)
# [seed] WZ-PLAY-2, spades led and hearts trumps: follow suit; void, any card
LEGAL_CASES = (
    (_trick_led(Suit.SPADES, Suit.HEARTS) & ((hand & cards_of(Suit.SPADES)) == _cards("2S"))
     & hand.holds(Card.parse("AH")),
     legal_cards.holds(Card.parse("2S")) & ~legal_cards.holds(Card.parse("AH"))),
    (_trick_led(Suit.SPADES, Suit.HEARTS) & (hand & cards_of(Suit.SPADES)).is_empty
     & hand.holds(Card.parse("2H")) & hand.holds(Card.parse("AC")),
     legal_cards.holds(Card.parse("2H")) & legal_cards.holds(Card.parse("AC"))),
)

FACTS = (
    Property(
        id="deal.dealing_seen",
        text="West deals: the 1st to 4th cards of the pack go to North on his left, the 5th "
        "to 8th to East, the 9th to 12th to South, the 13th to 16th to West; then 4 each "
        "again; then 5 each, the 33rd to 37th to North and the 48th to 52nd to West, the "
        "52nd and last the turn-up: 13 cards each.  North deals next; after a deal thrown in "
        "West deals again.  North deals: East receives first and North the turn-up.",
        scope=Scope.DEAL,
        holds=all_of(
            implies(dealer == WEST, all_of(
                *(receives(k) == (k - 1) // 4 % 4 for k in range(1, 33)),
                *(receives(k) == (k - 33) // 5 for k in range(33, 53)),
                next_dealer == NORTH, no_bid_redealer == WEST)),
            implies(dealer == NORTH, all_of(receives(1) == EAST, receives(52) == NORTH,
                                            next_dealer == EAST, no_bid_redealer == NORTH))),
        covers=("deal.packets", "deal.turn_up", "setup.next_dealer", "auction.all_pass"),
        source=seed("WZ-DEAL-2", "the deal passing left, the same dealer after a throw-in: "
                    "WZ-SETUP-3", also=("WZ-DEAL-3", "WZ-SETUP-3", "WZ-AUC-14")),
    ),
    Property(
        id="deal.turn_up_seen",
        text="The turn-up is one of the dealer's thirteen cards and of nobody else's.",
        scope=Scope.OUTCOME,
        holds=all_of(*(implies(dealer == d, all_of(*(
            dealt_hand(k).holds(turn_up) if k == d else ~dealt_hand(k).holds(turn_up)
            for k in range(PLAYERS)))) for d in range(PLAYERS))),
        covers=("deal.turn_up", "deal.dealer_takes_turn_up"),
        source=seed("WZ-DEAL-3", also=("WZ-CON-1",)),
    ),
    Property(
        id="auction.forehand_calls_first",
        text="West deals: North, on his left, calls first; North deals: East.",
        scope=Scope.CALL,
        holds=implies(dealer == WEST, first_to_call == NORTH)
        & implies(dealer == NORTH, first_to_call == EAST),
        covers=("auction.turns",),
        source=seed("WZ-AUC-1", also=("WZ-SETUP-2",)),
    ),
    Property(
        id="auction.ladder_seen",
        text="A player free to bid (he has not passed, said wachten or holds three aces) "
        "may bid over another's bid he has not joined: Vraag nobody joined, meegaan "
        "(Vraag), Piccolo, Abondance, Miserie, Miserie op tafel, Solo slim, but not Solo "
        "or Abondance in troef; Vraag "
        "with meegaan, the same but meegaan; Piccolo, Piccolo again and everything above but "
        "Solo and Abondance in troef; Solo, Abondance and above, but Abondance in troef; "
        "Abondance, Abondance in troef and above; Abondance in troef, Miserie and above; "
        "Miserie, Miserie again, Miserie op tafel, Solo slim; Troel, Miserie op tafel and "
        "Solo slim; Miserie op tafel, the same again and Solo slim; Solo slim, nothing.",
        scope=Scope.CALL,
        holds=all_of(
            _legal_over(_VRAAG, (1, 2, 4, 6, 8, 9)),
            _legal_over(_VRAAG, (2, 4, 6, 8, 9), accepted=True),
            _legal_over(_PICCOLO, (2, 4, 6, 8, 9)),
            _legal_over(_SOLO, (4, 6, 8, 9)),
            _legal_over(_ABONDANCE, (5, 6, 8, 9)),
            _legal_over(_IN_TROEF, (6, 8, 9)),
            _legal_over(_MISERIE, (6, 8, 9)),
            _legal_over(_TROEL, (8, 9)),
            _legal_over(_OP_TAFEL, (8, 9)),
            _legal_over(_SLIM, ())),
        covers=("auction.contracts", "auction.bid_order", "auction.overcall", "auction.meegaan",
                "auction.same_bid", "auction.abondance_in_troef", "auction.solo"),
        source=seed("WZ-AUC-3", "the ladder of the digest", also=(
            "WZ-AUC-5", "WZ-AUC-9", "WZ-AUC-10")),
    ),
    Property(
        id="auction.opening_seen",
        text="The first bid may be any contract but Solo, Abondance in troef and Troel (for a "
        "player with fewer than three aces); a player with three aces bids Troel at his "
        "first turn, and only then, also over a Piccolo or a Miserie; over a Miserie op "
        "tafel he announces it, and may not bid it; with two aces never.  Nothing but the "
        "nine contracts is ever bid.",
        scope=Scope.CALL,
        holds=all_of(
            *(implies(~standing.exists & _free_to_bid() & _bids(b),
                      legal_call if b in (1, 2, 4, 6, 8, 9) else ~legal_call)
              for b in range(1, 10)),
            implies(~standing.exists & ~seat_passed & (seat_calls == 0) & ~auction_over
                    & ((hand & _ALL_ACES).count == 3) & call.is_bid,
                    legal_call == (call.bid.level == _TROEL)),
            implies(~standing.exists & ~seat_passed & (seat_calls == 0) & ~auction_over
                    & ((hand & _ALL_ACES).count == 4) & ~call.is_bid, ~legal_call),
            implies(_bids(_TROEL) & ((hand & _ALL_ACES).count == 2), ~legal_call),
            # at his first turn over a lower bid (Piccolo, Miserie) only Troel; over a
            # higher one (Miserie op tafel) he announces it, and it is no bid
            *(implies(standing.exists & (standing.bid.level == b) & (standing.bidder != seat)
                      & ~seat_passed & (seat_calls == 0) & ~auction_over
                      & ((hand & _ALL_ACES).count == 3),
                      legal_call == (call.is_bid & (call.bid.level == _TROEL)))
              for b in (_PICCOLO, _MISERIE)),
            implies(standing.exists & (standing.bid.level == _OP_TAFEL) & ~seat_passed
                    & (seat_calls == 0) & ~auction_over & ((hand & _ALL_ACES).count == 3)
                    & ~tracked("troel_announced"),
                    may_announce("troel_held") & announcing("troel_held", "troel_announced")),
            implies(standing.exists & (standing.bid.level == _OP_TAFEL) & _bids(_TROEL),
                    ~legal_call),
            implies(call.is_bid & legal_call,
                    (call.bid.level >= _VRAAG) & (call.bid.level <= _SLIM))),
        covers=("auction.troel_aces", "auction.troel_compulsory", "auction.solo",
                "auction.abondance_in_troef", "auction.troel_announced", "auction.troel_said"),
        source=seed("WZ-AUC-11", also=("WZ-AUC-8", "WZ-AUC-9")),
    ),
    Property(
        id="auction.solo_seen",
        text="Over his own Vraag that nobody joined, the asker may bid Solo (or anything "
        "higher but Abondance in troef); over his Vraag with meegaan, not Solo; another "
        "player never Solo over it.",
        scope=Scope.CALL,
        holds=all_of(
            implies(standing.exists & (standing.bid.level == _VRAAG) & ~standing.accepted
                    & (standing.bidder == seat) & _free_to_bid() & _bids(_SOLO), legal_call),
            implies(standing.exists & (standing.bid.level == _VRAAG) & standing.accepted
                    & (standing.bidder == seat) & _bids(_SOLO), ~legal_call),
            implies(standing.exists & (standing.bidder != seat) & _bids(_SOLO), ~legal_call)),
        covers=("auction.solo",),
        source=seed("WZ-AUC-8", also=("WZ-AUC-7",)),
    ),
    Property(
        id="auction.wachten_seen",
        text="West deals: North may say wachten at his first call, with fewer than three "
        "aces (with three he bids Troel), and nobody else, nor North later; after it he "
        "passes, then may say meegaan over another's Vraag and nothing else; a player who "
        "passed without it may not say meegaan.",
        scope=Scope.CALL,
        holds=all_of(
            implies((dealer == WEST) & (seat == NORTH) & (calls_made == 0) & ~tracked("waited")
                    & ((hand & _ALL_ACES).count < 3), may_announce("wachten")),
            implies((dealer == WEST) & (seat != NORTH), ~may_announce("wachten")),
            implies((hand & _ALL_ACES).count == 3, ~may_announce("wachten")),
            implies(seat_calls > 0, ~may_announce("wachten")),
            implies((dealer == WEST) & (seat == NORTH) & tracked("waited") & ~auction_over
                    & ((hand & _ALL_ACES).count < 3) & ~standing.exists & call.is_bid,
                    ~legal_call),
            implies((dealer == WEST) & (seat == NORTH) & tracked("waited") & seat_passed
                    & ((hand & _ALL_ACES).count < 3) & ~auction_over & standing.exists
                    & (standing.bid.level == _VRAAG) & ~standing.accepted
                    & (standing.bidder != seat), legal_call == (~call.is_bid | _bids(_VRAAG))),
            implies(seat_passed & ~tracked("waited") & _bids(_VRAAG), ~legal_call),
            implies(may_announce("wachten"), announcing("wachten", "waited"))),
        covers=("auction.wachten", "auction.waited", "auction.after_wachten",
                "auction.pass_final"),
        source=seed("WZ-AUC-6", also=("WZ-AUC-2",)),
    ),
    Property(
        id="auction.ends_seen",
        text="Over a Vraag nobody joined three passes in a row do not end the auction (the "
        "asker speaks again) and four do; over any other bid it ends once every player but "
        "its holders has passed, and not before; with no bid, once all four have passed.",
        scope=Scope.CALL,
        holds=all_of(
            implies(standing.exists & (standing.bid.level == _VRAAG) & ~standing.accepted
                    & (passes_in_row == 3), ~auction_over),
            implies(standing.exists & (standing.bid.level == _VRAAG) & ~standing.accepted
                    & (passes_in_row == 4), auction_over),
            *(implies(standing.exists & (standing.bid.level == b) & others_passed, auction_over)
              for b in (2, 6, 8, 9)),
            implies(standing.exists & (standing.bid.level == _VRAAG) & standing.accepted
                    & others_passed, auction_over),
            implies(standing.exists & (standing.bid.level == _SOLO) & ~others_passed,
                    ~auction_over),
            implies(~standing.exists & others_passed, auction_over),
            implies(~standing.exists & ~others_passed, ~auction_over)),
        covers=("auction.turns",),
        unless=("passes_in_a_row",),
        source=assumption("WZ-AUC-12", "digest G15", also=("WZ-AUC-7",)),
    ),
    Property(
        id="auction.passes_in_a_row_seen",
        text="With passes in a row: over a Miserie or a Vraag with meegaan three passes in "
        "a row end the auction and two do not, even when every other player has passed; "
        "over a Vraag nobody joined three do not and four do; a holder may not bid his "
        "Miserie again.",
        scope=Scope.CALL,
        holds=all_of(
            *(implies(standing.exists & (standing.bid.level == b) & (passes_in_row == 3)
                      & (standing.accepted if b == _VRAAG else ~standing.accepted), auction_over)
              for b in (_VRAAG, _MISERIE)),
            implies(standing.exists & (standing.bid.level == _MISERIE) & (passes_in_row == 2)
                    & others_passed, ~auction_over),
            implies(standing.exists & (standing.bid.level == _VRAAG) & ~standing.accepted
                    & (passes_in_row == 3), ~auction_over),
            implies(standing.exists & (standing.bid.level == _VRAAG) & ~standing.accepted
                    & (passes_in_row == 4), auction_over),
            implies(standing.exists & (standing.bid.level == _MISERIE) & seat_holds
                    & _bids(_MISERIE), ~legal_call)),
        covers=("auction.turns", "auction.overcall"),
        under=("passes_in_a_row",),
        source=assumption("WZ-AUC-12", "digest G15", also=("WZ-AUC-10",)),
    ),
    Property(
        id="auction.played_seen",
        text="A Vraag with meegaan and every other contract is played: no rule throws it "
        "in (a Vraag nobody joined never reaches the play: it is thrown in at once, and the "
        "same dealer deals again).",
        scope=Scope.PLAY,
        holds=all_of(
            implies(_level(_VRAAG) & (declarer_partner != declarer), ~deal_void),
            *(implies(_level(b), ~deal_void) for b in range(2, 10))),
        covers=("auction.vraag_alone",),
        source=seed("WZ-AUC-14", also=("WZ-AUC-13",)),
    ),
    Property(
        id="contract.trumps_seen",
        text="In Vraag, Solo and Abondance in troef the turn-up's suit is trumps, say the 7♦ "
        "turned: diamonds; Piccolo, Miserie and Miserie op tafel have none.",
        scope=Scope.PLAY,
        holds=all_of(
            *(implies((turn_up == Card.parse(f"7{x}")) & _level(b), trump == Suit.parse(x))
              for x in "SHDC" for b in (_VRAAG, _SOLO, _IN_TROEF)),
            *(implies(_level(b), trump == no_suit) for b in (_PICCOLO, _MISERIE, _OP_TAFEL))),
        covers=("contract.turned_trumps", "contract.no_trumps"),
        unless=("piccolo_with_trumps",),
        source=seed("WZ-AUC-4", also=("WZ-CON-3", "WZ-DEAL-2")),
    ),
    Property(
        id="contract.named_trumps_seen",
        text="In Abondance and Solo slim the suit the declarer named is trumps, say hearts "
        "named: hearts, whatever the turn-up.",
        scope=Scope.PLAY,
        holds=all_of(
            *(implies(_level(b) & (tracked(NAMED, T.SUIT) == Suit.parse(x)),
                      trump == Suit.parse(x))
              for x in "SHDC" for b in (_ABONDANCE, _SLIM))),
        covers=("contract.name_trumps", "contract.named_trumps", "contract.trumps_named"),
        source=seed("WZ-CON-2"),
    ),
    Property(
        id="contract.troel_seen",
        text="North bids Troel holding ♠A ♥A ♦A: the holder of the ♣A is his partner and "
        "clubs are trumps (so for each ace he lacks); holding all four aces and the ♥K but "
        "not the ♥Q, the holder of the ♥Q, and hearts are trumps.",
        scope=Scope.OUTCOME,
        holds=all_of(*(_case(*c) for c in TROEL_CASES)),
        covers=("contract.troel_partner", "contract.troel_trumps"),
        source=seed("WZ-CON-5", also=("WZ-CON-6",)),
    ),
    Property(
        id="play.troel_lead_seen",
        text="In a Troel the partner leads to the first trick: North holding ♠A ♥A ♦A, the "
        "♣A and nothing else (so for each ace he lacks); holding all four aces and the ♥K "
        "but not the ♥Q, the ♥Q.",
        scope=Scope.PLAY,
        holds=all_of(implies(_level(_TROEL), first_leader == declarer_partner),
                     *(_case(*c) for c in TROEL_LEAD_CASES)),
        covers=("play.troel_lead", "play.first_lead"),
        source=seed("WZ-CON-5", also=("WZ-CON-6", "WZ-PLAY-1")),
    ),
    Property(
        id="play.first_lead_seen",
        text="West deals: North leads to the first trick, but in a Troel the partner and in "
        "Solo slim the declarer.",
        scope=Scope.PLAY,
        holds=all_of(
            *(implies((dealer == WEST) & _level(b), first_leader == NORTH)
              for b in (1, 2, 3, 4, 5, 6, 8)),
            implies(_level(_TROEL), first_leader == declarer_partner),
            implies(_level(_SLIM), first_leader == declarer)),
        covers=("play.first_lead",),
        source=seed("WZ-PLAY-1"),
    ),
    Property(
        id="play.legal_cards_seen",
        text="Spades led: holding the ♠2 and the ♥A, only the ♠2; void in spades with the "
        "♥2, hearts trumps, and the ♣A, either (no duty to trump).",
        scope=Scope.PLAY,
        holds=all_of(*(_case(*c) for c in LEGAL_CASES)),
        covers=("play.follow_suit",),
        source=source("WZ-PLAY-2", "the seed's 'as in bridge' (G3)"),
    ),
    Property(
        id="play.trick_winner_seen",
        text="Every trick is won by its highest trump, or without one by the highest card of "
        "the suit led, ranking A K Q J 10 9 8 7 6 5 4 3 2; a card of another suit never "
        "wins.",
        scope=Scope.TRICK,
        holds=all_of(*(
            if_then_else(trick_winner == 0, _strength(0), if_then_else(
                trick_winner == 1, _strength(1), if_then_else(
                    trick_winner == 2, _strength(2), _strength(3)))) >= _strength(i)
            for i in range(PLAYERS))),
        covers=("deck.rank_order", "play.trumps_win", "play.led_suit_wins"),
        source=seed("WZ-PLAY-3", also=("WZ-DECK-1",)),
    ),
    Property(
        id="play.thirteen_tricks",
        text="Thirteen tricks are played, one each: they add up to 13, and count 13 in all, "
        "one each (no card counts points).",
        scope=Scope.OUTCOME,
        holds=all_of(tricks_won(0) + tricks_won(1) + tricks_won(2) + tricks_won(3) == 13,
                     points_won(0) + points_won(1) + points_won(2) + points_won(3) == 13),
        covers=("deal.packets", "play.first_lead", "deck.trick_value"),
        source=seed("WZ-DECK-1", "13 cards each", also=("WZ-DEAL-2",)),
    ),
    Property(
        id="setup.session_seen",
        text="A session is twenty deals unless the players agree otherwise, five for each "
        "dealer: it goes on after the 19th deal and ends after the 20th.",
        scope=Scope.MATCH,
        holds=implies(deals_played == 19, ~match_over) & implies(deals_played == 20, match_over),
        covers=("setup.session_length",),
        source=assumption("WZ-SETUP-3", "digest G17: a multiple of four"),
    ),
    Property(
        id="score.worked_examples",
        text="The digest's worked examples, North declaring (with South where he has a "
        "partner): Vraag with meegaan, 8 tricks +2 each, 10 +6, 13 +24, 7 -4; Troel 10 "
        "+12, 13 +48; Solo 5 +3 (others -1), 3 -9, 13 +54; Abondance made +24, failed "
        "-24; Solo slim +72 or -72; Piccolo with 1 trick +18, with none -18; Miserie +30; "
        "Miserie op tafel with a trick -48.",
        scope=Scope.OUTCOME,
        holds=all_of(*(_case(*c) for c in SCORE_CASES)),
        covers=("score.declarer_alone", "score.partners"),
        source=seed("WZ-SCORE-1", "the digest's worked examples (section 2)",
                    also=("WZ-SCORE-2", "WZ-SCORE-3", "WZ-SCORE-4", "WZ-CON-7")),
    ),
    Property(
        id="score.several_declarers_seen",
        text="North and East both bid Miserie: North taking no trick and East three, North "
        "+40, East -40, South and West 0 (each settled against the other three); both "
        "making it, +20 each and -20 each for the others; both failing, -20 and +20.  North "
        "and South in Piccolo, North with one trick and South two: +24, 0, -24, 0.",
        scope=Scope.OUTCOME,
        holds=all_of(*(_case(*c) for c in SEVERAL_CASES)),
        covers=("score.several_declarers", "auction.same_bid"),
        unless=("declarers_settle_once",),
        source=seed("WZ-SCORE-5", also=("WZ-PLAY-4", "WZ-AUC-10")),
    ),
    Property(
        id="score.settled_once_seen",
        text="With the digest's worked table: North making a Miserie and East failing it, "
        "North +30, East -30, South and West 0; otherwise as the rule as written.",
        scope=Scope.OUTCOME,
        holds=all_of(*(_case(*c) for c in SETTLED_ONCE_CASES)),
        covers=("score.several_declarers",),
        under=("declarers_settle_once",),
        source=seed("WZ-SCORE-5", "the digest's table of worked examples"),
    ),
    Property(
        id="score.zero_sum_several",
        text="Where several declare at once, North and East say, the four scores still add "
        "up to nothing.",
        scope=Scope.OUTCOME,
        holds=implies(declares(NORTH) & declares(EAST),
                      score_of(0) + score_of(1) + score_of(2) + score_of(3) == 0),
        covers=("score.several_declarers", "score.zero_sum"),
        source=seed("WZ-SCORE-5", also=("WZ-SCORE-3",)),
    ),
    Property(
        id="score.doubling_seen",
        text="All 13 tricks double the value only in Vraag with meegaan, Solo and Troel: "
        "North taking all 13 in Abondance or Abondance in troef, +24 (not doubled); North "
        "and East in Vraag, +24 each; North and West in Troel, +48 each; a Solo of 12 tricks "
        "+24, undoubled.",
        scope=Scope.OUTCOME,
        holds=all_of(*(_case(*c) for c in DOUBLING_CASES)),
        covers=("score.declarer_alone", "score.partners"),
        source=seed("WZ-SCORE-2"),
    ),
    Property(
        id="score.at_least_base",
        text="A declarer wins or loses at least his contract's base from each opponent: "
        "Piccolo 6, Solo 1, Abondance 8, Abondance in troef 8, Miserie 10, Miserie op tafel "
        "16, Solo slim 24 alone against three; Vraag 1 and Troel 2 for a pair against two; "
        "a failing Vraag costs each of the pair 4 or more.",
        scope=Scope.OUTCOME,
        holds=all_of(*(_case(*c) for c in BASE_CASES)),
        covers=("score.declarer_alone", "score.partners", "score.several_declarers"),
        source=seed("WZ-SCORE-1", also=("WZ-SCORE-3", "WZ-SCORE-4")),
    ),
    Property(
        id="setup.sides_seen",
        text="Only a Vraag with meegaan and a Troel have a partner, another seat; several "
        "seats declare only a Piccolo, a Miserie or a Miserie op tafel.",
        scope=Scope.OUTCOME,
        holds=all_of(
            implies(declarer_partner != declarer, _level(_VRAAG) | _level(_TROEL)),
            implies(_level(_TROEL), declarer_partner != declarer),
            *(implies(declares(k) & (declarer != k),
                      _level(_PICCOLO) | _level(_MISERIE) | _level(_OP_TAFEL))
              for k in range(PLAYERS))),
        covers=("setup.sides", "auction.meegaan", "contract.troel_partner", "auction.same_bid"),
        source=seed("WZ-SETUP-1", also=("WZ-AUC-13",)),
    ),
)

GAME = Game(
    name="Wiezen",
    key="wiezen",
    ref_prefix="WZ",
    aliases=("belgian_whist", "belgian whist", "wiezen_turned_trump"),
    doc=__doc__ or "",
    rules=(
        SEATS, SIDES, CLOCKWISE, NEXT_DEALER, SESSION, SESSION_LENGTH,
        PACK, RANKS, TRICK_VALUE,
        GATHERED, PACKETS, TURN_UP, TAKES_TURN_UP,
        LADDER, BID_ORDER, TURNS, PASS_FINAL, OVERCALL, MEEGAAN, WACHTEN, WAITED_FLAG,
        AFTER_WACHTEN, SOLO_RULE, IN_TROEF, SAME_BID, TROEL_ACES, TROEL_FIRST,
        TROEL_OUTRANKED, TROEL_FLAG, DECLARER, ALL_PASS, LONE_ASKER,
        NO_TRUMPS, TURNED_TRUMPS, TROEL_TRUMPS, NAME_TRUMPS, TRUMPS_NAMED, NAMED_TRUMPS,
        TROEL_PARTNER, TROEL_TARGET, LAY_OPEN,
        FIRST_LEAD, TROEL_LEAD, FOLLOW, TRUMPS_WIN, LED_WINS, EACH_OWN_TRICKS,
        SINGLE, PARTNERS, SEVERAL_SETTLED, ZERO_SUM,
    ),
    variants=VARIANTS,
    properties=FACTS,
)
