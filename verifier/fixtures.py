"""Rule-coverage fixtures: for each rule of a game, a deal and its actions in which the rule
visibly takes effect, found by Z3 and confirmed by the engine.

What "takes effect" means comes from :func:`spec.dsl._derive.fires`, one definition for
both back ends: a play rule that removes a card from the choice of the seat to play, a
winning tier whose card wins a trick, a scoring rule that gives a seat something, a call
rule that refuses some bid, and so on.  Rules at work in every deal get an ordinary deal;
a redeal rule gets an auction without a bid; equipment and stated consequences get no
fixture, with the reason.  Each fixture is a deal record (hands, every action, tricks,
scores) plus the rule and where it fires, in the format of ``docs/fixture.schema.json``.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game, Rule
from spec.dsl._build import suit_code
from spec.dsl._nodes import NO_SUIT, Ctx, Scope
from spec.engine import (
    PASS,
    Call,
    Phase,
    Play,
    State,
    apply,
    engine_for,
    legal_actions,
    new_deal,
    play_deal,
    play_on,
)
from spec.errors import IllegalActionError, NotationError
from spec.records import to_record
from verifier._z3.compile import Z3Compiler
from verifier.errors import ReplayMismatchError, SolverUnknownError
from verifier.scenario import _Unrolled, solve_scenarios, unsupported

__all__ = ["FORMAT", "Coverage", "fixtures_for"]

FORMAT = "trickspec-fixture/1"
_WHERE = {Scope.PLAY: "a card about to be played", Scope.TRICK: "a complete trick",
          Scope.OUTCOME: "the end of the play", Scope.CALL: "a call refused in the auction"}


@dataclass
class Coverage:
    """Which rules got a fixture, and why the others did not."""

    game: str
    rules: int
    covered: list[str] = field(default_factory=list)
    without: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"{self.game}: {len(self.covered)}/{self.rules} rules with a fixture"]
        lines += [f"  without {rid}: {why}" for rid, why in self.without]
        return "\n".join(lines)


def _fixture(game: Game, rule: Rule, state: State, fires: dict[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "game": game.key, "variants": list(game.active_variants),
            "rule": rule.id, "source": str(rule.source), "text": rule.text, "fires": fires,
            "record": to_record(state)}


def _no_bid(game: Game, seed: int) -> State:
    """A deal whose first auction has no bid, then the redeal played out."""
    state = new_deal(game, seed=seed)
    while state.phase is Phase.AUCTION and not state.thrown_in:
        if PASS not in legal_actions(state):
            raise NotationError(f"{game.name}: passing is not always legal, so no deal shows "
                                "an auction without a bid")
        state = apply(state, PASS)
    return play_on(state, random.Random(seed))


class _EngineJudge:
    """A rule's firing condition compiled by the engine's back end, judged on a replay."""

    def __init__(self, game: Game, scope: Scope, cond: Any) -> None:
        self.eng = engine_for(game)
        self.scope = scope
        self.fn = self.eng.judge(scope, cond)

    def where(self, hands: tuple[int, ...], dealer: int, seed: int, actions: list[Any]) -> list[str]:
        """Where the condition holds in the replay: 'trick k, Seat' entries, or 'end'."""
        eng, t = self.eng, self.eng.table
        state = eng.start(hands, dealer=dealer, seed=seed)
        hits: list[str] = []
        for a in actions:
            if self.scope is Scope.PLAY and isinstance(a, Play) and state.phase is Phase.PLAY:
                args = eng._play_args(state)
                i = eng.game.deck.index(a.card)
                code = NO_SUIT if a.names is None else suit_code(a.names)
                if self.fn(*args[:-2], i, code, *args[-2:]):
                    hits.append(f"trick {state.trick_number}, {t.name(state.turn)}")
            state = eng.apply(state, a)
        if self.scope is Scope.TRICK:
            n = eng.n
            for r in state.tricks:
                faces = tuple(r.face_down) + (False,) * (n - len(r.face_down))
                if self.fn(state.dealer, state.contract, state.declarer, state.trump, r.number,
                           r.leader, len(r.cards), r.cards, r.named, faces, state.tracked):
                    hits.append(f"trick {r.number}")
        if self.scope is Scope.OUTCOME and self.fn(0, state.declarer, state.contract,
                                                   state.dealer, state.trump, state.tracked,
                                                   state.dealt, state.won, state.taken):
            hits.append("the end of the play")
        return hits


def _z3_fixture(game: Game, rule: Rule, scope: Scope, cond: Any, seed: int,
                timeout: float) -> tuple[State, dict[str, Any]]:
    def claim_of(u: _Unrolled, rows: list[dict[str, Any]]) -> Any:
        if scope is Scope.PLAY:
            return z3.Or(*[Z3Compiler(u.enc, env).visit(cond) for _k, _s, env in u.play_envs])
        if scope is Scope.TRICK:
            return z3.Or(*[Z3Compiler(u.enc, env).visit(cond) for _k, env in u.trick_envs])
        if scope is Scope.OUTCOME:
            return Z3Compiler(u.enc, u.history()).visit(cond)
        # a bid this rule refuses and every other call rule allows, so that the engine's
        # refusal names this rule
        others = [b for r, b in game.constructs(K.CallRule) if r.id != rule.id]
        terms = []
        for t, row in enumerate(rows):
            probe = u.enc.int_var(f"probe_{t}")
            env = {**row["env"], Ctx.CALL_IS_BID: u.enc.bool(True), Ctx.CALL_BID: probe}
            comp = Z3Compiler(u.enc, env)
            allowed = [z3.Or(z3.Not(comp.visit(b.applies)), comp.visit(b.requires))  # type: ignore[attr-defined]
                       for b in others]
            terms.append(z3.And(u.enc.bid_in_ladder(probe), comp.visit(cond), *allowed))
        return z3.Or(*terms)

    found: dict[str, Any] = {}

    def confirm(state: State, model: z3.ModelRef, rows: list[dict[str, Any]]) -> bool:
        actions = [a for _s, a in state.log]
        if scope is Scope.CALL:
            eng = state.engine
            replay = eng.start(state.dealt, dealer=state.dealer, seed=state.seed)
            for t, _row in enumerate(rows):
                probe = model.eval(z3.Int(f"probe_{t}", model.ctx), model_completion=True).as_long()
                if 0 <= probe < len(game.ladder):
                    bid = game.ladder[probe]
                    try:
                        eng.apply(replay, Call(bid))
                    except IllegalActionError as e:
                        if e.rule_id and e.rule_id.split(" ")[0].endswith("/" + rule.id):
                            found["at"] = [f"call {t + 1}: {game.table.name(replay.turn)} may "
                                           f"not bid {bid}"]
                            return True
                replay = eng.apply(replay, actions[t])
            return False
        hits = _EngineJudge(game, scope, cond).where(state.dealt, state.dealer, state.seed, actions)
        found["at"] = hits
        return bool(hits)

    result = solve_scenarios(game, claim_of, confirm, seed=seed, timeout=timeout)
    if result.status != "found":
        raise SolverUnknownError(result.reason or result.status)
    return result.states[0], {"when": _WHERE[scope], "at": found.get("at", [])}


def fixtures_for(game: Game, *, seed: int = 0, timeout: float = 120.0,
                 on_rule: Callable[[str, str], None] | None = None
                 ) -> tuple[list[dict[str, Any]], Coverage]:
    """A fixture for every rule of the game that a deal can show firing, and the coverage.

    ``on_rule(rule id, outcome)`` reports progress, one rule at a time.
    """
    fixtures: list[dict[str, Any]] = []
    cov = Coverage(game.key, len(game.rules))
    cannot = unsupported(game)
    for k, rule in enumerate(game.rules):
        scope, cond = D.fires(game, rule)
        reason = ""
        try:
            if scope == D.EQUIPMENT:
                reason = "equipment: every deal uses it, no deal shows it firing"
            elif scope == D.CONSEQUENCE:
                reason = "a consequence of other rules, proved by 'trickspec check'"
            elif scope == D.UNMODELLED:
                reason = (f"{type(rule.body).__name__} fires in some deals only, and the "
                          "unrolled deal does not model it yet")
            elif scope == D.EVERY_DEAL:
                state = play_deal(game, seed=seed + k)
                fixtures.append(_fixture(game, rule, state, {"when": "every deal", "at": []}))
            elif scope == D.NO_BID:
                state = _no_bid(game, seed + k)
                fixtures.append(_fixture(game, rule, state, {"when": "an auction without a bid",
                                                             "at": ["the deal thrown in"]}))
            elif cannot:
                reason = cannot
            else:
                state, fires = _z3_fixture(game, rule, scope, cond, seed + k, timeout)  # type: ignore[arg-type]
                fixtures.append(_fixture(game, rule, state, fires))
        except SolverUnknownError as e:
            reason = f"no deal found: {e.reason}"
        except ReplayMismatchError as e:  # a back-end bug, reported with the rule
            reason = f"the engine does not confirm the deal Z3 found: {e}"
        if reason:
            cov.without.append((rule.id, reason))
        else:
            cov.covered.append(rule.id)
        if on_rule:
            on_rule(rule.id, "fixture" if not reason else reason)
    return fixtures, cov

