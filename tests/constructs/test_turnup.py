"""A card dealt face up that fixes trumps, and a hand laid open after the first trick:
played and proved on a game of its own (turnup_game.py)."""
from __future__ import annotations

import random

import pytest
from turnup_game import GAME, MISERE, RULES

from spec.constraints import parse_where
from spec.dsl import (
    LayOpen,
    Rule,
    TrumpIs,
    TurnUp,
    assumption,
    const,
    contract,
    declarer,
    trick_number,
    turn_up,
    turned_suit,
)
from spec.dsl._nodes import NO_SUIT, suit_code
from spec.dsl._program import Audience, Seen
from spec.engine import (
    PASS,
    Call,
    Phase,
    Play,
    apply,
    legal_actions,
    new_deal,
    pick,
    play_deal,
)
from spec.errors import IllegalActionError, NotationError, SpecDefinitionError
from spec.records import replay, to_record
from verifier._z3.encoding import SIGHT_ONLY
from verifier._z3.solver import DEFAULT_RLIMIT
from verifier.properties import Verdict, check_game
from verifier.scenario import scenarios_where, unsupported

SEEDS = range(120)
MOT = next(b for b in GAME.ladder if b.level == MISERE)


def _replace(rule_id: str, body) -> list[Rule]:  # type: ignore[no-untyped-def]
    return [r if r.id != rule_id else Rule(id=r.id, text=r.text, source=r.source, body=body)
            for r in RULES]


def _misere(seed: int):  # type: ignore[no-untyped-def]
    """A deal whose first caller bids misère op tafel and the others pass."""
    state = apply(new_deal(GAME, seed=seed), Call(MOT))
    while state.phase is Phase.AUCTION:
        state = apply(state, PASS)
    return state


def _play_random(state, rng: random.Random, until=None):  # type: ignore[no-untyped-def]
    while state.phase is not Phase.OVER and not (until and until(state)):
        actions = legal_actions(state)
        state = apply(state, actions[pick(rng, len(actions))])
    return state


def test_the_program_turns_up_the_last_card_and_lists_who_sees_what() -> None:
    program = GAME.program
    assert program.turn_up == 51 and program.layout(1)[51] == 3  # the fourth seat: the dealer
    sights = {s.seen: s for s in program.sights}
    assert sights[Seen.TURN_UP].by is Audience.EVERY_SEAT
    assert sights[Seen.TURN_UP].rule == "deal.turn_up"
    assert sights[Seen.OPEN_HAND].by is Audience.EVERY_SEAT
    assert sights[Seen.OPEN_HAND].rule == "play.lay_open"
    assert sights[Seen.OWN_HAND].by is Audience.OWNER
    assert program.part_of("deal.turn_up") == "deal"
    assert program.part_of("play.lay_open") == "play"


@pytest.mark.parametrize("seed", SEEDS[:40])
def test_the_turn_up_is_the_dealers_last_card_and_every_seat_sees_it(seed: int) -> None:
    state = new_deal(GAME, seed=seed, dealer=seed % 4)
    order = state.engine.deal_order(seed)
    assert state.turn_up == order[-1]
    assert state.dealt[state.dealer] >> state.turn_up & 1
    assert state.hands[state.dealer] >> state.turn_up & 1
    card = GAME.deck[state.turn_up]
    for s in range(4):
        view = state.view(s)
        assert view.turn_up == card
        assert card in view.seen_cards


def test_trumps_are_the_turned_suit_in_every_contract_of_tricks() -> None:
    played = 0
    for seed in SEEDS:
        state = play_deal(GAME, seed=seed)
        if state.contract < 0:
            continue
        suit = GAME.deck[state.turn_up].suit
        assert GAME.ladder[state.contract].level != MISERE
        assert state.trump == suit_code(suit)
        assert all(state.view(s).trump == suit for s in range(4))
        played += 1
    assert played > 100


