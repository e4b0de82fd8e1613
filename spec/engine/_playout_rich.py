"""Fast random play for a game whose auction or tricks carry more rules than the quick
loops of :mod:`spec.engine._playout` and :mod:`spec.engine._calls` handle.

The play of the cards: announcements between the cards, cards played face down or from
aside, and rules judged as a trick ends (a trick turned face up, tracked values updated,
a deal voided, cards aside going back, a hand laid open).  The auction: announcements
between the calls, and a partner calling in a seat's place.

Each loop is generated for the game from its compiled rules, the way the quick loops
are: every rule written out in it where it is read, from the rule's own expression in
its scope's environment.  A construct the game does not have adds no line, and nothing
here names a game.  The rare actions (an announcement drawn, a partner's call) go to the
generic handlers, on a working copy made consistent first.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._nodes import NO_SUIT
from spec.engine._compiled import CompiledRules
from spec.engine._playout import (
    CARD,
    NotInline,
    next_trick_lines,
    reads_in_time,
    when_read,
)
from spec.engine._state import ASK_PARTNER, PASS, Phase, fired, trick_record

Loop = Callable[[Any, Callable[[], float]], None]
# the inputs of the play's rules bound at each turn
_TURN_INPUTS = frozenset({"seat", "hand", "position", "led"})
# the play loop keeps the hands, the cards aside and the trick of the working copy live
# (lists it changes in place), sets the trick's number, leader and tracked values as each
# trick ends, and keeps the rest of what a card changes in local variables, written back
# before anything else reads the copy (a handler, the scores)
_LIVE = frozenset({"hands", "aside", "trick"})
_STALE = frozenset({"turn", "led_suit", "faces", "log", "won", "taken", "tricks", "scores",
                    "lines", "phase"})
# why the play loop stopped, for the code after it: the deal is over, an announcement was
# drawn, one is required; a void deal is the index of its rule (0 and up)
_OVER, _ANNOUNCE, _REQUIRED = -1, -2, -3


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
    """The generated play of the cards and auction of a game whose own are not quick."""

    # long: the text of one generated function, kept in one piece so that it reads as the
    # code it generates
    def _rich_playout_fn(self) -> Loop | None:
        """``rich_playout(w, draw)``: the play of the cards on the working copy ``w``,
        drawing as :meth:`~spec.engine._playout.Playout._play_on` draws (an index among
        the legal plays, in card order, then the announcements available; one among those
        required, when some are), for a game whose tricks are not quick or whose cards may
        lie aside; None for any other game, and for one whose cards may name a suit.

        It plays until the deal is over, the rules void it, or an announcement is drawn
        (or required): ``w`` gets its fields back as tuples, and the announcement goes to
        the generic handler, after which the caller plays on.  While it plays, ``w`` keeps
        up to date the fields the rules of the play read, with its hands, cards aside and
        trick in lists.  Its own names end in ``_``; the rules' inputs (``seat``, ``hand``,
        ``position``, ``led``) are bound at each turn.
        """
        if self._plays_of is None or (self._quick_tricks and not self._set_aside):
            return None
        game, tables, env = self.game, self.tables, self.envs.play_fast
        lines, legal, _i = env.inline(game, tables, D.legal_cards(game))
        # each announcement's statements, and whether it is available and required
        announce: list[tuple[list[str], str, str | None]] = []
        for _rule, body, _decl, _when, _must, _sets in self._play_announce:
            when_lines, when, _i = env.inline(game, tables, body.when)
            must_lines: list[str] = []
            must = None
            if body.required is not None:
                must_lines, must, _i = env.inline(game, tables, body.required)
            announce.append(([*when_lines, *must_lines], when, must))
        turn = _merged(*(a[0] for a in announce), lines)
        # what the rules read that stays as it is for a whole trick is read as it begins:
        # the trick number, the leader and the tracked values change only as one ends, or
        # as an announcement is made, which stops the loop (and the next reads them again)
        try:
            read_at = when_read(turn, tables.ns, live=_LIVE, per_trick=frozenset(), stale=_STALE)
        except NotInline:
            return None
        trick = [line for line in turn if read_at[line] != CARD]
        src = [
            "def rich_playout(w, draw):",
            "    s = w",
            "    hands_, aside_, won_, taken_ = list(w.hands), list(w.aside), list(w.won), list(w.taken)",
            "    tricks_, log_, trick_, faces_ = list(w.tricks), list(w.log), list(w.trick), list(w.faces)",
            "    w.hands, w.aside, w.trick = hands_, aside_, trick_",
            "    led_, leader_, turn_, number_ = w.led_suit, w.leader, w.turn, w.trick_number",
            "    trump_, contract_, out_ = w.trump, w.contract, w.out",
            "    order_ = trick_order_(out_, w.absent)",
            "    seats_ = order_[leader_]",
            "    size_, pos_, tmask_ = len(seats_), len(trick_), 0",
            "    for k_, (c_, d_) in enumerate(trick_):",
            "        tmask_ |= 1 << c_",
            *_indent(self._strongest_lines("c_", "d_", "k_"), 2),
            *_indent(trick, 1),
            "    while True:",
            "        hand_ = hands_[turn_]",
            "        seat, hand, position, led = turn_, hand_, pos_, led_",
            *_indent((line for line in turn if line not in trick), 2),
            "        avail_ = 0",
        ]
        for _lines, when, must in announce:
            src += [f"        if {when}:", "            avail_ += 1"]
            if must is not None:  # a required announcement comes before any card
                src += [f"            if {must}:", "                event_ = REQUIRED_",
                        "                break"]
        src += [
            f"        mask_ = {legal}",
            "        count_ = mask_.bit_count()",
            "        if not count_ + avail_:",
            "            raise stuck_(turn_, PLAY_, number_)",
            "        r_ = int(draw() * (count_ + avail_))",
            "        if r_ >= count_:",
            "            event_ = ANNOUNCE_",
            "            break",
            "        for _ in range(r_):",
            "            mask_ &= mask_ - 1",
            "        bit_ = mask_ & -mask_",
            "        i_ = bit_.bit_length() - 1",
            *_indent(self._rich_card_lines(turn), 2),
            "        pos_ += 1",
            "        if pos_ < size_:",
            "            turn_ = seats_[pos_]",
            "            continue",
            *_indent(self._rich_trick_lines(), 2),
            *_indent(self._rich_status_lines(), 2),
            *_indent(trick, 2),
            "    w.hands, w.aside, w.won, w.taken = tuple(hands_), tuple(aside_), tuple(won_), tuple(taken_)",
            "    w.tricks, w.log, w.trick, w.faces = tuple(tricks_), tuple(log_), tuple(trick_), tuple(faces_)",
            "    w.turn, w.led_suit, w.trick_number, w.leader = turn_, led_, number_, leader_",
            "    if event_ == OVER_:",
            "        w.scores, w.lines = final_scores_(w)",
            "        w.phase = OVER_PHASE_",
            "    elif event_ == ANNOUNCE_:",
            "        do_declare_(w, announcements_(w, announce_)[0][r_ - count_])",
            "    elif event_ == REQUIRED_:",
            "        required_ = announcements_(w, announce_)[1]",
            "        do_declare_(w, required_[int(draw() * len(required_))])",
            "    else:  # the rules void the deal: it is dealt again",
            "        _when, steps_, rule_ = voids_[event_]",
            "        fired_(w, rule_)",
            "        redeal_(w, steps_, rule_.id)",
        ]
        n = self.n
        ns = dict(tables.ns)
        ns.update(
            trick_order_=self.trick_order, stuck_=self._stuck, PLAY_=Phase.PLAY.value,  # type: ignore[attr-defined]
            NO_SUIT_=NO_SUIT, plain_cards_=self._plain_cards, trick_record_=trick_record,
            final_scores_=self._final_scores, OVER_PHASE_=Phase.OVER, OVER_=_OVER,
            ANNOUNCE_=_ANNOUNCE, REQUIRED_=_REQUIRED, do_declare_=self._do_declare,  # type: ignore[attr-defined]
            announcements_=self._announcements, announce_=self._play_announce,  # type: ignore[attr-defined]
            voids_=self._voids, fired_=fired, redeal_=self._redeal,  # type: ignore[attr-defined]
            aside_id_=getattr(self._aside_rule, "id", None),
            down_id_=getattr(self._face_down_rule, "id", None),
            update_ids_=tuple(rule.id for rule, _w, _s in self._updates),
            lay_open_ids_=tuple(rule.id for rule, *_r in self._lay_open),
            # a trick as the trick environment reads it: every position filled
            pad_cards_=tuple((self.envs.no_card,) * (n - k) for k in range(n + 1)),
            pad_named_=tuple((NO_SUIT,) * (n - k) for k in range(n + 1)),
            pad_faces_=tuple((False,) * (n - k) for k in range(n + 1)))
        text = "\n".join(src) + "\n"
        if not reads_in_time(text, _STALE):
            return None
        exec(compile(text, f"<{game.key}:rich_playout>", "exec"), ns)  # noqa: S102  # generated from the game's rules of the play
        fn = ns["rich_playout"]
        fn.source = text
        return fn  # type: ignore[no-any-return]

    def _rich_card_lines(self, turn: list[str]) -> list[str]:
        """The card ``i_`` (bit ``bit_``) played by ``turn_``: face down or not, judged on
        its hand (``hand_``) before the card leaves it; from the hand or from aside; the
        suit led and the strongest card so far (the statements ``turn`` have run)."""
        out = ["play_ = plain_cards_[i_]"]
        if self._face_down is not None:
            down_lines, down, _i = self.envs.play_fast_card.inline(
                self.game, self.tables, D.face_down(self.game))
            out += ["card, declared = i_, NO_SUIT_", *_merged(down_lines, bound=turn),
                    f"down_ = bool({down})"]
        if self._aside_rule is not None:  # a card the rules let be played from aside
            out += ["if hand_ & bit_:", "    hands_[turn_] = hand_ ^ bit_", "else:",
                    "    aside_[turn_] ^= bit_", "    w.fired += ((len(log_), aside_id_),)"]
        else:
            out.append("hands_[turn_] = hand_ ^ bit_")
        if self._face_down is not None:
            out += ["faces_.append(down_)", "if down_:", "    w.fired += ((len(log_), down_id_),)"]
        return [*out, "log_.append((turn_, play_))", "trick_.append((i_, NO_SUIT_))",
                "tmask_ |= bit_", "if pos_ == 0:",
                *_indent(self._entry_lines(D.entry_suit(self.game), "led_", led_suit="NO_SUIT_"), 1),
                *self._strongest_lines("i_", "NO_SUIT_", "pos_")]

    def _entry_lines(self, expr: Any, target: str, **given: str) -> list[str]:
        """``target = expr``, ``expr`` read in the environment of a card played to a trick
        (unindented): the card ``i_`` at position ``pos_``, in the trick's suit led,
        trumps, number and contract unless ``given`` names others.  Those inputs share
        their names with values the play's rules read, which they equal (trumps, trick
        number ...), but for the suit led, read by the rules anew at each turn."""
        lines, body, inputs = self.envs.entry.inline(self.game, self.tables, expr)
        values = {"card": "i_", "declared": "NO_SUIT_", "position": "pos_", "led_suit": "led_",
                  "trump": "trump_", "trick_number": "number_", "contract": "contract_", **given}
        return [*(f"{name} = {values[name]}" for name in inputs), *lines, f"{target} = {body}"]

    def _strongest_lines(self, card: str, named: str, at: str) -> list[str]:
        """The card ``card`` (naming ``named``) at position ``at`` of the trick, its suit
        led known: the strongest so far (``top_``, at position ``top_at_``) if it beats the
        best before it, the first of equals staying best, as ``best_position`` judges."""
        return [*self._entry_lines(D.strength(self.game), "st_", card=card, declared=named,
                                   position=at),
                f"if {at} == 0 or st_ > top_:", f"    top_, top_at_ = st_, {at}"]

    def _rich_trick_lines(self) -> list[str]:
        """The trick is complete (in the loop, unindented): its winner, whether it is
        turned up and who saw its face-down cards, the tracked values it updates and its
        record; then the deal is over, or the next trick begins."""
        game, tables, envs = self.game, self.tables, self.envs
        out = ["winner_ = seats_[top_at_]", "cards_, names_ = zip(*trick_)",
               "faces_t_ = tuple(faces_)"]
        if self._revealed is not None or self._updates:  # the trick environment's inputs
            out += ["number, leader, size = number_, leader_, pos_",
                    "cards, named = cards_ + pad_cards_[pos_], names_ + pad_named_[pos_]",
                    "faces = faces_t_ + pad_faces_[len(faces_t_)]"]
        seen: list[str] = []  # the statements run so far, each reading what it did
        if self._revealed is not None:
            body = game.constructs(K.FaceDown)[0][1]
            assert isinstance(body, K.FaceDown)
            up_lines, up, _i = envs.trick.inline(game, tables, body.revealed_when)
            by_lines, by, _i = envs.status.inline(game, tables, body.seen_by)
            out += [*_merged(up_lines, by_lines, bound=seen), f"revealed_ = bool({up})",
                    f"seen_ = {by}"]
            seen += up_lines + by_lines
        else:
            out.append("revealed_, seen_ = False, -1")
        if self._updates:  # every update reads the tracked values before the trick
            out.append("tv_ = None")
            for k, (_rule, body) in enumerate(game.constructs(K.Update)):
                assert isinstance(body, K.Update)
                when_lines, when, _i = envs.trick.inline(game, tables, body.when)
                out += [*_merged(when_lines, bound=seen), f"if {when}:", "    if tv_ is None:",
                        "        tv_ = list(w.tracked)", "    before_ = tv_[:]"]
                seen += when_lines
                for name, value in body.sets:
                    set_lines, new, _i = envs.trick.inline(game, tables, value)
                    out += _indent([*_merged(set_lines, bound=seen),
                                    f"tv_[{self.tracked_index[name]}] = {new}"], 1)
                # the rule's effect is noted before the trick's last card is logged
                out += ["    if tv_ != before_:",
                        f"        w.fired += ((len(log_) - 1, update_ids_[{k}]),)"]
            out += ["if tv_ is not None:", "    w.tracked = tuple(tv_)"]
        return [
            *out,
            *next_trick_lines("faces_t_, revealed_, seen_"),
            "faces_.clear()",
            # cards left, but for a seat sitting out's (a sum of masks is 0 when all are)
            "if not ((any(hands_) or any(aside_)) if out_ < 0"
            " else (sum(hands_) - hands_[out_] or sum(aside_) - aside_[out_])):",
            "    event_ = OVER_",
            "    break",
        ]

    def _rich_status_lines(self) -> list[str]:
        """The deal's status after a trick, judged as ``_after_status`` judges it (in the
        loop, unindented): a deal the rules void stops the loop; the cards aside go back to
        their owners; a hand is laid open after its trick."""
        game, tables, status = self.game, self.tables, self.envs.status
        out: list[str] = []
        seen: list[str] = []
        for k, (_rule, body) in enumerate(game.constructs(K.VoidWhen)):
            assert isinstance(body, K.VoidWhen)
            void_lines, void, _i = status.inline(game, tables, body.when)
            out += [*_merged(void_lines, bound=seen), f"if {void}:", f"    event_ = {k}",
                    "    break"]
            seen += void_lines
        if self._aside_returns_when is not None:
            back_lines, back, _i = status.inline(game, tables, self._aside_returns_when)
            out += [*_merged(back_lines, bound=seen), f"if any(aside_) and ({back}):",
                    f"    for k_ in range({self.n}):",
                    "        hands_[k_] |= aside_[k_]", "        aside_[k_] = 0"]
            seen += back_lines
        cases = [(body, when, seat) for _rule, body in game.constructs(K.LayOpen)
                 for when, seat in D.lay_open_cases(game, body)]  # type: ignore[arg-type]
        for k, (body, when_expr, seat_expr) in enumerate(cases):  # as the engine's _lay_open
            assert isinstance(body, K.LayOpen)
            when_lines, when, _i = status.inline(game, tables, when_expr)
            seat_lines, seat, _i = status.inline(game, tables, seat_expr)
            out += [f"if number_ == {body.after_trick + 1}:",
                    *_indent(_merged(when_lines, bound=seen), 1),
                    f"    if {when}:",
                    *_indent(_merged(seat_lines, bound=[*seen, *when_lines]), 2),
                    f"        opener_ = {seat}",
                    "        if all(k_ != opener_ for k_, _a in w.laid_open):",
                    f"            w.laid_open += ((opener_, {body.after_trick}),)",
                    f"            w.fired += ((len(log_), lay_open_ids_[{k}]),)"]
        return out

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
