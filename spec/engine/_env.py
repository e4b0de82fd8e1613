"""Named environments: what each scope's rules read, and how the engine reads it.

A scope's environment is one table.  Each entry is a context value the rules may read (a
``Ctx``, a ``Ctx`` at a trick position, a tracked value, the hands as dealt ...), the
name it has in the generated code, and the Python source that reads it from the scope's
inputs (the state ``s``, say) and the entries before it.  Both the compiled function's
parameters and the code that fills them come from that one table: a rule compiled in an
environment is a function of the scope's inputs, plus the extras named for it (``card``,
``call_bid`` ...), whose body first reads the entries the rule needs, by name, and then
computes the rule::

    def legal_cards(s):
        seat = s.turn
        hand = s.hands[seat]
        ...
        return <the rule>

Nothing lines arguments up by position, and an entry the rule does not read costs
nothing.  The same table gives the engine's cache keys: :meth:`Env.reader` makes a
function of the inputs returning the named entries.
"""
from __future__ import annotations

import ast
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from spec.dsl._nodes import (
    NO_SUIT,
    Certain,
    Ctx,
    DealtHand,
    Dropped,
    Idle,
    Invited,
    IsDeclarer,
    Receives,
    Taken,
    TricksWon,
    WonTrick,
)
from spec.dsl._pycompile import EnvKey, GameTables, PyCompiler
from spec.engine._shared import shared_parts

if TYPE_CHECKING:
    from spec.dsl._build import Game


@dataclass(frozen=True)
class Entry:
    """One value of an environment: what the rules call it, and how to read it.

    With a ``name``, ``source`` is read once into a variable of that name (a parameter
    when ``source`` is the name itself: an input).  Without one, ``source`` is written out
    where the rules read the value; it may be a template with ``{seat}``-style holes that
    the compiler fills (the hands as dealt of a seat, say).
    """

    key: EnvKey | None
    source: str
    name: str | None = None


def _names_in(source: str) -> set[str]:
    """The Python names a piece of source (or a template with holes) reads."""
    holes = {f: "0" for _t, f, _s, _c in string.Formatter().parse(source) if f}
    text = source.format(**holes) if holes else source
    return {n.id for n in ast.walk(ast.parse(text, mode="eval")) if isinstance(n, ast.Name)}


