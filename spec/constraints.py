"""Deal constraints: conditions on the hands as dealt, in the rules language or as text.

A constraint is a rules-language condition judged on a deal before any call (scope
``DEAL``): it may read ``dealt_hand(seat)`` and ``dealer``.  From Python, build it with
the same expressions as the rules (``dealt_hand(0).holds(card)``,
``(dealt_hand(2) & cards_of(Suit.SPADES)).count >= 5``) or with the helpers below; from
the command line, write it in a small language that :func:`parse_where` reads with its
own tokenizer and parser (no ``eval``)::

    holds(South, JK) and count(North, spades) >= 5
    void(West, hearts) or points(East) > 100
    count(Forehand, aces) + count(Middlehand, aces) == 4 and dealer == Rearhand

Grammar: ``or``, ``and``, ``not``; comparisons ``== != < <= > >=`` (``=`` is ``==``); ``+``,
``-``, ``*`` on numbers; parentheses.  Names: the game's seats (any case), ``dealer``,
suits (``spades``, ``hearts``, ``diamonds``, ``clubs``, or ``♠ ♥ ♦ ♣``), ranks
(``aces``, ``kings``, ..., ``twos``, singular too) and cards written as in records (``AS``,
``10H``, ``JK``).  Functions: ``holds(seat, card, ...)`` (all of them), ``count(seat,
suit-or-rank)``, ``void(seat, suit)``, ``length(seat)`` (cards in the hand) and
``points(seat)`` (card points held, in games that count them).

``dd(seat, strain)`` is the double-dummy value of the hands as dealt (see :mod:`spec.solver`)
for the side of ``seat`` as declarer in a strain as the bids name it (``NT``, ``S``, or
``spades``), or in a contract (``dd(seat, 7NT)``, a contract by its name where the bids have
no strains, with the trumps as a third argument where the contract names none); ``dd()``
is that of the contract played, from the first lead.  No solver of formulas encodes it: a
condition that reads it is judged deal by deal (:mod:`spec.double_dummy`).

>>> from spec.games.crescendo import GAME
>>> where = parse_where(GAME, "holds(Forehand, JK) and count(Rearhand, spades) >= 3")
>>> where.type.value
'bool'
>>> parse_where(GAME, "count(Fourhand, spades) > 1")
Traceback (most recent call last):
  ...
spec.errors.NotationError: at 7: unknown name 'Fourhand' (seats: Forehand, Middlehand, Rearhand; also dealer, suits such as spades, ranks such as aces, cards such as AS, and the contracts the game names)
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from spec.cards import Card, CardSet, Rank, Suit
from spec.dsl import _constructs as K
from spec.dsl._build import Game, suit_code
from spec.dsl._nodes import (
    BoolOp,
    CallerOf,
    Const,
    Ctx,
    DealtHand,
    Expr,
    IfThenElse,
    IsDeclarer,
    LeaderOf,
    LedTo,
    Not,
    Op,
    PlayedTo,
    PointsWon,
    Ref,
    ScoreOf,
    SumValues,
    T,
    TricksWon,
    WinnerOf,
    caller_loc,
    children,
    lift,
    walk,
)
from spec.errors import NotationError, SrcLoc

__all__ = ["parse_where", "deal_test", "about_play", "history_test", "holds", "count", "void", "length", "points_held",
           "DEAL_NAMES", "DoubleDummy", "double_dummy_terms"]

# -- helpers for Python callers ---------------------------------------------------------


def holds(game: Game, seat: int, *cards: Card) -> Expr:
    """The seat was dealt every one of ``cards``."""
    need = Const(CardSet.of(game.deck, cards), T.CARDS)
    return (need - DealtHand(Const(seat, T.SEAT))).is_empty


def count(game: Game, seat: int, what: Suit | Rank) -> Expr:
    """How many cards of a suit, or of a rank, the seat was dealt."""
    if isinstance(what, Suit):
        cards = game.deck.cards_of(what)
    else:
        cards = CardSet.of(game.deck, [c for c in game.deck if c.rank is what])
    return (DealtHand(Const(seat, T.SEAT)) & Const(cards, T.CARDS)).count


def void(game: Game, seat: int, suit: Suit) -> Expr:
    """The seat was dealt no card of ``suit``."""
    return count(game, seat, suit) == 0


def length(game: Game, seat: int) -> Expr:
    """The number of cards the seat was dealt."""
    return DealtHand(Const(seat, T.SEAT)).count


def points_held(game: Game, seat: int) -> Expr:
    """The card points of the hand the seat was dealt (games with a CardPoints rule).

    Raises:
        NotationError: the game's cards carry no points.
    """
    found = game.constructs(K.CardPoints)
    if not found:
        raise NotationError(f"{game.name}'s cards carry no points (its tricks are worth "
                            "points instead), so points(seat) means nothing here")
    return SumValues(found[0][1].table, DealtHand(Const(seat, T.SEAT)))  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class DoubleDummy(Expr):
    """The double-dummy value of a deal (see :class:`spec.solver.Solved`): the tricks (or
    card points) the side of ``seat`` takes as declarer in ``contract`` (a place on the
    ladder) under perfect play by all, or 1 and 0 where the side plays for a count between
    bounds.  ``seat`` -1 stands for the contract played, from the first lead; ``trump`` is
    a suit's code where the trumps are given, else None (the contract's).

    No back end compiles it: :mod:`spec.double_dummy` judges a condition that reads it
    deal by deal, with the solver.
    """

    seat: int
    contract: int
    trump: int | None
    text: str  # as written, for messages
    src_loc: SrcLoc = field(default_factory=caller_loc)

    type = T.INT

    @property
    def played(self) -> bool:
        """The value of the contract played, which only a deal played out has."""
        return self.seat < 0

    @property
    def search_key(self) -> tuple[int, int, int | None]:
        """What the value depends on besides the deal: the same key, the same value."""
        return self.seat, self.contract, self.trump

    def __repr__(self) -> str:
        return self.text


def double_dummy_terms(where: Expr) -> list[DoubleDummy]:
    """The ``dd()`` terms of a condition, in the order written."""
    out, stack = [], [where]
    while stack:
        n = stack.pop()
        if isinstance(n, DoubleDummy):
            out.append(n)
        stack.extend(reversed(children(n)))
    return out


# -- the text form ----------------------------------------------------------------------

_SUIT_WORDS = {"spades": Suit.SPADES, "spade": Suit.SPADES, "♠": Suit.SPADES,
               "hearts": Suit.HEARTS, "heart": Suit.HEARTS, "♥": Suit.HEARTS,
               "diamonds": Suit.DIAMONDS, "diamond": Suit.DIAMONDS, "♦": Suit.DIAMONDS,
               "clubs": Suit.CLUBS, "club": Suit.CLUBS, "♣": Suit.CLUBS}
_RANK_WORDS = {"ace": Rank.ACE, "king": Rank.KING, "queen": Rank.QUEEN, "jack": Rank.JACK,
               "ten": Rank.TEN, "nine": Rank.NINE, "eight": Rank.EIGHT, "seven": Rank.SEVEN,
               "six": Rank.SIX, "five": Rank.FIVE, "four": Rank.FOUR, "three": Rank.THREE,
               "two": Rank.TWO, "joker": Rank.JOKER}
_RANK_WORDS.update({w + ("es" if w == "six" else "s"): r for w, r in list(_RANK_WORDS.items())})
DEAL_NAMES = ("dealer", *sorted(_SUIT_WORDS), *sorted(_RANK_WORDS))

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<card>(?:10|[2-9TJQKA])[CDHS♣♦♥♠](?![A-Za-z0-9_])|JK(?![A-Za-z0-9_]))
  | (?P<number>[0-9]+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*|[♠♥♦♣])
  | (?P<op>==|!=|<=|>=|<|>|=|\+|-|\*|\(|\)|,)
""", re.VERBOSE)


