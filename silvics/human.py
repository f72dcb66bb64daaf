"""A person at the terminal: at each decision, the question, what happened since their last
one (the story, as they saw it), the table as their seat sees it (screen.py), and numbered
legal options; they answer by number or by name, and may ask `show NAME`, `why NAME`, `undo`."""

from __future__ import annotations

import re
from functools import partial

from silvics.compiler.cardtext import attribute_line
from silvics.compiler.english import Wording
from silvics.interpreter.ir import Node
from silvics.interpreter.primitives.flow import ACTION_PROMPT as ACTIONS
from silvics.screen import plain, rich, space_words, wrapped


class InputEnded(Exception):
    """The person's input ended at a question (the end of a file piped in, Ctrl-D)."""


class HumanAgent:
    name = "human"

    def __init__(
        self,
        seat: int,
        read=None,
        write=None,
        undo=None,
        wording=None,
        table: dict | None = None,
        asker=None,
        why=None,
        counters: dict | None = None,
        naming: Naming | None = None,
        screen=None,
        since=None,
    ):
        """`table`, shared by the people of one game played at one screen (hot seat), holds the
        seat that decided last: the screen is cleared and handed over between two people.
        `asker` (story.Asker) says questions and options in the game's words."""
        self.asker = asker
        self.seat = seat
        self.wording = wording  # the game's words: a card's effects shown as its printed text
        self.read = read or (lambda prompt: input(prompt))
        self.undo = undo  # undo(seat) goes back to this seat's previous decision, or says why not
        self.why = why  # why(seat, name): the lines saying why NAME is not offered (silvics/why.py)
        self.counters = counters or {}  # name -> CounterDecl: the counters players see are shown
        self.naming = naming  # zones, cards and marks in the game's words (never by id)
        self.table = table
        self.screen = screen  # screen.Screen: the table in the game's words (None: every zone by its label)
        self.since = since  # since(seat): the story's lines since the seat's last decision
        self.show = rich_console() if write is None else None  # a terminal's: rich tables
        # at a terminal every line wraps within its width, under its own indent
        self.write = write or (print if self.show is None else partial(wrapped, self.show))

    def choose(self, observation) -> int:
        self._hand_over()
        prompt = observation.prompt
        self.write(f"\n--- P{self.seat + 1}, your turn: {self._question(observation)} ---")
        self.write("  " + status(observation, self.seat, self.counters))
        since = self.since(self.seat) if self.since else []
        if since:
            self.write("  What happened:" if since[0] == "Setup:" else "  Since your last decision:")
            for line in since:
                self.write(f"  {line}" if line else "")
        self._table(observation)
        labels = observation.labels
        shown = [self._option(prompt, label) for label in labels]
        for number, said in enumerate(shown, 1):
            self.write(f"  [{number}] {said}")
        self.write(f"  ({self._hint(len(labels))})")
        while True:
            try:
                answer = self.read(f"P{self.seat + 1} > ").strip()
            except EOFError:
                raise InputEnded from None
            if answer == "undo" and self.undo:
                self.write(f"  {self.undo(self.seat)}")  # returns only when it cannot go back
                continue
            if answer.startswith("why") and self.why:
                asked = answer[3:].strip()
                for line in self.why(self.seat, asked) if asked else ["why what? type: why NAME"]:
                    self.write(f"  {line}")
                continue
            if answer.startswith("show "):
                for line in self._card_named(observation, answer[5:].strip()):
                    self.write(f"  {line}")
                continue
            index = _index(answer, labels, shown)
            if index is not None:
                return index
            self.write(f"  {self._hint(len(labels))}")

    def _table(self, observation):
        """The table as the seat sees it: the screen, or without one every zone by its label."""
        if self.screen is None:
            for label, cards in observation.zones.items():
                self.write(f"  {label:<20} {describe_pile(cards, self.wording)}")
            return
        blocks = self.screen.blocks(observation)
        if self.show is not None:
            rich(blocks, self.show)
        else:
            for line in plain(blocks):
                self.write(line)

    def _card_named(self, observation, name: str) -> list[str]:
        """A card the seat sees, by its name, with all it prints (`show NAME`)."""
        naming, wanted = self.naming, name.casefold()
        for label, cards in observation.zones.items():
            for card in cards:
                if card.card is None:
                    continue
                names = {card.card.id, *(side.name for side in card.card.sides)}
                if naming:
                    names |= {naming.card(card, label), naming.printed(card.card.id)}
                if wanted in {n.casefold() for n in names if n}:
                    if self.screen is not None:
                        return self.screen.card(card, label)
                    return [describe(card, self.wording, naming, label)]
        return [f"no card you can see is called {name!r}"]

    def _option(self, prompt: str, label: str) -> str:
        """An option as the person reads it: a step in the game's words, a card by name, a place in words."""
        said = self.asker.option(prompt, label) if self.asker else label
        return self.naming.option(said) if self.naming else said

    def _question(self, observation) -> str:
        if self.asker is None:
            return observation.prompt
        return question(self.asker, observation.prompt, observation.labels, observation.still, self.naming)

    def _hint(self, count: int) -> str:
        """What may be typed: a number or an option's words, and show, why and undo when offered."""
        others = [
            "show NAME",
            *(word for word, offered in (("why NAME", self.why), ("undo", self.undo)) if offered),
        ]
        return f"type a number from 1 to {count} or an option as written; or {', '.join(others)}"

    def _hand_over(self):
        """Between two people at one screen: hide what the last one saw, and wait until the
        next one, alone, is ready."""
        if self.table is None:
            return
        last, self.table["last"] = self.table.get("last"), self.seat
        if last is not None and last != self.seat:
            self.write(CLEAR + f"P{last + 1}'s view is hidden. Pass the game to P{self.seat + 1}.")
            try:
                self.read(f"P{self.seat + 1}, press Enter when only you can see the screen ")
            except EOFError:
                raise InputEnded from None


