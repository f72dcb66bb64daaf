"""The language features Reforest needed, each on a small game written here: definitions with
parameters (worked out where they are used, never captured by an inner `it`), `let`,
`A if C else B`, numbers printed on cards (with the names they see), defaults, `nth`,
`bottom`/`top` of a collection, `card.space`, `card.effects`, paying with `worth`, `move … below`,
`one of` steps under a condition, `run … on/as`, and `you.score`."""
import re
import textwrap

import pytest

from silvics.compiler.build import compile_game
from silvics.compiler.diagnostics import CompileError
from silvics.interpreter.agents import ScriptedAgent, play_on
from silvics.interpreter.game import Game, compiled_rules
from silvics.interpreter.runtime import GameError

RULES = """
id: lab
name: Lab
players: {{min: 1, max: 2}}
cards: [cards.yaml]
kinds:
  chip:
    attributes:
      worth: {{type: int, default: 1}}
      size: {{type: int, default: 0}}
      tags: {{type: set, values: [red, blue], default: []}}
      bonus: {{type: number, optional: true, sees: {{target: card}}}}
      perks: {{type: numbers, optional: true}}
      on_take: {{type: effect, optional: true}}
      reacts: {{type: effect, optional: true, on: taken, within: bag}}
counters:
  total: {{start: 0}}
zones:
  pile: {{visibility: public}}
  bag: {{per: player, visibility: public}}
  grid: {{per: player, visibility: public, grid: {{rows: [top, bottom], columns: 2}}}}
define:
{define}
procedures:
  setup:
    - move box to pile face up          # in the order the cards are written: the last on top
  play:
    - each player:
{play}
  scoring: []
"""


def lab(tmp_path, play: str, cards: str, define: str = "  nothing: \"0\""):
    (tmp_path / "game.yaml").write_text(RULES.format(play=textwrap.indent(textwrap.dedent(play), " " * 8),
                                                     define=textwrap.indent(textwrap.dedent(define), "  ")))
    (tmp_path / "cards.yaml").write_text("kind: chip\ncards:\n" + textwrap.indent(textwrap.dedent(cards), "  "))
    return compile_game(tmp_path)


def lab_errors(tmp_path, *args, **kwargs) -> str:
    with pytest.raises(CompileError) as failure:
        lab(tmp_path, *args, **kwargs)
    return failure.value.render()


def played(ir, answers=(), players=1):
    game = Game(ir, players, 0)
    play_on(game, [ScriptedAgent(answers)] * players)
    return game


def zone(game, key):
    return [game.card_id(uid) for uid in game.state.zones.get(key, [])]


def test_a_definition_works_out_what_it_is_given_before_an_inner_it_can_capture_it(tmp_path):
    # bigger(c): the pile's chips larger than c. Called with `it` from an outer `where`, the inner
    # `where` rebinds `it`; c must still be the outer chip.
    ir = lab(tmp_path, """
        - move pile where count(bigger(it)) = 0 to bag
    """, """
        - {id: small, size: 1}
        - {id: middle, size: 2}
        - {id: large, size: 3}
    """, define='bigger(c): "pile where size > c.size"')
    assert zone(played(ir), "bag/0") == ["large"]


def test_a_definition_given_the_wrong_number_of_parts_is_an_error(tmp_path):
    assert "'bigger' takes 1 part(s), got 2" in lab_errors(
        tmp_path, "- move pile where count(bigger(it, it)) = 0 to bag", "- {id: a}",
        define='bigger(c): "pile where size > c.size"')


def test_let_names_a_value_for_later_steps_and_if_else_picks_one(tmp_path):
    ir = lab(tmp_path, """
        - let first = bottom(pile)
        - move first to bag
        - add 10 if first.size > 1 else 1 to total
        - move top(pile where size = 1) to bag
    """, """
        - {id: a, size: 2}
        - {id: b, size: 1}
        - {id: c, size: 1}
    """)
    game = played(ir)
    assert zone(game, "bag/0") == ["a", "c"] and game.state.counters["total"] == 10


def test_numbers_printed_on_cards_see_the_names_their_rules_pass(tmp_path):
    ir = lab(tmp_path, """
        - let target = top(pile)
        - add sum(c.bonus(target) for c in pile) to total
        - add nth(bottom(pile).perks, 2) to total
    """, """
        - {id: a, size: 5, bonus: "it.size + target.size", perks: [100, 200]}
        - {id: b, size: 1, bonus: 7}
        - {id: c, size: 2}
    """)
    assert played(ir).state.counters["total"] == (5 + 2) + 7 + 0 + 200


