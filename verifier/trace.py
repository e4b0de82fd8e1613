"""Counterexamples: Z3 models decoded into engine terms and replayed through the engine.

A counterexample is shown in card notation and replayed before it is reported.  If the
engine does not reach the same outcome as the Z3 model, that is a bug in one of the two
compilers and :class:`~verifier.errors.ReplayMismatchError` is raised.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from spec.cards import CardSet
from spec.dsl._build import Game, suit_from_code
from spec.dsl._nodes import (
    NO_SUIT,
    Ctx,
    DealtHand,
    Dropped,
    Expr,
    Idle,
    Invited,
    IsDeclarer,
    T,
    Taken,
    Var,
    WonTrick,
)
from spec.dsl._pycompile import evaluate
from spec.engine import PASS, Call, Declare, Phase, engine_for, new_deal
from spec.errors import NoLegalActionError, SpecError
from verifier.errors import ReplayMismatchError


@dataclass
class Playthrough:
    """A concrete situation that violates a property, as text and as data."""

    lines: list[str]
    data: dict[str, Any] = field(default_factory=dict)
    replayed: bool = False

    def __str__(self) -> str:
        return "\n".join(self.lines)


def _cards(game: Game, mask: int) -> str:
    return CardSet(game.deck, mask).symbols if mask else "-"


def _card(game: Game, onehot: int) -> str:
    return game.deck[onehot.bit_length() - 1].symbol


def _bid(game: Game, b: int) -> str:
    return game.ladder[b].symbol


def _named(code: int) -> str:
    s = suit_from_code(code)
    return f" naming {s.symbol}" if s is not None and code != NO_SUIT else ""


def _claim_holds(game: Game, holds: Expr, env: dict[Any, object]) -> bool:
    return bool(evaluate(game, holds, env))


def tracked_of(game: Game, v: Mapping[str, Any]) -> dict[str, Any]:
    """The tracked values of a decoded situation, by name."""
    return {name: v[f"tv_{name}"] for name in game.tracked if f"tv_{name}" in v}



def _turn_up(v: dict[str, Any]) -> int:
    """The card dealt face up in a model (its number), -1 in a game without one."""
    return int(v["turn_up"]).bit_length() - 1 if "turn_up" in v else -1


def words(name: str) -> str:
    """A name of the rules (a tracked value's, a context value's) as words: ``trump open``."""
    return name.replace("_", " ")


def tracked_value_text(game: Game, name: str, value: object) -> str:
    """A tracked value as the game names it: yes or no, a seat's name, a suit's symbol
    (``none`` before one is named), or the number."""
    track = game.tracked.get(name)
    kind = track.type if track is not None else None
    if kind is T.BOOL or isinstance(value, bool):
        return "yes" if value else "no"
    if kind is T.SEAT:
        return game.table.name(int(value))  # type: ignore[call-overload]
    if kind is T.SUIT:
        suit = suit_from_code(int(value))  # type: ignore[call-overload]
        return suit.symbol if suit is not None else "none"
    return str(value)


def tracked_text(game: Game, tracked: Mapping[str, object]) -> str:
    """The tracked values of a situation in words: ``trump open: yes; declared by: North``."""
    return "; ".join(f"{words(name)}: {tracked_value_text(game, name, value)}"
                     for name, value in tracked.items())


def _tracked_env(game: Game, values: dict[str, Any]) -> dict[Any, object]:
    return {("tracked", name): int(x) for name, x in values.items()}


def _sides(game: Game, v: dict[str, Any]) -> tuple[int, list[int]]:
    """The declarer's partner and the declarers of a decoded situation."""
    declarers = [k for k in range(game.players) if v.get(f"declares_{k}", k == v["declarer"])]
    return v.get("partner", v["declarer"]), declarers


def _sides_env(partner: int, declarers: list[int]) -> dict[Any, object]:
    mask = sum(1 << k for k in declarers)
    return {Ctx.DECLARER_PARTNER: partner, IsDeclarer: f"(({mask} >> ({{seat}})) & 1 == 1)"}


