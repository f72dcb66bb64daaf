"""The JSON Schema of the IR (schemas/ir.schema.json, Draft 2020-12), for tools that read or
write IR files. It is made from the tables the loader checks with (irchecks) and from the
registry's declarations, so it says what they say; regenerate the file after changing either:

    python -m silvics.interpreter.irschema > schemas/ir.schema.json

A schema cannot say everything the loader checks: that the names a node uses (zones, counters,
procedures, definition bodies) are declared in the same file, that a card has its kind's sides
and attributes, that min_players <= max_players, that nesting stays within MAX_DEPTH, or which
words a part takes from what the game declares (marks, sides, events).
"""

from __future__ import annotations

import json

from .ir import IR_VERSION
from .irchecks import FIELDS, GOES_WITH, MAX_DEPTH, PLACES, REQUIRED, SPAN_PATTERN, signature_of
from .registry import REGISTRY, load_all

ID = "https://silvics.dev/schemas/ir.schema.json"


def ir_schema() -> dict:
    load_all()
    ops = sorted(REGISTRY)
    defs = {name: _class(name) for name in FIELDS if name != "GameIR"}
    defs.update(_nodes(ops))
    defs.update(
        span={
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["@"],
                    "additionalProperties": False,
                    "properties": {"@": {"type": "string", "pattern": SPAN_PATTERN}},
                },
            ]
        },
        written={
            "description": "text as the designer wrote it: shown, never run",
            "anyOf": [
                {"type": ["string", "number", "boolean", "null"]},
                {"type": "array", "items": {"$ref": "#/$defs/written"}},
                {"type": "object", "additionalProperties": {"$ref": "#/$defs/written"}},
            ],
        },
    )
    defs.update({f"args of {op}": _args(REGISTRY[op]) for op in ops})
    game = _class("GameIR")
    game["required"] = sorted({*game["required"], "version"})  # read first, whatever else the file holds
    game["properties"]["version"] = {"const": IR_VERSION}
    game["properties"]["definition_bodies"] = {
        "description": 'each definition\'s body, written once and used as {"$body": variant}',
        "type": "object",
        "propertyNames": {"pattern": "^[0-9]+$"},
        "additionalProperties": {"$ref": "#/$defs/expression"},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ID,
        "title": f"silvics IR, version {IR_VERSION}",
        "description": (
            "A compiled game, as `silvics compile` writes it. Loading checks more than this "
            f"schema says: every name a node uses is declared, nesting is at most {MAX_DEPTH} "
            "levels deep, a card has its kind's sides and attributes."
        ),
        **game,
        "$defs": defs,
    }


def _class(name: str) -> dict:
    return {
        "type": "object",
        "required": ["$", *sorted(REQUIRED[name])],
        "additionalProperties": False,
        "properties": {
            "$": {"const": name},
            **{field: shape.schema for field, shape in FIELDS[name].items()},
        },
    }


def _args_by_op(ops: list) -> dict:
    """A node's args checked by the schema of its op: an if/then/else on halves of the ops, so
    that a validator tests about log2 of them per node, not each in turn (jsonschema took 9.5 s
    over the largest bundled IR with an `if` per op, 1.6 s with these)."""
    if len(ops) == 1:  # asked again: an unknown op (refused by the enum) falls through to here
        return {
            "if": {"properties": {"op": {"const": ops[0]}}},
            "then": {"properties": {"args": {"$ref": f"#/$defs/args of {ops[0]}"}}},
        }
    half = len(ops) // 2
    return {
        "if": {"properties": {"op": {"enum": ops[:half]}}},
        "then": _args_by_op(ops[:half]),
        "else": _args_by_op(ops[half:]),
    }


def _nodes(ops: list) -> dict:
    """A node of any primitive (its parts by its op), and the places nodes stand in."""
    node = {
        "type": "object",
        "required": ["$", "op"],
        "additionalProperties": False,
        "properties": {
            "$": {"const": "Node"},
            "op": {"enum": ops},
            "args": {"type": "object"},
            "span": {"$ref": "#/$defs/span"},
        },
        **_args_by_op(ops),
    }
    places: dict[str, dict[str, object]] = {
        place: {
            "description": f"{called}: a node whose op is one of these",
            "$ref": "#/$defs/node",
            "properties": {"op": {"enum": [op for op in ops if fits(REGISTRY[op])]}},
        }
        for place, (fits, called) in PLACES.items()
    }
    places["expression"] = {"anyOf": [places["expression"], {"$ref": "#/$defs/body"}]}
    body = {
        "description": "a definition's body, kept once in definition_bodies",
        "type": "object",
        "required": ["$body"],
        "additionalProperties": False,
        "properties": {"$body": {"type": "integer", "minimum": 0}},
    }
    return {"node": node, **places, "body": body}


def _args(primitive) -> dict:
    signature = signature_of(primitive)
    properties = {param.name: _part(primitive, param, shape) for param, shape, _ in signature.parts}
    single = sorted(next(iter(names)) for names in signature.needed if len(names) == 1)
    schema = {
        "description": primitive.doc,
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "required": single,
    }
    if primitive.name in GOES_WITH:
        schema["dependentRequired"] = {part: [other] for part, other in GOES_WITH[primitive.name]}
    either = [
        {"anyOf": [{"required": [name]} for name in sorted(names)]}
        for names in signature.needed
        if len(names) > 1
    ]
    return {**schema, "allOf": either} if either else schema


def _part(primitive, param, shape) -> dict:
    words = primitive.spelled if param.derived == "spelling" else param.words
    schema = {"enum": list(words)} if words and not isinstance(words, str) else dict(shape.schema)
    if isinstance(words, str):
        schema["description"] = f"one of the game's {words}"
    elif param.doc:
        schema["description"] = param.doc
    return schema


def main():
    print(json.dumps(ir_schema(), indent=2))


if __name__ == "__main__":
    main()
