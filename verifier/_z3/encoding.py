"""Symbolic situations of a deal, one per scope, each with its facts and a decoder.

A situation holds Z3 variables for everything a scope can read, the facts every such
situation satisfies (hands are disjoint and of equal size, earlier cards of the trick
were legal, ...), the environment that maps context values to those variables, and a
decoder that turns a Z3 model back into plain values the engine can replay.
"""
from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import suit_code
from spec.dsl._nodes import (
    NO_SUIT,
    Arith,
    BidAttr,
    BoolOp,
    CardsOfSuit,
    Compare,
    Const,
    Contains,
    Count,
    Ctx,
    DealtHand,
    Dropped,
    Idle,
    IfThenElse,
    Implies,
    Invited,
    IsDeclarer,
    IsEmpty,
    Not,
    PointsWon,
    Receives,
    Ref,
    SeatAfter,
    SetOp,
    SuitOf,
    T,
    Taken,
    Tracked,
    TrackedAfter,
    TricksWon,
    Var,
    WonTrick,
    walk,
)
from spec.dsl._origins import (
    ANY,
    DEALT,
    aside_cleared,
    hand_origins,
    own_steps,
    sizes_kept,
    tracked_by_own_steps,
    unread_change,
)
from spec.dsl._program import PhaseKind
from spec.dsl._visitor import UnsupportedNodeError
from spec.seats import seat_after, seats_from
from verifier._z3.compile import Encoding, Z3Compiler
from verifier.errors import NotStatedError


@dataclass
class Situation:
    """Variables, facts and context values of one scope."""

    enc: Encoding
    facts: list[Any] = field(default_factory=list)
    env: dict[Any, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)  # name -> z3 term to decode
    # the facts among ``facts`` that hold only once a seat's choice is made (see
    # :func:`decided`): a question about the choice itself leaves them out
    chosen: list[Any] = field(default_factory=list)

    def compile(self, expr: Any) -> Any:
        return Z3Compiler(self.enc, self.env).visit(expr)

    def copy(self) -> Situation:
        """The same situation, with lists of its own to add facts and values to."""
        return Situation(self.enc, list(self.facts), dict(self.env), dict(self.values),
                         list(self.chosen))

    def before_the_choice(self) -> list[Any]:
        """The facts without those that hold only once a seat's choice is made."""
        return [f for f in self.facts if not any(f is c for c in self.chosen)]

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


_S = TypeVar("_S")


def _built_once(make: Callable[..., _S]) -> Callable[..., _S]:
    """``make(enc, *args)`` built once per encoding and arguments: the checks of a game
    share an encoding, and a situation's terms are the same whoever asks (Z3 would make
    the same terms again, at the cost of building them).  Each caller gets a copy of a
    situation, to add its own facts to."""
    def build(enc: Encoding, *args: Any) -> _S:
        # a term is known by its id (it stays alive in what is made from it)
        key = (make.__name__, *(a.get_id() if isinstance(a, z3.AstRef) else a for a in args))
        made = enc.made.get(key)
        if made is None:
            made = enc.made[key] = make(enc, *args)
        if isinstance(made, Situation):
            return made.copy()  # type: ignore[return-value]
        if isinstance(made, tuple):
            return tuple(m.copy() if isinstance(m, Situation) else
                         list(m) if isinstance(m, list) else m for m in made)  # type: ignore[return-value]
        return made
    build.__name__, build.__doc__ = make.__name__, make.__doc__
    build.__wrapped__ = make  # type: ignore[attr-defined]
    return build


def _stated_soundly(enc: Encoding, situation: str) -> None:
    """Refuse to state a situation whose facts a phase the game writes as steps of its own
    may make false (:func:`~spec.dsl._origins.unread_change`): a check built on it is then
    UNKNOWN, never proved over too few states."""
    why = unread_change(enc.game, situation)
    if why:
        raise NotStatedError(why)


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
        elif var.type is T.SUIT:
            v = sit.enc.int_var(f"free_{var.name}")
            sit.facts.append(z3.And(v >= 0, v < NO_SUIT))
        elif var.type is T.CARDS:
            v = sit.enc.cards_var(f"free_{var.name}")
        else:
            raise NotImplementedError(f"free variables of type {var.type.value}")
        sit.env[var] = v
        sit.values[f"free_{var.name}"] = v


@_built_once
def biddable(enc: Encoding, b: Any, tag: str) -> Any:
    """The bid can be legally called in some auction situation (the rules allow it)."""
    sit = call_situation(enc, tag)
    sit.env[Ctx.CALL_IS_BID] = enc.bool(True)
    sit.env[Ctx.CALL_BID] = b
    legal = sit.compile(D.call_legal(enc.game))
    return z3.And(enc.bid_in_ladder(b), *sit.facts, legal)


@_built_once
def match_situation(enc: Encoding) -> Situation:
    """A match or rubber after any deal: any number of deals played (at least this one),
    any totals (the lead at least the trail), any count of games won by the side that has
    just won one."""
    sit = Situation(enc)
    deals = enc.int_var("deals_played")
    lead = enc.int_var("lead_total")
    trail = enc.int_var("trail_total")
    games = enc.int_var("games_won")
    sit.facts += [deals >= 1, lead >= trail, games >= 0]
    for ctx, var in ((Ctx.DEALS_PLAYED, deals), (Ctx.LEAD_TOTAL, lead),
                     (Ctx.TRAIL_TOTAL, trail), (Ctx.GAMES_WON, games)):
        sit.env[ctx] = var
        sit.values[ctx.name.lower()] = var
    return sit


