"""Many deals at once: the deal program's steps run over columns, one entry a deal.

The batch back end reads the steps of the deal program (:mod:`spec.dsl._steps`) and
nothing else of how a deal runs: each deal (a *lane*) is at a step; the lanes at a step
whose actor makes a call or plays a card take one action together, the step's effects
applied to all of them at once (a branch, ``When``, to the lanes whose test holds), and a
step that ends begins the next that takes place, its entry applied to those lanes.  The
rules the steps read (who calls first, the legal calls and cards, when the auction is over,
a card's strength, the scores) are compiled to numpy by :mod:`spec.engine._npcompile` from
the same expressions the engine compiles to Python.  Hands and the other places of cards
are bit masks (``int64``, a row a deal and a column a seat); the trick under way, the
calls, the tricks played and the actions logged are columns an entry.

Deals start either dealt by the batch (a pack shuffled for each deal by a counter-based
generator, dealt by the engine's schedule) or as engine states (at the start of the play,
say); each leaves as the engine's state at its end (:meth:`BatchEngine.states`), so its
record is written by the same functions as any deal's, from the batch's columns and scores.

The deal's status judged after a trick or an announcement runs as the engine's
``_after_status`` judges it: a hand laid open after its trick is added to the lane's
record; cards laid aside go back to their owners' hands; a deal a rule voids is handed
back (below).  Announcements are actions after the calls (a seat asking his partner to
call for him the last of them) or after the plays, as the engine offers them.

What the batch does not run is named: a game whose play it cannot run (a rule that asks
what a seat can be sure of, a deck of more than 63 cards) is refused with
:class:`NotBatchable`; a deal that reaches a step it does not run, or is thrown in, voided
and dealt again, is *handed back*: the engine applies its actions so far and plays it on
(:attr:`Batch.handed_back`).

Choices come from a *policy*: a function of the step's name, each lane's legal actions, its
number and its number of decisions so far, returning an action a lane.  Legal actions are
an ``int64`` mask a lane where the step has at most 63 (bit 0: a pass; bit ``k + 1``: bid
``k``; a card's bit is its number; an announcement's bits follow the calls' or the
plays'), else a boolean matrix a lane by action.
:func:`random_policy` draws from a counter-based generator keyed by a seed, the deal's
number and the decision, so a deal's actions are the same whatever batch it is played in.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl import _steps as S
from spec.dsl._nodes import NO_SUIT, Certain, Ctx, DealtHand, Dropped, Idle, Invited, IsDeclarer
from spec.dsl._nodes import Ref, Taken, TricksWon, WonTrick, walk
from spec.dsl._pycompile import UnsupportedNodeError
from spec.engine._env import Entry
from spec.engine._npcompile import NpEnv, NpTables
from spec.engine._state import ASK_PARTNER, PASS, Phase, State, freeze, thaw, trick_record

__all__ = ["Batch", "BatchEngine", "MOST_DEALS", "NotBatchable", "Policy", "Watch", "play_batch",
           "play_batches", "random_policy"]

Policy = Callable[[str, np.ndarray, np.ndarray, np.ndarray], np.ndarray]
OVER, HANDED_BACK = -1, -2  # a lane's step once its deal is over, or handed back


class NotBatchable(Exception):
    """The game's play uses a construct the batch back end does not run."""


# -- a counter-based generator: the same draw for a deal whatever batch holds it -----------
_M1, _M2, _GOLD = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB),
                   np.uint64(0x9E3779B97F4A7C15))


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, elementwise."""
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * _M1
        x = (x ^ (x >> np.uint64(27))) * _M2
        return x ^ (x >> np.uint64(31))


def uniform(seed: int, deal: Any, draw: Any) -> np.ndarray:
    """A uniform number in [0, 1) for each (deal, draw), a function of ``seed`` only."""
    with np.errstate(over="ignore"):
        key = _mix(np.asarray(seed % 2 ** 64, dtype=np.uint64) + _GOLD)
        x = _mix(key ^ (np.asarray(deal).astype(np.uint64) * _GOLD))
        x = _mix(x + np.asarray(draw).astype(np.uint64) * _M2)
    return (x >> np.uint64(11)).astype(np.float64) * (1.0 / 2 ** 53)


def nth_bit(masks: np.ndarray, index: np.ndarray) -> np.ndarray:
    """In each mask, the position of its ``index``-th set bit (counted from bit 0;
    ``index`` below the mask's number of bits): the lower bits cleared, then the lowest
    left."""
    masks = np.asarray(masks, dtype=np.int64)
    rest = np.asarray(index, dtype=np.int64)
    for k in range(int(rest.max(initial=0))):
        masks = np.where(rest > k, masks & (masks - 1), masks)
    return np.bitwise_count((masks & -masks) - 1).astype(np.int64)


def shuffled_packs(numbers: np.ndarray, seed: int, deck: int) -> np.ndarray:
    """Each deal's pack, a row a deal: the cards in order, shuffled by Fisher and Yates's
    method from the last place down, each place's swap drawn by the generator keyed by
    ``seed``, the deal's number and the place (from 2**40, apart from the policy's
    draws)."""
    pack = np.tile(np.arange(deck, dtype=np.int64), (len(numbers), 1))
    rows = np.arange(len(numbers))
    for i in range(deck - 1, 0, -1):
        j = (uniform(seed, numbers, np.full(len(numbers), 2 ** 40 + i)) * (i + 1)).astype(np.int64)
        here, there = pack[:, i].copy(), pack[rows, j]
        pack[:, i] = there
        pack[rows, j] = here
    return pack


def random_policy(seed: int) -> Policy:
    """Each lane's action drawn uniformly among its legal ones."""
    def policy(step: str, legal: np.ndarray, deals: np.ndarray, draws: np.ndarray
               ) -> np.ndarray:
        u = uniform(seed, deals, draws)
        if legal.ndim == 1:
            count = np.bitwise_count(legal).astype(np.int64)
            return nth_bit(legal, (u * count).astype(np.int64))
        count = legal.sum(axis=1)
        index = (u * count).astype(np.int64)
        return np.argmax(np.cumsum(legal, axis=1) > index[:, None], axis=1).astype(np.int64)
    policy._random_seed = seed  # type: ignore[attr-defined]  # the compiled lanes draw so
    return policy


# -- the columns -----------------------------------------------------------------------
# the fields of a State the columns hold as numbers, and those they hold a seat a column:
# the state the steps declare (spec.dsl._steps.STATE), and what a deal holds beside it that
# the rules read (the dealer, the pot) or that the state keeps of the deal (the later cards)
_NUMBERS = (S.FieldKind.PLACE, S.FieldKind.COUNTER, S.FieldKind.SEATS, S.FieldKind.FLAG)
_SCALARS = (*(f.name for f in S.STATE if f.kind in _NUMBERS and not f.per_seat), "dealer", "pot")
_PER_SEAT = (*(f.name for f in S.STATE if f.kind in _NUMBERS and f.per_seat), "dealt_later")
# the records of pairs a step adds to: the count a lane, and the column of each part
_PAIRS = {"calls": ("ncalls", "call_seat", "call_bid"),
          "chosen": ("nchosen", "chosen_seat", "chosen_name"),
          "laid_open": ("nopen", "open_seat", "open_after")}


class Columns:
    """The state of every lane of a batch, a field a column (see the module)."""

    def __init__(self, size: int, players: int, tricks: int, actions: int) -> None:
        self.size, self.n = size, players
        self.rows = np.arange(size)
        z = np.zeros(size, dtype=np.int64)
        self.at = z.copy()  # the step each lane is at (OVER, HANDED_BACK)
        self.decisions = z.copy()
        self.tlen = z.copy()
        # an entry more than any lane fills: where the lanes not acting write (see put)
        # the columns a lane adds entries to hold an entry a row and a lane a column, so
        # that lanes adding their k-th entry together write one row
        self.trick_c = np.zeros((players + 1, size), dtype=np.int64)
        self.trick_n = np.full((players + 1, size), NO_SUIT, dtype=np.int64)
        self.trick_f = np.zeros((players + 1, size), dtype=np.int64)  # played face down
        self.nfaces = z.copy()
        self.ntricks = z.copy()
        tricks += 1
        self.tr = {name: np.zeros((tricks, size), dtype=np.int64)
                   for name in ("number", "leader", "winner", "size", "revealed", "seen",
                                "nseats", "nfaces")}
        self.tr_cards = np.zeros((tricks, size, players), dtype=np.int64)
        self.tr_faces = np.zeros((tricks, size, players), dtype=np.int64)
        self.tr_named = np.zeros((tricks, size, players), dtype=np.int64)
        self.tr_seats = np.zeros((tricks, size, players), dtype=np.int64)
        self.nlog = z.copy()
        self.log_seat = np.zeros((actions, size), dtype=np.int64)
        self.log_action = np.zeros((actions, size), dtype=np.int64)
        self.ncalls = z.copy()
        self.call_seat = np.zeros((actions, size), dtype=np.int64)
        self.call_bid = np.zeros((actions, size), dtype=np.int64)
        self.nchosen = z.copy()
        self.chosen_seat = np.zeros((2 * players + 1, size), dtype=np.int64)
        self.chosen_name = np.zeros((2 * players + 1, size), dtype=np.int64)
        self.nopen = z.copy()  # the hands laid open, in full (not only the batch's)
        self.open_seat = np.zeros((players + 1, size), dtype=np.int64)
        self.open_after = np.zeros((players + 1, size), dtype=np.int64)
        self.nfired = z.copy()
        self.fired_at = np.zeros((8, size), dtype=np.int64)
        self.fired_rule = np.zeros((8, size), dtype=np.int64)
        self.beating: Callable[..., Any] = lambda *a: 0
        self.watch: Watch | None = None
        self.starts: Sequence[State] | None = None
        self.numbers = self.rows

    def put(self, table: np.ndarray, at: np.ndarray, values: Any, act: np.ndarray) -> None:
        """Each acting lane's ``values`` into its entry ``at`` of ``table`` (an entry a row
        and a lane a column, and a row more: where the other lanes write, unread)."""
        width = table.shape[0]
        index = np.where(act, at, width - 1) * self.size + self.rows
        flat = table.reshape(width * self.size, *table.shape[2:])
        flat[index] = values

    def room(self, count: np.ndarray, *names: str) -> None:
        """Room for one more entry in the columns ``names``, whose entries ``count``
        counts a lane (beside the last, which no lane fills: see :meth:`put`): their
        width doubled when a lane has filled them."""
        width = getattr(self, names[0]).shape[0]
        if int(count.max()) >= width - 1:
            for name in names:
                a = getattr(self, name)
                setattr(self, name, np.concatenate([a, np.zeros_like(a)], axis=0))

    def nbytes(self) -> int:
        """The bytes the columns hold."""
        arrays = [v for v in vars(self).values() if isinstance(v, np.ndarray)]
        arrays += list(self.tr.values())
        return sum(a.nbytes for a in arrays)


class _Wide:
    """The columns seen with an axis more after a lane's own (an action's, say), so that a
    rule judges every action of every lane in one call."""

    def __init__(self, c: Columns) -> None:
        self._c = c

    def __getattr__(self, name: str) -> Any:
        a = getattr(self._c, name)
        if isinstance(a, np.ndarray) and a.ndim >= 1 and a.shape[0] == self._c.size:
            return a[:, None] if a.ndim == 1 else a[:, None, :]
        return a


