"""304 as the engine plays it: the digest's worked scores, what each seat sees, refusals,
the two auctions and the indicator, and thousands of bot deals."""
from __future__ import annotations

import random

import pytest
from rule_swaps import swapped, verdicts

from spec import dsl
from spec.cards import CardSet
from spec.engine import (
    PASS,
    Call,
    Declare,
    Lay,
    Phase,
    Play,
    apply,
    engine_for,
    legal_actions,
    new_deal,
    pick,
    play_deal,
    play_on,
)
from spec.errors import IllegalActionError, NotationError
from spec.games import three_oh_four as R
from spec.games.three_oh_four import CARD_POINTS, DECK, GAME
from spec.records import replay, to_record
from verifier.properties import Verdict, check_game

ENG = engine_for(GAME)
NORTH, WEST, SOUTH, EAST = range(4)


def _bid(text: str) -> int:
    return GAME.ladder.index(GAME.parse_bid(text))


def _cards_worth(points: int, count: int, avoid: int = 0) -> int:
    """A set of ``count`` cards (not in ``avoid``) worth exactly ``points``."""
    cards = [i for i in range(len(DECK)) if not avoid >> i & 1]
    reach: dict[tuple[int, int], int] = {(0, 0): 0}
    for i in cards:
        v = CARD_POINTS.value(DECK[i])
        for (n, p), mask in list(reach.items()):
            key = (n + 1, p + v)
            if key not in reach and n + 1 <= count and p + v <= points:
                reach[key] = mask | 1 << i
    return reach[(count, points)]


def _score(bid: str, *, team_points: int, team_tricks: int, declarer: int = NORTH,
           caps_at: int = 0, caps_by: int = 0) -> dict[int, int]:
    """The scores when the declarer's team takes ``team_tricks`` tricks worth ``team_points``."""
    partner = (declarer + 2) % 4
    opp = (declarer + 1) % 4
    ours = _cards_worth(team_points, 4 * team_tricks)
    theirs = (1 << len(DECK)) - 1 & ~ours
    taken = [0] * 4
    taken[declarer], taken[opp] = ours, theirs
    winners = [declarer] * team_tricks + [opp] * (8 - team_tricks)
    if caps_at and team_tricks < 8 and caps_by in (declarer, partner):
        winners = [declarer] * (caps_at) + [opp] + [declarer] * (7 - caps_at)
        taken[declarer] = _cards_worth(team_points, 4 * 7)
        taken[opp] = (1 << len(DECK)) - 1 & ~taken[declarer]
    scores = ENG.score_outcome(contract=_bid(bid), declarer=declarer, winners=winners, taken=taken,
                               tracked={"caps_trick": caps_at, "caps_by": caps_by})
    return dict(enumerate(scores))


# The digest's worked examples (../shared/rules/304.md, §2 Scoring) -----------------------

def test_bid_160_made_with_170() -> None:
    assert _score("160", team_points=170, team_tricks=5) == {NORTH: 1, WEST: 0, SOUTH: 1, EAST: 0}


def test_bid_160_failed_with_150_pays_2() -> None:
    assert _score("160", team_points=150, team_tricks=5) == {NORTH: 0, WEST: 2, SOUTH: 0, EAST: 2}


def test_bid_210_failed_with_205_pays_3() -> None:
    assert _score("210", team_points=205, team_tricks=6) == {NORTH: 0, WEST: 3, SOUTH: 0, EAST: 3}


def test_bid_250_made_with_260() -> None:
    assert _score("250", team_points=260, team_tricks=6) == {NORTH: 3, WEST: 0, SOUTH: 3, EAST: 0}


def test_pcc_losing_one_trick_pays_5() -> None:
    winners = [NORTH] * 7 + [WEST]
    taken = [(1 << 21) - 1, ((1 << 24) - 1) & ~((1 << 21) - 1), 0, 0]  # South's 8 cards untouched
    scores = ENG.score_outcome(contract=_bid("PCC"), declarer=NORTH, winners=winners, taken=taken)
    assert scores == (0, 5, 0, 5)


def test_bid_200_with_correct_caps_earns_3() -> None:
    assert _score("200", team_points=304, team_tricks=8, caps_at=5, caps_by=SOUTH) == {
        NORTH: 3, WEST: 0, SOUTH: 3, EAST: 0}