_KIND = {T.INT: "number", T.BOOL: "condition", T.CARDS: "set of cards"}


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    pos: int  # 1-based column


def _tokens(text: str) -> list[_Tok]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise NotationError(f"at {pos + 1}: unexpected {text[pos]!r} (write names, numbers, "
                                "cards such as AS or 10H, and == != < <= > >= + - * ( ) ,)",
                                value=text)
        kind = m.lastgroup or ""
        if kind != "space":
            out.append(_Tok(kind, m.group(), pos + 1))
        pos = m.end()
    out.append(_Tok("end", "", len(text) + 1))
    return out


#: Bounds on a written constraint, so that reading and compiling it takes bounded time and
#: stack: the longest text, the deepest nesting of brackets and ``not`` s, the deepest
#: expression tree (a chain of ``and`` s or ``+`` s is as deep as it is long), the most digits.
MAX_CHARS = 4000
MAX_NESTING = 40
MAX_DEPTH = 200
MAX_DIGITS = 9


def _depth(e: Expr) -> int:
    """The depth of an expression tree, without recursion."""
    deepest, stack = 0, [(e, 1)]
    while stack:
        n, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in children(n))
    return deepest


class _Parser:
    """Recursive descent over the tokens; every value is a rules-language expression or a
    name (a seat, a suit, a rank) waiting for the function that takes it."""

    def __init__(self, game: Game, text: str) -> None:
        self.game = game
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.nesting = 0
        self.seats = {n.lower(): s for s, n in enumerate(game.table.names)}

    # -- token helpers
    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def _fail(self, msg: str, tok: _Tok | None = None) -> NotationError:
        t = tok or self.tok
        return NotationError(f"at {t.pos}: {msg}", value=self.text)

    def _take(self, text: str) -> bool:
        if self.tok.text == text and self.tok.kind in ("op", "name"):
            self.i += 1
            return True
        return False

    def _expect(self, text: str) -> None:
        if not self._take(text):
            found = self.tok.text or "the end"
            raise self._fail(f"expected {text!r}, found {found!r}")

    # -- grammar
    def parse(self) -> Expr:
        e = self._or()
        if self.tok.kind != "end":
            raise self._fail(f"unexpected {self.tok.text!r} after a complete condition "
                             "(join conditions with and / or)")
        return self._need(e, T.BOOL, "the whole constraint must be a condition (true or false)",
                          self.toks[0])

    def _need(self, e: Any, t: T, what: str, tok: _Tok) -> Expr:
        if not isinstance(e, Expr) or e.type is not t:
            shown = _KIND.get(e.type, e.type.value) if isinstance(e, Expr) else e[0]
            raise self._fail(f"{what}, got a {shown}", tok)
        return e

    def _or(self) -> Any:
        start = self.tok
        e = self._and()
        while self._take("or"):
            rhs_tok = self.tok
            e = BoolOp(Op.OR, (self._need(e, T.BOOL, "'or' joins conditions", start),
                               self._need(self._and(), T.BOOL, "'or' joins conditions", rhs_tok)))
        return e

    def _and(self) -> Any:
        start = self.tok
        e = self._not()
        while self._take("and"):
            rhs_tok = self.tok
            e = BoolOp(Op.AND, (self._need(e, T.BOOL, "'and' joins conditions", start),
                                self._need(self._not(), T.BOOL, "'and' joins conditions", rhs_tok)))
        return e

    def _enter(self, tok: _Tok) -> None:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise self._fail(f"brackets and 'not's nested more than {MAX_NESTING} deep", tok)

    def _not(self) -> Any:
        tok = self.tok
        if self._take("not"):
            self._enter(tok)
            tok = self.tok
            e = Not(self._need(self._not(), T.BOOL, "'not' takes a condition", tok))
            self.nesting -= 1
            return e
        return self._cmp()

    _CMP: dict[str, Callable[[Expr, Expr], Expr]] = {
        "==": lambda a, b: a == b, "=": lambda a, b: a == b, "!=": lambda a, b: a != b,
        "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
    }

    def _cmp(self) -> Any:
        start = self.tok
        e = self._sum()
        op = self.tok.text if self.tok.kind == "op" else ""
        if op in self._CMP:
            self.i += 1
            rhs_tok = self.tok
            rhs = self._sum()
            lhs_e, rhs_e = self._operand(e, start), self._operand(rhs, rhs_tok)
            if lhs_e.type is not rhs_e.type:
                raise self._fail(f"cannot compare a {_KIND.get(lhs_e.type, lhs_e.type.value)} "
                                 f"with a {_KIND.get(rhs_e.type, rhs_e.type.value)}", rhs_tok)
            if op not in ("==", "=", "!=") and lhs_e.type is not T.INT:
                raise self._fail(f"{op} compares numbers, not "
                                 f"{_KIND.get(lhs_e.type, lhs_e.type.value)}s", start)
            return self._CMP[op](lhs_e, rhs_e)
        return e

    def _operand(self, e: Any, tok: _Tok) -> Expr:
        """A value that can be compared: an expression, a seat, a suit or a card."""
        if isinstance(e, Expr):
            return e
        if isinstance(e, tuple) and e[0] == "seat":
            return Const(e[1], T.SEAT)
        if isinstance(e, tuple) and e[0] == "suit":
            return Const(e[1], T.SUIT)
        if isinstance(e, tuple) and e[0] == "card":
            return Const(e[1], T.CARD)
        raise self._fail(f"{tok.text!r} is not a value that can be compared", tok)

    def _sum(self) -> Any:
        start = self.tok
        e = self._term()
        while self.tok.text in ("+", "-") and self.tok.kind == "op":
            op = self.tok.text
            self.i += 1
            rhs_tok = self.tok
            a = self._need(e, T.INT, f"{op!r} adds numbers", start)
            b = self._need(self._term(), T.INT, f"{op!r} adds numbers", rhs_tok)
            e = a + b if op == "+" else a - b
        return e

    def _term(self) -> Any:
        start = self.tok
        e = self._atom()
        while self._take("*"):
            rhs_tok = self.tok
            a = self._need(e, T.INT, "'*' multiplies numbers", start)
            e = a * self._need(self._atom(), T.INT, "'*' multiplies numbers", rhs_tok)
        return e

    def _atom(self) -> Any:
        tok = self.tok
        if self._take("("):
            self._enter(tok)
            e = self._or()
            self._expect(")")
            self.nesting -= 1
            return e
        if tok.kind == "number":
            if len(tok.text.lstrip("0")) > MAX_DIGITS:
                raise self._fail(f"a number of more than {MAX_DIGITS} digits", tok)
            self.i += 1
            return lift(int(tok.text), T.INT)
        if tok.kind == "card":
            self.i += 1
            return ("card", self._card(tok))
        if tok.kind == "name":
            self.i += 1
            if self.tok.text == "(" and self.tok.kind == "op":
                return self._call(tok)
            return self._name(tok)
        raise self._fail(f"expected a value, found {tok.text or 'the end'!r}")

    def _card(self, tok: _Tok) -> Card:
        try:
            return self.game.deck.parse_card(tok.text)
        except NotationError as e:
            raise self._fail(str(e), tok) from None

    def _name(self, tok: _Tok) -> Any:
        word = tok.text.lower() if tok.text not in "♠♥♦♣" else tok.text
        if word in self.seats:
            return ("seat", self.seats[word])
        if word == "dealer":
            return Ref(Ctx.DEALER)
        if word in _SUIT_WORDS:
            return ("suit", _SUIT_WORDS[word])
        if word in _RANK_WORDS:
            return ("rank", _RANK_WORDS[word])
        if word in ("true", "false"):
            return lift(word == "true", T.BOOL)
        if word == "declarer":
            return Ref(Ctx.DECLARER)
        if word == "partner":  # the partner the deal forms for the declarer, if any
            return Ref(Ctx.DECLARER_PARTNER)
        if word == "side":  # the declaring side: only tricks(side) and won(side) take it
            return ("side", None)
        if word == "level":
            return Ref(Ctx.CONTRACT).level
        if word == "strain":
            return Ref(Ctx.CONTRACT).strain
        if word in ("notrumps", "grand"):
            return Const(None, T.SUIT)
        named = self._contract_level(word)
        if named is not None:  # a contract the game names (miserie, troel): its level
            return Const(named, T.INT)
        raise self._fail(f"unknown name {tok.text!r} (seats: {', '.join(self.game.table.names)}; "
                         "also dealer, suits such as spades, ranks such as aces, cards such as "
                         "AS, and the contracts the game names)", tok)

    def _contract_level(self, word: str) -> int | None:
        """The level of the contract the game calls ``word`` (``level == miserie``), if any."""
        for b in self.game.ladder:
            if b.label and b.label.lower() == word:
                return b.level
        return None

    _FUNCS = ("holds", "count", "void", "length", "points", "lead", "leader", "winner",
              "played", "tricks", "won", "score", "declares", "dd")
    _BY_TRICK = {"lead": LedTo, "leader": LeaderOf, "winner": WinnerOf}

    def _trick(self, e: Any, tok: _Tok) -> Expr:
        """A trick number: a number from 1 to the deal's tricks."""
        k = self._need(e, T.INT, "a trick is given by its number", tok)
        if isinstance(k, Const) and not 1 <= int(k.value) <= self.game.tricks:  # type: ignore[call-overload]
            raise self._fail(f"tricks are numbered 1 to {self.game.tricks}", tok)
        return k

    def _call(self, name: _Tok) -> Expr:
        fn = name.text.lower()
        if fn not in self._FUNCS:
            raise self._fail(f"unknown function {name.text!r} (functions: "
                             f"{', '.join(self._FUNCS)})", name)
        if fn == "dd":
            return self._dd(name)
        self._expect("(")
        args: list[tuple[Any, _Tok]] = []
        if not self._take(")"):
            while True:
                tok = self.tok
                args.append((self._sum(), tok))
                if self._take(")"):
                    break
                self._expect(",")
        if fn in self._BY_TRICK:
            if len(args) != 1:
                raise self._fail(f"{fn} takes a trick number, e.g. {fn}(7)", name)
            return self._BY_TRICK[fn](self._trick(*args[0]))  # type: ignore[no-any-return]
        if fn == "played":
            if len(args) != 2 or not (isinstance(args[1][0], tuple) and args[1][0][0] == "seat"):
                raise self._fail("played takes a trick number and a seat, e.g. played(7, "
                                 f"{self.game.table.names[0]})",
                                 name)
            return PlayedTo(self._trick(*args[0]), Const(args[1][0][1], T.SEAT))
        if not args:
            raise self._fail(f"{fn} needs a seat first, e.g. {fn}({self.game.table.names[0]}, ...)",
                             name)
        seat_arg, seat_tok = args[0]
        if fn in ("tricks", "won", "score", "declares"):
            if len(args) != 1:
                raise self._fail(f"{fn} takes only a seat", name)
            if fn in ("tricks", "won") and isinstance(seat_arg, tuple) and seat_arg[0] == "side":
                return self._side_total(TricksWon if fn == "tricks" else PointsWon)
            who = self._operand(seat_arg, seat_tok)
            if who.type is not T.SEAT:
                raise self._fail(f"{fn} takes a seat, e.g. {fn}(declarer)", seat_tok)
            return {"tricks": TricksWon, "won": PointsWon, "score": ScoreOf,  # type: ignore[no-any-return]
                    "declares": IsDeclarer}[fn](who)
        if isinstance(seat_arg, tuple) and seat_arg[0] == "seat":
            seat = seat_arg[1]
        else:
            raise self._fail(f"{fn} needs a seat first, e.g. {fn}({self.game.table.names[0]}, "
                             "...)", seat_tok)
        rest = args[1:]
        g = self.game
        if fn in ("length", "points"):
            if rest:
                raise self._fail(f"{fn} takes only a seat", rest[0][1])
            try:
                return length(g, seat) if fn == "length" else points_held(g, seat)
            except NotationError as e:
                raise self._fail(str(e), name) from None
        if fn == "holds":
            if not rest or any(not (isinstance(a, tuple) and a[0] == "card") for a, _t in rest):
                bad = next((t for a, t in rest if not (isinstance(a, tuple) and a[0] == "card")),
                           name)
                raise self._fail("holds takes a seat and one or more cards, e.g. "
                                 f"holds({g.table.names[0]}, AS, KS)", bad)
            return holds(g, seat, *(a[1] for a, _t in rest))
        if len(rest) != 1:
            raise self._fail(f"{fn} takes a seat and a {'suit' if fn == 'void' else 'suit or rank'}",
                             name)
        what, tok = rest[0]
        if isinstance(what, tuple) and what[0] == "suit":
            return void(g, seat, what[1]) if fn == "void" else count(g, seat, what[1])
        if fn == "count" and isinstance(what, tuple) and what[0] == "rank":
            return count(g, seat, what[1])
        raise self._fail(f"{fn} takes a seat and a {'suit' if fn == 'void' else 'suit or rank'}, "
                         f"e.g. {fn}({g.table.names[0]}, spades)", tok)


    def _side_total(self, what: Any) -> Expr:
        """The tricks (or points) of the declaring side: the declarer's partnership where
        the table has partnerships, else the declarer and the partner the deal gives him."""
        declarer, partner = Ref(Ctx.DECLARER), Ref(Ctx.DECLARER_PARTNER)
        teams = self.game.table.partnerships
        total: Expr | None = None
        for k in range(self.game.players):
            seat = Const(k, T.SEAT)
            team = next((t for t in teams if k in t), None)
            inside: Expr
            if team is not None:
                inside = BoolOp(Op.OR, tuple(declarer == Const(j, T.SEAT) for j in team))
            else:
                inside = (declarer == seat) | (partner == seat)
            term = IfThenElse(inside, what(seat), lift(0, T.INT))
            total = term if total is None else total + term
        assert total is not None
        return total

    # -- dd(): the double-dummy value
    def _strains(self) -> dict[str, list[int]]:
        """The strains as the bids name them (``S``, ``NT``), each with its contracts (places
        on the ladder), lowest first; none on a ladder of contracts named by name."""
        out: dict[str, list[int]] = {}
        for i, b in enumerate(self.game.ladder):
            if not b.label:
                out.setdefault(b.strain.letter if b.strain else "NT", []).append(i)
        return out

    def _dd_example(self) -> str:
        strains = self._strains()
        what = ("NT" if "NT" in strains else next(iter(strains))) if strains else \
            str(self.game.ladder[0])
        return f"dd({self.game.table.names[0]}, {what})"

    def _dd(self, name: _Tok) -> Expr:
        """``dd()``, ``dd(seat, strain)``, ``dd(seat, contract)`` or ``dd(seat, contract,
        trumps)``: the contract's words are read as written (``7NT``, ``20S``, ``160``)."""
        example = self._dd_example()
        self._expect("(")
        if self._take(")"):
            return DoubleDummy(-1, -1, None, "dd()")
        seat_tok = self.tok
        seat = self._atom() if seat_tok.kind == "name" else None
        if not (isinstance(seat, tuple) and seat[0] == "seat"):
            raise self._fail(f"dd takes a seat's name first, e.g. {example} (or nothing: dd() "
                             "is the value of the contract played)", seat_tok)
        if not self._take(","):
            raise self._fail(f"dd takes a seat and a strain or a contract, e.g. {example}")
        what_tok = self.tok
        words = []
        while self.tok.kind != "end" and self.tok.text not in (",", ")"):
            words.append(self.tok.text)
            self.i += 1
        contract, named = self._dd_contract("".join(words), what_tok, seat[1])
        trump = None
        if self._take(","):
            suit_tok = self.tok
            suit = self._atom() if suit_tok.kind == "name" else None
            if not (isinstance(suit, tuple) and suit[0] == "suit"):
                raise self._fail("the third argument of dd is the trumps, a suit such as "
                                 "spades", suit_tok)
            if named:
                raise self._fail(f"{''.join(words)} names its strain: trumps are given only "
                                 "for a contract that names none", suit_tok)
            trump = suit_code(suit[1])
        self._expect(")")
        text = self.text[name.pos - 1:self.toks[self.i - 1].pos]
        return DoubleDummy(seat[1], contract, trump, text)

    def _dd_contract(self, what: str, tok: _Tok, seat: int) -> tuple[int, bool]:
        """The contract ``what`` names (a place on the ladder), and whether it names its
        strain.  A strain stands for its lowest contract, once a sample deal shows that
        every contract in it plays for the same thing (it does not where the level decides
        how many tricks are best)."""
        strains = self._strains()
        word = what.lower()
        strain = (_SUIT_WORDS[word].letter if word in _SUIT_WORDS
                  else "NT" if word in ("notrumps", "grand") else what.upper())
        if strain in strains:
            self._same_goal(strains[strain], seat, what, tok)
            return strains[strain][0], True
        try:
            bid = self.game.parse_bid(what)
        except NotationError:
            shown = (f"a strain ({', '.join(strains)}) or a contract such as "
                     f"{self.game.ladder[-1]}" if strains else
                     f"a contract ({', '.join(str(b) for b in self.game.ladder)})")
            raise self._fail(f"dd takes a seat and {shown}, got {what or 'nothing'!r}", tok) \
                from None
        return self.game.ladder.index(bid), not bid.label

    def _same_goal(self, contracts: list[int], seat: int, what: str, tok: _Tok) -> None:
        from spec.solver import Solver

        solver = Solver(self.game)
        eng = solver.engine
        hands = eng.hands_from_order(eng.deal_order(0, 0), self.game.players - 1)
        goals: dict[Any, int] = {}
        for c in contracts:
            goals.setdefault(solver.search(solver.start(hands, contract=c, declarer=seat), 0).goal,
                             c)
        if len(goals) > 1:
            ladder = self.game.ladder
            told = "; ".join(f"{ladder[c]}: {g.describe(solver.unit)}" for g, c in goals.items())
            raise self._fail(f"the contracts in {what} play for different things ({told}): "
                             f"name one, e.g. dd({self.game.table.names[seat]}, "
                             f"{ladder[contracts[0]]})", tok)


