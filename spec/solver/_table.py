"""The double-dummy table of a deal, and what each card of a played deal cost.

:func:`play_starts` finds the positions at the first lead that the hands of a deal reach
for each contract and declarer, by the rules alone: from the deal's first call, the
declarer bids the contract while the others pass (or, where the rules want a bid below it
first, one of them bids once), and the engine runs the rest of the deal's course, the
trumps the rules give that contract (the suit of its strain, of a card turned up, of the
declarer's choice), the partner the cards make, the seat that sits out and the first
leader.  A contract whose sides the auction makes (a seat joins or accepts the bid), or
before whose play comes a step that moves the cards or the seats (a talon taken, cards laid
aside, a defender's choice to play or not), is left out with a note saying why: its
position depends on more than the hands.

:func:`table` solves those positions, one search for each group of contracts that give one
declarer the same position (the same trumps, sides, goal and first lead), and
:func:`costs` says what each card of a play threw away against the best card there.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from spec.engine import PASS, Action, Call, Declare, Phase, State, apply, legal_actions
from spec.solver._goal import Goal, goal_of, side_of, tricks_of

if TYPE_CHECKING:
    from spec.solver import Solver

# actions an auction may take to reach one contract by one declarer, before it is given up,
# and the bids below it a seat tries (the nearest first)
AUCTION_STEPS = 400
NEAREST = 3


@dataclass(frozen=True)
class Start:
    """A position at the first lead: the contract (its number on the ladder), its declarer,
    the choice he made once the auction was over (its name, or None) and the position."""

    contract: int
    declarer: int
    choice: str | None
    state: State


@dataclass(frozen=True)
class Cell:
    """One declarer's value in one row: ``value`` None where the search spent its budget."""

    declarer: int
    value: int | None
    goal: Goal
    trump: int
    nodes: int


@dataclass(frozen=True)
class Row:
    """Contracts (with the choice made after the auction, if any) that give each declarer
    the same position at the first lead, and each declarer's value there; a declarer the
    hands cannot bring to these contracts has no cell.  ``starts`` holds the positions at
    the first lead of each contract and declarer of the row (what the rules score a value
    by: the contract's own level)."""

    contracts: tuple[tuple[int, str | None], ...]
    cells: tuple[Cell, ...]
    starts: tuple[Start, ...] = field(default=(), compare=False, repr=False)

    @property
    def goal(self) -> Goal | None:
        """What the declaring side plays for, where every cell plays for the same."""
        goals = {c.goal for c in self.cells}
        return goals.pop() if len(goals) == 1 else None

    @property
    def trump(self) -> int | None:
        """The trump suit's code, where every cell has the same trumps."""
        trumps = {c.trump for c in self.cells}
        return trumps.pop() if len(trumps) == 1 else None


@dataclass(frozen=True)
class Played:
    """The position at the first lead of the deal as it was played, and its value."""

    state: State
    cell: Cell


@dataclass(frozen=True)
class Table:
    """The values of a deal: ``rows`` for the contracts the hands reach, ``played`` for the
    deal's own first lead (None where none is given), ``notes`` the contracts left out
    and why, ``unit`` what the values count."""

    unit: str
    rows: tuple[Row, ...]
    played: Played | None
    notes: tuple[str, ...]
    nodes: int  # searched in all, each distinct position once

    @property
    def cells(self) -> tuple[Cell, ...]:
        """Every value: each row's, then the played deal's."""
        out = tuple(c for r in self.rows for c in r.cells)
        return out + ((self.played.cell,) if self.played is not None else ())

    @property
    def unknown(self) -> int:
        """The searches that spent their budget (a position shown in several places counts
        once)."""
        return len({id(c) for c in self.cells if c.value is None})


@dataclass(frozen=True)
class Cost:
    """One action of the play: the seat, the action, the value of the position before it
    for the declaring side (None: unknown), and what the action cost the seat's side
    against the best action there (0, or the points it threw away; None: unknown)."""

    seat: int
    action: Action
    value: int | None
    cost: int | None


