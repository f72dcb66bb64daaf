"""Renature property tests: 300 random games for each player count (2, 3, 4) and each way to
play (the base game, the Valley, the Valley's variant), each checked after every action by a
referee written here, in plain Python, from the game state and the printed board alone (never
from the rules' definitions):

- every card, each domino and plant among them, in exactly one place (and where the log says it
  went);
- no domino over an area space: no domino lies in a space of an area, and no area space shows
  an animal;
- every domino legal when it is laid: its two spaces side by side and free brook (meadow), its
  halves the domino's animals, each half matching every animal already laid beside it (its
  partner half aside) unless one of the two is the joker animal of that moment, and one half
  on a starting space or beside a matching animal;
- the areas the union of their spaces: the spaces of each area connected through spaces of
  that area, an area joined by a mushroom the whole of the areas it joined and the mushroom
  (a new area space only under a mushroom, and no two areas touching unless the map prints
  them so), and plants only on area spaces;
- no more cloud tokens on a player's cloud spaces than 6 per player board;
- at the end, each player's score the sum of their score items.

"After every action" is the engine's test hook `Game.on_step`. The referee reads the log lines
the action wrote (moves) and the space attributes it set, so each check looks only at what
changed; a full sweep of the board runs at the end of the game. A domino is laid in three
actions (one half's animal, the other's, the card into one of the spaces): its halves are
judged once the card is down, against the halves laid before it ("settled", as in
tests/test_maps.py). A mushroom's join renames an area space by space; the areas are judged
once the join is over (the next action that writes a log line).

The games run on two processes (the machine CI uses has two cores; under pytest-xdist, in the
test's own: conftest's `pool`); each worker loads the bundled game itself, so only
configurations, seeds and findings cross between processes.
SILVICS_RENATURE_GAMES sets the count (tests/test_soak.py plays 3,000)."""
from __future__ import annotations

import os
from itertools import chain

import pytest

from conftest import faults_of_seeds, in_two_halves, refereed_game

GAMES = int(os.environ.get("SILVICS_RENATURE_GAMES", 300))
MODULES = [(), ("valley",), ("valley", "valley-variant")]
CONFIGURATIONS = [(players, modules) for modules in MODULES for players in (2, 3, 4)]
NAMES = [f"{players}p-{'+'.join(modules) or 'base'}" for players, modules in CONFIGURATIONS]
CLOUD_SPACES = 6                      # per player board
LAID_ON = ("brook", "meadow")         # the terrains a domino may cover
NONE = "none"                         # no animal
# a game in ten draws the board in its log, as a reader's game does (8.7 % of a game's
# instructions): the drawing still meets random positions, and the referee reads no drawing
DRAWN_EVERY = 10


_BOARDS: dict[int, tuple] = {}


def board_of(rules) -> tuple:
    """The board's spaces, each space's neighbours and what the map prints on it (with the
    defaults), worked out once per map: every game of a worker shares them."""
    zone = rules.zones["board"]
    found = _BOARDS.get(id(zone))
    if found is None or found[0] is not zone:
        spaces = rules.grid_spaces("board", None)
        found = _BOARDS[id(zone)] = (zone, spaces, {key: rules.bordering(key) for key in spaces},
                                     {key: {**rules.space_defaults, **rules.printed_space(key)} for key in spaces})
    return found[1:]


