"""The ``trickspec`` command: check, play and replay games; write and read PBN deals.

Every bad input is answered with one line on standard error, ``trickspec: error: ...``,
and exit code 2; the command never shows a traceback unless asked to with ``--debug``.
The exit codes are the table :data:`EXIT_CODES` (also in ``trickspec --help``).
"""
from __future__ import annotations

import argparse
import difflib
import functools
import json
import math
import os
import re
import sys
import time
import traceback
from collections.abc import Generator, Iterable, Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, NoReturn

from spec.constraints import about_play, parse_where
from spec.dsl import _constructs as K
from spec.dsl._build import Game
from spec.dsl._visitor import UnsupportedNodeError
from spec.engine import new_deal, play_deal, play_match, play_pot_session
from spec.errors import NotationError, SpecError, shown
from spec.pbn import (PbnDeal, check_pbn_auctions, check_pbn_game, iter_pbn, read_pbn,
                      write_pbn)
from spec.records import (
    RecordError,
    hands_from_text,
    hands_text,
    json_kind,
    match_json,
    replay_record,
    session_json,
    to_record,
)
from spec.registry import GAMES, find_game
from spec.sheet import play_rubber, render_sheet, rubber_json
from spec.text import hand_lines, render, render_match, render_pot_session
from verifier._z3.solver import FIXTURES_RLIMIT, SEARCH_RLIMIT, Solving
from verifier.deals import deals_where
from verifier.errors import InputError, SolverUnknownError
from verifier.files import made_folder, read_json, read_text, shown_path, write_folder, written
from verifier.fixtures import COVERAGE_FILE, check_folder, fixtures_for, read_coverage
from verifier.interrupts import interrupted, obeyed, worker_pool
from verifier.mutate import DEFAULT_MATCHES, DEFAULT_SEEDS, TARGET_RATE, chosen_mutants, mutate
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
from verifier.scenario import scenarios_where

EXIT_OK, EXIT_VIOLATED, EXIT_ERROR, EXIT_IMPOSSIBLE, EXIT_BUG = 0, 1, 2, 3, 4
EXIT_INTERRUPTED = 130
EXIT_CODES = (
    (EXIT_OK, "everything holds; the record is confirmed; the deals are found"),
    (EXIT_VIOLATED, "a property is violated; the record or a fixture is rejected"),
    (EXIT_ERROR, "unknown (the solver gave no answer); bad input; bad usage"),
    (EXIT_IMPOSSIBLE, "the deals asked for are impossible (proved by Z3)"),
    (EXIT_BUG, "an internal error: a bug in trickspec (--debug shows the traceback)"),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
)
_MESSAGE_CHARS = 1000  # the longest error message; longer ones are cut
_WORD_CHARS = 80  # the longest run of text without a space that a message repeats


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        _say(f"error: {message} (see '{self.prog} --help')")
        self.exit(EXIT_ERROR)


def _one_line(message: str) -> str:
    """A message as one short line: no line breaks or control characters, and no long
    stretch of what the user gave repeated whole (a 100,000-character name, a file)."""
    text = re.sub(r"[\x00-\x1f\x7f]+", " ", message).strip()
    text = re.sub(rf"\S{{{_WORD_CHARS + 1},}}", lambda m: m.group()[:_WORD_CHARS - 1] + "…", text)
    return text if len(text) <= _MESSAGE_CHARS else text[:_MESSAGE_CHARS - 1] + "…"


def _say(message: str) -> None:
    """One line on standard error: ``trickspec: <message>``."""
    print(f"trickspec: {_one_line(message)}", file=sys.stderr, flush=True)


def _version() -> str:
    try:
        return metadata.version("trickspec")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "(version unknown: not installed)"


def _game(name: str, variants: Sequence[str]) -> Game:
    game = find_game(name)
    return game.with_variants(*variants) if variants else game


# -- check ----------------------------------------------------------------------------

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
    game = _game(key, variants)
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
                   all_results: dict[str, list[Result]]) -> None:
    """Check one game (its results from ``parallel`` when given), printing each result."""
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
            results.append(r)
    else:
        results = check_game(game, only=tuple(args.property), opts=opts,
                             on_result=None if args.json else (lambda r: _print_result(r, width)))
    all_results[game.key] = results


def cmd_check(args: argparse.Namespace) -> int:
    names = args.games or sorted(GAMES)
    games = [_game(n, args.variant) for n in names]
    opts = Options(timeout=args.timeout, bound=args.bound, rlimit=args.rlimit)
    all_results: dict[str, list[Result]] = {}
    known: dict[str, set[str]] = {}
    for game in games:  # every game's properties known before any is checked
        known[game.key] = ids = {c.id for c in checks_for(game)}
        for p in args.property:
            if p not in ids:
                raise InputError(f"{game.key} has no property {p!r} (known: {', '.join(sorted(ids))})")
    parallel = (_check_in_parallel(games, tuple(args.property), opts, args.jobs)
                if args.jobs > 1 else None)
    try:
        for game in games:
            _check_printed(game, args, opts, known[game.key], parallel, all_results)
        if parallel is not None:
            next(parallel, None)  # every result is in: the workers end as they would
    finally:
        if parallel is not None:
            parallel.close()
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
        total = sum(r.seconds for r in flat)
        vacuous = f"{counts[Verdict.VACUOUS]} vacuous, " if counts[Verdict.VACUOUS] else ""
        print(f"{counts[Verdict.HOLDS]} hold, {counts[Verdict.VIOLATED]} violated, {vacuous}"
              f"{counts[Verdict.UNKNOWN]} unknown ({total:.1f}s)")
    return code


# -- play -------------------------------------------------------------------------------

