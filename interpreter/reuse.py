"""Common subexpressions of generated code worked out once (codegen.Module.define).

A rule often reads the same thing twice: `top(s).kind = plant else … top(s).kind = cloud`, or a
space's attribute in a condition and again in the value it guards. Expressions are pure (they
read the state and change nothing, and the state does not change while one is worked out), so
a value already worked out on the way to a second use may be used again: the first use becomes
`(_v := …)` and the second reads `_v`.

Only a use that every path to it passes the first use through is replaced (the first use
*dominates* it): a branch of `… if … else …`, a later operand of `and`/`or` and a
comprehension's element or conditions see what was worked out before them, but what they work
out is not seen after them. The branch taken when an `and` holds (an `or` fails) sees every
operand's work: each has run. So nothing is worked out that was not before, in no other order:
the same values, the same faults, the same reads noted for remembered values. Python allows no
`:=` in a comprehension's iterable, so none is put there (a use there may still be replaced).
A part worked out on both branches of `… if … else …` (each names it alike) is worked out after
it. An `or` among the operands of an `or` is one chain with it (`(a or b) or c`: `c` runs only after
`b`), and so is an `and` in an `and`.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

Node = TypeVar("Node", bound=ast.AST)
_SCOPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_UNNAMED = (*_SCOPES, ast.Lambda, ast.Starred)  # a generator is used up once; a lambda has its own scope


def reused(body: ast.expr, fresh: Callable[[str], str]) -> ast.expr:
    """`body` with each call (or expression holding one) written more than once worked out once
    where the first use dominates the others; `fresh(hint)` makes the names. The code given is
    left as it is (a part put in a template twice is one node in two places)."""
    shapes: dict = {}
    keys: dict[int, int] = {}
    counts: Counter[int] = Counter()
    _shape(body, shapes, keys, counts)
    repeated = {key for key, count in counts.items() if count > 1}
    if not repeated:
        return body
    reuse = _Reuse(keys, repeated, fresh)
    body = reuse.expr(body, {}, True)
    if reuse.named - reuse.read:  # a use no later use read again needs no name
        body = _Unnamed(reuse.named - reuse.read).visit(body)
    return body


def _shape(node: ast.AST, shapes: dict, keys: dict[int, int], counts: Counter[int]) -> tuple[int, bool]:
    """A number for the node's shape (equal numbers: equal code), and whether it holds a call,
    worked out bottom up in one pass; `keys` gets the shape of each node worth a name (an
    expression that holds a call and is read, not a comprehension or lambda), `counts` how often
    each such shape is written."""
    call, fields = type(node) is ast.Call, []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            value, holds = _shape(value, shapes, keys, counts)
            call = call or holds
        elif isinstance(value, list):
            items = []
            for item in value:
                if isinstance(item, ast.AST):
                    item, holds = _shape(item, shapes, keys, counts)
                    call = call or holds
                items.append(item)
            value = tuple(items)
        elif type(value) is not str:
            value = (type(value), value)  # 1 and True are equal, yet not the same constant
        fields.append(value)
    key = shapes.setdefault((type(node), *fields), len(shapes))
    read = isinstance(getattr(node, "ctx", None), ast.Load | None)  # not a name stored to
    if call and read and isinstance(node, ast.expr) and not isinstance(node, _UNNAMED):
        keys[id(node)] = key
        counts[key] += 1
    return key, call


def _placed(new: ast.expr, old: ast.expr) -> ast.expr:
    """New code placed where the code it stands for is (compile() asks every node for a place)."""
    for attribute, default in (("lineno", 1), ("col_offset", 0), ("end_lineno", 1), ("end_col_offset", 0)):
        setattr(new, attribute, getattr(old, attribute, default))
    return new


def copied(node: Node) -> Node:
    """A shallow copy of a node (copy.copy takes 20 times as long)."""
    made = type(node).__new__(type(node))
    made.__dict__.update(node.__dict__)
    return made


class _Reuse:
    def __init__(self, keys: dict[int, int], repeated: set[int], fresh: Callable[[str], str]):
        self.keys, self.repeated, self.fresh = keys, repeated, fresh
        self.named: set[str] = set()
        self.read: set[str] = set()  # the names read again
        self.alike: dict[int, str] = {}  # shape -> the name the branch before gave it (inner)

    def expr(self, node: ast.expr, seen: dict[int, str], naming: bool) -> ast.expr:
        """The node (a copy, where anything in it changed) with uses already worked out (`seen`:
        shape -> name) read by name, in evaluation order; `seen` gains what it works out on every
        path. `naming`: whether a `:=` may be put here."""
        key = self.keys.get(id(node))
        if key in self.repeated:
            name = seen.get(key)
            if name is not None:
                self.read.add(name)
                return _placed(ast.Name(name, ast.Load()), node)
        made = self.inner(node, seen, naming)
        if key in self.repeated and naming:
            name = seen[key] = self.alike.get(key) or self.fresh("same")
            self.named.add(name)
            target = ast.Name(name, ast.Store())
            _placed(target, node)
            return _placed(ast.NamedExpr(target, made), node)
        return made

    def inner(self, node: ast.expr, seen: dict[int, str], naming: bool) -> ast.expr:
        """The node's parts, each in the order Python works them out, each branch apart."""
        made: Any = copied(node)
        if isinstance(node, ast.IfExp):
            made.test, if_true, if_false = self.test(node.test, seen, naming)
            then, otherwise = dict(if_true), dict(if_false)
            made.body = self.expr(node.body, then, naming)
            new = {key: name for key, name in then.items() if key not in seen}
            alike, self.alike = self.alike, {**self.alike, **new}  # the other branch names them alike
            made.orelse = self.expr(node.orelse, otherwise, naming)
            self.alike = alike
            # what both branches worked out, each under the same name, is worked out after them
            seen.update((key, name) for key, name in new.items() if otherwise.get(key) == name)
        elif isinstance(node, ast.BoolOp):
            made.values, _ = self.chain(node, seen, naming)
        elif isinstance(node, ast.Compare) and len(node.comparators) > 1:  # a chain stops early
            made.left = self.expr(node.left, seen, naming)
            first = self.expr(node.comparators[0], seen, naming)
            later = dict(seen)
            made.comparators = [first, *(self.expr(value, later, naming) for value in node.comparators[1:])]
        elif isinstance(node, _SCOPES):
            self.scope(made, seen, naming)
        elif not isinstance(node, ast.Lambda):  # a lambda, run later, is left as it is
            for field, value in ast.iter_fields(node):
                if isinstance(value, ast.expr):
                    setattr(made, field, self.expr(value, seen, naming))
                elif isinstance(value, list):
                    setattr(made, field, [self.part(item, seen, naming) for item in value])
        return made

    def chain(self, node: ast.BoolOp, seen: dict[int, str], naming: bool) -> tuple[list[ast.expr], dict]:
        """The operands of an `and` (an `or`), and what is worked out once every one has run."""
        values = _chained(node)
        first = self.expr(values[0], seen, naming)
        later = dict(seen)  # each later operand runs only after those before it
        return [first, *(self.expr(value, later, naming) for value in values[1:])], later

    def test(self, node: ast.expr, seen: dict[int, str], naming: bool) -> tuple[ast.expr, dict, dict]:
        """A branch's test, and what is surely worked out when it holds and when it fails: an
        `and` holds only once every operand has run, an `or` fails only so."""
        if type(node) is not ast.BoolOp or self.keys.get(id(node)) in self.repeated:
            return self.expr(node, seen, naming), seen, seen
        made = copied(node)
        made.values, every = self.chain(node, seen, naming)
        return (made, every, seen) if type(node.op) is ast.And else (made, seen, every)

    def part(self, item, seen: dict[int, str], naming: bool):
        """An item of a list field: an expression, or a part of a call (a keyword …) as it is."""
        if isinstance(item, ast.expr):
            return self.expr(item, seen, naming)
        if isinstance(item, ast.keyword):
            made = copied(item)
            made.value = self.expr(item.value, seen, naming)
            return made
        return item

    def scope(self, made, seen: dict[int, str], naming: bool):
        """A comprehension: its first iterable is worked out here, before it; the rest on each
        pass (what they work out is not seen after it), and no `:=` in any iterable."""
        inside = seen
        generators = []
        for index, generator in enumerate(made.generators):
            generator = copied(generator)  # (the code given is left as it is)
            generator.iter = self.expr(generator.iter, inside, False)
            if index == 0:
                inside = dict(seen)
            generator.ifs = [self.expr(test, inside, naming) for test in generator.ifs]
            generators.append(generator)
        made.generators = generators
        if isinstance(made, ast.DictComp):
            made.key = self.expr(made.key, inside, naming)
            made.value = self.expr(made.value, inside, naming)
        else:
            made.elt = self.expr(made.elt, inside, naming)


def _chained(node: ast.BoolOp) -> list[ast.expr]:
    """The operands of an `and` (an `or`) with those of the `and`s (`or`s) among them in their
    place: `(a or b) or c` is `a or b or c`, whose `c` runs only after `b` ran."""
    values: list[ast.expr] = []
    for value in node.values:
        if type(value) is ast.BoolOp and type(value.op) is type(node.op):
            values += _chained(value)
        else:
            values.append(value)
    return values


class _Unnamed(ast.NodeTransformer):
    """`(_v := value)` back to `value` for the names `_v` given (named here, never read)."""

    def __init__(self, unread: set[str]):
        self.unread = unread

    def visit_NamedExpr(self, node: ast.NamedExpr):
        self.generic_visit(node)
        return node.value if node.target.id in self.unread else node
