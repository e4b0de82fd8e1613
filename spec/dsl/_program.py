"""How a deal runs, lowered once from the constructs: the deal program.

A game states its rules as constructs (:mod:`spec.dsl._constructs`).  Most of them say
*what* is legal or *what* a trick or a deal is worth, and :mod:`spec.dsl._derive` turns
those into expressions.  The others say *how a deal runs*: how the pack is shuffled and
dealt, which phases follow one another, who acts in each, who declares, who plays with
whom, who sees which card and how deals follow one another.  :func:`lower` reads every
construct of a game, through :class:`Lowering` (a
:class:`~spec.dsl._visitor.ConstructVisitor`, so no construct can be forgotten), into one
:class:`DealProgram`, the single description of the course of a deal that the engine,
the Z3 situations, the scenario unroller and the rulebook read.

The program is plain data (no z3, no engine): values, the rules in force for each part,
and the expressions the rules state.

>>> from spec.registry import GAMES
>>> program = lower(GAMES["vint"])
>>> [p.kind.value for p in program.phases], program.tricks, program.declarer.value
(['auction', 'play'], 13, 'the highest bidder')
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._nodes import Expr
from spec.dsl._visitor import ConstructVisitor
from spec.errors import SpecDefinitionError
from spec.seats import Direction

if TYPE_CHECKING:
    from spec.dsl._build import Game, Rule


class PhaseKind(enum.Enum):
    """A kind of phase the rules language states with a construct of its own.  A game may
    state a phase of another kind (a :class:`~spec.dsl._constructs.PhaseConstruct`, whose
    kind is its name), which every back end reads through its steps alone."""

    AUCTION = "auction"
    SET_ASIDE = "set aside"
    EXCHANGE = "exchange"
    DROP_OUT = "drop out"
    DECIDE = "decide"
    PLAY = "play"


class Actor(enum.Enum):
    """Who acts in a phase."""

    IN_TURN = "each seat in turn, from the first, in the direction of play"
    HIGHEST_BIDDER = "the highest bidder"
    DECLARER = "the declarer"
    NAMED = "the seat a rule names"
    EACH_DEFENDER = "each defender in turn, from the seat a rule names, in the direction of play"
    TRICK_LEADER = "the leader of each trick, then each seat in turn"


class Declarer(enum.Enum):
    """Who declares the contract the auction ends with."""

    HIGHEST_BIDDER = "the highest bidder"


class Sides(enum.Enum):
    """Who plays with whom."""

    FIXED = "fixed partnerships"
    BY_CONTRACT = "by the contract"


class PackBetweenDeals(enum.Enum):
    """What happens to the pack between one deal and the next."""

    FRESH_SHUFFLE = "shuffled afresh (a cut leaves it uniformly random)"
    GATHERED_AND_CUT = "the tricks gathered in order and cut, not shuffled"


class Seen(enum.Enum):
    """A kind of card a seat may see."""

    OWN_HAND = "its own hand"
    TRICKS = "the cards played to the tricks, face up"
    FACE_DOWN = "a card played face down"
    ASIDE = "the cards it laid aside"
    TALON = "the talon"
    DISCARDS = "the declarer's discards"
    TURN_UP = "the turn-up"
    OPEN_HAND = "the rest of a hand laid open"


class Audience(enum.Enum):
    """Who sees a kind of card."""

    OWNER = "the seat that holds them"
    EVERY_SEAT = "every seat"
    DECLARER = "the declarer"
    PLAYER_AND_NAMED = "the seat that played it and the seat a rule names"
    NOBODY = "no seat"


@dataclass(frozen=True)
class Sight:
    """Who sees which cards, from when on, and by which rule (None: in every game).  The
    engine's views show what these say (:class:`spec.engine.View`)."""

    seen: Seen
    by: Audience
    when: str
    rule: str | None = None
    seat: Expr | None = None  # for a hand laid open: whose (scope: STATUS)
    condition: Expr | None = None  # for a hand laid open: on what condition (scope: STATUS)


