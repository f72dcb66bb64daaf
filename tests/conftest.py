"""Shared fixtures, and every scenario file under tests/scenarios as a test of its own."""
from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
from concurrent.futures import ProcessPoolExecutor
from itertools import compress, count
from operator import ne
from pathlib import Path

import pytest
from silvics import games
from silvics.cli import main
from silvics.interpreter.agents import make_agent, play_on
from silvics.interpreter.game import Game
from silvics.interpreter.simulate import quiet_collector

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


@pytest.fixture(scope="session", autouse=True)
def private_ir_cache(tmp_path_factory):
    """The caches of the whole run (and of the commands it starts: IRs, generated code, games
    played) live in a temporary folder, never in the real home. pytest-xdist's workers share it,
    as the processes of one machine share the real one: the code one worker generated for a set
    of modules, the other loads (each writes a cache entry whole, or not at all)."""
    run = tmp_path_factory.getbasetemp()
    folder = (run.parent if os.environ.get("PYTEST_XDIST_WORKER") else run) / "xdg-cache"
    folder.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield


@pytest.fixture(scope="session", autouse=True)
def collector_set_for_games():
    """The run plays thousands of games: the collector of reference cycles is set as a batch of
    games sets it (simulate.quiet_collector)."""
    with quiet_collector():
        yield


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, headless, driven by Playwright (its own browsers are not downloaded:
    `executable_path`), one per test process, for every browser test."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (`apt-get install chromium`; .ci/run installs it where it runs "
                    "as root with apt-get)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' brings Playwright")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()


@pytest.fixture
def cache_home(tmp_path, monkeypatch) -> Path:
    """A cache folder of the test's own (XDG_CACHE_HOME set for it); the silvics folder in it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "silvics"


@pytest.fixture(scope="session")
def four_forests():
    return games.load("four-forests")


class Conservation:
    """`State.conservation_errors` after every action, at the cost of what the action changed:
    the state as it was last checked is kept, and only the cards whose zone or recorded place
    changed since are looked at. Exactly the full check, given the state it starts from passes
    it: a card that no action touched is where it was, in a zone that still holds it once.

    The piles the engine stamped since (State.changed) are looked at first, and taken as all
    that changed only once every pile and place compares equal to what was kept (in C, at once):
    a pile changed without a stamp sends the check on to compare every pile, so the engine's
    word is a shortcut, never trusted."""

    def __init__(self, state):
        self.state = state
        self.zones = {key: list(pile) for key, pile in state.zones.items()}
        self.location = list(state.location)
        self.seen = len(state.changed)  # keys stamped before the last check
        self.start = state.conservation_errors()

    def __call__(self) -> list[str]:
        state, zones, location = self.state, self.state.zones, self.state.location
        stamped, self.seen = state.changed[self.seen :], len(state.changed)
        if zones == self.zones and location == self.location:
            return []
        if len(location) != len(self.location):
            return state.conservation_errors()
        named = {key for key in stamped if key in zones or key in self.zones}
        kept = {key: self.zones.get(key) for key in named}
        errors, arrived = self._moves(named)
        placed = [(uid, self.location[uid]) for uid in arrived]
        self._keep(named, arrived)
        if zones == self.zones and location == self.location:  # the stamped piles were all that changed
            return errors
        for key, pile in kept.items():  # something unstamped changed too: every pile compared
            self.zones[key] = pile
            if pile is None:
                del self.zones[key]
        for uid, key in placed:
            self.location[uid] = key
        return self._compared()

    def _compared(self) -> list[str]:
        zones, location = self.state.zones, self.state.location
        if list(zones) == list(self.zones):  # the same zones, in the same order: compare them side by side
            changed = set(compress(zones, map(ne, zones.values(), self.zones.values())))
        else:
            changed = {key for key, pile in zones.items() if self.zones.get(key) != pile}
            changed |= self.zones.keys() - zones.keys()
        errors, arrived = self._moves(changed)
        expected = self.location.copy()
        for uid, key in arrived.items():
            expected[uid] = key
        if expected != location:  # a card recorded elsewhere than it lies
            errors += [f"card {uid} is in {expected[uid]} but recorded in {location[uid]}"
                       for uid in compress(count(), map(ne, location, expected))]
        self._keep(changed, {})
        self.location = list(location)
        return errors

    def _moves(self, changed) -> tuple[list[str], dict]:
        """What went wrong in the changed piles, and where each card that arrived in one lies.
        Each card now in a changed zone and not before arrived there; each card before in one
        and not now left it. A card is where it should be when what left arrived exactly once:
        every other card is still in the one zone it was in (a zone that did not change, or did
        and still holds it)."""
        zones = self.state.zones
        errors, arrived, left = [], {}, set()
        for key in changed:
            pile, was = zones.get(key, ()), set(self.zones.get(key, ()))
            held = set(pile)
            if len(held) != len(pile):
                errors += [f"card {uid} is in both {key} and {key}" for uid in held if pile.count(uid) > 1]
            for uid in held - was:
                if uid in arrived:
                    errors.append(f"card {uid} is in both {arrived[uid]} and {key}")
                arrived[uid] = key
            left |= was - held
        for uid in arrived.keys() - left:  # arrived, and still in the zone it was in
            errors.append(f"card {uid} is in both {self.location[uid]} and {arrived[uid]}")
        if left - arrived.keys():
            errors.append(f"cards lost: {sorted(left - arrived.keys())}")
        return errors, arrived

    def _keep(self, changed, arrived: dict):
        """The changed piles, and where the cards that arrived lie, kept as they now are."""
        zones = self.state.zones
        for key in changed:
            if key in zones:
                self.zones[key] = list(zones[key])
            else:
                self.zones.pop(key, None)
        for uid, key in arrived.items():
            self.location[uid] = key


def play_random(ir, players, seed, modules=(), check_every_step=True) -> Game:
    """A whole game between random agents; conservation is checked after every action."""
    game = Game(ir, players, seed, modules, start=False)
    faults = []
    if check_every_step:
        conserved = Conservation(game.state)
        faults += conserved.start
        game.on_step = lambda g: faults.extend(conserved())
    agents = [make_agent("random", seed, seat) for seat in range(players)]
    for name in ("setup", "play", "scoring"):   # what Game(start=True) runs, with the hook set first
        game.start_procedure(name)
        play_on(game, agents)
    assert not faults, faults[:5]
    assert not game.state.conservation_errors()
    return game


def refereed_game(ir, players: int, seed: int, referee, modules=(), options=None, drawn=True):
    """A whole game between random agents, watched by `referee(game)`: its `after_action` runs
    after every action, its `end_of_game` at the end. The game and the faults the referee found.
    With drawn=False the game works out no drawing only the log's reader sees (as a simulated
    game: simulate.play's log=False)."""
    game = Game(ir, players, seed, modules, options=options, start=False)
    game.state.log_read = drawn
    watching = referee(game)
    game.on_step = watching.after_action
    agents = [make_agent("random", seed, seat) for seat in range(players)]
    for name in ("setup", "play", "scoring"):   # what Game(start=True) runs, with the hook set first
        game.start_procedure(name)
        play_on(game, agents)
    watching.end_of_game()
    return game, watching.faults


