"""The rules reference players read (compiler/rulebook.py): sections in the order of play,
numbered steps in the game's words, a heading per procedure reached, modules as what changes."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from silvics import bundled
from silvics.compiler.build import compile_game
from silvics.compiler.rulebook import rules_page

GAMES = Path(__file__).parent / "fixtures" / "games"


@pytest.fixture(scope="module")
def market():
    return rules_page(compile_game(GAMES / "market" / "game.yaml"), gallery="cards.md")


def section(page: str, title: str) -> str:
    """The text under a ## heading, up to the next ## heading."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", page, re.M | re.S)
    assert match, f"no section {title!r} in:\n{page}"
    return match.group(1)


def test_the_sections_follow_the_game(market):
    titles = re.findall(r"^## (.*)$", market, re.M)
    assert titles == ["Components", "Setup", "Playing", "At any moment", "End of the game and scoring"]


def test_components_count_the_cards_and_name_each_place_in_the_games_words(market):
    components = section(market, "Components")
    assert "- 6 cards: 6 goods cards ([every card](cards.md))." in components
    assert "- The row: shared, face up." in components           # the vocabulary's "the row"
    assert "- Your stall: each player has one, face up." in components
    assert "- Coins: a number each player keeps, from 0." in components           # declared `shown: coins`
    assert "turns" not in components.lower()                                    # the rules' own bookkeeping


def test_setup_is_numbered_steps(market):
    assert section(market, "Setup").split() == (
        "1. Move all from box to deck. 2. Shuffle deck. 3. Refill the row from deck up to 3 cards.").split()


def test_each_procedure_reached_gets_a_heading_and_its_steps_in_the_games_words(market):
    playing = section(market, "Playing")
    assert re.findall(r"^### (.*)$", playing, re.M) == ["Turn", "Buy", "Rest", "Sell"]
    assert "1. Choose one: buy, or rest, or sell." in playing
    assert "1. Buy a card from the row.\n2. Gain the price of card coins." in playing   # a run of steps, one phrase
    assert "1. Gain 1 coin.\n2. Discard 1 card from the row." in playing


def test_a_procedure_no_rule_reaches_is_not_a_rule_players_read(market):
    assert "market_day" not in market.lower() and "Market day" not in market


def test_a_procedure_with_no_steps_and_every_call_to_it_are_left_out(tmp_path):
    game = tmp_path / "market"
    shutil.copytree(GAMES / "market", game)
    text = (game / "game.yaml").read_text()
    text = text.replace("    - shuffle deck\n", "    - shuffle deck\n    - stretch\n").replace(
        "  play:\n", "  stretch: []\n  play:\n")
    (game / "game.yaml").write_text(text)
    page = rules_page(compile_game(game / "game.yaml"))
    assert "tretch" not in page
    assert "2. Shuffle deck.\n3. Refill the row" in section(page, "Setup")


def test_modules_say_what_changes():
    page = rules_page(compile_game(GAMES / "harvest" / "game.yaml"))
    modules = section(page, "Modules")
    assert "### rare-dealt" in modules
    assert "- Deal, instead: move 1 from deck to your hand." in modules
    assert "- Before setup: each player, from the first player clockwise: (move the top card of box where grows is " \
           "exotic to your hand)." in modules
    assert "- After setup: set trail to trail times 10 plus 1.\n- Adds 5 fruit cards." in modules


def test_a_module_filling_a_procedure_with_no_steps_names_it_and_replaces_nothing():
    """Reforest's events_setup has no steps in the base game, and its calls read as nothing;
    the events module fills it: named by its words, without "instead"."""
    from silvics import bundled
    modules = section(rules_page(compile_game(bundled.games()["reforest"])), "Modules")
    assert "- Set up the events (events module): take the event cards out of the box;" in modules
    assert "- ," not in modules and "(events module), instead" not in modules


