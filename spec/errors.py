"""Errors raised by the rules language, the card notation and the engine.

Every message is lowercase and says what is wrong and what would be right.  When a rule
is involved the message starts with ``<game>/<rule id> (<file>:<line>)`` and the
exception carries the same facts as attributes.
"""
from __future__ import annotations

__all__ = [
    "SpecError",
    "SpecDefinitionError",
    "NotationError",
    "IllegalActionError",
    "AmbiguousActionError",
    "NoWorldError",
    "SrcLoc",
    "shown",
]

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SrcLoc:
    """Where in a game module a rule or expression was written."""

    file: str
    line: int

    def __str__(self) -> str:
        import os

        return f"{os.path.basename(self.file)}:{self.line}"


SHOWN_CHARS = 80  # the most of a value a message quotes


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters with '…' when longer: what
    a user typed or a file held may be a whole page, and a message stays one short line.

    >>> shown("North")
    "'North'"
    >>> shown("N" * 100, limit=12)
    "'NNNNNNNNN…'"
    """
    if isinstance(value, str) and len(value) > 2 * limit:
        value = value[:2 * limit]  # the repr of a huge text would itself be huge
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # nested too deep, or an int too long to print
        text = f"<a {type(value).__name__}>"
    if len(text) <= limit:
        return text
    end = text[-1] if text[-1] in "'\"" else ""
    return text[:limit - 1 - len(end)] + "…" + end


def _prefix(rule_id: str | None, src_loc: SrcLoc | None) -> str:
    parts = []
    if rule_id:
        parts.append(rule_id)
    if src_loc is not None:
        parts.append(f"({src_loc})")
    return " ".join(parts) + ": " if parts else ""


class SpecError(Exception):
    """Base class of every error about games, cards and actions."""

    def __init__(
        self,
        message: str,
        *,
        rule_id: str | None = None,
        src_loc: SrcLoc | None = None,
        value: object = None,
    ) -> None:
        self.rule_id = rule_id
        self.src_loc = src_loc
        self.value = value
        self.bare_message = message
        super().__init__(_prefix(rule_id, src_loc) + message)


class SpecDefinitionError(SpecError):
    """A game module is malformed; raised when the game is built."""


class NotationError(SpecError, ValueError):
    """Text that should name a card, a set of cards, a bid or a call does not."""


class IllegalActionError(SpecError, ValueError):
    """An action that the rules forbid here; names the rule that forbids it (``rule``: its
    id alone, None when no single rule does)."""

    rule: str | None = None


class NoLegalActionError(SpecError):
    """The rules leave the seat to act no legal action before the deal is over: a fault in
    the rules (the properties that a legal card exists in every position and that every
    auction ends are there to rule it out)."""


class EndlessDealError(SpecError):
    """The rules let a deal go on without end: more actions, or deals thrown in one after
    another, than any deal of the game takes.  A fault in the rules (the property that
    every auction ends is there to rule it out); the bots stop rather than play for ever."""


class AmbiguousActionError(SpecError, ValueError):
    """Text that matches more than one legal action."""


class NoWorldError(SpecError):
    """No deal that one seat cannot tell from the real one was drawn in the attempts
    allowed: what the seat has seen leaves too few of the deals the draw proposes."""
