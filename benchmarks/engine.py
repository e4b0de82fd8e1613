"""How fast the engine plays each game, against its targets and OpenSpiel, and how much
memory a full check takes.

Run from the repository root::

    python benchmarks/engine.py                 # every game, then `python -m verifier check`
    python benchmarks/engine.py --game 304 --deals 1000 --repeats 3 --no-check --json

Every figure is the median of ``--repeats`` runs of ``--deals`` random deals (seeds
``--seed``, ``--seed + 1`` ...) on one core, after a warm-up that also compiles the rules:

* **per action**: the public API, a deal dealt by ``new_deal`` and played by calling
  ``legal_actions(state)`` and ``apply(state, action)`` with the random bot's choice
  (``pick``), action by action, to the end: complete deals per second and the mean µs per
  decision (the deal's time over its actions, the dealing included); then, from a run
  that times each call, the µs per ``legal_actions`` call and per ``apply`` call.
* **fast path**: ``play_deal`` with the random bots, which plays the same deals (the same
  draws) on one working state without a state or a check per action
  (``Engine.random_playout``), and its speed-up over the per-action API.  Then what a deal
  costs both paths alike (the deal from its seed and the bots' generator seeded, which
  every record depends on) and the speed-up of the rest: a game of few cards spends a
  larger share of a deal there, which bounds its speed-up.  The same two figures for the
  play of the cards alone, from the positions after the auction.
* **OpenSpiel**, when ``pyspiel`` imports: complete random bridge deals per second through
  its Python API (``legal_actions``, ``apply_action``, chance outcomes drawn the same way)
  measured in this run, and its µs per decision (a deal's time over its players'
  decisions, as for trickspec); then Vint's per-action deals/s over OpenSpiel's, against
  the target of at least level.  ``load_game("bridge")`` scores the auction by double-dummy
  analysis without playing the cards, so the comparable figure is
  ``bridge(use_double_dummy_result=false)``, which plays them; the default's figure is
  shown too, from a few deals.
* the peak resident memory of ``python -m verifier check GAME...`` in a child process.

With ``--batch``, the batch back end instead (:mod:`spec.batch`), for each game whose play
it runs: complete random deals per second on one core, ``--batch-size`` deals at a time
(where the batch runs every step before the play, it deals, bids, plays and scores them
itself; elsewhere the engine deals and bids each deal and the batch plays the cards),
compiled by numba where it is installed, then by numpy alone; the memory a deal in flight
takes at its peak
(numpy's allocations traced during one batch, over its deals) and the batch size that fits
in 1 GiB; beside OpenSpiel's bridge in the same run, against at least 20x its deals/s for
Vint and 100,000 deals/s for every other game.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from spec.dsl._build import Game
from spec.engine import (
    Phase,
    State,
    apply,
    legal_actions,
    new_deal,
    pick,
    play_deal,
    play_on,
)
from spec.engine._deal import int_seeded
from spec.errors import NotationError
from spec.registry import GAMES, find_game

WARM_UP_DEALS = 200
CHECK_COMMAND = (sys.executable, "-m", "verifier", "check")
# complete deals per second through the per-action API, by game key
PER_ACTION_TARGET = {"vint": 5_000, "304": 3_000, "crescendo": 10_000, "preference": 5_000,
                     "wiezen": 5_000}  # Wiezen: the 52 cards and four hands of Vint
# the games whose per-action deals/s should be at least OpenSpiel's bridge in the same run
LEVEL_WITH_OPENSPIEL = frozenset({"vint"})
FAST_PATH_TARGET = 2.0  # the fast path's speed-up over the per-action API, at least
OPENSPIEL_GAME = "bridge(use_double_dummy_result=false)"
OPENSPIEL_DEFAULT_DEALS = 5


def _per_action(game: Game, seed: int) -> int:
    """One deal dealt and played through the per-action API; its number of actions."""
    state = new_deal(game, seed=seed)
    rng = random.Random(seed)
    actions = 0
    while state.phase is not Phase.OVER:
        legal = legal_actions(state)
        state = apply(state, legal[pick(rng, len(legal))])
        actions += 1
    return actions


def _fast_path(game: Game, seeds: range) -> int:
    """The same deals by ``play_deal`` with the random bots, each final state dropped as
    the per-action loop drops its states (a list of them all would weigh on the garbage
    collector of this run alone)."""
    for s in seeds:
        play_deal(game, seed=s)
    return len(seeds)


def _shared(game: Game, seeds: range) -> int:
    """What every deal costs both paths alike: the deal from its seed (``new_deal``) and
    the bots' generator seeded from it, as ``play_deal`` seeds it."""
    for s in seeds:
        new_deal(game, seed=s)
        int_seeded(s)
    return len(seeds)


