"""How a deal runs, as steps over a declared state: the step program.

The deal program (:mod:`spec.dsl._program`) lists a deal's phases, each opened by the
construct of a rule.  :func:`lower_steps` writes those phases as *steps*: each step names
the phase the state shows while it runs, the condition under which it takes place, its
effects as it begins (pairs of a declared field and the expression that gives its new
value), who acts, the rules that judge an action, when it ends and the step that follows.
A kind of phase survives only as the *block* that writes its steps (:data:`BLOCKS`), the
way an ``FSM`` survives as the switch it was lowered to.  The engine's course, its calls,
its card steps, the settling of the contract, the choices among named options (a
``Decide`` rule's, the defenders' choice to play or drop out) and a card played to a trick
run from the steps, and so does the fast playout of the cards; every Z3 encoding still
reads the phases.

The state the steps read and write is declared as data (:data:`STATE`): the places cards
lie in, the counters of the auction and the play, and the sets of seats.  Expressions over
it (:class:`Get`, :class:`Lit`, :class:`Stated`, :class:`SeatFrom` ...) are plain data, like
the rules language's nodes; the engine generates Python from them (``spec.engine._source``)
for its per-action path and its fast playouts alike.

Effects are applied in the order they are listed, each reading the state the effects before
it left, so that a step says in one place what its entry does.

>>> from spec.registry import GAMES
>>> [s.name for s in GAMES["304"].steps]
['auction', 'set aside', 'auction (stage 2)', 'set aside (stage 2)', 'settle', 'decide', 'play']
>>> str(GAMES["vint"].steps[-1].actor), GAMES["vint"].steps[-1].next
('turn', None)
"""
from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._nodes import NO_SUIT, Expr
from spec.dsl._program import DealProgram, Phase, PhaseKind

if TYPE_CHECKING:
    from spec.dsl._build import Game


# -- the declared state -------------------------------------------------------------------
class FieldKind(enum.Enum):
    """What a field of the deal's state holds."""

    PLACE = "cards (a set of cards, or one per seat)"
    COUNTER = "a number (a count, a seat or a bid)"
    SEATS = "a set of seats"
    FLAG = "yes or no"
    PHASE = "the phase under way"
    RECORD = "the rules that took effect, in order"


@dataclass(frozen=True)
class Field:
    """One declared part of a deal's state."""

    name: str
    kind: FieldKind
    per_seat: bool
    meaning: str


STATE: tuple[Field, ...] = (
    Field("phase", FieldKind.PHASE, False, "the phase under way"),
    Field("hands", FieldKind.PLACE, True, "the cards each seat holds"),
    Field("pending", FieldKind.PLACE, True, "the cards each seat is dealt in a later stage"),
    Field("talon", FieldKind.PLACE, False, "the cards dealt to the table, face down"),
    Field("aside", FieldKind.PLACE, True, "the cards each seat laid aside"),
    Field("trick", FieldKind.RECORD, False,
          "the cards played to the trick under way, each with the suit it names"),
    Field("taken", FieldKind.PLACE, True, "the cards of the tricks each seat won"),
    Field("turn_up", FieldKind.PLACE, False, "the card dealt face up"),
    Field("turn", FieldKind.COUNTER, False, "the seat to act"),
    Field("stage", FieldKind.COUNTER, False, "the dealing stage under way"),
    Field("standing", FieldKind.COUNTER, False, "the standing bid"),
    Field("high_bidder", FieldKind.COUNTER, False, "the seat that made the standing bid"),
    Field("high_namer", FieldKind.COUNTER, False, "the seat that named the standing bid"),
    Field("stage_calls", FieldKind.COUNTER, False, "the calls made in this stage"),
    Field("passes_in_row", FieldKind.COUNTER, False, "the passes since the last bid"),
    Field("seat_calls", FieldKind.COUNTER, True, "the calls each seat made in this stage"),
    Field("stage_bid", FieldKind.FLAG, False, "whether anyone bid in this stage"),
    Field("passed", FieldKind.SEATS, False, "the seats that passed in this stage"),
    Field("declarer", FieldKind.COUNTER, False, "the declarer"),
    Field("leader", FieldKind.COUNTER, False, "the seat that leads to the trick"),
    Field("idle", FieldKind.COUNTER, False, "the seat idle for the deal"),
    Field("declarers", FieldKind.SEATS, False, "the seats that declare"),
    Field("absent", FieldKind.SEATS, False, "the seats out of the play"),
    Field("discards", FieldKind.PLACE, False, "the cards the declarer discarded"),
    Field("calls", FieldKind.RECORD, False, "the calls made, each with its seat"),
    Field("log", FieldKind.RECORD, False, "every action of the deal, each with its seat"),
    Field("proxy", FieldKind.COUNTER, False, "the seat whose partner calls in its place"),
    Field("joined", FieldKind.SEATS, False, "the seats that joined the standing bid"),
    Field("accepter", FieldKind.COUNTER, False, "the seat that accepted the standing bid"),
    Field("trump", FieldKind.COUNTER, False, "the trump suit"),
    Field("contract", FieldKind.COUNTER, False, "the contract (a bid's number)"),
    Field("partner", FieldKind.COUNTER, False, "the declarer's partner"),
    Field("out", FieldKind.COUNTER, False, "the seat sitting out of the play"),
    Field("tracked", FieldKind.RECORD, False, "the values the rules keep through a deal"),
    Field("fired", FieldKind.RECORD, False, "the rules that took effect"),
    Field("dealt", FieldKind.PLACE, True, "the cards each seat was dealt, every stage"),
    Field("won", FieldKind.COUNTER, True, "the tricks each seat won, a bit per trick"),
    Field("trick_number", FieldKind.COUNTER, False, "the trick under way"),
    Field("dropped", FieldKind.SEATS, False, "the defenders who dropped out of the play"),
    Field("folded", FieldKind.PLACE, False, "the cards of the hands laid down"),
    Field("host", FieldKind.COUNTER, False, "the defender who may invite another back"),
    Field("guest", FieldKind.COUNTER, False, "the defender invited back into the play"),
    Field("chosen", FieldKind.RECORD, False, "the choices made in turn, each with its seat"),
    Field("led_suit", FieldKind.COUNTER, False, "the suit led to the trick under way"),
    Field("faces", FieldKind.RECORD, False, "whether each card of the trick lies face down"),
    Field("tricks", FieldKind.RECORD, False, "the record of each trick played"),
)
FIELDS = {f.name: f for f in STATE}


