"""``trickspec solve``: the double-dummy table of a deal and what each card of its play cost.

The command is run in-process through :func:`verifier.cli.main`.  The games it solves here
are the quick ones (Crescendo's seven tricks, Préférence's ten, 304's eight); Vint and
Wiezen, whose thirteen tricks take the solver far longer, are solved with budgets so small
that their values are unknown, which is what those cases check.  Node counts are never
pinned: they change whenever the search gets faster; values are exact, so the checks are of
the shape of what is written and of sums that must hold whatever the values are.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from spec.dsl._build import suit_code
from spec.engine import Phase, apply, new_deal, play_deal
from spec.games.crescendo import GAME as CRESCENDO
from spec.games.preference import GAME as PREFERENCE
from spec.games.vint import GAME as VINT
from spec.games.wiezen import GAME as WIEZEN
from spec.records import hands_text, to_record
from spec.solver import Solver, contracts_text, costs, play_starts, table
from spec.solver._goal import goal_of, side_of, tricks_of
from verifier import cli
from verifier.commands.deals import DEALS_FORMAT

TINY = "40"  # nodes: too few for any value of a thirteen-trick deal


@functools.cache
def _run(*args: str) -> tuple[int, str, str]:
    """The exit code, standard output and standard error of ``trickspec ARGS`` (run once
    for each command line: the searches take seconds)."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


def _json(*args: str) -> dict[str, Any]:
    code, out, err = _run(*args, "--json")
    assert code in (cli.EXIT_OK, cli.EXIT_ERROR), err
    return json.loads(out)  # type: ignore[no-any-return]


def _write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data))
    return str(path)


# -- the table ---------------------------------------------------------------------------------
def test_the_text_table_has_a_row_per_group_and_a_column_per_declarer() -> None:
    code, out, err = _run("solve", "crescendo", "--seed", "0")
    assert code == cli.EXIT_OK and err == ""
    lines = out.splitlines()
    assert lines[0] == ("Crescendo, seed 0, dealer Rearhand: double-dummy tricks of the "
                        "declaring side")
    assert lines[4].startswith("As played: 28♠ by Rearhand, trumps ♠: ")
    head = next(line for line in lines if line.lstrip().startswith("contracts"))
    assert head.split()[:2] == ["contracts", "trumps"]
    assert head.split()[-3:] == ["Forehand", "Middlehand", "Rearhand"]
    assert any(re.match(r"  1\d♣ to \d\d♣", line) for line in lines)  # a run of levels
    assert "left out: 29♣ to 56NT: no declarer reaches it" in out
    assert lines[-1].endswith("nodes searched (at most 2,000,000 a search); '?': unknown, the "
                              "search spent its budget")
    assert "?" not in "".join(lines[5:-1])


def test_the_json_table_names_everything_a_script_needs() -> None:
    data = _json("solve", "crescendo", "--seed", "0")
    assert list(data) == ["game", "variants", "source", "dealer", "hands", "unit", "budget",
                          "played", "rows", "left_out", "nodes", "unknown"]
    assert data["game"] == "crescendo" and data["source"] == {"seed": 0}
    assert data["unit"] == "tricks" and data["budget"] == 2_000_000 and data["unknown"] == 0
    assert data["played"]["contract"] == "28S" and data["played"]["declarer"] == "Rearhand"
    assert data["played"]["trumps"] == "S" and isinstance(data["played"]["value"], int)
    for row in data["rows"]:
        assert set(row) == {"contracts", "trumps", "goal", "cells"}
        assert set(row["goal"]) == {"text", "sign", "low", "high"}
        assert [c["declarer"] for c in row["cells"]] == ["Forehand", "Middlehand", "Rearhand"]
        for cell in row["cells"]:
            assert isinstance(cell["value"], int) and cell["nodes"] > 0
    spades = [c["bid"] for r in data["rows"] if r["trumps"] == "S" for c in r["contracts"]]
    assert sorted(spades) == sorted(f"{k}S" for k in range(15, 29))  # the makeable bids
    assert data["nodes"] == sum({(r["trumps"], r["goal"]["text"], c["declarer"]): c["nodes"]
                                 for r in data["rows"] for c in r["cells"]}.values())


