"""The engine's back end: rule expressions compiled to Python functions over integers.

Each expression becomes the source text of one Python expression over plain ints (card
numbers, bitmasks, suit codes, bid numbers), and each function the engine needs is made
once per game with ``compile``.  The text is generated only from the game's frozen rule
nodes, never from user input.  Generating code rather than walking the tree at every
step is what lets the engine play thousands of deals a second.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from spec.cards import SUITS, Card, CardSet
from spec.dsl import _derive as D
from spec.dsl._nodes import (
    Arith,
    Awarded,
    BidAttr,
    BidField,
    BoolOp,
    CallerOf,
    CardsOfSuit,
    CardTable,
    CardValue,
    Certain,
    Compare,
    Const,
    Contains,
    Count,
    Ctx,
    DealtHand,
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
    Let,
    Lowest,
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
    TricksWon,
    Var,
    WinnerOf,
    WithDealt,
    WonTrick,
    suit_code,
)
from spec.dsl._visitor import RuleVisitor, UnsupportedNodeError

if TYPE_CHECKING:
    from spec.dsl._build import Game

EnvKey = Ctx | tuple[Ctx, int] | tuple[str, str] | Var | type
_PY_OP = {
    Op.EQ: "==", Op.NE: "!=", Op.LT: "<", Op.LE: "<=", Op.GT: ">", Op.GE: ">=",
    Op.ADD: "+", Op.SUB: "-", Op.MUL: "*", Op.DIV: "//", Op.UNION: "|", Op.INTER: "&",
}


def _lowest_of(cards: int, below: tuple[int, ...]) -> int:
    """The cards of ``cards`` with no card of the set ranked below them in their suit."""
    out, rest = 0, cards
    while rest:
        low = rest & -rest
        if not cards & below[low.bit_length() - 1]:
            out |= low
        rest ^= low
    return out


class GameTables:
    """The per-game lookup tables the generated code reads (one namespace per game)."""

    def __init__(self, game: Game) -> None:
        deck = game.deck
        self.game = game
        rank = [game.rank_table.value(c) for c in deck]  # each card's rank value, once
        self.ns: dict[str, Any] = {
            # a card is its number in the deck; number len(deck) is "no card" (a trick
            # position where a seat sat out), of no suit and worth 0, as in Z3
            "_SUIT": tuple(suit_code(c.suit) for c in deck) + (suit_code(None),),
            "_SUITMASK": tuple(deck.cards_of(s).mask for s in SUITS) + (0,),
            # a bid is its number on the ladder; number -1 is "no bid" (no standing bid, a
            # pass), read as Z3 reads it: the lowest level, the last strain, their key
            "_BLEVEL": tuple(b.level for b in game.ladder) + (game.ladder[0].level,),
            "_BSTRAIN": game.strain_codes + game.strain_codes[-1:],
            "_BSRANK": tuple(game.strain_rank[b.strain] for b in game.ladder)
            + (game.strain_rank[game.ladder[-1].strain],),
            "_BKEY": game.bid_key_table if "bid_key_table" in game.__dict__ else None,
            "_sumv": _sum_values,
            "_lowest": _lowest_of,
            # per card, the cards of its suit ranked below it
            "_BELOW": tuple(sum(1 << j for j, d in enumerate(deck)
                                if d.suit == c.suit and rank[j] < rank[i])
                            for i, c in enumerate(deck)),
            "_PARTNER": tuple(game.table.partner(s) if game.table.partnerships else s
                              for s in range(game.players)),
        }
        self._tables: dict[int, str] = {}

    def table(self, table: CardTable) -> str:
        key = id(table)
        if key not in self._tables:
            name = f"_T{len(self._tables)}"
            self.ns[name] = tuple(table.value(c) for c in self.game.deck) + (0,)
            self._tables[key] = name
        return self._tables[key]


def _sum_values(values: tuple[int, ...], mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += values[low.bit_length() - 1]
        mask ^= low
    return total


class PyCompiler(D.ByDerivation, RuleVisitor[str]):
    """Compile an expression to Python source over the shared integer encodings."""

    def __init__(self, game: Game, tables: GameTables, env: Mapping[EnvKey, str]) -> None:
        self.game = game
        self.tables = tables
        self.env: dict[EnvKey, str] = dict(env)

    def _with(self, key: EnvKey, src: str) -> PyCompiler:
        c = PyCompiler(self.game, self.tables, self.env)
        c.env[key] = src
        return c

    def encode(self, value: object, t: T) -> str:
        if t is T.BOOL or t is T.INT:
            return repr(value)
        if t is T.SUIT:
            return str(suit_code(value))  # type: ignore[arg-type]  # a Suit or None
        if t is T.CARD:
            assert isinstance(value, Card)
            return str(self.game.deck.index(value))
        if t is T.CARDS:
            if isinstance(value, CardSet):
                return str(value.mask)
            return str(CardSet.of(self.game.deck, value).mask)  # type: ignore[arg-type]
        if t is T.SEAT:
            return str(int(value))  # type: ignore[call-overload]
        raise UnsupportedNodeError(Const(value, t), "engine", f"constant of type {t.value}")

    def visit_Const(self, node: Const) -> str:
        return self.encode(node.value, node.type)

    def visit_Ref(self, node: Ref) -> str:
        key: EnvKey = node.ctx if node.index is None else (node.ctx, node.index)
        if key in self.env:
            return self.env[key]
        derived = _derived_ref(self.game, node)
        if derived is not None:
            return self.visit(derived)
        raise UnsupportedNodeError(node, "engine", f"no value for {node!r} here")

    def visit_Var(self, node: Var) -> str:
        if node in self.env:
            return self.env[node]
        raise UnsupportedNodeError(node, "engine", f"free variable {node.name} has no value")

    def visit_Not(self, node: Not) -> str:
        return f"(not {self.visit(node.arg)})"

    def visit_BoolOp(self, node: BoolOp) -> str:
        joiner = " and " if node.op is Op.AND else " or "
        return "(" + joiner.join(self.visit(a) for a in node.args) + ")"

    def visit_Implies(self, node: Implies) -> str:
        return f"((not {self.visit(node.cond)}) or {self.visit(node.then)})"

    def visit_Compare(self, node: Compare) -> str:
        return f"({self.visit(node.lhs)} {_PY_OP[node.op]} {self.visit(node.rhs)})"

    def visit_Arith(self, node: Arith) -> str:
        return f"({self.visit(node.lhs)} {_PY_OP[node.op]} {self.visit(node.rhs)})"

    def visit_IfThenElse(self, node: IfThenElse) -> str:
        return f"({self.visit(node.then)} if {self.visit(node.cond)} else {self.visit(node.orelse)})"

    def visit_SetOp(self, node: SetOp) -> str:
        a, b = self.visit(node.lhs), self.visit(node.rhs)
        if node.op is Op.DIFF:
            return f"({a} & ~{b})"
        return f"({a} {_PY_OP[node.op]} {b})"

    def visit_Contains(self, node: Contains) -> str:
        return f"((({self.visit(node.cards)}) >> ({self.visit(node.card)})) & 1 == 1)"

    def visit_IsEmpty(self, node: IsEmpty) -> str:
        return f"({self.visit(node.cards)} == 0)"

    def visit_Count(self, node: Count) -> str:
        return f"({self.visit(node.cards)}).bit_count()"

    def visit_SuitOf(self, node: SuitOf) -> str:
        return f"_SUIT[{self.visit(node.card)}]"

    def visit_CardsOfSuit(self, node: CardsOfSuit) -> str:
        return f"_SUITMASK[{self.visit(node.suit)}]"

    def visit_Lowest(self, node: Lowest) -> str:
        return f"_lowest({self.visit(node.cards)}, _BELOW)"

    def visit_CardValue(self, node: CardValue) -> str:
        return f"{self.tables.table(node.table)}[{self.visit(node.card)}]"

    def visit_SumValues(self, node: SumValues) -> str:
        return f"_sumv({self.tables.table(node.table)}, {self.visit(node.cards)})"

    def visit_BidAttr(self, node: BidAttr) -> str:
        name = {
            BidField.LEVEL: "_BLEVEL", BidField.STRAIN: "_BSTRAIN",
            BidField.STRAIN_RANK: "_BSRANK", BidField.KEY: "_BKEY",
        }[node.field]
        return f"{name}[{self.visit(node.bid)}]"

    def visit_SeatAfter(self, node: SeatAfter) -> str:
        return f"(({self.visit(node.seat)} + {node.steps}) % {self.game.players})"

    def visit_PartnerOf(self, node: PartnerOf) -> str:
        return f"_PARTNER[{self.visit(node.seat)}]"

    def visit_Tracked(self, node: Tracked) -> str:
        key = ("tracked", node.name)
        if key not in self.env:
            raise UnsupportedNodeError(node, "engine", f"tracked value {node.name} not available here")
        return self.env[key]  # type: ignore[index]

    def visit_DealtHand(self, node: DealtHand) -> str:
        if DealtHand not in self.env:
            raise UnsupportedNodeError(node, "engine", "the hands as dealt are not available here")
        return self.env[DealtHand].format(seat=self.visit(node.seat))

    def visit_Idle(self, node: Idle) -> str:
        if Idle not in self.env:
            raise UnsupportedNodeError(node, "engine", "the idle seat is not known here")
        return self.env[Idle].format(seat=self.visit(node.seat))

    def visit_Dropped(self, node: Dropped) -> str:
        if Dropped not in self.env:
            raise UnsupportedNodeError(node, "engine", "who dropped out is not known here")
        return self.env[Dropped].format(seat=self.visit(node.seat))

    def visit_Invited(self, node: Invited) -> str:
        if Invited not in self.env:
            raise UnsupportedNodeError(node, "engine", "the guest is not known here")
        return self.env[Invited].format(seat=self.visit(node.seat))

    def visit_IsDeclarer(self, node: IsDeclarer) -> str:
        if IsDeclarer not in self.env:
            raise UnsupportedNodeError(node, "engine", "the declarers are not known here")
        return self.env[IsDeclarer].format(seat=self.visit(node.seat))

    def visit_Certain(self, node: Certain) -> str:
        if Certain not in self.env:
            raise UnsupportedNodeError(node, "engine", "what a seat can be sure of is asked of "
                                       "a whole state, which is not at hand here")
        return self.env[Certain].format(seat=self.visit(node.seat), undecided=node.undecided)

    def visit_Taken(self, node: Taken) -> str:
        if Taken not in self.env:
            raise UnsupportedNodeError(node, "engine", "the cards taken are not available here")
        return self.env[Taken].format(seat=self.visit(node.seat))

    def visit_Let(self, node: Let) -> str:
        return self._with(node.ctx, f"({self.visit(node.value)})").visit(node.body)

    def visit_Strength(self, node: Strength) -> str:
        return self.visit(D.strength_at(self.game, node.position))

    def visit_PointsWon(self, node: PointsWon) -> str:
        return self.visit(D.points_won(self.game, node.seat))

    def visit_TricksWon(self, node: TricksWon) -> str:
        if TricksWon in self.env:  # the engine counts the bits of its record of tricks won
            return self.env[TricksWon].format(seat=self.visit(node.seat))
        return self.visit(D.tricks_won(self.game, node.seat))

    def visit_WonTrick(self, node: WonTrick) -> str:
        if WonTrick not in self.env:
            raise UnsupportedNodeError(node, "engine", "trick record not available here")
        return self.env[WonTrick].format(seat=self.visit(node.seat), number=self.visit(node.number))

    def visit_ScoreOf(self, node: ScoreOf) -> str:
        return self.visit(D.score(self.game, node.seat, node.line))

    def visit_Awarded(self, node: Awarded) -> str:
        return self.visit(D.awarded(self.game, node.rule_id))

    def _history(self, node: Expr, **parts: Expr) -> str:
        template = self.env.get(type(node))
        if template is None:
            raise UnsupportedNodeError(node, "engine", "only a deal played out has tricks to read")
        return template.format(**{k: self.visit(v) for k, v in parts.items()})

    def visit_PlayedTo(self, node: PlayedTo) -> str:
        return self._history(node, trick=node.trick, seat=node.seat)

    def visit_LedTo(self, node: LedTo) -> str:
        return self._history(node, trick=node.trick)

    def visit_LeaderOf(self, node: LeaderOf) -> str:
        return self._history(node, trick=node.trick)

    def visit_WinnerOf(self, node: WinnerOf) -> str:
        return self._history(node, trick=node.trick)

    def visit_CallerOf(self, node: CallerOf) -> str:
        return self._history(node, call=node.call)

    def visit_Receives(self, node: Receives) -> str:
        return self._history(node, card=node.card)

    def visit_WithDealt(self, node: WithDealt) -> str:
        if DealtHand not in self.env:
            raise UnsupportedNodeError(node, "engine", "the hands as dealt are not available here")
        template = self.env[DealtHand]
        for seat_e, cards_e in reversed(tuple(zip(node.seats, node.cards))):
            cards = self.visit(cards_e).replace("{", "{{").replace("}", "}}")
            seat = self.visit(seat_e).replace("{", "{{").replace("}", "}}")
            template = f"(({cards}) if ({{seat}}) == ({seat}) else {template})"
        return self._with(DealtHand, template).visit(node.body)


def _derived_ref(game: Game, node: Ref) -> Expr | None:
    """Context values defined by the game's own rules rather than supplied by a back end."""
    if node.ctx is Ctx.PLAYED_SUIT and node.index is not None:
        return D.played_suit(game, node.index)
    if node.ctx is Ctx.TRICK_WINNER:
        return D.trick_winner(game)
    if node.ctx is Ctx.LED_SUIT:
        return D.played_suit(game, 0)
    if node.ctx is Ctx.POINTS:
        return D.points_won(game, Ref(Ctx.SEAT))
    if node.ctx is Ctx.LAYS_ASIDE:
        return D.lays_aside_now(game)
    if node.ctx is Ctx.MATCH_OVER:
        return D.match_over(game)
    if node.ctx is Ctx.GAME_BONUS:
        return D.game_bonus(game)
    if node.ctx is Ctx.CARRIES_OVER:
        return D.carries_over(game)
    if node.ctx is Ctx.FIRST_TO_CALL:
        return D.first_to_call(game)
    if node.ctx is Ctx.FIRST_LEADER:
        return D.first_leader(game)
    if node.ctx is Ctx.TALON_TAKEN:
        return D.talon_taken(game)
    if node.ctx is Ctx.FIRST_DEFENDER:
        return D.first_defender(game)
    if node.ctx is Ctx.NEXT_DEALER:
        return D.next_dealer(game)
    if node.ctx is Ctx.NO_BID_REDEALER:
        return D.no_bid_redealer(game)
    if node.ctx is Ctx.GAME_TARGET:
        return D.game_target(game)
    if node.ctx is Ctx.DEAL_VOID:
        return D.deal_void(game)
    if node.ctx is Ctx.REDEALER:
        return D.redealer(game)
    if node.ctx is Ctx.TURNED_UP:
        return D.trick_turned_up(game)
    if node.ctx is Ctx.AUCTION_OVER:
        return D.auction_over_now(game)
    if node.ctx is Ctx.MAY_ASK_PARTNER:
        return D.may_ask_partner(game)
    if node.ctx is Ctx.CALL_JOINS:
        return D.call_joins(game)
    if node.ctx is Ctx.CALL_ACCEPTS:
        return D.call_accepts(game)
    return None


