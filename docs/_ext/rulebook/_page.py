"""The rulebook pages as reStructuredText, generated from a game's rules.

Every ``_format_*`` generator yields reST lines; the Sphinx directives parse them.  The
text refers to rules, properties and variants with the rulebook's own roles and object
directives (``:rule:``, ``.. rulebook:rule::``), so every rule gets its anchor and every
mention of it becomes a link.  Nothing here names a game: a game module is rendered from
what it states.
"""
from __future__ import annotations

import ast
import functools
import json
import re
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spec.cards import CardSet, Rank, Suit
from spec.dsl import _constructs as K
from spec.dsl._build import Game, Origin, Rule, Source, Variant
from spec.dsl._nodes import Const, T
from spec.dsl._program import Sides
from spec.dsl._visitor import UnsupportedNodeError
from spec.engine import low_bidder
from spec.engine._reading import EngineReading
from spec.errors import SpecError
from spec.sheet import play_rubber, render_sheet
from verifier import trace
from verifier._z3.reading import Z3Reading
from verifier._z3.solver import DEFAULT_RLIMIT
from verifier.scenario import Unrolling

from . import _tables as TB
from ._choose import BOTS, POOL, choose
from ._docstring import ModuleDoc, parse_doc
from ._double import BUDGET, double_dummy_lines
from ._figures import DEALS as FIGURE_DEALS
from ._figures import figure_lines
from ._examples import Example, deal_example
from ._expr import render_construct
from ._names import bid_text, no_trump_name
from ._results import GameResults

# each back end's answer to "how do you read this rule?", shown beside it
def _readings(game: Any) -> tuple[tuple[str, Any], ...]:
    """Each back end's reader of the rules of ``game``."""
    return (("the engine", EngineReading()), ("Z3", Z3Reading()), ("scenarios", Unrolling(game)))

__all__ = ["game_page", "sources_page", "assumptions_page", "games_table", "esc",
           "rule_sections"]

_HEADING = re.compile(r"^# (\d+)([a-z]?)\. (.+?)\s*-*\s*$")
_INLINE = re.compile(r"([\\`*_|])")
_VERDICT = {"HOLDS": "holds", "VIOLATED": "violated", "VACUOUS": "vacuous", "UNKNOWN": "unknown"}


def esc(text: str) -> str:
    """Plain text made safe for reST: inline markup characters escaped, and a leading
    character that would start a list or a block written so it cannot."""
    out = _INLINE.sub(r"\\\1", text)
    if out[:1] in ("-", "+", "#", ">", ".") or re.match(r"^\d+[.)] ", out):
        out = "\\" + out
    return out


def _indent(lines: Iterable[str], by: int = 3) -> Iterator[str]:
    pad = " " * by
    for line in lines:
        yield pad + line if line else ""


def _title(text: str, char: str) -> Iterator[str]:
    yield text
    yield char * max(len(text), 4)
    yield ""


def _table(table: TB.Table, *, classes: str = "rulebook-table", stub: bool = True) -> Iterator[str]:
    yield f".. list-table:: {esc(table.title)}" if table.title else ".. list-table::"
    yield "   :header-rows: 1"
    if stub:
        yield "   :stub-columns: 1"
    yield f"   :class: {classes}"
    yield ""
    for row in [table.header, *table.rows]:
        for j, cell in enumerate(row):
            mark = "* -" if j == 0 else "  -"
            text = cell if table.raw else esc(cell)
            yield f"   {mark} {text}" if cell else f"   {mark}"
    yield ""
    for note in table.notes:
        yield esc(note)
        yield ""
    if table.rules:
        yield "From " + _and([f":rule:`{r}`" for r in table.rules]) + "."
        yield ""


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _first_line(obj: object) -> str:
    doc = (getattr(obj, "__doc__", None) or "").strip()
    return " ".join(doc.split("\n\n")[0].split())


# -- the parts of a game page --------------------------------------------------------------

@dataclass
class _Page:
    game: Game
    doc: ModuleDoc
    results: GameResults
    examples: bool = True
    pool: int = POOL
    fixtures: Path | None = None  # the folder of the game's rule-coverage fixtures
    mutations: dict[str, Any] | None = None  # a report of 'trickspec mutate GAME --json'
    fixtures_ref: str = ""  # the fixtures' folder as a download path ("/../verifier/data/fixtures")
    double_dummy: int = BUDGET  # the solver's nodes for each example deal (0: no analysis)
    bots: tuple[str, ...] = BOTS  # the bots of the examples' pool, in turn by seed
    figures: int = FIGURE_DEALS  # the deals the figures are drawn from (0: no figures)

    @property
    def fixture_folder(self) -> Path | None:
        return self.fixtures if self.fixtures is not None and self.fixtures.is_dir() else None

    @property
    def coverage(self) -> dict[str, str]:
        """Why each rule without a fixture has none (the folder's coverage.json)."""
        path = self.fixtures / "coverage.json" if self.fixtures is not None else None
        if path is None or not path.is_file():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        without = data.get("without") if isinstance(data, dict) else None
        return {str(k): str(v) for k, v in without.items()} if isinstance(without, dict) else {}

    @property
    def checks(self) -> list[dict[str, object]]:
        return self.results.results

    def mutants_of(self, rule_id: str) -> list[dict[str, Any]]:
        """The judged mutants that touched a rule (none without a mutation report)."""
        if not self.mutations:
            return []
        return [m for m in self.mutations.get("results", []) if m.get("rule_id") == rule_id]

    def covering(self, rule_id: str) -> list[dict[str, object]]:
        return [r for r in self.checks if rule_id in r.get("covers", ())]  # type: ignore[operator]


def _verdict(r: dict[str, object]) -> str:
    """A property's verdict as the page prints it: never its time, which changes from one
    build to the next (``trickspec check`` prints it)."""
    if "verdict" not in r:
        return "not checked in this build"
    return _VERDICT[str(r["verdict"])]


_MARK = {"HOLDS": "✓", "VIOLATED": "✗", "VACUOUS": "○", "UNKNOWN": "?"}