def test_the_played_first_lead_is_one_of_the_rows_where_the_hands_reach_it() -> None:
    final = play_deal(VINT, seed=1)
    states = [new_deal(VINT, seed=1)]
    for _seat, a in final.log:
        states.append(apply(states[-1], a))
    start = next(s for s in states if s.phase is Phase.PLAY)
    tab = table(Solver(VINT), states[0], played=start, budget=int(TINY))
    assert tab.played is not None
    row = next(r for r in tab.rows if (start.contract, None) in r.contracts)
    assert tab.played.cell is next(c for c in row.cells if c.declarer == start.declarer)
    assert [len(r.contracts) for r in tab.rows] == [7] * 5
    assert tab.unknown == 20 and tab.nodes == 20 * (int(TINY) + 1)


def test_a_table_reads_the_rules_trumps_partners_and_choices() -> None:
    """Wiezen, by its rules alone: Solo is played in the turned suit, Abondance in the suit
    its declarer names (a row for each), Vraag's partner is made in the auction."""
    deal = new_deal(WIEZEN, seed=1)
    starts, notes = play_starts(deal)
    turned = suit_code(WIEZEN.deck[deal.turn_up].suit)
    solo = [s for s in starts if WIEZEN.ladder[s.contract].label == "solo"]
    assert len(solo) == 4 and {s.state.trump for s in solo} == {turned}
    assert {s.choice for s in solo} == {None}
    named = {s.choice for s in starts if WIEZEN.ladder[s.contract].label == "abondance"}
    assert named == {"spades", "hearts", "diamonds", "clubs"}
    assert any(n.startswith("vraag: the auction makes the declaring side") for n in notes)


def test_a_talon_or_cards_laid_aside_leave_only_the_played_first_lead() -> None:
    code, out, _err = _run("solve", "preference", "--seed", "1")
    assert code == cli.EXIT_OK
    assert "As played: Hearts by Berta, trumps ♥: " in out
    assert "left out: One to Three: the position at the first lead depends on the exchange" in out
    assert "contracts" not in out  # no row
    data = _json("solve", "304", "--seed", "2", "--budget", "20000")
    assert data["rows"] == [] and data["played"]["declarer"] in ("North", "East", "South", "West")
    assert data["left_out"] == ["every contract: the position at the first lead depends on "
                                "the set aside that comes before the play"]


def test_contracts_are_named_by_runs() -> None:
    assert contracts_text(VINT, [0, 5, 10, 15, 20, 25, 30]) == "1♠ to 7♠"
    assert contracts_text(VINT, [0, 5]) == "1♠, 2♠"
    assert contracts_text(VINT, range(35)) == "every contract"
    assert contracts_text(CRESCENDO, range(70, 210)) == "29♣ to 56NT"


# -- unknown values ----------------------------------------------------------------------------
def test_a_spent_budget_is_a_question_mark_null_and_exit_2() -> None:
    code, out, err = _run("solve", "vint", "--seed", "1", "--budget", TINY)
    assert code == cli.EXIT_ERROR
    # 5 strains by 4 declarers; the first lead as played is one of them, counted once
    assert err == (f"trickspec: unknown: 20 value(s): a search spent its budget of {TINY} "
                   "nodes (raise --budget to let it look further)\n")
    rows = [line.split() for line in out.splitlines() if line.startswith("  1")]
    assert [r[0] for r in rows] == ["1♠", "1♣", "1♦", "1♥", "1NT"]
    assert all(r[-4:] == ["?"] * 4 for r in rows)
    data = _json("solve", "vint", "--seed", "1", "--budget", TINY)
    assert data["unknown"] == 20 and data["played"]["value"] is None
    assert all(c["value"] is None for r in data["rows"] for c in r["cells"])


