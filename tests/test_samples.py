"""benchmarks/samples.py says where a game's time goes, by layer of the engine: its probe must
still play games (it is PROBE of instructions.py rewritten, which may change under it), and its
sums must count only the games sampled, each sample to the layer its innermost frame is in."""
import importlib.util
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_samples():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("samples_under_test", BENCHMARKS / "samples.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_probe_plays_the_sampled_games_through_play_on(tmp_path):
    samples = load_samples()
    assert "play_on(game, agents)" in samples.SAMPLED and "game.observe" not in samples.SAMPLED
    counting = "played = []\ndef sampled(seed):\n    played.append(seed)\n"
    probe = samples.SAMPLED.replace("def sampled(seed):\n", counting) + "\nprint(*played)\n"
    played = subprocess.run(
        [sys.executable, "-c", probe, "four-forests", "2", "2"],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    )
    assert played.stdout.split() == ["0", "1"]  # the sampled games, after the first ones


def test_samples_count_by_layer_only_inside_the_sampled_games():
    samples = load_samples()
    sampled = "<module> (<string>:60);sampled (<string>:45);play (<string>:40);play_on (interpreter/agents.py:34)"
    raw = "\n".join([
        f"{sampled};Game.apply (interpreter/game.py:581);Game.advance (interpreter/game.py:595) 5",
        f"{sampled};Game.apply (interpreter/game.py:581);Game.remembered (interpreter/game.py:790) 3",
        f"{sampled};Game.apply (interpreter/game.py:581);where_12 (/home/x/.cache/silvics/code/rules_ab12.py:7) 4",
        f"{sampled};Game.apply (interpreter/game.py:581);block_runner_3.<locals>.run (/c/rules_ab12.py:9) 2",
        f"{sampled};below (interpreter/draws.py:25) 1",
        f"{sampled};Game.apply (interpreter/game.py:581);shuffle (interpreter/draws.py:40) 1",
        "<module> (<string>:60);play (<string>:40);Game.advance (interpreter/game.py:595) 50",  # a first game
    ])
    layers, own, inclusive, total = samples.shares(raw)
    assert total == 16
    assert layers == {
        samples.DRIVING: 5, samples.MEMO: 3, samples.GENERATED: 4, samples.RUNNERS: 2,
        samples.AGENTS: 1, samples.RUNTIME: 1,
    }
    assert own["Game.advance [game.py]"] == 5 and own["where_12 [generated]"] == 4
    assert inclusive["Game.apply [game.py]"] == 15 and inclusive["sampled [<string>]"] == 16
