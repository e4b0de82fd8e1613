"""Scenario search: the time to find a deal and its whole play that make a condition true.

Run from the repository root::

    python benchmarks/scenarios.py                 # every registered game, both methods
    python benchmarks/scenarios.py --game 304 --json
    python benchmarks/scenarios.py --method auto    # what ``trickspec deals`` does by default

Each game has a fixed set of conditions: the README's example for the game, where it has
one, and conditions every game can be asked (the declarer wins the last trick, takes no
trick at all).  Each is asked of ``scenarios_where`` as ``trickspec deals`` asks it: with
``auto`` (deals played by bots first, then Z3) and with ``z3`` alone, each Z3 query bounded
by the command's default budget (``SEARCH_RLIMIT`` of Z3's resource units, with a timeout
behind it).  Target: every README scenario answers within a minute with the method it
shows.  The time is one run's, on a shared machine; the line says which method found the
deal.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from spec.constraints import parse_where
from spec.registry import GAMES, find_game
from verifier.scenario import scenarios_where

# trickspec deals --timeout's default: seconds a Z3 query may take, a backstop behind the
# resource limit
DEFAULT_TIMEOUT = 600.0
# the target: seconds a README scenario may take
TARGET_SECONDS = 60.0

# the README's example of each game, by game key: the condition and the method it uses
README = {
    "crescendo": ("lead(7) == JK and winner(7) == leader(7)", "z3"),
    "304": ("level == 160 and winner(8) == declarer", "auto"),
    "preference": ("won(Anna) >= 1", "auto"),
    # two Miserie declarers, one who makes it and one who fails: among the bots' deals
    "wiezen": ("level == miserie and declares(North) and declares(East) and tricks(North) == 0 "
               "and tricks(East) > 0", "rejection"),
}


def conditions(game_key: str) -> list[tuple[str, str | None]]:
    """The conditions timed for a game: (condition, the method the README uses it with, or
    None for a condition the README does not show)."""
    game = find_game(game_key)
    every = [f"winner({game.tricks}) == declarer", "tricks(declarer) == 0"]
    readme = README.get(game_key)
    return ([readme] if readme else []) + [(c, None) for c in every]


def measure(game_key: str, where: str, method: str, timeout: float) -> dict[str, Any]:
    game = find_game(game_key)
    start = time.perf_counter()
    result = scenarios_where(game, parse_where(game, where), seed=0, timeout=timeout,
                             method=method)
    seconds = time.perf_counter() - start
    return {"game": game_key, "where": where, "method": method, "status": result.status,
            "found_by": result.method, "deals": len(result.states), "seconds": round(seconds, 2),
            "reason": result.reason}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game to time (repeatable; "
                        "default: every registered game)")
    parser.add_argument("--method", action="append", choices=("auto", "z3", "rejection"),
                        help="a method to time (repeatable; default: both)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help=f"seconds per Z3 query (default {DEFAULT_TIMEOUT:g}, the command's)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    keys = args.game or list(GAMES)
    methods = args.method or ["auto", "z3"]
    rows = []
    for key in keys:
        for where, shown in conditions(key):
            # the README's method too, where it shows another
            for method in methods + ([shown] if shown and shown not in methods else []):
                row = measure(key, where, method, args.timeout)
                row["readme"] = shown == method
                row["target_seconds"] = TARGET_SECONDS if shown == method else None
                rows.append(row)
                if not args.json:
                    target = ""
                    if row["target_seconds"] is not None:
                        met = row["status"] == "found" and row["seconds"] <= TARGET_SECONDS
                        target = f"  (README; target <= {TARGET_SECONDS:g} s: " \
                                 f"{'met' if met else 'MISSED'})"
                    print(f"{key:10} {method:4} {row['seconds']:7.2f} s  {row['status']:10} "
                          f"by {row['found_by']:12} {where}{target}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
