"""The `silvics` commands, one module each (as pip's commands are): its NAME, a one-line HELP
(the command's help and description), `arguments(parser)` adding its options, and `run(args)`
returning the exit status. A command that loads games gets --no-cache here, unless it says
LOADS_GAMES = False (check has its own). cli.py builds the parser from COMMANDS, in order."""

from __future__ import annotations

import importlib

# the modules, in the order `silvics --help` lists the commands (import_: `import` is Python's)
COMMANDS = (
    "check",
    "compile",
    "play",
    "serve",
    "simulate",
    "balance",
    "replay",
    "scenario",
    "score",
    "why",
    "show",
    "export",
    "import_",
    "schema",
    "new",
    "print",
    "docs",
)


def add_all(commands) -> None:
    """Each command's parser, added to `commands` (the top parser's subparsers)."""
    for name in COMMANDS:
        command = importlib.import_module(f"{__name__}.{name}")
        parser = commands.add_parser(command.NAME, help=command.HELP, description=command.HELP)
        if hasattr(command, "run"):  # `new` gives each of its own subcommands a run
            parser.set_defaults(command=command.run, no_cache=False)
        if hasattr(command, "run") and getattr(command, "LOADS_GAMES", True):
            parser.add_argument(
                "--no-cache",
                action="store_true",
                help="compile the game afresh (balance and docs: and play every game again), "
                "neither reading nor writing the cache",
            )
        command.arguments(parser)
