"""Hidden hands drawn from one seat's view: deals the seat cannot tell from the real one.

A seat sees its own hand, every call and announcement, the cards played face up, the
turn-up, a hand laid open, how many cards each hand and the talon hold; the deal's sights
say what else (:class:`~spec.engine.View`).  :func:`sample_worlds` draws deals uniformly
among those in which the seat would have seen, at every moment of the deal, exactly what
it did see; :func:`consistent_worlds` lists every such world, for small positions and
tests.  A :class:`World` is one such deal as dealt, and the position its actions reach.

How a draw is made (nothing here names a game, and the seat's knowledge is read from its
view alone):

1. Places.  The deal rule puts each card in a place: a seat's hand as the first stage
   deals it, the part of it later stages deal, or the talon; it says how many cards each
   place holds.  The seat knows its own cards, those it took from the talon and the
   turn-up; a card it saw another seat play, or hold in a hand laid open, was dealt to
   that seat, or to the talon if that seat had taken the talon by then; any other card
   may be in any place the seat cannot see.
2. A draw.  The deals that keep every card to its places and fill each place are counted
   exactly, classes of cards with the same places at a time (dynamic programming over the
   room each place has left), and one is drawn uniformly.
3. A check.  The deal is dealt and the deal's actions applied to it again, one by one.  A
   deal in which an action is illegal, or after which anything the seat's view shows
   differs from what it showed then, is refused.  An action whose card the seat never saw
   (a card laid aside, discarded, or played face down by another) is tried with each card
   the rules allow there, in random order, until one leads on.  A uniform draw from a set
   that holds every consistent deal, each kept exactly when it is consistent, leaves the
   deals kept uniform among the consistent ones.  A deal counts once however many ways
   its hidden cards could have gone; the world drawn takes one of them.
4. What the play tells.  A card played face up to a trick already led that the rules
   would have forbidden had the player also held another card (one of the suit he failed
   to follow, say) tells that he did not hold that card then; so does a card played face
   down, of each card that, held, would have left him none to play face down.  The engine
   is asked in the position of a deal that has passed the check so far, the player's
   hand made of just the cards in question (many at once, halved while the answer is
   no); a card it rules out leaves the places whose cards were then in his hand, for the
   draws after, unless he may have parted with it unseen before.  This reads two things
   of the rules, true of every game registered: whether a card may be played to a trick
   already led, and whether face down, depends on what every seat sees and the player's
   own hand; and a card legal with a hand is legal with any part of it that holds it.

Each world's state is a new deal of that dealer, with the real pot, no deal thrown in
before it and seed 0: nothing of the real deal's seed goes into a world.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from math import comb
from typing import Any

from spec.engine import (
    Action,
    Discard,
    Engine,
    Lay,
    Play,
    State,
    View,
    apply,
    engine_for,
    legal_actions,
)
from spec.errors import NotationError, NoWorldError, SpecError

__all__ = ["World", "consistent_worlds", "sample_worlds", "worlds_of"]

# the actions whose card a seat may not see
_CARD_ACTIONS = (Play, Lay, Discard)


@dataclass(frozen=True, slots=True, eq=False)
class World:
    """A deal one seat cannot tell from the real one.

    ``dealt`` holds each seat's hand as dealt (bitmasks of card numbers, every stage),
    ``later`` the part of each that later stages deal, ``turn_up`` the card dealt face up
    (-1 in a game without one); the talon is the rest of the pack.  ``state`` is the
    position now: the deal's actions applied to this deal, a card the seat never saw being
    this world's own.
    """

    dealt: tuple[int, ...]
    later: tuple[int, ...]
    turn_up: int
    state: State

    @property
    def talon(self) -> int:
        """The talon as dealt: the cards of the pack in no hand."""
        return self.state.dealt_talon


def sample_worlds(view: View, n: int, seed: int, *, attempts: int | None = None) -> list[World]:
    """``n`` worlds drawn independently and uniformly among the deals consistent with
    everything the seat of ``view`` has seen, from ``random.Random(seed)``: the same view,
    ``n`` and seed give the same worlds (and the first of them for a smaller ``n``).

    A deal is its hands as dealt (each split into the stages that deal it): one whose
    hidden cards (laid aside, discarded or played face down by another seat) could have
    gone several ways counts once, and its world takes one of those ways, found in random
    order.

    Args:
        view: the seat's view of a position reached by play (``state.view(seat)``).
        n: how many worlds, at least 1.
        seed: the seed of the draw.
        attempts: how many deals may be drawn and checked before giving up (by default
            ``1000 + 200 * n``).

    Raises:
        NotationError: ``n`` or ``attempts`` is not a positive number.
        NoWorldError: fewer than ``n`` of the deals drawn within ``attempts`` were
            consistent.
    """
    if n < 1:
        raise NotationError(f"the number of worlds must be at least 1, not {n}", value=n)
    limit = 1000 + 200 * n if attempts is None else attempts
    if limit < 1:
        raise NotationError(f"the attempts allowed must be at least 1, not {limit}",
                            value=limit)
    seen = _Seen(view)
    rng = random.Random(seed)
    out: list[World] = []
    draw = seen.draw()
    for _ in range(limit):
        if seen.narrowed:
            draw = seen.draw()
        dealt, later = draw.deal(rng)
        found = next(seen.worlds(dealt, later, rng), None)
        if found is not None:
            out.append(found)
            if len(out) == n:
                return out
    raise NoWorldError(f"{len(out)} of the {n} worlds asked for were found in {limit} deals "
                       f"drawn for {view.game.table.name(view.seat)}'s view: too few of the "
                       f"deals drawn agree with what that seat has seen", value=limit)


def consistent_worlds(view: View) -> Iterator[World]:
    """Every world consistent with what the seat of ``view`` has seen, each deal once for
    every way its hidden cards could have gone, in a fixed order.  Every deal the draw
    could propose is tried: for positions with few cards left unseen, in a game dealt in
    one stage (in one dealt in stages, each split of a hidden hand into its stages is a
    deal of its own, and there are many)."""
    seen = _Seen(view)
    for dealt, later in seen.draw().every():
        yield from seen.worlds(dealt, later, None)


def worlds_of(view: View, dealt: Sequence[int], later: Sequence[int] | None = None
              ) -> list[World]:
    """The worlds of one deal: ``dealt``, each seat's hand as dealt (bitmasks, every
    stage), ``later`` the part of each that later stages deal (none by default), with the
    turn-up the view shows.  One world for each way the cards the seat never saw could
    have gone; none when the seat could tell this deal from the real one.

    Raises:
        NotationError: the hands do not share out the deck as the deal rule does.
    """
    seen = _Seen(view)
    rest = tuple(later) if later is not None else (0,) * len(dealt)
    return list(seen.worlds(tuple(dealt), rest, None))


def _sight(view: View) -> tuple[Any, ...]:
    """Everything ``view`` shows but the finished tricks, as one value to compare (the
    finished tricks are compared apart, when one is added: they do not change)."""
    legal: tuple[Action, ...] | None = ()
    if view.turn == view.seat:
        try:
            legal = view.legal_actions()
        except SpecError:
            legal = None
    return (view.phase, view.turn, view.hand.mask, view.aside.mask, view.discards.mask,
            view.talon_size, view.turn_up, tuple((s, h.mask) for s, h in view.open_hands),
            view.partner, view.calls, view.trump, view.dropped, view.current_trick, legal,
            view.hand_sizes)


def _places(eng: Engine, dealer: int, cards: int) -> list[int]:
    """How many cards the deal puts in each place: seat ``k``'s first-stage hand is place
    ``2k``, the part later stages deal it ``2k + 1``, the talon the last place."""
    n = eng.game.players
    room = [0] * (2 * n + 1)
    for stage in range(1, eng.game.stages + 1):
        for seat in eng.stage_seats(dealer, stage):
            if seat >= 0:
                room[2 * seat + (stage > 1)] += 1
    room[2 * n] = cards - sum(room)
    return room


def _turn_up_place(eng: Engine, dealer: int) -> int:
    """The place of the card dealt face up: its holder's, in the stage that deals it."""
    order = list(range(len(eng.game.deck)))
    at = eng.turn_up_of(eng.hands_from_order(order, dealer), dealer, pack=order)
    return 2 * eng.turn_up_holder(dealer) + (at >= len(eng.stage_seats(dealer, 1)))


