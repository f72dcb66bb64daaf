"""Random draws exactly as `random.Random` makes them, with fewer Python calls per draw.

`below(rng, n)` takes the numbers `rng.randrange(n)` would, `choice(rng, items)` the item
`rng.choice(items)` would, and `shuffle(rng, items)` puts the items in the order
`rng.shuffle(items)` would: CPython's own method (`_randbelow_with_getrandbits`, and
Fisher-Yates from the last item down), written out. `randrange` makes three Python calls a
number and `shuffle` two a card; these make one a number and none a card. The rules' draws
(shuffles, random flips, passing to random), the agents' picks and a search's guessed deals all
draw through them: only the generator's own bits and seeding come from `random`, so a Python
version that changes its methods changes no game. tests/test_draws.py checks all three against
`random.Random`.
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


def choice(rng: random.Random, items):
    """One of the items, each as likely: `rng.choice(items)`."""
    return items[below(rng, len(items))]


def shuffle(rng: random.Random, items: list) -> None:
    """Shuffle the list in place: `rng.shuffle(items)` (below's draw written in: no call a card)."""
    getrandbits = rng.getrandbits
    for last in range(len(items) - 1, 0, -1):
        n = last + 1
        bits = n.bit_length()
        other = getrandbits(bits)
        while other >= n:
            other = getrandbits(bits)
        items[last], items[other] = items[other], items[last]
