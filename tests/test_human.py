"""A person at the terminal (silvics/human.py), driven by a script: whole games in which every
seat is a HumanAgent answering by number, so every kind of card, with every type of
attribute and mark, is described to someone at some decision."""
import random
import re

import pytest

from silvics import games
from silvics.human import HumanAgent, describe, describe_pile
from silvics.interpreter.simulate import play


class Terminal:
    """Scripted input and captured output for the human seats: answers a random listed number."""

    def __init__(self, seed: int):
        self.rng, self.lines, self.options = random.Random(seed), [], 0

    def write(self, line: str):
        self.lines.append(line)
        self.options = int(line.split("]")[0][3:]) if re.match(r"  \[\d+\] ", line) else self.options

    def read(self, prompt: str) -> str:
        return str(self.rng.randint(1, self.options))


def played_by_people(game_id: str, players: int, seed: int, modules=()) -> tuple:
    terminal = Terminal(seed)
    seats = [HumanAgent(seat, terminal.read, terminal.write) for seat in range(players)]
    game = play(games.load(game_id), players, seed, seats, modules)
    return game, "\n".join(terminal.lines)


@pytest.mark.parametrize("players, modules", [
    (1, ()), (1, ("hard", "terrain")), (2, ("terrain", "events")), (3, ("events-casual",)), (4, ("terrain",)),
])
def test_people_play_whole_reforest_games(players, modules):
    game, shown = played_by_people("reforest", players, seed=players, modules=modules)
    assert game.over and "your turn" in shown


def test_people_play_a_whole_four_forests_game():
    game, shown = played_by_people("four-forests", 3, seed=2, modules=("experienced",))
    assert game.over and "[prefers: " in shown


@pytest.fixture(scope="module")
def reforest_table():
    """A Reforest game, its cards all in the box."""
    from silvics.interpreter.game import Game
    return Game(games.load("reforest"), 2, 0, start=False)


@pytest.mark.parametrize("card, shown", [
    ("cougar", "solo 1/2/3"),                                  # numbers: a tuple of ints
    ("bracken", "discount: 1 if card.traits has fern else 0"),  # a number expression: its text
    ("bracken", "traits fern"),                                # a set
    ("bracken", "shade sun"),                                  # an enum
    ("bracken", "cost 1"),                                     # an int
])
def test_every_attribute_type_is_described(reforest_table, card, shown):
    assert shown in describe(lying(reforest_table, copies(reforest_table, card)[0]))


def test_an_empty_set_is_described():
    from silvics.interpreter.game import Game
    game = Game(games.load("reforest"), 2, 0, start=False)
    assert "icons (none)" in describe(lying(game, copies(game, "step-moss")[0]))


def test_each_copy_is_described_with_its_own_marks():
    from silvics.interpreter.game import Game
    game = Game(games.load("reforest"), 2, 0, start=False)
    first, second = copies(game, "bracken")
    game.state.move(first, "discard", facedown=False)
    game.state.move(second, "discard", facedown=False)
    game.state.mark(second, "revealed", 1)
    shown = describe_pile(game.observe(0).zones["discard"])
    assert "revealed 1" not in shown.split("; ")[0] and "revealed 1" in shown.split("; ")[1]


def lying(game, uid: int):
    """The card as a seat that sees it, face up, sees it (observation.Seen)."""
    from silvics.interpreter.observation import Seen
    return Seen(game.rules.defs[uid], game.state.side[uid], False, game.state.marks[uid] or {})


def test_a_card_out_of_sight_shows_its_marks_alone():
    from silvics.interpreter.observation import Seen
    assert describe(Seen(None, None, True, {"stance": "for"})) == "a card you cannot see [stance for]"
    assert describe_pile([Seen(None, None, True, {})] * 2) == "2 cards you cannot see"


def copies(game, card_id: str) -> list[int]:
    return [uid for uid, card in enumerate(game.rules.defs) if card.id == card_id]


@pytest.mark.parametrize("typed", ["²", "9" * 5000, "0", "-1", "", "nonsense"])
def test_an_answer_that_picks_no_option_is_asked_again(typed):
    from silvics.interpreter.game import Game
    game = Game(games.load("four-forests"), 2, 1)
    answers, written = iter([typed, "2"]), []
    seat = HumanAgent(game.pending.seat, lambda prompt: next(answers), written.append)
    assert seat.choose(game.observe(game.pending.seat)) == 1
    assert written[-1].startswith("  type a number from 1 to ")


def test_a_person_reads_a_cards_effects_as_the_card_prints_them():
    """Not `when_played: ('reveal',)`: the game's own words, as `silvics show` gives them."""
    from silvics.compiler.english import Wording
    from silvics.interpreter.game import Game
    ir = games.load("reforest")
    game = Game(ir, 2, 3)
    written = []
    seat = HumanAgent(game.pending.seat, lambda prompt: "1", written.append, wording=Wording(ir.vocabulary))
    seat.choose(game.observe(game.pending.seat))
    shown = "\n".join(written)
    assert re.search(r"(When played|Before gathering|After gathering|Scoring|Reaction): [A-Z][^\]]*\.", shown), shown
    assert "when_played:" not in shown and "('" not in shown