@_built_once
def call_situation(enc: Encoding, tag: str) -> Situation:
    """Any moment of an auction, with its context values free (over-approximation)."""
    _stated_soundly(enc, "call")
    sit = Situation(enc)
    standing = enc.int_var(f"{tag}_standing")
    has = enc.bool_var(f"{tag}_has_standing")
    sit.facts += [z3.Implies(has, enc.bid_in_ladder(standing)), z3.Implies(z3.Not(has), standing == -1)]
    calls = enc.int_var(f"{tag}_calls")
    passes = enc.int_var(f"{tag}_passes")
    # the counters of an auction as its stages keep them; a phase of calls the game writes
    # as steps of its own may keep them otherwise: then nothing is assumed of them
    counted = not any(s.action == "call" for s in own_steps(enc.game))
    if counted:
        sit.facts += [calls >= 0, passes >= 0, passes <= calls]
    stage = enc.int_var(f"{tag}_stage")
    seat_calls = enc.int_var(f"{tag}_seat_calls")
    stage_bid = enc.bool_var(f"{tag}_stage_bid")
    proxy = enc.bool_var(f"{tag}_proxy")
    passed = enc.bool_var(f"{tag}_seat_passed")
    accepted = enc.bool_var(f"{tag}_accepted")  # only a standing bid is accepted
    if counted:
        sit.facts += [stage >= 1, stage <= enc.game.stages, seat_calls >= 0, seat_calls <= calls,
                      z3.Implies(stage_bid, has), z3.Implies(passed, seat_calls >= 1)]
    sit.facts.append(z3.Implies(accepted, has))
    if not enc.game.program.partner_by_call:
        sit.facts.append(z3.Not(accepted))
    if not enc.game.constructs(K.ProxyCall):
        sit.facts.append(z3.Not(proxy))
    is_bid = enc.bool_var(f"{tag}_is_bid")
    the_bid = enc.int_var(f"{tag}_bid")
    sit.facts.append(z3.If(is_bid, enc.bid_in_ladder(the_bid), the_bid == -1))
    sit.env.update({Ctx.CALL_IS_BID: is_bid, Ctx.CALL_BID: the_bid})
    sit.values.update({f"{tag}_stage": stage, f"{tag}_seat_calls": seat_calls,
                       f"{tag}_seat_passed": passed,
                       f"{tag}_is_bid": is_bid, f"{tag}_bid": the_bid})
    sit.env.update({
        Ctx.SEAT: _seat_var(sit, f"{tag}_seat"), Ctx.DEALER: _seat_var(sit, f"{tag}_dealer"),
        Ctx.HAND: enc.cards_var(f"{tag}_hand"), Ctx.HAS_STANDING: has, Ctx.STANDING: standing,
        Ctx.HIGH_BIDDER: _seat_var(sit, f"{tag}_high"), Ctx.CALLS_MADE: calls,
        Ctx.PASSES_IN_ROW: passes, Ctx.STAGE: stage, Ctx.SEAT_CALLS: seat_calls,
        Ctx.SEAT_PASSED: passed, Ctx.BID_THIS_STAGE: stage_bid, Ctx.PROXY: proxy,
        Ctx.STANDING_ACCEPTED: accepted,
    })
    # whether the seats not holding the standing bid have all passed, and whether the seat
    # holds it: any moment (stated only where a rule reads them, as terms no rule reads
    # would still change the formula Z3 is given)
    for ctx, name in ((Ctx.OTHERS_PASSED, "others_passed"), (Ctx.SEAT_HOLDS, "seat_holds")):
        if D.reads_ctx(enc.game, ctx):
            sit.env[ctx] = enc.bool_var(f"{tag}_{name}")
    # the seat that would declare the standing bid: its bidder, unless the partner who
    # names a bid for him declares it (then either of the two)
    high = sit.env[Ctx.HIGH_BIDDER]
    if enc.game.program.namer_declares:
        maker = _seat_var(sit, f"{tag}_maker")
        table = enc.game.table
        sit.facts.append(z3.Or(maker == high, *(
            z3.And(high == s, maker == table.partner(s))
            for s in range(enc.game.players) if table.partnerships)))
    else:
        maker = high
    sit.env[Ctx.STANDING_MAKER] = maker
    if D.reads_ctx(enc.game, Ctx.SEAT_HOLDS):
        # the highest bidder holds the standing bid; with none standing, nobody holds one
        holds = sit.env[Ctx.SEAT_HOLDS]
        sit.facts += [z3.Implies(z3.And(has, sit.env[Ctx.SEAT] == sit.env[Ctx.HIGH_BIDDER]),
                                 holds),
                      z3.Implies(z3.Not(has), z3.Not(holds))]
    up = turn_up_var(sit, f"{tag}_")
    if up is not None:  # the turn-up is in its holder's hand, and so in no other
        holds = up & ~sit.env[Ctx.HAND] == 0
        sit.facts.append(holds == (sit.env[Ctx.SEAT] == turn_up_holder(enc, sit.env[Ctx.DEALER])))
    tracked_vars(sit, tag)
    return sit


def tracked_initial(enc: Encoding, track: K.Track) -> Any:
    """A tracked value as every deal starts."""
    if track.type is T.BOOL:
        return enc.bool(bool(track.initial))
    if track.type is T.SUIT:
        return enc.int(suit_code(track.initial))  # type: ignore[arg-type]
    return enc.int(int(track.initial))  # type: ignore[call-overload]


def tracked_vars(sit: Situation, tag: str) -> None:
    """Free variables for the game's tracked values (any value of their type)."""
    enc = sit.enc
    for name, track in enc.game.tracked.items():
        vname = f"{tag}_tv_{name}"
        if track.type is T.BOOL:
            v = enc.bool_var(vname)
        elif track.type is T.SEAT:
            v = _seat_var(sit, vname)
        else:
            v = enc.int_var(vname)
            if track.type is T.INT:
                sit.facts.append(v >= 0)
            elif track.type is T.SUIT:
                sit.facts.append(z3.And(v >= 0, v <= NO_SUIT))
        sit.env[("tracked", name)] = v
        sit.values[f"tv_{name}"] = v


# Constructs that change only what the seats see, never what is legal, who wins a trick or
# what a deal scores.  The situations above already range over every hand and position the
# rules allow, whoever sees it, so no property's situation changes with them: a hand laid
# open after a trick (LayOpen) is one.
SIGHT_ONLY: tuple[type[K.Construct], ...] = (K.LayOpen,)


def turn_up_holder(enc: Encoding, dealer: Any) -> Any:
    """The seat dealt the card turned face up, for a dealer: the seat the deal program's
    layout sends that place of the pack to (the engine deals by the same layout)."""
    g = enc.game
    assert g.program.turn_up is not None
    deal = g.stage_rule(K.DealPackets, 1)
    first = Z3Compiler(enc, {Ctx.DEALER: dealer}).visit(deal.first)  # type: ignore[union-attr]
    return (first + g.program.layout(1)[g.program.turn_up]) % g.players


def turn_up_var(sit: Situation, tag: str = "") -> Any:
    """The card dealt face up, in a game that deals one (None otherwise): any one card;
    each situation ties it to the hand of the seat dealt it."""
    enc = sit.enc
    if enc.game.program.turn_up is None:
        return None
    card = enc.cards_var(f"{tag}turn_up")
    sit.facts.append(enc.one_hot(card))
    sit.env[Ctx.TURN_UP] = card
    sit.values[f"{tag}turn_up"] = card
    return card


def trump_term(sit: Situation, contract: Any) -> Any:
    """The trump suit: the contract's strain, a free suit when a card laid aside names it,
    or what the game's ``TrumpIs`` rules make of the contract, declarer, dealer and turn-up
    (which ``sit.env`` holds by now)."""
    enc = sit.enc
    if enc.game.constructs(K.TrumpIs):
        env = {k: sit.env[k] for k in (Ctx.DECLARER, Ctx.DEALER, Ctx.TURN_UP) if k in sit.env}
        env[Ctx.CONTRACT] = contract
        # a value a seat's choice sets (trumps the declarer names, say)
        env.update({k: v for k, v in sit.env.items() if isinstance(k, tuple) and k[0] == "tracked"})
        if _trumps_read_hands(enc.game):
            # stated by :func:`trumps_from_hands` once the situation has the hands as dealt
            t = enc.int_var("trump")
            sit.env[_TRUMPS_PENDING] = (t, env)
        else:
            t = Z3Compiler(enc, env).visit(D.trump(enc.game))
        sit.values["trump"] = t
        return t
    naming = [p.body.names_trump  # type: ignore[union-attr]
              for p in enc.game.program.phases_of(PhaseKind.SET_ASIDE)]
    if any(naming):
        t = enc.int_var("trump")
        suit = z3.And(t >= 0, t < NO_SUIT)
        # a stage whose card names no trumps leaves the contract's
        sit.facts.append(suit if all(naming) else z3.Or(suit, t == enc.bid_strain(contract)))
        sit.values["trump"] = t
        return t
    return enc.bid_strain(contract)


