"""Records: a played deal, a session for a pot, a match, as JSON-ready data, and their replay.

A deal record lists the hands, every action in order with its seat, each trick's cards and
winner, the contract, the points taken and the scores.  Deals thrown in because nobody
bid come first, each with its hands (and talon) and calls.  A session, a match or a
rubber (:mod:`spec.sheet`) lists the record of each of its deals and what they add up to.

``replay`` re-runs a deal record through the engine, ``replay_session``, ``replay_match``
and ``replay_rubber`` the deals of a series in turn, and each reports the first place
where the record and the rules disagree.  Nothing in a record goes unjudged: every field
has a declared kind (the tables ``_DEAL``, ``_SESSION``, ``_MATCH`` and ``_RUBBER`` below),
checked before the replay reads any (a field of another type, missing or unknown is a
malformed record, :class:`RecordError`); the replay then writes the record again from
the actions it applied, with the functions that write records, and every value must be
the one the file holds, of the same type (a rejected record, :class:`ReplayReport`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from spec.cards import CardSet
from spec.dsl import _constructs as K
from spec.dsl._build import Game, suit_from_code
from spec.dsl._nodes import NO_SUIT
from spec.engine import (
    Action,
    Call,
    Declare,
    Discard,
    Lay,
    Match,
    Phase,
    Play,
    PotSession,
    State,
    ThrownIn,
    TrickRecord,
    check_match_length,
    engine_for,
    parse_action,
    play_match,
    play_pot_session,
)
from spec.errors import IllegalActionError, NotationError, shown
from spec.registry import find_game
from spec.sheet import RUBBER_FORMAT, play_rubber, rubber_json

__all__ = ["FORMAT", "MATCH_FORMAT", "MAX_SEED", "RecordError", "to_record", "session_json",
           "match_json", "replay", "replay_session", "replay_match", "replay_rubber",
           "replay_record", "ReplayReport", "hands_text", "hands_from_text", "json_kind"]

FORMAT = "trickspec-record/1"  # a deal, and a session of deals for a pot
MATCH_FORMAT = "trickspec-match/1"
MAX_SEED = 10 ** 18 - 1  # seeds are whole numbers of at most 18 digits


class RecordError(NotationError):
    """A record that is not well-formed (as opposed to one the rules reject)."""


def json_kind(value: Any) -> str:
    """What kind of JSON value this is, for a message: ``a number``, ``a list``, ...

    >>> json_kind(5), json_kind(None), json_kind([]), json_kind(True)
    ('a number', 'null', 'a list', 'true')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _play_text(game: Game, card: int, named: int) -> str:
    s = str(game.deck[card])
    return s + (f":{suit_from_code(named).letter}" if named != NO_SUIT else "")  # type: ignore[union-attr]


def _actions(game: Game, log: tuple[tuple[int, Action], ...]) -> list[dict[str, str]]:
    """Every action of a deal in order: calls, cards laid aside, announcements, plays."""
    t = game.table
    out = []
    for seat, action in log:
        out.append({"seat": t.name(seat), _KIND_OF[type(action)]: str(action)})
    return out


def hands_text(game: Game, hands: Sequence[int]) -> dict[str, str]:
    """Hands as records write them: each seat's name to its cards (``"AS 5S JK"``)."""
    return {game.table.name(s): str(CardSet(game.deck, h)) for s, h in enumerate(hands)}


def _talon_text(game: Game, dealt: Sequence[int]) -> str:
    """The talon as dealt: the cards of the pack in none of the hands ``dealt``."""
    talon = (1 << len(game.deck)) - 1
    for h in dealt:
        talon &= ~h
    return str(CardSet(game.deck, talon))


