"""A definition's value is remembered until something it read changes. These tests try to
catch a stale value: every kind of change a rule can make, read back through a remembered
definition straight after; a guessed world after the real game has remembered values; and
whole games played with and without remembering, which must give the same log byte for byte."""
import random
import textwrap

import pytest

from silvics import games
from silvics.compiler.build import compile_game
from silvics.interpreter import game as engine
from silvics.interpreter.agents import ScriptedAgent, decide, make_agent, play_on
from silvics.interpreter.game import Game

RULES = """
id: memo
name: Memo
players: {min: 2, max: 2}
cards: [cards.yaml]
kinds:
  chip:
    sides: [light, dark]
    attributes:
      size: {type: int}
marks:
  tag: {type: int}
counters:
  total: {start: 0}
  trace: {start: 0}
  seen: {per: player}
spaces:
  glow: {type: int, default: 0}
zones:
  deck: {visibility: hidden}
  pile: {visibility: public}
  bag: {per: player, visibility: public}
  yard: {visibility: public, grid: {rows: [a], columns: 2}}
define:
  up_in_pile: "count(pile where face = up)"
  big_in_pile: "count(pile where size > 1)"
  tagged: "count(pile where tag = 1)"
  up_in_piles: "count(pile + bag where face = up)"     # cards of piles, gathered
  tagged_in_piles: "count(cards(pile) where tag = 1)"
  total_now: "total + count(pile where size > 100)"
  seen_now: "seen + count(pile where size > 100)"
  my_turn_first: "1 if first = you else 0"
  my_score: "you.score + count(pile where size > 100)"
  chips_here: "count(bag)"
  top_size: "top(deck).size"
  size_of(c): "c.size + count(pile where size > 100)"   # remembered: it goes through the pile
  deck_top_size: "size_of(top(deck))"   # what it reads of the card, it reads from its key
  big_in_deck: "count(deck where size > 3)"
  glow_now: "sum(s.glow for s in yard)"
  lit(s): "s.glow + count(pile where size > 100) > 0"   # remembered: it goes through the pile
  lit_now: "count(yard where lit(it))"
  yard_cards: "sum(count(s) for s in yard)"   # the cards on every space of the yard
  yard_chips: "count(cards(yard) where size > 0)"   # the same, gathered from the spaces at once
procedures:
  shine:
    - for: s in yard
      do: [set s.glow to 1]
  setup:
    - %s
  play:
    - each player:
%s
  record:                               # the same text in the same place: one remembered value
    - set trace to 10 * trace + %s
  scoring: []
"""


def chips(sizes) -> str:
    return "kind: chip\ncards:\n" + "".join(
        f"  - {{id: c{i}, sides: {{light: {{name: C, size: {light}}}, dark: {{name: C, size: {dark}}}}}}}\n"
        for i, (light, dark) in enumerate(sizes))


def memo_game(tmp_path, steps: str, definition: str, setup="move box to pile face up", sizes=((1, 5), (1, 5))):
    (tmp_path / "game.yaml").write_text(RULES % (setup, textwrap.indent(textwrap.dedent(steps), " " * 8),
                                                 definition))
    (tmp_path / "cards.yaml").write_text(chips(sizes))
    game = Game(compile_game(tmp_path), 2, 0)
    play_on(game, [ScriptedAgent([])] * 2)
    return game


@pytest.mark.parametrize("definition, change, before, after", [
    ("up_in_pile", "turn top(pile) face down", 2, 1),                    # a card's face
    ("up_in_pile", "move top(pile) to bag", 2, 1),                       # a card leaving a zone
    ("chips_here", "move top(pile) to bag", 0, 1),                       # … and arriving in one
    ("big_in_pile", "flip pile to dark", 0, 2),                          # the side face up
    ("tagged", "set top(pile).tag to 1", 0, 1),                          # a mark
    ("up_in_piles", "turn top(pile) face down", 2, 1),                   # … of cards gathered from
    ("tagged_in_piles", "set top(pile).tag to 1", 0, 1),                 # piles, read where they lie
    ("total_now", "add 3 to total", 0, 3),                               # a shared counter
    ("seen_now", "add 2 to seen", 0, 2),                                 # a counter of the player's
    ("my_score", "score 4", 0, 4),                                       # the scores
    ("my_turn_first", "pass first to left", 1, 0),                       # a player marker
    ("glow_now", "shine", 0, 2),                                         # a space's attribute
])
def test_a_remembered_definition_sees_every_kind_of_change(tmp_path, definition, change, before, after):
    game = memo_game(tmp_path, f"""
        - if: you = first and trace = 0
          then: [record, {change}, record]     # remembered just before the change, read again after it
    """, definition)
    assert game.state.counters["trace"] == 10 * before + after


