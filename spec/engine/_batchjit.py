"""The batch's lanes run by compiled code: the same steps, written as Python a lane at a
time and compiled by numba.

Where numba is installed (the ``fast`` extra) and the choices are the random policy's,
:class:`~spec.engine._batch.BatchEngine` runs its lanes through a kernel generated here
from the steps it interprets over columns (:mod:`spec.engine._batch`): the same effects,
read in the same order, on the same columns, with the rules compiled as scalar Python by
the engine's own compiler (a set's size written for numba).  A lane runs from its step to
its end, drawing each choice as the random policy draws it, so the columns, and the
records written from them, are the ones the numpy interpreter gives (a test compares them
for every game the kernel runs).  A step's construct the generator does not write makes
the kernel refuse the game (:class:`NotCompiled`); the numpy interpreter then runs it.
"""
from __future__ import annotations

import hashlib
import inspect
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from spec.dsl import _derive as D
from spec.dsl import _steps as S
from spec.dsl._nodes import NO_SUIT, Ctx
from spec.dsl._pycompile import PyCompiler, UnsupportedNodeError
from spec.engine._batch import _PAIRS, _SCALARS, Reading, state_entries
from spec.engine._env import Entry, Env, _names_in

if TYPE_CHECKING:
    from spec.engine._batch import BatchEngine, Columns

__all__ = ["NotCompiled", "compiled_lanes"]

ROOM = -3  # a lane that needs more room in a column: -3 - its step (see Columns.room)


class NotCompiled(Exception):
    """A step's construct the kernel's generator does not write."""


def _numba() -> Any:
    try:
        import numba
    except ImportError:
        return None
    return numba


class _Scalar(PyCompiler):
    """The engine's compiler, with a set's size written as numba reads it."""

    def _with(self, key: Any, src: str) -> _Scalar:
        c = _Scalar(self.game, self.tables, self.env)
        c.env[key] = src
        return c

    def visit_Count(self, node: Any) -> str:
        return f"_pc({self.visit(node.cards)})"


@dataclass(frozen=True)
class _Seq:
    """Items of a lane: the source of the item at a position (a template with ``{p}``)
    and of how many count."""

    item: str
    n: str


# the columns the kernel reads and writes, by their names in Columns (A_ before each)
_LANE = ("at", "decisions", "numbers", "tlen", "ntricks", "nlog", "ncalls", "nfired", "log0",
         "nchosen", "nopen", "nfaces")


