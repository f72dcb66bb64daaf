"""A person at the terminal (silvics/human.py), driven by a script: whole games in which every
seat is a HumanAgent answering by number, so every kind of card, with every type of
attribute and mark, is described to someone at some decision."""
import contextlib
import random
import re

import pytest

from silvics import games
from silvics.human import HumanAgent, InputEnded, describe, describe_pile
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
        "--- P1, your turn: pay its cost: choose as many other cards from your hand (2 more, of these 5) ---",
        "--- P1, your turn: pay its cost: choose as many other cards from your hand (1 more, of these 4) ---",
    ]


def test_the_questions_one_phrase_words_alike_say_which_of_them_is_asked(monkeypatch):
    """Four Forests' vote is one phrase ("place a card from your hand face down under a creature,
    turned to vote for or against it") over three questions (its card, its creature, its way):
    each says which of the three it is (the story tells the three answers on one line, as the
    golden stories show)."""
    from conftest import run_cli
    piped(monkeypatch, ["1"] * 6)
    _, out, _ = run_cli("play", "four-forests", "--players", "2", "--human", "1", "--seed", "3")
    asked = [line for line in out.splitlines() if line.startswith("--- P1, your turn: ")]
    vote = "--- P1, your turn: place a card from your hand face down under a creature, turned to vote for or against it"
    assert asked[1:4] == [f"{vote} (1 of 3) ---", f"{vote} (2 of 3) ---", f"{vote} (3 of 3) ---"], asked
    assert asked[0] == "--- P1, your turn: place a card from your hand face up in your forest ---"   # alone: unnumbered


@pytest.mark.parametrize("game_id", ["four-forests", "reforest", "forest-shuffle", "renature"])
def test_a_person_at_the_terminal_reads_no_id_zone_key_side_key_or_bookkeeping_mark(monkeypatch, game_id):
    """Seat 1 answers the first option 80 times, piped: what it reads (the prompts, the table, the
    options, the story) names no zone or space by its key (hand@1, votes@dryads, board:r5.14), no card by an id that
    is not its name (bullfinch--blackberries), no side by its key (top_half) and no mark the rules
    do not declare `shown` (played_turn). Words that are also printed values (an icon `leaf`, a
    creature's side `leaf`) or words of the game's vocabulary (a "cloud action") are not ids."""
    import re

    from conftest import run_cli
    ir = games.load(game_id)
    piped(monkeypatch, ["1"] * 80)
    _, out, _ = run_cli("play", game_id, "--players", "2", "--human", "1", "--seed", "3")
    cards = (*ir.cards, *(card for module in ir.modules.values() for card in module.cards))
    printed = {str(value) for card in cards for side in card.sides for value in side.attributes.values()}
    printed |= {str(item) for card in cards for side in card.sides for value in side.attributes.values()
                if isinstance(value, tuple) for item in value}
    worded = {word for phrase in ir.vocabulary.phrases for word in re.findall(r"[\w-]+", phrase.text)}
    engine_words = ({card.id for card in cards if card.id != card.sides[0].name.lower()}
                    | {side.side for card in cards for side in card.sides if len(card.sides) > 1}
                    | {mark.name for mark in ir.marks if not mark.shown}) - printed - worded  # "cloud": a word
    zones = {zone.name for zone in ir.zones}
    words = re.findall(r"[\w:.@#-]+", out.split("\nFinal scores:")[0])
    found = sorted({word.strip(".,;:") for word in words if "@" in word or word.strip(".,;:") in engine_words
                    or re.fullmatch(r"[\w-]+:[\w.]+", word) and word.partition(":")[0] in zones})  # board:r5.14
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


class Watching:
    """A person answering the first option, whose screen is read as it is written: each card name
    in it is checked against the cards the seat has seen so far (at any action: every copy of
    that name), a name seen, the longest first, taken out before looking."""

    def __init__(self, names: set[str]):
        self.names, self.session, self.seen, self.read_up_to, self.lines, self.faults = names, None, set(), 0, [], []
        self.asked = 0

    def write(self, line: str):
        self.lines.append(line)

    def watch(self, game):
        from silvics.interpreter.views import visible
        self.seen |= {side.name for uid in range(len(game.state.location)) if visible(game, 0, uid)
                      for side in game.rules.defs[uid].sides}

    def read(self, prompt: str) -> str:
        self.watch(self.session.game)
        seen = sorted(self.seen, key=len, reverse=True)
        for line in self.lines[self.read_up_to:]:
            for name in seen:
                line = line.replace(name, "")
            self.faults += [f"{name!r} in {line!r}" for name in self.names - self.seen
                            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line)]
        self.read_up_to = len(self.lines)
        self.asked += 1
        if self.asked > 60:
            raise EOFError
        return "1"


