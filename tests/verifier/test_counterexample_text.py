"""Every counterexample ``trickspec check`` prints is in card notation, seats by name: no
name of a variable of the solver's model, no line ``name = value``, no seat by number.

The properties a variant breaks are few and quick, and checked here by default; every
variant of every game, and the mutants ``trickspec mutate`` makes, are swept in the slow
tests.
"""
from __future__ import annotations

import json
import re

import pytest

from spec.registry import GAMES
from verifier import cli, trace
from verifier.mutate import mutants
from verifier.properties import Options, Result, Verdict, checks_for, run_check, variant_checks

RAW = (
    re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),  # a variable's name: call_bid, tv_spoilt
    re.compile(r"^\s*\w+ = ", re.M),  # a line of a model: call_seat = 0
    re.compile(r"\b(?:seat|dealer|declarer|leader|high)\b:? \d\b", re.I),  # a seat by number
)


def raw_parts(text: str) -> list[str]:
    """What in ``text`` is the solver's rather than the game's."""
    return [m.group(0) for r in RAW for m in r.finditer(text)]


# (game, variant, property): every property a variant of a registered game breaks
BROKEN_BY_VARIANTS = (
    ("304", "literal_first_lead", "play.legal_card_exists"),
    ("crescendo", "allow_unmakeable_bids", "auction.every_level_to_28"),
    ("vint", "self_overcall", "auction.no_two_bids_running"),
)


def _printed_counterexample(out: str) -> str:
    """The counterexample block of ``trickspec check``'s output."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("counterexample"))
    block = []
    for line in lines[start + 1:]:
        if not line.startswith(" " * 8):
            break
        block.append(line)
    return "\n".join(block)


@pytest.mark.parametrize(("key", "variant", "pid"), BROKEN_BY_VARIANTS)
def test_a_counterexample_under_a_variant_is_in_card_notation(
        capsys: pytest.CaptureFixture[str], key: str, variant: str, pid: str) -> None:
    code = cli.main(["check", key, "--variant", variant, "--property", pid])
    out = capsys.readouterr().out
    assert code == 1 and "VIOLATED" in out
    text = _printed_counterexample(out)
    assert text and not raw_parts(text), text
    names = GAMES[key].table.names
    assert any(name in text for name in names), text
    # the JSON's text is the same words; its data stays as the verifier decoded it
    assert cli.main(["check", key, "--variant", variant, "--property", pid, "--json"]) == 1
    (r,) = json.loads(capsys.readouterr().out)["games"][key]
    assert "\n".join(r["counterexample"]["text"]) == "\n".join(
        line.removeprefix(" " * 8) for line in text.splitlines())
    assert r["counterexample"]["data"]


def test_a_call_is_told_as_a_sentence_with_the_bid_as_the_game_names_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "crescendo", "--variant", "allow_unmakeable_bids",
                     "--property", "auction.every_level_to_28"]) == 1
    text = _printed_counterexample(capsys.readouterr().out)
    first = text.splitlines()[0].strip()
    # a bid above 28 points, by a seat named, the dealer named
    bid = re.search(r"bids (\d+)(♣|♦|♥|♠|NT)", first)
    assert bid and int(bid.group(1)) > 28, first
    assert re.match(r"(Forehand|Middlehand|Rearhand) \(dealer: (Forehand|Middlehand|Rearhand)\)",
                    first), first
    assert "the call rules allow this call" in text


def test_a_standing_bid_and_its_bidder_are_named() -> None:
    game = GAMES["vint"].with_variants("self_overcall")
    (check,) = [c for c in checks_for(game) if c.id == "auction.no_two_bids_running"]
    r = run_check(game, check, Options())
    assert r.verdict is Verdict.VIOLATED and r.playthrough is not None
    first = r.playthrough.lines[0]
    assert re.search(r"over \S+ bid by (North|East|South|West)", first), first


def test_tracked_values_are_in_words() -> None:
    game = GAMES["304"]
    text = trace.tracked_text(game, {"trump_open": True, "caps_by": 2, "caps_trick": 5})
    assert text == "trump open: yes; caps by: South; caps trick: 5"
    assert trace.tracked_text(GAMES["preference"], {"trumps_named": 1}) == "trumps named: ♦"
    assert trace.tracked_text(GAMES["preference"], {"trumps_named": 4}) == "trumps named: none"


def test_a_match_state_is_told_in_words() -> None:
    pt = trace.match_moment(GAMES["vint"], {"deals_played": 3, "lead_total": 120,
                                            "trail_total": 80, "games_won": 1}, True)
    assert pt.lines == ["after 3 deals of the match: the leading total 120, the trailing total "
                        "80; the side that won a game has won 1 (the engine judges it the same)"]
    assert pt.data["lead_total"] == 120 and pt.replayed


# -- mutants whose counterexamples are of the other kinds, quick to find ------------------

# (game, mutant id, property): quick kills whose counterexamples are of other kinds than
# the variants': a moment of an auction with a hand and tracked values, a deal dealt, a
# position of the play with tracked values
MUTANT_KILLS = (
    ("304", "deal.low_points_redeal#6", "deal.redeal_demand_seen"),
    ("304", "deal.second_batch#4", "deal.dealing_seen"),
    ("304", "deal.low_points_redeal_same_dealer#1", "deal.void_seen"),
)


def _mutant(key: str, mutant_id: str):  # type: ignore[no-untyped-def]
    (m,) = [m for m in mutants(GAMES[key]) if m.id == mutant_id]
    return m


def _violated_texts(results: list[Result]) -> list[tuple[str, str]]:
    return [(r.id, str(r.playthrough)) for r in results
            if r.verdict is Verdict.VIOLATED and r.playthrough is not None]


@pytest.mark.parametrize(("key", "mutant_id", "pid"), MUTANT_KILLS)
def test_a_mutants_counterexample_is_in_card_notation(key: str, mutant_id: str, pid: str) -> None:
    game = _mutant(key, mutant_id).build()
    (check,) = [c for c in checks_for(game) if c.id == pid]
    r = run_check(game, check, Options())
    assert r.verdict is Verdict.VIOLATED and r.playthrough is not None
    assert not raw_parts(str(r.playthrough)), str(r.playthrough)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_variant_breaks_only_into_card_notation(key: str) -> None:
    """Every variant of the game, with the checks it can change: each counterexample is
    in card notation, and the properties broken are those listed above."""
    game = GAMES[key]
    broken = set()
    for v in game.variants:
        if v.not_decidable:
            continue
        played, checks = variant_checks(game, v.id)
        for check in checks:
            r = run_check(played, check, Options())
            for pid, text in _violated_texts([r]):
                assert not raw_parts(text), (v.id, pid, text)
                broken.add((key, v.id, pid))
    assert broken == {b for b in BROKEN_BY_VARIANTS if b[0] == key}


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_mutants_break_only_into_card_notation(key: str) -> None:
    """Each mutant of the game that builds, with the checks that cover the rules it
    touches (a small budget each, at most four minutes a game): each counterexample is
    in card notation."""
    import time

    start = time.perf_counter()
    opts = Options(timeout=10.0, rlimit=5_000_000)
    for m in mutants(GAMES[key]):
        if time.perf_counter() - start > 240:
            break
        try:
            game = m.build()
        except Exception:  # noqa: BLE001  # a mutant the build refuses shows nothing
            continue
        touched = set(m.rules or (m.rule_id,))
        for check in checks_for(game):
            if touched & set(check.covers):
                for pid, text in _violated_texts([run_check(game, check, opts)]):
                    assert not raw_parts(text), (m.id, pid, text)
