"""A block's runner, generated for the block's shape: the first step of generated flow.

A block's frame, and a loop's, runs its steps from `frame.i` on (flow._runner). One runner
written for every block would look up each step and its place in lists, bring `frame.i` up to
date after every step, and ask after each whether it pushed a frame or asked a question. The
runner generated for a block's shape writes each step out instead, with only what that step
needs:
- it notes the step's place (Game.recent) only if the step has one to note (Rules.step);
- it brings `frame.i` up to date, and looks at the stack after the step, only if the step may
  stop: push a frame, ask, end the game, or be cut in on by an interrupt (not Rules.straight).
  A frame is only resumed or copied once it has stopped, so `frame.i` need be right only then.
- a block's last step that may stop but binds nothing in the block's frame runs after the frame
  is popped: nothing is left to resume after it, and a frame it pushes would take a copy of the
  bindings all the same (the frame it was run with is handed on, off the stack). Coming back to
  the block only to pop it is an entry of `Game.advance` and of the runner saved.

A shape is, per step, (whether it may stop, whether it notes a place, whether it is a block's last
step handing the frame over), and whether the block is a loop's body, and of which loop: one whose
`begin` begins each pass, or one over values, whose runner begins each pass itself (_next_value:
no call a pass). Nothing of the rules enters the code: the steps, their places and the loop's
`begin` (or the name it binds each value as) are the arguments of a maker generated once per
shape as `ast` nodes, which returns the runner. The rules' module
(codegen.Module.runner) keeps the makers its rules use with the rest of their generated code, so
that a module from the cache hands them out compiled.
"""

from __future__ import annotations

import ast
import copy
import textwrap
from collections.abc import Callable
from functools import cache
from typing import Any, Literal

Shape = tuple[tuple[bool, bool, bool], ...]  # per step: (may stop, notes a place, hands the frame over)
# a block's (None), a loop's that its `begin` begins each pass of ("loop"), or a loop's over
# values, which the runner begins itself, binding each as `name` in a copy of the bindings around
# the loop ("values"), or, when its steps bind no name of their own, in the same bindings pass
# after pass, copied once ("kept": no name of a pass can outlive it, so no copy is needed)
Looping = Literal["loop", "values", "kept"] | None

# The code, for a loop whose step 0 notes a place and may stop and whose step 1 does neither
# (a block has no `while`: its steps, then `stack.pop()`):
#
#     def block_runner(begin, step_0, span_0, step_1):
#         def run(game, frame):
#             state = game.state
#             stack = state.stack
#             i = frame.i
#             while True:
#                 if i == 0 or i == 2:    # not begun, or a pass is over: begin says if there is another
#                     if not begin(game, frame):
#                         return
#                     i = 0
#                 if i <= 0:
#                     game.recent.append(span_0)
#                     frame.i = 1
#                     step_0(game, frame)
#                     if stack[-1] is not frame or state.pending is not None:
#                         return
#                 if i <= 1:
#                     step_1(game, frame)
#                 state.steps += 1        # each pass after the first is a step (the budget)
#                 if state.steps > game.step_budget:
#                     game.out_of_steps()
#                 i = 2
#         return run
#
# It is built as `ast` nodes directly, each placed as it is made: parsing templates and walking
# them to fill and place them cost 2 ms a runner, twice what the rest of a bundled game's
# rules took to build.


def label(shape: Shape, looping: Looping) -> str:
    """The shape in a word, for the cache's list of what a module handed out (codegen.Module):
    `block`, `loop`, `values` or `kept`, then a letter a step (a: neither stops nor notes, b: stops, c:
    notes, d: both; f and h: b and d handing the frame over)."""
    letters = ("abcdefgh"[4 * hands + 2 * noted + stops] for stops, noted, hands in shape)
    return f"{looping or 'block'} " + "".join(letters)


@cache
def maker(shape: Shape, looping: Looping) -> Callable:
    """`block_runner(begin, step_0, …)` (a loop over values: `block_runner(name, step_0, …)`),
    which returns the run(game, frame) of a block of this shape: compiled once a process for
    each shape (codegen.Module keeps it with the rules' code, which the cache keeps)."""
    namespace: dict = {}
    made = ast.Module([tree("block_runner", shape, looping)], [])
    exec(compile(made, "<block runner>", "exec"), namespace)  # noqa: S102 - no data in it
    return namespace["block_runner"]