def test_a_value_reading_only_a_spaces_attributes_outlives_cards_moving_there(tmp_path):
    # a space's attributes are stamped apart from the cards on it: placement rules ask of
    # printed attributes again and again while cards pile up on the spaces
    from silvics.interpreter.state import space_key
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "glow_now")
    (key, entry), = [(k, e) for k, e in game.memo.items() if isinstance(k, tuple) and k[0].startswith("glow_now")]
    still_good = lambda: entry[1].stamps(game.state) == entry[2]      # noqa: E731
    game.state.move(game.state.zones["pile"][-1], space_key("yard", "a", 1))
    assert still_good()
    game.state.set_space(space_key("yard", "a", 2), "glow", 3)
    assert not still_good()


def test_the_cards_gathered_from_spaces_are_read_from_each_space(tmp_path):
    # cards(yard) reads the pile of every space it gathers (expressions.cards_in notes them all,
    # as Game.pile would one by one): a card moving onto any of them makes the value stale, a
    # space's attribute does not; worked out again, it counts the card
    from silvics.interpreter.primitives.expressions import cards_in
    from silvics.interpreter.state import space_key
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "yard_chips")
    entry = remembered_entry(game, "yard_chips")
    spaces = [space_key("yard", "a", column) for column in (1, 2)]
    assert set(spaces) <= entry[1].keys and entry[0] == 0
    still_good = lambda: entry[1].stamps(game.state) == entry[2]      # noqa: E731
    game.state.set_space(spaces[1], "glow", 3)
    assert still_good()
    game.state.move(game.state.zones["pile"][-1], spaces[1])
    assert not still_good()
    game.reads = set()
    assert cards_in(game, spaces) == game.state.zones[spaces[1]] and game.reads == set(spaces)


@pytest.fixture
def whole_yard(monkeypatch):
    """The yard's two spaces made a grid large enough to have whole keys (engine.Wholes)."""
    monkeypatch.setattr(engine, "WHOLE_FROM", 2)


def remembered_entry(game, definition: str):
    (entry,) = [e for k, e in game.memo.items() if isinstance(k, tuple) and k[0].startswith(definition)]
    return entry


def test_a_value_reading_a_whole_grid_reads_one_key_and_goes_stale_when_any_space_changes(
        tmp_path, whole_yard):
    # a value that read every space's attributes, or every space's cards, read the grid's one
    # key, stamped with each of theirs: stale exactly when one of theirs would have made it so
    from silvics.interpreter.state import space_key
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "glow_now")
    entry = remembered_entry(game, "glow_now")
    assert "&%yard" in entry[1].keys and not any(k.startswith("%yard") for k in entry[1].keys)
    still_good = lambda: entry[1].stamps(game.state) == entry[2]      # noqa: E731
    game.state.move(game.state.zones["pile"][-1], space_key("yard", "a", 1))
    assert still_good()                                               # the cards on a space: not read
    game.state.set_space(space_key("yard", "a", 2), "glow", 3)
    assert not still_good()
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "yard_cards")
    entry = remembered_entry(game, "yard_cards")
    assert "&yard" in entry[1].keys and not any(k.startswith("yard:") for k in entry[1].keys)
    still_good = lambda: entry[1].stamps(game.state) == entry[2]      # noqa: E731
    game.state.set_space(space_key("yard", "a", 2), "glow", 3)
    assert still_good()                                               # the attributes: not read
    game.state.move(game.state.zones["pile"][-1], space_key("yard", "a", 1))
    assert not still_good()