# -- expressions over the state -----------------------------------------------------------
class Value:
    """An expression over the declared state (plain data; the back ends interpret it)."""


@dataclass(frozen=True)
class Get(Value):
    """The value of a declared field."""

    field: str

    def __post_init__(self) -> None:
        assert self.field in FIELDS, f"no field {self.field!r} is declared"

    def __str__(self) -> str:
        return self.field


@dataclass(frozen=True)
class Lit(Value):
    """A constant (``per_seat``: the same value for every seat)."""

    value: Any
    per_seat: bool = False

    def __str__(self) -> str:
        return f"{self.value} for each seat" if self.per_seat else str(self.value)


@dataclass(frozen=True)
class Stated(Value):
    """An expression a rule states, judged in the deal's state.  ``scope`` says which of a
    rule language's scopes it is written in: ``call`` (the auction's), ``status`` (the
    state between actions)."""

    expr: Expr
    scope: str
    name: str  # a name for the compiled function, and for the reader
    rule: str | None = None
    # the values of the scope's inputs beyond the state (a card's, a trick's), by name
    given: tuple[tuple[str, Value], ...] = ()

    def __str__(self) -> str:
        return self.name.replace("_", " ") + (f" ({self.rule})" if self.rule else "")


@dataclass(frozen=True)
class SeatFrom(Value):
    """The first seat, from ``seat`` on (counted round the table) and in the order of play,
    that is none of ``skip`` and not in the seat set ``outside``: written once, the turn
    order every back end reads."""

    seat: Value
    skip: tuple[Value, ...] = ()
    outside: Value | None = None  # a set of seats passed over too
    otherwise: Value | None = None  # the value where every seat is passed over (None: none)

    def __str__(self) -> str:
        past = [*map(str, self.skip), *([f"the seats of {self.outside}"] if self.outside else [])]
        return (f"the seat from {self.seat}" + (f", past {', '.join(past)}" if past else "")
                + (f" (else {self.otherwise})" if self.otherwise is not None else ""))


@dataclass(frozen=True)
class Share(Value):
    """Per seat: the cards of dealing stage ``stage`` still to come to it (the lowest of its
    pending cards, as many as the stage's packets give; every pending card in the last)."""

    stage: int

    def __str__(self) -> str:
        return f"the cards of stage {self.stage}"


@dataclass(frozen=True)
class Joined(Value):
    """Per seat, the cards of both."""

    a: Value
    b: Value

    def __str__(self) -> str:
        return f"{self.a} with {self.b}"


@dataclass(frozen=True)
class Less(Value):
    """Per seat, the cards of ``a`` not in ``b``."""

    a: Value
    b: Value

    def __str__(self) -> str:
        return f"{self.a} less {self.b}"


@dataclass(frozen=True)
class Only(Value):
    """Per seat: ``cards`` for ``seat``, no card for the others."""

    seat: Value
    cards: Value

    def __str__(self) -> str:
        return f"{self.cards} at {self.seat}"


@dataclass(frozen=True)
class Acted(Value):
    """The card of the action being applied (a set of one card)."""

    def __str__(self) -> str:
        return "the card"


@dataclass(frozen=True)
class At(Value):
    """The cards of a per-seat place that one seat has."""

    place: Value
    seat: Value

    def __str__(self) -> str:
        return f"{self.place} of {self.seat}"


@dataclass(frozen=True)
class Count(Value):
    """How many cards (or seats) a set holds."""

    cards: Value

    def __str__(self) -> str:
        return f"the number of {self.cards}"


@dataclass(frozen=True)
class AtLeast(Value):
    """Whether ``a`` is at least ``b``."""

    a: Value
    b: Value

    def __str__(self) -> str:
        return f"{self.a} >= {self.b}"


@dataclass(frozen=True)
class SuitOf(Value):
    """The suit of a one-card set."""

    cards: Value

    def __str__(self) -> str:
        return f"the suit of {self.cards}"


@dataclass(frozen=True)
class Bid(Value):
    """The number of the bid called (-1: a pass), in a call's effects."""

    def __str__(self) -> str:
        return "the call"


@dataclass(frozen=True)
class Local(Value):
    """A value an effect of the same action named (:class:`Let`)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class After(Value):
    """The seat after ``seat`` in the order of play (:func:`spec.seats.seat_after`)."""

    seat: Value

    def __str__(self) -> str:
        return f"the seat after {self.seat}"


@dataclass(frozen=True)
class Op(Value):
    """``a op b`` for an operator of integers and truth values: ``+ | & ^ == != >= and or``."""

    op: str
    a: Value
    b: Value

    def __post_init__(self) -> None:
        assert self.op in ("+", "|", "&", "^", "==", "!=", ">=", "and", "or"), self.op

    def __str__(self) -> str:
        return f"({self.a} {self.op} {self.b})"


@dataclass(frozen=True)
class Cond(Value):
    """``a`` where ``test`` holds, else ``b``."""

    test: Value
    a: Value
    b: Value

    def __str__(self) -> str:
        return f"{self.a} if {self.test} else {self.b}"


@dataclass(frozen=True)
class Bit(Value):
    """The set of one seat (or of one trick, by its number: ``1 << seat``)."""

    seat: Value

    def __str__(self) -> str:
        return f"{{{self.seat}}}"


@dataclass(frozen=True)
class Entry(Value):
    """The entry of a constant table (a tuple) at ``index``."""

    table: tuple[Any, ...]
    index: Value
    name: str

    def __str__(self) -> str:
        return f"{self.name}[{self.index}]"


@dataclass(frozen=True)
class PlusAt(Value):
    """A per-seat count, ``amount`` more for ``seat``."""

    place: Value
    seat: Value
    amount: int

    def __str__(self) -> str:
        return f"{self.place} + {self.amount} for {self.seat}"


@dataclass(frozen=True)
class Appended(Value):
    """A record with one more entry, the pair (``a``, ``b``)."""

    place: Value
    a: Value
    b: Value

    def __str__(self) -> str:
        return f"{self.place} and ({self.a}, {self.b})"


@dataclass(frozen=True)
class SeatsOf(Value):
    """The set of the seats of a record's entries (the first of each pair)."""

    record: Value

    def __str__(self) -> str:
        return f"the seats of {self.record}"


