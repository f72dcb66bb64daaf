"""Random draws exactly as `random.Random` makes them, with fewer Python calls per draw.

`below(rng, n)` takes the numbers `rng.randrange(n)` would, and `shuffle(rng, items)` puts the
items in the order `rng.shuffle(items)` would: CPython's own method (`_randbelow_with_getrandbits`,
and Fisher-Yates from the last item down), written out. `randrange` makes three Python calls a
number and `shuffle` two a card; these make one a number and none a card. Every random
game, a new game's shuffles and a search's guessed deals draw through them, so the same seed
gives the same game on any Python version, whether or not a later one changes its own.
tests/test_draws.py checks both against `random.Random`.
"""

from __future__ import annotations

import random


def below(rng: random.Random, n: int) -> int:
    """A whole number from 0 to n - 1, each as likely: `rng.randrange(n)`."""
    if n <= 0:
        raise ValueError(f"no number below {n} to draw")
    bits = n.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= n:  # (fewer than half the draws, at worst, are thrown back)
        drawn = rng.getrandbits(bits)
    return drawn


def shuffle(rng: random.Random, items: list) -> None:
    """Shuffle the list in place: `rng.shuffle(items)`."""
    getrandbits = rng.getrandbits
    for last in range(len(items) - 1, 0, -1):
        n = last + 1
        bits = n.bit_length()
        other = getrandbits(bits)
        while other >= n:
            other = getrandbits(bits)
        items[last], items[other] = items[other], items[last]
