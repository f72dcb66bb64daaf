"""`any(…)` and `all(…)` of a generator, in an expression's generated function, as a loop in a
function of their own (codegen.Module.define; an action's code, which runs once a move, keeps them).

A rule's test over a few cards (`count(plants(s) where height > c.height) > 0`) is generated as
`any(… for it in …)`, and making the generator costs more than going through the cards: 440 ns
for four items, against 110 ns for the same loop in a function (CPython 3.11). So each becomes a
call of a function made for it, `exists_7(items, game, key)`, whose loop stops where any() or
all() would: the same items are asked, in the same order, with the same faults.

The loop's body is the generator's own code, moved as it is. The names it reads that are the
calling function's locals (its arguments, the items of an enclosing loop, a value worked out
before it) are handed over as arguments of the same names; the others are the module's (its
helpers, the builtins), read there as before.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable

from .reuse import copied

_DECIDES = {"any": True, "all": False}  # an item whose test is this decides the answer at once


def looped(body: ast.expr, fresh: Callable[[str], str], define: Callable, module: dict) -> ast.expr:
    """`body` with every `any`/`all` of one generator a call of a function defined for it
    (`define(name, arguments, statements)`), innermost first; `module` is the namespace the
    generated code reads its helpers from. The code given is left as it is: a part that changes
    is copied."""
    return _Looped(fresh, define, module).expr(body)


class _Looped:
    def __init__(self, fresh: Callable[[str], str], define: Callable, module: dict):
        self.fresh, self.define, self.module = fresh, define, module

    def expr(self, node):
        """The node, or a copy of it with its parts looped (None and non-nodes as they are)."""
        if isinstance(node, list):
            items = [self.expr(item) for item in node]
            return node if all(new is old for new, old in zip(items, node)) else items
        if not isinstance(node, ast.AST):
            return node
        changed = {}
        for field, value in ast.iter_fields(node):
            new = self.expr(value)
            if new is not value:
                changed[field] = new
        if changed:
            node = copied(node)
            for field, value in changed.items():
                setattr(node, field, value)
        quantified = _quantified(node)
        return node if quantified is None else self.loop(node, *quantified)

    def loop(self, call: ast.Call, decides: bool, generator: ast.GeneratorExp, item: str) -> ast.Call:
        """`any(TEST for ITEM in ITEMS if IFS)` as `exists_N(ITEMS, *locals)`."""
        (comprehension,) = generator.generators
        inside = [generator.elt, *comprehension.ifs]
        local = sorted(
            {name for part in inside for name in _read(part)} - {item} - self.module.keys() - _BUILTINS
        )
        items = self.fresh("items")
        test = generator.elt if decides else ast.UnaryOp(ast.Not(), generator.elt)
        step: ast.stmt = ast.If(test, [ast.Return(ast.Constant(decides))], [])
        for condition in reversed(comprehension.ifs):
            step = ast.If(condition, [step], [])
        body = [
            ast.For(ast.Name(item, ast.Store()), ast.Name(items, ast.Load()), [step], []),
            ast.Return(ast.Constant(not decides)),
        ]
        name = self.fresh("exists" if decides else "every")
        self.define(name, (items, *local), body)
        names = [ast.copy_location(ast.Name(n, ast.Load()), call) for n in (name, *local)]
        return ast.copy_location(ast.Call(names[0], [comprehension.iter, *names[1:]], []), call)


_BUILTINS = frozenset(dir(builtins))


def _quantified(node) -> tuple[bool, ast.GeneratorExp, str] | None:
    """For `any(…)` or `all(…)` of one generator over plain items: what an item's test decides
    when it is true for any (false for all), the generator, and its item's name."""
    if not (
        type(node) is ast.Call
        and type(node.func) is ast.Name
        and node.func.id in _DECIDES
        and len(node.args) == 1
        and not node.keywords
        and type(generator := node.args[0]) is ast.GeneratorExp
    ):
        return None
    (first, *more) = generator.generators
    if more or first.is_async or type(first.target) is not ast.Name:
        return None
    return _DECIDES[node.func.id], generator, first.target.id


def _read(node: ast.AST) -> set[str]:
    """The names a part of a generator reads that it does not bind itself (an inner loop's item,
    a value named with `:=`, a lambda's parameter)."""
    loaded: set[str] = set()
    bound: set[str] = set()
    for inner in ast.walk(node):
        if type(inner) is ast.Name:
            (loaded if type(inner.ctx) is ast.Load else bound).add(inner.id)
        elif type(inner) is ast.comprehension:
            bound |= {n.id for n in ast.walk(inner.target) if type(n) is ast.Name}
        elif type(inner) is ast.arg:
            bound.add(inner.arg)
    return loaded - bound
