"""The thinking bot: it plays whole deals the engine accepts, and it acts on its own view
alone (two deals that look the same to its seat get the same action)."""
from __future__ import annotations

import json
import random

import pytest
from solver_positions import two_deals_a_seat_sees_alike

from spec.engine import Phase, play_deal
from spec.records import replay, to_record
from spec.registry import GAMES
from spec.solver import thinking_bot


def test_a_deal_played_by_thinking_bots_replays() -> None:
    game = GAMES["preference"]
    played = play_deal(game, seed=2, bots=[thinking_bot(worlds=2, budget=5_000)] * game.players)
    assert played.phase is Phase.OVER
    assert replay(json.loads(json.dumps(to_record(played)))).ok


@pytest.mark.parametrize(("key", "seed"), [("preference", 4), ("vint", 1)])
def test_the_same_view_gets_the_same_action(key: str, seed: int) -> None:
    s, other, seat = two_deals_a_seat_sees_alike(GAMES[key], seed)
    bot = thinking_bot(worlds=3, budget=20_000)
    assert bot(s.view(seat), random.Random(3)) == bot(other.view(seat), random.Random(3))
