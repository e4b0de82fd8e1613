"""Constrained dealing: Z3 against rejection sampling, and the time to prove impossibility.

Run from the repository root::

    python benchmarks/deals.py                  # Vint, the default constraints
    python benchmarks/deals.py --json

For a common constraint and a rare one (one that random dealing meets less than once in a
million deals), the figures are deals per second found by Z3 and by rejection sampling of
the engine's own dealer.  The rejection rate of a rare constraint is the measured dealing
speed times the constraint's exact probability (counted combinatorially below), since
waiting for millions of deals to find one proves nothing more.  Then the time for Z3 to
prove an impossible constraint impossible, and which method ``auto`` chooses.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from math import comb
from typing import Any

from spec.constraints import deal_test, parse_where
from spec.engine import engine_for
from spec.registry import find_game
from verifier.deals import deals_where

COMMON = "count(North, spades) >= 4"
RARE = "count(North, spades) >= 11"
IMPOSSIBLE = "count(North, aces) + count(South, aces) == 5"


def _at_least_in_suit(k: int) -> float:
    """The chance that a 13-card hand from 52 holds at least ``k`` cards of one given suit."""
    return sum(comb(13, j) * comb(39, 13 - j) for j in range(k, 14)) / comb(52, 13)


def dealing_speed(game_key: str, where: str, deals: int) -> dict[str, Any]:
    """Deals dealt and judged per second by the rejection method, and the share accepted."""
    game = find_game(game_key)
    eng = engine_for(game)
    test = deal_test(game, parse_where(game, where))
    start = time.perf_counter()
    hits = 0
    for k in range(deals):
        hands = eng.hands_from_order(eng.deal_order(0, k), game.players - 1)
        hits += test(game.players - 1, hands)
    seconds = time.perf_counter() - start
    return {"dealt_per_second": deals / seconds, "accepted": hits / deals}


def timed(game_key: str, where: str, n: int, method: str) -> dict[str, Any]:
    game = find_game(game_key)
    result = deals_where(game, parse_where(game, where), n=n, seed=1, method=method)
    return {"status": result.status, "method": result.method, "deals": len(result.deals),
            "seconds": result.seconds,
            "deals_per_second": len(result.deals) / result.seconds if result.deals else 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals to ask for (default 20)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = "vint"
    speed = dealing_speed(game, COMMON, 20_000)
    rare_p = _at_least_in_suit(11)
    out = {
        "game": game,
        "common": {"where": COMMON, "probability": _at_least_in_suit(4),
                   "rejection": timed(game, COMMON, args.deals, "rejection"),
                   "z3": timed(game, COMMON, args.deals, "z3"),
                   "auto": timed(game, COMMON, args.deals, "auto")},
        "rare": {"where": RARE, "probability": rare_p,
                 "rejection_deals_per_second": speed["dealt_per_second"] * rare_p,
                 "z3": timed(game, RARE, args.deals, "z3"),
                 "auto": timed(game, RARE, args.deals, "auto")},
        "impossible": {"where": IMPOSSIBLE, "z3": timed(game, IMPOSSIBLE, 1, "z3"),
                       "auto": timed(game, IMPOSSIBLE, 1, "auto")},
        "dealt_per_second": speed["dealt_per_second"],
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    c, r, i = out["common"], out["rare"], out["impossible"]
    print(f"{game}: the engine deals and judges {out['dealt_per_second']:,.0f} deals/s")
    print(f"common  {c['where']!r} (p = {c['probability']:.3f}), {args.deals} deals:")
    for m in ("rejection", "z3", "auto"):
        print(f"  {m:10} {c[m]['deals_per_second']:10,.0f} deals/s  ({c[m]['method']})")
    print(f"  auto / rejection: {c['auto']['deals_per_second'] / c['rejection']['deals_per_second']:.2f}")
    print(f"rare    {r['where']!r} (p = {r['probability']:.2e}), {args.deals} deals:")
    print(f"  rejection  {r['rejection_deals_per_second']:10.6f} deals/s  (dealing speed x p)")
    for m in ("z3", "auto"):
        print(f"  {m:10} {r[m]['deals_per_second']:10,.1f} deals/s  ({r[m]['method']})")
    print(f"  z3 / rejection: {r['z3']['deals_per_second'] / r['rejection_deals_per_second']:,.0f} times faster")
    print(f"impossible {i['where']!r}:")
    for m in ("z3", "auto"):
        print(f"  {m:10} {i[m]['status']} in {i[m]['seconds']:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
