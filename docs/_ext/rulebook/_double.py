"""Double-dummy analysis of an example deal: what the contract played is worth with every
hand open and perfect play by every seat, and which cards of the play changed that.

The solver (:mod:`spec.solver`) is asked within a fixed budget of nodes for the whole deal,
in one search whose table every question shares.  It values the positions of the play from
the last card back, so that each position finds the later ones in its table, and stops where
the budget is spent.  The analysis starts at the first trick from which every position of
the play to the end of the deal is settled: the first lead where the budget reaches that
far, a later trick where it does not (a deal of long hands, whose first tricks no short
search settles).  Each card from there on is judged by the value of the position before it
and after it: a card after which the value moves against the side that played it cost
something against perfect play.

The answers are exact or absent, never guessed, and the same in every build: the budget
counts the positions searched, not time.
"""
from __future__ import annotations

from dataclasses import dataclass

from spec.dsl._build import Game
from spec.engine import Action, Phase, Play, State, TrickRecord, engine_for
from spec.errors import SpecError
from spec.solver import Goal, Solver
from spec.solver._search import Exhausted

from ._examples import ExampleError, action_text

__all__ = ["BUDGET", "Analysis", "Slip", "analyse", "double_dummy_lines", "play_positions",
           "trick_worths"]

# the positions (nodes) the solver may search for one deal: about half a second of a
# two-core machine, some fifteen seconds for every example of every game in a build; a
# larger budget moves the start of a long deal's analysis back by a trick at most
BUDGET = 30_000


@dataclass(frozen=True)
class Slip:
    """A card (or announcement) of the play after which the value moved against its side."""

    trick: int
    seat: int
    action: Action
    before: int  # the declaring side's value before the card and after it
    after: int


@dataclass(frozen=True)
class Analysis:
    """What the solver settled of one deal.

    ``value`` is the declaring side's value under perfect play from the first lead of trick
    ``trick`` (its points at the end of the deal, or, for a goal between bounds, 1 where it
    gets there and 0 where it does not), ``won`` its points before that trick, ``took`` its
    points at the end of the deal as played; ``trick`` is 0 where no position was settled.
    """

    trick: int
    value: int
    won: int
    took: int
    goal: Goal
    unit: str
    side: int  # the declaring side's seats, a bit per seat
    slips: tuple[Slip, ...]
    budget: int


def play_positions(game: Game, final: State) -> tuple[list[tuple[State, int, Action]], State]:
    """The positions of the play of ``final``'s deal (the deal shown, not one thrown in
    before it), each with the seat to act and what it did; and the position after the last
    of them."""
    eng = engine_for(game)
    first = final.thrown_in[0] if final.thrown_in else None
    state = eng.start(first.dealt if first else final.dealt,
                      dealer=first.dealer if first else final.dealer, seed=final.seed)
    for d in final.thrown_in:
        for _seat, action in d.log:
            state = eng.apply(state, action)
    out = []
    for seat, action in final.log:
        if state.phase is Phase.PLAY:
            out.append((state, seat, action))
        state = eng.apply(state, action)
    return out, state


def analyse(game: Game, final: State, budget: int = BUDGET) -> Analysis | None:
    """The double-dummy analysis of a finished deal within ``budget`` nodes (see the module's
    docstring); None where no card was played.

    Raises:
        SpecError: the solver cannot read the position (no declarer, say, or no one goal
            for the contract).
        ExampleError: a card moved the value in its own side's favour, which perfect play
            by every seat rules out: a bug, never shown.
    """
    positions, end = play_positions(game, final)
    if not positions:
        return None
    solver = Solver(game)
    search = solver.search(positions[0][0], budget)
    goal = search.goal
    n = len(positions)
    values: list[int | None] = [None] * n + [search.value(end)]  # the deal over: no search
    for i in range(n - 1, -1, -1):
        try:
            values[i] = search.value(positions[i][0])
        except Exhausted:
            break
    # the first position of a trick from which every position to the end is settled
    start = next((i for i in range(n) if values[i] is not None and not positions[i][0].trick
                  and (i == 0 or positions[i - 1][0].trick_number
                       != positions[i][0].trick_number)), n)
    sign = 1 if goal.bounded else goal.sign
    took = search.points(end)
    if start == n:
        return Analysis(0, 0, 0, took, goal, solver.unit, search.side, (), budget)
    settled = [v for v in values[start:] if v is not None]
    slips = []
    for (state, seat, action), before, after in zip(positions[start:], settled, settled[1:]):
        if before == after:
            continue
        mine = bool(search.side >> seat & 1)
        if isinstance(action, Play) and (after > before) == mine:
            raise ExampleError(f"{game.key}: the double-dummy value moves from {before * sign} "
                               f"to {after * sign} in favour of the side that played "
                               f"{action_text(game, action)} at trick {state.trick_number}")
        slips.append(Slip(state.trick_number, seat, action, before * sign, after * sign))
    first = positions[start][0]
    return Analysis(first.trick_number, settled[0] * sign, search.points(first), took, goal,
                    solver.unit, search.side, tuple(slips), budget)


