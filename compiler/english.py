"""IR → English, from the templates declared with each primitive.

The wording of a whole card or rule comes from filling each primitive's template with the
English of its parts, so a new primitive is described as soon as it is declared.
"""
from __future__ import annotations

import re

from ..interpreter.ir import CardDef, KindDecl, Node
from ..interpreter.registry import IT, REGISTRY, has_role, load_all, role

# How symbols and flags read.
WORDS = {"=": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
         ">=": "is at least", "+": "plus", "-": "minus", "*": "times", "/": "divided by", "all": "all"}
FLAGS = {"simultaneously": " simultaneously"}     # a flag that is set reads as these words
_HOLE = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")   # [ … ] in a template: shown only when its parts are given


def english(value) -> str:
    """The English of an IR node: its primitive's template (or the first of its `english`
    variants whose condition holds) filled with the English of each part."""
    load_all()
    return _node(value) if isinstance(value, Node) else _plain(value)


def _node(node: Node) -> str:
    primitive = REGISTRY[node.op]
    template = next((text for when, text in primitive.english if _holds(when, node.args)), primitive.template)
    template = _OPTIONAL.sub(lambda m: m.group(1) if all(node.args.get(h) not in (None, "", False, ())
                                                         for h in _HOLE.findall(m.group(1))) else "", template)
    text = _HOLE.sub(lambda m: _part(primitive, m.group(1), node.args.get(m.group(1)), node.op), template)
    return " ".join(text.split()).replace(" ,", ",")


def _holds(when: dict, args: dict) -> bool:
    return all(_is_it(args.get(part)) if wanted == IT else args.get(part) == wanted for part, wanted in when.items())


def _part(primitive, name: str, value, parent: str) -> str:
    """The English of one part, read by its declared type."""
    param = primitive.param(name)
    kind = param.type if param else ""
    if isinstance(value, tuple) and all(not isinstance(item, Node) for item in value) and kind == "value":
        return "[" + ", ".join(map(str, value)) + "]"       # a literal list
    if isinstance(value, tuple):
        return (param.joiner if param else ", ").join(_grouped(item, parent) for item in value)
    if kind == "symbol":
        return WORDS.get(str(value), str(value))
    if kind == "flag":
        return FLAGS.get(name, f" {name}") if value else ""
    if kind == "binding" and isinstance(value, str):      # a definition's parameter is held as "definition:parameter"
        return value.rpartition(":")[2]
    return _grouped(value, parent)


def _plain(value) -> str:
    return "" if value is None else str(value)


def _grouped(value, parent: str) -> str:
    """English of a part, in parentheses where and/or/not would otherwise read ambiguously."""
    text = english(value)
    loose = has_role(value, "loose") and value.op != parent
    groups = REGISTRY[parent].roles.keys() & {"loose", "groups"} if parent in REGISTRY else ()
    return f"({text})" if loose and groups else text


def _is_it(node) -> bool:
    return role(node, "bound name") == "it"


def describe_card(card: CardDef, kind: KindDecl | None = None) -> str:
    """A card's attributes and printed conditions, for `silvics show` and the docs."""
    types = {a.name: a.type for a in kind.attributes} if kind else {}
    lines = [f"{card.sides[0].name or card.id} ({card.kind}, id {card.id}"
             + (f", {card.copies} copies)" if card.copies > 1 else ")")]
    for side in card.sides:
        indent = "  "
        if len(card.sides) > 1:
            lines.append(f"  {side.side} side: {side.name}")
            indent = "    "
        for name, value in side.attributes.items():
            if role(value, "sequence") is not None:                  # an effect
                lines.append(f"{indent}{name}: {english(value)}")
                if isinstance(side.text.get(name), str):
                    lines.append(f"{indent}  (written: {side.text[name]})")
            elif isinstance(value, Node) and types.get(name) == "number":
                lines.append(f"{indent}{name}: {english(value)}")
                if isinstance(side.text.get(name), str):
                    lines.append(f"{indent}  (written: {side.text[name]})")
            elif isinstance(value, Node):                           # a condition
                lines.append(f"{indent}{name}: cards where {english(value)}")
                lines.append(f"{indent}  (written: {side.text.get(name, '')})")
            else:
                shown = ", ".join(map(str, value)) if isinstance(value, tuple) else value
                lines.append(f"{indent}{name}: {shown if shown != '' else 'none'}")
    return "\n".join(lines)
