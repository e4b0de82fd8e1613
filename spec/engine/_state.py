"""The states of a deal, the actions that move them, and what one seat sees of them."""
from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from spec.cards import Card, CardSet, Suit
from spec.dsl._build import Bid, Game, Rule, suit_from_code
from spec.dsl._nodes import NO_SUIT
from spec.dsl._program import Audience, Seen
from spec.errors import NotationError

if TYPE_CHECKING:
    from spec.engine._engine import Engine


class Phase(enum.Enum):
    """The phase a deal is in: one of these, or a phase a game writes as steps of its own
    (a ``PhaseConstruct``), made a member by :meth:`own` when an engine is built for it."""

    AUCTION = "auction"
    SET_ASIDE = "set aside"
    EXCHANGE = "exchange"
    DROP_OUT = "drop out"
    DECIDE = "decide"
    PLAY = "play"
    OVER = "over"

    @classmethod
    def own(cls, name: str) -> Phase:
        """The phase called ``name``: a member made for it the first time (``Phase(name)``
        then finds it), where no member has that value."""
        found = cls._value2member_map_.get(name)
        if found is None:
            found = object.__new__(cls)
            found._name_, found._value_ = name.upper().replace(" ", "_"), name
            cls._value2member_map_[name] = found
        return found  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Call:
    """A call in the auction: a bid, or a pass (``bid=None``)."""

    bid: Bid | None = None

    def __str__(self) -> str:
        return "pass" if self.bid is None else str(self.bid)


PASS = Call(None)


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to a trick, with the suit named for it when a rule asks for one."""

    card: Card
    names: Suit | None = None

    def __str__(self) -> str:
        return f"{self.card}:{self.names.letter}" if self.names else str(self.card)


@dataclass(frozen=True, slots=True)
class Lay:
    """A card laid aside face down (a trump indicator, say)."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True, slots=True)
class Discard:
    """A card the declarer discards face down after taking the talon."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


# the actions of a step whose action is a card of the actor's hand, by their name in a record
CARD_ACTIONS: dict[str, type] = {"lay": Lay, "discard": Discard}


@dataclass(frozen=True, slots=True)
class Declare:
    """An announcement the rules allow on a turn: ``open``, ``caps``, ``partner`` ..."""

    name: str

    def __str__(self) -> str:
        return self.name


Action = Call | Play | Lay | Discard | Declare
# the call that asks the partner to call in one's place (a game with a ProxyCall rule)
ASK_PARTNER = Declare("partner")


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A finished trick: who led, the seats and cards in order of play, named suits, which
    cards went face down, whether they were turned up, and the winner."""

    number: int
    leader: int
    cards: tuple[int, ...]
    named: tuple[int, ...]
    winner: int
    seats: tuple[int, ...] = ()
    face_down: tuple[bool, ...] = ()
    revealed: bool = False
    seen_by: int = -1


@dataclass(frozen=True, slots=True)
class ThrownIn:
    """A deal that was not played out: its hands, its actions and why it ended."""

    dealt: tuple[int, ...]
    log: tuple[tuple[int, Action], ...]
    reason: str
    dealer: int = -1
    fired: tuple[tuple[int, str], ...] = ()
    later: tuple[int, ...] = ()  # in a game dealt in stages: the cards each seat got late


