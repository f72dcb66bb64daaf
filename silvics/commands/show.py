"""`silvics show`: a card as it is printed, its numbers and words, and its text."""

from __future__ import annotations

import sys
from pathlib import Path

from silvics import games
from silvics.errors import OK, UsageError

from .common import GAME_HELP

NAME = "show"
HELP = "print a card as it is printed: its numbers and words, and its text"


def arguments(parser):
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("card", help="a card's name or id (or a close spelling of either)")
    parser.add_argument(
        "--as-written", action="store_true", help="also print each line's effect-language source"
    )
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="also write the card's faces (a double-sided card's side by side) as an SVG file, "
        "drawn as on the site and the printed sheets",
    )


def run(args) -> int:
    from silvics.compiler.cardtext import describe_card

    ir = games.load(args.game, use_cache=not args.no_cache)
    owners = {card.id: (card, "") for card in ir.cards}  # a module's cards too, saying whose
    owners |= {card.id: (card, name) for name, module in ir.modules.items() for card in module.cards}
    if _id_of(args.card, owners) not in owners:
        from silvics.compiler.diagnostics import did_you_mean

        hint = did_you_mean(args.card, owners)
        raise UsageError(f"{ir.name} has no card '{args.card}'" + (f"; {hint}" if hint else ""))
    card, module = owners[_id_of(args.card, owners)]
    print(
        describe_card(ir, card, written=args.as_written)
        + (f"\n(in the game only with the module {module})" if module else "")
    )
    if args.svg:
        _write_faces(ir, card, Path(args.svg))
    return OK


def _id_of(asked: str, owners: dict) -> str:
    """The id of the card asked for by its id or a side's name (a hyphen for a dash, any case)."""
    from silvics.why import plain_name

    by_name = {
        plain_name(side.name): card.id for card, _ in owners.values() for side in card.sides if side.name
    }
    return asked if asked in owners else by_name.get(plain_name(asked), asked)


def _write_faces(ir, card, path: Path) -> None:
    from silvics.compiler.faces import card_faces_svg

    try:
        path.write_text(card_faces_svg(ir, card), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None
    print(f"wrote {path}", file=sys.stderr)
