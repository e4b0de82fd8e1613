"""Deal records: a played deal as JSON-ready data, and its replay through the engine.

A record lists the hands, every action in order with its seat, each trick's cards and
winner, the contract, the points taken and the scores.  Deals thrown in because nobody
bid come first, each with its hands (and talon) and calls.  ``replay`` re-runs a record through the
engine and reports the first step where the record and the rules disagree.
"""
from __future__ import annotations

from collections.abc import Sequence
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
    Phase,
    Play,
    PotSession,
    State,
    ThrownIn,
    TrickRecord,
    engine_for,
    parse_action,
)
from spec.errors import IllegalActionError, NotationError, shown
from spec.registry import find_game

__all__ = ["FORMAT", "MAX_SEED", "RecordError", "to_record", "replay", "ReplayReport", "hands_text",
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


def _thrown_in(game: Game, d: ThrownIn) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": hands_text(game, d.dealt)}
    if game.program.talon_cards:
        out["talon"] = _talon_text(game, d.dealt)
    out.update(actions=_actions(game, d.log), reason=d.reason, dealer=game.table.name(d.dealer))
    return out


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
        "thrown_in": [_thrown_in(game, d) for d in state.thrown_in],
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


@dataclass
class ReplayReport:
    """What a replay found: ``ok``, or the first step at which the record is wrong."""

    ok: bool
    message: str
    state: State | None = None


MAX_SEED = 10 ** 18 - 1  # seeds are whole numbers of at most 18 digits
_KINDS = ("call", "play", "lay", "discard", "announce")
_KIND_OF = {Call: "call", Play: "play", Lay: "lay", Discard: "discard", Declare: "announce"}
_NOUN = {"call": "a call", "play": "a card played", "lay": "a card laid aside",
         "discard": "a card discarded", "announce": "an announcement"}


def _is(value: Any, kind: type) -> bool:
    """``isinstance``, except that true and false are not numbers."""
    return isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)


def _need(data: dict[str, Any], key: str, kind: type, what: str, where: str = "the record") -> Any:
    """A field of an object of the record, of the right type.

    Raises:
        RecordError: the field is missing or of another type; the message names it.
    """
    if key not in data:
        raise RecordError(f"{where} has no {key!r} field (see 'trickspec play --json')")
    value = data[key]
    if not _is(value, kind):
        raise RecordError(f"{where}: {key!r} must be {what}, got {json_kind(value)}")
    return value


def _need_map(data: dict[str, Any], key: str, kind: type, what: str, where: str) -> Any:
    """A field that maps names (seats, lines) to values of one type."""
    value = _need(data, key, dict, f"an object mapping names to {what}", where)
    for name, v in value.items():
        if not _is(v, kind):
            raise RecordError(f"{where}: {key!r} must map names to {what}; {shown(name)} has "
                              f"{json_kind(v)}")
    return value


def _need_list(data: dict[str, Any], key: str, kind: type, what: str, where: str) -> list[Any]:
    """A field that lists values of one type."""
    value = _need(data, key, list, f"a list of {what}", where)
    for k, v in enumerate(value, start=1):
        if not _is(v, kind):
            raise RecordError(f"{where}: {key!r} must be a list of {what}; item {k} is "
                              f"{json_kind(v)}")
    return value  # type: ignore[no-any-return]


def _check_actions(actions: list[Any], where: str, first_step: int) -> None:
    for step, a in enumerate(actions, start=first_step):
        if not isinstance(a, dict):
            raise RecordError(f"{where}: step {step}: an action is an object with 'seat' and one "
                              f"of 'call', 'play', 'lay', 'discard' or 'announce', got {json_kind(a)}")
        kinds = [k for k in _KINDS if k in a]
        if "seat" not in a or len(kinds) != 1:
            raise RecordError(f"{where}: step {step}: an action is an object with 'seat' and one "
                              "of 'call', 'play', 'lay', 'discard' or 'announce'")
        _need(a, "seat", str, "a seat's name", f"{where}: step {step}")
        _need(a, kinds[0], str, "an action in record notation (such as 'pass', '15C' or "
              "'AS')", f"{where}: step {step}")


