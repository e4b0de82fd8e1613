"""Sides formed during the deal, played and proved on a game of its own (sides_game.py):
a partner found by the cards (PartnerHolds) and several declarers at once, each settled
on his own (SameBidJoins)."""
from __future__ import annotations

import pathlib
import sys

import pytest
from sides_game import ACES, GAME, MISERE, PLAYERS, RULES, SOLO, TROEL

from spec.cards import Suit
from spec.constraints import parse_where
from spec.dsl import (
    PartnerHolds,
    Rule,
    SameBidJoins,
    ScoreRule,
    Seats,
    assumption,
    bid,
    const,
    contract,
    declarer,
    declarer_partner,
    each_declarer,
    if_then_else,
    implies,
    seat,
    trick_number,
    tricks_won,
)
from spec.engine import PASS, Call, apply, legal_actions, new_deal, play_deal
from spec.errors import IllegalActionError, SpecDefinitionError
from spec.records import replay, to_record
from verifier._z3.solver import DEFAULT_RLIMIT
from verifier.properties import Verdict, check_game
from verifier.scenario import scenarios_where, unsupported

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "docs" / "_ext"))
from rulebook._expr import render  # the documentation back end, in docs/_ext

SEEDS = range(400)
ACE_MASK = sum(1 << GAME.deck.index(c) for c in ACES.value)  # type: ignore[attr-defined]
HEARTS = GAME.deck.cards_of(Suit.HEARTS).mask
BIDS = {b.label: Call(b) for b in GAME.ladder}


def _played() -> list:  # type: ignore[type-arg]
    return [s for s in (play_deal(GAME, seed=k) for k in SEEDS) if s.contract >= 0]


PLAYED = _played()


def _with(rule_id: str, body) -> list[Rule]:  # type: ignore[no-untyped-def]
    return [r if r.id != rule_id else Rule(id=r.id, text=r.text, source=r.source, body=body)
            for r in RULES]


def test_the_program_has_the_joinable_bids_and_the_partner() -> None:
    program = GAME.program
    assert program.several_declarers and program.joinable == (MISERE - 1,)
    assert program.partner_rules == ("auction.troel_partner",)
    assert GAME.joinable_bids == (False, True, False)
    assert program.part_of("auction.misere_joined") == program.part_of("auction.troel_partner")


def test_the_troel_partner_is_the_holder_of_the_ace_he_lacks() -> None:
    troels = [s for s in PLAYED if GAME.ladder[s.contract].level == TROEL]
    assert len(troels) >= 10
    for s in troels:
        d, p = s.declarer, s.partner
        mine = s.dealt[d] & ACE_MASK
        assert p != d and s.declaring_seats == (d,)
        if mine.bit_count() == 3:
            assert s.dealt[p] & ACE_MASK == ACE_MASK & ~mine
        else:  # all four aces: the holder of the highest heart he lacks
            lacking = HEARTS & ~s.dealt[d]
            highest = max((i for i in range(52) if lacking >> i & 1),
                          key=lambda i: (GAME.rank_table.value(GAME.deck[i]), -i))
            assert s.dealt[p] >> highest & 1


def test_the_troel_partner_with_four_aces_holds_the_highest_heart_missing() -> None:
    deck = GAME.deck
    pick = lambda text: sum(1 << deck.index(deck.parse_card(c)) for c in text.split())
    north = pick("AS AH AD AC KH QH 2S 3S 4S 5S 6S 7S 8S")
    east = pick("JH 10H 9H 2D 3D 4D 5D 6D 7D 8D 9D 10D JD")
    south = pick("8H 7H 6H 5H 4H 3H 2H QD KD 2C 3C 4C 5C")
    west = ((1 << 52) - 1) & ~(north | east | south)
    state = new_deal(GAME, hands=(north, east, south, west), dealer=3)
    state = apply(state, BIDS["troel"])  # North, the dealer's left, with all four aces
    for _ in range(3):
        state = apply(state, PASS)
    assert state.declarer == 0 and state.partner == 1  # East holds the jack of hearts


