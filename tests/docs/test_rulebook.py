"""The rulebook extension: pages rendered from the rules, links, and clear errors."""
from __future__ import annotations

import json
import pathlib
import re
from html import unescape
from collections.abc import Callable
from typing import Any

import pytest

from spec import registry
from spec.dsl import Game, Rule, ScoreRule, contract, declarer, points, seat, seed
from spec.dsl import _constructs as K
from spec.games import crescendo
from verifier.fixtures import SCHEMA, SHIPPED

from rulebook import _results, _tables
from rulebook._docstring import parse_doc
from rulebook._expr import fingerprint, render
from rulebook._page import _format_rubber, esc, game_page, rule_sections



def _modified_crescendo() -> Game:
    """Crescendo with the exact-bid rule changed, as an author would change it."""
    triple = Rule(
        id="score.exact",
        text="A soloist who takes exactly the points bid scores three times the bid.",
        source=seed("CR-SCORE-1"),
        body=ScoreRule(when=(seat == declarer) & (points == contract.level),
                       amount=3 * contract.level),
    )
    g = crescendo.GAME
    rules = [triple if r.id == "score.exact" else r for r in g.rules]
    return Game(name=g.name, key=g.key, ref_prefix=g.ref_prefix, doc=g.doc, rules=rules,
                variants=g.variants, properties=g.properties)


def test_a_game_page_has_every_rule_as_an_anchor(build: Callable[..., Any]) -> None:
    built = build({"index": ".. rulebook:: crescendo\n"})
    assert built.warnings == ""
    html = built.html()
    for rule in crescendo.GAME.rules:
        assert f'id="{rule.id}"' in html, rule.id
    assert 'id="CR-PLAY-3"' in html  # the digest id of play.follow_suit
    assert 'id="property-play.one_winner"' in html
    assert 'id="variant-allow_unmakeable_bids"' in html
    # a rule links to the properties that cover it
    entry = html[html.index('id="play.follow_suit"'):html.index('id="play.no_obligation"')]
    assert 'href="#property-play.legal_card_exists"' in entry
    assert "000_1bd38c10ddd6cc68.txt" in entry  # the seed document


def test_a_changed_rule_changes_the_page(build: Callable[..., Any],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    before = build({"index": ".. rulebook:: crescendo\n"}).html()
    monkeypatch.setitem(registry.GAMES, "crescendo", _modified_crescendo())
    after = build({"index": ".. rulebook:: crescendo\n"}).html()
    assert "scores three times the bid" in after and "scores three times the bid" not in before
    assert "3 * contract.level" in after

    def cell(html: str) -> str:  # the score grid: bid 15, 15 points taken
        grid = html[html.index('id="scores"'):]
        row = grid[grid.index("<th class=\"stub\"><p>15</p></th>"):]
        return re.findall(r"<td><p>([^<]*)</p></td>", row)[1]

    assert cell(before) == "30" and cell(after) == "45"


def test_each_rule_links_to_its_fixture_or_says_why_it_has_none(build: Callable[..., Any]) -> None:
    fixtures = SHIPPED
    html = build({"index": ".. rulebook:: crescendo\n"}, rulebook_fixtures=str(fixtures)).html()
    entry = html[html.index('id="score.exact"'):html.index('id="score.over"')]
    assert 'download=""' in entry and "score.exact.json" in entry
    entry = html[html.index('id="deck.cards"'):html.index('id="deck.rank_order"')]
    assert "no fixture" in _text(entry) and "equipment" in entry  # the reason, from coverage.json
    # without the folder, the page simply has none
    assert "score.exact.json" not in build({"index": ".. rulebook:: crescendo\n"}).html()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html)))


