"""Engine and compiler guarantees beyond any one bundled game: runaway loops, bad choices,
copies, printed effects, spaces, nothing, players."""
import shutil
from pathlib import Path

import pytest

from silvics import games
from silvics.compiler.build import compile_game
from silvics.compiler.diagnostics import CompileError
from silvics.interpreter.game import Game, GameError
from silvics.interpreter.ir import dumps

FIXTURES = Path(__file__).parent / "fixtures" / "games"


def test_a_rule_that_loops_forever_stops_with_an_error_naming_it():
    ir = games.load(str(FIXTURES / "forever"))
    with pytest.raises(GameError, match=r"step budget .* exhausted.*game.yaml:1[45]:7"):
        Game(ir, 1, 0)


def test_an_illegal_option_is_refused_and_changes_nothing(four_forests):
    game = Game(four_forests, 2, 0)
    before = game.state.copy()
    with pytest.raises(ValueError, match="not one of the"):
        game.apply(len(game.pending.options))
    assert game.state.zones == before.zones and game.pending is not None


def test_copies_are_independent(four_forests):
    game = Game(four_forests, 3, 0)
    twin = game.copy()
    twin.apply(0)
    assert game.state.zones != twin.state.zones
    assert game.pending.options == Game(four_forests, 3, 0).pending.options


def diagnostics_after_edit(tmp_path, game: str, file: str, old: str, new: str):
    """Compile a copy of a test game with one edit; the diagnostics it must produce."""
    folder = tmp_path / game
    shutil.copytree(FIXTURES / game, folder)
    edited = folder / file
    assert old in edited.read_text()
    edited.write_text(edited.read_text().replace(old, new))
    with pytest.raises(CompileError) as failure:
        compile_game(folder)
    return failure.value.diagnostics


def test_effects_printed_on_cards_are_checked_where_they_are_written(tmp_path):
    [diagnostic] = diagnostics_after_edit(tmp_path, "market", "cards.yaml", '"add 2 to coins"', '"ad 2 to coins"')
    assert (diagnostic.code, diagnostic.line, diagnostic.col) == ("E0401", 13, 14)
    assert "did you mean 'add'?" in diagnostic.hint


@pytest.mark.parametrize("statement, message", [
    ("score 1 per region", "'per' expects cards, got spaces"),
    ("score count(region where it.height > 1)", "a space has no 'height'"),
])
def test_spaces_are_not_cards(tmp_path, statement, message):
    found = diagnostics_after_edit(tmp_path, "grove", "game.yaml",
                                   "        - score count(cards(region) where face = down)", f"        - {statement}")
    assert message in found[0].message


def test_a_statement_whose_parts_do_not_fit_says_what_its_word_means(tmp_path):
    """`draw 1 from deck` reads like drawing cards, but `draw` pictures a grid: the error says what
    the word means and shows how it is written, so a designer sees why it does not fit."""
    [found] = diagnostics_after_edit(tmp_path, "grove", "game.yaml",
                                     "        - score count(cards(region) where face = down)", "        - draw 1 from deck")
    assert found.code == "E0402" and found.message == "'zone' expects spaces, got a number"
    assert found.hint == "'draw' means: log a text drawing of a grid, as in: draw board with glyph"


def test_nothing_propagates_through_arithmetic_and_marks(four_forests):
    from silvics.interpreter.ir import Node
    game = Game(four_forests, 2, 0, start=False)
    empty_top = Node("top", {"zone": Node("zone", {"name": "pruned", "per": "shared"})})
    value = Node("attr", {"of": empty_top, "name": "value"})
    plus_one = game.rules.build(Node("arith", {"op": "+", "left": value, "right": Node("const", {"value": 1})}))
    token = game.rules.build(Node("mark", {"of": empty_top, "name": "token", "default": 0}))
    assert plus_one(game, {}) is None
    assert token(game, {}) == 0


def test_steps_inside_a_printed_effect_are_schema_checked(tmp_path):
    [diagnostic] = diagnostics_after_edit(tmp_path, "market", "cards.yaml",
                                          "      - if: subject.price >= 2", "      - iff: subject.price >= 2")
    assert (diagnostic.code, diagnostic.line) == ("E0201", 9)
    assert "is not a step" in diagnostic.message


def test_may_in_any_order_takes_for_steps_only(tmp_path):
    [diagnostic] = diagnostics_after_edit(tmp_path, "market", "game.yaml",
                                          "        - for: c in stall\n          do: [run c.on_buy]\n",
                                          "        - add 1 to coins\n")
    assert (diagnostic.code, diagnostic.line) == ("E0201", 64)
    assert diagnostic.message == "procedures, market_day #1: may in any order #2 must be a mapping, got 'add 1 to coins'"


