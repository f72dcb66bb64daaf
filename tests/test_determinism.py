"""Determinism: the same seed and choices give the same game, byte for byte; golden logs
catch any change that alters play. After an intended change, regenerate a golden file with
the command on its first line, e.g.
    silvics play four-forests --players 4 --seed 1 > tests/golden/four-forests-4p-seed1.txt
(each file's command is in RUNS below).
"""
from pathlib import Path

import pytest

from conftest import play_random
from silvics.cli import main

GOLDEN = Path(__file__).parent / "golden"
RUNS = {      # the engine's full log (--log full), and the story people read (--log story)
    "four-forests-4p-seed1.txt": ["play", "four-forests", "--players", "4", "--seed", "1", "--log", "full"],
    "four-forests-3p-seed2-greedy-experienced.txt":
        ["play", "four-forests", "--players", "3", "--seed", "2", "--agents", "greedy", "--module", "experienced",
         "--log", "full"],
    "reforest-3p-seed1-terrain-events.txt":
        ["play", "reforest", "--players", "3", "--seed", "1", "--module", "terrain", "--module", "events", "--log", "full"],
    "reforest-1p-seed4-hard.txt": ["play", "reforest", "--players", "1", "--seed", "4", "--module", "hard", "--log", "full"],
    **{f"{game}-{players}p-seed{seed}-story.txt": ["play", game, "--players", str(players), "--seed", str(seed)]
       for game, players, seed in [("four-forests", 3, 1), ("reforest", 2, 3), ("forest-shuffle", 2, 1),
                                   ("renature", 2, 3)]},
    "forest-shuffle-1p-seed3-alone-story.txt":        # played alone: Anna's turns, the result in words
        ["play", "forest-shuffle", "--players", "1", "--seed", "3", "--module", "alone-in-the-forest"],
    "reforest-1p-seed2-story.txt": ["play", "reforest", "--players", "1", "--seed", "2"],   # solitaire
}


def test_same_seed_same_log(four_forests):
    first = play_random(four_forests, 4, 123).log
    second = play_random(four_forests, 4, 123).log
    assert "\n".join(first).encode() == "\n".join(second).encode()


def test_different_seeds_differ(four_forests):
    assert play_random(four_forests, 4, 1).log != play_random(four_forests, 4, 2).log


@pytest.mark.parametrize("name", sorted(RUNS))
def test_golden_playthrough(name, capsys):
    assert main(RUNS[name]) == 0
    assert capsys.readouterr().out == (GOLDEN / name).read_text()


@pytest.mark.parametrize("game_id, modules", [("four-forests", ["experienced"]), ("reforest", ["terrain", "events"])])
def test_replaying_the_recorded_choices_gives_the_same_game(game_id, modules):
    """Same seed + same choices = same game: replay a random game's choices by label."""
    from silvics import games
    from silvics.interpreter.agents import ScriptedAgent, play_on
    from silvics.interpreter.game import Game
    ir = games.load(game_id)
    original = play_random(ir, 3, 77, modules)
    answers = {seat: [] for seat in range(3)}
    for line in original.log:
        if line.startswith("choice P"):
            seat = int(line.split()[1][1:]) - 1
            answers[seat].append(line.rsplit(": ", 1)[1])
    agents = [ScriptedAgent(answers[seat]) for seat in range(3)]
    replay = Game(ir, 3, 77, modules)
    play_on(replay, agents)
    assert "\n".join(replay.log).encode() == "\n".join(original.log).encode()
    assert replay.state.scores == original.state.scores


@pytest.mark.parametrize("game_id", ["four-forests", "reforest", "forest-shuffle", "renature"])
def test_play_on_draws_the_random_agents_picks_as_their_choose_would(game_id):
    """play_on draws a random agent's pick without an observation (the agent reads only the
    number of options); a game decided through each agent's `choose`, observation and all, is
    the same game, choice by choice and line by line. A subclass of the random agent is asked
    through `choose` (it may read more): its log is the same too."""
    from silvics import games
    from silvics.interpreter.agents import RandomAgent, decide, play_on
    from silvics.interpreter.game import Game

    class Asked(RandomAgent):
        asked = 0

        def choose(self, observation):
            Asked.asked += 1
            return super().choose(observation)

    ir = games.load(game_id)
    for seed in range(3):
        drawn, decided, subclassed = (Game(ir, 2, seed) for _ in range(3))
        play_on(drawn, [RandomAgent(seed, seat) for seat in range(2)])
        agents = [RandomAgent(seed, seat) for seat in range(2)]
        while not decided.over:
            decide(decided, agents)
        before = Asked.asked
        play_on(subclassed, [Asked(seed, seat) for seat in range(2)])
        assert Asked.asked - before == len(subclassed.state.choices) > 0
        assert drawn.state.choices == decided.state.choices == subclassed.state.choices
        assert drawn.log == decided.log == subclassed.log
