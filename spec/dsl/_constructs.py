"""What a rule can say: the constructs that make up a game.

A :class:`~spec.dsl.Rule` pairs an id, a sentence and a source with one of these
constructs.  They are plain frozen data; :mod:`spec.dsl._build` checks them when the
game is built and :mod:`spec.dsl._derive` turns them into the expressions every back end
compiles.
"""
from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from spec.cards import Deck, Rank, Suit
from spec.dsl._nodes import CardTable, Expr, Scope, T, Var
from spec.seats import Direction


class Construct:
    """Base of everything a rule can state."""

    __slots__ = ()


def _c(cls: type) -> type:
    return dataclass(frozen=True, slots=True, eq=False)(cls)


class PhaseConstruct(Construct):
    """A construct that opens a phase of the deal written only as steps: a kind of phase
    no back end knows, stated by a game (or a variant) together with the block that writes
    its steps.  It says what the phase is called, who acts and what the actions are, where
    it comes in the deal (``before_contract``: after the last auction stage and the cards
    laid aside after it, before the contract is settled; otherwise after the contract is
    settled and before the play, among the other such phases in the order of the rules), in
    which scope each of its expression-valued fields is written (``scopes``), and its steps
    (:meth:`steps`, over the fields of :data:`spec.dsl._steps.STATE`).

    The back ends read such a phase through its steps alone: each is a
    :class:`~spec.dsl._visitor.ConstructVisitor` whose one ``visit_phase`` method reads
    every construct of this kind, and none of them names it.  A subclass is a frozen
    dataclass, like the constructs above.
    """

    __slots__ = ()
    kind: ClassVar[str]  # the phase's name, as the state shows it while the phase runs
    actor: ClassVar[str]  # who acts, for the reader
    action: ClassVar[str]  # what an action is, for the reader
    before_contract: ClassVar[bool] = False
    scopes: ClassVar[dict[str, Scope]] = {}

    def steps(self, writer: Any, phase: Any) -> tuple[Any, ...]:
        """The phase's steps (:class:`spec.dsl._steps.Step`), written with ``writer`` (what
        a block has: the game and its deal program) for ``phase`` (its place in the deal
        program: the rule that opens it, when it takes place, the rules that judge an
        action)."""
        raise NotImplementedError


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
class CardPoints(Construct):
    """A seat's points are the ``table`` values of the cards in the tricks it won."""

    table: CardTable


@_c
class SidesByContract(Construct):
    """No fixed partnerships: the contract decides who plays against whom."""

    declarer_alone: bool = True


# -- 2. Deal ------------------------------------------------------------------------


@_c
class DealPackets(Construct):
    """Deal in rounds: round *r* gives ``packets[r]`` cards to each seat in turn.

    A game that deals in stages states one ``DealPackets`` per stage; stage *k* is dealt
    before the auction of the same stage.
    """

    packets: tuple[int, ...]
    first: Expr  # seat that receives first (scope: CALL; reads the dealer)
    stage: int = 1


@_c
class Talon(Construct):
    """In the deal of ``stage``, after round ``after_round`` of its packets (0: before the
    first), ``cards`` cards go face down to the table: the talon.  No seat sees it until a
    rule gives it to one (``TakeTalon``); otherwise it stays out of the play."""

    cards: int
    after_round: int = 0
    stage: int = 1


@_c
class TakeTalon(Construct):
    """After the auction, when ``when`` holds (scope: STATUS), the declarer takes the talon
    into his hand and then discards ``discards`` cards face down, one at a time; only he
    sees them, and they take no part in the play."""

    when: Expr
    discards: int


@_c
class TurnUp(Construct):
    """The card dealt at ``position`` of the pack (from 1 at the top; negative from the
    bottom, -1: the last card) is dealt face up: the turn-up.  It belongs to the hand it is
    dealt to, and every seat sees it from the deal on; rules read it as ``turn_up`` (its
    suit: ``turned_suit``).  In a game that deals in stages, the position is one of the
    first stage's deal, which comes before any auction."""

    position: int = -1


@_c
class TrumpIs(Construct):
    """After the auction, when ``when`` holds, trumps are ``suit`` (no suit: no trumps).
    The first such rule whose ``when`` holds decides; when none does, the contract's strain
    is trumps.  Both read what the play keeps from the auction: the contract, the declarer,
    the dealer, the turn-up and the hands as dealt (scope: STATUS)."""

    when: Expr
    suit: Expr


