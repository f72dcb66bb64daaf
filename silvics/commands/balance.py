"""`silvics balance`: seeded games between agents, and a report of them (Markdown and PNG plots)."""

from __future__ import annotations

from pathlib import Path

from silvics import extras, games, pace
from silvics.errors import OK, UsageError
from silvics.interpreter.agents import AGENTS
from silvics.interpreter.game import Game
from silvics.progress import ProgressBar

from .common import (
    GAME_HELP,
    agent_names,
    at_least_one,
    backend_option,
    chosen_options,
    runner,
    setting_option,
    workers_option,
)

NAME = "balance"
HELP = (
    "play seeded games between agents and write a balance report "
    "(Markdown and PNG plots): seats, agent against agent, cards"
)


def arguments(parser):
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument(
        "--pack", metavar="PACK", help="report on this pack (a folder or pack.yaml) of the game"
    )
    parser.add_argument(
        "--players", type=int, default=None, help="default: 2 where the game allows it, else its least"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=200,
        help="games per study (default: 200; played games are cached in chunks of seeds: "
        "asking again, or for more, plays only the new ones)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default: 1)")
    parser.add_argument(
        "--agents",
        default="random",
        help="comma-separated: the first plays every seat in the seat study; with several, each "
        f"plays each ({', '.join(AGENTS)}, or a strategy of the game; default: random)",
    )
    parser.add_argument(
        "--module", action="append", default=[], help="switch a module (variant) on; repeatable"
    )
    setting_option(parser)
    parser.add_argument(
        "--by",
        metavar="STUDY",
        help="also compare setups: module (each module the game allows with this setup) or an "
        "option's name (each of its values, e.g. a solo challenge)",
    )
    parser.add_argument(
        "--against",
        metavar="OTHER",
        help="compare with another version of the game, on the same seeds: a folder, installed "
        "(the copy installed with silvics) or git:REV (its files at a revision of their repository)",
    )
    workers_option(parser)
    backend_option(parser)
    parser.add_argument(
        "-o", "--output", metavar="DIR", required=True, help="the folder to write the report in"
    )


def run(args) -> int:
    extras.require("balance", "matplotlib", what="balance")  # before any work, not after the games
    from silvics import report  # matplotlib: loaded only by this command
    from silvics.balance import cached_runner

    ir = games.load(args.pack or args.game, use_cache=not args.no_cache)
    if args.pack and ir.id != games.load(args.game, use_cache=not args.no_cache).id:
        raise UsageError(f"{args.pack} is not a pack of {args.game}")
    options = chosen_options(args)
    ir.settings(ir.checked_modules(args.module), options)
    low, high = ir.player_range(args.module)
    players = ir.checked_players(args.players or max(low, min(2, high)), args.module)
    agents = args.agents.split(",")
    for name in agents:  # any number of agents: each checked as --agents checks one
        agent_names(name, 1, strategies=ir.strategies)
    at_least_one(("--games", args.games), ("--workers", args.workers))
    if args.against:
        return _against(args, ir, players, agents, options)
    rows = report.study_rows(ir, players, args.module, options, args.by) if args.by else []
    batches = cached_runner(ir, args.workers, runner(args), use_cache=not args.no_cache)
    report.make_folder(Path(args.output))
    planned = report.planned(args.games, agents, players, len(rows))
    first = Game(ir, players, args.seed, args.module, options=options)
    alone = args.games * (1 + len(rows))  # the first agent's games: the seat study and --by's
    pace.announce_balance(first, agents, planned, alone, args.workers, cached=not args.no_cache)
    bar = ProgressBar(planned)
    try:
        made = report.balance(
            ir,
            players,
            args.games,
            args.seed,
            agents,
            args.module,
            options,
            workers=args.workers,
            progress=bar,
            runner=batches,
            by=args.by,
        )
    finally:
        bar.close()
    written = report.write(made, Path(args.output))
    print(f"wrote {len(written)} files in {args.output}: {', '.join(p.name for p in written)}")
    return OK


def _against(args, ir, players: int, agents: list[str], options: dict) -> int:
    """The diff report: this version and the one --against names, on the same seeds."""
    from silvics import diff, report
    from silvics.balance import cached_runner
    from silvics.interpreter.simulate import simulate

    names = tuple(agents) * players if len(agents) == 1 else tuple(agents)
    setups = report.study_rows(ir, players, args.module, options, args.by) if args.by else []
    setups = setups or [("as set up", tuple(args.module), options)]
    with diff.other_version(args.pack or args.game, args.against, use_cache=not args.no_cache) as other:
        for version in (ir, other):
            version.settings(version.checked_modules(args.module), options)
        report.make_folder(Path(args.output))
        bar = ProgressBar(2 * args.games * len(setups))
        done = [0]

        def play(version, modules, chosen):
            before = done[0]
            summary = simulate(
                version,
                players,
                args.games,
                args.seed,
                names,
                modules,
                args.workers,
                progress=lambda n: bar(before + n),
                options=chosen,
                keep=True,
                runner=cached_runner(version, args.workers, runner(args), use_cache=not args.no_cache),
            )
            done[0] += args.games
            return summary

        try:
            made = diff.report(
                other, ir, args.against, players, args.games, args.seed, names, play, setups, args.by or ""
            )
        finally:
            bar.close()
    written = report.write(made, Path(args.output))
    print(f"wrote {len(written)} files in {args.output}: {', '.join(p.name for p in written)}")
    return OK
