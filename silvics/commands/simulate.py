"""`silvics simulate`: many games, their scores and wins summarised (and per card, with --cards)."""

from __future__ import annotations

import time

from silvics import pace
from silvics.errors import OK
from silvics.interpreter.game import Game
from silvics.interpreter.simulate import simulate as run_simulation
from silvics.progress import ProgressBar

from .common import (
    GAME_HELP,
    agent_names,
    at_least_one,
    backend_option,
    chosen_options,
    game_setup,
    runner,
    setup_line,
    table_options,
    workers_option,
)

NAME = "simulate"
HELP = "play many games and summarise scores and wins"


def arguments(parser):
    parser.add_argument("game", help=GAME_HELP)
    table_options(parser, seed=1, agents="random")
    parser.add_argument("--games", type=int, required=True, help="how many games to play")
    parser.add_argument("--cards", action="store_true", help="also print points earned and awarded per card")
    workers_option(parser)
    backend_option(parser)


def run(args) -> int:
    ir, players = game_setup(args)
    names = args.agents.split(",")
    agent_names(args.agents, players, strategies=ir.strategies)  # checks the names
    at_least_one(("--games", args.games), ("--workers", args.workers))
    first = Game(ir, players, args.seed, args.module, options=chosen_options(args))
    pace.announce_games(first, names, args.games, args.workers)  # a long run is said before it starts
    started, bar = time.perf_counter(), ProgressBar(args.games)
    try:
        summary = run_simulation(
            ir,
            players,
            args.games,
            args.seed,
            names,
            args.module,
            workers=args.workers,
            progress=bar,
            options=chosen_options(args),
            runner=runner(args),
        )
    finally:
        bar.close()
    elapsed = time.perf_counter() - started
    print(
        f"{ir.name}: {args.games} games, {players} player{'s' * (players != 1)}, agents {args.agents}"
        + setup_line(args.module, chosen_options(args))
        + f" ({args.games / elapsed:.0f} games/s)"
    )
    print(f"  {'seat':<6}{'mean score':>12}{'win rate':>10}")
    for seat in range(players):
        mean, wins = summary.totals[seat] / args.games, summary.wins[seat] / args.games
        print(f"  P{seat + 1:<5}{mean:>12.2f}{wins:>10.1%}")
    lengths = summary.lengths
    print(
        f"  game length: {sum(lengths) / len(lengths):.1f} decisions on average "
        f"(min {min(lengths)}, max {max(lengths)}); ties share a win"
    )
    if args.cards:
        print(card_table(summary))
    return OK


def card_table(summary, limit: int | None = None) -> str:
    """Per-card figures, most points first: for designers weighing a card."""
    lines = []
    tables = (
        ("points earned by each card", summary.earned, True),
        ("points awarded by each card, to all players", summary.awarded, False),
    )
    for title, table, with_wins in tables:
        if not table:
            continue
        lines += [
            "",
            f"  {title} (over {summary.games} games):",
            f"  {'card':<28}{'games':>7}{'mean pts':>10}" + (f"{'holder won':>12}" if with_wins else ""),
        ]
        ranked = sorted(table.items(), key=lambda item: (-item[1].points / item[1].games, item[0]))
        for card, stats in ranked[:limit]:
            lines.append(
                f"  {card:<28}{stats.games:>7}{stats.points / stats.games:>10.2f}"
                + (f"{stats.wins / stats.games:>12.1%}" if with_wins else "")
            )
    return "\n".join(lines)
