"""A seat idle for the whole deal and defenders who drop out: played and proved on a game
of its own (seats_game.py)."""
from __future__ import annotations

import random

import pytest
from seats_game import GAME, RULES

from spec.constraints import parse_where
from spec.dsl import (
    AllOut,
    DealPackets,
    DropOut,
    IdleSeat,
    Rule,
    Seats,
    SidesByContract,
    SitsOut,
    const,
    dealer,
    declarer,
    seat_after,
)
from spec.dsl._program import Actor, PhaseKind
from spec.engine import (
    Declare,
    Phase,
    Play,
    apply,
    legal_actions,
    new_deal,
    parse_action,
    pick,
    play_deal,
)
from spec.errors import IllegalActionError, NotationError, SpecDefinitionError
from spec.records import replay, to_record
from verifier._z3.solver import DEFAULT_RLIMIT
from verifier.properties import Verdict, check_game
from verifier.scenario import scenarios_where, unsupported

SEEDS = range(120)


def _replaced(rid: str, body: object, rules: tuple[Rule, ...] = RULES) -> list[Rule]:
    return [r if r.id != rid else Rule(id=r.id, text=r.text, source=r.source, body=body)
            for r in rules]


def _to_phase(game, seed: int, phase: Phase, dealer_seat: int = 3):  # type: ignore[no-untyped-def]
    """A deal of ``game`` played at random until ``phase`` (None if it never comes)."""
    state, rng = new_deal(game, seed=seed, dealer=dealer_seat), random.Random(seed)
    while not state.is_over and state.phase is not phase:
        actions = legal_actions(state)
        state = apply(state, actions[pick(rng, len(actions))])
    return state if state.phase is phase else None


def _choose(state, names: list[str]):  # type: ignore[no-untyped-def]
    """Each defender in turn makes the next of ``names``."""
    for name in names:
        assert state.phase is Phase.DROP_OUT
        state = apply(state, Declare(name))
    return state


def _drop_out_state(seed: int = 0, game=GAME):  # type: ignore[no-untyped-def]
    return next(s for s in (_to_phase(game, k, Phase.DROP_OUT) for k in range(seed, seed + 50))
                if s is not None)


def test_the_program_has_an_idle_seat_and_a_drop_out_phase() -> None:
    program = GAME.program
    assert [p.kind for p in program.phases] == [PhaseKind.AUCTION, PhaseKind.EXCHANGE,
                                                PhaseKind.DROP_OUT, PhaseKind.PLAY]
    drop = program.phases[2]
    assert (drop.actor, drop.action, drop.opened_by) == (Actor.EACH_DEFENDER, "play or pass",
                                                         "defence.play_or_pass")
    assert program.idle is not None and program.players == 4 and program.dealt_seats == 3
    assert (program.talon_cards, program.undealt, program.tricks) == (2, 2, 10)
    # three seats dealt in: offsets 0..2 from the first receiver, the talon after round one
    assert program.layout(1) == (0, 0, 0, 1, 1, 1, 2, 2, 2, -1, -1) + tuple(
        k for k in range(3) for _ in range(4)) + tuple(k for k in range(3) for _ in range(3))
    assert program.part_of("setup.idle_dealer") == "deal"
    assert program.part_of("defence.play_or_pass") == "drop out"


@pytest.mark.parametrize("dealer_seat", range(4))
def test_the_idle_dealer_is_dealt_nothing_and_never_acts(dealer_seat: int) -> None:
    for seed in SEEDS[:30]:
        state = new_deal(GAME, seed=seed, dealer=dealer_seat)
        assert state.idle == dealer_seat
        assert [h.bit_count() for h in state.dealt] == [0 if s == dealer_seat else 10
                                                       for s in range(4)]
        assert state.turn == (dealer_seat + 1) % 4  # the dealer's left calls first
        rng = random.Random(seed)
        while not state.is_over:
            assert state.turn != dealer_seat
            actions = legal_actions(state)
            state = apply(state, actions[pick(rng, len(actions))])
        assert all(s != dealer_seat for s, _a in state.log)
        assert all(dealer_seat not in t.seats for t in state.tricks)
        assert state.scores is not None and state.scores[dealer_seat] == 0


def test_tricks_have_a_card_from_each_seat_in_the_play() -> None:
    sizes: set[tuple[int, int]] = set()
    for seed in SEEDS:
        state = play_deal(GAME, seed=seed)
        if state.contract < 0:
            continue
        out = state.dropped.bit_count()
        if out == 2:  # nobody defends: no play
            assert state.tricks == ()
            continue
        assert len(state.tricks) == 10
        assert all(len(t.cards) == 3 - out for t in state.tricks)
        sizes.add((out, len(state.tricks[0].cards)))
    assert sizes == {(0, 3), (1, 2)}