def test_bid_170_swept_without_claim_pays_2() -> None:
    assert _score("170", team_points=304, team_tricks=8) == {NORTH: 0, WEST: 2, SOUTH: 0, EAST: 2}


def test_bid_250_caps_claimed_then_trick_7_lost_pays_5() -> None:
    assert _score("250", team_points=290, team_tricks=7, caps_at=6, caps_by=NORTH) == {
        NORTH: 0, WEST: 5, SOUTH: 0, EAST: 5}


# The auctions and the indicator -----------------------------------------------------------

def _through_first_auction(seed: int = 11):  # type: ignore[no-untyped-def]
    s = new_deal(GAME, seed=seed)
    assert s.turn == NORTH and all(h.bit_count() == 4 for h in s.hands)
    s = apply(s, Call(GAME.parse_bid("160")))
    for _ in range(3):
        s = apply(s, PASS)
    assert s.phase is Phase.SET_ASIDE and s.turn == NORTH
    return s


def test_floor_200_after_a_first_call_names_the_rule() -> None:
    s = new_deal(GAME, seed=2)
    s = apply(apply(s, PASS), Call(GAME.parse_bid("170")))  # West bids 170
    s = apply(apply(s, PASS), PASS)  # South, East pass
    with pytest.raises(IllegalActionError) as e:
        apply(s, Call(GAME.parse_bid("180")))  # North's second call
    assert "auction.floor_200" in str(e.value) and "304-AUC-4" in str(e.value)
    assert s.turn == NORTH and s.standing == _bid("170")  # the state is unchanged
    assert apply(s, Call(GAME.parse_bid("200"))).standing == _bid("200")


def test_indicator_names_trumps_and_second_batch_follows() -> None:
    s = _through_first_auction()
    card = next(iter(s.hand(NORTH)))
    s = apply(s, Lay(card))
    assert s.trump == "CDHS".index(card.suit.letter)
    assert s.phase is Phase.AUCTION and s.stage == 2 and s.turn == NORTH  # the maker calls first
    assert s.hands[NORTH].bit_count() == 7 and s.aside[NORTH] == 1 << DECK.index(card)
    assert all(s.hands[x].bit_count() == 8 for x in (WEST, SOUTH, EAST))
    with pytest.raises(IllegalActionError) as e:
        apply(s, Call(GAME.parse_bid("240")))
    assert "auction.eight_card_minimum" in str(e.value)


def test_new_maker_returns_the_old_indicator() -> None:
    s = _through_first_auction()
    old = next(iter(s.hand(NORTH)))
    s = apply(s, Lay(old))
    s = apply(s, PASS)  # North
    s = apply(s, Call(GAME.parse_bid("250")))  # West overcalls
    s = apply(apply(s, PASS), PASS)
    assert s.phase is Phase.SET_ASIDE and s.turn == WEST
    assert s.hands[NORTH] >> DECK.index(old) & 1 and s.aside[NORTH] == 0


def test_pcc_only_in_the_eight_card_auction() -> None:
    s = new_deal(GAME, seed=4)
    assert all(not (isinstance(a, Call) and a.bid is not None and a.bid.label == "PCC")
               for a in legal_actions(s))
    with pytest.raises(IllegalActionError) as e:
        apply(s, Call(GAME.parse_bid("PCC")))
    assert "auction.pcc_eight_card_only" in str(e.value)


@pytest.mark.parametrize(("variants", "maker"), [((), SOUTH), (("asker_makes_trump",), NORTH)],
                         ids=["namer-makes-trump", "asker_makes_trump"])
def test_partner_request_lets_the_partner_call(variants: tuple[str, ...], maker: int) -> None:
    """304-AUC-5 (digest G4): the bid a partner names is the asker's for the turn and floor
    rules; if it stands, the partner who named it is trump maker and lays the indicator
    from his own cards, or the asker with the variant asker_makes_trump."""
    game = GAME.with_variants(*variants)
    s = new_deal(game, seed=5)
    s = apply(s, Declare("partner"))
    assert s.turn == SOUTH and s.proxy == NORTH
    s = apply(s, Call(game.parse_bid("160")))
    # the call is North's, on North's turn; the record still shows who named it
    assert s.high_bidder == NORTH and s.turn == WEST
    assert s.calls[-1] == (NORTH, _bid("160")) and s.log[-1][0] == SOUTH
    for _ in range(3):
        s = apply(s, PASS)
    assert s.phase is Phase.SET_ASIDE and s.turn == maker
    other = NORTH + SOUTH - maker
    with pytest.raises(IllegalActionError):
        apply(s, Lay(next(iter(s.hand(other)))))
    s = apply(s, Lay(next(iter(s.hand(maker)))))
    assert s.aside[maker] and not s.aside[other]


