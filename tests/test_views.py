"""Hidden information: what each seat sees, and agents that only use what they may know."""
import random

from conftest import play_random
from silvics.interpreter.game import Game
from silvics.interpreter.views import card_label, visible


def _until_votes(ir):
    """A 3-player game paused after everyone has cultivated and voted."""
    game = Game(ir, 3, 4)
    rng = random.Random(0)
    while not any(k.startswith("votes/") for k in game.state.zones) or not game.pending.prompt.endswith("choose card") \
            or any(len(game.state.zones[f"hand/{s}"]) > 2 for s in range(3)):
        game.apply(rng.randrange(len(game.pending.options)))
    return game


def test_hands_are_seen_only_by_their_owner(four_forests):
    game = Game(four_forests, 3, 1)
    for seat in range(3):
        zones = game.observe(seat).zones
        assert "?" not in [card.id for card in zones[f"hand@{seat + 1}"]]
        for other in set(range(3)) - {seat}:
            assert [card.id for card in zones[f"hand@{other + 1}"]] == ["?"] * 4
        assert {card.id for card in zones["deck"]} == {"?"}


def test_votes_are_seen_only_by_the_voter(four_forests):
    game = _until_votes(four_forests)
    votes = [uid for key, pile in game.state.zones.items() if key.startswith("votes/") for uid in pile]
    assert votes
    for uid in votes:
        voter = game.state.placer[uid]
        assert game.state.facedown[uid]
        assert [visible(game, seat, uid) for seat in range(3)] == [seat == voter for seat in range(3)]


def test_forests_and_creatures_are_public(four_forests):
    game = play_random(four_forests, 2, 3)
    for uid in game.state.zones["forest/0"] + game.state.zones["creatures"]:
        assert visible(game, 1, uid) and visible(game, 0, uid)


def test_choice_labels_never_name_a_card_the_chooser_cannot_see(four_forests):
    game = Game(four_forests, 2, 1)
    mine, theirs = game.state.zones["hand/0"][0], game.state.zones["hand/1"][0]
    assert card_label(game, 0, mine) == game.card_id(mine)
    assert card_label(game, 0, theirs) == "a hidden card from hand@2"
    assert card_label(game, 1, theirs) == game.card_id(theirs)
