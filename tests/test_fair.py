"""Fair agents: an agent decides from its seat's observation, and the worlds a search agent
samples from it know nothing the seat may not. A game where peeking pays (Guess) shows that
no agent does better than honest play; real positions of the bundled games show that cards
resampled in a world keep what lies on their place (votes' stances, stored energy face
down), that an observation says the same whatever the cards its seat cannot see, and that
nothing public leads from an observation to the game."""
from __future__ import annotations

import dataclasses
import math
import random
import re
from pathlib import Path

import pytest

from silvics import games, saves
from silvics.interpreter import game as game_module
from silvics.interpreter import simulate
from silvics.interpreter.agents import AGENTS, decide, make_agent, play_on
from silvics.interpreter.game import Game, Rules, compiled_rules
from silvics.interpreter.observation import Observation, StaleObservation
from silvics.interpreter.runtime import Choice, Frame
from silvics.interpreter.state import Said, State, written
from silvics.interpreter.views import MOVING, in_sight, seen_log, shuffled_unseen, visible

GUESS = Path(__file__).parent / "fixtures" / "games" / "guess"


# ---- a game where peeking pays ----

class Peeker:
    """Cheats on purpose: reads the real game and names the colour of the secret card, to show
    that the test below catches an agent that knows what it should not."""
    name = "peeker"

    def __init__(self, game):
        self.game = game

    def choose(self, observation) -> int:
        secret = self.game.state.stack[-1].env["secret"]
        return observation.labels.index(self.game.attribute(secret, "colour"))


def right_guesses(agent_name: str, games_played: int = 40) -> tuple[int, int]:
    """(right guesses, guesses) of an agent over seeded games of Guess, alone at the table."""
    ir, right, asked = games.load(str(GUESS)), 0, 0
    for seed in range(games_played):
        game = Game(ir, 1, seed)
        agent = Peeker(game) if agent_name == "peeker" else make_agent(agent_name, seed, 0)
        play_on(game, [agent])
        right += game.state.scores[0]
        asked += sum(1 for entry in game.state.log if entry[0] == "choice")
    return right, asked


def honest_bound(guesses: int) -> float:
    """Three standard deviations above half the guesses: honest play (each guess right with
    probability 1/2, whatever the agent knows) exceeds it with a chance of about 0.13%. The
    seeds are fixed, so the test never flickers; the bound says how far from chance an agent
    has to be before it fails (a peeker is 170 right guesses above it)."""
    return guesses / 2 + 3 * math.sqrt(guesses / 4)


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_no_agent_guesses_a_hidden_card_better_than_chance(agent):
    # Before agents decided from observations, `secret` (bound before the choice) named the real
    # top card in every guessed world: greedy guessed right 400 times in 400, montecarlo 386.
    right, asked = right_guesses(agent)
    assert asked == 400
    assert right <= honest_bound(asked), f"{agent} guessed right {right} times in {asked}: it sees the hidden card"


class Rebuilder:
    """Cheats on purpose: builds the game again from the seed it is given, makes the same
    choices in it, and reads the secret card there: right every time, if it is given the game's seed."""
    name = "rebuilder"

    def __init__(self, seed: int, seat: int):
        self.rng, self.again = random.Random(seed), Game(games.load(str(GUESS)), 1, seed)

    def choose(self, observation) -> int:
        again = self.again
        index = observation.labels.index(again.attribute(again.state.stack[-1].env["secret"], "colour"))
        again.apply(index)
        return index


DRIVERS = {   # a game of Guess played by the named agent, as each command makes its agents
    "simulate": lambda ir, seed, name: simulate.play_and_record(ir, 1, seed, [name]).scores[0],
    "play (a saved game)": lambda ir, seed, name: saves.Session.new(ir, str(GUESS), 1, seed, (), {}, [name])
    .play().state.scores[0],
}


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_an_agent_cannot_build_the_game_again_from_its_seed(driver, monkeypatch):
    # Agents were made with the game's seed: this cheat guessed right 400 times in 400.
    monkeypatch.setitem(AGENTS, Rebuilder.name, Rebuilder)
    ir = games.load(str(GUESS))
    right = sum(DRIVERS[driver](ir, seed, Rebuilder.name) for seed in range(40))
    assert right <= honest_bound(400), f"right {right} times in 400: the agent knows the game's seed"


