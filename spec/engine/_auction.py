"""The auction and the moments around it: calls, announcements, cards laid aside, decisions
and the start of the play.

The ``_do_*`` methods apply an action the rules allow to a working copy ``w`` of a state
(see :func:`spec.engine._state.thaw`), in place; the ``_check_*`` methods refuse an action
the rules forbid, naming the rule, and say what the handler needs.
"""
from __future__ import annotations

from typing import Any

from spec.dsl._constructs import AllOut
from spec.dsl._nodes import Scope
from spec.engine._compiled import _CACHE_SIZE, ALONE, INVITE, CompiledRules
from spec.engine._state import (
    ASK_PARTNER,
    PASS,
    Action,
    Call,
    Declare,
    Discard,
    Lay,
    Phase,
    State,
    fired,
)
from spec.seats import seat_after, seat_from, seats_from


class Auction(CompiledRules):
    """The auction phase, the laying aside of cards, decisions and announcements."""

    def _legal_calls(self, s: Any) -> tuple[tuple[Call, ...], int]:
        """The legal calls in ``s`` and the union of their bits."""
        key = self._calls_key(s)
        cached = self._legal_calls_cache.get(key)
        if cached is None:
            ok = self._call_ok
            calls = [PASS] if ok(s, False, -1) else []
            bits = self._pass_bit if calls else 0
            for i, c in enumerate(self._calls):
                if ok(s, True, i):
                    calls.append(c)
                    bits |= self._call_bits[i]
            cached = (tuple(calls), bits)
            if len(self._legal_calls_cache) > _CACHE_SIZE:
                self._legal_calls_cache.clear()
            self._legal_calls_cache[key] = cached
        return cached

    def legal_calls(self, s: State) -> tuple[Call, ...]:
        return self._legal_calls(s)[0]

    def _announcements(self, s: Any, scope: list[Any]) -> tuple[list[Declare], list[Declare]]:
        """The announcements of one scope (``_call_announce``, ``_play_announce``) available
        now, and those required now."""
        avail: list[Declare] = []
        required: list[Declare] = []
        for _rule, _body, decl, when, must, _sets in scope:
            if when(s):
                avail.append(decl)
                if must is not None and must(s):
                    required.append(decl)
        return avail, required

    def _declared_bits(self, decls: list[Declare]) -> int:
        bits = 0
        for d in decls:
            bits |= self._known[id(d)][1]
        return bits

    def _auction_actions(self, s: Any) -> tuple[tuple[Action, ...], int]:
        calls, bits = self._legal_calls(s)
        if not self._call_announce and self._proxy_when is None:
            return calls, bits
        avail, required = self._announcements(s, self._call_announce)
        if required:
            return tuple(required), self._declared_bits(required)
        if self._proxy_when is not None and s.proxy < 0 and self._proxy_when(s):
            avail.append(self._declares[ASK_PARTNER.name])
        if not avail:
            return calls, bits
        return (*calls, *avail), bits | self._declared_bits(avail)

    def _check_call(self, s: State, call: Call) -> int:
        """The bid number of ``call`` (-1: a pass), refused unless legal in ``s``."""
        known = self._known.get(id(call))
        if known is not None and known[0] is call:
            b = known[3]
        elif call.bid is None:
            b = -1
        else:
            if call.bid not in self.ladder:
                raise self._refuse(None, f"{call.bid} is not a bid in {self.game.name}", call)  # type: ignore[attr-defined]
            b = self.ladder.index(call.bid)
        if not self._call_ok(s, b >= 0, b):
            for rule, app, req in self._call_rules:
                if app(s, b >= 0, b) and not req(s, b >= 0, b):
                    who = self.table.name(s.turn) + (
                        f" (for {self.table.name(s.proxy)})" if s.proxy >= 0 else "")
                    raise self._refuse(rule, f"{who} may not call {call}", call)  # type: ignore[attr-defined]
            raise self._refuse(None, f"{call} is not legal here", call)  # type: ignore[attr-defined]  # pragma: no cover
        return b  # type: ignore[no-any-return]

    def _do_call(self, w: Any, call: Call, b: int) -> None:
        """The call ``call`` (bid number ``b``, -1 for a pass) applied, as the auction steps
        say (the handler generated from them)."""
        self._call_handler(w, call, b)  # type: ignore[attr-defined]

    def _end_stage(self, w: Any) -> None:
        """The auction of ``w.stage`` is over: set cards aside, deal on, play, or redeal."""
        if w.standing < 0:
            # nobody bid: the cards are dealt again
            self._redeal(w, self._redeal_steps or 0, "no bid")  # type: ignore[attr-defined]
            return
        self._advance(w)  # type: ignore[attr-defined]

    def present_after(self, seat: int, absent: int) -> int:
        """The first seat from ``seat`` on, in the direction of play, not out of the play
        (``absent``: a bit per seat out)."""
        return seat_from(seat, self.n, outside=absent)

    def defenders(self, s: Any) -> tuple[int, ...]:
        """The defenders in the order they choose to play or drop out: from the seat the
        drop-out rule names, in the direction of play, past the declarer and an idle seat."""
        assert self._drop_out is not None
        key = (seat_after(self._drop_out[2](s), self.n, 0), s.declarer, s.idle)
        order = self._defenders.get(key)
        if order is None:
            first, declarer, idle = key
            order = self._defenders[key] = seats_from(first, self.n, (declarer, idle))
        return order

    def _drop_out_options(self, s: Any) -> tuple[Declare, ...]:
        assert self._drop_out is not None
        _rule, body, _first, _when, stay, leave = self._drop_out
        if s.host >= 0:  # the defender who stayed: to invite the other back, or not
            assert self._invite is not None
            return self._invite
        order = self.defenders(s)
        if (body.all_out is AllOut.LAST_MUST_PLAY and s.turn == order[-1]
                and all(s.dropped >> k & 1 for k in order[:-1])):
            return (stay,)
        return (stay, leave)

    def _check_drop_out(self, s: State, action: Action) -> bool:
        """Whether the defender stays in the play, refused unless ``action`` is a choice he
        may make."""
        assert self._drop_out is not None
        rule, body, *_r = self._drop_out
        name = self.table.name(s.turn)
        options = self._drop_out_options(s)
        if s.host >= 0:
            assert self._invite is not None
            if not isinstance(action, Declare) or action.name not in (body.invite, body.alone):
                raise self._refuse(rule, f"{name} must choose: {body.invite} the other "  # type: ignore[attr-defined]
                                   f"defender back into the play, or {body.alone}, not {action}",
                                   action)
            return INVITE if action.name == body.invite else ALONE
        if not isinstance(action, Declare) or action.name not in (body.stay, body.leave):
            raise self._refuse(rule, f"{name} must choose: "  # type: ignore[attr-defined]
                               f"{' or '.join(d.name for d in options)}, not {action}", action)
        if all(d.name != action.name for d in options):
            raise self._refuse(rule, f"{name} may not {action.name}: every other defender "  # type: ignore[attr-defined]
                               "has dropped out", action)
        return action.name == body.stay

    def _do_drop_out(self, w: Any, decl: Declare, stays: Any) -> None:
        assert self._drop_out is not None
        rule, body = self._drop_out[0], self._drop_out[1]
        seat = w.turn
        w.log = w.log + ((seat, decl),)
        if stays is INVITE or stays is ALONE:  # the host has chosen
            fired(w, rule)
            w.host = -1
            if stays is INVITE:  # the guest takes his hand up again and plays
                guest = next(k for k in self.defenders(w) if w.dropped >> k & 1)
                cards = w.folded & w.dealt[guest]
                w.guest, w.folded = guest, w.folded & ~cards
                w.dropped, w.absent = w.dropped & ~(1 << guest), w.absent & ~(1 << guest)
                w.hands = self._with_bits[guest](w.hands, cards)
            self._drop_out_over(w)
            return
        if not stays:  # his hand is laid down face down and takes no part
            fired(w, rule)
            w.dropped, w.absent = w.dropped | 1 << seat, w.absent | 1 << seat
            w.folded = w.folded | w.hands[seat]
            w.hands = self._without[seat](w.hands, w.hands[seat])
        order = self.defenders(w)
        at = order.index(seat)
        if at + 1 < len(order):
            w.turn = order[at + 1]
            return
        if all(w.dropped >> k & 1 for k in order):
            # nobody defends: no play; the declarer is credited with every trick
            assert body.all_out is AllOut.DECLARER_TAKES_ALL
            tricks = self.game.tricks
            w.won = self._with_bits[w.declarer](w.won, (1 << (tricks + 1)) - 2)
            w.trick_number, w.phase = tricks + 1, Phase.OVER
            w.scores, w.lines = self._final_scores(w)
            return
        if self._invite is not None and sum(1 for k in order if w.dropped >> k & 1) == 1:
            # one stayed and one left: the one who stayed may invite the other back
            w.host = w.turn = next(k for k in order if not w.dropped >> k & 1)
            return
        self._drop_out_over(w)

    def _drop_out_over(self, w: Any) -> None:
        w.leader = self.present_after(w.leader, w.absent)
        self._advance(w)  # type: ignore[attr-defined]

    def _decide_options(self, s: Any) -> tuple[Declare, ...]:
        assert self._decide is not None
        return tuple(d for d, may, _choose in self._decide[1] if may(s))

    def _check_decide(self, s: State, decl: Declare) -> None:
        assert self._decide is not None
        rule = self._decide[0]
        for d, may, _choose in self._decide[1]:
            if d.name == decl.name:
                if not may(s):
                    raise self._refuse(rule, f"{self.table.name(s.turn)} may not choose "  # type: ignore[attr-defined]
                                       f"{d.name} here", decl)
                return
        names = ", ".join(d.name for d, _m, _c in self._decide[1])
        raise self._refuse(rule, f"{self.table.name(s.turn)} must choose one of: {names}", decl)  # type: ignore[attr-defined]

    def _do_decide(self, w: Any, decl: Declare) -> None:
        assert self._decide is not None
        if self._contest:  # type: ignore[attr-defined]
            w.chosen = w.chosen + ((w.turn, decl.name),)
            nxt = self._next_chooser(w)
            if nxt >= 0:
                w.log = w.log + ((w.turn, decl),)
                w.turn = nxt
                return
            # all have chosen: the highest option wins, of equal ones the earliest
            seat, name = w.chosen[0]
            for s, n in w.chosen[1:]:
                if self._ranks[n] > self._ranks[name]:  # type: ignore[attr-defined]
                    seat, name = s, n
            w.log = w.log + ((w.turn, decl),)
            w.declarer, w.declarers, w.joined = seat, 1 << seat, 0
            self._seat_the_play(w)
            w.turn = seat
            decl = Declare(name)
            w.log, log = w.log[:-1], w.log  # the winner's choice sets the values
        else:
            log = None
        for d, _may, choose in self._decide[1]:
            if d.name == decl.name:
                choose(w)  # what the option does, as the step says
                w.log = w.log + ((w.turn, decl),) if log is None else log
                self._advance(w)  # type: ignore[attr-defined]
                self._after_status(w)
                return

    def _next_chooser(self, w: Any) -> int:
        """The next seat, in the direction of play, that declares and has not chosen;
        -1 when every one has."""
        done = {s for s, _n in w.chosen}
        for seat in seats_from(seat_after(w.turn, self.n), self.n):
            if w.declarers >> seat & 1 and seat not in done:
                return seat
        return -1

    def _set_tracked(self, w: Any, sets: Any) -> None:
        """Tracked values set by rules that all read the values before any is set."""
        if sets:
            tv = list(w.tracked)
            for index, value in sets:
                tv[index] = value(w)
            w.tracked = tuple(tv)

    def _check_card(self, s: State, action: Lay | Discard, step: Any) -> int:
        """The number of the card ``action`` acts, refused unless the actor holds it."""
        deck = self.game.deck
        rule = self.game.rule(step.refused_by) if step.refused_by is not None else None
        if action.card not in deck and rule is None:
            raise self._refuse(None, f"{action.card} is not in the {deck.name} deck", action)  # type: ignore[attr-defined]
        if action.card not in deck or not s.hands[s.turn] >> deck.index(action.card) & 1:
            raise self._refuse(rule, f"{action.card} is not in {self.table.name(s.turn)}'s hand "  # type: ignore[attr-defined]
                               f"({s.hand(s.turn)})", action)
        return deck.index(action.card)

    def _check_declare(self, s: State, decl: Declare) -> None:
        name = self.table.name(s.turn)
        if s.phase is Phase.AUCTION:
            scope = Scope.CALL
        elif s.phase is Phase.PLAY:
            scope = Scope.PLAY
        else:
            raise self._refuse(None, f"no announcement can be made now ({s.phase.value})", decl)  # type: ignore[attr-defined]
        if scope is Scope.CALL and decl == ASK_PARTNER and self._proxy_when is not None:
            if s.proxy >= 0 or not self._proxy_when(s):
                raise self._refuse(self._proxy_rule, f"{name} may not ask his partner to call "  # type: ignore[attr-defined]
                                   "now", decl)
            return
        for rule, body, _d, when, _must, _sets in self._announce[scope]:
            if body.name == decl.name:
                if not when(s):
                    raise self._refuse(rule, f"{name} may not announce {decl.name} now", decl)  # type: ignore[attr-defined]
                return
        known = ", ".join(self.announcement_names) or "none in this game"
        raise self._refuse(None, f"{decl.name!r} is not an announcement here (announcements: "  # type: ignore[attr-defined]
                           f"{known})", decl)

    def _do_declare(self, w: Any, decl: Declare, _payload: Any = None) -> None:
        if w.phase is Phase.DECIDE:
            self._do_decide(w, decl)
            return
        scope = Scope.CALL if w.phase is Phase.AUCTION else Scope.PLAY
        if scope is Scope.CALL and decl == ASK_PARTNER and self._proxy_when is not None:
            self._ask_partner(w, decl)
            return
        for rule, body, _d, _when, _must, sets in self._announce[scope]:
            if body.name == decl.name:
                self._set_tracked(w, sets)
                fired(w, rule)
                w.log = w.log + ((w.turn, decl),)
                self._after_status(w)
                return

    def _ask_partner(self, w: Any, decl: Declare) -> None:
        """The seat to call asks his partner to call in his place: the partner's turn."""
        partner = self._partner_of[w.turn]
        assert partner is not None
        fired(w, self._proxy_rule)
        w.proxy, w.turn, w.log = w.turn, partner, w.log + ((w.turn, decl),)

    def face_down_seen_by(self, s: Any) -> int:
        """The seat that may look at the cards played face down (-1: nobody)."""
        if self._seen_by is None:
            return -1
        return self._seen_by(s)  # type: ignore[no-any-return]

    def _after_status(self, w: Any) -> None:
        """A deal the rules now void is dealt again; cards set aside go back to their
        owners when the rule says so (the generated fast play of richer tricks writes the
        same steps into its loop, ``_rich_status_lines``)."""
        if self._void_now(w):
            return
        if self._aside_returns is not None and any(w.aside) and self._aside_returns(w):
            self._return_aside(w)
        for rule, after, when, opener in self._lay_open:
            # at the end of trick ``after`` (the next not begun), once
            if w.trick_number == after + 1 and not w.trick and when(w):
                seat = opener(w)
                if all(s != seat for s, _a in w.laid_open):
                    w.laid_open = w.laid_open + ((seat, after),)
                    fired(w, rule)

    def _void_now(self, w: Any) -> bool:
        """Whether a rule voids the deal now; if one does, the deal is dealt again."""
        for when, steps, rule in (self._voids if w.contract >= 0
                                  else self._voids_before_contract):
            if when(w):
                fired(w, rule)
                self._redeal(w, steps, rule.id)  # type: ignore[attr-defined]
                return True
        return False

    def _return_aside(self, w: Any) -> None:
        """Every card laid aside goes back to its owner's hand."""
        w.hands = tuple(h | a for h, a in zip(w.hands, w.aside))
        w.aside = (0,) * self.n
