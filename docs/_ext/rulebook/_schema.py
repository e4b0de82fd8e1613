"""A JSON schema drawn as tables: one row a field, with its type, whether it is required
and its description; nested objects get a table of their own.  Used to publish the fixture
format (``verifier/data/fixture.schema.json``, shipped with the package) from the schema
itself, so the page cannot drift.
A field that refers to a definition (``{"$ref": "#/$defs/hands"}``) is drawn as the
definition: its type, its description, and its table once, under the definition's name."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["schema_page"]


class _Schema:
    """A schema's definitions, to resolve the references to them."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.root = schema

    def resolve(self, spec: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """A field's schema with its reference followed (and the definition's name, "" for
        none); the field's own keys win over the definition's."""
        ref = spec.get("$ref")
        if not isinstance(ref, str):
            return spec, ""
        if not ref.startswith("#/"):
            raise ValueError(f"a reference outside the schema is not drawn: {ref}")
        target: Any = self.root
        for part in ref[2:].split("/"):
            if not isinstance(target, dict) or part not in target:
                raise ValueError(f"no definition at {ref}")
            target = target[part]
        resolved, _name = self.resolve(target)
        return {**resolved, **{k: v for k, v in spec.items() if k != "$ref"}}, ref.rsplit("/", 1)[1]

    def type_of(self, spec: dict[str, Any]) -> str:
        spec, _name = self.resolve(spec)
        if "const" in spec:
            return f"the string ``{spec['const']}``"
        if "enum" in spec:
            return "one of " + ", ".join(f"``{v}``" for v in spec["enum"])
        kind = spec.get("type", "any")
        if isinstance(kind, list):
            kind = " or ".join(kind)
        if kind == "array":
            return f"array of {self.type_of(spec.get('items', {}))}"
        if kind == "object" and isinstance(spec.get("additionalProperties"), dict):
            return f"object of {self.type_of(spec['additionalProperties'])}"
        return str(kind)


def _text(description: str) -> str:
    """A description as reST: markup escaped, and a command's ``--option`` kept as typed
    (not turned into a dash)."""
    from ._page import esc

    return esc(description).replace("--", "\\-\\-")


def _objects(spec: dict[str, Any]) -> str:
    """What a table's objects are made of, when the schema bounds their fields."""
    least, most = spec.get("minProperties"), spec.get("maxProperties")
    if least is not None and least == most:
        return f"Each object has exactly {least} of these fields."
    return ""


def _table(schema: _Schema, path: str, spec: dict[str, Any],
           out: list[tuple[str, dict[str, Any]]], drawn: set[str]) -> Iterator[str]:
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
    for name, field in props.items():
        sub, defined = schema.resolve(field)
        item, _n = (schema.resolve(sub["items"]) if sub.get("type") == "array"
                    and isinstance(sub.get("items"), dict) else (sub, ""))
        kind = schema.type_of(sub)
        if isinstance(item, dict) and item.get("properties"):  # drawn as a table of its own
            key = defined or (f"{path}.{name}" if path else name)
            if key not in drawn and key not in {n for n, _s in out}:
                out.append((key, item))
            kind += f" (``{key}`` below)"
        yield f"   * - ``{name}``"
        yield f"     - {kind}"
        yield f"     - {'yes' if name in required else 'no'}"
        desc = sub.get("description", "")
        yield f"     - {_text(desc)}" if desc else "     -"
    yield ""
    note = _objects(spec)
    if note:
        yield note
        yield ""


def schema_page(path: Path) -> Iterator[str]:
    """The schema at ``path`` as reST: its description, then a table per object."""
    root = json.loads(path.read_text(encoding="utf-8"))
    schema = _Schema(root)
    yield _text(root.get("description", ""))
    yield ""
    todo: list[tuple[str, dict[str, Any]]] = []
    drawn: set[str] = set()
    yield "The top level:"
    yield ""
    yield from _table(schema, "", root, todo, drawn)
    while todo:
        name, spec = todo.pop(0)
        drawn.add(name)
        yield f"``{name}``" + (f": {_text(spec['description'])}" if spec.get("description") else "")
        yield ""
        yield from _table(schema, name, spec, todo, drawn)
