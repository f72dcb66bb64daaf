"""The generator's promises (interpreter/codegen.py): text from the data only ever enters the
generated code as a constant, every identifier in it is the generator's own, the names a rule
binds cannot clash with the code's, and every bundled game's code can be read back."""
import ast
import dataclasses
import operator
import os
import re
import subprocess
import sys
import textwrap

import pytest

from silvics import bundled, games
from silvics.cli import main
from silvics.compiler.build import compile_game
from silvics.interpreter.agents import make_agent
from silvics.interpreter.game import Game, Rules, compiled_rules
from silvics.interpreter.ir import Node
from silvics.interpreter.runtime import GameError
from silvics.interpreter.state import Zone, owned_keys, parse_key, zone_key

HOSTILE = """x"); __import__("os").system("echo owned"); ("""  # a card's name, and a word of a rule

RULES = """
id: gen
name: Generated
players: {min: 1, max: 1}
cards: [cards.yaml]
kinds:
  chip:
    attributes:
      size: {type: int}
counters:
  total: {start: 0}
  named: {start: 0}
zones:
  pile: {visibility: public}
procedures:
  setup: [move box to pile face up]
  play:
%s
  scoring: []
"""

CARDS = f"""
kind: chip
cards:
  - {{id: a, name: {HOSTILE!r}, size: 2}}
  - {{id: b, name: Plain, size: 3}}
  - {{id: c, name: Other, size: 5}}
"""

# names the code may hold besides the generator's own (a word and a number: zone_2, it_14)
ALLOWED = {"game", "env", "frame", "key", "keys", "len", "HANDED", "NEXT", "FORGETTING", "any", "list", "tuple", "isinstance", "int", "str", "map", "Zone", "Span", "OwnedKeys",
           "sum", "min", "max", "filter",
           "run", "begin", "state", "stack", "i",     # a block runner's maker and its own locals (runners.py)
           "name", "passes", "value", "step", "held", "dict",  # a loop over values begins its passes itself
           "Exception"}  # what a loop's parts worked out first may raise (loops.py)
GENERATED = re.compile(r"[a-z]+(_[a-z]+)*_\d+|p\d+")


def generated(tmp_path, play: str):
    (tmp_path / "game.yaml").write_text(RULES % textwrap.indent(textwrap.dedent(play), " " * 4))
    (tmp_path / "cards.yaml").write_text(CARDS)
    ir = compile_game(tmp_path)
    return ir, compiled_rules(ir).code.source()


def compiled_tree(folder) -> tuple:
    """The game written in `folder`, compiled, and the code generated for it as an `ast` tree."""
    ir = compile_game(folder)
    return ir, ast.parse(compiled_rules(ir).code.source())