def _pbn_deal(game: Game, path: str, board: str | None) -> PbnDeal:
    """The deal of one board of a PBN file (the first when no board is named)."""
    deals = _read_pbn_file(game, path)
    if not deals:
        raise InputError(f"{path} holds no deal (no [Deal \"...\"] tag)")
    if board is None:
        return deals[0]
    for d in deals:
        if d.board == board:
            return d
    boards = ", ".join(str(d.board) for d in deals if d.board is not None) or "none numbered"
    raise InputError(f"{path} has no board {board!r} (boards: {boards})")


def cmd_play(args: argparse.Namespace) -> int:
    game = _game(args.game, args.variant)
    if args.format == "json":
        args.json = True
    if args.format == "pbn" and (args.json or args.match or args.rubber):
        raise InputError("--format pbn writes one deal; leave out --json, --match and --rubber")
    dealer = game.table.parse_seat(args.dealer) if args.dealer is not None else None
    rubber = bool(game.constructs(K.Rubber))
    if args.rubber and not rubber:
        raise InputError(f"{game.name} is not played in rubbers; use --match to play a whole game")
    if args.pbn and (args.rubber or args.match):
        raise InputError("--pbn plays one deal from the file; leave out --rubber and --match")
    if args.board is not None and not (args.pbn or args.deal):
        raise InputError("--board picks a deal of a file: give it with --pbn FILE or --deal FILE")
    if args.pbn and args.deal:
        raise InputError("give one file to play: --pbn FILE or --deal FILE")
    if args.deal and (args.rubber or args.match):
        raise InputError("--deal plays one deal from the file; leave out --rubber and --match")
    if args.deals is not None and not (args.session or args.match):
        raise InputError("--deals counts the deals of a --session, or of a --match where the "
                         "players agree on its length")
    if args.deals is not None and (args.rubber or (args.match and rubber)):
        raise InputError(f"a rubber of {game.name} ends when a side has won its games; leave "
                         "out --deals")
    if args.session:
        if args.match or args.rubber or args.pbn or args.deal or args.format == "pbn":
            raise InputError("--session plays deals for a pot; leave out --match, --rubber, "
                             "--pbn, --deal and --format pbn")
        if (not game.constructs(K.Pot) and game.constructs(K.MatchLength)
                and not game.constructs(K.MatchTarget)):
            # no pot: a session is the number of deals the players agree on, each settled
            # on its own (the game's MatchLength, or --deals)
            try:
                match = play_match(game, seed=args.seed, dealer=dealer, deals=args.deals)
            except SpecError as e:
                raise InputError(str(e)) from None
            text = (json.dumps(match_json(match), indent=2, ensure_ascii=False) if args.json
                    else render_match(game, match, f"a session of {len(match.deals)} deals"))
            return _emit(args, text)
        try:
            pots = play_pot_session(game, deals=DEFAULT_SESSION if args.deals is None
                                    else args.deals, seed=args.seed, dealer=dealer)
        except SpecError as e:
            raise InputError(str(e)) from None
        text = (json.dumps(session_json(pots), indent=2, ensure_ascii=False) if args.json
                else render_pot_session(game, pots))
        return _emit(args, text)
    if args.rubber or (args.match and rubber):
        record = play_rubber(game, seed=args.seed, dealer=dealer)
        text = (json.dumps(rubber_json(record), indent=2, ensure_ascii=False) if args.json
                else render_sheet(record))
        return _emit(args, text)
    if args.match:
        try:
            match = play_match(game, seed=args.seed, dealer=dealer, deals=args.deals)
        except SpecError as e:
            raise InputError(str(e)) from None
        if args.json:
            text = json.dumps(match_json(match), indent=2, ensure_ascii=False)
        else:
            text = render_match(game, match)
        return _emit(args, text)
    if args.pbn:
        pbn_deal = _pbn_deal(game, args.pbn, args.board)
        state = play_deal(game, seed=args.seed, hands=pbn_deal.hands,
                          dealer=dealer if dealer is not None else pbn_deal.dealer)
    elif args.deal:
        hands, file_dealer = _deal_from_file(game, args.deal, args.board)
        state = play_deal(game, seed=args.seed, hands=hands,
                          dealer=dealer if dealer is not None else file_dealer)
    else:
        state = play_deal(game, seed=args.seed, dealer=dealer)
    if args.format == "pbn":
        text = _pbn_text(game, [state])
    elif args.json:
        text = json.dumps(to_record(state), indent=2, ensure_ascii=False)
    else:
        text = render(state, shuffled=not (args.pbn or args.deal))
    return _emit(args, text)


def _pbn_text(game: Game, deals: Sequence[Any]) -> str:
    try:
        return write_pbn(game, deals).rstrip("\n")
    except NotationError as e:
        raise InputError(str(e)) from None


def cmd_pbn(args: argparse.Namespace) -> int:
    game = _game(args.game, args.variant)
    try:
        check_pbn_game(game)
        if args.played:
            check_pbn_auctions(game)
    except NotationError as e:
        raise InputError(str(e)) from None
    if args.read and args.played:
        raise InputError("--played plays new deals; leave it out with --read")
    if args.json and not args.read:
        raise InputError("--json lists the deals of a file read with --read; PBN is written as "
                         "text")
    if args.read:
        deals = _read_pbn_file(game, args.read)
        if not deals:
            raise InputError(f"{shown_path(args.read)} holds no deal (a PBN game starts with "
                             "tags such as [Deal \"N:...\"])")
        rows = [{"board": d.board, "dealer": None if d.dealer is None else game.table.name(d.dealer),
                 "hands": hands_text(game, d.hands)} for d in deals]
        if args.json:
            return _emit(args, json.dumps(rows, indent=2, ensure_ascii=False))
        lines = [f"{shown_path(args.read)}: {len(deals)} deal(s) of {game.name}"]
        for r in rows:
            lines.append(f"  board {r['board'] or '?'}, dealer {r['dealer'] or '?'}")
        return _emit(args, "\n".join(lines))
    deal = play_deal if args.played else new_deal
    progress = _Progress(args.deals, "deals")
    states = (deal(game, seed=args.seed + k) for k in range(args.deals))
    return _emit_pieces(args, (piece for k, piece in enumerate(iter_pbn(game, states))
                               if k == 0 or progress.step()))


