"""Expression nodes of the rules language: frozen, typed, and located in the source.

Every node is an immutable value that records where in a game module it was written
(``src_loc``).  Python operators build new nodes (``card.suit == led_suit`` is a node, not
a boolean), so a node refuses to be used as a Python truth value: rules are data that
the engine, the Z3 compiler and the documentation interpret, never code that runs.

Values and their encodings, shared by every back end:

====== ==================================================================
BOOL   a truth value
INT    an integer
SUIT   ``0..3`` for ♣ ♦ ♥ ♠ (deck-independent), ``4`` for *no suit* (no trumps, the joker)
SEAT   a seat number, in order of play
CARD   the card's number in the game's deck
CARDS  a set of cards of the game's deck (a bitmask; bit *i* is card *i*)
BID    the bid's number on the game's bid ladder (``-1``: no bid)
====== ==================================================================
"""
from __future__ import annotations

import enum
import os
import sys
from dataclasses import dataclass, field
from typing import Union

from spec.cards import SUITS, Card, CardSet, Suit
from spec.errors import SpecDefinitionError, SrcLoc

NO_SUIT = len(SUITS)  # encoding of "no suit": no trumps, or the joker's own suit


def suit_code(suit: Suit | None) -> int:
    """The shared encoding of a suit value: its index in SUITS, or NO_SUIT for none."""
    return NO_SUIT if suit is None else SUITS.index(suit)


def suit_from_code(code: int) -> Suit | None:
    return None if code == NO_SUIT else SUITS[code]


class T(enum.Enum):
    """The type of a rules-language value."""

    BOOL = "bool"
    INT = "int"
    SUIT = "suit"
    SEAT = "seat"
    CARD = "card"
    CARDS = "cards"
    BID = "bid"


_DSL_DIR = os.path.dirname(os.path.abspath(__file__))
_SPEC_DIR = os.path.dirname(_DSL_DIR)


def caller_loc() -> SrcLoc:
    """The first source line outside the rules-language package (where a rule was written)."""
    f = sys._getframe(1)
    while f is not None:
        path = os.path.abspath(f.f_code.co_filename)
        raw = f.f_code.co_filename
        # skip the rules language itself, dataclasses and generated code (``<string>``)
        if (not raw.startswith("<") and not path.startswith(_DSL_DIR)
                and os.path.basename(path) != "dataclasses.py"):
            return SrcLoc(path, f.f_lineno)
        f = f.f_back  # type: ignore[assignment]  # walking to the module frame
    return SrcLoc("<unknown>", 0)


class Scope(enum.Enum):
    """Where an expression is evaluated; it decides which context values exist."""

    BID = "a bid on the ladder"
    CALL = "a call in the auction"
    PLAY = "a card about to be played"
    ENTRY = "a card played to a trick"
    TRICK = "a complete trick"
    TRICK_VALUE = "a trick won"
    OUTCOME = "the end of the play"
    STATUS = "the state of the deal between two actions"
    HISTORY = "a deal played out: its hands as dealt, contract, tricks and scores"
    DEAL = ("the dealing: who deals, where each card of the pack goes, who deals next, and "
            "the tracked values as every deal starts")
    MATCH = ("a match or rubber after a deal: deals played, the leading and trailing totals, "
             "the games the side that won a game has won")


_S = Scope