def calls_by_name(tree: ast.AST) -> list[ast.Call]:
    """The calls in generated code of a function named by the generator (`includes_12(…)`)."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]


def names_called(tree: ast.AST) -> list[str]:
    return [call.func.id for call in calls_by_name(tree)]


def names_in(source: str) -> set[str]:
    tree = ast.parse(source)
    found = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    found |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    found |= {arg.arg for node in ast.walk(tree) if isinstance(node, ast.arg) for arg in [node]}
    return found | {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    for alias in node.names}


def test_text_from_the_data_is_only_ever_a_constant(tmp_path):
    ir, source = generated(tmp_path, f"""
        - set named to count(pile where name = '{HOSTILE.replace("'", "")}')
        - set total to count(pile where name = 'Plain') + sum(c.size for c in pile where size > 2)
    """)
    tree = ast.parse(source)
    constants = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)]
    assert HOSTILE in constants                                   # the word of the rule: a constant
    assert all(name in ALLOWED or GENERATED.fullmatch(name) for name in names_in(source)), names_in(source)
    assert "system" not in {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    game = Game(ir, 1, 0)
    assert game.over and game.state.counters["named"] == 1 and game.state.counters["total"] == 1 + 8  # as text


def test_an_amount_the_same_for_every_card_is_worked_out_once(tmp_path):
    """`score N per CARDS` where N does not read the card: N is worked out once, before the cards
    are listed (no comprehension counts the pile again for each card); an amount that reads the
    card is worked out for each card, as before."""
    ir, source = generated(tmp_path, """
        - each player:
            - score count(pile) per pile where size > 2
            - score size per pile where size > 2
            - score count(pile) per pile where size > 9
    """)
    tree = ast.parse(source)
    listed = [node.elt for node in ast.walk(tree) if isinstance(node, ast.ListComp)]
    assert not any(isinstance(call.func, ast.Name) and call.func.id == "len"
                   for elt in listed for call in ast.walk(elt) if isinstance(call, ast.Call))
    assert Game(ir, 1, 0).state.scores == [3 * 2 + (3 + 5) + 0]   # b and c earn 3 each, then their sizes


def test_the_card_at_an_end_of_a_list_is_taken_in_place(tmp_path):
    """`top` and `bottom` of a list (a filter's) take its last or first card in place, with no
    call, and nothing from an empty one: moving it moves nothing."""
    ir, source = generated(tmp_path, """
        - set total to top(pile where size > 2).size * 10 + bottom(pile where size > 2).size
        - move top(pile where size > 9) to pile
        - move bottom(pile where size > 9) to pile
    """)
    assert not [name for name in names_called(ast.parse(source)) if name.startswith("end_card")]
    game = Game(ir, 1, 0)
    assert game.state.counters["total"] == 5 * 10 + 3      # of b (3) and c (5): c on top
    assert [game.rules.defs[uid].id for uid in game.state.zones["pile"]] == ["a", "b", "c"]


@pytest.mark.parametrize("least, total", [(2, 1), (5, 0)])
def test_a_definition_through_no_collection_is_worked_out_where_it_is_used(tmp_path, monkeypatch, least, total):
    """A definition that goes through no collection itself, given values as cheap as names, is
    worked out in place, not in a function of its own: a remembered value its text shares with
    the code around the use (`big`, in `count(big) > 0 and tall(2)`) is looked up once."""
    (tmp_path / "cards.yaml").write_text(CARDS)
    rules = RULES % f"    - if: count(big) > 0 and tall({least})\n      then: [set total to 1]"
    (tmp_path / "game.yaml").write_text(rules.replace(
        "procedures:", 'define:\n  big: "pile where size > 2"\n  tall(n): "top(big).size > n"\nprocedures:'))
    ir = compile_game(tmp_path)
    tree = ast.parse(compiled_rules(ir).code.source())
    assert not [f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and "p1" in ast.unparse(f.args)]
    asked = []
    remembered = Game.remembered
    monkeypatch.setattr(Game, "remembered", lambda game, key, *rest: asked.append(key[0]) or remembered(game, key, *rest))
    assert Game(ir, 1, 0).state.counters["total"] == total   # the top of b (3) and c (5) is c: 5 > 2, not > 5
    assert asked == ["big#0"]


@pytest.mark.parametrize("name", ["game", "env", "key", "len", "filter", "sum", "p1", "it_4", "zone_2"])
def test_a_rule_may_bind_any_name_the_code_uses_itself(tmp_path, name):
    """A rule's names become the generator's own identifiers, so a rule binding `game` or `env`
    (or a name shaped like a generated one) neither breaks the code nor reads another value."""
    ir, source = generated(tmp_path, f"""
        - set total to sum({name}.size * count(pile where size <= {name}.size) for {name} in pile)
    """)
    assert Game(ir, 1, 0).state.counters["total"] == 2 * 1 + 3 * 2 + 5 * 3


@pytest.mark.parametrize("game_id", sorted(bundled.games()))
def test_every_bundled_games_code_reads_back_as_python(tmp_path, capsys, game_id):
    assert main(["compile", game_id, "--python", "-o", str(tmp_path / "rules.py")]) == 0
    source = (tmp_path / "rules.py").read_text()
    assert source.startswith("# The Python silvics generates for the expressions and actions of ")
    assert all(name in ALLOWED or GENERATED.fullmatch(name) for name in names_in(source))
    # an action's step runs its statements to their end: its only `return` hands it to the
    # simultaneous turn holding it back, so the interrupts are always checked after it
    steps = [f for f in ast.walk(ast.parse(source)) if isinstance(f, ast.FunctionDef)
             and [a.arg for a in f.args.args] == ["game", "frame"] and "frame.held" in ast.unparse(f)]
    assert steps
    for step in steps:
        returns = [ast.unparse(r) for r in ast.walk(step) if isinstance(r, ast.Return)]
        assert len(returns) == 1 and returns[0].startswith("return game.hold("), ast.unparse(step)


def test_the_code_generated_is_the_same_text_in_every_process(tmp_path):
    """Two processes, each with an empty cache of its own, generate the same module, byte for
    byte (a name or constant made from an object's id would differ)."""
    def generated_in_a_process(folder: str) -> str:
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / folder)}
        out = tmp_path / f"{folder}.py"
        subprocess.run([sys.executable, "-m", "silvics", "compile", "renature", "--python", "--module", "valley",
                        "-o", str(out)], env=env, check=True, capture_output=True)
        return out.read_text()

    first = generated_in_a_process("first")
    assert "drawn_" in first                                 # the board drawing: once keyed by an id
    assert generated_in_a_process("second") == first


def test_a_template_is_made_afresh_each_time_and_a_statement_with_no_parts_gets_a_place():
    """A template is parsed once and built again for each use (codegen._builder): two uses share
    no statement and take their own parts and temporaries; a statement with no parts (`pass`,
    `break`), from a template or made by hand, is placed for compile() like any other."""
    from silvics.interpreter.codegen import Gen, Module
    module = Module("test")
    gen = Gen(module, {})
    template = """
        for _seen in {items}:
            if _seen > {limit}:
                break
            pass
        {after}
        """
    first = gen.steps(template, items=ast.Name("x", ast.Load()), limit=2, after=[ast.Pass()])
    second = gen.steps(template, items=ast.Name("x", ast.Load()), limit=5, after=[ast.Return(ast.Constant(7))])
    made = {id(node) for node in ast.walk(ast.Module(first, [])) if isinstance(node, ast.stmt)}
    assert made.isdisjoint(id(node) for node in ast.walk(ast.Module(second, [])) if isinstance(node, ast.stmt))
    assert "> 2" in ast.unparse(first) and "> 5" in ast.unparse(second)
    loops = [ast.unparse(tree).splitlines()[0] for tree in (first[0], second[0])]
    assert loops[0] != loops[1] and all(line.startswith("for seen_") for line in loops)  # temporaries of their own
    counted = module.define("counted", ("x",), [*first, *second])
    module.finish()
    assert counted([1, 2, 3]) == 7


ASKED: list = []


def ask(x):
    ASKED.append(x)
    return x


QUANTIFIED = [  # (the code as generated, the same as Python runs it)
    ("any(ask(x) > k for x in xs)", lambda xs, k: any(ask(x) > k for x in xs)),
    ("all(ask(x) > k for x in xs)", lambda xs, k: all(ask(x) > k for x in xs)),
    ("any(ask(x) > k for x in xs if x % 2)", lambda xs, k: any(ask(x) > k for x in xs if x % 2)),
    ("any(all(ask(x * y) > k for y in xs) for x in xs)", lambda xs, k: any(all(ask(x * y) > k for y in xs) for x in xs)),
    ("not any(ask(x) == k for x in xs) and all(ask(-x) < k for x in xs)",
     lambda xs, k: not any(ask(x) == k for x in xs) and all(ask(-x) < k for x in xs)),
    ("any((lambda y: ask(y) + k)(x) > 2 * k for x in xs)", lambda xs, k: any((lambda y: ask(y) + k)(x) > 2 * k for x in xs)),
    # a part the test shares with the condition before it is named there (reuse.py): the loop's own name
    ("any(ask(abs(x - k)) > 1 for x in xs if abs(x - k) < 5)",
     lambda xs, k: any(ask(abs(x - k)) > 1 for x in xs if abs(x - k) < 5)),
]


@pytest.mark.parametrize("code, plain", QUANTIFIED, ids=[code for code, _ in QUANTIFIED])
def test_any_and_all_of_a_generator_become_loops_that_ask_the_same_items(code, plain):
    """An expression's any() or all() of a generator is generated as a loop in a function of its
    own (loops.py): the same answer, from the same items asked in the same order (it stops where
    the generator would), reading the caller's locals as arguments and the module's helpers as before."""
    from silvics.interpreter.codegen import Module
    module = Module("test")
    module.namespace["ask"] = ask
    looped = module.define("looped", ("xs", "k"), [ast.Return(ast.parse(code, mode="eval").body)], pure=True)
    module.finish()
    written = {tree.name: ast.unparse(tree) for tree in module.functions}
    assert "any(" not in written["looped"] and "all(" not in written["looped"]
    assert any(name.startswith(("exists_", "every_")) for name in written)
    for xs in ([], [1], [3, 1, 4, 1, 5], [2, 7, 1, 8], [0, -2, 6]):
        for k in (-1, 0, 2, 4, 9):
            ASKED.clear()
            expected = plain(xs, k), list(ASKED)
            ASKED.clear()
            assert (looped(xs, k), ASKED) == expected, (xs, k)


class _Counted(dict):
    """A dict that counts the reads of its items."""

    reads = 0

    def __getitem__(self, key):
        type(self).reads += 1
        return super().__getitem__(key)


FIXED = [  # (the code as generated, what it gives for the items and the value d['k']['v'])
    ("any(ask(x) == d['k'].get('v') for x in xs)", lambda xs, v: v in xs),
    ("[x for x in xs if ask(x) == d['k'].get('v')]", lambda xs, v: [x for x in xs if x == v]),
    ("len([x for x in xs if ask(x) == d['k'].get('v')]) > 0", lambda xs, v: v in xs),
]


@pytest.mark.parametrize("code, expected", FIXED, ids=["loop", "comprehension", "comprehension within"])
def test_a_part_the_same_for_every_item_is_worked_out_once_and_faults_only_where_the_loop_would(code, expected):
    """A loop's (or a comprehension's) test reads `d['k'].get('v')`, the same for every item: it
    is worked out once, before the loop (loops.py), not once an item. Where `d` has no 'k' the
    code faults as it would have: at its first item, and not at all when there is none."""
    from silvics.interpreter.codegen import Module
    module = Module("test")
    module.namespace["ask"] = ask
    made = module.define("made", ("xs", "d"), [ast.Return(ast.parse(code, mode="eval").body)], pure=True)
    module.finish()
    written = next(text for text in map(ast.unparse, module.functions) if "fixed_" in text)
    assert written.index("d['k'].get('v')") < written.index("for x in")
    for xs in ([], [1], [3, 1, 4, 1, 5], [2, 7, 1, 8]):
        for value in (1, 4, 9):
            _Counted.reads = 0
            ASKED.clear()
            assert made(xs, _Counted(k={"v": value})) == expected(xs, value)
            asked = xs if code.startswith(("[", "len")) else xs[: xs.index(value) + 1 if value in xs else None]
            assert ASKED == asked
            assert _Counted.reads == 1  # (as generated, it was read at each item)
    assert made([], {}) == expected([], 0)
    ASKED.clear()
    with pytest.raises(KeyError):
        made([3, 1], {})
    assert ASKED == [3]


class _Asking:
    """A game as an ask's code sees it: `remembered` counts its asks and works the value out."""

    def __init__(self):
        self.asks, self.worked = 0, 0

    def remembered(self, key, work, env):
        self.asks += 1
        return work(self, env, key)


def _half(game, env, key):
    game.worked += 1
    if key[1] is None:
        raise KeyError("no limit")
    return key[1] // 2


ASK = "(half(game, env, ('half#0', k)) if forgotten_half else game.remembered(('half#0', k), half, env))"
ASKING = [  # (the code as generated, what it gives for the items and k, items none of which reaches the ask)
    (f"any(ask(x) and x > {ASK} for x in xs)", lambda xs, k: any(x and x > k // 2 for x in xs), [0, 0]),
    (f"[x for x in xs if x % 2 or x > {ASK}]", lambda xs, k: [x for x in xs if x % 2 or x > k // 2], [1, 3]),
]


@pytest.mark.parametrize("code, expected, unreached", ASKING, ids=["loop", "comprehension"])
@pytest.mark.parametrize("forgotten", [(), ("half#0",)], ids=["remembered", "forgotten"])
def test_a_remembered_value_the_same_for_every_item_is_asked_once_and_faults_only_where_the_loop_would(
    code, expected, unreached, forgotten
):
    """A loop's test asks for a remembered value whose key reads no item (Reforest's
    `region_plants`, asked at each space of `playable`): it is asked once, before the loop
    (loops.py), not once an item reaching it; remembered or worked out afresh, the answer is the
    same. Where its work faults the code faults as it would have: at the first item reaching the
    ask, and not at all when none does."""
    from silvics.interpreter.codegen import Module
    module = Module("test")
    module.namespace.update(ask=ask, half=_half, forgotten_half=bool(forgotten))
    made = module.define("made", ("xs", "k", "game", "env"), [ast.Return(ast.parse(code, mode="eval").body)], pure=True)
    module.finish()
    written = next(text for text in map(ast.unparse, module.functions) if "fixed_" in text)
    assert written.index("('half#0', k)") < written.index("for x in")
    for xs in ([1], [3, 1, 4, 1, 5], [2, 7, 1, 8], [6, 0, 4]):
        for k in (1, 6, 9):
            game = _Asking()
            assert made(xs, k, game, {}) == expected(xs, k)
            assert (game.asks, game.worked) == (0 if forgotten else 1, 1)  # (as generated: once an item reaching it)
    with pytest.raises(KeyError):
        made([0, 2, 4], None, _Asking(), {})
    assert made([], None, _Asking(), {}) == expected([], 0)
    assert made(unreached, None, _Asking(), {}) == expected(unreached, 0)


def test_compile_python_takes_the_modules_and_refuses_them_without_it(capsys):
    assert main(["compile", "forest-shuffle", "--python", "--module", "alpine"]) == 0
    assert ", modules alpine:" in capsys.readouterr().out.splitlines()[0]
    assert main(["compile", "forest-shuffle", "--module", "alpine"]) == 2
    assert "--module goes with --python" in capsys.readouterr().err


# ---- a guard's parts, for `why` ----

def _nodes(value):
    """Every node of the IR under a value (a procedure, a card's side)."""
    if isinstance(value, Node):
        yield value
        for part in value.args.values():
            yield from _nodes(part)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _nodes(item)


def _guard(ir, game_id):
    """A guard of each game: what decides whether a step is offered, or a card fits."""
    procedures = [*ir.procedures.values(), *(n for m in ir.modules.values() for n in m.procedures.values())]
    if game_id == "four-forests":  # a creature's preference, printed on its card
        return next(side.attributes["prefers"] for card in ir.cards for side in card.sides
                    if isinstance(side.attributes.get("prefers"), Node)
                    and side.attributes["prefers"].op == "all_of")
    if game_id == "reforest":  # the grow step's card filter: playable(it), a definition
        return next(n for n in _nodes(procedures) if n.op == "let_in" and n.args["define"] == "playable")
    step = {"forest-shuffle": "draw_two", "renature": "extra_turn"}[game_id]  # a `one of` step's condition
    return next(guard for n in _nodes(procedures) if n.op == "one_of"
                for name, guard in zip(n.args["steps"], n.args["guards"] or ()) if name == step)


CARDS_ASKED = {"four-forests": "forest", "reforest": "hand"}  # a card guard is asked of these zones' cards


def _asked(game, env, zone):
    """The bindings a guard is asked with: the decision's own, with `it` each card of `zone` if
    the guard is asked of cards."""
    if zone is None:
        return [env]
    cards = [card for key, pile in game.state.zones.items() if key.split("/")[0] == zone for card in pile]
    return [{**env, "it": card} for card in cards]


def _agrees(explained):
    """An explanation's value is what its parts make it."""
    values = [part.value for part in explained.parts]
    if explained.node.op == "all_of":
        assert bool(explained.value) == all(values)
    elif explained.node.op == "compare":
        assert explained.value == OPS[explained.node.args["op"]](*values)
    elif explained.node.op == "let_in":
        assert explained.value == values[0]
    for part in explained.parts:
        _agrees(part)


OPS = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


@pytest.mark.parametrize("cached", [False, True], ids=["generated", "from the cache"])
@pytest.mark.parametrize("game_id", sorted(bundled.games()))
def test_a_guard_is_explained_by_its_parts_with_the_code_that_plays(game_id, cached):
    """`why` explains a guard with functions generated for its parts by the same code builders:
    at every decision of a game, the guard as played and as explained agree, and each part's value
    is what its own parts make it (an `and` of its parts, a comparison of its sides, a definition's
    text under its parameters)."""
    ir = games.load(game_id)
    if cached:  # the rules' module imported from the cache: the parts are generated into it
        Rules(ir)
        rules = Rules(ir)
    else:  # rules made in memory are generated
        rules = Rules(dataclasses.replace(ir))
    assert rules.code.replayed == cached
    guard = _guard(ir, game_id)
    part, playing = rules.code.parts(guard), rules.build(guard)
    assert len(part.parts) >= 1
    assert part.value.__globals__ is rules.code.namespace and part.value.__name__.startswith("why_")  # generated
    game, agents, seen = Game(rules, 2, 3), [make_agent("random", 3, seat) for seat in range(2)], set()
    while not game.over:
        env = game.state.stack[-1].env
        for at in _asked(game, env, CARDS_ASKED.get(game_id)):
            explained = part.explain(game, at)
            assert bool(explained.value) == bool(playing(game, at))
            _agrees(explained)
            seen.add(bool(explained.value))
        game.apply(agents[game.state.pending.seat].choose(game.observe(game.state.pending.seat)))
    assert seen == {True, False}  # the guard held at some decisions and not at others


def test_has_of_what_a_card_prints_is_read_in_place_and_agrees_with_includes(tmp_path):
    """`tags has red` reads a printed set, never a zone, so it is `'red' in (tags or ())` in place
    (a card tagged nothing has none); `pile has it`, whose items are a zone, goes through
    includes(). Both count as includes() would: 2 chips tagged red (one is tagged nothing), 3 in pile."""
    (tmp_path / "game.yaml").write_text(
        "id: tags\nname: Tags\nplayers: {min: 1, max: 1}\ncards: [cards.yaml]\n"
        "kinds:\n  chip:\n    attributes:\n      tags: {type: set, values: [red, blue]}\n"
        "counters:\n  total: {start: 0}\n  named: {start: 0}\nzones:\n  pile: {visibility: public}\n"
        "procedures:\n  setup: [move box to pile face up]\n  play:\n"
        "    - set total to count(pile where tags has red)\n    - set named to count(pile where pile has it)\n"
        "  scoring: []\n")
    (tmp_path / "cards.yaml").write_text(
        "kind: chip\ncards:\n  - {id: a, tags: [red]}\n  - {id: b, tags: [red, blue]}\n  - {id: c, tags: []}\n")
    ir = compile_game(tmp_path)
    source = compiled_rules(ir).code.source()
    tree = ast.parse(source)
    calls = names_called(tree)
    assert sum(name.startswith("includes") for name in calls) == 1          # pile has it
    assert any(isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In) and isinstance(node.left, ast.Constant)
               and node.left.value == "red" for node in ast.walk(tree))      # tags has red, in place
    game = Game(ir, 1, 0)
    assert game.over and (game.state.counters["total"], game.state.counters["named"]) == (2, 3)


def test_a_printed_condition_met_is_looked_up_in_place_and_agrees_with_game_condition(tmp_path):
    """`pile where j.likes` looks up the condition card j prints once for the filter (meeting);
    with the card not a bound name (`top(judges).likes`) the filter asks Game.condition of each
    card. Both count alike: the picky judge likes the two chips worth 3 or more, the lax one
    none, the top judge is the picky one, and a chip, which prints no condition, likes nothing
    (`never`). The card asked about is handed to the condition, which sees nothing else:
    nothing is folded into a copy of `env` for it (`{**env, 'it': …}`), not even a name bound
    around the filter (`j` in the sum: 0 + 2). No card is looked up for a filter of no items:
    a judge bound to no card (chosen from an empty bag) likes nothing of an empty pile."""
    (tmp_path / "game.yaml").write_text(
        "id: judged\nname: Judged\nplayers: {min: 1, max: 1}\ncards: [chips.yaml, judges.yaml]\n"
        "kinds:\n  chip:\n    attributes:\n      value: {type: int}\n"
        "  judge:\n    attributes:\n      likes: {type: condition, of: chip}\n"
        "marks:\n  liked: {type: int}\n"
        "counters:\n  by_top: {start: 0}\n  by_all: {start: 0}\n  by_none: {start: 9}\n"
        "zones:\n  pile: {visibility: public}\n  judges: {visibility: public}\n  bag: {visibility: public}\n"
        "procedures:\n  setup:\n    - move box where kind = chip to pile face up\n"
        "    - move box where kind = judge to judges face up\n  play:\n"
        "    - for: j in judges\n      do: [set j.liked to count(pile where j.likes)]\n"
        "    - set by_top to count(pile where top(judges).likes)\n"
        "    - set by_all to sum(count(pile where j.likes) for j in judges)\n"
        "    - for: c in pile\n      do: [set c.liked to count(pile where c.likes)]\n"
        "    - each player:\n        - choose nobody from bag\n"
        "        - set by_none to count(bag where nobody.likes)\n"
        "  scoring: []\n")
    (tmp_path / "chips.yaml").write_text(
        "kind: chip\ncards:\n  - {id: one, value: 1}\n  - {id: three, value: 3}\n  - {id: five, value: 5}\n")
    (tmp_path / "judges.yaml").write_text(
        "kind: judge\ncards:\n  - {id: lax, likes: \"value > 10\"}\n  - {id: picky, likes: \"value >= 3\"}\n")
    ir, tree = compiled_tree(tmp_path)
    conditions = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "condition"]
    assert len(conditions) == 1                                              # top(judges).likes only
    calls = names_called(tree)
    assert sum(name.startswith("meeting") for name in calls) == 4            # j's twice, c's, nobody's
    folded = [key.value for node in ast.walk(tree) if isinstance(node, ast.Dict)
              for key in node.keys if isinstance(key, ast.Constant)]
    assert "it" not in folded and "j" not in folded
    game = Game(ir, 1, 0)
    liked = {game.card_id(uid): game.state.marks[uid]["liked"] for zone in ("judges", "pile")
             for uid in game.state.zones[zone]}
    assert game.over and liked == {"lax": 0, "picky": 2, "one": 0, "three": 0, "five": 0}
    assert game.card_id(game.state.zones["judges"][-1]) == "picky" and game.state.counters["by_top"] == 2
    assert game.state.counters["by_all"] == 2 and game.state.counters["by_none"] == 0


def test_a_number_a_card_may_print_is_worked_out_only_for_a_card_printing_it(tmp_path):
    """`sum(p.discount(c) for p in pile)`: a card printing no discount counts 0 without its
    bindings put together, a card printing one works it out seeing `card` (the chip discounted)
    and `it` (itself). The half-off chip takes 5 // 2 = 2 off the chip worth 5 and 1 off the one
    worth 2, the flat chip 1 off each, the plain chips nothing: 3 and 2. Asked of a card that is
    not a name (`top(pile)`, the plain chip, which prints none), it goes through computed_value: 0."""
    (tmp_path / "game.yaml").write_text(
        "id: priced\nname: Priced\nplayers: {min: 1, max: 1}\ncards: [chips.yaml]\n"
        "kinds:\n  chip:\n    attributes:\n      value: {type: int}\n"
        "      discount: {type: number, optional: true, sees: {card: card}}\n"
        "marks:\n  off: {type: int}\n"
        "counters:\n  plain_off: {start: 9}\n"
        "zones:\n  pile: {visibility: public}\n"
        "procedures:\n  setup: [move box to pile face up]\n  play:\n"
        "    - for: c in pile where value > 0\n"
        "      do: [set c.off to sum(p.discount(c) for p in pile)]\n"
        "    - set plain_off to top(pile).discount(top(pile))\n"
        "  scoring: []\n")
    (tmp_path / "chips.yaml").write_text(
        "kind: chip\ncards:\n  - {id: five, value: 5}\n  - {id: two, value: 2}\n"
        "  - {id: half, value: 0, discount: \"card.value / 2\"}\n  - {id: flat, value: 0, discount: \"1\"}\n"
        "  - {id: plain, value: 0}\n")
    ir, tree = compiled_tree(tmp_path)
    calls = [call for call in calls_by_name(tree) if call.func.id.startswith("computed_value")]
    guarded = [node for node in ast.walk(tree) if isinstance(node, ast.IfExp) and node.orelse in calls]
    assert len(calls) == 2 and len(guarded) == 1                              # p.discount(c) only
    game = Game(ir, 1, 0)
    off = {game.card_id(uid): (game.state.marks[uid] or {}).get("off") for uid in game.state.zones["pile"]}
    assert game.over and off == {"five": 3, "two": 2, "half": None, "flat": None, "plain": None}
    assert game.state.counters["plain_off"] == 0


def test_a_cards_kind_id_and_face_are_read_in_place(tmp_path):
    """`kind` and `id` are the card's, the same on every side: the code reads them from the card
    table (`game.rules.defs[uid].kind`), with no side looked up, and they agree with
    Game.attribute after a flip. The three chips turned dark are still chips (3), one is c1; a name
    bound to no card (chosen from an empty bag) is of no kind (0), a bound chip is one (1). How a
    card of a pile lies is read in place too, not through Game.attribute: two chips of three are
    still face up after the top one is turned down."""
    (tmp_path / "game.yaml").write_text(
        "id: sided\nname: Sided\nplayers: {min: 1, max: 1}\ncards: [chips.yaml]\n"
        "kinds:\n  chip:\n    sides: [light, dark]\n    attributes:\n      size: {type: int}\n"
        "counters:\n  chips: {start: 0}\n  ones: {start: 0}\n  none: {start: 0}\n  one: {start: 0}\n"
        "  ups: {start: 0}\n"
        "zones:\n  pile: {visibility: public}\n  bag: {visibility: public}\n"
        "procedures:\n  setup:\n    - move box to pile face up\n    - flip pile to dark\n  play:\n"
        "    - set chips to count(pile where kind = chip)\n"
        "    - set ones to count(pile where id = c1)\n"
        "    - turn top(pile) face down\n"
        "    - set ups to count(pile where face = up)\n"
        "    - each player:\n"
        "        - choose lost from bag\n"
        "        - set none to 1 if lost.kind = chip else 0\n"
        "        - choose kept from pile where size = 9\n"
        "        - set one to 1 if kept.kind = chip and kept.id = c1 else 0\n"
        "  scoring: []\n")
    (tmp_path / "chips.yaml").write_text(
        "kind: chip\ncards:\n"
        "  - {id: c1, sides: {light: {name: One, size: 1}, dark: {name: Nine, size: 9}}}\n"
        "  - {id: c2, sides: {light: {name: Two, size: 2}, dark: {name: Eight, size: 8}}}\n"
        "  - {id: c3, sides: {light: {name: Three, size: 3}, dark: {name: Seven, size: 7}}}\n")
    ir, tree = compiled_tree(tmp_path)
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Subscript) and ast.unparse(node.value).startswith("game.rules.defs[")}
    assert read == {"kind", "id"}
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "attribute"]
    game = Game(ir, 1, 0)
    counters = game.state.counters
    assert game.over and (counters["chips"], counters["ones"], counters["none"], counters["one"]) == (3, 1, 0, 1)
    assert counters["ups"] == 2
    assert all(game.state.side[uid] == 1 and game.attribute(uid, "kind") == "chip" for uid in game.state.zones["pile"])