@pytest.mark.parametrize("game_id", ["four-forests", "reforest", "forest-shuffle", "renature"])
def test_a_persons_screen_names_no_card_they_have_not_seen(game_id):
    """The story since their last decision, the table and the options: a card is named on a
    person's screen only once their seat has seen it (a name the vocabulary also gives a word, a
    tree symbol "Oak", is a word). Seat 1 against a bot, 60 decisions or the whole game."""
    from silvics import saves
    from silvics.human import InputEnded
    rules = games.load(game_id)
    worded = {phrase.text for phrase in rules.vocabulary.phrases}
    names = {side.name for card in rules.cards for side in card.sides if side.name} - worded
    terminal = Watching(names)
    session = saves.Session.new(rules, game_id, 2, 3, [], {}, ["human", "random"],
                                terminal=(terminal.read, terminal.write))
    terminal.session, session.game.on_step = session, terminal.watch
    with contextlib.suppress(InputEnded):
        session.play()
    assert terminal.asked > 20 and terminal.faults == [], terminal.faults[:5]


@pytest.mark.parametrize("width", [60, 80, 160])
def test_a_narrow_terminal_keeps_every_word_whole_and_every_line_within_its_width(width):
    """Reforest's hand at a terminal of 60, 80 or 160 columns: rich's table cut words to fit
    ("Huckleb…", "elevat…") and broke lines at the margin. No line is now wider than the
    terminal; every card's name stands whole on a line; what is too wide for a table is said a
    card a line ("Bracken Fern: cost 1 · value 1 · …"), and a long line wraps under its indent."""
    import io

    from rich.console import Console

    from silvics.compiler.english import Wording
    from silvics.human import Naming
    from silvics.interpreter.game import Game
    from silvics.screen import Screen, plain, rich
    ir = games.load("reforest")
    game = Game(ir, 2, 1)
    blocks = Screen(ir, 0, Naming(ir, 0), Wording(ir.vocabulary)).blocks(game.observe(0))
    drawn = io.StringIO()
    rich(blocks, Console(file=drawn, width=width, color_system=None))
    lines = drawn.getvalue().splitlines()
    assert max(len(line.rstrip()) for line in lines) <= width, lines
    names = [game.rules.defs[uid].sides[0].name for uid in game.state.zones["hand/0"]]
    assert all(any(name in line for line in lines) for name in names), (names, lines)
    said = " ".join(" ".join(line.split()) for line in lines)   # the words, as a person reads them
    written = " ".join(" ".join(line.split()) for line in plain(blocks))
    assert said.count("…") == written.count("…")                 # no word cut (a card's text is cut alike)
    assert all(word.rstrip(":") in said for word in written.split())
    if width < 100:
        assert any(line.startswith(f"    {names[0]}: cost ") for line in lines), lines
        assert not any(line.startswith(" ") and line.lstrip().startswith("·") for line in lines), lines


def test_at_a_terminal_every_line_a_person_is_shown_wraps_within_its_width(monkeypatch):
    """Played at a terminal 60 columns wide: the question's header, the story, the options and the
    hint of what may be typed each wrap at a space under their own indent, never at the margin
    (a blank line before each question stays)."""
    import io

    from rich.console import Console

    from conftest import run_cli
    terminal = io.StringIO()
    monkeypatch.setattr("silvics.human.rich_console", lambda: Console(file=terminal, width=60, color_system=None))
    piped(monkeypatch, ["1", "2", "1"])
    run_cli("play", "reforest", "--players", "2", "--human", "1", "--seed", "1")
    lines = terminal.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 60, [line for line in lines if len(line) > 60]
    headers = [at for at, line in enumerate(lines) if line.startswith("--- P1, your turn: ")]
    assert len(headers) >= 3 and all(lines[at - 1] == "" for at in headers)
    assert lines[headers[0]:headers[0] + 2] == ["--- P1, your turn: choose one: gather plants, or play a",
                                                "    plant ---"]
    hint = next(at for at, line in enumerate(lines) if line.startswith("  (type a number from 1 to 2"))
    assert lines[hint + 1].startswith("      ") and lines[hint + 1].rstrip().endswith("undo)")