@dataclass(frozen=True, slots=True, eq=False)
class State:
    """One moment of a deal.  Immutable: every action makes a new state."""

    engine: Engine = field(repr=False)
    phase: Phase
    dealer: int
    seed: int
    redeals: int
    dealt: tuple[int, ...]  # hands as dealt, every stage (bitmasks), for records and honours
    hands: tuple[int, ...]
    turn: int
    calls: tuple[tuple[int, int], ...] = ()  # (whose call, bid number or -1 for pass)
    standing: int = -1
    high_bidder: int = -1
    high_namer: int = -1  # who named the standing bid: its bidder, or his partner for him
    passes_in_row: int = 0
    thrown_in: tuple[ThrownIn, ...] = ()
    contract: int = -1
    declarer: int = -1
    trump: int = NO_SUIT
    trick_number: int = 1
    leader: int = -1
    trick: tuple[tuple[int, int], ...] = ()  # (card number, named suit code)
    led_suit: int = NO_SUIT
    won: tuple[int, ...] = ()  # per seat: bit k set when the seat won trick k
    tricks: tuple[TrickRecord, ...] = ()
    scores: tuple[int, ...] | None = None
    lines: tuple[tuple[int, ...], ...] = ()  # per line of the score sheet, per seat
    # deals in stages, set-aside cards, announcements and tracked values
    stage: int = 1
    stage_calls: int = 0
    seat_calls: tuple[int, ...] = ()
    passed: int = 0  # the seats that have passed in this stage (a bit per seat)
    stage_bid: bool = False
    proxy: int = -1  # the seat whose partner is calling in its place
    pending: tuple[int, ...] = ()  # cards dealt in later stages, per seat
    # the cards of each hand that later stages deal, as the deal began (``pending`` then)
    dealt_later: tuple[int, ...] = ()
    aside: tuple[int, ...] = ()
    talon: int = 0  # the cards on the table, face down, until the declarer takes them
    discards: int = 0  # the cards the declarer discarded after taking the talon
    tracked: tuple[Any, ...] = ()
    out: int = -1  # the seat sitting out of the play
    faces: tuple[bool, ...] = ()  # face-down flags of the trick so far
    taken: tuple[int, ...] = ()  # per seat: the cards of the tricks it won
    log: tuple[tuple[int, Action], ...] = ()  # every action of this deal, with its seat
    void: str = ""  # why the deal ended without a score
    # the rules that changed the course of this deal, in order, as (number of actions
    # before, rule id): a card laid aside or played from aside, an announcement, a partner
    # calling, a decision, a card face down, a seat sitting out, a tracked value changed,
    # a void deal
    fired: tuple[tuple[int, str], ...] = ()
    turn_up: int = -1  # the card dealt face up (its number), -1 in a game without one
    # the hands laid open: (seat, the trick after which it was laid open), in order
    laid_open: tuple[tuple[int, int], ...] = ()
    # the seats out of the play: the seat idle for the whole deal, the defenders who
    # dropped out (a bit per seat), the cards those laid down, and both seat sets together
    idle: int = -1
    dropped: int = 0
    folded: int = 0
    absent: int = 0
    # sides formed during the deal: the seats that joined the standing bid in the auction
    # (SameBidJoins) and the seat that accepted it (PartnerAccepts; -1: none), and, once it
    # is over, the declarers (a bitmask of seats) and the declarer's partner (the declarer
    # himself when he plays alone)
    joined: int = 0
    accepter: int = -1
    declarers: int = 0
    partner: int = -1
    # the choices made so far where each declaring seat chooses in turn (a Decide rule
    # with each_declarer): (seat, option name), in order
    chosen: tuple[tuple[int, str], ...] = ()
    # a defender who stayed may invite one who dropped out back into the play: the seat
    # deciding whether to (the host, while he decides) and the guest
    host: int = -1
    guest: int = -1
    # the chips in the pot as the deal began (a game with a Pot; 0 otherwise)
    pot: int = 0

    @property
    def game(self) -> Game:
        return self.engine.game

    def hand(self, seat: int) -> CardSet:
        return CardSet(self.engine.game.deck, self.hands[seat])

    @property
    def declaring_seats(self) -> tuple[int, ...]:
        """The declarers, in seat order (none before the auction is over)."""
        return tuple(k for k in range(len(self.hands)) if self.declarers >> k & 1)

    @property
    def dealt_talon(self) -> int:
        """The talon as dealt (a bitmask): the cards of the pack in no hand as dealt."""
        talon = (1 << len(self.engine.game.deck)) - 1
        for h in self.dealt:
            talon &= ~h
        return talon

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def tracked_value(self, name: str) -> Any:
        return self.tracked[self.engine.tracked_index[name]]

    def __copy__(self) -> State:
        return self  # immutable: a copy is the state itself, engine and all

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self

    def view(self, seat: int) -> View:
        """What one seat knows: its own hand and everything played face up."""
        return View(self, seat)

    def __repr__(self) -> str:
        return (f"<State {self.engine.game.key} {self.phase.value} turn="
                f"{self.engine.table.name(self.turn)} trick={self.trick_number}>")


