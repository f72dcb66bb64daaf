"""The Forest Shuffle card files (cards/forest-shuffle/**) hold exactly the published cards.

The rules file that compiles them is written separately, so these checks read the YAML
directly: per box, how many halves of each species show each tree symbol in each slot (the
table below, from the public facts), the box totals, the attributes of every face, and that no
card pairs a species with itself. (That every printed effect compiles against the rules is
`silvics check`'s job, tested with every bundled game.)
"""
from __future__ import annotations

import collections
import re
from pathlib import Path

import pytest
import yaml


CARDS = Path(__file__).resolve().parent.parent / "cards" / "forest-shuffle"
BOXES = {"base": CARDS, "alpine": CARDS / "alpine", "woodland-edge": CARDS / "woodland-edge",
         "exploration": CARDS / "exploration"}
KINDS = {"trees.yaml": "tree", "vertical.yaml": "vertical", "horizontal.yaml": "horizontal"}
SIDES = {"vertical": ("top_half", "bottom_half"), "horizontal": ("left_half", "right_half")}
SLOT = {"top_half": "T", "bottom_half": "B", "left_half": "L", "right_half": "R"}
TOTALS = {  # physical cards per box: trees (or shrubs), top/bottom cards, left/right cards
    "base": {"tree": 66, "vertical": 48, "horizontal": 44},
    "alpine": {"tree": 14, "vertical": 12, "horizontal": 10},
    "woodland-edge": {"tree": 12, "vertical": 12, "horizontal": 12},
    "exploration": {"tree": 4, "vertical": 6, "horizontal": 5},
}
TYPES = {"tree", "shrub", "bat", "paw", "cloven-hoofed", "deer", "insect", "butterfly", "bird", "plant", "mushroom",
         "amphibian", "mountain", "woodland-edge", "swamp"}
SYMBOLS = {"beech", "birch", "douglas-fir", "horse-chestnut", "linden", "oak", "silver-fir", "sycamore",
           "european-larch", "stone-pine", "golden-palm", "european-alder", "bamboo"}
EFFECTS = ("effect", "bonus", "scoring", "reaction", "forest_reaction", "winter_reaction")
NO_SCORING = {  # the species that score 0 points leave scoring out
    "Black Trumpet", "Blackthorn", "Brown Bear", "Chanterelle", "Common Hazel", "Eierschwammerl", "Elderberry",
    "Fly Agaric", "Mole", "Parasol Mushroom", "Penny Bun", "Raccoon", "Violet Carpenter Bee", "Water Vole"}
