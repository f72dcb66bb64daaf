"""IR → English, in a game's own words where it gives them.

A node reads as the text of the first phrase of the game's vocabulary whose pattern matches it
(the longest patterns first), each hole filled with the English of the part it matched; a node
no phrase matches reads as its primitive's template, filled with the English of its parts. So a
new primitive is described as soon as it is declared, and a game words its idioms in its data.
"""
from __future__ import annotations

import re

from ..interpreter.ir import Node, Phrase, Vocabulary
from ..interpreter.registry import IT, REGISTRY, YOU, has_role, load_all, role

# How symbols and flags read.
WORDS = {"=": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
         ">=": "is at least", "+": "plus", "-": "minus", "*": "times", "/": "divided by", "all": "all"}
FLAGS = {"simultaneously": " simultaneously"}     # a flag that is set reads as these words
_HOLE = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\[\]|]*)(?:\|([^\[\]]*))?\]")   # [A] or [A|B] in a template: A when A's parts are given, else B
_FILL = re.compile(r"\{([A-Z][A-Z0-9]*)(?:\|([^{}|]*)\|([^{}|]*))?\}")    # {N} or {N|one|many} in a phrase
_HOLE_NAME = re.compile(r"[A-Z][A-Z0-9]*")


class Wording:
    """English of IR nodes with a game's vocabulary (none: the primitives' templates alone)."""

    def __init__(self, vocabulary: Vocabulary | None = None):
        load_all()
        phrases = vocabulary.phrases if vocabulary else ()
        ordered = sorted(phrases, key=lambda p: -_size(p.pattern))       # stable: declared order among equals
        self.single = [p for p in ordered if len(p.pattern) == 1]
        self.runs = [p for p in ordered if len(p.pattern) > 1]
        self.labels = vocabulary.labels if vocabulary else {}
        self.within = 0          # how many parts deep the renderer is where `it` is a card being tested

    def say(self, value) -> str:
        """The English of an IR node, a list of steps, or a plain value."""
        if isinstance(value, Node):
            return self._node(value)
        if isinstance(value, tuple):
            return "; then ".join(self.steps(value))
        return "" if value is None else str(value)

    def steps(self, steps: tuple) -> list[str]:
        """The English of each step, a run of steps that a phrase matches read as one."""
        said, i = [], 0
        while i < len(steps):
            for phrase in self.runs:
                holes = _match_run(phrase.pattern, steps[i:])
                if holes is not None:
                    said.append(self._filled(phrase, holes))
                    i += len(phrase.pattern)
                    break
            else:
                said.append(self.say(steps[i]))
                i += 1
        return [text for text in said if text]        # a phrase that reads as nothing hides bookkeeping

    def sentences(self, value) -> str:
        """An effect as a card prints it: each step a sentence."""
        steps = role(value, "sequence") if has_role(value, "sequence") else (value,)
        return " ".join(_sentence(text) for text in self.steps(tuple(steps)) if text)

    # ---- one node ----
    def _node(self, node: Node) -> str:
        for phrase in self.single:
            holes: dict = {}
            if _match(phrase.pattern[0], node, holes):
                return self._filled(phrase, holes)
        primitive = REGISTRY[node.op]
        template = next((text for when, text in primitive.english if _holds(when, node.args)), primitive.template)
        template = _OPTIONAL.sub(lambda m: m.group(1) if all(node.args.get(h) not in (None, "", False, ())
                                                             for h in _HOLE.findall(m.group(1))) else m.group(2) or "",
                                 template)
        if _is_it(node) and self.within:
            return "it"                                  # the card a condition is testing, not the card printed
        text = _HOLE.sub(lambda m: self._part(primitive, m.group(1), node.args, node.op), template)
        return " ".join(text.split()).replace(" ,", ",")

    def _filled(self, phrase: Phrase, holes: dict) -> str:
        def fill(m):
            value, within = holes.get(m.group(1), (None, False))
            if m.group(2) is not None:
                return m.group(2) if role(value, "literal") == 1 else m.group(3)
            self.within += within
            try:
                return self.say(value)
            finally:
                self.within -= within
        return _FILL.sub(fill, phrase.text)

    def _part(self, primitive, name: str, args: dict, parent: str) -> str:
        """The English of one part, read by its declared type."""
        param, value = primitive.param(name), args.get(name)
        if any(binding.name == "it" for binding in primitive.bindings(name, args)):
            self.within += 1                         # inside this part, `it` is the card being tested
            try:
                return self._part_text(primitive, param, name, value, parent)
            finally:
                self.within -= 1
        return self._part_text(primitive, param, name, value, parent)

    def _part_text(self, primitive, param, name, value, parent) -> str:
        kind = param.type if param else ""
        if isinstance(value, tuple) and all(not isinstance(item, Node) for item in value) and kind == "value":
            return "[" + ", ".join(map(str, value)) + "]"       # a literal list
        if isinstance(value, tuple) and kind == "procedures":                # each as a call to it reads
            return (param.joiner if param else ", ").join(self.say(Node("call", {"name": step})) for step in value)
        if isinstance(value, tuple) and primitive.roles.get("sequence") == name:
            return (param.joiner if param else "; then ").join(self.steps(value))
        if isinstance(value, tuple):
            return (param.joiner if param else ", ").join(self._grouped(item, parent) for item in value)
        if kind == "symbol":
            return WORDS.get(str(value), str(value))
        if kind == "flag":
            return FLAGS.get(name, f" {name}") if value else ""
        if kind == "binding" and isinstance(value, str):      # a definition's parameter is held as "definition:parameter"
            return value.rpartition(":")[2].replace("_", " ")
        return self._grouped(value, parent)

    def _grouped(self, value, parent: str) -> str:
        """English of a part, in parentheses where and/or/not would otherwise read ambiguously."""
        text = self.say(value)
        loose = has_role(value, "loose") and value.op != parent
        groups = REGISTRY[parent].roles.keys() & {"loose", "groups"} if parent in REGISTRY else ()
        return f"({text})" if loose and groups else text


