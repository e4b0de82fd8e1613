"""Austrian Préférence: the digest's worked examples, the auction, the exchange and the
defenders' choice, the payoff from the pot."""
from __future__ import annotations

import json
import random

import pytest

from spec.cards import CardSet, Suit
from spec.dsl import NO_SUIT, Property, Rule, Scope, ScoreRule, all_of, const, implies
from spec.dsl._build import suit_code
from spec.engine import (
    PASS,
    Call,
    Declare,
    Phase,
    Play,
    apply,
    engine_for,
    legal_actions,
    new_deal,
    play_deal,
    play_pot_session,
    random_bot,
)
from spec.errors import IllegalActionError, NotationError
from spec.games.preference import GAME, NAMED, PAYOFF_CASES, PLAY_CASES
from spec.records import replay, replay_session, session_json, to_record
from verifier.cli import main
from verifier.properties import Verdict, checks_for, run_check

ENGINE = engine_for(GAME)
D, E, W = 0, 1, 2  # the declarer and the defenders on his left and right, in the examples


def call(text: str) -> Call:
    return PASS if text == "pass" else Call(GAME.parse_bid(text))


def after(*calls: str, dealer: int = 2, seed: int = 1):  # type: ignore[no-untyped-def]
    """A deal of ``seed`` (forehand seat 0 with the default dealer) after ``calls``."""
    s = new_deal(GAME, seed=seed, dealer=dealer)
    for c in calls:
        s = apply(s, call(c))
    return s


def bids(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(a) for a in legal_actions(s)}


# -- the worked examples of the digest (section 3): chips for D, E, W; the pot gets the rest --
@pytest.mark.parametrize(("winners", "dropped", "guest", "chips"), [
    ([D] * 10, 1 << E | 1 << W, -1, (10, 0, 0)),            # both defenders pass
    ([D] * 7 + [E] * 2 + [W], 0, -1, (7, 2, -9)),           # W fails
    ([D] * 5 + [E] * 3 + [W] * 2, 0, -1, (-15, 3, 2)),      # D fails
    ([D] * 6 + [E] * 3 + [W], 0, W, (6, 4, 0)),             # E host, W guest, 4 together
    ([D] * 7 + [E] * 2 + [W], 0, W, (7, -7, 0)),            # host and guest 3 < 4
    ([D] * 8 + [E] * 2, 1 << W, -1, (8, 2, 0)),             # E plays alone
    ([E] * 10, 0, -1, (-20, 10, -10)),                      # no trick for D, none for W
])
def test_worked_payoffs(winners: list[int], dropped: int, guest: int,
                        chips: tuple[int, int, int]) -> None:
    got = ENGINE.score_outcome(contract=0, declarer=D, winners=winners, dealer=W,
                               dropped=dropped, guest=guest)
    assert got == chips
    pot = -sum(got)
    assert pot % 10 == 0 and pot >= -10  # the pot pays at most its 10 chips


# -- the auction -----------------------------------------------------------------------------
def test_the_first_bid_is_one_or_a_first_turn_game() -> None:
    assert bids(after()) == {"pass", "One", "Game", "Hearts"}


def test_one_step_up_or_a_hold_by_a_senior() -> None:
    s = after("One")  # forehand bid One; the middle hand (junior) may only go one step up
    assert bids(s) == {"pass", "Two", "Game", "Hearts"}
    s = apply(s, call("Two"))
    s = apply(s, call("pass"))  # the rear hand passes
    assert bids(s) == {"pass", "Two", "Three"}  # forehand, senior, may hold Two
    s = apply(s, call("Two"))
    assert s.high_bidder == 0 and str(GAME.ladder[s.standing]) == "Two"
    assert bids(s) == {"pass", "Three"}  # the displaced junior must go up or pass
    with pytest.raises(IllegalActionError, match="auction.hold"):
        apply(s, call("Two"))


def test_a_pass_is_final_and_two_passes_end_it() -> None:
    s = after("One", "pass", "Two")
    assert s.turn == 0 and bids(s) == {"pass", "Two", "Three"}
    s = apply(s, call("pass"))
    assert bids(s) == {"pass"}  # the middle hand passed before
    before = s
    with pytest.raises(IllegalActionError, match="auction.pass_final"):
        apply(s, call("Three"))
    assert before.log == s.log and before.turn == s.turn  # a refused call changes nothing
    s = apply(s, call("pass"))
    assert s.phase is Phase.EXCHANGE and s.declarer == 2


