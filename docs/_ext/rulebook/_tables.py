"""Tables computed from a game's rules: rank order, card points, trick values, the bid
ladder and score grids.

Nothing here is typed in by hand or knows a game.  Orders and points are read from the
constructs that state them, totals are evaluated by the rules language, and scores come
from the engine, which runs the game's own scoring rules on outcomes built here.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from spec.cards import SUITS, Card, CardSet, Suit
from spec.dsl import _constructs as K
from spec.dsl._build import Game
from spec.dsl._nodes import CardTable, Const, DealtHand, SumValues, T, Tracked, walk
from spec.dsl._pycompile import evaluate
from spec.engine import Engine, engine_for

from ._names import bid_text, strain_text

__all__ = ["Table", "Grid", "rank_order", "card_points", "trick_values", "ladder", "score_grid",
           "score_grids", "DISPLAY_SUITS"]

# suits as a card table prints them, highest-looking first; the order means nothing to a game
DISPLAY_SUITS: tuple[Suit, ...] = tuple(reversed(SUITS))
_ALL_SUBSETS_UP_TO = 10  # tricks per deal up to which every set of tricks won is tried


@dataclass
class Table:
    """A table to print: a header row, body rows, and the rules it was computed from."""

    title: str
    header: list[str]
    rows: list[list[str]]
    rules: list[str] = field(default_factory=list)  # ids of the rules the table comes from
    notes: list[str] = field(default_factory=list)  # sentences printed under the table
    raw: bool = False  # the cells are reST already (marked cards), not plain text


def _suit_label(suit: Suit | None) -> str:
    return suit.symbol if suit is not None else "no suit"


def rank_order(game: Game) -> Table:
    """Each suit's cards from the highest rank to the lowest, by the game's rank order."""
    ranks = game.rank_table
    by_suit: dict[Suit | None, list[Card]] = {}
    for card in game.deck:
        by_suit.setdefault(card.suit, []).append(card)
    width = max(len(cards) for cards in by_suit.values())
    rows = []
    for suit in [*DISPLAY_SUITS, None]:
        cards = sorted(set(by_suit.get(suit, ())), key=lambda c: -ranks.value(c))
        if cards:
            rows.append([_suit_label(suit)] + [c.symbol for c in cards] + [""] * (width - len(cards)))
    rule = game.constructs(K.RankOrder)[0][0]
    return Table("Rank order", ["Suit", "Highest"] + [""] * (width - 2) + ["Lowest"] if width > 1
                 else ["Suit", "Card"], rows, [rule.id])


def card_points(game: Game) -> Table | None:
    """The points of each card, by rank, with each suit's total and the pack's total."""
    found = game.constructs(K.CardPoints)
    if not found:
        return None
    rule, body = found[0]
    assert isinstance(body, K.CardPoints)
    table: CardTable = body.table
    by_rank: dict[str, set[int]] = {}
    for card, value in table.entries:
        by_rank.setdefault(card.rank.value, set()).add(value)
    order = sorted({c.rank for c in game.deck}, key=lambda r: -game.rank_table.value(
        next(c for c in game.deck if c.rank is r)))
    if all(len(v) == 1 for v in by_rank.values()):
        header = ["Rank"] + [r.value for r in order]
        rows = [["Points"] + [str(next(iter(by_rank[r.value]))) for r in order]]
    else:  # a rank worth different points in different suits: one row per suit
        header = ["Suit"] + [r.value for r in order]
        rows = [[_suit_label(s)] + [str(table.value(Card(s, r))) if Card(s, r) in game.deck else ""
                                    for r in order] for s in DISPLAY_SUITS]

    def total(cards: CardSet) -> int:
        return int(evaluate(game, SumValues(table, Const(cards, T.CARDS)), {}))  # type: ignore[call-overload]

    suits = [s for s in DISPLAY_SUITS if game.deck.cards_of(s)]
    per_suit = ", ".join(f"{s.symbol} {total(game.deck.cards_of(s))}" for s in suits)
    notes = [f"Each suit: {per_suit}.", f"The whole pack: {total(game.deck.full)} points."]
    return Table("Card points", header, rows, [rule.id], notes)


def _bid_label(game: Game, index: int) -> str:
    return bid_text(game, game.ladder[index])


def _rows_by_level(game: Game, bids: Sequence[int],
                   values: Callable[[int], object]) -> list[tuple[str, int, object]]:
    """One row per level when every strain of the level gives the same values, else one row
    per bid: (label, the bid computed, its values)."""
    out: list[tuple[str, int, object]] = []
    for level, group in itertools.groupby(bids, key=lambda i: game.ladder[i].level):
        members = list(group)
        computed = [values(i) for i in members]
        if all(c == computed[0] for c in computed) and (len(members) > 1 or
                                                         game.ladder[members[0]].label):
            label = game.ladder[members[0]].label if len(members) == 1 else str(level)
            out.append((label, members[0], computed[0]))
        else:
            out += [(_bid_label(game, i), i, c) for i, c in zip(members, computed)]
    return out


def trick_values(game: Game, bids: Sequence[int]) -> Table | None:
    """What each trick is worth to its winner, by the game's trick-value rule (per contract
    when the value depends on it), computed by the engine."""
    found = game.constructs(K.TrickValue)
    if not found:
        return None
    eng = engine_for(game)
    n = game.tricks

    def values(bid: int) -> tuple[int, ...]:
        return tuple(eng.points_outcome([0 if t == k else 1 for t in range(n)], contract=bid)[0]
                     for k in range(n))

    rows = _rows_by_level(game, bids, values)
    table = Table("Trick values", [], [], [found[0][0].id])
    if len({r[2] for r in rows}) == 1:
        table.header = ["Trick"] + [str(k) for k in range(1, n + 1)]
        table.rows = [["Points"] + [str(v) for v in rows[0][2]]]  # type: ignore[attr-defined]
    elif all(len(set(r[2])) == 1 for r in rows):  # type: ignore[arg-type]
        table.header = ["Contract", "Every trick"]
        table.rows = [[label, str(v[0])] for label, _i, v in rows]  # type: ignore[index]
    else:
        table.header = ["Contract"] + [str(k) for k in range(1, n + 1)]
        table.rows = [[label] + [str(x) for x in v] for label, _i, v in rows]  # type: ignore[attr-defined]
    total = {sum(v) for _l, _i, v in rows}  # type: ignore[arg-type]
    if len(total) == 1:
        table.notes.append(f"All {n} tricks together: {total.pop()} points.")
    return table


def ladder(game: Game, legal: Sequence[int]) -> Table:
    """The bids in the bid order, lowest first, as the game's bid-order rule ranks them.

    With several strains: a row per level and a column per strain, each cell the bid
    itself, when that grid reads in the bid order (along each row, then row after row);
    otherwise, and with one strain, the bids in one row from the lowest to the highest.
    """
    keys = game.bid_keys
    order = sorted(range(len(game.ladder)), key=lambda i: keys[i])
    allowed = set(legal)
    place = {i: k for k, i in enumerate((i for i in order if i in allowed), start=1)}
    body = game.one(K.Ladder)
    assert isinstance(body, K.Ladder)
    rules = [r.id for r, _b in game.rules_with(K.Ladder, K.BidOrder)]
    table = Table("Bid ladder", [], [], rules)
    ranked = [i for i in order if i in place]
    grid: list[tuple[int, list[int | None]]] = []
    if len(body.strains) > 1:
        strains = sorted(body.strains, key=lambda s: game.strain_rank[s])
        for level in body.levels:
            row = [next(j for j, b in enumerate(game.ladder) if b.level == level and b.strain == s)
                   for s in strains]
            cells: list[int | None] = [i if i in place else None for i in row]
            if any(c is not None for c in cells):
                grid.append((level, cells))
    if grid and [i for _l, cells in grid for i in cells if i is not None] == ranked:
        table.header = ["Level"] + [strain_text(game, s) for s in strains]
        table.rows = [[str(level)] + ["" if i is None else _bid_label(game, i) for i in cells]
                      for level, cells in grid]
        table.notes.append(f"{len(ranked)} bids: each beats the bids to its left and every bid "
                           "in the rows above.")
    else:
        table.header = (["Lowest"] + [""] * (len(ranked) - 2) + ["Highest"] if len(ranked) > 1
                        else ["Bid"])
        table.rows = [[_bid_label(game, i) for i in ranked]]
    never = [i for i in order if i not in place]
    if never:
        table.notes.append(f"The ladder also has {len(never)} bids that no call rule ever allows "
                           f"({_span(game, never)}); they are left out.")
    return table


def _span(game: Game, bids: Sequence[int]) -> str:
    if len(bids) <= 3:
        return ", ".join(_bid_label(game, i) for i in bids)
    return f"{_bid_label(game, bids[0])} to {_bid_label(game, bids[-1])}"


# -- score grids ------------------------------------------------------------------------

@dataclass
class Grid(Table):
    """A score grid: the engine's scores by contract (rows) and result (columns)."""

    column_label: str = ""