@_c
class DealerRotation(Construct):
    """After a played deal the deal passes ``steps`` seats on in the direction of play."""

    steps: int = 1


# -- 3. Auction ---------------------------------------------------------------------


@_c
class AuctionTurns(Construct):
    """Who calls first and when the auction is over (scope: CALL, after the last call).

    A game that bids in stages states one ``AuctionTurns`` per stage.  The standing bid
    and its bidder carry over from one stage to the next; the counts of calls and passes
    start again.
    """

    first: Expr
    ends_when: Expr
    stage: int = 1


@_c
class ProxyCall(Construct):
    """When ``when`` holds, the seat may ask its partner to call in its place.

    The partner names the call at once, and it is the asking seat's own call for every
    rule of the auction: it uses the asking seat's turn and is judged as his, and a bid so
    made is his bid (he holds it: ``standing.bidder``).  If it stands, the asking seat
    declares it, or with ``namer_declares`` the partner who named it (he lays any card set
    aside and makes trumps).  With ``counts_for_partner`` it also counts as one of the
    partner's own calls (``seat_calls``).
    """

    when: Expr
    counts_for_partner: bool = False
    namer_declares: bool = False


@_c
class SetAside(Construct):
    """After the auction of ``stage``, when ``when`` holds, the seat that would declare the
    standing bid (its highest bidder, or the partner who named it, see ``ProxyCall``) lays
    ``count`` cards from his hand aside face down (scope of ``when``: CALL, after the last
    call).

    Cards set aside earlier first return to their owners' hands.  With ``names_trump`` the
    suit of the card laid aside is trumps.  The cards go back to the owner's hand as soon
    as ``returns_when`` holds (scope: STATUS).
    """

    stage: int
    when: Expr
    returns_when: Expr
    count: int = 1
    names_trump: bool = False


@_c
class Ladder(Construct):
    """The bids: every level with every strain (strains low to high; None is the strain
    without trumps, which the game calls ``no_trumps``: "no trumps", "Grand", ...).

    A ladder whose only strain is None names bids by level alone (``160``); ``names``
    gives some levels a name of their own (``((310, "PCC"),)``).
    """

    levels: tuple[int, ...]
    strains: tuple[Suit | None, ...]
    names: tuple[tuple[int, str], ...] = ()
    no_trumps: str = "no trumps"


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
class SameBidJoins(Construct):
    """A bid for which ``bids`` holds (scope: BID) may be joined: another seat may make the
    same bid while it stands (when the call rules allow it: ``call.joins``).  The first to
    bid it stays the highest bidder; when the auction ends with it, every seat that bid it
    declares, each playing for himself, and each is settled on his own (``each_declarer``)."""

    bids: Expr


@_c
class HoldBid(Construct):
    """A seat may *hold* the standing bid: repeat it unchanged and take it over, becoming
    its highest bidder, when ``when`` holds (scope: CALL; a seat senior to the bid's
    holder, say), and only then; the other call rules apply to it as to any bid.  A hold
    never raises the bid."""

    when: Expr


@_c
class PartnerHolds(Construct):
    """When ``when`` holds as the auction ends (scope: STATUS), the declarer's partner is
    the seat dealt the highest card of ``cards`` (scope: STATUS; highest by the rank order,
    the first in the deck among equals): the ace the declarer lacks, say.  When he was
    dealt every one of them, he plays alone."""

    when: Expr
    cards: Expr


@_c
class PartnerAccepts(Construct):
    """A bid for which ``bids`` holds (scope: BID) may be accepted: while it stands and
    nobody has accepted it, another seat may make the same bid (when the call rules allow
    it: ``call.accepts``), and becomes the partner of the seat that bid it.  It is accepted
    at most once, never by its own bidder; the first to bid it stays the highest bidder.
    A higher bid takes the standing bid from the pair, and with it the acceptance.  When
    the auction ends with it accepted, the accepter is the declarer's partner (before any
    ``PartnerHolds`` rule); when it ends with it unaccepted, its bidder declares it alone,
    and the score rules say what that is worth (``declarer_partner == declarer``)."""

    bids: Expr


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
class PlayableAside(Construct):
    """When ``when`` holds, the seat's cards set aside may be played (scope: PLAY)."""

    when: Expr


@_c
class FaceDown(Construct):
    """When ``when`` holds, the card is played face down (scope: PLAY, with ``card``, the
    card being played).

    Only ``seen_by`` (scope: STATUS) and the seat that played it see a face-down card,
    unless ``revealed_when`` holds for the complete trick, which turns every card face up.
    """

    when: Expr
    seen_by: Expr
    revealed_when: Expr


