"""The play of the cards: legal plays, a card played, a trick won, the deal scored."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec.cards import CardSet
from spec.dsl import _derive as D
from spec.dsl._build import suit_code
from spec.dsl._nodes import NO_SUIT
from spec.engine._compiled import _CACHE_SIZE, CompiledRules
from spec.engine._state import Action, Phase, Play, State, fired, trick_record
from spec.seats import seats_from


class Tricks(CompiledRules):
    """The play phase: which cards may be played, and what a played card does."""

    def trick_seats(self, leader: int, out: int) -> tuple[int, ...]:
        """The seats of a trick in order of play from ``leader``, without a seat sitting out."""
        key = (leader, out)
        seats = self._trick_seats.get(key)
        if seats is None:
            seats = seats_from(leader, self.n, (out,))
            self._trick_seats[key] = seats
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

    def _do_play(self, w: Any, play: Play, card: tuple[int, int]) -> None:
        """A card played, on the working copy ``w`` (the generated fast plays write the
        same steps into their loops; see :meth:`_trick_done`)."""
        i, code = card
        seat = w.turn
        bit = 1 << i
        face_down = self._face_down
        if face_down is not None:  # judged on the hand before the card leaves it
            down = bool(face_down(w, i, code))
        hands = w.hands
        if hands[seat] & bit:
            w.hands = self._without[seat](hands, bit)
        else:
            w.aside = self._without[seat](w.aside, bit)
            fired(w, self._aside_rule)
        if face_down is not None:
            w.faces += (down,)
            if down:
                fired(w, self._face_down_rule)
        trick = w.trick
        if not trick:
            w.led_suit = self._entry_suit(i, code, 0, NO_SUIT, w.trump, w.trick_number, w.contract)
        trick += ((i, code),)
        if w.absent:  # seats idle or dropped out: the trick goes round the others
            seats = self.seats_among(w.leader, w.absent)
            if len(trick) < len(seats):
                w.trick, w.turn, w.log = trick, seats[len(trick)], w.log + ((seat, play),)
                return
            self._trick_done(w, trick, w.log + ((seat, play),))
            return
        out = w.out
        if len(trick) < (self.n if out < 0 else self.n - 1):
            w.trick, w.turn, w.log = trick, self._next_seat[seat], w.log + ((seat, play),)
            if w.turn == out:
                w.turn = self._next_seat[out]
            return
        self._trick_done(w, trick, w.log + ((seat, play),))

    def _plain_play_handler(self) -> Any:
        """``_do_play`` for a game whose play is plain (no card face down or from aside, no
        seat sitting out, nothing to judge at the end of a trick but its winner), as one
        function with the trick's length written out: ``(w, play, (card, named suit))``."""
        n = self.n
        pairs = ", ".join(f"(c{k}, d{k})" for k in range(n))
        cards = "".join(f"c{k}, " for k in range(n))
        named = "".join(f"d{k}, " for k in range(n))
        mask = " | ".join(f"1 << c{k}" for k in range(n))
        lines = [
            "def plain_play(w, play, card):",
            "    seat = w.turn",
            "    hands = w.hands",
            "    i = card[0]",
            "    if not hands[seat] >> i & 1 or w.out >= 0:  # a position set up by hand",
            "        return do_play(w, play, card)",
            "    w.hands = without[seat](hands, 1 << i)",
            "    trick = w.trick",
            "    if not trick:",
            ("        w.led_suit = entry_suit(i, card[1], 0, NO_SUIT, w.trump, w.trick_number,"
             " w.contract)"),
            "        w.trick, w.turn, w.log = (card,), next_seat[seat], w.log + ((seat, play),)",
            "        return",
            "    trick += (card,)",
            f"    if len(trick) < {n}:",
            "        w.trick, w.turn, w.log = trick, next_seat[seat], w.log + ((seat, play),)",
            "        return",
            f"    {pairs} = trick",
            "    number, leader = w.trick_number, w.leader",
            "    seats = plain_seats[leader]",
            "    winner = seats[best(trick, w.led_suit, w.trump, number, w.contract)]",
            "    add = with_bits[winner]",
            (f"    w.tricks += (trick_record(number, leader, ({cards}), ({named}), winner, seats,"
             " w.faces, False, -1),)"),
            f"    w.won, w.taken = add(w.won, 1 << number), add(w.taken, {mask})",
            "    w.trick, w.faces, w.led_suit, w.trick_number = (), (), NO_SUIT, number + 1",
            "    w.leader, w.turn, w.log = winner, winner, w.log + ((seat, play),)",
            "    if not (any(w.hands) or any(w.aside)):",
            "        w.scores, w.lines = final_scores(w)",
            "        w.phase = OVER",
        ]
        ns = {"do_play": self._do_play, "without": self._without, "NO_SUIT": NO_SUIT,
              "entry_suit": self._entry_suit, "next_seat": self._next_seat,
              "plain_seats": self._plain_seats, "best": self._best,
              "with_bits": self._with_bits, "trick_record": trick_record,
              "final_scores": self._final_scores, "OVER": Phase.OVER}
        exec(compile("\n".join(lines) + "\n", f"<{self.game.key}:plain_play>", "exec"), ns)  # noqa: S102  # generated from the number of seats
        return ns["plain_play"]

    def _trick_done(self, w: Any, trick: tuple[tuple[int, int], ...], log: tuple[Any, ...]) -> None:
        """The trick is complete: the strongest card wins (the first of equals, which the
        verifier proves never happens).

        The generated fast plays (``_quick_playout_fn``, ``_rich_playout_fn``) write the
        same steps into their loops; ``tests/constructs/test_fast_playout.py`` and the
        games' tests hold the two to the same deals.
        """
        out = w.out
        led, trump, number, contract = w.led_suit, w.trump, w.trick_number, w.contract
        leader = w.leader
        seats = ((self._trick_seats.get((leader, out)) or self.trick_seats(leader, out))
                 if not w.absent else self.seats_among(leader, w.absent))
        winner = seats[self._best(trick, led, trump, number, contract)]
        cards, names = zip(*trick)
        cards_mask = 0
        for c in cards:
            cards_mask |= 1 << c
        add = self._with_bits[winner]
        won, taken = add(w.won, 1 << number), add(w.taken, cards_mask)
        faces = w.faces
        revealed, seen_by = False, -1
        if not self._plain_play:
            size, cards_at, named_at, faces_at = self.envs.padded(cards, names, faces)
            if self._revealed is not None:
                revealed = bool(self._revealed(w, number, leader, size, cards_at, named_at, faces_at))
                seen_by = self.face_down_seen_by(w)  # type: ignore[attr-defined]
            if self._updates:  # every update reads the tracked values before the trick
                tv_l = None
                for rule, when, sets in self._updates:
                    if when(w, number, leader, size, cards_at, named_at, faces_at):
                        if tv_l is None:
                            tv_l = list(w.tracked)
                        before = list(tv_l)
                        for index, value in sets:
                            tv_l[index] = value(w, number, leader, size, cards_at, named_at,
                                                faces_at)
                        if tv_l != before:
                            fired(w, rule)
                if tv_l is not None:
                    w.tracked = tuple(tv_l)
        w.tricks = w.tricks + (trick_record(number, leader, cards, names, winner, seats, faces,
                                            revealed, seen_by),)
        w.trick, w.faces, w.led_suit, w.won, w.taken = (), (), NO_SUIT, won, taken
        w.trick_number, w.leader, w.turn, w.log = number + 1, winner, winner, log
        hands, aside = w.hands, w.aside
        # cards left, but for a seat sitting out's (a sum of masks is 0 when all are)
        if (any(hands) or any(aside) if out < 0
                else sum(hands) - hands[out] or sum(aside) - aside[out]):
            if not self._plain_play:
                self._after_status(w)  # type: ignore[attr-defined]
            return
        w.scores, w.lines = self._final_scores(w)
        w.phase = Phase.OVER