def test_a_number_read_without_the_names_it_sees_is_an_error(tmp_path):
    assert "'bonus' is worked out with target in view" in lab_errors(
        tmp_path, "- add sum(c.bonus for c in pile) to total", "- {id: a}")


def test_defaults_fill_what_a_card_leaves_out(tmp_path):
    ir = lab(tmp_path, "- add sum(c.worth for c in pile) to total", "- {id: a}\n- {id: b, worth: 3}")
    assert played(ir).state.counters["total"] == 4


def test_choose_worth_takes_cards_until_their_worth_reaches_the_amount(tmp_path):
    ir = lab(tmp_path, """
        - choose paid from pile worth 4 by it.worth
        - move paid to bag
    """, """
        - {id: one, worth: 1}
        - {id: other, worth: 1}
        - {id: three, worth: 3}
    """)
    game = played(ir, ["one", "three"])          # 1 + 3 reaches 4: no third pick is asked for
    assert sorted(zone(game, "bag/0")) == ["one", "three"]


def test_choose_worth_takes_everything_when_everything_is_not_enough(tmp_path):
    ir = lab(tmp_path, "- choose paid from pile worth 9 by it.worth\n- move paid to bag", "- {id: a}\n- {id: b}")
    assert sorted(zone(played(ir), "bag/0")) == ["a", "b"]


def test_move_below_puts_a_card_right_under_another_and_card_space_finds_its_space(tmp_path):
    ir = lab(tmp_path, """
        - choose spot from grid where it.row = top and it.column = 1
        - move pile where size > 0 to spot face up
        - move pile to spot face up below bottom(cards(spot) where size >= 2)
        - move top(cards(spot)).space where size = 3 to bag
    """, """
        - {id: one, size: 1}
        - {id: two, size: 2}
        - {id: three, size: 3}
        - {id: flat}
    """)
    game = played(ir)
    assert zone(game, "grid:top.1/0") == ["one", "flat", "two"] and zone(game, "bag/0") == ["three"]


def test_one_of_offers_only_the_steps_whose_condition_holds(tmp_path):
    rules = RULES.replace("  scoring: []", """  take: [move 1 from pile to bag]
  skip: []
  scoring: []""")
    (tmp_path / "game.yaml").write_text(rules.format(
        play="        - one of: [skip, take: count(pile) > 1]\n        - one of: [skip, take: count(pile) > 1]",
        define='  nothing: "0"'))
    (tmp_path / "cards.yaml").write_text("kind: chip\ncards:\n  - {id: a}\n  - {id: b}\n")
    ir = compile_game(tmp_path)
    game = Game(ir, 1, 0)
    assert game.pending.options == ("skip", "take")
    game.apply(1)                                     # take: one card left, so only skip remains
    assert game.over and zone(game, "bag/0") == ["b"]


def test_run_binds_the_subject_and_lists_points_under_a_heading_awarded_by_the_card(tmp_path):
    ir = lab(tmp_path, """
        - move pile to bag face up
        - for: c in bag where it.reacts
          do: [run c.reacts on bottom(bag) as bonuses]
        - set total to you.score
    """, """
        - {id: base, size: 4}
        - {id: echo, reacts: "score subject.size"}
    """)
    game = played(ir)
    assert game.state.scores == [4] and game.state.counters["total"] == 4
    listed, scored = game.state.score_items         # the card listed under its heading, then its points
    assert [(points, game.card_id(source), heading) for _, _, points, source, heading in (listed, scored)] == \
        [(0, "echo", "bonuses"), (4, "echo", "bonuses")]


def test_effects_lists_what_is_printed_on_a_card(tmp_path):
    ir = lab(tmp_path, "- move pile where count(it.effects) > 0 to bag", """
        - {id: plain}
        - {id: active, on_take: "add 1 to total"}
        - {id: clever, bonus: 2}
    """)
    assert sorted(zone(played(ir), "bag/0")) == ["active", "clever"]


