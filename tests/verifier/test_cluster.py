"""Deals played on a Dask cluster: a real scheduler and two workers as processes give the
figures one process gives, even when a worker is killed halfway (its ranges are played
again elsewhere, none counted twice); stats --cluster local gives the same JSON."""
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


def test_stats_on_a_local_cluster_gives_the_figures_of_one_process() -> None:
    def stats(*more: str) -> str:
        done = subprocess.run([sys.executable, "-m", "verifier", "stats", "preference",
                               "--deals", "120", "--json", *more],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert stats("--cluster", "local") == stats()
