"""The command under faults: a disk that fills up, Ctrl-C, two commands writing one file.

A file written with ``--out`` (a folder, for ``fixtures``) is whole or as it was before:
a failure or Ctrl-C leaves it untouched, with no temporary file beside it.  Ctrl-C stops
any command within moments, a Z3 check included, with exit 130 and the one line
``trickspec: interrupted``; a standard output that cannot be written is exit 2 and one line.
The commands that must be stopped in the middle run as real processes.
"""
from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import z3

from verifier import cli, files
from verifier._z3.solver import Solving, forced_unknown, restart_solvers, stop_solvers
from verifier.commands import pbn
from verifier.fixtures import SHIPPED

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
GOOD = "the earlier file\n"
IMPOSSIBLE = "count(North, aces) + count(South, aces) == 5"


def _only(folder: Path, *names: str) -> None:
    """The folder holds these files and nothing else (no temporary file)."""
    assert sorted(os.listdir(folder)) == sorted(names)


# -- a write that fails, in the command's own process --------------------------------------

class _FillsUp:
    """A file that takes ``room`` characters and then raises ``fault`` (a full disk, or
    Ctrl-C in the middle of a write)."""

    def __init__(self, f: Any, room: int, fault: BaseException) -> None:
        self.f, self.room, self.fault = f, room, fault

    def write(self, text: str) -> int:
        if len(text) > self.room:
            self.f.write(text[:self.room])
            self.f.flush()
            raise self.fault
        self.room -= len(text)
        return int(self.f.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.f, name)

    def __enter__(self) -> _FillsUp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.f.close()


