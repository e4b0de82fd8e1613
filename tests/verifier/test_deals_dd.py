"""Deals where a double-dummy value, dd(), says something: the text form, the values the
solver gives, deals skipped where a search answers unknown, and Z3 refused."""
from __future__ import annotations

import json

import pytest

from spec.constraints import DoubleDummy, about_play, double_dummy_terms, history_test, parse_where
from spec.double_dummy import NO_PLAY, UNKNOWN, Judge, first_lead, reads_double_dummy
from spec.dsl._build import Game
from spec.engine import Play, apply, play_deal
from spec.errors import NotationError
from spec.games.crescendo import GAME as CRESCENDO
from spec.games.preference import GAME as PREFERENCE
from spec.games.vint import GAME as VINT
from spec.games.wiezen import GAME as WIEZEN
from spec.solver import Solver
from spec.solver._goal import side_of
from verifier.cli import main
from verifier.deals import deals_where
from verifier.scenario import scenarios_where

# the soloist's tricks in no trumps, a search of some thousands of nodes a deal
CRESCENDO_NT = "holds(Forehand, JK) and dd(Forehand, 28NT) >= 3"
# the contract played from the first lead, made under perfect play, went down at the table
MISSED = "dd() >= 6 and tricks(declarer) < 6"


# -- the text form ---------------------------------------------------------------------