_TRUMPS_PENDING = ("pending", "trumps")  # a situation's trumps, to be read from the hands


def _trumps_read_hands(game: Any) -> bool:
    """Whether the game's ``TrumpIs`` rules read the hands as dealt (the suit of the ace a
    declarer lacks, say)."""
    return any(isinstance(node, DealtHand) for _r, b in game.constructs(K.TrumpIs)
               for expr in (b.when, b.suit) for node in walk(expr))  # type: ignore[attr-defined]


def trumps_from_hands(sit: Situation) -> None:
    """The fact that makes a situation's trumps what its ``TrumpIs`` rules say, for rules
    that read the hands as dealt: stated once ``sit.env`` holds them."""
    pending = sit.env.pop(_TRUMPS_PENDING, None)
    if pending is not None:
        t, env = pending
        sit.facts.append(t == Z3Compiler(sit.enc, {**env, DealtHand: sit.env[DealtHand]})
                         .visit(D.trump(sit.enc.game)))


def played_out(sit: Situation) -> None:
    """A deal that reaches the play is not void by a rule that reads only what the auction
    fixed (its contract, declarer, partner, trumps, the hands as dealt): the engine voids
    such a deal before the first card, so no trick or outcome of it exists."""
    for _r, body in sit.enc.game.constructs(K.VoidWhen):
        assert isinstance(body, K.VoidWhen)
        if D.reads_contract(body.when) and not any(
                isinstance(node, (Tracked, TrackedAfter))
                or (isinstance(node, Ref) and node.ctx is Ctx.TRICK_NUMBER)
                for node in walk(body.when)):
            sit.facts.append(z3.Not(Z3Compiler(sit.enc, status_env(sit)).visit(body.when)))


def sides(sit: Situation, contract: Any, declarer: Any) -> None:
    """Who declares and who partners the declarer, as the auction left them: the declarer
    and, when the contract is one that others may join, any other seats; the partner: when
    the contract is one another seat may accept, perhaps any seat but the declarer (and
    the seat idle for the deal, which makes no call), else the seat the program names (the
    declarer himself without a rule that forms a partnership).  The situation must already
    have the values the partner's rule reads."""
    enc = sit.enc
    g = enc.game
    declares = [enc.bool_var(f"declares_{k}") for k in range(g.players)]
    # seats that joined the bid declare in the play, unless a choice left one of them
    joinable = g.program.joinable if g.program.several_declarers else ()
    can_join = z3.Or(*[contract == k for k in joinable]) if joinable else enc.bool(False)
    for k in range(g.players):
        sit.facts += [z3.Implies(declarer == k, declares[k]),
                      z3.Implies(z3.And(declarer != k, declares[k]), can_join)]
        sit.values[f"declares_{k}"] = declares[k]
    partner = _seat_var(sit, "partner")
    named = partner_named(enc, status_env(sit), declarer)
    if g.program.partner_by_call:
        accepted = enc.bool_var("accepted")
        accepter = _seat_var(sit, "accepter")
        can_accept = z3.Or(*[contract == k for k in g.program.acceptable])
        idle = idle_seat(enc, sit.env[Ctx.DEALER])
        sit.facts.append(z3.Implies(accepted, z3.And(can_accept, accepter != declarer,
                                                     accepter != idle)))
        sit.values["accepted"] = accepted
        named = z3.If(accepted, accepter, named)
    sit.facts.append(partner == named)
    sit.env[Ctx.DECLARER_PARTNER] = partner
    sit.env[IsDeclarer] = lambda seat: enc.select(seat, declares)


def partner_named(enc: Encoding, status: dict[Any, Any], declarer: Any) -> Any:
    """The declarer's partner when no seat accepted his bid: the seat the game's partner
    rule names in ``status`` (scope STATUS), or the declarer himself without one."""
    rule = enc.game.program.partner
    return declarer if rule is None else Z3Compiler(enc, status).visit(rule)


def status_env(sit: Situation) -> dict[Any, Any]:
    """The STATUS scope's values, from a situation that has them."""
    keys = (Ctx.DEALER, Ctx.CONTRACT, Ctx.DECLARER, Ctx.TRUMP, Ctx.TRICK_NUMBER, DealtHand,
            Ctx.TURN_UP, Idle, Dropped, Invited, Ctx.DECLARER_PARTNER, IsDeclarer)
    env = {k: sit.env[k] for k in keys if k in sit.env}
    env.update({k: v for k, v in sit.env.items() if isinstance(k, tuple) and k[0] == "tracked"})
    return env


# what a seat's choice may read for it to be judged again at any later moment of the
# deal: values fixed by the time the choice is made (before the first lead), and nodes
# that compute from their operands alone
_FIXED_BY_THE_CHOICE = frozenset({Ctx.DEALER, Ctx.CONTRACT, Ctx.DECLARER})
_PURE_NODES = (Const, Not, BoolOp, Implies, Compare, Arith, IfThenElse, BidAttr, SeatAfter,
               SuitOf, CardsOfSuit, SetOp, Contains, IsEmpty, Count)


def decided(sit: Situation) -> None:
    """The values a seat's choice sets (``Decide``: the trumps the declarer names, say),
    from the choice on: those of one option the rules allowed, or what they were before it
    for a value that option leaves alone.  The fact presumes the choice was made: it is
    also in ``sit.chosen``, which a question about the choice itself leaves out.

    Stated only where it is sound to judge the options later than they were made: the
    choice always takes place, what its options read is fixed by then (the dealer, the
    contract, the declarer), and no other rule sets those values.  Elsewhere the values
    stay free, as :func:`tracked_vars` makes them.  ``sit.env`` holds the dealer, the
    contract and the declarer by now."""
    enc = sit.enc
    g = enc.game
    phase = g.program.phase(PhaseKind.DECIDE)
    if phase is None or phase.when is not None:
        return
    body = phase.body
    assert isinstance(body, K.Decide)
    names = {name for o in body.options for name, _v in o.sets}
    elsewhere = {name for _r, b in g.rules_with(K.Announce, K.Update)
                 for name, _v in b.sets} | tracked_by_own_steps(g)  # type: ignore[attr-defined]
    if names & elsewhere:
        return
    read = [o.when for o in body.options] + [v for o in body.options for _n, v in o.sets]
    for node in (n for expr in read for n in walk(expr)):
        fixed = isinstance(node, Ref) and node.ctx in _FIXED_BY_THE_CHOICE
        if not (fixed or isinstance(node, _PURE_NODES)):
            return
    comp = Z3Compiler(enc, {k: sit.env[k] for k in _FIXED_BY_THE_CHOICE})
    chosen = []
    for o in body.options:
        sets = dict(o.sets)
        chosen.append(z3.And(comp.visit(o.when), *[
            sit.env[("tracked", name)] == (comp.visit(sets[name]) if name in sets
                                           else tracked_initial(enc, g.tracked[name]))
            for name in sorted(names)]))
    fact = z3.Or(*chosen)
    sit.facts.append(fact)
    sit.chosen.append(fact)