class Ctx(enum.Enum):
    """The context values a rule can read.  Each back end supplies every one of them."""

    # name = (type, scopes, description); indexed ones take a trick position
    LEVEL = (T.INT, {_S.BID}, "the level (number) of a bid")
    STRAIN_RANK = (T.INT, {_S.BID}, "the rank of a bid's strain in the strain order")

    SEAT = (T.SEAT, {_S.CALL, _S.PLAY, _S.OUTCOME}, "the seat to act, or the seat scored")
    DEALER = (T.SEAT, {_S.CALL, _S.PLAY, _S.OUTCOME, _S.STATUS, _S.HISTORY, _S.DEAL},
              "the dealer")
    HAND = (T.CARDS, {_S.CALL, _S.PLAY}, "the cards in the acting seat's hand")
    ASIDE = (T.CARDS, {_S.PLAY}, "the cards the acting seat has set aside face down")

    CALL_IS_BID = (T.BOOL, {_S.CALL}, "the call is a bid (not a pass)")
    CALL_BID = (T.BID, {_S.CALL}, "the bid made by the call")
    HAS_STANDING = (T.BOOL, {_S.CALL}, "some bid has been made in this auction")
    STANDING = (T.BID, {_S.CALL}, "the highest bid so far")
    HIGH_BIDDER = (T.SEAT, {_S.CALL}, "the seat that made the highest bid so far")
    STANDING_MAKER = (T.SEAT, {_S.CALL}, "the seat that would declare the highest bid so far: "
                      "its bidder, or the partner who named it for him where the rules say so")
    CALLS_MADE = (T.INT, {_S.CALL}, "the number of calls made so far in this auction")
    PASSES_IN_ROW = (T.INT, {_S.CALL}, "consecutive passes just made")
    STAGE = (T.INT, {_S.CALL}, "the auction's stage, from 1 (games that deal and bid twice)")
    SEAT_CALLS = (T.INT, {_S.CALL}, "the calls the acting seat has made in this stage")
    SEAT_PASSED = (T.BOOL, {_S.CALL}, "the acting seat has passed in this stage of the auction")
    BID_THIS_STAGE = (T.BOOL, {_S.CALL}, "some bid has been made in this stage of the auction")
    PROXY = (T.BOOL, {_S.CALL}, "the call is made by the partner, in the acting seat's place")
    AUCTION_OVER = (T.BOOL, {_S.CALL},
                    "this stage of the auction has ended (after the calls made so far)")
    LAYS_ASIDE = (T.BOOL, {_S.CALL},
                  "were this stage's auction over now, the highest bidder would lay cards aside")
    FIRST_TO_CALL = (T.SEAT, {_S.CALL}, "the seat that makes this stage's first call")
    MAY_ASK_PARTNER = (T.BOOL, {_S.CALL}, "the acting seat may ask its partner to call for it")
    CALL_JOINS = (T.BOOL, {_S.CALL}, ("the call repeats the standing bid, one the rules let "
                                      "other seats join (SameBidJoins)"))
    STANDING_ACCEPTED = (T.BOOL, {_S.CALL}, ("another seat has accepted the standing bid, "
                                             "and is its bidder's partner (PartnerAccepts)"))
    CALL_ACCEPTS = (T.BOOL, {_S.CALL}, ("the call repeats the standing bid, one the rules let "
                                        "another seat accept, and nobody has yet "
                                        "(PartnerAccepts)"))
    SEAT_HOLDS = (T.BOOL, {_S.CALL}, ("the acting seat holds the standing bid: it made it, "
                                      "joined it or accepted it"))
    OTHERS_PASSED = (T.BOOL, {_S.CALL}, ("every seat dealt in but those that hold the standing "
                                         "bid (its bidder, the seats that joined it, the seat "
                                         "that accepted it) has passed in this stage; with no "
                                         "bid standing, every seat has"))

    CONTRACT = (
        T.BID,
        {_S.PLAY, _S.ENTRY, _S.TRICK, _S.TRICK_VALUE, _S.OUTCOME, _S.STATUS, _S.HISTORY},
        "the contract: the bid that won the auction",
    )
    DECLARER = (T.SEAT, {_S.PLAY, _S.TRICK, _S.OUTCOME, _S.STATUS, _S.HISTORY},
                "the seat that won the auction")
    TRUMP = (T.SUIT, {_S.PLAY, _S.ENTRY, _S.TRICK, _S.OUTCOME, _S.STATUS, _S.HISTORY},
             "the trump suit (no suit: no trumps)")
    DECLARER_PARTNER = (T.SEAT, {_S.PLAY, _S.TRICK, _S.OUTCOME, _S.STATUS},
                        ("the declarer's partner in this deal (the declarer himself when "
                         "he plays alone)"))
    TRICK_NUMBER = (
        T.INT,
        {_S.PLAY, _S.ENTRY, _S.TRICK, _S.TRICK_VALUE, _S.STATUS},
        "the number of the trick, from 1",
    )
    CARD = (T.CARD, {_S.PLAY, _S.ENTRY}, "the card being played")
    DECLARED = (T.SUIT, {_S.PLAY, _S.ENTRY}, "the suit named with the card (no suit: none)")
    IS_LEADING = (T.BOOL, {_S.PLAY, _S.ENTRY}, "the card leads the trick")
    POSITION = (T.INT, {_S.PLAY, _S.ENTRY}, "how many cards the trick held before this one")
    LED_SUIT = (
        T.SUIT,
        {_S.PLAY, _S.ENTRY, _S.TRICK},
        "the suit of the trick's first card (no suit when leading)",
    )
    CARD_SUIT = (T.SUIT, {_S.ENTRY}, "the suit the played card counts as")
    LEADER = (T.SEAT, {_S.PLAY, _S.TRICK}, "the seat that led the trick")
    BEATING = (T.CARDS, {_S.PLAY}, ("the cards of the acting seat's hand that would win the "
                                    "trick so far, were they played now (none when leading)"))

    PLAYED_CARD = (T.CARD, {_S.TRICK}, "the card at a position of the trick")
    PLAYED_SUIT = (T.SUIT, {_S.TRICK}, "the suit the card at a position counts as")
    PLAYED_DECLARED = (T.SUIT, {_S.TRICK}, "the suit named with the card at a position")
    PLAYED_FACE_DOWN = (T.BOOL, {_S.TRICK}, "the card at a position was played face down")
    TRICK_SIZE = (T.INT, {_S.TRICK}, "the number of cards in the trick (fewer if a seat sits out)")
    TRICK_WINNER = (T.INT, {_S.TRICK}, "the position (0 = the lead) of the trick's winner")
    DEAL_VOID = (T.BOOL, {_S.PLAY}, "the rules void the deal now (it is dealt again)")
    REDEALER = (T.SEAT, {_S.PLAY}, "who deals again if the deal is void now (else the dealer)")
    FIRST_LEADER = (T.SEAT, {_S.PLAY}, "the seat that leads to the first trick")
    TALON_TAKEN = (T.BOOL, {_S.PLAY, _S.OUTCOME},
                   "the declarer took the talon after the auction (a TakeTalon rule)")
    FIRST_DEFENDER = (T.SEAT, {_S.PLAY, _S.OUTCOME},
                      "the defender who first chooses whether to play (a DropOut rule)")
    NEXT_DEALER = (T.SEAT, {_S.DEAL}, "who deals the next deal, after this one is played")
    NO_BID_REDEALER = (T.SEAT, {_S.DEAL}, "who deals again when the auction ends with no bid "
                       "and the cards are thrown in")
    TURNED_UP = (T.BOOL, {_S.TRICK}, "every card of the trick is turned face up at its end")
    TURN_UP = (T.CARD, {_S.CALL, _S.PLAY, _S.TRICK, _S.OUTCOME, _S.STATUS},
               "the card dealt face up, the turn-up (a game with a TurnUp rule)")
    POINTS = (T.INT, {_S.OUTCOME}, "the points the seat being scored took in tricks")
    POT = (T.INT, {_S.OUTCOME}, "the chips in the pot as the deal is settled (a game with a Pot)")

    DEALS_PLAYED = (T.INT, {_S.MATCH}, "the deals played in the match, this one included")
    LEAD_TOTAL = (T.INT, {_S.MATCH}, "the highest total of a side after this deal")
    TRAIL_TOTAL = (T.INT, {_S.MATCH}, "the lowest total of a side after this deal")
    GAMES_WON = (T.INT, {_S.MATCH},
                 "the games won by the side that has just won a game, that one included")
    MATCH_OVER = (T.BOOL, {_S.MATCH}, "the match (or the rubber) is over after this deal")
    GAME_BONUS = (T.INT, {_S.MATCH}, "what the side that has just won a game writes for it")
    CARRIES_OVER = (T.BOOL, {_S.MATCH}, "what a deal scores after the trick that won a game "
                    "counts towards the next game")
    GAME_TARGET = (T.INT, {_S.MATCH}, "the total a side must reach on the game line to win "
                   "a game (0 in a game without games)")

    @property
    def type(self) -> T:
        return self.value[0]

    @property
    def scopes(self) -> set[Scope]:
        return self.value[1]

    @property
    def description(self) -> str:
        return self.value[2]

    @property
    def indexed(self) -> bool:
        return self in (Ctx.PLAYED_CARD, Ctx.PLAYED_SUIT, Ctx.PLAYED_DECLARED,
                        Ctx.PLAYED_FACE_DOWN)