@dataclass(frozen=True)
class Best(Value):
    """The entry (seat, name) of a record whose name ranks highest (``ranks``: pairs of a
    name and its rank), of equal ranks the first; with ``outside`` (a set of seats), of
    the entries of the other seats, and (-1, -1) where there is none."""

    record: Value
    ranks: tuple[tuple[Any, int], ...]
    outside: Value | None = None

    def __str__(self) -> str:
        past = f" past the seats of {self.outside}" if self.outside is not None else ""
        return f"the best of {self.record}{past}"


@dataclass(frozen=True)
class Item(Value):
    """The item at ``index`` of a tuple (an entry of a record, a seat of a trick)."""

    value: Value
    index: int | Value

    def __str__(self) -> str:
        return f"{self.value}[{self.index}]"


@dataclass(frozen=True)
class Truth(Value):
    """Whether a value holds (``True`` or ``False``)."""

    value: Value

    def __str__(self) -> str:
        return f"whether {self.value}"


@dataclass(frozen=True)
class CardNo(Value):
    """The number of the card of the action being applied."""

    def __str__(self) -> str:
        return "the card's number"


@dataclass(frozen=True)
class Named(Value):
    """The suit the card of the action names (no suit: none named)."""

    def __str__(self) -> str:
        return "the suit named"


@dataclass(frozen=True)
class Played(Value):
    """The card of the action being applied with the suit it names, a pair (the entry of
    a trick)."""

    def __str__(self) -> str:
        return "the card played"


@dataclass(frozen=True)
class Strongest(Value):
    """The position, in the trick under way, of its strongest card by the game's rules of
    strength (the suit led, trumps, the trick's number and the contract as they stand), the
    first of equals."""

    def __str__(self) -> str:
        return "the position of the strongest card"


@dataclass(frozen=True)
class SeatsFrom(Value):
    """The seats, from ``seat`` on in the order of play, that are none of ``skip`` and not in
    the seat set ``outside`` (a tuple: the seats of a trick, in order)."""

    seat: Value
    skip: tuple[Value, ...] = ()
    outside: Value | None = None

    def __str__(self) -> str:
        return f"the seats in order from {self.seat}"


@dataclass(frozen=True)
class Column(Value):
    """The items at ``index`` of each pair of a record (a trick's cards, its named suits);
    ``size``: the record's length, where it is always the same."""

    record: Value
    index: int
    size: int | None = None

    def __str__(self) -> str:
        return f"{self.record}[*][{self.index}]"


@dataclass(frozen=True)
class Mask(Value):
    """The set of the cards of a tuple of card numbers."""

    cards: Value

    def __str__(self) -> str:
        return f"the cards {self.cards}"


@dataclass(frozen=True)
class Len(Value):
    """The number of entries of a record."""

    record: Value

    def __str__(self) -> str:
        return f"the length of {self.record}"


@dataclass(frozen=True)
class Padded(Value):
    """A trick's tuple filled out with ``filler`` to one item per seat."""

    items: Value
    filler: Any

    def __str__(self) -> str:
        return f"{self.items} filled with {self.filler}"


@dataclass(frozen=True)
class Added(Value):
    """A record with one more entry, ``item``."""

    record: Value
    item: Value

    def __str__(self) -> str:
        return f"{self.record} and {self.item}"


@dataclass(frozen=True)
class Finished(Value):
    """The record of the trick just complete: its number, leader, cards, named suits,
    winner, seats, face-down flags, whether it was turned up, and who saw it."""

    parts: tuple[Value, ...]

    def __str__(self) -> str:
        return f"the trick's record ({', '.join(map(str, self.parts))})"


@dataclass(frozen=True)
class Held(Value):
    """Whether a seat but ``but`` (-1: none) has a card of a per-seat place."""

    place: Value
    but: Value

    def __str__(self) -> str:
        return f"any {self.place} of a seat but {self.but}"


def per_seat(v: Value) -> bool:
    """Whether ``v`` has a value for each seat (else one value)."""
    if isinstance(v, Get):
        return FIELDS[v.field].per_seat
    if isinstance(v, Lit):
        return v.per_seat
    if isinstance(v, Joined | Less):
        return per_seat(v.a)
    return isinstance(v, Only | Share | PlusAt)


# -- effects ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Set:
    """The field ``field`` takes the value ``value``."""

    field: str
    value: Value

    def __post_init__(self) -> None:
        assert self.field in FIELDS, f"no field {self.field!r} is declared"

    def __str__(self) -> str:
        return f"{self.field} := {self.value}"


@dataclass(frozen=True)
class Fire:
    """The rule ``rule`` is recorded as taking effect here (the state's ``fired``), or
    ``back`` actions before the last logged."""

    rule: str
    back: int = 0

    def __str__(self) -> str:
        return f"{self.rule} takes effect" + (f" ({self.back} action back)" if self.back else "")


class Judgement(enum.Enum):
    """A judgement of the rules that a step's entry makes, beyond setting fields."""

    VOID = "a rule that voids the deal is judged (the deal is dealt again if one does)"
    STATUS = ("the deal's status is judged: a rule that voids it, cards aside going back, "
              "a hand laid open")


@dataclass(frozen=True)
class Advance:
    """The step is over: the next step that takes place begins."""

    def __str__(self) -> str:
        return "the next step"


@dataclass(frozen=True)
class Over:
    """The deal is over, and scored."""

    def __str__(self) -> str:
        return "the deal is over"


@dataclass(frozen=True)
class Judge:
    """The rules make a judgement here (see :class:`Judgement`)."""

    what: Judgement

    def __str__(self) -> str:
        return self.what.value


@dataclass(frozen=True)
class Let:
    """Names a value the later effects of the same action read (:class:`Local`)."""

    name: str
    value: Value

    def __str__(self) -> str:
        return f"let {self.name} = {self.value}"


