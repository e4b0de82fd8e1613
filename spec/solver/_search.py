"""The search: alpha-beta on the declaring side's goal, over the engine's own positions.

Each position is the engine's state; each move is an action the engine gives as legal and
applies (the cards of the play step, announcements where no card may be played).  The value
of a position is what the declaring side ends with under perfect play by every seat: its
points (tricks, or card points), signed by its goal (:class:`~spec.solver._goal.Goal`), or,
for a goal between bounds, 1 where it gets there and 0 where it does not.

A table keeps, for positions at the start of a trick, bounds on the value still to come
(the points to be taken from there on), keyed by every field of the state the play of the
cards changes (never the records of what happened: the log, the tricks, who won which) with
the cards reduced to their ranks among the cards still to be played where the rules allow it
(:mod:`spec.solver._ranks`).  Moves are tried in a fixed order: the best move the table
remembers, then cards that win the trick (the cheapest first) where the side is not winning
it, and low cards otherwise; of two equivalent cards of one hand only one is tried.

The value is exact or unknown: a search that has spent its budget of nodes stops with no
value, and the table holds only bounds from subtrees searched to the end.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl import _nodes as N
from spec.dsl import _steps as S
from spec.dsl._nodes import NO_SUIT
from spec.engine import Action, Engine, Phase, Play, State, TrickRecord
from spec.solver._goal import Goal, tricks_of
from spec.solver._ranks import Ranks, unplayed

# the fields that only record what happened: never read by the play of the cards (checked
# for the records of tricks won, below), so never part of a position's key
_RECORDS = frozenset({"engine", "log", "fired", "tricks", "won", "taken", "scores", "lines",
                      "seed", "redeals", "thrown_in", "calls", "chosen"})
# what the play's judgements of the deal's status may change beyond the fields they set
_JUDGED = frozenset({"phase", "hands", "aside", "laid_open", "void", "folded", "absent",
                     "dropped", "out", "tracked"})
# the rules' expressions that read the tricks won so far
_HISTORY = (N.Taken, N.TricksWon, N.WonTrick, N.PointsWon, N.PlayedTo, N.LedTo, N.LeaderOf,
            N.WinnerOf, N.ScoreOf, N.Awarded)
# the constructs read only once a deal is over (or never in a deal)
_AFTER = (K.ScoreRule, K.TrickScores, K.GameTarget, K.AfterGame, K.GameBonus, K.Rubber,
          K.RubberSettlement, K.Pot, K.MatchOf, K.MatchTarget, K.MatchLength, K.TrickValue,
          K.CardPoints, K.Claim)


class Exhausted(Exception):
    """The search has spent its budget of nodes."""


def changed_fields(game: Any) -> frozenset[str]:
    """The fields of the state the play of the cards may change: those its step sets, and
    those its judgements may, and the tricks won where a rule read before the end of the
    deal reads them."""
    out: set[str] = set()
    for step in game.steps:
        if step.phase == Phase.PLAY.value:
            _written(step.enter, out)
            _written(step.effects, out)
    out -= _RECORDS
    if any(_reads_history(rule.body) for rule in game.rules if not isinstance(rule.body, _AFTER)):
        out |= {"won", "taken"}
    return frozenset(out)


def _written(effects: Iterable[Any], out: set[str]) -> None:
    for e in effects:
        if isinstance(e, S.Set):
            out.add(e.field)
        elif isinstance(e, S.When):
            _written(e.then, out)
            _written(e.orelse, out)
        elif isinstance(e, (S.Track, S.Updates)):
            out.add("tracked")
        elif isinstance(e, (S.Judge, S.Over)):
            out |= _JUDGED


def _reads_history(body: Any) -> bool:
    """Whether a rule's body holds an expression that reads the tricks won so far."""
    seen: set[int] = set()
    todo = [body]
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, (str, int, float, bool, type(None), type)):
            continue
        seen.add(id(o))
        if isinstance(o, _HISTORY):
            return True
        if isinstance(o, (tuple, list, frozenset, set)):
            todo.extend(o)
        elif isinstance(o, dict):
            todo.extend(o.values())
        elif hasattr(o, "__dataclass_fields__"):
            todo.extend(getattr(o, f.name) for f in fields(o))
        elif hasattr(o, "__dict__"):
            todo.extend(vars(o).values())
        elif hasattr(o, "__slots__"):
            todo.extend(getattr(o, a) for k in type(o).__mro__ for a in getattr(k, "__slots__", ())
                        if hasattr(o, a))
    return False


