"""Long soak: 20,000 random Four Forests games and 3,000 Reforest games per player count and
module mix, 3,000 Forest Shuffle games per configuration the game allows (114, about two hours
on two cores) and 3,000 Renature games per player count and way to play (9, about 20 minutes),
every step checked. Kept out of CI; run with: pytest -m slow tests/test_soak.py (one game:
-k reforest, -k forest_shuffle, -k renature)."""
import itertools
from concurrent.futures import ProcessPoolExecutor

import pytest

from conftest import play_random
from test_forest_shuffle_games import CONFIGURATIONS, NAMES, played_in_parallel
from test_renature_games import CONFIGURATIONS as RENATURE, NAMES as RENATURE_NAMES
from test_renature_games import played_in_parallel as renature_in_parallel

pytestmark = [pytest.mark.slow]


@pytest.mark.parametrize("players,modules", list(itertools.product([2, 3, 4], [[], ["experienced"]])))
def test_soak(four_forests, players, modules):
    for seed in range(20_000):
        play_random(four_forests, players, seed, modules)


@pytest.mark.parametrize("modules", [(), ("terrain", "events"), ("terrain", "events-casual", "hard")],
                         ids=lambda m: "+".join(m) or "base")
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_reforest_soak(players, modules):
    """3,000 games per setup (ten times CI's count), on two processes, with the end-state checks."""
    from test_reforest_games import faults_in_games
    with ProcessPoolExecutor(2) as pool:
        halves = pool.map(faults_in_games, [players] * 2, [modules] * 2, [range(0, 3000, 2), range(1, 3000, 2)])
        found = [fault for faults in halves for fault in faults]
    assert not found, found[:5]


@pytest.mark.parametrize("players,modules", CONFIGURATIONS, ids=NAMES)
def test_forest_shuffle_soak(players, modules):
    """3,000 games per configuration, refereed after every action (test_forest_shuffle_games)."""
    with ProcessPoolExecutor(2) as pool:
        found = played_in_parallel(players, modules, 3000, pool)
    assert not found, found[:5]


@pytest.mark.parametrize("players,modules", RENATURE, ids=RENATURE_NAMES)
def test_renature_soak(players, modules, pool):
    """3,000 games per player count and way to play, refereed after every action (test_renature_games)."""
    found = renature_in_parallel(players, modules, 3000, pool)
    assert not found, found[:5]