class _Writer:
    """The kernel's source, a statement at a time."""

    def __init__(self, batch: BatchEngine) -> None:
        self.b = batch
        self.lines: list[str] = []
        self.depth = 2
        self.count = 0
        self.globals: dict[str, Any] = {}
        self.table_names: dict[int, str] = {}
        self.seqs: dict[str, _Seq] = {}
        self.voided = False  # a void judged: what follows runs only in a lane not handed back
        eng = batch.engine
        self.envs = self._envs(eng)

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def table_name(self, kind: str, of: Any) -> str:
        """The kernel's global name of a table read (one name an object, numbered in the
        order written, so that the same steps give the same source)."""
        name = self.table_names.get(id(of))
        if name is None:
            name = self.table_names[id(of)] = f"{kind}{len(self.table_names)}_"
        return name

    def temp(self) -> str:
        self.count += 1
        return f"t{self.count}_"

    def fire(self, rule: int | str, back: int = 0, indent: str = "") -> None:
        """The rule numbered ``rule`` noted as taking effect, at the action ``back``
        before the next to be logged (as the interpreter's ``_fire``)."""
        at = "A_log0[k] + A_nlog[k]" + (f" - {back}" if back else "")
        self.emit(f"{indent}A_fired_at[A_nfired[k], k] = {at}")
        self.emit(f"{indent}A_fired_rule[A_nfired[k], k] = {rule}")
        self.emit(f"{indent}A_nfired[k] += 1")

    def log(self, seat: str, action: int | str, indent: str = "") -> None:
        """The action ``action`` of ``seat`` logged (as the interpreter's ``_log``)."""
        self.emit(f"{indent}A_log_seat[A_nlog[k], k] = {seat}")
        self.emit(f"{indent}A_log_action[A_nlog[k], k] = {action}")
        self.emit(f"{indent}A_nlog[k] += 1")

    # -- the rules' environments, a lane at a time ---------------------------------------
    def _envs(self, eng: Any) -> dict[str, Env]:
        reading = Reading(
            col=lambda f: f"A_{f}[k]", at=lambda f, seat: f"A_{f}[k, {seat}]",
            tracked=lambda i: f"A_tracked[k, {i}]", cond=lambda t, a, b: f"({a} if {t} else {b})",
            bit=lambda x: f"((1 << {x}) if {x} >= 0 else 0)", count="_pc",
            beating="_beating(k, hand, led_suit, trump, trick_number, contract, A_trick_c, "
                    "A_trick_n, A_tlen)")
        play = Env((), state_entries(self.b, "play", reading))
        call = Env((), state_entries(self.b, "call", reading))
        status = Env((), state_entries(self.b, "status", reading))
        entry = Env(eng.envs.entry.inputs, eng.envs.entry.entries)
        # a complete trick: its number, leader and size, and at each position the card,
        # the suit named and whether face down, each an input of its own (``cards0`` ...)
        n = self.b.n
        each = [f"{part}{i}" for part in ("cards", "named", "faces") for i in range(n)]
        trick = Env(("number", "leader", "size", *each), [
            *state_entries(self.b, "common", reading),
            Entry(Ctx.TRICK_NUMBER, "number", "trick_number"), Entry(Ctx.LEADER, "leader"),
            Entry(Ctx.TRICK_SIZE, "size", "trick_size"),
            *(Entry((Ctx.PLAYED_CARD, i), f"cards{i}") for i in range(n)),
            *(Entry((Ctx.PLAYED_DECLARED, i), f"named{i}") for i in range(n)),
            *(Entry((Ctx.PLAYED_FACE_DOWN, i), f"faces{i}") for i in range(n))])
        return {"play": play, "call": call, "status": status, "first_lead": status,
                "entry": entry, "trick": trick,
                "play_card": Env(("card", "declared"), [
                    *play.entries, Entry(Ctx.CARD, "card", "card"),
                    Entry(Ctx.DECLARED, "declared", "declared")]),
                "call_made": Env(("call_is_bid", "call_bid"), [
                    *call.entries, Entry(Ctx.CALL_IS_BID, "call_is_bid", "call_is_bid"),
                    Entry(Ctx.CALL_BID, "call_bid", "call_bid")])}

    def rule(self, scope: str, expr: Any, given: dict[str, str] | None = None) -> str:
        """A rule's expression inlined: the statements that read what it needs, written
        here, then the expression."""
        inputs, reads, body = self.rule_parts(scope, expr, given)
        for line in (*inputs, *reads):
            self.emit(line)
        return body

    def rule_parts(self, scope: str, expr: Any, given: dict[str, str] | None = None
                   ) -> tuple[list[str], list[str], str]:
        """A rule's expression inlined, in parts: the statements that bind the scope's
        inputs (``given``), those that read the lane's state, and the expression."""
        env = self.envs.get(scope)
        if env is None:
            raise NotCompiled(f"a rule read in scope {scope}")
        try:
            body = _Scalar(self.b.game, self.b.tables, env.compiler_env()).visit(expr)
        except UnsupportedNodeError as e:
            raise NotCompiled(str(e)) from None
        wanted = _names_in(body) & set(env.vars)
        read = wanted.union(*(_names_in(env.vars[v].source) for v in env._closure(wanted)))
        inputs = []
        for name in env.inputs:
            if name in read or name in _names_in(body):
                if given is None or name not in given:
                    raise NotCompiled(f"no value for {name}")
                inputs.append(f"{name} = {given[name]}")
        return inputs, [line.strip() for line in env._prologue(wanted)], f"({body})"

    # -- values ----------------------------------------------------------------------------
    # long: one case per kind of value of the steps, each a few lines
    def value(self, v: Any) -> Any:  # noqa: C901 - one case per value
        """``v`` for lane ``k`` as an expression (a ``_Seq`` for items); the statements it
        needs first are written."""
        b = self.b
        if isinstance(v, S.Get):
            if v.field == "trick":
                return _Seq("A_trick_c[{p}, k]", "A_tlen[k]")
            if v.field == "faces":
                return _Seq("A_trick_f[{p}, k]", "A_nfaces[k]")
            if S.FIELDS[v.field].per_seat or v.field not in _SCALARS:
                raise NotCompiled(f"{v.field} as a value")
            return f"A_{v.field}[k]"
        if isinstance(v, S.Lit):
            if v.per_seat:
                raise NotCompiled(f"{v} as a value")
            if isinstance(v.value, str):
                return str(b.names.index(v.value))
            return repr(int(v.value)) if not isinstance(v.value, bool) else repr(v.value)
        if isinstance(v, S.Local):
            return self.seqs.get(v.name, f"L_{v.name}")
        if isinstance(v, S.Op):
            a, c = self.value(v.a), self.value(v.b)
            return f"({a} {v.op} {c})"
        if isinstance(v, S.Cond):
            test, a, c = self.value(v.test), self.value(v.a), self.value(v.b)
            return f"({a} if {test} else {c})"
        if isinstance(v, S.Bit):  # no seat (-1): no bit, as numpy shifts
            x = self.value(v.seat)
            return f"((1 << {x}) if {x} >= 0 else 0)"
        if isinstance(v, S.After):
            return f"_NEXT[{self.value(v.seat)}]"
        if isinstance(v, S.SeatFrom):
            return self.seat_from(v)
        if isinstance(v, S.SeatsFrom):
            return self.seats_from(v)
        if isinstance(v, S.Item):
            seq = self.value(v.value)
            index = str(v.index) if isinstance(v.index, int) else self.value(v.index)
            return seq.item.format(p=index)
        if isinstance(v, S.Strongest):
            return self.strongest()
        if isinstance(v, S.Column):
            record = self.value(v.record)
            assert v.record == S.Get("trick"), v
            item = "A_trick_c[{p}, k]" if v.index == 0 else "A_trick_n[{p}, k]"
            return _Seq(item, record.n)
        if isinstance(v, S.Mask):
            seq = self.value(v.cards)
            t = self.temp()
            self.emit(f"{t} = 0")
            self.emit(f"for p_ in range({seq.n}):")
            self.emit(f"    {t} |= 1 << {seq.item.format(p='p_')}")
            return t
        if isinstance(v, S.Len):
            if v.record != S.Get("trick"):
                raise NotCompiled(f"the length of {v.record}")
            return "A_tlen[k]"
        if isinstance(v, S.Padded):
            seq = self.value(v.items)
            filler = int(v.filler)
            return _Seq(f"({seq.item} if {{p}} < {seq.n} else {filler})", str(b.n))
        if isinstance(v, S.Held):
            but = self.value(v.but)
            t = self.temp()
            self.emit(f"{t} = False")
            self.emit(f"for s_ in range({b.n}):")
            self.emit(f"    if s_ != {but} and {self.per_seat(v.place, 's_')} != 0:")
            self.emit(f"        {t} = True")
            return t
        if isinstance(v, S.At):
            return self.per_seat(v.place, self.value(v.seat))
        if isinstance(v, S.Count):
            return f"_pc({self.value(v.cards)})"
        if isinstance(v, S.AtLeast):
            return f"({self.value(v.a)} >= {self.value(v.b)})"
        if isinstance(v, S.Entry):
            name = self.table_name("E", v.table)
            self.globals[name] = np.array([int(x) for x in v.table], dtype=np.int64)
            return f"{name}[{self.value(v.index)} % {len(v.table)}]"
        if isinstance(v, S.Stated):
            given = {}
            for name, value in v.given:
                out = self.value(value)
                if isinstance(out, _Seq):  # items: one input a position
                    given.update({f"{name}{p}": out.item.format(p=p) for p in range(b.n)})
                else:
                    given[name] = out
            return self.rule(v.scope, v.expr, given)
        if isinstance(v, S.Bid):
            return "bid_"
        if isinstance(v, S.CardNo):
            return "card_"
        if isinstance(v, S.Named):
            return "named_"
        if isinstance(v, S.Acted):
            return "(1 << card_)"
        if isinstance(v, S.SuitOf):  # of one card: the rules' table of suits
            return f"_SUIT[_pc(({self.scalar(v.cards)}) - 1) % {b.deck}]"
        if isinstance(v, S.Truth):
            return f"({self.value(v.value)} != 0)"
        if isinstance(v, S.Joined) and not S.per_seat(v):
            return f"({self.scalar(v.a)} | {self.scalar(v.b)})"
        if isinstance(v, S.Less) and not S.per_seat(v):
            return f"({self.scalar(v.a)} & ~{self.scalar(v.b)})"
        if isinstance(v, S.SeatsOf):
            if v.record != S.Get("chosen"):
                raise NotCompiled(f"the seats of {v.record}")
            t = self.temp()
            self.emit(f"{t} = 0")
            self.emit("for p_ in range(A_nchosen[k]):")
            self.emit(f"    {t} |= 1 << A_chosen_seat[p_, k]")
            return t
        if isinstance(v, S.Best):
            return self.best(v)
        raise NotCompiled(f"the value {v}")

    def best(self, v: S.Best) -> _Seq:
        """The choice (seat, name) whose name ranks highest, the first of equals (past the
        seats ``outside``); (-1, -1) where there is none."""
        if v.record != S.Get("chosen"):
            raise NotCompiled(f"the best of {v.record}")
        b = self.b
        ranks = np.full(len(b.names) + 1, -(1 << 62), dtype=np.int64)
        for name, rank in v.ranks:
            ranks[b.names.index(name)] = rank
        name = self.table_name("R", v)
        self.globals[name] = ranks
        outside = None if v.outside is None else self.scalar(v.outside)
        seat, named, top = self.temp(), self.temp(), self.temp()
        self.emit(f"{seat} = -1")
        self.emit(f"{named} = -1")
        self.emit(f"{top} = -(1 << 62) - 1")
        self.emit("for p_ in range(A_nchosen[k]):")
        if outside is not None:
            self.emit(f"    if ({outside} >> A_chosen_seat[p_, k]) & 1 == 1:")
            self.emit("        continue")
        self.emit(f"    if {name}[A_chosen_name[p_, k]] > {top}:")
        self.emit(f"        {top} = {name}[A_chosen_name[p_, k]]")
        self.emit(f"        {seat} = A_chosen_seat[p_, k]")
        self.emit(f"        {named} = A_chosen_name[p_, k]")
        return _Seq(f"({seat} if {{p}} == 0 else {named})", "2")

    def scalar(self, v: Any) -> str:
        out = self.value(v)
        if not isinstance(out, str):
            raise NotCompiled(f"{v} where a number is read")
        return out

    def per_seat(self, v: Any, seat: str) -> str:
        """A value a seat, at ``seat``."""
        if isinstance(v, S.Get) and S.FIELDS[v.field].per_seat:
            return f"A_{v.field}[k, {seat}]"
        if isinstance(v, S.Lit) and v.per_seat:
            return repr(int(v.value))
        if isinstance(v, S.Only):
            at, cards = self.scalar(v.seat), self.scalar(v.cards)
            return f"({cards} if {seat} == {at} else 0)"
        if isinstance(v, S.Less):
            return f"({self.per_seat(v.a, seat)} & ~{self.per_seat(v.b, seat)})"
        if isinstance(v, S.Joined):
            return f"({self.per_seat(v.a, seat)} | {self.per_seat(v.b, seat)})"
        if isinstance(v, S.PlusAt):
            at = self.scalar(v.seat)
            return f"({self.per_seat(v.place, seat)} + ({v.amount} if {seat} == {at} else 0))"
        if isinstance(v, S.Share):  # as BatchEngine.share
            if v.stage == self.b.engine.stages:
                return f"A_pending[k, {seat}]"
            return f"_lowest_n(A_pending[k, {seat}], {sum(self.b.game.program.packets[v.stage - 1])})"
        raise NotCompiled(f"the value {v} a seat")

    def _passed(self, t: str, skips: list[str], outside: str | None) -> str:
        terms = [f"{t} == {s}" for s in skips]
        if outside is not None:
            terms.append(f"({outside} >> {t}) & 1 == 1")
        return " or ".join(terms) or "False"

    def seat_from(self, v: S.SeatFrom) -> str:
        t = self.temp()
        first = v.seat
        start = (f"_NEXT[{self.scalar(first.seat)}]" if isinstance(first, S.After)
                 else f"({self.scalar(first)}) % {self.b.n}")
        skips = [self.scalar(s) for s in v.skip]
        outside = None if v.outside is None else self.scalar(v.outside)
        self.emit(f"{t} = {start}")
        passed = self._passed(t, skips, outside)
        self.emit(f"for _ in range({self.b.n}):")
        self.emit(f"    if {passed}:")
        self.emit(f"        {t} = _NEXT[{t}]")
        if skips or outside is not None:
            self.emit(f"if {passed}:")
            if v.otherwise is not None:
                self.emit(f"    {t} = {self.scalar(v.otherwise)}")
            else:
                self.emit("    raise AssertionError('every seat is out of the play')")
        return t

    def seats_from(self, v: S.SeatsFrom) -> _Seq:
        t, n_, s_ = self.temp(), self.temp(), self.temp()
        skips = [self.scalar(s) for s in v.skip]
        outside = None if v.outside is None else self.scalar(v.outside)
        self.emit(f"{s_} = {self.scalar(v.seat)}")
        self.emit(f"{n_} = 0")
        for p in range(self.b.n):  # the seats in order, unrolled: a few locals, no array
            self.emit(f"{t}{p} = 0")  # (beyond their number: 0, as the interpreter leaves it)
        for _ in range(self.b.n):
            self.emit(f"if not ({self._passed(s_, skips, outside)}):")
            for p in range(self.b.n):
                self.emit(f"    if {n_} == {p}:")
                self.emit(f"        {t}{p} = {s_}")
            self.emit(f"    {n_} += 1")
            self.emit(f"{s_} = _NEXT[{s_}]")
        return _Seq(_pick(t, self.b.n), n_)

    def strongest(self) -> str:
        """The position of the strongest card of the lane's trick, the first of equals."""
        at, best, st = self.temp(), self.temp(), self.temp()
        self.emit(f"{at} = 0")
        self.emit(f"{best} = -(1 << 62)")
        self.emit("for p_ in range(A_tlen[k]):")
        self.emit(f"    {st} = _strength(A_trick_c[p_, k], A_trick_n[p_, k], p_, A_led_suit[k], "
                  "A_trump[k], A_trick_number[k], A_contract[k])")
        self.emit(f"    if {st} > {best}:")
        self.emit(f"        {best} = {st}")
        self.emit(f"        {at} = p_")
        return at