def test_a_guessed_world_forgets_a_value_that_read_a_whole_grid_holding_a_card_dealt_again(
        tmp_path, whole_yard):
    from silvics.interpreter.state import space_key
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "yard_cards",
                     setup="move 2 from box to pile face up", sizes=[(n, n) for n in range(1, 5)])
    key = next(k for k in game.memo if isinstance(k, tuple) and k[0].startswith("yard_cards"))
    on_yard, elsewhere = game.state.zones["pile"][-1], game.state.zones["box"][-1]
    game.state.move(on_yard, space_key("yard", "a", 2))
    game.run_procedure("record")                                    # remembered with a card on the yard
    order = list(range(len(game.state.location)))
    assert game.redealt(order, [elsewhere])._inherit(key) is not None   # no card of the yard dealt again
    assert game.redealt(order, [on_yard])._inherit(key) is None


@pytest.mark.parametrize("game_id, players, modules", [("renature", 2, ()), ("renature", 3, ("valley",))])
def test_whole_grid_keys_change_no_value_worked_out(monkeypatch, game_id, players, modules):
    """Whole games, with the board's whole keys and without: the same values worked out again,
    as often, and the same log (a whole key goes stale exactly when one of its spaces' keys would)."""
    def played(whole_from: int):
        monkeypatch.setattr(engine, "WHOLE_FROM", whole_from)
        rules, worked, logs = engine.Rules(games.load(game_id)), [], []  # rules of their own: their own wholes
        remembered = engine.Game.remembered

        def counted(game, key, work, env):
            return remembered(game, key, lambda g, e, k: (worked.append(k[0]), work(g, e, k))[1], env)

        for seed in range(3):
            game = Game(rules, players, seed, modules)
            game.remembered = counted.__get__(game)
            play_on(game, [make_agent("random", seed, seat) for seat in range(players)])
            logs.append(game.log)
        return sorted(worked), logs, game.wholes.families

    worked, logs, families = played(engine.WHOLE_FROM)
    assert families                                                        # the board has whole keys
    assert played(10**6) == (worked, logs, [])


def test_a_definition_reading_a_zone_of_each_player_is_remembered_for_each(tmp_path):
    # count(bag) reads the acting player's bag though no name in it says so: each seat its own value
    game = memo_game(tmp_path, """
        - if: you = first
          then: [move top(pile) to bag]
        - record
    """, "chips_here")
    assert game.state.counters["trace"] == 10


def test_a_game_and_its_copy_each_see_their_own_changes(tmp_path):
    # A copy shares the remembered values, and the values reading the same keys share one look
    # at their stamps: asked in turns, each game must see only the changes it made itself.
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "up_in_pile")
    other = game.copy()
    other.state.turn(other.state.zones["pile"][-1], True)
    for _ in range(2):
        game.run_procedure("record")
        other.run_procedure("record")
    assert (game.state.counters["trace"], other.state.counters["trace"]) == (222, 211)


def test_what_a_value_read_is_looked_up_again_only_once_one_of_its_keys_changed(tmp_path):
    # In the state it was looked up in (twice: it then listens to it), a value's
    # stamps are looked up again only when a key it read has been stamped since; in any other
    # state (a copy), always.
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "up_in_pile")
    entry = next(e for k, e in game.memo.items() if isinstance(k, tuple) and k[0].startswith("up_in_pile"))
    reading, state = entry[1], game.state
    looked_twice(reading, state)
    looked = reading.stamps(state)
    state.stamp("#total")                                                # nothing the value read
    assert reading.stamps(state) is looked and entry[1].stamps(state) == entry[2]
    other = game.copy()
    other.state.turn(other.state.zones["pile"][-1], True)                # a copy turns a card it read
    assert reading.stamps(other.state) != entry[2]
    assert reading.stamps(state) == entry[2]                             # the game itself: still good
    state.turn(state.zones["pile"][-1], True)
    assert reading.stamps(state) != entry[2]


def looked_twice(reading, state):
    """A Reading looked at in this state, and again once the clock has moved: it listens to the
    state from then on (Reading.stamps)."""
    reading.stamps(state)
    state.stamp("#total")
    reading.stamps(state)


