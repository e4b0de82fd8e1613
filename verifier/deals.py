"""Deals that satisfy a constraint: found by Z3, or by dealing and rejecting; or a proof
that none exist.

:func:`deals_where` answers "deals where X" for any game.  Two methods give the same kind
of answer:

* **rejection**: the engine's own dealer deals from seeds and keeps the deals the
  constraint accepts (quick when the constraint is common);
* **Z3**: a Boolean for each card and place (a seat or the talon), exactly one place per
  card, the deal rule's share for each place, and the constraint.  Z3's consequences tell
  once where the constraint lets each card go; each new deal then starts from a random
  deal (from the seed) that puts every card where it may go, and Z3 keeps every card of it
  that it can: taken in a random order, cards are given up only when the unsatisfiable
  core shows they conflict with those before them (the later half of the core, at each
  check).  Where the constraint is a matter of which cards go where (holds, void, all of
  a rank) that is one check a deal, and the deals are as diverse as random deals.  A deal
  found is then excluded, so deals are distinct.  When no deal at all satisfies the
  constraint, Z3 proves it.

``method="auto"`` deals first and turns to Z3 as soon as the share of deals the constraint
accepts says that dealing on would take longer than Z3.  Every deal returned has been
checked by the engine: its hands share out the deck as the deal rule does, and the
engine's compilation of the constraint accepts it.  The same seed gives the same deals.

Z3's ``unknown`` (a spent time or resource budget) ends the search with the status
``unknown`` and the deals found before; it is never read as "no (more) such deals".

A constraint that reads ``dd()`` (a double-dummy value) is judged by the solver, deal by
deal, so only dealing looks for it ("auto" deals and never turns to Z3; "z3" is refused):
a deal on which the condition is neither true nor false (a search spent its ``budget`` of
nodes) is skipped, and counted in ``skipped``.
"""
from __future__ import annotations

import ctypes
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from spec.constraints import deal_test
from spec.double_dummy import Judge, reads_double_dummy
from spec.dsl._build import Game
from spec.dsl._nodes import Ctx, DealtHand, Expr
from spec.engine import engine_for
from spec.errors import NotationError
from verifier._z3.compile import Encoding, Z3Compiler
from verifier._z3.solver import SEARCH_RLIMIT, Solving

__all__ = ["REJECTION_TRIES", "Z3_REFUSES_DD", "DealSearch", "deals_where"]

REJECTION_TRIES = 4000  # deals dealt per deal wanted before "auto" turns to Z3
Z3_REFUSES_DD = ("Z3 cannot encode dd() (the solver's double-dummy value): a condition with "
                 "dd() is searched among deals dealt or played by bots (--method auto or "
                 "rejection)")

# "auto" chooses by expected time, from the share of deals the constraint accepts (counted,
# never timed, so that a seed gives the same deals on any machine) and these speeds,
# measured with ``benchmarks/deals.py`` on the reference machine (2 cores, Vint):
_DEALT_PER_SECOND = 25_000  # deals the engine deals and the constraint judges
_Z3_PER_SECOND = 400  # deals Z3 finds once the search has begun (300 to 600, 52 cards)
_Z3_START = 0.03  # seconds to encode the constraint and find the first deal
# Every _CHECK_EVERY deals "auto" compares: it turns to Z3 as soon as dealing on would be
# slower even at a generous estimate of the share accepted, or, once it has dealt a sample
# that costs this share of Z3's time, at the likeliest estimate
_SAMPLE_SHARE = 0.15
_CHECK_EVERY = 100


def _z3_seconds(wanted: int) -> float:
    """The time Z3 is expected to take for ``wanted`` deals, the encoding included."""
    return _Z3_START + wanted / _Z3_PER_SECOND


@dataclass
class DealSearch:
    """The answer: ``found`` (with the deals), ``impossible`` or ``unknown`` (with why)."""

    status: str
    deals: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (dealer, hands)
    method: str = ""
    reason: str = ""
    seconds: float = 0.0
    dealt: int = 0  # deals dealt by the rejection method
    skipped: dict[str, int] = field(default_factory=dict)  # by why: a dd() unknown


Found = Callable[[int, tuple[int, ...]], None]


