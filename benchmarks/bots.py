"""How much the thinking bot (PIMC) wins over the modest and the random bot, deal by deal.

Run from the repository root::

    python benchmarks/bots.py                          # every game, 1,000 deals each
    python benchmarks/bots.py --game crescendo --deals 200 --worlds 4 --budget 5000 --json

Each deal (seeds ``--seed``, ``--seed + 1`` ...) is played once with every seat a bot of the
other kind (the baseline), and once with the thinking bot in one seat and the others
unchanged: the seat of deal k is seat k modulo the players (``--seats rotate``, the default),
or each seat in turn (``--seats every``, a deal played once for each seat: as many times the
cost).  The figure for a seat is the thinking bot's score there less the baseline's score for
the same seat in the same deal: a paired difference, which cancels the luck of the cards.  The
margin is the mean over deals, with a 95% confidence interval (mean ± 1.96 standard errors,
the deals taken as independent and the seats of one deal averaged first).  A margin above 0
whose interval excludes 0 says the thinking bot wins more than the other bot would in its
place.  A long run prints its progress (and the margin so far) on standard error.

Nothing fails when the thinking bot does not win: the figures are for reading.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from typing import Any

from spec.bots import BOT_NAMES, bot_named
from spec.engine import play_deal
from spec.registry import GAMES
from spec.solver import thinking_bot


def margins(key: str, other: str, deals: int, seed: int, worlds: int, budget: int,
            every: bool = False) -> dict[str, Any]:
    """The paired margins of the thinking bot over ``other`` in game ``key``."""
    game = GAMES[key]
    base_bot = bot_named(other)
    thinker = thinking_bot(worlds=worlds, budget=budget)
    per_deal: list[float] = []
    started = time.process_time()
    tty = sys.stderr.isatty()
    for k in range(deals):
        base = play_deal(game, seed=seed + k, bots=[base_bot] * game.players)
        if base.scores is None:
            continue
        diffs = []
        for seat in range(game.players) if every else (k % game.players,):
            bots = [base_bot] * game.players
            bots[seat] = thinker
            s = play_deal(game, seed=seed + k, bots=bots)
            if s.scores is not None:
                diffs.append(s.scores[seat] - base.scores[seat])
        if diffs:
            per_deal.append(sum(diffs) / len(diffs))
        if tty or (k + 1) % 10 == 0:
            so_far, half = _margin(per_deal)
            print(f"\r{key} vs {other}: {k + 1}/{deals} deals, margin so far {so_far:+.3f} "
                  f"± {half:.3f}", end="" if tty else "\n", file=sys.stderr, flush=True)
    if tty:
        print(file=sys.stderr)
    mean, half = _margin(per_deal)
    return {"game": key, "against": other, "deals": len(per_deal), "margin": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "seats": "every" if every else "rotate",
            "cpu_seconds_per_deal": round((time.process_time() - started) / max(1, deals), 3)}


def _margin(per_deal: list[float]) -> tuple[float, float]:
    """The mean of the paired differences and the half-width of its 95% interval."""
    n = len(per_deal)
    mean = statistics.fmean(per_deal) if per_deal else 0.0
    return mean, 1.96 * statistics.stdev(per_deal) / math.sqrt(n) if n > 1 else math.inf


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=sorted(GAMES), help="a game (default: all)")
    ap.add_argument("--against", action="append",
                    choices=[n for n in BOT_NAMES if n != "thinking"],
                    help="the other bot (default: both)")
    ap.add_argument("--deals", type=int, default=1000, help="deals per game (default 1000)")
    ap.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    ap.add_argument("--worlds", type=int, default=8, help="worlds per decision (default 8)")
    ap.add_argument("--budget", type=int, default=20_000,
                    help="nodes per world's search (default 20000)")
    ap.add_argument("--seats", choices=("rotate", "every"), default="rotate",
                    help="the thinking bot's seat: one a deal, in turn (rotate, the default), "
                    "or every seat of every deal")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    rows = [margins(g, o, args.deals, args.seed, args.worlds, args.budget, args.seats == "every")
            for g in (args.game or sorted(GAMES)) for o in (args.against or ("modest", "random"))]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        lo, hi = r["ci95"]
        verdict = "wins" if lo > 0 else "loses" if hi < 0 else "no clear difference"
        print(f"{r['game']:<11} vs {r['against']:<6} {r['deals']:>5} deals  margin "
              f"{r['margin']:+9.3f} per deal  95% CI [{lo:+.3f}, {hi:+.3f}]  "
              f"({verdict}; target: wins)  {r['cpu_seconds_per_deal']} s of CPU a deal")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
