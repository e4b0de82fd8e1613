"""The score sheet of a rubber: deals written above and below the line, games and the rubber.

Nothing here names a game.  A game that plays rubbers states, in its rules, the line
its tricks are written on (``TrickScores``), the target that wins a game on that line
(``GameTarget``), what happens when a game is won (``AfterGame``), the game bonus
(``GameBonus``), how many games win the rubber (``Rubber``) and how it is settled
(``RubberSettlement``).  :func:`play_rubber` plays deals with bots and keeps the sheet
the way players keep it; :func:`render_sheet` writes it out with a WE and a THEY column.

>>> from spec.games.vint import GAME
>>> r = play_rubber(GAME, seed=3)
>>> r.over, len(r.games) in (2, 3), sum(g.winner == r.winner for g in r.games)
(True, True, 2)
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl._build import Bid, Game
from spec.dsl._derive import score_lines
from spec.engine import Bot, State, engine_for, session
from spec.errors import NotationError
from spec.text import contract_text, side_names

__all__ = ["RUBBER_FORMAT", "Entry", "GameWon", "RubberRecord", "play_rubber", "sheet_of",
           "render_sheet", "rubber_json"]

RUBBER_FORMAT = "trickspec-rubber/1"


@dataclass(frozen=True, slots=True)
class Entry:
    """One amount written on the sheet: by which side, on which line, for what."""

    deal: int  # 1, 2, ... in the order played
    side: int
    line: str
    amount: int
    what: str  # the rule id that scored it, or "game" / "rubber" for the bonuses
    game: int  # the game the entry belongs to (1, 2, ...)


@dataclass(frozen=True, slots=True)
class GameWon:
    """A game: who won it, in which deal, and the trick that took the side to the target."""

    number: int
    winner: int
    deal: int
    trick: int


@dataclass(frozen=True, slots=True)
class RubberRecord:
    """A rubber: its deals, every entry of the sheet, the games, and the settlement."""

    game: Game
    seed: int
    deals: tuple[State, ...]
    sides: tuple[tuple[int, ...], ...]
    entries: tuple[Entry, ...]
    games: tuple[GameWon, ...]
    over: bool

    @property
    def lines(self) -> tuple[str, ...]:
        return score_lines(self.game)

    def total(self, side: int, line: str | None = None) -> int:
        """A side's total on one line, or its grand total."""
        return sum(e.amount for e in self.entries
                   if e.side == side and (line is None or e.line == line))

    @property
    def winner(self) -> int | None:
        """The side that won the rubber (two games, say), or None if it is unfinished."""
        rubber = _rule(self.game, K.Rubber)
        if not self.over or rubber is None:
            return None
        wins = [sum(g.winner == s for g in self.games) for s in range(len(self.sides))]
        return wins.index(max(wins))

    @property
    def difference(self) -> int:
        """What the side with the higher grand total wins from the other."""
        totals = sorted((self.total(s) for s in range(len(self.sides))), reverse=True)
        return totals[0] - totals[1] if len(totals) > 1 else totals[0]


def _rule(game: Game, kind: type[K.Construct]) -> Any:
    found = game.constructs(kind)
    return found[0][1] if found else None


def sheet_of(game: Game, deals: Sequence[State], seed: int = 0) -> RubberRecord:
    """Write finished deals on the sheet in order, until the rubber is over.

    Each side writes what its seats scored by each scoring rule (both partners score the
    same; the side writes it once).  The game line is written trick by trick, so the
    first trick that takes a side to the target decides the game even when both sides
    pass it in the same deal.

    Raises:
        NotationError: the game keeps no sheet (no ``GameTarget`` rule), or a deal is not
            finished.
    """
    target = _rule(game, K.GameTarget)
    if target is None:
        raise NotationError(f"{game.name} has no games to win: it states no GameTarget rule, "
                            "so it keeps no rubber sheet (use --match)")
    bonus = _rule(game, K.GameBonus)
    rubber = _rule(game, K.Rubber)
    eng = engine_for(game)
    carry_over = eng.carries_over()
    goal = eng.game_target()
    sides = game.table.sides
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    entries: list[Entry] = []
    games: list[GameWon] = []
    running = [0] * len(sides)  # the game line of the game in progress
    wins = [0] * len(sides)
    over = False
    used = 0
    for number, state in enumerate(deals, start=1):
        if over:
            break
        if state.scores is None:
            raise NotationError(f"deal {number} is not finished, so it cannot be written down")
        used = number
        pending = [0] * len(sides)  # the game line of this deal, not yet entered
        decided = False  # this deal won a game

        def enter(game_no: int) -> None:
            for s in range(len(sides)):
                if pending[s]:
                    entries.append(Entry(number, s, target.line, pending[s], "tricks", game_no))
                    pending[s] = 0

        for rec in state.tricks:
            side = side_of[rec.winner]
            value = eng.trick_points(state.contract, rec)
            pending[side] += value
            if over or (decided and not carry_over):
                continue  # the deal is written whole in the game it won
            running[side] += value
            if running[side] < goal:
                continue
            if carry_over:
                enter(len(games) + 1)  # the rest of the deal counts towards the next game
            wins[side] += 1
            final = rubber is not None and eng.match_over(0, 0, 0, wins[side])
            games.append(GameWon(len(games) + 1, side, number, rec.number))
            amount = eng.game_bonus(wins[side])
            if amount:
                entries.append(Entry(number, side, bonus.line if bonus else target.line, amount,
                                     "rubber" if final else "game", len(games)))
            running = [0] * len(sides)  # a line is drawn
            decided, over = True, final
        rest = len(games) if decided and (over or not carry_over) else len(games) + 1
        enter(rest)
        # every other line: what each rule gave the side (its first seat speaks for it)
        for rule, seat, amount in eng.score_items(state):
            if isinstance(rule.body, K.TrickScores) or seat != sides[side_of[seat]][0]:
                continue
            entries.append(Entry(number, side_of[seat], rule.body.line,  # type: ignore[attr-defined]
                                 amount, rule.id, rest))
    return RubberRecord(game, seed, tuple(deals[:used]), sides, tuple(entries), tuple(games),
                        over)


