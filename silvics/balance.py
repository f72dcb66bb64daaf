"""Long batches in cached chunks, and the balance report of a game's reference site.

`cached_runner` plays a batch (`interpreter.simulate.simulate`'s runner protocol) in chunks of
CHUNK consecutive seeds and keeps each chunk's results in the cache (cache.py): a report
asked again, or with more games, plays only the chunks it has not played. An entry is
`batches/<key>.json`, its key a hash of everything the results follow from: the game's IR (its
cards, rules and modules: any edit to a source that changes how it plays changes it), the
interpreter's source (the engine and its agents), silvics' version, the players, agents,
modules, options and seeds. A change to the compiler that compiles the same IR (its wording,
its messages) plays nothing again.
Entries are written atomically; one that cannot be read or makes no sense is played again.

`reference_report` is the report of a game's reference site: the game's first strategy
(a persona, playing as a designer's player would) in every seat, then against random play,
then under each module.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

from silvics import cache
from silvics.interpreter import codecache
from silvics.interpreter.simulate import GameResult, local_runner, play_chunk

GAMES = 200  # the reference pages' figures: seeds 1…200 per study (CI replays them all)
SEED = 1
CHUNK = 25  # seeds per cached chunk, counted from the batch's first seed
FORMAT = 2  # of an entry; bump when it changes


def cached_runner(ir, workers: int = 1, runner=None, use_cache: bool = True):
    """A runner for simulate: the batch's seeds in chunks of CHUNK, each read from the cache or
    played (by `runner`, by a pool of `workers` processes, or here with one) and then kept."""

    def play_here(ir_text, players, names, setup, jobs):
        for start, count in jobs:
            yield play_chunk(ir, players, names, setup, start, count)

    inner = runner or (local_runner(workers) if workers > 1 else play_here)

    def run(ir_text, players, names, setup, jobs):
        first, end = min(start for start, _ in jobs), max(start + count for start, count in jobs)
        chunks = [(start, min(CHUNK, end - start)) for start in range(first, end, CHUNK)]
        whole = hashlib.sha256(
            json.dumps(
                [
                    FORMAT,
                    _version(),
                    codecache.engine(),
                    players,
                    list(names),
                    list(setup[0]),
                    sorted((setup[1] or {}).items()),
                ]
            ).encode()
        )
        whole.update(ir_text.encode())
        entry = {chunk: cache.folder() / "batches" / f"{_key(whole, *chunk)}.json" for chunk in chunks}
        missing = []
        for chunk in chunks:
            kept = _read(entry[chunk], chunk[1]) if use_cache else None
            if kept is None:
                missing.append(chunk)
            else:
                yield chunk[0], kept
        # the chunks missing, cut into pieces small enough to keep every worker busy (a chunk of
        # slow games is as much work as many of quick ones), each kept once all its pieces are in
        size = max(1, min(CHUNK, sum(count for _, count in missing) // (4 * max(workers, 2))))
        pieces = {piece: chunk for chunk in missing for piece in range(chunk[0], chunk[0] + chunk[1], size)}
        played: dict[tuple, dict] = {chunk: {} for chunk in missing}
        jobs = [(piece, min(size, chunk[0] + chunk[1] - piece)) for piece, chunk in pieces.items()]
        for start, results in inner(ir_text, players, names, setup, jobs) if jobs else ():
            chunk = pieces[start]
            played[chunk][start] = results
            if use_cache and sum(map(len, played[chunk].values())) == chunk[1]:
                whole_chunk = [r for piece in sorted(played[chunk]) for r in played[chunk][piece]]
                cache.write_atomically(entry[chunk], json.dumps([dataclasses.asdict(r) for r in whole_chunk]))
            yield start, results

    return run


def reference_setup(ir) -> tuple[int, list[str], str | None]:
    """The players, agents and study of a game's reference report: 2 players where the game
    allows it, else its least; its first strategy, if it has one, then random agents; by
    module, when it has modules."""
    low, high = ir.player_range()
    agents = [next(iter(ir.strategies)), "random"] if ir.strategies else ["random"]
    return max(low, min(2, high)), agents, ("module" if ir.modules else None)


def reference_report(ir, games: int = GAMES, workers: int = 1, use_cache: bool = True, progress=None):
    """The balance report of a game's reference (reference_setup), its games cached in chunks."""
    from silvics import report  # matplotlib and friends: only for a report

    players, agents, by = reference_setup(ir)
    return report.balance(
        ir,
        players,
        games,
        SEED,
        agents,
        progress=progress,
        by=by,
        runner=cached_runner(ir, workers, use_cache=use_cache),
    )


def _key(whole, start: int, count: int) -> str:
    chunk = whole.copy()
    chunk.update(f"/{start}/{count}".encode())
    return chunk.hexdigest()[:32]


def _version() -> str:
    from importlib import metadata  # only here: it costs every command's start 15 ms

    try:
        return metadata.version("silvics")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


_FIELDS = {field.name for field in dataclasses.fields(GameResult)}


def _read(entry, count: int) -> list[GameResult] | None:
    """A chunk's results, or None when the entry is missing, unreadable or not what it should be."""
    try:
        results = [GameResult(**found) for found in json.loads(entry.read_text(encoding="utf-8"))]
    except Exception:  # missing, unreadable, corrupt: play the games again
        return None
    fine = len(results) == count and all(
        isinstance(r.scores, list)
        and isinstance(r.share, list)
        and len(r.scores) == len(r.share)
        and all(isinstance(n, (int, float)) for n in (*r.scores, *r.share, r.length))
        and isinstance(r.earned, dict)
        and isinstance(r.awarded, dict)
        and isinstance(r.held, dict)
        and isinstance(r.result, str)
        for r in results
    )
    return results if fine else None
