"""Dealing: the pack for a seed, the packets and stages, hands checked, and redeals."""
from __future__ import annotations

import _random
import random
from collections.abc import Callable, Sequence
from hashlib import sha512
from typing import Any

from spec.cards import CardSet
from spec.dsl._program import PackBetweenDeals
from spec.engine._compiled import CompiledRules
from spec.engine._state import State, ThrownIn, copy_into, freeze, thaw
from spec.errors import NotationError
from spec.seats import seat_after, seats_from


def _shuffled(size: int, rng: random.Random) -> list[int]:
    """``list(range(size))`` shuffled by ``rng`` exactly as ``rng.shuffle`` shuffles it: the
    same draws of ``getrandbits`` (``_randbelow`` inlined), at about half the cost."""
    x = list(range(size))
    getrandbits = rng.getrandbits
    for i in range(size - 1, 0, -1):
        m = i + 1
        k = m.bit_length()
        j = getrandbits(k)
        while j >= m:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
    return x


def _same_as_shuffle() -> bool:
    """Whether :func:`_shuffled` draws as this Python's ``random.shuffle`` does."""
    for seed in range(8):
        order = list(range(53))
        random.Random(seed).shuffle(order)
        if order != _shuffled(53, random.Random(seed)):
            return False
    return True


def _seeded_from_text(text: str) -> random.Random:
    """``random.Random(text)``, seeded as it seeds from a string (the text and its SHA-512
    as one integer), without the generic ``seed`` method's checks of the argument."""
    data = text.encode()
    rng = _new_random(random.Random)
    _seed_random(rng, int.from_bytes(data + sha512(data).digest(), "big"))
    rng.gauss_next = None
    return rng


def _same_seeding() -> bool:
    """Whether :func:`_seeded_from_text` seeds as this Python's ``random.Random`` does."""
    return all(_seeded_from_text(f"seed:{k}").getrandbits(64) == random.Random(f"seed:{k}").getrandbits(64)
               for k in range(8))


def seeded_from_int(seed: int) -> random.Random:
    """``random.Random(seed)`` for an integer seed, seeded as its ``seed`` method seeds
    from an integer, without the generic method's checks of the argument (the random
    bots' generator: a deal's draws start here)."""
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None
    return rng


def _same_int_seeding() -> bool:
    """Whether :func:`seeded_from_int` seeds as this Python's ``random.Random`` does."""
    return all(seeded_from_int(k).random() == random.Random(k).random()
               for k in (0, 1, 7, 2**40 + 3, -5))


_FAST_SHUFFLE = _same_as_shuffle()
_new_random, _seed_random = random.Random.__new__, _random.Random.seed
_seeded = _seeded_from_text if _same_seeding() else random.Random
int_seeded: Callable[[int], random.Random] = (seeded_from_int if _same_int_seeding()
                                              else random.Random)


