"""The meaning of a game's constructs, as expressions every back end compiles.

This module is where the rules language says, once, what its constructs mean: which cards
are legal, which suit a played card counts as, how strongly it competes for the trick,
who wins the trick, what a seat scores.  The engine and the Z3 compiler both compile the
expressions built here, so they cannot disagree about the rules, only about the
compilation, which the differential tests check.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spec.cards import CardSet
from spec.dsl import _constructs as K
from spec.dsl._visitor import ConstructVisitor
from spec.dsl._nodes import (
    NO_SUIT,
    BidAttr,
    BidField,
    BoolOp,
    CardsOfSuit,
    Contains,
    IsEmpty,
    PartnerOf,
    PointsWon,
    Compare,
    Const,
    Ctx,
    DealtHand,
    EachDeclarer,
    EachSeat,
    Expr,
    IsDeclarer,
    Idle,
    IfThenElse,
    Tracked,
    Implies,
    Let,
    Not,
    Op,
    Ref,
    SeatAfter,
    Scope,
    SetOp,
    SumValues,
    T,
    Taken,
    TricksWon,
    WonTrick,
    suit_code,
    walk,
)

if TYPE_CHECKING:
    from spec.dsl._build import Game, Rule


def _true() -> Expr:
    return Const(True, T.BOOL)


def _false() -> Expr:
    return Const(False, T.BOOL)


def _all(exprs: list[Expr]) -> Expr:
    if not exprs:
        return _true()
    if len(exprs) == 1:
        return exprs[0]
    return BoolOp(Op.AND, tuple(exprs))


class ByDerivation:
    """The visits every compiling back end shares: a reading the game's own rules define
    (legal cards, a legal call, an announcement open or made, a value after a trick) is
    compiled as the expression it stands for."""

    game: Game
    visit: Any  # the back end's own dispatch (RuleVisitor.visit)

    def visit_LegalCards(self, node: Expr) -> Any:
        return self.visit(legal_cards(self.game))

    def visit_LegalCall(self, node: Expr) -> Any:
        return self.visit(call_legal(self.game))

    def visit_MayAnnounce(self, node: Any) -> Any:
        return self.visit(may_announce(self.game, node.name))

    def visit_Announcing(self, node: Any) -> Any:
        return self.visit(announced_value(self.game, node.name, node.tracked, node.type))

    def visit_TrackedAfter(self, node: Any) -> Any:
        return self.visit(tracked_after_trick(self.game, node.name, node.type))

    def visit_EachDeclarer(self, node: Any) -> Any:
        return self.visit(each_declarer(self.game, node))

    def visit_EachSeat(self, node: Any) -> Any:
        return self.visit(each_seat(self.game, node))


def each_declarer(game: Game, node: EachDeclarer) -> Expr:
    """The amount summed over the declarers, ``declarer`` read as each (scope: OUTCOME)."""
    total: Expr = Const(0, T.INT)
    for k in range(game.players):
        seat = Const(k, T.SEAT)
        # a seat that joined the declarer's bid plays alone: his partner is himself
        partner = IfThenElse(Compare(Op.EQ, seat, Ref(Ctx.DECLARER)), Ref(Ctx.DECLARER_PARTNER),
                             seat)
        each = Let(Ctx.DECLARER_PARTNER, partner, Let(Ctx.DECLARER, seat, node.amount))
        total = total + IfThenElse(IsDeclarer(seat), each, Const(0, T.INT))
    return total


def lay_open_cases(game: Game, body: K.LayOpen) -> tuple[tuple[Expr, Expr], ...]:
    """The hands a ``LayOpen`` rule lays open, as pairs of a condition and a seat (scope:
    STATUS): the rule's own, or with ``each_declarer`` one for each seat, which lays its
    hand open when it declares and the rule holds with it read as the declarer."""
    if not body.each_declarer:
        return ((body.when, body.seat),)
    out = []
    for k in range(game.players):
        seat = Const(k, T.SEAT)
        # a seat that joined the declarer's bid plays alone: his partner is himself
        partner = IfThenElse(Compare(Op.EQ, seat, Ref(Ctx.DECLARER)), Ref(Ctx.DECLARER_PARTNER),
                             seat)

        def read(expr: Expr, seat: Expr = seat, partner: Expr = partner) -> Expr:
            return Let(Ctx.DECLARER_PARTNER, partner, Let(Ctx.DECLARER, seat, expr))

        out.append((BoolOp(Op.AND, (IsDeclarer(seat), read(body.when))), read(body.seat)))
    return tuple(out)


def each_seat(game: Game, node: EachSeat) -> Expr:
    """The amount summed over every seat at the table, ``seat`` read as each."""
    total: Expr = Const(0, T.INT)
    for k in range(game.players):
        total = total + Let(Ctx.SEAT, Const(k, T.SEAT), node.amount)
    return total


def holder_of_highest(game: Game, cards: Expr) -> Expr:
    """The seat dealt the highest card of ``cards`` (by the rank order, the first in the
    deck among equals); the declarer when ``cards`` is empty (scope: STATUS)."""
    rank = game.rank_table
    order = sorted(range(len(game.deck)), key=lambda i: (-rank.value(game.deck[i]), i))
    out: Expr = Ref(Ctx.DECLARER)
    # each seat and its hand one node, read by every card (compiled once)
    seats = [Const(k, T.SEAT) for k in range(game.players)]
    dealt = [DealtHand(seat) for seat in seats]
    for i in reversed(order):
        card = Const(game.deck[i], T.CARD)
        holder: Expr = seats[-1]
        for k in range(game.players - 2, -1, -1):
            holder = IfThenElse(Contains(dealt[k], card), seats[k], holder)
        out = IfThenElse(Contains(cards, card), holder, out)
    return out


def declarer_partner(game: Game) -> Expr:
    """The declarer's partner as the auction ends: the seat the ``PartnerHolds`` rule names
    when it applies, else the declarer himself (scope: STATUS)."""
    out: Expr = Ref(Ctx.DECLARER)
    for _r, body in game.constructs(K.PartnerHolds):
        assert isinstance(body, K.PartnerHolds)
        out = IfThenElse(body.when, holder_of_highest(game, body.cards), out)
    return out


def partner_cards(game: Game) -> Expr | None:
    """The cards that make the declarer's partner as the auction ends, by the ``PartnerHolds``
    rule that applies (scope: STATUS): the partner is the holder of the highest, and shows
    himself by playing it.  None in a game without such a rule; no card where none applies."""
    rules = game.constructs(K.PartnerHolds)
    if not rules:
        return None
    out: Expr = Const(CardSet(game.deck, 0), T.CARDS)
    for _r, body in rules:
        assert isinstance(body, K.PartnerHolds)
        out = IfThenElse(body.when, body.cards, out)
    return out


def one_of_bids(game: Game, bid: Expr, which: tuple[bool, ...]) -> Expr:
    """``bid`` is one of the ladder's bids for which ``which`` is true (any scope)."""
    chosen = [k for k, ok in enumerate(which) if ok]
    if not chosen:
        return Const(False, T.BOOL)
    # bids are told apart by their keys in the bid order (the build checks they differ)
    key = BidAttr(BidField.KEY, bid)
    one_of = tuple(Compare(Op.EQ, key, Const(game.bid_keys[k], T.INT)) for k in chosen)
    return one_of[0] if len(one_of) == 1 else BoolOp(Op.OR, one_of)


