"""Forest Shuffle property tests: random games for every player count and every module
combination the compiled game allows (300 games where at most one module is on besides the one
a player count needs, 50 for every other combination; solo games go through every challenge
and tier), each checked after every action by a referee written here, in plain Python, from
the state and the printed cards alone (never from the rules' definitions):

- every card in exactly one zone (the engine's own conservation check);
- every card in a slot lies, face up, on a card in a forest, shows a half that names a slot,
  and shares its slot only as a rule allows: hares with hares, two Common Toads, butterflies on
  a tree holding a Stinging Nettle, the Cuckoo with a bird;
- every face-up card in a forest is a tree or shrub (the others there are saplings, face down);
- a card played from hand went to its player's own forest, and exactly its printed cost went
  from that hand to the clearing, by that player, just before (nothing for a sapling; nothing
  for a free play, which a card played earlier in the turn must have granted for that kind of
  card);
- winter cards lie only in the deck, the winter row, aside or the box (one drawn or revealed
  goes on to the winter row in the very next action);
- at the end of each turn: no hand above 10 cards, the clearing below 10, no payment left over,
  and every move written in the log (the referee follows the cards by the log).

"After every action" is the engine's test hook `Game.on_step`, called after each action the
rules carry out (a move, a flip, a counter …). The referee reads the log lines the action
wrote, so each check looks only at what changed; a full sweep of every forest runs at each
turn's end and at the game's end. A turn ends where the next one starts (the `turns` counter
moves on) or where Anna, the solo automa, starts hers.

The games run on two processes (the machine CI uses has two cores; under pytest-xdist, in the
test's own: conftest's `pool`); each worker loads the bundled game itself, so only
configurations, seeds and findings cross between processes.
SILVICS_FS_GAMES and SILVICS_FS_COMBINED set the two counts (tests/test_soak.py plays 3,000)."""
from __future__ import annotations

import itertools
import os
import re

import pytest

from conftest import Conservation, faults_of_seeds, in_two_halves, mapped, refereed_game

GAMES = int(os.environ.get("SILVICS_FS_GAMES", 300))          # the base game, or one module on
COMBINED = int(os.environ.get("SILVICS_FS_COMBINED", 50))     # every other combination
SLOTS = {"vertical": ("top_half", "bottom_half"), "horizontal": ("left_half", "right_half")}
ALLOWED_WINTER = {"deck", "aside", "winter", "box"}
HAND_LIMIT, CLEARING_LIMIT = 10, 10
FREE = re.compile(r"let wanted = '?([\w-]+)'?.*?(free_plays?)\b")


def forest_shuffle():
    from silvics import games
    return games.load("forest-shuffle")


def configurations(ir) -> list[tuple[int, tuple[str, ...]]]:
    """Every (players, modules) the compiled game allows: each combination of its modules that
    `checked_modules` accepts, with every player count `player_range` gives it."""
    from silvics.interpreter.ir import SetupError
    names, found = sorted(ir.modules), []
    for size in range(len(names) + 1):
        for modules in itertools.combinations(names, size):
            try:
                ir.checked_modules(modules)
            except SetupError:
                continue
            low, high = ir.player_range(modules)
            found += [(players, modules) for players in range(low, high + 1)]
    return sorted(found)


def games_for(ir, modules) -> int:
    """300 for the base game and for a module on its own (a module that sets the player count,
    such as the solo one, does not count), 50 for every other combination."""
    own = [name for name in modules if not ir.modules[name].players]
    return GAMES if len(own) <= 1 else COMBINED


def settings(ir, modules, seed: int) -> dict:
    """The options of the modules on (the solo challenge and tier), the seed going through
    every combination of their values in turn."""
    options = [option for name in modules for option in ir.modules[name].options]
    combos = list(itertools.product(*(option.values for option in options)))
    return dict(zip((option.name for option in options), combos[seed % len(combos)]))