def _stuck(c: Columns, lanes: np.ndarray, what: str) -> None:
    """Refuse the first of ``lanes`` (the lanes that have no action), saying ``what``."""
    if lanes.any():
        k = int(np.flatnonzero(lanes)[0])
        raise ValueError(f"deal {int(c.numbers[k])}: {what}")


def _log(c: Columns, seat: Any, action: Any, lanes: np.ndarray) -> None:
    """The action ``action`` of ``seat`` logged in each of ``lanes``."""
    c.room(c.nlog, "log_seat", "log_action")
    c.put(c.log_seat, c.nlog, seat, lanes)
    c.put(c.log_action, c.nlog, action, lanes)
    c.nlog = c.nlog + lanes


def _fire(c: Columns, rule: int, lanes: np.ndarray, back: int = 0) -> None:
    """The rule numbered ``rule`` noted as taking effect in each of ``lanes``, at the
    action ``back`` before the next to be logged."""
    c.room(c.nfired, "fired_at", "fired_rule")
    c.put(c.fired_at, c.nfired, getattr(c, "log0", 0) + c.nlog - back, lanes)
    c.put(c.fired_rule, c.nfired, rule, lanes)
    c.nfired = c.nfired + lanes


def _entry(table: np.ndarray, index: Any) -> np.ndarray:
    """Each lane's entry ``index`` of ``table`` (an entry a row, a lane a column)."""
    index = np.broadcast_to(np.asarray(index, dtype=np.int64), table.shape[1:2])
    return table[index % table.shape[0], np.arange(table.shape[1])]


def _card_at(played: np.ndarray, trick: Any, seat: Any) -> np.ndarray:
    """Each lane's card played to trick ``trick`` by ``seat`` (-1: none)."""
    size = played.shape[1]
    trick = np.broadcast_to(np.asarray(trick, dtype=np.int64), (size,))
    seat = np.broadcast_to(np.asarray(seat, dtype=np.int64), (size,))
    return played[trick % played.shape[0], np.arange(size), seat % played.shape[2]]


class _History:
    """The columns of finished deals, with their tricks by number (the card each seat
    played, the leader, the winner) and the seat of each call by its number from 1, as a
    constraint on the history of a deal reads them."""

    def __init__(self, batch: BatchEngine, c: Columns) -> None:
        self._c = c
        game, size, n = batch.game, c.size, batch.n
        self.played = np.full((game.tricks + 1, size, n), -1, dtype=np.int64)
        self.leaders = np.full((game.tricks + 1, size), -1, dtype=np.int64)
        self.winners = np.full((game.tricks + 1, size), -1, dtype=np.int64)
        rows = np.arange(size)
        for t in range(int(c.ntricks.max(initial=0))):
            live = t < c.ntricks
            number = np.where(live, c.tr["number"][t], 0)
            self.leaders[number, rows] = np.where(live, c.tr["leader"][t], -1)
            self.winners[number, rows] = np.where(live, c.tr["winner"][t], -1)
            for p in range(n):
                here = live & (p < c.tr["size"][t])
                seat = np.where(here, c.tr_seats[t, :, p], 0)
                self.played[np.where(here, number, 0), rows, seat] = np.where(
                    here, c.tr_cards[t, :, p], self.played[0, rows, seat])
        width = c.call_seat.shape[0]
        self.callers = np.full((width + 1, size), -1, dtype=np.int64)
        self.callers[1:] = np.where(np.arange(width)[:, None] < c.ncalls[None, :],
                                    c.call_seat, -1)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._c, name)


@dataclass(frozen=True)
class _Seq:
    """Items a lane (seats in order, the cards of a trick): ``items`` a row a lane, ``n``
    how many of them count."""

    items: np.ndarray
    n: np.ndarray


@dataclass(frozen=True)
class Reading:
    """How a back end of the batch writes the reading of a lane's state in a rule's
    source: a lane's entry of a column, a seat's entry of a column a seat, a tracked
    value, a choice between two values, a bit made from a seat (0 for no seat), a count
    of cards, and the cards that would win the trick so far."""

    col: Callable[[str], str]
    at: Callable[[str, str], str]
    tracked: Callable[[int], str]
    cond: Callable[[str, str, str], str]
    bit: Callable[[str], str]
    count: str
    beating: str


def _columns_read(of: str) -> Reading:
    """The numpy interpreter's reading: ``of`` holds the columns."""
    return Reading(col=lambda f: f"{of}.{f}", at=lambda f, seat: f"_at({of}.{f}, {seat})",
                   tracked=lambda i: f"{of}.tracked[..., {i}]",
                   cond=lambda t, a, b: f"np.where({t}, {a}, {b})",
                   bit=lambda x: f"np.where({x} >= 0, 1 << np.maximum({x}, 0), 0)",
                   count="_count", beating=f"{of}.beating(hand, led_suit, trump, "
                                                 "trick_number, contract)")


def state_entries(b: BatchEngine, scope: str, r: Reading) -> list[Entry]:
    """The entries of a scope's environment (``common``, ``play``, ``call``, ``status``)
    over a lane's state, as the engine's own scopes have them, written with ``r``: one
    table for both of the batch's back ends."""
    col, at = r.col, r.at
    common = [
        Entry(Ctx.DEALER, col("dealer"), "dealer"), Entry(Ctx.TRUMP, col("trump"), "trump"),
        Entry(Ctx.CONTRACT, col("contract"), "contract"),
        Entry(Ctx.DECLARER, col("declarer"), "declarer"),
        Entry(Ctx.TURN_UP, col("turn_up"), "turn_up"),
        *(Entry(("tracked", t), r.tracked(i), f"tracked_{i}") for i, t in enumerate(b.tracked)),
        Entry(DealtHand, at("dealt", "{seat}")),
        Entry(None, col("idle"), "idle"), Entry(Idle, "(({seat}) == idle)"),
        Entry(None, col("dropped"), "dropped"), Entry(Dropped, "((dropped >> ({seat})) & 1 == 1)"),
        Entry(None, col("guest"), "guest"), Entry(Invited, "(({seat}) == guest)"),
        Entry(Ctx.DECLARER_PARTNER, col("partner"), "partner"),
        Entry(None, col("declarers"), "declarers"),
        Entry(IsDeclarer, "((declarers >> ({seat})) & 1 == 1)"),
        Entry(WonTrick, f"(({at('won', '{seat}')} >> ({{number}})) & 1 == 1)"),
        Entry(TricksWon, f"{r.count}({at('won', '{seat}')})"),
        Entry(Taken, at("taken", "{seat}"))]
    if scope == "common":
        return common
    if scope == "status":
        return [*common, Entry(Ctx.TRICK_NUMBER, col("trick_number"), "trick_number")]
    if scope == "play":
        return [
            Entry(Ctx.SEAT, col("turn"), "seat"), Entry(Ctx.HAND, at("hands", "seat"), "hand"),
            Entry(Ctx.IS_LEADING, f"{col('tlen')} == 0", "is_leading"),
            Entry(Ctx.LED_SUIT, r.cond(f"{col('tlen')} > 0", col("led_suit"), str(NO_SUIT)),
                  "led_suit"),
            Entry(Ctx.POSITION, col("tlen"), "position"),
            Entry(Ctx.TRICK_NUMBER, col("trick_number"), "trick_number"),
            Entry(Ctx.ASIDE, at("aside", "seat"), "aside"), Entry(Ctx.LEADER, col("leader"), "leader"),
            *common, Entry(Ctx.BEATING, r.beating, "beating")]
    assert scope == "call", scope
    maker = col("high_namer") if b.game.program.namer_declares else col("high_bidder")
    return [
        Entry(Ctx.SEAT, r.cond(f"{col('proxy')} < 0", col("turn"), col("proxy")), "seat"),
        Entry(Ctx.DEALER, col("dealer"), "dealer"), Entry(Ctx.HAND, at("hands", "seat"), "hand"),
        Entry(Ctx.HAS_STANDING, f"{col('standing')} >= 0", "has_standing"),
        Entry(Ctx.STANDING, col("standing"), "standing"),
        Entry(Ctx.HIGH_BIDDER, col("high_bidder"), "high_bidder"),
        Entry(Ctx.STANDING_MAKER, maker, "standing_maker"),
        Entry(Ctx.STANDING_ACCEPTED, f"{col('accepter')} >= 0", "standing_accepted"),
        Entry(Ctx.SEAT_HOLDS, f"((seat == {col('high_bidder')}) | (seat == {col('accepter')})"
                              f" | (({col('joined')} >> seat) & 1 == 1))", "seat_holds"),
        # the seats that passed, with those holding the standing bid and the idle one
        Entry(Ctx.OTHERS_PASSED,
              f"({col('passed')} | {col('joined')} | {r.bit(col('high_bidder'))} | "
              f"{r.bit(col('accepter'))} | {r.bit(col('idle'))}) == {(1 << b.n) - 1}",
              "others_passed"),
        Entry(Ctx.CALLS_MADE, col("stage_calls"), "calls_made"),
        Entry(Ctx.PASSES_IN_ROW, col("passes_in_row"), "passes_in_row"),
        Entry(Ctx.STAGE, col("stage"), "stage"),
        Entry(Ctx.SEAT_CALLS, at("seat_calls", "seat"), "seat_calls"),
        Entry(Ctx.SEAT_PASSED, f"(({col('passed')} >> seat) & 1 == 1)", "seat_passed"),
        Entry(Ctx.BID_THIS_STAGE, f"{col('stage_bid')} != 0", "bid_this_stage"),
        Entry(Ctx.PROXY, f"{col('proxy')} >= 0", "proxy"),
        Entry(Ctx.TURN_UP, col("turn_up"), "turn_up"),
        *(Entry(("tracked", t), r.tracked(i), f"tracked_{i}") for i, t in enumerate(b.tracked))]


# the effects and values the interpreter runs (anything else: NotBatchable)
_EFFECTS = (S.Set, S.Let, S.When, S.Record, S.Over, S.Fire, S.Judge, S.Advance, S.Track,
            S.Updates)
_VALUES = (S.Get, S.Lit, S.Local, S.Op, S.Cond, S.Bit, S.After, S.SeatFrom, S.SeatsFrom,
           S.Item, S.Strongest, S.Column, S.Mask, S.Len, S.Padded, S.Added, S.Finished,
           S.Held, S.Only, S.Less, S.Joined, S.Stated, S.CardNo, S.Named, S.Played, S.Truth,
           S.Acted, S.Bid, S.Appended, S.PlusAt, S.Entry, S.At, S.Count, S.AtLeast, S.SeatsOf, S.Best,
           S.SuitOf, S.Share)
_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
    ">": np.greater, ">=": np.greater_equal, "+": np.add, "-": np.subtract,
    "&": np.bitwise_and, "|": np.bitwise_or, "^": np.bitwise_xor, "and": np.logical_and,
    "or": np.logical_or}


