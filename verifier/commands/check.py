"""``trickspec check``: prove the properties of games with Z3, one process or several."""
from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Generator, Iterator

from spec.dsl._build import Game
from spec.registry import GAMES
from verifier.commands._common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_VIOLATED,
    MAX_RLIMIT,
    MAX_SECONDS,
    Commands,
    Progress,
    arg,
    game_named,
    jobs_arg,
    rlimit_arg,
    seconds_arg,
    whole_number,
)
from verifier.errors import InputError
from verifier.interrupts import worker_pool
from verifier.properties import (
    DEFAULT_RLIMIT,
    Check,
    Options,
    Result,
    Verdict,
    check_game,
    checks_for,
    run_check,
)

MAX_BOUND = 1000  # auction calls unrolled; each is a copy of the auction's formulas
_bound_arg = arg(lambda t: whole_number(t, what="the bound", least=1, most=MAX_BOUND), "bound")


def add_parser(commands: Commands) -> None:
    """``check``: the games to check and the solver's budget."""
    c = commands.add_parser("check", help="prove the properties of games with Z3",
                            description="Prove every property of the named games (all games "
                            "if none). Exit 0: all hold; 1: a property is violated or vacuous; "
                            "2: unknown or bad input.")
    c.add_argument("games", nargs="*", metavar="GAME", help=f"games to check ({', '.join(sorted(GAMES))})")
    c.add_argument("--property", action="append", default=[], metavar="ID",
                   help="check only this property (repeatable)")
    c.add_argument("--variant", action="append", default=[], metavar="ID",
                   help="check the game with this variant in force (repeatable)")
    c.add_argument("--timeout", type=seconds_arg, default=600.0, metavar="S",
                   help="seconds the solver may spend on one query, a backstop behind "
                   f"--rlimit (default 600, at most {MAX_SECONDS:,})")
    c.add_argument("--rlimit", type=rlimit_arg, default=DEFAULT_RLIMIT, metavar="N",
                   help="Z3's resource limit on one query, a count of its own steps: the same "
                   f"verdict on any machine, however busy (default {DEFAULT_RLIMIT:,}, some "
                   "ten times what the hardest property needs; at most "
                   f"{MAX_RLIMIT:,})")
    c.add_argument("--bound", type=_bound_arg, default=64, metavar="N",
                   help=f"most auction calls to unroll (default 64, at most {MAX_BOUND:,})")
    c.add_argument("-j", "--jobs", type=jobs_arg, default=1, metavar="N",
                   help="properties checked at once, in N processes (default 1; the times "
                   "shown then include waiting for a core)")
    c.add_argument("--json", action="store_true", help="print the results as JSON (the same "
                   "bytes on any machine, with any -j)")
    c.add_argument("--timings", action="store_true",
                   help="with --json: add each property's seconds, which vary from run to run")
    c.add_argument("--list", action="store_true",
                   help="list the properties that would be checked (id, kind, the rules each "
                   "covers and its statement), checking none (so -j, --timings and the "
                   "solver's limits have nothing to do); with --json, as JSON")
    c.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Check the games' properties, printing each result as it comes (or all of them as
    JSON at the end); exit 1 when one is violated or vacuous, 2 when one is unknown."""
    names = args.games or sorted(GAMES)
    games = [game_named(n, args.variant) for n in names]
    opts = Options(timeout=args.timeout, bound=args.bound, rlimit=args.rlimit)
    all_results: dict[str, list[Result]] = {}
    known: dict[str, set[str]] = {}
    for game in games:  # every game's properties known before any is checked
        known[game.key] = ids = {c.id for c in checks_for(game)}
        for p in args.property:
            if p not in ids:
                raise InputError(f"{game.key} has no property {p!r} (known: {', '.join(sorted(ids))})")
    if args.list:
        return _list(games, args)
    started = time.perf_counter()
    # with --json nothing is printed until the end: a count on a terminal meanwhile
    progress = Progress(sum(len(args.property) or len(known[g.key]) for g in games),
                        "properties checked", after=2.0) if args.json else None
    parallel = (_check_in_parallel(games, tuple(args.property), opts, args.jobs)
                if args.jobs > 1 else None)
    try:
        for game in games:
            _check_printed(game, args, opts, known[game.key], parallel, all_results, progress)
        if parallel is not None:
            next(parallel, None)  # every result is in: the workers end as they would
    finally:
        if parallel is not None:
            parallel.close()
        if progress is not None:
            progress.close()
    flat = [r for rs in all_results.values() for r in rs]
    code = EXIT_OK
    if any(r.verdict in (Verdict.VIOLATED, Verdict.VACUOUS) for r in flat):
        code = EXIT_VIOLATED
    if any(r.verdict is Verdict.UNKNOWN for r in flat):
        code = max(code, EXIT_ERROR) if code == EXIT_OK else code
    if args.json:
        json.dump({"games": {k: [r.to_json(timings=args.timings) for r in rs]
                             for k, rs in all_results.items()},
                   "exit": code}, sys.stdout, indent=2)
        print()
    else:
        counts = {v: sum(r.verdict is v for r in flat) for v in Verdict}
        # the time the run took; with workers, also the time they spent, which adds up the
        # processes (and their waits for a core)
        wall = time.perf_counter() - started
        spent = (f"; the workers spent {sum(r.seconds for r in flat):.1f}s"
                 if parallel is not None else "")
        vacuous = f"{counts[Verdict.VACUOUS]} vacuous, " if counts[Verdict.VACUOUS] else ""
        print(f"{counts[Verdict.HOLDS]} hold, {counts[Verdict.VIOLATED]} violated, {vacuous}"
              f"{counts[Verdict.UNKNOWN]} unknown ({wall:.1f}s{spent})")
    return code


def _list(games: list[Game], args: argparse.Namespace) -> int:
    """``check --list``: each game's properties (those named by --property, else all),
    checked by none."""
    listed = {game.key: [c for c in checks_for(game)
                         if not args.property or c.id in args.property] for game in games}
    if args.json:
        json.dump({"games": {key: [{"id": c.id, "kind": c.kind, "finding": c.finding,
                                    "covers": list(c.covers), "text": c.text} for c in checks]
                             for key, checks in listed.items()},
                   "variants": list(args.variant)}, sys.stdout, indent=2)
        print()
        return EXIT_OK
    for game in games:
        checks = listed[game.key]
        variants = f" with {', '.join(game.active_variants)}" if game.active_variants else ""
        print(f"{game.key}{variants}: {len(checks)} propert{'y' if len(checks) == 1 else 'ies'}")
        width = max((len(c.id) for c in checks), default=0)
        for c in checks:
            tag = "finding " if c.finding else ""
            print(f"  {c.id:{width}}  {c.kind:8}  {tag}{c.text}")
            if c.covers:
                print(f"  {'':{width}}  {'':8}  covers: {', '.join(c.covers)}")
    return EXIT_OK


def _print_result(r: Result, name_width: int) -> None:
    tag = "finding " if r.finding and r.verdict is Verdict.HOLDS else ""
    line = f"  {r.verdict.value:8}  {r.id:{name_width}}  {r.seconds:6.2f}s  {tag}{r.text}"
    print(line, flush=True)
    if r.detail:
        print(f"  {'':8}  {'':{name_width}}           {r.detail}", flush=True)
    if r.playthrough is not None:
        kind = "example" if r.verdict is Verdict.HOLDS else "counterexample"
        print(f"      {kind}" + (" (replayed in the engine)" if r.playthrough.replayed else "") + ":")
        for ln in r.playthrough.lines:
            print("        " + ln)


@functools.cache
def _worker_game(key: str, variants: tuple[str, ...]) -> tuple[Game, dict[str, Check]]:
    """In a worker process: the game and its checks by id."""
    game = game_named(key, variants)
    return game, {c.id: c for c in checks_for(game)}


def _check_one(key: str, variants: tuple[str, ...], check_id: str, opts: Options) -> Result:
    """One property of a game, in a worker process (checks hold closures: sent by id), in a
    Z3 context of its own as every check is."""
    game, checks = _worker_game(key, variants)
    return run_check(game, checks[check_id], opts)


def _check_in_parallel(games: list[Game], only: tuple[str, ...], opts: Options,
                       jobs: int) -> Generator[Iterator[Result], None, None]:
    """The properties of each game (or only those named), checked in ``jobs`` processes
    that take the next property of any game as soon as they are free: for each game in
    turn, its results in the order of :func:`checks_for`, each as soon as it is done."""
    tasks = [[(g.key, g.active_variants, c.id) for c in checks_for(g) if not only or c.id in only]
             for g in games]
    workers = min(jobs, sum(len(t) for t in tasks) or 1)
    with worker_pool(workers) as pool:  # closed early (Ctrl-C): the workers are ended
        futures = [[pool.submit(_check_one, key, variants, i, opts) for key, variants, i in t]
                   for t in tasks]
        for fs in futures:
            yield (f.result() for f in fs)


def _check_printed(game: Game, args: argparse.Namespace, opts: Options, known: set[str],
                   parallel: Generator[Iterator[Result], None, None] | None,
                   all_results: dict[str, list[Result]], progress: Progress | None = None) -> None:
    """Check one game (its results from ``parallel`` when given), printing each result (or
    counting it on ``progress``, with --json)."""
    width = max(len(i) for i in known)
    if not args.json:
        extra = f" with {', '.join(game.active_variants)}" if game.active_variants else ""
        print(f"{game.name}{extra}: checking {len(args.property) or len(known)} properties",
              flush=True)
    if parallel is not None:  # every game's properties at once, printed in order
        results = []
        for r in next(parallel):
            if not args.json:
                _print_result(r, width)
            elif progress is not None:
                progress.step()
            results.append(r)
    else:
        results = check_game(game, only=tuple(args.property), opts=opts,
                             on_result=(lambda r: progress and progress.step()) if args.json
                             else (lambda r: _print_result(r, width)))
    all_results[game.key] = results