@dataclass(frozen=True)
class Phase:
    """One phase of a deal: who acts, what the actions are, the rules that make an action
    legal or shape the phase, when it ends and which phase can follow."""

    kind: PhaseKind | str  # a name: a phase a game writes as steps of its own
    actor: Actor | str
    action: str
    opened_by: str  # the id of the rule that makes the phase part of the deal
    stage: int = 1
    first: Expr | None = None  # who acts first (the expression a rule states)
    by: Expr | None = None  # the seat that acts, for a phase whose actor is NAMED
    when: Expr | None = None  # the phase takes place only when this holds (None: always)
    ends_when: Expr | None = None
    rules: tuple[str, ...] = ()
    # the construct of the rule that opens the phase, for what is particular to its kind
    # (the options of a choice, the cards discarded from a talon ...)
    body: K.Construct | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        kind = self.kind.value if isinstance(self.kind, PhaseKind) else self.kind
        return kind + (f" (stage {self.stage})" if self.stage > 1 else "")


@dataclass(frozen=True)
class DealProgram:
    """The course of a deal of one game (with its variants in force)."""

    seats: tuple[str, ...]
    direction: Direction
    partnerships: tuple[tuple[int, ...], ...]
    sides: Sides
    declarer_alone: bool
    deck_size: int
    packets: tuple[tuple[int, ...], ...]  # per stage, the packets each seat receives in turn
    talon: tuple[int, int, int]  # cards dealt to the table: (count, stage, after which round)
    pack: PackBetweenDeals
    cut_by: Expr | None
    least_cut: int  # with a pack carried between deals, the fewest cards a cut leaves a part
    dealer_steps: int  # after a played deal the deal passes this many seats on
    declarer: Declarer
    phases: tuple[Phase, ...]
    # the card dealt face up: its place in the first stage's layout (from 0), or None
    turn_up: int | None = None
    sights: tuple[Sight, ...] = ()  # who sees what
    # every rule of the game, by the part of the program it belongs to
    parts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the seat that sits each deal out (an expression of the dealer), if a rule names one:
    # the seats dealt in, and so the seats that call and play, are the others
    idle: Expr | None = None
    # the bids (by number) that several seats may declare at once, each for himself
    joinable: tuple[int, ...] = ()
    # the declarer's partner as the auction ends (scope STATUS), when rules form one
    partner: Expr | None = None
    partner_rules: tuple[str, ...] = ()  # the rules that form it
    # the bids (by number) another seat may accept in the auction, becoming the partner of
    # the seat that bid it (the declarer, if it stands)
    acceptable: tuple[int, ...] = ()

    # a choice after the auction that leaves one of the seats that joined a bid the declarer
    # (a ``Decide`` rule with ``each_declarer``)
    contest: bool = False
    # a partner may call in a seat's place (``ProxyCall``): whether he then declares the
    # bid he named, and whether his call counts as one of his own calls too
    proxy: bool = False
    namer_declares: bool = False
    proxy_counts: bool = False

    @property
    def several_declarers(self) -> bool:
        """Whether a deal can be played with several declarers, each settled on his own:
        seats may join a bid, and no choice after the auction leaves one of them."""
        return bool(self.joinable) and not self.contest

    @property
    def partner_by_call(self) -> bool:
        """Whether a call in the auction can make a seat the declarer's partner."""
        return bool(self.acceptable)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def dealt_seats(self) -> int:
        """How many seats are dealt cards (and call and play): all but an idle seat."""
        return self.players - (self.idle is not None)

    @property
    def hand_size(self) -> int:
        """Cards each seat is dealt over all stages."""
        return sum(sum(p) for p in self.packets)

    @property
    def undealt(self) -> int:
        """Cards of the pack dealt to no seat (the talon's)."""
        return self.deck_size - self.hand_size * self.dealt_seats

    @property
    def talon_cards(self) -> int:
        return self.talon[0]

    def layout(self, stage: int) -> tuple[int, ...]:
        """Where each card of one dealing stage goes, top of the pack first: the number of
        seats dealt in after the stage's first receiver (0 for the first receiver; an idle
        seat is passed over, and not counted), or -1 for the talon.  The engine deals by it
        and the Z3 deal schedule is built from it.

        >>> from spec.registry import GAMES
        >>> GAMES["304"].program.layout(1)
        (0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)
        """
        cards, talon_stage, after = self.talon
        packets = self.packets[stage - 1]
        out: list[int] = []
        for r in range(len(packets) + 1):
            if cards and stage == talon_stage and r == after:
                out += [-1] * cards
            if r < len(packets):
                out += [k for k in range(self.dealt_seats) for _ in range(packets[r])]
        return tuple(out)

    @property
    def tricks(self) -> int:
        """Tricks in a deal: every seat in the play plays one card to each, until the hands
        are empty."""
        return self.hand_size

    def phase(self, kind: PhaseKind, stage: int = 1) -> Phase | None:
        """The deal's phase of ``kind`` (in auction stage ``stage``), or None where the deal
        has none: what each back end reads of it, rather than the rule that opened it."""
        return next((p for p in self.phases if p.kind is kind and p.stage == stage), None)

    def phases_of(self, kind: PhaseKind) -> tuple[Phase, ...]:
        """The deal's phases of ``kind``, every auction stage's, in the program's order."""
        return tuple(p for p in self.phases if p.kind is kind)

    def part_of(self, rule_id: str) -> str:
        """The part of the program a rule belongs to (a phase's name, ``equipment``, ...)."""
        for part, ids in self.parts.items():
            if rule_id in ids:
                return part
        raise KeyError(rule_id)