def test_a_line_told_with_its_cards_never_breaks_before_the_dash():
    """Forest Shuffle's story at 80 columns: "… at the right end of the clearing" filled the line,
    and the next began "— Large Tortoiseshell". The dash now stays with the word before it."""
    import io

    from rich.console import Console

    from silvics.screen import wrapped
    told = "    put the top card of the draw pile face up at the right end of the clearing — Large Tortoiseshell"
    drawn = io.StringIO()
    wrapped(Console(file=drawn, width=80, color_system=None), told)
    assert drawn.getvalue().splitlines() == [
        "    put the top card of the draw pile face up at the right end of the",
        "        clearing\u00a0— Large Tortoiseshell",
    ]


def test_a_grid_drawn_on_the_screen_is_printed_as_drawn_however_narrow_the_terminal():
    """Renature asks for a space of its board and draws the board (57 characters a row): at a
    terminal of 40 columns every row is printed whole as drawn, never wrapped under an indent
    (a wrapped row would not line up with the rows around it)."""
    import io

    from rich.console import Console

    from silvics.compiler.english import Wording
    from silvics.human import Naming
    from silvics.interpreter.agents import RandomAgent
    from silvics.interpreter.game import Game
    from silvics.screen import Picture, Screen, rich
    ir = games.load("renature")
    game, agents = Game(ir, 2, 1), [RandomAgent(1, 0), RandomAgent(1, 1)]
    screen = Screen(ir, 0, Naming(ir, 0), Wording(ir.vocabulary))
    while not any(isinstance(block, Picture) for block in screen.blocks(game.observe(0))):
        game.apply(agents[game.pending.seat].choose(game.observe(game.pending.seat)))
    [picture] = [block for block in screen.blocks(game.observe(0)) if isinstance(block, Picture)]
    assert max(len(line) for line in picture.lines) > 40
    drawn = io.StringIO()
    rich([picture], Console(file=drawn, width=40, color_system=None))
    assert drawn.getvalue().splitlines() == ["  " + picture.title, *("    " + line for line in picture.lines)]


def test_the_screen_draws_a_hand_as_a_table_of_what_its_cards_print_and_counts_what_is_unseen():
    """Forest Shuffle: the hand's columns are the faces' corners and badges (cost; types, symbol),
    a split card by both halves with both halves' values, its text beneath it once; the same in
    rich's table at a terminal; the cards the seat cannot see are counted, never named."""
    import io

    from rich.console import Console

    from silvics.compiler.english import Wording
    from silvics.human import Naming
    from silvics.interpreter.game import Game
    from silvics.screen import Screen, plain, rich
    ir = games.load("forest-shuffle")
    game = Game(ir, 2, 1)
    screen = Screen(ir, 0, Naming(ir, 0), Wording(ir.vocabulary))
    lines = plain(screen.blocks(game.observe(0)))
    assert lines[:3] == ["  Your hand:", "    card                             cost   types                              symbol",
                         "    Tawny Owl / Wild Strawberries    2 / 0  bird / plant                       Birch / Sycamore"]
    assert "      Tawny Owl: Effect: Draw 1 card. Bonus: Draw 2 cards. Scoring: 5 points." in lines
    assert lines[-1] == "  Cards you cannot see: the draw pile 119 · P2's hand 6"
    names = lambda seat: {side.name for uid in game.state.zones[f"hand/{seat}"]           # noqa: E731
                          for side in game.rules.defs[uid].sides}
    assert [name for name in names(1) - names(0) if name in "\n".join(lines)] == []
    again = plain(screen.blocks(game.observe(0)))
    assert len(again) == len(lines) - 9 and not any("Scoring:" in line for line in again)   # texts once
    drawn = io.StringIO()
    rich(Screen(ir, 0, Naming(ir, 0), Wording(ir.vocabulary)).blocks(game.observe(0)),
         Console(file=drawn, width=120, color_system=None))
    assert "Tawny Owl / Wild Strawberries" in drawn.getvalue() and "─" in drawn.getvalue()
    assert "    Wild Strawberries: Scoring: 10 points if you have at least 8 different tree species." in drawn.getvalue()


