"""The executable engine: deals, auctions, tricks and scores, interpreted from a game's rules.

Nothing here names a game.  :class:`Engine` compiles the expressions that
:mod:`spec.dsl._derive` builds from the game's rules into Python functions once, and the
immutable :class:`State` moves through the phases of a deal: the auction, the play of the
tricks, the score.

Each part has a module of its own: ``_state`` (states, actions, views, and the working
copies actions are applied to), ``_env`` (what each scope's rules read and how the engine
reads it from a state: the named environments rules are compiled in), ``_compiled`` (the
rules compiled to Python), ``_plays`` (masks of legal cards decoded to plays), ``_deal``
(the pack and the packets), ``_auction`` and ``_play`` (the phases), ``_calls`` (calls
applied by code generated for the game), ``_playout`` (fast random play and the bots),
``_probes`` (what the verifier asks outside a running deal), ``_session`` (many deals in
turn) and ``_engine`` (the phases put together).

``legal_actions`` remembers the state it was asked about last and the actions it gave, and
``apply`` applies one of those to that state without checking it again; any other action
is checked first.  ``apply`` refuses an illegal action with an
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

from spec.engine._engine import (
    Engine,
    apply,
    drop_engine,
    engine_for,
    legal_actions,
    new_deal,
    parse_action,
)
from spec.engine._playout import Bot, low_bidder, modest_bot, pick, play_on, random_bot
from spec.engine._session import (
    Match,
    PotSession,
    check_match_length,
    play_deal,
    play_match,
    play_pot_session,
    session,
)
from spec.engine._state import (
    ASK_PARTNER,
    CARD_ACTIONS,
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
    "ASK_PARTNER",
    "CARD_ACTIONS",
    "PASS",
    "Action",
    "Bot",
    "Call",
    "Declare",
    "Discard",
    "Engine",
    "Lay",
    "Match",
    "PotSession",
    "Phase",
    "Play",
    "State",
    "ThrownIn",
    "TrickRecord",
    "View",
    "apply",
    "check_match_length",
    "drop_engine",
    "engine_for",
    "legal_actions",
    "low_bidder",
    "modest_bot",
    "new_deal",
    "parse_action",
    "pick",
    "play_deal",
    "play_match",
    "play_pot_session",
    "play_on",
    "random_bot",
    "session",
]
