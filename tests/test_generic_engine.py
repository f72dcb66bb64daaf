"""No game in the engine: compiler/ and interpreter/ know no game's vocabulary; every
game word lives in rules/, cards/, tests and docs."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_WORDS = re.compile(
    r"nurser|visitor|elevation|canopy|understory|succession|half.sun|old.growth|parasit|terrain|creature|"
    r"prestige|cultivat|pollinat|harvest|clearing|winter|sapling|dweller|automa|domino|meadow|mushroom|stump|"
    r"brook|salal|linden|reforest|four.forests|forest.shuffle|renature|\bvotes?\b|prune|forest|species|butterfl|\bcaves?\b", re.I)


def test_engine_source_names_no_game():
    hits = []
    for folder in ("compiler", "interpreter"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".lark"):
                for number, line in enumerate(path.read_text().splitlines(), 1):
                    if GAME_WORDS.search(line):
                        hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)
