"""The static checks of a game: everything an author can get wrong, refused when the
game is built with a :class:`~spec.errors.SpecDefinitionError` naming the rule id and
``file:line``.

:class:`~spec.dsl._build.Game` runs them from its constructor; they are mixins of it,
one for the equipment and the course of a deal, one for what the rules read.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from spec.dsl import _constructs as K
from spec.dsl._nodes import (
    Announcing,
    Awarded,
    CallerOf,
    Certain,
    Ctx,
    DealtHand,
    Dropped,
    EachDeclarer,
    EachSeat,
    Expr,
    Idle,
    Invited,
    IsDeclarer,
    LeaderOf,
    LedTo,
    MayAnnounce,
    PlayedTo,
    Receives,
    Ref,
    Scope,
    ScoreOf,
    SrcLoc,
    T,
    Taken,
    Tracked,
    TrackedAfter,
    Var,
    WinnerOf,
    WithDealt,
    WonTrick,
    walk,
)

if TYPE_CHECKING:
    from spec.dsl._build import Bid, Property, Rule, Variant
    from spec.dsl._program import DealProgram
    from spec.errors import SpecDefinitionError

_TRACKED_SCOPES = (Scope.CALL, Scope.PLAY, Scope.TRICK, Scope.OUTCOME, Scope.STATUS, Scope.DEAL)
_NODE_SCOPES: dict[type, tuple[Scope, ...]] = {
    DealtHand: (Scope.PLAY, Scope.OUTCOME, Scope.STATUS),
    Taken: (Scope.OUTCOME,),
    Awarded: (Scope.OUTCOME,),
    WithDealt: (Scope.OUTCOME,),
    PlayedTo: (Scope.HISTORY,),
    LedTo: (Scope.HISTORY,),
    LeaderOf: (Scope.HISTORY,),
    WinnerOf: (Scope.HISTORY,),
    CallerOf: (Scope.HISTORY,),
    Receives: (Scope.DEAL,),
    Idle: (Scope.PLAY, Scope.TRICK, Scope.OUTCOME, Scope.STATUS),
    Dropped: (Scope.PLAY, Scope.TRICK, Scope.OUTCOME, Scope.STATUS),
    Invited: (Scope.PLAY, Scope.TRICK, Scope.OUTCOME, Scope.STATUS),
    IsDeclarer: (Scope.PLAY, Scope.TRICK, Scope.OUTCOME, Scope.STATUS),
    EachDeclarer: (Scope.OUTCOME,),
    EachSeat: (Scope.OUTCOME,),
    Certain: (Scope.PLAY,),
}


class _GameRead:
    """What the checks read of the game being built (:class:`~spec.dsl._build.Game` has
    each; declared here for the type checker only)."""

    if TYPE_CHECKING:
        name: str
        rules: tuple[Rule, ...]
        variants: tuple[Variant, ...]
        properties: tuple[Property, ...]
        active_variants: tuple[str, ...]
        _lines: tuple[str, ...]

        def _fail(self, msg: str, rule: Rule | None = None, loc: SrcLoc | None = None,
                  rule_id: str | None = None) -> SpecDefinitionError: ...

        def constructs(self, kind: type[K.Construct]) -> tuple[tuple[Rule, K.Construct], ...]: ...

        def rules_with(self, *kinds: type[K.Construct]
                       ) -> tuple[tuple[Rule, K.Construct], ...]: ...

        @property
        def players(self) -> int: ...

        @property
        def tricks(self) -> int: ...

        @property
        def program(self) -> DealProgram: ...

        @property
        def ladder(self) -> tuple[Bid, ...]: ...

        @property
        def tracked(self) -> dict[str, K.Track]: ...

        @property
        def joinable_bids(self) -> tuple[bool, ...]: ...

        @property
        def acceptable_bids(self) -> tuple[bool, ...]: ...

        @property
        def bid_keys(self) -> tuple[int, ...]: ...


class SetupChecks(_GameRead):
    """The checks of the equipment, the pot, the turn-up, the sets of seats, the score
    sheet and the stages of the deal."""

    def _check_pot(self) -> None:
        for rule, body in self.constructs(K.Pot):
            assert isinstance(body, K.Pot)
            if not (isinstance(body.ante, int) and isinstance(body.granularity, int)
                    and body.ante > 0 and body.granularity > 0):
                raise self._fail(f"a pot needs a positive whole ante and granularity, got "
                                 f"{body.ante!r} and {body.granularity!r}", rule)
            if body.ante * self.players % body.granularity:
                raise self._fail(f"the antes ({self.players} x {body.ante}) must fill the pot with "
                                 f"a multiple of {body.granularity} chips", rule)
            if not self.constructs(K.MatchOf):
                raise self._fail("deals played for a pot need a rule saying how a session is "
                                 "won (MatchOf)", rule)

    def _check_match(self) -> None:
        """A match of a number of deals needs a rule saying who wins it (a match to a
        target is won by reaching it)."""
        for rule, body in self.constructs(K.MatchLength):
            assert isinstance(body, K.MatchLength)
            if not body.allows(body.deals):
                raise self._fail(f"a match of {body.deals} deals, a multiple of "
                                 f"{body.multiple_of}: the length must be a whole, positive "
                                 "multiple", rule)
            if not self.constructs(K.MatchOf) and not self.constructs(K.MatchTarget):
                raise self._fail("a match of a number of deals needs a rule saying who wins "
                                 "it (MatchOf)", rule)

    # long: one check per piece of equipment, a few lines each
    def _check_equipment(self) -> None:
        (seats_rule, seats), = self.constructs(K.Seats)
        assert isinstance(seats, K.Seats)
        if len(seats.names) < 2 or len(set(seats.names)) != len(seats.names):
            raise self._fail(f"seats need two or more distinct names, got {seats.names}", seats_rule)
        for team in seats.partnerships:
            for s in team:
                if not 0 <= s < len(seats.names):
                    raise self._fail(f"partnership names seat {s}, which does not exist", seats_rule)
        (deck_rule, body), = self.constructs(K.DeckIs)
        assert isinstance(body, K.DeckIs)
        deck = body.deck
        dup = deck.duplicates()
        if dup:
            raise self._fail(
                f"duplicate card {dup[0]} in the deck (every card must be distinct)", deck_rule
            )
        idle = self.constructs(K.IdleSeat)
        dealt_seats = len(seats.names) - len(idle)  # an idle seat is dealt no cards
        if idle and dealt_seats < 2:
            raise self._fail(f"with a seat idle in every deal, {dealt_seats} seat is left to "
                             "play (an idle seat needs three seats or more)", idle[0][0])
        # without a talon every card goes to a seat (with one, the deal's check counts it)
        if len(deck) == 0 or (not self.constructs(K.Talon) and len(deck) % dealt_seats):
            raise self._fail(
                f"a deck of {len(deck)} cards does not share out among {dealt_seats} seats"
                + (" (one of the seats is idle)" if idle else ""),
                deck_rule,
            )
        (rank_rule, order), = self.constructs(K.RankOrder)
        assert isinstance(order, K.RankOrder)
        if len(set(order.order)) != len(order.order):
            raise self._fail("a rank appears twice in the rank order", rank_rule)
        missing = sorted({c.rank for c in deck} - set(order.order), key=lambda r: r.value)
        if missing:
            raise self._fail(
                f"the rank order misses {', '.join(r.value for r in missing)}, which the deck has "
                f"(card {next(c for c in deck if c.rank is missing[0])})",
                rank_rule,
            )
        deals = self.constructs(K.DealPackets)
        share = sum(sum(d.packets) for _r, d in deals)  # type: ignore[attr-defined]
        talon = self.constructs(K.Talon)
        table = talon[0][1].cards if talon else 0  # type: ignore[attr-defined]
        if share * dealt_seats + table != len(deck):
            packets = " + ".join(str(d.packets) for _r, d in deals)  # type: ignore[attr-defined]
            raise self._fail(
                f"packets {packets} give {share} cards to each of "
                f"{dealt_seats} seats" + (" (one seat is idle)" if idle else "")
                + (f" and {table} to the talon" if talon else "")
                + f", but the deck has {len(deck)}",
                deals[-1][0],
            )
        for rule, body in talon:
            assert isinstance(body, K.Talon)
            staged = {d.stage: d for _r, d in deals}  # type: ignore[attr-defined]
            if body.cards < 1 or body.stage not in staged or not (
                    0 <= body.after_round <= len(staged[body.stage].packets)):
                raise self._fail(f"a talon of {body.cards} card(s) after round {body.after_round} "
                                 f"of the deal of stage {body.stage}: there is no such round", rule)
        for rule, body in self.constructs(K.TakeTalon):
            assert isinstance(body, K.TakeTalon)
            if not talon:
                raise self._fail("the declarer takes the talon, but no rule deals one (Talon)", rule)
            if not 0 <= body.discards <= share + table:
                raise self._fail(f"the declarer cannot discard {body.discards} cards", rule)
            if body.discards != table:
                raise self._fail(f"the declarer takes {table} cards and discards {body.discards}: "
                                 "his hand would no longer last the play", rule)
        self._check_seat_sets()
        for rule, body in self.constructs(K.GatherAndCut):
            assert isinstance(body, K.GatherAndCut)
            if not 1 <= body.least <= len(deck) // 2:
                raise self._fail(f"a cut leaves at least 1 and at most {len(deck) // 2} cards in "
                                 f"each part of a {len(deck)}-card pack, not {body.least}", rule)
        for rule, body in self.constructs(K.Track):
            assert isinstance(body, K.Track)
            if not re.match(r"^[a-z][a-z0-9_]*$", body.name):
                raise self._fail(f"tracked value name {body.name!r} is not snake_case", rule)
            if [b.name for _r, b in self.constructs(K.Track)].count(body.name) > 1:  # type: ignore[attr-defined]
                raise self._fail(f"tracked value {body.name!r} is declared twice", rule)
            if body.monotone and body.type is not T.BOOL:
                raise self._fail(f"only a condition can be monotone, {body.name} is a "
                                 f"{body.type.value}", rule)
        self._check_turn_up()
        if self.constructs(K.PlayableAside) and not self.constructs(K.SetAside):
            raise self._fail("PlayableAside needs a SetAside rule: no card is ever set aside",
                             self.constructs(K.PlayableAside)[0][0])

    def _check_turn_up(self) -> None:
        """A card turned up is dealt to a seat; trumps read only what the auction fixes; a
        hand is laid open by a seat, after a trick that is not the last."""
        for rule, body in self.constructs(K.TurnUp):
            assert isinstance(body, K.TurnUp)
            layout = self.program.layout(1)
            p = body.position
            if p == 0 or not -len(layout) <= p <= len(layout):
                raise self._fail(f"the deal has {len(layout)} cards before the first auction: "
                                 f"there is no position {p} (from 1 at the top, or -1 for the "
                                 "last)", rule)
            if self.constructs(K.SetAside):
                raise self._fail("a card turned up with cards laid aside is not supported yet: "
                                 "the verifier assumes the turn-up stays in its holder's hand",
                                 rule)
            if layout[p - 1 if p > 0 else p] < 0:
                raise self._fail(f"the card at position {p} goes to the talon, not to a seat: "
                                 "a card turned up belongs to a hand", rule)
        allowed = (Ctx.CONTRACT, Ctx.DECLARER, Ctx.DEALER, Ctx.TURN_UP)
        for rule, body in self.constructs(K.TrumpIs):
            assert isinstance(body, K.TrumpIs)
            if body.when.type is not T.BOOL or body.suit.type is not T.SUIT:
                raise self._fail(f"TrumpIs needs a condition and a suit, got a "
                                 f"{body.when.type.value} and a {body.suit.type.value}", rule)
            if any(b.names_trump for _r, b in self.constructs(K.SetAside)):  # type: ignore[attr-defined]
                raise self._fail("trumps are named by a card laid aside (SetAside names_trump) "
                                 "and by TrumpIs: one rule decides trumps", rule)
            # a value a seat's choice sets (Decide) is read again once it is made
            chosen = {name for _r, b in self.constructs(K.Decide)
                      for o in b.options for name, _v in o.sets}  # type: ignore[attr-defined]
            for node in (*walk(body.when), *walk(body.suit)):
                if isinstance(node, Tracked) and node.name in chosen:
                    continue
                # the hands as dealt are known when the auction ends (a Troel's trumps are
                # the suit of the ace its bidder lacks)
                if ((isinstance(node, Ref) and node.ctx not in allowed)
                        or isinstance(node, (Tracked, Taken, Var, IsDeclarer,
                                             Idle, Dropped, Invited))):
                    raise self._fail(f"trumps are fixed when the auction ends: TrumpIs reads "
                                     f"only the contract, declarer, dealer, turn-up, the hands "
                                     f"as dealt and values a seat's choice sets (Decide), not "
                                     f"{node!r}", rule)
        for rule, body in self.constructs(K.LayOpen):
            assert isinstance(body, K.LayOpen)
            if body.seat.type is not T.SEAT or body.when.type is not T.BOOL:
                raise self._fail(f"LayOpen needs a seat and a condition, got a "
                                 f"{body.seat.type.value} and a {body.when.type.value}", rule)
            if not 1 <= body.after_trick < self.tricks:
                raise self._fail(f"a hand is laid open after trick 1 to {self.tricks - 1}, not "
                                 f"after trick {body.after_trick}", rule)
    def _check_seat_sets(self) -> None:
        """A seat idle for the deal and defenders who drop out: what they need."""
        idle, drop = self.constructs(K.IdleSeat), self.constructs(K.DropOut)
        sits = self.constructs(K.SitsOut)
        if sits and (idle or drop):
            other = (idle or drop)[0][0]
            raise self._fail(f"a seat sitting out of the play (SitsOut) cannot be combined with "
                             f"{type(other.body).__name__} ({other.id}): state who is out of "
                             "the play one way", sits[0][0])
        for rule, body in idle:
            assert isinstance(body, K.IdleSeat)
            if body.seat.type is not T.SEAT:
                raise self._fail(f"IdleSeat needs a seat, got a {body.seat.type.value} "
                                 f"({body.seat!r})", rule)
            if self.constructs(K.TurnUp):
                raise self._fail("a card turned up with a seat idle for the deal is not "
                                 "supported yet: the verifier places the turn-up without "
                                 "passing over the idle seat", rule)
        joins = (self.constructs(K.SameBidJoins) + self.constructs(K.PartnerHolds)
                 + self.constructs(K.PartnerAccepts))
        for rule, body in drop:
            assert isinstance(body, K.DropOut)
            # a choice that leaves one of the seats that joined a bid the declarer, made
            # before the defenders choose, leaves no side formed in the deal
            order = [r.id for r in self.rules]  # type: ignore[attr-defined]
            settled = [r for r, b in self.constructs(K.Decide)
                       if b.each_declarer and order.index(r.id) < order.index(rule.id)]  # type: ignore[attr-defined]
            if settled and not self.constructs(K.PartnerHolds) + self.constructs(K.PartnerAccepts):
                joins = ()
            if joins:
                raise self._fail(f"defenders who drop out with declarers or partners formed in "
                                 f"the deal ({joins[0][0].id}) is not supported yet: a seat on "
                                 "the declarer's side would be asked to drop out", rule)
            # the choice is made once, before the first lead: its rules read only what is
            # known then
            for node in (*walk(body.when), *walk(body.first)):
                if (isinstance(node, (Tracked, Taken, Var, Dropped, Invited, IsDeclarer))
                        or (isinstance(node, Ref) and node.ctx is Ctx.TRICK_NUMBER)):
                    raise self._fail(f"defenders choose once, before the first lead: the rule "
                                     f"cannot read {node!r} (it may read the dealer, the "
                                     "contract, the declarer, the trump and the hands as "
                                     "dealt)", rule)
            sides = self.constructs(K.SidesByContract)
            if not sides or not sides[0][1].declarer_alone:  # type: ignore[attr-defined]
                raise self._fail("defenders drop out only where the declarer plays alone "
                                 "against the others (SidesByContract(declarer_alone=True))",
                                 rule)
            names = (body.stay, body.leave) + ((body.invite, body.alone) if body.invite else ())
            if not all(re.match(r"^[a-z][a-z0-9_]*$", x) for x in names) or len(set(names)) < len(names):
                raise self._fail(f"a defender's choices need distinct lower-case names, "
                                 f"got {names}", rule)
            if body.invite and self.program.dealt_seats - 1 != 2:
                raise self._fail("a defender invites the other back only with two defenders "
                                 f"(this game has {self.program.dealt_seats - 1})", rule)
            clash = [x for x in names for _r, b in self.constructs(K.Announce)
                     if b.name == x]  # type: ignore[attr-defined]
            if clash:
                raise self._fail(f"the choice {clash[0]!r} is also the name of an announcement",
                                 rule)
            if not isinstance(body.all_out, K.AllOut):
                raise self._fail(f"all_out= must be an AllOut, got {body.all_out!r}", rule)

    def _check_sheet(self) -> None:
        """Score lines, games and rubbers refer to things the rules define."""
        lines = [b.line for _r, b in self.rules_with(K.ScoreRule, K.TrickScores, K.GameBonus)]  # type: ignore[attr-defined]
        by_tricks = [b.line for _r, b in self.constructs(K.TrickScores)]  # type: ignore[attr-defined]
        written: dict[str, Rule] = {}
        for rule, body in self.constructs(K.TrickScores):
            line = body.line  # type: ignore[attr-defined]
            if line in written:
                raise self._fail(f"two TrickScores rules write line {line!r} (also "
                                 f"{written[line].id})", rule)
            written[line] = rule
        target = self.constructs(K.GameTarget)
        if target:
            rule, body = target[0]
            assert isinstance(body, K.GameTarget)
            if body.line not in by_tricks:
                raise self._fail(f"the game is played to {body.target} on line {body.line!r}, "
                                 "which no TrickScores rule writes (a game is decided trick "
                                 "by trick)", rule)
            if body.target <= 0:
                raise self._fail(f"a game target must be positive, got {body.target}", rule)
            on_line = [r for r, b in self.constructs(K.ScoreRule) if b.line == body.line]  # type: ignore[attr-defined]
            if on_line:
                raise self._fail(f"line {body.line!r} decides games trick by trick, so only a "
                                 f"TrickScores rule may write on it ({on_line[0].id} does too)",
                                 on_line[0])
        for kind, needs, what in ((K.AfterGame, K.GameTarget, "a GameTarget rule"),
                                  (K.GameBonus, K.GameTarget, "a GameTarget rule"),
                                  (K.Rubber, K.GameTarget, "a GameTarget rule"),
                                  (K.RubberSettlement, K.Rubber, "a Rubber rule")):
            found = self.constructs(kind)
            if found and not self.constructs(needs):
                raise self._fail(f"{kind.__name__} needs {what}: there are no games to count",
                                 found[0][0])
        for rule, body in self.constructs(K.Rubber):
            assert isinstance(body, K.Rubber)
            if body.games < 1:
                raise self._fail(f"a rubber needs at least one game to win, got {body.games}", rule)
        self._lines = tuple(dict.fromkeys(lines))

    def _check_stages(self) -> None:
        for kind in (K.DealPackets, K.AuctionTurns):
            found = self.constructs(kind)
            if not found:
                doc = (kind.__doc__ or "").strip().splitlines()[0]
                raise self._fail(
                    f"no rule states {kind.__name__} ({doc[0].lower()}{doc[1:].rstrip('.')})")
            stages = [b.stage for _r, b in found]  # type: ignore[attr-defined]
            for (rule, body), want in zip(found, range(1, len(found) + 1)):
                if stages.count(body.stage) > 1:  # type: ignore[attr-defined]
                    raise self._fail(f"{kind.__name__} is stated twice for stage "
                                     f"{body.stage}", rule)  # type: ignore[attr-defined]
            if sorted(stages) != list(range(1, len(found) + 1)):
                raise self._fail(f"{kind.__name__} stages must be numbered 1, 2, ... "
                                 f"(got {sorted(stages)})", found[-1][0])
        n_deal = len(self.constructs(K.DealPackets))
        n_bid = len(self.constructs(K.AuctionTurns))
        if n_deal != n_bid:
            raise self._fail(f"{n_deal} dealing stage(s) but {n_bid} auction stage(s): each "
                             "stage deals, then bids", self.constructs(K.AuctionTurns)[-1][0])
        for rule, body in self.constructs(K.SetAside):
            assert isinstance(body, K.SetAside)
            if not 1 <= body.stage <= n_bid:
                raise self._fail(f"SetAside after stage {body.stage}, but the auction has "
                                 f"{n_bid} stage(s)", rule)
        # one rule offers each announcement or choice: the engine applies the rule of that
        # name, and may_announce / announcing read it
        offered: dict[str, str] = {}
        named = [(r, b.name) for r, b in self.constructs(K.Announce)]  # type: ignore[attr-defined]
        named += [(r, o.name) for r, b in self.constructs(K.Decide) for o in b.options]  # type: ignore[attr-defined]
        for rule, name in named:
            if name in offered:
                raise self._fail(f"announcement or choice {name!r} is offered by {offered[name]} "
                                 "already: one rule offers each", rule)
            offered[name] = rule.id


class RuleChecks(_GameRead):
    """The checks of what each rule reads where, of the bid ladder, and of the sides."""

    def _check_tricks_by_number(self) -> None:
        """A rule that reads which tricks a seat won by their number (``won_trick``), or
        values a trick by its number, needs the tricks kept by number (``RecordTricks``):
        at the table tricks are stacked as they are won unless a rule says otherwise, and
        a value read from a trick's number (a last-trick bonus too) is counted from the
        tricks as they were kept.  A claim or a property may read them always: it watches
        the deal, it does not play it."""
        if self.constructs(K.RecordTricks):
            return
        for rule in self.rules:
            if isinstance(rule.body, K.Claim):
                continue
            for expr in K.stated_expressions(rule.body):
                for node in walk(expr):
                    if isinstance(node, WonTrick):
                        what = "reads which tricks a seat won by their number"
                    elif (isinstance(rule.body, K.TrickValue) and isinstance(node, Ref)
                          and node.ctx is Ctx.TRICK_NUMBER):
                        what = "values each trick by its number"
                    else:
                        continue
                    raise self._fail(f"the rule {what}, but no rule keeps the tricks won by "
                                     "their number (RecordTricks)", rule)

    # long: one check per construct field, a line or two each, in the constructs' order
    def _check_scopes(self) -> None:
        announced = {b.name: b.scope for _r, b in self.constructs(K.Announce)}  # type: ignore[attr-defined]
        # a choice of a Decide rule is judged between actions, which a card's moment includes
        announced.update({o.name: Scope.PLAY for _r, b in self.constructs(K.Decide)
                          for o in b.options})  # type: ignore[attr-defined]

        # long: the game-level checks in the order their messages are documented
        def check(rule_id: str, loc: SrcLoc, expr: Expr, scope: Scope, free: tuple[Var, ...] = (),
                  claim: bool = False) -> None:
            if not isinstance(expr, Expr):
                raise self._fail(f"expected a rule expression, got {expr!r}", rule_id=rule_id, loc=loc)
            for node in walk(expr):
                if (not claim and isinstance(node, Ref)
                        and node.ctx in (Ctx.AUCTION_OVER, Ctx.MAY_ASK_PARTNER, Ctx.TURNED_UP,
                                         Ctx.DEAL_VOID, Ctx.REDEALER, Ctx.LAYS_ASIDE,
                                         Ctx.NEXT_DEALER, Ctx.NO_BID_REDEALER,
                                         Ctx.FIRST_TO_CALL, Ctx.FIRST_LEADER, Ctx.TALON_TAKEN,
                                         Ctx.FIRST_DEFENDER, Ctx.MATCH_OVER, Ctx.GAME_BONUS,
                                         Ctx.CARRIES_OVER, Ctx.GAME_TARGET)):
                    raise self._fail(f"{node.ctx.name.lower()} is for claims and properties, not "
                                     "for the rules themselves (the rules define it)",
                                     rule_id=rule_id, loc=loc)
                if isinstance(node, TrackedAfter):
                    decl = self.tracked.get(node.name)
                    if not claim or scope is not Scope.TRICK:
                        raise self._fail(f"tracked_after({node.name!r}) is for claims and "
                                         "properties of a trick", rule_id=rule_id, loc=node.src_loc)
                    if decl is None or decl.type is not node.type:
                        raise self._fail(f"tracked_after({node.name!r}) names no tracked "
                                         f"{node.type.value} of {self.name}",
                                         rule_id=rule_id, loc=node.src_loc)
                if isinstance(node, Announcing):
                    decl = self.tracked.get(node.tracked)
                    if not claim:
                        raise self._fail(f"announcing({node.name!r}, {node.tracked!r}) is for "
                                         "claims and properties, not for the rules themselves",
                                         rule_id=rule_id, loc=node.src_loc)
                    if node.name not in announced or announced[node.name] is not scope:
                        raise self._fail(f"announcing({node.name!r}, ...): no announcement "
                                         f"{node.name!r} of {self.name} in {scope.value}",
                                         rule_id=rule_id, loc=node.src_loc)
                    if decl is None or decl.type is not node.type:
                        raise self._fail(f"announcing(..., {node.tracked!r}) names no tracked "
                                         f"{node.type.value} of {self.name}",
                                         rule_id=rule_id, loc=node.src_loc)
                if isinstance(node, MayAnnounce):
                    if not claim:
                        raise self._fail(f"may_announce({node.name!r}) is for claims and "
                                         "properties, not for the rules themselves",
                                         rule_id=rule_id, loc=node.src_loc)
                    if node.name not in announced:
                        known = ", ".join(repr(a) for a in announced) or "none"
                        raise self._fail(f"may_announce({node.name!r}) names no announcement of "
                                         f"{self.name} (announcements: {known})",
                                         rule_id=rule_id, loc=node.src_loc)
                    if announced[node.name] is not scope:
                        raise self._fail(f"announcement {node.name!r} belongs to "
                                         f"{announced[node.name].value}; this judges {scope.value}",
                                         rule_id=rule_id, loc=node.src_loc)
                if isinstance(node, Tracked):
                    decl = self.tracked.get(node.name)
                    if decl is None:
                        known = ", ".join(self.tracked) or "none"
                        raise self._fail(f"tracked value {node.name!r} is not declared by a "
                                         f"Track rule (declared: {known})",
                                         rule_id=rule_id, loc=node.src_loc)
                    if decl.type is not node.type:
                        raise self._fail(f"tracked value {node.name} is a {decl.type.value}, "
                                         f"read as a {node.type.value}",
                                         rule_id=rule_id, loc=node.src_loc)
                    if scope not in _TRACKED_SCOPES:
                        raise self._fail(f"tracked value {node.name} is not known when judging "
                                         f"{scope.value}", rule_id=rule_id, loc=loc)
                for cls, scopes in _NODE_SCOPES.items():
                    if isinstance(node, cls) and scope not in scopes:
                        raise self._fail(f"{cls.__doc__.splitlines()[0].rstrip('.').lower()} "  # type: ignore[union-attr]
                                         f"is not known when judging {scope.value}",
                                         rule_id=rule_id, loc=loc)
                if (isinstance(node, Ref) and node.ctx is Ctx.TURN_UP
                        and not self.constructs(K.TurnUp)):
                    raise self._fail("turn_up is the card dealt face up, but no rule deals one "
                                     "(TurnUp)", rule_id=rule_id, loc=loc)
                if isinstance(node, Ref) and node.ctx is Ctx.POT and not self.constructs(K.Pot):
                    raise self._fail("pot is the chips in the pot, but no rule keeps one (Pot)",
                                     rule_id=rule_id, loc=loc)
                if isinstance(node, Ref) and scope not in node.ctx.scopes:
                    raise self._fail(
                        f"{node.ctx.name.lower()} ({node.ctx.description}) is not known when "
                        f"judging {scope.value}",
                        rule_id=rule_id, loc=loc,
                    )
                if isinstance(node, ScoreOf) and node.line is not None and node.line not in self._lines:
                    known = ", ".join(repr(x) for x in self._lines) or "none"
                    raise self._fail(f"score line {node.line!r} is written by no scoring rule "
                                     f"(lines: {known})", rule_id=rule_id, loc=node.src_loc)
                if isinstance(node, Awarded):
                    found = [r for r in self.rules if r.id == node.rule_id]
                    if not found or not isinstance(found[0].body, (K.ScoreRule, K.TrickScores)):
                        raise self._fail(f"awarded({node.rule_id!r}) names no scoring rule of "
                                         f"{self.name}", rule_id=rule_id, loc=node.src_loc)
                # by name and type: ``in`` would compare with ``==``, which builds a
                # comparison node of the rules language rather than answering
                if isinstance(node, Var) and (node.name, node.type) not in {
                        (f.name, f.type) for f in free}:
                    raise self._fail(f"free variable {node.name} is not declared in free=",
                                     rule_id=rule_id, loc=node.src_loc)

        for r in self.rules:
            if isinstance(r.body, K.Claim):
                if r.body.holds.type is not T.BOOL:
                    raise self._fail("a claim must be a condition", r)
                check(r.id, r.src_loc, r.body.holds, r.body.scope, r.body.free, claim=True)
                continue
            for name in r.body.__dataclass_fields__:  # type: ignore[attr-defined]
                scope = K.field_scope(r.body, name)
                value = getattr(r.body, name)
                if scope is not None and value is not None:  # None: an optional field left out
                    check(r.id, r.src_loc, value, scope)
            if isinstance(r.body, K.Announce):
                if r.body.scope not in (Scope.CALL, Scope.PLAY):
                    raise self._fail("an announcement is made in the auction (Scope.CALL) or "
                                     "in the play (Scope.PLAY)", r)
                check(r.id, r.src_loc, r.body.when, r.body.scope)
                if r.body.required is not None:
                    check(r.id, r.src_loc, r.body.required, r.body.scope)
            setters: list[tuple[tuple[tuple[str, Expr], ...], Scope]] = []
            if isinstance(r.body, K.Announce):
                setters.append((r.body.sets, r.body.scope))
            if isinstance(r.body, K.Update):
                setters.append((r.body.sets, r.body.at.scope))
            if isinstance(r.body, K.Decide):
                if not r.body.options:
                    raise self._fail("a decision needs at least one option", r)
                if r.body.when is not None and r.body.when.type is not T.BOOL:
                    raise self._fail(f"when= must be a condition, got a "
                                     f"{r.body.when.type.value} ({r.body.when!r})", r)
                if r.body.when is not None and r.body.each_declarer:
                    raise self._fail("a choice made by each declarer in turn is made after "
                                     "every auction: it takes no when= (not supported yet)", r)
                for opt in r.body.options:
                    check(r.id, r.src_loc, opt.when, Scope.STATUS)
                    setters.append((opt.sets, Scope.STATUS))
            for sets, scope in setters:
                for name, value in sets:
                    decl = self.tracked.get(name)
                    if decl is None:
                        raise self._fail(f"sets {name!r}, which no Track rule declares", r)
                    check(r.id, r.src_loc, value, scope)
                    if value.type is not decl.type:
                        raise self._fail(f"sets {name} (a {decl.type.value}) to a "
                                         f"{value.type.value}", r)
        for p in self.properties:  # each where it is checked (a variant's rules in force)
            if p.applies_to(self):  # type: ignore[arg-type]
                check(p.id, p.src_loc, p.holds, p.scope, p.free, claim=True)

    def _check_ladder(self) -> None:
        (ladder_rule, ladder), = self.constructs(K.Ladder)
        assert isinstance(ladder, K.Ladder)
        if not ladder.levels or not ladder.strains:
            raise self._fail("the bid ladder is empty", ladder_rule)
        if len(set(ladder.strains)) != len(ladder.strains):
            raise self._fail("a strain appears twice on the ladder", ladder_rule)
        (order_rule, _), = self.constructs(K.BidOrder)
        seen: dict[int, Bid] = {}
        for bid, key in zip(self.ladder, self.bid_keys):
            if key in seen:
                raise self._fail(
                    f"the bid order is not total: {seen[key]} and {bid} have the same key {key}",
                    order_rule,
                )
            seen[key] = bid

    def _check_sides(self) -> None:
        """Sides formed during the deal need a game whose sides the contract decides."""
        (_seats_rule, seats), = self.constructs(K.Seats)
        assert isinstance(seats, K.Seats)
        fixed = bool(seats.partnerships) or not self.constructs(K.SidesByContract)
        wants = {K.SameBidJoins: (("bids", T.BOOL),),
                 K.PartnerHolds: (("when", T.BOOL), ("cards", T.CARDS)),
                 K.PartnerAccepts: (("bids", T.BOOL),)}
        whats = {K.SameBidJoins: "several declarers",
                 K.PartnerHolds: "a partner found by the cards",
                 K.PartnerAccepts: "a partner formed by a call"}
        for kind, fields in wants.items():
            for rule, body in self.constructs(kind):
                what = whats[kind]
                if fixed:
                    raise self._fail(f"{what} needs sides that the contract decides "
                                     "(SidesByContract, and no fixed partnerships)", rule)
                for name, want in fields:
                    got = getattr(body, name)
                    if got.type is not want:
                        raise self._fail(f"{name}= must be a {want.value}, got a "
                                         f"{got.type.value} ({got!r})", rule)
                if kind is K.PartnerHolds and (self.program.talon_cards
                                               or self.constructs(K.IdleSeat)):
                    raise self._fail("a partner found by the cards with a talon or an idle "
                                     "seat is not supported yet: the card may be held by no "
                                     "seat", rule)
                if kind is K.PartnerHolds:
                    # the partner is fixed as the auction ends, from what is known then
                    for node in (*walk(body.when), *walk(body.cards)):  # type: ignore[attr-defined]
                        late = (isinstance(node, (Tracked, IsDeclarer)) or (
                            isinstance(node, Ref) and node.ctx in (Ctx.TRICK_NUMBER,
                                                                   Ctx.DECLARER_PARTNER)))
                        if late:
                            raise self._fail(f"the partner is fixed as the auction ends, so the "
                                             f"rule cannot read {node!r} (it may read the "
                                             "dealer, the contract, the declarer, the trump and "
                                             "the hands as dealt)", rule)
                if kind is K.SameBidJoins and not any(self.joinable_bids):
                    raise self._fail("no bid of the ladder can be joined (bids= holds for none)",
                                     rule)
                if kind is K.PartnerAccepts:
                    alone = self.constructs(K.SidesByContract)[0][1]
                    if alone.declarer_alone:  # type: ignore[attr-defined]
                        raise self._fail(f"{what} needs a declarer who may have a partner "
                                         "(SidesByContract(declarer_alone=False))", rule)
                    if not any(self.acceptable_bids):
                        raise self._fail("no bid of the ladder can be accepted (bids= holds "
                                         "for none)", rule)
                    both = [self.ladder[k].symbol for k, (j, a) in enumerate(
                        zip(self.joinable_bids, self.acceptable_bids)) if j and a]
                    if both:
                        joins = self.constructs(K.SameBidJoins)[0][0]
                        raise self._fail(f"a bid is either joined by several declarers "
                                         f"({joins.id}) or accepted by one partner, not both: "
                                         f"{', '.join(both)}", rule)