def _thrown_in(game: Game, d: ThrownIn, seed: int, redeals: int, later: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": hands_text(game, d.dealt)}
    if game.program.talon_cards:
        out["talon"] = _talon_text(game, d.dealt)
    eng = engine_for(game)
    if eng.stages > 1 and d.later and (
            later or not eng.later_implied(d.dealt, d.later, seed, redeals, d.dealer)):
        out["later"] = hands_text(game, d.later)
    out.update(actions=_actions(game, d.log), reason=d.reason, dealer=game.table.name(d.dealer))
    return out


def to_record(state: State, later: bool = False) -> dict[str, Any]:
    """The record of a deal (finished or not) as JSON-ready data.  In a game dealt in
    stages, the cards each seat was dealt after the first stage are named (``later``)
    where the seed's pack does not tell them, and with ``later`` always (a record another
    implementation replays, which cannot deal the seed's pack)."""
    game = state.game
    t = game.table
    eng = state.engine
    hands = hands_text(game, state.dealt)
    out: dict[str, Any] = {
        "format": FORMAT,
        "game": game.key,
        "variants": list(game.active_variants),
        "seed": state.seed,
        "dealer": t.name(state.dealer),
        "thrown_in": [_thrown_in(game, d, state.seed, k, later)
                      for k, d in enumerate(state.thrown_in)],
        "hands": hands,
        "actions": _actions(game, state.log),
        "contract": None if state.contract < 0 else _contract(state),
        "tricks": [_trick(game, r) for r in state.tricks],
        "points": {t.name(s): eng.points(state, s) for s in t.seats},
        "scores": None if state.scores is None else {t.name(s): x for s, x in enumerate(state.scores)},
    }
    if game.program.talon_cards:
        out["talon"] = _talon_text(game, state.dealt)
    if state.turn_up >= 0:
        out["turn_up"] = str(game.deck[state.turn_up])
    if eng.stages > 1 and (later or not eng.later_implied(
            state.dealt, state.dealt_later, state.seed, state.redeals, state.dealer)):
        out["later"] = hands_text(game, state.dealt_later)
    if eng.pot_rule is not None:
        out["pot"] = state.pot
    if game.constructs(K.LayOpen):
        out["laid_open"] = [{"seat": t.name(s), "after_trick": k} for s, k in state.laid_open]
    if state.lines:  # a score sheet with several lines: each seat's score on each
        out["lines"] = {line: {t.name(s): x for s, x in enumerate(col)}
                        for line, col in zip(eng.lines, state.lines)}
    return out


def _contract(state: State) -> dict[str, Any]:
    """The contract, its declarer and, in a game whose sides form during the deal, every
    declarer and the declarer's partner (null when he plays alone)."""
    game, t = state.game, state.game.table
    out: dict[str, Any] = {"bid": str(game.ladder[state.contract]),
                           "declarer": t.name(state.declarer)}
    if game.program.several_declarers:
        out["declarers"] = [t.name(s) for s in state.declaring_seats]
    if game.program.partner is not None or game.program.partner_by_call:
        out["partner"] = None if state.partner == state.declarer else t.name(state.partner)
    return out


def _trick(game: Game, r: TrickRecord) -> dict[str, Any]:
    t = game.table
    out: dict[str, Any] = {
        "number": r.number, "leader": t.name(r.leader),
        "cards": [_play_text(game, c, d) for c, d in zip(r.cards, r.named)],
        "winner": t.name(r.winner),
    }
    if any(r.face_down):
        out["face_down"] = [str(game.deck[c]) for c, f in zip(r.cards, r.face_down) if f]
        out["turned_up"] = r.revealed
    return out


def session_json(pots: PotSession) -> dict[str, Any]:
    """The record of a session for a pot: each deal's record (with the pot it began with),
    after each deal every player's chips, the pot and whether it was filled again, and the
    players who end it with the most chips (``MatchOf``)."""
    game = pots.deals[0].game
    t = game.table
    return {"format": FORMAT, "game": game.key, "variants": list(game.active_variants),
            "ante": pots.ante, "deals": [to_record(d) for d in pots.deals],
            "chips": [{t.name(s): x for s, x in enumerate(c)} for c in pots.chips],
            "pots": list(pots.pots), "refilled": list(pots.refilled),
            "winners": [t.name(i) for i in pots.winners]}


def match_json(match: Match) -> dict[str, Any]:
    """The record of a match: its sides, each deal's record, each side's running total after
    each deal, and the sides that won."""
    game = match.deals[0].game
    t = game.table
    return {"format": MATCH_FORMAT, "game": game.key, "variants": list(game.active_variants),
            "sides": [t.side_name(s) for s in match.sides],
            "deals": [to_record(d) for d in match.deals],
            "totals": [list(x) for x in match.totals],
            "winners": [t.side_name(match.sides[i]) for i in match.winners]}


# -- the fields of records: their kinds ----------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Kind:
    """The kind of JSON value a field of a record holds, as messages name it."""

    what: str


@dataclass(frozen=True, slots=True)
class _Scalar(_Kind):
    """A string, a whole number (never true or false, never 1.0) or true/false."""

    type: type
    most: int | None = None  # the largest whole number allowed (from 0), if bounded


@dataclass(frozen=True, slots=True)
class _Const(_Kind):
    """One string and no other: a record's format."""

    value: str


@dataclass(frozen=True, slots=True)
class _List(_Kind):
    """A list of values of one kind; ``label`` names an item (``trick {}``)."""

    item: _Kind
    label: str = ""


@dataclass(frozen=True, slots=True)
class _Map(_Kind):
    """An object mapping names (seats, sides, lines) to values of one kind, ``noun``."""

    value: _Kind
    noun: str = ""


@dataclass(frozen=True, slots=True)
class _Object(_Kind):
    """An object with these fields and no others; every one but the ``optional`` present
    (those the game or the deal leaves out; the replay judges which)."""

    fields: Mapping[str, _Kind]
    optional: frozenset[str] = frozenset()
    deal: bool = False  # the record of one deal: its actions are numbered from 1


@dataclass(frozen=True, slots=True)
class _OrNull(_Kind):
    """Null, or a value of ``kind``."""

    kind: _Kind


@dataclass(frozen=True, slots=True)
class _Actions(_Kind):
    """A deal's actions: objects with ``seat`` and one of ``call``, ``play``, ``lay``,
    ``discard`` or ``announce``, numbered as steps across the deals of a record."""


def _names(noun: str, value: _Kind | None = None) -> _Map:
    return _Map(f"an object mapping names to {noun}", value or _Scalar(noun, int), noun)


_SEAT = _Scalar("a seat's name", str)
_SIDE = _Scalar("a side's name", str)
_WHOLE = _Scalar("a whole number", int)
_CARDS = _Scalar("cards", str)
_CARD_LIST = _List("a list of cards", _Scalar("a card", str))
_FLAG = _Scalar("true or false", bool)
_VARIANTS = _List("a list of variant ids", _Scalar("a variant id", str))
_GAME = _Scalar("a game's name", str)
_SEED = _Scalar("a whole number (the seed)", int, most=MAX_SEED)
_THROWN_IN = _Object("an object with 'hands' and 'actions'", {
    "hands": _names("cards", _CARDS), "talon": _CARDS, "later": _names("cards", _CARDS),
    "actions": _Actions("a list of actions"), "reason": _Scalar("a reason", str),
    "dealer": _SEAT}, optional=frozenset({"talon", "later"}))
_CONTRACT = _Object("an object with 'bid' and 'declarer'", {
    "bid": _Scalar("a bid", str), "declarer": _SEAT,
    "declarers": _List("a list of seats' names", _SEAT),
    "partner": _OrNull("null or a seat's name", _SEAT)},
    optional=frozenset({"declarers", "partner"}))
_TRICK = _Object("an object", {
    "number": _WHOLE, "leader": _SEAT, "cards": _CARD_LIST, "winner": _SEAT,
    "face_down": _CARD_LIST, "turned_up": _FLAG}, optional=frozenset({"face_down", "turned_up"}))
_LAID_OPEN = _Object("an object with 'seat' and 'after_trick'", {"seat": _SEAT,
                                                                  "after_trick": _WHOLE})

# Every field of a deal record, as :func:`to_record` writes it.  The talon, the turn-up,
# the pot, the hands laid open and the lines of the score sheet are in the record of a
# game that has them; the replay judges which.  In a game dealt in stages, ``later`` names
# the cards each seat was dealt after the first stage, where the seed's pack does not tell
# them (hands dealt by the batch back end, say)
_DEAL = _Object("a JSON object (see 'trickspec play --json')", {
    "format": _Const("the format of a deal record", FORMAT),
    "game": _GAME,
    "variants": _VARIANTS,
    "seed": _SEED,
    "dealer": _SEAT,
    "thrown_in": _List("a list of deals", _THROWN_IN, "deal {} thrown in"),
    "hands": _names("cards", _CARDS),
    "actions": _Actions("a list of actions"),
    "contract": _OrNull("null or an object with 'bid' and 'declarer'", _CONTRACT),
    "tricks": _List("a list of tricks", _TRICK, "trick {}"),
    "points": _names("whole numbers"),
    "scores": _OrNull("an object mapping names to whole numbers (or null)",
                      _names("whole numbers")),
    "talon": _CARDS,
    "turn_up": _Scalar("a card", str),
    "later": _names("cards", _CARDS),
    "pot": _Scalar("a number of chips", int),
    "laid_open": _List("a list of hands laid open", _LAID_OPEN, "hand laid open {}"),
    "lines": _Map("an object of the score sheet's lines", _names("whole numbers")),
}, optional=frozenset({"talon", "turn_up", "later", "pot", "laid_open", "lines"}), deal=True)
_DEALS = _List("a list of deal records", _DEAL, "deal {}")

# Every field of the record of a session for a pot (:func:`session_json`).
_SESSION = _Object("a JSON object (see 'trickspec play GAME --session --json')", {
    "format": _Const("the format of a session record", FORMAT),
    "game": _GAME, "variants": _VARIANTS,
    "ante": _Scalar("a number of chips", int),
    "deals": _DEALS,
    "chips": _List("a list of chips per player", _names("whole numbers"), "chips after deal {}"),
    "pots": _List("a list of pots", _Scalar("a number of chips", int)),
    "refilled": _List("a list of flags", _FLAG),
    "winners": _List("a list of seats' names", _SEAT),
})

# Every field of the record of a match (:func:`match_json`).
_MATCH = _Object("a JSON object (see 'trickspec play GAME --match --json')", {
    "format": _Const("the format of a match record", MATCH_FORMAT),
    "game": _GAME, "variants": _VARIANTS,
    "sides": _List("a list of sides' names", _SIDE),
    "deals": _DEALS,
    "totals": _List("a list of totals per side", _List("a list of whole numbers", _WHOLE),
                    "totals after deal {}"),
    "winners": _List("a list of sides' names", _SIDE),
})

# Every field of the record of a rubber (:func:`spec.sheet.rubber_json`).
_RUBBER = _Object("a JSON object (see 'trickspec play GAME --rubber --json')", {
    "format": _Const("the format of a rubber record", RUBBER_FORMAT),
    "game": _GAME, "variants": _VARIANTS, "seed": _SEED,
    "sides": _List("a list of sides' names", _SIDE),
    "entries": _List("a list of entries of the score sheet", _Object("an object", {
        "deal": _WHOLE, "side": _SIDE, "line": _Scalar("a line's name", str), "amount": _WHOLE,
        "for": _Scalar("what the entry is for", str), "game": _WHOLE}), "entry {}"),
    "games": _List("a list of games", _Object("an object", {
        "number": _WHOLE, "winner": _SIDE, "deal": _WHOLE, "trick": _WHOLE}), "game {}"),
    "totals": _Map("an object mapping sides to their totals", _names("whole numbers")),
    "winner": _OrNull("null or a side's name", _SIDE),
    "settlement": _OrNull("null or a whole number", _WHOLE),
    "deals": _DEALS,
})


_KINDS = ("call", "play", "lay", "discard", "announce")
_KIND_OF = {Call: "call", Play: "play", Lay: "lay", Discard: "discard", Declare: "announce"}
_NOUN = {"call": "a call", "play": "a card played", "lay": "a card laid aside",
         "discard": "a card discarded", "announce": "an announcement"}
_ACTION = ("an action is an object with 'seat' and one of 'call', 'play', 'lay', 'discard' or "
           "'announce'")


def _is(value: Any, kind: type) -> bool:
    """``isinstance``, except that true and false are not numbers."""
    return isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)


