"""Deal records: a played deal as JSON-ready data, and its replay through the engine.

A record lists the hands, every action in order with its seat, each trick's cards and
winner, the contract, the points taken and the scores.  Deals thrown in because nobody
bid come first, each with its hands and calls.  ``replay`` re-runs a record through the
engine and reports the first step where the record and the rules disagree.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spec.cards import CardSet
from spec.dsl._build import Game, suit_from_code
from spec.dsl._nodes import NO_SUIT
from spec.engine import (
    Action,
    Call,
    Lay,
    Phase,
    Play,
    State,
    TrickRecord,
    engine_for,
    parse_action,
)
from spec.errors import IllegalActionError, NotationError
from spec.registry import find_game

__all__ = ["FORMAT", "RecordError", "to_record", "replay", "ReplayReport", "hands_text",
           "hands_from_text", "json_kind"]

FORMAT = "trickspec-record/1"


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
        if isinstance(action, Call):
            kind = "call"
        elif isinstance(action, Play):
            kind = "play"
        elif isinstance(action, Lay):
            kind = "lay"
        else:
            kind = "announce"
        out.append({"seat": t.name(seat), kind: str(action)})
    return out


def hands_text(game: Game, hands: Sequence[int]) -> dict[str, str]:
    """Hands as records write them: each seat's name to its cards (``"AS 5S JK"``)."""
    return {game.table.name(s): str(CardSet(game.deck, h)) for s, h in enumerate(hands)}


def to_record(state: State) -> dict[str, Any]:
    """The record of a deal (finished or not) as JSON-ready data."""
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
        "thrown_in": [
            {"hands": hands_text(game, d.dealt),
             "actions": _actions(game, d.log), "reason": d.reason,
             "dealer": t.name(d.dealer)}
            for d in state.thrown_in
        ],
        "hands": hands,
        "actions": _actions(game, state.log),
        "contract": None if state.contract < 0 else {
            "bid": str(game.ladder[state.contract]), "declarer": t.name(state.declarer)},
        "tricks": [_trick(game, r) for r in state.tricks],
        "points": {t.name(s): eng.points(state, s) for s in t.seats},
        "scores": None if state.scores is None else {t.name(s): x for s, x in enumerate(state.scores)},
    }
    if state.lines:  # a score sheet with several lines: each seat's score on each
        out["lines"] = {line: {t.name(s): x for s, x in enumerate(col)}
                        for line, col in zip(eng.lines, state.lines)}
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


@dataclass
class ReplayReport:
    """What a replay found: ``ok``, or the first step at which the record is wrong."""

    ok: bool
    message: str
    state: State | None = None


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise RecordError(f"the record has no {key!r} field (see 'trickspec play --json')")
    if not isinstance(data[key], kind):
        raise RecordError(f"the record's {key!r} field has the wrong type")
    return data[key]


def hands_from_text(game: Game, data: Any) -> tuple[int, ...]:
    """Hands as records write them (see :func:`hands_text`), read and checked against the
    deal rule.

    Raises:
        RecordError: not a map of seats to cards.
        NotationError: a bad seat or card, or hands that do not share out the deck.
    """
    t = game.table
    if not isinstance(data, dict):
        raise RecordError("'hands' must map each seat to its cards, e.g. {\"Forehand\": \"AS 5S ...\"}")
    masks = [0] * game.players
    for name, text in data.items():
        seat = t.parse_seat(name)
        if not isinstance(text, str):
            raise RecordError(f"the hand of {name} must be a string of cards")
        masks[seat] = CardSet.parse(text, game.deck).mask
    engine_for(game).check_hands(masks)
    return tuple(masks)