GIFT_GAME = """
id: gift
name: Gift
players: {min: 3, max: 3}
kinds:
  token: {}
zones:
  hand: {per: player, visibility: owner}
procedures:
  setup:
    - each player: [move 2 from box to hand]
  play:
    - each player:
        - choose friend from players where it != you and count(it.hand) < 4
        - move 1 from hand to friend.hand
  scoring:
    - each player:
        - if: count(hand) = max(count(p.hand) for p in players)
          then: [score 1]
"""


def test_players_are_a_collection_to_choose_from_and_compare(tmp_path):
    from silvics.interpreter.agents import ScriptedAgent, play_on
    (tmp_path / "game.yaml").write_text(GIFT_GAME)
    (tmp_path / "cards.yaml").write_text("kind: token\ncards: [{id: bead, copies: 6}]\n")
    text = (tmp_path / "game.yaml").read_text().replace("kinds:", "cards: [cards.yaml]\nkinds:")
    (tmp_path / "game.yaml").write_text(text)
    game = Game(compile_game(tmp_path), 3, 0)
    assert game.pending.labels == ("P2", "P3")             # never yourself
    agents = [ScriptedAgent(["P2"]), ScriptedAgent(["P1"]), ScriptedAgent(["P2"])]
    play_on(game, agents)
    # P1 gives to P2, P2 to P1, P3 to P2: hands 2, 3, 1 -> only P2 holds the most
    assert [len(game.state.zones[f"hand/{s}"]) for s in range(3)] == [2, 3, 1]
    assert game.state.scores == [0, 1, 0]


def test_cards_next_to_a_card_include_its_stack_but_not_itself():
    from silvics.interpreter.ir import Node
    from silvics.position import find_card, place
    game = Game(games.load(str(FIXTURES / "grove")), 1, 0, start=False)
    place(game, {"players": [{"region:low.1": ["moss", "fern"], "region:low.2": ["birch"],
                              "region:middle.1": ["pine"], "region:middle.2": ["fern"]}]})
    near = game.rules.build(Node("neighbours", {"card": Node("var", {"name": "it"})}))
    moss = find_card(game, "moss")
    # same stack (fern), bordering spaces low.2 (birch) and middle.1 (pine); not middle.2 (a corner)
    assert sorted(game.card_id(uid) for uid in near(game, {"it": moss})) == ["birch", "fern", "pine"]
    assert near(game, {"it": None}) == []


def test_adjacent_of_a_card_lowers_to_its_neighbours(tmp_path):
    folder = tmp_path / "grove"
    shutil.copytree(FIXTURES / "grove", folder)
    rules = folder / "game.yaml"
    rules.write_text(rules.read_text() + "        - score sum(count(adjacent(top(s))) for s in region)\n")
    assert '"op":"neighbours"' in dumps(compile_game(folder))


def test_a_reaction_two_kinds_declare_is_carried_out_once(tmp_path):
    # Market's cheese answers "bought"; a second kind declaring the same reacting attribute (as
    # Forest Shuffle's two kinds of split card do) must not make it answer twice.
    from silvics.scenarios import run_file

    folder = tmp_path / "market"
    shutil.copytree(FIXTURES / "market", folder)
    rules = folder / "game.yaml"
    rules.write_text(rules.read_text().replace("counters:", """  crate:
    attributes:
      price: {type: int}
      when_bought: {type: effect, optional: true, on: bought, within: stall}
counters:""", 1))
    scenario = tmp_path / "reaction.yaml"
    scenario.write_text((Path(__file__).parent / "scenarios" / "market" / "reaction-pays-the-reacting-cards-owner.yaml")
                        .read_text().replace("../../fixtures/games/market", str(folder)))
    result = run_file(scenario)
    assert result.passed, result.failures            # coins@2: 1, not 2


TOKENS = """
players: {min: 1, max: 1}
cards: [cards.yaml]
kinds:
  token: {}
zones:
  deck: {visibility: hidden}
  hand: {visibility: public}
"""  # the start of a one-seat game of two tokens (token_game)


def token_game(folder, rules: str):
    """A one-seat game of two tokens, `rules` after TOKENS, compiled from `folder`."""
    (folder / "game.yaml").write_text(TOKENS + rules)
    (folder / "cards.yaml").write_text("kind: token\ncards: [{id: drop, copies: 2}]\n")
    return compile_game(folder)