def test_the_page_words_each_persona_and_how_a_game_alone_is_won():
    """How a game alone is won is for players; the personas, for designers (the rules as written)."""
    from silvics import bundled
    from silvics.compiler.docs import game_page
    reforest = rules_page(compile_game(bundled.games()["reforest"]))
    assert "Playing alone, you win if your score is more than the target score." in reforest
    assert "Personas" not in reforest
    reforest = game_page(compile_game(bundled.games()["reforest"]))
    personas = reforest.split("## Personas for simulation\n")[1].split("\n## ")[0]
    assert "### grower" in personas and "- Always: take play a plant, when offered." in personas
    assert "- At play a plant, asked to choose space: keep the options for which" in personas
    four_forests = game_page(compile_game(bundled.games()["four-forests"]))
    assert "- At cultivate: keep the options with the highest value." in four_forests
    assert "- At prune: keep the options with the lowest value." in four_forests           # prefer: 0 - value
    assert "the highest the " not in four_forests and "0 minus" not in four_forests
    assert "- At harvest/burn, asked to choose way: take “for”, when offered." in four_forests   # an option's label, quoted
    assert "Playing alone" not in four_forests


@pytest.mark.parametrize("game_id", sorted(bundled.games()))
def test_the_players_page_lists_only_the_counters_players_see_and_no_persona(game_id):
    """The rules' own bookkeeping (a counter not declared `shown:`) and the simulation's personas
    belong on the designers' page, not the players'."""
    ir = compile_game(bundled.games()[game_id])
    page = rules_page(ir)
    counted = re.findall(r"^- ([^:]+): (?:a number (?:kept for all|each player keeps)|.*\((?:kept for all|each "
                         r"player's own)\)\.$)", section(page, "Components"), re.M)
    assert sorted(counted) == sorted(c.shown[:1].upper() + c.shown[1:] for c in ir.counters if c.shown)
    assert "Personas" not in page


ENGINE_TERMS = {  # what a players' page never shows: the rules' names and syntax, not its words
    "a name of the rules": re.compile(r"(?<![\w/.-])[a-z]+_[a-z_]+\b"),       # draw_two, cloud_action
    "a call": re.compile(r"\b[a-z_]+\([a-z_, ]*\)"),                             # price(c, s)
    "a zone key": re.compile(r"\b\w+[@:/]\d"),                                   # hand@1, region:low.1, slots/3
    "a brace": re.compile(r"[{}]"),                                              # {N}, {you}
}


def players_pages(ir) -> dict[str, str]:
    """The pages of a game's (or pack's) site written for players, as readers see their text:
    without the card faces' SVG (colours, coordinates) and code blocks."""
    from silvics.reference import GAME_PAGES, PACK_PAGES
    pages = PACK_PAGES[:-1] if ir.pack.name else GAME_PAGES[:2]     # not the designers' "as written"
    return {name: re.sub(r"<svg.*?</svg>|```.*?```|<[^>]*>", "", page(ir), flags=re.S) for name, _, page in pages}


def pack_ir():
    from silvics.compiler.build import compile_pack
    return compile_pack(GAMES.parent / "packs" / "mythic", lambda name: bundled.games()[name])


@pytest.mark.parametrize("game_id", [*sorted(bundled.games()), "mythic (a pack)"])
def test_a_players_page_shows_no_engine_term(game_id):
    """No name, call, zone key or hole of the rules on a page for players, no card id, no
    counter players do not see, no persona: the scan the issue asks for, over each bundled game
    and a pack."""
    ir = pack_ir() if game_id.startswith("mythic") else compile_game(bundled.games()[game_id])
    ids = {card.id for card in ir.cards if "-" in card.id}             # (a one-word id is a word too)
    unseen = {c.name for c in ir.counters if not c.shown and "_" in c.name}
    for name, text in players_pages(ir).items():
        found = {kind: sorted(set(rx.findall(text))) for kind, rx in ENGINE_TERMS.items()}
        found["a card id"] = sorted(i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text))
        found["a counter players do not see"] = sorted(c for c in unseen if c in text)
        found["personas"] = ["Personas"] if "Persona" in text else []
        assert not {kind: terms for kind, terms in found.items() if terms}, name


def test_a_grid_is_counted_in_words_one_row_or_column_singular():
    """Reforest's terrains lie in a grid of one column: "3 rows by 1 column", never "1 columns"."""
    page = rules_page(compile_game(bundled.games()["reforest"]))
    components = section(page, "Components")
    assert "- Your terrains: a grid of 3 rows by 1 column, each player has one, face up." in components
    assert "- The spaces of your region: a grid of 3 rows by 2 columns, each player has one, face up." in components