@dataclass(frozen=True)
class When:
    """The effects ``then`` where ``test`` holds, else the effects ``orelse``."""

    test: Value
    then: tuple[Any, ...]
    orelse: tuple[Any, ...] = ()

    def __str__(self) -> str:
        then = "; ".join(map(str, self.then))
        orelse = "; ".join(map(str, self.orelse))
        return f"if {self.test}: {then}" + (f"; else: {orelse}" if orelse else "")


@dataclass(frozen=True)
class Record:
    """The action is written to the deal's log, with the seat ``seat``."""

    seat: Value

    def __str__(self) -> str:
        return f"the action logged for {self.seat}"


@dataclass(frozen=True)
class Track:
    """Tracked values set (``tracked(name)``), each value read before any is set."""

    sets: tuple[tuple[str, Value], ...]

    def __str__(self) -> str:
        return "; ".join(f"tracked({name}) := {value}" for name, value in self.sets)


@dataclass(frozen=True)
class Updates:
    """Tracked values set by several rules, each rule's ``when`` and values read in the state
    before any is set: per rule, when it applies, what it sets (pairs of a tracked value's
    name and its new value) and its id, which is recorded as taking effect where it
    changed a value."""

    rules: tuple[tuple[Value, tuple[tuple[str, Value], ...], str], ...]

    def __str__(self) -> str:
        return "; ".join(f"if {when}: " + ", ".join(f"tracked({n}) := {v}" for n, v in sets)
                         for when, sets, _r in self.rules)


Effect = Set | Fire | Judge | Let | When | Record | Track | Advance | Over | Updates


@dataclass(frozen=True)
class Choice:
    """One option of a step whose action is a choice among named options: its name, when
    it is on offer (``offered``; None: always) and when it may be chosen, what choosing it
    does, and what the refusal of it says where it is on offer but may not be chosen (a
    template: ``{seat}``, the actor's name; ``{name}``, the option's)."""

    name: str
    when: Value
    effects: tuple[Effect, ...]
    rank: int = 0  # where several seats choose in turn, the highest rank wins
    offered: Value | None = None
    refused: str = "{seat} may not choose {name} here"

    def __str__(self) -> str:
        return f"{self.name} (when {self.when})"


# -- steps --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One step of a deal: the phase the state shows while it runs, whether it takes place
    (``when``: None, always), what its entry does, who acts (None: nobody; the step passes
    straight on), the rules that judge an action, when it ends and the step that follows
    (None: the deal ends with it)."""

    name: str
    phase: str | None  # the phase the state shows while it runs (None: it runs no phase)
    stage: int | None  # the dealing stage it belongs to (None: after the auction)
    opened_by: str | None  # the rule that makes it part of the deal
    action: str | None  # the kind of action it offers
    when: Stated | None = None
    enter: tuple[Effect, ...] = ()
    actor: Value | None = None
    legal: tuple[str, ...] = ()  # the ids of the rules that judge an action
    ends: Value | None = None
    next: str | None = None
    # a step whose action is a card of the actor's hand: the kind of that action (its name
    # in a record: ``lay``, ``discard``), what each action does (``Acted``: its card), and
    # the rule a card not held (or not of the deck) is refused by (None: the rules of the
    # hand alone, and a card not of the deck refused as such)
    card: str | None = None
    effects: tuple[Effect, ...] = ()
    refused_by: str | None = None
    # a step whose action is a choice among named options: the options, and the refusal
    # of an action that is no choice (``other``) or a choice of no option on offer
    # (``unknown``), each a value (template, whether the step's rule refuses it) whose
    # template reads ``{seat}`` (the actor's name), ``{action}``, ``{open}`` and
    # ``{open_or}`` (the options that may be chosen now, joined by a comma or "or") and
    # ``{offered}`` (those on offer)
    options: tuple[Choice, ...] = ()
    other: Value | None = None
    unknown: Value | None = None


Block = Callable[["_Writer", Phase], tuple[Step, ...]]


class _Writer:
    """What a block needs to write a phase's steps: the game and its deal program."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.program: DealProgram = game.program
        self.players = game.players
        # the seat that declares the standing bid: its bidder, or the partner who named it
        self.maker = Get("high_namer" if self.program.namer_declares else "high_bidder")

    def stated(self, expr: Expr | None, scope: str, name: str, rule: str | None = None
               ) -> Stated | None:
        return None if expr is None else Stated(expr, scope, name, rule)


def _staged(name: str, stage: int) -> str:
    return name + (f" (stage {stage})" if stage > 1 else "")


def auction_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """An auction stage: the round of calls opens from the seat a rule names (past the
    seat idle for the deal); a later stage first deals its cards and opens a fresh round.
    Each call is recorded, raises the standing bid or joins or accepts it or passes, and
    the turn passes on (past the seat idle for the deal) once the rule that ends the stage
    has been judged."""
    stage = phase.stage
    first = Set("turn", SeatFrom(Stated(phase.first, "call", "first_caller", phase.opened_by),  # type: ignore[arg-type]
                                 (Get("idle"),)))
    enter: tuple[Effect, ...] = (first,)  # the first stage's counters are as the deal left them
    if stage > 1:
        enter = (
            Set("hands", Joined(Get("hands"), Share(stage))),
            Set("pending", Less(Get("pending"), Share(stage))),
            Set("stage", Lit(stage)), Set("stage_calls", Lit(0)), Set("passes_in_row", Lit(0)),
            Set("seat_calls", Lit(0, per_seat=True)), Set("stage_bid", Lit(False)),
            Set("passed", Lit(0)), first)
    ends = w.stated(phase.ends_when, "call", "auction_over", phase.opened_by)
    assert ends is not None
    return (Step(_staged("auction", stage), "auction", stage, phase.opened_by, "call",
                 enter=enter, actor=Get("turn"), legal=phase.rules, ends=Local("over"),
                 effects=call_effects(w, ends)),)