def _found(value: Any, kind: type) -> str:
    """What a value of the wrong type is, for a message: ``a number (50.0, not a whole
    number)`` where a whole number belongs."""
    if kind is int and isinstance(value, float):
        return f"a number ({shown(value)}, not a whole number)"
    return json_kind(value)


def _json_type(kind: _Kind) -> type:
    """The Python type of a JSON value of ``kind``."""
    if isinstance(kind, _Scalar):
        return kind.type
    if isinstance(kind, (_List, _Actions)):
        return list
    if isinstance(kind, (_Map, _Object)):
        return dict
    return str


class _Shape:
    """Checks that every field of a record is of its kind, before the replay reads any:
    a number where a list belongs, a card as an object, true for a seed, a seed of 5,000
    digits, a field missing or one no record has are malformed records (exit 2), not
    records the rules reject.  Each check raises :class:`RecordError` naming the field."""

    def __init__(self) -> None:
        self.step = 1  # the number of the next action, across the deals of a record

    def object(self, data: dict[str, Any], kind: _Object, name: str) -> None:
        """The fields of an object ``name`` (``the record``, ``the record: trick 3``)."""
        if kind.deal:
            self.step = 1
        for key in data:
            if key not in kind.fields:
                raise RecordError(f"{name} has a field no record has: {shown(key)} (see "
                                  "'trickspec play --json')")
        for key, sub in kind.fields.items():
            if key in data:
                self.value(data[key], sub, f"{name}: {key!r}", name, f"{name}'s {key}")
            elif key not in kind.optional:
                raise RecordError(f"{name} has no {key!r} field (see 'trickspec play --json')")

    def value(self, value: Any, kind: _Kind, subject: str, where: str, own: str) -> None:
        """``value`` is of ``kind``: ``subject`` names it in messages (``the record:
        'seed'``), ``where`` the object it is a field of, ``own`` the object it is."""
        if isinstance(kind, _OrNull):
            if value is None:
                return
            if not _is(value, _json_type(kind.kind)):
                raise RecordError(f"{subject} must be {kind.what}, got "
                                  f"{_found(value, _json_type(kind.kind))}")
            kind = kind.kind
        if isinstance(kind, _Const):
            if not (isinstance(value, str) and value == kind.value):
                raise RecordError(f"{subject} must be {kind.value!r}, got {shown(value)}")
            return
        if not _is(value, _json_type(kind)):
            raise RecordError(f"{subject} must be {kind.what}, got "
                              f"{_found(value, _json_type(kind))}")
        if isinstance(kind, _Scalar) and kind.most is not None and not 0 <= value <= kind.most:
            raise RecordError(f"{subject} must be a whole number from 0 to {kind.most:,}, got "
                              f"{shown(value)}")
        if isinstance(kind, _Object):
            self.object(value, kind, own)
        elif isinstance(kind, _Actions):
            self.actions(value, where)
        elif isinstance(kind, _Map):
            for name, v in value.items():
                if isinstance(kind.value, _Scalar):
                    if not _is(v, kind.value.type):
                        raise RecordError(f"{subject} must map names to {kind.noun}; "
                                          f"{shown(name)} has {_found(v, kind.value.type)}")
                else:
                    at = f"{subject}: {shown(name)}"
                    self.value(v, kind.value, at, where, at)
        elif isinstance(kind, _List):
            for k, item in enumerate(value, start=1):
                if isinstance(kind.item, _Scalar):
                    if not _is(item, kind.item.type):
                        raise RecordError(f"{subject} must be {kind.what}; item {k} is "
                                          f"{_found(item, kind.item.type)}")
                else:
                    at = f"{where}: {kind.label.format(k)}"
                    self.value(item, kind.item, at, at, at)

    def actions(self, actions: list[Any], where: str) -> None:
        for a in actions:
            at = f"{where}: step {self.step}"
            self.step += 1
            if not isinstance(a, dict):
                raise RecordError(f"{at}: {_ACTION}, got {json_kind(a)}")
            kinds = [k for k in _KINDS if k in a]
            if "seat" not in a or len(kinds) != 1:
                raise RecordError(f"{at}: {_ACTION}")
            other = [k for k in a if k not in ("seat", kinds[0])]
            if other:
                raise RecordError(f"{at}: {_ACTION}, and no other field: {shown(other[0])}")
            self.value(a["seat"], _SEAT, f"{at}: 'seat'", at, at)
            self.value(a[kinds[0]], _Scalar("an action in record notation (such as 'pass', "
                                            "'15C' or 'AS')", str), f"{at}: {kinds[0]!r}", at, at)


