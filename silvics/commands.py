"""What each `silvics` subcommand does (argument parsing lives in cli.py)."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from dataclasses import asdict
from pathlib import Path

from silvics import extras, games, pace, saves
from silvics.compiler.diagnostics import CompileError
from silvics.errors import DATA_ERROR, MISUSE, OK, UsageError
from silvics.human import InputEnded, shown_counter
from silvics.interpreter import ir as ir_module
from silvics.interpreter.agents import AGENTS, BUDGETS, agent_known
from silvics.interpreter.game import Game, GameError, SetupError
from silvics.interpreter.simulate import simulate as run_simulation
from silvics.interpreter.state import parse_key
from silvics.position import PositionError, card_name, lying, sharing_a_side, where
from silvics.progress import ProgressBar

# ---- check ----------------------------------------------------------------------------

WATCH_EVERY = 0.5  # seconds between looks at the files, with check --watch


def check(args) -> int:
    args.paths = [_path_or_game(spec) for spec in args.paths]
    return _watch(args) if args.watch else _check_all(args)


def _path_or_game(spec: str) -> str:
    """A path to check as given; a game's name (check forest-shuffle) as the folder it names, the
    project's own copy or the installed one, as every command finds a game."""
    if not spec or Path(spec).exists():
        return spec
    try:
        return games.shown(games.game_path(spec).parent)
    except games.GameNotFound:
        if Path(spec).name != spec or Path(spec).suffix:  # written as a path, not as a game's id
            raise UsageError(f"no such file or folder: {spec}") from None
        raise UsageError(f"no such file or folder, nor a game: {spec}") from None


def _watch(args) -> int:
    """Check, then check again whenever a YAML file under the checked folders changes, until Ctrl-C.
    Misuse in the first check ends the watch, as it ends a lone check; later, what would end a
    check (a game.yaml turned into a pipe, the folder removed) is said and the watch goes on."""
    roots = {_project_root(Path(spec)) for spec in args.paths}  # found once: a folder may go and come back
    seen = None
    try:
        while True:
            now = _yaml_files_state(roots)
            if now != seen:
                if seen is None:
                    if _check_all(args) == MISUSE:
                        return MISUSE
                else:
                    print(
                        f"\n{time.strftime('%H:%M:%S')} changed: checking again", file=sys.stderr, flush=True
                    )
                    _checked_again(args)
                sys.stdout.flush()
                seen = now
            time.sleep(WATCH_EVERY)
    except KeyboardInterrupt:  # the way out of the loop: not a failure
        return OK


def _checked_again(args):
    """A check while watching: an error that would end the command is said in one line instead."""
    try:
        _check_all(args)
    except (UsageError, games.GameNotFound) as error:
        print(f"silvics: error: {error}", file=sys.stderr)
    except PositionError as error:
        print(f"error: {error}", file=sys.stderr)
    except OSError as error:  # a file or folder gone while it was read
        print(f"silvics: error: cannot check {', '.join(args.paths)}: {error.strerror}", file=sys.stderr)


def _yaml_files_state(roots) -> dict:
    """Each YAML file under the projects' folders, with its size and time of change (hidden
    folders and installed packages left out)."""
    state = {}
    for root in roots:
        try:
            for path in root.rglob("*.y*ml"):
                parts = path.relative_to(root).parts
                if not any(p.startswith(".") or p in ("site-packages", "node_modules") for p in parts):
                    stat = path.stat()
                    state[path] = (stat.st_mtime_ns, stat.st_size)
        except OSError:  # removed while we looked: the next look sees it gone
            pass
    return state


def _project_root(path: Path) -> Path:
    """The folder whose files a path's check reads: the nearest holding rules/ (a project),
    else the nearest holding game.yaml or pack.yaml, else the path's own folder."""
    start = path.resolve() if path.is_dir() else path.resolve().parent
    for marker in ("rules", "game.yaml", "pack.yaml"):
        found = next((f for f in (start, *start.parents) if (f / marker).exists()), None)
        if found is not None:
            return found
    return start