class Replayer:
    """Cheats on purpose: samples a world with a generator it copied first, deals that world
    again from the copy to learn which card each unseen card was given the printed card of,
    and so reads what the secret card really is, if a world's deal is the real one reshuffled."""
    name = "replayer"

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(seed)

    def choose(self, observation) -> int:
        copied = random.Random()
        copied.setstate(self.rng.getstate())
        world = observation.sample(self.rng)
        secret = world.state.stack[-1].env["secret"]
        order = shuffled_unseen(world, observation.seat, copied)
        shows = world.rules.defs[order.index(secret)]      # real card `secret` is what this one shows
        return observation.labels.index(shows.sides[0].attributes["colour"])


def test_a_world_is_dealt_from_what_its_seat_knows_and_nothing_of_the_real_deal():
    # Worlds once dealt the real cards of the unseen places among them, in an order an agent
    # can replay from its own generator: this cheat guessed right 400 times in 400.
    ir, right, asked = games.load(str(GUESS)), 0, 0
    for seed in range(40):
        game = Game(ir, 1, seed)
        play_on(game, [Replayer(seed, 0)])
        right, asked = right + game.state.scores[0], asked + 10
    assert right <= honest_bound(asked), f"right {right} times in {asked}: a world tells the real deal"


def test_the_bound_catches_an_agent_that_peeks():
    right, asked = right_guesses("peeker")
    assert right == asked > honest_bound(asked)


# ---- what a card's uid says ----

def canonical_table(ir) -> list:
    """The game's cards in the order the rules print them, copies expanded: any compile of the
    game gives this table, the same in every game."""
    return [card for card in ir.cards for _ in range(card.copies)]


CHEATS = {   # a table of the cards, made from a sampled world: uid -> CardDef
    "the IR's cards": lambda world: canonical_table(world.rules.ir),
    "the rules compiled again": lambda world: compiled_rules(world.rules.ir, world.rules.modules,
                                                             world.rules.options).defs,
}


class UidReader:
    """Cheats on purpose: takes the uid the secret card is bound to in a sampled world (worlds
    keep every card where it is) and looks it up in a table of the game's cards it makes itself."""

    def __init__(self, table, seed: int):
        self.table, self.rng = table, random.Random(seed)

    def choose(self, observation) -> int:
        world = observation.sample(self.rng)
        card = self.table(world)[world.state.stack[-1].env["secret"]]
        return observation.labels.index(card.sides[0].attributes["colour"])


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_a_cards_uid_does_not_say_which_card_it_is(cheat):
    # Before each game dealt uids at random, uid n was the n-th card of the IR in every game:
    # this cheat guessed right 1000 times in 1000. One deal of uids serves a whole game, so its
    # guesses within a game stand or fall together: the games are the trials.
    ir, right_games = games.load(str(GUESS)), 0
    for seed in range(100):
        game = Game(ir, 1, seed)
        play_on(game, [UidReader(CHEATS[cheat], seed)])
        right_games += game.state.scores[0] / 10
    assert right_games <= honest_bound(100), f"right in {right_games} games of 100: a uid names its card"


def test_each_game_deals_its_uids_at_random_and_the_same_cards_as_before(four_forests, monkeypatch):
    played = {seed: Game(four_forests, 3, seed) for seed in (1, 2)}
    assert [card.id for card in played[1].rules.defs] != [card.id for card in played[2].rules.defs]
    assert sorted(map(id, played[1].rules.defs)) == sorted(map(id, canonical_table(four_forests)))
    monkeypatch.setattr(game_module, "secret_order", lambda count, seed: list(range(count)))   # uid n: card n
    for seed, game in played.items():
        before = Game(four_forests, 3, seed)
        assert before.rules.defs == canonical_table(four_forests)
        assert zones_by_id(game) == zones_by_id(before) and game.log == before.log
        assert game.pending.labels == before.pending.labels