# long: a counterexample's trick rebuilt field by field in the order the engine reads them
def replay_trick(game: Game, v: dict[str, Any], played: int, holds: Expr,
                 free: dict[Var, object]) -> Playthrough:
    """Replay a position (``played`` < players) or a complete trick through the engine."""
    eng = engine_for(game)
    n = game.players
    t = game.table
    leader, k, contract = v["leader"], v["trick_number"], v["contract"]
    out = v.get("out", -1)
    idle = v.get("idle", -1)
    dropped = sum(1 << s for s in range(n) if v.get(f"dropped_{s}"))
    guest = next((s for s in range(n) if v.get(f"invited_{s}")), -1)
    if "seat_0" in v:  # the seats in the play, then those out of it
        seats = [v[f"seat_{j}"] for j in range(n)]
        size = v["trick_size"]
    else:
        seats = list(eng.trick_seats(leader, out))
        size = len(seats)
        seats += [out] * (n - size)
    hands = [0] * n
    aside = [0] * n
    dealt = [0] * n
    for j in range(size):
        hands[seats[j]] = v[f"hand_{j}"]
        aside[seats[j]] = v[f"aside_{j}"]
        dealt[seats[j]] = v[f"dealt_{j}"]
        if j < played and v[f"from_aside_{j}"]:
            aside[seats[j]] |= v[f"card_{j}"]
    if "seat_0" in v:  # a seat out of the play holds nothing, but was dealt its hand
        for j in range(size, n):
            dealt[seats[j]] = v[f"dealt_{j}"]
    if out >= 0:
        hands[out] = v[f"hand_{n - 1}"]
        dealt[out] = v[f"dealt_{n - 1}"]
    n_played = min(played, size)
    trick = [(v[f"card_{j}"].bit_length() - 1, v[f"named_{j}"]) for j in range(n_played)]
    trump = v.get("trump", game.strain_codes[contract])
    tracked = tracked_of(game, v)
    suit = suit_from_code(trump)
    lines = [
        f"contract {_bid(game, contract)} by {t.name(v['declarer'])}"
        + (f", trumps {suit.symbol}" if suit is not None else "") + f"; trick {k}, "
        f"{t.name(leader)} leads" + (f", {t.name(out)} sits out" if out >= 0 else "")
        + (f", {t.name(idle)} is idle" if idle >= 0 else "")
        + "".join(f", {t.name(s)} dropped out" for s in range(n) if dropped >> s & 1),
    ]
    if tracked:
        lines.append("  " + tracked_text(game, tracked))
    for j in range(size):
        held = v[f"hand_{j}"] | (v[f"card_{j}"] if j < played and not v[f"from_aside_{j}"] else 0)
        extra = (f" (face down aside: {_cards(game, aside[seats[j]])})"
                 if aside[seats[j]] else "")
        lines.append(f"  {t.name(seats[j])}: {_cards(game, held)}{extra}")
    for j in range(n_played):
        lines.append(f"  {t.name(seats[j])} plays {_card(game, v[f'card_{j}'])}{_named(v[f'named_{j}'])}")
    partner, declarers = _sides(game, v)
    state = eng.play_position(hands=hands, contract=contract, declarer=v["declarer"], leader=leader,
                              trick_number=k, dealer=v["dealer"], trick=trick, trump=trump,
                              aside=aside, tracked=tracked, out=out, dealt=dealt,
                              turn_up=_turn_up(v), idle=idle,
                              dropped=dropped, partner=partner, declarers=declarers,
                              guest=guest)
    data: dict[str, Any] = {
        "contract": str(game.ladder[contract]), "declarer": t.name(v["declarer"]),
        "leader": t.name(leader), "trick_number": k,
        "hands": {t.name(seats[j]): str(CardSet(game.deck, v[f"hand_{j}"] | (v[f'card_{j}'] if j < played else 0))) for j in range(size)},
        "plays": [str(game.deck[c]) + (f":{suit_from_code(d).letter}" if d != NO_SUIT else "")  # type: ignore[union-attr]
                  for c, d in trick],
    }
    if suit is not None:
        data["trump"] = suit.letter
    if tracked:
        data["tracked"] = tracked
    env: dict[Any, object] = {
        Ctx.CONTRACT: contract, Ctx.DECLARER: v["declarer"], Ctx.DEALER: v["dealer"],
        Ctx.TRICK_NUMBER: k, Ctx.TRUMP: trump, Ctx.LEADER: leader,
        DealtHand: "(" + repr(tuple(dealt)) + "[{seat}])", Ctx.TURN_UP: _turn_up(v),
        Idle: f"(({{seat}}) == {idle})", Dropped: f"(({dropped} >> ({{seat}})) & 1 == 1)",
        Invited: f"(({{seat}}) == {guest})",
        **_sides_env(partner, declarers),
    }
    env.update(_tracked_env(game, tracked))
    if played == n:
        rec = state.tricks[-1]
        model_winner = seats[v["winner"]]
        lines.append(f"  the trick goes to {t.name(rec.winner)} (the engine agrees)")
        if rec.winner != model_winner:
            raise ReplayMismatchError(
                f"Z3 gives the trick to {t.name(model_winner)}, the engine to {t.name(rec.winner)}")
        data["winner"] = t.name(rec.winner)
        env[Ctx.TRICK_SIZE] = size
        faces = rec.face_down or (False,) * size
        for j in range(n):
            env[(Ctx.PLAYED_CARD, j)] = trick[j][0] if j < size else 0
            env[(Ctx.PLAYED_DECLARED, j)] = trick[j][1] if j < size else NO_SUIT
            env[(Ctx.PLAYED_FACE_DOWN, j)] = bool(faces[j]) if j < size else False
    else:
        mask = eng.legal_mask(state)
        if mask != v["legal"]:
            raise ReplayMismatchError(
                f"Z3 finds legal cards {_cards(game, v['legal'])}, the engine {_cards(game, mask)}")
        lines.append(f"  {t.name(seats[played])} may play: {_cards(game, mask)} (the engine agrees)")
        data["to_play"] = t.name(seats[played])
        data["legal"] = str(CardSet(game.deck, mask))
        env.update({
            Ctx.SEAT: seats[played], Ctx.HAND: v[f"hand_{played}"], Ctx.IS_LEADING: played == 0,
            Ctx.POSITION: played, Ctx.LED_SUIT: state.led_suit if played else NO_SUIT,
            Ctx.CARD: v[f"card_{played}"].bit_length() - 1, Ctx.DECLARED: v[f"named_{played}"],
            Ctx.ASIDE: v[f"aside_{played}"],
            Ctx.BEATING: eng.beating(state.trick, v[f"hand_{played}"], state.led_suit,
                                     state.trump, state.trick_number, state.contract),
        })
    env.update(free)
    if _claim_holds(game, holds, env):
        raise ReplayMismatchError("the claim holds in the engine's replay of the counterexample")
    return Playthrough(lines, data, replayed=True)


