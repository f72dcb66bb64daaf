"""The `silvics` command: check, compile, play, simulate, balance, replay, scenario, score, why,
show, export, import, schema, new, print and docs.

Each command is a module of silvics.commands; this one parses the command line and turns what
goes wrong into a message and an exit status.

Exit status: 0 success, 1 the data has errors (or a scenario failed), 2 misuse.
Errors in the designer's data are printed as file:line:col diagnostics, never tracebacks.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import metadata

from silvics import commands, games
from silvics.compiler.diagnostics import CompileError
from silvics.errors import DATA_ERROR, MISUSE, OK, UsageError
from silvics.interpreter.game import GameError, SetupError
from silvics.interpreter.ir import IR_VERSION
from silvics.interpreter.simulate import WorkersLost
from silvics.position import PositionError


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return MISUSE
    try:
        for spec in args.base:
            games.offer_base(spec)
        games.announce = _loaded_once()
        return args.command(args)
    except CompileError as error:
        print(error.render(), file=sys.stderr)
        print(f"{len(error.diagnostics)} error(s)", file=sys.stderr)
        return DATA_ERROR
    except (
        games.GameNotFound,
        UsageError,
        SetupError,
    ) as error:  # SetupError: modules or options not allowed
        print(f"silvics: error: {error}", file=sys.stderr)
        return MISUSE
    except (PositionError, GameError) as error:  # a rule that fails while a game runs names its source
        print(f"error: {error}", file=sys.stderr)
        return DATA_ERROR
    except WorkersLost as error:
        print(f"silvics: error: {error}", file=sys.stderr)
        return DATA_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading
        sys.stdout = open(os.devnull, "w")
        return OK


def _loaded_once():
    """Say on standard error, once per game file, which game a command loaded (the project's
    copy, a folder named, or the copy installed with silvics)."""
    said = set()

    def announce(path):
        if path not in said:
            said.add(path)
            print(f"silvics: game {games.where_from(path)}", file=sys.stderr)

    return announce


def _version() -> str:
    try:
        return metadata.version("silvics")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="silvics", description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument(
        "--base",
        action="append",
        default=[],
        metavar="GAME",
        help="a game folder packs may extend by its id, besides the bundled games (repeatable)",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"silvics {_version()} (IR version {IR_VERSION})",
        help="print silvics' version and the IR version it reads and writes",
    )
    commands.add_all(
        parser.add_subparsers(metavar="COMMAND", help="what to do (silvics COMMAND --help says more)")
    )
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
