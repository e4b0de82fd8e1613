"""Malformed specs fail when the game is built, naming the rule id and ``file:line``.

Each case takes the Crescendo rules (:mod:`spec.games.crescendo`), breaks one thing and
rebuilds ``Game(...)`` the way the bottom of crescendo.py does.  The table gives the
broken spec, the rule id the error must name, a regex for the message and where the
error must point: a line of this file (marked ``# at: <case>``) or of crescendo.py.
"""
from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

import spec.games.crescendo as crescendo
from spec.cards import JOKER, Card, make_deck, ranks
from spec.dsl import (
    BidOrder,
    CallRule,
    DealPackets,
    DeckIs,
    Game,
    PlayRule,
    RankOrder,
    Rule,
    bid,
    call,
    card,
    cards_of,
    dealer,
    hand,
    is_leading,
    led_suit,
    seat_after,
    seed,
)
from spec.errors import SpecDefinitionError
from spec.games.crescendo import GAME

THIS_FILE = Path(__file__)
CRESCENDO_FILE = Path(inspect.getsourcefile(crescendo) or "crescendo.py")


def _marked_line(marker: str) -> int:
    """The line of this file that ends with ``# at: <marker>``."""
    lines = THIS_FILE.read_text(encoding="utf-8").splitlines()
    found = [n for n, text in enumerate(lines, start=1) if text.rstrip().endswith(f"# at: {marker}")]
    assert len(found) == 1, f"marker {marker!r} must occur once, found at lines {found}"
    return found[0]


def _crescendo_rule_line(rule_id: str) -> int:
    """The line of crescendo.py where ``Rule(`` opens the rule with this id."""
    lines = CRESCENDO_FILE.read_text(encoding="utf-8").splitlines()
    found = [n for n, text in enumerate(lines, start=1) if f'id="{rule_id}"' in text]
    assert len(found) == 1, f"rule id {rule_id!r} must occur once in crescendo.py, found {found}"
    assert lines[found[0] - 2].rstrip().endswith("Rule("), "id= must follow the line with Rule("
    return found[0] - 1


def _rebuild(rules: Iterable[Rule]) -> Game:
    """Crescendo, built as crescendo.py builds it, from other rules."""
    return Game(  # at: game_call
        name=GAME.name,
        key=GAME.key,
        ref_prefix=GAME.ref_prefix,
        doc=GAME.doc,
        rules=tuple(rules),
        variants=GAME.variants,
        properties=GAME.properties,
    )


def _replacing(old: Rule, new: Rule) -> tuple[Rule, ...]:
    assert old in GAME.rules
    return tuple(new if r is old else r for r in GAME.rules)


def test_unbroken_rules_rebuild_the_game() -> None:
    """The helper itself is sound: without a change the rules build."""
    assert _rebuild(GAME.rules).rules == GAME.rules


# -- the broken specs ------------------------------------------------------------------


def _duplicate_card_in_deck() -> Game:
    deck = make_deck("A 5 4 3 2", jokers=1, name="Crescendo 21-card")
    doubled = type(deck)(deck.name, [*deck, Card.parse("AS")])
    pack = Rule(  # at: duplicate_card_in_deck
        id="deck.cards",
        text="The pack is the Crescendo pack with a second ace of spades.",
        source=seed("CR-DECK-1"),
        body=DeckIs(doubled),
    )
    return _rebuild(_replacing(crescendo.PACK, pack))


def _rank_order_misses_joker() -> Game:
    order = Rule(  # at: rank_order_misses_joker
        id="deck.rank_order",
        text="In every suit the ace is highest, then 5, 4, 3 and 2.",
        source=seed("CR-DECK-2"),
        body=RankOrder(ranks("A 5 4 3 2")),
    )
    return _rebuild(_replacing(crescendo.RANKS, order))


def _unknown_source_ref() -> Game:
    follow = Rule(  # at: unknown_source_ref
        id="play.follow_suit",
        text="A follower must follow suit if possible.",
        source=seed("XX-PLAY-1"),
        body=PlayRule(applies=~is_leading & hand.holds_any(cards_of(led_suit)),
                      permits=cards_of(led_suit)),
    )
    return _rebuild(_replacing(crescendo.FOLLOW_SUIT, follow))


def _duplicate_rule_id() -> Game:
    again = Rule(  # at: duplicate_rule_id
        id="play.follow_suit",
        text="A follower must follow suit if possible.",
        source=seed("CR-PLAY-3"),
        body=PlayRule(applies=~is_leading & hand.holds_any(cards_of(led_suit)),
                      permits=cards_of(led_suit)),
    )
    return _rebuild((*GAME.rules, again))


