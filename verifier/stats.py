"""What many deals say about a game: how often each contract is bid, made and failed, the
scores, how often each rule fires; and where the game under a variant differs.

Deals are played from consecutive seeds by the bots named, one summary a deal
(:class:`DealSummary`); a :class:`Tally` adds them up.  The figures come with 95%
confidence intervals: Wilson's for a share of deals, mean ± 1.96 standard errors for a
mean.  :func:`compare` plays the same seeds under two sets of variants and judges each
figure on the paired differences deal by deal (the same cards on both sides): an exact
sign test for a share, a normal test for the mean score, Holm's method over all of them
together; each difference comes with a witness, the first seed whose deal shows it.

What the words mean, for every game alike:

- *contract*: the contract the deal was played in, as the game writes its bid; a deal that
  ended with none (passed out, say) counts under ``no contract``.
- *made*: the declarer's score for the deal is above that of every seat of the other side
  (the seats not on the declaring side, :func:`spec.solver._goal.side_of`); *failed*:
  otherwise.
- *a rule fires*: the rule visibly takes effect in the deal (or in a deal thrown in before
  it), judged as the fixtures judge it (:func:`verifier.fixtures.rules_firing`): a share of
  deals.  A rule at work in every deal, or that no deal shows firing, is not counted.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spec.dsl._build import Game
from spec.engine import Bot, State, play_deal
from spec.solver._goal import side_of
from verifier.fixtures import rules_firing

__all__ = ["BATCH_DEALS", "NO_CONTRACT", "DealSummary", "Tally", "Difference", "batch_and_summarise",
           "compare", "play_and_summarise", "sign_test", "summarise", "tally", "wilson"]

NO_CONTRACT = "no contract"
Z = 1.96  # the normal quantile of a 95% interval


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One deal, as the figures read it."""

    seed: int
    contract: str
    declarer: int  # -1: no contract
    made: bool
    declarer_score: int | None
    scores: tuple[int, ...] | None
    fired: frozenset[str]
    thrown_in: int


def summarise(seed: int, state: State, fired: frozenset[str] = frozenset()) -> DealSummary:
    """The summary of a finished deal; ``fired``, the rules that fire in it (see
    :func:`verifier.fixtures.rules_firing`)."""
    game = state.game
    scores = state.scores
    if state.contract < 0 or state.declarer < 0:
        return DealSummary(seed, NO_CONTRACT, -1, False, None, scores, fired,
                           len(state.thrown_in))
    contract = str(game.ladder[state.contract])
    mine = scores[state.declarer] if scores is not None else None
    made = False
    if scores is not None:
        side = side_of(state.engine, state)
        others = [scores[k] for k in range(len(scores)) if not side >> k & 1]
        made = all(mine > x for x in others)  # type: ignore[operator]
    return DealSummary(seed, contract, state.declarer, made, mine, scores, fired,
                       len(state.thrown_in))


def play_and_summarise(game: Game, seeds: Iterable[int], bots: Sequence[Bot] | None,
                       on_deal: Callable[[], object] | None = None) -> list[DealSummary]:
    """Play a deal from each seed with the bots (random ones by default) and summarise it."""
    judge = rules_firing(game)
    out = []
    for seed in seeds:
        state = play_deal(game, seed=seed, bots=bots)
        out.append(summarise(seed, state, judge(state)))
        if on_deal is not None:
            on_deal()
    return out


# deals the batch back end plays together for the figures (a few MB of columns)
BATCH_DEALS = 4096


