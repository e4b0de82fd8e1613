"""The step language in Z3: a deal's steps (:mod:`spec.dsl._steps`) over a symbolic state.

A :class:`Symbolic` state maps each declared field the caller gives it to a Z3 term, in
the sorts of the rest of the encoding: cards as a bit-vector as wide as the deck (bit *i*
is card *i*), numbers and seats as integers, yes-or-no as a Boolean, a set of seats as a
Boolean per seat (as the unrolled deal keeps who joined, dropped out or was invited), a
per-seat field as a list with one term per seat.  The records (the calls, the log, the
rules that took effect) are kept as Python tuples of terms; the tracked values under the
keys ``("tracked", name)`` the rules compiler reads.

:class:`StepEncoder` has one case for each kind of value and each kind of effect of the
step language, and none for a kind of phase.  What an action leaves free is the caller's
to give (:class:`Action`): the bid of a call, the card (or, for a run of cards, the set of
cards) of the actor's hand, the option chosen.  An expression a rule states (``Stated``)
is compiled by :class:`~verifier._z3.compile.Z3Compiler` in the environment the caller's
``env`` gives for the state at hand.  Effects that hold only under a condition (``When``,
a step's ``when``, the option chosen) are merged into the state with ``If``, field by
field, and only for the fields they change: a field no effect touches keeps its very term.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import z3

from spec.dsl import _steps as S
from spec.dsl._nodes import Ctx, Ref
from spec.seats import seat_after
from verifier._z3.compile import Encoding, Z3Compiler
from verifier.errors import UnsupportedNodeError

__all__ = ["Action", "Lazy", "StepEncoder", "Symbolic"]

_BACKEND = "the Z3 encoder of the steps"

# the environment a stated expression is compiled in: from its scope and the state
Env = Callable[[str, "Symbolic"], dict[Any, Any]]


class Lazy:
    """A field's term made only when a step first reads it, once (so that a deal whose
    steps never read it gives Z3 no term for it)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make: Callable[[], Any] | None = make
        self.term: Any = None

    def force(self) -> Any:
        if self.make is not None:
            self.term, self.make = self.make(), None
        return self.term


def _forced(x: Any) -> Any:
    return x.force() if isinstance(x, Lazy) else x


@dataclass
class Symbolic:
    """A deal's state as Z3 terms: ``fields`` by declared name (a list per seat for a
    per-seat field), ``tracked`` by the rules compiler's keys, the values an action's
    effects named (``Let``), and the rules that took effect, each with the condition under
    which it did."""

    fields: dict[str, Any]
    tracked: dict[Any, Any] = field(default_factory=dict)
    local: dict[str, Any] = field(default_factory=dict)
    fired: tuple[tuple[str, Any], ...] = ()

    def copy(self) -> Symbolic:
        return Symbolic(dict(self.fields), dict(self.tracked), dict(self.local), self.fired)

    def __getitem__(self, name: str) -> Any:
        if name not in self.fields:
            raise UnsupportedNodeError(S.Get(name), _BACKEND, "the field is not in the symbolic state")
        value = self.fields[name] = _forced(self.fields[name])
        return value


@dataclass(frozen=True)
class Action:
    """What an action leaves free, as the caller's terms: the bid of a call (-1: a pass),
    the card acted with (a one-hot card set, or for a run of cards the set of them)."""

    bid: Any = None
    card: Any = None