def replay_outcome(game: Game, v: dict[str, Any], holds: Expr, free: dict[Var, object],
                   z3_scores: list[int], *, witness: bool = False) -> Playthrough:
    """Replay an end-of-play outcome through the engine's scoring: a counterexample (the
    engine must find the claim false) or, with ``witness``, an example (true)."""
    eng = engine_for(game)
    t = game.table
    winners = [v[f"winner_{k}"] for k in range(1, game.tricks + 1)]
    taken = [v.get(f"taken_{s}", 0) for s in range(game.players)]
    dealt = [v.get(f"dealt_{s}", 0) for s in range(game.players)]
    tracked = tracked_of(game, v)
    trump = v.get("trump", game.strain_codes[v["contract"]])
    idle = v.get("idle", -1)
    dropped = sum(1 << s for s in range(game.players) if v.get(f"dropped_{s}"))
    guest = next((s for s in range(game.players) if v.get(f"invited_{s}")), -1)
    partner, declarers = _sides(game, v)
    scores = eng.score_outcome(contract=v["contract"], declarer=v["declarer"], winners=winners,
                               dealer=v["dealer"], taken=taken, tracked=tracked, trump=trump,
                               dealt=dealt, turn_up=_turn_up(v), idle=idle,
                               dropped=dropped, partner=partner, declarers=declarers,
                               guest=guest, pot=v.get("pot"))
    points = eng.points_outcome(winners, taken, v["contract"])
    if list(scores) != z3_scores:
        raise ReplayMismatchError(f"Z3 scores {z3_scores}, the engine {list(scores)}")
    others = [d for d in declarers if d != v["declarer"]]
    lines = [
        f"contract {_bid(game, v['contract'])} by {t.name(v['declarer'])}"
        + "".join(f" and {t.name(d)}" for d in others)
        + (f", partnered by {t.name(partner)}" if partner != v["declarer"] else ""),
        "  trick winners: " + ", ".join(f"{k}:{t.name(w)}" for k, w in enumerate(winners, 1)),
        "  points taken: " + ", ".join(f"{t.name(s)} {p}" for s, p in enumerate(points)),
        "  scores: " + ", ".join(f"{t.name(s)} {x:+d}" for s, x in enumerate(scores))
        + " (the engine agrees)",
    ]
    lines += [f"  with {var.name} = {_free_text(game, var, val)}" for var, val in free.items()]
    if any(dealt):
        lines.insert(1, "  dealt: " + ", ".join(f"{t.name(s)} {_cards(game, m)}"
                                                for s, m in enumerate(dealt)))
    won = [0] * game.players
    for k, w in enumerate(winners, 1):
        won[w] |= 1 << k
    if any(taken):
        lines.insert(2, "  cards taken: " + ", ".join(f"{t.name(s)} {_cards(game, m)}"
                                                     for s, m in enumerate(taken)))
    if tracked:
        lines.insert(1, "  " + tracked_text(game, tracked))
    if "pot" in v:  # the pot the deal began with, and what the payoff leaves in it
        lines.insert(1, f"  the pot: {v['pot']} chips, {v['pot'] - sum(scores)} after the payoff")
    env: dict[Any, object] = {
        Ctx.CONTRACT: v["contract"], Ctx.DECLARER: v["declarer"], Ctx.DEALER: v["dealer"],
        Ctx.SEAT: v["seat"], WonTrick: "((" + repr(tuple(won)) + "[{seat}] >> ({number})) & 1 == 1)",
        Taken: "(" + repr(tuple(taken)) + "[{seat}])", DealtHand: "(" + repr(tuple(dealt)) + "[{seat}])",
        Ctx.TRUMP: trump, Ctx.TRICK_NUMBER: game.tricks + 1, Ctx.TURN_UP: _turn_up(v),
        Idle: f"(({{seat}}) == {idle})", Dropped: f"(({dropped} >> ({{seat}})) & 1 == 1)",
        Invited: f"(({{seat}}) == {guest})", Ctx.POT: v.get("pot", eng.full_pot),
        **_sides_env(partner, declarers),
    }
    env.update(_tracked_env(game, tracked))
    env.update(free)
    if _claim_holds(game, holds, env) != witness:
        raise ReplayMismatchError("the claim holds in the engine's replay of the counterexample"
                                  if not witness else "the engine finds the example false")
    return Playthrough(lines, {
        "contract": str(game.ladder[v["contract"]]), "declarer": t.name(v["declarer"]),
        "trick_winners": [t.name(w) for w in winners], "scores": {t.name(s): x for s, x in enumerate(scores)},
        **({"pot": v["pot"]} if "pot" in v else {}),
    }, replayed=True)