class Op(enum.Enum):
    """Operators of the binary nodes."""

    AND = "and"
    OR = "or"
    EQ = "=="
    NE = "!="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "//"  # floor division by a positive constant
    UNION = "|"
    INTER = "&"
    DIFF = "-"


_CMP = (Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE)
_ORDERED = (T.INT,)


def _type_error(msg: str, loc: SrcLoc | None = None) -> SpecDefinitionError:
    return SpecDefinitionError(msg, src_loc=loc or caller_loc())


class Expr:
    """Base of every expression node."""

    __slots__ = ()
    type: T
    src_loc: SrcLoc

    def __bool__(self) -> bool:
        raise SpecDefinitionError(
            "a rule expression has no Python truth value (use applies=/when= or "
            "if_then_else(...), not Python if/and/or/not)",
            src_loc=caller_loc(),
        )

    __hash__ = object.__hash__

    # -- comparisons ------------------------------------------------------------
    def _cmp(self, op: Op, other: object) -> Expr:
        rhs = lift(other, self.type)
        return Compare(op, self, rhs, src_loc=caller_loc())

    def __eq__(self, other: object) -> Expr:  # type: ignore[override]  # builds a node
        return self._cmp(Op.EQ, other)

    def __ne__(self, other: object) -> Expr:  # type: ignore[override]  # builds a node
        return self._cmp(Op.NE, other)

    def __lt__(self, other: object) -> Expr:
        return self._cmp(Op.LT, other)

    def __le__(self, other: object) -> Expr:
        return self._cmp(Op.LE, other)

    def __gt__(self, other: object) -> Expr:
        return self._cmp(Op.GT, other)

    def __ge__(self, other: object) -> Expr:
        return self._cmp(Op.GE, other)

    # -- boolean and set algebra -----------------------------------------------
    def __and__(self, other: object) -> Expr:
        if self.type is T.CARDS:
            return SetOp(Op.INTER, self, lift(other, T.CARDS), src_loc=caller_loc())
        return BoolOp(Op.AND, (self, lift(other, T.BOOL)), src_loc=caller_loc())

    def __rand__(self, other: object) -> Expr:
        return lift(other, self.type).__and__(self)

    def __or__(self, other: object) -> Expr:
        if self.type is T.CARDS:
            return SetOp(Op.UNION, self, lift(other, T.CARDS), src_loc=caller_loc())
        return BoolOp(Op.OR, (self, lift(other, T.BOOL)), src_loc=caller_loc())

    def __ror__(self, other: object) -> Expr:
        return lift(other, self.type).__or__(self)

    def __invert__(self) -> Expr:
        return Not(self, src_loc=caller_loc())

    # -- arithmetic -----------------------------------------------------------------
    def __add__(self, other: object) -> Expr:
        return Arith(Op.ADD, self, lift(other, T.INT), src_loc=caller_loc())

    def __radd__(self, other: object) -> Expr:
        return Arith(Op.ADD, lift(other, T.INT), self, src_loc=caller_loc())

    def __sub__(self, other: object) -> Expr:
        if self.type is T.CARDS:
            return SetOp(Op.DIFF, self, lift(other, T.CARDS), src_loc=caller_loc())
        return Arith(Op.SUB, self, lift(other, T.INT), src_loc=caller_loc())

    def __rsub__(self, other: object) -> Expr:
        return Arith(Op.SUB, lift(other, T.INT), self, src_loc=caller_loc())

    def __mul__(self, other: object) -> Expr:
        return Arith(Op.MUL, self, lift(other, T.INT), src_loc=caller_loc())

    def __rmul__(self, other: object) -> Expr:
        return Arith(Op.MUL, lift(other, T.INT), self, src_loc=caller_loc())

    def __floordiv__(self, other: object) -> Expr:
        """Floor division by a positive whole constant (so that every back end agrees)."""
        return Arith(Op.DIV, self, lift(other, T.INT), src_loc=caller_loc())

    def __neg__(self) -> Expr:
        return Arith(Op.SUB, Const(0, T.INT, src_loc=caller_loc()), self, src_loc=caller_loc())

    # -- typed accessors ------------------------------------------------------------
    def _need(self, t: T, what: str) -> None:
        if self.type is not t:
            raise _type_error(f"{what} needs a {t.value}, got a {self.type.value} ({self})")

    @property
    def suit(self) -> Expr:
        """The natural suit of a card (no suit for the joker)."""
        self._need(T.CARD, ".suit")
        return SuitOf(self, src_loc=caller_loc())

    def holds(self, card: object) -> Expr:
        """A set of cards contains a card."""
        self._need(T.CARDS, ".holds()")
        return Contains(self, lift(card, T.CARD), src_loc=caller_loc())

    def holds_any(self, cards: object) -> Expr:
        """A set of cards shares at least one card with another set."""
        self._need(T.CARDS, ".holds_any()")
        return Not(IsEmpty(SetOp(Op.INTER, self, lift(cards, T.CARDS), src_loc=caller_loc()),
                           src_loc=caller_loc()), src_loc=caller_loc())

    @property
    def is_empty(self) -> Expr:
        self._need(T.CARDS, ".is_empty")
        return IsEmpty(self, src_loc=caller_loc())

    @property
    def count(self) -> Expr:
        self._need(T.CARDS, ".count")
        return Count(self, src_loc=caller_loc())

    @property
    def level(self) -> Expr:
        """The level (number) of a bid."""
        self._need(T.BID, ".level")
        return BidAttr(BidField.LEVEL, self, src_loc=caller_loc())

    @property
    def key(self) -> Expr:
        """A bid's place in the bid order (higher is stronger)."""
        self._need(T.BID, ".key")
        return BidAttr(BidField.KEY, self, src_loc=caller_loc())

    @property
    def strain(self) -> Expr:
        """The trump suit a bid names (no suit for no trumps)."""
        self._need(T.BID, ".strain")
        return BidAttr(BidField.STRAIN, self, src_loc=caller_loc())


