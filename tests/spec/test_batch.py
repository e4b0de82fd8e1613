"""The batch back end plays the cards of many deals at once; its records are the engine's.

For every game (and variant) whose play it runs, the cards each deal's policy chose are
applied again by the per-action engine to the same start, action by action (each checked),
and the two records must be the same text, scores and all.  A game whose play it does not
run is refused by name.
"""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from spec.batch import NotBatchable, play_batch, random_policy
from spec.engine import apply, engine_for
from spec.records import to_record
from spec.registry import GAMES

DEALS = 10_000
SLOW_DEALS = int(os.environ.get("TRICKSPEC_BATCH_DEALS", "1000000"))
CHUNK = 10_000


# the games whose play the batch runs, each with every variant the engine decides; the
# others are refused by name (the last test)
BATCHED = ("vint", "preference")
FORMS = [form for key in BATCHED for form in (
    GAMES[key], *(GAMES[key].with_variants(v.id) for v in GAMES[key].variants
                  if not v.not_decidable))]
DEFAULT = [GAMES[key] for key in BATCHED]


def _name(game) -> str:
    return "+".join((game.key, *game.active_variants))


def _same_records(game, seeds, play_seed: int = 1) -> int:
    """Plays ``seeds`` in the batch, replays each deal's cards through the engine, and
    returns how many deals were compared."""
    eng = engine_for(game)
    batch = play_batch(eng, seeds, play_seed=play_seed)
    ends = batch.states()
    scores = batch.scores()
    for k in batch.rows:
        start, end = batch.starts[int(k)], ends[int(k)]
        state = start
        for _seat, action in end.log[len(start.log):]:
            state = apply(state, action)
        ours, theirs = to_record(end), to_record(state)
        assert json.dumps(ours) == json.dumps(theirs), f"{_name(game)}, seed {seeds[int(k)]}"
        assert tuple(scores[int(k)]) == state.scores
    return len(batch.rows)


@pytest.mark.parametrize("game", DEFAULT, ids=_name)
def test_the_batch_gives_the_engines_records(game) -> None:
    assert _same_records(game, range(DEALS)) > DEALS // 2


@pytest.mark.parametrize("game", [f for f in FORMS if f.active_variants], ids=_name)
def test_each_variant_in_the_batch_gives_the_engines_records(game) -> None:
    assert _same_records(game, range(1_000)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("game", DEFAULT, ids=_name)
def test_a_million_deals_in_the_batch_give_the_engines_records(game) -> None:
    played = 0
    for first in range(DEALS, DEALS + SLOW_DEALS, CHUNK):
        played += _same_records(game, range(first, min(first + CHUNK, DEALS + SLOW_DEALS)))
    assert played > SLOW_DEALS // 2


def test_a_deals_cards_do_not_depend_on_its_batch() -> None:
    eng = engine_for(GAMES["vint"])
    whole = play_batch(eng, range(40)).states()
    halves = play_batch(eng, range(20)).states() + play_batch(eng, range(20, 40)).states()
    assert [to_record(s) for s in whole] == [to_record(s) for s in halves]


def test_another_seed_plays_other_cards() -> None:
    eng = engine_for(GAMES["vint"])
    one = [to_record(s)["actions"] for s in play_batch(eng, range(10), play_seed=1).states()]
    two = [to_record(s)["actions"] for s in play_batch(eng, range(10), play_seed=2).states()]
    assert one != two


def test_a_policy_choosing_a_card_the_rules_forbid_is_refused() -> None:
    eng = engine_for(GAMES["vint"])
    lowest_missing = lambda legal, deals, draws: np.array(  # noqa: E731
        [(~int(m) & (int(m) + 1)).bit_length() - 1 for m in legal], dtype=np.int64)
    with pytest.raises(ValueError, match="which the rules do not allow"):
        play_batch(eng, range(5), policy=lowest_missing)


def test_a_policy_is_followed() -> None:
    eng = engine_for(GAMES["vint"])
    lowest = lambda legal, deals, draws: np.array(  # noqa: E731
        [(int(m) & -int(m)).bit_length() - 1 for m in legal], dtype=np.int64)
    batch = play_batch(eng, range(5), policy=lowest)
    for k, end in zip(batch.rows, batch.states()):
        start = batch.starts[int(k)]
        state = start
        for _seat, action in end.log[len(start.log):]:
            mask = eng.legal_actions(state)
            cards = sorted(eng.game.deck.index(a.card) for a in mask if hasattr(a, "card"))
            assert eng.game.deck.index(action.card) == cards[0]
            state = apply(state, action)


@pytest.mark.parametrize(("key", "why"), [("304", "face down"), ("crescendo", "naming a suit"),
                                          ("wiezen", "status is judged")])
def test_a_play_the_batch_does_not_run_is_refused_by_name(key: str, why: str) -> None:
    with pytest.raises(NotBatchable, match=why):
        engine_for(GAMES[key]).batch()
