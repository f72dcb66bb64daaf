"""The one registry: every primitive is fully declared, and the pieces built from it agree."""
import re

import pytest

from silvics.compiler.parse import parser
from silvics.interpreter.ir import Node
from silvics.interpreter.registry import KINDS, REGISTRY, TYPES, load_all, prepositions

PRIMITIVES = sorted(load_all())


@pytest.mark.parametrize("name", PRIMITIVES)
def test_every_primitive_is_fully_declared(name):
    primitive = REGISTRY[name]
    assert callable(primitive.handler)
    assert primitive.kind in KINDS
    assert primitive.template and primitive.doc and primitive.example
    declared = {param.name for param in primitive.params} | {"count"}   # move's number-or-all form
    holes = set(re.findall(r"\{(\w+)\}", primitive.template))
    assert holes <= declared, f"template holes without a parameter: {holes - declared}"
    assert all(param.type in TYPES for param in primitive.params)


@pytest.mark.parametrize("name", [n for n in PRIMITIVES if REGISTRY[n].kind == "action"])
def test_action_examples_parse_as_statements(name):
    tree = parser().parse(REGISTRY[name].example, start="start_statement")
    assert str(tree.children[0].children[0]) == name


def test_grammar_keywords_come_from_the_registry():
    terminals = {t.name: t for t in parser().terminals}
    pattern = terminals["PREP"].pattern.value
    for prep in prepositions():
        assert prep in pattern
    assert set(prepositions()) >= {"from", "to", "face", "by", "as", "with", "per"}


def _ops(value):
    if isinstance(value, Node):
        yield value.op
        for child in value.args.values():
            yield from _ops(child)
    elif isinstance(value, tuple):
        for item in value:
            yield from _ops(item)


def test_compiled_game_uses_only_registered_primitives(four_forests):
    used = set()
    for body in four_forests.procedures.values():
        used |= set(_ops(body))
    for card in four_forests.cards:
        for side in card.sides:
            used |= set(_ops(tuple(side.attributes.values())))
    assert used <= set(REGISTRY), used - set(REGISTRY)
    assert {"choose", "each_player", "rank", "score", "move"} <= used