def _repeats_standing(game: Game, which: tuple[bool, ...]) -> list[Expr]:
    """The call is a bid, the same as the standing bid, and one of ``which`` (scope: CALL)."""
    bid = Ref(Ctx.CALL_BID)
    return [Ref(Ctx.CALL_IS_BID), Ref(Ctx.HAS_STANDING), Compare(Op.EQ, bid, Ref(Ctx.STANDING)),
            one_of_bids(game, bid, which)]


def call_joins(game: Game) -> Expr:
    """The call repeats the standing bid, and the ``SameBidJoins`` rule lets that bid be
    joined (scope: CALL)."""
    if not any(game.joinable_bids):
        return Const(False, T.BOOL)
    return BoolOp(Op.AND, tuple(_repeats_standing(game, game.joinable_bids)))


def call_accepts(game: Game) -> Expr:
    """The call repeats the standing bid, the ``PartnerAccepts`` rule lets that bid be
    accepted, nobody has accepted it yet, and the seat is not its bidder (scope: CALL)."""
    if not any(game.acceptable_bids):
        return Const(False, T.BOOL)
    return BoolOp(Op.AND, (*_repeats_standing(game, game.acceptable_bids),
                           Not(Ref(Ctx.STANDING_ACCEPTED)),
                           Compare(Op.NE, Ref(Ctx.SEAT), Ref(Ctx.HIGH_BIDDER))))


def legal_cards(game: Game) -> Expr:
    """The hand's cards that the play rules allow (scope: PLAY)."""
    full = Const(game.deck.full, T.CARDS)
    allowed: Expr = full
    for _rule, body in game.constructs(K.PlayRule):
        assert isinstance(body, K.PlayRule)
        term = IfThenElse(body.applies, body.permits, full)
        allowed = term if allowed is full else SetOp(Op.INTER, allowed, term)
    for _rule, body in game.constructs(K.AlwaysPlayable):
        assert isinstance(body, K.AlwaysPlayable)
        allowed = SetOp(Op.UNION, allowed, body.cards)
    from_hand: Expr = SetOp(Op.INTER, Ref(Ctx.HAND), allowed)
    for _rule, body in game.constructs(K.PlayableAside):
        assert isinstance(body, K.PlayableAside)
        aside = IfThenElse(body.when, Ref(Ctx.ASIDE), Const(CardSet(game.deck, 0), T.CARDS))
        from_hand = SetOp(Op.UNION, from_hand, aside)
    return from_hand