SPECIES = {  # name: (species, cost, types); the Woodland Edge Squeakers add woodland-edge
    "Beech": ("beech", 1, "tree"),
    "Birch": ("birch", 0, "tree"),
    "Douglas Fir": ("douglas-fir", 2, "tree"),
    "Horse Chestnut": ("horse-chestnut", 1, "tree"),
    "Linden": ("linden", 1, "tree"),
    "Oak": ("oak", 2, "tree"),
    "Silver Fir": ("silver-fir", 2, "tree"),
    "Sycamore": ("sycamore", 2, "tree"),
    "Barbastelle Bat": ("barbastelle-bat", 1, "bat"),
    "Bechstein's Bat": ("bechsteins-bat", 1, "bat"),
    "Brown Long-eared Bat": ("brown-long-eared-bat", 1, "bat"),
    "Greater Horseshoe Bat": ("greater-horseshoe-bat", 1, "bat"),
    "Beech Marten": ("beech-marten", 1, "paw"),
    "Brown Bear": ("brown-bear", 3, "paw"),
    "European Badger": ("european-badger", 1, "paw"),
    "European Fat Dormouse": ("european-fat-dormouse", 1, "paw"),
    "European Hare": ("european-hare", 0, "paw"),
    "Fallow Deer": ("fallow-deer", 2, "cloven-hoofed deer"),
    "Gnat": ("gnat", 0, "insect"),
    "Lynx": ("lynx", 1, "paw"),
    "Raccoon": ("raccoon", 1, "paw"),
    "Red Deer": ("red-deer", 2, "cloven-hoofed deer"),
    "Red Fox": ("red-fox", 2, "paw"),
    "Roe Deer": ("roe-deer", 2, "cloven-hoofed deer"),
    "Squeaker": ("squeaker", 0, "cloven-hoofed"),
    "Violet Carpenter Bee": ("violet-carpenter-bee", 1, "insect"),
    "Wild Boar": ("wild-boar", 2, "cloven-hoofed"),
    "Wolf": ("wolf", 3, "paw"),
    "Bullfinch": ("bullfinch", 1, "bird"),
    "Camberwell Beauty": ("camberwell-beauty", 0, "butterfly insect"),
    "Chaffinch": ("chaffinch", 1, "bird"),
    "Eurasian Jay": ("eurasian-jay", 1, "bird"),
    "Goshawk": ("goshawk", 2, "bird"),
    "Great Spotted Woodpecker": ("great-spotted-woodpecker", 1, "bird"),
    "Large Tortoiseshell": ("large-tortoiseshell", 0, "butterfly insect"),
    "Peacock Butterfly": ("peacock-butterfly", 0, "butterfly insect"),
    "Purple Emperor": ("purple-emperor", 0, "butterfly insect"),
    "Red Squirrel": ("red-squirrel", 0, "paw"),
    "Silver-washed Fritillary": ("silver-washed-fritillary", 0, "butterfly insect"),
    "Tawny Owl": ("tawny-owl", 2, "bird"),
    "Blackberries": ("blackberries", 0, "plant"),
    "Chanterelle": ("chanterelle", 2, "mushroom"),
    "Common Toad": ("common-toad", 0, "amphibian"),
    "Fire Salamander": ("fire-salamander", 1, "amphibian"),
    "Fireflies": ("fireflies", 0, "insect"),
    "Fly Agaric": ("fly-agaric", 2, "mushroom"),
    "Hedgehog": ("hedgehog", 1, "paw"),
    "Mole": ("mole", 2, "paw"),
    "Moss": ("moss", 0, "plant"),
    "Parasol Mushroom": ("parasol-mushroom", 2, "mushroom"),
    "Penny Bun": ("penny-bun", 2, "mushroom"),
    "Pond Turtle": ("pond-turtle", 2, "amphibian"),
    "Stag Beetle": ("stag-beetle", 2, "insect"),
    "Tree Ferns": ("tree-ferns", 1, "plant"),
    "Tree Frog": ("tree-frog", 0, "amphibian"),
    "Wild Strawberries": ("wild-strawberries", 0, "plant"),
    "Wood Ant": ("wood-ant", 1, "insect"),
    "European Larch": ("european-larch", 1, "mountain tree"),
    "Stone Pine": ("stone-pine", 2, "mountain tree"),
    "Alpine Marmot": ("alpine-marmot", 1, "mountain paw"),
    "Capercaillie": ("capercaillie", 1, "mountain bird"),
    "Chamois": ("chamois", 1, "mountain cloven-hoofed"),
    "Mountain Hare": ("mountain-hare", 0, "mountain paw"),
    "Savi's Pipistrelle": ("savis-pipistrelle", 1, "mountain bat"),
    "Steinbock": ("steinbock", 3, "mountain cloven-hoofed"),
    "Bearded Vulture": ("bearded-vulture", 1, "mountain bird"),
    "Common Raven": ("common-raven", 1, "mountain bird"),
    "Golden Eagle": ("golden-eagle", 1, "mountain bird"),
    "Phoebus Apollo": ("phoebus-apollo", 0, "mountain butterfly insect"),
    "Alpine Newt": ("alpine-newt", 1, "mountain amphibian"),
    "Black Trumpet": ("black-trumpet", 2, "mountain mushroom"),
    "Blueberry": ("blueberry", 1, "mountain plant"),
    "Edelweiss": ("edelweiss", 1, "mountain plant"),
    "Gentian": ("gentian", 0, "mountain plant"),
    "Blackthorn": ("blackthorn", 2, "shrub woodland-edge"),
    "Common Hazel": ("common-hazel", 2, "shrub woodland-edge"),
    "Elderberry": ("elderberry", 2, "shrub woodland-edge"),
    "Bee Swarm": ("bee-swarm", 1, "insect woodland-edge"),
    "Common Pipistrelle": ("common-pipistrelle", 1, "bat woodland-edge"),
    "Crane Fly": ("crane-fly", 1, "insect woodland-edge"),
    "European Bison": ("european-bison", 3, "cloven-hoofed woodland-edge"),
    "European Polecat": ("european-polecat", 2, "paw woodland-edge"),
    "European Wildcat": ("european-wildcat", 1, "paw woodland-edge"),
    "Wild Boar (female)": ("wild-boar-female", 2, "cloven-hoofed woodland-edge"),
    "Barn Owl": ("barn-owl", 2, "bird woodland-edge"),
    "Eurasian Magpie": ("eurasian-magpie", 1, "bird woodland-edge"),
    "Map Butterfly": ("map-butterfly", 0, "butterfly insect woodland-edge"),
    "Nightingale": ("nightingale", 1, "bird woodland-edge"),
    "Digitalis": ("digitalis", 0, "plant woodland-edge"),
    "Great Green Bush-Cricket": ("great-green-bush-cricket", 1, "insect woodland-edge"),
    "Stinging Nettle": ("stinging-nettle", 0, "plant woodland-edge"),
    "Water Vole": ("water-vole", 2, "paw woodland-edge"),
    "Moor Birch": ("birch", 0, "tree"),
    "O Christmas Tree": ("silver-fir", 2, "tree"),
    "Palm Tree": ("palm-tree", 1, "tree"),
    "Turkey Oak": ("oak", 1, "tree"),
    "Arctic Fox": ("arctic-fox", 2, "paw"),
    "Brimstone": ("brimstone", 0, "butterfly insect"),
    "Cardinal": ("cardinal", 1, "bird woodland-edge"),
    "Cuckoo": ("cuckoo", 1, "bird"),
    "Eierschwammerl": ("chanterelle", 2, "mushroom"),
    "Elk": ("elk", 3, "cloven-hoofed deer"),
    "Genet": ("genet", 1, "paw"),
    "Marsh Cinquefoil": ("marsh-cinquefoil", 1, "plant swamp"),
    "Mistletoe": ("mistletoe", 1, "plant"),
    "Red Panda": ("red-panda", 1, "paw"),
    "Robin": ("robin", 1, "bird woodland-edge"),
    "Sable": ("sable", 1, "paw"),
    "Say's Firefly": ("fireflies", 0, "insect woodland-edge"),
    "Troll": ("troll", 1, "paw"),
    "Whinchat": ("whinchat", 1, "bird"),
    "White Stork": ("white-stork", 1, "bird woodland-edge"),
    "Wild Tulip": ("wild-tulip", 0, "plant woodland-edge"),
}
HALVES = {  # box: {name: 'SLOT:symbol*count ...'}; SLOT T top, B bottom, L left, R right, tree
    "base": {
        "Beech": "tree:beech*10",
        "Birch": "tree:birch*10",
        "Douglas Fir": "tree:douglas-fir*7",
        "Horse Chestnut": "tree:horse-chestnut*11",
        "Linden": "tree:linden*9",
        "Oak": "tree:oak*7",
        "Silver Fir": "tree:silver-fir*6",
        "Sycamore": "tree:sycamore*6",
        "Barbastelle Bat": "L:horse-chestnut L:silver-fir R:oak",
        "Bechstein's Bat": "L:beech L:oak R:birch",
        "Brown Long-eared Bat": "L:sycamore*2 R:beech",
        "Greater Horseshoe Bat": "L:beech R:linden*2",
        "Beech Marten": "L:beech L:sycamore R:horse-chestnut*2 R:oak",
        "Brown Bear": "L:linden R:beech R:horse-chestnut",
        "European Badger": "L:horse-chestnut*2 R:douglas-fir*2",
        "European Fat Dormouse": "L:beech L:silver-fir R:douglas-fir R:oak",
        "European Hare": "L:beech L:birch*2 L:linden L:silver-fir L:oak R:birch R:silver-fir R:linden R:sycamore*2",
        "Fallow Deer": "L:linden*2 R:birch R:sycamore",
        "Gnat": "L:birch R:horse-chestnut R:oak",
        "Lynx": "L:douglas-fir*2 L:horse-chestnut R:beech R:linden R:silver-fir",
        "Raccoon": "L:douglas-fir L:silver-fir R:birch R:silver-fir",
        "Red Deer": "L:linden L:silver-fir R:horse-chestnut*2 R:oak",
        "Red Fox": "L:beech L:linden*2 R:douglas-fir R:oak",
        "Roe Deer": "L:linden L:silver-fir R:beech R:birch R:horse-chestnut",
        "Squeaker": "L:horse-chestnut L:oak R:oak R:sycamore",
        "Violet Carpenter Bee": "L:douglas-fir L:silver-fir R:douglas-fir*2",
        "Wild Boar": "L:birch L:sycamore*2 R:douglas-fir R:oak",
        "Wolf": "L:douglas-fir L:sycamore R:silver-fir*2",
        "Bullfinch": "T:douglas-fir*3 T:silver-fir",
        "Camberwell Beauty": "T:birch T:horse-chestnut T:sycamore*2",
        "Chaffinch": "T:beech T:birch T:sycamore*2",
        "Eurasian Jay": "T:birch*2 T:horse-chestnut T:sycamore",
        "Goshawk": "T:douglas-fir T:silver-fir*2 T:oak",
        "Great Spotted Woodpecker": "T:douglas-fir T:linden*3",
        "Large Tortoiseshell": "T:beech T:silver-fir*2 T:sycamore",
        "Peacock Butterfly": "T:horse-chestnut T:linden T:silver-fir T:oak",
        "Purple Emperor": "T:birch T:horse-chestnut*2 T:linden",
        "Red Squirrel": "T:beech T:douglas-fir T:horse-chestnut T:oak",
        "Silver-washed Fritillary": "T:beech T:oak*3",
        "Tawny Owl": "T:beech*2 T:birch T:sycamore",
        "Blackberries": "B:beech B:birch B:silver-fir",
        "Chanterelle": "B:birch B:silver-fir",
        "Common Toad": "B:beech B:douglas-fir B:horse-chestnut B:oak B:silver-fir B:sycamore",
        "Fire Salamander": "B:horse-chestnut B:linden B:douglas-fir",
        "Fireflies": "B:beech B:douglas-fir B:linden B:sycamore",
        "Fly Agaric": "B:silver-fir B:oak",
        "Hedgehog": "B:beech B:horse-chestnut B:oak",
        "Mole": "B:oak B:sycamore",
        "Moss": "B:douglas-fir B:linden*2",
        "Parasol Mushroom": "B:horse-chestnut B:silver-fir",
        "Penny Bun": "B:douglas-fir*2",
        "Pond Turtle": "B:birch B:sycamore",
        "Stag Beetle": "B:birch B:sycamore",
        "Tree Ferns": "B:horse-chestnut B:linden B:silver-fir",
        "Tree Frog": "B:linden B:oak*2",
        "Wild Strawberries": "B:birch B:sycamore*2",
        "Wood Ant": "B:beech*2 B:birch",
    },
    "alpine": {
        "European Larch": "tree:european-larch*7",
        "Stone Pine": "tree:stone-pine*7",
        "Alpine Marmot": "L:european-larch L:beech R:birch R:stone-pine",
        "Capercaillie": "L:european-larch L:stone-pine R:beech R:douglas-fir",
        "Chamois": "L:european-larch R:douglas-fir R:stone-pine",
        "Mountain Hare": "L:european-larch L:silver-fir R:stone-pine",
        "Savi's Pipistrelle": "L:european-larch L:silver-fir R:stone-pine",
        "Steinbock": "L:european-larch R:douglas-fir R:stone-pine",
        "Bearded Vulture": "T:european-larch T:silver-fir T:stone-pine",
        "Common Raven": "T:european-larch T:douglas-fir",
        "Golden Eagle": "T:european-larch T:beech T:silver-fir",
        "Phoebus Apollo": "T:european-larch T:douglas-fir T:silver-fir T:stone-pine",
        "Alpine Newt": "B:douglas-fir B:silver-fir B:stone-pine",
        "Black Trumpet": "B:european-larch B:stone-pine",
        "Blueberry": "B:birch B:stone-pine",
        "Edelweiss": "B:european-larch B:stone-pine",
        "Gentian": "B:european-larch B:beech B:stone-pine",
    },
    "woodland-edge": {
        "Squeaker": "L:horse-chestnut R:douglas-fir R:silver-fir",
        "Blackthorn": "tree:birch tree:douglas-fir tree:silver-fir tree:sycamore",
        "Common Hazel": "tree:beech tree:birch tree:horse-chestnut tree:oak",
        "Elderberry": "tree:birch tree:linden tree:oak tree:sycamore",
        "Bee Swarm": "L:beech R:birch R:sycamore",
        "Common Pipistrelle": "L:birch L:linden R:sycamore",
        "Crane Fly": "L:birch R:beech R:oak",
        "European Bison": "L:beech L:oak R:beech",
        "European Polecat": "L:silver-fir R:sycamore R:oak",
        "European Wildcat": "L:oak L:sycamore R:horse-chestnut",
        "Wild Boar (female)": "L:birch R:sycamore L:silver-fir",
        "Barn Owl": "T:birch T:sycamore",
        "Eurasian Magpie": "T:beech T:birch T:silver-fir",
        "Map Butterfly": "T:linden T:oak T:silver-fir T:sycamore",
        "Nightingale": "T:beech T:horse-chestnut T:oak",
        "Digitalis": "B:birch B:douglas-fir B:oak B:sycamore",
        "Great Green Bush-Cricket": "B:beech B:silver-fir B:oak",
        "Stinging Nettle": "B:birch B:horse-chestnut B:sycamore",
        "Water Vole": "B:beech B:sycamore",
    },
    "exploration": {
        "European Badger": "R:beech",
        "Gnat": "L:oak",
        "Fire Salamander": "B:beech",
        "European Bison": "L:beech",
        "Water Vole": "B:linden",
        "Moor Birch": "tree:birch",
        "O Christmas Tree": "tree:silver-fir",
        "Palm Tree": "tree:golden-palm",
        "Turkey Oak": "tree:oak",
        "Arctic Fox": "L:oak",
        "Brimstone": "T:douglas-fir",
        "Cardinal": "T:sycamore",
        "Cuckoo": "T:birch",
        "Eierschwammerl": "B:douglas-fir",
        "Elk": "L:birch",
        "Genet": "L:oak",
        "Marsh Cinquefoil": "B:european-alder",
        "Mistletoe": "T:linden",
        "Red Panda": "R:bamboo",
        "Robin": "T:birch",
        "Sable": "R:silver-fir",
        "Say's Firefly": "B:linden",
        "Troll": "R:douglas-fir",
        "Whinchat": "T:horse-chestnut",
        "White Stork": "R:oak",
        "Wild Tulip": "B:horse-chestnut",
    },
}
# What the rules (rules/forest-shuffle/game.yaml) provide, per the data contract: procedures,
# definitions, zones, the module, and the names free_play and clearing_to_cave read.


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def files():
    for box, folder in BOXES.items():
        for name, kind in KINDS.items():
            yield box, kind, load(folder / name)