class Referee:
    """Watches one game, action by action (see the module docstring); `faults` lists what it
    found. It takes the game as it stands: the animals already on the board are settled."""

    def __init__(self, game):
        state, rules = game.state, game.rules
        self.state, self.faults = state, []
        self.kinds = [card.kind for card in rules.defs]
        self.faces = rules.faces
        self.marker = self.kinds.index("marker")                      # the joker marker
        self.spaces, self.near, self.printed = board_of(rules)
        self.read = len(state.log)                                    # log lines already read
        self.seen = dict(state.spaced)                                # the space attributes last seen
        self.settled = {key for key in self.spaces if self.value(key, "animal") != NONE}
        self.pending: dict[str, None] = {}                            # halves set (in order), their domino not yet down
        self.joining = False                                          # areas renamed, not yet judged
        self.areas = self.area_map()                                  # space -> area, when last judged
        self.check_areas()

    def fault(self, text: str):
        self.faults.append(text)

    def value(self, key: str, name: str):
        """A space's attribute: as the rules last set it, else as the map prints it."""
        changed = self.state.spaced.get(key)
        if changed is not None and name in changed:
            return changed[name]
        return self.printed[key].get(name)

    def area(self, key: str) -> int:
        return self.value(key, "area") or 0

    def holds(self, key: str, kind: str) -> list[int]:
        return [uid for uid in self.state.zones.get(key, ()) if self.kinds[uid] == kind]

    def name(self, uid: int) -> str:
        return self.faces[uid][0]["id"]

    # ---- after every action ----
    def after_action(self, game):
        state = self.state
        self.check_conservation()
        renamed = False
        if state.spaced != self.seen:                 # the action set a space attribute
            renamed = self.spaces_changed()
        log = state.log
        if len(log) > self.read:
            arrived: dict[int, str] = {}
            for what, uids, detail in log[self.read:]:
                if what in ("move", "refill"):
                    arrived.update(dict.fromkeys(uids, detail))
                    self.moved(uids, detail)
            self.check_arrived(arrived)
            self.read = len(log)
            if self.joining and not renamed:          # something else happened since: the join is over
                self.check_areas()
        if len(self.pending) >= 2:
            self.check_laid()

    def check_conservation(self, thorough=False):
        """Every card (each domino and plant among them) in exactly one zone, the one its location
        names. After an action, no card lost or doubled is told fast, and a card that moved is
        looked for where the log says it went (check_arrived); `thorough` looks at every card."""
        state = self.state
        held = list(chain.from_iterable(state.zones.values()))
        if not thorough and len(held) == len(state.location) == len(set(held)):
            return
        places: dict[int, list[str]] = {}
        for key, pile in state.zones.items():
            for uid in pile:
                places.setdefault(uid, []).append(key)
        for uid, recorded in enumerate(state.location):
            found = places.get(uid, [])
            if len(found) != 1:
                self.fault(f"{self.name(uid)} lies in {len(found)} places: {found}")
            elif found[0] != recorded:
                self.fault(f"{self.name(uid)} lies in {found[0]} but is recorded in {recorded}")

    def check_arrived(self, arrived: dict[int, str]):
        """Each card the log moved lies where its last move put it."""
        state = self.state
        for uid, to in arrived.items():
            if state.location[uid] != to or uid not in state.zones.get(to, ()):
                self.fault(f"{self.name(uid)} was moved to {to} but lies in {state.location[uid]}")

    def moved(self, uids, to: str):
        if to.startswith("board:"):
            for uid in uids:
                if self.kinds[uid] == "domino":
                    self.check_free_of_dominoes(to)
                elif self.kinds[uid] == "plant" and not self.area(to):
                    self.fault(f"{self.name(uid)} was planted on {to}, which is no area space")
        elif to.startswith("clouds/"):
            self.check_clouds(int(to.partition("/")[2]))

    def check_clouds(self, seat: int):
        zones = self.state.zones
        room = CLOUD_SPACES * len(zones.get(f"player_boards/{seat}", ()))
        held = len(zones.get(f"clouds/{seat}", ()))
        if held > room:
            self.fault(f"P{seat + 1} holds {held} clouds on {room} cloud spaces")

    def check_free_of_dominoes(self, key: str):
        """An area space holds no domino and shows no animal."""
        if self.area(key) and (self.holds(key, "domino") or self.value(key, "animal") != NONE):
            dominoes = [self.name(uid) for uid in self.holds(key, "domino")]
            self.fault(f"a domino covers {key} of area {self.area(key)}: {dominoes}, "
                       f"animal {self.value(key, 'animal')}")

    def spaces_changed(self) -> bool:
        """Note the halves set and judge the spaces whose attributes changed; whether an area
        number changed."""
        spaced, renamed = self.state.spaced, False
        for key, attributes in spaced.items():
            before = self.seen.get(key)
            if attributes is before:
                continue
            before = before or {}
            if attributes.get("area") != before.get("area", self.printed[key].get("area")):
                renamed = self.joining = True
            animal = self.value(key, "animal")
            if animal != before.get("animal", self.printed[key].get("animal")):
                if key in self.settled:
                    self.fault(f"the half on {key} became {animal}")
                elif animal != NONE:
                    self.pending[key] = None
            self.check_free_of_dominoes(key)
        self.seen = dict(spaced)
        return renamed

    # ---- a domino laid ----
    def check_laid(self):
        """Two halves set: once their domino is down, judge it against the halves settled before."""
        halves = list(self.pending)
        down = [uid for key in halves for uid in self.holds(key, "domino")]
        if len(halves) > 2:
            self.fault(f"halves set on {halves} with no domino laid between")
        elif not down:
            return
        else:
            self.check_domino(down, *halves)
        self.settled.update(halves)
        self.pending.clear()

    def check_domino(self, down: list[int], here: str, there: str):
        face = self.faces[down[0]][0]
        animals = {here: self.value(here, "animal"), there: self.value(there, "animal")}
        laid = f"{face['id']} on {here} and {there}"
        if len(down) > 1:
            self.fault(f"{len(down)} dominoes lie on {here} and {there}")
        if sorted(animals.values()) != sorted([face["first"], face["second"]]):
            self.fault(f"{laid} shows {animals}")
        if there not in self.near[here]:
            self.fault(f"{laid}: the spaces are not side by side")
        joker = (self.state.marks[self.marker] or {}).get("animal")
        linked = False
        for key, half in animals.items():
            if self.value(key, "terrain") not in LAID_ON:
                self.fault(f"{laid}: {key} is {self.value(key, 'terrain')}")
            linked = linked or self.value(key, "start") > 0
            for beside in self.near[key]:
                if beside not in self.settled:
                    continue
                animal = self.value(beside, "animal")
                if animal == half or joker in (animal, half):
                    linked = True
                else:
                    self.fault(f"{laid}: the {half} on {key} is beside a {animal} on {beside} "
                               f"(the joker is {joker})")
        if not linked:
            self.fault(f"{laid}: neither half is on a starting space or beside a matching animal")

    # ---- the areas ----
    def area_map(self) -> dict[str, int]:
        return {key: area for key in self.spaces if (area := self.area(key))}

    def check_areas(self):
        """Each area's spaces connected through its own spaces; an area that grew is the whole of
        the areas it joined and new area spaces under mushrooms."""
        self.joining = False
        now = self.area_map()
        members: dict[int, list[str]] = {}
        for key, area in now.items():
            members.setdefault(area, []).append(key)
        for area, keys in members.items():
            reached, frontier = {keys[0]}, [keys[0]]
            while frontier:
                for beside in self.near[frontier.pop()]:
                    if beside not in reached and now.get(beside) == area:
                        reached.add(beside)
                        frontier.append(beside)
            if len(reached) != len(keys):
                apart = sorted(set(keys) - reached)
                self.fault(f"area {area} is in pieces: {apart} cannot reach {keys[0]} through the area")
        became: dict[int, set[int]] = {}
        for key, area in self.areas.items():
            became.setdefault(area, set()).add(now.get(key, 0))
        for area, numbers in became.items():
            if len(numbers) > 1 or 0 in numbers:
                self.fault(f"area {area} was split or lost spaces: now {sorted(numbers)}")
        for key in now.keys() - self.areas.keys():
            if not self.holds(key, "mushroom"):
                self.fault(f"{key} became area {now[key]} without a mushroom")
        for key, area in now.items():                 # areas touch only where the map prints them so
            for beside in self.near[key]:
                other = now.get(beside, area)
                if other != area and key < beside and not (self.printed[key].get("area")
                                                           and self.printed[beside].get("area")):
                    self.fault(f"areas {area} and {other} touch at {key} and {beside} but were not joined")
        self.areas = now

    # ---- at the end ----
    def end_of_game(self):
        """The whole board once more, the halves all laid, and each score its items' sum."""
        state = self.state
        self.check_conservation(thorough=True)
        if self.pending:
            self.fault(f"halves set with no domino laid: {sorted(self.pending)}")
        for key in self.spaces:
            self.check_free_of_dominoes(key)
            for uid in self.holds(key, "plant"):
                if not self.area(key):
                    self.fault(f"{self.name(uid)} lies on {key}, which is no area space")
        for seat in range(state.players):
            self.check_clouds(seat)
        self.check_areas()
        for seat, score in enumerate(state.scores):
            itemised = sum(points for owner, _, points, _, _ in state.score_items if owner == seat)
            if itemised != score:
                self.fault(f"P{seat + 1} has {score} points but the score items add up to {itemised}")