def test_game_only_at_the_first_turn_and_then_the_others_are_out() -> None:
    s = after("One", "pass", "Game")
    assert bids(s) == {"pass"}  # forehand has had his turn: he is out
    s = after("One", "Game")
    assert bids(s) == {"pass", "Game", "Hearts"}  # a first turn: Game too, or Hearts
    s = after("One", "Game", "pass", "pass")
    assert s.declarer == 1 and s.phase is Phase.DECIDE  # no exchange in Game
    # a lone Game declarer names any suit but hearts, after the auction
    assert bids(s) == {"spades", "clubs", "diamonds"}


@pytest.mark.parametrize(("games", "named", "declarer", "trumps"), [
    # PRF-AUC-9: the highest suit named wins (seed: diamonds, clubs, spades)
    (("Game", "Game", "Game"), ("clubs", "diamonds", "spades"), 1, Suit.DIAMONDS),
    # of equal suits the most senior's: forehand named first
    (("Game", "Game", "pass"), ("clubs", "clubs"), 0, Suit.CLUBS),
    (("pass", "Game", "Game"), ("spades", "clubs"), 2, Suit.CLUBS),
    (("One", "Game", "Game"), ("diamonds", "diamonds"), 1, Suit.DIAMONDS),
], ids=["highest-suit", "equal-senior", "junior-higher", "after-one"])
def test_several_game_bidders_name_suits_in_seniority_order(
        games: tuple[str, ...], named: tuple[str, ...], declarer: int, trumps: Suit) -> None:
    """PRF-AUC-8, PRF-AUC-9: Game is one bid, which a later player at his first turn may
    bid too; after the auction each Game bidder names a suit, the most senior first, each
    heard by all, and the highest named suit wins, of equal suits the most senior's."""
    s = after(*games)
    while s.phase is Phase.AUCTION:  # the players out pass
        s = apply(s, call("pass"))
    assert s.phase is Phase.DECIDE and GAME.ladder[s.contract].label == "Game"
    bidders = [seat for seat, b in s.calls if b >= 0 and GAME.ladder[b].label == "Game"]
    for seat, suit in zip(bidders, named):
        assert s.turn == seat
        assert bids(s) == {"spades", "clubs", "diamonds"}  # any suit but hearts, always
        s = apply(s, Declare(suit))
    assert s.declarer == declarer and s.declaring_seats == (declarer,)
    assert s.trump == suit_code(trumps)
    assert s.phase is Phase.DROP_OUT and declarer not in (s.turn,)
    # each choice is in the record, in order, and the record replays
    assert [str(a) for seat, a in s.log[-len(named):]] == list(named)


def test_hearts_ends_the_auction() -> None:
    s = after("Hearts")
    assert s.declarer == 0 and s.phase is Phase.DECIDE
    assert {str(a) for a in legal_actions(s)} == {"hearts"}


def test_all_pass_redeals_by_the_next_dealer() -> None:
    s = after("pass", "pass", "pass")
    assert s.thrown_in and s.dealer == 0 and s.phase is Phase.AUCTION


# -- the exchange, trumps and the defenders ---------------------------------------------------
def _to_defence(contract: str = "One", trumps: str = "spades"):  # type: ignore[no-untyped-def]
    s = after(contract, "pass", "pass")
    if s.phase is Phase.EXCHANGE:
        assert s.hands[0].bit_count() == 12  # the talon taken up
        for _ in range(2):
            s = apply(s, legal_actions(s)[0])
        assert s.hands[0].bit_count() == 10 and s.discards.bit_count() == 2
    s = apply(s, Declare(trumps))
    return s


def test_trumps_the_contract_allows() -> None:
    s = after("One", "Two", "pass", "pass")  # Two: not spades
    for _ in range(2):
        s = apply(s, legal_actions(s)[0])
    assert {str(a) for a in legal_actions(s)} == {"clubs", "diamonds", "hearts"}
    with pytest.raises(IllegalActionError, match="exchange.name_trumps"):
        apply(s, Declare("spades"))


def test_both_defenders_pass() -> None:
    s = _to_defence()
    assert s.phase is Phase.DROP_OUT and s.turn == 1  # left of the declarer first
    s = apply(apply(s, Declare("pass")), Declare("pass"))
    assert s.phase is Phase.OVER and s.scores == (10, 0, 0)


def test_the_host_invites_his_guest() -> None:
    s = _to_defence()
    s = apply(apply(s, Declare("play")), Declare("pass"))
    assert s.turn == 1 and {str(a) for a in legal_actions(s)} == {"invite", "alone"}
    with pytest.raises(IllegalActionError, match="defence.play_or_pass"):
        apply(s, Declare("play"))
    s = apply(s, Declare("invite"))
    assert s.guest == 2 and not s.dropped and s.hands[2].bit_count() == 10
    assert s.phase is Phase.PLAY and s.turn == 0
    end = play_deal(GAME, seed=1, dealer=2)  # a whole deal still ends
    assert end.phase is Phase.OVER


