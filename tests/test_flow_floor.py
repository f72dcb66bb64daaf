"""benchmarks/flow_floor.py measures what generated flow would save against the flow closures:
its hand-written state machine must play the same game (it refuses to print a figure otherwise),
so the figure stays a comparison of like with like as the engine changes."""
import importlib.util
import sys
from pathlib import Path

FLOOR = Path(__file__).resolve().parent.parent / "benchmarks" / "flow_floor.py"


def test_the_state_machine_logs_the_same_choices_as_the_closures(capsys):
    spec = importlib.util.spec_from_file_location("flow_floor", FLOOR)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        module.main(["--games", "1", "--repeat", "1"])
    finally:
        sys.modules.pop(spec.name, None)
    out = capsys.readouterr().out
    assert "the same choices logged" in out and "2000 decisions a game" in out
