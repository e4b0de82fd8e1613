"""The auction and the moments around it: calls, announcements, cards laid aside, and the
deal's status between actions.

The ``_do_*`` methods apply an action the rules allow to a working copy ``w`` of a state
(see :func:`spec.engine._state.thaw`), in place; the ``_check_*`` methods refuse an action
the rules forbid, naming the rule, and say what the handler needs.
"""
from __future__ import annotations

from typing import Any

from spec.dsl._nodes import Scope
from spec.engine._compiled import _CACHE_SIZE, CompiledRules
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
        if s.phase in self._call_phases:  # type: ignore[attr-defined]
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
        scope = Scope.CALL if w.phase in self._call_phases else Scope.PLAY  # type: ignore[attr-defined]
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
        owners when the rule says so (the fast play of the cards writes the same judgement
        into its loop: ``StepSource._status_lines``)."""
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
