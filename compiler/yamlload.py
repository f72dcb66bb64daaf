"""YAML → plain data plus the line and column of every value.

Scalars are read the YAML 1.2 way editors do (`no` stays a string, `1:30` is not 90):
only true/false, null, integers and decimals are converted; everything else is a string.
The C loader is used where present (10× faster, same marks). Only safe loaders are used.
"""

from __future__ import annotations

import re

import yaml

from .diagnostics import Diagnostic

_Loader: type[yaml.CSafeLoader] | type[yaml.SafeLoader]
try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml
    _Loader = yaml.SafeLoader

_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
MAX_VALUES = 200_000  # 100 times as many as the largest bundled file holds
MAX_DEPTH = 50  # of nested lists and mappings; the bundled files nest 10 deep
MAX_INT_DIGITS = 15  # beyond any count or score; Python refuses past 4,300 digits
_PLAIN = {"true": True, "True": True, "false": False, "False": False, "null": None, "~": None, "": None}


class Located:
    """Where each value of a loaded document sits: path tuple -> (line, col), both from 1."""

    def __init__(self, file: str):
        self.file = file
        self.marks: dict[tuple, tuple[int, int]] = {}
        self.scalars: dict[tuple, yaml.ScalarNode] = {}

    def key_at(self, path: tuple) -> tuple[int, int]:
        """Where the key of the value at `path` is written (or the value, for list items)."""
        return self.marks.get(path + ("<key>",)) or self.at(path)

    def at(self, path: tuple) -> tuple[int, int]:
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path, (1, 1))

    def error(
        self, path: tuple, code: str, message: str, hint: str = "", *, at_key: bool = False
    ) -> Diagnostic:
        line, col = self.key_at(path) if at_key else self.at(path)
        return Diagnostic(self.file, line, col, code, message, hint)


def load(text: str, file: str):
    """Parse one YAML document; returns (data, Located) or raises a Diagnostic list."""
    located = Located(file)
    try:
        if len(text) > 2 * MAX_VALUES:  # a shorter text cannot hold that many values
            _count_values(text, file)
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as error:
        raise YamlError([_syntax_error(error, text, file)]) from None
    errors: list[Diagnostic] = []
    budget = [MAX_VALUES]
    data = _construct(node, (), located, errors, budget) if node is not None else None
    if errors:
        raise YamlError(errors)
    return data, located


def _count_values(text: str, file: str):
    """Refuse a document of more than MAX_VALUES values before composing it, which would build
    a node for each at once: the parser's events come one at a time."""
    count = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent, yaml.CollectionStartEvent)):
            count += 1
            if count > MAX_VALUES:
                raise YamlError(
                    [
                        _at(
                            event,
                            file,
                            f"the document has more than {MAX_VALUES} values",
                            "split it into several files",
                        )
                    ]
                )


def _at(node, file: str, message: str, hint: str = "") -> Diagnostic:
    mark = node.start_mark
    return Diagnostic(file, mark.line + 1, mark.column + 1, "E0102", message, hint)


# Errors found at the end of the text are best shown where the unclosed thing opened.
_UNCLOSED = {
    "while scanning a quoted scalar": (
        "this quoted text is never closed",
        "add the closing {char} at the end of the text",
    ),
    "while parsing a flow sequence": ("this '[' is never closed", "add the closing ']' after the last item"),
    "while parsing a flow mapping": ("this '{' is never closed", "add the closing '}' after the last item"),
}


