"""The documentation builds with every warning an error, and says what it must.

This is the README's build command, run into a temporary folder.  The property results
are cached in pytest's cache folder (keyed by the spec and verifier sources, so a stale
entry is never used): the first run checks every property with Z3, about a minute and a
half; later runs take seconds until a rule or a check changes.
"""
from __future__ import annotations

import pathlib
import re
import subprocess
import sys
from html import unescape

import pytest

from spec.registry import GAMES
from verifier.fixtures import SCHEMA, SHIPPED

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    return _build(tmp_path_factory.mktemp("site"), request)


def _build(out: pathlib.Path, request: pytest.FixtureRequest) -> pathlib.Path:
    cache = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    cache_dir = cache.mkdir("rulebook") if cache is not None else out
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
               str(ROOT / "docs"), str(out / "html"), "-d", str(out / "doctrees"),
               "-D", f"rulebook_cache={cache_dir / 'results.json'}", "-D", "rulebook_jobs=2",
               "-D", "rulebook_figures=20"]  # figures from fewer deals: the same drawing, quicker
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, f"the docs do not build cleanly:\n{done.stderr}"
    assert "WARNING" not in done.stderr and "ERROR" not in done.stderr, done.stderr
    return out / "html"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_rule_has_its_anchor_source_and_covering_properties(site: pathlib.Path, key: str) -> None:
    from rulebook._page import rule_sections

    game = GAMES[key]
    html = (site / "games" / f"{key}.html").read_text(encoding="utf-8")
    ids = [r.id for _n, _t, rules in rule_sections(game) for r in rules]  # in page order
    anchor = 'class="sig sig-object rulebook" id="{}"'.format
    for here, after in zip(ids, [anchor(i) for i in ids[1:]] + ['id="property-']):
        assert anchor(here) in html, here
        entry = html[html.index(anchor(here)):html.index(after)]
        assert re.search(r"\[(seed|source|assumption)\]", entry), f"{here} shows no source"
        assert "Covered by" in entry and "Details" in entry, here
    for ref in {ref for r in game.rules for ref in (r.source.ref, *r.source.also)}:
        assert f'id="{ref}"' in html, ref  # the digest id links to its rule
    assert "not checked in this build" not in html
    assert "Worked examples" in html and "Findings" in html


def test_a_variant_that_breaks_a_property_is_a_finding(site: pathlib.Path) -> None:
    html = (site / "games" / "304.html").read_text(encoding="utf-8")
    findings = html[html.index('id="findings"'):html.index('id="the-properties"')]
    assert "variant-literal_first_lead" in findings
    assert "property-play.legal_card_exists" in findings and "violated" in findings
    assert "<strong>Counterexample</strong>, replayed in the engine" in findings
    # drawn as hands and words, not a dump of the solver's variables
    assert not re.search(r"\b[a-z_]+ = (True|False|\d+)\b", findings), findings
    assert "<table" in findings


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_rules_come_first_and_the_machinery_after(site: pathlib.Path, key: str) -> None:
    html = (site / "games" / f"{key}.html").read_text(encoding="utf-8")
    first_rule = html.index(f'id="{GAMES[key].rules[0].id}"')
    order = [html.index(f'id="{part}"') for part in ("at-a-glance", "rules")]
    order += [first_rule] + [html.index(f'id="{part}"') for part in (
        "worked-examples", "tables", "sources", "verification")]
    assert order == sorted(order)
    assert not re.search(r"\d\.\d+ s\b", html), "a page prints a solver time"
    assert 'class="rulebook-red"' in html  # hearts and diamonds in red


# slow: a second build of the whole site (~40 s of CPU) puts the default suite over its ten minutes
@pytest.mark.slow
def test_two_builds_give_the_same_html(site: pathlib.Path, tmp_path: pathlib.Path,
                                       request: pytest.FixtureRequest) -> None:
    again = _build(tmp_path, request)
    pages = sorted(p.relative_to(site) for p in site.rglob("*.html"))
    assert pages == sorted(p.relative_to(again) for p in again.rglob("*.html"))
    differ = [str(p) for p in pages if (site / p).read_bytes() != (again / p).read_bytes()]
    assert not differ, differ


def test_the_open_questions_name_every_assumption(site: pathlib.Path) -> None:
    html = (site / "sources.html").read_text(encoding="utf-8")
    for game in GAMES.values():
        for rule in game.rules:
            if rule.source.origin.value == "assumption":
                assert f'games/{game.key}.html#{rule.id}"' in html, (game.key, rule.id)


def _api_modules() -> list[str]:
    conf = ROOT / "docs" / "conf.py"
    namespace: dict[str, object] = {"__file__": str(conf)}
    exec(conf.read_text(encoding="utf-8"), namespace)  # noqa: S102
    return list(namespace["apiref_modules"])  # type: ignore[call-overload]