def test_what_happened_after_going_back_is_told_as_it_goes_now():
    """Grove: a card chosen, taken back, another chosen: the next screen tells the new choice."""
    from pathlib import Path

    from silvics import saves
    answers, written = iter(["1", "undo", "2", "1"]), []

    def read(prompt):
        answer = next(answers, None)
        if answer is None:
            raise EOFError
        return answer

    grove = str(Path(__file__).parent / "fixtures" / "games" / "grove")
    session = saves.Session.new(games.load(grove), grove, 1, 3, [], {}, ["human"], terminal=(read, written.append))
    with contextlib.suppress(InputEnded):
        session.play()
    told = [line.strip() for line in written if line.startswith("    You choose card")]
    assert told == ["You choose card from your hand — Birch", "You choose card from your hand — Fern"], told


def test_a_cards_own_zone_is_said_as_the_vocabulary_words_it():
    """Reforest words a visitor's tucked cards 'the cards tucked under {V}': a person reads 'the
    cards tucked under Bald Eagle', not "Bald Eagle's tucked"; a zone the vocabulary words plainly
    keeps the possessive ('Dryads' votes')."""
    from silvics.human import Naming
    assert Naming(games.load("reforest"), 0).zone("tucked@bald-eagle") == "the cards tucked under Bald Eagle"
    assert Naming(games.load("four-forests"), 0).zone("votes@dryads") == "Dryads' votes"


def test_a_plain_word_offered_reads_as_the_vocabulary_words_it():
    """Forest Shuffle words a tree card's one side, `front`, "the whole card"; a half it does not
    word reads as its name spaced out, and a word no side has stays as it is."""
    from silvics.human import Naming
    naming = Naming(games.load("forest-shuffle"), 0)
    assert [naming.option(word) for word in ("front", "left_half", "yes")] == ["the whole card", "left half", "yes"]


def test_a_step_one_may_skip_is_asked_by_what_it_does_and_names_its_card():
    """'carry out its effect? (Birch)', never 'you may: (carry out its effect)' without the card,
    nor a question cut to 'as many times as you like …', nor one cut short without its question
    mark (Renature's plant: 'place a plant from your player board …?')."""
    from silvics.compiler.english import Wording
    from silvics.human import Naming, question
    from silvics.interpreter.agents import decide, make_agent
    from silvics.interpreter.game import Game
    from silvics.story import Asker
    asked = {}
    for game_id in ("forest-shuffle", "renature"):
        ir = games.load(game_id)
        asker, game = Asker(ir, Wording(ir.vocabulary)), Game(ir, 2, 4)
        agents = [make_agent("random", 4, seat) for seat in range(2)]
        for _ in range(150):                                             # a part of a game each
            pending = game.pending
            if pending.options == ("yes", "no"):
                words = question(asker, pending.prompt, pending.labels, None, Naming(ir, pending.seat))
                asked[words] = None if pending.about is None else game.rules.defs[pending.about]
            decide(game, agents)
    about_cards = {words: card for words, card in asked.items() if card is not None}
    assert about_cards and all(words.endswith(f"? ({Naming(games.load('forest-shuffle'), 0).printed(card.id)})")
                               for words, card in about_cards.items() if "effect" in words), about_cards
    assert "carry out a cloud action? (as many times as you like, while you can pay for a cloud action)" in asked
    assert not [words for words in asked if words.startswith(("you may", "as many times"))]
    assert not [words for words in asked if "?" not in words], asked                # cut short, still a question