def zones_by_id(game) -> dict:
    """Every zone's cards by id, bottom first."""
    return {key: [game.card_id(uid) for uid in pile] for key, pile in game.state.zones.items()}


# ---- positions of the bundled games ----

def paused(game_id: str, players: int, seed: int, until, modules=()) -> Game:
    """A game between random agents, paused at the first decision where `until(game)` holds."""
    game = Game(games.load(game_id), players, seed, modules)
    agents = [make_agent("random", seed, seat) for seat in range(players)]
    while not until(game):
        assert not game.over, "the game ended before the position looked for"
        decide(game, agents)
    return game


def votes_cast(game) -> bool:
    """Four Forests: every seat has voted at least once."""
    voters = {game.state.placer[uid] for key, pile in game.state.zones.items() if key.startswith("votes/")
              for uid in pile}
    return len(voters) == game.state.players


def energy_stored(game) -> bool:
    """Reforest: some card lies face down in a region (stored energy) and some card the other
    seat cannot see lies face up (drawn from the nursery into a hand), so swapping cards
    rather than what they show would turn stored energy face up."""
    state = game.state
    stored = [uid for key, pile in state.zones.items() if key.startswith("region:") for uid in pile
              if state.facedown[uid]]
    return any(not state.facedown[uid] and not visible(game, 1 - state.placer[energy], uid)
               for energy in stored for uid in range(len(state.location)))


POSITIONS = {
    "four-forests after votes": ("four-forests", 3, 4, votes_cast),
    "reforest with stored energy": ("reforest", 2, 1, energy_stored),
}


@pytest.fixture(scope="module", params=sorted(POSITIONS))
def position(request):
    game_id, players, seed, until = POSITIONS[request.param]
    return paused(game_id, players, seed, until)


def lies(game, uid: int) -> tuple:
    """Everything about a card's place: zone, place in it, face, side, placer, marks."""
    state = game.state
    key = state.location[uid]
    return key, state.zones[key].index(uid), state.facedown[uid], state.side[uid], state.placer[uid], state.marks[uid]


def test_sampled_worlds_change_what_unseen_cards_show_and_nothing_else(position):
    game, cards = position, range(len(position.state.location))
    for seat in range(game.state.players):
        observation = game.observe(seat)
        for number in range(8):
            world = observation.sample(random.Random(number))
            assert [lies(world, uid) for uid in cards] == [lies(game, uid) for uid in cards]
            assert world.state.stack[-1].env == game.state.stack[-1].env    # names stay bound to their places
            assert not world.state.conservation_errors()
            for uid in cards:
                if visible(game, seat, uid):
                    assert world.card_id(uid) == game.card_id(uid)
                else:
                    assert world.rules.defs[uid].kind == game.rules.defs[uid].kind
            assert sorted(map(world.card_id, cards)) == sorted(map(game.card_id, cards))


def test_a_vote_keeps_its_stance_and_stored_energy_stays_face_down_in_every_world(position):
    # Before, guessed worlds swapped the cards themselves: a vote's stance (a mark) went with
    # the card to wherever it was swapped, and a card drawn face up into a hand could take the
    # place of stored energy, face up for all to see.
    game = position
    state = game.state
    tucked = [uid for key, pile in state.zones.items() if key.startswith(("votes/", "region:")) for uid in pile
              if state.facedown[uid]]
    assert tucked
    for seat in range(state.players):
        for number in range(20):
            world = game.observe(seat).sample(random.Random(number))
            for uid in tucked:
                assert world.state.facedown[uid] and world.state.marks[uid] == state.marks[uid]
                assert [visible(world, s, uid) for s in range(state.players)] == \
                       [visible(game, s, uid) for s in range(state.players)]


def twin(game, seat: int, seed: int) -> Game:
    """The same game in which the cards `seat` cannot see show other cards, log and all."""
    order = shuffled_unseen(game, seat, random.Random(seed))
    assert any(order[uid] != uid and game.card_id(order[uid]) != game.card_id(uid) for uid in range(len(order)))
    return game.redealt(order)


