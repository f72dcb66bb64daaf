"""The generated reference pages (`silvics docs`): the primitive reference and, per bundled
game, its rules for players and its rules as written for designers (with balance figures from
seeded games played here and handed to the compiler's docs backend, which only renders)."""
from __future__ import annotations

from pathlib import Path

from silvics import bundled, games
from silvics.compiler.docs import game_page, primitives_page
from silvics.compiler.rulebook import rules_page
from silvics.interpreter.simulate import Summary, simulate

BALANCE_GAMES = 200


def balance_figures(ir, workers: int = 1) -> Summary:
    """The figures of a game page's Balance section: random agents at the most players, seeds 1…200."""
    return simulate(ir, ir.max_players, BALANCE_GAMES, seed=1, workers=workers)


def write_reference(out: Path, workers: int = 1, use_cache: bool = True) -> list[Path]:
    """Write every page under `out`; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    pages = {"primitives.md": primitives_page()}
    for game_id in bundled.games():
        ir = games.load(game_id, use_cache=use_cache)
        pages[f"{game_id}/rules.md"] = rules_page(ir)
        pages[f"{game_id}/as-written.md"] = game_page(ir, balance_figures(ir, workers))
    written = []
    for name, text in pages.items():
        path = out / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
        written.append(path)
    return written