def _read_pbn_file(game: Game, path: str) -> list[PbnDeal]:
    try:
        return read_pbn(game, read_text(path, errors="replace"))
    except NotationError as e:
        raise InputError(f"{shown_path(path)}: {e}") from None


DEALS_FORMAT = "trickspec-deals/1"


def cmd_deals(args: argparse.Namespace) -> int:
    game = _game(args.game, args.variant)
    dealer = game.table.parse_seat(args.dealer) if args.dealer is not None else None
    where = parse_where(game, args.where)
    if about_play(where):
        return _scenarios(args, game, where, dealer)
    progress = _Progress(args.n, "deals found")
    result = deals_where(game, where, n=args.n, seed=args.seed, dealer=dealer,
                         method=args.method, timeout=args.timeout, rlimit=args.rlimit,
                         on_found=lambda d, hands: progress.step())
    progress.close()
    t = game.table
    data = {
        "format": DEALS_FORMAT, "game": game.key, "variants": list(game.active_variants),
        "where": args.where, "seed": args.seed, "status": result.status, "method": result.method,
        "seconds": round(result.seconds, 3),
        "deals": [{"dealer": t.name(d), "hands": hands_text(game, hands)}
                  for d, hands in result.deals],
    }
    if result.reason:
        data["reason"] = result.reason
    if args.text:
        lines = [f"{game.name}: {len(result.deals)} deal(s) where {args.where} "
                 f"({result.status}, {result.method or 'no method'}, {result.seconds:.2f} s)"]
        for k, (d, hands) in enumerate(result.deals, start=1):
            lines.append(f"deal {k}, dealer {t.name(d)}")
            lines += hand_lines(game, hands)
        text = "\n".join(lines)
    else:
        text = json.dumps(data, indent=2, ensure_ascii=False)
    return _answer(args, text, result.status, result.reason, len(result.deals))


def _answer(args: argparse.Namespace, text: str, status: str, reason: str, found: int) -> int:
    """Write the deals found; say on stderr when they are impossible, unknown or too few,
    with the exit code that goes with it."""
    if status in ("impossible", "unknown"):
        hint = f" ({_unknown_hint(reason)})" if status == "unknown" else ""
        print(f"trickspec: {status}: {reason}{hint}", file=sys.stderr)
        if not args.out:  # a file asked for keeps what it held: no deals to put in it
            _emit(args, text)
        return EXIT_IMPOSSIBLE if status == "impossible" else EXIT_ERROR
    if found < args.n:
        print(f"trickspec: only {found} deals satisfy the constraint", file=sys.stderr)
    return _emit(args, text)


def _unknown_hint(reason: str) -> str:
    """What to change when the search gave no answer, from the reason it gave."""
    if "resource limit" in reason:
        return "raise --rlimit to look further"
    if "time ran out" in reason:
        return "raise --timeout to look further"
    if "rejection" in reason:
        return "leave out --method rejection to let Z3 look"
    return "raise --timeout or --rlimit to look further"


def _scenarios(args: argparse.Namespace, game: Game, where: Any, dealer: int | None) -> int:
    """Deals with a complete play that makes a condition about the play true: among deals
    played by bots, then by Z3 (``--method``: ``rejection`` the first only, ``z3`` the
    second only)."""
    progress = _Progress(args.n, "deals found")
    result = scenarios_where(game, where, n=args.n, seed=args.seed, dealer=dealer,
                             timeout=args.timeout, rlimit=args.rlimit, method=args.method,
                             on_found=lambda state: progress.step())
    progress.close()
    data = {"format": DEALS_FORMAT, "game": game.key, "variants": list(game.active_variants),
            "where": args.where, "seed": args.seed, "status": result.status,
            "method": result.method,
            "seconds": round(result.seconds, 3),
            "deals": [{"dealer": game.table.name(st.dealer), "hands": hands_text(game, st.dealt),
                       "record": to_record(st)} for st in result.states]}
    if result.reason:
        data["reason"] = result.reason
    text = ("\n\n".join(render(st) for st in result.states) if args.text
            else json.dumps(data, indent=2, ensure_ascii=False))
    return _answer(args, text, result.status, result.reason, len(result.states))