def test_a_question_offering_spaces_shows_the_grid_as_the_rules_draw_it(monkeypatch):
    """Renature asks for a space of the board: the screen draws the board (row names, column
    numbers, each space as the rules' drawing shows it), where it otherwise lists the spaces
    holding cards in one line."""
    from conftest import run_cli
    piped(monkeypatch, ["1"] * 14)
    _, out, _ = run_cli("play", "renature", "--players", "2", "--human", "1", "--seed", "1")
    screens = out.split("\n--- P1, your turn: ")
    offering = [screen for screen in screens if "[1] the board, r" in screen]
    assert offering and all(re.search(r"\n  The board:\n +1 +2 +3 .* 18\n    r1 +k +k +~", s) for s in offering)
    assert all(len(re.findall(r"\n    r\d+ ", screen)) == 17 for screen in offering)
    assert not any("The board:\n" in screen for screen in screens if screen not in offering)


def test_the_screen_shows_the_marks_players_see_on_cards_in_sight_and_face_down():
    """Four Forests: a vote lies face down under its creature, turned for or against it, which
    every player sees; Renature: the joker marker shows the joker animal. The screen says both
    (as the web table does), and `show NAME` too; a vote's card stays unnamed to the other seat."""
    from silvics.compiler.english import Wording
    from silvics.human import Naming
    from silvics.interpreter.agents import RandomAgent
    from silvics.interpreter.game import Game
    from silvics.screen import Screen, plain
    ir = games.load("four-forests")
    game, agents = Game(ir, 2, 3), [RandomAgent(3, 0), RandomAgent(3, 1)]
    cast = lambda: [vote for creature in game.state.zones["creatures"]            # noqa: E731
                    for vote in game.state.zones.get(f"votes/{creature}", ())]
    while len(cast()) < 2:                                                          # both seats have voted
        game.apply(agents[game.pending.seat].choose(game.observe(game.pending.seat)))
    lines = plain(Screen(ir, 0, Naming(ir, 0), Wording(ir.vocabulary)).blocks(game.observe(0)))
    for vote in cast():
        card = game.rules.defs[vote]
        named = card.sides[game.state.side[vote]].name or card.id if game.state.placer[vote] == 0 else "a vote"
        assert any(f"{named} (vote {game.state.marks[vote]['stance']})" in line for line in lines), (named, lines)
    assert {game.state.placer[vote] for vote in cast()} == {0, 1}
    assert "votes" not in lines[-1]                                                 # none counted as unseen

    ir = games.load("renature")
    game = Game(ir, 2, 2)
    screen = Screen(ir, 0, Naming(ir, 0), Wording(ir.vocabulary))
    assert "  The joker track: Joker marker (joker animal butterfly)" in plain(screen.blocks(game.observe(0)))
    marker = next(iter(game.observe(0).zones["joker"]))
    assert screen.card(marker, "joker") == ["Joker marker", "  joker animal butterfly"]


def test_the_screen_says_which_cards_lie_face_down_as_their_place_calls_them():
    """Reforest: a covered sun plant lies face down as stored energy. Its owner sees it named
    and said so ("Fireweed (stored energy card)"); the other player sees it counted on its
    space's line ("and 1 stored energy card"), not left out."""
    from silvics.compiler.english import Wording
    from silvics.human import Naming
    from silvics.interpreter.agents import RandomAgent
    from silvics.interpreter.game import Game
    from silvics.screen import Screen, plain
    ir = games.load("reforest")
    for seed in range(40):
        game, agents = Game(ir, 2, seed), [RandomAgent(seed, 0), RandomAgent(seed, 1)]
        while not game.over and not any(game.state.facedown[uid] and key.startswith("region")
                                         for key, pile in game.state.zones.items() for uid in pile):
            game.apply(agents[game.pending.seat].choose(game.observe(game.pending.seat)))
        if not game.over:
            break
    stored = next(uid for key, pile in game.state.zones.items() if key.startswith("region")
                  for uid in pile if game.state.facedown[uid])
    owner = game.state.placer[stored]
    own = plain(Screen(ir, owner, Naming(ir, owner), Wording(ir.vocabulary)).blocks(game.observe(owner)))
    name = game.rules.defs[stored].sides[game.state.side[stored]].name
    assert any(f"{name} (stored energy card)" in line for line in own if line.startswith("  Your region:")), own
    other = plain(Screen(ir, 1 - owner, Naming(ir, 1 - owner), Wording(ir.vocabulary)).blocks(game.observe(1 - owner)))
    theirs = next(line for line in other if line.startswith(f"  P{owner + 1}'s region:"))
    assert "stored energy card" in theirs, theirs                                    # counted, not left out