def _check_all(args) -> int:
    specs = _expanded(args.paths)
    missing = next((spec for spec in specs if not Path(spec).exists()), None)
    if missing is not None:
        print(f"error: no such file or folder: {missing}", file=sys.stderr)
        return MISUSE
    errors, warned, checked = [], [], []
    for spec, outcome in zip(specs, _checked_each(specs, not args.no_cache)):
        if outcome[0] == "ok":
            _, summary, details, warnings = outcome
            checked.append(spec)
            warnings = [w for w in warnings if w not in warned]
            warned += warnings
            if args.format == "text":
                print(f"{spec}: ok ({summary})" + "".join(f"\n  {line}" for line in details))
                if warnings:
                    print(CompileError(warnings).render(), file=sys.stderr)
        else:
            fresh = [d for d in outcome[1] if d not in errors]  # a game and its card file share errors
            errors.extend(fresh)
            if fresh and args.format == "text":
                print(CompileError(fresh).render(), file=sys.stderr)
    if args.format == "json":  # for editors and CI annotations
        print(json.dumps({"ok": checked, "diagnostics": [asdict(d) for d in errors + warned]}, indent=1))
    elif errors or warned:
        print(
            ", ".join(
                f"{n} {what}(s)" for n, what in ((len(errors), "error"), (len(warned), "warning")) if n
            ),
            file=sys.stderr,
        )
    return DATA_ERROR if errors or (warned and args.strict) else OK


def _checked_each(specs: list[str], use_cache: bool) -> list[tuple]:
    """What checking each path found, in order: ("ok", summary, details, warnings) or ("errors",
    diagnostics). Several paths are checked side by side on the machine's cores (a whole
    project's games compile in the time of the longest ones); a path whose check stopped on
    anything else is checked again here, so that its error is raised as it would be alone."""
    compiled = [spec for spec in specs if _compiles(Path(spec), use_cache)]
    found = {}
    if len(compiled) > 1 and (os.cpu_count() or 1) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(
            min(len(compiled), os.cpu_count() or 1), mp_context=multiprocessing.get_context("fork")
        ) as pool:
            found = dict(zip(compiled, pool.map(_quiet_outcome, compiled, [use_cache] * len(compiled))))
    return [found.get(spec) or _check_outcome(spec, use_cache) for spec in specs]


def _compiles(path: Path, use_cache: bool) -> bool:
    """Whether checking the path compiles a game: a game or pack folder the cache cannot answer for."""
    if not (path.is_dir() or path.name in ("game.yaml", "pack.yaml")):
        return False
    try:
        return not use_cache or not games.check_is_cached(path)
    except Exception:  # not a game at all: its check says why
        return False


def _check_outcome(spec: str, use_cache: bool) -> tuple:
    """A path's check as _checked_each gives it."""
    warnings: list = []
    try:
        summary, *details = _check_one(Path(spec), warnings, use_cache)
        return "ok", summary, details, warnings
    except CompileError as error:
        return "errors", error.diagnostics


def _quiet_outcome(spec: str, use_cache: bool) -> tuple | None:
    """The same in a worker process: None for a check that stopped on anything but the data's
    errors (misuse, an unreadable file), which the caller checks again to raise it."""
    try:
        return _check_outcome(spec, use_cache)
    except Exception:
        return None


def _expanded(specs) -> list[str]:
    """The paths to check: a project folder (no game.yaml or pack.yaml, but rules/) stands for
    each game under its rules/."""
    found = []
    for spec in specs:
        path = Path(spec)
        games_in = (
            sorted(path.glob("rules/*/game.yaml"))
            if path.is_dir() and not any((path / name).is_file() for name in ("game.yaml", "pack.yaml"))
            else []
        )
        found += [str(game.parent) for game in games_in] or [spec]
    return found