def _check_shape(data: Any) -> None:
    """Every field of a record has the type :func:`to_record` gives it, before any replay:
    a number where a list belongs, a card as an object, true for a seed, a seed of
    5,000 digits are malformed records (exit 2), not records the rules reject.

    Raises:
        RecordError: naming the first field that is wrong.
    """
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object (see 'trickspec play --json'), got "
                          f"{json_kind(data)}")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a trickspec record: format should be {FORMAT!r}")
    _need(data, "game", str, "a game's name")
    _need_list(data, "variants", str, "variant ids", "the record")
    seed = _need(data, "seed", int, "a whole number (the seed)")
    if not 0 <= seed <= MAX_SEED:
        raise RecordError(f"the record: 'seed' must be a whole number from 0 to {MAX_SEED:,}, "
                          f"got {shown(seed)}")
    _need(data, "dealer", str, "a seat's name")
    step = 1
    for k, deal in enumerate(_need(data, "thrown_in", list, "a list of deals"), start=1):
        where = f"the record: deal {k} thrown in"
        if not isinstance(deal, dict):
            raise RecordError(f"{where} must be an object with 'hands' and 'actions', got "
                              f"{json_kind(deal)}")
        _need_map(deal, "hands", str, "cards", where)
        actions = _need(deal, "actions", list, "a list of actions", where)
        _check_actions(actions, where, step)
        step += len(actions)
        if "dealer" in deal:
            _need(deal, "dealer", str, "a seat's name", where)
    _need_map(data, "hands", str, "cards", "the record")
    _check_actions(_need(data, "actions", list, "a list of actions"), "the record", step)
    for k, trick in enumerate(_need(data, "tricks", list, "a list of tricks"), start=1):
        where = f"the record: trick {k}"
        if not isinstance(trick, dict):
            raise RecordError(f"{where} must be an object, got {json_kind(trick)}")
        _need_list(trick, "cards", str, "cards", where)
        _need(trick, "winner", str, "a seat's name", where)
    if data.get("scores") is not None:
        _need_map(data, "scores", int, "whole numbers", "the record")
    contract = data.get("contract")
    if contract is not None:
        if not isinstance(contract, dict):
            raise RecordError(f"the record: 'contract' must be null or an object with 'bid' and "
                              f"'declarer', got {json_kind(contract)}")
        _need(contract, "bid", str, "a bid", "the record's contract")
        _need(contract, "declarer", str, "a seat's name", "the record's contract")
    if "lines" in data:
        lines = _need(data, "lines", dict, "an object of the score sheet's lines", "the record")
        for name in lines:
            _need_map(lines, name, int, "whole numbers", "the record's 'lines'")