class BatchEngine:
    """The steps of one game's deals run over many deals at once (see the module)."""

    def __init__(self, engine: Any) -> None:
        self.engine = eng = engine
        self.game = game = engine.game
        self.n = game.players
        self.deck = len(game.deck)
        self.steps = steps = game.steps
        self.play_at = next(i for i, s in enumerate(steps) if s.phase == Phase.PLAY.value)
        if self.deck > 63:
            raise NotBatchable(f"a deck of {self.deck} cards (a hand is a mask of 63 bits)")
        self.tables = NpTables(game)
        self.tracked = eng.tracked_names
        self.next_seat = np.array(eng._next_seat, dtype=np.int64)
        self.rule_ids = tuple(r.id for r in game.rules)
        self.ladder = len(game.ladder)
        calls = (PASS, *eng._calls)
        self.call_action = np.array([eng._known[id(c)][1].bit_length() - 1 for c in calls],
                                    dtype=np.int64)
        self.tricks = self.deck // max(1, self.n - 1) + 1
        self.most = eng.most_actions
        self._compiled: dict[int, tuple[Callable[..., Any], tuple[str, ...]]] = {}
        self._envs = {"play": self._play_env(), "entry": NpEnv(eng.envs.entry.inputs,
                                                               eng.envs.entry.entries),
                      "call": self._call_env(), "status": self._status_env(),
                      "first_lead": self._status_env(), "trick": self._trick_env()}
        self._envs["play_card"] = self._envs["play"].plus(
            Entry(Ctx.CARD, "card", "card"), Entry(Ctx.DECLARED, "declared", "declared"))
        self._envs["call_made"] = self._envs["call"].plus(
            Entry(Ctx.CALL_IS_BID, "call_is_bid", "call_is_bid"),
            Entry(Ctx.CALL_BID, "call_bid", "call_bid"))
        try:
            self.legal = self._fn("play", D.legal_cards(game), "legal")
            self.strength = self._fn("entry", D.strength(game), "strength")
            self.call_ok = self._fn("call_made", D.call_legal(game), "call_ok")
            # a card that names a suit: whether it must, and whether the suit named may be
            self.codes = tuple(eng._decl_choices)
            self.needs = self._fn("play_card", D.needs_declaration(game), "needs")
            self.named_ok = self._fn("play_card", D.declaration_ok(game), "named_ok")
            out = self._outcome_env()
            self.score = out.compile_np(game, self.tables, D.score(game, Ref(Ctx.SEAT)), "score",
                                        shared=True)
            self.line_scores = tuple(
                out.compile_np(game, self.tables, D.score(game, Ref(Ctx.SEAT), line), "line",
                               shared=True)
                for line in eng.lines) if len(eng.lines) > 1 else ()
            self._status_and_announcements()
        except UnsupportedNodeError as e:
            if isinstance(e.node, Certain):
                where = getattr(e.node, "src_loc", None)
                raise NotBatchable("a rule asks what a seat can be sure of"
                                   + (f" ({where})" if where else "")) from None
            raise NotBatchable(str(e)) from None
        play = steps[self.play_at]
        why = self._unsupported(play, play.effects)
        if why is not None:
            raise NotBatchable(why)
        # each step's kind as the batch runs it: a call, a card played, an entry alone;
        # None where the batch does not run it (its lanes are handed back)
        self.names = tuple(dict.fromkeys(o.name for st in steps for o in st.options))
        self.option_actions = {
            i: tuple(eng._known[id(eng._option_declares[(i, o.name)])][1].bit_length() - 1
                     for o in st.options) for i, st in enumerate(steps) if st.options}
        self.kinds: list[str | None] = [self._kind(i, s) for i, s in enumerate(steps)]
        self.deals_whole = all(self.kinds[i] is not None for i in range(self.play_at + 1))

    def _status_and_announcements(self) -> None:
        """The rules a step's judgement of the deal's status reads, and the announcements
        of the auction, compiled for the batch."""
        game, eng = self.game, self.engine
        # the deal's status, as the engine's _after_status judges it: the rules that
        # void a deal (whether each reads the contract), the hands laid open (the rule,
        # after which trick, when, whose); each expression with its numpy function
        self.void_rules = tuple((b.when, D.reads_contract(b.when))  # type: ignore[attr-defined]
                                for _r, b in game.constructs(K.VoidWhen))
        self.voids = tuple((self._fn("status", when, "void"), reads)
                           for when, reads in self.void_rules)
        self.lay_open_rules = tuple((self.rule_ids.index(r.id), b.after_trick, when, seat)  # type: ignore[attr-defined]
                                    for r, b in game.constructs(K.LayOpen)
                                    for when, seat in D.lay_open_cases(game, b))  # type: ignore[arg-type]
        self.lay_open = tuple((rule, after, self._fn("status", when, "lay_open"),
                               self._fn("status", seat, "opener"))
                              for rule, after, when, seat in self.lay_open_rules)
        # the announcements of the auction, as the engine's _auction_actions offers
        # them after the calls: when each may be made, when it must be, what it sets
        # (a tracked value's index and its value), its rule and its action
        # (where they do not compile, the auction is left to the engine: see _kind)
        self.announcement_rules, self.announcement_names = self._announced(eng._call_announce)
        # a seat asking his partner to call in his place (the engine's ProxyCall), offered
        # after the announcements while nobody calls for another, as _auction_actions
        # offers it: when, its rule, its action; each seat's partner
        proxy = game.constructs(K.ProxyCall)
        self.proxy_rule = None if not proxy else (
            proxy[0][1].when, self.rule_ids.index(proxy[0][0].id),  # type: ignore[attr-defined]
            eng._known[id(eng._declares[ASK_PARTNER.name])][1].bit_length() - 1)
        self.partner_of = np.array([-1 if p is None else p for p in eng._partner_of],
                                   dtype=np.int64)
        try:
            self.announcements = self._announcements("call", self.announcement_rules)
            self.proxy = (None if self.proxy_rule is None
                          else self._fn("call", self.proxy_rule[0], "proxy"))
        except UnsupportedNodeError:
            self.announcements = self.announcement_rules = self.announcement_names = ()
            self.proxy_rule = self.proxy = None
            self.announcing = False
        else:
            self.announcing = True
            if self.proxy_rule is not None:
                self.announcement_names += (ASK_PARTNER.name,)
        # the announcements of the play, offered beside the cards as _play_actions offers
        # them; cards set aside going back to their owners, as _after_status judges it
        self.play_announcement_rules, self.play_announcement_names = self._announced(
            eng._play_announce)
        self.play_announcements = self._announcements("play", self.play_announcement_rules)
        self.aside_returns_when = eng._aside_returns_when
        self.aside_returns = (None if self.aside_returns_when is None
                              else self._fn("status", self.aside_returns_when, "returns"))

    def _announced(self, announce: Sequence[Any]) -> tuple[tuple[Any, ...], tuple[str, ...]]:
        """The engine's announcements of one scope as the batch reads them: (when, when
        it must be made, what it sets (a tracked value's index and its value), its rule,
        its action) each, and their names."""
        eng = self.engine
        return (tuple((body.when, body.required,
                       tuple((self.tracked.index(name), value) for name, value in body.sets),
                       self.rule_ids.index(rule.id), eng._known[id(decl)][1].bit_length() - 1)
                      for rule, body, decl, *_rest in announce),
                tuple(body.name for _r, body, *_rest in announce))

    def _announcements(self, scope: str, rules: Sequence[Any]) -> tuple[Any, ...]:
        """Announcements (when, required, sets, rule, action) compiled in ``scope``."""
        return tuple(
            (self._fn(scope, when, "announce"),
             None if required is None else self._fn(scope, required, "required"),
             tuple((index, self._fn(scope, value, "value")) for index, value in sets),
             rule, action)
            for when, required, sets, rule, action in rules)

    def share(self, pending: np.ndarray, stage: int) -> np.ndarray:
        """Per seat, the cards of dealing stage ``stage`` still to come to it, as the
        engine's ``Share`` reads them: the lowest of its pending cards, as many as the
        stage's packets give; every pending card in the last stage."""
        if stage == self.engine.stages:
            return pending
        rest, now = pending.copy(), np.zeros_like(pending)
        for _ in range(sum(self.game.program.packets[stage - 1])):
            low = rest & -rest
            now |= low
            rest ^= low
        return now

    def kernel(self) -> Callable[[Columns, int], None] | None:
        """The compiled lanes of the game (built on first use), or None."""
        if not hasattr(self, "_kernel"):
            from spec.engine._batchjit import compiled_lanes
            self._kernel = compiled_lanes(self)
        return self._kernel

    def _kind(self, i: int, step: S.Step) -> str | None:
        if i == self.play_at:
            return "play" if self._unsupported(step, step.enter) is None else None
        if step.action == "call":
            if not self.announcing:
                return None
            kind = "call"
        elif step.card is not None:
            kind = "card"
        elif step.options:
            kind = "choice"
            if len(step.options) > 63:
                return None
        elif step.actor is None:
            kind = "enter"
        else:
            return None
        effects = [*step.enter, *step.effects]
        for o in step.options:
            effects += [*o.effects, S.Let("_", o.when)]
            if o.offered is not None:
                effects.append(S.Let("_", o.offered))
        if self._unsupported(step, effects) is not None:
            return None
        for v in (step.when, step.ends):
            if v is not None and self._unsupported(step, (S.Let("_", v),)) is not None:
                return None
        return kind

    def _unsupported(self, step: S.Step, effects: Sequence[Any]) -> str | None:
        """Why the batch does not run ``effects`` of ``step`` (None: it runs them)."""
        for e in effects:
            if not isinstance(e, _EFFECTS):
                return f"the {step.name} step's effect {e}"
            if isinstance(e, S.When):
                why = self._unsupported(step, (*e.then, *e.orelse))
                if why is not None:
                    return why
            for v in _values_in(e):
                if not isinstance(v, _VALUES) or (isinstance(v, S.Op) and v.op not in _OPS):
                    return f"the {step.name} step's value {v}"
                if isinstance(v, S.Stated):
                    if any(isinstance(x, Certain) for x in walk(v.expr)):
                        return "a rule asks what a seat can be sure of"
                    try:
                        self.stated(v)
                    except NotBatchable as exc:
                        return str(exc)
        return None

    # -- environments --------------------------------------------------------------------
    def _fn(self, scope: str, expr: Any, name: str) -> Callable[..., Any]:
        return self._envs[scope].compile_np(self.game, self.tables, expr, name)

    def _common(self, of: str) -> list[Entry]:
        return state_entries(self, "common", _columns_read(of))

    def _play_env(self) -> NpEnv:
        return NpEnv(("s",), state_entries(self, "play", _columns_read("s")))

    def _call_env(self) -> NpEnv:
        return NpEnv(("s",), state_entries(self, "call", _columns_read("s")))

    def _status_env(self) -> NpEnv:
        return NpEnv(("s",), state_entries(self, "status", _columns_read("s")))

    def _trick_env(self) -> NpEnv:
        """A complete trick, as the engine's trick scope has it: the deal's status, the
        trick's number, leader and size, and at each position its card, the suit named
        and whether it was face down (a row a lane)."""
        n = self.n
        return NpEnv(("s", "number", "leader", "size", "cards", "named", "faces"), [
            *state_entries(self, "common", _columns_read("s")),
            Entry(Ctx.TRICK_NUMBER, "number", "trick_number"), Entry(Ctx.LEADER, "leader"),
            Entry(Ctx.TRICK_SIZE, "size", "trick_size"), Entry(None, "cards"),
            Entry(None, "named"), Entry(None, "faces"),
            *(Entry((Ctx.PLAYED_CARD, i), f"cards[..., {i}]") for i in range(n)),
            *(Entry((Ctx.PLAYED_DECLARED, i), f"named[..., {i}]") for i in range(n)),
            *(Entry((Ctx.PLAYED_FACE_DOWN, i), f"faces[..., {i}]") for i in range(n))])

    def _outcome_env(self) -> NpEnv:
        return NpEnv(("seat", "o"), [Entry(Ctx.SEAT, "seat", "seat"), *self._common("o"),
                                     Entry(Ctx.POT, "o.pot", "pot")])

    def stated(self, v: S.Stated) -> tuple[Callable[..., Any], tuple[str, ...]]:
        """A rule's expression a step reads, compiled for the batch, with its parameters."""
        found = self._compiled.get(id(v))
        if found is None:
            env = self._envs.get(v.scope)
            if env is None:
                raise NotBatchable(f"a rule read in scope {v.scope}")
            try:
                fn = env.compile_np(self.game, self.tables, v.expr, v.name)
            except UnsupportedNodeError as e:
                raise NotBatchable(str(e)) from None
            found = self._compiled[id(v)] = (fn, env.params)
        return found

    # -- a condition on finished deals ---------------------------------------------------
    def condition(self, where: Any, seat: int | None = None) -> Callable[..., np.ndarray]:
        """A constraint on a finished deal (as :func:`spec.constraints.history_test`
        judges one: the tricks' cards, leaders and winners, who made each call, the
        contract, scores ...) as a function of a batch's columns: whether each lane's deal
        meets it (the seat it reads, ``seat``: as the engine judges an outcome).

        Raises:
            NotBatchable: the constraint reads what the batch does not keep.
        """
        from spec.dsl._nodes import CallerOf, LeaderOf, LedTo, PlayedTo, WinnerOf
        env = NpEnv(("o",), [
            *self._common("o"), Entry(Ctx.POT, "o.pot", "pot"),
            *([] if seat is None else [Entry(Ctx.SEAT, str(seat), "seat")]),
            Entry(PlayedTo, "_card_at(o.played, {trick}, {seat})"),
            Entry(LedTo, "_card_at(o.played, {trick}, _entry(o.leaders, {trick}))"),
            Entry(LeaderOf, "_entry(o.leaders, {trick})"),
            Entry(WinnerOf, "_entry(o.winners, {trick})"),
            Entry(CallerOf, "_entry(o.callers, {call})"),
            Entry(IsDeclarer, "((({seat}) >= 0) & (((o.declarers >> np.maximum({seat}, 0)) & 1)"
                              " == 1))")])
        self.tables.ns.update(_card_at=_card_at, _entry=_entry)
        try:
            fn = env.compile_np(self.game, self.tables, where, "condition")
        except UnsupportedNodeError as e:
            raise NotBatchable(str(e)) from None

        def judge(c: Columns, history: _History | None = None) -> np.ndarray:
            history = history if history is not None else _History(self, c)
            return np.broadcast_to(np.asarray(fn(history), dtype=bool), (c.size,))
        return judge

    # -- into the batch ------------------------------------------------------------------
    def _columns(self, size: int) -> Columns:
        return Columns(size, self.n, self.tricks, self.deck + 8 * self.n + 1)

    def _fill(self, c: Columns, states: Sequence[Any]) -> None:
        size = len(states)
        for k, s in enumerate(states):  # hands laid open already (in full: see Columns)
            for j, (seat, after) in enumerate(s.laid_open):
                c.room(c.nopen, "open_seat", "open_after")
                c.open_seat[j, k], c.open_after[j, k] = seat, after
                c.nopen[k] = j + 1
        if all(s is states[0] for s in states):  # one state for every lane
            s = states[0]
            for name in _SCALARS:
                setattr(c, name, np.full(size, int(getattr(s, name)), dtype=np.int64))
            for name in _PER_SEAT:
                row = np.array(getattr(s, name) or (0,) * self.n, dtype=np.int64)
                setattr(c, name, np.tile(row, (size, 1)))
            c.tracked = np.tile(np.array([int(x) for x in s.tracked], dtype=np.int64),
                                (size, 1)).reshape(size, len(self.tracked))
            c.beating = lambda *a: self._beating(c, *a)
            return
        for name in _SCALARS:
            setattr(c, name, np.fromiter((int(getattr(s, name)) for s in states), np.int64, size))
        for name in _PER_SEAT:
            setattr(c, name, np.array([getattr(s, name) or (0,) * self.n for s in states],
                                      dtype=np.int64).reshape(size, self.n))
        c.tracked = np.array([[int(x) for x in s.tracked] for s in states],
                             dtype=np.int64).reshape(size, len(self.tracked))
        c.beating = lambda *a: self._beating(c, *a)

    def columns(self, states: Sequence[State]) -> Columns:
        """The columns of deals at a step the batch runs, between two tricks (their
        records so far stay in the states, and the batch's are added to them)."""
        eng = self.engine
        eng._course()
        c = self._columns(len(states))
        for k, s in enumerate(states):
            at = eng._step_at.get((s.phase.value, s.stage), eng._step_at.get((s.phase.value, None)))
            if s.phase is Phase.OVER or at is None or self.kinds[at] is None or s.trick:
                raise ValueError("a deal enters the batch at a step the batch runs, "
                                 "between two tricks")
            c.at[k] = at
        self._fill(c, states)
        c.starts = states
        c.log0 = np.fromiter((len(s.log) for s in states), np.int64, len(states))
        return c

    def deal(self, numbers: Sequence[int], seed: int = 0, dealer: int | None = None,
             compiled: bool = True) -> Columns:
        """Fresh deals, one a number of ``numbers``: each pack shuffled by the batch's
        generator (keyed by ``seed`` and the number; in compiled code where numba is
        installed, with ``compiled``), dealt by the engine's schedule; then the first
        steps begin."""
        if not self.deals_whole:
            raise NotBatchable("the steps before the play are not all run by the batch")
        eng = self.engine
        dealer = self.n - 1 if dealer is None else dealer
        numbers = np.asarray(numbers, dtype=np.int64)
        size = len(numbers)
        template = thaw(eng._before_deal)
        template.dealer = dealer
        template.idle = idle = eng.idle_seat(dealer)
        template.absent = 1 << idle if idle >= 0 else 0
        c = self._columns(size)
        self._fill(c, [template] * size)
        c.numbers = numbers
        from spec.engine._batchjit import compiled_packs
        packs = compiled_packs() if compiled else None
        pack = (packs(numbers, seed, self.deck) if packs is not None
                else shuffled_packs(numbers, seed, self.deck))
        seats, first = eng._schedule(dealer)
        seats = np.array(seats, dtype=np.int64)
        bits = np.int64(1) << pack
        dealt = np.stack([np.where(seats == k, bits, 0).sum(axis=1) for k in range(self.n)],
                         axis=1)
        eng.check_hands(tuple(int(x) for x in dealt[0]))
        # the cards dealt after the first stage wait in ``pending`` (as the engine's deal)
        late = np.stack([np.where((seats == k) & (np.arange(len(seats)) >= first), bits, 0)
                         .sum(axis=1) for k in range(self.n)], axis=1)
        c.dealt, c.hands = dealt, dealt & ~late
        c.pending, c.dealt_later = late, late.copy()
        c.talon = ((1 << self.deck) - 1) & ~np.bitwise_or.reduce(dealt, axis=1)
        at = eng._turn_up_at
        c.turn_up = np.full(size, -1, dtype=np.int64) if at is None else pack[:, at].copy()
        c.seed = numbers
        self.advance(c, np.ones(size, dtype=bool), 0)
        return c

    # -- the course ----------------------------------------------------------------------
    def run(self, c: Columns, policy: Policy, compiled: bool = True,
            watch: Watch | None = None) -> Columns:
        """Every lane played on to its end (or handed back), each action chosen by
        ``policy``; then the scores of the lanes whose deal is over.  The random policy's
        lanes run in compiled code where numba is installed and the kernel's generator
        writes every step of the game (:mod:`spec.engine._batchjit`; ``compiled``: False,
        never), with the same columns.  With ``watch`` (:meth:`watch`), where rules take
        effect is judged as the lanes play (in numpy)."""
        seed = getattr(policy, "_random_seed", None)
        kernel = self.kernel() if compiled and seed is not None and watch is None else None
        c.watch = watch
        if watch is not None:
            watch.start(c)
        if kernel is not None:
            kernel(c, seed)
            self._scores(c)
            return c
        while True:
            live = c.at >= 0
            if not live.any():
                break
            c.at[live & (c.decisions > self.most)] = HANDED_BACK  # the engine stops it
            if not (c.at >= 0).any():
                break
            # the earliest step first: the lanes after it wait, so that the lanes at a
            # step keep in step with each other (a trick ends in all of them at once)
            i = int(c.at[c.at >= 0].min())
            lanes = c.at == i
            kind = self.kinds[i]
            if kind == "call":
                self._call(c, i, lanes, policy)
            elif kind == "play":
                self._card(c, i, lanes, policy)
            elif kind == "card":
                self._hand_card(c, i, lanes, policy)
            elif kind == "choice":
                self._choice(c, i, lanes, policy)
            else:
                c.at[lanes] = HANDED_BACK
        self._scores(c)
        if watch is not None:
            watch.finish(c)
        return c

    def watch(self, judged: Sequence[tuple[str, Any, Any]]) -> Watch:
        """A judge of where the rules ``judged`` (rule id, scope, condition, as
        :func:`spec.dsl._derive.fires` gives them) take effect in the lanes of a run
        (:class:`Watch`)."""
        return Watch(self, judged)

    def advance(self, c: Columns, lanes: np.ndarray, start: int) -> None:
        """The lanes ``lanes`` begin the first step from ``start`` on that takes place (a
        step at which nobody acts runs its entry and passes straight on)."""
        todo = lanes.copy()
        for k in range(start, len(self.steps)):
            if not todo.any():
                return
            step = self.steps[k]
            if self.kinds[k] is None:
                c.at[todo] = HANDED_BACK
                return
            takes = todo
            if step.when is not None:
                takes = todo & np.broadcast_to(self._value(c, todo, step.when), todo.shape)
            if takes.any():
                run = _Run(self, c, takes)
                run.effects(step.enter)
                if run.gone.any():  # voided on entry: handed back
                    takes, todo = takes & ~run.gone, todo & ~run.gone
                if step.actor is not None:
                    c.at[takes] = k
                    todo = todo & ~takes
        if todo.any():
            raise AssertionError("the play is the last step and always takes place")

    def _value(self, c: Columns, lanes: np.ndarray, v: Any) -> Any:
        return _Run(self, c, lanes).value(v)

    def _checked(self, c: Columns, lanes: np.ndarray, legal: np.ndarray, chosen: Any,
                 what: str) -> None:
        if not isinstance(chosen, np.ndarray) or chosen.shape != (c.size,) \
                or chosen.dtype.kind not in "iu":
            raise ValueError(f"a policy returns a whole number a deal ({c.size} of them, as "
                             f"an array), not {type(chosen).__name__} "
                             f"{getattr(chosen, 'shape', '')}".rstrip())
        width = 63 if legal.ndim == 1 else legal.shape[1]
        inside = (chosen >= 0) & (chosen < width)
        at = np.where(inside, chosen, 0)
        ok = (((legal >> at) & 1) == 1) if legal.ndim == 1 else legal[c.rows, at]
        bad = lanes & ~(ok & inside)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise ValueError(f"deal {int(c.numbers[k])}: the policy chose {what} "
                             f"{int(chosen[k])}, which the rules do not allow")

    def _call(self, c: Columns, i: int, lanes: np.ndarray, policy: Policy) -> None:
        step = self.steps[i]
        bids = self.call_ok(s=_Wide(c), call_is_bid=True,
                            call_bid=np.arange(self.ladder, dtype=np.int64)[None, :])
        passes = self.call_ok(s=c, call_is_bid=False, call_bid=-1)
        legal = np.concatenate([np.broadcast_to(passes, (c.size,))[:, None],
                                np.broadcast_to(bids, (c.size, self.ladder))], axis=1)
        legal = self._announcing(c, legal) & lanes[:, None]
        _stuck(c, lanes & ~legal.any(axis=1), "no call is legal")
        width = legal.shape[1]
        masks = legal if width > 63 else \
            (legal.astype(np.int64) << np.arange(width, dtype=np.int64)).sum(axis=1)
        chosen = policy(step.name, masks, c.numbers, c.decisions)
        self._checked(c, lanes, masks, chosen, "call")
        c.decisions += lanes
        if self.announcements or self.proxy is not None:
            self._announce(c, lanes, chosen - self.ladder - 1)
            lanes = lanes & (chosen <= self.ladder)
        if c.watch is not None:
            c.watch.calls(c, lanes)
        run = _Run(self, c, lanes, bid=chosen - 1,
                   action=np.take(self.call_action, np.clip(chosen, 0, self.ladder)))
        run.effects(step.effects)
        over = lanes & ~run.gone & np.broadcast_to(np.asarray(run.value(step.ends), dtype=bool),
                                                   lanes.shape)
        if over.any():
            thrown = over & (c.standing < 0)  # nobody bid: the engine deals again
            c.at[thrown] = HANDED_BACK
            if (over & ~thrown).any():
                self.advance(c, over & ~thrown, i + 1)

    def _announcing(self, c: Columns, legal: np.ndarray) -> np.ndarray:
        """The legal calls of each lane, then the announcements its seat may make (as the
        engine's ``_auction_actions``: where some must be made now, those alone)."""
        if not self.announcements and self.proxy is None:
            return legal
        legal, now = self._offered(c, legal, self.announcements)
        if self.proxy is not None:  # after the announcements, unless one must be made now
            may = (c.proxy < 0) & self._lanes(c, self.proxy(s=c)) & ~now
            legal = np.concatenate([legal, may[:, None]], axis=1)
        return legal

    def _offered(self, c: Columns, legal: np.ndarray, announcements: Sequence[Any]
                 ) -> tuple[np.ndarray, np.ndarray]:
        """The actions ``legal`` (a column an action) and after them the announcements a
        seat may make now; where some must be made now, those alone (and whether some
        must, a lane)."""
        if not announcements:
            return legal, np.zeros(c.size, dtype=bool)
        may = np.stack([self._lanes(c, when(s=c)) for when, *_rest in announcements], axis=1)
        must = np.stack([may[:, j] & self._lanes(c, required(s=c)) if required is not None
                         else np.zeros(c.size, dtype=bool)
                         for j, (_when, required, *_rest) in enumerate(announcements)], axis=1)
        now = must.any(axis=1)
        return (np.concatenate([legal & ~now[:, None], np.where(now[:, None], must, may)],
                               axis=1), now)

    def _announce(self, c: Columns, lanes: np.ndarray, which: np.ndarray,
                  play: bool = False) -> None:
        """The announcement ``which`` made in each of ``lanes`` that chose one (``which`` >=
        0), as the engine's ``_do_declare`` makes it: the values it sets (each read before
        any is set), its rule, the action logged; then the deal's status judged.  The turn
        does not pass.  Past the auction's announcements, a seat asks his partner to call
        for him (as the engine's ``_ask_partner``: the partner's turn)."""
        announcements = self.play_announcements if play else self.announcements
        if not play and self.proxy_rule is not None:
            asks = lanes & (which == len(announcements))
            if asks.any():
                _fire(c, self.proxy_rule[1], asks)
                _log(c, c.turn, self.proxy_rule[2], asks)
                c.proxy = np.where(asks, c.turn, c.proxy)
                c.turn = np.where(asks, np.take(self.partner_of, c.turn), c.turn)
        for j, (_when, _required, sets, rule, action) in enumerate(announcements):
            these = lanes & (which == j)
            if not these.any():
                continue
            values = [(index, fn(s=c)) for index, fn in sets]
            for index, value in values:
                c.tracked[:, index] = np.where(these, value, c.tracked[:, index])
            _fire(c, rule, these)
            _log(c, c.turn, action, these)
            self.judge(_Run(self, c, these), S.Judgement.STATUS)

    def _hand_card(self, c: Columns, i: int, lanes: np.ndarray, policy: Policy) -> None:
        """A card of the actor's hand acted (laid aside, discarded ...); then, where the
        step is over, the next step."""
        step = self.steps[i]
        from spec.engine._npcompile import _at
        legal = np.where(lanes, _at(c.hands, c.turn), 0)
        _stuck(c, lanes & (legal == 0), f"no card to {step.action}")
        card = policy(step.name, legal, c.numbers, c.decisions)
        self._checked(c, lanes, legal, card, "card")
        c.decisions += lanes
        run = _Run(self, c, lanes, card=card, action=card + self.engine._card_shift[step.card],
                   at=i)
        run.effects(step.effects)
        over = lanes & ~run.gone & self._lanes(c, run.value(step.ends))
        if over.any():
            self.advance(c, over, i + 1)

    def _choice(self, c: Columns, i: int, lanes: np.ndarray, policy: Policy) -> None:
        """One of the named options the actor may choose now, chosen."""
        step = self.steps[i]
        run = _Run(self, c, lanes, at=i)
        legal = np.zeros(c.size, dtype=np.int64)
        for j, o in enumerate(step.options):
            may = self._lanes(c, run.value(o.when))
            if o.offered is not None:
                may = may & self._lanes(c, run.value(o.offered))
            legal |= np.where(may & lanes, np.int64(1) << j, 0)
        _stuck(c, lanes & (legal == 0), f"no option of {step.name} is open")
        chosen = policy(step.name, legal, c.numbers, c.decisions)
        self._checked(c, lanes, legal, chosen, "option")
        c.decisions += lanes
        numbers = self.option_actions[i]
        for j, o in enumerate(step.options):
            these = lanes & (chosen == j)
            if these.any():
                _Run(self, c, these, action=numbers[j], at=i).effects(o.effects)

    def _lanes(self, c: Columns, value: Any) -> np.ndarray:
        return np.broadcast_to(np.asarray(value, dtype=bool), (c.size,))

    def judge(self, run: _Run, what: S.Judgement) -> None:
        """The deal's status judged in the lanes acting, as the engine's ``_after_status``
        judges it: a lane whose deal a rule voids is handed back (the engine deals again);
        after its trick, a hand is laid open where the rule says so (``what`` STATUS; VOID:
        the voids alone)."""
        c = run.c
        void = np.zeros(c.size, dtype=bool)
        for fn, reads_contract in self.voids:
            holds = self._lanes(c, fn(s=c))
            void |= holds & (c.contract >= 0) if reads_contract else holds
        void &= run.act
        if void.any():
            c.at[void] = HANDED_BACK
            run.gone |= void
            run.act = run.act & ~void
        if what is not S.Judgement.STATUS:
            return
        if self.aside_returns is not None:  # every card laid aside back in its owner's hand
            back = run.act & (c.aside != 0).any(axis=1)
            if back.any():
                back &= self._lanes(c, self.aside_returns(s=c))
                c.hands = np.where(back[:, None], c.hands | c.aside, c.hands)
                c.aside = np.where(back[:, None], 0, c.aside)
        for rule, after, when, opener in self.lay_open:
            lanes = run.act & (c.trick_number == after + 1) & (c.tlen == 0)
            if not lanes.any():
                continue
            lanes = lanes & self._lanes(c, when(s=c))
            seat = np.broadcast_to(np.asarray(opener(s=c), dtype=np.int64), (c.size,))
            live = np.arange(c.open_seat.shape[0])[:, None] < c.nopen[None, :]
            lanes = lanes & ~(live & (c.open_seat == seat[None, :])).any(axis=0)
            if lanes.any():  # once a seat: its hand and the rule that lays it open
                c.room(c.nopen, "open_seat", "open_after")
                c.put(c.open_seat, c.nopen, seat, lanes)
                c.put(c.open_after, c.nopen, after, lanes)
                c.nopen = c.nopen + lanes
                _fire(c, rule, lanes)

    def _card(self, c: Columns, i: int, lanes: np.ndarray, policy: Policy) -> None:
        step = self.steps[i]
        legal = np.where(lanes, self.legal(c), 0)
        _stuck(c, lanes & (legal == 0), "no card may be played")
        # a card is a play (its number, its bit), or each card with each suit it may name;
        # the announcements of the play after them
        deck, k = self.deck, len(self.codes)
        plays = self._plays(c, legal) if self.codes else legal
        width = deck * (1 + k) if self.codes else deck
        if self.play_announcements:
            wide = plays if plays.ndim == 2 else \
                ((plays[:, None] >> np.arange(width, dtype=np.int64)) & 1) == 1
            wide = self._offered(c, wide, self.play_announcements)[0] & lanes[:, None]
            plays = wide if wide.shape[1] > 63 else \
                (wide.astype(np.int64) << np.arange(wide.shape[1], dtype=np.int64)).sum(axis=1)
        chosen = policy(step.name, plays, c.numbers, c.decisions)
        self._checked(c, lanes, plays, chosen, "card" if width == deck else "play")
        c.decisions += lanes
        if self.play_announcements:
            self._announce(c, lanes, chosen - width, play=True)
            lanes = lanes & (chosen < width) & (c.at == i)
        card = np.where(chosen < deck, chosen, (chosen - deck) // max(k, 1))
        named = np.where(chosen < deck, NO_SUIT,
                         np.take(np.array(self.codes or (NO_SUIT,), dtype=np.int64),
                                 (chosen - deck) % max(k, 1), mode="wrap"))
        watch = c.watch
        if watch is not None:
            watch.played(c, lanes, card, named)
            before = watch.before(c)
        _Run(self, c, lanes, card=card, named=named, action=chosen).effects(step.effects)
        if watch is not None:
            watch.completed(c, lanes, before)

    def _plays(self, c: Columns, legal: np.ndarray) -> np.ndarray:
        """The legal plays of each lane, numbered as the engine numbers them: each card
        naming no suit, then each card with each suit it may name; a mask a lane, or a
        matrix where there are more than 63."""
        wide, cards = _Wide(c), np.arange(self.deck, dtype=np.int64)[None, :]
        held = ((legal[:, None] >> cards) & 1) == 1
        needs = np.broadcast_to(self.needs(s=wide, card=cards, declared=NO_SUIT), held.shape)
        columns = [held & ~needs]
        named = [np.broadcast_to(self.named_ok(s=wide, card=cards, declared=code), held.shape)
                 for code in self.codes]
        columns.append(np.stack([held & needs & ok for ok in named], axis=2).reshape(c.size, -1))
        plays = np.concatenate(columns, axis=1)
        if plays.shape[1] > 63:
            return plays
        return (plays.astype(np.int64) << np.arange(plays.shape[1], dtype=np.int64)).sum(axis=1)

    def _scores(self, c: Columns) -> None:
        if self.line_scores:
            c.lines = [np.stack([np.broadcast_to(fn(k, c), (c.size,)) for k in range(self.n)],
                                axis=1) for fn in self.line_scores]
            c.scores = sum(c.lines[1:], c.lines[0])
        else:
            c.lines = []
            c.scores = np.stack([np.broadcast_to(self.score(k, c), (c.size,))
                                 for k in range(self.n)], axis=1)

    def strengths(self, c: Columns) -> np.ndarray:
        """The strength of the card at each position of each lane's trick (the lowest
        possible beyond its length)."""
        cols = []
        for p in range(self.n):
            st = np.broadcast_to(self.strength(c.trick_c[p], c.trick_n[p], p,
                                               c.led_suit, c.trump, c.trick_number,
                                               c.contract), (c.size,))
            cols.append(np.where(p < c.tlen, st, np.iinfo(np.int64).min))
        return np.stack(cols, axis=1)

    def _beating(self, c: Columns, hand: Any, led: Any, trump: Any, number: Any,
                 contract: Any) -> np.ndarray:
        best = self.strengths(c).max(axis=1)
        deck = np.arange(self.deck, dtype=np.int64)[None, :]

        def col(x: Any) -> Any:
            return np.asarray(x)[:, None] if np.ndim(x) else x
        st = self.strength(deck, NO_SUIT, col(c.tlen), col(led), col(trump), col(number),
                           col(contract))
        stronger = np.where(np.broadcast_to(st, (c.size, self.deck)) > best[:, None],
                            np.int64(1) << deck, 0).sum(axis=1)
        return np.where(c.tlen > 0, np.asarray(hand) & stronger, 0)

    # -- out of the batch ----------------------------------------------------------------
    def states(self, c: Columns) -> list[State]:
        """The engine's state at the end of each lane's deal: from the columns, or, for a
        lane handed back, as the engine plays it on from the actions the batch took."""
        return [self.state(c, k) for k in range(c.size)]

    def state(self, c: Columns, k: int) -> State:
        """The engine's state at the end of lane ``k``'s deal (see :meth:`states`)."""
        eng = self.engine
        table = eng.action_table
        if c.at[k] == HANDED_BACK:
            return self._handed_back(c, k)
        base = c.starts[k] if c.starts is not None else eng._before_deal
        w = thaw(base)
        if c.starts is None:
            w.seed = int(c.numbers[k])
        for name in _SCALARS:
            setattr(w, name, int(getattr(c, name)[k]))
        w.stage_bid = bool(c.stage_bid[k])
        for name in _PER_SEAT:
            setattr(w, name, tuple(int(x) for x in getattr(c, name)[k]))
        w.tracked = tuple(type(v)(x) for v, x in zip(base.tracked, c.tracked[k]))
        w.calls = base.calls + tuple((int(c.call_seat[j, k]), int(c.call_bid[j, k]))
                                     for j in range(int(c.ncalls[k])))
        w.log = base.log + tuple((int(c.log_seat[j, k]), table[int(c.log_action[j, k])])
                                 for j in range(int(c.nlog[k])))
        w.chosen = base.chosen + tuple((int(c.chosen_seat[j, k]), self.names[int(c.chosen_name[j, k])])
                                       for j in range(int(c.nchosen[k])))
        w.fired = base.fired + tuple((int(c.fired_at[j, k]), self.rule_ids[int(c.fired_rule[j, k])])
                                     for j in range(int(c.nfired[k])))
        w.tricks = base.tricks + tuple(self._trick(c, k, t) for t in range(int(c.ntricks[k])))
        w.laid_open = tuple((int(c.open_seat[j, k]), int(c.open_after[j, k]))
                            for j in range(int(c.nopen[k])))
        w.trick, w.faces = (), ()
        w.phase = Phase.OVER
        w.scores = tuple(int(x) for x in c.scores[k])
        w.lines = tuple(tuple(int(x) for x in line[k]) for line in c.lines)
        return freeze(w)

    @staticmethod
    def _trick(c: Columns, k: int, t: int) -> Any:
        size, seats = int(c.tr["size"][t, k]), int(c.tr["nseats"][t, k])
        return trick_record(
            int(c.tr["number"][t, k]), int(c.tr["leader"][t, k]),
            tuple(int(x) for x in c.tr_cards[t, k, :size]),
            tuple(int(x) for x in c.tr_named[t, k, :size]), int(c.tr["winner"][t, k]),
            tuple(int(x) for x in c.tr_seats[t, k, :seats]),
            tuple(bool(x) for x in c.tr_faces[t, k, :int(c.tr["nfaces"][t, k])]),
            bool(c.tr["revealed"][t, k]), int(c.tr["seen"][t, k]))

    def actions_of(self, c: Columns, k: int) -> list[Any]:
        """The actions lane ``k`` took in the batch, in order."""
        table = self.engine.action_table
        return [table[int(c.log_action[j, k])] for j in range(int(c.nlog[k]))]

    def start_of(self, c: Columns, k: int) -> State:
        """The engine's state lane ``k`` entered the batch in."""
        from spec.engine._engine import new_deal
        if c.starts is not None:
            return c.starts[k]
        up = int(c.turn_up[k])
        return new_deal(self.game, seed=int(c.numbers[k]), dealer=int(c.dealer[k]),
                        hands=[int(x) for x in c.dealt[k]],
                        turn_up=self.game.deck[up] if up >= 0 else None,
                        later=([int(x) for x in c.dealt_later[k]] if self.engine.stages > 1
                               else None))

    def _handed_back(self, c: Columns, k: int) -> State:
        from spec.engine._engine import apply
        from spec.engine._session import int_seeded
        eng = self.engine
        number = int(c.numbers[k])
        state = self.start_of(c, k)
        for j in range(int(c.nlog[k])):
            state = apply(state, eng.action_table[int(c.log_action[j, k])])
        if state.phase is not Phase.OVER:
            state = eng.random_playout(state, int_seeded(number))
        return state


def _values_in(e: Any) -> list[Any]:
    """The step values an effect reads, and those they read."""
    out: list[Any] = []
    todo = [getattr(e, f) for f in getattr(e, "__dataclass_fields__", {})
            if f not in ("then", "orelse")]
    while todo:
        x = todo.pop()
        if isinstance(x, S.Value):
            out.append(x)
            todo += [getattr(x, f) for f in x.__dataclass_fields__ if f != "expr"]
        elif isinstance(x, tuple):
            todo += list(x)
    return out


class Watch:
    """Where rules visibly take effect in each lane of a run, judged as the lanes play (as
    :func:`verifier.fixtures.rules_firing` judges the engine's replay of a deal): a rule
    of the play at each card about to be played, with the card; a trick rule as each
    trick is complete, with the tracked values and tricks won before its last card; a
    call rule where, at a call about to be made, it is the first the engine names refusing
    some bid; an outcome rule at the end; a rule the engine notes as taking effect; a rule
    that shows where nobody bids.  ``hits``: a row a lane, a column a rule, in the order
    given.  A lane handed back is the engine's to judge.

    Raises:
        NotBatchable: a rule's condition reads what the batch does not keep.
    """

    def __init__(self, batch: BatchEngine, judged: Sequence[tuple[str, Any, Any]]) -> None:
        from spec.dsl._derive import NO_BID, UNMODELLED
        from spec.dsl._nodes import Scope
        from spec.engine._state import Call
        self.b, self.ids = batch, tuple(rid for rid, _scope, _cond in judged)
        self.size = 0
        self.hits = np.zeros((0, len(judged)), dtype=bool)
        column = {rid: j for j, rid in enumerate(self.ids)}
        fn = batch._fn
        try:
            self.plays = [(column[rid], fn("play_card", cond, "watch"))
                          for rid, scope, cond in judged if scope is Scope.PLAY]
            self.tricks = [(column[rid], fn("trick", cond, "watch"))
                           for rid, scope, cond in judged if scope is Scope.TRICK]
        except UnsupportedNodeError as e:
            raise NotBatchable(str(e)) from None
        self.outcomes = [(column[rid], batch.condition(cond, seat=0))
                         for rid, scope, cond in judged if scope is Scope.OUTCOME]
        called = {rid: column[rid] for rid, scope, _c in judged if scope is Scope.CALL}
        # every rule of the calls in the engine's order (the first refusing a bid is named)
        rules = D.call_rules(batch.game)
        self.call_rules = [(called.get(rule.id, -1), fn("call_made", applies, "applies"),
                            fn("call_made", requires, "requires"))
                           for rule, applies, requires in rules] if called else []
        ids = batch.rule_ids
        self.noted = [(column[rid], ids.index(rid)) for rid, scope, _c in judged
                      if scope == UNMODELLED]
        self.no_bid = [column[rid] for rid, scope, _c in judged if scope == NO_BID]
        table = batch.engine.action_table
        self.bids = np.array([isinstance(a, Call) and a.bid is not None for a in table],
                             dtype=bool)
        self.watching_tricks = bool(self.tricks)

    def start(self, c: Columns) -> None:
        self.size = c.size
        self.hits = np.zeros((c.size, len(self.ids)), dtype=bool)
        self.fired0 = c.nfired.copy()  # noted as the deal began: before any action

    def _hit(self, column: int, lanes: Any) -> None:
        self.hits[:, column] |= np.broadcast_to(np.asarray(lanes, dtype=bool), (self.size,))

    def calls(self, c: Columns, lanes: np.ndarray) -> None:
        """A call about to be made in each of ``lanes``: each call rule that the engine
        names first refusing some bid (as ``Engine._check_call`` names it)."""
        if not self.call_rules or not lanes.any():
            return
        wide, bids = _Wide(c), np.arange(self.b.ladder, dtype=np.int64)[None, :]
        shape = (c.size, self.b.ladder)
        refused = ~np.broadcast_to(self.b.call_ok(s=wide, call_is_bid=True, call_bid=bids),
                                   shape) & lanes[:, None]
        for column, applies, requires in self.call_rules:
            named = refused & np.broadcast_to(
                applies(s=wide, call_is_bid=True, call_bid=bids)
                & ~np.asarray(requires(s=wide, call_is_bid=True, call_bid=bids), dtype=bool),
                shape)
            if column >= 0:
                self._hit(column, named.any(axis=1))
            refused = refused & ~named

    def played(self, c: Columns, lanes: np.ndarray, card: np.ndarray, named: np.ndarray
               ) -> None:
        """A card about to be played in each of ``lanes``: each rule of the play."""
        for column, test in self.plays:
            self._hit(column, lanes & self.b._lanes(c, test(s=c, card=card, declared=named)))

    def before(self, c: Columns) -> Any:
        """What a trick rule reads of the state before a trick's last card."""
        if not self.watching_tricks:
            return None
        return (c.ntricks.copy(), c.tracked.copy(), c.won.copy(), c.taken.copy())

    def completed(self, c: Columns, lanes: np.ndarray, before: Any) -> None:
        """The tricks complete in ``lanes`` by the card just played: each trick rule."""
        if before is None:
            return
        ntricks, tracked, won, taken = before
        done = lanes & (c.ntricks > ntricks) & (c.at != HANDED_BACK)
        if not done.any():
            return
        t = np.maximum(c.ntricks - 1, 0)
        n, rows = self.b.n, c.rows
        size = c.tr["size"][t, rows]
        live = np.arange(n)[None, :] < size[:, None]
        cards = np.where(live, c.tr_cards[t, rows], self.b.deck)
        named = np.where(live, c.tr_named[t, rows], NO_SUIT)
        faces = (np.arange(n)[None, :] < c.tr["nfaces"][t, rows][:, None]) \
            & (c.tr_faces[t, rows] != 0)
        s = _Before(c, tracked=tracked, won=won, taken=taken)
        for column, test in self.tricks:
            self._hit(column, done & self.b._lanes(c, test(
                s=s, number=c.tr["number"][t, rows], leader=c.tr["leader"][t, rows],
                size=size, cards=cards, named=named, faces=faces)))

    def finish(self, c: Columns) -> None:
        """At the end: each outcome rule, each rule the engine noted, and the rules that
        show where nobody bids."""
        over = c.at == OVER
        history = _History(self.b, c) if self.outcomes else None  # read once for them all
        for column, condition in self.outcomes:
            self._hit(column, over & condition(c, history))
        if self.noted:
            entries = np.arange(c.fired_rule.shape[0])[:, None]
            live = (entries < c.nfired[None, :]) & (entries >= self.fired0[None, :])
            for column, index in self.noted:
                self._hit(column, (live & (c.fired_rule == index)).any(axis=0))
        if self.no_bid:
            live = np.arange(c.log_action.shape[0])[:, None] < c.nlog[None, :]
            bid = (live & self.bids[c.log_action]).any(axis=0)
            for column in self.no_bid:
                self._hit(column, over & ~bid)


class _Before:
    """The columns, with some read as they were before an action."""

    def __init__(self, c: Columns, **fields: np.ndarray) -> None:
        self._c, self._fields = c, fields

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__["_fields"]
        return fields[name] if name in fields else getattr(self.__dict__["_c"], name)


class _Run:
    """One action of the lanes ``act`` (or a step's entry): effects over the columns."""

    def __init__(self, batch: BatchEngine, c: Columns, act: np.ndarray, *, card: Any = None,
                 named: Any = NO_SUIT, bid: Any = None, action: Any = None,
                 at: int | None = None) -> None:
        self.b, self.c, self.act, self.at = batch, c, act, at
        self.card, self.named, self.bid, self.action = card, named, bid, action
        self.locals: dict[str, Any] = {}
        self.gone = np.zeros(c.size, dtype=bool)  # lanes handed back by an effect

    def effects(self, effects: Sequence[Any]) -> None:
        for e in effects:
            self.effect(e)

    def _lane(self, value: Any) -> np.ndarray:
        return np.broadcast_to(np.asarray(value), (self.c.size,))

    def effect(self, e: Any) -> None:  # noqa: C901 - one case per effect
        c, act = self.c, self.act
        if isinstance(e, S.Set):
            self.set(e)
        elif isinstance(e, S.Let):
            value = self.value(e.value)
            old = self.locals.get(e.name)
            if old is None or isinstance(value, tuple) or isinstance(old, tuple):
                self.locals[e.name] = value
            elif isinstance(value, _Seq) and isinstance(old, _Seq):  # each lane its own
                self.locals[e.name] = _Seq(np.where(act[:, None], value.items, old.items),
                                           np.where(act, value.n, old.n))
            else:
                self.locals[e.name] = np.where(act, value, old)
        elif isinstance(e, S.When):
            test = self._lane(np.asarray(self.value(e.test), dtype=bool))
            outer = self.act
            self.act = outer & test
            if self.act.any():
                self.effects(e.then)
            self.act = outer & ~test & ~self.gone
            if e.orelse and self.act.any():
                self.effects(e.orelse)
            self.act = outer & ~self.gone
        elif isinstance(e, S.Record):
            _log(c, self.value(e.seat), self.action, act)
        elif isinstance(e, S.Fire):
            _fire(c, self.b.rule_ids.index(e.rule), act, e.back)
        elif isinstance(e, S.Judge):
            self.b.judge(self, e.what)
        elif isinstance(e, S.Advance):  # the next step begins for these lanes
            assert self.at is not None
            self.b.advance(c, act, self.at + 1)
            gone = act & (c.at == HANDED_BACK)  # voided as a step began
            if gone.any():
                self.gone |= gone
                self.act = act & ~gone
        elif isinstance(e, S.Track):  # each value read before any is set
            values = [(self.b.tracked.index(name), self.value(v)) for name, v in e.sets]
            for index, value in values:
                c.tracked[:, index] = np.where(act, value, c.tracked[:, index])
        elif isinstance(e, S.Updates):
            self.updates(e)
        else:
            assert isinstance(e, S.Over)
            c.at[act] = OVER

    def set(self, e: S.Set) -> None:
        c, act, f, v = self.c, self.act, e.field, e.value
        if f == "trick":
            if v == S.Lit(()):
                c.tlen = np.where(act, 0, c.tlen)
                return
            assert isinstance(v, S.Added) and v.record == S.Get("trick"), v
            card, named = self.value(v.item)
            c.put(c.trick_c, c.tlen, card, act)
            c.put(c.trick_n, c.tlen, named, act)
            c.tlen = c.tlen + act
        elif f == "faces":  # whether each card of the trick so far was played face down
            if v == S.Lit(()):
                c.nfaces = np.where(act, 0, c.nfaces)
                return
            assert isinstance(v, S.Added) and v.record == S.Get("faces"), v
            c.put(c.trick_f, c.nfaces, self._lane(self.value(v.item)).astype(np.int64), act)
            c.nfaces = c.nfaces + act
        elif f == "tricks":
            assert isinstance(v, S.Added) and isinstance(v.item, S.Finished), v
            self.finished(v.item)
        elif f in _PAIRS:  # a pair added to a record: each part to its column
            assert isinstance(v, S.Appended) and v.place == S.Get(f), v
            count, first, second = _PAIRS[f]
            c.room(getattr(c, count), first, second)
            c.put(getattr(c, first), getattr(c, count), self.value(v.a), act)
            c.put(getattr(c, second), getattr(c, count), self.value(v.b), act)
            setattr(c, count, getattr(c, count) + act)
        else:
            value = self.value(v)
            old = getattr(c, f)
            if old.ndim == 2:
                setattr(c, f, np.where(act[:, None], np.broadcast_to(value, old.shape), old))
            else:
                setattr(c, f, np.where(act, value, old))

    def updates(self, e: S.Updates) -> None:
        """Tracked values set by several rules, each rule's test and values read before any
        is set; a rule is noted as taking effect where it changed a value (as the engine's
        ``_updates_lines``)."""
        c, act = self.c, self.act
        judged = [(self._lane(np.asarray(self.value(when), dtype=bool)) & act,
                   [(self.b.tracked.index(name), self._lane(self.value(v))) for name, v in sets],
                   rule) for when, sets, rule in e.rules]
        tracked = c.tracked.copy()
        for lanes, sets, rule in judged:
            before = tracked.copy()
            for index, value in sets:
                tracked[:, index] = np.where(lanes, value, tracked[:, index])
            changed = lanes & (tracked != before).any(axis=1)
            if changed.any():
                _fire(c, self.b.rule_ids.index(rule), changed)
        c.tracked = tracked

    def finished(self, v: S.Finished) -> None:
        c, act = self.c, self.act
        number, leader, cards, names, winner, seats, faces, revealed, seen = v.parts
        at = c.ntricks
        for name, part in (("number", number), ("leader", leader), ("winner", winner),
                           ("revealed", revealed), ("seen", seen)):
            c.put(c.tr[name], at, self.value(part), act)
        cs, ns, ss, fs = (self.value(cards), self.value(names), self.value(seats),
                          self.value(faces))
        c.put(c.tr["size"], at, cs.n, act)
        c.put(c.tr["nfaces"], at, fs.n, act)
        c.put(c.tr_faces, at, fs.items, act)
        c.put(c.tr["nseats"], at, ss.n, act)
        c.put(c.tr_cards, at, cs.items, act)
        c.put(c.tr_named, at, ns.items, act)
        c.put(c.tr_seats, at, ss.items, act)
        c.ntricks = c.ntricks + act

    # -- values ------------------------------------------------------------------------
    # long: one case per kind of value of the steps, each a few lines
    def value(self, v: Any) -> Any:  # noqa: C901 - one case per value
        c, n = self.c, self.b.n
        if isinstance(v, S.Get):
            if v.field == "trick":
                return _Seq(np.stack([c.trick_c[:n].T, c.trick_n[:n].T], axis=2), c.tlen)
            if v.field == "faces":
                return _Seq(c.trick_f[:n].T, c.nfaces)
            return getattr(c, v.field)
        if isinstance(v, S.Lit):
            if isinstance(v.value, str):  # an option's name: its number
                return self.b.names.index(v.value)
            return np.full(n, int(v.value), dtype=np.int64) if v.per_seat else v.value
        if isinstance(v, S.Local):
            return self.locals[v.name]
        if isinstance(v, S.Op):
            return _OPS[v.op](self.value(v.a), self.value(v.b))
        if isinstance(v, S.Cond):
            return np.where(self.value(v.test), self.value(v.a), self.value(v.b))
        if isinstance(v, S.Bit):
            return np.int64(1) << np.asarray(self.value(v.seat), dtype=np.int64)
        if isinstance(v, S.After):
            return np.take(self.b.next_seat, self.value(v.seat), mode="wrap")
        if isinstance(v, S.SeatFrom):
            return self.seat_from(v)
        if isinstance(v, S.SeatsFrom):
            return self.seats_from(v)
        if isinstance(v, S.Item):
            seq = self.value(v.value)
            index = v.index if isinstance(v.index, int) else self.value(v.index)
            return np.asarray(seq.items)[c.rows, self._lane(index)]
        if isinstance(v, S.Strongest):
            return np.argmax(self.b.strengths(c), axis=1).astype(np.int64)
        if isinstance(v, S.Column):
            record = self.value(v.record)
            return _Seq(record.items[:, :, v.index], record.n)
        if isinstance(v, S.Mask):
            seq = self.value(v.cards)
            live = np.arange(seq.items.shape[1])[None, :] < seq.n[:, None]
            return np.bitwise_or.reduce(np.where(live, np.int64(1) << seq.items, 0), axis=1)
        if isinstance(v, S.Len):
            assert v.record == S.Get("trick"), v
            return c.tlen
        if isinstance(v, S.Padded):
            seq = self.value(v.items)
            live = np.arange(seq.items.shape[1])[None, :] < seq.n[:, None]
            return _Seq(np.where(live, seq.items, int(v.filler)), np.full(c.size, n))
        if isinstance(v, S.Held):
            place = self.value(v.place)
            but = self._lane(self.value(v.but))
            return ((place != 0) & (np.arange(n)[None, :] != but[:, None])).any(axis=1)
        if isinstance(v, S.Only):
            seat, cards = self._lane(self.value(v.seat)), self._lane(self.value(v.cards))
            return np.where(np.arange(n)[None, :] == seat[:, None], cards[:, None], 0)
        if isinstance(v, S.PlusAt):
            seat = self._lane(self.value(v.seat))
            return self.value(v.place) + np.where(np.arange(n)[None, :] == seat[:, None],
                                                  v.amount, 0)
        if isinstance(v, S.At):
            from spec.engine._npcompile import _at
            return _at(self.value(v.place), self._lane(self.value(v.seat)))
        if isinstance(v, S.Count):
            return np.bitwise_count(np.asarray(self.value(v.cards), dtype=np.int64)).astype(np.int64)
        if isinstance(v, S.AtLeast):
            return np.asarray(self.value(v.a)) >= np.asarray(self.value(v.b))
        if isinstance(v, S.SeatsOf):
            assert v.record == S.Get("chosen"), v
            live = np.arange(c.chosen_seat.shape[0])[:, None] < c.nchosen[None, :]
            return np.bitwise_or.reduce(np.where(live, np.int64(1) << c.chosen_seat, 0), axis=0)
        if isinstance(v, S.Best):
            return self.best(v)
        if isinstance(v, S.Less):
            return self.value(v.a) & ~self.value(v.b)
        if isinstance(v, S.Joined):
            return self.value(v.a) | self.value(v.b)
        if isinstance(v, S.Entry):
            return np.take(np.array([int(x) for x in v.table], dtype=np.int64),
                           self.value(v.index), mode="wrap")
        if isinstance(v, S.Stated):
            fn, params = self.b.stated(v)
            given = dict(v.given)
            args = [c if p == "s" else self.value(given[p]) for p in params]
            return fn(*[a.items if isinstance(a, _Seq) else a for a in args])
        if isinstance(v, S.Bid):
            return self.bid
        if isinstance(v, S.CardNo):
            return self.card
        if isinstance(v, S.Named):
            return self.named
        if isinstance(v, S.Played):
            return self.card, self.named
        if isinstance(v, S.Truth):
            return np.asarray(self.value(v.value), dtype=bool)
        if isinstance(v, S.Acted):
            return np.int64(1) << self.card
        if isinstance(v, S.SuitOf):  # of one card
            cards = np.asarray(self.value(v.cards), dtype=np.int64)
            suits = self.b.tables.ns["_SUIT"]  # the rules' table of suits
            return suits[np.bitwise_count(cards - 1).astype(np.int64) % self.b.deck]
        if isinstance(v, S.Share):
            return self.b.share(self.c.pending, v.stage)
        raise NotBatchable(f"a step's value {v}")

    def best(self, v: S.Best) -> _Seq:
        """The entry (seat, name) of the choices made whose name ranks highest, the first
        of equals (past the seats ``outside``); (-1, -1) where there is none."""
        c = self.c
        assert v.record == S.Get("chosen"), v
        ranks = np.full(len(self.b.names) + 1, -(1 << 62), dtype=np.int64)  # a name unranked
        for name, rank in v.ranks:
            ranks[self.b.names.index(name)] = rank
        width = c.chosen_seat.shape[0]
        live = np.arange(width)[:, None] < c.nchosen[None, :]
        if v.outside is not None:
            outside = self._lane(self.value(v.outside))
            live &= ((outside[None, :] >> c.chosen_seat) & 1) == 0
        rank = np.where(live, ranks[c.chosen_name], np.iinfo(np.int64).min)
        at = np.argmax(rank, axis=0)
        some = live.any(axis=0)
        seat = np.where(some, c.chosen_seat[at, c.rows], -1)
        name = np.where(some, c.chosen_name[at, c.rows], -1)
        return _Seq(np.stack([seat, name], axis=1), np.full(c.size, 2))

    def _passed(self, t: np.ndarray, skips: list[Any], outside: Any) -> np.ndarray:
        bad = np.zeros(t.shape, dtype=bool)
        for k in skips:
            bad |= t == k
        if outside is not None:
            bad |= ((outside >> t) & 1) == 1
        return bad

    def seat_from(self, v: S.SeatFrom) -> np.ndarray:
        b = self.b
        first = v.seat
        if isinstance(first, S.After):
            t = np.take(b.next_seat, self._lane(self.value(first.seat)), mode="wrap")
        else:  # a seat a rule names, counted round the table
            t = self._lane(np.asarray(self.value(first), dtype=np.int64)) % b.n
        skips = [self.value(k) for k in v.skip]
        outside = None if v.outside is None else self.value(v.outside)
        for _ in range(b.n):
            t = np.where(self._passed(t, skips, outside), np.take(b.next_seat, t, mode="wrap"), t)
        bad = self._passed(t, skips, outside)
        if bad.any():
            if v.otherwise is not None:
                t = np.where(bad, self.value(v.otherwise), t)
            elif (bad & self.act).any():
                raise AssertionError("every seat is out of the play")
        return t

    def seats_from(self, v: S.SeatsFrom) -> _Seq:
        c, b = self.c, self.b
        t = self._lane(np.asarray(self.value(v.seat), dtype=np.int64)).copy()
        skips = [self.value(k) for k in v.skip]
        outside = None if v.outside is None else self.value(v.outside)
        items = np.zeros((c.size, b.n), dtype=np.int64)
        count = np.zeros(c.size, dtype=np.int64)
        for _ in range(b.n):
            keep = ~self._passed(t, skips, outside)
            items[c.rows[keep], count[keep]] = t[keep]
            count += keep
            t = np.take(b.next_seat, t, mode="wrap")
        return _Seq(items, count)


@dataclass
class Batch:
    """Deals played together: the numbers of the deals, the columns of those the batch
    ran (their rows among the deals), and the states of the others, over before it."""

    engine: BatchEngine
    numbers: np.ndarray
    rows: np.ndarray
    columns: Columns
    before: dict[int, State]

    @property
    def ended(self) -> np.ndarray:
        """Whether each deal was played to its end in the batch (its columns hold its
        end), a row a deal."""
        out = np.zeros(len(self.numbers), dtype=bool)
        out[self.rows] = self.columns.at == OVER
        return out

    @property
    def handed_back(self) -> np.ndarray:
        """The rows (among the deals) of the deals the batch handed back to the engine."""
        return self.rows[self.columns.at == HANDED_BACK]

    def starts(self) -> list[State]:
        """The state each deal entered the batch in (a deal the batch dealt: the engine's
        deal of the same hands, dealer, number and card turned up); a deal over before it:
        its end."""
        out: list[Any] = [self.before.get(k) for k in range(len(self.numbers))]
        for j, k in enumerate(self.rows):
            out[int(k)] = self.engine.start_of(self.columns, j)
        return out

    def meeting(self, condition: Callable[[Columns], np.ndarray]) -> np.ndarray:
        """The deals (their places among the deals) that the batch played to their end
        and that meet ``condition`` (:meth:`BatchEngine.condition`)."""
        c = self.columns
        return self.rows[condition(c) & (c.at == OVER)]

    def replayed(self, k: int) -> State:
        """Deal ``k`` played again by the engine, action by action (each checked), from
        the state it entered the batch in, with the actions the batch took."""
        if k in self.before:
            return self.before[k]
        from spec.engine._engine import apply
        j = int(np.flatnonzero(self.rows == k)[0])
        state = self.engine.start_of(self.columns, j)
        for action in self.engine.actions_of(self.columns, j):
            state = apply(state, action)
        return state

    def states(self) -> list[State]:
        """Each deal's state at its end."""
        ends: list[Any] = [self.before.get(k) for k in range(len(self.numbers))]
        for k, s in zip(self.rows, self.engine.states(self.columns)):
            ends[int(k)] = s
        return ends

    def scores(self) -> np.ndarray:
        """Each deal's scores, a row a deal and a column a seat (a deal handed back is
        played on by the engine first)."""
        out = np.zeros((len(self.numbers), self.engine.n), dtype=np.int64)
        for k, s in self.before.items():
            out[k] = s.scores if s.scores is not None else 0
        out[self.rows] = self.columns.scores
        back = self.columns.at == HANDED_BACK
        for j in np.flatnonzero(back):
            out[self.rows[j]] = self.engine._handed_back(self.columns, int(j)).scores
        return out


# the most deals one batch holds: a deal in flight takes some 4-8 KB (benchmarks/engine.py
# --batch), so this many fit in about half a GiB
MOST_DEALS = 65_536


def play_batches(engine: Any, numbers: Sequence[int], policy: Policy | None = None,
                 seed: int = 0, dealer: int | None = None, size: int = MOST_DEALS,
                 compiled: bool = True) -> Iterator[Batch]:
    """The deals ``numbers`` played ``size`` at a time (see :func:`play_batch`): one batch
    after another, each deal the same whatever batch holds it."""
    if not 0 < size <= MOST_DEALS:
        raise ValueError(f"a batch holds from 1 to {MOST_DEALS:,} deals, not {size}")
    for first in range(0, len(numbers), size):
        yield play_batch(engine, numbers[first:first + size], policy, seed, dealer, compiled)


def play_batch(engine: Any, numbers: Sequence[int], policy: Policy | None = None,
               seed: int = 0, dealer: int | None = None, compiled: bool = True) -> Batch:
    """The deals ``numbers`` played together by ``policy`` (by default
    :func:`random_policy` of ``seed``).  Where the batch runs every step before the play,
    it deals each pack itself (keyed by ``seed`` and the deal's number); elsewhere the
    engine deals each from its number and bids it with its random bots, as ``play_deal``
    does, and the batch plays the cards.  With ``compiled`` (and numba installed) the
    random policy's deals run in compiled code, compiled on first use: the same deals, for
    a cost of seconds that pays back over a few hundred thousand deals."""
    from spec.engine._engine import new_deal
    from spec.engine._session import int_seeded
    batch = engine.batch()
    given = np.asarray(numbers)
    if given.ndim != 1 or len(given) == 0 or given.dtype.kind not in "iu" or (
            given.dtype.kind == "u" and given.max() >= 2 ** 63):
        raise ValueError("play_batch plays deals numbered by whole numbers below 2**63: give "
                         "at least one")
    if len(given) > MOST_DEALS:
        raise ValueError(f"one batch holds at most {MOST_DEALS:,} deals (about half a GiB): "
                         "play_batches plays more, a batch at a time")
    if dealer is not None and not 0 <= dealer < batch.n:
        raise ValueError(f"the dealer is a seat from 0 to {batch.n - 1}, not {dealer}")
    numbers = given.astype(np.int64)
    policy = policy or random_policy(seed)
    if batch.deals_whole:
        c = batch.deal(numbers, seed, dealer, compiled)
        return Batch(batch, numbers, np.arange(len(numbers)), batch.run(c, policy, compiled), {})
    starts = [engine.random_playout(new_deal(engine.game, seed=int(s), dealer=dealer),
                                    int_seeded(int(s)), until=Phase.PLAY) for s in numbers]
    rows = np.array([k for k, s in enumerate(starts) if s.phase is Phase.PLAY], dtype=np.int64)
    c = batch.columns([starts[k] for k in rows])
    c.numbers = numbers[rows]
    before = {k: s for k, s in enumerate(starts) if s.phase is not Phase.PLAY}
    return Batch(batch, numbers, rows, batch.run(c, policy, compiled), before)
