"""A property checked along unrolled auctions covers their whole proved length, or says
UNKNOWN with the bound it reached; an auction that cannot go on is a violation, never a
dropped case; and a verdict does not depend on what was checked before it."""
from __future__ import annotations

import dataclasses
import json

import pytest

from spec.dsl import CallRule, Property, Scope, call, calls_made, contract, declarer, score_of
from spec.dsl import seat_passed
from spec.engine import play_deal
from spec.errors import NoLegalActionError
from spec.games import crescendo as C
from spec.games import preference as P
from verifier.cli import main
from verifier.properties import Options, Verdict, check_game, checks_for, run_check

# Préférence with its pass-is-final rule made wrong: a seat that has passed has no legal
# call at all from the 10th call of the auction on (the auction is proved to last up to
# 13 calls, so the fault lies past the 8 calls the check once looked at)
STUCK = P.GAME.with_rules([
    dataclasses.replace(P.PASS_FINAL, body=CallRule(
        applies=seat_passed, requires=~call.is_bid & (calls_made < 9))) if r.id == P.PASS_FINAL.id
    else r for r in P.GAME.rules])
IDS = ("auction.legal_call_exists", "auction.ends")


def test_the_stuck_auction_exists_in_the_engine() -> None:
    stuck = 0
    for seed in range(300):
        try:
            play_deal(STUCK, seed=seed)
        except NoLegalActionError:
            stuck += 1
    assert stuck >= 1


@pytest.mark.parametrize("pid", IDS)
def test_an_auction_that_cannot_go_on_is_a_violation_replayed(pid: str) -> None:
    (r,) = check_game(STUCK, only=(pid,))
    assert r.verdict is Verdict.VIOLATED, (r.verdict, r.detail)
    assert r.playthrough is not None and r.playthrough.replayed
    assert "call 10 has no legal choice" in r.playthrough.lines[-1]
    assert "the engine agrees" in r.playthrough.lines[-1]


def test_the_right_rule_holds_for_every_call() -> None:
    results = check_game(P.GAME, only=IDS)
    assert [r.verdict for r in results] == [Verdict.HOLDS] * 2
    by = {r.id: r.detail for r in results}
    assert "at most 13 calls" in by["auction.ends"]


def test_below_the_proved_length_the_answer_is_unknown_never_holds() -> None:
    """Unrolled only 6 calls deep, the stuck 10th call is out of sight: no verdict."""
    (check,) = [c for c in checks_for(STUCK) if c.id == "auction.legal_call_exists"]
    r = run_check(STUCK, check, Options(bound=6))
    assert r.verdict is Verdict.UNKNOWN
    assert "checked the first 6 calls" in r.detail and "--bound" in r.detail


def test_a_case_written_as_not_or_needs_a_witness() -> None:
    """'The case does not arise, or it holds' is an implication: a case that can never
    arise makes the property vacuous, as an implication's premise does."""
    never = Property(id="score.thirty_or", text="A bid of 30 scores 30.", scope=Scope.OUTCOME,
                     holds=~(contract.level == 30) | (score_of(declarer) == 30))
    game = C.GAME.with_rules(C.GAME.rules, properties=(never,))
    (r,) = check_game(game, only=(never.id,))
    assert r.verdict is Verdict.VACUOUS and "never occurs" in r.detail


@pytest.mark.slow  # every property of a game twice: 20 s
def test_each_property_alone_or_after_the_others_gives_the_same_verdict() -> None:
    game = P.GAME
    checks = checks_for(game)
    after = {r.id: (r.verdict, r.detail) for r in check_game(game)}
    for c in reversed(checks[-6:]):
        r = run_check(game, c)
        assert (r.verdict, r.detail) == after[c.id]


@pytest.mark.slow  # a game checked twice, in one process and two
def test_check_json_is_the_same_bytes_with_one_or_two_processes(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["check", "crescendo", "--json"]
    assert main([*args, "-j", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*args, "-j", "2"]) == 0
    two = capsys.readouterr().out
    assert one == two
    assert "seconds" not in json.loads(one)["games"]["crescendo"][0]


def test_no_deal_within_fewer_calls_than_an_auction_may_take_is_not_impossible() -> None:
    """A scenario Z3 finds no deal for is impossible only when its auctions were unrolled
    as long as any can be (Crescendo's: 3 calls); looked for within 2, it is unknown."""
    from spec.constraints import parse_where
    from verifier.scenario import scenarios_where

    cond = parse_where(C.GAME, "lead(1) == JK and lead(2) == JK")
    assert scenarios_where(C.GAME, cond).status == "impossible"
    short = scenarios_where(C.GAME, cond, max_calls=2)
    assert short.status == "unknown"
    assert "at most 2 calls" in short.reason and "may take 3 calls" in short.reason
