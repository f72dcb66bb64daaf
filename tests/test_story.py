"""The play log people read (`silvics play`, silvics/story.py): a setup header, headings from the
game's vocabulary, a line per decision in the game's words, points by heading, boards, a final
table; `--log full` is the engine's complete log. The story is told from a replay of the game:
it must be the same game, and telling it must change nothing."""
import re
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from silvics import bundled
from silvics.compiler.build import compile_game
from silvics.compiler.english import third_person
from silvics.compiler.diagnostics import CompileError
from silvics.interpreter.game import Game

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["four-forests", "reforest", "forest-shuffle", "renature"]
ENGINE_WORDS = re.compile(r"^\s+(move|flip|shuffle|refill|choice|add|score|rank|interrupt|pass) ")
SPAN = re.compile(r"\.yaml:\d+:\d+")


def story(game_id: str, players: int = 2, seed: int = 1, *more) -> tuple[str, str]:
    status, out, err = run_cli("play", game_id, "--players", players, "--seed", seed, *more)
    assert status == 0, err
    return out, err


@pytest.mark.parametrize("game_id", GAMES)
def test_the_story_reads_as_a_game_not_an_engine_log(game_id):
    out, _ = story(game_id)
    lines = out.splitlines()
    assert lines[1] == "Setup:" and lines[2].startswith("  ")
    assert not [line for line in lines if ENGINE_WORDS.match(line)]
    assert not SPAN.search(out)
    assert max(map(len, lines)) < 300
    procedures = set(compile_game(bundled.games()[game_id]).procedures)
    named = {word for word in re.findall(r"[a-z]+(?:_[a-z]+)+", out)} & procedures
    assert not named, f"procedure names in the story: {named}"
    decisions = [line for line in lines if re.match(r"^  P\d (?!scores )[a-z]+", line)]
    assert decisions and "Final scores:" in out


@pytest.mark.parametrize("game_id, heading", [("four-forests", "Round 4"), ("reforest", "P2's turn"),
                                              ("forest-shuffle", "P1's turn"), ("renature", "P2's turn")])
def test_the_vocabulary_heads_rounds_and_turns(game_id, heading):
    out, _ = story(game_id)
    assert heading in out.splitlines() and "Final scoring" in out.splitlines()


def test_four_forests_decisions_are_one_line_each_in_the_rulebooks_words():
    out, _ = story("four-forests", 3, 1)
    section = out.split("\nRound 1\n")[1].split("\nRound 2\n")[0].splitlines()
    assert section[0] == "  — cultivate —"
    assert section[1].startswith("  P1 places a card from their hand face up in their forest — ")
    votes = [line for line in section if "under a creature" in line]
    assert len(votes) == 3           # a card, a creature and a way chosen: one decision, one line
    # the vote lies face down: the table's story keeps it hidden, and tells the creature and the way
    assert all(re.search(r" — a vote, [A-Z][a-z]+, (for|against)$", vote) for vote in votes)  # (its `face down:`)


def test_the_setup_header_says_what_is_dealt():
    out, _ = story("four-forests", 3, 1)
    header = out.split("\n\nRound 1\n")[0]
    assert "  the first player: P1" in header and "  hand: 4 cards each" in header
    creatures = re.search(r"  the creatures: (.+)", header).group(1).split(", ")
    assert len(creatures) == 4


def test_boards_are_drawn_where_the_game_has_them():
    reforest, _ = story("reforest", 2, 3)
    region = reforest.split("P1's region:\n")[1].splitlines()[:3]
    assert [line.split("|")[0].strip() for line in region] == ["high", "middle", "low"]
    renature, _ = story("renature", 2, 3)
    assert re.search(r"^  r1 ", renature, re.M)          # the rules' own `draw board` step


def test_points_are_labelled_by_heading_and_add_up():
    out, _ = story("reforest", 2, 3)
    table = out.split("Points by heading:\n")[1].split("\n\n")[0].splitlines()[1:]
    totals = [sum(int(row.split()[-2 + seat]) for row in table) for seat in range(2)]
    finals = {int(m[0]): int(m[1]) for m in re.findall(r"^  P(\d)\s+(-?\d+)", out.split("Final scores:")[1], re.M)}
    assert totals == [finals[1], finals[2]]
    assert any(row.split()[0] == "plant" for row in table)      # plant_values, in words


