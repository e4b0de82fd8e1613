"""Certainty by brute force, for small end positions: every deal consistent with what a
seat has seen, and every way of playing that reads only what it sees.

Independent of :mod:`spec.solver._certain`: the deals are found by renaming the cards the
seat has not seen and replaying the whole deal through the engine (a deal is consistent
when the engine accepts every action and shows the seat, after each, what the real deal
showed it), and the game is solved on those concrete deals, one set of deals for each
history the seat can observe.

``certain_by_worlds`` decides the question by that recursion: the seat wins from a set of
deals it cannot tell apart if one card wins from all of them; the others win if some play
in some deal leads to a set the seat loses from.  ``certain_by_strategies`` enumerates the
seat's strategies one by one (a card for each history it can observe) and tries each
against every deal and every play of the others; the two agree by the argument that a
strategy's choices at different histories are independent.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from spec.engine import Phase, Play, State, View
from spec.engine._state import Lay

Obs = tuple[Any, ...]


def seen(s: State, seat: int) -> Obs:
    """Everything ``seat`` sees of ``s``: its hand and cards aside, every trick as shown
    to it, which cards went face down, the sizes of hands and cards aside, the trump suit
    if shown, the calls, whose turn."""
    v = View(s, seat)
    faces = tuple((r.face_down, r.revealed) for r in s.tricks)
    return (s.phase, s.turn, s.trick_number, v.hand.mask, v.aside.mask, v.tricks,
            v.current_trick, s.faces, faces, v.hand_sizes,
            tuple(a.bit_count() for a in s.aside), v.trump, v.calls, s.void)


def _side(s: State, seat: int) -> int:
    for team in s.game.table.partnerships:
        if seat in team:
            return sum(1 << k for k in team)
    raise AssertionError("the oracle is for games of partnerships")


def worlds(real: State, seat: int, limit: int) -> list[State] | None:
    """Every deal consistent with what ``seat`` has seen of ``real``, each as the state it
    has reached (None where there are more than ``limit`` to try).

    A deal is the real one with the cards the seat has not seen renamed among themselves
    (each keeping where it lies now and the plays that name it), and, for each card another
    seat laid aside, any card that seat was dealt in its place: which card was laid aside is
    hidden even where the card itself is seen later."""
    eng, game = real.engine, real.game
    start = eng.start(real.dealt, dealer=real.dealer, seed=real.seed, redeals=real.redeals,
                      thrown_in=real.thrown_in)
    history = [start]
    for _who, action in real.log:
        history.append(eng.apply(history[-1], action))
    sights = [seen(s, seat) for s in history]
    unseen = [i for i in range(len(game.deck))
              if not View(real, seat).seen_cards.mask >> i & 1]

    def part(c: int) -> tuple[Any, ...]:
        """A card's part in the deal: where it lies now, and each play that names it."""
        where = [("hand", k) for k, h in enumerate(real.hands) if h >> c & 1]
        where += [("aside", k) for k, a in enumerate(real.aside) if a >> c & 1]
        where += [("dealt", k) for k, d in enumerate(real.dealt) if d >> c & 1]
        named = [i for i, (_w, a) in enumerate(real.log)
                 if isinstance(a, Play) and game.deck.index(a.card) == c]
        return (*where, *named)

    parts: dict[tuple[Any, ...], list[int]] = {}
    for c in unseen:
        parts.setdefault(part(c), []).append(c)
    keys = list(parts)
    sizes = [len(parts[k]) for k in keys]
    lays = [i for i, (who, a) in enumerate(real.log) if isinstance(a, Lay) and who != seat]
    count = _multinomial(len(unseen), sizes) * len(game.deck) ** len(lays)
    if count > limit * 8 ** len(lays):
        return None
    out: dict[Any, State] = {}
    for split in _splits(unseen, sizes):
        rename = {}
        for k, cards in zip(keys, split):
            rename.update(zip(parts[k], cards))
        dealt = [_renamed(d, rename) for d in real.dealt]
        held = [[c for c in range(len(game.deck)) if dealt[real.log[i][0]] >> c & 1] for i in lays]
        for laid in itertools.product(*held):
            s = _replay(real, seat, rename, dict(zip(lays, laid)), sights, history)
            if s is not None:
                out.setdefault((s.hands, s.aside, s.trick, s.trump, s.tracked), s)
    return list(out.values())


def _renamed(m: int, rename: dict[int, int]) -> int:
    out = 0
    for i in range(m.bit_length()):
        if m >> i & 1:
            out |= 1 << rename.get(i, i)
    return out


def _multinomial(n: int, sizes: Sequence[int]) -> int:
    out, left = 1, n
    for k in sizes:
        out *= _choose(left, k)
        left -= k
    return out