def cmd_fixtures(args: argparse.Namespace) -> int:
    game = _game(args.game, args.variant)
    if args.check and args.out:
        raise InputError("give --out DIR to write fixtures or --check DIR to check a folder, "
                         "not both")
    if args.check:
        if args.rule:
            raise InputError("--rule picks the rules to write; --check checks the whole folder")
        folder = Path(args.check)
        if not os.path.isdir(folder):
            raise InputError(f"{shown_path(args.check)} is not a folder of fixtures")
        problems = check_folder(game, folder)
        for p in problems:
            print(f"{folder}: {p}")
        count = len(list(folder.glob("*.json"))) - 1
        print(f"{game.name}: {count} fixtures in {folder}: "
              + ("all replay, each rule fires where it says" if not problems
                 else f"{len(problems)} problem{'s' if len(problems) > 1 else ''}"))
        return EXIT_OK if not problems else EXIT_VIOLATED
    if not args.out:
        raise InputError("say where to write the fixtures (--out DIR) or which folder to "
                         "check (--check DIR)")
    only = None
    if args.rule:
        ids = {r.id for r in game.rules}
        unknown = [r for r in args.rule if r not in ids]
        if unknown:
            near = difflib.get_close_matches(unknown[0], sorted(ids), n=1)
            raise InputError(f"{game.name} has no rule {shown(unknown[0])}"
                             + (f"; did you mean {near[0]!r}?" if near else
                                f"; its rules are {', '.join(r.id for r in game.rules[:3])}, ..."))
        only = set(args.rule)
    out = Path(args.out)
    if os.path.lexists(out) and not os.path.isdir(out):
        raise InputError(f"{shown_path(args.out)} is a file, not a folder for the fixtures")
    older = None
    if only is not None and os.path.lexists(out / COVERAGE_FILE):
        # the folder's coverage of the other rules is kept: it must be sound before any work
        older = read_coverage(out / COVERAGE_FILE)
        if older["game"] != game.key:
            raise InputError(f"{shown_path(args.out)} holds fixtures of {shown(older['game'])}, "
                             f"not of {game.key!r}")

    def progress(rule_id: str, outcome: str) -> None:
        print(f"  {rule_id}: {outcome}", file=sys.stderr, flush=True)

    # the folder (made first, so that a place it cannot be is told at once) changes only
    # once every file is written: a failure or Ctrl-C before leaves it as it was
    with made_folder(args.out):
        print(f"{game.name}: {len(game.rules)} rules", file=sys.stderr, flush=True)
        fixtures, cov = fixtures_for(game, seed=args.seed, timeout=args.timeout,
                                     rlimit=args.rlimit, search=args.search, only=only,
                                     on_rule=progress)
        files = {f"{f['rule']}.json": f for f in fixtures}
        if older is not None:
            cov = cov.merged(older, [r.id for r in game.rules])
        files[COVERAGE_FILE] = cov.to_json()
        write_folder(out, {name: json.dumps(data, indent=2, ensure_ascii=False) + "\n"
                           for name, data in files.items()},
                     remove=[f"{rid}.json" for rid in only or () if rid not in cov.covered])
    print(cov.summary())
    missed = [rid for rid, why in cov.without if not why.startswith(("equipment", "a consequence"))]
    return EXIT_ERROR if missed else EXIT_OK


def _deal_from_file(game: Game, path: str, board: str | None) -> tuple[tuple[int, ...], int]:
    """Hands and dealer of one deal of a file written by 'trickspec deals'."""
    data = read_json(path, what="a deals file from 'trickspec deals'")
    name = shown_path(path)
    if not isinstance(data, dict) or data.get("format") != DEALS_FORMAT:
        raise InputError(f"{name} is not a deals file (format {DEALS_FORMAT!r}, from "
                         "'trickspec deals')")
    if data.get("game") != game.key:
        raise InputError(f"{name} holds deals of {shown(data.get('game'))}, not {game.key!r}")
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise InputError(f"{name}: 'deals' must be a list of deals, got {json_kind(deals)}")
    if not deals:
        raise InputError(f"{name} holds no deal")
    try:
        k = 1 if board is None else whole_number(board, what="--board", least=1)
    except InputError as e:
        raise InputError(f"{e} (the deal's position in {name}, from 1)") from None
    if not 1 <= k <= len(deals):
        raise InputError(f"{name} has deals 1 to {len(deals)}; --board {board} is not one")
    deal = deals[k - 1]
    if not isinstance(deal, dict):
        raise InputError(f"{name}: deal {k} must be an object with 'dealer' and 'hands', got "
                         f"{json_kind(deal)}")
    if not isinstance(deal.get("dealer"), str):
        raise InputError(f"{name}: deal {k}: 'dealer' must be a seat's name, got "
                         f"{json_kind(deal.get('dealer'))}")
    try:
        return hands_from_text(game, deal.get("hands")), game.table.parse_seat(deal["dealer"])
    except NotationError as e:
        raise InputError(f"{name}: deal {k}: {e}") from None


def _emit(args: argparse.Namespace, text: str) -> int:
    return _emit_pieces(args, (text,))


def _emit_pieces(args: argparse.Namespace, pieces: Iterable[str]) -> int:
    """Write pieces of text, each followed by a newline, to --out or standard output, each
    as soon as it is made."""
    if args.out:  # written whole or not at all: on a failure or Ctrl-C it is as it was
        with written(args.out) as f:
            for piece in pieces:
                f.write(piece + "\n")
    else:
        for piece in pieces:
            print(piece, flush=True)
    return EXIT_OK


class _Progress:
    """A count of work done, shown on standard error when it is a terminal, at most a few
    times a second; cleared when the work is done."""

    def __init__(self, total: int, noun: str) -> None:
        self.total, self.noun, self.done = total, noun, 0
        self.shown = sys.stderr.isatty() and total > 1
        self.last = 0.0

    def step(self) -> bool:
        """Count one more; True, so that it can sit in a comprehension's condition."""
        self.done += 1
        now = time.monotonic()
        if self.done >= self.total:
            self.close()
        elif self.shown and now - self.last > 0.25:
            self.last = now
            print(f"\r{self.done:,} of {self.total:,} {self.noun}", end="", file=sys.stderr,
                  flush=True)
        return True

    def close(self) -> None:
        """Clear the line shown, if any."""
        if self.shown and self.last:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
        self.shown = False


# -- mutate -----------------------------------------------------------------------------

