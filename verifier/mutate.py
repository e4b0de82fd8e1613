"""Mutation testing of a game's rules: how many wrong versions of the rules do the checks catch?

A *mutant* is the game with one small change made in its rules, at the level of the rules
language: an integer constant, a comparison, ``&``/``|``, a condition negated, the rank
order, the strain order, a card-point table, a seat offset, a whole rule dropped, or one
of the game's variants put in force.  :func:`mutants` lists them for any game, in a fixed
order, each with a stable id, the rule it touched and a one-line description.

:func:`mutate` then judges every mutant:

1. **Build.**  The mutant is built through ``Game(...)``; a build error
   (:class:`~spec.errors.SpecDefinitionError`, :class:`~spec.errors.NotationError`,
   raised by the rules language or the game's static checks) kills it.
2. **Equivalence screen.**  The random bots play the same seeds with the original and
   with the mutant (and a few whole matches, rubbers or sessions); when every record is
   the same, and no check covering the touched rules fails on it (step 3, those checks
   only), the mutant is *probably equivalent* and is left out of the kill rate.  An
   exception in the mutant's engine is an *engine error*: it kills nothing by itself, and
   is a finding to fix unless a property or the build kills the mutant.
3. **Check.**  The properties of :func:`verifier.properties.checks_for` run on the mutant,
   those covering the touched rule first and the rest from the quickest (on the original)
   up, until one is VIOLATED or VACUOUS (killed: either fails ``trickspec check``).  Only
   checks that hold on the original can kill.  Z3's answers to the original's queries are
   reused where a mutant puts the same query; a kill that rests on a reused answer is
   decided again without reuse before it counts.
   UNKNOWN kills nothing: a mutant with only HOLDS and UNKNOWN verdicts survived
   (unknown).  A check that raises an exception is a finding, not a kill.

The kill rate of a game is killed / non-equivalent mutants, overall, per rule and per
operator.  Claims (rules whose construct is ``Claim``) are not mutated: like properties,
they are what the checks prove, not rules of play.

Run it with ``trickspec mutate GAME [options]`` (``--help`` lists them).
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import enum
import itertools
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from spec.cards import Rank, Suit
from spec.dsl import _constructs as K
from spec.dsl._build import Game, Property, Rule, Variant
from spec.dsl._nodes import (
    BoolOp,
    CardTable,
    Compare,
    Const,
    Expr,
    IfThenElse,
    Not,
    Op,
    SeatAfter,
    T,
)
from spec.engine import drop_engine, play_deal, play_match, play_pot_session, session
from spec.errors import NotationError, SpecDefinitionError, SrcLoc
from spec.records import session_json, to_record
from spec.sheet import play_rubber, rubber_json
from verifier._z3.solver import DEFAULT_RLIMIT, Remembering
from verifier.errors import SolverUnknownError
from verifier.interrupts import worker_pool
from verifier.properties import Check, Options, Verdict, checks_for

__all__ = [
    "Operator", "Mutant", "mutants", "chosen_mutants", "Screen", "screen", "Baseline",
    "baseline", "CheckOutcome", "check_mutant", "Outcome", "MutantResult", "Report", "mutate",
    "TARGET_RATE",
]

DEFAULT_SEEDS = 200
DEFAULT_MATCHES = 20
# deals of a session the screen plays in a game without a match or a rubber (a pot's, say)
SESSION_DEALS = 6
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(K.__file__)))
_REPO = os.path.dirname(_ROOT)


class Operator(enum.Enum):
    """The kinds of change a mutant makes."""

    CONSTANT = "constant"
    COMPARISON = "comparison"
    BOOLEAN = "boolean"
    NEGATION = "negation"
    RANK_ORDER = "rank order"
    STRAIN_ORDER = "strain order"
    CARD_POINTS = "card points"
    SEAT_OFFSET = "seat offset"
    RULE_DROPPED = "rule dropped"
    VARIANT = "variant"


@dataclass(frozen=True, eq=False)
class Mutant:
    """One changed version of a game: ``build()`` makes it through the normal ``Game(...)``.

    ``id`` is stable while the touched rule is unchanged: ``<rule id>#<n>`` numbers the
    changes to one rule in a fixed order, ``<rule id>#drop`` drops it and
    ``variant:<variant id>`` puts a variant in force.  ``rules`` lists every rule the
    change touches (an expression written once can be read by several rules); ``rule_id``
    is the first of them.
    """

    id: str
    rule_id: str
    operator: Operator
    description: str
    make: Callable[[], Game] = field(repr=False)
    rules: tuple[str, ...] = ()

    def build(self) -> Game:
        """The mutant game.

        Raises:
            SpecDefinitionError: the rules language or the game's checks reject the change.
            NotationError: likewise (a variant that cannot be played, say).
        """
        return self.make()


# -- walking rule bodies -------------------------------------------------------------

Path = tuple[str | int, ...]


def _fields(obj: object) -> Iterator[tuple[str, object]]:
    """The fields of a construct or node that a change can touch (not locations, not types)."""
    for f in dataclasses.fields(obj):  # type: ignore[arg-type]  # constructs and nodes are dataclasses
        if f.name == "src_loc" or (isinstance(obj, Expr) and f.name == "type"):
            continue
        yield f.name, getattr(obj, f.name)


def _sites(obj: object, path: Path = ()) -> Iterator[tuple[Path, object, object, str]]:
    """Every value inside a rule body, depth first: (path, value, its owner, field name).

    Tuples are sites themselves (rank orders, ladders); only their nodes and constructs are
    walked into.
    """
    for name, value in _fields(obj):
        yield from _visit(value, (*path, name), obj, name)


def _visit(value: object, path: Path, owner: object, name: str
           ) -> Iterator[tuple[Path, object, object, str]]:
    yield path, value, owner, name
    if isinstance(value, (Expr, K.Construct)):
        yield from _sites(value, path)
    elif isinstance(value, tuple):
        for i, x in enumerate(value):
            if isinstance(x, (Expr, K.Construct, tuple)):
                yield from _visit(x, (*path, i), value, name)


def _put(obj: Any, path: Path, new: object) -> Any:
    """``obj`` with the value at ``path`` replaced (rebuilt with ``dataclasses.replace``)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(obj, tuple):
        assert isinstance(head, int)
        items = list(obj)
        items[head] = _put(obj[head], rest, new)
        return tuple(items)
    assert isinstance(head, str)
    return dataclasses.replace(obj, **{head: _put(getattr(obj, head), rest, new)})


