"""Scenarios: deals with a complete legal play that make a condition about the play true."""
from __future__ import annotations

import json

import pytest

from spec.cards import JOKER
from spec.constraints import about_play, parse_where
from spec.games.crescendo import GAME
from spec.games.three_oh_four import GAME as G304
from spec.records import replay, to_record
from verifier.cli import main
from verifier.scenario import scenarios_where


def _one(text: str, seed: int = 1):  # type: ignore[no-untyped-def]
    result = scenarios_where(GAME, parse_where(GAME, text), seed=seed)
    assert result.status == "found" and len(result.states) == 1
    state = result.states[0]
    assert replay(json.loads(json.dumps(to_record(state)))).ok
    return state


def test_the_joker_led_at_trick_7_wins() -> None:
    state = _one("lead(7) == JK and winner(7) == leader(7)")
    last = state.tricks[6]
    assert GAME.deck[last.cards[0]] == JOKER and last.winner == last.leader


def test_the_soloist_takes_exactly_the_bid() -> None:
    state = _one("won(declarer) == level")
    assert state.engine.points(state, state.declarer) == GAME.ladder[state.contract].level
    assert state.scores[state.declarer] == 2 * GAME.ladder[state.contract].level


def test_the_trick_worth_7_is_won_by_a_defender() -> None:
    state = _one("winner(7) != declarer and level >= 20")
    assert state.tricks[6].winner != state.declarer and GAME.ladder[state.contract].level >= 20


def test_scenarios_are_distinct_and_impossible_ones_are_reported() -> None:
    result = scenarios_where(GAME, parse_where(GAME, "tricks(declarer) == 7"), n=2, seed=3)
    assert result.status == "found" and result.states[0].dealt != result.states[1].dealt
    # the joker never wins a trick it does not lead
    none = scenarios_where(GAME, parse_where(GAME, "played(3, Forehand) == JK and "
                                                   "leader(3) != Forehand and winner(3) == Forehand"))
    assert none.status == "impossible"


def test_play_words_make_a_scenario() -> None:
    assert about_play(parse_where(GAME, "winner(1) == Forehand"))
    assert not about_play(parse_where(GAME, "holds(Forehand, JK)"))


def test_a_deal_in_stages_with_the_trump_laid_aside_is_unrolled() -> None:
    # 304: two auctions, a partner calling, a card laid aside naming trumps, open or
    # closed trumps, cards face down, tracked values, a seat sitting out
    where = parse_where(G304, "level == 160 and winner(1) != declarer")
    found = scenarios_where(G304, where, seed=1)
    assert found.status == "found" and found.method == "z3"
    st = found.states[0]
    assert str(G304.ladder[st.contract]) == "160" and st.tricks[0].winner != st.declarer
    assert replay(json.loads(json.dumps(to_record(st)))).ok


def test_scenarios_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deals", "crescendo", "--where", "lead(7) == JK and winner(7) == leader(7)",
                 "--seed", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    record = data["deals"][0]["record"]
    assert replay(record).ok
    assert record["tricks"][6]["cards"][0].startswith("JK")


@pytest.mark.slow
def test_a_vint_scenario_is_found_and_replayed() -> None:
    from spec.games.vint import GAME as VINT

    result = scenarios_where(VINT, parse_where(VINT, "level == 7 and winner(13) == declarer"),
                             timeout=600)
    assert result.status == "found"
    state = result.states[0]
    assert VINT.ladder[state.contract].level == 7 and state.tricks[-1].winner == state.declarer
    assert replay(json.loads(json.dumps(to_record(state)))).ok