def _check_one(path: Path, warnings: list, use_cache: bool) -> tuple[str, ...]:
    """What a path holds, and a line for each module it changes the game with."""
    if path.is_dir() or path.name in ("game.yaml", "pack.yaml") or path.parent.name == "modules":
        game_dir = (
            path if path.is_dir() else (path.parent.parent if path.parent.name == "modules" else path.parent)
        )
        summary, changes = games.checked(game_dir, warnings, use_cache)
        return (summary, *changes)
    if not path.is_file():  # a pipe would be waited on for ever
        raise UsageError(f"{path} is not a regular file: give a YAML file, not a device, a pipe or a socket")
    head = path.read_text(encoding="utf-8", errors="replace")
    if "\ngame:" in f"\n{head}" and "players:" in head:
        from silvics import scenarios

        document = scenarios.read(path)
        try:
            scenarios.build(document, path.parent, use_cache=False)
        except SetupError as error:  # the file's modules or options: its data, not the command line
            raise PositionError(f"{path}: cannot set up: {error}") from None
        return ("scenario",)
    home = _home_of_card_file(path)
    if home is None:
        from silvics.compiler.build import check_card_file

        check_card_file(path)
        return (
            "card file, schema only: no game found for it (keep it in cards/<game>/ beside rules/<game>/, "
            "or in the folder of its game.yaml or pack.yaml)",
        )
    if home.name == "pack.yaml":  # a pack's card: the whole pack, on its game
        ir, _ = games.check_folder(home.parent)
        return (f"cards for {ir.name}, in the pack {os.path.relpath(home.parent)}",)
    from silvics.compiler.build import compile_game

    ir = compile_game(home.parent, extra_cards=[path.resolve()])
    return (f"cards for {ir.name}, checked against {os.path.relpath(home)}",)


def _home_of_card_file(path: Path) -> Path | None:
    """The game.yaml or pack.yaml a card file belongs to: the nearest one in a folder holding
    it, else rules/<name>/game.yaml beside the card's folder cards/<name>/."""
    resolved = path.resolve()
    for folder in resolved.parents:
        for name in ("game.yaml", "pack.yaml"):
            if (folder / name).is_file():
                return folder / name
        sibling = folder / "rules" / resolved.parent.name / "game.yaml"
        if sibling.is_file():
            return sibling
    return None


# ---- compile ----------------------------------------------------------------------------


def compile_(args) -> int:
    ir = games.load(args.game, use_cache=not args.no_cache)
    if args.module and not args.python:
        raise UsageError("--module goes with --python: the IR holds every module")
    text = _generated(ir, args.module) if args.python else ir_module.dumps(ir)
    if args.output:
        _write(Path(args.output), text)
        what = "Python generated from the rules" if args.python else f"IR version {ir_module.IR_VERSION}"
        print(f"wrote {args.output} ({what}, {len(text)} bytes)")
    else:
        print(text)
    return OK


def _generated(ir, modules) -> str:
    """The Python generated for a game's expressions with these modules on, headed by what it is."""
    from silvics.interpreter.game import compiled_rules

    try:
        rules = compiled_rules(ir, modules)
    except SetupError as error:
        raise UsageError(str(error)) from None
    on = f", modules {', '.join(rules.modules)}" if rules.modules else ""
    return (
        f"# The Python silvics generates for the expressions and actions of {ir.name}{on}: each a\n"
        "# function of (game, env) or (game, frame), built as ast nodes. Written for reading: the\n"
        "# interpreter imports its own copy from its cache. Names ending in a number are the\n"
        "# generator's own; HANDED lists the function handed out for each request of the rules.\n\n"
        + rules.code.source()
    )


def _write(path: Path, text: str):
    """Write an output file the command line names; a path that cannot be written is misuse."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None


# ---- play and simulate --------------------------------------------------------------------


def _agent_names(agents: str, players: int, humans=(), strategies=()) -> list[str]:
    """Each seat's agent, from --agents and --human ("human" for a person's seat): an agent, or
    a strategy the game's data gives."""
    names, known = agents.split(","), [*AGENTS, *strategies]
    if len(names) not in (1, players) or not all(agent_known(n, strategies) for n in names):
        raise UsageError(
            f"--agents takes one of {', '.join(known)}, or one per seat ({players}); "
            f"{', '.join(BUDGETS)} take a budget: ismcts:16 searches 16 iterations a decision"
        )
    names = names * players if len(names) == 1 else names
    return [saves.PERSON if seat + 1 in humans else name for seat, name in enumerate(names)]