def faces():
    """(box, file kind, card, side name or None, face attributes) of every card in the boxes."""
    for box, kind, data in files():
        for card in data["cards"]:
            if kind == "tree":
                yield box, kind, card, None, card
            else:
                for side in SIDES[kind]:
                    yield box, kind, card, side, card["sides"][side]


def copies(card) -> int:
    return card.get("copies", 1)


def expected_halves(box) -> collections.Counter:
    want = collections.Counter()
    for name, text in HALVES[box].items():
        for part in text.split():
            slot, _, rest = part.partition(":")
            symbol, _, n = rest.partition("*")
            want[(name, slot, symbol)] += int(n or 1)
    return want


def test_every_file_has_its_kind():
    for box, kind, data in files():
        assert data["kind"] == kind, (box, kind)
    winter = load(CARDS / "winter.yaml")
    assert winter == {"kind": "winter", "cards": [{"id": "winter", "name": "Winter", "copies": 3}]}


@pytest.mark.parametrize("box", list(BOXES))
def test_each_species_half_and_symbol_has_its_count(box):
    got = collections.Counter()
    for face_box, kind, card, side, face in faces():
        if face_box == box:
            got[(face["name"], SLOT[side] if side else "tree", face["symbol"])] += copies(card)
    assert got == expected_halves(box)


