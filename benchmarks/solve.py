"""How fast the double-dummy solver is, against DDS (the bridge solver) on Vint and against
its targets on whole deals of the small games, and how large its table grows.

Run from the repository root::

    python benchmarks/solve.py                       # the defaults: a few minutes
    python benchmarks/solve.py --deals 20 --budget 2000000 --json

Every figure is measured in this run, on one core, after a warm-up that compiles the rules
(and loads DDS):

* **Vint strain**: ``--deals`` random 13-card deals, one declarer each (North, East, South,
  West in turn), each of the five strains solved from the first lead with ``--budget``
  nodes; the median, p99 and largest time and nodes a strain, and how many were unknown
  (the budget spent: their time is the budget's, so the figures are then a floor).  DDS's
  ``SolveBoard`` (endplay's ``solve_board``, one optimal card) on the same positions, and
  the solver's median over DDS's, against the target of at most 20 times.  Every strain the
  solver answers is compared with DDS's tricks.
* **Vint table**: ``--tables`` deals solved for every strain and declarer (20 searches)
  against DDS's ``CalcDDtable`` on one thread, at most 20 times.
* **whole deals**: Crescendo, 304 and Préférence deals dealt and bid by the random bots,
  solved from the first lead with ``--whole-budget`` nodes: the median, p99 and largest
  time against the target of a median of at most 50 ms, nodes, and unknown counts.
* **table**: the positions the search's table holds at the end of each search (median and
  largest), and, for the search that held the most in each part, its peak memory traced by
  ``tracemalloc`` (the table, and the search's other structures) and that over its entries.

Each figure is printed beside its target; nothing fails when one is missed: the figures are
for reading, not a gate.  Without endplay the DDS figures are left out, and said so.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import tracemalloc
from typing import Any

from spec.dsl._build import Game
from spec.dsl._nodes import NO_SUIT, suit_code
from spec.engine import Phase, State, apply, legal_actions, new_deal, pick
from spec.games.vint import GAME as VINT
from spec.errors import NotationError
from spec.pbn import deal_text
from spec.registry import find_game
from spec.solver import Solved, Solver

STRAINS = ("S", "C", "D", "H", "NT")
SEATS = 4
TRICKS = 13
WHOLE_GAMES = ("crescendo", "304", "preference")
TIMES_DDS_TARGET = 20.0  # the solver's median at most so many times DDS's
WHOLE_TARGET_MS = 50.0  # the median whole deal of the small games
MOST_AUCTION_ACTIONS = 2_000


# -- the solver -------------------------------------------------------------------------------

def _timed(solver: Solver, s: State, budget: int) -> tuple[float, Solved]:
    start = time.perf_counter()
    got = solver.solve(s, budget=budget)
    return time.perf_counter() - start, got


def _traced(solver: Solver, s: State, budget: int) -> int:
    """The peak memory, in bytes, that ``tracemalloc`` traces while ``s`` is solved."""
    tracemalloc.start()
    try:
        solver.solve(s, budget=budget)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0 to 100) of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))]


def _summary(runs: list[tuple[float, Solved]]) -> dict[str, Any]:
    """Median, p99 and largest time (ms) and nodes, the unknown count, the table's entries."""
    ms = [t * 1e3 for t, _g in runs]
    nodes = [float(g.nodes) for _t, g in runs]
    entries = [float(g.entries) for _t, g in runs]
    return {
        "searches": len(runs), "unknown": sum(not g.known for _t, g in runs),
        "median_ms": statistics.median(ms), "p99_ms": _percentile(ms, 99), "max_ms": max(ms),
        "median_nodes": statistics.median(nodes), "p99_nodes": _percentile(nodes, 99),
        "max_nodes": max(nodes), "us_per_node": sum(ms) * 1e3 / max(1.0, sum(nodes)),
        "median_entries": statistics.median(entries), "max_entries": max(entries),
    }


def _memory(solver: Solver, runs: list[tuple[State, Solved]], budget: int) -> dict[str, Any]:
    """The traced peak of the search that held the most positions, and per position."""
    s, got = max(runs, key=lambda r: r[1].entries)
    peak = _traced(solver, s, budget)
    return {"entries": got.entries, "peak_bytes": peak,
            "bytes_per_entry": peak / got.entries if got.entries else None}


