"""The worked example of docs/implementers.rst runs: Hypothesis, given positions of the play
by spec.strategies, finds the toy engine's mistake and shrinks it to a small deal."""
from __future__ import annotations

import importlib.util
import pathlib
import re

import pytest

from spec.registry import GAMES

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "follow_suit.py"


def _example() -> object:
    spec = importlib.util.spec_from_file_location("follow_suit", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_toy_is_right_where_the_suit_led_is_the_last_card_played() -> None:
    toy = _example().toy_legal_plays  # type: ignore[attr-defined]
    assert toy(["2C", "AH"], []) == ["2C", "AH"]
    assert toy(["2C", "AH"], ["KH"]) == ["AH"]
    assert toy(["2C", "AH"], ["KS"]) == ["2C", "AH"]


def test_hypothesis_finds_the_mistake_in_a_deal_one_exchange_from_the_pack_in_order() -> None:
    """The failing example, as Hypothesis reports it and as the page shows it, is a deal
    whose hands are the pack in its own order, one hand after the other, with one pair of
    cards exchanged, and a trick of two cards so far, the second not of the suit led."""
    with pytest.raises(AssertionError) as e:
        _example().test_the_toy_allows_the_cards_trickspec_allows()  # type: ignore[attr-defined]
    report = "\n".join(getattr(e.value, "__notes__", []))
    assert "Position(" in report and "the toy allows" in str(e.value), report
    _is_small(report)
    page = (ROOT / "docs" / "implementers.rst").read_text(encoding="utf-8")
    block = page[page.index(".. code-block:: text"):].split("\n\n")[1]
    _is_small("\n".join(line[3:] for line in block.splitlines()))


def _is_small(report: str) -> None:
    """The checks above, on one report."""
    game = GAMES["vint"]
    hands = dict(re.findall(r"^\s+(North|East|South|West): ([^);\n]+)", report, re.M))
    assert list(hands) == list(game.table.names), report
    suits = [{str(c) for c in game.deck[13 * k:13 * k + 13]} for k in range(4)]
    out_of_place = sum(len(set(hands[name].split()) - suit)
                       for name, suit in zip(game.table.names, suits))
    assert out_of_place == 2, report  # one card each way
    actions = re.sub(r"\s+", " ", report[report.index("actions:") + 8:report.rindex(";")])
    plays = actions.split(" pass,")[-1].split(",")  # the cards played after the auction
    assert len(plays) == 2 and plays[0][-1] != plays[1][-1], report
