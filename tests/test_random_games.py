"""Property tests: many random games per player count run to the end, with every card in
exactly one zone after every action, and the end state the rules promise."""
import pytest

from conftest import play_random

GAMES_PER_COUNT = 1000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_cards(four_forests, players):
    for seed in range(GAMES_PER_COUNT):
        game = play_random(four_forests, players, seed)
        zones = game.state.zones
        for seat in range(players):
            assert len(zones[f"forest/{seat}"]) == 8          # 4 cultivated + the 4 left in hand
            assert zones[f"hand/{seat}"] == []
        assert len(zones["pruned"]) == 4 * players
        assert sum(len(v) for k, v in zones.items() if k.startswith("votes/")) == 4 * players
        assert len(zones["creatures"]) == 4


def test_first_player_is_chosen_at_random(four_forests):
    """Setup 2: the first player token goes to "the person who most recently watered a plant":
    the rules draw the seat with the game's seeded generator, so every seat can start."""
    from silvics.interpreter.game import Game
    firsts = {Game(four_forests, 4, seed).state.markers["first"] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


@pytest.mark.parametrize("modules", [["experienced"], ["first-game"], ["experienced", "first-game"]])
def test_modules_play_through(four_forests, modules):
    for seed in range(100):
        play_random(four_forests, 3, seed, modules)



def test_market_test_game_plays_through():
    """The test game for counters, refills, one-of turns and until-loops."""
    from pathlib import Path

    from silvics import games
    ir = games.load(str(Path(__file__).parent / "fixtures" / "games" / "market"))
    for players in (1, 2, 3):
        for seed in range(100):
            game = play_random(ir, players, seed)
            assert sum(len(game.state.zones.get(f"stall/{s}", [])) for s in range(players)) \
                + len(game.state.zones.get("discard", [])) == 6


def test_grove_test_game_plays_through():
    """The test game for grids of stacks and adjacency."""
    from pathlib import Path

    from silvics import games
    ir = games.load(str(Path(__file__).parent / "fixtures" / "games" / "grove"))
    for players in (1, 2):
        for seed in range(100):
            game = play_random(ir, players, seed)
            planted = [k for k, pile in game.state.zones.items() if k.startswith("region:") and pile]
            assert planted and all(k.rsplit("/", 1)[1] in {str(s) for s in range(players)} for k in planted)
