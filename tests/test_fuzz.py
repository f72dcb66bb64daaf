"""Fuzzing: whatever a designer types, the compiler answers with diagnostics, never a crash;
and whatever the rules compute while a game runs, it ends or fails naming the rule's source.
(hypothesis generates and shrinks the inputs.)"""
import re
import shutil
import textwrap
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from silvics.compiler.build import compile_game
from silvics.compiler.diagnostics import CompileError
from silvics.compiler.lower import Decls, Lowerer, LowerError, Scope
from silvics.compiler.parse import Source
from silvics.interpreter.agents import make_agent, play_on
from silvics.interpreter.game import Game, GameError

ROOT = Path(__file__).resolve().parent.parent
WORDS = ["value", "suit", "icons", "has", "in", "and", "or", "not", "where", "count", "sum", "for", "(", ")",
         "[", "]", ",", ".", "=", ">=", "<", "-", "+", "*", "3", "'x'", "boreal", "leaf", "move", "to", "from",
         "hand", "forest", "it", "card", "choose", "all", "face", "down", "rank", "by", "as", "with"]
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join) | st.text(max_size=30))
def test_effect_strings_never_crash_the_compiler(text):
    lowerer = Lowerer(_decls())
    for start in ("expression", "statement"):
        try:
            getattr(lowerer, start)(text, Source("f.yaml", 1, 1), Scope({"you": "player", "it": "card"}))
        except LowerError as error:
            assert error.diagnostic.line >= 1 and error.diagnostic.col >= 1


def _decls():
    from silvics import games
    ir = games.load("four-forests")
    decls = Decls()
    decls.zones = {z.name: z for z in ir.zones}
    decls.attributes = {a.name: a for k in ir.kinds for a in k.attributes}
    decls.marks = {m.name: m for m in ir.marks}
    decls.procedures = set(ir.procedures)
    decls.words = {v for a in [*decls.attributes.values(), *decls.marks.values()] for v in a.values}
    return decls


