"""Engine against Z3: the two compilations of the same rules must agree.

Hypothesis draws reachable states by playing random deals through the engine.  At every
play position the engine's legal cards are compared with the Z3 term for the legal cards
evaluated on the same concrete state; at every complete trick, the winners; at the end,
every seat's score.
"""
from __future__ import annotations

import random

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

from spec.dsl import _derive as D
from spec.dsl._nodes import Ctx, Ref, WonTrick
from spec.engine import Phase, engine_for, legal_actions, new_deal
from spec.games.crescendo import GAME
from verifier._z3.compile import Encoding, Z3Compiler

GAMES = [GAME, GAME.with_variants("allow_unmakeable_bids"), GAME.with_variants("joker_names_plain_suit")]
KNOWN_DIVERGENCES: dict[str, str] = {}  # none: engine and Z3 agree on every value compared


def _z3_value(term: z3.ExprRef) -> int:
    v = z3.simplify(term)
    return v.as_long() if not z3.is_bool(v) else int(z3.is_true(v))


def _play_env(enc: Encoding, s) -> dict:  # type: ignore[no-untyped-def]
    pos = len(s.trick)
    return {
        Ctx.SEAT: enc.int(s.turn), Ctx.DEALER: enc.int(s.dealer), Ctx.HAND: enc.bv(s.hands[s.turn]),
        Ctx.IS_LEADING: enc.bool(pos == 0), Ctx.LED_SUIT: enc.int(s.led_suit if pos else 4),
        Ctx.TRUMP: enc.int(s.trump), Ctx.TRICK_NUMBER: enc.int(s.trick_number),
        Ctx.POSITION: enc.int(pos), Ctx.CONTRACT: enc.int(s.contract), Ctx.DECLARER: enc.int(s.declarer),
    }


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "+".join(("crescendo",) + g.active_variants))
@given(seed=st.integers(0, 2**32 - 1))
def test_engine_and_z3_agree_along_a_random_deal(game, seed: int) -> None:  # type: ignore[no-untyped-def]
    enc = Encoding(game, z3.Context())
    eng = engine_for(game)
    rng = random.Random(seed)
    s = new_deal(game, seed=seed)
    legal_expr = D.legal_cards(game)
    winner_expr = D.trick_winner(game)
    while s.phase is not Phase.OVER:
        if s.phase is Phase.AUCTION:
            # the call rules: every ladder bid the engine offers is legal in Z3, and only those
            offered = {a.bid for a in legal_actions(s) if a.bid is not None}
            env = {Ctx.SEAT: enc.int(s.turn), Ctx.DEALER: enc.int(s.dealer), Ctx.HAND: enc.bv(s.hands[s.turn]),
                   Ctx.HAS_STANDING: enc.bool(s.standing >= 0), Ctx.STANDING: enc.int(s.standing),
                   Ctx.HIGH_BIDDER: enc.int(s.high_bidder), Ctx.CALLS_MADE: enc.int(len(s.calls)),
                   Ctx.PASSES_IN_ROW: enc.int(s.passes_in_row), Ctx.CALL_IS_BID: enc.bool(True)}
            for i in rng.sample(range(len(game.ladder)), 12):
                env[Ctx.CALL_BID] = enc.int(i)
                ok = _z3_value(Z3Compiler(enc, env).visit(D.call_legal(game)))
                assert bool(ok) == (game.ladder[i] in offered), game.ladder[i]
        else:
            z = _z3_value(Z3Compiler(enc, _play_env(enc, s)).visit(legal_expr))
            assert z == eng.legal_mask(s)
        before = s
        actions = legal_actions(s)
        s = eng.apply(s, actions[rng.randrange(len(actions))])
        if s.phase is not Phase.AUCTION and len(s.tricks) > len(before.tricks):
            rec = s.tricks[-1]
            env = {Ctx.CONTRACT: enc.int(s.contract), Ctx.TRUMP: enc.int(s.trump),
                   Ctx.TRICK_NUMBER: enc.int(rec.number), Ctx.DECLARER: enc.int(s.declarer)}
            for j, (c, d) in enumerate(zip(rec.cards, rec.named)):
                env[(Ctx.PLAYED_CARD, j)] = enc.bv(1 << c)
                env[(Ctx.PLAYED_DECLARED, j)] = enc.int(d)
            w = _z3_value(Z3Compiler(enc, env).visit(winner_expr))
            assert (rec.leader + w) % game.players == rec.winner
    winners = {rec.number: rec.winner for rec in s.tricks}
    for seat in range(game.players):
        env = {Ctx.CONTRACT: enc.int(s.contract), Ctx.DECLARER: enc.int(s.declarer),
               Ctx.DEALER: enc.int(s.dealer), Ctx.SEAT: enc.int(seat),
               WonTrick: lambda who, k: enc.bool(False) if k.as_long() not in winners
               else (who == winners[k.as_long()])}
        score = _z3_value(Z3Compiler(enc, env).visit(D.score(game, Ref(Ctx.SEAT))))
        assert score == s.scores[seat]