def _pick(name: str, n: int) -> str:
    """The item at position ``{p}`` of ``n`` locals ``name0`` ..."""
    out = f"{name}{n - 1}"
    for p in range(n - 2, -1, -1):
        out = f"({name}{p} if {{p}} == {p} else {out})"
    return out




class _Kernel(_Writer):
    """The kernel: every lane from ``k0`` to ``k1`` run from its step to its end."""

    # -- effects ---------------------------------------------------------------------------
    def effects(self, effects: Any, step: int) -> None:
        guarded = False
        for e in effects:
            if self.voided and not guarded:  # the rest in a lane whose deal stands
                self.emit(f"if A_at[k] != {HANDED_BACK}:")
                self.depth += 1
                self.emit("pass")
                guarded = True
            self.effect(e, step)
        if guarded:
            self.depth -= 1

    def effect(self, e: Any, step: int) -> None:  # noqa: C901 - one case per effect
        b = self.b
        if isinstance(e, S.Set):
            self.set(e)
        elif isinstance(e, S.Let):
            out = self.value(e.value)
            if isinstance(out, _Seq):  # items: the locals that hold them, from here on
                self.seqs[e.name] = out
            else:
                self.emit(f"L_{e.name} = {out}")
        elif isinstance(e, S.When):
            self.emit(f"if {self.scalar(e.test)}:")
            self.depth += 1
            self.emit("pass")
            self.effects(e.then, step)
            self.depth -= 1
            if e.orelse:
                self.emit("else:")
                self.depth += 1
                self.emit("pass")
                self.effects(e.orelse, step)
                self.depth -= 1
        elif isinstance(e, S.Record):
            self.log(self.scalar(e.seat), "action_")
        elif isinstance(e, S.Fire):
            self.fire(b.rule_ids.index(e.rule), e.back)
        elif isinstance(e, S.Judge):
            self.judge(e.what)
        elif isinstance(e, S.Advance):
            self.advance(step + 1)
        elif isinstance(e, S.Track):  # each value read before any is set
            values = [(b.tracked.index(name), self.scalar(v)) for name, v in e.sets]
            t = self.temp()
            for j, (_index, value) in enumerate(values):
                self.emit(f"{t}{j} = {value}")
            for j, (index, _value) in enumerate(values):
                self.emit(f"A_tracked[k, {index}] = {t}{j}")
        elif isinstance(e, S.Updates):
            self.updates(e)
        elif isinstance(e, S.Over):
            self.emit("A_at[k] = -1")
        else:
            raise NotCompiled(f"the effect {e}")

    def updates(self, e: S.Updates) -> None:
        """Tracked values set by several rules as :meth:`_Run.updates` sets them: every
        test and value read before any is set; a rule that changed a value fires."""
        b = self.b
        judged = []
        for when, sets, rule in e.rules:
            test = self.temp()
            self.emit(f"{test} = {self.scalar(when)}")
            values = []
            for name, value in sets:
                t = self.temp()
                self.emit(f"{t} = {self.scalar(value)}")
                values.append((b.tracked.index(name), t))
            judged.append((test, values, b.rule_ids.index(rule)))
        for test, values, rule in judged:
            self.emit(f"if {test}:")
            self.depth += 1
            self.emit("changed_ = False")
            for index, t in values:
                self.emit(f"if A_tracked[k, {index}] != {t}:")
                self.emit("    changed_ = True")
                self.emit(f"    A_tracked[k, {index}] = {t}")
            self.emit("if changed_:")
            self.fire(rule, indent="    ")
            self.depth -= 1

    def judge(self, what: S.Judgement) -> None:
        """The deal's status judged as :meth:`BatchEngine.judge` judges it: a void hands
        the lane back; after its trick a hand is laid open, once a seat."""
        b = self.b
        for when, reads_contract in b.void_rules:
            test = self.rule("status", when)
            if reads_contract:
                test = f"(A_contract[k] >= 0 and {test})"
            self.emit(f"if A_at[k] != {HANDED_BACK} and {test}:")
            self.emit(f"    A_at[k] = {HANDED_BACK}")
            self.voided = True
        if what is not S.Judgement.STATUS:
            return
        if b.aside_returns_when is not None:  # every card laid aside back in its owner's hand
            self.emit(f"if A_at[k] != {HANDED_BACK}:")
            self.depth += 1
            self.emit("some_ = False")
            self.emit(f"for s_ in range({b.n}):")
            self.emit("    if A_aside[k, s_] != 0:")
            self.emit("        some_ = True")
            self.emit(f"if some_ and {self.rule('status', b.aside_returns_when)}:")
            self.emit(f"    for s_ in range({b.n}):")
            self.emit("        A_hands[k, s_] |= A_aside[k, s_]")
            self.emit("        A_aside[k, s_] = 0")
            self.depth -= 1
        if not b.lay_open_rules:
            return
        self.emit(f"if A_at[k] != {HANDED_BACK}:")
        self.depth += 1
        for rule, after, when, seat in b.lay_open_rules:
            self.emit(f"if A_trick_number[k] == {after + 1} and A_tlen[k] == 0:")
            self.depth += 1
            self.emit(f"if {self.rule('status', when)}:")
            self.depth += 1
            self.emit(f"seat_ = {self.rule('status', seat)}")
            self.emit("known_ = False")
            self.emit("for p_ in range(A_nopen[k]):")
            self.emit("    if A_open_seat[p_, k] == seat_:")
            self.emit("        known_ = True")
            self.emit("if not known_:")
            self.emit("    A_open_seat[A_nopen[k], k] = seat_")
            self.emit(f"    A_open_after[A_nopen[k], k] = {after}")
            self.emit("    A_nopen[k] += 1")
            self.fire(rule, indent="    ")
            self.depth -= 2
        self.depth -= 1

    def set(self, e: S.Set) -> None:
        f, v = e.field, e.value
        if f == "trick":
            if v == S.Lit(()):
                self.emit("A_tlen[k] = 0")
                return
            assert isinstance(v, S.Added) and v.item == S.Played(), v
            self.emit("A_trick_c[A_tlen[k], k] = card_")
            self.emit("A_trick_n[A_tlen[k], k] = named_")
            self.emit("A_tlen[k] += 1")
        elif f == "faces":  # as _Run.set
            if v == S.Lit(()):
                self.emit("A_nfaces[k] = 0")
                return
            assert isinstance(v, S.Added) and v.record == S.Get("faces"), v
            self.emit(f"A_trick_f[A_nfaces[k], k] = 1 if {self.scalar(v.item)} else 0")
            self.emit("A_nfaces[k] += 1")
        elif f == "tricks":
            assert isinstance(v, S.Added) and isinstance(v.item, S.Finished), v
            self.finished(v.item)
        elif f in _PAIRS:  # a pair added to a record: each part to its column
            assert isinstance(v, S.Appended) and v.place == S.Get(f), v
            count, first, second = _PAIRS[f]
            a, b = self.scalar(v.a), self.scalar(v.b)
            self.emit(f"A_{first}[A_{count}[k], k] = {a}")
            self.emit(f"A_{second}[A_{count}[k], k] = {b}")
            self.emit(f"A_{count}[k] += 1")
        elif S.FIELDS[f].per_seat:
            t = self.temp()
            values = [self.per_seat(v, str(s)) for s in range(self.b.n)]
            for s, value in enumerate(values):  # each read before any is set
                self.emit(f"{t}{s} = {value}")
            for s in range(self.b.n):
                self.emit(f"A_{f}[k, {s}] = {t}{s}")
        elif f in _SCALARS:
            self.emit(f"A_{f}[k] = {self.scalar(v)}")
        else:
            raise NotCompiled(f"{f} := {v}")

    def finished(self, v: S.Finished) -> None:
        number, leader, cards, names, winner, seats, faces, revealed, seen = v.parts
        t = "A_ntricks[k]"
        for name, part in (("number", number), ("leader", leader), ("winner", winner),
                           ("revealed", revealed), ("seen", seen)):
            self.emit(f"A_tr_{name}[{t}, k] = {self.scalar(part)}")
        cs, ns, ss, fs = (self.value(cards), self.value(names), self.value(seats),
                          self.value(faces))
        self.emit(f"A_tr_size[{t}, k] = {cs.n}")
        self.emit(f"A_tr_nseats[{t}, k] = {ss.n}")
        self.emit(f"A_tr_nfaces[{t}, k] = {fs.n}")
        for p in range(self.b.n):
            self.emit(f"A_tr_faces[{t}, k, {p}] = {fs.item.format(p=p)}")
            self.emit(f"A_tr_cards[{t}, k, {p}] = {cs.item.format(p=p)}")
            self.emit(f"A_tr_named[{t}, k, {p}] = {ns.item.format(p=p)}")
            self.emit(f"A_tr_seats[{t}, k, {p}] = {ss.item.format(p=p)}")
        self.emit("A_ntricks[k] += 1")

    # -- steps -----------------------------------------------------------------------------
    def advance(self, start: int) -> None:
        """The first step from ``start`` on that takes place begins (a step nobody acts
        at runs its entry and passes on); a step the kernel does not run: handed back."""
        b = self.b
        if start >= len(b.steps):
            self.emit("raise AssertionError('the play is the last step')")
            return
        step, kind = b.steps[start], b.kinds[start]
        if kind is None:
            self.emit(f"A_at[k] = {HANDED_BACK}")
            return
        if step.when is not None:
            self.emit(f"if {self.scalar(step.when)}:")
            self.depth += 1
        self.emit("pass")
        self.effects(step.enter, start)
        guard = self.voided
        if guard:  # a void judged on entry: the step begins where the deal stands
            self.emit(f"if A_at[k] != {HANDED_BACK}:")
            self.depth += 1
        if step.actor is not None:
            self.emit(f"A_at[k] = {start}")
        else:
            self.advance(start + 1)
        if guard:
            self.depth -= 1
        if step.when is not None:
            self.depth -= 1
            self.emit("else:")
            self.depth += 1
            self.advance(start + 1)
            self.depth -= 1

    def hoisted(self, reads: list[str], inputs: tuple[str, ...]) -> None:
        """The statements that read a lane's state for a rule judged for every action of
        a step, written once before the loop over the actions (refused where one reads
        the action)."""
        for line in dict.fromkeys(reads):
            if _names_in(line.split("=", 1)[1].strip()) & set(inputs):
                raise NotCompiled("a value read from the state reads the action")
            self.emit(line)

    def choose(self, count: str, legal_at: Callable[[str], str], width: str) -> str:
        """The random policy's choice: the ``r``-th legal action in order, ``r`` drawn
        as :func:`~spec.engine._batch.random_policy` draws it."""
        r, j, i = self.temp(), self.temp(), self.temp()
        self.emit(f"{r} = np.int64(_uniform(seed, A_numbers[k], A_decisions[k]) * {count})")
        self.emit(f"{j} = -1")
        self.emit(f"for {i} in range({width}):")
        self.emit(f"    if {legal_at(i)}:")
        self.emit(f"        if {r} == 0:")
        self.emit(f"            {j} = {i}")
        self.emit("            break")
        self.emit(f"        {r} -= 1")
        return j

    def call_step(self, i: int) -> None:
        b, step = self.b, self.b.steps[i]
        width = calls = b.ladder + 1
        inputs, reads, ok = self.rule_parts("call_made", D.call_legal(b.game),
                                            {"call_is_bid": "a_ > 0", "call_bid": "a_ - 1"})
        self.hoisted(reads, ("call_is_bid", "call_bid"))
        self.emit("count_ = 0")
        self.emit(f"for a_ in range({width}):")
        self.depth += 1
        for line in inputs:
            self.emit(line)
        self.emit(f"legal_[a_] = {ok}")
        self.emit("if legal_[a_]:")
        self.emit("    count_ += 1")
        self.depth -= 1
        extra = bool(b.announcement_names)
        if extra:
            width = self.offered(b.announcement_rules, "call", calls)
            if b.proxy_rule is not None:  # as BatchEngine._announcing
                self.emit(f"legal_[{width}] = (not must_) and A_proxy[k] < 0 and "
                          f"{self.rule('call', b.proxy_rule[0])}")
                self.emit(f"if legal_[{width}]:")
                self.emit("    count_ += 1")
                width += 1
        self.emit("if count_ == 0:")
        self.emit("    raise AssertionError('no call is legal')")
        j = self.choose("count_", lambda x: f"legal_[{x}]", str(width))
        self.emit("A_decisions[k] += 1")
        if extra:
            self.emit(f"if {j} >= {calls}:")
            self.depth += 1
            self.announce(j, calls, "call", b.announcement_rules)
            if b.proxy_rule is not None:  # as BatchEngine._announce: the partner's turn
                _when, rule, action = b.proxy_rule
                self.globals["_PARTNER"] = b.partner_of
                self.emit(f"if {j} == {calls + len(b.announcement_rules)}:")
                self.fire(rule, indent="    ")
                self.log("A_turn[k]", action, indent="    ")
                self.emit("    A_proxy[k] = A_turn[k]")
                self.emit("    A_turn[k] = _PARTNER[A_turn[k]]")
            self.depth -= 1
            self.emit("else:")
            self.depth += 1
        self.emit(f"bid_ = {j} - 1")
        self.emit(f"action_ = _CALL_ACTION[{j}]")
        self.effects(step.effects, i)
        self.emit(f"if {self.scalar(step.ends)}:")
        self.depth += 1
        self.emit("if A_standing[k] < 0:")
        self.emit(f"    A_at[k] = {HANDED_BACK}")
        self.emit("else:")
        self.depth += 1
        self.advance(i + 1)
        self.depth -= 2
        if extra:
            self.depth -= 1

    def offered(self, rules: Any, scope: str, before: int, mask: str | None = None) -> int:
        """After the legal actions (``legal_[:before]``, or the bits of ``mask``; ``count_``
        of them), the announcements the seat may make, as :meth:`BatchEngine._offered`
        offers them (those that must be made now alone, where some must: ``must_``); the
        width of the actions."""
        self.emit("must_ = False")
        for j, (when, required, *_rest) in enumerate(rules):
            self.emit(f"may{j}_ = {self.rule(scope, when)}")
            must = "False" if required is None else f"may{j}_ and {self.rule(scope, required)}"
            self.emit(f"must{j}_ = {must}")
            self.emit(f"must_ = must_ or must{j}_")
        self.emit("if must_:")
        if mask is None:
            self.emit(f"    for a_ in range({before}):")
            self.emit("        legal_[a_] = False")
        else:
            self.emit(f"    {mask} = 0")
        self.emit("    count_ = 0")
        for j in range(len(rules)):
            self.emit(f"legal_[{before + j}] = must{j}_ if must_ else may{j}_")
            self.emit(f"if legal_[{before + j}]:")
            self.emit("    count_ += 1")
        return before + len(rules)

    def announce(self, j: str, before: int, scope: str, rules: Any) -> None:
        """The announcement chosen (action ``j``, past the ``before`` others) made as
        :meth:`BatchEngine._announce` makes it."""
        for n, (_when, _required, sets, rule, action) in enumerate(rules):
            self.emit(f"if {j} == {before + n}:")
            self.depth += 1
            self.emit("pass")
            t = self.temp()
            values = [(index, self.rule(scope, value)) for index, value in sets]
            for m, (_index, value) in enumerate(values):  # each read before any is set
                self.emit(f"{t}{m} = {value}")
            for m, (index, _value) in enumerate(values):
                self.emit(f"A_tracked[k, {index}] = {t}{m}")
            self.fire(rule)
            self.log("A_turn[k]", action)
            self.judge(S.Judgement.STATUS)
            self.depth -= 1

    def card_step(self, i: int) -> None:
        """A card of the actor's hand acted (discarded, laid aside); then, where the step
        is over, the next."""
        b, step = self.b, self.b.steps[i]
        self.emit("mask_ = A_hands[k, A_turn[k]]")
        self.emit("if mask_ == 0:")
        self.emit("    raise AssertionError('no card in hand')")
        self.emit("r_ = np.int64(_uniform(seed, A_numbers[k], A_decisions[k]) * _pc(mask_))")
        self.emit("for _ in range(r_):")
        self.emit("    mask_ &= mask_ - 1")
        self.emit("card_ = _pc((mask_ & -mask_) - 1)")
        self.emit("A_decisions[k] += 1")
        self.emit(f"action_ = card_ + {b.engine._card_shift[step.card]}")
        self.effects(step.effects, i)
        self.emit(f"if {self.scalar(step.ends)}:")
        self.depth += 1
        self.emit("pass")
        self.advance(i + 1)
        self.depth -= 1

    def choice_step(self, i: int) -> None:
        """One of the options on offer that may be chosen, chosen; what it does."""
        b, step = self.b, self.b.steps[i]
        self.emit("count_ = 0")
        for j, o in enumerate(step.options):
            may = self.scalar(o.when)
            if o.offered is not None:
                may = f"({self.scalar(o.offered)} and {may})"
            self.emit(f"legal_[{j}] = {may}")
            self.emit(f"if legal_[{j}]:")
            self.emit("    count_ += 1")
        self.emit("if count_ == 0:")
        self.emit("    raise AssertionError('no option is open')")
        j = self.choose("count_", lambda x: f"legal_[{x}]", str(len(step.options)))
        self.emit("A_decisions[k] += 1")
        for n, o in enumerate(step.options):
            self.emit(f"if {j} == {n}:")
            self.depth += 1
            self.emit(f"action_ = {b.option_actions[i][n]}")
            self.effects(o.effects, i)
            self.depth -= 1

    def play_step(self, i: int) -> None:
        b, step = self.b, self.b.steps[i]
        legal = self.rule("play", D.legal_cards(b.game))
        self.emit(f"mask_ = {legal}")
        self.emit("if mask_ == 0:")
        self.emit("    raise AssertionError('no card may be played')")
        if b.play_announcement_rules:
            self.announced_plays(i)
            return
        if b.codes:  # a card that must name a suit: a play for each suit it may name
            self.named_plays()
            j = self.choose("count_", lambda x: f"legal_[{x}]", str(b.deck * (len(b.codes) + 1)))
            self.chosen_play(j)
        else:  # the r-th card of the mask: the r lowest cleared, then the lowest left
            self.emit("r_ = np.int64(_uniform(seed, A_numbers[k], A_decisions[k]) * _pc(mask_))")
            self.emit("for _ in range(r_):")
            self.emit("    mask_ &= mask_ - 1")
            self.emit("card_ = _pc((mask_ & -mask_) - 1)")
            self.emit(f"named_ = {NO_SUIT}")
            self.emit("action_ = card_")
        self.emit("A_decisions[k] += 1")
        self.effects(step.effects, i)

    def announced_plays(self, i: int) -> None:
        """The legal plays (``mask_``: the legal cards), then the announcements of the
        play, as :meth:`BatchEngine._card` offers them; the random policy's choice made."""
        b, step = self.b, self.b.steps[i]
        plays = b.deck * (len(b.codes) + 1)
        if b.codes:
            self.named_plays()
            width = self.offered(b.play_announcement_rules, "play", plays)
            j = self.choose("count_", lambda x: f"legal_[{x}]", str(width))
        else:  # the cards' bits, then the announcements: the r-th of them
            self.emit("count_ = _pc(mask_)")
            width = self.offered(b.play_announcement_rules, "play", plays, "mask_")
            j = self.temp()
            self.emit("cards_ = _pc(mask_)")
            self.emit("r_ = np.int64(_uniform(seed, A_numbers[k], A_decisions[k]) * count_)")
            self.emit("if r_ < cards_:")
            self.emit("    for _ in range(r_):")
            self.emit("        mask_ &= mask_ - 1")
            self.emit(f"    {j} = _pc((mask_ & -mask_) - 1)")
            self.emit("else:")
            self.emit("    r_ -= cards_")
            self.emit(f"    {j} = -1")
            self.emit(f"    for a_ in range({plays}, {width}):")
            self.emit("        if legal_[a_]:")
            self.emit("            if r_ == 0:")
            self.emit(f"                {j} = a_")
            self.emit("                break")
            self.emit("            r_ -= 1")
        self.emit("A_decisions[k] += 1")
        self.emit(f"if {j} >= {plays}:")
        self.depth += 1
        self.announce(j, plays, "play", b.play_announcement_rules)
        self.depth -= 1
        self.emit("else:")
        self.depth += 1
        self.chosen_play(j)
        self.effects(step.effects, i)
        self.depth -= 1

    def chosen_play(self, j: str) -> None:
        """The card and the suit it names of the play numbered ``j``."""
        b = self.b
        k_ = max(len(b.codes), 1)
        self.globals["_CODES"] = np.array(b.codes or (NO_SUIT,), dtype=np.int64)
        self.emit(f"card_ = {j} if {j} < {b.deck} else ({j} - {b.deck}) // {k_}")
        self.emit(f"named_ = {NO_SUIT} if {j} < {b.deck} else _CODES[({j} - {b.deck}) % {k_}]")
        self.emit(f"action_ = {j}")

    def named_plays(self) -> None:
        """The legal plays where a card may name a suit, numbered as the engine numbers
        them (each card naming none, then each card with each suit it may name) in
        ``legal_``, ``count_`` of them (``mask_``: the legal cards)."""
        b = self.b
        k_ = len(b.codes)
        width = b.deck * (k_ + 1)
        need_in, need_reads, need = self.rule_parts("play_card", D.needs_declaration(b.game),
                                                    {"card": "c_", "declared": str(NO_SUIT)})
        ok_in, ok_reads, ok = self.rule_parts("play_card", D.declaration_ok(b.game),
                                              {"card": "c_", "declared": "_CODES[j_]"})
        self.hoisted([*need_reads, *ok_reads], ("card", "declared"))
        self.globals["_CODES"] = np.array(b.codes, dtype=np.int64)
        self.emit(f"for a_ in range({width}):")
        self.emit("    legal_[a_] = False")
        self.emit("count_ = 0")
        self.emit(f"for c_ in range({b.deck}):")
        self.depth += 1
        self.emit("if (mask_ >> c_) & 1 == 0:")
        self.emit("    continue")
        for line in need_in:
            self.emit(line)
        self.emit(f"if not {need}:")
        self.emit("    legal_[c_] = True")
        self.emit("    count_ += 1")
        self.emit("else:")
        self.depth += 1
        self.emit(f"for j_ in range({k_}):")
        self.depth += 1
        for line in ok_in:
            self.emit(line)
        self.emit(f"if {ok}:")
        self.emit(f"    legal_[{b.deck} + c_ * {k_} + j_] = True")
        self.emit("    count_ += 1")
        self.depth -= 3

    def source(self) -> str:
        b = self.b
        self.emit("for k in range(k0, k1):")
        self.depth += 1
        self.emit("while A_at[k] >= 0:")
        self.depth += 1
        self.emit(f"if A_decisions[k] > {b.most}:")
        self.emit(f"    A_at[k] = {HANDED_BACK}")
        self.emit("    break")
        # room for the entries one action may add (a few), beside the row no lane fills
        margin = _margin(b)
        self.emit(f"if A_nlog[k] >= log_room - {margin} or A_ncalls[k] >= log_room - {margin} "
                  f"or A_nfired[k] >= fired_room - {margin} or "
                  f"A_nchosen[k] >= chosen_room - {margin}:")
        self.emit(f"    A_at[k] = {ROOM} - A_at[k]")
        self.emit("    break")
        self.emit("step_ = A_at[k]")
        for i, kind in enumerate(b.kinds):
            self.seqs.clear()  # a list of seats lives in its step
            self.voided = False
            if kind == "call":
                self.emit(f"if step_ == {i}:")
                self.depth += 1
                self.call_step(i)
                self.depth -= 1
            elif kind in ("play", "card", "choice"):
                self.emit(f"if step_ == {i}:")
                self.depth += 1
                {"play": self.play_step, "card": self.card_step, "choice": self.choice_step}[kind](i)
                self.depth -= 1
        params = ", ".join(f"A_{name}" for name in _arrays(b))
        head = [f"def kernel(k0, k1, seed, log_room, fired_room, chosen_room, legal_, {params}):",
                "    if True:"]
        return "\n".join(head + self.lines) + "\n"