def test_a_bid_named_for_the_partner_counts_as_his_for_the_floor() -> None:
    # trickspec play 304 --seed 22 --dealer South: East asks his partner, and West bids
    # 170 for him, so 170 is East's bid; North passes
    s = new_deal(GAME, seed=22, dealer=SOUTH)
    assert s.turn == EAST
    s = apply(apply(s, Declare("partner")), Call(GAME.parse_bid("170")))
    assert s.high_bidder == EAST and s.turn == NORTH
    s = apply(s, PASS)
    # West asks his partner, and East calls for him: over West's partner's standing bid
    # West may not call below 200, though it is West's first call
    s = apply(s, Declare("partner"))
    assert s.turn == EAST and s.proxy == WEST and s.seat_calls[WEST] == 0
    with pytest.raises(IllegalActionError) as e:
        apply(s, Call(GAME.parse_bid("190")))
    assert "auction.floor_200" in str(e.value) and "304-AUC-4" in str(e.value)
    assert "East (for West) may not call 190" in str(e.value)
    # the legal calls: pass, or 200 and up
    calls = [a for a in legal_actions(s) if isinstance(a, Call)]
    assert PASS in calls
    assert min(a.bid.level for a in calls if a.bid is not None) == 200
    s = apply(s, Call(GAME.parse_bid("200")))
    assert s.standing == _bid("200") and s.high_bidder == WEST and s.turn == SOUTH


def test_all_pass_passes_the_deal() -> None:
    s = new_deal(GAME, seed=6, dealer=EAST)
    for _ in range(4):
        s = apply(s, PASS)
    assert s.redeals == 1 and s.dealer == NORTH and s.thrown_in[-1].reason == "no bid"


def test_bad_bid_notation_is_one_line() -> None:
    with pytest.raises(NotationError) as e:
        GAME.parse_bid("165")
    assert "165 is not a bid in 304" in str(e.value) and "\n" not in str(e.value)


# What each seat sees ---------------------------------------------------------------------

def _closed_deals(n: int):  # type: ignore[no-untyped-def]
    """Deals played by bots that keep trumps closed and never claim or void."""
    def bot(view, rng):  # type: ignore[no-untyped-def]
        acts = [a for a in view.legal_actions()
                if not (isinstance(a, Declare) and a.name in ("open", "caps", "spoilt", "redeal"))]
        calls = [a for a in acts if isinstance(a, Call)]
        if calls and rng.random() < 0.7 and PASS in calls:
            return PASS
        return acts[rng.randrange(len(acts))] if acts else view.legal_actions()[0]
    for seed in range(n):
        yield play_deal(GAME, seed=seed, bots=[bot] * 4)


def test_face_down_discards_are_seen_by_the_maker_alone() -> None:
    hidden_seen = 0
    for s in _closed_deals(150):
        for rec in s.tricks:
            for j, (seat, card) in enumerate(zip(rec.seats, rec.cards)):
                if not rec.face_down[j] or rec.revealed:
                    continue
                hidden_seen += 1
                for viewer in range(4):
                    shown = dict((x, c) for _n, cards, _w in s.view(viewer).tricks
                                 for x, c in cards if _n == rec.number)
                    if viewer in (seat, s.declarer):
                        assert shown[seat] == card
                    else:
                        assert shown[seat] is None, (viewer, rec)
    assert hidden_seen > 20  # the situation is common, so the test can fail


def test_the_indicator_played_at_trick_8_is_face_up_when_it_follows_suit() -> None:
    """The maker's last card, the indicator from the table, is a card like any other at
    trick 8: of the led suit it follows face up; otherwise it goes face down (and, being a
    trump, turns the trick up)."""
    seen = {True: 0, False: 0}
    for s in _closed_deals(400):
        if len(s.tricks) < 8:
            continue
        rec = s.tricks[7]
        for index, (_seat, action) in enumerate(s.log):
            if not ((index, "closed.indicator_play") in s.fired and isinstance(action, Play)):
                continue
            code = DECK.index(action.card)
            if code not in rec.cards[1:]:
                continue
            j = rec.cards.index(code)
            follows = action.card.suit == DECK[rec.cards[0]].suit
            seen[follows] += 1
            assert rec.face_down[j] is not follows, (s.seed, rec)
            shown = to_record(s)["tricks"][7]
            assert (str(action.card) in shown.get("face_down", ())) is not follows, shown
            assert rec.revealed is not follows or any(rec.face_down), shown
    assert seen[True] >= 2 and seen[False] >= 2, seen  # both happen, so the test can fail