def test_box_totals():
    got = collections.defaultdict(dict)
    for box, kind, data in files():
        got[box][kind] = sum(copies(card) for card in data["cards"])
    assert got == TOTALS
    assert sum(sum(kinds.values()) for kinds in TOTALS.values()) == 66 + 48 + 44 + 36 + 36 + 15


def test_faces_have_the_contract_attributes():
    for box, kind, card, side, face in faces():
        where = (card["id"], side)
        species, cost, types = SPECIES[face["name"]]
        if face["name"] == "Squeaker" and box == "woodland-edge":
            types += " woodland-edge"
        assert (face["species"], face["cost"], face["types"]) == (species, cost, types.split()), where
        assert face["symbol"] in SYMBOLS and set(face["types"]) <= TYPES, where
        allowed = {"name", "species", "types", "symbol", "cost", "edition", "effect", "bonus", "scoring"}
        allowed |= {"forest_reaction", "winter_reaction", "id", "copies"} if kind == "tree" else {"reaction"}
        assert set(face) <= allowed, where
        assert ("scoring" in face) == (face["name"] not in NO_SCORING), where


def test_a_species_prints_the_same_rules_on_every_card():
    rules = {}
    for box, kind, card, side, face in faces():
        printed = {key: face.get(key) for key in EFFECTS}
        assert rules.setdefault(face["name"], printed) == printed, (card["id"], side)