HANDED_BACK = -2
_MARGIN = 5  # more than the entries one action adds to a column (a hand laid open aside)


def _margin(b: BatchEngine) -> int:
    """More than the entries one action adds to a column: each hand laid open fires its
    rule, and so does each rule of the tracked values a trick updates."""
    updates = [len(e.rules) for step in b.steps for e in _all_effects(step)
               if isinstance(e, S.Updates)]
    return _MARGIN + len(b.lay_open_rules) + sum(updates)


def _all_effects(step: S.Step) -> list[Any]:
    """Every effect of a step, those inside branches and options included."""
    out, todo = [], [*step.enter, *step.effects, *(e for o in step.options for e in o.effects)]
    while todo:
        e = todo.pop()
        out.append(e)
        if isinstance(e, S.When):
            todo += [*e.then, *e.orelse]
    return out


def _column(c: Columns, name: str) -> np.ndarray:
    """The column the kernel's argument ``A_name`` is."""
    if name.startswith("tr_") and name[3:] in c.tr:
        return c.tr[name[3:]]  # type: ignore[no-any-return]
    return getattr(c, name)  # type: ignore[no-any-return]


def _arrays(b: BatchEngine) -> tuple[str, ...]:
    return (*_LANE, *_SCALARS, "hands", "aside", "taken", "won", "dealt", "seat_calls",
            "pending", "dealt_later", "tracked", "trick_c", "trick_n", "trick_f", "log_seat",
            "log_action", "call_seat", "call_bid", "fired_at", "fired_rule", "chosen_seat",
            "chosen_name", "open_seat", "open_after", "tr_number", "tr_leader",
            "tr_winner", "tr_size", "tr_revealed", "tr_seen", "tr_nseats", "tr_nfaces",
            "tr_cards", "tr_named", "tr_seats", "tr_faces")


