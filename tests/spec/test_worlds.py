"""Deals drawn from one seat's view (spec.worlds): each replays what the seat saw, the real
deal is always among them, and the draws are uniform among the consistent deals."""
from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest

from spec.dsl import Game
from spec.engine import Call, Phase, State, View, apply, engine_for, legal_actions, new_deal
from spec.errors import NotationError, NoWorldError
from spec.registry import GAMES
from spec.worlds import World, consistent_worlds, sample_worlds, worlds_of

# the significance of the uniformity tests: a draw is refused as not uniform when the
# chance of a chi-square statistic as large, were it uniform, is below this
SIGNIFICANCE = 0.001


def _deal(game: Game, seed: int) -> list[State]:
    """The states of a deal played by random choices, from its start to its end (the deal
    dealt last, when some were thrown in)."""
    state = new_deal(game, seed=seed)
    rng = random.Random(seed)
    states = [state]
    while not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
        if state.redeals != states[-1].redeals:
            states = []
        states.append(state)
    return states


def _moments(states: list[State]) -> dict[str, State]:
    """Some moments of a deal: during the auction, after the first trick, in the middle of
    the play and during the last trick (those the deal has)."""
    out: dict[str, State] = {}
    calls = [s for s in states[1:] if any(isinstance(a, Call) for a in legal_actions(s))]
    if calls:
        out["auction"] = calls[len(calls) // 2]
    plays = [s for s in states if s.phase is Phase.PLAY]
    if plays:
        first = [s for s in plays if len(s.tricks) == 1 and not s.trick]
        if first:
            out["first trick"] = first[0]
        out["mid-play"] = plays[len(plays) // 2]
        last = [s for s in plays if s.trick_number == plays[-1].trick_number]
        out["last trick"] = last[len(last) // 2]
    return out


def _shown(view: View) -> tuple[Any, ...]:
    """What a view shows."""
    return (view.phase, view.turn, view.hand, view.aside, view.discards, view.talon_size,
            view.turn_up, view.open_hands, view.partner, view.calls, view.trump, view.dropped,
            view.current_trick, view.tricks, view.hand_sizes)


def _replayed(world: World, view: View) -> State:
    """The world's deal dealt and its actions applied again, through the engine alone."""
    eng = engine_for(view.game)
    up = world.turn_up if world.turn_up >= 0 else None
    state = eng.start(world.dealt, dealer=view.dealer, later=world.later, turn_up=up)
    for _seat, action in world.state.log:
        state = apply(state, action)
    return state


def _check(world: World, real: State, seat: int) -> None:
    """The world agrees with everything the seat saw of the real deal, at every moment."""
    view, mine = real.view(seat), world.state.view(seat)
    assert world.state.turn == real.turn and world.state.phase is real.phase
    assert world.state.hands[seat] == real.hands[seat]
    # the seat knows the cards dealt to it, once they are (a later stage's are hidden till then)
    first = world.dealt[seat] & ~world.later[seat]
    assert first == real.dealt[seat] & ~real.dealt_later[seat]
    assert world.dealt[seat] == real.dealt[seat] or real.pending[seat]
    assert mine.log == view.log
    for (s1, a1), (s2, a2), (_s, known) in zip(world.state.log, real.log, view.log, strict=True):
        assert s1 == s2 and (a1 == a2 if known is not None else type(a1) is type(a2))
    assert [_shown(v) for v in mine.past()] == [_shown(v) for v in view.past()]
    again = _replayed(world, view)
    assert again.hands == world.state.hands and again.log == world.state.log


def _every_game() -> list[Any]:
    """Every registered game, and each with one of its variants (the variants' engines take
    seconds each to build: run with -m slow)."""
    out = []
    for key, game in GAMES.items():
        out.append(pytest.param(game, id=key))
        for v in game.variants:
            if not v.not_decidable:
                out.append(pytest.param(game.with_variants(v.id), id=f"{key}+{v.id}",
                                        marks=pytest.mark.slow))
    return out


def _with(game: Game, moment: str, count: int) -> list[tuple[int, State]]:
    """The first ``count`` seeds whose deal has the moment, and the state there."""
    out = []
    for seed in range(100):
        found = _moments(_deal(game, seed)).get(moment)
        if found is not None:
            out.append((seed, found))
            if len(out) == count:
                return out
    raise AssertionError(f"no deal of {game.key} reaches the {moment}")


@pytest.mark.parametrize("game", _every_game())
def test_every_world_replays_what_the_seat_saw(game: Game) -> None:
    """At several moments of a deal of every game and variant, each world drawn for a seat
    replays the deal's actions legally, and the seat's hand, its log and every view it had
    are the real ones; the real deal is one of the worlds the seat could be in."""
    for k, moment in enumerate(("auction", "first trick", "mid-play", "last trick")):
        for seed, real in _with(game, moment, 2):
            seat = (real.turn + 1 + k + seed) % game.players
            view = real.view(seat)
            for world in sample_worlds(view, 3, seed):
                _check(world, real, seat)
            assert worlds_of(view, real.dealt, real.dealt_later), (seed, moment)


@pytest.mark.parametrize("key", [k for k, g in GAMES.items() if g.stages == 1])
def test_the_real_deal_is_among_the_consistent_worlds(key: str) -> None:
    """Late in the play, every consistent world is listed, the real deal among them, and
    every world drawn is one of them.  (A game dealt in stages has too many: every split
    of each hidden hand into its stages is a deal of its own.)"""
    game = GAMES[key]
    for seed, real in _with(game, "last trick", 3):
        for seat in range(game.players):
            view = real.view(seat)
            every = {(w.dealt, w.later) for w in consistent_worlds(view)}
            assert (real.dealt, real.dealt_later) in every
            assert {(w.dealt, w.later) for w in sample_worlds(view, 5, seed)} <= every


def _chi_square_p(stat: float, dof: int) -> float:
    """The chance that a chi-square variable of ``dof`` degrees of freedom is at least
    ``stat``: the regularized upper incomplete gamma function Q(dof/2, stat/2), by its
    series below dof/2 + 1 and its continued fraction above (Numerical Recipes, 6.2)."""
    a, x = dof / 2, stat / 2
    if x <= 0:
        return 1.0
    scale = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1 - total * scale
    tiny = 1e-300
    b, c, d = x + 1 - a, 1 / tiny, 1 / (x + 1 - a)
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return scale * h


def test_the_chi_square_tail_is_right() -> None:
    """Against the tables: the 5 % and 0.1 % points of 1 and 10 degrees of freedom, and a
    case of each branch."""
    assert _chi_square_p(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert _chi_square_p(29.588, 10) == pytest.approx(0.001, abs=1e-5)
    assert _chi_square_p(2.0, 4) == pytest.approx(math.exp(-1) * 2, abs=1e-12)
    assert _chi_square_p(9.0, 2) == pytest.approx(math.exp(-4.5), abs=1e-12)


@pytest.mark.parametrize(("key", "seed", "seat", "back"), [
    ("vint", 0, 1, 1),  # 15 deals, voids shown: the last two tricks
    ("wiezen", 0, 0, 1),  # 18 deals
    ("crescendo", 0, 0, 2),  # 10 deals: the last three tricks
    ("preference", 22, 2, 0),  # 66 deals: a talon taken and two cards discarded unseen
])
def test_draws_are_uniform_among_the_consistent_deals(key: str, seed: int, seat: int,
                                                      back: int) -> None:
    """Drawn 20 times as often as there are consistent deals, each deal comes up as often
    as a uniform draw would make it: a chi-square test of goodness of fit against the
    exact list, at significance 0.001, with a fixed seed (so the test always passes or
    always fails)."""
    plays = [s for s in _deal(GAMES[key], seed) if s.phase is Phase.PLAY]
    real = next(s for s in plays if s.trick_number == plays[-1].trick_number - back
                and not s.trick)
    view = real.view(seat)
    exact = {(w.dealt, w.later) for w in consistent_worlds(view)}
    cells = len(exact)
    assert cells >= 5
    n = 20 * cells
    drawn = Counter((w.dealt, w.later) for w in sample_worlds(view, n, 1))
    assert set(drawn) <= exact
    expected = n / cells
    stat = sum((drawn[d] - expected) ** 2 / expected for d in exact)
    assert _chi_square_p(stat, cells - 1) > SIGNIFICANCE, (stat, cells)


def test_the_same_seed_draws_the_same_worlds() -> None:
    real = _moments(_deal(GAMES["304"], 2))["mid-play"]
    view = real.view((real.turn + 1) % 4)
    first, again = sample_worlds(view, 4, 7), sample_worlds(view, 4, 7)
    assert [(w.dealt, w.later, w.state.log) for w in first] == \
        [(w.dealt, w.later, w.state.log) for w in again]
    other = sample_worlds(view, 4, 8)
    assert [w.dealt for w in other] != [w.dealt for w in first]


def _unseen(game: Game, count: int) -> list[tuple[State, int]]:
    """Positions in the play, and a seat there, that did not see some card laid aside,
    discarded or played face down."""
    out = []
    for seed in range(100):
        for moment, real in _moments(_deal(game, seed)).items():
            seat = next((k for k in range(game.players)
                         if any(a is None for _s, a in real.view(k).log)), None)
            if moment != "auction" and seat is not None:
                out.append((real, seat))
                break
        if len(out) == count:
            return out
    raise AssertionError(f"no deal of {game.key} hides a card from a seat")


@pytest.mark.parametrize("key", [k for k, g in GAMES.items()
                                 if any(s.card is not None for s in g.steps)])
def test_the_draw_reads_what_the_seat_saw_and_nothing_else(key: str) -> None:
    """A world is a position the seat cannot tell from the real one: drawn from the view
    the seat has there, with the same seed, it gives the same worlds, though the cards the
    seat never saw differ.  The real deal's seed goes into none of them."""
    for real, seat in _unseen(GAMES[key], 2):
        worlds = sample_worlds(real.view(seat), 3, 11)
        for world in worlds:
            _check(world, real, seat)
            assert world.state.seed == 0
        for other in worlds:
            again = sample_worlds(other.state.view(seat), 3, 11)
            assert [(w.dealt, w.later, w.state.log) for w in again] == \
                [(w.dealt, w.later, w.state.log) for w in worlds]


def test_a_draw_that_finds_too_few_worlds_fails_once_and_clearly() -> None:
    real = _moments(_deal(GAMES["vint"], 1))["mid-play"]
    view = real.view(0)
    with pytest.raises(NoWorldError, match="2 of the 5 worlds asked for were found in 2"):
        sample_worlds(view, 5, 1, attempts=2)
    with pytest.raises(NotationError):
        sample_worlds(view, 0, 1)


def test_a_deal_the_seat_can_tell_from_the_real_one_has_no_world() -> None:
    real = _moments(_deal(GAMES["vint"], 1))["mid-play"]
    seat = real.turn
    other = (seat + 1) % 4
    # swap a card the seat saw played with one still hidden: the seat would have seen it
    played = real.tricks[0].cards[0]
    hidden = real.hands[other] & -real.hands[other]
    holder = next(k for k, h in enumerate(real.dealt) if h >> played & 1)
    dealt = list(real.dealt)
    dealt[holder] ^= 1 << played | hidden
    dealt[other] ^= 1 << played | hidden
    if holder != other:
        assert worlds_of(real.view(seat), dealt) == []
    assert worlds_of(real.view(seat), real.dealt)


def test_a_view_knows_its_past_and_hides_the_cards_it_did_not_see() -> None:
    game = GAMES["304"]
    states = _deal(game, 2)
    real = _moments(states)["mid-play"]
    for seat in range(game.players):
        view = real.view(seat)
        past = view.past()
        assert past[-1] is view and len(past) == len(real.log) + 1
        earlier = states[:len(past) - 1]
        assert [_shown(v) for v in past[:-1]] == [_shown(s.view(seat)) for s in earlier]
        for (actor, action), (_a, known) in zip(real.log, view.log, strict=True):
            assert known in (action, None)
            assert known is not None or actor != seat
    assert any(known is None for _a, known in real.view(0).log + real.view(1).log)