def rich_console():
    """A rich console when the output is a terminal (tables drawn, colour); None for a file or a pipe."""
    import sys

    if not sys.stdout.isatty():
        return None
    from rich.console import Console

    return Console(highlight=False)


_YOU = re.compile(r"\byou(?:r)?\b")  # a zone's words said to its owner: "the terrains dealt to you"
CLEAR = "\033[2J\033[H" + "\n" * 40  # clears a terminal; scrolls anything that ignores it out of sight


class Naming:
    """How a person reads the table, never by id: a zone as "your hand", "P2's reserve", "the
    clearing", a card's own zone as "Dryads' votes", a space as "your region, low row, column 1"; a card by
    its name, a card whose sides are halves of one face (its kind's `faces: split`) by all its
    halves unless it lies on a card (played as one half); only the marks the rules declare
    `shown`, by those words."""

    def __init__(self, ir, seat: int):
        self.seat = seat
        cards = (*ir.cards, *(card for module in ir.modules.values() for card in module.cards))
        split = {face.kind for face in ir.faces if face.split}
        self.names = {card.id: _named(card.sides[0].name, card.id) for card in cards}
        self.halves = {
            card.id: " / ".join(_named(s.name, card.id) for s in card.sides)
            for card in cards
            if card.kind in split
        }
        self.shown_marks = {mark.name: mark.shown for mark in ir.marks if mark.shown}
        self.wording = wording = Wording(ir.vocabulary)
        self.places = {
            zone.name: wording.say(Node("zone", {"name": zone.name, "per": zone.per})).replace("_", " ")
            for zone in ir.zones
        }
        # a card's own zone the vocabulary words its own way: "the cards tucked under {card}"
        self.of_card = {
            zone.name: said
            for zone in ir.zones
            if zone.per == "card"
            and (said := wording.say(Node("zone", {"name": zone.name, "per": "card", "of": _HOLDER})))
            != f"the {zone.name.replace('_', ' ')} of {_HOLDER.args['name']}"
        }

    def zone(self, label: str) -> str:
        name, _, owner = label.partition("@")
        zone, _, space = name.partition(":")
        if space:  # "low.1": "low row, column 1"
            row, _, column = space.rpartition(".")
            space = space_words(row, column)
        words, plain = self._words(zone)
        said = plain + (f", {space}" if space else "")
        if not owner:
            return f"the {said}" if words.startswith("the ") or words == plain else said
        if owner.isdigit():
            whose = "your" if int(owner) == self.seat + 1 else f"P{owner}'s"
            whole = words + (f", {space}" if space else "")
            if _YOU.search(whole.removeprefix("your ")):  # "the plants on your player board": whose
                if int(owner) == self.seat + 1:
                    return whole
                return _YOU.sub(lambda you: whose if you[0] == "your" else f"P{owner}", whole)
            return f"{whose} {said}"
        if "@" in owner:  # the zone of a card known by where it lies: "slots@forest@2#3"
            place, _, number = owner.partition("#")
            return (
                f"{said} of card {number} in {self.zone(place)}"
                if number
                else f"{said} in {self.zone(place)}"
            )
        return self.held(zone, self.names.get(owner, _said(owner)))

    def held(self, zone: str, holder: str) -> str:
        """A card's own zone, its card called `holder`: "Dryads' votes", or as the vocabulary words
        it, "the cards tucked under Bald Eagle"."""
        if zone in self.of_card:
            return self.of_card[zone].replace(_HOLDER.args["name"], holder)
        said = self._words(zone)[1]
        return f"{holder}' {said}" if holder.endswith("s") else f"{holder}'s {said}"

    def _words(self, zone: str) -> tuple[str, str]:
        """A zone in the vocabulary's words ("the draw pile", "your hand"), and without its article."""
        words = self.places.get(zone, zone.replace("_", " "))
        return words, words.removeprefix("the ").removeprefix("your ")

    def printed(self, card_id: str) -> str:
        """A card by what is printed on it, wherever it lies: a split card by all its halves."""
        return self.halves.get(card_id) or self.names.get(card_id) or _said(card_id)

    def card(self, seen, label: str = "") -> str:
        """A card seen (observation.Seen) as it lies in the zone `label`."""
        card = seen.card
        on_a_card = not label.rpartition("@")[2].isdigit() and "@" in label
        if card.id in self.halves and not on_a_card:
            return self.halves[card.id]
        side = card.sides[seen.side] if seen.side is not None else card.sides[0]
        return _named(side.name, card.id)

    def marks(self, marks: dict) -> list[str]:
        return [
            f"{self.shown_marks[name]} {_printed(value)}"
            for name, value in marks.items()
            if name in self.shown_marks
        ]

    def option(self, said: str) -> str:
        """An option's words with the ids and zone keys in them said in words ("a hidden card from
        hand@2": "a hidden card from P2's hand"; "apple from hand@1": "Apple from your hand")."""
        thing, sep, place = said.partition(" from ")
        if sep and "@" in place:
            return f"{self.option(thing)} from {self.zone(place)}"
        if said in self.halves:
            return self.halves[said]
        if said in self.names:
            return self.names[said]
        zone, colon, _ = said.partition("@")[0].partition(":")
        a_space = colon and zone in self.places  # "board:r5.14": the board, r5.14
        if ("@" in said or a_space) and " " not in said:
            return self.zone(said)
        # a plain word: a side chosen of a card named before ("top_half": top half), a value
        return self.wording.word(said) if said.isidentifier() else said

    def value(self, name: str, value) -> str:
        """A printed attribute as a person reads it: its name and its words, without ids' dashes."""
        return f"{name.replace('_', ' ')} {_printed(value).replace('-', ' ')}"