def seen(observation: Observation) -> dict:
    """All an observation says, in words."""
    return {"zones": {label: [str(card) for card in cards] for label, cards in observation.zones.items()},
            "question": (observation.deciding, observation.prompt, observation.labels, observation.option_count,
                         observation.still),
            "table": (observation.counters, observation.scores, observation.markers, observation.players),
            "log": observation.log}


@pytest.mark.parametrize("game_id, players, modules", [("four-forests", 3, ("experienced",)),
                                                       ("reforest", 2, ("terrain", "events"))])
def test_an_observation_says_the_same_whatever_the_cards_its_seat_cannot_see(game_id, players, modules):
    game = Game(games.load(game_id), players, 5, modules)
    agents = [make_agent("random", 5, seat) for seat in range(players)]
    decision = 0
    while not game.over:
        if decision % 12 == 0:
            for seat in range(players):
                assert seen(twin(game, seat, decision).observe(seat)) == seen(game.observe(seat))
        decide(game, agents)
        decision += 1


def test_a_card_passed_on_is_named_to_its_giver_and_taker_and_no_one_else(four_forests):
    game = paused("four-forests", 3, 2, lambda g: g.pending.prompt == "pollinate: choose card")
    passing = [game.pending.options[0]]
    game.apply(0)
    giver, taker = 0, 1
    while game.pending.prompt == "pollinate: choose card":      # the others pass theirs
        game.apply(0)
    name = game.card_id(passing[0])
    picked = [line for line in game.observe(giver).log if line.startswith(f"choice P{giver + 1} pollinate")]
    assert picked == [f"choice P{giver + 1} pollinate: choose card: {name}"]
    assert f"move {name} -> hand@{taker + 1}" in game.observe(taker).log
    third = "\n".join(game.observe(2).log)
    assert f"choice P{giver + 1} pollinate: choose card: a hidden card from hand@{giver + 1}" in third
    assert f"move ? -> hand@{taker + 1}" in third


def test_every_change_of_place_or_face_is_logged_on_a_line_that_names_the_card():
    # The log as a seat reads it is worked out backwards (views.seen_log): a card no later line
    # moves or turns lies where it lay. That holds only if every such change names its card.
    for game_id, players, modules in [("four-forests", 3, ("experienced",)), ("reforest", 2, ("terrain", "events"))]:
        game = Game(games.load(game_id), players, 3, modules, start=False)
        before = {"lay": None, "lines": 0}

        def check(g):
            state = g.state
            now = list(zip(state.location, state.facedown, state.placer))
            if before["lay"] is not None:
                changed = {uid for uid, (old, new) in enumerate(zip(before["lay"], now)) if old != new}
                named = {uid for what, uids, _ in state.log[before["lines"]:] if what in MOVING for uid in uids}
                assert changed <= named, (changed - named, state.log[before["lines"]:])
            before["lay"], before["lines"] = now, len(state.log)
        game.on_step = check
        for name in ("setup", "play", "scoring"):
            game.start_procedure(name)
            play_on(game, [make_agent("random", 3, seat) for seat in range(players)])


def _seen_log_afresh(game, seat: int) -> list[str]:
    """The log as `seat` reads it, written from the first line (views.seen_log's definition; the
    engine keeps it up to date line by line instead)."""
    state, lines, later = game.state, [], set()

    def name(uid: int) -> str:
        sees = uid not in later and in_sight(game.rules, seat, state.location[uid], state.facedown[uid], state.placer[uid])
        return game.card_id(uid) if sees else "?"

    def label(key: str) -> str:
        return game.zone_label(key, name)
    for what, uids, detail in reversed(state.log):
        if isinstance(detail, Said) and detail.seat != seat and detail.card is not None \
                and not in_sight(game.rules, seat, *detail.lay):
            detail = detail.heard(label(detail.lay[0]))
        lines.append(written(what, uids, detail, name, label))
        if what in MOVING:
            later.update(uids)
    return lines[::-1]


