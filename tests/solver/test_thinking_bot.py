"""The thinking bot: it plays whole deals the engine accepts, and it acts on its own view
alone (two deals that look the same to its seat get the same action)."""
from __future__ import annotations

import json
import random

import pytest

from spec.engine import Phase, apply, modest_bot, new_deal, play_deal
from spec.records import replay, to_record
from spec.registry import GAMES
from spec.solver import thinking_bot
from spec.worlds import sample_worlds


def test_a_deal_played_by_thinking_bots_replays() -> None:
    game = GAMES["preference"]
    played = play_deal(game, seed=2, bots=[thinking_bot(worlds=2, budget=5_000)] * game.players)
    assert played.phase is Phase.OVER
    assert replay(json.loads(json.dumps(to_record(played)))).ok


@pytest.mark.parametrize(("key", "seed"), [("preference", 4), ("vint", 1)])
def test_the_same_view_gets_the_same_action(key: str, seed: int) -> None:
    game = GAMES[key]
    # a deal played by modest bots into its second trick
    s, rng = new_deal(game, seed=seed), random.Random(seed)
    while s.phase is not Phase.PLAY or s.trick_number < 2 or not s.trick:
        assert s.phase is not Phase.OVER, "the deal ended before its second trick"
        s = apply(s, modest_bot(s.view(s.turn), rng))
    seat = s.turn
    other = sample_worlds(s.view(seat), 1, seed=7)[0].state  # another deal the seat sees alike
    assert other.hands != s.hands and other.hands[seat] == s.hands[seat]
    bot = thinking_bot(worlds=3, budget=20_000)
    assert bot(s.view(seat), random.Random(3)) == bot(other.view(seat), random.Random(3))
