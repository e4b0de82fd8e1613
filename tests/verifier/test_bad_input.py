"""Bad input of every kind, answered by one line on standard error and an exit code.

Each case of :data:`CASES` is a command line, run in-process through
:func:`verifier.cli.main`, with the files it needs written first to a scratch folder (the
working directory of the case).  The table gives the exit code and a fragment of the one
line the command must answer with: on standard error for bad input (exit 2, nothing on
standard output), on standard output for a record the rules reject (exit 1).  No case may
show a traceback or more than one line, or exit 4 (a bug).  A few cases run as a real
process, to show that nothing reaches the terminal but that line.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from spec.engine import play_deal
from spec.games.crescendo import GAME as CRESCENDO
from spec.records import hands_text, to_record
from verifier import cli

# -- what the files of the cases hold ----------------------------------------------------

RECORD: dict[str, Any] = to_record(play_deal(CRESCENDO, seed=3))


def record(change: Callable[[dict[str, Any]], object] | None = None) -> str:
    """A Crescendo record as JSON, changed by ``change`` (which edits it in place)."""
    data = json.loads(json.dumps(RECORD))
    if change is not None:
        change(data)
    return json.dumps(data)


def _deals_data() -> dict[str, Any]:
    deals = [play_deal(CRESCENDO, seed=k) for k in (1, 2)]
    return {"format": cli.DEALS_FORMAT, "game": "crescendo", "variants": [], "where": "true",
            "seed": 0, "status": "found", "method": "rejection", "seconds": 0.0,
            "deals": [{"dealer": "Rearhand", "hands": hands_text(CRESCENDO, d.dealt)}
                      for d in deals]}


DEALS: dict[str, Any] = _deals_data()


def deals_file(change: Callable[[dict[str, Any]], object] | None = None) -> str:
    """A deals file of two Crescendo deals as JSON, changed by ``change``."""
    data = json.loads(json.dumps(DEALS))
    if change is not None:
        change(data)
    return json.dumps(data)


DEALS_FILE = {"deals.json": deals_file()}


# -- the table -------------------------------------------------------------------------

Content = str | bytes | Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    """A command line, the files it reads, and how the command must answer."""

    args: tuple[str, ...]
    code: int
    message: str  # a fragment of the one line of the answer
    files: Mapping[str, Content] = field(default_factory=dict)


def bad(*args: str, message: str, files: Mapping[str, Content] | None = None,
        code: int = cli.EXIT_ERROR) -> Case:
    return Case(tuple(args), code, message, files or {})


CASES: dict[str, Case] = {
    # -- usage ---------------------------------------------------------------------------
    "no-command": bad(message="required: command"),
    "unknown-command": bad("deal", message="invalid choice: 'deal'"),
    "unknown-option": bad("games", "--colour", message="unrecognized arguments: --colour"),
    "check-unknown-game": bad("check", "nosuchgame", message="unknown game 'nosuchgame'"),
    "play-unknown-game": bad("play", "nosuchgame", message="unknown game 'nosuchgame'"),
    "long-game-name": bad("play", "g" * 100_000, message="unknown game 'ggggg"),
    "check-unknown-variant": bad("check", "crescendo", "--variant", "nope",
                                 message="unknown variant 'nope'"),
    "check-unknown-property": bad("check", "crescendo", "--property", "nope",
                                  message="has no property 'nope'"),
    # -- numbers -------------------------------------------------------------------------
    **{f"{cmd}-timeout-{name}": bad(cmd, game, *where, f"--timeout={text}", message=expect)
       for cmd, game, where in (("check", "crescendo", ()),
                                ("deals", "crescendo", ("--where", "holds(Forehand, JK)")),
                                ("fixtures", "crescendo", ("--out", "fx")))
       for name, text, expect in (("nan", "nan", "expected a finite number of seconds, got 'nan'"),
                                  ("inf", "inf", "finite number of seconds, got 'inf'"),
                                  ("minus-inf", "-inf", "finite number of seconds, got '-inf'"),
                                  ("1e400", "1e400", "seconds are at most 1,000,000, got '1e400'"),
                                  ("zero", "0", "expected a positive number of seconds, got '0'"),
                                  ("negative", "-1", "expected a positive number of seconds such as 60"),
                                  ("underscore", "1_0", "digits 0-9, got '1_0'"),
                                  ("arabic-digit", "٣", "digits 0-9, got '٣'"),
                                  ("word", "soon", "digits 0-9, got 'soon'"))},
    **{f"{cmd}-rlimit-{name}": bad(cmd, game, *where, "--rlimit", text, message=expect)
       for cmd, game, where in (("check", "crescendo", ()),
                                ("deals", "crescendo", ("--where", "holds(Forehand, JK)")),
                                ("fixtures", "crescendo", ("--out", "fx")))
       for name, text, expect in (("zero", "0", "the resource limit is at least 1"),
                                  ("past-32-bits", "4294967296", "at most 4,294,967,295"),
                                  ("fraction", "1.5", "got '1.5'"),
                                  ("superscript", "²", "digits 0-9, got '²'"))},
    "check-bound-zero": bad("check", "--bound", "0", message="the bound is at least 1"),
    "check-bound-huge": bad("check", "--bound", "100000", message="the bound is at most 1,000"),
    "check-bound-word": bad("check", "--bound", "many", message="got 'many'"),
    "play-seed-arabic": bad("play", "crescendo", "--seed", "١٢", message="digits 0-9, got '١٢'"),
    "play-seed-underscore": bad("play", "crescendo", "--seed", "1_000",
                                message="digits 0-9, got '1_000'"),
    "play-seed-negative": bad("play", "crescendo", "--seed=-3", message="got a negative number"),
    "play-seed-huge": bad("play", "crescendo", "--seed", "9" * 19,
                          message="a seed is at most 999,999,999,999,999,999"),
    "play-seed-5000-digits": bad("play", "crescendo", "--seed", "9" * 5000,
                                 message="a seed is at most"),
    "play-seed-empty": bad("play", "crescendo", "--seed", "", message="got ''"),
    "pbn-seed-word": bad("pbn", "vint", "--seed", "x", message="a seed is a whole number"),
    "deals-seed-float": bad("deals", "crescendo", "--where", "true", "--seed", "1.0",
                            message="got '1.0'"),
    "fixtures-seed-fullwidth": bad("fixtures", "crescendo", "--out", "fx", "--seed", "１",
                                   message="digits 0-9, got '１'"),
    "pbn-count-zero": bad("pbn", "vint", "-n", "0", message="the count is at least 1"),
    "deals-count-exponent": bad("deals", "crescendo", "--where", "true", "-n", "1e3",
                                message="got '1e3'"),
    "fixtures-search-zero": bad("fixtures", "crescendo", "--out", "fx", "--search", "0",
                                message="the count is at least 1"),
    "board-superscript": bad("play", "crescendo", "--deal", "deals.json", "--board", "²",
                             files=DEALS_FILE, message="digits 0-9, got '²'"),
    "board-zero": bad("play", "crescendo", "--deal", "deals.json", "--board", "0",
                      files=DEALS_FILE, message="--board is at least 1"),
    "board-past-the-end": bad("play", "crescendo", "--deal", "deals.json", "--board", "3",
                              files=DEALS_FILE, message="has deals 1 to 2; --board 3 is not one"),
    "board-negative": bad("play", "crescendo", "--deal", "deals.json", "--board=-1",
                          files=DEALS_FILE, message="got a negative number"),
    "board-without-file": bad("play", "crescendo", "--board", "1",
                              message="--board picks a deal of a file"),
}


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _write(folder: Path, files: Mapping[str, Content]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_bad_input_is_one_line_and_an_exit_code(case: Case, scratch: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _write(scratch, case.files)
    code = cli.main(list(case.args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err + out
    if case.code == cli.EXIT_VIOLATED:  # rejected: the answer is the result, on stdout
        assert code == case.code, err or out
        assert err == "" and out.startswith("rejected: "), out
        assert case.message in out, out
        return
    assert code == case.code, err or out
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("trickspec: "), err
    assert case.message in lines[0], err
    assert len(lines[0]) <= 1100, f"{len(lines[0])} characters"


# -- the exit codes themselves -----------------------------------------------------------


def test_help_lists_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for code, _what in cli.EXIT_CODES:
        assert f"\n  {code:<4} " in out
    assert "a bug in trickspec" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("trickspec ")


@pytest.mark.parametrize("error", [AssertionError("an invariant"), RecursionError("deep"),
                                   MemoryError(), ValueError("no"), KeyError("k")],
                         ids=lambda e: type(e).__name__)
def test_an_internal_error_is_one_line_and_exit_4(error: BaseException,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    def boom(args: object) -> int:
        raise error

    monkeypatch.setattr(cli, "cmd_games", boom)
    assert cli.main(["games"]) == cli.EXIT_BUG
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"trickspec: internal error: {type(error).__name__}")
    assert "a bug in trickspec" in err and "--debug" in err


@pytest.mark.parametrize("where", [("--debug", "games"), ("games", "--debug")], ids=["before", "after"])
def test_debug_shows_the_traceback(where: tuple[str, ...], monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    def boom(args: object) -> int:
        raise AssertionError("an invariant")

    monkeypatch.setattr(cli, "cmd_games", boom)
    assert cli.main(list(where)) == cli.EXIT_BUG
    err = capsys.readouterr().err
    assert "Traceback" in err and err.splitlines()[-1].startswith("trickspec: internal error")


def test_a_bug_in_the_verifier_is_exit_4(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from verifier.errors import ReplayMismatchError

    def boom(args: object) -> int:
        raise ReplayMismatchError("the engine disagrees")

    monkeypatch.setattr(cli, "cmd_games", boom)
    assert cli.main(["games"]) == cli.EXIT_BUG
    assert "ReplayMismatchError: the engine disagrees" in capsys.readouterr().err


def test_interrupt_is_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def stop(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_games", stop)
    assert cli.main(["games"]) == cli.EXIT_INTERRUPTED
    assert capsys.readouterr().err == "trickspec: interrupted\n"


# -- as a real process -------------------------------------------------------------------


def _process(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(cli.__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)


@pytest.mark.parametrize("case_id", ["long-game-name"])
def test_no_traceback_reaches_the_terminal(case_id: str, tmp_path: Path) -> None:
    case = CASES[case_id]
    _write(tmp_path, case.files)
    p = _process(*case.args, cwd=tmp_path)
    assert p.returncode == case.code
    assert "Traceback" not in p.stderr and len(p.stderr.splitlines()) == 1, p.stderr
    assert case.message in p.stderr