def test_the_api_reference_has_a_page_per_package_and_public_names_only(site: pathlib.Path) -> None:
    from apiref import home_of, public_names

    modules = _api_modules()
    for package in ("spec", "verifier"):
        html = (site / "api" / f"{package}.html").read_text(encoding="utf-8")
        headings = re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", html, re.S)
        signatures = re.findall(r'<dt class="sig sig-object py" id="([^"]+)"', html)
        assert signatures, package
        for shown in headings + signatures:
            assert not re.search(r"\._[a-z]", shown), f"a private module path: {shown}"
        assert not re.search(r"(spec|verifier)(\.[a-z]+)*\._[a-z]+\.[A-Za-z]", html.replace(
            "spec.dsl._program", "").replace("spec.dsl._derive", "")), "a private path"
        for module in (m for m in modules if m.split(".")[0] == package):
            for name in public_names(module):
                home = home_of(modules, module, name)
                page = (site / "api" / f"{home.split('.')[0]}.html").read_text(encoding="utf-8")
                assert f'id="{home}.{name}"' in page, f"{module}.{name} is not documented"
    quick = (site / "api.html").read_text(encoding="utf-8")
    assert quick.index('id="quickstart"') < quick.index("deals_where") < quick.index(
        'class="toctree-wrapper')


@pytest.mark.parametrize("enum_name", ["spec.engine.Phase", "spec.dsl.Scope", "spec.cards.Suit",
                                       "verifier.properties.Verdict"])
def test_the_api_reference_lists_every_member_of_an_enum(site: pathlib.Path,
                                                         enum_name: str) -> None:
    import importlib

    module, _, name = enum_name.rpartition(".")
    enum_class = getattr(importlib.import_module(module), name)
    html = (site / "api" / f"{module.split('.')[0]}.html").read_text(encoding="utf-8")
    for member in enum_class:
        assert f'id="{enum_name}.{member.name}"' in html, member


def test_the_fixture_format_is_published_from_its_schema(site: pathlib.Path) -> None:
    import json

    html = (site / "implementers.html").read_text(encoding="utf-8")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for name in schema["required"]:
        assert f'<span class="pre">{name}</span>' in html, name
    assert "<td><p>any</p></td>" not in html  # every field's type, references followed
    assert "trickspec play GAME --json" in html  # an option as typed, not a dash
    assert html.count('<table class="rulebook-table rulebook-schema') >= 6
    # those tables fill the column and wrap, rather than scroll past it
    assert "_static/rulebook.css" in html
    css = (site / "_static" / "rulebook.css").read_text(encoding="utf-8")
    assert re.search(r"table\.rulebook-schema \{ width: 100%; \}", css)
    assert re.search(r"table\.rulebook-schema td \{ white-space: normal; \}", css)
    assert "Replaying the fixtures from another language" in html


def test_the_site_publishes_the_schema_and_the_fixtures(site: pathlib.Path) -> None:
    """The schema and every game's fixtures, as shipped with the package, are downloads of
    the site: the page links each to its copy, the same bytes."""
    def published(page: str, name: str) -> bytes:
        html = (site / page).read_text(encoding="utf-8")
        link = re.search(rf'href="((?:\.\./)*_downloads/[0-9a-f]+/{re.escape(name)})"', html)
        assert link, f"{page} has no download of {name}"
        return ((site / page).parent / link.group(1)).read_bytes()

    assert published("implementers.html", "fixture.schema.json") == SCHEMA.read_bytes()
    for key in GAMES:  # a fixture of each game: the first by name
        path = min(p for p in (SHIPPED / key).glob("*.json") if p.name != "coverage.json")
        assert published(f"games/{key}.html", path.name) == path.read_bytes(), key


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_page_gives_the_strain_without_trumps_one_name(site: pathlib.Path, key: str) -> None:
    from rulebook._names import no_trump_name

    html = (site / "games" / f"{key}.html").read_text(encoding="utf-8")
    computed = html[html.index('id="worked-examples"'):html.index('id="sources"')]
    text = re.sub(r"<[^>]+>", " ", computed)
    others = {"NT", "Grand", "no trumps"} - {no_trump_name(GAMES[key])}
    for other in others:  # the rule texts quoted in the examples are the game's own words
        assert not re.search(rf"\b\d+ ?{other}\b|>\s*{other}\s*<", computed), (key, other)
    assert "bid’s place in the bid order" not in text and "place in the bid order" not in text