class _Accept:
    """Deals as they are found: each checked by the engine (the deal rule's shares and the
    constraint), kept, and passed on to ``on_found`` at once, so that a caller can write
    them while the search goes on."""

    def __init__(self, game: Game, test: Callable[..., bool], on_found: Found | None) -> None:
        self.eng = engine_for(game)
        self.test = test
        self.on_found = on_found
        self.deals: list[tuple[int, tuple[int, ...]]] = []

    def __call__(self, dealer: int, hands: tuple[int, ...]) -> None:
        self.eng.check_hands(hands)
        if not self.test(dealer, hands):
            raise AssertionError("a deal the engine does not accept: the Z3 and engine "
                                 "compilations of the constraint disagree")
        self.deals.append((dealer, hands))
        if self.on_found is not None:
            self.on_found(dealer, hands)


def _rejection(game: Game, test: Callable[..., bool], dealer: int, n: int, seed: int,
               tries: int, give_up: bool, accept: _Accept) -> int:
    """Deal from the seed and accept the deals the constraint accepts; the deals dealt.

    With ``give_up`` (the method "auto"), stop as soon as dealing on is expected to take
    longer than Z3 would for the deals still wanted (see ``_SAMPLE_SHARE``).
    """
    eng = accept.eng
    seen: set[tuple[int, ...]] = set()
    k = hits = 0
    sample = int(_SAMPLE_SHARE * _z3_seconds(n) * _DEALT_PER_SECOND)
    while len(accept.deals) < n and k < tries:
        hands = eng.hands_from_order(eng.deal_order(seed, k), dealer)
        k += 1
        if test(dealer, hands):
            hits += 1
            if hands not in seen:
                seen.add(hands)
                accept(dealer, hands)
        if give_up and k % _CHECK_EVERY == 0:
            wanted = n - len(accept.deals)
            solving = _z3_seconds(wanted)
            # (hits + 2) / k: a share that the true one exceeds only by bad luck (one time in
            # seven when no deal has been accepted yet)
            if (wanted * k / ((hits + 2) * _DEALT_PER_SECOND) > solving
                    or k >= sample and (not hits or wanted * k / (hits * _DEALT_PER_SECOND)
                                        > solving)):
                break  # rarer than Z3 is slow: dealing on would take longer than solving
    return k


class _Owners:
    """Z3 variables for one deal: the seat that receives each card (-1: the talon), with the
    deal rule's share for each seat (none for the seat idle in the deal of ``dealer``), and
    the hands as card sets for the constraint."""

    def __init__(self, game: Game, solving: Solving, dealer: int | None = None) -> None:
        self.game = game
        self.enc = enc = Encoding(game, solving.ctx)
        n, size = game.players, len(game.deck)
        self.owner = [enc.int_var(f"owner_{i}") for i in range(size)]
        share = game.program.hand_size
        talon = game.program.talon_cards
        idle = engine_for(game).idle_seat(dealer) if dealer is not None else -1
        self.facts = [z3.And(o >= (-1 if talon else 0), o < n) for o in self.owner]
        for s in [*range(n), *([-1] if talon else [])]:
            self.facts.append(z3.Sum([z3.If(o == s, enc.int(1), enc.int(0))
                                      for o in self.owner])
                              == (talon if s < 0 else 0 if s == idle else share))
        self.hands = [enc.owned_by(self.owner, s) for s in range(n)]

    def compile(self, where: Expr, dealer: int) -> Any:
        enc = self.enc
        env = {Ctx.DEALER: enc.int(dealer), DealtHand: lambda seat: enc.select(seat, self.hands)}
        return Z3Compiler(enc, env).visit(where)

    def decode(self, model: z3.ModelRef) -> tuple[int, ...]:
        masks = [0] * self.game.players
        for i, o in enumerate(self.owner):
            seat = model.eval(o, model_completion=True).as_long()
            if seat >= 0:  # not the talon
                masks[seat] |= 1 << i
        return tuple(masks)


# Terms made by Z3's C API directly: the Python API's checks of every argument cost more
# than the terms themselves, and a deal search makes some hundreds of them per deal wanted
# (to begin) and one clause per deal found.  Every result is wrapped at once, so that its
# reference count keeps it alive.

def _ast(ctx: z3.Context, a: Any) -> z3.BoolRef:
    return z3.BoolRef(a, ctx)


