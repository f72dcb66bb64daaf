"""A game's own words for its rules reference: `vocabulary:` in the rules and in modules.

Each phrase's key is written in the effect language, with capitalised names as holes
(`score N per CARDS: score {N} for each of {CARDS}`), and lowered as the rules are, so that it
is matched against the rules' IR, never against their source text. A key in braces is one flow
step, written as the rules write it (`{repeat: N, do: [draw]}`). Phrases are read by the
English renderer only; they change no rule.
"""

from __future__ import annotations

import re
from dataclasses import replace

import yaml

from ..interpreter.ir import Node, Phrase, Vocabulary
from ..interpreter.registry import REGISTRY, spelled, spellings
from .diagnostics import did_you_mean
from .english import HEADING_HOLE
from .lower import HOLE, Lowerer, LowerError, Scope
from .parse import Source
from .steps import At, Steps

_FILLED = re.compile(r"\{([^{}|]*)(?:\|[^{}]*)?\}")  # {HOLE} or {HOLE|one|many} in a phrase's text


def vocabulary(
    documents, decls, steps: Steps, diagnostics: list, rules=(), typed=None, sees=None
) -> Vocabulary:
    """The labels, phrases and headings of the rules and modules, in that order (a later label
    or heading wins). Lower them after the rules: a definition used in a phrase may add a
    variant of its body. A phrase may name what the `rules` (their steps and effects) bind:
    `let`, `choose`, `for`…, of the type `typed` gives it (name -> type) where the rules give it
    one. A heading may name what its procedure `sees` (procedure -> {name bound at every call: its type})."""
    scope = Scope(
        {
            **bound_names(rules, decls, typed or {}),
            "you": "player",
            "it": "card",
            "subject": "card",
            **{name: kind for a in decls.attributes.values() for name, kind in a.sees},
        },
        holes=True,
    )
    labels, phrases, headings = {}, [], {}
    for doc in documents:
        words = doc.data.get("vocabulary") or {}
        for name, text in words.get("labels", {}).items():
            if _label_fits(doc, name, text, decls, diagnostics):
                labels[name] = text
        for name, text in words.get("headings", {}).items():
            typed = _heading(doc, name, str(text), decls, (sees or {}).get(name, {}), diagnostics)
            if typed is not None:
                headings[name] = typed
        for key, text in words.get("phrases", {}).items():
            phrase = _phrase(doc, ("vocabulary", "phrases", key), str(key), text, steps, scope, diagnostics)
            if phrase:
                phrases.append(phrase)
    return Vocabulary(labels, tuple(phrases), headings)


def bound_names(rules, decls, typed: dict) -> dict:
    """The names the rules bind and read, but for names and words the game declares (those keep
    their meaning): of their type in `typed`, else standing for anything. A definition's name,
    alone, is the rules' name: a definition is called with its parts."""
    names: set[str] = set()
    stack = list(rules)
    while stack:
        value = stack.pop()
        if isinstance(value, Node):
            primitive = REGISTRY[value.op]
            names.update(
                value.args[p.name]
                for p in primitive.params
                if p.type == "binding" and isinstance(value.args.get(p.name), str)
            )
            shared = primitive.roles.get("shared body")  # a definition's body: not the rules' names
            stack.extend(part for key, part in value.args.items() if key != shared)
        elif isinstance(value, tuple):
            stack.extend(value)
    declared = decls.known() - set(decls.defines)  # a definition takes parts: alone, the name is the rules'
    return {
        name: typed.get(name, "any") for name in names - declared if ":" not in name
    }  # "definition:parameter" is hidden


def _label_fits(doc, name, text, decls, diagnostics) -> bool:
    path = ("vocabulary", "labels", name)
    if name not in decls.attributes:
        diagnostics.append(
            doc.error(
                path,
                "E0401",
                f"no card attribute '{name}' to label",
                did_you_mean(name, decls.attributes),
                at_key=True,
            )
        )
        return False
    if text.count("{}") != 1:
        diagnostics.append(
            doc.error(
                path,
                "E0402",
                "a label holds one {} where the attribute's text goes",
                f'e.g. {name}: "{name.replace("_", " ").capitalize()}: {{}}"',
            )
        )
        return False
    return True


