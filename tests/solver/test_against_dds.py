"""The solver against DDS, the double-dummy solver of bridge, on Vint.

Plain Vint play is bridge play: four hands in two fixed partnerships, follow suit, the
highest card of the suit led or the highest trump wins, a side's tricks are what it plays
for.  So the tricks the declaring side takes under perfect play must be those DDS finds
(through endplay, its Python binding), everywhere:

* in the middle of the play: random deals played by random legal cards down to a few cards
  a hand, and a few cards into a trick;
* for whole tables (each strain and each declarer) on deals of 6 and 7 cards a hand, set at
  the last tricks of a deal;
* for whole tables on 13-card deals (``slow``: the search spends minutes a strain today, so
  each cell has a budget and an unknown cell is counted, not failed; a wrong value fails).

Vint's seats are North, East, South and West in order of play, as DDS numbers them.  DDS
counts the tricks from the current one on, for the side to play; the declaring side's total
adds the tricks it has won already.
"""
from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import pytest

from spec.cards import Card, CardSet
from spec.dsl._nodes import NO_SUIT, suit_code
from spec.engine import Phase, State, apply, engine_for, legal_actions
from spec.games.vint import GAME
from spec.solver import Solver

pytest.importorskip(
    "endplay", reason="endplay (DDS, the bridge double-dummy solver) is not installed: "
    "pip install endplay, or the test extra, to compare the solver with it")
from endplay.dds import calc_dd_table, solve_board  # noqa: E402
from endplay.types import Deal, Denom, Player  # noqa: E402

ENGINE = engine_for(GAME)
SEATS = 4
TRICKS = 13
STRAINS = ("S", "C", "D", "H", "NT")  # Vint's order of rank; DDS's own names below
DENOM = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs,
         "NT": Denom.nt}

# mid-play positions: (cards a hand, cards on the trick) for each of the seeds
MID_PLAY = [(k, on) for k in (4, 5, 6, 7) for on in (0, 1, 2, 3)]
MID_PLAY_SEEDS = range(2)
SLOW_MID_PLAY_SEEDS = range(2, 40)
# small whole tables: deals of so many cards a hand
SMALL_TABLES = [(6, seed) for seed in range(4)] + [(7, seed) for seed in range(1)]
SLOW_SMALL_TABLES = [(k, seed) for k in (5, 6, 7, 8) for seed in range(100, 130)]
# full 13-card tables: the nodes each cell may search before it is counted unknown (a
# strain takes millions today, so most cells are unknown; the runs grow no longer as the
# search gets faster, and more cells are answered)
FULL_BUDGET = 1_000_000
WIDE_FULL_BUDGET = 250_000


# -- positions --------------------------------------------------------------------------------

def _deal(rng: random.Random, cards: int) -> list[int]:
    """Four random hands of ``cards`` cards each, as masks."""
    deck = list(range(len(GAME.deck)))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[k * cards:(k + 1) * cards]) for k in range(SEATS)]


def _first_lead(hands: list[int], strain: str, declarer: int, tricks_left: int) -> State:
    """The position at the first lead of the last ``tricks_left`` tricks of a deal, played
    in ``strain`` by ``declarer``, by the rules' leader."""
    contract = ENGINE.ladder.index(GAME.parse_bid("1" + strain))
    number = TRICKS - tricks_left + 1
    s = ENGINE.play_position(hands=hands, contract=contract, declarer=declarer,
                             leader=declarer, trick_number=number)
    return ENGINE.play_position(hands=hands, contract=contract, declarer=declarer,
                                leader=ENGINE.first_leader(s), trick_number=number)


def _played_down(seed: int, cards: int, on_trick: int) -> State:
    """A 13-card deal in a random contract by a random declarer, played by random legal
    cards until each hand holds ``cards`` cards, then ``on_trick`` cards more."""
    rng = random.Random(seed * 100 + cards * 10 + on_trick)
    hands = _deal(rng, TRICKS)
    bid = f"{rng.randint(1, 7)}{rng.choice(STRAINS)}"
    s = Solver(GAME).start(hands, contract=bid, declarer=rng.randrange(SEATS))
    for _ in range((TRICKS - cards) * SEATS + on_trick):
        acts = legal_actions(s)
        s = apply(s, acts[rng.randrange(len(acts))])
    assert s.phase is Phase.PLAY and len(s.trick) == on_trick
    return s


# -- DDS --------------------------------------------------------------------------------------

def _pbn_card(card: Card) -> str:
    return "T" if card.rank.value == "10" else card.rank.value


def _pbn(hands: list[int]) -> str:
    """The hands in PBN, North first (suits spades, hearts, diamonds, clubs)."""
    out = []
    for h in hands:
        cards = [GAME.deck[c] for c in range(len(GAME.deck)) if h >> c & 1]
        suits = []
        for letter in "SHDC":
            ranks = sorted((c for c in cards if c.suit.letter == letter),
                           key=lambda c: "AKQJT98765432".index(_pbn_card(c)))
            suits.append("".join(_pbn_card(c) for c in ranks))
        out.append(".".join(suits))
    return "N:" + " ".join(out)


def _denom(trump: int) -> Denom:
    if trump == NO_SUIT:
        return Denom.nt
    suit = next(c.suit for c in GAME.deck if c.suit is not None and suit_code(c.suit) == trump)
    return DENOM[suit.letter]


def _dds_side_to_play(s: State) -> int:
    """DDS's tricks for the side to play in ``s``, from the trick under way to the last:
    the hands as they were when the trick began, its leader and trumps, and the cards played
    to it so far played in DDS too."""
    hands = list(s.hands)
    seats = ENGINE.seats_among(s.leader, s.absent)
    for (card, _named), seat in zip(s.trick, seats):
        hands[seat] |= 1 << card
    deal = Deal(_pbn(hands))
    deal.first = Player(s.leader)
    deal.trump = _denom(s.trump)
    for card, _named in s.trick:
        c = GAME.deck[card]
        deal.play(f"{c.suit.letter}{_pbn_card(c)}")
    return max(tricks for _card, tricks in solve_board(deal))


