"""A JSON schema drawn as tables: one row a field, with its type, whether it is required
and its description; nested objects get a table of their own.  Used to publish the fixture
format (``docs/fixture.schema.json``) from the schema itself, so the page cannot drift."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["schema_page"]


def _type(spec: dict[str, Any]) -> str:
    if "const" in spec:
        return f"the string ``{spec['const']}``"
    if "enum" in spec:
        return "one of " + ", ".join(f"``{v}``" for v in spec["enum"])
    kind = spec.get("type", "any")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array":
        return f"array of {_type(spec.get('items', {}))}"
    if kind == "object" and "additionalProperties" in spec and isinstance(
            spec["additionalProperties"], dict):
        return f"object of {_type(spec['additionalProperties'])}"
    return str(kind)


def _table(path: str, spec: dict[str, Any], out: list[tuple[str, dict[str, Any]]]) -> Iterator[str]:
    from ._page import esc

    props: dict[str, Any] = spec.get("properties", {})
    required = set(spec.get("required", ()))
    yield ".. list-table::"
    yield "   :header-rows: 1"
    yield "   :class: rulebook-table rulebook-schema"
    yield ""
    yield "   * - Field"
    yield "     - Type"
    yield "     - Required"
    yield "     - Meaning"
    for name, sub in props.items():
        yield f"   * - ``{name}``"
        yield f"     - {_type(sub)}"
        yield f"     - {'yes' if name in required else 'no'}"
        desc = sub.get("description", "")
        yield f"     - {esc(desc)}" if desc else "     -"
        item = sub.get("items", {}) if sub.get("type") == "array" else sub
        if isinstance(item, dict) and item.get("properties"):
            out.append((f"{path}.{name}" if path else name, item))
    yield ""


def schema_page(path: Path) -> Iterator[str]:
    """The schema at ``path`` as reST: its description, then a table per object."""
    from ._page import esc

    schema = json.loads(path.read_text(encoding="utf-8"))
    yield esc(schema.get("description", ""))
    yield ""
    todo: list[tuple[str, dict[str, Any]]] = []
    yield "The top level:"
    yield ""
    yield from _table("", schema, todo)
    while todo:
        name, spec = todo.pop(0)
        yield f"``{name}``" + (f": {esc(spec['description'])}" if spec.get("description") else "")
        yield ""
        yield from _table(name, spec, todo)
