"""Where the cards a seat holds may have come from, read from the steps.

A Z3 situation that starts from a free state (a trick under way, say) may assume of it only
what every deal that reaches it makes true.  One such fact is where a seat's cards came
from: in a game whose steps only ever give a seat cards dealt to it (in any stage), or give
it back its own cards laid aside, a seat holds nothing but cards dealt to it; a step that
gives the declarer the talon, or a seat cards another seat held, breaks that.  The back ends
must not know which kinds of phase do what, so the answer is read from the steps' effects
on the places of cards (:func:`hand_origins`), and whatever the reading does not recognise
counts as "any card" — an unknown source only ever weakens what a situation assumes.

>>> from spec.registry import GAMES
>>> sorted(map(str, hand_origins(GAMES["vint"])))
['dealt']
>>> sorted(map(str, hand_origins(GAMES["preference"])))
['dealt', 'the talon, to declarer']
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spec.dsl import _constructs as K
from spec.dsl import _steps as S

if TYPE_CHECKING:
    from spec.dsl._build import Game


@dataclass(frozen=True)
class Origin:
    """A source of a seat's cards: ``dealt`` (cards dealt to that seat, in any stage),
    ``talon`` (the cards dealt to no seat, given to the seat ``to`` names) or ``any``
    (a card from anywhere: what a reading cannot narrow)."""

    source: str
    to: str | None = None  # for the talon: the field that names the seat it goes to

    def __str__(self) -> str:
        return f"the talon, to {self.to}" if self.source == "talon" else self.source


DEALT, ANY = Origin("dealt"), Origin("any")
# the places of cards a seat holds in the play, per seat, and where each starts
_HELD = ("hands", "aside")
_START = {"hands": {DEALT}, "pending": {DEALT}, "aside": set(), "taken": set()}


Lets = dict[str, S.Value]


def _effects(step: S.Step) -> Iterator[tuple[S.Step, S.Effect, Lets]]:
    """Every effect of a step, its entry's, its actions' and its options', branches opened,
    each with the values the effects before it in the same action named (``Let``)."""
    for run in (step.enter, step.effects, *(c.effects for c in step.options)):
        yield from _run(step, run, {})


_MOVED = "turn moved"  # a mark among the names: the turn was set earlier in the action


def _run(step: S.Step, effects: tuple[S.Effect, ...], lets: Lets
         ) -> Iterator[tuple[S.Step, S.Effect, Lets]]:
    lets = dict(lets)
    for e in effects:
        if isinstance(e, S.When):
            for branch in (e.then, e.orelse):
                for found in _run(step, branch, lets):
                    yield found
                    if _MOVED in found[2] or (isinstance(found[1], S.Set)
                                              and found[1].field == "turn"):
                        lets = {**lets, _MOVED: S.Lit(True)}
        elif isinstance(e, S.Let):
            lets[e.name] = e.value
        else:
            yield step, e, lets
            if isinstance(e, S.Set) and e.field == "turn":
                lets = {**lets, _MOVED: S.Lit(True)}


def _dealt_to(cards: S.Value, seat: S.Value, lets: Lets) -> bool:
    """Whether ``cards`` are by their writing only cards dealt to ``seat``."""
    if _MOVED in lets:  # the seat may no longer be the one the cards were read for
        return False
    cards = lets.get(cards.name, cards) if isinstance(cards, S.Local) else cards
    if isinstance(cards, S.At):
        return cards.place == S.Get("dealt") and cards.seat == seat
    if isinstance(cards, S.Op) and cards.op == "&":
        return _dealt_to(cards.a, seat, lets) or _dealt_to(cards.b, seat, lets)
    return False


def _of(v: S.Value, step: S.Step, places: dict[str, set[Origin]], lets: Lets) -> set[Origin]:
    """Where the cards of the per-seat value ``v`` may come from (for the seat it is read
    for), ``lets`` the values the action named before: what it cannot say is :data:`ANY`."""
    if isinstance(v, S.Lit) and v.value == 0:
        return set()
    if isinstance(v, S.Get) and v.field in places:
        return places[v.field]
    if isinstance(v, S.Share):
        return places["pending"]
    if isinstance(v, S.Joined):
        return _of(v.a, step, places, lets) | _of(v.b, step, places, lets)
    if isinstance(v, S.Less):
        return _of(v.a, step, places, lets)
    if isinstance(v, S.Only):
        if (isinstance(v.cards, S.Acted) and step.card is not None and _MOVED not in lets
                and v.seat == step.actor == S.Get("turn")):
            return places["hands"]  # a card of the actor's own hand, kept as his
        if _dealt_to(v.cards, v.seat, lets):  # cards dealt to the seat, given back to it
            return {DEALT}
        if v.cards == S.Get("talon") and isinstance(v.seat, S.Get):
            return {Origin("talon", v.seat.field)}
    return {ANY}


def hand_origins(game: Game) -> frozenset[Origin]:
    """Where the cards a seat holds in the play (in hand or laid aside) may have come from,
    in a deal of ``game``."""
    return origins_of_steps(game.steps)


def origins_of_steps(steps: tuple[S.Step, ...]) -> frozenset[Origin]:
    """Where the cards a seat holds in the play (in hand or laid aside) may have come from,
    by the effects of every step on the places of cards, to a fixed point."""
    places = {name: set(start) for name, start in _START.items()}
    effects = [found for step in steps for found in _effects(step)]
    changed = True
    while changed:
        changed = False
        for step, e, lets in effects:
            if isinstance(e, S.Set) and e.field in places:
                more = _of(e.value, step, places, lets) - places[e.field]
                if more:
                    places[e.field] |= more
                    changed = True
    return frozenset(o for name in _HELD for o in places[name])


def own_steps(game: Game) -> tuple[S.Step, ...]:
    """The steps of the phases ``game`` writes as steps of its own (``PhaseConstruct``):
    what no situation's hand-written facts were made for."""
    return tuple(s for s in game.steps if s.opened_by is not None
                 and isinstance(game.rule(s.opened_by).body, K.PhaseConstruct))