# -- Vint and DDS -----------------------------------------------------------------------------

def _deal(seed: int) -> list[int]:
    deck = list(range(len(VINT.deck)))
    random.Random(seed).shuffle(deck)
    return [sum(1 << c for c in deck[k * TRICKS:(k + 1) * TRICKS]) for k in range(SEATS)]


class Dds:
    """DDS through endplay, on one thread; None where endplay is not installed."""

    def __init__(self) -> None:
        import endplay._dds as dds  # type: ignore[import-not-found]  # optional
        from endplay.dds import calc_dd_table, solve_board  # type: ignore[import-not-found]
        from endplay.dds.solve import SolveMode  # type: ignore[import-not-found]
        from endplay.types import Deal, Denom, Player  # type: ignore[import-not-found]
        dds.SetMaxThreads(1)
        self.deal, self.player, self.nt = Deal, Player, Denom.nt
        self.denom = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds,
                      "C": Denom.clubs}
        self.solve_board, self.calc_dd_table, self.mode = solve_board, calc_dd_table, SolveMode
        import endplay  # type: ignore[import-not-found]
        self.version = getattr(endplay, "__version__", "?")

    def strain(self, hands: list[int], s: State) -> tuple[float, int]:
        """The time of DDS's search of the first lead of ``s``, and the declaring side's
        tricks (DDS counts those of the side on lead)."""
        deal = self.deal(deal_text(VINT, hands))
        deal.first = self.player(s.turn)
        if s.trump == NO_SUIT:
            deal.trump = self.nt
        else:
            letter = next(c.suit.letter for c in VINT.deck
                          if c.suit is not None and suit_code(c.suit) == s.trump)
            deal.trump = self.denom[letter]
        start = time.perf_counter()
        got = self.solve_board(deal, self.mode.OptimalOne)
        spent = time.perf_counter() - start
        return spent, TRICKS - max(tricks for _card, tricks in got)

    def warm_up(self, hands: list[int], s: State) -> None:
        """One search of each kind, untimed: DDS sets up its memory on the first."""
        self.strain(hands, s)
        self.table(hands)

    def table(self, hands: list[int]) -> tuple[float, dict[tuple[str, int], int]]:
        deal = self.deal(deal_text(VINT, hands))
        start = time.perf_counter()
        got = self.calc_dd_table(deal)
        spent = time.perf_counter() - start
        return spent, {(strain, seat): got[self.player(seat), self.denom.get(strain, self.nt)]
                       for strain in STRAINS for seat in range(SEATS)}


def _load_dds() -> tuple[Dds | None, str | None]:
    try:
        return Dds(), None
    except ImportError as exc:
        return None, f"endplay is not importable ({exc}); pip install endplay to compare"


def measure_vint(deals: int, tables: int, seed: int, budget: int, dds: Dds | None
                 ) -> dict[str, Any]:
    """The Vint strains and tables, with DDS's times and values beside them."""
    solver = Solver(VINT)
    warm = solver.start(_deal(seed), contract="1NT", declarer=0)
    solver.solve(warm, budget=1_000)  # the rules compiled, the solver's tables built
    if dds is not None:
        dds.warm_up(_deal(seed), warm)
    runs: list[tuple[float, Solved]] = []
    kept: list[tuple[State, Solved]] = []
    dds_s: list[float] = []
    compared = {"equal": 0, "wrong": 0}
    for k in range(deals):
        hands = _deal(seed + k)
        for strain in STRAINS:
            s = solver.start(hands, contract="1" + strain, declarer=k % SEATS)
            spent, got = _timed(solver, s, budget)
            runs.append((spent, got))
            kept.append((s, got))
            if dds is not None:
                dds_spent, tricks = dds.strain(hands, s)
                dds_s.append(dds_spent)
                if got.known:
                    compared["equal" if got.value == tricks else "wrong"] += 1
    out: dict[str, Any] = {"deals": deals, "budget": budget, "strain": _summary(runs),
                           "strain_memory": _memory(solver, kept, budget),
                           "strain_vs_dds": compared}
    if dds is not None:
        dds_ms = statistics.median(dds_s) * 1e3
        out["dds_strain_median_ms"] = dds_ms
        out["strain_times_dds"] = out["strain"]["median_ms"] / dds_ms
    out.update(_measure_tables(solver, tables, seed, budget, dds))
    return out