def faults_of_seeds(seeds, play, label=lambda seed: f"seed {seed}") -> list[str]:
    """What went wrong in the games of these seeds (`play(seed)`: a game and its referee's
    faults), the first three of each game, named `label(seed)`; a rule that fails is one."""
    found = []
    for seed in seeds:
        try:
            game, faults = play(seed)
        except Exception as error:                   # a rule failed: report it with its seed
            found.append(f"{label(seed)}: {type(error).__name__}: {error}")
            continue
        if not game.over:
            faults = [*faults, "the game did not end"]
        found += [f"{label(seed)}: {fault}" for fault in faults[:3]]
    return found


UNDER_XDIST = bool(os.environ.get("PYTEST_XDIST_WORKER"))   # its workers already keep every core busy


def workers() -> int:
    """The processes a test may play games on: every core when run alone, its own under xdist."""
    return 1 if UNDER_XDIST else os.cpu_count() or 1


@pytest.fixture(scope="module")
def pool():
    """Where a test module plays its random games. Run alone, on two worker processes (the
    machine CI uses has two cores), kept for the module. Under pytest-xdist, whose workers
    already keep both cores busy, in the test's own process (None): two more processes would
    only share those cores (Renature's and Reforest's random games took 503 CPU-s so, 418 in
    the workers themselves)."""
    if UNDER_XDIST:
        yield None
        return
    with ProcessPoolExecutor(2) as executor:
        yield executor


def in_two_halves(pool, work, count: int, *args) -> list:
    """`work(*args, seeds)` in two halves, the even seeds below `count` and the odd ones, on a
    pool of two processes (or here, `pool` None): what both found, in one list."""
    halves = [range(0, count, 2), range(1, count, 2)]
    return [found for part in mapped(pool)(work, *([arg] * 2 for arg in args), halves) for found in part]


def mapped(pool):
    """`map` on the pool, or here when `pool` is None."""
    return map if pool is None else pool.map


LOADED = re.compile(r"^silvics: game .*\n", re.M)     # the line saying which game a command loaded


def run_cli(*argv) -> tuple[int, str, str]:
    """The silvics command run in this process: its exit status, output and error output
    (never a traceback), without the line saying which game it loaded (test_workshop checks it)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in argv])
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return status, out.getvalue(), LOADED.sub("", err.getvalue())


def run_captured(capsys, *argv) -> tuple[int, str, str]:
    """The same, with pytest capturing the output."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, LOADED.sub("", err)


# The modules whose tests run longest (each 5-36 s), longest first. They are started first, so
# that the two workers of `.ci/run` (which steal each other's waiting tests: `--dist worksteal`)
# end together: in pytest's order, Renature's random games and the browser tests were among the
# last to start, and one worker idled 38 s at the end while the other ran them. A module's tests
# stay together (its fixtures are set up once per worker).
STARTED_FIRST = ("test_renature_games.py", "test_docs.py", "test_table_browser.py",
                 "test_reforest_games.py", "test_forest_shuffle_games.py", "test_serve.py",
                 "test_fuzz.py", "test_site_browser.py")


def pytest_collection_modifyitems(items):
    strays = [name for name in STARTED_FIRST if not (Path(__file__).parent / name).exists()]
    if strays:  # a module renamed would silently start last again
        raise pytest.UsageError(f"conftest.STARTED_FIRST names no test module: {', '.join(strays)}")
    rank = {name: at for at, name in enumerate(STARTED_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".yaml" and SCENARIOS in file_path.parents:
        return ScenarioFile.from_parent(parent, path=file_path)


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(pytest.Item):
    def runtest(self):
        from silvics.scenarios import run_file
        outcome = run_file(self.path)
        if not outcome.passed:
            raise ScenarioFailure("\n".join(outcome.failures))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailure):
            return f"scenario {self.path.name} failed:\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario: {self.path.name}"


class ScenarioFailure(Exception):
    pass