def _mark(r: dict[str, object]) -> str:
    return _MARK.get(str(r.get("verdict", "")), "")


def _link_variants(text: str, game: Game) -> str:
    ids = {v.id for v in game.variants}
    return re.sub(r"``([a-z0-9_]+)``", lambda m: f":variant:`{m.group(1)}`" if m.group(1) in ids
                  else m.group(0), text)


def _format_intro(page: _Page) -> Iterator[str]:
    yield esc(page.doc.summary)
    yield ""
    for para in page.doc.paragraphs:
        yield from textwrap.dedent(para).splitlines()
        yield ""


def _deck_text(game: Game) -> str:
    by_suit: dict[Suit, list[Rank]] = {}
    jokers = 0
    for c in game.deck:
        if c.suit is None:
            jokers += 1
        else:
            by_suit.setdefault(c.suit, []).append(c.rank)
    rank = {c.rank: game.rank_table.value(c) for c in game.deck}
    shapes = {tuple(sorted(rs, key=lambda r: -rank[r])) for rs in by_suit.values()}
    if len(shapes) == 1:
        ranks = " ".join(r.value for r in shapes.pop())
        text = f"{len(game.deck)} cards: {ranks} in each of {' '.join(s.symbol for s in TB.DISPLAY_SUITS if s in by_suit)}"
    else:
        text = f"{len(game.deck)} cards"
    if jokers:
        text += f", and {jokers} joker" + ("s" if jokers > 1 else "")
    return text


def _packets(packets: tuple[int, ...]) -> str:
    if len(set(packets)) > 1:
        return "packets of " + ", ".join(str(p) for p in packets)
    count = "one packet" if len(packets) == 1 else f"{len(packets)} packets"
    return f"{count} of {packets[0]}" + (" card" if packets[0] == 1 else " cards")


def _rules_of(game: Game, *kinds: type[K.Construct]) -> str:
    return _and([f":rule:`{r.id}`" for r, _b in game.rules_with(*kinds)])


def sight_facts(game: Game) -> list[tuple[str, str, str]]:
    """The card dealt face up and who sees what, as the deal program lists them: (label,
    text, rule ids)."""
    program = game.program
    facts: list[tuple[str, str, str]] = []
    if program.turn_up is not None:
        rule = game.constructs(K.TurnUp)[0][0]
        layout = program.layout(1)
        text = (f"card {program.turn_up + 1} of the {len(layout)} dealt before the auction is "
                f"dealt face up, to the seat {_seats_after(layout[program.turn_up])} the first "
                "to receive; it is one of his cards")
        facts.append(("Turn-up", text, rule.id))
    seen = "; ".join(f"{x.seen.value}: {x.by.value}, {x.when}" for x in program.sights)
    facts.append(("Who sees what", seen, " ".join(x.rule for x in program.sights if x.rule)))
    return facts


_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")


def _talon_text(talon: K.Talon, stages: int) -> str:
    """Where a talon is dealt, as the Deal line of a page says it."""
    when = ("before the first round" if talon.after_round == 0 else
            f"after the {_ORDINAL[talon.after_round - 1]} round"
            if talon.after_round <= len(_ORDINAL) else f"after round {talon.after_round}")
    stage = f" of stage {talon.stage}" if stages > 1 else ""
    return f"{talon.cards} cards face down to the table {when}{stage}: the talon"


def _cards(n: int) -> str:
    return f"{n} card" + ("s" if n != 1 else "")


def _take_talon_text(take: K.TakeTalon) -> str:
    always = isinstance(take.when, Const) and take.when.value is True
    return ("the declarer takes it into his hand" + ("" if always else " when the rule allows it")
            + f", then discards {_cards(take.discards)} face down, which only he sees")


def _phase_action(phase: Any) -> str:
    """What a seat does in a phase (the talon taken, and as many cards as the rule says)."""
    if isinstance(phase.body, K.TakeTalon):
        return f"take the talon, discard {_cards(phase.body.discards)}"
    return str(phase.action)


def _seats_after(k: int) -> str:
    return "that is" if k == 0 else f"{k} after"