def lift(value: object, want: T | None = None) -> Expr:
    """Turn a Python value into a constant node (nodes pass through).

    Raises:
        SpecDefinitionError: the value cannot stand for the wanted type.
    """
    if isinstance(value, Expr):
        if want is not None and value.type is not want:
            raise _type_error(f"expected a {want.value} expression, got a {value.type.value} ({value})",
                              value.src_loc)
        return value
    loc = caller_loc()
    if isinstance(value, bool):
        got = Const(value, T.BOOL, src_loc=loc)
    elif isinstance(value, int):
        got = Const(value, T.SEAT if want is T.SEAT else T.INT, src_loc=loc)
    elif isinstance(value, Suit) or (value is None and want is T.SUIT):
        got = Const(value, T.SUIT, src_loc=loc)
    elif isinstance(value, Card):
        got = Const(value, T.CARD, src_loc=loc)
    elif isinstance(value, CardSet):
        got = Const(value, T.CARDS, src_loc=loc)
    elif isinstance(value, (frozenset, tuple)) and want is T.CARDS and all(
        isinstance(c, Card) for c in value
    ):
        got = Const(frozenset(value), T.CARDS, src_loc=loc)
    else:
        hint = ""
        if isinstance(value, str):
            hint = " (write cards as Card.parse('AS') or use a named constant)"
        raise _type_error(f"cannot use {value!r} in a rule{hint}", loc)
    if want is not None and got.type is not want:
        if want is T.CARDS and got.type is T.CARD:
            return Const(frozenset({value}), T.CARDS, src_loc=loc)
        raise _type_error(f"expected a {want.value}, got {value!r} (a {got.type.value})", loc)
    return got


