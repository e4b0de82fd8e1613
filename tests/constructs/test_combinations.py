"""Constructs that the back ends cannot yet combine soundly are refused when the game is
built, naming the rule, instead of being played one way and proved another."""
from __future__ import annotations

import pytest
from seats_game import RULES as SEATS
from talon_game import RULES as TALON

from spec.cards import Suit
from spec.dsl import (
    AllOut,
    CallRule,
    DropOut,
    Game,
    IdleSeat,
    PartnerAccepts,
    PartnerHolds,
    Rule,
    SameBidJoins,
    SidesByContract,
    TurnUp,
    assumption,
    bid,
    call,
    cards_of,
    const,
    declarer,
    seat_after,
    standing,
    trick_number,
)
from spec.errors import SpecDefinitionError


def _rule(rid: str, ref: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text="A test rule.", source=assumption(ref, "a test"), body=body)


def _game(rules) -> Game:  # type: ignore[no-untyped-def]
    return Game(name="Combination", key="combination", ref_prefix="SEA", doc="",
                rules=tuple(rules))


def _replace(rules, rid: str, body):  # type: ignore[no-untyped-def]
    return [r if r.id != rid else _rule(rid, r.source.ref, body) for r in rules]


def test_the_seats_game_builds() -> None:
    assert _game(SEATS).program.idle is not None


def test_a_turn_up_with_an_idle_seat_is_refused() -> None:
    # the Z3 encoding placed the turn-up without passing over the idle seat (and a turn-up
    # counted from the bottom fell outside the deal): refused until both agree
    for position in (1, -1):
        with pytest.raises(SpecDefinitionError, match="idle for the deal is not supported yet"):
            _game([*SEATS, _rule("deal.turn_up", "SEA-DEAL-9", TurnUp(position=position))])


def test_an_idle_seat_must_be_a_seat() -> None:
    with pytest.raises(SpecDefinitionError, match="IdleSeat needs a seat, got a int"):
        _game(_replace(SEATS, "setup.idle_dealer", IdleSeat(seat=const(7))))


def test_a_drop_out_reads_only_what_is_known_before_the_first_lead() -> None:
    # read at trick 1 by the engine, it was read at every trick by Z3
    body = DropOut(first=seat_after(declarer), when=trick_number == 1,
                   all_out=AllOut.DECLARER_TAKES_ALL)
    with pytest.raises(SpecDefinitionError, match="defence.play_or_pass.*choose once"):
        _game(_replace(SEATS, "defence.play_or_pass", body))


def test_a_drop_out_with_several_declarers_is_refused() -> None:
    rules = _replace(SEATS, "auction.overcall", CallRule(
        applies=call.is_bid & standing.exists,
        requires=(call.bid.key > standing.bid.key) | call.joins))
    rules.append(_rule("auction.join", "SEA-AUC-9", SameBidJoins(bids=bid.level == 6)))
    with pytest.raises(SpecDefinitionError, match="declarer's side would be asked to drop out"):
        _game(rules)


def test_a_partner_by_the_cards_with_a_talon_is_refused() -> None:
    # the card may lie in the talon, held by no seat
    rules = [*TALON, _rule("auction.partner", "TAL-AUC-9",
                           PartnerHolds(when=const(True), cards=cards_of(Suit.SPADES)))]
    with pytest.raises(SpecDefinitionError, match="may be held by no seat"):
        Game(name="Combination", key="combination", ref_prefix="TAL", doc="", rules=tuple(rules))


def test_a_turn_up_with_cards_laid_aside_is_refused() -> None:
    # the Z3 call situation assumed the turn-up is still in its holder's hand
    from spec.games.three_oh_four import GAME as G304

    rules = [*G304.rules, _rule("deal.turn_up", "304-DEAL-9", TurnUp(position=-1))]
    with pytest.raises(SpecDefinitionError, match="turned up with cards laid aside"):
        Game(name="Combination", key="combination", ref_prefix=G304.ref_prefix, doc="",
             rules=tuple(rules))


# -- a partner formed by a call (PartnerAccepts) with the other constructs ----------------

