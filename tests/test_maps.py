"""Boards as data: grids laid out by map files, space attributes, drawings and tiebreaks, on the
test game Pond (tests/fixtures/games/pond; its scenarios are in tests/scenarios/pond)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from silvics.compiler.build import compile_game
from silvics.compiler.diagnostics import CompileError
from silvics.interpreter import ir as irmod
from silvics.interpreter.agents import make_agent, play_on
from silvics.interpreter.game import Game
from silvics.scenarios import build, read

from conftest import play_random, run_cli

POND = Path(__file__).parent / "fixtures" / "games" / "pond"


@pytest.fixture(scope="module")
def pond():
    return compile_game(POND)


def played(ir, seed, modules=()):
    return play_random(ir, 2, seed, modules)


def play_random_from(game, seed):
    agents = [make_agent("random", seed, seat) for seat in range(2)]
    for name in ("setup", "play", "scoring"):
        game.start_procedure(name)
        play_on(game, agents)
    assert game.over and not game.state.conservation_errors()


def test_a_map_lays_out_only_its_spaces(pond):
    game = Game(pond, 2, 1)
    spaces = game.rules.grid_spaces("board", None)
    assert len(spaces) == 31                                    # 5 + 7 + 7 + 7 + 5: the blanks are no space
    assert "board:r1.1" not in spaces and "board:r1.2" in spaces
    assert game.rules.bordering("board:r1.2") == ("board:r1.3", "board:r2.2")     # no r1.1, no r0
    assert game.space_value("board:r3.2", "start") == 1 and game.space_value("board:r3.3", "start") == 0   # default
    assert game.space_value("board:r2.2", "pool") == 1 and game.space_value("board:r2.2", "plant") == "none"


def test_a_module_lays_its_own_map(pond):
    game = Game(pond, 2, 1, ("flooded",))
    assert len(game.rules.grid_spaces("board", None)) == 12
    assert game.space_value("board:r1.1", "start") == 1
    assert len(Game(pond, 2, 1).rules.grid_spaces("board", None)) == 31    # the game's own, without it


def test_set_changes_a_space_for_a_copy_only(pond):
    game = Game(pond, 2, 1)
    copy = game.copy()
    copy.state.set_space("board:r3.3", "plant", "reed")
    assert copy.space_value("board:r3.3", "plant") == "reed"
    assert game.space_value("board:r3.3", "plant") == "none"


def test_an_attribute_no_rule_sets_is_read_from_the_map_and_indexed(pond):
    """`pool` is set by a dam's join, `plant` by a tile; `dam` and `start` never are: what the map
    prints is theirs for good. A filter by one goes through an index of the map, which finds what
    a look at every space finds, in the board's order, and a position reprinting a space changes
    the copy of the rules it plays by only."""
    rules = Game(pond, 2, 1).rules
    assert [rules.code.settled(name) for name in ("pool", "plant", "dam", "start")] == [False, False, True, True]
    spaces = rules.grid_spaces("board", None)
    for value in (0, 1, 2, None, "water"):
        looked = tuple(key for key in spaces if rules.printed_space(key).get("dam") == value)
        assert rules.spaces_showing("board", None, "dam", value) == looked
    assert rules.spaces_showing("board", None, "dam", 1) == ("board:r3.4",)
    assert rules.spaces_showing("board", None, "dam", [1]) == ()            # a list: looked for, no index
    reprinted = rules.reprinted({"board:r1.2": {"dam": 1}})
    assert reprinted.spaces_showing("board", None, "dam", 1) == ("board:r1.2", "board:r3.4")
    assert reprinted.printed_spaces["board:r1.2"]["ground"] == "water"    # the rest as printed
    assert rules.spaces_showing("board", None, "dam", 1) == ("board:r3.4",)
    assert rules.printed_space("board:r1.2")["dam"] == 0


@pytest.mark.parametrize("modules", [(), ("flooded",)])
def test_random_games_keep_every_tile_legal(pond, modules):
    """After every action: a space given a plant is water, and matches every plant set before its
    tile (its own tile's other half aside); each tile covers two spaces and lies in one."""
    for seed in range(30):
        game = Game(pond, 2, seed, modules, start=False)
        spaces = game.rules.grid_spaces("board", None)
        settled, pending, faults = set(), set(), []

        def watch(g):
            for key in spaces:
                if g.space_value(key, "plant") != "none" and key not in settled | pending:
                    pending.add(key)
                    if g.space_value(key, "ground") != "water":
                        faults.append(f"{key} is not water")
                    faults.extend(f"{key} beside {n}" for n in g.rules.bordering(key)
                                  if n in settled and g.space_value(n, "plant") != g.space_value(key, "plant"))
            if len(pending) == 2 and sum(len(g.state.zones.get(k, ())) for k in pending) == 1:
                settled.update(pending)
                pending.clear()                                 # the tile is down: its halves are settled
        game.on_step = watch
        play_random_from(game, seed)
        assert not faults, (seed, faults)
        assert not pending, (seed, pending)


def test_same_seed_same_log_and_the_ir_round_trips(pond):
    again = irmod.loads(irmod.dumps(pond))
    assert again == pond
    assert played(pond, 7).log == played(pond, 7).log == played(again, 7).log


def test_the_tiebreak_orders_players_tied_on_points(pond):
    game = Game(pond, 2, 1, start=False)
    game.state.scores[:] = [5, 5]
    stones = [uid for uid in game.state.zones["box"] if game.card_id(uid) == "blue-pebble"]
    game.state.move(stones[0], "stones/1")
    assert game.standings() == [(5, 0), (5, 1)]
    assert game.winners() == [1]
    game.state.scores[0] = 6
    assert game.winners() == [0]


def test_a_drawing_shows_each_space(pond):
    game = played(pond, 3)
    drawing = [line for line in game.log if line.startswith("draw board")][-1].splitlines()
    assert drawing[1].split() == [str(c) for c in range(1, 8)]
    assert [line.split()[0] for line in drawing[2:]] == ["r1", "r2", "r3", "r4", "r5"]
    assert len(drawing[3].split()) == 8                      # r2: its label and seven spaces


def built_from(folder: Path, position: str):
    """The game a Pond position file holding `position` (the lines under `position:`) lays out."""
    scenario = folder / "bad.yaml"
    scenario.write_text(f"game: {POND}\nplayers: 2\nposition:\n{position}")
    return build(read(scenario), folder)


def test_an_inline_map_is_checked_at_its_line_and_column(tmp_path):
    with pytest.raises(CompileError) as failed:
        built_from(tmp_path, """  maps:
    board:
      legend:
        "~": {ground: water, pool: many}
      rows:
        - "~?"
""")
    rendered = failed.value.render()
    assert "bad.yaml:7:36: error[E0402]: 'pool' is a whole number, not 'many'" in rendered
    assert "bad.yaml:9:13: error[E0401]: '?' is not in the legend" in rendered


def test_a_position_sets_space_attributes_by_their_declared_type(tmp_path):
    from silvics.position import PositionError
    with pytest.raises(PositionError, match="plant cannot be 'rose'; it is one of: none, reed, lily"):
        built_from(tmp_path, '  spaces:\n    "board:r3.3": {plant: rose}\n')


def test_score_lists_points_under_labelled_headings(tmp_path, monkeypatch):
    position = tmp_path / "end.yaml"
    position.write_text(f"""game: {POND}
players: 2
position:
  counters: {{hue@1: 1, hue@2: 2}}
  zones:
    "board:r2.2": [red-rock]
    "board:r2.5": [blue-rock]
    "board:r4.6": [red-pebble]
""")
    monkeypatch.chdir(POND.parent)                      # the game named from here, the file elsewhere
    status, out, err = run_cli("score", "pond", str(position))
    assert status == 0, err
    assert out.split("\n")[:6] == ["P1", "  pool 1                          2", "  total                           2",
                                   "P2", "  pool 2                          3", "  total                           3"]


def test_an_optional_space_attribute_leaves_a_card_attribute_of_its_name_required(tmp_path):
    """`spaces:` and `kinds:` may share an attribute name; what spaces may leave out, cards may not."""
    shutil.copytree(POND, tmp_path / "pond")
    rules = tmp_path / "pond" / "game.yaml"
    rules.write_text(rules.read_text()
                     .replace("      colour: {type: enum, values: [red, blue]}",
                              "      colour: {type: enum, values: [red, blue]}\n      depth: {type: int}")
                     .replace("spaces:\n", "spaces:\n  depth: {type: int, optional: true}\n"))
    status, out, err = run_cli("check", str(tmp_path / "pond"))
    assert status == 1 and "this stone has no 'depth'" in err, err


@pytest.mark.parametrize("game, written, wrong, message", [
    (POND, "set a.plant to tile.first", "set a.plant to water", "'plant' cannot be 'water'"),   # a space's
    (Path(__file__).parent.parent / "rules" / "renature", "set m.animal to butterfly", "set m.animal to meadow",
     "'animal' cannot be 'meadow'"),                                                            # a card's mark
])
def test_a_word_set_is_one_of_the_declared_values(tmp_path, game, written, wrong, message):
    copied = tmp_path / "game"
    shutil.copytree(game, copied)
    rules = copied / "game.yaml"
    assert written in rules.read_text()
    rules.write_text(rules.read_text().replace(written, wrong, 1))
    status, out, err = run_cli("check", str(copied))
    assert status == 1 and message in err, err
