"""Walking a game's IR: every node of every rule, and the procedures a rule names. The rules
reference and the lint read the rules this way."""

from __future__ import annotations

from ..interpreter.ir import GameIR, Node, nodes
from ..interpreter.registry import REGISTRY


def calls_in(value) -> list[str]:
    """The procedures a rule names, in order: calls, and the procedures a choice offers."""
    found = []
    for node in nodes(value):
        primitive = REGISTRY[node.op]
        if "procedure" in primitive.roles:
            found.append(node.args[primitive.roles["procedure"]])
        found += [
            name for p in primitive.params if p.type == "procedures" for name in node.args.get(p.name) or ()
        ]
    return found


def every_rule(ir: GameIR) -> list:
    """Every rule the game and its modules hold: procedures, steps before and after them,
    interrupts, tie-breaks, and the effects, conditions and numbers printed on cards."""
    cards = (*ir.cards, *(c for m in ir.modules.values() for c in m.cards))
    return [
        *ir.procedures.values(),
        *ir.interrupts,
        *ir.tiebreak,
        *(
            body
            for m in ir.modules.values()
            for part in (m.procedures, m.before, m.after)
            for body in part.values()
        ),
        *(
            value
            for card in cards
            for side in card.sides
            for value in side.attributes.values()
            if isinstance(value, Node)
        ),
    ]