derived_ref = _derived_ref


def compile_function(
    game: Game,
    tables: GameTables,
    expr: Expr,
    params: Mapping[EnvKey, str],
    *,
    extra_env: Mapping[EnvKey, str] | None = None,
    name: str = "rule",
) -> Callable[..., Any]:
    """A Python function of ``params`` (their names, in order) computing ``expr``.

    The function carries its ``source`` and ``reads``: the names of the parameters its
    body reads, so a caller can tell which arguments can change the result (the engine
    keys its caches on those alone).
    """
    env: dict[EnvKey, str] = dict(params)
    if extra_env:
        env.update(extra_env)
    body = PyCompiler(game, tables, env).visit(expr)
    arg_names = tuple(dict.fromkeys(v for v in params.values() if v.isidentifier()))
    src = f"def {name}({', '.join(arg_names)}):\n    return {body}\n"
    ns = dict(tables.ns)
    exec(compile(src, f"<{game.key}:{name}>", "exec"), ns)  # noqa: S102  # generated from rule nodes only
    fn = ns[name]
    fn.source = src
    names = {n.id for n in ast.walk(ast.parse(body, mode="eval")) if isinstance(n, ast.Name)}
    fn.reads = frozenset(a for a in arg_names if a in names)
    return fn  # type: ignore[no-any-return]  # a generated function


def evaluate(game: Game, expr: Expr, values: Mapping[EnvKey, object]) -> object:
    """Evaluate an expression once, with context values given as Python values."""
    tables = GameTables(game)
    encoder = PyCompiler(game, tables, {})
    env: dict[EnvKey, str] = {}
    for k, v in values.items():
        if isinstance(v, str):  # already source text (the trick record's accessor)
            env[k] = v
        elif isinstance(v, int):  # ints and bools are already in the shared encoding
            env[k] = repr(v)
        else:
            ctx = k if isinstance(k, Ctx) else k[0] if isinstance(k, tuple) else None
            t = k.type if isinstance(k, Var) else ctx.type  # type: ignore[union-attr]
            env[k] = encoder.encode(v, t)
    src = PyCompiler(game, tables, env).visit(expr)
    return eval(compile(src, f"<{game.key}:evaluate>", "eval"), dict(tables.ns))  # generated from rule nodes only

