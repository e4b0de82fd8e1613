"""The play of the cards: legal plays, the seats of a trick and the strength of its cards.

What a card played does, to the end of its trick and of the deal, is written once, as the
effects of the play step (:func:`spec.dsl._steps.play_block`), and applied by a function
generated from them (:meth:`~spec.engine._source.StepSource._play_fn`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec.cards import CardSet
from spec.dsl import _derive as D
from spec.dsl._build import suit_code
from spec.dsl._nodes import NO_SUIT
from spec.engine._compiled import _CACHE_SIZE, CompiledRules
from spec.engine._state import Action, Play, State
from spec.seats import seats_from


class Tricks(CompiledRules):
    """The play phase: which cards may be played, and the order and strength of a trick."""

    def trick_seats(self, leader: int, out: int) -> tuple[int, ...]:
        """The seats of a trick in order of play from ``leader``, without a seat sitting out."""
        key = (leader, out)
        seats = self._trick_seats.get(key)
        if seats is None:
            seats = seats_from(leader, self.n, (out,))
            self._trick_seats[key] = seats
        return seats

    def seats_in_order(self, seat: int, skip: tuple[int, ...], outside: int) -> tuple[int, ...]:
        """The seats in order of play from ``seat``, past ``skip`` and the seat set
        ``outside`` (the seats of a trick, from its leader)."""
        key = (seat, skip, outside)
        seats = self._seats_in_order.get(key)
        if seats is None:
            seats = self._seats_in_order[key] = seats_from(seat, self.n, skip, outside)
        return seats

    def seats_among(self, leader: int, absent: int) -> tuple[int, ...]:
        """The seats of a trick in order of play from ``leader``, without the seats out of
        the play (``absent``: a bit per seat, the seat idle for the deal or dropped out)."""
        key = (leader, absent)
        seats = self._seats_among.get(key)
        if seats is None:
            seats = seats_from(leader, self.n, outside=absent)
            self._seats_among[key] = seats
        return seats

    def beating(self, trick: Any, hand: int, led: int, trump: int, number: int,
                contract: int) -> int:
        """The cards of ``hand`` that would win the trick so far (``trick``: (card, named
        suit) at each position), were they played now without naming a suit; none when
        leading.  A card as strong as the best so far does not win: the first of equals
        does."""
        if not trick:
            return 0
        if self._strength_key is not None:  # the deck's strengths here, from a table
            table = self.strengths(led, trump, number, contract)
            return hand & self.stronger(table, max([table[0][c] for c, _d in trick]))
        strength = self._strength
        best = max(strength(c, d, k, led, trump, number, contract)
                   for k, (c, d) in enumerate(trick))
        out, rest, at = 0, hand, len(trick)
        while rest:
            low = rest & -rest
            if strength(low.bit_length() - 1, NO_SUIT, at, led, trump, number, contract) > best:
                out |= low
            rest ^= low
        return out

    def strengths(self, led: int, trump: int, number: int, contract: int
                  ) -> tuple[tuple[Any, ...], dict[Any, int]]:
        """Where a card's strength reads neither its position nor a named suit
        (``_strength_key``): the strength of every card of the deck in a trick of this led
        suit, trumps, number and contract, and a cache, by strength, of the cards stronger
        (see :meth:`stronger`)."""
        key = self._strength_key(led, trump, number, contract)  # type: ignore[misc]
        table = self._strength_tables.get(key)
        if table is None:
            table = self._strength_table(key, led, trump, number, contract)
        return table

    @staticmethod
    def stronger(table: tuple[tuple[Any, ...], dict[Any, int]], best: Any) -> int:
        """The cards of the deck stronger than ``best`` in a table of :meth:`strengths`."""
        strengths, above = table
        mask = above.get(best)
        if mask is None:
            mask = above[best] = sum(1 << i for i, st in enumerate(strengths) if st > best)
        return mask

    def _strength_table(self, key: Any, led: int, trump: int, number: int,
                        contract: int) -> tuple[tuple[Any, ...], dict[Any, int]]:
        """The strength of every card of the deck, named no suit, where a card's strength
        depends on ``key`` only (not on its position); and an empty cache, by strength, of
        the cards stronger than that."""
        if len(self._strength_tables) >= _CACHE_SIZE:
            self._strength_tables.clear()
        strength = self._strength
        table = self._strength_tables[key] = (
            tuple(strength(i, NO_SUIT, 1, led, trump, number, contract)
                  for i in range(len(self.game.deck))), {})
        return table

    def _plain_legal_fn(self) -> Callable[[Any], tuple[tuple[Play, ...], int]]:
        """``plain_legal(s)``: the legal plays in ``s`` and their mask, for a game where each
        legal card is one play (``_plays_of``), with the legality rule written in."""
        lines, legal, inputs = self.envs.play.inline(self.game, self.tables, D.legal_cards(self.game))
        src = ["def plain_legal(s):", *(f"    {line}" for line in lines), f"    mask_ = {legal}",
               "    return (plays_of_(mask_) if mask_ else ()), mask_"]
        ns = dict(self.tables.ns)
        ns["plays_of_"] = self._plays_of
        exec(compile("\n".join(src) + "\n", f"<{self.game.key}:plain_legal>", "exec"), ns)  # noqa: S102  # generated from the game's legality rule
        return ns["plain_legal"]  # type: ignore[no-any-return]

    def legal_mask(self, s: State) -> int:
        """The cards the seat to play may play, as a mask."""
        return self._legal(s)  # type: ignore[no-any-return]

    def _legal_plays(self, s: Any) -> tuple[tuple[Play, ...], int]:
        """The legal plays in ``s``, in card order, and the union of their bits."""
        mask = self._legal(s)
        if self._plays_of is not None:
            return self._plays_of(mask), mask
        return self._decoder(s)(mask, s)

    def _decoder(self, s: Any) -> Any:
        """The decoder of legal masks for positions that agree with ``s`` on what the
        declaration rules read."""
        key = self._plays_key(s)
        decode = self._decoders.get(key)
        if decode is None:
            if len(self._decoders) >= _CACHE_SIZE // 16:
                self._decoders.clear()
            decode = self._decoders[key] = self._new_decoder()
        return decode

    def legal_plays(self, s: State) -> tuple[Play, ...]:
        return self._legal_plays(s)[0]

    def _card_plays_for(self, s: Any, i: int) -> tuple[tuple[Play, ...], int]:
        """The legal plays of one legal card (with each suit it may name), and their bits."""
        if self._needs_decl(s, i, NO_SUIT):
            plays = tuple(self._plays[(i, code)] for code in self._decl_choices
                          if self._decl_ok(s, i, code))
        else:
            plays = (self._plays[(i, NO_SUIT)],)
        return plays, sum(self._known[id(p)][1] for p in plays)

    def _decl_ok(self, s: Any, card: int, code: int) -> bool:
        return all(not app(s, card, code) or req(s, card, code) for _r, app, req in self._decl_rules)

    def _play_actions(self, s: Any) -> tuple[tuple[Action, ...], int]:
        if not self._play_announce:
            return self._legal_plays(s)  # type: ignore[return-value]
        avail, required = self._announcements(s, self._play_announce)  # type: ignore[attr-defined]
        if required:
            return tuple(required), self._declared_bits(required)  # type: ignore[attr-defined]
        plays, bits = self._legal_plays(s)
        if not avail:
            return plays, bits
        return (*plays, *avail), bits | self._declared_bits(avail)  # type: ignore[attr-defined]

    def _check_play(self, s: State, play: Play) -> tuple[int, int]:
        """The card number and named suit code of ``play``, refused unless legal in ``s``."""
        deck = self.game.deck
        known = self._known.get(id(play))
        if known is not None and known[0] is play:
            i, code = known[3]
        else:
            if play.card not in deck:
                raise self._refuse(None, f"{play.card} is not in the {deck.name} deck", play)  # type: ignore[attr-defined]
            i, code = deck.index(play.card), None
        seat = s.turn
        held = s.hands[seat] | s.aside[seat]
        name = self.table.name(seat)
        if not held >> i & 1:
            raise self._refuse(None, f"{play.card} is not in {name}'s hand "  # type: ignore[attr-defined]
                               f"({CardSet(deck, s.hands[seat])})", play)
        mask = self._legal(s)
        if self._play_announce:
            _avail, required = self._announcements(s, self._play_announce)  # type: ignore[attr-defined]
            if required:
                rule = next(r for r, b, d, *_ in self._play_announce if d == required[0])
                raise self._refuse(rule, f"{name} must announce {required[0].name} first", play)  # type: ignore[attr-defined]
        if not mask >> i & 1:
            for rule, app, permits in self._play_rules:
                if app(s) and not permits(s) >> i & 1:
                    raise self._refuse(rule, f"{name} may not play {play.card}: legal now are "  # type: ignore[attr-defined]
                                       f"{CardSet(deck, mask)}", play)
            why = (f"{play.card} lies face down aside and may not be played now"
                   if s.aside[seat] >> i & 1 else f"{play.card} is not legal here")
            rule = self._aside_rule if s.aside[seat] >> i & 1 else None
            raise self._refuse(rule, why, play)  # type: ignore[attr-defined]
        if code is None:
            code = NO_SUIT if play.names is None else suit_code(play.names)
        if self._needs_decl(s, i, NO_SUIT):
            if play.names is None:
                rule = self._name_rules[0]
                raise self._refuse(rule, f"{play.card} needs a named suit here, e.g. "  # type: ignore[attr-defined]
                                   f"'{play.card}:H'", play)
            if code not in self._decl_choices:
                raise self._refuse(self._name_rules[0], f"{play.names} cannot be named", play)  # type: ignore[attr-defined]
            for rule, app, req in self._decl_rules:
                if app(s, i, code) and not req(s, i, code):
                    raise self._refuse(rule, f"{name} may not name {play.names.symbol}", play)  # type: ignore[attr-defined]
        elif play.names is not None:
            raise self._refuse(None, f"{play.card} names no suit here (play it as "  # type: ignore[attr-defined]
                               f"'{play.card}')", play)
        return i, code
