"""`silvics score`: end-of-game positions laid out and scored, itemised per card and heading."""

from __future__ import annotations

import sys
from pathlib import Path

from silvics import games
from silvics.errors import DATA_ERROR, OK, UsageError
from silvics.interpreter.game import GameError
from silvics.position import PositionError, card_name, lying, sharing_a_side, where

from .common import GAME_HELP, chosen_options, position_file, setting_option

NAME = "score"
HELP = "score a described end-of-game position, itemised"


def arguments(parser):
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="a position file (YAML) of the game: the cards where they lie at the end; several, each scored",
    )
    setting_option(parser, " (over the file's own options)")


def run(args) -> int:
    """Each position file laid out on the game named and scored, itemised; several, each under
    its name. A position that cannot be laid out or scored says why, and the next is scored."""
    files = [position_file(spec) for spec in args.files]  # misuse, before anything is scored
    game, status = games.game_path(args.game), OK
    for number, path in enumerate(files):
        if len(files) > 1:
            print(("\n" if number else "") + f"{path}:")
        which = f"{path}: " if len(files) > 1 else ""
        try:
            scored = _scored(path, game, args)
        except (PositionError, GameError) as error:
            print(f"error: {which}{error}", file=sys.stderr)
            status = DATA_ERROR
            continue
        for line in sharing_a_side(scored):
            print(f"note: {which}{line}", file=sys.stderr)
        print(itemised(scored))
    return status


def _scored(path: Path, game: Path, args):
    """The position in the file laid out on `game` (the file's `game:` line must name the same
    game), its scoring run."""
    from silvics import scenarios

    document = scenarios.read(path)
    rules, line = games.load(str(game), use_cache=not args.no_cache), document.data["game"]
    if not games.names(line, path.parent, game, rules.id):
        raise UsageError(
            f"{path} is a position of '{line}' (its game: line), not of {rules.name}: "
            "score it with that game, or change the line"
        )
    overrides = {  # the game as named here, not from the file's folder
        "game": str(game.absolute()),
        "options": {**document.data.get("options", {}), **chosen_options(args)},
    }
    built = scenarios.build(document, path.parent, use_cache=not args.no_cache, overrides=overrides)
    built.run_procedure("scoring")
    return built


def itemised(game) -> str:
    """The marks players see (those the rules declare `shown:`), then points per heading (when
    the rules name them), per card (with the cards that awarded them), per player, and in total;
    cards by name, copies told apart by where they lie."""
    state, lines = game.state, []
    shown = {
        mark.name: mark.shown for mark in game.rules.ir.marks if mark.shown
    }  # the rest are the rules' own
    marked = [
        f"{card_name(game, uid)}: {words} {marks[name]}"
        for uid in lying(game)
        if (marks := state.marks[uid])
        for name, words in shown.items()
        if name in marks
    ]
    if marked:
        lines.append("Marks: " + ", ".join(marked))
    sheets = [_score_rows(game, seat) for seat in range(state.players)]
    width = max([30, *(len(indent + named) + 1 for rows in sheets for indent, named, _, _ in rows)])
    for seat, rows in enumerate(sheets):
        lines.append(f"P{seat + 1}")
        lines += [
            f"{indent}{named:<{width - len(indent)}}{total:>5}   {reasons}".rstrip()
            for indent, named, total, reasons in rows
        ]
    lines.append(f"Total over all players: {sum(state.scores)}")
    return "\n".join(lines)


def _score_rows(game, seat: int) -> list[tuple]:
    """A player's lines of a score sheet: (indent, what, points, reasons each)."""
    headings: dict[str, dict[int, list]] = {}
    for owner, uid, points, source, heading in game.state.score_items:
        if owner == seat:  # points a card scores with no card named are that card's own
            row = uid if uid >= 0 else source
            headings.setdefault(heading, {}).setdefault(row, []).append((points, source))
    label = _labels(game, [uid for per_card in headings.values() for uid in per_card if uid >= 0])
    rows = []
    for heading, per_card in headings.items():
        indent = "  "
        if heading:
            total = sum(points for items in per_card.values() for points, _ in items)
            rows.append((indent, heading.replace("_", " "), total, ""))
            indent = "    "
        for uid, items in per_card.items():
            total = sum(points for points, _ in items)
            if heading and uid < 0 and (not total or len(per_card) == 1):
                continue  # the heading's own line already says it all
            reasons = ", ".join(
                f"{points:+d} {card_name(game, source)}" if source not in (-1, uid) else f"{points:+d}"
                for points, source in items
                if points
            )
            rows.append((indent, label[uid] if uid >= 0 else "(other)", total, reasons))
    return [*rows, ("  ", "total", game.state.scores[seat], "")]


def _labels(game, cards: list[int]) -> dict[int, str]:
    """Each card as a score sheet names it: by name (a half of a split card in play by the name of
    the side face up, which is what scores), and where it lies when another card has its name."""
    names = {uid: card_name(game, uid) for uid in cards}
    twice = {name for name in names.values() if list(names.values()).count(name) > 1}
    return {uid: f"{name} ({where(game, uid)})" if name in twice else name for uid, name in names.items()}
