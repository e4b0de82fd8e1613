"""Every registered game, and each variant that can be played alone, through the engine's
public functions: the checks a general game-playing library runs on any game it hosts.

No game is named here: the forms come from the registry, so a new game or variant is
checked without a line added; the small test games of the general constructs
(``tests/constructs/*_game.py``) are checked alike.  Deals are played by random bots from
plain seeds; the ``slow`` sweep plays many more.  For every form:

* the deal shares out the pack, and no card is lost or doubled at any moment after;
* until the deal is over some action is legal, and after it none is;
* a deal ends within a bound derived from the game (its proved auction bound and its deck);
* tricks, the cards taken and the points in them are conserved, and the seats of a side
  score alike;
* a record replays to the same deal, and one seed always gives one deal;
* the fast random playout plays the deal the per-action path plays with the same draws;
* an action outside the legal ones is refused and leaves the state as it was.
"""
from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from construct_games import construct_games

from spec.cards import SUITS, CardSet
from spec.dsl._build import Game
from spec.engine import (
    PASS,
    Action,
    Call,
    Declare,
    Lay,
    Phase,
    Play,
    State,
    View,
    apply,
    engine_for,
    legal_actions,
    new_deal,
    pick,
    play_deal,
    play_on,
    random_bot,
)
from spec.errors import IllegalActionError, NotationError
from spec.records import replay, to_record
from spec.registry import GAMES
from verifier._prove.ranking import auction_bound
from verifier._z3.solver import Solving
from verifier.properties import Options


def _forms(game: Game) -> list[Game]:
    """The game and each variant of it that can be switched on alone (a variant the engine
    cannot play yet raises NotationError and is left out)."""
    out = [game]
    for v in game.variants:
        try:
            out.append(game.with_variants(v.id))
        except NotationError:
            continue
    return out


TEST_GAMES = construct_games()  # not registered: by key
FORMS: list[Game] = [form for game in [*GAMES.values(), *TEST_GAMES.values()]
                     for form in _forms(game)]
SEEDS = range(16)
SLOW_SEEDS = range(16, 500)
# A deal is thrown in and dealt again when nobody bids or a rule voids it; the rules set
# no limit, but random bots bid often enough that a deal dealt this many times over
# points at an auction that cannot end.
MOST_REDEALS = 20
STATES_PROBED = 2  # states of a deal, beyond the first of each phase, offered illegal actions


def _name(game: Game) -> str:
    return "+".join((game.key,) + game.active_variants)


def _at(game: Game, seed: int) -> str:
    return f"{_name(game)}, seed {seed}"


def _cards(game: Game, mask: int) -> str:
    return str(CardSet(game.deck, mask))


def _fields(s: State) -> tuple[Any, ...]:
    """Every field of a state, to see that nothing changed (states compare by identity)."""
    return tuple(getattr(s, f.name) for f in dataclasses.fields(State))


def _view_random_bot(view: View, rng: random.Random) -> Action:
    """The random bot, but not the object itself: ``play_deal`` then plays the deal through
    views one action at a time instead of its fast playout."""
    return random_bot(view, rng)


# -- the bound on a deal --------------------------------------------------------------

_BOUNDS: dict[int, tuple[tuple[tuple[int, str], ...], int]] = {}


def _call_bounds(game: Game) -> tuple[tuple[int, str], ...]:
    """The most calls each auction stage can take, and how the verifier proved it (a
    ranking argument: a pass always legal, every bid beating the last, so many passes in a
    row ending the stage; or else the auction unrolled call by call).  An auction the
    verifier cannot bound fails the test."""
    solving = Solving(Options().timeout, Options().rlimit)
    out = []
    for stage in range(1, game.stages + 1):
        found = auction_bound(game, solving, stage, Options().bound)
        assert found is not None, f"{_name(game)}: stage {stage} of the auction has no proved bound"
        out.append(found)
    return tuple(out)


