"""`silvics play`: a whole game with bots and people, told as it went; and how a game is
printed at its end (replay prints a saved one the same way)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from silvics import saves
from silvics.compiler.english import Wording
from silvics.errors import DATA_ERROR, OK, UsageError
from silvics.human import InputEnded, shown_counter
from silvics.interpreter.state import parse_key
from silvics.why import unmet

from .common import (
    GAME_HELP,
    agent_names,
    chosen_options,
    game_setup,
    human_option,
    log_option,
    setup_line,
    table_options,
)

NAME = "play"
HELP = "play a whole game with bots (and people) and print it"


def arguments(parser):
    parser.add_argument("game", nargs="?", help=GAME_HELP)
    table_options(parser, seed=None, agents=None)  # their defaults: 1, random, unless resumed
    human_option(parser, "at the terminal; repeatable")
    parser.add_argument("--quiet", action="store_true", help="print only the final scores")
    log_option(parser)
    parser.add_argument(
        "--save", metavar="FILE", help="keep the game in FILE, rewritten after every decision"
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="play on a saved game (and keep saving to FILE, unless --save names another)",
    )


def run(args) -> int:
    save_to = Path(args.save) if args.save else None
    if args.resume:
        if (
            args.players is not None
            or args.seed is not None
            or args.agents
            or args.module
            or args.settings
            or args.human
        ):
            raise UsageError(
                "--resume plays on the saved game as it was set up: "
                "leave out --players, --seed, --agents, --module, --set and --human"
            )
        session = saves.resume(Path(args.resume), args.game, not args.no_cache, save_to)
    elif not args.game:
        raise UsageError("play needs a GAME, or --resume FILE")
    else:
        ir, players = game_setup(args)
        bad = [h for h in args.human if not 1 <= h <= players]
        if bad:
            raise UsageError(f"there is no seat {bad[0]} in a {players}-player game")
        names = agent_names(args.agents or "random", players, set(args.human), ir.strategies)
        session = saves.Session.new(
            ir,
            args.game,
            players,
            1 if args.seed is None else args.seed,
            args.module,
            chosen_options(args),
            names,
            save_to,
        )
    if any(seat.agent == saves.PERSON for seat in session.save.seats):
        print(header(session.rules, session.save) + "\n", flush=True)  # before the first question
    try:
        game = session.play()
    except KeyboardInterrupt:
        print(f"\n{_stopped(session, save_to)}", file=sys.stderr)
        return 130
    except InputEnded:
        print(f"\nno more input: {_stopped(session, save_to)}", file=sys.stderr)
        return DATA_ERROR
    print_game(session.rules, session.save, game, args.quiet, args.log)
    return OK


def _stopped(session, save_to: Path | None) -> str:
    """What a game stopped by Ctrl-C leaves: where it is saved and how to go on, or that it is lost."""
    made = len(session.game.state.choices)
    after = f"stopped after {made} decision{'' if made == 1 else 's'}"
    if save_to is None:
        return f"{after}; not saved (play with --save FILE to be able to resume)"
    return f"{after}; saved in {save_to}: resume with\n  silvics play --resume {shlex.quote(str(save_to))}"


def header(ir, save) -> str:
    agents = ", ".join(seat.agent for seat in save.seats)
    return (
        f"{ir.name}: {save.players} player{'s' * (save.players != 1)}, seed {save.seed}, agents {agents}"
        + setup_line(save.modules, save.options)
    )


def print_game(ir, save, game, quiet: bool, log: str = "story"):
    """The header and log (unless quiet): told for people, or the engine's full log; then the
    scores; and who is to choose, if anyone."""
    if not quiet:
        print(header(ir, save))
        if log == "full":
            for line in game.log:
                print(f"  {line}")
        else:
            from silvics.story import told

            people = [seat for seat, plays in enumerate(save.seats) if plays.agent == saves.PERSON]
            print("\n".join(told(ir, save, game.state.choices, people or None)))  # what they saw
    print(_scores_table(game, full=log == "full"))
    if not game.over:
        print(f"Waiting for P{game.pending.seat + 1}: {game.pending.prompt}")


def _counters_line(game, full: bool) -> list[str]:
    """The counters at the end, as players read them (those declared `shown:` and moved from
    their start, each player's named); with the full log, every counter by its key."""
    counters, declared = game.state.counters, {counter.name: counter for counter in game.rules.ir.counters}
    if full:
        return [
            f"{game.zone_label(key)} {_word(declared[parse_key(key).name], value)}"
            for key, value in sorted(counters.items())
        ]
    said = []
    for key, value in sorted(counters.items()):
        parts = parse_key(key)
        whose = "" if parts.owner is None else f"P{parts.owner + 1} "
        said += shown_counter(declared, parts.name, value, whose)
    return said


def _word(counter, value: int):
    """A counter's value as people read it: the word its declaration gives that value, if any."""
    return counter.names[value] if 0 <= value < len(counter.names) else value


def _scores_table(game, full: bool = False) -> str:
    scores, standings = game.state.scores, game.standings()
    winners = game.winners() if game.over and len(scores) > 1 else []
    lines = ["", "Final scores:" if game.over else "Scores so far:"]
    for seat in sorted(range(len(scores)), key=lambda s: tuple(-n for n in standings[s])):
        winner = "  winner" if seat in winners else ""
        lines.append(f"  P{seat + 1}  {scores[seat]:>4}{winner}")
    counters = _counters_line(game, full)
    if counters:
        lines.append("Counters: " + ", ".join(counters))
    return "\n".join(lines + _solo_result(game))


def _solo_result(game) -> list[str]:
    """A game played alone that the rules say how to win: won or lost, and what winning takes,
    in the game's words."""
    ir = game.rules.ir
    if not game.over or game.state.players != 1 or ir.solo.won is None:
        return []
    wording = Wording(ir.vocabulary)
    wanted = wording.say(ir.solo.won)
    if game.winners():
        return [f"Won: {wanted}."]
    return [f"Lost: to win, {wanted}:", *unmet(game, 0, ir.solo.won, wording)]
