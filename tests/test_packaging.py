"""What an installed copy needs ships with it: the rule-coverage fixtures of every game and
their JSON schema are package data, in the wheel as in the source tree, so that a copy
installed from the wheel (not editable) checks its own fixtures and gives the schema from
any folder.

The wheel is built from a copy of the sources (a build writes ``build/`` beside them)
with the build tools already installed: no network."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from spec.registry import GAMES
from verifier.fixtures import SCHEMA, SHIPPED

ROOT = Path(__file__).resolve().parent.parent
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q"]


def _run(command: list[str], *, cwd: Path | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=cwd, env=env)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of the package, built as ``pip wheel`` builds it for an install."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("spec", "verifier"):
        shutil.copytree(ROOT / name, src / name, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    _run([*PIP, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w",
          str(tmp / "dist"), str(src)])
    (found,) = (tmp / "dist").glob("trickspec-*.whl")
    return found


def _shipped() -> dict[str, bytes]:
    """Every shipped data file, by its name in the wheel."""
    data = SCHEMA.parent
    return {f"verifier/data/{p.relative_to(data).as_posix()}": p.read_bytes()
            for p in sorted(data.rglob("*")) if p.is_file()}


def test_the_data_is_the_fixtures_of_every_game_and_their_schema() -> None:
    names = set(_shipped())
    assert "verifier/data/fixture.schema.json" in names
    for key in GAMES:
        assert f"verifier/data/fixtures/{key}/coverage.json" in names, key
    assert all(n.endswith(".json") for n in names)  # what pyproject.toml's globs take
    json.loads(SCHEMA.read_text(encoding="utf-8"))


def test_the_wheel_holds_the_fixtures_and_the_schema_byte_for_byte(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as whl:
        held = {n: whl.read(n) for n in whl.namelist() if n.startswith("verifier/data/")}
    shipped = _shipped()
    assert sorted(held) == sorted(shipped)
    assert all(held[n] == shipped[n] for n in shipped)


@pytest.mark.slow
def test_an_installed_copy_checks_its_fixtures_and_gives_the_schema(wheel: Path,
                                                                    tmp_path: Path) -> None:
    # installed (not editable) into a folder of its own, run from another folder: no
    # source tree in reach; its one dependency, z3, is this interpreter's
    site = tmp_path / "site"
    _run([*PIP, "install", "--no-deps", "--no-index", "--target", str(site), str(wheel)])
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    trickspec = [sys.executable, "-m", "verifier"]
    where = _run([sys.executable, "-c", "import verifier.fixtures as f; print(f.SHIPPED)"],
                 cwd=away, env=env).stdout.strip()
    assert Path(where) == site / "verifier" / "data" / "fixtures"
    done = _run([*trickspec, "fixtures", "304", "--check"], cwd=away, env=env)
    assert done.stdout == (f"304: {len(list((SHIPPED / '304').glob('*.json'))) - 1} fixtures in "
                           f"{where}/304: all replay, each rule fires where it says\n")
    schema = _run([*trickspec, "fixtures", "--schema"], cwd=away, env=env)
    assert schema.stdout == SCHEMA.read_text(encoding="utf-8")
