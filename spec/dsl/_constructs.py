"""What a rule can say: the constructs that make up a game.

A :class:`~spec.dsl.Rule` pairs an id, a sentence and a source with one of these
constructs.  They are plain frozen data; :mod:`spec.dsl._build` checks them when the
game is built and :mod:`spec.dsl._derive` turns them into the expressions every back end
compiles.
"""
from __future__ import annotations

from dataclasses import dataclass

from spec.cards import Deck, Rank, Suit
from spec.dsl._nodes import Expr, Scope, Var
from spec.seats import Direction


class Construct:
    """Base of everything a rule can state."""

    __slots__ = ()


def _c(cls: type) -> type:
    return dataclass(frozen=True, slots=True, eq=False)(cls)


# -- 1. Equipment -------------------------------------------------------------------


@_c
class Seats(Construct):
    """The seats, named in order of play (the dealer is any of them), and partnerships."""

    names: tuple[str, ...]
    partnerships: tuple[tuple[int, ...], ...] = ()


@_c
class PlayDirection(Construct):
    """Which way dealing, bidding and play go round the table."""

    direction: Direction


@_c
class DeckIs(Construct):
    """The cards in play."""

    deck: Deck


@_c
class RankOrder(Construct):
    """The rank of the cards within a suit, high to low; the same in every suit."""

    order: tuple[Rank, ...]


@_c
class TrickValue(Construct):
    """What a trick is worth to the seat that wins it (scope: a trick won)."""

    value: Expr


@_c
class SidesByContract(Construct):
    """No fixed partnerships: the contract decides who plays against whom."""

    declarer_alone: bool = True


# -- 2. Deal ------------------------------------------------------------------------


@_c
class DealPackets(Construct):
    """Deal in rounds: round *r* gives ``packets[r]`` cards to each seat in turn."""

    packets: tuple[int, ...]
    first: Expr  # seat that receives first (scope: CALL; reads the dealer)


@_c
class DealerRotation(Construct):
    """After a played deal the deal passes ``steps`` seats on in the direction of play."""

    steps: int = 1


# -- 3. Auction ---------------------------------------------------------------------


@_c
class AuctionTurns(Construct):
    """Who calls first and when the auction is over (scope: CALL, after the last call)."""

    first: Expr
    ends_when: Expr


@_c
class Ladder(Construct):
    """The bids: every level with every strain (strains low to high; None is no trumps)."""

    levels: tuple[int, ...]
    strains: tuple[Suit | None, ...]


@_c
class BidOrder(Construct):
    """The order of bids, as a number for each bid (scope: BID); higher is stronger."""

    key: Expr


@_c
class CallRule(Construct):
    """A call is legal only if ``requires`` holds whenever ``applies`` does (scope: CALL)."""

    applies: Expr
    requires: Expr


@_c
class HighestBidderDeclares(Construct):
    """When the auction ends with a bid, its highest bidder declares that bid."""


@_c
class RedealIfNoBid(Construct):
    """When the auction ends with no bid, the cards are redealt, by a dealer ``steps`` on."""

    steps: int = 0


# -- 4. Play ------------------------------------------------------------------------


@_c
class TrickPlay(Construct):
    """Play tricks until the hands are empty; ``first_lead`` leads to the first (scope: PLAY)."""

    first_lead: Expr


@_c
class PlayRule(Construct):
    """When ``applies`` holds, the card must be one of ``permits`` (scope: PLAY)."""

    applies: Expr
    permits: Expr


@_c
class AlwaysPlayable(Construct):
    """These cards may be played whatever the other play rules say."""

    cards: Expr


@_c
class NameSuit(Construct):
    """When ``when`` holds, the player names a suit, and the card counts as that suit."""

    when: Expr
    choices: tuple[Suit, ...]


@_c
class DeclarationRule(Construct):
    """When ``applies`` holds, the named suit must satisfy ``requires`` (scope: PLAY)."""

    applies: Expr
    requires: Expr


@_c
class CountsAsSuit(Construct):
    """When ``when`` holds, the played card counts as a card of ``suit`` (scope: ENTRY)."""

    when: Expr
    suit: Expr


@_c
class WinningTier(Construct):
    """Cards for which ``when`` holds compete in tier ``level``; higher tiers beat lower.

    Within a tier the rank order decides.  Cards in no tier cannot win.
    """

    level: int
    when: Expr


@_c
class RecordTricks(Construct):
    """Each seat keeps the tricks it won, by number."""


# -- 5. Scoring ---------------------------------------------------------------------


@_c
class ScoreRule(Construct):
    """When ``when`` holds, the seat scores ``amount`` (scope: OUTCOME; SEAT is the seat)."""

    when: Expr
    amount: Expr


# -- 6. Game end ----------------------------------------------------------------------


@_c
class MatchOf(Construct):
    """A match is a series of deals; the highest total score wins."""


@_c
class MatchLength(Construct):
    """A match is ``deals`` deals by default, always a multiple of ``multiple_of``."""

    deals: int
    multiple_of: int = 1
    ties_shared: bool = True


# -- Consequences the rulebook states ---------------------------------------------


@_c
class Claim(Construct):
    """A consequence the rulebook states; the verifier proves it (for every value of ``free``)."""

    scope: Scope
    holds: Expr
    free: tuple[Var, ...] = ()


CONSTRUCT_CLASSES: tuple[type[Construct], ...] = (
    Seats, PlayDirection, DeckIs, RankOrder, TrickValue, SidesByContract, DealPackets,
    DealerRotation, AuctionTurns, Ladder, BidOrder, CallRule, HighestBidderDeclares,
    RedealIfNoBid, TrickPlay, PlayRule, AlwaysPlayable, NameSuit, DeclarationRule,
    CountsAsSuit, WinningTier, RecordTricks, ScoreRule, MatchOf, MatchLength, Claim,
)

# Which scope each expression-valued field of a construct is written in.
FIELD_SCOPES: dict[tuple[type[Construct], str], Scope] = {
    (TrickValue, "value"): Scope.TRICK_VALUE,
    (DealPackets, "first"): Scope.CALL,
    (AuctionTurns, "first"): Scope.CALL,
    (AuctionTurns, "ends_when"): Scope.CALL,
    (BidOrder, "key"): Scope.BID,
    (CallRule, "applies"): Scope.CALL,
    (CallRule, "requires"): Scope.CALL,
    (TrickPlay, "first_lead"): Scope.PLAY,
    (PlayRule, "applies"): Scope.PLAY,
    (PlayRule, "permits"): Scope.PLAY,
    (AlwaysPlayable, "cards"): Scope.PLAY,
    (NameSuit, "when"): Scope.PLAY,
    (DeclarationRule, "applies"): Scope.PLAY,
    (DeclarationRule, "requires"): Scope.PLAY,
    (CountsAsSuit, "when"): Scope.ENTRY,
    (CountsAsSuit, "suit"): Scope.ENTRY,
    (WinningTier, "when"): Scope.ENTRY,
    (ScoreRule, "when"): Scope.OUTCOME,
    (ScoreRule, "amount"): Scope.OUTCOME,
}
