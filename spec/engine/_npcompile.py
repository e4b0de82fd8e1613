"""The rules compiled to numpy: an expression over many deals at once.

:class:`NpCompiler` writes a rule's expression as numpy source over columns (one entry a
deal) in the same integer encodings as :class:`~spec.dsl._pycompile.PyCompiler`, which it
follows case by case: where Python's source is already elementwise (``&``, ``|``, ``==``,
``+``, ``>>``) it is kept, and where it is not (``and``, ``not``, ``x if c else y``, a
lookup in a table, ``bit_count``) it is written with numpy's elementwise functions.  Both
branches of a choice are computed for every deal and one is kept, so a lookup in a table
wraps round instead of failing on an index that only the branch not taken would read.

Card sets are ``int64`` bit masks (a deck has at most 63 cards), seats, suits, bids and
counts ``int64``, truth values ``bool``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from spec.dsl._nodes import Op, WithDealt
from spec.dsl._pycompile import EnvKey, GameTables, PyCompiler
from spec.engine._env import Entry, Env, _names_in
from spec.engine._shared import shared_parts

# the functions of numpy source that a shared part may call: all pure
_PURE_CALLS = frozenset({"_take", "_count", "_and", "_or", "_at", "_lowest", "_sumv",
                         "np.where", "np.logical_not"})

if TYPE_CHECKING:
    from spec.dsl._build import Game


def _take(table: np.ndarray, index: Any) -> Any:
    """``table[index]`` elementwise, an index out of range wrapping round (-1: the last
    entry, as Python reads it)."""
    return np.take(table, index, mode="wrap")


def _count(cards: Any) -> Any:
    """The number of cards in each set."""
    return np.bitwise_count(np.asarray(cards, dtype=np.int64)).astype(np.int64)


def _and(*args: Any) -> Any:
    out = args[0]
    for a in args[1:]:
        out = np.logical_and(out, a)
    return out


def _or(*args: Any) -> Any:
    out = args[0]
    for a in args[1:]:
        out = np.logical_or(out, a)
    return out


def _at(table: Any, seat: Any) -> Any:
    """Each deal's entry for its seat: ``table`` has a seat a column (its last axis), the
    axes before it one entry a deal; ``seat`` one seat a deal (or one for every deal)."""
    table = np.asarray(table)
    if isinstance(seat, int | np.integer):  # one seat for every deal: its column
        return table[..., seat]
    seat = np.broadcast_to(np.asarray(seat, dtype=np.int64), table.shape[:-1])
    return np.take_along_axis(table, (seat % table.shape[-1])[..., None], axis=-1)[..., 0]


class NpTables:
    """The game's tables (those the Python rules read) as numpy arrays, and the helpers
    the numpy source calls."""

    def __init__(self, game: Game) -> None:
        self.py = py = GameTables(game)
        deck = len(game.deck)
        bits = np.int64(1) << np.arange(deck, dtype=np.int64)
        below = np.array(py.ns["_BELOW"], dtype=np.int64)

        def lowest(cards: Any) -> Any:
            c = np.asarray(cards, dtype=np.int64)[..., None]
            held = (c & bits) != 0
            alone = (c & below) == 0
            return np.where(held & alone, bits, 0).sum(axis=-1)

        def sum_values(values: np.ndarray, cards: Any) -> Any:
            c = np.asarray(cards, dtype=np.int64)[..., None]
            return np.where((c & bits) != 0, values[:deck], 0).sum(axis=-1)

        self.ns: dict[str, Any] = {"np": np, "_take": _take, "_count": _count, "_and": _and,
                                   "_or": _or, "_at": _at, "_lowest": lowest,
                                   "_sumv": sum_values, "_BITS": bits}
        self._sync()

    def _sync(self) -> None:
        for name, value in self.py.ns.items():
            if name not in self.ns and isinstance(value, tuple):
                self.ns[name] = np.array(value, dtype=np.int64)

    def table(self, table: Any) -> str:
        name = self.py.table(table)
        self._sync()
        return name


class NpCompiler(PyCompiler):
    """A rule's expression as numpy source over columns (see the module)."""

    def __init__(self, game: Game, tables: Any, env: Mapping[EnvKey, str]) -> None:
        super().__init__(game, tables, env)

    def _with(self, key: EnvKey, src: str) -> NpCompiler:
        c = NpCompiler(self.game, self.tables, self.env)
        c.env[key] = src
        return c

    def visit_Not(self, node: Any) -> str:
        return f"np.logical_not({self.visit(node.arg)})"

    def visit_BoolOp(self, node: Any) -> str:
        joiner = "_and" if node.op is Op.AND else "_or"
        return f"{joiner}({', '.join(self.visit(a) for a in node.args)})"

    def visit_Implies(self, node: Any) -> str:
        return f"_or(np.logical_not({self.visit(node.cond)}), {self.visit(node.then)})"

    def visit_IfThenElse(self, node: Any) -> str:
        return (f"np.where({self.visit(node.cond)}, {self.visit(node.then)}, "
                f"{self.visit(node.orelse)})")

    def visit_Count(self, node: Any) -> str:
        return f"_count({self.visit(node.cards)})"

    def visit_SuitOf(self, node: Any) -> str:
        return f"_take(_SUIT, {self.visit(node.card)})"

    def visit_CardsOfSuit(self, node: Any) -> str:
        return f"_take(_SUITMASK, {self.visit(node.suit)})"

    def visit_Lowest(self, node: Any) -> str:
        return f"_lowest({self.visit(node.cards)})"

    def visit_CardValue(self, node: Any) -> str:
        return f"_take({self.tables.table(node.table)}, {self.visit(node.card)})"

    def visit_SumValues(self, node: Any) -> str:
        return f"_sumv({self.tables.table(node.table)}, {self.visit(node.cards)})"

    def visit_BidAttr(self, node: Any) -> str:
        source = super().visit_BidAttr(node)  # NAME[bid]
        name, _, rest = source.partition("[")
        return f"_take({name}, {rest[:-1]})"

    def visit_PartnerOf(self, node: Any) -> str:
        return f"_take(_PARTNER, {self.visit(node.seat)})"

    def visit_WithDealt(self, node: WithDealt) -> str:
        from spec.dsl._nodes import DealtHand
        from spec.dsl._pycompile import UnsupportedNodeError
        if DealtHand not in self.env:
            raise UnsupportedNodeError(node, "batch", "the hands as dealt are not available here")
        template = self.env[DealtHand]
        for seat_e, cards_e in reversed(tuple(zip(node.seats, node.cards))):
            cards = self.visit(cards_e).replace("{", "{{").replace("}", "}}")
            seat = self.visit(seat_e).replace("{", "{{").replace("}", "}}")
            template = f"np.where(({{seat}}) == ({seat}), ({cards}), {template})"
        return self._with(DealtHand, template).visit(node.body)


