"""`silvics print`: card faces laid on pages with cut marks, to print and play (PDF or SVG)."""

from __future__ import annotations

from pathlib import Path

from silvics import games
from silvics.errors import OK, UsageError

from .common import GAME_HELP, write

NAME = "print"
HELP = "lay card faces on pages with cut marks, to print and play (PDF or SVG)"


def arguments(parser):
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument(
        "--pack", metavar="PACK", help="print the cards of this pack (a folder or pack.yaml) of the game"
    )
    parser.add_argument("--module", action="append", default=[], help="add a module's cards; repeatable")
    parser.add_argument(
        "--card",
        nargs="+",
        action="extend",
        default=[],
        metavar="ID",
        help="print only these cards (of the game, its modules or the pack)",
    )
    parser.add_argument(
        "--paper", choices=("a4", "letter"), default="a4", help="default: a4"
    )  # printing.PAPERS
    parser.add_argument(
        "--duplex",
        action="store_true",
        help="follow each page of fronts with the page of their backs, to print on both sides "
        "(flip on the long edge): a double-sided card's other side, else its kind's back",
    )
    parser.add_argument(
        "--bleed",
        type=float,
        default=0.0,
        metavar="MM",
        help="lay each card with MM of its edge's colour past the cut, as print shops ask "
        "(3 is usual; 0 to 10; default 0: cards edge to edge, one cut serving two)",
    )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="sheet.pdf (needs silvics[print]), or sheet.svg: one file a page, sheet-2.svg …",
    )


def run(args) -> int:
    """Card faces on pages to print, cut and play with (see printing.py)."""
    from silvics import printing

    output = Path(args.output)
    if output.suffix.lower() not in (".pdf", ".svg"):
        raise UsageError(f"-o takes a .pdf or .svg file, not '{args.output}'")
    if output.suffix.lower() == ".pdf":
        printing.need_pdf()
    if not 0 <= args.bleed <= 10:
        raise UsageError(f"--bleed takes 0 to 10 mm, not {args.bleed:g}")
    ir = games.load(args.game, use_cache=not args.no_cache)
    if args.pack:
        ir = _pack_on(ir, args.pack, not args.no_cache)
    ir.checked_modules(args.module)  # SetupError (misuse) for a module it lacks
    svg_pages = printing.pages(ir, _cards_to_print(ir, args), args.paper, args.duplex, args.bleed)
    if output.suffix.lower() == ".pdf":
        printing.write_pdf(svg_pages, args.paper, output)
        print(f"wrote {output} ({len(svg_pages)} pages, {args.paper})")
        return OK
    files = printing.page_files(output, len(svg_pages))
    for file, page in zip(files, svg_pages):
        write(file, page)
    print(f"wrote {len(files)} page(s), {args.paper}: {', '.join(map(str, files))}")
    return OK


def _pack_on(game, spec: str, use_cache: bool):
    """The game with the pack's cards and modules, when the pack extends that game."""
    try:
        path = games.game_path(spec)
    except games.GameNotFound:
        path = None
    if path is None or path.name != "pack.yaml":
        raise UsageError(f"no pack '{spec}': give a pack folder or its pack.yaml")
    pack = games.load(spec, use_cache=use_cache)
    if pack.id != game.id:
        raise UsageError(f"the pack '{spec}' extends {pack.id}, not {game.id}")
    return pack


def _cards_to_print(ir, args) -> list:
    """The cards --card names; else the pack's (with --pack) or the game's, and each --module's."""
    modules = {name: ir.modules[name].cards for name in args.module}
    every = {card.id: card for cards in [ir.cards, *(m.cards for m in ir.modules.values())] for card in cards}
    if args.card:
        unknown = [name for name in args.card if name not in every]
        if unknown:
            from silvics.compiler.diagnostics import did_you_mean

            hint = did_you_mean(unknown[0], every)
            raise UsageError(f"{ir.name} has no card '{unknown[0]}'" + (f"; {hint}" if hint else ""))
        return [every[name] for name in dict.fromkeys(args.card)]
    chosen = [*ir.cards, *(card for cards in modules.values() for card in cards)]
    if args.pack:
        chosen = [card for card in chosen if card.origin]
    return list({card.id: card for card in chosen}.values())  # a card file two modules share: once