class Env:
    """One scope's environment: its inputs and its table of entries, in reading order."""

    def __init__(self, inputs: tuple[str, ...], entries: Iterable[Entry]) -> None:
        self.inputs = inputs
        self.entries = tuple(entries)
        self.vars = {e.name: e for e in self.entries if e.name is not None}
        self._needs = {name: _names_in(e.source) & set(self.vars) - {name}
                       for name, e in self.vars.items()}

    def plus(self, *entries: Entry) -> Env:
        """This environment with more entries (an extra the caller passes, say)."""
        return Env(self.inputs, (*self.entries, *entries))

    @property
    def params(self) -> tuple[str, ...]:
        """The parameters of a function compiled here: the inputs, then the extras."""
        extras = tuple(n for n, e in self.vars.items() if e.source == n and n not in self.inputs)
        return self.inputs + extras

    def _closure(self, names: Iterable[str]) -> list[str]:
        """The variables to read for ``names``, with those they read, in table order."""
        todo, need = list(names), set()
        while todo:
            n = todo.pop()
            if n in self.vars and n not in need:
                need.add(n)
                todo.extend(self._needs[n])
        return [n for n in self.vars if n in need]

    def _prologue(self, names: Iterable[str]) -> list[str]:
        params = set(self.params)
        return [f"    {n} = {self.vars[n].source}" for n in self._closure(names)
                if n not in params and self.vars[n].source != n]

    def compiler_env(self) -> dict[EnvKey, str]:
        return {e.key: (e.name or e.source) for e in self.entries if e.key is not None}

    def compile(self, game: Game, tables: GameTables, expr: Any, name: str,
                shared: bool = False) -> Callable[..., Any]:
        """``expr`` as a function of this environment's parameters; with ``shared``, the
        subexpressions it repeats computed once (see :mod:`spec.engine._shared`).

        The function carries its ``source``, its ``params`` and ``reads``: the variables
        its body reads (not the inputs they are read from), the only values that can
        change its result besides the extras.
        """
        body = PyCompiler(game, tables, self.compiler_env()).visit(expr)
        direct = _names_in(body) & set(self.vars)
        lines = [f"def {name}({', '.join(self.params)}):", *self._prologue(direct)]
        parts = shared_parts(body) if shared else None
        if parts is not None:
            lines += ["    try:", *(f"        {line}" for line in parts[0]),
                      "    except Exception:  # a part the rule reads only where it is defined",
                      f"        return {body}", f"    return {parts[1]}"]
        else:
            lines.append(f"    return {body}")
        fn = _exec(game, tables, lines, name)
        fn.params = self.params
        fn.reads = frozenset(direct)
        return fn

    def inline(self, game: Game, tables: GameTables, expr: Any
               ) -> tuple[list[str], str, list[str]]:
        """``expr`` as code to write into a function of one's own: the statements that read
        the values it needs (unindented), the expression over them, and the inputs they
        read, in order, which that function binds to those names first.  The statements
        assign only names of this environment's table; the code reads the game's tables
        (``tables.ns``) as globals."""
        body = PyCompiler(game, tables, self.compiler_env()).visit(expr)
        wanted = _names_in(body) & set(self.vars)
        lines = [line.strip() for line in self._prologue(wanted)]
        read = wanted.union(*(_names_in(self.vars[n].source) for n in self._closure(wanted)))
        return lines, body, [n for n in self.inputs if n in read]

    def compile_best(self, game: Game, tables: GameTables, expr: Any, name: str) -> Callable[..., Any]:
        """A card's strength ``expr``, in this environment of a card played to a trick, made
        a function of a complete trick ((card, named suit) at each position) and the other
        inputs: the position of the strongest card, the first of equals.  One call judges
        the whole trick."""
        body = PyCompiler(game, tables, self.compiler_env()).visit(expr)
        loop = ("card", "declared", "position")
        params = tuple(p for p in self.inputs if p not in loop)
        per_card = [f"    {line}" for line in self._prologue(_names_in(body) & set(self.vars))]
        lines = [f"def {name}(trick, {', '.join(params)}):", "    best = None", "    at = 0",
                 "    position = 0", "    for card, declared in trick:", *per_card,
                 f"        st = {body}", "        if best is None or st > best:",
                 "            best = st", "            at = position", "        position += 1",
                 "    return at"]
        return _exec(game, tables, lines, name)

    def reader(self, game: Game, tables: GameTables, names: Iterable[str],
               name: str = "reader") -> Callable[..., Any]:
        """A function of the inputs returning the values of ``names``: a tuple of them in
        table order, the value itself for one name, ``()`` for none."""
        prologue, result = self.reader_lines(names)
        lines = [f"def {name}({', '.join(self.inputs)}):", *(f"    {line}" for line in prologue),
                 f"    return {result}"]
        return _exec(game, tables, lines, name)

    def reader_lines(self, names: Iterable[str]) -> tuple[list[str], str]:
        """What :meth:`reader` computes, as code to write into a function of one's own that
        binds the inputs: the statements that read the values (unindented, assigning only
        names of this environment's table) and the expression of the result."""
        extras = set(self.params) - set(self.inputs)
        wanted = [n for n in self.vars if n in set(names) and n not in extras]
        result = ("()" if not wanted else wanted[0] if len(wanted) == 1
                  else "(" + ", ".join(wanted) + ")")
        return [line.strip() for line in self._prologue(wanted)], result


def _exec(game: Game, tables: GameTables, lines: list[str], name: str) -> Any:
    src = "\n".join(lines) + "\n"
    ns = dict(tables.ns)
    exec(compile(src, f"<{game.key}:{name}>", "exec"), ns)  # noqa: S102  # generated from rule nodes only
    fn = ns[name]
    fn.source = src
    return fn


