"""The documentation back end: rule expressions and constructs written out as text.

:class:`ExprRenderer` is the third :class:`~spec.dsl._visitor.RuleVisitor`, beside the
engine's compiler and the Z3 compiler.  It writes an expression in the vocabulary a game
module uses (``~is_leading & hand.holds_any(cards_of(led_suit))``), so the formal
statement printed under each rule is the rule the other back ends run.  Long expressions
are broken over lines and indented; the output is deterministic, so it also fingerprints
a game's rules.
"""
from __future__ import annotations

import dataclasses
import enum
import hashlib
import textwrap
from collections.abc import Iterable

import spec.dsl as dsl
from spec.cards import Card, CardSet, Deck, Rank, Suit
from spec.dsl import _constructs as K
from spec.dsl._build import Game, Property, Rule, Source
from spec.dsl._nodes import (
    Arith,
    Awarded,
    BidAttr,
    BidField,
    BoolOp,
    CardsOfSuit,
    CardTable,
    CardValue,
    Compare,
    Const,
    Contains,
    Count,
    Ctx,
    DealtHand,
    Dropped,
    Lowest,
    Invited,
    Idle,
    EachDeclarer,
    EachSeat,
    IsDeclarer,
    Expr,
    IfThenElse,
    Implies,
    IsEmpty,
    LeaderOf,
    LedTo,
    LegalCall,
    MayAnnounce,
    Announcing,
    Certain,
    TrackedAfter,
    LegalCards,
    Let,
    Not,
    Op,
    PartnerOf,
    PlayedTo,
    PointsWon,
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
    TricksWon,
    Var,
    WinnerOf,
    CallerOf,
    Receives,
    WithDealt,
    WonTrick,
)
from spec.dsl._visitor import RuleVisitor

__all__ = ["ExprRenderer", "render", "render_construct", "fingerprint", "ctx_name"]

WIDTH = 76  # longest line before an expression is broken over several


def _vocabulary() -> dict[Ctx, str]:
    """The name a game module writes for each context value, read from :mod:`spec.dsl`."""
    names: dict[Ctx, str] = {}
    for name in dsl.__all__:
        value = getattr(dsl, name, None)
        if isinstance(value, Ref) and value.index is None:
            names.setdefault(value.ctx, name)
    for holder in ("call", "standing", "bid"):
        obj = getattr(dsl, holder)
        for attr in dir(type(obj)):
            if isinstance(getattr(type(obj), attr, None), property):
                value = getattr(obj, attr)
                if isinstance(value, Ref):
                    names.setdefault(value.ctx, f"{holder}.{attr}")
    return names


_NAMES = _vocabulary()
_INDEXED = {Ctx.PLAYED_CARD: "played_card", Ctx.PLAYED_SUIT: "played_suit",
            Ctx.PLAYED_DECLARED: "played_declared", Ctx.PLAYED_FACE_DOWN: "played_face_down"}


def ctx_name(ctx: Ctx) -> str:
    """How a game module reads a context value (``led_suit``, ``standing.bidder``)."""
    return _INDEXED.get(ctx) or _NAMES.get(ctx) or ctx.name.lower()