@dataclass(frozen=True)
class _Outcome:
    winners: tuple[int, ...]
    taken: tuple[int, ...] | None
    tricks: int  # tricks won by the declaring side
    points: int  # points taken by the declaring side


def _sides(game: Game, declarer: int) -> tuple[tuple[int, ...], int]:
    """The declaring side and the first defender after the declarer."""
    side = next(s for s in game.table.sides if declarer in s)
    defender = next(game.table.next(declarer, k) for k in range(1, game.players)
                    if game.table.next(declarer, k) not in side)
    return side, defender


def _trick_outcomes(game: Game, eng: Engine, bid: int, declarer: int) -> list[_Outcome]:
    """Every set of tricks the declaring side can win (for long deals: the first k and the
    last k tricks, for each k), with the points they are worth."""
    side, defender = _sides(game, declarer)
    n = game.tricks
    if n <= _ALL_SUBSETS_UP_TO:
        sets = [set(c) for k in range(n + 1) for c in itertools.combinations(range(n), k)]
    else:
        sets = [set(range(k)) for k in range(n + 1)] + [set(range(n - k, n)) for k in range(n + 1)]
    out = []
    for won in sets:
        winners = tuple(declarer if t in won else defender for t in range(n))
        pts = eng.points_outcome(winners, contract=bid)
        out.append(_Outcome(winners, None, len(won), sum(pts[s] for s in side)))
    return out