_HOLDER = Node("var", {"name": "HOLDER"})  # a card holding a zone, in a zone's words (Naming.of_card)


def _named(name: str, card_id: str) -> str:
    """A card's name as printed; a card printed without one (its name is its id) in words."""
    return name if name and name != card_id else _said(card_id)


card_name = _named  # for the story, which names cards as the screen does


def _said(card_id: str) -> str:
    """A card without a name said by its id in words: "white-turf" is "White turf"."""
    words = card_id.replace("--", " / ").replace("-", " ")
    return words[:1].upper() + words[1:]


def question(asker, prompt: str, labels, still=None, naming: Naming | None = None) -> str:
    """A question in the game's words: one offering actions names them; one about a card names
    it ("carry out its effect? (Birch)"); one asked again for each card of several says how many
    (or how much) are still wanted."""
    if prompt == ACTIONS:
        return "choose one: " + ", or ".join(asker.option(prompt, label) for label in labels)
    words, card = asker.words(prompt), asker.about(prompt)
    if card is not None:
        words += f" ({naming.printed(card) if naming else _said(card)})"
    if still is None:
        return words
    measure, amount = still
    if measure == "count":
        return f"{words} ({amount} more, of these {len(labels)})"
    return f"{words} (worth {amount} more, from these {len(labels)})"