@pytest.mark.parametrize("game_id, players, modules", [
    ("four-forests", 3, ("experienced",)), ("reforest", 2, ("terrain", "events")),
    ("forest-shuffle", 3, ("woodland-edge", "special-caves")), ("renature", 2, ("valley",)),
    (str(GUESS), 2, ()),
])
def test_the_log_kept_per_seat_reads_as_written_afresh(game_id, players, modules):
    # seat 1 reads the log after every action, the others every 9th (longer stretches of new
    # lines): each reading must be the one written from the first line
    for seed in range(2):
        game = Game(games.load(game_id), players, seed, modules, start=False)
        steps = []

        def check(g):
            steps.append(None)
            for seat in range(players):
                if seat == 0 or len(steps) % 9 == 0:
                    kept = seen_log(g, seat)
                    if len(steps) % 9 == 0:
                        assert kept == _seen_log_afresh(g, seat), (seat, len(steps))
        game.on_step = check
        for name in ("setup", "play", "scoring"):
            game.start_procedure(name)
            play_on(game, [make_agent("random", seed, seat) for seat in range(players)])
        assert len(steps) > 20
        for seat in range(players):
            assert seen_log(game, seat) == _seen_log_afresh(game, seat)


def test_the_log_kept_per_seat_sees_a_card_moved_without_a_line():
    # a position laid out by hand (silvics.position) moves cards without writing a line: the
    # kept reading must still follow where each card lies now
    game, agents = Game(games.load("four-forests"), 2, 4), [make_agent("random", 4, seat) for seat in range(2)]
    while len(game.state.log) < 60:
        decide(game, agents)
    before = seen_log(game, 0)
    named = [uid for uid in range(len(game.state.location)) if game.card_id(uid) in " ".join(before)
             and visible(game, 0, uid) and game.state.location[uid] != "deck"]
    game.state.move(named[0], "deck", facedown=True)
    assert seen_log(game, 0) == _seen_log_afresh(game, 0) != before


# ---- the observation itself ----

ENGINE = (Game, State, Rules, Choice, Frame)


def reachable(value, seen_ids=None, path="observation"):
    """Everything reachable from a value through public names: attributes not starting with _,
    items of containers, fields of dataclasses and named tuples (paths, for the message)."""
    seen_ids = set() if seen_ids is None else seen_ids
    if id(value) in seen_ids or isinstance(value, (str, int, float, bool, type(None))):
        return
    seen_ids.add(id(value))
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from reachable(key, seen_ids, f"{path} key")
            yield from reachable(item, seen_ids, f"{path}[{key!r}]")
    elif isinstance(value, (list, tuple, set, frozenset)):
        for index, item in enumerate(value):
            yield from reachable(item, seen_ids, f"{path}[{index}]")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from reachable(getattr(value, field.name), seen_ids, f"{path}.{field.name}")
    elif isinstance(value, Observation):
        for name in dir(value):
            if not name.startswith("_") and name != "sample":
                yield from reachable(getattr(value, name), seen_ids, f"{path}.{name}")


def test_nothing_public_leads_from_an_observation_to_the_game(position):
    for seat in range(position.state.players):
        observation = position.observe(seat)
        found = [(path, type(value).__name__) for path, value in reachable(observation) if isinstance(value, ENGINE)]
        assert not found
        assert {name for name in dir(observation) if not name.startswith("_")} == {
            "seat", "deciding", "prompt", "labels", "option_count", "still", "players", "zones", "counters",
            "scores", "markers", "log", "sample", "strategy", "pile", "drawings"}
        for key in position.state.zones:                   # zone by zone: nothing its zones do not give
            assert not [path for path, value in reachable(observation.pile(key)) if isinstance(value, ENGINE)]
        for name in position.rules.ir.strategies:          # a persona is rules, which are public: IR only
            assert not [path for path, value in reachable(observation.strategy(name)) if isinstance(value, ENGINE)]


def test_a_card_out_of_sight_is_never_named_by_what_a_seat_reads(position):
    game = position
    for seat in range(game.state.players):
        observation = game.observe(seat)
        named = {card.id for cards in observation.zones.values() for card in cards} - {"?"}
        assert named == {game.card_id(uid) for uid in range(len(game.state.location))
                         if visible(game, seat, uid) and game.state.location[uid] != "box"}
        for key, pile in game.state.zones.items():         # the same, zone by zone (the table in the browser)
            assert [card.id for card in observation.pile(key)] == [
                game.card_id(uid) if visible(game, seat, uid) else "?" for uid in pile]