def value_text(value: object) -> str:
    """A constant as a player reads it: cards and suits with their symbols."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, Card):
        return value.symbol
    if isinstance(value, Suit):
        return value.symbol
    if value is None:
        return "no_suit"
    if isinstance(value, CardSet):
        if value.mask == value.deck.full.mask:
            return f"every card ({len(value)})"
        return "{" + value.symbols + "}" if value.mask else "{}"
    if isinstance(value, frozenset):
        cards = sorted(value, key=lambda c: (c.suit is None, c.suit.value if c.suit else "",
                                             c.rank.value))
        return "{" + " ".join(c.symbol for c in cards) + "}"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def _call(name: str, args: Iterable[str]) -> str:
    """``name(a, b)`` on one line when short, else one argument a line."""
    items = list(args)
    inline = f"{name}({', '.join(items)})"
    if len(inline) <= WIDTH and "\n" not in inline:
        return inline
    body = ",\n".join(textwrap.indent(a, "    ") for a in items)
    return f"{name}(\n{body})"


def _tuple(items: list[str]) -> str:
    """A Python tuple: one item keeps its comma."""
    if len(items) == 1:
        return f"({items[0]},)"
    return _call("", items)


def _atomic(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == " " and depth == 0:
            return False
    return True


def _paren(text: str) -> str:
    return text if _atomic(text) else f"({text})"


_ARITH_PRECEDENCE = {Op.ADD: 1, Op.SUB: 1, Op.MUL: 2, Op.DIV: 2}


class ExprRenderer(RuleVisitor[str]):
    """Write an expression in the notation of the game modules."""

    def _operand(self, child: Expr, parent: Expr, right: bool = False) -> str:
        """A sub-expression, in parentheses unless Python's precedence makes them needless."""
        text = self.visit(child)
        if isinstance(child, Arith) and isinstance(parent, Arith):
            mine, theirs = _ARITH_PRECEDENCE[child.op], _ARITH_PRECEDENCE[parent.op]
            if mine > theirs or (mine == theirs and not right):
                return text
            return f"({text})"
        return _paren(text)

    def _infix(self, op: str, parts: list[str]) -> str:
        inline = f" {op} ".join(parts)
        if len(inline) <= WIDTH and "\n" not in inline:
            return inline
        first, *rest = parts
        pad = " " * (len(op) + 1)
        return "\n".join([first] + [f"{op} {textwrap.indent(p, pad).lstrip()}" for p in rest])

    def visit_Const(self, node: Const) -> str:
        return value_text(node.value)

    def visit_Ref(self, node: Ref) -> str:
        name = ctx_name(node.ctx)
        return name if node.index is None else f"{name}({node.index})"

    def visit_Var(self, node: Var) -> str:
        return node.name

    def visit_Not(self, node: Not) -> str:
        arg = node.arg
        # hand.holds_any(x) is written as not-empty(hand & x)
        if isinstance(arg, IsEmpty) and isinstance(arg.cards, SetOp) and arg.cards.op is Op.INTER:
            return (f"{self._operand(arg.cards.lhs, arg.cards)}"
                    f".holds_any({self.visit(arg.cards.rhs)})")
        return "~" + _paren(self.visit(arg))

    def visit_BoolOp(self, node: BoolOp) -> str:
        args: list[Expr] = []
        stack = list(reversed(node.args))
        while stack:  # a & b & c is built as nested pairs: write it as one chain
            a = stack.pop()
            if isinstance(a, BoolOp) and a.op is node.op:
                stack.extend(reversed(a.args))
            else:
                args.append(a)
        return self._infix("&" if node.op is Op.AND else "|", [_paren(self.visit(a)) for a in args])

    def visit_Implies(self, node: Implies) -> str:
        return _call("implies", (self.visit(node.cond), self.visit(node.then)))

    def visit_Compare(self, node: Compare) -> str:
        return self._infix(node.op.value, [_paren(self.visit(node.lhs)), _paren(self.visit(node.rhs))])

    def visit_Arith(self, node: Arith) -> str:
        if node.op is Op.SUB and isinstance(node.lhs, Const) and node.lhs.value == 0:
            return "-" + _paren(self.visit(node.rhs))
        return self._infix(node.op.value, [self._operand(node.lhs, node),
                                           self._operand(node.rhs, node, right=True)])

    def visit_IfThenElse(self, node: IfThenElse) -> str:
        return _call("if_then_else", (self.visit(node.cond), self.visit(node.then),
                                      self.visit(node.orelse)))

    def visit_SetOp(self, node: SetOp) -> str:
        return self._infix(node.op.value, [_paren(self.visit(node.lhs)), _paren(self.visit(node.rhs))])

    def visit_Contains(self, node: Contains) -> str:
        return f"{_paren(self.visit(node.cards))}.holds({self.visit(node.card)})"

    def visit_IsEmpty(self, node: IsEmpty) -> str:
        return f"{_paren(self.visit(node.cards))}.is_empty"

    def visit_Count(self, node: Count) -> str:
        return f"{_paren(self.visit(node.cards))}.count"

    def visit_SuitOf(self, node: SuitOf) -> str:
        return f"{_paren(self.visit(node.card))}.suit"

    def visit_CardsOfSuit(self, node: CardsOfSuit) -> str:
        return _call("cards_of", (self.visit(node.suit),))

    def visit_Lowest(self, node: Lowest) -> str:
        return _call("lowest", (self.visit(node.cards),))

    def visit_CardValue(self, node: CardValue) -> str:
        return f"{_table(node.table)}[{self.visit(node.card)}]"

    def visit_SumValues(self, node: SumValues) -> str:
        return _call(f"{_table(node.table)}.total", (self.visit(node.cards),))

    def visit_BidAttr(self, node: BidAttr) -> str:
        attr = {BidField.STRAIN_RANK: "strain_rank"}.get(node.field, node.field.value)
        return f"{_paren(self.visit(node.bid))}.{attr}"

    def visit_SeatAfter(self, node: SeatAfter) -> str:
        args = [self.visit(node.seat)] + ([str(node.steps)] if node.steps != 1 else [])
        return _call("seat_after", args)

    def visit_PartnerOf(self, node: PartnerOf) -> str:
        return _call("partner", (self.visit(node.seat),))

    def visit_Tracked(self, node: Tracked) -> str:
        return f"tracked({node.name!r})"

    def visit_DealtHand(self, node: DealtHand) -> str:
        return _call("dealt_hand", (self.visit(node.seat),))

    def visit_Idle(self, node: Idle) -> str:
        return _call("idle", (self.visit(node.seat),))

    def visit_Dropped(self, node: Dropped) -> str:
        return _call("dropped", (self.visit(node.seat),))

    def visit_Invited(self, node: Invited) -> str:
        return _call("invited", (self.visit(node.seat),))

    def visit_IsDeclarer(self, node: IsDeclarer) -> str:
        return _call("declares", (self.visit(node.seat),))

    def visit_EachDeclarer(self, node: EachDeclarer) -> str:
        return _call("each_declarer", (self.visit(node.amount),))

    def visit_EachSeat(self, node: EachSeat) -> str:
        return _call("each_seat", (self.visit(node.amount),))

    def visit_Certain(self, node: Certain) -> str:
        args = (self.visit(node.seat),) + (("undecided=True",) if node.undecided else ())
        return _call("certain", args)

    def visit_Taken(self, node: Taken) -> str:
        return _call("taken", (self.visit(node.seat),))

    def visit_Let(self, node: Let) -> str:
        return _call("let", (ctx_name(node.ctx), self.visit(node.value), self.visit(node.body)))

    def visit_LegalCards(self, node: LegalCards) -> str:
        return "legal_cards"

    def visit_LegalCall(self, node: LegalCall) -> str:
        return "legal_call"

    def visit_MayAnnounce(self, node: MayAnnounce) -> str:
        return f"may_announce({node.name!r})"

    def visit_Announcing(self, node: Announcing) -> str:
        return f"announcing({node.name!r}, {node.tracked!r})"

    def visit_TrackedAfter(self, node: TrackedAfter) -> str:
        return f"tracked_after({node.name!r})"

    def visit_Strength(self, node: Strength) -> str:
        return f"strength({node.position})"

    def visit_PointsWon(self, node: PointsWon) -> str:
        return _call("points_won", (self.visit(node.seat),))

    def visit_TricksWon(self, node: TricksWon) -> str:
        return _call("tricks_won", (self.visit(node.seat),))

    def visit_WonTrick(self, node: WonTrick) -> str:
        return _call("won_trick", (self.visit(node.seat), self.visit(node.number)))

    def visit_ScoreOf(self, node: ScoreOf) -> str:
        args = [self.visit(node.seat)] + ([repr(node.line)] if node.line is not None else [])
        return _call("score_of", args)

    def visit_Awarded(self, node: Awarded) -> str:
        return f"awarded({node.rule_id!r})"

    def visit_WithDealt(self, node: WithDealt) -> str:
        pairs = [_call("", (self.visit(s), self.visit(c))) for s, c in zip(node.seats, node.cards)]
        return _call("with_dealt", (_tuple(pairs), self.visit(node.body)))

    def visit_PlayedTo(self, node: PlayedTo) -> str:
        return _call("played_to", (self.visit(node.trick), self.visit(node.seat)))

    def visit_LedTo(self, node: LedTo) -> str:
        return _call("led_to", (self.visit(node.trick),))

    def visit_LeaderOf(self, node: LeaderOf) -> str:
        return _call("leader_of", (self.visit(node.trick),))

    def visit_WinnerOf(self, node: WinnerOf) -> str:
        return _call("winner_of", (self.visit(node.trick),))

    def visit_CallerOf(self, node: CallerOf) -> str:
        return _call("caller_of", (self.visit(node.call),))

    def visit_Receives(self, node: Receives) -> str:
        return _call("receives", (self.visit(node.card),))


