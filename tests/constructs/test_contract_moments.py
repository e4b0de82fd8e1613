"""Moments that hang on the contract or on who holds the bid, played and proved on the
small test games: an auction that ends once every seat but the holders of the standing
bid has passed (``others_passed``), a deal voided as soon as its contract is settled (an
ask nobody accepted), a choice made in some contracts only (``Decide(when=...)``), every
declarer laying his hand open (``LayOpen(each_declarer=True)``), and trumps read from the
hands as dealt (the suit of the ace a declarer lacks)."""
from __future__ import annotations

import ask_game
import pytest
import sides_game
import turnup_game

from spec.cards import Card, Rank, Suit
from spec.dsl import (
    AuctionTurns,
    Decide,
    LayOpen,
    Option,
    Property,
    Rule,
    Scope,
    T,
    Track,
    TrumpIs,
    VoidWhen,
    const,
    contract,
    dealer,
    dealt_hand,
    declarer,
    if_then_else,
    implies,
    no_suit,
    others_passed,
    seat_after,
    tracked,
    trump,
)
from spec.dsl._build import suit_code
from spec.dsl.blocks import trumps_win
from spec.engine import (
    PASS,
    Call,
    Declare,
    Phase,
    Play,
    View,
    apply,
    legal_actions,
    new_deal,
    play_deal,
)
from spec.errors import SpecDefinitionError
from verifier.properties import Verdict, check_game


def _with(game, *rules: Rule, properties=None):  # type: ignore[no-untyped-def]
    """``game`` with each rule of ``rules`` in place of the rule of its id, or added."""
    by_id = {r.id: r for r in rules}
    kept = [by_id.pop(r.id, r) for r in game.rules]
    return game.with_rules(kept + list(by_id.values()), properties=properties)


def _rule_of(game, rid: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=game.rules[0].source, body=body)


# -- the ask game: its auction ends once the seats that hold no bid have passed -------------
ENDS = _rule_of(ask_game.GAME, "auction.turns", "The dealer's left calls first; the auction "
                "ends once every seat but the holders of the standing bid has passed.",
                AuctionTurns(first=seat_after(dealer), ends_when=others_passed))
ASK = _with(ask_game.GAME, ENDS)
ASKS = {b.label: Call(b) for b in ASK.ladder}


def test_an_auction_ends_once_every_seat_but_the_holders_has_passed() -> None:
    s = new_deal(ASK, seed=1, dealer=3)  # North first
    for c in (ASKS["ask"], PASS, ASKS["ask"]):  # North asks, East passes, South accepts
        s = apply(s, c)
    assert s.phase is Phase.AUCTION  # West has not spoken
    s = apply(s, PASS)
    assert s.phase is Phase.PLAY and (s.declarer, s.partner) == (0, 2)
    s = new_deal(ASK, seed=1, dealer=3)
    for c in (PASS, PASS, PASS, PASS):  # nobody bids: over after all four
        s = apply(s, c)
    assert s.redeals == 1


def test_z3_ends_the_auction_as_the_engine_does() -> None:
    results = check_game(ASK, only=("auction.ends", "auction.legal_call_exists",
                                    "auction.one_accepter"))
    assert [r.verdict for r in results] == [Verdict.HOLDS] * 3, [(r.id, r.detail) for r in results]
    # the auction unrolled holds the seats that passed and those that hold the bid: four
    # passes end it, as do a bid and three passes, or an ask accepted and two passes
    assert "over after at most" in results[0].detail or "within" in results[0].detail


# -- the ask game: an ask nobody accepted is thrown in before the first card ----------------
LONE = _rule_of(ask_game.GAME, "auction.lone_ask", "An ask nobody accepted is thrown in; the "
                "same dealer deals again.",
                VoidWhen(when=(contract.level == ask_game.ASK) & ask_game.ALONE, redeal_steps=0))
VOIDED = _with(ask_game.GAME, LONE)


def test_a_deal_voided_by_its_contract_is_thrown_in_before_any_card() -> None:
    s = new_deal(VOIDED, seed=5, dealer=3)
    for c in (Call(VOIDED.ladder[0]), PASS, PASS, PASS):
        s = apply(s, c)
    assert s.phase is Phase.AUCTION and s.dealer == 3 and s.redeals == 1
    thrown = s.thrown_in[-1]
    assert thrown.reason == "auction.lone_ask"
    assert not any(isinstance(a, Play) for _seat, a in thrown.log)  # no card was played


def test_a_void_that_reads_the_contract_is_not_judged_before_there_is_one() -> None:
    # played by the bots, the only deals thrown in are the asks nobody accepted
    for seed in range(200):
        s = play_deal(VOIDED, seed=seed)
        assert s.phase is Phase.OVER and not (s.contract == 0 and s.partner == s.declarer)
        for thrown in s.thrown_in:
            calls = [a for _k, a in thrown.log if isinstance(a, Call)]
            assert thrown.reason == "auction.lone_ask" and calls[-1].bid is None


# -- the turn-up game: trumps named in the nine-trick contract only --------------------------
NAMED = "named"
TU = turnup_game.GAME
NINE = contract.level == 9
CHOICE = (
    _rule_of(TU, "auction.names_trumps", "In a contract of nine tricks the declarer names "
             "trumps.", Decide(by=declarer, when=NINE, options=tuple(
                 Option(s.name.lower(), when=const(True), sets=((NAMED, const(s)),))
                 for s in Suit))),
    _rule_of(TU, "auction.named", "The suit named.", Track(NAMED, T.SUIT, None)),
    _rule_of(TU, "auction.turned_trumps", "In a contract of nine tricks the suit named is "
             "trumps, in the others of tricks the turned suit; misère op tafel has none.",
             TrumpIs(when=~(contract.level == turnup_game.MISERE),
                     suit=if_then_else(NINE, tracked(NAMED, T.SUIT),
                                       turnup_game.turned_suit))),
)
CHOOSING = _with(TU, *CHOICE)


