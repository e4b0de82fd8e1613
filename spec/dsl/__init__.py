"""The rules language: the only vocabulary a game module imports.

A game is a sequence of :class:`Rule` objects, each with a stable id, one sentence, a
source and a construct saying what the rule does.  Constructs hold expressions built from
the context values below with Python operators (``card.suit == led_suit``); expressions
are data and refuse to act as Python booleans.

Context values (what a rule can read) depend on where it is judged:

* a **call** in the auction: ``seat``, ``dealer``, ``hand``, ``call``, ``standing``,
  ``calls_made``, ``passes_in_row``, ``seat_calls``, ``seat_passed``, ``seat_holds`` (the seat
  made, joined or accepted the standing bid), ``others_passed`` (every seat but the
  holders of the standing bid has passed);
* a **card about to be played**: ``seat``, ``hand``, ``card``, ``is_leading``,
  ``led_suit``, ``trump``, ``trick_number``, ``declared_suit``, ``contract``, ``declarer``,
  ``beating`` (the cards that would win the trick so far);
* a **card played to a trick**: ``card``, ``card_suit``, ``led_suit``, ``trump``, ...;
* a **complete trick**: ``played_card(i)``, ``played_suit(i)``, ``trick_winner``;
* the **end of the play**: ``seat``, ``declarer``, ``contract``, ``points_won(seat)``,
  ``tricks_won(seat)``, ``score_of(seat)``, ``taken(seat)``, ``declarer_partner``,
  ``declares(seat)`` and ``each_declarer(amount)`` (several declarers, each settled on his
  own), ``each_seat(amount)`` (a total over every seat at the table, whatever their number);
* **between actions** (scope STATUS): ``dealer``, ``contract``, ``declarer``, ``trump``,
  ``trick_number``.

In a game that deals a card face up (``TurnUp``), ``turn_up`` is that card and
``turned_suit`` its suit, from the auction on.

Values the game keeps itself (``tracked(name)``, declared by ``Track``) can be read in
every scope but a bid's definition and a single card's strength.

Properties and claims (never the rules, which define them) can also read what the rules
make of a situation: ``legal_call``, ``auction_over``, ``first_to_call``, ``lays_aside``
and ``may_ask_partner`` in a call; ``legal_cards``, ``first_leader``,
``may_announce(name)``, ``announcing(name, tracked)``, ``deal_void`` and ``redealer`` before a card; ``turned_up`` and
``tracked_after(name)`` in a complete trick; of a whole deal played out (scope HISTORY)
``leader_of(k)``, ``winner_of(k)`` and ``caller_of(k)``; of the dealing (scope DEAL)
``dealer``, ``receives(k)``, ``next_dealer`` and ``no_bid_redealer``; and of a match after
a deal (scope MATCH, given ``deals_played``, ``lead_total``, ``trail_total`` and
``games_won``) ``match_over``, ``game_bonus``, ``carries_over`` and ``game_target``.
"""
from __future__ import annotations

from collections.abc import Sequence

from spec.cards import SUITS, Card, CardSet, Deck, Rank, Suit, ranks
from spec.dsl._build import (
    Bid,
    Game,
    Origin,
    Property,
    Rule,
    Source,
    Variant,
    amended,
    assumption,
    seed,
    source,
)
from spec.dsl._constructs import (
    AfterGame,
    AlwaysPlayable,
    Announce,
    GameBonus,
    GameTarget,
    Rubber,
    RubberSettlement,
    TrickScores,
    Decide,
    Option,
    Shuffle,
    GatherAndCut,
    TakeTalon,
    Talon,
    TurnUp,
    TrumpIs,
    LayOpen,
    IdleSeat,
    DropOut,
    AllOut,
    SameBidJoins,
    PartnerHolds,
    HoldBid,
    PartnerAccepts,
    Pot,
    VoidWhen,
    AuctionTurns,
    CardPoints,
    FaceDown,
    MatchTarget,
    Moment,
    PlayableAside,
    ProxyCall,
    SetAside,
    SitsOut,
    Track,
    Update,
    BidOrder,
    CallRule,
    Claim,
    CountsAsSuit,
    DealerRotation,
    DealPackets,
    DeclarationRule,
    DeckIs,
    HighestBidderDeclares,
    Ladder,
    MatchLength,
    MatchOf,
    NameSuit,
    PlayDirection,
    PlayRule,
    RankOrder,
    RecordTricks,
    RedealIfNoBid,
    ScoreRule,
    Seats,
    SidesByContract,
    TrickPlay,
    TrickValue,
    WinningTier,
)
from spec.dsl._nodes import (
    NO_SUIT,
    Awarded,
    LeaderOf,
    WinnerOf,
    WithDealt,
    BidAttr,
    BidField,
    BoolOp,
    CardsOfSuit,
    CardTable,
    Certain,
    Const,
    Ctx,
    DealtHand,
    Dropped,
    Lowest,
    Invited,
    Idle,
    PartnerOf,
    Taken,
    Tracked,
    Expr,
    IfThenElse,
    Implies,
    LegalCall,
    LegalCards,
    Let,
    MayAnnounce,
    Announcing,
    CallerOf,
    Receives,
    IsDeclarer,
    EachDeclarer,
    EachSeat,
    TrackedAfter,
    Op,
    PointsWon,
    Ref,
    ScoreOf,
    Scope,
    SeatAfter,
    Strength,
    T,
    TricksWon,
    Var,
    WonTrick,
    lift,
)
from spec.seats import Direction

