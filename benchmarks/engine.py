"""How fast the engine plays each game, and how much memory a full check takes.

Run from the repository root::

    python benchmarks/engine.py                 # 20,000 deals of each game, then `trickspec check`
    python benchmarks/engine.py --game 304 --deals 2000 --no-check --json

The first figure is complete random deals per second on one core, per game:
``spec.engine.play_deal`` with the random bots, in this process, after a short warm-up
(which also compiles the rules).  The second is the play of the cards alone: the same
deals are bid first, untimed, and only the random play of their tricks is timed (in
games whose play is plain enough for the engine's fast random play; the others play
card by card).  The third is the peak resident memory of
``python -m verifier check GAME...`` run in a child process.  If that command is missing or fails, the script says so, prints
the last line of its stderr and still exits 0: the figures are for reading, not a gate.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from typing import Any

from spec.dsl._build import Game
from spec.engine import (
    Phase,
    State,
    apply,
    engine_for,
    legal_actions,
    new_deal,
    pick,
    play_deal,
    play_on,
)
from spec.registry import GAMES, find_game

WARM_UP_DEALS = 200
CHECK_COMMAND = (sys.executable, "-m", "verifier", "check")


def time_deals(game: Game, deals: int, seed: int) -> dict[str, Any]:
    """Play ``deals`` random deals from seeds ``seed``, ``seed + 1``, ... and time them."""
    for s in range(seed, seed + min(deals, WARM_UP_DEALS)):
        play_deal(game, seed=s)
    start = time.perf_counter()
    for s in range(seed, seed + deals):
        play_deal(game, seed=s)
    seconds = time.perf_counter() - start
    return {
        "game": game.key,
        "deals": deals,
        "seed": seed,
        "seconds": seconds,
        "deals_per_second": deals / seconds,
        "us_per_deal": seconds / deals * 1e6,
    }


def _bid(game: Game, seed: int) -> tuple[State, random.Random] | None:
    """A deal dealt and bid by the random bots, as ``play_deal`` would, up to the first card."""
    state = new_deal(game, seed=seed)
    rng = random.Random(seed)
    while state.phase is not Phase.PLAY:
        if state.phase is Phase.OVER:
            return None
        actions = legal_actions(state)
        state = apply(state, actions[pick(rng, len(actions))])
    return state, rng


def time_card_play(game: Game, deals: int, seed: int) -> dict[str, Any]:
    """Time the random play of the cards alone, from positions after the auction."""
    starts = [x for x in (_bid(game, s) for s in range(seed, seed + deals)) if x is not None]
    fast = engine_for(game)._plain_play
    for state, rng in starts[:WARM_UP_DEALS]:
        play_on(state, random.Random(rng.random()))
    start = time.perf_counter()
    for state, rng in starts:
        play_on(state, rng)
    seconds = time.perf_counter() - start
    return {"game": game.key, "deals": len(starts), "seconds": seconds,
            "deals_per_second": len(starts) / seconds, "fast_random_play": fast}


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


def _print_report(speeds: list[dict[str, Any]], plays: list[dict[str, Any]],
                  check: dict[str, Any] | None) -> None:
    for speed, cards in zip(speeds, plays):
        print(f"engine: {speed['deals']:,} random {speed['game']} deals in {speed['seconds']:.2f} s "
              f"on one core")
        print(f"        {speed['deals_per_second']:,.0f} deals/s, "
              f"{speed['us_per_deal']:,.1f} µs/deal")
        print(f"        the play of the cards alone: {cards['deals_per_second']:,.0f} deals/s "
              f"({'fast random play' if cards['fast_random_play'] else 'card by card'})")
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
    parser.add_argument("--deals", type=int, default=20_000,
                        help="number of deals to time (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the first deal; deal k uses seed + k (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--game", action="append", default=[], metavar="GAME",
                        help="a game to time (repeatable; default: every registered game)")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the memory measurement of `trickspec check`")
    parser.add_argument("--check-timeout", type=float, default=3600.0, metavar="SECONDS",
                        help="give up on the check after this long (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")

    try:
        games = [find_game(g) for g in args.game] or list(GAMES.values())
    except Exception as e:  # an unknown game name: one line, like the CLI
        parser.error(str(e))
    speeds = [time_deals(g, args.deals, args.seed) for g in games]
    plays = [time_card_play(g, args.deals, args.seed) for g in games]
    check = None if args.no_check else measure_check(args.check_timeout, [g.key for g in games])
    if args.json:
        print(json.dumps({"engine": speeds, "card_play": plays, "check": check}, indent=2))
    else:
        _print_report(speeds, plays, check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
