"""`silvics why`: why something is not offered at the question a scenario's run stops at."""

from __future__ import annotations

import sys

from silvics import games
from silvics.errors import DATA_ERROR, OK, UsageError
from silvics.interpreter.game import GameError
from silvics.position import PositionError

from .common import GAME_HELP, position_file

NAME = "why"
HELP = "why something is not offered at the question a scenario stops at"


def arguments(parser):
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("file", metavar="FILE", help="a scenario file whose run stops at a question")
    parser.add_argument("name", metavar="NAME", help="a card, a step of the rules or an option, as written")


def run(args) -> int:
    """Why NAME is not offered at the question the scenario file's run stops at."""
    from silvics import scenarios
    from silvics.compiler.english import Wording
    from silvics.human import Naming, question
    from silvics.story import Asker
    from silvics.why import why

    path, game_path = position_file(args.file), games.game_path(args.game)
    document = scenarios.read(path)
    rules, line = games.load(str(game_path), use_cache=not args.no_cache), document.data.get("game", "")
    if not games.names(line, path.parent, game_path, rules.id):
        raise UsageError(f"{path} is a scenario of '{line}' (its game: line), not of {rules.name}")
    try:
        game = scenarios.paused(document, path.parent, not args.no_cache, {"game": str(game_path.absolute())})
    except (PositionError, GameError) as error:
        print(f"error: {path}: {error}", file=sys.stderr)
        return DATA_ERROR
    pending, wording = game.pending, Wording(game.rules.ir.vocabulary)
    assert pending is not None  # scenarios.paused stops only at a question
    asker, naming = Asker(game.rules.ir, wording), Naming(game.rules.ir, pending.seat)
    asked = question(asker, pending.prompt, pending.labels, pending.still, naming)
    print(f"P{pending.seat + 1} is asked: {asked}")
    for said in why(game, pending.seat, args.name, wording):
        print(said)
    return OK
