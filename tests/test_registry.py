"""The one registry: every primitive is fully declared, the pieces built from it agree, and a
new primitive of each kind works everywhere from its declaration alone."""
import re
import textwrap

import pytest

from silvics import bundled, games
from silvics.compiler.build import compile_game
from silvics.compiler.diagnostics import CompileError
from silvics.compiler.docs import primitives_page
from silvics.compiler.english import english
from silvics.compiler.parse import parser
from silvics.interpreter.game import Game
from silvics.interpreter.ir import Node
from silvics.interpreter.registry import (KINDS, REGISTRY, TYPES, Param, ShapeError, check_shape, free_names,
                                          load_all, prepositions, primitive, scratch)

PRIMITIVES = sorted(load_all())


@pytest.mark.parametrize("name", PRIMITIVES)
def test_every_primitive_is_fully_declared(name):
    primitive = REGISTRY[name]
    assert callable(primitive.handler)
    assert primitive.kind in KINDS
    assert primitive.template and primitive.doc and primitive.example
    declared = {param.name for param in primitive.params}
    holes = set(re.findall(r"\{(\w+)\}", primitive.template))
    assert holes <= declared, f"template holes without a parameter: {holes - declared}"
    assert all(param.type in TYPES for param in primitive.params)
    written = [param for param in primitive.params if param.written]
    if primitive.form == "step":                      # a YAML mapping: every written part under a key
        assert primitive.spelled and all(param.key for param in written)
    if primitive.form == "call":                      # a function: every written part an argument
        assert primitive.spelled and all(param.arg for param in written)
    if primitive.form == "statement":
        assert primitive.spelled and not any(param.key or param.arg for param in written)
    for binding in primitive.binds:                   # binds inside one of its parts, or after it
        assert not binding.within or primitive.param(binding.within), binding
        assert bool(binding.name) != bool(binding.var), binding
    for role_name, parts in primitive.roles.items():  # a role is played by parts it declares
        assert all(part in declared for part in ((parts,) if isinstance(parts, str) else parts)), role_name


def test_the_published_step_schema_is_the_one_the_declarations_make():
    """Designers' editors validate steps with schemas/game.schema.json; the compiler validates
    with the step schema made from the declarations. They must be the same (regenerate the
    file with `python -m silvics.compiler.validate`), and every flow step has its branch."""
    import json

    from silvics.compiler.validate import schemas
    published = json.loads((bundled.folder("schemas") / "game.schema.json").read_text())
    assert published == schemas()["game"], "schemas/game.schema.json is stale: python -m silvics.compiler.validate"
    branches = {tuple(b["required"])[0]: set(b["properties"]) for b in published["$defs"]["step"]["oneOf"]
                if b.get("type") == "object"}
    for step in (p for p in REGISTRY.values() if p.form == "step"):
        [key] = step.spelled
        assert branches.pop(key) == {param.key for param in step.params if param.key}, key
    assert not branches, f"schema steps without a primitive: {sorted(branches)}"


@pytest.mark.parametrize("steps", [[], [""], ["draw 2", "x" * 5000, "not even: [a statement"]])
def test_the_schema_asks_nothing_more_of_statements_than_validate_block_skips(steps):
    """validate_block leaves a list of statements (strings) to the parser without asking the
    schema, which accepts any: were the schema to ask more of one (a length, a pattern, a
    first item), this fails. A list with a step written as a mapping still goes to the schema."""
    from silvics.compiler.validate import _validators, validate_block
    from silvics.compiler.yamlload import Located
    assert not list(_validators()["block"].iter_errors(steps))
    assert validate_block(steps, None, ()) == []
    [wrong] = validate_block([*steps, {"if": "true"}], Located("cards.yaml"), ("effect",))
    assert wrong.message.startswith(f"effect #{len(steps) + 1} is not a step")


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


def _nodes(value):
    if isinstance(value, Node):
        yield value
        for child in value.args.values():
            yield from _nodes(child)
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes(item)


def _ops(value):
    return (node.op for node in _nodes(value))


def _everything(ir):
    """Every node of a game: procedures, modules' replacements, interrupts, what cards print."""
    yield from _nodes(tuple(ir.procedures.values()))
    for module in ir.modules.values():
        yield from _nodes(tuple(module.procedures.values()))
    yield from _nodes(ir.interrupts)
    for card in ir.cards:
        for side in card.sides:
            yield from _nodes(tuple(side.attributes.values()))


