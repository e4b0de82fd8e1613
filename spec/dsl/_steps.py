"""How a deal runs, as steps over a declared state: the step program.

The deal program (:mod:`spec.dsl._program`) lists a deal's phases, each opened by the
construct of a rule.  :func:`lower_steps` writes those phases as *steps*: each step names
the phase the state shows while it runs, the condition under which it takes place, its
effects as it begins (pairs of a declared field and the expression that gives its new
value), who acts, the rules that judge an action, when it ends and the step that follows.
A kind of phase survives only as the *block* that writes its steps (:data:`BLOCKS`): a
back end reads the steps, never the kind of phase, the way a simulator reads the switch
an ``FSM`` was lowered to and never learns that there was an FSM.

The state the steps read and write is declared as data (:data:`STATE`): the places cards
lie in, the counters of the auction and the play, and the sets of seats.  Expressions over
it (:class:`Get`, :class:`Lit`, :class:`Stated`, :class:`SeatFrom` ...) are plain data, like
the rules language's nodes; the engine interprets them (``spec.engine._course``).

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
from spec.dsl._nodes import Expr
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
    Field("trick", FieldKind.PLACE, False, "the cards played to the trick under way"),
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
    Field("fired", FieldKind.RECORD, False, "the rules that took effect"),
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

    def __str__(self) -> str:
        return self.name.replace("_", " ") + (f" ({self.rule})" if self.rule else "")


@dataclass(frozen=True)
class SeatFrom(Value):
    """The first seat, from ``seat`` on (counted round the table) and in the order of play,
    that is none of ``skip``: written once, the turn order every back end reads."""

    seat: Value
    skip: tuple[Value, ...] = ()

    def __str__(self) -> str:
        past = f", past {', '.join(map(str, self.skip))}" if self.skip else ""
        return f"the seat from {self.seat}{past}"


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
        return f"{self.cards} to {self.seat}"


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
    """The rule ``rule`` is recorded as taking effect here (the state's ``fired``)."""

    rule: str

    def __str__(self) -> str:
        return f"{self.rule} takes effect"


class Judgement(enum.Enum):
    """A judgement of the rules that a step's entry makes, beyond setting fields."""

    SETTLE = "the contract settled: its declarer, trumps, sides, who sits out and who leads"
    VOID = "a rule that voids the deal is judged (the deal is dealt again if one does)"


@dataclass(frozen=True)
class Judge:
    """The rules make a judgement here (see :class:`Judgement`)."""

    what: Judgement

    def __str__(self) -> str:
        return self.what.value


Effect = Set | Fire | Judge


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


Block = Callable[["_Writer", Phase], tuple[Step, ...]]


class _Writer:
    """What a block needs to write a phase's steps: the game and its deal program."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.program: DealProgram = game.program
        self.players = game.players
        proxy = game.constructs(K.ProxyCall)
        # the seat that declares the standing bid: its bidder, or the partner who named it
        self.maker = Get("high_namer" if proxy and proxy[0][1].namer_declares  # type: ignore[attr-defined]
                         else "high_bidder")

    def stated(self, expr: Expr | None, scope: str, name: str, rule: str | None = None
               ) -> Stated | None:
        return None if expr is None else Stated(expr, scope, name, rule)


def _staged(name: str, stage: int) -> str:
    return name + (f" (stage {stage})" if stage > 1 else "")


def auction_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """An auction stage: a later stage first deals its cards and opens a fresh round of
    calls, from the seat a rule names (past the seat idle for the deal)."""
    stage = phase.stage
    enter: tuple[Effect, ...] = ()
    if stage > 1:  # the first stage begins as the deal does
        enter = (
            Set("hands", Joined(Get("hands"), Share(stage))),
            Set("pending", Less(Get("pending"), Share(stage))),
            Set("stage", Lit(stage)), Set("stage_calls", Lit(0)), Set("passes_in_row", Lit(0)),
            Set("seat_calls", Lit(0, per_seat=True)), Set("stage_bid", Lit(False)),
            Set("passed", Lit(0)),
            Set("turn", SeatFrom(Stated(phase.first, "call", "first_caller", phase.opened_by),  # type: ignore[arg-type]
                                 (Get("idle"),))))
    return (Step(_staged("auction", stage), "auction", stage, phase.opened_by, "call",
                 enter=enter, actor=Get("turn"), legal=phase.rules,
                 ends=w.stated(phase.ends_when, "call", "auction_over", phase.opened_by)),)


def set_aside_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """Cards laid aside by the seat that would declare, after an auction stage: cards laid
    aside before go back to their owners first."""
    return (Step(_staged("set aside", phase.stage), "set aside", phase.stage, phase.opened_by,
                 "lay a card aside",
                 when=w.stated(phase.when, "call", "sets_aside", phase.opened_by),
                 enter=(Set("hands", Joined(Get("hands"), Get("aside"))),
                        Set("aside", Lit(0, per_seat=True)), Set("turn", w.maker)),
                 actor=Get("turn"), legal=phase.rules),)


def exchange_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """The declarer takes the talon into his hand, then discards."""
    return (Step("exchange", "exchange", None, phase.opened_by, "discard a card",
                 when=w.stated(phase.when, "status", "takes_the_talon", phase.opened_by),
                 enter=(Fire(phase.opened_by),
                        Set("hands", Joined(Get("hands"), Only(Get("declarer"), Get("talon")))),
                        Set("turn", Get("declarer")), Set("talon", Lit(0))),
                 actor=Get("turn"), legal=phase.rules),)


def drop_out_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """Each defender in turn, from the seat a rule names (past the declarer and the seat
    idle for the deal), chooses to play or to drop out."""
    first = Stated(phase.first, "status", "first_defender", phase.opened_by)  # type: ignore[arg-type]
    return (Step("drop out", "drop out", None, phase.opened_by, phase.action,
                 when=w.stated(phase.when, "status", "defenders_choose", phase.opened_by),
                 enter=(Set("turn", SeatFrom(first, (Get("declarer"), Get("idle")))),),
                 actor=Get("turn"), legal=phase.rules),)


def decide_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """The seat a rule names chooses one of the rule's options."""
    return (Step("decide", "decide", None, phase.opened_by, "choose",
                 when=w.stated(phase.when, "status", "chooses", phase.opened_by),
                 enter=(Set("turn", Stated(phase.by, "status", "chooser", phase.opened_by)),),  # type: ignore[arg-type]
                 actor=Get("turn"), legal=phase.rules),)


def play_block(w: _Writer, phase: Phase) -> tuple[Step, ...]:
    """The tricks: the leader of the first plays first; a rule may void the deal as soon as
    the play begins."""
    return (Step("play", "play", None, phase.opened_by, "play a card",
                 enter=(Set("turn", Get("leader")), Judge(Judgement.VOID)),
                 actor=Get("turn"), legal=phase.rules),)


def settle_step() -> Step:
    """The auction (and the cards laid aside after it) over: the contract is settled before
    any later step is judged."""
    return Step("settle", None, None, None, None, enter=(Judge(Judgement.SETTLE),))


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
        if not settled and phase.kind not in _BEFORE_CONTRACT:
            steps.append(settle_step())
            settled = True
        steps += BLOCKS[phase.kind](w, phase)
    out = []
    for i, step in enumerate(steps):
        nxt = steps[i + 1].name if i + 1 < len(steps) else None
        out.append(Step(**{**step.__dict__, "next": nxt}))
    return tuple(out)


def effects_text(step: Step) -> tuple[str, ...]:
    """A step's entry, one line an effect (for the docs and for readers)."""
    return tuple(str(e) for e in step.enter)


__all__ = ["BLOCKS", "FIELDS", "STATE", "Block", "Effect", "Field", "FieldKind", "Fire", "Get",
           "Joined", "Judge", "Judgement", "Less", "Lit", "Only", "SeatFrom", "Set", "Share",
           "Stated", "Step", "Value", "effects_text", "lower_steps"]