def hands_from_text(game: Game, data: Any) -> tuple[int, ...]:
    """Hands as records write them (see :func:`hands_text`), read and checked against the
    deal rule.

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
    engine_for(game).check_hands(masks)
    return tuple(masks)


def replay(data: Any, game: Game | None = None) -> ReplayReport:
    """Re-run a record through the engine: of a registered game, or of ``game`` (whose key
    the record must name).

    Every field is checked for its type first; then each action is applied in turn and
    must be of the kind the record says (a card played, not a call, during the play).

    Returns:
        A report: ``ok`` when every step, trick and score agrees with the rules.

    Raises:
        RecordError: the record is malformed (a missing field, a field of the wrong type,
            bad notation).
        NotationError: the game or a variant is unknown.
    """
    _check_shape(data)
    if game is None:
        game = find_game(data["game"])
    elif data["game"] != game.key:
        raise NotationError(f"the record is of the game {data['game']!r}, not {game.key!r}",
                            value=data["game"])
    if data["variants"]:
        game = game.with_variants(*data["variants"])
    eng = engine_for(game)
    t = game.table
    seed = data["seed"]
    dealer = t.parse_seat(data["dealer"])
    thrown = data["thrown_in"]
    if thrown and "dealer" in thrown[0]:
        dealer = t.parse_seat(thrown[0]["dealer"])  # a deal thrown in may pass the deal on
    deals = list(thrown) + [{"hands": data["hands"], "actions": data["actions"]}]
    step = 0
    state: State | None = None
    for d_index, deal in enumerate(deals):
        hands = hands_from_text(game, deal["hands"])
        if state is None:
            up = None
            if "turn_up" in data and len(deals) == 1:
                _need(data, "turn_up", str, "a card", "the record")
                up = game.deck.index(game.deck.parse_card(data["turn_up"]))
            try:
                state = eng.start(hands, dealer=dealer, seed=seed, turn_up=up)
                if "pot" in data:  # the pot the deal began with
                    _need(data, "pot", int, "a number of chips", "the record")
                    state = replace(state, pot=eng.checked_pot(data["pot"]))
            except NotationError as e:
                return ReplayReport(False, f"deal 1: {e}", None)
        elif state.dealt != hands:
            return ReplayReport(False, f"deal {d_index + 1}: the record's hands are not the ones "
                                f"the redeal from seed {seed} gives", state)
        tricks_seen = len(state.tricks)
        for a in deal["actions"]:
            step += 1
            kind = next(k for k in _KINDS if k in a)
            seat = t.parse_seat(a["seat"])
            if state.phase is Phase.OVER:
                return ReplayReport(False, f"step {step}: the deal is already over", state)
            if seat != state.turn:
                return ReplayReport(False, f"step {step}: the record has {t.name(seat)} act, but "
                                    f"it is {t.name(state.turn)}'s turn", state)
            text = a[kind]
            try:
                action = parse_action(state, text)
                if _KIND_OF[type(action)] != kind:
                    return ReplayReport(False, f"step {step}: the record gives {t.name(seat)}'s "
                                        f"{shown(text)} as {_NOUN[kind]}, but here (the "
                                        f"{state.phase.value}) it is {_NOUN[_KIND_OF[type(action)]]}",
                                        state)
                state = eng.apply(state, action)
            except IllegalActionError as e:
                return ReplayReport(False, f"step {step}: {t.name(seat)} {shown(text)}: {e}", state)
            except NotationError as e:
                return ReplayReport(False, f"step {step}: {e}", state)
            if len(state.tricks) > tricks_seen and d_index == len(deals) - 1:
                tricks_seen = len(state.tricks)
                mismatch = _compare_trick(game, state.tricks[-1], data["tricks"], step)
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
        return ReplayReport(False, f"scores: the record says {shown(data.get('scores'), 200)}, "
                            f"the rules give {expect}", state)
    if "lines" in data:
        lines = to_record(state).get("lines")
        if data["lines"] != lines:
            return ReplayReport(False, f"lines of the score sheet: the record says "
                                f"{shown(data['lines'], 300)}, the rules give {lines}", state)
    contract = _contract(state)
    if data.get("contract") != contract:
        return ReplayReport(False, f"contract: the record says {shown(data.get('contract'), 200)}, "
                            f"the rules give {contract}", state)
    for key in ("turn_up", "laid_open"):
        if key in data and data[key] != to_record(state).get(key):
            return ReplayReport(False, f"{key}: the record says {shown(data[key], 200)}, the "
                                f"rules give {to_record(state).get(key)}", state)
    if len(data["tricks"]) != len(state.tricks):
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
        return (f"step {step}: trick {rec.number}: the record lists {shown(got.get('cards'), 200)}, "
                f"but the cards played were {want['cards']}")
    if got.get("winner") != want["winner"]:
        return (f"step {step}: trick {rec.number}: the record gives it to {shown(got.get('winner'))}, "
                f"the rules give it to {want['winner']}")
    return None


def session_json(pots: PotSession) -> dict[str, Any]:
    """The record of a session for a pot: each deal's record (with the pot it began with),
    and after each deal every player's chips, the pot and whether it was filled again."""
    game = pots.deals[0].game
    t = game.table
    return {"format": FORMAT, "game": game.key, "variants": list(game.active_variants),
            "ante": pots.ante, "deals": [to_record(d) for d in pots.deals],
            "chips": [{t.name(s): x for s, x in enumerate(c)} for c in pots.chips],
            "pots": list(pots.pots), "refilled": list(pots.refilled)}