def _heading(doc, name, text, decls, seen: dict, diagnostics) -> str | None:
    """A heading names a procedure, and fills its {holes} with values that procedure sees (`seen`:
    name -> type). Kept with each player's hole marked `{name|player}`, for the log to say P2."""
    path = ("vocabulary", "headings", name)
    if name not in decls.procedures:
        diagnostics.append(
            doc.error(
                path,
                "E0401",
                f"no procedure '{name}' to head",
                did_you_mean(name, decls.procedures),
                at_key=True,
            )
        )
        return None
    known = set(seen) | set(decls.counters)
    for hole, _ in HEADING_HOLE.findall(text):
        if hole not in known:
            diagnostics.append(
                doc.error(
                    path,
                    "E0401",
                    f"the heading fills {{{hole}}}, which '{name}' does not see",
                    did_you_mean(hole, known)
                    or f"it sees: {', '.join(sorted(known)) or 'nothing'} (names bound by "
                    "every step that calls it, and the counters)",
                )
            )
            return None
    return HEADING_HOLE.sub(
        lambda m: f"{{{m[1]}|player}}" if seen.get(m[1]) == "player" else f"{{{m[1]}}}", text
    )


def _phrase(doc, path, key, text, steps: Steps, scope, diagnostics) -> Phrase | None:
    line, col = doc.located.key_at(path)
    quoted = doc.text.splitlines()[line - 1][col - 1 : col] in ("'", '"')
    source = Source(doc.located.file, line, col + quoted)
    if key.lstrip().startswith("{"):
        pattern = _flow_step(doc, path, key, steps, scope, diagnostics)
        if pattern is None:
            return None
    else:
        try:
            pattern = _lowered(key, source, steps.lowerer, scope)
        except LowerError as error:
            diagnostics.append(error.diagnostic)
            return None
    holes = set(HOLE.findall(key))
    for filled in _FILLED.findall(text):
        if filled not in holes:
            diagnostics.append(
                doc.error(
                    path,
                    "E0401",
                    f"the phrase's text fills {{{filled}}}, which its pattern lacks",
                    did_you_mean(filled, holes)
                    or "a hole is a capitalised name in the pattern, e.g. N in 'score N per CARDS'",
                )
            )
            return None
    return Phrase(pattern, text, pattern[0].span)


def _flow_step(doc, path, key: str, steps: Steps, scope: Scope, diagnostics) -> tuple | None:
    """A flow step written as a YAML mapping on one line (`{repeat: N, do: [draw]}`), lowered as
    the rules' steps are."""
    try:
        step = yaml.safe_load(key)
    except yaml.YAMLError:
        step = None
    if not isinstance(step, dict) or not any(k in step for k in spellings("step")):
        diagnostics.append(
            doc.error(
                path,
                "E0402",
                "a phrase in braces is one flow step, written as in the rules",
                "e.g. '{repeat: N, do: [draw]}'",
                at_key=True,
            )
        )
        return None
    found: list = []
    node, _ = steps.step(At(doc, "vocabulary", found, []), step, path, scope)
    diagnostics.extend(found)
    return (node,) if node is not None and not found else None


def _lowered(key: str, source: Source, lowerer: Lowerer, scope: Scope) -> tuple:
    """Steps (separated by ;) when the key starts with an action or a procedure, else one expression."""
    first = key.split(maxsplit=1)[0] if key.strip() else ""
    if ";" not in key and first not in lowerer.decls.procedures and not spelled(first, "statement"):
        return (lowerer.expression(key, source, scope)[0],)
    steps, offset = [], 0
    for part in key.split(";"):
        start = offset + len(part) - len(part.lstrip())
        node, scope = lowerer.statement(part.strip(), replace(source, col=source.col + start), scope)
        steps.append(node)
        offset += len(part) + 1
    return tuple(steps)