def has_seat_sets(game: Any) -> bool:
    """Whether the seats in the play vary: a seat idle for the deal, or defenders who drop
    out (:func:`seats_in_play` then encodes who plays)."""
    return game.program.idle is not None or game.program.phase(PhaseKind.DROP_OUT) is not None


def all_seats_play(sit: Situation) -> None:
    """Where the seats in the play do not vary, no seat is idle, dropped out or invited
    back, as the engine reads these in every game."""
    no = sit.enc.bool(False)
    for key in (Idle, Dropped, Invited):
        sit.env[key] = lambda _seat: no


def idle_seat(enc: Encoding, dealer: Any) -> Any:
    """The seat idle for the deal of ``dealer`` (-1: none), as the engine reads it."""
    idle = enc.game.program.idle
    if idle is None:
        return enc.int(-1)
    return Z3Compiler(enc, {Ctx.DEALER: dealer}).visit(idle)


def dealt_in(enc: Encoding, first: Any, idle: Any, count: int) -> list[Any]:
    """The first ``count`` seats dealt in from ``first`` in the direction of play, the idle
    seat passed over (as the engine's ``dealt_in``)."""
    n = enc.game.players
    if enc.game.program.idle is None:
        return [seat_after(first, n, k) for k in range(count)]
    seat = z3.If(first == idle, seat_after(first, n), first)
    out = [seat]
    while len(out) < count:
        nxt = seat_after(out[-1], n)
        out.append(z3.If(nxt == idle, seat_after(nxt, n), nxt))
    return out


@dataclass
class SeatsInPlay:
    """Who takes part in the play: the idle seat, the defenders who dropped out, each seat's
    absence, the number of seats that play (the trick's size) and whether nobody defends."""

    idle: Any
    dropped: list[Any]
    absent: list[Any]
    size: Any
    all_out: Any


def seats_in_play(sit: Situation) -> SeatsInPlay:
    """Variables and facts for the seats in the play of a deal whose seats vary (see
    :func:`has_seat_sets`), from the situation's dealer and declarer: the idle seat is the
    rule's, any defender may have dropped out when the drop-out rule applies, the declarer
    plays, and at least one defender plays unless the rule lets every one drop out."""
    enc = sit.enc
    g = enc.game
    n = g.players
    dealer, declarer = sit.env[Ctx.DEALER], sit.env[Ctx.DECLARER]
    idle = idle_seat(enc, dealer)
    sit.values["idle"] = idle
    drop = g.program.phase(PhaseKind.DROP_OUT)
    dropped: list[Any] = []
    for s in range(n):
        if drop is None:
            dropped.append(enc.bool(False))
            continue
        d = enc.bool_var(f"dropped_{s}")
        sit.facts.append(z3.Implies(d, z3.And(declarer != s, idle != s)))
        sit.values[f"dropped_{s}"] = d
        dropped.append(d)
    if drop is not None:
        assert drop.when is not None
        sit.facts.append(z3.Implies(z3.Or(*dropped), Z3Compiler(enc, status_env(sit)).visit(drop.when)))
    absent = [z3.Or(idle == s, dropped[s]) for s in range(n)]
    size = enc.int_var("trick_size")  # named, with its definition a fact: easier for Z3
    sit.facts += [size == z3.Sum([z3.If(a, enc.int(0), enc.int(1)) for a in absent]),
                  size <= g.program.dealt_seats]
    sit.facts.append(z3.Not(enc.select(declarer, absent)))
    body = drop.body if drop is not None else None
    assert body is None or isinstance(body, K.DropOut)
    everyone_out = body is not None and body.all_out is K.AllOut.DECLARER_TAKES_ALL
    sit.facts.append(size >= (1 if everyone_out else 2))
    sit.values["trick_size"] = size
    sit.env[Idle] = lambda seat: seat == idle
    sit.env[Dropped] = lambda seat: enc.select(seat, dropped)
    # the guest: a defender invited back by the one who stayed, so both defenders play
    invited: list[Any] = [enc.bool(False)] * n
    if body is not None and body.invite:
        invited = [enc.bool_var(f"invited_{s}") for s in range(n)]
        for s in range(n):
            sit.values[f"invited_{s}"] = invited[s]
            sit.facts.append(z3.Implies(invited[s], z3.And(declarer != s, idle != s,
                                                            z3.Not(dropped[s]),
                                                            size == g.program.dealt_seats)))
        sit.facts.append(z3.Sum([z3.If(v, enc.int(1), enc.int(0)) for v in invited]) <= 1)
    sit.env[Invited] = lambda seat: enc.select(seat, invited)
    return SeatsInPlay(idle, dropped, absent, size, size == 1)


def positions(enc: Encoding, leader: Any, seats: SeatsInPlay) -> list[Any]:
    """The seat at each position of a trick led by ``leader``: the seats in the play in
    the direction of play, then those out of it (positions past the trick's size)."""
    n = enc.game.players

    def led_by(x: int) -> list[Any]:
        """The seat at each position when seat ``x`` leads: a case for each absent seat."""
        at = seats_from(x, n)
        table = []
        for j in range(n):
            # the j-th seat in the play, else the (j - size)-th out of it, from the leader
            term: Any = enc.int(at[0])
            for d in reversed(range(n)):
                before_in = z3.Sum([z3.If(seats.absent[at[e]], enc.int(0), enc.int(1))
                                    for e in range(d)] or [enc.int(0)])
                before_out = z3.Sum([z3.If(seats.absent[at[e]], enc.int(1), enc.int(0))
                                     for e in range(d)] or [enc.int(0)])
                here = z3.If(seats.absent[at[d]], seats.size + before_out == j, before_in == j)
                term = z3.If(here, enc.int(at[d]), term)
            table.append(term)
        return table

    tables = [led_by(x) for x in range(n)]
    # the leader plays (a fact of the situation), so he is at the first position
    return [leader] + [enc.select(leader, [tables[x][j] for x in range(n)]) for j in range(1, n)]


def short_trick_size(sit: Situation) -> Any:
    """The number of cards in a trick: every seat, or one fewer when the rules let one sit out."""
    enc = sit.enc
    n = enc.game.players
    sits = enc.game.constructs(K.SitsOut)
    if not sits:
        return enc.int(n)
    size = enc.int_var("trick_size")
    out = Z3Compiler(enc, status_env(sit)).visit(sits[0][1].when)  # type: ignore[attr-defined]
    sit.facts.append(size == z3.If(out, enc.int(n - 1), enc.int(n)))
    sit.values["trick_size"] = size
    return size