def _table(table: CardTable) -> str:
    return table.name.replace(" ", "_")


_RENDERER = ExprRenderer()


def render(expr: Expr) -> str:
    """An expression in the notation of the game modules."""
    return _RENDERER.visit(expr)


def _field_text(value: object) -> str:
    if value is None:
        return "None"
    if isinstance(value, Expr):
        return render(value)
    if isinstance(value, Deck):
        return f"{value.name} ({len(value)} cards)"
    if isinstance(value, CardTable):
        return _table(value)
    if isinstance(value, K.Construct):
        return render_construct(value)
    if isinstance(value, tuple):
        if value and all(isinstance(v, Rank) for v in value):
            return " ".join(v.value for v in value)
        if value and all(isinstance(v, (Suit, type(None))) for v in value):
            return " ".join("None" if v is None else value_text(v) for v in value)
        if len(value) > 4 and all(type(v) is int for v in value):
            steps = {b - a for a, b in zip(value, value[1:])}
            if len(steps) == 1:
                return f"({value[0]}, {value[1]}, ..., {value[-1]})"
        return _tuple([_field_text(v) for v in value])
    if isinstance(value, T):
        return value.value
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, str):
        return repr(value)
    return value_text(value)


def render_construct(body: K.Construct) -> str:
    """A construct with its fields: ``PlayRule(applies=..., permits=...)``."""
    fields = [f.name for f in dataclasses.fields(body)]  # type: ignore[arg-type]
    return _call(type(body).__name__, (f"{name}={_field_text(getattr(body, name))}"
                                       for name in fields))


def _source_text(src: Source) -> str:
    return str(src) + (f" also {' '.join(src.also)}" if src.also else "")


def _rule_text(rule: Rule) -> str:
    return "\n".join((rule.id, rule.text, _source_text(rule.source), render_construct(rule.body)))


def fingerprint(game: Game) -> str:
    """A digest of everything a game states: rules, variants and properties, as rendered.

    Two games with the same fingerprint say the same thing, so results computed for one
    hold for the other.
    """
    parts = [game.key, game.name, " ".join(game.active_variants)]
    parts += [_rule_text(r) for r in game.rules]
    for v in game.variants:
        parts.append(f"variant {v.id} {v.text} {_source_text(v.source)} {v.not_decidable}")
        parts += [f"{old.id} -> {_rule_text(new) if new else 'nothing'}" for old, new in v.replaces]
        parts += [f"adds {_rule_text(r)}" for r in v.adds]
    parts += [_property_text(p) for p in game.properties]
    return hashlib.sha256("\n\n".join(parts).encode()).hexdigest()


def _property_text(p: Property) -> str:
    return "\n".join((p.id, p.text, p.scope.name, render(p.holds), " ".join(v.name for v in p.free),
                      str(p.exists), str(p.finding), " ".join(p.covers)))