def status(observation, seat: int, declared: dict | None = None) -> str:
    """The scores, the markers, and the counters players see (`declared`: name -> CounterDecl),
    the shared ones and the seat's own, on one line."""
    scores = "  ".join(f"P{number + 1} {points}" for number, points in enumerate(observation.scores))
    markers = [f"{name} P{holder + 1}" for name, holder in sorted(observation.markers.items())]
    counters = []
    for label, value in sorted(observation.counters.items()):
        name, _, owner = label.partition("@")
        if not owner or int(owner) == seat + 1:
            counters += shown_counter(declared or {}, name, value)
    return " · ".join([f"scores: {scores}", *markers, *counters])


def shown_counter(declared: dict, name: str, value: int, whose: str = "") -> list[str]:
    """A counter as players read it: by the words its declaration shows it by (`shown:`), with the
    word its value stands for (`names:`); nothing for the rules' own bookkeeping (no `shown:`) or
    for a counter still at its start (there is nothing to tell)."""
    counter = declared.get(name)
    if counter is None or not counter.shown or value == counter.start:
        return []
    said = counter.names[value] if 0 <= value < len(counter.names) else value
    return [f"{whose}{counter.shown} {said}"]


def _index(answer: str, labels, shown=()) -> int | None:
    """The option a typed answer picks: its number, its label, or its words as shown (in any
    case); None for anything else (int() refuses '²' and numbers thousands of digits long,
    which isdigit() lets through)."""
    try:
        number = int(answer)
    except ValueError:
        number = 0
    if 1 <= number <= len(labels):
        return number - 1
    if answer in labels:
        return labels.index(answer)
    said = [words.casefold() for words in shown]
    return said.index(answer.casefold()) if answer.casefold() in said else None


def describe_pile(cards, wording=None, naming: Naming | None = None, label: str = "") -> str:
    """A zone's cards (observation.Seen) in words: those the seat sees, then how many it cannot."""
    shown = [describe(card, wording, naming, label) for card in cards if card.card is not None or card.marks]
    hidden = sum(1 for card in cards if card.card is None and not card.marks)
    if hidden:
        shown.append(f"{hidden} card{'s' if hidden > 1 else ''} you cannot see")
    return "; ".join(shown)


def describe(seen, wording=None, naming: Naming | None = None, label: str = "") -> str:
    """A card as it lies: its face-up side's name and printed attributes (its effects as the
    card prints them, given the game's `wording`), and its marks (each copy its own: two copies
    of a card may lie on different sides, with different marks). A card the seat cannot see
    shows its marks alone. With `naming`, only the marks players see, by their words, and the
    card named as it lies in the zone `label`."""
    card = seen.card
    marks = naming.marks(seen.marks) if naming else [f"{n} {_printed(v)}" for n, v in seen.marks.items()]
    if card is None:
        return f"a card you cannot see [{', '.join(marks)}]"
    side = card.sides[seen.side]
    parts = [
        attribute_line(name, value, wording)
        if wording and isinstance(value, Node)
        else f"{name}: {side.text[name]}"
        if name in side.text
        else naming.value(name, value)
        if naming
        else f"{name} {_printed(value)}"
        for name, value in side.attributes.items()
    ] + marks
    if naming:
        named = naming.card(seen, label)
    else:
        named = f"{side.name or card.id}" + (f" ({side.side})" if len(card.sides) > 1 else "")
    return f"{named} [{', '.join(parts)}]" if parts else named


def _printed(value) -> str:
    """An attribute's value in words: a set or a list of numbers joined by slashes; a rule
    without its source text (none is printed on the bundled cards) by its primitive's name."""
    if isinstance(value, (tuple, list, set, frozenset)):
        return "/".join(map(_printed, value)) or "(none)"
    if isinstance(value, Node):
        return f"({value.op})"
    return str(value)