class Search:
    """One search: a root's side, goal and table, shared by every question asked of
    positions of that play (the root, each card's value)."""

    def __init__(self, eng: Engine, root: State, side: int, goal: Goal, keyed: frozenset[str],
                 budget: int, limit: int) -> None:
        self.eng = eng
        self.side = side
        self.goal = goal
        self.budget = budget
        self.limit = limit
        self.nodes = 0
        self.table: dict[Any, tuple[int, int, int]] = {}
        self.history: dict[tuple[int, int], int] = {}
        self._card_of: dict[int, int] = {}
        self._kept: list[Action] = []
        self.phase = root.phase
        self.last = tricks_of(eng, root)
        self.ranks = Ranks(eng, root.trump, root.contract, root.trick_number, self.last)
        names = sorted(keyed - ({"hands", "aside"} if self.ranks.ok else set()))
        self._fields: Callable[[State], Any] = operator.attrgetter(*names)
        self._points = tuple(range(eng.n))
        self._sign = goal.sign if not goal.bounded else 0
        self._tables: dict[tuple[int, int, int], Any] = {}
        self.card_points = any(self.ranks.points)
        # leads are ordered by the strength of each suit's cards where the rules give every
        # card a suit and a strength that reads neither its place nor a named suit
        self._lead_tables = NO_SUIT not in self.ranks.suit and eng.strength_table(
            self.ranks.suit[0], root.trump, root.trick_number, root.contract) is not None
        # bounds from the tricks left, in a game that counts tricks for a goal with a sign
        self._counted = not self.card_points and not goal.bounded

    # -- values ---------------------------------------------------------------------------
    def points(self, s: State) -> int:
        """The declaring side's points so far: its card points, in a game that counts them,
        else its tricks."""
        side = self.side
        if self.card_points:
            pts = self.eng.points
            return sum(pts(s, k) for k in self._points if side >> k & 1)
        won = s.won
        return sum(won[k].bit_count() for k in self._points if side >> k & 1)

    def utility(self, p: int) -> int:
        """The value of a deal over with the side on ``p`` points."""
        g = self.goal
        if g.bounded:
            return int(g.low <= p <= g.high)  # type: ignore[operator]
        return g.sign * p

    def future(self, s: State) -> tuple[int, int]:
        """Bounds on the points still to come in ``s`` (what the tricks to play and their
        cards can be worth), or None where the rules give some card or trick a negative
        worth."""
        eng = self.eng
        held = unplayed(s)
        pts = self.ranks.points
        card = sum(pts[c] for c in range(len(pts)) if held >> c & 1)
        tricks = range(s.trick_number, self.last + 1)
        if not self.card_points:
            return 0, len(tricks)
        trick = sum(eng.trick_points(s.contract, TrickRecord(k, 0, (), (), 0)) for k in tricks)
        if min(pts) < 0 or trick < 0:
            raise ValueError("negative worth")
        return 0, card + trick

    # -- the search -----------------------------------------------------------------------
    def value(self, s: State, within: tuple[int, int] | None = None) -> int:
        """The value of ``s`` (see the module's docstring), known to lie ``within`` these
        bounds where given.

        Raises:
            Exhausted: the budget of nodes is spent.
        """
        if s.phase is not self.phase:
            return self.utility(self.points(s))
        p = self.points(s)
        if self.goal.bounded:
            return self.ab(s, 0, 1, p, self._winning(s))
        try:
            lo_f, hi_f = self.future(s)
        except ValueError:
            return self.ab(s, -(1 << 30), 1 << 30, p, self._winning(s))
        sign = self._sign
        lo, hi = sorted((sign * (p + lo_f), sign * (p + hi_f)))
        if within is not None:
            lo, hi = max(lo, within[0]), min(hi, within[1])
        while lo < hi:
            t = (lo + hi + 1) // 2
            r = self.ab(s, t - 1, t, p, self._winning(s))
            if r >= t:
                lo = r
            else:
                hi = r
        return lo

    def _winning(self, s: State) -> int:
        """The seat winning the trick under way so far (-1: none is under way)."""
        if not s.trick:
            return -1
        seats = self.eng.seats_among(s.leader, s.absent)
        best = 0
        for k in range(1, len(s.trick)):
            c = s.trick[k][0]
            if self.eng.beating(s.trick[:k], 1 << c, s.led_suit, s.trump, s.trick_number,
                                s.contract):
                best = k
        return seats[best]

    def _bounds(self, s: State, p: int) -> tuple[int, int]:
        """Bounds on the value of ``s`` at the start of a trick, in a game that counts
        tricks: the side ends with at least its tricks so far and at most all the rest, and
        the seat on lead takes at least its sure tricks (see :meth:`sure_tricks`)."""
        left = self.last - s.trick_number + 1
        low, high = p, p + left
        sure = self.sure_tricks(s) if self._sign > 0 else 0  # tricks both sides want
        if sure:
            if self.side >> s.turn & 1:
                low += sure
            else:
                high -= sure
        if self._sign < 0:
            return -high, -low
        return low, high

    def sure_tricks(self, s: State) -> int:
        """The cards the seat on lead holds that each win the trick they lead, whatever
        any other seat holds, in a position where it may lead any card: tricks it takes one
        after another, keeping the lead (0 where the cards are not reduced to ranks: the
        rules may give some card a power of its own)."""
        if not self.ranks.ok:
            return 0
        seat = s.turn
        hand = s.hands[seat]
        if self.eng.legal_mask(s) != hand:
            return 0
        others = 0
        for k, h in enumerate(s.hands):
            if k != seat:
                others |= h
        for a in s.aside:
            others |= a
        sure = 0
        suit = self.ranks.suit
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            table = self._strength(suit[c], s.trump, s.trick_number, s.contract)
            top = table[c]
            o = others
            while o:
                b = o & -o
                o ^= b
                if table[b.bit_length() - 1] >= top:
                    break
            else:
                sure += 1
        return sure

    def key(self, s: State, p: int) -> Any:
        ranks = self.ranks
        k = self._fields(s)
        if ranks.ok:
            k = (k, ranks.reduced((*s.hands, *s.aside)))
        if self.goal.bounded:
            k = (k, min(p, self.goal.high + 1))  # type: ignore[operator]
        return k

    def ab(self, s: State, alpha: int, beta: int, p: int, winning: int) -> int:
        """The value of ``s``, fail-soft within (alpha, beta): at most alpha where the true
        value is, at least beta where it is, else exact."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise Exhausted
        if s.phase is not self.phase:
            return self.utility(p)
        goal = self.goal
        if goal.bounded and p > goal.high:  # type: ignore[operator]
            return 0
        key = None
        best_move = -1
        base = self._sign * p
        if not s.trick:
            if self._counted:  # what the tricks to come can still change
                low, high = self._bounds(s, p)
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
            key = self.key(s, p)
            hit = self.table.get(key)
            if hit is not None:
                lo, hi, best_move = hit
                lo += base
                hi += base
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo >= hi:  # known exactly
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        eng = self.eng
        window = (alpha, beta)
        maxing = self.side >> s.turn & 1
        best = -(1 << 30) if maxing else 1 << 30
        best_card = -1
        apply = eng.apply
        legal = eng.legal_actions
        number = s.trick_number
        for c, a in self.moves(s, winning, best_move):
            legal(s)  # the engine applies an action it has just listed without a check
            t = apply(s, a)
            if t.trick_number != number or t.phase is not s.phase:
                v = self.ab(t, alpha, beta, self.points(t), -1)
            else:
                w = winning
                if w < 0:
                    w = s.turn
                elif c >= 0 and eng.beating(s.trick, 1 << c, s.led_suit, s.trump, number,
                                            s.contract):
                    w = s.turn
                v = self.ab(t, alpha, beta, p, w)
            if maxing:
                if v > best:
                    best, best_card = v, c
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_card = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                h = (s.turn, c)
                self.history[h] = self.history.get(h, 0) + 1
                break
        if key is not None:
            self.store(key, best - base, *window, best, best_card)
        return best

    def store(self, key: Any, rel: int, alpha: int, beta: int, best: int, card: int) -> None:
        old = self.table.get(key)
        lo, hi = (old[0], old[1]) if old is not None else (-(1 << 30), 1 << 30)
        if best <= alpha:
            hi = min(hi, rel)
        elif best >= beta:
            lo = max(lo, rel)
        else:
            lo = hi = rel
        if old is None and len(self.table) >= self.limit:
            self.table.clear()
        self.table[key] = (lo, hi, card)

    # -- moves ----------------------------------------------------------------------------
    def moves(self, s: State, winning: int, first: int) -> list[tuple[int, Action]]:
        """The moves of ``s`` to try, in order, each with its card (-1 for an action that
        plays none): plays where any card may be played (else every action), one of each
        set of equivalent cards, the move ``first`` (a card) first."""
        acts = self.eng.legal_actions(s)
        card_of = self._card_of
        cards = []
        for a in acts:
            if type(a) is Play:
                c = card_of.get(id(a))
                if c is None:
                    c = card_of[id(a)] = self.eng.game.deck.index(a.card)
                    self._kept.append(a)  # the id stays this action's while it is kept
                cards.append((c, a))
        if not cards:
            return [(-1, a) for a in acts]
        if self.ranks.ok and len(cards) > 1:
            cards = self._one_of_each(s, cards)
        order = self._order(s, cards, winning)
        if first >= 0:
            for k, (c, _a) in enumerate(order):
                if c == first:
                    if k:
                        order.insert(0, order.pop(k))
                    break
        return order

    def _one_of_each(self, s: State, cards: list[tuple[int, Action]]) -> list[tuple[int, Action]]:
        remaining = unplayed(s)
        ranks = self.ranks
        place = ranks.place
        keep: list[tuple[int, Action]] = []
        for c, a in sorted(cards, key=lambda ca: place[ca[0]]):
            if keep and a.names is None and ranks.twins(keep[-1][0], c, remaining):  # type: ignore[union-attr]
                continue
            keep.append((c, a))
        return keep

    def _order(self, s: State, cards: list[tuple[int, Action]], winning: int
               ) -> list[tuple[int, Action]]:
        eng = self.eng
        led = s.led_suit
        table = self._strength(led if s.trick else -1, s.trump, s.trick_number, s.contract)
        pts = self.ranks.points
        hist = self.history
        seat = s.turn
        if not s.trick and self._lead_tables:
            return self._leads(s, cards)
        if not s.trick or table is None:
            def lead_key(ca: tuple[int, Action]) -> tuple[int, int, int]:
                return (-hist.get((seat, ca[0]), 0), -pts[ca[0]], ca[0])
            return sorted(cards, key=lead_key)
        hand = 0
        for c, _a in cards:
            hand |= 1 << c
        beats = eng.beating(s.trick, hand, led, s.trump, s.trick_number, s.contract)
        ours = (self.side >> seat & 1) == (self.side >> winning & 1)

        def follow_key(ca: tuple[int, Action]) -> tuple[int, Any, int, int]:
            c = ca[0]
            wins = beats >> c & 1
            return (wins if ours else 1 - wins, table[c], pts[c], c)
        return sorted(cards, key=follow_key)

    def _leads(self, s: State, cards: list[tuple[int, Action]]) -> list[tuple[int, Action]]:
        """Leads in order: a card no other seat can beat when it is led (a trick cashed),
        then a low card of a suit the leader's partner holds the best card of (a trick
        for the side, and the lead passed), then low cards before high ones."""
        seat = s.turn
        side = self.side
        mine = side >> seat & 1
        friends = foes = 0
        for k, h in enumerate(s.hands):
            if k != seat:
                if (side >> k & 1) == mine:
                    friends |= h
                else:
                    foes |= h
        suit = self.ranks.suit
        hist = self.history
        suits: dict[int, tuple[Any, Any, Any]] = {}
        weights: dict[int, tuple[int, int, Any, int]] = {}
        for c, _a in cards:
            u = suit[c]
            w = suits.get(u)
            if w is None:
                table = self._strength(u, s.trump, s.trick_number, s.contract)
                best_foe = max((table[k] for k in _bits(foes)), default=None)
                best_friend = max((table[k] for k in _bits(friends)), default=None)
                w = suits[u] = (table, best_foe, best_friend)
            table, best_foe, best_friend = w
            top = best_foe is None or table[c] > best_foe
            helped = best_friend is not None and (best_foe is None or best_friend > best_foe)
            weight = 3 if top else 2 if helped else 1
            rank = table[c] if weight == 2 else -table[c] if weight == 3 else table[c]
            weights[c] = (-weight, -hist.get((seat, c), 0), rank, c)
        return sorted(cards, key=lambda ca: weights[ca[0]])

    def _strength(self, led: int, trump: int, number: int, contract: int) -> Any:
        key = (led, trump, number)
        table = self._tables.get(key)
        if table is None and key not in self._tables:
            table = (None if led < 0 else
                     self.eng.strength_table(led, trump, number, contract))
            self._tables[key] = table
        return table


def _bits(mask: int) -> Iterable[int]:
    """The card numbers of a mask."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