def _bound(game: Game) -> tuple[tuple[tuple[int, str], ...], int]:
    """The calls of each auction stage, and the actions of one deal (until it is over or
    thrown in): the calls of every stage; at most one card laid aside per card and stage;
    each card played at most once; and at most one announcement or decision of each kind
    between two of those actions (assumed: an announcement changes the state, so that it
    is not offered again until another action is made)."""
    got = _BOUNDS.get(id(game))
    if got is None:
        calls = _call_bounds(game)
        cards = len(game.deck)
        others = sum(c for c, _how in calls) + cards * game.stages + cards
        kinds = len(engine_for(game).announcement_names)
        got = _BOUNDS[id(game)] = (calls, others + kinds * (others + 1))
    return got


# -- the per-action path --------------------------------------------------------------

_WALKS: dict[tuple[int, int], list[State]] = {}


def _check_cards_in_place(game: Game, s: State, seed: int) -> None:
    """The hands, the cards still to be dealt, the cards aside, the talon, the discards,
    the hands laid down, the trick on the table and the tricks played share out the pack:
    no card lost, none in two places."""
    places = [*s.hands, *s.pending, *s.aside, s.talon, s.discards, s.folded,
              sum(1 << c for c, _n in s.trick),
              *(sum(1 << c for c in r.cards) for r in s.tricks)]
    seen = 0
    for mask in places:
        assert not mask & seen, (f"{_at(game, seed)}: {_cards(game, mask & seen)} in two places "
                                 f"after {len(s.log)} actions")
        seen |= mask
    assert seen == game.deck.full.mask, (f"{_at(game, seed)}: {_cards(game, game.deck.full.mask & ~seen)} "
                                         f"missing after {len(s.log)} actions")


def _walk(game: Game, seed: int) -> list[State]:
    """Every state of the deal of ``seed``, acted one action at a time with the random
    bot's draws (one ``pick`` from ``random.Random(seed)`` per action, as ``play_deal``
    draws): some action is legal in each state before the last, the cards stay in place,
    no auction stage outruns its bound, and the deal is over within the bound."""
    key = (id(game), seed)
    if key in _WALKS:
        return _WALKS[key]
    calls, most = _bound(game)
    rng = random.Random(seed)
    s = new_deal(game, seed=seed)
    states = [s]
    for _ in range((MOST_REDEALS + 1) * most + 1):
        _check_cards_in_place(game, s, seed)
        if s.phase is Phase.OVER:
            break
        if s.phase is Phase.AUCTION:
            most_calls, how = calls[s.stage - 1]
            # the stage is over after at most its bound of calls: still going, it has had fewer
            assert s.stage_calls < most_calls, (
                f"{_at(game, seed)}: auction stage {s.stage} is still going after "
                f"{s.stage_calls} calls, its bound ({how})")
        actions = legal_actions(s)
        assert actions, f"{_at(game, seed)}: no legal action in the {s.phase.value} after {len(s.log)} actions"
        s = apply(s, actions[pick(rng, len(actions))])
        states.append(s)
    else:
        raise AssertionError(f"{_at(game, seed)}: not over after {len(states) - 1} actions "
                             f"(bound {most} per deal dealt, {MOST_REDEALS} redeals)")
    assert legal_actions(s) == (), f"{_at(game, seed)}: actions offered once the deal is over"
    _WALKS[key] = states
    return states


# -- the checks of one deal -----------------------------------------------------------

def _check_deal(game: Game, seed: int) -> None:
    s = new_deal(game, seed=seed)
    places = [*s.hands, *s.pending, *s.aside, s.talon]
    seen = 0
    for mask in places:
        assert not mask & seen, f"{_at(game, seed)}: {_cards(game, mask & seen)} dealt twice"
        seen |= mask
    assert seen == game.deck.full.mask, (
        f"{_at(game, seed)}: {_cards(game, game.deck.full.mask & ~seen)} not dealt")
    for seat in range(game.players):
        held = (s.hands[seat] | (s.pending[seat] if s.pending else 0)
                | (s.aside[seat] if s.aside else 0))
        assert s.dealt[seat] == held, (f"{_at(game, seed)}: seat {seat} was dealt "
                                       f"{_cards(game, s.dealt[seat])} but holds {_cards(game, held)}")