def _measure_tables(solver: Solver, tables: int, seed: int, budget: int, dds: Dds | None
                    ) -> dict[str, Any]:
    """Whole Vint tables: 20 searches a deal, against DDS's table of the same deal."""
    times, dds_times, unknown, compared = [], [], 0, {"equal": 0, "wrong": 0}
    for k in range(tables):
        hands = _deal(seed + 10_000 + k)
        start = time.perf_counter()
        cells = {(strain, seat): solver.solve(solver.start(hands, contract="1" + strain,
                                                           declarer=seat), budget=budget)
                 for strain in STRAINS for seat in range(SEATS)}
        times.append(time.perf_counter() - start)
        unknown += sum(not g.known for g in cells.values())
        if dds is not None:
            spent, want = dds.table(hands)
            dds_times.append(spent)
            for cell, got in cells.items():
                if got.known:
                    compared["equal" if got.value == want[cell] else "wrong"] += 1
    if not tables:
        return {}
    out: dict[str, Any] = {"tables": tables, "table_median_s": statistics.median(times),
                           "table_max_s": max(times), "table_unknown_cells": unknown,
                           "table_vs_dds": compared}
    if dds is not None:
        out["dds_table_median_s"] = statistics.median(dds_times)
        out["table_times_dds"] = out["table_median_s"] / out["dds_table_median_s"]
    return out


# -- whole deals of the small games -----------------------------------------------------------

