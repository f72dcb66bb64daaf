"""The IR: versioned, JSON round trip, and runnable without the compiler's libraries."""
import json
import os
import re
import subprocess
import sys

import pytest

from silvics.interpreter import ir


@pytest.mark.parametrize("game_id", ["four-forests", "reforest"])
def test_json_round_trip_is_exact(game_id):
    from silvics import games
    compiled = games.load(game_id)
    text = ir.dumps(compiled)
    assert ir.loads(text) == compiled
    assert json.loads(text)["version"] == ir.IR_VERSION


def test_other_versions_are_refused(four_forests):
    data = json.loads(ir.dumps(four_forests))
    data["version"] = ir.IR_VERSION + 1
    with pytest.raises(ir.IRError, match=f"^IR version {ir.IR_VERSION + 1} is not supported"):
        ir.loads(json.dumps(data))


def test_saved_ir_runs_without_lark_or_jsonschema(four_forests, tmp_path):
    saved = tmp_path / "ff.json"
    saved.write_text(ir.dumps(four_forests))
    script = (
        "import sys\n"
        "sys.modules['lark'] = None; sys.modules['jsonschema'] = None; sys.modules['yaml'] = None\n"
        "from silvics.interpreter.ir import loads\n"
        "from silvics.interpreter.game import Game\n"
        "from silvics.interpreter.agents import make_agent, play_on\n"
        f"game = Game(loads(open({str(saved)!r}).read()), 3, 7)\n"
        "play_on(game, [make_agent('random', 7, s) for s in range(3)])\n"
        "print(game.state.scores)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("[")


def test_interpreter_never_imports_the_compiler():
    from pathlib import Path
    import silvics.interpreter as package
    imports = re.compile(r"^\s*(from|import)\s+\S*compiler", re.M)
    for path in Path(package.__file__).parent.rglob("*.py"):
        assert not imports.search(path.read_text()), path


def test_the_same_data_compiles_to_the_same_ir_from_anywhere(tmp_path, monkeypatch):
    from silvics import bundled
    from silvics.compiler.build import compile_game
    path = bundled.games()["four-forests"]
    here = ir.dumps(compile_game(path))
    monkeypatch.chdir(tmp_path)
    assert ir.dumps(compile_game(path)) == here
    assert '{"@":"rules/four-forests/game.yaml:' in here


def test_every_game_compiles_to_the_same_ir_whatever_the_hash_seed():
    """Python salts the hash of strings per process: an order taken from a set would change the IR
    (Renature's definition variants were numbered in such an order)."""
    script = ("import hashlib; from silvics import bundled; from silvics.compiler.build import compile_game;"
              "from silvics.interpreter.ir import dumps;"
              "print(*(hashlib.sha256(dumps(compile_game(p)).encode()).hexdigest()"
              " for _, p in sorted(bundled.games().items())))")
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    from silvics import bundled
    assert len(runs) == 1 and len(next(iter(runs)).split()) == len(bundled.games())
