"""IR → English, from the templates declared with each primitive.

The wording of a whole card or rule comes from filling each primitive's template with the
English of its parts, so a new primitive is described as soon as it is declared.
"""
from __future__ import annotations

import re

from ..interpreter.ir import CardDef, KindDecl, Node
from ..interpreter.registry import REGISTRY, load_all

# How symbols read; and how the items of a list-valued part are joined, by primitive.
WORDS = {"=": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
         ">=": "is at least", "+": "plus", "-": "minus", "*": "times", "/": "divided by",
         "all": "all", "true": " simultaneously", "false": ""}
JOINERS = {"all_of": " and ", "any_of": " or ", "block": "; then ", "union": " and "}
_HOLE = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")   # [ … ] in a template: shown only when its parts are given


def english(value, op: str = "") -> str:
    load_all()
    if isinstance(value, Node):
        return _node(value)
    if isinstance(value, tuple):
        return JOINERS.get(op, ", ").join(_grouped(item, op) for item in value)
    if isinstance(value, bool):
        return WORDS["true" if value else "false"]
    if value is None:
        return ""
    return WORDS.get(str(value), str(value)) if op in ("compare", "arith") else str(value)


def _node(node: Node) -> str:
    if node.op == "const":
        value = node.args["value"]
        return "[" + ", ".join(map(str, value)) + "]" if isinstance(value, tuple) else str(value)
    if node.op == "var":       # a definition's parameter is held under "definition:parameter"
        return "this card" if node.args["name"] == "it" else node.args["name"].rpartition(":")[2]
    if node.op in ("attr", "mark") and _is_it(node.args["of"]):
        return node.args["name"]
    if node.op in ("zone", "counter") and node.args.get("of") is None:
        return node.args["name"] if node.args["per"] == "shared" else f"your {node.args['name']}"
    if node.op == "block":
        return english(node.args["steps"], "block")
    fill = lambda m: _grouped(node.args.get(m.group(1)), node.op)   # noqa: E731
    template = _OPTIONAL.sub(lambda m: m.group(1) if all(node.args.get(h) not in (None, "", False, ())
                                                             for h in _HOLE.findall(m.group(1))) else "",
                             REGISTRY[node.op].template)
    text = _HOLE.sub(fill, template)
    return " ".join(text.split()).replace(" ,", ",")


def _grouped(value, parent: str) -> str:
    """English of a part, in parentheses where and/or/not would otherwise read ambiguously."""
    text = english(value, parent)
    loose = isinstance(value, Node) and value.op in ("any_of", "all_of") and value.op != parent
    return f"({text})" if loose and parent in ("all_of", "any_of", "negate") else text


def _is_it(node) -> bool:
    return isinstance(node, Node) and node.op == "var" and node.args["name"] == "it"


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
            if isinstance(value, Node) and value.op == "block":      # an effect
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
