"""Sphinx extension: the rulebook of every registered game, rendered from its rules.

``.. rulebook:: GAME`` prints a game's page: an overview, its sources, tables computed
from the rules (rank order, card points, trick values, bid ladder, score grid), every rule
in rulebook order with its anchor, source, covering properties and formal statement, the
variants, the properties with the verdicts of a real check, the findings, and worked
examples played by the engine.  ``.. rulebook-sources::``, ``.. rulebook-assumptions::``
and ``.. rulebook-games::`` print what every game says about its sources, its open
questions and itself.  The roles ``:rule:``, ``:prop:``, ``:variant:`` and ``:game:``
link to any of them (``:rule:`play.follow_suit``` on a game's page,
``:rule:`GAME/play.follow_suit``` or ``:rule:`<digest id>``` anywhere).

A page is written for each game of :data:`spec.registry.GAMES` (into ``rulebook_pages``
under the source folder), so a new game module appears once it is registered.

Settings (``conf.py`` or ``-D``): ``rulebook_pages`` (folder of the generated pages, ""
for none; default ``games``), ``rulebook_check`` (check the properties while building;
default true), ``rulebook_timeout`` (seconds for one query, a backstop behind Z3's resource
limit; 600), ``rulebook_jobs``
(processes checking games at once; 1; the solve times go to the build's log, never
into a page), ``rulebook_cache`` (the results file; default
``rulebook-results.json`` in the doctree folder), ``rulebook_examples`` (choose worked examples; default true), ``rulebook_pool`` (the
number of deals they are chosen from; 240), ``rulebook_bots`` (the bots that play them,
names of :mod:`spec.bots` separated by commas, in turn by seed; ``modest,random,cautious``;
``thinking`` for deals played as players would, at seconds a deal), ``rulebook_double_dummy`` (the solver's budget of
nodes for the double-dummy analysis of each example deal; 30000, 0 for none) and
``rulebook_fixtures`` (the folder of the rule-coverage fixtures each rule links to, a
sub-folder per game, relative to the source folder or absolute; default "", none: the
project's ``conf.py`` names those shipped with the verifier) and ``rulebook_mutations`` (a folder, relative to the
source folder, of ``trickspec mutate GAME --json`` reports named ``<game key>.json``: each
rule then shows how many of its mutants are caught; default "", none).

The extension lives in ``docs/_ext`` (with ``conf.py`` putting that folder on the path)
because it is documentation tooling: it must not make ``spec`` or ``verifier`` import
Sphinx, and nothing in it may name a game, which ``tests/test_layering.py`` checks.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
from collections.abc import Iterable
from typing import Any, ClassVar

from docutils import nodes
from docutils.nodes import Element, Node
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.directives import ObjectDescription
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode, nested_parse_with_titles

import spec
import verifier
from spec.dsl._build import Game
from spec.errors import NotationError, SpecError
from spec.registry import GAMES, find_game
from verifier.errors import VerifierError

from . import _page
from ._choose import BOTS as _BOTS
from ._choose import POOL as _POOL
from ._double import BUDGET as _BUDGET
from ._figures import DEALS as _FIGURE_DEALS
from ._examples import ExampleError
from ._results import GameResults, cache_key, results_for, unchecked
from ._steps import StepsDirective

__all__ = ["setup"]
__version__ = "1.0"

logger = logging.getLogger(__name__)

_GAME_CONTEXT = "rulebook:game"
_DIGEST_REF = re.compile(r"^[A-Z0-9]+-[A-Z0-9]+-\d+$")
_GENERATED = ".. This page is written by the rulebook extension from spec/registry.py; do not edit.\n"
_ANCHOR_PREFIX = {"rule": "", "property": "property-", "variant": "variant-"}


# -- results of the checks, shared by every page of a build ---------------------------------

class _Results:
    """The verifier's results, computed once a build (and cached between builds)."""

    by_game: ClassVar[dict[str, GameResults]] = {}


def _cache_path(app_config: Any, doctreedir: str) -> pathlib.Path:
    path = app_config.rulebook_cache
    return pathlib.Path(path) if path else pathlib.Path(doctreedir) / "rulebook-results.json"


def _results_of(games: Iterable[Game], config: Any, doctreedir: str) -> dict[str, GameResults]:
    games = list(games)
    if not config.rulebook_check:
        return {g.key: unchecked(g, config.rulebook_timeout) for g in games}
    return results_for(games, _cache_path(config, doctreedir), timeout=config.rulebook_timeout,
                       jobs=config.rulebook_jobs, log=logger.info)