def test_a_values_stamps_are_looked_up_again_only_when_its_state_tells_it_a_key_it_read_changed(tmp_path):
    # However many keys were stamped since, a Reading none of whose keys was stamped looks
    # nothing up (its stamps are the same tuple); one of them stamped among many, and the state
    # tells it so.
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "up_in_pile")
    entry = next(e for k, e in game.memo.items() if isinstance(k, tuple) and k[0].startswith("up_in_pile"))
    reading, state = entry[1], game.state
    looked_twice(reading, state)
    looked = reading.stamps(state)
    for _ in range(100):
        state.stamp("#total")                                            # nothing the value read
    assert reading.stamps(state) is looked and looked == entry[2]        # nothing looked up, still good
    for _ in range(50):
        state.stamp("#total")
    state.turn(state.zones["pile"][-1], True)                            # among many, a card it read
    for _ in range(50):
        state.stamp("#total")
    assert reading.stamps(state) != entry[2]
    other = game.copy()
    for _ in range(5):
        other.state.stamp("#total")
        reading.stamps(other.state)
        state.stamp("#total")
        reading.stamps(state)
    # looked at in turns, it is looked up each time; the game, which told it before, holds it
    # once for each key, and the copy, never asked twice in a row, not at all (nor does it pay
    # for telling it: as a search's worlds, asked once of most values)
    assert sum(reading in readers for readers in state.readers.values()) == len(reading.keys)
    assert not any(reading in readers for readers in other.state.readers.values())
    looked_twice(reading, state)                                         # told again: still once a key
    assert sum(reading in readers for readers in state.readers.values()) == len(reading.keys)
    assert reading.stamps(state) == tuple(map(state.stamps.get, reading.keys))
    assert reading.stamps(other.state) == tuple(map(other.state.stamps.get, reading.keys))


def test_a_value_worked_out_again_keeps_the_reading_of_the_same_keys_and_takes_another_for_others(tmp_path):
    # A value gone stale and worked out again, reading the keys it read before, keeps their
    # Reading: it is not looked up in the memo again (taken out of it here, it is still kept);
    # reading others, it takes theirs.
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "up_in_pile")
    key = next(k for k in game.memo if isinstance(k, tuple) and k[0].startswith("up_in_pile"))
    first = game.memo[key][1]
    del game.memo[first.keys]
    game.state.turn(game.state.zones["pile"][-1], True)                  # stale: a card it read turns
    asked = game.remembered(key, lambda g, env, k: g.pile("pile") and 7, {})
    assert asked == 7 and game.memo[key][1] is first and game.memo[key][0] == 7
    game.state.turn(game.state.zones["pile"][-1], False)
    asked = game.remembered(key, lambda g, env, k: len(g.pile("bag")), {})  # reading another pile
    assert game.memo[key][1] is not first and "pile" not in game.memo[key][1].keys
    assert game.memo[key][1] is game.memo[game.memo[key][1].keys]       # the memo holds it under its keys


def top_size(world) -> int:
    return world.attribute(world.state.zones["deck"][-1], "size")


@pytest.mark.parametrize("definition, setup, guessed", [
    ("top_size", "move box to deck", top_size),
    ("deck_top_size", "move box to deck", top_size),
    ("big_in_deck", "move 3 from box to deck",        # the others stay in the box, unseen too
     lambda world: sum(world.attribute(uid, "size") > 3 for uid in world.state.zones["deck"])),
])
def test_a_guessed_world_forgets_what_was_worked_out_in_the_real_one(tmp_path, definition, setup, guessed):
    # A world shows other cards where the seat cannot see: what was worked out from them in
    # the real game must not be reused, whether it read them from a pile holding them or was
    # handed one (Game.redealt).
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", definition, setup=setup,
                     sizes=[(n, n) for n in range(1, 7)])
    real = game.state.counters["trace"]
    differed = 0
    for seed in range(6):
        world = game.observe(0).sample(random.Random(seed))
        world.run_procedure("record")
        assert world.state.counters["trace"] == 10 * real + guessed(world)
        differed += guessed(world) != real
    assert world.memo is not game.memo and differed


def test_a_guessed_world_keeps_what_holds_in_any_deal(tmp_path):
    # A value that read only piles of cards the seat sees holds however the rest is dealt: a
    # search's worlds take it from the real game rather than work it out again, each its own copy.
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "up_in_pile",
                     setup="move 3 from box to pile face up", sizes=[(n, n) for n in range(1, 7)])
    assert game.state.zones["box"]                                       # cards seat 0 cannot see
    (key, entry), = [(k, e) for k, e in game.memo.items() if isinstance(k, tuple) and k[0].startswith("up_in_pile")]
    world = game.observe(0).sample(random.Random(1))
    world.run_procedure("record")
    assert world.state.counters["trace"] == 33 and world.memo is not game.memo and world.memo[key] is entry
    world.state.turn(world.state.zones["pile"][-1], True)              # the world's own change
    world.run_procedure("record")
    assert world.state.counters["trace"] == 332 and world.memo[key] is not entry
    assert game.memo[key] is entry and entry[0] == 3


