"""Engine guarantees that no single game's rules exercise: runaway loops and bad choices."""
from pathlib import Path

import pytest

from silvics import games
from silvics.interpreter.game import Game, GameError

FIXTURES = Path(__file__).parent / "fixtures" / "games"


def test_a_rule_that_loops_forever_stops_with_an_error_naming_it():
    ir = games.load(str(FIXTURES / "forever"))
    with pytest.raises(GameError, match=r"step budget .* exhausted.*game.yaml:1[45]:7"):
        Game(ir, 1, 0)


def test_an_illegal_option_is_refused_and_changes_nothing(four_forests):
    game = Game(four_forests, 2, 0)
    before = game.state.copy()
    with pytest.raises(ValueError, match="not one of the"):
        game.apply(len(game.pending.options))
    assert game.state.zones == before.zones and game.pending is not None


def test_copies_are_independent(four_forests):
    game = Game(four_forests, 3, 0)
    twin = game.copy()
    twin.apply(0)
    assert game.state.zones != twin.state.zones
    assert game.pending.options == Game(four_forests, 3, 0).pending.options


def test_effects_printed_on_cards_are_checked_where_they_are_written(tmp_path):
    import shutil

    from silvics.compiler.build import compile_game
    from silvics.compiler.diagnostics import CompileError
    game = tmp_path / "market"
    shutil.copytree(FIXTURES / "market", game)
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace('"add 2 to coins"', '"ad 2 to coins"'))
    with pytest.raises(CompileError) as failure:
        compile_game(game)
    [diagnostic] = failure.value.diagnostics
    assert (diagnostic.code, diagnostic.line, diagnostic.col) == ("E0401", 13, 14)
    assert "did you mean 'add'?" in diagnostic.hint


@pytest.mark.parametrize("statement, message", [
    ("score 1 per region", "'per' expects cards, got spaces"),
    ("score count(region where it.height > 1)", "a space has no 'height'"),
])
def test_spaces_are_not_cards(tmp_path, statement, message):
    import shutil

    from silvics.compiler.build import compile_game
    from silvics.compiler.diagnostics import CompileError
    game = tmp_path / "grove"
    shutil.copytree(FIXTURES / "grove", game)
    rules = game / "game.yaml"
    rules.write_text(rules.read_text().replace("        - score count(cards(region) where face = down)",
                                               f"        - {statement}"))
    with pytest.raises(CompileError) as failure:
        compile_game(game)
    assert message in failure.value.diagnostics[0].message


def test_nothing_propagates_through_arithmetic_and_marks(four_forests):
    from silvics.interpreter.ir import Node
    game = Game(four_forests, 2, 0, start=False)
    empty_top = Node("top", {"zone": Node("zone", {"name": "pruned", "per": "shared"})})
    value = Node("attr", {"of": empty_top, "name": "value"})
    plus_one = game.rules.build(Node("arith", {"op": "+", "left": value, "right": Node("const", {"value": 1})}))
    token = game.rules.build(Node("mark", {"of": empty_top, "name": "token", "default": 0}))
    assert plus_one(game, {}) is None
    assert token(game, {}) == 0


def test_steps_inside_a_printed_effect_are_schema_checked(tmp_path):
    import shutil

    from silvics.compiler.build import compile_game
    from silvics.compiler.diagnostics import CompileError
    game = tmp_path / "market"
    shutil.copytree(FIXTURES / "market", game)
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("      - if: subject.price >= 2", "      - iff: subject.price >= 2"))
    with pytest.raises(CompileError) as failure:
        compile_game(game)
    [diagnostic] = failure.value.diagnostics
    assert (diagnostic.code, diagnostic.line) == ("E0201", 9)
    assert "is not a step" in diagnostic.message