def _check_format(data: Any, kind: _Object, name: str) -> None:
    """A record of the format ``kind`` names, every field of its kind.

    Raises:
        RecordError: not an object, another format, or a field missing, unknown or of
            another type.
    """
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object (see 'trickspec play --json'), got "
                          f"{json_kind(data)}")
    want = kind.fields["format"]
    assert isinstance(want, _Const)
    if "format" not in data:
        raise RecordError(f"not a trickspec record: it has no 'format' field (format should be "
                          f"{want.value!r})")
    if data["format"] != want.value:
        raise RecordError(f"not a trickspec record of a format this trickspec reads: format "
                          f"{shown(data['format'])}, expected {want.value!r}")
    _Shape().object(data, kind, name)


# -- the replay ----------------------------------------------------------------------------

@dataclass
class ReplayReport:
    """What a replay found: ``ok``, or the first place at which the record is wrong."""

    ok: bool
    message: str
    state: State | None = None


class _Rejected(Exception):
    """The record and the rules disagree: where first, and the state the replay reached."""

    def __init__(self, message: str, state: State | None = None) -> None:
        super().__init__(message)
        self.message, self.state = message, state


def hands_from_text(game: Game, data: Any, whole: bool = True) -> tuple[int, ...]:
    """Hands as records write them (see :func:`hands_text`), read and checked against the
    deal rule (``whole``; else a part of each hand, the cards dealt late, say).

    Raises:
        RecordError: not a map of seats to cards.
        NotationError: a bad seat or card, a seat named twice, or hands that do not share
            out the deck.
    """
    t = game.table
    if not isinstance(data, dict):
        raise RecordError("'hands' must map each seat to its cards, e.g. {\"Forehand\": \"AS 5S ...\"}"
                          f", got {json_kind(data)}")
    masks = [0] * game.players
    named: dict[int, str] = {}
    for name, text in data.items():
        seat = t.parse_seat(name)
        if seat in named:
            raise RecordError(f"'hands' names {t.name(seat)} twice ({shown(named[seat])} and "
                              f"{shown(name)})")
        named[seat] = name
        if not isinstance(text, str):
            raise RecordError(f"the hand of {t.name(seat)} must be a string of cards, got "
                              f"{json_kind(text)}")
        masks[seat] = CardSet.parse(text, game.deck).mask
    if whole:
        engine_for(game).check_hands(masks)
    return tuple(masks)


