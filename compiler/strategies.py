"""Strategies → IR: personas written in the effect language, for the strategy agent.

```yaml
strategies:
  hoarder:
    doc: buys the dearest goods it can, sells the cheapest, and always says yes
    rules:
      - at: buy                    # the decisions of this procedure (none: every decision)
        prefer: price              # a number or a condition, with the option: the highest kept
      - at: "sell: choose goods"   # one question, as its prompt reads
        prefer: 0 - price
      - pick: ["yes"]              # option labels, best first: the first offered is kept
```

A rule's expression is lowered with `option` (the option: a card, a space, a word), `it` (the
option when it is a card), `you` (the deciding player), and every name the rules bind
somewhere (of its type where the rules give it one): a rule applies at a decision only where
each name it reads is bound (the agent checks). `at` names a procedure, or one question of it
as its prompt reads (`sell: choose goods`).
"""

from __future__ import annotations

from ..interpreter.ir import Span, Strategy, StrategyRule
from .diagnostics import did_you_mean
from .lower import LowerError, Scope

WANTED = ("int", "bool", "any")  # what `prefer` may give: a number, or a condition (true counts 1)


def strategies(documents, lowerer, decls, bound: dict, diagnostics) -> dict:
    """The strategies of the game and its modules (a module's replaces the game's of its name)."""
    scope = Scope({**bound, "you": "player", "it": "card", "option": "any"})
    found = {}
    for doc in documents:
        for name, written in (doc.data.get("strategies") or {}).items():
            rules = [
                _rule(doc, ("strategies", name, "rules", i), rule, lowerer, decls, scope, diagnostics)
                for i, rule in enumerate(written["rules"])
            ]
            lowered = [rule for rule in rules if rule is not None]
            if len(lowered) == len(rules):  # else a diagnostic says why one is not
                found[name] = Strategy(name, written.get("doc", ""), tuple(lowered))
    return found


def _rule(doc, path: tuple, rule: dict, lowerer, decls, scope: Scope, diagnostics) -> StrategyRule | None:
    at = str(rule.get("at", ""))
    procedure = at.partition(":")[0]
    if at and procedure not in decls.procedures:
        diagnostics.append(
            doc.error(
                path + ("at",),
                "E0401",
                f"no procedure '{procedure}'",
                did_you_mean(procedure, decls.procedures)
                or "at: names the procedure that asks, or one question ('grow: choose card')",
            )
        )
        return None
    prefer = None
    if "prefer" in rule:
        text, source = doc.effect(path + ("prefer",), str(rule["prefer"]))
        try:
            prefer, kind = lowerer.expression(text, source, scope)
        except LowerError as error:
            diagnostics.append(error.diagnostic)
            return None
        if kind not in WANTED:
            diagnostics.append(
                doc.error(
                    path + ("prefer",),
                    "E0402",
                    f"prefer: needs a number or a condition, got {kind}",
                    "e.g. prefer: value, or prefer: form = tree",
                )
            )
            return None
    line, col = doc.located.at(path)
    return StrategyRule(
        at, prefer, tuple(str(label) for label in rule.get("pick", ())), Span(doc.located.file, line, col)
    )
