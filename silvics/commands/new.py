"""`silvics new game|pack|card`: a skeleton that checks and plays at once."""

from __future__ import annotations

from pathlib import Path

from silvics import games
from silvics.errors import OK, UsageError

from .common import write

NAME = "new"
HELP = "start from a skeleton that checks and plays at once: a game, a pack or a card"
PARTS = {
    "name": "the new folder's name (also the id)",
    "game": "the game it is for, named as for play",
    "kind": "the kind of card (as the game declares it)",
}


def arguments(parser):
    """Each thing to start is a command of its own (silvics new game NAME …), with its run."""
    made = parser.add_subparsers(metavar="WHAT", required=True, help="what to start: game, pack or card")
    for what, run, help, parts in (
        ("game", new_game, "a project folder (NAME) holding a small complete game", ("name",)),
        (
            "pack",
            new_pack,
            "a pack folder (NAME) for GAME: one new card, and a module to fill in",
            ("game", "name"),
        ),
        ("card", new_card, "a card of KIND, filled in from GAME's own cards", ("game", "kind")),
    ):
        item = made.add_parser(what, help=help, description=help)
        item.set_defaults(command=run, no_cache=False)
        for part in parts:
            item.add_argument(part, help=PARTS[part])
    item.add_argument("--id", default="new-card", help="the new card's id (default: new-card)")
    item.add_argument("-o", "--output", metavar="FILE", help="a new card file (default: standard output)")


def new_game(args) -> int:
    from silvics.new import new_game as make

    _made(make(Path(args.name), args.name), f"then: cd {args.name} && silvics play {args.name}")
    return OK


def new_pack(args) -> int:
    from silvics.new import new_pack as make

    ir = games.load(args.game, use_cache=not args.no_cache)
    if games.game_path(args.game).name == "pack.yaml":  # (a pack of it would extend the game alone)
        raise UsageError(
            f"{args.game} is a pack, and a pack extends a game: name the game, {ir.id}, "
            f"and copy what you need of the pack {ir.pack.name}"
        )
    _made(
        make(Path(args.name), ir, args.name),
        f"then: silvics check {args.name} && silvics play {args.name} --module {args.name}",
    )
    return OK


def new_card(args) -> int:
    from silvics.new import card_file, check_card_id

    ir = games.load(args.game, use_cache=not args.no_cache)
    check_card_id(args.id, ir)
    text = card_file(ir, args.kind, args.id)
    if args.output is None:
        print(text, end="")
    elif Path(args.output).exists():
        raise UsageError(f"{args.output} exists already: silvics new never overwrites a file")
    else:
        write(Path(args.output), text)
        print(
            f"wrote {args.output}; list it under cards: in the game or pack, "
            f"then: silvics check {args.output}"
        )
    return OK


def _made(paths: list[Path], then: str):
    for path in paths:
        print(f"wrote {path}")
    print(then)