def test_rows_of_different_goals_say_what_each_plays_for() -> None:
    code, out, _err = _run("solve", "wiezen", "--seed", "1", "--budget", TINY)
    assert code == cli.EXIT_ERROR
    head = next(line for line in out.splitlines() if line.lstrip().startswith("contracts"))
    assert "plays for" in head
    assert "  abondance (hearts)  " in out and "exactly 1 tricks" in out
    assert "as few tricks as it can" in out


# -- the play ----------------------------------------------------------------------------------
def test_each_card_of_the_play_costs_what_the_values_say(tmp_path: Path) -> None:
    record = to_record(play_deal(PREFERENCE, seed=1))
    path = _write(tmp_path / "deal.json", record)
    data = _json("solve", "preference", "--record", path, "--play")
    play = data["play"]
    cards = [c for t in record["tricks"] for c in t["cards"]]
    assert [p["card"] for p in play] == cards
    declarer = data["played"]["declarer"]
    value = play[0]["value"]
    for p in play:
        assert p["cost"] >= 0 and p["value"] == value
        value += -p["cost"] if p["seat"] == declarer else p["cost"]
    assert value == sum(t["winner"] == declarer for t in record["tricks"])
    code, out, _err = _run("solve", "preference", "--record", path, "--play")
    assert code == cli.EXIT_OK
    assert "   1. [" in out and out.splitlines()[-2].startswith("Thrown away: Anna ")


def test_a_perfect_line_costs_nothing(tmp_path: Path) -> None:
    solver = Solver(PREFERENCE)
    s = new_deal(PREFERENCE, seed=1)
    for _seat, a in play_deal(PREFERENCE, seed=1).log:
        if s.phase is Phase.PLAY:
            break
        s = apply(s, a)
    while s.phase is Phase.PLAY:  # each seat plays a best card of its side
        side = side_of(s.engine, s)
        goal = goal_of(s.engine, s, side, tricks_of(s.engine, s))
        most = (side >> s.turn & 1) == (goal.bounded or goal.sign > 0)
        values = solver.card_values(s)
        best = (max if most else min)(v for _a, v in values)  # type: ignore[type-var]
        s = apply(s, next(a for a, v in values if v == best))
    path = _write(tmp_path / "perfect.json", to_record(s))
    data = _json("solve", "preference", "--record", path, "--play")
    assert [p["cost"] for p in data["play"]] == [0] * 30
    assert {p["value"] for p in data["play"]} == {data["played"]["value"]}


def test_costs_of_a_position_with_unknown_values_are_unknown() -> None:
    final = play_deal(VINT, seed=1)
    s = new_deal(VINT, seed=1)
    for _seat, a in final.log:
        if s.phase is Phase.PLAY:
            break
        s = apply(s, a)
    (cost,) = costs(Solver(VINT), [(s, final.log[len(s.log)][1])], budget=int(TINY))
    assert cost.cost is None and cost.value is None and cost.seat == s.turn