def replay_deal(game: Game, order: list[int], dealer: int, z3_hands: list[int] | None) -> Playthrough:
    eng = engine_for(game)
    hands = eng.hands_from_order(order, dealer)
    if z3_hands is not None and list(hands) != z3_hands:
        raise ReplayMismatchError("the engine deals other hands from the same pack")
    t = game.table
    lines = ["pack: " + " ".join(game.deck[i].symbol for i in order), f"dealer: {t.name(dealer)}"]
    lines += [f"  {t.name(s)}: {_cards(game, h)}" for s, h in enumerate(hands)]
    return Playthrough(lines, {"pack": [str(game.deck[i]) for i in order]}, replayed=True)


def _calls_open(state: Any) -> bool:
    """The seat to call has a legal call: its own, or one its partner names when asked."""
    eng = state.engine
    try:
        actions = eng.legal_actions(state)
    except NoLegalActionError:
        return False
    if any(isinstance(a, Call) for a in actions):
        return True
    if Declare("partner") not in actions:
        return False
    try:
        asked = eng.apply(state, Declare("partner"))
        return any(isinstance(a, Call) for a in eng.legal_actions(asked))
    except NoLegalActionError:
        return False


def replay_auction(game: Game, calls: list[tuple[int, bool]], dealer: int, why: str, *,
                   stage: int = 1, start: tuple[int, int] | None = None,
                   stuck: bool = False) -> Playthrough:
    """Replay a call sequence from a fresh deal; every call must be accepted.

    For a later auction stage, the earlier stages are played first: everyone passes but
    the seat that makes the standing bid ``start``, and the cards laid aside are the first
    ones allowed.  ``calls`` are (bid number or -1, made by the partner in the seat's place).
    With ``stuck`` the replay confirms that the seat to call next has no legal call.  A
    call the engine refuses ends the replay, not confirmed, saying which and why.
    """
    state = new_deal(game, seed=0, dealer=dealer)
    eng = state.engine
    t = game.table
    lines = [f"dealer: {t.name(dealer)}"]
    if start is not None:
        standing, high = start
        bid_made = False
        while state.stage < stage:
            if state.phase is Phase.AUCTION:
                call = (Call(game.ladder[standing]) if state.turn == high and not bid_made
                        else PASS)
                bid_made = bid_made or call is not PASS
            else:
                call = eng.legal_actions(state)[0]  # the first card allowed to be laid aside
            lines.append(f"  {t.name(state.turn)}: {call}")
            state = eng.apply(state, call)
        lines.append(f"  -- auction stage {stage} --")
    data: dict[str, Any] = {"calls": [str(game.ladder[b]) if b >= 0 else "pass" for b, _p in calls],
                            "stage": stage}
    for b, proxy in calls:
        seat = state.turn
        try:
            if proxy:
                state = eng.apply(state, Declare("partner"))
                lines.append(f"  {t.name(seat)} asks his partner to call")
            call = Call(None if b < 0 else game.ladder[b])
            namer = state.turn
            state = eng.apply(state, call)
        except NoLegalActionError as e:  # the call was taken; the next seat has none
            lines.append(f"  {t.name(state.turn)}: {game.ladder[b].symbol if b >= 0 else 'pass'}")
            lines.append(f"  {why}: the engine agrees ({e})")
            return Playthrough(lines, {**data, "stuck": str(e)}, replayed=stuck)
        except SpecError as e:
            lines.append(f"  the engine refuses {t.name(state.turn)}'s "
                         f"{game.ladder[b].symbol if b >= 0 else 'pass'}: {e}")
            return Playthrough(lines, {**data, "refused": str(e)}, replayed=False)
        lines.append(f"  {t.name(namer)}: {game.ladder[b].symbol if b >= 0 else 'pass'}"
                     + (f" ({t.name(seat)}'s call)" if proxy else ""))
    data["phase_after"] = state.phase.value
    if stuck:
        none = state.phase is Phase.AUCTION and not _calls_open(state)
        lines.append(f"  {why}" + (f": the engine agrees, {t.name(state.turn)} has no legal "
                                    "call" if none else ": the engine finds a legal call"))
        return Playthrough(lines, data, replayed=none)
    lines.append(f"  {why} (the engine accepts every call)")
    return Playthrough(lines, data, replayed=True)



