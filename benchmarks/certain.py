"""How long the engine takes to judge what a seat can be sure of (``certain(seat)``, decided
by :mod:`spec.solver._certain`), per decision and per whole deal.

Run from the repository root::

    python benchmarks/certain.py                          # 304 with caps_when_certain
    python benchmarks/certain.py --deals 500 --bots random --json
    python benchmarks/certain.py --game 304 --variant caps_when_certain --bots low

Each deal is played from its seed by bots, with the variant in force and without it, and
timed whole (in CPU time of this process: the machine may be shared); every question the rules ask of the decision procedure while the deal is
played is timed alone (a question asked while one is being decided, which the engine
answers at once, is not counted).  The bots: ``random``, the engine's random bots (those of
the golden records: they bid anything, claim at random, and so often end the questions
early); ``low``, bots that pass one time in two and otherwise make the lowest bid, and never
announce, so a side that takes every trick is asked about at every card it plays.

Figures: per deal, the median, 90th and 99th percentile and the maximum of the deal's time
with the variant, and without it; per decision, the same of each question's time, how many
were asked, and how many the procedure could not decide (such a question is answered as
the rule that asks it says: ``certain(seat, undecided=...)``).  Nothing fails: the figures are for reading.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from spec.dsl._build import Game
from spec.engine import Engine, View, engine_for, low_bidder, play_deal
from spec.engine._state import freeze, thaw
from spec.registry import find_game
from spec.solver._certain import decide


def _quantiles(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"n": 0}
    xs = sorted(xs)
    at = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))]  # noqa: E731 - a one-line helper
    return {"n": len(xs), "median": statistics.median(xs), "p90": at(0.9), "p99": at(0.99),
            "max": xs[-1], "total": sum(xs)}


class _Timed:
    """The engine's questions, timed: each top-level call of ``Engine.certain``."""

    def __init__(self, eng: Engine) -> None:
        self.times: list[float] = []
        self.undecided = 0
        self.sure = 0
        self._eng = eng

    def __call__(self, s: Any, seat: int, undecided: bool = False) -> bool:
        eng = self._eng
        if eng._deciding:  # asked while deciding: answered at once, not counted
            return False
        start = time.process_time()
        answer, _why = decide(View(freeze(thaw(s)), seat))
        self.times.append(time.process_time() - start)
        self.undecided += answer is None
        self.sure += answer is True
        return undecided if answer is None else answer


def _deal(game: Game, seed: int, bots: str) -> float:
    start = time.process_time()
    if bots == "random":
        play_deal(game, seed=seed)
    else:
        bot = low_bidder(0.5)
        play_deal(game, seed=seed, bots=[bot] * game.players)
    return time.process_time() - start


def measure(game: Game, variant: str, deals: int, bots: str) -> dict[str, Any]:
    """Play ``deals`` deals with and without ``variant`` and time them and their questions."""
    judged = game.with_variants(variant)
    eng = engine_for(judged)
    timed = _Timed(eng)
    eng.certain = timed  # type: ignore[method-assign]  # the engine's own decision, timed
    engine_for(game)
    with_variant, without = [], []
    for seed in range(deals):
        with_variant.append(_deal(judged, seed, bots))
        without.append(_deal(game, seed, bots))
    return {"game": game.key, "variant": variant, "bots": bots, "deals": deals,
            "per_deal": _quantiles(with_variant), "per_deal_without": _quantiles(without),
            "per_decision": _quantiles(timed.times), "undecided": timed.undecided,
            "sure": timed.sure}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="304")
    p.add_argument("--variant", default="caps_when_certain")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--bots", choices=("random", "low", "both"), default="both")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    game = find_game(args.game)
    runs = [measure(game, args.variant, args.deals, b)
            for b in (("random", "low") if args.bots == "both" else (args.bots,))]
    if args.json:
        print(json.dumps(runs, indent=1))
        return 0
    for r in runs:
        print(f"{r['game']} + {r['variant']}, {r['deals']} deals, bots {r['bots']}:")
        for name in ("per_deal", "per_deal_without", "per_decision"):
            q = r[name]
            if q["n"]:
                print(f"  {name:17} n={q['n']:6}  median {q['median']:.4f}s  p90 {q['p90']:.4f}s"
                      f"  p99 {q['p99']:.4f}s  max {q['max']:.4f}s  total {q['total']:.1f}s")
        print(f"  sure {r['sure']}, undecided {r['undecided']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())