def face_down(game: Game) -> Expr:
    """The card about to be played goes face down (scope: PLAY)."""
    rules = game.constructs(K.FaceDown)
    return rules[0][1].when if rules else Const(False, T.BOOL)  # type: ignore[attr-defined, no-any-return]


def trick_turned_up(game: Game) -> Expr:
    """Every card of the complete trick is turned face up (scope: TRICK)."""
    rules = game.constructs(K.FaceDown)
    return rules[0][1].revealed_when if rules else Const(False, T.BOOL)  # type: ignore[attr-defined, no-any-return]


def required_announcement(game: Game, body: K.Announce) -> Expr:
    """The announcement must be made now (its own scope)."""
    return body.required if body.required is not None else Const(False, T.BOOL)


def needs_declaration(game: Game) -> Expr:
    """Whether the card being played must be accompanied by a named suit (scope: PLAY)."""
    terms = [b.when for _r, b in game.constructs(K.NameSuit)]  # type: ignore[attr-defined]
    if not terms:
        return Const(False, T.BOOL)
    return terms[0] if len(terms) == 1 else BoolOp(Op.OR, tuple(terms))


def declaration_choices(game: Game) -> tuple[int, ...]:
    """The suit codes that can be named (by any NameSuit rule)."""
    codes: list[int] = []
    for _r, body in game.constructs(K.NameSuit):
        assert isinstance(body, K.NameSuit)
        for s in body.choices:
            if suit_code(s) not in codes:
                codes.append(suit_code(s))
    return tuple(codes)


def declaration_ok(game: Game) -> Expr:
    """The named suit is allowed (scope: PLAY, with DECLARED the named suit)."""
    return _all(
        [
            BoolOp(Op.OR, (Not(b.applies), b.requires))  # type: ignore[attr-defined]
            for _r, b in game.constructs(K.DeclarationRule)
        ]
    )


def entry_suit(game: Game) -> Expr:
    """The suit a played card counts as (scope: ENTRY, without CARD_SUIT)."""
    result: Expr = Ref(Ctx.CARD).suit
    for _r, body in reversed(game.constructs(K.CountsAsSuit)):
        assert isinstance(body, K.CountsAsSuit)
        result = IfThenElse(body.when, body.suit, result)
    if game.constructs(K.NameSuit):
        declared = Ref(Ctx.DECLARED)
        result = IfThenElse(Compare(Op.NE, declared, Const(None, T.SUIT)), declared, result)
    return result


def strength(game: Game) -> Expr:
    """How strongly a played card competes for the trick (scope: ENTRY); -1 cannot win."""
    tiers = sorted(
        (b for _r, b in game.constructs(K.WinningTier)),
        key=lambda b: b.level,  # type: ignore[attr-defined]
    )
    step = len(game.one(K.RankOrder).order) + 1  # type: ignore[attr-defined]
    rank = game.rank_table[Ref(Ctx.CARD)]
    result: Expr = Const(-1, T.INT)
    for tier in tiers:
        assert isinstance(tier, K.WinningTier)
        result = IfThenElse(tier.when, Const(tier.level * step, T.INT) + rank, result)
    return Let(Ctx.CARD_SUIT, entry_suit(game), result)


def _entry(game: Game, i: int, body: Expr) -> Expr:
    """``body`` (scope: ENTRY) for the card at trick position ``i`` (scope: TRICK)."""
    return Let(
        Ctx.CARD,
        Ref(Ctx.PLAYED_CARD, i),
        Let(
            Ctx.DECLARED,
            Ref(Ctx.PLAYED_DECLARED, i),
            Let(Ctx.IS_LEADING, Const(i == 0, T.BOOL), Let(Ctx.POSITION, Const(i, T.INT), body)),
        ),
    )


def played_suit(game: Game, i: int) -> Expr:
    """The suit the card at position ``i`` counts as (scope: TRICK)."""
    led = Const(None, T.SUIT) if i == 0 else played_suit(game, 0)
    return Let(Ctx.LED_SUIT, led, _entry(game, i, entry_suit(game)))


def strength_at(game: Game, i: int) -> Expr:
    """The strength of the card at position ``i`` (scope: TRICK); the lead included, every
    card is judged against the suit the lead counts as."""
    return Let(Ctx.LED_SUIT, played_suit(game, 0), _entry(game, i, strength(game)))


def has_short_tricks(game: Game) -> bool:
    """Whether a trick can have fewer cards than there are seats: a seat sits out of the
    play, is idle for the deal, or drops out."""
    return bool(game.constructs(K.SitsOut) or game.constructs(K.IdleSeat)
                or game.constructs(K.DropOut))