_CLEARED = S.Set("aside", S.Lit(0, per_seat=True))


def _writes(step: S.Step, field: str) -> bool:
    """Whether an effect of ``step`` puts cards in ``field`` or takes some out (sending
    every card aside away is not counted)."""
    return any(isinstance(e, S.Set) and e.field == field and e != _CLEARED
               for _s, e, _l in _effects(step))


def sizes_kept(game: Game) -> bool:
    """Whether the hands are as the deal and the phases of the rules language leave them
    when the play begins: no step of a phase of the game's own changes a hand (cards
    passed, drawn or thrown away would change how many a seat holds)."""
    return not any(_writes(s, "hands") for s in own_steps(game))


def aside_cleared(game: Game) -> bool:
    """Whether no card lies aside when the play begins but as the phases of the rules
    language leave them: every step of a phase of the game's own that lays cards aside is
    followed, before the play, by a step that always takes place and whose entry first
    sends every card aside away (``aside := none``)."""
    steps = game.steps
    for step in own_steps(game):
        if _writes(step, "aside"):
            after = steps[steps.index(step) + 1:-1]
            if not any(s.when is None and _CLEARED in s.enter for s in after):
                return False
    return True


def tracked_by_own_steps(game: Game) -> frozenset[str]:
    """The tracked values a step of a phase of the game's own sets."""
    return frozenset(name for step in own_steps(game) for _s, e, _l in _effects(step)
                     if isinstance(e, S.Track) for name, _v in e.sets)


# the fields a step of a phase of the game's own may change, by what the situations assume
# of them: nothing (the seat to act and the records); the auction's counters and standing
# bid, which the call situation then leaves free and the outcome's contract reads only as
# a bid the call rules allow; the tracked values (tracked_by_own_steps); the hands and the
# cards aside, which only the trick situation reads from the steps (hand_origins,
# sizes_kept, aside_cleared), and the call situation where no card is dealt face up
_UNASSUMED = frozenset({"turn", "log", "fired", "tracked"})
_AUCTION = frozenset({"passed", "passes_in_row", "stage_calls", "seat_calls", "stage_bid",
                      "standing", "high_bidder", "high_namer", "joined", "accepter", "proxy",
                      "calls"})


def unread_change(game: Game, situation: str) -> str:
    """Why the Z3 situation ``situation`` (``call``, ``trick`` or ``outcome``) of ``game``
    cannot be stated ("" where it can): a step of a phase the game writes as steps of its
    own changes a field the situation's facts assume and do not read from the steps."""
    allowed = _UNASSUMED | _AUCTION
    if situation == "trick":
        allowed |= {"hands"} | ({"aside"} if not game.constructs(K.SetAside) else set())
    if situation == "call" and game.program.turn_up is None:
        allowed |= {"hands", "aside"}
    for step in own_steps(game):
        written = {e.field for _s, e, _l in _effects(step) if isinstance(e, S.Set)}
        extra = sorted(written - allowed)
        if extra:
            return (f"the phase {step.phase or step.name!r}, which the game writes as steps of "
                    f"its own, changes {', '.join(extra)}: the {situation} situation assumes "
                    "them and does not read them from the steps yet")
    return ""


__all__ = ["ANY", "DEALT", "Origin", "aside_cleared", "hand_origins", "origins_of_steps",
           "own_steps", "sizes_kept", "tracked_by_own_steps", "unread_change"]
