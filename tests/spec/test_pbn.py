"""PBN, the Portable Bridge Notation: reading and writing deals (spec.pbn)."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spec.cards import Card, CardSet
from spec.dsl import Game
from spec.engine import Call, Play, new_deal, play_deal
from spec.errors import NotationError
from spec.games import crescendo, three_oh_four
from spec.games.vint import GAME
from spec.pbn import (
    PbnDeal,
    PbnError,
    check_pbn_game,
    deal_text,
    parse_deal_text,
    read_pbn,
    write_pbn,
)

T = GAME.table
NORTH, EAST, SOUTH, WEST = (T.parse_seat(n) for n in ("North", "East", "South", "West"))

# A deal everyone can check by eye: North holds the top cards, West the bottom ones.
N_HAND, E_HAND, S_HAND, W_HAND = ("AKQJ.AKQ.AKQ.AKQ", "T98.JT9.JT9.JT98",
                                  "765.8765.876.765", "432.432.5432.432")
DEAL = f"N:{N_HAND} {E_HAND} {S_HAND} {W_HAND}"


def holds(deal: PbnDeal, seat: int, card: str) -> bool:
    return Card.parse(card) in CardSet(GAME.deck, deal.hands[seat])


def tags(deal: PbnDeal) -> dict[str, str]:
    return dict(deal.tags)


# -- reading -------------------------------------------------------------------------

SNIPPET = f"""\
% PBN 2.1
% EXPORT
; a hand-written file: comments, a section, repeated values
[Event "Club night"]
[Site "Moscow"]
[Date "1911.??.??"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{DEAL}"]
{{ a comment over two lines,
   with a tag in it that is not one: [Deal "N:-"] }}
[Auction "N"]
1S Pass 2S Pass ; a comment in the auction
Pass Pass
[Contract "2S"]

[Event "#"]
[Board "2"]
[Dealer "#"]
[Deal "E:{W_HAND} {N_HAND} {E_HAND} {S_HAND}"]

[Event "#"]
[Board "#"]
[Dealer "w"]
[Deal "#"]

[Event "a game without a deal is skipped"]
"""


def test_snippet_reads_the_right_cards_for_the_right_seats() -> None:
    first, second, third = read_pbn(GAME, SNIPPET)
    assert holds(first, NORTH, "AS") and holds(first, NORTH, "KC")
    assert holds(first, EAST, "10S") and holds(first, SOUTH, "8H") and holds(first, WEST, "2D")
    assert (first.dealer, first.board) == (NORTH, "1")
    assert tags(first) == {"Event": "Club night", "Site": "Moscow", "Date": "1911.??.??",
                           "Vulnerable": "None", "Auction": "N", "Contract": "2S"}
    # E: lists East first, then South, West, North
    assert holds(second, EAST, "2S") and holds(second, SOUTH, "AS")
    assert holds(second, WEST, "10S") and holds(second, NORTH, "7S")
    assert (second.dealer, second.board, tags(second)["Event"]) == (NORTH, "2", "Club night")
    assert third.hands == second.hands
    assert (third.dealer, third.board, tags(third)["Event"]) == (WEST, "2", "Club night")


def test_deal_starting_with_east_puts_the_first_hand_on_east() -> None:
    hands = parse_deal_text(GAME, f"E:{N_HAND} {E_HAND} {S_HAND} {W_HAND}")
    assert hands[EAST] == parse_deal_text(GAME, DEAL)[NORTH]
    assert hands[SOUTH] == parse_deal_text(GAME, DEAL)[EAST]
    assert hands[NORTH] == parse_deal_text(GAME, DEAL)[WEST]


def test_ten_and_lower_case_are_read() -> None:
    deal = f"n:akqj.akq.akq.akq 1098.J109.jt9.JT98 {S_HAND} {W_HAND}"
    assert parse_deal_text(GAME, deal) == parse_deal_text(GAME, DEAL)


def test_header_values_with_two_hashes_hold_for_later_games() -> None:
    text = f"""\
[Date "##2024.05.01"]
[Dealer "##S"]
[Deal "{DEAL}"]

[Deal "{DEAL}"]

[Date "2024.05.02"]
[Dealer "E"]
[Deal "{DEAL}"]

[Deal "{DEAL}"]
"""
    deals = read_pbn(GAME, text)
    assert [tags(d)["Date"] for d in deals] == ["2024.05.01", "2024.05.01", "2024.05.02",
                                                "2024.05.02"]
    assert [d.dealer for d in deals] == [SOUTH, SOUTH, EAST, EAST]


def test_a_repeated_event_or_deal_starts_a_new_game_without_a_blank_line() -> None:
    text = (f'[Event "one"]\n[Deal "{DEAL}"]\n[Event "two"]\n[Deal "{DEAL}"]\n'
            f'[Board "3"]\n[Deal "E:{N_HAND} {E_HAND} {S_HAND} {W_HAND}"]\n')
    deals = read_pbn(GAME, text)
    assert [tags(d).get("Event") for d in deals] == ["one", "two", None]
    assert [d.board for d in deals] == [None, "3", None]


def test_missing_or_unknown_dealer_is_none() -> None:
    assert read_pbn(GAME, f'[Deal "{DEAL}"]')[0].dealer is None
    assert read_pbn(GAME, f'[Dealer "?"]\n[Deal "{DEAL}"]')[0].dealer is None


def test_a_deal_read_from_pbn_can_be_played() -> None:
    [deal] = read_pbn(GAME, f'[Dealer "E"]\n[Deal "{DEAL}"]')
    assert deal.dealer is not None
    state = new_deal(GAME, hands=deal.hands, dealer=deal.dealer)
    assert state.dealt == deal.hands and state.dealer == EAST


# -- round trips ---------------------------------------------------------------------


@settings(max_examples=50)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from(tuple(T.seats)))
def test_engine_deals_round_trip(seed: int, dealer: int) -> None:
    state = new_deal(GAME, seed=seed, dealer=dealer)
    [back] = read_pbn(GAME, write_pbn(GAME, [state]))
    assert (back.hands, back.dealer) == (state.dealt, state.dealer)


def test_fifty_deals_in_one_file_round_trip() -> None:
    states = [new_deal(GAME, seed=s, dealer=s % 4) for s in range(50)]
    text = write_pbn(GAME, states)
    back = read_pbn(GAME, text)
    assert [(d.hands, d.dealer) for d in back] == [(s.dealt, s.dealer) for s in states]
    assert [d.board for d in back] == [str(k) for k in range(1, 51)]
    assert text.count("\n\n[Event ") == 50  # games separated by blank lines


@settings(max_examples=50)
@given(order=st.permutations(range(52)), first=st.sampled_from(tuple(T.seats)))
def test_deal_text_round_trips_from_any_first_seat(order: list[int], first: int) -> None:
    hands = tuple(sum(1 << c for c in order[13 * k:13 * k + 13]) for k in range(4))
    value = deal_text(GAME, hands, first)
    assert value.startswith(T.name(first)[0] + ":")
    assert parse_deal_text(GAME, value) == hands


def test_writing_what_was_read_gives_the_same_deal_values() -> None:
    deals = read_pbn(GAME, SNIPPET)
    again = write_pbn(GAME, deals)
    deal_values = re.findall(r'\[Deal "([^"]*)"\]', again)
    from_east = f"E:{W_HAND} {N_HAND} {E_HAND} {S_HAND}"
    assert deal_values == [DEAL, from_east, from_east]
    back = read_pbn(GAME, again)
    assert [(d.hands, d.dealer, d.board) for d in back] == [(d.hands, d.dealer, d.board)
                                                            for d in deals]
    assert "[Auction" not in again  # the calls were not kept, so neither is the tag
    assert '[Vulnerable "None"]' in again and '[Contract "2S"]' in again


def test_export_format_tag_order() -> None:
    text = write_pbn(GAME, [new_deal(GAME, seed=1)], event="Test", date="2024.03.15")
    names = re.findall(r"^\[(\w+) ", text, re.MULTILINE)
    assert names[:15] == ["Event", "Site", "Date", "Board", "West", "North", "East", "South",
                          "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract",
                          "Result"]
    assert text.startswith("% PBN 2.1\n% EXPORT\n")
    assert '[Event "Test"]' in text and '[Date "2024.03.15"]' in text
    assert '[Vulnerable "?"]' in text and '[Contract "?"]' in text  # not bid yet
    assert '[Deal "W:' in text  # from the dealer, West by default


# -- played deals --------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_played_deals_carry_contract_declarer_result_and_auction(seed: int) -> None:
    state = play_deal(GAME, seed=seed)
    text = write_pbn(GAME, [state])
    [back] = read_pbn(GAME, text)
    assert (back.hands, back.dealer) == (state.dealt, state.dealer)
    got = tags(back)
    declarer = state.declarer
    partner = T.partner(declarer)
    assert partner is not None
    assert got["Declarer"] == T.name(declarer)[0]
    assert got["Contract"] == str(GAME.ladder[state.contract])
    assert got["Result"] == str((state.won[declarer] | state.won[partner]).bit_count())
    calls = [(seat, a) for seat, a in state.log if isinstance(a, Call)]
    auction = text.split("[Auction ", 1)[1].split("\n[Play ")[0].splitlines()
    assert auction[0] == f'"{T.name(calls[0][0])[0]}"]'
    rows = [row.split() for row in auction[1:]]
    assert all(len(row) == 4 for row in rows[:-1]) and 1 <= len(rows[-1]) <= 4
    assert [w for row in rows for w in row] == [
        "Pass" if c.bid is None else str(c.bid) for _seat, c in calls]


def play_rows(text: str) -> tuple[str, list[list[str]]]:
    """The Play tag's seat and the rows of its section, in a text of one deal."""
    head, *rows = text.split("[Play ", 1)[1].rstrip("\n").splitlines()
    return head.strip('"]'), [row.split() for row in rows]


def card_text(number: int) -> str:
    c = GAME.deck[number]
    return str(c.suit) + ("T" if str(c.rank) == "10" else str(c.rank))


@pytest.mark.parametrize("seed", range(4))
def test_played_deals_carry_their_play_in_columns_from_the_first_leader(seed: int) -> None:
    state = play_deal(GAME, seed=seed)
    text = write_pbn(GAME, [state])
    first, rows = play_rows(text)
    leader = state.tricks[0].leader
    assert first == T.name(leader)[0] and leader == T.next(state.declarer)
    assert '[Vulnerable "None"]' in text  # scored on its own: no side had won a game
    order = [(leader + k) % 4 for k in range(4)]  # clockwise from the first leader
    assert len(rows) == len(state.tricks) == 13 and "*" not in text.split("[Play ")[1]
    for row, rec in zip(rows, state.tricks):
        by_seat = dict(zip(rec.seats, rec.cards))
        assert row == [card_text(by_seat[seat]) for seat in order]
    [back] = read_pbn(GAME, text)  # the sections are skipped on reading
    assert back.hands == state.dealt and tags(back)["Play"] == first


def test_a_deal_stopped_in_the_play_ends_its_section_with_a_star() -> None:
    from spec.engine import engine_for, legal_actions

    state = play_deal(GAME, seed=2)
    plays = [k for k, (_seat, a) in enumerate(state.log) if isinstance(a, Play)]
    eng = engine_for(GAME)
    partial = new_deal(GAME, seed=2)
    for _seat, action in state.log[:plays[5] + 1]:  # one trick and two cards of the next
        assert action in legal_actions(partial)
        partial = eng.apply(partial, action)
    text = write_pbn(GAME, [partial])
    first, rows = play_rows(text)
    assert len(rows) == 3 and rows[-1] == ["*"]
    assert sum(card != "-" for card in rows[1]) == 2 and rows[1].count("-") == 2
    assert '[Vulnerable "?"]' in text and '[Result "?"]' in text  # not finished


def test_rubber_vulnerability_follows_the_games_won() -> None:
    from spec.pbn import rubber_vulnerability

    ns, ew = (NORTH, SOUTH), (EAST, WEST)
    # East-West win a game in deal 2, North-South in deal 4
    assert rubber_vulnerability(GAME, (ns, ew), [(1, 2), (0, 4)], 5) == (
        "None", "None", "EW", "EW", "All")
    assert rubber_vulnerability(GAME, (ew, ns), [(1, 1)], 3) == ("None", "NS", "NS")
    with pytest.raises(NotationError, match="North-South and East-West"):
        rubber_vulnerability(GAME, ((NORTH, EAST), (SOUTH, WEST)), [], 1)
    with pytest.raises(NotationError, match=r"'Both' is not a PBN vulnerability"):
        write_pbn(GAME, [play_deal(GAME, seed=0)], vulnerable=("Both",))


# -- errors --------------------------------------------------------------------------


def at_line_4(deal: str) -> str:
    return f'[Event "errors"]\n[Board "1"]\n[Dealer "N"]\n[Deal "{deal}"]\n'


@pytest.mark.parametrize(
    ("text", "line", "pattern"),
    [
        pytest.param(at_line_4(f"N:AKQJ.AKQ.AKQ {E_HAND} {S_HAND} {W_HAND}"), 4,
                     r"North hand 'AKQJ\.AKQ\.AKQ' has 3 suits", id="three-suits"),
        pytest.param(at_line_4(f"N:AKQX.AKQ.AKQ.AKQ {E_HAND} {S_HAND} {W_HAND}"), 4,
                     r"'X' in the North hand .* is not a rank", id="bad-rank"),
        pytest.param(at_line_4(f"N:{N_HAND} J98.JT9.JT9.JT98 {S_HAND} {W_HAND}"), 4,
                     r"card JS is dealt twice", id="dealt-twice"),
        pytest.param(at_line_4(f"N:AAKQJ.AKQ.AKQ.AKQ {E_HAND} {S_HAND} {W_HAND}"), 4,
                     r"card AS is written twice in the North hand", id="twice-in-a-hand"),
        pytest.param(at_line_4(f"N:{N_HAND} {E_HAND} {S_HAND} 32.432.5432.432"), 4,
                     r"West has 12 cards; the deal gives 13", id="twelve-cards"),
        pytest.param(at_line_4(f"N:{N_HAND} - {S_HAND} {W_HAND}"), 4,
                     r"the East hand is unknown \('-'\)", id="unknown-hand"),
        pytest.param(at_line_4(f"N:{N_HAND} {E_HAND} {S_HAND}"), 4,
                     r"gives 3 hands", id="three-hands"),
        pytest.param(at_line_4(f"{N_HAND} {E_HAND} {S_HAND} {W_HAND}"), 4,
                     r"does not start with a seat letter and a colon", id="no-first-seat"),
        pytest.param(at_line_4(f"X:{N_HAND} {E_HAND} {S_HAND} {W_HAND}"), 4,
                     r"'X' is not a seat letter", id="bad-first-seat"),
        pytest.param(at_line_4("#"), 4, r"the Deal tag is empty", id="hash-with-nothing"),
        pytest.param(f'[Event ""]\n\n[Dealer "X"]\n[Deal "{DEAL}"]\n', 3,
                     r"dealer 'X' is not a seat letter \(expected N, E, S or W", id="bad-dealer"),
        pytest.param(f'[Event ""]\n[Deal {DEAL}]\n', 2, r"malformed tag", id="unquoted-value"),
        pytest.param('[Event ""]\n{ never\nclosed\n', 2, r"comment is never closed",
                     id="open-comment"),
    ],
)
def test_bad_pbn_is_a_one_line_error_with_its_line(text: str, line: int, pattern: str) -> None:
    with pytest.raises(NotationError) as info:
        read_pbn(GAME, text)
    message = str(info.value)
    assert isinstance(info.value, PbnError) and info.value.line == line
    assert message.startswith(f"line {line}: ")
    assert re.search(pattern, message), message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("game", "pattern"),
    [
        pytest.param(crescendo.GAME, r"Crescendo cannot be written in PBN: it has 3 seats "
                     r"\(Forehand, Middlehand, Rearhand\) and a 21-card deck with a joker",
                     id="crescendo"),
        pytest.param(three_oh_four.GAME, r"304 cannot be written in PBN: it has a 32-card deck",
                     id="304"),
    ],
)
def test_games_that_pbn_cannot_write(game: Game, pattern: str) -> None:
    for attempt in (lambda: check_pbn_game(game),
                    lambda: read_pbn(game, f'[Deal "{DEAL}"]'),
                    lambda: write_pbn(game, [])):
        with pytest.raises(NotationError, match=pattern) as info:
            attempt()
        assert "North, East, South and West" in str(info.value)
        assert "\n" not in str(info.value)