@pytest.mark.parametrize("game, text, message", [
    (VINT, "dd(Nowhere, NT) > 1", "unknown name 'Nowhere'"),
    (VINT, "dd(1, NT) > 1", r"dd takes a seat's name first, e.g. dd\(North, NT\)"),
    (VINT, "dd(North) > 1", "dd takes a seat and a strain or a contract"),
    (VINT, "dd(North, XX) > 1", r"a strain \(S, C, D, H, NT\) or a contract such as 7NT, got 'XX'"),
    (VINT, "dd(North, 8NT) > 1", "got '8NT'"),
    (VINT, "dd(North, NT, spades) > 1", "NT names its strain"),
    (VINT, "dd(North, NT) > spades", "cannot compare a number with a suit"),
    (VINT, "dd(North, NT)", "must be a condition"),
    (WIEZEN, "dd(North, spades) > 1", r"a contract \(vraag, piccolo, "),
    (WIEZEN, "dd(North, solo, aces) > 1", "the third argument of dd is the trumps"),
    (CRESCENDO, "dd(Forehand, S) > 1", r"the contracts in S play for different things \(15S: "),
    (VINT, "count(side, spades) > 1", "count needs a seat first"),
    (VINT, "tricks(side, North) > 1", "tricks takes only a seat"),
])
def test_bad_dd_conditions_are_one_line_errors(game: Game, text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as info:
        parse_where(game, text)
    assert "\n" not in str(info.value)


def test_a_strain_a_contract_and_trumps_name_the_search() -> None:
    ladder = VINT.ladder
    (nt,) = double_dummy_terms(parse_where(VINT, "dd(South, NT) == 13"))
    assert (nt.seat, str(ladder[nt.contract]), nt.trump) == (2, "1NT", None)
    spades = [t.search_key for t in double_dummy_terms(parse_where(
        VINT, "dd(North, S) == dd(North, spades) and dd(North, ♠) + dd(North, 7S) > 1"))]
    assert len(set(spades[:3])) == 1 and str(ladder[spades[3][1]]) == "7S"
    (solo,) = double_dummy_terms(parse_where(WIEZEN, "dd(East, Solo, hearts) >= 5"))
    assert (solo.seat, str(WIEZEN.ladder[solo.contract]), solo.trump) == (1, "solo", 2)
    played = parse_where(PREFERENCE, "dd() > 5")
    assert about_play(played) and not about_play(parse_where(PREFERENCE, "dd(Anna, One) > 5"))
    assert reads_double_dummy(played) and not reads_double_dummy(parse_where(VINT, "level > 1"))
    with pytest.raises(NotationError, match="only a deal played out has one"):
        deals_where(PREFERENCE, played)


def test_z3_is_refused_for_dd(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(NotationError, match="Z3 cannot encode dd()"):
        deals_where(CRESCENDO, parse_where(CRESCENDO, CRESCENDO_NT), method="z3")
    with pytest.raises(NotationError, match="Z3 cannot encode dd()"):
        scenarios_where(PREFERENCE, parse_where(PREFERENCE, MISSED), method="z3")
    assert main(["deals", "preference", "--where", MISSED, "--method", "z3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "trickspec: error: Z3 cannot encode dd()" in err
    assert main(["deals", "vint", "--where", "dd(North, XX) > 1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "dd takes a seat and a strain" in err


# -- the values are the solver's ---------------------------------------------------------

def test_dd_of_the_hands_as_dealt_is_the_solvers_value() -> None:
    result = deals_where(CRESCENDO, parse_where(CRESCENDO, CRESCENDO_NT), n=2, seed=2)
    assert result.status == "found" and len(result.deals) == 2
    solver = Solver(CRESCENDO)
    for dealer, hands in result.deals:
        s = solver.start(hands, contract="28NT", declarer="Forehand", dealer=dealer)
        assert solver.solve(s).value >= 3  # type: ignore[operator]
    # and every deal passed over on the way either lacks the joker or is below 3 tricks
    judge = Judge(CRESCENDO, parse_where(CRESCENDO, "dd(Forehand, 28NT) + dd(Rearhand, 28NT)"
                                                    " == 4"))
    eng = solver.engine
    for k in range(3):
        hands = eng.hands_from_order(eng.deal_order(k, 0), 2)
        a = solver.solve(solver.start(hands, contract="28NT", declarer=0, dealer=2)).value
        b = solver.solve(solver.start(hands, contract="28NT", declarer=2, dealer=2)).value
        assert judge.on_deal(2, hands) is (a + b == 4)  # type: ignore[operator]
    assert judge.searches == 6 and not judge.skipped


def test_dd_of_the_contract_played_is_the_solvers_value_from_the_first_lead() -> None:
    result = scenarios_where(PREFERENCE, parse_where(PREFERENCE, MISSED), n=2, seed=4,
                             method="auto")
    assert result.status == "found" and result.method == "rejection"
    solver = Solver(PREFERENCE)
    for state in result.states:
        start = first_lead(state)
        assert start is not None and start.trick_number == 1 and not start.trick
        value = solver.solve(start).value
        assert value is not None and value >= 6 and state.won[state.declarer].bit_count() < 6
        # the deal replayed on from that position is the deal played
        played = start
        first = next(k for k, (_seat, a) in enumerate(state.log) if isinstance(a, Play))
        for _seat, action in state.log[first:]:
            played = apply(played, action)
        assert played.won == state.won and played.tricks == state.tricks


def test_a_deal_with_no_play_has_no_value_of_the_contract_played() -> None:
    state = next(s for s in (play_deal(PREFERENCE, seed=k) for k in range(500))
                 if s.is_over and s.contract >= 0 and not s.tricks)
    assert first_lead(state) is None
    judge = Judge(PREFERENCE, parse_where(PREFERENCE, "dd() >= 0"), played=True)
    assert judge.on_state(state) is None and judge.skipped == {NO_PLAY: 1}
    # where the rest decides, the value is not needed
    judge = Judge(PREFERENCE, parse_where(PREFERENCE, "dd() >= 0 or level > 0"), played=True)
    assert judge.on_state(state) is True and not judge.skipped


def test_the_declaring_sides_tricks_are_the_solvers_side() -> None:
    for game in (VINT, WIEZEN, PREFERENCE):
        fn = {k: history_test(game, parse_where(game, f"tricks(side) == {k}"))
              for k in range(game.tricks + 1)}
        for seed in range(40):
            state = play_deal(game, seed=seed)
            if state.contract < 0 or not state.tricks:
                continue
            side = side_of(state.engine, state)
            took = sum(w.bit_count() for k, w in enumerate(state.won) if side >> k & 1)
            assert [k for k, f in fn.items() if f(state)] == [took], (game.name, seed)


# -- unknown is neither true nor false -------------------------------------------------

def test_an_unknown_value_makes_a_condition_neither_true_nor_false() -> None:
    eng = Solver(CRESCENDO).engine
    hands = eng.hands_from_order(eng.deal_order(5, 0), 2)

    def judged(text: str) -> tuple[bool | None, int]:
        judge = Judge(CRESCENDO, parse_where(CRESCENDO, text), budget=1)
        return judge.on_deal(2, hands), judge.searches

    assert judged("dd(Forehand, 28NT) > 100") == (None, 1)
    assert judged("not dd(Forehand, 28NT) > 100") == (None, 1)
    assert judged("dd(Forehand, 28NT) > 100 or length(Forehand) == 7") == (True, 0)
    assert judged("dd(Forehand, 28NT) > 100 and length(Forehand) == 6") == (False, 0)
    assert judged("dd(Forehand, 28NT) > 100 and dd(Rearhand, 28NT) < 0") == (None, 2)
    # the same term is searched once, however often it is written
    assert judged("dd(Forehand, 28NT) > 1 or dd(Forehand, 28NT) < 2") == (None, 1)


def test_deals_on_which_dd_is_unknown_are_skipped_and_counted(
        capsys: pytest.CaptureFixture[str]) -> None:
    where = parse_where(CRESCENDO, CRESCENDO_NT)
    result = deals_where(CRESCENDO, where, n=1, seed=1, tries=200, budget=1)
    assert result.status == "unknown" and not result.deals and result.dealt == 200
    held = sum(1 for k in range(200) if _forehand_holds_the_joker(k))
    assert result.skipped == {UNKNOWN: held} and held > 0
    assert main(["deals", "preference", "--where", "level == Game and " + MISSED,
                 "--budget", "1", "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    data = json.loads(out)
    skipped = data["skipped"][UNKNOWN]
    assert data["status"] == "unknown" and skipped > 0 and data["skipped"][NO_PLAY] >= 0
    assert f"trickspec: skipped {skipped + data['skipped'][NO_PLAY]:,} deal(s)" in err
    assert "budget of 1 nodes (raise --budget" in err


def _forehand_holds_the_joker(k: int) -> bool:
    eng = Solver(CRESCENDO).engine
    hands = eng.hands_from_order(eng.deal_order(1, k), 2)
    return bool(hands[0] >> CRESCENDO.deck.index(CRESCENDO.deck.parse_card("JK")) & 1)


def test_the_same_seed_gives_the_same_deals(capsys: pytest.CaptureFixture[str]) -> None:
    answers = []
    for _ in range(2):
        assert main(["deals", "crescendo", "--where", CRESCENDO_NT, "-n", "2",
                     "--seed", "7"]) == 0
        data = json.loads(capsys.readouterr().out)
        data.pop("seconds")
        answers.append(data)
    assert answers[0] == answers[1] and len(answers[0]["deals"]) == 2
    assert answers[0]["skipped"] == {UNKNOWN: 0, NO_PLAY: 0}
    a, b = (scenarios_where(PREFERENCE, parse_where(PREFERENCE, MISSED), seed=4, method="auto")
            for _ in range(2))
    assert [s.dealt for s in a.states] == [s.dealt for s in b.states] and len(a.states) == 1


def test_a_condition_without_dd_answers_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deals", "crescendo", "--where", "holds(Forehand, JK)", "--seed", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "skipped" not in data and data["method"] == "rejection"
    (term,) = double_dummy_terms(parse_where(CRESCENDO, "dd(Forehand, 28NT) > 1"))
    assert isinstance(term, DoubleDummy) and not term.played