def tree(name: str, shape: Shape, looping: Looping) -> ast.FunctionDef:
    """The maker of a runner of this shape, as `ast` (see the comment above)."""
    names = ["name" if looping in ("values", "kept") else "begin"]
    steps: list[ast.stmt] = []
    for k, (stops, noted, hands) in enumerate(shape):
        names += [f"step_{k}", *([f"span_{k}"] if noted else [])]
        steps.append(_step(k, stops, noted, hands))
    last = _n(ast.Constant, len(shape))
    if looping:
        if looping in ("values", "kept"):
            begun = copy.deepcopy(_next_value(looping == "kept"))
        else:
            begun = [
                _n(
                    ast.If,
                    _n(ast.UnaryOp, _n(ast.Not), _call(_name("begin"), _name("game"), _name("frame"))),
                    [_n(ast.Return, None)],
                    [],
                )
            ]
        start = _n(
            ast.If,
            _n(
                ast.BoolOp,
                _n(ast.Or),
                [_is(_name("i"), ast.Eq, _n(ast.Constant, 0)), _is(_name("i"), ast.Eq, last)],
            ),
            [*begun, _set("i", _n(ast.Constant, 0))],
            [],
        )
        steps_taken = _attribute(_name("state"), "steps", _n(ast.Store))
        tick = [  # each pass after the first is a step (Game.out_of_steps)
            _n(ast.AugAssign, steps_taken, _n(ast.Add), _n(ast.Constant, 1)),
            _n(
                ast.If,
                _is(_attribute(_name("state"), "steps"), ast.Gt, _attribute(_name("game"), "step_budget")),
                [_n(ast.Expr, _call(_attribute(_name("game"), "out_of_steps")))],
                [],
            ),
        ]
        body = [_n(ast.While, _n(ast.Constant, True), [start, *steps, *tick, _set("i", last)], [])]
    else:
        body = [*steps, _n(ast.Expr, _call(_attribute(_name("stack"), "pop")))]
    head = [
        _set("state", _attribute(_name("game"), "state")),
        _set("stack", _attribute(_name("state"), "stack")),
        _set("i", _attribute(_name("frame"), "i")),
    ]
    run = _function("run", ["game", "frame"], [*head, *body])
    return _function(name, names, [run, _n(ast.Return, _name("run"))])


@cache
def _next_value(kept: bool) -> list[ast.stmt]:
    """How a loop over values (frame.data, a flow._Passes) begins a pass: it binds the next value
    as `name` (when it has one) in a copy of the bindings around the loop, or, `kept`, in the
    bindings of its first pass; when none is left, it ends the loop and carries out the actions
    it held back (a simultaneous turn's). Parsed once a process (it holds nothing of the rules),
    and copied into each runner."""
    binding = (
        """
            if passes.begun == 1:
                frame.env = dict(passes.around)
            if name is not None:
                frame.env[name] = value
        """
        if kept
        else """
            frame.env = {**passes.around, name: value} if name is not None else dict(passes.around)
        """
    )
    return ast.parse(
        textwrap.dedent(
            """
            passes = frame.data
            if passes.begun == len(passes.values):
                stack.pop()
                for step, held in passes.queue or ():
                    step(game, held)
                return
            value = passes.values[passes.begun]
            passes.begun += 1
            """
        )
        + textwrap.dedent(binding)
    ).body


def _step(k: int, stops: bool, noted: bool, hands: bool) -> ast.stmt:
    """Step k, run if the frame is not past it."""
    body: list[ast.stmt] = []
    if noted:
        body.append(
            _n(ast.Expr, _call(_attribute(_attribute(_name("game"), "recent"), "append"), _name(f"span_{k}")))
        )
    if hands:  # a block's last step, which binds nothing in it: the frame goes before the step runs
        body.append(_n(ast.Expr, _call(_attribute(_name("stack"), "pop"))))
        body.append(_n(ast.Expr, _call(_name(f"step_{k}"), _name("game"), _name("frame"))))
        body.append(_n(ast.Return, None))
        return _n(ast.If, _is(_name("i"), ast.LtE, _n(ast.Constant, k)), body, [])
    if stops:
        body.append(_n(ast.Assign, [_attribute(_name("frame"), "i", ast.Store())], _n(ast.Constant, k + 1)))
    body.append(_n(ast.Expr, _call(_name(f"step_{k}"), _name("game"), _name("frame"))))
    if stops:  # a frame it pushed, or a question it asked, goes first
        top = _n(ast.Subscript, _name("stack"), _n(ast.Constant, -1), _n(ast.Load))
        pending = _attribute(_name("state"), "pending")
        stopped = _n(
            ast.BoolOp,
            _n(ast.Or),
            [_is(top, ast.IsNot, _name("frame")), _is(pending, ast.IsNot, _n(ast.Constant, None))],
        )
        body.append(_n(ast.If, stopped, [_n(ast.Return, None)], []))
    return _n(ast.If, _is(_name("i"), ast.LtE, _n(ast.Constant, k)), body, [])


def _n(kind: type[ast.AST], *fields) -> Any:
    """An `ast` node of this kind, placed (compile asks each statement and expression for a place)."""
    node = kind(*fields)
    if "lineno" in kind._attributes:
        for attribute, at in _PLACE.items():
            setattr(node, attribute, at)
    return node


_PLACE = {"lineno": 1, "col_offset": 0, "end_lineno": 1, "end_col_offset": 0}


def _name(name: str) -> ast.Name:
    return _n(ast.Name, name, _n(ast.Load))


def _set(name: str, value: ast.expr) -> ast.stmt:
    return _n(ast.Assign, [_n(ast.Name, name, _n(ast.Store))], value)


def _attribute(value: ast.expr, attribute: str, context: ast.expr_context | None = None) -> ast.Attribute:
    return _n(ast.Attribute, value, attribute, context or _n(ast.Load))


def _call(function: ast.expr, *arguments: ast.expr) -> ast.Call:
    return _n(ast.Call, function, list(arguments), [])


def _is(left: ast.expr, comparison: type, right: ast.expr) -> ast.Compare:
    return _n(ast.Compare, left, [_n(comparison)], [right])


def _function(name: str, arguments: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    signature = ast.arguments(
        posonlyargs=[], args=[_n(ast.arg, a) for a in arguments], kwonlyargs=[], kw_defaults=[], defaults=[]
    )
    return _n(ast.FunctionDef, name, signature, body, [])