def _substitute(obj: Any, old: object, new: object) -> Any:
    """``obj`` with every occurrence of the object ``old`` replaced by ``new``."""
    if obj is old:
        return new
    if isinstance(obj, tuple):
        items = tuple(_substitute(x, old, new) for x in obj)
        return obj if all(a is b for a, b in zip(items, obj)) else items
    if isinstance(obj, (Expr, K.Construct)):
        changes = {}
        for name, value in _fields(obj):
            got = _substitute(value, old, new)
            if got is not value:
                changes[name] = got
        return dataclasses.replace(obj, **changes) if changes else obj
    return obj


# -- describing a change --------------------------------------------------------------

def _where(loc: SrcLoc | None) -> str:
    if loc is None:
        return "?"
    path = os.path.abspath(loc.file)
    shown = os.path.relpath(path, _REPO) if path.startswith(_REPO + os.sep) else path
    return f"{shown}:{loc.line}"


def _loc(rule: Rule, value: object) -> SrcLoc:
    """Where a change is: the node's own line when it was written in the rule's module."""
    loc = getattr(value, "src_loc", None)
    if isinstance(loc, SrcLoc) and loc.file == rule.src_loc.file:
        return loc
    return rule.src_loc


_OP_TEXT = {Op.AND: "&", Op.OR: "|"}
_CMP_SWAP = {Op.LT: Op.LE, Op.LE: Op.LT, Op.GT: Op.GE, Op.GE: Op.GT, Op.EQ: Op.NE, Op.NE: Op.EQ}


def _ints(k: int, *, floor: int | None = None) -> tuple[int, ...]:
    """k+1, k-1 and 0, each once, none equal to k (none below ``floor``)."""
    out: list[int] = []
    for v in (k + 1, k - 1, 0):
        if v != k and v not in out and (floor is None or v >= floor):
            out.append(v)
    return tuple(out)


def _seq_text(t: tuple[int, ...]) -> str:
    if len(t) > 4:
        return f"({t[0]}, {t[1]}, …, {t[-1]}; {len(t)} values)"
    return "(" + ", ".join(str(x) for x in t) + ")"


def _sequences(t: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], str]]:
    """A long run of numbers (a ladder's levels, packets) loses or gains a value at either
    end; a short one has each value changed."""
    if len(t) >= 3:
        first, last = t[1] - t[0], t[-1] - t[-2]
        seen: set[tuple[int, ...]] = {t}
        for new in (t[1:], t[:-1], (t[0] - first, *t), (*t, t[-1] + last)):
            if new not in seen:
                seen.add(new)
                yield new, f"{_seq_text(t)} → {_seq_text(new)}"
        return
    for i, k in enumerate(t):
        for v in _ints(k):
            new = t[:i] + (v,) + t[i + 1:]
            yield new, f"{_seq_text(t)} → {_seq_text(new)}"


def _suit_text(s: Suit | None) -> str:
    return "NT" if s is None else s.letter


@dataclass(frozen=True)
class _Change:
    """One change to a value of a rule body: ``apply`` maps the value to its replacement.

    Changes with the same operator, text and line are one mutant: a rule built by a Python
    loop or helper holds many nodes written on one line, and the line is what an author
    would get wrong.
    """

    operator: Operator
    apply: Callable[[Any], Any]
    what: str
    loc: SrcLoc


def _set(**changes: object) -> Callable[[Any], Any]:
    return lambda node: dataclasses.replace(node, **changes)


def _to(value: object) -> Callable[[Any], Any]:
    return lambda _old: value


def _negate(node: Expr) -> Expr:
    return Not(node, src_loc=node.src_loc)


def _unwrap(node: Not) -> Expr:
    return node.arg


def _changes(game: Game, rule: Rule, value: object, owner: object, name: str
             ) -> Iterator[_Change]:
    """The changes to one value of a rule body, in a fixed order."""
    here = _loc(rule, value)
    top = isinstance(owner, K.Construct)
    name = f"{name}: " if top else ""  # a node's line says where it is; a field needs its name
    if isinstance(value, Expr):
        if isinstance(value, Const) and value.type is T.INT and isinstance(value.value, int):
            for v in _ints(value.value):
                yield _Change(Operator.CONSTANT, _set(value=v),
                              f"{name}`{value.value}` → `{v}`", here)
        elif isinstance(value, Const) and value.type is T.BOOL:
            yield _Change(Operator.NEGATION, _set(value=not value.value),
                          f"{name}`{value.value}` → `{not value.value}`", here)
        elif isinstance(value, Const) and value.type is T.SEAT and isinstance(value.value, int):
            for v in (value.value + 1, value.value - 1):
                if 0 <= v < game.players:
                    yield _Change(Operator.SEAT_OFFSET, _set(value=v),
                                  f"{name}seat `{value.value}` → `{v}`", here)
        elif isinstance(value, Compare):
            op = _CMP_SWAP[value.op]
            yield _Change(Operator.COMPARISON, _set(op=op),
                          f"{name}`{value.op.value}` → `{op.value}`", here)
        elif isinstance(value, BoolOp) and value.op in _OP_TEXT:
            op = Op.OR if value.op is Op.AND else Op.AND
            yield _Change(Operator.BOOLEAN, _set(op=op),
                          f"{name}`{_OP_TEXT[value.op]}` → `{_OP_TEXT[op]}`", here)
        elif isinstance(value, SeatAfter):
            for v in (value.steps + 1, value.steps - 1):
                if v >= 0:
                    yield _Change(Operator.SEAT_OFFSET, _set(steps=v),
                                  f"{name}seat_after(…, {value.steps}) → seat_after(…, {v})",
                                  here)
        if isinstance(value, Not):
            yield _Change(Operator.NEGATION, _unwrap, f"{name}`~` removed", here)
        elif (value.type is T.BOOL and not isinstance(value, Const)
              and (top or (isinstance(owner, IfThenElse) and name == "cond"))):
            yield _Change(Operator.NEGATION, _negate, f"{name}condition negated", here)
        return
    if isinstance(value, bool):
        if top:
            yield _Change(Operator.BOOLEAN, _to(not value), f"{name}`{value}` → `{not value}`",
                          here)
        return
    if isinstance(value, int):
        if not top or name == "stage":  # a stage is a number of the deal's structure, not a rule
            return
        steps = "steps" in name
        for v in _ints(value, floor=0 if steps else None):
            yield _Change(Operator.SEAT_OFFSET if steps else Operator.CONSTANT, _to(v),
                          f"{name}`{value}` → `{v}`", here)
        return
    if not isinstance(value, tuple) or not value or not top:
        return
    if all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        for new, what in _sequences(value):  # type: ignore[arg-type]  # checked just above
            yield _Change(Operator.CONSTANT, _to(new), f"{name}{what}", here)
    elif all(isinstance(x, Rank) for x in value):
        for i in range(len(value) - 1):
            a, b = value[i], value[i + 1]
            new = value[:i] + (b, a) + value[i + 2:]
            yield _Change(Operator.RANK_ORDER, _to(new),
                          f"{name}{a.value} and {b.value} swapped", here)
    elif isinstance(owner, K.Ladder) and name == "strains" and len(value) > 1:
        for i in range(len(value) - 1):
            a, b = value[i], value[i + 1]
            new = value[:i] + (b, a) + value[i + 2:]
            yield _Change(Operator.STRAIN_ORDER, _to(new),
                          f"{name}{_suit_text(a)} and {_suit_text(b)} swapped", here)
        if len(value) > 2:
            yield _Change(Operator.STRAIN_ORDER, _to(value[::-1]), f"{name}order reversed",
                          here)


