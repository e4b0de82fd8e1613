"""The API reference: each public module's ``__all__``, documented under its public name.

``.. public-api:: spec.engine`` writes the module's docstring, then every name the module
exports and defines for the user, by autodoc: classes with their members (an ``Enum`` with
every member), exceptions, functions, and the values (constants and the rules language's
context values) each with one line.  A name the module only re-exports from another public
module is listed with a link to where it is documented, so each object is described once.

An object defined in a private module (``spec.engine._state.State``) is documented under
the first public module, in the order of the ``apiref_modules`` setting, that exports it
(``spec.engine.State``); references to the private path, from type hints and base classes,
are sent to the public name.  No page shows a private module path.
"""
from __future__ import annotations

import enum
import importlib
import inspect
import os
import re
import types
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles
from sphinx.util.typing import restify

__all__ = ["PublicApi", "public_names", "home_of", "setup"]

_VALUE_CHARS = 60  # a value shown as its repr when that is at most this long
_HELP_COLUMNS = 88  # the width a command's help is written at
_ITEMS = 12  # the items of a long tuple shown before "..."


def _is_private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def public_names(module: str, listed: tuple[str, ...] = ()) -> list[str]:
    """The names a module exports: its ``__all__``; for a module without one (a command's
    entry point), the names given."""
    mod = importlib.import_module(module)
    names = getattr(mod, "__all__", None)
    return list(names) if names is not None else list(listed)


def home_of(modules: list[str], module: str, name: str) -> str:
    """The public module an exported object is documented under: where it is defined, if
    that module is public and exports it, else the first module of ``modules`` that
    exports the same object (``module`` when none of them does)."""
    obj = getattr(importlib.import_module(module), name)
    defined = getattr(obj, "__module__", None) if _has_identity(obj) else None
    if isinstance(defined, str) and not _is_private(defined) and defined in modules:
        if name in public_names(defined):
            return defined
    for candidate in modules:
        mod = importlib.import_module(candidate)
        if name in getattr(mod, "__all__", ()) and getattr(mod, name) is obj:
            return candidate
    return module


def _has_identity(obj: object) -> bool:
    """A class or a function: an object that says where it was defined."""
    return inspect.isclass(obj) or inspect.isroutine(obj)


def _kind(obj: object) -> str:
    if inspect.isclass(obj):
        if issubclass(obj, BaseException):
            return "exception"
        return "class"
    if inspect.isroutine(obj):
        return "function"
    return "value"


def _comment(module: str, name: str) -> str:
    """The comment at the end of the line that assigns ``name`` in ``module``'s source."""
    try:
        source = inspect.getsource(importlib.import_module(module))
    except (OSError, TypeError):
        return ""
    found = re.search(rf"^{re.escape(name)}\s*(?::[^=\n]*)?=[^\n#]*#\s*(.+)$", source, re.M)
    return found.group(1).strip() if found else ""


def _first_paragraph(doc: str | None) -> str:
    """A docstring's first paragraph, on one line."""
    text = inspect.cleandoc(doc or "")
    return " ".join(text.split("\n\n")[0].split())


def _item(value: object) -> str:
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return str(value)


def _describe(module: str, name: str, obj: object) -> str:
    """A value in a sentence or two: what the rules language says it reads, the comment
    beside its definition, or its value when that is short enough to read."""
    ctx = getattr(obj, "ctx", None)
    meaning = getattr(ctx, "value", None)
    if isinstance(meaning, tuple) and meaning and isinstance(meaning[-1], str):
        return meaning[-1]
    if isinstance(obj, (types.UnionType, types.GenericAlias)) or type(obj).__module__ == "typing":
        return "A type: " + restify(obj, "smart")  # private paths resolve to public names
    text = repr(obj)
    value = f"``{text}``" if len(text) <= _VALUE_CHARS and "object at 0x" not in text else ""
    comment = _comment(module, name)
    if comment:
        return f"{value}: {comment}." if value else f"{comment[0].upper()}{comment[1:]}."
    if type(obj).__name__.startswith("_") and type(obj).__doc__:
        return _first_paragraph(type(obj).__doc__)
    kind = getattr(obj, "type", None)
    if isinstance(kind, enum.Enum) and hasattr(obj, "__and__"):  # an expression of the rules
        what = _first_paragraph(type(obj).__doc__)
        return (f"{what} " if what else "") + f"An expression of type {kind.value}."
    if isinstance(obj, dict) and all(isinstance(k, str) for k in obj):
        return f"A dict of {len(obj)}: " + ", ".join(f"``{k}``" for k in obj) + "."
    if isinstance(obj, tuple) and obj and all(
            isinstance(i, tuple) and len(i) == 2 and isinstance(i[1], str) for i in obj):
        return "; ".join(f"``{_item(k)}``: {v}" for k, v in obj) + "."
    if isinstance(obj, tuple) and obj and all(isinstance(i, (str, int, enum.Enum)) for i in obj):
        items = [repr(i) if isinstance(i, str) else _item(i) for i in obj[:_ITEMS]]
        more = f", ... ({len(obj)} in all)" if len(obj) > _ITEMS else ""
        return "``(" + ", ".join(items) + more + ")``"
    return value or f"A {type(obj).__name__}."