def test_the_fast_playout_plays_closed_trumps_as_the_per_action_path_does() -> None:
    """North makes trumps at 160 and keeps them closed; from the first lead the random bots
    play on, by ``play_on`` (the play loop generated for the game) and action by action,
    with the same draws, and end alike, every rule noted where it took effect: cards face
    down, tricks turned up and trumps opened, the indicator played from the table."""
    from_table = 0
    for seed in range(60):
        s = apply(new_deal(GAME, seed=seed), Call(GAME.parse_bid("160")))
        while s.phase is Phase.AUCTION:
            s = apply(s, PASS)
        s = apply(s, Lay(next(iter(s.hand(NORTH)))))
        while s.phase is Phase.AUCTION:
            s = apply(s, PASS)
        s = apply(s, Declare("closed"))
        rng, walked = random.Random(seed), s
        while walked.phase is not Phase.OVER:
            actions = legal_actions(walked)
            walked = apply(walked, actions[pick(rng, len(actions))])
        fast = play_on(s, random.Random(seed))
        assert to_record(fast) == to_record(walked), seed
        assert (fast.fired, fast.tracked, fast.tricks) == (walked.fired, walked.tracked,
                                                           walked.tricks), seed
        from_table += any(rule == "closed.indicator_play" for _at, rule in fast.fired)
    assert from_table >= 5, from_table  # the indicator comes from the table, so the test can fail


def test_trumps_hidden_from_others_while_the_indicator_lies_face_down() -> None:
    s = _through_first_auction()
    s = apply(s, Lay(next(iter(s.hand(NORTH)))))
    assert s.view(NORTH).trump is not None
    assert all(s.view(x).trump is None for x in (WEST, SOUTH, EAST))


# The whole game under bots --------------------------------------------------------------

@pytest.mark.parametrize("variants", [(), ("spoilt_trumps_next_dealer",), ("tokens",),
                                      ("no_overcalling_partner_in_eight_card_auction",)])
def test_bots_play_many_deals_and_every_record_replays(variants: tuple[str, ...]) -> None:
    game = GAME.with_variants(*variants)

    def bot(view, r):  # type: ignore[no-untyped-def]
        acts = view.legal_actions()
        calm = [a for a in acts if not (isinstance(a, Declare) and a.name in ("caps", "partner"))
                and not (isinstance(a, Call) and a.bid is not None and r.random() < 0.8)]
        return (calm or acts)[r.randrange(len(calm or acts))]

    for seed in range(400):
        s = play_deal(game, seed=seed, bots=[bot] * 4)
        assert s.phase is Phase.OVER
        assert sum(1 for x in s.scores if x) == 2  # one team scores, both partners alike
        # every card is somewhere: taken in tricks, or in the hand of a seat sitting out
        cards = 0
        for m in s.taken:
            assert not cards & m
            cards |= m
        if s.out >= 0:
            cards |= s.hands[s.out]
        assert cards == (1 << 32) - 1
        if seed % 40 == 0:
            assert replay(to_record(s)).ok


def test_refused_play_leaves_the_state_alone() -> None:
    s = _through_first_auction(8)
    s = apply(s, Lay(next(iter(s.hand(NORTH)))))
    for _ in range(4):
        s = apply(s, PASS)
    assert s.phase is Phase.DECIDE and s.turn == NORTH
    s = apply(s, Declare("closed"))
    assert s.phase is Phase.PLAY and s.turn == NORTH  # the dealer's right leads
    before = (s.hands, s.trick, s.turn, s.tracked)
    hand = s.hand(s.turn)
    wrong = next(c for c in DECK if c not in hand)
    with pytest.raises(IllegalActionError):
        apply(s, Play(wrong))
    assert (s.hands, s.trick, s.turn, s.tracked) == before


# Proofs -------------------------------------------------------------------------------------