# -- the deal's sources ------------------------------------------------------------------------
def test_a_record_and_its_seed_give_the_same_values(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.json", to_record(play_deal(PREFERENCE, seed=2)))
    by_record = _json("solve", "preference", "--record", path, "--play")
    by_seed = _json("solve", "preference", "--seed", "2", "--play")
    assert by_record.pop("source") == {"record": path} and by_seed.pop("source") == {"seed": 2}
    assert by_record == by_seed


def test_a_deals_file_and_a_pbn_board_are_played_by_the_bots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    deals = [play_deal(CRESCENDO, seed=k).dealt for k in (5, 6)]
    path = _write(Path("deals.json"), {
        "format": DEALS_FORMAT, "game": "crescendo", "variants": [], "where": "true",
        "seed": 0, "status": "found", "method": "rejection", "seconds": 0.0,
        "deals": [{"dealer": "Rearhand", "hands": hands_text(CRESCENDO, d)} for d in deals]})
    code, out, _err = _run("solve", "crescendo", "--deal", path, "--board", "2", "--budget",
                           TINY)
    assert code in (cli.EXIT_OK, cli.EXIT_ERROR)
    assert out.splitlines()[0].startswith(f"Crescendo, {path}, board 2, dealer Rearhand: ")
    assert "As the bots play it (seed 0): " in out
    pbn = Path("deals.pbn")
    assert cli.main(["pbn", "vint", "-n", "2", "--out", str(pbn)]) == cli.EXIT_OK
    data = _json("solve", "vint", "--pbn", str(pbn), "--board", "2", "--budget", TINY)
    assert data["source"] == {"pbn": str(pbn), "board": "2"}
    assert data["hands"] == hands_text(VINT, play_deal(VINT, seed=1).dealt)


def test_the_same_deal_gives_the_same_answer() -> None:
    first = _run.__wrapped__("solve", "preference", "--seed", "2", "--play", "--json")
    assert first == _run.__wrapped__("solve", "preference", "--seed", "2", "--play", "--json")
    again = _run.__wrapped__("solve", "wiezen", "--seed", "2", "--budget", TINY, "--json")
    assert again == _run.__wrapped__("solve", "wiezen", "--seed", "2", "--budget", TINY,
                                     "--json")


# -- bad input -------------------------------------------------------------------------------
BAD = {
    "no-deal": (("solve", "crescendo"), "give one deal to solve: --seed N, --record FILE"),
    "two-deals": (("solve", "crescendo", "--seed", "1", "--deal", "x.json"),
                  "not --seed and --deal"),
    "board-alone": (("solve", "crescendo", "--seed", "1", "--board", "2"),
                    "--board picks a deal of a file"),
    "budget-zero": (("solve", "crescendo", "--seed", "1", "--budget", "0"),
                    "the budget of nodes is at least 1, got '0'"),
    "budget-word": (("solve", "crescendo", "--seed", "1", "--budget", "many"),
                    "the budget of nodes is a whole number"),
    "no-such-game": (("solve", "chess", "--seed", "1"), "unknown game 'chess'"),
    "no-such-file": (("solve", "crescendo", "--record", "missing.json"), "missing.json"),
    "no-such-deal": (("solve", "crescendo", "--deal", "deals.json", "--board", "3"),
                     "has deals 1 to 2; --board 3 is not one"),
    "no-such-board": (("solve", "vint", "--pbn", "deals.pbn", "--board", "9"),
                      "has no board '9'"),
    "another-game": (("solve", "vint", "--record", "crescendo.json"),
                     "crescendo.json: the record is of the game 'crescendo', not 'vint'"),
    "a-session": (("solve", "preference", "--record", "session.json"),
                  "session.json holds several deals"),
    "rejected": (("solve", "crescendo", "--record", "wrong.json"),
                 "wrong.json: the record is rejected: "),
    "malformed": (("solve", "crescendo", "--record", "short.json"), "'tricks'"),
}


@pytest.fixture()
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    record = to_record(play_deal(CRESCENDO, seed=3))
    _write(tmp_path / "crescendo.json", record)
    wrong = json.loads(json.dumps(record))
    wrong["scores"] = {k: v + 1 for k, v in wrong["scores"].items()}
    _write(tmp_path / "wrong.json", wrong)
    short = json.loads(json.dumps(record))
    del short["tricks"]
    _write(tmp_path / "short.json", short)
    _write(tmp_path / "session.json", {"format": record["format"], "game": "preference",
                                       "deals": []})
    _write(tmp_path / "deals.json", {
        "format": DEALS_FORMAT, "game": "crescendo", "variants": [], "where": "true",
        "seed": 0, "status": "found", "method": "rejection", "seconds": 0.0,
        "deals": [{"dealer": "Rearhand", "hands": hands_text(CRESCENDO, play_deal(
            CRESCENDO, seed=k).dealt)} for k in (1, 2)]})
    assert cli.main(["pbn", "vint", "-n", "2", "--out", "deals.pbn"]) == cli.EXIT_OK
    return tmp_path


@pytest.mark.parametrize("case", BAD, ids=str)
def test_bad_input_is_one_line_and_exit_2(case: str, files: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    args, message = BAD[case]
    capsys.readouterr()
    assert cli.main(list(args)) == cli.EXIT_ERROR
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("trickspec: error: "), err
    assert message in err, err
