"""The ranking rule, against an oracle written from the rulebook's words: a creature's place is
the number of creatures strictly ahead of it; tied creatures (same prestige, and still the same
after the recalculation with vote values) share the lowest token of the places they span."""
from hypothesis import given, settings
from hypothesis import strategies as st

from silvics.interpreter.game import Game
from silvics.interpreter.ir import Node
from silvics.interpreter.runtime import Frame
from silvics.position import take_from_box

TOKENS = (4, 3, 2, -1)
CREATURES = ["dragons", "trolls", "elves", "gryphons"]


def _rank_node(ties):
    key = lambda name: Node("mark", {"of": Node("var", {"name": "it"}), "name": name, "default": 0})  # noqa: E731
    return Node("rank", {"what": Node("zone", {"name": "creatures", "per": "shared"}),
                         "by": (key("prestige"), key("vote_value")), "as": "token",
                         "with": Node("const", {"value": TOKENS}), "ties": ties})


def _oracle(keys, ties):
    awards = []
    for key in keys:
        ahead = sum(other > key for other in keys)
        tied = sum(other == key for other in keys)
        awards.append(TOKENS[ahead + tied - 1] if ties == "lowest" else TOKENS[ahead])
    return awards


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-10, 10)), min_size=4, max_size=4),
       st.sampled_from(["lowest", "highest"]))
def test_rank_matches_the_rulebook(four_forests, keys, ties):
    game = Game(four_forests, 2, 0, start=False)
    uids = [take_from_box(game, name) for name in CREATURES]
    for uid, (prestige, value) in zip(uids, keys):
        game.state.move(uid, "creatures")
        game.state.mark(uid, "prestige", prestige)
        game.state.mark(uid, "vote_value", value)
    step = game.rules.build(_rank_node(ties))
    step(game, Frame(None, {}))
    assert [game.state.marks[uid]["token"] for uid in uids] == _oracle(keys, ties)