def test_what_a_named_side_prints_is_read_in_place_and_agrees_with_printed_on(tmp_path):
    """`printed(c, dark, size)` of a bound card looks its side up by name in place
    (`faces[c].named`), with no call; a card worked out by a call (`top(pile)`) goes through
    printed_on. Both read the side named, whichever is face up (the chips lie light side up):
    c1 prints 9 on its dark side and 1 on its light side; a side it lacks prints nothing, as
    does no card (chosen from an empty bag)."""
    (tmp_path / "game.yaml").write_text(
        "id: sided\nname: Sided\nplayers: {min: 1, max: 1}\ncards: [chips.yaml]\n"
        "kinds:\n  chip:\n    sides: [light, dark]\n    attributes:\n      size: {type: int}\n"
        "counters:\n  on_dark: {start: 0}\n  on_light: {start: 0}\n  top: {start: 0}\n  lacks: {start: 0}\n"
        "  none: {start: 0}\n"
        "zones:\n  pile: {visibility: public}\n  bag: {visibility: public}\n"
        "procedures:\n  setup:\n    - move box to pile face up\n  play:\n"
        "    - each player:\n"
        "        - choose kept from pile where id = c1\n"
        "        - set on_dark to printed(kept, dark, size)\n"
        "        - set on_light to printed(kept, light, size)\n"
        "        - set lacks to 1 if printed(kept, 'back', size) = 9 or printed(kept, 'back', size) = 1 else 0\n"
        "        - choose lost from bag\n"
        "        - set none to 1 if printed(lost, dark, size) = 9 else 0\n"
        "    - set top to printed(top(pile), dark, size)\n"
        "  scoring: []\n")
    (tmp_path / "chips.yaml").write_text(
        "kind: chip\ncards:\n"
        "  - {id: c2, sides: {light: {name: Two, size: 2}, dark: {name: Eight, size: 8}}}\n"
        "  - {id: c1, sides: {light: {name: One, size: 1}, dark: {name: Nine, size: 9}}}\n")
    ir, tree = compiled_tree(tmp_path)
    calls = names_called(tree)
    assert sum(name.startswith("printed_on") for name in calls) == 1  # top(pile)'s
    named = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "named"]
    assert len(named) == 5
    game = Game(ir, 1, 0)
    counters = game.state.counters
    assert game.over and all(game.state.side[uid] == 0 for uid in game.state.zones["pile"])
    assert (counters["on_dark"], counters["on_light"], counters["lacks"], counters["none"]) == (9, 1, 0, 0)
    assert counters["top"] == 9  # c1, the last card moved: the top of the pile