def test_several_declarers_each_settled_on_his_own_tricks() -> None:
    joined = [s for s in PLAYED if len(s.declaring_seats) > 1]
    assert len(joined) >= 20
    for s in joined:
        assert GAME.ladder[s.contract].level == MISERE and s.partner == s.declarer
        won = [sum(1 for t in s.tricks if t.winner == k) for k in range(PLAYERS)]
        expect = [0] * PLAYERS
        for d in s.declaring_seats:
            value = 5 if won[d] == 0 else -5
            for k in range(PLAYERS):
                expect[k] += 3 * value if k == d else -value
        assert list(s.scores) == expect and sum(s.scores) == 0


def test_a_later_misere_joins_and_the_first_stays_the_highest_bidder() -> None:
    state = new_deal(GAME, seed=1, dealer=3)
    state = apply(apply(state, BIDS["misere"]), PASS)
    assert state.high_bidder == 0 and state.joined == 0
    state = apply(state, BIDS["misere"])
    assert state.high_bidder == 0 and state.joined == 1 << 2
    state = apply(state, PASS)
    assert state.declarer == 0 and state.declaring_seats == (0, 2)


def test_a_solo_cannot_join_and_the_state_is_kept() -> None:
    state = apply(new_deal(GAME, seed=2, dealer=3), BIDS["solo"])
    before = (state.calls, state.standing, state.high_bidder, state.joined, state.log)
    with pytest.raises(IllegalActionError) as err:
        apply(state, BIDS["solo"])
    assert err.value.rule == "auction.overcall"
    assert (state.calls, state.standing, state.high_bidder, state.joined, state.log) == before


def test_troel_without_three_aces_is_refused_and_the_state_is_kept() -> None:
    state = next(s for s in (new_deal(GAME, seed=k, dealer=3) for k in SEEDS)
                 if (s.hands[0] & ACE_MASK).bit_count() < 3)
    before = (state.calls, state.standing, state.log)
    with pytest.raises(IllegalActionError) as err:
        apply(state, BIDS["troel"])
    assert err.value.rule == "auction.troel_aces"
    assert (state.calls, state.standing, state.log) == before
    assert BIDS["troel"] not in legal_actions(state)


@pytest.mark.parametrize("seed", SEEDS[:80])
def test_records_replay_with_the_sides(seed: int) -> None:
    state = play_deal(GAME, seed=seed)
    record = to_record(state)
    contract_ = record["contract"]
    assert contract_["declarers"] == [GAME.table.name(s) for s in state.declaring_seats]
    assert contract_["partner"] == (None if state.partner == state.declarer
                                    else GAME.table.name(state.partner))
    assert replay(record, GAME).ok


def test_a_record_with_other_declarers_is_refused() -> None:
    state = next(s for s in PLAYED if len(s.declaring_seats) > 1)
    record = to_record(state)
    record["contract"]["declarers"] = record["contract"]["declarers"][:1]
    report = replay(record, GAME)
    assert not report.ok and report.message.startswith("contract")


@pytest.mark.slow  # 9 s; the cases it proves are each caught in the tests above
def test_the_sides_game_is_proved() -> None:
    results = check_game(GAME)
    assert {r.id: r.verdict for r in results} == {r.id: Verdict.HOLDS for r in results}, [
        (r.id, r.verdict, r.detail) for r in results if r.verdict is not Verdict.HOLDS]
    assert {"score.zero_sum", "sides.troel_fourth_ace", "sides.joined_misere"} <= {
        r.id for r in results}


def test_scoring_that_forgets_the_partner_is_not_zero_sum() -> None:
    # the troel's partner paid as if he were a second declarer: Z3 finds an outcome whose
    # scores do not add up, and the engine replays it
    won = if_then_else(tricks_won(declarer) >= 5, 2, -2)
    wrong = GAME.with_rules(_with("score.settle", ScoreRule(when=const(True), amount=each_declarer(
        if_then_else((seat == declarer) | (seat == declarer_partner), 3 * won, -won)))))
    (result,) = check_game(wrong, only=("score.zero_sum",))
    assert result.verdict is Verdict.VIOLATED and result.playthrough.replayed
    assert "partnered by" in "\n".join(result.playthrough.lines)