# -- context values -----------------------------------------------------------------
seat = Ref(Ctx.SEAT)
dealer = Ref(Ctx.DEALER)
hand = Ref(Ctx.HAND)
card = Ref(Ctx.CARD)
card_suit = Ref(Ctx.CARD_SUIT)
declared_suit = Ref(Ctx.DECLARED)
is_leading = Ref(Ctx.IS_LEADING)
led_suit = Ref(Ctx.LED_SUIT)
trump = Ref(Ctx.TRUMP)
trick_number = Ref(Ctx.TRICK_NUMBER)
position = Ref(Ctx.POSITION)
contract = Ref(Ctx.CONTRACT)
declarer = Ref(Ctx.DECLARER)
declarer_partner = Ref(Ctx.DECLARER_PARTNER)
calls_made = Ref(Ctx.CALLS_MADE)
passes_in_row = Ref(Ctx.PASSES_IN_ROW)
trick_winner = Ref(Ctx.TRICK_WINNER)
points = Ref(Ctx.POINTS)
stage = Ref(Ctx.STAGE)
seat_calls = Ref(Ctx.SEAT_CALLS)
seat_passed = Ref(Ctx.SEAT_PASSED)
bid_this_stage = Ref(Ctx.BID_THIS_STAGE)
by_proxy = Ref(Ctx.PROXY)
auction_over = Ref(Ctx.AUCTION_OVER)
others_passed = Ref(Ctx.OTHERS_PASSED)
seat_holds = Ref(Ctx.SEAT_HOLDS)
turned_up = Ref(Ctx.TURNED_UP)
turn_up = Ref(Ctx.TURN_UP)
turned_suit = turn_up.suit
deal_void = Ref(Ctx.DEAL_VOID)
next_dealer = Ref(Ctx.NEXT_DEALER)
no_bid_redealer = Ref(Ctx.NO_BID_REDEALER)
first_to_call = Ref(Ctx.FIRST_TO_CALL)
deals_played = Ref(Ctx.DEALS_PLAYED)
lead_total = Ref(Ctx.LEAD_TOTAL)
trail_total = Ref(Ctx.TRAIL_TOTAL)
games_won = Ref(Ctx.GAMES_WON)
match_over = Ref(Ctx.MATCH_OVER)
game_bonus = Ref(Ctx.GAME_BONUS)
carries_over = Ref(Ctx.CARRIES_OVER)
game_target = Ref(Ctx.GAME_TARGET)
first_leader = Ref(Ctx.FIRST_LEADER)
talon_taken = Ref(Ctx.TALON_TAKEN)
first_defender = Ref(Ctx.FIRST_DEFENDER)
lays_aside = Ref(Ctx.LAYS_ASIDE)
redealer = Ref(Ctx.REDEALER)
may_ask_partner = Ref(Ctx.MAY_ASK_PARTNER)
aside = Ref(Ctx.ASIDE)
leader = Ref(Ctx.LEADER)
trick_size = Ref(Ctx.TRICK_SIZE)
beating = Ref(Ctx.BEATING)
pot = Ref(Ctx.POT)
legal_cards = LegalCards()
legal_call = LegalCall()
no_suit = Const(None, T.SUIT)


class _Call:
    """The call being judged in the auction."""

    @property
    def is_bid(self) -> Expr:
        return Ref(Ctx.CALL_IS_BID)

    @property
    def bid(self) -> Expr:
        return Ref(Ctx.CALL_BID)

    @property
    def joins(self) -> Expr:
        """The call repeats the standing bid, one the game's ``SameBidJoins`` rule lets
        other seats join."""
        return Ref(Ctx.CALL_JOINS)

    @property
    def accepts(self) -> Expr:
        """The call repeats the standing bid, one the game's ``PartnerAccepts`` rule lets
        another seat accept, by a seat other than its bidder, while nobody has accepted it:
        the seat becomes the bidder's partner."""
        return Ref(Ctx.CALL_ACCEPTS)


