"""Many deals at once: the play of the cards run over columns, one entry a deal.

The batch back end reads the play step (:func:`spec.dsl._steps.play_block`) and nothing
else of how a trick runs: its effects are interpreted over numpy columns, each effect
applied to every deal still in play at once, a branch (``When``) to the deals whose test
holds.  The rules a step reads (the legal cards, a card's strength, the suit a card leads,
the scores) are compiled to numpy by :mod:`spec.engine._npcompile` from the same
expressions the engine compiles to Python.  Hands, cards aside and cards taken are bit
masks (``int64``, a row a deal and a column a seat); the trick under way is two columns a
position (card, named suit) with its length; the tricks played and the actions logged are
columns a trick and an action.

A deal enters the batch as the engine's state at the start of the play and leaves it as
the engine's state at its end (:meth:`BatchPlay.states`), so its record is written by the
same functions as any deal's, from the batch's columns and scores.  A construct the batch
does not interpret yet (a card played face down, tracked values updated by a card, the
deal's status judged after a trick, an announcement or a named suit in the play, a rule
that asks what a seat can be sure of) makes :class:`BatchPlay` refuse the game with
:class:`NotBatchable`, naming it.

Choices come from a *policy*: a function of each deal's mask of legal cards (and its
number of decisions so far) returning a card number a deal.  :func:`random_policy` draws
from a counter-based generator keyed by a seed, the deal's number and the decision, so a
deal's cards are the same whatever batch it is played in.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl import _steps as S
from spec.dsl._nodes import NO_SUIT, Certain, Ctx, DealtHand, Dropped, Idle, Invited, IsDeclarer
from spec.dsl._nodes import Ref, Taken, TricksWon, WonTrick, walk
from spec.dsl._pycompile import UnsupportedNodeError
from spec.engine._env import Entry
from spec.engine._npcompile import NpEnv, NpTables
from spec.engine._state import Phase, State, freeze, thaw, trick_record

__all__ = ["BatchPlay", "NotBatchable", "Policy", "random_policy"]

Policy = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


class NotBatchable(Exception):
    """The game's play uses a construct the batch back end does not interpret."""


