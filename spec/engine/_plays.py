"""Masks of legal cards decoded to the legal plays, without a loop over the cards.

A game's legal cards come as a mask; the legal actions are the plays of those cards in
card order (a card that names a suit gives one play per suit it may name).  The decoders
here cut the deck into runs of cards of one suit (at most 13 long) and cache the plays
of each run's bits, so the cards of one suit in a hand are one lookup and a whole hand a
few.  Their code is generated from the deck's runs.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spec.engine._state import Play

Plays = tuple[Play, ...]


def _runs(suits: Sequence[int], size: int) -> list[tuple[int, int]]:
    """(first card, length) of each run of cards of one suit, in deck order."""
    runs, start = [], 0
    for i in range(1, size + 1):
        if i == size or suits[i] != suits[start] or i - start == 13:
            runs.append((start, i - start))
            start = i
    return runs


def _generated(lines: list[str], ns: dict[str, Any]) -> Any:
    exec(compile("\n".join(lines) + "\n", "<plays_of>", "exec"), ns)  # noqa: S102  # generated from the deck's runs
    return ns["plays_of"]


def plain_decoder(plays: Sequence[Play], suits: Sequence[int]) -> Callable[[int], Plays]:
    """``plays_of(mask)``: ``plays[i]`` for each bit ``i`` of the mask, in card order (a
    game where each legal card is one play whatever the position)."""
    def fill(cache: dict[int, Plays], run: Plays, bits: int) -> Plays:
        found = cache[bits] = tuple(p for j, p in enumerate(run) if bits >> j & 1)
        return found

    lines = ["def plays_of(mask):", "    out = ()"]
    ns: dict[str, Any] = {}
    for k, (shift, width) in enumerate(_runs(suits, len(plays))):
        cache: dict[int, Plays] = {}
        ns[f"C{k}"], ns[f"F{k}"] = cache, _bind(fill, cache, tuple(plays[shift:shift + width]))
        lines += [f"    m = (mask >> {shift}) & {(1 << width) - 1}", "    if m:",
                  f"        t = C{k}.get(m)", "        if t is None:", f"            t = F{k}(m)",
                  "        out += t"]
    return _generated([*lines, "    return out"], ns)  # type: ignore[no-any-return]


def keyed_decoder(card_plays: Callable[[Any, int], tuple[Plays, int]], size: int,
                  suits: Sequence[int]) -> Callable[[int, Any], tuple[Plays, int]]:
    """``plays_of(mask, s)``: the plays of the cards of the mask in card order and the
    union of their bits, for positions that agree with ``s`` on what the declaration
    rules read (one decoder per such key).  ``card_plays(s, i)`` gives one card's plays
    and bits; each card is asked once, when a mask first holds it."""
    per_card: list[tuple[Plays, int] | None] = [None] * size

    def fill(cache: dict[int, tuple[Plays, int]], shift: int, width: int, bits: int,
             s: Any) -> tuple[Plays, int]:
        plays: list[Play] = []
        union = 0
        for j in range(width):
            if bits >> j & 1:
                entry = per_card[shift + j]
                if entry is None:
                    entry = per_card[shift + j] = card_plays(s, shift + j)
                plays += entry[0]
                union |= entry[1]
        found = cache[bits] = (tuple(plays), union)
        return found

    lines = ["def plays_of(mask, s):", "    out = ()", "    union = 0"]
    ns: dict[str, Any] = {}
    for k, (shift, width) in enumerate(_runs(suits, size)):
        cache: dict[int, tuple[Plays, int]] = {}
        ns[f"C{k}"], ns[f"F{k}"] = cache, _bind(fill, cache, shift, width)
        lines += [f"    m = (mask >> {shift}) & {(1 << width) - 1}", "    if m:",
                  f"        t = C{k}.get(m)", "        if t is None:", f"            t = F{k}(m, s)",
                  "        out += t[0]", "        union |= t[1]"]
    return _generated([*lines, "    return out, union"], ns)  # type: ignore[no-any-return]


def _bind(fn: Callable[..., Any], *first: Any) -> Callable[..., Any]:
    """``fn`` with its first arguments given (``functools.partial``, which calls fast)."""
    import functools

    return functools.partial(fn, *first)