LOITER_GAME = """  pile: {visibility: public}  # a third zone, after TOKENS' deck and hand
id: loiter
name: Loiter
interrupts:  # (with one declared, no flow runs straight through: a block's steps run in its runner)
  - when: count(pile) > 0
    do: [move all from pile to hand]
procedures:
  setup: []
  play:
    - until: count(hand) > 5
      do:
        - let idle = 1
        - let idler = idle
  scoring: []
"""


def test_a_rule_that_loops_without_acting_is_named_by_the_step_budget(tmp_path, monkeypatch):
    # no action notes where it is written: the flow steps its blocks run must (Rules.step)
    import silvics.interpreter.game as engine
    monkeypatch.setattr(engine, "STEP_BUDGET", 5_000)
    ir = token_game(tmp_path, LOITER_GAME)
    lets = r"game\.yaml:20:11, game\.yaml:21:11"  # where TOKENS + LOITER_GAME write the two lets
    with pytest.raises(GameError, match=rf"step budget of 5,000 exhausted: .* \(the last rules run: {lets}\)"):
        Game(ir, 1, 0)


@pytest.mark.parametrize("interrupted", [True, False], ids=["in its runner", "straight through"])
def test_a_lowered_step_budget_stops_a_loop_where_it_runs(tmp_path, monkeypatch, interrupted):
    """Each pass of a loop is a step, counted where the loop runs (a generated runner writes the
    count out, and so does a loop run straight through): a game made with a lower budget stops
    as its pass goes over it, not at the default budget's millionth step."""
    import silvics.interpreter.game as engine
    monkeypatch.setattr(engine, "STEP_BUDGET", 5_000)
    interrupt = LOITER_GAME[LOITER_GAME.index("interrupts:") : LOITER_GAME.index("procedures:")]
    rules = LOITER_GAME if interrupted else LOITER_GAME.replace(interrupt, "")  # none: it runs straight
    game = Game(token_game(tmp_path, rules), 1, 0, start=False)
    with pytest.raises(GameError, match="step budget of 5,000 exhausted"):
        game.begin()
    assert game.state.steps == 5_001


DRIP_GAME = """  yard: {visibility: public}  # a third zone, after TOKENS' deck and hand
id: drip
name: Drip
interrupts:
  - when: count(deck) = 0
    do: [move all from hand to yard]
procedures:
  setup:
    - move all from box to deck
  play:
    - repeat: 2
      do: [move 1 from deck to hand]
    - if: count(yard) = 2
      then: [move 1 from yard to hand]
  scoring: []
"""


def test_an_interrupt_of_one_step_runs_after_the_action_that_set_it_off(tmp_path):
    # the body waits until the interrupted action is over (its hooks see it as the last action),
    # and the flow interrupted goes on after the body, seeing what it did
    game = Game(token_game(tmp_path, DRIP_GAME), 1, 0, start=False)
    after = []
    game.on_step = lambda g: after.append((g.state.log[-1][0], g.state.log[-1][2], len(g.state.zones.get("yard", ()))))
    game.begin()
    assert game.over
    # after each action: the deal, the first draw, the second (the deck is empty: the interrupt is
    # noted, its body not run yet), the body's move, the last step's move back
    assert [(what, yard) for what, _, yard in after] == [
        ("move", 0), ("move", 0), ("interrupt", 0), ("move", 2), ("move", 1)]


TALLY_GAME = """id: tally
name: Tally
counters:
  ticks: {start: 0}
  rang: {start: 0}
interrupts:
  - when: ticks >= 3
    do: [add 1 to rang]
procedures:
  setup:
    - move all from box to deck
  play:
    - repeat: 8
      do:
        - move 1 from deck to hand
        - move all from hand to deck
        - add 1 to ticks
        - if: ticks = 5
          then: [set ticks to 0]
  scoring: []
"""


def test_an_interrupt_fires_each_time_its_condition_turns_true_among_actions_it_does_not_read(tmp_path):
    # after a check that fired nothing, checks are skipped while nothing the condition read is
    # stamped (the moves): it still fires at the third tick, and again at the third after the
    # reset, the actions before and after each firing as they were
    game = Game(token_game(tmp_path, TALLY_GAME), 1, 0)
    assert game.over and game.state.counters["rang"] == 2
    lines = [str(detail) for what, _, detail in game.state.log if what in ("add", "interrupt")]
    rang = ["game.yaml:15:5", "rang = {}"]  # the interrupt, where TOKENS + TALLY_GAME write it
    assert lines == [
        *(f"ticks = {n}" for n in (1, 2, 3)), rang[0], rang[1].format(1),
        *(f"ticks = {n}" for n in (4, 5, 1, 2, 3)), rang[0], rang[1].format(2),
    ]
    assert not game.state.alarm and "#ticks" in game.state.alarming  # what the skipped checks watch


