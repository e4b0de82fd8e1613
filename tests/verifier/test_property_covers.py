"""Every property names the rules it is about, so a reader can go from a rule to its proofs."""
from __future__ import annotations

import pytest

from spec.registry import GAMES
from verifier.properties import checks_for


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