def _results_in_build(env: BuildEnvironment, game: Game) -> GameResults:
    """A game's results: those of the build when they are for this very game, else new."""
    found = _Results.by_game.get(game.key)
    want = cache_key(game, env.config.rulebook_timeout) if env.config.rulebook_check else ""
    if found is None or (found.key != want) or (not env.config.rulebook_check and found.checked):
        found = _results_of([game], env.config, str(env.doctreedir))[game.key]
        _Results.by_game[game.key] = found
    return found


def _on_builder_inited(app: Sphinx) -> None:
    _write_pages(app)
    _Results.by_game = {}
    try:
        _Results.by_game.update(_results_of(GAMES.values(), app.config, str(app.doctreedir)))
    except (SpecError, VerifierError) as e:  # each page that needs them says so, clearly
        logger.warning("rulebook: the properties could not be checked: %s", e)


def _write_pages(app: Sphinx) -> None:
    """A page for each registered game; pages of games no longer registered go."""
    folder = app.config.rulebook_pages
    if not folder:
        return
    where = pathlib.Path(app.srcdir) / folder
    where.mkdir(parents=True, exist_ok=True)
    wanted = {f"{g.key}.rst": f"{_GENERATED}\n.. rulebook:: {g.key}\n" for g in GAMES.values()}
    for path in where.glob("*.rst"):
        if path.name not in wanted and path.read_text(encoding="utf-8").startswith(_GENERATED):
            path.unlink()
    for name, text in wanted.items():
        path = where / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def _sources_of(game: Game) -> list[str]:
    """The files a game's page is computed from: its module, the spec and verifier, and this
    extension."""
    files = {r.src_loc.file for r in game.rules}
    files |= {str(p) for p in pathlib.Path(__file__).resolve().parent.glob("*.py")}
    for package in (spec, verifier):
        files |= {str(p) for p in pathlib.Path(package.__file__).resolve().parent.rglob("*.py")}
    return sorted(f for f in files if os.path.exists(f))


# -- the domain: rules, properties, variants and games as link targets ----------------------

class _RefRole(XRefRole):
    """A link to a rule, property, variant or game; a bare id is looked up in the game of
    the page (the last ``rulebook`` directive above it)."""

    def __init__(self, reftype: str, *, warn: bool = True) -> None:
        super().__init__(warn_dangling=warn)
        self._reftype = reftype

    def run(self) -> tuple[list[Node], list[nodes.system_message]]:
        self.refdomain, self.reftype = "rulebook", self._reftype
        self.classes = ["xref", "rulebook", f"rulebook-{self._reftype}"]
        return self.create_xref_node()

    def process_link(self, env: BuildEnvironment, refnode: Element, has_explicit_title: bool,
                     title: str, target: str) -> tuple[str, str]:
        target = target.strip()
        if (self._reftype not in ("game", "page") and "/" not in target
                and not _DIGEST_REF.match(target)):
            game = env.ref_context.get(_GAME_CONTEXT)
            if game:
                target = f"{game}/{target}"
        if not has_explicit_title and "/" in title:
            title = title.split("/", 1)[1]
        return title, target


_ROLE_TYPES = {"rule": "rule", "prop": "property", "variant": "variant", "game": "game"}
_PAGE_ANCHOR = "rulebook-assumptions"


class _Object(ObjectDescription[str]):
    """A rule, property or variant of the game of the page, with its anchor."""

    kind: ClassVar[str] = "rule"
    option_spec: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        **ObjectDescription.option_spec,
        "refs": directives.unchanged,
        "game": directives.unchanged,
        "line": directives.unchanged,  # reST shown after the id: source tag, ✓ properties...
    }

    def _game(self) -> str:
        return self.options.get("game") or self.env.ref_context.get(_GAME_CONTEXT, "")

    def handle_signature(self, sig: str, signode: addnodes.desc_signature) -> str:
        if self.kind != "rule":
            signode += addnodes.desc_annotation(self.kind + " ", self.kind + " ")
        signode += addnodes.desc_name(sig, sig)
        refs = self.options.get("refs", "").split()
        if refs:
            text = "  " + " ".join(refs)
            signode += addnodes.desc_annotation(text, text)
        line = self.options.get("line", "")
        if line:
            parsed, messages = self.state.inline_text(line, self.lineno)
            meta = nodes.inline("", "", *parsed, classes=["rulebook-meta"])
            signode += meta
            signode += messages
        return sig

    def add_target_and_index(self, name: str, sig: str, signode: addnodes.desc_signature) -> None:
        game = self._game()
        anchor = _ANCHOR_PREFIX[self.kind] + name
        refs = self.options.get("refs", "").split()
        for target in (anchor, *refs):
            if target not in self.state.document.ids:
                signode["ids"].append(target)
        self.state.document.note_explicit_target(signode)
        domain: RulebookDomain = self.env.domains["rulebook"]  # type: ignore[assignment]
        domain.note(self.kind, f"{game}/{name}", anchor, name, self.env.docname)
        for ref in refs:
            domain.note_ref(ref, f"{game}/{name}")
        self.indexnode["entries"].append(("single", f"{name} ({self.kind} of {game})", anchor, "", None))