class _Standing:
    """The highest bid so far in the auction."""

    @property
    def exists(self) -> Expr:
        return Ref(Ctx.HAS_STANDING)

    @property
    def bid(self) -> Expr:
        return Ref(Ctx.STANDING)

    @property
    def bidder(self) -> Expr:
        return Ref(Ctx.HIGH_BIDDER)

    @property
    def maker(self) -> Expr:
        """The seat that would declare the standing bid: its bidder, or the partner who
        named it for him where a ``ProxyCall`` rule makes the namer declarer."""
        return Ref(Ctx.STANDING_MAKER)

    @property
    def accepted(self) -> Expr:
        """Another seat has accepted the standing bid (``PartnerAccepts``)."""
        return Ref(Ctx.STANDING_ACCEPTED)


class _BidDefinition:
    """A bid while the bid order is defined: its level and the rank of its strain."""

    @property
    def level(self) -> Expr:
        return Ref(Ctx.LEVEL)

    @property
    def strain_rank(self) -> Expr:
        return Ref(Ctx.STRAIN_RANK)


call = _Call()
standing = _Standing()
bid = _BidDefinition()


def lowest(cards: object) -> Expr:
    """For each suit, the lowest-ranked card of ``cards`` in that suit: with cards of one
    suit, its lowest card."""
    return Lowest(lift(cards, T.CARDS))


def cards_of(suit: object) -> Expr:
    """Every card of a suit (a suit expression or a Suit)."""
    return CardsOfSuit(lift(suit, T.SUIT))


def const(value: object) -> Expr:
    """A constant: ``const(True)``, ``const(DECK.full)``, a number, a suit or a card."""
    return lift(value)


def cards(*items: Card) -> Expr:
    """A constant set of cards."""
    return Const(frozenset(items), T.CARDS)


def if_then_else(cond: object, then: object, orelse: object) -> Expr:
    """``then`` when ``cond`` holds, otherwise ``orelse``."""
    c = lift(cond, T.BOOL)
    a = then if isinstance(then, Expr) else lift(then, orelse.type if isinstance(orelse, Expr) else None)
    b = lift(orelse, a.type)
    return IfThenElse(c, a, b)


def all_of(*conds: object) -> Expr:
    """Every condition holds."""
    return BoolOp(Op.AND, tuple(lift(c, T.BOOL) for c in conds))


def any_of(*conds: object) -> Expr:
    """At least one condition holds."""
    return BoolOp(Op.OR, tuple(lift(c, T.BOOL) for c in conds))


def implies(cond: object, then: object) -> Expr:
    return Implies(lift(cond, T.BOOL), lift(then, T.BOOL))


def seat_after(s: object, steps: int = 1) -> Expr:
    """The seat that plays ``steps`` turns after ``s``."""
    return SeatAfter(lift(s, T.SEAT), steps)


def leader_of(trick: object) -> Expr:
    """The seat that led trick ``trick`` of a deal played out (scope: HISTORY)."""
    return LeaderOf(lift(trick, T.INT))


def winner_of(trick: object) -> Expr:
    """The seat that won trick ``trick`` of a deal played out (scope: HISTORY)."""
    return WinnerOf(lift(trick, T.INT))


def announcing(name: str, tracked: str, type: T = T.BOOL) -> Expr:
    """The value the tracked ``tracked`` would take were the seat to act to make the
    announcement ``name`` now (in a property of the announcement's scope)."""
    if not isinstance(name, str) or not name or not isinstance(tracked, str) or not tracked:
        raise TypeError(f"announcing takes an announcement's name and a tracked value's name, "
                        f"got {name!r}, {tracked!r}")
    return Announcing(name, tracked, type)