def _syntax_error(error, text: str, file: str) -> Diagnostic:
    context = getattr(error, "context", None)
    opened = getattr(error, "context_mark", None)
    if context in _UNCLOSED and opened is not None:
        message, hint = _UNCLOSED[context]
        char = text[opened.index] if opened.index < len(text) else "quote"
        return Diagnostic(
            file,
            opened.line + 1,
            opened.column + 1,
            "E0102",
            f"YAML syntax error: {message}",
            hint.replace("{char}", char),
        )
    mark = getattr(error, "problem_mark", None) or opened
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    if isinstance(error, yaml.reader.ReaderError):  # a character YAML refuses, said at its place
        before = text[: error.position]
        return Diagnostic(
            file,
            before.count("\n") + 1,
            error.position - before.rfind("\n"),
            "E0102",
            f"YAML syntax error: this character (#x{error.character:04x}) cannot be in a YAML file: "
            + error.reason,
            "remove it: a YAML file holds printable text",
        )
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    lines = text.splitlines()
    if (
        line <= len(lines)
        and "\t" in lines[line - 1][: max(col, len(lines[line - 1]) - len(lines[line - 1].lstrip()))]
    ):
        return Diagnostic(
            file,
            line,
            col,
            "E0102",
            "YAML syntax error: a tab in the indentation",
            "YAML indents with spaces only: replace the tab with spaces",
        )
    return Diagnostic(
        file,
        line,
        col,
        "E0102",
        f"YAML syntax error: {problem}",
        "check the indentation and quoting on this line or the one before",
    )


class YamlError(Exception):
    def __init__(self, diagnostics):
        super().__init__(diagnostics[0].message)
        self.diagnostics = diagnostics


def _construct(node, path, located, errors, budget):
    budget[0] -= 1
    if budget[0] < 0:  # aliases can make a small file expand enormously ("billion laughs")
        raise YamlError(
            [
                _at(
                    node,
                    located.file,
                    f"the document expands to more than {MAX_VALUES} values",
                    "YAML aliases (*name) are expanding too far",
                )
            ]
        )
    if len(path) > MAX_DEPTH:
        raise YamlError(
            [_at(node, located.file, f"lists and mappings are nested more than {MAX_DEPTH} deep")]
        )
    located.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        result = {}
        for key_node, value_node in node.value:
            key = (
                _scalar(key_node, located)
                if isinstance(key_node, yaml.ScalarNode)
                else _construct(key_node, path + ("<key>",), located, errors, budget)
            )
            mark = key_node.start_mark
            at = (located.file, mark.line + 1, mark.column + 1)
            if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *base`, which a safe loader would merge
                hint = "write the keys out in this mapping: silvics does not merge one mapping into another"
                errors.append(Diagnostic(*at, "E0102", "a merge key (<<) is not read here", hint))
                continue
            if isinstance(key, (list, dict)):
                message = "a key must be a single word or number, not a list or mapping"
                errors.append(Diagnostic(*at, "E0102", message))
                continue
            if key in result:
                hint = "the second one would silently replace the first"
                errors.append(Diagnostic(*at, "E0103", f"key '{key}' appears twice", hint))
            located.marks[path + (key, "<key>")] = (mark.line + 1, mark.column + 1)
            result[key] = _construct(value_node, path + (key,), located, errors, budget)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, path + (i,), located, errors, budget) for i, item in enumerate(node.value)]
    located.scalars[path] = node
    return _scalar(node, located)


def _scalar(node, located: Located):
    if node.style:  # quoted or block scalars are always strings
        return node.value
    text = node.value
    if text in _PLAIN:
        return _PLAIN[text]
    if _INT.match(text):
        if len(text.lstrip("+-")) > MAX_INT_DIGITS:
            raise YamlError(
                [
                    _at(
                        node,
                        located.file,
                        f"this number has more than {MAX_INT_DIGITS} digits",
                        "numbers in rules and cards are counts and scores: write a smaller one",
                    )
                ]
            )
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def dumped(value, flow: bool = False) -> str:
    """Loaded data written back as YAML (lists of steps as designers write them), for the pages
    that show rules as written: in flow style on one line, or in block style."""
    text = yaml.safe_dump(
        _plain(value),
        default_flow_style=flow,
        width=10**6 if flow else 100,
        sort_keys=False,
        allow_unicode=True,
    ).strip()
    return text.removesuffix("\n...")  # a scalar alone ends the document with "..."


def _plain(value):
    """Tuples and mappings of every kind as the lists and dicts PyYAML's safe dumper writes."""
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value
