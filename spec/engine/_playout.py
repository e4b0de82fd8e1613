"""Fast random play, and the random bots: the same draws, the same deal, whichever path plays it."""
from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from spec.dsl import _derive as D
from spec.dsl import _steps as S
from spec.dsl._nodes import NO_SUIT
from spec.engine._compiled import _CACHE_SIZE, CompiledRules
from spec.engine._env import _names_in
from spec.engine._playout_rich import Loop, _merged
from spec.engine._source import FastPlay, NotInline, _Writer
from spec.engine._state import (
    PASS,
    STATE_FIELDS,
    Action,
    Call,
    Declare,
    Phase,
    State,
    View,
    fired,
    freeze,
    thaw,
)


class Playout(CompiledRules):
    """Random play at speed: a deal played to its end on one working copy of the state."""

    # the play of the cards generated from the play step (see _play_loop_fn); None where
    # the game plays by the generic handlers
    _play_loop: Loop | None

    def random_playout(self, s: State, rng: random.Random, until: Phase | None = None) -> State:
        """The deal played to its end from ``s`` (with ``until``, to the first moment it
        shows that phase, or its end), each action uniformly random among the legal ones.

        The same draws from ``rng`` as :func:`random_bot` choosing from
        :meth:`~Engine.legal_actions` state by state, so the same deal; but the deal is
        played on one working copy of ``s`` (no state per action, and no action checked:
        each is one the engine just listed).  The auction runs in a loop generated for the
        game: a quick one where its legal actions there are its calls, a richer one
        elsewhere (see :mod:`spec.engine._playout_rich`); a card laid aside or discarded is
        drawn from the bits of the hand, and a choice among named options from those
        open, without the list of actions; and the play of the cards runs in a loop
        generated from the play step (:meth:`_play_loop_fn`), which keeps the fields it
        changes in local variables, without a list of actions per card.
        """
        w = thaw(s)
        draw = rng.random  # as pick(rng, n) draws
        known, actions = self._known, self._actions  # type: ignore[attr-defined]
        play_on = self._play_loop or self._play_on
        auction_loop = self._quick_auction or self._rich_auction  # type: ignore[attr-defined]
        over, play, calling = Phase.OVER, Phase.PLAY, self._call_phases  # type: ignore[attr-defined]
        self._course()  # type: ignore[attr-defined]
        card_steps, choices = self._card_steps, self._choices  # type: ignore[attr-defined]
        options_of, choose = self._choice_options, self._do_choice  # type: ignore[attr-defined]
        while True:
            phase = w.phase
            if phase is until:
                break
            endless = self.endless(w)  # type: ignore[attr-defined]
            if endless is not None:
                raise endless
            if phase in calling and auction_loop is not None:
                auction_loop(w, draw)
                if w.phase in calling:  # no legal call (or a partner calling): the long way
                    acts = actions(w)[0]
                    action = acts[int(draw() * len(acts))]
                    k = known[id(action)]
                    k[2](w, action, k[3])
                continue
            if phase is over:
                break
            if phase is play:
                play_on(w, draw)
                continue
            if phase in choices:  # a choice among named options
                options = options_of(w)
                if not options:
                    raise self._stuck(w.turn, phase.value, w.trick_number)  # type: ignore[attr-defined]
                choose(w, options[int(draw() * len(options))])
                continue
            found = card_steps.get((phase, w.stage))
            if found is not None:  # one action per card of the hand, in card order
                hand = w.hands[w.turn]
                if not hand:
                    raise self._stuck(w.turn, phase.value, w.trick_number)  # type: ignore[attr-defined]
                for _ in range(int(draw() * hand.bit_count())):
                    hand &= hand - 1
                i = (hand & -hand).bit_length() - 1
                found[1](w, found[2][i], i)
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

    def _play_loop_fn(self) -> Loop | None:
        """``play_loop(w, draw)``: the play of the cards on the working copy ``w``, drawing
        as :meth:`_play_on` draws (an index among the legal plays, in card order, then the
        announcements available; one among those required, when some are), generated from
        the play step (:meth:`_play_loop_text`); None for a game whose rules or steps it
        cannot keep up with (see :class:`NotInline`), or whose cards may name a suit where
        announcements are made in the play: the game plays by the generic handlers."""
        if self._decl_choices and self._play_announce:
            return None
        step = next(s for s in self.game.steps if s.phase == Phase.PLAY.value)
        try:
            mirrored: frozenset[str] = frozenset()
            while True:  # the fields the rules read in ``w`` are set there too
                text, set_locals = self._play_loop_text(step, mirrored)
                more = state_reads(text) & set_locals
                if more <= mirrored:
                    break
                mirrored |= more
        except NotInline:
            return None
        if not reads_in_time(text, frozenset(set_locals - mirrored)):
            return None
        ns = {**self._step_ns(), **dict(  # type: ignore[attr-defined]
            stuck_=self._stuck, PLAY_=Phase.PLAY.value, plain_by_key_=self._plain_by_key,  # type: ignore[attr-defined]
            decoder_=self._decoder, known_=self._known, CACHE_SIZE_=_CACHE_SIZE,  # type: ignore[attr-defined]
            NO_SUIT_=NO_SUIT, plain_cards_=self._plain_cards, strengths_=self.strengths,  # type: ignore[attr-defined]
            stronger_=self.stronger, DONE_=_DONE, ANNOUNCE_=_ANNOUNCE, REQUIRED_=_REQUIRED,  # type: ignore[attr-defined]
            do_declare_=self._do_declare, announcements_=self._announcements,  # type: ignore[attr-defined]
            announce_=self._play_announce, voids_=self._voids, fired_=fired,
            redeal_=self._redeal)}  # type: ignore[attr-defined]
        exec(compile(text, f"<{self.game.key}:play_loop>", "exec"), ns)  # noqa: S102  # generated from the play step
        fn = ns["play_loop"]
        fn.source = text
        return fn  # type: ignore[no-any-return]

    def _play_storage(self, step: S.Step) -> tuple[frozenset[str], frozenset[str],
                                                   frozenset[str], frozenset[str]]:
        """How the play loop keeps the fields the play step reads and sets: those it
        changes in place (a seat's entry of a place, an entry added to a record) in
        lists, the rest in local variables (but the tracked values and the rules that
        took effect); and the fields set card by card, and those set only as a trick
        ends (in the effects that empty the trick)."""
        reads: set[str] = {"turn", "led_suit", "trick_number", "trump", "contract"}
        _gets(step.effects, reads)
        card: set[str] = set()
        trick: set[str] = set()
        grows: set[str] = {"hands", "trick"}  # the loop reads a hand by seat, the trick's length
        returns = self._aside_returns_when is not None

        def walk(effects: tuple[Any, ...], ends: bool) -> None:
            ends = ends or S.Set("trick", S.Lit(())) in effects
            into = trick if ends else card
            for e in effects:
                if isinstance(e, S.Set):
                    into.add(e.field)
                    v = e.value
                    if isinstance(v, S.Added | S.Appended) or (
                            isinstance(v, S.Joined | S.Less) and isinstance(v.b, S.Only)):
                        grows.add(e.field)
                elif isinstance(e, S.When):
                    walk(e.then, ends)
                    walk(e.orelse, ends)
                elif isinstance(e, S.Track | S.Updates):
                    into.add("tracked")
                elif isinstance(e, S.Record):
                    into.add("log")
                    grows.add("log")
                elif isinstance(e, S.Judge) and e.what is S.Judgement.STATUS and returns:
                    into.update(("hands", "aside"))  # cards aside go back
                    grows.update(("hands", "aside"))
        walk(step.effects, False)
        lists = frozenset(grows)
        local = frozenset((reads | card | trick) - lists - {"tracked", "fired", "phase"})
        return lists, local, frozenset(card), frozenset(trick - card)

    def _play_reading(self) -> _PlayRules:
        """What the play loop reads of the rules card by card: the legality rule, the
        announcements' rules, and the key of what the declaration rules read, each in the
        fast play's environment (the seat, hand, position and suit led bound)."""
        game, tables, env = self.game, self.tables, self.envs.play_fast
        lines, legal, _i = env.inline(game, tables, D.legal_cards(game))
        # where the legality rule reads the cards that would beat the trick so far: those
        # (``above_``: the cards stronger than the best), rather than the strengths of the
        # trick's cards asked again for each card
        beat = self._strength_key is not None and any(
            line.startswith("beating = ") for line in lines)
        if beat:  # and what only the rule's own reading of ``beating`` read goes
            lines = _needed(["beating = hand & above_ if position else 0"
                             if line.startswith("beating = ") else line for line in lines],
                            legal)
        announce: list[tuple[str, str | None]] = []
        blocks = []
        for _rule, body, _decl, _when, _must, _sets in self._play_announce:
            when_lines, when, _i = env.inline(game, tables, body.when)
            blocks.append(when_lines)
            must = None
            if body.required is not None:
                must_lines, must, _i = env.inline(game, tables, body.required)
                blocks.append(must_lines)
            announce.append((when, must))
        key_lines: list[str] = []
        key = ""
        if self._decl_choices:  # what the declaration rules read, read inline
            reader, key = env.reader_lines(self._decl_reads)
            assigned = {line.split(" = ", 1)[0] for line in lines}
            key_lines = [line for line in reader if line.split(" = ", 1)[0] not in assigned]
        return _PlayRules(_merged(*blocks, lines, key_lines), legal, announce, key, beat)

    def _play_draw_lines(self, rules: _PlayRules) -> list[str]:
        """The play loop's draw of the card ``i_`` (bit ``x_``, naming the suit ``d_``
        where cards may name one; the action ``play_``), as :meth:`_play_on` draws: an index among the legal plays,
        in card order, then the announcements available, an announcement drawn (or one
        required) stopping the loop; where cards may name a suit, the plays of the cards
        that may, from the decoder."""
        pick = ["        r_ = int(draw() * mask_.bit_count())"]
        if rules.announce:
            avail = [line for when, must in rules.announce for line in (
                f"        if {when}:", "            avail_ += 1",
                *((f"            if {must}:", "                event_ = REQUIRED_",
                   "                break") if must is not None else ()))]
            out = ["        avail_ = 0", *avail, f"        mask_ = {rules.legal}",
                   "        count_ = mask_.bit_count()", "        if not count_ + avail_:",
                   "            raise stuck_(turn__, PLAY_, trick_number__)",
                   "        r_ = int(draw() * (count_ + avail_))", "        if r_ >= count_:",
                   "            event_ = ANNOUNCE_", "            break"]
            pick = []
        else:
            out = [f"        mask_ = {rules.legal}", "        if not mask_:",
                   "            raise stuck_(turn__, PLAY_, trick_number__)"]
        pick += ["        for _ in range(r_):", "            mask_ &= mask_ - 1",
                 "        x_ = mask_ & -mask_", "        i_ = x_.bit_length() - 1",
                 *(["        d_ = NO_SUIT_"] if self._decl_choices else []),
                 "        play_ = plain_cards_[i_]"]
        if not self._decl_choices:
            return out + pick
        # each legal card is one play but where the cards of the mask may name a suit for
        # what the declaration rules read (the key)
        return [
            *out,
            f"        key_ = {rules.key}",
            "        if mask_ & ~plain_by_key_.get(key_, 0):",
            "            # the decoder may ask the declaration rules, which read ``w``",
            "            w.turn, w.led_suit = turn__, led_suit__",
            "            plays_, union_ = decoder_(w)(mask_, w)",
            "            if union_ != mask_:  # a card names a suit (a plain play's bit is its card's)",
            "                play_ = plays_[int(draw() * len(plays_))]",
            "                i_, d_ = known_[id(play_)][3]",
            "                x_ = 1 << i_",
            "                mask_ = 0",
            "            elif len(plain_by_key_) < CACHE_SIZE_:",
            "                plain_by_key_[key_] = plain_by_key_.get(key_, 0) | mask_",
            "        if mask_:",
            *("    " + line for line in pick),
        ]

    def _play_loop_text(self, step: S.Step, mirrored: frozenset[str]
                        ) -> tuple[str, frozenset[str]]:
        """The text of ``play_loop(w, draw)`` (see :meth:`_play_loop_fn`), and the fields
        it keeps in local variables and sets (``mirrored``: those set in ``w`` too).

        A card is drawn as :meth:`_play_on` draws (:meth:`_play_draw_lines`), the rules
        written in the loop (:meth:`_play_reading`); what the card does is the play step's
        effects, written by :meth:`~spec.engine._source.StepSource._effects` in the
        loop's form (:class:`~spec.engine._source.FastPlay`): the fields in lists and
        local variables, the strongest card so far known from the deck's strengths for
        the trick (where they are a table), no list of actions.  The loop stops as the
        deal ends, the rules void it, or an announcement is drawn (or required): ``w``
        gets its fields back as tuples, and the announcement or the new deal goes to the
        generic handlers, after which the caller plays on.  Each value the rules read is
        read once, trick by trick or card by card, as it may change (see
        :func:`when_read`); the rules' inputs (``seat``, ``hand``, ``position``, ``led``)
        are bound card by card.

        Raises:
            NotInline: a rule reads what the loop keeps out of date, or an effect has no
                form in it.
        """
        rules = self._play_reading()
        turn = rules.lines
        lists, local, card_sets, trick_sets = self._play_storage(step)
        set_locals = local & (card_sets | trick_sets)
        if self._decl_choices:  # the decoder's rules read ``w`` (the turn and suit led set)
            mirrored |= set_locals - {"turn", "led_suit"}
        mirrored |= state_reads("\n".join(turn)) & set_locals
        read_at = when_read(turn, self.tables.ns, live=lists | (mirrored & card_sets),
                            per_trick=trick_sets, stale=set_locals - mirrored)
        ranked = self._strength_key is not None
        fast = FastPlay(lists, local, mirrored, card_sets | trick_sets | lists, ranked,
                        rules.beat, bool(self._decl_choices))
        fast.pre = _Writer(self, "play_", fast)  # type: ignore[arg-type]
        fast.pre.depth = 0
        # as a trick ends, the values of the rules that change from trick to trick are read
        # again, and those of the rest that the effects overwrote (the effects written
        # once to learn which)
        for again in (False, True):
            out = _Writer(self, "play_", fast)  # type: ignore[arg-type]
            out.depth = 2
            out.bound = {line.split(" = ", 1)[0]: (line, 0) for line in turn}
            self._effects(out, step.effects)  # type: ignore[attr-defined]
            if not again:
                clobbered = set(re.findall(r"^\s*(\w+) = ", "\n".join(out.lines), re.M))
                fast.again = [line for line in turn if read_at[line] == TRICK or (
                    read_at[line] == ONCE and line.split(" = ", 1)[0] in clobbered)]
        body = [
            *(["        if position and above_ is None:",
               "            above_ = table_[1].get(top_)",
               "            if above_ is None:",
               "                above_ = stronger_(table_, top_)"] if rules.beat else []),
            *(f"        {line}" for line in turn if read_at[line] == CARD),
            *self._play_draw_lines(rules),
            *out.lines,
        ]
        used = set(re.findall(r"[A-Za-z_]\w*", "\n".join(body)))
        src = [
            "def play_loop(w, draw):",
            "    s = w",
            *(f"    {f}__ = list(w.{f})" for f in sorted(lists)),
            *(f"    w.{f} = {f}__" for f in sorted(lists)),
            *(f"    {f}__ = w.{f}" for f in sorted(local)),
            "    tmask_, size_ = 0, len(trick__)",
            "    for c_, _d in trick__:",
            "        tmask_ |= 1 << c_",
            *(_RESUME if ranked else []),
            *(["    above_ = None"] if rules.beat else []),
            *(f"    {line}" for line in fast.pre.lines),
            *(f"    {line}" for line in turn if read_at[line] != CARD),
            "    while True:",
            *(f"        {name} = {value}" for name, value in _INPUTS if name in used),
            *body,
            *(f"    w.{f} = tuple({f}__)" for f in sorted(lists)),
            *(f"    w.{f} = {f}__" for f in sorted(set_locals)),
            *self._play_loop_ends(bool(rules.announce)),
        ]
        return "\n".join(src) + "\n", set_locals

    def _play_loop_ends(self, announce: bool) -> list[str]:
        """The play loop's last lines, its fields written back: the deal scored, an
        announcement made, or the deal, void, dealt again (see ``event_``)."""
        return [
            "    if event_ == DONE_:",
            "        w.scores, w.lines = final_scores_(w)",
            "        w.phase = OVER_",
            *([
                "    elif event_ == ANNOUNCE_:",
                "        do_declare_(w, announcements_(w, announce_)[0][r_ - count_])",
                "    elif event_ == REQUIRED_:",
                "        required_ = announcements_(w, announce_)[1]",
                "        do_declare_(w, required_[int(draw() * len(required_))])",
            ] if announce else []),
            *([
                "    else:  # the rules void the deal: it is dealt again",
                "        _when, steps_, rule_ = voids_[event_]",
                "        fired_(w, rule_)",
                "        redeal_(w, steps_, rule_.id)",
            ] if self._voids else []),  # type: ignore[attr-defined]
        ]