def reads_beating(game: Any) -> bool:
    """Whether the game's rules read the cards that would win the trick so far."""
    return any(isinstance(node, Ref) and node.ctx is Ctx.BEATING
               for _r, b in game.rules_with(K.PlayRule) for f in ("applies", "permits")
               for node in walk(getattr(b, f)))


# per game: each card's strength for each led suit and trumps (see strength_table)
_STRENGTHS: dict[int, tuple[Any, dict[tuple[int, int], tuple[int, ...]] | None]] = {}


def strength_table(enc: Encoding) -> dict[tuple[int, int], tuple[int, ...]] | None:
    """Each card's strength in a trick, for each led suit and trump suit (codes, NO_SUIT
    included), when the game's strength reads nothing else (not the contract, the position,
    a value tracked, a suit a card is named as); else None.  The values are the game's own
    strength expression, compiled for each known card and simplified to a number.

    Worked out once per game, in a Z3 context of its own: the terms it makes never enter
    ``enc``'s context.  Z3's search follows the order in which a context's terms were
    made, so a query would otherwise take another course (and another number of Z3's
    steps) depending on whether some earlier work in the process had made the table."""
    g = enc.game
    hit = _STRENGTHS.get(id(g))
    if hit is not None and hit[0] is g:
        return hit[1]
    table = None if D.declaration_choices(g) else _strengths(Encoding(g, z3.Context()))
    _STRENGTHS[id(g)] = (g, table)
    return table


def _strengths(enc: Encoding) -> dict[tuple[int, int], tuple[int, ...]] | None:
    g = enc.game
    body = D.strength(g)
    codes = range(NO_SUIT + 1)
    out: dict[tuple[int, int], tuple[int, ...]] = {}
    for led in codes:
        for trump in codes:
            row = []
            for c in range(len(g.deck)):
                seen = set()
                for p in range(g.players):  # the same at every position, or no table
                    env = {Ctx.CARD: enc.bv(1 << c), Ctx.DECLARED: enc.int(NO_SUIT),
                           Ctx.LED_SUIT: enc.int(led), Ctx.TRUMP: enc.int(trump),
                           Ctx.IS_LEADING: enc.bool(p == 0), Ctx.POSITION: enc.int(p)}
                    try:
                        v = z3.simplify(Z3Compiler(enc, env).visit(body))
                    except UnsupportedNodeError:  # it reads more than the card, lead and trumps
                        return None
                    if not z3.is_int_value(v):
                        return None
                    seen.add(v.as_long())
                if len(seen) != 1:
                    return None
                row.append(seen.pop())
            out[(led, trump)] = tuple(row)
    return out


def not_beaten_by(enc: Encoding, table: dict[tuple[int, int], tuple[int, ...]], led: Any,
                  trump: Any) -> list[Any]:
    """For each card, the cards at least as strong in a trick of this led suit and trumps
    (a card played after them does not win): card sets chosen by the two suits."""
    n = len(enc.game.deck)
    out = []
    for c in range(n):
        by_mask: dict[int, list[Any]] = {}
        for (lead_code, trump_code), row in table.items():
            mask = sum(1 << d for d in range(n) if d != c and row[d] >= row[c])
            by_mask.setdefault(mask, []).append(z3.And(led == lead_code, trump == trump_code))
        groups = sorted(by_mask.items(), key=lambda kv: -len(kv[1]))
        term = enc.bv(groups[0][0])  # the most common set: every other case says otherwise
        for mask, conds in groups[1:]:
            term = z3.If(z3.Or(*conds), enc.bv(mask), term)
        out.append(term)
    return out


def beating_of(enc: Encoding, hand: Any, before: Any, stronger: list[Any]) -> Any:
    """The cards of ``hand`` that beat every card of ``before`` (none when it is empty:
    leading), ``stronger`` being :func:`not_beaten_by` of the trick."""
    out = enc.bv(0)
    for c, mask in enumerate(stronger):
        wins = z3.And(z3.Extract(c, c, hand) == 1, before != 0, before & mask == 0)
        out = out | z3.If(wins, enc.bv(1 << c), enc.bv(0))
    return out


def beating_term(enc: Encoding, base: dict[Any, Any], hand: Any, cards: list[Any],
                 named: list[Any]) -> Any:
    """The cards of ``hand`` that would win a trick whose first cards are ``cards`` (with
    their named suits), played next without naming a suit: stronger than each of them by
    the trick's order, the lead's suit deciding (none when leading)."""
    g = enc.game
    j = len(cards)
    if j == 0:
        return enc.bv(0)
    table = strength_table(enc)
    if table is not None:  # the lead's suit and trumps decide: card sets, no arithmetic
        led = Z3Compiler(enc, {**base, (Ctx.PLAYED_CARD, 0): cards[0],
                               (Ctx.PLAYED_DECLARED, 0): named[0]}).visit(D.played_suit(g, 0))
        before = cards[0]
        for c in cards[1:]:
            before = before | c
        return beating_of(enc, hand, before, not_beaten_by(enc, table, led, base[Ctx.TRUMP]))
    env = dict(base)
    for i in range(j):
        env[(Ctx.PLAYED_CARD, i)] = cards[i]
        env[(Ctx.PLAYED_DECLARED, i)] = named[i]
    # the best strength so far, once; each card's own strength simplified (its suit and
    # rank are known, so little more than a test of the led suit and trumps is left)
    best: Any = None
    for i in range(j):
        st = Z3Compiler(enc, env).visit(D.strength_at(g, i))
        best = st if best is None else z3.If(st > best, st, best)
    out = enc.bv(0)
    for c in range(len(g.deck)):
        here = {**env, (Ctx.PLAYED_CARD, j): enc.bv(1 << c), (Ctx.PLAYED_DECLARED, j): enc.int(NO_SUIT)}
        st = z3.simplify(Z3Compiler(enc, here).visit(D.strength_at(g, j)))
        wins = z3.And(z3.Extract(c, c, hand) == 1, st > best)
        out = out | z3.If(wins, enc.bv(1 << c), enc.bv(0))
    return out


