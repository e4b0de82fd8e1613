"""Python generated from the steps of a deal: the engine's one reading of the step language.

Each step of :attr:`Game.steps <spec.dsl._build.Game.steps>` says, as data, what its entry
does and what each of its actions does (:mod:`spec.dsl._steps`).  :class:`StepSource`
writes those effects as the statements of a Python function over the working copy ``w``
of a state, with the game's answers written in (the rules a step judges inlined, its
tables bound as constants), and compiles it once per engine, as a simulator compiles the
switch a state machine was lowered to.  The per-action path (``apply``) and the fast
playouts call the same generated functions (the auction loops write the same statements
of a call into their own loop), so a deal runs the same whichever way it is played.

Names in the generated code end with ``_`` (``seat_``, ``over_``), apart from ``w``, ``s``
(the state the inlined rules read, the same object) and the names the inlined rules bind.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from spec.dsl import _steps as S
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


class _Writer:
    """The statements of one generated function under construction."""

    def __init__(self, engine: StepSource, action: str = "action_") -> None:
        self.engine = engine
        self.action = action  # the name the action is bound to
        self.lines: list[str] = []
        self.depth = 1
        self.temps = 0
        self.unpacked: dict[str, list[tuple[str, str]]] = {}  # records unpacked, by source

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

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
                      card_bit_=tuple(1 << i for i in range(len(deck))).__getitem__)
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

    def _effect(self, out: _Writer, e: S.Effect) -> None:  # noqa: C901 - one case per effect
        if isinstance(e, S.Set):
            out.emit(f"w.{e.field} = {self._value(out, e.value)}")
            out.unpacked.clear()
        elif isinstance(e, S.Let):
            out.emit(f"{e.name}_ = {self._value(out, e.value)}")
        elif isinstance(e, S.Fire):
            at = "len(w.log)" + (f" - {e.back}" if e.back else "")
            out.emit(f"w.fired = w.fired + (({at}, {e.rule!r}),)")
        elif isinstance(e, S.Advance):
            out.emit("advance_(w)")
        elif isinstance(e, S.Over):
            out.emit("w.phase = OVER_")
            out.emit("w.scores, w.lines = final_scores_(w)")
        elif isinstance(e, S.Record):
            out.emit(f"w.log = w.log + (({self._value(out, e.seat)}, {out.action}),)")
        elif isinstance(e, S.Track):
            values = [(self.tracked_index[name], self._value(out, v)) for name, v in e.sets]
            out.emit("tv_ = list(w.tracked)")
            for index, value in values:
                out.emit(f"tv_[{index}] = {value}")
            out.emit("w.tracked = tuple(tv_)")
        elif isinstance(e, S.Updates):
            self._updates_lines(out, e)
        elif isinstance(e, S.When):
            out.emit(f"if {self._value(out, e.test)}:")
            out.depth += 1
            self._effects(out, e.then) if e.then else out.emit("pass")
            out.depth -= 1
            if e.orelse:
                out.emit("else:")
                out.depth += 1
                self._effects(out, e.orelse)
                out.depth -= 1
        elif e.what is S.Judgement.STATUS:
            out.emit("after_status_(w)")
        else:
            assert e.what is S.Judgement.VOID
            out.emit("void_now_(w)")

    def _updates_lines(self, out: _Writer, e: S.Updates) -> None:
        """Tracked values set by several rules, each reading the values before any is set;
        a rule that changed a value is recorded as taking effect."""
        out.emit("tv_ = None")
        for when, sets, rule in e.rules:
            out.emit(f"if {self._value(out, when)}:")
            out.depth += 1
            out.emit("if tv_ is None:")
            out.emit("    tv_ = list(w.tracked)")
            out.emit("before_ = list(tv_)")
            for name, value in sets:
                out.emit(f"tv_[{self.tracked_index[name]}] = {self._value(out, value)}")
            out.emit("if tv_ != before_:")
            out.emit(f"    w.fired = w.fired + ((len(w.log), {rule!r}),)")
            out.depth -= 1
        out.emit("if tv_ is not None:")
        out.emit("    w.tracked = tuple(tv_)")

    # -- values --------------------------------------------------------------------------
    def _value(self, out: _Writer, v: S.Value) -> str:  # noqa: C901 - one case per value
        """``v`` as a Python expression; statements it needs first are written to ``out``."""
        if isinstance(v, S.Get):
            return f"w.{v.field}"
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
                return f"(not {self._value(out, v.a.record)})"
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
            return f"seats_of_({self._value(out, v.record)})"
        if isinstance(v, S.Best):
            name = f"ranks_{id(v.ranks)}_"
            self._step_ns()[name] = dict(v.ranks)
            if v.outside is not None:
                return (f"best_entry_past_({self._value(out, v.record)}, {name}, "
                        f"{self._value(out, v.outside)})")
            return f"best_entry_({self._value(out, v.record)}, {name})"
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
            return "d_"
        if isinstance(v, S.Played):
            return "card_"
        if isinstance(v, S.Truth):
            return f"bool({self._value(out, v.value)})"
        if isinstance(v, S.Strongest):
            return "best_(w.trick, w.led_suit, w.trump, w.trick_number, w.contract)"
        if isinstance(v, S.SeatsFrom):
            if not v.skip and v.outside is None:  # every seat
                return f"plain_seats_[{self._value(out, v.seat)}]"
            skips = "".join(f"{self._value(out, k)}, " for k in v.skip)
            outside = "0" if v.outside is None else self._value(out, v.outside)
            return f"seats_in_order_({self._value(out, v.seat)}, ({skips}), {outside})"
        if isinstance(v, S.Column):
            if v.size is not None:  # a record of a known length, unpacked once
                items = self._unpacked(out, v.record, v.size)
                return f"({''.join(f'{pair[v.index]}, ' for pair in items)})"
            return f"tuple(map(item_{v.index}_, {self._value(out, v.record)}))"
        if isinstance(v, S.Mask):  # the cards' bits are distinct: their sum is their union
            if isinstance(v.cards, S.Column) and v.cards.size is not None:
                items = self._unpacked(out, v.cards.record, v.cards.size)
                return f"({' | '.join(f'1 << {pair[v.cards.index]}' for pair in items)})"
            return f"sum(map(card_bit_, {self._value(out, v.cards)}))"
        if isinstance(v, S.Len):
            return f"len({self._value(out, v.record)})"
        if isinstance(v, S.Padded):
            return f"pad_({self._value(out, v.items)}, {v.filler!r})"
        if isinstance(v, S.Added):
            return f"{self._value(out, v.record)} + ({self._value(out, v.item)},)"
        if isinstance(v, S.Finished):
            return f"trick_record_({', '.join(self._value(out, p) for p in v.parts)})"
        if isinstance(v, S.Held):
            if v.but == S.Lit(-1):  # any seat's
                return f"any({self._value(out, v.place)})"
            place, but = self._value(out, v.place), self._value(out, v.but)
            # a sum of masks is 0 when all are
            return f"(sum({place}) - ({place}[{but}] if {but} >= 0 else 0) != 0)"
        raise AssertionError(v)

    def _unpacked(self, out: _Writer, record: S.Value, size: int) -> list[tuple[str, str]]:
        """The pairs of a record of ``size`` entries, unpacked into names once (until a
        field is set)."""
        source = self._value(out, record)
        items = out.unpacked.get(source)
        if items is None:
            items = out.unpacked[source] = [(out.temp(), out.temp()) for _ in range(size)]
            out.emit(f"{', '.join(f'({a}, {b})' for a, b in items)}, = {source}")
        return items

    def _stated(self, out: _Writer, v: S.Stated) -> str:
        """A rule's expression, inlined: the statements that read what it needs, then it."""
        lines, expr, _inputs = getattr(self.envs, v.scope).inline(self.game, self.tables, v.expr)
        read = set(re.findall(r"[A-Za-z_]\w*", " ".join((*lines, expr))))
        for name, value in v.given:  # the scope's inputs beyond the state it reads
            if name in read:
                out.emit(f"{name} = {self._value(out, value)}")
        for line in lines:
            out.emit(line)
        return f"({expr})"

    def _seat_from(self, out: _Writer, v: S.SeatFrom) -> str:
        """The first seat from ``v.seat`` on, in the order of play, that is none of
        ``v.skip``: one step on past a single seat, a loop past several."""
        t = out.temp()
        first = v.seat
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
                a, seat = self._value(out, v.a), self._value(out, v.b.seat)
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
            return f"{self._value(out, v.place)}[{self._value(out, v.seat)}]"
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
