"""Subexpressions a compiled rule repeats, computed once.

A score rule expanded from its parts repeats whole subexpressions: the tricks a side won,
the honours of a hand suit by suit, once per line and per seat of a partnership.  Here
each pure subexpression that occurs more than once, and that the rule reads whatever the
position, is read into a variable of its own, smallest first, before the rule is computed
from those variables.  The rule's own
expression stays as the fallback: if computing a shared part raises (a part the rule
reads only on a branch where it is defined), the function computes the rule as written,
so its result, or its error, is exactly the expression's.
"""
from __future__ import annotations

import ast

# what a shared part may be made of: expressions without side effects over the values a
# rule reads (ints, bools, tuples of them and the game's tables)
_PURE = (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp,
         ast.Subscript, ast.Call, ast.Attribute, ast.Load, ast.operator, ast.unaryop,
         ast.boolop, ast.cmpop)
# functions of the generated code a shared part may call (pure ones)
_CALLS = {"_sumv"}
_PREFIX = "_shared"


def _pure(node: ast.AST, pure: dict[int, bool], calls: frozenset[str] = frozenset(_CALLS)
          ) -> bool:
    """Whether ``node`` (its children already judged, in ``pure``) has no side effect."""
    if not isinstance(node, _PURE):
        return False
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.LShift, ast.RShift, ast.Pow)):
        # a shift by a small constant is cheap and safe; any other may be neither
        right = node.right
        if not (isinstance(right, ast.Constant) and isinstance(right.value, int)
                and 0 <= right.value < 64):
            return False
    if isinstance(node, ast.Call):
        f = node.func
        plain = ast.unparse(f) in calls
        method = isinstance(f, ast.Attribute) and f.attr == "bit_count" and not node.args
        if not (plain or method) or node.keywords:
            return False
    return all(pure[id(c)] for c in ast.iter_child_nodes(node))


def _lazy_in(node: ast.AST, child: ast.AST) -> bool:
    """Whether ``child`` of ``node`` is read only on some paths: a branch of a conditional
    (but the branch a constant condition takes), an operand of ``and``/``or`` but the first."""
    if isinstance(node, ast.IfExp):
        if isinstance(node.test, ast.Constant):
            return child is not (node.body if node.test.value else node.orelse)
        return child is not node.test
    if isinstance(node, ast.BoolOp):
        return child is not node.values[0]
    return False


def _worth_sharing(node: ast.AST) -> bool:
    return not isinstance(node, (ast.Name, ast.Constant, ast.Load, ast.operator, ast.unaryop,
                                 ast.boolop, ast.cmpop, ast.Attribute))


def shared_parts(body: str, calls: frozenset[str] = frozenset(_CALLS)
                 ) -> tuple[list[str], str] | None:
    """The assignments of the repeated pure subexpressions of ``body`` (Python source of
    an expression) to variables, in an order that defines each before its use, and the
    body rewritten over them; None when nothing repeats.

    Only parts read on every path through the expression are shared (a part under a
    condition is often never read).  The largest are shared first, each whole (a
    conditional inside one stays lazy); a smaller part is shared too when it still occurs
    twice outside the copies of the larger ones that it replaces.  ``calls``: the
    functions a shared part may call (pure ones).
    """
    tree = ast.parse(body, mode="eval")
    pure: dict[int, bool] = {}
    keys: dict[int, str] = {}
    size: dict[str, int] = {}
    parent: dict[int, ast.AST] = {}
    where: dict[str, list[ast.AST]] = {}  # each part's occurrences, in reading order

    eager: set[str] = set()  # the parts read on every path through the expression

    def visit(node: ast.AST, lazy: bool) -> int:
        n = 1
        for child in ast.iter_child_nodes(node):
            parent[id(child)] = node
            n += visit(child, lazy or _lazy_in(node, child))
        pure[id(node)] = _pure(node, pure, calls)
        if pure[id(node)] and _worth_sharing(node):
            key = keys[id(node)] = ast.dump(node)
            size[key] = n
            where.setdefault(key, []).append(node)
            if not lazy:
                eager.add(key)
        return n

    visit(tree.body, False)
    kept: dict[int, str] = {}  # the occurrence of a shared part that defines it -> its key
    gone: set[int] = set()  # the occurrences a shared part's name replaces

    def live(node: ast.AST) -> bool:
        while True:
            if id(node) in gone:
                return False
            up = parent.get(id(node))
            if up is None:
                return True
            node = up

    shared: list[str] = []
    for key in sorted(where, key=lambda k: -size[k]):
        if key not in eager:
            continue  # read on some paths only: computing it first could cost more
        alive = [node for node in where[key] if live(node)]
        if len(alive) > 1:
            shared.append(key)
            kept[id(alive[0])] = key
            gone.update(id(node) for node in alive[1:])
    if not shared:
        return None
    names = {key: f"{_PREFIX}{k}" for k, key in enumerate(sorted(shared, key=lambda k: size[k]))}

    class Replace(ast.NodeTransformer):
        def __init__(self, defining: ast.AST | None = None) -> None:
            self.defining = defining  # the part being defined is not replaced by its name

        def visit(self, node: ast.AST) -> ast.AST:
            key = keys.get(id(node))
            if key in names and node is not self.defining:
                return ast.copy_location(ast.Name(names[key], ast.Load()), node)
            return super().visit(node)  # type: ignore[no-any-return]

    definitions = {key: next(n for n in where[key] if id(n) == node_id)
                   for node_id, key in kept.items()}
    lines = [f"{names[key]} = {ast.unparse(Replace(definitions[key]).visit(definitions[key]))}"
              for key in sorted(shared, key=lambda k: size[k])]
    return lines, ast.unparse(Replace().visit(tree.body))
