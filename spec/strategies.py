"""Hypothesis strategies for testing another implementation of a game against this engine.

Three strategies draw what another engine can be compared on, for any registered game (a
game object, or its key or alias as :func:`spec.registry.find_game` reads it), with
variants in force by their ids:

* :func:`deals`: deals as dealt, each a :class:`Deal` (the seed, the dealer and the
  hands, as :func:`spec.engine.new_deal` takes them);
* :func:`positions`: states reached from such a deal by legal actions, each a
  :class:`Position`, to compare the legal actions, the trick winners or the scores at any
  moment of a deal;
* :func:`records`: whole deals played to the end, as records (the JSON-ready data of
  :func:`spec.records.to_record`, which ``trickspec play --json`` writes and
  ``trickspec replay`` reads), for an engine that replays records.

Every choice is drawn by Hypothesis, so a failing example shrinks to a small, readable
one.  A deal is drawn as an order of the pack: the first cards go to the first seat dealt
in, the next to the next seat, the rest to the talon; Hypothesis shrinks that order to
the pack's own, so a shrunk deal gives each seat a run of neighbouring cards (whole suits,
where a hand holds as many cards as a suit), and only the cards a failure needs are
moved out of it.  The dealer shrinks to the last seat (the engine's default dealer), the
seed to 0, each action to the first of the legal ones (to the next where the first would
throw the deal in) and a sequence of actions to a shorter one.  The seed only decides the hands of a deal thrown in and dealt again (the
engine shuffles those from it).

``where`` keeps only the deals that satisfy a constraint, in the language of
``trickspec deals --where`` (text, read by :func:`spec.constraints.parse_where`, or an
expression of the rules language); :func:`records` also takes a condition about the
auction or the play, judged on the deal played out.  Deals are drawn and rejected, so a
condition that few deals satisfy makes Hypothesis give up (its health check
``filter_too_much``): find such deals with ``trickspec deals`` (or
:func:`verifier.deals.deals_where`) and draw among them with ``st.sampled_from``.

Nothing here states a rule: the deal rule's shares, the legal actions and the records
all come from the engine.  The module needs Hypothesis, the ``hypothesis`` extra
(``pip install 'trickspec[hypothesis]'``); the rest of the package does not.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

try:
    from hypothesis import assume
    from hypothesis import strategies as st
except ImportError:
    raise ImportError("spec.strategies needs Hypothesis: pip install 'trickspec[hypothesis]'"
                      ) from None

from spec.cards import CardSet
from spec.constraints import about_play, deal_test, history_test, parse_where
from spec.dsl._build import Game
from spec.dsl._nodes import Expr
from spec.engine import Action, Phase, State, apply, engine_for, legal_actions, new_deal
from spec.errors import NotationError
from spec.records import MAX_SEED, to_record
from spec.registry import find_game

__all__ = ["Deal", "Position", "deals", "positions", "records"]

Where = str | Expr | None


@dataclass(frozen=True)
class Deal:
    """A deal as dealt: its seed, its dealer and each seat's hand (a card mask), as
    :func:`spec.engine.new_deal` takes them.  Its ``repr`` shows the hands as records
    write them."""

    game: Game
    seed: int
    dealer: int
    hands: tuple[int, ...]

    def state(self) -> State:
        """The state at the start of the deal (the first step begun)."""
        return new_deal(self.game, seed=self.seed, dealer=self.dealer, hands=self.hands)

    def as_json(self) -> dict[str, Any]:
        """The deal as a deals file of ``trickspec deals`` lists it (``dealer`` and
        ``hands``), which ``trickspec play --deal`` reads."""
        t = self.game.table
        return {"dealer": t.name(self.dealer),
                "hands": {t.name(s): str(CardSet(self.game.deck, h))
                          for s, h in enumerate(self.hands)}}

    def _head(self) -> str:
        variants = f" with {', '.join(self.game.active_variants)}" if self.game.active_variants else ""
        return f"Deal({self.game.key}{variants}, seed {self.seed}, dealer {self.game.table.name(self.dealer)}"

    def __repr__(self) -> str:
        hands = ", ".join(f"{seat}: {cards}" for seat, cards in self.as_json()["hands"].items())
        return f"{self._head()}; {hands})"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """The form Hypothesis reports a failing example in: a hand a line."""
        p.text(self._head() + ";")
        with p.indent(4):
            for seat, cards in self.as_json()["hands"].items():
                p.break_()
                p.text(f"{seat}: {cards}")
        p.text(")")


@dataclass(frozen=True)
class Position:
    """A moment of a deal: the deal, the legal actions applied to it in order, and the
    state they reach.  Its ``repr`` shows the actions as records write them, each with its
    seat."""

    deal: Deal
    actions: tuple[tuple[int, Action], ...]  # (seat, action), in order
    state: State

    def _actions(self) -> list[str]:
        t = self.deal.game.table
        return [f"{t.name(seat)} {action}" for seat, action in self.actions]

    def __repr__(self) -> str:
        acts = ", ".join(self._actions()) or "none"
        return f"Position({self.deal!r}; actions: {acts}; {self.state.phase.value})"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """The form Hypothesis reports a failing example in: the deal a hand a line, then
        the actions, a few a line."""
        p.text("Position(")
        with p.indent(4):
            p.break_()
            p.pretty(self.deal)
            p.text(";")
            p.break_()
            line = "actions:"
            for act in self._actions():
                if len(line) + len(act) > 72:
                    p.text(line)
                    p.break_()
                    line = "   "
                line += f" {act},"
            p.text(line.rstrip(",") if self.actions else "actions: none")
            p.text(";")
            p.break_()
            p.text(f"{self.state.phase.value})")


def _game(game: Game | str, variants: Sequence[str]) -> Game:
    """The game named (by key or alias) or given, with ``variants`` in force."""
    g = find_game(game) if isinstance(game, str) else game
    if isinstance(variants, str):  # one id, not its letters
        variants = (variants,)
    return g.with_variants(*variants) if variants else g


def _condition(game: Game, where: Where) -> Expr | None:
    return parse_where(game, where) if isinstance(where, str) else where


def _deal_filter(game: Game, where: Expr | None) -> Callable[[int, tuple[int, ...]], bool] | None:
    """The condition on the hands as dealt as a test of (dealer, hands); None for none.

    Raises:
        NotationError: the condition reads the auction or the play.
    """
    if where is None:
        return None
    if about_play(where):
        raise NotationError("a condition about the auction or the play is judged on a deal "
                            "played out: records() takes it, deals() and positions() take a "
                            "condition on the hands as dealt")
    from spec.double_dummy import Judge, reads_double_dummy  # the solver, only for dd()

    if reads_double_dummy(where):
        return Judge(game, where).accepts_deal
    return deal_test(game, where)


@st.composite
def _deal(draw: st.DrawFn, game: Game) -> Deal:
    """A deal: the pack in an order Hypothesis shrinks to its own, shared out seat by seat
    (the seats dealt in, in seat order, each the deal rule's share, the rest to the talon)."""
    eng = engine_for(game)
    n = game.players
    dealer = draw(st.sampled_from([n - 1, *range(n - 1)]))  # the engine's default first
    seed = draw(st.integers(0, MAX_SEED))
    order = draw(st.permutations(range(len(game.deck))))
    share = game.program.hand_size
    idle = eng.idle_seat(dealer)
    hands, at = [0] * n, 0
    for seat in range(n):
        if seat == idle:
            continue
        for card in order[at:at + share]:
            hands[seat] |= 1 << card
        at += share
    return Deal(game, seed, dealer, tuple(hands))


def deals(game: Game | str, where: Where = None, variants: Sequence[str] = ()
          ) -> st.SearchStrategy[Deal]:
    """Deals of ``game`` (with ``variants`` in force) that satisfy ``where``, a condition on
    the hands as dealt (see the module's docstring).

    Raises:
        NotationError: the game, a variant or the condition is not understood, or the
            condition reads the auction or the play.
    """
    g = _game(game, variants)
    test = _deal_filter(g, _condition(g, where))
    drawn = _deal(g)
    return drawn if test is None else drawn.filter(lambda d: test(d.dealer, d.hands))


def _choose(draw: st.DrawFn, state: State) -> Action | None:
    """One of the legal actions in ``state``, drawn so that it shrinks to the first; None
    once the deal is over.  The first is put last where it would throw the deal in (a
    pass that ends an auction nobody bid in, say): the simplest choices then play a deal
    rather than deal again from the seed without end."""
    acts = legal_actions(state)
    if len(acts) > 1 and apply(state, acts[0]).redeals > state.redeals:
        acts = (*acts[1:], acts[0])
    elif not acts:
        return None
    return acts[draw(st.integers(0, len(acts) - 1))]


@st.composite
def _position(draw: st.DrawFn, deal: st.SearchStrategy[Deal], phase: Phase | None,
              most: int) -> Position:
    d = draw(deal)
    state = d.state()
    done: list[tuple[int, Action]] = []
    steps = draw(st.integers(0, most))
    # to the phase asked for first: every action drawn, none of them counted
    limit = state.engine.most_actions
    while phase is not None and state.phase is not phase and len(done) < limit:
        action = _choose(draw, state)
        if action is None:  # the deal ended before it reached the phase
            break
        done.append((state.turn, action))
        state = apply(state, action)
    assume(phase is None or state.phase is phase)
    for _ in range(steps):
        action = _choose(draw, state)
        if action is None:
            break
        after = apply(state, action)
        if phase is not None and after.phase is not phase:
            break  # the next action would leave the phase
        done.append((state.turn, action))
        state = after
    return Position(d, tuple(done), state)


def positions(game: Game | str, where: Where = None, variants: Sequence[str] = (), *,
              phase: Phase | str | None = None, most: int | None = None
              ) -> st.SearchStrategy[Position]:
    """Positions of ``game`` (with ``variants`` in force): a deal drawn as :func:`deals`
    draws it (``where`` as there), then legal actions, each drawn among those the engine
    allows, at most ``most`` of them (by default as many as the cards dealt to the
    hands).

    With ``phase`` (a :class:`~spec.engine.Phase` or its name, e.g. ``"play"``), the
    positions are in that phase: the actions that reach it are drawn too, uncounted, and
    the actions after it stop before one would leave it; a deal that ends before it gets
    there (a deal with no play, say) is rejected.

    Raises:
        NotationError: as :func:`deals` raises it, or for a phase the game does not have.
    """
    g = _game(game, variants)
    wanted = None if phase is None else Phase(phase)
    if wanted is not None and wanted is not Phase.OVER and not any(
            s.phase == wanted.value for s in g.steps):
        raise NotationError(f"{g.name} has no phase {wanted.value!r}", value=phase)
    if most is None:
        most = len(g.deck) - g.program.talon_cards
    return _position(deals(g, where), wanted, most)


@st.composite
def _record(draw: st.DrawFn, deal: st.SearchStrategy[Deal],
            test: Callable[[State], bool] | None) -> dict[str, Any]:
    """A deal drawn, played to the end by drawn actions, as its record (kept only where
    ``test`` accepts the deal played out)."""
    state = draw(deal).state()
    while (action := _choose(draw, state)) is not None:
        state = apply(state, action)
    assume(test is None or test(state))
    return to_record(state)


def records(game: Game | str, where: Where = None, variants: Sequence[str] = ()
            ) -> st.SearchStrategy[dict[str, Any]]:
    """Records of whole deals of ``game`` (with ``variants`` in force), as
    :func:`spec.records.to_record` writes them: a deal drawn as :func:`deals` draws it,
    played to the end by legal actions drawn among those the engine allows.
    :func:`spec.records.replay` confirms each.

    ``where`` is a condition on the hands as dealt, or on the auction and the play (as
    ``trickspec deals --where`` reads it), judged on the deal played out.

    Raises:
        NotationError: the game, a variant or the condition is not understood.
    """
    g = _game(game, variants)
    condition = _condition(g, where)
    if condition is None or not about_play(condition):
        return _record(deals(g, condition), None)
    return _record(deals(g), _play_test(g, condition))


def _play_test(game: Game, where: Expr) -> Callable[[State], bool]:
    """A condition about the auction or the play as a test of a deal played out."""
    from spec.double_dummy import Judge, reads_double_dummy  # the solver, only for dd()

    if reads_double_dummy(where):
        judge = Judge(game, where, played=True)
        return lambda state: judge.on_state(state) is True
    return history_test(game, where)
