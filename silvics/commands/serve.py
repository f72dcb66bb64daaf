"""`silvics serve`: the table in the browser. A local server hosts one game; each person's seat
gets a secret link (or one link for a hot seat); bots play the other seats at a pace a person can
follow. With --save, the game is kept after every decision, the links' keys too, so that a
server restarted with --resume goes on where it stood, at the same links."""

from __future__ import annotations

import errno
import shlex
import socket
import sys
from pathlib import Path

from silvics import saves
from silvics.errors import OK, UsageError
from silvics.extras import require

from .common import GAME_HELP, agent_names, chosen_options, game_setup, human_option, table_options

NAME = "serve"
HELP = "play a game in the browser, with people and bots"
LOCAL = "127.0.0.1"


def arguments(parser):
    parser.add_argument("game", nargs="?", help=GAME_HELP)
    table_options(parser, seed=None, agents=None)
    human_option(parser, "at a link of their own; repeatable (default: seat 1)")
    parser.add_argument(
        "--hotseat",
        action="store_true",
        help="one link for the people at one screen: it shows one seat's view at a time, "
        "handed over behind a 'pass the screen' page",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=8000,
        help="default: %(default)s; 0 takes a free one, printed with the links",
    )
    parser.add_argument(
        "--host",
        default=LOCAL,
        help="the address to listen on (default: %(default)s, this machine only; another, such as "
        "0.0.0.0 for a LAN, lets anyone who can reach it try the links)",
    )
    parser.add_argument(
        "--pace", type=float, default=1.0, help="seconds between two bot decisions (default: %(default)s)"
    )
    parser.add_argument(
        "--save", metavar="FILE", help="keep the game in FILE, rewritten after every decision"
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="serve a saved game, at the links it was served at "
        "(and keep saving to FILE, unless --save names another)",
    )


def run(args) -> int:
    require("web", "starlette", "uvicorn", "jinja2", what="silvics serve")
    from silvics.web.host import Table

    if not 0 <= args.pace <= 60:
        raise UsageError("--pace is a number of seconds from 0 to 60")
    rules, save, game, path = _game(args)
    table = Table(rules, save, game, path, hotseat=args.hotseat)
    if table.path is not None:
        saves.check_replaceable(table.path)
    with _listening(args.host, args.port) as listener:  # before a link is printed or the save written
        if table.path is not None:
            table.write()
        _serve(table, args, listener)
    return OK


def _game(args):
    """The rules, save, game and save file: a new game, or one resumed."""
    save_to = Path(args.save) if args.save else None
    if args.resume:
        if any(
            (
                args.players is not None,
                args.seed is not None,
                args.agents,
                args.module,
                args.settings,
                args.human,
                args.hotseat,
            )
        ):
            raise UsageError(
                "--resume serves the saved game as it was set up and served: "
                "leave out --players, --seed, --agents, --module, --set, --human and --hotseat"
            )
        rules, save = saves.load(Path(args.resume), args.game, not args.no_cache)
        if not any(seat.agent == saves.PERSON for seat in save.seats):
            raise UsageError(f"{args.resume} is a game of bots alone: replay it with silvics replay")
        return rules, save, saves.replay(rules, save, args.resume), Path(save_to or args.resume)
    if not args.game:
        raise UsageError("serve needs a GAME, or --resume FILE")
    rules, players = game_setup(args)
    people = args.human or [1]
    bad = [h for h in people if not 1 <= h <= players]
    if bad:
        raise UsageError(f"there is no seat {bad[0]} in a {players}-player game")
    names = agent_names(args.agents or "random", players, set(people), rules.strategies)
    seed = 1 if args.seed is None else args.seed
    save = saves.new(
        rules, args.game, players, seed, args.module, chosen_options(args), names, save_to is not None
    )
    return rules, save, saves.started(rules, save), save_to


# what a person can do about a port or an address that cannot be listened at
_BIND_HINTS = {
    errno.EADDRINUSE: "another server listens there: stop it, or choose another --port",
    errno.EACCES: "ports below 1024 need an administrator: choose another --port",
    errno.EADDRNOTAVAIL: "this machine has no such address: leave out --host to serve on this machine only",
}


def _listening(host: str, port: int) -> socket.socket:
    """A socket bound at host:port, or a UsageError saying why not. Bound here, not by uvicorn,
    so that a port in use or an unknown host is said in one line before any link is printed
    (uvicorn would log it after them, and exit as if all were well)."""
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: a port is a number from 1 to 65535 (0 takes a free one)")
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as error:
        reason = (error.strerror if isinstance(error, socket.gaierror) else None) or "not a host name"
        raise UsageError(
            f"cannot serve at {host}: {reason.lower()}; --host takes an address of this machine"
        ) from None
    listener = socket.socket(family, kind, protocol)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        listener.bind(address)
        listener.listen()
    except OSError as error:
        listener.close()
        hint = _BIND_HINTS.get(error.errno or 0, "")
        raise UsageError(
            f"cannot serve at {_shown(host)}:{port}: {(error.strerror or str(error)).lower()}"
            + (f"; {hint}" if hint else "")
        ) from None
    return listener


def _shown(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _serve(table, args, listener: socket.socket):
    from silvics.web.app import serving

    if args.host != LOCAL:
        print(
            f"silvics: warning: serving on {args.host}: anyone who can reach this machine can try the "
            "links; share each link only with its player",
            file=sys.stderr,
        )
    host, port = _shown(args.host), listener.getsockname()[1]
    print(f"{table.rules.name}, served at {host}:{port}. Each link is one player's: keep it secret.")
    for name, key in table.keys.items():
        who = "the people at this screen" if name == "hotseat" else name
        print(f"  {who}: http://{host}:{port}/play/{key}")
    kept = f"; the game is kept in {table.path}" if table.path else " (with --save FILE it could be resumed)"
    print(f"Ctrl-C stops the server{kept}", flush=True)
    serving(table, args.pace, args.host, port).run(sockets=[listener])
    if table.path is not None:
        print(
            f"stopped; resume with\n  silvics serve --resume {shlex.quote(str(table.path))}", file=sys.stderr
        )