def _node(cls: type) -> type:
    return dataclass(frozen=True, slots=True, eq=False, repr=False)(cls)


@_node
class Const(Expr):
    """A constant: a bool, int, Suit (or None for no suit), Card, or set of cards."""

    value: object
    type: T
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __repr__(self) -> str:
        return f"Const({self.value!r})"


@_node
class Ref(Expr):
    """A context value (see :class:`Ctx`); ``index`` picks a position in the trick."""

    ctx: Ctx
    index: int | None = None
    src_loc: SrcLoc = field(default_factory=caller_loc)

    @property
    def type(self) -> T:  # type: ignore[override]  # derived from the context value
        return self.ctx.type

    def __repr__(self) -> str:
        return f"{self.ctx.name.lower()}" + (f"[{self.index}]" if self.index is not None else "")


@_node
class Var(Expr):
    """A free variable of a property: the claim must hold for every value of it."""

    name: str
    type: T
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __repr__(self) -> str:
        return self.name


@_node
class Not(Expr):
    arg: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        if self.arg.type is not T.BOOL:
            raise _type_error(f"'not' needs a condition, got a {self.arg.type.value}", self.src_loc)

    type = T.BOOL


@_node
class BoolOp(Expr):
    op: Op
    args: tuple[Expr, ...]
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        for a in self.args:
            if a.type is not T.BOOL:
                raise _type_error(f"'{self.op.value}' needs conditions, got a {a.type.value}",
                                  self.src_loc)

    type = T.BOOL