@dataclass
class _PlayRules:
    """What the play loop reads of the rules card by card (see Playout._play_reading): the
    statements that read their values, the legal mask, each announcement's condition and
    the condition that requires it (None: none), the key of what the declaration rules
    read, and whether the legality rule reads the cards that would beat the trick."""

    lines: list[str]
    legal: str
    announce: list[tuple[str, str | None]]
    key: str
    beat: bool


# the inputs of the play's rules, bound card by card where the loop reads them
_INPUTS = (("seat", "turn__"), ("hand", "hands__[turn__]"), ("position", "size_"),
           ("led", "led_suit__"))
# the strongest card so far of a trick the loop begins in, from the deck's strengths
_RESUME = [
    "    if trick__:",
    "        table_ = strengths_(led_suit__, trump__, trick_number__, contract__)",
    "        top_, top_at_ = table_[0][trick__[0][0]], 0",
    "        for k_, (c_, _d) in enumerate(trick__):",
    "            if table_[0][c_] > top_:",
    "                top_, top_at_ = table_[0][c_], k_",
]
# why the play loop stopped, for the code after it: the deal is over, an announcement was
# drawn, one is required; a void deal is the index of its rule (0 and up)
_DONE, _ANNOUNCE, _REQUIRED = -1, -2, -3


