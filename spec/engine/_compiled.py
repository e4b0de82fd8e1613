"""A game's rules compiled to Python functions, and the parameters each scope's functions take."""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Bid, Game, Rule, suit_code, suit_from_code
from spec.dsl._nodes import NO_SUIT, Ctx, DealtHand, Ref, Scope, T, Taken, TricksWon, WonTrick
from spec.dsl._pycompile import GameTables, compile_function
from spec.seats import Table

from spec.engine._state import PASS, Call, Declare, Lay, Phase, Play, State


_CALL_CTX = (Ctx.SEAT, Ctx.DEALER, Ctx.HAND, Ctx.HAS_STANDING, Ctx.STANDING, Ctx.HIGH_BIDDER,
             Ctx.CALLS_MADE, Ctx.PASSES_IN_ROW, Ctx.STAGE, Ctx.SEAT_CALLS, Ctx.BID_THIS_STAGE,
             Ctx.PROXY)
_PLAY_CTX = (Ctx.SEAT, Ctx.DEALER, Ctx.HAND, Ctx.IS_LEADING, Ctx.LED_SUIT, Ctx.TRUMP,
             Ctx.TRICK_NUMBER, Ctx.POSITION, Ctx.CONTRACT, Ctx.DECLARER, Ctx.ASIDE, Ctx.LEADER)
_ENTRY_CTX = (Ctx.CARD, Ctx.DECLARED, Ctx.IS_LEADING, Ctx.POSITION, Ctx.LED_SUIT, Ctx.TRUMP,
              Ctx.TRICK_NUMBER, Ctx.CONTRACT)
_STATUS_CTX = (Ctx.DEALER, Ctx.CONTRACT, Ctx.DECLARER, Ctx.TRUMP, Ctx.TRICK_NUMBER)
_TRICK_CTX = (Ctx.DEALER, Ctx.CONTRACT, Ctx.DECLARER, Ctx.TRUMP, Ctx.TRICK_NUMBER, Ctx.LEADER,
              Ctx.TRICK_SIZE)


_MATCH_PARAMS = {Ctx.DEALS_PLAYED: "deals", Ctx.LEAD_TOTAL: "lead", Ctx.TRAIL_TOTAL: "trail",
                 Ctx.GAMES_WON: "games"}


def _params(ctxs: Iterable[Ctx]) -> dict[Any, str]:
    return {c: c.name.lower() for c in ctxs}


# the parameters of the functions judged at the end of the play, before the state tables
_OUTCOME_PARAMS = {Ctx.SEAT: "seat", Ctx.DECLARER: "declarer", Ctx.CONTRACT: "contract",
                   Ctx.DEALER: "dealer", Ctx.TRUMP: "trump"}


def _trick_params(players: int) -> dict[Any, str]:
    """The parameters of the functions judged on a complete trick, before ``tv``."""
    params: dict[Any, str] = _params(_TRICK_CTX)
    for i in range(players):
        params[(Ctx.PLAYED_CARD, i)] = f"cards[{i}]"
        params[(Ctx.PLAYED_DECLARED, i)] = f"named[{i}]"
        params[(Ctx.PLAYED_FACE_DOWN, i)] = f"faces[{i}]"
    params.update({("param", "cards"): "cards", ("param", "named"): "named",
                   ("param", "faces"): "faces"})
    return params


# entries kept in each of the engine's caches of legal actions before it starts afresh
_CACHE_SIZE = 4096


def _reads(fn: Callable[..., Any]) -> frozenset[str]:
    """The names of the parameters a function from ``compile_function`` reads."""
    return fn.reads  # type: ignore[attr-defined, no-any-return]  # set by compile_function


def _picker(indices: Sequence[int]) -> Callable[[tuple[Any, ...]], Any]:
    """A function picking the items at ``indices`` out of an argument tuple (a cache key)."""
    if not indices:
        return lambda _args: ()
    return operator.itemgetter(*indices)