def _table_changes(game: Game, table: CardTable) -> Iterator[tuple[CardTable, str]]:
    """A card table with two values exchanged: between neighbouring ranks (in the game's
    rank order) when the table gives every card of a rank the same value, otherwise
    between neighbouring cards of the deck."""
    by_rank: dict[Rank, set[int]] = {}
    for c, v in table.entries:
        by_rank.setdefault(c.rank, set()).add(v)
    if all(len(vs) == 1 for vs in by_rank.values()):
        body = game.one(K.RankOrder)
        assert isinstance(body, K.RankOrder)
        order = [r for r in body.order if r in by_rank]
        order += [r for r in by_rank if r not in order]
        for a, b in zip(order, order[1:]):
            va, vb = next(iter(by_rank[a])), next(iter(by_rank[b]))
            if va == vb:
                continue
            swap = {a: vb, b: va}
            entries = tuple((c, swap.get(c.rank, v)) for c, v in table.entries)
            yield (dataclasses.replace(table, entries=entries),
                   f"{table.name}: {a.value} and {b.value} exchanged ({va} ↔ {vb})")
        return
    entries = table.entries
    for i in range(len(entries) - 1):
        (ca, va), (cb, vb) = entries[i], entries[i + 1]
        if va == vb:
            continue
        new = entries[:i] + ((ca, vb), (cb, va)) + entries[i + 2:]
        yield (dataclasses.replace(table, entries=new),
               f"{table.name}: {ca} and {cb} exchanged ({va} ↔ {vb})")


def _get(obj: Any, path: Path) -> Any:
    for step in path:
        obj = obj[step] if isinstance(obj, tuple) else getattr(obj, step)  # type: ignore[index]
    return obj


def _with_changes(game: Game, places: Sequence[tuple[int, Path]],
                  apply: Callable[[Any], Any]) -> Callable[[], Game]:
    """The game with the values at ``places`` (rule index, path) changed; the deepest first,
    so that a change to a node keeps the changes already made inside it."""
    def make() -> Game:
        rules = list(game.rules)
        for index in dict.fromkeys(i for i, _p in places):
            body = rules[index].body
            for path in sorted((p for i, p in places if i == index), key=len, reverse=True):
                body = _put(body, path, apply(_get(body, path)))
            rules[index] = dataclasses.replace(rules[index], body=body)
        return game.with_rules(rules)
    return make


def _with_table(game: Game, old: CardTable, new: CardTable) -> Callable[[], Game]:
    def make() -> Game:
        rules = [r if isinstance(r.body, K.Claim) else
                 dataclasses.replace(r, body=_substitute(r.body, old, new)) for r in game.rules]
        return game.with_rules(rules)
    return make


def _rebuilt(game: Game, rules: Sequence[Rule]) -> Game:
    """The game with other rules, its bookkeeping kept in step: which rules a property
    covers and which a variant replaces are lists of ids, so an id no longer there leaves
    them; a variant left replacing nothing goes, and with it the properties stated under
    it (a property stated unless it is in force now always applies).  Only what the rules
    mean can then make the build fail."""
    ids = {r.id for r in rules}
    variants: list[Variant] = []
    gone: set[str] = set()
    for v in game.variants:
        pairs = tuple((old, new) for old, new in v.replaces if old.id in ids)
        if v.replaces and not pairs and not v.adds:
            gone.add(v.id)
            continue
        variants.append(v if pairs == v.replaces else dataclasses.replace(v, replaces=pairs))
    props: list[Property] = []
    for p in game.properties:
        if gone & set(p.under):
            continue
        covers = tuple(c for c in p.covers if c in ids)
        unless = tuple(x for x in p.unless if x not in gone)
        props.append(p if (covers, unless) == (p.covers, p.unless)
                     else dataclasses.replace(p, covers=covers, unless=unless))
    return game.with_rules(rules, variants=variants, properties=props)


def _without(game: Game, index: int) -> Callable[[], Game]:
    """The game without one rule."""
    return lambda: _rebuilt(game, game.rules[:index] + game.rules[index + 1:])


def _with_variant(game: Game, variant_id: str) -> Callable[[], Game]:
    """The default game written with a variant's rules: a default transcribed as the
    variant, not the variant chosen, so the properties of the default still apply."""
    return lambda: _rebuilt(game, game.with_variants(variant_id).rules)


def _touched(first: str, others: Sequence[str]) -> str:
    if not others:
        return first
    more = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
    return f"{first} (also {more})"