class Dealing(CompiledRules):
    """Dealing the pack: a deal from a seed or from given hands, in stages, and again."""

    def deal_order(self, seed: int, redeals: int = 0) -> list[int]:
        """The shuffled pack (card numbers, top first) for a seed and a redeal count."""
        rng = _seeded(f"{self.game.key}:{seed}:{redeals}")
        if _FAST_SHUFFLE:
            return _shuffled(len(self.game.deck), rng)
        order = list(range(len(self.game.deck)))
        rng.shuffle(order)
        return order

    def deal(self, seed: int, dealer: int, pack: Sequence[int] | None = None, redeals: int = 0,
             thrown_in: tuple[Any, ...] = ()) -> State:
        """A new deal from ``pack`` (card numbers, top first), or shuffled from the seed:
        what ``start(hands_from_order(pack), pack=pack)`` gives, the pack dealt once."""
        order = self.deal_order(seed, redeals) if pack is None else pack
        schedule = self._schedule(dealer)
        if len(schedule[0]) != len(order):  # a pack of the wrong size: the long way, refused
            return self.start(self.hands_from_order(order, dealer), dealer=dealer, seed=seed,
                              redeals=redeals, thrown_in=thrown_in, pack=order)
        if pack is not None:  # a shuffle of our own is a permutation of the pack
            self._check_order(order)
        seats, first = schedule
        # one slot more than seats: seat -1, the talon, lands in it
        hands, late = [0] * (self.n + 1), [0] * (self.n + 1)
        for seat, card in zip(seats, order):
            hands[seat] |= 1 << card
        if first < len(seats):
            for seat, card in zip(seats[first:], order[first:]):
                late[seat] |= 1 << card
        dealt = tuple(hands[:-1])
        late.pop()
        # whether the hands of a permutation of the pack pass depends on the schedule only
        if dealer not in self._dealt_ok:
            self.check_hands(dealt)
            self._dealt_ok.add(dealer)
        at = self._turn_up_at
        return self._started(dealt, tuple(late), dealer, seed, redeals, thrown_in,
                             -1 if at is None else order[at])

    def _schedule(self, dealer: int) -> tuple[tuple[int, ...], int]:
        """The seat each card of the pack goes to, every stage, and the number the first
        stage deals."""
        key = (dealer, 0)
        seats = self._deal_seats.get(key)
        if seats is None:
            seats = self._deal_seats[key] = tuple(
                seat for stage in range(1, self.stages + 1) for seat in self.stage_seats(dealer, stage))
        return seats, len(self.stage_seats(dealer, 1))

    @property
    def full_mask(self) -> int:
        return (1 << len(self.game.deck)) - 1

    @property
    def carries_pack(self) -> bool:
        """Whether the pack is carried from one deal to the next (gathered and cut)."""
        return self.game.program.pack is PackBetweenDeals.GATHERED_AND_CUT

    def gathered(self, s: State) -> list[int]:
        """The pack a deal leaves, gathered without a shuffle: its tricks in the order they
        were won, each trick's cards in the order they were played, then the cards still
        held (a deal thrown in or ended early), hand by hand from the seat after the dealer,
        low card first."""
        order = [c for t in s.tricks for c in t.cards]
        held = [h | (s.pending[i] if s.pending else 0) | (s.aside[i] if s.aside else 0)
                for i, h in enumerate(s.hands)] + [s.talon | s.discards | s.folded]
        for k in range(1, self.n + 2):  # the talon, the discards or hands laid down last
            hand = held[seat_after(s.dealer, self.n, k)] if k <= self.n else held[-1]
            order += [i for i in range(len(self.game.deck)) if hand >> i & 1]
        return order

    def cutter(self, s: State) -> int:
        """The seat that cuts the pack, by the rule that names one (-1: none), read in
        the state ``s`` of a deal: with a fresh shuffle, who cut the pack ``s`` was dealt
        from; with the pack carried, who cuts the pack gathered from ``s`` for the deal
        after it (the rule is read in the deal just played, as ``GatherAndCut`` says)."""
        return -1 if self._cut_by is None else int(self._cut_by(s))  # type: ignore[attr-defined]

    def cut(self, order: Sequence[int], seed: int, redeals: int) -> list[int]:
        """The pack cut at a point drawn from the seed, leaving each part the least the
        game allows: the top part goes under the rest."""
        least = self.game.program.least_cut
        at = random.Random(f"{self.game.key}:{seed}:{redeals}:cut").randint(least, len(order) - least)
        return list(order[at:]) + list(order[:at])

    def next_pack(self, previous: State, seed: int) -> list[int] | None:
        """The pack of the deal after ``previous``, from ``seed``: gathered from it and cut
        where the game carries the pack, else None (shuffled afresh from the seed)."""
        if not self.carries_pack:
            return None
        return self.cut(self.gathered(previous), seed, 0)

    def stage_seats(self, dealer: int, stage: int) -> tuple[int, ...]:
        """The seat each card of one dealing stage goes to, top of the pack first; -1 for
        a card dealt to the talon."""
        key = (dealer, stage)
        seats = self._deal_seats.get(key)
        if seats is None:
            dealt_in = self.dealt_in(self._deal_first[stage - 1](dealer), dealer)
            seats = tuple(-1 if k < 0 else dealt_in[k] for k in self.game.program.layout(stage))
            self._deal_seats[key] = seats
        return seats

    def idle_seat(self, dealer: int) -> int:
        """The seat that sits the deal of ``dealer`` out (-1: none)."""
        return self._idle_of(dealer) if self._idle_of is not None else -1  # type: ignore[no-any-return]

    def dealt_in(self, first: int, dealer: int) -> tuple[int, ...]:
        """The seats dealt in, in the direction of play from ``first``, an idle seat passed
        over (the order the deal, the auction and the play go round)."""
        idle = self.idle_seat(dealer)
        return seats_from(first, self.n, (idle,))

    def hands_from_order(self, order: Sequence[int], dealer: int) -> tuple[int, ...]:
        """Deal a pack in the game's packets (every stage), starting with the seat each
        stage's deal rule names."""
        self._check_order(order)
        hands = [0] * self.n
        pos = 0
        for stage in range(1, self.stages + 1):
            for seat in self.stage_seats(dealer, stage):
                if seat >= 0:
                    hands[seat] |= 1 << order[pos]
                pos += 1
        return tuple(hands)

    def _check_order(self, order: Sequence[int]) -> None:
        if sorted(order) != list(range(len(self.game.deck))):
            raise NotationError(
                f"a pack order must list every card number 0..{len(self.game.deck) - 1} once",
                value=order,
            )

    def stage_hands(self, order: Sequence[int], dealer: int) -> list[tuple[int, ...]]:
        """The cards each seat receives at each stage of the deal."""
        out = []
        pos = 0
        for stage in range(1, self.stages + 1):
            hands = [0] * self.n
            for seat in self.stage_seats(dealer, stage):
                if seat >= 0:
                    hands[seat] |= 1 << order[pos]
                pos += 1
            out.append(tuple(hands))
        return out

    def start(self, hands: Sequence[int], *, dealer: int, seed: int = 0, redeals: int = 0,
              thrown_in: tuple[Any, ...] = (), later: Sequence[int] | None = None,
              pack: Sequence[int] | None = None, turn_up: int | None = None) -> State:
        """The state at the start of the auction, from hands as dealt.

        In a game that deals in stages, ``hands`` are the whole deal and ``later`` the part
        of each hand that arrives after the first auction (by default the cards the deal
        order, or ``pack`` when the hands were dealt from it, would give late, as dealt by
        :meth:`split_stages`).  In a game that deals a card face up, ``turn_up`` is that
        card (by default as :meth:`turn_up_of` finds it).

        Raises:
            NotationError: the hands do not share out the deck as the deal rule does, or
                the turn-up is not in the hand it is dealt to.
        """
        hands = tuple(hands)
        self.check_hands(hands)
        idle = self.idle_seat(dealer)
        if idle >= 0 and hands[idle]:
            raise NotationError(f"{self.table.name(idle)} sits the deal out and is dealt no "
                                f"cards, not {CardSet(self.game.deck, hands[idle])}", value=hands)
        if later is not None:
            self.check_later(hands, later)
        pending = (tuple(later) if later is not None
                   else self.split_stages(hands, seed, redeals, dealer, pack))
        up = -1
        if self._turn_up_at is not None:
            up = self.turn_up_of(hands, dealer, seed, redeals, pack) if turn_up is None else turn_up
            holder = self.turn_up_holder(dealer)
            if not 0 <= up < len(self.game.deck) or not hands[holder] >> up & 1:
                raise NotationError(f"the turn-up must be a card of {self.table.name(holder)}'s "
                                    f"hand, who is dealt it", value=up)
        elif turn_up is not None:
            raise NotationError(f"{self.game.name} deals no card face up", value=turn_up)
        return self._started(hands, pending, dealer, seed, redeals, thrown_in, up)

    def turn_up_holder(self, dealer: int) -> int:
        """The seat dealt the card turned face up in a deal of ``dealer`` (-1 in a game
        that deals none)."""
        at = self._turn_up_at
        return -1 if at is None else self._schedule(dealer)[0][at]

    def turn_up_of(self, hands: Sequence[int], dealer: int, seed: int = 0, redeals: int = 0,
                   pack: Sequence[int] | None = None) -> int:
        """The card dealt face up in a deal of ``hands``: the one at the turn-up's place in
        ``pack`` (or the seed's pack) when the hands were dealt from it; for hands given
        whole, the highest-numbered card of the hand it is dealt to (a fixed, documented
        choice, like :meth:`split_stages`')."""
        at = self._turn_up_at
        assert at is not None
        order = self.deal_order(seed, redeals) if pack is None else pack
        if tuple(hands) == self.hands_from_order(order, dealer):
            return order[at]
        return hands[self._schedule(dealer)[0][at]].bit_length() - 1

    def _started(self, dealt: tuple[int, ...], pending: tuple[int, ...], dealer: int, seed: int,
                 redeals: int, thrown_in: tuple[Any, ...], turn_up: int = -1) -> State:
        """The state at the start of the auction: ``dealt`` checked, ``pending`` the cards
        dealt after the first stage; then the first step begins, as the steps say."""
        w = thaw(self._before_deal)
        w.dealer, w.seed, w.redeals, w.dealt, w.thrown_in = dealer, seed, redeals, dealt, thrown_in
        w.hands = tuple(h & ~p for h, p in zip(dealt, pending))
        w.pending = w.dealt_later = pending
        talon = self.full_mask
        for h in dealt:
            talon &= ~h
        w.talon, w.turn_up = talon, turn_up
        if self._idle_of is not None:
            w.idle = idle = self.idle_seat(dealer)
            w.absent = 1 << idle
        self._begin(w)  # type: ignore[attr-defined]  # the first step: who calls first
        return freeze(w)

    def check_later(self, hands: Sequence[int], later: Sequence[int]) -> None:
        """Refuse ``later`` unless it gives each seat dealt cards, after the first stage,
        as many of its own cards as the later stages deal it.

        Raises:
            NotationError: it does not.
        """
        first = sum(self._deals[0].packets) if self.stages > 1 else None  # type: ignore[union-attr]
        if len(later) != self.n:
            raise NotationError(f"the cards dealt late name {len(later)} hands, not {self.n}",
                                value=later)
        for seat, (h, late) in enumerate(zip(hands, later)):
            if first is None and late:
                raise NotationError(f"{self.game.name} deals every card at once", value=later)
            if late & ~h:
                raise NotationError(f"{CardSet(self.game.deck, late & ~h)} dealt late to "
                                    f"{self.table.name(seat)} are not in his hand", value=later)
            if h and first is not None and late.bit_count() != h.bit_count() - first:
                raise NotationError(f"{self.table.name(seat)} is dealt {h.bit_count() - first} "
                                    f"cards after the first stage, not {late.bit_count()}",
                                    value=later)

    def later_implied(self, dealt: Sequence[int], later: Sequence[int], seed: int,
                      redeals: int, dealer: int) -> bool:
        """Whether the cards dealt after the first stage, ``later``, are those a deal of
        ``dealt`` from ``seed`` has when nothing says which (:meth:`split_stages`): a
        record need not name them."""
        return self.stages == 1 or tuple(later) == self.split_stages(dealt, seed, redeals,
                                                                        dealer)

    def split_stages(self, hands: Sequence[int], seed: int, redeals: int, dealer: int,
                     pack: Sequence[int] | None = None) -> tuple[int, ...]:
        """The cards of each hand dealt after the first stage.

        For a deal dealt from a pack (``pack``, or the seed's) these are the cards the pack
        gives late; for hands given whole, the highest-numbered cards of each hand (a fixed,
        documented choice).
        """
        if self.stages == 1:
            return (0,) * self.n
        order = self.deal_order(seed, redeals) if pack is None else pack
        if tuple(hands) == self.hands_from_order(order, dealer):
            parts = self.stage_hands(order, dealer)
            late = [0] * self.n
            for part in parts[1:]:
                for s in range(self.n):
                    late[s] |= part[s]
            return tuple(late)
        first_size = sum(self._deals[0].packets)  # type: ignore[union-attr]
        late = []
        for h in hands:
            bits = [i for i in range(len(self.game.deck)) if h >> i & 1]
            late.append(sum(1 << i for i in bits[first_size:]))
        return tuple(late)

    def check_hands(self, hands: Sequence[int]) -> None:
        """Raise NotationError unless the hands share out the deck as the deal rule does
        (the cards of no hand are the talon; a seat idle for the deal has none)."""
        full = self.full_mask
        size = sum(self.packets)
        idle = self.n - self.game.program.dealt_seats
        if len(hands) != self.n:
            raise NotationError(f"expected {self.n} hands, got {len(hands)}", value=hands)
        seen = 0
        for s, h in enumerate(hands):
            if h & seen:
                dup = CardSet(self.game.deck, h & seen)
                raise NotationError(f"card {dup} is dealt twice", value=hands)
            seen |= h
            if h.bit_count() != size and not (idle and h == 0):
                raise NotationError(
                    f"{self.table.name(s)} has {h.bit_count()} cards; the deal gives {size}",
                    value=hands,
                )
        if idle and sum(h == 0 for h in hands) != idle:
            raise NotationError(f"one seat sits the deal out and is dealt no cards; the "
                                f"hands given leave {sum(h == 0 for h in hands)} empty",
                                value=hands)
        if (full & ~seen).bit_count() != self.game.program.talon_cards:
            raise NotationError(f"cards {CardSet(self.game.deck, full & ~seen)} are not dealt",
                                value=hands)

    def checked_pot(self, pot: int) -> int:
        """``pot`` as the chips a deal may start with: a positive multiple of the pot's
        granularity.

        Raises:
            NotationError: the game keeps no pot, or no deal can start with ``pot``.
        """
        body = self.pot_rule
        if body is None:
            raise NotationError(f"{self.game.name} keeps no pot", value=pot)
        if isinstance(pot, bool) or not isinstance(pot, int) or pot < body.granularity \
                or pot % body.granularity:
            raise NotationError(f"a pot of {pot!r} chips: {self.game.name}'s pot holds a positive "
                                f"multiple of {body.granularity}", value=pot)
        return pot

    def _redeal(self, w: Any, steps: int, reason: str) -> None:
        """The deal of the working state ``w`` is thrown in: ``w`` becomes the next one."""
        dealer = seat_after(w.dealer, self.n, steps)
        redeals = w.redeals + 1
        order = (self.cut(self.gathered(w), w.seed, redeals) if self.carries_pack
                 else self.deal_order(w.seed, redeals))
        pot = w.pot  # a deal thrown in pays nothing: the pot stays as it was
        copy_into(w, self.deal(w.seed, dealer, order, redeals, w.thrown_in + (
            ThrownIn(w.dealt, w.log, reason, w.dealer, w.fired, w.dealt_later),)))
        w.pot = pot

    def tracked_values(self, values: dict[str, Any] | None) -> tuple[Any, ...]:
        """The tracked values of a new deal, with some set by name."""
        tv = list(self._tracked_initial)
        for name, value in (values or {}).items():
            tv[self.tracked_index[name]] = value
        return tuple(tv)
