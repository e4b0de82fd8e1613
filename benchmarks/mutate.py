"""Mutation testing of each game's rules: the time of a whole run and the kill rate.

Run from the repository root::

    python benchmarks/mutate.py                 # every registered game
    python benchmarks/mutate.py crescendo --json

Targets: ``trickspec mutate GAME`` takes at most 10 minutes on a 2-core machine, and
``check`` kills at least 90 % of the non-equivalent mutants.  The run is the command's own
(:func:`verifier.mutate.mutate` with its defaults), so the figures are what a user sees; the
machine is shared, so the time is one run's, beside the time of ``check`` alone (every
property once, on the original) measured in the same run as a reference.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from spec.registry import GAMES, find_game
from verifier.mutate import TARGET_RATE, mutate
from verifier.properties import check_game

TARGET_SECONDS = 600.0


def measure(key: str, jobs: int | None) -> dict[str, Any]:
    game = find_game(key)
    start = time.perf_counter()
    check_game(game)
    check_seconds = time.perf_counter() - start
    report = mutate(game, jobs=jobs)
    return {"game": game.key, "mutants": len(report.results),
            "non_equivalent": len(report.non_equivalent), "killed": report.killed,
            "rate": report.rate, "target_rate": TARGET_RATE, "seconds": round(report.seconds, 1),
            "target_seconds": TARGET_SECONDS, "check_seconds": round(check_seconds, 1),
            "findings": len(report.findings), "jobs": report.jobs}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", default=sorted(GAMES))
    p.add_argument("-j", "--jobs", type=int, default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    rows = [measure(g, args.jobs) for g in args.games]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        rate = "n/a" if r["rate"] is None else f"{100 * r['rate']:.1f} %"
        print(f"{r['game']:10} kill rate {rate:>7} (target >= {100 * r['target_rate']:.0f} %), "
              f"{r['killed']}/{r['non_equivalent']} of {r['mutants']} mutants; "
              f"{r['seconds']:.0f} s (target <= {r['target_seconds']:.0f} s; check alone "
              f"{r['check_seconds']:.0f} s) with {r['jobs']} workers; {r['findings']} findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