def test_inspect_lets_only_the_looker_see_cards_until_they_move(tmp_path):
    ir = lab(tmp_path, """
        - move pile to box
        - inspect top(box, 2)
        - choose kept from box
        - move kept to pile face up
    """, """
        - {id: a}
        - {id: b}
        - {id: c}
    """)
    from silvics.interpreter.views import visible
    game = Game(ir, 2, 0)
    uid = {d.id: i for i, d in enumerate(game.rules.defs)}
    labels = game.pending.labels            # seat 1 looked at the top two (c, b), not at a
    assert sorted(labels) == ["a hidden card from box", "b", "c"]
    assert visible(game, 0, uid["b"]) and not visible(game, 1, uid["b"])
    game.apply(labels.index("b"))           # b moves to the pile; then seat 2 puts it back and looks
    assert not visible(game, 0, uid["b"]) and visible(game, 1, uid["b"])   # seat 1's look ended when b moved
    assert visible(game, 0, uid["c"])                                     # c never moved: seat 1 still knows it


@pytest.mark.parametrize("step, message", [
    ("let total 5", "two values side by side"),
    ("let total", "write: let NAME = VALUE"),
    ("choose paid from pile by it.worth", "write: choose NAME from CARDS-OR-LIST [count N | worth N [by VALUE]]"),
    ("add bottom(pile).size(pile) to total", "'size' is not a number printed on cards that takes parts"),
    ("add bottom(pile).bonus(pile, pile) to total", "'bonus' takes 1 part(s), got 2"),
    ("add nth(bottom(pile).perks) to total", "unknown function 'nth' with 1 part(s)"),
])
def test_the_new_forms_say_what_is_wrong_where(tmp_path, step, message):
    errors = lab_errors(tmp_path, f"- {step}", "- {id: a}")
    assert message in errors and "game.yaml:" in errors


# ---- cards split in halves, cards that hold cards, lists as collections, ending the game ----

def test_printed_reads_a_side_that_is_not_face_up_and_an_unknown_attribute_is_an_error(tmp_path):
    ir = lab(tmp_path, """
        - add sum(printed(c, front, size) for c in pile) + count(sides(top(pile))) to total
    """, """
        - {id: a, size: 2}
        - {id: b, size: 5}
    """)
    assert played(ir).state.counters["total"] == 8          # 2 + 5, and the one side `front`
    assert "'name' cannot be 'sizes'" in lab_errors(tmp_path, "- add printed(top(pile), front, sizes) to total",
                                                    "- {id: a}")


def test_a_list_is_filtered_looped_over_and_summed_like_cards(tmp_path):
    ir = lab(tmp_path, """
        - add sum(n * 10 for n in [1, 2, 3] where it >= 2) to total
        - for: n in [4, 5]
          do: [add n to total]
        - add count(distinct(c.size for c in pile)) to total
    """, """
        - {id: a, size: 1}
        - {id: b, size: 1}
        - {id: c, size: 2}
    """)
    assert played(ir).state.counters["total"] == 50 + 9 + 2


def test_only_an_attached_zone_is_read_from_many_cards_at_once(tmp_path):
    assert "only a card, a player or a space has parts, but this is cards" in lab_errors(
        tmp_path, "- add count(pile.size) to total", "- {id: a}")


def test_end_game_stops_every_running_step_and_goes_to_scoring(tmp_path):
    ir = lab(tmp_path, """
        - for: c in pile
          do:
            - move c to bag
            - if: count(bag) = 2
              then: [end game]
        - add 100 to total
    """, """
        - {id: a}
        - {id: b}
        - {id: c}
    """)
    game = played(ir, players=2)
    assert zone(game, "bag/0") == ["a", "b"] and zone(game, "bag/1") == [] and game.state.counters["total"] == 0
    assert game.over and game.log[-1] == "end game"


def test_each_player_in_reverse_goes_from_the_last_player_counter_clockwise(tmp_path):
    lab(tmp_path, """
        - add 1 to total
    """, "- {id: a}")
    (tmp_path / "game.yaml").write_text((tmp_path / "game.yaml").read_text().replace(
        "    - each player:\n", "    - each player:\n        - move top(pile) to bag\n      reverse: true\n"
        "    - each player:\n"))
    game = played(compile_game(tmp_path), players=2)
    assert zone(game, "bag/1") == ["a"] and zone(game, "bag/0") == []     # seat 2 first: it takes the one card


def test_a_score_without_per_in_a_printed_effect_reads_the_effects_own_card_as_it(tmp_path):
    # `score 5 if it.size > 1 else 0` printed on a card scores by that card: `it` must stay the
    # card (a score without `per` names no other card to stand for it).
    ir = lab(tmp_path, """
        - for: c in pile
          do: [run c.on_take]
    """, """
        - {id: small, size: 1, on_take: "score 10 * it.size"}
        - {id: large, size: 3, on_take: "score 10 * it.size"}
    """)
    assert played(ir).state.scores == [40]


