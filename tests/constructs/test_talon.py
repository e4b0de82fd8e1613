"""A talon dealt to the table, taken by the declarer, who discards: played and proved on a
game of its own (talon_game.py)."""
from __future__ import annotations

import random

import pytest
from talon_game import GAME, RULES

from spec.constraints import parse_where
from spec.dsl import Rule, TakeTalon, Talon, assumption, const
from spec.dsl._program import Audience, PhaseKind, Seen
from spec.engine import (
    Discard,
    Phase,
    Play,
    apply,
    engine_for,
    legal_actions,
    new_deal,
    pick,
    play_deal,
)
from spec.errors import IllegalActionError, SpecDefinitionError
from spec.records import replay, to_record
from verifier.properties import Verdict, check_game, checks_for, run_check
from verifier.scenario import scenarios_where, unsupported

SEEDS = range(150)


def _to_exchange(seed: int):  # type: ignore[no-untyped-def]
    state, rng = new_deal(GAME, seed=seed), random.Random(seed)
    while state.phase is Phase.AUCTION:
        actions = legal_actions(state)
        state = apply(state, actions[pick(rng, len(actions))])
    return state


def test_the_program_has_a_talon_and_an_exchange() -> None:
    program = GAME.program
    assert [p.kind for p in program.phases] == [PhaseKind.AUCTION, PhaseKind.EXCHANGE, PhaseKind.PLAY]
    assert (program.talon_cards, program.undealt, program.tricks) == (2, 2, 10)
    assert program.layout(1) == (0, 0, 0, 1, 1, 1, 2, 2, 2, -1, -1) + tuple(
        k for k in range(3) for _ in range(4)) + tuple(k for k in range(3) for _ in range(3))


@pytest.mark.parametrize("seed", SEEDS[:50])
def test_hands_and_talon_share_out_the_pack(seed: int) -> None:
    state = new_deal(GAME, seed=seed)
    assert [h.bit_count() for h in state.hands] == [10, 10, 10]
    assert state.talon.bit_count() == 2 and state.talon == state.dealt_talon
    union = state.talon
    for h in state.hands:
        assert not union & h
        union |= h
    assert union == (1 << 32) - 1


def test_the_declarer_takes_the_talon_and_discards_two() -> None:
    done = 0
    for seed in SEEDS:
        state = _to_exchange(seed)
        if state.phase is not Phase.EXCHANGE:
            continue
        d, talon = state.declarer, state.dealt_talon
        assert state.turn == d and state.talon == 0
        assert state.hands[d] == state.dealt[d] | talon and state.hands[d].bit_count() == 12
        assert all(isinstance(a, Discard) for a in legal_actions(state))
        assert len(legal_actions(state)) == 12
        others = [s for s in range(3) if s != d]
        state = apply(state, legal_actions(state)[0])
        assert state.phase is Phase.EXCHANGE
        state = apply(state, legal_actions(state)[-1])
        assert state.phase is Phase.PLAY and state.turn == state.leader
        assert state.hands[d].bit_count() == 10 and state.discards.bit_count() == 2
        assert state.view(d).discards.mask == state.discards
        assert all(state.view(s).discards.mask == 0 for s in others)
        done += 1
    assert done > 50


def test_the_views_show_what_the_programs_sights_say(monkeypatch: pytest.MonkeyPatch) -> None:
    """The views read who sees what from the deal program: with the discards shown to
    every seat, or a seat's own hand hidden from it, they show it so."""
    state = next(s for s in map(_to_exchange, SEEDS) if s.phase is Phase.EXCHANGE)
    d = state.declarer
    while state.phase is Phase.EXCHANGE:
        state = apply(state, legal_actions(state)[0])
    other = (d + 1) % 3
    audience = engine_for(GAME).audience
    assert audience[Seen.DISCARDS] is Audience.DECLARER and audience[Seen.TALON] is Audience.NOBODY
    assert state.view(other).discards.mask == 0
    monkeypatch.setitem(audience, Seen.DISCARDS, Audience.EVERY_SEAT)
    assert state.view(other).discards.mask == state.discards
    monkeypatch.setitem(audience, Seen.OWN_HAND, Audience.NOBODY)
    assert state.view(d).hand.mask == 0 and state.hands[d]


def test_a_card_not_held_cannot_be_discarded_and_the_state_is_kept() -> None:
    state = next(s for s in map(_to_exchange, SEEDS) if s.phase is Phase.EXCHANGE)
    other = next(s for s in range(3) if s != state.declarer)
    card = next(c for i, c in enumerate(GAME.deck) if state.hands[other] >> i & 1)
    before = (state.hands, state.discards, state.log)
    with pytest.raises(IllegalActionError, match="not in") as err:
        apply(state, Discard(card))
    assert err.value.rule == "exchange.take_talon"
    assert (state.hands, state.discards, state.log) == before