def may_announce(name: str) -> Expr:
    """The seat to act may make the announcement ``name`` now (in a property of the
    announcement's scope, CALL or PLAY)."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"may_announce takes an announcement's name, got {name!r}")
    return MayAnnounce(name)


def played_card(i: int) -> Expr:
    """The card at position ``i`` of a complete trick (0 is the lead)."""
    return Ref(Ctx.PLAYED_CARD, i)


def played_suit(i: int) -> Expr:
    """The suit the card at position ``i`` counts as."""
    return Ref(Ctx.PLAYED_SUIT, i)


def played_declared(i: int) -> Expr:
    return Ref(Ctx.PLAYED_DECLARED, i)


def played_face_down(i: int) -> Expr:
    """The card at position ``i`` of a complete trick was played face down."""
    return Ref(Ctx.PLAYED_FACE_DOWN, i)


def partner(s: object) -> Expr:
    """A seat's partner, from the game's partnerships."""
    return PartnerOf(lift(s, T.SEAT))


def declares(s: object) -> Expr:
    """A seat is one of the deal's declarers (several can be: ``SameBidJoins``)."""
    return IsDeclarer(lift(s, T.SEAT))


def each_declarer(amount: object) -> Expr:
    """``amount`` added up over the deal's declarers, ``declarer`` read as each in turn:
    each declarer settled on his own, against the other seats (scope: OUTCOME)."""
    return EachDeclarer(lift(amount, T.INT))


def each_seat(amount: object) -> Expr:
    """``amount`` added up over every seat at the table, ``seat`` read as each in turn: a
    total that names no seat, so a rule holds as written with three players or four
    (scope: OUTCOME)."""
    return EachSeat(lift(amount, T.INT))


def certain(s: object, *, undecided: bool = False) -> Expr:
    """The seat can be sure, from its hand and everything it has seen, that by playing well
    its side wins every remaining trick whatever the others play, its partner included
    (scope: PLAY; the engine decides it by a search over the deals the seat cannot tell
    apart, and where the search cannot decide the answer is ``undecided``)."""
    return Certain(lift(s, T.SEAT), undecided)


def tracked(name: str, type: T = T.BOOL) -> Expr:
    """A value the game keeps through the deal (declared by a ``Track`` rule)."""
    return Tracked(name, type)


def receives(k: int) -> Expr:
    """The seat dealt the ``k``-th card of the pack, from 1 at the top (in a property of
    the dealing, scope DEAL)."""
    return Receives(lift(k, T.INT))


def caller_of(k: int) -> Expr:
    """The seat that made the ``k``-th call of the auction, from 1 (in a property of whole
    deals); no seat past the last call."""
    return CallerOf(lift(k, T.INT))


def tracked_after(name: str, type: T = T.BOOL) -> Expr:
    """A tracked value as the end of the trick leaves it (in a property of a trick)."""
    return TrackedAfter(name, type)


def dealt_hand(s: object) -> Expr:
    """The cards a seat was dealt."""
    return DealtHand(lift(s, T.SEAT))


def idle(s: object) -> Expr:
    """The seat sits this deal out (an ``IdleSeat`` rule): dealt no cards, no call, no play."""
    return Idle(lift(s, T.SEAT))


def dropped(s: object) -> Expr:
    """The seat, a defender, dropped out of the play after the contract (a ``DropOut`` rule)."""
    return Dropped(lift(s, T.SEAT))


def invited(s: object) -> Expr:
    """The seat is the guest: a defender who dropped out and was invited back into the
    play by the one who stayed (a ``DropOut`` rule with an ``invite`` choice)."""
    return Invited(lift(s, T.SEAT))


def taken(s: object) -> Expr:
    """The cards in the tricks a seat won."""
    return Taken(lift(s, T.SEAT))


def strength(i: int) -> Expr:
    """How strongly the card at position ``i`` competes for the trick."""
    return Strength(i)


def points_won(s: object) -> Expr:
    return PointsWon(lift(s, T.SEAT))


def tricks_won(s: object) -> Expr:
    return TricksWon(lift(s, T.SEAT))


def won_trick(s: object, number: object) -> Expr:
    return WonTrick(lift(s, T.SEAT), lift(number, T.INT))


def score_of(s: object, line: str | None = None) -> Expr:
    """A seat's score for the deal: on every line of the sheet, or on the one named."""
    return ScoreOf(lift(s, T.SEAT), line)


def awarded(*rules: Rule | str) -> Expr:
    """What the scoring rules named give the seat being scored, added up (0 for a rule that
    does not apply); each rule is looked up in the game being judged, so a variant's
    replacement counts."""
    if not rules:
        raise TypeError("awarded() needs at least one scoring rule")
    terms = [Awarded(r.id if isinstance(r, Rule) else r) for r in rules]
    total: Expr = terms[0]
    for t in terms[1:]:
        total = total + t
    return total


