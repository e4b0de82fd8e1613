"""Crescendo through the engine: the digest's worked examples and the engine's behaviour.

Source: /work/shared/rules/crescendo.md (the rules digest), cited per test as [digest].
Seats are numbered in order of play; with the default dealer (Rearhand, seat 2),
Forehand is seat 0 and Middlehand seat 1.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_swaps import swapped, verdicts

from spec.cards import SUITS, Card, CardSet, Suit
from spec.dsl import NO_SUIT, MatchLength, Rule
from spec.engine import (
    Call,
    Engine,
    Phase,
    Play,
    State,
    apply,
    engine_for,
    legal_actions,
    new_deal,
    play_deal,
    play_match,
)
from spec.errors import IllegalActionError, NotationError, SpecDefinitionError
from spec.games.crescendo import GAME, TOTAL_POINTS, TRICKS

FOREHAND, MIDDLEHAND, REARHAND = 0, 1, 2
PASS = Call(None)
ENGINE = engine_for(GAME)
UNMAKEABLE = GAME.with_variants("allow_unmakeable_bids")
PLAIN_SUIT_JOKER = GAME.with_variants("joker_names_plain_suit")


def _card(text: str) -> Card:
    return Card.parse(text)


def _hands(*texts: str) -> list[int]:
    return [CardSet.parse(t, GAME.deck).mask for t in texts]


def _fields(state: State) -> dict[str, object]:
    return {f.name: getattr(state, f.name) for f in fields(state)}


# -- the table and the pack -------------------------------------------------------------


def test_seating_matches_the_digest() -> None:
    # [digest] CR-SETUP-1: dealer's left = Forehand, dealer's right = Middlehand, dealer = Rearhand
    table = GAME.table
    assert table.names == ("Forehand", "Middlehand", "Rearhand")
    assert table.lho(REARHAND) == FOREHAND
    assert table.rho(REARHAND) == MIDDLEHAND


def test_pack_and_totals_match_the_digest() -> None:
    # [digest] CR-DECK-1, CR-DECK-3: 21 cards, 7 tricks worth 1..7, 28 in all
    assert len(GAME.deck) == 21 and GAME.deck.duplicates() == ()
    assert TRICKS == GAME.tricks == 7
    assert TOTAL_POINTS == 28
    assert ENGINE.points_outcome([FOREHAND] * TRICKS) == (28, 0, 0)


@pytest.mark.parametrize("k", range(1, 8))
def test_trick_k_is_worth_k_points(k: int) -> None:
    # [seed] CR-DECK-3: pp 1, p 2, mp 3, mf 4, f 5, ff 6, fff 7
    winners = [FOREHAND if number == k else MIDDLEHAND for number in range(1, 8)]
    assert ENGINE.points_outcome(winners) == (k, 28 - k, 0)


# -- scoring: [digest] §2 Scoring, table "Worked examples (computed)" -------------------

SCORING_EXAMPLES = [
    # (bid, tricks won by the soloist, p, score) — one row of the digest table each
    pytest.param("19S", (3, 4, 5, 7), 19, 38, id="S19-exact"),
    pytest.param("19S", (2, 5, 6, 7), 20, 20, id="S19-over"),
    pytest.param("19S", (5, 6, 7), 18, -19, id="S19-under"),
    pytest.param("15D", (1, 2, 5, 7), 15, 30, id="D15-exact"),
    pytest.param("15D", (1, 3, 5, 7), 16, 16, id="D15-over"),
    pytest.param("28NT", (1, 2, 3, 4, 5, 6, 7), 28, 56, id="NT28-all-seven"),
]


def _winners(soloist: int, won: tuple[int, ...]) -> list[int]:
    """Trick winners 1..7: the soloist takes exactly ``won``, the next seat the rest."""
    other = (soloist + 1) % GAME.players
    return [soloist if k in won else other for k in range(1, TRICKS + 1)]


@pytest.mark.parametrize("soloist", [FOREHAND, MIDDLEHAND, REARHAND], ids=["forehand", "middlehand", "rearhand"])
@pytest.mark.parametrize(("bid", "won", "points", "score"), SCORING_EXAMPLES)
def test_worked_scoring_examples(bid: str, won: tuple[int, ...], points: int, score: int,
                                 soloist: int) -> None:
    contract = GAME.bid_index(GAME.parse_bid(bid))
    winners = _winners(soloist, won)
    assert ENGINE.points_outcome(winners)[soloist] == points
    scores = ENGINE.score_outcome(contract=contract, declarer=soloist, winners=winners)
    expected = [0, 0, 0]
    expected[soloist] = score  # [digest] CR-SCORE-4: the other two seats score 0
    assert scores == tuple(expected)


def test_worked_scoring_example_unmakeable_bid() -> None:
    # [digest] worked examples, row "♣29 (variant) | all seven | 28 | −29"
    engine = engine_for(UNMAKEABLE)
    contract = UNMAKEABLE.bid_index(UNMAKEABLE.parse_bid("29C"))
    scores = engine.score_outcome(contract=contract, declarer=FOREHAND, winners=[FOREHAND] * TRICKS)
    assert scores == (-29, 0, 0)


@pytest.mark.parametrize("strain", ["C", "D", "H", "S", "NT"])
def test_strain_does_not_change_the_score(strain: str) -> None:
    # [digest] CR-SCORE-5
    contract = GAME.bid_index(GAME.parse_bid(f"19{strain}"))
    scores = ENGINE.score_outcome(contract=contract, declarer=MIDDLEHAND,
                                  winners=_winners(MIDDLEHAND, (3, 4, 5, 7)))
    assert scores == (0, 38, 0)


# -- trick examples: [digest] §2 Scoring, "Trick examples" -------------------------------

CLUBS_15 = GAME.bid_index(GAME.parse_bid("15C"))  # trump ♣; the soloist does not matter

# Forehand leads ♦3; Middlehand is void in ♦; Rearhand holds ♦4 and ♦5.
HANDS_DIAMOND_LEAD = _hands("3D AD 2D AS 5S 4S 3S", "5H AH 4H 3H 2H 2S JK", "4D 5D AC 5C 4C 3C 2C")
# Forehand holds the joker; Middlehand and Rearhand are void in ♥.
HANDS_JOKER_LEAD = _hands("JK AH 5H 4H 3H 2H AC", "AD 5D 4D 3D 2D 5C 4C", "AS 5S 4S 3S 2S 3C 2C")


def _position(hands: list[int], contract: int = CLUBS_15, game_engine: Engine = ENGINE) -> State:
    return game_engine.play_position(hands=hands, contract=contract, declarer=MIDDLEHAND,
                                     leader=FOREHAND, trick_number=1)


def _play(state: State, *plays: str) -> State:
    for text in plays:
        card_text, _, named = text.partition(":")
        state = apply(state, Play(_card(card_text), Suit.parse(named) if named else None))
    return state


TRICK_EXAMPLES = [
    # seed's own example: trump ♣; ♦3 led, ♥5, ♦4 -> ♦4 wins
    pytest.param(HANDS_DIAMOND_LEAD, ("3D", "5H", "4D"), REARHAND, id="D3-led-H5-D4-wins"),
    # joker led naming ♥, followers void in ♥ and play no trump -> the joker wins
    pytest.param(HANDS_JOKER_LEAD, ("JK:H", "AD", "5S"), FOREHAND, id="joker-led-wins"),
    # same, but Rearhand plays ♣2 (a trump) -> ♣2 wins
    pytest.param(HANDS_JOKER_LEAD, ("JK:H", "AD", "2C"), REARHAND, id="joker-led-trumped"),
]


@pytest.mark.parametrize(("hands", "plays", "winner"), TRICK_EXAMPLES)
def test_trick_examples_through_play(hands: list[int], plays: tuple[str, ...], winner: int) -> None:
    state = _play(_position(hands), *plays)
    (trick,) = state.tricks
    assert trick.winner == winner
    assert [GAME.deck[c] for c in trick.cards] == [_card(p.partition(":")[0]) for p in plays]
    assert state.leader == state.turn == winner  # the winner leads to the next trick
    assert state.trick_number == 2


@pytest.mark.parametrize(("hands", "plays", "winner"), TRICK_EXAMPLES)
def test_trick_examples_through_trick_winner(hands: list[int], plays: tuple[str, ...],
                                             winner: int) -> None:
    cards, named = [], []
    for text in plays:
        card_text, _, suit_text = text.partition(":")
        cards.append(GAME.deck.index(_card(card_text)))
        named.append(SUITS.index(Suit.parse(suit_text)) if suit_text else NO_SUIT)
    position = ENGINE.trick_winner(contract=CLUBS_15, cards=cards, named=named)
    assert position == (winner - FOREHAND) % GAME.players  # Forehand led


def _winner(bid: str, plays: str) -> int:
    """The position (0: the lead) of the card that wins a trick of these plays."""
    cards, named = [], []
    for text in plays.split():
        card_text, _, suit_text = text.partition(":")
        cards.append(GAME.deck.index(_card(card_text)))
        named.append(SUITS.index(Suit.parse(suit_text)) if suit_text else NO_SUIT)
    return ENGINE.trick_winner(contract=GAME.bid_index(GAME.parse_bid(bid)), cards=cards,
                               named=named)


RANK_AND_SUIT_EXAMPLES = [
    # [seed] CR-DECK-2: A > 5 > 4 > 3 > 2 in every suit, the joker below the 2
    pytest.param("15NT", "5S AS 2H", 1, id="A-beats-5"),
    pytest.param("15NT", "4H 5H 2D", 1, id="5-beats-4"),
    pytest.param("15NT", "3D 4D 2C", 1, id="4-beats-3"),
    pytest.param("15NT", "2C 3C 2S", 1, id="3-beats-2"),
    pytest.param("15NT", "JK:S 2S 2H", 1, id="2-beats-a-led-joker"),
    # [seed] CR-PLAY-5: trumps first, then the led suit; other suits lose
    pytest.param("15H", "AS 2H 5S", 1, id="low-trump-beats-led-ace"),
    pytest.param("15H", "AS 2H 3H", 2, id="higher-trump-wins"),
    pytest.param("15H", "2S AD AC", 0, id="other-suits-lose"),
    # [seed] CR-PLAY-6: no trumps, the led suit alone can win
    pytest.param("15NT", "2S AC AH", 0, id="no-trumps-clubs-lose"),
]


@pytest.mark.parametrize(("bid", "plays", "winner"), RANK_AND_SUIT_EXAMPLES)
def test_rank_and_suit_order_in_tricks(bid: str, plays: str, winner: int) -> None:
    assert _winner(bid, plays) == winner


def test_joker_led_in_no_trumps_wins_when_nobody_follows() -> None:
    # [digest] G7 / CR-JOKER-4: same rules in no trumps
    nt = GAME.bid_index(GAME.parse_bid("15NT"))
    state = _play(_position(HANDS_JOKER_LEAD, nt), "JK:H", "AD", "2C")
    assert state.tricks[0].winner == FOREHAND


def test_followers_must_follow_the_suit_named_for_a_led_joker() -> None:
    # [digest] CR-JOKER-4: the named suit is the led suit for the follow obligation
    state = _play(_position(HANDS_JOKER_LEAD), "JK:S", "AD")
    assert {a.card for a in legal_actions(state)} == set(CardSet.parse("AS 5S 4S 3S 2S", GAME.deck))


def test_a_follower_may_play_the_joker_while_holding_the_led_suit() -> None:
    # [digest] CR-PLAY-3, CR-JOKER-1: led suit or the joker
    hands = _hands("3D AD 2D AS 5S 4S 3S", "4D 5D 2S JK AH 5H 4H", "3H 2H AC 5C 4C 3C 2C")
    state = _play(_position(hands), "3D")
    assert {a.card for a in legal_actions(state)} == set(CardSet.parse("4D 5D JK", GAME.deck))
    state = _play(state, "JK", "AC")
    assert state.tricks[0].winner == REARHAND  # ♣A trumps; the following joker never wins


def test_a_void_follower_may_play_any_card() -> None:
    # [digest] CR-PLAY-3/4: no obligation to trump, the joker is never compulsory
    state = _play(_position(HANDS_DIAMOND_LEAD), "3D")
    hand = state.hand(MIDDLEHAND)
    assert {a.card for a in legal_actions(state)} == set(hand)


# -- apply refuses illegal actions, naming the rule, and leaves the state alone ----------


def _auction_after(*calls: str) -> State:
    state = new_deal(GAME, seed=1)
    for text in calls:
        state = apply(state, PASS if text == "pass" else Call(GAME.parse_bid(text)))
    return state


REFUSALS = [
    pytest.param(lambda: _play(_position(HANDS_DIAMOND_LEAD), "3D", "5H"), Play(_card("5C")),
                 ("crescendo/play.follow_suit", "CR-PLAY-3", "Rearhand may not play 5C",
                  "legal now are 4D 5D"), id="not-following-suit"),
    pytest.param(lambda: _auction_after("16C"), Call(GAME.parse_bid("15S")),
                 ("crescendo/auction.overcall", "CR-AUC-4", "Middlehand may not call 15S"),
                 id="bid-below-standing"),
    pytest.param(lambda: _auction_after("16C"), Call(GAME.parse_bid("16C")),
                 ("crescendo/auction.overcall", "CR-AUC-4"), id="bid-equal-to-standing"),
    pytest.param(lambda: _auction_after(), Call(GAME.parse_bid("29C")),
                 ("crescendo/auction.makeable_bids", "CR-AUC-7"), id="unmakeable-bid"),
    pytest.param(lambda: _position(HANDS_JOKER_LEAD), Play(_card("JK")),
                 ("crescendo/play.joker_led", "CR-JOKER-3", "JK needs a named suit here"),
                 id="joker-led-without-suit"),
    pytest.param(lambda: _position(HANDS_DIAMOND_LEAD), Play(_card("AS"), Suit.HEARTS),
                 ("AS names no suit here",), id="suit-named-for-a-plain-card"),
    pytest.param(lambda: _position(HANDS_DIAMOND_LEAD), Play(_card("AH")),
                 ("AH is not in Forehand's hand",), id="card-not-in-hand"),
    pytest.param(lambda: _position(HANDS_DIAMOND_LEAD), PASS,
                 ("the auction is over: Forehand must play a card",), id="call-during-play"),
    pytest.param(lambda: _auction_after(), Play(_card("AS")),
                 ("it is the auction: Forehand must call",), id="play-during-auction"),
    pytest.param(lambda: _position(HANDS_JOKER_LEAD, game_engine=engine_for(PLAIN_SUIT_JOKER)),
                 Play(_card("JK"), Suit.CLUBS),
                 ("crescendo/play.joker_names_plain_suit", "CR-JOKER-5", "may not name ♣"),
                 id="variant-joker-names-trump"),
]


@pytest.mark.parametrize(("make_state", "action", "expected"), REFUSALS)
def test_apply_refuses_illegal_actions_and_leaves_the_state_unchanged(
    make_state: Callable[[], State], action: Call | Play, expected: tuple[str, ...]
) -> None:
    state = make_state()
    before = _fields(state)
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)
    message = str(info.value)
    for fragment in expected:
        assert fragment in message, message
    if expected[0].startswith("crescendo/"):
        assert info.value.rule_id is not None and info.value.rule_id.startswith(expected[0])
        assert info.value.src_loc is not None
    assert info.value.value == action
    assert _fields(state) == before
    # and the refused action left the position playable
    assert legal_actions(state)


def test_joker_naming_trumps_is_legal_by_default() -> None:
    # [digest] CR-JOKER-5 (assumption): the named suit may be trumps
    state = _play(_position(HANDS_JOKER_LEAD), "JK:C")
    assert state.led_suit == SUITS.index(Suit.CLUBS)


def test_unmakeable_bid_is_legal_under_the_variant() -> None:
    state = new_deal(UNMAKEABLE, seed=1)
    state = apply(state, Call(UNMAKEABLE.parse_bid("29C")))
    assert state.standing == UNMAKEABLE.bid_index(UNMAKEABLE.parse_bid("29C"))


# -- the auction -------------------------------------------------------------------------


def test_auction_makes_the_highest_bidder_soloist_and_forehand_leads() -> None:
    # [digest] CR-AUC-5, CR-PLAY-1: Forehand leads to trick 1, not the soloist
    state = _auction_after("15C", "16H", "pass")
    assert state.phase is Phase.PLAY
    assert state.declarer == MIDDLEHAND
    assert state.contract == GAME.bid_index(GAME.parse_bid("16H"))
    assert state.trump == SUITS.index(Suit.HEARTS)
    assert state.turn == state.leader == FOREHAND


def _legal_bids(state: State) -> set[str]:
    return {str(a.bid) for a in legal_actions(state) if isinstance(a, Call) and a.bid is not None}


def test_opening_bids_run_from_15_to_28_in_five_strains() -> None:
    # [seed] CR-AUC-2: 15 points or more, in ♣ ♦ ♥ ♠ or NT; CR-AUC-7: at most 28
    opening = _legal_bids(new_deal(GAME, seed=1))
    assert opening == {f"{level}{strain}" for level in range(15, 29)
                       for strain in ("C", "D", "H", "S", "NT")}
    # the seed's example bids: 「ダイヤ15」「スペード19」「ノートランプ23」
    assert {"15D", "19S", "23NT"} <= opening


STRAINS_LOW_TO_HIGH = ("C", "D", "H", "S", "NT")


@pytest.mark.parametrize(("low", "high"), list(zip(STRAINS_LOW_TO_HIGH, STRAINS_LOW_TO_HIGH[1:])),
                         ids=lambda s: s)
def test_strain_order_at_equal_points(low: str, high: str) -> None:
    # [seed] CR-AUC-3: at equal points NT > ♠ > ♥ > ♦ > ♣
    assert f"20{high}" in _legal_bids(_auction_after(f"20{low}"))
    assert f"20{low}" not in _legal_bids(_auction_after(f"20{high}"))


def test_more_points_beat_any_strain() -> None:
    # [seed] CR-AUC-3: more points beat fewer, whatever the strains
    assert "20C" in _legal_bids(_auction_after("19NT"))
    assert "19NT" not in _legal_bids(_auction_after("20C"))
    # the weakest bid over 19NT is 20C
    weakest = min(_legal_bids(_auction_after("pass", "19NT")),
                  key=lambda b: GAME.bid_index(GAME.parse_bid(b)))
    assert weakest == "20C"


@pytest.mark.parametrize("dealer", [0, 1, 2], ids=["dealer-0", "dealer-1", "dealer-2"])
def test_all_pass_redeals_with_the_same_dealer(dealer: int) -> None:
    # [digest] CR-AUC-6 / G8: same dealer redeals; Forehand calls first again
    state = new_deal(GAME, seed=5, dealer=dealer)
    forehand = GAME.table.next(dealer)
    assert state.turn == forehand
    after = apply(apply(apply(state, PASS), PASS), PASS)
    assert after.phase is Phase.AUCTION
    assert after.dealer == dealer
    assert after.turn == forehand
    assert after.calls == () and after.standing == -1
    assert after.redeals == state.redeals + 1
    (thrown,) = after.thrown_in
    assert thrown.dealt == state.dealt and thrown.reason == "no bid"
    assert thrown.log == ((forehand, PASS), ((forehand + 1) % 3, PASS), ((forehand + 2) % 3, PASS))
    assert after.hands != state.hands  # a fresh shuffle
    assert sorted(h.bit_count() for h in after.hands) == [7, 7, 7]
    ENGINE.check_hands(after.hands)


# -- deals from seeds --------------------------------------------------------------------


def _record(state: State) -> tuple[object, ...]:
    return (state.dealt, state.calls, state.thrown_in, state.tricks, state.scores)


@pytest.mark.parametrize("seed", [0, 1, 7, 2**31])
def test_a_deal_is_reproducible_from_its_seed(seed: int) -> None:
    assert new_deal(GAME, seed=seed).hands == new_deal(GAME, seed=seed).hands
    assert _record(play_deal(GAME, seed=seed)) == _record(play_deal(GAME, seed=seed))


def test_different_seeds_deal_differently() -> None:
    deals = {new_deal(GAME, seed=s).hands for s in range(20)}
    assert len(deals) == 20


@settings(max_examples=200)
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_every_random_deal_plays_out_by_the_rules(seed: int) -> None:
    final = play_deal(GAME, seed=seed)
    assert final.phase is Phase.OVER
    assert final.hands == (0, 0, 0)
    # [digest] §3.1: the deal partitions the pack 7/7/7
    ENGINE.check_hands(final.dealt)
    # [digest] CR-PLAY-1: seven tricks; Forehand leads the first, each winner the next
    assert [t.number for t in final.tricks] == list(range(1, TRICKS + 1))
    assert final.tricks[0].leader == GAME.table.next(final.dealer)
    for trick, following in zip(final.tricks, final.tricks[1:]):
        assert following.leader == trick.winner
    played = [c for t in final.tricks for c in t.cards]
    assert sorted(played) == list(range(len(GAME.deck)))
    # [digest] CR-SCORE-1..4: only the soloist scores, between -28 and +56
    soloist = final.declarer
    assert all(score == 0 for seat, score in enumerate(final.scores or ()) if seat != soloist)
    assert final.scores is not None
    score = final.scores[soloist]
    assert -TOTAL_POINTS <= score <= 2 * TOTAL_POINTS
    bid = GAME.ladder[final.contract].level
    p = sum(t.number for t in final.tricks if t.winner == soloist)
    assert p == ENGINE.points(final, soloist)
    assert score == (2 * bid if p == bid else p if p > bid else -bid)


# -- the match: its length and its winner (CR-GAME-1, CR-GAME-2) ------------------------


def test_a_match_is_the_rules_length_or_an_agreed_multiple_of_three() -> None:
    assert len(play_match(GAME, seed=4).deals) == 3  # the rules' default
    agreed = play_match(GAME, seed=4, deals=6)
    assert len(agreed.deals) == 6
    # the same session of deals, played on
    assert [d.log for d in agreed.deals[:3]] == [d.log for d in play_match(GAME, seed=4).deals]
    for wrong in (0, 4, 5):
        with pytest.raises(NotationError, match=rf"multiple of 3 deals \(game.match_length\), "
                           rf"not {wrong}"):
            play_match(GAME, seed=4, deals=wrong)


def test_the_highest_total_wins_and_equal_totals_share_it() -> None:
    assert play_match(GAME, seed=0).winners == (1,)  # one side ahead alone
    tied = play_match(GAME, seed=12)  # Forehand and Middlehand level at the top
    assert tied.final == (-27, -27, -28) and tied.winners == (0, 1)


def test_a_match_needs_a_rule_saying_who_wins_it() -> None:
    with pytest.raises(SpecDefinitionError, match=r"crescendo/game.match_length \(crescendo.py:"
                       r"\d+\): a match of a number of deals needs a rule saying who wins it"):
        GAME.with_rules(tuple(r for r in GAME.rules if r.id != "game.match"))


def test_a_match_length_that_is_not_its_own_multiple_is_refused_when_built() -> None:
    rule = GAME.rule("game.match_length")
    for deals, multiple_of in ((3, 2), (3, 0), (0, 3)):
        broken = Rule(id=rule.id, text=rule.text, source=rule.source,
                      body=MatchLength(deals=deals, multiple_of=multiple_of))
        with pytest.raises(SpecDefinitionError, match=rf"a match of {deals} deals, a multiple "
                           rf"of {multiple_of}: the length must be a whole, positive multiple"):
            GAME.with_rules(tuple(broken if r.id == rule.id else r for r in GAME.rules))


def test_tricks_valued_by_their_number_must_be_kept_by_number() -> None:
    """CR-PLAY-7: the tricks are kept by number since the number is the value; without
    that rule the value of a trick could not be counted, and the game is refused."""
    without = tuple(r for r in GAME.rules if r.id != "play.record_tricks")
    with pytest.raises(SpecDefinitionError, match=r"crescendo/deck.trick_values \(crescendo.py:\d+\): "
                       r"the rule values each trick by its number, but no rule keeps the "
                       r"tricks won by their number \(RecordTricks\)"):
        GAME.with_rules(without)


def test_a_claim_may_read_the_tricks_by_number_without_the_rule() -> None:
    """A claim watches the deal, it does not play it: Vint keeps no tricks by number, yet a
    claim about who won the first trick builds."""
    from spec.dsl import Claim, Scope, assumption, implies, seat, tricks_won, won_trick
    from spec.games import vint

    claim = Rule(id="play.first_trick_counts", text="Who wins the first trick has a trick.",
                 source=assumption("VNT-PLAY-1", "a test claim"),
                 body=Claim(Scope.OUTCOME, implies(won_trick(seat, 1), tricks_won(seat) >= 1)))
    assert vint.GAME.with_rules(vint.GAME.rules + (claim,)).rule("play.first_trick_counts")


def test_who_calls_first_and_who_deals_after_three_passes_are_facts_a_wrong_rule_trips() -> None:
    """CR-AUC-1 and CR-AUC-6 in literal seats: Forehand calls first, and after three passes
    the same dealer deals again.  The auction started by the dealer, or the deal passed on
    after three passes, each contradicts its fact."""
    from spec.dsl import amended, dealer

    ids = ("auction.first_caller_seen", "auction.all_pass_seen")
    assert verdicts(GAME, *ids) == ["HOLDS", "HOLDS"]
    dealer_first = amended(GAME.rule("auction.one_round"), first=dealer)
    assert verdicts(swapped(GAME, dealer_first), *ids) == ["VIOLATED", "HOLDS"]
    passed_on = amended(GAME.rule("auction.all_pass"), steps=1)
    assert verdicts(swapped(GAME, passed_on), *ids) == ["HOLDS", "VIOLATED"]


def test_a_led_joker_naming_trumps_trips_the_plain_suit_variant_fact() -> None:
    """CR-JOKER-5's other reading: under joker_names_plain_suit a led joker never names
    trumps; the variant's rule relaxed to any suit lets it, and the fact fails."""
    from spec.dsl import amended, declared_suit, no_suit

    game = GAME.with_variants("joker_names_plain_suit")
    assert verdicts(game, "play.joker_plain_suit_tricks") == ["HOLDS"]
    any_suit = amended(game.rule("play.joker_names_plain_suit"), requires=declared_suit != no_suit)
    assert verdicts(swapped(game, any_suit), "play.joker_plain_suit_tricks") == ["VIOLATED"]