# long: the overview's rows, in the order the page shows them
def _format_overview(page: _Page) -> Iterator[str]:
    game = page.game
    t = game.table
    program = game.program
    yield from _title("At a glance", "-")
    facts: list[tuple[str, str, str]] = []
    seats = game.constructs(K.Seats)[0][0]
    facts.append(("Players", f"{game.players}: {', '.join(t.names)}, in order of play", seats.id))
    for rule, _b in game.constructs(K.IdleSeat):
        facts.append(("Idle seat", (f"one seat sits each deal out ({esc(rule.text)}); "
                                    f"{program.dealt_seats} play"), rule.id))
    if t.partnerships:
        facts.append(("Sides", " against ".join(t.side_name(s) for s in t.partnerships), seats.id))
    elif program.sides is Sides.BY_CONTRACT:
        facts.append(("Sides", "no fixed partnerships" + ("; the declarer plays alone against "
                                                          "the others" if program.declarer_alone else ""),
                      game.constructs(K.SidesByContract)[0][0].id))
    if program.several_declarers:
        joinable = ", ".join(bid_text(game, game.ladder[k]) for k in program.joinable)
        facts.append(("Declarers", (f"several at once when later seats bid the same {joinable}; "
                                    "each is settled on his own"),
                      game.constructs(K.SameBidJoins)[0][0].id))
    if program.partner is not None:
        facts.append(("Partner", ("the declarer's partner is the seat dealt a card the rules "
                                  "name"), " ".join(program.partner_rules)))
    if program.partner_by_call:
        acceptable = ", ".join(bid_text(game, game.ladder[k]) for k in program.acceptable)
        facts.append(("Partner", (f"another seat may accept a standing {acceptable} by "
                                  "bidding it again, once, and becomes the bidder's partner; "
                                  "a higher bid takes it from the pair; unaccepted, its "
                                  "bidder plays it alone"),
                      game.constructs(K.PartnerAccepts)[0][0].id))
    facts.append(("Direction", f"{t.direction.value}", game.constructs(K.PlayDirection)[0][0].id))
    facts.append(("Deck", _deck_text(game), game.constructs(K.DeckIs)[0][0].id))
    facts.append(("Pack", f"between deals, {program.pack.value}",
                  game.rules_with(K.Shuffle, K.GatherAndCut)[0][0].id))
    deals = [b for _r, b in game.constructs(K.DealPackets)]
    packets = ", then ".join(_packets(d.packets) for d in deals)  # type: ignore[attr-defined]
    talons = game.constructs(K.Talon)
    facts.append(("Deal", f"{game.tricks} cards to each seat: {packets}"
                  + (", with an auction after each" if game.stages > 1 else "")
                  + "".join(f"; {_talon_text(b, game.stages)}" for _r, b in talons),  # type: ignore[arg-type]
                  " ".join(r.id for r, _b in [*game.constructs(K.DealPackets), *talons])))
    for rule, body in game.constructs(K.TakeTalon):
        facts.append(("Talon", _take_talon_text(body), rule.id))  # type: ignore[arg-type]
    facts += sight_facts(game)
    indicators = [(r, b) for r, b in game.constructs(K.SetAside) if b.names_trump]  # type: ignore[attr-defined]
    if indicators:
        facts.append(("Trumps", ("the suit of the card the highest bidder lays aside face down, "
                                 "the trump indicator; the other seats do not know trumps "
                                 "until it goes back to his hand or is played"),
                      " ".join(r.id for r, _b in indicators)))
    legal = page.results.legal_bids
    if legal:
        order = sorted(legal, key=lambda i: game.bid_keys[i])
        facts.append(("Bids", f"{len(legal)}, from {bid_text(game, game.ladder[order[0]])} to "
                      f"{bid_text(game, game.ladder[order[-1]])}",
                      " ".join(r.id for r, _b in game.rules_with(K.Ladder, K.BidOrder))))
    facts.append(("Course", ", then ".join(
        f"{p.name} ({getattr(p.actor, 'value', p.actor)}: {_phase_action(p)})" for p in program.phases),
        " ".join(dict.fromkeys(p.opened_by for p in program.phases))))
    facts.append(("Tricks", f"{game.tricks} of {program.dealt_seats} cards each"
                  + (", a card fewer for each defender who drops out"
                     if game.constructs(K.DropOut) else ""),
                  game.constructs(K.TrickPlay)[0][0].id))
    for rule, body in game.rules_with(K.TrickValue, K.CardPoints):
        if isinstance(body, K.CardPoints):
            total = TB.card_points(game)
            text = "the cards in the tricks a seat wins, by card points" + (
                f"; {total.notes[-1][len('The whole pack: '):].rstrip('.')} in the pack"
                if total and total.notes else "")
        else:
            text = "each trick won is worth its trick value (see the table below)"
        facts.append(("Points", text, rule.id))
    scoring = game.rules_with(K.ScoreRule, K.TrickScores)
    lines = sorted({getattr(b, "line", "") for _r, b in scoring} - {""})
    facts.append(("Scoring", f"{len(scoring)} scoring rules"
                  + (f", written on the lines {_and(lines)} of a score sheet" if lines else ""),
                  " ".join(r.id for r, _b in scoring)))
    ends = game.rules_with(K.MatchOf, K.MatchTarget, K.MatchLength, K.GameTarget, K.Rubber)
    if ends:
        facts.append(("End", " ".join(esc(r.text) for r, _b in ends),
                      " ".join(r.id for r, _b in ends)))
    for label, text, rule_ids in facts:
        links = _and([f":rule:`{i}`" for i in rule_ids.split()])
        yield (f":{label}: {esc(text) if label != 'End' else text}"
               + (f" ({links})" if rule_ids.split() else ""))
    if game.variants:
        yield f":Variants: {_and([f':variant:`{v.id}`' for v in game.variants])}"
    if page.checks:
        yield f":Properties: {_summary(page.results)}"
    yield ""


def _summary(results: GameResults) -> str:
    if not results.checked:
        return f"{len(results.results)}, not checked in this build"
    counts = {v: sum(r["verdict"] == v for r in results.results) for v in _VERDICT}
    parts = [f"{n} {'hold' if v == 'HOLDS' and n != 1 else _VERDICT[v]}"
             for v, n in counts.items() if n]
    return f"{len(results.results)} ({', '.join(parts)}), checked by Z3"


def _format_sources(page: _Page) -> Iterator[str]:
    yield from _title("Sources", "-")
    if page.doc.sources:
        yield "Each rule above names its source: **[seed]** the seed document, **[source]** a"
        yield "cited source that fills a gap, **[assumption]** neither, with the alternatives."
        yield ""
        yield ".. list-table::"
        yield "   :header-rows: 1"
        yield "   :class: rulebook-sources"
        yield ""
        yield "   * - Tag"
        yield "     - Citation"
        for tag, text in page.doc.sources.items():
            yield f"   * - [{tag}]"
            yield f"     - {text}"
        yield ""
    counts = {o: sum(r.source.origin is o for r in page.game.rules) for o in Origin}
    yield (f"Of the {len(page.game.rules)} rules, {counts[Origin.SEED]} come from the seed, "
           f"{counts[Origin.SOURCE]} from other sources and {counts[Origin.ASSUMPTION]} are "
           "assumptions (see :rulebook:page:`the open questions <assumptions>`).")
    yield ""
    for para in page.doc.deviations:
        yield from _link_variants(textwrap.dedent(para), page.game).splitlines()
        yield ""


def _format_figures(page: _Page) -> Iterator[str]:
    if not page.figures:
        return
    yield from _title("In figures", "-")
    yield from figure_lines(page.game, page.figures)


