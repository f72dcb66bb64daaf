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
    ids = _ids_of(args.card, owners)
    if not ids:
        from silvics.compiler.diagnostics import did_you_mean

        hint = did_you_mean(args.card, owners)
        raise UsageError(f"{ir.name} has no card '{args.card}'" + (f"; {hint}" if hint else ""))
    if len(ids) > 1:  # (a species printed on several cards, a pack's card named as one of the game's)
        name = next(side.name for side in owners[ids[0]][0].sides if _named(side.name, args.card))
        if args.svg:
            raise UsageError(
                f"{len(ids)} cards carry the name {name}: --svg draws one, named by its id ({', '.join(ids)})"
            )
        print(f"{len(ids)} cards carry the name {name}:\n")
    print(
        "\n\n".join(
            describe_card(ir, card, written=args.as_written)
            + (f"\n(in the game only with the module {module})" if module else "")
            for card, module in (owners[uid] for uid in ids)
        )
    )
    if args.svg:
        _write_faces(ir, owners[ids[0]][0], Path(args.svg))
    return OK


def _ids_of(asked: str, owners: dict) -> list[str]:
    """The card asked for by its id, or every card with a side of that name, in the order the
    game lists them."""
    if asked in owners:
        return [asked]
    return [uid for uid, (card, _) in owners.items() if any(_named(side.name, asked) for side in card.sides)]


def _named(name: str | None, asked: str) -> bool:
    """Whether a side's name is the one asked for (a hyphen for a dash, any case)."""
    from silvics.why import plain_name

    return name is not None and name != "" and plain_name(name) == plain_name(asked)


def _write_faces(ir, card, path: Path) -> None:
    from silvics.compiler.faces import card_faces_svg

    try:
        path.write_text(card_faces_svg(ir, card), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None
    print(f"wrote {path}", file=sys.stderr)