def _first_lead(game: Game, seed: int) -> State | None:
    """The deal of ``seed`` dealt and bid by the random bots, at the first lead; None where
    it is over (or thrown in again and again) before the play."""
    s = new_deal(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(MOST_AUCTION_ACTIONS):
        if s.phase is Phase.PLAY:
            return s
        if s.phase is Phase.OVER:
            return None
        acts = legal_actions(s)
        s = apply(s, acts[pick(rng, len(acts))])
    return None


def measure_whole(game: Game, deals: int, seed: int, budget: int) -> dict[str, Any]:
    solver = Solver(game)
    starts = [s for s in (_first_lead(game, seed + k) for k in range(deals)) if s is not None]
    if not starts:
        return {"game": game.key, "deals": 0}
    solver.solve(starts[0], budget=1_000)  # warm-up
    runs = [_timed(solver, s, budget) for s in starts]
    return {"game": game.key, "deals": len(starts), "budget": budget, **_summary(runs),
            "memory": _memory(solver, [(s, g) for s, (_t, g) in zip(starts, runs)], budget),
            "target_median_ms": WHOLE_TARGET_MS}


# -- the report -------------------------------------------------------------------------------

def _at_most(value: float, target: float, unit: str = "", floor: bool = False) -> str:
    """The target beside a figure; a floor (some search unknown, stopped at its budget)
    only ever misses it."""
    mark = "MISSED" if value > target else "not judged: a floor" if floor else "met"
    return f"(target <= {target:g}{unit}: {mark})"


def _line(f: dict[str, Any]) -> str:
    return (f"median {f['median_ms']:,.1f} ms, p99 {f['p99_ms']:,.1f}, max {f['max_ms']:,.1f}; "
            f"nodes median {f['median_nodes']:,.0f}, max {f['max_nodes']:,.0f} "
            f"({f['us_per_node']:.1f} µs a node); {f['unknown']} of {f['searches']} unknown")


def _memory_line(m: dict[str, Any]) -> str:
    per = m["bytes_per_entry"]
    return (f"table: the largest held {m['entries']:,} positions; peak traced "
            f"{m['peak_bytes'] / 1e6:,.1f} MB" + (f", {per:,.0f} bytes a position" if per else ""))


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _print_vint(v: dict[str, Any], dds_error: str | None, dds: Dds | None) -> None:
    note = " (a floor: unknown strains stop at the budget)" if v["strain"]["unknown"] else ""
    print(f"solver: Vint, {_count(v['deals'], 'random 13-card deal')}, 5 strains each, "
          f"budget {v['budget']:,} nodes, one core")
    print(f"  strain      {_line(v['strain'])}{note}")
    print(f"              {_memory_line(v['strain_memory'])}")
    if dds is None:
        print(f"  DDS         not measured: {dds_error}")
    else:
        c = v["strain_vs_dds"]
        ratio, floor = v["strain_times_dds"], bool(v["strain"]["unknown"])
        print(f"  DDS         solve_board (endplay {dds.version}, one thread): median "
              f"{v['dds_strain_median_ms']:,.2f} ms a strain; the solver's median is "
              f"{'at least ' if floor else ''}{ratio:,.1f}x "
              f"{_at_most(ratio, TIMES_DDS_TARGET, 'x', floor)}")
        print(f"              values: {c['equal']} strains equal to DDS's, {c['wrong']} WRONG")
    if "tables" in v:
        print(f"  table       {_count(v['tables'], 'deal')} x 20 searches: median "
              f"{v['table_median_s']:,.1f} s, max {v['table_max_s']:,.1f} s; "
              f"{v['table_unknown_cells']} of {20 * v['tables']} cells unknown")
        if dds is not None:
            c = v["table_vs_dds"]
            ratio, floor = v["table_times_dds"], bool(v["table_unknown_cells"])
            print(f"              DDS calc_dd_table median "
                  f"{v['dds_table_median_s'] * 1e3:,.1f} ms; the solver's is "
                  f"{'at least ' if floor else ''}{ratio:,.1f}x "
                  f"{_at_most(ratio, TIMES_DDS_TARGET, 'x', floor)}; values: "
                  f"{c['equal']} cells equal to DDS's, {c['wrong']} WRONG")


def _print_whole(figures: list[dict[str, Any]]) -> None:
    for f in figures:
        if not f["deals"]:
            print(f"solver: {f['game']}: no deal reached the play")
            continue
        print(f"solver: {f['game']}, {_count(f['deals'], 'whole deal')} from the first lead, "
              f"budget {f['budget']:,} nodes")
        floor = f["unknown"] * 2 > f["searches"]  # the median itself stopped at the budget
        print(f"  deal        {_line(f)} "
              f"{_at_most(f['median_ms'], WHOLE_TARGET_MS, ' ms', floor)}")
        print(f"              {_memory_line(f['memory'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3,
                        help="Vint deals, five strains each (default: %(default)s)")
    parser.add_argument("--tables", type=int, default=1,
                        help="Vint deals solved for the whole table (default: %(default)s)")
    parser.add_argument("--whole-deals", type=int, default=10,
                        help="whole deals of each small game (default: %(default)s)")
    parser.add_argument("--budget", type=int, default=20_000,
                        help="nodes a Vint search may visit before it answers unknown "
                        "(default: %(default)s; a 13-card strain needs millions today)")
    parser.add_argument("--whole-budget", type=int, default=200_000,
                        help="nodes a whole deal of a small game may take (default: %(default)s)")
    parser.add_argument("--game", action="append", default=[], metavar="GAME",
                        help="a small game to time whole deals of (repeatable; default: "
                        f"{', '.join(WHOLE_GAMES)})")
    parser.add_argument("--no-vint", action="store_true", help="skip Vint and DDS")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the first deal; deal k uses seed + k (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if min(args.deals, args.budget, args.whole_budget) < 1 or min(args.tables,
                                                                   args.whole_deals) < 0:
        parser.error("--deals and the budgets must be at least 1, the counts at least 0")
    try:
        games = [find_game(g) for g in args.game or WHOLE_GAMES]
    except NotationError as e:  # an unknown game name: one line, like the CLI
        parser.error(str(e))

    started, cpu = time.perf_counter(), time.process_time()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    dds, dds_error = _load_dds()
    vint = None if args.no_vint else measure_vint(args.deals, args.tables, args.seed,
                                                  args.budget, dds)
    whole = [measure_whole(g, args.whole_deals, args.seed, args.whole_budget) for g in games]
    if args.json:
        print(json.dumps({"vint": vint, "dds": None if dds is None else dds.version,
                          "dds_error": dds_error, "whole": whole, "load_average": load,
                          "cores": os.cpu_count()}, indent=2))
        return 0
    if load is not None:
        print(f"machine: load average {load:.1f} over the last minute at the start, "
              f"{os.cpu_count()} cores (times are wall-clock)")
    if vint is not None:
        _print_vint(vint, dds_error, dds)
    _print_whole(whole)
    print(f"run: {time.perf_counter() - started:,.1f} s wall-clock, "
          f"{time.process_time() - cpu:,.1f} s of this process's CPU time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