def _bool(ctx: z3.Context, name: str) -> z3.BoolRef:
    """A Boolean constant named ``name``."""
    r = ctx.ref()
    return _ast(ctx, z3.Z3_mk_const(r, z3.Z3_mk_string_symbol(r, name), z3.Z3_mk_bool_sort(r)))


def _assert(s: Any, terms: list[Any]) -> None:  # s: a solver made by Solving
    """Add each of ``terms`` (Boolean terms of the solver's context) to the solver."""
    r = s.ctx.ref()
    for t in terms:
        z3.Z3_solver_assert(r, s.solver, t.as_ast())


def _exactly(ctx: z3.Context, lits: list[z3.BoolRef], k: int) -> z3.BoolRef:
    """Exactly ``k`` of ``lits`` are true (a cardinality constraint)."""
    n = len(lits)
    args = (z3.Ast * n)(*[b.as_ast() for b in lits])
    return _ast(ctx, z3.Z3_mk_pbeq(ctx.ref(), n, args, (ctypes.c_int * n)(*[1] * n), k))


def _bits(ctx: z3.Context, lits: list[z3.BoolRef]) -> z3.BitVecRef:
    """The bit vector whose bit ``i`` is ``lits[i]`` (a card set from one Boolean per card)."""
    one, zero = z3.BitVecVal(1, 1, ctx), z3.BitVecVal(0, 1, ctx)  # kept alive while used
    r, c = ctx.ref(), z3.BitVecRef
    bits = [c(z3.Z3_mk_ite(r, b.as_ast(), one.as_ast(), zero.as_ast()), ctx) for b in lits]
    out = bits[0]
    for b in bits[1:]:  # Concat(b_n-1, ..., b_0): the last card is the highest bit
        out = c(z3.Z3_mk_concat(r, b.as_ast(), out.as_ast()), ctx)
    return out


