"""The symbolic situations each scope's claims are judged on, and whether each can occur."""
from __future__ import annotations

from collections.abc import Iterator

import z3

from spec.dsl._build import Game
from spec.dsl._nodes import Ctx, Scope
from verifier._z3 import encoding as E
from verifier._z3.compile import Encoding
from verifier._z3.solver import Solving


def situations(enc: Encoding, scope: Scope) -> Iterator[tuple[E.Situation, int]]:
    """The situations a claim of ``scope`` is proved in, each with the cards already played
    to the trick (-1 outside the play): one for each position in the trick, one for each
    seat scored, or the scope's one situation."""
    g = enc.game
    if scope is Scope.PLAY:
        for p in range(g.program.dealt_seats):  # a position past the seats dealt in never is
            yield E.trick_situation(enc, p), p
    elif scope is Scope.TRICK:
        yield E.trick_situation(enc, g.players), g.players
    elif scope is Scope.OUTCOME:
        # one query per seat scored: the same claim, and much easier for Z3 when the seat
        # (and so its partner and opponents) is a number
        for seat in range(g.players):
            sit = E.outcome_situation(enc)
            sit.facts.append(sit.env[Ctx.SEAT] == seat)
            yield sit, -1
    elif scope is Scope.CALL:
        yield E.call_situation(enc, "call"), -1
    elif scope is Scope.DEAL:
        yield E.deal_schedule(enc)[0], -1
    elif scope is Scope.MATCH:
        yield E.match_situation(enc), -1
    else:
        raise NotImplementedError(f"claims judged on {scope.value}")


# Whether each situation a scope's properties read can occur, found once per game, scope
# and budget, each in a Z3 context of its own (so the same whoever asks first); a
# situation is known to occur only on Z3's "sat".  (game, occurs) by (id, scope, budget).
_OCCURS: dict[tuple[int, Scope, float, int | None], tuple[Game, tuple[bool, ...]]] = {}


def situations_occur(game: Game, scope: Scope, timeout: float, rlimit: int | None) -> tuple[bool, ...]:
    """For each situation of ``scope`` (as :func:`situations` yields them, no free
    variables bound): whether it can occur, proved by a model; False where unknown."""
    key = (id(game), scope, timeout, rlimit)
    known = _OCCURS.get(key)
    if known is None or known[0] is not game:
        solving = Solving(timeout, rlimit)
        out = []
        for sit, _played in situations(Encoding.of(game, solving), scope):
            s = solving.one_shot()
            s.add(*sit.facts)
            out.append(s.check() == z3.sat)
        known = _OCCURS[key] = (game, tuple(out))
    return known[1]
