"""Mutation testing of the rules: the mutants of every game, the screen, the checks, the CLI."""
from __future__ import annotations

import json

import pytest

from spec.registry import GAMES
from verifier import cli
from verifier.mutate import Operator, Outcome, check_mutant, mutants, mutate, screen

CRESCENDO = GAMES["crescendo"]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_has_mutants_of_every_kind_with_stable_ids(key: str) -> None:
    game = GAMES[key]
    ms = mutants(game)
    ids = [m.id for m in ms]
    assert len(ids) == len(set(ids))
    assert ids == [m.id for m in mutants(game)]  # a fixed order
    rules = {r.id for r in game.rules}
    for m in ms:
        assert m.rule_id in rules or m.operator is Operator.VARIANT, m.id
        assert "spec/games/" in m.description or m.operator is Operator.VARIANT, m
    kinds = {m.operator for m in ms}
    assert {Operator.CONSTANT, Operator.COMPARISON, Operator.NEGATION, Operator.RULE_DROPPED,
            Operator.RANK_ORDER} <= kinds
    if game.variants:
        assert Operator.VARIANT in kinds


def _one(game_key: str, mutant_id: str):  # type: ignore[no-untyped-def]
    (m,) = [m for m in mutants(GAMES[game_key]) if m.id == mutant_id]
    return m


def test_a_rank_order_mutant_plays_differently_and_a_property_kills_it() -> None:
    m = _one("crescendo", "deck.rank_order#1")
    built = m.build()
    seen = screen(CRESCENDO, built, seeds=30, matches=0)
    assert not seen.equivalent and seen.difference and not seen.engine_error
    got = check_mutant(built, m.rules)
    assert got.killed_by, got


def test_a_game_that_plays_alike_is_screened_as_probably_equivalent() -> None:
    # without a claim, a consequence the rules state, every deal and match plays alike
    alike = CRESCENDO.with_rules(tuple(r for r in CRESCENDO.rules
                                       if r.id != "score.strain_irrelevant"))
    assert screen(CRESCENDO, alike, seeds=30, matches=2).equivalent


def test_dropping_the_rule_that_keeps_the_tricks_by_number_is_killed_by_the_build() -> None:
    # Crescendo values each trick by its number, which needs the tricks kept by number
    report = mutate(CRESCENDO, jobs=1, only=["play.record_tricks"], seeds=5, matches=0)
    assert [r.outcome for r in report.results] == [Outcome.BUILD]


def test_a_mutant_the_build_refuses_is_killed_by_the_build() -> None:
    report = mutate(CRESCENDO, jobs=1, only=["deck.cards"], seeds=5, matches=0)
    (r,) = report.results
    assert r.outcome is Outcome.BUILD and r.killed
    assert report.rate == 1.0


def test_a_mutant_judged_to_the_end_in_a_worker_is_killed_and_let_go() -> None:
    # the path every mutant that plays differently takes: screened, checked, then its
    # compiled engine dropped so that a worker does not keep one per mutant
    report = mutate(CRESCENDO, jobs=1, only=["deck.rank_order"], limit=1, seeds=10, matches=0)
    (r,) = report.results
    assert not r.findings, r.findings
    assert r.outcome in (Outcome.KILLED, Outcome.EQUIVALENT, Outcome.SURVIVED), r


def test_the_cli_lists_mutants_and_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["mutate", "crescendo", "--list"]) == cli.EXIT_OK
    out = capsys.readouterr().out
    assert "deck.rank_order#1" in out and len(out.splitlines()) == len(mutants(CRESCENDO))
    assert cli.main(["mutate", "crescendo", "--rule", "deck.rank_ordr"]) == cli.EXIT_ERROR
    assert "did you mean 'deck.rank_order'?" in capsys.readouterr().err
    assert cli.main(["mutate", "crescendo", "--jobs", "0"]) == cli.EXIT_ERROR
    assert cli.main(["mutate", "nosuchgame"]) == cli.EXIT_ERROR


def test_the_cli_lists_the_mutants_of_the_rules_asked_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["mutate", "crescendo", "--list", "--rule", "play.follow_suit"]) == cli.EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.startswith("play.follow_suit") for line in lines)
    assert cli.main(["mutate", "crescendo", "--list"]) == cli.EXIT_OK
    assert len(capsys.readouterr().out.splitlines()) > len(lines)


def test_the_cli_list_refuses_an_unknown_rule(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["mutate", "crescendo", "--list", "--rule", "play.folow_suit"]
    assert cli.main(args) == cli.EXIT_ERROR
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("trickspec: error: Crescendo has no rule 'play.folow_suit'; did you mean "
                   "'play.follow_suit'?\n")


@pytest.mark.slow  # a game's mutants judged through the CLI: 9 s
def test_the_cli_report_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["mutate", "crescendo", "--rule", "deck.cards", "--seeds", "5",
                     "--matches", "0", "--jobs", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "crescendo" and data["summary"]["rate"] == 1.0
    assert code == cli.EXIT_OK


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(GAMES))
def test_check_kills_most_mutants(key: str) -> None:
    report = mutate(GAMES[key], jobs=2)
    assert report.rate is not None and report.rate >= 0.9, report.render()


def test_dropping_a_rule_a_variant_replaces_keeps_the_game_buildable() -> None:
    """The variant that replaced it, and the properties stated under that variant, go
    with it: bookkeeping is not what kills a mutant."""
    m = _one("crescendo", "auction.makeable_bids#drop")
    built = m.build()
    assert "allow_unmakeable_bids" not in {v.id for v in built.variants}
    assert "score.unmakeable_bid_loses" not in {p.id for p in built.properties}


def test_a_default_written_as_its_variant_is_caught_by_a_fact_of_the_default() -> None:
    m = _one("crescendo", "variant:joker_names_plain_suit")
    built = m.build()
    assert built.active_variants == ()  # the default, transcribed wrongly
    assert "play.joker_named_trump_tricks" in {p.id for p in built.properties}
    assert check_mutant(built, m.rules).killed_by == "play.joker_named_trump_tricks"


def test_rules_that_leave_no_legal_card_stop_the_engine_with_one_clear_line() -> None:
    m = _one("crescendo", "play.follow_suit#1")  # '&' for '|': some hands can play nothing
    seen = screen(CRESCENDO, m.build(), seeds=30, matches=0)
    assert "NoLegalActionError" in seen.engine_error and "no legal action in trick" in seen.engine_error
    assert check_mutant(m.build(), m.rules).killed_by  # and a property says why


def test_a_rule_that_reads_a_position_a_seat_sat_out_gets_no_card_as_in_z3() -> None:
    """304's exhausted-trumps trigger with '|' for '&' reads the fourth card of a
    three-handed Partner Close Caps trick: the engine gives it no card, of no suit, as Z3
    does, instead of failing."""
    m = _one("304", "exhausted.trigger#3")
    seen = screen(GAMES["304"], m.build(), seeds=200, matches=0)
    assert not seen.engine_error, seen.engine_error
