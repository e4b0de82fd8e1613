"""A deliberately broken rule makes the verifier fail with a counterexample that replays."""
from __future__ import annotations

import pytest

from spec.dsl import Game, RankOrder, Rule, TrickValue, Variant, if_then_else, ranks, seed, trick_number
from spec.games import crescendo as C
from verifier import cli
from verifier.properties import Verdict, check_game


def _broken(rule: Rule, new: Rule) -> Game:
    variant = Variant(id="broken", text="A deliberately broken rule.", replaces=((rule, new),),
                      source=seed(rule.source.ref))
    return Game(name=C.GAME.name, key=C.GAME.key, ref_prefix="CR", rules=C.GAME.rules,
                variants=(*C.GAME.variants, variant), properties=C.GAME.properties).with_variants("broken")


JOKER_ABOVE_ACE = _broken(C.RANKS, Rule("deck.rank_order_broken", "The joker ranks above the ace.",
                                        seed("CR-DECK-2"), RankOrder(ranks("JK A 5 4 3 2"))))
TRICK_7_WORTH_8 = _broken(C.TRICK_VALUES, Rule(
    "deck.trick_values_broken", "Trick 7 is worth 8 points.", seed("CR-DECK-3"),
    TrickValue(if_then_else(trick_number == 7, 8, trick_number))))


def test_joker_above_the_ace_is_caught_and_replays() -> None:
    (r,) = check_game(JOKER_ABOVE_ACE, only=("play.joker_never_wins_following",))
    assert r.verdict is Verdict.VIOLATED
    assert r.playthrough is not None and r.playthrough.replayed
    text = str(r.playthrough)
    assert "JK" in text and "the engine agrees" in text
    # the replayed trick really was won by the joker, played second or third
    plays = r.playthrough.data["plays"]
    assert "JK" in plays[1:]


def test_trick_seven_worth_eight_is_caught_and_replays() -> None:
    (r,) = check_game(TRICK_7_WORTH_8, only=("deck.trick_values_total",))
    assert r.verdict is Verdict.VIOLATED
    assert r.playthrough is not None and r.playthrough.replayed
    points = str(r.playthrough).split("points taken: ")[1].splitlines()[0]
    assert sum(int(p.split()[-1]) for p in points.split(", ")) == 29


def test_correct_rules_hold_everywhere() -> None:
    results = check_game(C.GAME)
    assert {r.verdict for r in results} == {Verdict.HOLDS}, [r.id for r in results if r.verdict is not Verdict.HOLDS]
    assert len(results) >= 18


def test_variant_above_28_breaks_the_score_range_from_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["check", "crescendo", "--variant", "allow_unmakeable_bids", "--property", "score.soloist_range"])
    out = capsys.readouterr().out
    assert code == 1
    assert "VIOLATED" in out and "replayed in the engine" in out


def test_a_wrong_first_leader_is_caught_in_a_whole_deal_that_replays() -> None:
    from spec.dsl import TrickPlay, dealer, seat_after

    wrong = _broken(C.TRICK_PLAY, Rule("play.tricks_broken", "Rearhand leads to the first trick.",
                                       seed("CR-PLAY-1"), TrickPlay(first_lead=seat_after(dealer, 2))))
    (r,) = check_game(wrong, only=("play.forehand_leads_first",))
    assert r.verdict is Verdict.VIOLATED
    assert r.playthrough is not None and r.playthrough.replayed
    assert r.playthrough.data["format"].startswith("trickspec")


def test_a_deal_property_where_not_every_deal_is_unrolled_is_unknown() -> None:
    """304's auction has announcements the unroller leaves out: no HOLDS from a partial
    search, whatever the property says."""
    from spec.dsl import Property, Scope, leader_of
    from spec.games import three_oh_four as T

    prop = Property(id="play.someone_leads", text="Somebody leads to trick 1.",
                    scope=Scope.HISTORY, holds=leader_of(1) == leader_of(1))
    game = Game(name=T.GAME.name, key=T.GAME.key, ref_prefix="304", rules=T.GAME.rules,
                variants=T.GAME.variants, properties=(*T.GAME.properties, prop))
    (r,) = check_game(game, only=("play.someone_leads",))
    assert r.verdict is Verdict.UNKNOWN, r
    assert "not every deal is seen" in r.detail or "ranking" in r.detail or "--bound" in r.detail


def test_a_deal_property_of_a_game_dealt_in_stages_is_unknown() -> None:
    """The unroller gives each dealing stage the lowest cards of a hand: only part of the
    deals, so never HOLDS (304 without its auction announcement, to reach that guard)."""
    from spec.dsl import Property, Scope, leader_of
    from spec.dsl import _constructs as K
    from spec.games import three_oh_four as T

    announcing = {r.id for r, b in T.GAME.constructs(K.Announce) if b.scope is Scope.CALL}
    prop = Property(id="play.someone_leads", text="Somebody leads to trick 1.",
                    scope=Scope.HISTORY, holds=leader_of(1) == leader_of(1))
    rules = tuple(r for r in T.GAME.rules if r.id not in announcing)
    props = tuple(p for p in T.GAME.properties if not set(p.covers) & announcing)
    game = Game(name=T.GAME.name, key=T.GAME.key, ref_prefix="304", rules=rules,
                variants=T.GAME.variants, properties=(*props, prop))
    assert game.stages > 1
    (r,) = check_game(game, only=("play.someone_leads",))
    assert r.verdict is Verdict.UNKNOWN, r
    assert "dealing stage" in r.detail, r.detail


