"""Proofs of the generic properties of the deal and its play: the deck shared out, the
exchange with the talon, a choice after the auction, a legal card held at every turn, one
winner of each trick and of each game, the length of a rubber.

Each decides the property of :mod:`verifier.properties` that names it (``GENERIC`` there,
or the checks a game's constructs call for).
"""
from __future__ import annotations

import random
from typing import Any

import z3

from spec.cards import CardSet
from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl import all_of, legal_cards, strength, trick_size, trick_winner
from spec.dsl import aside as aside_ref
from spec.dsl import hand as hand_ref
from spec.dsl import implies as implies_
from spec.dsl._build import Game
from spec.dsl._nodes import Ctx, PointsWon, Ref, Scope, Strength, TricksWon, WonTrick
from spec.dsl._program import PhaseKind
from spec.engine import Phase, apply, legal_actions, new_deal, pick
from spec.errors import NoLegalActionError
from verifier import trace
from verifier._prove.cones import prove, witnessed
from verifier._prove.decision import Options, Verdict
from verifier._prove.situations import situations_occur
from verifier._z3 import encoding as E
from verifier._z3.compile import Encoding, Z3Compiler
from verifier._z3.solver import Solving


def deal_partitions(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    sit, dest = E.deal_schedule(enc)
    n, size = game.players, len(game.deck)
    counts = [z3.Sum([z3.If(d == s, enc.int(1), enc.int(0)) for d in dest]) for s in range(n)]
    talon = z3.Sum([z3.If(d == -1, enc.int(1), enc.int(0)) for d in dest])
    idle = sit.values["idle"]
    # every pack position goes to a real seat or the talon, each seat gets its share (the
    # seat idle for the deal none), the talon its cards, and no position is left over
    shares = [c == z3.If(idle == s, enc.int(0), enc.int(game.tricks)) for s, c in enumerate(counts)]
    claim = z3.And(*[z3.And(d >= -1, d < n) for d in dest], *shares,
                   talon == game.program.talon_cards, enc.bool(len(dest) == size))
    model = prove(solving, sit.facts, claim)
    if model is None:
        stages = f" in {game.stages} stages" if game.stages > 1 else ""
        talon = f" and {game.program.talon_cards} to the talon" if game.program.talon_cards else ""
        seats = (f"{game.program.dealt_seats} seats (the idle seat none)"
                 if game.program.dealt_seats < n else f"{n} seats")
        return (Verdict.HOLDS, f"{game.tricks} cards to each of {seats}{talon} from the {size}-card "
                f"pack{stages}, for every dealer (the cards' distinctness is checked when the "
                "game is built)", None)
    dealer = model.eval(sit.values["dealer"], model_completion=True).as_long()
    pt = trace.replay_deal(game, list(range(size)), dealer, None)
    return Verdict.VIOLATED, "a deal that does not share out the deck", pt


def exchange_keeps_hands(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    rule, body = game.constructs(K.TakeTalon)[0]
    assert isinstance(body, K.TakeTalon)
    # the exchange can happen: some deal's status lets the declarer take the talon
    status = E.outcome_situation(enc)
    when = Z3Compiler(enc, E.status_env(status)).visit(body.when)
    if not witnessed(solving, [(status.facts, when)]):
        return (Verdict.VACUOUS, f"the declarer never takes the talon ({rule.id}'s condition "
                "never holds)", None)
    # the hands and the talon a deal makes (the schedule of deal.partitions_deck, the pack
    # in its own order: a shuffle only renames the cards), then any exchange
    sit, dest = E.deal_schedule(enc)
    n = game.players
    hands, talon = [enc.owned_by(dest, s) for s in range(n)], enc.owned_by(dest, -1)
    idle = sit.values["idle"]
    declarer = enc.int_var("declarer")
    sit.facts += [declarer >= 0, declarer < n, declarer != idle]
    after, discards, facts = E.exchange(enc, hands, talon, declarer, enc.bool(True))
    union: Any = discards
    disjoint = []
    for s, h in enumerate(after):
        disjoint += [h & discards == 0, *[h & after[t] == 0 for t in range(s)]]
        union = union | h
    kept = game.tricks
    claim = z3.And(*[enc.popcount(h) == z3.If(idle == s, enc.int(0), enc.int(kept))
                     for s, h in enumerate(after)],
                   enc.popcount(discards) == game.program.talon_cards, *disjoint,
                   union == enc.bv(enc.full))
    model = prove(solving, sit.facts + facts, claim)
    if model is None:
        return (Verdict.HOLDS, f"the declarer takes the {game.program.talon_cards} cards of the "
                f"talon and discards {body.discards}: {kept} cards in his hand and "
                f"{game.program.talon_cards} discarded, every card still in one place, for "
                "every deal and every choice of discards (the build refuses an exchange that "
                "does not add up; this proves the Z3 encoding of the exchange agrees)", None)
    deck = game.deck
    seat = model.eval(declarer, model_completion=True).as_long()
    cards = [model.eval(h, model_completion=True).as_long() for h in after]
    gone = model.eval(discards, model_completion=True).as_long()
    lines = [f"{game.table.name(s)} holds {CardSet(deck, c)}" for s, c in enumerate(cards)]
    lines.append(f"{game.table.name(seat)} discarded {CardSet(deck, gone)}")
    return Verdict.VIOLATED, "an exchange that changes the size of a hand", trace.Playthrough(
        lines, {"declarer": seat, "hands": cards, "discards": gone})


def decide_choice_exists(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """Whoever must choose after the auction (trumps, say) has a choice the rules allow,
    for every contract the auction can end with, declarer, dealer and hands as dealt."""
    enc = Encoding.of(game, solving)
    phase = game.program.phase(PhaseKind.DECIDE)
    assert phase is not None and isinstance(phase.body, K.Decide)
    rule, body = game.rule(phase.opened_by), phase.body
    sit = E.outcome_situation(enc)  # the status the play starts from, and what it reads
    # not what holds once the choice is made: that a choice was allowed is the question
    facts = sit.before_the_choice()
    comp = Z3Compiler(enc, {**E.status_env(sit), Ctx.TRICK_NUMBER: enc.int(1)})
    applies = enc.bool(True) if phase.when is None else comp.visit(phase.when)
    allowed = [comp.visit(o.when) for o in body.options]
    if not witnessed(solving, [(facts, applies)]):
        return Verdict.VACUOUS, f"the choice of {rule.id} is never made", None
    model = prove(solving, facts, z3.Implies(applies, z3.Or(*allowed)))
    names = ", ".join(o.name for o in body.options)
    if model is None:
        return (Verdict.HOLDS, f"one of {names} is allowed for every contract, declarer, dealer "
                "and hands as dealt", None)
    # Z3's status leaves free what the choice does not read, and over-approximates the rest
    # (tracked values, trumps, sides), so it may be a moment no deal reaches: the verdict
    # is VIOLATED only for a real deal, played by the bots, that stops there
    c, d = (model.eval(sit.env[k], model_completion=True).as_long()
            for k in (Ctx.CONTRACT, Ctx.DECLARER))
    stuck = _stuck_deciding(game)
    if stuck is None:
        return (Verdict.UNKNOWN, f"Z3 finds a {game.ladder[c]} by {game.table.name(d)} with no "
                f"choice, but none of {_DECIDE_DEALS} deals played by the bots reaches such a "
                "moment", None)
    seed, state = stuck
    bid, seat = game.ladder[state.contract], game.table.name(state.declarer)
    hands = "; ".join(f"{game.table.name(s)} {CardSet(game.deck, h)}"
                      for s, h in enumerate(state.dealt))
    return Verdict.VIOLATED, "a contract that leaves no choice", trace.Playthrough(
        [f"deal seed {seed}: {seat} declares {bid} (dealer {game.table.name(state.dealer)}; "
         f"dealt: {hands}): none of {names} is allowed"],
        {"seed": seed, "contract": str(bid), "declarer": state.declarer,
         "dealer": state.dealer, "dealt": list(state.dealt)}, replayed=True)


_DECIDE_DEALS = 2_000


def _stuck_deciding(game: Game) -> tuple[int, Any] | None:
    """A deal played by random bots (seeds 0, 1, ...) that reaches a choice after the
    auction with none allowed: its seed and the state there."""
    for seed in range(_DECIDE_DEALS):
        state, rng = new_deal(game, seed=seed), random.Random(seed)
        while state.phase is not Phase.OVER:
            try:
                actions = legal_actions(state)
            except NoLegalActionError:
                if state.phase is Phase.DECIDE:
                    return seed, state
                break  # stuck elsewhere: another property's business
            state = apply(state, actions[pick(rng, len(actions))])
    return None


def legal_card_exists(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    for p in range(game.program.dealt_seats):  # a position past the seats dealt in never is
        sit = E.trick_situation(enc, p)
        held = sit.env[Ctx.HAND] | sit.env[Ctx.ASIDE]
        claim = z3.Implies(held != 0, sit.values["legal"] != 0)
        model = prove(solving, sit.facts, claim)
        occurs = situations_occur(game, Scope.PLAY, solving.timeout, solving.rlimit)[p:p + 1]
        if model is None and not witnessed(solving, [(sit.facts, held != 0)], occurs):
            return (Verdict.VACUOUS, f"it holds only because no seat at position {p + 1} "
                    "ever has a card", None)
        if model is not None:
            v = sit.decode(model)
            holds = implies_(~(hand_ref | aside_ref).is_empty, ~legal_cards.is_empty)
            pt = trace.replay_trick(game, v, p, holds, {})
            return Verdict.VIOLATED, f"a seat at position {p + 1} with cards but no legal card", pt
    return Verdict.HOLDS, "for every hand, contract and trick so far, in every position", None


def one_winner(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    n = game.players
    sit = E.trick_situation(enc, n)
    strengths = [sit.compile(Strength(i)) for i in range(n)]
    w = sit.values["winner"]
    size = sit.env[Ctx.TRICK_SIZE]
    best = strengths[0]
    for i in range(1, n):
        best = z3.If(w == i, strengths[i], best)
    claim = z3.And(best >= 0, w < size,
                   *[z3.Or(w == i, size <= i, strengths[i] < best) for i in range(n)])
    model = prove(solving, sit.facts, claim)
    if model is None:
        occurs = situations_occur(game, Scope.TRICK, solving.timeout, solving.rlimit)
        if not witnessed(solving, [(sit.facts, size == game.program.dealt_seats)], occurs):
            return Verdict.VACUOUS, "it holds only because no trick is ever complete", None
        return Verdict.HOLDS, "the winning card is strictly stronger than every other card", None
    v = sit.decode(model)
    ws = v["winner"]
    holds = all_of(*[(trick_winner == i) | (trick_size <= i) | (strength(i) < strength(ws))
                     for i in range(n)], strength(ws) >= 0, trick_winner < trick_size)
    pt = trace.replay_trick(game, v, n, holds, {})
    return Verdict.VIOLATED, "a trick with no single winner", pt


def cards_held(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    enc = Encoding.of(game, solving)
    for p in range(game.program.dealt_seats):
        sit = E.trick_situation(enc, p)
        held = sit.env[Ctx.HAND] | sit.env[Ctx.ASIDE]
        model = prove(solving, sit.facts, sit.values["legal"] & ~held == 0)
        occurs = situations_occur(game, Scope.PLAY, solving.timeout, solving.rlimit)[p:p + 1]
        if model is None and not witnessed(solving, [(sit.facts, sit.values["legal"] != 0)],
                                           occurs):
            return (Verdict.VACUOUS, f"it holds only because no seat at position {p + 1} "
                    "ever has a legal card", None)
        if model is not None:
            holds = (legal_cards - (hand_ref | aside_ref)).is_empty
            pt = trace.replay_trick(game, sit.decode(model), p, holds, {})
            return Verdict.VIOLATED, "a legal card that the seat does not hold", pt
    return Verdict.HOLDS, ("a card is played from its holder's hand or from the cards he laid "
                           "aside, so every card is always in exactly one place"), None


def game_one_winner(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """The trick that first takes a side to the game target is one side's alone.

    Each side's score on the game line is worked out from the game's own scoring rules
    after each prefix of the tricks (the tricks after it not yet won), from any scores
    below the target before the deal: the line must never go down, and no trick may take
    two sides to the target at once.
    """
    body = game.constructs(K.GameTarget)[0][1]
    assert isinstance(body, K.GameTarget)
    enc = Encoding.of(game, solving)
    sit = E.outcome_situation(enc)
    sides = game.table.sides
    won = sit.env[WonTrick]
    before = [enc.int_var(f"before_{i}") for i in range(len(sides))]
    sit.facts += [z3.And(b >= 0, b < body.target) for b in before]

    def line_after(k: int, side: tuple[int, ...]) -> Any:
        env = {key: v for key, v in sit.env.items() if key not in (PointsWon, TricksWon)}
        env[WonTrick] = lambda seat, number: z3.And(won(seat, number), number <= k)
        env[Ctx.SEAT] = enc.int(side[0])
        return Z3Compiler(enc, env).visit(D.score(game, Ref(Ctx.SEAT), body.line))

    previous = [line_after(0, side) for side in sides]
    lines = [previous]  # each side's line after each trick, the first before any
    claims = []
    for k in range(1, game.tricks + 1):
        now = [line_after(k, side) for side in sides]
        lines.append(now)
        crossed = [z3.And(b + p < body.target, b + x >= body.target)
                   for b, p, x in zip(before, previous, now)]
        claims += [x >= p for p, x in zip(previous, now)]
        claims.append(z3.Sum([z3.If(c, enc.int(1), enc.int(0)) for c in crossed]) <= 1)
        previous = now
    model = prove(solving, sit.facts, z3.And(*claims))
    if model is None:
        return (Verdict.HOLDS, f"from any scores below {body.target}, the {body.line} line never "
                "goes down trick by trick and no trick takes two sides to the target", None)
    v = sit.decode(model)

    def value(term: Any) -> int:
        return int(model.eval(term, model_completion=True).as_long())

    t = game.table
    text = [f"contract {game.ladder[v['contract']].symbol} by {t.name(v['declarer'])}, "
            f"dealer {t.name(v['dealer'])}",
            "  trick winners: " + ", ".join(f"{k}:{t.name(v[f'winner_{k}'])}"
                                            for k in range(1, game.tricks + 1))]
    for i, side in enumerate(sides):
        text.append(f"  {t.side_name(side)}: {value(before[i])} on the {body.line} line before "
                    "the deal, then trick by trick "
                    + " ".join(str(value(before[i]) + value(after[i])) for after in lines[1:]))
    text.append(f"  (the target is {body.target})")
    return (Verdict.VIOLATED, "a trick that lowers a side's game line or takes two sides to "
            "the target", trace.Playthrough(text, v))


def rubber_length(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
    """A rubber ends after at least ``games`` and at most ``sides x (games-1) + 1`` games."""
    body = game.constructs(K.Rubber)[0][1]
    assert isinstance(body, K.Rubber)
    enc = Encoding.of(game, solving)
    sides = len(game.table.sides)
    most = sides * (body.games - 1) + 1
    winners = [enc.int_var(f"game_{k}") for k in range(most)]
    facts = [z3.And(w >= 0, w < sides) for w in winners]

    def wins(side: int, upto: int) -> Any:
        return z3.Sum([z3.If(w == side, enc.int(1), enc.int(0)) for w in winners[:upto]] or [enc.int(0)])

    over_at = [z3.Or(*[wins(s, k) >= body.games for s in range(sides)]) for k in range(most + 1)]
    claim = z3.And(over_at[most], *[z3.Not(over_at[k]) for k in range(body.games)])
    model = prove(solving, facts, claim)
    if model is None:
        return (Verdict.HOLDS, f"{sides} sides, {body.games} games to win: every rubber lasts "
                f"{body.games} to {most} games", None)
    seq = [model.eval(w, model_completion=True).as_long() for w in winners]
    names = [game.table.side_name(side) for side in game.table.sides]
    return Verdict.VIOLATED, "a rubber of the wrong length", trace.Playthrough(
        ["the games won, in turn, by " + ", ".join(names[w] for w in seq)
         + f" ({body.games} games to win the rubber)"], {"winners": seq})