def _same(a: Any, b: Any) -> bool:
    """Equal JSON values of the same types: 1 is not 1.0, nor true."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return bool(a == b)


def _at(where: str, what: str) -> str:
    return f"{where}: {what}" if where else what


def _compare(found: Any, expected: Any, kind: _Kind, place: str = "", where: str = "") -> None:
    """The record (``found``) holds what the rules wrote again (``expected``), value for
    value and type for type.

    Raises:
        _Rejected: at the first value that differs, named by its place in the record.
        RecordError: an object of the record lacks a field the rules write here, or has one
            they do not (the talon of a game without one, say).
    """
    if _same(found, expected):
        return
    if isinstance(kind, _OrNull) and found is not None and expected is not None:
        kind = kind.kind
    if isinstance(kind, _Object) and isinstance(found, dict) and isinstance(expected, dict):
        name = place or "the record"
        for key in expected:
            if key not in found:
                raise RecordError(f"{name} has no {key!r} field, which the rules write here "
                                  "(see 'trickspec play --json')")
        for key in found:
            if key not in expected:
                raise RecordError(f"{name} has a {key!r} field, which the rules do not write "
                                  "here (see 'trickspec play --json')")
        for key, sub in kind.fields.items():
            if key in found:
                _compare(found[key], expected[key], sub, _at(place, key), place)
    elif isinstance(kind, (_List, _Actions)) and isinstance(found, list) \
            and isinstance(expected, list) and len(found) == len(expected):
        item = kind.item if isinstance(kind, _List) else _Kind("an action")
        label = kind.label if isinstance(kind, _List) and kind.label else ""
        for k, (f, e) in enumerate(zip(found, expected), start=1):
            _compare(f, e, item, _at(where, label.format(k)) if label else f"{place} item {k}",
                     where)
    elif isinstance(found, list) and isinstance(expected, list):
        raise _Rejected(f"{place}: the record lists {len(found)}, the rules give {len(expected)}"
                        f" ({shown(found, 100)} against {shown(expected, 100)})")
    raise _Rejected(f"{place}: the record says {shown(found, 200)}, the rules give "
                    f"{shown(expected, 200)}")


def _game_of(data: dict[str, Any], game: Game | None) -> Game:
    """The game a record names, or ``game`` (whose key the record must name), with the
    record's variants in force.

    Raises:
        NotationError: the game or a variant is unknown, or the record is of another game.
    """
    if game is None:
        game = find_game(data["game"])
    elif data["game"] != game.key:
        raise NotationError(f"the record is of the game {data['game']!r}, not {game.key!r}",
                            value=data["game"])
    if data["variants"] and data["variants"] != list(game.active_variants):
        game = game.with_variants(*data["variants"])
    return game


def _play_record(state: State, data: dict[str, Any]) -> State:
    """Apply a deal record's actions from ``state``, the start of its first deal: each deal
    thrown in, then the deal played; each action must be the seat's to make, of the kind the
    record says, and legal, and each trick as the record lists it.

    Returns:
        The deal at its end.

    Raises:
        _Rejected: at the first step where the record and the rules disagree.
    """
    game, eng = state.game, state.engine
    t = game.table
    parts = [*data["thrown_in"], data]
    step = 0
    for d_index, part in enumerate(parts):
        final = d_index == len(parts) - 1
        if d_index and state.dealt != hands_from_text(game, part["hands"]):
            raise _Rejected(f"deal {d_index + 1}: the record's hands are not the ones the redeal "
                            f"from seed {state.seed} gives", state)
        tricks_seen = len(state.tricks)
        for a in part["actions"]:
            step += 1
            kind = next(k for k in _KINDS if k in a)
            seat = t.parse_seat(a["seat"])
            if state.phase is Phase.OVER:
                raise _Rejected(f"step {step}: the deal is already over", state)
            if state.redeals > d_index:
                raise _Rejected(f"step {step}: deal {d_index + 1} was thrown in after step "
                                f"{step - 1}", state)
            if seat != state.turn:
                raise _Rejected(f"step {step}: the record has {t.name(seat)} act, but it is "
                                f"{t.name(state.turn)}'s turn", state)
            text = a[kind]
            try:
                action = parse_action(state, text)
                if _KIND_OF[type(action)] != kind:
                    raise _Rejected(f"step {step}: the record gives {t.name(seat)}'s "
                                    f"{shown(text)} as {_NOUN[kind]}, but here (the "
                                    f"{state.phase.value}) it is {_NOUN[_KIND_OF[type(action)]]}",
                                    state)
                state = eng.apply(state, action)
            except IllegalActionError as e:
                raise _Rejected(f"step {step}: {t.name(seat)} {shown(text)}: {e}", state) from None
            except NotationError as e:
                raise _Rejected(f"step {step}: {e}", state) from None
            if final and len(state.tricks) > tricks_seen:
                tricks_seen = len(state.tricks)
                _compare_trick(game, state.tricks[-1], data["tricks"], step, state)
        if not final and state.redeals != d_index + 1:
            raise _Rejected(f"deal {d_index + 1}: after its calls the deal is not thrown in",
                            state)
    if state.phase is not Phase.OVER:
        raise _Rejected(f"the record stops after step {step}, before the deal is over", state)
    return state


def _compare_trick(game: Game, rec: TrickRecord, tricks: list[Any], step: int,
                   state: State) -> None:
    """The trick just complete is the one the record lists, as soon as it is complete."""
    if len(tricks) < rec.number:
        raise _Rejected(f"step {step}: trick {rec.number} is missing from the record's tricks",
                        state)
    want, got = _trick(game, rec), tricks[rec.number - 1]
    if got["cards"] != want["cards"]:
        raise _Rejected(f"step {step}: trick {rec.number}: the record lists "
                        f"{shown(got['cards'], 200)}, but the cards played were {want['cards']}",
                        state)
    if got["winner"] != want["winner"]:
        raise _Rejected(f"step {step}: trick {rec.number}: the record gives it to "
                        f"{shown(got['winner'])}, the rules give it to {want['winner']}", state)


def replay(data: Any, game: Game | None = None) -> ReplayReport:
    """Re-run a deal record through the engine: of a registered game, or of ``game`` (whose
    key the record must name).

    Every field is checked for its kind first.  The deal starts from the record's seed,
    dealer, hands (those of the first deal thrown in, if any), turn-up and pot; each action
    is applied in turn; then the record is written again from the deal the actions made,
    and every field of the file must hold what that record holds.

    Returns:
        A report: ``ok`` when every step, trick, field and score agrees with the rules.

    Raises:
        RecordError: the record is malformed (a field missing, unknown or of the wrong
            type, bad notation, a field the game does not write or one it writes missing).
        NotationError: the game or a variant is unknown.
    """
    _check_format(data, _DEAL, "the record")
    game = _game_of(data, game)
    eng = engine_for(game)
    thrown = data["thrown_in"]
    first = thrown[0] if thrown else data
    hands = hands_from_text(game, first["hands"])
    dealer = game.table.parse_seat(first["dealer"])
    up = None
    if "turn_up" in data and not thrown:  # the card dealt face up (of the one deal)
        up = game.deck.index(game.deck.parse_card(data["turn_up"]))
    later = None
    if "later" in first:  # the cards dealt after the first stage, read as the hands are
        later = hands_from_text(game, first["later"], whole=False)
        eng.check_later(hands, later)
    try:
        try:
            state = eng.start(hands, dealer=dealer, seed=data["seed"], turn_up=up, later=later)
            if "pot" in data:  # the pot the deal began with
                state = replace(state, pot=eng.checked_pot(data["pot"]))
        except NotationError as e:
            raise _Rejected(f"deal 1: {e}") from None
        state = _play_record(state, data)
        # a record that names the cards dealt late names them for every deal
        _compare(data, to_record(state, later="later" in data), _DEAL)
    except _Rejected as r:
        return ReplayReport(False, r.message, r.state)
    steps = sum(len(p["actions"]) for p in (*thrown, data))
    return ReplayReport(True, f"confirmed: {game.name}, seed {data['seed']}, {steps} actions, "
                        f"{len(state.tricks)} tricks, scores "
                        + ", ".join(f"{k} {v:+d}" for k, v in (data["scores"] or {}).items()),
                        state)


class _Follow:
    """Plays each deal of a series (a session, a match, a rubber) from the start the series
    gives it, as the deal's record says: the seed, the dealer, the hands and the pot of its
    record must be the series' own, and its actions are applied in turn."""

    def __init__(self, game: Game, deals: list[dict[str, Any]], series: str) -> None:
        if not deals:
            raise _Rejected(f"the {series} record has no deal")
        self.game, self.deals, self.series = game, deals, series
        self.played = 0
        first = deals[0]["thrown_in"][0] if deals[0]["thrown_in"] else deals[0]
        self.seed: int = deals[0]["seed"]
        self.dealer = game.table.parse_seat(first["dealer"])

    def __call__(self, start: State) -> State:
        k = self.played = self.played + 1
        if k > len(self.deals):
            raise _Rejected(f"the record stops after deal {k - 1}, before the {self.series} is "
                            "over")
        data = self.deals[k - 1]
        given = to_record(start)
        if "pot" in given and "pot" in data and not _same(data["pot"], start.pot):
            raise _Rejected(f"deal {k} begins with a pot of {shown(data['pot'])}, but the deals "
                            f"before leave {start.pot}")
        thrown = data["thrown_in"]
        first, where = (thrown[0], "deal 1 thrown in: ") if thrown else (data, "")
        for key, found in (("game", data["game"]), ("variants", data["variants"]),
                           ("seed", data["seed"]), ("dealer", first["dealer"]),
                           ("hands", first["hands"])):
            if not _same(found, given[key]):
                raise _Rejected(f"deal {k}: {where if key in ('dealer', 'hands') else ''}{key}: "
                                f"the record says {shown(found, 200)}, the {self.series} gives "
                                f"{shown(given[key], 200)}")
        try:
            return _play_record(start, data)
        except _Rejected as r:
            raise _Rejected(f"deal {k}: {r.message}", r.state) from None


