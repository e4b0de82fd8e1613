"""The sensible bot: it plays whole deals the engine accepts, the same deal from the same seed,
it acts on its own view alone (two deals that look the same to its seat get the same action),
and it bids contracts its hand can make rather than the top of the ladder."""
from __future__ import annotations

import json
import random

import pytest
from solver_positions import two_deals_a_seat_sees_alike

from spec.bots import BOT_NAMES, bot_named
from spec.engine import Phase, new_deal, play_deal
from spec.records import replay, to_record
from spec.registry import GAMES
from spec.solver import sensible_bot
from spec.worlds import sample_worlds


def test_the_sensible_bot_is_named() -> None:
    assert "sensible" in BOT_NAMES
    assert bot_named("sensible").__name__ == "sensible_bot"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_deal_played_by_sensible_bots_replays_and_repeats(key: str) -> None:
    game = GAMES[key]
    played = play_deal(game, seed=5, bots=[sensible_bot()] * game.players)
    assert played.phase is Phase.OVER
    assert replay(json.loads(json.dumps(to_record(played)))).ok
    again = play_deal(game, seed=5, bots=[sensible_bot()] * game.players)
    assert again.log == played.log


@pytest.mark.parametrize(("key", "seed"), [("preference", 4), ("vint", 1), ("wiezen", 2),
                                           ("304", 3), ("crescendo", 1)])
def test_the_same_view_gets_the_same_action(key: str, seed: int) -> None:
    s, other, seat = two_deals_a_seat_sees_alike(GAMES[key], seed)
    bot = sensible_bot()
    assert bot(s.view(seat), random.Random(3)) == bot(other.view(seat), random.Random(3))
    fresh = sensible_bot()  # and a bot that has not seen the first deal
    assert fresh(other.view(seat), random.Random(3)) == bot(s.view(seat), random.Random(3))


@pytest.mark.parametrize(("key", "seed"), [("vint", 1), ("crescendo", 2)])
def test_the_same_view_of_an_auction_gets_the_same_call(key: str, seed: int) -> None:
    game = GAMES[key]
    s = new_deal(game, seed=seed)
    seat = s.turn
    other = sample_worlds(s.view(seat), 1, seed=7)[0].state
    assert other.hands != s.hands and other.hands[seat] == s.hands[seat]
    assert (sensible_bot()(s.view(seat), random.Random(3))
            == sensible_bot()(other.view(seat), random.Random(3)))


def test_vint_contracts_fit_the_hands() -> None:
    """Random bids end at 7NT every deal; the sensible bot's contracts spread over the
    ladder below the grand slams."""
    game = GAMES["vint"]
    contracts = [str(game.ladder[s.contract])
                 for s in (play_deal(game, seed=k, bots=[sensible_bot()] * 4) for k in range(12))
                 if s.contract >= 0]
    assert len(set(contracts)) > 3
    assert sum(c.startswith("7") for c in contracts) < len(contracts) / 2
