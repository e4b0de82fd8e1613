"""Sphinx configuration: the rulebook of every game, the architecture and the API.

Build (from the repository root): ``python -m sphinx -W -b html docs docs/_build/html``.
"""
from __future__ import annotations

import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))  # the rulebook extension (docs/_ext/rulebook)
sys.path.insert(0, str(HERE.parent))  # spec and verifier, when not installed

from verifier.fixtures import SHIPPED  # noqa: E402  # the path is set just above

project = "trickspec"
author = "the trickspec authors"
copyright = "the trickspec authors"  # noqa: A001  # the name Sphinx reads

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "rulebook",
    "apiref",  # the API pages: each public module's __all__, under its public name
]

# furo: a maintained, clean theme whose wide tables scroll inside the page (score grids)
# and whose light and dark modes need no configuration
html_theme = "furo"
html_title = "trickspec"
html_static_path = ["_static"]
html_css_files = ["rulebook.css"]

exclude_patterns = ["_build"]
templates_path: list[str] = []

autodoc_member_order = "bysource"
# the public modules, in the order that decides where an object exported by several is
# documented (the first); a type hint shows the bare class name, linked to its page
apiref_modules = [
    "spec.cards", "spec.seats", "spec.errors", "spec.dsl", "spec.engine", "spec.bots",
    "spec.worlds",
    "spec.solver", "spec.records", "spec.constraints", "spec.double_dummy", "spec.registry",
    "spec.sheet", "spec.text", "spec.pbn", "spec.strategies", "spec.batch", "spec",
    "verifier.properties", "verifier.deals", "verifier.scenario", "verifier.fixtures",
    "verifier.errors", "verifier.mutate", "verifier.files", "verifier.cli", "verifier",
]
python_use_unqualified_type_names = True
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# the rulebook extension: each game's page is written to games/ from spec/registry.py, and
# the properties are checked with Z3 while building (results cached in the doctree folder,
# keyed by a digest of the spec and verifier sources; a stale cache is never used)
rulebook_pages = "games"
rulebook_pool = 240  # deals the worked examples are chosen from (a fixed number: same every build)
rulebook_timeout = 600.0  # a backstop: each query is bounded by Z3's resource limit
# each rule links to its fixture: those shipped with the verifier (package data), read
# from where the verifier says they are
rulebook_fixtures = str(SHIPPED)
