"""Rule-coverage fixtures: for each rule of a game, a deal and its actions in which the rule
visibly takes effect, found by Z3 and confirmed by the engine.

What "takes effect" means comes from :func:`spec.dsl._derive.fires`, one definition for
both back ends: a play rule that removes a card from the choice of the seat to play, a
winning tier whose card wins a trick, a scoring rule that gives a seat something, a call
rule that refuses some bid, and so on.  Rules at work in every deal get an ordinary deal;
a redeal rule gets an auction without a bid; equipment and stated consequences get no
fixture, with the reason.  A rule that changes the course of a deal without a condition
to solve for (a card laid aside, an announcement, ...) is found among deals played by
bots, in the engine's trail of the rules that took effect.  Where the batch back end runs a
game's deals whole, a rule's deal is looked for first among random deals it plays
together, each found played again by the engine and judged there.  Each fixture is a deal
record (hands, every action, tricks, scores) plus the rule and where it fires, in the
format of the JSON schema shipped beside them (``trickspec fixtures --schema`` prints it).

The fixtures of every registered game and that schema are package data: they are installed
with the package, under ``verifier/data`` (``SHIPPED`` and ``SCHEMA`` here name them),
so that an installed copy checks its own fixtures as a clone does.
"""
from __future__ import annotations

