"""Cards, decks and sets of cards, the same for every game.

Suits and ranks carry no strength and no points: orders and points differ from game to
game, so each game module states them as tables.  A deck is an ordered tuple of cards and
``deck.index(card)`` is the only card numbering in the code base: bit *i* of a
:class:`CardSet` is card *i* of its deck, in the engine and in the Z3 encoding alike.

Notation: a card is its rank then its suit letter, ``AS``, ``10H``, ``7C``, ``QD``; the
joker is ``JK``.  ``T`` is accepted for ten, lower case is accepted, and so are the suit
symbols ``♠♥♦♣``.  A set of cards is written as cards separated by spaces or commas.

>>> Card.parse("10h")
Card.parse('10H')
>>> Card.parse("QS").symbol
'Q♠'
>>> str(Card.parse("jk"))
'JK'
"""
from __future__ import annotations

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "Deck",
    "CardSet",
    "SUITS",
    "JOKER",
    "make_deck",
    "ranks",
    "FRENCH_52",
    "PIQUET_32",
]

import enum
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from spec.errors import NotationError


class Suit(enum.Enum):
    """The four French suits; their order here means nothing to any game."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter (``S``), symbol (``♠``) or English name.

        >>> Suit.parse("h")
        <Suit.HEARTS: 'H'>
        >>> Suit.parse("spades").symbol
        '♠'
        """
        if not isinstance(text, str):
            raise NotationError(f"not a suit: {text!r} (expected one of C, D, H, S)", value=text)
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.value, suit.name, suit.name[:-1]) or text.strip() == suit.symbol:
                return suit
        raise NotationError(
            f"not a suit: {text!r} (expected one of C, D, H, S or ♣ ♦ ♥ ♠)", value=text
        )

    def __str__(self) -> str:
        return self.value


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


class Rank(enum.Enum):
    """Card ranks by their printed index; the joker is a rank of its own."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"
    JOKER = "JK"

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: ``2``..``10`` (or ``T``), ``J``, ``Q``, ``K``, ``A``, ``JK``.

        >>> Rank.parse("t")
        <Rank.TEN: '10'>
        """
        if not isinstance(text, str):
            raise NotationError(f"not a rank: {text!r} (expected 2-10, T, J, Q, K, A or JK)", value=text)
        key = text.strip().upper()
        if key == "T":
            key = "10"
        for rank in cls:
            if rank.value == key:
                return rank
        raise NotationError(
            f"not a rank: {text!r} (expected 2-10, T, J, Q, K, A or JK)", value=text
        )

    def __str__(self) -> str:
        return self.value