# What a context value of a call says, in words, where a property or the call rules read
# it: for a yes or no, the sentence for each (``{seat}``: the seat to call), else a label
_CALL_FLAGS: dict[Ctx, tuple[str, str]] = {
    Ctx.AUCTION_OVER: ("the auction is over after the calls so far",
                       "the auction is not over after the calls so far"),
    Ctx.BID_THIS_STAGE: ("a bid has been made in this stage", "no bid has been made in this stage"),
    Ctx.SEAT_HOLDS: ("{seat} holds the standing bid", "{seat} does not hold the standing bid"),
    Ctx.OTHERS_PASSED: ("every seat but those holding the standing bid has passed",
                        "not every seat but those holding the standing bid has passed"),
    Ctx.MAY_ASK_PARTNER: ("{seat} may ask his partner to call", "{seat} may not ask his partner to call"),
    Ctx.CALL_JOINS: ("the call joins the standing bid", "the call does not join the standing bid"),
    Ctx.CALL_ACCEPTS: ("the call accepts the standing bid", "the call does not accept the standing bid"),
    Ctx.LAYS_ASIDE: ("the highest bidder would lay cards aside now",
                     "the highest bidder would not lay cards aside now"),
}
_CALL_COUNTS = {Ctx.CALLS_MADE: "calls made so far", Ctx.PASSES_IN_ROW: "passes in a row"}
_CALL_SEATS = {Ctx.FIRST_TO_CALL: "{x} makes the first call of this stage",
               Ctx.STANDING_MAKER: "{x} would declare the standing bid"}