def _card_outcomes(game: Game, eng: Engine, bid: int, declarer: int,
                   table: CardTable) -> list[_Outcome]:
    """For every number of tricks short of all or none, and every total of card points those
    tricks can hold, one set of cards the declaring side takes."""
    side, defender = _sides(game, declarer)
    n, size = game.tricks, game.players
    value = {game.deck.index(c): v for c, v in table.entries}
    reach: dict[tuple[int, int], int] = {(0, 0): 0}  # (cards, points) -> a set of cards
    for i in range(len(game.deck)):
        for (count, pts), mask in list(reach.items()):
            reach.setdefault((count + 1, pts + value[i]), mask | 1 << i)
    full = game.deck.full.mask
    out = []
    for k in range(1, n):
        for (count, _pts), mask in sorted(reach.items()):
            if count != k * size:
                continue
            winners = tuple(declarer if t < k else defender for t in range(n))
            taken = tuple(mask if s == declarer else full & ~mask if s == defender else 0
                          for s in range(game.players))
            pts = eng.points_outcome(winners, taken, contract=bid)
            out.append(_Outcome(winners, taken, k, sum(pts[s] for s in side)))
    return out


def _reads_holdings(game: Game) -> bool:
    for _r, body in game.rules_with(K.ScoreRule):
        assert isinstance(body, K.ScoreRule)
        for expr in (body.when, body.amount):
            if any(isinstance(n, (DealtHand, Tracked)) for n in walk(expr)):
                return True
    return False


def score_grids(game: Game, bids: Sequence[int]) -> list[Grid]:
    """The score grid, or in a game whose score sheet has several lines (above and below
    the line), one grid per line, in the order the engine keeps the lines."""
    lines = engine_for(game).lines
    if len(lines) <= 1:
        grid = score_grid(game, bids)
        return [grid] if grid is not None else []
    return [g for g in (score_grid(game, bids, line=line) for line in lines) if g is not None]


