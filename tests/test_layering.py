"""Dependencies point one way: verifier -> spec; spec never imports the verifier or z3."""
from __future__ import annotations

import ast
import pathlib
import re

import pytest

from spec.registry import GAMES

ROOT = pathlib.Path(__file__).resolve().parent.parent
FORBIDDEN_IN_SPEC = ("z3", "verifier", "hypothesis", "sphinx", "pytest", "rulebook")
# a module that imports a package of an optional extra (pip install 'trickspec[hypothesis]'):
# strategies for other implementations' tests, which the engine never uses
OPTIONAL_IN_SPEC = {"spec.strategies": {"hypothesis"}}
EXTENSION = ROOT / "docs" / "_ext"
# what the documentation back end may use: the rules, the verifier, Sphinx, matplotlib (the
# figures) and the library
ALLOWED_IN_EXTENSION = {"spec", "verifier", "sphinx", "docutils", "z3", "matplotlib", "__future__"}


def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("path", sorted((ROOT / "spec").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_spec_imports_no_back_end(path: pathlib.Path) -> None:
    bad = _imports(path) & set(FORBIDDEN_IN_SPEC) - OPTIONAL_IN_SPEC.get(_module_name(path), set())
    assert not bad, f"{path.name} imports {bad}"


def test_no_module_of_spec_needs_an_optional_one() -> None:
    """The strategies for Hypothesis are the one module of spec that needs a package of an
    optional extra; no other module imports them, so spec works without it."""
    for path in sorted((ROOT / "spec").rglob("*.py")):
        if _module_name(path) not in OPTIONAL_IN_SPEC:
            assert not {m for m in OPTIONAL_IN_SPEC if m in path.read_text()}, path.name


@pytest.mark.parametrize("path", sorted((ROOT / "spec" / "games").glob("*.py")), ids=lambda p: p.name)
def test_game_modules_import_only_the_vocabulary(path: pathlib.Path) -> None:
    assert _imports(path) <= {"__future__", "spec"}
    text = path.read_text()
    assert "spec.engine" not in text and "spec.games." not in text.replace(f"spec.games.{path.stem}", "")


@pytest.mark.parametrize("path", sorted((ROOT / "verifier").rglob("*.py")), ids=lambda p: p.name)
def test_verifier_imports_no_documentation_tools(path: pathlib.Path) -> None:
    assert not _imports(path) & {"sphinx", "docutils", "rulebook"}


@pytest.mark.parametrize("path", sorted(EXTENSION.rglob("*.py")), ids=lambda p: p.name)
def test_the_documentation_back_end_imports_only_the_rules_verifier_and_sphinx(path: pathlib.Path) -> None:
    import sys

    third_party = {m for m in _imports(path) if m not in sys.stdlib_module_names}
    assert third_party <= ALLOWED_IN_EXTENSION, f"{path.name} imports {third_party - ALLOWED_IN_EXTENSION}"


@pytest.mark.parametrize("path", sorted((ROOT / "spec").rglob("*.py")) + sorted((ROOT / "verifier").rglob("*.py"))
                         + sorted(EXTENSION.rglob("*.py")) + [ROOT / "docs" / "conf.py"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_back_ends_name_no_game(path: pathlib.Path) -> None:
    if "games" in path.parts or path.name == "registry.py":
        return
    text = path.read_text().lower()
    for name in ("crescendo", "three_oh_four", "preference", "vint", "wiezen"):
        code = "\n".join(l for l in text.splitlines() if not l.strip().startswith(("#", ">>>", "...")))
        assert name not in code.replace('"""', ""), f"{path.name} names the game {name}"
    # a game's key as a value in code (``key == "304"``), which the names above miss for
    # a key that is a number
    keys = {*GAMES, "wiezen"}  # and the game to come
    named = [n.value for n in ast.walk(ast.parse(path.read_text()))
             if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and n.value.strip().lower() in keys]
    assert not named, f"{path.name} names the game {named[0]!r}"


# Where a back end still names a kind of phase, and why; nowhere else may one.  The
# engine, the documentation and the scenario's replay read the steps alone.  What is left
# is the Z3 side's reading of the rules language's own phases, each stated per construct:
# the situations' facts (the cards laid aside, the choice and its values, the defenders
# out of the play, the talon exchange), the deal properties' choice, the auction unrolled
# call by call, and the unroller's stages laid aside, first leader and defenders' choice.
# A phase a game writes as steps of its own is read through its steps in every one.
_PHASE_KINDS_NAMED = {
    "verifier/_z3/encoding.py": 7,
    "verifier/_prove/deal_properties.py": 1,
    "verifier/_prove/unrolling.py": 1,
    "verifier/_unrolled.py": 3,
}


@pytest.mark.parametrize("path", sorted((ROOT / "spec" / "engine").rglob("*.py"))
                         + sorted((ROOT / "verifier").rglob("*.py")) + sorted(EXTENSION.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_back_ends_name_a_kind_of_phase_only_where_listed(path: pathlib.Path) -> None:
    """A back end reads the deal's steps; the few places that still read a kind of phase
    are listed above, and the list only shrinks."""
    named = len(re.findall(r"PhaseKind\.\w", path.read_text()))
    assert named <= _PHASE_KINDS_NAMED.get(str(path.relative_to(ROOT)), 0), (
        f"{path.name} names a kind of phase {named} times")


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _load_time_imports(path: pathlib.Path, modules: set[str], *, anywhere: bool = False
                        ) -> set[str]:
    """The modules of ``modules`` a module imports when it is loaded: its top-level
    imports, not those inside functions or under ``if TYPE_CHECKING``; with ``anywhere``,
    those too.  Importing a package's own parent package (``from spec.dsl import
    _constructs`` inside spec.dsl) is no edge: Python loads the parent first in any case."""
    me = _module_name(path)
    out = set()
    tree = ast.parse(path.read_text())
    for node in (ast.walk(tree) if anywhere else tree.body):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                out.add(sub if sub in modules else node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return {m for m in out if m in modules and not me.startswith(m + ".") and m != me}


def _assert_no_circle(package: str, *, anywhere: bool = False) -> None:
    """No module of ``package`` imports, as it is loaded, one that imports it back, directly
    or through others: each can be loaded first.  With ``anywhere``, not even by an import
    inside a function."""
    paths = sorted((ROOT / package).rglob("*.py"))
    modules = {_module_name(p) for p in paths}
    graph = {_module_name(p): _load_time_imports(p, modules, anywhere=anywhere) for p in paths}
    done: set[str] = set()

    def visit(m: str, trail: list[str]) -> None:
        if m in trail:
            cycle = trail[trail.index(m):] + [m]
            raise AssertionError("import circle: " + " -> ".join(cycle))
        if m in done:
            return
        for n in sorted(graph[m]):
            visit(n, trail + [m])
        done.add(m)

    for m in sorted(graph):
        visit(m, [])


_PRIVATE_OF_ENGINE = re.compile(r"\b(?:eng|engine)\._\w|spec\.engine\._\w")


@pytest.mark.parametrize("path", sorted((ROOT / "verifier").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_verifier_reads_nothing_private_of_the_engine(path: pathlib.Path) -> None:
    """The verifier reads the rules (the game, its program and its steps) and the engine's
    public functions; never an engine's private attribute or module."""
    hits = [f"{path.name}:{i}: {line.strip()}" for i, line in enumerate(path.read_text().splitlines(), 1)
            if _PRIVATE_OF_ENGINE.search(line)]
    assert not hits, "\n".join(hits)


def test_spec_modules_import_one_another_without_a_circle() -> None:
    _assert_no_circle("spec")


def test_verifier_modules_import_one_another_without_a_circle() -> None:
    """Nor is a circle broken by an import inside a function: the proofs build on the
    encoding, the scenario search on the proofs of the auction, never back."""
    _assert_no_circle("verifier")
    _assert_no_circle("verifier", anywhere=True)


def test_verifier_modules_import_one_another_by_absolute_names() -> None:
    """A relative import would be missed by the check for circles above."""
    for path in sorted((ROOT / "verifier").rglob("*.py")):
        relative = [n.lineno for n in ast.walk(ast.parse(path.read_text()))
                    if isinstance(n, ast.ImportFrom) and n.level > 0]
        assert not relative, f"{path.name} imports relatively at line {relative[0]}"


COMMANDS = ROOT / "verifier" / "commands"
CLI_LINES = 400  # the parser, the dispatch and the exit codes; a command's work is elsewhere


def _command_modules() -> list[pathlib.Path]:
    return sorted(p for p in COMMANDS.glob("*.py") if not p.name.startswith("_"))


def test_the_command_line_module_stays_small() -> None:
    lines = len((ROOT / "verifier" / "cli.py").read_text().splitlines())
    assert lines < CLI_LINES, (f"verifier/cli.py has {lines} lines; a command's options and "
                               "work belong in its module of verifier/commands")


@pytest.mark.parametrize("path", _command_modules(), ids=lambda p: p.name)
def test_every_command_module_adds_its_parser_and_runs(path: pathlib.Path) -> None:
    """Each command's module has ``add_parser(commands)`` and ``run(args)``, and imports
    nothing of ``verifier.cli`` (which imports it)."""
    tree = ast.parse(path.read_text())
    functions = {n.name: [a.arg for a in n.args.args] for n in tree.body
                 if isinstance(n, ast.FunctionDef)}
    assert functions.get("add_parser") == ["commands"], f"{path.name} has no add_parser(commands)"
    assert functions.get("run") == ["args"], f"{path.name} has no run(args)"
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert "verifier.cli" not in imported, f"{path.name} imports verifier.cli"


def test_the_command_line_has_every_command() -> None:
    tree = ast.parse((ROOT / "verifier" / "cli.py").read_text())
    listed = {a.name for n in tree.body if isinstance(n, ast.ImportFrom)
              and n.module == "verifier.commands" for a in n.names}
    assert listed == {p.stem for p in _command_modules()}


@pytest.mark.parametrize("path", sorted((ROOT / "spec").rglob("*.py")) + sorted((ROOT / "verifier").rglob("*.py"))
                         + sorted(EXTENSION.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_long_function_says_why_it_is_long(path: pathlib.Path) -> None:
    """A function of more than 80 lines has a ``# long:`` comment just above it saying why."""
    lines = path.read_text().splitlines()
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno >= 80:  # type: ignore[operator]
            top = node.lineno - 1 - len(node.decorator_list)
            above = "\n".join(lines[max(0, top - 3):top])
            assert "# long:" in above, f"{path.name}: {node.name} has {node.end_lineno - node.lineno + 1} lines"  # type: ignore[operator]