@pytest.mark.parametrize("key", ["304", "vint"])
def test_every_action_of_each_example_is_shown(build: Callable[..., Any], key: str) -> None:
    from collections import Counter

    from rulebook._choose import choose
    from rulebook._examples import deal_example

    game = registry.GAMES[key]
    fixtures = SHIPPED
    html = build({"index": f".. rulebook:: {key}\n"}, rulebook_fixtures=str(fixtures)).html()
    start = html.index('id="worked-examples"')
    section = html[start:html.index('id="in-figures"' if 'id="in-figures"' in html else 'id="tables"')]
    chosen = choose(game, fixtures=fixtures / key, size=60)
    assert len(chosen) >= 3 and chosen[0].title == "A contract made"
    parts = [p for p in re.split(r'<section id="', section)[1:]
             if not p.startswith("a-rubber-on-the-score-sheet")]  # a rubber, not a deal
    assert len(parts) == len(chosen)
    assert "Double dummy" not in section  # rulebook_double_dummy = 0: no analysis asked for
    for c, part in zip(chosen, parts):
        ex = deal_example(game, c)
        final = c.state
        assert len(ex.placed) == len(final.log) + sum(len(d.log) for d in final.thrown_in)
        text = _text(part)
        for shown, n in Counter(ex.placed).items():
            assert text.count(shown) >= n, (c.title, shown)
        assert "Why this deal" in text and "<strong>" in part  # the winning cards


def test_examples_show_announcements_made_during_the_play(build: Callable[..., Any]) -> None:
    from rulebook._choose import choose

    game = registry.GAMES["304"]
    chosen = choose(game, size=240)
    caps = [c for c in chosen if "caps.claim" in c.rules]
    assert caps, [c.title for c in chosen]
    from rulebook._examples import deal_example

    ex = deal_example(game, caps[0])
    assert ex.tricks is not None and any("announces caps" in " ".join(r) for r in ex.tricks.rows)


def test_an_unknown_game_is_a_clear_error(build: Callable[..., Any]) -> None:
    built = build({"index": "Title\n=====\n\n.. rulebook:: nosuchgame\n"})
    known = ", ".join(sorted(registry.GAMES))
    assert f"rulebook: unknown game 'nosuchgame' (known games: {known})" in built.warnings
    assert "Traceback" not in built.warnings


def test_rule_links_resolve_and_a_wrong_one_warns(build: Callable[..., Any]) -> None:
    built = build({
        "index": ".. toctree::\n\n   game\n   prose\n",
        "game": ".. rulebook:: crescendo\n",
        "prose": "Prose\n=====\n\n:rule:`crescendo/play.follow_suit`, :rule:`CR-JOKER-3`, "
                 ":prop:`crescendo/play.one_winner`, :variant:`crescendo/allow_unmakeable_bids`, "
                 ":game:`vint`, :rule:`crescendo/play.no_such_rule`.\n",
    })
    html = built.html("prose")
    assert 'href="game.html#play.follow_suit"' in html
    assert 'href="game.html#play.joker_led"' in html
    assert 'href="game.html#property-play.one_winner"' in html
    assert 'href="game.html#variant-allow_unmakeable_bids"' in html
    assert "play.no_such_rule" in built.warnings
    assert built.warnings.count("WARNING") == 2  # the rule that does not exist; vint has no page


@pytest.mark.slow  # every game's page built alone (the site's build has them all): 14 s
def test_pages_for_every_registered_game_and_their_open_questions(build: Callable[..., Any]) -> None:
    built = build({
        "index": ".. toctree::\n   :glob:\n\n   games/*\n   sources\n",
        "sources": "Sources\n=======\n\n.. rulebook-assumptions::\n\n.. rulebook-sources::\n",
    }, rulebook_pages="games")
    assert built.warnings == ""
    for key in registry.GAMES:
        assert f".. rulebook:: {key}" in (pathlib.Path(built.app.srcdir) / "games" / f"{key}.rst").read_text()
    html = built.html("sources")
    # every assumption, with what the sources say and the variant that plays the alternative
    assert 'href="games/crescendo.html#auction.makeable_bids"' in html
    assert "the designer sets no top bid" in html
    assert 'href="games/crescendo.html#variant-allow_unmakeable_bids"' in html
    assert "https://gokurakism.com/crescendo/" in html  # a cited source


def test_expressions_are_written_as_a_game_module_writes_them() -> None:
    follow = crescendo.FOLLOW_SUIT.body
    assert render(follow.applies) == "~is_leading & hand.holds_any(cards_of(led_suit))"
    assert render(crescendo.BID_ORDER.body.key) == "5 * bid.level + bid.strain_rank"
    assert render(crescendo.OVERCALL.body.requires) == "call.bid.key > standing.bid.key"


def test_the_fingerprint_follows_what_a_game_states() -> None:
    assert fingerprint(crescendo.GAME) == fingerprint(crescendo.GAME.with_variants())
    assert fingerprint(crescendo.GAME) != fingerprint(_modified_crescendo())


