"""Python generated from the steps of a deal: the engine's one reading of the step language.

Each step of :attr:`Game.steps <spec.dsl._build.Game.steps>` says, as data, what its entry
does and what each of its actions does (:mod:`spec.dsl._steps`).  :class:`StepSource`
writes those effects as the statements of a Python function over the working copy ``w``
of a state, with the game's answers written in (the rules a step judges inlined, its
tables bound as constants), and compiles it once per engine, as a simulator compiles the
switch a state machine was lowered to.  The per-action path (``apply``) and the fast
playouts call the same generated functions, or write the same statements into a loop of
their own: the auction loops those of a call; the play of the cards those of the play
step, in a form that keeps the fields it changes in local variables (:class:`FastPlay`),
as a simulator keeps the signals of a design in locals.  A deal runs the same whichever
way it is played.

Names in the generated code end with ``_`` (``seat_``, ``over_``), apart from ``w``, ``s``
(the state the inlined rules read, the same object) and the names the inlined rules bind.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from operator import itemgetter
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl import _steps as S
from spec.dsl._nodes import NO_SUIT, Certain, walk
from spec.engine._compiled import CompiledRules
from spec.engine._state import Phase, trick_record
from spec.seats import seat_after

def _seats_of(record: tuple[tuple[int, Any], ...]) -> int:
    """The set of the seats of a record's entries."""
    seats = 0
    for seat, _x in record:
        seats |= 1 << seat
    return seats


def _best_entry(record: tuple[tuple[int, Any], ...], ranks: dict[Any, int]) -> tuple[int, Any]:
    """The entry of ``record`` whose name ranks highest, of equal ranks the first."""
    best = record[0]
    for entry in record[1:]:
        if ranks[entry[1]] > ranks[best[1]]:
            best = entry
    return best


def _best_entry_past(record: tuple[tuple[int, Any], ...], ranks: dict[Any, int], outside: int
                     ) -> tuple[int, Any]:
    """The entry of ``record`` of a seat not in ``outside`` whose name ranks highest, of
    equal ranks the first; (-1, -1) where there is none."""
    best: tuple[int, Any] = (-1, -1)
    for entry in record:
        if not outside >> entry[0] & 1 and (best[0] < 0 or ranks[entry[1]] > ranks[best[1]]):
            best = entry
    return best


# the values of a card played and of a trick (see StepSource._play_value)
_PLAY_VALUES = (S.CardNo, S.Named, S.Played, S.Truth, S.Strongest, S.SeatsFrom, S.Column,
                S.Mask, S.Len, S.Padded, S.Added, S.Finished, S.Held)


class NotInline(Exception):
    """A generated play of the cards cannot keep up with what the steps or the rules read
    or do: a rule reads something of the state that is not a field, or an effect has no
    form in a loop that keeps fields in local variables.  The game plays by the generic
    handlers."""


@dataclass
class FastPlay:
    """How a generated play of the cards keeps the deal's fields while it runs (the fast
    loop's form of the effects, see :meth:`StepSource._effect`): ``lists``, in lists it
    changes in place (the working copy holds the same lists, so the rules read them up
    to date); ``local``, in local variables, of which ``mirrored`` are set in the working
    copy too as they change (the rules read them there); the rest in the working copy.
    The fields of ``changing`` change while the loop runs; a value that reads none of
    them is read once, before the loop (``pre``).  ``ranked``: the deck's strengths for
    the trick give the strongest card so far as each card is played (``top_`` at
    ``top_at_``; ``beat``: the cards stronger than it, ``above_``, are kept too).
    ``named``: a card may name a suit (``d_``; else it names none).  ``again``: the
    statements of the rules read again as a trick ends (the values that change from trick
    to trick), written where the effects empty the trick."""

    lists: frozenset[str]
    local: frozenset[str]
    mirrored: frozenset[str]
    changing: frozenset[str]
    ranked: bool
    beat: bool
    named: bool
    pre: _Writer | None = None
    hoisted: dict[str, str] = field(default_factory=dict)
    again: list[str] = field(default_factory=list)


class _Writer:
    """The statements of one generated function under construction."""

    def __init__(self, engine: StepSource, action: str = "action_",
                 fast: FastPlay | None = None) -> None:
        self.engine = engine
        self.action = action  # the name the action is bound to
        self.fast = fast  # how a fast loop keeps the fields (None: all in ``w``)
        self.lines: list[str] = []
        self.depth = 1
        self.temps = 0
        # records unpacked, by source, with the depth they were unpacked at
        self.unpacked: dict[str, tuple[list[tuple[str, str]], int]] = {}
        # in a fast loop, the statements of the rules run so far whose names still hold
        # what they read: name -> (statement, depth)
        self.bound: dict[str, tuple[str, int]] = {}

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def emit_rule(self, line: str) -> None:
        """A statement ``name = expression`` of a rule's reading; in a fast loop, once
        while what it read stands."""
        if self.fast is None:
            self.emit(line)
            return
        name = line.split(" = ", 1)[0]
        if self.bound.get(name, ("",))[0] != line:
            self.emit(line)
            self.bound[name] = (line, self.depth)

    def changed(self) -> None:
        """A field is set: the statements of the rules read before are stale."""
        self.bound.clear()
        self.unpacked.clear()

    def indent(self) -> None:
        self.depth += 1

    def dedent(self) -> None:
        """The end of a block: what was read inside it is not known after it."""
        self.depth -= 1
        self.bound = {k: v for k, v in self.bound.items() if v[1] <= self.depth}
        self.unpacked = {k: v for k, v in self.unpacked.items() if v[1] <= self.depth}

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps}_"