class Referee:
    """Watches one game, action by action (see the module docstring); `faults` lists what it found."""

    def __init__(self, game):
        self.state, self.faults = game.state, []
        self.conserved = Conservation(game.state)
        self.faults += self.conserved.start
        self.faces, self.defs = game.rules.faces, game.rules.defs
        self.where = list(self.state.location)        # where the log says each card is
        self.read = len(self.state.log)               # log lines already read
        self.winter = [uid for uid, defn in enumerate(self.defs) if defn.kind == "winter"]
        self.in_passing: list[int] = []                # winter cards drawn or revealed by the last action
        self.turn = 0
        self.paid = 0                                  # cards paid from hand since the last card played
        self.grants: list[str] = []                    # free plays granted this turn, by wanted type

    def fault(self, text: str):
        self.faults.append(f"turn {self.state.counters.get('turns')}: {text}")

    def face(self, uid: int) -> dict:
        return self.faces[uid][self.state.side[uid]]

    # ---- after every action ----
    def after_action(self, game):
        state = self.state
        self.faults += self.conserved()
        for uid in self.in_passing:
            if state.location[uid] not in ALLOWED_WINTER:
                self.fault(f"winter card stays in {state.location[uid]}")
        self.in_passing = []
        log = state.log
        for what, uids, detail in log[self.read:]:
            if what in ("move", "refill"):
                for uid in uids:
                    origin, self.where[uid] = self.where[uid], detail
                    self.moved(uid, origin, detail)
            elif what in ("flip", "turn"):
                for uid in uids:
                    self.zone_changed(state.location[uid])
        self.read = len(log)
        turns = state.counters.get("turns", 0)
        if turns != self.turn:                          # a turn starts: the one before has ended
            self.end_of_turn()
            self.turn, self.grants = turns, []

    def moved(self, uid: int, origin: str, to: str):
        if uid in self.winter and to not in ALLOWED_WINTER:
            self.in_passing.append(uid)
        if to == "automa_discard":                      # Anna's turn starts: the player's has ended
            self.end_of_turn()
        name, _, owner = origin.partition("/")
        if name == "hand":
            if to == "clearing" and self.state.placer[uid] == int(owner):   # not taken by another's Troll
                self.paid += 1
            elif to.startswith(("forest/", "slots/")):
                self.played(uid, int(owner), to)
        self.zone_changed(to)

    def played(self, uid: int, seat: int, to: str):
        """A card from `seat`'s hand to a forest: its own, paid for (or free, or a sapling)."""
        forest = to if to.startswith("forest/") else self.state.location[int(to.partition("/")[2])]
        if forest != f"forest/{seat}":
            self.fault(f"P{seat + 1} played {self.defs[uid].id} into {forest}")
        face, paid, self.paid = self.face(uid), self.paid, 0
        if self.state.facedown[uid]:
            if paid:
                self.fault(f"sapling {self.defs[uid].id} cost {paid} cards")
            return
        if paid != face["cost"] and not (paid == 0 and self.free(face)):
            self.fault(f"{face['name']} (cost {face['cost']}) was played for {paid} cards")
        text = repr(self.defs[uid].sides[self.state.side[uid]].text.get("effect")) + \
            repr(self.defs[uid].sides[self.state.side[uid]].text.get("bonus"))
        self.grants += [wanted if kind == "free_play" else f"{wanted}*" for wanted, kind in FREE.findall(text)]

    def free(self, face: dict) -> bool:
        """Whether a grant of this turn covers the card (and use it up, unless it is for any number)."""
        for index, grant in enumerate(self.grants):
            wanted = grant.rstrip("*")
            if wanted == "any" or wanted in face["types"] or wanted == face["species"]:
                if not grant.endswith("*"):
                    del self.grants[index]
                return True
        return False

    def zone_changed(self, key: str):
        name, _, owner = key.partition("/")
        if name == "slots":
            self.check_tree(int(owner))
        elif name == "forest":
            self.check_forest(key)

    # ---- what a forest may hold ----
    def check_forest(self, key: str):
        state = self.state
        for tree in state.zones.get(key, ()):
            if not state.facedown[tree] and self.defs[tree].kind != "tree":
                self.fault(f"{self.face(tree)['name']} lies face up in {key} but is no tree or shrub")

    def check_tree(self, tree: int):
        """The cards on one tree: where it lies, their faces and halves, and who shares a slot."""
        state = self.state
        cards = state.zones.get(f"slots/{tree}", ())
        if not cards:
            return
        if not state.location[tree].startswith("forest/"):
            self.fault(f"cards lie on {self.defs[tree].id}, which is in {state.location[tree]}")
        by_slot: dict[str, list[dict]] = {}
        for uid in cards:
            face = self.face(uid)
            if state.facedown[uid]:
                self.fault(f"{self.defs[uid].id} lies face down on a tree")
            if face["side"] not in SLOTS.get(self.defs[uid].kind, ()):
                self.fault(f"{self.defs[uid].id} shows {face['side']}, which names no slot")
            by_slot.setdefault(face["side"], []).append(face)
        nettle = any(self.face(uid)["species"] == "stinging-nettle" for uid in cards)
        for side, faces in by_slot.items():
            if len(faces) > 1 and not shared(faces, nettle):
                self.fault(f"the {side} slot of {self.defs[tree].id} holds {[f['name'] for f in faces]}")

    # ---- at the end of a turn ----
    def end_of_turn(self):
        zones = self.state.zones
        self.check_hands("a turn")
        if len(zones.get("clearing", ())) >= CLEARING_LIMIT:
            self.fault(f"a turn ends with {len(zones['clearing'])} cards in the clearing")
        if self.paid:
            self.fault(f"{self.paid} cards were paid for no card")
        self.all_logged()

    def check_hands(self, end: str):
        for seat in range(self.state.players):
            held = len(self.state.zones.get(f"hand/{seat}", ()))
            if held > HAND_LIMIT:
                self.fault(f"P{seat + 1} ends {end} with {held} cards in hand")

    def all_logged(self):
        state = self.state
        if self.where != state.location:
            moved = [self.defs[uid].id for uid, (a, b) in enumerate(zip(self.where, state.location)) if a != b]
            self.fault(f"cards moved without a line in the log: {moved}")
            self.where = list(state.location)

    def sweep(self):
        """Every forest, tree and winter card."""
        state = self.state
        for key in list(state.zones):
            if key.startswith(("forest/", "slots/")):
                self.zone_changed(key)
        for uid in self.winter:
            if state.location[uid] not in ALLOWED_WINTER:
                self.fault(f"a winter card lies in {state.location[uid]}")

    def end_of_game(self):
        self.all_logged()
        self.sweep()
        self.check_hands("the game")