def cmd_mutate(args: argparse.Namespace) -> int:
    game = find_game(args.game)
    known = {r.id for r in game.rules}
    for rid in args.rule:
        if rid not in known:
            close = difflib.get_close_matches(rid, sorted(known), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InputError(f"{game.name} has no rule {shown(rid)}{hint}")
    if args.list:
        for m in chosen_mutants(game, args.rule):
            print(f"{m.id:40} {m.operator.value:13} {m.description}")
        return EXIT_OK
    quiet = args.quiet  # progress goes to standard error, so it never mixes with --json
    report = mutate(game, jobs=args.jobs, seeds=args.seeds, seed=args.seed,
                    matches=args.matches, only=args.rule, limit=args.limit,
                    timeout=args.timeout, rlimit=args.rlimit, budget=args.budget,
                    progress=None if quiet else
                    (lambda line: print(line, file=sys.stderr, flush=True)))
    print(json.dumps(report.to_json(), indent=2, ensure_ascii=False) if args.json
          else report.render())
    met = report.rate is not None and report.rate >= TARGET_RATE
    return EXIT_OK if met and not report.findings else EXIT_VIOLATED


# -- replay -----------------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace) -> int:
    data = read_json(args.file, what="a record from 'trickspec play GAME --json'")
    report = replay_record(data)  # a deal, a session for a pot, a match or a rubber
    if args.json:
        print(json.dumps({"ok": report.ok, "message": report.message}))
    else:
        print(report.message if report.ok else f"rejected: {report.message}")
    return EXIT_OK if report.ok else EXIT_VIOLATED


def cmd_games(args: argparse.Namespace) -> int:
    rows = []
    for g in GAMES.values():
        rows.append({"game": g.key, "name": g.name, "players": g.players, "cards": len(g.deck),
                     "rules": len(g.rules), "variants": [v.id for v in g.variants]})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['game']:12} {r['name']}: {r['players']} players, {r['cards']} cards, "
                  f"{r['rules']} rules; variants: {', '.join(r['variants']) or 'none'}")
    return EXIT_OK


# Limits of the numbers the command takes.  Every number is written with the digits 0-9:
# Python's int() and float() also take the digits of other scripts ('١٢') and underscores
# ('1_000'), and float() takes 'nan' and 'inf'.
MAX_DIGITS = 18  # of any whole number: seeds, counts, bounds
MAX_SEED = 10 ** MAX_DIGITS - 1
MAX_SECONDS = 1_000_000  # some 11 days; Z3 keeps a timeout in milliseconds below 2**32
MAX_RLIMIT = 2 ** 32 - 1  # Z3 keeps its resource limit in 32 bits (a larger one wraps round)
MAX_BOUND = 1000  # auction calls unrolled; each is a copy of the auction's formulas
MAX_DEALS = 10_000  # distinct deals searched for and kept together, to be told apart
MAX_PBN_DEALS = 10_000_000  # deals written one by one (some hours at the engine's speed)
MAX_SEARCH = 10_000_000  # random deals tried for one rule's fixture
_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def whole_number(text: str, *, what: str = "a whole number", least: int = 0,
                 most: int = MAX_SEED) -> int:
    """A whole number typed by the user, from ``least`` to ``most``, in ASCII digits.

    Raises:
        InputError: anything else, saying what was expected.
    """
    t = str(text).strip()
    if not _WHOLE.fullmatch(t):
        sign = "a negative number" if re.fullmatch(r"-[0-9]+", t) else None
        raise InputError(f"{what} is a whole number from {least:,} to {most:,} written with "
                         f"the digits 0-9, got {sign or shown(text)}")
    digits = t.lstrip("0")
    if len(digits) > MAX_DIGITS or int(t) > most:
        raise InputError(f"{what} is at most {most:,}, got {shown(text)}")
    if int(t) < least:
        raise InputError(f"{what} is at least {least:,}, got {shown(text)}")
    return int(t)


def _arg(parse: Any, name: str) -> Any:
    """An argparse type from a parser raising InputError (argparse names the option)."""
    def convert(text: str) -> Any:
        try:
            return parse(text)
        except InputError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    convert.__name__ = name
    return convert


def _seconds(text: str) -> float:
    t = text.strip()
    if t.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise InputError(f"expected a finite number of seconds, got {shown(text)}")
    if not _DECIMAL.fullmatch(t):
        raise InputError(f"expected a positive number of seconds such as 60 or 0.5, written "
                         f"with the digits 0-9, got {shown(text)}")
    v = float(t)
    if not math.isfinite(v) or v > MAX_SECONDS:
        raise InputError(f"seconds are at most {MAX_SECONDS:,}, got {shown(text)}")
    if v <= 0:
        raise InputError(f"expected a positive number of seconds, got {shown(text)}")
    return v


_seconds_arg = _arg(_seconds, "seconds")
_seed_arg = _arg(lambda t: whole_number(t, what="a seed"), "seed")
_rlimit_arg = _arg(lambda t: whole_number(t, what="the resource limit", least=1,
                                          most=MAX_RLIMIT), "rlimit")
_bound_arg = _arg(lambda t: whole_number(t, what="the bound", least=1, most=MAX_BOUND), "bound")
_jobs_arg = _arg(lambda t: whole_number(t, what="the count of workers", least=1, most=256), "count")
_screen_arg = _arg(lambda t: whole_number(t, what="the count", least=0, most=100_000), "count")
_sample_arg = _arg(lambda t: whole_number(t, what="the sample", least=1), "count")
_deals_arg = _arg(lambda t: whole_number(t, what="the count of distinct deals", least=1,
                                         most=MAX_DEALS), "count")
_pbn_count_arg = _arg(lambda t: whole_number(t, what="the count of deals", least=1,
                                             most=MAX_PBN_DEALS), "count")
MAX_SESSION = 100_000  # deals of one session, kept together
DEFAULT_SESSION = 10  # deals of a session for a pot, unless --deals says otherwise
_session_arg = _arg(lambda t: whole_number(t, what="the count of deals", least=1,
                                           most=MAX_SESSION), "count")
_search_arg = _arg(lambda t: whole_number(t, what="the count of random deals", least=1,
                                          most=MAX_SEARCH), "count")