@pytest.mark.parametrize("game_id, players, modules", [
    ("forest-shuffle", 2, ()), ("renature", 2, ("valley",)), ("reforest", 3, ("terrain", "events")),
])  # (Four Forests remembers next to nothing a world could keep)
def test_a_world_that_kept_values_plays_as_one_that_worked_out_everything(game_id, players, modules):
    """Worlds sampled along a game, each played to its end twice from the same deal and seed:
    with the values it kept from the real game (Game.redealt) and from the decision's worlds
    played before it, and with none. The same choices, log and scores."""
    from silvics.interpreter.views import shuffled_unseen, unseen_cards
    # rules of their own, remembering every definition (engine.Worth judged, nothing skipped): what
    # the worlds may keep does not hang on which games the process played before
    rules = engine.Rules(games.load(game_id), modules)
    rules.worth.left = 0
    rules.worth.skip(frozenset())
    game = Game(rules, players, 4)
    agents = [make_agent("random", 4, seat) for seat in range(players)]
    kept = shared = decision = 0
    while not game.over:
        if decision % 9 == 0:
            seat = game.pending.seat
            unseen = unseen_cards(game, seat)
            for deal in range(2):   # the second world may take values the first worked out
                order = shuffled_unseen(game, seat, random.Random(decision * 2 + deal), unseen)
                worlds = [game.redealt(order, unseen),
                          Game(game.rules.dealt(order), players, _state=game.state.copy(), _memo={})]
                for world in worlds:
                    world.state.reseed(decision)
                    play_on(world, [make_agent("random", decision, s) for s in range(players)])
                kept += sum(entry is game.memo.get(key) for key, entry in worlds[0].memo.items())
                if deal:
                    shared += sum(entry is first_world.memo.get(key) and entry is not game.memo.get(key)
                                  for key, entry in worlds[0].memo.items())
                first_world = worlds[0]
                first, second = ((w.state.choices, w.state.log, w.state.scores) for w in worlds)
                assert first == second
        decide(game, agents)
        decision += 1
    assert kept and shared


def _log(ir, players, seed, modules=()):
    game = Game(ir, players, seed, modules)
    play_on(game, [make_agent("random", seed, seat) for seat in range(players)])
    return "\n".join(game.log)


def test_a_filter_by_a_remembered_definition_asks_again_only_what_a_change_touched(tmp_path, monkeypatch):
    # `yard where lit(it)`: once one space's glow is set, only that space's value is worked out
    # again (Game.kept); a copy starts from the answers of the game it was made from, asks only
    # the space it changed, and keeps its answers apart from that game's
    from silvics.interpreter.state import space_key
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "lit_now")
    assert game.state.counters["trace"] == 0
    asked = []
    remembered = engine.Game.remembered
    monkeypatch.setattr(engine.Game, "remembered", lambda self, key, work, env: (
        asked.append(key[1]) if key[0].startswith("lit#") else None, remembered(self, key, work, env))[1])
    game.state.set_space(space_key("yard", "a", 2), "glow", 3)
    other = game.copy()
    other.state.set_space(space_key("yard", "a", 1), "glow", 5)
    game.run_procedure("record")
    assert game.state.counters["trace"] == 1 and asked == [space_key("yard", "a", 2)]
    other.run_procedure("record")
    assert other.state.counters["trace"] == 2 and asked[1:] == [space_key("yard", "a", 1)]
    game.run_procedure("record")
    assert game.state.counters["trace"] == 11 and len(asked) == 2       # its own answers, nothing asked


