"""`silvics schema`: a JSON Schema for editors, of a game's card files or of a kind of file."""

from __future__ import annotations

import json
from pathlib import Path

from silvics import games
from silvics.errors import OK, UsageError

from .common import write

NAME = "schema"
HELP = "write a JSON Schema for editors: a game's card files, or a kind of file"
KINDS = ("game", "module", "pack", "cards", "scenario", "board")


def arguments(parser):
    parser.add_argument("game", nargs="?", help="the game (or pack) whose card files the schema describes")
    parser.add_argument(
        "--of",
        choices=KINDS,
        metavar="KIND",
        help=f"instead, silvics' own schema of one kind of file: {', '.join(KINDS)}",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="default: standard output")


def run(args) -> int:
    """A JSON Schema: the named game's card files, or silvics' own for one kind of file."""
    from silvics.compiler.gameschema import card_schema
    from silvics.compiler.validate import schemas

    if (args.game is None) == (args.of is None):
        neither = args.game is None
        raise UsageError(
            "name a game (its card files' schema) or --of KIND (silvics' own)"
            + ("" if neither else ", not both")
        )
    found = (
        card_schema(games.load(args.game, use_cache=not args.no_cache)) if args.game else schemas()[args.of]
    )
    text = json.dumps(found, indent=2, ensure_ascii=False)
    if args.output:
        write(Path(args.output), text + "\n")
        print(f"wrote {args.output}")
    else:
        print(text)
    return OK
