"""Simulation: many seeded games between agents, summarised per seat and per card.

Per-card figures come from the itemised scores, so they mean the same in every game: how
often a card earned points, how many, and how often the player it earned them for won;
and for cards that award points to other cards (the `by` of a score naming a card), how many
they handed out. Points scored naming no card are the `by` card's own, as on a score sheet.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from .agents import make_agent, play_on
from .game import Game
from .state import parse_key


def play(ir, players: int, seed: int, agents, modules=(), options=None, log: bool = True) -> Game:
    """One whole game; `agents` holds one agent per seat, `options` the setup options chosen.
    With log=False nothing is worked out only to be written in the log (a grid's drawing): the
    game plays the same, for a summary that reads only its scores and choices."""
    game = Game(ir, players, seed, modules, options=options, start=False)
    game.state.log_read = log
    game.begin()
    play_on(game, agents)
    return game


@dataclass
class CardStats:
    games: int = 0  # games in which it earned (or awarded) points
    points: int = 0
    wins: float = 0.0  # of those games, won by the player it earned points for (earners only)


@dataclass
class Summary:
    games: int
    players: int
    totals: list
    wins: list
    lengths: list = field(default_factory=list)
    earned: dict = field(default_factory=lambda: defaultdict(CardStats))
    awarded: dict = field(default_factory=lambda: defaultdict(CardStats))
    results: list = field(default_factory=list)  # each game's GameResult, in seed order, when kept


@dataclass
class GameResult:
    """What one game adds to a Summary; small, as it crosses from a worker process."""

    scores: list
    share: list  # each seat's share of the win (ties share it)
    length: int  # decisions taken
    earned: dict  # card -> [points, share of the win of the player it scored for]
    awarded: dict  # card -> [points handed out, best share of the win among those it went to]
    held: dict = field(default_factory=dict)  # card -> the seats it lay before, face up, at the end
    result: str = ""  # alone: the final value of the rules' result counter (a challenge's tier), in words


def simulate(
    ir,
    players: int,
    games: int,
    seed: int = 1,
    agents=("random",),
    modules=(),
    workers: int = 1,
    progress=None,
    options=None,
    keep: bool = False,
    runner=None,
) -> Summary:
    """Play `games` games, game i with seed `seed + i`; ties share a win. With several workers
    the games are shared among processes, but their results are still added up one game at a
    time in seed order, so every figure (floating-point sums included) is the same whatever
    the number of workers. `progress(done)`, if given, is called as games finish; with `keep`,
    the Summary keeps each game's result too. `runner`, when given, plays the chunks of games
    elsewhere (a cluster: silvics/cluster.py), as `runner(ir_text, players, names, setup, jobs)`
    yielding (first seed, results) per chunk in any order."""
    names = tuple(agents) * players if len(agents) == 1 else tuple(agents)
    if runner is not None or (workers > 1 and games > 1):
        results = _in_parallel(
            ir, players, games, seed, names, (tuple(modules), options), workers, progress, runner
        )
    else:
        results = _one_by_one(ir, players, games, seed, names, (modules, options), progress)
    summary = Summary(games, players, [0.0] * players, [0.0] * players)
    for result in results:
        _add(summary, result)
        if keep:
            summary.results.append(result)
    return summary


def _one_by_one(ir, players, games, seed, names, setup, progress):
    with quiet_collector():
        for number in range(games):
            yield play_and_record(ir, players, seed + number, names, *setup)
            if progress:
                progress(number + 1)


# a pass of the young generation after this many more objects tracked than freed (Python's: 700)
YOUNG_PASS = 10_000
# how many quiet_collector blocks are open, and the collector's threshold before the first opened
_quieted: list = [0, None]


@contextmanager
def quiet_collector() -> Iterator[None]:
    """The collector of reference cycles, set for a batch of games while it is played: it leaves
    the objects alive when the batch starts (the rules, their generated code, the IR) out of its
    passes (gc.freeze), and passes over the young objects less often. A game makes many
    short-lived frames, bindings and tuples, freed by their reference counts as they go, and
    few cycles: set so, a random game of a bundled game takes up to 4 % fewer instructions
    (benchmarks/README.md). As it was again once every block is closed, in whatever order they
    close (a generator's block closes when the generator is dropped, maybe after the block it
    was opened in)."""
    if _quieted[0] == 0:
        _quieted[1] = threshold = gc.get_threshold()
        gc.freeze()
        gc.set_threshold(YOUNG_PASS, *threshold[1:])
    _quieted[0] += 1
    try:
        yield
    finally:
        _quieted[0] -= 1
        if _quieted[0] == 0:
            gc.set_threshold(*_quieted[1])
            gc.unfreeze()


def play_and_record(ir, players: int, seed: int, names, modules=(), options=None) -> GameResult:
    """One game between the named agents (one per seat), reduced to what a Summary needs."""
    agents = [make_agent(name, seed, seat) for seat, name in enumerate(names)]
    game = play(ir, players, seed, agents, modules, options, log=False)
    scores = game.state.scores
    winners = game.winners()
    share = [1 / len(winners) if seat in winners else 0.0 for seat in range(len(scores))]
    length = sum(1 for entry in game.state.log if entry[0] == "choice")
    earned: dict[str, list[float]] = {}  # card -> [points, share of the win] (GameResult)
    awarded: dict[str, list[float]] = {}
    for seat, uid, points, source, _ in game.state.score_items:
        # points scored with no card named are the source card's own (as a score sheet lists them)
        earner, awarder = (uid, source) if uid >= 0 else (source, -1)
        for table, card in ((earned, earner), (awarded, awarder)):
            if card >= 0 and points:
                entry = table.setdefault(game.card_id(card), [0, 0.0])
                entry[0] += points
                entry[1] = max(entry[1], share[seat])
    return GameResult(list(scores), share, length, earned, awarded, _held(game), _result(game))


def _result(game) -> str:
    """The rules' result counter (`solo: result:`) at the end, as its declaration names the value."""
    name = game.rules.ir.solo.result
    if not name or game.state.players != 1:
        return ""
    value = game.state.counters.get(name, 0)
    names = next((c.names for c in game.rules.ir.counters if c.name == name), ())
    return str(names[value]) if 0 <= value < len(names) else str(value)


def _held(game) -> dict:
    """Each card lying face up, at the end, in a place of a player's that everyone sees (what
    that player played, not their hand): card id -> the seats it lies before."""
    held: dict = {}
    for key, uids in game.state.zones.items():
        zone = game.rules.zones.get(parse_key(key).name)
        seat = game.seat_of_zone(key) if zone is not None and zone.visibility == "public" else None
        if seat is not None:
            for uid in uids:
                if not game.state.facedown[uid]:
                    seats = held.setdefault(game.card_id(uid), [])
                    if seat not in seats:
                        seats.append(seat)
    return held


def _add(summary: Summary, result: GameResult):
    for seat, score in enumerate(result.scores):
        summary.totals[seat] += score
        summary.wins[seat] += result.share[seat]
    summary.lengths.append(result.length)
    for table, stats in ((result.earned, summary.earned), (result.awarded, summary.awarded)):
        for card, (points, won) in table.items():
            stats[card].games += 1
            stats[card].points += points
            stats[card].wins += won


def _in_parallel(ir, players, games, seed, names, setup, workers, progress, runner=None) -> list[GameResult]:
    """Chunks of consecutive seeds, played by a pool whose workers each load the IR once (or
    by `runner`); the results come back in seed order."""
    from .ir import dumps

    size = max(1, min(50, games // (workers * 8)))  # small chunks: even load, a lively progress bar
    jobs = [(start, min(size, seed + games - start)) for start in range(seed, seed + games, size)]
    chunks, done = {}, 0
    for start, results in (runner or local_runner(workers))(dumps(ir), players, names, setup, jobs):
        chunks[start] = results
        done += len(results)
        if progress:
            progress(done)
    return [result for start in sorted(chunks) for result in chunks[start]]


def local_runner(workers: int):
    """The runner of this machine: a pool of `workers` processes. Left early (a failure,
    Ctrl-C), it cancels what has not started and stops its workers at once.
    (concurrent.futures, not multiprocessing.Pool: Pool.terminate can hang for ever when it
    stops a worker that is sending a result, holding the result queue's lock.)"""

    def run(ir_text, players, names, setup, jobs):
        from concurrent.futures import ProcessPoolExecutor, as_completed
        from concurrent.futures.process import BrokenProcessPool

        pool = ProcessPoolExecutor(
            min(workers, len(jobs)), initializer=_start_worker, initargs=(ir_text, players, names, setup)
        )
        finished = False
        try:
            for done in as_completed([pool.submit(_play_chunk, job) for job in jobs]):
                yield done.result()
            finished = True
        except BrokenProcessPool:
            raise WorkersLost(
                "a worker process ended without a word (killed by the system, out of "
                "memory?): the run stopped; try fewer workers"
            ) from None
        finally:
            if not finished:
                _stop_workers(pool)
            pool.shutdown(wait=True, cancel_futures=True)

    return run


class WorkersLost(RuntimeError):
    """A worker process of the local pool died (its games are lost): the run cannot go on."""


def _stop_workers(pool):
    """End a process pool's workers now, mid-chunk (Python 3.14 names this kill_workers)."""
    stop = getattr(pool, "kill_workers", None)
    if stop is not None:
        stop()
        return
    for process in list((pool._processes or {}).values()):
        process.kill()


def play_chunk(ir, players: int, names, setup, start: int, count: int) -> tuple[int, list[GameResult]]:
    """The games of seeds start … start + count - 1: what a worker anywhere plays."""
    with quiet_collector():
        return start, [
            play_and_record(ir, players, seed, names, *setup) for seed in range(start, start + count)
        ]


_WORKER: dict = {}  # this worker process's game: IR, players, agent names, (modules, options)


def _start_worker(ir_text, players, names, setup):
    import signal

    from .ir import loads

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the pool
    try:
        _WORKER.update(ir=loads(ir_text), players=players, names=names, setup=setup)
    except Exception as error:  # a pool whose starter raises restarts its workers for ever: raise it in a job
        _WORKER.update(failed=error)


def _play_chunk(job) -> tuple[int, list[GameResult]]:
    start, count = job
    w = _WORKER
    if "failed" in w:
        raise w["failed"]
    return play_chunk(w["ir"], w["players"], w["names"], w["setup"], start, count)