PLAIN = None      # the Wording with no vocabulary, made on first use (the registry loads first)


def english(value) -> str:
    """The English of an IR node in the primitives' own words (no game vocabulary)."""
    global PLAIN
    PLAIN = PLAIN or Wording()
    return PLAIN.say(value)


# ---- matching a phrase's pattern --------------------------------------------------------------

def _match(pattern, value, holes: dict, within: bool = False) -> bool:
    """Whether `value` has `pattern`'s shape, binding each hole to (the part it stands for, whether
    `it` there is a card being tested); a hole met twice must stand for the same part. Spans, a
    definition's body and a question's wording are not compared: the same rule is the same rule."""
    if isinstance(pattern, Node):
        if pattern.op == "hole":
            return _bind(pattern.args["name"], value, holes, within)
        if not isinstance(value, Node) or value.op != pattern.op:
            return False
        primitive = REGISTRY[pattern.op]
        return all(_match(pattern.args.get(key), value.args.get(key), holes,
                          within or any(b.name == "it" for b in primitive.bindings(key, pattern.args)))
                   for key in (pattern.args.keys() | value.args.keys()) - _unmatched(pattern.op))
    if isinstance(pattern, tuple):
        return isinstance(value, tuple) and len(value) == len(pattern) and all(
            _match(p, v, holes, within) for p, v in zip(pattern, value))
    if isinstance(pattern, str) and _HOLE_NAME.fullmatch(pattern) and isinstance(value, str):
        return _bind(pattern, value, holes, within)        # a name the pattern binds (choose C from …)
    return pattern == value


def _bind(name: str, value, holes: dict, within: bool) -> bool:
    if name in holes:
        return _match(holes[name][0], value, {})
    holes[name] = (value, within)
    return True


def _match_run(pattern: tuple, steps: tuple) -> dict | None:
    holes: dict = {}
    return holes if len(steps) >= len(pattern) and _match(pattern, steps[:len(pattern)], holes) else None


_SKIPPED: dict = {}


def _unmatched(op: str) -> frozenset:
    """The parts of a primitive a pattern does not compare: shared bodies and their numbers,
    and text the compiler writes (a question's prompt names the rule it is asked in)."""
    if op not in _SKIPPED:
        primitive = REGISTRY[op]
        _SKIPPED[op] = frozenset({primitive.roles.get("shared body"), primitive.roles.get("body number")}
                                 | {p.name for p in primitive.params if p.type == "text"}) - {None}
    return _SKIPPED[op]


def _size(pattern) -> int:
    """How much of a rule a pattern pins down: its nodes that are not holes."""
    if isinstance(pattern, Node):
        return (pattern.op != "hole") + sum(_size(value) for value in pattern.args.values())
    if isinstance(pattern, tuple):
        return sum(_size(item) for item in pattern)
    return 0


_BOUND = {IT: "it", YOU: "you"}       # an `english` condition's names for the card in view and the acting player


def _holds(when: dict, args: dict) -> bool:
    return all(role(args.get(part), "bound name") == _BOUND[wanted] if wanted in _BOUND else args.get(part) == wanted
               for part, wanted in when.items())


def _is_it(node) -> bool:
    return role(node, "bound name") == "it"


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text[-1:] in ".!?" else text + "."