def call_effects(w: _Writer, ends: Value, outside: Value | None = None) -> tuple[Effect, ...]:
    """What a call does (``Bid``: the number of the bid called, -1 for a pass), ``ends``
    judging whether the calls are over and the turn passing on past the seats of
    ``outside`` too (a set of seats; None: none).  A call a partner names in a seat's place
    (a ``ProxyCall`` rule) is that seat's own: it uses his turn, and a bid so made is his;
    the log and the seat that would declare it know who named it."""
    game, program = w.game, w.program
    proxy = program.proxy
    seat, namer, bid = Local("seat"), Get("turn"), Bid()
    caller: Value = (Cond(Op(">=", Get("proxy"), Lit(0)), Get("proxy"), Get("turn")) if proxy
                     else Get("turn"))
    effects: list[Effect] = [Let("seat", caller), Set("calls", Appended(Get("calls"), seat, bid)),
                             Set("seat_calls", PlusAt(Get("seat_calls"), seat, 1))]
    if program.proxy_counts:
        effects.append(When(Op(">=", Get("proxy"), Lit(0)),
                            (Set("seat_calls", PlusAt(Get("seat_calls"), namer, 1)),)))
    again = Op("==", bid, Get("standing"))
    raised: tuple[Effect, ...] = (Set("passes_in_row", Lit(0)), Set("stage_bid", Lit(True)))
    # a new highest bid: the seats that joined or accepted the last lose it
    new_high: tuple[Effect, ...] = (
        Set("standing", bid), Set("high_bidder", seat), Set("passes_in_row", Lit(0)),
        Set("stage_bid", Lit(True)), Set("high_namer", namer))
    if program.joinable or program.partner_by_call:
        new_high += (Set("joined", Lit(0)), Set("accepter", Lit(-1)))
    on_bid = new_high
    if program.partner_by_call:  # the same bid again, which one other seat may accept
        table = tuple(game.acceptable_bids)
        on_bid = (When(Op("and", Op("and", again, Entry(table, bid, "acceptable")),
                          Op("and", Op("==", Get("accepter"), Lit(-1)),
                             Op("!=", seat, Get("high_bidder")))),
                       (Set("accepter", seat), *raised), on_bid),)
    if program.joinable:  # the same bid again, which the rules let a seat join
        table = tuple(game.joinable_bids)
        join_rule = game.constructs(K.SameBidJoins)[0][0].id
        on_bid = (When(Op("and", again, Entry(table, bid, "joinable")),
                       (Set("joined", Op("|", Get("joined"), Bit(seat))), *raised,
                        Fire(join_rule)), on_bid),)
    effects += [
        When(Op(">=", bid, Lit(0)), on_bid,
             (Set("passes_in_row", Op("+", Get("passes_in_row"), Lit(1))),
              Set("passed", Op("|", Get("passed"), Bit(seat))))),
        Set("stage_calls", Op("+", Get("stage_calls"), Lit(1))), Record(namer),
        # the rule that ends the stage reads the state after the call, the turn not yet
        # passed on; the seat idle for the deal makes no call
        Let("over", ends), Set("turn", SeatFrom(After(seat), (Get("idle"),), outside))]
    if proxy:
        effects.append(Set("proxy", Lit(-1)))
    return tuple(effects)


def set_aside_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """Cards laid aside by the seat that would declare, after an auction stage: cards laid
    aside before go back to their owners first.  Each card laid goes from his hand to his
    cards aside (its suit is trumps where the rule says so), until he has laid the rule's
    number."""
    body = phase.body
    assert isinstance(body, K.SetAside)
    mine = Only(Get("turn"), Acted())
    effects: tuple[Effect, ...] = (Fire(phase.opened_by), Set("hands", Less(Get("hands"), mine)),
                                   Set("aside", Joined(Get("aside"), mine)))
    if body.names_trump:
        effects += (Set("trump", SuitOf(Acted())),)
    effects += (Record(Get("turn")),)
    return (Step(_staged("set aside", phase.stage), "set aside", phase.stage, phase.opened_by,
                 "lay a card of his hand aside face down",
                 when=w.stated(phase.when, "call", "sets_aside", phase.opened_by),
                 enter=(Set("hands", Joined(Get("hands"), Get("aside"))),
                        Set("aside", Lit(0, per_seat=True)), Set("turn", w.maker)),
                 actor=Get("turn"), legal=phase.rules,
                 ends=AtLeast(Count(At(Get("aside"), Get("turn"))), Lit(body.count)),
                 card="lay", effects=effects),)


def exchange_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """The declarer takes the talon into his hand, then discards the rule's number of
    cards, one at a time, from his hand."""
    body = phase.body
    assert isinstance(body, K.TakeTalon)
    return (Step("exchange", "exchange", None, phase.opened_by,
                 "discard a card of his hand face down",
                 when=w.stated(phase.when, "status", "takes_the_talon", phase.opened_by),
                 enter=(Fire(phase.opened_by),
                        Set("hands", Joined(Get("hands"), Only(Get("declarer"), Get("talon")))),
                        Set("turn", Get("declarer")), Set("talon", Lit(0))),
                 actor=Get("turn"), legal=phase.rules,
                 ends=AtLeast(Count(Get("discards")), Lit(body.discards)),
                 card="discard", refused_by=phase.opened_by,
                 effects=(Set("hands", Less(Get("hands"), Only(Get("turn"), Acted()))),
                          Set("discards", Joined(Get("discards"), Acted())),
                          Record(Get("turn")))),)


