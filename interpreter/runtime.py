"""The runtime protocol: what compiled rules are made of, and the errors they raise.

Every primitive's handler turns its IR node into one of two kinds of closure:

- `Expr`, `value = expr(game, env)`: an expression. It reads the game and the bindings in
  `env` (`you`, `it`, names bound by choose/for/let …) and never changes either.
- `Step`, `step(game, frame)`: anything that happens. An action changes the state (through
  its step, which holds it back inside a simultaneous turn); a flow step pushes frames
  (`game.push`) or puts a `Choice` to a seat (`game.ask`).

The game runs a stack of `Frame`s (one per running flow node) until a choice is pending or
the stack is empty; the stack is plain data, so a game paused at a choice can be copied.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, overload

Expr = Callable[[Any, dict], Any]
Step = Callable[[Any, "Frame"], None]


class RuleError(Exception):
    """A rule asked for something impossible (the message names the rule's source)."""


# Numbers a rule works out stay within ±10^18, far beyond any count or score: a rule that
# squares a counter in a loop stops with an error instead of slowing to a halt on huge numbers.
LIMIT_DIGITS = 18
NUMBER_LIMIT = 10**LIMIT_DIGITS  # (generated code writes it 10 ** LIMIT_DIGITS: expressions._bounded)


def never(*_):
    """The condition a card has not printed: never true (Game.condition)."""
    return False


@overload
def bounded(number: int) -> int: ...
@overload
def bounded(number: None) -> None: ...
def bounded(number: int | None) -> int | None:
    """The number, if within the limit (nothing, None, passes as it is)."""
    if number is None or -NUMBER_LIMIT <= number <= NUMBER_LIMIT:
        return number
    raise OverflowError(
        f"a number grew beyond ±10^{LIMIT_DIGITS} ({str(number)[:12]}…, {len(str(abs(number)))} digits)"
    )


class GameError(Exception):
    """A rule failed while running (names the rule's source)."""


# What a rule that asks for something impossible raises on its way (a name bound to nothing,
# a division by zero, a side a card does not have …): reported as a GameError naming the rule.
FAULTS = (
    KeyError,
    IndexError,
    TypeError,
    ValueError,
    AttributeError,
    ArithmeticError,
    RecursionError,
    RuleError,
)


def reason(error) -> str:
    """A fault in words."""
    if isinstance(error, KeyError):
        return f"nothing is bound to {error.args[0]!r} here"
    if isinstance(error, RecursionError):  # Python's own limit, reached by the rules
        return (
            "the rules went deeper than Python can follow: procedures that call one another "
            "without end, nothing done or asked in between, or an expression nested too deep"
        )
    if isinstance(error, TypeError) and str(error).startswith("unhashable type"):  # (a key, a side's name …)
        return f"a list was given where one value is wanted ({error})"
    return str(error)


def fault_at(where: str) -> None:
    """In the `except` of generated code (codegen: a function `at` a place): the error being
    handled, when it is a rule's fault, raised again as a GameError at `where`; any other goes on."""
    error = sys.exc_info()[1]
    if isinstance(error, FAULTS):
        raise GameError(f"{where}: rule failed: {reason(error)}") from error


UNANSWERED = object()  # a frame's answer before its choice is answered


@dataclass(slots=True)
class Frame:
    """One running flow node.

    `run` makes one step of progress each time the frame is on top; `env` holds its
    bindings; `i` and `data` its progress (the next step, the cards left to loop over …);
    `answer` the option picked for the choice it asked. The rest is inherited from the flow
    around it: the card whose printed effect is running (`source`, -1 for none) and the
    heading its points are listed under, and the stack index of the simultaneous turn that
    holds its actions back (`held`)."""

    run: Step | None
    env: dict
    i: int = 0
    data: Any = None
    answer: Any = UNANSWERED
    source: int = -1
    heading: str = ""
    held: int | None = None

    def copy(self) -> Frame:
        data = self.data.copy() if hasattr(self.data, "copy") else self.data
        return Frame(
            self.run, dict(self.env), self.i, data, self.answer, self.source, self.heading, self.held
        )

    def child(
        self, names: dict | None = None, *, source: int | None = None, heading: str | None = None
    ) -> Frame:
        """A stand-in parent for a body run with more bindings (or on behalf of a card). It
        never goes on the stack: the frame the body pushes takes over its bindings."""
        return Frame(
            None,
            {**self.env, **names} if names else dict(self.env),
            0,
            None,
            UNANSWERED,
            self.source if source is None else source,
            self.heading if heading is None else heading,
            self.held,
        )

    def take_answer(self):
        """The option picked for this frame's choice (once), or UNANSWERED."""
        answer, self.answer = self.answer, UNANSWERED
        return answer


class Choice:
    """A decision put to one seat: pick one of `options`. The answer is bound to the name
    `bind` in the asking frame, or (when `bind` is None) handed to the frame as its `answer`.
    `labels` say the options in words: fixed words, or a function `label(option, seat)` giving
    an option as a seat may see it (a card it cannot see by where it lies), worked out only when
    asked for (random agents never need them): `labels` as the chooser sees them, `labels_for`
    as another seat does. `cards` says the options are cards (True: a function then names them
    as views.card_label does, which the log relies on, Game.apply), or hold one (a function
    giving an option's card, or None);
    `about` is the card the prompt names, if any (its text ends with the card in brackets):
    the log names either only to seats that could see it (views.seen_log). `asked_by` is the
    rule's node that asks it (what `why` walks). `still`, for a choice of several cards made one
    at a time, is what is still wanted: ("count", cards) or ("worth", an amount)."""

    __slots__ = (
        "seat",
        "prompt",
        "options",
        "bind",
        "cards",
        "about",
        "asked_by",
        "still",
        "_labels",
        "_label",
    )

    def __init__(
        self,
        seat: int,
        prompt: str,
        options: tuple,
        labels: Iterable[str] | Callable[[Any, int], str],
        asked_by=None,
        bind: str | None = None,
        cards: bool | Callable = False,
        about: int | None = None,
        still: tuple[str, int] | None = None,
    ):  # (all may be given by position: keywords make a call slower, and a choice is made at every decision)
        self.seat = seat
        self.prompt = prompt
        self.options = options
        self.bind = bind
        self.cards = cards
        self.about = about
        self.asked_by = asked_by
        self.still = still
        self._labels: tuple[str, ...] | None
        self._label: Callable[[Any, int], str] | None  # None when the words are fixed
        if callable(labels):
            self._labels, self._label = None, labels
        else:
            self._labels, self._label = tuple(labels), None

    @property
    def labels(self) -> tuple[str, ...]:
        if self._labels is None:
            label = self._label
            assert label is not None  # either the words or the function that says them
            self._labels = tuple(label(option, self.seat) for option in self.options)
        return self._labels

    def card(self, index: int) -> int | None:
        """The card an answer names: the option picked, the card in it, or the card the prompt names."""
        if self.cards is True:
            return self.options[index]
        return self.cards(self.options[index]) if self.cards else self.about

    def labels_for(self, seat: int) -> tuple[str, ...]:
        if seat == self.seat or self._label is None:
            return self.labels
        return tuple(self._label(option, seat) for option in self.options)

    def label(self, index: int) -> str:
        if self._labels is not None:
            return self._labels[index]
        assert self._label is not None  # either the words or the function that says them
        return self._label(self.options[index], self.seat)