def _replay_series(data: dict[str, Any], game: Game, kind: _Object, series: str,
                   run: Callable[[_Follow], tuple[dict[str, Any], Sequence[State]]]
                   ) -> ReplayReport:
    """Replay the deals of a series: ``run`` plays the series as the rules play it, each
    deal by a :class:`_Follow` of the record's deals, and gives the record the series
    writes and its deals; that record must be the file's, field for field."""
    try:
        follow = _Follow(game, data["deals"], series)
        written, deals = run(follow)
        _compare(data, written, kind)
    except _Rejected as r:
        return ReplayReport(False, r.message, r.state)
    return ReplayReport(True, f"confirmed: {game.name}, a {series} of {len(deals)} deals from "
                        f"seed {follow.seed}: every deal and every field agrees with the rules",
                        deals[-1])


def replay_session(data: Any, game: Game | None = None) -> ReplayReport:
    """Re-run a session for a pot, of a registered game or of ``game`` (whose key the
    record must carry): the deals are dealt in turn as a session deals them (seed after
    seed, the deal passed on), each begins with the pot the one before left (filled again
    by every player's ante when it was empty) and replays; then the session's record is
    written again from them and must be the file's, field for field.

    Raises:
        RecordError: the record is malformed.
        NotationError: the game or a variant is unknown, or the game keeps no pot.
    """
    _check_format(data, _SESSION, "the session record")
    game = _game_of(data, game)
    if engine_for(game).pot_rule is None:
        raise NotationError(f"{game.name} keeps no pot", value=data["game"])

    def run(follow: _Follow) -> tuple[dict[str, Any], Sequence[State]]:
        pots = play_pot_session(game, deals=len(data["deals"]), seed=follow.seed,
                                dealer=follow.dealer, play=follow)
        return session_json(pots), pots.deals
    return _replay_series(data, game, _SESSION, "session", run)


