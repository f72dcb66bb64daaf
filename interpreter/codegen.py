"""Expressions compiled to Python, as Jinja2 compiles a template: each expression of the rules
becomes a function generated as an `ast` tree and compiled once per set of rules.

A primitive's handler is its code builder: `handler(node, gen)` returns the `ast` expression
that works the node out, in a function whose locals `game` and `env` are what an `Expr` gets
(runtime.py). Handlers write their code as templates, Python text of their own in which names
stand for parts (`gen.fill("len(pile_of(game, {coll}))", coll=...)`): a template is parsed once
and its names are replaced by `ast` nodes, so a value from the data only ever enters the code as
an `ast.Constant`, or as a name bound to the value in the generated module's namespace (`gen.ref`),
and every identifier is one the generator made. Nothing the data says is parsed or run as text.

Names a rule binds inside an expression (`it` in `hand where value > 3`, `c` in
`sum(c.value for c in hand)`) are Python locals of the generated code; the names bound around it
(`you`, a choice, a loop of the flow) are read from `env`. A function generated elsewhere that
reads `env` (a definition's body, a condition printed on a card) is handed `env` with the locals
in scope folded in.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import itertools
import re
import textwrap
import types
from collections.abc import Callable, Hashable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from . import runners
from .ir import Node, Span, nodes
from .loops import fixed_in_comprehensions, looped
from .registry import REGISTRY, has_role, reasons, role
from .reuse import reused
from .runtime import fault_at
from .state import OwnedKeys

_PART = re.compile(r"\{(\w+)\}")
_BLOCKS = ("body", "orelse", "finalbody")  # the fields of a statement holding statements
# nodes with neither parts nor a place, which Python's parser shares between trees (a `Load`, an `Add`)
_SHARED = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
_PLAIN = (int, str, bool, type(None))  # values compile() takes as constants (exact types only)


class Module:
    """The generated code of one set of rules: its functions, and the namespace they share (the
    runtime helpers and non-literal values the code refers to, each under a generated name)."""

    def __init__(self, label: str = "rules"):
        self.label = label
        self.namespace: dict = {}
        self.functions: list[ast.stmt] = []  # as generated, for reading (`source`)
        self._names: dict = {}  # id(function), or (type, value) -> its name in the namespace
        self._kept: list = []  # the values named, kept alive while their ids are keys
        self._kept_names: set[str] = set()
        self._built: dict[
            Hashable, tuple[Node, Callable]
        ] = {}  # id(node), or (id, place) -> (node, its function)
        self._counter = itertools.count(1)
        self.facts: dict[int, tuple[bool, bool]] = {}  # id(node) -> what its function's value always is
        self.free: dict = {}  # registry.free_names' table: each node's names read, worked out once
        self._parts: dict[int, tuple[Node, Part]] = {}  # id(node) -> (node, its Part), for `why`
        self._waiting: dict[str, Callable] = {}  # name -> the function handed out, until `finish`
        self.finished = False  # until the rules are built, functions are compiled together at the end
        # the cache (codecache.py): the name handed out for each request from outside the
        # generator, in order; a module loaded from the cache hands out its names again
        self.handed: list[tuple[str, str]] = []  # (name, the node's primitive)
        self._generating = 0  # > 0 while a function is generated: its requests are its own
        self.cache_path: Path | None = None  # where codecache keeps this module, if it may
        self.replayed = False
        self._replay: Iterator | None = None
        self.rules: tuple = ()  # every rule built with this module (Rules._build): what `settled` reads
        self._runners: dict[tuple, Callable] = {}  # (shape, looping) -> the maker handed out (runners.py)
        self._runner_names: list[
            tuple[str, runners.Shape, runners.Looping]
        ] = []  # the makers generated here, for `source`
        self._settable: frozenset | None = None
        # a remembered definition's token -> the name of the flag its uses test, set while the
        # rules judge it not worth remembering (forgetting)
        self._forgetting: dict[str, str] = {}

    @classmethod
    def replaying(cls, label: str, namespace: dict, path) -> Module:
        """A module loaded from the cache (codecache.py): it hands out the functions of its
        namespace in the order they were first handed out. KeyError, TypeError or ValueError when
        the namespace is not one of ours."""
        module = cls(label)
        handed, after = namespace["HANDED"], int(namespace["NEXT"])
        if not all(isinstance(n, str) and callable(namespace[n]) for n, _ in handed):
            raise TypeError("not a module of generated rules")
        module.namespace, module.cache_path, module.replayed = namespace, path, True
        module._forgetting = dict(namespace["FORGETTING"])
        module._replay = iter(handed)
        module._counter = itertools.count(after)
        return module

    def _replayed(self, node: Node) -> Callable | None:
        """While the rules are built from the cache: the function next handed out, checked
        against the request (StaleCode when they differ)."""
        name = self._replayed_name(node.op)
        return None if name is None else self.namespace[name]

    def _replayed_name(self, asked: str) -> str | None:
        if self._replay is None or self._generating:
            return None
        name, op = next(self._replay, (None, None))
        if op != asked:
            raise StaleCode(f"the cached code of {self.label} differs from its rules")
        return name

    def _handing(self, made: Callable, node: Node) -> Callable:
        if not self._generating:
            self.handed.append((made.__name__, node.op))
        return made

    def ref(self, value, hint: str = "k") -> ast.Name:
        """A name of the namespace bound to `value` (a helper function, a zone key …): one name
        per function, and per value (equal zone keys share one)."""
        if getattr(value, "__globals__", None) is self.namespace:  # a function of this module: its own name
            return ast.Name(value.__name__, ast.Load())
        known = id(value) if callable(value) or not isinstance(value, Hashable) else (type(value), value)
        name = self._names.get(known)
        if name is None:
            name = self._names[known] = self.fresh(getattr(value, "__name__", hint))
            self._kept_names.add(name)
            self._kept.append(value)
            self.namespace[name] = value
        return ast.Name(name, ast.Load())

    def function(
        self,
        node: Node,
        params: tuple[str, ...] = (),
        bound: dict | None = None,
        shared: bool = False,
        at: str | None = None,
    ) -> Callable:
        """The function `f(game, env, *params)` that works out `node`, generated once per node
        (a definition's body, shared by its uses, is one function). `bound` gives the code that
        reads names of the rules bound by the caller (a definition's parameters, from its key);
        a `shared` value is remembered and read by many, so a list is given as a tuple. A
        function `at` a place reports a rule's fault as a GameError there (what a flow step
        works out: only actions are named by their steps); one for each place."""
        found = self._found(node, at, params)
        if found is not None:
            return found
        name = self.fresh(REGISTRY[node.op].name)
        with self._inside():
            gen = Gen(self, dict(bound or {}), named=True)
            body = gen.code(node)
            self.facts[id(node)] = Gen.listing(body), Gen.number(body)
            if shared:
                body = _shared(body, gen, self.ref(kept))
            statements: list[ast.stmt] = [ast.Return(body)]
            if at is not None:
                statements = gen.steps(
                    """
                    try:
                        return {body}
                    except:
                        {failed}({at})
                        raise
                    """,
                    body=body,
                    failed=self.ref(fault_at),
                    at=at,
                )
        made = self._built[_key(node, at, params)] = (
            node,
            self.define(name, ("game", "env", *params), statements, pure=True),
        )
        return self._handing(made[1], node)

    def printed_condition(self, node: Node) -> Callable:
        """A condition printed on a card, `f(game, env, it)`. It sees `it` alone (cards.py lowers
        it so), which is handed to it: nothing is folded into a copy of `env` for every card a
        filter asks it of (expressions.meets)."""
        asked = self.fresh("it")
        return self.function(node, (asked,), {"it": ast.Name(asked, ast.Load())})

    def action(self, node: Node) -> Callable:
        """The step `act(game, frame)` that carries out an action node: its primitive's code
        builder gives its statements, run with `env`, the frame's bindings. Around them, what
        every action step does: inside a simultaneous turn it is held back (Game.hold) until
        every seat has chosen; it notes where it is written (Game.recent); a rule's fault in it
        is reported there; the interrupts are checked after it (when it stamped a key their
        conditions read: State.alarm), and the test hook called."""
        found = self._found(node)
        if found is not None:
            return found
        name = self.fresh(REGISTRY[node.op].name)
        with self._inside():
            gen = Gen(self, {})
            steps = REGISTRY[node.op].handler(node, gen)  # it runs to its end: no `return` (test_codegen)
            body = gen.steps(
                """
                if frame.held is not None:
                    return game.hold({step}, frame)
                game.recent.append({span})
                try:
                    env = frame.env
                    {steps}
                except:
                    {failed}({at})
                    raise
                if game.state.alarm:  # (never raised for rules without interrupts: Game.__init__)
                    game.check_interrupts()
                if game.on_step:
                    game.on_step(game)
                """,
                step=ast.Name(name, ast.Load()),
                span=self.ref(node.span) if node.span is not None else None,
                steps=steps,
                failed=self.ref(fault_at),
                at=str(node.span),
            )
        made = self._built[id(node)] = (node, self.define(name, ("game", "frame"), body))
        return self._handing(made[1], node)

    def runner(self, shape: runners.Shape, looping: runners.Looping) -> Callable:
        """The maker of a block's runner of this shape (runners.py), a function of this module:
        what the cache keeps of the rules' code, so a module loaded from it hands the maker out
        compiled. Generated, it is the one compiled once a process for the shape (the rules
        call it as they are built, before `finish`); its source is written with the module's."""
        made = self._runners.get((shape, looping))
        if made is not None:
            return made
        asked = runners.label(shape, looping)
        name = self._replayed_name(asked)
        if name is None:
            name = self.fresh("block_runner")
            self.namespace[name] = runners.maker(shape, looping)
            self._runner_names.append((name, shape, looping))
        made = self._runners[(shape, looping)] = self.namespace[name]
        self.handed.append((name, asked))
        return made

    def forgetting(self, token: str) -> ast.Name:
        """The flag the uses of remembered definition `token` test: true while the rules judge
        it not worth remembering (Worth.skipped, through `forget`), and its uses then work the
        value out at once. A global of the module: a test of it costs about a quarter of a
        lookup in a set of tokens, and what it costs hangs on no string's hash."""
        name = self._forgetting.get(token)
        if name is None:
            name = self._forgetting[token] = self.fresh("forgotten")
            self.namespace[name] = False
        return ast.Name(name, ast.Load())

    def forget(self, tokens: frozenset[str]) -> None:
        """Set the flags: these definitions are not worth remembering, the others are."""
        for token, name in self._forgetting.items():
            self.namespace[name] = token in tokens

    def settled(self, name: str) -> bool:
        """Whether no rule sets the space attribute `name` (no part of a primitive that sets, a
        `target`, names it): every space shows what its map prints, for good. Reading it need
        not be noted, and a filter by it may look it up in an index (Rules.spaces_showing)."""
        if self._settable is None:
            self._settable = frozenset(
                role(target, "space attribute")
                for node in nodes(self.rules)
                for param in getattr(REGISTRY.get(node.op), "params", ())
                if param.type == "target" and has_role(target := node.args.get(param.name), "space attribute")
            )
        return name not in self._settable

    def fresh(self, hint: str) -> str:
        """A name the generator makes (never one from the data)."""
        return f"{_word(hint)}_{next(self._counter)}"

    def _found(self, node: Node, at: str | None = None, params: tuple[str, ...] = ()) -> Callable | None:
        """The function already made for a node: handed out again from the cache, or built before."""
        cached = self._replayed(node)
        if cached is not None:
            return cached
        built = self._built.get(_key(node, at, params))
        return self._handing(built[1], node) if built is not None and built[0] is node else None

    @contextlib.contextmanager
    def _inside(self):
        self._generating += 1
        try:
            yield
        finally:
            self._generating -= 1

    def parts(self, node: Node) -> Part:
        """A condition (or any value) with its reasons, each a function of its own generated by the
        same code builders that play (`why` explains with them): an `and`'s parts, a comparison's
        two sides, a definition's text under its parameters — what each primitive declares in its
        role "reasons"."""
        made = self._parts.get(id(node))
        if made is not None and made[0] is node:
            return made[1]
        name = self.fresh(f"why_{REGISTRY[node.op].name}")
        with self._inside():
            body = Gen(self, {}, named=True).code(node)
        value = self.define(name, ("game", "env"), [ast.Return(body)], pure=True)
        arguments = tuple(self.parts(argument).value for argument in role(node, "arguments") or ())
        inner = tuple(self.parts(part) for part in reasons(node))
        part = Part(node, value, inner, role(node, "parameters") or (), arguments)
        self._parts[id(node)] = (node, part)
        return part

    def define(self, name: str, arguments: tuple[str, ...], body: list, pure: bool = False) -> Callable:
        """A function of the module (`name`: one the generator made): handed out at once,
        compiled with the others (see `finish`). The value a `pure` one returns (an
        expression's: it changes nothing) works out each of its common parts once (reuse.py), and
        its `any`/`all` of a generator as loops (loops.py); then again for common parts, as a
        loop's items, an argument now, may be named where a generator's could not; then what
        its comprehensions read the same for every item is worked out once (loops.py)."""
        if pure:
            comprehensions = False
            for returned in _returns(body):
                if returned.value is not None:
                    value, held = looped(
                        reused(returned.value, self.fresh), self.fresh, self.define, self.namespace
                    )
                    returned.value, comprehensions = reused(value, self.fresh), comprehensions or held
            if comprehensions:
                body = fixed_in_comprehensions(body, arguments, self.namespace, self.fresh)
        tree = _located(
            ast.FunctionDef(
                name=name,
                args=ast.arguments(
                    posonlyargs=[],
                    args=[ast.arg(a) for a in arguments],
                    kwonlyargs=[],
                    kw_defaults=[],
                    defaults=[],
                ),
                body=[_located(statement) for statement in body],
                decorator_list=[],
            )
        )
        self.functions.append(tree)
        made = self._waiting[name] = self.namespace[name] = _stub(name, self.namespace)
        if self.finished:  # a function asked for afterwards is compiled at once
            self.finish()
        return made

    def finish(self) -> None:
        """Compile the functions generated since the last time, all in one module, and put their
        code in the functions handed out (which until then are stubs that refuse to run)."""
        self.finished = True
        if self._replay is not None:
            if next(self._replay, None) is not None:
                raise StaleCode(f"the cached code of {self.label} differs from its rules")
            self._replay = None  # what is asked for from now on is generated
        if not self._waiting:
            return
        module = ast.Module(self.functions[-len(self._waiting) :], [])
        compiled: dict = {}
        exec(compile(module, f"<{self.label}>", "exec"), self.namespace, compiled)  # noqa: S102 - our ast
        for name, stub in self._waiting.items():
            stub.__code__ = compiled[name].__code__
        self._waiting.clear()

    def source(self) -> str:
        """The module as Python text (`silvics compile --python`, and the cache, codecache.py):
        first what each name of the namespace is (a runtime helper, a zone's key …), then the
        functions, then the names handed out for the rules' requests, in order (`HANDED`), the
        flag of each remembered definition (`FORGETTING`, each flag unset) and the first number
        the generator has not used (`NEXT`)."""
        if self.replayed and self.cache_path is not None:
            return self.cache_path.read_text(encoding="utf-8")
        named = [(name, value) for name, value in self.namespace.items() if name in self._kept_names]
        kinds = sorted(
            {type(value) for _, value in named if not callable(value)}, key=lambda t: t.__qualname__
        )
        prelude = [
            *(_imported(kind.__module__, kind.__qualname__, kind.__qualname__) for kind in kinds),
            *(_defined(name, value) for name, value in named),
        ]
        after = next(self._counter)
        self._counter = itertools.count(after)  # (read, not used)
        tables = [
            _pairs("HANDED", self.handed),
            _pairs("FORGETTING", self._forgetting.items()),
            *(_set(name, False) for name in self._forgetting.values()),
            _set("NEXT", after),
        ]
        return "\n".join(
            [
                *(ast.unparse(statement) for statement in prelude),
                "\n",
                *(ast.unparse(tree) + "\n\n" for tree in self.functions),
                *(ast.unparse(runners.tree(*named)) + "\n\n" for named in self._runner_names),
                *(ast.unparse(statement) for statement in tables),
                "",
            ]
        )


class StaleCode(Exception):
    """A module from the cache that does not hand out what the rules ask for: generate afresh."""


class Part(NamedTuple):
    """A value as `why` explains it (Module.parts): the node as written, its generated function
    `value(game, env)`, and the parts that explain it; a definition's text is explained with its
    `parameters` bound to the values of its `arguments` (functions like `value`)."""

    node: Node
    value: Callable
    parts: tuple[Part, ...] = ()
    parameters: tuple[str, ...] = ()
    arguments: tuple[Callable, ...] = ()

    def explain(self, game, env: dict) -> Explained:
        """What the value and each of its parts are, in this state, with these bindings."""
        inner = env
        if self.parameters:
            given = [argument(game, env) for argument in self.arguments]
            inner = {**env, **dict(zip(self.parameters, given, strict=True))}
        return Explained(
            self.node, self.value(game, env), tuple(part.explain(game, inner) for part in self.parts)
        )


class Explained(NamedTuple):
    """A value worked out, with its parts worked out (Part.explain)."""

    node: Node
    value: Any
    parts: tuple[Explained, ...]


class Gen:
    """What a handler builds its code with: the module, and the code that reads each rule name
    bound here (a local, a parameter) rather than in `env`."""

    def __init__(
        self, module: Module, bound: dict[str, ast.expr], testing: bool = False, named: bool = False
    ):
        self.module, self.locals = module, bound
        self.testing = testing  # the code is only asked whether it holds (see `test`)
        self.named = named  # a part written twice is worked out once (an expression's code: reuse.py)

    # ---- parts ----
    def code(self, node: Node) -> ast.expr:
        """The code that works out a part: its value."""
        gen = self if not self.testing else Gen(self.module, self.locals, named=self.named)
        return _located(REGISTRY[node.op].handler(node, gen))

    def test(self, node: Node) -> ast.expr:
        """The code of a part only asked whether it holds (a filter, `and`): any value that is
        true when it holds, not necessarily True (an `and` need not be made a bool)."""
        gen = self if self.testing else Gen(self.module, self.locals, True, self.named)
        return _located(REGISTRY[node.op].handler(node, gen))

    def const(self, value) -> ast.expr:
        """A value of the data as code: a constant (a tuple of them, which Python folds into one),
        or a name the value is bound to."""
        if isinstance(value, tuple) and all(type(v) in _PLAIN for v in value):
            return ast.Tuple([ast.Constant(v) for v in value], ast.Load())
        if type(value) in _PLAIN:
            return ast.Constant(value)
        return self.module.ref(value)

    def ref(self, value, hint: str = "k") -> ast.Name:
        return self.module.ref(value, hint)

    def bound(self, name: str) -> ast.expr:
        """A name of the rules bound around this code: a local, or read from env."""
        local = self.locals.get(name)
        if local is not None:
            return copy.deepcopy(local)
        return self.read("env", name)

    @staticmethod
    def read(table: str, key) -> ast.expr:
        """`table[key]`, for a local table of the generated code (`env`, `key`)."""
        return ast.Subscript(ast.Name(table, ast.Load()), ast.Constant(key), ast.Load())

    def is_local(self, name: str) -> bool:
        return name in self.locals

    def env(self) -> ast.expr:
        """`env` with the names bound to locals here folded in: what a function generated apart
        (a definition's body, a printed number) reads the surroundings from."""
        if not self.locals:
            return ast.Name("env", ast.Load())
        names = [ast.Constant(name) for name in self.locals]
        reads = [copy.deepcopy(local) for local in self.locals.values()]
        return ast.Dict([None, *names], [ast.Name("env", ast.Load()), *reads])

    def binding(self, names: dict[str, str], items: ast.expr | None = None) -> Gen:
        """The same, with more rule names bound to locals of these names (a comprehension's
        variable, going through `items`: when those are cards of piles, never nothing, and its
        pile noted as read already, in the same state: what stamps a card stamps its pile)."""
        present = items is not None and Gen.cards(items)
        bound = {
            name: Gen.known(ast.Name(local, ast.Load()), present=present) for name, local in names.items()
        }
        return Gen(self.module, {**self.locals, **bound}, self.testing, self.named)

    def given(self, codes: dict[str, ast.expr]) -> Gen:
        """The same, with more rule names standing for code as cheap as a name (Gen.simple): a
        definition's parameters, where it is worked out in place."""
        return Gen(self.module, {**self.locals, **codes}, self.testing, self.named)

    def fresh(self, hint: str = "v") -> str:
        return self.module.fresh(hint)

    # ---- what is known of a part's value, marked on its code ----
    @staticmethod
    def known(
        code: ast.expr,
        *,
        listing: bool = False,
        number: bool = False,
        cards: bool = False,
        present: bool = False,
        inert: bool = False,
    ) -> ast.expr:
        """Code whose value is always a list or tuple (`listing`: no zone key, card or nothing),
        always a whole number (`number`: never nothing), always cards of piles (`cards`: a list of
        them, or a zone's pile; code so marked must note each pile it takes them from as read,
        for a card taken from it reads how it lies and its marks with no note: expressions.attr),
        or never nothing (`present`); or code that can neither fail nor
        read the state (`inert`: worked out before the code written ahead of it, it changes nothing)."""
        code.listing, code.number, code.cards, code.present = listing, number, cards, present  # type: ignore[attr-defined]
        code.inert = inert  # type: ignore[attr-defined]
        return code

    @staticmethod
    def cards(code: ast.expr) -> bool:
        return getattr(code, "cards", False)

    @staticmethod
    def present(code: ast.expr) -> bool:
        return getattr(code, "present", False)

    def inert(self, code: ast.expr) -> bool:
        return getattr(code, "inert", False) or self.simple(code)

    @staticmethod
    def listing(code: ast.expr) -> bool:
        return getattr(code, "listing", False)

    @staticmethod
    def number(code: ast.expr) -> bool:
        return getattr(code, "number", False) or (isinstance(code, ast.Constant) and type(code.value) is int)

    def simple(self, code: ast.expr) -> bool:
        """Whether code may be written twice, as cheap and as pure as a name (`env['you']`)."""
        if isinstance(code, ast.Subscript):
            return isinstance(code.value, ast.Name) and isinstance(code.slice, ast.Constant)
        return isinstance(code, ast.Name | ast.Constant)

    # ---- templates ----
    def fill(self, template: str, **parts) -> ast.expr:
        """The template's code with each part put in: `{name}` holes, and the names of the
        runtime helpers it calls (`counter_value(game, {key})`, counter_value=gen.ref(...)). A
        part is an `ast` expression or a plain value (made a constant). Names in the template
        starting with `_` are the template's own temporaries: each use gets fresh ones. (No
        template uses `:=`: Python refuses it inside a comprehension's iterable, where any part
        may end up.)"""
        return self._filled(template, "eval", parts).body

    def steps(self, template: str, **parts) -> list[ast.stmt]:
        """Statements from a template, as `fill` makes an expression (an action's code); a part
        that is a list of statements goes where a statement of the template is just its name."""
        return self._filled(template, "exec", parts).body

    def _filled(self, template: str, mode: str, parts: dict):
        fresh: dict[str, str] = {}

        def part(name: str, ctx: ast.expr_context) -> ast.expr:  # a part is put in as it is, never walked
            return self._part(parts[name], ctx)

        def temporary(name: str) -> str:
            return fresh.setdefault(name, self.fresh(name))

        def statements(name: str) -> list[ast.stmt]:
            """A statement of the template that is only `{name}`: the part's statements, if it is a list,
            else the part as a statement."""
            given = parts[name]
            return given if isinstance(given, list) else [_located(ast.Expr(self._part(given, ast.Load())))]

        return _builder(template, mode, tuple(parts))(part, temporary, statements)

    def _part(self, part, ctx) -> ast.expr:
        """A part put in a hole: a name takes the hole's context (a comprehension's target stores)."""
        if isinstance(part, ast.Name):
            return _located(ast.Name(part.id, ctx))
        return _located(part if isinstance(part, ast.expr) else self.const(part))


@cache
def _builder(template: str, mode: str, holes: tuple[str, ...]) -> Callable:
    """The template, parsed once, as a function that makes a fresh tree of it each time it is
    called, `build(part, temporary, statements)`: a hole (`{name}`, or a name in `holes`, those
    of the parts given) is filled by `part(name, ctx)`, a temporary (a name starting with `_`)
    named by `temporary(name)`, and a statement that is only a hole becomes `statements(name)`.
    It is generated as calls of the `ast` node classes, each value a constant: quicker than
    parsing the template again, and a copy of a parsed tree is slower still."""
    text = _PART.sub(lambda m: f"__part_{m.group(1)}", textwrap.dedent(template))
    tree = ast.parse(text, mode=mode)
    namespace: dict[str, Any] = {}

    def named(value) -> ast.Name:  # an operator or a context: shared, as the parser shares it
        name = f"{type(value).__name__}_{len(namespace)}"
        namespace[name] = value
        return ast.Name(name, ast.Load())

    def call(helper: str, *arguments) -> ast.Call:
        return ast.Call(ast.Name(helper, ast.Load()), list(arguments), [])

    def made(value) -> ast.expr:
        """The code that makes `value` (a node of the template, a list of them, a constant)."""
        if isinstance(value, list):
            return ast.List([made(item) for item in value], ast.Load())
        if not isinstance(value, ast.AST):
            return ast.Constant(value)
        if isinstance(value, _SHARED):
            return named(value)
        if isinstance(value, ast.Name) and (value.id.startswith("__part_") or value.id in holes):
            return call("part", ast.Constant(value.id.removeprefix("__part_")), made(value.ctx))
        fields = {
            field: block(inner) if field in _BLOCKS and isinstance(inner, list) else made(inner)
            for field, inner in ((field, getattr(value, field, None)) for field in value._fields)
        }
        if isinstance(value, ast.Name) and value.id.startswith("_"):
            fields["id"] = call("temporary", ast.Constant(value.id))
        places = {attribute: ast.Constant(getattr(value, attribute, None)) for attribute in value._attributes}
        kind = type(value)
        namespace.setdefault(kind.__name__, kind)
        return ast.Call(
            ast.Name(kind.__name__, ast.Load()),
            [],
            [ast.keyword(key, code) for key, code in {**fields, **places}.items()],
        )

    def block(statements: list[ast.stmt]) -> ast.List:
        """The code that makes a block: a statement that is only a hole becomes `statements(name)`."""
        return ast.List(
            [
                ast.Starred(call("statements", ast.Constant(item.value.id[7:])), ast.Load())
                if isinstance(item, ast.Expr)
                and isinstance(item.value, ast.Name)
                and item.value.id.startswith("__part_")
                else made(item)
                for item in statements
            ],
            ast.Load(),
        )

    function = ast.FunctionDef(
        name="build",
        args=ast.arguments(
            [], [ast.arg(a) for a in ("part", "temporary", "statements")], None, [], [], None, []
        ),
        body=[ast.Return(made(tree))],
        decorator_list=[],
    )
    code = compile(ast.fix_missing_locations(ast.Module([function], [])), "<template>", "exec")
    compiled: dict[str, Callable] = {}
    exec(code, namespace, compiled)  # noqa: S102 - our ast, of our own templates
    return compiled["build"]


def _returns(body: list[ast.stmt]) -> Iterator[ast.Return]:
    """The `return` statements of a function's body, or of its `try` (an expression's function:
    one or the other)."""
    for statement in body:
        if isinstance(statement, ast.Return):
            yield statement
        elif isinstance(statement, ast.Try):
            yield from _returns(statement.body)


def _defined(name: str, value) -> ast.stmt:
    """A statement that says what a name of the namespace holds: an import of a function, or an
    assignment of a value as its type would make it (a zone key is Zone('deck'), the keys of a
    zone held per player OwnedKeys('hand'), the place a rule is written Span('game.yaml', 3, 7))."""
    module, qualified = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if callable(value) and module and qualified and "." not in qualified:
        return _imported(module, qualified, name)
    parts: list[str | int]
    if isinstance(value, str):
        parts = [str.__str__(value)]
    elif isinstance(value, Span):
        parts = [value.file, value.line, value.col]
    elif isinstance(value, OwnedKeys):
        parts = [value.name]
    else:  # only helpers, words (zone keys), keys by owner and places are ever named
        raise TypeError(f"a value the generated module cannot say: {type(value).__name__}")
    made = ast.Call(
        ast.Name(type(value).__qualname__, ast.Load()), [ast.Constant(part) for part in parts], []
    )
    return ast.Assign([ast.Name(name, ast.Store())], made, lineno=1)


def _set(name: str, value) -> ast.stmt:
    """`name = value`, the value a constant."""
    return ast.Assign([ast.Name(name, ast.Store())], ast.Constant(value), lineno=1)


def _pairs(name: str, pairs) -> ast.stmt:
    """`name = ((a, b), …)`: a table of the module's source, each item a constant (HANDED, FORGETTING)."""
    items: list[ast.expr] = [ast.Tuple([ast.Constant(a), ast.Constant(b)], ast.Load()) for a, b in pairs]
    return ast.Assign([ast.Name(name, ast.Store())], ast.Tuple(items, ast.Load()), lineno=1)


def _imported(module: str, qualified: str, name: str) -> ast.stmt:
    """`from module import qualified as name`; a builtin is assigned (`sum_3 = sum`)."""
    if module == "builtins":
        return ast.Assign([ast.Name(name, ast.Store())], ast.Name(qualified, ast.Load()), lineno=1)
    return ast.ImportFrom(module, [ast.alias(qualified, name if name != qualified else None)], 0)


_PLACE = {"lineno": 1, "col_offset": 0, "end_lineno": 1, "end_col_offset": 0}


def _located(code):
    """Code given the place compile() asks of each node, those made here rather than parsed; a
    node with a place holds parts that have theirs (each part is placed as it is made)."""
    if not isinstance(code, ast.AST) or isinstance(code, _SHARED):  # a context or an operator has no place
        return code
    if "lineno" in code._attributes:
        if getattr(code, "lineno", None) is not None:
            return code
        for attribute, value in _PLACE.items():
            setattr(code, attribute, value)
    for field in code._fields:  # a node just placed, or one with no place (arguments): its parts
        inner = getattr(code, field, None)
        if type(inner) is list:
            for item in inner:
                _located(item)
        else:
            _located(inner)
    return code


def _stub(name: str, namespace: dict) -> Callable:
    """A function of the generated module whose code is put in later (Module.finish): whoever
    built it holds it already."""
    return types.FunctionType(_WAITING, namespace, name)


def _waiting(*args):
    raise RuntimeError("a generated function was called before its module was compiled (Module.finish)")


_WAITING = _waiting.__code__


def _key(node: Node, at: str | None, params: tuple[str, ...]):
    """What a node's function is known by: its node, and the place or parameters it was made for."""
    return id(node) if at is None and not params else (id(node), at, params)


def _shared(body: ast.expr, gen, kept: ast.expr) -> ast.expr:
    """A remembered value's code, so that a list is given as a tuple (kept): a number or a truth
    needs nothing, a list made here is made a tuple at once."""
    truth = (
        isinstance(body, ast.Compare | ast.UnaryOp)
        or (
            isinstance(body, ast.IfExp)
            and all(
                isinstance(part, ast.Constant) and type(part.value) is bool
                for part in (body.body, body.orelse)
            )
        )
        or (isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id in ("any", "all"))
    )
    if Gen.number(body) or truth:
        return body
    if isinstance(body, ast.ListComp):
        return gen.fill("tuple({body})", body=body)
    return gen.fill("kept({body})", kept=kept, body=body)


def kept(value):
    """A definition's value as its uses share it: a list as a tuple (never changed in place)."""
    return tuple(value) if isinstance(value, list) else value


def _word(text: str) -> str:
    """An identifier made of a name's letters (the generator's own names only read like it)."""
    return re.sub(r"\W", "_", text).strip("_") or "f"
