"""The balance figures of a game's reference: seeded games between random agents at the most
players, played on every core and kept in a cache between runs.

An entry is `balance/<key>.json` in the cache folder (cache.py), its key a hash of everything
the figures follow from: the game's IR (its cards, rules and modules: any edit to a source
changes it), the toolchain (the compiler's and interpreter's source), silvics' version, the
seed, the number of games and of players. Entries are written atomically; one that cannot be
read or makes no sense is ignored, and the figures are played again.
"""
from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from silvics import cache
from silvics.interpreter import ir as ir_module
from silvics.interpreter.simulate import CardStats, Summary, simulate

GAMES = 200          # the reference pages' figures: seeds 1…200
SEED = 1
FORMAT = 1           # of an entry; bump when it changes


def figures(ir, games: int = GAMES, workers: int = 1, use_cache: bool = True, progress=None) -> Summary:
    """The figures of `games` seeded games (random agents, the game's most players), from the
    cache when it holds them; `progress(done)` is called as games finish when they are played."""
    entry = cache.folder() / "balance" / f"{key(ir, games)}.json"
    if use_cache and (cached := _read(entry)) is not None:
        return cached
    summary = simulate(ir, ir.max_players, games, seed=SEED, workers=workers, progress=progress)
    if use_cache:
        cache.write_atomically(entry, json.dumps(_as_json(summary)))
    return summary


def key(ir, games: int) -> str:
    """What the figures of `games` games of this IR follow from, hashed."""
    whole = hashlib.sha256(json.dumps([FORMAT, _version(), cache.toolchain(), SEED, games, ir.max_players]).encode())
    whole.update(ir_module.dumps(ir).encode())
    return whole.hexdigest()[:32]


def _version() -> str:
    from importlib import metadata          # only here: it costs every command's start 15 ms
    try:
        return metadata.version("silvics")
    except metadata.PackageNotFoundError:      # run from a checkout that was never installed
        return "unknown"


def _as_json(summary: Summary) -> dict:
    tables = {name: {card: [s.games, s.points, s.wins] for card, s in getattr(summary, name).items()}
              for name in ("earned", "awarded")}
    return {"games": summary.games, "players": summary.players, "totals": summary.totals,
            "wins": summary.wins, "lengths": summary.lengths, **tables}


def _read(entry) -> Summary | None:
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
        tables = {name: defaultdict(CardStats, {card: CardStats(int(games), int(points), float(wins))
                                                for card, (games, points, wins) in data[name].items()})
                  for name in ("earned", "awarded")}
        numbers = [data["games"], data["players"], *data["totals"], *data["wins"], *data["lengths"]]
        if not all(isinstance(n, (int, float)) for n in numbers):
            return None
        return Summary(data["games"], data["players"], data["totals"], data["wins"], data["lengths"], **tables)
    except Exception:        # missing, unreadable, corrupt: play the games again
        return None