def _side(s: State) -> int:
    return next(sum(1 << k for k in team) for team in GAME.table.partnerships
                if s.declarer in team)


def _dds_declaring_side(s: State) -> int:
    """The declaring side's tricks in the whole deal by DDS: those it has won, and its share
    of the tricks still to play (DDS's count when it is to play, else the rest)."""
    side = _side(s)
    won = sum(s.won[k].bit_count() for k in range(SEATS) if side >> k & 1)
    left = TRICKS - s.trick_number + 1
    dds = _dds_side_to_play(s)
    return won + (dds if side >> s.turn & 1 else left - dds)


def _dds_table(hands: list[int]) -> dict[tuple[str, int], int]:
    """Each strain and declarer's tricks by DDS, for hands of equal length (DDS counts a
    short deal's missing tricks as the declarer's: they are taken off)."""
    cards = hands[0].bit_count()
    table = calc_dd_table(Deal(_pbn(hands)))
    return {(strain, seat): table[Player(seat), DENOM[strain]] - (TRICKS - cards)
            for strain in STRAINS for seat in range(SEATS)}


def _solver_table(hands: list[int], budget: int | None = None) -> dict[tuple[str, int], int | None]:
    """Each strain and declarer's tricks by the solver (None: unknown, the budget spent)."""
    solver = Solver(GAME)
    cards = hands[0].bit_count()
    return {(strain, seat): solver.solve(_first_lead(hands, strain, seat, cards),
                                         budget=budget).value
            for strain in STRAINS for seat in range(SEATS)}


def _cells(hands: list[int], budget: int | None = None
           ) -> Iterator[tuple[tuple[str, int], int | None, int]]:
    dds = _dds_table(hands)
    for cell, value in _solver_table(hands, budget).items():
        yield cell, value, dds[cell]


def _where(cell: tuple[str, int]) -> str:
    return f"{cell[0]} by {GAME.table.name(cell[1])}"


# -- the tests --------------------------------------------------------------------------------

def test_the_seats_are_numbered_as_dds_numbers_them() -> None:
    """North, East, South, West in order of play, in Vint and in DDS."""
    assert GAME.table.names == ("North", "East", "South", "West")
    assert [Player(k).name for k in range(SEATS)] == ["north", "east", "south", "west"]
    assert [ENGINE.seats_among(k, 0)[1] for k in range(SEATS)] == [1, 2, 3, 0]


def test_a_known_table() -> None:
    """Each hand holds one suit's four top cards: the side with the trump suit takes every
    trick; at no trumps the leader's side does."""
    hands = [CardSet.parse(h, GAME.deck).mask for h in
             ("AS KS QS JS", "AC KC QC JC", "AD KD QD JD", "AH KH QH JH")]
    assert _dds_table(hands) == {cell: v for cell, v, _d in _cells(hands)}
    assert _dds_table(hands)[("S", 0)] == 4 and _dds_table(hands)[("NT", 0)] == 0


def _check_mid_play(seeds: range) -> None:
    solver = Solver(GAME)
    for seed in seeds:
        for cards, on_trick in MID_PLAY:
            s = _played_down(seed, cards, on_trick)
            got = solver.solve(s).value
            want = _dds_declaring_side(s)
            assert got == want, (
                f"seed {seed}, {cards} cards a hand, {on_trick} on the trick, "
                f"{ENGINE.ladder[s.contract]} by {GAME.table.name(s.declarer)}: the solver "
                f"gives the declaring side {got} tricks, DDS {want}")


def test_mid_play_positions_match_dds() -> None:
    _check_mid_play(MID_PLAY_SEEDS)


@pytest.mark.slow
def test_mid_play_positions_match_dds_wide() -> None:
    _check_mid_play(SLOW_MID_PLAY_SEEDS)


def _check_small_tables(deals: list[tuple[int, int]]) -> None:
    for cards, seed in deals:
        hands = _deal(random.Random(seed), cards)
        wrong = [f"{_where(cell)}: {got} (DDS {want})"
                 for cell, got, want in _cells(hands) if got != want]
        assert not wrong, f"{cards} cards a hand, seed {seed}: " + "; ".join(wrong)


@pytest.mark.slow  # DDS and the solver on the same small tables: 8 s
def test_small_tables_match_dds() -> None:
    _check_small_tables(SMALL_TABLES)


@pytest.mark.slow
def test_small_tables_match_dds_wide() -> None:
    _check_small_tables(SLOW_SMALL_TABLES)


def _check_full_tables(deals: range, budget: int) -> None:
    """Every cell the solver answers within ``budget`` equals DDS's; the unknown ones are
    counted, and said in a warning."""
    unknown = known = 0
    for seed in deals:
        hands = _deal(random.Random(seed), TRICKS)
        for cell, got, want in _cells(hands, budget):
            if got is None:
                unknown += 1
                continue
            known += 1
            assert got == want, (f"13-card deal {seed}, {_where(cell)}: the solver gives "
                                 f"{got} tricks, DDS {want}")
    warnings.warn(f"full tables: {known} cells equal to DDS's, {unknown} unknown within "
                  f"{budget:,} nodes a cell", stacklevel=2)


@pytest.mark.slow
def test_full_tables_match_dds() -> None:
    _check_full_tables(range(200), FULL_BUDGET)


@pytest.mark.slow
def test_full_tables_match_dds_wide() -> None:
    _check_full_tables(range(200, 2200), WIDE_FULL_BUDGET)