def test_a_deal_that_starts_with_the_wrong_seat_is_caught_and_dealt_by_the_engine() -> None:
    from spec.dsl import DealPackets, dealer, seat_after

    wrong = _broken(C.DEAL, Rule("deal.one_at_a_time_broken", "Middlehand gets the first card.",
                                 seed("CR-DEAL-1"),
                                 DealPackets((1,) * 7, first=seat_after(dealer, 2))))
    (r,) = check_game(wrong, only=("deal.dealing_seen",))
    assert r.verdict is Verdict.VIOLATED, r
    assert r.playthrough is not None and r.playthrough.replayed
    assert "pack:" in str(r.playthrough)


def test_a_wrong_first_caller_is_caught_in_a_whole_deal_that_replays() -> None:
    from spec.dsl import AuctionTurns, calls_made, dealer, seat_after

    wrong = _broken(C.ONE_ROUND, Rule("auction.one_round_broken", "Middlehand calls first.",
                                      seed("CR-AUC-1"),
                                      AuctionTurns(first=seat_after(dealer, 2),
                                                   ends_when=calls_made == 3)))
    (r,) = check_game(wrong, only=("auction.forehand_calls_first",))
    assert r.verdict is Verdict.VIOLATED, r
    assert r.playthrough is not None and r.playthrough.replayed


def test_a_match_ending_one_deal_early_is_caught_and_judged_by_the_engine() -> None:
    """Crescendo's match of three deals, written as two: the fact that the match goes on
    after the second deal fails, and the engine's match rule fails it on the same values."""
    from spec.dsl import MatchLength

    short = _broken(C.MATCH_LENGTH, Rule("game.match_broken", "A match is two deals.",
                                         seed("CR-GAME-2"), MatchLength(deals=2)))
    (r,) = check_game(short, only=("game.match_length_seen",))
    assert r.verdict is Verdict.VIOLATED
    assert r.playthrough is not None and r.playthrough.replayed
    assert r.playthrough.data["deals_played"] == 2


def test_a_rule_that_leaves_a_seat_no_call_is_caught_and_replays() -> None:
    """304's floor of 200 applied to every call of the four-card auction (an `&` written
    `|`): after his first call a seat may not even pass; the engine is stuck there too."""
    from spec.dsl import CallRule, call, partner, seat, seat_calls, stage, standing
    from spec.games import three_oh_four as T

    floor = T.FLOOR_200
    wrong = Rule(id="auction.floor_broken", text="Every call of the four-card auction is a "
                 "first call.", source=floor.source,
                 body=CallRule(applies=(stage == 1) | call.is_bid,
                               requires=(seat_calls == 0)
                               & ~(standing.exists & (standing.bidder == partner(seat)))))
    variant = Variant(id="broken", text="A deliberately broken rule.",
                      replaces=((floor, wrong),), source=floor.source)
    game = Game(name=T.GAME.name, key=T.GAME.key, ref_prefix="304", rules=T.GAME.rules,
                variants=(*T.GAME.variants, variant),
                properties=T.GAME.properties).with_variants("broken")
    (r,) = check_game(game, only=("auction.legal_call_exists",))
    assert r.verdict is Verdict.VIOLATED, r
    assert r.playthrough is not None and r.playthrough.replayed, r.playthrough
    assert "has no legal" in str(r.playthrough) or "the engine agrees" in str(r.playthrough)


def test_a_contract_that_leaves_the_declarer_no_trump_to_name_is_caught_and_replays() -> None:
    # Préférence with a seventh level above Hearts: no suit is allowed for it, so the
    # declarer of that contract could name no trumps; the engine, put at that moment,
    # finds no choice either
    from spec.registry import find_game
    from verifier.mutate import mutants

    game = find_game("preference")
    assert {r.id: r.verdict for r in check_game(game, only=("decide.choice_exists",))} == {
        "decide.choice_exists": Verdict.HOLDS}
    (mutant,) = (m for m in mutants(game) if m.id == "auction.contracts#4")
    assert "(1, 2, …, 7; 7 values)" in mutant.description
    seven = mutant.build()
    (r,) = check_game(seven, only=("decide.choice_exists",))
    assert r.verdict is Verdict.VIOLATED, r.detail
    assert r.playthrough is not None and r.playthrough.replayed
    assert "none of spades, clubs, diamonds, hearts is allowed" in str(r.playthrough)


def test_who_drops_out_reads_as_nobody_where_every_seat_plays() -> None:
    # Préférence without its drop-out rule: every defender plays, so no seat is idle, out
    # or invited, as the engine reads it; the guest's property then has no case to judge
    from spec.registry import find_game
    from verifier.mutate import mutants

    game = find_game("preference")
    (mutant,) = (m for m in mutants(game) if m.id == "defence.play_or_pass#drop")
    results = {r.id: r for r in check_game(mutant.build(),
                                           only=("pay.guest_never_pays", "pay.passer"))}
    assert results["pay.guest_never_pays"].verdict is Verdict.VACUOUS, results
    assert results["pay.passer"].verdict is Verdict.VACUOUS, results