def drop_out_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """Each defender in turn, from the seat a rule names (past the declarer and the seat
    idle for the deal), chooses to play or to drop out: one who drops out lays his hand
    down and is out of the play.  After the last: where every defender dropped out, as
    the rule says (the declarer credited with every trick, no play); where one of two
    stayed and the rule lets him, he chooses to invite the other back (who takes his hand
    up again) or to play alone; then the leader is the first seat from the leader still
    in the play."""
    body = phase.body
    assert isinstance(body, K.DropOut)
    rule = phase.opened_by
    turn, every = Get("turn"), Lit((1 << w.players) - 1)
    defenders = (Get("declarer"), Get("idle"))
    first = SeatFrom(Stated(phase.first, "status", "first_defender", rule), defenders)  # type: ignore[arg-type]
    # the seats out of the play and the declarer: every seat, when nobody defends
    out_or_declarer = Op("|", Get("absent"), Bit(Get("declarer")))
    done: tuple[Effect, ...] = (Set("leader", SeatFrom(Get("leader"), outside=Get("absent"))),
                                Advance())
    after: tuple[Effect, ...] = done
    if body.invite:  # one of two stayed: he is the host
        host = SeatFrom(turn, outside=out_or_declarer)
        after = (When(Op("==", Count(Get("dropped")), Lit(1)),
                      (Let("host", host), Set("host", Local("host")), Set("turn", Local("host"))),
                      done),)
    if body.all_out is K.AllOut.DECLARER_TAKES_ALL:  # nobody defends: no play
        tricks = Lit((1 << (w.game.tricks + 1)) - 2)
        after = (When(Op("==", out_or_declarer, every),
                      (Set("won", Joined(Get("won"), Only(Get("declarer"), tricks))),
                       Set("trick_number", Lit(w.game.tricks + 1)), Over()), after),)
    chosen: tuple[Effect, ...] = (
        Let("next", SeatFrom(After(turn), defenders)),
        When(Op("!=", Local("next"), first), (Set("turn", Local("next")),), after))
    mine = At(Get("hands"), turn)
    leaves: tuple[Effect, ...] = (
        Record(turn), Fire(rule),  # type: ignore[arg-type]
        Set("dropped", Op("|", Get("dropped"), Bit(turn))),
        Set("absent", Op("|", Get("absent"), Bit(turn))),
        Set("folded", Joined(Get("folded"), mine)),
        Set("hands", Less(Get("hands"), Only(turn, mine))), *chosen)
    # the last to choose may not drop out where every other defender has, if the rule says so
    may_leave: Value = (Lit(True) if body.all_out is K.AllOut.DECLARER_TAKES_ALL
                        else Op("!=", Op("|", out_or_declarer, Bit(turn)), every))
    choosing, hosting = Op("==", Get("host"), Lit(-1)), Op("!=", Get("host"), Lit(-1))
    options = [Choice(body.stay, Lit(True), (Record(turn), *chosen), offered=choosing),
               Choice(body.leave, may_leave, leaves, offered=choosing,
                      refused="{seat} may not " + body.leave
                      + ": every other defender has dropped out")]
    wrong: Value = Lit(("{seat} must choose: {open_or}, not {action}", True))
    if body.invite:  # the guest takes his hand up again and plays
        guest, cards = Local("guest"), Local("cards")
        invites: tuple[Effect, ...] = (
            Record(turn), Fire(rule), Set("host", Lit(-1)),  # type: ignore[arg-type]
            Let("guest", SeatFrom(turn, outside=Op("^", Get("dropped"), every))),
            Let("cards", Op("&", Get("folded"), At(Get("dealt"), guest))),
            Set("guest", guest), Set("folded", Less(Get("folded"), cards)),
            Set("dropped", Less(Get("dropped"), Bit(guest))),
            Set("absent", Less(Get("absent"), Bit(guest))),
            Set("hands", Joined(Get("hands"), Only(guest, cards))), *done)
        options += [Choice(body.invite, Lit(True), invites, offered=hosting),
                    Choice(body.alone, Lit(True),
                           (Record(turn), Fire(rule), Set("host", Lit(-1)), *done),  # type: ignore[arg-type]
                           offered=hosting)]
        wrong = Cond(choosing, wrong, Lit((
            "{seat} must choose: " + body.invite + " the other defender back into the play, "
            "or " + body.alone + ", not {action}", True)))
    return (Step("drop out", "drop out", None, rule, phase.action,
                 when=w.stated(phase.when, "status", "defenders_choose", rule),
                 enter=(Set("turn", first),), actor=turn, legal=phase.rules,
                 options=tuple(options), other=wrong, unknown=wrong),)


def option_does(game: Game, rule: str) -> Callable[[K.Option, int], tuple[Effect, ...]]:
    """``does(option, back)``: what choosing ``option`` of the ``Decide`` rule ``rule``
    does, once it is the choice that counts: it sets the values it names, trumps (where a
    rule reads them) are judged again, and the rule takes effect (``back`` actions before
    the last logged).  The effects every option ends with are the same objects for all."""
    after: tuple[Effect, ...] = ()
    if game.constructs(K.TrumpIs):  # trumps named by the choice, say
        after = (Set("trump", Stated(D.trump(game), "status", "trump")),)

    def does(option: K.Option, back: int = 0) -> tuple[Effect, ...]:
        track = ((Track(tuple((name, Stated(value, "status", name))
                              for name, value in option.sets)),) if option.sets else ())
        return (*track, *after, Fire(rule, back))
    return does


def decide_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """The seat a rule names chooses one of the rule's options: the option sets the values
    it names (trumps, when a rule reads them, are judged again), and the rule takes
    effect.  Where each seat that declares chooses in turn, the choices are noted; after
    the last, the seat whose option ranks highest (the first of equals) alone declares,
    the play is seated again, and his option does what it does (the rule taking effect
    as the last choice is made)."""
    body = phase.body
    assert isinstance(body, K.Decide)
    rule = phase.opened_by

    does = option_does(w.game, rule)
    over: tuple[Effect, ...] = (Advance(), Judge(Judgement.STATUS))
    turn = Get("turn")
    effects = {o.name: (*does(o), Record(turn), *over) for o in body.options}
    if w.program.contest:
        ranks = tuple((o.name, o.rank) for o in body.options)
        winner = Local("winner")
        by_name: tuple[Effect, ...] = ()
        for o in reversed(body.options):
            by_name = (When(Op("==", Item(Local("best"), 1), Lit(o.name)), does(o, 1), by_name),)
        undecided = Op("^", Op("^", Get("declarers"), SeatsOf(Get("chosen"))),
                       Lit((1 << w.players) - 1))
        effects = {o.name: (
            Set("chosen", Appended(Get("chosen"), turn, Lit(o.name))), Record(turn),
            Let("next", SeatFrom(After(turn), outside=undecided, otherwise=Lit(-1))),
            When(Op(">=", Local("next"), Lit(0)), (Set("turn", Local("next")),), (
                Let("best", Best(Get("chosen"), ranks)), Let("winner", Item(Local("best"), 0)),
                Set("declarer", winner), Set("declarers", Bit(winner)), Set("joined", Lit(0)),
                *seat_the_play(w.game), Set("turn", winner), *by_name, *over)))
            for o in body.options}
    options = tuple(Choice(o.name, Stated(o.when, "status", f"may_choose_{o.name}", rule),
                           effects[o.name], o.rank) for o in body.options)
    return (Step("decide", "decide", None, rule, "choose",
                 when=w.stated(phase.when, "status", "chooses", rule),
                 enter=(Set("turn", Stated(phase.by, "status", "chooser", rule)),),  # type: ignore[arg-type]
                 actor=turn, legal=phase.rules, options=options,
                 other=Lit(("{seat} must first choose: {open}", False)),
                 unknown=Lit(("{seat} must choose one of: {offered}", True))),)