# -- helpers the kernel calls, compiled by numba ---------------------------------------------
def _pc(x: int) -> int:
    """The number of bits set in ``x`` (0 <= x < 2**63), in a few steps (SWAR)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) & 0xFFFFFFFFFFFFFFFF) >> 56


def _lowest(cards: int, below: Any) -> int:
    out, i = 0, 0
    while cards >> i:
        if (cards >> i) & 1 and cards & below[i] == 0:
            out |= 1 << i
        i += 1
    return out


def _lowest_n(cards: int, n: int) -> int:
    """The ``n`` lowest cards of ``cards``."""
    out = 0
    for _ in range(n):
        low = cards & -cards
        out |= low
        cards ^= low
    return out


def _sumv(values: Any, mask: int) -> int:
    total, i = 0, 0
    while mask:
        if mask & 1:
            total += values[i]
        mask >>= 1
        i += 1
    return total


def _helpers(numba: Any) -> dict[str, Any]:
    """The helpers, and the random policy's draw, compiled."""
    u64 = np.uint64
    m1, m2, gold = u64(0xBF58476D1CE4E5B9), u64(0x94D049BB133111EB), u64(0x9E3779B97F4A7C15)
    s30, s27, s31, s11 = u64(30), u64(27), u64(31), u64(11)

    @numba.njit(cache=False)
    def mix(x: Any) -> Any:
        x = (x ^ (x >> s30)) * m1
        x = (x ^ (x >> s27)) * m2
        return x ^ (x >> s31)

    @numba.njit(cache=False)
    def uniform(seed: Any, deal: Any, draw: Any) -> float:
        key = mix(seed + gold)
        x = mix(key ^ (u64(deal) * gold))
        x = mix(x + u64(draw) * m2)
        return float(x >> s11) * (1.0 / 2 ** 53)

    pc = numba.njit(cache=False)(_pc)
    lowest = numba.njit(cache=False)(_lowest)
    return {"_pc": pc, "_lowest": lowest, "_sumv": numba.njit(cache=False)(_sumv),
            "_lowest_n": numba.njit(cache=False)(_lowest_n), "_uniform": uniform}


