"""Shortcuts taken for speed must not change a value: conditions on the printed face of the card
in view, worked out by their generated code (interpreter/codegen.py), against the same
conditions written in Python here; and cards moved together in one pass against the same cards
moved one by one."""
import random

from silvics.compiler.build import compile_game
from silvics.interpreter.game import Game, compiled_rules
from silvics.interpreter.state import State

# each condition beside what it means, in Python, of a side's face (weight is on some sides only)
CONDITIONS = {
    "kind = gem": lambda f: True,
    "kind != gem": lambda f: False,
    "size >= 3": lambda f: f["size"] >= 3,
    "size < 3": lambda f: f["size"] < 3,
    "weight > 2": lambda f: f.get("weight") is not None and f["weight"] > 2,
    "weight <= 2": lambda f: f.get("weight") is not None and f["weight"] <= 2,
    "colour in [red, blue]": lambda f: f["colour"] in ("red", "blue"),
    "colour in [size, red]": lambda f: f["colour"] in (f["size"], "red"),
    "marks has star": lambda f: "star" in f["marks"],
    "not marks has star": lambda f: "star" not in f["marks"],
    "count(marks) = 0": lambda f: len(f["marks"]) == 0,
    "count(marks) > 1": lambda f: len(f["marks"]) > 1,
    "size + 1 = 4": lambda f: f["size"] + 1 == 4,
    "size * weight > 5": lambda f: f.get("weight") is not None and f["size"] * f["weight"] > 5,
    "size - weight < 0": lambda f: f.get("weight") is not None and f["size"] - f["weight"] < 0,
    "size / 2 = 1": lambda f: f["size"] // 2 == 1,
    "size > 2 and colour = red": lambda f: f["size"] > 2 and f["colour"] == "red",
    "size > 2 or colour = red": lambda f: f["size"] > 2 or f["colour"] == "red",
    "size > 2 and colour = red and marks has moon": lambda f: f["size"] > 2 and f["colour"] == "red" and "moon" in f["marks"],
    "size = 1 or size = 3 or weight = 2": lambda f: f["size"] in (1, 3) or f.get("weight") == 2,
    "side = dark": lambda f: f["side"] == "dark",
    "name = ruby": lambda f: f["name"] == "ruby",
    "id != ruby": lambda f: f["id"] != "ruby",
    "(kind = gem or size > 4) and not weight = 1": lambda f: f.get("weight") != 1,
}

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


def test_every_condition_on_the_face_means_what_it_says(tmp_path):
    steps = "".join(f"    - move box where {text} to pile\n" for text in CONDITIONS)
    (tmp_path / "game.yaml").write_text(RULES % steps)
    (tmp_path / "cards.yaml").write_text(CARDS)
    ir = compile_game(tmp_path)
    rules = compiled_rules(ir)
    game = Game(rules, ir.min_players, start=False)
    game.state.stamps.clear()
    conditions = [step.args["what"].args["cond"] for step in ir.procedures["setup"].args["steps"]]  # in order
    assert len(conditions) == len(CONDITIONS)
    compared = 0
    for condition, meaning in zip(conditions, CONDITIONS.values()):
        generated = rules.build(condition)
        for uid in range(len(game.rules.defs)):
            for side, face in enumerate(game.rules.faces[uid]):
                game.state.side[uid] = side
                assert bool(generated(game, {"it": uid})) == meaning(face), (condition, face)
                compared += 1
    assert compared == len(CONDITIONS) * 3 * 2


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
