"""Worked examples: deals the engine plays from fixed seeds, and the rule-coverage fixtures
in which a scoring rule pays, read back from their records.

Each example is the record of a whole deal (:func:`spec.records.to_record`): the hands,
every call and card, each trick's winner and the scores, with what each scoring rule gave
each seat.  It is replayed through the engine (:func:`spec.records.replay`) before it is
printed, so an example can never show something the rules forbid.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spec.cards import Card, CardSet, Suit
from spec.dsl import _constructs as K
from spec.dsl._build import Game
from spec.engine import State, engine_for, play_deal
from spec.records import replay, to_record

from ._tables import DISPLAY_SUITS, Table

__all__ = ["Example", "example", "fixture_examples"]


class ExampleError(Exception):
    """The engine's record of an example deal does not replay: a bug, never shown."""


@dataclass
class Example:
    """One deal, ready to print."""

    seed: int
    dealer: str
    thrown_in: list[str]
    hands: Table
    calls: list[str]
    contract: str
    tricks: Table
    results: list[str]
    paid: list[tuple[str, str, int]] = field(default_factory=list)  # (rule id, seat, amount)
    title: str = ""


def _hand_row(game: Game, seat: str, text: str) -> list[str]:
    cards = list(CardSet.parse(text, game.deck))
    rank = game.rank_table

    def of(suit: Suit | None) -> str:
        held = sorted((c for c in cards if c.suit is suit), key=lambda c: -rank.value(c))
        return " ".join(c.symbol if suit is None else c.rank.value for c in held) or "–"

    row = [seat] + [of(s) for s in DISPLAY_SUITS]
    if any(c.suit is None for c in game.deck):
        row.append(of(None) if any(c.suit is None for c in cards) else "")
    return row


def _hands(game: Game, hands: dict[str, str]) -> Table:
    header = ["Seat"] + [s.symbol for s in DISPLAY_SUITS]
    if any(c.suit is None for c in game.deck):
        header.append("Other")
    return Table("Hands", header, [_hand_row(game, s, h) for s, h in hands.items()])


def _card(text: str) -> str:
    card, _, named = text.partition(":")
    shown = Card.parse(card).symbol
    return shown + (f" naming {Suit.parse(named).symbol}" if named else "")


def _call(game: Game, action: dict[str, str]) -> str:
    seat = action["seat"]
    if "call" in action:
        text = action["call"]
        return f"{seat} {'passes' if text == 'pass' else 'bids ' + game.parse_bid(text).symbol}"
    if "lay" in action:
        return f"{seat} lays {Card.parse(action['lay']).symbol} face down"
    if "discard" in action:
        return f"{seat} discards {Card.parse(action['discard']).symbol} face down"
    return f"{seat} announces {action['announce']}"


def _tricks(game: Game, tricks: list[dict[str, Any]], actions: list[dict[str, str]]) -> Table:
    width = max((len(t["cards"]) for t in tricks), default=game.players)
    header = ["Trick", "Lead"] + [f"Card {k}" for k in range(2, width + 1)] + ["Winner"]
    rows = []
    players = iter([a["seat"] for a in actions if "play" in a])  # who played each card, in order
    for t in tricks:
        down = set(t.get("face_down", ()))
        cards = [f"{next(players)}: " + _card(c) + (" face down" if c.partition(":")[0] in down else "")
                 for c in t["cards"]]
        rows.append([str(t["number"])] + cards + [""] * (width - len(cards))
                    + [t["winner"]])
    return Table("Tricks", header, rows)


def example(game: Game, seed: int) -> Example:
    """The deal the engine plays from ``seed`` with its random players, as recorded.

    Raises:
        ExampleError: the record does not replay through the engine.
    """
    state = play_deal(game, seed=seed)
    record = to_record(state)
    report = replay(record)
    if not report.ok:
        raise ExampleError(f"{game.key} seed {seed}: the record does not replay: {report.message}")
    return _example(game, state, record, f"Seed {seed}")


def fixture_examples(game: Game, folder: Path) -> list[Example]:
    """The fixtures in ``folder`` (written by ``trickspec fixtures``) of the game's scoring
    rules: for each, a deal in which the rule pays, found by the deal generator.  A fixture
    written for another wording of its rule, or that no longer replays, is left out (the
    test suite asks for it to be written again)."""
    out = []
    for rule, _body in game.constructs(K.ScoreRule):
        path = folder / f"{rule.id}.json"
        if not path.is_file():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if (data.get("variants") != list(game.active_variants) or data.get("text") != rule.text
                or data.get("source") != str(rule.source)):
            continue
        report = replay(data["record"])
        if report.ok and report.state is not None:
            out.append(_example(game, report.state, data["record"],
                                f"A deal in which {rule.id} pays"))
    return out


def _example(game: Game, state: State, record: dict[str, Any], title: str) -> Example:
    thrown = [f"{d['dealer']} deals; " + ", ".join(_call(game, a) for a in d["actions"])
              + f": thrown in ({d['reason']})" for d in record["thrown_in"]]
    calls = []
    for a in record["actions"]:
        if "play" in a:
            break
        calls.append(_call(game, a))
    contract = record["contract"]
    shown = (f"{game.parse_bid(contract['bid']).symbol} by {contract['declarer']}" if contract
             else "none")
    results = ["Points taken: " + ", ".join(f"{s} {p}" for s, p in record["points"].items()) + "."]
    for line, scores in (record.get("lines") or {}).items():
        results.append(f"Score sheet, {line}: " + ", ".join(f"{s} {x:+d}" for s, x in scores.items())
                       + ".")
    results.append("Scores: " + ", ".join(f"{s} {x:+d}" for s, x in record["scores"].items()) + ".")
    table = game.table
    paid = [(rule.id, table.name(seat), amount)
            for rule, seat, amount in engine_for(game).score_items(state)]
    return Example(record["seed"], record["dealer"], thrown, _hands(game, record["hands"]), calls,
                   shown, _tricks(game, record["tricks"], record["actions"]), results, paid,
                   title)