def test_cards_in_several_piles_react_in_the_order_the_piles_were_made():
    # Thicket: a Beetle (lower half, when_placed) in the slots of each of three stems, the slots
    # made in a shuffled order; the reactors are listed pile by pile in the zones' order, as a
    # look at every zone finds them, and so are those of a world dealt again from the game
    import random
    game = Game(games.load(str(FIXTURES / "thicket")), 1, 0)
    state, defs = game.state, game.rules.defs
    stems = [uid for uid in range(len(defs)) if defs[uid].kind == "stem"][:3]
    beetles = [uid for uid in range(len(defs)) if defs[uid].id == "owl-beetle"][:3]
    for stem in stems:
        state.move(stem, "grove/0", facedown=False)
    for stem, beetle in zip(random.Random(5).sample(stems, 3), beetles):
        state.move(beetle, f"slots/{stem}", facedown=False)
        state.flip([(beetle, 1)])
    for seen in (game, game.observe(0).sample(random.Random(1))):
        found = seen.reactors("placed", 0)
        every = [uid for key, pile in seen.state.zones.items() if key.startswith("slots/") for uid in pile]
        assert len(every) == 3 and [uid for uid, _, _ in found] == every
        assert {name for _, name, _ in found} == {"when_placed"}


def test_a_copy_or_a_world_of_a_game_works_its_interrupts_out_afresh():
    # the keys a check left watched were read in the game's own deal: a world deals the hidden
    # cards again, under rules whose cards print otherwise, so its first action checks again
    import random
    game = Game(games.load("forest-shuffle"), 2, 3)
    while game.state.alarm:
        game.apply(0)
    assert game.state.alarming
    for other in (game.copy(), game.observe(0).sample(random.Random(1))):
        assert other.state.alarm and not game.state.alarm


def test_the_cards_able_to_react_are_those_printing_the_reaction_in_every_deal():
    # a game's rules (dealt from the compiled ones) and a world sampled from it (dealt again)
    # find them from the rules they were dealt from: the same cards a look at every card finds
    import random
    game = Game(games.load("forest-shuffle"), 2, 3)
    world = game.observe(0).sample(random.Random(1))
    names = {name for listening in game.rules.listeners.values() for name, _, _ in listening}
    assert names
    for rules in (game.rules, world.rules):
        found = 0
        for name in names:
            printing = {uid for uid, sides in enumerate(rules.printed) if any(name in side for side in sides)}
            assert rules.able_to(name) == printing
            found += len(printing)
        assert found


# ---- flow that runs straight through: no frames, the same game -----------------------------

def _built_otherwise(monkeypatch):
    """Rules built another way than the engine's source says (a test's comparison) are generated
    apart: not from the cache, nor kept in it, where the rules as the source builds them are."""
    from silvics.interpreter import codecache
    from silvics.interpreter.codegen import Module
    monkeypatch.setattr(codecache, "module_for", lambda ir, modules, label: Module(label))


def _played(rules, players: int, seed: int) -> tuple[str, list[int], int]:
    """A random game's log, its scores, and how many frames its flow pushed."""
    from silvics.interpreter.agents import make_agent, play_on
    game = Game(rules, players, seed)
    pushed = [0]
    push = game.push
    game.push = lambda *args: (pushed.__setitem__(0, pushed[0] + 1), push(*args))[1]
    play_on(game, [make_agent("random", seed, seat) for seat in range(players)])
    return "\n".join(game.log), game.state.scores, pushed[0]


@pytest.mark.parametrize("game_id, players, modules", [
    ("four-forests", 3, ()), ("renature", 2, ()), ("renature", 3, ("valley",)),
])
def test_flow_that_runs_straight_through_plays_as_flow_in_frames(monkeypatch, game_id, players, modules):
    """Steps that can neither ask, end the game nor be interrupted run as plain calls, with no
    frame (Rules.straight): the same games, byte for byte, as with every step in a frame."""
    from silvics.interpreter import game as engine
    ir = games.load(game_id)
    straight = [_played(engine.Rules(ir, modules), players, seed) for seed in range(3)]
    monkeypatch.setattr(engine.Rules, "straight", lambda self, node: False)
    _built_otherwise(monkeypatch)
    framed = [_played(engine.Rules(ir, modules), players, seed) for seed in range(3)]
    assert [game[:2] for game in straight] == [game[:2] for game in framed]
    assert all(s[2] < f[2] for s, f in zip(straight, framed))   # and it did run some without frames