def _gets(v: Any, into: set[str]) -> None:
    """Adds to ``into`` the fields that the steps' values or effects ``v`` read."""
    if isinstance(v, S.Get):
        into.add(v.field)
    elif isinstance(v, S.Stated):  # the rule reads the state as it reads it
        _gets(v.given, into)
    elif isinstance(v, tuple):
        for x in v:
            _gets(x, into)
    elif is_dataclass(v) and not isinstance(v, type):
        for f in fields(v):
            _gets(getattr(v, f.name), into)


ONCE, TRICK, CARD = "once", "trick", "card"

def _needed(lines: list[str], expr: str) -> list[str]:
    """The statements ``name = expression`` of ``lines`` (in reading order) that ``expr``
    reads, directly or through the statements after them."""
    wanted, kept = _names_in(expr), []
    for line in reversed(lines):
        name, source = line.split(" = ", 1)
        if name in wanted:
            kept.append(line)
            wanted |= _names_in(source)
    return kept[::-1]


def state_reads(text: str) -> set[str]:
    """The attributes of the working copy, named ``s`` by the rules, that generated code
    ``text`` reads (its own work on the copy goes through ``w``)."""
    return {n.attr for n in ast.walk(ast.parse(text))
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "s"}


def reads_in_time(text: str, stale: frozenset[str]) -> bool:
    """Whether the rules written into generated code ``text`` read only fields of the
    working copy, and none it keeps ``stale`` while it runs (see :class:`NotInline`)."""
    read = state_reads(text)
    return not (read & stale or read - set(STATE_FIELDS))