def shared(faces: list[dict], nettle: bool) -> bool:
    """Whether these halves may share a slot: hares with hares, up to two Common Toads,
    butterflies on a tree holding a Stinging Nettle, the Cuckoo with another bird."""
    species = [face["species"] for face in faces]
    if all(s == "european-hare" for s in species):
        return True
    if species == ["common-toad", "common-toad"]:
        return True
    if nettle and all("butterfly" in face["types"] for face in faces):
        return True
    return len(faces) == 2 and species.count("cuckoo") == 1 and all("bird" in face["types"] for face in faces)


_IR = None


def faults_in_games(players: int, modules: tuple, seeds) -> list[str]:
    """Play the games (in a worker process); return what went wrong, naming the seed."""
    global _IR
    if _IR is None:
        _IR = forest_shuffle()
    return faults_of_seeds(seeds, lambda seed: refereed_game(_IR, players, seed, Referee, modules,
                                                             settings(_IR, modules, seed)),
                           lambda seed: f"seed {seed} {settings(_IR, modules, seed)}")


def played_in_parallel(players: int, modules: tuple, count: int, pool) -> list[str]:
    return in_two_halves(pool, faults_in_games, count, players, modules)


CONFIGURATIONS = configurations(forest_shuffle())
NAMES = [f"{players}p-{'+'.join(modules) or 'base'}" for players, modules in CONFIGURATIONS]


@pytest.mark.parametrize("players,modules", CONFIGURATIONS, ids=NAMES)
def test_random_forest_shuffle_games_are_legal(players, modules, pool):
    found = played_in_parallel(players, modules, games_for(forest_shuffle(), modules), pool)
    assert not found, found[:5]


def played_at_the_command_line(configurations: list) -> list[str]:
    """`silvics play forest-shuffle --players N --module M … [--set NAME=VALUE …]`, one game per
    configuration (in a worker process); what went wrong, if anything."""
    import contextlib
    import io

    from silvics.cli import main

    ir, found = forest_shuffle(), []
    for seed, (players, modules) in configurations:
        argv = ["play", "forest-shuffle", "--players", str(players), "--seed", str(seed)]
        argv += [word for name in modules for word in ("--module", name)]
        argv += [word for item in settings(ir, modules, seed).items() for word in ("--set", "=".join(item))]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
        if status != 0 or "Final scores:" not in out.getvalue() or "Traceback" in out.getvalue() + err.getvalue():
            found.append(f"{' '.join(argv)}: status {status}, {err.getvalue()[-300:]}")
    return found


def test_every_configuration_plays_to_the_end_at_the_command_line(pool):
    numbered = list(enumerate(CONFIGURATIONS))
    found = [fault for faults in mapped(pool)(played_at_the_command_line, [numbered[0::2], numbered[1::2]])
             for fault in faults]
    assert not found, found[:5]


# ---- the referee itself: each check finds the fault it is for ----