def with_dealt(hands: Sequence[tuple[object, object]], body: Expr) -> Expr:
    """``body`` as if each seat of ``hands`` (pairs of a seat and cards) had been dealt those
    cards instead; all the new hands are worked out from the hands as really dealt."""
    return WithDealt(tuple(lift(s, T.SEAT) for s, _c in hands),
                     tuple(lift(c, T.CARDS) for _s, c in hands), body)


def let(value_of: Ref, value: object, body: Expr) -> Expr:
    """``body`` as if the context value ``value_of`` were ``value``."""
    return Let(value_of.ctx, lift(value, value_of.type), body)


def free_bid(name: str) -> Var:
    """A free variable ranging over the bids of the ladder."""
    return Var(name, T.BID)


def free_seat(name: str) -> Var:
    return Var(name, T.SEAT)


def free_suit(name: str) -> Var:
    """A free variable ranging over the four suits."""
    return Var(name, T.SUIT)


def free_int(name: str) -> Var:
    return Var(name, T.INT)


def free_cards(name: str) -> Var:
    """A free variable ranging over every set of cards of the deck."""
    return Var(name, T.CARDS)


def rank_table(name: str, order: tuple[Rank, ...], deck: Deck) -> CardTable:
    """A table giving each card of ``deck`` its place in ``order`` (high to low): 1 = lowest."""
    n = len(order)
    return CardTable(name, tuple((c, n - order.index(c.rank)) for c in deck))


def card_table(name: str, values: dict[Rank, int], deck: Deck) -> CardTable:
    """A table giving each card of ``deck`` the number printed for its rank."""
    return CardTable(name, tuple((c, values[c.rank]) for c in deck))


__all__ = [
    # values and equipment
    "SUITS", "Card", "CardSet", "Deck", "Rank", "Suit", "ranks", "Direction", "Bid",
    # rules and games
    "Game", "Origin", "Property", "Rule", "Source", "Variant", "amended", "assumption", "seed", "source",
    "Scope", "T", "Ctx", "Expr", "Var", "NO_SUIT", "BidAttr", "BidField", "CardTable",
    # constructs
    "AlwaysPlayable", "Announce", "CardPoints", "FaceDown", "MatchTarget", "Moment",
    "PlayableAside", "ProxyCall", "SetAside", "SitsOut", "Track", "Update", "AuctionTurns", "BidOrder", "CallRule", "Claim", "CountsAsSuit",
    "DealerRotation", "DealPackets", "DeclarationRule", "DeckIs", "HighestBidderDeclares",
    "Ladder", "MatchLength", "MatchOf", "NameSuit", "PlayDirection", "PlayRule", "RankOrder", "RecordTricks",
    "RedealIfNoBid", "ScoreRule", "Seats", "SidesByContract", "TrickPlay", "TrickValue",
    "WinningTier", "TrickScores", "GameTarget", "AfterGame", "GameBonus", "Rubber",
    "RubberSettlement",
    # vocabulary
    "seat", "dealer", "hand", "card", "card_suit", "declared_suit", "is_leading", "led_suit",
    "trump", "trick_number", "position", "contract", "declarer", "calls_made",
    "passes_in_row", "trick_winner", "points", "legal_cards", "no_suit", "call", "standing", "bid",
    "cards_of", "cards", "lowest", "beating", "if_then_else", "all_of", "any_of", "implies", "seat_after",
    "leader_of", "winner_of",
    "played_card", "played_suit", "played_declared", "strength", "points_won", "tricks_won",
    "won_trick", "score_of", "let", "free_bid", "free_seat", "rank_table", "card_table",
    "stage", "seat_calls", "seat_passed", "seat_holds", "others_passed", "bid_this_stage", "by_proxy", "aside", "leader", "trick_size",
    "played_face_down", "const", "partner", "legal_call", "may_announce", "announcing", "receives", "next_dealer", "no_bid_redealer", "caller_of", "tracked_after", "auction_over", "first_to_call", "first_leader", "talon_taken", "first_defender", "deals_played", "lead_total", "trail_total", "games_won", "match_over", "game_bonus", "carries_over", "game_target", "lays_aside", "deal_void", "redealer", "turned_up", "may_ask_partner", "Option", "Decide", "VoidWhen", "Shuffle", "GatherAndCut", "Talon", "TakeTalon", "tracked", "dealt_hand", "taken", "free_suit", "free_int",
    "awarded", "each_seat", "with_dealt", "free_cards", "TurnUp", "TrumpIs", "LayOpen", "turn_up",
    "turned_suit", "IdleSeat", "DropOut", "AllOut", "idle", "dropped", "invited", "SameBidJoins", "PartnerHolds", "HoldBid",
    "PartnerAccepts", "Pot", "pot", "certain",
]
