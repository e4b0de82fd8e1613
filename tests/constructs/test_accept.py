"""A partnership formed by a call in the auction, played and proved on a game of its own
(ask_game.py): an ask that a later seat may accept once, becoming the asker's partner
(PartnerAccepts); a higher bid takes it from the pair; unaccepted, the asker plays alone."""
from __future__ import annotations

import pathlib
import random
import sys

import pytest
from ask_game import ABONDANCE, ALONE, ASK, GAME, PLAYERS, RULES, SOLO, WON

from spec.constraints import parse_where
from spec.dsl import (
    CallRule,
    PartnerAccepts,
    Rule,
    ScoreRule,
    Seats,
    bid,
    call,
    const,
    declarer,
    if_then_else,
    seat,
    standing,
)
from spec.engine import (
    PASS,
    Call,
    Phase,
    View,
    apply,
    legal_actions,
    new_deal,
    play_deal,
)
from spec.engine._playout import pick
from spec.errors import IllegalActionError, SpecDefinitionError
from spec.records import replay, to_record
from verifier._z3.solver import DEFAULT_RLIMIT
from verifier.properties import Verdict, check_game
from verifier.scenario import scenarios_where, unsupported

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "docs" / "_ext"))
from rulebook._expr import render  # the documentation back end, in docs/_ext

SEEDS = range(400)
BIDS = {b.label: Call(b) for b in GAME.ladder}


def _asking_bot(view: View, rng: random.Random):  # type: ignore[no-untyped-def]
    """Bid ask (or accept one) more often than not, otherwise mostly pass: so that asks,
    acceptances and overcalls of an accepted ask all turn up; cards at random."""
    actions = view.legal_actions()
    if BIDS["ask"] in actions and rng.random() < 0.6:
        return BIDS["ask"]
    if PASS in actions and rng.random() < 0.7:
        return PASS
    return actions[pick(rng, len(actions))]


def _played() -> list:  # type: ignore[type-arg]
    deals = (play_deal(GAME, seed=k, bots=[_asking_bot] * PLAYERS) for k in SEEDS)
    return [s for s in deals if s.contract >= 0]


PLAYED = _played()


def _with(rule_id: str, body) -> list[Rule]:  # type: ignore[no-untyped-def]
    return [r if r.id != rule_id else Rule(id=r.id, text=r.text, source=r.source, body=body)
            for r in RULES]


def _level(s) -> int:  # type: ignore[no-untyped-def]
    return GAME.ladder[s.contract].level  # type: ignore[no-any-return]


def _bidders(s) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    """The (seat, bid number) of every bid of the deal, in order."""
    return [(k, b) for k, b in s.calls if b >= 0]


def test_the_program_has_the_acceptable_bid() -> None:
    program = GAME.program
    assert program.partner_by_call and program.acceptable == (ASK - 1,)
    assert GAME.acceptable_bids == (True, False, False)
    assert program.partner is None and not program.several_declarers
    assert program.part_of("auction.accept") == program.part_of("auction.declarer")


def test_the_deals_played_have_every_kind_of_ask() -> None:
    kinds = {(_level(s), s.partner != s.declarer) for s in PLAYED}
    assert {(ASK, True), (ASK, False), (SOLO, False), (ABONDANCE, False)} <= kinds
    # an ask accepted, then overbid: the pair loses it
    overbid = [s for s in PLAYED if [b for _k, b in _bidders(s)][:2] == [ASK - 1, ASK - 1]
               and _level(s) != ASK]
    assert len(overbid) >= 5


def test_the_accepter_is_the_partner_and_not_the_asker() -> None:
    accepted = [s for s in PLAYED if s.partner != s.declarer]
    assert len(accepted) >= 40
    for s in accepted:
        asks = [k for k, b in _bidders(s) if b == ASK - 1]
        # the asker bid first and declares; the one seat that bid ask after him partners him
        assert _level(s) == ASK and len(asks) == 2
        assert asks == [s.declarer, s.partner] and s.declaring_seats == (s.declarer,)


def test_an_ask_overbid_leaves_no_partner() -> None:
    for s in PLAYED:
        if _level(s) != ASK:
            assert s.partner == s.declarer and s.accepter == -1