# long: one situation: its Z3 terms are made in an order the solver's search (and so the
# verdicts and counterexamples kept byte for byte) depends on; a split must keep that order
@_built_once
def trick_situation(enc: Encoding, played: int) -> Situation:
    """A trick with ``played`` cards on the table and the hands of all seats.

    With ``played == players`` it is a complete trick (scope TRICK); otherwise the seat
    at position ``played`` is about to play (scope PLAY).  Hands are indexed by position
    in the trick: the seat at position ``j`` is ``(leader + j) mod players``.  In a game
    where a seat can sit out, a complete trick may hold one card fewer (its last position
    is then empty), and a position exists only if its seat plays.

    Cards a seat has set aside lie outside its hand; the rules that set them aside say
    whose they are, how many, and when they must have gone back (facts below).  Tracked
    values are free: any value of their type.
    """
    g = enc.game
    n = g.players
    _stated_soundly(enc, "trick")
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
    sit.env.update({Ctx.DECLARER: declarer, Ctx.DEALER: dealer})
    up = turn_up_var(sit)
    tracked_vars(sit, "s")  # before trumps, which a seat's choice may name
    trump = trump_term(sit, contract)
    hands = [enc.cards_var(f"hand_{j}") for j in range(n)]
    asides = [enc.cards_var(f"aside_{j}") for j in range(n)]
    dealt = [enc.cards_var(f"dealt_{j}") for j in range(n)]
    cards = [enc.cards_var(f"card_{j}") for j in range(n)]
    named = [enc.int_var(f"named_{j}") for j in range(n)]
    from_aside = [enc.bool_var(f"from_aside_{j}") for j in range(n)]
    seats: list[Any] = []

    def dealt_of(seat: Any) -> Any:
        return enc.select(seat, dealt, seats)

    base = {
        Ctx.CONTRACT: contract, Ctx.DECLARER: declarer, Ctx.DEALER: dealer, Ctx.TRUMP: trump,
        Ctx.TRICK_NUMBER: k, Ctx.LEADER: leader, DealtHand: dealt_of,
    }
    if up is not None:
        base[Ctx.TURN_UP] = up
    sit.env.update(base)
    base.update({key: v for key, v in sit.env.items() if isinstance(key, tuple)})
    decided(sit)
    in_play = seats_in_play(sit) if has_seat_sets(g) else None
    if in_play is None:
        all_seats_play(sit)
    base.update({Idle: sit.env[Idle], Dropped: sit.env[Dropped], Invited: sit.env[Invited]})
    size = short_trick_size(sit) if in_play is None else in_play.size
    if played < n:
        sit.facts.append(played < size)
    # the seats in order of play from the leader, skipping a seat that sits out
    sits = g.constructs(K.SitsOut)
    out: Any = enc.int(-1)
    if in_play is not None:  # the seats in the play, then those out of it
        sit.facts.append(z3.Not(enc.select(leader, in_play.absent)))
        seats.extend(positions(enc, leader, in_play))
        for j in range(n):
            sit.values[f"seat_{j}"] = seats[j]
    else:
        if sits:
            out = z3.If(size < n, Z3Compiler(enc, status_env(sit)).visit(sits[0][1].seat),  # type: ignore[attr-defined]
                        enc.int(-1))
            sit.facts.append(leader != out)
        sit.values["out"] = out
        seats.append(leader)
        for j in range(1, n):
            nxt = seat_after(seats[-1], n)
            seats.append(z3.If(nxt == out, seat_after(nxt, n), nxt))
    if up is not None:  # the turn-up is one of its holder's cards as dealt
        sit.facts.append(up & ~dealt_of(turn_up_holder(enc, dealer)) == 0)
    # who declares and partners the declarer (the partner's rule reads the hands as dealt,
    # by seat, so only now that the seats in the trick are known)
    sides(sit, contract, declarer)
    trumps_from_hands(sit)
    played_out(sit)
    base.update({key: sit.env[key] for key in (Ctx.DECLARER_PARTNER, IsDeclarer)})
    for j in range(n):
        sit.values[f"hand_{j}"] = hands[j]
        sit.values[f"aside_{j}"] = asides[j]
        sit.values[f"card_{j}"] = cards[j]
        sit.values[f"named_{j}"] = named[j]
        sit.values[f"from_aside_{j}"] = from_aside[j]
        sit.values[f"dealt_{j}"] = dealt[j]
    present = [enc.bool(True) if j < played else enc.bool(False) for j in range(n)]
    if played == n:
        present = [z3.BoolVal(True, enc.ctx) if j < n - 1 else size == n for j in range(n)]
        if in_play is not None:
            present = [size > j for j in range(n)]
    everything = list(hands) + list(asides) + list(cards[:played])
    for a in range(len(everything)):
        for b in range(a + 1, len(everything)):
            sit.facts.append(everything[a] & everything[b] == 0)
    for a in range(n):
        for b in range(a + 1, n):
            sit.facts.append(dealt[a] & dealt[b] == 0)
    # cards set aside: only the declarer's, at most the number laid, of the trump suit if
    # they name it, and none once the rule has sent them back
    before_hand = [z3.If(from_aside[j], hands[j], hands[j] | cards[j]) if j < played else hands[j]
                   for j in range(n)]
    before_aside = [z3.If(from_aside[j], asides[j] | cards[j], asides[j]) if j < played
                    else asides[j] for j in range(n)]
    aside_rules = [p.body for p in g.program.phases_of(PhaseKind.SET_ASIDE)]
    status = Z3Compiler(enc, status_env(sit))
    # a phase the game writes as steps of its own may leave cards aside, or change how
    # many a seat holds: then nothing is assumed of them (spec.dsl._origins)
    cleared, sized = aside_cleared(g), sizes_kept(g)
    for j in range(n):
        if not aside_rules:
            if cleared:
                sit.facts += [asides[j] == 0, z3.Not(from_aside[j])]
            continue
        # whichever stage's rule laid them: the most any rule lays, of the trump suit only
        # if every rule names trumps, and gone only when every rule would send them back
        sit.facts.append(z3.Implies(seats[j] != declarer, before_aside[j] == 0))
        sit.facts.append(enc.popcount(before_aside[j]) <= max(r.count for r in aside_rules))  # type: ignore[attr-defined]
        if all(r.names_trump for r in aside_rules):  # type: ignore[attr-defined]
            sit.facts.append(before_aside[j] & ~status.visit(CardsOfSuit(Ref(Ctx.TRUMP))) == 0)
        back = z3.And(*[status.visit(r.returns_when) for r in aside_rules])  # type: ignore[attr-defined]
        sit.facts.append(z3.Implies(back, before_aside[j] == 0))
    # a value that only the end of a trick changes still has its first value in trick 1
    set_elsewhere = {name for _r, b in g.constructs(K.Announce) for name, _v in b.sets}  # type: ignore[attr-defined]
    set_elsewhere |= tracked_by_own_steps(g)  # a phase of the game's own may set them
    decide = g.program.phase(PhaseKind.DECIDE)
    set_elsewhere |= {name for o in (decide.body.options if decide is not None else ())  # type: ignore[union-attr]
                      for name, _v in o.sets}
    for name, track in g.tracked.items():
        if name not in set_elsewhere:
            var = sit.env[("tracked", name)]
            first = enc.bool(bool(track.initial)) if track.type is T.BOOL else enc.int(int(track.initial))  # type: ignore[call-overload]
            sit.facts.append(z3.Implies(k == 1, var == first))
    came_from = _sources(enc, g, seats, dealt, declarer)
    for j in range(n):
        held = hands[j] | asides[j]
        size_j = enc.int(g.tricks) - k + (0 if j < played else 1)
        if played == n and j == n - 1:
            size_j = z3.If(present[j], size_j, enc.int(g.tricks) - k + 1)
        share: Any = enc.int(g.tricks)
        if in_play is not None:
            # a seat out of the play holds nothing: the idle seat was dealt nothing and a
            # defender who dropped out laid his hand down
            size_j = z3.If(size > j, enc.int(g.tricks) - k + (0 if j < played else 1), enc.int(0))
            share = z3.If(seats[j] == in_play.idle, enc.int(0), share)
        if sized:
            sit.facts.append(enc.popcount(held) == size_j)
        sit.facts.append((held | z3.If(present[j] if j < played or played == n else enc.bool(False),
                                       cards[j], enc.bv(0))) & ~came_from(j) == 0)
        sit.facts.append(enc.popcount(dealt[j]) == share)
    # the cards already played were legal when they were played
    led: Any = enc.int(NO_SUIT)
    faces: list[Any] = []
    beats = reads_beating(g)
    for j in range(played + (1 if played < n else 0)):
        env = dict(base)
        env.update({
            Ctx.SEAT: seats[j], Ctx.HAND: before_hand[j], Ctx.ASIDE: before_aside[j],
            Ctx.IS_LEADING: enc.bool(j == 0), Ctx.POSITION: enc.int(j), Ctx.LED_SUIT: led,
            Ctx.CARD: cards[j], Ctx.DECLARED: named[j],
        })
        if beats:  # the cards that would win the trick so far
            env[Ctx.BEATING] = beating_term(enc, base, before_hand[j], cards[:j], named[:j])
        c = Z3Compiler(enc, env)
        needs = c.visit(D.needs_declaration(g))
        choices = D.declaration_choices(g)
        decl_ok = z3.And(z3.Or(*[named[j] == code for code in choices]) if choices else enc.bool(False),
                         c.visit(D.declaration_ok(g)))
        if j < played:
            exists = present[j]
            sit.facts += [z3.Implies(exists, enc.one_hot(cards[j])),
                          z3.Implies(exists, (cards[j] & (hands[j] | asides[j])) == 0),
                          z3.Implies(exists, z3.If(needs, decl_ok, named[j] == NO_SUIT)),
                          z3.Implies(exists, (c.visit(D.legal_cards(g)) & cards[j]) != 0),
                          z3.Implies(z3.Not(exists), z3.And(cards[j] == 0, named[j] == NO_SUIT,
                                                             z3.Not(from_aside[j])))]
            faces.append(z3.And(exists, c.visit(D.face_down(g))))
        else:  # the seat to act (scope PLAY): its card is any card it holds
            sit.facts += [enc.one_hot(cards[j]), (cards[j] & (hands[j] | asides[j])) != 0,
                          z3.If(needs, decl_ok, named[j] == NO_SUIT)]
            sit.env.update(env)
        if j == 0:
            led = Z3Compiler(enc, dict(env)).visit(D.entry_suit(g))
    if played == n:
        sit.env.update(base)
        sit.env[Ctx.TRICK_SIZE] = size
        for j in range(n):
            sit.env[(Ctx.PLAYED_CARD, j)] = cards[j]
            sit.env[(Ctx.PLAYED_DECLARED, j)] = named[j]
            sit.env[(Ctx.PLAYED_FACE_DOWN, j)] = faces[j]
            sit.values[f"face_down_{j}"] = faces[j]
        winner = sit.compile(D.trick_winner(g))
        sit.values["winner"] = winner
    else:
        sit.values["legal"] = sit.compile(D.legal_cards(g))
    sit.values["led_suit"] = led if played > 0 else enc.int(NO_SUIT)
    return sit