def renature():
    from silvics import games
    return games.load("renature")


_IR = None


def faults_in_games(players: int, modules: tuple, seeds) -> list[str]:
    """Play the games (in a worker process); return what went wrong, naming the seed."""
    global _IR
    if _IR is None:
        _IR = renature()
    return faults_of_seeds(seeds, lambda seed: refereed_game(_IR, players, seed, Referee, modules,
                                                             drawn=seed % DRAWN_EVERY == 0))


def played_in_parallel(players: int, modules: tuple, count: int, pool) -> list[str]:
    return in_two_halves(pool, faults_in_games, count, players, modules)


@pytest.mark.parametrize("players,modules", CONFIGURATIONS, ids=NAMES)
def test_random_renature_games_are_legal(players, modules, pool):
    found = played_in_parallel(players, modules, GAMES, pool)
    assert not found, found[:5]


def test_every_area_of_the_base_board_gets_a_token_of_its_size():
    """The base game lays in each area a token whose main points are its size (the rules'
    reading): a board transcribed with an area no token fits would leave that area unscored."""
    from silvics.interpreter.game import Game

    game = Game(renature(), 4, 0)
    sizes: dict[int, int] = {}
    for key in game.rules.grid_spaces("board", None):
        if game.space_value(key, "area"):
            sizes[game.space_value(key, "area")] = sizes.get(game.space_value(key, "area"), 0) + 1
    laid = {game.state.marks[uid]["on_area"]: game.attribute(uid, "main") for uid in game.state.zones["area_tokens"]}
    assert len(game.state.zones["area_tokens"]) == len(sizes) == 18
    assert laid == sizes


