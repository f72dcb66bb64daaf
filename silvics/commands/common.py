"""What several commands share: their common options, and reading them (the setup of a game,
the agents, the options chosen), and writing the files they name."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from silvics import games, saves
from silvics.errors import UsageError
from silvics.interpreter.agents import AGENTS, BUDGETS, agent_known

GAME_HELP = (
    "a game id (the project's own rules/<id>/ first, else the installed game), a game or pack folder, "
    "or an IR file"
)


def workers_option(sub):
    sub.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes to share the games among (default: one per core, here %(default)s)",
    )


def backend_option(sub):
    sub.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local (default): processes on this machine; ray: tasks on a Ray cluster, the same "
        "figures for the same seed (pip install 'silvics[ray]')",
    )
    sub.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: the cluster's head (host:6379); none: a new Ray instance of this "
        "machine alone",
    )


def human_option(parser, where: str):
    """--human SEAT, repeatable: a person plays that seat (`where` says how: at the terminal)."""
    parser.add_argument(
        "--human",
        type=int,
        action="append",
        default=[],
        metavar="SEAT",
        help=f"a person plays this seat (from 1) {where}",
    )


def table_options(parser, seed: int | None, agents: str | None):
    """The table a game is played at (play, simulate): --players, --seed, --agents, --module, --set."""
    parser.add_argument("--players", type=int, default=None, help="default: the game's maximum")
    parser.add_argument("--seed", type=int, default=seed, help="default: 1")
    parser.add_argument(
        "--agents",
        default=agents,
        help=f"one agent, or one per seat, comma-separated: {', '.join(AGENTS)}, "
        "or a strategy of the game; a search agent may take a budget, ismcts:16 (default: random)",
    )
    parser.add_argument(
        "--module", action="append", default=[], help="switch a module (variant) on; repeatable"
    )
    setting_option(parser)


def setting_option(sub, over: str = ""):
    sub.add_argument(
        "--set",
        action="append",
        default=[],
        type=_setting,
        metavar="NAME=VALUE",
        dest="settings",
        help=f"choose a setup option the game declares{over}; repeatable",
    )


def _setting(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"write NAME=VALUE, e.g. tier=gold, not {text!r}")
    return name.strip(), value.strip()


def log_option(sub):
    sub.add_argument(
        "--log",
        choices=("story", "full"),
        default="story",
        help="story (default): the game told for people, in its own words; full: the engine's "
        "complete log, every action, choice and interrupt, for debugging",
    )


def at_least_one(*given: tuple[str, int]):
    """Misuse unless each (option, value) given is 1 or more (--games, --workers …)."""
    for option, value in given:
        if value < 1:
            raise UsageError(f"{option} must be at least 1")


def chosen_options(args) -> dict:
    """The options chosen with --set NAME=VALUE, each once."""
    chosen = {}
    for name, value in args.settings:
        if name in chosen:
            raise UsageError(f"--set {name} is given twice")
        chosen[name] = value
    return chosen


def game_setup(args):
    ir = games.load(args.game, use_cache=not args.no_cache)
    ir.settings(ir.checked_modules(args.module), chosen_options(args))  # SetupError (misuse) before any game
    players = ir.player_range(args.module)[1] if args.players is None else args.players  # 0 is out of range
    return ir, ir.checked_players(players, args.module)


def agent_names(agents: str, players: int, humans=(), strategies=()) -> list[str]:
    """Each seat's agent, from --agents and --human ("human" for a person's seat): an agent, or
    a strategy the game's data gives."""
    names, known = agents.split(","), [*AGENTS, *strategies]
    if len(names) not in (1, players) or not all(agent_known(n, strategies) for n in names):
        raise UsageError(
            f"--agents takes one of {', '.join(known)}, or {players} of them, one per seat, "
            f"separated by commas ({','.join((known * players)[:players])}); "
            f"{', '.join(BUDGETS)} take a budget: ismcts:16 searches 16 iterations a decision"
        )
    names = names * players if len(names) == 1 else names
    return [saves.PERSON if seat + 1 in humans else name for seat, name in enumerate(names)]


def setup_line(modules, options: dict) -> str:
    """The modules and options a game is played with, as the header of play and simulate says them."""
    return (f", modules {', '.join(modules)}" if modules else "") + "".join(
        f", {name}={value}" for name, value in options.items()
    )


def runner(args):
    """Where a batch's games are played: None for this machine's processes, or a Ray cluster."""
    if args.backend != "ray":
        if args.address:
            raise UsageError("--address goes with --backend ray")
        return None
    from silvics import cluster

    try:
        return cluster.runner(args.address)
    except cluster.ClusterError as error:
        raise UsageError(str(error)) from None


def write(path: Path, text: str):
    """Write an output file the command line names; a path that cannot be written is misuse."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None


def named(spec: str) -> Path:
    """The path an argument names; an empty one is misuse (Path('') would mean the current folder)."""
    if not spec:
        raise UsageError("an empty path names no file or folder")
    return Path(spec)


def position_file(spec: str) -> Path:
    path = named(spec)
    if not path.is_file():
        raise UsageError(
            f"{spec} is a folder, not a position file"
            if path.is_dir()
            else f"{spec} is not a regular file: give a YAML file, not a device, a pipe or a socket"
            if path.exists()
            else f"no such file: {spec}"
        )
    return path