def test_score_grid_comes_from_the_scoring_rules() -> None:
    game = crescendo.GAME
    bids = [i for i, b in enumerate(game.ladder) if b.level <= 28]
    grid = _tables.score_grid(game, bids)
    assert grid is not None
    assert grid.header[:3] == ["Contract", "0–14", "15"]
    row = dict(zip(grid.header, grid.rows[0]))  # a bid of 15
    assert (row["Contract"], row["0–14"], row["15"], row["16"]) == ("15", "-15", "30", "16")
    assert grid.rules == ["score.exact", "score.over", "score.under"]


def test_card_points_are_totalled_by_the_rules() -> None:
    from spec.games import three_oh_four

    table = _tables.card_points(three_oh_four.GAME)
    assert table is not None and table.rows == [["Points", "30", "20", "11", "10", "3", "2", "0", "0"]]
    assert table.notes[-1] == "The whole pack: 304 points."


def test_rules_are_grouped_by_the_module_headings() -> None:
    sections = rule_sections(crescendo.GAME)
    assert [(n, t) for n, t, _r in sections][:2] == [("1", "Players and seats"), ("2", "The cards")]
    assert ("5a", "The joker") in [(n, t) for n, t, _r in sections]
    assert sum(len(r) for _n, _t, r in sections) == len(crescendo.GAME.rules)


# the sections of each game's rules digest (shared/rules/<game>.md, "2. Rules digest"), in
# order, by the middle part of their ids (PRF-DECK-1: DECK)
DIGEST_ORDER = {
    "crescendo": ("SETUP", "DECK", "DEAL", "AUC", "PLAY", "JOKER", "SCORE", "GAME"),
    "304": ("SETUP", "DECK", "DEAL", "AUC", "TRUMP", "AUC8", "PLAY", "CLOSED", "EXH", "SPOIL",
            "CAPS", "PCC", "SCORE", "GAME"),
    "vint": ("SETUP", "DECK", "DEAL", "AUC", "PLAY", "SCORE", "PEN", "SLAM", "COR", "HON", "GAME"),
    "preference": ("SETUP", "DECK", "POT", "DEAL", "AUC", "EXCH", "DEF", "PLAY", "PAY", "BON",
                   "VAR", "GAME"),
    "wiezen": ("SETUP", "DECK", "DEAL", "AUC", "CON", "PLAY", "SCORE"),
}


@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_chapters_are_numbered_once_each_in_the_digest_order(key: str) -> None:
    game = registry.GAMES[key]
    sections = rule_sections(game)
    numbers = [n for n, _t, _r in sections]
    assert all(re.fullmatch(r"\d+[a-z]?", n) for n in numbers), numbers
    keys = [(int(re.match(r"\d+", n).group(0)), n) for n in numbers]  # type: ignore[union-attr]
    assert keys == sorted(keys) and len(set(numbers)) == len(numbers), numbers
    titles = [t for _n, t, _r in sections]
    assert len(set(titles)) == len(titles), titles
    placed = [r.id for _n, _t, rules in sections for r in rules]
    assert sorted(placed) == sorted(r.id for r in game.rules)  # each rule once
    # each chapter opens a later section of the digest than the one before: the digest's
    # order, and no section split over two chapters
    order = DIGEST_ORDER[key]
    opened = [order.index(rules[0].source.ref.split("-")[1]) for _n, _t, rules in sections]
    assert opened == sorted(set(opened)), [(n, t) for n, t, _r in sections]


def test_preference_has_a_chapter_for_each_section_of_its_digest() -> None:
    from spec.games import preference

    assert [(n, t) for n, t, _r in rule_sections(preference.GAME)] == [
        ("1", "Players, seats, direction"), ("2", "The deck"), ("3", "The pot"),
        ("4", "The deal"), ("5", "The contracts and the auction"),
        ("6", "The exchange and trumps"), ("7", "The defenders' decisions"), ("8", "The play"),
        ("9", "The payoff from the pot"), ("10", "Bonuses (open)"),
        ("11", "The end of the session")]
    # the rules made once for three players and once for four join their prefix's chapter
    chapter = {r.id: t for _n, t, rules in rule_sections(preference.GAME) for r in rules}
    assert chapter["setup.seats"] == chapter["setup.clockwise"]
    assert chapter["pay.host"] == chapter["pay.from_the_pot"] == "The payoff from the pot"
    assert chapter["auction.contracts"] == chapter["auction.turns"]