@_c
class LayOpen(Construct):
    """When ``when`` holds at the end of trick ``after_trick``, ``seat`` lays the rest of
    his hand face up on the table and plays from it (scope of both: STATUS): from then on
    every seat sees the cards he still holds.  What is legal does not change.

    With ``each_declarer``, where several seats declare one bid (``SameBidJoins``), both
    are read for each of them in turn as the declarer (as ``each_declarer`` reads a
    score): each declarer for whom ``when`` holds lays his hand open."""

    seat: Expr
    after_trick: int
    when: Expr
    each_declarer: bool = False


@_c
class SitsOut(Construct):
    """When ``when`` holds after the auction, ``seat`` takes no part in the play
    (scope: STATUS); tricks then have one card fewer."""

    when: Expr
    seat: Expr


@_c
class IdleSeat(Construct):
    """In every deal ``seat`` (scope: CALL; it reads the dealer) sits the whole deal out:
    it is dealt no cards, makes no call and plays to no trick.  The deal, the auction and
    the play go round the other seats, skipping it; tricks have a card fewer."""

    seat: Expr


class AllOut(enum.Enum):
    """What a ``DropOut`` rule says happens when every defender would drop out."""

    DECLARER_TAKES_ALL = ("the deal ends without play, and the declarer is credited with "
                          "every trick")
    LAST_MUST_PLAY = "the last defender to choose may not drop out if every other one has"


@_c
class DropOut(Construct):
    """After the contract is settled (after any exchange; before or after a ``Decide``
    choice, in the order the rules state them), when ``when`` holds (scope: STATUS), each
    defender in turn, from ``first`` (scope: STATUS; the first defender from that seat on)
    in the direction of play, chooses to ``stay`` in the play or to ``leave`` it.  A
    defender who leaves lays his hand down face down and takes no part in the play: tricks
    have a card fewer for each.  ``all_out`` says what happens when every defender would
    leave.

    With ``invite`` (the name of the choice), when exactly one defender stayed and one
    left, the one who stayed (the *host*) then chooses to ``invite`` the other back into
    the play, as his *guest* (``invited(seat)``), or to play ``alone``; the guest may not
    refuse.  Only with two defenders."""

    first: Expr
    when: Expr
    all_out: AllOut
    stay: str = "play"
    leave: str = "pass"
    invite: str = ""
    alone: str = "alone"


@_c
class Track(Construct):
    """A value the game keeps through a deal, read as ``tracked(name)``.

    It starts each deal at ``initial`` and changes only by ``Update`` rules and
    announcements.  A ``monotone`` flag, once true, stays true; the verifier proves it.
    """

    name: str
    type: T
    initial: object
    monotone: bool = False


class Moment(enum.Enum):
    """When an ``Update`` is judged."""

    TRICK_END = "at the end of each trick (scope: TRICK)"
    CARD = "as each card is played, on the hand before it leaves it (scope: PLAY)"

    @property
    def scope(self) -> Scope:
        """The scope an update judged at this moment is written in."""
        return Scope.PLAY if self is Moment.CARD else Scope.TRICK


@_c
class Update(Construct):
    """When ``when`` holds at ``at``, each tracked value in ``sets`` takes its new value."""

    when: Expr
    sets: tuple[tuple[str, Expr], ...]
    at: Moment = Moment.TRICK_END


@_c
class Announce(Construct):
    """An announcement the seat to act may make on its turn, when ``when`` holds.

    ``scope`` is CALL (in the auction) or PLAY (before playing a card).  Its effect sets
    tracked values (``sets``, judged before the announcement), or ends the deal without a
    score and has it dealt again by a dealer ``void_redeal`` seats on.  With ``required``
    the seat must announce before anything else when ``required`` holds.  The turn does
    not pass.
    """

    name: str
    scope: Scope
    when: Expr
    sets: tuple[tuple[str, Expr], ...] = ()
    required: Expr | None = None


@_c
class Option(Construct):
    """One choice of a ``Decide`` rule: allowed when ``when`` holds (scope: STATUS).  Where
    several seats choose in turn, the option of the highest ``rank`` wins."""

    name: str
    when: Expr
    sets: tuple[tuple[str, Expr], ...] = ()
    rank: int = 0