def replay_match(data: Any, game: Game | None = None) -> ReplayReport:
    """Re-run a match (``trickspec play GAME --match --json``): its deals are dealt in turn
    as a match deals them and replay, it ends where the rules end it (at the target, or
    after the number of deals the players agreed on, which the rules must allow), and the
    totals and the winners are the ones its deals make.

    Raises:
        RecordError: the record is malformed.
        NotationError: the game or a variant is unknown, or the game plays no matches.
    """
    _check_format(data, _MATCH, "the match record")
    game = _game_of(data, game)
    agreed = None
    if game.constructs(K.MatchLength) and not game.constructs(K.MatchTarget):
        agreed = len(data["deals"])  # a match of as many deals as the players agree on
        try:
            check_match_length(game, agreed)
        except NotationError as e:
            return ReplayReport(False, f"deals: {e}")

    def run(follow: _Follow) -> tuple[dict[str, Any], Sequence[State]]:
        match = play_match(game, seed=follow.seed, dealer=follow.dealer, deals=agreed,
                           play=follow)
        return match_json(match), match.deals
    return _replay_series(data, game, _MATCH, "match", run)


def replay_rubber(data: Any, game: Game | None = None) -> ReplayReport:
    """Re-run a rubber (``trickspec play GAME --rubber --json``): its deals are dealt in turn
    from the rubber's seed and replay, and the score sheet written from them (its entries,
    games, totals, winner and settlement) is the file's, to the deal the rubber ends with.

    Raises:
        RecordError: the record is malformed.
        NotationError: the game or a variant is unknown, or the game keeps no score sheet.
    """
    _check_format(data, _RUBBER, "the rubber record")
    game = _game_of(data, game)

    def run(follow: _Follow) -> tuple[dict[str, Any], Sequence[State]]:
        rubber = play_rubber(game, seed=data["seed"], dealer=follow.dealer, play=follow)
        return rubber_json(rubber), rubber.deals
    return _replay_series(data, game, _RUBBER, "rubber", run)


def replay_record(data: Any) -> ReplayReport:
    """Re-run a record of any kind trickspec writes: a match or a rubber by its format, a
    session for a pot by a field of its own (its deals, its ante, ...), else a deal.

    Raises:
        RecordError: the record is malformed.
        NotationError: the game or a variant is unknown.
    """
    if isinstance(data, dict):
        fmt = data.get("format")
        kind = fmt.split("/")[0] if isinstance(fmt, str) else ""  # any version: see replay_*
        if kind == MATCH_FORMAT.split("/")[0]:
            return replay_match(data)
        if kind == RUBBER_FORMAT.split("/")[0]:
            return replay_rubber(data)
        if (_SESSION.fields.keys() - _DEAL.fields.keys()) & data.keys():  # ante, deals, ...
            return replay_session(data)
    return replay(data)
