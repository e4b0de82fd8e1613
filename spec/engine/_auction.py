"""The auction and the moments around it: calls, announcements, cards laid aside, decisions
and the start of the play."""
from __future__ import annotations

from typing import Any

from spec.dsl._build import suit_code
from spec.dsl._nodes import Scope

from spec.engine._compiled import _CACHE_SIZE, CompiledRules
from spec.engine._state import (
    PASS, Action, Call, Declare, Discard, Lay, Phase, State, _after_call, _fired, _to_play, _with,
)


class Auction(CompiledRules):
    """The auction phase, the laying aside of cards, decisions and announcements."""

    def _call_args(self, s: State) -> tuple[Any, ...]:
        seat = s.proxy if s.proxy >= 0 else s.turn
        return (seat, s.dealer, s.hands[seat], s.standing >= 0, s.standing, s.high_bidder,
                s.stage_calls, s.passes_in_row, s.stage, s.seat_calls[seat], s.stage_bid,
                s.proxy >= 0, s.tracked)

    def legal_calls(self, s: State) -> tuple[Call, ...]:
        args = self._call_args(s)
        key = self._calls_key(args)
        cached = self._legal_calls_cache.get(key)
        if cached is None:
            ok = self._call_ok
            a = args[:-1]
            tv = args[-1]
            out = [PASS] if ok(*a, False, -1, tv) else []
            out.extend(c for i, c in enumerate(self._calls) if ok(*a, True, i, tv))
            cached = tuple(out)
            if len(self._legal_calls_cache) > _CACHE_SIZE:
                self._legal_calls_cache.clear()
            self._legal_calls_cache[key] = cached
        return cached

    def _announcements(self, s: State, scope: Scope, args: tuple[Any, ...]) -> tuple[list[Declare], list[Declare]]:
        """The announcements available now, and those required now."""
        avail: list[Declare] = []
        required: list[Declare] = []
        for _rule, _body, decl, when, must, _sets in self._announce[scope]:
            if when(*args):
                avail.append(decl)
                if must is not None and must(*args):
                    required.append(decl)
        return avail, required

    def _auction_actions(self, s: State) -> tuple[Action, ...]:
        calls = self.legal_calls(s)
        if not self._announce[Scope.CALL] and self._proxy_when is None:
            return calls
        args = self._call_args(s)
        avail, required = self._announcements(s, Scope.CALL, args)
        if required:
            return tuple(required)
        if self._proxy_when is not None and s.proxy < 0 and self._proxy_when(*args):
            avail.append(self._declares["partner"])
        return (*calls, *avail)

    def _first_caller(self, s: State, stage: int) -> int:
        args = self._call_args(s if s.stage == stage else _with(s, stage=stage))
        return self._auction_first[stage - 1](*args)  # type: ignore[no-any-return]

    def _apply_call(self, s: State, call: Call) -> State:
        known = self._call_numbers.get(id(call))
        if known is not None and known[0] is call:
            b = known[1]
            is_bid = b >= 0
        elif call.bid is None:
            is_bid, b = False, -1
        else:
            if call.bid not in self.ladder:
                raise self._refuse(None, f"{call.bid} is not a bid in {self.game.name}", call)
            is_bid, b = True, self.ladder.index(call.bid)
        args = self._call_args(s)
        a, tv = args[:-1], args[-1]
        if not self._call_ok(*a, is_bid, b, tv):
            for rule, app, req in self._call_rules:
                if app(*a, is_bid, b, tv) and not req(*a, is_bid, b, tv):
                    who = self.table.name(s.turn) + (
                        f" (for {self.table.name(s.proxy)})" if s.proxy >= 0 else "")
                    raise self._refuse(rule, f"{who} may not call {call}", call)
            raise self._refuse(None, f"{call} is not legal here", call)  # pragma: no cover
        # a call named by the partner in a seat's place is that seat's own call, for every
        # rule: it uses his turn, and a bid so made is his; only the log says who named it
        namer = s.turn
        seat = s.proxy if s.proxy >= 0 else s.turn
        calls = s.calls + ((seat, b),)
        seat_calls_l = list(s.seat_calls)
        seat_calls_l[seat] += 1
        if s.proxy >= 0 and self._proxy_counts:
            seat_calls_l[namer] += 1
        seat_calls = tuple(seat_calls_l)
        if is_bid:
            standing, high_bidder, passes, stage_bid = b, seat, 0, True
        else:
            standing, high_bidder, passes, stage_bid = (s.standing, s.high_bidder,
                                                        s.passes_in_row + 1, s.stage_bid)
        stage_calls = s.stage_calls + 1
        log = s.log + ((namer, call),)
        # the auction-over rule reads the state after the call, with the turn not yet passed on
        over = self._ends[s.stage - 1](seat, s.dealer, s.hands[seat], standing >= 0, standing,
                                       high_bidder, stage_calls, passes, s.stage,
                                       seat_calls[seat], stage_bid, s.proxy >= 0, s.tracked)
        after = _after_call(s, calls, standing, high_bidder, passes, (seat + 1) % self.n,
                            stage_calls, seat_calls, stage_bid, -1, log)
        if not over:
            return after
        return self._end_stage(after)

    def _end_stage(self, s: State) -> State:
        """The auction of ``s.stage`` is over: set cards aside, deal on, play, or redeal."""
        if s.standing < 0:
            # nobody bid: the cards are dealt again
            return self._redeal(s, self._redeal_steps or 0, "no bid")
        aside = self._set_aside.get(s.stage)
        if aside is not None and aside[1](*self._call_args(s)):
            # cards laid aside earlier go back to their owners first
            return _with(self._return_aside(s), phase=Phase.SET_ASIDE, turn=s.high_bidder)
        return self._next_stage(s)

    def _next_stage(self, s: State) -> State:
        if s.stage < self.stages:
            stage = s.stage + 1
            deal = self._deals[stage - 1]
            # the cards of this stage: the pending cards dealt in this stage's packets
            share = sum(deal.packets)  # type: ignore[union-attr]
            hands_l, pending_l = list(s.hands), list(s.pending)
            for seat in range(self.n):
                bits = [i for i in range(len(self.game.deck)) if pending_l[seat] >> i & 1]
                now = sum(1 << i for i in bits[:share]) if stage < self.stages else pending_l[seat]
                hands_l[seat] |= now
                pending_l[seat] &= ~now
            s = _with(s, phase=Phase.AUCTION, stage=stage, hands=tuple(hands_l),
                      pending=tuple(pending_l), stage_calls=0, passes_in_row=0,
                      seat_calls=(0,) * self.n, stage_bid=False)
            return _with(s, turn=self._first_caller(s, stage))
        contract, declarer = s.standing, s.high_bidder
        trump = s.trump if self.trump_from_aside else self._trump_of[contract]
        out = -1
        if self._sits_out is not None:
            st = (s.dealer, contract, declarer, trump, s.trick_number, s.tracked, s.dealt)
            if self._sits_out[0](*st):
                out = self._sits_out[1](*st)
                s = _fired(s, self._sits_rule)
        leader = self._first_lead(s.dealer, declarer, contract, trump, s.tracked)
        s = _to_play(s, Phase.PLAY, contract, declarer, trump, out, leader, leader)
        take = self._take_talon
        if take is not None and take[1](*self._status_args(s)):
            # the declarer takes the talon into his hand, then discards
            hands = tuple(h | s.talon if i == declarer else h for i, h in enumerate(s.hands))
            return _with(_fired(s, take[0]), phase=Phase.EXCHANGE, turn=declarer, hands=hands,
                         talon=0)
        return self._before_play(s)

    def _before_play(self, s: State) -> State:
        """The last step before the first lead: a seat's choice, if the game has one."""
        if self._decide is not None:
            return _with(s, phase=Phase.DECIDE, turn=self._decide[1](*self._status_args(s)))
        return s

    def _apply_discard(self, s: State, discard: Discard) -> State:
        assert self._take_talon is not None
        deck = self.game.deck
        seat = s.turn
        if discard.card not in deck or not s.hands[seat] >> deck.index(discard.card) & 1:
            raise self._refuse(self._take_talon[0], f"{discard.card} is not in "
                               f"{self.table.name(seat)}'s hand ({s.hand(seat)})", discard)
        bit = 1 << deck.index(discard.card)
        hands = tuple(h & ~bit if i == seat else h for i, h in enumerate(s.hands))
        s = _with(s, hands=hands, discards=s.discards | bit, log=s.log + ((seat, discard),))
        if s.discards.bit_count() < self._take_talon[2]:
            return s
        return self._before_play(_with(s, phase=Phase.PLAY, turn=s.leader))

    def _decide_options(self, s: State) -> tuple[Declare, ...]:
        assert self._decide is not None
        st = self._status_args(s)
        return tuple(d for d, when, _sets in self._decide[2] if when(*st))

    def _apply_decide(self, s: State, decl: Declare) -> State:
        assert self._decide is not None
        rule = self._decide[0]
        st = self._status_args(s)
        for d, when, sets in self._decide[2]:
            if d.name != decl.name:
                continue
            if not when(*st):
                raise self._refuse(rule, f"{self.table.name(s.turn)} may not choose {d.name} "
                                   "here", decl)
            tv = list(s.tracked)
            for index, value in sets:
                tv[index] = value(*st)
            s = _with(_fired(s, rule), phase=Phase.PLAY, tracked=tuple(tv), turn=s.leader,
                      log=s.log + ((s.turn, decl),))
            return self._after_status(s)
        names = ", ".join(d.name for d, _w, _s in self._decide[2])
        raise self._refuse(rule, f"{self.table.name(s.turn)} must choose one of: {names}", decl)

    def _apply_lay(self, s: State, lay: Lay) -> State:
        deck = self.game.deck
        if lay.card not in deck:
            raise self._refuse(None, f"{lay.card} is not in the {deck.name} deck", lay)
        i = deck.index(lay.card)
        seat = s.turn
        if not s.hands[seat] >> i & 1:
            raise self._refuse(None, f"{lay.card} is not in {self.table.name(seat)}'s hand "
                               f"({s.hand(seat)})", lay)
        body = self._set_aside[s.stage][0]
        hands_l, aside_l = list(s.hands), list(s.aside)
        hands_l[seat] &= ~(1 << i)
        aside_l[seat] |= 1 << i
        s = _with(_fired(s, self._set_aside_rule[s.stage]), hands=tuple(hands_l),
                  aside=tuple(aside_l), log=s.log + ((seat, lay),))
        if body.names_trump:
            s = _with(s, trump=suit_code(lay.card.suit))
        if aside_l[seat].bit_count() < body.count:
            return s
        return self._next_stage(s)

    def _apply_declare(self, s: State, decl: Declare) -> State:
        name = self.table.name(s.turn)
        if s.phase is Phase.AUCTION:
            scope, args = Scope.CALL, self._call_args(s)
        elif s.phase is Phase.PLAY:
            scope, args = Scope.PLAY, self._play_args(s)
        else:
            raise self._refuse(None, f"no announcement can be made now ({s.phase.value})", decl)
        if scope is Scope.CALL and decl.name == "partner" and self._proxy_when is not None:
            if s.proxy >= 0 or not self._proxy_when(*args):
                raise self._refuse(self._proxy_rule, f"{name} may not ask his partner to call "
                                   "now", decl)
            partner = self.table.partner(s.turn)
            assert partner is not None
            return _with(_fired(s, self._proxy_rule), proxy=s.turn, turn=partner,
                         log=s.log + ((s.turn, decl),))
        for rule, body, _d, when, _must, sets in self._announce[scope]:
            if body.name != decl.name:
                continue
            if not when(*args):
                raise self._refuse(rule, f"{name} may not announce {decl.name} now", decl)
            log = s.log + ((s.turn, decl),)
            tv = list(s.tracked)
            for index, value in sets:
                tv[index] = value(*args)
            return self._after_status(_with(_fired(s, rule), tracked=tuple(tv), log=log))
        known = ", ".join(self.announcement_names) or "none in this game"
        raise self._refuse(None, f"{decl.name!r} is not an announcement here (announcements: "
                           f"{known})", decl)

    def face_down_seen_by(self, s: State) -> int:
        """The seat that may look at the cards played face down (-1: nobody)."""
        if self._seen_by is None:
            return -1
        return self._seen_by(*self._status_args(s))  # type: ignore[no-any-return]

    def _status_args(self, s: State) -> tuple[Any, ...]:
        return (s.dealer, s.contract, s.declarer, s.trump, s.trick_number, s.tracked, s.dealt)

    def _after_status(self, s: State) -> State:
        """A deal the rules now void is dealt again; cards set aside go back to their
        owners when the rule says so."""
        if self._voids:
            st = self._status_args(s)
            for when, steps, rule in self._voids:
                if when(*st):
                    return self._redeal(_fired(s, rule), steps, rule.id)
        if self._aside_returns is not None and any(s.aside) and self._aside_returns(*self._status_args(s)):
            return self._return_aside(s)
        return s

    def _return_aside(self, s: State) -> State:
        """Every card laid aside goes back to its owner's hand."""
        return _with(s, hands=tuple(h | a for h, a in zip(s.hands, s.aside)),
                     aside=(0,) * self.n)
