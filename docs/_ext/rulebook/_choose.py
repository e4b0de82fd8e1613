"""Worked examples chosen, not drawn: instructive deals picked from a fixed pool.

The pool is a fixed number of whole deals the engine plays from seeds 1, 2, 3, ...: modest
bots (:func:`spec.engine.modest_bot`, who keep contracts low), random ones and cautious ones
(lower still) in turn, so that both low contracts made and rare announcements turn up; or
the bots named (:mod:`spec.bots`: ``rulebook_bots``, each name in turn, the thinking bot
among them).  Each deal is judged by the
engine, in one replay, for every rule that visibly takes effect in some deals
(:func:`spec.dsl._derive.fires`: a card the rule constrains, a trick won by its tier, a
score it pays, an announcement or a card laid aside in the engine's trail).  From the
pool come:

* a contract made (the declarer scores, and no defender more, by the scoring rules that
  read the play rather than the cards dealt), the lowest such contract whose cards were
  played (not one in which, say, every defender passed);
* a contract failed (the declarer loses, or a defender scores more), the lowest such,
  played too;
* for each section of the rulebook with a rule that takes effect in fewer than half the
  deals, a deal in which the rarest of them does, the lowest contract first.  A rule no
  deal of the pool shows is taken from its rule-coverage fixture (found by Z3's scenario
  search or a longer bot search when the fixtures were written), replayed here.

Nothing depends on the clock: the pool has a fixed size, so a build picks the same deals.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from spec.bots import bot_named
from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game, Rule
from spec.dsl._nodes import DealtHand, Scope, walk
from spec.engine import (
    Phase,
    Play,
    State,
    engine_for,
    play_deal,
)
from spec.errors import NotationError
from spec.records import replay

__all__ = ["BOTS", "Chosen", "choose", "POOL"]

POOL = 240  # deals in the pool: a fixed number, so that every build picks the same ones
BOTS = ("modest", "random", "cautious")  # the bots of the pool's deals, in turn by seed
RARE = 0.5  # a rule that takes effect in fewer deals than this share is a special mechanism
MOST_SPECIAL = 6  # special mechanisms shown at most, rarest first


@dataclass
class Chosen:
    """A deal picked as an example, and why."""

    title: str
    why: str  # reST: one line saying why the deal is worth reading
    state: State
    origin: str  # how the deal was played: 'seed 12, modest bots', 'fixture of rule x'
    rules: list[str] = field(default_factory=list)  # the rules it shows at work


_JUDGED = (Scope.PLAY, Scope.TRICK, Scope.OUTCOME)


class _Judge:
    """Every rule of a game that takes effect in some deals only, judged in one replay."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.eng = engine_for(game)
        self.play: list[tuple[str, Callable[..., bool]]] = []
        self.trick: list[tuple[str, Callable[..., bool]]] = []
        self.outcome: list[tuple[str, Callable[..., bool]]] = []
        self.trail: set[str] = set()
        for rule in game.rules:
            if isinstance(rule.body, K.Claim):  # a stated consequence, not a mechanism
                continue
            scope, cond = D.fires(game, rule)
            if scope == D.UNMODELLED:
                self.trail.add(rule.id)
            elif scope in _JUDGED and cond is not None:
                fn = self.eng.judge(scope, cond)  # type: ignore[arg-type]
                {Scope.PLAY: self.play, Scope.TRICK: self.trick,
                 Scope.OUTCOME: self.outcome}[scope].append((rule.id, fn))  # type: ignore[index]

    @property
    def rules(self) -> set[str]:
        return {r for r, _f in (*self.play, *self.trick, *self.outcome)} | self.trail

    def where(self, final: State) -> dict[str, str]:
        """Each judged rule that takes effect in the deal, with the first place it does."""
        eng, t = self.eng, self.eng.table
        hits: dict[str, str] = {}
        for _step, rid in (*[f for d in final.thrown_in for f in d.fired], *final.fired):
            if rid in self.trail:
                hits.setdefault(rid, "")
        if self.play or self.trick:
            first = final.thrown_in[0] if final.thrown_in else None
            state = eng.start(first.dealt if first else final.dealt,
                              dealer=first.dealer if first else final.dealer, seed=final.seed)
            actions = [a for d in final.thrown_in for _s, a in d.log] + [a for _s, a in final.log]
            for a in actions:
                if isinstance(a, Play) and state.phase is Phase.PLAY:
                    for rid, fn in self.play:
                        if rid not in hits and fn(state, a):
                            hits[rid] = f"trick {state.trick_number}, {t.name(state.turn)}"
                before = state
                state = eng.apply(state, a)
                if len(state.tricks) > len(before.tricks) and state.redeals == before.redeals:
                    for rid, fn in self.trick:
                        if rid not in hits and fn(before, state.tricks[-1]):
                            hits[rid] = f"trick {state.tricks[-1].number}"
        if final.phase is Phase.OVER and final.contract >= 0:
            for rid, fn in self.outcome:
                if rid not in hits and fn(final):
                    hits[rid] = ""
        return hits




def _pool(game: Game, size: int, names: tuple[str, ...] = BOTS
          ) -> Iterator[tuple[State, str]]:
    if not names:
        raise NotationError("no bots are named to play the examples' pool", value="")
    bots = [(name, bot_named(name)) for name in names]
    for seed in range(1, size + 1):
        name, bot = bots[seed % len(bots)]
        yield play_deal(game, seed=seed, bots=[bot] * game.players), f"seed {seed}, {name} bots"


