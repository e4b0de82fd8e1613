"""The quickstart of the API reference runs as written: its Python blocks, in order, in one
namespace, the way a reader would paste them."""
from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "api.rst"


def quickstart_blocks(text: str) -> list[str]:
    """The ``.. code-block:: python`` blocks of a reST page, dedented, in page order."""
    blocks = []
    for m in re.finditer(r"^\.\. code-block:: python\n((?:\n|   .*\n)+)", text, re.M):
        lines = m.group(1).splitlines()
        blocks.append("\n".join(line[3:] for line in lines).strip() + "\n")
    return blocks


def run_page(page: pathlib.Path, count: int) -> dict[str, object]:
    """Run the ``count`` python blocks of a page in order, in one namespace (returned)."""
    namespace: dict[str, object] = {"__name__": page.stem + "_example"}
    blocks = quickstart_blocks(page.read_text(encoding="utf-8"))
    assert len(blocks) == count
    for number, block in enumerate(blocks, 1):
        exec(compile(block, f"{page.name}, block {number}", "exec"), namespace)  # noqa: S102
    return namespace


def test_the_quickstart_has_a_block_for_each_step() -> None:
    code = "\n".join(quickstart_blocks(PAGE.read_text(encoding="utf-8")))
    for step in ("find_game", "new_deal", "legal_actions", "apply(", "play_deal", "to_record",
                 "replay(", "check_game", "deals_where", "scenarios_where"):
        assert step in code, step


def test_the_quickstart_runs() -> None:
    namespace: dict[str, object] = {"__name__": "quickstart"}
    for number, block in enumerate(quickstart_blocks(PAGE.read_text(encoding="utf-8")), 1):
        exec(compile(block, f"{PAGE.name}, block {number}", "exec"), namespace)  # noqa: S102