class _Places:
    """Z3 variables for one deal, as the plain encoding a card player would write: a
    Boolean per card and place (a seat, or the talon) that says the card is dealt there,
    exactly one place per card, and the deal rule's share for each place (none for the
    seat idle in the deal of ``dealer``).  The hands, as card sets, are built from those
    Booleans for the constraint.

    Booleans rather than an owner number per card (:class:`_Owners`, which the scenarios
    share): the shares are then cardinality constraints, the constraint's counts of cards
    become sums of Booleans, and a card of the random deal a search starts from is one of
    these Booleans, which Z3 takes as an assumption with no clause added for it.
    """

    def __init__(self, game: Game, solving: Solving, dealer: int) -> None:
        self.game = game
        self.ctx = ctx = solving.ctx
        self.enc = Encoding(game, ctx)
        n, size = game.players, len(game.deck)
        talon = game.program.talon_cards
        idle = engine_for(game).idle_seat(dealer)
        #: the places, as the engine numbers them: seats 0 to n - 1, and -1 for the talon
        self.places = [*range(n), *([-1] if talon else [])]
        self.share = [talon if p < 0 else 0 if p == idle else game.program.hand_size
                      for p in self.places]
        names = [*game.table.names, "talon"]
        self.dealt = [[_bool(ctx, f"dealt_{card}_{names[p].lower()}") for p in self.places]
                      for card in game.deck]
        self.facts = [_exactly(ctx, row, 1) for row in self.dealt]
        self.facts += [_exactly(ctx, [row[k] for row in self.dealt], self.share[k])
                       for k in range(len(self.places))]
        self.hands = [_bits(ctx, [row[s] for row in self.dealt]) for s in range(n)]
        # the negation of each Boolean, made once when a deal is first excluded (by a
        # clause of them)
        self.negated: list[list[z3.BoolRef]] = []
        #: for each card, the places (indices into ``places``) some deal may give it
        self.allowed = [[k for k, m in enumerate(self.share) if m] for _ in range(size)]

    def compile(self, where: Expr, dealer: int) -> Any:
        """The constraint over these Booleans, simplified (the hands' bits are then the
        Booleans themselves, and a count of cards a sum of them)."""
        enc = self.enc
        env = {Ctx.DEALER: enc.int(dealer), DealtHand: lambda seat: enc.select(seat, self.hands)}
        return z3.simplify(Z3Compiler(enc, env).visit(where))

    def learn(self, s: Any) -> None:
        """Narrow ``allowed`` to the places that some model of ``s`` (the facts, the
        constraint and the deals excluded) gives each card: Z3's consequences, asked once.
        When Z3 cannot tell in its budget nothing is learned, which costs only speed."""
        answer, implied = s.consequences([], [b for row in self.dealt for b in row])
        if answer != z3.sat:
            return
        r = self.ctx.ref()
        where = {b.get_id(): (i, k) for i, row in enumerate(self.dealt) for k, b in enumerate(row)}
        for c in implied:  # each is Implies(True, literal), read through the C API
            lit = z3.Z3_get_app_arg(r, c.as_ast(), 1)
            negated = z3.Z3_get_decl_kind(r, z3.Z3_get_app_decl(r, lit)) == z3.Z3_OP_NOT
            i, k = where[z3.Z3_get_ast_id(r, z3.Z3_get_app_arg(r, lit, 0) if negated else lit)]
            self.allowed[i] = [j for j in self.allowed[i] if j != k] if negated else [k]

    def target(self, rng: random.Random) -> list[int]:
        """A random deal, as a place (an index into ``places``) for each card, that gives
        every card an allowed place: the most constrained cards first, each to a place
        chosen in proportion to the room left there (a uniform deal when every card may go
        anywhere, or when the cards that may not all avoid the same places).  A card with
        no allowed room left goes where there is room; the search repairs it."""
        room = list(self.share)
        out = [0] * len(self.allowed)
        cards = list(range(len(self.allowed)))
        rng.shuffle(cards)
        cards.sort(key=lambda i: len(self.allowed[i]))
        for i in cards:
            options = [k for k in self.allowed[i] if room[k]] or [k for k, r in enumerate(room) if r]
            pick = rng.randrange(sum(room[k] for k in options))
            for k in options:
                pick -= room[k]
                if pick < 0:
                    break
            out[i] = k
            room[k] -= 1
        return out

    def literals(self, places: list[int]) -> list[Any]:
        """The Booleans that say each card is in its place (an index into ``places``)."""
        return [row[k] for row, k in zip(self.dealt, places)]

    def decode(self, model: z3.ModelRef) -> tuple[tuple[int, ...], list[int]]:
        """The hands of a model, one card set per seat, and the place of each card."""
        hands = tuple(model.eval(h, model_completion=True).as_long() for h in self.hands)
        talon = len(self.places) - 1  # the talon's index, when there is one
        where = [talon] * len(self.dealt)
        for s, m in enumerate(hands):
            while m:
                low = m & -m
                where[low.bit_length() - 1] = s
                m ^= low
        return hands, where

    def placed(self, hands: tuple[int, ...]) -> list[int]:
        """The place of each card in ``hands`` (the talon for a card of no hand)."""
        where = [len(self.places) - 1] * len(self.dealt)
        for s, m in enumerate(hands):
            for i in range(len(where)):
                if m >> i & 1:
                    where[i] = s
        return where

    def exclude(self, places: list[int]) -> Any:
        """A clause that excludes one deal (and no other), built by one call into Z3 (a
        clause per deal found, so it is cheap to make)."""
        r = self.ctx.ref()
        if not self.negated:
            self.negated = [[_ast(self.ctx, z3.Z3_mk_not(r, b.as_ast())) for b in row]
                            for row in self.dealt]
        neg = self.negated
        lits = (z3.Ast * len(places))(*[neg[i][k].as_ast() for i, k in enumerate(places)])
        return _ast(self.ctx, z3.Z3_mk_or(r, len(places), lits))