def test_scoring_the_first_declarer_only_is_caught() -> None:
    # with the joined declarers left out of the settlement, a seat that joined a misère
    # and took no trick can lose: Z3 finds it against a claim the game could state
    from spec.dsl import Claim, Scope, declares, free_seat, score_of
    other = free_seat("other")
    won = if_then_else(tricks_won(declarer) == 0, 5, -5)
    claim = Rule(id="score.joined_misere_made", text="A seat that joins a misere and takes "
                 "no trick gains.", source=assumption("SID-SCORE-3", "a test"),
                 body=Claim(Scope.OUTCOME, implies(declares(other) & (tricks_won(other) == 0)
                                                   & (contract.level == MISERE),
                                                   score_of(other) > 0), free=(other,)))
    right = GAME.with_rules([*RULES, claim])
    (result,) = check_game(right, only=("score.joined_misere_made",))
    assert result.verdict is Verdict.HOLDS
    first_only = GAME.with_rules([*_with("score.settle", ScoreRule(
        when=const(True), amount=if_then_else(seat == declarer, 3 * won, -won))), claim])
    (result,) = check_game(first_only, only=("score.joined_misere_made",))
    assert result.verdict is Verdict.VIOLATED and result.playthrough.replayed


def test_several_declarers_need_sides_by_contract() -> None:
    fixed = _with("setup.seats", Seats(("North", "East", "South", "West"),
                                       partnerships=((0, 2), (1, 3))))
    with pytest.raises(SpecDefinitionError, match="auction.misere_joined.*contract decides"):
        GAME.with_rules(fixed)


def test_a_partner_rule_needs_a_set_of_cards() -> None:
    bad = _with("auction.troel_partner", PartnerHolds(when=contract.level == TROEL,
                                                      cards=const(SOLO)))
    with pytest.raises(SpecDefinitionError, match="auction.troel_partner.*cards= must be a cards"):
        GAME.with_rules(bad)


def test_a_partner_rule_reads_only_what_the_auction_fixes() -> None:
    bad = _with("auction.troel_partner", PartnerHolds(
        when=(contract.level == TROEL) & (trick_number == 1), cards=ACES))
    with pytest.raises(SpecDefinitionError, match="auction.troel_partner.*fixed as the auction"):
        GAME.with_rules(bad)


def test_a_join_rule_that_joins_nothing_is_refused() -> None:
    bad = _with("auction.misere_joined", SameBidJoins(bids=bid.level > TROEL))
    with pytest.raises(SpecDefinitionError, match="auction.misere_joined.*no bid"):
        GAME.with_rules(bad)


def test_the_rulebook_renders_the_new_expressions() -> None:
    text = render(each_declarer(if_then_else(seat == declarer, 3, -1)))
    assert text.startswith("each_declarer(")


@pytest.mark.slow  # ~30 s each on a quiet box
@pytest.mark.parametrize("where", ["declarer != partner", "declares(North) and declares(East)"])
def test_a_scenario_finds_the_sides_and_the_engine_replays_them(where: str) -> None:
    # a troel partner found by the cards, or a misère joined: Z3 picks the auction and the
    # play, the engine forms the same sides and settles each declarer the same way
    assert unsupported(GAME) == ""
    result = scenarios_where(GAME, parse_where(GAME, where), seed=1, rlimit=DEFAULT_RLIMIT)
    assert result.status == "found", result.reason
    state = result.states[0]
    assert state.is_over
    if "declares" in where:
        assert state.declarers & 0b11 == 0b11 and GAME.ladder[state.contract].level == MISERE
    else:
        assert GAME.ladder[state.contract].level == TROEL and state.partner != state.declarer


def test_the_rulebook_overview_names_the_declarers_and_the_partner() -> None:
    from types import SimpleNamespace

    from rulebook._page import _format_overview

    page = SimpleNamespace(game=GAME, results=SimpleNamespace(legal_bids=()), checks=[])
    text = "\n".join(_format_overview(page))  # type: ignore[arg-type]
    assert "several at once when later seats bid the same misere" in text
    assert "auction.troel_partner" in text
