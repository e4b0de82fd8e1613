"""``trickspec solve GAME --deals N``: the deals of many seeds, each solved as ``--seed``
solves it, and the figures over them, the same answer however many processes share the
deals out.

The deals are Préférence's (seeds 8 to 11): a table whose contracts come after the
exchange holds only the deal's own first lead, ten tricks solved in a tenth of a second;
the table's rows are checked on figures built by hand, and on a Crescendo deal with a
budget that leaves some values unknown.  A run on a local Dask cluster is a slow test.
"""
from __future__ import annotations

import contextlib
import functools
import io
import json
from pathlib import Path
from typing import Any

import pytest

from spec.games.crescendo import GAME as CRESCENDO
from spec.registry import GAMES
from verifier import cli
from verifier.commands import _solve_many as solve_many
from verifier.commands._solve_many import Summary, Value, _figures_text, solve_seed

DEALS = ("solve", "preference", "--seed", "8", "--deals", "4")


def _main(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


@functools.cache
def _run(*args: str) -> tuple[int, str, str]:
    """``trickspec ARGS``, in this process, once for each command line."""
    return _main(*args)


def _data(*args: str) -> dict[str, Any]:
    code, out, err = _run(*args, "--json")
    assert code in (cli.EXIT_OK, cli.EXIT_ERROR), err
    return json.loads(out)  # type: ignore[no-any-return]


def test_two_processes_write_what_one_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solve_many, "_CHUNK", 2)  # two ranges, one a process
    for more in ((), ("--json",)):
        one = _run(*DEALS, *more)
        assert one[0] == cli.EXIT_OK and one[2] == "", one[2]
        assert _main(*DEALS, *more, "-j", "2") == one


def test_each_deal_is_the_one_deal_answer_with_its_seed() -> None:
    data = _data(*DEALS)
    assert list(data) == ["game", "variants", "seed", "deals", "budget", "results", "summary"]
    assert (data["game"], data["seed"], data["deals"]) == ("preference", 8, 4)
    assert [r["seed"] for r in data["results"]] == [8, 9, 10, 11]
    code, out, _err = _run("solve", "preference", "--seed", "9", "--json")
    assert code == cli.EXIT_OK
    assert data["results"][1] == {"seed": 9, **json.loads(out)}
    _code, text, _err = _run(*DEALS)
    lines = text.splitlines()
    assert lines[0].startswith("Austrian Préférence, 4 deals (seeds 8 to 11): double-dummy "
                               "tricks of the declaring side")
    for r, line in zip(data["results"], lines[1:5]):
        p = r["played"]
        assert line == (f"  seed {r['seed']}: " + (
            f"played {p['contract']} by {p['declarer']}: {p['value']}" if p
            else "no play of the cards"))


def test_the_figures_add_up_to_the_deals() -> None:
    data = _data(*DEALS)
    summary, results = data["summary"], data["results"]
    played = [r["played"] for r in results if r["played"] is not None]
    assert summary["no_play"] == len(results) - len(played)
    assert summary["nodes"] == sum(r["nodes"] for r in results)
    assert summary["unknown"] == sum(r["unknown"] for r in results) == 0
    assert summary["table"] == []  # every contract comes after the exchange
    for f in summary["played"]:
        values = [p["value"] for p in played
                  if (p["contract"], p["declarer"]) == (f["contract"], f["declarer"])]
        assert f["deals"] == len(values) == f["known"] == f["judged"]
        assert f["mean"] == round(sum(values) / len(values), 4)
        assert f["made_share"] == round(f["made"] / f["judged"], 4)
    assert sum(f["deals"] for f in summary["played"]) == len(played)


def test_made_follows_the_tricks() -> None:
    """In Préférence a contract made with some tricks is made with more, and the summary
    counts the deals made."""
    made: dict[tuple[int, int], set[tuple[int, bool]]] = {}
    for seed in range(8, 12):
        for v in solve_seed(GAMES["preference"], seed, 2_000_000).values:
            assert v.value is not None and v.made is not None and not v.bounded
            made.setdefault((v.contract, v.declarer), set()).add((v.value, v.made))
    for pairs in made.values():
        assert max((t for t, m in pairs if not m), default=-1) < min(
            (t for t, m in pairs if m), default=99)
    data = _data(*DEALS)
    assert sum(f["made"] for f in data["summary"]["played"]) == sum(
        m for pairs in made.values() for _t, m in pairs)