def test_the_scores_of_every_deal() -> None:
    for s in PLAYED:
        won = [sum(1 for t in s.tricks if t.winner == k) for k in range(PLAYERS)]
        d, p = s.declarer, s.partner
        side = won[d] + (won[p] if p != d else 0)
        target = 9 if _level(s) == ABONDANCE else 8 if p != d else 5
        made = side >= target
        value = (8 if _level(s) == ABONDANCE
                 else (1 + abs(side - target)) * (2 if side == 13 else 1))
        v = value if made else -value
        if p == d:
            expect = [3 * v if k == d else -v for k in range(PLAYERS)]
        else:
            expect = [2 * v if k in (d, p) else -2 * v for k in range(PLAYERS)]
        assert list(s.scores) == expect and sum(s.scores) == 0


def test_an_ask_accepted_then_overbid_goes_to_the_higher_bidder() -> None:
    state = new_deal(GAME, seed=1, dealer=3)
    state = apply(state, BIDS["ask"])  # North asks
    assert state.high_bidder == 0 and state.accepter == -1
    state = apply(state, BIDS["ask"])  # East accepts
    assert state.high_bidder == 0 and state.accepter == 1 and state.standing == ASK - 1
    state = apply(state, BIDS["solo"])  # South overbids: the pair loses the ask
    assert state.high_bidder == 2 and state.accepter == -1
    state = apply(state, PASS)
    assert state.declarer == 2 and state.partner == 2


def test_an_accepted_ask_is_declared_by_the_asker_with_the_accepter() -> None:
    state = new_deal(GAME, seed=4, dealer=3)
    for c in (PASS, BIDS["ask"], PASS, BIDS["ask"]):  # East asks, West accepts
        state = apply(state, c)
    assert state.phase is Phase.PLAY
    assert state.declarer == 1 and state.partner == 3 and state.declaring_seats == (1,)


def test_an_ask_nobody_accepts_is_played_alone() -> None:
    state = new_deal(GAME, seed=5, dealer=3)
    for c in (BIDS["ask"], PASS, PASS, PASS):
        state = apply(state, c)
    assert state.declarer == 0 and state.partner == 0


def test_a_second_acceptance_is_refused_and_the_state_is_kept() -> None:
    state = apply(apply(new_deal(GAME, seed=2, dealer=3), BIDS["ask"]), BIDS["ask"])
    assert BIDS["ask"] not in legal_actions(state)
    before = (state.calls, state.standing, state.high_bidder, state.accepter, state.log)
    with pytest.raises(IllegalActionError) as err:
        apply(state, BIDS["ask"])
    assert err.value.rule == "auction.overcall"
    assert (state.calls, state.standing, state.high_bidder, state.accepter, state.log) == before


def test_a_solo_cannot_be_accepted_and_the_state_is_kept() -> None:
    state = apply(new_deal(GAME, seed=3, dealer=3), BIDS["solo"])
    before = (state.calls, state.standing, state.high_bidder, state.accepter, state.log)
    with pytest.raises(IllegalActionError) as err:
        apply(state, BIDS["solo"])
    assert err.value.rule == "auction.overcall"
    assert (state.calls, state.standing, state.high_bidder, state.accepter, state.log) == before


def test_the_engine_never_lets_a_bidder_accept_his_own_bid() -> None:
    # with rules that allow any repeat of the standing bid, the asker bidding ask again
    # is a new highest bid of his, not an acceptance
    loose = GAME.with_rules(_with("auction.overcall", CallRule(
        applies=call.is_bid & standing.exists, requires=call.bid.key >= standing.bid.key)))
    state = new_deal(loose, seed=6, dealer=3)
    state = apply(apply(state, BIDS["ask"]), BIDS["ask"])  # North asks, East accepts
    state = apply(state, BIDS["ask"])  # South repeats it: the ask is South's, unaccepted
    assert state.high_bidder == 2 and state.accepter == -1


@pytest.mark.parametrize("seed", SEEDS[:80])
def test_records_replay_with_the_partner(seed: int) -> None:
    state = play_deal(GAME, seed=seed, bots=[_asking_bot] * PLAYERS)
    record = to_record(state)
    if state.contract >= 0:
        assert record["contract"]["partner"] == (None if state.partner == state.declarer
                                                 else GAME.table.name(state.partner))
        assert "declarers" not in record["contract"]
    assert replay(record, GAME).ok