def test_which_flow_runs_straight_through():
    from silvics.interpreter.game import Rules
    renature = Rules(games.load("renature"))
    assert renature.straight(renature.ir.procedures["scoring"])      # loops, lets, ifs and scores
    assert not renature.straight(renature.ir.procedures["play"])     # it asks for a domino
    shuffle = Rules(games.load("forest-shuffle"))                    # an interrupt may cut in anywhere
    assert shuffle.ir.interrupts and not any(map(shuffle.straight, shuffle.ir.procedures.values()))
    forever = Rules(games.load(str(FIXTURES / "forever")))           # a procedure calling itself
    assert not forever.straight(forever.ir.procedures["again"])


def test_names_bound_in_flow_that_runs_straight_through_stay_inside(tmp_path, monkeypatch):
    """`let` inside a loop's pass or an `if` binds for the rest of that block only, with or
    without frames: 10 + 10 from the passes, 100 from the branch, then the outer 1."""
    (tmp_path / "game.yaml").write_text(
        "id: scope\nname: Scope\nplayers: {min: 1, max: 1}\nkinds:\n  token: {}\n"
        "zones:\n  pile: {visibility: public}\ncounters:\n  total: {start: 0}\n"
        "procedures:\n  setup: []\n  play:\n    - each player:\n        - let a = 1\n"
        "        - repeat: 2\n          do: [let a = 10, add a to total]\n"
        "        - if: a = 1\n          then: [let a = 100, add a to total]\n"
        "        - add a to total\n  scoring: []\n")
    from silvics.interpreter import game as engine
    ir = games.load(str(tmp_path))
    rules = engine.Rules(ir)
    assert rules.straight(ir.procedures["play"])
    assert Game(rules, 1, 0).state.counters["total"] == 121
    monkeypatch.setattr(engine.Rules, "straight", lambda self, node: False)
    _built_otherwise(monkeypatch)
    assert Game(engine.Rules(ir), 1, 0).state.counters["total"] == 121


def test_an_interrupt_cut_in_by_an_action_runs_before_the_next_step_of_its_block(tmp_path):
    """A block's steps are run by a runner generated for its shape (runners.py), which looks at the
    stack only after a step that may stop. An action may stop when the rules have interrupts:
    here the first `add` makes the condition true, so the interrupt adds 100 before the block
    doubles the total: 2 × 101. Taking the action for a step that cannot stop would double first,
    then pop the interrupt's frame in place of the block's, whose steps would run again (6)."""
    (tmp_path / "game.yaml").write_text(
        "id: cut\nname: Cut\nplayers: {min: 1, max: 1}\nkinds:\n  token: {}\n"
        "zones:\n  pile: {visibility: public}\ncounters:\n  total: {start: 0}\n"
        "interrupts:\n  - when: total >= 1\n    do: [add 100 to total]\n"
        "procedures:\n  setup: []\n  play: [add 1 to total, add total to total]\n  scoring: []\n")
    from silvics.interpreter import game as engine
    rules = engine.Rules(games.load(str(tmp_path)))
    assert not rules.straight(rules.ir.procedures["play"].args["steps"][0])   # the action may stop
    assert Game(rules, 1, 0).state.counters["total"] == 202


@pytest.mark.parametrize("game_id", ["four-forests", "reforest", "forest-shuffle", "renature"])
def test_a_generated_runner_holds_nothing_of_the_rules(game_id):
    """A block's runner is generated from its shape alone (runners.py): its code holds numbers
    and names the generator makes. The rules reach it only as the steps, places and loop
    beginnings handed to its maker, never as code (whether the maker was generated now or comes
    from the cache)."""
    import re
    import types

    from silvics.interpreter import game as engine
    rules = engine.Rules(games.load(game_id))
    kinds = {name: asked.split()[0] for name, asked in rules.code.handed
             if asked.split()[0] in ("block", "loop", "values", "kept")}
    assert "block" in kinds.values() and {"values", "kept"} & set(kinds.values())
    for name, kind in kinds.items():
        maker = rules.code.namespace[name]
        assert all(re.fullmatch(r"begin|name|step_\d+|span_\d+|run", name) for name in maker.__code__.co_varnames)
        [run] = [value for value in maker.__code__.co_consts if isinstance(value, types.CodeType)]
        names = {"state", "stack", "i", "pending", "recent", "append", "pop", "steps", "step_budget", "out_of_steps"}
        if kind in ("values", "kept"):  # it begins each pass itself (runners._next_value)
            names |= {"data", "begun", "values", "len", "queue", "around", "env", "dict"}
        assert set(run.co_names) <= names
        assert all(type(value) in (int, bool, type(None)) or value == () for value in run.co_consts)
        assert all(re.fullmatch(r"begin|name|step_\d+|span_\d+", name) for name in run.co_freevars)


