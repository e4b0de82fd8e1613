"""One deal solved, as ``trickspec solve`` solves it: its table and the cost of each card
of its play (:func:`solved`), the deal of a seed (:func:`seeded`), and the pieces of its
text and its JSON that the command for one deal and the command for many share."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spec.dsl._build import Game, suit_from_code
from spec.engine import Action, Phase, State, apply, new_deal, play_deal
from spec.records import hands_text
from spec.solver import Cost, Goal, Row, Solver, Table, contracts_text, costs, table
from verifier.commands._common import Progress

SHOWN_AFTER = 2.0  # seconds before progress is shown on a terminal


def seeded(game: Game, seed: int) -> tuple[State, State, dict[str, Any]]:
    """The deal of ``seed``, as ``trickspec play GAME --seed N`` plays it: its end, its
    first state, and where it came from."""
    return play_deal(game, seed=seed), new_deal(game, seed=seed), {"seed": seed}


def solved(final: State, first: State, budget: int, *, play: bool = False,
           shown: bool = False) -> tuple[Table, list[tuple[int, Cost]] | None]:
    """The table of the deal ``final`` ended (``first``: its first state) and, with
    ``play``, what each card of its play cost (the trick of each, with the cost), each
    search within ``budget`` nodes; with ``shown``, the searches done on a terminal."""
    states = _walk(first, final)
    deal = next(s for s in states if s.redeals == final.redeals)
    plays = [(s, a) for s, a in zip(states, _actions(final)) if s.phase is Phase.PLAY
             and s.redeals == final.redeals]
    solver = Solver(final.game, budget=budget)
    progress = _Progress(len(plays) if play else 0) if shown else None
    tab = table(solver, deal, played=plays[0][0] if plays else None,
                searched=progress.table if progress else None)
    paid = None
    if play:
        found = costs(solver, plays, searched=progress.play if progress else None)
        paid = [(s.trick_number, c) for (s, _a), c in zip(plays, found)]
    if progress is not None:
        progress.close()
    return tab, paid


class _Progress:
    """The searches done, on standard error when it is a terminal and the work has taken
    more than :data:`SHOWN_AFTER` seconds: the table's, then the play's."""

    def __init__(self, plays: int) -> None:
        self.plays = plays
        self.shown: Progress | None = None

    def table(self, done: int, total: int) -> None:
        if self.shown is None:
            self.shown = Progress(total + self.plays, "searches", after=SHOWN_AFTER)
        self.shown.reach(done)

    def play(self, done: int, total: int) -> None:
        if self.shown is not None:
            self.shown.reach(self.shown.total - total + done)

    def close(self) -> None:
        if self.shown is not None:
            self.shown.close()


def _walk(first: State, final: State) -> list[State]:
    """Every state of the deal ``final`` ended, from ``first``: the state before each
    action, then the end."""
    states = [first]
    for a in _actions(final):
        states.append(apply(states[-1], a))
    assert states[-1].log == final.log and states[-1].scores == final.scores, \
        "the deal's actions, applied again, end elsewhere"
    return states


def _actions(final: State) -> list[Action]:
    """Every action of a deal, those of the deals thrown in before it first."""
    return [a for d in final.thrown_in for _s, a in d.log] + [a for _s, a in final.log]


def value_text(v: int | None, goal: Goal | None) -> str:
    if v is None:
        return "?"
    if goal is not None and goal.bounded:
        return "made" if v else "not"
    return str(v)


def row_contracts(game: Game, row: Row) -> str:
    """The contracts of a row, the choices made after the auction beside them."""
    plain = [c for c, choice in row.contracts if choice is None]
    parts = [contracts_text(game, plain)] if plain else []
    parts += [f"{game.ladder[c].symbol} ({choice})" for c, choice in row.contracts
              if choice is not None]
    return ", ".join(parts)


def _goal_json(goal: Goal | None, unit: str) -> dict[str, Any] | None:
    if goal is None:
        return None
    return {"text": goal.describe(unit), "sign": goal.sign, "low": goal.low, "high": goal.high}


def _suit(code: int | None) -> str | None:
    suit = suit_from_code(code) if code is not None else None
    return suit.letter if suit is not None else None


def deal_json(game: Game, final: State, source: dict[str, Any], tab: Table,
              paid: Sequence[tuple[int, Cost]] | None, budget: int) -> dict[str, Any]:
    """The deal's values as JSON-ready data (the shape is the README's)."""
    t = game.table
    out: dict[str, Any] = {
        "game": game.key, "variants": list(game.active_variants), "source": source,
        "dealer": t.name(final.dealer), "hands": hands_text(game, final.dealt),
        "unit": tab.unit, "budget": budget, "played": None,
        "rows": [{"contracts": [{"bid": str(game.ladder[c]), **({"choice": ch} if ch else {})}
                                for c, ch in r.contracts],
                  "trumps": _suit(r.trump), "goal": _goal_json(r.goal, tab.unit),
                  "cells": [{"declarer": t.name(c.declarer), "value": c.value, "nodes": c.nodes}
                            for c in r.cells]}
                 for r in tab.rows],
        "left_out": list(tab.notes), "nodes": tab.nodes,
    }
    if tab.played is not None:
        s, cell = tab.played.state, tab.played.cell
        out["played"] = {"contract": str(game.ladder[s.contract]), "declarer": t.name(s.declarer),
                         "trumps": _suit(s.trump), "goal": _goal_json(cell.goal, tab.unit),
                         "value": cell.value, "nodes": cell.nodes}
    if paid is not None:
        out["play"] = [{"seat": t.name(c.seat), "card": str(c.action), "trick": k,
                        "value": c.value, "cost": c.cost} for k, c in paid]
    out["unknown"] = tab.unknown + sum(c.cost is None for _k, c in paid or ())
    return out
