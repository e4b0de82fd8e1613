"""Fast random play of an auction that carries more rules than the quick loop of
:mod:`spec.engine._calls` handles: announcements between the calls, and a partner calling
in a seat's place.

The loop is generated for the game from its compiled rules, the way the quick loop is:
every rule written out in it where it is read, from the rule's own expression in its
scope's environment.  A construct the game does not have adds no line, and nothing here
names a game.  The rare actions (an announcement drawn, a partner's call) go to the
generic handlers, on a working copy made consistent first.  (The play of the cards runs
in a loop generated from the play step: see :mod:`spec.engine._playout`.)
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from spec.dsl import _constructs as K
from spec.engine._compiled import CompiledRules
from spec.engine._state import ASK_PARTNER, PASS

Loop = Callable[[Any, Callable[[], float]], None]


def _merged(*blocks: Iterable[str], bound: Iterable[str] = ()) -> list[str]:
    """The statements of ``blocks``, each once, in order, but for those in ``bound`` (run
    already, and what they read unchanged since): a statement of an environment reads
    the same value into the same name whichever rule asks for it."""
    seen, out = set(bound), []
    for block in blocks:
        for line in block:
            if line not in seen:
                seen.add(line)
                out.append(line)
    return out


def _indent(lines: Iterable[str], depth: int) -> list[str]:
    return [" " * (4 * depth) + line for line in lines]


class RichPlayout(CompiledRules):
    """The generated auction of a game whose own is not quick."""

    def _rich_auction_fn(self) -> Loop | None:
        """``rich_auction(w, draw)``: the auction on the working copy ``w`` while it lasts
        (through its stages and redeals), drawing as the generic path draws from
        :meth:`~spec.engine._auction.Auction._auction_actions` (an index among the legal
        calls, then the announcements available, then the request to the partner; one
        among the announcements required, when some are), for a game with announcements
        in the auction or a partner calling in a seat's place; None for any other game.

        A call, a seat's own or his partner's in his place, is applied by the statements of
        :meth:`~spec.engine._calls.QuickCalls._call_effect`, the request by
        ``_ask_partner``; an announcement, drawn or required, is found in the list of
        actions and goes to its handler.
        """
        if self._quick_calls:  # type: ignore[attr-defined]
            return None
        game, tables, env = self.game, self.tables, self.envs.call
        key_lines, key = env.reader_lines(self._call_ok.reads)  # type: ignore[attr-defined]  # compiled, with its reads
        blocks = [key_lines]
        avail: list[str] = []
        ask: list[str] = []
        for _rule, body, _decl, _when, _must, _sets in self._call_announce:
            when_lines, when, _i = env.inline(game, tables, body.when)
            blocks.append(when_lines)
            avail += [f"if {when}:", "    avail_ += 1"]
            if body.required is not None:  # a required announcement comes before any call
                must_lines, must, _i = env.inline(game, tables, body.required)
                blocks.append(must_lines)
                avail += [f"    if {must}:", "        required_ = True"]
        if self._proxy_when is not None:
            proxy = game.constructs(K.ProxyCall)[0][1]
            assert isinstance(proxy, K.ProxyCall)
            when_lines, when, _i = env.inline(game, tables, proxy.when)
            blocks.append(when_lines)
            avail += [f"if w.proxy < 0 and ({when}):", "    avail_ += 1", "    ask_ = True"]
            # the request, listed last, made without the list
            ask = ["if ask_ and r_ == n_ + avail_ - 1:", "    ask_partner_(w, ASK_)", "    continue"]
        known = self._known
        return self._exec_calls([  # type: ignore[attr-defined, no-any-return]
            "def rich_auction(w, draw):",
            "    s = w",
            "    while True:",
            "        if len(w.log) > most_ or w.redeals > most_redeals_:",
            "            raise endless_(w)",
            *_indent(_merged(*blocks), 2),
            f"        found_ = cache_.get({key})",
            "        if found_ is None:",
            "            found_ = legal_calls_(w)",
            "        acts_ = found_[0]",
            "        avail_, required_, ask_ = 0, False, False",
            *_indent(avail, 2),
            "        if not required_:",
            "            n_ = len(acts_)",
            "            if not n_ + avail_:",
            "                raise stuck_(w.turn, w.phase.value, w.trick_number)",
            "            r_ = int(draw() * (n_ + avail_))",
            "            if r_ < n_:",
            "                call_ = acts_[r_]",
            "                b_ = bid_of_[id(call_)]",
            *_indent(self._call_effect(), 4),  # type: ignore[attr-defined]
            "                if over_:",
            "                    end_stage_(w)",
            "                    if w.phase not in CALLING_:",
            "                        return",
            "                continue",
            *_indent(ask, 3),
            "            action_ = auction_actions_(w)[0][r_]",
            "        else:",
            "            acts_ = auction_actions_(w)[0]",
            "            action_ = acts_[int(draw() * len(acts_))]",
            "        k_ = known_[id(action_)]",
            "        k_[2](w, action_, k_[3])",
            "        if w.phase not in CALLING_:",
            "            return",
        ], "rich_auction", cache_=self._legal_calls_cache,
            legal_calls_=self._legal_calls, auction_actions_=self._auction_actions,  # type: ignore[attr-defined]
            known_=known, stuck_=self._stuck, ASK_=ASK_PARTNER,  # type: ignore[attr-defined]
            ask_partner_=self._ask_partner,  # type: ignore[attr-defined]
            bid_of_={id(c): known[id(c)][3] for c in (PASS, *self._calls)})