import copy
import functools
import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game, Rule
from spec.dsl._nodes import Ctx, Scope
from spec.engine import (
    PASS,
    Action,
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
from spec.errors import IllegalActionError, NotationError, shown
from spec.records import RecordError, json_kind, replay, to_record
from spec.registry import find_game
from verifier._unrolled import Unrolled
from verifier._z3.compile import Z3Compiler
from verifier._z3.solver import FIXTURES_RLIMIT
from verifier.errors import InputError, ReplayMismatchError
from verifier.files import read_json
from verifier.scenario import played_deals, solve_scenarios, unsupported

__all__ = ["COVERAGE_FILE", "FORMAT", "Coverage", "check_fixture", "check_folder",
           "firing_conditions", "fixtures_for", "read_coverage", "rule_number", "rules_firing"]

FORMAT = "trickspec-fixture/1"
COVERAGE_FORMAT = "trickspec-coverage/1"
COVERAGE_FILE = "coverage.json"
# The one place that names where the shipped fixtures and their schema live: package data
# (``[tool.setuptools.package-data]`` in pyproject.toml), beside this module in a clone, an
# editable install and an installed wheel alike.  The docs build reads them from here too.
_DATA = Path(__file__).resolve().parent / "data"
SHIPPED = _DATA / "fixtures"  # a folder per game key: <rule id>.json and coverage.json
SCHEMA = _DATA / "fixture.schema.json"  # the fixture format, JSON Schema (draft 2020-12)
_WHERE = {Scope.PLAY: "a card about to be played", Scope.TRICK: "a complete trick",
          Scope.OUTCOME: "the end of the play", Scope.CALL: "a call refused in the auction",
          D.UNMODELLED: "the rule takes effect"}


@dataclass
class Coverage:
    """Which rules got a fixture, and why the others did not."""

    game: str
    rules: int
    covered: list[str] = field(default_factory=list)
    without: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The coverage as written next to the fixtures (``coverage.json``)."""
        return {"format": COVERAGE_FORMAT, "game": self.game, "rules": self.rules,
                "covered": list(self.covered), "without": dict(self.without)}

    def merged(self, older: dict[str, Any], order: list[str]) -> Coverage:
        """This coverage of some rules over an older ``coverage.json`` of the whole game,
        in rulebook ``order``.

        Raises:
            RecordError: ``older`` is not a coverage file (see :func:`read_coverage`).
        """
        _check_coverage(older, COVERAGE_FILE)
        done = set(self.covered) | {rid for rid, _why in self.without}
        covered = {r for r in older.get("covered", []) if r not in done} | set(self.covered)
        without = {**{r: w for r, w in older.get("without", {}).items() if r not in done},
                   **dict(self.without)}
        return Coverage(self.game, len(order), [r for r in order if r in covered],
                        [(r, without[r]) for r in order if r in without])

    def summary(self) -> str:
        lines = [f"{self.game}: {len(self.covered)}/{self.rules} rules with a fixture"]
        lines += [f"  without {rid}: {why}" for rid, why in self.without]
        return "\n".join(lines)


def _fixture(game: Game, rule: Rule, state: State, fires: dict[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "game": game.key, "variants": list(game.active_variants),
            "rule": rule.id, "source": str(rule.source), "text": rule.text, "fires": fires,
            "record": to_record(state, later=True)}


def _no_bid(game: Game, seed: int) -> State:
    """A deal whose first auction has no bid, then the redeal played out."""
    state = new_deal(game, seed=seed)
    while state.phase is Phase.AUCTION and not state.thrown_in:
        if PASS not in legal_actions(state):
            raise NotationError(f"{game.name}: passing is not always legal, so no deal shows "
                                "an auction without a bid")
        state = apply(state, PASS)
    return play_on(state, random.Random(seed))


def _chain(state: State) -> tuple[State, list[Action]]:
    """The start of the first deal behind ``state`` and every action since, thrown-in
    deals included (the redeals follow from the seed)."""
    eng = state.engine
    first = state.thrown_in[0] if state.thrown_in else None
    # a deal's own card turned up (hands not dealt from the seed's pack, as the batch's, do
    # not tell it); a deal thrown in keeps none: its first is read as dealt from the seed's pack
    up = state.turn_up if first is None and state.turn_up >= 0 else None
    # and, in a game dealt in stages, the cards its first deal dealt late
    later = (first.later or None) if first else (state.dealt_later if eng.stages > 1 else None)
    start = eng.start(first.dealt if first else state.dealt,
                      dealer=first.dealer if first else state.dealer, seed=state.seed,
                      turn_up=up, later=later)
    actions = [a for d in state.thrown_in for _s, a in d.log] + [a for _s, a in state.log]
    return start, actions


def _describe(state: State, action: Action) -> str:
    t = state.game.table
    where = (f"trick {state.trick_number}" if state.phase is Phase.PLAY
             else state.phase.value)
    deal = f"deal {state.redeals + 1}, " if state.redeals else ""
    return f"{deal}{where}, {t.name(state.turn)}: {action}"


class _EngineJudge:
    """Rules' firing conditions judged by the engine on a deal, step by step, in one replay:
    a condition compiled by the engine's back end, a bid a rule refuses, or a rule in the
    engine's trail of rules that took effect."""

    def __init__(self, game: Game, judged: Sequence[tuple[Rule, Scope | str, Any]]) -> None:
        self.eng = engine_for(game)
        self.ids = tuple(rule.id for rule, _scope, _cond in judged)
        self.scoped: dict[Scope | str, list[tuple[str, Any]]] = {}
        for rule, scope, cond in judged:
            fn = (self.eng.judge(scope, cond) if scope in (Scope.PLAY, Scope.TRICK, Scope.OUTCOME)
                  else None)
            self.scoped.setdefault(scope, []).append((rule.id, fn))
        self.call_ids = {rid for rid, _fn in self.scoped.get(Scope.CALL, ())}
        self.unmodelled = {rid for rid, _fn in self.scoped.get(D.UNMODELLED, ())}

    def without(self, ids: set[str]) -> _EngineJudge:
        """The same judge without the rules ``ids`` (their conditions not compiled again)."""
        other = copy.copy(self)
        other.ids = tuple(rid for rid in self.ids if rid not in ids)
        other.scoped = {scope: [(rid, fn) for rid, fn in fns if rid not in ids]
                        for scope, fns in self.scoped.items()}
        other.call_ids, other.unmodelled = self.call_ids - ids, self.unmodelled - ids
        return other

    def _refused(self, state: State) -> dict[str, str]:
        """For each call rule judged that refuses some bid in ``state`` (the engine names
        it), the first such bid, in words."""
        game = self.eng.game
        out: dict[str, str] = {}
        for bid in game.ladder:
            try:
                self.eng.apply(state, Call(bid))
            except IllegalActionError as e:
                if e.rule in self.call_ids and e.rule not in out:
                    out[e.rule] = f"{game.table.name(state.turn)} may not bid {bid}"
        return out

    def where(self, final: State) -> dict[str, list[str]]:
        """Where in the deal ``final`` each rule fires ('trick k, Seat', 'the end of the
        play', ...); an empty list for a rule that does not."""
        eng, t, scoped = self.eng, self.eng.table, self.scoped
        state, actions = _chain(final)
        hits: dict[str, list[str]] = {rid: [] for rid in self.ids}
        calls = 0
        for a in actions:
            if isinstance(a, Play) and state.phase is Phase.PLAY:
                for rid, fn in scoped.get(Scope.PLAY, ()):
                    if fn(state, a):
                        hits[rid].append(f"trick {state.trick_number}, {t.name(state.turn)}")
            if isinstance(a, Call) and state.phase is Phase.AUCTION:
                calls += 1
                if self.call_ids:
                    for rid, refused in self._refused(state).items():
                        hits[rid].append(f"call {calls}: {refused}")
            before = state
            state = eng.apply(state, a)
            if len(state.tricks) > len(before.tricks) and state.redeals == before.redeals:
                # judged as the trick was won: with the tracked values before it
                for rid, fn in scoped.get(Scope.TRICK, ()):
                    if fn(before, state.tricks[-1]):
                        hits[rid].append(f"trick {state.tricks[-1].number}")
            if self.unmodelled:
                trail = (state.fired if state.redeals == before.redeals
                         else state.thrown_in[-1].fired)
                for _n, rid in trail[len(before.fired):]:
                    if rid in self.unmodelled:
                        hits[rid].append(_describe(before, a))
        for rid, fn in scoped.get(Scope.OUTCOME, ()):
            if fn(state):
                hits[rid].append("the end of the play")
        return {rid: list(dict.fromkeys(h)) for rid, h in hits.items()}


def _where(game: Game, rule: Rule, scope: Scope | str, cond: Any, state: State) -> list[str]:
    """Where in the deal ``state`` one rule fires (see :class:`_EngineJudge`)."""
    return _EngineJudge(game, [(rule, scope, cond)]).where(state)[rule.id]


_SHOWN = (Scope.PLAY, Scope.TRICK, Scope.OUTCOME, Scope.CALL, D.UNMODELLED)


def firing_conditions(game: Game) -> list[tuple[str, Scope | str, Any]]:
    """The rules of ``game`` a deal can show firing, as (rule id, scope, condition) in the
    order of the rules (see :func:`spec.dsl._derive.fires`); a rule that fires when nobody
    bids has scope ``NO_BID``.  What :func:`rules_firing` judges, and the batch back end's
    :class:`~spec.batch.Watch`."""
    out = []
    for rule in game.rules:
        scope, cond = D.fires(game, rule)
        if scope in _SHOWN or scope == D.NO_BID:
            out.append((rule.id, scope, cond))
    return out


def rules_firing(game: Game) -> Callable[[State], frozenset[str]]:
    """A judge of finished deals of ``game``: the ids of the rules that fire in a deal,
    each judged as the fixtures judge it (a rule that takes effect in every deal, or that no
    deal shows firing, is never among them; one that fires when nobody bids is)."""
    judged = []
    no_bid = []
    for rid, scope, cond in firing_conditions(game):
        if scope in _SHOWN:
            judged.append((game.rule(rid), scope, cond))
        else:
            no_bid.append(rid)
    judge = _EngineJudge(game, judged)

    def fired(state: State) -> frozenset[str]:
        out = {rid for rid, at in judge.where(state).items() if at}
        logs = [d.log for d in state.thrown_in] + [state.log]
        if no_bid and any(not any(isinstance(a, Call) and a.bid is not None for _s, a in log)
                          for log in logs):
            out.update(no_bid)
        return frozenset(out)

    return fired


# the pool: random deals of a game played together by the batch back end (where it runs
# the game's deals whole), numbered from ``seed * _POOL_DEALS``, and played only as far as
# the rules asked need: ``_POOL_FIRST`` deals first, then twice as many each time, up to
# ``_POOL_CHUNK`` at a time.  A deal is the same whatever batch holds it, so the pool's
# order is too.  A third of the deals bid at random, a third pass one call in two where
# passing is legal and a third eight in ten, so that low contracts and the slams random
# auctions seldom leave standing are played too (as the modest bots play them).  The rules
# whose condition the batch cannot judge are judged by the engine on the first
# ``_POOL_JUDGED`` deals only: a rule that fires in random deals mostly fires in the first
# few, and one that does not is left to the bots and Z3
_POOL_DEALS = 65_536
_POOL_FIRST = 128
_POOL_CHUNK = 8_192
_POOL_JUDGED = 512
_PASS_TENTHS = (0, 5, 8)  # a deal's chance of passing, in tenths, by its number
_PASS_DRAW = 2 ** 50  # the draws of the pool's passes, apart from those of its actions


def _pool_policy(seed: int, calls: frozenset[str]) -> Any:
    """The pool's policy (see ``_PASS_TENTHS``): random, but at a call step (one of
    ``calls``) each deal passes with its chance where passing is legal.  Every draw is the
    batch's random policy's, keyed by the deal's number and its decisions so far, so that a
    deal does not depend on the batch that holds it; whether to pass is one of ten bits
    drawn apart from the actions (at ``_PASS_DRAW`` on)."""
    import numpy as np

    from spec.batch import random_policy
    draw = random_policy(seed)
    tenths = np.array(_PASS_TENTHS)

    # a policy of its own, not the random policy itself: the batch runs it in numpy,
    # without first compiling the game's lanes (which takes longer than its fixtures)
    def policy(step: str, legal: Any, deals: Any, draws: Any) -> Any:
        chosen = draw(step, legal, deals, draws)
        if step not in calls:
            return chosen
        may_pass = legal[:, 0] if legal.ndim == 2 else (legal & 1) == 1
        tenth = draw(step, np.full(deals.shape, 2 ** 10 - 1), deals, draws + _PASS_DRAW)
        return np.where(may_pass & (tenth < tenths[deals % len(tenths)]), 0, chosen)
    return policy


class _BatchMismatchError(ReplayMismatchError):
    """The engine does not find a rule firing in a deal of the pool where the batch says
    it fires: a bug of one back end or the other."""


class _Pool:
    """The deals of one game's pool (see ``_POOL_DEALS``) for one seed, and for each rule
    the first of them in which it fires, found once for all the rules of a process: an
    outcome rule's condition judged over the batch's columns, the first deal that meets
    it played again by the engine; any other rule judged by the engine on each of the
    first ``_POOL_JUDGED`` deals, one replay a deal for every rule not yet seen firing.
    Nothing is built or played before a rule asks (:meth:`runs`)."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game, self.seed = game, seed
        self.batch: Any = None
        self.started = False
        self.played = 0  # the deals of the pool played so far
        self.judged = 0  # the deals of the prefix the engine has judged so far
        self.prefix: list[tuple[int, State]] = []  # the prefix's deals played to their end
        self.heads: list[tuple[int, Any]] = []  # the batches the prefix was played in
        self.outcome: dict[str, tuple[int, State] | None] = {}
        self.first: dict[str, int] = {}
        self.conditions: dict[str, Callable[..., Any]] = {}
        self.by_engine: list[tuple[Rule, Scope | str, Any]] = []
        self.engine_ids: set[str] = set()
        self.judge: _EngineJudge | None = None  # compiled once, for all of by_engine
        self.unseen: _EngineJudge | None = None  # the same, for the rules not seen firing

    def runs(self) -> bool:
        """Whether the batch back end runs the game's deals whole, and so the pool has
        deals (the batch and the rules' conditions built on the first call)."""
        from spec.batch import NotBatchable
        if self.started:
            return self.batch is not None
        self.started, game = True, self.game
        try:
            batch = engine_for(game).batch()
        except NotBatchable:
            return False
        if not batch.deals_whole:
            return False
        self.batch = batch
        for rule in game.rules:
            scope, cond = D.fires(game, rule)
            if scope is Scope.OUTCOME:
                try:
                    self.conditions[rule.id] = batch.condition(cond)
                    continue
                except NotBatchable:  # judged by the engine instead
                    pass
            if scope in (Scope.PLAY, Scope.TRICK, Scope.OUTCOME, Scope.CALL, D.UNMODELLED):
                self.by_engine.append((rule, scope, cond))
                self.engine_ids.add(rule.id)
        self.policy = _pool_policy(self.seed, frozenset(s.name for s in batch.steps
                                                        if s.action == "call"))
        return True

    def _chunk(self) -> None:
        """The pool's next deals played together (see ``_POOL_FIRST``), and the condition
        of each outcome rule not yet seen firing judged on them; those of the prefix are
        kept for the engine to judge."""
        import numpy as np

        from spec.batch import Batch
        assert self.batch is not None
        start = self.played
        size = min(max(_POOL_FIRST, start), _POOL_CHUNK, _POOL_DEALS - start)
        numbers = np.arange(start, start + size, dtype=np.int64) + self.seed * _POOL_DEALS
        c = self.batch.deal(numbers, self.seed, compiled=False)
        played = Batch(self.batch, numbers, np.arange(size), self.batch.run(c, self.policy,
                                                                          compiled=False), {})
        self.played += size
        if start < _POOL_JUDGED:
            self.heads.append((start, played))
            ended = played.ended
            self.prefix += [(start + k, s) for k, s in enumerate(played.states())
                            if ended[k] and start + k < _POOL_JUDGED]
        for rid, condition in self.conditions.items():
            if rid not in self.outcome:
                meeting = played.meeting(condition)
                if len(meeting):
                    k = int(meeting[0])
                    self.outcome[rid] = (start + k, played.replayed(k))
                elif self.played == _POOL_DEALS:
                    self.outcome[rid] = None

    def outcome_deal(self, rule: Rule) -> tuple[int, State] | None:
        """The first deal of the pool (its place, from 0, and the engine's replay of it)
        that meets the outcome rule's condition in the batch; None when none does."""
        while rule.id not in self.outcome:
            self._chunk()
        return self.outcome[rule.id]

    def judged_deal(self, rule: Rule) -> tuple[int, State, list[str]] | None:
        """The first deal of the pool's prefix in which the engine finds the rule firing:
        its place (from 0), the engine's replay of it, and where the rule fires there, as
        the engine judges the replay; None when no deal of the prefix shows it."""
        while rule.id not in self.first and (self.judged < len(self.prefix)
                                             or self.played < _POOL_JUDGED):
            if self.judged == len(self.prefix):
                self._chunk()
                continue
            if self.judge is None:
                self.judge = self.unseen = _EngineJudge(self.game, self.by_engine)
            assert self.unseen is not None
            k, state = self.prefix[self.judged]
            self.judged += 1
            # every rule not yet seen firing, judged on one replay of the deal
            fired = {rid for rid, at in self.unseen.where(state).items() if at}
            self.first.update(dict.fromkeys(fired, k))
            if fired:
                self.unseen = self.unseen.without(fired)
        if rule.id not in self.first:
            return None
        k = self.first[rule.id]
        start, played = next((s, b) for s, b in reversed(self.heads) if s <= k)
        state = played.replayed(k - start)
        assert self.judge is not None
        alone = self.judge.without(self.engine_ids - {rule.id})
        return k, state, alone.where(state)[rule.id]


@functools.lru_cache(maxsize=4)
def _pool_of(key: str, variants: tuple[str, ...], seed: int) -> _Pool:
    """The pool of a registered game (with some variants) for a seed, one a process: on a
    cluster's worker, the rules it searches share it."""
    base = find_game(key)
    return _Pool(base.with_variants(*variants) if variants else base, seed)


def _pool_fixture(pool: _Pool, rule: Rule, scope: Scope | str, cond: Any
                  ) -> tuple[State | None, dict[str, Any]]:
    """The first deal of the pool in which the rule fires (None where none does, or the
    batch does not run the game), and where it fires, as the engine judges the deal
    played again by the engine.

    Raises:
        _BatchMismatchError: the batch says the rule fires in a deal in which the engine,
            playing it again, does not find it firing.
    """
    if not pool.runs():
        return None, {}
    if rule.id in pool.conditions:
        outcome = pool.outcome_deal(rule)
        if outcome is None:
            return None, {}
        k, state = outcome
        hits = _where(pool.game, rule, scope, cond, state)
    elif rule.id in pool.engine_ids:
        judged = pool.judged_deal(rule)
        if judged is None:
            return None, {}
        k, state, hits = judged
    else:
        return None, {}
    if not hits:
        raise _BatchMismatchError(f"deal {k + 1} of the batch shows {rule.id} firing, the "
                                  "engine's replay of it does not")
    return state, {"when": _WHERE[scope], "at": hits, "found_by": f"batch deals ({k + 1})"}


class _NoZ3Deal(Exception):
    """Z3 gave no deal for a rule: it proved there is none (within the auction's bound)
    or gave no answer; the message says which."""


def _z3_fixture(game: Game, rule: Rule, scope: Scope, cond: Any, seed: int,
                timeout: float, rlimit: int | None) -> tuple[State, dict[str, Any]]:
    def claim_of(u: Unrolled, rows: list[dict[str, Any]]) -> Any:
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

    def confirm(state: State, _model: z3.ModelRef, _rows: list[dict[str, Any]]) -> bool:
        # the engine judges the deal on its own: for a call rule, every call at which it
        # refuses some bid (Z3's bid among them)
        hits = _where(game, rule, scope, cond, state)
        found["at"] = hits
        return bool(hits)

    result = solve_scenarios(game, claim_of, confirm, seed=seed, timeout=timeout, rlimit=rlimit)
    if result.status == "unknown":
        raise _NoZ3Deal(f"Z3 gave no answer: {result.reason}")
    if result.status != "found":
        raise _NoZ3Deal(f"Z3 proves there is none: {result.reason}")
    return result.states[0], {"when": _WHERE[scope], "at": found.get("at", []), "found_by": "z3"}


def _search_fixture(game: Game, rule: Rule, scope: Scope | str, cond: Any, seed: int,
                    most: int) -> tuple[State | None, dict[str, Any], int]:
    """A deal played by bots in which the rule fires (see :func:`~verifier.scenario.played_deals`).
    Returns the deal (or None), where it fires, and how many deals were played."""
    judge = _EngineJudge(game, [(rule, scope, cond)])
    k = 0
    for state, how in played_deals(game, seed=seed, most=most):
        k += 1
        hits = judge.where(state)[rule.id]
        if hits:
            return state, {"when": _WHERE[scope], "at": hits, "found_by": how}, k
    return None, {}, k


def _field(data: dict[str, Any], key: str, kind: type, where: str, what: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise RecordError(f"{where}: {key!r} must be {what}, got {json_kind(value)}")
    return value


def _strings(data: dict[str, Any], key: str, where: str, what: str) -> list[str]:
    items = _field(data, key, list, where, what)
    if not all(isinstance(x, str) for x in items):
        bad = next(x for x in items if not isinstance(x, str))
        raise RecordError(f"{where}: {key!r} must be {what}, but holds {json_kind(bad)}")
    return items  # type: ignore[no-any-return]


def _check_fixture_fields(data: Any, where: str) -> None:
    """A fixture's fields have the types of the shipped schema (``SCHEMA``).

    Raises:
        RecordError: naming the first field that does not.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{where}: not a trickspec fixture: format should be {FORMAT!r}")
    for key in ("game", "rule", "text", "source"):
        _field(data, key, str, where, "a string")
    _strings(data, "variants", where, "a list of variant ids")
    fires = _field(data, "fires", dict, where, "an object with 'when' and 'at'")
    _strings(fires, "at", f"{where}: 'fires'", "a list of places, such as 'trick 3, North'")
    _field(data, "record", dict, where, "a record (an object)")


def _check_coverage(data: Any, where: str) -> None:
    """A coverage file's fields have the types :meth:`Coverage.to_json` writes.

    Raises:
        RecordError: naming the first field that does not.
    """
    if not isinstance(data, dict) or data.get("format") != COVERAGE_FORMAT:
        raise RecordError(f"{where}: not a trickspec coverage file (format should be "
                          f"{COVERAGE_FORMAT!r})")
    _field(data, "game", str, where, "a game's key")
    _strings(data, "covered", where, "a list of rule ids")
    without = _field(data, "without", dict, where, "an object mapping rule ids to reasons")
    if not all(isinstance(v, str) for v in without.values()):
        raise RecordError(f"{where}: 'without' must map rule ids to reasons (strings)")


def read_coverage(path: Path) -> dict[str, Any]:
    """The coverage file at ``path``, checked to be one.

    Raises:
        InputError: it cannot be read, or is not JSON.
        RecordError: it is not a coverage file.
    """
    data = read_json(str(path), what="a coverage file from 'trickspec fixtures --out'")
    _check_coverage(data, str(path))
    return data  # type: ignore[no-any-return]


def check_fixture(data: Any) -> str:
    """Replay a fixture: "" when the record replays and the rule fires where it says,
    otherwise what is wrong.

    Raises:
        RecordError, NotationError: the fixture or its record is malformed.
    """
    _check_fixture_fields(data, "the fixture")
    report = replay(data["record"])
    if not report.ok:
        return report.message
    game = find_game(data["game"])
    if data["variants"]:
        game = game.with_variants(*data["variants"])
    rules = {r.id: r for r in game.rules}
    if data["rule"] not in rules:
        raise RecordError(f"the fixture's rule {shown(data['rule'])} is not a rule of {game.name}")
    rule = rules[data["rule"]]
    scope, cond = D.fires(game, rule)
    if scope in (D.EVERY_DEAL, D.NO_BID):
        return ""
    assert report.state is not None
    at = _where(game, rule, scope, cond, report.state)
    fires = data["fires"]["at"]
    if scope is Scope.CALL:  # the calls at which the rule refuses some bid
        calls = {x.split(":")[0] for x in at}
        return "" if calls == {x.split(":")[0] for x in fires} else (
            f"{rule.id} refuses bids at {sorted(calls)}, the fixture says {shown(fires, 300)}")
    return "" if at == fires else f"{rule.id} fires at {at}, the fixture says {shown(fires, 300)}"


def check_folder(game: Game, folder: Path) -> list[str]:
    """What is wrong with a folder of fixtures written by :func:`fixtures_for` for ``game``
    (empty when nothing): each fixture must replay with its rule firing where it says, and
    carry the rule's current text and source; each rule of the game must have a fixture or
    be listed in ``coverage.json`` with the reason it has none.

    Raises:
        InputError: the coverage file or a fixture cannot be read (a missing file, a
            folder named like a fixture, text that is not UTF-8), or is not JSON.
        RecordError: the coverage file or a fixture is malformed (a field of the wrong
            type); the message names the file and the field.
    """
    problems: list[str] = []
    rules = {r.id: r for r in game.rules}
    cov_path = folder / COVERAGE_FILE
    try:
        coverage = read_coverage(cov_path)
    except InputError as e:
        raise InputError(f"{e} (write the folder with 'trickspec fixtures {game.key} --out "
                         f"{folder}')") from None
    if coverage["game"] != game.key:
        return [f"the folder holds fixtures of {shown(coverage['game'])}, not of {game.key!r}"]
    without = coverage["without"]
    seen: set[str] = set()
    for path in sorted(folder.glob("*.json")):
        if path.name == COVERAGE_FILE:
            continue
        data = read_json(str(path), what="a fixture from 'trickspec fixtures --out'")
        _check_fixture_fields(data, str(path))
        rule = rules.get(data["rule"])
        if rule is None:
            problems.append(f"{path.name}: {shown(data['rule'])} is not a rule of {game.name}")
            continue
        seen.add(rule.id)
        if data["text"] != rule.text or data["source"] != str(rule.source):
            problems.append(f"{path.name}: the rule's text or source has changed since the "
                            "fixture was written")
        if data["variants"] != list(game.active_variants):
            problems.append(f"{path.name}: written with variants {shown(data['variants'])}, the "
                            f"game has {list(game.active_variants)}")
            continue
        try:
            wrong = check_fixture(data)
        except NotationError as e:
            raise RecordError(f"{path}: {e}") from None
        if wrong:
            problems.append(f"{path.name}: {wrong}")
    for rid in rules:
        if rid not in seen and rid not in without:
            problems.append(f"{rid}: no fixture, and coverage.json gives no reason")
        if rid in seen and rid in without:
            problems.append(f"{rid}: a fixture, yet coverage.json lists it without one")
    return problems


# the first look among random deals, before Z3 is asked: this many deals (a count, not a
# time, so that the same seed gives the same fixtures on any machine)
_QUICK_DEALS = 2_000
# the seeds of one rule's deals: from ``_SPREAD * (seed + the rule's number)`` on
_SPREAD = 1000


def rule_number(rule_id: str) -> int:
    """A number of a rule from its id alone, below a million, the same in every run (a
    CRC-32 of the id): the rule's fixture does not change when rules are added or moved.

    >>> rule_number("play.follow_suit")
    673713
    """
    return zlib.crc32(rule_id.encode()) % 1_000_000


def fixtures_for(game: Game, *, seed: int = 0, timeout: float = 3600.0,
                 rlimit: int | None = FIXTURES_RLIMIT, search: int = 20_000,
                 only: set[str] | None = None, on_rule: Callable[[str, str], None] | None = None,
                 client: Any = None) -> tuple[list[dict[str, Any]], Coverage]:
    """A fixture for every rule of the game that a deal can show firing, and the coverage.

    A rule's deal comes first, where the batch back end runs the game's deals whole (see
    :mod:`spec.batch`), from a pool of random deals it plays together: an outcome rule's
    condition judged over the batch's columns, any other rule judged by the engine on the
    first few hundred, and every deal found played again by the engine and judged there.
    Then from a quick look among deals played by bots and judged by the engine (the first
    2,000); then from Z3, which unrolls the auction and the play; for a rule that states no
    condition to solve for (a card laid aside, an announcement, a card face down, a seat
    sitting out, a tracked value changed, a void deal: the engine notes where each takes
    effect) or one Z3 gives no answer on, from more such deals, at most ``search`` of them
    in all.
    ``rlimit`` bounds each Z3 query in Z3's resource units, ``timeout`` seconds only as a
    backstop: the fixtures are the same on any machine, however busy.  Each rule's deals
    come from seeds of its own (:func:`rule_number`) and the pool from ``seed``, so a rule's
    fixture depends on the rule and ``seed`` only, not on the rules before it.
    ``only`` limits the work to some rule ids (the coverage then counts those only);
    ``on_rule(rule id, outcome)`` reports progress, one rule at a time.  With ``client``
    (a Dask client, :func:`verifier.cluster.connected`), each rule is a task on its
    cluster, with the same answer (the game must be a registered one).
    """
    fixtures: list[dict[str, Any]] = []
    cov = Coverage(game.key, len(game.rules) if only is None else len(only))
    rules = [rule for rule in game.rules if only is None or rule.id in only]
    if client is not None:  # a task a rule: each rule's fixture depends on it and the seed
        from verifier.cluster import run_tasks
        calls = [(game.key, game.active_variants, rule.id, seed, timeout, rlimit, search)
                 for rule in rules]
        done = run_tasks(client, _cluster_rule, calls,
                         None if on_rule is None else
                         lambda k, got: on_rule(rules[k].id, "fixture" if not got[1] else got[1]))
    else:
        cannot = unsupported(game)
        pool = _Pool(game, seed)
        done = []
        for rule in rules:
            done.append(_rule_fixture(game, rule, seed, timeout, rlimit, search, cannot, pool))
            if on_rule:
                on_rule(rule.id, "fixture" if not done[-1][1] else done[-1][1])
    for rule, (fixture, reason) in zip(rules, done):
        if fixture is not None:
            fixtures.append(fixture)
        if reason:
            cov.without.append((rule.id, reason))
        else:
            cov.covered.append(rule.id)
    return fixtures, cov


def _cluster_rule(key: str, variants: tuple[str, ...], rule_id: str, seed: int, timeout: float,
                  rlimit: int | None, search: int) -> tuple[dict[str, Any] | None, str]:
    """On a cluster's worker: :func:`_rule_fixture` of a registered game's rule."""
    pool = _pool_of(key, tuple(variants), seed)
    game = pool.game
    return _rule_fixture(game, game.rule(rule_id), seed, timeout, rlimit, search,
                         unsupported(game), pool)


def _rule_fixture(game: Game, rule: Rule, seed: int, timeout: float, rlimit: int | None,
                  search: int, cannot: str, pool: _Pool) -> tuple[dict[str, Any] | None, str]:
    """One rule's fixture (None where no deal shows it), and why not ("" where one does).
    ``pool``: the game's pool for ``seed`` (:class:`_Pool`), shared by its rules."""
    k = rule_number(rule.id)
    scope, cond = D.fires(game, rule)
    reason = ""
    fixture = None
    try:
        if scope == D.EQUIPMENT:
            reason = "equipment: every deal uses it, no deal shows it firing"
        elif scope == D.CONSEQUENCE:
            reason = "a consequence of other rules, proved by 'trickspec check'"
        elif scope == D.EVERY_DEAL:
            state = play_deal(game, seed=seed + k)
            fixture = _fixture(game, rule, state, {"when": "every deal", "at": []})
        elif scope == D.NO_BID:
            state = _no_bid(game, seed + k)
            fixture = _fixture(game, rule, state, {"when": "an auction without a bid",
                                                   "at": ["the deal thrown in"]})
        else:
            why = cannot or ("" if scope != D.UNMODELLED else
                             f"a {type(rule.body).__name__} rule states no condition to "
                             "solve for; the engine notes where it takes effect")
            # a first look among the deals of the pool, where the batch runs the game,
            # then among deals the bots play: most rules show in a few of them, at
            # thousands of deals a second; Z3 for the rarer ones
            found, fires = _pool_fixture(pool, rule, scope, cond)
            dealt = 0
            if found is None:
                quick = min(_QUICK_DEALS, search)
                found, fires, dealt = _search_fixture(game, rule, scope, cond,
                                                      _SPREAD * (seed + k), quick)
            if found is None and not why:
                try:
                    state, fires = _z3_fixture(game, rule, scope, cond, seed + k,  # type: ignore[arg-type]
                                               timeout, rlimit)
                    found, dealt = state, 0
                except _NoZ3Deal as e:
                    why = str(e)
            if found is None and search > dealt:
                # the play is random; the rule is judged by the engine on each deal
                found, fires, more = _search_fixture(game, rule, scope, cond,
                                                     _SPREAD * (seed + k) + dealt,
                                                     search - dealt)
                dealt += more
            if found is not None:
                fixture = _fixture(game, rule, found, fires)
            else:
                reason = f"no deal found: {why}, and {dealt} random deals do not show it"
    except _BatchMismatchError as e:  # a back-end bug, reported with the rule
        reason = f"the engine does not confirm the deal the batch played: {e}"
    except ReplayMismatchError as e:  # a back-end bug, reported with the rule
        reason = f"the engine does not confirm the deal Z3 found: {e}"
    return fixture, reason