def trick_winner(game: Game) -> Expr:
    """The position of the card that wins a complete trick (scope: TRICK).

    When a seat can be out of the play, positions past the trick's size hold no card and are
    skipped.
    """
    best_i: Expr = Const(0, T.INT)
    best_s: Expr = strength_at(game, 0)
    short = has_short_tricks(game)
    for i in range(1, game.players):
        s = strength_at(game, i)
        better: Expr = Compare(Op.GT, s, best_s)
        if short:
            better = BoolOp(Op.AND, (Compare(Op.LT, Const(i, T.INT), Ref(Ctx.TRICK_SIZE)), better))
        best_i = IfThenElse(better, Const(i, T.INT), best_i)
        best_s = IfThenElse(better, s, best_s)
    return best_i


def trick_value(game: Game, number: int) -> Expr:
    """The value of trick ``number`` (scope: OUTCOME)."""
    body = game.one(K.TrickValue)
    assert isinstance(body, K.TrickValue)
    return Let(Ctx.TRICK_NUMBER, Const(number, T.INT), body.value)


def points_won(game: Game, seat: Expr) -> Expr:
    """The points a seat took in tricks (scope: OUTCOME)."""
    by_cards = game.constructs(K.CardPoints)
    if by_cards:
        return SumValues(by_cards[0][1].table, Taken(seat))  # type: ignore[attr-defined]
    value = game.one(K.TrickValue).value  # type: ignore[attr-defined]
    if not any(isinstance(n, Ref) and n.ctx is Ctx.TRICK_NUMBER for n in walk(value)):
        return value * TricksWon(seat)  # every trick is worth the same
    total: Expr = Const(0, T.INT)
    for k in range(1, game.tricks + 1):
        total = total + IfThenElse(WonTrick(seat, Const(k, T.INT)), trick_value(game, k),
                                   Const(0, T.INT))
    return total


def tricks_won(game: Game, seat: Expr) -> Expr:
    """The number of tricks a seat won (scope: OUTCOME)."""
    total: Expr = Const(0, T.INT)
    for k in range(1, game.tricks + 1):
        total = total + IfThenElse(WonTrick(seat, Const(k, T.INT)), Const(1, T.INT),
                                   Const(0, T.INT))
    return total


def score_lines(game: Game) -> tuple[str, ...]:
    """The lines of the game's score sheet, in the order the rules first name them."""
    names: list[str] = []
    for _r, body in game.rules_with(K.ScoreRule, K.TrickScores, K.GameBonus):
        line = body.line  # type: ignore[attr-defined]
        if line not in names:
            names.append(line)
    return tuple(names) or ("",)


def side_points(game: Game, seat: Expr) -> Expr:
    """The points in tricks of a seat's side: the seat and its partner (scope: OUTCOME)."""
    if not game.table.partnerships:
        return PointsWon(seat)
    return PointsWon(seat) + PointsWon(PartnerOf(seat))


def awarded(game: Game, rule_id: str) -> Expr:
    """What one scoring rule gives the seat being scored (scope: OUTCOME)."""
    body = game.rule(rule_id).body
    if isinstance(body, K.TrickScores):
        return side_points(game, Ref(Ctx.SEAT))
    assert isinstance(body, K.ScoreRule)
    return IfThenElse(body.when, body.amount, Const(0, T.INT))


def score(game: Game, seat: Expr, line: str | None = None) -> Expr:
    """A seat's score for the deal on one line of the sheet, or on all (scope: OUTCOME)."""
    total: Expr = Const(0, T.INT)
    for rule, body in game.rules_with(K.ScoreRule, K.TrickScores):
        if line is None or body.line == line:  # type: ignore[attr-defined]
            total = total + awarded(game, rule.id)
    return Let(Ctx.SEAT, seat, total)


def call_rules(game: Game) -> list[tuple[Rule, Expr, Expr]]:
    """Every rule of the calls as (rule, applies, requires) (scope: CALL): the call rules,
    and each hold rule, which makes a repeat of the standing bid legal only when it holds
    (a repeat of a bid other seats may join is a join, not a hold)."""
    out: list[tuple[Rule, Expr, Expr]] = []
    for rule, body in game.constructs(K.CallRule):
        assert isinstance(body, K.CallRule)
        out.append((rule, body.applies, body.requires))
    for rule, body in game.constructs(K.HoldBid):
        assert isinstance(body, K.HoldBid)
        repeat: Expr = BoolOp(Op.AND, (Ref(Ctx.CALL_IS_BID), Ref(Ctx.HAS_STANDING),
                                       Compare(Op.EQ, Ref(Ctx.CALL_BID), Ref(Ctx.STANDING))))
        if any(game.joinable_bids):
            repeat = BoolOp(Op.AND, (repeat, Not(call_joins(game))))
        out.append((rule, repeat, body.when))
    return out


def call_legal(game: Game) -> Expr:
    """A call obeys every call rule (scope: CALL)."""
    return _all([BoolOp(Op.OR, (Not(applies), requires)) for _r, applies, requires in call_rules(game)])