EQUIPMENT = "equipment"
DEAL = "deal"
DECLARER = "declarer"
PLAY = "play"
TRICK = "trick"
SCORE = "score"
SESSION = "session"
STATED = "stated consequences"


class Lowering(ConstructVisitor[None]):
    """Reads each construct into the program under construction."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rule: Rule | None = None
        self.parts: dict[str, list[str]] = {}
        self.seats: K.Seats | None = None
        self.direction = Direction.CLOCKWISE
        self.sides = Sides.FIXED
        self.declarer_alone = False
        self.deck_size = 0
        self.packets: dict[int, tuple[int, ...]] = {}
        self.cut_by: Expr | None = None
        self.talon = (0, 1, 0)
        self.take_talon: tuple[str, K.TakeTalon] | None = None
        self.pack: PackBetweenDeals | None = None  # a rule states it (checked when built)
        self.least_cut = 0
        self.dealer_steps = 1
        self.declarer: Declarer | None = None
        self.auctions: dict[int, tuple[str, K.AuctionTurns]] = {}
        self.auction_rules: list[str] = []
        self.set_asides: dict[int, list[tuple[str, K.SetAside]]] = {}
        self.decide: tuple[str, K.Decide] | None = None
        self.drop_out: tuple[str, K.DropOut] | None = None
        self.idle: Expr | None = None
        self.trick_play: tuple[str, K.TrickPlay] | None = None
        self.turn_up: K.TurnUp | None = None
        self.sights: list[Sight] = [
            Sight(Seen.OWN_HAND, Audience.OWNER, "always"),
            Sight(Seen.TRICKS, Audience.EVERY_SEAT, "as each card is played")]
        self.partner_rules: list[str] = []
        self.proxy: K.ProxyCall | None = None
        self.own_phases: list[tuple[str, K.PhaseConstruct]] = []  # phases written as steps

    def _file(self, part: str) -> None:
        assert self.rule is not None
        self.parts.setdefault(part, []).append(self.rule.id)

    def run(self) -> DealProgram:
        for rule in self.game.rules:
            self.rule = rule
            self.visit(rule.body)
        assert self.seats is not None and self.declarer is not None and self.trick_play is not None
        assert self.pack is not None  # Game._check refuses a game that readies no pack
        phases: list[Phase] = []
        for stage in sorted(self.auctions):
            opened_by, turns = self.auctions[stage]
            phases.append(Phase(PhaseKind.AUCTION, Actor.IN_TURN, "call", opened_by, stage,
                                first=turns.first,
                                ends_when=turns.ends_when, rules=tuple(self.auction_rules),
                                body=turns))
            for rid, body in self.set_asides.get(stage, ()):
                phases.append(Phase(PhaseKind.SET_ASIDE, Actor.HIGHEST_BIDDER, "lay a card aside",
                                    rid, stage, when=body.when, rules=(rid,), body=body))
        order = [r.id for r in self.game.rules]
        # phases a game writes as steps of its own: those of the auction first, in the
        # order of the rules; the others among the phases after the contract is settled
        later: list[tuple[int, Phase]] = []
        for rid, own in self.own_phases:
            phase = Phase(own.kind, own.actor, own.action, rid,
                          when=getattr(own, "when", None), rules=(rid,), body=own)
            if own.before_contract:
                phases.append(phase)
            else:
                later.append((order.index(rid), phase))
        if self.take_talon is not None:
            rid, take = self.take_talon
            phases.append(Phase(PhaseKind.EXCHANGE, Actor.DECLARER, "discard a card", rid,
                                when=take.when, rules=(rid,), body=take))
        # the defenders' choice and a seat's choice come in the order the rules state them
        if self.drop_out is not None:
            rid, drop = self.drop_out
            later.append((order.index(rid), Phase(
                PhaseKind.DROP_OUT, Actor.EACH_DEFENDER, f"{drop.stay} or {drop.leave}", rid,
                first=drop.first, when=drop.when, rules=(rid,), body=drop)))
        if self.decide is not None:
            rid, decide = self.decide
            later.append((order.index(rid), Phase(PhaseKind.DECIDE, Actor.NAMED, "choose", rid,
                                                  by=decide.by, when=decide.when, rules=(rid,),
                                                  body=decide)))
        phases += [p for _i, p in sorted(later, key=lambda t: t[0])]
        play_rule, play = self.trick_play
        phases.append(Phase(PhaseKind.PLAY, Actor.TRICK_LEADER, "play a card", play_rule,
                            first=play.first_lead, rules=tuple(self.parts.get(PLAY, ())),
                            body=play))
        packets = tuple(self.packets[s] for s in sorted(self.packets))
        turn_up = None
        if self.turn_up is not None:
            # the first stage's layout, counted as DealProgram.layout counts it
            size = sum(packets[0]) * (len(self.seats.names) - (self.idle is not None)) + (
                self.talon[0] if self.talon[1] == 1 else 0)
            p = self.turn_up.position
            turn_up = p - 1 if p > 0 else size + p
        return DealProgram(
            turn_up=turn_up, sights=tuple(self.sights),
            seats=self.seats.names, direction=self.direction,
            partnerships=self.seats.partnerships, sides=self.sides,
            declarer_alone=self.declarer_alone, deck_size=self.deck_size,
            packets=tuple(self.packets[s] for s in sorted(self.packets)), talon=self.talon,
            pack=self.pack, cut_by=self.cut_by, least_cut=self.least_cut,
            dealer_steps=self.dealer_steps, declarer=self.declarer,
            phases=tuple(phases), parts={k: tuple(v) for k, v in self.parts.items()},
            idle=self.idle,
            joinable=tuple(k for k, ok in enumerate(self.game.joinable_bids) if ok),
            partner=D.declarer_partner(self.game) if self.partner_rules else None,
            partner_rules=tuple(self.partner_rules),
            acceptable=tuple(k for k, ok in enumerate(self.game.acceptable_bids) if ok),
            contest=self.decide is not None and self.decide[1].each_declarer,
            proxy=self.proxy is not None,
            namer_declares=self.proxy is not None and self.proxy.namer_declares,
            proxy_counts=self.proxy is not None and self.proxy.counts_for_partner,
        )

    # -- equipment -----------------------------------------------------------------------
    def visit_Seats(self, b: K.Seats) -> None:
        self.seats = b
        self._file(EQUIPMENT)

    def visit_PlayDirection(self, b: K.PlayDirection) -> None:
        self.direction = b.direction
        self._file(EQUIPMENT)

    def visit_DeckIs(self, b: K.DeckIs) -> None:
        self.deck_size = len(b.deck)
        self._file(EQUIPMENT)

    def visit_SidesByContract(self, b: K.SidesByContract) -> None:
        self.sides = Sides.BY_CONTRACT
        self.declarer_alone = b.declarer_alone
        self._file(EQUIPMENT)

    def _equipment(self, b: K.Construct) -> None:
        self._file(EQUIPMENT)

    visit_RankOrder = visit_Ladder = visit_BidOrder = visit_Track = _equipment

    # -- the deal ------------------------------------------------------------------------
    def visit_DealPackets(self, b: K.DealPackets) -> None:
        self.packets[b.stage] = b.packets
        self._file(DEAL)

    def visit_Talon(self, b: K.Talon) -> None:
        assert self.rule is not None
        self.talon = (b.cards, b.stage, b.after_round)
        self.sights.append(Sight(Seen.TALON, Audience.NOBODY, "until a seat takes it",
                                 self.rule.id))
        self._file(DEAL)

    def visit_TakeTalon(self, b: K.TakeTalon) -> None:
        assert self.rule is not None
        self.take_talon = (self.rule.id, b)
        self.sights.append(Sight(Seen.DISCARDS, Audience.DECLARER, "once discarded",
                                 self.rule.id))
        self._file(PhaseKind.EXCHANGE.value)

    def visit_TurnUp(self, b: K.TurnUp) -> None:
        assert self.rule is not None
        self.turn_up = b
        self.sights.append(Sight(Seen.TURN_UP, Audience.EVERY_SEAT, "from the deal on",
                                 self.rule.id))
        self._file(DEAL)

    def visit_TrumpIs(self, b: K.TrumpIs) -> None:
        self._file(DECLARER)

    def visit_LayOpen(self, b: K.LayOpen) -> None:
        assert self.rule is not None
        self.sights.append(Sight(Seen.OPEN_HAND, Audience.EVERY_SEAT,
                                 f"after trick {b.after_trick}, when its rule applies",
                                 self.rule.id, b.seat, b.when))
        self._file(PLAY)
    def visit_IdleSeat(self, b: K.IdleSeat) -> None:
        self.idle = b.seat
        self._file(DEAL)

    def visit_DropOut(self, b: K.DropOut) -> None:
        assert self.rule is not None
        self.drop_out = (self.rule.id, b)
        self._file(PhaseKind.DROP_OUT.value)

    def visit_phase(self, b: K.PhaseConstruct) -> None:
        assert self.rule is not None
        if b.kind in {k.value for k in PhaseKind} | {"over"}:
            raise SpecDefinitionError(f"{self.rule.id}: a phase of the game's own may not be "
                                      f"called {b.kind!r}, the name of a phase every game knows")
        self.own_phases.append((self.rule.id, b))
        self._file(b.kind)

    def visit_Shuffle(self, b: K.Shuffle) -> None:
        self.pack = PackBetweenDeals.FRESH_SHUFFLE
        self.cut_by = b.cut_by
        self._file(DEAL)

    def visit_GatherAndCut(self, b: K.GatherAndCut) -> None:
        self.pack = PackBetweenDeals.GATHERED_AND_CUT
        self.cut_by, self.least_cut = b.cut_by, b.least
        self._file(DEAL)

    def visit_VoidWhen(self, b: K.VoidWhen) -> None:
        self._file(DEAL)

    # -- the auction -----------------------------------------------------------------------
    def visit_AuctionTurns(self, b: K.AuctionTurns) -> None:
        assert self.rule is not None
        self.auctions[b.stage] = (self.rule.id, b)
        self._auction(b)

    def _auction(self, b: K.Construct) -> None:
        assert self.rule is not None
        self.auction_rules.append(self.rule.id)
        self._file(PhaseKind.AUCTION.value)

    visit_CallRule = visit_RedealIfNoBid = _auction

    def visit_ProxyCall(self, b: K.ProxyCall) -> None:
        self.proxy = b
        self._auction(b)

    def visit_Announce(self, b: K.Announce) -> None:
        if b.scope.name == "CALL":
            self._auction(b)
        else:
            self._file(PLAY)

    def visit_HighestBidderDeclares(self, b: K.HighestBidderDeclares) -> None:
        self.declarer = Declarer.HIGHEST_BIDDER
        self._file(DECLARER)

    def visit_SameBidJoins(self, b: K.SameBidJoins) -> None:
        self._file(DECLARER)

    visit_HoldBid = _auction

    def visit_PartnerHolds(self, b: K.PartnerHolds) -> None:
        assert self.rule is not None
        self.partner_rules.append(self.rule.id)
        self._file(DECLARER)

    def visit_PartnerAccepts(self, b: K.PartnerAccepts) -> None:
        # read in the auction (who may accept), settled with the declarer (the partner)
        self._file(DECLARER)

    def visit_SetAside(self, b: K.SetAside) -> None:
        assert self.rule is not None
        self.set_asides.setdefault(b.stage, []).append((self.rule.id, b))
        if not any(x.seen is Seen.ASIDE for x in self.sights):
            self.sights.append(Sight(Seen.ASIDE, Audience.OWNER, "while they lie aside",
                                     self.rule.id))
        self._file(PhaseKind.SET_ASIDE.value)

    def visit_Decide(self, b: K.Decide) -> None:
        assert self.rule is not None
        self.decide = (self.rule.id, b)
        self._file(PhaseKind.DECIDE.value)

    # -- the play --------------------------------------------------------------------------
    def visit_TrickPlay(self, b: K.TrickPlay) -> None:
        assert self.rule is not None
        self.trick_play = (self.rule.id, b)
        self._file(PLAY)

    def _play(self, b: K.Construct) -> None:
        self._file(PLAY)

    def visit_FaceDown(self, b: K.FaceDown) -> None:
        assert self.rule is not None
        self.sights.append(Sight(Seen.FACE_DOWN, Audience.PLAYER_AND_NAMED,
                                 "until its trick is turned face up", self.rule.id))
        self._file(PLAY)

    visit_PlayRule = visit_AlwaysPlayable = visit_PlayableAside = _play
    visit_SitsOut = visit_NameSuit = visit_DeclarationRule = _play

    def _trick(self, b: K.Construct) -> None:
        self._file(TRICK)

    visit_CountsAsSuit = visit_WinningTier = visit_RecordTricks = _trick

    def visit_Update(self, b: K.Update) -> None:
        self._file(TRICK if b.at is K.Moment.TRICK_END else PLAY)

    # -- the score and the session -----------------------------------------------------
    def _score(self, b: K.Construct) -> None:
        self._file(SCORE)

    visit_TrickValue = visit_CardPoints = visit_ScoreRule = visit_TrickScores = _score

    def _session(self, b: K.Construct) -> None:
        self._file(SESSION)

    def visit_DealerRotation(self, b: K.DealerRotation) -> None:
        self.dealer_steps = b.steps
        self._file(SESSION)

    visit_GameTarget = visit_AfterGame = visit_GameBonus = _session
    visit_Rubber = visit_RubberSettlement = visit_MatchOf = visit_MatchTarget = _session
    visit_Pot = _session
    visit_MatchLength = _session

    def visit_Claim(self, b: K.Claim) -> None:
        self._file(STATED)


def lower(game: Game) -> DealProgram:
    """The deal program of a game (see the module's docstring)."""
    return Lowering(game).run()


__all__ = ["Actor", "Audience", "DealProgram", "Declarer", "Lowering", "PackBetweenDeals",
           "Phase", "PhaseKind", "Seen", "Sides", "Sight", "lower"]
