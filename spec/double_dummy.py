"""Deal constraints that read double-dummy values, ``dd()`` (see :mod:`spec.constraints`),
judged deal by deal with the solver (:mod:`spec.solver`).

A search that spends its budget of nodes answers unknown, and so does ``dd()`` (the value of
the contract played) for a deal with no play of the cards: the condition is then neither
true nor false for that deal, as three-valued logic has it (an unknown part and a false
one make a false ``and``, an unknown part and a true one a true ``or``; anything else with
an unknown part is unknown).  Such a deal is skipped, and counted with why.

A judge searches only what the rest of the condition leaves open: it judges the parts
without ``dd()`` first (compiled by the engine's back end, as every constraint is), then
searches the ``dd()`` terms the answer still needs, one at a time, in the order written,
each once however often it is written.

>>> from spec.games.crescendo import GAME
>>> from spec.constraints import parse_where
>>> judge = Judge(GAME, parse_where(GAME, "count(Forehand, spades) > 7 and dd(Forehand, 28NT) > 2"))
>>> judge.on_deal(2, (0, 0, 0))  # no search: the count alone decides
False
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from spec.constraints import DoubleDummy, deal_function, double_dummy_terms, history_function
from spec.dsl._build import Game
from spec.dsl._nodes import BoolOp, Expr, Not, Op, T, Var, walk
from spec.engine import Play, State
from spec.errors import NotationError
from spec.solver import BUDGET, Solver

__all__ = ["NO_PLAY", "UNKNOWN", "Judge", "first_lead", "reads_double_dummy"]

#: why a deal is skipped: a search spent its budget; the deal has no play of the cards
UNKNOWN, NO_PLAY = "unknown", "no play"


def reads_double_dummy(where: Expr) -> bool:
    """Whether a condition reads ``dd()`` (and so is judged deal by deal, never by Z3)."""
    return any(isinstance(n, DoubleDummy) for n in walk(where))


def first_lead(state: State) -> State | None:
    """The position of ``state``'s deal as its first card is led (after any announcement
    made before it), replayed by the engine from the hands as dealt; None where the deal
    has no play of the cards."""
    if not any(isinstance(a, Play) for _seat, a in state.log):
        return None
    eng = state.engine
    s = eng.start(state.dealt, dealer=state.dealer, seed=state.seed, redeals=state.redeals,
                  turn_up=state.turn_up if state.turn_up >= 0 else None,
                  later=state.dealt_later if eng.stages > 1 else None)
    for _seat, a in state.log:
        if isinstance(a, Play):
            break
        s = eng.apply(s, a)
    return s


@dataclass(frozen=True)
class _Part:
    """A part of a condition: ``and``, ``or`` or ``not`` of parts, or an atom: a function
    of the deal's arguments and then the values of its terms (places in the judge's list
    of distinct ``dd()`` terms)."""

    op: str
    parts: tuple[_Part, ...] = ()
    fn: Callable[..., Any] | None = None
    terms: tuple[int, ...] = ()


def _replaced(e: Expr, new: Mapping[int, Expr]) -> Expr:
    """``e`` with each node whose id ``new`` holds replaced by the node it maps to."""
    if id(e) in new:
        return new[id(e)]
    changed: dict[str, Any] = {}
    for f in fields(e):  # type: ignore[arg-type]  # nodes are dataclasses
        v = getattr(e, f.name)
        if isinstance(v, Expr):
            w = _replaced(v, new)
            if w is not v:
                changed[f.name] = w
        elif isinstance(v, tuple) and any(isinstance(x, Expr) for x in v):
            ws = tuple(_replaced(x, new) if isinstance(x, Expr) else x for x in v)
            if any(a is not b for a, b in zip(ws, v)):
                changed[f.name] = ws
    return replace(e, **changed) if changed else e  # type: ignore[type-var]


class Judge:
    """A condition that reads ``dd()``, judged on deals (:meth:`on_deal`: the dealer and
    the hands as dealt) or, with ``played``, on deals played out (:meth:`on_state`): True,
    False, or None where it is neither (see the module's docstring); ``skipped`` counts the
    deals judged None by why (:data:`UNKNOWN`, :data:`NO_PLAY`).  ``budget``: the nodes
    each search may visit (the solver's own by default).

    Raises:
        NotationError: the condition reads what a deal does not have (``dd()`` of the
            contract played, without ``played``).
    """

    def __init__(self, game: Game, where: Expr, *, budget: int | None = None,
                 played: bool = False) -> None:
        self.game = game
        self.budget = BUDGET if budget is None else budget
        self.solver = Solver(game, budget=self.budget)
        self.played = played
        self.skipped: Counter[str] = Counter()
        self.searches = 0
        self.terms: list[DoubleDummy] = []  # each distinct term once, in the order written
        self._place: dict[tuple[Any, ...], int] = {}
        for t in double_dummy_terms(where):
            if t.played and not played:
                raise NotationError("dd() is the value of the contract played: only a deal "
                                    "played out has one")
            if t.search_key not in self._place:
                self._place[t.search_key] = len(self.terms)
                self.terms.append(t)
        self._vars = [Var(f"dd{i}", T.INT) for i in range(len(self.terms))]
        self._args: Callable[[Any], tuple[Any, ...]] | None = None
        self.root = self._split(where)
        self._last: tuple[Any, bool] | None = None  # the deal judged last, and its answer

    # -- the condition in parts
    def _split(self, e: Expr) -> _Part:
        if not reads_double_dummy(e):
            return self._atom(e)
        if isinstance(e, Not):
            return _Part("not", (self._split(e.arg),))
        if isinstance(e, BoolOp) and e.op in (Op.AND, Op.OR):
            # the parts without dd() together, first: one call judges them all
            plain = [a for a in e.args if not reads_double_dummy(a)]
            rest = [self._split(a) for a in e.args if reads_double_dummy(a)]
            first = [self._atom(plain[0] if len(plain) == 1 else BoolOp(e.op, tuple(plain)))
                     ] if plain else []
            return _Part("and" if e.op is Op.AND else "or", (*first, *rest))
        return self._atom(e)

    def _atom(self, e: Expr) -> _Part:
        """A part judged by one function, the values of its ``dd()`` terms given."""
        own = double_dummy_terms(e)
        places = list(dict.fromkeys(self._place[t.search_key] for t in own))
        e = _replaced(e, {id(t): self._vars[self._place[t.search_key]] for t in own})
        given = {self._vars[i]: self._vars[i].name for i in places}
        if self.played:
            fn, self._args = history_function(self.game, e, given)
        else:
            fn = deal_function(self.game, e, given)
        return _Part("atom", fn=fn, terms=tuple(places))

    # -- judging
    def on_deal(self, dealer: int, hands: tuple[int, ...]) -> bool | None:
        """The condition on a deal: the dealer and the hands as dealt."""
        return self._judge((dealer, hands), lambda i: self._solve(i, dealer, hands, None))

    def on_state(self, state: State) -> bool | None:
        """The condition on a deal played out (a finished state)."""
        assert self._args is not None, "a judge of deals played out is made with played=True"
        return self._judge(self._args(state),
                           lambda i: self._solve(i, state.dealer, state.dealt, state))

    def accepts_deal(self, dealer: int, hands: tuple[int, ...]) -> bool:
        """:meth:`on_deal` as a test: True only where the condition is true.  The deal
        judged last is remembered, so that judging it again searches nothing."""
        key = (dealer, hands)
        if self._last is None or self._last[0] != key:
            self._last = (key, self.on_deal(dealer, hands) is True)
        return self._last[1]

    def accepts_state(self, state: State) -> bool:
        """:meth:`on_state` as a test: True only where the condition is true."""
        return self.on_state(state) is True

    def _judge(self, args: tuple[Any, ...], solve: Callable[[int], tuple[int | None, str]]
               ) -> bool | None:
        values: dict[int, int | None] = {}
        why = ""
        while True:
            value, needed = self._value(self.root, args, values)
            if value is not None or not needed:
                break
            values[needed[0]], reason = solve(needed[0])
            why = why or reason
        if value is None:
            self.skipped[why or UNKNOWN] += 1
        return value

    def _value(self, p: _Part, args: tuple[Any, ...], values: dict[int, int | None]
               ) -> tuple[bool | None, list[int]]:
        """The part's value (None: open), and the terms not yet searched that it needs."""
        if p.op == "atom":
            if all(i in values and values[i] is not None for i in p.terms):
                assert p.fn is not None
                return bool(p.fn(*args, *(values[i] for i in p.terms))), []
            return None, [i for i in p.terms if i not in values]
        if p.op == "not":
            v, needed = self._value(p.parts[0], args, values)
            return (None if v is None else not v), needed
        decisive = p.op == "or"  # the value that decides: true for 'or', false for 'and'
        needed = []
        open_ = False
        for q in p.parts:
            v, more = self._value(q, args, values)
            if v is decisive:
                return decisive, []
            if v is None:
                open_ = True
                needed += more
        return (None if open_ else not decisive), needed

    def _solve(self, i: int, dealer: int, hands: tuple[int, ...], state: State | None
               ) -> tuple[int | None, str]:
        """The value of term ``i`` (None: unknown), and why it is unknown."""
        term = self.terms[i]
        if term.played:
            assert state is not None
            s = first_lead(state)
            if s is None:
                return None, NO_PLAY
        else:
            s = self.solver.start(hands, contract=term.contract, declarer=term.seat,
                                  dealer=dealer, trump=term.trump)
        self.searches += 1
        value = self.solver.solve(s).value
        return value, "" if value is not None else UNKNOWN
