"""`silvics compile`: a game's IR as JSON, or the Python generated from it."""

from __future__ import annotations

from pathlib import Path

from silvics import games
from silvics.errors import OK, UsageError
from silvics.interpreter import ir as ir_module
from silvics.interpreter.game import SetupError

from .common import GAME_HELP, write

NAME = "compile"
HELP = "write a game's IR as JSON, or the Python generated from it"


def arguments(parser):
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    parser.add_argument(
        "--python",
        action="store_true",
        help="write the Python the interpreter generates for the rules' expressions and actions "
        "(to read: it is run as it is built, never from this file)",
    )
    parser.add_argument(
        "--module", action="append", default=[], help="with --python: switch a module on; repeatable"
    )


def run(args) -> int:
    ir = games.load(args.game, use_cache=not args.no_cache)
    if args.module and not args.python:
        raise UsageError("--module goes with --python: the IR holds every module")
    text = _generated(ir, args.module) if args.python else ir_module.dumps(ir)
    if args.output:
        write(Path(args.output), text)
        what = "Python generated from the rules" if args.python else f"IR version {ir_module.IR_VERSION}"
        print(f"wrote {args.output} ({what}, {len(text)} bytes)")
    else:
        print(text)
    return OK


def _generated(ir, modules) -> str:
    """The Python generated for a game's expressions with these modules on, headed by what it is."""
    from silvics.interpreter.game import compiled_rules

    try:
        rules = compiled_rules(ir, modules)
    except SetupError as error:
        raise UsageError(str(error)) from None
    on = f", modules {', '.join(rules.modules)}" if rules.modules else ""
    return (
        f"# The Python silvics generates for the expressions and actions of {ir.name}{on}: each a\n"
        "# function of (game, env) or (game, frame), built as ast nodes. Written for reading: the\n"
        "# interpreter imports its own copy from its cache. Names ending in a number are the\n"
        "# generator's own; HANDED lists the function handed out for each request of the rules.\n\n"
        + rules.code.source()
    )