def test_alone_makes_two_card_tricks() -> None:
    s = _to_defence()
    s = apply(apply(s, Declare("play")), Declare("pass"))
    s = apply(s, Declare("alone"))
    rng = random.Random(0)
    while s.phase is not Phase.OVER:
        acts = legal_actions(s)
        s = apply(s, acts[int(rng.random() * len(acts))])
    assert all(len(t.cards) == 2 for t in s.tricks) and len(s.tricks) == 10
    assert s.scores[2] == 0


# -- whole deals --------------------------------------------------------------------------------
def test_many_deals_play_and_replay() -> None:
    for seed in range(300):
        s = play_deal(GAME, seed=seed)
        assert s.phase is Phase.OVER
        report = replay(to_record(s), GAME)
        assert report.ok, report.message
        pot = -sum(s.scores)
        assert pot % 10 == 0 and pot >= -10


@pytest.mark.parametrize("variants", [(), *((v.id,) for v in GAME.variants if not v.not_decidable)],
                         ids=lambda v: "+".join(v) or "standard")
def test_a_deal_thrown_in_records_its_talon(variants: tuple[str, ...]) -> None:
    # all pass: the next dealer deals afresh, and the record keeps the talon of the deal
    # thrown in beside its hands, as it keeps the talon of the deal played
    game = GAME.with_variants(*variants)
    state = play_deal(game, seed=570)
    assert state.thrown_in, "seed 570 no longer throws its first deal in: pick another"
    record = json.loads(json.dumps(to_record(state)))
    for deal, thrown in zip(record["thrown_in"], state.thrown_in):
        held = CardSet(game.deck, 0)
        for hand in thrown.dealt:
            held |= CardSet(game.deck, hand)
        talon = CardSet.parse(deal["talon"], game.deck)
        assert len(talon) == 2 and not talon & held and len(talon | held) == len(game.deck)
    assert replay(record, GAME).ok


@pytest.mark.slow
def test_ten_thousand_deals() -> None:
    for seed in range(10_000):
        assert play_deal(GAME, seed=seed).phase is Phase.OVER


def test_four_players_the_dealer_sits_out() -> None:
    four = GAME.with_variants("four_players")
    for seed in range(100):
        s = play_deal(four, seed=seed)
        assert s.dealt[s.dealer] == 0 and s.dealer not in {seat for seat, _a in s.log}
        assert s.scores[s.dealer] == 0


# -- the play: follow, trump, beat, and the lowest winner after the declarer's lead ------------
def _position(trick: str, hands: dict[int, str], turn_after: int = 0):  # type: ignore[no-untyped-def]
    """Seat 0 declares One in hearts and led ``trick`` (cards in order of play)."""
    deck = GAME.deck
    played = [deck.index(deck.parse_card(t)) for t in trick.split()]
    masks = [CardSet.parse(hands.get(s, ""), deck).mask for s in range(3)]
    return ENGINE.play_position(hands=masks, contract=0, declarer=0, leader=0, trick_number=1,
                                dealer=2, trick=[(c, NO_SUIT) for c in played],
                                trump=suit_code(Suit.HEARTS), tracked={NAMED: Suit.HEARTS})


def _legal(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(a) for a in legal_actions(s)}


def test_the_lowest_winning_card_after_the_declarers_lead() -> None:
    # the digest's example: the declarer leads the 9 of spades
    s = _position("9S", {0: "7C", 1: "AS JS 8S", 2: "KS 7S"})
    assert _legal(s) == {"JS"}
    with pytest.raises(IllegalActionError, match="play.lowest_winner"):
        apply(s, Play(GAME.deck.parse_card("AS")))
    s = apply(s, Play(GAME.deck.parse_card("JS")))
    assert _legal(s) == {"KS"}  # the third must beat the jack


def test_must_beat_with_a_trump_when_void() -> None:
    s = _position("9S", {0: "7C", 1: "7H QH 8D", 2: "KS 7S"})
    assert _legal(s) == {"7H"}  # after the declarer's lead: the lowest winning trump
    s = _position("9S 10S", {0: "7C", 1: "7C", 2: "7H QH 8D"})
    assert _legal(s) == {"7H", "QH"}  # the third may beat with either trump
    s = _position("9S JS", {0: "7C", 1: "AS", 2: "10S 8S 7D"})  # the co-defender's jack
    assert _legal(s) == {"10S", "8S"}  # the ten cannot beat the jack: any spade