class _Unfrozen:
    """The slots of a :class:`State` without the frozen ``__setattr__``: a state being made.

    The engine makes a new state by copying the one before into this class (:func:`thaw`),
    changing the fields an action changes by plain attribute stores (the interpreter's
    fastest path), and turning the copy into a ``State`` by ``__class__`` assignment
    (:func:`freeze`), which Python allows between classes with the same slots.  The copy
    costs about a fifth of ``dataclasses.replace``, which walks the fields and sets each
    through ``object.__setattr__``.  Only the engine ever holds one of these, while it
    applies an action (or plays a deal out at speed); every state anyone sees is frozen.
    """

    __slots__ = State.__slots__


class _UnfrozenTrick:
    """The slots of a :class:`TrickRecord`, for :func:`trick_record` to fill."""

    __slots__ = TrickRecord.__slots__


def _generated(name: str, lines: list[str], **ns: Any) -> Any:
    code = compile("\n".join(lines) + "\n", f"<State:{name}>", "exec")
    exec(code, ns)  # noqa: S102  # generated from the dataclasses' own field names
    return ns[name]


# the names of the fields of a State, in order
STATE_FIELDS = tuple(f.name for f in fields(State))
# thaw(state): a working copy of every field of ``state``
thaw: Callable[[State], Any] = _generated(
    "thaw", ["def thaw(s):", "    w = _new(_Unfrozen)",
             *(f"    w.{n} = s.{n}" for n in STATE_FIELDS), "    return w"],
    _new=object.__new__, _Unfrozen=_Unfrozen)
# copy_into(w, state): every field of ``state`` into the working copy ``w``
copy_into: Callable[[Any, State], None] = _generated(
    "copy_into", ["def copy_into(w, s):", *(f"    w.{n} = s.{n}" for n in STATE_FIELDS)])
_TRICK_FIELDS = tuple(f.name for f in fields(TrickRecord))
# trick_record(number, leader, ...): a TrickRecord, all fields given in order
trick_record: Callable[..., TrickRecord] = _generated(
    "trick_record", [f"def trick_record({', '.join(_TRICK_FIELDS)}):",
                     "    r = _new(_UnfrozenTrick)",
                     *(f"    r.{n} = {n}" for n in _TRICK_FIELDS),
                     "    r.__class__ = _TrickRecord", "    return r"],
    _new=object.__new__, _UnfrozenTrick=_UnfrozenTrick, _TrickRecord=TrickRecord)


def freeze(w: Any) -> State:
    """The working copy ``w`` made a frozen :class:`State` (the same object)."""
    w.__class__ = State
    return w  # type: ignore[no-any-return]


def fired(w: Any, rule: Rule | None) -> None:
    """Note on the working copy ``w`` that ``rule`` takes effect at this point of the deal."""
    assert rule is not None
    w.fired = w.fired + ((len(w.log), rule.id),)