# -- reaching the first lead ----------------------------------------------------------------
class _Moves:
    """The legal actions and the successors of the auctions' states, each found once:
    the auctions tried for every contract and declarer share their first calls."""

    def __init__(self, game: Any) -> None:
        self.number = {b: k for k, b in enumerate(game.ladder)}  # each bid's, on the ladder
        self._legal: dict[int, tuple[State, tuple[Action, ...], frozenset[Action]]] = {}
        self._next: dict[tuple[int, Action], State] = {}

    def legal(self, s: State) -> tuple[tuple[Action, ...], frozenset[Action]]:
        """The legal actions of ``s``, in the engine's order and as a set."""
        found = self._legal.get(id(s))
        if found is None:  # the state is kept with them, so its id stays its own
            acts = legal_actions(s)
            found = self._legal[id(s)] = (s, acts, frozenset(acts))
        return found[1], found[2]

    def after(self, s: State, a: Action) -> State:
        """The state after ``a``, one of the legal actions of ``s`` (found first)."""
        t = self._next.get((id(s), a))
        if t is None:
            t = self._next[(id(s), a)] = apply(s, a)
        return t


@dataclass
class _Reached:
    """What the auctions tried for one contract and declarer came to."""

    starts: list[Start]
    blocked: str | None = None  # the step between the auction and the play, if one stopped it
    sides_made: bool = False  # an auction reached it only with sides it made


def play_starts(deal: State) -> tuple[tuple[Start, ...], tuple[str, ...]]:
    """Every position at the first lead the hands of ``deal`` (a deal at its first call)
    reach, for each contract of the ladder and each declarer, in ladder order; and a note
    for the contracts left out, saying why (see the module's docstring): ``"7NT: ..."``.

    Raises:
        ValueError: ``deal`` is past its first call.
    """
    game = deal.game
    if deal.calls or deal.contract >= 0:
        raise ValueError("the table starts from a deal at its first call")
    starts: list[Start] = []
    blocked: dict[str, list[int]] = {}
    made: list[int] = []
    unreached: list[int] = []
    moves = _Moves(game)
    for c in range(len(game.ladder)):
        found = [_reach(moves, deal, c, d) for d in range(game.players)]
        for r in found:
            starts += r.starts
        if any(r.starts for r in found):
            continue
        stop = next((r.blocked for r in found if r.blocked), None)
        if stop is not None:
            blocked.setdefault(stop, []).append(c)
        elif any(r.sides_made for r in found):
            made.append(c)
        else:
            unreached.append(c)
    notes = [f"{contracts_text(game, cs)}: the position at the first lead depends on the "
             f"{phase} that comes before the play" for phase, cs in blocked.items()]
    if made:
        notes.append(f"{contracts_text(game, made)}: the auction makes the declaring side (a "
                     "seat joins or accepts the bid)")
    if unreached:
        notes.append(f"{contracts_text(game, unreached)}: no declarer reaches it by bidding it "
                     "while the others pass or bid once")
    return tuple(starts), tuple(notes)


def _reach(moves: _Moves, deal: State, contract: int, declarer: int) -> _Reached:
    """The positions at the first lead of ``contract`` by ``declarer``: by an auction in
    which he bids it and every other seat passes (or announces what it must), else one in
    which another seat makes one bid (the same, or one just below it, as a bid that may
    only overcall another wants)."""
    out = _Reached([])
    for others in (0, 1):
        steps = [AUCTION_STEPS]
        end = _auction(moves, deal, deal.phase, (contract, declarer), (others, 1), steps, out)
        if end is not None:
            out.starts = _after_auction(end, contract, declarer, out)
            if out.starts:
                return out
    return out