def batch_and_summarise(game: Game, numbers: range,
                        on_deals: Callable[[int], object] | None = None) -> list[DealSummary]:
    """The deals ``numbers`` dealt and played by the batch back end with its random policy
    (of seed 0; the batch shuffles its own packs, so deal ``k`` is not the engine's deal of
    seed ``k``: see :func:`spec.batch.play_batch`), ``BATCH_DEALS`` at a time, each
    summarised: where each rule fires judged as the lanes play (the batch's
    :class:`~spec.batch.Watch`, as :func:`rules_firing` judges a deal); a deal
    handed back to the engine (thrown in, say), played on and judged by the engine.

    Raises:
        NotBatchable: the batch does not run the game, or cannot judge a rule's firing.
    """
    import numpy as np

    from spec.batch import random_policy
    from spec.engine import engine_for
    from verifier.fixtures import firing_conditions
    eng = engine_for(game)
    batch = eng.batch()
    watch = batch.watch(firing_conditions(game))
    judge: Callable[[State], frozenset[str]] | None = None
    out: list[DealSummary] = []
    sets: dict[bytes, frozenset[str]] = {}  # one object for each set of rules that fire
    for first in range(numbers.start, numbers.stop, BATCH_DEALS):
        deals = np.arange(first, min(first + BATCH_DEALS, numbers.stop), dtype=np.int64)
        c = batch.run(batch.deal(deals, 0, compiled=False), random_policy(0), compiled=False,
                      watch=watch)
        for k, number in enumerate(deals.tolist()):
            if c.at[k] != -1:  # handed back: the engine's deal to play on and judge
                judge = judge or rules_firing(game)
                state = batch.state(c, k)
                out.append(summarise(number, state, judge(state)))
                continue
            row = watch.hits[k]
            fired = sets.get(row.tobytes())
            if fired is None:
                fired = sets[row.tobytes()] = frozenset(watch.ids[j] for j in np.flatnonzero(row))
            out.append(summarise(number, _Ended(eng, c, k), fired))  # type: ignore[arg-type]  # what summarise reads
        if on_deals is not None:
            on_deals(len(deals))
    return out


class _Ended:
    """What :func:`summarise` reads of a deal the batch played to its end (lane ``k`` of
    the columns ``c``), without the whole state."""

    thrown_in = ()

    def __init__(self, eng: Any, c: Any, k: int) -> None:
        self.engine, self.game = eng, eng.game
        self.contract, self.declarer = int(c.contract[k]), int(c.declarer[k])
        self.declarers, self.partner = int(c.declarers[k]), int(c.partner[k])
        self.scores = tuple(int(x) for x in c.scores[k])


