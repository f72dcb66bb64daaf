"""`silvics show`: a card as it is printed, its numbers and words, and its text."""

from __future__ import annotations

from silvics import games
from silvics.errors import OK, UsageError

from .common import GAME_HELP

NAME = "show"
HELP = "print a card as it is printed: its numbers and words, and its text"


def arguments(parser):
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("card", help="a card's id (or a close spelling of it)")
    parser.add_argument(
        "--as-written", action="store_true", help="also print each line's effect-language source"
    )


def run(args) -> int:
    from silvics.compiler.cardtext import describe_card

    ir = games.load(args.game, use_cache=not args.no_cache)
    owners = {card.id: (card, "") for card in ir.cards}  # a module's cards too, saying whose
    owners |= {card.id: (card, name) for name, module in ir.modules.items() for card in module.cards}
    if args.card not in owners:
        from silvics.compiler.diagnostics import did_you_mean

        hint = did_you_mean(args.card, owners)
        raise UsageError(f"{ir.name} has no card '{args.card}'" + (f"; {hint}" if hint else ""))
    card, module = owners[args.card]
    print(
        describe_card(ir, card, written=args.as_written)
        + (f"\n(in the game only with the module {module})" if module else "")
    )
    return OK
