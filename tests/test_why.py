"""`why NAME`: at a decision, why NAME is not offered (silvics/why.py). The answers themselves are
pinned by the scenarios named why-*.yaml of each game (expect.why); here: the command, the prompt,
and that no name asked at any decision of any game ends in a traceback or names a hidden card."""
import random
import shutil

import pytest

from conftest import ROOT, run_cli
from silvics import bundled, games
from silvics.compiler.english import Wording
from silvics.human import HumanAgent
from silvics.interpreter.agents import make_agent
from silvics.interpreter.game import Game
from silvics.interpreter.views import visible
from silvics.why import why

SCENARIOS = ROOT / "tests" / "scenarios"
OAK = SCENARIOS / "forest-shuffle" / "why-a-card-that-costs-more-than-the-other-cards-in-hand.yaml"


def test_the_command_answers_at_the_question_a_scenario_stops_at():
    status, out, err = run_cli("why", "forest-shuffle", OAK, "Oak")
    assert status == 0 and err == ""
    assert out.splitlines()[0] == "P1 is asked: choose one: draw 2 cards, or plant a sapling"
    assert "the cost printed on the front side of Oak is 2, and must be less than the number of cards in your hand (2)" in out


@pytest.mark.parametrize("argv, status, said", [
    (["forest-shuffle", "no-such-file.yaml", "Oak"], 2, "no such file: no-such-file.yaml"),
    (["reforest", OAK, "Oak"], 2, "is a scenario of 'forest-shuffle'"),
    (["four-forests", SCENARIOS / "four-forests" / "cultivate-card-from-hand-to-forest.yaml", "Monstera"], 1,
     "its run ends without stopping at a question"),
])
def test_the_command_refuses_what_it_cannot_answer_in_one_line(argv, status, said):
    got, out, err = run_cli("why", *argv)
    assert got == status and said in err and len(err.strip().splitlines()) == 1, err


def test_a_person_asks_why_at_the_prompt_and_is_asked_again():
    game = Game(games.load("forest-shuffle"), 2, 3)
    seat = game.pending.seat
    wording = Wording(game.rules.ir.vocabulary)
    answers, written = iter(["why", "why Oek", "1"]), []
    person = HumanAgent(seat, lambda prompt: next(answers), written.append,
                        why=lambda asked, name: why(game, asked, name, wording))
    assert person.choose(game.observe(seat)) == 0
    assert "  why what? type: why NAME" in written
    assert any(line.startswith("  'Oek' is no card you can see") for line in written)


def test_the_hint_says_names_and_why_work():
    game = Game(games.load("four-forests"), 2, 1)
    answers, written = iter(["nonsense", "1"]), []
    person = HumanAgent(game.pending.seat, lambda prompt: next(answers), written.append, undo=lambda s: "",
                        why=lambda s, n: [])
    person.choose(game.observe(game.pending.seat))
    assert written[-1] == "  type a number from 1 to 4 or an option as written; or show NAME, why NAME, undo"


@pytest.mark.parametrize("game_id", sorted(bundled.games()))
def test_any_name_at_any_decision_gets_an_answer_that_names_no_hidden_card(game_id):
    """At every 11th decision of a random game: why each option, each card name of the game
    (seen or not), each step the rules offer, and junk. An answer is never a traceback, never
    empty, and never names a card of the game the seat cannot see (by its name, where it is
    another card's name too it is not checked)."""
    ir = games.load(game_id)
    game = Game(ir, 2, 11)
    agents, rng = [make_agent("random", 11, seat) for seat in range(2)], random.Random(5)
    wording = Wording(game.rules.ir.vocabulary)
    names = sorted({side.name for card in ir.cards for side in card.sides if side.name})
    decisions = 0
    while not game.over:
        pending = game.pending
        if decisions % 11 == 0:
            seat = pending.seat
            seen = sorted(_names_seen(game, seat), key=len, reverse=True)
            unseen = set(names) - set(seen)
            asked = [*pending.labels, *rng.sample(names, 6), "draw", "", "  ", "x" * 300, "why", "é€\u0000"]
            for name in asked:
                said = why(game, seat, name, wording)
                assert said and all(isinstance(line, str) for line in said)
                told = "\n".join(said).replace(repr(name), "")        # the name asked is said back
                for named in seen:                                       # (Oak within Oregon White Oak)
                    told = told.replace(named, "")
                leaked = [n for n in unseen if n in told and n not in name]
                assert not leaked, (name, leaked, said)
        decisions += 1
        game.apply(agents[pending.seat].choose(game.observe(pending.seat)))


def _names_seen(game, seat: int) -> set[str]:
    defs = game.rules.defs
    return {side.name for uid in range(len(defs)) if visible(game, seat, uid) for side in defs[uid].sides}


def test_a_comparison_with_nothing_after_a_failed_part_is_left_out_and_alike_spaces_are_told_once():
    """Reforest's empty region: 'the number of plants in it is 0' already says why; 'the height
    of the top plant of it is nothing' (its echo) is not said, and the six spaces are three
    groups of two (a row each), each said once as "it"."""
    status, out, _ = run_cli("why", "reforest", SCENARIOS / "reforest" / "why-a-plant-with-no-space-it-may-grow-in.yaml",
                             "Vine Maple")
    assert status == 0
    assert "is nothing" not in out and "the number of plants in it is 0, and must be more than 0 (line 130)" in out
    groups = [line.strip() for line in out.splitlines() if line.strip().startswith("your region,")]
    assert groups == [f"your region, {row} row, column 1 and your region, {row} row, column 2:"
                      for row in ("high", "middle", "low")]
    assert "(and " not in out                              # every space told: none cut off


def test_a_step_offered_elsewhere_is_said_with_what_fails_there_only_when_it_can_be_worked_out_here(tmp_path):
    """Asked at another question, a step's condition is said as it stands only when it can be
    worked out there: Orchard's turn ends with a choice whose condition reads a name the turn
    binds after its first question, so at that question nothing more is said of it."""
    shutil.copytree(ROOT / "examples" / "orchard", tmp_path, dirs_exist_ok=True)
    game_yaml = tmp_path / "rules" / "orchard" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    turn = "    - refill market from crate to 4\n  scoring:"
    assert turn in text
    text = text.replace(turn, """    - refill market from crate to 4
    - let picked = count(basket)
    - one of:
        - celebrate: picked > 100
        - rest
  celebrate: [score 1]
  rest: [score 0]
  scoring:""")
    game_yaml.write_text(text, encoding="utf-8")
    line = text.splitlines().index("    - one of:") + 1
    ir = games.load(str(game_yaml.parent), use_cache=False)
    game = Game(ir, 2, 1)
    said = why(game, game.pending.seat, "celebrate", Wording(ir.vocabulary))
    assert said == ["You cannot celebrate now: this question is not where it is offered.",
                    f"  It is offered at rules/orchard/game.yaml:{line}: Choose one: celebrate, or rest."], said
