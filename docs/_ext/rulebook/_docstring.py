"""A game module's docstring, read the way the house style writes it.

A game module opens with its name and a description, a ``Sources:`` block of tagged
citations (``[seed]`` names the seed document) and a paragraph of deviations from the
sources.  This module splits that text so the rulebook can print each part in its place.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

__all__ = ["ModuleDoc", "parse_doc"]

_TAG = re.compile(r"^\s*\[([A-Za-z0-9]+)\]\s+(.*)$")
_SEED_FILE = re.compile(r"``([^`]+\.txt)``")


@dataclass
class ModuleDoc:
    """The parts of a game module's docstring (each part reStructuredText)."""

    summary: str = ""
    paragraphs: list[str] = field(default_factory=list)  # the description
    sources: dict[str, str] = field(default_factory=dict)  # tag -> citation
    deviations: list[str] = field(default_factory=list)  # the paragraphs from "Deviations"

    @property
    def seed_document(self) -> str:
        """The file name of the seed document, from the ``[seed]`` citation ("" if none)."""
        m = _SEED_FILE.search(self.sources.get("seed", ""))
        return m.group(1) if m else ""


def parse_doc(doc: str) -> ModuleDoc:
    """Split a game module's docstring into summary, description, sources and deviations."""
    out = ModuleDoc()
    blocks = [b for b in re.split(r"\n\s*\n", textwrap.dedent(doc).strip("\n")) if b.strip()]
    if not blocks:
        return out
    out.summary = " ".join(blocks[0].split())
    in_deviations = False
    for block in blocks[1:]:
        lines = block.splitlines()
        head = lines[0].strip()
        if head.startswith("Sources:") and not in_deviations:
            tag = None
            for line in lines[1:]:
                m = _TAG.match(line)
                if m:
                    tag = m.group(1)
                    out.sources[tag] = m.group(2).strip()
                elif tag is not None and line.strip():
                    out.sources[tag] += " " + line.strip()
            continue
        if head.startswith("Deviations"):
            in_deviations = True
        target = out.deviations if in_deviations else out.paragraphs
        target.append(block)
    return out