# -- a counter-based generator: the same draw for a deal whatever batch holds it -----------
_M1, _M2, _GOLD = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB), \
    np.uint64(0x9E3779B97F4A7C15)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, elementwise."""
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * _M1
        x = (x ^ (x >> np.uint64(27))) * _M2
        return x ^ (x >> np.uint64(31))


def uniform(seed: int, deal: np.ndarray, draw: np.ndarray) -> np.ndarray:
    """A uniform number in [0, 1) for each (deal, draw), a function of ``seed`` only."""
    with np.errstate(over="ignore"):
        key = _mix(np.uint64(seed & (2 ** 64 - 1)) + _GOLD)
        x = _mix(key ^ (deal.astype(np.uint64) * _GOLD))
        x = _mix(x + draw.astype(np.uint64) * _M2)
    return (x >> np.uint64(11)).astype(np.float64) * (1.0 / 2 ** 53)


# per byte value: its number of set bits, and the position of its k-th set bit
_BYTE_COUNT = np.array([bin(x).count("1") for x in range(256)], dtype=np.int64)
_BYTE_NTH = np.array([[[i for i in range(8) if x >> i & 1][k] if k < bin(x).count("1") else 0
                       for k in range(8)] for x in range(256)], dtype=np.int64)


def nth_card(masks: np.ndarray, index: np.ndarray) -> np.ndarray:
    """In each mask, the number of its ``index``-th card (counted from card 0; ``index``
    below the mask's number of cards)."""
    masks = np.asarray(masks, dtype=np.int64)
    rest = np.asarray(index, dtype=np.int64).copy()
    card = np.zeros(masks.shape, dtype=np.int64)
    found = np.zeros(masks.shape, dtype=bool)
    for shift in range(0, 64, 8):
        byte = (masks >> shift) & 0xFF
        count = _BYTE_COUNT[byte]
        here = ~found & (rest < count)
        card = np.where(here, shift + _BYTE_NTH[byte, np.minimum(rest, 7)], card)
        found |= here
        rest = np.where(found, rest, rest - count)
    return card


def random_policy(seed: int) -> Policy:
    """Each deal's card drawn uniformly among its legal ones."""
    def policy(legal: np.ndarray, deals: np.ndarray, draws: np.ndarray) -> np.ndarray:
        count = np.bitwise_count(legal).astype(np.int64)
        index = (uniform(seed, deals, draws) * count).astype(np.int64)
        return nth_card(legal, index)
    return policy


# -- the columns -----------------------------------------------------------------------
class Columns:
    """The state of every deal of a batch, a field a column (see the module)."""

    def __init__(self, size: int, players: int, tricks: int) -> None:
        self.size, self.n = size, players
        self.rows = np.arange(size)
        z = np.zeros(size, dtype=np.int64)
        self.tlen = z.copy()
        self.trick_c = np.zeros((size, players), dtype=np.int64)
        self.trick_n = np.full((size, players), NO_SUIT, dtype=np.int64)
        self.over = np.zeros(size, dtype=bool)
        self.ntricks = z.copy()
        self.tr = {name: np.zeros((size, tricks), dtype=np.int64)
                   for name in ("number", "leader", "winner", "size", "revealed", "seen")}
        self.tr_cards = np.zeros((size, tricks, players), dtype=np.int64)
        self.tr_named = np.zeros((size, tricks, players), dtype=np.int64)
        self.tr_seats = np.zeros((size, tricks, players), dtype=np.int64)
        self.tr_nseats = np.zeros((size, tricks), dtype=np.int64)
        self.plays = z.copy()
        self.log_seat = np.zeros((size, tricks * players + players), dtype=np.int64)
        self.log_card = np.zeros_like(self.log_seat)
        self.beating: Callable[..., Any] = lambda *a: 0


@dataclass(frozen=True)
class _Seq:
    """Items a deal (seats in order, the cards of a trick): ``items`` a row a deal, ``n``
    how many of them count."""

    items: np.ndarray
    n: np.ndarray


_SCALARS = ("turn", "leader", "led_suit", "trump", "trick_number", "contract", "declarer",
            "partner", "declarers", "dealer", "out", "absent", "idle", "dropped", "guest",
            "turn_up", "pot")
_PER_SEAT = ("hands", "aside", "taken", "won", "dealt")
# the effects and values the interpreter reads (anything else: NotBatchable)
_EFFECTS = (S.Set, S.Let, S.When, S.Record, S.Over)
_VALUES = (S.Get, S.Lit, S.Local, S.Op, S.Cond, S.Bit, S.After, S.SeatFrom, S.SeatsFrom,
           S.Item, S.Strongest, S.Column, S.Mask, S.Len, S.Padded, S.Added, S.Finished,
           S.Held, S.Only, S.Less, S.Joined, S.Stated, S.CardNo, S.Named, S.Played, S.Truth,
           S.Acted)
_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
    ">": np.greater, ">=": np.greater_equal, "+": np.add, "-": np.subtract,
    "&": np.bitwise_and, "|": np.bitwise_or, "and": np.logical_and, "or": np.logical_or}