def test_a_side_named_by_a_list_is_a_fault_at_its_rule_that_says_so(tmp_path):
    """`printed(kept, sides(kept), size)` names a side by the list of a card's sides: the rule
    fails where it is written, saying one value was wanted (no traceback, no silent nothing)."""
    (tmp_path / "game.yaml").write_text(
        "id: sided\nname: Sided\nplayers: {min: 1, max: 1}\ncards: [chips.yaml]\n"
        "kinds:\n  chip:\n    sides: [light, dark]\n    attributes:\n      size: {type: int}\n"
        "counters:\n  got: {start: 0}\nzones:\n  pile: {visibility: public}\n"
        "procedures:\n  setup: [move box to pile face up]\n  play:\n"
        "    - each player:\n        - choose kept from pile\n"
        "        - set got to printed(kept, sides(kept), size)\n  scoring: []\n")
    (tmp_path / "chips.yaml").write_text(
        "kind: chip\ncards:\n  - {id: c1, sides: {light: {name: One, size: 1}, dark: {name: Nine, size: 9}}}\n")
    with pytest.raises(GameError, match=r"game\.yaml:19:11: rule failed: a list was given where one value is wanted"):
        Game(compile_game(tmp_path), 1, 0)


def test_a_zone_held_per_owner_is_keyed_in_place_as_zone_key_keys_it():
    """The key of a zone or counter held per player or per card is read from a table of its keys
    by owner (`zone_47[env['you']]`, made once a name: owned_keys), with no call of zone_key, in
    every bundled game; each key is the one zone_key makes, made once and shared, and an owner of
    nothing keys the zone's name alone, as zone_key does."""
    for game_id in sorted(bundled.games()):
        tree = ast.parse(compiled_rules(games.load(game_id)).code.source())
        calls = names_called(tree)
        assert not [name for name in calls if name.startswith("zone_key")], game_id
        made = [node.value.args[0].value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "OwnedKeys"]
        assert made and len(made) == len(set(made)), game_id  # one table a name
    hands = owned_keys("hand")
    assert owned_keys("hand") is hands and hands.name == "hand"
    assert [hands[seat] for seat in range(4)] == [zone_key("hand", seat) for seat in range(4)]
    assert hands[2] == "hand/2" and hands[2] is hands[2] and owned_keys("slots")[17] == "slots/17"
    assert hands[None] == zone_key("hand") == "hand" and type(hands[None]) is Zone