def test_every_position_has_a_legal_card() -> None:
    # proved by 'trickspec check' (play.legal_card_exists); here on random deals
    for seed in range(50):
        s = new_deal(GAME, seed=seed)
        rng = random.Random(seed)
        while s.phase is not Phase.OVER:
            acts = legal_actions(s)
            assert acts
            s = apply(s, acts[int(rng.random() * len(acts))])


# -- the pot: proved whole, and a penalty transcribed wrongly is caught ------------------------
def test_the_pot_is_proved_to_move_by_whole_tens() -> None:
    for pid in ("pot.covers_the_deal", "pot.whole_units"):
        check = next(c for c in checks_for(GAME) if c.id == pid)
        assert run_check(GAME, check).verdict is Verdict.HOLDS


def test_a_penalty_of_15_breaks_the_pot() -> None:
    from spec.games import preference as P

    wrong = Rule(id=P.DECLARER_FAILS.id, text=P.DECLARER_FAILS.text, source=P.DECLARER_FAILS.source,
                 body=ScoreRule(when=P.DECLARER_FAILS.body.when, amount=const(-15)))  # type: ignore[attr-defined]
    game = GAME.with_rules([wrong if r.id == wrong.id else r for r in GAME.rules])
    check = next(c for c in checks_for(game) if c.id == "pot.whole_units")
    result = run_check(game, check)
    assert result.verdict is Verdict.VIOLATED
    assert result.playthrough is not None and result.playthrough.replayed


def test_a_pot_that_no_deal_can_start_with_is_refused() -> None:
    with pytest.raises(NotationError, match="multiple of 10"):
        new_deal(GAME, seed=1, pot=15)
    assert new_deal(GAME, seed=1, pot=70).pot == 70


# -- sessions for the pot -------------------------------------------------------------------------
@pytest.mark.parametrize("variants", [(), ("four_players",), ("old_scoring",)])
def test_sessions_keep_every_chip_and_a_whole_pot(variants: tuple[str, ...]) -> None:
    game = GAME.with_variants(*variants) if variants else GAME
    pots = play_pot_session(game, deals=200, seed=7)
    assert pots.conserved  # the players' chips and the pot add up to nothing new
    assert all(p >= 10 and p % 10 == 0 for p in pots.pots)  # never 1 to 9 chips
    data = session_json(pots)
    assert replay_session(json.loads(json.dumps(data))).ok
    data["chips"][5] = {k: v + 1 for k, v in data["chips"][5].items()}
    assert not replay_session(data).ok


def test_an_emptied_pot_is_filled_again() -> None:
    def passing(view, rng):  # type: ignore[no-untyped-def]  # a defender who always passes
        return Declare("pass") if view.phase is Phase.DROP_OUT else random_bot(view, rng)

    pots = play_pot_session(GAME, deals=6, seed=1, bots=[passing] * 3)
    # the declarer takes 10 each deal: 30, 20, 10, then empty and filled again
    assert pots.pots == (20, 10, 30, 20, 10, 30) and pots.refilled == (False, False, True) * 2
    assert pots.conserved and replay_session(session_json(pots)).ok


