"""Every claim, property and fact that Z3 proves also holds where the engine plays.

Z3 proves a claim over abstract situations; the engine judges the same expression, as it
compiles the rules, at every card played, every trick and every finished deal of deals
played by random and modest bots, for every registered game and every test game of the
general constructs.  A claim the engine finds false in a real deal is a disagreement
between the back ends.
"""
from __future__ import annotations

import itertools
import random

import pytest
from construct_games import construct_games

from spec.constraints import history_test
from spec.dsl import _constructs as K
from spec.dsl._build import Game
from spec.dsl._nodes import Scope
from spec.engine import Call, Phase, Play, State, View, modest_bot, new_deal, random_bot
from spec.registry import GAMES

DEALS = 60
FORMS = {**GAMES, **construct_games()}


def _claims(game: Game) -> list[tuple[str, Scope, object]]:
    """(id, scope, expression) of every universal claim the engine can judge."""
    out = [(r.id, r.body.scope, r.body.holds) for r in game.rules
           if isinstance(r.body, K.Claim) and not r.body.free]
    out += [(p.id, p.scope, p.holds) for p in game.properties
            if p.applies_to(game) and not p.free and not p.exists]
    return [c for c in out if c[1] in (Scope.DEAL, Scope.CALL, Scope.PLAY, Scope.TRICK,
                                       Scope.OUTCOME, Scope.HISTORY, Scope.MATCH)]


def _deals(game: Game) -> list[tuple[State, list[tuple[State, Play]], list[tuple[State, Call]]]]:
    """Finished deals, each with every (state, legal card) and (state, legal call) met on
    the way (the deals thrown in before it included)."""
    out = []
    for seed in range(DEALS):
        bot = modest_bot if seed % 2 else random_bot
        rng = random.Random(seed)
        state = new_deal(game, seed=seed)
        eng = state.engine
        plays: list[tuple[State, Play]] = []
        calls: list[tuple[State, Call]] = []
        while state.phase is not Phase.OVER:
            if state.phase is Phase.PLAY:
                plays += [(state, a) for a in eng.legal_actions(state) if isinstance(a, Play)]
            elif state.phase is Phase.AUCTION:
                calls += [(state, a) for a in eng.legal_actions(state) if isinstance(a, Call)]
            state = eng.apply(state, bot(View(state, state.turn), rng))
        out.append((state, plays, calls))
    return out


@pytest.mark.parametrize("key", [pytest.param(k, marks=pytest.mark.slow) if k == "wiezen" else k
                                 for k in sorted(FORMS)])  # Wiezen's deals take 24 s
def test_every_claim_holds_in_played_deals(key: str) -> None:
    game = FORMS[key]
    claims = _claims(game)
    assert claims
    deals = _deals(game)
    eng = deals[0][0].engine
    judged = {cid: 0 for cid, _s, _e in claims}
    for cid, scope, expr in claims:
        test = history_test(game, expr) if scope is Scope.HISTORY else eng.judge(scope, expr)
        if scope is Scope.DEAL:
            for dealer in range(game.players):
                assert test(dealer), f"{cid} is false in the engine's dealing by seat {dealer}"
                judged[cid] += 1
            continue
        if scope is Scope.MATCH:  # every match state of a small grid, totals around 11
            for deals_played, trail, lead, games in itertools.product(
                    range(1, 7), range(-3, 25), range(-3, 25), range(4)):
                if lead >= trail:
                    assert test(deals_played, lead, trail, games), \
                        f"{cid} is false after {deals_played} deals, totals {trail}..{lead}, " \
                        f"{games} games"
                    judged[cid] += 1
            continue
        for final, plays, calls in deals:
            if scope is Scope.HISTORY:
                if final.contract < 0:
                    continue
                assert test(final), f"{cid} is false in the engine's deal of seed {final.seed}"
                judged[cid] += 1
            elif scope is Scope.OUTCOME:
                if final.contract < 0:
                    continue
                assert test(final), f"{cid} is false in the engine's deal of seed {final.seed}"
                judged[cid] += 1
            elif scope is Scope.TRICK:
                for rec in final.tricks:
                    assert test(final, rec), f"{cid}: trick {rec.number} of seed {final.seed}"
                    judged[cid] += 1
            elif scope is Scope.CALL:
                for state, call in calls:
                    assert test(state, call), f"{cid}: {call} in seed {final.seed}"
                    judged[cid] += 1
            else:
                for state, play in plays:
                    assert test(state, play), f"{cid}: {play} in seed {final.seed}"
                    judged[cid] += 1
    assert all(judged.values()), f"never judged: {[c for c, n in judged.items() if not n]}"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_no_bid_redealer_is_who_the_engine_has_deal_again_after_all_pass(key: str) -> None:
    """``no_bid_redealer``, read by the facts of a thrown-in deal, names the seat the
    engine really gives the next deal when every call of the auction is a pass."""
    from spec.dsl import no_bid_redealer
    from spec.engine import PASS

    game = GAMES[key]
    for dealer in range(game.players):
        # the first deal of this dealer in which every seat may pass (a hand may oblige
        # its holder to bid: Wiezen's three aces)
        for seed in range(dealer, 400, game.players):
            state = new_deal(game, seed=seed, dealer=dealer)
            eng = state.engine
            for _ in range(game.players):
                assert state.phase is Phase.AUCTION and not state.thrown_in
                if PASS not in eng.legal_actions(state):
                    break
                state = eng.apply(state, PASS)
                if state.thrown_in:
                    break
            if state.thrown_in:
                break
        assert state.thrown_in and state.thrown_in[-1].reason == "no bid"
        for seat in range(game.players):
            assert eng.judge(Scope.DEAL, no_bid_redealer == seat)(dealer) == (seat == state.dealer)