def mutants(game: Game) -> tuple[Mutant, ...]:
    """Every mutant of a game, in rulebook order: each rule's changes, then the rule
    dropped; then each variant that can be played, put in force.

    One change is one mutant wherever it applies: the same change on the same line of the
    game module (a helper or a loop writes many nodes on one line; an expression kept in a
    constant is read by several rules) is made everywhere at once, as an author's slip on
    that line would be.  Claims are left alone, and so are the properties: they are what
    the checks prove.  A change that the rules language refuses is still listed: building
    it raises, and the build kills it.
    """
    playing = [(i, r) for i, r in enumerate(game.rules) if not isinstance(r.body, K.Claim)]
    # every change, keyed by what it does and where it is written, with all its places
    found: dict[tuple[Operator, str, SrcLoc], tuple[_Change, list[tuple[int, Path]]]] = {}
    tables: dict[int, tuple[CardTable, list[int]]] = {}
    for index, rule in playing:
        for path, value, owner, name in _sites(rule.body):
            if isinstance(value, CardTable):
                holders = tables.setdefault(id(value), (value, []))[1]
                if index not in holders:
                    holders.append(index)
            for ch in _changes(game, rule, value, owner, name):
                found.setdefault((ch.operator, ch.what, ch.loc), (ch, []))[1].append((index, path))
    by_rule: dict[int, list[tuple[_Change, list[tuple[int, Path]]]]] = {}
    for ch, places in found.values():
        by_rule.setdefault(places[0][0], []).append((ch, places))
    # a table belongs to the rule that states it (CardPoints), else to the first that reads it
    table_owner: dict[int, list[tuple[CardTable, list[int]]]] = {}
    for table, holders in tables.values():
        owner = next((i for i in holders if isinstance(game.rules[i].body, K.CardPoints)
                      and game.rules[i].body.table is table), holders[0])  # type: ignore[attr-defined]
        table_owner.setdefault(owner, []).append((table, holders))
    out: list[Mutant] = []
    for index, rule in playing:
        n = 0

        def add(op: Operator, what: str, loc: SrcLoc, make: Callable[[], Game],
                touched: Sequence[int]) -> None:
            nonlocal n
            n += 1
            others = [game.rules[i].id for i in dict.fromkeys(touched) if i != index]
            out.append(Mutant(f"{rule.id}#{n}", rule.id, op,
                              f"{_touched(rule.id, others)}: {what} at {_where(loc)}", make,
                              (rule.id, *others)))

        for ch, places in by_rule.get(index, ()):
            what = ch.what + (f" ({len(places)} places)" if len(places) > 1 else "")
            add(ch.operator, what, ch.loc, _with_changes(game, places, ch.apply),
                [i for i, _p in places])
        for table, holders in table_owner.get(index, ()):
            for new, what in _table_changes(game, table):
                add(Operator.CARD_POINTS, what, table.src_loc, _with_table(game, table, new),
                    holders)
        out.append(Mutant(f"{rule.id}#drop", rule.id, Operator.RULE_DROPPED,
                          f"{rule.id}: rule dropped at {_where(rule.src_loc)}",
                          _without(game, index), (rule.id,)))
    for v in game.variants:
        if v.not_decidable or not v.replaces:
            continue
        replaced = tuple(old.id for old, _new in v.replaces)
        out.append(Mutant(f"variant:{v.id}", replaced[0], Operator.VARIANT,
                          f"{replaced[0]}: variant {v.id} in force (replaces "
                          f"{', '.join(replaced)}) at {_where(v.src_loc)}",
                          _with_variant(game, v.id), replaced))
    return tuple(out)


def chosen_mutants(game: Game, only: Sequence[str] = (),
                   everything: Sequence[Mutant] | None = None) -> list[Mutant]:
    """The mutants of a game (``everything``, when already made) that touch the rules of
    ``only`` (all of them when it is empty), in rulebook order.

    Raises:
        NotationError: a rule of ``only`` has no mutant.
    """
    everything = mutants(game) if everything is None else everything
    if not only:
        return list(everything)
    known = {m.rule_id for m in everything}
    unknown = [r for r in only if r not in known]
    if unknown:
        raise NotationError(f"no mutant touches {', '.join(unknown)} (rules with mutants: "
                            f"{', '.join(sorted(known))})", value=unknown[0])
    return [m for m in everything if m.rule_id in only]


# -- the equivalence screen -------------------------------------------------------------

class _DealTooLong(BaseException):  # not caught by the engine's own handlers
    pass


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise ``_DealTooLong`` in this thread after ``seconds`` (main thread only; a mutant
    whose auction never ends would otherwise play for ever)."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(_signum: int, _frame: object) -> None:
        raise _DealTooLong()

    before = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def _plays(game: Game, seeds: int, seed: int, matches: int) -> Iterator[tuple[str, Any]]:
    """What the random bots do in a game, one observation at a time: each deal's record
    (without the variants in force), then whole matches, rubbers or sessions for a pot (in
    a game with none of them, deals played one after another as the rules pass the deal
    on)."""
    def plain(record: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in record.items() if k != "variants"}

    for s in range(seed, seed + seeds):
        yield f"deal seed {s}", plain(to_record(play_deal(game, seed=s)))
    has_sheet = bool(game.constructs(K.GameTarget))
    has_match = bool(game.constructs(K.MatchTarget) or game.constructs(K.MatchLength))
    has_pot = bool(game.constructs(K.Pot))
    for i in range(matches):
        s = seed + 100_000 + 1_000 * i
        if has_sheet:
            rubber = rubber_json(play_rubber(game, seed=s))
            rubber["deals"] = [plain(d) for d in rubber["deals"]]
            yield f"rubber seed {s}", plain(rubber)
        elif has_match:
            m = play_match(game, seed=s)
            yield f"match seed {s}", {"deals": [plain(to_record(d)) for d in m.deals],
                                      "totals": m.totals, "winners": m.winners}
        elif has_pot:
            pots = play_pot_session(game, deals=SESSION_DEALS, seed=s)
            record = session_json(pots)
            record["deals"] = [plain(d) for d in record["deals"]]
            yield f"session seed {s}", {**plain(record), "winners": pots.winners}
        else:
            played = itertools.islice(session(game, seed=s), SESSION_DEALS)
            yield f"session seed {s}", {"deals": [plain(to_record(d)) for d in played]}