# ---- procedures written into their caller's runner ---------------------------------------------

def _calls_kept_as_calls(monkeypatch):
    """Build rules as before procedures were written in: every call a step of its own (the
    runner is shown no procedure to write in)."""
    from silvics.interpreter import game as engine
    made = engine.FlowParts.__init__

    def shown_none(parts, rules):
        made(parts, rules)
        parts.procedures = {}
    monkeypatch.setattr(engine.FlowParts, "__init__", shown_none)
    _built_otherwise(monkeypatch)


@pytest.mark.parametrize("game_id, players", [
    ("four-forests", 3), ("reforest", 2), ("forest-shuffle", 2), ("renature", 2),
])
def test_a_procedure_written_into_its_callers_runner_plays_as_in_a_frame_of_its_own(
        monkeypatch, game_id, players):
    """A call of a procedure that binds no name for its own later steps runs the procedure's
    steps in the caller's frame (flow._written_in): the same games, byte for byte, with the same
    procedures announced in the same order (Game.on_call: a log's headings), and fewer frames."""
    from silvics.interpreter import game as engine
    from silvics.interpreter.agents import make_agent, play_on
    ir = games.load(game_id)

    def played(rules, seed):
        game = engine.Game(rules, players, seed, start=False)
        called, pushed, push = [], [0], game.push
        game.on_call = lambda g, name, env: called.append((name, len(g.state.log)))
        game.push = lambda *args: (pushed.__setitem__(0, pushed[0] + 1), push(*args))[1]
        game.begin()
        play_on(game, [make_agent("random", seed, seat) for seat in range(players)])
        return "\n".join(game.log), called, pushed[0]

    written = [played(engine.Rules(ir), seed) for seed in range(3)]
    _calls_kept_as_calls(monkeypatch)
    called = [played(engine.Rules(ir), seed) for seed in range(3)]
    assert [game[:2] for game in written] == [game[:2] for game in called]
    assert all(w[2] < c[2] for w, c in zip(written, called))      # and it pushed fewer frames


def test_a_procedure_that_binds_a_name_keeps_its_frame_and_the_name_inside(tmp_path):
    """`bump` binds `a` for its own later steps: it is not written into its caller, whose `a`
    stays 1 (1 + 100 from bump, then the caller's 1: 102). Written in, bump's `a` would be the
    caller's too (1 + 100 + 100)."""
    (tmp_path / "game.yaml").write_text(
        "id: scope\nname: Scope\nplayers: {min: 1, max: 1}\nkinds:\n  token: {}\n"
        "zones:\n  pile: {visibility: public}\ncounters:\n  total: {start: 0}\n"
        "interrupts:\n  - when: total < 0\n    do: [add 1 to total]\n"     # (so that nothing runs straight)
        "procedures:\n  setup: []\n  play: [let a = 1, add a to total, bump, add a to total]\n"
        "  bump: [let a = 100, add a to total]\n  scoring: []\n")
    assert Game(games.load(str(tmp_path)), 1, 0).state.counters["total"] == 102


def test_one_of_hands_its_frame_over_to_the_procedure_picked(tmp_path, monkeypatch):
    """`one of` waits for its answer in a frame of its own, which the procedure picked then runs
    in (flow.one_of): no frame is popped and pushed again. Bindings stay as in a frame of the
    procedure's own: `bump`'s `a` stays inside (1 + 100, then the caller's 1: 102; 1 + 1000 + 1
    for `skip`). Without the handover, the same totals, with a frame more pushed per answer."""
    (tmp_path / "game.yaml").write_text(
        "id: handover\nname: Handover\nplayers: {min: 1, max: 1}\nkinds:\n  token: {}\n"
        "zones:\n  pile: {visibility: public}\ncounters:\n  total: {start: 0}\n"
        "interrupts:\n  - when: total < 0\n    do: [add 1 to total]\n"     # (so that nothing runs straight)
        "procedures:\n  setup: []\n  play:\n    - each player:\n        - let a = 1\n        - add a to total\n"
        "        - one of: [bump, skip]\n        - add a to total\n"
        "  bump: [let a = 100, add a to total]\n  skip: [let a = 1000, add a to total]\n  scoring: []\n")
    from silvics.interpreter import game as engine
    from silvics.interpreter.primitives import flow
    ir = games.load(str(tmp_path))

    def played(rules, answer):
        game = Game(rules, 1, 0)
        pushed, push = [0], game.push
        game.push = lambda *args: (pushed.__setitem__(0, pushed[0] + 1), push(*args))[1]
        game.apply(answer)
        return game.state.counters["total"], game.over, pushed[0]

    handed = [played(engine.Rules(ir), answer) for answer in (0, 1)]
    assert [game[:2] for game in handed] == [(102, True), (1002, True)]
    monkeypatch.setattr(flow, "_enter_block", lambda run: lambda game, frame: game.push(run, frame))
    _built_otherwise(monkeypatch)
    kept = [played(engine.Rules(ir), answer) for answer in (0, 1)]
    assert [game[:2] for game in kept] == [game[:2] for game in handed]
    assert [game[2] for game in kept] == [game[2] + 1 for game in handed]