def test_a_rule_above_every_heading_joins_the_chapter_of_its_prefix() -> None:
    import dataclasses

    game = crescendo.GAME
    early = dataclasses.replace(game.rules[-1].src_loc, line=1)  # game.match, written at line 1
    moved = [dataclasses.replace(r, src_loc=early) if r.id == "game.match" else r
             for r in game.rules]
    changed = Game(name=game.name, key=game.key, ref_prefix=game.ref_prefix, doc=game.doc,
                   rules=moved, variants=game.variants, properties=game.properties)
    chapters = {t: [r.id for r in rules] for _n, t, rules in rule_sections(changed)}
    assert chapters["End of the game"] == ["game.match", "game.match_length"]
    assert len(chapters) == len(rule_sections(game))


@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_the_page_numbers_its_chapters(build: Callable[..., Any], key: str) -> None:
    html = build({"index": f".. rulebook:: {key}\n"}, rulebook_examples=False).html()
    rules = html[html.index('id="rules"'):html.index('id="variants"') if 'id="variants"' in html
                 else html.index('id="tables"')]
    shown = [unescape(h).replace("\u2019", "'")  # Sphinx's curly apostrophe
             for h in re.findall(r"<h[34]>(.*?)<a class=\"headerlink", rules)]
    wanted = [f"{n}. {t}" for n, t, _r in rule_sections(registry.GAMES[key])]
    assert shown == wanted


def test_module_docstring_parts() -> None:
    doc = parse_doc(crescendo.GAME.doc)
    assert doc.summary.startswith("Crescendo")
    assert doc.seed_document == "000_1bd38c10ddd6cc68.txt"
    assert set(doc.sources) == {"seed", "R", "G"}
    assert doc.deviations[0].startswith("Deviations")


def test_plain_text_is_escaped_for_rest() -> None:
    assert esc("-15") == "\\-15"
    assert esc("a *b* `c`") == "a \\*b\\* \\`c\\`"


