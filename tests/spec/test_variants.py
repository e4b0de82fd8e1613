"""Variants go together: two that amend other fields of one rule make both changes; two
that change one rule otherwise are refused when the game is built, naming both."""
from __future__ import annotations

import dataclasses

import pytest

from spec.dsl import Variant, amended, seed, stage
from spec.errors import NotationError
from spec.games import three_oh_four as F
from spec.registry import GAMES

BOTH = ("proxy_counts_as_partner_call", "partner_request_in_eight_card_auction")


@pytest.mark.parametrize("order", [BOTH, BOTH[::-1]], ids=["as-listed", "reversed"])
def test_two_amendments_of_one_rule_make_both_changes(order: tuple[str, str]) -> None:
    game = GAMES["304"].with_variants(*order)
    body = game.rule("auction.partner_request").body
    alone = [GAMES["304"].with_variants(v).rule("auction.partner_request").body for v in BOTH]
    assert body.counts_for_partner is True  # type: ignore[attr-defined]
    assert body.when is alone[1].when  # type: ignore[attr-defined]
    assert body.namer_declares is True  # type: ignore[attr-defined]  # the rule's own field kept


def test_two_amendments_of_one_field_are_refused_naming_both() -> None:
    one = Variant(id="one", text="Counts.", source=seed("304-AUC-5"),
                  replaces=((F.PARTNER_REQUEST, amended(F.PARTNER_REQUEST, counts_for_partner=True)),))
    two = Variant(id="two", text="Counts too.", source=seed("304-AUC-5"),
                  replaces=((F.PARTNER_REQUEST, amended(F.PARTNER_REQUEST, counts_for_partner=False)),))
    game = F.GAME.with_rules(F.GAME.rules, variants=(one, two), properties=())
    with pytest.raises(NotationError) as e:
        game.with_variants("one", "two")
    assert "variants one and two" in str(e.value) and "counts_for_partner" in str(e.value)


@pytest.mark.parametrize("steps", [(("va", "vb", "vc"),), (("va", "vb"), ("vc",))],
                         ids=["at-once", "one-then-another"])
def test_a_field_amended_twice_names_the_variant_that_changed_it(
        steps: tuple[tuple[str, ...], ...]) -> None:
    # va and vc both change counts_for_partner; vb, between them, changes another field:
    # refused naming va, whether vc comes with the others or after them
    rule = F.PARTNER_REQUEST
    va = Variant(id="va", text="a", source=rule.source,
                 replaces=((rule, amended(rule, counts_for_partner=True)),))
    vb = Variant(id="vb", text="b", source=rule.source,
                 replaces=((rule, amended(rule, when=(stage == 1) | (stage == 2))),))
    vc = Variant(id="vc", text="c", source=rule.source,
                 replaces=((rule, amended(rule, counts_for_partner=False, namer_declares=False)),))
    game = F.GAME.with_rules(F.GAME.rules, variants=(va, vb, vc), properties=())
    with pytest.raises(NotationError) as e:
        for ids in steps:
            game = game.with_variants(*ids)
    assert "variants va and vc" in str(e.value) and "counts_for_partner" in str(e.value)


def test_two_variants_stating_one_rule_whole_are_refused_naming_both() -> None:
    rule = F.PARTNER_REQUEST
    whole = dataclasses.replace(rule, text="Another reading.")
    one = Variant(id="one", text="One.", source=seed("304-AUC-5"), replaces=((rule, whole),))
    two = Variant(id="two", text="Two.", source=seed("304-AUC-5"),
                  replaces=((rule, amended(rule, counts_for_partner=True)),))
    game = F.GAME.with_rules(F.GAME.rules, variants=(one, two), properties=())
    for order in (("one", "two"), ("two", "one")):
        with pytest.raises(NotationError) as e:
            game.with_variants(*order)
        assert f"variants {order[0]} and {order[1]}" in str(e.value)
        assert "auction.partner_request" in str(e.value)
    with pytest.raises(NotationError, match="named twice"):
        game.with_variants("two", "two")
    with pytest.raises(NotationError, match="named twice"):
        game.with_variants("two").with_variants("two")