def test_a_guessed_world_takes_a_filters_answers_and_asks_again_only_what_may_differ(tmp_path, monkeypatch):
    # `yard where lit(it)` in a world: the real game's last answers, the spaces asked again only
    # where the world changed what they read, or where they read a pile holding a card dealt
    # again; a copy takes the answers of the game it was made from as they stood then
    from silvics.interpreter.state import space_key
    game = memo_game(tmp_path, "- if: you = first\n  then: [record]", "lit_now",
                     setup="move 2 from box to pile face up", sizes=[(n, n) for n in range(1, 5)])
    game.run_procedure("record")                                         # answered, then the trace stamped
    asked = []
    remembered = engine.Game.remembered
    monkeypatch.setattr(engine.Game, "remembered", lambda self, key, work, env: (
        asked.append(key[1]) if key[0].startswith("lit#") else None, remembered(self, key, work, env))[1])
    order = list(range(len(game.state.location)))
    in_box, in_pile = game.state.zones["box"][-1], game.state.zones["pile"][-1]
    world = game.redealt(order, [in_box])
    world.run_procedure("record")
    assert asked == [] and world.state.counters["trace"] == game.state.counters["trace"] * 10
    world.state.set_space(space_key("yard", "a", 2), "glow", 3)
    world.run_procedure("record")
    assert asked == [space_key("yard", "a", 2)] and world.state.counters["trace"] % 10 == 1
    copy = world.copy()
    copy.state.set_space(space_key("yard", "a", 1), "glow", 5)
    world.state.set_space(space_key("yard", "a", 2), "glow", 0)       # the world goes on: not the copy's
    copy.run_procedure("record")
    assert asked[1:] == [space_key("yard", "a", 1)] and copy.state.counters["trace"] % 10 == 2
    world.run_procedure("record")
    assert asked[2:] == [space_key("yard", "a", 2)] and world.state.counters["trace"] % 10 == 0
    dealt_on_pile = game.redealt(order, [in_pile])                       # lit(s) reads the pile
    dealt_on_pile.run_procedure("record")
    assert asked[3:] == list(game.rules.grid_spaces("yard", None))


@pytest.mark.parametrize("game_id, players, modules, seeds", [
    ("renature", 2, ("valley",), range(2)),                              # filters over the board: Game.kept
    ("reforest", 1, ("hard",), range(2)),
    ("reforest", 2, ("terrain", "events"), range(3)),
    ("reforest", 4, (), range(2)),
    ("four-forests", 3, ("experienced",), range(5)),
])
def test_remembering_changes_no_move(monkeypatch, game_id, players, modules, seeds):
    ir = games.load(game_id)
    remembered = [_log(ir, players, seed, modules) for seed in seeds]
    monkeypatch.setattr(engine.Game, "remembered", lambda self, key, work, env: work(self, env, key))
    assert [_log(ir, players, seed, modules) for seed in seeds] == remembered


@pytest.mark.parametrize("game_id", ["reforest", "renature"])
def test_a_definitions_first_parts_that_go_through_no_collection_are_worked_out_at_each_use(
        monkeypatch, game_id):
    # Reforest's `one_old_growth(c, s)`, "c.class != old-growth or count(plants(s) where class =
    # old-growth) = 0": the class is read at each use and only the count is remembered, once a
    # space (expressions._lead_apart). The games are those of the definitions remembered whole,
    # byte for byte, and those of the rest not worth remembering (worked out whole at once).
    from silvics.interpreter import codecache
    from silvics.interpreter.codegen import Module
    from silvics.interpreter.primitives import expressions
    ir = games.load(game_id)

    def played(skipped=frozenset()) -> tuple[list[str], set]:
        rules = engine.Rules(ir)                     # a Worth of its own: judged as told
        rules.worth.left = 0
        rules.worth.skip(frozenset(skipped))
        asked, remembered = set(), engine.Game.remembered
        monkeypatch.setattr(engine.Game, "remembered",
                            lambda self, key, work, env: (asked.add(key), remembered(self, key, work, env))[1])
        logs = [_log(rules, 2, seed) for seed in range(3)]
        monkeypatch.setattr(engine.Game, "remembered", remembered)
        return logs, asked

    apart, asked = played()
    rests = {key[0] for key in asked if key[0].endswith(".rest")}
    assert rests                                    # some definitions are worked out so
    if game_id == "reforest":
        [rest] = [token for token in rests if token.startswith("one_old_growth#")]
        assert {len(key) for key in asked if key[0] == rest} == {2}             # keyed by the space alone
        assert not {key for key in asked if key[0] == rest.removesuffix(".rest")}  # the whole never
    whole_at_once, asked = played(rests)            # the rest not worth it: the whole worked out at once
    assert whole_at_once == apart and not {key for key in asked if key[0] in rests}
    monkeypatch.setattr(expressions, "_lead_apart", lambda node: node.args["body"])
    monkeypatch.setattr(codecache, "module_for", lambda ir, modules, label: Module(label))  # (not cached)
    whole, asked = played()
    assert not {key for key in asked if key[0].endswith(".rest")}
    assert whole == apart


