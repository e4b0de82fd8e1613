"""How long ``trickspec check`` takes to prove every game's properties, against its targets.

Run from the repository root::

    python benchmarks/check.py                    # every registered game
    python benchmarks/check.py --repeats 3 --json
    python benchmarks/check.py --game 304 --game vint --no-parallel

Figures (the median of ``--repeats`` runs each):

* **one core, cold**: ``python -m verifier check GAME... --json`` in a child process, from
  its start (imports and the games' build included) to its exit; target at most
  :data:`SERIAL_TARGET` seconds for every registered game, with room for a fifth game of
  Vint's size (the run's time plus Vint's share, from the per-game figures below).
* **two cores**: the same command with ``-j 2``; target at most :data:`PARALLEL_TARGET`
  seconds.
* **per game and per property**: each game's check run in this process as the command
  runs it (:func:`verifier.properties.check_game`, one Z3 context per game); each
  property's wall-clock time and CPU time (this process's, Z3's included), its slowest
  properties named; target: no property over :data:`PROPERTY_TARGET` seconds.

The machine may be shared: beside each wall-clock figure is the CPU time the run took
(for the child processes, their user and system time), which a busy machine inflates far
less, and the load average before and after.  Nothing fails when a target is missed: the
figures are for reading, not a gate.  A check whose command fails is reported with the
last line of its standard error, and the script still exits 0.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

from spec.errors import NotationError
from spec.registry import GAMES, find_game
from verifier.properties import Result, check_game

SERIAL_TARGET = 60.0  # seconds for every registered game, on one core, cold
PARALLEL_TARGET = 35.0  # seconds for every registered game with -j 2
PROPERTY_TARGET = 5.0  # seconds for any one property
ROOM_FOR = "vint"  # the game whose size a fifth game is assumed to have
SLOWEST_SHOWN = 8
CHECK_COMMAND = (sys.executable, "-m", "verifier", "check", "--json")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_command(keys: list[str], jobs: int, timeout: float) -> dict[str, Any]:
    """One run of the check command in a child process: its wall-clock and CPU seconds,
    its exit code and its verdicts (or, when it fails, the last line of its stderr)."""
    cmd = [*CHECK_COMMAND, *keys] + (["-j", str(jobs)] if jobs > 1 else [])
    cpu, start = _children_cpu(), time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"gave up after {timeout:g} s"}
    out: dict[str, Any] = {"seconds": time.perf_counter() - start, "cpu": _children_cpu() - cpu,
                           "exit": done.returncode}
    try:
        games = json.loads(done.stdout)["games"]
    except (ValueError, KeyError):
        lines = done.stderr.strip().splitlines()
        return {**out, "error": lines[-1] if lines else f"exit {done.returncode}, no output"}
    out["verdicts"] = {k: {r["id"]: r["verdict"] for r in rs} for k, rs in games.items()}
    return out


def measure_command(keys: list[str], jobs: int, repeats: int, timeout: float) -> dict[str, Any]:
    """The median of ``repeats`` runs of the command, with each run's figures."""
    runs = [run_command(keys, jobs, timeout) for _ in range(repeats)]
    good = [r for r in runs if "error" not in r]
    if not good:
        return {"jobs": jobs, "error": runs[-1]["error"]}
    return {"jobs": jobs, "seconds": statistics.median(r["seconds"] for r in good),
            "cpu": statistics.median(r["cpu"] for r in good), "exit": good[-1]["exit"],
            "runs": [round(r["seconds"], 2) for r in good], "verdicts": good[-1]["verdicts"]}


