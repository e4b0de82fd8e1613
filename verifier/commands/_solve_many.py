"""``trickspec solve GAME --deals N``: the double-dummy values of the deals of N seeds, each
solved as ``trickspec solve GAME --seed K`` solves it, and for each contract and declarer
how often the declaring side makes it and the mean of what it takes.

The deals are split by seed ranges, as ``trickspec stats`` splits them: in this process, in
``-j`` processes, or on a Dask cluster (:mod:`verifier.cluster`).  A range is solved by a
pure function of the game, its variants, the budget and the seeds, whose answer holds
everything the output needs (each deal's JSON, its line of text and its values, each
judged made or not where it is solved), so the answers, put together in seed order, give
the same output byte for byte however the deals were shared out.

*Made* is what ``trickspec stats`` calls made, judged at double dummy
(:func:`spec.solver.made`): for a goal of a count between bounds, the side gets there;
otherwise the rules' score for what the side takes puts the declarer above every seat of
the other side.  Where the side counts card points the value does not say it (which cards
make the points decides the score), and only the mean is given.  An unknown value (a
search that spent its budget) is counted apart, never as made or failed.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spec.dsl._build import Game
from spec.registry import find_game
from spec.solver import Table, made
from verifier.cluster import check_address, connected, run_ranges
from verifier.commands._common import (
    EXIT_ERROR,
    EXIT_OK,
    Progress,
    emit,
    game_named,
    seed_range,
)
from verifier.commands._solve_deal import (
    SHOWN_AFTER,
    deal_json,
    row_contracts,
    seeded,
    solved,
    value_text,
)
from verifier.errors import InputError
from verifier.interrupts import worker_pool

_CHUNK = 4  # deals a task solves: a deal takes a second or more, so ranges stay short
ONE_DEAL = ("record", "pbn", "deal", "board", "play")  # options of one deal only


@dataclass(frozen=True)
class Value:
    """One value of a deal: ``kind`` ``table`` (a cell of a row) or ``played`` (the deal's
    own first lead); the contract (its number on the ladder, and the choice made after the
    auction, if any), the declarer, the value (None: unknown), whether the goal is a count
    between bounds (the value then says made or not, and counts nothing), and whether the
    side makes it (None: not judged)."""

    kind: str
    contract: int
    choice: str | None
    declarer: int
    value: int | None
    bounded: bool
    made: bool | None


@dataclass(frozen=True)
class SolvedDeal:
    """One deal solved: its seed, its JSON (the one-deal command's, with the seed), its
    line of text, and its values."""

    seed: int
    data: dict[str, Any]
    line: str
    values: tuple[Value, ...]


def run_many(args: argparse.Namespace) -> int:
    """Solve the deals of ``--deals`` seeds and write each deal's values and the summary."""
    given = [f"--{o}" for o in ONE_DEAL if getattr(args, o) not in (None, False)]
    if given:
        raise InputError(f"--deals solves the deals of seeds: it cannot be given with "
                         f"{' and '.join(given)}")
    game = game_named(args.game, args.variant)
    if args.cluster is not None:
        if args.jobs is not None and args.jobs > 1:
            raise InputError("-j and --cluster both say where the deals are solved: name one")
        check_address(args.cluster)
    first = 0 if args.seed is None else args.seed
    seeds = seed_range(first, args.deals)
    progress = Progress(args.deals, "deals solved", after=SHOWN_AFTER)
    try:
        with connected(args.cluster) if args.cluster else contextlib.nullcontext() as client:
            deals = _solved_all(game, seeds, args.budget, args.jobs or 1, progress, client)
    finally:
        progress.close()
    summary = Summary.of(deals)
    if args.json:
        text = json.dumps({"game": game.key, "variants": list(game.active_variants),
                           "seed": first, "deals": args.deals, "budget": args.budget,
                           "results": [d.data for d in deals],
                           "summary": summary.to_json(game)},
                          indent=2, ensure_ascii=False)
    else:
        text = _text(game, seeds, deals, summary, args.budget)
    emit(args, text)
    if summary.unknown:
        print(f"trickspec: unknown: {summary.unknown} value(s): a search spent its budget of "
              f"{args.budget:,} nodes (raise --budget to let it look further)", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


def _solved_all(game: Game, seeds: range, budget: int, jobs: int, progress: Progress,
                client: Any = None) -> list[SolvedDeal]:
    """The deals of ``seeds`` solved, in seed order: in this process, in ``jobs``
    processes, or on the cluster of ``client``; split by seed ranges."""
    chunks = [range(a, min(a + _CHUNK, seeds.stop)) for a in range(seeds.start, seeds.stop, _CHUNK)]
    call = (game.key, tuple(game.active_variants), budget)
    if client is not None:
        return run_ranges(client, _chunk, call, chunks,
                          on_done=lambda _k, part: progress.reach(progress.done + len(part)))
    if jobs <= 1 or len(chunks) <= 1:
        solved = []
        for k in seeds:  # counted once solved
            solved.append(solve_seed(game, k, budget))
            progress.step()
        return solved
    out: list[SolvedDeal] = []
    with worker_pool(min(jobs, len(chunks))) as pool:
        futures = [pool.submit(_chunk, *call, c.start, c.stop) for c in chunks]
        for f in futures:  # in seed order, whatever order they finish in
            part = f.result()
            out += part
            progress.reach(progress.done + len(part))
    return out


def _chunk(key: str, variants: tuple[str, ...], budget: int, start: int, stop: int
           ) -> list[SolvedDeal]:
    base = find_game(key)
    game = base.with_variants(*variants) if variants else base
    return [solve_seed(game, k, budget) for k in range(start, stop)]


def solve_seed(game: Game, seed: int, budget: int) -> SolvedDeal:
    """The deal of ``seed`` solved as ``trickspec solve GAME --seed N`` solves it: its JSON
    (with the seed), its line and its values, each judged made or not."""
    final, first, source = seeded(game, seed)
    tab, _paid = solved(final, first, budget)
    game = final.game
    data = {"seed": seed, **deal_json(game, final, source, tab, None, budget)}
    return SolvedDeal(seed, data, _line(game, seed, tab), _values(tab))


def _values(tab: Table) -> tuple[Value, ...]:
    """Every value of a table: each contract of each row for each declarer, in the
    table's order, then the deal's own first lead."""
    out = []
    for row in tab.rows:
        by_seat = {c.declarer: c for c in row.cells}
        for st in row.starts:
            cell = by_seat[st.declarer]
            out.append(Value("table", st.contract, st.choice, st.declarer, cell.value,
                             cell.goal.bounded, made(st.state, cell.goal, cell.value)))
    if tab.played is not None:
        s, cell = tab.played.state, tab.played.cell
        out.append(Value("played", s.contract, None, s.declarer, cell.value, cell.goal.bounded,
                         made(s, cell.goal, cell.value)))
    return tuple(out)


# -- the summary ------------------------------------------------------------------------------
@dataclass
class Figures:
    """What the deals say of one contract and declarer: the deals that give it a value,
    those whose value is known, those whose value says made or failed (``judged``) and
    those in which the side makes it, the sum of what the side takes (of the known values
    of goals that count it) and how many of those, and the values unknown."""

    deals: int = 0
    known: int = 0
    judged: int = 0
    made: int = 0
    total: int = 0
    counted: int = 0
    unknown: int = 0

    def add(self, v: Value) -> None:
        self.deals += 1
        if v.value is None:
            self.unknown += 1
            return
        self.known += 1
        if v.made is not None:
            self.judged += 1
            self.made += v.made
        if not v.bounded:
            self.total += v.value
            self.counted += 1

    @property
    def mean(self) -> float | None:
        return round(self.total / self.counted, 4) if self.counted else None

    @property
    def made_share(self) -> float | None:
        return round(self.made / self.judged, 4) if self.judged else None


@dataclass
class Summary:
    """The figures of every contract and declarer, of the table's rows and of the deals'
    own first leads, in ladder and seat order; the deals with no play of the cards, the
    nodes searched and the values unknown."""

    table: dict[tuple[int, str | None, int], Figures] = field(default_factory=dict)
    played: dict[tuple[int, str | None, int], Figures] = field(default_factory=dict)
    no_play: int = 0
    nodes: int = 0
    unknown: int = 0

    @classmethod
    def of(cls, deals: Iterable[SolvedDeal]) -> Summary:
        out = cls()
        table: dict[tuple[int, str | None, int], Figures] = {}
        played: dict[tuple[int, str | None, int], Figures] = {}
        for d in deals:
            out.nodes += d.data["nodes"]
            out.unknown += d.data["unknown"]
            out.no_play += not any(v.kind == "played" for v in d.values)
            for v in d.values:
                into = table if v.kind == "table" else played
                into.setdefault((v.contract, v.choice, v.declarer), Figures()).add(v)
        out.table = dict(sorted(table.items(), key=_order))
        out.played = dict(sorted(played.items(), key=_order))
        return out

    def to_json(self, game: Game) -> dict[str, Any]:
        def entries(figures: dict[tuple[int, str | None, int], Figures]) -> list[dict[str, Any]]:
            return [{"contract": str(game.ladder[c]), **({"choice": ch} if ch else {}),
                     "declarer": game.table.name(k), "deals": f.deals, "known": f.known,
                     "judged": f.judged, "made": f.made, "made_share": f.made_share,
                     "mean": f.mean, "unknown": f.unknown} for (c, ch, k), f in figures.items()]
        return {"table": entries(self.table), "played": entries(self.played),
                "no_play": self.no_play, "nodes": self.nodes, "unknown": self.unknown}


def _order(item: tuple[tuple[int, str | None, int], Figures]) -> tuple[int, str, int]:
    (contract, choice, declarer), _f = item
    return contract, choice or "", declarer


# -- text -------------------------------------------------------------------------------------
def _line(game: Game, seed: int, tab: Table) -> str:
    """A deal in one line: its own first lead and its value, then each row of its table,
    a value per declarer in seat order ('-': the hands do not bring him to it)."""
    t = game.table
    if tab.played is not None:
        s, cell = tab.played.state, tab.played.cell
        parts = [f"played {game.ladder[s.contract].symbol} by {t.name(s.declarer)}: "
                 f"{value_text(cell.value, cell.goal)}"]
    else:
        parts = ["no play of the cards"]
    for row in tab.rows:
        by_seat = {c.declarer: c for c in row.cells}
        parts.append(row_contracts(game, row) + " " + "/".join(
            value_text(by_seat[k].value, by_seat[k].goal) if k in by_seat else "-"
            for k in t.seats))
    return f"  seed {seed}: " + "; ".join(parts)


def _text(game: Game, seeds: range, deals: Sequence[SolvedDeal], summary: Summary,
          budget: int) -> str:
    """Each deal's line, then the figures of the table's contracts and of the contracts
    played, then the nodes and the unknown values."""
    t = game.table
    unit = deals[0].data["unit"]
    extra = f" with {', '.join(game.active_variants)}" if game.active_variants else ""
    seats = "/".join(t.name(k) for k in t.seats)
    lines = [f"{game.name}{extra}, {len(seeds):,} deals (seeds {seeds.start} to "
             f"{seeds.stop - 1}): double-dummy {unit} of the declaring side; each deal as "
             f"played, then each row of its table, a value per declarer ({seats})",
             *(d.line for d in deals)]
    figures = (f"made/judged (the deals in which the declaring side makes it, of those whose "
               f"value says made or failed), the share, the mean of its {unit}, and N?: values "
               "unknown")
    if summary.table:
        lines.append(f"Each contract and declarer, over the deals whose hands reach it: {figures}")
        lines += _figures_text(game, summary.table)
    if summary.played:
        lines.append(f"Each contract as played, by its declarer: {figures}")
        lines += _figures_text(game, summary.played)
    if summary.no_play:
        lines.append(f"no play of the cards: {summary.no_play:,} deal(s)")
    lines.append(f"{summary.nodes:,} nodes searched (at most {budget:,} a search); "
                 f"{summary.unknown:,} value(s) unknown ('?'), the search spent its budget; "
                 "'-': not reached")
    return "\n".join(lines)


def _figures_text(game: Game, figures: dict[tuple[int, str | None, int], Figures]) -> list[str]:
    """A row per contract, a column per declarer, aligned."""
    t = game.table
    rows: dict[tuple[int, str | None], dict[int, Figures]] = {}
    for (c, ch, k), f in figures.items():
        rows.setdefault((c, ch), {})[k] = f
    head = ["contract", *(t.name(k) for k in t.seats)]
    body = [[game.ladder[c].symbol + (f" ({ch})" if ch else ""),
             *(_cell(by_seat[k]) if k in by_seat else "-" for k in t.seats)]
            for (c, ch), by_seat in rows.items()]
    widths = [max(len(r[i]) for r in (head, *body)) for i in range(len(head))]
    return ["  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                             for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in (head, *body)]


def _cell(f: Figures) -> str:
    """``made/judged share mean N?``: the parts that apply."""
    parts = []
    if f.judged:
        parts.append(f"{f.made}/{f.judged} {100 * f.made / f.judged:.1f}%")
    if f.counted:  # from the sum, not the JSON's mean rounded to four places
        parts.append(f"{f.total / f.counted:.2f}")
    if f.unknown:
        parts.append(f"{f.unknown}?")
    return " ".join(parts)