class HotSeat:
    """Two people at one screen through a Session: answers the first option; records what was
    on the screen at each handover."""

    def __init__(self):
        self.lines, self.handovers = [], []

    def write(self, line: str):
        self.lines.append(line)

    def read(self, prompt: str) -> str:
        if "press Enter" in prompt:
            self.handovers.append((prompt, "\n".join(self.lines)))
            return ""
        return "1"


def hot_seat_game(game_id: str, people=(0, 1), players: int = 2):
    from silvics import saves
    rules = games.load(game_id)
    names = ["human" if seat in people else "random" for seat in range(players)]
    terminal = HotSeat()
    session = saves.Session.new(rules, game_id, players, 3, [], {}, names, terminal=(terminal.read, terminal.write))
    session.play()
    return terminal


def test_hot_seat_hides_each_persons_hand_before_handing_over():
    terminal = hot_seat_game("four-forests")
    assert len(terminal.handovers) > 20
    for prompt, screen in terminal.handovers:
        seat = int(re.search(r"P(\d), press Enter", prompt).group(1))
        after_clear = screen.rsplit("\033[2J", 1)[1]     # what the screen shows at the handover
        assert f"Pass the game to P{seat}." in after_clear and "[1]" not in after_clear
        assert "hand@" not in after_clear


def test_one_person_against_bots_is_never_asked_to_hand_over():
    terminal = hot_seat_game("four-forests", people=(0,))
    assert terminal.handovers == [] and not any("\033[2J" in line for line in terminal.lines)


@pytest.mark.parametrize("game_id, words", [
    ("four-forests", "your turn: place a card from your hand face up in your forest ---"),
    ("reforest", "  [1] gather plants\n  [2] play a plant"),
])
def test_a_person_sees_the_question_in_the_games_words_and_the_scores(game_id, words):
    shown = "\n".join(hot_seat_game(game_id, people=(0,)).lines)
    assert words in shown
    assert re.search(r"^  scores: P1 -?\d+  P2 -?\d+ · first P\d", shown, re.M)


def test_a_question_names_its_actions_and_says_how_many_cards_are_still_wanted(monkeypatch):
    """Not "choose an action": the actions offered, in the game's words; a cost paid card by card
    says how many cards are still wanted (Forest Shuffle, seed 1: a card costing 2 is played)."""
    from conftest import run_cli
    piped(monkeypatch, ["play_card", "1", "1", "1"])
    _, out, _ = run_cli("play", "forest-shuffle", "--players", "2", "--human", "1", "--seed", "1")
    asked = [line for line in out.splitlines() if line.startswith("--- P1, your turn: ")]
    assert asked[:4] == [
        "--- P1, your turn: choose one: draw 2 cards, or play a card, or plant a sapling ---",
        "--- P1, your turn: choose a card in your hand that you can pay for and place ---",
        "--- P1, your turn: pay its cost: choose as many other cards from your hand (2 more) ---",
        "--- P1, your turn: pay its cost: choose as many other cards from your hand (1 more) ---",
    ]


@pytest.mark.parametrize("game_id", ["four-forests", "reforest", "forest-shuffle", "renature"])
def test_a_person_at_the_terminal_reads_no_id_zone_key_side_key_or_bookkeeping_mark(monkeypatch, game_id):
    """Seat 1 answers the first option 80 times, piped: what it reads (the prompts, the table, the
    options, the story) names no zone by its key (hand@1, votes@dryads), no card by an id that
    is not its name (bullfinch--blackberries), no side by its key (top_half) and no mark the rules
    do not declare `shown` (played_turn). Words that are also printed values (an icon `leaf`, a
    creature's side `leaf`) are not ids."""
    import re

    from conftest import run_cli
    ir = games.load(game_id)
    piped(monkeypatch, ["1"] * 80)
    _, out, _ = run_cli("play", game_id, "--players", "2", "--human", "1", "--seed", "3")
    cards = (*ir.cards, *(card for module in ir.modules.values() for card in module.cards))
    printed = {str(value) for card in cards for side in card.sides for value in side.attributes.values()}
    printed |= {str(item) for card in cards for side in card.sides for value in side.attributes.values()
                if isinstance(value, tuple) for item in value}
    engine_words = ({card.id for card in cards if card.id != card.sides[0].name.lower()}
                    | {side.side for card in cards for side in card.sides if len(card.sides) > 1}
                    | {mark.name for mark in ir.marks if not mark.shown}) - printed
    words = re.findall(r"[\w:.@#-]+", out.split("\nFinal scores:")[0])
    found = sorted({word.strip(".,;:") for word in words if "@" in word or word.strip(".,;:") in engine_words})
    assert found == [], found


def piped(monkeypatch, answers: list[str]):
    """A person's answers piped in: each prompt reads the next; then the input ends."""
    left = iter(answers)

    def typed(prompt):
        answer = next(left, None)
        if answer is None:
            raise EOFError
        return answer

    monkeypatch.setattr("builtins.input", typed)