def _add_budget(p: argparse.ArgumentParser, rlimit: int, needs: str, timeout: float) -> None:
    """--rlimit, a budget of Z3's steps for each query (``needs``: how it was chosen), and
    --timeout, seconds behind it."""
    p.add_argument("--timeout", type=_seconds_arg, default=timeout, metavar="S",
                   help="seconds Z3 may spend on one query, a backstop behind --rlimit "
                   f"(default {timeout:g}, at most {MAX_SECONDS:,})")
    p.add_argument("--rlimit", type=_rlimit_arg, default=rlimit, metavar="N",
                   help="Z3's resource limit on one query, a count of its own steps: unlike "
                   f"--timeout, the same answer on any machine, however busy (default "
                   f"{rlimit:,}, {needs}; at most {MAX_RLIMIT:,})")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="trickspec", description="Formal, machine-checked rules for trick-taking "
                "card games: prove properties, play and replay deals.",
                epilog=_exit_codes_text(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"trickspec {_version()}")
    # --debug is taken before the command or after it
    debug = argparse.ArgumentParser(add_help=False)
    debug.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="on an internal error, show the traceback")
    p.add_argument("--debug", action="store_true", default=False,
                   help="on an internal error (exit 4), show the traceback")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add = sub.add_parser

    def add_parser(name: str, **kw: Any) -> argparse.ArgumentParser:
        return _add(name, parents=[debug], **kw)

    sub.add_parser = add_parser  # type: ignore[method-assign]  # every command takes --debug

    c = sub.add_parser("check", help="prove the properties of games with Z3",
                       description="Prove every property of the named games (all games if none). "
                       "Exit 0: all hold; 1: a property is violated or vacuous; 2: unknown or bad input.")
    c.add_argument("games", nargs="*", metavar="GAME", help=f"games to check ({', '.join(sorted(GAMES))})")
    c.add_argument("--property", action="append", default=[], metavar="ID",
                   help="check only this property (repeatable)")
    c.add_argument("--variant", action="append", default=[], metavar="ID",
                   help="check the game with this variant in force (repeatable)")
    c.add_argument("--timeout", type=_seconds_arg, default=600.0, metavar="S",
                   help="seconds the solver may spend on one query, a backstop behind "
                   f"--rlimit (default 600, at most {MAX_SECONDS:,})")
    c.add_argument("--rlimit", type=_rlimit_arg, default=DEFAULT_RLIMIT, metavar="N",
                   help="Z3's resource limit on one query, a count of its own steps: the same "
                   f"verdict on any machine, however busy (default {DEFAULT_RLIMIT:,}, some "
                   "ten times what the hardest property needs; at most "
                   f"{MAX_RLIMIT:,})")
    c.add_argument("--bound", type=_bound_arg, default=64, metavar="N",
                   help=f"most auction calls to unroll (default 64, at most {MAX_BOUND:,})")
    c.add_argument("-j", "--jobs", type=_jobs_arg, default=1, metavar="N",
                   help="properties checked at once, in N processes (default 1; the times "
                   "shown then include waiting for a core)")
    c.add_argument("--json", action="store_true", help="print the results as JSON (the same "
                   "bytes on any machine, with any -j)")
    c.add_argument("--timings", action="store_true",
                   help="with --json: add each property's seconds, which vary from run to run")
    c.set_defaults(fn=cmd_check)

    pl = sub.add_parser("play", help="play a whole deal with random bots",
                        description="Deal from a seed and play the deal with random bots; "
                        "the same seed gives the same deal.")
    pl.add_argument("game", metavar="GAME")
    pl.add_argument("--seed", type=_seed_arg, default=0, help="seed of the shuffle and the bots (default 0)")
    pl.add_argument("--variant", action="append", default=[], metavar="ID")
    pl.add_argument("--dealer", metavar="SEAT", help="the dealer's seat (default: the last seat)")
    pl.add_argument("--json", action="store_true", help="write the machine-readable record")
    pl.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    pl.add_argument("--match", action="store_true",
                    help="play a whole game: deals (seed, seed+1, ...) until the game's end rule "
                    "is met, e.g. 11 game points in 304 (a rubber in games that play rubbers)")
    pl.add_argument("--rubber", action="store_true",
                    help="play a whole rubber and print the score sheet (WE / THEY, above and "
                    "below the line)")
    pl.add_argument("--session", action="store_true",
                    help="play deals for a pot (in a game that keeps one): every player "
                    "antes, the pot is filled again whenever a deal empties it, and a running "
                    "sheet shows each player's chips and the pot")
    pl.add_argument("--deals", type=_session_arg, default=None, metavar="N",
                    help=f"with --session: the number of deals (default {DEFAULT_SESSION}); "
                    "with --match, in a game played for a number of deals: the number the "
                    "players agree on, a multiple of what the rules ask (default: the rules' "
                    "own)")
    pl.add_argument("--pbn", metavar="FILE",
                    help="play the deal of a PBN file ('-' reads standard input) instead of "
                    "dealing from the seed (52-card four-hand games)")
    pl.add_argument("--deal", metavar="FILE", help="play a deal of a file from 'trickspec deals' "
                    "instead of dealing from the seed")
    pl.add_argument("--board", metavar="N", help="with --pbn: the board to play; with --deal: "
                    "the deal's position, from 1 (default: the first)")
    pl.add_argument("--format", choices=("text", "json", "pbn"), default=None,
                    help="how to write the deal: text (default), json (as --json) or pbn")
    pl.set_defaults(fn=cmd_play)

    pb = sub.add_parser("pbn", help="write deals in PBN, or check a PBN file",
                        description="Write deals of a 52-card four-hand game in PBN (the "
                        "Portable Bridge Notation of bridge programs), dealt from seeds "
                        "seed, seed+1, ...; with --played, play them with random bots and add "
                        "the auction, contract and result.  With --read, read a PBN file and "
                        "list its deals (exit 2 at the first error).")
    pb.add_argument("game", metavar="GAME")
    pb.add_argument("--seed", type=_seed_arg, default=0, help="seed of the first deal (default 0)")
    pb.add_argument("-n", "--deals", type=_pbn_count_arg, default=1, metavar="N",
                    help=f"number of deals to write, each as soon as it is dealt (default 1, at "
                    f"most {MAX_PBN_DEALS:,}); progress is shown on a terminal")
    pb.add_argument("--played", action="store_true", help="play each deal with random bots")
    pb.add_argument("--variant", action="append", default=[], metavar="ID")
    pb.add_argument("--read", metavar="FILE", help="read FILE ('-': standard input) and list its deals")
    pb.add_argument("--json", action="store_true", help="with --read: list the deals as JSON")
    pb.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    pb.set_defaults(fn=cmd_pbn)

    d = sub.add_parser("deals", help="deals that satisfy a constraint, or a proof that none do",
                       description="Write N distinct deals whose hands satisfy a constraint "
                       "(JSON by default), found by dealing and rejecting or by Z3; every deal "
                       "is checked by the engine; the same seed gives the same deals.  "
                       "Constraint language: holds(SEAT, CARD, ...), count(SEAT, SUIT-or-RANK), "
                       "void(SEAT, SUIT), length(SEAT), points(SEAT), dealer, numbers, "
                       "== != < <= > >= + - *, and / or / not, parentheses; e.g. "
                       "'holds(South, AS, KS) and count(North, hearts) >= 5'.  A condition "
                       "about the play (lead(K), leader(K), winner(K), played(K, SEAT), "
                       "tricks(SEAT), won(SEAT), score(SEAT), declares(SEAT), declarer, "
                       "partner (one the auction or the cards make; the declarer himself in "
                       "a game of fixed partnerships), level, strain, a contract by its name as "
                       "in 'level == miserie') gives "
                       "deals with a complete legal auction and play that make it true, found "
                       "by Z3 and replayed by the engine.  Exit 0: found; "
                       "3: impossible (proved by Z3); 2: unknown (the solver's budget ran out) or bad input.")
    d.add_argument("game", metavar="GAME")
    d.add_argument("--where", required=True, metavar="CONSTRAINT",
                   help="the condition on the hands as dealt")
    d.add_argument("-n", type=_deals_arg, default=1, metavar="N",
                   help=f"number of distinct deals (default 1, at most {MAX_DEALS:,}); "
                   "progress is shown on a terminal")
    d.add_argument("--seed", type=_seed_arg, default=0, help="seed (default 0)")
    d.add_argument("--dealer", metavar="SEAT", help="the dealer's seat (default: the last seat)")
    d.add_argument("--method", choices=("auto", "z3", "rejection"), default="auto",
                   help="auto (default): deal and reject first (for a condition about the "
                   "play: deals played by bots), then Z3; or only one of them")
    _add_budget(d, SEARCH_RLIMIT, "some ten times what the hardest of the README's examples "
                "needs", timeout=600.0)
    d.add_argument("--variant", action="append", default=[], metavar="ID")
    d.add_argument("--text", action="store_true", help="readable hands instead of JSON")
    d.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output "
                   "(left as it was when the deals are impossible or unknown)")
    d.set_defaults(fn=cmd_deals)

    fx = sub.add_parser("fixtures", help="a deal for each rule, in which the rule fires",
                        description="Write, for every rule of the game that a deal can show "
                        "at work, a fixture (the deal, every action, the expected tricks and "
                        "scores, and where the rule fires; format docs/fixture.schema.json) to "
                        "DIR/<rule id>.json, and print the coverage: rules with a fixture out "
                        "of all, and why the others have none (also written to "
                        "DIR/coverage.json).  Deals come from a first look among a few "
                        "thousand random deals judged by the engine, then from Z3, which "
                        "unrolls the auction and the play, and where it cannot, from more "
                        "random deals.  Exit 0 when every rule that can fire has a fixture, 2 "
                        "otherwise.  With --check DIR, replay a folder written earlier.")
    fx.add_argument("game", metavar="GAME")
    fx.add_argument("--out", metavar="DIR", help="folder for the fixtures (changed only once "
                    "all of them are written: a failure or Ctrl-C leaves it as it was)")
    fx.add_argument("--check", metavar="DIR", help="check a folder of fixtures instead: each "
                    "replays with its rule firing where it says, the rules' texts are "
                    "current, and every rule has a fixture or a reason (exit 0 yes, 1 no)")
    fx.add_argument("--rule", action="append", metavar="ID",
                    help="only this rule (repeatable); the folder's other fixtures and "
                    "coverage entries are kept")
    fx.add_argument("--seed", type=_seed_arg, default=0, help="seed (default 0)")
    _add_budget(fx, FIXTURES_RLIMIT, "some nine times what the hardest rule of any game needs",
                timeout=3600.0)
    fx.add_argument("--search", type=_search_arg, default=20_000, metavar="N",
                    help="random deals to try for a rule Z3 does not unroll or gives no "
                    "answer on (default 20000)")
    fx.add_argument("--variant", action="append", default=[], metavar="ID")
    fx.set_defaults(fn=cmd_fixtures)

    r = sub.add_parser("replay", help="re-run a deal record through the engine",
                       description="Confirm a record (exit 0) or reject it at the first wrong "
                       "step (exit 1); a malformed record exits 2.")
    r.add_argument("file", metavar="FILE", help="a record from 'trickspec play GAME --json' "
                   "('-' reads standard input)")
    r.add_argument("--json", action="store_true")
    r.set_defaults(fn=cmd_replay)

    m = sub.add_parser("mutate", help="mutation testing: how many wrong versions of the rules "
                       "the checks catch",
                       description="Make every small change to a game's rules the rules language "
                       "allows (a constant, a comparison, and/or, a condition negated, the rank "
                       "or strain order, card points, a seat offset, a rule dropped, a variant's "
                       "rules written as the default), and judge each mutant: refused when the game is built, "
                       "probably equivalent when the bots play every screened seed alike, "
                       "killed when a property is violated (or vacuous), survived otherwise.  "
                       "Prints the kill rate per rule and every survivor.  Exit 0: the rate "
                       "is at least 90 % and no mutant made the engine or a check fail without "
                       "a property noticing; 1: below the target, or such a finding; 2: bad "
                       "input.")
    m.add_argument("game", metavar="GAME")
    m.add_argument("-j", "--jobs", type=_jobs_arg, default=None, metavar="N",
                   help="worker processes (default: the number of cores)")
    m.add_argument("--seeds", type=_screen_arg, default=DEFAULT_SEEDS, metavar="N",
                   help=f"deals the equivalence screen plays per mutant (default {DEFAULT_SEEDS})")
    m.add_argument("--matches", type=_screen_arg, default=DEFAULT_MATCHES, metavar="N",
                   help="whole matches, rubbers or sessions the screen plays after the deals "
                   f"(default {DEFAULT_MATCHES})")
    m.add_argument("--seed", type=_seed_arg, default=0, help="first seed of the screen, and of "
                   "the sample of --max (default 0)")
    m.add_argument("--max", type=_sample_arg, default=None, dest="limit", metavar="N",
                   help="judge a random sample of at most N mutants")
    m.add_argument("--rule", action="append", default=[], metavar="ID",
                   help="only the mutants of this rule (repeatable)")
    m.add_argument("--timeout", type=_seconds_arg, default=60.0, metavar="S",
                   help=f"seconds per solver query (default 60, at most {MAX_SECONDS:,})")
    m.add_argument("--rlimit", type=_rlimit_arg, default=DEFAULT_RLIMIT, metavar="N",
                   help=f"Z3's resource limit on one query (default {DEFAULT_RLIMIT:,})")
    m.add_argument("--budget", type=_seconds_arg, default=300.0, metavar="S",
                   help="seconds of checks per mutant; one still alive then survived as "
                   "unknown (default 300)")
    m.add_argument("--list", action="store_true", help="list the mutants and stop")
    m.add_argument("--json", action="store_true", help="print the report as JSON")
    m.add_argument("-q", "--quiet", action="store_true", help="no progress on standard error")
    m.set_defaults(fn=cmd_mutate)

    g = sub.add_parser("games", help="list the registered games and their variants")
    g.add_argument("--json", action="store_true")
    g.set_defaults(fn=cmd_games)
    return p