def test_a_defender_who_passes_lays_his_hand_down_and_never_plays() -> None:
    state = _drop_out_state()
    first = state.turn
    assert first == (state.declarer + 1) % 4 or (state.declarer + 1) % 4 == state.idle
    assert legal_actions(state) == (Declare("play"), Declare("pass"))
    held = state.hands[first]
    state = _choose(state, ["pass"])
    assert state.dropped == 1 << first and state.folded == held and state.hands[first] == 0
    assert state.view(first).seen_cards.mask & held == held  # he still knows his cards
    other = next(s for s in range(4) if s not in (state.declarer, state.idle, first))
    assert state.view(other).seen_cards.mask & held == 0
    assert state.view(other).dropped == (first,)
    state = _choose(state, ["play"])
    assert state.phase is Phase.PLAY and state.turn == state.declarer
    rng = random.Random(0)
    while not state.is_over:
        assert state.turn != first
        actions = legal_actions(state)
        state = apply(state, actions[pick(rng, len(actions))])
    assert all(first not in t.seats and len(t.cards) == 2 for t in state.tricks)
    assert len(state.tricks) == 10 and state.won[first] == 0
    assert sum(state.scores) == 0 and state.scores[first] == -1


def test_when_both_pass_the_declarer_is_credited_with_every_trick() -> None:
    state = _choose(_drop_out_state(), ["pass", "pass"])
    d = state.declarer
    assert state.is_over and state.tricks == ()
    assert state.won[d].bit_count() == 10 and state.won[d] & 1 == 0
    assert ("defence.play_or_pass" in {rid for _n, rid in state.fired})
    assert state.scores[d] == 2 and sum(state.scores) == 0


def test_the_last_defender_may_have_to_play() -> None:
    rule = next(r for r in RULES if r.id == "defence.play_or_pass")
    body = rule.body
    assert isinstance(body, DropOut)
    game = GAME.with_rules(_replaced("defence.play_or_pass", DropOut(
        first=body.first, when=body.when, all_out=AllOut.LAST_MUST_PLAY)))
    state = _choose(_drop_out_state(game=game), ["pass"])
    assert legal_actions(state) == (Declare("play"),)
    before = (state.phase, state.turn, state.dropped, state.hands, state.log)
    with pytest.raises(IllegalActionError, match="may not pass") as err:
        apply(state, Declare("pass"))
    assert err.value.rule == "defence.play_or_pass"
    assert (state.phase, state.turn, state.dropped, state.hands, state.log) == before
    assert apply(state, Declare("play")).phase is Phase.PLAY


def test_refused_choices_leave_the_state_unchanged() -> None:
    state = _drop_out_state()
    before = (state.phase, state.turn, state.dropped, state.hands, state.log, state.fired)
    card = next(c for i, c in enumerate(GAME.deck) if state.hands[state.turn] >> i & 1)
    for action in (Play(card), Declare("maybe")):
        with pytest.raises(IllegalActionError, match="must choose: play or pass") as err:
            apply(state, action)
        assert err.value.rule == "defence.play_or_pass"
    assert (state.phase, state.turn, state.dropped, state.hands, state.log, state.fired) == before
    assert parse_action(state, "pass") == Declare("pass")


def test_hands_given_must_leave_the_idle_seat_empty() -> None:
    state = new_deal(GAME, seed=1, dealer=3)
    with pytest.raises(NotationError, match="North sits the deal out"):  # West's is empty
        new_deal(GAME, dealer=0, hands=state.dealt)
    assert new_deal(GAME, dealer=0, hands=(0, *state.dealt[:3])).idle == 0
    with pytest.raises(NotationError, match="leave 2 empty"):
        new_deal(GAME, dealer=3, hands=(0, state.dealt[1], state.dealt[2], 0))


@pytest.mark.parametrize("seed", SEEDS[:60])
def test_records_replay_with_an_idle_seat_and_drop_outs(seed: int) -> None:
    state = play_deal(GAME, seed=seed)
    record = to_record(state)
    assert record["hands"][GAME.table.name(state.dealer)] == "-"
    assert replay(record, GAME).ok


