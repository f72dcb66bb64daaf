"""IR → English, in a game's own words where it gives them.

A node reads as the text of the first phrase of the game's vocabulary whose pattern matches it
(the longest patterns first), each hole filled with the English of the part it matched; a node
no phrase matches reads as its primitive's template, filled with the English of its parts. So a
new primitive is described as soon as it is declared, and a game words its idioms in its data.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ..interpreter.ir import Node, Phrase, Vocabulary
from ..interpreter.registry import IT, REGISTRY, UNSAID, YOU, has_role, load_all, role

# How symbols and flags read.
WORDS = {
    "=": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
    "+": "plus",
    "-": "minus",
    "*": "times",
    "/": "divided by",
    "all": "all",
}
FLAGS = {"simultaneously": " simultaneously"}  # a flag that is set reads as these words
_HOLE = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(
    r"\[([^\[\]|]*)(?:\|([^\[\]]*))?\]"
)  # [A] or [A|B] in a template: A when A's parts are given, else B
_FILL = re.compile(r"\{([A-Z][A-Z0-9]*)(?:\|([^{}|]*)\|([^{}|]*))?\}")  # {N} or {N|one|many} in a phrase
_HOLE_NAME = re.compile(r"[A-Z][A-Z0-9]*")
HEADING_HOLE = re.compile(r"\{([^{}|]*)(?:\|(player))?\}")  # {name} in a heading, {name|player} a player


class Wording:
    """English of IR nodes with a game's vocabulary (none: the primitives' templates alone)."""

    def __init__(self, vocabulary: Vocabulary | None = None, quiet: frozenset = frozenset()):
        """`quiet`: procedures with no steps, whose calls read as nothing."""
        load_all()
        self.quiet = quiet
        self.single, self.runs, self.by_op, self.runs_by_op = _ordered(
            vocabulary.phrases if vocabulary else ()
        )
        self.labels = vocabulary.labels if vocabulary else {}
        self.within = 0  # how many parts deep the renderer is where `it` is a card being tested
        self.named: dict = {}  # a name a hidden `let` binds -> the words of its value, said where it is used

    def say(self, value) -> str:
        """The English of an IR node, a list of steps, or a plain value."""
        if isinstance(value, Node):
            return self._node(value)
        if isinstance(value, tuple):
            return "; then ".join(self.steps(value))
        return "" if value is None else str(value)

    def word(self, value: str) -> str:
        """A plain word of the rules a player answers with (a side, an enum value) in the game's
        words: the vocabulary's phrase for it (`front: the whole card`), else the word spaced out."""
        said = self.phrased(Node("const", {"value": value}))
        return value.replace("_", " ") if said is None else said

    def steps(self, steps: tuple) -> list[str]:
        """The English of each step, a run of steps that a phrase matches read as one."""
        return [
            text for _, _, text in self.segments(steps) if text
        ]  # a phrase reading as nothing hides bookkeeping

    def segments(self, steps: tuple, before: tuple = ()) -> list[tuple[int, int, str]]:
        """The steps cut into runs, each (first step, how many, its English): a run of steps that
        a phrase matches reads as one, any other step alone. `before`: the `let`s written before
        these steps in the lists around them, whose names read as their values if hidden."""
        said, i, named = [], 0, dict(self.named)
        try:
            for let in before:
                self._name_hidden(let, self.say(let))
            while i < len(steps):
                for phrase in self._runs_from(steps[i]):
                    holes = _match_run(phrase.pattern, steps[i:])
                    if holes is not None:
                        said.append((i, len(phrase.pattern), self._filled(phrase, holes)))
                        i += len(phrase.pattern)
                        break
                else:
                    said.append((i, 1, self.say(steps[i])))
                    self._name_hidden(steps[i], said[-1][2])
                    i += 1
        finally:
            self.named = named  # a name is gone when its list of steps ends
        return said

    def _runs_from(self, step) -> tuple:
        """The phrases of runs of steps whose first step's pattern could match `step`."""
        op = step.op if isinstance(step, Node) else None
        found = self.runs_by_op.get(op)
        if found is None:
            found = self.runs_by_op[op] = tuple(p for p in self.runs if _may_match(p.pattern[0], op))
        return found

    def _name_hidden(self, step, said: str) -> None:
        """A `let` hidden by a phrase that reads as nothing: its name reads as its value from here on."""
        if not said and isinstance(step, Node) and step.op == "let":
            self.named[step.args["var"]] = self.say(step.args["value"])

    def sentences(self, value) -> str:
        """An effect as a card prints it: each step a sentence."""
        steps = role(value, "sequence") if has_role(value, "sequence") else (value,)
        return " ".join(sentence(text) for text in self.steps(tuple(steps)))

    # ---- one node ----
    def phrased(self, node: Node) -> str | None:
        """The node's English when a phrase of the vocabulary words it; None when only the
        primitives' templates would."""
        candidates = self.by_op.get(node.op)
        if candidates is None:  # the phrases whose pattern could match a node of this primitive
            candidates = self.by_op[node.op] = tuple(
                p for p in self.single if _may_match(p.pattern[0], node.op)
            )
        for phrase in candidates:
            holes: dict = {}
            if _match(phrase.pattern[0], node, holes):
                return self._filled(phrase, holes)
        return None

    def _node(self, node: Node) -> str:
        if node.op == "call" and node.args["name"] in self.quiet:
            return ""
        if node.op == "var" and node.args.get("name") in self.named:
            return self.named[node.args["name"]]
        phrased = self.phrased(node)
        if phrased is not None:
            return phrased
        primitive = REGISTRY[node.op]
        unsaid = self._unsaid(primitive, node.args)
        template = next(
            (text for when, text in primitive.english if _holds(when, node.args, unsaid)), primitive.template
        )
        template = _OPTIONAL.sub(
            lambda m: (
                m.group(1)
                if all(node.args.get(h) not in (None, "", False, ()) for h in _HOLE.findall(m.group(1)))
                else m.group(2) or ""
            ),
            template,
        )
        if _is_it(node) and self.within:
            return "it"  # the card a condition is testing, not the card printed
        text = _HOLE.sub(lambda m: self._part(primitive, m.group(1), node.args, node.op), template)
        return " ".join(text.split()).replace(" ,", ",")

    def _unsaid(self, primitive, args: dict) -> set:
        """The names a loop binds that its body's English never says (the phrases say "its")."""
        names = {part for when, _ in primitive.english for part, wanted in when.items() if wanted == UNSAID}
        if not names:
            return set()
        marks = {name: f"\0{name}\0" for name in names}  # each name, said as a mark no words contain
        named, self.named = (
            self.named,
            {**self.named, **{args[name]: marks[name] for name in names if args.get(name)}},
        )
        try:
            said = " ".join(
                self._part(primitive, p.name, args, primitive.name)
                for p in primitive.params
                if p.type == "block"
            )
        finally:
            self.named = named
        return {name for name in names if marks[name] not in said}

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
            self.within += 1  # inside this part, `it` is the card being tested
            try:
                return self._part_text(primitive, param, name, value, parent)
            finally:
                self.within -= 1
        return self._part_text(primitive, param, name, value, parent)

    def _part_text(self, primitive, param, name, value, parent) -> str:
        kind = param.type if param else ""
        if isinstance(value, tuple) and all(not isinstance(item, Node) for item in value) and kind == "value":
            return "[" + ", ".join(map(str, value)) + "]"  # a literal list
        if kind == "procedures" and isinstance(value, tuple):  # procedure names: each reads as its call
            value = tuple(Node("call", {"name": item}) if isinstance(item, str) else item for item in value)
        if isinstance(value, tuple) and primitive.roles.get("sequence") == name:
            return (param.joiner if param else "; then ").join(self.steps(value))
        if isinstance(value, tuple):
            return (param.joiner if param else ", ").join(self._grouped(item, parent) for item in value)
        if kind == "symbol":
            return WORDS.get(str(value), str(value))
        if kind == "flag":
            return FLAGS.get(name, f" {name}") if value else ""
        if kind == "binding" and isinstance(
            value, str
        ):  # a definition's parameter is held as "definition:parameter"
            return value.rpartition(":")[2].replace("_", " ")
        return self._grouped(value, parent)

    def _grouped(self, value, parent: str) -> str:
        """English of a part, in parentheses where and/or/not would otherwise read ambiguously."""
        text = self.say(value)
        loose = has_role(value, "loose") and value.op != parent
        groups = REGISTRY[parent].roles.keys() & {"loose", "groups"} if parent in REGISTRY else ()
        return f"({text})" if loose and groups else text