def replay(data: Any) -> ReplayReport:
    """Re-run a record through the engine.

    Returns:
        A report: ``ok`` when every step, trick and score agrees with the rules.

    Raises:
        RecordError: the record is malformed (a missing field, bad notation).
        NotationError: the game or a variant is unknown.
    """
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object (see 'trickspec play --json')")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a trickspec record: format should be {FORMAT!r}")
    game = find_game(_need(data, "game", str))
    variants = _need(data, "variants", list)
    if variants:
        game = game.with_variants(*variants)
    eng = engine_for(game)
    t = game.table
    seed = _need(data, "seed", int)
    dealer = t.parse_seat(_need(data, "dealer", str))
    thrown = _need(data, "thrown_in", list)
    if thrown and isinstance(thrown[0], dict) and isinstance(thrown[0].get("dealer"), str):
        dealer = t.parse_seat(thrown[0]["dealer"])  # a deal thrown in may pass the deal on
    deals = list(_need(data, "thrown_in", list)) + [{"hands": data.get("hands"),
                                                     "actions": _need(data, "actions", list)}]
    step = 0
    state: State | None = None
    for d_index, deal in enumerate(deals):
        if not isinstance(deal, dict):
            raise RecordError("each thrown-in deal must be an object with hands and actions")
        hands = hands_from_text(game, deal.get("hands"))
        if state is None:
            state = eng.start(hands, dealer=dealer, seed=seed)
        elif state.dealt != hands:
            return ReplayReport(False, f"deal {d_index + 1}: the record's hands are not the ones "
                                f"the redeal from seed {seed} gives", state)
        actions = deal.get("actions")
        if not isinstance(actions, list):
            raise RecordError("'actions' must be a list")
        tricks_seen = len(state.tricks)
        for a in actions:
            step += 1
            kinds = [k for k in ("call", "play", "lay", "announce") if k in a] if isinstance(a, dict) else []
            if not isinstance(a, dict) or "seat" not in a or len(kinds) != 1:
                raise RecordError(f"step {step}: an action is an object with 'seat' and one of "
                                  "'call', 'play', 'lay' or 'announce'")
            seat = t.parse_seat(a["seat"])
            if state.phase is Phase.OVER:
                return ReplayReport(False, f"step {step}: the deal is already over", state)
            if seat != state.turn:
                return ReplayReport(False, f"step {step}: the record has {t.name(seat)} act, but "
                                    f"it is {t.name(state.turn)}'s turn", state)
            text = a[kinds[0]]
            try:
                action = parse_action(state, str(text))
                state = eng.apply(state, action)
            except IllegalActionError as e:
                return ReplayReport(False, f"step {step}: {t.name(seat)} {text}: {e}", state)
            except NotationError as e:
                return ReplayReport(False, f"step {step}: {e}", state)
            if len(state.tricks) > tricks_seen and d_index == len(deals) - 1:
                tricks_seen = len(state.tricks)
                mismatch = _compare_trick(game, state.tricks[-1], data.get("tricks"), step)
                if mismatch:
                    return ReplayReport(False, mismatch, state)
        if d_index < len(deals) - 1 and state.redeals != d_index + 1:
            return ReplayReport(False, f"deal {d_index + 1}: after its calls the deal is not "
                                "thrown in", state)
    assert state is not None
    if state.phase is not Phase.OVER:
        return ReplayReport(False, f"the record stops after step {step}, before the deal is over",
                            state)
    expect = {t.name(s): x for s, x in enumerate(state.scores or ())}
    if data.get("scores") != expect:
        return ReplayReport(False, f"scores: the record says {data.get('scores')}, the rules give "
                            f"{expect}", state)
    if "lines" in data:
        lines = to_record(state).get("lines")
        if data["lines"] != lines:
            return ReplayReport(False, f"lines of the score sheet: the record says "
                                f"{data['lines']}, the rules give {lines}", state)
    contract = {"bid": str(game.ladder[state.contract]), "declarer": t.name(state.declarer)}
    if data.get("contract") != contract:
        return ReplayReport(False, f"contract: the record says {data.get('contract')}, the rules "
                            f"give {contract}", state)
    if isinstance(data.get("tricks"), list) and len(data["tricks"]) != len(state.tricks):
        return ReplayReport(False, f"the record lists {len(data['tricks'])} tricks; the deal has "
                            f"{len(state.tricks)}", state)
    return ReplayReport(True, f"confirmed: {game.name}, seed {seed}, {step} actions, "
                        f"{len(state.tricks)} tricks, scores "
                        + ", ".join(f"{k} {v:+d}" for k, v in expect.items()), state)


def _compare_trick(game: Game, rec: TrickRecord, tricks: Any, step: int) -> str | None:
    if not isinstance(tricks, list) or len(tricks) < rec.number:
        return f"step {step}: trick {rec.number} is missing from the record's tricks"
    want = _trick(game, rec)
    got = tricks[rec.number - 1]
    if not isinstance(got, dict):
        return f"step {step}: trick {rec.number} in the record is not an object"
    if got.get("cards") != want["cards"]:
        return (f"step {step}: trick {rec.number}: the record lists {got.get('cards')}, but the "
                f"cards played were {want['cards']}")
    if got.get("winner") != want["winner"]:
        return (f"step {step}: trick {rec.number}: the record gives it to {got.get('winner')}, "
                f"the rules give it to {want['winner']}")
    return None