def laid_out():
    """A 2-player game not yet set up, its referee, and a way to move a card by what a side
    shows (the first such card in the box), noted in the log as the rules' moves are."""
    from silvics.interpreter.game import Game

    game = Game(forest_shuffle(), 2, 0, start=False)
    referee = Referee(game)

    def put(species: str, to: str, facedown=False, by=-1) -> int:
        uid, side = next((uid, side) for uid in game.state.zones["box"]
                         for side, face in enumerate(game.rules.faces[uid]) if face.get("species") == species)
        game.state.flip([(uid, side)])
        game.state.move(uid, to, facedown=facedown, placer=by)
        game.note("move", [uid], to)
        return uid
    return game, referee, put


def test_the_referee_allows_only_the_slot_sharing_the_rules_name():
    game, referee, put = laid_out()
    oak = put("oak", "forest/0")
    put("european-hare", f"slots/{oak}")
    put("european-hare", f"slots/{oak}")                 # hares share a slot
    referee.after_action(game)
    assert referee.faults == []
    put("red-fox", f"slots/{oak}")                       # a fox does not join them
    referee.after_action(game)
    assert any("holds" in fault and "Red Fox" in fault for fault in referee.faults)


def test_the_referee_finds_a_card_on_a_tree_outside_a_forest_and_a_face_up_dweller_in_a_forest():
    game, referee, put = laid_out()
    beech = put("beech", "clearing")
    put("chaffinch", f"slots/{beech}")
    put("red-fox", "forest/1")
    referee.after_action(game)
    assert any("which is in clearing" in fault for fault in referee.faults)
    assert any("Red Fox lies face up in forest/1" in fault for fault in referee.faults)


def test_the_referee_finds_an_unpaid_play_a_paid_sapling_and_a_play_into_another_forest():
    game, referee, put = laid_out()
    linden = put("linden", "hand/0")                     # cost 1
    game.state.move(linden, "forest/0", facedown=False, placer=0)
    game.note("move", [linden], "forest/0")
    referee.after_action(game)
    assert any("Linden (cost 1) was played for 0 cards" in fault for fault in referee.faults)
    paid, sapling = put("oak", "hand/1"), put("birch", "hand/1")
    game.state.move(paid, "clearing", facedown=False, placer=1)
    game.note("move", [paid], "clearing")
    game.state.move(sapling, "forest/0", facedown=True, placer=1)
    game.note("move", [sapling], "forest/0")
    referee.after_action(game)
    assert any("sapling birch cost 1 cards" in fault for fault in referee.faults)
    assert any("P2 played birch into forest/0" in fault for fault in referee.faults)


def test_the_referee_finds_a_full_hand_and_clearing_at_a_turns_end_and_a_stray_winter_card():
    game, referee, put = laid_out()
    for species in ["beech", "birch"] * 5 + ["oak"]:
        put(species, "hand/0")
    for species in ["linden", "sycamore"] * 5:
        put(species, "clearing")
    game.state.move(next(uid for uid in game.state.zones["box"] if game.rules.defs[uid].kind == "winter"), "hand/1")
    referee.after_action(game)
    game.state.counters["turns"] = 1                     # the next turn starts
    referee.after_action(game)
    assert any("11 cards in hand" in fault for fault in referee.faults)
    assert any("10 cards in the clearing" in fault for fault in referee.faults)
    assert any("moved without a line in the log" in fault for fault in referee.faults)
    referee.end_of_game()
    assert any("a winter card lies in hand/1" in fault for fault in referee.faults)


def test_the_configurations_are_those_the_game_allows():
    """Read from the compiled game: 2 to 5 players with any mix of Alpine, Woodland Edge, the
    special caves and one way of playing Around the Globe; solo only with Alone in the Forest,
    Woodland Edge there only with Alpine; and every solo game goes through the challenges and tiers."""
    ir = forest_shuffle()
    found = configurations(ir)
    assert {players for players, _ in found} == {1, 2, 3, 4, 5}
    assert all((players == 1) == ("alone-in-the-forest" in modules) for players, modules in found)
    assert (1, ("alone-in-the-forest", "alpine", "woodland-edge")) in found
    assert (1, ("alone-in-the-forest", "woodland-edge")) not in found
    assert (3, ("woodland-edge",)) in found
    assert not any({"around-the-globe", "around-the-globe-dealt"} <= set(modules) for _, modules in found)
    assert len(found) == 4 * 2 ** 3 * 3 + 3 * 2 * 3            # 96 for 2-5 players, 18 solo
    solo = ("alone-in-the-forest",)
    assert len({tuple(settings(ir, solo, seed).values()) for seed in range(12 * 3)}) == 12 * 3   # 50 games see all
    assert games_for(ir, solo) == games_for(ir, ("special-caves",)) == GAMES
    assert games_for(ir, ("alone-in-the-forest", "alpine", "woodland-edge")) == COMBINED
