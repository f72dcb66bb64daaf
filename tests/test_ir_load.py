"""An IR file is untrusted input: loading checks all of it before anything runs, and each
malformed file gives one clear error naming its place (a JSON path), never a traceback."""
import copy
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from silvics import bundled, games
from silvics.cli import main
from silvics.interpreter import ir, irchecks
from silvics.interpreter.game import Game
from silvics.interpreter.ir import IRError
from silvics.interpreter.registry import load_all

NEGATE = '{"$":"Node","op":"negate","args":{"item":'
FALSE = '{"$":"Node","op":"const","args":{"value":false},"span":null}'


@pytest.fixture(scope="module")
def data(four_forests):
    """Four Forests' IR as JSON data, to spoil a copy of."""
    return json.loads(ir.dumps(four_forests))


def places(data, path=""):
    """(JSON path, value) of every value in the data, in document order."""
    found, stack = [], [(path, data)]
    while stack:
        where, value = stack.pop()
        found.append((where, value))
        items = (value.items() if isinstance(value, dict) else
                 ((f"[{i}]", v) for i, v in enumerate(value)) if isinstance(value, list) else ())
        stack += reversed([(f"{where}.{key}".lstrip(".") if not key.startswith("[") else where + key, item)
                           for key, item in items])
    return found


def first(data, test):
    """(path, value) of the first object that passes the test."""
    return next((where, value) for where, value in places(data) if isinstance(value, dict) and test(value))


def node(op):
    return lambda value: value.get("$") == "Node" and value["op"] == op


def load_error(text: str) -> str:
    with pytest.raises(IRError) as caught:
        ir.loads(text)
    return str(caught.value)


def spoiled(data, spoil) -> tuple[str, str]:
    """A copy of the data spoilt by `spoil` (which returns the path it spoilt) as text, and that path."""
    copied = copy.deepcopy(data)
    where = spoil(copied)
    return json.dumps(copied), where


# ---- malformed files: the message and where ------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("[]", "an IR file holds one JSON object (a GameIR), not a list"),
    ("null", "an IR file holds one JSON object (a GameIR), not null"),
    ("{}", 'no "version" (this silvics reads IR version 3)'),
    (f'{{"version": {ir.IR_VERSION}}}', '["$"]: should be a GameIR object ("$": "GameIR"), not null'),
    (f'{{"version": {ir.IR_VERSION}, "$": "GameIR"}}', "GameIR needs its field 'cards'"),
    ("", "not JSON: Expecting value at line 1, column 1 (the file ends too soon: truncated?)"),
])
def test_what_is_not_a_game_ir_is_refused(text, message):
    assert load_error(text) == message.replace("version 3", f"version {ir.IR_VERSION}")