# the values every moment is told by (the call, the seat, the dealer, the standing bid)
CALL_CORE = (Ctx.SEAT, Ctx.DEALER, Ctx.STAGE, Ctx.CALL_IS_BID, Ctx.CALL_BID, Ctx.PROXY,
             Ctx.HAS_STANDING, Ctx.STANDING, Ctx.HIGH_BIDDER, Ctx.STANDING_ACCEPTED)
# what the sentence of a call tells, the seat's own calls where they are read: never a
# line of their own
_IN_SENTENCE = (*CALL_CORE, Ctx.SEAT_CALLS, Ctx.SEAT_PASSED)


def _call_sentence(game: Game, at: Mapping[Ctx, Any]) -> str:
    """Who calls what, when: ``Forehand (dealer: Rearhand) bids 20♠ in the auction, over
    19♥ bid by Middlehand`` (and, where ``at`` holds them, the seat's own calls so far:
    ``after 1 call of his own, having passed before``)."""
    t = game.table
    seat = t.name(at[Ctx.SEAT])
    call = f"bids {_bid(game, at[Ctx.CALL_BID])}" if at[Ctx.CALL_IS_BID] else "passes"
    partner = t.partner(at[Ctx.SEAT])
    if at.get(Ctx.PROXY) and partner is not None:
        call += f" (his partner {t.name(partner)} calls for him)"
    stage = at.get(Ctx.STAGE, 1)
    where = "the auction" if game.stages == 1 else f"auction stage {stage}"
    if at.get(Ctx.HAS_STANDING):
        standing = (f"over {_bid(game, at[Ctx.STANDING])} bid by {t.name(at[Ctx.HIGH_BIDDER])}"
                    + (" and accepted" if at.get(Ctx.STANDING_ACCEPTED) else ""))
    else:
        standing = "with no bid standing"
    made = at.get(Ctx.SEAT_CALLS)
    own = ("" if made is None else ", his first call" if made == 0 else
           f", after {made} call{'s' if made != 1 else ''} of his own")
    if at.get(Ctx.SEAT_PASSED) is not None:
        own += ", having passed before" if at[Ctx.SEAT_PASSED] else ", not having passed"
    return f"{seat} (dealer: {t.name(at[Ctx.DEALER])}) {call} in {where}, {standing}{own}"