def test_a_blocks_last_step_runs_after_its_frame_is_gone_unless_it_binds_there(tmp_path):
    """A block's frame is popped before its last step runs, when that step may push a frame but
    binds nothing in the block (runners.py: the frame is handed over): `outer` calls `inner`
    last, so `inner` asks with one frame above the turn's, not two, and the totals are as
    before (5 + 100 + 1). `pick` ends with a choice, which binds `a` in pick's frame: it keeps
    its frame, and the turn's `a` stays 1 (10 + 1, not 10 + 100)."""
    (tmp_path / "game.yaml").write_text(
        "id: tail\nname: Tail\nplayers: {min: 1, max: 1}\nkinds:\n  token: {}\n"
        "zones:\n  pile: {visibility: public}\ncounters:\n  total: {start: 0}\n"
        "interrupts:\n  - when: total < 0\n    do: [add 1 to total]\n"     # (so that nothing runs straight)
        "procedures:\n  setup: []\n  play:\n    - each player:\n        - choose d from [1, 2]\n"
        "        - let a = 1\n        - outer\n        - pick\n        - add a to total\n"
        "  outer:\n    - let a = 5\n    - add a to total\n    - inner\n"
        "  inner:\n    - let b = 100\n    - choose c from [1, 2]\n    - add b to total\n"
        "  pick:\n    - add 10 to total\n    - choose a from [100, 1000]\n  scoring: []\n")
    game = Game(games.load(str(tmp_path)), 1, 0)
    turn = len(game.state.stack)                     # the turn's frame on top, asking for d
    game.apply(0)
    assert game.state.pending.options == (1, 2) and len(game.state.stack) == turn + 1   # inner's
    game.apply(0)
    assert game.state.pending.options == (100, 1000) and len(game.state.stack) == turn + 1   # pick's
    game.apply(0)
    assert game.over and game.state.counters["total"] == 5 + 100 + 10 + 1


def test_a_flip_to_a_side_one_card_lacks_turns_none_of_them():
    # the creatures print a thorn side, the plant among them does not: the flip is refused as a
    # whole, every card as it was, nothing logged and nothing stamped (remembered values hold)
    from silvics.interpreter.primitives.actions import flipped
    from silvics.interpreter.runtime import RuleError
    game = Game(games.load("four-forests"), 2, 0)
    state, defs = game.state, game.rules.defs
    creatures = [uid for uid in range(len(defs)) if defs[uid].kind == "creature"][:2]
    plant = next(uid for uid in range(len(defs)) if defs[uid].kind == "plant")
    sides, log, clock = list(state.side), len(state.log), state.clock
    with pytest.raises(RuleError, match="has no side 'thorn'"):
        flipped(game, "thorn", [*creatures, plant], "")
    assert state.side == sides and len(state.log) == log and state.clock == clock
    flipped(game, "thorn", creatures, "")
    thorn = [i for i, s in enumerate(defs[creatures[0]].sides) if s.side == "thorn"][0]
    assert [state.side[uid] for uid in creatures] == [thorn, thorn] and state.clock > clock
    assert [detail for what, _, detail in state.log[log:]] == ["thorn", "thorn"]


PEEK = """
id: peek
name: Peek
players: {min: 1, max: 1}
cards: [chips.yaml]
kinds:
  chip:
    attributes:
      size: {type: int}
zones:
  deck: {visibility: hidden}
  pile: {visibility: public}
procedures:
  setup: [move box to deck face down, move 2 from deck to pile face up]
  play:
    - each player:
        - choose hidden from deck
        - move hidden to pile face up
        - inspect deck
        - choose peeked from deck
        - move peeked to pile face down
        - choose shown from pile where face = up
        - move shown to deck face down
  scoring: []
"""


