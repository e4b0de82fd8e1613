"""The command line explains what it checks: ``games`` says what each variant does, and
``check --list`` names each property, its kind and the rules it covers, proving none."""
from __future__ import annotations

import json

import pytest

from spec.registry import GAMES
from verifier import cli
from verifier.fixtures import SHIPPED
from verifier.properties import checks_for


def test_games_says_what_each_variant_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    for game in GAMES.values():
        for v in game.variants:
            line = next(ln for ln in out.splitlines() if ln.split()[:1] == [v.id])
            assert v.summary in line and v.summary and v.text.startswith(v.summary[:-1])
            assert ("not playable yet" in line) == bool(v.not_decidable)
    assert cli.main(["games", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    wiezen = next(r for r in rows if r["game"] == "wiezen")
    assert wiezen["variant_summaries"]["shuffled"].startswith("The pack is shuffled")
    assert wiezen["variants_not_playable"] == ["solo_after_an_overcall"]


def test_check_list_names_every_property_and_proves_none(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import verifier.commands.check as check

    monkeypatch.setattr(check, "check_game", None)  # proving anything would fail
    assert cli.main(["check", "vint", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["games"]["vint"]
    want = checks_for(GAMES["vint"])
    assert [r["id"] for r in listed] == [c.id for c in want]
    assert all(r["kind"] in ("generic", "rule", "property", "fact") for r in listed)
    assert cli.main(["check", "304", "--variant", "tokens", "--list",
                     "--property", "deal.partitions_deck"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "304 with tokens: 1 property"
    assert out[1].split()[:2] == ["deal.partitions_deck", "generic"]
    assert out[2].split()[0] == "covers:"
    assert cli.main(["check", "vint", "--list", "--property", "nosuch"]) == 2


def test_rules_lists_every_rule_in_force(capsys: pytest.CaptureFixture[str]) -> None:
    game = GAMES["vint"]
    assert cli.main(["rules", "vint"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split()[0] for ln in lines] == [r.id for r in game.rules]
    assert cli.main(["rules", "304", "--variant", "caps_when_certain", "--json"]) == 0
    ids = [r["id"] for r in json.loads(capsys.readouterr().out)["rules"]]
    assert "caps.due" in ids and "caps.due" not in [r.id for r in GAMES["304"].rules]


def test_a_rule_shown_whole_names_its_variants_properties_and_fixture(
        capsys: pytest.CaptureFixture[str]) -> None:
    game = GAMES["304"]
    assert cli.main(["rules", "304", "caps.claim", "--json"]) == 0
    (rule,) = json.loads(capsys.readouterr().out)["rules"]
    assert rule["source"]["ref"] == "304-CAPS-2" and rule["source"]["also"] == ["304-CAPS-6"]
    assert rule["replaced_by_variants"] == ["caps_when_certain"]
    assert [c["id"] for c in rule["covered_by"]] == [
        c.id for c in checks_for(game) if "caps.claim" in c.covers]
    assert rule["fixture"] == str(SHIPPED / "304" / "caps.claim.json")  # the shipped one
    # a digest id: every rule that carries it
    assert cli.main(["rules", "304", "304-CAPS-2"]) == 0
    out = capsys.readouterr().out
    carrying = [r.id for r in game.rule_by_ref("304-CAPS-2")]
    assert len(carrying) > 1 and all(f"\n{rid}\n" in f"\n{out}" for rid in carrying)


@pytest.mark.parametrize(("args", "says"), [
    (["rules", "304", "caps.clam"], "did you mean caps.claim"),
    (["rules", "304", "caps.due"], "the variant caps_when_certain adds; add --variant"),
    (["rules", "nosuch"], "nosuch"),
    (["rules", "vint", "--variant", "nosuch"], "nosuch"),
    (["rules", "vint", "play.follow_suit", "--fixtures", "/no/such/folder"], "no such folder"),
])
def test_rules_refuses_what_it_does_not_know_in_one_line(
        capsys: pytest.CaptureFixture[str], args: list[str], says: str) -> None:
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_rule_a_variant_states_is_shown_as_that_variants(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "304", "caps.claim", "--variant", "caps_when_certain",
                     "--json"]) == 0
    (rule,) = json.loads(capsys.readouterr().out)["rules"]
    assert rule["stated_by_variants"] == ["caps_when_certain"]
    assert rule["replaced_by_variants"] == []
    assert rule["fixture"] is None  # the fixture in the folder is the game's own rule's


def test_every_argument_of_every_command_has_help() -> None:
    import argparse

    from verifier.cli import build_parser

    missing = []

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*path, name))
            elif not action.help or action.help == argparse.SUPPRESS:
                missing.append((path, action.option_strings or action.dest))

    walk(build_parser(), ())
    assert not missing


def test_the_top_help_gives_examples_and_exit_codes() -> None:
    from verifier.cli import build_parser

    text = build_parser().format_help()
    assert text.index("examples:") < text.index("exit codes:")
    assert "trickspec COMMAND --help" in text