@_node
class Implies(Expr):
    cond: Expr
    then: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        for a in (self.cond, self.then):
            if a.type is not T.BOOL:
                raise _type_error(f"implies() needs conditions, got a {a.type.value}", self.src_loc)

    type = T.BOOL


@_node
class Compare(Expr):
    op: Op
    lhs: Expr
    rhs: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        if self.lhs.type is not self.rhs.type:
            raise _type_error(
                f"cannot compare a {self.lhs.type.value} with a {self.rhs.type.value}", self.src_loc
            )
        if self.op not in (Op.EQ, Op.NE) and self.lhs.type not in _ORDERED:
            raise _type_error(
                f"'{self.op.value}' orders numbers only, got {self.lhs.type.value}s "
                "(compare bids by .key, cards by a rank table)",
                self.src_loc,
            )

    type = T.BOOL


@_node
class Arith(Expr):
    op: Op
    lhs: Expr
    rhs: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        for a in (self.lhs, self.rhs):
            if a.type is not T.INT:
                raise _type_error(f"'{self.op.value}' needs numbers, got a {a.type.value}",
                                  self.src_loc)
        if self.op is Op.DIV and not (isinstance(self.rhs, Const) and self.rhs.value > 0):
            raise _type_error("// divides by a positive whole constant only", self.src_loc)

    type = T.INT


@_node
class IfThenElse(Expr):
    cond: Expr
    then: Expr
    orelse: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        if self.cond.type is not T.BOOL:
            raise _type_error("if_then_else() needs a condition first", self.src_loc)
        if self.then.type is not self.orelse.type:
            raise _type_error(
                f"if_then_else() branches differ: {self.then.type.value} and "
                f"{self.orelse.type.value}",
                self.src_loc,
            )

    @property
    def type(self) -> T:  # type: ignore[override]  # the branches' type
        return self.then.type


@_node
class SetOp(Expr):
    op: Op
    lhs: Expr
    rhs: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.CARDS


@_node
class Contains(Expr):
    cards: Expr
    card: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class IsEmpty(Expr):
    cards: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class Count(Expr):
    cards: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.INT


@_node
class SuitOf(Expr):
    """The printed suit of a card; the joker has none."""

    card: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.SUIT


@_node
class CardsOfSuit(Expr):
    """Every card of the deck in a suit (empty for no suit)."""

    suit: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        if self.suit.type is not T.SUIT:
            raise _type_error(f"cards_of() needs a suit, got a {self.suit.type.value}", self.src_loc)

    type = T.CARDS


@dataclass(frozen=True, slots=True, eq=False)
class CardTable:
    """A number for every card of the deck (rank strength, card points), as printed."""

    name: str
    entries: tuple[tuple[Card, int], ...]
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def value(self, card: Card) -> int:
        for c, v in self.entries:
            if c == card:
                return v
        raise KeyError(card)

    def __getitem__(self, card: object) -> Expr:
        return CardValue(self, lift(card, T.CARD), src_loc=caller_loc())

    def total(self, cards: object) -> Expr:
        """The sum of the table over a set of cards."""
        return SumValues(self, lift(cards, T.CARDS), src_loc=caller_loc())


@_node
class Lowest(Expr):
    """For each suit, the lowest-ranked card of a set in that suit (by the rank order)."""

    cards: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        if self.cards.type is not T.CARDS:
            raise _type_error(f"lowest() needs cards, got a {self.cards.type.value}", self.src_loc)

    type = T.CARDS


@_node
class CardValue(Expr):
    table: CardTable
    card: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.INT


@_node
class SumValues(Expr):
    table: CardTable
    cards: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.INT


class BidField(enum.Enum):
    LEVEL = "level"
    STRAIN = "strain"
    STRAIN_RANK = "strain rank"
    KEY = "key"


@_node
class BidAttr(Expr):
    """A field of a bid on the game's ladder (level, strain, key in the bid order)."""

    field: BidField
    bid: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    @property
    def type(self) -> T:  # type: ignore[override]  # strain is a suit, the rest numbers
        return T.SUIT if self.field is BidField.STRAIN else T.INT


@_node
class SeatAfter(Expr):
    """The seat that plays ``steps`` turns after a seat."""

    seat: Expr
    steps: int
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.SEAT


@_node
class PartnerOf(Expr):
    """A seat's partner, from the game's partnerships."""

    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.SEAT


