"""`silvics export`: a game's cards as a table (CSV) or a Tabletop Simulator deck."""

from __future__ import annotations

from pathlib import Path

from silvics import games
from silvics.errors import OK, UsageError

from .common import GAME_HELP, write

NAME = "export"
HELP = "write a game's cards as a table (CSV) or a Tabletop Simulator deck"


def arguments(parser):
    parser.add_argument("game", help=GAME_HELP)
    form = parser.add_mutually_exclusive_group(required=True)
    form.add_argument("--csv", action="store_true", help="a table, one row a card")
    form.add_argument(
        "--tts",
        action="store_true",
        help="a Tabletop Simulator deck: deck.json and sheets of faces (PNG) in the folder -o names",
    )
    parser.add_argument("--kind", help="only the cards of this kind")
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="the file (--csv; default: standard output) or folder (--tts)"
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="with --tts: the web address of the folder you will upload the images to, so the deck "
        "names them there and others can load it (default: the files on this computer)",
    )


def run(args) -> int:
    ir = games.load(args.game, use_cache=not args.no_cache)
    cards = list(ir.cards)
    if args.kind:
        kinds = [k.name for k in ir.kinds]
        if args.kind not in kinds:
            raise UsageError(f"{ir.name} has no kind '{args.kind}': its kinds are {', '.join(kinds)}")
        cards = [card for card in cards if card.kind == args.kind]
    if args.tts:
        from silvics.tabletop import write_deck

        if not args.output:
            raise UsageError("export --tts writes a folder: name it with -o DIR")
        if Path(args.output).exists() and not Path(args.output).is_dir():
            raise UsageError(f"{args.output} is a file: export --tts writes a folder, name one with -o DIR")
        written = write_deck(ir, cards, Path(args.output), args.base_url)
        print(
            f"wrote {len(written) - 2} sheet(s), the back and {written[-1]} "
            "(load it from Tabletop Simulator's Saved Objects folder)"
            + (f"; upload the PNG images to {args.base_url}" if args.base_url else "")
        )
        return OK
    if args.base_url:
        raise UsageError("--base-url goes with --tts: a deck's images")
    from silvics.spreadsheet import export_csv

    text = export_csv(ir, cards)
    if args.output:
        write(Path(args.output), text)
        print(f"wrote {args.output}")
    else:
        print(text, end="")
    return OK