def _fixture_state(game: Game, folder: Path | None, rule: Rule) -> State | None:
    if folder is None:
        return None
    path = folder / f"{rule.id}.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (data.get("variants") != list(game.active_variants) or data.get("text") != rule.text
            or data.get("source") != str(rule.source)):
        return None  # written for another wording of the rule
    report = replay(data["record"], game)
    return report.state if report.ok else None


def _sections(game: Game) -> list[tuple[str, list[Rule]]]:
    from ._page import rule_sections  # the rulebook's own grouping of the rules

    return [(title, rules) for _n, title, rules in rule_sections(game)]


def _play_scores(game: Game) -> Callable[[State], tuple[int, int]]:
    """What the play earned in a finished deal: (the declarer's score, the best score of a
    defender), from the scoring rules that read what happened, not what was dealt (honours
    and the like are left out: they would be scored however the cards were played)."""
    eng = engine_for(game)
    held = {r.id for r, b in game.rules_with(K.ScoreRule)
            if any(isinstance(n, DealtHand) for e in (b.when, b.amount)  # type: ignore[attr-defined]
                   for n in walk(e))}

    def scores(state: State) -> tuple[int, int]:
        per = [0] * game.players
        for rule, seat, amount in eng.score_items(state):
            if rule.id not in held:
                per[seat] += amount
        side = set(state.declaring_seats) | ({state.partner} if state.partner >= 0 else set())
        for s in game.table.partnerships:
            if state.declarer in s:
                side |= set(s)
        return per[state.declarer], max((per[s] for s in range(game.players) if s not in side),
                                        default=0)

    return scores


def choose(game: Game, *, fixtures: Path | None = None, size: int = POOL,
           bots: tuple[str, ...] = BOTS) -> list[Chosen]:
    """The worked examples of a game: a contract made, one failed, and a deal for each
    special mechanism (see the module docstring); ``bots`` the names of the pool's bots, in
    turn by seed."""
    judge = _Judge(game)
    earned = _play_scores(game)

    def made(state: State) -> bool:
        mine, theirs = earned(state)
        return bool(state.tricks) and mine > 0 and mine >= theirs

    def failed(state: State) -> bool:
        mine, theirs = earned(state)
        return bool(state.tricks) and (mine < 0 or mine < theirs)
    deals: list[tuple[State, str, dict[str, str]]] = []
    for state, how in _pool(game, size, bots):
        if state.contract >= 0 and state.scores is not None:
            deals.append((state, how, judge.where(state)))
    count = {r: sum(r in hits for _s, _h, hits in deals) for r in judge.rules}
    rare = {r for r, n in count.items() if n < RARE * max(len(deals), 1)}
    keys = game.bid_keys

    def plain(entry: tuple[State, str, dict[str, str]]) -> tuple[bool, int, int]:
        """The plainer deal first: one whose cards are played, the lower contract, the
        fewer other rare rules at work."""
        state, _how, hits = entry
        return (not state.tricks, keys[state.contract], len(set(hits) & rare))

    out: list[Chosen] = []
    pool_text = (f"{len(deals)} deals the bots played to a score (seeds 1 to {size}, "
                 + (f"{bots[0]} bots)" if len(bots) == 1 else
                    f"{', '.join(bots[:-1])} and {bots[-1]} bots in turn)"))
    for title, test, word in (("A contract made", made, "made"),
                              ("A contract failed", failed, "failed")):
        found = sorted((d for d in deals if test(d[0])), key=plain)
        if found:
            state, how, _hits = found[0]
            out.append(Chosen(title, f"The lowest contract {word}, its cards played, among "
                                     f"the {pool_text}.", state, how))
    shown = {id(c.state) for c in out}
    specials: list[Chosen] = []
    for title, rules in _sections(game):
        ids = [r for r in rules if r.id in rare]
        if not ids:
            continue
        rule = min(ids, key=lambda r: (count[r.id] or len(deals) + 1, game.rules.index(r)))
        seen = [d for d in deals if rule.id in d[2] and id(d[0]) not in shown]
        if seen:
            state, how, hits = min(seen, key=plain)
            n = count[rule.id]
            freq = f"in {n} of the {len(deals)} deals of the pool"
        else:
            state = _fixture_state(game, fixtures, rule)
            if state is None:
                continue
            hits = judge.where(state)
            if rule.id not in hits:
                continue
            how = f"the fixture of {rule.id}"
            freq = "in none of the pool's deals; this one is its rule-coverage fixture"
        if id(state) in shown:
            continue
        shown.add(id(state))
        at = f" ({hits[rule.id]})" if hits.get(rule.id) else ""
        others = [r.id for r in game.rules if r.id in hits and r.id in rare and r.id != rule.id]
        also = (" Also at work: " + ", ".join(f":rule:`{r}`" for r in others) + ".") if others else ""
        specials.append(Chosen(title, f":rule:`{rule.id}` takes effect{at}, which happens "
                                      f"{freq}.{also}", state, how, [rule.id, *others]))
    # the rarest mechanisms first when there are more than can be shown, rulebook order kept
    if len(specials) > MOST_SPECIAL:
        keep = sorted(specials, key=lambda c: count.get(c.rules[0], 0))[:MOST_SPECIAL]
        specials = [c for c in specials if c in keep]
    return out + specials