def _bid_order_not_total() -> Game:
    order = Rule(  # at: bid_order_not_total
        id="auction.bid_order",
        text="More points beat fewer.",
        source=seed("CR-AUC-3"),
        body=BidOrder(key=bid.level),
    )
    return _rebuild(_replacing(crescendo.BID_ORDER, order))


def _deal_does_not_add_up() -> Game:
    deal = Rule(  # at: deal_does_not_add_up
        id="deal.one_at_a_time",
        text="The dealer deals six cards each, one at a time.",
        source=seed("CR-DEAL-1"),
        body=DealPackets((1,) * 6, first=seat_after(dealer)),
    )
    return _rebuild(_replacing(crescendo.DEAL, deal))


def _deck_does_not_share_out() -> Game:
    pack = Rule(  # at: deck_does_not_share_out
        id="deck.cards",
        text="The pack is the A, 5, 4, 3 and 2 of each suit, without a joker.",
        source=seed("CR-DECK-1"),
        body=DeckIs(make_deck("A 5 4 3 2", name="Crescendo without joker")),
    )
    return _rebuild(_replacing(crescendo.PACK, pack))


def _deck_stated_twice() -> Game:
    second = Rule(  # at: deck_stated_twice
        id="deck.second_pack",
        text="A second pack is used as well.",
        source=seed("CR-DECK-1"),
        body=DeckIs(crescendo.DECK),
    )
    return _rebuild((*GAME.rules, second))


def _missing_trick_play() -> Game:
    return _rebuild(r for r in GAME.rules if r is not crescendo.TRICK_PLAY)


def _call_rule_reads_card() -> Game:
    rule = Rule(  # at: call_rule_reads_card
        id="auction.no_joker_bids",
        text="Nobody may bid with the joker.",
        source=seed("CR-AUC-4"),
        body=CallRule(applies=call.is_bid, requires=card != JOKER),
    )
    return _rebuild((*GAME.rules, rule))


@dataclass(frozen=True)
class Case:
    """A broken spec, what the error must say and where it must point."""

    build: Callable[[], Game]
    rule_id: str
    message: str  # regex searched in str(err), after the prefix
    file: Path
    line: Callable[[], int]


def _here(marker: str) -> Callable[[], int]:
    return lambda: _marked_line(marker)


CASES = {
    "duplicate-card-in-deck": Case(
        _duplicate_card_in_deck, "crescendo/deck.cards",
        r"duplicate card AS in the deck \(every card must be distinct\)",
        THIS_FILE, _here("duplicate_card_in_deck"),
    ),
    "rank-order-misses-joker": Case(
        _rank_order_misses_joker, "crescendo/deck.rank_order",
        r"the rank order misses JK, which the deck has",
        THIS_FILE, _here("rank_order_misses_joker"),
    ),
    "unknown-source-ref": Case(
        _unknown_source_ref, "crescendo/play.follow_suit",
        r"unknown rule id 'XX-PLAY-1' in source= \(expected an id of the Crescendo digest "
        r"such as 'CR-PLAY-1'\)",
        THIS_FILE, _here("unknown_source_ref"),
    ),
    "duplicate-rule-id": Case(
        _duplicate_rule_id, "crescendo/play.follow_suit",
        # the message points back at the first definition, in crescendo.py
        r"duplicate rule id \(first at crescendo\.py:(?P<first>\d+)\)",
        THIS_FILE, _here("duplicate_rule_id"),
    ),
    "bid-order-not-total": Case(
        _bid_order_not_total, "crescendo/auction.bid_order",
        r"the bid order is not total: 15C and 15D have the same key 15",
        THIS_FILE, _here("bid_order_not_total"),
    ),
    "deal-does-not-add-up": Case(
        _deal_does_not_add_up, "crescendo/deal.one_at_a_time",
        r"packets \(1, 1, 1, 1, 1, 1\) give 6 cards to each of 3 seats, but the deck has 21",
        THIS_FILE, _here("deal_does_not_add_up"),
    ),
    "deck-does-not-share-out": Case(
        _deck_does_not_share_out, "crescendo/deck.cards",
        r"a deck of 20 cards does not share out among 3 seats",
        THIS_FILE, _here("deck_does_not_share_out"),
    ),
    "deck-stated-twice": Case(
        _deck_stated_twice, "crescendo/deck.second_pack",
        r"DeckIs is stated twice \(also by deck\.cards\)",
        THIS_FILE, _here("deck_stated_twice"),
    ),
    "missing-trick-play": Case(
        # no rule is involved, so the error names the game and points at Game(...)
        _missing_trick_play, "crescendo",
        r"no rule states TrickPlay",
        THIS_FILE, _here("game_call"),
    ),
    "call-rule-reads-card": Case(
        _call_rule_reads_card, "crescendo/auction.no_joker_bids",
        r"card \(the card being played\) is not known when judging a call in the auction",
        THIS_FILE, _here("call_rule_reads_card"),
    ),
}


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_malformed_spec_is_refused_with_rule_id_and_location(case: Case) -> None:
    with pytest.raises(SpecDefinitionError) as info:
        case.build()
    err = info.value
    message = str(err)
    where = f"{case.file.name}:{case.line()}"
    assert err.rule_id == case.rule_id
    assert err.src_loc is not None, f"no src_loc on: {message}"
    assert str(err.src_loc) == where, message
    assert Path(err.src_loc.file).resolve() == case.file.resolve()
    assert message.startswith(f"{case.rule_id} ({where}): "), message
    assert re.search(case.message, err.bare_message), message