# ---- the referee itself: each check finds the fault it is for ----

def set_up(players=3, modules=()):
    """A copy of a game just set up (its first player about to choose), a referee watching the
    copy, and a way to move a card by id as the rules do (noted in the log)."""
    from silvics.interpreter.game import Game

    game = Game(renature(), players, 1, modules).copy()
    referee = Referee(game)

    def put(card: str, to: str, source: str | None = None) -> int:
        """The first card `card` off the board (in `source`, if given) to `to`."""
        uid = next(uid for uid, where in enumerate(game.state.location)
                   if game.card_id(uid) == card and where != to and not where.startswith("board:")
                   and where == (source or where))
        game.state.move(uid, to, facedown=False)
        game.note("move", [uid], to)
        return uid

    def lay(card: str, here: str, there: str, first: str, second: str):
        """A domino laid as the rules lay one: both animals set, then the card into `here`."""
        for key, animal in ((here, first), (there, second)):
            game.state.set_space(f"board:{key}", "animal", animal)
            referee.after_action(game)
        put(card, f"board:{here}")
        referee.after_action(game)
    return game, referee, put, lay


def test_a_legal_game_start_gives_the_referee_nothing_to_report():
    game, referee, _, lay = set_up()
    lay("owl-fox", "r5.14", "r5.15", "owl", "fox")          # on a starting space
    lay("fox-deer", "r5.16", "r5.17", "fox", "deer")        # fox beside fox
    lay("butterfly-fox", "r4.15", "r4.16", "butterfly", "fox")     # the joker beside a fox, fox beside fox
    assert referee.faults == []
    referee.end_of_game()
    assert referee.faults == []


def test_the_referee_finds_a_domino_clashing_with_an_animal_beside_it():
    game, referee, _, lay = set_up()
    lay("owl-fox", "r5.14", "r5.15", "owl", "fox")
    lay("fox-heron", "r4.15", "r4.14", "fox", "heron")      # fox beside the fox, heron beside the owl
    assert referee.faults == ["fox-heron on board:r4.15 and board:r4.14: the heron on board:r4.14 "
                              "is beside a owl on board:r5.14 (the joker is butterfly)"]


def test_the_referee_lets_the_joker_of_that_moment_match_anything():
    game, referee, _, lay = set_up()
    lay("owl-fox", "r5.14", "r5.15", "owl", "fox")
    marker = game.state.zones["joker"][0]
    game.state.mark(marker, "animal", "deer")               # the joker moved to the deer
    lay("deer-heron", "r4.15", "r3.15", "deer", "heron")     # deer beside the fox: the joker
    assert referee.faults == []
    game.state.mark(marker, "animal", "butterfly")          # back: deer no longer matches
    lay("deer-beaver", "r6.15", "r6.16", "deer", "beaver")
    assert referee.faults == [
        "deer-beaver on board:r6.15 and board:r6.16: the deer on board:r6.15 is beside a fox on board:r5.15 "
        "(the joker is butterfly)",
        "deer-beaver on board:r6.15 and board:r6.16: neither half is on a starting space or beside a matching animal"]