PLAIN = None  # the Wording with no vocabulary, made on first use (the registry loads first)


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
        if pattern.op == "hole":  # it stands for a part the rule has, never for one left out
            return value is not None and _bind(pattern.args["name"], value, holes, within)
        if pattern.op == "list" and isinstance(
            role(value, "literal"), tuple
        ):  # [X, Y] against a literal list
            return _match(
                pattern.args["items"],
                tuple(Node("const", {"value": v}) for v in role(value, "literal")),
                holes,
                within,
            )
        if not isinstance(value, Node) or value.op != pattern.op:
            return False
        compared, written, skipped = _compared(pattern)
        args = value.args
        return all(  # a part the pattern leaves out must be left out of the value too
            item is None for key, item in args.items() if key not in written and key not in skipped
        ) and all(_match(part, args.get(key), holes, within or inside) for key, part, inside in compared)
    if isinstance(pattern, tuple):
        return (
            isinstance(value, tuple)
            and len(value) == len(pattern)
            and all(_match(p, v, holes, within) for p, v in zip(pattern, value))
        )
    if isinstance(pattern, str) and _HOLE_NAME.fullmatch(pattern) and isinstance(value, str):
        return _bind(pattern, value, holes, within)  # a name the pattern binds (choose C from …)
    return pattern == value