def parse_where(game: Game, text: str) -> Expr:
    """Read a deal constraint written in the text form (see the module docstring).

    Raises:
        NotationError: an unknown name or function, a type error or a syntax error, with the
            column where it is.
    """
    if not isinstance(text, str) or not text.strip():
        raise NotationError("an empty constraint: write a condition such as "
                            f"'count({game.table.names[0]}, spades) >= 5'", value=text)
    if len(text) > MAX_CHARS:
        raise NotationError(f"a constraint of {len(text):,} characters; at most {MAX_CHARS:,}",
                            value=text)
    e = _Parser(game, text).parse()
    if _depth(e) > MAX_DEPTH:
        raise NotationError(f"a constraint more than {MAX_DEPTH} operations deep (a long chain "
                            "of 'and', 'or', '+' or '*' counts one per link)", value=text)
    return e




def deal_test(game: Game, where: Expr) -> Callable[[int, tuple[int, ...]], bool]:
    """The constraint as a Python function of (dealer, hands as dealt), compiled by the
    engine's back end: the check every generated deal must pass.

    Raises:
        NotationError: the condition reads something a deal does not have yet.
    """
    return deal_function(game, where)


def deal_function(game: Game, where: Expr, given: Mapping[Any, str] | None = None
                  ) -> Callable[..., Any]:
    """:func:`deal_test`'s function, with more arguments after the two: a value for each
    node of ``given`` (a :class:`~spec.dsl._nodes.Var`), named as it says.

    Raises:
        NotationError: the condition reads something a deal does not have yet.
    """
    from spec.dsl._pycompile import GameTables, compile_function
    from spec.dsl._visitor import UnsupportedNodeError

    try:
        return compile_function(game, GameTables(game), where, {Ctx.DEALER: "dealer",
                                                                ("param", "dealt"): "dealt",
                                                                **(given or {})},
                                extra_env={DealtHand: "dealt[{seat}]"}, name="where")
    except UnsupportedNodeError as e:
        raise NotationError(f"a deal constraint can read the hands as dealt and the dealer "
                            f"only: {e}") from None


