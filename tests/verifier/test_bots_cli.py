"""Choosing the bots on the command line: ``--bots`` for play and pbn --played."""
from __future__ import annotations

import json

import pytest

from spec.engine import low_bidder, modest_bot, play_deal
from spec.records import to_record
from spec.registry import GAMES
from spec.solver import sensible_bot
from verifier import cli


def _record(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert cli.main(["play", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_without_bots_the_sensible_bots_play(capsys: pytest.CaptureFixture[str]) -> None:
    game = GAMES["crescendo"]
    want = json.loads(json.dumps(to_record(play_deal(game, seed=5, bots=[sensible_bot()] * 3))))
    assert _record(capsys, "crescendo", "--seed", "5") == want
    assert _record(capsys, "crescendo", "--seed", "5", "--bots", "sensible") == want
    assert _record(capsys, "crescendo", "--seed", "5", "--bots", "random") != want


def test_random_bots_play_the_deal_the_engine_plays_by_default(
        capsys: pytest.CaptureFixture[str]) -> None:
    game = GAMES["crescendo"]
    want = json.loads(json.dumps(to_record(play_deal(game, seed=5))))
    assert _record(capsys, "crescendo", "--seed", "5", "--bots", "random") == want


def test_modest_bots_play_the_deal_the_engine_plays_with_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    game = GAMES["crescendo"]
    want = json.loads(json.dumps(to_record(play_deal(game, seed=5, bots=[modest_bot] * 3))))
    assert _record(capsys, "crescendo", "--seed", "5", "--bots", "modest") == want
    # one per seat, in seat order
    assert _record(capsys, "crescendo", "--seed", "5", "--bots", "modest,modest,modest") == want


def test_cautious_bots_play_the_deal_the_engine_plays_with_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    game = GAMES["vint"]
    want = json.loads(json.dumps(to_record(play_deal(game, seed=3, bots=[low_bidder(7 / 8)] * 4))))
    assert _record(capsys, "vint", "--seed", "3", "--bots", "cautious") == want


@pytest.mark.parametrize(("bots", "says"), [
    ("foo", "no bot 'foo'"),
    ("random,random", "3 seats, and 2 bots were named"),
])
def test_bad_bots_get_one_line(capsys: pytest.CaptureFixture[str], bots: str, says: str) -> None:
    assert cli.main(["play", "crescendo", "--bots", bots]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_pbn_takes_bots_only_for_played_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["pbn", "vint", "-n", "1", "--bots", "modest"]) == 2
    assert "add --played" in capsys.readouterr().err
    assert cli.main(["pbn", "vint", "-n", "1", "--played", "--bots", "modest"]) == 0
    assert "[Deal " in capsys.readouterr().out