@SETTINGS
@given(st.data())
def test_mutated_card_files_get_diagnostics(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("game")
    for part in ("rules", "cards"):  # the project as it lies, with the one game it compiles
        shutil.copytree(ROOT / part / "four-forests", folder / part / "four-forests")
    plants = folder / "cards" / "four-forests" / "plants.yaml"
    text = plants.read_text()[:1500]
    position = data.draw(st.integers(0, len(text) - 1))
    junk = data.draw(st.text(alphabet=":-[]{}'\"#&*!|> \n\tabc19", max_size=6))
    plants.write_text(text[:position] + junk + text[position + data.draw(st.integers(0, 5)):])
    try:
        compile_game(folder / "rules" / "four-forests")
    except CompileError as error:
        assert error.diagnostics and all(d.line >= 1 for d in error.diagnostics)
        assert error.render()


# ---- run-time faults: whole tiny games whose rules compute with nothing, empty piles and zero ----

RULES = """\
id: fuzz
name: Fuzz
players: {{min: 1, max: 2}}
cards: [cards.yaml]
kinds:
  chip:
    attributes:
      size: {{type: int, default: 0}}
      perks: {{type: numbers, optional: true}}
marks:
  tag: {{type: int}}
counters:
  total: {{start: 0}}
zones:
  deck: {{visibility: hidden}}
  pile: {{visibility: public}}
  bag: {{per: player, visibility: public}}
interrupts:                       # checked after every action, and when the game starts
  - when: "{watched}"
    do: [noted]
procedures:
  noted: [add 1 to total]
  setup:
    - move box to deck
    - shuffle deck
    - move {dealt} from deck to pile
  play:
    - each player:
{play}
  scoring:
    - each player:
{scoring}
"""
CHIPS = "kind: chip\ncards:\n  - {id: a, size: 0}\n  - {id: b, size: 2, perks: [1, 2]}\n  - {id: c, size: 3, perks: []}\n"
PILES = ["pile", "deck", "bag", "pile where size > 1", "bag where size = 0", "deck where tag = 1"]
CARDS = [f"{end}({pile})" for end in ("top", "bottom") for pile in ("pile", "bag", "deck")] + ["c"]


def _ints(depth: int):
    """Whole-number expressions that may be nothing, zero, negative, or divide by zero."""
    leaves = st.one_of(
        st.sampled_from(["0", "1", "2", "-1", "total", "x"]),
        st.sampled_from(PILES).map("count({})".format),
        st.sampled_from(CARDS).map("{}.size".format),
        st.tuples(st.sampled_from(["sum", "min", "max"]), st.sampled_from(PILES)).map(
            lambda t: f"{t[0]}(k.size for k in {t[1]})"),                      # aggregates of possibly nothing
    )
    if depth == 0:
        return leaves
    inner = _ints(depth - 1)
    return st.one_of(
        leaves,
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        st.tuples(st.sampled_from(["[1, 2, 3]", "[]", *(f"{c}.perks" for c in CARDS[:3])]), inner).map(
            lambda t: f"nth({t[0]}, {t[1]})"),                                 # out of range, or of nothing
        st.tuples(inner, _conditions(inner), inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
    )


def _conditions(ints):
    compared = st.tuples(ints, st.sampled_from(["=", "!=", "<", "<=", ">", ">="]), ints).map(" ".join)
    return st.one_of(compared, st.sampled_from(CARDS).map("{} = c".format), compared.map("not {}".format))


def _steps(depth: int = 2):
    ints = _ints(depth)
    card, pile = st.sampled_from(CARDS), st.sampled_from(PILES)
    one = st.one_of(
        ints.map("add {} to total".format),
        ints.map("set total to {}".format),
        ints.map("score {}".format),
        ints.map("let x = {}".format),
        st.tuples(card, ints).map(lambda t: f"set {t[0]}.tag to {t[1]}"),      # a mark on nothing
        st.tuples(card, st.sampled_from(["bag", "pile", "deck"])).map(lambda t: f"move {t[0]} to {t[1]}"),
        st.tuples(ints, st.sampled_from(["deck", "pile"])).map(lambda t: f"move {t[0]} from {t[1]} to bag"),
        pile.map("choose c from {}".format),
        st.tuples(pile, ints).map(lambda t: f"choose c from {t[0]} count {t[1]}"),
        st.tuples(_conditions(ints), ints).map(lambda t: f"if: {t[0]}\n  then: [add {t[1]} to total]"),
        st.tuples(ints, ints).map(lambda t: f"repeat: {t[0]}\n  do: [add {t[1]} to total]"),   # a count of nothing
    )
    # every run starts by binding the names the steps may read (x, c), so none is unbound
    return st.lists(one, min_size=1, max_size=6).map(
        lambda steps: "\n".join(f"- {s}" for s in ["let x = 1", "let c = top(pile)", *steps]))


def _run_to_the_end(ir, players: int, seed: int):
    game = Game(ir, players, seed)
    play_on(game, [make_agent("random", seed, seat) for seat in range(players)])


RUN_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@RUN_SETTINGS
@given(play=_steps(), scoring=_steps(), watched=_conditions(_ints(1)), dealt=st.integers(0, 3),
       players=st.integers(1, 2), seed=st.integers(0, 9))
def test_rules_that_compute_with_nothing_fail_with_their_source_or_run_to_the_end(
        tmp_path_factory, play, scoring, watched, dealt, players, seed):
    """Compiled and played to the end by random agents: the only outcomes are diagnostics, a
    finished game, or a rule failure naming a file:line:col; never another exception."""
    folder = tmp_path_factory.mktemp("fuzz")
    indent = " " * 8
    (folder / "game.yaml").write_text(RULES.format(dealt=dealt, watched=watched, play=textwrap.indent(play, indent),
                                                   scoring=textwrap.indent(scoring, indent)))
    (folder / "cards.yaml").write_text(CHIPS)
    try:
        ir = compile_game(folder)
    except CompileError as error:
        assert error.diagnostics and all(d.line >= 1 for d in error.diagnostics)
        event(f"diagnostics: {error.diagnostics[0].code}")
        return
    try:
        _run_to_the_end(ir, players, seed)
        event("played to the end")
    except GameError as error:
        event("rule failed")
        assert re.search(r"game\.yaml:\d+:\d+", str(error)), str(error)
