"""Renature, base game: `silvics score` on a small board written in the position file lists the
area scoring per area and colour. Every rule is a scenario: tests/scenarios/renature/*.yaml (the
tie-break ones name the winners)."""
from __future__ import annotations

from pathlib import Path

from conftest import run_cli

TESTS = Path(__file__).parent


def test_score_lists_area_points_per_area_and_colour():
    """tests/positions/renature-area.yaml, checked by hand in its comments: area 1 white first
    (main 5) and black second (minor 2); in area 2 white and black tie, so orange alone takes
    main and minor (4 + 2); area 3 was scored before; then clouds, plants left, token backs."""
    status, out, err = run_cli("score", "renature", TESTS / "positions" / "renature-area.yaml")
    assert status == 0, err
    assert out.splitlines() == [
        "P1",
        "  area 1 white                    5",
        "  clouds                          2",
        "  plants left                    -1",
        "  total                           6",
        "P2",
        "  area 1 black                    2",
        "  plants left                    -2",
        "  secret                          3",
        "  total                           3",
        "P3",
        "  area 2 orange                   6",
        "  clouds                          1",
        "  total                           7",
        "Total over all players: 16",
    ]
