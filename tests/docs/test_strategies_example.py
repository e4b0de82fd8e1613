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


# slow: Hypothesis searches and shrinks (20 s); the page's report is checked in the default suite
@pytest.mark.slow
def test_hypothesis_finds_the_mistake_in_a_deal_one_exchange_from_the_pack_in_order() -> None:
    """The failing example the page shows is a deal whose hands are the pack in its own
    order, one hand after the other, with one pair of cards exchanged, and a trick of two
    cards so far, the second not of the suit led.  The one Hypothesis reports here is
    near that: how far its shrinking gets depends on more than the seed (it has shrunk to
    three exchanges and a trick and a half, in a process that had built the site first)."""
    with pytest.raises(AssertionError) as e:
        _example().test_the_toy_allows_the_cards_trickspec_allows()  # type: ignore[attr-defined]
    report = "\n".join(getattr(e.value, "__notes__", []))
    assert "Position(" in report and "the toy allows" in str(e.value), report
    _is_small(report, exchanges=3, plays=8)
    page = (ROOT / "docs" / "implementers.rst").read_text(encoding="utf-8")
    block = page[page.index(".. code-block:: text"):].split("\n\n")[1]
    _is_small("\n".join(line[3:] for line in block.splitlines()))


def _is_small(report: str, exchanges: int = 1, plays: int = 2) -> None:
    """The checks above, on one report: at most ``exchanges`` pairs of cards out of the
    pack's order, and at most ``plays`` cards played, the last two of different suits."""
    game = GAMES["vint"]
    hands = dict(re.findall(r"^\s+(North|East|South|West): ([^);\n]+)", report, re.M))
    assert list(hands) == list(game.table.names), report
    suits = [{str(c) for c in game.deck[13 * k:13 * k + 13]} for k in range(4)]
    out_of_place = sum(len(set(hands[name].split()) - suit)
                       for name, suit in zip(game.table.names, suits))
    assert 2 <= out_of_place <= 2 * exchanges, report  # one card each way per exchange
    actions = re.sub(r"\s+", " ", report[report.index("actions:") + 8:report.rindex(";")])
    played = actions.split(" pass,")[-1].split(",")  # the cards played after the auction
    assert 2 <= len(played) <= plays and played[-2][-1] != played[-1][-1], report
