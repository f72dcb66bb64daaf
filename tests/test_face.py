"""Shortcuts taken for speed must not change a value: a condition on the printed face of the card
in view, run as a test of the face (primitives.expressions.on_face), against the same condition
run as an expression; and cards moved together in one pass against the same cards moved one by one."""
import random

import pytest

from silvics import games
from silvics.compiler.build import compile_game
from silvics.interpreter.game import Game, compiled_rules
from silvics.interpreter.ir import Node
from silvics.interpreter.primitives.expressions import on_face
from silvics.interpreter.state import State

CONDITIONS = [
    "kind = gem", "kind != gem", "size >= 3", "size < 3", "weight > 2", "weight <= 2",   # weight: on some cards only
    "colour in [red, blue]", "colour in [size, red]", "marks has star", "not marks has star",
    "count(marks) = 0", "count(marks) > 1", "size + 1 = 4", "size * weight > 5", "size - weight < 0",
    "size / 2 = 1", "size > 2 and colour = red", "size > 2 or colour = red",
    "size > 2 and colour = red and marks has moon", "size = 1 or size = 3 or weight = 2", "side = dark",
    "name = ruby", "id != ruby", "(kind = gem or size > 4) and not weight = 1",
]

RULES = """
id: faces
name: Faces
players: {min: 1, max: 1}
cards: [cards.yaml]
kinds:
  gem:
    sides: [light, dark]
    attributes:
      size: {type: int}
      weight: {type: int, optional: true}
      colour: {type: enum, values: [red, blue, green]}
      marks: {type: set, values: [star, moon]}
zones:
  pile: {visibility: public}
procedures:
  setup:
%s
  play: []
  scoring: []
"""

CARDS = """
kind: gem
cards:
  - {id: ruby, sides: {light: {name: Ruby, size: 3, weight: 2, colour: red, marks: [star, moon]}, dark: {name: Ruby, size: 1, colour: blue, marks: []}}}
  - {id: opal, sides: {light: {name: Opal, size: 2, colour: green, marks: [moon]}, dark: {name: Opal, size: 5, weight: 1, colour: red, marks: [star]}}}
  - {id: jade, sides: {light: {name: Jade, size: 4, weight: 3, colour: blue, marks: []}, dark: {name: Jade, size: 3, weight: 0, colour: green, marks: [star]}}}
"""


def nodes(value):
    """Every IR node in a value (procedures, card attributes, definition bodies), once each."""
    seen, stack = set(), [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Node):
            if id(item) not in seen:
                seen.add(id(item))
                yield item
                stack.extend(item.args.values())
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


def face_conditions(ir):
    """The conditions a `where` asks of each card that are tests of its face."""
    parts = [*ir.procedures.values(), *ir.interrupts,
             *(side.attributes for card in ir.cards for side in card.sides)]
    return [node.args["cond"] for node in nodes(parts) if node.op == "where" and on_face(node.args["cond"])]


def agree(ir, conditions):
    """Each condition, on every card and side, as an expression and as a test of the face."""
    rules = compiled_rules(ir)
    game = Game(rules, ir.min_players, start=False)
    game.state.stamps.clear()
    compared = 0
    for condition in conditions:
        expression, test = rules.build(condition), on_face(condition)
        for uid in range(len(game.rules.defs)):
            for side in range(len(game.rules.defs[uid].sides)):
                game.state.side[uid] = side
                assert test(game.rules.faces[uid][side]) == expression(game, {"it": uid}), (condition, uid, side)
                compared += 1
    return compared


def test_every_form_on_the_face_agrees_with_its_expression(tmp_path):
    steps = "".join(f"    - move box where {text} to pile\n" for text in CONDITIONS)
    (tmp_path / "game.yaml").write_text(RULES % steps)
    (tmp_path / "cards.yaml").write_text(CARDS)
    ir = compile_game(tmp_path)
    conditions = face_conditions(ir)
    assert len(conditions) == len(CONDITIONS)           # each one is a test of the face
    assert agree(ir, conditions) == len(CONDITIONS) * 3 * 2


@pytest.mark.parametrize("game_id", ["four-forests", "reforest"])
def test_the_bundled_games_conditions_on_the_face_agree(game_id):
    ir = games.load(game_id)
    printed = [value for card in ir.cards for side in card.sides for value in side.attributes.values()
               if isinstance(value, Node) and on_face(value)]       # e.g. Four Forests' creatures' prefers
    assert agree(ir, face_conditions(ir) + printed)


def test_cards_moved_together_end_as_moved_one_by_one():
    rng = random.Random(7)
    for _ in range(300):
        together, one_by_one = State.new(1, list(range(40)), 0), State.new(1, list(range(40)), 0)
        for _ in range(6):
            origin = rng.choice(list(together.zones))
            pile = together.zones[origin]
            uids = rng.sample(pile, rng.randint(0, min(len(pile), 12))) + rng.sample(range(40), rng.randint(0, 3))
            to = rng.choice(["a", "b", "c", origin])
            options = {"facedown": rng.choice([None, True, False]), "placer": rng.randint(-1, 2),
                       "bottom": rng.random() < 0.3}
            together.move_cards(uids, to, **options)
            for uid in uids:
                one_by_one.move(uid, to, **options)
            assert (together.zones, together.location, together.facedown, together.placer) == \
                   (one_by_one.zones, one_by_one.location, one_by_one.facedown, one_by_one.placer)
            assert not together.conservation_errors()