def test_vint_can_be_written() -> None:
    check_pbn_game(GAME)


def test_write_errors_name_the_deal() -> None:
    with pytest.raises(NotationError, match=r"date '2024-03-15' is not a PBN date"):
        write_pbn(GAME, [], date="2024-03-15")
    short = PbnDeal(parse_deal_text(GAME, DEAL)[:3])
    with pytest.raises(NotationError, match=r"^deal 1: expected 4 hands, got 3"):
        write_pbn(GAME, [short])
    hands = list(parse_deal_text(GAME, DEAL))
    hands[WEST] &= hands[WEST] - 1  # West loses a card
    with pytest.raises(NotationError, match=r"^deal 2: West has 12 cards"):
        write_pbn(GAME, [PbnDeal(parse_deal_text(GAME, DEAL)), PbnDeal(tuple(hands))])
    other = play_deal(crescendo.GAME, seed=1)
    with pytest.raises(NotationError, match=r"^deal 1: a Crescendo deal cannot be written"):
        write_pbn(GAME, [other])
    with pytest.raises(NotationError, match=r"tag Deal is a field of PbnDeal"):
        write_pbn(GAME, [PbnDeal(parse_deal_text(GAME, DEAL), tags=(("Deal", "x"),))])


def test_tag_values_are_escaped_and_read_back() -> None:
    deal = PbnDeal(parse_deal_text(GAME, DEAL), NORTH, "7", (("Event", 'the "big" one \\ 2'),))
    [back] = read_pbn(GAME, write_pbn(GAME, [deal]))
    assert tags(back)["Event"] == 'the "big" one \\ 2'
    assert (back.dealer, back.board) == (NORTH, "7")



def test_wiezen_deals_round_trip_and_its_named_contracts_are_refused() -> None:
    from spec.games import wiezen

    game = wiezen.GAME
    check_pbn_game(game)
    states = [new_deal(game, seed=s, dealer=s % 4) for s in range(20)]
    back = read_pbn(game, write_pbn(game, states))
    assert [(d.hands, d.dealer) for d in back] == [(s.dealt, s.dealer) for s in states]
    # the turn-up is one of the dealer's 13 cards, so the deal is whole in PBN
    assert all(s.dealt[s.dealer] >> s.turn_up & 1 for s in states)
    # a Vraag is no 1NT: the contracts and calls are not written as bridge bids
    with pytest.raises(NotationError, match=r"^deal 1: Wiezen's contracts are named"):
        write_pbn(game, [play_deal(game, seed=0)])


def test_one_vulnerability_given_as_text_is_refused_plainly() -> None:
    from spec.pbn import write_pbn
    from spec.registry import GAMES

    with pytest.raises(NotationError, match=r"one value for each deal, a list such as \['NS'\]"):
        write_pbn(GAMES["vint"], [], vulnerable="NS")  # type: ignore[arg-type]
