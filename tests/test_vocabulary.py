"""A game's vocabulary: phrases in the effect language, with holes, that word its rules and
cards in the reference; matched against the IR, never against the source text."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from silvics.compiler.build import compile_game
from silvics.compiler.cardtext import as_written, card_text
from silvics.compiler.diagnostics import CompileError
from silvics.compiler.english import Wording, english
from silvics.interpreter import ir as irmod
from silvics.interpreter.ir import IRError

from conftest import play_random

MARKET = Path(__file__).parent / "fixtures" / "games" / "market"


@pytest.fixture(scope="module")
def market():
    return compile_game(MARKET / "game.yaml")


def texts(ir, card_id):
    card = next(c for c in ir.cards if c.id == card_id)
    return [line for side in card_text(ir, card) for line in side.lines]


def test_card_text_uses_the_games_labels_and_phrases(market):
    assert texts(market, "silk") == ["When bought: Gain 2 coins."]
    assert texts(market, "cheese") == ["Whenever another card is bought: If it costs 2 or more: gain 1 coin."]


def test_a_card_without_vocabulary_reads_in_the_primitives_words(market):
    plain = irmod.GameIR(**{**{f: getattr(market, f) for f in market.__dataclass_fields__},
                            "vocabulary": irmod.Vocabulary()})
    assert texts(plain, "silk") == ["On buy: Add 2 to your coins."]


def test_a_run_of_steps_reads_as_one_phrase(market):
    said = Wording(market.vocabulary).say(market.procedures["buy"])
    assert said.startswith("buy a card from the row; then gain the price of card coins; then carry out")
    assert english(market.procedures["buy"]).startswith("choose card from row; then move card to your stall")


def test_a_hole_used_twice_stands_for_the_same_part(tmp_path):
    game = copy_market(tmp_path, '    "add N to coins; add N to coins": gain {N} twice\n')
    wording = Wording(compile_game(game).vocabulary)
    ir = compile_game(game)
    twice = irmod.Node("block", {"steps": (add(1, ir), add(1, ir))})
    once_each = irmod.Node("block", {"steps": (add(1, ir), add(2, ir))})
    assert wording.say(twice) == "gain 1 twice"
    assert wording.say(once_each) == "gain 1 coin; then gain 2 coins"


def test_a_hole_may_stand_for_either_branch_of_an_if(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "add N if C else 0 to coins": gain {N} coins if {C}\n'))
    [phrase] = [p for p in ir.vocabulary.phrases if p.text.startswith("gain {N} coins if")]
    rest = ir.procedures["rest"].args["steps"][0]                        # add 1 to coins
    step = irmod.Node(rest.op, {**rest.args, "amount": irmod.Node("if_else", {
        "cond": irmod.Node("compare", {"op": ">", "left": irmod.Node("const", {"value": 3}),
                                       "right": irmod.Node("const", {"value": 2})}),
        "then": irmod.Node("const", {"value": 4}), "other": irmod.Node("const", {"value": 0})})})
    assert Wording(ir.vocabulary).say(step) == "gain 4 coins if 3 is more than 2"


def test_the_acting_player_picks_in_the_second_person(market):
    assert english(market.procedures["turn"]) == "choose one: buy, or rest, or sell"


def test_a_hole_may_have_parts(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "add C.price to coins": gain as many coins as {C} costs\n'))
    assert Wording(ir.vocabulary).steps(ir.procedures["buy"].args["steps"])[1] == "gain as many coins as card costs"


def test_a_phrase_may_name_what_the_rules_bind(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "add card.price to coins": gain the price of the card bought\n'))
    assert Wording(ir.vocabulary).steps(ir.procedures["buy"].args["steps"])[1] == "gain the price of the card bought"


def test_procedures_to_pick_from_read_as_their_calls(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    rest: take a rest\n'))
    assert Wording(ir.vocabulary).say(ir.procedures["turn"]) == "choose one: buy, or take a rest, or sell"


def test_a_name_the_rules_bind_reads_as_words():
    row = irmod.Node("zone", {"name": "row", "per": "shared"})
    said = irmod.Node("block", {"steps": (irmod.Node("shuffle", {"zone": irmod.Node("var", {"name": "new_card"})}),)})
    loop = irmod.Node("for_each", {"var": "new_card", "coll": row, "body": said})
    assert english(loop).startswith("for each new card in row")       # (a body that never says it: "for each of")


def test_a_phrase_in_braces_is_a_flow_step(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "{if: count(row) > 0, then: [turn]}": take a turn if the row has cards\n'))
    assert "each player, from the first player clockwise: (take a turn if the row has cards)" in \
        Wording(ir.vocabulary).say(ir.procedures["play"])


def add(n, ir):
    buy = ir.procedures["rest"]                       # rest: add 1 to coins; move 1 from row to discard
    step = buy.args["steps"][0]
    return irmod.Node(step.op, {**step.args, "amount": irmod.Node("const", {"value": n})})


def test_the_longest_matching_pattern_wins(tmp_path):
    game = copy_market(tmp_path, '    "add 1 to coins": take a coin\n')
    ir = compile_game(game)
    assert Wording(ir.vocabulary).say(ir.procedures["rest"]) == "take a coin; then discard 1 card from the row"
    assert texts(ir, "silk") == ["When bought: Gain 2 coins."]


def test_a_hole_stands_for_a_part_that_is_there(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "score N per CARDS": score {N} for each of {CARDS}\n'))
    said = Wording(ir.vocabulary).say(ir.procedures["scoring"])     # score coins: no `per` to stand for
    assert "for each of" not in said and said.startswith("each player, from the first player clockwise: (score your coins points")


def test_a_hole_may_stand_first_in_a_choice_of_values(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "add N if C else 0 to coins": gain {N} if {C}\n'))
    assert [p.text for p in ir.vocabulary.phrases][-1] == "gain {N} if {C}"


def test_a_hole_may_stand_for_what_is_chosen_from(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "choose C from PLACES; move C to stall face up": buy a card from {PLACES}\n'))
    assert Wording(ir.vocabulary).say(ir.procedures["buy"]).startswith("buy a card from the row; then ")


def test_a_hole_has_the_parts_of_what_has_a_part_so_named(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "add C.price to coins": gain the price of {C} in coins\n'
                                            '    "add N to P.coins": give {P} {N} coins\n'))    # P: a player, by its part
    assert "then gain the price of card in coins; then" in Wording(ir.vocabulary).say(ir.procedures["buy"])


def test_a_number_as_written_reads_as_the_number():
    assert as_written(2) == "2" and as_written(["draw", {"may": ["draw"]}]) == "[draw, {may: [draw]}]"


def test_a_choice_of_procedures_reads_each_as_its_phrase(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    rest: rest for a coin\n'))
    assert Wording(ir.vocabulary).say(ir.procedures["turn"]) == "choose one: buy, or rest for a coin, or sell"


def test_a_loop_whose_body_never_says_its_name_reads_without_it(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "move C to discard": discard it\n    "add C.price to coins": gain its price\n'))
    sell_all = ir.procedures["market_day"].args["steps"][0].args["loops"].args["steps"][0]
    assert Wording(ir.vocabulary).say(sell_all) == "for each of your stall: (discard it; then gain its price)"
    assert english(sell_all) == "for each c in your stall: (move c to discard; then add the price of c to your coins)"


def test_a_list_of_holes_matches_a_literal_list(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "nth([A, B], N)": "{A} or {B}, by {N}"\n'))
    const = lambda value: irmod.Node("const", {"value": value})
    picked = irmod.Node("nth", {"items": const((30, 50)), "n": const(2)})
    assert Wording(ir.vocabulary).say(picked) == "30 or 50, by 2"
    assert Wording(ir.vocabulary).say(irmod.Node("nth", {"items": const((30, 50, 70)), "n": const(2)})) == "item 2 of [30, 50, 70]"


def test_a_hidden_let_reads_as_its_value_where_its_name_is_used(tmp_path):
    game = copy_market(tmp_path, '    "let L = top(row)": ""\n    "top(row)": the newest card of the row\n')
    text = game.read_text()
    game.write_text(text.replace("vocabulary:", "  tidy:\n    - let last = top(row)\n    - move last to discard\n"
                                                "vocabulary:", 1))
    ir = compile_game(game)
    assert Wording(ir.vocabulary).say(ir.procedures["tidy"]) == "move the newest card of the row to discard"
    assert english(ir.procedures["tidy"]) == "let last be the top card of row; then move last to discard"


def test_the_vocabulary_changes_no_rule(tmp_path):
    bare = tmp_path / "bare"
    shutil.copytree(MARKET, bare)
    text = (bare / "game.yaml").read_text()
    (bare / "game.yaml").write_text(text[:text.index("vocabulary:")])
    with_words, without = compile_game(MARKET / "game.yaml"), compile_game(bare / "game.yaml")
    assert without.vocabulary == irmod.Vocabulary() and with_words.vocabulary.phrases
    for seed in range(5):
        assert play_random(with_words, 2, seed).log == play_random(without, 2, seed).log


def test_the_vocabulary_round_trips_through_json(market):
    again = irmod.loads(irmod.dumps(market))
    assert again.vocabulary == market.vocabulary
    assert texts(again, "cheese") == texts(market, "cheese")


def test_a_hole_outside_a_phrase_is_refused_in_an_ir_file(market):
    data = json.loads(irmod.dumps(market))
    data["procedures"]["rest"]["args"]["steps"][0]["args"]["amount"] = {
        "$": "Node", "op": "hole", "args": {"name": "N"}}
    with pytest.raises(IRError, match="a hole stands only in a phrase of the vocabulary"):
        irmod.loads(json.dumps(data))


@pytest.mark.parametrize("words, where, message", [
    ("  labels:\n    on_bye: 'When bought: {}'\n", "on_bye", "no card attribute 'on_bye' to label; did you mean 'on_buy'?"),
    ("  labels:\n    on_buy: 'When bought'\n", "'When bought'", "a label holds one {} where the attribute's text goes"),
    ("  phrases:\n    'add N to coins': gain {M} coins\n", "gain {M}", "the phrase's text fills {M}, which its pattern lacks"),
    ("  phrases:\n    'add N to coinz': gain {N} coins\n", "coinz", "unknown name 'coinz'"),
    ("  phrases:\n    'move C to stall; add N to pile': x\n", "pile", "unknown name 'pile'"),
    ("  phrases:\n    '{again: N}': x\n", "'{again", "a phrase in braces is one flow step, written as in the rules"),
])
def test_a_mistake_in_the_vocabulary_is_reported_where_it_is(tmp_path, words, where, message):
    game = tmp_path / "market"
    shutil.copytree(MARKET, game)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text[:text.index("vocabulary:")] + "vocabulary:\n" + words)
    with pytest.raises(CompileError) as raised:
        compile_game(game / "game.yaml")
    [diagnostic] = raised.value.diagnostics
    line = (game / "game.yaml").read_text().splitlines()[diagnostic.line - 1]
    assert message in f"{diagnostic.message}; {diagnostic.hint}"
    assert line[diagnostic.col - 1:].startswith(where)


def copy_market(tmp_path, phrase: str) -> Path:
    game = tmp_path / "market"
    shutil.copytree(MARKET, game)
    with open(game / "game.yaml", "a") as file:
        file.write(phrase)
    return game / "game.yaml"


def test_a_phrase_that_reads_as_nothing_hides_a_step(tmp_path):
    ir = compile_game(copy_market(tmp_path, '    "move 1 from row to discard": ""\n'))
    assert Wording(ir.vocabulary).say(ir.procedures["rest"]) == "gain 1 coin"