def _setup(args):
    ir = games.load(args.game, use_cache=not args.no_cache)
    ir.settings(ir.checked_modules(args.module), _options(args))  # SetupError (misuse) before any game
    players = ir.player_range(args.module)[1] if args.players is None else args.players  # 0 is out of range
    return ir, ir.checked_players(players, args.module)


def _options(args) -> dict:
    """The options chosen with --set NAME=VALUE, each once."""
    chosen = {}
    for name, value in args.settings:
        if name in chosen:
            raise UsageError(f"--set {name} is given twice")
        chosen[name] = value
    return chosen


def _setup_line(modules, options: dict) -> str:
    """The modules and options a game is played with, as the header of play and simulate says them."""
    return (f", modules {', '.join(modules)}" if modules else "") + "".join(
        f", {name}={value}" for name, value in options.items()
    )


def play(args) -> int:
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
        ir, players = _setup(args)
        bad = [h for h in args.human if not 1 <= h <= players]
        if bad:
            raise UsageError(f"there is no seat {bad[0]} in a {players}-player game")
        names = _agent_names(args.agents or "random", players, set(args.human), ir.strategies)
        session = saves.Session.new(
            ir,
            args.game,
            players,
            1 if args.seed is None else args.seed,
            args.module,
            _options(args),
            names,
            save_to,
        )
    if any(seat.agent == saves.PERSON for seat in session.save.seats):
        print(_header(session.rules, session.save) + "\n", flush=True)  # before the first question
    try:
        game = session.play()
    except KeyboardInterrupt:
        print(f"\n{_stopped(session, save_to)}", file=sys.stderr)
        return 130
    except InputEnded:
        print(f"\nno more input: {_stopped(session, save_to)}", file=sys.stderr)
        return DATA_ERROR
    _print_game(session.rules, session.save, game, args.quiet, args.log)
    return OK


def _stopped(session, save_to: Path | None) -> str:
    """What a game stopped by Ctrl-C leaves: where it is saved and how to go on, or that it is lost."""
    made = len(session.game.state.choices)
    after = f"stopped after {made} decision{'' if made == 1 else 's'}"
    if save_to is None:
        return f"{after}; not saved (play with --save FILE to be able to resume)"
    return f"{after}; saved in {save_to}: resume with\n  silvics play --resume {shlex.quote(str(save_to))}"


def replay(args) -> int:
    rules, save = saves.load(Path(args.file), args.game, not args.no_cache)
    _print_game(rules, save, saves.replay(rules, save, args.file), args.quiet, args.log)
    return OK


def _header(ir, save) -> str:
    agents = ", ".join(seat.agent for seat in save.seats)
    return f"{ir.name}: {save.players} players, seed {save.seed}, agents {agents}" + _setup_line(
        save.modules, save.options
    )


def _print_game(ir, save, game, quiet: bool, log: str = "story"):
    """The header and log (unless quiet): told for people, or the engine's full log; then the
    scores; and who is to choose, if anyone."""
    if not quiet:
        print(_header(ir, save))
        if log == "full":
            for line in game.log:
                print(f"  {line}")
        else:
            from silvics.story import told

            print("\n".join(told(ir, save, game.state.choices)))
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
    return "\n".join(lines)