def test_a_discard_is_no_play_and_a_play_no_discard() -> None:
    state = next(s for s in map(_to_exchange, SEEDS) if s.phase is Phase.EXCHANGE)
    card = next(c for i, c in enumerate(GAME.deck) if state.hands[state.turn] >> i & 1)
    with pytest.raises(IllegalActionError, match="must discard"):
        apply(state, Play(card))


@pytest.mark.parametrize("seed", SEEDS[:60])
def test_records_replay_with_the_talon(seed: int) -> None:
    state = play_deal(GAME, seed=seed)
    record = to_record(state)
    assert len(record["talon"].split()) == 2
    assert replay(record, GAME).ok
    # the cards of the tricks and the discards are the whole pack
    played = {c for t in state.tricks for c in t.cards}
    if state.contract >= 0:
        assert len(played) == 30 and state.discards.bit_count() == 2


def test_a_deal_and_a_talon_must_add_up_to_the_pack() -> None:
    bad = [r if r.id != "deal.talon" else Rule(id=r.id, text=r.text, source=r.source,
                                               body=Talon(3, after_round=1)) for r in RULES]
    with pytest.raises(SpecDefinitionError, match="and 3 to the talon, but the deck has 32"):
        GAME.with_rules(bad)


def test_a_talon_after_a_round_the_deal_does_not_have_is_refused() -> None:
    bad = [r if r.id != "deal.talon" else Rule(id=r.id, text=r.text, source=r.source,
                                               body=Talon(2, after_round=4)) for r in RULES]
    with pytest.raises(SpecDefinitionError, match="deal.talon.*no such round"):
        GAME.with_rules(bad)


def test_taking_a_talon_needs_one_and_a_hand_that_lasts() -> None:
    no_talon = [r for r in RULES if r.id != "deal.talon"]
    with pytest.raises(SpecDefinitionError):
        GAME.with_rules(no_talon)
    three = [r if r.id != "exchange.take_talon" else Rule(
        id=r.id, text=r.text, source=assumption("TAL-EXCH-1", "a test"),
        body=TakeTalon(when=const(True), discards=3)) for r in RULES]
    with pytest.raises(SpecDefinitionError, match="takes 2 cards and discards 3"):
        GAME.with_rules(three)


def test_the_talon_game_is_proved() -> None:
    results = check_game(GAME)
    assert {r.id: r.verdict for r in results} == {r.id: Verdict.HOLDS for r in results}, [
        (r.id, r.verdict, r.detail) for r in results if r.verdict is not Verdict.HOLDS]
    assert any(r.id == "deal.partitions_deck" and "2 to the talon" in r.detail for r in results)


def test_the_exchange_is_proved_to_keep_the_hands_and_can_fail() -> None:
    check = next(c for c in checks_for(GAME) if c.id == "deal.exchange_keeps_hands")
    assert set(check.covers) == {"deal.talon", "exchange.take_talon"}
    result = run_check(GAME, check)
    assert result.verdict is Verdict.HOLDS, result.detail
    assert "10 cards in his hand and 2 discarded" in result.detail
    # an exchange that discards one card too many, past the build's own check: the proof
    # reads the rule, so it must find the hand one card short
    body = next(b for _r, b in GAME.constructs(TakeTalon))
    object.__setattr__(body, "discards", 3)
    try:
        broken = run_check(GAME, check)
    finally:
        object.__setattr__(body, "discards", 2)
    assert broken.verdict is Verdict.VIOLATED, broken.detail
    assert any("discarded" in line for line in broken.playthrough.lines)


def test_a_scenario_unrolls_the_exchange() -> None:
    # a deal where the declarer takes all ten tricks: Z3 picks the hands, the talon, the
    # auction, the two discards and every card; the engine replays them
    assert unsupported(GAME) == ""
    result = scenarios_where(GAME, parse_where(GAME, "tricks(declarer) == 10 and level == 10"),
                             seed=1)
    assert result.status == "found", result.reason
    state = result.states[0]
    assert state.is_over and state.discards.bit_count() == 2
    assert sum(1 for _seat, a in state.log if isinstance(a, Discard)) == 2
    assert len(state.tricks) == 10 and state.contract is not None



def test_z3_deals_leave_the_talon_its_cards() -> None:
    # an owner for every card: a seat or the talon; before, no deal could leave two
    # cards undealt and Z3 answered "impossible"
    from spec.constraints import parse_where
    from verifier.deals import deals_where

    where = parse_where(GAME, "count(East, aces) == 4")
    found = deals_where(GAME, where, n=3, method="z3", dealer=0)
    assert found.status == "found", found.reason
    assert len(found.deals) == 3
    for _dealer, hands in found.deals:
        assert [h.bit_count() for h in hands] == [10, 10, 10]
        state = new_deal(GAME, seed=0).engine.start(hands, dealer=0)
        assert state.talon.bit_count() == 2