def wilson(hits: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a share of ``hits`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    if not xs:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(xs)
    if len(xs) < 2:
        return (mean, -math.inf, math.inf)
    half = Z * statistics.stdev(xs) / math.sqrt(len(xs))
    return (mean, mean - half, mean + half)


@dataclass
class Tally:
    """The figures of a run of deals (see the module's docstring)."""

    game: str
    variants: tuple[str, ...]
    seats: tuple[str, ...]
    deals: list[DealSummary] = field(default_factory=list)

    def share(self, hits: int) -> dict[str, Any]:
        low, high = wilson(hits, len(self.deals))
        n = max(1, len(self.deals))
        return {"deals": hits, "share": round(hits / n, 4), "ci95": [round(low, 4), round(high, 4)]}

    def contracts(self) -> dict[str, dict[str, Any]]:
        """Each contract: how often it is played, and how often made."""
        counts = Counter(d.contract for d in self.deals)
        out = {}
        for contract, k in counts.most_common():
            made = sum(d.made for d in self.deals if d.contract == contract)
            entry = self.share(k)
            if contract != NO_CONTRACT:
                low, high = wilson(made, k)
                entry["made"] = made
                entry["made_share"] = round(made / k, 4)
                entry["made_ci95"] = [round(low, 4), round(high, 4)]
            out[contract] = entry
        return out

    def rules_fired(self) -> dict[str, dict[str, Any]]:
        """Each rule that fired: in how many deals."""
        counts = Counter(r for d in self.deals for r in d.fired)
        return {rule: self.share(k) for rule, k in sorted(counts.items(), key=lambda x: (-x[1], x[0]))}

    def scores(self) -> dict[str, Any]:
        """The declarer's score (deals with a contract), and each seat's mean score."""
        mine = [d.declarer_score for d in self.deals if d.declarer_score is not None]
        out: dict[str, Any] = {}
        if mine:
            mean, low, high = _mean_ci(mine)
            q = statistics.quantiles(mine, n=4) if len(mine) > 1 else [mine[0]] * 3
            out["declarer"] = {"mean": round(mean, 3), "ci95": [round(low, 3), round(high, 3)],
                               "min": min(mine), "quartiles": [round(x, 3) for x in q],
                               "max": max(mine)}
        scored = [d.scores for d in self.deals if d.scores is not None]
        if scored:
            names = self.seats
            out["seats"] = {names[k]: round(statistics.fmean(s[k] for s in scored), 3)
                            for k in range(len(scored[0]))}
        return out

    def to_json(self) -> dict[str, Any]:
        made = sum(d.made for d in self.deals)
        played = sum(d.contract != NO_CONTRACT for d in self.deals)
        return {"game": self.game, "variants": list(self.variants), "deals": len(self.deals),
                "seeds": [self.deals[0].seed, self.deals[-1].seed] if self.deals else [],
                "thrown_in": sum(d.thrown_in for d in self.deals),
                "made": {"deals": made, "of": played,
                         "ci95": [round(x, 4) for x in wilson(made, played)]},
                "contracts": self.contracts(), "scores": self.scores(),
                "rules_fired": self.rules_fired()}


def tally(game: Game, deals: list[DealSummary]) -> Tally:
    """The figures of ``deals`` played in ``game``."""
    return Tally(game.key, tuple(game.active_variants), game.table.names, deals)


@dataclass(frozen=True)
class Difference:
    """A figure that differs between two runs over the same seeds: the mean of the paired
    differences (second less first), its 95% interval, the p-value of the test that found
    it, and a seed whose deal shows it."""

    what: str
    first: float
    second: float
    difference: float
    ci95: tuple[float, float]
    p: float
    witness: int | None

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "first": round(self.first, 4), "second": round(self.second, 4),
                "difference": round(self.difference, 4),
                "ci95": [round(self.ci95[0], 4), round(self.ci95[1], 4)],
                "p": float(f"{self.p:.3g}"), "witness": self.witness}


def sign_test(up: int, down: int) -> float:
    """The two-sided p-value of the exact sign test (McNemar's, for paired yes/no figures):
    ``up`` deals moved one way, ``down`` the other, the rest unchanged."""
    n = up + down
    if n == 0:
        return 1.0
    k = min(up, down)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _paired(what: str, a: Sequence[float], b: Sequence[float], seeds: Sequence[int],
            binary: bool) -> Difference:
    diffs = [y - x for x, y in zip(a, b)]
    mean, low, high = _mean_ci(diffs)
    if binary:
        p = sign_test(sum(d > 0 for d in diffs), sum(d < 0 for d in diffs))
    else:  # a mean of many paired differences: the normal test
        sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
        z = math.inf if sd == 0 and mean else (mean / (sd / math.sqrt(len(diffs))) if sd else 0.0)
        p = math.erfc(abs(z) / math.sqrt(2))
    sign = 1 if mean > 0 else -1
    witness = next((s for s, d in zip(seeds, diffs) if d * sign > 0), None)
    return Difference(what, statistics.fmean(a) if a else 0.0, statistics.fmean(b) if b else 0.0,
                      mean, (low, high), p, witness)


def compare(first: Sequence[DealSummary], second: Sequence[DealSummary],
            level: float = 0.05) -> list[Difference]:
    """The figures that differ between two runs over the same seeds: each contract's share,
    the share of deals made, each rule's share of deals it fires in (each an exact sign test
    on the deals that changed), and the declarer's mean score (a normal test of the paired
    differences); Holm's method keeps the chance of naming any figure that does not differ
    below ``level`` over all the figures tested together.  Listed by kind, the largest
    differences first."""
    assert [d.seed for d in first] == [d.seed for d in second]
    seeds = [d.seed for d in first]
    out = []
    for contract in sorted({d.contract for d in first} | {d.contract for d in second}):
        out.append(_paired(f"contract {contract}", [float(d.contract == contract) for d in first],
                           [float(d.contract == contract) for d in second], seeds, True))
    out.append(_paired("made", [float(d.made) for d in first], [float(d.made) for d in second],
                       seeds, True))
    for rule in sorted({r for d in first for r in d.fired} | {r for d in second for r in d.fired}):
        out.append(_paired(f"rule {rule} fires", [float(rule in d.fired) for d in first],
                           [float(rule in d.fired) for d in second], seeds, True))
    both = [(a.declarer_score, b.declarer_score, a.seed) for a, b in zip(first, second)
            if a.declarer_score is not None and b.declarer_score is not None]
    if both:
        out.append(_paired("declarer's score", [float(x) for x, _y, _s in both],
                           [float(y) for _x, y, _s in both], [s for _x, _y, s in both], False))
    shown = _holm(out, level)
    kinds = ("contract", "made", "rule", "declarer's")  # the order figures are listed in
    return sorted(shown, key=lambda d: (kinds.index(d.what.split()[0]), -abs(d.difference), d.what))


def _holm(tests: list[Difference], level: float) -> list[Difference]:
    """The tests Holm's step-down method rejects at ``level`` over all of them."""
    ranked = sorted(tests, key=lambda d: d.p)
    out = []
    for i, d in enumerate(ranked):
        if d.p > level / (len(ranked) - i):
            break
        out.append(d)
    return out