def play_rubber(game: Game, *, seed: int = 0, bots: Sequence[Bot] | None = None,
                dealer: int | None = None, max_deals: int = 200,
                play: Callable[[State], State] | None = None) -> RubberRecord:
    """Play a :func:`~spec.engine.session` of deals with bots until the rubber is over
    (``play`` plays each deal in place of the bots: see :func:`~spec.engine.session`).

    Raises:
        NotationError: the game keeps no rubber sheet.
    """
    if _rule(game, K.GameTarget) is None:
        sheet_of(game, ())  # raises the one-line explanation
    deals: list[State] = []
    record = sheet_of(game, (), seed)
    deals_played = session(game, seed=seed, bots=bots, dealer=dealer, play=play)
    for state in itertools.islice(deals_played, max_deals):
        deals.append(state)
        record = sheet_of(game, deals, seed)
        if record.over:
            break
    return record


def render_sheet(record: RubberRecord, bid_text: Callable[[Bid], str] | None = None) -> str:
    """The sheet as players keep it: a WE and a THEY column (WE is the first side), the
    amounts above the line, then the line, then the game line with a rule drawn under each
    game; totals and the settlement at the foot.  ``bid_text`` writes a contract (by
    default its symbol, ``3♥``)."""
    game = record.game
    target = _rule(game, K.GameTarget)
    names = side_names(game, record.sides)
    heads = (["WE", "THEY"] if len(record.sides) == 2 else names)
    width = 44 + 10 * len(heads)

    def title(state: State) -> str:  # a deal by its contract: "3NT South"
        return contract_text(game, state, bid_text, by=" ")

    def row(label: str, amounts: dict[int, int]) -> str:
        cells = "".join(f"{amounts[s]:>10,}" if s in amounts else " " * 10
                        for s in range(len(record.sides)))
        return f"  {label:42}{cells}"

    out = [f"{game.name} rubber from seed {record.seed}: "
           + ", ".join(f"{h} = {n}" for h, n in zip(heads, names)),
           f"  {'':42}" + "".join(f"{h:>10}" for h in heads)]
    others = [e for e in record.entries if e.line != target.line]
    out.append("  above the line " + "-" * (width - 18))
    for e in others:
        state = record.deals[e.deal - 1]
        label = f"deal {e.deal} ({title(state)}): {e.what}"
        out.append(row(label, {e.side: e.amount}))
    out.append("  " + "=" * (width - 2))
    out.append("  below the line")
    for g in range(1, len(record.games) + 2):
        mine = [e for e in record.entries if e.line == target.line and e.game == g]
        by_deal: dict[int, dict[int, int]] = {}
        for e in mine:
            by_deal.setdefault(e.deal, {})[e.side] = by_deal.get(e.deal, {}).get(e.side, 0) + e.amount
        for deal, amounts in by_deal.items():
            state = record.deals[deal - 1]
            out.append(row(f"deal {deal} ({title(state)})", amounts))
        if g <= len(record.games):
            won = record.games[g - 1]
            rule = f"  {'-' * 8} game {g} to {heads[won.winner]} (deal {won.deal}, trick {won.trick}) "
            out.append(rule + "-" * max(0, width - len(rule)))
    out.append("  " + "=" * (width - 2))
    lines = [target.line] + [x for x in record.lines if x != target.line]
    for line in reversed(lines):
        out.append(row(f"total {line} the line" if line in ("above", "below") else f"total {line}",
                       {s: record.total(s, line) for s in range(len(record.sides))}))
    out.append(row("grand total", {s: record.total(s) for s in range(len(record.sides))}))
    if record.winner is not None:
        wins = [sum(g.winner == s for g in record.games) for s in range(len(record.sides))]
        totals = [record.total(s) for s in range(len(record.sides))]
        best = totals.index(max(totals))
        out.append(f"  {heads[record.winner]} win the rubber, "
                   f"{'-'.join(str(w) for w in wins)} in games; "
                   f"{heads[best]} collect {record.difference:,} on the settlement.")
    else:
        out.append(f"  the rubber is unfinished after {len(record.deals)} deals")
    return "\n".join(out)


def rubber_json(record: RubberRecord) -> dict[str, Any]:
    """A rubber as JSON-ready data: its sheet, games, totals and every deal's record."""
    from spec.records import to_record

    game = record.game
    names = side_names(game, record.sides)
    return {
        "format": RUBBER_FORMAT,
        "game": game.key,
        "variants": list(game.active_variants),
        "seed": record.seed,
        "sides": names,
        "entries": [{"deal": e.deal, "side": names[e.side], "line": e.line, "amount": e.amount,
                     "for": e.what, "game": e.game} for e in record.entries],
        "games": [{"number": g.number, "winner": names[g.winner], "deal": g.deal,
                   "trick": g.trick} for g in record.games],
        "totals": {n: {**{line: record.total(s, line) for line in record.lines},
                       "grand": record.total(s)} for s, n in enumerate(names)},
        "winner": None if record.winner is None else names[record.winner],
        "settlement": record.difference if record.winner is not None else None,
        "deals": [to_record(d) for d in record.deals],
    }