def test_the_referee_finds_a_domino_linked_to_nothing_and_halves_not_its_own():
    game, referee, _, lay = set_up()
    lay("owl-fox", "r1.4", "r1.5", "owl", "fox")            # no start, nothing beside
    lay("deer-heron", "r5.14", "r6.14", "deer", "owl")       # shows an owl where the domino has a heron
    assert referee.faults == [
        "owl-fox on board:r1.4 and board:r1.5: neither half is on a starting space or beside a matching animal",
        "deer-heron on board:r5.14 and board:r6.14 shows {'board:r5.14': 'deer', 'board:r6.14': 'owl'}"]


def test_the_referee_finds_a_domino_over_an_area_space():
    game, referee, put, lay = set_up()
    lay("owl-fox", "r5.14", "r5.15", "owl", "fox")
    put("fox-deer", "board:r5.18")                          # area 3 (c)
    referee.after_action(game)
    assert referee.faults == ["a domino covers board:r5.18 of area 3: ['fox-deer'], animal none"]
    referee.faults.clear()
    game.state.set_space("board:r6.18", "animal", "owl")      # an animal shown on area 3
    referee.after_action(game)
    assert referee.faults == ["a domino covers board:r6.18 of area 3: [], animal owl"]


def test_the_referee_finds_a_card_in_two_places_and_a_card_lost():
    game, referee, put, _ = set_up()
    plant = put("white-oak", "board:r5.18")
    game.state.zones["plants/1"].append(plant)               # the same oak on the board and a player's board
    referee.after_action(game)
    assert referee.faults == ["white-oak lies in 2 places: ['plants/1', 'board:r5.18']"]
    referee.faults.clear()
    game.state.zones["plants/1"].remove(plant)
    game.state.zones["board:r5.18"].remove(plant)
    referee.after_action(game)
    assert referee.faults == ["white-oak lies in 0 places: []"]


def test_the_referee_finds_a_card_that_is_not_where_its_move_put_it():
    game, referee, put, _ = set_up()
    plant = put("white-oak", "board:r5.18")
    game.state.zones["board:r5.18"].remove(plant)            # moved on, unlogged, into a player's reserve
    game.state.zones["reserve/1"].append(plant)
    game.state.location[plant] = "reserve/1"
    referee.after_action(game)
    assert referee.faults == ["white-oak was moved to board:r5.18 but lies in reserve/1"]
    referee.faults.clear()
    game.state.location[plant] = "board:r5.18"                # the record says the board; the card is not there
    referee.end_of_game()
    assert referee.faults == ["white-oak lies in reserve/1 but is recorded in board:r5.18"]


def test_the_referee_finds_a_plant_off_the_areas():
    game, referee, put, _ = set_up()
    put("black-bush", "board:r5.17")                         # a brook space
    referee.after_action(game)
    assert referee.faults == ["black-bush was planted on board:r5.17, which is no area space"]


def test_the_referee_finds_an_area_in_pieces_and_an_area_split():
    game, referee, _, _ = set_up()
    game.state.set_space("board:r1.1", "area", 3)            # area 11 (k) given to area 3, far away
    referee.after_action(game)
    game.note("choice", (), "next")                          # the next action: the renaming is over
    referee.after_action(game)
    assert referee.faults == [
        "area 3 is in pieces: ['board:r1.15', 'board:r1.16', 'board:r1.17', 'board:r1.18', 'board:r2.17', "
        "'board:r2.18', 'board:r3.17', 'board:r3.18', 'board:r4.17', 'board:r4.18', 'board:r5.18', "
        "'board:r6.18'] cannot reach board:r1.1 through the area",
        "area 11 was split or lost spaces: now [3, 11]"]


def test_the_referee_judges_a_join_once_it_is_over_and_wants_a_mushroom_under_a_new_area_space():
    game, referee, put, _ = set_up()
    # r1.3 joins area 11 (k, r1.1-r3.2 on the left) and nothing else: renamed and then judged
    game.state.set_space("board:r1.3", "terrain", "area")
    game.state.set_space("board:r1.3", "area", 11)
    referee.after_action(game)
    assert referee.faults == [] and referee.joining
    game.note("choice", (), "next")
    referee.after_action(game)
    assert referee.faults == ["board:r1.3 became area 11 without a mushroom"]


