"""Card notation, decks and sets of cards (spec.cards)."""
from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec.cards import (
    FRENCH_52,
    JOKER,
    PIQUET_32,
    SUITS,
    Card,
    CardSet,
    Deck,
    Rank,
    Suit,
    make_deck,
    ranks,
)
from spec.errors import NotationError, SpecError

# The Crescendo pack, rebuilt here so that card tests don't depend on a game module.
SMALL = make_deck("A 5 4 3 2", jokers=1, name="small")

ALL_CARDS = (*FRENCH_52, JOKER)


def _card(text: str) -> Card:
    return Card.parse(text)


# -- Card notation -------------------------------------------------------------------


@pytest.mark.parametrize("c", ALL_CARDS, ids=str)
def test_card_notation_round_trips(c: Card) -> None:
    assert Card.parse(str(c)) == c


@pytest.mark.parametrize("c", ALL_CARDS, ids=str)
def test_card_symbol_round_trips(c: Card) -> None:
    assert Card.parse(c.symbol) == c


@pytest.mark.parametrize("c", ALL_CARDS, ids=str)
def test_card_repr_rebuilds_the_card(c: Card) -> None:
    assert repr(c) == f"Card.parse('{c}')"
    assert eval(repr(c), {"Card": Card}) == c  # noqa: S307  # the repr contract is "eval rebuilds"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("QS", Card(Suit.SPADES, Rank.QUEEN), id="plain"),
        pytest.param("qs", Card(Suit.SPADES, Rank.QUEEN), id="lower-case"),
        pytest.param("10H", Card(Suit.HEARTS, Rank.TEN), id="ten"),
        pytest.param("TH", Card(Suit.HEARTS, Rank.TEN), id="T-for-ten"),
        pytest.param("th", Card(Suit.HEARTS, Rank.TEN), id="t-lower-case"),
        pytest.param("Q♠", Card(Suit.SPADES, Rank.QUEEN), id="spade-symbol"),
        pytest.param("A♥", Card(Suit.HEARTS, Rank.ACE), id="heart-symbol"),
        pytest.param("7♦", Card(Suit.DIAMONDS, Rank.SEVEN), id="diamond-symbol"),
        pytest.param("10♣", Card(Suit.CLUBS, Rank.TEN), id="club-symbol-ten"),
        pytest.param(" 2c ", Card(Suit.CLUBS, Rank.TWO), id="surrounding-blanks"),
        pytest.param("JK", JOKER, id="joker"),
        pytest.param("jk", JOKER, id="joker-lower-case"),
        pytest.param("Joker", JOKER, id="joker-word"),
    ],
)
def test_card_parse_accepts_documented_notation(text: str, expected: Card) -> None:
    assert Card.parse(text) == expected


def test_card_str_and_symbol() -> None:
    assert str(_card("10h")) == "10H"
    assert _card("QS").symbol == "Q♠"
    assert str(JOKER) == "JK" and JOKER.symbol == "JK"
    assert JOKER.is_joker and not _card("AS").is_joker


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        pytest.param("QX", r"write rank then suit, e\.g\. 'AS'", id="bad-suit"),
        pytest.param("1S", r"write rank then suit, e\.g\. 'AS'", id="rank-1"),
        pytest.param("", r"write rank then suit, e\.g\. 'AS'", id="empty"),
        pytest.param("11H", r"write rank then suit, e\.g\. 'AS'", id="rank-11"),
        pytest.param("S Q", r"write rank then suit, e\.g\. 'AS'", id="suit-first"),
        pytest.param("QS KS", r"write rank then suit, e\.g\. 'AS'", id="two-cards"),
        pytest.param(None, r"expected text such as 'AS'", id="None"),
        pytest.param(12, r"expected text such as 'AS'", id="int"),
    ],
)
def test_card_parse_rejects_bad_notation(text: object, hint: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)  # type: ignore[arg-type]  # deliberately wrong type for some rows
    err = info.value
    message = str(err)
    assert message.startswith(f"not a card: {text!r} (")
    assert re.search(hint, message), message
    assert err.value == text
    # the documented hierarchy: a notation error is a SpecError and a ValueError
    assert isinstance(err, SpecError) and isinstance(err, ValueError)


@pytest.mark.parametrize(
    ("suit", "rank"),
    [
        pytest.param(Suit.SPADES, Rank.JOKER, id="joker-with-suit"),
        pytest.param(None, Rank.ACE, id="ace-without-suit"),
    ],
)
def test_card_constructor_rejects_impossible_cards(suit: Suit | None, rank: Rank) -> None:
    with pytest.raises(NotationError, match=r"^not a card: .*only the joker has no suit"):
        Card(suit, rank)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("h", Suit.HEARTS, id="letter"),
        pytest.param("♠", Suit.SPADES, id="symbol"),
        pytest.param("Clubs", Suit.CLUBS, id="name"),
        pytest.param("diamond", Suit.DIAMONDS, id="singular-name"),
    ],
)
def test_suit_parse(text: str, expected: Suit) -> None:
    assert Suit.parse(text) is expected


def test_suit_parse_error_lists_the_suits() -> None:
    with pytest.raises(NotationError, match=r"^not a suit: 'X' \(expected one of C, D, H, S"):
        Suit.parse("X")


def test_rank_parse_error_lists_the_ranks() -> None:
    with pytest.raises(NotationError, match=r"^not a rank: '1' \(expected 2-10, T, J, Q, K, A or JK\)"):
        Rank.parse("1")


def test_ranks_reads_a_printed_order() -> None:
    assert ranks("A 10 2") == (Rank.ACE, Rank.TEN, Rank.TWO)