def test_the_session_command(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "preference", "--session", "--deals", "5", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "5 deals for a pot" in out and "Net chips" in out and "Most chips: " in out
    path = tmp_path / "session.json"
    assert main(["play", "preference", "--session", "--deals", "12", "--json",
                 "--out", str(path)]) == 0
    data = json.loads(path.read_text())
    final = data["chips"][-1]
    assert data["winners"] == [name for name, x in final.items() if x == max(final.values())]
    assert main(["replay", str(path)]) == 0
    assert main(["play", "vint", "--session"]) == 2
    assert "keeps no pot" in capsys.readouterr().err


@pytest.mark.slow  # a Z3 search of 15 s
def test_scenario_search_takes_the_talon_and_names_trumps() -> None:
    # a numbered contract: the declarer takes the talon and discards two; the engine
    # replays the calls, the discards, the trumps named and the defenders' choices Z3 found
    from spec.constraints import parse_where
    from verifier.scenario import scenarios_where

    # within the default budget of Z3's steps (the deal takes some 13 million), not seconds
    found = scenarios_where(GAME, parse_where(GAME, "level <= 4 and won(Anna) >= 1"), n=1)
    assert found.status == "found", found.reason
    (state,) = found.states
    assert state.is_over and GAME.ladder[state.contract].level <= 4
    assert state.discards.bit_count() == 2 and state.trump != NO_SUIT
    assert state.won[0].bit_count() >= 1
    assert replay(to_record(state), GAME).ok


# -- the facts' cases ----------------------------------------------------------------------------
@pytest.mark.parametrize(("scope", "cases"), [
    (Scope.PLAY, PLAY_CASES),
    (Scope.OUTCOME, PAYOFF_CASES),
])
def test_every_case_of_a_fact_can_occur(scope: Scope, cases) -> None:  # type: ignore[no-untyped-def]
    # the facts list their cases as "does not arise, or holds" to keep the check quick;
    # written as implications the checker proves each situation can occur (not vacuous)
    prop = Property(id="facts.cases", text="The cases of a fact, as implications.", scope=scope,
                    holds=all_of(*(implies(situation, then) for situation, then in cases)))
    game = GAME.with_rules(GAME.rules, properties=(prop,))
    (check,) = [c for c in checks_for(game) if c.id == "facts.cases"]
    result = run_check(game, check)
    assert result.verdict is Verdict.HOLDS, result.detail


def test_the_trumps_named_follow_the_contract_and_a_wrong_table_is_caught() -> None:
    """PRF-EXCH-3: the suits a contract allows, proved from the seat's choice; with the
    other suit numbers (spades 2, clubs 1) stated as if they were the seed's, both facts
    fail: Two allows spades, and clubs can no longer be trumps in Two."""
    from spec.games.preference import PAGAT_TRUMPS
    from verifier.properties import check_game

    ids = ("exchange.trumps_seen", "exchange.trumps_offered")
    assert [r.verdict for r in check_game(GAME, only=ids)] == [Verdict.HOLDS] * 2
    wrong = GAME.with_rules(tuple(PAGAT_TRUMPS if r.id == "exchange.name_trumps"
                                  else r for r in GAME.rules))
    assert [r.verdict for r in check_game(wrong, only=ids)] == [Verdict.VIOLATED] * 2


# -- facts with literal values trip a wrong rule ------------------------------------------------
def _wrong(variants: tuple[str, ...], rule_id: str, body) -> object:  # type: ignore[no-untyped-def]
    import dataclasses

    game = GAME.with_variants(*variants)
    return game.with_rules([dataclasses.replace(r, body=body) if r.id == rule_id else r
                            for r in game.rules])


def _wrong_bodies():  # type: ignore[no-untyped-def]
    import dataclasses

    from spec.dsl import IdleSeat, RedealIfNoBid, TakeTalon, contract, dealer, declarer, seat_after
    from spec.games import preference as P

    drop = GAME.rule("defence.play_or_pass").body
    old = GAME.with_variants("old_scoring")
    fails = old.rule("pay.declarer_fails").body
    aces = GAME.with_variants("ace_bonuses").rule("bonus.aces").body
    return [
        ((), "exchange.talon", TakeTalon(when=contract.level <= 3, discards=2),
         "exchange.talon_seen"),
        ((), "defence.play_or_pass", dataclasses.replace(drop, first=seat_after(declarer, 2)),
         "defence.order_seen"),
        (("four_players",), "setup.dealer_sits_out", IdleSeat(seat=seat_after(dealer)),
         "setup.four_players_seen"),
        (("four_players",), "defence.play_or_pass",
         dataclasses.replace(drop, first=seat_after(declarer, 2)), "defence.four_players_order_seen"),
        (("old_scoring",), "pay.declarer_fails",
         dataclasses.replace(fails, amount=-1 * P.pot), "pay.old_scoring_seen"),
        (("ace_bonuses",), "bonus.aces",
         dataclasses.replace(aces, amount=aces.amount + 1), "bonus.aces_seen"),
        ((), "auction.all_pass", RedealIfNoBid(0), "auction.all_pass_seen"),
    ]


@pytest.mark.parametrize("case", range(7), ids=[
    "talon", "defence-order", "sits-out", "four-players-order", "old-scoring", "ace-bonuses",
    "all-pass"])
def test_a_fact_trips_its_rule_written_wrongly(case: int) -> None:
    variants, rule_id, body, fact = _wrong_bodies()[case]
    right = GAME.with_variants(*variants)
    (check,) = [c for c in checks_for(right) if c.id == fact]
    assert run_check(right, check).verdict is Verdict.HOLDS
    wrong = _wrong(variants, rule_id, body)
    (check,) = [c for c in checks_for(wrong) if c.id == fact]  # type: ignore[attr-defined]
    assert run_check(wrong, check).verdict is Verdict.VIOLATED  # type: ignore[arg-type]