def _public_bases(cls: type, modules: list[str]) -> list[str]:
    """The documented names of a class's bases, those that are public (``object`` and
    private helpers left out)."""
    out = []
    for base in cls.__bases__:
        if base is object:
            continue
        found = _public_name(base, modules)
        if found:
            out.append(found)
    return out


def _public_name(obj: object, modules: list[str]) -> str | None:
    for module in modules:
        mod = importlib.import_module(module)
        for name in getattr(mod, "__all__", ()):
            if getattr(mod, name, None) is obj:
                return f"{home_of(modules, module, name)}.{name}"
    if inspect.isclass(obj) and obj.__module__ in ("builtins",):
        return obj.__qualname__
    return None


class PublicApi(SphinxDirective):
    """``.. public-api:: <module>``, with ``:names:`` for a module without ``__all__`` and
    ``:parser:`` naming a function that builds the module's command-line parser (its
    ``--help`` is shown)."""

    required_arguments = 1
    option_spec = {"names": lambda text: tuple((text or "").split()),
                   "parser": lambda text: (text or "").strip()}

    def run(self) -> list[nodes.Node]:
        module = self.arguments[0]
        modules = list(self.config.apiref_modules)
        if module not in modules:
            raise self.error(f"{module} is not in apiref_modules; add it there")
        names = public_names(module, self.options.get("names", ()))
        mod = importlib.import_module(module)
        lines = [f".. automodule:: {module}", "   :no-members:", ""]
        own: list[str] = []
        elsewhere: list[str] = []
        for name in names:
            (own if home_of(modules, module, name) == module else elsewhere).append(name)
        values = []
        for name in own:
            obj = getattr(mod, name)
            kind = _kind(obj)
            full = f"{module}.{name}"
            if kind == "value":
                values.append((name, _describe(module, name, obj)))
                continue
            if kind == "function":
                lines += [f".. autofunction:: {full}", ""]
                continue
            lines += [f".. auto{kind}:: {full}", "   :members:"]
            if issubclass(obj, enum.Enum):
                lines.append("   :undoc-members:")
            lines.append("   :no-show-inheritance:" if not _public_bases(obj, modules)
                         else "   :show-inheritance:")
            lines.append("")
        for name, text in values:
            lines += [f".. py:data:: {name}", f"   :module: {module}", "", f"   {text}", ""]
        if elsewhere:
            links = ", ".join(f":py:obj:`~{home_of(modules, module, n)}.{n}`" for n in elsewhere)
            lines += [f"Also exported here, and documented where they are defined: {links}.", ""]
        if self.options.get("parser"):
            lines += _help_lines(getattr(mod, self.options["parser"])())
        node = nodes.container()
        nested_parse_with_titles(self.state, StringList(lines, source=self.get_source_info()[0]),
                                 node)
        return node.children


def _help_lines(parser: Any) -> list[str]:
    """A command's ``--help``, at a fixed width whatever the terminal (same HTML every
    build)."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(_HELP_COLUMNS)
    try:
        text = parser.format_help()
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return [f"``{parser.prog} --help``:", "", ".. code-block:: text", ""] + [
        f"   {line}".rstrip() for line in text.splitlines()] + [""]


def _public_bases_hook(modules: list[str]) -> Any:
    def hook(_app: Sphinx, _name: str, obj: object, _options: object, bases: list[Any]) -> None:
        if not inspect.isclass(obj):
            return
        shown = [f":py:class:`~{b}`" for b in _public_bases(obj, modules)]
        bases[:] = shown
    return hook


def _private_reference(app: Sphinx, env: Any, node: Any, contnode: Any) -> Any:
    """A reference to ``spec.engine._state.State`` resolved as ``spec.engine.State``."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    module, _, name = target.rpartition(".")
    if not module or not _is_private(module) or name.startswith("_"):
        return None
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    public = _public_name(obj, list(app.config.apiref_modules))
    if public is None:
        return None
    domain = env.get_domain("py")
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], public,
                               node, contnode)


def _public_titles(_app: Sphinx, doctree: nodes.document, _docname: str) -> None:
    """A link's hover title names the object as documented, not its private path."""
    for ref in doctree.findall(nodes.reference):
        title = ref.get("reftitle", "")
        if "._" in title:
            anchor = ref.get("refid") or ref.get("refuri", "").rpartition("#")[2]
            if anchor:
                ref["reftitle"] = anchor


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.autodoc")
    app.add_config_value("apiref_modules", [], "env", list)
    app.add_directive("public-api", PublicApi)
    app.connect("config-inited", lambda a, c: a.connect(
        "autodoc-process-bases", _public_bases_hook(list(c.apiref_modules))))
    app.connect("missing-reference", _private_reference)
    app.connect("doctree-resolved", _public_titles)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