def _exit_codes_text() -> str:
    return "exit codes:\n" + "\n".join(f"  {code:<4} {what}" for code, what in EXIT_CODES)



class _OutputError(Exception):
    """Standard output cannot be written (a full disk, say); not a broken pipe."""


class _Output:
    """Standard output, whose failures are told apart from those of anything else: a write
    that fails raises :class:`_OutputError` (a reader gone away: ``BrokenPipeError``)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    @staticmethod
    def _do(action: Any, *args: Any) -> Any:
        try:
            return action(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _OutputError(e.strerror or str(e)) from None

    def write(self, text: str) -> int:
        return int(self._do(self.stream.write, text))

    def flush(self) -> None:
        self._do(self.stream.flush)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _drop_output(stream: Any) -> None:
    """Send what is left of standard output nowhere: Python would otherwise try to write it
    again on exit, and complain."""
    if stream is not sys.__stdout__ or stream is None:
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; the exit code is one of :data:`EXIT_CODES`.  Ctrl-C stops it at
    once (exit 130), Z3's checks included (:mod:`verifier.interrupts`)."""
    stdout = sys.stdout
    with obeyed():
        sys.stdout = _Output(stdout) if stdout is not None else stdout
        try:
            return _run(argv)
        finally:
            sys.stdout = stdout