def _accept_in_sides_game(bids):  # type: ignore[no-untyped-def]
    """The sides game, whose solo (or another bid) a later seat may also accept."""
    from sides_game import RULES as SIDES

    rules = _replace(SIDES, "auction.overcall", CallRule(
        applies=call.is_bid & standing.exists,
        requires=(call.bid.key > standing.bid.key) | call.joins | call.accepts))
    rules.append(_rule("auction.accept", "SID-AUC-10", PartnerAccepts(bids=bids)))
    return Game(name="Combination", key="combination", ref_prefix="SID", doc="",
                rules=tuple(rules))


def test_a_drop_out_with_a_partner_by_a_call_is_refused() -> None:
    rules = _replace(SEATS, "auction.overcall", CallRule(
        applies=call.is_bid & standing.exists,
        requires=(call.bid.key > standing.bid.key) | call.accepts))
    rules.append(_rule("auction.accept", "SEA-AUC-9", PartnerAccepts(bids=bid.level == 6)))
    with pytest.raises(SpecDefinitionError, match="declarer's side would be asked to drop out"):
        _game(rules)


def test_a_partner_by_a_call_needs_a_declarer_who_may_have_one() -> None:
    from ask_game import RULES as ASK

    rules = _replace(ASK, "setup.sides", SidesByContract(declarer_alone=True))
    with pytest.raises(SpecDefinitionError, match="auction.accept.*declarer who may have a partner"):
        Game(name="Combination", key="combination", ref_prefix="ASK", doc="", rules=tuple(rules))


def test_a_bid_both_joined_and_accepted_is_refused() -> None:
    # the seats that repeat it would be declarers settled on their own and a partner at once
    with pytest.raises(SpecDefinitionError, match="auction.accept.*either joined.*not both: misere"):
        _accept_in_sides_game(bid.level == 2)


def test_joined_accepted_and_found_partners_agree_together() -> None:
    # a solo another seat may accept, beside the misère several may declare and the troel
    # partner found by the cards: the engine and Z3 both settle every deal to nothing
    from spec.engine import play_deal
    from spec.records import replay, to_record
    from verifier.properties import Verdict, check_game

    game = _accept_in_sides_game(bid.level == 1)
    assert game.program.acceptable == (0,) and game.program.joinable == (1,)
    accepted = 0
    for seed in range(300):
        state = play_deal(game, seed=seed)
        if state.contract < 0:
            continue
        assert sum(state.scores) == 0 and replay(to_record(state), game).ok
        if state.partner != state.declarer and game.ladder[state.contract].level == 1:
            accepted += 1
            assert state.declaring_seats == (state.declarer,)
    assert accepted >= 5
    results = check_game(game, only=("score.zero_sum", "auction.one_accepter",
                                     "auction.standing_bid_increases", "sides.joined_misere"))
    assert {r.id: r.verdict for r in results} == {r.id: Verdict.HOLDS for r in results}, [
        (r.id, r.verdict, r.detail) for r in results]
    assert len(results) == 4


def test_a_seat_idle_for_the_deal_never_accepts() -> None:
    # the idle seat makes no call, so is never the partner a call forms
    from spec.engine import PASS, Call, Phase, apply, legal_actions, new_deal

    rules = [r for r in SEATS if not isinstance(r.body, DropOut)]
    rules = _replace(rules, "setup.declarer_alone", SidesByContract(declarer_alone=False))
    rules = _replace(rules, "auction.overcall", CallRule(
        applies=call.is_bid & standing.exists,
        requires=(call.bid.key > standing.bid.key) | call.accepts))
    rules.append(_rule("auction.accept", "SEA-AUC-9", PartnerAccepts(bids=bid.level == 6)))
    game = _game(rules)
    lowest = Call(game.ladder[0])
    for dealer in range(4):
        # the first seat to call bids the lowest bid; every seat after accepts it if it may
        state = apply(new_deal(game, seed=dealer, dealer=dealer), lowest)
        while state.phase is Phase.AUCTION:
            state = apply(state, lowest if lowest in legal_actions(state) else PASS)
        asker = (dealer + 1) % 4
        assert state.declarer == asker and state.idle == dealer
        assert state.partner == (asker + 1) % 4  # the next seat to call, the dealer idle
        assert state.partner not in (state.idle, state.declarer)