def compiled_lanes(batch: BatchEngine) -> Callable[[Columns, int], None] | None:
    """``run(columns, seed)``: every lane of the columns played to its end by the random
    policy of ``seed``, in compiled code; None where numba is not installed or the game's
    steps use a construct the kernel's generator does not write."""
    numba = _numba()
    if numba is None:
        return None
    try:
        writer = _Kernel(batch)
        source = writer.source()
        entry = writer.envs["entry"]
        body = _Scalar(batch.game, batch.tables, entry.compiler_env()).visit(D.strength(batch.game))
    except (NotCompiled, UnsupportedNodeError):
        return None
    ns: dict[str, Any] = {name: value for name, value in batch.tables.ns.items()
                          if isinstance(value, np.ndarray)}
    ns.update(np=np, _NEXT=batch.next_seat, _CALL_ACTION=batch.call_action, **writer.globals,
              **_helpers(numba))
    wanted = _names_in(body) & set(entry.vars)
    lines = [f"def _strength({', '.join(entry.inputs)}):", *entry._prologue(wanted),
             f"    return {body}", "", "", inspect.getsource(_beating), "", source]
    ns.update(NO_SUIT_=NO_SUIT, Any=Any)
    text = "\n".join(lines) + "\n"
    width = max(batch.ladder + 1 + len(batch.announcement_names),
                batch.deck * (len(batch.codes) + 1) + len(batch.play_announcement_rules),
                *(len(s.options) for s in batch.steps))
    kernel = _typed(numba, batch, text, ns, width, cache=True)
    if kernel is None:  # numba refused it, or could not read its cached code back
        kernel = _typed(numba, batch, text, ns, width, cache=False)
    if kernel is None:
        return None

    def run(c: Columns, seed: int) -> None:
        legal = np.zeros(width, dtype=np.bool_)
        if not hasattr(c, "log0"):
            c.log0 = np.zeros(c.size, dtype=np.int64)
        while True:
            arrays = [_column(c, name) for name in _arrays(batch)]
            kernel(0, c.size, np.uint64(seed % 2 ** 64), c.log_seat.shape[0],
                   c.fired_at.shape[0], c.chosen_seat.shape[0], legal, *arrays)
            waiting = c.at <= ROOM
            if not waiting.any():
                return
            c.at = np.where(waiting, ROOM - c.at, c.at)  # their steps again
            for count, names in ((np.maximum(c.nlog, c.ncalls), ("log_seat", "log_action")),
                                 (np.maximum(c.nlog, c.ncalls), ("call_seat", "call_bid")),
                                 (c.nfired, ("fired_at", "fired_rule")),
                                 (c.nchosen, ("chosen_seat", "chosen_name"))):
                c.room(count + _margin(batch) - 1, *names)  # doubled where a lane is near the end
    run.source = source  # type: ignore[attr-defined]
    run.kernel = kernel  # type: ignore[attr-defined]  # numba's dispatcher (its cache's hits)
    return run


