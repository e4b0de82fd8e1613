"""Double-dummy analysis: the value of a position of the play under perfect play by all,
with every hand known, read from the rules alone.

:class:`Solver` searches the engine's own positions (so it knows what the engine knows: a
game's legal plays, trick winners, points and scores, and nothing named for one game):

>>> from spec.games.vint import GAME
>>> from spec.solver import Solver
>>> solver = Solver(GAME)
>>> from spec.cards import CardSet
>>> hands = [CardSet.parse(h, GAME.deck) for h in ("AS KS AH KH", "QS JS QH JH",
...          "10S 9S 10H 9H", "8S 7S 8H 7H")]
>>> s = solver.start(hands, contract="1NT", declarer="North")
>>> solver.solve(s).value  # North and South take every trick
4

``solve(state)`` gives the declaring side's value (:class:`Solved`), ``card_values(state)``
each legal card's, and ``table(...)`` the values of a deal for every declarer and strain.
A search that spends its budget of nodes answers unknown (``value`` None), never a guess.
"""
from __future__ import annotations

from dataclasses import dataclass

from collections.abc import Sequence

from spec.cards import CardSet
from spec.dsl._build import Game
from spec.engine import Action, Bot, Engine, Phase, State, apply, engine_for
from spec.errors import NotationError
from spec.solver._goal import Goal, goal_of, made, points_unit, side_of, tricks_of
from spec.solver._search import Exhausted, Search, changed_fields

# nodes a search may visit before it answers unknown, and positions its table may hold
BUDGET = 2_000_000
TABLE_LIMIT = 1_000_000


@dataclass(frozen=True)
class Solved:
    """The value of a position for the declaring side.

    ``value`` is the points (tricks, or card points) the declaring side ends the deal with
    under perfect play, or, where its goal is a count between bounds (``goal.bounded``), 1
    where it gets there and 0 where it does not; None where the search spent its budget
    (unknown).  ``side`` holds the declaring seats (a bit per seat), ``nodes`` the positions
    searched and ``entries`` the positions the table held at the end.
    """

    value: int | None
    goal: Goal
    side: int
    unit: str
    nodes: int
    entries: int

    @property
    def known(self) -> bool:
        return self.value is not None


class Solver:
    """The double-dummy solver of one game (with its variants)."""

    def __init__(self, game: Game | Engine, *, budget: int = BUDGET,
                 table_limit: int = TABLE_LIMIT) -> None:
        self.engine = game if isinstance(game, Engine) else engine_for(game)
        self.game = self.engine.game
        self.budget = budget
        self.table_limit = table_limit
        self.unit = points_unit(self.engine)
        self._keyed = changed_fields(self.game)

    def start(self, hands: Sequence[int | CardSet], *, contract: int | str, declarer: int | str,
              dealer: int | None = None, trump: int | None = None,
              turn_up: int = -1) -> State:
        """The position at the first lead of a deal with ``hands`` (card masks or sets, by
        seat) played in ``contract`` (its number on the ladder, or a bid's text) by
        ``declarer`` (a seat or its name): the declarer plays alone, or with his fixed
        partner; the first leader is the rules'; the trumps the contract's unless given (a
        suit code); ``turn_up`` the card dealt face up (its number), in a game that deals
        one.

        Raises:
            NotationError: a bid or seat the game does not have.
        """
        eng = self.engine
        if isinstance(contract, str):
            contract = eng.ladder.index(self.game.parse_bid(contract))
        if isinstance(declarer, str):
            declarer = self.game.table.parse_seat(declarer)
        masks = [h.mask if isinstance(h, CardSet) else int(h) for h in hands]
        kw = {} if trump is None else {"trump": trump}
        s = eng.play_position(hands=masks, contract=contract, declarer=declarer,
                              leader=declarer, trick_number=1, dealer=dealer, turn_up=turn_up,
                              **kw)
        return eng.play_position(hands=masks, contract=contract, declarer=declarer,
                                 leader=eng.first_leader(s), trick_number=1, dealer=dealer,
                                 turn_up=turn_up, **kw)

    def search(self, s: State, budget: int | None = None) -> Search:
        """A search rooted at ``s``, a position of the play of the cards.

        Raises:
            NotationError: ``s`` is not in the play of the cards.
        """
        if s.phase is not Phase.PLAY:
            raise NotationError(f"the solver reads positions of the play of the cards; this "
                                f"one is in the {s.phase.value}")
        eng = self.engine
        side = side_of(eng, s)
        goal = goal_of(eng, s, side, tricks_of(eng, s))
        return Search(eng, s, side, goal, self._keyed,
                      self.budget if budget is None else budget, self.table_limit)

    def solve(self, s: State, *, budget: int | None = None) -> Solved:
        """The value of ``s`` for the declaring side (see :class:`Solved`)."""
        search = self.search(s, budget)
        try:
            value: int | None = search.value(s)
        except Exhausted:
            value = None
        return self._solved(search, value)

    def card_values(self, s: State, *, budget: int | None = None
                    ) -> tuple[tuple[Action, int | None], ...]:
        """Each legal action of ``s`` and the value of the position it leads to (None:
        unknown, the budget spent); a goal's sign is undone, so values are the side's
        points (or 1 and 0 for a goal between bounds)."""
        search = self.search(s, budget)
        try:  # no card is worth more to the seat to play than the position
            best: int | None = search.value(s)
        except Exhausted:
            best = None
        mine = search.side >> s.turn & 1
        out = []
        for a in self.engine.legal_actions(s):
            t = apply(s, a)
            within = None if best is None else (-(1 << 30), best) if mine else (best, 1 << 30)
            try:
                v: int | None = self._points(search, search.value(t, within))
            except Exhausted:
                v = None
            out.append((a, v))
        return tuple(out)

    def _solved(self, search: Search, value: int | None) -> Solved:
        return Solved(self._points(search, value), search.goal, search.side, self.unit,
                      search.nodes, len(search.table))

    @staticmethod
    def _points(search: Search, value: int | None) -> int | None:
        if value is None or search.goal.bounded:
            return value
        return value * search.goal.sign


def solve(s: State, *, budget: int | None = None) -> Solved:
    """The value of ``s`` for the declaring side, by the solver of its game."""
    return Solver(s.engine).solve(s, budget=budget)


def thinking_bot(**kw: int) -> Bot:
    """A bot that thinks (PIMC: see :mod:`spec.solver._bots`)."""
    from spec.solver._bots import thinking_bot as made
    return made(**kw)


def sensible_bot(**kw: int) -> Bot:
    """A bot that bids what greedy play of its hand makes and plays greedily (see
    :mod:`spec.solver._sensible`)."""
    from spec.solver._sensible import sensible_bot as made
    return made(**kw)


from spec.solver._table import (  # noqa: E402  # the table and the costs, by a Solver
    Cost, Row, Table, contracts_text, costs, play_starts, table)

__all__ = ["BUDGET", "TABLE_LIMIT", "Cost", "Goal", "Row", "Solved", "Solver", "Table",
           "contracts_text", "costs", "made", "play_starts", "sensible_bot", "solve", "table",
           "thinking_bot"]
