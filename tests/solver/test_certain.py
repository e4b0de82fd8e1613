"""Certainty of every remaining trick (``spec.solver._certain``) against brute force.

For small end positions of 304 and of Vint, the deals consistent with a seat's view are
enumerated by renaming the cards it has not seen and replaying the deal through the engine,
and the seat's ways of playing (functions of what it observes) are tried against every one
of them and every play of the others (``certain_oracle``); ``certain`` must agree wherever
it answers, and it must answer.  304's positions include closed trumps (the claimer does
not know the trump suit), cards played face down that the claimer never saw, and the
indicator still aside."""
from __future__ import annotations

import random
from typing import Any

import pytest
from certain_oracle import certain_by_strategies, certain_by_worlds, deals_seen_by

from spec.cards import CardSet
from spec.engine import (
    PASS,
    Call,
    Declare,
    Lay,
    Phase,
    Play,
    State,
    apply,
    legal_actions,
    new_deal,
    play_deal,
)
from spec.registry import GAMES
from spec.solver._certain import certain, decide, unsupported

G304 = GAMES["304"]
VINT = GAMES["vint"]
NORTH, WEST, SOUTH, EAST = range(4)
CLUBS = ("JC", "9C", "AC", "10C", "KC", "QC", "8C", "7C")  # 304's order, highest first


def _maker_north(hands: list[str], *, choice: str, bid: int, indicator: str = "JC") -> State:
    """North bids ``bid`` and the others pass; North lays ``indicator`` aside (a club: clubs
    are trumps) and chooses Open or Closed Trump: the state at the first lead."""
    s = new_deal(G304, hands=[CardSet.parse(h, G304.deck) for h in hands], dealer=EAST)
    while s.phase is not Phase.PLAY:
        acts = legal_actions(s)
        if any(isinstance(a, Lay) for a in acts):
            s = apply(s, next(a for a in acts if isinstance(a, Lay) and str(a.card) == indicator))
        elif s.turn == NORTH and s.standing < 0:
            s = apply(s, Call(G304.parse_bid(str(bid))))
        elif PASS in acts:
            s = apply(s, PASS)
        else:
            s = apply(s, Declare(choice))
    return s


def _played_to(s: State, trick: int, cards: int, rng: random.Random, *, no_cuts: bool) -> State:
    """``s`` played on at random until ``cards`` cards lie in trick ``trick``; with
    ``no_cuts`` North and South never play a club to a trick led in another suit."""
    while not s.is_over and not (s.trick_number == trick and len(s.trick) == cards):
        acts = [a for a in legal_actions(s) if isinstance(a, Play)]
        if no_cuts and s.turn in (NORTH, SOUTH) and s.trick:
            acts = [a for a in acts if not (str(a.card).endswith("C") and s.led_suit != 0)] or acts
        s = apply(s, acts[rng.randrange(len(acts))])
    return s


def _strong_start(rng: random.Random) -> State:
    """304: North the maker with four high clubs and four cards at random; open or closed
    trumps, bid 160 or 250; at the first lead."""
    top = list(CLUBS[:4]) if rng.random() < 0.7 else ["JC", "9C", "KC", "7C"]
    rest = [str(c) for c in G304.deck if str(c) not in top]
    rng.shuffle(rest)
    hands = [" ".join(top + rest[:4]), " ".join(rest[4:12]), " ".join(rest[12:20]),
             " ".join(rest[20:28])]
    return _maker_north(hands, choice=rng.choice(["open", "closed"]), bid=rng.choice([160, 250]))


def strong_maker(seed: int) -> State:
    """:func:`_strong_start` played at random to trick 7 or 8."""
    rng = random.Random(seed)
    s = _strong_start(rng)
    return _played_to(s, rng.choice([7, 8]), rng.randrange(4), rng, no_cuts=False)


def maker_at_trick_6(seed: int, trick: int = 6) -> State:
    """:func:`_strong_start` played at random only to trick 6: three cards a hand (four for
    the seat with the indicator still aside), a few thousand deals to enumerate."""
    rng = random.Random(seed)
    s = _strong_start(rng)
    return _played_to(s, trick, rng.randrange(4), rng, no_cuts=False)


def maker_at_trick_5(seed: int) -> State:
    """The same, played to trick 5: four cards a hand."""
    return maker_at_trick_6(seed, 5)


def long_closed(seed: int) -> State:
    """304: North and South hold every club, North the four highest; trumps closed, bid
    160, and neither cuts: played at random to trick 8, trumps still closed for most."""
    rng = random.Random(seed)
    rest = [str(c) for c in G304.deck if not str(c).endswith("C")]
    rng.shuffle(rest)
    hands = [" ".join(list(CLUBS[:4]) + rest[:4]), " ".join(rest[8:16]),
             " ".join(list(CLUBS[4:]) + rest[4:8]), " ".join(rest[16:24])]
    s = _maker_north(hands, choice="closed", bid=160)
    return _played_to(s, 8, rng.randrange(4), rng, no_cuts=True)


def vint_end(seed: int) -> State:
    """Vint: a deal of the random bots, at trick 12."""
    rng = random.Random(seed)
    s = new_deal(VINT, seed=seed)
    while not s.is_over and not (s.phase is Phase.PLAY and s.trick_number == 12):
        acts = [a for a in legal_actions(s) if not isinstance(a, Declare)] or legal_actions(s)
        s = apply(s, acts[rng.randrange(len(acts))])
    return s


