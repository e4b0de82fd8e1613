"""Calls applied by code generated from the game's auction rules.

What a call does is written once, as the effects of the auction steps
(:mod:`spec.dsl._steps`): a partner calling in a seat's place, bids that several seats
join or one other seat accepts, the rule that ends each stage.  The functions here are
generated from those effects (:class:`~spec.engine._source.StepSource`), with the game's
answers written in: the handler of a call, and the fast auction of random play.
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
        rules judged), as the auction steps say, up to the end of the stage: ``over_``
        says whether the auction of this stage is over, for the caller to act on."""
        auctions = self._call_steps  # type: ignore[attr-defined]
        if len(auctions) == 1:
            return self.step_lines(auctions[0].effects, action="call_")  # type: ignore[attr-defined]
        # the step the state is in: by its dealing stage, and by its phase where the calls
        # belong to several (a phase a game adds)
        phased = len({step.phase for step in auctions}) > 1
        lines: list[str] = []
        for k, step in enumerate(auctions):
            test = [f"w.phase is PHASE_{k}_"] if phased else []
            test += [f"w.stage == {step.stage}"] if step.stage is not None else []
            lines.append(f"{'if' if k == 0 else 'elif'} {' and '.join(test)}:")
            lines += self.step_lines(step.effects, 1, action="call_")  # type: ignore[attr-defined]
        return lines

    def _call_ns(self) -> dict[str, Any]:
        ns = dict(self.tables.ns)
        ns.update({f"PHASE_{k}_": Phase(step.phase)  # type: ignore[arg-type]
                   for k, step in enumerate(self._call_steps)})  # type: ignore[attr-defined]
        ns.update(plus_=self._plus,
                  next_seat_=self._next_seat,
                  end_stage_=self._end_stage, CALLING_=self._call_phases,  # type: ignore[attr-defined]
                  most_=self.most_actions, most_redeals_=self.most_redeals,  # type: ignore[attr-defined]
                  endless_=self.endless)  # type: ignore[attr-defined]
        return ns

    def _exec_calls(self, src: list[str], name: str, **extra: Any) -> Callable[..., Any]:
        ns = self._call_ns()
        ns.update(self._step_ns())  # type: ignore[attr-defined]  # what the step code reads
        ns.update(extra)
        code = compile("\n".join(src) + "\n", f"<{self.game.key}:{name}>", "exec")
        exec(code, ns)  # noqa: S102  # generated from the game's auction rules
        return ns[name]  # type: ignore[no-any-return]

    def _quick_call_handler(self) -> Callable[[Any, Any, int], None]:
        """``quick_call(w, call_, b_)``: a call applied, as the auction steps say."""
        return self._exec_calls([
            "def quick_call(w, call_, b_):",
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
            "            if w.phase not in CALLING_:",
            "                return",
        ], "quick_auction", cache_=self._legal_calls_cache,
            legal_calls_=self._legal_calls,  # type: ignore[attr-defined]
            bid_of_={id(c): known[id(c)][3] for c in (PASS, *self._calls)})