class View:
    """The state as one seat sees it; bots act on views only.

    A seat sees its own hand and the cards it has set aside or discarded, every call and
    announcement, and the cards of each trick, except cards played face down by others
    that only the seat allowed to inspect them sees, until a trick is turned face up.  The
    talon is face down: a seat sees how many cards it holds, never which.  Every seat sees
    the card dealt face up (the turn-up) and the cards left in a hand laid open.  The deal
    program states these (``game.program.sights``), and the view shows what they say: a
    kind of card no sight lists is shown to nobody.  The declarer's partner is known as
    the rules make him: at once when a call made him, when he plays a card that makes him
    when the cards dealt did (:attr:`partner`).
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    def _sees(self, seen: Seen, owner: int = -1, named: int = -1) -> bool:
        """Whether this seat sees cards of the kind ``seen``, held or played by ``owner``
        (and, for a card played face down, inspected by ``named``), by the program's
        sights."""
        audience = self._state.engine.audience.get(seen, Audience.NOBODY)
        if audience is Audience.EVERY_SEAT:
            return True
        if audience is Audience.OWNER:
            return self.seat == owner
        if audience is Audience.DECLARER:
            return self.seat == self._state.declarer
        if audience is Audience.PLAYER_AND_NAMED:
            return self.seat in (owner, named)
        return False

    @property
    def hand(self) -> CardSet:
        s = self._state
        return s.hand(self.seat) if self._sees(Seen.OWN_HAND, self.seat) else CardSet(s.game.deck, 0)

    @property
    def aside(self) -> CardSet:
        s = self._state
        shown = s.aside and self._sees(Seen.ASIDE, self.seat)
        return CardSet(s.game.deck, s.aside[self.seat] if shown else 0)

    @property
    def discards(self) -> CardSet:
        """The cards the declarer discarded after taking the talon, to the seats that see
        them (the declarer alone)."""
        s = self._state
        return CardSet(s.game.deck, s.discards if self._sees(Seen.DISCARDS) else 0)

    @property
    def talon_size(self) -> int:
        """How many cards lie face down on the table as the talon."""
        return self._state.talon.bit_count()

    @property
    def turn_up(self) -> Card | None:
        """The card dealt face up, which every seat sees (None in a game without one)."""
        s = self._state
        return s.game.deck[s.turn_up] if s.turn_up >= 0 and self._sees(Seen.TURN_UP) else None

    @property
    def open_hands(self) -> tuple[tuple[int, CardSet], ...]:
        """(seat, the cards it still holds) for each hand laid open, which every seat sees."""
        s = self._state
        return tuple((seat, s.hand(seat)) for seat, _after in s.laid_open
                     if self._sees(Seen.OPEN_HAND, seat))

    @property
    def partner(self) -> int | None:
        """The declarer's partner, once this seat knows who he is (the declarer himself when
        he plays alone); None while it does not.

        A partner made in the auction, by a call every seat hears, is known to all at once.
        A partner the cards dealt make (``PartnerHolds``: the holder of the ace the declarer
        lacks, say) knows it himself from his hand; the others, the declarer included, know
        once he has played one of the cards that make him face up.
        """
        s = self._state
        if s.partner < 0:
            return None
        fn = s.engine.partner_cards
        if self.seat == s.partner or fn is None or s.accepter >= 0:
            return s.partner
        making = fn(s)  # a card set, as a bitmask
        if not making:  # no rule of the cards applies: the auction made the sides
            return s.partner
        played = [cards for _n, cards, _w in self.tricks] + [self.current_trick]
        shown = any(seat == s.partner and c is not None and making >> c & 1
                    for cards in played for seat, c in cards)
        return s.partner if shown else None

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def calls(self) -> tuple[tuple[int, int], ...]:
        return self._state.calls

    @property
    def trump(self) -> Suit | None:
        """The trump suit if this seat knows it (a face-down indicator hides it from others)."""
        s = self._state
        if s.engine.trump_from_aside and any(s.aside):  # named by a card lying aside
            holder = next(k for k, a in enumerate(s.aside) if a)
            if not self._sees(Seen.ASIDE, holder):
                return None
        return suit_from_code(s.trump) if s.trump != NO_SUIT else None

    def _shown(self, seat: int, card: int, down: bool, revealed: bool, seen_by: int) -> int | None:
        if down and not revealed:
            return card if self._sees(Seen.FACE_DOWN, seat, seen_by) else None
        return card if self._sees(Seen.TRICKS, seat) else None

    @property
    def dropped(self) -> tuple[int, ...]:
        """The seats that dropped out of the play (everybody hears a defender pass)."""
        s = self._state
        return tuple(k for k in range(s.engine.n) if s.dropped >> k & 1)

    @property
    def current_trick(self) -> tuple[tuple[int, int | None], ...]:
        """(seat, card number) for each card of the trick so far; ``None``: face down, unseen."""
        s = self._state
        seats = (s.engine.trick_seats(s.leader, s.out) if not s.absent
                 else s.engine.seats_among(s.leader, s.absent))
        seen_by = s.engine.face_down_seen_by(s)
        return tuple((seats[j], self._shown(seats[j], c, bool(s.faces and s.faces[j]), False,
                                            seen_by))
                     for j, (c, _d) in enumerate(s.trick))

    @property
    def tricks(self) -> tuple[tuple[int, tuple[tuple[int, int | None], ...], int], ...]:
        """(number, ((seat, card or None), ...), winner) for every finished trick."""
        out = []
        for r in self._state.tricks:
            faces = r.face_down or (False,) * len(r.cards)
            cards = tuple((seat, self._shown(seat, c, f, r.revealed, r.seen_by))
                          for seat, c, f in zip(r.seats, r.cards, faces))
            out.append((r.number, cards, r.winner))
        return tuple(out)

    @property
    def seen_cards(self) -> CardSet:
        """Every card this seat has seen: its hand, its cards aside, the cards shown, the
        turn-up and the hands laid open."""
        mask = self.hand.mask | self.aside.mask | self.discards.mask
        if self.turn_up is not None:
            mask |= 1 << self._state.turn_up
        for _seat, held in self.open_hands:
            mask |= held.mask
        if self._state.dropped >> self.seat & 1:  # the hand it laid down
            mask |= self._state.dealt[self.seat] & self._state.folded
        for _n, cards, _w in self.tricks:
            for _seat, c in cards:
                if c is not None:
                    mask |= 1 << c
        for _seat, c in self.current_trick:
            if c is not None:
                mask |= 1 << c
        return CardSet(self._state.game.deck, mask)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(h.bit_count() for h in self._state.hands)

    def legal_actions(self) -> tuple[Action, ...]:
        if self._state.turn != self.seat:
            return ()
        return self._state.engine.legal_actions(self._state)

    @property
    def game(self) -> Game:
        """The game being played."""
        return self._state.engine.game

    @property
    def dealer(self) -> int:
        """The seat that dealt this deal, which every seat knows."""
        return self._state.dealer

    @property
    def pot(self) -> int:
        """The chips in the pot as the deal began (a game with a pot; 0 otherwise)."""
        return self._state.pot

    @property
    def log(self) -> tuple[tuple[int, Action | None], ...]:
        """Every action of this deal, with the seat that made it, as this seat knows it:
        ``None`` for a card it has not seen laid aside, discarded, or played face down.

        A call or an announcement is heard by all.  A card laid aside or discarded is known
        to the seats that see the cards aside or the discards (its owner, the declarer);
        a card played is known when this seat sees it in its trick, now.
        """
        s = self._state
        shown = [c for _n, cards, _w in self.tricks for _seat, c in cards]
        shown += [c for _seat, c in self.current_trick]
        plays = iter(shown)
        out: list[tuple[int, Action | None]] = []
        for seat, action in s.log:
            if isinstance(action, Play):
                known = next(plays, None) is not None
            elif isinstance(action, Lay):
                known = self._sees(Seen.ASIDE, seat)
            elif isinstance(action, Discard):
                known = self._sees(Seen.DISCARDS)
            else:
                known = True
            out.append((seat, action if known else None))
        return tuple(out)

    def past(self) -> tuple[View, ...]:
        """What this seat saw of the deal at every moment: its view as the deal began and
        after each action since, in order; the last is this view.

        The deal is dealt again from its hands as dealt, each split into the stages that
        dealt it, and its actions applied again.

        Raises:
            NotationError: the actions do not lead from that deal to this state (a
                position set up by hand rather than reached by play).
        """
        s = self._state
        eng = s.engine
        start = eng.start(s.dealt, dealer=s.dealer, seed=s.seed, redeals=s.redeals,
                          later=s.dealt_later or None,
                          turn_up=s.turn_up if s.turn_up >= 0 else None)
        states = [start if start.pot == s.pot else _with_pot(start, s.pot)]
        for _seat, action in s.log:
            states.append(eng.apply(states[-1], action))
        end = states[-1]
        if (end.hands, end.log, end.tricks, end.trick, end.phase) != (
                s.hands, s.log, s.tricks, s.trick, s.phase):
            raise NotationError("the deal's actions do not lead from its hands as dealt to "
                                "this position", value=len(s.log))
        return tuple(View(t, self.seat) for t in states[:-1]) + (self,)


def _with_pot(s: State, pot: int) -> State:
    """``s`` with ``pot`` chips in the pot."""
    w = thaw(s)
    w.pot = pot
    return freeze(w)