def _check_bound(game: Game, seed: int) -> None:
    s = _walk(game, seed)[-1]
    calls, most = _bound(game)
    assert s.redeals <= MOST_REDEALS, f"{_at(game, seed)}: dealt {s.redeals + 1} times"
    for k, log in enumerate([d.log for d in s.thrown_in] + [s.log], start=1):
        kinds = Counter(type(a).__name__ for _seat, a in log)
        what = f"{_at(game, seed)}, deal {k} ({dict(kinds)})"
        assert len(log) <= most, f"{what}: {len(log)} actions, over the bound of {most}"
        most_calls = sum(c for c, _how in calls)
        assert kinds["Call"] <= most_calls, f"{what}: over the {most_calls} calls the auctions allow"
        assert kinds["Play"] <= len(game.deck), f"{what}: more cards played than the deck has"
    assert sum(isinstance(a, Play) for _seat, a in s.log) == sum(len(r.cards) for r in s.tricks) + len(s.trick), (
        f"{_at(game, seed)}: the cards played are not the cards in the tricks")


def _check_conservation(game: Game, seed: int) -> None:
    """What every game states of a finished deal: each trick goes to one seat with its
    cards, the points in tricks add up to the points of all the tricks played, the seats of
    a side (its partnership, or a seat alone) score alike, and the lines of a score sheet
    add up to the score.  A game declares zero-sum scoring (or that its scoring is not) as
    a claim, which ``tests/verifier/test_claims_in_the_engine.py`` checks on played deals
    of every game and the verifier proves."""
    s = _walk(game, seed)[-1]
    at, eng, n = _at(game, seed), engine_for(game), game.players
    played = 0
    for r in s.tricks:
        mask = sum(1 << c for c in r.cards)
        assert len(r.cards) == len(r.seats) and r.winner in r.seats, f"{at}: trick {r.number} is {r}"
        assert s.taken[r.winner] & mask == mask, f"{at}: trick {r.number} is not among its winner's cards"
        assert s.won[r.winner] >> r.number & 1, f"{at}: trick {r.number} is not counted to its winner"
        played |= mask
    taken = won = 0
    for seat in range(n):
        assert not s.taken[seat] & taken, f"{at}: {_cards(game, s.taken[seat] & taken)} taken twice"
        assert not s.won[seat] & won, f"{at}: a trick counted to two seats ({s.won})"
        taken |= s.taken[seat]
        won |= s.won[seat]
    assert taken == played, f"{at}: the cards taken are not the cards of the tricks"
    if not s.tricks and s.dropped:  # nobody defended: the declarer is credited every trick
        assert s.won[s.declarer] == (1 << (game.tricks + 1)) - 2 and won == s.won[s.declarer], (
            f"{at}: with every defender out, tricks won {s.won}")
    else:
        assert won == sum(1 << r.number for r in s.tricks), f"{at}: tricks won {s.won} for {len(s.tricks)} tricks"
    # the points in tricks: however the tricks fell, the seats share what one seat taking
    # them all would have
    points = [eng.points(s, seat) for seat in range(n)]
    credited = game.tricks if not s.tricks and s.dropped else len(s.tricks)
    whole = eng.points_outcome([0] * credited, [taken] + [0] * (n - 1), s.contract)[0]
    assert sum(points) == whole, f"{at}: points {points} add up to {sum(points)}, not {whole}"
    if s.void:
        return
    assert s.scores is not None and len(s.scores) == n, f"{at}: a deal played out has scores {s.scores}"
    for side in game.table.sides:
        assert len({s.scores[seat] for seat in side}) == 1, (
            f"{at}: the seats of side {game.table.side_name(side)} score {s.scores} apart")
    for seat in range(n):
        on_lines = [line[seat] for line in s.lines]
        assert not on_lines or sum(on_lines) == s.scores[seat], (
            f"{at}: seat {seat} scores {s.scores[seat]} but its lines add up to {sum(on_lines)}")