def _median_run(run: Callable[[Any], Any], repeats: int,
                setup: Callable[[], Any] = lambda: None) -> tuple[float, Any]:
    """The median time of ``repeats`` calls of ``run`` (each given what an untimed call of
    ``setup`` returns), and what the last returned."""
    times, out = [], None
    for _ in range(repeats):
        arg = setup()
        start = time.perf_counter()
        out = run(arg)
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def _timer_cost() -> float:
    """What one ``perf_counter`` pair costs, to take off the calls timed one by one."""
    pc = time.perf_counter
    n = 20_000
    start = pc()
    for _ in range(n):
        pc()
        pc()
    return (pc() - start) / n


def _call_costs(game: Game, deals: int, seed: int) -> tuple[float, float]:
    """µs per ``legal_actions`` call and per ``apply`` call, each call timed in the loop."""
    pc = time.perf_counter
    spent_legal = spent_apply = 0.0
    calls = 0
    for s in range(seed, seed + deals):
        state = new_deal(game, seed=s)
        rng = random.Random(s)
        while state.phase is not Phase.OVER:
            t0 = pc()
            legal = legal_actions(state)
            t1 = pc()
            action = legal[pick(rng, len(legal))]
            t2 = pc()
            state = apply(state, action)
            t3 = pc()
            spent_legal += t1 - t0
            spent_apply += t3 - t2
            calls += 1
    timer = _timer_cost() / 2
    return (spent_legal / calls - timer) * 1e6, (spent_apply / calls - timer) * 1e6


def _after_auction(game: Game, seed: int) -> tuple[State, random.Random] | None:
    """A deal dealt and bid by the random bots, as ``play_deal`` would, up to the first card."""
    state = new_deal(game, seed=seed)
    rng = random.Random(seed)
    while state.phase is not Phase.PLAY:
        if state.phase is Phase.OVER:
            return None
        actions = legal_actions(state)
        state = apply(state, actions[pick(rng, len(actions))])
    return state, rng


def _card_play(starts: list[tuple[State, random.Random]], fast: bool) -> int:
    """The play of the cards from each position, by ``play_on`` or action by action."""
    for state, rng in starts:
        if fast:
            play_on(state, rng)
        else:
            while state.phase is not Phase.OVER:
                legal = legal_actions(state)
                state = apply(state, legal[pick(rng, len(legal))])
    return len(starts)


def _copies(starts: list[tuple[State, Any]]) -> list[tuple[State, random.Random]]:
    """Each position with a fresh generator in the state its deal's left it in."""
    out = []
    for state, rng_state in starts:
        rng = random.Random(0)
        rng.setstate(rng_state)
        out.append((state, rng))
    return out


def measure_game(game: Game, deals: int, seed: int, repeats: int) -> dict[str, Any]:
    """Every engine figure of one game."""
    seeds = range(seed, seed + deals)
    for s in range(seed, seed + min(deals, WARM_UP_DEALS)):
        _per_action(game, s)
        play_deal(game, seed=s)
    per_action_s, actions = _median_run(lambda _: sum(_per_action(game, s) for s in seeds),
                                        repeats)
    fast_s, _ = _median_run(lambda _: _fast_path(game, seeds), repeats)
    shared_s, _ = _median_run(lambda _: _shared(game, seeds), repeats)
    legal_us, apply_us = _call_costs(game, min(deals, 1000), seed)
    starts = [(state, rng.getstate())
              for state, rng in filter(None, (_after_auction(game, s) for s in seeds))]
    cards_per_action_s, _ = _median_run(lambda st: _card_play(st, fast=False), repeats,
                                        lambda: _copies(starts))
    cards_fast_s, _ = _median_run(lambda st: _card_play(st, fast=True), repeats,
                                  lambda: _copies(starts))
    target = PER_ACTION_TARGET.get(game.key)
    return {
        "game": game.key, "deals": deals, "seed": seed, "repeats": repeats,
        "per_action": {
            "deals_per_second": deals / per_action_s, "target_deals_per_second": target,
            "actions_per_deal": actions / deals,
            "us_per_decision": per_action_s / actions * 1e6,
            "us_per_legal_actions": legal_us, "us_per_apply": apply_us,
        },
        "fast_path": {
            "deals_per_second": deals / fast_s, "speedup": per_action_s / fast_s,
            "target_speedup": FAST_PATH_TARGET,
            # the part of a deal both paths spend alike, and the speed-up of the rest
            "us_shared_per_deal": shared_s / deals * 1e6,
            "speedup_past_shared": (per_action_s - shared_s) / (fast_s - shared_s),
        },
        "card_play": {
            "positions": len(starts),
            "per_action_deals_per_second": len(starts) / cards_per_action_s,
            "fast_deals_per_second": len(starts) / cards_fast_s,
            "speedup": cards_per_action_s / cards_fast_s, "target_speedup": FAST_PATH_TARGET,
        },
    }