def when_read(lines: list[str], tables: dict[str, Any], *, live: frozenset[str],
              per_trick: frozenset[str], stale: frozenset[str]) -> dict[str, str]:
    """When a generated play of the cards must read each value of the rules, for each line
    ``name = expression`` (in reading order) of an environment's prologue: ``card`` by card
    where it reads a field of the working copy ``s`` the play keeps ``live`` (changed card
    by card), an input bound card by card (the seat, its hand, the position, the led suit;
    a built-in function counts as one, to be safe) or a value read card by card; else
    ``trick`` by trick where it reads a field the play sets as each trick ends
    (``per_trick``) or a value read trick by trick; else ``once``, before the play (the
    game's tables, and the fields the play leaves alone).

    Raises:
        NotInline: a line reads a field the play keeps ``stale`` in ``s``, something of
            ``s`` that is not a field, or ``s`` itself (passed to a function, say).
    """
    fields = set(STATE_FIELDS)
    rank = {ONCE: 0, TRICK: 1, CARD: 2}
    when: dict[str, str] = {}
    of_name: dict[str, str] = {}
    for line in lines:
        name, expr = line.split(" = ", 1)
        tree = ast.parse(expr, mode="eval")
        read_of_s = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        level = ONCE
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "s":
                if node.attr in stale or node.attr not in fields:
                    raise NotInline(f"{line!r} reads s.{node.attr}")
                at = CARD if node.attr in live else TRICK if node.attr in per_trick else ONCE
            elif isinstance(node, ast.Name):
                if node.id == "s" and id(node) not in read_of_s:
                    raise NotInline(f"{line!r} reads the state itself")
                at = ONCE if node.id == "s" else of_name.get(
                    node.id, ONCE if node.id in tables else CARD)
            else:
                continue
            if rank[at] > rank[level]:
                level = at
        when[line] = of_name[name] = level
    return when


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


def low_bidder(pass_chance: float = 0.5) -> Bot:
    """A bot that passes with probability ``pass_chance`` whenever passing is legal, and
    otherwise makes the lowest legal bid in the game's order of bids, so that the
    contracts at the foot of the ladder, which random calls seldom leave standing, are
    played too; everything else as :func:`modest_bot`."""
    def bot(view: View, rng: random.Random) -> Action:
        actions = view.legal_actions()
        if PASS in actions and rng.random() < pass_chance:
            return PASS
        bids = [a for a in actions if isinstance(a, Call) and a.bid is not None]
        if bids:
            game = view._state.game
            return min(bids, key=lambda a: game.bid_keys[game.ladder.index(a.bid)])  # type: ignore[arg-type]
        return modest_bot(view, rng)

    return bot


def play_on(state: State, rng: random.Random) -> State:
    """The deal played to its end from ``state`` by random bots drawing from ``rng``.

    What :func:`random_bot` does, by :meth:`Engine.random_playout`: the same draws, the
    same deal, without a View, a state or a check per action.
    """
    if state.phase is Phase.OVER:
        return state
    return state.engine.random_playout(state, rng)