# -- Decks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "size"),
    [pytest.param(FRENCH_52, 52, id="french-52"), pytest.param(PIQUET_32, 32, id="piquet-32"),
     pytest.param(SMALL, 21, id="small-with-joker")],
)
def test_deck_numbers_every_card_once(deck: Deck, size: int) -> None:
    assert len(deck) == size
    assert deck.duplicates() == ()
    assert [deck.index(c) for c in deck] == list(range(size))
    assert all(deck[i] == c for i, c in enumerate(deck))


def test_make_deck_orders_suit_by_suit_low_to_high_then_jokers() -> None:
    assert [str(c) for c in SMALL][:6] == ["2C", "3C", "4C", "5C", "AC", "2D"]
    assert SMALL[20] == JOKER


def test_deck_duplicates_are_reported() -> None:
    deck = Deck("doubled", [*SMALL, _card("AS")])
    assert deck.duplicates() == (_card("AS"),)


def test_deck_index_error_names_the_card_and_the_deck() -> None:
    with pytest.raises(NotationError) as info:
        SMALL.index(_card("KS"))
    message = str(info.value)
    assert re.match(r"^card KS is not in the small deck \(it has 21 cards: 2C 3C 4C .* JK\)$", message)
    assert info.value.value == _card("KS")


def test_deck_parse_card_checks_membership() -> None:
    assert SMALL.parse_card("as") == _card("AS")
    with pytest.raises(NotationError, match=r"^card JK is not in the French 52-card deck"):
        FRENCH_52.parse_card("JK")


# -- CardSet -------------------------------------------------------------------------


def _set(text: str, deck: Deck = SMALL) -> CardSet:
    return CardSet.parse(text, deck)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("AS 5S JK", "5S AS JK", id="spaces"),
        pytest.param("as,5s, jk", "5S AS JK", id="commas-lower-case"),
        pytest.param("JK 2C A♥", "2C AH JK", id="symbols"),
        pytest.param("", "-", id="empty-text"),
        pytest.param("-", "-", id="dash"),
    ],
)
def test_cardset_parse_prints_in_deck_order(text: str, expected: str) -> None:
    assert str(_set(text)) == expected


def test_cardset_iterates_in_deck_order() -> None:
    s = _set("JK AS 2C 5H 3D")
    assert list(s) == sorted(s, key=SMALL.index)
    assert [str(c) for c in s] == ["2C", "3D", "5H", "AS", "JK"]


def test_cardset_operations() -> None:
    a, b = _set("AS 5S 2C"), _set("5S JK")
    assert a | b == _set("AS 5S 2C JK")
    assert a & b == _set("5S")
    assert a - b == _set("AS 2C")
    assert len(a) == 3 and len(_set("")) == 0
    assert a and not _set("")
    assert _card("AS") in a and _card("JK") not in a
    assert _card("KS") not in a  # a card of another deck
    assert "AS" not in a  # only cards are members


def test_cardset_symbols_and_deck_helpers() -> None:
    assert _set("AS JK").symbols == "A♠ JK"
    assert _set("").symbols == "-"
    assert len(SMALL.full) == 21
    assert SMALL.cards_of(Suit.HEARTS) == _set("AH 5H 4H 3H 2H")
    assert CardSet.of(SMALL, [_card("5H"), JOKER]) == _set("5H JK")


def test_cardset_with_a_non_cardset_operand_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        _set("AS") | 1  # type: ignore[operator]  # deliberately wrong


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        pytest.param("AS KS", r"^card KS is not in the small deck", id="card-not-in-deck"),
        pytest.param("AS 5S as", r"^card AS is written twice in 'AS 5S as'$", id="duplicate-card"),
        pytest.param("AS QX", r"^not a card: 'QX'", id="malformed-card"),
    ],
)
def test_cardset_parse_errors(text: str, pattern: str) -> None:
    with pytest.raises(NotationError, match=pattern):
        _set(text)


_DECKS = [pytest.param(FRENCH_52, id="french-52"), pytest.param(SMALL, id="small-with-joker")]


def _masks(deck: Deck) -> st.SearchStrategy[int]:
    return st.integers(min_value=0, max_value=(1 << len(deck)) - 1)


@pytest.mark.parametrize("deck", _DECKS)
@given(data=st.data())
def test_cardset_notation_round_trips(deck: Deck, data: st.DataObject) -> None:
    s = CardSet(deck, data.draw(_masks(deck), label="mask"))
    assert CardSet.parse(str(s), deck) == s
    assert CardSet.parse(s.symbols, deck) == s
    assert CardSet.parse(", ".join(str(c).lower() for c in s), deck) == s
    assert CardSet.of(deck, s) == s
    assert len(s) == len(list(s)) == len(set(s))
    assert [deck.index(c) for c in s] == sorted(deck.index(c) for c in s)


@pytest.mark.parametrize("deck", _DECKS)
@given(data=st.data())
def test_cardset_operators_agree_with_python_sets(deck: Deck, data: st.DataObject) -> None:
    a = CardSet(deck, data.draw(_masks(deck), label="a"))
    b = CardSet(deck, data.draw(_masks(deck), label="b"))
    assert set(a | b) == set(a) | set(b)
    assert set(a & b) == set(a) & set(b)
    assert set(a - b) == set(a) - set(b)
    assert all((c in a) == (c in set(a)) for c in deck)


def test_every_suit_has_a_symbol_and_a_letter() -> None:
    assert [s.letter for s in SUITS] == ["C", "D", "H", "S"]
    assert "".join(s.symbol for s in SUITS) == "♣♦♥♠"