def test_a_count_of_the_cards_but_one_counts_them_all_but_that_one(tmp_path):
    # `count(X where it != v)` is worked out as X's size less the items that are v (no list made)
    # when v is a definition's parameter or a word: the same for a pile holding v and one not
    # holding it, an empty grid's cards and a list of words, as for a name bound by a step (read
    # at each item, as written: it might be bound to nothing) and for a card's set of words.
    ir = lab(tmp_path, """
        - choose kept from pile
        - add 10000 * others(kept) to total
        - add 1000 * count(cards(pile) where kept != it) to total
        - move kept to bag
        - add 100 * others(kept) + 10 * count(bag where it != kept) to total
        - add count(cards(grid) where it != kept) + count([red, blue, red] where it != red) to total
    """, """
        - {id: a}
        - {id: b}
        - {id: c}
    """, define="""
        others(c): "count(pile where it != c)"
    """)
    assert played(ir, answers=["b"]).state.counters["total"] == 20000 + 2000 + 200 + 0 + 0 + 1
    ir = lab(tmp_path, "- add count(top(pile).tags where it != red) to total",  # a card's set, as filtered
             "- {id: a, tags: [red, blue]}")
    assert played(ir).state.counters["total"] == 1


def test_min_and_max_leave_out_what_is_nothing(tmp_path):
    # Numbers that are never nothing are compared as they are; the attribute of no card (the top of
    # an empty bag) is left out, and what is left decides.
    ir = lab(tmp_path, """
        - add 100 * max(2, top(bag).size) to total
        - add 10 * min(3, 5, top(pile).worth) to total
        - add max(1, 4) - min(top(bag).size, 1) to total
    """, """
        - {id: a}
        - {id: b, worth: 7}
        - {id: c}
    """)
    assert played(ir).state.counters["total"] == 200 + 10 + 3


def test_sum_min_and_max_of_a_collection_leave_out_what_is_nothing_and_keep_a_zero(tmp_path):
    # Each chip's first perk: a's is 0, b's 5, c has none (nothing). Nothing is left out, not
    # counted as 0, and a 0 is kept: the least is 0, not 5; of no chips (an empty bag) each is 0.
    # Alike in an action's code and in a definition's, which call the builtin in place on the
    # values that are something (no helper of the engine's).
    perks = """
        - {id: a, perks: [0, 9]}
        - {id: b, perks: [5]}
        - {id: c}
    """
    ir = lab(tmp_path, """
        - add 1000 * sum(nth(c.perks, 1) for c in pile) to total
        - add 100 * (1 + min(nth(c.perks, 1) for c in pile)) to total
        - add 10 * max(nth(c.perks, 1) for c in pile) to total
        - add 1 + min(nth(c.perks, 1) for c in bag) + sum(nth(c.perks, 1) for c in bag) to total
    """, perks)
    assert played(ir).state.counters["total"] == 5000 + 100 + 50 + 1
    ir = lab(tmp_path, "- add least * 10 + most to total", perks,
             define='least: "min(nth(c.perks, 1) for c in pile)"\nmost: "max(nth(c.perks, 1) for c in pile)"')
    assert played(ir).state.counters["total"] == 0 * 10 + 5
    source = compiled_rules(ir).code.source()
    assert re.search(r"return min_\d+\(filter\(something_\d+, \[", source), source
    assert re.search(r"return max_\d+\(filter\(something_\d+, \[", source), source


@pytest.mark.parametrize("test", ["top(bag).size + 10 / count(bag) > 0", "top(bag).size < 10 / count(bag)"])
def test_a_reckoning_works_out_both_sides_before_it_gives_nothing_for_one(tmp_path, test):
    # The attribute of no card (the top of an empty bag) is nothing, and so is a sum it is part of,
    # and a comparison with it is false; but the other side is worked out all the same, and its
    # fault (a division by nothing) is one, in a definition's code as in an action's.
    ir = lab(tmp_path, f"- add count(pile where {test}) to total", "- {id: a}",
             define=f'worked: "count(pile where {test})"')
    with pytest.raises(GameError, match="division or modulo by zero"):
        played(ir)
    ir = lab(tmp_path, "- add worked to total", "- {id: a}", define=f'worked: "count(pile where {test})"')
    with pytest.raises(GameError, match="division or modulo by zero"):
        played(ir)