@_node
class Tracked(Expr):
    """A value the game keeps through the deal (declared by a ``Track`` rule).

    It can be read wherever the deal is under way: in the auction, the play, a trick,
    the outcome and between actions.
    """

    name: str
    type: T
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __repr__(self) -> str:
        return self.name


@_node
class DealtHand(Expr):
    """The cards a seat was dealt (every stage of the deal)."""

    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.CARDS


@_node
class Taken(Expr):
    """The cards in the tricks a seat has won."""

    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.CARDS


@_node
class Let(Expr):
    """``body`` with a context value replaced by ``value`` (what-if reasoning)."""

    ctx: Ctx
    value: Expr
    body: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        if self.value.type is not self.ctx.type:
            raise _type_error(
                f"let {self.ctx.name.lower()} needs a {self.ctx.type.value}, "
                f"got a {self.value.type.value}",
                self.src_loc,
            )

    @property
    def type(self) -> T:  # type: ignore[override]  # the body's type
        return self.body.type


# -- values the game's own rules define ------------------------------------------------


@_node
class LegalCards(Expr):
    """The cards of the hand that the game's play rules allow here."""

    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.CARDS


@_node
class TrackedAfter(Expr):
    """A tracked value as the end of the trick being judged leaves it (scope: TRICK): the
    game's ``Update`` rules at the end of a trick applied to it."""

    name: str
    type: T
    src_loc: SrcLoc = field(default_factory=caller_loc)


@_node
class MayAnnounce(Expr):
    """The seat to act may make the announcement ``name`` now (scope: that of the
    announcement, CALL or PLAY): the ``when`` of the game's rule that offers it; or the
    choice ``name`` of a ``Decide`` rule is open (scope: PLAY, which knows all it reads)."""

    name: str
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class Announcing(Expr):
    """The value the tracked ``tracked`` would take were the seat to act to make the
    announcement ``name`` now (its value now if the announcement leaves it); scope: that of
    the announcement."""

    name: str
    tracked: str
    type: T
    src_loc: SrcLoc = field(default_factory=caller_loc)


@_node
class Certain(Expr):
    """The seat can be sure, from its hand and all it has seen, that by playing well its
    side wins every remaining trick whatever the other seats play (its partner's plays
    included): some way of playing that reads only what it observes wins those tricks in
    every deal consistent with what it has seen (scope: PLAY).  A question of the deals
    the seat cannot tell apart, decided by a search (``spec.solver._certain``), which no
    single solver query states; where the search cannot decide, the answer is
    ``undecided`` (False unless the rule asks otherwise: a rule that penalises a seat for
    not being sure gives it the benefit of the doubt with True)."""

    seat: Expr
    undecided: bool = False
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class LegalCall(Expr):
    """The call being judged obeys every call rule of the game (scope: CALL)."""

    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class Strength(Expr):
    """How strongly the card at a trick position competes for the trick (higher wins)."""

    position: int
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.INT


@_node
class PointsWon(Expr):
    """The points a seat took in tricks, by the game's trick-value rules."""

    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.INT


@_node
class TricksWon(Expr):
    """The number of tricks a seat won."""

    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.INT


@_node
class WonTrick(Expr):
    """A seat won the trick with the given number."""

    seat: Expr
    number: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class ScoreOf(Expr):
    """A seat's score for the deal, by the game's scoring rules (on one line of the score
    sheet, or on every line when ``line`` is None)."""

    seat: Expr
    line: str | None = None
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.INT


@_node
class Awarded(Expr):
    """What one scoring rule gives the seat being scored (0 when it does not apply)."""

    rule_id: str
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.INT


@_node
class WithDealt(Expr):
    """``body`` as if each of ``seats`` had been dealt the ``cards`` at the same position
    (what-if reasoning about holdings; every hand is worked out before any is replaced)."""

    seats: tuple[Expr, ...]
    cards: tuple[Expr, ...]
    body: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        if (len(self.seats) != len(self.cards) or any(x.type is not T.SEAT for x in self.seats)
                or any(c.type is not T.CARDS for c in self.cards)):
            raise _type_error("with_dealt needs pairs of a seat and a set of cards", self.src_loc)

    @property
    def type(self) -> T:  # type: ignore[override]  # the body's type
        return self.body.type


@_node
class PlayedTo(Expr):
    """The card a seat played to trick ``trick`` of a deal played out (scope: HISTORY)."""

    trick: Expr
    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.CARD


