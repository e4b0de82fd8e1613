"""Constrained dealing: trickspec's Z3 search against a plain Z3 encoding of the same
constraint, against rejection sampling, and the method ``auto`` chooses; how diverse and how
near uniform the deals are.

Run from the repository root::

    python benchmarks/deals.py                  # Vint, the default constraints
    python benchmarks/deals.py --deals 300 --repeats 5 --json

The constraints: North holds exactly the spade ace, king, queen and jack and no heart
(``RARE``, a matter of which cards go where), North holds the four aces (``ACES``), North
holds eleven spades or more (``LONG``, a matter of counts), and one deal in three
(``COMMON``).  For each the figures are the medians of ``--repeats`` runs (seeds 1, 2, ...),
each asking for ``--deals`` deals, the methods taking turns so that a change in the load
of the machine falls on all of them:

* **plain Z3**: the encoding a Z3 user would write for this one constraint, built here: a
  Boolean per card and seat, exactly one seat per card and 13 cards per seat (``PbEq``), the
  constraint written out by hand on those Booleans, and a blocking clause for each deal
  found so that the deals are distinct.  (An owner number per card, with ``If`` sums for the
  shares, runs at a quarter of the speed on this constraint, so the Booleans are the
  stronger reference.)  Its deals/s and the time to its first deal, the context and the
  encoding included.
* **trickspec z3**: ``deals_where(..., method="z3")``, from the call to the last deal, with
  its first deal timed from the call too (the constraint's compilation, for the engine and
  for Z3, included; the engine's rules are compiled once per process, like an import, and
  the time to a first deal in a new process, which includes that, is shown apart).
* **rejection**: the engine's dealer with the constraint as a filter; for a constraint
  rarer than one in a million the measured dealing speed times the exact probability.
* **auto**: ``method="auto"``, and how much slower it is than the faster of the other two.
* **diversity**: the mean number of cards that change owner between consecutive deals,
  and how far the deals are from uniform: for each card, the total-variation distance
  between how often each seat got it and the exact chance (from the constraint's exact
  uniform distribution, worked out below), averaged over the deck.  The same figures for
  deals drawn exactly uniformly (with the same number of deals) show the noise floor.

Each figure is printed beside its target; nothing fails when one is missed.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from math import comb
from typing import Any

import z3

from spec.cards import Rank, Suit
from spec.constraints import deal_test, parse_where
from spec.engine import engine_for
from spec.registry import find_game
from verifier._z3.solver import checks_made
from verifier.deals import deals_where

GAME = "vint"
SEATS, SHARE, CARDS = 4, 13, 52
NORTH = 0

# "North holds exactly the spade ace, king, queen and jack and no heart": the spades are
# those four (count == 4 with all four held), and the hearts none
RARE = "holds(North, AS, KS, QS, JS) and count(North, spades) == 4 and void(North, hearts)"
ACES = "count(North, aces) == 4"
LONG = "count(North, spades) >= 11"  # a matter of counts, not of where each card goes
COMMON = "count(North, spades) >= 4"
IMPOSSIBLE = "count(North, aces) + count(South, aces) == 5"

TARGET_RATIO = 0.8  # trickspec z3 deals/s over plain Z3's
TARGET_FIRST_MS = 30.0
TARGET_AUTO = 1.2  # auto's time over the faster method's

Hands = tuple[int, ...]


def _cards(pred: Callable[[Any], bool]) -> list[int]:
    deck = find_game(GAME).deck
    return [i for i, c in enumerate(deck) if pred(c)]


HONOURS = _cards(lambda c: c.suit is Suit.SPADES and c.rank in (Rank.ACE, Rank.KING,
                                                                  Rank.QUEEN, Rank.JACK))
SPADES = _cards(lambda c: c.suit is Suit.SPADES)
HEARTS = _cards(lambda c: c.suit is Suit.HEARTS)
MINORS = _cards(lambda c: c.suit in (Suit.CLUBS, Suit.DIAMONDS))
ACE_CARDS = _cards(lambda c: c.rank is Rank.ACE)


# -- the plain Z3 encoding ---------------------------------------------------------------

def _plain_rare(x: list[list[Any]]) -> list[Any]:
    return ([x[i][NORTH] for i in HONOURS]
            + [z3.Not(x[i][NORTH]) for i in SPADES if i not in HONOURS]
            + [z3.Not(x[i][NORTH]) for i in HEARTS])


def _plain_aces(x: list[list[Any]]) -> list[Any]:
    return [z3.PbEq([(x[i][NORTH], 1) for i in ACE_CARDS], 4)]


def _plain_long(x: list[list[Any]]) -> list[Any]:
    return [z3.PbGe([(x[i][NORTH], 1) for i in SPADES], 11)]


def _plain_common(x: list[list[Any]]) -> list[Any]:
    return [z3.PbGe([(x[i][NORTH], 1) for i in SPADES], 4)]


def plain_z3(constraint: Callable[[list[list[Any]]], list[Any]], n: int
             ) -> tuple[list[Hands], tuple[float, float], float]:
    """``n`` distinct deals from the plain encoding: the deals, the seconds to the first
    (wall clock and this process's CPU) and the seconds to the last (the context and the
    encoding included)."""
    start, cpu = time.perf_counter(), time.process_time()
    ctx = z3.Context()
    x = [[z3.Bool(f"x_{i}_{s}", ctx) for s in range(SEATS)] for i in range(CARDS)]
    s = z3.Solver(ctx=ctx)
    s.add([z3.PbEq([(b, 1) for b in row], 1) for row in x])
    s.add([z3.PbEq([(row[k], 1) for row in x], SHARE) for k in range(SEATS)])
    s.add(constraint(x))
    deals: list[Hands] = []
    first = (0.0, 0.0)
    while len(deals) < n:
        answer = s.check()
        if answer == z3.unknown:  # no figure from a search that gave up
            raise RuntimeError(f"plain Z3 gave no answer: {s.reason_unknown()}")
        if answer == z3.unsat:
            break
        m = s.model()
        hands = [0] * SEATS
        held = []
        for i, row in enumerate(x):
            seat = next(k for k, b in enumerate(row)
                        if z3.is_true(m.eval(b, model_completion=True)))
            hands[seat] |= 1 << i
            held.append(row[seat])
        deals.append(tuple(hands))
        if len(deals) == 1:
            first = (time.perf_counter() - start, time.process_time() - cpu)
        s.add(z3.Or([z3.Not(b) for b in held]))
    return deals, first, time.perf_counter() - start


# -- exact uniform deals and the exact chance of each owner ------------------------------

def _exact_rare(rng: random.Random) -> Hands:
    """A deal drawn uniformly from those that meet RARE: North's other nine cards are any
    nine of the 26 clubs and diamonds, and the other 39 cards are dealt at random."""
    north = HONOURS + rng.sample(MINORS, 9)
    return _deal_rest(rng, north)


def _exact_aces(rng: random.Random) -> Hands:
    """A deal drawn uniformly from those that meet ACES: the four aces and any nine others."""
    north = ACE_CARDS + rng.sample([i for i in range(CARDS) if i not in ACE_CARDS], 9)
    return _deal_rest(rng, north)


_LONG_WAYS = {j: comb(13, j) * comb(39, 13 - j) for j in (11, 12, 13)}  # North's spades


def _exact_long(rng: random.Random) -> Hands:
    """A deal drawn uniformly from those that meet LONG: North's number of spades in
    proportion to the hands that have it, then which spades and which other cards."""
    j = rng.choices(list(_LONG_WAYS), weights=list(_LONG_WAYS.values()))[0]
    others = [i for i in range(CARDS) if i not in SPADES]
    return _deal_rest(rng, rng.sample(SPADES, j) + rng.sample(others, 13 - j))


def _deal_rest(rng: random.Random, north: list[int]) -> Hands:
    rest = [i for i in range(CARDS) if i not in north]
    rng.shuffle(rest)
    hands = [sum(1 << i for i in north)]
    hands += [sum(1 << i for i in rest[k * SHARE:(k + 1) * SHARE]) for k in range(3)]
    return tuple(hands)


def _chance_rare(i: int) -> list[float]:
    """The exact chance that each seat holds card ``i`` in a uniform deal meeting RARE."""
    north = 1.0 if i in HONOURS else 0.0 if i in SPADES or i in HEARTS else 9 / 26
    return [north] + [(1 - north) / 3] * 3


def _chance_aces(i: int) -> list[float]:
    north = 1.0 if i in ACE_CARDS else 9 / 48
    return [north] + [(1 - north) / 3] * 3


def _chance_long(i: int) -> list[float]:
    total = sum(_LONG_WAYS.values())
    per = (j / 13 if i in SPADES else (13 - j) / 39 for j in _LONG_WAYS)
    north = sum(w * p for w, p in zip(_LONG_WAYS.values(), per)) / total
    return [north] + [(1 - north) / 3] * 3


def moved(deals: Sequence[Hands]) -> float:
    """The mean number of cards whose owner changes from one deal to the next."""
    if len(deals) < 2:
        return 0.0
    changes = [sum(1 for i in range(CARDS) if _owner(a, i) != _owner(b, i))
               for a, b in zip(deals, deals[1:])]
    return statistics.mean(changes)


def _owner(hands: Hands, i: int) -> int:
    return next(s for s, m in enumerate(hands) if m >> i & 1)


def distance(deals: Sequence[Hands], chance: Callable[[int], list[float]]) -> float:
    """The total-variation distance between each card's owners in ``deals`` and the exact
    chances, averaged over the deck (0: the same; 1: never the same seat)."""
    total = 0.0
    for i in range(CARDS):
        counts = [0] * SEATS
        for hands in deals:
            counts[_owner(hands, i)] += 1
        total += sum(abs(c / len(deals) - p) for c, p in zip(counts, chance(i))) / 2
    return total / CARDS


# -- the methods -------------------------------------------------------------------------

def trickspec(where: str, n: int, seed: int, method: str) -> dict[str, Any]:
    game = find_game(GAME)
    start, checks = time.perf_counter(), checks_made()
    cond = parse_where(game, where)
    result = deals_where(game, cond, n=n, seed=seed, method=method)
    seconds, checks = time.perf_counter() - start, checks_made() - checks
    test = deal_test(game, cond)
    assert all(test(d, hands) for d, hands in result.deals), "a deal the constraint refuses"
    assert len({hands for _d, hands in result.deals}) == len(result.deals), "a deal twice"
    return {"status": result.status, "method": result.method, "seconds": seconds,
            "checks_per_deal": checks / len(result.deals) if result.deals else 0.0,
            "deals": [hands for _d, hands in result.deals]}


def first_deal(where: str, seed: int) -> tuple[float, float]:
    """Seconds from the call to the first deal of ``method="z3"`` (parsing included), by
    the wall clock and in this process's CPU time (which the load of the machine does not
    lengthen: Z3 runs in this thread)."""
    game = find_game(GAME)
    start, cpu = time.perf_counter(), time.process_time()
    result = deals_where(game, parse_where(game, where), n=1, seed=seed, method="z3")
    assert result.deals
    return time.perf_counter() - start, time.process_time() - cpu


def first_deal_new_process(where: str) -> float:
    """Seconds to the first deal in a new process, imports excluded: what the command line
    gives, the engine's compilation of the rules included."""
    code = ("import time\nfrom spec.constraints import parse_where\n"
            "from spec.registry import find_game\nfrom verifier.deals import deals_where\n"
            f"g = find_game({GAME!r})\nstart = time.perf_counter()\n"
            f"r = deals_where(g, parse_where(g, {where!r}), n=1, method='z3')\n"
            "print(time.perf_counter() - start)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return float(out.stdout.split()[-1])


def dealing_speed(where: str, deals: int) -> dict[str, float]:
    """Deals dealt and judged per second by the rejection method, and the share accepted."""
    game = find_game(GAME)
    eng = engine_for(game)
    test = deal_test(game, parse_where(game, where))
    start = time.perf_counter()
    hits = 0
    for k in range(deals):
        hits += test(game.players - 1, eng.hands_from_order(eng.deal_order(0, k), game.players - 1))
    return {"dealt_per_second": deals / (time.perf_counter() - start), "accepted": hits / deals}


def _rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else 0.0


def measure(where: str, plain: Callable[[list[list[Any]]], list[Any]],
            probability: float, chance: Callable[[int], list[float]] | None,
            exact: Callable[[random.Random], Hands] | None, n: int, repeats: int,
            dealt_per_second: float) -> dict[str, Any]:
    """Every figure for one constraint (see the module docstring)."""
    runs: dict[str, list[float]] = {k: [] for k in ("plain", "z3", "auto", "rejection",
                                                    "plain_first", "z3_first",
                                                    "plain_first_cpu", "z3_first_cpu",
                                                    "z3_checks")}
    deals: dict[str, list[list[Hands]]] = {"plain": [], "z3": []}
    auto_method = ""
    measured_rejection = probability * dealt_per_second > 20  # else: speed x probability
    for r in range(1, repeats + 1):
        got, first, total = plain_z3(plain, n)
        runs["plain"].append(_rate(len(got), total))
        runs["plain_first"].append(first[0])
        runs["plain_first_cpu"].append(first[1])
        deals["plain"].append(got)
        z = trickspec(where, n, r, "z3")
        runs["z3"].append(_rate(len(z["deals"]), z["seconds"]))
        runs["z3_checks"].append(z["checks_per_deal"])
        deals["z3"].append(z["deals"])
        wall, cpu = first_deal(where, 100 + r)
        runs["z3_first"].append(wall)
        runs["z3_first_cpu"].append(cpu)
        a = trickspec(where, n, r, "auto")
        runs["auto"].append(_rate(len(a["deals"]), a["seconds"]))
        auto_method = a["method"]
        if measured_rejection:
            j = trickspec(where, n, r, "rejection")
            runs["rejection"].append(_rate(len(j["deals"]), j["seconds"]))
    med = {k: statistics.median(v) for k, v in runs.items() if v}
    rejection = med.get("rejection", probability * dealt_per_second)
    best = max(rejection, med["z3"])
    out: dict[str, Any] = {
        "where": where, "probability": probability, "deals": n, "repeats": repeats,
        "plain_per_second": med["plain"], "z3_per_second": med["z3"],
        "rejection_per_second": rejection, "rejection_measured": measured_rejection,
        "auto_per_second": med["auto"], "auto_method": auto_method,
        "z3_over_plain": med["z3"] / med["plain"],
        "auto_slowdown": best / med["auto"] if med["auto"] else float("inf"),
        "plain_first_ms": 1000 * med["plain_first"], "z3_first_ms": 1000 * med["z3_first"],
        "z3_first_ms_runs": [round(1000 * t, 1) for t in runs["z3_first"]],
        "z3_checks_per_deal": med["z3_checks"],
        "plain_first_cpu_ms": 1000 * med["plain_first_cpu"],
        "z3_first_cpu_ms": 1000 * med["z3_first_cpu"],
        "plain_moved": statistics.mean(moved(d) for d in deals["plain"]),
        "z3_moved": statistics.mean(moved(d) for d in deals["z3"]),
    }
    if chance is not None and exact is not None:
        pooled_z3 = [h for d in deals["z3"] for h in d]
        pooled_plain = [h for d in deals["plain"] for h in d]
        rng = random.Random(0)
        reference = [exact(rng) for _ in pooled_z3]
        out.update(z3_distance=distance(pooled_z3, chance),
                   plain_distance=distance(pooled_plain, chance),
                   exact_distance=distance(reference, chance),
                   exact_moved=moved(reference))
    return out


def _at_least_in_suit(k: int) -> float:
    """The chance that a 13-card hand from 52 holds at least ``k`` cards of one given suit."""
    return sum(comb(13, j) * comb(39, 13 - j) for j in range(k, 14)) / comb(52, 13)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per run (default 300)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = find_game(GAME)
    engine_for(game)  # the engine's rules compiled once, as an import would be
    deals_where(game, parse_where(game, ACES), n=2, method="z3")  # warm Z3's own caches
    load = os.getloadavg()[0]
    speed = dealing_speed(COMMON, 20_000)["dealt_per_second"]
    d = args.deals
    out: dict[str, Any] = {
        "game": GAME, "load_average": load, "cores": os.cpu_count(), "dealt_per_second": speed,
        "rare": measure(RARE, _plain_rare, comb(26, 9) / comb(52, 13), _chance_rare,
                        _exact_rare, d, args.repeats, speed),
        "aces": measure(ACES, _plain_aces, comb(48, 9) / comb(52, 13), _chance_aces,
                        _exact_aces, d, args.repeats, speed),
        "long": measure(LONG, _plain_long, sum(_LONG_WAYS.values()) / comb(52, 13),
                        _chance_long, _exact_long, d, args.repeats, speed),
        "common": measure(COMMON, _plain_common, _at_least_in_suit(4), None, None, d,
                          args.repeats, speed),
        "first_new_process_ms": 1000 * first_deal_new_process(RARE),
    }
    impossible = trickspec(IMPOSSIBLE, 1, 0, "z3")
    out["impossible"] = {"where": IMPOSSIBLE, "status": impossible["status"],
                         "seconds": impossible["seconds"]}
    out["load_average_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{GAME}: {d} deals per run, medians of {args.repeats} runs; load average "
          f"{load:.1f} -> {out['load_average_after']:.1f} on {out['cores']} cores")
    print(f"the engine deals and judges {speed:,.0f} deals/s")
    for key in ("rare", "aces", "long", "common"):
        _print(key, out[key])
    print(f"first deal in a new process (the engine's rules compiled in the call): "
          f"{out['first_new_process_ms']:.0f} ms")
    i = out["impossible"]
    print(f"impossible {i['where']!r}: {i['status']} in {i['seconds']:.3f} s")
    return 0


def _print(key: str, f: dict[str, Any]) -> None:
    print(f"\n{key}: {f['where']!r} (p = {f['probability']:.3g})")
    print(f"  {'':14} {'deals/s':>9} {'first deal':>11} {'moved':>7} {'distance':>9}")
    rows = [("plain Z3", f["plain_per_second"], f["plain_first_ms"], f["plain_moved"],
             f.get("plain_distance")),
            ("trickspec z3", f["z3_per_second"], f["z3_first_ms"], f["z3_moved"],
             f.get("z3_distance"))]
    if "exact_distance" in f:
        rows.append(("exact uniform", None, None, f["exact_moved"], f["exact_distance"]))
    for name, rate, first, mv, dist in rows:
        print(f"  {name:14} {_fmt(rate, '9,.0f')} {_fmt(first, '8.1f')} ms "
              f"{_fmt(mv, '7.1f')} {_fmt(dist, '9.3f')}")
    how = "measured" if f["rejection_measured"] else "dealing speed x p"
    print(f"  {'rejection':14} {f['rejection_per_second']:9,.3g}  ({how})")
    print(f"  {'auto':14} {f['auto_per_second']:9,.0f}  ({f['auto_method']})")
    print(f"  z3 / plain Z3:   {f['z3_over_plain']:.2f}   (target >= {TARGET_RATIO}; "
          f"{f['z3_checks_per_deal']:.2f} solver checks a deal)")
    print(f"  first deal:      {f['z3_first_ms']:.1f} ms (target <= {TARGET_FIRST_MS:.0f} ms; "
          f"runs {f['z3_first_ms_runs']}); CPU {f['z3_first_cpu_ms']:.1f} ms "
          f"(plain Z3: {f['plain_first_cpu_ms']:.1f} ms)")
    print(f"  auto slowdown:   {f['auto_slowdown']:.2f}   (target <= {TARGET_AUTO}, against "
          "the faster of rejection and z3)")


def _fmt(x: float | None, spec: str) -> str:
    width = int(spec.split(",")[0].split(".")[0] or 0)
    return format(x, spec) if x is not None else " " * width


if __name__ == "__main__":
    sys.exit(main())