def _sources(enc: Encoding, game: Any, seats: list[Any], dealt: list[Any], declarer: Any
             ) -> Callable[[int], Any]:
    """``came_from(j)``: the cards the seat at position ``j`` may hold in the play, by where
    the steps let a seat's cards come from (:func:`~spec.dsl._origins.hand_origins`): the
    cards dealt to it; the talon (the cards dealt to no seat) too if a step gives it to the
    seat a field names and that seat is this one; any card where the steps say no more."""
    origins = hand_origins(game)
    undealt = ~functools.reduce(operator.or_, dealt)
    seat_of = {"declarer": declarer}

    def came_from(j: int) -> Any:
        if ANY in origins or any(o.source == "talon" and o.to not in seat_of for o in origins):
            return enc.bv(-1)
        out = dealt[j]
        for o in sorted(origins - {DEALT}, key=str):  # the talon, to the seat a field names
            out = out | z3.If(seats[j] == seat_of[o.to], undealt, enc.bv(0))  # type: ignore[index]
        return out

    return came_from


# long: one situation: its Z3 terms are made in an order the solver's search depends on; a
# split must keep that order
@_built_once
def outcome_situation(enc: Encoding) -> Situation:
    """The end of the play: a contract, its declarer, who won each trick and the cards each
    seat took (every card once, a trick's worth per trick won)."""
    _stated_soundly(enc, "outcome")
    g = enc.game
    n = g.players
    sit = Situation(enc)
    contract = enc.int_var("contract")
    sit.facts.append(biddable(enc, contract, "contract"))
    sit.values["contract"] = contract
    winners = [_seat_var(sit, f"winner_{k}") for k in range(1, g.tricks + 1)]
    declarer = _seat_var(sit, "declarer")
    dealer = _seat_var(sit, "dealer")
    sit.env.update({Ctx.DECLARER: declarer, Ctx.DEALER: dealer})
    up = turn_up_var(sit)
    tracked_vars(sit, "o")  # before trumps, which a seat's choice may name
    trump = trump_term(sit, contract)
    # who took each card (-1: nobody, the hand of a seat sitting out); as integers the
    # sets are disjoint by construction, which keeps card-point sums linear for Z3
    # each card lies in one trick, and goes to the trick's winner (-1: in no trick)
    in_trick = [enc.int_var(f"trick_of_{i}") for i in range(len(g.deck))]
    owner = []
    for i in range(len(g.deck)):
        o: Any = enc.int(-1)
        for k in range(g.tricks, 0, -1):
            o = z3.If(in_trick[i] == k, winners[k - 1], o)
        owner.append(o)
    taken = [enc.owned_by(owner, s) for s in range(n)]
    dealt = [enc.cards_var(f"dealt_{s}") for s in range(n)]
    def won(seat: Any, number: Any) -> Any:
        if z3.is_int_value(number):
            i = number.as_long()
            return winners[i - 1] == seat if 1 <= i <= len(winners) else enc.bool(False)
        return z3.Or(*[z3.And(number == i + 1, winners[i] == seat) for i in range(len(winners))])

    def pick(table: list[Any]) -> Any:
        return lambda seat: enc.select(seat, table)

    # each trick has one winner (stated as a count, which Z3's arithmetic uses directly)
    for w in winners:
        sit.facts.append(z3.Sum([z3.If(w == s, enc.int(1), enc.int(0)) for s in range(n)]) == 1)
    pending_total: list[Any] = []
    # the card points each seat took, as named terms, with the fact that disjoint sets'
    # points add up to the points of their union
    for _r, body in g.constructs(K.CardPoints):
        table = body.table  # type: ignore[attr-defined]
        values = [enc.int(table.value(c)) for c in g.deck]
        took = [enc.int_var(f"points_{s}") for s in range(n)]
        for s in range(n):
            sit.facts.append(took[s] == z3.Sum([z3.If(owner[i] == s, values[i], enc.int(0))
                                                for i in range(len(g.deck))]))
            sit.values[f"points_{s}"] = took[s]
            no_tricks = z3.And(*[w != s for w in winners])
            sit.facts += [took[s] >= 0, z3.Implies(no_tricks, took[s] == 0)]
        sit.facts.append(z3.Sum(took) == z3.Sum([z3.If(owner[i] >= 0, values[i], enc.int(0))
                                                 for i in range(len(g.deck))]))
        total = sum(table.value(c) for c in g.deck)
        sit.env[("sum_taken", table.name)] = pick(took)
        sit_total = z3.Sum(took) == total
        pending_total.append(sit_total)
    sit.env.update({
        Ctx.CONTRACT: contract, Ctx.DECLARER: declarer, Ctx.DEALER: dealer, Ctx.TRUMP: trump,
        Ctx.SEAT: _seat_var(sit, "seat"), WonTrick: won, Taken: pick(taken),
        DealtHand: pick(dealt), Ctx.TRICK_NUMBER: enc.int(g.tricks + 1),
    })
    sides(sit, contract, declarer)
    trumps_from_hands(sit)
    played_out(sit)
    decided(sit)
    for _r, body in g.constructs(K.Pot):  # any pot a deal can start with
        # a whole number of units of the granularity, at least one: written as a product,
        # so that a rule's fraction of the pot (pot // 10) simplifies to a number of units
        # and the arithmetic stays linear
        units = enc.int_var("pot_units")
        pot = body.granularity * units  # type: ignore[attr-defined]
        sit.facts.append(units >= 1)
        sit.env[Ctx.POT] = pot
        sit.values["pot"] = pot
    # each seat's tricks and trick points as named terms, with the facts that every trick
    # goes to one seat, so they add up to the number of tricks and to the tricks' values
    count = [enc.int_var(f"tricks_{s}") for s in range(n)]
    for s in range(n):
        sit.facts += [count[s] == z3.Sum([z3.If(w == s, enc.int(1), enc.int(0)) for w in winners]),
                      count[s] >= 0]
    sit.facts.append(z3.Sum(count) == g.tricks)
    sit.env[TricksWon] = pick(count)
    if not g.constructs(K.CardPoints):
        values = [sit.compile(D.trick_value(g, k)) for k in range(1, g.tricks + 1)]
        pts = [enc.int_var(f"trick_points_{s}") for s in range(n)]
        for s in range(n):
            sit.facts.append(pts[s] == sit.compile(D.points_won(g, Const(s, T.SEAT))))
        sit.facts.append(z3.Sum(pts) == z3.Sum(values))
        sit.env[PointsWon] = pick(pts)
    in_play = seats_in_play(sit) if has_seat_sets(g) else None
    if in_play is None:
        all_seats_play(sit)
    size = short_trick_size(sit) if in_play is None else in_play.size
    # with every seat playing and no talon, every card is taken: the points add up to the
    # table's total (cards of the talon, or discarded, are in no trick)
    every_card = (size == n) if g.program.undealt == 0 else enc.bool(False)
    sit.facts += [z3.Implies(every_card, t) for t in pending_total]
    for i in range(len(g.deck)):
        sit.facts += [in_trick[i] >= z3.If(every_card, enc.int(1), enc.int(0)),
                      in_trick[i] <= g.tricks]
    cards_per_trick = size
    if in_play is not None:
        # tricks go to seats in the play; with nobody defending there is no play, and the
        # declarer is credited with every trick
        cards_per_trick = z3.If(in_play.all_out, enc.int(0), size)
        for w in winners:
            sit.facts.append(z3.Not(enc.select(w, in_play.absent)))
    for k in range(1, g.tricks + 1):
        sit.facts.append(z3.Sum([z3.If(t == k, enc.int(1), enc.int(0)) for t in in_trick])
                         == cards_per_trick)
    for a in range(n):
        for b in range(a + 1, n):
            sit.facts.append(dealt[a] & dealt[b] == 0)
    # the hands as played share out the whole deck but the talon (deal.partitions_deck)
    union = dealt[0]
    for d in dealt[1:]:
        union = union | d
    if g.program.undealt == 0:
        sit.facts.append(union == enc.bv(enc.full))
    if up is not None:  # the turn-up is one of its holder's cards as dealt
        sit.facts.append(up & ~enc.select(turn_up_holder(enc, dealer), dealt) == 0)
    for s in range(n):
        share = enc.int(g.tricks) if in_play is None else z3.If(
            in_play.idle == s, enc.int(0), enc.int(g.tricks))
        sit.facts.append(enc.popcount(dealt[s]) == share)
        sit.values[f"taken_{s}"] = taken[s]
        sit.values[f"dealt_{s}"] = dealt[s]
    return sit