def simulate(args) -> int:
    ir, players = _setup(args)
    names = args.agents.split(",")
    _agent_names(args.agents, players, strategies=ir.strategies)  # checks the names
    for option, value in (("--games", args.games), ("--workers", args.workers)):
        if value < 1:
            raise UsageError(f"{option} must be at least 1")
    first = Game(ir, players, args.seed, args.module, options=_options(args))
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
            options=_options(args),
            runner=_runner(args),
        )
    finally:
        bar.close()
    elapsed = time.perf_counter() - started
    print(
        f"{ir.name}: {args.games} games, {players} players, agents {args.agents}"
        + _setup_line(args.module, _options(args))
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


def _runner(args):
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


def balance(args) -> int:
    extras.require("balance", "matplotlib", what="balance")  # before any work, not after the games
    from silvics import report  # matplotlib: loaded only by this command
    from silvics.balance import cached_runner

    ir = games.load(args.pack or args.game, use_cache=not args.no_cache)
    if args.pack and ir.id != games.load(args.game, use_cache=not args.no_cache).id:
        raise UsageError(f"{args.pack} is not a pack of {args.game}")
    options = _options(args)
    ir.settings(ir.checked_modules(args.module), options)
    low, high = ir.player_range(args.module)
    players = ir.checked_players(args.players or max(low, min(2, high)), args.module)
    agents = args.agents.split(",")
    for name in agents:  # any number of agents: each checked as --agents checks one
        _agent_names(name, 1, strategies=ir.strategies)
    for option, value in (("--games", args.games), ("--workers", args.workers)):
        if value < 1:
            raise UsageError(f"{option} must be at least 1")
    rows = report.study_rows(ir, players, args.module, options, args.by) if args.by else []
    runner = cached_runner(ir, args.workers, _runner(args), use_cache=not args.no_cache)
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
            runner=runner,
            by=args.by,
        )
    finally:
        bar.close()
    written = report.write(made, Path(args.output))
    print(f"wrote {len(written)} files in {args.output}: {', '.join(p.name for p in written)}")
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


# ---- scenario, score, show, docs ---------------------------------------------------------------


def scenario(args) -> int:
    from silvics import scenarios  # reads YAML: imported only by the commands that need it

    files = [file for spec in args.paths for file in _scenario_files(spec)]
    failed, options = 0, _options(args)
    for file in files:
        outcome = scenarios.run_file(file, use_cache=not args.no_cache, options=options)
        print(f"{'PASS' if outcome.passed else 'FAIL'}  {file}  {outcome.name}")
        for failure in outcome.failures:
            print("      " + failure.replace("\n", "\n      "))
        if args.verbose:
            print(
                "    log:",
                *(f"      {line}" for line in outcome.log or ["(the run did not start)"]),
                sep="\n",
            )
            print("    choices:", *(f"      {line}" for line in outcome.choices or ["(none)"]), sep="\n")
        failed += not outcome.passed
    print(f"{len(files) - failed} passed, {failed} failed")
    return DATA_ERROR if failed else OK


def _named(spec: str) -> Path:
    """The path an argument names; an empty one is misuse (Path('') would mean the current folder)."""
    if not spec:
        raise UsageError("an empty path names no file or folder")
    return Path(spec)


def _scenario_files(spec: str) -> list[Path]:
    """The scenario files a path stands for: itself, or every .yaml file under a folder."""
    path = _named(spec)
    if path.is_dir():
        files = sorted(path.rglob("*.yaml"))
        if not files:
            raise UsageError(f"no scenario files in {spec} (a folder stands for every .yaml file under it)")
        return files
    if not path.exists():
        raise UsageError(f"no such file or folder: {spec}")
    if path.suffix != ".yaml":
        raise UsageError(f"{spec} is not a scenario: give a .yaml file or a folder of them")
    return [path]


def score(args) -> int:
    """Each position file laid out on the game named and scored, itemised; several, each under
    its name. A position that cannot be laid out or scored says why, and the next is scored."""
    files = [_position_file(spec) for spec in args.files]  # misuse, before anything is scored
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


def why_not(args) -> int:
    """Why NAME is not offered at the question the scenario file's run stops at."""
    from silvics import scenarios
    from silvics.compiler.english import Wording
    from silvics.human import question
    from silvics.story import Asker
    from silvics.why import why

    path, game_path = _position_file(args.file), games.game_path(args.game)
    document = scenarios.read(path)
    rules, line = games.load(str(game_path), use_cache=not args.no_cache), document.data.get("game", "")
    if not games.names(line, path.parent, game_path, rules.id):
        raise UsageError(f"{path} is a scenario of '{line}' (its game: line), not of {rules.name}")
    try:
        game = scenarios.paused(document, path.parent, not args.no_cache, {"game": str(game_path.absolute())})
    except (PositionError, GameError) as error:
        print(f"error: {path}: {error}", file=sys.stderr)
        return DATA_ERROR
    pending, wording = game.pending, Wording(game.rules.ir.vocabulary)
    assert pending is not None  # scenarios.paused stops only at a question
    asked = question(Asker(game.rules.ir, wording), pending.prompt, pending.labels, pending.still)
    print(f"P{pending.seat + 1} is asked: {asked}")
    for said in why(game, pending.seat, args.name, wording):
        print(said)
    return OK