class _RuleObject(_Object):
    kind = "rule"


class _PropertyObject(_Object):
    kind = "property"


class _VariantObject(_Object):
    kind = "variant"


class RulebookDomain(Domain):
    """Rules, properties, variants and games, by ``game/id``; rules also by digest id."""

    name = "rulebook"
    label = "Rulebook"
    object_types: ClassVar[dict[str, ObjType]] = {  # type: ignore[misc]
        "rule": ObjType("rule", "rule"),
        "property": ObjType("property", "prop"),
        "variant": ObjType("variant", "variant"),
        "game": ObjType("game", "game"),
        "page": ObjType("page", "page"),
    }
    directives: ClassVar[dict[str, type[Any]]] = {  # type: ignore[misc]
        "rule": _RuleObject, "property": _PropertyObject, "variant": _VariantObject,
    }
    # page: a page of every game (the open questions), linked only where the site has it
    roles: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        **{name: _RefRole(t) for name, t in _ROLE_TYPES.items()},
        "page": _RefRole("page", warn=False),
    }
    initial_data: ClassVar[dict[str, Any]] = {"objects": {}, "refs": {}}  # type: ignore[misc]

    @property
    def objects(self) -> dict[tuple[str, str], tuple[str, str, str]]:
        return self.data["objects"]  # type: ignore[no-any-return]

    def note(self, kind: str, fullname: str, anchor: str, display: str, docname: str) -> None:
        key = (kind, fullname)
        if key in self.objects and self.objects[key][0] != docname:
            logger.warning("rulebook: %s %s is described twice (also in %s)", kind, fullname,
                           self.objects[key][0], location=(docname, None))
        self.objects[key] = (docname, anchor, display)

    def note_ref(self, ref: str, fullname: str) -> None:
        self.data["refs"].setdefault(ref, fullname)

    def clear_doc(self, docname: str) -> None:
        for key, (doc, _a, _d) in list(self.objects.items()):
            if doc == docname:
                del self.objects[key]
        live = {name for _kind, name in self.objects}
        for ref, name in list(self.data["refs"].items()):
            if name not in live:
                del self.data["refs"][ref]

    def merge_domaindata(self, docnames: set[str], otherdata: dict[str, Any]) -> None:  # type: ignore[override]
        for key, value in otherdata["objects"].items():
            if value[0] in docnames:
                self.objects[key] = value
        for ref, name in otherdata["refs"].items():
            self.data["refs"].setdefault(ref, name)

    def _find(self, typ: str, target: str) -> tuple[str, str, str] | None:
        kind = _ROLE_TYPES.get(typ, typ)
        if kind == "rule" and target in self.data["refs"]:
            target = self.data["refs"][target]
        return self.objects.get((kind, target))

    def resolve_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder, typ: str,
                     target: str, node: addnodes.pending_xref, contnode: Element) -> Element | None:
        found = self._find(typ, target)
        if found is None:
            return None
        docname, anchor, display = found
        if not node.get("refexplicit") and _ROLE_TYPES.get(typ, typ) == "game":
            contnode = nodes.inline(display, display)
        return make_refnode(builder, fromdocname, docname, anchor, contnode, display)

    def resolve_any_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder,
                         target: str, node: addnodes.pending_xref, contnode: Element
                         ) -> list[tuple[str, Element]]:
        out = []
        for typ in ("rule", "property", "variant", "game"):
            ref = self.resolve_xref(env, fromdocname, builder, typ, target, node, contnode)
            if ref is not None:
                out.append((f"rulebook:{self.role_for_objtype(typ)}", ref))
        return out

    def get_objects(self) -> Iterable[tuple[str, str, str, str, str, int]]:
        for (kind, name), (docname, anchor, display) in self.objects.items():
            yield name, display, kind, docname, anchor, 1


# -- directives -----------------------------------------------------------------------------

class details(nodes.General, nodes.Element):  # noqa: N801  # docutils names nodes in lower case
    """Text folded away in HTML under a summary line (a rule's details, a counterexample)."""