class NpEnv(Env):
    """An environment whose entries are numpy source over columns; a rule compiled here
    judges every deal of a batch in one call."""

    def plus(self, *entries: Entry) -> NpEnv:
        return NpEnv(self.inputs, (*self.entries, *entries))

    def compile_np(self, game: Game, tables: NpTables, expr: Any, name: str,
                   shared: bool = False) -> Callable[..., Any]:
        """``expr`` as a function of this environment's parameters over columns; with
        ``shared``, the subexpressions it repeats computed once (every part of a numpy
        expression is computed whatever the branch, so any may be shared)."""
        body = NpCompiler(game, tables, self.compiler_env()).visit(expr)
        direct = _names_in(body) & set(self.vars)
        lines = [f"def {name}({', '.join(self.params)}):", *self._prologue(direct)]
        parts = shared_parts(body, _PURE_CALLS) if shared else None
        if parts is not None:
            lines += [*(f"    {line}" for line in parts[0]), f"    return {parts[1]}"]
        else:
            lines.append(f"    return {body}")
        ns = dict(tables.ns)
        source = "\n".join(lines) + "\n"
        exec(compile(source, f"<{game.key}:batch {name}>", "exec"), ns)  # noqa: S102  # generated from rule nodes only
        fn = ns[name]
        fn.source = source
        fn.reads = frozenset(direct)
        return fn  # type: ignore[no-any-return]


def np_env(inputs: tuple[str, ...], entries: Iterable[Entry]) -> NpEnv:
    return NpEnv(inputs, entries)