def _z3_deals(game: Game, where: Expr, dealer: int, n: int, seed: int, solving: Solving,
              accept: _Accept) -> DealSearch:
    places = _Places(game, solving, dealer)
    try:
        constraint = places.compile(where, dealer)
    except Exception as e:  # a node the deal scope cannot give: one line, not a traceback
        raise NotationError(f"a deal constraint can read the hands as dealt and the dealer "
                            f"only: {e}") from None
    s = solving.solver()
    _assert(s, [*places.facts, constraint,
                *[places.exclude(places.placed(hands)) for _d, hands in accept.deals]])
    rng = random.Random(f"{game.key}:{seed}:z3")
    # where the constraint lets each card go, learned once: the random deal each search
    # starts from then puts no card where no deal has it, and Z3 keeps it as it is (one
    # check) where it would otherwise refute one card after another
    places.learn(s)
    while len(accept.deals) < n:
        # start from a random deal and keep as many of its cards as Z3 can, taken in a
        # random order: cards are given up only when they conflict with those before them
        wish = places.literals(places.target(rng))
        rng.shuffle(wish)
        while True:
            r = s.check(*wish)
            if r == z3.sat:
                break
            if r == z3.unknown:
                return DealSearch("unknown", reason=solving.reason(s))
            core = {c.get_id() for c in s.unsat_core()}
            if not core:  # unsatisfiable without the wishes: no (more) deals at all
                if accept.deals:
                    return DealSearch("found", reason=f"only {len(accept.deals)} deals satisfy it")
                return DealSearch("impossible",
                                  reason="Z3 proves that no deal satisfies the constraint")
            # give up the later half of the core's cards: a conflict of counts (more
            # spades for North, say) takes several, one check a card is slow, and the
            # cards kept come first in a random order all the same
            in_core = [j for j, b in enumerate(wish) if b.get_id() in core]
            for j in reversed(in_core[len(in_core) // 2:]):
                del wish[j]
        hands, placed = places.decode(s.model())
        accept(dealer, hands)
        if len(accept.deals) < n:
            _assert(s, [places.exclude(placed)])
    return DealSearch("found")


def deals_where(game: Game, where: Expr, *, n: int = 1, seed: int = 0, dealer: int | None = None,
                method: str = "auto", timeout: float = 600.0, rlimit: int | None = SEARCH_RLIMIT,
                tries: int = REJECTION_TRIES, on_found: Found | None = None,
                budget: int | None = None) -> DealSearch:
    """``n`` distinct deals satisfying ``where`` (a condition on the hands as dealt and the
    dealer), or ``impossible``, or ``unknown`` with the solver's reason (then with the
    deals found before the solver gave up).  ``rlimit`` bounds each Z3 query in Z3's
    resource units, ``timeout`` seconds only as a backstop (see
    :class:`~verifier._z3.solver.Solving`); ``on_found(dealer, hands)`` is called with each
    deal as soon as the engine has checked it.  ``budget``: the nodes each ``dd()`` search
    may visit (see :class:`~spec.double_dummy.Judge`).

    Raises:
        NotationError: the method is unknown, or the condition reads something a deal does
            not have, or reads ``dd()`` and the method is "z3".
    """
    if method not in ("auto", "z3", "rejection"):
        raise NotationError(f"unknown method {method!r} (auto, z3 or rejection)", value=method)
    start = time.perf_counter()
    dealer = game.players - 1 if dealer is None else dealer
    judge = None
    test: Callable[[int, tuple[int, ...]], bool]
    if reads_double_dummy(where):
        if method == "z3":
            raise NotationError(Z3_REFUSES_DD)
        judge = Judge(game, where, budget=budget)
        test = judge.accepts_deal
    else:
        test = deal_test(game, where)
    accept = _Accept(game, test, on_found)
    dealt = 0
    if method in ("auto", "rejection"):
        most = tries * n if method == "auto" else max(tries * n, 10 ** 6)
        dealt = _rejection(game, test, dealer, n, seed, most, method == "auto" and not judge,
                           accept)
        have = accept.deals
        if len(have) >= n or method == "rejection" or judge:  # nothing else looks for dd()
            status = "found" if have else "unknown"
            how = "a condition with dd() is judged deal by deal, which" if judge else "rejection"
            reason = "" if have else (f"no deal among {dealt:,} dealt satisfies it ({how} "
                                      "cannot prove impossibility)")
            return DealSearch(status, have, "rejection", reason, time.perf_counter() - start,
                              dealt, dict(judge.skipped) if judge else {})
    from_rejection = len(accept.deals)
    result = _z3_deals(game, where, dealer, n, seed, Solving(timeout, rlimit), accept)
    result.method = "rejection + z3" if from_rejection else "z3"
    result.deals = accept.deals
    result.seconds = time.perf_counter() - start
    result.dealt = dealt
    return result