def _format_tables(page: _Page) -> Iterator[str]:
    game = page.game
    bids = page.results.legal_bids or list(range(len(game.ladder)))
    bids = sorted(bids, key=lambda i: game.bid_keys[i])
    tables = [TB.rank_order(game), TB.card_points(game), TB.trick_values(game, bids),
              TB.ladder(game, bids), *TB.score_grids(game, bids)]
    yield from _title("Tables", "-")
    yield "Computed from the rules when this page was built: orders and points from the rules"
    yield "that state them, scores by the engine running the game's scoring rules."
    yield ""
    for table in tables:
        if table is None:
            continue
        yield from _title(table.title, "~")
        shown = TB.Table("", table.header, table.rows, table.rules, table.notes)
        classes = "rulebook-table rulebook-grid" if isinstance(table, TB.Grid) else "rulebook-table"
        yield from _table(shown, classes=classes)


def _headings(path: str) -> list[tuple[int, str, str]]:
    """The numbered headings of a module (``# 5a. The joker ---``): (line, number, title)."""
    try:
        with open(path, encoding="utf-8") as f:
            return [(n, m.group(1) + m.group(2), m.group(3))
                    for n, line in enumerate(f, start=1) if (m := _HEADING.match(line))]
    except OSError:
        return []


def _chapter_key(num: str) -> tuple[int, str]:
    """A chapter's number for sorting: ``7a`` is (7, "a"), after 7 and before 8."""
    major = re.match(r"\d*", num).group(0)  # type: ignore[union-attr]
    return (int(major or 0), num[len(major):])


def rule_sections(game: Game) -> list[tuple[str, str, list[Rule]]]:
    """The game's rules in chapters, as its module numbers them: (number, title, rules).

    The chapters are the numbered headings of the module (``# 5a. The joker``), in the order
    of their numbers, which is the order of the game's rules digest; each holds the rules
    written under it, in rulebook order.  A rule written above every heading (made by a
    function, once for each variant that replaces it) joins the chapter that holds most
    rules of its id's prefix (``pay.host`` with ``pay.*``).  Rules no heading places get a
    chapter for each prefix, numbered after the others in the order they first appear, so
    that no chapter is repeated."""
    path = game.rules[0].src_loc.file if game.rules else ""
    headings = _headings(path)
    titles = {num: title for _line, num, title in headings}
    placed: dict[str, str] = {}  # rule id: the number of its chapter
    for rule in game.rules:
        above = [num for line, num, _t in headings
                 if line <= rule.src_loc.line and rule.src_loc.file == path]
        if above:
            placed[rule.id] = above[-1]
    by_prefix: dict[str, dict[str, int]] = {}
    for rule in game.rules:
        if rule.id in placed:
            counts = by_prefix.setdefault(rule.id.split(".")[0], {})
            counts[placed[rule.id]] = counts.get(placed[rule.id], 0) + 1
    last = max((_chapter_key(n)[0] for n in titles), default=0)
    for rule in game.rules:
        if rule.id in placed:
            continue
        prefix = rule.id.split(".")[0]
        counts = by_prefix.get(prefix)
        if counts:
            placed[rule.id] = min(counts, key=lambda n: (-counts[n], _chapter_key(n)))
            continue
        last += 1
        num = str(last)
        titles[num] = prefix.capitalize()
        placed[rule.id] = num
        by_prefix[prefix] = {num: 1}
    chapters: dict[str, list[Rule]] = {}
    for rule in game.rules:
        chapters.setdefault(placed[rule.id], []).append(rule)
    return [(num, titles[num], chapters[num]) for num in sorted(chapters, key=_chapter_key)]


def _source_lines(src: Source, doc: ModuleDoc) -> Iterator[str]:
    refs = " ".join((src.ref, *src.also))
    if src.origin is Origin.SEED:
        seed = doc.seed_document
        text = f"**[seed]** {refs}" + (f", in the seed document ``{seed}``" if seed else "")
        if src.note:
            text += f"; {esc(src.note)}"
    elif src.origin is Origin.SOURCE:
        text = f"**[source]** {refs}: {esc(src.note)}"
    else:
        text = f"**[assumption]** {refs}: {esc(src.note)}"
    yield f":Source: {text}"
    cited = [tag for tag in doc.sources if tag != "seed" and f"[{tag}]" in src.note]
    for tag in cited:
        yield f":[{tag}]: {doc.sources[tag]}"


@functools.lru_cache(maxsize=16)
def _rule_calls(path: str) -> tuple[tuple[int, int, str], ...]:
    """Every ``Rule(...)`` call of a module: (first line, last line, source text)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        tree = ast.parse(text)
    except (OSError, SyntaxError, ValueError):
        return ()
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and getattr(n.func, "id", getattr(n.func, "attr", "")) == "Rule":
            out.append((n.lineno, n.end_lineno or n.lineno, ast.get_source_segment(text, n) or ""))
    return tuple(out)


def written(rule: Rule) -> str:
    """A rule as its game module writes it: the ``Rule(...)`` call that makes it, read from
    the source file ("" when it cannot be found, or the call is written for many rules)."""
    loc = rule.src_loc
    found = [(last - first, text) for first, last, text in _rule_calls(loc.file)
             if first <= loc.line <= last]
    if not found:
        return ""
    text = min(found)[1]
    return text if f'"{rule.id}"' in text or f"'{rule.id}'" in text else ""


def _formal(rule: Rule) -> Iterator[str]:
    text = written(rule)
    if text:
        yield f"As the game module writes it (``{Path(rule.src_loc.file).name}``, line {rule.src_loc.line}):"
    else:
        text = render_construct(rule.body)
        yield "Formal statement:"
    yield ""
    yield ".. code-block:: text"
    yield ""
    yield from _indent(text.splitlines())
    yield ""


def _source_tag(src: Source) -> str:
    return f"[{src.origin.value}] {' '.join((src.ref, *src.also))}"


def _fixture_link(page: _Page, rule: Rule) -> tuple[str, str]:
    """The rule's line entry for its fixture, and the reason it has none ("" when it has)."""
    if page.fixture_folder is None:
        return "", ""
    path = page.fixture_folder / f"{rule.id}.json"
    if path.is_file():
        where = f"{page.fixtures_ref}/{page.game.key}/{rule.id}.json"
        return f":download:`fixture <{where}>`", ""
    reason = page.coverage.get(rule.id, "no fixture written yet (``trickspec fixtures`` "
                                        f"{page.game.key} writes one)")
    return "no fixture", reason