def test_a_record_with_another_partner_is_refused() -> None:
    state = next(s for s in PLAYED if s.partner != s.declarer)
    record = to_record(state)
    record["contract"]["partner"] = None
    report = replay(record, GAME)
    assert not report.ok and report.message.startswith("contract")


def test_the_ask_game_is_proved() -> None:
    results = check_game(GAME)
    assert {r.id: r.verdict for r in results} == {r.id: Verdict.HOLDS for r in results}, [
        (r.id, r.verdict, r.detail) for r in results if r.verdict is not Verdict.HOLDS]
    assert {"score.zero_sum", "auction.one_accepter", "sides.pair_against_two",
            "sides.unaccepted_ask_alone", "auction.standing_bid_increases"} <= {
        r.id for r in results}


def test_scoring_that_forgets_the_accepter_is_caught() -> None:
    # the accepter paid as one of the seats against the asker: Z3 finds an outcome whose
    # scores do not add up, and the engine replays it
    wrong = GAME.with_rules(_with("score.settle", ScoreRule(when=const(True), amount=if_then_else(
        seat == declarer, if_then_else(ALONE, 3, 2) * WON, -if_then_else(ALONE, 1, 2) * WON))))
    (result,) = check_game(wrong, only=("score.zero_sum",))
    assert result.verdict is Verdict.VIOLATED and result.playthrough.replayed
    assert "partnered by" in "\n".join(result.playthrough.lines)
    (result,) = check_game(wrong, only=("sides.pair_against_two",))
    assert result.verdict is Verdict.VIOLATED and result.playthrough.replayed


def test_a_partner_by_a_call_needs_sides_by_contract() -> None:
    fixed = _with("setup.seats", Seats(("North", "East", "South", "West"),
                                       partnerships=((0, 2), (1, 3))))
    with pytest.raises(SpecDefinitionError, match="auction.accept.*contract decides"):
        GAME.with_rules(fixed)


def test_an_accept_rule_needs_a_condition() -> None:
    with pytest.raises(SpecDefinitionError, match=r"auction.accept \(test_accept.py:\d+\): "
                                                  "bids= must be a bool"):
        GAME.with_rules(_with("auction.accept", PartnerAccepts(bids=bid.level)))


def test_an_accept_rule_that_accepts_nothing_is_refused() -> None:
    with pytest.raises(SpecDefinitionError, match="auction.accept.*no bid of the ladder can be "
                                                  "accepted"):
        GAME.with_rules(_with("auction.accept", PartnerAccepts(bids=bid.level > ABONDANCE)))


def test_an_accept_rule_is_stated_once() -> None:
    extra = Rule(id="auction.accept_solo", text="A solo may be accepted.",
                 source=RULES[0].source, body=PartnerAccepts(bids=bid.level == SOLO))
    with pytest.raises(SpecDefinitionError, match="PartnerAccepts"):
        GAME.with_rules([*RULES, extra])


def test_the_rulebook_renders_the_new_values() -> None:
    assert render(call.accepts) == "call.accepts"
    assert render(standing.accepted) == "standing.accepted"


@pytest.mark.slow  # ~30 s on a quiet box
def test_a_scenario_finds_a_bid_accepted_and_the_engine_replays_it() -> None:
    # Z3 picks an auction where a second seat accepts the standing bid; the engine makes
    # the same calls and pairs the same two seats
    assert unsupported(GAME) == ""
    result = scenarios_where(GAME, parse_where(GAME, "declarer != partner"), seed=1,
                             rlimit=DEFAULT_RLIMIT)
    assert result.status == "found", result.reason
    state = result.states[0]
    assert state.is_over and state.accepter == state.partner != state.declarer
    assert sum(1 for seat, bid in state.calls if bid == state.contract) == 2


def test_the_rulebook_overview_names_the_acceptance() -> None:
    from types import SimpleNamespace

    from rulebook._page import _format_overview

    page = SimpleNamespace(game=GAME, results=SimpleNamespace(legal_bids=()), checks=[])
    text = "\n".join(_format_overview(page))  # type: ignore[arg-type]
    assert "another seat may accept a standing ask" in text and "auction.accept" in text