@_node
class LedTo(Expr):
    """The card that led trick ``trick`` (scope: HISTORY)."""

    trick: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.CARD


@_node
class LeaderOf(Expr):
    """The seat that led trick ``trick`` (scope: HISTORY)."""

    trick: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.SEAT


@_node
class WinnerOf(Expr):
    """The seat that won trick ``trick`` (scope: HISTORY)."""

    trick: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.SEAT


@_node
class CallerOf(Expr):
    """The seat that made call ``call`` of the auction, from 1, its stages one after the
    other (scope: HISTORY); no seat (-1) past the last call."""

    call: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.SEAT


@_node
class Receives(Expr):
    """The seat dealt card ``card`` of the pack, from 1 at the top, its stages one after the
    other (scope: DEAL); no seat (-1) past the pack's end."""

    card: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.SEAT


@_node
class Idle(Expr):
    """A seat sits this deal out (an ``IdleSeat`` rule): dealt no cards, it takes no part."""

    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class IsDeclarer(Expr):
    """A seat is one of the deal's declarers (several may declare at once: SameBidJoins)."""

    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class Dropped(Expr):
    """A seat dropped out of the play after the contract (a ``DropOut`` rule)."""

    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class Invited(Expr):
    """A seat is the guest: a defender who dropped out and was invited back into the play
    by the one who stayed (a ``DropOut`` rule with an ``invite`` choice)."""

    seat: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.BOOL


@_node
class EachDeclarer(Expr):
    """The sum of ``amount`` over the deal's declarers, with ``declarer`` read as each of
    them in turn (and ``declarer_partner`` as his partner: a seat that joined the bid has
    none but himself): each declarer settled on his own (scope: OUTCOME)."""

    amount: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        if self.amount.type is not T.INT:
            raise _type_error(f"each_declarer() sums numbers, got a {self.amount.type.value}",
                              self.src_loc)

    type = T.INT


@_node
class EachSeat(Expr):
    """The sum of ``amount`` over every seat at the table, with ``seat`` read as each of
    them in turn: a total that names no seat, so the same rule holds with three players or
    four (scope: OUTCOME)."""

    amount: Expr
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def __post_init__(self) -> None:
        if self.amount.type is not T.INT:
            raise _type_error(f"each_seat() sums numbers, got a {self.amount.type.value}",
                              self.src_loc)

    type = T.INT


NODE_CLASSES: tuple[type[Expr], ...] = (
    Const, Ref, Var, Not, BoolOp, Implies, Compare, Arith, IfThenElse, SetOp, Contains,
    IsEmpty, Count, SuitOf, CardsOfSuit, Lowest, CardValue, SumValues, BidAttr, SeatAfter, PartnerOf,
    Tracked, DealtHand, Taken, Let, LegalCards, LegalCall, MayAnnounce, Announcing, TrackedAfter, Strength, PointsWon, TricksWon, WonTrick,
    ScoreOf, Awarded, WithDealt, PlayedTo, LedTo, LeaderOf, WinnerOf, CallerOf, Receives,
    Idle, Dropped, Invited,
    IsDeclarer, EachDeclarer, EachSeat, Certain,
)

Node = Union[
    Const, Ref, Var, Not, BoolOp, Implies, Compare, Arith, IfThenElse, SetOp, Contains,
    IsEmpty, Count, SuitOf, CardsOfSuit, Lowest, CardValue, SumValues, BidAttr, SeatAfter, PartnerOf,
    Tracked, DealtHand, Taken, Let, LegalCards, LegalCall, MayAnnounce, Announcing, TrackedAfter, Strength, PointsWon, TricksWon, WonTrick,
    ScoreOf, Awarded, WithDealt, PlayedTo, LedTo, LeaderOf, WinnerOf, CallerOf, Receives,
    Idle, Dropped, Invited,
    IsDeclarer, EachDeclarer, EachSeat, Certain,
]


def children(node: Expr) -> tuple[Expr, ...]:
    """The sub-expressions of a node, for walks that need no per-node logic."""
    out = []
    for name in node.__dataclass_fields__:  # type: ignore[attr-defined]  # nodes are dataclasses
        v = getattr(node, name)
        if isinstance(v, Expr):
            out.append(v)
        elif isinstance(v, tuple):
            out.extend(x for x in v if isinstance(x, Expr))
    return tuple(out)


def walk(node: Expr):  # type: ignore[no-untyped-def]  # generator of Expr
    """Every node of an expression, depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(children(n))
