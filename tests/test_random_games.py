"""Property tests: many random games per player count run to the end, with every card in
exactly one zone after every action, and the end state the rules promise."""
import pytest

from conftest import play_random

GAMES_PER_COUNT = 1000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_cards(four_forests, players):
    for seed in range(GAMES_PER_COUNT):
        game = play_random(four_forests, players, seed)
        zones = game.state.zones
        for seat in range(players):
            assert len(zones[f"forest/{seat}"]) == 8          # 4 cultivated + the 4 left in hand
            assert zones[f"hand/{seat}"] == []
        assert len(zones["pruned"]) == 4 * players
        assert sum(len(v) for k, v in zones.items() if k.startswith("votes/")) == 4 * players
        assert len(zones["creatures"]) == 4


def test_first_player_is_chosen_at_random(four_forests):
    """Setup 2: the first player token goes to "the person who most recently watered a plant":
    the rules draw the seat with the game's seeded generator, so every seat can start."""
    from silvics.interpreter.game import Game
    firsts = {Game(four_forests, 4, seed).state.markers["first"] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


@pytest.mark.parametrize("modules", [["experienced"], ["first-game"], ["experienced", "first-game"]])
def test_modules_play_through(four_forests, modules):
    for seed in range(100):
        play_random(four_forests, 3, seed, modules)



def test_market_test_game_plays_through():
    """The test game for counters, refills, one-of turns and until-loops."""
    from pathlib import Path

    from silvics import games
    ir = games.load(str(Path(__file__).parent / "fixtures" / "games" / "market"))
    for players in (1, 2, 3):
        for seed in range(100):
            game = play_random(ir, players, seed)
            assert sum(len(game.state.zones.get(f"stall/{s}", [])) for s in range(players)) \
                + len(game.state.zones.get("discard", [])) == 6


def test_grove_test_game_plays_through():
    """The test game for grids of stacks and adjacency."""
    from pathlib import Path

    from silvics import games
    ir = games.load(str(Path(__file__).parent / "fixtures" / "games" / "grove"))
    for players in (1, 2):
        for seed in range(100):
            game = play_random(ir, players, seed)
            planted = [k for k, pile in game.state.zones.items() if k.startswith("region:") and pile]
            assert planted and all(k.rsplit("/", 1)[1] in {str(s) for s in range(players)} for k in planted)


def faults_planted(game, plant) -> tuple[list[str], list[str]]:
    """What the after-every-action watch and the full check find once `plant(state)` has broken
    a game that conserved its cards."""
    from conftest import Conservation
    watch = Conservation(game.state)
    assert watch.start == [] and watch() == []
    plant(game.state)
    return watch(), game.state.conservation_errors()


def test_the_watch_after_every_action_finds_what_the_full_check_finds(four_forests):
    """The watch looks only at what changed since it last looked: each way to lose or double
    a card, or to record it in the wrong place, alone or two at once, is still found."""
    from silvics.interpreter.game import Game

    def game():
        return Game(four_forests, 3, 5)                       # set up: hands dealt, a deck left

    def hand(state, seat=0):
        return state.zones[f"hand/{seat}"]

    def doubled(state):                                       # a card also put in another hand
        hand(state, 1).append(hand(state)[0])

    def lost(state):                                          # a card taken out of play
        hand(state).pop()

    def misrecorded(state):                                   # a card recorded where it is not
        state.location[hand(state)[0]] = "deck"

    def twice_in_one_pile(state):
        hand(state).append(hand(state)[0])

    def swapped(state):                                       # one lost, one doubled: the count holds
        uid = hand(state).pop()
        hand(state, 1).append(hand(state, 2)[0])
        assert uid not in state.zones["deck"]

    def new_zone(state):                                      # a zone never filled now holds a card
        state.zones["pruned"] = [state.zones["deck"][-1]]

    from conftest import Conservation
    for plant, wanted in [(doubled, "is in both"), (lost, "lost"), (misrecorded, "recorded in deck"),
                          (twice_in_one_pile, "is in both"), (swapped, "lost"), (swapped, "is in both"),
                          (new_zone, "is in both")]:
        watched, full = faults_planted(game(), plant)
        assert any(wanted in fault for fault in full), (plant.__name__, full)
        assert any(wanted in fault for fault in watched), (plant.__name__, watched)

    untouched, _ = faults_planted(game(), lambda state: None)
    assert untouched == []
    moved = game()                                            # a legal move: nothing to find
    watch = Conservation(moved.state)
    moved.state.move(moved.state.zones["deck"][-1], "pruned")
    assert watch() == [] and moved.state.conservation_errors() == []


def test_the_watch_agrees_with_the_full_check_over_random_changes(four_forests):
    """Random sequences of changes to a set-up game, most of them legal moves (a pile's top
    cards onto another pile, as the rules move them, stamped) and some faults (a card
    added again, lost, put under a pile, recorded elsewhere, a pile reordered; none stamped,
    half of them beside a stamped move): while the full check finds nothing the watch finds
    nothing, and the first change that breaks the game is found by both."""
    import random

    from conftest import Conservation
    from silvics.interpreter.game import Game

    def legal(state, rng, keys):                              # the top cards of a pile onto another
        source = rng.choice([key for key in keys if state.zones.get(key)])
        to = rng.choice(keys)
        count = rng.randint(1, len(state.zones[source]))
        if to == source:                                      # turned over in place
            state.zones[source][-count:] = state.zones[source][-count:][::-1]
        for _ in range(count if to != source else 0):
            state.move(state.zones[source][-1], to)           # stamped, as the rules move cards

    def reordered(state, rng, keys):                          # legal too: a shuffle
        rng.shuffle(state.zones[rng.choice([key for key in keys if state.zones.get(key)])])

    def fault(state, rng, keys):
        if rng.random() < 0.5:                                # in the same action as a stamped move
            legal(state, rng, keys)
        pile = state.zones[rng.choice([key for key in keys if state.zones.get(key)])]
        other = state.zones.setdefault(rng.choice(keys), [])
        uid = rng.choice(pile)
        rng.choice([
            lambda: other.append(uid),                        # in two places, or twice in one pile
            lambda: other.extend([uid, uid]),
            lambda: pile.remove(uid),                         # lost
            lambda: other.insert(0, pile.pop()),              # under another pile, recorded where it was
            lambda: state.location.__setitem__(uid, "deck" if state.location[uid] != "deck" else "pruned"),
        ])()

    rng, found = random.Random(7), 0
    for trial in range(300):
        game = Game(four_forests, rng.randint(2, 4), trial)
        state, watch = game.state, Conservation(game.state)
        keys = [*state.zones, "pruned", "aside"]
        for step in range(12):
            rng.choices([legal, reordered, fault], [8, 1, 1])[0](state, rng, keys)
            full, watched = state.conservation_errors(), watch()
            assert bool(full) == bool(watched), (trial, step, full, watched)
            if full:
                found += 1
                break
    assert found > 50                                         # the faults were met, not only moves