def test_what_happened_in_a_setup_with_a_choice_is_told_once_in_order_with_its_nesting(monkeypatch):
    """Forest Shuffle with the special caves: P2 takes a cave before P1 (reverse playing order),
    then P1 does, then play begins. P1's first screen tells P2's pick; the next tells P1's own pick
    and then the table as play begins, each line once (the table used to be put at the top of the
    setup, so the story above P1's last screen shifted and P2's pick was told again), and a place
    of each player's names each one on a line indented below it (it used to lose its indent)."""
    from conftest import run_cli
    piped(monkeypatch, ["1", "1"])
    _, out, _ = run_cli("play", "forest-shuffle", "--players", "2", "--human", "1", "--seed", "5",
                        "--module", "special-caves")
    screens = [screen.splitlines() for screen in out.split("\n--- P1, your turn: ")[1:3]]
    told = [screen[screen.index(header) + 1:] for screen, header in
            zip(screens, ["  What happened:", "  Since your last decision:"], strict=True)]
    told = [lines[:min(at for at, line in enumerate(lines) if line in ("", "  Your hand:"))] for lines in told]
    assert told[0] == [
        "  Setup:",
        "    P2 chooses one of the special caves and places it in front of them — Smugglers' Cave",
    ], told[0]
    assert told[1] == [
        "    You choose one of the special caves and place it in front of you — Collectors' Cave",
        "    the first player: P1",
        "    the draw pile: 119 cards",
        "    hand: 6 cards each",
        "    special cave:",
        "      P1: Collectors' Cave",
        "      P2: Smugglers' Cave",
    ], told[1]


def test_a_first_question_before_anything_happened_shows_no_empty_heading(monkeypatch):
    """Reforest's terrains are offered before anything is told (the table is told where setup
    ends): P1's first screen has no "What happened:" and "Setup:" with nothing under them; the
    next one tells the setup so far under its heading."""
    from conftest import run_cli
    piped(monkeypatch, ["1", "1"])
    _, out, _ = run_cli("play", "reforest", "--players", "2", "--human", "1", "--seed", "1", "--module", "terrain")
    first, second = [screen.splitlines() for screen in out.split("\n--- P1, your turn: ")[1:3]]
    assert "  What happened:" not in first and "  Setup:" not in first, first
    told = second[second.index("  What happened:") + 1:]
    assert told[:2] == ["  Setup:", "    You discard it; then draw 1 card from the deck — Root Pit"], told


def test_why_says_a_cards_name_as_printed_whatever_letters_the_rules_names_are(monkeypatch):
    """Reforest's `can_grow(c, s)` names its space `s`: "why Old Man's Beard" said "the class of Old
    Man'it Beard", the card's name read again for the parameter `s` (said "it") after `c` was
    said as the card. Every name is now said in one pass, and never a letter after an apostrophe."""
    from conftest import run_cli
    piped(monkeypatch, ["1", "2", "1", "2", "why Old Man's Beard"])   # seed 1: P1 holds it and cannot grow it
    _, out, _ = run_cli("play", "reforest", "--players", "2", "--human", "1", "--seed", "1", "--module", "terrain")
    said = out[out.index("Old Man's Beard cannot be chosen"):]
    assert "the class of Old Man's Beard is standard, and must be parasitic" in said
    assert "Man'it" not in said and "the height of Old Man's Beard" in said


