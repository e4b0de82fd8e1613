"""A mini Sphinx project for the rulebook extension, built in a temporary folder (without
the properties checked or the examples' double-dummy analysis: the whole site's build in
``test_build.py`` has both)."""
from __future__ import annotations

import io
import pathlib
import sys
from collections.abc import Callable, Iterator

import pytest

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

from sphinx.testing.util import SphinxTestApp  # noqa: E402  # after the path is set

CONF = '''
extensions = ["rulebook"]
rulebook_pages = ""
rulebook_check = False
rulebook_pool = 60
rulebook_double_dummy = 0
rulebook_figures = 0
'''


class Built:
    """What a build left: the warnings, and the HTML of each page."""

    def __init__(self, app: SphinxTestApp, warnings: io.StringIO) -> None:
        self.app = app
        self.warnings = warnings.getvalue()

    def html(self, page: str = "index") -> str:
        return (pathlib.Path(self.app.outdir) / f"{page}.html").read_text(encoding="utf-8")


@pytest.fixture
def build(tmp_path: pathlib.Path) -> Iterator[Callable[..., Built]]:
    """Build pages given as {name: reST} with the rulebook extension; returns the result."""
    apps: list[SphinxTestApp] = []

    def run(pages: dict[str, str], **overrides: object) -> Built:
        src = tmp_path / f"src{len(apps)}"
        src.mkdir()
        (src / "conf.py").write_text(CONF, encoding="utf-8")
        for name, text in pages.items():
            (src / f"{name}.rst").write_text(text, encoding="utf-8")
        warnings = io.StringIO()
        app = SphinxTestApp("html", srcdir=src, confoverrides=dict(overrides),
                            status=io.StringIO(), warning=warnings)
        apps.append(app)
        app.build()
        return Built(app, warnings)

    yield run
    for app in apps:
        app.cleanup()
