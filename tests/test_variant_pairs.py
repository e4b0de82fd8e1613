"""Variants go together: every pair of a game's variants, and all of them at once, is
either refused when the game is built, with a message naming both, or played.

A pair that goes together plays 1,000 deals, each judged as it ends (the claims the
engine judges on a finished deal, zero-sum scoring among them where a game states it, and
in a game with a pot, a pot the rules can leave), and a whole match, rubber or session;
the ``slow`` test checks every property of it with Z3, as ``trickspec check GAME
--variant A --variant B`` does.  No game is named here: the pairs come from the registry
and the small test games of the general constructs.
"""
from __future__ import annotations

import itertools

import pytest
from construct_games import construct_games

from spec.dsl import _constructs as K
from spec.dsl._build import Game
from spec.dsl._nodes import Scope
from spec.engine import engine_for, play_deal, play_match, play_pot_session, session
from spec.errors import NotationError
from spec.registry import GAMES
from spec.sheet import play_rubber
from verifier.properties import Verdict, check_game

DEALS = 1000
SESSION_DEALS = 30
GAMES_AND_TEST_GAMES = {**GAMES, **construct_games()}


def _playable(game: Game) -> list[str]:
    return [v.id for v in game.variants if not v.not_decidable]


def _sets(game: Game) -> list[tuple[str, ...]]:
    """Every pair of the variants that can be played, and all of them when more than two."""
    ids = _playable(game)
    out = list(itertools.combinations(ids, 2))
    if len(ids) > 2:
        out.append(tuple(ids))
    return out


SETS = [(key, ids) for key, game in GAMES_AND_TEST_GAMES.items() for ids in _sets(game)]


def _name(case: tuple[str, tuple[str, ...]]) -> str:
    return "+".join((case[0], *case[1]))


def _form(key: str, ids: tuple[str, ...]) -> Game | None:
    """The game with the variants in force, or None when the game refuses them together
    (the message must name two of them)."""
    try:
        return GAMES_AND_TEST_GAMES[key].with_variants(*ids)
    except NotationError as e:
        named = [i for i in ids if i in str(e)]
        assert len(named) >= 2 and "cannot go together" in str(e), (
            f"{_name((key, ids))} refused without naming both variants: {e}")
        return None


def _outcome_claims(game: Game) -> list[tuple[str, object]]:
    """The rules' own claims about a finished deal (zero-sum scoring among them, where a
    game states it); the properties, which a variant may break on purpose, are the slow
    test's."""
    return [(r.id, r.body.holds) for r in game.rules
            if isinstance(r.body, K.Claim) and r.body.scope is Scope.OUTCOME and not r.body.free]


@pytest.mark.parametrize("case", SETS, ids=_name)
def test_a_pair_of_variants_plays_a_thousand_deals_and_a_session(
        case: tuple[str, tuple[str, ...]]) -> None:
    game = _form(*case)
    if game is None:
        return
    where = _name(case)
    eng = engine_for(game)
    claims = [(cid, eng.judge(Scope.OUTCOME, expr)) for cid, expr in _outcome_claims(game)]
    pot = bool(game.constructs(K.Pot))
    judged = 0
    for seed in range(DEALS):
        state = play_deal(game, seed=seed)
        if state.contract < 0 or state.void:
            continue
        assert state.scores is not None and len(state.scores) == game.players
        for cid, holds in claims:
            assert holds(state), f"{where}, seed {seed}: {cid} is false"
        if pot:  # what the players won together came out of the pot, which stays one
            left, unit = state.pot - sum(state.scores), eng.pot_rule.granularity
            assert left >= 0 and left % unit == 0, (
                f"{where}, seed {seed}: scores {state.scores} leave a pot of {left} chips")
        judged += 1
    assert judged > DEALS // 2, f"{where}: only {judged} of {DEALS} deals played out"
    if game.constructs(K.GameTarget):
        rubber = play_rubber(game, seed=7)
        assert rubber.deals
    elif game.constructs(K.MatchTarget) or game.constructs(K.MatchLength):
        match = play_match(game, seed=7)
        assert match.deals and match.winners
    elif pot:
        pots = play_pot_session(game, deals=SESSION_DEALS, seed=7)
        assert len(pots.deals) == SESSION_DEALS
    else:
        assert len(list(itertools.islice(session(game, seed=7), SESSION_DEALS))) == SESSION_DEALS


_ALONE: dict[tuple[str, str], dict[str, Verdict]] = {}

# Properties Z3 does not decide within check's default budget with these variants together,
# though it decides them with each alone: UNKNOWN, which `check` reports and never reads as
# holding.  Any other property that holds alone and not together fails the test.
BEYOND_THE_BUDGET: dict[tuple[str, frozenset[str]], dict[str, str]] = {
    ("preference", frozenset({"old_scoring", "four_players"})): {
        "pot.whole_units": "a tenth of the pot per trick paid among four seats: the "
        "products of the pot with each seat's tricks cancel only in the sum, and Z3 meets "
        "them case by case (holds with three players in 3 s; unknown at 600 s with four)",
    },
    ("preference", frozenset({"ace_bonuses", "four_players"})): {
        "pot.whole_units": "the bonuses, counts of aces each seat pays every other, cancel "
        "only in the sum over four seats, the one sitting out included (holds with three "
        "players; unknown within the budget with four; pot.covers_the_deal holds)",
    },
}


def _failing(game: Game) -> dict[str, Verdict]:
    return {r.id: r.verdict for r in check_game(game) if r.verdict is not Verdict.HOLDS}


def _beyond_the_budget(key: str, ids: tuple[str, ...]) -> set[str]:
    return {pid for (k, together), why in BEYOND_THE_BUDGET.items()
            if k == key and together <= set(ids) for pid in why}


@pytest.mark.slow
@pytest.mark.parametrize("case", SETS, ids=_name)
def test_a_pair_of_variants_checks_as_each_alone(case: tuple[str, tuple[str, ...]]) -> None:
    """Every property holds with the variants together, but those that one of them alone
    already fails on purpose (the findings a variant is about) and those listed in
    :data:`BEYOND_THE_BUDGET`, when they are UNKNOWN."""
    key, ids = case
    game = _form(key, ids)
    if game is None:
        return
    expected: set[str] = set()
    for vid in ids:
        if (key, vid) not in _ALONE:
            _ALONE[(key, vid)] = _failing(GAMES_AND_TEST_GAMES[key].with_variants(vid))
        expected |= set(_ALONE[(key, vid)])
    failing = _failing(game)
    undecided = {pid for pid in _beyond_the_budget(key, ids)
                 if failing.get(pid) is Verdict.UNKNOWN}
    together = set(failing) - expected - undecided
    assert not together, f"{_name(case)}: {sorted(together)} fail only together"