AS = {  # a card that acts "as" another (the facts, the rulebook): that card, the rules it prints of
    # its own, and whether it counts as that species (the Arctic Fox only scores as a Red Fox)
    "Moor Birch": ("Birch", set(), True),             # "draw 1 card (as Birch)", "1 point (as Birch)"
    "O Christmas Tree": ("Silver Fir", {"winter_reaction"}, True),  # bonus and scoring "as Silver Fir"
    "Turkey Oak": ("Oak", {"bonus", "scoring"}, True),  # "an Oak variant with its own scoring"; no bonus
    "Eierschwammerl": ("Chanterelle", set(), True),   # "effect: as Chanterelle"; "a Chanterelle copy"
    "Say's Firefly": ("Fireflies", set(), True),      # "Counts as a firefly"
    "Arctic Fox": ("Red Fox", set(), False),          # "2 per hare (as Red Fox)"; the effect assumed so
}


@pytest.mark.parametrize("name", list(AS))
def test_a_card_that_acts_as_another_prints_its_rules(name):
    """A variant that counts as another species names it (the Moor Birch is a Birch: "These are not
    considered new tree species but a Birch, Oak, and Silver Fir"), and prints that species' rules
    word for word, except where the facts give it rules of its own."""
    found = {face["name"]: face for _, _, _, _, face in faces()}
    other, own, same_species = AS[name]
    card, model = found[name], found[other]
    assert (card["species"] == model["species"]) == same_species
    assert {key: card.get(key) for key in EFFECTS if key not in own} == \
        {key: model.get(key) for key in EFFECTS if key not in own}


