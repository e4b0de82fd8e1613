"""Another engine's rule of play, tested against trickspec's with Hypothesis.

``toy_legal_plays`` is a few lines of a toy engine for Vint: the cards a player may play
to a trick.  It means "follow suit if you can", but is wrong on purpose: it takes the suit
of the card played last for the suit led.  The test draws positions in the play of Vint
and compares the toy's cards with the legal actions of trickspec's engine; Hypothesis
finds a position where they differ and shrinks it to a small one.
"""
from __future__ import annotations

from hypothesis import given, settings

from spec.engine import legal_actions
from spec.strategies import Position, positions


def toy_legal_plays(hand: list[str], trick: list[str]) -> list[str]:
    """The cards of ``hand`` a player may play to ``trick`` (the cards played to it so far),
    in the notation of records (``10H``): a card of the suit led if he holds one, else any.
    Wrong on purpose: the suit led is that of the first card, not of the last."""
    if not trick:
        return hand
    led = trick[-1][-1]  # the mistake: trick[0][-1] is the suit led
    follow = [card for card in hand if card[-1] == led]
    return follow or hand


@settings(max_examples=300, derandomize=True, database=None, deadline=None,
          report_multiple_bugs=False)
@given(positions("vint", phase="play"))
def test_the_toy_allows_the_cards_trickspec_allows(position: Position) -> None:
    state = position.state
    hand = str(state.hand(state.turn)).split()
    trick = [str(state.game.deck[card]) for card, _named in state.trick]
    ours = [str(action) for action in legal_actions(state)]
    toys = toy_legal_plays(hand, trick)
    assert set(toys) == set(ours), f"the toy allows {' '.join(toys)}; trickspec {' '.join(ours)}"
