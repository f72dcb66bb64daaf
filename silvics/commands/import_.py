"""`silvics import`: a card table (CSV) turned into a card file, checked at row and column."""

from __future__ import annotations

from pathlib import Path

from silvics import games
from silvics.errors import OK, UsageError

from .common import write

NAME = "import"
HELP = "turn a card table (CSV) into a card file, checked at row and column"


def arguments(parser):
    parser.add_argument(
        "file", metavar="FILE.csv", help="a card table, one row a card, as export --csv writes it"
    )
    parser.add_argument(
        "--game", help="check the cards against this game or pack (its kinds, attributes and rules)"
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="the card file to write (default: standard output)"
    )


def run(args) -> int:
    """A card table as a card file; with --game, compiled with that game first, every mistake
    reported at its row and column of the table, and nothing written."""
    from silvics.compiler.build import compile_game, compile_pack
    from silvics.spreadsheet import checked, import_csv, read_table

    path = Path(args.file)
    cards, origin = import_csv(read_table(path), str(path))
    if args.game:
        game = games.game_path(args.game)
        if game.name not in ("game.yaml", "pack.yaml"):
            raise UsageError(
                "--game takes a game or a pack (a bundled id, a folder, its game.yaml or pack.yaml)"
            )
        games.load(str(game), use_cache=not args.no_cache)  # the game's own errors are said as its own

        def compiled(table):  # the table's cards in place of the game's (and a pack's own)
            if game.name == "pack.yaml":
                return compile_pack(game, games.base_game, cards_instead=[table])
            return compile_game(game, cards_instead=[table])

        checked(compiled, cards, origin, str(path))
    if args.output:
        if Path(args.output).exists():
            raise UsageError(f"{args.output} exists already: import never overwrites a file")
        write(Path(args.output), cards)
        print(f"wrote {args.output}" + (f", checked against {games.where_from(game)}" if args.game else ""))
    else:
        print(cards, end="")
    return OK
