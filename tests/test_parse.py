"""The effect-language parser is loaded from tables saved beside the grammar (compiler/parse.py):
they must be the grammar's, and a parser loaded from them must read every string as the parser
built from the grammar reads it, positions and errors included."""

from __future__ import annotations

import json

import pytest
from lark import Token, Tree

from silvics.compiler import parse
from silvics.compiler.build import compile_game
from silvics.compiler.parse import EXAMPLES, EffectSyntaxError, Source
from silvics.interpreter.registry import load_all, prepositions

from conftest import ROOT

GAMES = ("four-forests", "reforest", "forest-shuffle", "renature")
MISTAKES = ["move 1 from", "count(hand where", "value >= >= 3", "score 2 per", "x.y.z(", "move 1 to to hand"]


@pytest.fixture(scope="module")
def bundled_strings():
    """Every effect string the four games parse, with what it is parsed as."""
    seen = []
    original = parse._tree

    def recording(text, start):
        seen.append((text, start))
        return original(text, start)

    parse._tree = recording
    try:
        for game in GAMES:
            compile_game(ROOT / "rules" / game / "game.yaml")
    finally:
        parse._tree = original
    return sorted(set(seen))


def _read(parser, text: str, start: str):
    tree = parser.parse(text, start=f"start_{start}")
    assert isinstance(tree, Tree)
    return _shown(tree)


def _shown(tree):
    """The tree as nested tuples, each rule and token with where it starts and ends (a loaded
    parser names a rule by a plain string, a built one by a Token: the same text)."""

    def shown(node):
        if node is None:  # an optional part left out
            return None
        if isinstance(node, Token):
            return (node.type, str(node), node.line, node.column, node.end_line, node.end_column)
        meta = node.meta
        where = (meta.line, meta.column, meta.end_line, meta.end_column) if not meta.empty else ()
        return (str(node.data), where, tuple(shown(child) for child in node.children))

    return shown(tree)


def _said(text: str, start: str):
    """What parse() says of a text: its tree, or its diagnostic."""
    try:
        return _shown(parse.parse(text, Source("x.yaml", 3, 7), start))
    except EffectSyntaxError as error:
        return error.diagnostic


def test_the_saved_tables_are_the_grammars():
    load_all()
    saved = json.loads(parse.TABLES.read_text(encoding="utf-8"))
    text = parse._grammar(tuple(prepositions()))
    assert saved["made from"]["grammar"] == parse._made_from(text)["grammar"], (
        "effects.lark or the registry's prepositions changed: run `python -m silvics.compiler.parse`"
    )


def test_a_parser_loaded_from_tables_reads_as_the_built_one(bundled_strings, tmp_path, monkeypatch):
    """Tables saved by this Lark, loaded as the saved ones are: the same trees, positions and
    diagnostics for every string of the four games, the error examples and some mistakes."""
    load_all()
    keywords = tuple(prepositions())
    built = parse._built(parse._grammar(keywords))
    monkeypatch.setattr(parse, "TABLES", tmp_path / "effects.tables.json")
    parse.TABLES.write_text(parse.tables(), encoding="utf-8")
    parse._parser.cache_clear()
    try:
        loaded = parse.parser()
        assert loaded.source_path == "<deserialized>"  # read from the tables, not built
        assert len(bundled_strings) > 500
        for text, start in bundled_strings:
            assert _read(loaded, text, start) == _read(built, text, start), text
        bad = [(text, start) for text in [*sum(EXAMPLES.values(), []), *MISTAKES] for start in ("statement", "expr")]
        said = [_said(text, start) for text, start in bad]
        parse._parsed.cache_clear()
        monkeypatch.setattr(parse, "parser", lambda: built)
        assert said == [_said(text, start) for text, start in bad]
    finally:
        parse._parser.cache_clear()
        parse._parsed.cache_clear()


def test_tables_of_another_grammar_or_lark_are_not_used(tmp_path, monkeypatch):
    """Tables made from another grammar (or by another Lark) would parse another language: the
    parser is then built from the grammar, as are tables that are not JSON."""
    load_all()
    monkeypatch.setattr(parse, "TABLES", tmp_path / "effects.tables.json")
    saved = json.loads(parse.tables())
    for field, other in (("grammar", "0" * 64), ("lark", "0.0.1")):
        parse.TABLES.write_text(json.dumps({**saved, "made from": {**saved["made from"], field: other}}))
        parse._parser.cache_clear()
        assert parse.parser().source_path != "<deserialized>"
    parse.TABLES.write_text("{not json")
    parse._parser.cache_clear()
    assert parse.parser().source_path != "<deserialized>"
    parse._parser.cache_clear()
