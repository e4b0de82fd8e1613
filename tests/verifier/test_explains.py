"""The command line explains what it checks: ``games`` says what each variant does, and
``check --list`` names each property, its kind and the rules it covers, proving none."""
from __future__ import annotations

import json

import pytest

from spec.registry import GAMES
from verifier import cli
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
