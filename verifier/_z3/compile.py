"""Rule expressions to Z3 terms, over the same encodings as the engine.

* CARDS: a bit-vector as wide as the deck; bit *i* is card *i* of the deck.
* CARD: a one-hot bit-vector of the same width (exactly one bit set).
* SUIT, SEAT, INT, BID: integers (suit codes 0..4, seat numbers, bid numbers).
* BOOL: a Boolean.

A compiler is given an environment that maps the context values of a scope to Z3 terms;
values that the game's own rules define (legal cards, trick winner, scores) are expanded
from :mod:`spec.dsl._derive`, exactly as the engine's compiler expands them.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import z3

from spec.cards import SUITS, Card, CardSet
from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game, suit_code
from spec.dsl._nodes import (
    NO_SUIT,
    Announcing,
    Certain,
    Arith,
    Awarded,
    BidAttr,
    BidField,
    BoolOp,
    CallerOf,
    CardsOfSuit,
    CardValue,
    Compare,
    Const,
    Contains,
    Count,
    Ctx,
    DealtHand,
    EachSeat,
    Dropped,
    Expr,
    Idle,
    IfThenElse,
    Implies,
    Invited,
    IsDeclarer,
    IsEmpty,
    LeaderOf,
    LedTo,
    LegalCall,
    LegalCards,
    Let,
    Lowest,
    MayAnnounce,
    Not,
    Op,
    PartnerOf,
    PlayedTo,
    PointsWon,
    Receives,
    Ref,
    ScoreOf,
    SeatAfter,
    SetOp,
    Strength,
    SuitOf,
    SumValues,
    T,
    Taken,
    Tracked,
    TrackedAfter,
    TricksWon,
    Var,
    WinnerOf,
    WithDealt,
    WonTrick,
    children,
)
from spec.dsl._pycompile import derived_ref
from spec.dsl._visitor import RuleVisitor
from verifier._z3.solver import Solving
from verifier.errors import UnsupportedNodeError

EnvKey = Any


class Encoding:
    """The per-game constants of the Z3 encoding, in one Z3 context."""

    def __init__(self, game: Game, ctx: z3.Context) -> None:
        self.game = game
        self.ctx = ctx
        self.width = len(game.deck)
        self.full = (1 << self.width) - 1
        self.suit_masks = tuple(game.deck.cards_of(s).mask for s in SUITS)
        ladder = game.one(K.Ladder)
        assert isinstance(ladder, K.Ladder)
        self.levels = ladder.levels
        self.strains = ladder.strains
        order = game.one(K.BidOrder)
        assert isinstance(order, K.BidOrder)
        self.key_expr = order.key
        self._bid_terms: dict[tuple[str, int], tuple[Any, Any]] = {}
        # situations built in this encoding (see encoding.py), each built once
        self.made: dict[tuple[Any, ...], Any] = {}
        # whether each expression compiled here reads the pot (see _reads_pot)
        self.pot_reads: dict[int, tuple[Expr, bool]] = {}

    @classmethod
    def of(cls, game: Game, solving: Solving) -> Encoding:
        """The encoding of ``game`` in the context of ``solving``: made once there, and
        shared by every check that works in it (with the situations built in it)."""
        key = ("encoding", id(game))
        hit = solving.memo.get(key)
        if hit is None or hit[0] is not game:
            hit = solving.memo[key] = (game, cls(game, solving.ctx))
        return hit[1]  # type: ignore[no-any-return]

    # -- sorts and constants ---------------------------------------------------------
    def bv(self, value: int) -> z3.BitVecRef:
        return z3.BitVecVal(value, self.width, self.ctx)

    def int(self, value: int) -> z3.ArithRef:
        return z3.IntVal(value, self.ctx)

    def bool(self, value: bool) -> z3.BoolRef:
        return z3.BoolVal(value, self.ctx)

    def cards_var(self, name: str) -> z3.BitVecRef:
        return z3.BitVec(name, self.width, self.ctx)

    def int_var(self, name: str) -> z3.ArithRef:
        return z3.Int(name, self.ctx)

    def bool_var(self, name: str) -> z3.BoolRef:
        return z3.Bool(name, self.ctx)

    def select(self, index: Any, items: list[Any], keys: list[Any] | None = None) -> Any:
        """The item whose key (by default its position) equals the symbolic ``index``."""
        keys = list(range(len(items))) if keys is None else keys
        out = items[-1]
        for key, item in zip(reversed(keys[:-1]), reversed(items[:-1])):
            out = z3.If(index == key, item, out)
        return out

    def owned_by(self, owners: list[Any], seat: Any) -> z3.BitVecRef:
        """The cards whose owner (``owners[i]``, a term per card of the deck; missing ones
        belong to nobody) is ``seat``, as a card set."""
        one, zero = z3.BitVecVal(1, 1, self.ctx), z3.BitVecVal(0, 1, self.ctx)
        bits = [z3.If(owners[i] == seat, one, zero) if i < len(owners) else zero
                for i in reversed(range(self.width))]
        return z3.Concat(*bits) if self.width > 1 else bits[0]

    def one_hot(self, x: z3.BitVecRef) -> z3.BoolRef:
        return z3.And(x != 0, (x & (x - 1)) == 0)

    def popcount(self, x: z3.BitVecRef) -> z3.ArithRef:
        """The number of bits set in ``x``: the sum over its bits of 1 for each bit set.
        Made through the C API (the term ``Sum(If(Extract(i, i, x) == 1, 1, 0) ...)``
        makes, at a fraction of its cost): a deal search counts cards a few times per
        constraint, at a bit per card of the deck a count."""
        ctx, r = self.ctx, self.ctx.ref()
        bit, one, zero = z3.BitVecVal(1, 1, ctx), self.int(1), self.int(0)
        terms = []
        for i in range(self.width):
            b = z3.BitVecRef(z3.Z3_mk_extract(r, i, i, x.as_ast()), ctx)
            is_set = z3.BoolRef(z3.Z3_mk_eq(r, b.as_ast(), bit.as_ast()), ctx)
            terms.append(z3.ArithRef(z3.Z3_mk_ite(r, is_set.as_ast(), one.as_ast(),
                                                  zero.as_ast()), ctx))
        args = (z3.Ast * len(terms))(*[t.as_ast() for t in terms])
        return z3.ArithRef(z3.Z3_mk_add(r, len(terms), args), ctx)

    def card_index(self, x: z3.BitVecRef, model: z3.ModelRef) -> int:
        v = model.eval(x, model_completion=True).as_long()
        return v.bit_length() - 1

    # -- bids ---------------------------------------------------------------------------
    def bid_in_ladder(self, b: z3.ArithRef) -> z3.BoolRef:
        return z3.And(b >= 0, b < len(self.game.ladder))

    def _bid_term(self, what: str, b: z3.ArithRef, make: Callable[[], z3.ArithRef]) -> z3.ArithRef:
        """A term about bid ``b``, made once per term: Z3 shares equal terms, so the
        same ``b`` is the same term, and its long chains of cases are built only once."""
        key = (what, b.get_id())
        hit = self._bid_terms.get(key)
        if hit is None:
            hit = self._bid_terms[key] = (b, make())  # keep b alive so its id stays its own
        return hit[1]

    def bid_level(self, b: z3.ArithRef) -> z3.ArithRef:
        """The level of bid number ``b``, as constants chosen by ranges of ``b`` (no
        division: a product of a level and a count then splits into linear cases)."""
        if z3.is_int_value(b):  # a known bid: its level, as the cases below would choose
            at = b.as_long() // len(self.strains)
            return self.int(self.levels[at] if 0 <= at < len(self.levels) else
                            self.levels[0] if at < 0 else self.levels[-1])

        def make() -> z3.ArithRef:
            s = len(self.strains)
            lv = self.levels
            out: z3.ArithRef = self.int(lv[-1])
            for i in range(len(lv) - 2, -1, -1):
                out = z3.If(b < s * (i + 1), self.int(lv[i]), out)
            return out
        return self._bid_term("level", b, make)

    def bid_strain_rank(self, b: z3.ArithRef) -> z3.ArithRef:
        if z3.is_int_value(b):  # Z3's mod by a positive number, like Python's, is never negative
            return self.int(b.as_long() % len(self.strains))
        return b % len(self.strains)

    def bid_strain(self, b: z3.ArithRef) -> z3.ArithRef:
        def make() -> z3.ArithRef:
            r = self.bid_strain_rank(b)
            out: z3.ArithRef = self.int(suit_code(self.strains[-1]))
            for i in range(len(self.strains) - 2, -1, -1):
                out = z3.If(r == i, self.int(suit_code(self.strains[i])), out)
            return out
        return self._bid_term("strain", b, make)

    def bid_key(self, b: z3.ArithRef) -> z3.ArithRef:
        def make() -> z3.ArithRef:
            env = {Ctx.LEVEL: self.bid_level(b), Ctx.STRAIN_RANK: self.bid_strain_rank(b)}
            return Z3Compiler(self, env).visit(self.key_expr)  # type: ignore[no-any-return]
        return self._bid_term("key", b, make)


_MOST_CASES = 64  # the most values of a factor written out case by case


def _value_range(game: Game, e: Expr) -> tuple[int, int] | None:
    """The least and greatest value of a whole-number expression built from numbers and
    counts of tricks (by ``+``, ``-``, ``*``, a choice between two and a total over the
    seats), when there are at most :data:`_MOST_CASES` of them; None for any other
    expression."""
    span: tuple[int, int] | None = None
    if isinstance(e, Const) and e.type is T.INT:
        span = (int(e.value), int(e.value))  # type: ignore[call-overload]
    elif isinstance(e, TricksWon):
        span = (0, game.tricks)
    elif isinstance(e, EachSeat):
        one = _value_range(game, e.amount)
        span = None if one is None else (game.players * one[0], game.players * one[1])
    elif isinstance(e, IfThenElse) and e.type is T.INT:
        a, b = _value_range(game, e.then), _value_range(game, e.orelse)
        span = None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
    elif isinstance(e, Arith) and e.op in (Op.ADD, Op.SUB, Op.MUL):
        a, b = _value_range(game, e.lhs), _value_range(game, e.rhs)
        if a is not None and b is not None:
            if e.op is Op.ADD:
                span = (a[0] + b[0], a[1] + b[1])
            elif e.op is Op.SUB:
                span = (a[0] - b[1], a[1] - b[0])
            else:
                ends = [x * y for x in a for y in b]
                span = (min(ends), max(ends))
    return span if span is not None and span[1] - span[0] < _MOST_CASES else None


def _reads_pot(e: Expr, memo: dict[int, tuple[Expr, bool]]) -> bool:
    """Whether ``e`` reads the pot.  ``memo`` keeps the answer for each node looked at (by
    id, with the node, so that the id stays its own): a subexpression shared by several
    parts of an expression, or by several products, is looked at once."""
    hit = memo.get(id(e))
    if hit is not None:
        return hit[1]
    out = (isinstance(e, Ref) and e.ctx is Ctx.POT) or any(_reads_pot(c, memo)
                                                          for c in children(e))
    memo[id(e)] = (e, out)
    return out


def _by_values(x: Any, y: Any, span: tuple[int, int]) -> Any:
    """``x * y`` written as a choice among the values ``x`` may take, each a number times
    ``y``.  The pot is the one number a rule reads that has no bound, and a product of it
    with a count of tricks (a tenth of the pot a trick) is beyond Z3's linear arithmetic;
    case by case, each product is linear.  The last case is the product itself, so the
    term is ``x * y`` whatever ``x`` is."""
    out = x * y
    for k in range(span[1], span[0] - 1, -1):
        out = z3.If(x == k, k * y, out)
    return out


class Z3Compiler(D.ByDerivation, RuleVisitor[Any]):
    """Compile an expression to a Z3 term in an environment of context values."""

    def __init__(self, enc: Encoding, env: Mapping[EnvKey, Any]) -> None:
        self.enc = enc
        self.game = enc.game
        self.env: dict[EnvKey, Any] = dict(env)
        self._memo: dict[int, Any] = {}

    def visit(self, node: Expr) -> Any:
        key = id(node)
        hit = self._memo.get(key)
        if hit is not None:
            return hit[1]
        out = super().visit(node)
        self._memo[key] = (node, out)  # keep the node alive so its id stays unique
        return out

    def _with(self, key: EnvKey, value: Any) -> Z3Compiler:
        c = Z3Compiler(self.enc, self.env)
        c.env[key] = value
        return c

    def const(self, value: object, t: T) -> Any:
        enc = self.enc
        if t is T.BOOL:
            return enc.bool(bool(value))
        if t is T.INT or t is T.SEAT:
            return enc.int(int(value))  # type: ignore[call-overload]
        if t is T.SUIT:
            return enc.int(suit_code(value))  # type: ignore[arg-type]
        if t is T.CARD:
            assert isinstance(value, Card)
            return enc.bv(1 << self.game.deck.index(value))
        if t is T.CARDS:
            mask = value.mask if isinstance(value, CardSet) else CardSet.of(self.game.deck, value).mask  # type: ignore[arg-type]
            return enc.bv(mask)
        raise UnsupportedNodeError(Const(value, t), "z3", f"constant of type {t.value}")

    def visit_Const(self, node: Const) -> Any:
        return self.const(node.value, node.type)

    def visit_Ref(self, node: Ref) -> Any:
        key: EnvKey = node.ctx if node.index is None else (node.ctx, node.index)
        if key in self.env:
            return self.env[key]
        derived = derived_ref(self.game, node)
        if derived is not None:
            return self.visit(derived)
        raise UnsupportedNodeError(node, "z3", f"no value for {node!r} in this scope")

    def visit_Var(self, node: Var) -> Any:
        if node in self.env:
            return self.env[node]
        raise UnsupportedNodeError(node, "z3", f"free variable {node.name} is not bound")

    def visit_Not(self, node: Not) -> Any:
        return z3.Not(self.visit(node.arg))

    def visit_BoolOp(self, node: BoolOp) -> Any:
        args = [self.visit(a) for a in node.args]
        return z3.And(*args) if node.op is Op.AND else z3.Or(*args)

    def visit_Implies(self, node: Implies) -> Any:
        return z3.Implies(self.visit(node.cond), self.visit(node.then))

    def visit_Compare(self, node: Compare) -> Any:
        a, b = self.visit(node.lhs), self.visit(node.rhs)
        return {
            Op.EQ: lambda: a == b, Op.NE: lambda: a != b, Op.LT: lambda: a < b,
            Op.LE: lambda: a <= b, Op.GT: lambda: a > b, Op.GE: lambda: a >= b,
        }[node.op]()

    def visit_Arith(self, node: Arith) -> Any:
        a, b = self.visit(node.lhs), self.visit(node.rhs)
        if node.op is Op.MUL:
            for small, big, x, y in ((node.lhs, node.rhs, a, b), (node.rhs, node.lhs, b, a)):
                if not _reads_pot(big, self.enc.pot_reads):
                    continue
                span = _value_range(self.game, small)
                if span is not None:
                    return _by_values(x, y, span)
        # a // b: b is a positive constant, where Z3's integer division is floor division
        return {Op.ADD: lambda: a + b, Op.SUB: lambda: a - b, Op.MUL: lambda: a * b,
                Op.DIV: lambda: a / b}[node.op]()

    def visit_IfThenElse(self, node: IfThenElse) -> Any:
        return z3.If(self.visit(node.cond), self.visit(node.then), self.visit(node.orelse))

    def visit_SetOp(self, node: SetOp) -> Any:
        a, b = self.visit(node.lhs), self.visit(node.rhs)
        if node.op is Op.UNION:
            return a | b
        if node.op is Op.INTER:
            return a & b
        return a & ~b

    def visit_Contains(self, node: Contains) -> Any:
        return (self.visit(node.cards) & self.visit(node.card)) != 0

    def visit_IsEmpty(self, node: IsEmpty) -> Any:
        return self.visit(node.cards) == 0

    def visit_Count(self, node: Count) -> Any:
        return self.enc.popcount(self.visit(node.cards))

    def visit_SuitOf(self, node: SuitOf) -> Any:
        c = self.visit(node.card)
        out = self.enc.int(NO_SUIT)
        for code in range(len(SUITS) - 1, -1, -1):
            out = z3.If((c & self.enc.bv(self.enc.suit_masks[code])) != 0, self.enc.int(code), out)
        return out

    def visit_CardsOfSuit(self, node: CardsOfSuit) -> Any:
        s = self.visit(node.suit)
        out = self.enc.bv(0)
        for code in range(len(SUITS) - 1, -1, -1):
            out = z3.If(s == code, self.enc.bv(self.enc.suit_masks[code]), out)
        return out

    def visit_Lowest(self, node: Lowest) -> Any:
        s = self.visit(node.cards)
        deck, ranks, enc = self.game.deck, self.game.rank_table, self.enc
        out = enc.bv(0)
        for i, c in enumerate(deck):
            below = sum(1 << j for j, d in enumerate(deck)
                        if d.suit == c.suit and ranks.value(d) < ranks.value(c))
            keep = z3.And(z3.Extract(i, i, s) == 1, s & enc.bv(below) == 0)
            out = out | z3.If(keep, enc.bv(1 << i), enc.bv(0))
        return out

    def visit_CardValue(self, node: CardValue) -> Any:
        # a card is one bit (or none, for an empty place): its value is the sum over its bits,
        # which tests single bits rather than comparing whole card sets
        c = self.visit(node.card)
        deck = self.game.deck
        if z3.is_bv_value(c):  # a known card (or none): its value, not a sum over the deck
            bits = c.as_long()
            if bits == 0:
                return self.enc.int(0)
            i = bits.bit_length() - 1
            if bits == 1 << i:
                return self.enc.int(node.table.value(deck[i]))
        return z3.Sum([z3.If(z3.Extract(i, i, c) == 1, self.enc.int(node.table.value(deck[i])),
                             self.enc.int(0))
                       for i in range(len(deck)) if node.table.value(deck[i])] or [self.enc.int(0)])

    def visit_SumValues(self, node: SumValues) -> Any:
        # a situation may name the sum of a table over the cards a seat took (so that the
        # sums of disjoint sets are terms Z3 can add up; see encoding.outcome_situation)
        per_seat = self.env.get(("sum_taken", node.table.name))
        if per_seat is not None and isinstance(node.cards, Taken):
            return per_seat(self.visit(node.cards.seat))
        s = self.visit(node.cards)
        deck = self.game.deck
        return z3.Sum([
            z3.If(z3.Extract(i, i, s) == 1, self.enc.int(node.table.value(deck[i])), self.enc.int(0))
            for i in range(len(deck))
        ])

    def visit_BidAttr(self, node: BidAttr) -> Any:
        b = self.visit(node.bid)
        enc = self.enc
        return {
            BidField.LEVEL: enc.bid_level, BidField.STRAIN: enc.bid_strain,
            BidField.STRAIN_RANK: enc.bid_strain_rank, BidField.KEY: enc.bid_key,
        }[node.field](b)

    def visit_SeatAfter(self, node: SeatAfter) -> Any:
        return (self.visit(node.seat) + node.steps) % self.game.players

    def visit_PartnerOf(self, node: PartnerOf) -> Any:
        table = self.game.table
        partners = [self.enc.int(table.partner(s) if table.partnerships else s)
                    for s in range(self.game.players)]
        return self.enc.select(self.visit(node.seat), partners)

    def visit_Tracked(self, node: Tracked) -> Any:
        key = ("tracked", node.name)
        if key not in self.env:
            raise UnsupportedNodeError(node, "z3", f"tracked value {node.name} not available here")
        return self.env[key]

    def visit_DealtHand(self, node: DealtHand) -> Any:
        fn = self.env.get(DealtHand)
        if fn is None:
            raise UnsupportedNodeError(node, "z3", "the hands as dealt are not known here")
        return fn(self.visit(node.seat))

    def visit_Idle(self, node: Idle) -> Any:
        fn = self.env.get(Idle)
        if fn is None:
            raise UnsupportedNodeError(node, "z3", "the idle seat is not known here")
        return fn(self.visit(node.seat))

    def visit_Dropped(self, node: Dropped) -> Any:
        fn = self.env.get(Dropped)
        if fn is None:
            raise UnsupportedNodeError(node, "z3", "who dropped out is not known here")
        return fn(self.visit(node.seat))

    def visit_Invited(self, node: Invited) -> Any:
        fn = self.env.get(Invited)
        if fn is None:
            raise UnsupportedNodeError(node, "z3", "the guest is not known here")
        return fn(self.visit(node.seat))

    def visit_IsDeclarer(self, node: IsDeclarer) -> Any:
        fn = self.env.get(IsDeclarer)
        if fn is None:
            raise UnsupportedNodeError(node, "z3", "the declarers are not known here")
        return fn(self.visit(node.seat))

    def visit_Certain(self, node: Certain) -> Any:
        raise UnsupportedNodeError(node, "z3", "whether a seat can be sure of every trick left "
                                   "asks for a way of playing good in every deal it cannot "
                                   "tell apart, a search no single query states")

    def visit_Taken(self, node: Taken) -> Any:
        fn = self.env.get(Taken)
        if fn is None:
            raise UnsupportedNodeError(node, "z3", "the cards taken are not known here")
        return fn(self.visit(node.seat))

    def visit_Let(self, node: Let) -> Any:
        inner = self._with(node.ctx, self.visit(node.value))
        if node.ctx is not Ctx.SEAT:
            # a situation's named trick points were worked out for its own contract, trump
            # and trick values; under another value they must be derived again
            inner.env.pop(PointsWon, None)
        return inner.visit(node.body)

    def visit_Strength(self, node: Strength) -> Any:
        return self.visit(D.strength_at(self.game, node.position))

    def visit_PointsWon(self, node: PointsWon) -> Any:
        named = self.env.get(PointsWon)  # a situation's named term per seat, if it has one
        if named is not None:
            return named(self.visit(node.seat))
        return self.visit(D.points_won(self.game, node.seat))

    def visit_TricksWon(self, node: TricksWon) -> Any:
        named = self.env.get(TricksWon)
        if named is not None:
            return named(self.visit(node.seat))
        return self.visit(D.tricks_won(self.game, node.seat))

    def visit_WonTrick(self, node: WonTrick) -> Any:
        fn: Callable[[Any, Any], Any] | None = self.env.get(WonTrick)
        if fn is None:
            raise UnsupportedNodeError(node, "z3", "the trick record is not known here")
        return fn(self.visit(node.seat), self.visit(node.number))

    def visit_ScoreOf(self, node: ScoreOf) -> Any:
        return self.visit(D.score(self.game, node.seat, node.line))

    def visit_Awarded(self, node: Awarded) -> Any:
        return self.visit(D.awarded(self.game, node.rule_id))

    def _history(self, node: Expr, *parts: Expr) -> Any:
        fn = self.env.get(type(node))
        if fn is None:
            raise UnsupportedNodeError(node, "z3", "only a deal played out has tricks to read")
        return fn(*(self.visit(p) for p in parts))

    def visit_PlayedTo(self, node: PlayedTo) -> Any:
        return self._history(node, node.trick, node.seat)

    def visit_LedTo(self, node: LedTo) -> Any:
        return self._history(node, node.trick)

    def visit_LeaderOf(self, node: LeaderOf) -> Any:
        return self._history(node, node.trick)

    def visit_WinnerOf(self, node: WinnerOf) -> Any:
        return self._history(node, node.trick)

    def visit_CallerOf(self, node: CallerOf) -> Any:
        return self._history(node, node.call)

    def visit_Receives(self, node: Receives) -> Any:
        return self._history(node, node.card)

    def visit_WithDealt(self, node: WithDealt) -> Any:
        old = self.env.get(DealtHand)
        if old is None:
            raise UnsupportedNodeError(node, "z3", "the hands as dealt are not known here")
        pairs = [(self.visit(s), self.visit(c)) for s, c in zip(node.seats, node.cards)]

        def dealt(seat: Any) -> Any:
            out = old(seat)
            for s, c in reversed(pairs):
                out = z3.If(seat == s, c, out)
            return out
        return self._with(DealtHand, dealt).visit(node.body)