class _Seen:
    """What one seat knows of a deal, read from its view, and the check of a deal against
    it: the places each card may have been dealt to, what the view showed after each
    action, and what the cards played face up have told so far."""

    def __init__(self, view: View) -> None:
        game = view.game
        self.eng = engine_for(game)
        self.deck = game.deck
        self.seat, self.dealer, self.pot, self.log = view.seat, view.dealer, view.pot, view.log
        past = view.past()
        self.sights = [_sight(v) for v in past]
        self.tricks = [v.tricks for v in past]
        self.room = _places(self.eng, self.dealer, len(self.deck))
        self.fixed, self.allowed = self._read(past)
        up = view.turn_up
        self.turn_up = self.deck.index(up) if up is not None else -1
        # for each step, the cards of the actions seen after it (a card played or discarded
        # stays where it went, so no action hidden at that step can be one of them)
        self.shown_after = [0] * (len(self.log) + 1)
        for i in range(len(self.log) - 1, -1, -1):
            _seat, action = self.log[i]
            card = 1 << self.deck.index(action.card) if isinstance(action, _CARD_ACTIONS) else 0
            self.shown_after[i] = self.shown_after[i + 1] | card
        # the steps at which each seat acted unseen
        self.hidden_of: list[list[int]] = [[] for _ in range(game.players)]
        for i, (seat, action) in enumerate(self.log):
            if action is None:
                self.hidden_of[seat].append(i)
        self.learnt: set[int] = set()  # the steps learnt from
        self.could_be: dict[int, frozenset[int]] = {}  # the cards an unseen action may be
        self.narrowed = False
        self.place_of: dict[int, int] = {}  # the deal being checked: each card's place

    def _read(self, past: Sequence[View]) -> tuple[dict[int, int], dict[int, frozenset[int]]]:
        """The cards whose place the seat knows, and the places each other card may be in."""
        n, me, talon = len(self.room) // 2, self.seat, len(self.room) - 1
        fixed: dict[int, int] = {}
        took = [len(self.log) + 1] * n  # when each seat took cards from the talon
        seen = past[0].seen_cards.mask
        for card in _bits(past[0].hand.mask):
            fixed[card] = 2 * me
        for k, (before, after) in enumerate(zip(past, past[1:]), 1):
            new = after.hand.mask & ~seen
            from_talon = after.talon_size < before.talon_size
            for card in _bits(new):
                fixed[card] = talon if from_talon else 2 * me + 1
            if from_talon:
                for seat, (was, now) in enumerate(zip(before.hand_sizes, after.hand_sizes)):
                    if now > was:
                        took[seat] = min(took[seat], k)
            seen |= after.seen_cards.mask
        view = past[-1]
        if view.turn_up is not None:
            fixed.setdefault(self.deck.index(view.turn_up), _turn_up_place(self.eng, self.dealer))
        # the seat's own later cards are hidden from it until they are dealt to it
        full = [0] * len(self.room)
        for place in fixed.values():
            full[place] += 1
        hidden = frozenset(p for p, r in enumerate(self.room)
                           if r and (p // 2 != me or full[p] < r))
        allowed = {card: hidden for card in range(len(self.deck)) if card not in fixed}
        shown = [(seat, self.deck.index(a.card), i) for i, (seat, a) in enumerate(self.log)
                 if isinstance(a, _CARD_ACTIONS)]
        shown += [(seat, card, len(self.log)) for seat, held in view.open_hands
                  for card in _bits(held.mask)]
        for seat, card, i in shown:
            if card in allowed and seat != me:
                own = {2 * seat, 2 * seat + 1} | ({talon} if took[seat] <= i else set())
                allowed[card] = allowed[card] & frozenset(own)
        return fixed, allowed

    def draw(self) -> _Draw:
        """The uniform draw of deals under what is known now."""
        self.narrowed = False
        return _Draw(self.room, self.fixed, self.allowed)

    def worlds(self, dealt: tuple[int, ...], later: tuple[int, ...],
               rng: random.Random | None) -> Iterator[World]:
        """The worlds of one deal: each way its hidden cards could have gone that the seat
        could not tell from what it saw; with ``rng``, tried in random order and the cards
        the play tells of learnt (the first is all a draw takes)."""
        self.place_of = {c: 2 * s + bool(later[s] >> c & 1) for s, h in enumerate(dealt)
                         for c in _bits(h)}
        turn_up = self.turn_up
        state = self.eng.start(dealt, dealer=self.dealer, later=later,
                               turn_up=turn_up if turn_up >= 0 else None)
        if state.pot != self.pot:
            state = replace(state, pot=self.pot)
        view = state.view(self.seat)
        if _sight(view) != self.sights[0] or view.tricks != self.tricks[0]:
            return
        for end in self._on(state, 0, rng):
            yield World(dealt, later, turn_up, end)

    def _on(self, state: State, i: int, rng: random.Random | None) -> Iterator[State]:
        """The positions at the end of the log reached from ``state``, before action ``i``,
        along which the seat sees what it saw."""
        if i == len(self.log):
            yield state
            return
        seat, action = self.log[i]
        if state.turn != seat:
            return
        if action is None:
            options = self._hidden(state, i, rng)
        else:
            options = [action]
        if rng is not None and seat != self.seat and i not in self.learnt:
            self._learn(state, i, options)
        for a in options:
            try:
                after = apply(state, a)
            except SpecError:
                continue
            view = after.view(self.seat)
            if _sight(view) == self.sights[i + 1] and (
                    after.tricks is state.tricks or view.tricks == self.tricks[i + 1]):
                yield from self._on(after, i + 1, rng)

    def _hidden(self, state: State, i: int, rng: random.Random | None) -> list[Action]:
        """The actions that may have been action ``i``, whose card the seat did not see."""
        try:
            acts = legal_actions(state)
        except SpecError:
            return []
        # a card laid aside may come back to the hand and be played later; one played or
        # discarded may not
        later = self.shown_after[i + 1]
        out: list[Action] = [a for a in acts if isinstance(a, Lay) or (
            isinstance(a, (Play, Discard)) and not later >> self.deck.index(a.card) & 1)]
        if rng is not None:
            rng.shuffle(out)
        return out

    def _learn(self, state: State, i: int, options: list[Action]) -> None:
        """Learn from action ``i`` of another seat, a card played to a trick already led,
        which cards the actor did not hold then: for a card played face up, those that,
        held with it, would have made it illegal; for a card played face down, those that,
        held alone or with any other card, would have left no card to play face down.
        ``state`` is the position before it in a deal that has shown the seat what it saw
        so far.  A card the actor may have played unseen before, laid aside or discarded
        is not learnt of: it may have left his hand that way."""
        actor, action = self.log[i]
        played = self.deck.index(action.card) if isinstance(action, Play) else -1
        unseen = action is None and all(isinstance(a, Play) for a in options)
        if (state.aside and state.aside[actor]) or (
                played >= 0 and not state.hands[actor] >> played & 1):
            return  # a position unlike the real one in the cards at hand: another time
        self.learnt.add(i)
        if not state.trick or not (played >= 0 or unseen):
            return  # a lead, a call, an announcement, a card laid aside or discarded
        acted = 0
        for _s, a in self.log[:i]:
            if isinstance(a, _CARD_ACTIONS):
                acted |= 1 << self.deck.index(a.card)
        unknown = [c for c in self.allowed if not acted >> c & 1]
        if unseen:
            self.could_be[i] = frozenset(x for x in unknown
                                         if self._face_down(state, x, unknown, x))
        elif self._allows(state, played, 0) is not True:
            return
        maybe: set[int] = set()
        for j in self.hidden_of[actor]:
            if j < i:
                maybe.update(self.could_be.get(j, self.allowed.keys()))
        flows = self._flows(state, actor)
        asked = [x for x in unknown if x != played and x not in maybe and self.allowed[x] & flows]
        gone = (self._forbidding(state, played, asked) if played >= 0
                else [x for x in asked if not self._face_down(state, x, unknown, -1)])
        for x in gone:
            self.allowed[x] -= flows
            self.narrowed = True

    def _forbidding(self, state: State, card: int, cards: list[int]) -> list[int]:
        """The cards of ``cards`` each of which, held with ``card``, makes it illegal to
        play: found by halves, for a card legal with many others is legal with each."""
        if not cards or self._allows(state, card, sum(1 << x for x in cards)) is not False:
            return []
        if len(cards) == 1:
            return cards
        half = len(cards) // 2
        return (self._forbidding(state, card, cards[:half])
                + self._forbidding(state, card, cards[half:]))

    def _allows(self, state: State, card: int, also: int) -> bool | None:
        """Whether ``card`` would be legal for the seat to play in ``state`` were its hand
        that card and the cards ``also``; None when the rules leave no answer."""
        hands = list(state.hands)
        hands[state.turn] = 1 << card | also
        try:
            acts = legal_actions(replace(state, hands=tuple(hands)))
        except SpecError:
            return None
        return any(isinstance(a, Play) and self.deck.index(a.card) == card for a in acts)

    def _face_down(self, state: State, x: int, others: list[int], card: int) -> bool:
        """Whether the seat to play in ``state``, holding ``x`` alone or with one card of
        ``others``, may play a card face down (``card`` only, unless it is -1)."""
        hands = list(state.hands)
        done = len(state.tricks)
        for y in [x, *others]:
            hands[state.turn] = 1 << x | 1 << y
            probe = replace(state, hands=tuple(hands))
            try:
                acts = legal_actions(probe)
            except SpecError:
                continue
            for a in acts:
                if isinstance(a, Play) and card in (-1, self.deck.index(a.card)):
                    try:
                        after = apply(probe, a)
                    except SpecError:
                        continue
                    if after.trick:
                        down = after.faces[len(after.trick) - 1] if after.faces else False
                    elif len(after.tricks) == done + 1:
                        faces = after.tricks[-1].face_down
                        down = faces[-1] if faces else False
                    else:
                        down = False
                    if down:
                        return True
        return False

    def _flows(self, state: State, seat: int) -> frozenset[int]:
        """The places whose cards not yet acted on are all in ``seat``'s hand in ``state``
        (of the deal being checked): a card of one of them not acted on is in his hand."""
        acted = 0
        for _s, a in state.log:
            if isinstance(a, _CARD_ACTIONS):
                acted |= 1 << self.deck.index(a.card)
        left: dict[int, int] = {}
        for c, p in self.place_of.items():
            if not acted >> c & 1:
                left[p] = left.get(p, 0) | 1 << c
        return frozenset(p for p, cards in left.items() if not cards & ~state.hands[seat])


class _Draw:
    """The deals that put each card in one of its places and fill every place, counted by
    classes of cards with the same places, and drawn uniformly.

    Places that every card may be in together or not at all are counted as one (a seat's
    first-stage hand and its later cards, say): the cards drawn for them are then shared
    among them uniformly, which every such share allows alike.
    """

    def __init__(self, room: Sequence[int], fixed: dict[int, int],
                 allowed: dict[int, frozenset[int]]) -> None:
        self.base = [0] * len(room)
        left = list(room)
        for card, place in fixed.items():
            self.base[place] |= 1 << card
            left[place] -= 1
        self.left = left
        open_ = [p for p, r in enumerate(left) if r > 0]
        # the places each card may be in that have room, and the places alike for all cards
        sets = {card: frozenset(p for p in places if left[p] > 0)
                for card, places in allowed.items()}
        kinds: dict[tuple[bool, ...], list[int]] = {}
        distinct = sorted(set(sets.values()), key=sorted)
        for p in open_:
            kinds.setdefault(tuple(p in s for s in distinct), []).append(p)
        self.members = sorted(kinds.values())
        merged = {p: m for m, ps in enumerate(self.members) for p in ps}
        groups: dict[tuple[int, ...], list[int]] = {}
        for card, places in sets.items():
            groups.setdefault(tuple(sorted({merged[p] for p in places})), []).append(card)
        self.classes = sorted((places, sorted(cards)) for places, cards in groups.items())
        self.rest = [sum(len(c) for _p, c in self.classes[i:])
                     for i in range(len(self.classes) + 1)]
        self.memo: dict[tuple[int, int, int, tuple[int, ...]], int] = {}
        self.room = tuple(sum(left[p] for p in ps) for ps in self.members)
        self.total = (0 if min(left) < 0 or any(not p for p, _c in self.classes)
                      else self._ways(0, 0, self._size(0), self.room))

    def _size(self, i: int) -> int:
        return len(self.classes[i][1]) if i < len(self.classes) else 0

    def _ways(self, i: int, j: int, rem: int, room: tuple[int, ...]) -> int:
        """The ways to place the ``rem`` cards of class ``i`` left over its places from the
        ``j``-th on, and every class after it, with ``room`` left in each place."""
        if i == len(self.classes):
            return 0 if any(room) else 1
        if j == 0 and sum(room) != self.rest[i]:
            return 0
        key = (i, j, rem, room)
        found = self.memo.get(key)
        if found is not None:
            return found
        places = self.classes[i][0]
        p = places[j]
        total = 0
        if j == len(places) - 1:
            if rem <= room[p]:
                total = self._ways(i + 1, 0, self._size(i + 1), _less(room, p, rem))
        else:
            for k in range(min(rem, room[p]) + 1):
                ways = self._ways(i, j + 1, rem - k, _less(room, p, k))
                if ways:
                    total += comb(rem, k) * ways
        self.memo[key] = total
        return total

    def _counts(self, rng: random.Random) -> list[list[int]]:
        """How many cards of each class go to each of its places, drawn with the weight
        of the deals each choice leaves."""
        out: list[list[int]] = []
        room = self.room
        for i, (places, cards) in enumerate(self.classes):
            rem, counts = len(cards), []
            for j, p in enumerate(places):
                if j == len(places) - 1:
                    k = rem
                else:
                    pick = rng.randrange(self._ways(i, j, rem, room))
                    for k in range(min(rem, room[p]) + 1):
                        ways = comb(rem, k) * self._ways(i, j + 1, rem - k, _less(room, p, k))
                        if pick < ways:
                            break
                        pick -= ways
                counts.append(k)
                rem, room = rem - k, _less(room, p, k)
            out.append(counts)
        return out

    def deal(self, rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """One deal drawn uniformly: the hands as dealt and their later parts."""
        if not self.total:
            raise NoWorldError("no deal puts every card where the seat's view allows it",
                               value=0)
        drawn: list[list[int]] = [[] for _ in self.members]
        for (places, cards), counts in zip(self.classes, self._counts(rng)):
            order = list(cards)
            rng.shuffle(order)
            at = 0
            for m, k in zip(places, counts):
                drawn[m] += order[at:at + k]
                at += k
        placed = list(self.base)
        for m, cards in enumerate(drawn):
            cards.sort()
            rng.shuffle(cards)
            at = 0
            for p in self.members[m]:
                for card in cards[at:at + self.left[p]]:
                    placed[p] |= 1 << card
                at += self.left[p]
        return _hands(placed)

    def every(self) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every deal the draw could give, in a fixed order."""
        if not self.total:
            return
        for drawn in self._each(0, [() for _ in self.members], self.room):
            for shares in _product([_splits(sorted(cards), tuple(self.members[m]), self.left)
                                    for m, cards in enumerate(drawn)]):
                placed = list(self.base)
                for share in shares:
                    for p, cards in share:
                        for card in cards:
                            placed[p] |= 1 << card
                yield _hands(placed)

    def _each(self, i: int, drawn: list[tuple[int, ...]], room: tuple[int, ...]
              ) -> Iterator[list[tuple[int, ...]]]:
        if i == len(self.classes):
            if not any(room):
                yield drawn
            return
        places, cards = self.classes[i]
        for split in _splits(cards, places, room):
            now = list(drawn)
            left = room
            for m, chosen in split:
                now[m] = now[m] + chosen
                left = _less(left, m, len(chosen))
            if self._ways(i + 1, 0, self._size(i + 1), left):
                yield from self._each(i + 1, now, left)


def _product(choices: list[Iterator[Any]]) -> Iterator[list[Any]]:
    """Every way to take one of each (each iterator is read once, lazily)."""
    if not choices:
        yield []
        return
    rest = list(_product(choices[1:]))
    for first in choices[0]:
        for more in rest:
            yield [first, *more]


def _splits(cards: Sequence[int], places: Sequence[int], room: Sequence[int]
            ) -> Iterator[list[tuple[int, tuple[int, ...]]]]:
    """Every way to share ``cards`` out among ``places`` within their ``room``."""
    if not places:
        if not cards:
            yield []
        return
    p, rest = places[0], places[1:]
    most = min(len(cards), room[p]) if rest else len(cards)
    if most > room[p]:
        return
    for k in range(most + 1) if rest else (most,):
        for chosen in combinations(cards, k):
            others = [c for c in cards if c not in chosen]
            for split in _splits(others, rest, room):
                yield [(p, chosen), *split]


def _less(room: tuple[int, ...], p: int, k: int) -> tuple[int, ...]:
    if not k:
        return room
    out = list(room)
    out[p] -= k
    return tuple(out)


def _hands(placed: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The hands as dealt and their later parts, from the cards of each place."""
    n = len(placed) // 2
    return (tuple(placed[2 * k] | placed[2 * k + 1] for k in range(n)),
            tuple(placed[2 * k + 1] for k in range(n)))


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