class BatchPlay:
    """The play of the cards of many deals of one game at once (see the module)."""

    def __init__(self, engine: Any) -> None:
        self.engine = eng = engine
        self.game = game = engine.game
        self.n = n = game.players
        self.deck = len(game.deck)
        play = [s for s in game.steps if s.phase == Phase.PLAY.value]
        if len(play) != 1:
            raise NotBatchable("a play of the cards in more than one step")
        self.step = step = play[0]
        for kind, why in ((K.NameSuit, "a card played naming a suit"),
                          (K.FaceDown, "a card played face down"),
                          (K.PlayableAside, "a card played from those laid aside")):
            if game.constructs(kind):
                raise NotBatchable(why)
        if engine._play_announce:
            raise NotBatchable("an announcement during the play")
        self._check(step.effects)
        self.tables = tables = NpTables(game)
        self.tracked = eng.tracked_names
        self.next_seat = np.array(eng._next_seat, dtype=np.int64)
        try:
            self.legal = self._play_env().compile_np(game, tables, D.legal_cards(game), "legal")
            entry = NpEnv(eng.envs.entry.inputs, eng.envs.entry.entries)
            self.strength = entry.compile_np(game, tables, D.strength(game), "strength")
            self._entry_env = entry
            out = self._outcome_env()
            self.score = out.compile_np(game, tables, D.score(game, Ref(Ctx.SEAT)), "score")
            self.line_scores = tuple(
                out.compile_np(game, tables, D.score(game, Ref(Ctx.SEAT), line), "line")
                for line in eng.lines) if len(eng.lines) > 1 else ()
        except UnsupportedNodeError as e:
            raise NotBatchable(str(e)) from None
        self._stated: dict[int, tuple[Callable[..., Any], tuple[str, ...]]] = {}
        self.tricks = self.deck // max(1, n - 1) + 1

    # -- what the batch reads ------------------------------------------------------------
    def _check(self, effects: Sequence[Any]) -> None:
        for e in effects:
            if not isinstance(e, _EFFECTS):
                raise NotBatchable(f"the play step's effect {e}")
            if isinstance(e, S.When):
                self._check(e.then)
                self._check(e.orelse)
            for v in _values_in(e):
                if not isinstance(v, _VALUES):
                    raise NotBatchable(f"the play step's value {v}")
                if isinstance(v, S.Stated) and any(isinstance(x, Certain)
                                                   for x in _nodes(v.expr)):
                    raise NotBatchable("a rule asks what a seat can be sure of")

    def _tricks_entries(self, of: str) -> list[Entry]:
        return [Entry(None, f"{of}.won", "won"),
                Entry(WonTrick, "((_at(won, {seat}) >> ({number})) & 1 == 1)"),
                Entry(TricksWon, "_count(_at(won, {seat}))"),
                Entry(None, f"{of}.taken", "taken"), Entry(Taken, "_at(taken, {seat})")]

    def _common(self, of: str) -> list[Entry]:
        v = [Entry(Ctx.DEALER, f"{of}.dealer", "dealer"), Entry(Ctx.TRUMP, f"{of}.trump", "trump"),
             Entry(Ctx.CONTRACT, f"{of}.contract", "contract"),
             Entry(Ctx.DECLARER, f"{of}.declarer", "declarer"),
             Entry(Ctx.TURN_UP, f"{of}.turn_up", "turn_up"),
             *(Entry(("tracked", t), f"{of}.tracked[:, {i}]", f"tracked_{i}")
               for i, t in enumerate(self.tracked)),
             Entry(None, f"{of}.dealt", "dealt"), Entry(DealtHand, "_at(dealt, {seat})"),
             Entry(None, f"{of}.idle", "idle"), Entry(Idle, "(({seat}) == idle)"),
             Entry(None, f"{of}.dropped", "dropped"),
             Entry(Dropped, "((dropped >> ({seat})) & 1 == 1)"),
             Entry(None, f"{of}.guest", "guest"), Entry(Invited, "(({seat}) == guest)"),
             Entry(Ctx.DECLARER_PARTNER, f"{of}.partner", "partner"),
             Entry(None, f"{of}.declarers", "declarers"),
             Entry(IsDeclarer, "((declarers >> ({seat})) & 1 == 1)"), *self._tricks_entries(of)]
        return v

    def _play_env(self) -> NpEnv:
        return NpEnv(("s",), [
            Entry(Ctx.SEAT, "s.turn", "seat"), Entry(Ctx.HAND, "_at(s.hands, seat)", "hand"),
            Entry(Ctx.IS_LEADING, "s.tlen == 0", "is_leading"),
            Entry(Ctx.LED_SUIT, f"np.where(s.tlen > 0, s.led_suit, {NO_SUIT})", "led_suit"),
            Entry(Ctx.POSITION, "s.tlen", "position"),
            Entry(Ctx.TRICK_NUMBER, "s.trick_number", "trick_number"),
            Entry(Ctx.ASIDE, "_at(s.aside, seat)", "aside"),
            Entry(Ctx.LEADER, "s.leader", "leader"), *self._common("s"),
            Entry(Ctx.BEATING, "s.beating(hand, led_suit, trump, trick_number, contract)",
                  "beating")])

    def _outcome_env(self) -> NpEnv:
        return NpEnv(("seat", "o"), [Entry(Ctx.SEAT, "seat", "seat"), *self._common("o"),
                                     Entry(Ctx.POT, "o.pot", "pot")])

    # -- into the batch and out of it ----------------------------------------------------
    def columns(self, states: Sequence[State]) -> Columns:
        """The columns of deals at the start of their play."""
        c = Columns(len(states), self.n, self.tricks)
        for s in states:
            if s.phase is not Phase.PLAY or s.trick:
                raise ValueError("a deal enters the batch at the start of a trick of its play")
        for name in _SCALARS:
            setattr(c, name, np.fromiter((getattr(s, name) for s in states), np.int64,
                                         len(states)))
        for name in _PER_SEAT:
            setattr(c, name, np.array([getattr(s, name) for s in states],
                                      dtype=np.int64).reshape(len(states), self.n))
        c.tracked = np.array([[int(x) for x in s.tracked] for s in states],
                             dtype=np.int64).reshape(len(states), len(self.tracked))
        c.tricks0 = np.fromiter((len(s.tricks) for s in states), np.int64, len(states))
        c.beating = lambda *a: self._beating(c, *a)
        return c

    def states(self, starts: Sequence[State], c: Columns) -> list[State]:
        """The engine's state at the end of each deal, from its start and the columns."""
        eng, plays = self.engine, self.engine._plays
        set_here = _fields_set(self.step.effects)
        out = []
        for k, s in enumerate(starts):
            w = thaw(s)
            for name in set_here & set(_SCALARS):
                setattr(w, name, int(getattr(c, name)[k]))
            for name in set_here & set(_PER_SEAT):
                setattr(w, name, tuple(int(x) for x in getattr(c, name)[k]))
            w.trick, w.faces, w.trick_number = (), (), int(c.trick_number[k])
            tricks = []
            for t in range(int(c.tricks0[k]), int(c.ntricks[k])):
                size, seats = int(c.tr["size"][k, t]), int(c.tr_nseats[k, t])
                tricks.append(trick_record(
                    int(c.tr["number"][k, t]), int(c.tr["leader"][k, t]),
                    tuple(int(x) for x in c.tr_cards[k, t, :size]),
                    tuple(int(x) for x in c.tr_named[k, t, :size]),
                    int(c.tr["winner"][k, t]), tuple(int(x) for x in c.tr_seats[k, t, :seats]),
                    (), bool(c.tr["revealed"][k, t]), int(c.tr["seen"][k, t])))
            w.tricks = s.tricks + tuple(tricks)
            w.log = s.log + tuple((int(c.log_seat[k, j]), plays[(int(c.log_card[k, j]), NO_SUIT)])
                                  for j in range(int(c.plays[k])))
            w.phase = Phase.OVER
            w.scores = tuple(int(x) for x in c.scores[k])
            w.lines = tuple(tuple(int(x) for x in line[k]) for line in c.lines)
            out.append(freeze(w))
        del eng
        return out

    # -- the play ------------------------------------------------------------------------
    def play(self, c: Columns, policy: Policy, deals: np.ndarray | None = None) -> Columns:
        """Every deal of ``c`` played to its end, each card chosen by ``policy``; then the
        scores.  ``deals``: each deal's number, which the policy reads (default: its row)."""
        deals = c.rows if deals is None else deals
        draws = np.zeros(c.size, dtype=np.int64)
        while True:
            act = ~c.over
            if not act.any():
                break
            legal = self.legal(c)
            if (act & (legal == 0)).any():
                k = int(np.flatnonzero(act & (legal == 0))[0])
                raise ValueError(f"deal {int(deals[k])}: no card may be played")
            card = np.asarray(policy(legal, deals, draws), dtype=np.int64)
            bad = act & (((legal >> np.clip(card, 0, 62)) & 1) == 0)
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                raise ValueError(f"deal {int(deals[k])}: the policy chose card {int(card[k])}, "
                                 "which the rules do not allow")
            draws += act
            _Run(self, c, card, act).effects(self.step.effects)
        self._scores(c)
        return c

    def _scores(self, c: Columns) -> None:
        if self.line_scores:
            c.lines = [np.stack([np.broadcast_to(fn(k, c), (c.size,)) for k in range(self.n)],
                                axis=1) for fn in self.line_scores]
            c.scores = sum(c.lines[1:], c.lines[0])
        else:
            c.lines = []
            c.scores = np.stack([np.broadcast_to(self.score(k, c), (c.size,))
                                 for k in range(self.n)], axis=1)

    def strengths(self, c: Columns) -> np.ndarray:
        """The strength of the card at each position of each deal's trick (the lowest
        possible beyond its length)."""
        cols = []
        for p in range(self.n):
            st = np.broadcast_to(self.strength(c.trick_c[:, p], c.trick_n[:, p], p,
                                               c.led_suit, c.trump, c.trick_number,
                                               c.contract), (c.size,))
            cols.append(np.where(p < c.tlen, st, np.iinfo(np.int64).min))
        return np.stack(cols, axis=1)

    def _beating(self, c: Columns, hand: Any, led: Any, trump: Any, number: Any,
                 contract: Any) -> np.ndarray:
        best = self.strengths(c).max(axis=1)
        deck = np.arange(self.deck, dtype=np.int64)[None, :]
        col = lambda x: np.asarray(x)[:, None] if np.ndim(x) else x  # noqa: E731
        st = self.strength(deck, NO_SUIT, col(c.tlen), col(led), col(trump), col(number),
                           col(contract))
        stronger = np.where(np.broadcast_to(st, (c.size, self.deck)) > best[:, None],
                            np.int64(1) << deck, 0).sum(axis=1)
        return np.where(c.tlen > 0, np.asarray(hand) & stronger, 0)

    def stated(self, v: S.Stated) -> tuple[Callable[..., Any], tuple[str, ...]]:
        found = self._stated.get(id(v))
        if found is None:
            envs = {"entry": self._entry_env, "play": self._play_env()}
            env = envs.get(v.scope)
            if env is None:
                raise NotBatchable(f"a rule read in scope {v.scope}")
            try:
                fn = env.compile_np(self.game, self.tables, v.expr, v.name)
            except UnsupportedNodeError as e:
                raise NotBatchable(str(e)) from None
            found = self._stated[id(v)] = (fn, env.params)
        return found


