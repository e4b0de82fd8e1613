"""Fast random play, and the random bots: the same draws, the same deal, whichever path plays it."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from spec.dsl._nodes import NO_SUIT
from spec.engine._compiled import CompiledRules
from spec.engine._state import (
    PASS,
    Action,
    Declare,
    Phase,
    State,
    View,
    freeze,
    thaw,
    trick_record,
)


class Playout(CompiledRules):
    """Random play at speed: a deal played to its end on one working copy of the state."""

    def random_playout(self, s: State, rng: random.Random) -> State:
        """The deal played to its end from ``s``, each action uniformly random among the
        legal ones.

        The same draws from ``rng`` as :func:`random_bot` choosing from
        :meth:`~Engine.legal_actions` state by state, so the same deal; but the deal is
        played on one working copy of ``s`` (no state per action, and no action checked:
        each is one the engine just listed), and the play of a game whose play is plain
        (no announcements, cards played from aside, face-down cards, or rules to judge at
        the end of a trick but who wins it) keeps its cards in local variables, without a
        list of actions per card.
        """
        w = thaw(s)
        draw = rng.random  # as pick(rng, n) draws
        known, actions = self._known, self._actions  # type: ignore[attr-defined]
        quick = self._quick_tricks
        # without announcements or a partner calling, the legal actions are the calls
        calls = self._legal_calls if self._quick_calls else None  # type: ignore[attr-defined]
        over, play, auction = Phase.OVER, Phase.PLAY, Phase.AUCTION
        while True:
            phase = w.phase
            if phase is auction and calls is not None:
                acts = calls(w)[0] or actions(w)[0]
                action = acts[int(draw() * len(acts))]
                k = known[id(action)]
                k[2](w, action, k[3])
                continue
            if phase is over:
                break
            if phase is play:
                if quick and not any(w.aside):
                    self._quick_playout(w, draw)
                    break
                self._play_on(w, draw)
                continue
            acts = actions(w)[0]
            action = acts[int(draw() * len(acts))]
            k = known[id(action)]
            k[2](w, action, k[3])
        return freeze(w)

    def _play_on(self, w: Any, draw: Callable[[], float]) -> None:
        """The play of the cards on the working copy ``w`` while it lasts (to the end of
        the deal, or a deal the rules void), drawing as :meth:`random_playout` does: an
        index among the legal plays, in card order, then the announcements available,
        without making the list of them."""
        announce, legal, plays_of = self._play_announce, self._legal, self._plays_of
        announcements, do_play, do_declare = self._announcements, self._do_play, self._do_declare  # type: ignore[attr-defined]
        known, plain_cards = self._known, self._plain_cards
        avail: list[Any] = []
        while w.phase is Phase.PLAY:
            if announce:
                avail, required = announcements(w, announce)
                if required:
                    do_declare(w, required[int(draw() * len(required))])
                    continue
            mask = legal(w)
            if plays_of is not None:  # each legal card is one play
                count = mask.bit_count()
                if not count + len(avail):
                    raise self._stuck(w.turn, Phase.PLAY.value, w.trick_number)  # type: ignore[attr-defined]
                r = int(draw() * (count + len(avail)))
                if r < count:
                    for _ in range(r):
                        mask &= mask - 1
                    i = (mask & -mask).bit_length() - 1
                    do_play(w, plain_cards[i], (i, NO_SUIT))
                    continue
            else:
                plays = self._decoder(w)(mask, w)[0]  # type: ignore[attr-defined]
                count = len(plays)
                if not count + len(avail):
                    raise self._stuck(w.turn, Phase.PLAY.value, w.trick_number)  # type: ignore[attr-defined]
                r = int(draw() * (count + len(avail)))
                if r < count:
                    do_play(w, plays[r], known[id(plays[r])][3])
                    continue
            do_declare(w, avail[r - count])

    def _quick_playout(self, w: Any, draw: Callable[[], float]) -> None:
        """The play of the cards, from the working copy ``w`` to the end, in a game whose
        tricks are quick: each card leaves its seat's hand and the trick goes round the
        seats in play, nothing judged at the end of a trick but its winner.  ``w`` keeps
        the fields the legality rule reads up to date, with its hands and trick in lists
        while the play lasts."""
        n = self.n
        hands, won, taken = list(w.hands), list(w.won), list(w.taken)
        tricks, log, trick = list(w.tricks), list(w.log), list(w.trick)
        w.hands, w.trick = hands, trick
        led, leader, turn, number = w.led_suit, w.leader, w.turn, w.trick_number
        trump, contract, out, absent = w.trump, w.contract, w.out, w.absent
        legal, decoder, known = self._legal_fast, self._decoder, self._known  # type: ignore[attr-defined]
        best, entry_suit = self._best, self._entry_suit
        # leader -> the seats of the trick in order of play, past the seats out of it
        if absent:
            order = tuple(self.seats_among(lead, absent) for lead in range(n))  # type: ignore[attr-defined]
        elif out >= 0:
            order = tuple(self.trick_seats(lead, out) for lead in range(n))  # type: ignore[attr-defined]
        else:
            order = self._plain_seats
        # the hand of the seat sitting out stays as it is: the play ends without it
        out_hand = hands[out] if out >= 0 else 0
        # without named suits each legal card is one play
        plain_cards = None if self._decl_choices else self._plain_cards
        seats = order[leader]
        size, pos = len(seats), len(trick)
        while True:
            mask = legal(w, turn, hands[turn], pos, led)
            if not mask:
                raise self._stuck(turn, Phase.PLAY.value, number)  # type: ignore[attr-defined]
            if plain_cards is not None:
                # the legal plays are the legal cards in card order: take the r-th one
                r = int(draw() * mask.bit_count())
                for _ in range(r):
                    mask &= mask - 1
                i = (mask & -mask).bit_length() - 1
                code = NO_SUIT
                play = plain_cards[i]
            else:  # the decoder may ask the declaration rules, which read ``w``
                w.turn, w.led_suit = turn, led
                plays = decoder(w)(mask, w)[0]
                play = plays[int(draw() * len(plays))]
                i, code = known[id(play)][3]
            hands[turn] ^= 1 << i
            log.append((turn, play))
            trick.append((i, code))
            if pos == 0:
                led = entry_suit(i, code, 0, NO_SUIT, trump, number, contract)
            pos += 1
            if pos < size:
                turn = seats[pos]
                continue
            winner = seats[best(trick, led, trump, number, contract)]
            won[winner] |= 1 << number
            cards, names = zip(*trick)
            for c in cards:
                taken[winner] |= 1 << c
            tricks.append(trick_record(number, leader, cards, names, winner, seats, (), False,
                                       -1))
            trick.clear()
            led, number, leader, turn, pos = NO_SUIT, number + 1, winner, winner, 0
            w.trick_number, w.leader = number, leader
            seats = order[leader]
            size = len(seats)
            if not (any(hands) if out < 0 else sum(hands) - out_hand):
                break
        w.hands, w.won, w.taken, w.tricks, w.log = (tuple(hands), tuple(won), tuple(taken),
                                                    tuple(tricks), tuple(log))
        w.trick, w.faces, w.led_suit, w.turn = (), (), NO_SUIT, winner
        w.scores, w.lines = self._final_scores(w)  # type: ignore[attr-defined]
        w.phase = Phase.OVER


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

    What :func:`random_bot` does, by :meth:`Engine.random_playout`: the same draws, the
    same deal, without a View, a state or a check per action.
    """
    if state.phase is Phase.OVER:
        return state
    return state.engine.random_playout(state, rng)
