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

A shape is, per step, (whether it may stop, whether it notes a place), and whether the block is
a loop's body. Nothing of the rules enters the code: the steps, their places and the loop's
`begin` are the arguments of a maker generated once per shape, which returns the runner. The
code is built from templates of our own, as codegen.py builds expressions, and compiled once.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache

Shape = tuple[tuple[bool, bool], ...]  # per step: (may stop, notes a place)

_HEAD = """
state = game.state
stack = state.stack
i = frame.i
"""

# a loop: a pass begins when the frame has not begun or its last pass is over (begin says
# whether there is one); each pass after the first is a step of its own (Game.tick), so a loop
# that never ends meets the step budget
_LOOP = """
while True:
    if i == 0 or i == LAST:
        if not begin(game, frame):
            return
        i = 0
    STEPS
    game.tick()
    i = LAST
"""


def runner(shape: Shape, looping: bool, begin: Callable | None, parts: list) -> Callable:
    """The run(game, frame) of a block of this shape; `parts` gives each step, followed by its
    place if it notes one."""
    return _maker(shape, looping)(begin, *parts)


@cache
def _maker(shape: Shape, looping: bool) -> Callable:
    names = ["begin"]
    steps: list[ast.stmt] = []
    for k, (stops, noted) in enumerate(shape):
        names += [f"step_{k}", *([f"span_{k}"] if noted else [])]
        steps.append(_step(k, stops, noted))
    if looping:
        [loop] = body = _code(_LOOP, LAST=ast.Constant(len(shape)))
        assert isinstance(loop, ast.While)
        loop.body[1:2] = steps  # in place of STEPS
    else:
        body = [*steps, *_code("stack.pop()")]
    run = _function("run", ["game", "frame"], [*_code(_HEAD), *body])
    make = _function("block_runner", names, [run, ast.Return(ast.Name("run", ast.Load()))])
    namespace: dict = {}
    module = ast.fix_missing_locations(ast.Module([make], []))
    exec(compile(module, "<block runner>", "exec"), namespace)  # noqa: S102 - our own templates, no data
    return namespace["block_runner"]


def _step(k: int, stops: bool, noted: bool) -> ast.stmt:
    """Step k, run if the frame is not past it."""
    lines = ["if i <= K:"]
    if noted:
        lines.append("    game.recent.append(SPAN)")
    if stops:
        lines.append("    frame.i = K + 1")
    lines.append("    STEP(game, frame)")
    if stops:  # a frame it pushed, or a question it asked, goes first
        lines += ["    if stack[-1] is not frame or state.pending is not None:", "        return"]
    [made] = _code("\n".join(lines), K=ast.Constant(k), STEP=_name(f"step_{k}"), SPAN=_name(f"span_{k}"))
    return made


def _code(template: str, **parts: ast.expr) -> list[ast.stmt]:
    """A template's statements, each name among `parts` replaced by its code."""

    class Filled(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return parts.get(node.id, node)

    return Filled().visit(ast.parse(template)).body


def _name(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _function(name: str, arguments: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    signature = ast.arguments(
        posonlyargs=[], args=[ast.arg(a) for a in arguments], kwonlyargs=[], kw_defaults=[], defaults=[]
    )
    return ast.FunctionDef(name, signature, body, [])
