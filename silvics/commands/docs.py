"""`silvics docs`: a game's or pack's reference site, or this repository's generated pages."""

from __future__ import annotations

import sys
from pathlib import Path

from silvics import extras, games
from silvics.balance import GAMES
from silvics.errors import DATA_ERROR, OK, UsageError
from silvics.progress import ProgressBar

from .common import at_least_one, workers_option

NAME = "docs"
HELP = (
    "write a game's or pack's reference site (Markdown and HTML), "
    "or without GAME this repository's generated pages"
)


def arguments(parser):
    parser.add_argument("game", nargs="?", metavar="GAME", help="a game or pack, named as for play")
    parser.add_argument(
        "-o",
        "--out",
        metavar="DIR",
        help="the folder of the site (a new or empty one, or one docs wrote before); "
        "needed with GAME; without it, default docs/reference",
    )
    balance = parser.add_mutually_exclusive_group()
    balance.add_argument(
        "--balance",
        type=int,
        default=GAMES,
        metavar="N",
        help="play N seeded games for the balance figures (default: %(default)s, cached)",
    )
    balance.add_argument("--no-balance", action="store_true", help="leave the balance figures out")
    parser.add_argument(
        "--against",
        metavar="OTHER",
        help="with GAME: the Balance page also compares this version with another, on the same seeds "
        "(a folder, installed or git:REV, as for balance --against)",
    )
    workers_option(parser)


def run(args) -> int:
    at_least_one(("--balance", args.balance), ("--workers", args.workers))
    if args.against and args.game is None:
        raise UsageError("--against compares a game's versions: name the GAME")
    plots, site = ([] if args.no_balance else ["matplotlib"]), (["mkdocs"] if args.game is not None else [])
    extras.require("docs", *plots, *site, what="docs")  # before any work: the games take minutes
    return _game_site(args) if args.game is not None else _repository_pages(args)


def _repository_pages(args) -> int:
    from silvics import reference

    out = Path(args.out or "docs/reference")
    try:
        written = reference.write_reference(out, _balance_report(args), use_cache=not args.no_cache)
    except OSError as error:  # the folder is made first, so a bad --out stops before any work
        raise UsageError(f"cannot write the pages to {out}: {error.strerror}") from None
    for path in written:
        print(f"wrote {path}")
    return OK


def _game_site(args) -> int:
    """The site of one game or pack; the folder is checked before anything is compiled or played."""
    from silvics import reference

    if not args.out:
        raise UsageError("docs GAME writes a site: name its folder with -o DIR")
    out = Path(args.out)
    reference.check_site_folder(out)
    ir = games.load(args.game, use_cache=not args.no_cache)
    if args.against and args.no_balance:
        raise UsageError("--against compares balance figures: leave out --no-balance")
    if args.against:
        from silvics import diff

        with diff.other_version(args.game, args.against, use_cache=not args.no_cache) as other:
            compared = diff.reference_diff(
                ir, other, args.against, args.balance, args.workers, not args.no_cache
            )
    reference.prepare_site(out)
    made = _balance_report(args)(ir)
    if args.against:
        made = diff.appended(made, compared)
    for path in reference.write_site(ir, out, made):
        print(f"wrote {path}")
    try:
        print(f"built {reference.build_site(out) / 'index.html'}")
    except reference.SiteError as error:
        print(f"error: {error}", file=sys.stderr)
        return DATA_ERROR
    return OK


def _balance_report(args):
    """A game's balance report as the options ask: played (with a progress bar) or cached, or none."""
    from silvics import balance, report

    def made(ir):
        players, agents, by = balance.reference_setup(ir)
        rows = len(report.study_rows(ir, players, (), {}, by)) if by else 0
        bar = ProgressBar(report.planned(args.balance, agents, players, rows), label=f"{ir.name}, balance")
        try:
            return balance.reference_report(
                ir, args.balance, args.workers, use_cache=not args.no_cache, progress=bar
            )
        finally:
            bar.close()

    return (lambda ir: None) if args.no_balance else made
