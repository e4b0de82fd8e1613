"""Work on a Dask cluster: a real scheduler and two workers as processes give the figures
one process gives, even when a worker is killed halfway (its ranges are played again
elsewhere, none counted twice); stats and solve --cluster local give the same JSON; mutants
judged and fixtures searched there are those of one process."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from spec.registry import GAMES
from verifier.cluster import connected, run_ranges
from verifier.commands._common import bots_for
from verifier.commands.stats import _chunk
from verifier.stats import play_and_summarise

distributed = pytest.importorskip("distributed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def scheduler_and_two_workers():  # type: ignore[no-untyped-def]
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                               "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    for _ in range(2):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                       address, "--nthreads", "1", "--no-nanny",
                                       "--no-dashboard"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        yield address, procs[1:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()


def test_a_worker_lost_midway_has_its_share_played_again(scheduler_and_two_workers) -> None:  # type: ignore[no-untyped-def]
    address, workers = scheduler_and_two_workers
    game = GAMES["preference"]
    ranges = [range(a, a + 4) for a in range(0, 160, 4)]
    killed = []

    def on_done(_k: int, _part: list[object]) -> None:
        if not killed:  # the first range is in: kill a worker while the others run
            os.kill(workers[0].pid, signal.SIGKILL)
            killed.append(time.monotonic())

    with connected(address) as client:
        got = run_ranges(client, _chunk, ("preference", (), ()), ranges, on_done=on_done)
    assert killed and workers[0].wait(timeout=30) == -signal.SIGKILL
    assert got == play_and_summarise(game, range(160), bots_for(game, None))


@pytest.mark.slow  # a local cluster started, the deals played or solved twice: 8 s and 15 s
@pytest.mark.parametrize("command", [("stats", "--deals", "120"), ("solve", "--deals", "12"),
                                     ("stats", "--batch", "--deals", "9000")],
                         ids=lambda c: " ".join(c[:2]))
def test_a_command_on_a_local_cluster_gives_the_answer_of_one_process(command) -> None:
    def run(*more: str) -> str:
        done = subprocess.run([sys.executable, "-m", "verifier", command[0], "preference",
                               *command[1:], "--json", *more],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert run("--cluster", "local") == run()


def _outcomes(report: dict) -> object:  # type: ignore[type-arg]
    """What a mutation report says of each mutant and in sum: which checks a mutant ran
    first and what they took is left out (the quickest on the original run first, as
    timed in each run)."""
    return (report["summary"], report["per_rule"],
            [(r["id"], r["outcome"], r["engine_error"], r["difference"])
             for r in report["results"]])


@pytest.mark.slow  # three mutants judged twice, with the baseline: 18 s
def test_mutants_judged_on_a_cluster_are_judged_as_in_one_process(
        scheduler_and_two_workers) -> None:  # type: ignore[no-untyped-def]
    import json

    address, _workers = scheduler_and_two_workers

    def mutate(*more: str) -> object:
        done = subprocess.run([sys.executable, "-m", "verifier", "mutate", "crescendo", "--rule",
                               "play.follow_suit", "--max", "3", "--json", "-q", *more],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return _outcomes(json.loads(done.stdout))

    assert mutate("--cluster", address) == mutate("-j", "1")


def test_fixtures_searched_on_a_cluster_are_the_fixtures_of_one_process(
        scheduler_and_two_workers, tmp_path) -> None:  # type: ignore[no-untyped-def]
    address, _workers = scheduler_and_two_workers
    rules = ("--rule", "play.follow_suit", "--rule", "play.must_beat", "--rule", "auction.turns")
    for out, more in (("here", ()), ("there", ("--cluster", address))):
        done = subprocess.run([sys.executable, "-m", "verifier", "fixtures", "preference",
                               "--out", str(tmp_path / out), *rules, *more],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
    here = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert here == sorted(p.name for p in (tmp_path / "there").iterdir()) and len(here) == 4
    for name in here:
        assert (tmp_path / "here" / name).read_bytes() == (tmp_path / "there" / name).read_bytes()


def test_cluster_and_jobs_together_are_refused_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "verifier", "mutate", "crescendo", "-j", "2",
                           "--cluster", "local"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "name one" in done.stderr