def _position_file(spec: str) -> Path:
    path = _named(spec)
    if not path.is_file():
        raise UsageError(
            f"{spec} is a folder, not a position file" if path.is_dir() else f"no such file: {spec}"
        )
    return path


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
        "options": {**document.data.get("options", {}), **_options(args)},
    }
    built = scenarios.build(document, path.parent, use_cache=not args.no_cache, overrides=overrides)
    built.run_procedure("scoring")
    return built


def itemised(game) -> str:
    """Points per heading (when the rules name them), per card (with the cards that awarded them),
    per player, and in total; cards by name, copies told apart by where they lie."""
    state, lines = game.state, []
    int_marks = [m.name for m in game.rules.ir.marks if m.type == "int"]
    marked = [
        f"{card_name(game, uid)} {name.replace('_', ' ')} {marks[name]}"
        for uid in lying(game)
        if (marks := state.marks[uid])
        for name in int_marks
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


def show(args) -> int:
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


def export(args) -> int:
    ir = games.load(args.game, use_cache=not args.no_cache)
    cards = list(ir.cards)
    if args.kind:
        kinds = [k.name for k in ir.kinds]
        if args.kind not in kinds:
            raise UsageError(f"{ir.name} has no kind '{args.kind}': its kinds are {', '.join(kinds)}")
        cards = [card for card in cards if card.kind == args.kind]
    if args.tts:
        from silvics.tabletop import write_deck

        if not args.output:
            raise UsageError("export --tts writes a folder: name it with -o DIR")
        written = write_deck(ir, cards, Path(args.output), args.base_url)
        print(
            f"wrote {len(written) - 2} sheet(s), the back and {written[-1]} "
            "(load it from Tabletop Simulator's Saved Objects folder)"
            + (f"; upload the PNG images to {args.base_url}" if args.base_url else "")
        )
        return OK
    if args.base_url:
        raise UsageError("--base-url goes with --tts: a deck's images")
    from silvics.spreadsheet import export_csv

    text = export_csv(ir, cards)
    if args.output:
        _write(Path(args.output), text)
        print(f"wrote {args.output}")
    else:
        print(text, end="")
    return OK


def import_(args) -> int:
    """A card table as a card file; with --game, compiled with that game first, every mistake
    reported at its row and column of the table, and nothing written."""
    from silvics.compiler.build import compile_game
    from silvics.spreadsheet import checked, import_csv, read_table

    path = Path(args.file)
    cards, origin = import_csv(read_table(path), str(path))
    if args.game:
        game = games.game_path(args.game)
        if game.name != "game.yaml":
            raise UsageError("--game takes a game (a bundled id, a folder or its game.yaml)")
        games.load(str(game), use_cache=not args.no_cache)  # the game's own errors are said as its own
        checked(lambda table: compile_game(game, cards_instead=[table]), cards, origin, str(path))
    if args.output:
        if Path(args.output).exists():
            raise UsageError(f"{args.output} exists already: import never overwrites a file")
        _write(Path(args.output), cards)
        print(f"wrote {args.output}" + (f", checked against {games.where_from(game)}" if args.game else ""))
    else:
        print(cards, end="")
    return OK


def schema(args) -> int:
    """A JSON Schema: the named game's card files, or silvics' own for one kind of file."""
    from silvics.compiler.gameschema import card_schema
    from silvics.compiler.validate import schemas

    if (args.game is None) == (args.of is None):
        raise UsageError("name a game (its card files' schema) or --of KIND (silvics' own), not both")
    found = (
        card_schema(games.load(args.game, use_cache=not args.no_cache)) if args.game else schemas()[args.of]
    )
    text = json.dumps(found, indent=2, ensure_ascii=False)
    if args.output:
        _write(Path(args.output), text + "\n")
        print(f"wrote {args.output}")
    else:
        print(text)
    return OK


def new_game(args) -> int:
    from silvics.new import new_game as make

    _made(make(Path(args.name), args.name), f"then: cd {args.name} && silvics play {args.name}")
    return OK


def new_pack(args) -> int:
    from silvics.new import new_pack as make

    _made(
        make(Path(args.name), games.load(args.game, use_cache=not args.no_cache), args.name),
        f"then: silvics check {args.name} && silvics play {args.name} --module {args.name}",
    )
    return OK


def new_card(args) -> int:
    from silvics.new import card_file, check_name

    check_name(args.id)
    text = card_file(games.load(args.game, use_cache=not args.no_cache), args.kind, args.id)
    if args.output is None:
        print(text, end="")
    elif Path(args.output).exists():
        raise UsageError(f"{args.output} exists already: silvics new never overwrites a file")
    else:
        _write(Path(args.output), text)
        print(
            f"wrote {args.output}; list it under cards: in the game or pack, "
            f"then: silvics check {args.output}"
        )
    return OK


def _made(paths: list[Path], then: str):
    for path in paths:
        print(f"wrote {path}")
    print(then)


def print_(args) -> int:
    """Card faces on pages to print, cut and play with (see printing.py)."""
    from silvics import printing

    output = Path(args.output)
    if output.suffix.lower() not in (".pdf", ".svg"):
        raise UsageError(f"-o takes a .pdf or .svg file, not '{args.output}'")
    if output.suffix.lower() == ".pdf":
        printing.need_pdf()
    ir = games.load(args.game, use_cache=not args.no_cache)
    if args.pack:
        ir = _pack_on(ir, args.pack, not args.no_cache)
    ir.checked_modules(args.module)  # SetupError (misuse) for a module it lacks
    svg_pages = printing.pages(ir, _cards_to_print(ir, args), args.paper)
    if output.suffix.lower() == ".pdf":
        printing.write_pdf(svg_pages, args.paper, output)
        print(f"wrote {output} ({len(svg_pages)} pages, {args.paper})")
        return OK
    files = printing.page_files(output, len(svg_pages))
    for file, page in zip(files, svg_pages):
        _write(file, page)
    print(f"wrote {len(files)} page(s), {args.paper}: {', '.join(map(str, files))}")
    return OK


def _pack_on(game, spec: str, use_cache: bool):
    """The game with the pack's cards and modules, when the pack extends that game."""
    try:
        path = games.game_path(spec)
    except games.GameNotFound:
        path = None
    if path is None or path.name != "pack.yaml":
        raise UsageError(f"no pack '{spec}': give a pack folder or its pack.yaml")
    pack = games.load(spec, use_cache=use_cache)
    if pack.id != game.id:
        raise UsageError(f"the pack '{spec}' extends {pack.id}, not {game.id}")
    return pack


def _cards_to_print(ir, args) -> list:
    """The cards --card names; else the pack's (with --pack) or the game's, and each --module's."""
    modules = {name: ir.modules[name].cards for name in args.module}
    every = {card.id: card for cards in [ir.cards, *(m.cards for m in ir.modules.values())] for card in cards}
    if args.card:
        unknown = [name for name in args.card if name not in every]
        if unknown:
            from silvics.compiler.diagnostics import did_you_mean

            hint = did_you_mean(unknown[0], every)
            raise UsageError(f"{ir.name} has no card '{unknown[0]}'" + (f"; {hint}" if hint else ""))
        return [every[name] for name in dict.fromkeys(args.card)]
    chosen = [*ir.cards, *(card for cards in modules.values() for card in cards)]
    if args.pack:
        chosen = [card for card in chosen if card.origin]
    return list({card.id: card for card in chosen}.values())  # a card file two modules share: once


def docs(args) -> int:
    for option, value in (("--balance", args.balance), ("--workers", args.workers)):
        if value < 1:
            raise UsageError(f"{option} must be at least 1")
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
    reference.prepare_site(out)
    for path in reference.write_site(ir, out, _balance_report(args)(ir)):
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
