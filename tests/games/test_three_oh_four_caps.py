"""304's Caps claimed at the first moment of certainty (variant ``caps_when_certain``), as
the engine judges it: a claim the claimer could not be sure of is wrong (304-CAPS-5), and a
team that let its first moment pass and then claims, or takes every trick unclaimed, is late
(304-CAPS-4).  North holds every club and leads: he can be sure of every trick at once."""
from __future__ import annotations

import pytest

from spec.cards import CardSet
from spec.engine import PASS, Call, Declare, Lay, Phase, Play, apply, legal_actions, new_deal
from spec.errors import IllegalActionError
from spec.games.three_oh_four import GAME

CERTAIN = GAME.with_variants("caps_when_certain")
NORTH, WEST, SOUTH, EAST = range(4)
CAPS = Declare("caps")
# North every club (trumps: his first batch, 7C to 10C, holds the indicator 7C); the rest
# dealt by suit
HANDS = ("7C 8C 9C 10C JC QC KC AC", "7D 8D 9D 10D JD QD KD AD",
         "7H 8H 9H 10H JH QH KH AH", "7S 8S 9S 10S JS QS KS AS")


def _first_lead(game):  # type: ignore[no-untyped-def]
    """North bids 160 and the others pass; North lays 7C aside and plays Open Trump."""
    s = new_deal(game, hands=[CardSet.parse(h, game.deck) for h in HANDS], dealer=EAST)
    while s.phase is not Phase.PLAY:
        acts = legal_actions(s)
        if any(isinstance(a, Lay) for a in acts):
            s = apply(s, next(a for a in acts if isinstance(a, Lay) and str(a.card) == "7C"))
        elif s.turn == NORTH and s.standing < 0:
            s = apply(s, Call(game.parse_bid("160")))
        elif PASS in acts:
            s = apply(s, PASS)
        else:
            s = apply(s, Declare("open"))
    return s


def _play(s, claims: dict[tuple[int, int], int]):  # type: ignore[no-untyped-def]
    """The deal played out, each seat its lowest legal card, North's first claiming Caps
    before his card at the trick ``claims[(NORTH, ...)]`` names (seat, trick) -> 1."""
    while not s.is_over:
        if claims.get((s.turn, s.trick_number)) and CAPS in legal_actions(s):
            s = apply(s, CAPS)
            claims[(s.turn, s.trick_number)] = 0
        s = apply(s, next(a for a in legal_actions(s) if isinstance(a, Play)))
    return s


def _tracked(s, name):  # type: ignore[no-untyped-def]
    return s.tracked_value(name)


def test_north_is_sure_of_every_trick_at_his_first_lead() -> None:
    s = _first_lead(CERTAIN)
    assert s.turn == NORTH and s.trick_number == 1
    assert s.engine.certain(s, NORTH)
    assert not any(s.engine.certain(s, seat) for seat in (WEST, SOUTH, EAST))


def test_a_claim_at_the_first_moment_earns_the_bonus() -> None:
    s = _play(_first_lead(CERTAIN), {(NORTH, 1): 1})
    assert _tracked(s, "caps_sure") and not _tracked(s, "caps_missed")
    assert s.scores == (2, 0, 2, 0)  # bid 160 made: 1, and 1 for Caps


def test_a_claim_after_the_first_moment_is_late() -> None:
    s = _play(_first_lead(CERTAIN), {(NORTH, 2): 1})
    assert _tracked(s, "caps_missed") and _tracked(s, "caps_missed_by") == NORTH
    assert any(r == "caps.due" for _n, r in s.fired)
    assert s.scores == (0, 2, 0, 2)  # late Caps: the other team receives 2
    # without the variant the same claim is in time (before trick 8)
    base = _play(_first_lead(GAME), {(NORTH, 2): 1})
    assert base.scores == (2, 0, 2, 0)


def test_every_trick_taken_unclaimed_after_the_first_moment_is_late() -> None:
    s = _play(_first_lead(CERTAIN), {})
    assert _tracked(s, "caps_missed")
    assert s.scores == (0, 2, 0, 2)


@pytest.mark.parametrize("claimer", [WEST, SOUTH], ids=["opponent", "partner"])
def test_a_claim_the_claimer_cannot_be_sure_of_is_wrong(claimer: int) -> None:
    # South claims for the team that does take every trick, but cannot be sure of it: West
    # or East might hold a club, for all South has seen at trick 1
    s = _play(_first_lead(CERTAIN), {(NORTH, 1): 0, (claimer, 1): 1})
    assert s.tracked_value("caps_by") == claimer and not _tracked(s, "caps_sure")
    paid = (0, 5, 0, 5) if claimer == SOUTH else (5, 0, 5, 0)
    assert s.scores == paid
    base = _play(_first_lead(GAME), {(claimer, 1): 1})
    # without the variant a claim is judged by the tricks alone: South's team took them all
    assert base.scores == ((2, 0, 2, 0) if claimer == SOUTH else (5, 0, 5, 0))


def test_a_claim_out_of_turn_or_too_late_is_refused_and_changes_nothing() -> None:
    s = _first_lead(CERTAIN)
    s = apply(s, next(a for a in legal_actions(s) if isinstance(a, Play)))  # North leads
    # trick 1, West to play: he may claim (and would be wrong); after North's claim no one may
    s = apply(s, CAPS)
    assert s.tracked_value("caps_by") == WEST and not _tracked(s, "caps_sure")
    before = s
    assert CAPS not in legal_actions(s)
    with pytest.raises(IllegalActionError):
        apply(s, CAPS)
    assert s == before and s.tracked_value("caps_trick") == 1


def test_a_position_the_search_cannot_decide_has_the_benefit_of_the_doubt(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import spec.solver._certain as solver

    monkeypatch.setattr(solver, "certain", lambda view, **_: None)
    # the claim counts as one North could be sure of, judged by the tricks
    s = _play(_first_lead(CERTAIN), {(NORTH, 2): 1})
    assert _tracked(s, "caps_sure") and not _tracked(s, "caps_missed")
    assert s.scores == (2, 0, 2, 0)
    # and playing on without a claim lets no moment pass: the bid is made, nothing is late
    s = _play(_first_lead(CERTAIN), {})
    assert not _tracked(s, "caps_missed")
    assert s.scores == (1, 0, 1, 0)


def test_a_missed_moment_stays_missed_though_z3_cannot_state_when_it_is_missed() -> None:
    from verifier.properties import Verdict, check_game

    (r,) = check_game(CERTAIN, only=("state.caps_missed_monotone",))
    assert r.verdict is Verdict.HOLDS


def test_a_rule_that_may_set_the_missed_moment_back_to_false_is_not_taken_on_its_form() -> None:
    """The form that keeps a value true is "set to true" alone: a claim that sets it to a
    value that may be false (true only where the seat is sure) leaves the check to Z3, which
    cannot state it, so the answer is unknown."""
    import dataclasses

    from spec.dsl import const, if_then_else
    from spec.games.three_oh_four import CAPS_MISSED, SURE_OF_CAPS
    from verifier.properties import Verdict, check_game

    claim = next(r for r in CERTAIN.rules if r.id == "caps.claim")
    sets = (*claim.body.sets, (CAPS_MISSED, if_then_else(SURE_OF_CAPS, const(True), const(False))))
    either = dataclasses.replace(claim, body=dataclasses.replace(claim.body, sets=sets))
    game = CERTAIN.with_rules([either if r is claim else r for r in CERTAIN.rules])
    (r,) = check_game(game, only=("state.caps_missed_monotone",))
    assert r.verdict is Verdict.UNKNOWN, r