def _call_details(game: Game, at: Mapping[Ctx, Any]) -> list[str]:
    """The rest of a moment of an auction that was read (see :data:`_CALL_FLAGS`), a line
    each: the seat's hand, the turn-up, counts of calls, other yes-or-no values."""
    t = game.table
    seat = t.name(at[Ctx.SEAT])
    lines = []
    for ctx, value in at.items():
        if ctx in _IN_SENTENCE:
            continue
        if ctx is Ctx.HAND:
            lines.append(f"{seat} holds {_cards(game, value)}")
        elif ctx is Ctx.TURN_UP:
            lines.append(f"the turn-up: {_cards(game, value)}")
        elif ctx in _CALL_FLAGS:
            lines.append(_CALL_FLAGS[ctx][0 if value else 1].format(seat=seat))
        elif ctx in _CALL_COUNTS:
            lines.append(f"{_CALL_COUNTS[ctx]}: {value}")
        elif ctx in _CALL_SEATS:
            lines.append(_CALL_SEATS[ctx].format(x=t.name(value)))
        else:
            shown = ("yes" if value else "no") if isinstance(value, bool) else value
            lines.append(f"{words(ctx.name.lower())}: {shown}")
    return lines


def _free_text(game: Game, var: Var, value: Any) -> str:
    """A free variable's value as the game names it: a bid, cards, a seat, a suit."""
    kind = var.type.value
    if kind == "bid":
        return game.ladder[value].symbol
    if kind == "cards":
        return _cards(game, value)
    if kind == "seat":
        return game.table.name(value)
    if kind == "suit":
        suit = suit_from_code(value)
        return suit.symbol if suit is not None else "none"
    return str(value)


def call_moment(game: Game, at: Mapping[Ctx, Any], tracked: Mapping[str, Any],
                free: Mapping[Var, Any], data: dict[str, Any], *,
                allowed: bool | None = None) -> Playthrough:
    """A moment of an auction, any the situation of a call allows (not one played out
    from a deal, so not replayed), in words: who calls what and when (the seat, the
    dealer, the standing bid and its bidder, the seat's own calls), whether the call rules
    ``allowed`` the call, then each other value of ``at`` and the tracked values and free
    variables, a line each.  ``at`` holds the context values by :class:`Ctx`; ``data`` is
    the situation's machine-readable form, kept as it is."""
    lines = [_call_sentence(game, at)]
    if allowed is not None:
        lines.append("  the call rules " + ("allow" if allowed else "refuse") + " this call")
    lines += ["  " + line for line in _call_details(game, at)]
    if tracked:
        lines.append("  " + tracked_text(game, tracked))
    lines += [f"  with {var.name} = {_free_text(game, var, x)}" for var, x in free.items()]
    lines.append("  (a moment of an auction, not one played out from a deal)")
    return Playthrough(lines, data)


def match_moment(game: Game, v: Mapping[str, int], replayed: bool) -> Playthrough:
    """A match or rubber after a deal, in words: the deals played, the leading and the
    trailing totals, the games won by the side that has just won one; ``replayed`` when
    the engine judges the property false there too."""
    deals = v["deals_played"]
    lines = [f"after {deals} deal{'s' if deals != 1 else ''} of the match: the leading total "
             f"{v['lead_total']}, the trailing total {v['trail_total']}; the side that won a "
             f"game has won {v['games_won']}"
             + (" (the engine judges it the same)" if replayed else "")]
    return Playthrough(lines, dict(v), replayed=replayed)