def test_a_card_picked_is_named_in_the_log_as_its_chooser_saw_it_then(tmp_path):
    # the log says a card picked when it is read (Said.label), not when it is picked: from where
    # it lay then and whether its chooser had looked at it. A card picked blind stays hidden once
    # turned up; a card looked at and picked keeps its name after the look is gone (it moved
    # face down); a card picked face up keeps its name once back in the hidden deck. The same
    # seed played by an agent that reads every label as it is asked logs the same lines, and
    # its records of the choices are equal to these (a record is what it says).
    from silvics.interpreter.agents import RandomAgent, play_on
    (tmp_path / "game.yaml").write_text(PEEK)
    (tmp_path / "chips.yaml").write_text(
        "kind: chip\ncards:\n" + "".join(f"  - {{id: {n}, size: {i}}}\n" for i, n in enumerate(
            ["ash", "birch", "cedar", "dogwood", "elm", "fir"], 1)))
    ir = compile_game(tmp_path)

    class Reading(RandomAgent):
        def choose(self, observation):
            assert all(observation.labels)
            return super().choose(observation)

    lazy, eager = Game(ir, 1, 3), Game(ir, 1, 3)
    play_on(lazy, [RandomAgent(3, 0)])
    play_on(eager, [Reading(3, 0)])
    said = [detail for what, _, detail in lazy.state.log if what == "choice"]
    assert [type(detail[2]) for detail in said] == [tuple] * 3            # each said when read
    assert [type(detail[2]) for what, _, detail in eager.state.log if what == "choice"] == [str] * 3
    hidden, peeked, shown = (detail.label for detail in said)
    assert hidden == "a hidden card from deck"
    assert lazy.state.location[said[0].card] == "pile" and not lazy.state.facedown[said[0].card]
    assert peeked == lazy.card_id(said[1].card) and lazy.state.facedown[said[1].card]
    assert shown == lazy.card_id(said[2].card) and lazy.state.location[said[2].card] == "deck"
    assert lazy.log == eager.log and lazy.state.log == eager.state.log   # records equal when they say the same


def test_a_loop_whose_passes_bind_nothing_binds_each_value_in_place_and_keeps_it_inside(tmp_path):
    """A loop over values whose steps bind no name of their own binds each value in the same
    bindings pass after pass (runners' "kept"): the loop's `p` shadows the outer `p` = 5 only
    inside it, and a copy of the game paused in the second pass goes on with its own. Answered
    yes each time: 1 + 2 + 3 + 5; the original says no from the second pass on (1 + 5), its copy
    yes (11)."""
    (tmp_path / "game.yaml").write_text(
        "id: scope\nname: Scope\nplayers: {min: 1, max: 1}\nkinds:\n  token: {}\n"
        "zones:\n  pile: {visibility: public}\ncounters:\n  total: {start: 0}\n"
        "interrupts:\n  - when: total < 0\n    do: [add 1 to total]\n"     # (so that nothing runs straight)
        "procedures:\n  setup: []\n  play:\n    - each player:\n        - let p = 5\n"
        "        - repeat: 3\n          as: p\n          do: [may: [add p to total]]\n"
        "        - add p to total\n  scoring: []\n")
    from silvics.interpreter import game as engine
    rules = engine.Rules(games.load(str(tmp_path)))
    assert any(asked.startswith("kept ") for _, asked in rules.code.handed)   # the loop binds in place
    game = Game(rules, 1, 0)
    game.apply(0)                                                 # pass 1: yes
    copy = game.copy()
    while not game.over:
        game.apply(1)                                             # no
    while not copy.over:
        copy.apply(0)                                             # yes
    assert (game.state.counters["total"], copy.state.counters["total"]) == (6, 11)
    (tmp_path / "straight").mkdir()
    (tmp_path / "straight" / "game.yaml").write_text(             # straight through: no frames
        "id: scope\nname: Scope\nplayers: {min: 1, max: 1}\nkinds:\n  token: {}\n"
        "zones:\n  pile: {visibility: public}\ncounters:\n  total: {start: 0}\n"
        "procedures:\n  setup: []\n  play:\n    - each player:\n        - let p = 5\n"
        "        - repeat: 3\n          as: p\n          do: [add p to total]\n"
        "        - add p to total\n  scoring: []\n")
    ir = games.load(str(tmp_path / "straight"))
    assert engine.Rules(ir).straight(ir.procedures["play"])
    assert Game(ir, 1, 0).state.counters["total"] == 11