def _rule_line(page: _Page, rule: Rule, *, anchored: bool) -> str:
    """What a rule's heading line carries after its id: the source tag, the verified
    properties (✓) that cover it and its fixture."""
    parts = [f"**{esc(_source_tag(rule.source))}**"]
    if anchored:
        covering = page.covering(rule.id)
        if covering:
            parts.append(" ".join(f"{_mark(r)} :prop:`{r['id']}`".strip() for r in covering))
        fixture, _reason = _fixture_link(page, rule)
        if fixture:
            parts.append(fixture)
    return " · ".join(parts)


def _rule_entry(page: _Page, rule: Rule, *, anchored: bool = True,
                indexed: bool = False) -> Iterator[str]:
    """A rule: its id, source tag, covering properties and fixture on one line, its text,
    and the rest folded under "Details".  A rule not ``anchored`` (a variant's) is shown
    without what the game's own rules carry; it is a link target only where ``indexed``
    (a rule a variant adds, under an id no other rule has)."""
    game = page.game
    yield f".. rulebook:rule:: {rule.id}"
    if anchored:
        refs = [r for r in (rule.source.ref, *rule.source.also)
                if game.rule_by_ref(r)[0] is rule]
        if refs:
            yield f"   :refs: {' '.join(refs)}"
    elif not indexed:
        yield "   :no-index:"
    yield f"   :line: {_rule_line(page, rule, anchored=anchored)}"
    yield ""
    body: list[str] = [esc(rule.text), ""]
    details: list[str] = list(_source_lines(rule.source, page.doc))
    kind = type(rule.body)
    details.append(f":States: :py:class:`~{kind.__module__}.{kind.__name__}`: {_first_line(kind)}")
    part = next((part for part, ids in game.program.parts.items() if rule.id in ids), None)
    if part is not None:  # (a variant's rule is part of the variant's program)
        details.append(f":Deal program: {esc(part)}")
    details.append(":Read by: " + "; ".join(
        f"{name}: {esc(_reading(reading, rule))}" for name, reading in _readings(game)))
    if anchored:
        covering = page.covering(rule.id)
        details.append(":Covered by: " + ("; ".join(f":prop:`{r['id']}` ({_verdict(r)})"
                                                    for r in covering) or "no property"))
        _fixture, reason = _fixture_link(page, rule)
        if reason:
            details.append(f":Fixture: none: {esc(reason)}")
        variants = [v for v in game.variants if any(old.id == rule.id for old, _n in v.replaces)]
        if variants:
            details.append(":Variants: " + _and([f":variant:`{v.id}` replaces it" for v in variants]))
        if page.mutations:
            details.append(":Mutants: " + _mutation_line(page.mutants_of(rule.id)))
    details.append("")
    details += list(_formal(rule))
    body += [".. rulebook-details:: Details", ""]
    body += list(_indent(details))
    yield from _indent(body)


def _reading(reading: Any, rule: Rule) -> str:
    """A back end's reading of a rule, or what it says it does not handle yet."""
    try:
        return str(reading.visit(rule.body))
    except UnsupportedNodeError as e:
        return f"not yet ({str(e).split(': ', 1)[-1]})"


def _mutation_line(mutants: list[dict[str, Any]]) -> str:
    """How many of a rule's mutants the build or a property catches, and which survive."""
    real = [m for m in mutants if m.get("outcome") != "probably equivalent"]
    if not real:
        return "none that plays differently" if mutants else "none made"
    caught = [m for m in real if str(m.get("outcome", "")).startswith("killed")]
    line = f"{len(caught)} of {len(real)} caught"
    alive = [m for m in real if m not in caught]
    if alive:
        line += "; not caught: " + "; ".join(esc(str(m.get("description", m.get("id"))))
                                             for m in alive)
    return line


def _format_rules(page: _Page) -> Iterator[str]:
    yield from _title("Rules", "-")
    yield ("Every rule in rulebook order, with its id (a link target: ``#<rule id>``, and "
           "``#<digest id>`` for the rule that carries it), its text, its source, the "
           "properties that cover it and, folded, its formal statement.")
    yield ""
    top = ""
    for num, title, rules in rule_sections(page.game):
        major = re.match(r"\d*", num).group(0) if num else ""  # type: ignore[union-attr]
        sub = bool(num) and num != major and major == top
        if not sub:
            top = major
        yield from _title(f"{num}. {title}" if num else title, "^" if sub else "~")
        for rule in rules:
            yield from _rule_entry(page, rule)


def _format_variants(page: _Page) -> Iterator[str]:
    game = page.game
    if not game.variants:
        return
    yield from _title("Variants", "-")
    runs = {r.variant: r for r in page.results.variants}
    # a rule a variant adds is a link target (its properties' "covers" name it), once
    targets = {r.id for r in game.rules}
    for v in game.variants:
        yield f".. rulebook:variant:: {v.id}"
        yield ""
        body = [esc(v.text), ""]
        body += list(_source_lines(v.source, page.doc))
        if v.not_decidable:
            body.append(f":Not checked: {esc(v.not_decidable)}")
        body.append("")
        for old, new in v.replaces:
            if new is None:
                body += [f"It removes :rule:`{old.id}`.", ""]
                continue
            body += [f"It replaces :rule:`{old.id}` by:", ""]
            body += list(_rule_entry(page, new, anchored=False))
            body.append("")
        if v.adds:
            body += ["It adds:", ""]
        for rule in v.adds:
            body += list(_rule_entry(page, rule, anchored=False,
                                     indexed=rule.id not in targets))
            body.append("")
            targets.add(rule.id)
        run = runs.get(v.id)
        if run is not None and run.results:
            body.append("With the variant in force: " + "; ".join(
                f":prop:`{r['id']}` ({_verdict(r)})" for r in run.results) + ".")
            body.append("")
            # the properties stated for this variant alone are described here
            base = {str(r["id"]) for r in page.checks}
            for r in run.results:
                if str(r["id"]) not in base:
                    body += list(_property_entry(r, game))
        yield from _indent(body)


