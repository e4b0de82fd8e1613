"""``trickspec fixtures``: a deal for each rule of a game, in which the rule fires, written
to a folder with the coverage; or a folder written earlier checked (without one, the
fixtures shipped with trickspec); or the fixture schema printed."""
from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import sys
from pathlib import Path
from typing import Any

from spec.dsl._build import Game
from spec.errors import shown
from verifier._z3.solver import FIXTURES_RLIMIT
from verifier.commands._common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_VIOLATED,
    GAME_HELP,
    VARIANT_HELP,
    Commands,
    add_budget,
    add_cluster,
    arg,
    game_named,
    seed_arg,
    whole_number,
)
from verifier.cluster import check_address, connected
from verifier.errors import InputError
from verifier.files import made_folder, shown_path, write_folder
from verifier.fixtures import (
    COVERAGE_FILE,
    SCHEMA,
    SHIPPED,
    check_folder,
    fixtures_for,
    read_coverage,
)

MAX_SEARCH = 10_000_000  # random deals tried for one rule's fixture
_search_arg = arg(lambda t: whole_number(t, what="the count of random deals", least=1,
                                         most=MAX_SEARCH), "count")
# what --check stands for without a folder: the fixtures shipped with trickspec
_SHIPPED = object()


class _PrintSchema(argparse.Action):
    """``--schema``: print the fixture schema shipped with trickspec and stop, as
    ``--version`` does (so the game need not be named)."""

    def __init__(self, option_strings: list[str], dest: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kw)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        sys.stdout.write(SCHEMA.read_text(encoding="utf-8"))
        parser.exit(EXIT_OK)


def add_parser(commands: Commands) -> None:
    """``fixtures``: the folder to write or check, the rules, the seed and the budget."""
    fx = commands.add_parser("fixtures", help="a deal for each rule, in which the rule fires",
                             description="Write, for every rule of the game that a deal can show "
                             "at work, a fixture (the deal, every action, the expected tricks and "
                             "scores, and where the rule fires; in the format that --schema "
                             "prints) to DIR/<rule id>.json, and print the coverage: rules with a "
                             "fixture out of all, and why the others have none (also written to "
                             "DIR/coverage.json).  Deals come from a first look among random "
                             "deals the batch back end plays together (where it runs the game), "
                             "then among a few thousand random deals judged by the engine, then "
                             "from Z3, which unrolls the auction and the play, and where it "
                             "cannot, from more random deals.  Exit 0 when every rule that can "
                             "fire has a fixture, 2 otherwise.  With --check, replay the "
                             "fixtures shipped with trickspec (in the installed package, "
                             "verifier/data/fixtures/GAME); with --check DIR, a folder written "
                             "earlier.")
    fx.add_argument("game", metavar="GAME", help=GAME_HELP)
    fx.add_argument("--out", metavar="DIR", help="folder for the fixtures (changed only once "
                    "all of them are written: a failure or Ctrl-C leaves it as it was)")
    fx.add_argument("--check", nargs="?", const=_SHIPPED, metavar="DIR",
                    help="check a folder of fixtures instead (without DIR, those shipped with "
                    "trickspec): each replays with its rule firing where it says, the rules' "
                    "texts are current, and every rule has a fixture or a reason (exit 0 yes, "
                    "1 no)")
    fx.add_argument("--schema", action=_PrintSchema,
                    help="print the JSON schema of a fixture (JSON Schema, draft 2020-12) and "
                    "exit; GAME may be left out")
    fx.add_argument("--rule", action="append", metavar="ID",
                    help="only this rule (repeatable); the folder's other fixtures and "
                    "coverage entries are kept")
    fx.add_argument("--seed", type=seed_arg, default=0, help="seed (default 0)")
    add_budget(fx, FIXTURES_RLIMIT, "some nine times what the hardest rule of any game needs",
               timeout=3600.0)
    fx.add_argument("--search", type=_search_arg, default=20_000, metavar="N",
                    help="random deals to try for a rule Z3 does not unroll or gives no "
                    "answer on (default 20000)")
    fx.add_argument("--variant", action="append", default=[], metavar="ID", help=VARIANT_HELP)
    add_cluster(fx, "search each rule's deal on a Dask cluster, a task a rule (the same "
                "fixtures)")
    fx.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Write the fixtures of the game (or of the rules named) to --out, or check the
    folder --check names."""
    game = game_named(args.game, args.variant)
    if args.check and args.out:
        raise InputError("give --out DIR to write fixtures or --check DIR to check a folder, "
                         "not both")
    if args.check:
        if args.cluster is not None:
            raise InputError("--cluster searches for the fixtures to write; --check replays a "
                             "folder here")
        return _check(args, game)
    if args.cluster is not None:
        check_address(args.cluster)
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
        with connected(args.cluster) if args.cluster else contextlib.nullcontext() as client:
            fixtures, cov = fixtures_for(game, seed=args.seed, timeout=args.timeout,
                                         rlimit=args.rlimit, search=args.search, only=only,
                                         on_rule=progress, client=client)
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


def _check(args: argparse.Namespace, game: Game) -> int:
    """Check the folder --check names (without one, the game's shipped fixtures): exit 0 when every fixture replays as it says and
    every rule has a fixture or a reason, 1 otherwise."""
    if args.rule:
        raise InputError("--rule picks the rules to write; --check checks the whole folder")
    if args.check is _SHIPPED:
        folder = SHIPPED / game.key
        if not os.path.isdir(folder):
            raise InputError(f"no fixtures of {game.key!r} are shipped with trickspec; "
                             "give --check DIR to check a folder")
    else:
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