class StepEncoder:
    """The steps' values and effects over a :class:`Symbolic` state, in the encoding
    ``enc``; ``env`` gives the environment a ``Stated`` expression is compiled in."""

    def __init__(self, enc: Encoding, env: Env) -> None:
        self.enc = enc
        self.n = enc.game.players
        self.env = env

    # -- values -------------------------------------------------------------------------
    def value(self, v: S.Value, st: Symbolic, act: Action = Action(), kind: S.FieldKind | None = None
              ) -> Any:
        """The term of ``v`` in ``st`` (``kind``: what a constant stands for, where the
        value itself does not say)."""
        enc = self.enc
        if isinstance(v, S.Get):
            return st[v.field]
        if isinstance(v, S.Lit):
            return self._constant(v, kind)
        if isinstance(v, S.Local):
            return st.local[v.name]
        if isinstance(v, S.Stated):
            return Z3Compiler(enc, self.env(v.scope, st)).visit(v.expr)
        if isinstance(v, S.Acted):
            return self._given(act.card, "card")
        if isinstance(v, S.Bid):
            return self._given(act.bid, "bid")
        if isinstance(v, S.After):
            return seat_after(self.value(v.seat, st, act), self.n)
        if isinstance(v, S.SeatFrom):
            return self._seat_from(v, st, act)
        if isinstance(v, S.Joined | S.Less):
            return self._cards(v, st, act)
        if isinstance(v, S.Only):
            seat, cards = self.value(v.seat, st, act), self.value(v.cards, st, act)
            return [z3.If(seat == s, cards, enc.bv(0)) for s in range(self.n)]
        if isinstance(v, S.At):
            return _at(enc, self.value(v.seat, st, act), self.value(v.place, st, act))
        if isinstance(v, S.Count):
            return enc.popcount(self.value(v.cards, st, act))
        if isinstance(v, S.AtLeast):
            a, b = self._pair(v.a, v.b, st, act)
            return a >= b
        if isinstance(v, S.SuitOf):
            card = self.value(v.cards, st, act)
            return Z3Compiler(enc, {Ctx.CARD: card}).visit(Ref(Ctx.CARD).suit)
        if isinstance(v, S.Op):
            return self._op(v, st, act)
        if isinstance(v, S.Cond):
            return self._if(self.value(v.test, st, act), *self._pair(v.a, v.b, st, act))
        if isinstance(v, S.Bit):
            seat = self.value(v.seat, st, act)
            return [seat == s for s in range(self.n)]
        if isinstance(v, S.Entry):
            index = self.value(v.index, st, act)
            return enc.select(index, [self._scalar(x) for x in v.table])
        if isinstance(v, S.PlusAt):
            seat = self.value(v.seat, st, act)
            return [c + z3.If(seat == s, enc.int(v.amount), enc.int(0))
                    for s, c in enumerate(self.value(v.place, st, act))]
        if isinstance(v, S.Appended):
            return (*self.value(v.place, st, act), (self.value(v.a, st, act),
                                                     self.value(v.b, st, act)))
        raise UnsupportedNodeError(v, _BACKEND, "a value it does not know")

    def _given(self, term: Any, what: str) -> Any:
        if term is None:
            raise UnsupportedNodeError(term, _BACKEND, f"the action's {what} is read but was not given")
        return term

    def _scalar(self, x: Any) -> Any:
        enc = self.enc
        return enc.bool(x) if isinstance(x, bool) else enc.int(x)

    def _constant(self, v: S.Lit, kind: S.FieldKind | None) -> Any:
        """A constant as a term of the sort ``kind`` calls for (a number, else)."""
        enc, x = self.enc, v.value
        if kind is S.FieldKind.PLACE:
            one: Any = enc.bv(x)
        elif kind is S.FieldKind.SEATS:
            one = [enc.bool(bool(x >> s & 1)) for s in range(self.n)]
        else:
            one = self._scalar(x)
        return [one] * self.n if v.per_seat else one

    def _kind(self, v: S.Value) -> S.FieldKind | None:
        """The kind of field ``v`` reads, where it reads one directly."""
        return S.FIELDS[v.field].kind if isinstance(v, S.Get) else None

    def _pair(self, a: S.Value, b: S.Value, st: Symbolic, act: Action) -> tuple[Any, Any]:
        """Two operands, a constant of either in the sort of the other (the non-constant
        is made first, in the order they are written where neither is constant)."""
        if isinstance(a, S.Lit) and not isinstance(b, S.Lit):
            y = self.value(b, st, act)
            return self.value(a, st, act, self._kind(b) or self._sort(y)), y
        x = self.value(a, st, act)
        return x, self.value(b, st, act, self._kind(a) or self._sort(x))

    def _sort(self, x: Any) -> S.FieldKind | None:
        if isinstance(x, list):
            return S.FieldKind.SEATS if x and z3.is_bool(x[0]) else None
        return S.FieldKind.PLACE if z3.is_bv(x) else None

    def _if(self, test: Any, a: Any, b: Any) -> Any:
        if isinstance(a, list):
            return [self._if(test, x, y) for x, y in zip(a, b)]
        if isinstance(a, tuple):
            if a != b:
                raise UnsupportedNodeError(test, _BACKEND, "a record that differs by a condition")
            return a
        return _ite(test, a, b)

    def _lazy_if(self, test: Any, a: Any, b: Any) -> Any:
        """``If`` of two values of a field, made when first read if either is yet to be."""
        if a is b:
            return a
        if isinstance(a, Lazy) or isinstance(b, Lazy):
            return Lazy(lambda: self._if(test, _forced(a), _forced(b)))
        return self._if(test, a, b)

    def _op(self, v: S.Op, st: Symbolic, act: Action) -> Any:
        a, b = self._pair(v.a, v.b, st, act)
        if isinstance(a, list):  # a set of seats, seat by seat
            if v.op == "|":
                return [z3.Or(x, y) for x, y in zip(a, b)]
            if v.op == "&":
                return [z3.And(x, y) for x, y in zip(a, b)]
            raise UnsupportedNodeError(v, _BACKEND, f"the operator {v.op} on sets of seats")
        if v.op == "and":
            return z3.And(a, b)
        if v.op == "+":
            return a + b
        if v.op == "|":
            return a | b
        if v.op == "&":
            return a & b
        if v.op == "==":
            return a == b
        if v.op == "!=":
            return a != b
        return a >= b

    def _cards(self, v: S.Joined | S.Less, st: Symbolic, act: Action) -> Any:
        """Cards joined or less others, seat by seat for a per-seat place."""
        a = self.value(v.a, st, act, S.FieldKind.PLACE)
        b = self.value(v.b, st, act, S.FieldKind.PLACE)

        def one(x: Any, y: Any) -> Any:
            return _joined(x, y) if isinstance(v, S.Joined) else _less(x, y)
        if isinstance(a, list):
            return [one(x, y) for x, y in zip(a, b if isinstance(b, list) else [b] * self.n)]
        return one(a, b)

    def _seat_from(self, v: S.SeatFrom, st: Symbolic, act: Action) -> Any:
        """The first seat from ``v.seat`` on that is none of the seats to skip and not in
        the set passed over: a case for each number of seats passed."""
        seat = self.value(v.seat, st, act)
        skip = [self.value(x, st, act) for x in v.skip]
        outside = self.value(v.outside, st, act) if v.outside is not None else None
        out: Any = seat
        for d in reversed(range(self.n)):
            at = seat_after(seat, self.n, d)
            free = [at != x for x in skip]
            if outside is not None:
                free.append(z3.Not(self.enc.select(at, outside)))
            out = z3.If(z3.And(*free), at, out) if free else at
        return out

    # -- effects ------------------------------------------------------------------------
    def apply(self, effects: Iterable[S.Effect], st: Symbolic, act: Action = Action(),
              guard: Any = None) -> Symbolic:
        """The state after ``effects``, each reading the state the effects before it
        left; ``guard``: the condition under which they take place (for the rules that
        take effect)."""
        out = st.copy()
        for e in effects:
            self._effect(e, out, act, guard)
        return out

    def _effect(self, e: S.Effect, st: Symbolic, act: Action, guard: Any) -> None:
        if isinstance(e, S.Set):
            st.fields[e.field] = self.value(e.value, st, act, S.FIELDS[e.field].kind)
        elif isinstance(e, S.Let):
            st.local[e.name] = self.value(e.value, st, act)
        elif isinstance(e, S.When):
            test = self.value(e.test, st, act)
            then = self.apply(e.then, st, act, _and(guard, test))
            orelse = self.apply(e.orelse, st, act, _and(guard, z3.Not(test)))
            merged = self.merge(test, then, orelse)
            st.fields, st.tracked, st.local, st.fired = (merged.fields, merged.tracked,
                                                         merged.local, merged.fired)
        elif isinstance(e, S.Track):  # every value read before any is set
            values = [(("tracked", name), self.value(v, st, act)) for name, v in e.sets]
            st.tracked.update(values)
        elif isinstance(e, S.Fire):
            st.fired += ((e.rule, guard if guard is not None else self.enc.bool(True)),)
        elif isinstance(e, S.Record | S.Judge | S.Advance):
            pass  # the log, a judgement the caller makes, and the next step, which the
            # caller begins where it reads the steps in order
        else:
            raise UnsupportedNodeError(e, _BACKEND, "an effect it does not know")

    def merge(self, test: Any, then: Symbolic, orelse: Symbolic, base: Symbolic | None = None
              ) -> Symbolic:
        """The state ``then`` where ``test`` holds, else ``orelse``: ``If`` for each field
        (and tracked value, and named value) that differs, the rules fired by each side.
        With ``base``: where ``then`` leaves a value as it is in ``base``, the value of
        ``orelse`` (which must then be that of ``base`` where ``test`` holds, as for
        options of which one is chosen)."""
        def pick(a: dict[Any, Any], b: dict[Any, Any], was: dict[Any, Any] | None
                 ) -> dict[Any, Any]:
            return {k: b[k] if was is not None and k in was and _same_value(a[k], was[k])
                    else self._lazy_if(test, a[k], b[k]) for k in a if k in b}
        fields = pick(then.fields, orelse.fields, base.fields if base else None)
        tracked = pick(then.tracked, orelse.tracked, base.tracked if base else None)
        local = pick(then.local, orelse.local, base.local if base else None)
        common = tuple(f for f in then.fired if f in orelse.fired)
        fired = common + tuple(f for f in then.fired if f not in common) + tuple(
            f for f in orelse.fired if f not in common)
        return Symbolic(fields, tracked, local, fired)

    def guarded(self, test: Any, effects: Iterable[S.Effect], st: Symbolic,
                act: Action = Action()) -> Symbolic:
        """The state after ``effects`` where ``test`` holds (None: always), else ``st``."""
        if test is None:
            return self.apply(effects, st, act)
        return self.merge(test, self.apply(effects, st, act, test), st)

    # -- steps --------------------------------------------------------------------------
    def takes_place(self, step: S.Step, st: Symbolic) -> Any:
        """Whether ``step`` takes place in ``st`` (None: always)."""
        return None if step.when is None else self.value(step.when, st)

    def enter(self, step: S.Step, st: Symbolic, takes: Any) -> Symbolic:
        """The state once ``step`` has begun, where it takes place (``takes``)."""
        return self.guarded(takes, step.enter, st)

    def choose(self, step: S.Step, st: Symbolic, choice: Any, takes: Any
               ) -> tuple[Symbolic, list[Any]]:
        """The option ``choice`` (its number among the step's options) chosen in ``st``,
        where the step takes place (``takes``): the state after it, and the facts that the
        choice is one of the options and that the option chosen may be.  Each option's
        effects read the state before the choice; its values stand where it is chosen.
        The effects every option ends with are applied once, to the state the choice
        leaves: where one option is chosen that state is its own."""
        facts = [choice >= 0, choice < len(step.options)]
        common = _common_end([o.effects for o in step.options])
        out = st
        for i, option in enumerate(step.options):
            chosen = _and(takes, choice == i)
            facts.append(z3.Implies(chosen, self.value(option.when, st)))
            own = option.effects[:len(option.effects) - len(common)]
            out = self.merge(chosen, self.apply(own, st, guard=chosen), out, st)
        return self._after_choice(takes, common, out, st), facts

    def _after_choice(self, takes: Any, common: tuple[S.Effect, ...], out: Symbolic,
                      st: Symbolic) -> Symbolic:
        """The effects every option ends with, applied to the state the choice leaves
        (``out``) where the choice is made (``takes``).  Where no choice is made, ``out``
        is ``st``: a value those effects leave as it was in ``st`` is the same either way,
        and needs no ``If``."""
        chosen = self.apply(common, out, guard=takes)
        if takes is None:
            return chosen
        unchosen = self.apply(common, st, guard=takes)
        kept = Symbolic(*(
            {k: a[k] if k in b and k in c and _same_value(b[k], c[k]) else d[k]
             for k in a} for a, b, c, d in (
                (chosen.fields, unchosen.fields, st.fields, out.fields),
                (chosen.tracked, unchosen.tracked, st.tracked, out.tracked),
                (chosen.local, unchosen.local, st.local, out.local))), fired=out.fired)
        return self.merge(takes, chosen, kept)

    def card_run(self, step: S.Step, st: Symbolic, cards: Any, takes: Any
                 ) -> tuple[Symbolic, list[Any]]:
        """The entry of a step whose action is a card of the actor's hand, and its actions,
        repeated until the step ends, as one action with the set ``cards`` of those cards,
        where the step takes place (``takes``); else no card.  It stands for the run when each
        action's effects only add the card to a place or take it from one (so the order of
        the cards does not matter) and the step ends once a place holds a number of cards:
        exactly that number then, as each card adds one.  Returns the state after the run
        and the facts that the cards are of the actor's hand and end the step."""
        self._check_run(step)
        entered = self.apply(step.enter, st, guard=takes)
        hand = self.value(S.At(S.Get("hands"), step.actor), entered)  # type: ignore[arg-type]
        after = self.apply(step.effects, entered, Action(card=cards), guard=takes)
        ends = step.ends
        assert isinstance(ends, S.AtLeast) and isinstance(ends.b, S.Lit)
        count = self.value(ends.a, after)
        run = z3.And(count == ends.b.value, cards & ~hand == 0)
        fact = run if takes is None else z3.If(takes, run, cards == 0)
        return self.merge(takes, after, st) if takes is not None else after, [fact]

    def card_turn(self, step: S.Step, st: Symbolic, card: Any, live: Any
                  ) -> tuple[Symbolic, list[Any], Any]:
        """One action of a step whose action is a card of the actor's hand, where ``live``
        holds (the step takes place and has not ended), else none: the actor, whoever the
        state's turn makes him, acts the card ``card`` (one card, of his hand), the step's
        effects follow, and the step ends if its end holds after them.  Returns the state
        after the action, the facts that bind the card, and whether the step goes on (is
        live for the next action)."""
        StepEncoder.check_turns(step)
        hand = self.value(S.At(S.Get("hands"), step.actor), st)  # type: ignore[arg-type]
        acted = z3.And(self.enc.one_hot(card), card & ~hand == 0)
        after = self.merge(live, self.apply(step.effects, st, Action(card=card), guard=live), st)
        ends = self.value(step.ends, after)  # type: ignore[arg-type]
        return after, [z3.If(live, acted, card == 0)], z3.And(live, z3.Not(ends))

    @staticmethod
    def named(st: Symbolic, tag: str) -> tuple[Symbolic, list[Any]]:
        """``st`` with each field's term (each seat's, for a per-seat field) that is neither
        a constant nor a variable replaced by a variable named after ``tag``, and the facts
        that define them: actions unrolled one after another then read short terms."""
        facts: list[Any] = []

        def fresh(x: Any, name: str) -> Any:
            if not z3.is_expr(x) or z3.is_const(x):
                return x
            v = z3.Const(name, x.sort())
            facts.append(v == x)
            return v
        out = st.copy()
        for key, x in st.fields.items():
            if isinstance(x, list):
                out.fields[key] = [fresh(y, f"{tag}_{key}_{s}") for s, y in enumerate(x)]
            elif not isinstance(x, Lazy | tuple):
                out.fields[key] = fresh(x, f"{tag}_{key}")
        return out, facts

    @staticmethod
    def check_turns(step: S.Step) -> None:
        """A step is encoded action by action (:meth:`card_turn`) where its action is a card
        of the actor's hand, it ends by a condition on the state, and no effect of an
        action passes to another step or ends the deal (the caller reads the steps in
        order)."""
        if step.card is None or step.actor != S.Get("turn") or step.ends is None or step.options:
            raise UnsupportedNodeError(step, _BACKEND, f"the step {step.name!r}: not a step "
                                       "whose action is a card of the hand of the seat to act, "
                                       "ending by a condition")
        StepEncoder.check_entry(step, step.effects)
        # each action takes its card from the hands, and nothing gives a hand a card: a
        # deal has no more actions than the hands hold cards as the step begins
        takes = S.Set("hands", S.Less(S.Get("hands"), S.Only(step.actor, S.Acted())))
        before = step.effects[:step.effects.index(takes)] if takes in step.effects else None
        gives = [e for e in _flat(step.effects) if isinstance(e, S.Set) and e.field == "hands"
                 and e != takes]
        if before is None or gives or any(isinstance(e, S.Set) and e.field == "turn"
                                          for e in _flat(before)):
            raise UnsupportedNodeError(step, _BACKEND, f"the step {step.name!r}: an action "
                                       "that does not take its card from the actor's hand")

    @staticmethod
    def check_entry(step: S.Step, more: tuple[S.Effect, ...] = ()) -> None:
        """A step's entry (and ``more`` effects) is encoded where none of its effects passes
        to another step, ends the deal or asks for a judgement of the rules (which the
        caller, reading the steps in order, would not make).  Where nobody acts at the
        step, its entry is all it does."""
        if step.actor is None and (step.card is not None or step.options):
            raise UnsupportedNodeError(step, _BACKEND, f"the step {step.name!r}: an action "
                                       "with nobody to act")
        for e in _flat((*step.enter, *more)):
            if isinstance(e, S.Advance | S.Over | S.Judge):
                raise UnsupportedNodeError(step, _BACKEND, f"the step {step.name!r}: an effect "
                                           "that passes to another step or judges the rules")

    @staticmethod
    def unrolls_alone(step: S.Step) -> bool:
        """Whether a step is read from its own values alone: action by action where its
        action is a card of the hand of the seat to act (:meth:`check_turns`), by its entry
        where nobody acts (:meth:`check_entry`)."""
        try:
            (StepEncoder.check_turns if step.actor is not None else StepEncoder.check_entry)(step)
        except UnsupportedNodeError:
            return False
        return True

    def runs_as_one(self, step: S.Step) -> bool:
        """Whether :meth:`card_run` encodes the run of ``step``'s cards as one set."""
        try:
            self._check_run(step)
        except UnsupportedNodeError:
            return False
        return True

    def _check_run(self, step: S.Step) -> None:
        """A run of cards is encoded as one set only where that is the same."""
        ends = step.ends
        ok = (isinstance(ends, S.AtLeast) and isinstance(ends.a, S.Count)
              and isinstance(ends.b, S.Lit) and step.actor == S.Get("turn"))
        for e in step.effects:
            if isinstance(e, S.Set):
                ok = ok and isinstance(e.value, S.Joined | S.Less) and isinstance(e.value.a, S.Get) \
                    and e.value.a.field == e.field and _acted(e.value.b)
            else:
                ok = ok and isinstance(e, S.Record | S.Fire)
        if not ok:
            raise UnsupportedNodeError(step, _BACKEND, f"the step {step.name!r}: a run of cards "
                                       "it cannot encode as one set")


