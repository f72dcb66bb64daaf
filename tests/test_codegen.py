"""The generator's promises (interpreter/codegen.py): text from the data only ever enters the
generated code as a constant, every identifier in it is the generator's own, the names a rule
binds cannot clash with the code's, and every bundled game's code can be read back."""
import ast
import re
import textwrap

import pytest

from silvics import bundled
from silvics.cli import main
from silvics.compiler.build import compile_game
from silvics.interpreter.game import Game, compiled_rules

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
ALLOWED = {"game", "env", "frame", "key", "keys", "len", "any", "list", "tuple", "isinstance", "str", "map", "Zone",
           "sum", "min", "max"}
GENERATED = re.compile(r"[a-z]+(_[a-z]+)*_\d+|p\d+")


def generated(tmp_path, play: str):
    (tmp_path / "game.yaml").write_text(RULES % textwrap.indent(textwrap.dedent(play), " " * 4))
    (tmp_path / "cards.yaml").write_text(CARDS)
    ir = compile_game(tmp_path)
    return ir, compiled_rules(ir).code.source()


def names_in(source: str) -> set[str]:
    tree = ast.parse(source)
    found = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    found |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    found |= {arg.arg for node in ast.walk(tree) if isinstance(node, ast.arg) for arg in [node]}
    return found | {alias.asname for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
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


@pytest.mark.parametrize("name", ["game", "env", "key", "len", "p1", "it_4", "zone_2"])
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


def test_compile_python_takes_the_modules_and_refuses_them_without_it(capsys):
    assert main(["compile", "forest-shuffle", "--python", "--module", "alpine"]) == 0
    assert ", modules alpine:" in capsys.readouterr().out.splitlines()[0]
    assert main(["compile", "forest-shuffle", "--module", "alpine"]) == 2
    assert "--module goes with --python" in capsys.readouterr().err