def measure_openspiel(deals: int, seed: int, repeats: int) -> dict[str, Any]:
    """Complete random bridge deals per second through OpenSpiel's Python API, or why not."""
    try:
        import pyspiel  # type: ignore[import-not-found]  # optional, for the comparison only
    except ImportError as exc:
        return {"error": f"pyspiel is not importable ({exc}); pip install open_spiel to compare"}

    def play(game: Any, s: int) -> int:
        """One random deal; its number of decisions (the chance outcomes not counted)."""
        rng = random.Random(s)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[pick(rng, len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[pick(rng, len(legal))])
                decisions += 1
        return decisions

    out: dict[str, Any] = {"game": OPENSPIEL_GAME, "version": getattr(pyspiel, "__version__", "?")}
    game = pyspiel.load_game(OPENSPIEL_GAME)
    for s in range(seed, seed + min(deals, WARM_UP_DEALS)):
        play(game, s)
    seconds, counts = _median_run(
        lambda _: [play(game, s) for s in range(seed, seed + deals)], repeats)
    out["deals_per_second"] = deals / seconds
    # as trickspec's figure: the deal's time over its decisions, the dealing included
    out["decisions_per_deal"] = sum(counts) / deals
    out["us_per_decision"] = seconds / deals / out["decisions_per_deal"] * 1e6
    default = pyspiel.load_game("bridge")
    seconds = _median_run(lambda _: [play(default, s) for s in range(OPENSPIEL_DEFAULT_DEALS)],
                          1)[0]
    out["default_bridge_deals_per_second"] = OPENSPIEL_DEFAULT_DEALS / seconds
    return out


BATCH_TARGET_OVER_OPENSPIEL = {"vint": 20.0}
BATCH_TARGET = 100_000  # complete deals/s of every other game
GIB = 1 << 30


def measure_batch(game: Game, deals: int, seed: int, repeats: int, size: int) -> dict[str, Any]:
    """The batch back end's figures for ``game`` (see the module), or why it has none."""
    import tracemalloc

    import numpy as np

    from spec.batch import NotBatchable, play_batch, random_policy
    from spec.engine import engine_for

    eng = engine_for(game)
    try:
        batch = eng.batch()
    except NotBatchable as e:
        return {"game": game.key, "error": f"the batch does not run its play: {e}"}
    chunks = [range(k, min(k + size, seed + deals)) for k in range(seed, seed + deals, size)]
    play_batch(eng, range(seed, seed + min(deals, WARM_UP_DEALS)))  # compiles the rules
    # a deal handed back (thrown in) is played on by the engine: scores() finishes it
    whole = _median_run(lambda _: [play_batch(eng, c, seed=seed).scores() for c in chunks],
                        repeats)[0]
    out: dict[str, Any] = {"game": game.key, "deals": deals, "repeats": repeats,
                           "batch_size": size, "deals_per_second": deals / whole,
                           "dealt_by_the_batch": batch.deals_whole}
    out["compiled"] = batch.kernel() is not None
    if batch.deals_whole:  # numpy alone: dealing, bidding, playing and scoring
        numbers = [np.arange(c.start, c.stop) for c in chunks]
        alone = _median_run(lambda _: [batch.run(batch.deal(n, seed, compiled=False),
                                                 random_policy(seed), compiled=False)
                                       for n in numbers], repeats)[0]
        out["numpy_deals_per_second"] = deals / alone
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    played = play_batch(eng, chunks[0], seed=seed)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    out["bytes_per_deal"] = per_deal = peak / len(chunks[0])
    out["batch_size_in_1_gib"] = int(GIB // max(1.0, per_deal))
    out["handed_back"] = len(played.handed_back)
    return out


def _print_batch(figures: list[dict[str, Any]], spiel: dict[str, Any] | None) -> None:
    rate = None if spiel is None or "error" in spiel else spiel["deals_per_second"]
    if rate is not None:
        print(f"openspiel: {spiel['game']} (open_spiel {spiel['version']}): "  # type: ignore[index]
              f"{rate:,.0f} complete random deals/s in this run")
    elif spiel is not None:
        print(f"openspiel: not measured: {spiel['error']}")
    for f in figures:
        if "error" in f:
            print(f"batch: {f['game']}: not measured: {f['error']}")
            continue
        over = BATCH_TARGET_OVER_OPENSPIEL.get(f["game"])
        print(f"batch: {f['game']}, {f['deals']:,} random deals in batches of {f['batch_size']:,}, "
              f"median of {f['repeats']} runs, one core")
        if over is not None and rate is not None:
            print(f"  complete  {f['deals_per_second']:10,.0f} deals/s, "
                  f"{f['deals_per_second'] / rate:.2f}x OpenSpiel "
                  f"{_beside(f['deals_per_second'] / rate, over, 'x')}")
        else:
            print(f"  complete  {f['deals_per_second']:10,.0f} deals/s "
                  f"{_beside(f['deals_per_second'], BATCH_TARGET if over is None else None)}")
        how = ("compiled by numba from the steps" if f["compiled"]
               else "numpy (numba is not installed, or does not run this game)")
        print(f"            {how}; no records written")
        if "numpy_deals_per_second" in f:
            print(f"  numpy     {f['numpy_deals_per_second']:10,.0f} deals/s (the interpreter over "
                  f"columns alone, without numba)")
        else:
            print("            (the engine deals and bids each deal; the batch plays the cards)")
        print(f"  memory    {f['bytes_per_deal']:10,.0f} bytes a deal in flight at the peak; "
              f"{f['batch_size_in_1_gib']:,} deals fit in 1 GiB; {f['handed_back']} of "
              f"{f['batch_size']:,} handed back to the engine")


def _max_rss_bytes(kilo_or_bytes: int) -> int:
    # getrusage reports kilobytes on Linux and bytes on macOS
    return kilo_or_bytes if sys.platform == "darwin" else kilo_or_bytes * 1024


def _reached_verdict(returncode: int, stderr: str) -> bool:
    """Whether the check ran to the end: exit 0 (all hold) or 1 (a property is violated).

    Python itself also exits 1 on an uncaught exception or a missing ``-m`` module, so
    those are told apart by what they print.  Exit 2 is an error or an unknown verdict.
    """
    if returncode == 0:
        return True
    crashed = "Traceback (most recent call last)" in stderr or "No module named" in stderr
    return returncode == 1 and not crashed


def measure_check(timeout: float, games: list[str]) -> dict[str, Any]:
    """Run the full check of ``games`` in a child process; report its peak memory.

    ``RUSAGE_CHILDREN`` gives the peak of the largest child waited for, and this script
    starts no other child, so it is the check's own peak.
    """
    command = [*CHECK_COMMAND, *games]
    out: dict[str, Any] = {"command": command, "peak_rss_mb": None,
                           "returncode": None, "seconds": None, "error": None}
    start = time.perf_counter()
    try:
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        out["error"] = f"timed out after {timeout:g} s"
        return out
    except OSError as exc:  # the interpreter itself could not be started
        out["error"] = str(exc)
        return out
    out["seconds"] = time.perf_counter() - start
    out["returncode"] = done.returncode
    if not _reached_verdict(done.returncode, done.stderr):
        lines = done.stderr.strip().splitlines()
        out["error"] = lines[-1] if lines else f"exit status {done.returncode}, no stderr"
        return out
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out["peak_rss_mb"] = _max_rss_bytes(peak) / 1e6
    return out


def _beside(value: float, target: float | None, unit: str = "") -> str:
    if target is None:
        return "(no target)"
    mark = "met" if value >= target else "MISSED"
    shown = f"{target:,.0f}" if float(target).is_integer() else f"{target:,.4g}"
    return f"(target >= {shown}{unit}: {mark})"


def _print_report(figures: list[dict[str, Any]], spiel: dict[str, Any] | None,
                  check: dict[str, Any] | None) -> None:
    for f in figures:
        pa, fp, cp = f["per_action"], f["fast_path"], f["card_play"]
        print(f"engine: {f['game']}, {f['deals']:,} random deals, median of {f['repeats']} "
              f"runs, one core")
        print(f"  per action   {pa['deals_per_second']:8,.0f} deals/s "
              f"{_beside(pa['deals_per_second'], pa['target_deals_per_second'])}")
        print(f"               {pa['us_per_decision']:8.2f} µs per decision (mean over "
              f"{pa['actions_per_deal']:.1f} actions a deal, dealing included)")
        print(f"               {pa['us_per_legal_actions']:8.2f} µs per legal_actions call, "
              f"{pa['us_per_apply']:.2f} µs per apply call")
        print(f"  fast path    {fp['deals_per_second']:8,.0f} deals/s, {fp['speedup']:.2f}x the "
              f"per-action API {_beside(fp['speedup'], fp['target_speedup'], 'x')}")
        print(f"               {fp['us_shared_per_deal']:8.2f} µs a deal spent alike by both (the "
              f"deal, the bots' generator); the rest {fp['speedup_past_shared']:.2f}x")
        print(f"  card play    {cp['fast_deals_per_second']:8,.0f} deals/s fast, "
              f"{cp['per_action_deals_per_second']:,.0f} per action: {cp['speedup']:.2f}x "
              f"{_beside(cp['speedup'], cp['target_speedup'], 'x')}")
    if spiel is not None:
        if "error" in spiel:
            print(f"openspiel: not measured: {spiel['error']}")
        else:
            print(f"openspiel: {spiel['game']} (open_spiel {spiel['version']}): "
                  f"{spiel['deals_per_second']:,.0f} complete random deals/s, "
                  f"{spiel['us_per_decision']:.2f} µs per decision (mean over "
                  f"{spiel['decisions_per_deal']:.1f} decisions a deal, the dealing of the 52 "
                  f"cards one by one by chance included); load_game('bridge'), which "
                  f"scores the auction double-dummy without playing the cards: "
                  f"{spiel['default_bridge_deals_per_second']:,.1f} deals/s")
            for f in figures:
                if f["game"] in LEVEL_WITH_OPENSPIEL:
                    level = f["per_action"]["deals_per_second"] / spiel["deals_per_second"]
                    print(f"  {f['game']} per action: {level:.2f}x OpenSpiel's deals/s "
                          f"{_beside(level, 1.0, 'x')}")
    if check is None:
        return
    command = " ".join(["python"] + check["command"][1:])
    if check["error"] is not None:
        print(f"check:  could not be measured ({command}): {check['error']}")
        return
    verdict = "all hold" if check["returncode"] == 0 else "a property is violated"
    print(f"check:  {command}: {check['seconds']:.1f} s, {verdict}")
    print(f"        peak memory (max RSS) {check['peak_rss_mb']:,.1f} MB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2_000,
                        help="deals in each timed run (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="timed runs of each figure, the median reported (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the first deal; deal k uses seed + k (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--game", action="append", default=[], metavar="GAME",
                        help="a game to time (repeatable; default: every registered game)")
    parser.add_argument("--no-openspiel", action="store_true",
                        help="skip the OpenSpiel comparison")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the memory measurement of the full check")
    parser.add_argument("--batch", action="store_true",
                        help="time the batch back end (spec.batch) instead")
    parser.add_argument("--batch-size", type=int, default=4_096,
                        help="deals played together with --batch (default: %(default)s)")
    parser.add_argument("--check-timeout", type=float, default=3600.0, metavar="SECONDS",
                        help="give up on the check after this long (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be at least 1")

    try:
        games = [find_game(g) for g in args.game] or list(GAMES.values())
    except NotationError as e:  # an unknown game name: one line, like the CLI
        parser.error(str(e))
    if args.batch:
        batched = [measure_batch(g, args.deals, args.seed, args.repeats, args.batch_size)
                   for g in games]
        spiel = (None if args.no_openspiel
                 else measure_openspiel(min(args.deals, 2_000), args.seed, args.repeats))
        if args.json:
            print(json.dumps({"batch": batched, "openspiel": spiel}, indent=2))
        else:
            _print_batch(batched, spiel)
        return 0
    figures = [measure_game(g, args.deals, args.seed, args.repeats) for g in games]
    spiel = None if args.no_openspiel else measure_openspiel(args.deals, args.seed, args.repeats)
    check = None if args.no_check else measure_check(args.check_timeout, [g.key for g in games])
    if args.json:
        print(json.dumps({"engine": figures, "openspiel": spiel, "check": check}, indent=2))
    else:
        _print_report(figures, spiel, check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
