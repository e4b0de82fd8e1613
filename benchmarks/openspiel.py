"""Our games through OpenSpiel: what the adapter costs a decision, and how much an OpenSpiel
IS-MCTS bot wins over the random bot.

Run from the repository root (needs ``pip install '.[openspiel]'``)::

    python benchmarks/openspiel.py overhead                  # every game, 200 deals, 5 runs
    python benchmarks/openspiel.py margin --game preference --deals 100 --simulations 100

``overhead``: the same random deals (the same pack, the same choices) played through the
engine (``legal_actions`` and ``apply``) and through OpenSpiel (``legal_actions`` and
``apply_action`` on a ``pyspiel`` state), timed in the same run, each run over every deal;
the figures are the medians of ``--runs`` runs, in microseconds a decision (CPU time), and
their difference, the adapter's cost.

``margin``: each deal (its pack drawn from ``--seed``, ``--seed + 1`` ...) is played once with
every seat the random bot (the baseline) and once with OpenSpiel's IS-MCTS bot
(``open_spiel.python.algorithms.ismcts``, random roll-outs, hidden cards drawn from what its
seat has seen by ``resample_from_infostate``) in one seat, the seat of deal k being seat k
modulo the players.  The figure of a deal is the IS-MCTS seat's score less the baseline's
score for that seat: a paired difference over the same cards.  The margin is their mean with
a 95% confidence interval (mean ± 1.96 standard errors).  Nothing fails when the bot does not
win: the figures are for reading.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import verifier.openspiel as ospiel
from spec.engine import Phase, apply, legal_actions
from spec.registry import GAMES


def _pack(game: pyspiel.Game, seed: int) -> list[int]:
    order = list(range(game.max_chance_outcomes()))
    random.Random(seed).shuffle(order)
    return order


def _dealt(game: pyspiel.Game, seed: int) -> pyspiel.State:
    s = game.new_initial_state()
    for card in _pack(game, seed):
        s.apply_action(card)
    return s


def overhead(key: str, deals: int, runs: int) -> dict[str, Any]:
    """Microseconds a decision through the engine and through OpenSpiel, medians of runs."""
    game = pyspiel.load_game(ospiel.game_name(key))
    starts = [_dealt(game, seed) for seed in range(deals)]
    engine_us, spiel_us, decisions = [], [], 0
    for _ in range(runs):
        rng = random.Random(0)
        count = 0
        t = time.process_time()
        for start in starts:
            s = start.engine_state
            while s.phase is not Phase.OVER:
                s = apply(s, rng.choice(legal_actions(s)))
                count += 1
        engine_us.append((time.process_time() - t) / count * 1e6)
        rng = random.Random(0)
        t = time.process_time()
        for start in starts:
            s = start.clone()
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
        spiel_us.append((time.process_time() - t) / count * 1e6)
        decisions = count
    e, o = statistics.median(engine_us), statistics.median(spiel_us)
    return {"game": key, "deals": deals, "decisions": decisions, "engine_us": round(e, 2),
            "openspiel_us": round(o, 2), "adapter_us": round(o - e, 2), "ratio": round(o / e, 2)}


def _play(state: pyspiel.State, bots: list[Any], rng: random.Random) -> list[float]:
    s = state.clone()
    while not s.is_terminal():
        bot = bots[s.current_player()]
        s.apply_action(rng.choice(s.legal_actions()) if bot is None else bot.step(s))
    return s.returns()  # type: ignore[no-any-return]


def margin(key: str, deals: int, seed: int, simulations: int) -> dict[str, Any]:
    """The paired margin of IS-MCTS over the random bot in game ``key``."""
    game = pyspiel.load_game(ospiel.game_name(key))
    n = game.num_players()
    diffs: list[float] = []
    started = time.process_time()
    for k in range(deals):
        start = _dealt(game, seed + k)
        seat = k % n
        base = _play(start, [None] * n, random.Random(seed + k))
        # inconsistent action sets allowed, as a guard: the information state includes the
        # actions a seat may take (a rule may make their legality read what it does not
        # see), so states with one information state offer the same ones
        bot = ismcts.ISMCTSBot(
            game=game, uct_c=2.0, max_simulations=simulations,
            evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + k)),
            random_state=np.random.RandomState(seed + k), allow_inconsistent_action_sets=True)
        bots: list[Any] = [None] * n
        bots[seat] = bot
        with_bot = _play(start, bots, random.Random(seed + k))
        diffs.append(with_bot[seat] - base[seat])
        if (k + 1) % 10 == 0 or sys.stderr.isatty():
            mean, half = _margin(diffs)
            print(f"  {key}: {k + 1}/{deals} deals, margin {mean:+.3f} ± {half:.3f}",
                  file=sys.stderr, flush=True)
    mean, half = _margin(diffs)
    return {"game": key, "deals": len(diffs), "simulations": simulations, "margin": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "cpu_s_a_deal": round((time.process_time() - started) / max(1, deals), 2)}


def _margin(xs: list[float]) -> tuple[float, float]:
    if len(xs) < 2:
        return (xs[0] if xs else 0.0), float("inf")
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    o = sub.add_parser("overhead", help="the adapter's cost a decision")
    o.add_argument("--game", choices=sorted(GAMES), action="append", help="a game (default: all)")
    o.add_argument("--deals", type=int, default=200, help="random deals a run (default 200)")
    o.add_argument("--runs", type=int, default=5, help="runs; medians are quoted (default 5)")
    m = sub.add_parser("margin", help="IS-MCTS against the random bot")
    m.add_argument("--game", choices=sorted(GAMES), action="append", help="a game (default: all)")
    m.add_argument("--deals", type=int, default=100, help="deals a game (default 100)")
    m.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    m.add_argument("--simulations", type=int, default=100,
                   help="IS-MCTS simulations a decision (default 100)")
    for p in (o, m):
        p.add_argument("--json", action="store_true", help="one JSON object a game")
    args = parser.parse_args(argv)
    for key in args.game or sorted(GAMES):
        if args.what == "overhead":
            out = overhead(key, args.deals, args.runs)
            text = (f"{key:<11} {out['decisions']:>7} decisions  engine {out['engine_us']:7.1f} µs  "
                    f"OpenSpiel {out['openspiel_us']:7.1f} µs  adapter +{out['adapter_us']:.1f} µs "
                    f"({out['ratio']:.2f}×)")
        else:
            out = margin(key, args.deals, args.seed, args.simulations)
            text = (f"{key:<11} {out['deals']} deals, IS-MCTS ({out['simulations']} simulations) "
                    f"less random: {out['margin']:+.3f} a deal, 95% CI "
                    f"[{out['ci95'][0]:+.3f}, {out['ci95'][1]:+.3f}]  ({out['cpu_s_a_deal']} s CPU a deal)")
        print(json.dumps(out) if args.json else text, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