def trick_worths(game: Game, final: State) -> tuple[int, ...]:
    """What each trick of ``final``'s deal is worth by the rules' points, its cards aside."""
    eng = engine_for(game)
    return tuple(eng.trick_points(final.contract, TrickRecord(k, 0, (), (), 0))
                 for k in range(1, len(final.tricks) + 1))


def _names(game: Game, side: int) -> str:
    names = [game.table.name(k) for k in range(game.players) if side >> k & 1]
    return " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]


def _count(n: int, unit: str) -> str:
    return f"{n} {unit.removesuffix('s') if n == 1 else unit}"


def _reached(value: int) -> str:
    return "reached" if value else "missed"


def double_dummy_lines(game: Game, final: State, budget: int = BUDGET) -> list[str]:
    """The double-dummy section of an example deal, as reST lines ([] where no card was
    played)."""
    from ._page import esc

    try:
        a = analyse(game, final, budget)
    except SpecError as e:
        return [f"*Double dummy:* not analysed: {esc(str(e))}.", ""]
    if a is None:
        return []
    worths = trick_worths(game, final)
    if a.unit == "tricks" and len(set(worths)) > 1:
        # the solver counts tricks, but the contract is played for the points the tricks
        # are worth: a count of tricks says nothing of it, so nothing is shown
        return [f"*Double dummy:* not analysed: the solver counts the tricks each side takes, "
                f"and here the tricks are worth different points, which decide the contract "
                f"(trick 1 is worth {_count(worths[0], 'points')}, trick {len(worths)} "
                f"{_count(worths[-1], 'points')}).", ""]
    # the goal in the solver's words, the unit in the singular for exactly one
    one = a.goal.bounded and a.goal.low == a.goal.high == 1
    plays = a.goal.describe(a.unit.removesuffix("s") if one else a.unit)
    head = (f"*Double dummy:* the declaring side, {_names(game, a.side)}, plays for "
            f"{esc(plays)}.")
    if not a.trick:
        return [head + f" No trick of the deal is settled within the budget of {a.budget:,} "
                "nodes.", ""]
    if a.trick == 1:
        when = "From the first lead"
    else:
        when = (f"From trick {a.trick} on (the budget of {a.budget:,} nodes settles no "
                f"earlier trick), with {_count(a.won, a.unit)} already won")
    if a.goal.bounded:
        value = ("under perfect play it gets there" if a.value
                 else "under perfect play it does not get there")
    else:
        value = f"under perfect play it ends the deal with {_count(a.value, a.unit)}"
    lines = [head + f" {when}, {value}; in the play it ended with {_count(a.took, a.unit)}.",
             ""]
    if not a.slips:
        lines += ["Every card from there on kept the value.", ""]
        return lines
    word = ("the goal reached or missed" if a.goal.bounded
            else f"the side's {a.unit} under perfect play")
    parts = []
    for s in a.slips:
        if a.goal.bounded:
            change = f"{_reached(s.before)} → {_reached(s.after)}"
        else:
            change = f"{s.before} → {s.after}"
        parts.append(f"trick {s.trick}, {game.table.name(s.seat)} "
                     f"{action_text(game, s.action)} ({change})")
    lines += [f"Cards that cost something against perfect play ({word}, before → after): "
              + esc("; ".join(parts)) + ".", ""]
    return lines