def _var(key: EnvKey | None, name: str, source: str | None = None) -> Entry:
    return Entry(key, name if source is None else source, name)


def _tracked(names: Iterable[str], of: str) -> list[Entry]:
    """A tracked value of the deal, each read by itself from the inputs' ``tracked``."""
    return [_var(("tracked", t), f"tracked_{i}", f"{of}.tracked[{i}]") for i, t in enumerate(names)]


def _dealt(of: str) -> list[Entry]:
    return [_var(None, "dealt", f"{of}.dealt"), Entry(DealtHand, "dealt[{seat}]")]


def _seat_sets(of: str) -> list[Entry]:
    """The seats out of the play: the one idle for the deal, those that dropped out, and
    the guest invited back."""
    return [_var(None, "idle", f"{of}.idle"), Entry(Idle, "(({seat}) == idle)"),
            _var(None, "dropped", f"{of}.dropped"),
            Entry(Dropped, "((dropped >> ({seat})) & 1 == 1)"),
            _var(None, "guest", f"{of}.guest"), Entry(Invited, "(({seat}) == guest)")]


def _sides(of: str) -> list[Entry]:
    """Who declares and who partners the declarer, once the auction is over."""
    return [_var(Ctx.DECLARER_PARTNER, "partner", f"{of}.partner"),
            _var(None, "declarers", f"{of}.declarers"),
            Entry(IsDeclarer, "((declarers >> ({seat})) & 1 == 1)")]


def _tricks(of: str) -> list[Entry]:
    """What the seats won: tricks (a bit per trick number) and cards."""
    return [_var(None, "won", f"{of}.won"),
            Entry(WonTrick, "((won[{seat}] >> ({number})) & 1 == 1)"),
            Entry(TricksWon, "won[{seat}].bit_count()"),
            _var(None, "taken", f"{of}.taken"), Entry(Taken, "taken[{seat}]")]