def _run(argv: Sequence[str] | None) -> int:
    debug = "--debug" in (sys.argv[1:] if argv is None else argv)
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as e:  # --help, --version, or bad usage, already said
            code = e.code if isinstance(e.code, int) else EXIT_ERROR if e.code else EXIT_OK
        else:
            debug = bool(getattr(args, "debug", False))
            code = int(args.fn(args))
        sys.stdout.flush()  # a full disk is told now, while it can be
        return code
    except (InputError, RecordError, SpecError, UnsupportedNodeError) as e:
        _say(f"error: {e}")
        return EXIT_ERROR
    except SolverUnknownError as e:
        _say(f"unknown: {e.reason} (raise --timeout or --rlimit to let the solver look further)")
        return EXIT_ERROR
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_INTERRUPTED
    except _OutputError as e:
        _drop_output(getattr(sys.stdout, "stream", sys.stdout))
        _say(f"error: cannot write standard output: {e}")
        return EXIT_ERROR
    except BrokenPipeError:  # the reader went away (``| head``): nothing left to say
        _drop_output(getattr(sys.stdout, "stream", sys.stdout))
        return EXIT_OK
    except Exception as e:  # noqa: BLE001  # the CLI boundary: anything else is a bug (AssertionError, RecursionError, MemoryError, ReplayMismatchError, ...)
        if interrupted():  # a failure Ctrl-C caused (a worker ended, say): interrupted
            _say("interrupted")
            return EXIT_INTERRUPTED
        if debug:
            traceback.print_exc()
        kind = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        _say(f"internal error: {kind}; this is a bug in trickspec: please report it "
             "(rerun with --debug to see the traceback)")
        return EXIT_BUG


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
