"""interpreter/draws.py draws what random.Random would: the same numbers, picks and orders, and
the generator left in the same state after them (so every later draw of a game is the same)."""
import random

import pytest
from silvics.interpreter.draws import below, choice, shuffle


@pytest.mark.parametrize("seed", [0, 1, 7, "a game/2/random"])
def test_below_draws_what_randrange_draws(seed):
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 100, 2**20 + 1, 2**40] * 20:
        assert below(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", [0, 5, "an ismcts tie"])
def test_choice_picks_what_random_choice_picks(seed):
    ours, theirs = random.Random(seed), random.Random(seed)
    for size in [1, 2, 3, 7, 16, 17, 100] * 20:
        items = [f"option {i}" for i in range(size)]
        assert choice(ours, items) == theirs.choice(items)
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", [0, 3, "a world"])
def test_shuffle_orders_as_random_shuffle_does(seed):
    ours, theirs = random.Random(seed), random.Random(seed)
    for size in [*range(12), 33, 64, 85, 148, 300]:
        mine, reference = list(range(size)), list(range(size))
        shuffle(ours, mine)
        theirs.shuffle(reference)
        assert mine == reference
        assert sorted(mine) == list(range(size))  # nothing lost, nothing doubled
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("n", [0, -1])
def test_below_nothing_is_an_error_not_a_hang(n):
    with pytest.raises(ValueError, match="no number below"):
        below(random.Random(0), n)