_PLAY_NODES = (PlayedTo, LedTo, LeaderOf, WinnerOf, TricksWon, PointsWon, ScoreOf, IsDeclarer)
_PLAY_CTX = (Ctx.CONTRACT, Ctx.DECLARER, Ctx.TRUMP, Ctx.DECLARER_PARTNER)


def about_play(where: Expr) -> bool:
    """Whether a constraint reads the auction or the play (a scenario), not only the deal."""
    return any(isinstance(n, _PLAY_NODES) or (isinstance(n, Ref) and n.ctx in _PLAY_CTX)
               or (isinstance(n, DoubleDummy) and n.played) for n in walk(where))


def history_test(game: Game, where: Expr) -> Callable[[Any], bool]:
    """A scenario constraint as a function of a finished engine state, compiled by the
    engine's back end: the check a synthesized deal must pass after its replay."""
    fn, args = history_function(game, where)
    return lambda state: bool(fn(*args(state)))


def history_function(game: Game, where: Expr, given: Mapping[Any, str] | None = None
                     ) -> tuple[Callable[..., Any], Callable[[Any], tuple[Any, ...]]]:
    """:func:`history_test`'s function and the arguments it takes from a finished state;
    after them, it takes a value for each node of ``given`` (a
    :class:`~spec.dsl._nodes.Var`), named as it says."""
    from spec.dsl._nodes import Taken, WonTrick
    from spec.dsl._pycompile import GameTables, compile_function

    params: dict[Any, str] = {
        Ctx.DEALER: "dealer", Ctx.CONTRACT: "contract", Ctx.DECLARER: "declarer",
        Ctx.TRUMP: "trump", ("param", "tv"): "tv", ("param", "dealt"): "dealt",
        ("param", "won"): "won", ("param", "taken"): "taken",
        ("param", "played"): "played", ("param", "leaders"): "leaders",
        ("param", "winners"): "winners", ("param", "callers"): "callers",
        Ctx.POT: "pot",  # the pot the deal began with (a game with a Pot)
        Ctx.DECLARER_PARTNER: "partner", ("param", "declarers"): "declarers",
        **(given or {})}
    from spec.engine import Call, engine_for

    eng = engine_for(game)
    extra: dict[Any, str] = {
        DealtHand: "dealt[{seat}]", Taken: "taken[{seat}]", TricksWon: "won[{seat}].bit_count()",
        WonTrick: "((won[{seat}] >> ({number})) & 1 == 1)",
        PlayedTo: "played[{trick}][{seat}]", LedTo: "played[{trick}][leaders[{trick}]]",
        LeaderOf: "leaders[{trick}]", WinnerOf: "winners[{trick}]",
        CallerOf: "(callers[{call}] if 0 < {call} < len(callers) else -1)",
        # no seat (-1: the winner of a trick never played) declares
        IsDeclarer: "({seat} >= 0 and (declarers >> ({seat})) & 1 == 1)",
        **{("tracked", name): f"tv[{i}]" for i, name in enumerate(eng.tracked_names)},
    }
    fn = compile_function(game, GameTables(game), where, params, extra_env=extra, name="scenario")

    def args(state: Any) -> tuple[Any, ...]:
        n = game.players
        played: list[list[int]] = [[-1] * n for _ in range(game.tricks + 1)]
        leaders = [-1] * (game.tricks + 1)
        winners = [-1] * (game.tricks + 1)
        for rec in state.tricks:
            for seat, card in zip(rec.seats, rec.cards):
                played[rec.number][seat] = card
            leaders[rec.number], winners[rec.number] = rec.leader, rec.winner
        callers = [-1] + [seat for seat, action in state.log if isinstance(action, Call)]
        return (state.dealer, state.contract, state.declarer, state.trump, state.tracked,
                state.dealt, state.won, state.taken, played, leaders, winners, callers,
                state.pot, state.partner, state.declarers)

    return fn, args