def test_a_value_worked_out_from_the_state_alone_must_hold_more_often_to_be_remembered():
    # Four Forests asks for each creature's votes for and against twice, in a state changed in
    # between (its prestige set): they hold half the times, and are worked out from the piles
    # alone, asking for no other remembered value: not worth remembering. Its games ask for few
    # values (16 a game): the sampling ends as the game after the SAMPLED_GAMES-th begins.
    rules = engine.Rules(games.load("four-forests"))
    worth = rules.worth
    for seed in range(engine.SAMPLED_GAMES):
        _log(rules, 2, seed)
    assert worth.left > 0 and not worth.skipped
    Game(rules, 2, 99)
    assert worth.left == 0 and {token.split("#")[0] for token in worth.skipped} == {"votes_for", "votes_against"}
    for token in worth.skipped:
        asked, good = worth.asked[token]
        assert token not in worth.compound and engine.WORTH * asked <= good < engine.PLAIN_WORTH * asked
    # Reforest's playable holds as seldom, but asks for its spaces' plants, its prices …: kept
    rules, seed = engine.Rules(games.load("reforest")), 0
    worth = rules.worth
    while worth.left > 0:
        _log(rules, 2, seed)
        seed += 1
    playable = next(token for token in worth.asked if token.startswith("playable#"))
    asked, good = worth.asked[playable]
    assert good < engine.PLAIN_WORTH * asked and playable in worth.compound and playable not in worth.skipped
    # what reacts to the plant just grown is keyed by it: never asked again, never held, and
    # asked too seldom to be judged with the others; it is not remembered
    reacting = next(token for token in worth.asked if token.startswith("reacting#"))
    asked, good = worth.asked[reacting]
    assert engine.NEVER_HELD <= asked < engine.JUDGED and good == 0 and reacting in worth.skipped


@pytest.mark.parametrize("game_id", ["forest-shuffle", "reforest"])  # (Renature's are all worth it now)
def test_a_definition_seldom_still_good_is_worked_out_afresh_and_plays_the_same(game_id):
    # the first games of a set of rules count how often each remembered value still holds when
    # asked again (engine.Worth); those that seldom do are then worked out afresh, which changes
    # no move: games played so, and with every definition remembered, give the same log
    rules = engine.Rules(games.load(game_id))                 # rules of their own: a Worth of their own
    worth, seed = rules.worth, 100
    while worth.left > 0:
        _log(rules, 2, seed)
        seed += 1
    assert worth.skipped                                      # Forest Shuffle's placeable, Reforest's funds …
    for token in worth.skipped:
        asked, good = worth.asked[token]
        least = engine.WORTH if token in worth.compound else engine.PLAIN_WORTH
        assert token not in worth.filtering
        assert (asked >= engine.JUDGED and good < least * asked) or (asked >= engine.NEVER_HELD and good == 0)
    assert any(good >= engine.WORTH * asked for asked, good in worth.asked.values())   # the rest stay
    skipping = [_log(rules, 2, seed) for seed in range(2)]
    skipped = worth.skipped
    worth.skip(frozenset())
    assert [_log(rules, 2, seed) for seed in range(2)] == skipping
    remembered = engine.Game.remembered

    def asked_in_a_game() -> tuple[Game, set]:
        asked = set()

        def counted(game, key, work, env):
            asked.add(key[0])
            return remembered(game, key, work, env)

        game = Game(rules, 2, 5)
        game.remembered = counted.__get__(game)
        play_on(game, [make_agent("random", 5, seat) for seat in range(2)])
        return game, asked

    assert asked_in_a_game()[1] & skipped            # the game uses them: asked while all are remembered
    worth.skip(skipped)
    game, asked = asked_in_a_game()
    assert not {key for key in game.memo if isinstance(key, tuple) and key[0] in skipped}   # none kept
    assert not asked & skipped                      # worked out at once, `remembered` not even asked