def _check_record(game: Game, seed: int) -> None:
    played = play_deal(game, seed=seed)
    record = to_record(played)
    data = json.loads(json.dumps(record))
    report = replay(data, TEST_GAMES.get(game.key))
    assert report.ok, f"{_at(game, seed)}: the record does not replay: {report.message}"
    assert report.state is not None
    assert to_record(report.state) == record, f"{_at(game, seed)}: the replay gives another record"
    assert report.state.scores == played.scores, f"{_at(game, seed)}: the replay scores otherwise"


def _first_difference(a: State, b: State) -> str:
    """Where two plays of one deal part: the first action that differs (the actions of the
    deals thrown in counted first)."""
    la = [x for d in a.thrown_in for x in d.log] + list(a.log)
    lb = [x for d in b.thrown_in for x in d.log] + list(b.log)
    for k, (x, y) in enumerate(zip(la, lb), start=1):
        if x != y:
            return f"action {k}: seat {x[0]} {x[1]} against seat {y[0]} {y[1]}"
    if len(la) != len(lb):
        return f"the same first {min(len(la), len(lb))} actions, then {len(la)} against {len(lb)} in all"
    diff = [f.name for f in dataclasses.fields(State) if getattr(a, f.name) != getattr(b, f.name)]
    return f"the same actions, but the fields {diff} differ"


def _check_paths(game: Game, seed: int) -> None:
    states = _walk(game, seed)
    stepped = states[-1]
    for how, other in (("play_deal", play_deal(game, seed=seed)),
                       ("play_deal through views", play_deal(
                           game, seed=seed, bots=[_view_random_bot] * game.players))):
        assert _fields(other) == _fields(stepped), (
            f"{_at(game, seed)}: {how} and the per-action path part at {_first_difference(other, stepped)}")
    # the fast playout started mid-deal: at the first lead, and at a card in mid-play
    play = [k for k, s in enumerate(states) if s.phase is Phase.PLAY]
    for k in sorted({play[0], play[len(play) // 2]} if play else ()):
        rng = random.Random(seed)
        for _ in range(k):  # one draw for each action before
            rng.random()
        fast = play_on(states[k], rng)
        assert _fields(fast) == _fields(stepped), (
            f"{_at(game, seed)}: play_on from action {k + 1} and the per-action path part at "
            f"{_first_difference(fast, stepped)}")


def _check_seed(game: Game, seed: int) -> None:
    a, b = play_deal(game, seed=seed), play_deal(game, seed=seed)
    assert to_record(a) == to_record(b), f"{_at(game, seed)}: two plays of one seed differ"
    first = a.thrown_in[0].dealt if a.thrown_in else a.dealt
    assert new_deal(game, seed=seed).dealt == first, f"{_at(game, seed)}: the seed deals other hands"


def _candidates(game: Game, s: State) -> Iterable[Action]:
    """Actions to offer a state: every call, every announcement the game knows and one it
    does not, each card of the other seats played or laid aside, and each card of the
    seat's own hand played with and without naming a suit, or laid aside."""
    yield PASS
    yield from (Call(b) for b in game.ladder)
    yield from (Declare(name) for name in engine_for(game).announcement_names)
    yield Declare("no_such_announcement")
    mine = s.hands[s.turn] if s.phase is not Phase.OVER else 0
    for i, card in enumerate(game.deck):
        yield Play(card)
        yield Lay(card)
        if mine >> i & 1:
            yield from (Play(card, suit) for suit in SUITS)


def _check_refusals(game: Game, seed: int) -> None:
    states = _walk(game, seed)
    first = {}
    for k, s in enumerate(states):
        first.setdefault(s.phase, k)
    rng = random.Random(seed)
    probed = sorted(set(first.values()) | {rng.randrange(len(states)) for _ in range(STATES_PROBED)})
    for k in probed:
        s = states[k]
        before, record, legal = _fields(s), to_record(s), legal_actions(s)
        for action in _candidates(game, s):
            where = f"{_at(game, seed)}, action {k + 1} ({s.phase.value}): {action!r}"
            if action in legal:
                apply(s, action)
            else:
                try:
                    apply(s, action)
                except IllegalActionError:
                    pass
                except Exception as e:
                    raise AssertionError(f"{where}: refused with {type(e).__name__}, not "
                                         f"IllegalActionError: {e}") from e
                else:
                    raise AssertionError(f"{where}: accepted though not among the legal actions")
            assert _fields(s) == before, f"{where} changed the state"
        assert to_record(s) == record and legal_actions(s) == legal, f"{_at(game, seed)}: state {k} changed"


CHECKS = (_check_deal, _walk, _check_bound, _check_conservation, _check_record, _check_paths,
          _check_seed, _check_refusals)


# -- the tests ------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _fresh_walks() -> Iterator[None]:
    """The walks of one test only: a sweep would otherwise keep every state of every deal."""
    yield
    _WALKS.clear()


@pytest.mark.parametrize("game", FORMS, ids=_name)
def test_the_deal_shares_out_the_pack(game: Game) -> None:
    for seed in SEEDS:
        _check_deal(game, seed)


# the form whose walks take longest (16-20 s each) walks with the slow tests
LONG_WALKS = frozenset({"preference+four_players"})


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow)
                                  if _name(g) in LONG_WALKS else g for g in FORMS], ids=_name)