_COMPARED: dict[int, tuple] = {}  # id(a pattern's node) -> (the node, what _compared gives)


def _compared(pattern: Node) -> tuple[tuple, frozenset, frozenset]:
    """What matching a node against a pattern's node compares, worked out once per pattern (a
    card's text matches each of its nodes against the phrases that could word it): each part the
    pattern writes, with whether `it` inside it is a card being tested; the parts it writes; the
    parts never compared (_unmatched)."""
    found = _COMPARED.get(id(pattern))
    if found is None or found[0] is not pattern:
        primitive, skipped = REGISTRY[pattern.op], _unmatched(pattern.op)
        compared = tuple(
            (key, part, _it_inside(primitive, key, pattern.args))
            for key, part in pattern.args.items()
            if key not in skipped
        )
        if len(_COMPARED) > 4096:  # kept bounded: a hole met twice compares a rule's own parts as a pattern
            _COMPARED.clear()
        found = _COMPARED[id(pattern)] = (pattern, (compared, frozenset(pattern.args), skipped))
    return found[1]


_IT_INSIDE: dict = {}  # (primitive, part, the parts written) -> (the primitive, _it_inside's answer)


def _it_inside(primitive, part: str, args: dict) -> bool:
    """Whether `it` inside `part` of a node written with these parts is a card being tested:
    Primitive.bindings, which depends on which parts are written, asked once for each case."""
    case = (primitive.name, part, tuple(args))
    found = _IT_INSIDE.get(case)
    if found is None or found[0] is not primitive:  # (a primitive declared again: asked again)
        found = _IT_INSIDE[case] = (primitive, any(b.name == "it" for b in primitive.bindings(part, args)))
    return found[1]


def _may_match(pattern, op: str | None) -> bool:
    """Whether a pattern could match a node of primitive `op` (None: not a node)."""
    return not isinstance(pattern, Node) or pattern.op in (op, "hole", "list")


def _bind(name: str, value, holes: dict, within: bool) -> bool:
    if name in holes:
        return _match(holes[name][0], value, {})
    holes[name] = (value, within)
    return True


def _match_run(pattern: tuple, steps: tuple) -> dict | None:
    holes: dict = {}
    return holes if len(steps) >= len(pattern) and _match(pattern, steps[: len(pattern)], holes) else None


_SKIPPED: dict = {}


def _unmatched(op: str) -> frozenset:
    """The parts of a primitive a pattern does not compare: shared bodies and their numbers,
    text the compiler writes (a question's prompt names the rule it is asked in), and what the
    compiler works out from the parts that are compared (whether `choose` picks among cards)."""
    if op not in _SKIPPED:
        primitive = REGISTRY[op]
        _SKIPPED[op] = frozenset(
            {primitive.roles.get("shared body"), primitive.roles.get("body number")}
            | {p.name for p in primitive.params if p.type == "text" or p.derived == "compiler"}
        ) - {None}
    return _SKIPPED[op]


_ORDERED: dict[int, tuple] = {}  # id(a vocabulary's phrases) -> (them, and what _ordered gives)


