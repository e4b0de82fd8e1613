"""The executable engine: deals, auctions, tricks and scores, interpreted from a game's rules.

Nothing here names a game.  :class:`Engine` compiles the expressions that
:mod:`spec.dsl._derive` builds from the game's rules into Python functions once, and the
immutable :class:`State` moves through the phases of a deal: the auction, the play of the
tricks, the score.

Each part has a module of its own: ``_state`` (states, actions, views), ``_compiled`` (the
rules compiled to Python), ``_deal`` (the pack and the packets), ``_auction`` and ``_play``
(the phases), ``_playout`` (fast random play and the bots), ``_probes`` (what the verifier
asks outside a running deal), ``_session`` (many deals in turn) and ``_engine`` (the
phases put together).  ``apply`` refuses an illegal action with an
:class:`~spec.errors.IllegalActionError` naming the rule that forbids it, and the state it
was given is untouched (states are never changed in place).

>>> from spec.games.crescendo import GAME
>>> s = new_deal(GAME, seed=7)
>>> s.phase, s.engine.table.name(s.turn)
(<Phase.AUCTION: 'auction'>, 'Forehand')
>>> s2 = apply(s, Call(GAME.parse_bid("15C")))
>>> s.calls, len(s2.calls)
((), 1)
"""
from __future__ import annotations

from spec.engine._engine import Engine, apply, engine_for, legal_actions, new_deal, parse_action
from spec.engine._playout import Bot, modest_bot, pick, play_on, random_bot
from spec.engine._session import Match, play_deal, play_match, session
from spec.engine._state import (
    PASS,
    Action,
    Call,
    Declare,
    Discard,
    Lay,
    Phase,
    Play,
    State,
    ThrownIn,
    TrickRecord,
    View,
)

__all__ = [
    "Phase", "Call", "Play", "Action", "TrickRecord", "State", "Engine", "engine_for",
    "new_deal", "legal_actions", "apply", "parse_action", "random_bot", "modest_bot", "play_deal",
    "View", "Lay", "Discard", "Declare", "ThrownIn", "Match", "play_match", "session", "pick", "play_on", "PASS", "Bot",
]