def test_some_action_is_legal_until_the_deal_is_over(game: Game) -> None:
    """Also: no card is lost or doubled at any moment of the deal."""
    for seed in SEEDS:
        _walk(game, seed)


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow)
                                  if _name(g) in LONG_WALKS else g for g in FORMS], ids=_name)
def test_every_deal_ends_within_the_bound_of_the_game(game: Game) -> None:
    for seed in SEEDS:
        _check_bound(game, seed)


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow)
                                  if _name(g) in LONG_WALKS else g for g in FORMS], ids=_name)
def test_tricks_cards_and_points_are_conserved_and_sides_score_alike(game: Game) -> None:
    for seed in SEEDS:
        _check_conservation(game, seed)


@pytest.mark.parametrize("game", FORMS, ids=_name)
def test_a_record_replays_to_the_same_deal(game: Game) -> None:
    for seed in SEEDS:
        _check_record(game, seed)


@pytest.mark.parametrize("game", FORMS, ids=_name)
def test_one_seed_one_deal(game: Game) -> None:
    for seed in SEEDS:
        _check_seed(game, seed)
    deals = {new_deal(game, seed=seed).dealt for seed in SEEDS}
    assert len(deals) == len(SEEDS), f"{_name(game)}: {len(SEEDS)} seeds deal only {len(deals)} deals"


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow)
                                  if _name(g) in LONG_WALKS else g for g in FORMS], ids=_name)
def test_the_fast_playout_plays_the_deal_the_per_action_path_plays(game: Game) -> None:
    for seed in SEEDS:
        _check_paths(game, seed)


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow)
                                  if _name(g) in LONG_WALKS else g for g in FORMS], ids=_name)
def test_an_illegal_action_is_refused_and_changes_nothing(game: Game) -> None:
    """Every action offered is accepted, and every other one refused with an
    IllegalActionError, the state left as it was."""
    for seed in SEEDS:
        _check_refusals(game, seed)


@pytest.mark.slow
@pytest.mark.parametrize("game", FORMS, ids=_name)
def test_many_deals_of_every_game(game: Game) -> None:
    for seed in SLOW_SEEDS:
        for check in CHECKS:
            check(game, seed)
        _WALKS.clear()