def test_the_literal_first_lead_rule_leaves_the_maker_no_lead() -> None:
    (lit,) = check_game(GAME.with_variants("literal_first_lead"), only=("play.legal_card_exists",))
    assert lit.verdict is Verdict.VIOLATED and lit.playthrough is not None
    assert lit.playthrough.replayed and lit.playthrough.data["trick_number"] == 1
    hand = CardSet.parse(next(iter(lit.playthrough.data["hands"].values())), DECK)
    assert len({c.suit for c in hand}) == 1  # a hand of trumps only
    (default,) = check_game(GAME, only=("play.legal_card_exists",))
    assert default.verdict is Verdict.HOLDS


def test_a_rule_that_closes_trumps_again_is_caught() -> None:
    from spec.dsl import Rule, Update, const, seed, trick_number
    from spec.dsl._build import Game

    bad = Rule(id="closed.reclose", text="Trumps close again after trick 4.", source=seed("304-CLOSED-7"),
               body=Update(when=trick_number == 4, sets=(("trump_open", const(False)),)))
    broken = Game(name=GAME.name, key=GAME.key, ref_prefix="304", rules=GAME.rules + (bad,),
                  variants=(), properties=())
    (r,) = check_game(broken, only=("state.trump_open_monotone",))
    assert r.verdict is Verdict.VIOLATED and r.playthrough is not None and r.playthrough.replayed


def test_a_low_points_redeal_scores_nothing_and_keeps_the_dealer() -> None:
    seed = next(x for x in range(200)
                if CARD_POINTS_OF(new_deal(GAME, seed=x, dealer=EAST).hands[NORTH]) < 15)
    s = new_deal(GAME, seed=seed, dealer=EAST)
    assert Declare("redeal") in legal_actions(s)
    after = apply(s, Declare("redeal"))
    assert after.phase is Phase.AUCTION and after.dealer == EAST and after.redeals == 1
    assert after.scores is None and after.thrown_in[-1].reason == "deal.low_points_redeal_same_dealer"
    # only the dealer's right-hand player, and only before any call
    assert Declare("redeal") not in legal_actions(apply(s, PASS))


def CARD_POINTS_OF(mask: int) -> int:  # noqa: N802  # reads like the table it sums
    return sum(CARD_POINTS.value(DECK[i]) for i in range(len(DECK)) if mask >> i & 1)


def test_quick_tricks_with_the_indicator_aside_play_fast_as_action_by_action() -> None:
    """304 without its announcements in the play, face-down cards and rules judged as a
    trick ends has quick tricks, but its indicator lies aside until played from the table:
    the loop generated from the play step plays those deals, with the per-action path's
    draws."""
    dropped = {R.SPOILT_DECLARED, R.CAPS_CLAIM, R.FACE_DOWN, R.CUT_REVEALS, R.REVEAL_AT_250,
               R.EXHAUSTED_TRIGGER, R.SPOILT_REDEAL, R.FACE_DOWN_NEVER_WINS, R.REDEAL_DEMANDED}
    plain = dsl.Game(name="304, plain tricks", key="t304_plain_tricks", ref_prefix="304", doc="",
                 rules=tuple(r for r in GAME.rules if r not in dropped))
    engine = engine_for(plain)
    assert engine._set_aside and engine._play_loop is not None
    from_table = 0
    for seed in range(80):
        rng, walked = random.Random(seed), new_deal(plain, seed=seed)
        while walked.phase is not Phase.OVER:
            actions = legal_actions(walked)
            walked = apply(walked, actions[pick(rng, len(actions))])
        fast = play_deal(plain, seed=seed)
        assert to_record(fast) == to_record(walked), seed
        assert fast.fired == walked.fired, seed
        from_table += any(rule == "closed.indicator_play" for _at, rule in fast.fired)
    assert from_table >= 5, from_table  # the indicator comes from the table, so it can fail


def test_the_player_on_the_dealers_left_cuts() -> None:
    """304-DEAL-1: the dealer shuffles and the player on his left may cut (with play going
    counter-clockwise, the seat before the dealer in the order of play)."""
    from spec.text import render

    for dealer in range(4):
        state = play_deal(GAME, seed=dealer, dealer=dealer)
        left = (dealer - 1) % 4
        assert state.engine.cutter(state) == left
        assert render(state, shuffled=True).splitlines()[0].endswith(
            f"cut by {GAME.table.name(left)}")
        assert "cut by" not in render(state)  # hands given (a PBN deal, say): no cut