@dataclass(frozen=True)
class Screen:
    """What the equivalence screen saw: the first difference (``""`` when none was found:
    probably equivalent), or the engine error the mutant raised."""

    equivalent: bool
    difference: str = ""
    engine_error: str = ""
    seconds: float = 0.0


_ORIGINAL: dict[tuple[int, int, int, int], tuple[Game, list[tuple[str, Any]], float]] = {}


def _original_plays(game: Game, seeds: int, seed: int, matches: int
                    ) -> tuple[list[tuple[str, Any]], float]:
    """The original's observations, and the seconds they took, made once per process."""
    key = (id(game), seeds, seed, matches)
    found = _ORIGINAL.get(key)
    if found is None or found[0] is not game:
        start = time.perf_counter()
        plays = list(_plays(game, seeds, seed, matches))
        found = (game, plays, time.perf_counter() - start)
        _ORIGINAL[key] = found
    return found[1], found[2]


def _first_difference(a: Any, b: Any, where: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{where}.{k}" if where else str(k))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{where}[{i}]")
    return f"{where}: {a!r} → {b!r}"[:200]


def screen(game: Game, mutant: Game, *, seeds: int = DEFAULT_SEEDS, seed: int = 0,
           matches: int = DEFAULT_MATCHES, time_limit: float | None = None) -> Screen:
    """Play the same seeds with the random bots in both games and compare the records.

    ``seeds`` deals from ``seed`` on, then ``matches`` whole matches (or rubbers, in a game
    with a score sheet; sessions of deals, for a pot or passed on by the rules, in a game
    with neither), so that rules about the dealer's rotation and the end of a game are
    seen.  The original's records are kept between calls.  An exception in the
    mutant, or play that goes on past ``time_limit`` seconds (by default 5 s plus ten
    times what the original took), is the screen's engine error.
    """
    start = time.perf_counter()
    want, took = _original_plays(game, seeds, seed, matches)
    limit = 5.0 + 10 * took if time_limit is None else time_limit
    got = _plays(mutant, seeds, seed, matches)
    what = "the first deal"

    def seen(equivalent: bool, difference: str = "", engine_error: str = "") -> Screen:
        return Screen(equivalent, difference, engine_error, time.perf_counter() - start)

    try:
        with _time_limit(limit):
            for what, expected in want:
                found = next(got, None)
                if found is None:
                    return seen(False, f"{what}: the mutant plays none")
                if found[1] != expected:
                    return seen(False, f"{what}: {_first_difference(expected, found[1])}")
    except _DealTooLong:
        return seen(False, engine_error=f"{what}: play did not end within {limit:.0f} s")
    except Exception as e:  # noqa: BLE001  # any failure of the mutant's engine is a finding
        return seen(False, engine_error=f"{what}: {type(e).__name__}: {e}"[:300])
    return seen(True)


# -- checking ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Baseline:
    """A check's verdict and time on the original game (only checks that hold can kill),
    and Z3's answer to each of its queries, by fingerprint (True: satisfiable)."""

    verdict: str
    seconds: float
    answers: Mapping[str, bool] = field(default_factory=dict, compare=False, repr=False)


def _run(game: Game, check: Check, opts: Options, known: Mapping[str, bool],
         learn: dict[str, bool] | None = None) -> Verdict:
    """``run_check`` with a solving that remembers the original's answers.  A verdict that
    fails the check (VIOLATED, VACUOUS) and rests on a remembered answer is decided again
    without any: a fingerprint shared by two queries must never kill a mutant."""
    solving = Remembering(opts.timeout, opts.rlimit, known, learn)
    try:
        verdict, _detail, _pt = check.decide(game, solving, opts)
    except SolverUnknownError:
        return Verdict.UNKNOWN
    if verdict in (Verdict.VIOLATED, Verdict.VACUOUS) and solving.reused:
        return _run(game, check, opts, {})
    return verdict


def _baseline_one(game: Game, check_id: str, timeout: float, rlimit: int | None
                  ) -> tuple[str, Baseline]:
    (check,) = [c for c in checks_for(game) if c.id == check_id]
    start = time.perf_counter()
    learn: dict[str, bool] = {}
    try:
        verdict = _run(game, check, Options(timeout=timeout, rlimit=rlimit), {}, learn).value
    except Exception as e:  # noqa: BLE001  # recorded: such a check can kill nothing
        verdict = f"ERROR {type(e).__name__}: {e}"[:200]
    return check_id, Baseline(verdict, time.perf_counter() - start, learn)


def baseline(game: Game, *, timeout: float = 60.0, rlimit: int | None = DEFAULT_RLIMIT
             ) -> dict[str, Baseline]:
    """Every check of the original game, with its verdict, time and answers."""
    return dict(_baseline_one(game, c.id, timeout, rlimit) for c in checks_for(game))


@dataclass(frozen=True)
class CheckOutcome:
    """What the checks said of a mutant: the check that killed it (``""``: none), the checks
    that answered UNKNOWN, those that raised, whether the budget ran out first, and each
    check run as (id, verdict or ``ERROR``, seconds)."""

    killed_by: str = ""
    unknown: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    out_of_budget: bool = False
    ran: tuple[tuple[str, str, float], ...] = ()


def _order(checks: Sequence[Any], rule_ids: Sequence[str], base: Mapping[str, Baseline]
           ) -> list[Any]:
    """Checks covering a touched rule first, then the rest, quickest (on the original)
    first; checks the original does not hold are left out."""
    usable = [c for c in checks if c.id not in base or base[c.id].verdict == "HOLDS"]
    slow = max((b.seconds for b in base.values()), default=0.0) + 1.0

    def key(c: Any) -> tuple[int, float, str]:
        return (0 if set(rule_ids) & set(c.covers) else 1,
                base[c.id].seconds if c.id in base else slow, c.id)
    return sorted(usable, key=key)