def play_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """The tricks: the leader of the first plays first; a rule may void the deal as soon as
    the play begins.  A card played leaves the actor's hand (or his cards aside, where a
    rule lets him play from there; face down, where a rule says so, judged on the hand
    before it leaves) for the trick; the first card of a trick sets the suit led.  The turn
    passes on in the order of play past the seats out of the play (a seat sitting out, the
    seats idle or dropped out) until it would come back to the leader: the trick is then
    complete (:func:`trick_complete`)."""
    game = w.game
    turn, seat = Get("turn"), Local("seat")
    effects: list[Effect] = [Let("seat", turn)]
    card = (("card", CardNo()), ("declared", Named()))
    updates = [(r, b) for r, b in game.constructs(K.Update) if b.at is K.Moment.CARD]  # type: ignore[attr-defined]
    if updates:  # judged on the hand before the card leaves it
        effects.append(Updates(tuple(
            (Stated(b.when, "play_card", "update", r.id, card),  # type: ignore[attr-defined]
             tuple((name, Stated(v, "play_card", name, r.id, card)) for name, v in b.sets),  # type: ignore[attr-defined]
             r.id) for r, b in updates)))
    down = game.constructs(K.FaceDown)
    if down:  # judged on the hand before the card leaves it
        effects.append(Let("down", Truth(Stated(D.face_down(game), "play_card", "face_down",
                                                down[0][0].id,
                                                (("card", CardNo()), ("declared", Named()))))))
    mine = Only(seat, Acted())
    from_hand: tuple[Effect, ...] = (Set("hands", Less(Get("hands"), mine)),)
    aside = game.constructs(K.PlayableAside)
    if aside:
        effects.append(When(Op("!=", Op("&", At(Get("hands"), seat), Acted()), Lit(0)), from_hand,
                            (Set("aside", Less(Get("aside"), mine)), Fire(aside[0][0].id))))
    else:
        effects += from_hand
    if down:
        effects += [Set("faces", Added(Get("faces"), Local("down"))),
                    When(Local("down"), (Fire(down[0][0].id),))]
    entry = (("card", CardNo()), ("declared", Named()), ("position", Lit(0)),
             ("led_suit", Lit(NO_SUIT)), ("trump", Get("trump")),
             ("trick_number", Get("trick_number")), ("contract", Get("contract")))
    skip, outside = _out_of_play(w)
    effects += [
        When(Op("==", Len(Get("trick")), Lit(0)),
             (Set("led_suit", Stated(D.entry_suit(game), "entry", "led_suit", None, entry)),)),
        Set("trick", Added(Get("trick"), Played())),
        Let("next", SeatFrom(After(seat), skip, outside)),
        When(Op("!=", Local("next"), Get("leader")),
             (Set("turn", Local("next")), Record(seat)), trick_complete(w))]
    return (Step("play", "play", None, phase.opened_by, "play a card",
                 enter=(Set("turn", Get("leader")), Judge(Judgement.VOID)),
                 actor=turn, legal=phase.rules, effects=tuple(effects)),)


def _out_of_play(w: _Writer) -> tuple[tuple[Value, ...], Value | None]:
    """The seats a trick goes past, where the game has any: the seat sitting out, and the
    seats out of the play (idle, or dropped out)."""
    program = w.program
    skip: tuple[Value, ...] = (Get("out"),) if w.game.constructs(K.SitsOut) else ()
    gone = program.idle is not None or program.phase(PhaseKind.DROP_OUT) is not None
    return skip, (Get("absent") if gone else None)


def trick_complete(w: _Writer) -> tuple[Effect, ...]:
    """The trick is complete: the seat of its strongest card wins it (the first of equals,
    which the verifier proves never happens); whether it is turned face up and who saw its
    face-down cards, where a rule plays cards face down; the tracked values the rules
    update at the end of a trick; its record; the cards to the winner, who leads to the
    next; then, while cards are left (but for a seat sitting out's), the deal's status is
    judged, else the deal is over."""
    game = w.game
    seats, winner = Local("seats"), Local("winner")
    cards, names = Local("cards"), Local("names")
    skip, outside = _out_of_play(w)
    size = None if skip or outside else w.players  # every seat plays to every trick
    effects: list[Effect] = [
        Let("seats", SeatsFrom(Get("leader"), skip, outside)),
        Let("winner", Item(seats, Strongest())),
        Let("cards", Column(Get("trick"), 0, size)), Let("names", Column(Get("trick"), 1, size))]
    trick = (("number", Get("trick_number")), ("leader", Get("leader")),
             ("size", Len(Get("trick"))), ("cards", Padded(cards, len(game.deck))),
             ("named", Padded(names, NO_SUIT)), ("faces", Padded(Get("faces"), False)))
    down = game.constructs(K.FaceDown)
    revealed: Value = Lit(False)
    seen: Value = Lit(-1)
    if down:
        body = down[0][1]
        assert isinstance(body, K.FaceDown)
        effects += [Let("revealed", Truth(Stated(body.revealed_when, "trick", "revealed", None,
                                                 trick))),
                    Let("seen", Stated(body.seen_by, "status", "seen_by"))]
        revealed, seen = Local("revealed"), Local("seen")
    updates = [(r, b) for r, b in game.constructs(K.Update) if b.at is K.Moment.TRICK_END]  # type: ignore[attr-defined]
    if updates:
        effects.append(Updates(tuple(
            (Stated(b.when, "trick", "update", r.id, trick),  # type: ignore[attr-defined]
             tuple((name, Stated(v, "trick", name, r.id, trick)) for name, v in b.sets),  # type: ignore[attr-defined]
             r.id) for r, b in updates)))
    effects += [
        Set("tricks", Added(Get("tricks"), Finished((
            Get("trick_number"), Get("leader"), cards, names, winner, seats, Get("faces"),
            revealed, seen)))),
        Set("won", Joined(Get("won"), Only(winner, Bit(Get("trick_number"))))),
        Set("taken", Joined(Get("taken"), Only(winner, Mask(Column(Get("trick"), 0, size))))),
        Set("trick", Lit(())), Set("faces", Lit(())), Set("led_suit", Lit(NO_SUIT)),
        Set("trick_number", Op("+", Get("trick_number"), Lit(1))),
        Set("leader", winner), Set("turn", winner), Record(Local("seat"))]
    status = (game.constructs(K.VoidWhen) or game.constructs(K.SetAside)
              or game.constructs(K.LayOpen))
    but = Get("out") if game.constructs(K.SitsOut) else Lit(-1)  # a seat sitting out's
    left = Op("or", Held(Get("hands"), but), Held(Get("aside"), but))
    effects.append(When(left, (Judge(Judgement.STATUS),) if status else (), (Over(),)))
    return tuple(effects)


