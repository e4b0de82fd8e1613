"""The play of the cards: legal plays, a card played, a trick won, the deal scored."""
from __future__ import annotations

from typing import Any

from spec.cards import CardSet
from spec.dsl._build import suit_code
from spec.dsl._nodes import NO_SUIT, Scope

from spec.engine._compiled import _CACHE_SIZE, CompiledRules
from spec.engine._state import Action, Phase, Play, State, TrickRecord, _after_card, _after_trick, _fired, _over


class Tricks(CompiledRules):
    """The play phase: which cards may be played, and what a played card does."""

    def trick_seats(self, leader: int, out: int) -> tuple[int, ...]:
        """The seats of a trick in order of play from ``leader``, without a seat sitting out."""
        key = (leader, out)
        seats = self._trick_seats.get(key)
        if seats is None:
            seats = tuple(s for s in ((leader + j) % self.n for j in range(self.n)) if s != out)
            self._trick_seats[key] = seats
        return seats

    def _play_args(self, s: State) -> tuple[Any, ...]:
        pos = len(s.trick)
        seat = s.turn
        return (seat, s.dealer, s.hands[seat], pos == 0, s.led_suit if pos else NO_SUIT,
                s.trump, s.trick_number, pos, s.contract, s.declarer, s.aside[seat], s.leader,
                s.tracked, s.dealt)

    def _play_context(self, s: State) -> tuple[tuple[Any, ...], int]:
        """The arguments of the play rules in ``s`` and the mask of legal cards."""
        last = self._last_play
        if last[0] is s:
            return last[1], last[2]
        args = self._play_args(s)
        mask: int = self._legal(*args)
        self._last_play = (s, args, mask, None, 0)
        return args, mask

    def legal_mask(self, s: State) -> int:
        return self._play_context(s)[1]

    def legal_plays(self, s: State) -> tuple[Play, ...]:
        last = self._last_play
        if last[0] is s:
            if last[3] is not None:
                return last[3]
            args, mask = last[1], last[2]
        else:
            args = self._play_args(s)
            mask = self._legal(*args)
        decl_args = self._plays_key(args)
        key = (mask, decl_args)
        found = self._plays_cache.get(key)
        if found is None:
            found = self._list_plays(args, mask, decl_args)
            if len(self._plays_cache) >= _CACHE_SIZE:
                self._plays_cache.clear()
            self._plays_cache[key] = found
        self._last_play = (s, args, mask, found[0], found[1])
        return found[0]

    def _list_plays(self, args: tuple[Any, ...], mask: int,
                    decl_args: Any) -> tuple[tuple[Play, ...], int]:
        """The legal plays for a legal mask, in card order, and the union of their bits."""
        per_card = self._card_plays.get(decl_args)
        if per_card is None:
            if len(self._card_plays) >= _CACHE_SIZE:
                self._card_plays.clear()
            per_card = self._card_plays[decl_args] = [None] * len(self.game.deck)
        out: list[Play] = []
        bits = 0
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            mask ^= low
            entry = per_card[i]
            if entry is None:
                entry = per_card[i] = self._card_plays_for(args, i)
            out += entry[0]
            bits |= entry[1]
        return tuple(out), bits

    def _card_plays_for(self, args: tuple[Any, ...], i: int) -> tuple[tuple[Play, ...], int]:
        """The legal plays of one legal card (with each suit it may name), and their bits."""
        if self._needs_decl(*args[:-2], i, NO_SUIT, *args[-2:]):
            plays = tuple(self._plays[(i, code)] for code in self._decl_choices
                          if self._decl_ok(args, i, code))
        else:
            plays = (self._plays[(i, NO_SUIT)],)
        return plays, sum(self._play_codes[id(p)][3] for p in plays)

    def _decl_ok(self, args: tuple[Any, ...], card: int, code: int) -> bool:
        a, tail = args[:-2], args[-2:]
        return all(not app(*a, card, code, *tail) or req(*a, card, code, *tail)
                   for _r, app, req in self._decl_rules)

    def _play_actions(self, s: State) -> tuple[Action, ...]:
        if not self._announce[Scope.PLAY]:
            return self.legal_plays(s)
        args = self._play_args(s)
        avail, required = self._announcements(s, Scope.PLAY, args)
        if required:
            return tuple(required)
        return (*self.legal_plays(s), *avail)

    def _play_numbers(self, s: State, play: Play) -> tuple[int, int]:
        """The card number and named suit code of ``play``, refused unless legal in ``s``."""
        deck = self.game.deck
        known = self._play_codes.get(id(play))
        if known is not None and known[0] is play:
            i, code = known[1], known[2]
        else:
            if play.card not in deck:
                raise self._refuse(None, f"{play.card} is not in the {deck.name} deck", play)
            i, code = deck.index(play.card), None
        seat = s.turn
        held = s.hands[seat] | s.aside[seat]
        name = self.table.name(seat)
        if not held >> i & 1:
            raise self._refuse(None, f"{play.card} is not in {name}'s hand "
                               f"({CardSet(deck, s.hands[seat])})", play)
        args, mask = self._play_context(s)
        if self._announce[Scope.PLAY]:
            _avail, required = self._announcements(s, Scope.PLAY, args)
            if required:
                rule = next(r for r, b, d, *_ in self._announce[Scope.PLAY] if d == required[0])
                raise self._refuse(rule, f"{name} must announce {required[0].name} first", play)
        if not mask >> i & 1:
            for rule, app, permits in self._play_rules:
                if app(*args) and not permits(*args) >> i & 1:
                    raise self._refuse(rule, f"{name} may not play {play.card}: legal now are "
                                       f"{CardSet(deck, mask)}", play)
            why = (f"{play.card} lies face down aside and may not be played now"
                   if s.aside[seat] >> i & 1 else f"{play.card} is not legal here")
            rule = self._aside_rule if s.aside[seat] >> i & 1 else None
            raise self._refuse(rule, why, play)
        if code is None:
            code = NO_SUIT if play.names is None else suit_code(play.names)
        a, tail = args[:-2], args[-2:]
        if self._needs_decl(*a, i, NO_SUIT, *tail):
            if play.names is None:
                rule = self._name_rules[0]
                raise self._refuse(rule, f"{play.card} needs a named suit here, e.g. "
                                   f"'{play.card}:H'", play)
            if code not in self._decl_choices:
                raise self._refuse(self._name_rules[0], f"{play.names} cannot be named", play)
            for rule, app, req in self._decl_rules:
                if app(*a, i, code, *tail) and not req(*a, i, code, *tail):
                    raise self._refuse(rule, f"{name} may not name {play.names.symbol}", play)
        elif play.names is not None:
            raise self._refuse(None, f"{play.card} names no suit here (play it as "
                               f"'{play.card}')", play)
        return i, code

    def _apply_play(self, s: State, play: Play) -> State:
        known = self._play_codes.get(id(play))
        last = self._last_play
        if (known is not None and known[0] is play and last[0] is s and last[4] & known[3]
                and self._plain_play):
            i, code = known[1], known[2]  # one of the legal plays just listed for this state
        else:
            i, code = self._play_numbers(s, play)
        seat = s.turn
        bit = 1 << i
        hands, aside = s.hands, s.aside
        if hands[seat] & bit:
            hands_l = list(hands)
            hands_l[seat] &= ~bit
            hands = tuple(hands_l)
        else:
            aside_l = list(aside)
            aside_l[seat] &= ~bit
            aside = tuple(aside_l)
            s = _fired(s, self._aside_rule)
        faces = s.faces
        if self._face_down is not None:
            args = self._play_args(s)
            down = bool(self._face_down(*args[:-2], i, code, *args[-2:]))
            faces = faces + (down,)
            if down:
                s = _fired(s, self._face_down_rule)
        trick = s.trick + ((i, code),)
        trump, number, contract = s.trump, s.trick_number, s.contract
        if len(trick) == 1:
            led = self._entry_suit(i, code, True, 0, NO_SUIT, trump, number, contract)
        else:
            led = s.led_suit
        log = s.log + ((seat, play),)
        size = self.n if s.out < 0 else self.n - 1
        if len(trick) < size:
            nxt = (seat + 1) % self.n
            if nxt == s.out:
                nxt = (nxt + 1) % self.n
            return _after_card(s, hands, aside, trick, faces, led, nxt, log)
        # the trick is complete: the strongest card wins (the first of equals, which the
        # verifier proves never happens)
        strength = self._strength
        best, best_pos = None, 0
        for p, (c, named) in enumerate(trick):
            st = strength(c, named, p == 0, p, led, trump, number, contract)
            if best is None or st > best:
                best, best_pos = st, p
        seats = self.trick_seats(s.leader, s.out)
        winner = seats[best_pos]
        won_l = list(s.won)
        won_l[winner] |= 1 << number
        won = tuple(won_l)
        cards, names = zip(*trick)
        cards_mask = 0
        for c in cards:
            cards_mask |= 1 << c
        taken_l = list(s.taken)
        taken_l[winner] |= cards_mask
        taken = tuple(taken_l)
        tv = s.tracked
        revealed, seen_by = False, -1
        if not self._plain_play:
            targs = self._trick_args(s, number, s.leader, cards, names, faces, tv)
            if self._revealed is not None:
                revealed = bool(self._revealed(*targs))
                seen_by = self.face_down_seen_by(s)
            if self._updates:
                tv_l = list(tv)
                for rule, when, sets in self._updates:
                    if when(*targs):
                        before = list(tv_l)
                        for index, value in sets:
                            tv_l[index] = value(*targs)
                        if tv_l != before:
                            s = _fired(s, rule)
                tv = tuple(tv_l)
        tricks = s.tricks + (TrickRecord(number, s.leader, cards, names, winner, seats,
                                         faces, revealed, seen_by),)
        out = s.out
        if any(hands[x] | aside[x] for x in range(self.n) if x != out):
            nxt = _after_trick(s, hands, aside, (), (), NO_SUIT, won, taken, tricks, number + 1,
                               winner, winner, tv, log)
            return nxt if self._plain_play else self._after_status(nxt)
        scores, lines = self._final_scores(s.declarer, contract, s.dealer, trump, tv, s.dealt,
                                           won, taken)
        return _over(s, hands, aside, (), (), NO_SUIT, won, taken, tricks, number + 1, winner,
                     winner, tv, log, Phase.OVER, scores, lines)

    def _trick_args(self, s: State, number: int, leader: int, cards: tuple[int, ...],
                    names: tuple[int, ...], faces: tuple[bool, ...], tv: tuple[Any, ...]
                    ) -> tuple[Any, ...]:
        """The arguments of a TRICK-scope function for a complete trick of ``s``'s deal.
        The positions of a seat that sat out hold no card (number ``len(deck)``), as in Z3."""
        short = self.n - len(cards)
        if short:
            cards = tuple(cards) + (len(self.game.deck),) * short
            names = tuple(names) + (NO_SUIT,) * short
        return (s.dealer, s.contract, s.declarer, s.trump, number, leader, self.n - short, cards,
                names, tuple(faces) + (False,) * (self.n - len(faces)), tv)

    @staticmethod
    def _outcome_args(s: State) -> tuple[Any, ...]:
        """The arguments of an OUTCOME-scope function, after the seat, for ``s``'s deal."""
        return (s.declarer, s.contract, s.dealer, s.trump, s.tracked, s.dealt, s.won, s.taken)

    def _final_scores(self, *args: Any) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """Each seat's score, and its score on each line of the sheet (when there are
        several), from (declarer, contract, dealer, trump, tracked, dealt, won, taken)."""
        if not self._line_scores:
            return tuple(self._score(seat, *args) for seat in range(self.n)), ()
        lines = tuple(tuple(fn(seat, *args) for seat in range(self.n)) for fn in self._line_scores)
        return tuple(sum(col) for col in zip(*lines)), lines
