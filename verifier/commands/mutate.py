"""``trickspec mutate``: mutation testing, how many wrong versions of a game's rules the
checks catch."""
from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import sys

from spec.errors import shown
from spec.registry import find_game
from verifier.commands._common import (
    EXIT_OK,
    EXIT_VIOLATED,
    GAME_HELP,
    MAX_SECONDS,
    Commands,
    add_cluster,
    arg,
    jobs_arg,
    rlimit_arg,
    seconds_arg,
    seed_arg,
    whole_number,
)
from verifier.cluster import check_address, connected
from verifier.errors import InputError
from verifier.mutate import DEFAULT_MATCHES, DEFAULT_SEEDS, TARGET_RATE, chosen_mutants, mutate
from verifier.properties import DEFAULT_RLIMIT

_screen_arg = arg(lambda t: whole_number(t, what="the count", least=0, most=100_000), "count")
_sample_arg = arg(lambda t: whole_number(t, what="the sample", least=1), "count")


def add_parser(commands: Commands) -> None:
    """``mutate``: the mutants to judge, the equivalence screen and the checks' budget."""
    m = commands.add_parser("mutate", help="mutation testing: how many wrong versions of the rules "
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
    m.add_argument("game", metavar="GAME", help=GAME_HELP)
    m.add_argument("-j", "--jobs", type=jobs_arg, default=None, metavar="N",
                   help="worker processes (default: the number of cores)")
    add_cluster(m, "judge the mutants on a Dask cluster, a task each")
    m.add_argument("--seeds", type=_screen_arg, default=DEFAULT_SEEDS, metavar="N",
                   help=f"deals the equivalence screen plays per mutant (default {DEFAULT_SEEDS})")
    m.add_argument("--matches", type=_screen_arg, default=DEFAULT_MATCHES, metavar="N",
                   help="whole matches, rubbers or sessions the screen plays after the deals "
                   f"(default {DEFAULT_MATCHES})")
    m.add_argument("--seed", type=seed_arg, default=0, help="first seed of the screen, and of "
                   "the sample of --max (default 0)")
    m.add_argument("--max", type=_sample_arg, default=None, dest="limit", metavar="N",
                   help="judge a random sample of at most N mutants")
    m.add_argument("--rule", action="append", default=[], metavar="ID",
                   help="only the mutants of this rule (repeatable)")
    m.add_argument("--timeout", type=seconds_arg, default=60.0, metavar="S",
                   help=f"seconds per solver query (default 60, at most {MAX_SECONDS:,})")
    m.add_argument("--rlimit", type=rlimit_arg, default=DEFAULT_RLIMIT, metavar="N",
                   help=f"Z3's resource limit on one query (default {DEFAULT_RLIMIT:,})")
    m.add_argument("--budget", type=seconds_arg, default=300.0, metavar="S",
                   help="seconds of checks per mutant; one still alive then survived as "
                   "unknown (default 300)")
    m.add_argument("--list", action="store_true", help="list the mutants and stop")
    m.add_argument("--json", action="store_true", help="print the report as JSON")
    m.add_argument("-q", "--quiet", action="store_true", help="no progress on standard error")
    m.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """List the mutants, or judge them and print the report; exit 1 below the target kill
    rate or on a finding."""
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
    if args.cluster is not None:
        if args.jobs is not None:
            raise InputError("-j and --cluster both say where the mutants are judged: name one")
        check_address(args.cluster)
    with connected(args.cluster) if args.cluster else contextlib.nullcontext() as client:
        report = mutate(game, jobs=args.jobs, seeds=args.seeds, seed=args.seed,
                        matches=args.matches, only=args.rule, limit=args.limit,
                        timeout=args.timeout, rlimit=args.rlimit, budget=args.budget,
                        progress=None if quiet else
                        (lambda line: print(line, file=sys.stderr, flush=True)), client=client)
    print(json.dumps(report.to_json(), indent=2, ensure_ascii=False) if args.json
          else report.render())
    met = report.rate is not None and report.rate >= TARGET_RATE
    return EXIT_OK if met and not report.findings else EXIT_VIOLATED