def settle_step(w: _Writer) -> Step:
    """The auction (and the cards laid aside after it) over, the contract is settled before
    any later step is judged: the standing bid, the seat that would declare it, trumps (as a
    rule states them, or the contract's strain unless a card laid aside names them), the
    seats that declare, then who plays with whom and who leads (:func:`seat_the_play`)."""
    game = w.game
    effects: list[Effect] = [Set("contract", Get("standing")), Set("declarer", w.maker)]
    if game.constructs(K.TrumpIs):
        effects.append(Set("trump", Stated(D.trump(game), "status", "trump")))
    elif not any(b.names_trump for _r, b in game.constructs(K.SetAside)):  # type: ignore[attr-defined]
        effects.append(Set("trump", Entry(game.strain_codes, Get("contract"), "strain")))
    effects.append(Set("declarers", Op("|", Bit(Get("declarer")), Get("joined"))))
    return Step("settle", None, None, None, None, enter=(*effects, *seat_the_play(game)))


def seat_the_play(game: Game) -> tuple[Effect, ...]:
    """The declarer known: his partner (the seat that accepted his bid, or as a rule forms
    him, or none: himself), the seat a rule makes sit out, and the first leader (past the
    seats out of the play)."""
    program = game.program
    partner: Value = (Stated(program.partner, "status", "partner") if program.partner is not None
                      else Get("declarer"))
    effects: list[Effect] = [
        Set("partner", Cond(Op(">=", Get("accepter"), Lit(0)), Get("accepter"), partner))]
    sits = game.constructs(K.SitsOut)
    if sits:
        rule, body = sits[0]
        effects.append(When(Stated(body.when, "status", "sits_out", rule.id),  # type: ignore[attr-defined]
                            (Let("out", Stated(body.seat, "status", "sitter", rule.id)),  # type: ignore[attr-defined]
                             Fire(rule.id)), (Let("out", Lit(-1)),)))
    else:
        effects.append(Let("out", Lit(-1)))
    play = program.phase(PhaseKind.PLAY)
    assert play is not None and play.first is not None
    first = Stated(play.first, "first_lead", "first_leader", play.opened_by)
    return (*effects, Let("leader", SeatFrom(first, outside=Get("absent"))),
            Set("out", Local("out")), Set("leader", Local("leader")),
            Set("turn", Local("leader")))


# the block that writes the steps of each kind of phase
BLOCKS: dict[PhaseKind, Block] = {
    PhaseKind.AUCTION: auction_block, PhaseKind.SET_ASIDE: set_aside_block,
    PhaseKind.EXCHANGE: exchange_block, PhaseKind.DROP_OUT: drop_out_block,
    PhaseKind.DECIDE: decide_block, PhaseKind.PLAY: play_block,
}
# the kinds of phase that come before the contract is settled
_BEFORE_CONTRACT = (PhaseKind.AUCTION, PhaseKind.SET_ASIDE)


def lower_steps(game: Game) -> tuple[Step, ...]:
    """The steps of a deal of ``game``, in order, each naming the one that follows."""
    w = _Writer(game)
    steps: list[Step] = []
    settled = False
    for phase in game.program.phases:
        own = phase.body if isinstance(phase.body, K.PhaseConstruct) else None
        if not settled and not (phase.kind in _BEFORE_CONTRACT
                                or (own is not None and own.before_contract)):
            steps.append(settle_step(w))
            settled = True
        # a phase a game writes as steps of its own: its construct's block
        steps += own.steps(w, phase) if own is not None else BLOCKS[phase.kind](w, phase)  # type: ignore[index]
    out = []
    for i, step in enumerate(steps):
        nxt = steps[i + 1].name if i + 1 < len(steps) else None
        out.append(Step(**{**step.__dict__, "next": nxt}))
    return tuple(out)


def _lines(effects: tuple[Effect, ...], indent: str = "") -> list[str]:
    """Effects as lines of text, a branch's effects indented under it."""
    out: list[str] = []
    for e in effects:
        if isinstance(e, When):
            out.append(f"{indent}if {e.test}:")
            out += _lines(e.then, indent + "    ")
            if e.orelse:
                out.append(f"{indent}else:")
                out += _lines(e.orelse, indent + "    ")
        else:
            out.append(f"{indent}{e}")
    return out


def options_text(step: Step) -> tuple[str, ...]:
    """A choice step's options, each with what it does."""
    out: list[str] = []
    for c in step.options:
        out.append(str(c))
        out += _lines(c.effects, "    ")
    return tuple(out)


def effects_text(step: Step) -> tuple[str, ...]:
    """A step's entry, one line an effect (for the docs and for readers)."""
    return tuple(_lines(step.enter))


def action_text(step: Step) -> tuple[str, ...]:
    """What each action of a step does, one line an effect."""
    return tuple(_lines(step.effects))


__all__ = ["BLOCKS", "FIELDS", "STATE", "Acted", "At", "AtLeast", "Block", "Count", "Effect",
           "Choice", "Field", "FieldKind", "Fire", "Get", "Joined", "Judge", "Judgement", "Less", "Lit",
           "Only", "SeatFrom", "Set", "Share", "Stated", "Step", "SuitOf", "Track", "Value", "seat_the_play",
           "action_text", "call_effects", "effects_text", "option_does", "lower_steps", "options_text", "per_seat"]
