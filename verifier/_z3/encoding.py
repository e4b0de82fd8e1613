"""Symbolic situations of a deal, one per scope, each with its facts and a decoder.

A situation holds Z3 variables for everything a scope can read, the facts every such
situation satisfies (hands are disjoint and of equal size, earlier cards of the trick
were legal, ...), the environment that maps context values to those variables, and a
decoder that turns a Z3 model back into plain values the engine can replay.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._nodes import NO_SUIT, Ctx, Var, T, WonTrick
from verifier._z3.compile import Encoding, Z3Compiler


@dataclass
class Situation:
    """Variables, facts and context values of one scope."""

    enc: Encoding
    facts: list[Any] = field(default_factory=list)
    env: dict[Any, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)  # name -> z3 term to decode

    def compile(self, expr: Any) -> Any:
        return Z3Compiler(self.enc, self.env).visit(expr)

    def decode(self, model: z3.ModelRef) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, term in self.values.items():
            v = model.eval(term, model_completion=True)
            if z3.is_bool(v):
                out[name] = z3.is_true(v)
            elif z3.is_bv(v):
                out[name] = v.as_long()
            else:
                out[name] = v.as_long()
        return out


def _seat_var(sit: Situation, name: str) -> Any:
    v = sit.enc.int_var(name)
    sit.facts.append(z3.And(v >= 0, v < sit.enc.game.players))
    sit.values[name] = v
    return v


def bind_free(sit: Situation, free: tuple[Var, ...]) -> None:
    """Variables for a property's free variables, over their whole domain."""
    for var in free:
        if var.type is T.BID:
            v = sit.enc.int_var(f"free_{var.name}")
            sit.facts.append(biddable(sit.enc, v, f"free_{var.name}"))
        elif var.type is T.SEAT:
            v = _seat_var(sit, f"free_{var.name}")
        elif var.type is T.INT:
            v = sit.enc.int_var(f"free_{var.name}")
        elif var.type is T.BOOL:
            v = sit.enc.bool_var(f"free_{var.name}")
        else:
            raise NotImplementedError(f"free variables of type {var.type.value}")
        sit.env[var] = v
        sit.values[f"free_{var.name}"] = v


def biddable(enc: Encoding, b: Any, tag: str) -> Any:
    """The bid can be legally called in some auction situation (the rules allow it)."""
    sit = call_situation(enc, tag)
    sit.env[Ctx.CALL_IS_BID] = enc.bool(True)
    sit.env[Ctx.CALL_BID] = b
    legal = sit.compile(D.call_legal(enc.game))
    return z3.And(enc.bid_in_ladder(b), *sit.facts, legal)


def call_situation(enc: Encoding, tag: str) -> Situation:
    """Any moment of an auction, with its context values free (over-approximation)."""
    sit = Situation(enc)
    standing = enc.int_var(f"{tag}_standing")
    has = enc.bool_var(f"{tag}_has_standing")
    sit.facts += [z3.Implies(has, enc.bid_in_ladder(standing)), z3.Implies(z3.Not(has), standing == -1)]
    calls = enc.int_var(f"{tag}_calls")
    passes = enc.int_var(f"{tag}_passes")
    sit.facts += [calls >= 0, passes >= 0, passes <= calls]
    sit.env.update({
        Ctx.SEAT: _seat_var(sit, f"{tag}_seat"), Ctx.DEALER: _seat_var(sit, f"{tag}_dealer"),
        Ctx.HAND: enc.cards_var(f"{tag}_hand"), Ctx.HAS_STANDING: has, Ctx.STANDING: standing,
        Ctx.HIGH_BIDDER: _seat_var(sit, f"{tag}_high"), Ctx.CALLS_MADE: calls,
        Ctx.PASSES_IN_ROW: passes,
    })
    return sit