def _failing_open(monkeypatch: pytest.MonkeyPatch, fault: BaseException, *, room: int = 100,
                  at: int = 1) -> None:
    """The ``at``-th file the tool opens for writing fails after ``room`` characters."""
    real, count = open, [0]

    def fake(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        f = real(file, mode, *args, **kwargs)
        if "w" not in mode:
            return f
        count[0] += 1
        return _FillsUp(f, room, fault) if count[0] == at else f

    monkeypatch.setattr(files, "open", fake, raising=False)


@pytest.mark.parametrize("fault,code", [
    (OSError(errno.ENOSPC, "No space left on device"), cli.EXIT_ERROR),
    (KeyboardInterrupt(), cli.EXIT_INTERRUPTED),
], ids=["disk-full", "ctrl-c"])
def test_a_failed_write_leaves_the_earlier_file(fault: BaseException, code: int, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "keep.pbn"
    out.write_text(GOOD)
    out.chmod(0o640)
    _failing_open(monkeypatch, fault)
    assert cli.main(["pbn", "vint", "-n", "20", "--out", "keep.pbn"]) == code
    assert out.read_text() == GOOD
    _only(tmp_path, "keep.pbn")
    err = capsys.readouterr().err
    assert err == ("trickspec: interrupted\n" if code == cli.EXIT_INTERRUPTED else
                   "trickspec: error: cannot write keep.pbn: No space left on device\n")
    monkeypatch.undo()  # written whole, the new file keeps the earlier one's permissions
    assert cli.main(["pbn", "vint", "-n", "20", "--out", str(out)]) == cli.EXIT_OK
    assert out.read_text().count("[Deal ") == 20 and out.stat().st_mode & 0o777 == 0o640
    _only(tmp_path, "keep.pbn")


def test_ctrl_c_while_deals_are_made_leaves_the_earlier_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "keep.pbn"
    out.write_text(GOOD)

    def pieces(game: Any, states: Iterator[Any]) -> Iterator[str]:
        yield "% PBN 2.1"
        next(states)
        raise KeyboardInterrupt

    monkeypatch.setattr(pbn, "iter_pbn", pieces)
    assert cli.main(["pbn", "vint", "-n", "5", "--out", str(out)]) == cli.EXIT_INTERRUPTED
    assert out.read_text() == GOOD
    _only(tmp_path, "keep.pbn")


@pytest.mark.parametrize("where,extra,code", [
    (IMPOSSIBLE, (), cli.EXIT_IMPOSSIBLE),
    ("count(North, spades) >= 8", ("--method", "z3"), cli.EXIT_ERROR),
], ids=["impossible", "unknown"])
def test_deals_without_an_answer_leave_the_earlier_file(where: str, extra: tuple[str, ...],
                                                        code: int, tmp_path: Path) -> None:
    out = tmp_path / "deals.json"
    out.write_text(GOOD)
    with forced_unknown() if code == cli.EXIT_ERROR else contextlib.nullcontext():
        assert cli.main(["deals", "vint", "--where", where, *extra, "--out", str(out)]) == code
    assert out.read_text() == GOOD
    _only(tmp_path, "deals.json")


def _fixtures(folder: Path) -> dict[str, bytes]:
    shutil.copytree(SHIPPED / "crescendo", folder)
    (folder / "auction.overcall.json").unlink()  # the run below writes it again
    return {p.name: p.read_bytes() for p in folder.iterdir()}


@pytest.mark.parametrize("fault,code", [
    (OSError(errno.ENOSPC, "No space left on device"), cli.EXIT_ERROR),
    (KeyboardInterrupt(), cli.EXIT_INTERRUPTED),
], ids=["disk-full", "ctrl-c"])
def test_a_fixtures_folder_is_changed_whole_or_not_at_all(fault: BaseException, code: int,
                                                          tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "fx"
    before = _fixtures(folder)
    _failing_open(monkeypatch, fault, at=2)  # the second of its two files fails
    args = ["fixtures", "crescendo", "--out", str(folder), "--rule", "auction.overcall"]
    assert cli.main(args) == code
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    monkeypatch.undo()
    assert cli.main(args) == cli.EXIT_OK
    assert sorted(p.name for p in folder.iterdir()) == sorted([*before, "auction.overcall.json"])


def test_a_new_fixtures_folder_is_not_left_behind(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _failing_open(monkeypatch, KeyboardInterrupt())
    assert cli.main(["fixtures", "crescendo", "--out", str(tmp_path / "new" / "fx"), "--rule",
                     "auction.overcall"]) == cli.EXIT_INTERRUPTED
    assert os.listdir(tmp_path) == []


def test_two_writers_of_one_file_leave_one_whole_file(tmp_path: Path) -> None:
    out, deals = tmp_path / "same.pbn", "6000"
    runs = [subprocess.Popen([sys.executable, "-m", "verifier", "pbn", "vint", "-n", deals,
                              "--seed", str(seed), "--out", str(out)], env=ENV,
                             stderr=subprocess.PIPE, text=True) for seed in (0, 10_000)]
    for p in runs:
        assert p.wait(timeout=600) == 0, p.stderr.read() if p.stderr else ""
    text = out.read_text()
    whole = []
    for seed in (0, 10_000):
        assert cli.main(["pbn", "vint", "-n", deals, "--seed", str(seed), "--out",
                         str(tmp_path / "one.pbn")]) == cli.EXIT_OK
        whole.append((tmp_path / "one.pbn").read_text())
    assert text in whole
    (tmp_path / "one.pbn").unlink()
    _only(tmp_path, "same.pbn")


# -- a solver check stopped from another thread --------------------------------------------

def _pigeons(solving: Solving, holes: int) -> z3.Solver:
    """Pigeons into one fewer holes: unsatisfiable, and slow for Z3 to prove."""
    ctx = solving.ctx
    p = [[z3.Bool(f"p{i}_{j}", ctx) for j in range(holes)] for i in range(holes + 1)]
    s = solving.solver()
    for row in p:
        s.add(z3.Or(row))
    for j in range(holes):
        for i in range(holes + 1):
            for k in range(i + 1, holes + 1):
                s.add(z3.Or(z3.Not(p[i][j]), z3.Not(p[k][j])))
    return s


def test_a_stopped_check_is_interrupted_never_unknown() -> None:
    solving = Solving(timeout=600)
    s = _pigeons(solving, 12)
    timer = threading.Timer(0.5, stop_solvers)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solving.sat(s)
        with pytest.raises(KeyboardInterrupt):  # and any check after it, until restarted
            solving.sat(_pigeons(solving, 2))
    finally:
        timer.join()
        restart_solvers()
    assert time.monotonic() - start < 60  # the check alone takes minutes
    assert solving.sat(_pigeons(solving, 2)) is False


# -- Ctrl-C and a full output, in a real process --------------------------------------------

def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for(test: Callable[[], bool], seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while not test():
        if time.monotonic() > end:
            pytest.fail(f"waited {seconds:g} s for {what}")
        time.sleep(0.05)


def _ctrl_c_obeyed() -> None:  # in the child: Ctrl-C as in a terminal, whoever runs the tests
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class _Running:
    """A command running in its own session (so that Ctrl-C can reach all its processes,
    as a terminal's does), its standard error read as it comes."""

    def __init__(self, *args: str, cwd: Path) -> None:
        self.p = subprocess.Popen([sys.executable, "-m", "verifier", *args], cwd=cwd, env=ENV,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  start_new_session=True, preexec_fn=_ctrl_c_obeyed)
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=self._read, args=(stream, into), daemon=True)
                        for stream, into in ((self.p.stdout, self.out), (self.p.stderr, self.err))]
        for r in self.readers:
            r.start()

    @staticmethod
    def _read(stream: Any, into: list[str]) -> None:
        for line in stream:
            into.append(line)

    def busy(self, cpu: float) -> bool:
        """Whether the command has worked ``cpu`` seconds (it is past loading)."""
        assert self.p.poll() is None, "".join(self.err)
        return _cpu_seconds(self.p.pid) >= cpu

    def ctrl_c(self, *, every_process: bool = False) -> float:
        """Ctrl-C, to the command or to all its processes; how long it took to end."""
        start = time.monotonic()
        if every_process:
            os.killpg(self.p.pid, signal.SIGINT)
        else:
            self.p.send_signal(signal.SIGINT)
        try:
            self.p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            self.p.wait()
            pytest.fail("still running a minute after Ctrl-C:\n" + "".join(self.err))
        for r in self.readers:
            r.join(timeout=30)
        return time.monotonic() - start

    def gone(self) -> bool:
        """Whether every process of the command (its workers too) has ended."""
        try:
            os.killpg(self.p.pid, 0)
        except ProcessLookupError:
            return True
        return False


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists() or os.name != "posix",
                                reason="reads a process's time from /proc")


@needs_proc
@pytest.mark.parametrize("args", [
    ("deals", "vint", "--where", "count(North, spades) >= 8", "-n", "10000", "--method", "z3"),
    ("deals", "vint", "--where", "count(North, spades) >= 8", "-n", "10000"),
], ids=["z3", "auto"])
def test_ctrl_c_stops_a_deal_search_and_keeps_the_file(args: tuple[str, ...],
                                                       tmp_path: Path) -> None:
    (tmp_path / "keep.json").write_text(GOOD)
    run = _Running(*args, "--out", "keep.json", cwd=tmp_path)
    _wait_for(lambda: run.busy(2.5), 120, "the search to be under way")
    took = run.ctrl_c()
    assert run.p.returncode == cli.EXIT_INTERRUPTED, "".join(run.err)
    assert run.err == ["trickspec: interrupted\n"]
    assert took < 10
    assert (tmp_path / "keep.json").read_text() == GOOD
    _only(tmp_path, "keep.json")


@needs_proc
@pytest.mark.parametrize("jobs,every_process", [("1", False), ("2", False), ("2", True)],
                         ids=["one-process", "workers", "workers-from-a-terminal"])
def test_ctrl_c_stops_check(jobs: str, every_process: bool, tmp_path: Path) -> None:
    run = _Running("check", "vint", "-j", jobs, cwd=tmp_path)
    _wait_for(lambda: len(run.out) >= 2, 120, "a property to be checked")
    if jobs == "1":
        _wait_for(lambda: run.busy(3), 120, "the checks to be under way")
    took = run.ctrl_c(every_process=every_process)
    assert run.p.returncode == cli.EXIT_INTERRUPTED, "".join(run.err)
    assert run.err == ["trickspec: interrupted\n"]
    assert took < 10
    assert not any("UNKNOWN" in line for line in run.out), "".join(run.out)
    _wait_for(run.gone, 10, "the workers to end")


@needs_proc
def test_ctrl_c_from_a_terminal_stops_mutate_quietly(tmp_path: Path) -> None:
    run = _Running("mutate", "crescendo", "-j", "2", cwd=tmp_path)
    _wait_for(lambda: any(line.startswith("baseline") for line in run.err), 300,
              "the workers to check the game")
    took = run.ctrl_c(every_process=True)
    assert run.p.returncode == cli.EXIT_INTERRUPTED, "".join(run.err)
    assert run.err[-1] == "trickspec: interrupted\n"
    assert not [line for line in run.err[:-1] if not line.startswith(("baseline", "["))], \
        "".join(run.err)
    assert took < 10
    _wait_for(run.gone, 10, "the workers to end")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [
    ("games",),
    ("play", "crescendo", "--seed", "1"),
    ("check", "crescendo", "--property", "deal.dealing_seen", "--json"),
], ids=["games", "play", "check-json"])
def test_a_full_standard_output_is_exit_2(args: tuple[str, ...], tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "verifier", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, env=ENV, cwd=tmp_path, timeout=300)
    assert p.returncode == cli.EXIT_ERROR
    assert p.stderr == "trickspec: error: cannot write standard output: No space left on device\n"
