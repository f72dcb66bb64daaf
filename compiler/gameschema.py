"""A JSON Schema for one game's card files (`silvics schema GAME`): its kinds, each kind's
attributes with their types and allowed values, and an example of each from the game's own
cards, so that an editor completes `suit:` values and flags a misspelt attribute as you type.

The schema is self-contained (no reference to silvics' own files), so it works wherever it is
written. The compiler stays the judge: the schema helps the editor (it leaves out which
attributes a card may omit, and what effects say), `silvics check` decides.
"""

from __future__ import annotations

from collections.abc import Callable

from ..interpreter.ir import AttrDecl, GameIR, KindDecl

DRAFT = "https://json-schema.org/draft/2020-12/schema"
# one line of printable text, with no mark turning its direction (names are printed raw at terminals)
TEXT = {
    "type": "string",
    "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]*$",
    "maxLength": 100,
}
# an attribute's type -> the JSON schema of its value
ATTRIBUTE_TYPES: dict[str, Callable[[AttrDecl], dict[str, object]]] = {
    "int": lambda a: {"type": "integer"},
    "enum": lambda a: {"enum": list(a.values)},
    "set": lambda a: {"type": "array", "items": {"enum": list(a.values)}, "uniqueItems": True},
    "numbers": lambda a: {"type": "array", "items": {"type": "integer"}},
    "number": lambda a: {"type": ["integer", "string"]},
    "condition": lambda a: {"type": "string"},
    "effect": lambda a: {"type": ["string", "array"]},
    "text": lambda a: {"type": "string"},
}
SAYS = {
    "int": "a whole number",
    "enum": "one of: {values}",
    "set": "a list of: {values}",
    "numbers": "a list of whole numbers",
    "number": "a whole number, or an expression in quotes",
    "condition": "a condition in the effect language, in quotes",
    "effect": "an effect: a statement or a list of steps",
    "text": "words, printed as they are",
}


def card_schema(ir: GameIR) -> dict:
    kinds = {kind.name: kind for kind in ir.kinds}
    examples = _examples(ir)
    return {
        "$schema": DRAFT,
        "$id": f"https://silvics.dev/schemas/games/{ir.id}/cards.schema.json",
        "title": f"A card file of {ir.name}",
        "description": (
            f"Cards for {ir.name} (made by `silvics schema {ir.id}`). `silvics check` has the last word."
        ),
        "type": "object",
        "required": ["kind", "cards"],
        "additionalProperties": False,
        "properties": {
            "kind": {
                "enum": list(kinds),
                "description": "The kind of the cards in this file (a card may name another).",
            },
            "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        },
        # a card without a kind of its own is of the file's kind
        "allOf": [
            {
                "if": {"properties": {"kind": {"const": name}}},
                "then": {
                    "properties": {
                        "cards": {
                            "items": {
                                "if": {"not": {"required": ["kind"]}},
                                "then": {"$ref": f"#/$defs/{name}"},
                            }
                        }
                    }
                },
            }
            for name in kinds
        ],
        "$defs": {
            "card": {
                "type": "object",
                "required": ["id"],
                "allOf": [
                    {
                        "if": {"required": ["kind"], "properties": {"kind": {"const": name}}},
                        "then": {"$ref": f"#/$defs/{name}"},
                    }
                    for name in kinds
                ],
            },
            **{name: _kind(kind, examples) for name, kind in kinds.items()},
        },
    }


def _kind(kind: KindDecl, examples: dict) -> dict:
    """One kind's card: its fields and its attributes (on the card, or on each of its sides)."""
    attributes = {a.name: _attribute(kind, a, examples) for a in kind.attributes}
    fields = {
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$", "description": "Unique within the game."},
        "name": {**TEXT, "description": "The name printed on the card."},
        "kind": {"const": kind.name},
        "copies": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 1},
    }
    if len(kind.sides) == 1:
        return {
            "type": "object",
            "description": f"A {kind.name} card.",
            "required": ["id"],
            "properties": {**fields, **attributes},
            "additionalProperties": False,
        }
    side = {
        "type": "object",
        "required": ["name"],
        "additionalProperties": False,
        "properties": {"name": {**TEXT, "description": "The name printed on this side."}, **attributes},
    }
    return {
        "type": "object",
        "description": f"A {kind.name} card, with the sides {', '.join(kind.sides)}.",
        "required": ["id", "sides"],
        "additionalProperties": False,
        "properties": {
            **fields,
            "sides": {
                "type": "object",
                "required": list(kind.sides),
                "additionalProperties": False,
                "properties": {s: side for s in kind.sides},
            },
        },
    }


def _attribute(kind: KindDecl, attribute: AttrDecl, examples: dict) -> dict:
    schema = ATTRIBUTE_TYPES[attribute.type](attribute)
    says = SAYS[attribute.type].format(values=", ".join(attribute.values))
    schema["description"] = f"{kind.name} {attribute.name}: {says}."
    if (kind.name, attribute.name) in examples:
        schema["examples"] = [examples[kind.name, attribute.name]]
    return schema


def _examples(ir: GameIR) -> dict:
    """The first value each kind's attribute is given, as written, from the game's own cards."""
    found: dict = {}
    for card in (*ir.cards, *(c for m in ir.modules.values() for c in m.cards)):
        for side in card.sides:
            for name, value in side.attributes.items():
                written = side.text.get(name, value)
                if isinstance(written, (int, str)) or (
                    isinstance(written, tuple) and all(isinstance(v, (int, str)) for v in written)
                ):
                    found.setdefault(
                        (card.kind, name), list(written) if isinstance(written, tuple) else written
                    )
    return found