def check_mutant(game: Game, rule_ids: Sequence[str], *, base: Mapping[str, Baseline] | None = None,
                 timeout: float = 60.0, rlimit: int | None = DEFAULT_RLIMIT,
                 budget: float | None = None, covering_only: bool = False) -> CheckOutcome:
    """Run the checks of a mutant game until one is VIOLATED.

    Args:
        game: the mutant game.
        rule_ids: the rules the mutant touched; the checks covering them run first (with
            ``covering_only``, only they run).
        base: the original's verdicts (:func:`baseline`); only checks that hold there, or
            that the original does not have, can kill.
        timeout: seconds per solver query; rlimit: Z3 resource units per query.
        budget: seconds for all the checks of this mutant; no further check starts after it.
    """
    start = time.perf_counter()
    try:
        checks = _order(checks_for(game), rule_ids, base or {})
        if covering_only:  # and only checks shown to hold on the original
            checks = [c for c in checks if set(rule_ids) & set(c.covers)
                      and c.id in (base or {}) and (base or {})[c.id].verdict == "HOLDS"]
    except Exception as e:  # noqa: BLE001  # a check list that cannot be made is a finding
        return CheckOutcome(errors=(f"checks_for: {type(e).__name__}: {e}"[:300],))
    opts = Options(timeout=timeout, rlimit=rlimit)
    known: dict[str, bool] = {}
    for b in (base or {}).values():
        known.update(b.answers)
    unknown: list[str] = []
    errors: list[str] = []
    ran: list[tuple[str, str, float]] = []

    def outcome(killed_by: str = "", out_of_budget: bool = False) -> CheckOutcome:
        return CheckOutcome(killed_by, tuple(unknown), tuple(errors), out_of_budget, tuple(ran))

    for check in checks:
        if budget is not None and time.perf_counter() - start > budget:
            return outcome(out_of_budget=True)
        began = time.perf_counter()
        try:
            verdict = _run(game, check, opts, known)
        except Exception as e:  # noqa: BLE001  # an exception is a finding, never a kill
            errors.append(f"{check.id}: {type(e).__name__}: {e}"[:300])
            ran.append((check.id, "ERROR", time.perf_counter() - began))
            continue
        ran.append((check.id, verdict.value, time.perf_counter() - began))
        if verdict in (Verdict.VIOLATED, Verdict.VACUOUS):  # either fails 'trickspec check'
            return outcome(check.id)
        if verdict is Verdict.UNKNOWN:
            unknown.append(check.id)
    return outcome()


# -- results and the report -------------------------------------------------------------

class Outcome(enum.Enum):
    EQUIVALENT = "probably equivalent"
    BUILD = "killed by the build"
    KILLED = "killed by a property"
    SURVIVED = "survived"
    UNKNOWN = "survived (unknown)"


@dataclass(frozen=True)
class MutantResult:
    """The fate of one mutant.

    ``killed_by`` names the check that killed it, or gives the build error; ``difference``
    is the first difference the screen saw; ``engine_error`` an exception of the mutant's
    engine; ``check_errors`` checks that raised; ``unknown`` checks that answered UNKNOWN.
    """

    id: str
    rule_id: str
    operator: str
    description: str
    outcome: Outcome
    killed_by: str = ""
    seconds: float = 0.0
    difference: str = ""
    engine_error: str = ""
    check_errors: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    checks: tuple[tuple[str, str, float], ...] = ()

    @property
    def killed(self) -> bool:
        return self.outcome in (Outcome.BUILD, Outcome.KILLED)

    @property
    def findings(self) -> tuple[str, ...]:
        """What to fix in the tool: an engine error no check caught; checks that raised."""
        out = list(self.check_errors)
        if self.engine_error and not self.killed:
            out.insert(0, f"engine: {self.engine_error}")
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["outcome"] = self.outcome.value
        out["seconds"] = round(self.seconds, 3)
        out["check_errors"] = list(self.check_errors)
        out["unknown"] = list(self.unknown)
        out["checks"] = [[c, v, round(t, 3)] for c, v, t in self.checks]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MutantResult:
        return cls(**{**data, "outcome": Outcome(data["outcome"]),
                      "check_errors": tuple(data.get("check_errors", ())),
                      "unknown": tuple(data.get("unknown", ())),
                      "checks": tuple((c, v, t) for c, v, t in data.get("checks", ()))})


TARGET_RATE = 0.90
TARGET_SECONDS = 600.0