def _typed(numba: Any, batch: BatchEngine, text: str, ns: dict[str, Any], width: int,
           cache: bool) -> Any:
    """The kernel of the generated ``text`` compiled (with ``cache``, from its file of the
    cache folder, numba's code read back where it keeps some) and tried at once on columns
    of no lane; None where that fails: a kernel numba cannot type is not used, and numba's
    files of one it cannot read back (damaged, say) are removed."""
    ns, cached = _module(text, dict(ns), batch.game.key, cache)
    for name, options in (("_strength", {}), ("_beating", {}), ("kernel", {"error_model": "numpy"})):
        if not hasattr(ns[name], "py_func"):  # not compiled already in this process
            ns[name] = numba.njit(cache=cached, **options)(ns[name])
    try:
        from spec.engine._state import thaw
        empty = batch._columns(1)
        batch._fill(empty, [thaw(batch.engine._before_deal)])
        empty.log0 = np.zeros(1, dtype=np.int64)
        ns["kernel"](0, 0, np.uint64(0), 2, 2, 2, np.zeros(width, dtype=np.bool_),
                     *[_column(empty, name) for name in _arrays(batch)])
    except Exception:  # noqa: BLE001  # numba's refusal, whatever its class: numpy runs it
        if cached:
            path = Path(ns["__file__"])
            sys.modules.pop(ns["__name__"], None)
            for old in (path.parent / "__pycache__").glob(f"{path.stem}.*"):
                old.unlink(missing_ok=True)
        return None
    return ns["kernel"]