@pytest.mark.parametrize("seed", SEEDS[:20])
def test_misere_op_tafel_has_no_trumps_and_lays_the_hand_open_after_trick_one(seed: int) -> None:
    rng = random.Random(seed)
    state = _misere(seed)
    assert state.phase is Phase.PLAY and state.trump == NO_SUIT
    d = state.declarer
    # during the first trick the declarer's hand is his alone
    while state.trick_number == 1:
        assert state.laid_open == ()
        assert all(v.open_hands == () for v in map(state.view, range(4)))
        others = [s for s in range(4) if s != d]
        hidden = state.hands[d] & ~(1 << state.turn_up)
        assert all(not state.view(s).seen_cards.mask & hidden for s in others)
        state = apply(state, legal_actions(state)[pick(rng, len(legal_actions(state)))])
    assert state.laid_open == ((d, 1),)
    assert state.fired[-1][1] == "play.lay_open"
    while state.phase is not Phase.OVER:
        for s in range(4):
            view = state.view(s)
            assert view.open_hands == ((d, state.hand(d)),)
            assert state.hands[d] & ~view.seen_cards.mask == 0
        state = apply(state, legal_actions(state)[pick(rng, len(legal_actions(state)))])
    record = to_record(state)
    assert record["laid_open"] == [{"seat": GAME.table.name(d), "after_trick": 1}]
    assert replay(record, GAME).ok


def test_a_contract_of_tricks_lays_no_hand_open() -> None:
    state = play_deal(GAME, seed=1)
    assert state.contract >= 0 and state.laid_open == ()
    assert to_record(state)["laid_open"] == []


def test_a_refused_play_from_the_open_hand_leaves_the_state_as_it_was() -> None:
    rng = random.Random(5)
    for seed in SEEDS:
        state = _play_random(_misere(seed), rng, until=lambda s: s.trick_number == 2 and s.trick)
        if state.phase is Phase.OVER:
            continue
        seat = state.turn
        legal = {a.card for a in legal_actions(state) if isinstance(a, Play)}
        refused = [c for i, c in enumerate(GAME.deck) if state.hands[seat] >> i & 1
                   and c not in legal]
        if not refused:
            continue
        before = (state.hands, state.trick, state.laid_open, state.log, state.fired)
        with pytest.raises(IllegalActionError):
            apply(state, Play(refused[0]))
        assert (state.hands, state.trick, state.laid_open, state.log, state.fired) == before
        return
    pytest.fail("no position with a card the rules refuse")


def test_a_refused_call_leaves_the_state_as_it_was() -> None:
    state = apply(new_deal(GAME, seed=7), Call(MOT))
    before = (state.calls, state.standing, state.log, state.turn_up)
    with pytest.raises(IllegalActionError, match="auction.overcall"):
        apply(state, Call(next(b for b in GAME.ladder if b.level == 5)))
    assert (state.calls, state.standing, state.log, state.turn_up) == before


@pytest.mark.parametrize("seed", SEEDS[:40])
def test_records_carry_the_turn_up_and_replay(seed: int) -> None:
    state = play_deal(GAME, seed=seed)
    record = to_record(state)
    assert record["turn_up"] == str(GAME.deck[state.turn_up])
    assert replay(record, GAME).ok


def test_a_record_whose_turn_up_the_dealer_was_not_dealt_does_not_replay() -> None:
    state = play_deal(GAME, seed=2)
    assert not state.thrown_in
    record = to_record(state)
    record["turn_up"] = str(GAME.deck[state.dealt[(state.dealer + 1) % 4].bit_length() - 1])
    report = replay(record, GAME)
    assert not report.ok and "turn-up must be a card of West's hand" in report.message


def test_hands_given_whole_take_the_turn_up_named_and_check_it() -> None:
    dealt = new_deal(GAME, seed=9).dealt
    card = next(c for i, c in enumerate(GAME.deck) if dealt[3] >> i & 1)
    state = new_deal(GAME, hands=dealt, dealer=3, turn_up=card)
    assert GAME.deck[state.turn_up] == card
    other = next(c for i, c in enumerate(GAME.deck) if dealt[0] >> i & 1)
    with pytest.raises(NotationError, match="turn-up must be a card of West's hand"):
        new_deal(GAME, hands=dealt, dealer=3, turn_up=other)