def _flat(effects: Iterable[S.Effect]) -> Iterable[S.Effect]:
    """The effects, the branches of each ``When`` opened."""
    for e in effects:
        if isinstance(e, S.When):
            yield from _flat(e.then)
            yield from _flat(e.orelse)
        else:
            yield e


def _acted(v: S.Value) -> bool:
    """Whether ``v`` is the card acted with (for the actor alone, or for the table)."""
    return isinstance(v, S.Acted) or (isinstance(v, S.Only) and isinstance(v.cards, S.Acted)
                                      and isinstance(v.seat, S.Get) and v.seat.field == "turn")


# -- terms as small as the step allows ------------------------------------------------------
# A per-seat place changed for one seat holds, at each seat s, ``If(seat == s, new, old)``;
# the rewrites below keep such terms in that shape (both sides of a change for the same
# seat under one test; a change under a condition, the same test with the condition's),
# and read the place at that seat as the new value itself.  Each rewrite gives an equal
# term: none changes what the state is, only how large Z3's terms are.
def _is_ite(x: Any) -> bool:
    return isinstance(x, z3.ExprRef) and z3.is_app_of(x, z3.Z3_OP_ITE)


def _is_zero(x: Any) -> bool:
    return z3.is_bv_value(x) and x.as_long() == 0


