"""What deals the bots make: the contracts they reach, how often those are made, the size of
the scores, and the CPU each deal costs.

Run from the repository root::

    python benchmarks/contracts.py                     # every game, random and sensible, 200 deals
    python benchmarks/contracts.py --game vint --bots random,sensible,modest --deals 500 --json

Each deal (seeds ``--seed``, ``--seed + 1`` ...) is played once by each bot named, every seat
that bot.  For each game and bot: the CPU a deal costs (median, 90th percentile, most, in
milliseconds of process time, the game's rules compiled beforehand); the five contracts played most, each with its share of the
deals; the share of deals thrown in (passed out and dealt again, or ended without a
contract); the share of contracts made, a contract counting as made where the declarer's
score is above the mean of his opponents' (the seats outside his partnership); and the mean
of every seat's |score|.

Nothing fails: the figures are for reading.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from typing import Any

from spec.bots import BOT_NAMES, bot_named
from spec.engine import State, engine_for, play_deal
from spec.registry import GAMES


def figures(key: str, bot: str, deals: int, seed: int) -> dict[str, Any]:
    """The figures of ``deals`` deals of game ``key`` played by bots ``bot``."""
    game = GAMES[key]
    engine_for(game)  # the rules compiled before the clock starts
    bots = [bot_named(bot)] * game.players
    cpu: list[float] = []
    contracts: Counter[str] = Counter()
    thrown = made = played = 0
    sizes: list[float] = []
    for k in range(deals):
        started = time.process_time()
        s = play_deal(game, seed=seed + k, bots=bots)
        cpu.append((time.process_time() - started) * 1000)
        if s.thrown_in or s.contract < 0 or s.scores is None:
            thrown += 1
        if s.contract < 0 or s.scores is None:
            contracts["(none)"] += 1
            continue
        contracts[str(game.ladder[s.contract])] += 1
        played += 1
        made += _made(s)
        sizes.append(statistics.fmean(abs(x) for x in s.scores))
    cpu.sort()
    return {
        "game": key, "bot": bot, "deals": deals,
        "cpu_ms": {"median": round(statistics.median(cpu), 2),
                   "p90": round(cpu[min(len(cpu) - 1, int(0.9 * len(cpu)))], 2),
                   "max": round(cpu[-1], 2)},
        "top_contracts": [[c, round(n / deals, 3)] for c, n in contracts.most_common(5)],
        "thrown_in": round(thrown / deals, 3),
        "made": round(made / played, 3) if played else None,
        "mean_abs_score": round(statistics.fmean(sizes), 1) if sizes else None,
    }


def _made(s: State) -> bool:
    """The declarer scored more than the mean of his opponents."""
    assert s.scores is not None
    team = next((t for t in s.game.table.partnerships if s.declarer in t), (s.declarer,))
    others = [x for k, x in enumerate(s.scores) if k not in team]
    return s.scores[s.declarer] > (statistics.fmean(others) if others else 0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=sorted(GAMES), help="a game (default: all)")
    ap.add_argument("--bots", default="random,sensible",
                    help=f"bots, comma-separated (default random,sensible; of {', '.join(BOT_NAMES)})")
    ap.add_argument("--deals", type=int, default=200, help="deals per game and bot (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    rows = [figures(g, b, args.deals, args.seed)
            for g in (args.game or sorted(GAMES)) for b in args.bots.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'game':<11} {'bot':<9} {'ms median':>9} {'p90':>7} {'max':>8}  {'thrown':>6} "
          f"{'made':>5} {'mean|score|':>11}  top contracts")
    for r in rows:
        c = r["cpu_ms"]
        top = ", ".join(f"{name} {share:.0%}" for name, share in r["top_contracts"])
        made = "-" if r["made"] is None else f"{r['made']:.0%}"
        print(f"{r['game']:<11} {r['bot']:<9} {c['median']:>9.2f} {c['p90']:>7.2f} "
              f"{c['max']:>8.2f}  {r['thrown_in']:>6.0%} {made:>5} "
              f"{r['mean_abs_score'] if r['mean_abs_score'] is not None else '-':>11}  {top}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