class StepSource(CompiledRules):
    """Generates and compiles the functions that run the steps (see the module)."""

    def _step_ns(self) -> dict[str, Any]:
        """The globals of generated step code: the game's tables and the engine's helpers."""
        ns = getattr(self, "_step_globals", None)
        if ns is None:
            deck = self.game.deck
            from spec.dsl._nodes import suit_code
            ns = self._step_globals = dict(self.tables.ns)
            self._seat_tables: dict[Any, tuple[Any, ...]] = {}
            ns.update(plus_=self._plus, next_seat_=self._next_seat, range_n_=range(self.n),
                      seat_after_=seat_after,
                      suit_of_card_=tuple(suit_code(c.suit) for c in deck),
                      void_now_=self._void_now, after_status_=self._after_status,  # type: ignore[attr-defined]
                      advance_=self._advance, final_scores_=self._final_scores,  # type: ignore[attr-defined]
                      OVER_=Phase.OVER, seats_of_=_seats_of, best_entry_=_best_entry, best_entry_past_=_best_entry_past,
                      best_=self._best, seats_in_order_=self.seats_in_order,  # type: ignore[attr-defined]
                      pad_=self._pad, trick_record_=trick_record,
                      with_bits_=self._with_bits, less_at_=self._less_at,
                      plain_seats_=self._plain_seats, item_0_=itemgetter(0),
                      item_1_=itemgetter(1),
                      card_bit_=tuple(1 << i for i in range(len(deck))).__getitem__,
                      seat_table_=self._seat_table, seats_table_=self._seats_table,
                      seat_tables_=self._seat_tables)
        return ns

    def _step_fn(self, name: str, params: str, body: Callable[[_Writer], None],
                 **extra: Any) -> Callable[..., Any]:
        """A function ``name(params)`` whose statements ``body`` writes."""
        out = _Writer(self)
        body(out)
        # ``s``, the state the inlined rules read, where they read it
        reads_s = any(re.search(r"\bs\b", line) for line in out.lines)
        src = [f"def {name}({params}):", *(["    s = w"] if reads_s else []), *out.lines]
        ns = {**self._step_ns(), **extra}  # each function its own globals
        code = compile("\n".join(src) + "\n", f"<{self.game.key}:{name}>", "exec")
        exec(code, ns)  # noqa: S102  # generated from the game's steps
        return ns[name]  # type: ignore[no-any-return]

    def step_lines(self, effects: Sequence[S.Effect], depth: int = 0, action: str = "action_"
                   ) -> list[str]:
        """The statements of ``effects``, indented ``depth`` levels, for a function generated
        elsewhere (its globals must hold :meth:`_step_ns`; ``action``: the name the action
        is bound to there)."""
        out = _Writer(self, action)
        out.depth = depth
        self._effects(out, effects)
        return out.lines

    # -- effects -------------------------------------------------------------------------
    def _effects(self, out: _Writer, effects: Sequence[S.Effect]) -> None:
        for e in effects:
            self._effect(out, e)
        if out.fast is not None and S.Set("trick", S.Lit(())) in effects:
            for line in out.fast.again:  # the next trick begins
                out.emit(line)

    def _effect(self, out: _Writer, e: S.Effect) -> None:  # noqa: C901 - one case per effect
        if isinstance(e, S.Set):
            self._set(out, e)
        elif isinstance(e, S.Let):
            out.emit(f"{e.name}_ = {self._value(out, e.value)}")
        elif isinstance(e, S.Fire):
            at = self._log_len(out) + (f" - {e.back}" if e.back else "")
            out.emit(f"w.fired = w.fired + (({at}, {e.rule!r}),)")
        elif isinstance(e, S.Advance):
            if out.fast is not None:
                raise NotInline("a fast play of the cards ends with the deal")
            out.emit("advance_(w)")
        elif isinstance(e, S.Over):
            if out.fast is not None:  # the loop writes its fields back, then scores
                out.emit("event_ = DONE_")
                out.emit("break")
            else:
                out.emit("w.phase = OVER_")
                out.emit("w.scores, w.lines = final_scores_(w)")
        elif isinstance(e, S.Record):
            seat = self._value(out, e.seat)
            if out.fast is not None and "log" in out.fast.lists:
                out.emit(f"log__.append(({seat}, {out.action}))")
            else:
                out.emit(f"w.log = w.log + (({seat}, {out.action}),)")
            out.changed()
        elif isinstance(e, S.Track):
            values = [(self.tracked_index[name], self._value(out, v)) for name, v in e.sets]
            out.emit("tv_ = list(w.tracked)")
            for index, value in values:
                out.emit(f"tv_[{index}] = {value}")
            out.emit("w.tracked = tuple(tv_)")
            out.changed()
        elif isinstance(e, S.Updates):
            self._updates_lines(out, e)
            out.changed()
        elif isinstance(e, S.When):
            out.emit(f"if {self._value(out, e.test)}:")
            out.indent()
            self._effects(out, e.then) if e.then else out.emit("pass")
            out.dedent()
            if e.orelse:
                out.emit("else:")
                out.indent()
                self._effects(out, e.orelse)
                out.dedent()
        elif e.what is S.Judgement.STATUS:
            if out.fast is not None:
                self._status_lines(out)
            else:
                out.emit("after_status_(w)")
            out.changed()
        else:
            assert e.what is S.Judgement.VOID
            if out.fast is not None:
                raise NotInline("a fast play of the cards judges no void deal")
            out.emit("void_now_(w)")

    def _log_len(self, out: _Writer) -> str:
        """The number of actions logged so far."""
        return f"len({self._place(out, S.Get('log'))})"

    def _set(self, out: _Writer, e: S.Set) -> None:
        """``e.field`` takes ``e.value``: in the working copy, or, in a fast loop, in the
        local variable or list that keeps it (a list changed in place: one seat's entry
        of a place, an entry added to a record, a record emptied)."""
        fast, f, v = out.fast, e.field, e.value
        if fast is None or not (f in fast.lists or f in fast.local):
            out.emit(f"w.{f} = {self._value(out, v)}")
        elif f in fast.local:
            out.emit(f"{f}__ = {self._value(out, v)}")
            if f in fast.mirrored:
                out.emit(f"w.{f} = {f}__")
        elif S.FIELDS[f].per_seat:
            if not (isinstance(v, S.Joined | S.Less) and v.a == S.Get(f)
                    and isinstance(v.b, S.Only)):
                raise NotInline(f"{f} := {v}")
            seat, cards = self._value(out, v.b.seat), self._value(out, v.b.cards)
            out.emit(f"{f}__[{seat}] {'|= ' if isinstance(v, S.Joined) else '&= ~'}{cards}")
        elif isinstance(v, S.Added) and v.record == S.Get(f):
            if f == "trick":  # the strongest card so far, and the cards of the trick
                if v.item != S.Played():
                    raise NotInline(f"{f} := {v}")
                self._trick_grows(out)
            out.emit(f"{f}__.append({self._value(out, v.item)})")
        elif isinstance(v, S.Appended) and v.place == S.Get(f):
            out.emit(f"{f}__.append(({self._value(out, v.a)}, {self._value(out, v.b)}))")
        elif v == S.Lit(()):
            out.emit(f"{f}__.clear()")
            if f == "trick":
                out.emit("tmask_ = size_ = 0")
        else:
            raise NotInline(f"{f} := {v}")
        out.changed()

    def _trick_grows(self, out: _Writer) -> None:
        """In a fast loop, the card ``i_`` (bit ``x_``) about to join the trick: the
        trick's cards (``tmask_``) and length (``size_``) and, where the deck's strengths
        for the trick are a table (``table_``, read as the trick's first card is played,
        its suit led known), the strongest card so far (``top_`` at ``top_at_``, the
        first of equals)."""
        fast = out.fast
        assert fast is not None
        if fast.ranked:
            args = ", ".join(self._value(out, S.Get(f)) for f in (
                "led_suit", "trump", "trick_number", "contract"))
            fresh = ["    above_ = None"] if fast.beat else []
            for line in ["if size_:", "    st_ = table_[0][i_]", "    if st_ > top_:",
                         "        top_, top_at_ = st_, size_",
                         *(["    " + x for x in fresh]), "else:",
                         f"    table_ = strengths_({args})",
                         "    top_, top_at_ = table_[0][i_], 0", *fresh]:
                out.emit(line)
        out.emit("tmask_ |= x_")
        out.emit("size_ += 1")

    def _status_lines(self, out: _Writer) -> None:
        """In a fast loop, the deal's status judged as ``_after_status`` judges it after
        a trick: a rule that voids the deal stops the loop (``event_``, the rule's
        index); the cards aside go back to their owners; a hand is laid open after its
        trick."""
        game, tables, status = self.game, self.tables, self.envs.status
        for k, (_rule, body) in enumerate(game.constructs(K.VoidWhen)):
            assert isinstance(body, K.VoidWhen)
            void_lines, void, _i = status.inline(game, tables, body.when)
            for line in void_lines:
                out.emit_rule(line)
            out.emit(f"if {void}:")
            out.emit(f"    event_ = {k}")
            out.emit("    break")
        hands, aside = self._place(out, S.Get("hands")), self._place(out, S.Get("aside"))
        if self._aside_returns_when is not None:
            back_lines, back, _i = status.inline(game, tables, self._aside_returns_when)
            for line in back_lines:
                out.emit_rule(line)
            out.emit(f"if any({aside}) and ({back}):")
            out.emit(f"    for k_ in range({self.n}):")
            out.emit(f"        {hands}[k_] |= {aside}[k_]")
            out.emit(f"        {aside}[k_] = 0")
        number, log = self._value(out, S.Get("trick_number")), self._log_len(out)
        cases = [(rule, body, when, seat) for rule, body in game.constructs(K.LayOpen)
                 for when, seat in D.lay_open_cases(game, body)]  # type: ignore[arg-type]
        for rule, body, when_expr, seat_expr in cases:  # as _after_status lays hands open
            assert isinstance(body, K.LayOpen)
            when_lines, when, _i = status.inline(game, tables, when_expr)
            seat_lines, seat, _i = status.inline(game, tables, seat_expr)
            out.emit(f"if {number} == {body.after_trick + 1}:")
            out.indent()
            for line in when_lines:
                out.emit_rule(line)
            out.emit(f"if {when}:")
            out.indent()
            for line in seat_lines:
                out.emit_rule(line)
            out.emit(f"opener_ = {seat}")
            out.emit("if all(k_ != opener_ for k_, _a in w.laid_open):")
            out.emit(f"    w.laid_open += ((opener_, {body.after_trick}),)")
            out.emit(f"    w.fired += (({log}, {rule.id!r}),)")
            out.dedent()
            out.dedent()

    def _updates_lines(self, out: _Writer, e: S.Updates) -> None:
        """Tracked values set by several rules, each reading the values before any is set;
        a rule that changed a value is recorded as taking effect."""
        out.emit("tv_ = None")
        for when, sets, rule in e.rules:
            out.emit(f"if {self._value(out, when)}:")
            out.indent()
            out.emit("if tv_ is None:")
            out.emit("    tv_ = list(w.tracked)")
            out.emit("before_ = list(tv_)")
            for name, value in sets:
                out.emit(f"tv_[{self.tracked_index[name]}] = {self._value(out, value)}")
            out.emit("if tv_ != before_:")
            out.emit(f"    w.fired = w.fired + (({self._log_len(out)}, {rule!r}),)")
            out.dedent()
        out.emit("if tv_ is not None:")
        out.emit("    w.tracked = tuple(tv_)")

    # -- values --------------------------------------------------------------------------
    def _value(self, out: _Writer, v: S.Value) -> str:  # noqa: C901 - one case per value
        """``v`` as a Python expression; statements it needs first are written to ``out``."""
        fast = out.fast
        if isinstance(v, S.Get):
            if fast is not None:
                if v.field in fast.lists:  # a record or place as a value of its own
                    return f"tuple({v.field}__)"
                if v.field in fast.local:
                    return f"{v.field}__"
            return f"w.{v.field}"
        if fast is not None and out is not fast.pre and not isinstance(v, S.Lit | S.Local) \
                and self._steady(fast, v):
            return self._hoisted(fast, self._value(fast.pre, v))  # type: ignore[arg-type]
        if isinstance(v, S.Local):
            return f"{v.name}_"
        if isinstance(v, S.Lit):
            return repr((v.value,) * self.n if v.per_seat else v.value)
        if isinstance(v, S.Bid):
            return "b_"
        if isinstance(v, S.Acted):
            return "x_"
        if isinstance(v, S.Op):
            if v.op == "==" and isinstance(v.a, S.Len) and v.b == S.Lit(0):  # an empty record
                if out.fast is not None and v.a.record == S.Get("trick"):
                    return "(not size_)"
                return f"(not {self._place(out, v.a.record)})"
            # the step language's operators are written as Python writes them
            return f"({self._value(out, v.a)} {v.op} {self._value(out, v.b)})"
        if isinstance(v, S.Cond):
            return (f"({self._value(out, v.a)} if {self._value(out, v.test)} "
                    f"else {self._value(out, v.b)})")
        if isinstance(v, S.Bit):
            return f"(1 << {self._value(out, v.seat)})"
        if isinstance(v, S.After):
            return f"next_seat_[{self._value(out, v.seat)}]"
        if isinstance(v, S.Entry):
            name = f"{v.name}_{id(v.table)}_"
            self._step_ns()[name] = v.table
            return f"{name}[{self._value(out, v.index)}]"
        if isinstance(v, S.PlusAt):
            return f"plus_[{self._value(out, v.seat)}]({self._value(out, v.place)}, {v.amount})"
        if isinstance(v, S.Appended):
            return (f"{self._value(out, v.place)} + "
                    f"(({self._value(out, v.a)}, {self._value(out, v.b)}),)")
        if isinstance(v, _PLAY_VALUES):
            return self._play_value(out, v)
        if isinstance(v, S.SeatsOf):
            return f"seats_of_({self._place(out, v.record)})"
        if isinstance(v, S.Best):
            name = f"ranks_{id(v.ranks)}_"
            self._step_ns()[name] = dict(v.ranks)
            if v.outside is not None:
                return (f"best_entry_past_({self._place(out, v.record)}, {name}, "
                        f"{self._value(out, v.outside)})")
            return f"best_entry_({self._place(out, v.record)}, {name})"
        if isinstance(v, S.Item):
            index = v.index if isinstance(v.index, int) else self._value(out, v.index)
            return f"({self._value(out, v.value)})[{index}]"
        if isinstance(v, S.Stated):
            return self._stated(out, v)
        if isinstance(v, S.SeatFrom):
            return self._seat_from(out, v)
        return self._cards(out, v)

    def _play_value(self, out: _Writer, v: S.Value) -> str:  # noqa: C901 - one case per value
        """A value of a card played or of a trick."""
        if isinstance(v, S.CardNo):
            return "i_"
        if isinstance(v, S.Named):
            return "d_" if out.fast is None or out.fast.named else repr(NO_SUIT)
        if isinstance(v, S.Played):
            return "card_" if out.fast is None else f"(i_, {self._value(out, S.Named())})"
        if isinstance(v, S.Truth):
            return f"bool({self._value(out, v.value)})"
        if isinstance(v, S.Strongest):
            if out.fast is not None and out.fast.ranked:  # kept as the cards were played
                return "top_at_"
            args = ", ".join(self._place(out, S.Get(f)) for f in (
                "trick", "led_suit", "trump", "trick_number", "contract"))
            return f"best_({args})"
        if isinstance(v, S.SeatsFrom):
            if not v.skip and v.outside is None:  # every seat
                return f"plain_seats_[{self._value(out, v.seat)}]"
            steady = self._steady_seats(out, v.skip, v.outside)
            if steady is not None:  # a table by seat, read once
                past = self._past(steady.pre, v)  # type: ignore[arg-type]
                table = self._hoisted(steady, f"seat_tables_.get(('seats', {past})) "
                                              f"or seats_table_({past})")
                return f"{table}[{self._value(out, v.seat)}]"
            return f"seats_in_order_({self._value(out, v.seat)}, {self._past(out, v)})"
        if isinstance(v, S.Column):
            if out.fast is not None and isinstance(v.record, S.Get):  # the columns, once
                return self._columns(out, v.record)[v.index]
            if v.size is not None:  # a record of a known length, unpacked once
                items = self._unpacked(out, v.record, v.size)
                return f"({''.join(f'{pair[v.index]}, ' for pair in items)})"
            return f"tuple(map(item_{v.index}_, {self._value(out, v.record)}))"
        if isinstance(v, S.Mask):  # the cards' bits are distinct: their sum is their union
            if out.fast is not None and v.cards == S.Column(S.Get("trick"), 0, v.cards.size):  # type: ignore[attr-defined]
                return "tmask_"  # kept as the cards were played
            if isinstance(v.cards, S.Column) and v.cards.size is not None:
                items = self._unpacked(out, v.cards.record, v.cards.size)
                return f"({' | '.join(f'1 << {pair[v.cards.index]}' for pair in items)})"
            return f"sum(map(card_bit_, {self._value(out, v.cards)}))"
        if isinstance(v, S.Len):
            if out.fast is not None and v.record == S.Get("trick"):  # kept as it grows
                return "size_"
            return f"len({self._place(out, v.record)})"
        if isinstance(v, S.Padded):
            if out.fast is not None:  # the fillers for each length, a table
                name = f"pads_{id(v.filler)}_"
                self._step_ns()[name] = tuple((v.filler,) * (self.n - k) for k in range(self.n + 1))
                items, size = self._value(out, v.items), self._place(out, v.items)
                return f"({items} + {name}[len({size})])"
            return f"pad_({self._place(out, v.items)}, {v.filler!r})"
        if isinstance(v, S.Added):
            return f"{self._value(out, v.record)} + ({self._value(out, v.item)},)"
        if isinstance(v, S.Finished):
            return f"trick_record_({', '.join(self._value(out, p) for p in v.parts)})"
        if isinstance(v, S.Held):
            if v.but == S.Lit(-1):  # any seat's
                return f"any({self._place(out, v.place)})"
            place, but = self._place(out, v.place), self._value(out, v.but)
            # a sum of masks is 0 when all are
            return f"(sum({place}) - ({place}[{but}] if {but} >= 0 else 0) != 0)"
        raise AssertionError(v)

    def _unpacked(self, out: _Writer, record: S.Value, size: int) -> list[tuple[str, str]]:
        """The pairs of a record of ``size`` entries, unpacked into names once (until a
        field is set)."""
        source = self._value(out, record)
        found = out.unpacked.get(source)
        if found is None:
            found = out.unpacked[source] = ([(out.temp(), out.temp()) for _ in range(size)],
                                            out.depth)
            out.emit(f"{', '.join(f'({a}, {b})' for a, b in found[0])}, = {source}")
        return found[0]

    def _columns(self, out: _Writer, record: S.Get) -> list[str]:
        """In a fast loop, the two columns of a record of pairs, read once (until a field
        is set)."""
        source = self._place(out, record)
        found = out.unpacked.get("zip " + source)
        if found is None:
            a, b = out.temp(), out.temp()
            found = out.unpacked["zip " + source] = ([(a, b)], out.depth)
            out.emit(f"{a}, {b} = zip(*{source})")
        return list(found[0][0])

    # -- the fast loop's storage ---------------------------------------------------------
    def _place(self, out: _Writer, v: S.Value) -> str:
        """``v`` where it is read in place, not kept as a value of its own: in a fast
        loop, the list that keeps a field (indexed, measured, added to)."""
        if out.fast is not None and isinstance(v, S.Get) and v.field in out.fast.lists:
            return f"{v.field}__"
        return self._value(out, v)

    def _steady(self, fast: FastPlay, v: Any) -> bool:
        """Whether the value ``v`` stays put while a fast loop runs: it reads no field
        that changes, nothing of the action, and no rule (which may read anything)."""
        if isinstance(v, S.Get):
            return v.field not in fast.changing
        if isinstance(v, S.Local | S.CardNo | S.Named | S.Played | S.Acted | S.Strongest
                      | S.Bid | S.Stated | S.Share):
            return False
        if isinstance(v, tuple):
            return all(self._steady(fast, x) for x in v)
        if is_dataclass(v):
            return all(self._steady(fast, getattr(v, f.name)) for f in fields(v))
        return True

    def _steady_seats(self, out: _Writer, skip: tuple[S.Value, ...], outside: S.Value | None
                      ) -> FastPlay | None:
        """The fast loop, where the seats passed over (``skip``, ``outside``) stay put in
        it: the seats in order of play from each seat are then a table read once."""
        fast = out.fast
        if fast is None or out is fast.pre or not self._steady(fast, (skip, outside)):
            return None
        return fast

    def _hoisted(self, fast: FastPlay, expr: str) -> str:
        """The name of the value ``expr`` read once, before a fast loop."""
        name = fast.hoisted.get(expr)
        if name is None:
            assert fast.pre is not None
            name = fast.hoisted[expr] = f"k{len(fast.hoisted) + 1}_"
            fast.pre.emit(f"{name} = {expr}")
        return name

    def _past(self, out: _Writer, v: S.SeatsFrom | S.SeatFrom) -> str:
        """The seats ``v`` passes over, as arguments: those it skips, those outside."""
        skips = "".join(f"{self._value(out, k)}, " for k in v.skip)
        return f"({skips}), {'0' if v.outside is None else self._value(out, v.outside)}"

    def _seats_table(self, skip: tuple[int, ...], outside: int) -> tuple[tuple[int, ...], ...]:
        """From each seat, the seats in order of play past ``skip`` and ``outside``."""
        key = ("seats", skip, outside)  # as the play loop looks it up first
        table = self._seat_tables.get(key)
        if table is None:
            table = self._seat_tables[key] = tuple(
                self.seats_in_order(k, skip, outside) for k in range(self.n))  # type: ignore[attr-defined]
        return table  # type: ignore[no-any-return]

    def _seat_table(self, skip: tuple[int, ...], outside: int, otherwise: Any
                    ) -> tuple[Any, ...]:
        """After each seat, the first seat in order of play that is none of ``skip`` and not
        in ``outside`` (``otherwise`` where every seat is: as :meth:`_seat_from`)."""
        key = ("after", skip, outside, otherwise)  # as the play loop looks it up first
        table = self._seat_tables.get(key)
        if table is None:
            after, found = self._next_seat, []
            for k in range(self.n):
                t = after[k]
                for _ in range(self.n):
                    if not (t in skip or outside >> t & 1):
                        break
                    t = after[t]
                else:
                    t = otherwise
                found.append(t)
            table = self._seat_tables[key] = tuple(found)
        return table

    def _stated(self, out: _Writer, v: S.Stated) -> str:
        """A rule's expression, inlined: the statements that read what it needs, then it."""
        scope = v.scope
        if out.fast is not None:  # the fast loop binds the seat, hand, position, suit led
            if any(isinstance(n, Certain) for n in walk(v.expr)):
                raise NotInline("a rule asks what a seat can be sure of, a question of the "
                                "whole state")
            scope = {"play": "play_fast", "play_card": "play_fast_card"}.get(scope, scope)
        lines, expr, _inputs = getattr(self.envs, scope).inline(self.game, self.tables, v.expr)
        read = set(re.findall(r"[A-Za-z_]\w*", " ".join((*lines, expr))))
        for name, value in v.given:  # the scope's inputs beyond the state it reads
            if name in read:
                out.emit_rule(f"{name} = {self._value(out, value)}")
        for line in lines:
            out.emit_rule(line)
        return f"({expr})"

    def _seat_from(self, out: _Writer, v: S.SeatFrom) -> str:
        """The first seat from ``v.seat`` on, in the order of play, that is none of
        ``v.skip``: one step on past a single seat, a loop past several."""
        first = v.seat
        steady = (self._steady_seats(out, v.skip, v.outside) if isinstance(first, S.After)
                  and (v.skip or v.outside is not None) else None)
        if steady is not None and self._steady(steady, v.otherwise):  # a table, read once
            assert steady.pre is not None and isinstance(first, S.After)
            otherwise = "None" if v.otherwise is None else self._value(steady.pre, v.otherwise)
            past = f"{self._past(steady.pre, v)}, {otherwise}"
            table = self._hoisted(steady, f"seat_tables_.get(('after', {past})) "
                                          f"or seat_table_({past})")
            return f"{table}[{self._value(out, first.seat)}]"
        t = out.temp()
        start = (f"next_seat_[{self._value(out, first.seat)}]" if isinstance(first, S.After)
                 else f"seat_after_({self._value(out, first)}, {self.n}, 0)")
        if not v.skip and v.outside is None:  # the seat itself
            return start
        out.emit(f"{t} = {start}")
        skips = [self._value(out, k) for k in v.skip]
        if skips and v.outside is not None:  # past both, at most once round the table
            outside = out.temp()
            out.emit(f"{outside} = {self._value(out, v.outside)}")
            out.emit("for _ in range_n_:")
            out.emit(f"    if not ({t} in ({', '.join(skips)},) or {outside} >> {t} & 1):")
            out.emit("        break")
            out.emit(f"    {t} = next_seat_[{t}]")
            out.emit("else:")
            out.emit(f"    {t} = {self._value(out, v.otherwise)}" if v.otherwise is not None
                     else "    raise AssertionError('every seat is out of the play')")
            return t
        if len(skips) == 1:
            out.emit(f"if {t} == {skips[0]}:")
            out.emit(f"    {t} = next_seat_[{t}]")
        elif skips:
            out.emit(f"while {t} in ({', '.join(skips)},):")
            out.emit(f"    {t} = next_seat_[{t}]")
        if v.outside is not None:  # at most once round the table
            outside = out.temp()
            out.emit(f"{outside} = {self._value(out, v.outside)}")
            out.emit("for _ in range_n_:")
            out.emit(f"    if not {outside} >> {t} & 1:")
            out.emit("        break")
            out.emit(f"    {t} = next_seat_[{t}]")
            out.emit("else:")
            if v.otherwise is None:
                out.emit("    raise AssertionError('every seat is out of the play')")
            else:
                out.emit(f"    {t} = {self._value(out, v.otherwise)}")
        return t

    def _cards(self, out: _Writer, v: S.Value) -> str:  # noqa: C901 - one case per value
        """A value of cards: a set, or one per seat."""
        if isinstance(v, S.Joined | S.Less):
            if S.per_seat(v) and isinstance(v.b, S.Only):  # one seat's cards: its entry alone
                a, seat = self._place(out, v.a), self._value(out, v.b.seat)
                at = "with_bits_" if isinstance(v, S.Joined) else "less_at_"
                return f"{at}[{seat}]({a}, {self._value(out, v.b.cards)})"
            a, b = self._value(out, v.a), self._value(out, v.b)
            op = "|" if isinstance(v, S.Joined) else "& ~"
            if not S.per_seat(v):
                return f"({a} {op} {b})"
            return f"tuple(p_ {op} q_ for p_, q_ in zip({a}, {b}))"
        if isinstance(v, S.Only):
            seat, cards = out.temp(), out.temp()
            out.emit(f"{seat} = {self._value(out, v.seat)}")
            out.emit(f"{cards} = {self._value(out, v.cards)}")
            return f"tuple({cards} if k_ == {seat} else 0 for k_ in range_n_)"
        if isinstance(v, S.At):
            return f"{self._place(out, v.place)}[{self._value(out, v.seat)}]"
        if isinstance(v, S.Count):
            return f"({self._value(out, v.cards)}).bit_count()"
        if isinstance(v, S.AtLeast):
            return f"({self._value(out, v.a)} >= {self._value(out, v.b)})"
        if isinstance(v, S.SuitOf):
            return f"suit_of_card_[({self._value(out, v.cards)}).bit_length() - 1]"
        assert isinstance(v, S.Share), v
        name = f"share_{v.stage}_"
        self._step_ns()[name] = self._share(v.stage)
        return f"{name}(w.pending)"

    def _share(self, stage: int) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
        """Per seat, the cards of dealing stage ``stage`` still to come to it: the lowest of
        its pending cards, as many as the stage's packets give; all of them in the last."""
        share = sum(self.game.program.packets[stage - 1])
        if stage == self.stages:
            return lambda pending: tuple(pending)

        def cards(pending: tuple[int, ...]) -> tuple[int, ...]:
            out = []
            for rest in pending:
                now = 0
                for _ in range(share):
                    low = rest & -rest
                    now |= low
                    rest ^= low
                out.append(now)
            return tuple(out)
        return cards

    # -- the functions the engine calls --------------------------------------------------
    def _entry_fn(self, step: S.Step, index: int) -> Callable[[Any], None]:
        """``enter(w)``: the step's phase shown and its entry's effects."""
        phase = Phase(step.phase) if step.phase is not None else None

        def body(out: _Writer) -> None:
            if phase is not None:
                out.emit("w.phase = phase_")
            self._effects(out, step.enter)
            if not out.lines:
                out.emit("pass")
        return self._step_fn(f"enter_{index}", "w", body, phase_=phase)

    def _when_fn(self, step: S.Step, index: int) -> Callable[[Any], bool]:
        """``takes_place(w)``: whether the step takes place, read in the state the step
        before it leaves."""
        assert step.when is not None

        def body(out: _Writer) -> None:
            out.emit(f"return {self._value(out, step.when)}")  # type: ignore[arg-type]
        return self._step_fn(f"takes_place_{index}", "w", body)

    def _choice_fns(self, step: S.Step, index: int
                    ) -> tuple[tuple[str, Callable[[Any], bool] | None, Callable[[Any], bool],
                                     Callable[[Any, Any], None]], ...]:
        """Per option of a choice step: its name, ``offered(w)`` (whether it is on offer;
        None: always), ``may(w)`` (whether it may be chosen) and ``choose(w, action_)``
        (what choosing it does)."""
        out = []
        for k, c in enumerate(step.options):
            def test(value: S.Value) -> Callable[[_Writer], None]:
                return lambda o: o.emit(f"return {self._value(o, value)}")

            def choose(o: _Writer, c: S.Choice = c) -> None:
                self._effects(o, c.effects)
                if not o.lines:
                    o.emit("pass")
            offered = (None if c.offered is None
                       else self._step_fn(f"offered_{index}_{k}", "w", test(c.offered)))
            out.append((c.name, offered, self._step_fn(f"may_{index}_{k}", "w", test(c.when)),
                        self._step_fn(f"choose_{index}_{k}", "w, action_", choose)))
        return tuple(out)

    def _value_fn(self, value: S.Value, name: str) -> Callable[[Any], Any]:
        """``name(w)``: ``value`` in the state ``w``."""
        return self._step_fn(name, "w", lambda o: o.emit(f"return {self._value(o, value)}"))

    def _pad(self, items: tuple[Any, ...], filler: Any) -> tuple[Any, ...]:
        """A trick's tuple filled out with ``filler`` to one item per seat."""
        short = self.n - len(items)
        return tuple(items) + (filler,) * short if short else items

    def _play_fn(self, step: S.Step, index: int) -> Callable[[Any, Any, tuple[int, int]], None]:
        """``play(w, action_, card_)``: the card ``card_`` (its number and the suit it names)
        played, as the step's effects say."""
        def body(out: _Writer) -> None:
            self._effects(out, step.effects)
            names = set(re.findall(r"[A-Za-z_]\w*", "\n".join(out.lines)))
            # the card's number, named suit and bit, where the effects read them
            out.lines[:0] = [f"    {line}" for line, needed in (
                ("i_, d_ = card_", "d_" in names),
                ("i_ = card_[0]", ("i_" in names or "x_" in names) and "d_" not in names),
                ("x_ = 1 << i_", "x_" in names)) if needed]
        return self._step_fn(f"play_{index}", "w, action_, card_", body)

    def _card_fn(self, step: S.Step, index: int) -> Callable[[Any, Any, int], None]:
        """``card(w, action_, i_)``: the card ``i_`` of the actor's hand acted, then, if the
        step is over, the next step."""
        assert step.ends is not None

        def body(out: _Writer) -> None:
            out.emit("x_ = 1 << i_")
            self._effects(out, step.effects)
            out.emit(f"if {self._value(out, step.ends)}:")  # type: ignore[arg-type]
            out.emit("    advance_(w)")
        return self._step_fn(f"card_{index}", "w, action_, i_", body)
