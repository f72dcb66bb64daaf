"""The `silvics` command: check, compile, play, simulate, balance, replay, scenario, score, show,
export, import, schema, new, print, docs.

Exit status: 0 success, 1 the data has errors (or a scenario failed), 2 misuse.
Errors in the designer's data are printed as file:line:col diagnostics, never tracebacks.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import metadata

from silvics import commands as run
from silvics import games
from silvics.balance import GAMES as BALANCE_GAMES
from silvics.compiler.diagnostics import CompileError
from silvics.errors import DATA_ERROR, MISUSE, OK, UsageError
from silvics.interpreter.agents import AGENTS
from silvics.interpreter.game import GameError, SetupError
from silvics.interpreter.ir import IR_VERSION
from silvics.interpreter.simulate import WorkersLost
from silvics.position import PositionError

SCHEMA_KINDS = ("game", "module", "pack", "cards", "scenario", "board")


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return MISUSE
    try:
        for spec in args.base:
            games.offer_base(spec)
        games.announce = _loaded_once()
        return args.command(args)
    except CompileError as error:
        print(error.render(), file=sys.stderr)
        print(f"{len(error.diagnostics)} error(s)", file=sys.stderr)
        return DATA_ERROR
    except (
        games.GameNotFound,
        UsageError,
        SetupError,
    ) as error:  # SetupError: modules or options not allowed
        print(f"silvics: error: {error}", file=sys.stderr)
        return MISUSE
    except (PositionError, GameError) as error:  # a rule that fails while a game runs names its source
        print(f"error: {error}", file=sys.stderr)
        return DATA_ERROR
    except WorkersLost as error:
        print(f"silvics: error: {error}", file=sys.stderr)
        return DATA_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading
        sys.stdout = open(os.devnull, "w")
        return OK


def _loaded_once():
    """Say on standard error, once per game file, which game a command loaded (the project's
    copy, a folder named, or the copy installed with silvics)."""
    said = set()

    def announce(path):
        if path not in said:
            said.add(path)
            print(f"silvics: game {games.where_from(path)}", file=sys.stderr)

    return announce


def _version() -> str:
    try:
        return metadata.version("silvics")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


GAME_HELP = (
    "a game id (the project's own rules/<id>/ first, else the installed game), a game or pack folder, "
    "or an IR file"
)
NEW_PARTS = {
    "name": "the new folder's name (also the id)",
    "game": "the game it is for, named as for play",
    "kind": "the kind of card (as the game declares it)",
}


def _log_option(sub):
    sub.add_argument(
        "--log",
        choices=("story", "full"),
        default="story",
        help="story (default): the game told for people, in its own words; full: the engine's "
        "complete log, every action, choice and interrupt, for debugging",
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="silvics", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--base",
        action="append",
        default=[],
        metavar="GAME",
        help="a game folder packs may extend by its id, besides the bundled games (repeatable)",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"silvics {_version()} (IR version {IR_VERSION})",
        help="print silvics' version and the IR version it reads and writes",
    )
    commands = parser.add_subparsers(metavar="COMMAND", help="what to do (silvics COMMAND --help says more)")

    def command(name, fn, help, loads_games=True):
        sub = commands.add_parser(name, help=help, description=help)
        sub.set_defaults(command=fn, no_cache=False)
        if loads_games:
            sub.add_argument(
                "--no-cache",
                action="store_true",
                help="compile the game afresh (balance and docs: and play every game again), "
                "neither reading nor writing the cache",
            )
        return sub

    sub = command(
        "check", run.check, "validate games, card files, modules, packs and scenarios", loads_games=False
    )
    sub.add_argument(
        "--no-cache",
        action="store_true",
        help="compile every game afresh (by default a game whose files are unchanged since it last "
        "checked clean is not compiled again)",
    )
    sub.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="a game or pack folder, a project folder (every game under rules/), "
        "a card, module or scenario file",
    )
    sub.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="json: one object with the paths that passed and every diagnostic",
    )
    sub.add_argument("--strict", action="store_true", help="warnings fail the check too (exit 1)")
    sub.add_argument(
        "--watch",
        action="store_true",
        help="check again whenever a YAML file of the project changes (Ctrl-C stops)",
    )
    sub = command("compile", run.compile_, "write a game's IR as JSON, or the Python generated from it")
    sub.add_argument("game", help=GAME_HELP)
    sub.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    sub.add_argument(
        "--python",
        action="store_true",
        help="write the Python the interpreter generates for the rules' expressions and actions "
        "(to read: it is run as it is built, never from this file)",
    )
    sub.add_argument(
        "--module", action="append", default=[], help="with --python: switch a module on; repeatable"
    )
    for name, fn, help in (
        ("play", run.play, "play a whole game with bots (and people) and print it"),
        ("simulate", run.simulate, "play many games and summarise scores and wins"),
    ):
        sub = command(name, fn, help)
        sub.add_argument("game", nargs="?" if name == "play" else None, help=GAME_HELP)
        sub.add_argument("--players", type=int, default=None, help="default: the game's maximum")
        sub.add_argument("--seed", type=int, default=None if name == "play" else 1, help="default: 1")
        sub.add_argument(
            "--agents",
            default=None if name == "play" else "random",
            help=f"one agent, or one per seat, comma-separated: {', '.join(AGENTS)}, "
            "or a strategy of the game; a search agent may take a budget, ismcts:16 (default: random)",
        )
        sub.add_argument(
            "--module", action="append", default=[], help="switch a module (variant) on; repeatable"
        )
        _setting_option(sub)
        if name == "play":
            sub.add_argument(
                "--human",
                type=int,
                action="append",
                default=[],
                metavar="SEAT",
                help="a person plays this seat (from 1) at the terminal",
            )
            sub.add_argument("--quiet", action="store_true", help="print only the final scores")
            _log_option(sub)
            sub.add_argument(
                "--save", metavar="FILE", help="keep the game in FILE, rewritten after every decision"
            )
            sub.add_argument(
                "--resume",
                metavar="FILE",
                help="play on a saved game (and keep saving to FILE, unless --save names another)",
            )
        else:
            sub.add_argument("--games", type=int, required=True, help="how many games to play")
            sub.add_argument(
                "--cards", action="store_true", help="also print points earned and awarded per card"
            )
            _workers_option(sub)
            _backend_option(sub)
    sub = command(
        "balance",
        run.balance,
        "play seeded games between agents and write a balance report "
        "(Markdown and PNG plots): seats, agent against agent, cards",
    )
    sub.add_argument("game", help=GAME_HELP)
    sub.add_argument("--pack", metavar="PACK", help="report on this pack (a folder or pack.yaml) of the game")
    sub.add_argument(
        "--players", type=int, default=None, help="default: 2 where the game allows it, else its least"
    )
    sub.add_argument(
        "--games",
        type=int,
        default=200,
        help="games per study (default: 200; played games are cached in chunks of seeds: "
        "asking again, or for more, plays only the new ones)",
    )
    sub.add_argument("--seed", type=int, default=1, help="the first game's seed (default: 1)")
    sub.add_argument(
        "--agents",
        default="random",
        help="comma-separated: the first plays every seat in the seat study; with several, each "
        f"plays each ({', '.join(AGENTS)}, or a strategy of the game; default: random)",
    )
    sub.add_argument("--module", action="append", default=[], help="switch a module (variant) on; repeatable")
    _setting_option(sub)
    sub.add_argument(
        "--by",
        metavar="STUDY",
        help="also compare setups: module (each module the game allows with this setup) or an "
        "option's name (each of its values, e.g. a solo challenge)",
    )
    _workers_option(sub)
    _backend_option(sub)
    sub.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write the report in")
    sub = command("replay", run.replay, "replay a saved game to its last decision and print it")
    sub.add_argument("file", metavar="FILE", help="a saved game (play --save)")
    sub.add_argument(
        "--game", metavar="GAME", help="take the rules from GAME rather than from where the save says"
    )
    sub.add_argument("--quiet", action="store_true", help="print only the scores")
    _log_option(sub)
    sub = command("scenario", run.scenario, "run scenario files and report pass/fail per file")
    sub.add_argument(
        "paths", nargs="+", metavar="FILE", help="a scenario file, or a folder: every .yaml file under it"
    )
    sub.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print each run's log and every choice taken, asked or automatic",
    )
    _setting_option(sub, " (over the files' own options)")
    sub = command("score", run.score, "score a described end-of-game position, itemised")
    sub.add_argument("game", help=GAME_HELP)
    sub.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="a position file (YAML) of the game: the cards where they lie at the end; several, each scored",
    )
    _setting_option(sub, " (over the file's own options)")
    sub = command("why", run.why_not, "why something is not offered at the question a scenario stops at")
    sub.add_argument("game", help=GAME_HELP)
    sub.add_argument("file", metavar="FILE", help="a scenario file whose run stops at a question")
    sub.add_argument("name", metavar="NAME", help="a card, a step of the rules or an option, as written")
    sub = command("show", run.show, "print a card as it is printed: its numbers and words, and its text")
    sub.add_argument("game", help=GAME_HELP)
    sub.add_argument("card", help="a card's id (or a close spelling of it)")
    sub.add_argument(
        "--as-written", action="store_true", help="also print each line's effect-language source"
    )
    sub = command("export", run.export, "write a game's cards as a table (CSV) or a Tabletop Simulator deck")
    sub.add_argument("game", help=GAME_HELP)
    form = sub.add_mutually_exclusive_group(required=True)
    form.add_argument("--csv", action="store_true", help="a table, one row a card")
    form.add_argument(
        "--tts",
        action="store_true",
        help="a Tabletop Simulator deck: deck.json and sheets of faces (PNG) in the folder -o names",
    )
    sub.add_argument("--kind", help="only the cards of this kind")
    sub.add_argument(
        "-o", "--output", metavar="FILE", help="the file (--csv; default: standard output) or folder (--tts)"
    )
    sub.add_argument(
        "--base-url",
        metavar="URL",
        help="with --tts: the web address of the folder you will upload the images to, so the deck "
        "names them there and others can load it (default: the files on this computer)",
    )
    sub = command(
        "import", run.import_, "turn a card table (CSV) into a card file, checked at row and column"
    )
    sub.add_argument(
        "file", metavar="FILE.csv", help="a card table, one row a card, as export --csv writes it"
    )
    sub.add_argument("--game", help="check the cards against this game (its kinds, attributes and rules)")
    sub.add_argument(
        "-o", "--output", metavar="FILE", help="the card file to write (default: standard output)"
    )
    sub = command(
        "schema", run.schema, "write a JSON Schema for editors: a game's card files, or a kind of file"
    )
    sub.add_argument("game", nargs="?", help="the game (or pack) whose card files the schema describes")
    sub.add_argument(
        "--of",
        choices=SCHEMA_KINDS,
        metavar="KIND",
        help=f"instead, silvics' own schema of one kind of file: {', '.join(SCHEMA_KINDS)}",
    )
    sub.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    sub = commands.add_parser(
        "new", help="start from a skeleton that checks and plays at once: a game, a pack or a card"
    )
    made = sub.add_subparsers(metavar="WHAT", required=True, help="what to start: game, pack or card")
    for what, fn, help, parts in (
        ("game", run.new_game, "a project folder (NAME) holding a small complete game", ("name",)),
        (
            "pack",
            run.new_pack,
            "a pack folder (NAME) for GAME: one new card, and a module to fill in",
            ("game", "name"),
        ),
        ("card", run.new_card, "a card of KIND, filled in from GAME's own cards", ("game", "kind")),
    ):
        item = made.add_parser(what, help=help, description=help)
        item.set_defaults(command=fn, no_cache=False)
        for part in parts:
            item.add_argument(part, help=NEW_PARTS[part])
    item.add_argument("--id", default="new-card", help="the new card's id (default: new-card)")
    item.add_argument("-o", "--output", metavar="FILE", help="a new card file (default: standard output)")
    sub = command(
        "print", run.print_, "lay card faces on pages with cut marks, to print and play (PDF or SVG)"
    )
    sub.add_argument("game", help=GAME_HELP)
    sub.add_argument(
        "--pack", metavar="PACK", help="print the cards of this pack (a folder or pack.yaml) of the game"
    )
    sub.add_argument("--module", action="append", default=[], help="add a module's cards; repeatable")
    sub.add_argument(
        "--card",
        nargs="+",
        action="extend",
        default=[],
        metavar="ID",
        help="print only these cards (of the game, its modules or the pack)",
    )
    sub.add_argument("--paper", choices=("a4", "letter"), default="a4", help="default: a4")  # printing.PAPERS
    sub.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="sheet.pdf (needs silvics[print]), or sheet.svg: one file a page, sheet-2.svg …",
    )
    sub = command(
        "docs",
        run.docs,
        "write a game's or pack's reference site (Markdown and HTML), "
        "or without GAME this repository's generated pages",
    )
    sub.add_argument("game", nargs="?", metavar="GAME", help="a game or pack, named as for play")
    sub.add_argument(
        "-o",
        "--out",
        metavar="DIR",
        help="the folder of the site (a new or empty one, or one docs wrote before); "
        "needed with GAME; without it, default docs/reference",
    )
    balance = sub.add_mutually_exclusive_group()
    balance.add_argument(
        "--balance",
        type=int,
        default=BALANCE_GAMES,
        metavar="N",
        help="play N seeded games for the balance figures (default: %(default)s, cached)",
    )
    balance.add_argument("--no-balance", action="store_true", help="leave the balance figures out")
    _workers_option(sub)
    return parser


def _workers_option(sub):
    sub.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes to share the games among (default: one per core, here %(default)s)",
    )


def _backend_option(sub):
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


def _setting_option(sub, over: str = ""):
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


if __name__ == "__main__":
    raise SystemExit(main())