def test_a_sampled_world_reads_as_its_observation(position):
    for seat in range(position.state.players):
        observation = position.observe(seat)
        world = observation.sample(random.Random(seat))
        assert seen(world.observe(seat)) == seen(observation)
        assert world.log == list(observation.log)
        assert world.memo is not position.memo
        assert world.state.rng is not position.state.rng


def test_a_world_sampled_without_the_log_is_the_same_world_with_an_empty_log(position):
    # the built-in searches never read the past: they sample with log=False and pay nothing for it
    for seat in range(position.state.players):
        observation = position.observe(seat)
        with_log = observation.sample(random.Random(seat))
        without = observation.sample(random.Random(seat), log=False)
        assert without.state.log == [] and with_log.state.log
        assert [without.card_id(uid) for uid in range(len(without.state.location))] == \
            [with_log.card_id(uid) for uid in range(len(with_log.state.location))]
        assert {**seen(without.observe(seat)), "log": ()} == {**seen(with_log.observe(seat)), "log": ()}


def test_a_world_sampled_without_the_log_draws_no_board_and_plays_the_same():
    """Renature draws its board into the log at every turn: a world whose log nobody reads
    (sampled with log=False, and its copies) skips the drawing, and plays on as one that draws."""
    game = Game(games.load("renature"), 2, 4)
    for _ in range(6):
        game.apply(0)
    observation = game.observe(0)
    worlds = [observation.sample(random.Random(1)), observation.sample(random.Random(1), log=False).copy()]
    drawings = []
    for world in worlds:
        before = len(world.state.log)
        play_on(world, [make_agent("random", 7, seat) for seat in range(2)])
        drawings.append(sum(what == "draw" for what, _, _ in world.state.log[before:]))
    with_log, without = worlds
    assert with_log.over and without.over
    assert without.state.choices == with_log.state.choices and without.state.scores == with_log.state.scores
    assert drawings[0] > 10 and drawings[1] == 0


def test_an_observation_is_of_its_moment(four_forests):
    game = Game(four_forests, 2, 1)
    earlier = game.observe(0)
    game.apply(0)
    with pytest.raises(StaleObservation):
        earlier.zones


def test_a_card_taken_from_a_public_row_is_named_to_every_seat():
    # Reforest's nursery lies face up: which card a player draws from it is no secret, though
    # the card goes to a hand that only its owner sees.
    game = paused("reforest", 2, 1, lambda g: g.pending.prompt == "draw_from_nursery: choose picked")
    chooser, card = game.pending.seat, game.pending.options[0]
    game.apply(0)
    line = f"choice P{chooser + 1} draw_from_nursery: choose picked: {game.card_id(card)}"
    assert [line in game.observe(seat).log for seat in range(2)] == [True, True]


@pytest.mark.parametrize("grower, heard", [
    (1, ["fireweed", "a hidden card from region:low.1@1"]),
    (None, ["a hidden card from region:low.1@1", "a hidden card from region:low.1@1"]),
])
def test_an_effect_offered_names_its_card_only_to_the_seats_that_see_it(grower, heard):
    # Fireweed, covered, turns face down: only the seat that grew it sees it, and the effects
    # offered one by one name it to that seat alone, as does the log of the answer (before, every
    # seat read the chooser's words).
    from silvics.position import place
    game = Game(games.load("reforest"), 2, 0, start=False)
    fireweed = {"card": "fireweed", **({"by": grower} if grower else {})}
    place(game, {"zones": {"deck": ["thimbleberry", "sword-fern", "deer-fern"]},
                 "players": [{"hand": ["grand-fir", "red-alder", "oceanspray", "skunk-cabbage", "salal"],
                              "region:low.1": [fireweed]}, {}]})
    game.start_procedure("grow", 0)
    for answer in ("grand-fir", "region:low.1@1"):
        game.apply(game.observe(0).labels.index(answer))
    assert [game.observe(seat).labels for seat in range(2)] == [(words, "done") for words in heard]
    game.apply(0)
    said = "choice P1 take_root: you may, in any order: "
    assert [[line for line in game.observe(seat).log if line.startswith(said)] for seat in range(2)] == \
        [[said + words] for words in heard]