def _nodes(expr: Any) -> list[Any]:
    return list(walk(expr))


def _values_in(e: Any) -> list[Any]:
    """The step values an effect reads, and those they read."""
    out: list[Any] = []
    todo = [getattr(e, f) for f in getattr(e, "__dataclass_fields__", {})
            if f not in ("then", "orelse")]
    while todo:
        x = todo.pop()
        if isinstance(x, S.Value):
            out.append(x)
            todo += [getattr(x, f) for f in x.__dataclass_fields__ if f != "expr"]
        elif isinstance(x, tuple):
            todo += list(x)
    return out


def _fields_set(effects: Sequence[Any]) -> set[str]:
    out: set[str] = set()
    for e in effects:
        if isinstance(e, S.Set):
            out.add(e.field)
        elif isinstance(e, S.When):
            out |= _fields_set(e.then) | _fields_set(e.orelse)
    return out


class _Run:
    """One card of every deal in play: the play step's effects over the columns."""

    def __init__(self, batch: BatchPlay, c: Columns, card: np.ndarray, act: np.ndarray) -> None:
        self.b, self.c, self.card, self.locals = batch, c, card, {}
        self.act = act

    def effects(self, effects: Sequence[Any]) -> None:
        for e in effects:
            self.effect(e)

    def effect(self, e: Any) -> None:
        c, act = self.c, self.act
        if isinstance(e, S.Set):
            self.set(e)
        elif isinstance(e, S.Let):
            value = self.value(e.value)
            old = self.locals.get(e.name)
            if old is None or isinstance(value, _Seq) or isinstance(value, tuple):
                self.locals[e.name] = value
            else:
                self.locals[e.name] = np.where(act, value, old)
        elif isinstance(e, S.When):
            test = np.broadcast_to(np.asarray(self.value(e.test), dtype=bool), (c.size,))
            outer = self.act
            self.act = outer & test
            if self.act.any():
                self.effects(e.then)
            self.act = outer & ~test
            if e.orelse and self.act.any():
                self.effects(e.orelse)
            self.act = outer
        elif isinstance(e, S.Record):
            seat = np.broadcast_to(self.value(e.seat), (c.size,))
            rows = c.rows[act]
            c.log_seat[rows, c.plays[act]] = seat[act]
            c.log_card[rows, c.plays[act]] = self.card[act]
            c.plays += act
        else:
            assert isinstance(e, S.Over)
            c.over |= act

    def set(self, e: S.Set) -> None:
        c, act, f, v = self.c, self.act, e.field, e.value
        if f == "trick":
            if v == S.Lit(()):
                c.tlen = np.where(act, 0, c.tlen)
                return
            assert isinstance(v, S.Added) and v.record == S.Get("trick"), v
            card, named = self.value(v.item)
            rows = c.rows[act]
            c.trick_c[rows, c.tlen[act]] = np.broadcast_to(card, (c.size,))[act]
            c.trick_n[rows, c.tlen[act]] = np.broadcast_to(named, (c.size,))[act]
            c.tlen = c.tlen + act
            return
        if f == "faces":
            if v != S.Lit(()):
                raise NotBatchable(f"faces := {v}")
            return
        if f == "tricks":
            assert isinstance(v, S.Added) and isinstance(v.item, S.Finished), v
            self.finished(v.item)
            return
        value = self.value(v)
        old = getattr(c, f)
        if old.ndim == 2:
            value = np.broadcast_to(value, old.shape)
            setattr(c, f, np.where(act[:, None], value, old))
        else:
            setattr(c, f, np.where(act, value, old))

    def finished(self, v: S.Finished) -> None:
        c, act = self.c, self.act
        number, leader, cards, names, winner, seats, _faces, revealed, seen = v.parts
        rows = c.rows[act]
        at = c.ntricks[act]
        for name, part in (("number", number), ("leader", leader), ("winner", winner),
                           ("revealed", revealed), ("seen", seen)):
            c.tr[name][rows, at] = np.broadcast_to(self.value(part), (c.size,))[act]
        cs, ns, ss = self.value(cards), self.value(names), self.value(seats)
        c.tr["size"][rows, at] = cs.n[act]
        c.tr_cards[rows, at] = cs.items[act]
        c.tr_named[rows, at] = ns.items[act]
        c.tr_seats[rows, at] = ss.items[act]
        c.tr_nseats[rows, at] = ss.n[act]
        c.ntricks = c.ntricks + act

    # -- values ------------------------------------------------------------------------
    def value(self, v: Any) -> Any:  # noqa: C901 - one case per value
        c, n = self.c, self.b.n
        if isinstance(v, S.Get):
            if v.field == "trick":
                return _Seq(np.stack([c.trick_c, c.trick_n], axis=2), c.tlen)
            return getattr(c, v.field)
        if isinstance(v, S.Lit):
            return np.full(n, v.value, dtype=np.int64) if v.per_seat else v.value
        if isinstance(v, S.Local):
            return self.locals[v.name]
        if isinstance(v, S.Op):
            return _OPS[v.op](self.value(v.a), self.value(v.b))
        if isinstance(v, S.Cond):
            return np.where(self.value(v.test), self.value(v.a), self.value(v.b))
        if isinstance(v, S.Bit):
            return np.int64(1) << np.asarray(self.value(v.seat), dtype=np.int64)
        if isinstance(v, S.After):
            return np.take(self.b.next_seat, self.value(v.seat), mode="wrap")
        if isinstance(v, S.SeatFrom):
            return self.seat_from(v)
        if isinstance(v, S.SeatsFrom):
            return self.seats_from(v)
        if isinstance(v, S.Item):
            seq = self.value(v.value)
            index = v.index if isinstance(v.index, int) else self.value(v.index)
            return np.asarray(seq.items)[c.rows, np.broadcast_to(index, (c.size,))]
        if isinstance(v, S.Strongest):
            return np.argmax(self.b.strengths(c), axis=1).astype(np.int64)
        if isinstance(v, S.Column):
            record = self.value(v.record)
            return _Seq(record.items[:, :, v.index], record.n)
        if isinstance(v, S.Mask):
            seq = self.value(v.cards)
            live = np.arange(seq.items.shape[1])[None, :] < seq.n[:, None]
            return np.where(live, np.int64(1) << seq.items, 0).sum(axis=1)
        if isinstance(v, S.Len):
            if v.record != S.Get("trick"):
                raise NotBatchable(f"the length of {v.record}")
            return c.tlen
        if isinstance(v, S.Padded):
            seq = self.value(v.items)
            live = np.arange(seq.items.shape[1])[None, :] < seq.n[:, None]
            filler = int(v.filler) if not isinstance(v.filler, bool) else int(v.filler)
            return _Seq(np.where(live, seq.items, filler), np.full(c.size, n))
        if isinstance(v, S.Held):
            place = self.value(v.place)
            but = np.broadcast_to(self.value(v.but), (c.size,))
            mine = np.arange(n)[None, :] == but[:, None]
            return ((place != 0) & ~mine).any(axis=1)
        if isinstance(v, S.Only):
            seat = np.broadcast_to(self.value(v.seat), (c.size,))
            cards = np.broadcast_to(self.value(v.cards), (c.size,))
            return np.where(np.arange(n)[None, :] == seat[:, None], cards[:, None], 0)
        if isinstance(v, S.Less):
            return self.value(v.a) & ~self.value(v.b)
        if isinstance(v, S.Joined):
            return self.value(v.a) | self.value(v.b)
        if isinstance(v, S.Stated):
            fn, params = self.b.stated(v)
            given = dict(v.given)
            args = [c if p == "s" else self.value(given[p]) for p in params]
            return fn(*args)
        if isinstance(v, S.CardNo):
            return self.card
        if isinstance(v, S.Named):
            return NO_SUIT
        if isinstance(v, S.Played):
            return self.card, NO_SUIT
        if isinstance(v, S.Truth):
            return np.asarray(self.value(v.value), dtype=bool)
        if isinstance(v, S.Acted):
            return np.int64(1) << self.card
        raise NotBatchable(f"the play step's value {v}")

    def _passed(self, t: np.ndarray, skips: list[Any], outside: Any) -> np.ndarray:
        bad = np.zeros(t.shape, dtype=bool)
        for k in skips:
            bad |= t == k
        if outside is not None:
            bad |= ((outside >> t) & 1) == 1
        return bad

    def seat_from(self, v: S.SeatFrom) -> np.ndarray:
        c, b = self.c, self.b
        first = v.seat
        if isinstance(first, S.After):
            t = np.take(b.next_seat, np.broadcast_to(self.value(first.seat), (c.size,)),
                        mode="wrap")
        else:
            t = np.broadcast_to(np.asarray(self.value(first), dtype=np.int64), (c.size,)).copy()
        skips = [self.value(k) for k in v.skip]
        outside = None if v.outside is None else self.value(v.outside)
        for _ in range(b.n):
            bad = self._passed(t, skips, outside)
            t = np.where(bad, np.take(b.next_seat, t), t)
        bad = self._passed(t, skips, outside)
        if bad.any():
            if v.otherwise is None:
                if (bad & self.act).any():
                    raise AssertionError("every seat is out of the play")
            else:
                t = np.where(bad, self.value(v.otherwise), t)
        return t

    def seats_from(self, v: S.SeatsFrom) -> _Seq:
        c, b = self.c, self.b
        t = np.broadcast_to(np.asarray(self.value(v.seat), dtype=np.int64), (c.size,)).copy()
        skips = [self.value(k) for k in v.skip]
        outside = None if v.outside is None else self.value(v.outside)
        items = np.zeros((c.size, b.n), dtype=np.int64)
        count = np.zeros(c.size, dtype=np.int64)
        for _ in range(b.n):
            keep = ~self._passed(t, skips, outside)
            items[c.rows[keep], count[keep]] = t[keep]
            count += keep
            t = np.take(b.next_seat, t)
        return _Seq(items, count)


