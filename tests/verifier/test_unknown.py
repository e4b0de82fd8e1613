"""An unknown answer from Z3 is never a proof.

Each place that reads a solver's answer (the properties, their ranking arguments and
bounds, what-if proofs, constrained deals, scenarios, fixtures, the bids the call rules
allow, the CLI) is made to meet ``unknown`` at one query after another, as a spent time
or resource budget would give it, and must answer UNKNOWN: never holds, violated,
impossible or "no such deal".
"""
from __future__ import annotations

import ast
import pathlib

import pytest
import z3

from spec.constraints import parse_where
from spec.games.crescendo import GAME as CRESCENDO
from spec.games.vint import GAME as VINT
from spec.registry import GAMES
from verifier._z3.solver import DEFAULT_RLIMIT, Solving, checks_made, forced_unknown
from verifier.cli import main
from verifier.deals import deals_where
from verifier.errors import SolverUnknownError
from verifier.fixtures import fixtures_for
from verifier.properties import Options, Verdict, checks_for, legal_bids, run_check
from verifier.scenario import scenarios_where

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _queries(fn) -> int:  # type: ignore[no-untyped-def]
    """How many solver queries ``fn()`` makes when nothing is forced."""
    before = checks_made()
    fn()
    return checks_made() - before


def _spread(n: int, most: int = 12) -> list[int]:
    """Query numbers to force: every one of a few, or the first, last and some between."""
    if n <= most:
        return list(range(n))
    step = max(1, n // (most - 2))
    return sorted({0, 1, n - 2, n - 1, *range(0, n, step)})


# -- the solver wrapper itself ----------------------------------------------------------

def test_forced_unknown_reaches_the_caller_with_its_reason() -> None:
    solving = Solving()
    s = solving.solver()
    x = z3.Int("x", solving.ctx)
    s.add(x > 1)
    with forced_unknown(0):
        assert s.check() == z3.unknown
        assert solving.reason(s) == "forced unknown"
        assert s.check() == z3.sat  # only the first query of the block was forced
    with forced_unknown(), pytest.raises(SolverUnknownError, match="forced unknown"):
        solving.sat(s)
    assert solving.sat(s) is True


def test_a_spent_resource_limit_says_so() -> None:
    solving = Solving(rlimit=200)
    s = solving.one_shot()
    xs = [z3.Int(f"x{i}", solving.ctx) for i in range(10)]
    s.add(*[z3.And(v >= 0, v < 40) for v in xs], z3.Sum(xs) == 217,
          z3.Product(xs[:4]) == 7919 * 3)
    with pytest.raises(SolverUnknownError, match=r"resource limit ran out \(rlimit 200\)"):
        solving.sat(s)


def test_a_spent_time_limit_says_so() -> None:
    solving = Solving(timeout=0.001)
    s = solving.one_shot()
    xs = [z3.Int(f"x{i}", solving.ctx) for i in range(14)]
    s.add(*[z3.And(v >= 0, v < 60) for v in xs], z3.Sum(xs) == 417,
          z3.Product(xs[:5]) == 7919 * 7)
    assert s.check() == z3.unknown
    assert "time ran out (timeout 0.001 s)" in solving.reason(s)


def test_the_resource_limit_gives_the_same_verdicts_twice() -> None:
    opts = Options(rlimit=2_000_000)
    for check in checks_for(CRESCENDO)[:8]:
        first = run_check(CRESCENDO, check, opts)
        second = run_check(CRESCENDO, check, opts)
        assert (first.verdict, first.detail) == (second.verdict, second.detail)


_SOLVER_MAKERS = ("Solver", "SolverFor", "SimpleSolver", "Optimize", "Tactic", "Then",
                  "reason_unknown")


@pytest.mark.parametrize("path", sorted([*(ROOT / "verifier").rglob("*.py"),
                                         *(ROOT / "docs" / "_ext").rglob("*.py")]),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_solvers_are_made_only_by_solving(path: pathlib.Path) -> None:
    """Every query goes through :class:`Solving`, where unknown is read: no other module
    makes a solver or reads Z3's reason itself."""
    if path.name == "solver.py":
        return
    tree = ast.parse(path.read_text(), filename=str(path))
    made = [node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in _SOLVER_MAKERS
            and isinstance(node.value, ast.Name) and node.value.id == "z3"]
    made += [node.attr for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr == "reason_unknown"]
    assert not made, f"{path.name} uses z3.{made[0]}: make solvers with Solving"


# -- properties: every query of Crescendo's, one at a time; the first of every game's ------

def _long(check) -> bool:  # type: ignore[no-untyped-def]
    return check.id == "score.every_bid_reachable"  # some 800 queries, 7 s a run


@pytest.mark.parametrize("check", [
    pytest.param(c, marks=pytest.mark.slow) if _long(c) else c for c in checks_for(CRESCENDO)],
    ids=lambda c: c.id)
def test_every_query_of_a_property_can_only_make_it_unknown(check) -> None:  # type: ignore[no-untyped-def]
    opts = Options()
    # whether each situation can occur is found once per game and scope, before the
    # property's own queries (an unknown there only leaves the property to ask itself)
    run_check(CRESCENDO, check, opts)
    n = _queries(lambda: run_check(CRESCENDO, check, opts))
    assert n >= 1
    for k in _spread(n):
        with forced_unknown(k):
            r = run_check(CRESCENDO, check, opts)
        assert r.verdict is Verdict.UNKNOWN, f"query {k} of {n} forced unknown: {r.verdict}"
        assert r.detail == "forced unknown"


def test_the_first_queries_of_a_long_property_can_only_make_it_unknown() -> None:
    """The queries of a witness for every bid: forcing an early one is cheap (the slow
    test above forces late ones too)."""
    (check,) = [c for c in checks_for(CRESCENDO) if _long(c)]
    for k in range(12):
        with forced_unknown(k):
            assert run_check(CRESCENDO, check).verdict is Verdict.UNKNOWN


# Wiezen's (10 s) with the slow tests: the other four games run in the default suite
@pytest.mark.parametrize("key", [pytest.param(k, marks=pytest.mark.slow) if k == "wiezen" else k
                                 for k in sorted(GAMES)])
def test_no_property_of_any_game_holds_without_answers(key: str) -> None:
    """Every property the solver decides is UNKNOWN when it gives no answer; a deal where
    two readings of a rule part (``variant.*``) is played by the engine, not proved, and
    is found all the same."""
    game = GAMES[key]
    with forced_unknown():
        results = [run_check(game, c) for c in checks_for(game)]
    assert {r.verdict for r in results if not r.id.startswith("variant.")} == {Verdict.UNKNOWN}
    assert all(r.playthrough is not None and r.playthrough.replayed
               for r in results if r.id.startswith("variant."))


@pytest.mark.parametrize("key", [pytest.param(k, marks=pytest.mark.slow) if k == "wiezen" else k
                                 for k in sorted(GAMES)])  # Wiezen's argument takes 11 s
def test_the_last_query_of_a_ranking_argument_can_only_make_it_unknown(key: str) -> None:
    """``auction.ends`` bounds each stage by a ranking argument, query after query."""
    game = GAMES[key]
    (check,) = [c for c in checks_for(game) if c.id == "auction.ends"]
    n = _queries(lambda: run_check(game, check))
    for k in (n - 1, n // 2):
        with forced_unknown(k):
            assert run_check(game, check).verdict is Verdict.UNKNOWN


def test_the_bids_the_rules_allow_are_not_guessed() -> None:
    with forced_unknown(3), pytest.raises(SolverUnknownError):
        legal_bids(CRESCENDO, rlimit=DEFAULT_RLIMIT)


# -- deals, scenarios and fixtures ------------------------------------------------------

RARE = "holds(North, AS, KS, QS, JS) and count(North, spades) == 4 and void(North, hearts)"
IMPOSSIBLE = "count(North, aces) + count(South, aces) == 5"


@pytest.mark.parametrize("where", [RARE, IMPOSSIBLE])
def test_every_query_of_a_deal_search_can_only_make_it_unknown(where: str) -> None:
    cond = parse_where(VINT, where)
    n = _queries(lambda: deals_where(VINT, cond, n=3, method="z3"))
    for k in range(n):
        with forced_unknown(k):
            result = deals_where(VINT, cond, n=3, method="z3")
        assert result.status == "unknown", (k, result.status)
        assert len(result.deals) < 3  # only the deals found before the solver gave up
        assert result.reason == "forced unknown"


SCENARIO = "lead(7) == JK and winner(7) == leader(7)"


@pytest.mark.slow  # a scenario search with every query made unknown in turn: 10 s and more
@pytest.mark.parametrize("most", [8, 40])
def test_every_query_of_a_scenario_search_can_only_make_it_unknown(most: int) -> None:
    cond = parse_where(CRESCENDO, SCENARIO)
    n = _queries(lambda: scenarios_where(CRESCENDO, cond))
    for k in _spread(n, most=most):
        with forced_unknown(k):
            result = scenarios_where(CRESCENDO, cond)
        assert result.status == "unknown", (k, n, result.status, result.reason)
        assert result.reason == "forced unknown"


def test_a_scenario_the_solver_cannot_decide_is_not_impossible() -> None:
    """An impossible scenario, proved with answers and unknown without."""
    cond = parse_where(CRESCENDO, "lead(1) == JK and lead(2) == JK")
    assert scenarios_where(CRESCENDO, cond).status == "impossible"
    with forced_unknown(lambda k: k % 2 == 1):
        assert scenarios_where(CRESCENDO, cond).status == "unknown"


def test_a_fixture_z3_cannot_give_is_searched_for_never_called_impossible() -> None:
    rule = "play.joker_led_wins"
    with forced_unknown():
        fixtures, cov = fixtures_for(CRESCENDO, only={rule}, search=2000)
    if fixtures:
        assert fixtures[0]["fires"]["found_by"] != "z3"
    else:
        (why,) = [w for r, w in cov.without if r == rule]
        assert "Z3 gave no answer: forced unknown" in why and "proves" not in why


# -- the command line -------------------------------------------------------------------

def test_check_reports_unknown_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with forced_unknown():
        code = main(["check", "crescendo", "--property", "auction.ends"])
    out = capsys.readouterr().out
    assert code == 2
    assert "UNKNOWN" in out and "forced unknown" in out and "0 hold" in out


@pytest.mark.parametrize("where", [IMPOSSIBLE, SCENARIO])
def test_deals_reports_unknown_with_exit_2(where: str, capsys: pytest.CaptureFixture[str]) -> None:
    game = "vint" if where == IMPOSSIBLE else "crescendo"
    with forced_unknown():
        code = main(["deals", game, "--where", where, "--method", "z3"])
    err = capsys.readouterr().err
    assert code == 2
    assert "unknown" in err and "impossible" not in err


def test_a_tiny_budget_is_unknown_not_impossible(capsys: pytest.CaptureFixture[str]) -> None:
    """The report that started this: a scenario search out of its budget said 'impossible'.
    A resource limit runs out at the same step on any machine, so the answer is certain."""
    code = main(["deals", "crescendo", "--where", SCENARIO, "--method", "z3", "--rlimit", "1000"])
    err = capsys.readouterr().err
    assert code == 2
    assert "resource limit ran out (rlimit 1,000)" in err and "raise --rlimit" in err
    assert "impossible" not in err