def _ite(test: Any, a: Any, b: Any) -> Any:
    """``If(test, a, b)``; ``a`` when both are the same, and ``If(test and c, x, b)`` for
    ``a`` = ``If(c, x, b)``."""
    if _same(a, b):
        return a
    if _is_ite(a) and _same(a.arg(2), b):
        return z3.If(z3.And(test, a.arg(0)), a.arg(1), b)
    return z3.If(test, a, b)


def _both(x: Any, y: Any, op: Callable[[Any, Any], Any]) -> Any:
    """``op`` of two cards sets, under one test where both choose by it (or ``y`` does,
    with no card the other way)."""
    if _is_ite(x) and _is_ite(y) and _same(x.arg(0), y.arg(0)):
        return z3.If(x.arg(0), op(x.arg(1), y.arg(1)), op(x.arg(2), y.arg(2)))
    if _is_ite(y) and _is_zero(y.arg(2)) and not _is_ite(x):
        return z3.If(y.arg(0), op(x, y.arg(1)), x)
    return None


def _joined(x: Any, y: Any) -> Any:
    """The cards of both sets."""
    if _is_zero(y):
        return x
    if _is_zero(x):
        return y
    both = _both(x, y, _joined)
    return x | y if both is None else both


def _less(x: Any, y: Any) -> Any:
    """The cards of ``x`` not in ``y``."""
    if _is_zero(y):
        return x
    both = _both(x, y, _less)
    return x & ~y if both is None else both


