"""benchmarks/phases.py counts, under Valgrind, what each phase of a game takes: its probe must
stop each game where the phase it counts ends, or the figures it prints mean nothing."""
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def probe():
    """The probe phases.py counts (a script of benchmarks/, which imports instructions.py beside it)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module("phases").PROBE
    finally:
        sys.path.remove(str(BENCHMARKS))
        for name in ("phases", "instructions"):
            sys.modules.pop(name, None)


@pytest.mark.parametrize("phase, choices, scored, boxed", [
    ("made", 0, False, True),       # every card in the box, nothing run
    ("set up", 0, False, False),    # the rules run up to the first question: cards dealt
    ("played", 48, False, False),   # every decision taken; stopped as the scoring begins
    ("scored", 48, True, False),    # the game over, scored
])
def test_the_probe_stops_each_game_where_its_phase_ends(probe, tmp_path, phase, choices, scored, boxed):
    run = subprocess.run([sys.executable, "-P", "-c", probe, "four-forests", "2", "1", phase],
                         capture_output=True, text=True, check=True, cwd=tmp_path)
    name, made, items, in_box = run.stdout.splitlines()[-1].rsplit(" ", 3)
    assert (name, int(made), int(items) > 0, in_box == "True") == (phase, choices, scored, boxed)
