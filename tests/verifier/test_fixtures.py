"""Rule-coverage fixtures: every rule of Crescendo that a deal can show has one, and each
replays through the engine with the rule firing where the fixture says."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec.games.crescendo import GAME
from spec.games.three_oh_four import GAME as G304
from spec.records import replay
from verifier.cli import main
from verifier.fixtures import fixtures_for

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "fixture.schema.json").read_text())


@pytest.fixture(scope="module")
def crescendo_fixtures():  # type: ignore[no-untyped-def]
    return fixtures_for(GAME, seed=0)


def _valid(data: object, schema: dict) -> None:  # type: ignore[type-arg]
    """The parts of JSON Schema the fixture schema uses: required keys, consts, types."""
    if "$ref" in schema:
        _valid(data, SCHEMA["$defs"][schema["$ref"].split("/")[-1]])
        return
    if "const" in schema:
        assert data == schema["const"]
    if "enum" in schema:
        assert data in schema["enum"]
    kinds = schema.get("type")
    if kinds:
        names = {"object": dict, "array": list, "string": str, "integer": int, "boolean": bool,
                 "null": type(None)}
        allowed = tuple(names[k] for k in ([kinds] if isinstance(kinds, str) else kinds))
        assert isinstance(data, allowed), (data, kinds)
    if isinstance(data, dict):
        for key in schema.get("required", ()):
            assert key in data, key
        if schema.get("additionalProperties") is False:
            assert set(data) <= set(schema.get("properties", {})), set(data)
        for key, sub in schema.get("properties", {}).items():
            if key in data:
                _valid(data[key], sub)
    if isinstance(data, list) and "items" in schema:
        for item in data:
            _valid(item, schema["items"])


def test_every_rule_that_can_fire_has_a_fixture(crescendo_fixtures) -> None:  # type: ignore[no-untyped-def]
    fixtures, cov = crescendo_fixtures
    assert len(cov.covered) + len(cov.without) == len(GAME.rules)
    reasons = {why.split(":")[0].split(",")[0] for _rid, why in cov.without}
    assert reasons <= {"equipment", "a consequence of other rules"}, cov.summary()
    for must in ("play.follow_suit", "play.joker_led", "play.joker_following", "score.exact",
                 "score.over", "score.under", "auction.overcall", "auction.makeable_bids",
                 "play.trumps_win", "auction.all_pass"):
        assert must in cov.covered


def test_fixtures_follow_the_schema_and_replay(crescendo_fixtures) -> None:  # type: ignore[no-untyped-def]
    fixtures, _cov = crescendo_fixtures
    for f in fixtures:
        data = json.loads(json.dumps(f))
        _valid(data, SCHEMA)
        assert replay(data["record"]).ok, f["rule"]
        if f["fires"]["when"] not in ("every deal",):
            assert f["fires"]["at"], f["rule"]


def test_the_follow_suit_fixture_shows_a_seat_made_to_follow(crescendo_fixtures) -> None:  # type: ignore[no-untyped-def]
    fixtures, _cov = crescendo_fixtures
    f = next(x for x in fixtures if x["rule"] == "play.follow_suit")
    assert f["fires"]["when"] == "a card about to be played"
    assert f["fires"]["at"][0].startswith("trick ")


def test_games_not_yet_unrolled_name_the_rules_without(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fixtures", "304", "--out", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert out.startswith("304: ") and "not supported for 304 yet" in out
    assert (tmp_path / "auction.trump_maker.json").exists()
    _fx, cov = fixtures_for(G304)
    assert "pcc.partner_out" in dict(cov.without)