def test_filter_answers_shared_with_a_copy_change_on_one_side_only():
    # a copy's filter answers share each key's readers with the answers they came from (Game.kept):
    # whichever side then asks an item again, and finds it read other keys, changes its own sets
    from silvics.interpreter.game import Reading, _Kept
    lender = _Kept(("s1", "s2"), serial=1)
    for at, keys in enumerate([frozenset({"a", "b"}), frozenset({"b"})]):
        lender.read_by(at, [True, Reading(keys)])
    borrower = lender.copied(serial=2)
    lender.read_by(0, [True, Reading(frozenset({"a", "c"}))])          # item 0 reads c now, not b
    borrower.read_by(1, [True, Reading(frozenset({"a"}))])              # item 1 reads a now, not b
    assert lender.readers == {"a": {0}, "b": {1}, "c": {0}}
    assert borrower.readers == {"a": {0, 1}, "b": {0}}


def test_a_key_names_a_hidden_card_however_deep_it_lies():
    """A world neither takes nor shares a value whose key names a card dealt again: a definition
    given a list of cards is keyed by a tuple of them, perhaps within another."""
    hidden = frozenset({7, 9})
    assert engine._names_any(("total#5", 7), hidden)
    assert engine._names_any(("best#2", "board:r1.1", (3, (4, 9))), hidden)
    assert not engine._names_any(("best#2", "board:r1.1", (3, (4, 8)), "7"), hidden)   # the word "7" is no card


def test_an_interrupt_reading_a_whole_grid_is_alarmed_by_a_card_moving_onto_any_space(tmp_path, whole_yard):
    # the interrupt's condition reads the yard through a remembered value, so what it watches is
    # the grid's one key: a card moving onto a space stamps that space and, with it, the whole
    # key (State._stamp_wholes), which must raise the alarm (the space's own key is not watched)
    from silvics.interpreter.state import space_key
    (tmp_path / "game.yaml").write_text((RULES % ("move box to pile face up", "        - record", "1")).replace(
        "define:", "interrupts:\n  - when: yard_cards > 0\n    do: [add 100 to total]\ndefine:"))
    (tmp_path / "cards.yaml").write_text(chips(((1, 5), (1, 5))))
    game = Game(compile_game(tmp_path), 2, 0)
    play_on(game, [ScriptedAgent([])] * 2)
    state = game.state
    assert not state.alarm and "&yard" in state.alarming and space_key("yard", "a", 1) not in state.alarming
    state.move(state.zones["pile"][-1], space_key("yard", "a", 1))
    assert state.alarm


@pytest.mark.parametrize("cached", [True, False], ids=["code from the cache", "code generated afresh"])
def test_a_definition_judged_not_worth_remembering_is_skipped_by_the_games_of_those_rules_alone(monkeypatch, cached):
    # the judgement is a flag of the rules' generated code (Module.forgetting), which each use of
    # the definition tests; rules made apart have code of their own: the games of one set of rules
    # work the definition out at once, those of the other still ask. Code read back from the cache
    # finds each definition's flag by its table (FORGETTING); code generated afresh made it
    from silvics.interpreter import codecache
    from silvics.interpreter.codegen import Module
    ir = games.load("reforest")
    other = engine.Rules(ir)                         # (the code cached, if it was not yet)
    if not cached:
        monkeypatch.setattr(codecache, "module_for", lambda ir, modules, label: Module(label))
    judged = engine.Rules(ir)
    assert judged.code.replayed == cached
    asked: list[str] = []
    remembered = engine.Game.remembered
    monkeypatch.setattr(engine.Game, "remembered",
                        lambda self, key, work, env: (asked.append(key[0]), remembered(self, key, work, env))[1])

    def asks(rules, token=None) -> list[str]:
        asked.clear()
        game = Game(rules, 2, 3)
        play_on(game, [make_agent("random", 3, seat) for seat in range(2)])
        return [found for found in asked if token in (None, found)]

    token = next(found for found in asks(other) if found.startswith("plants#"))
    judged.worth.left = 0
    judged.worth.skip(frozenset({token}))
    assert not asks(judged, token)                   # a game's rules are dealt from these: the same code
    assert asks(other, token)
    judged.worth.skip(frozenset())                   # judged again: asked again
    assert asks(judged, token)