def test_a_zone_on_a_card_out_of_sight_is_named_by_where_that_card_lies():
    from silvics.position import place
    game = Game(games.load("reforest"), 2, 0, start=False)
    place(game, {"zones": {"visitor_deck": [{"card": "cougar", "tucked": ["salal", "bracken"]},
                                            {"card": "black-bear", "tucked": ["fireweed"]}],
                           "upcoming": [{"card": "bald-eagle", "tucked": ["trillium"]}]}})
    assert {label: len(cards) for label, cards in game.observe(0).zones.items()} == {
        "visitor_deck": 2, "tucked@visitor_deck#1": 2, "tucked@visitor_deck#2": 1, "upcoming": 1, "tucked@bald-eagle": 1}


def test_the_zones_on_two_copies_of_a_card_are_both_seen_each_named_by_where_its_card_lies():
    """Forest Shuffle, seed 0: two Horse Chestnuts in sight each hold animals in their slots.
    Named by the card alone, the two zones would share a label and one would be lost from the
    observation (an agent, the terminal screen); each is named by where its card lies instead."""
    from collections import Counter

    from silvics.interpreter.agents import RandomAgent
    from silvics.interpreter.views import visible
    game = Game(games.load("forest-shuffle"), 2, 0)
    agents = [RandomAgent(0, 0), RandomAgent(0, 1)]

    def copies_holding():
        held = Counter(game.card_id(holder) for key, pile in game.state.zones.items()
                       if pile and (holder := game.holder_of(key)) is not None and visible(game, 0, holder))
        return [card for card, n in held.items() if n > 1]

    while not copies_holding():
        game.apply(agents[game.pending.seat].choose(game.observe(game.pending.seat)))
    zones = game.observe(0).zones
    assert sum(map(len, zones.values())) == sum(len(pile) for key, pile in game.state.zones.items() if key != "box")
    assert f"slots@{copies_holding()[0]}" not in zones
    assert sum(1 for label in zones if re.fullmatch(r"slots@forest@[12]#\d+", label)) >= 2, list(zones)


def test_the_unseen_cards_found_zone_by_zone_are_those_no_visible_says_seen(position):
    from silvics.interpreter.views import unseen_cards
    for seat in range(position.state.players):
        assert unseen_cards(position, seat) == [uid for uid in range(len(position.state.location))
                                                if not visible(position, seat, uid)]


# ---- the grids the rules draw ----

def test_a_drawing_reads_the_same_for_every_seat_and_changes_nothing(position):
    state = position.state
    before = (state.clock, len(state.log))
    drawings = [position.observe(seat).drawings for seat in range(state.players)]
    assert all(drawing == drawings[0] for drawing in drawings)
    assert (state.clock, len(state.log)) == before
    assert bool(drawings[0]) == bool(position.rules.drawings)          # a game that draws no grid: nothing


def test_a_drawing_is_the_one_the_rules_log_while_nothing_has_changed():
    """Renature draws the board at the end of a turn: at the next decision, the board unchanged,
    the observation's drawing is the logged one, space by space; once a domino is laid, it shows it."""
    game = Game(games.load("renature"), 2, 5)
    agents = [make_agent("random", 5, seat) for seat in range(2)]
    while not any(what == "draw" for what, _, _ in game.state.log):
        decide(game, agents)
    logged = next(rows for what, _, rows in reversed(game.state.log) if what == "draw")
    drawn = {key: text for keys, texts in logged for key, text in zip(keys, texts) if text}
    assert game.observe(0).drawings == drawn and len(drawn) == 306
    while not game.over and not any("animal" in set_ for set_ in game.state.spaced.values()):
        decide(game, agents)                                            # until a domino's halves are laid
    now = game.observe(1).drawings
    laid = [key for key, set_ in game.state.spaced.items() if "animal" in set_]
    assert laid and all(now[key] != drawn[key] for key in laid)
    assert {key: text for key, text in now.items() if key not in laid} == {
        key: text for key, text in drawn.items() if key not in laid}