@_c
class Decide(Construct):
    """After the auction and before the first lead, ``by`` (scope: STATUS) chooses one of
    ``options``.  A ``TrumpIs`` rule that reads tracked values is read again after the
    choice: trumps named by the declarer, say.

    With ``each_declarer``, where several seats declare one bid (they joined it:
    ``SameBidJoins``), each of them chooses in turn, from ``by`` in the direction of play,
    each choice heard by all; the option of the highest ``rank`` wins, of equal ranks the
    earliest chooser's.  Its chooser alone then declares, and only his choice sets its
    values: several seats bid Game and name their suits, say, the highest suit winning.

    With ``when`` (scope: STATUS), the choice is made only when it holds (some contracts
    name trumps, others have them fixed); otherwise the play begins without it."""

    by: Expr
    options: tuple[Option, ...]
    each_declarer: bool = False
    when: Expr | None = None


@_c
class VoidWhen(Construct):
    """As soon as ``when`` holds (scope: STATUS) the deal ends without a score and is dealt
    again, by a dealer ``redeal_steps`` seats on."""

    when: Expr
    redeal_steps: int = 0


@_c
class Shuffle(Construct):
    """The pack is shuffled afresh for every deal (the engine's seeded shuffle puts it in
    uniformly random order); ``cut_by`` (scope: STATUS), where the rules name one, is the
    seat that may cut, which leaves the order uniform.  A game states this or
    :class:`GatherAndCut`: how the pack is readied is a rule, never a default."""

    cut_by: Expr | None = None


@_c
class GatherAndCut(Construct):
    """Between deals the pack is not shuffled: the tricks are gathered in the order they
    were won, each trick's cards in the order they were played; ``cut_by`` (scope: STATUS,
    of the deal just played) cuts it, leaving at least ``least`` cards in each part, and the
    next dealer deals it.  A deal thrown in is gathered hand by hand, from the seat after
    the dealer, and cut again.  The first deal of a session is shuffled."""

    cut_by: Expr
    least: int = 1


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
    """When ``when`` holds, the seat scores ``amount`` (scope: OUTCOME; SEAT is the seat).

    Games that keep a score sheet with several lines (above and below the line, say)
    name the ``line`` the amount is written on.
    """

    when: Expr
    amount: Expr
    line: str = ""


@_c
class TrickScores(Construct):
    """Each side writes on ``line`` what its tricks are worth (the trick value), trick by
    trick as it wins them; both partners write the side's score."""

    line: str


# -- 6. Game end ----------------------------------------------------------------------


@_c
class GameTarget(Construct):
    """A game is won by the first side whose total on ``line``, over the deals, reaches
    ``target``.  When both sides get there in one deal, the trick that first brings a side
    there decides (the line must be written by ``TrickScores``)."""

    line: str
    target: int


@_c
class AfterGame(Construct):
    """When a game is won a line is drawn and every side's game line starts again at zero.

    Without ``carry_over`` the whole deal that won the game is written in that game; with
    it, what the deal scored after the deciding trick counts towards the next game.
    """

    carry_over: bool = False


@_c
class GameBonus(Construct):
    """The side that wins a game writes ``amount`` on ``line``."""

    amount: int
    line: str


@_c
class Rubber(Construct):
    """A rubber ends as soon as a side has won ``games`` games; the game that wins it is
    worth ``final_bonus`` instead of the game bonus."""

    games: int
    final_bonus: int


@_c
class RubberSettlement(Construct):
    """At the end of a rubber each side adds up every line it wrote; the side with the
    higher grand total wins the difference."""


@_c
class Pot(Construct):
    """A pot of chips carried from deal to deal.  Before the first deal, and whenever a
    deal leaves it empty, every player puts ``ante`` chips in.  A deal's scores are the
    chips each player wins or loses: what the players win together the pot pays, what
    they lose goes into it.  The rules read the chips in the pot as the deal is settled
    as ``pot`` (scope: OUTCOME).  The verifier proves that a deal never takes more than
    the pot holds and moves it only by whole multiples of ``granularity`` chips, so that
    it never holds fewer than ``granularity`` chips unless it is empty."""

    ante: int
    granularity: int = 10


@_c
class MatchOf(Construct):
    """A match is a series of deals; the highest total score wins."""


@_c
class MatchTarget(Construct):
    """A match ends after the deal in which a side's total reaches ``target``; it wins.

    With ``by_difference`` it ends when one side leads the other by ``target`` (counters
    that change hands: the side left with none has lost).
    """

    target: int
    by_difference: bool = False