def _auction(moves: _Moves, s: State, phase: Phase, aim: tuple[int, int],
             spare: tuple[int, int], steps: list[int], out: _Reached) -> State | None:
    """The first state past an auction (``phase``) that leaves the contract of ``aim``
    standing for its declarer, depth first, or None: he bids it as soon as he may, else
    passes or bids just below it (once); the other seats pass, or announce what they must,
    and ``spare[0]`` of their calls may be a bid up to it.  ``steps`` holds the actions
    still to be tried."""
    if s.phase is not phase:  # the auction is over
        if s.contract >= 0 and (s.contract, s.declarer) != aim:
            return None
        if s.accepter >= 0 or s.joined:
            out.sides_made = True
            return None
        return s
    contract, declarer = aim
    acts, legal = moves.legal(s)
    number = moves.number
    bids = sorted(((number[a.bid], a) for a in acts if isinstance(a, Call) and a.bid is not None),
                  key=lambda ca: ca[0])
    same = [a for c, a in bids if c == contract]
    below = [a for c, a in reversed(bids) if c < contract][:NEAREST]
    musts = [a for a in acts if isinstance(a, Declare)] if PASS not in legal else []
    mine = s.turn == declarer
    if mine:
        tries = same or [PASS, *musts, *(below if spare[1] else ())]
    else:
        tries = [PASS, *musts, *(same + below if spare[0] else ())]
    for a in tries:
        if a not in legal or steps[0] <= 0:
            continue
        steps[0] -= 1
        t = moves.after(s, a)
        if t.redeals != s.redeals:  # thrown in
            continue
        bid = isinstance(a, Call) and a.bid is not None and not (mine and a in same)
        left = (spare[0] - int(bid and not mine), spare[1] - int(bid and mine))
        end = _auction(moves, t, phase, aim, left, steps, out)
        if end is not None:
            return end
    return None


def _after_auction(s: State, contract: int, declarer: int, out: _Reached) -> list[Start]:
    """The first leads that follow the auction's end ``s``: at once, or after a choice of
    the declarer's (one for each option: trumps named, say).  Any other step before the
    play is noted in ``out`` and gives none."""
    if s.phase is Phase.PLAY:
        return [Start(contract, declarer, None, s)] if s.contract == contract else []
    acts = legal_actions(s)
    if s.turn == declarer and acts and all(isinstance(a, Declare) for a in acts):
        starts = []
        for a in acts:
            t = apply(s, a)
            if t.phase is not Phase.PLAY:
                out.blocked = t.phase.value
                return []
            starts.append(Start(contract, declarer, a.name, t))  # type: ignore[union-attr]
        return starts if all(st.state.contract == contract for st in starts) else []
    out.blocked = s.phase.value
    return []


# -- the table --------------------------------------------------------------------------------
def _key(s: State) -> tuple[Any, ...]:
    """What makes two positions at the first lead the same for the solver, the contract
    aside: the trumps, the seats and their cards, and the sides (the goal: :func:`_goal`)."""
    return (s.trump, s.leader, s.turn, s.hands, s.aside, s.out, s.absent, s.partner,
            s.declarers, s.declarer, repr(s.tracked), s.laid_open, s.trick_number)


def _goal(s: State) -> tuple[int, Goal]:
    """The declaring side of ``s`` (a bit per seat) and what it plays for."""
    eng = s.engine
    side = side_of(eng, s)
    return side, goal_of(eng, s, side, tricks_of(eng, s))