def may_announce(game: Game, name: str) -> Expr:
    """The announcement ``name`` is open to the seat to act, or the choice ``name`` of a
    ``Decide`` rule to the seat deciding (scope: the announcement's; STATUS for a choice)."""
    terms = [body.when for _r, body in game.constructs(K.Announce)
             if body.name == name]  # type: ignore[attr-defined]
    terms += [o.when for _r, body in game.constructs(K.Decide)
              for o in body.options if o.name == name]  # type: ignore[attr-defined]
    return BoolOp(Op.OR, tuple(terms)) if len(terms) > 1 else terms[0]


def announced_value(game: Game, name: str, tracked: str, type: T) -> Expr:
    """The value ``tracked`` takes when the announcement (or choice) ``name`` is made now:
    what its ``sets`` give, judged before it, else the value now."""
    out: Expr = Tracked(tracked, type)
    offers = [(body.when, body.sets) for _r, body in game.constructs(K.Announce)
              if body.name == name]  # type: ignore[attr-defined]
    offers += [(o.when, o.sets) for _r, body in game.constructs(K.Decide)
               for o in body.options if o.name == name]  # type: ignore[attr-defined]
    for when, sets in reversed(offers):
        for target, value in sets:
            if target == tracked:
                out = value if len(offers) == 1 else IfThenElse(when, value, out)
    return out


def tracked_after_trick(game: Game, name: str, type: T) -> Expr:
    """A tracked value after the end-of-trick updates (scope: TRICK).  Every update's
    condition and value are judged on the values before the trick ended; of two updates
    of one value the later rule wins, as the engine applies them."""
    out: Expr = Tracked(name, type)
    for _r, body in game.constructs(K.Update):
        assert isinstance(body, K.Update)
        if body.at is not K.Moment.TRICK_END:
            continue
        for target, value in body.sets:
            if target == name:
                out = IfThenElse(body.when, value, out)
    return out


def next_dealer(game: Game) -> Expr:
    """Who deals after a deal played out (scope: DEAL)."""
    found = [b.steps for _r, b in game.constructs(K.DealerRotation)]  # type: ignore[attr-defined]
    return SeatAfter(Ref(Ctx.DEALER), found[0]) if found else Ref(Ctx.DEALER)


def no_bid_redealer(game: Game) -> Expr:
    """Who deals again when an auction ends with no bid, by the ``RedealIfNoBid`` rule
    (the same dealer if none says) (scope: DEAL)."""
    found = [b.steps for _r, b in game.constructs(K.RedealIfNoBid)]  # type: ignore[attr-defined]
    return SeatAfter(Ref(Ctx.DEALER), found[0]) if found else Ref(Ctx.DEALER)


def deal_void(game: Game) -> Expr:
    """Some rule voids the deal now (scope: STATUS)."""
    whens = [b.when for _r, b in game.constructs(K.VoidWhen)]  # type: ignore[attr-defined]
    return BoolOp(Op.OR, tuple(whens)) if len(whens) > 1 else (whens[0] if whens
                                                                else Const(False, T.BOOL))


_OF_THE_CONTRACT = (Ctx.CONTRACT, Ctx.DECLARER, Ctx.DECLARER_PARTNER, Ctx.TRUMP)


def reads_contract(expr: Expr) -> bool:
    """Whether an expression of the deal's status reads the contract the auction left (its
    bid, declarer, partner or trumps, or who declares): before the auction is over it
    means nothing (scope: STATUS)."""
    return any((isinstance(node, Ref) and node.ctx in _OF_THE_CONTRACT)
               or isinstance(node, IsDeclarer) for node in walk(expr))


def reads_ctx(game: Game, ctx: Ctx) -> bool:
    """Whether a rule or a property of the game reads the context value ``ctx``."""
    exprs = [e for r in game.rules for e in K.stated_expressions(r.body)] + [
        p.holds for p in game.properties]
    return any(isinstance(node, Ref) and node.ctx is ctx for e in exprs for node in walk(e))


def redealer(game: Game) -> Expr:
    """Who deals again if the deal is void now, by the first rule that voids it (scope:
    STATUS); the dealer if none does."""
    out: Expr = Ref(Ctx.DEALER)
    for _r, b in reversed(game.constructs(K.VoidWhen)):
        assert isinstance(b, K.VoidWhen)
        out = IfThenElse(b.when, SeatAfter(Ref(Ctx.DEALER), b.redeal_steps), out)
    return out


def trump(game: Game) -> Expr:
    """The trump suit the auction leaves, by the first ``TrumpIs`` rule that holds, else
    the contract's strain (scope: STATUS; reads the contract, declarer, dealer and turn-up
    only).  A game whose trumps come from a card laid aside has no such rules."""
    out: Expr = BidAttr(BidField.STRAIN, Ref(Ctx.CONTRACT))
    for _r, b in reversed(game.constructs(K.TrumpIs)):
        assert isinstance(b, K.TrumpIs)
        out = IfThenElse(b.when, b.suit, out)
    return out