def test_duplicate_rule_id_points_back_at_the_first_definition() -> None:
    with pytest.raises(SpecDefinitionError) as info:
        _duplicate_rule_id()
    m = re.search(r"first at crescendo\.py:(\d+)", str(info.value))
    assert m, str(info.value)
    assert int(m.group(1)) == _crescendo_rule_line("play.follow_suit")


# -- rule expressions are not Python booleans ------------------------------------------


def _if_statement() -> None:
    if card == JOKER:  # at: if_statement
        pass


def _python_and() -> None:
    _ = is_leading and card == JOKER  # at: python_and


def _python_not() -> None:
    _ = not is_leading  # at: python_not


@pytest.mark.parametrize(
    ("use", "marker"),
    [
        pytest.param(_if_statement, "if_statement", id="if"),
        pytest.param(_python_and, "python_and", id="and"),
        pytest.param(_python_not, "python_not", id="not"),
    ],
)
def test_rule_expression_refuses_to_be_a_python_bool(use: Callable[[], None], marker: str) -> None:
    # No rule exists yet when Python asks for the truth value, so only the place is known.
    with pytest.raises(SpecDefinitionError) as info:
        use()
    err = info.value
    where = f"{THIS_FILE.name}:{_marked_line(marker)}"
    assert err.src_loc is not None and str(err.src_loc) == where
    assert str(err).startswith(f"({where}): a rule expression has no Python truth value")
    assert "if_then_else(...)" in str(err)
    assert err.rule_id is None


# -- every rule of the real game knows where it was written ----------------------------


@pytest.mark.parametrize("rule", GAME.rules, ids=lambda r: r.id)
def test_crescendo_rule_src_loc_points_at_its_definition(rule: Rule) -> None:
    assert str(rule.src_loc) == f"crescendo.py:{_crescendo_rule_line(rule.id)}"
    assert Path(rule.src_loc.file).resolve() == CRESCENDO_FILE.resolve()


def _with_property(**kw: object) -> Game:
    from spec.dsl import Property, Scope, leader_of

    args: dict[str, object] = dict(id="play.someone_leads", text="Somebody leads to trick 1.",
                                   scope=Scope.HISTORY, holds=leader_of(1) == leader_of(1))
    args.update(kw)
    prop = Property(**args)  # type: ignore[arg-type]  # at: bad_property
    return Game(name=GAME.name, key=GAME.key, ref_prefix=GAME.ref_prefix, rules=GAME.rules,
                variants=GAME.variants, properties=(*GAME.properties, prop))


@pytest.mark.parametrize("kw, message", [
    ({"exists": True}, r"a claim of whole deals, the dealing or the match \(scope HISTORY, DEAL or MATCH\) takes no free= or exists="),
    ({"under": ("joker_names_plain_suit",), "unless": ("joker_names_plain_suit",)},
     r"is both under and unless variant 'joker_names_plain_suit'"),
], ids=["history-exists", "under-and-unless"])
def test_a_property_the_checks_cannot_judge_is_refused_where_it_is_stated(
        kw: dict[str, object], message: str) -> None:
    with pytest.raises(SpecDefinitionError) as info:
        _with_property(**kw)
    err = info.value
    assert re.search(message, err.bare_message), str(err)
    assert str(err.src_loc) == f"{THIS_FILE.name}:{_marked_line('bad_property')}", str(err)


