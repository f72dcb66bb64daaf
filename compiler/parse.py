"""Effect-language strings → Lark trees, with positions mapped back to the YAML file.

The grammar lives in effects.lark; its PREP keywords are the registry's prepositions, so
a new action parameter needs no grammar edit. The LALR parser is built once per process, from
the tables saved beside the grammar (effects.tables.json, as Lark serialises them) when they
were made from the same grammar by the same Lark, else from the grammar: building the tables
took each of `check`'s workers 34 ms, loading them takes 3 ms. `python -m silvics.compiler.parse`
saves them afresh; tests/test_parse.py fails while they are not the grammar's.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.grammar import Rule
from lark.lexer import TerminalDef

from ..interpreter.ir import Span
from ..interpreter.registry import load_all, prepositions
from .diagnostics import Diagnostic

GRAMMAR = Path(__file__).with_name("effects.lark")
TABLES = Path(__file__).with_name("effects.tables.json")  # the parser as Lark serialises it (see above)
START = ["start_statement", "start_expr"]
MAX_NESTING = 100  # parts inside parts (a sum of n terms nests n deep); the bundled effects nest 10 deep
MAX_INT_DIGITS = 15  # as in YAML (yamlload.MAX_INT_DIGITS)

# Bad inputs with the message each kind of mistake deserves (Lark's match_examples).
EXAMPLES = {
    "a comparison needs a value on both sides": ["value >=", "value = ", "count(hand) <"],
    "unclosed bracket or parenthesis": [
        "count(hand",
        "[for, against",
        "(value > 3",
        "suit in [boreal, temperate",
        "value in [1, 2",
        "count(hand where value > 3",
        "sum(v.value for v in hand",
        "not (value > 3 or suit = boreal",
    ],
    "two values side by side: join them with and, or, or a comparison": [
        "value 6",
        "suit boreal",
        "let total 5",
        "move card hand",
        "add 1 coins",
    ],
    "a statement starts with an action word, e.g. 'move 1 from deck to hand'": ["4 from deck to hand"],
}


@dataclass(frozen=True, slots=True)
class Source:
    """Where an effect string sits in its file, to turn string positions into file positions."""

    file: str
    line: int
    col: int  # column of the string's first character in the file
    single_line: bool = True
    # where each character of the string sits in the file, (line, col), when they are not one to one
    # with its text: a quoted string's escapes (\", '') and a string folded over several lines
    places: tuple[tuple[int, int], ...] = ()
    breaks: tuple[int, ...] = ()  # with `places`: where the string's own line breaks are in it

    def span(self, line: int, col: int) -> Span:
        if self.places:
            offset = col - 1 + (self.breaks[line - 2] + 1 if 1 < line <= len(self.breaks) + 1 else 0)
            if offset < len(self.places):
                return Span(self.file, *self.places[offset])
            end_line, end_col = self.places[-1]  # (the text's end: just after its last character)
            return Span(self.file, end_line, end_col + 1 + offset - len(self.places))
        if line == 1 or not self.single_line:
            return Span(self.file, self.line + line - 1, self.col + col - 1)
        return Span(self.file, self.line + line - 1, col)


def parser() -> Lark:
    """The parser for the registry as it stands (a primitive declared with a new keyword gets a new one)."""
    load_all()
    return _parser(tuple(prepositions()))


@lru_cache(maxsize=4)
def _parser(keywords: tuple) -> Lark:
    text = _grammar(keywords)
    saved = _saved_tables(text)
    if saved is not None:
        try:
            return Lark._load_from_dict(saved["data"], saved["memo"])
        except Exception:  # a Lark that reads them otherwise: build them, as without them
            pass
    return _built(text)


def _grammar(keywords: tuple) -> str:
    words = " | ".join(f'"{word}"' for word in keywords)
    return GRAMMAR.read_text(encoding="utf-8").replace("__PREPOSITIONS__", words)


def _built(text: str) -> Lark:
    return Lark(text, parser="lalr", start=START, propagate_positions=True)


def _made_from(text: str) -> dict:
    """What saved tables must have been made from to be used: this grammar, by this Lark."""
    return {"grammar": hashlib.sha256(text.encode()).hexdigest(), "lark": lark.__version__}


def _saved_tables(text: str) -> dict | None:
    try:
        saved = json.loads(TABLES.read_text(encoding="utf-8"), object_pairs_hook=_numbered)
    except (OSError, ValueError):
        return None
    return saved if saved.get("made from") == _made_from(text) else None


def _numbered(pairs) -> dict:
    """A JSON object with its numbered keys as Lark wrote them: numbers (JSON's keys are text)."""
    return {int(key) if key.isdigit() else key: value for key, value in pairs}


def tables() -> str:
    """The tables of the parser built from the grammar as it stands, as TABLES holds them."""
    load_all()
    text = _grammar(tuple(prepositions()))
    data, memo = _built(text).memo_serialize([TerminalDef, Rule])
    return json.dumps({"made from": _made_from(text), "data": data, "memo": memo}, sort_keys=True) + "\n"


class EffectSyntaxError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def parse(text: str, source: Source, start: str) -> Tree:
    """Parse a statement (`start="statement"`) or an expression (`start="expr"`)."""
    try:
        tree = _tree(text, start)
    except UnexpectedInput as error:
        raise EffectSyntaxError(_diagnostic(error, text, source, start)) from None
    _check_limits(tree, source)
    return tree


def _check_limits(tree: Tree, source: Source):
    """Refuse parts nested too deep (every later stage walks trees recursively) and numbers too
    long to be a count or a score, at the place in the string where the limit is passed.
    The walk is iterative and linear; LALR parsing itself recurses on nothing."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            _refuse(
                node,
                source,
                f"this effect is nested more than {MAX_NESTING} deep",
                "split it: name a part under define: and use the name",
            )
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
            elif (
                isinstance(child, Token) and child.type == "INT" and len(child.lstrip("+-")) > MAX_INT_DIGITS
            ):
                _refuse(
                    child,
                    source,
                    f"this number has more than {MAX_INT_DIGITS} digits",
                    "numbers in rules and cards are counts and scores: write a smaller one",
                )


def _refuse(where, source: Source, message: str, hint: str):
    meta = where if isinstance(where, Token) else where.meta
    span = source.span(getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)
    raise EffectSyntaxError(Diagnostic(span.file, span.line, span.col, "E0301", message, hint))


def _tree(text: str, start: str) -> Tree:
    return _parsed(text, start, parser())


@lru_cache(maxsize=4096)
def _parsed(text: str, start: str, by: Lark) -> Tree:
    """Parse trees by text: the same string (a repeated condition, a rule used twice) parses once."""
    tree = by.parse(text, start=f"start_{start}").children[0]
    assert isinstance(tree, Tree)  # each start rule holds one rule's tree (a lone INT is a `number`)
    return tree


def _diagnostic(error: UnexpectedInput, text: str, source: Source, start: str) -> Diagnostic:
    token = getattr(error, "token", None)  # the token met (UnexpectedToken, UnexpectedEOF)
    at_end = isinstance(error, UnexpectedEOF) or getattr(token, "type", "") == "$END"
    line, col = _end(text) if at_end or not (error.line and error.line > 0) else (error.line, error.column)
    span = source.span(line, col)
    label = _label(error, start)
    char = getattr(error, "char", "")
    typed = _TYPED.get(char)  # a sign a word processor writes
    if isinstance(error, UnexpectedCharacters):
        message = f"unexpected character {error.char!r}"
    elif isinstance(error, UnexpectedEOF) or token is None or token.type == "$END":
        message = "the text ends too soon"
    else:
        message = f"unexpected {_describe(token)}"
    expected = sorted(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())
    hint = label or (f"expected one of: {', '.join(_name(e) for e in expected[:8])}" if expected else "")
    if typed is not None:
        hint = f"write {typed} for {char}"
    return Diagnostic(span.file, span.line, span.col, "E0301", f"syntax error in effect: {message}", hint)


# The signs an editor or a word processor puts for the effect language's own
_TYPED = {
    "≥": ">=",
    "≤": "<=",
    "≠": "!=",
    "×": "*",
    "÷": "/",
    "−": "-",
    "–": "-",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
}


def _label(error, start):
    try:
        return error.match_examples(
            lambda s: parser().parse(s, start=f"start_{start}"), EXAMPLES, use_accepts=True
        )
    except Exception:  # a label is a courtesy; never let it hide the real error
        return None


def _end(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


def _describe(token: Token) -> str:
    return f"word '{token}'" if token.type in ("NAME", "PREP") else f"'{token}'"


def _name(terminal: str) -> str:
    names = {
        "NAME": "a name",
        "INT": "a number",
        "STRING": "a quoted word",
        "LPAR": "'('",
        "RPAR": "')'",
        "LSQB": "'['",
        "RSQB": "']'",
        "COMMA": "','",
        "COMP": "a comparison",
        "PREP": "a part such as 'to'",
        "$END": "the end",
        "ADDOP": "+ or -",
        "MULOP": "* or /",
        "DOT": "'.'",
        "MINUS": "'-'",
        "__ANON_0": "a keyword",
        "WHERE": "where",
        "AND": "and",
        "OR": "or",
        "NOT": "not",
        "IN": "in",
        "HAS": "has",
        "FOR": "for",
    }
    return names.get(terminal, terminal.lower().strip("_"))


if __name__ == "__main__":  # python -m silvics.compiler.parse: save the tables afresh
    TABLES.write_text(tables(), encoding="utf-8")
    print(f"wrote {TABLES}")