def test_seats_first_calls_and_the_throw_in_are_facts_a_wrong_rule_trips() -> None:
    """304-SETUP-1, 304-AUC-1 and 304-AUC-7 in literal seats: partners opposite, the
    player on the dealer's right calls first, and after four passes the deal passes to the
    right.  Partners side by side, the auction started on the dealer's left, or the same
    dealer dealing again after four passes each contradicts its fact."""
    ids = ("setup.partners_seen", "auction.first_caller_seen", "auction.all_pass_seen")
    assert verdicts(GAME, *ids) == ["HOLDS"] * 3
    side_by_side = dsl.amended(GAME.rule("setup.seats"),
                               partnerships=((R.NORTH, R.WEST), (R.SOUTH, R.EAST)))
    assert verdicts(swapped(GAME, side_by_side), *ids) == ["VIOLATED", "HOLDS", "HOLDS"]
    left_first = dsl.amended(GAME.rule("auction.four_card_turns"),
                             first=dsl.seat_after(dsl.dealer, 3))
    assert verdicts(swapped(GAME, left_first), *ids) == ["HOLDS", "VIOLATED", "HOLDS"]
    same_dealer = dsl.amended(GAME.rule("auction.all_pass"), steps=0)
    assert verdicts(swapped(GAME, same_dealer), *ids) == ["HOLDS", "HOLDS", "VIOLATED"]


def test_the_next_dealer_after_spoilt_trumps_is_a_variant_fact_a_wrong_rule_trips() -> None:
    """304-SPOIL-2's other reading: under spoilt_trumps_next_dealer North deals again after
    East's deal is spoilt; the same dealer again (the default's rule) contradicts it."""
    game = GAME.with_variants("spoilt_trumps_next_dealer")
    assert verdicts(game, "spoilt.next_dealer_seen") == ["HOLDS"]
    same_dealer = dsl.amended(game.rule("spoilt.redeal"), redeal_steps=0)
    assert verdicts(swapped(game, same_dealer), "spoilt.next_dealer_seen") == ["VIOLATED"]


@pytest.mark.parametrize(("variant", "fact", "default"), [
    ("partner_request_in_eight_card_auction", "auction.eight_card_request_seen",
     R.PARTNER_REQUEST),
    ("no_overcalling_partner_in_eight_card_auction", "auction.eight_card_partner_seen",
     R.EIGHT_CARD_MINIMUM),
    ("literal_first_lead", "closed.literal_first_lead_seen", R.NO_TRUMP_LEAD),
    ("literal_first_lead", "closed.literal_first_lead_seen", R.OPEN_OR_CLOSED),
], ids=["eight-card-request", "no-overcalling-partner", "literal-lead", "literal-open"])
def test_each_auction_variants_fact_is_tripped_by_the_default_rule(
        variant: str, fact: str, default: dsl.Rule) -> None:
    """A variant's own fact holds under it and fails with the default's rule put back."""
    game = GAME.with_variants(variant)
    assert verdicts(game, fact) == ["HOLDS"]
    assert verdicts(swapped(game, default), fact) == ["VIOLATED"]


def test_the_trump_maker_of_a_proxy_bid_opens_the_eight_card_auction() -> None:
    """304-AUC8-1 with 304-AUC-5: South names North's bid and so makes trump; he calls
    first in the eight-card auction.  The asker calling first contradicts the fact."""
    ids = ("auction.proxy_maker_calls_first", "auction.first_calls_seen")
    assert verdicts(GAME, *ids) == ["HOLDS", "HOLDS"]
    asker_first = dsl.amended(GAME.rule("auction.eight_card_turns"), first=dsl.standing.bidder)
    assert verdicts(swapped(GAME, asker_first), *ids) == ["VIOLATED", "VIOLATED"]
    # seed 2: North asks, South names 300 for him and lays the indicator, then calls first
    log = play_deal(GAME, seed=2).log
    laid = next(i for i, (_s, a) in enumerate(log) if type(a).__name__ == "Lay")
    assert log[laid][0] == R.SOUTH and log[laid + 1][0] == R.SOUTH
    old = play_deal(GAME.with_variants("asker_makes_trump"), seed=2).log
    laid = next(i for i, (_s, a) in enumerate(old) if type(a).__name__ == "Lay")
    assert old[laid][0] == R.NORTH and old[laid + 1][0] == R.NORTH