def score_grid(game: Game, bids: Sequence[int], line: str | None = None) -> Grid | None:
    """The scores of a deal by contract and by what the declaring side took, from the
    game's scoring rules run by the engine.

    The columns are the tricks the declaring side won when that alone decides the score,
    otherwise the points it took; adjacent columns that score alike for every contract are
    merged.  Each cell is the declaring side's score, and the defending side's after a
    slash when the defenders ever score: in all, or on one ``line`` of the score sheet.
    """
    scoring = [(r, b) for r, b in game.rules_with(K.ScoreRule, K.TrickScores)
               if line is None or getattr(b, "line", line) in (line, "")]
    if not scoring or not bids:
        return None
    eng = engine_for(game)
    declarer = 0
    side, defender = _sides(game, declarer)
    points = game.constructs(K.CardPoints)
    paying: set[str] = set()

    def outcomes(bid: int) -> list[tuple[_Outcome, tuple[int, int]]]:
        found = (_card_outcomes(game, eng, bid, declarer, points[0][1].table)  # type: ignore[attr-defined]
                 if points else _trick_outcomes(game, eng, bid, declarer))
        out = []
        for o in found:
            scores = eng.score_outcome(contract=bid, declarer=declarer, winners=o.winners,
                                       taken=o.taken, line=line)
            out.append((o, (scores[declarer], scores[defender])))
        return out

    rows_raw = _rows_by_level(game, bids, lambda b: tuple(outcomes(b)))
    by = "tricks"
    if points or not _function_of(rows_raw, lambda o: o.tricks):
        by = "points"
    key: Callable[[_Outcome], int] = (lambda o: o.tricks) if by == "tricks" else (lambda o: o.points)
    columns = sorted({key(o) for _l, _b, found in rows_raw for o, _s in found})  # type: ignore[attr-defined]
    cells: list[list[set[tuple[int, int]]]] = []
    for _label, _bid, found in rows_raw:
        row: list[set[tuple[int, int]]] = [set() for _ in columns]
        for o, s in found:  # type: ignore[attr-defined]
            row[columns.index(key(o))].add(s)
        cells.append(row)
    defenders_score = any(s[1] for row in cells for c in row for s in c)
    # merge neighbouring columns that score alike in every row
    groups: list[list[int]] = []
    for j in range(len(columns)):
        if groups and all(row[j] == row[groups[-1][0]] for row in cells):
            groups[-1].append(j)
        else:
            groups.append([j])

    def text(found: set[tuple[int, int]]) -> str:
        shown = sorted({f"{a} / {b}" if defenders_score else str(a) for a, b in found})
        return " or ".join(shown)

    for _label, bid, found in rows_raw:
        for o, _s in found:  # type: ignore[attr-defined]
            items = eng.outcome_items(contract=bid, declarer=declarer, winners=o.winners,
                                      dealt=(0,) * game.players, taken=o.taken)
            paying |= {rule_id for rule_id, _seat in items}
    what = "tricks won" if by == "tricks" else "points taken"
    who = "declarer" if len(side) == 1 else "declaring side"
    title = "Scores" if line is None else f"Scores {line} the line"
    grid = Grid(title, ["Contract"] + [_range(columns[g[0]], columns[g[-1]]) for g in groups],
                [[label] + [text(row[g[0]]) for g in groups]
                 for (label, _b, _f), row in zip(rows_raw, cells)],
                [r.id for r, _b in scoring if r.id in paying or isinstance(_b, K.TrickScores)],
                column_label=f"{what} by the {who}")
    grid.notes.append(f"Rows: the contract; columns: the {what} by the {who}; each cell is the "
                      f"score of the {who}" + (", then of the defenders" if defenders_score else "")
                      + ", as the game's scoring rules give it"
                      + ("." if line is None else f"; only what is written {line} the line."))
    if points:
        grid.notes.append("Outcomes in which one side wins every trick are left out.")
    elif game.tricks > _ALL_SUBSETS_UP_TO:
        grid.notes.append(f"The {who} wins its tricks first, or last; both give the same scores.")
    if _reads_holdings(game):
        grid.notes.append("Hands are scored as if nothing had been dealt and nothing announced, "
                          "so rules about holdings and announcements pay nothing here.")
    return grid


def _function_of(rows: list[tuple[str, int, object]], key: Callable[[_Outcome], int]) -> bool:
    for _label, _bid, found in rows:
        seen: dict[int, tuple[int, int]] = {}
        for o, s in found:  # type: ignore[attr-defined]
            if seen.setdefault(key(o), s) != s:
                return False
    return True


def _range(a: int, b: int) -> str:
    return str(a) if a == b else f"{a}–{b}"