# the keys of a counterexample's data that draw a situation of the play (a trick or
# position, an outcome); any other counterexample is shown as the verifier writes it
_PLAY_KEYS = ("hands", "trick_winners")


def _tracked_set(game: Game | None, tracked: dict[str, Any]) -> list[str]:
    """The tracked values that are set (a flag raised, a suit named, a number or seat
    other than the first), as the verifier writes them (:func:`trace.tracked_text`)."""
    out = []
    for name, value in tracked.items():
        track = game.tracked.get(name) if game is not None else None
        if track is not None and track.type is T.SUIT:
            if trace.tracked_value_text(game, name, value) != "none":  # type: ignore[arg-type]
                out.append(trace.tracked_text(game, {name: value}))  # type: ignore[arg-type]
        elif value not in (False, 0, "", None):
            out.append(trace.tracked_text(game, {name: value}) if game is not None
                       else f"{trace.words(name)}: {value}")
    return out


def _situation(game: Game | None, data: dict[str, Any]) -> Iterator[str]:
    """A counterexample's situation drawn as a card player reads it: the contract, the
    hands as a table, the cards played so far and what the rules let the seat do."""
    head = []
    if data.get("contract"):
        contract = str(data["contract"])
        if game is not None:
            try:
                contract = bid_text(game, game.parse_bid(contract))
            except Exception:  # noqa: BLE001  # a contract the notation does not read: as is
                pass
        head.append(f"Contract {esc(contract)} by {esc(str(data.get('declarer', '')))}")
    if data.get("trump"):
        trump = str(data["trump"])
        if trump.upper() in ("NT", "N") and game is not None:
            head.append(no_trump_name(game))
        else:
            try:
                head.append(f"trumps {Suit.parse(trump).symbol}")
            except Exception:  # noqa: BLE001  # a strain the notation does not read: as is
                head.append(f"trumps {esc(trump)}")
    if data.get("trick_number"):
        head.append(f"trick {data['trick_number']}, {esc(str(data.get('leader', '')))} leads")
    if head:
        yield "; ".join(head) + "."
        yield ""
    hands = data.get("hands")
    if isinstance(hands, dict) and game is not None:
        from ._examples import _hands

        try:
            masks = [0] * game.players
            for name, text in hands.items():
                masks[game.table.names.index(name)] = CardSet.parse(text, game.deck).mask
            yield from _table(_hands(game, tuple(masks)))
        except (ValueError, SpecError):
            pass
    plays = data.get("plays")
    if plays:
        yield f"Cards played so far: {esc(', '.join(map(str, plays)))}."
        yield ""
    tracked = data.get("tracked")
    if isinstance(tracked, dict):
        set_ = _tracked_set(game, tracked)
        if set_:
            yield "Already in play: " + esc("; ".join(set_)) + "."
            yield ""
    if data.get("to_play"):
        legal = str(data.get("legal") or "")
        yield (f"{esc(str(data['to_play']))} may play: "
               + (esc(legal) if legal.strip("- ") else "no card at all") + ".")
        yield ""
    if data.get("winner"):
        yield f"The trick goes to {esc(str(data['winner']))}."
        yield ""
    if data.get("trick_winners"):
        yield "Tricks won by: " + esc(", ".join(map(str, data["trick_winners"]))) + "."
        yield ""
    if data.get("scores"):
        yield "Scores: " + esc(", ".join(f"{k} {v}" for k, v in dict(data["scores"]).items())) + "."
        yield ""


def _playthrough(r: dict[str, object], game: Game | None = None) -> Iterator[str]:
    pt = r.get("counterexample")
    if not isinstance(pt, dict):
        return
    kind = "Counterexample" if r.get("verdict") == "VIOLATED" else "Example"
    yield f"**{kind}**" + (", replayed in the engine" if pt.get("replayed") else "") + ":"
    yield ""
    data = pt.get("data")
    if isinstance(data, dict) and any(data.get(k) for k in _PLAY_KEYS):
        yield from _situation(game, data)
    elif pt.get("text"):
        yield "::"
        yield ""
        yield from _indent(str(line) for line in pt["text"])  # type: ignore[attr-defined]
        yield ""


_KINDS = {"generic": "generic, checked for every game",
          "rule": "a consequence the rulebook states (a claim)",
          "property": "a property of the game",
          "fact": "a fact of the rulebook (a number or a card it states)"}


def _format_verification(page: _Page) -> Iterator[str]:
    yield from _title("Verification", "-")
    if page.results.checked:
        yield (f"{_summary(page.results)} {page.results.z3_version}, each query within a "
               f"budget of {DEFAULT_RLIMIT:,} of Z3's steps (``trickspec check {page.game.key}`` "
               "gives the same verdicts, with the time each took).")
    else:
        yield "The properties were not checked in this build; they are listed without verdicts."
    yield ""
    yield ".. list-table::"
    yield "   :header-rows: 1"
    yield "   :class: rulebook-table rulebook-verification"
    yield ""
    yield "   * - Property"
    yield "     - Verdict"
    yield "     - Bounds"
    yield "     - Covers"
    for r in page.checks:
        verdict = f"{_mark(r)} {_verdict(r)}".strip()
        detail = esc(str(r.get("detail") or "")) if r.get("verdict", "HOLDS") == "HOLDS" else ""
        covers = _and([_rule_ref(c, page.game) for c in r.get("covers") or []])  # type: ignore[union-attr]
        yield f"   * - :prop:`{r['id']}`"
        yield f"     - {verdict}"
        yield f"     - {detail}" if detail else "     -"
        yield f"     - {covers}" if covers else "     -"
    yield ""
    yield from _format_findings(page)
    yield from _title("The properties", "~")
    for r in page.checks:
        yield from _property_entry(r, page.game)


def _rule_ref(rule_id: str, game: Game | None) -> str:
    """A link to a rule of the game, or, for a rule a variant brings in, its id and the
    variant (which has the anchor)."""
    if game is not None and rule_id not in {r.id for r in game.rules}:
        for v in game.variants:
            if any(new is not None and new.id == rule_id for _old, new in v.replaces):
                return f"``{rule_id}`` (:variant:`{v.id}`)"
    return f":rule:`{rule_id}`"