def lays_aside_now(game: Game) -> Expr:
    """Were the current stage's auction over now, its highest bidder would lay cards aside
    (scope: CALL)."""
    out: Expr = Const(False, T.BOOL)
    for _r, b in game.constructs(K.SetAside):
        assert isinstance(b, K.SetAside)
        out = IfThenElse(Compare(Op.EQ, Ref(Ctx.STAGE), Const(b.stage, T.INT)), b.when, out)
    return out


def first_to_call(game: Game) -> Expr:
    """The seat that makes the current stage's first call (scope: CALL)."""
    out: Expr = game.stage_rule(K.AuctionTurns, game.stages).first  # type: ignore[union-attr]
    for k in range(game.stages - 1, 0, -1):
        out = IfThenElse(Compare(Op.EQ, Ref(Ctx.STAGE), Const(k, T.INT)),
                         game.stage_rule(K.AuctionTurns, k).first, out)  # type: ignore[union-attr]
    return out


def first_leader(game: Game) -> Expr:
    """The seat that leads to the first trick (scope: PLAY)."""
    return game.one(K.TrickPlay).first_lead  # type: ignore[attr-defined, no-any-return]


def talon_taken(game: Game) -> Expr:
    """The declarer took the talon after the auction: the ``TakeTalon`` rule's condition
    (never, in a game without one)."""
    rules = game.constructs(K.TakeTalon)
    return rules[0][1].when if rules else _false()  # type: ignore[attr-defined, no-any-return]


def first_defender(game: Game) -> Expr:
    """The defender who first chooses whether to play: from the ``DropOut`` rule's first
    seat on, the first that neither declares nor sits the deal out (scope: PLAY)."""
    rules = game.constructs(K.DropOut)
    first: Expr = rules[0][1].first if rules else SeatAfter(Ref(Ctx.DECLARER), 1)  # type: ignore[attr-defined]
    n = game.players
    out: Expr = SeatAfter(first, n - 1)
    for k in range(n - 2, -1, -1):
        seat = SeatAfter(first, k) if k else first
        out = IfThenElse(BoolOp(Op.AND, (Compare(Op.NE, seat, Ref(Ctx.DECLARER)),
                                         Not(Idle(seat)))), seat, out)
    return out


def match_over(game: Game) -> Expr:
    """The match (or the rubber) is over after a deal (scope: MATCH): a side reached the
    ``MatchTarget`` (or leads by it), else the ``MatchLength`` deals are played; in a rubber,
    the side that won a game has won the ``Rubber``'s games."""
    parts: list[Expr] = []
    target = game.constructs(K.MatchTarget)
    length = game.constructs(K.MatchLength)
    if target:
        body = target[0][1]
        assert isinstance(body, K.MatchTarget)
        lead = (Ref(Ctx.LEAD_TOTAL) - Ref(Ctx.TRAIL_TOTAL) if body.by_difference
                else Ref(Ctx.LEAD_TOTAL))
        parts.append(lead >= body.target)
    elif length:
        parts.append(Ref(Ctx.DEALS_PLAYED) >= length[0][1].deals)  # type: ignore[attr-defined]
    for _r, rubber in game.constructs(K.Rubber):
        parts.append(Ref(Ctx.GAMES_WON) >= rubber.games)  # type: ignore[attr-defined]
    if not parts:
        return Const(False, T.BOOL)
    return parts[0] if len(parts) == 1 else BoolOp(Op.OR, tuple(parts))


def game_bonus(game: Game) -> Expr:
    """What the side that has just won a game writes for it (scope: MATCH): the
    ``Rubber``'s final bonus for the game that wins the rubber, else the ``GameBonus``."""
    bonus = game.constructs(K.GameBonus)
    out: Expr = Const(bonus[0][1].amount if bonus else 0, T.INT)  # type: ignore[attr-defined]
    for _r, rubber in game.constructs(K.Rubber):
        assert isinstance(rubber, K.Rubber)
        out = IfThenElse(Ref(Ctx.GAMES_WON) >= rubber.games, Const(rubber.final_bonus, T.INT),
                         out)
    return out


def carries_over(game: Game) -> Expr:
    """What a deal scores after the trick that won a game counts towards the next game
    (scope: MATCH), by the ``AfterGame`` rule (written whole in the game won if none)."""
    found = game.constructs(K.AfterGame)
    return Const(bool(found and found[0][1].carry_over), T.BOOL)  # type: ignore[attr-defined]


def game_target(game: Game) -> Expr:
    """The total a side must reach on the game line to win a game, by the ``GameTarget``
    rule (0 if the game has none) (scope: MATCH)."""
    found = game.constructs(K.GameTarget)
    return Const(found[0][1].target if found else 0, T.INT)  # type: ignore[attr-defined]


def auction_over_now(game: Game) -> Expr:
    """The auction of the current stage has ended (scope: CALL)."""
    out: Expr = auction_over(game, game.stages)
    for k in range(game.stages - 1, 0, -1):
        out = IfThenElse(Compare(Op.EQ, Ref(Ctx.STAGE), Const(k, T.INT)), auction_over(game, k), out)
    return out