class ScopeEnvs:
    """Every environment a game's rules are compiled in, read from the engine's states."""

    # long: the table of every scope's inputs, one entry per context value
    def __init__(self, game: Game, tracked: tuple[str, ...]) -> None:
        self.players = n = game.players
        no_card = len(game.deck)
        tv = _tracked(tracked, "s")
        # a call in the auction; the caller is the seat whose partner calls for it, if any
        self.call = Env(("s",), [
            _var(Ctx.SEAT, "seat", "(s.turn if s.proxy < 0 else s.proxy)"),
            _var(Ctx.DEALER, "dealer", "s.dealer"), _var(Ctx.HAND, "hand", "s.hands[seat]"),
            _var(Ctx.HAS_STANDING, "has_standing", "s.standing >= 0"),
            _var(Ctx.STANDING, "standing", "s.standing"),
            _var(Ctx.HIGH_BIDDER, "high_bidder", "s.high_bidder"),
            _var(Ctx.STANDING_MAKER, "standing_maker",
                 "s.high_namer" if game.program.namer_declares else "s.high_bidder"),
            _var(Ctx.STANDING_ACCEPTED, "standing_accepted", "s.accepter >= 0"),
            _var(Ctx.SEAT_HOLDS, "seat_holds",
                 "(seat == s.high_bidder or seat == s.accepter or bool(s.joined >> seat & 1))"),
            # the seats that passed, with those holding the standing bid and the idle one
            _var(Ctx.OTHERS_PASSED, "others_passed",
                 "(s.passed | s.joined | (1 << s.high_bidder if s.high_bidder >= 0 else 0)"
                 " | (1 << s.accepter if s.accepter >= 0 else 0)"
                 f" | (1 << s.idle if s.idle >= 0 else 0)) == {(1 << n) - 1}"),
            _var(Ctx.CALLS_MADE, "calls_made", "s.stage_calls"),
            _var(Ctx.PASSES_IN_ROW, "passes_in_row", "s.passes_in_row"),
            _var(Ctx.STAGE, "stage", "s.stage"),
            _var(Ctx.SEAT_CALLS, "seat_calls", "s.seat_calls[seat]"),
            _var(Ctx.SEAT_PASSED, "seat_passed", "bool(s.passed >> seat & 1)"),
            _var(Ctx.BID_THIS_STAGE, "bid_this_stage", "s.stage_bid"),
            _var(Ctx.PROXY, "proxy", "s.proxy >= 0"), _var(Ctx.TURN_UP, "turn_up", "s.turn_up"),
            *tv])
        self.call_made = self.call.plus(_var(Ctx.CALL_IS_BID, "call_is_bid"),
                                        _var(Ctx.CALL_BID, "call_bid"))
        # a card about to be played
        rest = [_var(Ctx.DEALER, "dealer", "s.dealer"), _var(Ctx.TRUMP, "trump", "s.trump"),
                _var(Ctx.TRICK_NUMBER, "trick_number", "s.trick_number"),
                _var(Ctx.CONTRACT, "contract", "s.contract"),
                _var(Ctx.DECLARER, "declarer", "s.declarer"),
                _var(Ctx.ASIDE, "aside", "s.aside[seat]"), _var(Ctx.LEADER, "leader", "s.leader"),
                _var(Ctx.TURN_UP, "turn_up", "s.turn_up"), *tv, *_dealt("s"),
                *_seat_sets("s"), *_sides("s")]
        # the cards that would win the trick so far (read last: it reads the others)
        beating = _var(Ctx.BEATING, "beating",
                       "s.engine.beating(s.trick, hand, led_suit, trump, trick_number, contract)")
        # what a seat can be sure of is asked of the whole state, and so are the tricks won
        # so far (the fast play, which keeps parts of it in local variables, reads neither)
        sure = Entry(Certain, "s.engine.certain(s, {seat}, {undecided})")
        self.play = Env(("s",), [
            _var(Ctx.SEAT, "seat", "s.turn"), _var(Ctx.HAND, "hand", "s.hands[seat]"),
            _var(Ctx.IS_LEADING, "is_leading", "not s.trick"),
            _var(Ctx.LED_SUIT, "led_suit", f"(s.led_suit if s.trick else {NO_SUIT})"),
            _var(Ctx.POSITION, "position", "len(s.trick)"), *rest, beating, *_tricks("s"),
            sure])
        # the same, for the fast play, which keeps the seat to play, its hand, the trick's
        # length and its led suit in local variables (the rest it keeps up to date in ``s``)
        self.play_fast = Env(("s", "seat", "hand", "position", "led"), [
            _var(Ctx.SEAT, "seat"), _var(Ctx.HAND, "hand"),
            _var(Ctx.IS_LEADING, "is_leading", "position == 0"),
            _var(Ctx.LED_SUIT, "led_suit", f"(led if position else {NO_SUIT})"),
            _var(Ctx.POSITION, "position"), *rest, beating])
        self.play_card = self.play.plus(_var(Ctx.CARD, "card"), _var(Ctx.DECLARED, "declared"))
        self.play_fast_card = self.play_fast.plus(_var(Ctx.CARD, "card"),
                                                  _var(Ctx.DECLARED, "declared"))
        # a card played to a trick, from plain values (the fast play keeps no state per card)
        self.entry = Env(("card", "declared", "position", "led_suit", "trump", "trick_number",
                          "contract"), [
            _var(Ctx.CARD, "card"), _var(Ctx.DECLARED, "declared"),
            _var(Ctx.IS_LEADING, "is_leading", "position == 0"),
            _var(Ctx.POSITION, "position"), _var(Ctx.LED_SUIT, "led_suit"),
            _var(Ctx.TRUMP, "trump"), _var(Ctx.TRICK_NUMBER, "trick_number"),
            _var(Ctx.CONTRACT, "contract")])
        # the deal between two actions
        status = [_var(Ctx.DEALER, "dealer", "s.dealer"),
                  _var(Ctx.CONTRACT, "contract", "s.contract"),
                  _var(Ctx.DECLARER, "declarer", "s.declarer"), _var(Ctx.TRUMP, "trump", "s.trump"),
                  _var(Ctx.TURN_UP, "turn_up", "s.turn_up"), *_seat_sets("s"), *_sides("s")]
        self.first_lead = Env(("s",), [*status, *tv])
        self.status = Env(("s",), [*status, _var(Ctx.TRICK_NUMBER, "trick_number", "s.trick_number"),
                                   *tv, *_dealt("s")])
        # a complete trick of the state's deal: its number, leader, size, and at each
        # position the card, named suit and face-down flag; the position of a seat sitting
        # out holds no card (number len(deck)), as in Z3 (see ``padded``)
        self.no_card = no_card
        self.trick = Env(("s", "number", "leader", "size", "cards", "named", "faces"), [
            *status, _var(Ctx.TRICK_NUMBER, "trick_number", "number"), _var(Ctx.LEADER, "leader"),
            _var(Ctx.TRICK_SIZE, "trick_size", "size"), _var(None, "cards"), _var(None, "named"),
            _var(None, "faces"),
            *(Entry((Ctx.PLAYED_CARD, i), f"cards[{i}]") for i in range(n)),
            *(Entry((Ctx.PLAYED_DECLARED, i), f"named[{i}]") for i in range(n)),
            *(Entry((Ctx.PLAYED_FACE_DOWN, i), f"faces[{i}]") for i in range(n)), *tv])
        # the end of the play, for the seat scored: ``o`` is the finished state, or any
        # object with its fields
        self.outcome = Env(("seat", "o"), [
            _var(Ctx.SEAT, "seat"), _var(Ctx.DECLARER, "declarer", "o.declarer"),
            _var(Ctx.CONTRACT, "contract", "o.contract"), _var(Ctx.DEALER, "dealer", "o.dealer"),
            _var(Ctx.TRUMP, "trump", "o.trump"), _var(Ctx.TURN_UP, "turn_up", "o.turn_up"),
            *_tracked(tracked, "o"), *_dealt("o"),
            *_tricks("o"), *_seat_sets("o"), *_sides("o"), _var(Ctx.POT, "pot", "o.pot")])
        self.points = Env(("seat", "o"), [_var(Ctx.SEAT, "seat"),
                                          _var(Ctx.CONTRACT, "contract", "o.contract"),
                                          *_tricks("o")])
        self.deal_first = Env(("dealer",), [_var(Ctx.DEALER, "dealer")])
        # the pack dealt: where each card goes (seat by position in the pack, from 1)
        self.deal = Env(("dealer", "receives", "tracked"), [
            _var(Ctx.DEALER, "dealer"), _var(None, "receives"),
            Entry(Receives, "(receives[{card}] if 0 < {card} < len(receives) else -1)"),
            *(_var(("tracked", t), f"tracked_{i}", f"tracked[{i}]") for i, t in enumerate(tracked))])
        self.match = Env(("deals", "lead", "trail", "games"), [
            _var(Ctx.DEALS_PLAYED, "deals"), _var(Ctx.LEAD_TOTAL, "lead"),
            _var(Ctx.TRAIL_TOTAL, "trail"), _var(Ctx.GAMES_WON, "games")])

    def padded(self, cards: tuple[int, ...], named: tuple[int, ...], faces: tuple[bool, ...]
               ) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
        """The size of a trick and its cards, named suits and face-down flags at every
        position, as the trick environment reads them."""
        short = self.players - len(cards)
        if short == 0 and len(faces) == len(cards):
            return len(cards), cards, named, faces
        return (len(cards), tuple(cards) + (self.no_card,) * short,
                tuple(named) + (NO_SUIT,) * short,
                tuple(faces) + (False,) * (self.players - len(faces)))
