"""Fuzzing: whatever a designer types, the compiler answers with diagnostics, never a crash.
(hypothesis generates and shrinks the inputs.)"""
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from silvics.compiler.build import compile_game
from silvics.compiler.diagnostics import CompileError
from silvics.compiler.lower import Decls, Lowerer, LowerError, Scope
from silvics.compiler.parse import Source

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
    shutil.copytree(ROOT / "rules", folder / "rules")
    shutil.copytree(ROOT / "cards", folder / "cards")
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
