"""Deals that satisfy a constraint: found by Z3, or by dealing and rejecting; or a proof
that none exist.

:func:`deals_where` answers "deals where X" for any game.  Two methods give the same kind
of answer:

* **rejection**: the engine's own dealer deals from seeds and keeps the deals the
  constraint accepts (quick when the constraint is common);
* **Z3**: each card gets an owner, the deal rule's shares and the constraint become
  constraints, and each new deal starts from a random deal (from the seed) of which Z3
  keeps every card it can: the owners the constraint forbids are given up, found by the
  unsatisfiable core.  A deal found is then excluded, so deals are distinct.  When no
  deal at all satisfies the constraint, Z3 proves it.

``method="auto"`` deals a few thousand times first and turns to Z3 only when that does not
find enough.  Every deal returned has been checked by the engine: its hands share out the
deck as the deal rule does, and the engine's compilation of the constraint accepts it.
The same seed gives the same deals.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from spec.constraints import deal_test
from spec.dsl._build import Game
from spec.dsl._nodes import Ctx, DealtHand, Expr
from spec.engine import engine_for
from spec.errors import NotationError
from verifier._z3.compile import Encoding, Z3Compiler
from verifier._z3.solver import Solving

__all__ = ["REJECTION_TRIES", "DealSearch", "deals_where"]

REJECTION_TRIES = 4000  # deals dealt per deal wanted before "auto" turns to Z3
# "auto" deals _SAMPLE deals first; when fewer than one in _BREAK_EVEN is accepted it turns
# to Z3 at once (dealing runs at some 30,000 deals/s, Z3 at some 30 deals/s)
_SAMPLE, _BREAK_EVEN = 2000, 1000


@dataclass
class DealSearch:
    """The answer: ``found`` (with the deals), ``impossible`` or ``unknown`` (with why)."""

    status: str
    deals: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (dealer, hands)
    method: str = ""
    reason: str = ""
    seconds: float = 0.0
    dealt: int = 0  # deals dealt by the rejection method


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
    """Deal from the seed and accept the deals the constraint accepts; the deals dealt."""
    eng = accept.eng
    seen: set[tuple[int, ...]] = set()
    k = hits = 0
    while len(accept.deals) < n and k < tries:
        hands = eng.hands_from_order(eng.deal_order(seed, k), dealer)
        k += 1
        if test(dealer, hands):
            hits += 1
            if hands not in seen:
                seen.add(hands)
                accept(dealer, hands)
        if give_up and k == _SAMPLE and hits * _BREAK_EVEN < k:
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


def _z3_deals(game: Game, where: Expr, dealer: int, n: int, seed: int, solving: Solving,
              accept: _Accept) -> DealSearch:
    owners = _Owners(game, solving, dealer)
    s = solving.solver()
    s.add(*owners.facts)
    try:
        s.add(owners.compile(where, dealer))
    except Exception as e:  # a node the deal scope cannot give: one line, not a traceback
        raise NotationError(f"a deal constraint can read the hands as dealt and the dealer "
                            f"only: {e}") from None
    for _d, hands in accept.deals:
        s.add(z3.Not(z3.And(*[h == owners.enc.bv(m) for h, m in zip(owners.hands, hands)])))
    first = s.check()
    if first == z3.unknown:
        return DealSearch("unknown", reason=solving.reason(s))
    if first == z3.unsat:
        if accept.deals:
            return DealSearch("found", reason=f"only {len(accept.deals)} deals satisfy it")
        return DealSearch("impossible", reason="Z3 proves that no deal satisfies the constraint")
    eng = accept.eng
    k = 0
    while len(accept.deals) < n:
        # start from a random deal of this seed and keep as many of its cards as Z3 can
        target = eng.hands_from_order(eng.deal_order(seed, 10 ** 6 + k), dealer)
        k += 1
        owner_of = {i: seat for seat, m in enumerate(target) for i in range(len(game.deck))
                    if m >> i & 1}
        wish = {owners.enc.bool_var(f"keep_{k}_{i}"): i for i in owner_of}
        for lit, i in wish.items():
            s.add(z3.Implies(lit, owners.owner[i] == owner_of[i]))
        active = list(wish)
        while True:
            r = s.check(*active)
            if r == z3.sat:
                break
            if r == z3.unknown:
                return DealSearch("unknown", reason=solving.reason(s))
            core = set(map(str, s.unsat_core()))
            if not core:  # unsatisfiable without the wishes: no more deals at all
                return DealSearch("found", reason=f"only {len(accept.deals)} deals satisfy it")
            active = [lit for lit in active if str(lit) not in core]
        hands = owners.decode(s.model())
        accept(dealer, hands)
        s.add(z3.Not(z3.And(*[owners.owner[i] == seat for seat, m in enumerate(hands)
                              for i in range(len(game.deck)) if m >> i & 1])))
    return DealSearch("found")


def deals_where(game: Game, where: Expr, *, n: int = 1, seed: int = 0, dealer: int | None = None,
                method: str = "auto", timeout: float = 60.0, rlimit: int | None = None,
                tries: int = REJECTION_TRIES, on_found: Found | None = None) -> DealSearch:
    """``n`` distinct deals satisfying ``where`` (a condition on the hands as dealt and the
    dealer), or ``impossible``, or ``unknown`` with the solver's reason (then with the
    deals found before the solver gave up).  ``timeout`` and ``rlimit`` bound each Z3
    query (see :class:`~verifier._z3.solver.Solving`); ``on_found(dealer, hands)`` is
    called with each deal as soon as the engine has checked it.

    Raises:
        NotationError: the method is unknown, or the condition reads something a deal does
            not have.
    """
    if method not in ("auto", "z3", "rejection"):
        raise NotationError(f"unknown method {method!r} (auto, z3 or rejection)", value=method)
    dealer = game.players - 1 if dealer is None else dealer
    test = deal_test(game, where)
    start = time.perf_counter()
    accept = _Accept(game, test, on_found)
    dealt = 0
    if method in ("auto", "rejection"):
        budget = tries * n if method == "auto" else max(tries * n, 10 ** 6)
        dealt = _rejection(game, test, dealer, n, seed, budget, method == "auto", accept)
        have = accept.deals
        if len(have) >= n or method == "rejection":
            status = "found" if have else "unknown"
            reason = "" if have else (f"no deal among {dealt:,} dealt satisfies it (rejection "
                                      "cannot prove impossibility)")
            return DealSearch(status, have, "rejection", reason, time.perf_counter() - start,
                              dealt)
    from_rejection = len(accept.deals)
    result = _z3_deals(game, where, dealer, n, seed, Solving(timeout, rlimit), accept)
    result.method = "rejection + z3" if from_rejection else "z3"
    result.deals = accept.deals
    result.seconds = time.perf_counter() - start
    result.dealt = dealt
    return result
