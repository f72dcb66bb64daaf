"""`silvics replay`: a saved game replayed to its last decision, and printed as play prints it."""

from __future__ import annotations

from pathlib import Path

from silvics import saves
from silvics.errors import OK

from .common import log_option
from .play import print_game

NAME = "replay"
HELP = "replay a saved game to its last decision and print it"


def arguments(parser):
    parser.add_argument("file", metavar="FILE", help="a saved game (play --save)")
    parser.add_argument(
        "--game", metavar="GAME", help="take the rules from GAME rather than from where the save says"
    )
    parser.add_argument("--quiet", action="store_true", help="print only the scores")
    log_option(parser)


def run(args) -> int:
    rules, save = saves.load(Path(args.file), args.game, not args.no_cache)
    print_game(rules, save, saves.replay(rules, save, args.file), args.quiet, args.log)
    return OK