@pytest.mark.parametrize("game", sorted(bundled.games()))
def test_every_compiled_node_has_the_shape_its_primitive_declares(game):
    for node in _everything(games.load(game)):
        check_shape(node.op, node.args)          # every part declared, every required part there


def test_a_part_the_declaration_lacks_is_a_compiler_bug():
    with pytest.raises(ShapeError, match="move has no part bogus"):
        check_shape("move", {"what": None, "to": None, "bogus": 1})
    with pytest.raises(ShapeError, match="move needs to"):
        check_shape("move", {"what": None})
    check_shape("move", {"count": None, "to": None})     # a number stands in for `what`


def test_compiled_game_uses_only_registered_primitives(four_forests):
    used = set()
    for body in four_forests.procedures.values():
        used |= set(_ops(body))
    for card in four_forests.cards:
        for side in card.sides:
            used |= set(_ops(tuple(side.attributes.values())))
    assert used <= set(REGISTRY), used - set(REGISTRY)
    assert {"choose", "each_player", "rank", "score", "move"} <= used


# ---- a new primitive of each kind, declared in a scratch registry, with nothing else touched ----

TINY = """
id: tiny
name: Tiny
players: {min: 1, max: 1}
cards: [cards.yaml]
kinds:
  chip: {attributes: {}}
counters:
  total: {start: 0}
zones:
  pile: {visibility: public}
procedures:
  setup: [move box to pile face up]
  play:
%s
  scoring: []
%s"""


def _declare_new_primitives():
    @primitive("reverse", "action", template="turn {zone} upside down", example="reverse pile",
               params=[Param("zone", "zone")])
    def reverse(node, gen):
        """Reverse the order of the cards in a pile."""
        return gen.steps("reversed_pile(game, {zone})", reversed_pile=gen.ref(reversed_pile),
                         zone=gen.code(node.args["zone"]))       # its code: a call of its runtime

    def reversed_pile(game, key):
        game.state.zones[key].reverse()
        game.state.stamp(key)                      # a change the State has no method for: say what changed
        game.note("reverse", [], game.zone_label(key))

    @primitive("doubled", "expression", template="twice {n}", example="twice(count(hand))", returns="int",
               spelled="twice", form="call", params=[Param("n", "int", arg=True)])
    def doubled(node, gen):
        """Two times a number."""
        return gen.fill("2 * {n}", n=gen.code(node.args["n"]))   # its code: parts put in, never text

    @primitive("again", "flow", template="twice[ (unless {unless})]: ({body})", example="twice: [reverse pile]",
               spelled="twice", form="step",
               params=[Param("body", "block", key="twice"), Param("unless", "bool", key="unless", required=False)])
    def again(node, build):
        """Run the steps two times over (stopping early once `unless` holds)."""
        body = build(node.args["body"])
        unless = build(node.args["unless"]) if node.args.get("unless") else None

        def run(game, frame):
            if frame.data == 2 or (unless is not None and unless(game, frame.env)):
                return game.pop()
            frame.data += 1
            body(game, frame)
        return lambda game, frame: game.push(run, frame, 0)


@pytest.fixture
def new_primitives():
    """The three primitives, in a copy of the registry dropped at the end of the test (the
    validators, whose step schema comes from the registry, are made afresh on both sides)."""
    from silvics.compiler import validate
    validate.forget()
    with scratch():
        _declare_new_primitives()
        yield
    validate.forget()


def _tiny(tmp_path, play: str, procedures: str = ""):
    (tmp_path / "game.yaml").write_text(TINY % (textwrap.indent(textwrap.dedent(play), " " * 4),
                                                textwrap.indent(textwrap.dedent(procedures), " " * 2)))
    (tmp_path / "cards.yaml").write_text("kind: chip\ncards: [{id: a}, {id: b}, {id: c}]\n")
    return compile_game(tmp_path)


def _tiny_error(tmp_path, play: str, procedures: str = "") -> str:
    with pytest.raises(CompileError) as failure:
        _tiny(tmp_path, play, procedures)
    [diagnostic] = failure.value.diagnostics
    return f"{diagnostic.code}: {diagnostic.message}"