def test_a_question_asked_for_each_card_of_a_loop_names_the_card_and_spaces_are_said_in_words(monkeypatch):
    """Reforest's terrains: each of the three dealt is offered for discarding ("discard it; then draw
    1 card from the deck?") and then placed ("place it in one of your rows …"): each question names
    its terrain, in the question and in the story, and a space reads "high row, column 1", never
    the engine's "high.1" (seed 7: P1 is dealt Seep Spring, Windthrow Gap and Old Burn). Seep
    Spring's effect then asks for "the empty spaces of this row", where its text binds the row
    first (`let row = it.space.row`, a step before the question's `if`): never "of row". A card
    going to a place of P1's is told to P1 once, as their own: "Stinging Nettle goes to your region"."""
    from conftest import run_cli
    piped(monkeypatch, ["2", "1", "2", "1", "1", "2", "1", "1", "1", "1"])
    _, out, _ = run_cli("play", "reforest", "--players", "2", "--human", "1", "--seed", "7", "--module", "terrain")
    asked = [line for line in out.splitlines() if line.startswith("--- P1, your turn: ")]
    discard = "--- P1, your turn: discard it; then draw 1 card from the deck?"
    assert asked[:5] == [
        f"{discard} (Seep Spring) ---", f"{discard} (Windthrow Gap) ---", f"{discard} (Old Burn) ---",
        "--- P1, your turn: place it in one of your rows with no terrain yet (Seep Spring) ---",
        "--- P1, your turn: place it in one of your rows with no terrain yet (Old Burn) ---",
    ], asked
    assert "  [1] your terrains, high row, column 1" in out and "  P2's terrains: middle row, column 1 — Talus Slope" in out
    assert "    You place it in one of your rows with no terrain yet (Seep Spring) — high row, column 1" in out
    assert not re.search(r"\b(high|middle|low)\.\d", out)
    assert "--- P1, your turn: store 1 card from the deck in one of the empty spaces of this row ---" in asked
    assert "\n    Stinging Nettle goes to your region\n" in out


def test_only_a_question_that_acts_on_the_card_of_its_loop_names_it():
    """The compiler marks a question in a loop over cards with the loop's card (`about`) only when
    it, or a step after it in its block, reads the card: Reforest's terrains (discarded, then placed)
    are named; Renature's cloud action, offered while the cloud tokens are taken one by one, is not
    about the token."""
    def questions(game_id, file):
        ir = games.load(game_id)
        found, seen = [], set()

        def walk(node):
            if id(node) in seen:
                return
            seen.add(id(node))
            if isinstance(node, tuple):
                for item in node:
                    walk(item)
            elif hasattr(node, "op"):
                if node.op in ("choose", "may") and node.span and node.span.file.endswith(file):
                    found.append((node.op, node.span.line, node.args.get("about")))
                for value in node.args.values():
                    walk(value)
        for procedure in (*ir.procedures.values(), *(p for m in ir.modules.values() for p in m.procedures.values())):
            walk(procedure)
        return sorted(found)
    # (line 24 carries out the terrain's Setup ability: the effect's card, the same card, is named)
    assert questions("reforest", "terrain.yaml") == [("choose", 20, "t"), ("may", 15, "t"), ("may", 24, "t")]
    assert ("may", 333, None) in questions("renature", "game.yaml")


def test_a_place_in_sight_holding_only_face_down_cards_says_them_where_they_lie(monkeypatch):
    """Forest Shuffle, seed 11: P2's forest holds only a sapling. P1 reads "P2's forest: 1 sapling"
    among the places in sight, as once a tree is beside it ("Horse Chestnut, and 1 sapling"); it
    used to be counted with the cards P1 cannot see at all ("P2's forest 1")."""
    from conftest import run_cli
    piped(monkeypatch, ["2"] * 10)
    _, out, _ = run_cli("play", "forest-shuffle", "--players", "2", "--human", "1", "--seed", "11")
    assert "\n  P2's forest: 1 sapling\n" in out
    assert not re.search(r"Cards you cannot see: .*P2's forest", out)


def test_a_grids_line_lists_its_spaces_in_the_grids_order(monkeypatch):
    """Reforest, seed 3: P2's region is said row by row as the rules declare them (high, middle,
    low) and column by column, not in the order its spaces were first filled (the low row first)."""
    from conftest import run_cli
    piped(monkeypatch, ["1"] * 60)
    _, out, _ = run_cli("play", "reforest", "--players", "2", "--human", "1", "--seed", "3")
    lines = [line for line in out.splitlines() if line.startswith("  P2's region: ")]
    rows = {"high": 0, "middle": 1, "low": 2}
    assert any(len(re.findall(r"\w+ row, column \d", line)) > 2 for line in lines)
    for line in lines:
        places = [(rows[row], int(column)) for row, column in re.findall(r"(\w+) row, column (\d+)", line)]
        assert places == sorted(places), line