def _choose(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def _splits(cards: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not sizes:
        yield []
        return
    for first in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for more in _splits(rest, sizes[1:]):
            yield [first, *more]


def _replay(real: State, seat: int, rename: dict[int, int], laid: dict[int, int],
            sights: list[Obs], history: list[State]) -> State | None:
    """The real deal replayed with its unseen cards renamed and the cards laid aside at the
    log positions of ``laid`` replaced; None where the engine refuses an action or the seat
    would have seen something else."""
    eng, deck = real.engine, real.game.deck
    pending = [_renamed(p, rename) for p in history[0].pending]
    for i, card in laid.items():
        who, action = real.log[i]
        was = rename.get(deck.index(action.card), deck.index(action.card))
        # a card laid aside before the second batch came from the first
        if history[i].pending[who] and pending[who] >> card & 1:
            pending[who] = pending[who] & ~(1 << card) | 1 << was
    try:
        s = eng.start(tuple(_renamed(h, rename) for h in real.dealt), dealer=real.dealer,
                      seed=real.seed, redeals=real.redeals, thrown_in=real.thrown_in,
                      later=tuple(pending))
    except Exception:
        return None
    if seen(s, seat) != sights[0]:
        return None
    for i, (_who, action) in enumerate(real.log):
        if isinstance(action, Lay):
            c = laid.get(i, rename.get(deck.index(action.card), deck.index(action.card)))
            action = Lay(deck[c])
        elif isinstance(action, Play):
            c = rename.get(deck.index(action.card), deck.index(action.card))
            action = Play(deck[c], action.names)
        try:
            s = eng.apply(s, action)
        except Exception:
            return None
        if seen(s, seat) != sights[i + 1]:
            return None
    return s


def _plays(s: State) -> list[Play]:
    return [a for a in s.engine.legal_actions(s) if isinstance(a, Play)]


def _lost(before: State, after: State, side: int) -> bool:
    return (after.trick_number != before.trick_number and bool(after.tricks)
            and after.tricks[-1].number == before.trick_number
            and not side >> after.tricks[-1].winner & 1)


def certain_by_worlds(states: list[State], seat: int) -> bool:
    """The seat wins from ``states`` (deals it cannot tell apart) by a way of playing
    that reads only what it sees: the recursion on sets of deals."""
    side = _side(states[0], seat)
    memo: dict[Any, bool] = {}

    def wins(group: list[State]) -> bool:
        s = group[0]
        if s.phase is not Phase.PLAY:
            return True
        key = frozenset((g.hands, g.aside, g.trick, g.turn, g.tracked, g.trump) for g in group)
        if key in memo:
            return memo[key]
        if s.turn == seat:
            moves = sorted({str(p.card) for p in _plays(s)})
            assert all(sorted({str(p.card) for p in _plays(g)}) == moves for g in group)
            result = False
            for m in moves:
                kids = [g.engine.apply(g, next(p for p in _plays(g) if str(p.card) == m))
                        for g in group]
                if any(_lost(g, k, side) for g, k in zip(group, kids)):
                    continue
                if all(wins(sub) for sub in _grouped(kids, seat)):
                    result = True
                    break
        else:
            kids, result = [], True
            for g in group:
                for p in _plays(g):
                    k = g.engine.apply(g, p)
                    if _lost(g, k, side):
                        result = False
                    kids.append(k)
            result = result and all(wins(sub) for sub in _grouped(kids, seat))
        memo[key] = result
        return result

    return wins(states)


def _grouped(states: list[State], seat: int) -> list[list[State]]:
    out: dict[Obs, list[State]] = {}
    for s in states:
        out.setdefault(seen(s, seat), []).append(s)
    return list(out.values())


def certain_by_strategies(states: list[State], seat: int, limit: int = 200_000) -> bool | None:
    """The same question, every strategy of the seat tried in turn: a strategy is a card
    for each history the seat can observe where it is to play.  None where there are
    more than ``limit`` strategies."""
    side = _side(states[0], seat)
    points: dict[Obs, list[str]] = {}

    def explore(s: State, trail: tuple[Obs, ...]) -> None:
        if s.phase is not Phase.PLAY:
            return
        if s.turn == seat:
            moves = sorted({str(p.card) for p in _plays(s)})
            points.setdefault(trail, moves)
        for p in _plays(s):
            k = s.engine.apply(s, p)
            if not _lost(s, k, side):
                explore(k, trail + (seen(k, seat),))

    for s in states:
        explore(s, (seen(s, seat),))
    keys = list(points)
    total = 1
    for k in keys:
        total *= len(points[k])
    if total > limit:
        return None
    for choice in itertools.product(*(points[k] for k in keys)):
        plan = dict(zip(keys, choice))
        if all(_holds(s, (seen(s, seat),), plan, seat, side) for s in states):
            return True
    return False


def _holds(s: State, trail: tuple[Obs, ...], plan: dict[tuple[Obs, ...], str], seat: int,
           side: int) -> bool:
    """The strategy ``plan`` wins every remaining trick from ``s`` against every play."""
    if s.phase is not Phase.PLAY:
        return True
    plays = _plays(s)
    if s.turn == seat:
        plays = [p for p in plays if str(p.card) == plan[trail]]
    for p in plays:
        k = s.engine.apply(s, p)
        if _lost(s, k, side) or not _holds(k, trail + (seen(k, seat),), plan, seat, side):
            return False
    return True


def deals_seen_by(real: State, seat: int, limit: int) -> list[State] | None:
    """The deals consistent with ``seat``'s view of ``real`` (see :func:`worlds`)."""
    return worlds(real, seat, limit)


__all__ = ["certain_by_strategies", "certain_by_worlds", "deals_seen_by", "seen"]