def _prop_on(game: Game, holds: object, scope: object) -> Game:
    from spec.dsl import Property

    prop = Property(id="deal.probe", text="A probe.", scope=scope, holds=holds)  # type: ignore[arg-type]
    return Game(name=game.name, key=game.key, ref_prefix=game.ref_prefix, rules=game.rules,
                variants=game.variants, properties=(*game.properties, prop))


def _reading_cases() -> list[tuple[str, Callable[[], Game], str]]:
    from spec.dsl import (AuctionTurns, Scope, T as Type, announcing, auction_over, caller_of,
                          match_over, may_announce, tracked_after)
    from spec.games import three_oh_four as T

    def in_a_rule() -> Game:
        turns = Rule(id="auction.one_round", text="Ends when it is over.", source=seed("CR-AUC-1"),
                     body=AuctionTurns(first=seat_after(dealer), ends_when=auction_over))
        return _rebuild(_replacing(crescendo.ONE_ROUND, turns))

    return [
        ("no-such-announcement", lambda: _prop_on(GAME, may_announce("caps"), Scope.PLAY),
         r"may_announce\('caps'\) names no announcement of Crescendo \(announcements: none\)"),
        ("announcement-of-another-scope",
         lambda: _prop_on(T.GAME, may_announce("caps"), Scope.CALL),
         r"announcement 'caps' belongs to a card about to be played; this judges a call"),
        ("tracked-after-outside-a-trick",
         lambda: _prop_on(T.GAME, tracked_after("trump_open"), Scope.PLAY),
         r"tracked_after\('trump_open'\) is for claims and properties of a trick"),
        ("tracked-after-unknown",
         lambda: _prop_on(T.GAME, tracked_after("nothing"), Scope.TRICK),
         r"tracked_after\('nothing'\) names no tracked bool of 304"),
        ("announcing-in-another-scope",
         lambda: _prop_on(T.GAME, announcing("caps", "caps_trick", Type.INT) == 1, Scope.CALL),
         r"announcing\('caps', \.\.\.\): no announcement 'caps' of 304 in a call"),
        ("announcing-an-untracked-value",
         lambda: _prop_on(T.GAME, announcing("spoilt", "caps_trick"), Scope.PLAY),
         r"announcing\(\.\.\., 'caps_trick'\) names no tracked bool of 304"),
        ("match-over-in-a-call", lambda: _prop_on(GAME, match_over, Scope.CALL),
         r"is not known when judging a call"),
        ("caller-outside-history", lambda: _prop_on(GAME, caller_of(1) == 0, Scope.CALL),
         r"is not known when judging a call"),
        ("auction-over-in-a-rule", in_a_rule,
         r"auction_over is for claims and properties, not for the rules themselves"),
    ]


@pytest.mark.parametrize("case", _reading_cases(), ids=lambda c: c[0])
def test_a_reading_for_properties_is_refused_where_it_cannot_be_judged(
        case: tuple[str, Callable[[], Game], str]) -> None:
    _name, build, message = case
    with pytest.raises(SpecDefinitionError) as info:
        build()
    assert re.search(message, str(info.value)), str(info.value)


def test_an_announcement_offered_by_two_rules_is_refused() -> None:
    """The engine applies the one rule of an announcement's name; two would make
    may_announce and announcing read something the engine never does."""
    from spec.dsl import Announce, Scope, const
    from spec.games import three_oh_four as T

    again = Rule(id="caps.claim_again", text="Caps may be claimed at any time.",
                 source=T.CAPS_CLAIM.source,
                 body=Announce("caps", Scope.PLAY, when=const(True)))
    with pytest.raises(SpecDefinitionError) as info:
        Game(name=T.GAME.name, key=T.GAME.key, ref_prefix="304", rules=(*T.GAME.rules, again),
             variants=T.GAME.variants, properties=T.GAME.properties)
    assert "'caps' is offered by caps.claim already" in str(info.value)
    assert "caps.claim_again" in str(info.value)


def test_a_free_variable_left_out_of_free_is_refused_beside_one_of_its_type() -> None:
    # a variable of the same type as the one declared was taken for it (``in`` compared
    # with the rules language's ``==``, whose comparison node is always true)
    from spec.dsl import Property, Scope, free_suit, trump

    declared, stray = free_suit("declared"), free_suit("stray")
    prop = Property(id="play.probe", text="A probe.", scope=Scope.OUTCOME, free=(declared,),
                    holds=(trump != declared) | (trump != stray))
    with pytest.raises(SpecDefinitionError, match="free variable stray is not declared in free="):
        Game(name=GAME.name, key=GAME.key, ref_prefix=GAME.ref_prefix, rules=GAME.rules,
             variants=GAME.variants, properties=(*GAME.properties, prop))