def _visit_details_html(self: Any, node: Element) -> None:
    summary = self.encode(node["summary"])
    self.body.append(f'<details class="rulebook-details"><summary>{summary}</summary>\n')


def _depart_details_html(self: Any, node: Element) -> None:
    self.body.append("</details>\n")


def _visit_plain(self: Any, node: Element) -> None:
    return None


class DetailsDirective(SphinxDirective):
    """``.. rulebook-details:: SUMMARY``: its content, folded away under the summary."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[Node]:
        node = details(summary=self.arguments[0])
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def _marked(css: str) -> Any:
    """A role that marks its text (``:rulebook-trump:`Q♠```) for the style sheet."""

    def role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
             options: dict[str, Any] | None = None, content: list[str] | None = None
             ) -> tuple[list[Node], list[nodes.system_message]]:
        node: Element = nodes.inline(rawtext, "", nodes.Text(text), classes=[css])
        if css == "rulebook-win":  # the winning card, a trump: bold and marked
            node = nodes.strong(rawtext, "", nodes.inline(text, text, classes=["rulebook-trump"]))
        return [node], []

    return role


_RED = re.compile("([♥♦])")


class RedSuits(SphinxPostTransform):
    """Hearts and diamonds in red, wherever a page prints them outside code."""

    default_priority = 900

    def run(self, **kwargs: Any) -> None:
        for text in list(self.document.findall(nodes.Text)):
            parent = text.parent
            if parent is None or "♥" not in text and "♦" not in text:
                continue
            if isinstance(parent, (nodes.literal_block, nodes.literal, nodes.raw,
                                   nodes.FixedTextElement)):
                continue
            if "rulebook-red" in parent.get("classes", ()):
                continue
            parts: list[Node] = []
            for piece in _RED.split(str(text)):
                if not piece:
                    continue
                if piece in "♥♦":
                    parts.append(nodes.inline(piece, piece, classes=["rulebook-red"]))
                else:
                    parts.append(nodes.Text(piece))
            parent.replace(text, parts)


class _Generated(SphinxDirective):
    """A directive whose body is reST generated from the registered games."""

    def _parse(self, lines: Iterable[str], source: str) -> list[Node]:
        content = StringList(list(lines), source=source)
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, content, node)
        return list(node.children)

    def _game_results(self, game: Game) -> GameResults:
        try:
            return _results_in_build(self.env, game)
        except (SpecError, VerifierError) as e:
            raise self.error(f"rulebook: the checks of {game.name} failed: {e}") from None


class RulebookDirective(_Generated):
    """``.. rulebook:: GAME``: the whole rulebook page of a registered game."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {}  # type: ignore[misc]

    def run(self) -> list[Node]:
        name = self.arguments[0]
        try:
            game = find_game(name)
        except NotationError as e:
            raise self.error(f"rulebook: {e}") from None
        results = self._game_results(game)
        self.env.ref_context[_GAME_CONTEXT] = game.key
        domain: RulebookDomain = self.env.domains["rulebook"]  # type: ignore[assignment]
        domain.note("game", game.key, "", game.name, self.env.docname)
        for path in _sources_of(game):
            self.env.note_dependency(path)
        try:
            folder = self.config.rulebook_fixtures
            fixtures = (pathlib.Path(self.env.srcdir) / folder / game.key) if folder else None
            if fixtures is not None and fixtures.is_dir():
                for path in sorted(fixtures.glob("*.json")):
                    self.env.note_dependency(str(path))
            if self.config.rulebook_figures < 0:
                raise self.error(f"rulebook: rulebook_figures is a number of deals, 0 (no "
                                 f"figures) or more, not {self.config.rulebook_figures}")
            if self.config.rulebook_double_dummy < 0:
                raise self.error(f"rulebook: rulebook_double_dummy is a budget of nodes, 0 (no "
                                 f"analysis) or more, not {self.config.rulebook_double_dummy}")
            lines = list(_page.game_page(
                game, results, examples=self.config.rulebook_examples,
                pool=self.config.rulebook_pool, fixtures=fixtures,
                fixtures_ref=("/" + os.path.relpath(fixtures, self.env.srcdir).replace(os.sep, "/")
                              if fixtures is not None else "").removesuffix("/" + game.key),
                mutations=self._mutations(game),
                double_dummy=self.config.rulebook_double_dummy,
                bots=tuple(n.strip() for n in self.config.rulebook_bots.split(",") if n.strip()),
                figures=self.config.rulebook_figures))
        except (SpecError, VerifierError, ExampleError) as e:
            raise self.error(f"rulebook: {game.name}: {e}") from None
        return self._parse(lines, f"<rulebook {game.key}>")

    def _mutations(self, game: Game) -> dict[str, Any] | None:
        """The game's mutation report, ``<rulebook_mutations>/<game key>.json`` (written by
        ``trickspec mutate GAME --json``), when the option names a folder that has it."""
        folder = self.config.rulebook_mutations
        if not folder:
            return None
        path = pathlib.Path(self.env.srcdir) / folder / f"{game.key}.json"
        if not path.is_file():
            return None
        self.env.note_dependency(str(path))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise self.error(f"rulebook: {path}: {e}") from None
        if not isinstance(data, dict) or data.get("game") != game.key:
            raise self.error(f"rulebook: {path} is not a mutation report of {game.key}")
        return data


