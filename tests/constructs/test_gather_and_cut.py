"""A pack carried from one deal to the next: gathered from the tricks and cut, not shuffled.

The test game is Vint played as the whist family plays between deals (Belgian Wiezen
gathers the tricks and cuts): Vint's own rules plus one ``GatherAndCut`` rule.
"""
from __future__ import annotations

import pytest

from spec.dsl import GatherAndCut, Rule, assumption, dealer
from spec.dsl._program import PackBetweenDeals
from spec.engine import PASS, apply, engine_for, new_deal, play_deal
from spec.errors import SpecDefinitionError
from spec.games import vint
from spec.sheet import play_rubber
from verifier.properties import Verdict, check_game

LEAST = 4
CARRIED = Rule(
    id="deal.gather_and_cut",
    text="The cards are not shuffled between deals: the tricks are gathered in order and the "
    "player on the next dealer's right, the one who has just dealt, cuts, leaving at least "
    "four cards in each part.",
    source=assumption("VNT-DEAL-1", "a test game: Vint with the pack carried between deals"),
    body=GatherAndCut(cut_by=dealer, least=LEAST),
)
# the pack carried between deals in place of Vint's shuffle
GAME = vint.GAME.with_rules(tuple(CARRIED if r.id == "deal.shuffle" else r
                                  for r in vint.GAME.rules))


def _gathered(state) -> list[int]:  # type: ignore[no-untyped-def]
    """The pack a deal leaves, worked out here from its record of tricks."""
    return [c for trick in state.tricks for c in trick.cards]


def _cuts_of(order: list[int]) -> list[list[int]]:
    return [order[k:] + order[:k] for k in range(LEAST, len(order) - LEAST + 1)]


def test_the_program_carries_the_pack() -> None:
    assert GAME.program.pack is PackBetweenDeals.GATHERED_AND_CUT
    assert vint.GAME.program.pack is PackBetweenDeals.FRESH_SHUFFLE
    assert GAME.program.part_of("deal.gather_and_cut") == "deal"


@pytest.mark.parametrize("seed", range(5))
def test_each_deal_is_dealt_from_the_last_ones_tricks_cut(seed: int) -> None:
    match = play_rubber(GAME, seed=seed, max_deals=6)
    eng = engine_for(GAME)
    assert len(match.deals) >= 2
    for before, after in zip(match.deals, match.deals[1:]):
        order = _gathered(before)
        assert sorted(order) == list(range(52)), "a played deal's tricks hold the pack"
        dealt = [eng.hands_from_order(cut, after.dealer) for cut in _cuts_of(order)]
        assert after.dealt in dealt, "the next deal is a cut of the gathered tricks, dealt"


def test_a_shuffled_game_shuffles_every_deal() -> None:
    match = play_rubber(vint.GAME, seed=3, max_deals=4)
    eng = engine_for(vint.GAME)
    for before, after in zip(match.deals, match.deals[1:]):
        dealt = [eng.hands_from_order(cut, after.dealer) for cut in _cuts_of(_gathered(before))]
        assert after.dealt not in dealt


def test_the_same_seed_plays_the_same_match() -> None:
    a, b = play_rubber(GAME, seed=11, max_deals=4), play_rubber(GAME, seed=11, max_deals=4)
    assert [d.log for d in a.deals] == [d.log for d in b.deals]


def test_a_deal_thrown_in_is_gathered_hand_by_hand_and_cut() -> None:
    eng = engine_for(GAME)
    first = new_deal(GAME, seed=8)
    state = first
    for _ in range(4):  # four passes: no play, the next dealer deals
        state = apply(state, PASS)
    assert state.thrown_in and state.dealer == (first.dealer + 1) % 4
    order: list[int] = []
    for k in range(1, 5):
        hand = first.dealt[(first.dealer + k) % 4]
        order += [i for i in range(52) if hand >> i & 1]
    assert state.dealt in [eng.hands_from_order(cut, state.dealer) for cut in _cuts_of(order)]


def test_a_cut_must_leave_cards_in_both_parts() -> None:
    bad = Rule(id=CARRIED.id, text=CARRIED.text, source=CARRIED.source,
               body=GatherAndCut(cut_by=dealer, least=30))
    with pytest.raises(SpecDefinitionError, match="deal.gather_and_cut.*at most 26"):
        GAME.with_rules(tuple(bad if r.id == CARRIED.id else r for r in GAME.rules))


def test_the_pack_is_readied_by_a_rule_and_by_one_only() -> None:
    """How the pack is readied is a rule, never a default: a game stating neither a
    shuffle nor a carried pack, or both, is refused when built, naming the rule."""
    without = tuple(r for r in vint.GAME.rules if r.id != "deal.shuffle")
    with pytest.raises(SpecDefinitionError, match="no rule says how the pack is readied"):
        vint.GAME.with_rules(without)
    with pytest.raises(SpecDefinitionError,
                       match=r"vint/deal.gather_and_cut \(test_gather_and_cut.py:\d+\): the pack "
                       r"is readied twice.*also by deal.shuffle"):
        vint.GAME.with_rules(vint.GAME.rules + (CARRIED,))


def test_the_test_game_is_proved() -> None:
    results = check_game(GAME, only=("deal.partitions_deck", "play.legal_card_exists",
                                     "play.one_winner", "play.cards_held"))
    assert [r.verdict for r in results] == [Verdict.HOLDS] * 4, [(r.id, r.verdict, r.detail) for r in results]


@pytest.mark.slow
def test_every_property_of_the_test_game_holds() -> None:
    results = check_game(GAME)
    assert all(r.verdict is Verdict.HOLDS for r in results), [(r.id, r.verdict) for r in results
                                                               if r.verdict is not Verdict.HOLDS]


def test_the_cutter_of_a_carried_pack_is_read_from_the_deal_just_played() -> None:
    # read in the deal just played: its dealer, on the right of the next one
    first = play_deal(GAME, seed=2, dealer=1)
    assert engine_for(GAME).cutter(first) == 1
    assert engine_for(GAME).cutter(play_deal(GAME, seed=2, dealer=3)) == 3
    assert engine_for(vint.GAME).cutter(play_deal(vint.GAME, seed=2)) == -1  # no cut named