def test_split_cards_pair_two_species_and_are_named_after_them():
    ids = collections.Counter()
    for box, kind, data in files():
        for card in data["cards"]:
            ids[card["id"]] += 1
            assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", card["id"]), card["id"]
            if kind == "tree":
                continue
            first, second = (card["sides"][side]["species"] for side in SIDES[kind])
            assert first != second, card["id"]
            assert re.fullmatch(rf"{first}--{second}(-[0-9]+)?", card["id"]), card["id"]
    assert [i for i, n in ids.items() if n > 1] == []


def test_each_challenge_sets_a_goal_and_a_minimum_score_per_tier():
    """"This sets your goal and minimum score": each challenge gives both for bronze, silver and
    gold, rising (a tier met means the ones below it are met too: the stars count the tiers met).
    Bat Forest's bronze is the rulebook's example: 4 or more bats and at least 200 points."""
    challenges = {card["id"]: card for card in load(CARDS / "solo" / "challenges.yaml")["cards"]}
    assert len(challenges) == 12
    for card in challenges.values():
        for tiers in (card["needs"], card["minimum"]):
            assert len(tiers) == 3 and tiers == sorted(tiers), card["id"]
    bats = challenges["bat-forest"]
    assert (bats["goal"], bats["needs"][0], bats["minimum"][0]) == ("count(with_type(bat))", 4, 200)
