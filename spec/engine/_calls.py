"""Calls applied by code generated from the game's auction rules.

A call's effect (:meth:`Auction._do_call`) asks at every call what the game allows: a
partner calling in a seat's place, bids that several seats join or one other seat
accepts, auctions in stages.  For a game where no partner calls in a seat's place, the
functions here are generated once with those answers written in: the rule that ends the
auction inlined where the game has one stage, and the branches for joined and accepted
bids only where its ladder has such bids.  They change the state exactly as
``_do_call`` does.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec.engine._compiled import CompiledRules
from spec.engine._state import PASS, Phase


class QuickCalls(CompiledRules):
    """The generated handler of calls, and the fast auction of random play."""

    def _call_effect(self) -> list[str]:
        """The statements (unindented) that apply the call ``call_`` of bid number ``b_``
        (-1: a pass) to the working copy ``w`` (also bound to ``s``, the input of the
        rule that ends the auction) by the seat to call, up to the end of the stage:
        ``over_`` says whether the auction of this stage is over, for the caller to act on."""
        new_high = ["w.standing, w.high_bidder, w.passes_in_row, w.stage_bid = b_, seat_, 0, True",
                    "w.high_namer = seat_"]
        branches: list[tuple[str, list[str]]] = []
        if self._joinable is not None:
            # the same bid again, which the rules let a seat join
            branches.append(("b_ == w.standing and joinable_[b_]", [
                "w.joined |= 1 << seat_", "w.passes_in_row, w.stage_bid = 0, True",
                "w.fired = w.fired + ((len(w.log), join_rule_.id),)"]))
        if self._acceptable is not None:
            # the same bid again, which the rules let one other seat accept
            branches.append(("b_ == w.standing and acceptable_[b_] and w.accepter < 0"
                             " and seat_ != w.high_bidder", [
                                 "w.accepter = seat_", "w.passes_in_row, w.stage_bid = 0, True"]))
        if branches:  # a new highest bid: the seats that joined or accepted the last lose it
            new_high.append("w.joined, w.accepter = 0, -1")
        lines = ["seat_ = w.turn", "w.calls = w.calls + ((seat_, b_),)",
                 "w.seat_calls = plus_[seat_](w.seat_calls, 1)", "if b_ >= 0:"]
        if branches:
            for k, (cond, body) in enumerate(branches):
                lines.append(f"    {'if' if k == 0 else 'elif'} {cond}:")
                lines += [f"        {line}" for line in body]
            lines.append("    else:")
            lines += [f"        {line}" for line in new_high]
        else:
            lines += [f"    {line}" for line in new_high]
        lines += ["else:", "    w.passes_in_row += 1", "    w.passed |= 1 << seat_",
                  "w.stage_calls += 1", "w.log = w.log + ((seat_, call_),)"]
        # the auction-over rule reads the state after the call, the turn not yet passed on
        if self.stages == 1:
            ends, over, _inputs = self.envs.call.inline(self.game, self.tables,
                                                        self._turns[0].ends_when)  # type: ignore[union-attr]
            lines += [*ends, f"over_ = {over}"]
        else:
            lines.append("over_ = ends_[w.stage - 1](w)")
        # the seat idle for the deal makes no call
        return [*lines, "turn_ = next_seat_[seat_]", "if turn_ == w.idle:",
                "    turn_ = next_seat_[turn_]", "w.turn = turn_"]

    def _call_ns(self) -> dict[str, Any]:
        ns = dict(self.tables.ns)
        ns.update(plus_=self._plus, joinable_=self._joinable, acceptable_=self._acceptable,
                  join_rule_=self._join_rule,
                  ends_=self._ends, next_seat_=self._next_seat, do_call_=self._do_call,  # type: ignore[attr-defined]
                  end_stage_=self._end_stage, AUCTION_=Phase.AUCTION,  # type: ignore[attr-defined]
                  most_=self.most_actions, most_redeals_=self.most_redeals,  # type: ignore[attr-defined]
                  endless_=self.endless)  # type: ignore[attr-defined]
        return ns

    def _exec_calls(self, src: list[str], name: str, **extra: Any) -> Callable[..., Any]:
        ns = self._call_ns()
        ns.update(extra)
        code = compile("\n".join(src) + "\n", f"<{self.game.key}:{name}>", "exec")
        exec(code, ns)  # noqa: S102  # generated from the game's auction rules
        return ns[name]  # type: ignore[no-any-return]

    def _quick_call_handler(self) -> Callable[[Any, Any, int], None]:
        """``quick_call(w, call_, b_)``: ``_do_call`` for a game where no partner calls in
        a seat's place (a state made by hand with a partner calling goes to ``_do_call``)."""
        return self._exec_calls([
            "def quick_call(w, call_, b_):",
            "    if w.proxy >= 0:",
            "        return do_call_(w, call_, b_)",
            "    s = w",
            *(f"    {line}" for line in self._call_effect()),
            "    if over_:",
            "        end_stage_(w)",
        ], "quick_call")

    def _quick_auction_fn(self) -> Callable[[Any, Callable[[], float]], None]:
        """``quick_auction(w, draw)``: the auction on the working copy ``w`` while it lasts
        (through its stages and redeals), each call drawn as :meth:`random_playout` draws
        it, in a game whose legal actions in the auction are its legal calls.  It returns
        early, the auction not over, when the rules leave the seat no call (or a partner
        calls in its place): the caller then takes the general path."""
        key_lines, key = self.envs.call.reader_lines(self._call_ok.reads)
        known = self._known  # type: ignore[attr-defined]
        return self._exec_calls([
            "def quick_auction(w, draw):",
            "    s = w",
            "    while w.proxy < 0:",
            "        if len(w.log) > most_ or w.redeals > most_redeals_:",
            "            raise endless_(w)",
            *(f"        {line}" for line in key_lines),
            f"        found_ = cache_.get({key})",
            "        if found_ is None:",
            "            found_ = legal_calls_(w)",
            "        acts_ = found_[0]",
            "        if not acts_:",
            "            return",
            "        call_ = acts_[int(draw() * len(acts_))]",
            "        b_ = bid_of_[id(call_)]",
            *(f"        {line}" for line in self._call_effect()),
            "        if over_:",
            "            end_stage_(w)",
            "            if w.phase is not AUCTION_:",
            "                return",
        ], "quick_auction", cache_=self._legal_calls_cache,
            legal_calls_=self._legal_calls,  # type: ignore[attr-defined]
            bid_of_={id(c): known[id(c)][3] for c in (PASS, *self._calls)})
