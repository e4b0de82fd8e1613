"""Fast random play, and the random bots: the same draws, the same deal, whichever path plays it."""
from __future__ import annotations

import random
from collections.abc import Callable

from spec.dsl._nodes import NO_SUIT

from spec.engine._compiled import _CACHE_SIZE, CompiledRules
from spec.engine._state import PASS, Action, Declare, Phase, State, TrickRecord, View, _over


class Playout(CompiledRules):
    """Random play at speed: the deal played to its end without a state per card."""

    def random_playout(self, s: State, rng: random.Random) -> State:
        """The deal played to its end from ``s`` with a uniformly random legal card each turn.

        The same draws from ``rng`` as :func:`random_bot` choosing from
        :meth:`legal_plays` state by state, so the same deal; but the play is kept in local
        variables and only the final state is built, which makes random play several
        times faster.  Only for games whose play has no announcements, cards aside, tracked
        updates, face-down cards or seats sitting out (``_plain_play``).
        """
        if not self._plain_play or s.phase is not Phase.PLAY:
            raise ValueError(f"random_playout needs the play of a game without announcements, "
                             f"cards aside or face-down cards; got {s!r}")
        n = self.n
        hands, won, taken = list(s.hands), list(s.won), list(s.taken)
        tricks, log, trick = list(s.tricks), list(s.log), list(s.trick)
        led, leader, turn, number = s.led_suit, s.leader, s.turn, s.trick_number
        trump, contract, declarer, dealer = s.trump, s.contract, s.declarer, s.dealer
        tv, dealt, aside = s.tracked, s.dealt, s.aside
        legal, plays_key, cache, codes = self._legal, self._plays_key, self._plays_cache, self._play_codes
        strength, entry_suit = self._strength, self._entry_suit
        draw = rng.random  # as pick(rng, n) draws
        # without named suits each legal card is one play
        plain_cards = (None if self._decl_choices
                       else tuple(self._plays[(i, NO_SUIT)] for i in range(len(self.game.deck))))
        while True:
            pos = len(trick)
            args = (turn, dealer, hands[turn], pos == 0, led if pos else NO_SUIT, trump, number,
                    pos, contract, declarer, aside[turn], leader, tv, dealt)
            mask = legal(*args)
            if not mask:
                raise self._stuck(turn, Phase.PLAY.value, number)
            if plain_cards is not None:
                # the legal plays are the legal cards in card order: take the r-th one
                r = int(draw() * mask.bit_count())
                for _ in range(r):
                    mask &= mask - 1
                i = (mask & -mask).bit_length() - 1
                code = NO_SUIT
                play = plain_cards[i]
            else:
                decl_args = plays_key(args)
                found = cache.get((mask, decl_args))
                if found is None:
                    found = self._list_plays(args, mask, decl_args)
                    if len(cache) >= _CACHE_SIZE:
                        cache.clear()
                    cache[(mask, decl_args)] = found
                plays = found[0]
                play = plays[int(draw() * len(plays))]
                i, code = codes[id(play)][1:3]
            hands[turn] &= ~(1 << i)
            log.append((turn, play))
            trick.append((i, code))
            if pos == 0:
                led = entry_suit(i, code, True, 0, NO_SUIT, trump, number, contract)
            if pos + 1 < n:
                turn = (turn + 1) % n
                continue
            best, best_pos = -2, 0
            for p, (c, named) in enumerate(trick):
                st = strength(c, named, p == 0, p, led, trump, number, contract)
                if st > best:
                    best, best_pos = st, p
            winner = (leader + best_pos) % n
            won[winner] |= 1 << number
            cards, names = tuple(c for c, _d in trick), tuple(d for _c, d in trick)
            for c in cards:
                taken[winner] |= 1 << c
            tricks.append(TrickRecord(number, leader, cards, names, winner,
                                      self.trick_seats(leader, -1), (), False, -1))
            trick, led, number, leader, turn = [], NO_SUIT, number + 1, winner, winner
            if not any(hands):
                break
        won_t, taken_t = tuple(won), tuple(taken)
        scores, lines = self._final_scores(declarer, contract, dealer, trump, tv, dealt,
                                           won_t, taken_t)
        return _over(s, tuple(hands), aside, (), (), NO_SUIT, won_t, taken_t, tuple(tricks),
                     number, winner, winner, tv, tuple(log), Phase.OVER, scores, lines)


Bot = Callable[[View, random.Random], Action]


def pick(rng: random.Random, n: int) -> int:
    """A uniformly random index below ``n``: ``int(rng.random() * n)``, the one draw every
    random choice of the bots makes (several times cheaper than ``randrange``; its bias,
    under n / 2**53, is far below anything a deal can show)."""
    return int(rng.random() * n)


def random_bot(view: View, rng: random.Random) -> Action:
    """Choose uniformly among the legal actions."""
    actions = view.legal_actions()
    return actions[pick(rng, len(actions))]


def modest_bot(view: View, rng: random.Random) -> Action:
    """Pass one time in two when passing is legal, so that contracts stay low; otherwise
    choose uniformly among the legal calls, cards and cards laid aside, and announce only
    when nothing else is legal (a decision the rules demand, say)."""
    actions = view.legal_actions()
    if PASS in actions and rng.random() < 0.5:
        return PASS
    plain = [a for a in actions if not isinstance(a, Declare)] or actions
    return plain[pick(rng, len(plain))]



def play_on(state: State, rng: random.Random) -> State:
    """The deal played to its end from ``state`` by random bots drawing from ``rng``.

    What :func:`random_bot` does, without a View or the phase dispatch per action, and the
    play of the cards by :meth:`Engine.random_playout` where the game allows: the same
    draws, the same deal.
    """
    eng = state.engine
    while state.phase is not Phase.OVER:
        if state.phase is Phase.PLAY and eng._plain_play:
            return eng.random_playout(state, rng)
        actions = eng.legal_actions(state)
        state = eng.apply(state, actions[pick(rng, len(actions))])
    return state