def measure_game(key: str, repeats: int) -> dict[str, Any]:
    """Each property of a game checked in this process, as ``check`` checks it: the median
    wall-clock and CPU seconds of each, over ``repeats`` runs of the whole game."""
    game = find_game(key)
    walls: dict[str, list[float]] = {}
    cpus: dict[str, list[float]] = {}
    verdicts: dict[str, str] = {}
    totals, total_cpus = [], []
    last = [0.0]  # the CPU time when the last property was done

    def seen(r: Result) -> None:
        now = time.process_time()
        walls.setdefault(r.id, []).append(r.seconds)
        cpus.setdefault(r.id, []).append(now - last[0])
        verdicts[r.id] = r.verdict.value
        last[0] = now

    for _ in range(repeats):
        last[0] = time.process_time()
        cpu, start = time.process_time(), time.perf_counter()
        check_game(game, on_result=seen)
        totals.append(time.perf_counter() - start)
        total_cpus.append(time.process_time() - cpu)
    props = [{"id": i, "seconds": statistics.median(walls[i]), "cpu": statistics.median(cpus[i]),
              "verdict": verdicts[i]} for i in walls]
    props.sort(key=lambda p: -p["seconds"])
    return {"game": key, "properties": len(props), "seconds": statistics.median(totals),
            "cpu": statistics.median(total_cpus), "slowest": props}


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _print_report(report: dict[str, Any]) -> None:
    print(f"trickspec check: {', '.join(report['games'])} ({os.cpu_count()} cores; load "
          f"{report['load_before']} before, {report['load_after']} after)")
    per_game = {g["game"]: g for g in report["per_game"]}
    serial = report.get("serial")
    if serial is not None:
        if "error" in serial:
            print(f"  one core, cold: the command failed: {serial['error']}")
        else:
            line = (f"  one core, cold: {serial['seconds']:6.1f} s (CPU {serial['cpu']:.1f} s; "
                    f"target <= {SERIAL_TARGET:.0f} s)")
            room = per_game.get(ROOM_FOR)
            if room is not None:
                line += (f"; with a fifth game of {ROOM_FOR.title()}'s size "
                         f"{serial['seconds'] + room['seconds']:.1f} s (target <= "
                         f"{SERIAL_TARGET:.0f} s)")
            print(line)
    parallel = report.get("parallel")
    if parallel is not None:
        if "error" in parallel:
            print(f"  -j 2: the command failed: {parallel['error']}")
        else:
            print(f"  -j 2:           {parallel['seconds']:6.1f} s (CPU {parallel['cpu']:.1f} s; "
                  f"target <= {PARALLEL_TARGET:.0f} s)")
    slowest = max((p for g in report["per_game"] for p in g["slowest"]),
                  key=lambda p: p["seconds"], default=None)
    for g in report["per_game"]:
        print(f"  {g['game']:10} {g['properties']:3} properties {g['seconds']:6.1f} s "
              f"(CPU {g['cpu']:.1f} s)")
        for p in g["slowest"][:SLOWEST_SHOWN]:
            print(f"      {p['seconds']:6.2f} s (CPU {p['cpu']:5.2f} s)  {p['verdict']:8} {p['id']}")
    if slowest is not None:
        print(f"  slowest property: {slowest['id']} {slowest['seconds']:.2f} s (CPU "
              f"{slowest['cpu']:.2f} s; target <= {PROPERTY_TARGET:.0f} s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", default=[], metavar="GAME",
                        help="a game to check (repeatable; default: every registered game)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="runs of each figure, the median reported (default: %(default)s)")
    parser.add_argument("--no-parallel", action="store_true", help="skip the run with -j 2")
    parser.add_argument("--no-command", action="store_true",
                        help="skip the runs of the command (only the per-game figures)")
    parser.add_argument("--timeout", type=float, default=3600.0, metavar="SECONDS",
                        help="give up on a run of the command after this long (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    try:
        keys = [find_game(g).key for g in args.game] or list(GAMES)
    except NotationError as e:  # an unknown game name: one line, like the CLI
        parser.error(str(e))
    report: dict[str, Any] = {"games": keys, "load_before": _load(), "cores": os.cpu_count()}
    if not args.no_command:
        report["serial"] = measure_command(keys, 1, args.repeats, args.timeout)
        if not args.no_parallel:
            report["parallel"] = measure_command(keys, 2, args.repeats, args.timeout)
    report["per_game"] = [measure_game(k, args.repeats) for k in keys]
    report["load_after"] = _load()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