def test_the_story_tells_the_game_that_was_played():
    """The same seed gives the same final scores with either log, and the full log is the engine's."""
    told, _ = story("forest-shuffle", 2, 4)
    full, _ = story("forest-shuffle", 2, 4, "--log", "full")
    scores = lambda out: out.split("Final scores:")[1].split("Counters:")[0]  # noqa: E731 (full: every counter)
    assert scores(told) == scores(full)
    assert full.count("\n  choice ") > 50 and "\n  move " in full


def test_telling_a_story_changes_nothing():
    """The hooks the story uses see the game; a copy (what search plays) carries none of them."""
    game = Game(compile_game(bundled.games()["four-forests"]), 2, 1, start=False)
    seen = []
    game.on_call = lambda g, name, env: seen.append(name)
    game.begin()
    assert seen[:2] == ["setup", "deal_creatures"] and "play" in seen
    assert game.copy().on_call is None
    plain = Game(compile_game(bundled.games()["four-forests"]), 2, 1)
    assert plain.log == game.log


def test_replay_tells_the_saved_game(tmp_path):
    save = tmp_path / "game.json"
    status, played, _ = run_cli("play", "renature", "--players", 2, "--seed", 2, "--save", save)
    assert status == 0
    status, replayed, _ = run_cli("replay", save)
    assert status == 0 and replayed == played


def copy_of(game_id: str, tmp_path) -> Path:
    for folder in ("rules", "cards"):
        shutil.copytree(ROOT / folder / game_id, tmp_path / folder / game_id)
    return tmp_path / "rules" / game_id / "game.yaml"


@pytest.mark.parametrize("heading, message, hint", [
    ("    rund: Round {round}", "no procedure 'rund' to head", "did you mean 'round'?"),
    ("    round: Round {rounds}", "the heading fills {rounds}, which 'round' does not see", "did you mean 'round'?"),
    ("    deal_creatures: '{who}'", "the heading fills {who}, which 'deal_creatures' does not see", "it sees:"),
])
def test_a_heading_names_a_procedure_and_what_it_sees(tmp_path, heading, message, hint):
    game = copy_of("four-forests", tmp_path)
    text = game.read_text()
    assert "    round: Round {round}\n" in text
    game.write_text(text.replace("    round: Round {round}\n", heading + "\n", 1))
    with pytest.raises(CompileError) as caught:
        compile_game(game)
    found = [d for d in caught.value.diagnostics if message in d.message]
    assert found and hint in found[0].hint, caught.value.render()


def test_a_headings_hole_is_said_by_its_type():
    """The compiler marks a hole the rules bind to a player; the log says that one as P2, a
    number as itself."""
    assert compile_game(bundled.games()["reforest"]).vocabulary.headings["take_turn"] == "{you|player}'s turn"
    assert compile_game(bundled.games()["four-forests"]).vocabulary.headings["round"] == "Round {round}"
    out, _ = story("reforest", 2, 3)
    assert "P2's turn" in out.splitlines() and not re.search(r"^\d+'s turn$", out, re.M)



def test_a_seats_story_names_only_cards_that_seat_saw():
    """Four Forests, 3 players: P1's story names P1's own votes and passes, never P2's (its votes
    lie face down, its passes go to P3) nor P3's votes; the table's story names none of them."""
    from silvics import games
    from silvics.interpreter.agents import make_agent, play_on
    from silvics.interpreter.game import Game
    from silvics.saves import Save, Seat
    from silvics.story import told
    ir = games.load("four-forests")
    game = Game(ir, 3, 1)
    play_on(game, [make_agent("random", 1, seat) for seat in range(3)])
    save = Save("four-forests", ir.id, ir.name, "", 3, 1, [], {}, [Seat("random")] * 3)

    def hidden(lines, who: str, doing: str) -> list[bool]:
        """For each of the decisions of `who` (P2, or You in P1's own story) doing this (P2 passes,
        You pass): whether its card is said to be hidden."""
        doing = doing if who == "You" else doing.replace("pass ", "passes ")
        return [line.rpartition(" — ")[2].startswith(("a hidden card", "a vote"))
                for line in lines if line.startswith(f"  {who} ") and doing in line]

    mine, table = told(ir, save, game.state.choices, [0]), told(ir, save, game.state.choices)
    for doing in ("under a creature", "pass a card"):
        assert hidden(mine, "You", doing) and not any(hidden(mine, "You", doing))  # P1 saw its own
        assert hidden(mine, "P2", doing) and all(hidden(mine, "P2", doing))      # face down, or to P3
        assert all(hidden(table, f"P{seat}", doing) for seat in (1, 2, 3))
    assert not hidden(mine, "P1", "under a creature")                           # P1's story says "You"
    assert all(hidden(mine, "P3", "under a creature")) and not any(hidden(mine, "P3", "pass a card"))  # to P1


