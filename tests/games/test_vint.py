"""Vint: the digest's worked examples, the auction, the play, the score sheet."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from rule_swaps import swapped, verdicts

from spec.cards import CardSet
from spec.dsl import Game, Property, Rule, Scope, ScoreRule, const, contract, let, score_of, seat, seed
from spec.engine import Call, Phase, Play, engine_for, legal_actions, new_deal, play_deal
from spec.errors import IllegalActionError
from spec.games import vint
from spec.games.vint import GAME
from spec.records import replay, to_record
from spec.sheet import play_rubber, render_sheet, rubber_json, sheet_of
from verifier.cli import main
from verifier.properties import Verdict, checks_for, run_check

ENGINE = engine_for(GAME)
NORTH, EAST, SOUTH, WEST = range(4)
NS, EW = 0, 1


def bid(text: str) -> int:
    return GAME.ladder.index(GAME.parse_bid(text))


def hands(**given: str) -> tuple[int, ...]:
    """Hands with the given cards (by seat initial); the rest of the pack, lowest cards
    first, fills the hands round the table to 13 each."""
    masks = [CardSet.parse(given.get(k, ""), GAME.deck).mask for k in "nesw"]
    used = 0
    for m in masks:
        used |= m
    rest = [i for i in range(len(GAME.deck)) if not used >> i & 1]
    seat = 0
    for i in rest:
        while masks[seat].bit_count() >= 13:
            seat = (seat + 1) % 4
        masks[seat] |= 1 << i
        seat = (seat + 1) % 4
    ENGINE.check_hands(masks)
    return tuple(masks)


def items(contract: str, declarer_tricks: int, dealt: tuple[int, ...]) -> dict[tuple[str, int], int]:
    """Rule amounts per side (North for NS, East for EW), North declaring."""
    winners = [NORTH] * declarer_tricks + [EAST] * (13 - declarer_tricks)
    got = ENGINE.outcome_items(contract=bid(contract), declarer=NORTH, winners=winners, dealt=dealt)
    return {(rule, {NORTH: NS, EAST: EW}[seat]): x for (rule, seat), x in got.items()
            if seat in (NORTH, EAST)}


# -- the worked examples of the digest (section 3) -------------------------------------------

def test_four_hearts_one_down() -> None:
    dealt = hands(n="AS AH KH QH", e="AD AC")
    got = items("4H", 9, dealt)
    assert got[("score.below_the_line", NS)] == 360 and got[("score.below_the_line", EW)] == 160
    assert got[("score.undertricks", EW)] == 4000
    assert got[("honours.aces", NS)] == 2 * 40 * 10  # aces 2-2: the side with 9 tricks
    assert ("honours.aces", EW) not in got


def test_two_diamonds_with_aces_and_trump_honours() -> None:
    dealt = hands(n="AD KD QD JD AS", s="AH", e="AC 10D")
    got = items("2D", 8, dealt)
    assert got[("score.below_the_line", NS)] == 160 and got[("score.below_the_line", EW)] == 100
    assert got[("honours.aces", NS)] == 600
    assert got[("honours.trumps", NS)] == 800
    assert ("score.undertricks", EW) not in got


def test_five_grand_two_down() -> None:
    dealt = hands(n="AS AH", s="AD", e="AC")
    got = items("5NT", 9, dealt)
    assert got[("score.below_the_line", NS)] == 450 and got[("score.below_the_line", EW)] == 200
    assert got[("score.undertricks", EW)] == 10000
    assert got[("honours.aces", NS)] == 3 * 50 * 25
    assert ("honours.trumps", NS) not in got and ("honours.trumps", EW) not in got


@pytest.mark.parametrize("contract, tricks, below, slam, penalty", [
    ("6C", 13, (780, 0), 7000, 0),
    ("6C", 12, (720, 60), 6000, 0),
    ("7NT", 13, (910, 0), 12000, 0),
    ("7S", 12, (840, 70), 0, 7000),
    ("3H", 12, (360, 30), 1000, 0),
    ("5D", 13, (650, 0), 2000, 0),
])
def test_slams(contract: str, tricks: int, below: tuple[int, int], slam: int, penalty: int) -> None:
    got = items(contract, tricks, hands())
    assert (got.get(("score.below_the_line", NS), 0), got.get(("score.below_the_line", EW), 0)) == below
    slams = sum(x for (rule, side), x in got.items() if rule.startswith("slam.") and side == NS)
    assert slams == slam
    assert got.get(("score.undertricks", EW), 0) == penalty


def test_defenders_slam() -> None:
    got = items("1C", 1, hands())
    assert got[("slam.defenders", EW)] == 1000
    got = items("1C", 0, hands())
    assert got[("slam.defenders", EW)] == 2000


@pytest.mark.parametrize("contract, coronets", [("3H", 1500), ("3S", 2500), ("3NT", 3000)])
def test_coronets_of_one_hand(contract: str, coronets: int) -> None:
    dealt = hands(n="AS KS QS JS AH AD", e="AC")
    got = items(contract, 9, dealt)
    assert sum(x for (rule, side), x in got.items() if rule.startswith("coronet.") and side == NS) == coronets


def test_coronets_score_for_defenders_too() -> None:
    dealt = hands(e="AS AH AD AC")
    got = items("3H", 9, dealt)
    assert got[("coronet.aces", EW)] == 1000


def test_coronet_sequence_runs_down_from_the_ace() -> None:
    # A K Q J 10 of clubs: 500 for A-K-Q and 500 more for each of J and 10
    got = items("1S", 7, hands(s="AC KC QC JC 10C"))
    assert got[("coronet.sequence", NS)] == 1500
    # without the ace there is no coronet
    got = items("1S", 7, hands(s="KC QC JC 10C", e="AC"))
    assert ("coronet.sequence", NS) not in got


# -- the auction and the play ---------------------------------------------------------------

def test_dealer_calls_first_and_lho_leads() -> None:
    s = new_deal(GAME, seed=1)
    assert s.turn == s.dealer == WEST
    s = ENGINE.apply(s, Call(GAME.parse_bid("1S")))  # West
    for _ in range(8):
        s = ENGINE.apply(s, Call(None))
    assert s.phase is Phase.PLAY and s.declarer == WEST and s.turn == NORTH


def test_no_raising_ones_own_bid() -> None:
    s = new_deal(GAME, seed=2)
    s = ENGINE.apply(s, Call(GAME.parse_bid("1S")))  # West
    for _ in range(3):
        s = ENGINE.apply(s, Call(None))
    with pytest.raises(IllegalActionError, match="no_self_overcall"):
        ENGINE.apply(s, Call(GAME.parse_bid("2S")))
    assert Call(None) in legal_actions(s) and len(legal_actions(s)) == 1
    # his partner may raise it, and then he may bid again
    s = ENGINE.apply(s, Call(None))
    s = ENGINE.apply(s, Call(GAME.parse_bid("2S")))  # East
    s = ENGINE.apply(s, Call(None))
    s = ENGINE.apply(s, Call(None))
    s = ENGINE.apply(s, Call(GAME.parse_bid("3S")))  # West again
    assert s.high_bidder == WEST


def test_self_overcall_variant_allows_it() -> None:
    game = GAME.with_variants("self_overcall")
    s = new_deal(game, seed=2)
    s = engine_for(game).apply(s, Call(game.parse_bid("1S")))
    for _ in range(3):
        s = engine_for(game).apply(s, Call(None))
    s = engine_for(game).apply(s, Call(game.parse_bid("2S")))
    assert s.high_bidder == WEST and s.standing == game.ladder.index(game.parse_bid("2S"))


def test_eight_passes_end_the_auction_and_four_opening_passes_throw_in() -> None:
    s = new_deal(GAME, seed=3)
    s = ENGINE.apply(s, Call(GAME.parse_bid("1C")))
    for k in range(7):
        s = ENGINE.apply(s, Call(None))
        assert s.phase is Phase.AUCTION, k
    s = ENGINE.apply(s, Call(None))
    assert s.phase is Phase.PLAY
    t = new_deal(GAME, seed=3)
    for _ in range(4):
        t = ENGINE.apply(t, Call(None))
    assert t.phase is Phase.AUCTION and len(t.thrown_in) == 1
    assert t.dealer == NORTH and t.turn == NORTH  # the next dealer deals, and calls first


def test_follow_suit_is_enforced() -> None:
    s = new_deal(GAME, seed=4)
    s = ENGINE.apply(s, Call(GAME.parse_bid("1NT")))
    for _ in range(8):
        s = ENGINE.apply(s, Call(None))
    lead = legal_actions(s)[0]
    s = ENGINE.apply(s, lead)
    hand = s.hand(s.turn)
    suit = lead.card.suit  # type: ignore[union-attr]
    if any(c.suit is suit for c in hand) and any(c.suit is not suit for c in hand):
        off = next(c for c in hand if c.suit is not suit)
        with pytest.raises(IllegalActionError, match="follow_suit"):
            ENGINE.apply(s, Play(off))


def test_random_deals_play_out_and_replay() -> None:
    for seed_ in range(60):
        state = play_deal(GAME, seed=seed_)
        assert state.phase is Phase.OVER and len(state.tricks) == 13
        below = state.lines[ENGINE.lines.index("below")]
        assert below[NORTH] + below[EAST] == 13 * 10 * GAME.ladder[state.contract].level
        assert replay(json.loads(json.dumps(to_record(state)))).ok


def test_fast_random_play_is_the_same_as_bots() -> None:
    from spec.engine import random_bot

    for seed_ in range(20):
        fast = play_deal(GAME, seed=seed_)
        slow = play_deal(GAME, seed=seed_, bots=[lambda v, r: random_bot(v, r)] * 4)
        assert to_record(fast) == to_record(slow)


# -- games and the rubber -----------------------------------------------------------------

def _deal_with(contract: str, winners: list[int], seed_: int = 0):  # type: ignore[no-untyped-def]
    """A finished deal whose contract and trick winners are replaced (for the sheet only)."""
    state = play_deal(GAME, seed=seed_)
    tricks = tuple(replace(rec, winner=w) for rec, w in zip(state.tricks, winners))
    return replace(state, contract=bid(contract), tricks=tricks)


def test_the_first_trick_to_500_wins_the_game() -> None:
    # NS 440 after two deals and EW 470, then 3D (30 a trick) in the third deal
    d1 = _deal_with("4D", [NORTH] * 11 + [EAST] * 2)       # NS 440, EW 80
    d2 = _deal_with("3C", [EAST] * 13)                     # EW 80 + 390 = 470
    ew_first = _deal_with("3D", [EAST] + [NORTH] * 12)     # EW reaches 500 on trick 1
    ns_first = _deal_with("3D", [NORTH, NORTH, EAST] + [NORTH] * 10)  # NS 500 at trick 2
    r = sheet_of(GAME, [d1, d2, ew_first])
    assert [(g.winner, g.deal, g.trick) for g in r.games] == [(EW, 3, 1)]
    r = sheet_of(GAME, [d1, d2, ns_first])
    assert [(g.winner, g.deal, g.trick) for g in r.games] == [(NS, 3, 2)]
    # the whole deal is written in the game it won, and a line is drawn under it
    assert r.total(NS, "below") == 440 + 12 * 30 and r.total(EW, "below") == 80 + 390 + 30
    assert [e.game for e in r.entries if e.line == "below" and e.deal == 3] == [1, 1]


def test_carry_over_variant_moves_the_rest_of_the_deal() -> None:
    game = GAME.with_variants("carry_over")
    d1 = _deal_with("4D", [NORTH] * 11 + [EAST] * 2)
    d2 = _deal_with("3C", [EAST] * 13)
    d3 = _deal_with("3D", [NORTH, NORTH, EAST] + [NORTH] * 10)
    r = sheet_of(game, [d1, d2, d3])
    after = [e for e in r.entries if e.line == "below" and e.deal == 3 and e.game == 2]
    assert sum(e.amount for e in after) == 11 * 30  # tricks 3 to 13


@pytest.mark.parametrize("seed_", range(8))
def test_a_rubber_plays_to_the_end_with_a_correct_sheet(seed_: int) -> None:
    r = play_rubber(GAME, seed=seed_)
    assert r.over and r.winner is not None
    wins = [sum(g.winner == s for g in r.games) for s in (NS, EW)]
    assert max(wins) == 2 and len(r.games) in (2, 3) and wins[r.winner] == 2
    bonuses = [(e.what, e.amount, e.side) for e in r.entries if e.what in ("game", "rubber")]
    assert bonuses[-1] == ("rubber", 2000, r.winner)
    assert all(x == 1000 for what, x, _s in bonuses[:-1])
    for number, state in enumerate(r.deals, start=1):
        below = sum(e.amount for e in r.entries if e.deal == number and e.line == "below")
        assert below == 13 * 10 * GAME.ladder[state.contract].level
    for g in r.games:  # the winner's game line reached 500 in that game
        assert sum(e.amount for e in r.entries
                   if e.line == "below" and e.game == g.number and e.side == g.winner) >= 500
    for side in (NS, EW):
        assert r.total(side) == r.total(side, "above") + r.total(side, "below")
    text = render_sheet(r)
    assert "WE" in text and "THEY" in text and "grand total" in text
    assert json.loads(json.dumps(rubber_json(r)))["winner"] in ("North-South", "East-West")


def test_rubber_and_pbn_from_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "vint", "--rubber", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "above the line" in out and "below the line" in out and "win the rubber" in out
    assert main(["play", "304", "--rubber"]) == 2
    assert "not played in rubbers" in capsys.readouterr().err
    path = tmp_path / "deals.pbn"
    assert main(["pbn", "vint", "-n", "3", "--played", "--out", str(path)]) == 0
    assert main(["pbn", "vint", "--read", str(path), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [d["board"] for d in listed] == ["1", "2", "3"]
    assert main(["play", "vint", "--pbn", str(path), "--board", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["hands"] == to_record(new_deal(GAME, seed=1))["hands"]
    assert main(["play", "vint", "--pbn", str(path), "--board", "7"]) == 2
    assert "no board '7'" in capsys.readouterr().err


# -- the verifier ---------------------------------------------------------------------------

def test_self_overcall_breaks_the_no_two_bids_property() -> None:
    game = GAME.with_variants("self_overcall")
    check = next(c for c in checks_for(game) if c.id == "auction.no_two_bids_running")
    assert run_check(game, check).verdict is Verdict.VIOLATED


def test_a_broken_slam_rule_gives_a_replayed_counterexample() -> None:
    broken = Rule(id="slam.defenders", text="Defenders who take a trick write a slam.",
                  source=seed("VNT-SLAM-4"),
                  body=ScoreRule(when=~vint.SIDE & (vint.SIDE_TRICKS >= 1), amount=const(1000),
                                 line=vint.ABOVE))
    game = Game(name="Vint", key="vint", ref_prefix="VNT",
                rules=[broken if r.id == "slam.defenders" else r for r in GAME.rules],
                variants=GAME.variants, properties=GAME.properties)
    check = next(c for c in checks_for(game) if c.id == "slam.one_side")
    result = run_check(game, check)
    assert result.verdict is Verdict.VIOLATED
    assert result.playthrough is not None and result.playthrough.replayed


def test_vint_auction_ends_within_the_ranked_bound() -> None:
    check = next(c for c in checks_for(GAME) if c.id == "auction.ends")
    result = run_check(GAME, check)
    assert result.verdict is Verdict.HOLDS and "284 calls" in result.detail
    twelve = GAME.with_variants("twelve_passes")
    result = run_check(twelve, next(c for c in checks_for(twelve) if c.id == "auction.ends"))
    assert f"{4 + 35 * 12} calls" in result.detail


def _longest_auction(game: Game) -> int:
    """The calls of an auction that passes as long as it can and then makes the lowest
    legal bid: the longest auction there is."""
    eng = engine_for(game)
    s = new_deal(game, seed=9)
    calls = 0
    while s.phase is Phase.AUCTION:
        acts = legal_actions(s)
        bids = [a for a in acts if isinstance(a, Call) and a.bid is not None]
        if s.standing < 0:
            last_chance = s.passes_in_row == 3
        else:  # the 8th call may belong to the bidder himself, who may not raise his bid
            own_bid_next = (s.turn + 1) % 4 == s.high_bidder and any(
                r.id == "auction.no_self_overcall" for r in game.rules)
            last_chance = s.passes_in_row == 7 or (s.passes_in_row == 6 and own_bid_next)
        s = eng.apply(s, bids[0] if bids and last_chance else Call(None))
        calls += 1
    assert s.phase is Phase.PLAY and GAME.ladder[s.contract] == GAME.parse_bid("7NT")
    return calls


def test_the_longest_auctions_are_within_the_proved_bound() -> None:
    # with self-overcalls, 3 + 35 + 34 x 7 + 8: the bound is reached
    assert _longest_auction(GAME.with_variants("self_overcall")) == 284
    # without, the bidder's own turn comes round after 7 passes and he must pass, so the
    # next bid comes after at most 6: 3 + 35 + 34 x 6 + 8
    assert _longest_auction(GAME) == 250


def test_a_thrown_in_deal_passes_the_deal_on_and_replays() -> None:
    s = new_deal(GAME, seed=11)
    for _ in range(4):
        s = ENGINE.apply(s, Call(None))
    rng = random.Random(1)
    while s.phase is not Phase.OVER:
        acts = legal_actions(s)
        s = ENGINE.apply(s, acts[rng.randrange(len(acts))])
    record = json.loads(json.dumps(to_record(s)))
    assert record["thrown_in"][0]["dealer"] == "West" and record["dealer"] == "North"
    assert replay(record).ok


def test_a_what_if_on_the_contract_is_judged_under_that_contract() -> None:
    wrong = Property(id="score.any_contract_same", text="Any contract scores the same below.",
                     scope=Scope.OUTCOME, free=(vint.OTHER,),
                     holds=let(contract, vint.OTHER, score_of(seat, "below"))
                     == score_of(seat, "below"))
    game = Game(name="Vint", key="vint", ref_prefix="VNT", rules=GAME.rules, properties=(wrong,))
    result = run_check(game, next(c for c in checks_for(game) if c.id == wrong.id))
    assert result.verdict is Verdict.VIOLATED
    assert result.playthrough is not None and result.playthrough.replayed


def test_first_call_throw_in_and_game_target_are_facts_a_wrong_rule_trips() -> None:
    """VNT-AUC-1, VNT-AUC-8 and VNT-GAME-1 in literal seats and numbers: the dealer calls
    first, after four passes the deal passes to the left, and 500 below the line wins a
    game.  The auction started on the dealer's left, the same dealer dealing again, or a
    game at 400 each contradicts its fact."""
    from spec.dsl import amended, dealer, seat_after

    ids = ("auction.dealer_calls_first", "auction.all_pass_seen", "game.target_seen")
    assert verdicts(GAME, *ids) == ["HOLDS"] * 3
    left_first = amended(GAME.rule("auction.turns"), first=seat_after(dealer))
    assert verdicts(swapped(GAME, left_first), *ids) == ["VIOLATED", "HOLDS", "HOLDS"]
    same_dealer = amended(GAME.rule("auction.all_pass"), steps=0)
    assert verdicts(swapped(GAME, same_dealer), *ids) == ["HOLDS", "VIOLATED", "HOLDS"]
    game_at_400 = amended(GAME.rule("game.at_500"), target=400)
    assert verdicts(swapped(GAME, game_at_400), *ids) == ["HOLDS", "HOLDS", "VIOLATED"]


def test_the_variants_facts_are_tripped_by_the_default_rules() -> None:
    """Each variant's fact fails when the variant's rule is put back as the default has it:
    eight passes end the auction under twelve_passes, a player may not raise his own bid
    under self_overcall, and nothing carries over under carry_over."""
    twelve = GAME.with_variants("twelve_passes")
    assert verdicts(twelve, "auction.twelve_passes_seen") == ["HOLDS"]
    assert verdicts(swapped(twelve, vint.TURNS), "auction.twelve_passes_seen") == ["VIOLATED"]
    own = GAME.with_variants("self_overcall")
    assert verdicts(own, "auction.self_overcall_seen") == ["HOLDS"]
    with_rule = own.with_rules(own.rules + (vint.NO_SELF_OVERCALL,))
    assert verdicts(with_rule, "auction.self_overcall_seen") == ["VIOLATED"]
    carry = GAME.with_variants("carry_over")
    assert verdicts(carry, "game.carry_over_seen") == ["HOLDS"]
    assert verdicts(swapped(carry, vint.LINE_DRAWN), "game.carry_over_seen") == ["VIOLATED"]