def test_a_stale_cache_is_never_used(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = crescendo.GAME
    cache = tmp_path / "results.json"
    computed: list[str] = []

    def fake(g: Game, key: str, timeout: float) -> _results.GameResults:
        computed.append(key)
        return _results.GameResults(key, g.key, [], [], [])

    monkeypatch.setattr(_results, "_compute", fake)
    results = _results.results_for([game], cache, log=lambda _m: None)
    assert computed == [results["crescendo"].key]
    _results.results_for([game], cache, log=lambda _m: None)  # fresh: read back
    assert len(computed) == 1
    data = json.loads(cache.read_text())
    data["games"]["crescendo"]["key"] = "stale"
    cache.write_text(json.dumps(data))
    _results.results_for([game], cache, log=lambda _m: None)
    assert len(computed) == 2
    _results.results_for([_modified_crescendo()], cache, log=lambda _m: None)  # other rules
    assert len(computed) == 3
    cache.write_text("{not json")
    _results.results_for([game], cache, log=lambda _m: None)
    assert len(computed) == 4



@pytest.mark.slow  # judges mutants first: 13 s
def test_a_mutation_report_shows_rule_by_rule_what_is_caught() -> None:
    from rulebook._page import game_page

    report = {"game": "crescendo", "results": [
        {"id": "play.tricks#1", "rule_id": "play.tricks", "outcome": "killed by a property",
         "description": "first_lead changed"},
        {"id": "play.tricks#2", "rule_id": "play.tricks", "outcome": "survived",
         "description": "first_lead: seat_after(…, 1) → seat_after(…, 0)"},
        {"id": "play.tricks#drop", "rule_id": "play.tricks", "outcome": "probably equivalent",
         "description": "rule dropped"},
        {"id": "deck.cards#drop", "rule_id": "deck.cards", "outcome": "probably equivalent",
         "description": "rule dropped"},
    ]}
    game = crescendo.GAME
    text = "\n".join(game_page(game, _results.unchecked(game), mutations=report))
    assert (":Mutants: 1 of 2 caught; not caught: "
            + esc("first_lead: seat_after(…, 1) → seat_after(…, 0)")) in text
    assert ":Mutants: none that plays differently" in text
    assert ":Mutants: none made" in text  # a rule no mutant touched
    assert ":Mutants:" not in "\n".join(game_page(game, _results.unchecked(game)))


@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_the_ladder_shows_the_bids_and_no_position_numbers(key: str) -> None:
    from rulebook._names import bid_text

    game = registry.GAMES[key]
    bids = list(range(len(game.ladder)))
    table = _tables.ladder(game, bids)
    cells = [c for row in table.rows for c in (row[1:] if table.header[0] == "Level" else row)]
    assert {c for c in cells if c} == {bid_text(game, b) for b in game.ladder}
    assert "place" not in " ".join(table.notes) and "Order" not in table.header


@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_one_name_for_the_strain_without_trumps(key: str) -> None:
    from rulebook._names import no_trump_name, strain_text

    game = registry.GAMES[key]
    name = no_trump_name(game)
    ladder_rule = next(r for r, _b in game.rules_with(K.Ladder))
    assert name == "no trumps" or name in ladder_rule.text  # the game's own word
    table = _tables.ladder(game, list(range(len(game.ladder))))
    shown = " ".join(table.header + [c for row in table.rows for c in row])
    others = {"NT", "Grand", "no trumps"} - {name}
    assert not any(re.search(rf"(?<![\w-]){o}(?![\w-])", shown) for o in others), shown
    if any(b.strain is None and not b.label for b in game.ladder):
        assert strain_text(game, None) in table.header


def test_vint_calls_the_strain_without_trumps_grand() -> None:
    from rulebook._names import bid_text, no_trump_name
    from spec.games import vint

    assert no_trump_name(vint.GAME) == "Grand"
    assert bid_text(vint.GAME, vint.GAME.parse_bid("7NT")) == "7 Grand"


def test_a_score_sheet_with_two_lines_has_a_grid_for_each() -> None:
    from spec.engine import engine_for
    from spec.games import vint

    game = vint.GAME
    bids = [game.ladder.index(game.parse_bid(b)) for b in ("1S", "7NT")]
    grids = _tables.score_grids(game, bids)
    lines = engine_for(game).lines
    assert [g.title for g in grids] == [f"Scores {line} the line" for line in lines]
    below, above = (dict(zip(g.header, g.rows[0])) for g in grids)
    eng = engine_for(game)
    winners = [0] * 7 + [1] * 6  # the declarer (seat 0) takes 7 tricks, a defender 6
    for grid_row, line in ((below, "below"), (above, "above")):
        scores = eng.score_outcome(contract=bids[0], declarer=0, winners=winners, line=line)
        assert grid_row["7"] == f"{scores[0]} / {scores[1]}"
    for key in ("crescendo", "304"):  # one sheet line: one grid
        assert len(_tables.score_grids(registry.GAMES[key], [0])) == 1


# slow: plays and renders a whole rubber (41 s); the rubber's sheet is also in the site's build
@pytest.mark.slow
def test_a_game_that_keeps_a_rubber_sheet_shows_one_as_players_keep_it() -> None:
    from spec.dsl import _constructs as K
    for key, game in registry.GAMES.items():
        page = "\n".join(game_page(game, _results.unchecked(game), pool=4))
        if not game.constructs(K.GameTarget):
            assert "A rubber on the score sheet" not in page, key
            continue
        sheet = "\n".join(_format_rubber(game))
        assert sheet in page
        assert "WE" in sheet and "THEY" in sheet
        assert "above the line" in sheet and "below the line" in sheet
        assert "win the rubber" in sheet and "game 1 to" in sheet
        assert sheet == "\n".join(_format_rubber(game))  # chosen the same way every build


def _examples(key: str, size: int = 240) -> list[tuple[Any, Any]]:
    from rulebook._choose import choose
    from rulebook._examples import deal_example

    game = registry.GAMES[key]
    fixtures = SHIPPED / key
    return [(c, deal_example(game, c)) for c in choose(game, fixtures=fixtures, size=size)]


@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_the_contract_made_is_a_deal_whose_cards_are_played(key: str) -> None:
    chosen, ex = _examples(key)[0]
    assert chosen.title == "A contract made"
    assert chosen.state.tricks and ex.tricks is not None and ex.tricks.rows
    assert "its cards played" in chosen.why


def test_each_preference_example_shows_the_talon_and_the_cards_discarded() -> None:
    from spec.cards import CardSet

    game = registry.GAMES["preference"]
    examples = _examples("preference")
    assert len(examples) >= 3
    for chosen, ex in examples:
        final = chosen.state
        rows = {row[0]: row[1:] for row in ex.hands.rows}
        talon = [label for label in rows if label.startswith("Talon")]
        assert len(talon) == 1, (chosen.title, list(rows))
        dealt = CardSet(game.deck, final.dealt_talon)
        assert len(dealt) == 2
        for card in dealt:  # each talon card in its suit's column
            column = [s.symbol for s in _tables.DISPLAY_SUITS].index(card.suit.symbol)
            assert card.rank.value in rows[talon[0]][column].split(), (chosen.title, card)
        discarded = [label for label in rows if label.startswith("Discarded by")]
        assert len(discarded) == (1 if final.discards else 0), chosen.title
        assert ex.hands_caption.startswith("Hands as dealt, with the talon")
    assert any(final.discards for final in (c.state for c, _e in examples))


def test_the_glance_says_the_talon_is_dealt_and_two_cards_discarded() -> None:
    from rulebook._docstring import parse_doc
    from rulebook._page import _format_overview, _Page

    game = registry.GAMES["preference"]
    lines = list(_format_overview(_Page(game, parse_doc(game.doc), _results.unchecked(game))))
    deal = next(line for line in lines if line.startswith(":Deal:"))
    assert "2 cards face down to the table after the first round: the talon" in deal
    assert ":rule:`deal.talon`" in deal
    talon = next(line for line in lines if line.startswith(":Talon:"))
    assert "discards 2 cards face down" in talon and ":rule:`exchange.talon`" in talon
    course = next(line for line in lines if line.startswith(":Course:"))
    assert "take the talon, discard 2 cards" in course and "discard a card" not in course


def test_a_trump_indicator_is_named_once_it_is_turned_up() -> None:
    from spec.engine import Lay

    examples = _examples("304")
    laid = [(c, ex) for c, ex in examples if any(isinstance(a, Lay) for _s, a in c.state.log)]
    assert len(laid) >= 3
    for chosen, ex in laid:
        facts = " ".join(ex.facts)
        assert "the suit of the trump indicator" in facts, chosen.title
        match = re.search(r"trump indicator (\S+), which (\w+) laid face down; turned up "
                          r"(before the play|at trick (\d+))", facts)
        assert match, facts
        card, when, trick = match.group(1), match.group(3), match.group(4)
        said = f"the trump indicator {card} is turned up"
        if trick:  # in the trick it was turned up in
            row = next(r for r in ex.tricks.rows if r[0] == trick)
            assert said in row[-1], (chosen.title, row)
        else:  # beside the action that turned it up, in the auction
            cells = [c for row in ex.auction.rows for c in row if said in c]
            assert len(cells) == 1, chosen.title
    # the Préférence trumps are named aloud: no indicator to turn up
    assert not any("indicator" in " ".join(ex.facts) for _c, ex in _examples("preference", 60))


def test_the_schema_draws_the_fields_defined_once() -> None:
    from rulebook._schema import schema_page

    text = "\n".join(schema_page(SCHEMA))
    assert "     - any\n" not in text
    assert "   * - ``hands``\n     - object of string\n" in text
    assert "   * - ``actions``\n     - array of object (``actions`` below)\n" in text
    table = text[text.index("\n``actions``"):]
    for name in ("seat", "call", "play", "lay", "discard", "announce"):
        assert f"   * - ``{name}``\n     - string\n" in table, name
    assert "Each object has exactly 2 of these fields." in table
    assert text.count("\n``actions``") == 1  # drawn once, though two tables use it


def test_the_sources_page_says_where_the_wiezen_digest_contradicts_itself() -> None:
    from rulebook._page import assumptions_page

    page = "\n".join(assumptions_page([registry.GAMES["wiezen"]]))
    entry = page[page.index(":rule:`wiezen/score.several_declarers`"):]
    entry = entry[:entry.index("\n\n")]
    assert "contradicts itself" in entry and "+40" in entry and "+30" in entry
    assert ":variant:`wiezen/declarers_settle_once`" in entry


def test_a_long_deal_is_analysed_from_the_first_trick_the_budget_settles() -> None:
    """Thirteen cards a hand: the analysis starts at a later trick, with the value the
    solver gives that trick's first position asked directly, and says so."""
    from rulebook._choose import choose
    from rulebook._double import BUDGET, analyse, double_dummy_lines, play_positions

    from spec.solver import Solver

    game = registry.GAMES["vint"]
    final = choose(game, size=60)[0].state
    a = analyse(game, final)
    assert a is not None and 1 < a.trick < len(final.tricks)
    positions, _end = play_positions(game, final)
    first = next(s for s, _seat, _act in positions if s.trick_number == a.trick)
    direct = Solver(game).solve(first, budget=2_000_000)
    assert direct.known and direct.value == a.value and direct.side == a.side
    # a smaller budget reaches back no further
    smaller = analyse(game, final, BUDGET // 4)
    assert smaller is not None and smaller.trick >= a.trick
    text = " ".join(double_dummy_lines(game, final))

    def tricks(n: int) -> str:
        return f"{n} trick" + ("" if n == 1 else "s")

    assert (f"From trick {a.trick} on (the budget of {BUDGET:,} nodes settles no earlier "
            f"trick), with {tricks(a.won)} already won, under perfect play it ends the deal "
            f"with {tricks(a.value)}") in text
    assert double_dummy_lines(game, final) == double_dummy_lines(game, final)  # every build


def test_a_goal_between_bounds_is_reached_or_missed() -> None:
    from rulebook._choose import choose
    from rulebook._double import analyse, double_dummy_lines

    game = registry.GAMES["wiezen"]
    fixtures = SHIPPED / game.key
    # the goal is the contract's, whatever the budget: a small one finds it
    bounded = [c for c in choose(game, fixtures=fixtures)
               if (a := analyse(game, c.state, budget=10)) is not None and a.goal.bounded]
    assert bounded
    text = " ".join(double_dummy_lines(game, bounded[0].state))
    assert "plays for exactly 1 trick." in text
    assert re.search(r"under perfect play it (gets|does not get) there; in the play it ended "
                     r"with \d+ tricks?\.", text), text



@pytest.mark.slow  # every example's pool played by its bots: 9 s
def test_the_examples_pool_is_played_by_the_bots_named() -> None:
    from rulebook._choose import choose

    game = registry.GAMES["preference"]
    chosen = choose(game, size=2, bots=("thinking", "cautious"))
    assert chosen and all(c.origin.endswith(("thinking bots", "cautious bots")) for c in chosen)
    assert "thinking and cautious bots in turn" in chosen[0].why
    from spec.errors import NotationError

    with pytest.raises(NotationError, match="no bot 'clever'"):
        choose(game, size=4, bots=("clever",))
    with pytest.raises(NotationError, match="no bots are named"):
        choose(game, size=4, bots=())


def test_a_counterexample_of_a_call_is_shown_as_the_verifier_writes_it() -> None:
    """A moment of an auction is shown in the verifier's words, not as its data (``bid:
    30; seat: 0``); a situation of the play is still drawn as hands."""
    from verifier.properties import Options, run_check, variant_checks

    game = registry.GAMES["vint"]
    played, checks = variant_checks(game, "self_overcall")
    results = [run_check(played, c, Options()).to_json() for c in checks
               if c.id == "auction.no_two_bids_running"]
    assert results and results[0]["verdict"] == "VIOLATED"
    page = _results.GameResults("", game.key, [], [_results.VariantRun("self_overcall", results)], [])
    text = "\n".join(game_page(game, page, examples=False, double_dummy=0))
    findings = text[text.index("Under :variant:`self_overcall`"):]
    findings = findings[:findings.index("\n\n\n") if "\n\n\n" in findings else None]
    assert "bid by North" in findings or re.search(r"bid by (East|South|West)", findings), findings
    assert not re.search(r"\b(seat|dealer|high|bid): \d", findings), findings


def test_a_negative_number_of_deals_for_the_figures_is_refused(build: Callable[..., Any]) -> None:
    built = build({"index": ".. rulebook:: crescendo\n"}, rulebook_figures=-1,
                  rulebook_examples=False)
    assert "rulebook_figures is a number of deals, 0 (no figures) or more, not -1" in built.warnings