@_c
class MatchLength(Construct):
    """A match is ``deals`` deals by default, always a multiple of ``multiple_of``;
    equal totals share the win."""

    deals: int
    multiple_of: int = 1

    def allows(self, deals: int) -> bool:
        """Whether a match may be ``deals`` deals long: one or more, a whole multiple."""
        return deals >= 1 and self.multiple_of >= 1 and deals % self.multiple_of == 0


# -- Consequences the rulebook states ---------------------------------------------


@_c
class Claim(Construct):
    """A consequence the rulebook states; the verifier proves it (for every value of ``free``)."""

    scope: Scope
    holds: Expr
    free: tuple[Var, ...] = ()


def stated_expressions(value: object) -> Iterator[Expr]:
    """The expressions a construct states, in its fields and those of its parts."""
    if isinstance(value, Expr):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from stated_expressions(v)
    elif isinstance(value, Construct):
        for name in value.__dataclass_fields__:  # type: ignore[attr-defined]
            yield from stated_expressions(getattr(value, name))


CONSTRUCT_CLASSES: tuple[type[Construct], ...] = (
    Seats, PlayDirection, DeckIs, RankOrder, TrickValue, CardPoints, SidesByContract,
    DealPackets, Talon, TakeTalon, DealerRotation, AuctionTurns, ProxyCall, SetAside, Ladder, BidOrder, CallRule,
    HighestBidderDeclares, RedealIfNoBid, TrickPlay, PlayRule, PlayableAside, FaceDown,
    SitsOut, Track, Update, Announce, Decide, VoidWhen, Shuffle, GatherAndCut, AlwaysPlayable,
    NameSuit,
    DeclarationRule, CountsAsSuit,
    WinningTier, RecordTricks, ScoreRule, TrickScores, GameTarget, AfterGame, GameBonus,
    Rubber, RubberSettlement, MatchOf, MatchTarget, MatchLength, Claim,
    TurnUp, TrumpIs, LayOpen, IdleSeat, DropOut,
    SameBidJoins, PartnerHolds, HoldBid, PartnerAccepts, Pot,
)

# Which scope each expression-valued field of a construct is written in.
FIELD_SCOPES: dict[tuple[type[Construct], str], Scope] = {
    (TrickValue, "value"): Scope.TRICK_VALUE,
    (DealPackets, "first"): Scope.CALL,
    (AuctionTurns, "first"): Scope.CALL,
    (AuctionTurns, "ends_when"): Scope.CALL,
    (BidOrder, "key"): Scope.BID,
    (ProxyCall, "when"): Scope.CALL,
    (SetAside, "when"): Scope.CALL,
    (SetAside, "returns_when"): Scope.STATUS,
    (PlayableAside, "when"): Scope.PLAY,
    (FaceDown, "when"): Scope.PLAY,
    (FaceDown, "seen_by"): Scope.STATUS,
    (FaceDown, "revealed_when"): Scope.TRICK,
    (SitsOut, "when"): Scope.STATUS,
    (SitsOut, "seat"): Scope.STATUS,
    (Update, "when"): Scope.TRICK,
    (Decide, "by"): Scope.STATUS,
    (Decide, "when"): Scope.STATUS,
    (VoidWhen, "when"): Scope.STATUS,
    (Shuffle, "cut_by"): Scope.STATUS,
    (GatherAndCut, "cut_by"): Scope.STATUS,
    (TakeTalon, "when"): Scope.STATUS,
    (TrumpIs, "when"): Scope.STATUS,
    (TrumpIs, "suit"): Scope.STATUS,
    (LayOpen, "seat"): Scope.STATUS,
    (LayOpen, "when"): Scope.STATUS,
    (IdleSeat, "seat"): Scope.CALL,
    (DropOut, "first"): Scope.STATUS,
    (DropOut, "when"): Scope.STATUS,
    (SameBidJoins, "bids"): Scope.BID,
    (PartnerHolds, "when"): Scope.STATUS,
    (HoldBid, "when"): Scope.CALL,
    (PartnerHolds, "cards"): Scope.STATUS,
    (PartnerAccepts, "bids"): Scope.BID,
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


def field_scope(body: Construct, name: str) -> Scope | None:
    """The scope the field ``name`` of ``body`` is written in (None: no expression)."""
    if isinstance(body, Update) and name == "when":
        return body.at.scope
    scope = FIELD_SCOPES.get((type(body), name))
    if scope is None and isinstance(body, PhaseConstruct):
        scope = body.scopes.get(name)
    return scope