def test_a_game_ended_by_a_rule_says_why_in_the_games_words():
    out, _ = story("forest-shuffle", 2, 1)
    # the condition of the branch holding `end game`, as the vocabulary words it
    assert "\nThe game ends at once: the last winter card lies beside the clearing.\n" in out


def test_a_game_played_alone_ends_won_or_lost_in_the_games_words():
    """Lost, with how far the game came from the rules' criterion: each part that failed, and its numbers."""
    out, _ = story("reforest", 1, 2)
    score = re.search(r"Final scores:\n  P1 +(\d+)\n", out)[1]
    target = re.search(r"\btarget (\d+)\b", story("reforest", 1, 2, "--log", "full")[0])[1]  # the counter
    assert out.endswith(
        "\nLost: to win, your score is more than the target score:\n"
        f"  your score is {score}, and must be more than the target score ({target})\n"
    )
    alone, _ = story("forest-shuffle", 1, 3, "--module", "alone-in-the-forest")
    assert "\nLost: to win, you meet the challenge's goal and minimum score for the tier you aimed for:\n" in alone
    assert re.search(r"\n  your score is \d+, and must be at least the minimum score of your tier \(200\)\n$", alone)


def test_a_grids_cells_show_whole_names_while_the_rows_fit():
    """A region's cells: whole names ("Ancient Western White Pine", cut at 22 characters before);
    a name too long for the room left is cut at a word and marked."""
    from silvics.story import _shortened
    out, _ = story("reforest", 2, 3)
    region = out.split("P1's region:\n")[1].split("\n\n")[0]
    assert "| Ancient Western White Pine" in region and "…" not in region
    assert _shortened("Ancient Western White Pine", 20) == "Ancient Western…"
    assert _shortened("Supercalifragilistic", 8) == "Superca…" and _shortened("Oak", 8) == "Oak"


def test_a_card_face_down_is_told_as_its_place_calls_it():
    """A zone's `face down:` words a card lying face down there: singular, plural (an "s", or
    the words after "|"), with an article where the story names one; without it, a face-down card."""
    from silvics.interpreter.ir import ZoneDecl
    from silvics.screen import face_down
    forest = ZoneDecl("forest", "player", "public", face_down="sapling")
    region = ZoneDecl("region", "player", "public", face_down="stored energy card|stored energy cards")
    assert [face_down(forest, 1, article=True), face_down(forest, 1), face_down(forest, 3)] == [
        "a sapling", "1 sapling", "3 saplings"]
    assert face_down(region, 2) == "2 stored energy cards"
    assert face_down(ZoneDecl("pile", "shared", "public", face_down="oak"), 1, article=True) == "an oak"
    assert face_down(None, 1, article=True) == "a face-down card"
    out, _ = story("forest-shuffle", 2, 1)
    assert "plays it face down as a sapling — a sapling" in out and "face-down card" not in out