def test_unknown_values_are_counted_apart_and_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "values.json"
    code, printed, err = _run(*DEALS, "--budget", "40", "--json", "--out", str(out))
    assert code == cli.EXIT_ERROR and printed == ""
    data = json.loads(out.read_text())
    assert data["summary"]["unknown"] == 3 and err == (
        "trickspec: unknown: 3 value(s): a search spent its budget of 40 nodes (raise "
        "--budget to let it look further)\n")
    for f in data["summary"]["played"]:
        assert f["unknown"] == f["deals"] and f["known"] == f["judged"] == f["made"] == 0
        assert f["made_share"] is None and f["mean"] is None
    code, text, _err = _run(*DEALS, "--budget", "40")
    assert code == cli.EXIT_ERROR
    assert "  seed 8: played Hearts by Berta: ?" in text.splitlines()


def test_a_figure_reads_each_value_once() -> None:
    """Figures built by hand: a goal of a count between bounds gives made or not and no
    mean; an unknown value is neither made nor failed; a value not judged counts in the
    mean only."""
    c15, c16 = (next(k for k, b in enumerate(CRESCENDO.ladder) if b.symbol == s)
                for s in ("15♠", "16♠"))
    values = [Value("table", c15, None, 0, 1, True, True),
              Value("table", c15, None, 0, 0, True, False),
              Value("table", c15, None, 0, None, True, None),
              Value("table", c16, None, 0, 4, False, True),
              Value("table", c16, None, 0, 2, False, None),
              Value("table", c16, None, 1, 3, False, False)]
    s = Summary.of([solve_many.SolvedDeal(0, {"nodes": 7, "unknown": 1}, "", tuple(values))])
    assert (s.no_play, s.nodes, s.unknown) == (1, 7, 1)
    by = {(CRESCENDO.ladder[c].symbol, k): f for (c, _ch, k), f in s.table.items()}
    f = by["15♠", 0]
    assert (f.deals, f.known, f.judged, f.made, f.mean, f.unknown) == (3, 2, 2, 1, None, 1)
    f = by["16♠", 0]
    assert (f.deals, f.known, f.judged, f.made, f.mean, f.unknown) == (2, 2, 1, 1, 3.0, 0)
    assert _figures_text(CRESCENDO, s.table) == [
        "  contract         Forehand     Middlehand  Rearhand",
        "  15♠          1/2 50.0% 1?              -         -",
        "  16♠       1/1 100.0% 3.00  0/1 0.0% 3.00         -"]


def test_a_crescendo_deal_makes_its_exact_goals_where_the_value_says_made() -> None:
    deal = solve_seed(CRESCENDO, 1, 300)  # some values unknown, some failed
    rows = deal.data["rows"]
    bounded = [v for v in deal.values if v.kind == "table" and v.bounded]
    assert bounded and all(v.made == (None if v.value is None else v.value == 1)
                           for v in bounded)
    assert len([v for v in deal.values if v.kind == "table"]) == sum(
        len(r["contracts"]) * len(r["cells"]) for r in rows)


BAD = {
    "zero": (("--deals", "0"), "argument --deals: the number of deals is at least 1"),
    "negative": (("--deals", "-2"), "argument --deals: the number of deals is a whole number"),
    "record": (("--deals", "2", "--record", "r.json"),
               "--deals solves the deals of seeds: it cannot be given with --record"),
    "pbn": (("--deals", "2", "--pbn", "d.pbn", "--board", "1"), "with --pbn and --board"),
    "deal": (("--deals", "2", "--deal", "d.json"), "with --deal"),
    "board": (("--deals", "2", "--board", "1"), "with --board"),
    "play": (("--deals", "2", "--play"), "with --play"),
    "jobs-and-cluster": (("--deals", "2", "-j", "2", "--cluster", "local"),
                         "-j and --cluster both say where the deals are solved: name one"),
    "no-cluster": (("--deals", "2", "--cluster", "somewhere"),
                   "--cluster is 'local' or a scheduler's address"),
    "jobs-alone": (("--seed", "1", "-j", "2"),
                   "-j and --cluster share out the deals of --deals N: give --deals"),
}


@pytest.mark.parametrize("case", BAD, ids=str)
def test_bad_input_is_one_line_and_exit_2(case: str) -> None:
    args, message = BAD[case]
    code, out, err = _main("solve", "preference", *args)
    assert code == cli.EXIT_ERROR and out == ""
    assert err.count("\n") == 1 and err.startswith("trickspec: error: ") and message in err, err