class GamesDirective(_Generated):
    """``.. rulebook-games::``: a table of the registered games, each linked to its page."""

    def run(self) -> list[Node]:
        games = list(GAMES.values())
        results = {g.key: self._game_results(g) for g in games}
        return self._parse(_page.games_table(games, results), "<rulebook-games>")


class SourcesDirective(_Generated):
    """``.. rulebook-sources::``: each game's seed document and cited sources."""

    def run(self) -> list[Node]:
        return self._parse(_page.sources_page(GAMES.values()), "<rulebook-sources>")


class SchemaDirective(_Generated):
    """``.. rulebook-schema:: PATH``: a JSON schema (relative to the source folder) drawn
    as tables of fields."""

    required_arguments = 1

    def run(self) -> list[Node]:
        from ._schema import schema_page

        path = pathlib.Path(self.env.srcdir) / self.arguments[0]
        if not path.is_file():
            raise self.error(f"rulebook-schema: no such file: {self.arguments[0]}")
        self.env.note_dependency(str(path))
        try:
            lines = list(schema_page(path))
        except ValueError as e:
            raise self.error(f"rulebook-schema: {path}: {e}") from None
        return self._parse(lines, f"<rulebook-schema {self.arguments[0]}>")


class AssumptionsDirective(_Generated):
    """``.. rulebook-assumptions::``: every assumption of every game, with its alternatives."""

    def run(self) -> list[Node]:
        domain: RulebookDomain = self.env.domains["rulebook"]  # type: ignore[assignment]
        domain.note("page", "assumptions", _PAGE_ANCHOR, "open questions", self.env.docname)
        target = nodes.target("", "", ids=[_PAGE_ANCHOR])
        return [target, *self._parse(_page.assumptions_page(GAMES.values()), "<rulebook-assumptions>")]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("rulebook_check", True, "env", bool)
    app.add_config_value("rulebook_timeout", 600.0, "env", (float, int))
    app.add_config_value("rulebook_jobs", 1, "", int)  # more only on idle cores: contention inflates the solve times shown
    app.add_config_value("rulebook_cache", "", "", str)
    app.add_config_value("rulebook_examples", True, "env", bool)
    app.add_config_value("rulebook_pool", _POOL, "env", int)
    app.add_config_value("rulebook_double_dummy", _BUDGET, "env", int)
    app.add_config_value("rulebook_figures", _FIGURE_DEALS, "env", int)
    app.add_config_value("rulebook_bots", ",".join(_BOTS), "env", str)
    app.add_config_value("rulebook_pages", "games", "env", str)
    app.add_config_value("rulebook_fixtures", "", "env", str)
    app.add_config_value("rulebook_mutations", "", "env", str)
    app.add_domain(RulebookDomain)
    for name, typ in _ROLE_TYPES.items():
        app.add_role(name, _RefRole(typ))
    app.add_node(details, html=(_visit_details_html, _depart_details_html),
                 latex=(_visit_plain, _visit_plain), text=(_visit_plain, _visit_plain),
                 man=(_visit_plain, _visit_plain), texinfo=(_visit_plain, _visit_plain))
    app.add_directive("rulebook", RulebookDirective)
    app.add_directive("rulebook-details", DetailsDirective)
    app.add_directive("rulebook-schema", SchemaDirective)
    app.add_directive("rulebook-steps", StepsDirective)
    app.add_role("rulebook-trump", _marked("rulebook-trump"))
    app.add_role("rulebook-win", _marked("rulebook-win"))
    app.add_post_transform(RedSuits)
    app.add_directive("rulebook-games", GamesDirective)
    app.add_directive("rulebook-sources", SourcesDirective)
    app.add_directive("rulebook-assumptions", AssumptionsDirective)
    app.connect("builder-inited", _on_builder_inited)
    return {"version": __version__, "env_version": 1, "parallel_read_safe": True,
            "parallel_write_safe": True}