def test_the_architecture_page_draws_how_a_rule_flows(site: pathlib.Path) -> None:
    html = (site / "architecture.html").read_text(encoding="utf-8")
    diagram = html[html.index('id="one-rule-source-three-interpretations"'):]
    for part in ("spec/games/", "spec.engine", "verifier (Z3)", "docs/_ext/rulebook",
                 "games/&lt;game&gt;.html"):
        assert part in diagram, part


def _example_sections(html: str) -> tuple[str, list[str]]:
    """The text of a game page's worked examples above the first deal, and that of each
    example deal (not the rubber on the score sheet)."""
    part = html[html.index('id="worked-examples"'):html.index('id="in-figures"')]
    intro, *deals = [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", p)))
                     for p in re.split(r'<section id="', part)
                     if not p.startswith("a-rubber-on-the-score-sheet")]
    return intro, deals


@pytest.mark.parametrize("key", sorted(GAMES))
def test_each_example_deal_carries_its_double_dummy_analysis(site: pathlib.Path, key: str) -> None:
    from rulebook._double import BUDGET

    html = (site / "games" / f"{key}.html").read_text(encoding="utf-8")
    intro, deals = _example_sections(html)
    assert "double-dummy analysis" in intro and f"at most {BUDGET:,} positions" in intro
    assert "all the hands open to every seat and every seat playing perfectly" in intro
    sections = [s for s in deals if "The play (the winning card" in s]
    assert sections, key
    for text in sections:
        head = text[text.index("Double dummy:"):]
        if head.startswith("Double dummy: not analysed"):  # a count of tricks would mislead
            assert "the tricks are worth different points" in head, head[:300]
            continue
        assert head.startswith("Double dummy: the declaring side, "), head[:80]
        assert re.search(r"plays for (as (many|few) (tricks|points) as it can|exactly \d+ "
                         r"tricks?|\d+ to \d+ tricks)\. From (the first lead|trick \d+ on)", head)
        assert re.search(r"in the play it ended with \d+ (tricks?|points?)\.", head), head[:300]
        assert ("Cards that cost something against perfect play" in head
                or "Every card from there on kept the value." in head), head[:300]


def test_the_double_dummy_figures_are_the_solvers(site: pathlib.Path) -> None:
    """The first example of a game whose whole deals the solver settles quickly: the value
    from the first lead and every card that changed it, from the solver asked directly,
    position by position, with its own budget."""
    from rulebook._choose import choose

    from spec.engine import Phase, Play, engine_for
    from spec.solver import Solver

    game = GAMES["preference"]
    eng = engine_for(game)
    final = choose(game, fixtures=SHIPPED / game.key)[0].state
    state = eng.start(final.dealt, dealer=final.dealer, seed=final.seed)
    assert not final.thrown_in
    plays = []
    for seat, action in final.log:
        if state.phase is Phase.PLAY:
            plays.append((state, seat, action))
        state = eng.apply(state, action)
    solver = Solver(game)
    solved = [solver.solve(s, budget=2_000_000) for s, _seat, _a in plays]
    assert all(v.known and not v.goal.bounded and v.goal.sign == 1 for v in solved)
    values = [v.value for v in solved]
    took = sum(state.won[k].bit_count() for k in range(game.players) if solved[0].side >> k & 1)
    values.append(took)
    slips = [f"trick {s.trick_number}, {game.table.name(seat)} {a.card.symbol} ({b} → {c})"
             for (s, seat, a), b, c in zip(plays, values, values[1:])
             if isinstance(a, Play) and b != c]
    assert slips  # the example shows cards that cost something
    html = (site / "games" / f"{game.key}.html").read_text(encoding="utf-8")
    text = _example_sections(html)[1][0]
    head = text[text.index("Double dummy:"):]
    assert (f"From the first lead, under perfect play it ends the deal with {values[0]} tricks; "
            f"in the play it ended with {took} tricks.") in head
    listed = re.findall(r"trick \d+, \w+ \S+ \(\d+ → \d+\)", head)
    assert listed == slips


@pytest.mark.parametrize("key", sorted(GAMES))
def test_each_game_page_has_its_figures(site: pathlib.Path, key: str) -> None:
    html = (site / "games" / f"{key}.html").read_text(encoding="utf-8")
    figures = html[html.index('id="in-figures"'):]
    assert figures.count("<svg") >= 2, key  # the contracts, the scores (and the variants)
    assert "dc:date" not in figures  # no date: the same SVG every build


def test_every_property_of_every_game_holds_in_the_build(site: pathlib.Path) -> None:
    """The build checks every game (as ``trickspec check`` does) and its index says so."""
    text = re.sub(r"<[^>]+>", " ", (site / "index.html").read_text(encoding="utf-8"))
    found = re.findall(r"(\d+) \(([^)]*)\), checked by Z3", text)
    assert len(found) == len(GAMES), found
    for total, parts in found:
        assert parts == f"{total} hold", parts