def may_ask_partner(game: Game) -> Expr:
    """The acting seat may ask its partner to call in its place (scope: CALL)."""
    found = [b.when for _r, b in game.constructs(K.ProxyCall)]  # type: ignore[attr-defined]
    return found[0] if found else Const(False, T.BOOL)


def auction_over(game: Game, stage: int = 1) -> Expr:
    """The auction of ``stage`` has ended (scope: CALL, after the last call)."""
    return game.stage_rule(K.AuctionTurns, stage).ends_when  # type: ignore[union-attr, no-any-return]


def full_deck(game: Game) -> CardSet:
    return game.deck.full


__all__ = [
    "legal_cards", "needs_declaration", "declaration_choices", "declaration_ok", "entry_suit",
    "may_announce", "announced_value", "match_over", "game_bonus", "carries_over",
    "game_target", "first_to_call", "first_leader", "next_dealer", "no_bid_redealer",
    "lays_aside_now", "trump", "deal_void",
    "redealer", "trick_turned_up", "tracked_after_trick", "auction_over_now",
    "may_ask_partner", "strength", "played_suit", "strength_at", "trick_winner", "trick_value",
    "points_won", "tricks_won", "score", "score_lines", "side_points", "awarded", "call_legal",
    "auction_over", "NO_SUIT", "face_down", "each_declarer", "lay_open_cases", "reads_contract", "reads_ctx", "holder_of_highest",
    "declarer_partner", "partner_cards", "call_joins", "call_accepts", "one_of_bids",
    "required_announcement", "fires", "Firing", "EVERY_DEAL", "EQUIPMENT", "CONSEQUENCE", "NO_BID", "UNMODELLED",
]


# -- when a rule fires, for fixtures that show each rule at work -----------------------

EVERY_DEAL = "every deal"
NO_BID = "an auction without a bid"
UNMODELLED = "not modelled"
EQUIPMENT = "equipment"
CONSEQUENCE = "consequence"


def fires(game: Game, rule: object) -> tuple[Scope | str, Expr | None]:
    """When a rule visibly takes effect in a deal: (scope, condition) judged at every card
    about to be played (PLAY, with the card), at every complete trick (TRICK), or at the end
    (OUTCOME); or (CALL, condition on a probe bid) for a call rule refusing some bid.  Rules
    at work in every deal give (EVERY_DEAL, None); equipment and consequences, which no deal
    shows firing, give (EQUIPMENT, None) and (CONSEQUENCE, None).  Every construct has its
    answer in :class:`Firing`; a new construct without one cannot be built.
    """
    return Firing(game).visit(rule.body)  # type: ignore[attr-defined]


Fired = tuple[Scope | str, Expr | None]


