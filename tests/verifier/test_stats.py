"""trickspec stats: the figures of many deals, the same however many processes play them,
and the differences a variant makes, each with a deal that shows it."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from spec.engine import play_deal
from spec.registry import GAMES
from verifier.stats import NO_CONTRACT, compare, play_and_summarise, summarise, tally, wilson


def _stats(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", "stats", *args],
                          capture_output=True, text=True, timeout=600)


def test_the_figures_add_up() -> None:
    game = GAMES["preference"]
    deals = play_and_summarise(game, range(80), None)
    j = tally(game, deals).to_json()
    assert j["deals"] == 80 and j["seeds"] == [0, 79]
    assert sum(c["deals"] for c in j["contracts"].values()) == 80
    played = sum(c["deals"] for k, c in j["contracts"].items() if k != NO_CONTRACT)
    assert j["made"]["of"] == played
    assert j["made"]["deals"] == sum(c.get("made", 0) for c in j["contracts"].values())
    for c in j["contracts"].values():
        assert c["ci95"][0] <= c["share"] <= c["ci95"][1]


def test_made_means_the_declarer_outscores_the_other_side() -> None:
    game = GAMES["crescendo"]
    for seed in range(30):
        state = play_deal(game, seed=seed)
        d = summarise(seed, state)
        if d.declarer >= 0 and state.scores is not None:
            others = [x for k, x in enumerate(state.scores) if k != d.declarer]
            assert d.made == all(state.scores[d.declarer] > x for x in others)


def test_the_sign_test() -> None:
    from verifier.stats import sign_test

    assert sign_test(0, 0) == 1.0
    assert sign_test(4, 0) == 0.125  # four deals changed one way of 1,000: not a difference
    assert sign_test(6, 0) < 0.05 and abs(sign_test(3, 3) - 1.0) < 1e-12


def test_wilson_interval() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28
    assert wilson(5, 10)[0] < 0.5 < wilson(5, 10)[1]


def test_the_same_seeds_give_the_same_figures_in_two_processes() -> None:
    one = _stats("preference", "--deals", "120", "--json")
    two = _stats("preference", "--deals", "120", "--json", "-j", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout


def test_a_variant_that_changes_nothing_shows_no_difference() -> None:
    game = GAMES["preference"]
    deals = play_and_summarise(game, range(40), None)
    assert compare(deals, deals) == []


def test_compare_names_each_difference_with_a_deal_that_shows_it() -> None:
    done = _stats("crescendo", "--deals", "100", "--compare", "allow_unmakeable_bids", "--json",
                  "--bots", "random")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    diffs = {d["what"]: d for d in out["compare"]["differences"]}
    fires = diffs["rule auction.makeable_bids fires"]
    assert fires["first"] == 1.0 and fires["second"] == 0.0 and fires["p"] < 1e-6
    base, other = GAMES["crescendo"], GAMES["crescendo"].with_variants("allow_unmakeable_bids")
    shown = [d for d in diffs.values() if d["what"].startswith("contract ")]
    assert shown, diffs
    for d in shown:  # the witness deal is played in the contract on the side that has more
        contract, w = d["what"].removeprefix("contract "), d["witness"]
        more, less = (other, base) if d["difference"] > 0 else (base, other)
        assert str(more.ladder[play_deal(more, seed=w).contract]) == contract
        assert str(less.ladder[play_deal(less, seed=w).contract]) != contract


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_batchs_figures_are_the_engines_judgement_of_its_deals(key: str) -> None:
    # each deal of the batch summarised from its columns, where each rule fires judged as
    # the lanes play, is what the engine's judge says of the same deal's state
    from spec.batch import play_batch
    from spec.engine import engine_for
    from verifier.fixtures import rules_firing
    from verifier.stats import batch_and_summarise
    game = GAMES[key]
    numbers = range(500, 500 + (100 if key in ("crescendo", "wiezen") else 300))
    ours = batch_and_summarise(game, numbers)
    judge = rules_firing(game)
    states = play_batch(engine_for(game), numbers, compiled=False).states()
    assert ours == [summarise(n, s, judge(s)) for n, s in zip(numbers, states)]
    assert sum(len(d.fired) for d in ours) > len(ours)  # rules fire: the judge has work


def test_the_batch_gives_the_same_figures_in_two_processes_and_its_witnesses_replay() -> None:
    from spec.records import replay_record
    args = ("vint", "--batch", "--deals", "4200", "--json", "--compare", "self_overcall")
    one, two = _stats(*args), _stats(*args, "-j", "2")  # two ranges of deals
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    out = json.loads(one.stdout)
    assert out["batch"] and out["bots"] == ["random"] and out["deals"] == 4200
    witnessed = [d for d in out["compare"]["differences"] if d["witness"] is not None]
    assert witnessed
    for d in witnessed[:2]:
        assert [r["seed"] for r in d["witness_records"]] == [d["witness"]] * 2
        assert all(replay_record(r).ok for r in d["witness_records"])


def test_bad_input_is_one_line() -> None:
    for args, message in [
        (("crescendo", "--deals", "0"), "the number of deals is at least 1"),
        (("crescendo", "--compare", "nothing_of_the_kind"), "unknown variant"),
        (("crescendo", "--variant", "allow_unmakeable_bids", "--compare", "allow_unmakeable_bids"),
         "already in force"),
        (("crescendo", "--bots", "random,random"), "one bot for every seat or one per seat"),
        (("crescendo", "-j", "2", "--cluster", "local"), "-j and --cluster"),
        (("crescendo", "--cluster", "somewhere"), "--cluster is 'local' or a scheduler's address"),
        (("vint", "--batch", "--bots", "sensible"), "--batch plays random choices"),
        (("304", "--batch", "--variant", "caps_when_certain"),
         "does not play 304+caps_when_certain: a rule asks what a seat can be sure of"),
    ]:
        done = _stats(*args)
        assert done.returncode == 2 and done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr, done.stderr