@dataclass(frozen=True)
class Report:
    """A game's mutation run: every mutant's fate, the settings and the wall time."""

    game: str
    name: str
    results: tuple[MutantResult, ...]
    seconds: float
    jobs: int
    seeds: int
    seed: int
    generated: int
    baseline: Mapping[str, Baseline] = field(default_factory=dict)

    def count(self, outcome: Outcome) -> int:
        return sum(1 for r in self.results if r.outcome is outcome)

    @property
    def non_equivalent(self) -> tuple[MutantResult, ...]:
        return tuple(r for r in self.results if r.outcome is not Outcome.EQUIVALENT)

    @property
    def killed(self) -> int:
        return sum(1 for r in self.results if r.killed)

    @property
    def rate(self) -> float | None:
        """Killed / non-equivalent mutants (None when every mutant is equivalent)."""
        n = len(self.non_equivalent)
        return self.killed / n if n else None

    def _rates(self, key: Callable[[MutantResult], str]) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, int]] = {}
        for r in self.non_equivalent:
            k, n = out.get(key(r), (0, 0))
            out[key(r)] = (k + r.killed, n + 1)
        return out

    @property
    def per_rule(self) -> dict[str, tuple[int, int]]:
        """Each touched rule's (killed, non-equivalent) mutants, in rulebook order."""
        return self._rates(lambda r: r.rule_id)

    @property
    def per_operator(self) -> dict[str, tuple[int, int]]:
        return self._rates(lambda r: r.operator)

    @property
    def survivors(self) -> tuple[MutantResult, ...]:
        return tuple(r for r in self.results if r.outcome in (Outcome.SURVIVED, Outcome.UNKNOWN))

    @property
    def findings(self) -> tuple[MutantResult, ...]:
        return tuple(r for r in self.results if r.findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "trickspec-mutate/1", "game": self.game, "name": self.name,
            "seconds": round(self.seconds, 3), "jobs": self.jobs, "seeds": self.seeds,
            "seed": self.seed, "generated": self.generated,
            "summary": {
                "mutants": len(self.results),
                **{o.name.lower(): self.count(o) for o in Outcome},
                "non_equivalent": len(self.non_equivalent), "killed": self.killed,
                "rate": None if self.rate is None else round(self.rate, 4),
                "findings": len(self.findings),
            },
            "per_rule": {k: {"killed": a, "mutants": b} for k, (a, b) in self.per_rule.items()},
            "per_operator": {k: {"killed": a, "mutants": b}
                             for k, (a, b) in self.per_operator.items()},
            "baseline": {k: {"verdict": b.verdict, "seconds": round(b.seconds, 3)}
                         for k, b in self.baseline.items()},
            "results": [r.to_json() for r in self.results],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Report:
        """Read back :meth:`to_json` (the summary is recomputed, not read)."""
        if data.get("format") != "trickspec-mutate/1":
            raise NotationError("not a trickspec mutation report (format should be "
                                "'trickspec-mutate/1')", value=data.get("format"))
        return cls(
            game=data["game"], name=data["name"],
            results=tuple(MutantResult.from_json(r) for r in data["results"]),
            seconds=data["seconds"], jobs=data["jobs"], seeds=data["seeds"], seed=data["seed"],
            generated=data["generated"],
            baseline={k: Baseline(b["verdict"], b["seconds"])
                      for k, b in data.get("baseline", {}).items()},
        )

    def render(self) -> str:
        """The report as text: summary, rate per rule, survivors, equivalents, findings."""
        rate = "n/a" if self.rate is None else f"{100 * self.rate:.1f} %"
        sample = (f" (a sample of {len(self.results)} of {self.generated})"
                  if len(self.results) != self.generated else "")
        lines = [
            f"{self.name}: {len(self.results)} mutants{sample}, {self.seconds:.0f} s with "
            f"{self.jobs} worker(s), screen of {self.seeds} seeds from {self.seed}",
            f"  probably equivalent  {self.count(Outcome.EQUIVALENT):4}",
            f"  killed by the build  {self.count(Outcome.BUILD):4}",
            f"  killed by a property {self.count(Outcome.KILLED):4}",
            f"  survived             {self.count(Outcome.SURVIVED):4}",
            f"  survived (unknown)   {self.count(Outcome.UNKNOWN):4}",
            f"  kill rate            {self.killed}/{len(self.non_equivalent)} = {rate} "
            f"(target ≥ {100 * TARGET_RATE:.0f} %)",
            f"  engine/check findings {len(self.findings):3}",
        ]
        bad = {k: b.verdict for k, b in self.baseline.items() if b.verdict != "HOLDS"}
        if bad:
            lines.append("  checks not holding on the original (they kill nothing): "
                         + ", ".join(f"{k} {v}" for k, v in bad.items()))
        lines.append("Per operator (killed/non-equivalent):")
        lines += [f"  {k:14} {a:3}/{b:<3}" for k, (a, b) in self.per_operator.items()]
        lines.append("Per rule (killed/non-equivalent):")
        lines += [f"  {k:40} {a:3}/{b:<3}" + ("" if a == b else "  ←")
                  for k, (a, b) in self.per_rule.items()]
        for title, outcome in (("Survivors", Outcome.SURVIVED),
                               ("Survivors (unknown)", Outcome.UNKNOWN)):
            rows = [r for r in self.results if r.outcome is outcome]
            if rows:
                lines.append(f"{title}:")
                for r in rows:
                    extra = f"  [unknown: {', '.join(r.unknown)}]" if r.unknown else ""
                    lines.append(f"  {r.id:34} {r.description}{extra}")
        eq = [r for r in self.results if r.outcome is Outcome.EQUIVALENT]
        if eq:
            lines.append("Probably equivalent:")
            lines += [f"  {r.id:34} {r.description}" for r in eq]
        if self.findings:
            lines.append("Findings (engine or check errors to fix):")
            for r in self.findings:
                for f in r.findings:
                    lines.append(f"  {r.id:34} {f}")
        return "\n".join(lines)


# -- running a game's mutants --------------------------------------------------------------

@dataclass(frozen=True)
class _Settings:
    seeds: int
    seed: int
    matches: int
    timeout: float
    rlimit: int | None
    budget: float | None
    deal_limit: float | None


_WORKER: dict[str, Any] = {}


def _init_worker(game: Game, settings: _Settings) -> None:
    _WORKER.clear()
    _WORKER.update(game=game, settings=settings, mutants={m.id: m for m in mutants(game)})


def _judge(mutant_id: str, base: Mapping[str, Baseline]) -> MutantResult:
    """Build, screen and check one mutant (in a worker set up by ``_init_worker``)."""
    game: Game = _WORKER["game"]
    st: _Settings = _WORKER["settings"]
    m: Mutant = _WORKER["mutants"][mutant_id]
    start = time.perf_counter()

    def result(outcome: Outcome, **kw: Any) -> MutantResult:
        return MutantResult(m.id, m.rule_id, m.operator.value, m.description, outcome,
                            seconds=time.perf_counter() - start, **kw)

    try:
        built = m.build()
    except (SpecDefinitionError, NotationError) as e:
        return result(Outcome.BUILD, killed_by=str(e)[:300])
    seen = screen(game, built, seeds=st.seeds, seed=st.seed, matches=st.matches,
                  time_limit=st.deal_limit)
    # the bots' deals can miss a rule that seldom comes into play (a claim in the last
    # trick, say): the checks covering the touched rules still run, and one that fails
    # shows the mutant is not equivalent
    got = check_mutant(built, m.rules, base=base, timeout=st.timeout, rlimit=st.rlimit,
                       budget=st.budget, covering_only=seen.equivalent)
    if seen.equivalent and not got.killed_by:
        drop_engine(built)
        return result(Outcome.EQUIVALENT, check_errors=got.errors, checks=got.ran)
    if got.killed_by:
        outcome = Outcome.KILLED
    elif got.unknown or got.out_of_budget:
        outcome = Outcome.UNKNOWN
    else:
        outcome = Outcome.SURVIVED
    unknown = got.unknown + (("(budget spent)",) if got.out_of_budget else ())
    drop_engine(built)  # a worker judges many mutants
    return result(outcome, killed_by=got.killed_by, difference=seen.difference,
                  engine_error=seen.engine_error, check_errors=got.errors, unknown=unknown,
                  checks=got.ran)


def _on_cluster(key: str, variants: tuple[str, ...], settings: _Settings) -> None:
    """On a cluster's worker: the registered game of ``key`` with ``variants`` and its
    mutants, made once for the tasks of one run."""
    if _WORKER.get("key") != (key, variants, settings):
        from spec.registry import find_game
        base = find_game(key)
        _init_worker(base.with_variants(*variants) if variants else base, settings)
        _WORKER["key"] = (key, variants, settings)


def _cluster_baseline(key: str, variants: tuple[str, ...], settings: _Settings, check_id: str
                      ) -> tuple[str, Baseline]:
    _on_cluster(key, variants, settings)
    return _baseline_task(check_id)


def _cluster_judge(key: str, variants: tuple[str, ...], settings: _Settings, mutant_id: str,
                   base: Mapping[str, Baseline]) -> MutantResult:
    _on_cluster(key, variants, settings)
    return _judge(mutant_id, base)


def _on_the_cluster(client: Any, game: Game, settings: _Settings, check_ids: Sequence[str],
                    chosen: Sequence[Mutant], base: dict[str, Baseline],
                    results: dict[str, MutantResult], say: Callable[[str], None]) -> int:
    """The baseline checks, then the mutants, judged as tasks on the cluster of
    ``client``; the number of its workers."""
    from verifier.cluster import run_tasks
    for cid, b in run_tasks(client, _cluster_baseline,
                            [(game.key, game.active_variants, settings, cid)
                             for cid in check_ids]):
        base[cid] = b
        say(f"baseline {cid}: {b.verdict} {b.seconds:.1f}s")
    done = [0]

    def judged(_k: int, r: MutantResult) -> None:
        done[0] += 1
        say(_progress_line(done[0], len(chosen), r))
    for r in run_tasks(client, _cluster_judge,
                       [(game.key, game.active_variants, settings, m.id, base)
                        for m in chosen], judged):
        results[r.id] = r
    return len(client.scheduler_info().get("workers", {})) or 1


def _baseline_task(check_id: str) -> tuple[str, Baseline]:
    st: _Settings = _WORKER["settings"]
    return _baseline_one(_WORKER["game"], check_id, st.timeout, st.rlimit)


def _progress_line(done: int, total: int, r: MutantResult) -> str:
    what = r.outcome.value
    if r.outcome is Outcome.KILLED:
        what += f" ({r.killed_by})"
    if r.findings:
        what += " [finding]"
    return f"[{done:>{len(str(total))}}/{total}] {r.id:34} {what:60} {r.seconds:6.1f}s"


def mutate(game: Game, *, jobs: int | None = None, seeds: int = DEFAULT_SEEDS, seed: int = 0,
           matches: int = DEFAULT_MATCHES, only: Sequence[str] = (), limit: int | None = None,
           timeout: float = 20.0, rlimit: int | None = DEFAULT_RLIMIT, budget: float | None = 180.0,
           deal_limit: float | None = None, progress: Callable[[str], None] | None = None,
           client: Any = None) -> Report:
    """Generate a game's mutants and judge each: build, equivalence screen, checks.

    Args:
        game: the game (any ``Game``; the registered ones are in ``spec.registry.GAMES``).
        jobs: worker processes (default: the number of cores); 1 runs in this process.
        seeds: deals the screen plays per mutant, from seed ``seed`` on; ``matches`` whole
            matches, rubbers or sessions after them.
        only: judge only the mutants touching these rule ids.
        limit: judge a sample of at most this many mutants (drawn with ``seed``).
        timeout: seconds per solver query; rlimit: Z3 resource units per query.
        budget: seconds of checks per mutant; a mutant still alive then survived (unknown).
        deal_limit: seconds the screen may play one mutant before it is an engine error
            (default: 5 s plus ten times what the original took).
        progress: called with one line per judged mutant (and per baseline check).
        client: a Dask client (:func:`verifier.cluster.connected`): the baseline checks
            and the mutants are judged on its cluster, a task each, instead of in
            ``jobs`` processes (the game must be a registered one, which each worker
            builds by its key).

    Raises:
        NotationError: a rule id in ``only`` is not a rule of the game.
    """
    start = time.perf_counter()
    jobs = jobs or os.cpu_count() or 1
    everything = mutants(game)
    chosen = chosen_mutants(game, only, everything)
    if limit is not None and limit < len(chosen):
        keep = set(random.Random(seed).sample(range(len(chosen)), limit))
        chosen = [m for i, m in enumerate(chosen) if i in keep]
    settings = _Settings(seeds, seed, matches, timeout, rlimit, budget, deal_limit)
    say = progress or (lambda _line: None)
    check_ids = [c.id for c in checks_for(game)]
    results: dict[str, MutantResult] = {}
    base: dict[str, Baseline] = {}
    if client is not None:
        jobs = _on_the_cluster(client, game, settings, check_ids, chosen, base, results, say)
    elif jobs == 1:
        saved = dict(_WORKER)
        _init_worker(game, settings)
        try:
            for cid in check_ids:
                base.update([_baseline_task(cid)])
                say(f"baseline {cid}: {base[cid].verdict} {base[cid].seconds:.1f}s")
            for i, m in enumerate(chosen, 1):
                results[m.id] = _judge(m.id, base)
                say(_progress_line(i, len(chosen), results[m.id]))
        finally:
            _WORKER.clear()
            _WORKER.update(saved)
    else:
        # Ctrl-C: the workers, which ignore it, are ended at once
        with worker_pool(jobs, _init_worker, (game, settings)) as pool:
            for cid, b in pool.map(_baseline_task, check_ids):
                base[cid] = b
                say(f"baseline {cid}: {b.verdict} {b.seconds:.1f}s")
            futures = {pool.submit(_judge, m.id, base): m.id for m in chosen}
            for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
                mid = futures[fut]
                try:
                    results[mid] = fut.result()
                except Exception as e:  # noqa: BLE001  # a worker that dies is a finding
                    m = next(x for x in chosen if x.id == mid)
                    results[mid] = MutantResult(m.id, m.rule_id, m.operator.value, m.description,
                                                Outcome.UNKNOWN,
                                                check_errors=(f"worker: {type(e).__name__}: {e}",))
                say(_progress_line(i, len(chosen), results[mid]))
    return Report(game.key, game.name, tuple(results[m.id] for m in chosen),
                  time.perf_counter() - start, jobs, seeds, seed, len(everything), base)