@dataclass
class Batch:
    """Deals played together: each deal's state at the start of its play (or at its end,
    for a deal over before any card is played), the columns of those played in the batch,
    and their rows among ``starts``."""

    play: BatchPlay
    starts: list[State]
    rows: np.ndarray
    columns: Columns

    def states(self) -> list[State]:
        """Each deal's state at its end."""
        ends = list(self.starts)
        for k, s in zip(self.rows, self.play.states([self.starts[k] for k in self.rows],
                                                    self.columns)):
            ends[int(k)] = s
        return ends

    def scores(self) -> np.ndarray:
        """Each deal's scores, a row a deal and a column a seat."""
        out = np.array([s.scores if s.scores is not None else (0,) * self.play.n
                        for s in self.starts], dtype=np.int64).reshape(len(self.starts), -1)
        out[self.rows] = self.columns.scores
        return out


def play_batch(engine: Any, seeds: Sequence[int], policy: Policy | None = None,
               play_seed: int = 0) -> Batch:
    """The deals of ``seeds``, each dealt and bid by the engine's random bots as
    ``play_deal`` bids it, then their cards played together in the batch by ``policy``
    (by default :func:`random_policy` of ``play_seed``; a deal's number is its seed)."""
    batch = engine.batch()
    from spec.engine._session import int_seeded
    from spec.engine._engine import new_deal
    starts = [engine.random_playout(new_deal(engine.game, seed=s), int_seeded(s),
                                    until=Phase.PLAY) for s in seeds]
    rows = np.array([k for k, s in enumerate(starts) if s.phase is Phase.PLAY], dtype=np.int64)
    c = batch.columns([starts[k] for k in rows])
    numbers = np.asarray(seeds, dtype=np.int64)[rows]
    batch.play(c, policy or random_policy(play_seed), numbers)
    return Batch(batch, starts, rows, c)