def test_a_choice_is_made_only_in_the_contracts_it_names() -> None:
    chose = {True: 0, False: 0}
    for seed in range(150):
        s = play_deal(CHOOSING, seed=seed)
        nine = CHOOSING.ladder[s.contract].level == 9
        names = [a.name for _k, a in s.log if isinstance(a, Declare)]
        assert bool(names) == nine, (seed, names)
        chose[nine] += 1
        if nine:
            assert s.trump == suit_code(Suit[names[0].upper()])
    assert chose[True] and chose[False]


def test_z3_knows_the_choice_is_made_only_then() -> None:
    results = check_game(CHOOSING, only=("decide.choice_exists", "play.legal_card_exists"))
    assert [r.verdict for r in results] == [Verdict.HOLDS] * 2, [(r.id, r.detail) for r in results]


def test_a_choice_on_a_condition_needs_a_condition() -> None:
    bad = _rule_of(TU, "auction.names_trumps", "Trumps named.",
                   Decide(by=declarer, when=const(3), options=CHOICE[0].body.options))  # type: ignore[attr-defined]
    with pytest.raises(SpecDefinitionError, match="when= must be a condition"):
        _with(TU, bad, *CHOICE[1:])


# -- the sides game: every misère declarer lays his hand open; a Troel's trumps --------------
SG = sides_game.GAME
OPEN = _rule_of(SG, "play.lay_open", "In a misère every declarer lays his hand open after the "
                "first trick.", LayOpen(seat=declarer, after_trick=1,
                                        when=contract.level == sides_game.MISERE,
                                        each_declarer=True))
_HIS = dealt_hand(declarer)


def _ace_lacked() -> object:
    out = no_suit
    for s in Suit:
        out = if_then_else(~_HIS.holds(Card(s, Rank.ACE)), const(s), out)
    return out


TROEL_TRUMPS = _rule_of(SG, "play.troel_trumps", "In a troel the suit of the ace the bidder "
                        "lacks is trumps (hearts with all four).",
                        TrumpIs(when=contract.level == sides_game.TROEL, suit=if_then_else(
                            (_HIS & sides_game.ACES).count == 4, const(Suit.HEARTS),
                            _ace_lacked())))
TRUMPS_WIN = _rule_of(SG, "play.trumps_win", "The highest trump wins.",
                      trumps_win(2))
TROEL_FACT = Property(
    id="play.troel_trumps_seen", text="A troel bidder lacking only the ace of clubs has "
    "clubs trumps.", scope=Scope.OUTCOME,
    holds=implies((contract.level == sides_game.TROEL)
                  & ((_HIS & sides_game.ACES).count == 3) & ~_HIS.holds(Card(Suit.CLUBS, Rank.ACE)),
                  trump == Suit.CLUBS))
SIDES = _with(SG, OPEN, TROEL_TRUMPS, TRUMPS_WIN, properties=(TROEL_FACT,))


@pytest.mark.parametrize("each", [True, False])
def test_every_misere_declarer_lays_his_hand_open(each: bool) -> None:
    import dataclasses

    game = SIDES if each else _with(SIDES, dataclasses.replace(
        OPEN, body=dataclasses.replace(OPEN.body, each_declarer=False)))
    seen = 0
    for seed in range(300):
        s = play_deal(game, seed=seed)
        if game.ladder[s.contract].level != sides_game.MISERE or s.declarers.bit_count() < 2:
            continue
        seen += 1
        laid = sorted(seat for seat, _after in s.laid_open)
        declaring = [k for k in range(4) if s.declarers >> k & 1]
        assert laid == (declaring if each else [s.declarer])
    assert seen >= 10


def test_an_open_hand_is_seen_by_every_seat_from_the_second_trick() -> None:
    for seed in range(300):
        s = new_deal(SIDES, seed=seed)
        while s.phase is not Phase.OVER and len(s.tricks) < 1:
            s = apply(s, legal_actions(s)[-1])
        if s.phase is Phase.PLAY and s.declarers.bit_count() >= 2:
            assert {seat for seat, _c in View(s, 0).open_hands} == {
                k for k in range(4) if s.declarers >> k & 1}
            return
    raise AssertionError("no misère of several declarers among 300 deals")


def test_trumps_read_from_the_hands_as_dealt() -> None:
    troels = 0
    for seed in range(400):
        s = play_deal(SIDES, seed=seed)
        if SIDES.ladder[s.contract].level != sides_game.TROEL:
            continue
        troels += 1
        held = {c.suit for c in SIDES.deck if s.dealt[s.declarer] >> SIDES.deck.index(c) & 1
                and c.rank is Rank.ACE}
        lacked = [x for x in Suit if x not in held]
        expect = Suit.HEARTS if not lacked else lacked[0]
        assert s.trump == suit_code(expect)
    assert troels >= 5
    results = check_game(SIDES, only=("play.troel_trumps_seen", "play.one_winner",
                                      "play.legal_card_exists"))
    assert [r.verdict for r in results] == [Verdict.HOLDS] * 3, [(r.id, r.detail) for r in results]