def test_a_bound_spaces_row_is_taken_apart_in_place():
    """`s.row` of a space bound to a name (Reforest's `c.elevation has s.row`, asked of every
    card and space) reads the key taken apart from a table, `game.rules.places[s].row`, with no
    call of space_part_of; a space worked out by a call (`c.space.row`) still goes through it
    (worked out once). Such a row can neither fail nor read the state, so whether a card prints
    it is asked in place too, `game.rules.places[s].row in (elevation or ())`, with no call of
    includes. The table gives what parse_key gives."""
    rules = compiled_rules(games.load("reforest"))
    tree = ast.parse(rules.code.source())
    calls = calls_by_name(tree)
    parts_of = [call for call in calls if call.func.id.startswith("space_part_of_")]
    assert all(not isinstance(call.args[0], ast.Name) for call in parts_of)
    in_place = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "row"
                and ast.unparse(node.value).startswith("game.rules.places[")]
    assert len(in_place) >= 2
    asked = [node for node in ast.walk(tree) if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In)
             and "game.rules.places[" in ast.unparse(node.left) and "'elevation'" in ast.unparse(node.comparators[0])]
    assert asked and not [call for call in calls if call.func.id.startswith("includes_")
                          and "places[" in ast.unparse(call.args[2])]
    for key in rules.grid_spaces("region", 1):
        assert rules.places[key] == parse_key(key) and rules.places[key].row in ("high", "middle", "low")