def trick_situation(enc: Encoding, played: int) -> Situation:
    """A trick with ``played`` cards on the table and the hands of all seats.

    With ``played == players`` it is a complete trick (scope TRICK); otherwise the seat
    at position ``played`` is about to play (scope PLAY).  Hands are indexed by position
    in the trick: the seat at position ``j`` is ``(leader + j) mod players``.
    """
    g = enc.game
    n = g.players
    sit = Situation(enc)
    contract = enc.int_var("contract")
    sit.facts.append(biddable(enc, contract, "contract"))
    sit.values["contract"] = contract
    declarer = _seat_var(sit, "declarer")
    dealer = _seat_var(sit, "dealer")
    leader = _seat_var(sit, "leader")
    k = enc.int_var("trick_number")
    sit.facts += [k >= 1, k <= g.tricks]
    sit.values["trick_number"] = k
    trump = enc.bid_strain(contract)
    hands = [enc.cards_var(f"hand_{j}") for j in range(n)]
    cards = [enc.cards_var(f"card_{j}") for j in range(n)]
    named = [enc.int_var(f"named_{j}") for j in range(n)]
    for j in range(n):
        sit.values[f"hand_{j}"] = hands[j]
        sit.values[f"card_{j}"] = cards[j]
        sit.values[f"named_{j}"] = named[j]
    everything = list(hands) + list(cards[:played])
    for a in range(len(everything)):
        for b in range(a + 1, len(everything)):
            sit.facts.append(everything[a] & everything[b] == 0)
    for j in range(n):
        size = enc.int(g.tricks) - k + (0 if j < played else 1)
        sit.facts.append(enc.popcount(hands[j]) == size)
    base = {
        Ctx.CONTRACT: contract, Ctx.DECLARER: declarer, Ctx.DEALER: dealer, Ctx.TRUMP: trump,
        Ctx.TRICK_NUMBER: k,
    }
    # the cards already played were legal when they were played
    led: Any = enc.int(NO_SUIT)
    for j in range(played + (1 if played < n else 0)):
        env = dict(base)
        before = hands[j] | cards[j] if j < played else hands[j]
        env.update({
            Ctx.SEAT: (leader + j) % n, Ctx.HAND: before, Ctx.IS_LEADING: enc.bool(j == 0),
            Ctx.POSITION: enc.int(j), Ctx.LED_SUIT: led, Ctx.CARD: cards[j],
            Ctx.DECLARED: named[j],
        })
        c = Z3Compiler(enc, env)
        needs = c.visit(D.needs_declaration(g))
        choices = D.declaration_choices(g)
        decl_ok = z3.And(z3.Or(*[named[j] == code for code in choices]) if choices else enc.bool(False),
                         c.visit(D.declaration_ok(g)))
        sit.facts += [enc.one_hot(cards[j]), (cards[j] & hands[j]) == 0 if j < played else (cards[j] & hands[j]) != 0,
                      z3.If(needs, decl_ok, named[j] == NO_SUIT)]
        if j < played:
            sit.facts.append((c.visit(D.legal_cards(g)) & cards[j]) != 0)
        if j == 0:
            led_env = dict(env)
            led = Z3Compiler(enc, led_env).visit(D.entry_suit(g))
        if j == played:  # the seat to act (scope PLAY)
            sit.env.update(env)
    if played == n:
        sit.env.update(base)
        for j in range(n):
            sit.env[(Ctx.PLAYED_CARD, j)] = cards[j]
            sit.env[(Ctx.PLAYED_DECLARED, j)] = named[j]
        winner = sit.compile(D.trick_winner(g))
        sit.values["winner"] = winner
    else:
        sit.values["legal"] = sit.compile(D.legal_cards(g))
    sit.values["led_suit"] = led if played > 0 else enc.int(NO_SUIT)
    return sit


def outcome_situation(enc: Encoding) -> Situation:
    """The end of the play: a contract, its declarer, and who won each trick."""
    g = enc.game
    sit = Situation(enc)
    contract = enc.int_var("contract")
    sit.facts.append(biddable(enc, contract, "contract"))
    sit.values["contract"] = contract
    winners = [_seat_var(sit, f"winner_{k}") for k in range(1, g.tricks + 1)]

    def won(seat: Any, number: Any) -> Any:
        if z3.is_int_value(number):
            i = number.as_long()
            return winners[i - 1] == seat if 1 <= i <= len(winners) else enc.bool(False)
        return z3.Or(*[z3.And(number == i + 1, winners[i] == seat) for i in range(len(winners))])

    sit.env.update({
        Ctx.CONTRACT: contract, Ctx.DECLARER: _seat_var(sit, "declarer"),
        Ctx.DEALER: _seat_var(sit, "dealer"), Ctx.SEAT: _seat_var(sit, "seat"), WonTrick: won,
    })
    return sit


def deal_schedule(enc: Encoding) -> tuple[Situation, list[Any]]:
    """Where the deal rule sends each position of the pack, for a symbolic dealer.

    A shuffle is a bijection from cards to pack positions, so the hands share out the
    deck exactly when the schedule sends every position to one seat and gives each seat
    its share; the proof is about the schedule, for every dealer.
    """
    g = enc.game
    n = g.players
    sit = Situation(enc)
    dealer = _seat_var(sit, "dealer")
    deal = g.one(K.DealPackets)
    assert isinstance(deal, K.DealPackets)
    first = Z3Compiler(enc, {Ctx.DEALER: dealer}).visit(deal.first)
    dest: list[Any] = []
    for packet in deal.packets:
        for kk in range(n):
            dest.extend([(first + kk) % n] * packet)
    for i, d in enumerate(dest):
        sit.values[f"dest_{i}"] = d
    return sit, dest


def bid_definition(enc: Encoding, tag: str) -> tuple[Situation, Any, Any, Any]:
    """A bid given by its level and strain rank (scope BID), and its key."""
    sit = Situation(enc)
    lv = enc.int_var(f"{tag}_level")
    sr = enc.int_var(f"{tag}_strain_rank")
    sit.facts += [z3.Or(*[lv == x for x in enc.levels]), sr >= 0, sr < len(enc.strains)]
    sit.env.update({Ctx.LEVEL: lv, Ctx.STRAIN_RANK: sr})
    key = sit.compile(enc.key_expr)
    sit.values.update({f"{tag}_level": lv, f"{tag}_strain_rank": sr, f"{tag}_key": key})
    return sit, lv, sr, key
