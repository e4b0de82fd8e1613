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
    PartnerHolds,
    Rule,
    SameBidJoins,
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