def test_an_idle_seat_needs_three_seats_and_a_deck_that_shares_out() -> None:
    two = _replaced("setup.seats", Seats(("North", "South")))
    with pytest.raises(SpecDefinitionError, match="setup.idle_dealer.*1 seat is left"):
        GAME.with_rules(two)
    four_each = _replaced("deal.packets", DealPackets((3, 4, 4), first=seat_after(dealer)))
    with pytest.raises(SpecDefinitionError, match=r"deal.packets.*3 seats \(one seat is idle\)"):
        GAME.with_rules(four_each)
    twice = [*RULES, Rule(id="setup.idle_again", text="Again.", source=RULES[1].source,
                          body=IdleSeat(seat=seat_after(dealer)))]
    with pytest.raises(SpecDefinitionError, match="setup.idle_again.*IdleSeat is stated twice"):
        GAME.with_rules(twice)


def test_dropping_out_needs_a_lone_declarer_and_two_choices() -> None:
    fixed = _replaced("setup.declarer_alone", SidesByContract(declarer_alone=False))
    with pytest.raises(SpecDefinitionError, match="defence.play_or_pass.*declarer plays alone"):
        GAME.with_rules(fixed)
    same = _replaced("defence.play_or_pass", DropOut(
        first=seat_after(declarer), when=const(True), all_out=AllOut.DECLARER_TAKES_ALL,
        stay="pass", leave="pass"))
    with pytest.raises(SpecDefinitionError, match="defence.play_or_pass.*choices need distinct"):
        GAME.with_rules(same)
    sits = [*RULES, Rule(id="play.sits_out", text="Sits out.", source=RULES[1].source,
                         body=SitsOut(when=const(True), seat=seat_after(declarer)))]
    with pytest.raises(SpecDefinitionError, match="play.sits_out.*cannot be combined"):
        GAME.with_rules(sits)


def test_the_seats_game_is_proved() -> None:
    results = check_game(GAME)
    assert {r.id: r.verdict for r in results} == {r.id: Verdict.HOLDS for r in results}, [
        (r.id, r.verdict, r.detail) for r in results if r.verdict is not Verdict.HOLDS]
    assert any(r.id == "deal.partitions_deck" and "3 seats (the idle seat none)" in r.detail
               for r in results)


def test_scenarios_unroll_the_idle_seat_and_a_deal_without_play() -> None:
    # North declares, the dealer West sits out; both defenders pass: no trick is played
    # and North is credited with all ten; the engine replays each deal Z3 found
    assert unsupported(GAME) == ""
    found = scenarios_where(GAME, parse_where(GAME, "won(North) == 10 and declarer == North"),
                            n=2)
    assert found.status == "found" and len(found.states) == 2
    for state in found.states:
        assert state.idle == 3 and state.is_over and state.won[0].bit_count() == 10
    assert any(state.dropped == 0b0110 and not state.tricks for state in found.states)


@pytest.mark.slow
def test_scenarios_unroll_tricks_around_the_seats_out() -> None:
    # neither North nor South takes a trick: replayed, whoever dropped out
    found = scenarios_where(GAME, parse_where(
        GAME, "declarer == North and won(East) >= 1 and won(North) == 0 and won(South) == 0"),
        n=2, rlimit=DEFAULT_RLIMIT)
    assert found.status == "found" and all(s.is_over for s in found.states)


def test_the_rulebook_shows_the_idle_seat_and_the_drop_out() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))
    from rulebook import _results
    from rulebook._page import game_page

    text = "\n".join(game_page(GAME, _results.unchecked(GAME), examples=False))
    assert ":Idle seat: one seat sits each deal out" in text
    assert "then drop out (each defender in turn" in text
    assert ":Tricks: 10 of 3 cards each, a card fewer for each defender who drops out" in text
    assert "when=(seat != declarer) & ~idle(seat) & ~dropped(seat)" in text


def test_deals_are_found_with_the_idle_seat_and_the_talon() -> None:
    from spec.cards import CardSet
    from spec.dsl import dealt_hand
    from verifier.deals import deals_where

    aces = CardSet.parse("AS AH AD AC", GAME.deck)
    where = (dealt_hand(0) & aces).count == 4
    found = deals_where(GAME, where, n=2, dealer=1, method="z3")
    assert found.status == "found" and len(found.deals) == 2
    for dealer_seat, hands in found.deals:
        assert dealer_seat == 1 and hands[1] == 0 and hands[0] & aces.mask == aces.mask
    assert deals_where(GAME, (dealt_hand(1) & aces).count == 1, dealer=1,
                       method="z3").status == "impossible"
