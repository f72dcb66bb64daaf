"""`silvics check`: validate games, card files, modules, packs and scenarios, once or as they change."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

from silvics import games
from silvics.compiler.diagnostics import CompileError
from silvics.errors import DATA_ERROR, MISUSE, OK, UsageError
from silvics.interpreter.game import SetupError
from silvics.position import PositionError

NAME = "check"
HELP = "validate games, card files, modules, packs and scenarios"
LOADS_GAMES = False  # its own --no-cache, below
WATCH_EVERY = 0.5  # seconds between looks at the files, with check --watch


def arguments(parser):
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="compile every game afresh (by default a game whose files are unchanged since it last "
        "checked clean is not compiled again)",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="a game or pack folder, a project folder (every game under rules/), "
        "a card, module or scenario file",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="json: one object with the paths that passed and every diagnostic",
    )
    parser.add_argument("--strict", action="store_true", help="warnings fail the check too (exit 1)")
    parser.add_argument(
        "--watch",
        action="store_true",
        help="check again whenever a YAML file of the project changes (Ctrl-C stops)",
    )


def run(args) -> int:
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
        compiled.sort(key=_yaml_bytes, reverse=True)  # the longest first: none is left running alone
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(
            min(len(compiled), os.cpu_count() or 1), mp_context=multiprocessing.get_context("fork")
        ) as pool:
            found = dict(zip(compiled, pool.map(_quiet_outcome, compiled, [use_cache] * len(compiled))))
    return [found.get(spec) or _check_outcome(spec, use_cache) for spec in specs]


def _yaml_bytes(spec: str) -> int:
    """How much YAML a game or pack folder holds: what its check takes grows with it."""
    path = Path(spec)
    try:
        return sum(file.stat().st_size for file in (path if path.is_dir() else path.parent).rglob("*.y*ml"))
    except OSError:
        return 0


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
    each game under its rules/, and rules/ itself for each game in it."""
    found = []
    for spec in specs:
        path = Path(spec)
        games_in = (
            sorted(path.glob("rules/*/game.yaml")) or sorted(path.glob("*/game.yaml"))
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
        pack = os.path.relpath(home.parent)
        read = games.read_by(home)  # (None: a file of it is refused, which its check says)
        if read is None or path.resolve() in read:
            ir, _ = games.check_folder(home.parent)
            return (f"cards for {ir.name}, in the pack {pack}",)
        from silvics.compiler.build import compile_pack

        ir = compile_pack(home, games.base_game, extra_cards=[path.resolve()])
        return (
            f"cards for {ir.name}, checked with the pack {pack}, which does not read this file: "
            "list it under cards: in its pack.yaml (a folder listed there stands for its .yaml files)",
        )
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