def _ordered(phrases: tuple) -> tuple[tuple, tuple, dict, dict]:
    """A vocabulary's phrases, the most specific first (stable: declared order among equals): those
    of one step, those of runs of steps, and (filled as asked) those of one step that a node of
    each primitive could match and those of runs whose first step could. Worked out once per
    vocabulary, not once per Wording (a card's text makes one)."""
    found = _ORDERED.get(id(phrases))
    if found is None or found[0] is not phrases:
        ordered = sorted(phrases, key=lambda p: -_size(p.pattern))
        if len(_ORDERED) > 16:
            _ORDERED.clear()
        found = _ORDERED[id(phrases)] = (
            phrases,
            tuple(p for p in ordered if len(p.pattern) == 1),
            tuple(p for p in ordered if len(p.pattern) > 1),
            {},
            {},
        )
    return found[1], found[2], found[3], found[4]


def _size(pattern) -> int:
    """How much of a rule a pattern pins down: its nodes that are not holes."""
    if isinstance(pattern, Node):
        return (pattern.op != "hole") + sum(_size(value) for value in pattern.args.values())
    if isinstance(pattern, tuple):
        return sum(_size(item) for item in pattern)
    return 0


_BOUND = {IT: "it", YOU: "you"}  # an `english` condition's names for the card in view and the acting player


def _holds(when: dict, args: dict, unsaid: Collection[str] = frozenset()) -> bool:
    return all(
        role(args.get(part), "bound name") == _BOUND[wanted]
        if wanted in _BOUND
        else part in unsaid
        if wanted == UNSAID
        else args.get(part) == wanted
        for part, wanted in when.items()
    )


def _is_it(node) -> bool:
    return role(node, "bound name") == "it"


def sentence(text: str) -> str:
    """A phrase as a sentence: capitalised, ending with a stop (or the colon that introduces a list)."""
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text[-1:] in ".!?:" else text + "."


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# What a player did, told of them: the imperative a question asks ("choose a card in your hand
# and play it") said of the player who answered ("chooses a card in their hand and plays it").
_CLOSED = _words(  # words that never begin an imperative: the phrase is not one
    "a an the that this these those it its they their them he she his her each every all no one "
    "some any another both either neither if when while then there here you your"
)
_OBJECT = _words(  # a word an imperative's object begins with: what marks `and play it` a verb
    "a an the it them its their your this that these those one all each as up down out back "
    "another any some no what which"
)
_PREPOSITIONS = _words(
    "of to for with from by at on in into onto beside behind before after than under over near "
    "towards toward about against like around between"
)
_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes", "undo": "undoes"}
_CLAUSE = re.compile(r"(^|; then |, then |; |: | and | or )([a-z]+)(?=( [\w']+)?)")
_SECOND_PERSON = re.compile(r"\b([Yy])ou(rself|rs|r|'re|'ve|'ll|'d)?\b(?=(\W*)(\w*))")


def third_person(phrase: str) -> str | None:
    """An imperative phrase said of the player it asked: its verbs conjugated and its "you"s made
    "they"s ("carries out the effects in the order they pick"); None when it does not begin with
    a verb ("that player takes it"). A later clause's first word is taken for a verb only when an
    object follows it ("and play it", "; then draw 1 card"), not in "turf and bush tokens"."""
    first = phrase.split(" ", 1)[0]
    if not first.isalpha() or not first.islower() or first in _CLOSED:
        return None

    def conjugated(match: re.Match) -> str:
        start, word, following = match[1], match[2], (match[3] or "").strip()
        verb = not start or word not in _PREPOSITIONS and (following.isdigit() or following in _OBJECT)
        return start + (_third(word) if verb and word not in _CLOSED else word)

    return said_of_them(_CLAUSE.sub(conjugated, phrase))


def said_of_them(phrase: str) -> str:
    """A phrase said to a player ("your hand", "dealt to you", "the order you pick") said of them."""

    def pronoun(match: re.Match) -> str:
        capital, ending, gap, following = match[1], match[2] or "", match[3], match[4]
        if ending in ("r", "rs", "rself"):
            word = {"r": "their", "rs": "theirs", "rself": "themselves"}[ending]
        elif ending:
            word = "they" + ending
        else:  # "you" as the object ("of you", "gives you the card") or the subject ("you pick")
            before = match.string[: match.start()].rsplit(" ", 2)[-2:]
            preposition = len(before) == 2 and before[0] in _PREPOSITIONS
            subject = not preposition and gap == " " and following and following not in _OBJECT
            word = "they" if subject and not following.isdigit() else "them"
        return word.capitalize() if capital == "Y" else word

    return _SECOND_PERSON.sub(pronoun, phrase)


def _third(verb: str) -> str:
    """A verb's third person singular: takes, passes, carries, has."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("s") and not verb.endswith(("ss", "us")):  # said of someone already: gives
        return verb
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"
