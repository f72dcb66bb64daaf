"""The play log people read: the setup, a heading as each procedure the game's vocabulary heads
starts ("Round 2", "P1's turn"), one line per decision in the game's words, the points scored
by heading, the boards the rules draw, and at the end what each player built and a table of
points by heading. It is told by replaying the game (the same seed and choices give the same
game) with the engine's hooks: `Game.on_call` as a procedure starts, `Game.on_step` after each
action. `silvics play --log full` prints the engine's complete log instead."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple, cast

from silvics.compiler.english import HEADING_HOLE, Wording, said_of_them, third_person
from silvics.compiler.walk import every_rule, nodes
from silvics.human import card_name
from silvics.interpreter.game import Game
from silvics.interpreter.ir import GameIR, Node
from silvics.interpreter.primitives.flow import ACTION_PROMPT as ACTIONS
from silvics.interpreter.primitives.flow import DONE, NOTHING
from silvics.interpreter.registry import REGISTRY, has_role, role
from silvics.interpreter.state import Said, parse_key, zone_key
from silvics.interpreter.views import visible, zone_sight
from silvics.position import PositionError, zone_from_label
from silvics.screen import counted, face_down, space_words

INDENT = "  "
WIDE = 100  # a grid's rows are drawn this wide at most: longer names are shortened to fit
LONG = 100  # a decision's words longer than this are cut at a pause
FEW = 3  # cards leaving the viewers' sight are named up to this many, else counted


@lru_cache(maxsize=1024)
def _drawing_rows(drawing) -> tuple[str, ...]:
    """A drawing of a board in the log, as the story's lines (written out once: a story is told
    again from the start at each move, and a drawing is the same whenever it is told). Room for
    every drawing of a long game: a telling reads them in order, and an LRU smaller than that
    would forget each one just before it is asked for again."""
    return tuple(INDENT + row for row in drawing.text(None).splitlines())


def _short(words: str) -> str:
    """A decision's words, cut at the first pause past the start when too long to read in a line
    (a choice whose condition the vocabulary words in full: the rest is in the rules reference)."""
    if len(words) <= LONG:
        return words
    cuts = [at for mark in (" (", ": ", "; ", ", ") if 20 < (at := words.find(mark, 20)) <= LONG]
    cut = words[: min(cuts)] if cuts else words[:LONG].rsplit(" ", 1)[0]
    return cut + " …" + ")" * (cut.count("(") - cut.count(")"))


def _per_ir(find):
    """`find(ir)`, found once per IR (an IR never changes) and kept for the last few: each game
    told of a batch walked the whole of the rules again (0.2 s of a Forest Shuffle game's 0.5 s
    at the command line)."""
    found: dict[int, tuple] = {}

    def of(ir: GameIR):
        kept = found.get(id(ir))
        if kept is None or kept[0] is not ir:
            if len(found) >= 8:
                found.clear()
            kept = found[id(ir)] = (ir, find(ir))
        return kept[1]

    return of


class _Index(NamedTuple):
    """The rules of a game indexed for its story, in one walk."""

    prompts: dict[str, tuple[tuple, int]]  # each prompt -> the steps asking it, and its index among them
    steps: dict  # each step by where it is written (what Game.recent names)
    draws: list[Node]  # the grid drawings
    branches: list[tuple[Node, frozenset]]  # each branch's condition, and the spans its `then` holds
    lets: dict[int, tuple]  # id() of a list of steps -> the `let`s before it in the lists around it


@_per_ir
def _index(ir: GameIR) -> _Index:
    index = _Index({}, {}, [], [], {})
    _lets_around(tuple(every_rule(ir)), (), index.lets)
    for node in nodes(every_rule(ir)):
        if node.span:
            index.steps[node.span] = node
        if node.op == "draw":
            index.draws.append(node)
        if has_role(node, "sequence"):
            steps = tuple(role(node, "sequence"))
            for at, step in enumerate(steps):
                prompt = step.args.get("prompt") if isinstance(step, Node) else None
                if prompt:
                    index.prompts.setdefault(prompt, (steps, at))
        cond, other = role(node, "branch on"), role(node, "otherwise")
        if cond is not None:  # parents first
            then = [value for value in node.args.values() if value is not cond and value is not other]
            index.branches.append((cond, frozenset(inner.span for inner in nodes(tuple(then)))))
    return index


def _lets_around(value, lets: tuple, found: dict) -> None:
    """Each list of steps within `value`, with the `let`s before it in the lists around it (a
    question nested in an `if` says a name bound earlier as what it stands for: "this row")."""
    if isinstance(value, tuple):
        for item in value:
            _lets_around(item, lets, found)
    elif isinstance(value, Node) and REGISTRY[value.op].kind == "flow":  # (only flow holds steps)
        if has_role(value, "sequence"):
            steps = role(value, "sequence")
            found.setdefault(id(steps), lets)
            for at, step in enumerate(steps):
                before = tuple(s for s in steps[:at] if isinstance(s, Node) and s.op == "let")
                _lets_around(step, lets + before, found)
        else:
            for part in value.args.values():
                _lets_around(part, lets, found)


class Asker:
    """Where each question the rules ask is written, in words: a prompt names its step, and the
    run of steps a phrase reads as one (choose a card, then move it) is one decision. The rules
    are indexed once per IR; a list of steps is worded when a question in it is first asked."""

    def __init__(self, ir: GameIR, wording: Wording):
        self.worded: dict[int, tuple[tuple, list[tuple[int, int, str]]]] = {}  # id(steps) -> their segments
        self.wording = wording
        self.where = _index(ir).prompts  # prompt -> (the steps asking it, its index)
        self.lets = _index(ir).lets  # steps -> the `let`s before them in the steps around them
        self.procedures: dict[str, str] = {}  # a procedure `one of` offers -> its words

    def words(self, prompt: str) -> str:
        """A question in the game's words, short enough for a line. A step the player may skip,
        which no phrase of the vocabulary words, is asked by what it does ("carry out a cloud
        action? (as many times as you like, while you can pay for a cloud action)"); too long for
        a line, by what it does alone, cut short if need be, still a question ("place a plant
        from your player board …?")."""
        step = self.step(prompt)
        if step is not None and has_role(step, "optional") and self.wording.phrased(step) is None:
            action = self.wording.say(role(step, "optional"))
            if not has_role(step, "repeated"):
                return f"{_short(action)}?"  # (a question cut short still asks)
            condition = step.args.get("while")  # `may repeat`'s, as its template words it
            again = "as many times as you like" + (
                f", while {self.wording.say(condition)}" if condition else ""
            )
            asked = f"{action}? ({again})"
            return asked if len(asked) <= LONG else f"{_short(action)}?"
        part = self.part(prompt)
        return _short(self.asked(prompt)[1]) + (f" ({part[0]} of {part[1]})" if part else "")

    def part(self, prompt: str) -> tuple[int, int] | None:
        """Which of the questions of one phrase this is, and how many it asks: (2, 3) for the
        creature of Four Forests' vote ("place a card … face down under a creature, turned to vote
        for or against it": its card, its creature, its way), whose three questions the phrase
        words alike; None for a question that is alone in its words."""
        found = self._found(prompt)
        if found is None:
            return None
        steps, index = found
        (run, start), _ = self.asked(prompt)
        segment = (
            next((s for s in self.worded[run][1] if s[0] == start), None) if run in self.worded else None
        )
        if segment is None:
            return None
        asking = [at for at in range(start, start + segment[1]) if _asks(steps[at])]
        return (asking.index(index) + 1, len(asking)) if len(asking) > 1 and index in asking else None

    def about(self, prompt: str) -> str | None:
        """The card a question names after its words ("… (birch)"), by its id: None for none."""
        base, bracket, card = prompt.rpartition(" (")
        if prompt in self.where or not bracket or base not in self.where or not card.endswith(")"):
            return None
        return card[:-1]

    def option(self, prompt: str, label: str) -> str:
        """An option in the game's words: a procedure `one of` offers reads as its call."""
        if prompt != ACTIONS:
            return label
        said = self.procedures.get(label)
        if said is None:  # worded once: a story is told again from the start at each move
            said = self.wording.say(Node("call", {"name": label}))
            said = self.procedures[label] = said.replace("_", " ") if said == label else said
        return said

    def _found(self, prompt: str) -> tuple[tuple, int] | None:
        """(the steps, the index of the one asking), the prompt's card left out if it names one."""
        return self.where.get(prompt) or self.where.get(prompt.rpartition(" (")[0])

    def step(self, prompt: str) -> Node | None:
        """The step of the rules that asks the question."""
        found = self._found(prompt)
        return None if found is None else found[0][found[1]]

    def asked(self, prompt: str) -> tuple:
        """(the run the question belongs to, its words)."""
        found = self._found(prompt)
        if found is None:
            return (prompt, 0), prompt
        steps, index = found
        if id(steps) not in self.worded:
            segments = self.wording.segments(steps, self.lets.get(id(steps), ()))
            self.worded[id(steps)] = (steps, segments)  # the steps kept: ids stay theirs
        for start, length, text in self.worded[id(steps)][1]:
            if start <= index < start + length:
                return (id(steps), start), text or self.wording.say(steps[index])
        return (prompt, 0), prompt


def _did(seat: int, words: str, you: int | None) -> str:
    """A player's decision said of them ("P1 chooses a card in their hand"), from the words the
    question asked it in, or to them when the story is theirs alone (`you`: "You choose a card
    in your hand", the question's own words); words that do not begin with a verb follow the
    player's name and a colon."""
    told = third_person(words)
    if told is None:
        return f"P{seat + 1}: {words}"
    return f"You {words}" if seat == you else f"P{seat + 1} {told}"


def _yours(heading: str, you: str) -> str:
    """A heading said to the player it names: "P1's turn" is "Your turn", "Bonus for P1" "Bonus
    for you" (a heading that begins with a capital is a section's, and keeps it)."""
    said = re.sub(rf"\b{you}'s\b", "your", re.sub(rf"\b{you}\b(?!')", "you", heading))
    return said[:1].upper() + said[1:] if heading[:1].isupper() else said


def _asks(step) -> bool:
    """Whether a step of a run asks a question of its own (a `choose`, a `may` …: it has a prompt)."""
    return isinstance(step, Node) and bool(step.args.get("prompt"))


class Forced(NamedTuple):
    """A choice taken without asking (a single option): told as an asked one is (a Said's fields)."""

    seat: int
    prompt: str
    label: str
    cards: tuple  # the cards it took

    @property
    def card(self) -> int | None:
        return self.cards[0] if self.cards else None

    @property
    def picked(self) -> bool:
        return bool(self.cards)


def _unseen(game, cards: tuple) -> str:
    """Cards not every viewer saw: face down where they lie now in sight of all (as that place
    calls them: "a sapling"), else hidden."""
    state = game.state
    down = all(
        state.facedown[uid] and zone_sight(game.rules, state.location[uid])[0] == "public" for uid in cards
    )
    if not down:
        return "a hidden card" if len(cards) == 1 else f"{len(cards)} hidden cards"
    places = {parse_key(state.location[uid]).name for uid in cards}
    zone = game.rules.zones.get(places.pop()) if len(places) == 1 else None
    return face_down(zone, len(cards), article=True)


def _shortened(name: str, room: int) -> str:
    """A name in at most `room` characters: whole, or cut at a word and marked with an ellipsis."""
    if len(name) <= room:
        return name
    cut = name[: room - 1].rsplit(" ", 1)[0] if " " in name[: room - 1] else name[: room - 1]
    return cut + "…"


def _counted(names: list[str]) -> str:
    return ", ".join(counted(names))


def _picked(choice: Said | Forced) -> tuple:
    """The cards a choice picked (none for a choice of words, a player, a space …)."""
    if isinstance(choice, Forced):
        return choice.cards
    return (choice.card,) if choice.picked and choice.card is not None else ()


class Moved(NamedTuple):
    """Cards moved by no one's choice (a reveal, a refill, an automa's action): a line of the
    story, which runs of such moves to one place share."""

    actor: int | None  # the seat whose place the cards went to or came from, if only one's
    phrase: str | None  # the step's own words, when the vocabulary phrases it
    cards: str  # the cards as the viewers saw them: named, or counted
    many: bool
    place: str  # where they went, in the story's words
    received: bool = False  # whether they went to a place of the actor's (a draw, not a payment)

    def line(self, you: int | None) -> str:
        if self.phrase:
            told = self.phrase if self.actor is None else _did(self.actor, self.phrase, you)
            return f"{INDENT}{told} — {self.cards}"
        who = "" if self.actor is None else f"P{self.actor + 1}"
        named = not who or self.place.startswith((f"{who}'s ", "your "))  # the place names them
        actor = "" if named else f"{who}: "
        return f"{INDENT}{actor}{self.cards} {'go' if self.many else 'goes'} to {self.place}"

    def joined(self, other: Moved) -> Moved | None:
        """One line for both, when they say the same kind of thing about the same place."""
        if self[:2] + self[4:] != other[:2] + other[4:] or "card" in self.cards + other.cards:
            return None  # (cards counted, not named, are not joined)
        return self._replace(cards=f"{self.cards}, {other.cards}", many=True)


class LaidOut(NamedTuple):
    """The table as play begins, told where setup ends: after the choices made in it, so that
    the story only ever grows at its end (what a person was told since their last decision)."""

    lines: tuple[str, ...]


class _Teller:
    """Tells one game for `viewers`, the seats whose story it is (every seat: the table's): a
    card a choice names is named only if each of them could see it at some moment from its
    choice to the end of the chooser's turn (taken from a public place, played face up, paid
    into one, passed to them), else said to be hidden (kept in a hand) or face down. A turn
    ends as the chooser is next asked after another seat (what it held back has happened then)."""

    def __init__(self, ir: GameIR, game: Game, viewers, you: int | None = None):
        """`viewers`: the seats whose sight the story keeps to; `you`: the one person it is told
        to, if it is one person's ("You draw 2 cards", "Your turn"), else None (the table's)."""
        self.ir, self.game, self.viewers, self.you = ir, game, tuple(viewers), you
        self.wording = Wording(ir.vocabulary)
        self.asker = Asker(ir, self.wording)
        # (log length then, a heading's words, the score items of an action, a choice not asked, a
        # move no choice made, or the table as play begins)
        self.events: list[tuple[int, str | list[tuple] | Forced | Moved | LaidOut]] = []
        self.setup: list[str] = []  # the table as play began (none yet: no move is told)
        self.scored = 0  # score items told so far
        # seat -> [[choice, whether every viewer has seen its cards so far]] while its turn goes on
        self.unsettled: dict[int, list] = {}
        self.waiting: set[int] = set()  # the seats another seat has been asked since they last were
        self.ending = ""  # why a rule ended the game at once, in the game's words
        # id() of the choices (kept in the log or events) naming cards unseen -> how they are said,
        # as they lay when the chooser's turn ended ("a sapling", "a hidden card")
        self.hidden: dict[int, str] = {}
        # id() of the choices not yet settled whose cards a viewer has not seen
        self.doubtful: set[int] = set()
        # the line of the action last picked, and its chooser, while nothing follows it
        self.acted: tuple[str, int] | None = None
        self.key = next(  # what a drawing's cells mean, when the vocabulary words what they show
            (said for node in _index(ir).draws if (said := self._key(node))), ""
        )
        self.where = list(game.state.location)  # where each card was after the last action
        self.read = 0  # log entries looked at by on_step
        self.picked: set[int] = set()  # cards the choices since the last heading named
        self.scoring = False  # whether the final scoring has begun
        self.shown: dict[int, bool] = {}  # whether every viewer saw a card after it last moved or turned
        # each action step of the rules by where it is written (what Game.recent names)
        self.steps = _index(ir).steps

    # ---- the hooks ----
    def on_call(self, game, name: str, env: dict):
        if name == "play" and not self.setup:
            self.setup = self._laid_out(game)
            self.events.append((len(game.state.log), LaidOut(tuple(self.setup))))
        self.scoring = self.scoring or name == "scoring"  # its moves are bookkeeping: its points are told
        if name == "scoring" and game.state.log and game.state.log[-1][0] == "end":  # a rule ended it
            self.ending = self._why_ended(game.recent[-1] if game.recent else None)
        text = self.ir.vocabulary.headings.get(name)
        if text is not None:
            filled = HEADING_HOLE.sub(lambda m: self._value(game, env, m[1], m[2] == "player"), text)
            if self.you is not None:  # your own story: "Your turn", not "P1's turn"
                filled = _yours(filled, f"P{self.you + 1}")
            self.events.append((len(game.state.log), filled))
            self.picked.clear()

    def on_choice(self, game, seat: int, prompt: str, label: str, asked: bool, cards: tuple):
        if asked:  # the log holds it (a Said)
            choice = game.state.log[-1][2]
        else:
            choice = Forced(seat, prompt, label, tuple(cards))
            self.events.append((len(game.state.log), choice))
        self.unsettled.setdefault(seat, []).append([choice, self._seen(game, choice)])
        self.picked.update(_picked(choice))

    def settle(self, game):
        """Once a seat's turn is over (it is asked again after another seat was, or the game is
        over: what it held back has happened), whether the viewers saw the cards its choices named."""
        pending = game.state.pending
        asked = None if pending is None else pending.seat
        for entries in self.unsettled.values():
            for entry in entries:
                entry[1] = entry[1] or self._seen(game, entry[0])
        if asked in self.waiting or asked is None:
            for seat in list(self.unsettled) if asked is None else [asked]:
                for choice, seen in self.unsettled.pop(seat, ()):
                    if not seen:
                        self.hidden[id(choice)] = _unseen(game, _picked(choice))
        self.waiting = {seat for seat in self.unsettled if seat != asked} | (self.waiting - {asked})

    def _seen(self, game, choice) -> bool:
        return all(visible(game, seat, uid) for uid in _picked(choice) for seat in self.viewers)

    def on_step(self, game):
        log = game.state.log
        for what, uids, detail in log[self.read :]:
            if what in ("move", "refill"):
                origins = [self.where[uid] for uid in uids]
                if self.setup and not self.scoring and not self.picked.issuperset(uids):
                    self._moved(game, uids, origins, detail)
                for uid in uids:
                    self.where[uid] = detail
            if what in ("move", "refill", "flip", "turn"):
                self.shown.update((uid, self._shown(game, uid)) for uid in uids)
        self.read = len(log)
        items = game.state.score_items[self.scored :]
        self.scored += len(items)
        if items:
            self.events.append((len(game.state.log), items))

    def _shown(self, game, uid: int) -> bool:
        return all(visible(game, seat, uid) for seat in self.viewers)

    def _moved(self, game, uids, origins: list, to: str):
        """Tell a move no choice made, when the viewers see the cards where they go or saw them
        where they were (named, unless more than a few leave their sight), with the seat whose
        place they went to or came from."""
        now = [self._shown(game, uid) for uid in uids]
        seen = all(up or self.shown.get(uid) for uid, up in zip(uids, now, strict=True))
        if not seen and not all(zone_sight(game.rules, key)[0] == "public" for key in origins):
            return
        step = self.steps.get(game.recent[-1]) if game.recent else None
        phrase = self.wording.phrased(step) if step is not None else None
        places = {self._place(key) for key in origins}
        if all(now) or len(uids) <= FEW:
            cards = _counted([self._card(uid) for uid in uids])
        else:
            cards = f"{len(uids)} cards" + (
                f" from {places.pop()}" if len(places) == 1 and not phrase else ""
            )
        seats = {cast(int, parse_key(key).owner) for key in (to, *origins) if self._owned(key)}
        actor = seats.pop() if len(seats) == 1 else None
        received = actor is not None and self._owned(to)
        self.events.append(
            (len(game.state.log), Moved(actor, phrase, cards, len(uids) > 1, self._place(to), received))
        )

    def _owned(self, key: str) -> bool:
        return self.game.rules.zones[parse_key(key).name].per == "player"

    def _place(self, key: str) -> str:
        """A zone in the story's words: the clearing, P2's forest (your forest, in your own story)."""
        parts = parse_key(key)
        zone = self.game.rules.zones[parts.name]
        words = self._zone_words(zone)
        if words == zone.name.replace("_", " "):  # not worded by the vocabulary
            words = f"the {words}"
        if zone.per != "player":
            return words
        owner = cast(int, parts.owner)
        whose = "your" if owner == self.you else f"P{owner + 1}'s"
        return f"{whose} {words.removeprefix('the ')}"

    # ---- the lines ----
    def lines(self, final: bool = True) -> list[str]:
        """The story so far; `final`: with what each player built and the points by heading."""
        # a choice whose chooser's turn goes on is named only if every viewer has seen its cards yet
        self.doubtful = {
            id(entry[0]) for entries in self.unsettled.values() for entry in entries if not entry[1]
        }
        self.acted = None
        lines = ["Setup:"]
        log, events = self.game.state.log, self.events  # events come in the log's order
        said: list = []  # the choices of one decision so far
        told: Moved | None = None  # the last move told, which the next may join
        drawn = False  # whether a drawing was told
        e = 0
        for i in range(len(log) + 1):
            while e < len(events) and events[e][0] <= i:
                _, what = events[e]
                if isinstance(what, Forced):
                    if said and (said[0].seat != what.seat or self._run(said[0]) != self._run(what)):
                        lines += self._decided(said)
                    said.append(what)
                elif isinstance(what, Moved):
                    lines += self._decided(said)
                    joined = (
                        told.joined(what) if told is not None and lines[-1] == told.line(self.you) else None
                    )
                    told = joined or what
                    if joined is not None:
                        lines[-1] = told.line(self.you)
                    elif what.received and (lines[-1], what.actor) == self.acted:
                        lines[-1] += f" — {what.cards}"  # the action just picked, and the cards it brought
                        told = None
                    else:
                        lines.append(told.line(self.you))
                elif isinstance(what, LaidOut):
                    lines += self._decided(said) + [INDENT + line for line in what.lines]
                elif isinstance(what, str):  # a heading
                    lines += self._decided(said)
                    lines += (
                        ["", what] if what[:1].isupper() else [f"{INDENT}— {what} —"]
                    )  # a section, or a part
                else:
                    lines += self._decided(said) + self._points(what)
                e += 1
            if i == len(log):
                break
            what, _, detail = log[i]
            if what == "choice":
                if said and (said[0].seat != detail.seat or self._run(said[0]) != self._run(detail)):
                    lines += self._decided(said)  # a choice of another decision: the last one is whole
                said.append(detail)
            elif what == "end":
                why = f": {self.ending}" if self.ending else ""
                lines += self._decided(said) + ["", f"The game ends at once{why}."]
            elif what == "draw":
                lines += self._decided(said)
                lines += _drawing_rows(detail)
                if self.key and not drawn:  # told under the first drawing
                    lines.append(f"{INDENT}Key: {self.key}")
                drawn = True
        lines += self._decided(said) + (["", *self._built()] if final else [])
        while lines[-1] == "":
            lines.pop()
        return lines

    def _key(self, draw: Node) -> str:
        shown = draw.args.get("with")
        return (self.wording.phrased(shown) or "") if isinstance(shown, Node) else ""

    def _why_ended(self, span) -> str:
        """The condition under which the step at `span` ended the game (the innermost branch
        whose `then` holds it), in the game's words; "" when none is found."""
        held = [cond for cond, spans in _index(self.ir).branches if span in spans]
        return self.wording.say(held[-1]) if held else ""  # parents first: the innermost is last

    def _run(self, choice: Said | Forced):
        """The run of steps a question belongs to, and the card it is asked about (a loop's):
        the questions of one decision share both."""
        about = choice.card if isinstance(choice, Said) and not choice.picked else None
        return self.asker.asked(choice.prompt)[0], about

    def _decided(self, said: list) -> list[str]:
        """A decision's line, once its choices are all made (the list is emptied)."""
        if not said:
            return []
        first = said[0]
        optional = self.asker.step(first.prompt)  # yes or no to steps a player may skip: told apart
        if optional is not None and has_role(optional, "optional"):
            told = [line for choice in said for line in self._optional(choice, optional)]
            said.clear()
            return told
        answers = [
            self._answer(choice) for choice in said if first.prompt != ACTIONS or choice.label != NOTHING
        ]
        if first.prompt != ACTIONS and said[-1].label == DONE:  # (`may in any order`: the rest left)
            answers[-1:] = ["then no more"] if len(answers) > 1 else ["none"]
        said.clear()
        self.acted = None
        if first.prompt == ACTIONS:  # each action picked is a line of its own (none, when none was left)
            told = [f"{INDENT}{_did(first.seat, answer, self.you)}" for answer in answers]
            # the cards it brings its chooser, if no choice names them, are told on its line
            self.acted = (told[-1], first.seat) if told else None
            return told
        _, words = self.asker.asked(first.prompt)
        did = _did(first.seat, _short(words), self.you)
        return [f"{INDENT}{did}{self._about(first)} — {', '.join(answers)}"]

    def _about(self, choice: Said | Forced) -> str:
        """The card a question asked for each card of a loop names (when it picks none itself):
        " (Seep Spring)", or " (a hidden card)" if a viewer has not seen it."""
        if not isinstance(choice, Said) or choice.picked or choice.card is None:
            return ""
        return f" ({self._card(choice.card) if self._shown(self.game, choice.card) else 'a hidden card'})"

    def _optional(self, choice: Said | Forced, step: Node) -> list[str]:
        """An optional step taken or not: "yes" is told by what it does (an effect by its card's
        name), a repeat's ending is not told, and "no" to a step once offered is a refusal."""
        card = choice.card  # the card whose effect it is, if any
        if choice.label == "yes" and card is None or choice.label == "no" and has_role(step, "repeated"):
            return []
        words = _short(self.wording.say(role(step, "optional")))
        seen = card is not None and self._shown(self.game, card)
        named = "" if card is None else f" — {self._card(card) if seen else 'a hidden card'}"
        if choice.label == "yes":
            return [f"{INDENT}{_did(choice.seat, words, self.you)}{named}"]
        if choice.seat == self.you:
            return [f"{INDENT}You decline to {words}{named}"]
        return [f"{INDENT}P{choice.seat + 1} declines to {said_of_them(words)}{named}"]

    def _answer(self, choice: Said | Forced) -> str:
        if choice.prompt == ACTIONS:
            return self.asker.option(ACTIONS, choice.label)
        cards = _picked(choice)
        if not cards and choice.label == NOTHING:  # nothing to choose from, or nothing chosen
            return "there is none" if isinstance(choice, Forced) else "none"
        if cards:
            if id(choice) in self.hidden:
                return self.hidden[id(choice)]
            if id(choice) in self.doubtful:
                return _unseen(self.game, cards)
            return ", ".join(self._card(uid) for uid in cards)
        return self._space(str(choice.label)) or self.wording.word(str(choice.label))

    def _space(self, label: str) -> str:
        """A space of a grid, by the label the log gives it (region:low.1@2): 'low row, column 1'."""
        if ":" not in label:
            return ""
        try:
            parts = parse_key(zone_from_label(self.game, label))
        except PositionError:
            return ""
        return space_words(parts.row, parts.column) if parts.row else ""

    def _points(self, items) -> list[str]:
        """Points scored by one action: a line per seat and heading (or card awarding them)."""
        totals: dict = {}
        for seat, card, points, by, heading in items:
            why = heading.replace("_", " ") or (self._card(by) if by >= 0 else "")
            total, cards = totals.get((seat, why), (0, []))
            earner = card if card >= 0 else by
            totals[seat, why] = (total + points, cards + [earner] * (earner >= 0 and points != 0))
        return [
            (f"{INDENT}You score {points}" if seat == self.you else f"{INDENT}P{seat + 1} scores {points}")
            + (f" ({why}{self._for(cards, why)})" if why else "")
            for (seat, why), (points, cards) in totals.items()
            if points
        ]

    def _for(self, cards: list, why: str) -> str:
        """The card that earned an action's points, when one did (and is not the heading's own name)."""
        named = self._card(cards[0]) if len(set(cards)) == 1 else ""
        return f": {named}" if named and named != why else ""

    # ---- words for the state ----
    def _card(self, uid: int) -> str:
        face = self.game.rules.faces[uid][self.game.state.side[uid]]
        return card_name(str(face.get("name") or ""), str(face["id"]))

    @staticmethod
    def _value(game, env: dict, name: str, player: bool) -> str:
        """A heading's hole: a name the procedure sees (a player as P2), else a counter."""
        if name in env:
            return f"P{env[name] + 1}" if player else str(env[name])
        return str(game.state.counters.get(name, "?"))

    def _zone_words(self, zone) -> str:
        said = self.wording.say(Node("zone", {"name": zone.name, "per": zone.per})).replace("_", " ")
        return said.replace("your ", "")  # said of every player: the log names each

    def _laid_out(self, game) -> list[str]:
        """The table as play begins: markers, counters, and what each place holds, a line each (a
        place held by several players names each on a line of its own, indented below it)."""
        lines = [f"{self._marker(name)}: P{seat + 1}" for name, seat in sorted(game.state.markers.items())]
        for zone in self.ir.zones:
            if zone.name == "box" or zone.rows or zone.per == "card":
                continue
            keys = [k for k in game.state.zones if parse_key(k).name == zone.name]
            held = {key: game.state.zones[key] for key in sorted(keys) if game.state.zones[key]}
            if held:
                holding = self._holding(zone, held)
                words = self._zone_words(zone)
                lines += [f"{words}: {holding}"] if isinstance(holding, str) else [f"{words}:", *holding]
        return lines

    def _marker(self, name: str) -> str:
        said = self.wording.say(Node("player", {"rel": name})).replace("_", " ")
        return f"the {said} player" if said == name.replace("_", " ") else said  # a marker names a player

    def _holding(self, zone, held: dict) -> str | list[str]:
        """What a place holds: in words, or for a place of each player's, a line per player."""
        if zone.per == "player":
            counts = {len(cards) for cards in held.values()}
            if zone.visibility != "public" and len(counts) == 1:
                return f"{counts.pop()} cards each"
            return [  # a player's zone: its key names its owner
                f"{INDENT}P{cast(int, parse_key(key).owner) + 1}: {self._cards(zone, cards)}"
                for key, cards in held.items()
            ]
        return self._cards(zone, next(iter(held.values())))

    def _cards(self, zone, cards: list) -> str:
        """The cards of a place: named where they lie face up in sight of all, else counted."""
        shown = (
            [self._card(uid) for uid in cards if not self.game.state.facedown[uid]]
            if zone.visibility == "public"
            else []
        )
        unseen = len(cards) - len(shown)
        down = zone.visibility == "public" and (shown or zone.face_down)  # (else all are hidden)
        counted = face_down(zone, unseen) if down else f"{unseen} card{'s' * (unseen != 1)}"
        named = _counted(shown)
        return named + (" and " if shown and unseen else "") + (counted if unseen else "")

    def _built(self) -> list[str]:
        """What each player's public places hold at the end (a grid drawn), and the points by heading."""
        state, lines = self.game.state, []
        for zone in self.ir.zones:
            if zone.per != "player" or zone.visibility != "public":
                continue
            for seat in range(state.players):
                if zone.rows:
                    board = self._board(zone, seat)
                    lines += (
                        [f"P{seat + 1}'s {self._zone_words(zone).removeprefix('the ')}:", *board, ""]
                        if board
                        else []
                    )
                    continue
                cards = state.zones.get(zone_key(zone.name, seat)) or []
                if cards:
                    lines.append(
                        f"P{seat + 1}'s {self._zone_words(zone).removeprefix('the ')}: "
                        f"{self._cards(zone, cards)}"
                    )
        return lines + ([""] if lines and lines[-1] else []) + self._table()

    def _board(self, zone, seat: int) -> list[str]:
        """A player's grid, a row a line: each space shows its top card (and how many lie there),
        whole names while the rows fit in WIDE characters, else shortened at a word."""
        spaces = self.game.rules.grid_spaces(zone.name, seat)
        names, counts = {}, {}
        for key in spaces:
            pile = self.game.state.zones.get(key) or []
            if pile:
                names[key], counts[key] = (
                    self._card(pile[-1]),
                    (f" +{len(pile) - 1}" if len(pile) > 1 else ""),
                )
        if not names:
            return []
        by_row: dict = {}
        for key in spaces:
            by_row.setdefault(parse_key(key).row, []).append(key)
        label = max(len(str(row)) for row in by_row)
        columns = max(map(len, by_row.values()))
        room = max(12, (WIDE - len(INDENT) - label - 3 * columns) // columns)  # a cell's width at most
        cells = {key: _shortened(names[key], room - len(counts[key])) + counts[key] for key in names}
        width = max(len(text) for text in cells.values())
        return [
            f"{INDENT}{str(row):<{label}} | "
            + " | ".join(f"{cells.get(k, '·'):<{width}}" for k in keys).rstrip()
            for row, keys in by_row.items()
        ]

    def _table(self) -> list[str]:
        headings = list(dict.fromkeys(item[4] or "other" for item in self.game.state.score_items))
        words = {heading: heading.replace("_", " ") for heading in headings}
        if len(headings) < 2:
            return []
        points = {
            (seat, heading or "other"): 0 for seat in range(self.game.state.players) for heading in headings
        }
        for seat, _, amount, _, heading in self.game.state.score_items:
            points[seat, heading or "other"] += amount
        width = max(map(len, words.values()))
        lines = [
            "Points by heading:",
            f"{INDENT}{'':<{width}}" + "".join(f"{f'P{s + 1}':>6}" for s in range(self.game.state.players)),
        ]
        for heading in headings:
            lines.append(
                f"{INDENT}{words[heading]:<{width}}"
                + "".join(f"{points[s, heading]:>6}" for s in range(self.game.state.players))
            )
        return lines


def told(ir: GameIR, save, choices: list[int], viewers=None) -> list[str]:
    """The game set up as `save` says and played with these choices, told for people: for the
    seats `viewers` (the people at the table, or with none there every seat: the table's story)."""
    chronicle = Chronicle(ir, save, viewers)
    chronicle.follow(choices)
    return chronicle.teller.lines()


def headings_only(lines: list[str]) -> bool:
    """Whether the story's lines are headings with nothing told under them yet: "Setup:" alone,
    at a question asked before anything of the setup is told (a person is shown none of it)."""
    return all(not line.startswith(INDENT) for line in lines)


class Chronicle:
    """The story as a game goes on, for the people at its table: a game of its own, hooked to a
    teller, follows the choices of the game played (`follow`), and `since(seat, choices)` gives
    the lines told since that seat last asked. Going back (undo) starts it again."""

    def __init__(self, ir: GameIR, save, viewers=None):
        self.ir, self.save, self.viewers = ir, save, viewers
        self.told: dict[int, int] = {}  # seat -> the story's lines it has been given
        self._start()

    def _start(self):
        save = self.save
        game = Game(self.ir, save.players, save.seed, save.modules, options=save.options, start=False)
        viewers = range(save.players) if self.viewers is None else self.viewers
        you = viewers[0] if self.viewers is not None and len(viewers) == 1 else None
        self.teller = _Teller(game.rules.ir, game, viewers, you)
        game.on_call, game.on_step, game.on_choice = (
            self.teller.on_call,
            self.teller.on_step,
            self.teller.on_choice,
        )
        game.begin()
        self.teller.settle(game)
        self.game = game

    def follow(self, choices: list[int]):
        """Catch up with a game played with these choices (from the start, if it went back)."""
        made = self.game.state.choices
        if choices[: len(made)] != made:
            self._start()
            made = self.game.state.choices
        for index in choices[len(made) :]:
            self.game.apply(index)
            self.teller.settle(self.game)

    def since(self, seat: int, choices: list[int]) -> list[str]:
        """The story's lines since `seat` last asked, the game having been played with `choices`
        (after the seat went back, what follows the decision it went back to: no other person
        has decided since, or going back is refused)."""
        self.follow(choices)
        lines = self.teller.lines(final=False)
        start = min(self.told.get(seat, 0), len(lines))  # (fewer lines after going back)
        new = lines[start:]
        if headings_only(new):
            self.told[seat] = start  # told with what comes under them
            return []
        self.told[seat] = len(lines)
        return new