def test_a_number_worked_out_is_bounded_in_place_and_still_stops_the_game_past_the_limit(tmp_path):
    """In an expression's code a product or sum is tested against ±10^18 in place
    (`v if -L <= (v := a * b) <= L else bounded(v)`: no call while it is within), and past the
    limit still stops the game at its rule as bounded() does: the total doubles up to 2^59, and
    2^60 is past 10^18."""
    (tmp_path / "game.yaml").write_text(
        "id: limit\nname: Limit\nplayers: {min: 1, max: 1}\ncards: [cards.yaml]\n"
        "kinds:\n  chip:\n    attributes:\n      size: {type: int}\n"
        "counters:\n  total: {start: 1}\nzones:\n  pile: {visibility: public}\n"
        "define:\n  doubled: \"total * sum(c.size for c in pile)\"\n"
        "procedures:\n  setup: [move box to pile face up]\n  play:\n"
        "    - until: doubled < 0\n      do: [set total to doubled]\n  scoring: []\n")
    (tmp_path / "cards.yaml").write_text("kind: chip\ncards:\n  - {id: a, size: 1}\n  - {id: b, size: 1}\n")
    ir, tree = compiled_tree(tmp_path)
    within = [node for node in ast.walk(tree) if isinstance(node, ast.IfExp) and isinstance(node.test, ast.Compare)
              and len(node.test.comparators) == 2 and ast.unparse(node.test.left) == "-10 ** 18"]
    assert len(within) == 1 and ast.unparse(within[0].test.comparators[1]) == "10 ** 18"
    assert ast.unparse(within[0].orelse).startswith("bounded_")   # only past the limit
    function = next(node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and within[0] in ast.walk(node))
    constants = compiled_rules(ir).code.namespace[function].__code__.co_consts
    assert {-10**18, 10**18} <= set(constants) and 18 not in constants   # folded as it is compiled
    game = Game(ir, 1, 0, start=False)
    with pytest.raises(GameError, match=r"game\.yaml:18:\d+: .*grew beyond ±10\^18"):
        game.begin()
    assert game.state.counters["total"] == 2**59
