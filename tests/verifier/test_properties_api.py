"""What the verifier tells a reader: the rules each property covers, the legal bids, and
the checks a variant can change."""
from __future__ import annotations

import pytest

from spec.registry import GAMES, find_game
from verifier._z3.solver import DEFAULT_RLIMIT
from verifier.properties import checks_for, legal_bids, variant_checks


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_check_covers_rules_of_the_game(key: str) -> None:
    game = GAMES[key]
    ids = {r.id for r in game.rules}
    for check in checks_for(game):
        assert check.covers, f"{check.id} covers no rule"
        assert set(check.covers) <= ids, f"{check.id} covers {set(check.covers) - ids}"


def test_generic_checks_cover_the_rules_of_the_constructs_they_read() -> None:
    checks = {c.id: c for c in checks_for(GAMES["crescendo"])}
    assert checks["play.legal_card_exists"].covers == ("play.follow_suit", "play.joker_any_time")
    assert checks["auction.bid_order_total"].covers == ("auction.bids", "auction.bid_order")
    assert "deck.rank_order" in checks["play.one_winner"].covers


def test_a_variant_rule_is_covered_in_the_game_with_the_variant() -> None:
    game = GAMES["304"].with_variants("literal_first_lead")
    legal = next(c for c in checks_for(game) if c.id == "play.legal_card_exists")
    assert "closed.no_trump_lead_to_first" in legal.covers


def test_legal_bids_leave_out_the_bids_no_call_rule_allows() -> None:
    game = GAMES["crescendo"]
    legal = legal_bids(game, rlimit=DEFAULT_RLIMIT)
    assert {game.ladder[i].level for i in legal} == set(range(15, 29))
    unmakeable = game.with_variants("allow_unmakeable_bids")
    assert len(legal_bids(unmakeable, rlimit=DEFAULT_RLIMIT)) == len(game.ladder)


def test_variant_checks_are_the_checks_of_the_rules_it_replaces() -> None:
    played, checks = variant_checks(GAMES["304"], "literal_first_lead")
    assert played.active_variants == ("literal_first_lead",)
    assert {"play.legal_card_exists", "state.trump_open_monotone"} <= {c.id for c in checks}
    # a rule the variant removes still names the checks that covered it
    _played, checks = variant_checks(GAMES["crescendo"], "allow_unmakeable_bids")
    ids = [c.id for c in checks]
    assert "auction.standing_bid_increases" in ids
    # and the properties stated under the variant are among its checks
    assert {"score.unmakeable_bid_loses", "score.unmakeable_example"} <= set(ids)
    assert len(ids) == len(set(ids))


def test_checks_sharing_a_context_have_the_verdicts_they_have_alone() -> None:
    """check_game decides a game's checks in one Z3 context, each building on the terms
    and proofs of those before it: each verdict and detail is the one it has alone."""
    from verifier.properties import Verdict, check_game, run_check

    game = find_game("crescendo")
    ids = ("play.one_winner", "play.cards_held", "play.joker_never_wins_following",
           "score.soloist_range", "score.every_bid_reachable", "deck.trick_values_total")
    shared = {r.id: (r.verdict, r.detail) for r in check_game(game, only=ids)}
    alone = {c.id: run_check(game, c) for c in checks_for(game) if c.id in ids}
    assert shared == {i: (r.verdict, r.detail) for i, r in alone.items()}
    assert all(v is Verdict.HOLDS for v, _d in shared.values())
