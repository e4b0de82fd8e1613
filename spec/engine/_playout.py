"""Fast random play, and the random bots: the same draws, the same deal, whichever path plays it."""
from __future__ import annotations

import ast
import random
from collections.abc import Callable
from typing import Any

from spec.dsl import _derive as D
from spec.dsl._nodes import NO_SUIT
from spec.engine._compiled import _CACHE_SIZE, CompiledRules
from spec.engine._env import _names_in
from spec.engine._state import (
    PASS,
    STATE_FIELDS,
    Action,
    Call,
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

    # the game's quick play of the cards (see _quick_playout_fn); None where its tricks
    # are not quick
    _quick_play: Callable[[Any, Callable[[], float]], None] | None
    # the generated play of the cards of a game whose tricks are not quick (see
    # _rich_playout_fn); None where there is none
    _rich_play: Callable[[Any, Callable[[], float]], None] | None

    def random_playout(self, s: State, rng: random.Random) -> State:
        """The deal played to its end from ``s``, each action uniformly random among the
        legal ones.

        The same draws from ``rng`` as :func:`random_bot` choosing from
        :meth:`~Engine.legal_actions` state by state, so the same deal; but the deal is
        played on one working copy of ``s`` (no state per action, and no action checked:
        each is one the engine just listed).  The auction runs in a loop generated for the
        game: a quick one where its legal actions there are its calls, a richer one
        elsewhere (see :mod:`spec.engine._playout_rich`); a card laid aside or discarded is
        drawn from the bits of the hand, and a choice among named options from those
        open, without the list of actions; and the play of the cards keeps its cards in
        local variables, without a list of actions per card, in a loop generated for the
        game: a quick one where its tricks are quick (no announcements, face-down cards, or
        rules to judge at the end of a trick but who wins it) and none lie aside, a richer
        one elsewhere, but where a card may name a suit.
        """
        w = thaw(s)
        draw = rng.random  # as pick(rng, n) draws
        known, actions = self._known, self._actions  # type: ignore[attr-defined]
        quick, play_on = self._quick_play, self._rich_play or self._play_on
        auction_loop = self._quick_auction or self._rich_auction  # type: ignore[attr-defined]
        over, play, calling = Phase.OVER, Phase.PLAY, self._call_phases  # type: ignore[attr-defined]
        self._course()  # type: ignore[attr-defined]
        card_steps, choices = self._card_steps, self._choices  # type: ignore[attr-defined]
        options_of, choose = self._choice_options, self._do_choice  # type: ignore[attr-defined]
        while True:
            phase = w.phase
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
                if quick is not None and not any(w.aside):
                    quick(w, draw)
                    break
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

    def trick_order(self, out: int, absent: int) -> tuple[tuple[int, ...], ...]:
        """Leader -> the seats of a trick in order of play, past the seats out of the play
        (``absent``, a bit per seat; else the seat sitting out, ``out``), as a card played
        passes the turn on."""
        if absent:
            return tuple(self.seats_among(lead, absent) for lead in range(self.n))  # type: ignore[attr-defined]
        if out >= 0:
            return tuple(self.trick_seats(lead, out) for lead in range(self.n))  # type: ignore[attr-defined]
        return self._plain_seats

    # long: the text of one generated function, kept in one piece so that it reads as the
    # code it generates
    def _quick_playout_fn(self) -> Callable[[Any, Callable[[], float]], None] | None:
        """``quick_playout(w, draw)``: the play of the cards, from the working copy ``w``
        to the end, in a game whose tricks are quick (``_quick_tricks``: each card leaves
        its seat's hand and the trick goes round the seats in play, nothing judged at the
        end of a trick but its winner), drawing as :meth:`random_playout` does.

        One function generated for the game, with its legality rule written out in the
        loop; ``w`` keeps the fields the rules read up to date, with its hands and trick
        in lists while the play lasts.  Its own names end in ``_``, apart from the
        inputs of the legality rule: ``s`` (``w``), bound once, and ``seat``, ``hand``,
        ``position`` and ``led``, bound card by card.  Each value the rule reads is read
        once, trick by trick or card by card, as it may change (see :func:`when_read`).
        None where the rule reads what the loop keeps in local variables (see
        :class:`NotInline`): the game plays by the generic handlers.
        """
        env = self.envs.play_fast
        lines, legal, inputs = env.inline(self.game, self.tables, D.legal_cards(self.game))
        bind = {"s": "w", "seat": "turn_", "position": "pos_", "led": "led_"}
        # where a card's strength reads neither its position nor a named suit, the deck's
        # strengths for the trick (``table_``) give the best card so far as each card is
        # played (strength ``top_`` at position ``top_at_``, the first of equals), and so
        # the trick's winner; and, where the legality rule reads the cards that would beat
        # the trick so far, those (``above_``: the cards stronger than the best), rather
        # than the strengths of the trick's cards asked again for each card
        ranked = self._strength_key is not None
        beat = ranked and any(line.startswith("beating = ") for line in lines)
        if beat:  # and what only the rule's own reading of ``beating`` read goes
            lines = _needed(["beating = hand & above_ if pos_ else 0"
                             if line.startswith("beating = ") else line for line in lines],
                            legal)
        start = [
            "    if trick_:",
            "        table_ = strengths_(led_, trump_, number_, contract_)",
            "        top_, top_at_ = table_[0][trick_[0][0]], 0",
            "        for k_, (c_, _d) in enumerate(trick_):",
            "            if table_[0][c_] > top_:",
            "                top_, top_at_ = table_[0][c_], k_",
            *(["        above_ = stronger_(table_, top_)"] if beat else []),
        ] if ranked else []
        track = [  # after the led suit is set by the lead
            "            table_ = strengths_(led_, trump_, number_, contract_)",
            "            top_, top_at_ = table_[0][i_], 0",
            *(["            above_ = None"] if beat else []),
            "        else:",
            "            st_ = table_[0][i_]",
            "            if st_ > top_:",
            "                top_, top_at_ = st_, pos_",
            *(["                above_ = None"] if beat else []),
        ] if ranked else []
        stronger = [
            "            if above_ is None:",
            "                above_ = table_[1].get(top_)",
            "                if above_ is None:",
            "                    above_ = stronger_(table_, top_)",
        ] if beat else []
        winner = ("seats_[top_at_]" if ranked
                  else "seats_[best_(trick_, led_, trump_, number_, contract_)]")
        # each legal card is one play where no card names a suit; with named suits, where
        # the cards of the mask are known to name none for what the declaration rules read
        pick = [
            "        if mask_:",
            "            r_ = int(draw() * mask_.bit_count())",
            "            for _ in range(r_):",
            "                mask_ &= mask_ - 1",
            "            bit_ = mask_ & -mask_",
            "            i_ = bit_.bit_length() - 1",
            "            code_ = NO_SUIT_",
            "            play_ = plain_cards_[i_]",
        ]
        # the values the rules read that stay put while the play lasts are read once, and
        # those that change only from trick to trick once a trick (see when_read)
        key_lines: list[str] = []
        if self._decl_choices:
            reader, key = env.reader_lines(self._decl_reads)
            assigned = {line.split(" = ", 1)[0] for line in lines}
            key_lines = [line for line in reader if line.split(" = ", 1)[0] not in assigned]
        try:
            read_at = when_read(lines + key_lines, self.tables.ns, live=_QUICK_LIVE,
                                per_trick=_QUICK_PER_TRICK, stale=_QUICK_STALE)
        except NotInline:
            return None
        once = [line for line in lines + key_lines if read_at[line] == ONCE]
        per_trick = [line for line in lines + key_lines if read_at[line] == TRICK]
        lines = [line for line in lines if read_at[line] == CARD]
        key_lines = [line for line in key_lines if read_at[line] == CARD]
        if self._decl_choices:
            # the key of what the declaration rules read, read inline (the inputs the
            # legality rule does not read bound first)
            pick[:0] = [
                *(f"        {name} = {bind[name]}" for name in env.inputs
                  if name not in ("hand", "s") and name not in inputs),
                *(f"        {line}" for line in key_lines),
                f"        key_ = {key}",
                "        if mask_ & ~plain_by_key_.get(key_, 0):",
                "            # the decoder may ask the declaration rules, which read ``w``",
                "            w.turn, w.led_suit = turn_, led_",
                "            plays_, union_ = decoder_(w)(mask_, w)",
                "            if union_ != mask_:  # a card names a suit (a plain play's bit is its card's)",
                "                play_ = plays_[int(draw() * len(plays_))]",
                "                i_, code_ = known_[id(play_)][3]",
                "                bit_ = 1 << i_",
                "                mask_ = 0",
                "            elif len(plain_by_key_) < CACHE_SIZE_:",
                "                plain_by_key_[key_] = plain_by_key_.get(key_, 0) | mask_",
            ]
        src = [
            "def quick_playout(w, draw):",
            "    hands_, won_, taken_ = list(w.hands), list(w.won), list(w.taken)",
            "    tricks_, log_, trick_ = list(w.tricks), list(w.log), list(w.trick)",
            "    w.hands, w.trick = hands_, trick_",
            "    led_, leader_, turn_, number_ = w.led_suit, w.leader, w.turn, w.trick_number",
            "    trump_, contract_, out_ = w.trump, w.contract, w.out",
            "    order_ = trick_order_(out_, w.absent)",
            "    # the hand of the seat sitting out stays as it is: the play ends without it",
            "    out_hand_ = hands_[out_] if out_ >= 0 else 0",
            "    seats_ = order_[leader_]",
            "    size_, pos_, tmask_ = len(seats_), len(trick_), 0",
            "    for c_, _d in trick_:",
            "        tmask_ |= 1 << c_",
            *start,
            "    s = w",
            *(f"    {line}" for line in once + per_trick),
            "    while True:",
            "        hand = hands_[turn_]",
            *(f"        {name} = {bind[name]}" for name in inputs if name not in ("hand", "s")),
            *(f"        {line}" for line in lines),
            f"        mask_ = {legal}",
            "        if not mask_:",
            "            raise stuck_(turn_, PLAY_, number_)",
            *pick,
            "        hands_[turn_] = hand ^ bit_",
            "        tmask_ |= bit_",
            "        log_.append((turn_, play_))",
            "        trick_.append((i_, code_))",
            "        if pos_ == 0:",
            "            led_ = entry_suit_(i_, code_, 0, NO_SUIT_, trump_, number_, contract_)",
            *track,
            "        pos_ += 1",
            "        if pos_ < size_:",
            *stronger,
            "            turn_ = seats_[pos_]",
            "            continue",
            f"        winner_ = {winner}",
            "        cards_, names_ = zip(*trick_)",
            *(f"        {line}" for line in next_trick_lines("(), False, -1")),
            "        if not (any(hands_) if out_ < 0 else sum(hands_) - out_hand_):",
            "            break",
            *(f"        {line}" for line in per_trick),
            "    w.hands, w.won, w.taken = tuple(hands_), tuple(won_), tuple(taken_)",
            "    w.tricks, w.log = tuple(tricks_), tuple(log_)",
            "    w.trick, w.faces, w.led_suit, w.turn = (), (), NO_SUIT_, winner_",
            "    w.scores, w.lines = final_scores_(w)",
            "    w.phase = OVER_",
        ]
        ns = dict(self.tables.ns)
        ns.update(trick_order_=self.trick_order, stuck_=self._stuck, PLAY_=Phase.PLAY.value,  # type: ignore[attr-defined]
                  plain_by_key_=self._plain_by_key,
                  decoder_=self._decoder, known_=self._known, CACHE_SIZE_=_CACHE_SIZE,  # type: ignore[attr-defined]
                  NO_SUIT_=NO_SUIT, plain_cards_=self._plain_cards,
                  entry_suit_=self._entry_suit, best_=self._best, trick_record_=trick_record,
                  final_scores_=self._final_scores, OVER_=Phase.OVER,
                  strengths_=self.strengths, stronger_=self.stronger)  # type: ignore[attr-defined]
        text = "\n".join(src) + "\n"
        if not reads_in_time(text, _QUICK_STALE):
            return None
        code = compile(text, f"<{self.game.key}:quick_playout>", "exec")
        exec(code, ns)  # noqa: S102  # generated from the game's legality rule
        return ns["quick_playout"]  # type: ignore[no-any-return]


ONCE, TRICK, CARD = "once", "trick", "card"
# the quick play of the cards keeps the hands and the trick of the working copy live (lists
# it changes in place), sets the trick's number and leader as each trick ends, and keeps
# the rest of what a card changes in local variables until the play is over
_QUICK_LIVE = frozenset({"hands", "trick"})
_QUICK_PER_TRICK = frozenset({"trick_number", "leader"})
_QUICK_STALE = frozenset({"turn", "led_suit", "won", "taken", "tricks", "log", "scores",
                          "lines", "phase"})


class NotInline(Exception):
    """A rule reads what a generated play of the cards cannot give it as it runs: a field
    it keeps in a local variable (stale in the working copy until the play is over), or
    something of the state that is not a field.  The game plays by the generic handlers."""


def next_trick_lines(face_down: str) -> list[str]:
    """The statements (unindented) of a generated play of the cards that close a trick
    whose winner (``winner_``), cards and named suits (``cards_``, ``names_``) are known:
    the trick won, its record (``face_down``: the record's face-down flags, whether the
    trick was turned up and who saw it, as source), and the next trick begun."""
    return [
        "won_[winner_] |= 1 << number_",
        "taken_[winner_] |= tmask_",
        "tricks_.append(trick_record_(number_, leader_, cards_, names_, winner_, seats_,"
        f" {face_down}))",
        "trick_.clear()",
        "number_, leader_, turn_, pos_, tmask_ = number_ + 1, winner_, winner_, 0, 0",
        "led_ = NO_SUIT_",
        "w.trick_number, w.leader = number_, leader_",
        "seats_ = order_[leader_]",
        "size_ = len(seats_)",
    ]


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