def _at(enc: Encoding, seat: Any, items: list[Any]) -> Any:
    """The item of a per-seat place at ``seat``: where each seat's item is a change made
    for ``seat`` itself, the changed items; cards added to every seat's, added after.

    The shortcut is the select of the items for a seat of the table only: out of range,
    the select's last entry would be the unchanged item.  Its callers read places at seats
    their facts bound to the table (the declarer, the seat to act)."""
    changed = [x.arg(1) if _is_ite(x) and _same(x.arg(0), seat == s) else None
               for s, x in enumerate(items)]
    if all(c is not None for c in changed):
        items = changed
        added = [x.arg(1) if isinstance(x, z3.ExprRef) and z3.is_app_of(x, z3.Z3_OP_BOR)
                 and x.num_args() == 2 else None for x in items]
        if all(a is not None for a in added) and all(_same(a, added[0]) for a in added):
            return _joined(enc.select(seat, [x.arg(0) for x in items]), added[0])
    return enc.select(seat, items)


def _common_end(effects: list[tuple[S.Effect, ...]]) -> tuple[S.Effect, ...]:
    """The effects that every one of ``effects`` ends with."""
    if not effects:
        return ()
    k = 0
    while all(len(e) > k for e in effects) and all(_same_effect(e[-1 - k], effects[0][-1 - k])
                                                   for e in effects):
        k += 1
    return effects[0][len(effects[0]) - k:]


def _same_effect(a: S.Effect, b: S.Effect) -> bool:
    """Whether two effects are the same one (a rule's expressions are compared by
    identity: their ``==`` states a rule, it does not compare; the effects that hold none,
    by value)."""
    return a is b or (isinstance(a, S.Fire | S.Record | S.Advance | S.Judge) and a == b)


def _and(a: Any, b: Any) -> Any:
    """``a and b``, either None for true."""
    return b if a is None else a if b is None else z3.And(a, b)


def _same_value(a: Any, b: Any) -> bool:
    """Whether two values of a field (a term, a list of them, a record) are the very same."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    return _same(a, b)


def _same(a: Any, b: Any) -> bool:
    """Whether two terms (or Python values) are the very same."""
    if isinstance(a, z3.ExprRef) and isinstance(b, z3.ExprRef):
        return a.eq(b)  # type: ignore[no-any-return]
    return a is b
