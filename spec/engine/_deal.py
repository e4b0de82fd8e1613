"""Dealing: the pack for a seed, the packets and stages, hands checked, and redeals."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from spec.cards import CardSet
from spec.dsl._program import PackBetweenDeals
from spec.errors import NotationError

from spec.engine._compiled import CompiledRules
from spec.engine._state import State, ThrownIn, _dealt


class Dealing(CompiledRules):
    """Dealing the pack: a deal from a seed or from given hands, in stages, and again."""

    def deal_order(self, seed: int, redeals: int = 0) -> list[int]:
        """The shuffled pack (card numbers, top first) for a seed and a redeal count."""
        order = list(range(len(self.game.deck)))
        random.Random(f"{self.game.key}:{seed}:{redeals}").shuffle(order)
        return order

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
                for i, h in enumerate(s.hands)] + [s.talon | s.discards]
        for k in range(1, self.n + 2):  # the talon or the discards last
            hand = held[(s.dealer + k) % self.n] if k <= self.n else held[-1]
            order += [i for i in range(len(self.game.deck)) if hand >> i & 1]
        return order

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
            first = self._deal_first[stage - 1](dealer)
            seats = tuple(-1 if k < 0 else (first + k) % self.n
                          for k in self.game.program.layout(stage))
            self._deal_seats[key] = seats
        return seats

    def hands_from_order(self, order: Sequence[int], dealer: int) -> tuple[int, ...]:
        """Deal a pack in the game's packets (every stage), starting with the seat each
        stage's deal rule names."""
        if sorted(order) != list(range(len(self.game.deck))):
            raise NotationError(
                f"a pack order must list every card number 0..{len(self.game.deck) - 1} once",
                value=order,
            )
        hands = [0] * self.n
        pos = 0
        for stage in range(1, self.stages + 1):
            for seat in self.stage_seats(dealer, stage):
                if seat >= 0:
                    hands[seat] |= 1 << order[pos]
                pos += 1
        return tuple(hands)

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
              pack: Sequence[int] | None = None) -> State:
        """The state at the start of the auction, from hands as dealt.

        In a game that deals in stages, ``hands`` are the whole deal and ``later`` the part
        of each hand that arrives after the first auction (by default the cards the deal
        order, or ``pack`` when the hands were dealt from it, would give late, as dealt by
        :meth:`split_stages`).
        """
        hands = tuple(hands)
        self.check_hands(hands)
        pending = (tuple(later) if later is not None
                   else self.split_stages(hands, seed, redeals, dealer, pack))
        first = tuple(h & ~p for h, p in zip(hands, pending))
        talon = self.full_mask
        for h in hands:
            talon &= ~h
        s = _dealt(self._before_deal, dealer, seed, redeals, hands, first, pending, thrown_in,
                   talon, 0)
        return _dealt(s, dealer, seed, redeals, hands, first, pending, thrown_in, talon,
                      self._first_caller(s, 1))

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
        (the cards of no hand are the talon)."""
        full = self.full_mask
        size = sum(self.packets)
        if len(hands) != self.n:
            raise NotationError(f"expected {self.n} hands, got {len(hands)}", value=hands)
        seen = 0
        for s, h in enumerate(hands):
            if h & seen:
                dup = CardSet(self.game.deck, h & seen)
                raise NotationError(f"card {dup} is dealt twice", value=hands)
            seen |= h
            if h.bit_count() != size:
                raise NotationError(
                    f"{self.table.name(s)} has {h.bit_count()} cards; the deal gives {size}",
                    value=hands,
                )
        if (full & ~seen).bit_count() != self.game.program.talon_cards:
            raise NotationError(f"cards {CardSet(self.game.deck, full & ~seen)} are not dealt",
                                value=hands)

    def _redeal(self, s: State, steps: int, reason: str) -> State:
        dealer = (s.dealer + steps) % self.n
        redeals = s.redeals + 1
        order = (self.cut(self.gathered(s), s.seed, redeals) if self.carries_pack
                 else self.deal_order(s.seed, redeals))
        hands = self.hands_from_order(order, dealer)
        return self.start(hands, dealer=dealer, seed=s.seed, redeals=redeals, pack=order,
                          thrown_in=s.thrown_in + (ThrownIn(s.dealt, s.log, reason, s.dealer,
                                                            s.fired),))

    def tracked_values(self, values: dict[str, Any] | None) -> tuple[Any, ...]:
        """The tracked values of a new deal, with some set by name."""
        tv = list(self._tracked_initial)
        for name, value in (values or {}).items():
            tv[self.tracked_index[name]] = value
        return tuple(tv)
