"""A phase no registered game has, stated by a game of its own with the block that writes
its steps, is played and proved like any other: the card pass of pass_game.py (each seat
passes three cards to its left before the play, as in Hearts).

Nothing of the pass is written in a back end: the engine runs its steps, the Z3 situations
read from them where a seat's cards may come from, and the scenario unroller says that it
does not unroll them yet.
"""
from __future__ import annotations

import pathlib
import random

import pytest
from pass_game import GAME

from spec.dsl._origins import ANY, hand_origins
from spec.engine import Lay, Phase, apply, legal_actions, new_deal, pick, play_deal
from spec.errors import IllegalActionError
from spec.records import replay, to_record
from verifier.properties import Verdict, check_game
from verifier.scenario import unsupported

SEEDS = range(80)
ROOT = pathlib.Path(__file__).resolve().parents[2]


def _to_pass(seed: int):  # type: ignore[no-untyped-def]
    state, rng = new_deal(GAME, seed=seed), random.Random(seed)
    while state.phase is Phase.AUCTION:
        actions = legal_actions(state)
        state = apply(state, actions[pick(rng, len(actions))])
    return state


def test_the_pass_is_a_step_between_the_contract_and_the_play() -> None:
    assert [s.name for s in GAME.steps] == ["auction", "settle", "pass", "take up", "play"]
    assert [p.name for p in GAME.program.phases] == ["auction", "pass", "play"]
    assert GAME.program.part_of("pass.cards") == "pass"


@pytest.mark.parametrize("seed", SEEDS)
def test_each_seat_passes_three_cards_to_its_left(seed: int) -> None:
    state = play_deal(GAME, seed=seed)
    if state.contract < 0:
        return
    laid = [(seat, a) for seat, a in state.log if isinstance(a, Lay)]
    assert len(laid) == 12
    passed = [0] * 4
    for seat, lay in laid:
        passed[seat] |= 1 << GAME.deck.index(lay.card)
    # in turn from the declarer, three cards each, from the seat's own hand as dealt
    assert [seat for seat, _a in laid] == [(state.declarer + k) % 4 for k in range(4)
                                           for _ in range(3)]
    assert all(passed[s] & ~state.dealt[s] == 0 for s in range(4))
    # the cards each seat played are what it was dealt, less what it passed, with what the
    # seat on its right passed it
    for s in range(4):
        played = sum(1 << c for t in state.tricks for c, p in zip(t.cards, t.seats) if p == s)
        assert played == state.dealt[s] & ~passed[s] | passed[(s - 1) % 4]


@pytest.mark.parametrize("seed", SEEDS[:40])
def test_records_with_the_pass_replay(seed: int) -> None:
    record = to_record(play_deal(GAME, seed=seed))
    assert replay(record, GAME).ok


def test_a_card_not_held_cannot_be_passed_and_the_state_is_kept() -> None:
    state = next(s for s in map(_to_pass, SEEDS) if s.phase.value == "pass")
    other = next(s for s in range(4) if s != state.turn)
    card = next(c for i, c in enumerate(GAME.deck) if state.hands[other] >> i & 1)
    before = (state.hands, state.aside, state.log, state.turn)
    with pytest.raises(IllegalActionError):
        apply(state, Lay(card))
    assert (state.hands, state.aside, state.log, state.turn) == before
    assert sorted(str(a.card) for a in legal_actions(state)) == sorted(
        str(c) for i, c in enumerate(GAME.deck) if state.hands[state.turn] >> i & 1)


def test_the_situations_let_a_seat_hold_any_card_after_the_pass() -> None:
    # a seat's cards in the play come from other seats too: the trick situation must not
    # assume a seat holds only cards dealt to it
    assert ANY in hand_origins(GAME)


def test_every_property_holds() -> None:
    results = check_game(GAME)
    assert len(results) >= 10
    assert {r.id: r.verdict for r in results} == {r.id: Verdict.HOLDS for r in results}


def test_the_scenarios_say_they_do_not_unroll_the_pass() -> None:
    assert unsupported(GAME).endswith("(it has the steps of the phase 'pass')")


def test_no_back_end_names_the_pass() -> None:
    # the pass is written in the game module alone
    for folder in ("spec", "verifier", "docs/_ext"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "PassCards" not in text and "pass_test" not in text, path