@pytest.mark.parametrize("asked, told", [
    ("take a card of your choice from the clearing into your hand",
     "takes a card of their choice from the clearing into their hand"),
    ("choose a card in your hand and play it face down", "chooses a card in their hand and plays it face down"),
    ("discard it; then draw 1 card from the deck", "discards it; then draws 1 card from the deck"),
    ("carry out the effects in the order you pick", "carries out the effects in the order they pick"),
    ("choose one of the caves and place it in front of you", "chooses one of the caves and places it in front of them"),
    ("pass a card to the player on your left", "passes a card to the player on their left"),
    ("pay its cost: choose as many other cards", "pays its cost: chooses as many other cards"),
    ("put it on a starting space or beside a matching animal", "puts it on a starting space or beside a matching animal"),
    ("place turf and bush tokens", "places turf and bush tokens"),
    ("have a look at what you're dealt", "has a look at what they're dealt"),
    ("that player takes it", None),   # not an imperative: the story keeps its words after "P2:"
])
def test_a_decision_is_said_of_the_player_who_made_it(asked, told):
    assert third_person(asked) == told


@pytest.mark.parametrize("game_id", GAMES)
def test_the_story_tells_each_decision_of_its_player_not_to_them(game_id):
    """The questions are asked to "you"; the story tells every player's answers to everyone, so it
    says "P1 chooses a card in their hand", never "P1: choose a card in your hand"."""
    out, _ = story(game_id)
    decisions = [line for line in out.splitlines() if re.match(r"^  P\d[ :]", line)]
    assert decisions
    assert not [line for line in decisions if re.search(r"\byou(r|rs|rself)?\b", line.split(" — ")[0])]
    assert [line for line in decisions if re.match(r"^  P\d (chooses|takes|places|plays|draws) ", line)]


def test_a_side_is_told_in_the_games_words():
    """Forest Shuffle's tree card has one side, which the engine calls `front`: the story tells
    the half played of a tree as the vocabulary words it, "the whole card", never "front"."""
    out, _ = story("forest-shuffle", 2, 1)
    halves = [line.rpartition(" — ")[2] for line in out.splitlines() if "the half of the card" in line]
    assert "the whole card" in halves and {"left half", "right half"} & set(halves)
    assert "front" not in halves


def test_a_persons_own_story_speaks_to_them():
    """The story told to one person (their screen, their page) says their own decisions, points
    and places to them: "You place …", "You score …", "your forest", "Your turn" at the
    vocabulary's "{you}'s turn"; the others' in the third person. The table's story names all."""
    from silvics import games
    from silvics.interpreter.agents import make_agent, play_on
    from silvics.interpreter.game import Game
    from silvics.saves import Save, Seat
    from silvics.story import told
    ir = games.load("reforest")
    game = Game(ir, 2, 3)
    play_on(game, [make_agent("random", 3, seat) for seat in range(2)])
    save = Save("reforest", ir.id, ir.name, "", 2, 3, [], {}, [Seat("random")] * 2)
    mine, table = told(ir, save, game.state.choices, [0]), told(ir, save, game.state.choices)
    assert "Your turn" in mine and "P2's turn" in mine and "P1's turn" not in mine
    assert "  You gather plants" in mine and "  P2 gathers plants" in mine
    assert any(line.startswith("  You choose a plant in your hand") for line in mine)
    assert any(re.match(r"  You score \d+", line) for line in mine)
    assert not [line for line in mine if re.match(r"  P1 ", line)]  # ("P1: that player takes it": no verb)
    assert not [line for line in table if line.startswith(("  You ", "Your "))]
    assert "P1's turn" in table and "  P1 gathers plants" in table


def test_an_empty_answer_and_the_rest_left_are_told_in_words():
    """Reforest, seed 3: a choice with nothing to choose from was told "— nothing", and effects in
    any order with the rest left "— Pacific Rhododendron, done" (the engine's labels)."""
    out, _ = story("reforest", 2, 3)
    assert "stack — there is none" in out and "— Pacific Rhododendron, then no more" in out
    assert not re.search(r" — (nothing|.*, done)$", out, re.M), out


def test_a_choice_of_actions_with_none_left_tells_nothing(tmp_path):
    """`one of` whose every option's condition fails takes nothing: the story told it as an action
    called "nothing" ("P1 nothings")."""
    from test_robust import tiny
    game = tiny(tmp_path / "g", play="- one of:\n    - ping: total > 5\n    - pong: total > 5\n- add 1 to total")
    with open(game / "game.yaml", "a") as rules:
        rules.write("  ping: [add 1 to total]\n  pong: [add 2 to total]\n")
    out, _ = story(str(game), 1, 1)
    assert "nothing" not in out, out   # (the step after it is told as before)