def table(solver: Solver, deal: State, *, played: State | None = None,
          budget: int | None = None, searched: Callable[[int, int], Any] | None = None
          ) -> Table:
    """The double-dummy values of the deal ``deal`` (at its first call): a row for each
    group of contracts that give every declarer the same position at the first lead
    (:func:`play_starts`), and the value of ``played``, the first lead of the deal as it was
    played, if given.  Each distinct position is searched once, with ``budget`` nodes (the
    solver's by default); ``searched(done, total)`` is called before the first search and
    after each.

    Raises:
        ValueError: ``deal`` is past its first call.
    """
    starts, notes = play_starts(deal)
    by_contract: dict[tuple[int, str | None], list[Start]] = {}
    for st in starts:
        by_contract.setdefault((st.contract, st.choice), []).append(st)
    groups: dict[Any, tuple[list[tuple[int, str | None]], list[Start]]] = {}
    for contract, sts in by_contract.items():
        sig = tuple((st.declarer, _key(st.state), _goal(st.state)) for st in sts)
        groups.setdefault(sig, ([], sts))[0].append(contract)
    todo = {(_key(st.state), _goal(st.state)): st.state for st in starts}
    if played is not None:
        todo.setdefault((_key(played), _goal(played)), played)
    solved: dict[Any, Cell] = {}
    for key, s in todo.items():
        if searched is not None:
            searched(len(solved), len(todo))
        r = solver.solve(s, budget=budget)
        solved[key] = Cell(s.declarer, r.value, r.goal, s.trump, r.nodes)
    if searched is not None:
        searched(len(solved), len(todo))
    rows = tuple(Row(tuple(contracts), tuple(solved[(_key(st.state), _goal(st.state))]
                                             for st in sts),
                     tuple(st for c in contracts for st in by_contract[c]))
                 for contracts, sts in groups.values())
    own = (Played(played, solved[(_key(played), _goal(played))]) if played is not None
           else None)
    return Table(solver.unit, rows, own, notes, sum(c.nodes for c in solved.values()))


def contracts_text(game: Any, contracts: Sequence[int]) -> str:
    """Contracts (ladder numbers, in order) by their symbols, three or more in a row
    written as the first to the last (``1♠ to 7♠``): in a row on the ladder, or among the
    bids of one strain, whichever is shorter; every bid of the ladder as ``every
    contract``."""
    ladder = game.ladder
    if len(set(contracts)) == len(ladder):
        return "every contract"
    strain_place: dict[int, tuple[Any, int]] = {}
    seen: dict[Any, int] = {}
    for k, b in enumerate(ladder):
        strain_place[k] = (b.strain, seen.get(b.strain, 0))
        seen[b.strain] = seen.get(b.strain, 0) + 1
    on_ladder = _runs(game, contracts, lambda k: (None, k))
    by_strain = _runs(game, contracts, strain_place.__getitem__)
    return min(on_ladder, by_strain, key=len)


def _runs(game: Any, contracts: Sequence[int], place: Callable[[int], tuple[Any, int]]
          ) -> str:
    """Contracts written with each run of three or more (in the order ``place`` gives:
    a group and a place in it) as its first to its last."""
    runs: list[list[int]] = []
    for c in contracts:
        group, at = place(c)
        if runs and place(runs[-1][-1]) == (group, at - 1):
            runs[-1].append(c)
        else:
            runs.append([c])
    sym = [b.symbol for b in game.ladder]
    return ", ".join(f"{sym[r[0]]} to {sym[r[-1]]}" if len(r) > 2 else
                     ", ".join(sym[c] for c in r) for r in runs)


# -- the cost of each card ---------------------------------------------------------------------
def costs(solver: Solver, positions: Sequence[tuple[State, Action]], *,
          budget: int | None = None, searched: Callable[[int, int], Any] | None = None
          ) -> tuple[Cost, ...]:
    """What each action of a play cost against perfect play: ``positions`` are the states
    of the play of the cards, each with the action taken there.  The cost is from the
    acting seat's side's point of view: the value of its best action less the value of the
    one taken (the declaring side wants the most where its goal grows with its points or is
    a count between bounds, the fewest in a misère; the other seats the opposite); None
    where some value is unknown.  ``searched(done, total)`` is called before the first
    position's search and after each."""
    out: list[Cost] = []
    for s, action in positions:
        if searched is not None:
            searched(len(out), len(positions))
        values = solver.card_values(s, budget=budget)
        side, goal = _goal(s)
        wants_most = (side >> s.turn & 1) == (goal.bounded or goal.sign > 0)
        known = [v for _a, v in values if v is not None]
        taken = next((v for a, v in values if a == action), None)
        best = None
        if len(known) == len(values) and known:
            best = max(known) if wants_most else min(known)
        cost = None
        if best is not None and taken is not None:
            cost = best - taken if wants_most else taken - best
        out.append(Cost(s.turn, action, best, cost))
    if searched is not None:
        searched(len(out), len(positions))
    return tuple(out)