class Firing(ConstructVisitor[Fired]):
    """Where each construct shows in a deal, for fixtures that show each rule at work."""

    def __init__(self, game: Game) -> None:
        self.game = game

    # -- visible at a card, a trick, the end or a call ---------------------------------
    def visit_PlayRule(self, b: K.PlayRule) -> Fired:
        bites = Not(IsEmpty(SetOp(Op.DIFF, Ref(Ctx.HAND), b.permits)))
        return Scope.PLAY, BoolOp(Op.AND, (b.applies, bites))

    def visit_AlwaysPlayable(self, b: K.AlwaysPlayable) -> Fired:
        could_follow = BoolOp(Op.AND, (Not(Ref(Ctx.IS_LEADING)), Not(IsEmpty(SetOp(
            Op.INTER, Ref(Ctx.HAND), CardsOfSuit(Ref(Ctx.LED_SUIT)))))))
        return Scope.PLAY, BoolOp(Op.AND, (Contains(b.cards, Ref(Ctx.CARD)), could_follow))

    def visit_NameSuit(self, b: K.NameSuit) -> Fired:
        return Scope.PLAY, b.when

    def visit_DeclarationRule(self, b: K.DeclarationRule) -> Fired:
        return Scope.PLAY, b.applies

    def visit_CountsAsSuit(self, b: K.CountsAsSuit) -> Fired:
        game = self.game
        return Scope.TRICK, BoolOp(Op.OR, tuple(
            Let(Ctx.LED_SUIT, played_suit(game, 0), _entry(game, i, b.when))
            for i in range(game.players)))

    def visit_WinningTier(self, b: K.WinningTier) -> Fired:
        game = self.game
        step = len(game.one(K.RankOrder).order) + 1  # type: ignore[attr-defined]
        low, high = Const(b.level * step, T.INT), Const((b.level + 1) * step, T.INT)
        won_in_tier = [BoolOp(Op.AND, (Compare(Op.EQ, Ref(Ctx.TRICK_WINNER), Const(i, T.INT)),
                                       Compare(Op.GE, strength_at(game, i), low),
                                       Compare(Op.LT, strength_at(game, i), high)))
                       for i in range(game.players)]
        return Scope.TRICK, BoolOp(Op.OR, tuple(won_in_tier))

    def visit_ScoreRule(self, b: K.ScoreRule) -> Fired:
        zero = Const(0, T.INT)
        return Scope.OUTCOME, BoolOp(Op.OR, tuple(
            BoolOp(Op.AND, (Let(Ctx.SEAT, Const(s, T.SEAT), b.when),
                            Compare(Op.NE, Let(Ctx.SEAT, Const(s, T.SEAT), b.amount), zero)))
            for s in range(self.game.players)))

    def visit_CallRule(self, b: K.CallRule) -> Fired:
        return Scope.CALL, BoolOp(Op.AND, (b.applies, Not(b.requires)))

    def visit_Claim(self, b: K.Claim) -> Fired:
        # a stated consequence "if A then B" shows in a deal where A happens
        if (isinstance(b.holds, Implies) and not b.free
                and b.scope in (Scope.PLAY, Scope.TRICK, Scope.OUTCOME)):
            return b.scope, b.holds.cond
        return CONSEQUENCE, None

    def visit_RedealIfNoBid(self, b: K.RedealIfNoBid) -> Fired:
        return NO_BID, None

    def visit_SameBidJoins(self, b: K.SameBidJoins) -> Fired:
        if self.game.program.contest:
            # its bidders contest the bid after the auction and one declares: the rule is
            # at work at each call that joins, which the engine notes as it happens
            return UNMODELLED, None
        # a deal with a declarer besides the first to bid the contract
        return Scope.OUTCOME, BoolOp(Op.OR, tuple(
            BoolOp(Op.AND, (IsDeclarer(Const(k, T.SEAT)),
                            Compare(Op.NE, Const(k, T.SEAT), Ref(Ctx.DECLARER))))
            for k in range(self.game.players)))

    def visit_HoldBid(self, b: K.HoldBid) -> Fired:
        return Scope.CALL, BoolOp(Op.AND, (Ref(Ctx.CALL_IS_BID), Ref(Ctx.HAS_STANDING),
                                           Compare(Op.EQ, Ref(Ctx.CALL_BID), Ref(Ctx.STANDING)),
                                           b.when))

    def visit_PartnerHolds(self, b: K.PartnerHolds) -> Fired:
        return Scope.OUTCOME, BoolOp(Op.AND, (b.when, Compare(Op.NE, Ref(Ctx.DECLARER_PARTNER),
                                                             Ref(Ctx.DECLARER))))

    def visit_PartnerAccepts(self, b: K.PartnerAccepts) -> Fired:
        # a deal whose contract another seat accepted
        return Scope.OUTCOME, BoolOp(Op.AND, (
            one_of_bids(self.game, Ref(Ctx.CONTRACT), self.game.acceptable_bids),
            Compare(Op.NE, Ref(Ctx.DECLARER_PARTNER), Ref(Ctx.DECLARER))))

    # -- at work in some deals, in ways a fixture does not yet single out ---------------
    def _unmodelled(self, b: K.Construct) -> Fired:
        return UNMODELLED, None

    visit_ProxyCall = visit_SetAside = visit_PlayableAside = visit_FaceDown = _unmodelled
    visit_SitsOut = visit_Update = visit_Announce = visit_Decide = visit_VoidWhen = _unmodelled
    visit_TakeTalon = visit_LayOpen = visit_DropOut = _unmodelled
    visit_phase = _unmodelled  # a phase a game writes as steps of its own

    def visit_TrumpIs(self, b: K.TrumpIs) -> Fired:
        # a rule decides trumps in a deal where it holds and no rule before it does
        rules = [x for _r, x in self.game.constructs(K.TrumpIs)]
        earlier = [Not(x.when) for x in rules[:rules.index(b)]]  # type: ignore[attr-defined]
        return Scope.PLAY, _all([*earlier, b.when])

    # -- equipment: the same in every deal, never seen firing ---------------------------
    def _equipment(self, b: K.Construct) -> Fired:
        return EQUIPMENT, None

    visit_DeckIs = visit_RankOrder = visit_Ladder = visit_BidOrder = visit_Seats = _equipment
    visit_PlayDirection = visit_SidesByContract = visit_CardPoints = _equipment

    # -- at work in every deal (or every match) ------------------------------------------
    def _every_deal(self, b: K.Construct) -> Fired:
        return EVERY_DEAL, None

    visit_TrickValue = visit_DealPackets = visit_DealerRotation = visit_AuctionTurns = _every_deal
    visit_HighestBidderDeclares = visit_TrickPlay = visit_Track = visit_Shuffle = _every_deal
    visit_GatherAndCut = visit_Talon = visit_TurnUp = visit_IdleSeat = _every_deal
    visit_RecordTricks = visit_TrickScores = visit_GameTarget = visit_AfterGame = _every_deal
    visit_GameBonus = visit_Rubber = visit_RubberSettlement = visit_MatchOf = _every_deal
    visit_MatchTarget = visit_MatchLength = visit_Pot = _every_deal