_CARD_RE = re.compile(r"^\s*(10|[2-9TJQKA])\s*([CDHS♣♦♥♠])\s*$", re.IGNORECASE)
_SYMBOL_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a suit and a rank, or the joker (no suit)."""

    suit: Suit | None
    rank: Rank

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise NotationError(
                f"not a card: suit {self.suit} with rank {self.rank} "
                "(only the joker has no suit, and the joker has none)",
                value=(self.suit, self.rank),
            )

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card in the documented notation.

        >>> Card.parse("AS") == Card(Suit.SPADES, Rank.ACE)
        True
        >>> Card.parse("Q♥")
        Card.parse('QH')
        >>> Card.parse("QX")
        Traceback (most recent call last):
        ...
        spec.errors.NotationError: not a card: 'QX' (write rank then suit, e.g. 'AS', '10H', '7C', or 'JK' for the joker)
        """
        if not isinstance(text, str):
            raise NotationError(f"not a card: {text!r} (expected text such as 'AS')", value=text)
        if text.strip().upper() in ("JK", "JOKER"):
            return JOKER
        m = _CARD_RE.match(text)
        if not m:
            raise NotationError(
                f"not a card: {text!r} (write rank then suit, e.g. 'AS', '10H', '7C', "
                "or 'JK' for the joker)",
                value=text,
            )
        rank_text, suit_text = m.groups()
        suit_letter = _SYMBOL_LETTER.get(suit_text, suit_text.upper())
        return cls(Suit(suit_letter), Rank.parse(rank_text))

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, ``Q♠``; the joker is ``JK``."""
        if self.suit is None:
            return "JK"
        return f"{self.rank.value}{self.suit.symbol}"

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return f"{self.rank.value}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER = Card(None, Rank.JOKER)


@dataclass(frozen=True, slots=True, eq=False)
class Deck:
    """An ordered pack of cards; position in the deck is the card's number.

    >>> d = make_deck("A 5 4 3 2", jokers=1, name="test")
    >>> len(d), d.index(Card.parse("5C")), d[20]
    (21, 3, Card.parse('JK'))
    """

    name: str
    cards: tuple[Card, ...]
    _index: dict[Card, int] = field(repr=False, compare=False)

    def __init__(self, name: str, cards: Iterable[Card]) -> None:
        cards = tuple(cards)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "cards", cards)
        index: dict[Card, int] = {}
        for i, c in enumerate(cards):
            index.setdefault(c, i)
        object.__setattr__(self, "_index", index)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __getitem__(self, i: int) -> Card:
        return self.cards[i]

    def __contains__(self, card: object) -> bool:
        return card in self._index

    def duplicates(self) -> tuple[Card, ...]:
        """Cards that occur more than once (a well-formed deck has none)."""
        seen: set[Card] = set()
        dup = []
        for c in self.cards:
            if c in seen:
                dup.append(c)
            seen.add(c)
        return tuple(dup)

    def index(self, card: Card) -> int:
        """The card's number in this deck.

        Raises:
            NotationError: the card is not in this deck.
        """
        try:
            return self._index[card]
        except KeyError:
            raise NotationError(
                f"card {card} is not in the {self.name} deck "
                f"(it has {len(self.cards)} cards: {' '.join(map(str, self.cards))})",
                value=card,
            ) from None

    def parse_card(self, text: str) -> Card:
        """Read a card and check that it belongs to this deck."""
        card = Card.parse(text)
        self.index(card)
        return card

    @property
    def full(self) -> CardSet:
        """All cards of the deck as a set."""
        return CardSet(self, (1 << len(self.cards)) - 1)

    def cards_of(self, suit: Suit) -> CardSet:
        """All cards of one suit."""
        return CardSet(self, sum(1 << i for i, c in enumerate(self.cards) if c.suit is suit))

    def __repr__(self) -> str:
        return f"<Deck {self.name}: {len(self.cards)} cards>"


def ranks(text: str) -> tuple[Rank, ...]:
    """Read a space-separated list of ranks, as printed in a rulebook.

    >>> ranks("A 5 4 3 2")
    (<Rank.ACE: 'A'>, <Rank.FIVE: '5'>, <Rank.FOUR: '4'>, <Rank.THREE: '3'>, <Rank.TWO: '2'>)
    """
    return tuple(Rank.parse(t) for t in text.split())


def make_deck(
    rank_text: str | Iterable[Rank],
    *,
    suits: Iterable[Suit] = SUITS,
    jokers: int = 0,
    name: str = "custom",
) -> Deck:
    """A deck of the given ranks in every suit (suit by suit), then the jokers."""
    rank_list = ranks(rank_text) if isinstance(rank_text, str) else tuple(rank_text)
    cards = [Card(s, r) for s in suits for r in reversed(rank_list)]
    cards.extend(JOKER for _ in range(jokers))
    return Deck(name, cards)


FRENCH_52 = make_deck("A K Q J 10 9 8 7 6 5 4 3 2", name="French 52-card")
PIQUET_32 = make_deck("A K Q J 10 9 8 7", name="Piquet 32-card")


@dataclass(frozen=True, slots=True)
class CardSet:
    """An immutable set of cards of one deck, stored as a bitmask in deck order.

    >>> d = make_deck("A 5 4 3 2", jokers=1)
    >>> s = CardSet.parse("AS 5S JK", d)
    >>> len(s), Card.parse("5S") in s, str(s)
    (3, True, '5S AS JK')
    >>> str(s - CardSet.parse("JK", d))
    '5S AS'
    """

    deck: Deck = field(repr=False)  # decks compare by identity
    mask: int

    @classmethod
    def parse(cls, text: str, deck: Deck) -> CardSet:
        """Read cards separated by spaces or commas; ``-`` or ``""`` is the empty set.

        Raises:
            NotationError: a card is malformed, not in the deck, or written twice.
        """
        mask = 0
        for token in re.split(r"[\s,]+", text.strip()):
            if token in ("", "-"):
                continue
            card = deck.parse_card(token)
            bit = 1 << deck.index(card)
            if mask & bit:
                raise NotationError(f"card {card} is written twice in {text!r}", value=text)
            mask |= bit
        return cls(deck, mask)

    @classmethod
    def of(cls, deck: Deck, cards: Iterable[Card]) -> CardSet:
        mask = 0
        for c in cards:
            mask |= 1 << deck.index(c)
        return cls(deck, mask)

    def _other(self, other: CardSet) -> int:
        if not isinstance(other, CardSet) or other.deck is not self.deck:
            raise TypeError(f"card sets combine only with card sets of the same deck, got {other!r}")
        return other.mask

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.deck, self.mask | self._other(other))

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.deck, self.mask & self._other(other))

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.deck, self.mask & ~self._other(other))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        if not isinstance(card, Card) or card not in self.deck:
            return False
        return bool(self.mask >> self.deck.index(card) & 1)

    def __iter__(self) -> Iterator[Card]:
        m = self.mask
        cards = self.deck.cards
        while m:
            low = m & -m
            yield cards[low.bit_length() - 1]
            m ^= low

    def __str__(self) -> str:
        return " ".join(str(c) for c in self) if self.mask else "-"

    @property
    def symbols(self) -> str:
        return " ".join(c.symbol for c in self) if self.mask else "-"

    def __repr__(self) -> str:
        return f"<CardSet {self} of the {self.deck.name} deck>"