PLAY = """
- twice:
    - add twice(count(pile)) to total
    - reverse pile
- reverse pile
"""


def test_a_new_action_function_and_flow_step_work_everywhere_from_their_declarations(tmp_path, new_primitives):
    ir = _tiny(tmp_path, PLAY)                                           # parses and type-checks
    assert english(ir.procedures["play"]) == ("twice: (add twice the number of pile to total; then turn pile "
                                              "upside down); then turn pile upside down")
    page = primitives_page()
    for name, written in (("reverse", "a statement starting with `reverse`"), ("doubled", "a function: `twice(…)`"),
                          ("again", "a flow step: `twice:`")):
        assert f"### `{name}`\n" in page and f"Written: {written}" in page
    game = Game(ir, 1, 0)                                                # runs
    assert game.over and game.state.counters["total"] == 12
    assert [game.card_id(uid) for uid in game.state.zones["pile"]] == ["c", "b", "a"]
    assert game.log.count("reverse pile") == 3


def test_a_new_primitive_given_the_wrong_type_gets_the_usual_diagnostic(tmp_path, new_primitives):
    assert _tiny_error(tmp_path, "- add twice(pile) to total") == "E0402: twice needs a number, got cards"
    assert _tiny_error(tmp_path, "- reverse 3") == "E0402: 'zone' must be a zone, got a number"
    assert _tiny_error(tmp_path, "- twice: [reverse pile]\n  unless: count(pile)") == \
        "E0402: expected a condition, got a number"


def test_the_unknown_function_hint_lists_the_registered_functions(tmp_path, new_primitives):
    with pytest.raises(CompileError) as failure:
        _tiny(tmp_path, "- add thrice(2) to total")
    hint = failure.value.diagnostics[0].hint
    assert "twice(n)" in hint and "adjacent(space)" in hint and "top(zone[, count])" in hint


def test_the_scratch_registry_leaves_nothing_behind(tmp_path):
    with scratch():
        _declare_new_primitives()
        assert {"reverse", "doubled", "again"} <= set(REGISTRY)
    assert not {"reverse", "doubled", "again"} & set(REGISTRY)
    assert "unknown action or procedure 'reverse'" in _tiny_error(tmp_path, "- reverse pile")


def test_binder_analysis_reads_the_declarations(new_primitives):
    ir = games.load("four-forests")
    for node in _everything(ir):
        if node.op == "aggregate":                    # binds its var inside expr: not free
            assert node.args["var"] not in free_names(node) - free_names(node.args["coll"])
        if node.op == "where":                        # binds it inside cond
            assert "it" not in free_names(node) - free_names(node.args["coll"])


# ---- the compiler's passes: nothing worse than linear ----

def test_each_procedure_is_lowered_once_after_its_callers(monkeypatch):
    from silvics.compiler.steps import Steps
    lowered, block = [], Steps.block

    def counting(self, at, steps, path, scope):
        if path[:1] == ("procedures",) and len(path) == 2:
            lowered.append(path[1])
        return block(self, at, steps, path, scope)
    monkeypatch.setattr(Steps, "block", counting)
    ir = compile_game(bundled.games()["reforest"].parent)
    versions = len(ir.procedures) + sum(len(m.procedures) for m in ir.modules.values())
    assert len(lowered) == versions                       # the game's and each module's version, once each


def test_procedures_calling_each_other_see_what_every_caller_binds(tmp_path):
    cycle = """
        ping:
          - if: count(pile) > 1
            then: [move 1 from pile to box, pong]
        pong: [score 1, ping]
    """
    ir = _tiny(tmp_path, "- each player: [ping]", cycle)     # both lowered with `you`, from each player
    assert Game(ir, 1, 0).state.scores == [2]
    assert _tiny_error(tmp_path, "- each player: [ping]\n- pong", cycle) == \
        "E0402: 'score' needs an acting player"               # play also calls pong without `you`


def test_a_long_sum_lowers_in_linear_time(tmp_path):
    ir = _tiny(tmp_path, "- add " + " + ".join(["count(pile)"] * 60) + " to total")
    assert Game(ir, 1, 0).state.counters["total"] == 180