def test_a_turn_up_must_be_a_card_of_the_deal() -> None:
    for position in (0, 53, -53):
        with pytest.raises(SpecDefinitionError, match=r"deal.turn_up.*no position"):
            GAME.with_rules(_replace("deal.turn_up", TurnUp(position=position)))
    twice = [*RULES, Rule(id="deal.second_turn_up", text="Another card face up.",
                          source=assumption("TU-X", "a test"), body=TurnUp(position=1))]
    with pytest.raises(SpecDefinitionError, match="deal.second_turn_up"):
        GAME.with_rules(twice)


def test_reading_the_turn_up_needs_a_rule_that_deals_one() -> None:
    rules = [r for r in RULES if r.id not in ("deal.turn_up", "deal.dealer_holds_turn_up",
                                              "play.turned_suit_trumps")]
    with pytest.raises(SpecDefinitionError, match=r"auction.turned_trumps.*no rule deals one"):
        GAME.with_rules(rules)


def test_trumps_read_only_what_the_auction_fixes() -> None:
    bad = _replace("auction.turned_trumps", TrumpIs(when=trick_number == 1, suit=turned_suit))
    with pytest.raises(SpecDefinitionError, match=r"auction.turned_trumps.*reads only"):
        GAME.with_rules(bad)
    bad = _replace("auction.turned_trumps", TrumpIs(when=const(True), suit=const(True)))
    with pytest.raises(SpecDefinitionError, match=r"auction.turned_trumps.*a condition and a suit"):
        GAME.with_rules(bad)


def test_a_hand_is_laid_open_after_a_trick_that_is_not_the_last() -> None:
    for after in (0, 13):
        bad = _replace("play.lay_open", LayOpen(seat=declarer, after_trick=after,
                                                when=contract.level == MISERE))
        with pytest.raises(SpecDefinitionError, match=r"play.lay_open.*not after trick"):
            GAME.with_rules(bad)
    bad = _replace("play.lay_open", LayOpen(seat=turn_up, after_trick=1, when=const(True)))
    with pytest.raises(SpecDefinitionError, match=r"play.lay_open.*a seat and a condition"):
        GAME.with_rules(bad)


@pytest.mark.slow  # 6 s; the cases it proves are each caught in the tests above
def test_the_turn_up_game_is_proved() -> None:
    results = check_game(GAME)
    assert {r.id: r.verdict for r in results} == {r.id: Verdict.HOLDS for r in results}, [
        (r.id, r.verdict, r.detail) for r in results if r.verdict is not Verdict.HOLDS]
    assert {"deal.turn_up_is_dealers", "deal.dealer_holds_turn_up",
            "play.turned_suit_trumps"} <= {r.id for r in results}


def test_z3_ties_the_turn_up_to_the_seat_the_layout_deals_it_to() -> None:
    # turned up from the top of the pack, the card is the dealer's left's, not the dealer's
    game = GAME.with_rules(_replace("deal.turn_up", TurnUp(position=1)))
    result, = check_game(game, only=("deal.dealer_holds_turn_up",))
    assert result.verdict is Verdict.VIOLATED


def test_z3_reads_trumps_from_the_trump_rules() -> None:
    game = GAME.with_rules(_replace("auction.turned_trumps",
                                    TrumpIs(when=contract.level > 6, suit=turned_suit)))
    result, = check_game(game, only=("play.turned_suit_trumps",))
    assert result.verdict is Verdict.VIOLATED


def test_z3_says_how_it_handles_each_construct() -> None:
    assert LayOpen in SIGHT_ONLY
    assert unsupported(GAME) == ""


@pytest.mark.slow  # ~30 s on a quiet box, minutes on a busy one
def test_a_scenario_deals_the_turn_up_and_plays_to_its_trumps() -> None:
    # Z3 picks the hands, the card turned up (one of the dealer's), the auction and every
    # card; the engine deals the same turn-up and plays the same deal
    result = scenarios_where(GAME, parse_where(GAME, "level >= 1"), seed=1, rlimit=DEFAULT_RLIMIT)
    assert result.status == "found", result.reason
    state = result.states[0]
    assert state.is_over and state.turn_up >= 0
    assert state.dealt[state.dealer] >> state.turn_up & 1
    assert GAME.ladder[state.contract].level != MISERE  # a contract of tricks: turned trumps
    assert state.trump == suit_code(GAME.deck[state.turn_up].suit)
