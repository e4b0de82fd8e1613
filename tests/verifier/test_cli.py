"""The trickspec command as a user meets it: outputs, records and exit codes."""
from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import pytest

from verifier import cli


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True)


# slow: every property of every game in two processes (95 s); the default suite's site build
# checks every game too, and its test reads that every property holds
@pytest.mark.slow
def test_check_all_games_holds() -> None:
    p = run("check", "-j", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "0 violated" in p.stdout and "HOLDS" in p.stdout


def test_check_in_two_processes_reports_its_own_time_and_the_workers() -> None:
    p = run("check", "crescendo", "-j", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    # the run's own time first (wall clock), then what the workers spent between them
    last = p.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ hold, 0 violated, 0 unknown \(\d+\.\ds; the workers spent "
                        r"\d+\.\ds\)", last), last


def test_check_in_parallel_reports_as_one_process_does() -> None:
    args = ["check", "crescendo", "--json", "--property", "play.one_winner",
            "--property", "deal.dealing_seen", "--property", "game.match_length_seen"]
    one, two = (run(*args, *j).stdout for j in ((), ("-j", "2")))
    assert one == two  # the same bytes
    assert sorted(r["id"] for r in json.loads(one)["games"]["crescendo"]) == [
        "deal.dealing_seen", "game.match_length_seen", "play.one_winner"]


def test_check_json_is_machine_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "crescendo", "--json", "--property", "play.one_winner"]) == 0
    data = json.loads(capsys.readouterr().out)
    (res,) = data["games"]["crescendo"]
    assert res["id"] == "play.one_winner" and res["verdict"] == "HOLDS" and "seconds" not in res
    assert cli.main(["check", "crescendo", "--json", "--timings", "--property",
                     "play.one_winner"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["games"]["crescendo"]
    assert res["seconds"] >= 0


def test_play_and_replay_round_trip(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "deal.json"
    assert run("play", "crescendo", "--seed", "7", "--json", "--out", str(out)).returncode == 0
    record = json.loads(out.read_text())
    assert set(record) >= {"hands", "actions", "tricks", "scores", "contract"}
    assert len(record["tricks"]) == 7 and all("winner" in t for t in record["tricks"])
    assert all("seat" in a for a in record["actions"])
    p = run("replay", str(out))
    assert p.returncode == 0 and p.stdout.startswith("confirmed")


def test_same_seed_same_deal() -> None:
    assert run("play", "crescendo", "--seed", "11").stdout == run("play", "crescendo", "--seed", "11").stdout
    assert run("play", "crescendo", "--seed", "11").stdout != run("play", "crescendo", "--seed", "12").stdout


@pytest.mark.parametrize("field,change,expect", [
    ("winner", lambda r: r["tricks"][2].update(winner=_other_seat(r["tricks"][2]["winner"])), "trick 3"),
    ("scores", lambda r: r["scores"].update({k: v + 1 for k, v in r["scores"].items()}), "scores"),
    ("cards", lambda r: r["actions"].__setitem__(5, dict(r["actions"][5], play="2S" if r["actions"][5]["play"] != "2S" else "3S")), "step 6"),
], ids=["winner", "scores", "card"])
def test_an_altered_record_is_rejected_at_the_first_wrong_step(tmp_path: pathlib.Path, field: str, change, expect: str) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "deal.json"
    run("play", "crescendo", "--seed", "3", "--json", "--out", str(out))
    record = json.loads(out.read_text())
    change(record)
    out.write_text(json.dumps(record))
    p = run("replay", str(out))
    assert p.returncode == 1
    assert p.stdout.startswith("rejected:") and expect in p.stdout


def _other_seat(name: str) -> str:
    return "Forehand" if name != "Forehand" else "Middlehand"


@pytest.mark.parametrize("args,needle", [
    (("check", "nosuchgame"), "unknown game 'nosuchgame'"),
    (("play", "nosuchgame"), "unknown game"),
    (("replay", "/no/such/file.json"), "no such file"),
    (("play", "crescendo", "--seed", "x"), "a seed is a whole number"),
    (("check", "crescendo", "--variant", "nope"), "unknown variant 'nope'"),
    (("check", "crescendo", "--property", "nope"), "has no property 'nope'"),
    (("check", "--timeout", "-1"), "positive"),
], ids=["check-game", "play-game", "replay-file", "seed", "variant", "property", "timeout"])
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], needle: str) -> None:
    p = run(*args)
    assert p.returncode == 2
    assert needle in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


@pytest.mark.parametrize("content", ["not json", "{}", '{"format": "trickspec-record/1", "game": "crescendo"}', "[]"],
                         ids=["text", "empty", "partial", "list"])
def test_malformed_records_exit_2(tmp_path: pathlib.Path, content: str) -> None:
    f = tmp_path / "r.json"
    f.write_text(content)
    p = run("replay", str(f))
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
