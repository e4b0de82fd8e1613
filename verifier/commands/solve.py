"""``trickspec solve``: the double-dummy values of a deal, every hand seen and every seat
playing its best, for each contract and declarer its hands reach (the table of bridge
solvers), and with ``--play`` what each card of the deal's play cost against perfect play.

The deal is one ``trickspec play`` deals and plays: from a seed, a record, a PBN board or a
deals file (played by the bots as ``trickspec play --pbn`` / ``--deal`` play it, seed 0),
so that the table can also give the first lead of the deal as it was played, which is the
only position the hands give where a talon, cards laid aside or a defender's choice come
between the auction and the play.  The values come from :mod:`spec.solver`.  With
``--deals``, the deals of many seeds, each solved here
(:mod:`verifier.commands._solve_many`).

Exit 0: every value is known; 2: some search spent its budget of nodes (the value is shown
as ``?``, JSON ``null``), or bad input.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from spec.dsl._build import Game, suit_from_code
from spec.engine import Action, Play, State, new_deal, play_deal
from spec.errors import NotationError
from spec.records import hands_from_text, replay
from spec.solver import BUDGET, Cost, Table
from spec.text import contract_text, hand_lines
from verifier.commands._common import (
    EXIT_ERROR,
    EXIT_OK,
    GAME_HELP,
    VARIANT_HELP,
    Commands,
    add_cluster,
    arg,
    emit,
    game_named,
    jobs_arg,
    seed_arg,
    whole_number,
)
from verifier.commands._solve_deal import deal_json, row_contracts, seeded, solved, value_text
from verifier.commands._solve_many import run_many
from verifier.commands.deals import deal_from_file
from verifier.commands.pbn import pbn_deal
from verifier.commands.stats import MAX_DEALS, deals_arg
from verifier.errors import InputError
from verifier.files import read_json, shown_path

MAX_BUDGET = 10 ** 12  # nodes of one search: some months at the solver's speed
_budget_arg = arg(lambda t: whole_number(t, what="the budget of nodes", least=1,
                                         most=MAX_BUDGET), "nodes")


def add_parser(commands: Commands) -> None:
    """``solve``: the deal (one of four sources), what to show and the budget."""
    s = commands.add_parser(
        "solve", help="double-dummy values of a deal: the table, and what each card cost",
        description="The double-dummy values of a deal (every hand seen, every seat playing "
        "its best): for each contract and declarer its hands reach, what the declaring side "
        "takes (tricks, or card points, as the game counts them; for a goal of a count "
        "between bounds, whether it is made), contracts that give the same position in one "
        "row; and the deal's own first lead as it was played.  With --play, what each card "
        "played cost its side against the best card there.  With --deals N, the deals of "
        "N seeds from --seed, a line each, then for each contract and declarer how often "
        "its side makes it and the mean of what it takes: the same answer whatever -j, "
        "and on a Dask cluster (--cluster).  A search that spends its budget of nodes gives "
        "'?' (JSON null), never a guess.  Exit 0: every value known; 2: some unknown, or "
        "bad input.")
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    s.add_argument("--seed", type=seed_arg, default=None, metavar="N",
                   help="the deal of that seed, played as 'trickspec play GAME --seed N' "
                   "plays it; with --deals, the first deal's seed (default 0)")
    s.add_argument("--deals", type=deals_arg, default=None, metavar="N",
                   help=f"solve the deals of N seeds, --seed, --seed + 1, ... (at most "
                   f"{MAX_DEALS:,}): a line each, then how often each contract is made")
    s.add_argument("--record", metavar="FILE", help="a record from 'trickspec play GAME --json' "
                   "('-' reads standard input)")
    s.add_argument("--pbn", metavar="FILE", help="a PBN file's deal (with --board)")
    s.add_argument("--deal", metavar="FILE", help="a deal of a file from 'trickspec deals' "
                   "(with --board)")
    s.add_argument("--board", metavar="N", help="with --pbn: the board; with --deal: the "
                   "deal's position, from 1 (default: the first)")
    s.add_argument("--play", action="store_true",
                   help="also each card played, with what it cost against perfect play")
    s.add_argument("--budget", type=_budget_arg, default=BUDGET, metavar="N",
                   help=f"nodes each search may visit before its value is unknown (default "
                   f"{BUDGET:,}); the same answer on any machine")
    s.add_argument("--variant", action="append", default=[], metavar="ID", help=VARIANT_HELP)
    s.add_argument("-j", "--jobs", type=jobs_arg, default=None, metavar="N",
                   help="with --deals: solve the deals in N processes (default 1)")
    add_cluster(s, "with --deals: solve the deals on a Dask cluster")
    s.add_argument("--json", action="store_true", help="write the values as JSON")
    s.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output "
                   "(also when some values are unknown)")
    s.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Solve the deal asked for and write its table (and its play, with --play); with
    --deals, the deals of that many seeds."""
    if args.deals is not None:
        return run_many(args)
    if args.jobs is not None or args.cluster is not None:
        raise InputError("-j and --cluster share out the deals of --deals N: give --deals")
    game = game_named(args.game, args.variant)
    final, first, source = _deal(args, game)
    game = final.game  # a record's own variants
    tab, paid = solved(final, first, args.budget, play=args.play, shown=True)
    unknown = tab.unknown + sum(c.cost is None for _k, c in paid or ())
    text = (json.dumps(deal_json(game, final, source, tab, paid, args.budget), indent=2,
                       ensure_ascii=False) if args.json
            else _text(game, final, source, tab, paid, args.budget))
    emit(args, text)
    if unknown:
        print(f"trickspec: unknown: {unknown} value(s): a search spent its budget of "
              f"{args.budget:,} nodes (raise --budget to let it look further)", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


# -- the deal ---------------------------------------------------------------------------------
def _deal(args: argparse.Namespace, game: Game) -> tuple[State, State, dict[str, Any]]:
    """The deal asked for, played to its end; its first state; and where it came from.

    Raises:
        InputError: no source or several, or a source that cannot be read.
    """
    given = [f"--{o}" for o in ("seed", "record", "pbn", "deal") if getattr(args, o) is not None]
    if len(given) != 1:
        both = f", not {' and '.join(given)}" if given else ""
        raise InputError("give one deal to solve: --seed N, --record FILE, --pbn FILE or "
                         f"--deal FILE{both}")
    if args.board is not None and not (args.pbn or args.deal):
        raise InputError("--board picks a deal of a file: give it with --pbn FILE or --deal FILE")
    if args.record is not None:
        return _recorded(game, args.record)
    if args.seed is not None:
        return seeded(game, args.seed)
    if args.pbn is not None:
        d = pbn_deal(game, args.pbn, args.board)
        hands, dealer = d.hands, d.dealer
        source: dict[str, Any] = {"pbn": args.pbn, "board": d.board}
    else:
        hands, dealer, dealt = deal_from_file(game, args.deal, args.board)
        source = {"deal": args.deal, "board": 1 if args.board is None else int(args.board)}
        return (play_deal(game, seed=0, hands=hands, dealer=dealer, **dealt),
                new_deal(game, seed=0, hands=hands, dealer=dealer, **dealt), source)
    return (play_deal(game, seed=0, hands=hands, dealer=dealer),
            new_deal(game, seed=0, hands=hands, dealer=dealer), source)


def _recorded(game: Game, path: str) -> tuple[State, State, dict[str, Any]]:
    """A deal record's end and start, confirmed by a replay.

    Raises:
        InputError: the file is no record of one deal of ``game``, or the rules reject it.
    """
    name = "standard input" if path == "-" else shown_path(path)
    data = read_json(path, what="a record from 'trickspec play GAME --json'")
    if isinstance(data, dict) and "deals" in data:
        raise InputError(f"{name} holds several deals (a session, a match or a rubber); give "
                         "the record of one deal, from 'trickspec play GAME --json'")
    try:
        report = replay(data, game)
    except NotationError as e:
        raise InputError(f"{name}: {e}") from None
    if not report.ok or report.state is None:
        raise InputError(f"{name}: the record is rejected: {report.message}")
    final = report.state
    g = final.game
    thrown = data["thrown_in"]
    first = thrown[0] if thrown else data
    up = g.deck.parse_card(data["turn_up"]) if "turn_up" in data and not thrown else None
    start = new_deal(g, seed=data["seed"], dealer=g.table.parse_seat(first["dealer"]),
                     hands=hands_from_text(g, first["hands"]), turn_up=up, pot=data.get("pot"))
    return final, start, {"record": path}


# -- text -------------------------------------------------------------------------------------
def _trumps(code: int | None) -> str:
    if code is None:
        return "mixed"
    suit = suit_from_code(code)
    return suit.symbol if suit is not None else "none"


def _text(game: Game, final: State, source: dict[str, Any], tab: Table,
          paid: Sequence[tuple[int, Cost]] | None, budget: int) -> str:
    """The deal, its table and, with ``paid``, its play, as text."""
    t = game.table
    lines = [f"{game.name}, {_source_text(source)}, dealer {t.name(final.dealer)}: "
             f"double-dummy {tab.unit} of the declaring side",
             *hand_lines(game, final.dealt,
                         talon=final.dealt_talon if game.program.talon_cards else None)]
    if final.turn_up >= 0:
        lines.append(f"  turn-up {game.deck[final.turn_up].symbol}")
    if tab.played is not None:
        by_bots = "pbn" in source or "deal" in source
        lines.append(_played_text(game, tab, "As the bots play it (seed 0)" if by_bots
                                  else "As played"))
    lines += _table_text(game, tab)
    if paid is not None:
        lines += _play_text(game, final, tab, paid)
    lines.append(f"{tab.nodes:,} nodes searched (at most {budget:,} a search); '?': unknown, "
                 "the search spent its budget")
    return "\n".join(lines)


def _source_text(source: dict[str, Any]) -> str:
    if "seed" in source:
        return f"seed {source['seed']}"
    if "record" in source:
        return f"record {shown_path(source['record'])}"
    kind = "pbn" if "pbn" in source else "deal"
    return f"{shown_path(source[kind])}, board {source['board'] or '?'}"


def _played_text(game: Game, tab: Table, label: str) -> str:
    """The deal's own first lead: its contract, declarers, partner, the seat sitting out,
    the trumps, and its value."""
    assert tab.played is not None
    s, cell = tab.played.state, tab.played.cell
    t = game.table
    others = [t.name(k) for k in t.seats if s.declarers >> k & 1 and k != s.declarer]
    partner = f" with {t.name(s.partner)}" if 0 <= s.partner != s.declarer else ""
    out = f", {t.name(s.out)} sitting out" if s.out >= 0 else ""
    goal = cell.goal.describe(tab.unit)
    value = value_text(cell.value, cell.goal)
    if cell.value is not None and not cell.goal.bounded:
        value += f" {tab.unit}"
    return (f"{label}: {contract_text(game, s)}{''.join(' and ' + o for o in others)}"
            f"{partner}{out}, trumps {_trumps(s.trump)}: {value} (the declaring side plays "
            f"for {goal})")


def _table_text(game: Game, tab: Table) -> list[str]:
    """The rows, aligned: the contracts, the trumps, the goal (where rows differ in it)
    and a column per declarer ('-': the hands do not bring him to these contracts)."""
    notes = [f"left out: {n}" for n in tab.notes]
    if not tab.rows:
        return notes
    t = game.table
    goals = {r.goal for r in tab.rows}
    shared = goals.pop() if len(goals) == 1 else None
    head = ["contracts", "trumps", *([] if shared else ["plays for"]),
            *(t.name(k) for k in t.seats)]
    body = []
    for r in tab.rows:
        by_seat = {c.declarer: c for c in r.cells}
        body.append([row_contracts(game, r), _trumps(r.trump),
                     *([] if shared else [r.goal.describe(tab.unit) if r.goal else "mixed"]),
                     *(value_text(by_seat[k].value, by_seat[k].goal) if k in by_seat else "-"
                       for k in t.seats)])
    fixed = 2 if shared else 3
    widths = [max(len(row[i]) for row in (head, *body)) for i in range(len(head))]
    lines = [f"Each declarer's side plays for {shared.describe(tab.unit)}" if shared
             else "The declarer's side plays for what each row says"]
    for row in (head, *body):
        lines.append("  " + "  ".join(c.ljust(w) if i < fixed else c.rjust(w)
                                      for i, (c, w) in enumerate(zip(row, widths))).rstrip())
    if any(len(r.cells) < len(t.seats) for r in tab.rows):
        lines.append("'-': the declarer's hands do not bring him to these contracts")
    return lines + notes


def _card(a: Action) -> str:
    if isinstance(a, Play):
        return a.card.symbol + (f" (naming {a.names.symbol})" if a.names else "")
    return str(a)


def _play_text(game: Game, final: State, tab: Table, paid: Sequence[tuple[int, Cost]]
               ) -> list[str]:
    """Each trick: the declaring side's value before it, and each card with its cost; then
    what each seat threw away in all."""
    t = game.table
    lines = [f"Play: before each trick the declaring side's value; after each card what it "
             f"cost its side against the best card there ({tab.unit})"]
    if not paid:
        return [lines[0], "  none: the deal ended before the first card"]
    goal = tab.played.cell.goal if tab.played is not None else None
    tricks: dict[int, list[Cost]] = {}
    for k, c in paid:
        tricks.setdefault(k, []).append(c)
    for k, trick in tricks.items():
        won = f"  -> {t.name(final.tricks[k - 1].winner)}" if k <= len(final.tricks) else ""
        lines.append(f"  {k:2}. [{value_text(trick[0].value, goal)}] " + ", ".join(
            f"{t.name(c.seat)} {_card(c.action)} {'?' if c.cost is None else c.cost}"
            for c in trick) + won)
    lost: dict[int, int | None] = {}
    for _k, c in paid:
        before = lost.get(c.seat, 0)
        lost[c.seat] = None if before is None or c.cost is None else before + c.cost
    lines.append("Thrown away: " + ", ".join(
        f"{t.name(k)} {'?' if lost[k] is None else lost[k]}" for k in t.seats if k in lost))
    return lines
