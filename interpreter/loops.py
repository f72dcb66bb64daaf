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

A part of an item's test that is the same for every item is worked out once, before the loop
(`fixed_N`): `c.height` of the card `c` a rule tests on every space, `env.get('you')`. Only parts
that read nothing the loop binds and call nothing but a dict's `get` are moved: they change nothing
and note no read, and the state does not change while an expression is worked out, so each is the
value the loop would find at every item. The one call moved besides is an ask for a remembered
value whose key reads nothing the loop binds (a player's cards on a grid, asked at each space): it
changes no state either, but notes what the value read even when no item would have reached it, so
the value being worked out may be found stale more often, never wrong. A part the loop might not
have reached (behind an `and`, on an empty list) may fault where the loop would not: then the loop
runs as generated, with no part moved (`plain_N`), and faults, or not, as it would have. Parts as
cheap as their name (`key[1] is None`) stay where they are. A comprehension's element and tests
are treated alike (`fixed_in_comprehensions`): their parts are worked out before the function's
`return`; if that faults, the function returns its value as generated.
"""

from __future__ import annotations

import ast
import builtins
import operator
from collections.abc import Callable
from typing import Any

from .reuse import copied, reused

_DECIDES = {"any": True, "all": False}  # an item whose test is this decides the answer at once


def looped(
    body: ast.expr, fresh: Callable[[str], str], define: Callable, module: dict
) -> tuple[ast.expr, bool]:
    """`body` with every `any`/`all` of one generator a call of a function defined for it
    (`define(name, arguments, statements)`), innermost first; `module` is the namespace the
    generated code reads its helpers from. The code given is left as it is: a part that changes
    is copied. And whether a comprehension is left in it (for fixed_in_comprehensions)."""
    loops = _Looped(fresh, define, module)
    return loops.expr(body), loops.comprehensions


class _Looped:
    def __init__(self, fresh: Callable[[str], str], define: Callable, module: dict):
        self.fresh, self.define, self.module = fresh, define, module
        self.comprehensions = False

    def expr(self, node):
        """The node, or a copy of it with its parts looped (None and non-nodes as they are)."""
        if isinstance(node, list):
            return _mapped(self.expr, node)
        if not isinstance(node, ast.AST):
            return node
        changed = {}
        for field, value in ast.iter_fields(node):
            new = self.expr(value)
            if new is not value:
                changed[field] = new
        node = _with(node, changed)
        quantified = _quantified(node)
        if quantified is None:
            self.comprehensions = self.comprehensions or isinstance(node, _LISTED)
            return node
        return self.loop(node, *quantified)

    def loop(self, call: ast.Call, decides: bool, generator: ast.GeneratorExp, item: str) -> ast.Call:
        """`any(TEST for ITEM in ITEMS if IFS)` as `exists_N(ITEMS, *locals)`."""
        (comprehension,) = generator.generators
        inside = [generator.elt, *comprehension.ifs]
        local = sorted(  # (a name one part binds with `:=` and another reads is the loop's own)
            _read(ast.Tuple(inside, ast.Load())) - {item} - self.module.keys() - _BUILTINS
        )
        items = self.fresh("items")
        arguments = (items, *local)
        fixed: dict[str, tuple[str, ast.expr]] = {}
        moved = _Fixed(set(local), self.module, fixed, self.fresh)
        body = _loop(item, items, decides, *(moved.expr(part) for part in inside))
        if fixed:  # worked out first; if that faults, the loop as generated
            plain = self.fresh("plain")
            self.define(plain, arguments, _loop(item, items, decides, *inside))
            again = ast.Call(ast.Name(plain, ast.Load()), [ast.Name(a, ast.Load()) for a in arguments], [])
            body.insert(0, _fixed_first(list(fixed.values()), ast.Return(again), self.fresh))
        name = self.fresh("exists" if decides else "every")
        self.define(name, arguments, body)
        names = [ast.copy_location(ast.Name(n, ast.Load()), call) for n in (name, *local)]
        return ast.copy_location(ast.Call(names[0], [comprehension.iter, *names[1:]], []), call)


def _loop(item: str, items: str, decides: bool, element: ast.expr, *conditions: ast.expr) -> list[ast.stmt]:
    """The statements of `any(ELEMENT for ITEM in ITEMS if CONDITIONS)` (`all(…)` if not `decides`)."""
    test = element if decides else ast.UnaryOp(ast.Not(), element)
    step: ast.stmt = ast.If(test, [ast.Return(ast.Constant(decides))], [])
    for condition in reversed(conditions):
        step = ast.If(condition, [step], [])
    return [
        ast.For(ast.Name(item, ast.Store()), ast.Name(items, ast.Load()), [step], []),
        ast.Return(ast.Constant(not decides)),
    ]


def fixed_in_comprehensions(
    body: list[ast.stmt], arguments: tuple[str, ...], module: dict, fresh: Callable[[str], str]
) -> list[ast.stmt]:
    """An expression's function (`return …`, maybe in a `try`; its `arguments`, its `module`'s
    names) with the parts of its comprehensions' elements and tests that are the same for every
    item worked out once, before it returns, as a loop's are (if that faults, it returns what it
    did before)."""
    changed: list[ast.stmt] = []
    for statement in body:
        if type(statement) is ast.Try:  # (made anew: codegen._located places what it holds)
            inside = fixed_in_comprehensions(statement.body, arguments, module, fresh)
            statement = ast.Try(inside, statement.handlers, statement.orelse, statement.finalbody)
        elif type(statement) is ast.Return and statement.value is not None:
            fixed: dict[str, tuple[str, ast.expr]] = {}
            value = _in_comprehensions(statement.value, _Fixed(set(arguments), module, fixed, fresh))
            if fixed:
                changed.append(_fixed_first(list(fixed.values()), statement, fresh))
                statement = ast.Return(value)
        changed.append(statement)
    return changed


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_LISTED = (ast.ListComp, ast.SetComp, ast.DictComp)  # (a generator is an any()'s or all()'s: a loop)


def _in_comprehensions(node, moved: _Fixed):
    """`node` with each comprehension's element and tests through `moved` (its items are read
    once anyway); the code given is left as it is (a part that changes is copied)."""
    if isinstance(node, list):
        return _mapped(lambda item: _in_comprehensions(item, moved), node)
    if not isinstance(node, ast.AST):
        return node
    changed = {}
    for field, value in ast.iter_fields(node):
        new = _in_comprehensions(value, moved)
        if (isinstance(node, _COMPREHENSIONS) and field != "generators") or (
            type(node) is ast.comprehension and field == "ifs"
        ):
            new = moved.expr(new)
        if new is not value:
            changed[field] = new
    return _with(node, changed)


def _mapped(change: Callable, items: list) -> list:
    """`change` of each item: the list itself if no item changed."""
    changed = [change(item) for item in items]
    return items if all(map(operator.is_, changed, items)) else changed


def _with(node: ast.AST, changed: dict) -> ast.AST:
    """The node, or a copy of it with the fields `changed` (a node given is never changed)."""
    if changed:
        node = copied(node)
        for field, value in changed.items():
            setattr(node, field, value)
    return node


def _fixed_first(fixed: list[tuple[str, ast.expr]], otherwise: ast.stmt, fresh) -> ast.stmt:
    """`try: fixed_1, … = (…)` (their common parts worked out once; one alone: `fixed_1 = …`)
    `except Exception: OTHERWISE` (the code as generated, no part moved)."""
    names: list[ast.expr] = [ast.Name(name, ast.Store()) for name, _ in fixed]
    target: ast.expr = ast.Tuple(names, ast.Store())
    parts: ast.expr = ast.Tuple([part for _, part in fixed], ast.Load())
    if len(fixed) == 1:
        target, parts = names[0], fixed[0][1]
    handler = ast.ExceptHandler(ast.Name("Exception", ast.Load()), None, [otherwise])
    return ast.Try([ast.Assign([target], reused(parts, fresh))], [handler], [], [])


# what a part worked out before the loop may be made of: it reads, and calls nothing but `get`
_READING = (
    ast.Name,
    ast.Constant,
    ast.Attribute,
    ast.Subscript,
    ast.IfExp,
    ast.Compare,
    ast.BoolOp,
    ast.UnaryOp,
)
_SYMBOLS = (ast.expr_context, ast.cmpop, ast.boolop, ast.unaryop)


class _Fixed:
    """A test with each largest part that is the same for every item read from a name made for
    it (`fixed`: the part's code -> its name and the part); the code given is left as it is (a
    part that changes is copied). Such a part reads no name but those in `outside` (the
    function's arguments, the locals a loop is handed), the module's and the builtins."""

    def __init__(self, outside: set[str], module: dict, fixed: dict, fresh: Callable[[str], str]):
        self.outside, self.module, self.fixed, self.fresh = outside, module, fixed, fresh

    def expr(self, node):
        if isinstance(node, list):  # (a comprehension's tests)
            return _mapped(self.expr, node)
        new, same = self._moved(node)
        return self._named(new) if same else new

    def _moved(self, node) -> tuple:
        """The node with its largest parts the same for every item named (worked out bottom up,
        each part once), and whether it is such a part itself."""
        if type(node) is ast.Name:
            return node, node.id in self.outside or node.id in self.module or node.id in _BUILTINS
        if not isinstance(node, ast.AST) or type(node) is ast.Constant or isinstance(node, _SYMBOLS):
            return node, True
        if isinstance(node, _COMPREHENSIONS):  # (its own parts are its own: _in_comprehensions)
            return node, False
        asked = _ask_reads(node)
        if asked is not None and all(self._moved(part)[1] for part in asked):
            return node, True  # (the one call moved: an ask, see above)
        moved = {field: self._moved_all(value) for field, value in ast.iter_fields(node)}
        same = (isinstance(node, _READING) or _gets(node)) and all(
            all(s for _, s in parts) if isinstance(parts, list) else parts[1] for parts in moved.values()
        )
        if same:
            return node, True
        changed = {}
        for field, parts in moved.items():
            if type(node) is ast.Call and field == "func":
                continue  # (a function is read where it is called: `game.remembered(…)`, not `fixed_3(…)`)
            if isinstance(parts, list):
                new: Any = [self._named(part) if s else part for part, s in parts]
                if all(map(operator.is_, new, getattr(node, field))):
                    continue
            else:
                new = self._named(parts[0]) if parts[1] else parts[0]
                if new is getattr(node, field):
                    continue
            changed[field] = new
        return _with(node, changed), False

    def _moved_all(self, value):
        return [self._moved(item) for item in value] if isinstance(value, list) else self._moved(value)

    def _named(self, node):
        """A part the same for every item, read from its name if that costs less."""
        if not isinstance(node, ast.expr) or type(node) in (ast.Name, ast.Constant) or not _costs(node):
            return node
        code = ast.dump(node)
        if code not in self.fixed:
            self.fixed[code] = (self.fresh("fixed"), node)
        return ast.copy_location(ast.Name(self.fixed[code][0], ast.Load()), node)


def _gets(node: ast.AST) -> bool:
    """Whether the node is a call of `get` (the generated code calls `get` of a dict only)."""
    return (
        type(node) is ast.Call
        and type(node.func) is ast.Attribute
        and node.func.attr == "get"
        and not node.keywords
    )


def _ask_reads(node: ast.AST) -> list[ast.expr] | None:
    """What an ask for a remembered definition's value reads, as expressions.let_in writes it
    (`WORK(game, env, KEY) if FLAG else game.remembered(KEY, WORK, env)`, FLAG the definition's
    `Module.forgetting`): its flag and its calls' arguments, a key by its parts. None for any other node."""
    if not (
        isinstance(node, ast.IfExp)
        and isinstance(work := node.body, ast.Call)
        and isinstance(work.func, ast.Name)
        and isinstance(asked := node.orelse, ast.Call)
        and isinstance(asked.func, ast.Attribute)
        and asked.func.attr == "remembered"
        and isinstance(asked.func.value, ast.Name)
        and asked.func.value.id == "game"
    ):
        return None
    arguments = (*work.args, *asked.args)
    return [node.test, *(part for a in arguments for part in (a.elts if isinstance(a, ast.Tuple) else (a,)))]


_COSTS = {ast.Call: 3, ast.Attribute: 1, ast.Subscript: 1, ast.Compare: 1}  # steps, roughly


def _costs(node: ast.expr) -> bool:
    """Whether working a part out once, before the loop, costs less than at each item would:
    `key[1] is None` costs about what naming it once does."""
    return sum(_COSTS.get(type(part), 0) for part in ast.walk(node)) >= 3


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
