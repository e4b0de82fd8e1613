"""A game's rules compiled to Python functions, each in its scope's named environment."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Bid, Game, Rule, suit_code, suit_from_code
from spec.dsl._nodes import NO_SUIT, Ctx, Ref, Scope, T
from spec.dsl._program import Audience, Seen
from spec.dsl._pycompile import GameTables
from spec.engine._env import Env, ScopeEnvs
from spec.engine._plays import keyed_decoder, plain_decoder
from spec.engine._state import (
    ASK_PARTNER,
    PASS,
    Action,
    Call,
    Declare,
    Discard,
    Lay,
    Phase,
    Play,
    State,
)
from spec.seats import Table, seat_after, seats_from

# entries kept in each of the engine's caches of legal actions before it starts afresh
_CACHE_SIZE = 4096

Fn = Callable[..., Any]
# what a tracked value becomes: (its index in the state's ``tracked``, its new value)
Sets = tuple[tuple[int, Fn], ...]


def _seat_update(n: int, seat: int, op: str) -> Callable[[tuple[int, ...], int], tuple[int, ...]]:
    """A function (masks, bits) -> masks with ``bits`` set (op ``|``), flipped (op ``^``) or
    cleared (op ``& ~``) at ``seat``; or (counts, k) -> counts with ``k`` added at ``seat``
    (op ``+``)."""
    items = ", ".join(f"m[{k}] {op} bit" if k == seat else f"m[{k}]" for k in range(n))
    ns: dict[str, Any] = {}
    exec(f"def without(m, bit):\n    return ({items},)\n", ns)  # noqa: S102  # generated from the number of seats
    return ns["without"]  # type: ignore[no-any-return]


def _generated_key(name: str, params: tuple[str, ...], reads: set[str]) -> Callable[..., Any]:
    """A function of ``params`` returning those of them in ``reads``, as a tuple (a key
    of the values a rule's result depends on)."""
    key = "".join(f"{p}, " for p in params if p in reads)
    ns: dict[str, Any] = {}
    exec(f"def {name}({', '.join(params)}):\n    return ({key})\n", ns)  # noqa: S102  # generated from parameter names
    return ns[name]  # type: ignore[no-any-return]


def _scores_fn(n: int, score: Fn, lines: tuple[Fn, ...]) -> Callable[[Any], Any]:
    """``final_scores(o)``: each seat's score, and its score on each line of the sheet
    (when there are several, the score their sum), for the finished deal ``o`` (a state,
    or anything with its fields); one function with the seats and lines written out."""
    if not lines:
        scores = "".join(f"score({k}, o), " for k in range(n))
        src = ["def final_scores(o):", f"    return ({scores}), ()"]
    else:
        src = ["def final_scores(o):"]
        for j in range(len(lines)):
            src.append(f"    L{j} = ({''.join(f'line{j}({k}, o), ' for k in range(n))})")
        sums = ("0 + " + " + ".join(f"L{j}[{k}]" for j in range(len(lines))) for k in range(n))
        rows = "".join(f"L{j}, " for j in range(len(lines)))
        src.append(f"    return ({''.join(f'{total}, ' for total in sums)}), ({rows})")
    ns: dict[str, Any] = {"score": score, **{f"line{j}": fn for j, fn in enumerate(lines)}}
    exec("\n".join(src) + "\n", ns)  # noqa: S102  # generated from the number of seats and lines
    return ns["final_scores"]  # type: ignore[no-any-return]


def _unbuilt(*_args: Any) -> None:  # pragma: no cover - replaced as the engine is built
    raise AssertionError("the play's handler is generated once the engine is built")


class CompiledRules:
    """A game's rules compiled to Python functions, once per game: the part of the
    engine every phase reads.  Each function takes its scope's inputs (mostly the state)
    and reads what it needs by name (see :mod:`spec.engine._env`)."""

    # long: one compiled table per kind of rule, each a few lines, read top to bottom
    def __init__(self, game: Game) -> None:
        self.game = g = game
        self.table: Table = game.table
        self.n = game.players
        self.tables = GameTables(game)
        self.tracked_names = tuple(g.tracked)
        self.tracked_index = {name: i for i, name in enumerate(self.tracked_names)}
        self._tracked_initial = tuple(self._initial(t) for t in g.tracked.values())
        self.envs = E = ScopeEnvs(game, self.tracked_names)
        self.stages = g.stages
        self._match_fns: dict[Any, Fn] = {}
        self._deals = [g.stage_rule(K.DealPackets, k) for k in range(1, self.stages + 1)]
        # the course of the deal, as its steps state it: a round of calls in each dealing
        # stage, then the play of the cards
        program = g.program
        assert {s.stage for s in g.steps if s.action == "call"} >= set(range(1, self.stages + 1))
        assert any(s.phase == Phase.PLAY.value for s in g.steps)
        self.packets = tuple(p for d in self._deals for p in d.packets)  # type: ignore[union-attr]
        self._deal_first = [self._fn(E.deal_first, d.first, "deal_first")  # type: ignore[union-attr]
                            for d in self._deals]
        # call rules: one function for legality and one per rule for the refusal message
        self._call_rules: list[tuple[Rule, Fn, Fn]] = []
        for rule, applies, requires in D.call_rules(g):
            self._call_rules.append((rule, self._fn(E.call_made, applies, "applies"),
                                     self._fn(E.call_made, requires, "requires")))
        self._call_ok = self._fn(E.call_made, D.call_legal(g), "call_ok")
        # the legal calls follow from the values the legality function reads
        self._calls_key = self._reader(E.call, self._call_ok.reads, "calls_key")
        self._legal_calls_cache: dict[Any, tuple[tuple[Call, ...], int]] = {}
        proxy = g.constructs(K.ProxyCall)
        self._proxy_rule = proxy[0][0] if proxy else None
        self._partner_of = tuple(self.table.partner(seat) for seat in range(self.n))
        self._proxy_when = (self._fn(E.call, proxy[0][1].when, "proxy")  # type: ignore[attr-defined]
                            if proxy else None)
        self.ladder = g.ladder
        # sides formed during the deal: the bids several seats may declare, and the
        # declarer's partner as the auction ends
        self._joinable = g.joinable_bids if g.program.joinable else None
        joins = g.constructs(K.SameBidJoins)
        self._join_rule = joins[0][0] if joins else None
        self._acceptable = g.acceptable_bids if g.program.partner_by_call else None
        # the cards that make the partner, where the cards dealt make him: he shows himself
        # by playing one (read by the views)
        cards = D.partner_cards(g)
        self.partner_cards = (self._fn(E.status, cards, "partner_cards")
                              if cards is not None else None)
        self._calls = tuple(Call(b) for b in g.ladder)
        self._trump_of = g.strain_codes
        self._turn_up_at = g.program.turn_up
        # the seat that cuts the pack, where a rule names one (read in a deal's state)
        self._cut_by = (self._fn(E.status, g.program.cut_by, "cut_by")
                        if g.program.cut_by is not None else None)
        # cards set aside after an auction stage: the rules that open the steps laying them,
        # in the order of the steps
        self._set_aside = tuple(body for s in g.steps if s.opened_by is not None
                                and isinstance(body := g.rule(s.opened_by).body, K.SetAside))
        self.trump_from_aside = any(b.names_trump for b in self._set_aside)
        # who sees each kind of card, as the program's sights say (the views read it)
        self.audience: dict[Seen, Audience] = {x.seen: x.by for x in program.sights}
        # the rule of the first stage that sets cards aside says when they go back (the Z3
        # unrolling reads the same one)
        returns = [b.returns_when for b in self._set_aside]
        self._aside_returns_when = returns[0] if returns else None
        self._aside_returns = self._fn(E.status, returns[0], "returns") if returns else None
        # play rules
        self._legal = self._fn(E.play, D.legal_cards(g), "legal_cards")
        self._legal_fast = self._fn(E.play_fast, D.legal_cards(g), "legal_cards")
        self._play_rules: list[tuple[Rule, Fn, Fn]] = []
        for rule, body in g.constructs(K.PlayRule):
            assert isinstance(body, K.PlayRule)
            self._play_rules.append((rule, self._fn(E.play, body.applies, "applies"),
                                     self._fn(E.play, body.permits, "permits")))
        down = g.constructs(K.FaceDown)
        self._seen_by = (self._fn(E.status, down[0][1].seen_by, "seen_by")  # type: ignore[attr-defined]
                         if down else None)
        self._aside_rule = (g.constructs(K.PlayableAside) or [(None, None)])[0][0]
        self._compile_announcements()
        self._needs_decl = self._fn(E.play_card, D.needs_declaration(g), "needs_declaration")
        self._decl_choices = D.declaration_choices(g)
        self._name_rules = tuple(r for r, _b in g.constructs(K.NameSuit))
        self._decl_rules: list[tuple[Rule, Fn, Fn]] = []
        for rule, body in g.constructs(K.DeclarationRule):
            assert isinstance(body, K.DeclarationRule)
            self._decl_rules.append((rule, self._fn(E.play_card, body.applies, "applies"),
                                     self._fn(E.play_card, body.requires, "requires")))
        self._entry_suit = self._fn(E.entry, D.entry_suit(g), "entry_suit")
        self._best = E.entry.compile_best(g, self.tables, D.strength(g), "best_position")
        # one card's strength, as the best position judges each card
        self._strength = self._fn(E.entry, D.strength(g), "strength")
        # where a card's strength reads neither its position nor a named suit, the
        # strengths of the whole deck follow from the led suit, trumps, trick number and
        # contract it reads: one table for each value of those (see Tricks.beating)
        reads = set(E.entry._closure(self._strength.reads))  # type: ignore[attr-defined]  # compiled, with its reads
        self._strength_key: Fn | None = None
        if not reads & {"position", "declared"}:
            self._strength_key = _generated_key(
                "strength_key", ("led_suit", "trump", "trick_number", "contract"), reads)
        self._strength_tables: dict[Any, tuple[tuple[Any, ...], dict[Any, int]]] = {}
        # scoring: a sheet with several lines has one function per line, the score their sum
        # (their expressions repeat whole parts: computed once)
        self._score = self._fn(E.outcome, D.score(g, Ref(Ctx.SEAT)), "score", shared=True)
        self._points = self._fn(E.points, D.points_won(g, Ref(Ctx.SEAT)), "points", shared=True)
        self.lines = D.score_lines(g)
        self._line_scores = (tuple(self._fn(E.outcome, D.score(g, Ref(Ctx.SEAT), line), "line",
                                            shared=True)
                                   for line in self.lines) if len(self.lines) > 1 else ())
        self._final_scores = _scores_fn(self.n, self._score, self._line_scores)
        self._items: tuple[tuple[Rule, Fn], ...] | None = None
        redeal = g.constructs(K.RedealIfNoBid)
        self._redeal_steps = redeal[0][1].steps if redeal else None  # type: ignore[attr-defined]
        # seat -> the seat after it; seat -> (masks, bits) -> the masks, those bits flipped
        # or set in that seat's (tuple(...) from a list costs more than one tuple display)
        self._next_seat = tuple(seat_after(seat, self.n) for seat in range(self.n))
        # leader -> the seats of a trick in order of play (nobody sitting out)
        self._plain_seats = tuple(seats_from(lead, self.n) for lead in range(self.n))
        self._without = tuple(_seat_update(self.n, seat, "^") for seat in range(self.n))
        self._with_bits = tuple(_seat_update(self.n, seat, "|") for seat in range(self.n))
        self._less_at = tuple(_seat_update(self.n, seat, "& ~") for seat in range(self.n))
        self._plus = tuple(_seat_update(self.n, seat, "+") for seat in range(self.n))
        self._deal_seats: dict[tuple[int, int], tuple[int, ...]] = {}
        # (kind, stage) of a phase of the deal program -> the steps after it (see Course)
        self._later: dict[Any, tuple[Any, ...]] = {}
        self._dealt_ok: set[int] = set()  # dealers whose deal schedule gives hands that pass
        self._trick_seats: dict[tuple[int, int], tuple[int, ...]] = {}
        self._seats_among: dict[tuple[int, int], tuple[int, ...]] = {}
        self._seats_in_order: dict[tuple[int, tuple[int, ...], int], tuple[int, ...]] = {}
        self._prebuild_actions()
        # a pot carried from deal to deal: what the players' antes put in
        pots = g.constructs(K.Pot)
        self.pot_rule = pots[0][1] if pots else None
        self.full_pot = self.pot_rule.ante * self.n if self.pot_rule is not None else 0  # type: ignore[attr-defined]
        # every field of a new deal but the deal itself, for start() to fill in
        self._before_deal = State(engine=self, phase=Phase.AUCTION, dealer=0, seed=0, redeals=0,  # type: ignore[arg-type]
                                  dealt=(), hands=(), turn=0, won=(0,) * self.n,
                                  seat_calls=(0,) * self.n, aside=(0,) * self.n,
                                  tracked=self._tracked_initial, taken=(0,) * self.n,
                                  pending=(0,) * self.n, pot=self.full_pot)

    def _compile_announcements(self) -> None:
        g, E = self.game, self.envs
        self._announce: dict[Scope, list[tuple[Rule, K.Announce, Declare, Fn, Fn | None, Sets]]] = {
            Scope.CALL: [], Scope.PLAY: []}
        for rule, body in g.constructs(K.Announce):
            assert isinstance(body, K.Announce)
            env = E.call if body.scope is Scope.CALL else E.play
            self._announce[body.scope].append((
                rule, body, Declare(body.name), self._fn(env, body.when, "announce"),
                self._fn(env, body.required, "required") if body.required is not None else None,
                self._sets(env, body.sets)))
        self._call_announce, self._play_announce = self._announce[Scope.CALL], self._announce[Scope.PLAY]
        # the phases of choices and exchanges, from the program: who acts, and when the
        # phase takes place; what is particular to each from the rule that opens it
        program = g.program
        # the choices among named options, as their steps say: the action of each option,
        # by the step's number and the option's name (what they do is generated from the
        # steps once the engine is built: see Course); the options of a Decide rule are
        # also announcements, by name
        self._option_declares = {(i, c.name): Declare(c.name)
                                 for i, s in enumerate(g.steps) for c in s.options}
        decides = {r.id for r, _b in g.constructs(K.Decide)}
        self._decide: tuple[Rule, tuple[Declare, ...]] | None = next(
            ((g.rule(s.opened_by), tuple(self._option_declares[(i, c.name)] for c in s.options))  # type: ignore[arg-type]
             for i, s in enumerate(g.steps) if s.options and s.opened_by in decides), None)
        # a seat idle for the deal (read from the dealer)
        self._idle_of: Fn | None = (self._fn(E.deal_first, program.idle, "idle_seat")
                                    if program.idle is not None else None)
        self._voids = tuple((self._fn(E.status, b.when, "void"), b.redeal_steps, r)  # type: ignore[attr-defined]
                            for r, b in g.constructs(K.VoidWhen))
        # before the auction has left a contract only the conditions that read none of it
        # (the contract, its declarer, his partner, trumps) can hold
        self._voids_before_contract = tuple(
            v for v, (_r, b) in zip(self._voids, g.constructs(K.VoidWhen))
            if not D.reads_contract(b.when))  # type: ignore[attr-defined]
        # hands laid open: (rule, after which trick, on what condition, whose)
        # (each declarer's, one by one, for a rule that lays every declarer's hand open)
        self._lay_open = tuple((r, b.after_trick, self._fn(E.status, when, "lay_open"),  # type: ignore[attr-defined]
                                self._fn(E.status, seat, "opener"))
                               for r, b in g.constructs(K.LayOpen)
                               for when, seat in D.lay_open_cases(g, b))  # type: ignore[arg-type]
        proxy = bool(g.constructs(K.ProxyCall))
        self.announcement_names = tuple(b.name for _r, b in g.constructs(K.Announce)) + (
            ("partner",) if proxy else ()) + (
            tuple(d.name for d in self._decide[1]) if self._decide else ())
        # the announcements a seat may make in the auction and in the play, by name: where
        # a name means an announcement, and where the same word is a call or a choice
        self.announcements_in = {
            Phase.AUCTION: {b.name for _r, b in g.constructs(K.Announce)
                            if b.scope is Scope.CALL} | ({"partner"} if proxy else set()),  # type: ignore[attr-defined]
            Phase.PLAY: {b.name for _r, b in g.constructs(K.Announce) if b.scope is Scope.PLAY}}  # type: ignore[attr-defined]
        self._declares = {d.name: d for lst in self._announce.values() for _r, _b, d, *_ in lst}
        for d in (self._decide[1] if self._decide else ()):
            self._declares[d.name] = d
        if proxy:
            self._declares[ASK_PARTNER.name] = ASK_PARTNER

    def _number_actions(self) -> None:
        """Every action of the game, numbered by its bit (``action_table[k]`` has bit
        ``k``): a numbering fixed by the rules, the same in every deal.  An action two
        steps share keeps the lower number in ``action_number``."""
        by_bit = sorted(self._known.values(), key=lambda v: v[1])
        self.action_table: tuple[Action, ...] = tuple(a for a, _b, _f, _g in by_bit)
        self.action_number: dict[Action, int] = {}
        for action, b, _fn, _arg in by_bit:
            self.action_number.setdefault(action, b.bit_length() - 1)

    def _prebuild_actions(self) -> None:
        """The action objects legal_actions hands out, each with a bit of its own.

        Keyed by identity, each gives its bit, the handler that applies it and what the
        handler needs (card number and named suit, bid number ...) without searching the
        deck or the ladder.  A play of card ``i`` naming no suit has bit ``i``, so the bits
        of a game's plain legal plays are its mask of legal cards.
        """
        deck = self.game.deck
        self._plays = {(i, NO_SUIT): Play(c) for i, c in enumerate(deck)}
        for i, c in enumerate(deck):
            for code in self._decl_choices:
                self._plays[(i, code)] = Play(c, suit_from_code(code))
        self._lays = tuple(Lay(c) for c in deck)
        known: dict[int, tuple[Action, int, Fn, Any]] = {}
        bit = 0
        on_play = _unbuilt  # a card played: generated from the play step (see Engine)
        for (i, code), p in self._plays.items():
            known[id(p)] = (p, 1 << bit, on_play, (i, code))
            bit += 1
        first_index: dict[Bid, int] = {}
        for b, bid in enumerate(self.ladder):
            first_index.setdefault(bid, b)
        for c, b in [(PASS, -1), *((c, first_index[c.bid]) for c in self._calls)]:  # type: ignore[index]
            known[id(c)] = (c, 1 << bit, self._do_call, b)  # type: ignore[attr-defined]
            bit += 1
        self._lay_shift = bit
        for i, lay in enumerate(self._lays):
            known[id(lay)] = (lay, 1 << (bit + i), self._do_card, i)  # type: ignore[attr-defined]
        bit += len(self._lays)
        self._discards = tuple(Discard(c) for c in deck)
        self._discard_shift = bit
        for i, discard in enumerate(self._discards):
            known[id(discard)] = (discard, 1 << (bit + i), self._do_card, i)  # type: ignore[attr-defined]
        bit += len(self._discards)
        # the actions of each kind of card step, by card number, and where their bits begin
        self._card_table = {"lay": self._lays, "discard": self._discards}
        self._card_shift = {"lay": self._lay_shift, "discard": self._discard_shift}
        for d in {id(d): d for d in self._all_declares()}.values():
            known[id(d)] = (d, 1 << bit, self._do_declare, None)  # type: ignore[attr-defined]
            bit += 1
        for d in self._option_declares.values():  # an option of a choice step
            if id(d) not in known:
                known[id(d)] = (d, 1 << bit, self._do_choice, None)  # type: ignore[attr-defined]
                bit += 1
            known[id(d)] = (d, known[id(d)][1], self._do_choice, None)  # type: ignore[attr-defined]
        self._known = known
        self._number_actions()
        self._call_bits = tuple(known[id(c)][1] for c in self._calls)
        self._pass_bit = known[id(PASS)][1]
        # The legal plays follow from the legal mask and the values the declaration rules
        # read, so positions that agree on those share one entry (most hands never name).
        self._decl_reads = decl_reads = self._needs_decl.reads.union(
            *(f.reads for _r, app, req in self._decl_rules for f in (app, req)))
        self._plays_key = self._reader(self.envs.play, decl_reads, "plays_key")
        # Where no declaration rule reads the state and no card names a suit, each legal
        # card is one play, and a mask of legal cards decodes straight to its plays (whose
        # bits are the mask).  Elsewhere there is a decoder for each value of what the
        # declaration rules read (whether the card leads, say).
        deck_size, suits = len(self.game.deck), self.tables.ns["_SUIT"]
        plain = [self._plays[(i, NO_SUIT)] for i in range(deck_size)]
        self._plays_of: Callable[[int], tuple[Play, ...]] | None = None
        if not decl_reads and all(self._card_plays_for(None, i)[0] == (p,)  # type: ignore[attr-defined]
                                  for i, p in enumerate(plain)):
            self._plays_of = plain_decoder(plain, suits)
        self._decoders: dict[Any, Callable[[int, Any], tuple[tuple[Play, ...], int]]] = {}
        self._plain_cards = tuple(plain)
        # what the declaration rules read (the key of _plays_key, in the fast play) -> the cards known to
        # be played naming no suit there: for those the fast play needs no decoder
        self._plain_by_key: dict[Any, int] = {}
        self._new_decoder = lambda: keyed_decoder(self._card_plays_for, deck_size, suits)  # type: ignore[attr-defined]
        # the state legal_actions was asked about last, its legal actions and their bits: a
        # bot lists the legal actions, then applies one of them to the same state
        self._last: tuple[State | None, tuple[Action, ...], int] = (None, (), 0)

    def _all_declares(self) -> list[Declare]:
        out = [d for lst in self._announce.values() for _r, _b, d, *_ in lst]
        out += list(self._decide[1] if self._decide else ())
        return out + list(self._declares.values())

    def _initial(self, track: K.Track) -> Any:
        v = track.initial
        if track.type is T.SUIT:
            return suit_code(v)  # type: ignore[arg-type]
        return int(v) if not isinstance(v, bool) else v  # type: ignore[call-overload]

    def _fn(self, env: Env, expr: Any, name: str, shared: bool = False) -> Fn:
        """``expr`` compiled in ``env``: a function of the environment's inputs and extras."""
        return env.compile(self.game, self.tables, expr, name, shared)

    def _reader(self, env: Env, names: Any, name: str) -> Fn:
        """A function of ``env``'s inputs returning the values of ``names`` (a cache key)."""
        return env.reader(self.game, self.tables, names, name)

    def _sets(self, env: Env, sets: Any) -> Sets:
        return tuple((self.tracked_index[name], self._fn(env, value, "value")) for name, value in sets)