def replay_session(data: Any, game: Game | None = None) -> ReplayReport:
    """Re-run a session for a pot, of a registered game or of ``game`` (whose key the
    record must carry): every deal replays, begins with the pot the one before left
    (filled again by every player's ante when it was empty), and the players' chips and
    the pot after each deal are what its scores make them.

    Raises:
        RecordError: the record is malformed.
        NotationError: the game or a variant is unknown.
    """
    if not isinstance(data, dict):
        raise RecordError(f"a session record is a JSON object, got {json_kind(data)}")
    for key, kind, what in (("game", str, "a game key"), ("ante", int, "a number of chips"),
                            ("deals", list, "a list of deal records"),
                            ("chips", list, "a list of chips per player"),
                            ("pots", list, "a list of pots"), ("refilled", list, "a list of flags")):
        _need(data, key, kind, what, "the session record")
    deals, chips_after, pots, refilled = data["deals"], data["chips"], data["pots"], data["refilled"]
    if not deals or not len(deals) == len(chips_after) == len(pots) == len(refilled):
        return ReplayReport(False, "the session record needs one entry of chips, pot and refill "
                            "for each of its deals")
    if game is None:
        game = find_game(data["game"])
    elif data["game"] != game.key:
        raise NotationError(f"the record is of the game {data['game']!r}, not {game.key!r}",
                            value=data["game"])
    base = game
    if data.get("variants"):
        game = game.with_variants(*data["variants"])
    eng = engine_for(game)
    body = eng.pot_rule
    if body is None:
        raise NotationError(f"{game.name} keeps no pot", value=data["game"])
    if data["ante"] != body.ante:  # type: ignore[attr-defined]
        return ReplayReport(False, f"the record antes {data['ante']}, the rules "
                            f"{body.ante}")  # type: ignore[attr-defined]
    t = game.table
    chips = [-body.ante] * game.players  # type: ignore[attr-defined]
    pot = eng.full_pot
    for k, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict) or deal.get("pot") != pot:
            return ReplayReport(False, f"deal {k} begins with a pot of "
                                f"{deal.get('pot') if isinstance(deal, dict) else None}, but the "
                                f"deals before leave {pot}")
        report = replay(deal, base)
        if not report.ok:
            return ReplayReport(False, f"deal {k}: {report.message}", report.state)
        assert report.state is not None
        scores = report.state.scores or (0,) * game.players
        chips = [c + x for c, x in zip(chips, scores)]
        pot -= sum(scores)
        refill = pot == 0
        if refill:  # every player antes again
            chips = [c - body.ante for c in chips]  # type: ignore[attr-defined]
            pot = eng.full_pot
        said, expect = chips_after[k - 1], {t.name(s): x for s, x in enumerate(chips)}
        if said != expect:
            return ReplayReport(False, f"after deal {k} the record gives chips {said}, the rules "
                                f"{expect}", report.state)
        if pots[k - 1] != pot or refilled[k - 1] is not refill:
            return ReplayReport(False, f"after deal {k} the record has a pot of {pots[k - 1]} "
                                f"(refilled: {refilled[k - 1]}), the rules {pot} (refilled: "
                                f"{refill})", report.state)
    return ReplayReport(True, f"{len(deals)} deals replayed: chips and pot agree with the rules")