# (position, seed, seat, brute force's answer): small enough to enumerate, and among them
# closed trumps unknown to the seat (long_closed 29), the indicator still aside (37, and
# long_closed 5, 13), cards face down the seat never saw (8, 18, 23, 36), and the maker's
# partner, who cannot tell which of the maker's clubs was the indicator (4, 11, 17)
CASES = [
    (strong_maker, 9, NORTH, True), (strong_maker, 14, SOUTH, True),
    (strong_maker, 26, SOUTH, True), (strong_maker, 5, EAST, True),
    (strong_maker, 39, WEST, True), (strong_maker, 20, WEST, True),
    (strong_maker, 37, NORTH, True), (strong_maker, 8, NORTH, True),
    (strong_maker, 36, SOUTH, True), (strong_maker, 23, NORTH, True),
    (strong_maker, 12, SOUTH, False), (strong_maker, 7, SOUTH, False),
    (strong_maker, 18, WEST, False), (strong_maker, 36, EAST, False),
    (strong_maker, 4, SOUTH, False), (strong_maker, 11, SOUTH, False),
    (strong_maker, 17, SOUTH, False), (strong_maker, 35, EAST, False),
    (strong_maker, 33, WEST, False), (strong_maker, 29, WEST, False),
    (long_closed, 29, WEST, False), (long_closed, 29, EAST, False),
    (long_closed, 5, NORTH, True), (long_closed, 13, NORTH, True),
    (long_closed, 18, SOUTH, True), (long_closed, 7, EAST, False),
    (vint_end, 3, 1, True), (vint_end, 3, 3, True), (vint_end, 4, 1, True),
    (vint_end, 8, 2, True), (vint_end, 11, 2, True), (vint_end, 2, 3, False),
    (vint_end, 4, 2, False), (vint_end, 6, 0, False), (vint_end, 9, 1, False),
    (vint_end, 10, 3, False),
    # three cards a hand, from trick 6 on
    (maker_at_trick_6, 0, NORTH, True), (maker_at_trick_6, 0, WEST, False),
    (maker_at_trick_6, 4, NORTH, True), (maker_at_trick_6, 4, WEST, False),
    (maker_at_trick_6, 5, SOUTH, True), (maker_at_trick_6, 5, EAST, False),
    (maker_at_trick_6, 7, NORTH, True), (maker_at_trick_6, 9, NORTH, False),
    (maker_at_trick_6, 10, NORTH, True), (maker_at_trick_6, 10, EAST, False),
    (maker_at_trick_6, 13, SOUTH, False),
]
# four cards a hand, where the deals the seat cannot tell apart are few enough (``slow``:
# the oracle enumerates thousands of deals)
CASES += [pytest.param(maker_at_trick_5, 2, NORTH, False, marks=pytest.mark.slow),
          pytest.param(maker_at_trick_5, 4, NORTH, True, marks=pytest.mark.slow)]


def _compare(s: State, seat: int) -> bool:
    deals = deals_seen_by(s, seat, 5_000)
    assert deals, "the oracle found no consistent deal"
    truth = certain_by_worlds(deals, seat)
    answer, why = decide(s.view(seat))
    assert answer is not None, why
    assert answer == truth
    return truth


def _case_id(case: Any) -> str:
    p, k, s, _e = case.values if hasattr(case, "values") else case
    return f"{p.__name__}-{k}-{s}"


@pytest.mark.parametrize(("position", "seed", "seat", "expected"), CASES,
                         ids=[_case_id(c) for c in CASES])
def test_certain_agrees_with_brute_force(position, seed: int, seat: int, expected: bool) -> None:  # type: ignore[no-untyped-def]
    assert _compare(position(seed), seat) is expected


@pytest.mark.parametrize(("position", "seed", "seat"), [
    (strong_maker, 0, NORTH), (strong_maker, 0, WEST), (strong_maker, 16, SOUTH),
    (strong_maker, 22, WEST), (long_closed, 3, WEST), (vint_end, 3, 3), (vint_end, 5, 0),
], ids=lambda x: getattr(x, "__name__", str(x)))
def test_every_strategy_tried_agrees_with_the_recursion(position, seed: int, seat: int) -> None:  # type: ignore[no-untyped-def]
    """The oracle's two ways agree: its strategies one by one, and its recursion on sets
    of deals the seat cannot tell apart (choices at different histories are independent)."""
    s = position(seed)
    deals = deals_seen_by(s, seat, 500)
    assert deals
    by_strategy = certain_by_strategies(deals, seat, 100_000)
    assert by_strategy is not None
    assert by_strategy == certain_by_worlds(deals, seat) == decide(s.view(seat))[0]


@pytest.mark.parametrize("key", ["preference", "wiezen", "crescendo"])
def test_rules_it_does_not_model_leave_it_undecided(key: str) -> None:
    game = GAMES[key]
    assert unsupported(game)
    s = play_deal(game, seed=3)
    assert decide(s.view(0)) == (None, unsupported(game))


def test_every_trump_wins_every_trick_from_the_first_lead() -> None:
    """North holds every club (trumps, open) and leads: he is sure; nobody else is."""
    hands = [" ".join(CLUBS), "7D 8D 9D 10D JD QD KD AD", "7H 8H 9H 10H JH QH KH AH",
             "7S 8S 9S 10S JS QS KS AS"]
    s = _maker_north(hands, choice="open", bid=160, indicator="7C")
    assert [certain(s.view(seat)) for seat in range(4)] == [True, False, False, False]


def test_a_spent_budget_leaves_it_undecided() -> None:
    hands = ["JC 9C AC 10C JH 9H JD JS", "KC QC AH 10H KH QH 8H 7H",
             "8C 9D AD 10D KD QD 8D 7D", "7C 9S AS 10S KS QS 8S 7S"]
    s = _maker_north(hands, choice="open", bid=160)
    assert decide(s.view(NORTH), budget=5) == (None, "budget of 5 positions spent")
    assert decide(s.view(NORTH)) == (True, "")