@_built_once
def deal_schedule(enc: Encoding) -> tuple[Situation, list[Any]]:
    """Where the deal rule sends each position of the pack, for a symbolic dealer.

    A shuffle is a bijection from cards to pack positions, so the hands share out the
    deck exactly when the schedule sends every position to one seat and gives each seat
    its share; the proof is about the schedule, for every dealer.
    """
    g = enc.game
    sit = Situation(enc)
    dealer = _seat_var(sit, "dealer")
    idle = idle_seat(enc, dealer)
    sit.values["idle"] = idle
    dest: list[Any] = []
    for stage in range(1, g.stages + 1):
        deal = g.stage_rule(K.DealPackets, stage)
        assert isinstance(deal, K.DealPackets)
        first = Z3Compiler(enc, {Ctx.DEALER: dealer}).visit(deal.first)
        order = dealt_in(enc, first, idle, g.program.dealt_seats)
        dest += [enc.int(-1) if k < 0 else order[k] for k in g.program.layout(stage)]
    for i, d in enumerate(dest):
        sit.values[f"dest_{i}"] = d
    sit.env[Ctx.DEALER] = dealer
    for name, track in g.tracked.items():  # as the deal starts
        sit.env[("tracked", name)] = tracked_initial(enc, track)
    sit.env[Receives] = lambda k: enc.select(k, [*dest, enc.int(-1)],
                                             keys=[*range(1, len(dest) + 1), -1])
    return sit, dest


def exchange(enc: Encoding, held: list[Any], talon: Any, declarer: Any, takes: Any
             ) -> tuple[list[Any], Any, list[Any]]:
    """The hands after the exchange (``TakeTalon``): when ``takes`` holds, the declarer
    adds the talon to his hand and discards the rule's number of cards from it (the engine
    takes them one at a time, each a card then in his hand: any set of that size from his
    hand and the talon); otherwise no hand changes and nothing is discarded.  Returns the
    hands, the discards and the facts that bind them."""
    phase = enc.game.program.phase(PhaseKind.EXCHANGE)
    body = phase.body if phase is not None else None
    assert isinstance(body, K.TakeTalon)
    discards = enc.cards_var("discards")
    mine = enc.select(declarer, held) | talon
    facts = [z3.If(takes, z3.And(enc.popcount(discards) == body.discards, discards & ~mine == 0),
                   discards == 0)]
    after = [z3.If(z3.And(takes, declarer == s), (h | talon) & ~discards, h)
             for s, h in enumerate(held)]
    return after, discards, facts


@_built_once
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