def _property_entry(r: dict[str, object], game: Game | None = None) -> Iterator[str]:
    """A property's anchored entry: text, verdict, kind, the rules it covers; the example
    or counterexample folded."""
    yield f".. rulebook:property:: {r['id']}"
    yield ""
    body = [esc(str(r["text"])), ""]
    if r.get("verdict") is not None:
        body.append(f":Verdict: {_mark(r)} {_verdict(r)}" + (f"; {esc(str(r['detail']))}" if r.get("detail") else ""))
    if r.get("kind") is not None:
        body.append(f":Kind: {_KINDS.get(str(r['kind']), str(r['kind']))}"
                    + ("; a finding" if r.get("finding") else ""))
    covers = r.get("covers") or []
    body.append(":Covers: " + (_and([_rule_ref(c, game) for c in covers]) or "no rule"))  # type: ignore[union-attr]
    body.append("")
    shown = list(_playthrough(r, game))
    if shown:
        body += [".. rulebook-details:: " + ("Counterexample" if r.get("verdict") == "VIOLATED"
                                             else "Example"), ""]
        body += list(_indent(shown))
    yield from _indent(body)


def _format_findings(page: _Page) -> Iterator[str]:
    yield from _title("Findings", "~")
    yield ("Consequences of the rules a player might not expect: properties the game marks "
           "as findings, proved, and properties a variant breaks (or the rules break), with "
           "the counterexample drawn as the engine replays it.")
    yield ""
    found = False
    game = page.game
    for r in page.checks:  # a property the rules as they stand do not satisfy
        if r.get("verdict", "HOLDS") != "HOLDS":
            found = True
            yield (f":prop:`{r['id']}` is {_VERDICT[str(r['verdict'])]}: {esc(str(r['text']))}"
                   + (f" ({esc(str(r['detail']))})" if r.get("detail") else ""))
            yield ""
            yield from _playthrough(r, game)
    for r in page.checks:
        if r.get("finding") and r.get("verdict", "HOLDS") == "HOLDS":
            found = True
            yield f"* {esc(str(r['text']))} (:prop:`{r['id']}`, {_mark(r)} {_verdict(r)})"
    if found:
        yield ""
    for run in page.results.variants:
        broken = [r for r in run.results if r["verdict"] != "HOLDS"]
        for r in broken:
            found = True
            variant = game.variant(run.variant)
            yield (f"Under :variant:`{run.variant}` ({esc(variant.text)}) "
                   f":prop:`{r['id']}` is {_VERDICT[str(r['verdict'])]}: {esc(str(r['text']))}"
                   + (f" ({esc(str(r['detail']))})" if r.get("detail") else ""))
            yield ""
            yield from _playthrough(r, game)
    if not found:
        yield "None in this build."
        yield ""


def _format_example(game: Game, ex: Example, double: Sequence[str] = ()) -> Iterator[str]:
    yield from _title(ex.title, "~")
    yield f"*Why this deal:* {ex.why}"
    yield ""
    yield f"{' '.join(ex.facts)} (Played by the engine: {esc(ex.origin)}.)"
    yield ""
    for t in ex.thrown_in:
        yield f"* {t}"
    if ex.thrown_in:
        yield ""
    yield ex.hands_caption
    yield ""
    yield from _table(ex.hands)
    if ex.auction is not None:
        yield "The auction, every call and announcement in turn:"
        yield ""
        yield from _table(ex.auction, classes="rulebook-table rulebook-auction", stub=False)
    if ex.tricks is not None:
        yield "The play (the winning card of each trick in bold, trumps underlined):"
        yield ""
        yield from _table(ex.tricks, classes="rulebook-table rulebook-tricks")
    else:
        yield "No card is played."
        yield ""
    for line in ex.results:
        yield esc(line)
        yield ""
    if ex.sheet is not None:
        yield "The score sheet of this deal:"
        yield ""
        yield from _table(ex.sheet, classes="rulebook-table rulebook-sheet")
    if ex.paid:
        yield "Paid by rule: " + "; ".join(f"{esc(seat)} {amount:+d} by :rule:`{rid}`"
                                           for rid, seat, amount in ex.paid) + "."
        yield ""
    yield from double


def _format_examples(page: _Page) -> Iterator[str]:
    if not page.examples:
        return
    yield from _title("Worked examples", "-")
    yield ("Deals chosen to show the game at work: a contract made, a contract failed, and a "
           "deal for each mechanism that comes up in few deals.  They are picked from a fixed "
           "pool of deals the engine plays with bots (the same deals every build), or from a "
           "rule's fixture when no deal of the pool shows the rule, and replayed through the "
           "engine before they are printed.")
    yield ""
    budget = page.double_dummy
    if budget:
        yield ("Each deal whose cards are played ends with its *double-dummy* analysis: what "
               "the contract is worth with all the hands open to every seat and every seat "
               "playing perfectly, as the solver (:mod:`spec.solver`) finds it, and the cards "
               "of the play that gave some of that away.  The solver searches at most "
               f"{budget:,} positions (nodes) for a deal, from the last card back; where that "
               "does not reach the first lead (long hands), the analysis starts at the first "
               "trick from which it settles every position.")
        yield ""
    for chosen in choose(page.game, fixtures=page.fixture_folder, size=page.pool,
                         bots=page.bots):
        double = double_dummy_lines(page.game, chosen.state, budget) if budget else []
        yield from _format_example(page.game, deal_example(page.game, chosen), double)
    if page.game.constructs(K.GameTarget):  # a game that keeps a rubber's score sheet
        yield from _format_rubber(page.game)


# the rubbers a page chooses from: seeds 1 .. RUBBER_SEEDS, played by bots that bid low
RUBBER_SEEDS = 60