def _beating(k: int, hand: int, led: int, trump: int, number: int, contract: int,
             cards: Any, named: Any, tlen: Any) -> int:
    """The cards of ``hand`` that would win lane ``k``'s trick so far, were they played now
    naming no suit (none when leading); as the interpreter's ``_beating``: a card as strong
    as the best does not.  Written into the kernel's module (its ``_strength`` and
    ``_pc``), not called here."""
    if tlen[k] == 0:
        return 0
    best = -(1 << 62)
    for p in range(tlen[k]):
        st = _strength(cards[p, k], named[p, k], p, led, trump, number, contract)  # type: ignore[name-defined]  # noqa: F821
        if st > best:
            best = st
    out, rest = 0, hand
    while rest:
        low = rest & -rest
        card = _pc(low - 1)
        if _strength(card, NO_SUIT_, tlen[k], led, trump, number, contract) > best:  # type: ignore[name-defined]  # noqa: F821
            out |= low
        rest ^= low
    return out


NO_SUIT_ = NO_SUIT
_PACKS: list[Any] = []


def cache_folder() -> Path | None:
    """Where the kernels' sources are written, numba's compiled code beside them, so that
    a game's kernel is compiled once a machine: ``kernels`` in ``TRICKSPEC_CACHE``
    (``none``, ``off`` or empty: nowhere), else ``trickspec/kernels`` in the user's cache
    folder; None where it cannot be made or written."""
    given = os.environ.get("TRICKSPEC_CACHE")
    if given is not None and given.strip().lower() in ("", "none", "off"):
        return None
    if given:
        folder = Path(given)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = Path(base) / "trickspec"
    folder = folder / "kernels"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def _module(text: str, ns: dict[str, Any], key: str, cache: bool = True
            ) -> tuple[dict[str, Any], bool]:
    """The functions of the generated ``text`` with the globals ``ns``, and whether numba
    may cache their compiled code: from a file of the cache folder named by everything
    the code depends on (the text, the tables it reads, this module, numba's and Python's
    versions), written once and whole; without ``cache`` or a cache folder, compiled from
    the text."""
    import importlib.util

    folder = cache_folder() if cache else None
    if folder is None:
        exec(compile(text, f"<{key}:batch kernel>", "exec"), ns)  # noqa: S102  # generated from the game's steps and rules
        return ns, False
    digest = hashlib.sha256(text.encode())
    for name in sorted(ns):
        value = ns[name]
        if isinstance(value, np.ndarray):
            digest.update(f"{name}:{value.dtype}:{value.shape}".encode())
            digest.update(np.ascontiguousarray(value).tobytes())
    digest.update(Path(__file__).read_bytes())
    digest.update(f"{_numba().__version__} {sys.version}".encode())
    stem = f"{''.join(ch if ch.isalnum() else '_' for ch in key)}_{digest.hexdigest()[:20]}"
    path = folder / f"{stem}.py"
    try:
        # whole or not at all (another process may read it), and only the text this
        # process wrote: a file of another content under its name is written again
        if not path.exists() or path.read_text() != text:
            fd, temp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            try:
                with os.fdopen(fd, "w") as f:
                    f.write(text)
                os.chmod(temp, 0o644)  # others sharing the folder read it (mkstemp: 0600)
                os.replace(temp, path)
            finally:
                if os.path.exists(temp):
                    os.unlink(temp)
    except (OSError, UnicodeDecodeError):
        exec(compile(text, f"<{key}:batch kernel>", "exec"), ns)  # noqa: S102  # as above
        return ns, False
    spec = importlib.util.spec_from_file_location(f"trickspec_kernel_{stem}", path)
    assert spec is not None and spec.loader is not None
    module = sys.modules.get(spec.name)
    if module is None:  # registered: numba finds a cached kernel's module by its name
        module = importlib.util.module_from_spec(spec)
        module.__dict__.update(ns)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return module.__dict__, True


def compiled_packs() -> Callable[[np.ndarray, int, int], np.ndarray] | None:
    """``packs(numbers, seed, deck)``: each deal's pack shuffled as
    :func:`~spec.engine._batch.shuffled_packs` shuffles it, compiled; None without numba."""
    numba = _numba()
    if numba is None:
        return None
    if not _PACKS:
        uniform = _helpers(numba)["_uniform"]
        shift = np.uint64(2 ** 40)

        @numba.njit(cache=False)
        def packs(numbers: Any, seed: Any, deck: int) -> Any:
            out = np.empty((numbers.shape[0], deck), dtype=np.int64)
            for k in range(numbers.shape[0]):
                for i in range(deck):
                    out[k, i] = i
                for i in range(deck - 1, 0, -1):
                    j = np.int64(uniform(seed, numbers[k], np.uint64(i) + shift) * (i + 1))
                    out[k, i], out[k, j] = out[k, j], out[k, i]
            return out
        _PACKS.append(packs)

    def run(numbers: np.ndarray, seed: int, deck: int) -> np.ndarray:
        return _PACKS[0](np.asarray(numbers, dtype=np.int64), np.uint64(seed % 2 ** 64), deck)  # type: ignore[no-any-return]
    return run
