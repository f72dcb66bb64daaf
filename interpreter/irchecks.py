"""Reading a saved IR: every value is checked as it is decoded, before anything runs.

An IR file is untrusted input (downloaded, edited by hand, cut short by a full disk).
`decode(text)` returns a `GameIR` only when the whole file is well-formed: every object has
its class tag and fields of the right JSON types, numbers are in range, every node names a
registered primitive and has the parts it declares, and every name a node uses (a zone, a
counter, a procedure, a definition body) is declared in the file. The first problem is
raised as an `IRError` naming its place as a JSON path, e.g.
`procedures.play.args.steps[3].args: move needs to`.

One table-driven pass: a shape (a decoding function) per field of each IR class and per
parameter type of the registry, so checking adds little to decoding (see docs). Nesting is
counted as it is decoded and bounded (MAX_DEPTH), so no file reaches Python's recursion
limit here, or later when the rules are built and run.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any

from .images import BadImage, checked_uri
from .ir import (
    IR_VERSION,
    AttrDecl,
    CardDef,
    Company,
    CounterDecl,
    FaceDecl,
    GameIR,
    IRError,
    KindDecl,
    Module,
    Node,
    OptionDecl,
    Pack,
    Phrase,
    SideDef,
    Solo,
    SpaceDef,
    Span,
    Strategy,
    StrategyRule,
    TableLayout,
    Vocabulary,
    ZoneDecl,
)
from .registry import REGISTRY, ShapeError, check_shape, has_role, load_all
from .state import BOX

MAX_TEXT = 64 * 2**20  # bytes of JSON (the largest bundled game's IR: 0.4 MB)
MAX_DEPTH = 200  # nested JSON objects and lists, definition bodies included (bundled games: 72 at most)
MAX_PLAYERS = 16
MAX_COPIES = 1000  # of one card
MAX_CARDS = 100_000  # copies of all cards together
MAX_COLUMNS = 1000  # of a grid zone
MAX_SPACES = 10_000  # of a grid zone's map (compiler/boards.py says the same)
MAX_CARD_MM = 1000  # a card's width or height, in mm
MAX_ART_SHARE = 80  # percent of a face's height its art box may take
MAX_WHOLE = 10**9  # any other whole number in the file, either sign
MARKERS = ("first",)  # the player markers every game has (State.new)
REQUIRED_PROCEDURES = ("setup", "play", "scoring")


def decode(text: str) -> GameIR:
    """The GameIR in `text`, checked throughout (see the module's docstring)."""
    load_all()
    data = _parse(text)
    if type(data) is not dict:
        raise IRError(f"an IR file holds one JSON object (a GameIR), not {_describe(data)}")
    version = data.get("version")  # first: a file of another version may differ in any other way
    if type(version) is not int or version != IR_VERSION:
        if "version" not in data:
            raise IRError(f'no "version" (this silvics reads IR version {IR_VERSION})')
        raise IRError(
            f"IR version {_shown(version)} is not supported (this silvics reads version {IR_VERSION})"
        )
    bodies = data.pop("definition_bodies", {})
    if type(bodies) is not dict:
        raise _wrong("an object", bodies).inside("definition_bodies")
    return _Reader(bodies).game(data)


# ---- JSON text ---------------------------------------------------------------------------


class _NonNumber:
    """NaN, Infinity or -Infinity, which Python's json accepts: no shape takes it."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


def _parse(text: str):
    if len(text) > MAX_TEXT:
        raise IRError(f"the file is larger than {MAX_TEXT // 2**20} MB")
    try:
        return json.loads(text, parse_constant=_NonNumber)
    except json.JSONDecodeError as error:
        ends = error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated")
        raise IRError(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
            + (" (the file ends too soon: truncated?)" if ends else "")
        ) from None
    except RecursionError:  # json's own limit (about 1000 levels): find where ours was passed
        raise IRError(f"nested more than {MAX_DEPTH} levels deep, at {_too_deep(text)}") from None
    except ValueError as error:  # a whole number of more than 4300 digits
        raise IRError(f"not readable: {str(error).split(';')[0]}") from None


def _too_deep(text: str) -> str:
    """Where (line, column) the JSON text first nests deeper than MAX_DEPTH (an error path only)."""
    depth, in_string, escaped = 0, False, False
    for index, char in enumerate(text):
        if in_string:
            in_string, escaped = (escaped or char != '"'), (not escaped and char == "\\")
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, index)
                return f"line {line + 1}, column {index - text.rfind(chr(10), 0, index)}"
        elif char in "]}":
            depth -= 1
    return "the end"


_JSON_TYPES = {
    dict: "an object",
    list: "a list",
    tuple: "a list",
    str: "a string",
    int: "a whole number",
    float: "a decimal number",
    bool: "true or false",
    type(None): "null",
}


def _describe(value) -> str:
    """What a JSON value is, for a message: `a string ("hand")`, `a list`, `NaN`."""
    if type(value) is _NonNumber:
        return value.name
    kind = _JSON_TYPES.get(type(value), type(value).__name__)
    return f"{kind} ({_shown(value)})" if type(value) in (str, int, float) else kind


def _shown(value) -> str:
    """A value as JSON, cut short."""
    shown = repr(value) if type(value) is _NonNumber else json.dumps(value)
    return shown if len(shown) <= 40 else shown[:39] + "…"


def _wrong(expected: str, value) -> IRError:
    return IRError(f"should be {expected}, not {_describe(value)}")


# ---- shapes: decode one JSON value or raise IRError --------------------------------------------
# A shape is a function (reader, value, depth) -> decoded value; containers add one to `depth`.
# Each carries `schema`, the JSON Schema fragment it stands for (irschema.py assembles them).


def _described(schema: dict):
    def mark(shape):
        shape.schema = schema
        return shape

    return mark


@_described({"type": "string"})
def _text(reader, value, depth):
    if type(value) is not str:
        raise _wrong("a string", value)
    return value


@_described({"type": "boolean"})
def _flag(reader, value, depth):
    if type(value) is not bool:
        raise _wrong("true or false", value)
    return value


def _whole(low: int, high: int):
    @_described({"type": "integer", "minimum": low, "maximum": high})
    def whole(reader, value, depth):
        if type(value) is not int:
            raise _wrong("a whole number", value)
        if not low <= value <= high:
            raise IRError(f"should be from {low} to {high}, not {value}")
        return value

    return whole


_number = _whole(-MAX_WHOLE, MAX_WHOLE)


def _word(*words):
    @_described({"enum": list(words)})
    def word(reader, value, depth):
        if type(value) is not str or value not in words:
            raise _wrong(" or ".join(map(json.dumps, words)), value)
        return value

    return word


@_described({"type": ["string", "integer", "boolean", "null"], "minimum": -MAX_WHOLE, "maximum": MAX_WHOLE})
def _scalar(reader, value, depth):
    """A literal: a string, a whole number, true/false or null."""
    if type(value) is int:
        return _number(reader, value, depth)
    if type(value) not in (str, bool, type(None)):
        raise _wrong("a string, a whole number, true, false or null", value)
    return value


def _parts(reader, places, depth):
    """Each (key, shape, element) decoded one level deeper, as (key, value); a problem is placed
    at its key."""
    reader.deeper(depth)
    for key, shape, element in places:
        try:
            yield key, shape(reader, element, depth + 1)
        except IRError as error:
            raise error.inside(key) from None


def _list(item):
    @_described({"type": "array", "items": item.schema})
    def items(reader, value, depth):
        if type(value) is not list:
            raise _wrong("a list", value)
        return tuple(v for _, v in _parts(reader, ((i, item, e) for i, e in enumerate(value)), depth))

    return items


def _map(item):
    """An object used as a table: any keys, each value of one shape."""

    @_described({"type": "object", "additionalProperties": item.schema})
    def table(reader, value, depth):
        if type(value) is not dict:
            raise _wrong("an object", value)
        return dict(_parts(reader, ((k, item, e) for k, e in value.items()), depth))

    return table


def _fixed(*shapes):
    """A list of fixed length, each place of its own shape (a definition: name, parameters, text)."""

    @_described(
        {"type": "array", "prefixItems": [s.schema for s in shapes], "items": False, "minItems": len(shapes)}
    )
    def fixed(reader, value, depth):
        if type(value) is not list or len(value) != len(shapes):
            raise _wrong(f"a list of {len(shapes)}", value)
        places = ((index, shape, element) for index, (shape, element) in enumerate(zip(shapes, value)))
        return tuple(v for _, v in _parts(reader, places, depth))

    return fixed


def _by_json_type(schema: dict, **shapes):
    """The shape for the value's JSON type: `list=`, `object=`, `other=` (chosen, not tried in turn)."""
    other = shapes["other"]
    on_list, on_object = shapes.get("list", other), shapes.get("object", other)

    @_described(schema)
    def either(reader, value, depth):
        kind = type(value)
        return (on_list if kind is list else on_object if kind is dict else other)(reader, value, depth)

    return either


def _any_of(*shapes) -> dict:
    return {"anyOf": [shape.schema for shape in shapes]}


@_described({"$ref": "#/$defs/written"})
def _written(reader, value, depth):
    """Text kept as the designer wrote it (strings, numbers, lists and mappings, as YAML gives
    them), shown but never run."""
    if type(value) is list:
        return _written_list(reader, value, depth)
    if type(value) is dict:
        return _written_map(reader, value, depth)
    if type(value) is float and math.isfinite(value):
        return value
    return _scalar(reader, value, depth)


_written_list, _written_map = _list(_written), _map(_written)
COLOUR_PATTERN = "^#[0-9a-fA-F]{6}$"


@_described({"type": "string", "pattern": COLOUR_PATTERN})
def _colour(reader, value, depth):
    """A colour as #rrggbb (drawn into SVG attributes: nothing else may get in)."""
    if type(value) is not str or not re.fullmatch(COLOUR_PATTERN[1:-1], value):
        raise _wrong("a colour written #rrggbb", value)
    return value


@_described({"type": "string", "pattern": "^(data:image/(png|jpeg|svg\\+xml);base64,[A-Za-z0-9+/=]+)?$"})
def _picture(reader, value, depth):
    """A picture as a data URI (drawn into faces: checked as the compiler checks the file), or ""."""
    if type(value) is not str:
        raise _wrong("a picture's data URI", value)
    try:
        return value and checked_uri(value)
    except BadImage as refusal:
        raise IRError(refusal.message) from None


SPAN_PATTERN = r"^.+:[0-9]{1,9}:[0-9]{1,9}$"
_SPAN = re.compile(r"(.+):([0-9]{1,9}):([0-9]{1,9})", re.S)


@_described({"$ref": "#/$defs/span"})
def _span(reader, value, depth):
    if value is None:
        return None
    written = value.get("@") if type(value) is dict and len(value) == 1 else None
    match = _SPAN.fullmatch(written) if type(written) is str else None
    if match is None:
        raise IRError(f'should be a span, {{"@": "file:line:col"}}, not {_shown(value)}')
    return Span(match[1], int(match[2]), int(match[3]))


# ---- nodes -------------------------------------------------------------------------------------

# Where a node stands, what it may be: (test of its primitive, what the message calls it).
PLACES = {
    "expression": (lambda p: p.kind == "expression", "an expression"),
    "step": (lambda p: p.kind != "expression" and p.form != "interrupt", "a step (an action or flow)"),
    "interrupt": (lambda p: p.form == "interrupt", "an interrupt"),
    "pattern": (lambda p: p.form != "interrupt", "a step or an expression"),
}
_NODE_KEYS, _OP = {"$", "op", "args", "span"}, {"op"}


def _node(place: str):
    fits, called = PLACES[place]

    @_described({"$ref": f"#/$defs/{place}"})
    def node(reader, value, depth):
        if type(value) is not dict:
            raise _wrong(called, value)
        if "$body" in value:
            if place != "expression":
                raise IRError(f"a definition body is an expression; {called} is needed here")
            return reader.body(value, depth)
        reader.deeper(depth)
        if value.get("$") != "Node" or not _NODE_KEYS >= value.keys() >= _OP:
            _check_object("Node", value, _NODE_KEYS, _OP)
        op = value["op"]
        primitive = REGISTRY.get(op) if type(op) is str else None
        if primitive is None:
            raise IRError(f"no primitive {_shown(op)} in this interpreter").inside("op")
        if not fits(primitive):
            raise IRError(f"{op} is not {called}").inside("op")
        if "hole" in primitive.roles and not reader.in_phrase:
            raise IRError("a hole stands only in a phrase of the vocabulary").inside("op")
        try:
            decoded = reader.args(primitive, value.get("args", {}), depth + 1)
        except IRError as error:
            raise error.inside("args") from None
        try:
            span = _span(reader, value.get("span"), depth + 1)
        except IRError as error:
            raise error.inside("span") from None
        return Node(op, decoded, span)

    return node


_expression, _step, _interrupt = _node("expression"), _node("step"), _node("interrupt")


@_described({"type": "array", "items": {"$ref": "#/$defs/pattern"}})
def _pattern(reader, value, depth):
    """A phrase's pattern: steps or one expression, where holes may stand."""
    reader.in_phrase = True
    try:
        return _list(_node("pattern"))(reader, value, depth)
    finally:
        reader.in_phrase = False


_literal = _by_json_type(_any_of(_scalar, _list(_scalar)), list=_list(_scalar), other=_scalar)
_steps = _list(_step)
_expressions = _list(_expression)


def _or_null(shape):
    @_described({"anyOf": [{"type": "null"}, shape.schema]})
    def or_null(reader, value, depth):
        return None if value is None else shape(reader, value, depth)

    return or_null


def _playing(shape, role: str, called: str):
    """A node that plays a declared role (its handler reads the part the role names)."""

    @_described(
        {**shape.schema, "description": f"{called}: a node whose primitive declares the role {role!r}"}
    )
    def playing(reader, value, depth):
        node = shape(reader, value, depth)
        if not has_role(node, role):
            raise IRError(f"should be {called}, not {node.op}")
        return node

    return playing


def _block_of(role: str, called: str):
    """A block of steps each of which plays a declared role (`may in any order`: `for:` steps)."""
    block = _PARTS["block"]

    @_described({**block.schema, "description": f"a block of {called}"})
    def block_of(reader, value, depth):
        node = block(reader, value, depth)
        for i, step in enumerate(node.args["steps"]):
            if not has_role(step, role):
                raise IRError(f"should be {called}, not {step.op}").at("args", "steps", i)
        return node

    return block_of


def _op(*ops):
    @_described({"allOf": [_expression.schema, {"properties": {"op": {"enum": list(ops)}}}]})
    def one_of(reader, value, depth):
        node = _expression(reader, value, depth)
        if node.op not in ops:
            raise IRError(f"should be {' or '.join(ops)}, not {node.op}")
        return node

    return one_of


# The JSON shape of a part, by its declared type (registry.TYPES); any other type is one expression.
_PARTS = {
    "word": _text,
    "symbol": _text,
    "text": _text,
    "flag": _flag,
    "binding": _text,
    "procedures": _list(_text),
    "conditions": _list(_or_null(_expression)),
    "block": _playing(_step, "sequence", "a block of steps"),  # a body: a block, whose sequence is a list
    "effect": _playing(_expression, "attribute", "a card's attribute"),
    "target": _playing(_expression, "settable", "a counter or a mark"),
}
# Parts that their handlers read otherwise than their type alone says: a list of expressions
# (not one), names or a number as written, one of the operators the handler knows, a counter.
_AS_WRITTEN = {
    ("list", "items"): _expressions,
    ("union", "items"): _expressions,
    ("joined_spaces", "items"): _expressions,
    ("score", "label"): _expressions,
    ("rank", "by"): _expressions,
    ("computed", "given"): _expressions,
    ("let_in", "values"): _expressions,
    ("computed", "sees"): _list(_text),
    ("let_in", "names"): _list(_text),
    ("let_in", "variant"): _number,
    ("compare", "op"): _word("=", "!=", "<", "<=", ">", ">="),
    ("arith", "op"): _word("+", "-", "*", "/"),
    ("add", "to"): _op("counter"),
    ("may_each", "loops"): _block_of("loop body", "for: steps"),
}
GOES_WITH = {"move": [("count", "from")]}  # a part its handler reads only with another
# Nodes that name an entry of a table the game declares (with the `per` it is declared with).
_DECLARED_AS = {"zone": "zones", "spaces": "grids", "counter": "counters"}


def part_shape(primitive, param):
    """How a node of this primitive writes this part in JSON."""
    if (primitive.name, param.name) in _AS_WRITTEN:
        return _AS_WRITTEN[primitive.name, param.name]
    if param.type == "block" and primitive.roles.get("sequence") == param.name:
        return _steps
    if param.type == "value" and (
        param.derived == "compiler" or primitive.roles.get("literal") == param.name
    ):
        return _literal
    shape = _PARTS.get(param.type, _expression)
    return _list(shape) if param.arg == "rest" else shape


def _check_object(cls: str, value, allowed, required):
    """An object of the class `cls`: its tag, no unknown field, every required one."""
    if type(value) is not dict:
        raise _wrong(f"a {cls} object", value)
    if value.get("$") != cls:
        raise IRError(f'should be a {cls} object ("$": "{cls}"), not {_describe(value.get("$"))}').inside("$")
    strange = sorted(value.keys() - allowed)
    if strange:
        raise IRError(f"{cls} has no field {strange[0]!r}").inside(strange[0])
    missing = sorted(required - value.keys())
    if missing:
        raise IRError(f"{cls} needs its field {missing[0]!r}")


# ---- classes -----------------------------------------------------------------------------------

_ATTRIBUTE_TYPES = ("int", "enum", "set", "condition", "effect", "number", "numbers", "text")
_ATTRIBUTE_VALUES = {  # a card's value for an attribute, by the attribute's declared type
    "int": _number,
    "enum": _text,
    "set": _list(_text),
    "numbers": _list(_number),
    "condition": _expression,
    "effect": _step,
    "number": _by_json_type(_any_of(_expression, _number), object=_expression, other=_number),
    "text": _text,
}


def _declared_values(table: str, missing: str, schema: dict):
    """Decodes an object of attribute values, each of the type `reader.<table>` declares for it."""

    @_described(schema)
    def values(reader, value, depth):
        if type(value) is not dict:
            raise _wrong("an object", value)
        reader.deeper(depth)
        decoded, declared_in = {}, getattr(reader, table)
        for name, item in value.items():
            declared = declared_in.get(name)
            try:
                if declared is None:
                    raise IRError(f"{missing} {name!r}")
                decoded[name] = _ATTRIBUTE_VALUES[declared.type](reader, item, depth + 1)
            except IRError as error:
                raise error.inside(name) from None
        return decoded

    return values


_attributes = _declared_values(
    "attributes",
    "no kind declares an attribute",
    {
        "type": "object",
        "additionalProperties": {
            "anyOf": [
                {"type": ["integer", "string"]},
                {"type": "array", "items": {"type": ["integer", "string"]}},
                {"$ref": "#/$defs/expression"},
                {"$ref": "#/$defs/step"},
            ]
        },
    },
)
_space_attributes = _declared_values(
    "space_attributes",
    "spaces declare no attribute",
    {"type": "object", "additionalProperties": {"type": ["integer", "string", "array"]}},
)


def _record(cls: str):
    @_described({"$ref": f"#/$defs/{cls}"})
    def record(reader, value, depth):
        return reader.record(cls, value, depth)

    return record


FIELDS = {
    "ZoneDecl": {
        "name": _text,
        "per": _word("shared", "player", "card"),
        "visibility": _word("public", "owner", "hidden"),
        "rows": _list(_text),
        "columns": _whole(0, MAX_COLUMNS),
        "map": _list(_record("SpaceDef")),
        "face_down": _text,
    },
    "SpaceDef": {"row": _text, "column": _whole(1, MAX_COLUMNS), "attributes": _space_attributes},
    "CounterDecl": {
        "name": _text,
        "per": _word("shared", "player"),
        "start": _number,
        "names": _list(_text),
        "shown": _text,
    },
    "AttrDecl": {
        "name": _text,
        "type": _word(*_ATTRIBUTE_TYPES),
        "values": _list(_text),
        "on": _text,
        "within": _text,
        "sees": _list(_fixed(_text, _text)),
        "by": _word("", "owner"),
        "default": _or_null(_literal),
        "shown": _text,
    },
    "KindDecl": {"name": _text, "attributes": _list(_record("AttrDecl")), "sides": _list(_text)},
    "SideDef": {
        "side": _text,
        "name": _text,
        "attributes": _attributes,
        "text": _map(_written),
        "art": _picture,
    },
    "CardDef": {
        "id": _text,
        "kind": _text,
        "copies": _whole(1, MAX_COPIES),
        "sides": _list(_record("SideDef")),
        "span": _span,
        "origin": _text,
    },
    "FaceDecl": {
        "kind": _text,
        "width": _whole(1, MAX_CARD_MM),
        "height": _whole(1, MAX_CARD_MM),
        "colour": _text,
        "colours": _map(_colour),
        "corners": _list(_text),
        "badges": _list(_text),
        "split": _word("", "rows", "columns"),
        "art": _whole(0, MAX_ART_SHARE),
        "pictures": _list(_text),
        "flavour": _text,
    },
    "OptionDecl": {"name": _text, "values": _list(_text), "default": _text, "description": _text},
    "Company": {"module": _text, "when": _list(_text)},
    "Module": {
        "name": _text,
        "description": _text,
        "procedures": _map(_step),
        "before": _map(_PARTS["block"]),
        "after": _map(_PARTS["block"]),
        "cards": _list(_record("CardDef")),
        "requires": _list(_record("Company")),
        "excludes": _list(_record("Company")),
        "options": _list(_record("OptionDecl")),
        "players": _list(_whole(1, MAX_PLAYERS)),
        "maps": _map(_list(_record("SpaceDef"))),
        "written": _map(_text),
        "faces": _list(_record("FaceDecl")),
    },
    "GameIR": {
        "version": _whole(IR_VERSION, IR_VERSION),
        "spaces": _list(_record("AttrDecl")),
        "zones": _list(_record("ZoneDecl")),
        "counters": _list(_record("CounterDecl")),
        "kinds": _list(_record("KindDecl")),
        "marks": _list(_record("AttrDecl")),
        # read after the declarations above, which they refer to:
        "id": _text,
        "name": _text,
        "min_players": _whole(1, MAX_PLAYERS),
        "max_players": _whole(1, MAX_PLAYERS),
        "cards": _list(_record("CardDef")),
        "procedures": _map(_step),
        "modules": _map(_record("Module")),
        "interrupts": _list(_interrupt),
        "definitions": _list(_fixed(_text, _list(_text), _text)),
        "options": _list(_record("OptionDecl")),
        "tiebreak": _list(_expression),
        "vocabulary": _record("Vocabulary"),
        "written": _map(_text),
        "faces": _list(_record("FaceDecl")),
        "icons": _map(_map(_picture)),
        "strategies": _map(_record("Strategy")),
        "table": _record("TableLayout"),
        "solo": _record("Solo"),
        "pack": _record("Pack"),
    },
    "Solo": {"won": _or_null(_expression), "result": _text},
    "TableLayout": {"order": _list(_text), "hide": _list(_text)},
    "Pack": {"name": _text, "description": _text, "modules": _list(_text)},
    "StrategyRule": {"at": _text, "prefer": _or_null(_expression), "pick": _list(_text), "span": _span},
    "Strategy": {"name": _text, "doc": _text, "rules": _list(_record("StrategyRule"))},
    "Phrase": {"pattern": _pattern, "text": _text, "span": _span},
    "Vocabulary": {"labels": _map(_text), "phrases": _list(_record("Phrase")), "headings": _map(_text)},
}
_DECLARATIONS = ("version", "spaces", "zones", "counters", "kinds", "marks")
_CLASSES = {
    cls.__name__: cls
    for cls in (
        ZoneDecl,
        SpaceDef,
        CounterDecl,
        AttrDecl,
        KindDecl,
        SideDef,
        CardDef,
        FaceDecl,
        OptionDecl,
        Company,
        Module,
        Phrase,
        Vocabulary,
        StrategyRule,
        Strategy,
        Solo,
        TableLayout,
        Pack,
        GameIR,
    )
}
REQUIRED = {
    name: {f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}
    for name, cls in _CLASSES.items()
}
_ALLOWED = {name: set(table) | {"$"} for name, table in FIELDS.items()}


class _Reader:
    """One file's decoding: what it declares, for the references that follow, and its bodies."""

    def __init__(self, bodies: dict):
        self.bodies = bodies  # variant (a string) -> its JSON, as in the file
        self.decoded_bodies: dict = {}  # variant -> (Node, height): one shared object per variant
        self.deepest = 0
        self.declared: dict = {"zones": {}, "grids": {}, "counters": {}}
        self.attributes: dict = {}  # attribute name -> AttrDecl, of any kind
        self.space_attributes: dict = {}  # attribute name -> AttrDecl, of a grid's spaces
        self.kinds: dict = {}
        self.procedures: set = set()  # the rules' and every module's
        self.words: dict = {}  # the categories a part's `words` may name
        self.in_phrase = False  # a phrase's pattern is being read: holes may stand there

    def deeper(self, depth: int):
        if depth > self.deepest:
            if depth > MAX_DEPTH:
                raise IRError(f"nested more than {MAX_DEPTH} levels deep")
            self.deepest = depth

    # ---- objects ----
    def game(self, data: dict) -> GameIR:
        _check_object("GameIR", data, _ALLOWED["GameIR"], REQUIRED["GameIR"])
        decoded = self._fields("GameIR", data, _DECLARATIONS[:2], 0)
        self.space_attributes = {a.name: a for a in decoded.get("spaces", ())}  # which the zones' maps use
        decoded.update(self._fields("GameIR", data, _DECLARATIONS[2:], 0))
        self._declare(decoded)
        modules = _values(data.get("modules"))
        self.procedures = _keys(data.get("procedures")) | {
            name for module in modules for name in _keys(_get(module, "procedures"))
        }
        self.words["modules"] = _keys(data.get("modules"))
        self.words["options"] = {
            _get(option, "name")
            for options in [data.get("options")] + [_get(module, "options") for module in modules]
            for option in _items(options)
        }
        decoded.update(
            self._fields("GameIR", data, [f for f in FIELDS["GameIR"] if f not in _DECLARATIONS], 0)
        )
        game = GameIR(**decoded)
        _check_game(game)
        return game

    def record(self, cls: str, value, depth: int):
        _check_object(cls, value, _ALLOWED[cls], REQUIRED[cls])
        self.deeper(depth)
        made = _CLASSES[cls](**self._fields(cls, value, FIELDS[cls], depth))
        if cls in _CHECKS:
            _CHECKS[cls](self, made)
        return made

    def _fields(self, cls: str, data: dict, names, depth: int) -> dict:
        decoded = {}
        for name in names:
            if name in data:
                try:
                    decoded[name] = FIELDS[cls][name](self, data[name], depth + 1)
                except IRError as error:
                    raise error.inside(name) from None
        return decoded

    def _declare(self, decoded: dict):
        """Note what the file declares, which nodes and cards may then name."""
        for table in ("zones", "counters"):
            for index, entry in enumerate(decoded.get(table, ())):
                if entry.name in self.declared[table]:
                    raise IRError(f"{entry.name!r} is declared twice").at(table, index)
                self.declared[table][entry.name] = entry
        if BOX not in self.declared["zones"]:
            raise IRError(f"no zone {BOX!r} is declared (where every card starts)").inside("zones")
        self.declared["grids"] = {name: zone for name, zone in self.declared["zones"].items() if zone.rows}
        for index, kind in enumerate(decoded.get("kinds", ())):
            self.kinds[kind.name] = kind
            for position, attribute in enumerate(kind.attributes):
                self.attributes[attribute.name] = attribute
                self._within(attribute, "kinds", index, "attributes", position)
        for index, mark in enumerate(decoded.get("marks", ())):
            self._within(mark, "marks", index)
        self.words = {
            "marks": {mark.name for mark in decoded.get("marks", ())},
            "markers": set(MARKERS),
            "sides": {side for kind in self.kinds.values() for side in kind.sides} | {"random"},
            "events": {a.on for a in self.attributes.values() if a.on},
        }

    def _within(self, attribute: AttrDecl, *where):
        if attribute.within and attribute.within not in self.declared["zones"]:
            raise IRError(f"no zone {attribute.within!r} is declared").at(*where, "within")

    # ---- nodes ----
    def args(self, primitive, args, depth: int) -> dict:
        if type(args) is not dict:
            raise _wrong("an object", args)
        self.deeper(depth)
        signature = signature_of(primitive)
        if not signature.fits(args):
            raise _shape_problem(primitive, args)
        for part, other in GOES_WITH.get(primitive.name, ()):
            if part in args and other not in args:
                raise IRError(f"{primitive.name} with {part} needs {other}")
        decoded = {}
        for param, shape, checked in signature.parts:
            if param.name in args:
                try:
                    value = shape(self, args[param.name], depth + 1)
                    decoded[param.name] = self.part(primitive, param, value) if checked else value
                except IRError as error:
                    raise error.inside(param.name) from None
        self._resolve(primitive, decoded)
        return {name: decoded[name] for name in args}  # in the file's order

    def part(self, primitive, param, value):
        """Checks of a decoded part beyond its JSON shape: the words it may be, the procedures it names."""
        words = primitive.spelled if param.derived == "spelling" else param.words
        if isinstance(words, str):
            words = self.words.get(words, ())
        if words and value not in words:
            raise IRError(f"should be one of {', '.join(sorted(words))}, not {_describe(value)}")
        if param.type == "procedures":
            for index, name in enumerate(value):
                self._procedure(name, index)
        return value

    def _resolve(self, primitive, args: dict):
        """The names a node uses are declared: its zone, grid or counter, its procedure."""
        table = _DECLARED_AS.get(primitive.name)
        if table:
            declared = self.declared[table].get(args["name"])
            if declared is None:
                raise IRError(f"no {table[:-1]} {args['name']!r} is declared").inside("name")
            if declared.per != args["per"]:
                raise IRError(f"{args['name']} is declared per {declared.per}, not per {args['per']}").inside(
                    "per"
                )
        part = primitive.roles.get("procedure")
        if part in args:
            self._procedure(args[part], part)

    def _procedure(self, name: str, key):
        if name not in self.procedures:
            raise IRError(f"no procedure {name!r} in the rules or any module").inside(key)

    def body(self, value: dict, depth: int) -> Node:
        """A definition's body ({"$body": variant}): decoded once and shared, as compiled; its height
        counts wherever it is used."""
        variant = value["$body"]
        if value.keys() != {"$body"} or type(variant) is not int or str(variant) not in self.bodies:
            raise IRError(f"no definition body {_shown(variant)} in definition_bodies")
        if variant in self.decoded_bodies:
            node, height = self.decoded_bodies[variant]
            if node is None:
                raise IRError(f"definition body {variant} uses itself")
            self.deeper(depth + height)
            return node
        self.decoded_bodies[variant] = (None, 0)  # being decoded: a way back to it is a cycle
        outer, self.deepest = self.deepest, depth
        try:
            node = _expression(self, self.bodies[str(variant)], depth)
        except IRError as error:
            raise error.at("definition_bodies", str(variant)).root() from None
        height, self.deepest = self.deepest - depth, max(outer, self.deepest)
        self.decoded_bodies[variant] = (node, height)
        return node


def _shape_problem(primitive, args: dict) -> IRError:
    """What is wrong with a node's parts: in check_shape's words, or a part the compiler always writes."""
    try:
        check_shape(primitive.name, args)
    except ShapeError as error:
        return IRError(str(error))
    missing = [p.name for p in primitive.params if p.required and p.derived and p.name not in args]
    return IRError(f"{primitive.name} needs {', '.join(missing)} (which the compiler writes)")


class _Signature:
    """What the reader needs of a primitive's declaration, worked out once."""

    def __init__(self, primitive):
        self.primitive = primitive
        self.parts = [(p, part_shape(primitive, p), _checked(p)) for p in primitive.params]
        self.names = {p.name for p in primitive.params}
        # the parts that must be there: those check_shape asks for, or a part that replaces one,
        # and what the compiler always writes (the handlers read it)
        self.needed = [
            {p.name} | {q.name for q in primitive.params if q.derived == p.name}
            for p in primitive.params
            if p.required and p.derived not in self.names
        ]

    def fits(self, args: dict) -> bool:
        """Every part declared and every needed one there (else check_shape or _shape_problem says why)."""
        return args.keys() <= self.names and all(not names.isdisjoint(args) for names in self.needed)


def _checked(param) -> bool:
    """Whether a part needs checks beyond its shape (Reader.part)."""
    return bool(param.words or param.derived == "spelling" or param.type == "procedures")


_SIGNATURES: dict = {}  # primitive name -> _Signature (a scratch registry in tests may replace a primitive)


def signature_of(primitive) -> _Signature:
    cached = _SIGNATURES.get(primitive.name)
    if cached is None or cached.primitive is not primitive:
        cached = _SIGNATURES[primitive.name] = _Signature(primitive)
    return cached


def _keys(table) -> set:
    return set(table) if type(table) is dict else set()


def _values(table) -> list:
    return list(table.values()) if type(table) is dict else []


def _items(listed) -> list:
    return listed if type(listed) is list else []


def _get(value, key):
    return value.get(key) if type(value) is dict else None


# ---- checks of a whole object, once decoded ------------------------------------------------------


def _check_card(reader: _Reader, card: CardDef):
    kind = reader.kinds.get(card.kind)
    if kind is None:
        raise IRError(f"no kind {card.kind!r} is declared").inside("kind")
    sides = tuple(side.side for side in card.sides)
    if sides != kind.sides:
        raise IRError(
            f"a {card.kind} has the sides {', '.join(kind.sides)}, not {', '.join(sides) or 'none'}"
        ).inside("sides")
    names = {attribute.name for attribute in kind.attributes}
    for index, side in enumerate(card.sides):
        strange = sorted(set(side.attributes) - names)
        if strange:
            raise IRError(f"a {card.kind} has no attribute {strange[0]!r}").at(
                "sides", index, "attributes", strange[0]
            )


def _check_game(game: GameIR):
    if game.min_players > game.max_players:
        raise IRError(f"{game.min_players} is more than max_players ({game.max_players})").inside(
            "min_players"
        )
    missing = [name for name in REQUIRED_PROCEDURES if name not in game.procedures]
    if missing:
        raise IRError(f"the rules need a procedure {missing[0]!r}").inside("procedures")
    every = [(("cards",), game.cards)] + [
        (("modules", name, "cards"), m.cards) for name, m in game.modules.items()
    ]
    seen: dict = {}  # id -> its card; modules listing one card file carry the same card
    for where, cards in every:
        here = set()
        for index, card in enumerate(cards):
            known = seen.setdefault(card.id, card)
            if card.id in here or (known is not card and known != card):
                raise IRError(f"card {card.id!r} is defined twice").at(*where, index, "id")
            here.add(card.id)
    if sum(card.copies for card in seen.values()) > MAX_CARDS:
        raise IRError(f"more than {MAX_CARDS} cards in all, with every module's").inside("cards")
    declared = set()
    for where, options in [(("options",), game.options)] + [
        (("modules", n, "options"), m.options) for n, m in game.modules.items()
    ]:
        for index, option in enumerate(options):
            if option.name in declared:
                raise IRError(f"option {option.name!r} is declared twice").at(*where, index, "name")
            declared.add(option.name)
    for name, module in game.modules.items():
        _check_module(game, module, name)
    for where, faces in [(("faces",), game.faces)] + [
        (("modules", n, "faces"), m.faces) for n, m in game.modules.items()
    ]:
        _check_faces(game, faces, where)


def _check_faces(game: GameIR, faces: tuple, where: tuple):
    """Each template draws a declared kind, once, with that kind's attributes; its colours are of
    values the colour attribute has."""
    kinds, drawn = {kind.name: kind for kind in game.kinds}, set()
    for index, face in enumerate(faces):
        kind = kinds.get(face.kind)
        if kind is None or face.kind in drawn:
            raise IRError(
                f"no kind {face.kind!r} is declared"
                if kind is None
                else f"kind {face.kind!r} has two templates"
            ).at(*where, index, "kind")
        drawn.add(face.kind)
        attributes = {attribute.name: attribute for attribute in kind.attributes}
        named = [("colour", face.colour)] if face.colour else []
        named += [(part, name) for part in ("corners", "badges") for name in getattr(face, part)]
        for part, name in named:
            if name not in attributes:
                raise IRError(f"a {face.kind} has no attribute {name!r}").at(*where, index, part)
        strange = sorted(set(face.colours) - set(attributes[face.colour].values if face.colour else ()))
        if strange:
            raise IRError(f"{strange[0]!r} is not a value of {face.colour or 'a colour attribute'}").at(
                *where, index, "colours", strange[0]
            )


def _check_module(game: GameIR, module: Module, name: str):
    """What a module names is the game's: modules in its company, procedures it adds steps to;
    its name is its key."""
    if module.name != name:
        raise IRError(f"a module kept under {name!r} is named {module.name!r}").at("modules", name, "name")
    if module.players and (len(module.players) != 2 or module.players[0] > module.players[1]):
        raise IRError("players must be [min, max], min at most max").at("modules", name, "players")
    for section in ("requires", "excludes"):
        for index, company in enumerate(getattr(module, section)):
            for other in (company.module, *company.when):
                if other not in game.modules:
                    raise IRError(f"no module {other!r}").at("modules", name, section, index)
    for zone, spaces in module.maps.items():
        if not any(z.name == zone and z.per != "card" and z.rows for z in game.zones):
            raise IRError(f"no grid zone {zone!r} to lay a map on").at("modules", name, "maps", zone)
        _check_map(spaces, ("modules", name, "maps", zone))
    procedures = set(game.procedures).union(*(m.procedures for m in game.modules.values()))
    for section in ("before", "after"):
        for procedure in getattr(module, section):
            if procedure not in procedures:
                raise IRError(f"no procedure {procedure!r} in the rules or any module").at(
                    "modules", name, section, procedure
                )


def _check_map(spaces, where: tuple):
    """A map's spaces are each in a row r1, r2 … and named once, and not too many."""
    if len(spaces) > MAX_SPACES:
        raise IRError(f"a map of more than {MAX_SPACES:,} spaces").at(*where)
    seen = set()
    for index, space in enumerate(spaces):
        if not re.fullmatch(r"r[1-9][0-9]*", space.row) or int(space.row[1:]) > MAX_COLUMNS:
            raise IRError(f"a map's rows are r1, r2 …, not {space.row!r}").at(*where, index, "row")
        if (space.row, space.column) in seen:
            raise IRError(f"space {space.row}.{space.column} is on the map twice").at(*where, index)
        seen.add((space.row, space.column))


def _check_zone(reader: _Reader, zone: ZoneDecl):
    _check_map(zone.map, ("map",))
    if zone.map and zone.mapped(zone.map) != zone:
        raise IRError("a map's rows and columns are those its spaces reach").inside("rows")


def _check_option(reader: _Reader, option: OptionDecl):
    if option.default not in option.values:
        raise IRError(f"the default {option.default!r} is not one of the values").inside("default")


# a class's name -> the checks of an object of that class (its type varies with the key: Any)
_CHECKS: dict[str, Callable[[_Reader, Any], None]] = {
    "CardDef": _check_card,
    "OptionDecl": _check_option,
    "ZoneDecl": _check_zone,
}