def _rubber(game: Game) -> Any:
    """The rubber a page shows: among rubbers played by bots that pass three times in four
    and bid the lowest bid they may, the shortest whose contracts stay in the lower half of
    the ladder (the first seed of equals); the shortest of all if none does."""
    levels = sorted(b.level for b in game.ladder)
    middle = levels[(len(levels) - 1) // 2]
    best = None
    for seed in range(1, RUBBER_SEEDS + 1):
        rubber = play_rubber(game, seed=seed, bots=[low_bidder(3 / 4)] * game.players)
        high = max((game.ladder[d.contract].level for d in rubber.deals if d.contract >= 0),
                   default=0)
        key = (high > middle, len(rubber.deals), seed)
        if best is None or key < best[0]:
            best = (key, rubber)
    assert best is not None
    return best[1]


def _format_rubber(game: Game) -> Iterator[str]:
    """A whole rubber, written on the score sheet as players keep it: a WE and a THEY
    column, the amounts above the line, the line, the games below it."""
    rubber = _rubber(game)
    yield from _title("A rubber on the score sheet", "~")
    yield (f"A whole rubber, played from seed {rubber.seed} by bots that bid low (the shortest "
           "such rubber in low contracts), as the players write it: each amount in the column "
           "of the side that scores it, above or below the line, a rule drawn under each game "
           "won.")
    yield ""
    yield ".. code-block:: text"
    yield ""
    for line in render_sheet(rubber, lambda bid: bid_text(game, bid)).splitlines():
        yield f"   {line}" if line else ""
    yield ""


def game_page(game: Game, results: GameResults, *, examples: bool = True, pool: int = POOL,
              fixtures: Path | None = None, fixtures_ref: str = "",
              mutations: dict[str, Any] | None = None,
              double_dummy: int = BUDGET, bots: tuple[str, ...] = BOTS,
              figures: int = FIGURE_DEALS) -> Iterator[str]:
    """The whole rulebook page of a game: the rules first, then the examples, the tables,
    the sources and the verification.  ``fixtures`` is the folder of the game's
    rule-coverage fixtures (each rule links to its own, as the download path
    ``fixtures_ref``/GAME/RULE.json); ``examples`` chooses worked examples from a pool of
    ``pool`` deals; ``mutations`` a report of ``trickspec mutate GAME --json``, shown rule
    by rule; ``double_dummy`` the solver's budget of nodes for each example deal's
    double-dummy analysis (0: none); ``bots`` the names of the bots that play the examples'
    pool (:mod:`spec.bots`), in turn by seed; ``figures`` the deals the page's figures are
    drawn from (0: none)."""
    page = _Page(game, parse_doc(game.doc), results, examples, pool, fixtures, mutations,
                 fixtures_ref, double_dummy, bots, figures)
    yield from _title(game.name, "=")
    for part in (_format_intro, _format_overview, _format_rules, _format_variants,
                 _format_examples, _format_figures, _format_tables, _format_sources,
                 _format_verification):
        yield from part(page)


# -- pages about every game ---------------------------------------------------------------

def games_table(games: Iterable[Game], results: dict[str, GameResults]) -> Iterator[str]:
    """One row a game: its page, players, cards, rules, variants and properties."""
    yield ".. list-table::"
    yield "   :header-rows: 1"
    yield "   :class: rulebook-table"
    yield ""
    yield from ("   * - Game", "     - Players", "     - Cards", "     - Rules", "     - Variants",
                "     - Properties")
    for g in games:
        res = results.get(g.key)
        yield f"   * - :game:`{g.key}`"
        yield f"     - {g.players}"
        yield f"     - {len(g.deck)}"
        yield f"     - {len(g.rules)}"
        yield f"     - {len(g.variants)}"
        yield f"     - {_summary(res) if res else ''}"
    yield ""


def sources_page(games: Iterable[Game]) -> Iterator[str]:
    """Each game's sources: the seed document and the cited sources, with how many rules
    each kind of source settles."""
    for g in games:
        doc = parse_doc(g.doc)
        yield from _title(g.name, "~")
        counts = {o: sum(r.source.origin is o for r in g.rules) for o in Origin}
        yield (f":game:`{g.key}`: {counts[Origin.SEED]} rules from the seed, "
               f"{counts[Origin.SOURCE]} from other sources, {counts[Origin.ASSUMPTION]} "
               "assumptions.")
        yield ""
        for tag, text in doc.sources.items():
            yield f"* **[{tag}]** {text}"
        yield ""


def _alternatives(game: Game, rule: Rule) -> list[Variant]:
    return [v for v in game.variants
            if any(old.id == rule.id for old, _n in v.replaces)
            or (v.source.ref == rule.source.ref and v.source.ref)]


def assumptions_page(games: Iterable[Game]) -> Iterator[str]:
    """Every rule that is an assumption, or that a variant reads another way (``reading``),
    in every game: what the sources say, the default and the variants that give the
    alternative."""
    for g in games:
        read = {old.id for v in g.variants if v.reading for old, _new in v.replaces}
        rows = [r for r in g.rules if r.source.origin is Origin.ASSUMPTION or r.id in read]
        yield from _title(g.name, "~")
        if not rows:
            yield "No rule is an assumption."
            yield ""
            continue
        for rule in rows:
            alternatives = _alternatives(g, rule)
            yield f":rule:`{g.key}/{rule.id}` ({rule.source.ref})"
            body = [f":Default: {esc(rule.text)}",
                    f":The sources: {esc(rule.source.note)}"]
            if not alternatives:
                body.append(":Alternative: none stated as a variant")
            elif len(alternatives) == 1:
                v = alternatives[0]
                body.append(f":Alternative: :variant:`{g.key}/{v.id}`: {esc(v.text)}")
            else:
                body += [":Alternatives:", ""]
                body += [f"   * :variant:`{g.key}/{v.id}`: {esc(v.text)}" for v in alternatives]
            yield from _indent(body)
            yield ""
        others = [v for v in g.variants if v.not_decidable]
        for v in others:
            yield (f":variant:`{g.key}/{v.id}` is stated but cannot be checked yet: "
                   f"{esc(v.not_decidable)}")
            yield ""