def test_the_referee_finds_too_many_clouds_on_a_players_boards():
    game, referee, put, _ = set_up(players=2)                # two player boards each: 12 cloud spaces
    assert len(game.state.zones["clouds/0"]) == 12
    referee.after_action(game)
    assert referee.faults == []
    put("cloud", "clouds/0", source="clouds/1")
    referee.after_action(game)
    assert referee.faults == ["P1 holds 13 clouds on 12 cloud spaces"]


def test_the_referee_finds_points_scored_without_a_score_item():
    game, referee, _, _ = set_up()
    referee.end_of_game()
    assert referee.faults == []
    game.state.scores[2] += 5
    referee.end_of_game()
    assert referee.faults == ["P3 has 7 points but the score items add up to 2"]


def test_the_referee_finds_halves_set_with_no_domino():
    game, referee, _, _ = set_up()
    for key in ("r5.14", "r5.15", "r5.16"):
        game.state.set_space(f"board:{key}", "animal", "owl")
        referee.after_action(game)
    assert referee.faults == ["halves set on ['board:r5.14', 'board:r5.15', 'board:r5.16'] with no domino laid between"]


def test_the_referee_accepts_a_whole_join_and_finds_an_area_left_out_of_one():
    game, referee, put, _ = set_up(modules=("valley",))
    areas = dict(referee.areas)

    def join(spot: str, into: int, joined: list[int]):
        """A mushroom on `spot` joining area `into` and the areas `joined` (each renamed `into`)."""
        put("mushroom", spot)
        game.state.set_space(spot, "terrain", "area")
        game.state.set_space(spot, "area", into)
        referee.after_action(game)
        for key in [key for key, area in areas.items() if area in joined]:
            game.state.set_space(key, "area", into)
            referee.after_action(game)
        game.note("choice", (), "next")
        referee.after_action(game)

    join("board:r1.13", 4, [7])                              # between areas 4 (d) and 7 (g): one area 4
    assert referee.faults == []
    assert sorted(area for area in referee.areas.values() if area in (4, 7)) == [4] * (11 + 8 + 1)
    join("board:r4.6", 6, [])                                # beside areas 6 (f) and 15 (o): 15 left out
    assert referee.faults == ["areas 15 and 6 touch at board:r4.5 and board:r4.6 but were not joined"]


# ---- the referee in real play: rules with a fault planted, and games that show it ----

MUTANTS = {   # what is changed in which file, the modules on, and what the referee says
    "animals-beside-unchecked": (
        "game.yaml", "clash(h, it.animal)) = 0", "clash(h, it.animal)) >= 0", (), "is beside a"),
    "dominoes-on-areas": (
        "game.yaml", 'free(s): "s.terrain in [brook, meadow] and', 'free(s): "', (), "a domino covers"),
    "plants-anywhere": (
        "game.yaml", "where it.area > 0 and top(it).kind != plant", "where top(it).kind != plant", (),
        "which is no area space"),
    "seven-clouds-dealt": (    # (random games almost never take a cloud with every cloud space full)
        "game.yaml", "move 6 * count(player_boards)", "move 7 * count(player_boards)", (),
        "holds 7 clouds on 6 cloud spaces"),
    "join-renames-nothing": (
        "modules/valley.yaml", "do: [set t.area to n]", "do: []", ("valley",), "but were not joined"),
}


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_the_referee_finds_a_fault_planted_in_the_rules(mutant, tmp_path):
    """Renature with one rule broken (copied to a temporary folder): random games soon show the
    referee the fault."""
    import shutil

    from silvics.compiler.build import compile_game

    root = __import__("pathlib").Path(__file__).resolve().parent.parent
    for folder in ("rules/renature", "cards/renature"):
        shutil.copytree(root / folder, tmp_path / folder)
    path, old, new, modules, said = MUTANTS[mutant]
    changed = tmp_path / "rules" / "renature" / path
    text = changed.read_text()
    assert text.count(old) == 1
    changed.write_text(text.replace(old, new))
    ir = compile_game(tmp_path / "rules" / "renature")
    seen = []
    for seed in range(20):
        try:
            _, faults = refereed_game(ir, 3, seed, Referee, modules)
        except Exception as error:                           # the broken rule may also fail later on
            faults = [f"{type(error).__name__}: {error}"]
        seen += faults
        if any(said in fault for fault in faults):
            break
    assert any(said in fault for fault in seen), seen[:5]