def test_a_truncated_file(data):
    text = json.dumps(data)
    assert load_error(text[:len(text) // 2]).endswith("(the file ends too soon: truncated?)")


def test_another_version(data):
    text, _ = spoiled(data, lambda d: d.update(version=99))
    assert load_error(text) == f"IR version 99 is not supported (this silvics reads version {ir.IR_VERSION})"


def spoil_move(d):
    where, move = first(d, lambda v: node("move")(v) and "to" in v["args"])
    del move["args"]["to"]
    return f"{where}.args"


def spoil_op(d):
    where, shuffle = first(d, node("shuffle"))
    shuffle["op"] = "explode"
    return f"{where}.op"


def spoil_zone(d):
    d["zones"] = [zone for zone in d["zones"] if zone["name"] != "pruned"]
    where, _ = first(d, lambda v: node("zone")(v) and v["args"]["name"] == "pruned")
    return f"{where}.args.name"


def spoil_call(d):
    where, call = first(d, node("call"))
    call["args"]["name"] = "nowhere"
    return f"{where}.args.name"


def spoil_span(d):
    where, shuffle = first(d, node("shuffle"))
    shuffle["span"] = {"@": "game.yaml line 3"}
    return f"{where}.span"


def spoil_copies(value):
    def spoil(d):
        d["cards"][2]["copies"] = value
        return "cards[2].copies"
    spoil.__name__ = f"copies {value}"
    return spoil


def spoil_players(d):
    d["max_players"] = 2
    d["min_players"] = 3
    return "min_players"


def spoil_step(d):
    where, move = first(d, lambda v: node("move")(v) and "to" in v["args"])
    move["args"]["to"] = "hand"
    return f"{where}.args.to"


def spoil_word(d):
    where, move = first(d, lambda v: node("move")(v) and "face" in v["args"])
    move["args"]["face"] = "sideways"
    return f"{where}.args.face"


@pytest.mark.parametrize("spoil, message", [
    (spoil_move, "move needs to"),
    (spoil_op, 'no primitive "explode" in this interpreter'),
    (spoil_zone, "no zone 'pruned' is declared"),
    (spoil_call, "no procedure 'nowhere' in the rules or any module"),
    (spoil_span, 'should be a span, {"@": "file:line:col"}, not {"@": "game.yaml line 3"}'),
    (spoil_copies(-1), "should be from 1 to 1000, not -1"),
    (spoil_copies(10**9), "should be from 1 to 1000, not 1000000000"),
    (spoil_copies(1e9), "should be a whole number, not a decimal number (1000000000.0)"),
    (spoil_copies(True), "should be a whole number, not true or false"),
    (spoil_players, "3 is more than max_players (2)"),
    (spoil_step, 'should be an expression, not a string ("hand")'),
    (spoil_word, 'should be one of down, up, not a string ("sideways")'),
], ids=lambda p: getattr(p, "__name__", None))
def test_each_problem_is_named_with_its_place(data, spoil, message):
    text, where = spoiled(data, spoil)
    assert load_error(text) == f"{where}: {message}"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_not_a_number_is_refused(data, constant):
    text = json.dumps(data).replace('"max_players": 4', f'"max_players": {constant}', 1)
    assert load_error(text) == f"max_players: should be a whole number, not {constant}"


def deep(levels: int) -> str:
    """A condition `not not … false`, `levels` nots deep."""
    return NEGATE * levels + FALSE + "},\"span\":null}" * levels


def with_extra_step(data, condition: str) -> str:
    """The game with a last scoring step `if CONDITION: (nothing)`."""
    copied = copy.deepcopy(data)
    copied["procedures"]["scoring"]["args"]["steps"].append("EXTRA")
    step = ('{"$":"Node","op":"when","args":{"cond":' + condition
            + ',"then":{"$":"Node","op":"block","args":{"steps":[]},"span":null}},"span":null}')
    return json.dumps(copied).replace('"EXTRA"', step)


def test_ten_thousand_levels_deep_is_refused_without_a_recursion_error(data):
    message = load_error(with_extra_step(data, deep(10_000)))
    assert message.startswith(f"nested more than {irchecks.MAX_DEPTH} levels deep, at line 1, column ")


def test_nesting_is_bounded_where_json_allows_it(data):
    message = load_error(with_extra_step(data, deep(300)))
    assert message.startswith("procedures.scoring.args.steps[")
    assert message.endswith(f".args.item: nested more than {irchecks.MAX_DEPTH} levels deep")
    assert " more … " in message and len(message) < 300          # the path's middle left out


def test_the_deepest_file_allowed_loads_builds_and_runs(data):
    """procedures.scoring.args.steps[N] is 4 levels deep; the `when` node, its args and each `not`
    (a node and its args) 2 more each; the last `false` and its args 2 more."""
    levels = (irchecks.MAX_DEPTH - 4 - 2 - 2) // 2
    loaded = ir.loads(with_extra_step(data, deep(levels)))
    game = Game(loaded, 2, seed=1)
    while not game.over:
        game.apply(0)
    with pytest.raises(IRError, match="nested more than"):
        ir.loads(with_extra_step(data, deep(levels + 1)))


def with_bodies(data, bodies: dict, condition: str) -> str:
    """The game with more definition bodies, and a last scoring step with this condition."""
    copied = copy.deepcopy(data)
    copied["definition_bodies"].update({str(variant): json.loads(body) for variant, body in bodies.items()})
    return with_extra_step(copied, condition)


def test_a_missing_definition_body(data):
    message = load_error(with_bodies(data, {}, '{"$body": 907}'))
    assert message.startswith("procedures.scoring.args.steps[")
    assert message.endswith("].args.cond: no definition body 907 in definition_bodies")


def test_a_definition_body_that_uses_itself(data):
    looping = NEGATE + '{"$body": 907}},"span":null}'
    message = load_error(with_bodies(data, {907: looping}, '{"$body": 907}'))
    assert message == 'definition_bodies["907"].args.item: definition body 907 uses itself'


def test_nesting_counts_through_definition_bodies(data):
    """Each body is well within the limit; used one inside the other, they are not."""
    inner = deep(60)
    outer = NEGATE * 60 + '{"$body": 901}' + "},\"span\":null}" * 60
    assert ir.loads(with_bodies(data, {901: inner}, '{"$body": 901}'))
    message = load_error(with_bodies(data, {901: inner, 902: outer}, '{"$body": 902}'))
    assert message.endswith(f"nested more than {irchecks.MAX_DEPTH} levels deep")


def test_a_shared_body_decodes_to_one_object():
    reforest = ir.loads(ir.dumps(games.load("reforest")))
    uses = [value.args["body"] for _, value in places_of_nodes(reforest) if value.op == "let_in"]
    by_variant = {}
    for use in uses:
        by_variant.setdefault(id(use), use)
    assert len(by_variant) < len(uses)


def places_of_nodes(game):
    stack = [("", procedure) for procedure in game.procedures.values()]
    while stack:
        where, value = stack.pop()
        if isinstance(value, ir.Node):
            yield where, value
            stack += [(where, part) for part in value.args.values()]
        elif isinstance(value, tuple):
            stack += [(where, part) for part in value]


@pytest.mark.parametrize("spoil, message", [
    (lambda d: d["zones"][0].update({"$": "Bogus"}) or 'zones[0]["$"]',
     'should be a ZoneDecl object ("$": "ZoneDecl"), not a string ("Bogus")'),
    (lambda d: d["zones"][0].update(colour="red") or "zones[0].colour", "ZoneDecl has no field 'colour'"),
    (lambda d: d.update(name=5) or "name", "should be a string, not a whole number (5)"),
    (lambda d: d["cards"][0].update(kind="dragon") or "cards[0].kind", "no kind 'dragon' is declared"),
    (lambda d: d["procedures"].pop("setup") and d.pop("vocabulary") and "procedures",    # (whose phrases name it)
     "the rules need a procedure 'setup'"),
    (lambda d: d["marks"][0].update(within="nowhere") or "marks[0].within", "no zone 'nowhere' is declared"),
    (lambda d: d["zones"].append(d["zones"][0]) or f"zones[{len(d['zones']) - 1}]", "'deck' is declared twice"),
    (lambda d: d["cards"][1].update(id=d["cards"][0]["id"]) or "cards[1].id", "card 'barberry' is defined twice"),
], ids=["class tag", "unknown field", "wrong type", "unknown kind", "no setup", "within", "zone twice", "card twice"])
def test_the_tables_are_checked(data, spoil, message):
    text, where = spoiled(data, spoil)
    assert load_error(text) == f"{where}: {message}".replace("barberry", data["cards"][0]["id"])


# ---- what the handlers read: a file that loads builds -------------------------------------------

def node_json(op: str, /, **args) -> dict:
    return {"$": "Node", "op": op, "args": args, "span": None}


CONST = node_json("const", value=1)
IT = node_json("var", name="it")


def with_step(data, step: dict) -> tuple[str, str]:
    """The game with one more scoring step; the text and the step's path."""
    copied = copy.deepcopy(data)
    steps = copied["procedures"]["scoring"]["args"]["steps"]
    steps.append(step)
    return json.dumps(copied), f"procedures.scoring.args.steps[{len(steps) - 1}]"


@pytest.mark.parametrize("step, where, message", [
    (node_json("add", amount=CONST, to=node_json("mark", of=IT, name="stance", default=0)), ".args.to",
     "should be counter, not mark"),
    (node_json("move", count=CONST, to=node_json("zone", name="deck", per="shared")), ".args",
     "move with count needs from"),
    (node_json("when", cond=node_json("compare", op="^", left=CONST, right=CONST),
               then=node_json("block", steps=[])), ".args.cond.args.op",
     'should be "=" or "!=" or "<" or "<=" or ">" or ">=", not a string ("^")'),
    (node_json("may", body=node_json("call", name="setup"), prompt="?"), ".args.body",
     "should be a block of steps, not call"),
    (node_json("may_each", loops=node_json("block", steps=[node_json("call", name="setup")]), prompt="?"),
     ".args.loops.args.steps[0]", "should be for: steps, not call"),
    (node_json("let", var=["a"], value=CONST), ".args.var", "should be a string, not a list"),
    (node_json("let", value=CONST), ".args", "let needs var"),
    (node_json("choose", var="c", **{"from": node_json("zone", name="deck", per="shared")}), ".args",
     "choose needs cards, players, prompt (which the compiler writes)"),
    (node_json("shuffle", zone=node_json("zone", name="hand", per="shared")), ".args.zone.args.per",
     "hand is declared per player, not per shared"),
    (node_json("block", steps=[CONST]), ".args.steps[0].op", "const is not a step (an action or flow)"),
    (node_json("shuffle", zone=node_json("block", steps=[])), ".args.zone.op", "block is not an expression"),
], ids=["add to a mark", "count without from", "unknown operator", "may without a block", "loops not for steps",
        "name as a list",
        "missing part", "compiler's parts", "per", "expression as a step", "step as an expression"])
def test_parts_are_what_their_handlers_read(data, step, where, message):
    text, path = with_step(data, step)
    assert load_error(text) == f"{path}{where}: {message}"


def test_the_box_is_declared(data):
    text, _ = spoiled(data, lambda d: d.update(zones=[z for z in d["zones"] if z["name"] != "box"]))
    assert load_error(text) == "zones: no zone 'box' is declared (where every card starts)"


def test_a_number_too_long_to_read(data):
    text = json.dumps(data).replace('"max_players": 4', '"max_players": ' + "9" * 5000, 1)
    assert load_error(text).startswith("not readable: Exceeds the limit (4300 digits)")


def test_the_operators_are_the_handlers():
    from silvics.interpreter.primitives.expressions import _ARITH, _COMPARE  # the operators each builds
    assert irchecks._AS_WRITTEN["compare", "op"].schema["enum"] == list(_COMPARE)
    assert irchecks._AS_WRITTEN["arith", "op"].schema["enum"] == list(_ARITH)


# ---- the command line ------------------------------------------------------------------------------

def test_play_names_the_file_and_the_place(data, tmp_path, capsys):
    text, where = spoiled(data, spoil_move)
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert main(["play", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err == f"silvics: game {path}\nsilvics: error: {path} is not a valid silvics IR file: {where}: move needs to\n"


def test_play_a_deeply_nested_file_exits_2_without_a_traceback(data, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(with_extra_step(data, deep(10_000)))
    result = subprocess.run([sys.executable, "-m", "silvics", "play", str(path), "--quiet"],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.startswith(f"silvics: game {path}\n"
                                    f"silvics: error: {path} is not a valid silvics IR file: nested more than")
    assert "Traceback" not in result.stderr


# ---- good files ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", ["four-forests", "reforest"])
def test_every_bundled_game_with_each_module_round_trips_through_the_checks(game_id):
    compiled = games.load(game_id)
    for modules in [(), *((name,) for name in compiled.modules)]:
        layered = compiled.with_modules(modules)
        assert ir.loads(ir.dumps(layered)) == layered, modules


def test_loading_stays_fast():
    """Checked decoding takes a few times what json's own parse of the text takes (Reforest:
    about 6 times, 15 ms; the unchecked decoder took 12): never more than linear in the file."""
    text = ir.dumps(games.load("reforest"))
    ir.loads(text)
    checked = min(_timed(ir.loads, text) for _ in range(5))
    parsed = min(_timed(json.loads, text) for _ in range(5))
    assert checked < 15 * parsed


def _timed(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def test_the_checks_know_every_field_of_every_ir_class():
    from dataclasses import fields
    for name, table in irchecks.FIELDS.items():
        assert set(table) == {f.name for f in fields(getattr(ir, name))}, name


def test_every_part_type_has_a_shape():
    load_all()
    from silvics.interpreter.registry import TYPES
    assert set(irchecks._PARTS) <= set(TYPES)


# ---- the published JSON Schema ----------------------------------------------------------------------

SCHEMA = bundled.folder("schemas") / "ir.schema.json"


@pytest.fixture(scope="module")
def validator():
    from jsonschema import Draft202012Validator
    schema = json.loads(SCHEMA.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_the_published_schema_is_made_from_the_loaders_tables():
    from silvics.interpreter.irschema import ir_schema
    assert json.loads(SCHEMA.read_text()) == ir_schema(), \
        "schemas/ir.schema.json is stale: python -m silvics.interpreter.irschema > schemas/ir.schema.json"


def test_the_schema_names_every_primitive(validator):
    defs = validator.schema["$defs"]
    assert set(defs["node"]["properties"]["op"]["enum"]) == set(load_all())
    assert {f"args of {op}" for op in load_all()} <= set(defs)


@pytest.mark.parametrize("game_id", ["four-forests", "reforest"])
def test_bundled_games_ir_meets_the_schema(validator, game_id):
    validator.validate(json.loads(ir.dumps(games.load(game_id))))


@pytest.mark.parametrize("spoil", [spoil_move, spoil_op, spoil_copies(-1), spoil_copies(1e9), spoil_step,
                                   spoil_word, spoil_span])
def test_the_schema_refuses_what_the_loader_refuses_at_the_same_place(validator, data, spoil):
    text, where = spoiled(data, spoil)
    assert {error.json_path for error in validator.iter_errors(json.loads(text))} == {f"$.{where}"}


# ---- spoilt at random ---------------------------------------------------------------------------------

SPOILERS = [None, True, 0, -1, 7, "", "x", "deck", "hand", "first", "=", [], {}, [1], ["a"], 2.5]


def spoil_at_random(data, rnd: random.Random) -> dict:
    """A copy with one value deleted or replaced by a literal or by another node of the file."""
    copied = copy.deepcopy(data)
    values = [value for _, value in places(copied)]
    found = [(parent, key) for parent in values if isinstance(parent, (dict, list))
             for key in (parent if isinstance(parent, dict) else range(len(parent)))]
    nodes = [value for value in values if isinstance(value, dict) and value.get("$") == "Node"]
    parent, key = rnd.choice(found)
    roll = rnd.random()
    if isinstance(parent, dict) and roll < 0.25:
        del parent[key]
    else:
        parent[key] = copy.deepcopy(rnd.choice(nodes) if roll < 0.6 else rnd.choice(SPOILERS))
    return copied


def test_a_file_that_loads_builds(data):
    """Spoilt at random, a file either fails to load with an IRError or builds with every module."""
    from silvics.interpreter.game import Rules
    loaded = 0
    for seed in range(100):
        try:
            game = ir.loads(json.dumps(spoil_at_random(data, random.Random(seed))))
        except IRError:
            continue
        loaded += 1
        for modules in [(), *((name,) for name in game.modules)]:
            Rules(game.with_modules(modules))
    assert loaded


def test_a_map_too_large_or_named_twice_is_refused():
    from silvics.compiler.build import compile_game
    pond = json.loads(ir.dumps(compile_game(Path(__file__).parent / "fixtures" / "games" / "pond")))
    board = pond["zones"][0]
    board["map"] = board["map"] + [board["map"][0]]
    with pytest.raises(ir.IRError, match=r"zones\[0\].map\[31\]: space r1.2 is on the map twice"):
        ir.loads(json.dumps(pond))
    board["map"] = [{"$": "SpaceDef", "row": "r1", "column": c, "attributes": {}} for c in range(1, 1001)] * 11
    with pytest.raises(ir.IRError, match="a map of more than 10,000 spaces"):
        ir.loads(json.dumps(pond))
