"""Long soak: 20,000 random games per player count and module mix, every step checked.
Kept out of CI; run with: pytest -m slow tests/test_soak.py"""
import itertools

import pytest

from conftest import play_random

pytestmark = [pytest.mark.slow]


@pytest.mark.parametrize("players,modules", list(itertools.product([2, 3, 4], [[], ["experienced"]])))
def test_soak(four_forests, players, modules):
    for seed in range(20_000):
        play_random(four_forests, players, seed, modules)