class CompiledRules():
    """A game's rules compiled to Python functions, once per game: the part of the
    engine every phase reads."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.table: Table = game.table
        self.n = game.players
        self.tables = GameTables(game)
        g = game
        self.tracked_names = tuple(g.tracked)
        self.tracked_index = {name: i for i, name in enumerate(self.tracked_names)}
        self._tracked_initial = tuple(self._initial(t) for t in g.tracked.values())
        self._tracked_env = {("tracked", name): f"tv[{i}]" for i, name in enumerate(self.tracked_names)}
        self.stages = g.stages
        self._match_fns: dict[Ctx, Callable[..., Any]] = {}
        self._deals = [g.stage_rule(K.DealPackets, k) for k in range(1, self.stages + 1)]
        self._turns = [g.stage_rule(K.AuctionTurns, k) for k in range(1, self.stages + 1)]
        self.packets = tuple(p for d in self._deals for p in d.packets)  # type: ignore[union-attr]
        play = g.one(K.TrickPlay)
        assert isinstance(play, K.TrickPlay)
        call_p = _params(_CALL_CTX)
        seat_only = {Ctx.DEALER: "dealer"}
        self._deal_first = [self._fn(d.first, seat_only, "deal_first")  # type: ignore[union-attr]
                            for d in self._deals]
        self._auction_first = [self._fn(t.first, call_p, "auction_first", tv=True)  # type: ignore[union-attr]
                               for t in self._turns]
        self._first_lead = self._fn(
            play.first_lead, {Ctx.DEALER: "dealer", Ctx.DECLARER: "declarer",
                              Ctx.CONTRACT: "contract", Ctx.TRUMP: "trump"},
            "first_lead", tv=True)
        self._ends = [self._fn(t.ends_when, call_p, "auction_over", tv=True)  # type: ignore[union-attr]
                      for t in self._turns]
        # call rules: one function for legality and one per rule for the refusal message
        call_full = {**call_p, Ctx.CALL_IS_BID: "call_is_bid", Ctx.CALL_BID: "call_bid"}
        self._call_rules: list[tuple[Rule, Callable[..., bool], Callable[..., bool]]] = []
        for rule, body in g.constructs(K.CallRule):
            assert isinstance(body, K.CallRule)
            self._call_rules.append((rule, self._fn(body.applies, call_full, "applies", tv=True),
                                     self._fn(body.requires, call_full, "requires", tv=True)))
        self._call_ok = self._fn(D.call_legal(g), call_full, "call_ok", tv=True)
        # the legal calls follow from the arguments the legality function reads
        self._calls_key = _picker([k for k, name in enumerate([*call_p.values(), "tv"])
                                   if name in _reads(self._call_ok)])
        self._legal_calls_cache: dict[Any, tuple[Call, ...]] = {}
        proxy = g.constructs(K.ProxyCall)
        self._proxy_rule = proxy[0][0] if proxy else None
        self._proxy_counts = bool(proxy and proxy[0][1].counts_for_partner)  # type: ignore[attr-defined]
        self._proxy_when = (self._fn(proxy[0][1].when, call_p, "proxy", tv=True)  # type: ignore[attr-defined]
                            if proxy else None)
        self.ladder = g.ladder
        self._calls = tuple(Call(b) for b in g.ladder)
        self._trump_of = tuple(suit_code(b.strain) for b in g.ladder)
        # cards set aside after an auction stage
        self._set_aside: dict[int, tuple[K.SetAside, Callable[..., bool]]] = {}
        self._set_aside_rule: dict[int, Rule] = {}
        for rule, body in g.constructs(K.SetAside):
            assert isinstance(body, K.SetAside)
            self._set_aside[body.stage] = (body, self._fn(body.when, call_p, "set_aside", tv=True))
            self._set_aside_rule[body.stage] = rule
        self.trump_from_aside = any(b.names_trump for b, _f in self._set_aside.values())
        status_p = _params(_STATUS_CTX)
        returns = [self._fn(b.returns_when, status_p, "returns", tv=True, dealt=True)
                   for b, _f in self._set_aside.values()]
        self._aside_returns = returns[0] if returns else None
        sits = g.constructs(K.SitsOut)
        self._sits_rule = sits[0][0] if sits else None
        self._sits_out = ((self._fn(sits[0][1].when, status_p, "sits_out", tv=True, dealt=True),  # type: ignore[attr-defined]
                           self._fn(sits[0][1].seat, status_p, "sitter", tv=True, dealt=True))  # type: ignore[attr-defined]
                          if sits else None)
        # play rules
        play_p = _params(_PLAY_CTX)
        self._play_param_names = (*play_p.values(), "tv", "dealt")
        self._legal = self._fn(D.legal_cards(g), play_p, "legal_cards", tv=True, dealt=True)
        self._play_rules: list[tuple[Rule, Callable[..., bool], Callable[..., int]]] = []
        for rule, body in g.constructs(K.PlayRule):
            assert isinstance(body, K.PlayRule)
            self._play_rules.append((rule, self._fn(body.applies, play_p, "applies", tv=True, dealt=True),
                                     self._fn(body.permits, play_p, "permits", tv=True, dealt=True)))
        down = g.constructs(K.FaceDown)
        self._face_down = (self._fn(D.face_down(g), {**play_p, Ctx.CARD: "card",
                                                     Ctx.DECLARED: "declared"},
                                    "face_down", tv=True, dealt=True)
                           if down else None)
        trick_p = _trick_params(self.n)
        self._revealed = (self._fn(down[0][1].revealed_when, trick_p, "revealed", tv=True)  # type: ignore[attr-defined]
                          if down else None)
        self._seen_by = (self._fn(down[0][1].seen_by, status_p, "seen_by", tv=True, dealt=True)  # type: ignore[attr-defined]
                         if down else None)
        self._aside_rule = (g.constructs(K.PlayableAside) or [(None, None)])[0][0]
        self._face_down_rule = down[0][0] if down else None
        self._updates: list[tuple[Rule, Callable[..., bool],
                                  tuple[tuple[int, Callable[..., Any]], ...]]] = []
        for rule, body in g.constructs(K.Update):
            assert isinstance(body, K.Update)
            self._updates.append((
                rule, self._fn(body.when, trick_p, "update", tv=True),
                tuple((self.tracked_index[name], self._fn(value, trick_p, "value", tv=True))
                      for name, value in body.sets)))
        # announcements
        self._announce: dict[Scope, list[tuple[Rule, K.Announce, Declare, Callable[..., bool],
                                               Callable[..., bool] | None,
                                               tuple[tuple[int, Callable[..., Any]], ...]]]] = {
            Scope.CALL: [], Scope.PLAY: []}
        for rule, body in g.constructs(K.Announce):
            assert isinstance(body, K.Announce)
            p = call_p if body.scope is Scope.CALL else play_p
            dealt = body.scope is Scope.PLAY
            self._announce[body.scope].append((
                rule, body, Declare(body.name),
                self._fn(body.when, p, "announce", tv=True, dealt=dealt),
                (self._fn(body.required, p, "required", tv=True, dealt=dealt)
                 if body.required is not None else None),
                tuple((self.tracked_index[name], self._fn(value, p, "value", tv=True, dealt=dealt))
                      for name, value in body.sets)))
        decide = g.constructs(K.Decide)
        self._decide: tuple[Rule, Callable[..., int],
                            tuple[tuple[Declare, Callable[..., bool],
                                        tuple[tuple[int, Callable[..., Any]], ...]], ...]] | None = None
        if decide:
            rule, body = decide[0]
            assert isinstance(body, K.Decide)
            self._decide = (rule, self._fn(body.by, status_p, "decider", tv=True, dealt=True), tuple(
                (Declare(o.name), self._fn(o.when, status_p, "option", tv=True, dealt=True),
                 tuple((self.tracked_index[n], self._fn(v, status_p, "value", tv=True, dealt=True))
                       for n, v in o.sets))
                for o in body.options))
        take = g.constructs(K.TakeTalon)
        self._take_talon: tuple[Rule, Callable[..., bool], int] | None = None
        if take:
            rule, body = take[0]
            assert isinstance(body, K.TakeTalon)
            self._take_talon = (rule, self._fn(body.when, status_p, "take_talon", tv=True, dealt=True),
                                body.discards)
        self._voids = tuple((self._fn(b.when, status_p, "void", tv=True, dealt=True),  # type: ignore[attr-defined]
                             b.redeal_steps, r)  # type: ignore[attr-defined]
                            for r, b in g.constructs(K.VoidWhen))
        self.announcement_names = tuple(b.name for _r, b in g.constructs(K.Announce)) + (
            ("partner",) if proxy else ()) + (
            tuple(d.name for d, _w, _s in self._decide[2]) if self._decide else ())
        self._declares = {d.name: d for lst in self._announce.values() for _r, _b, d, *_ in lst}
        for d, _w, _s in (self._decide[2] if self._decide else ()):
            self._declares[d.name] = d
        if proxy:
            self._declares["partner"] = Declare("partner")
        play_card_p = {**play_p, Ctx.CARD: "card", Ctx.DECLARED: "declared"}
        self._needs_decl = self._fn(D.needs_declaration(g), play_card_p, "needs_declaration",
                                    tv=True, dealt=True)
        self._decl_choices = D.declaration_choices(g)
        self._name_rules = tuple(r for r, _b in g.constructs(K.NameSuit))
        self._decl_rules: list[tuple[Rule, Callable[..., bool], Callable[..., bool]]] = []
        for rule, body in g.constructs(K.DeclarationRule):
            assert isinstance(body, K.DeclarationRule)
            self._decl_rules.append((
                rule, self._fn(body.applies, play_card_p, "applies", tv=True, dealt=True),
                self._fn(body.requires, play_card_p, "requires", tv=True, dealt=True)))
        entry_p = _params(_ENTRY_CTX)
        self._entry_suit = self._fn(D.entry_suit(g), entry_p, "entry_suit")
        self._strength = self._fn(D.strength(g), entry_p, "strength")
        # scoring
        outcome = _OUTCOME_PARAMS
        self._score = self._fn(D.score(g, Ref(Ctx.SEAT)), outcome, "score", tv=True, dealt=True,
                               won=True, taken=True)
        self._points = self._fn(D.points_won(g, Ref(Ctx.SEAT)),
                                {Ctx.SEAT: "seat", Ctx.CONTRACT: "contract"}, "points",
                                won=True, taken=True)
        # a score sheet with several lines: one function per line, the score their sum
        self.lines = D.score_lines(g)
        self._line_scores = (tuple(self._fn(D.score(g, Ref(Ctx.SEAT), line), outcome, "line",
                                            tv=True, dealt=True, won=True, taken=True)
                                   for line in self.lines) if len(self.lines) > 1 else ())
        self._items: tuple[tuple[Rule, Callable[..., int]], ...] | None = None
        redeal = g.constructs(K.RedealIfNoBid)
        self._redeal_steps = redeal[0][1].steps if redeal else None  # type: ignore[attr-defined]
        self._plays = {
            (i, NO_SUIT): Play(c) for i, c in enumerate(g.deck)
        }
        for i, c in enumerate(g.deck):
            for code in self._decl_choices:
                self._plays[(i, code)] = Play(c, suit_from_code(code))
        self._lays = tuple(Lay(c) for c in g.deck)
        # The actions legal_actions hands out are these pre-built objects.  Keyed by identity,
        # they give their card number, named suit and a bit of their own (or their bid
        # number) without searching the deck or the ladder; any other equal action takes
        # the longer way to the same result.
        self._play_codes = {id(p): (p, i, code, 1 << k)
                            for k, ((i, code), p) in enumerate(self._plays.items())}
        first_index: dict[Bid, int] = {}
        for b, bid in enumerate(self.ladder):
            first_index.setdefault(bid, b)
        self._call_numbers = {id(c): (c, first_index[bid])
                              for c, bid in zip(self._calls, self.ladder)}
        self._call_numbers[id(PASS)] = (PASS, -1)
        # The legal plays follow from the legal mask and the arguments the declaration rules
        # read, so positions that agree on those share one entry (most hands never name).
        decl_reads = _reads(self._needs_decl).union(
            *(_reads(f) for _r, app, req in self._decl_rules for f in (app, req)))
        self._plays_key = _picker([k for k, name in enumerate(self._play_param_names)
                                   if name in decl_reads])
        self._plays_cache: dict[tuple[int, Any], tuple[tuple[Play, ...], int]] = {}
        self._card_plays: dict[Any, list[tuple[tuple[Play, ...], int] | None]] = {}
        # (state, play arguments, legal mask, legal plays or None, their bits) of the state
        # asked about last: a bot lists the legal plays, then applies one to the same state.
        self._last_play: tuple[State | None, tuple[Any, ...], int, tuple[Play, ...] | None,
                               int] = (None, (), 0, None, 0)
        self._plain_play = not (self._announce[Scope.PLAY] or self._set_aside or self._updates
                                or self._face_down or self._sits_out or self._voids)
        self._deal_seats: dict[tuple[int, int], tuple[int, ...]] = {}
        self._trick_seats: dict[tuple[int, int], tuple[int, ...]] = {}
        # every field of a new deal but the deal itself, for start() to fill in
        self._before_deal = State(engine=self, phase=Phase.AUCTION, dealer=0, seed=0, redeals=0,
                                  dealt=(), hands=(), turn=0, won=(0,) * self.n,
                                  seat_calls=(0,) * self.n, aside=(0,) * self.n,
                                  tracked=self._tracked_initial, taken=(0,) * self.n,
                                  pending=(0,) * self.n)

    def _initial(self, track: K.Track) -> Any:
        v = track.initial
        if track.type is T.SUIT:
            return suit_code(v)  # type: ignore[arg-type]
        return int(v) if not isinstance(v, bool) else v  # type: ignore[call-overload]

    def _fn(self, expr: Any, params: dict[Any, str], name: str, *, tv: bool = False,
            dealt: bool = False, won: bool = False, taken: bool = False) -> Callable[..., Any]:
        """Compile ``expr`` to a function of ``params`` and the named state tables, in order
        ``tv``, ``dealt``, ``won``, ``taken``."""
        params = dict(params)
        extra: dict[Any, str] = {}
        if tv:
            params[("param", "tv")] = "tv"
            extra.update(self._tracked_env)
        if dealt:
            params[("param", "dealt")] = "dealt"
            extra[DealtHand] = "dealt[{seat}]"
        if won:
            params[("param", "won")] = "won"
            extra[WonTrick] = "((won[{seat}] >> ({number})) & 1 == 1)"
            extra[TricksWon] = "won[{seat}].bit_count()"
        if taken:
            params[("param", "taken")] = "taken"
            extra[Taken] = "taken[{seat}]"
        return compile_function(self.game, self.tables, expr, params, extra_env=extra, name=name)
