"""Each bundled game's site in a real browser (Debian's chromium, headless, driven by Playwright:
the `browser` fixture of conftest.py): a card's entry (its name and text) is visible on the
rendered page, and the site's search lists it. mkdocs' search runs in a Web Worker, so the
results are waited for on the page.
"""
import functools
import http.server
import json
import threading
from urllib.parse import quote

import pytest

from silvics import bundled, games
from silvics.cli import main
from silvics.compiler.cardtext import card_text
from silvics.reference import GAME_PAGES

WAIT = 20          # seconds a page, or an answer from the browser, may take


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """Every bundled game's site (a few balance games each), built once and served on
    127.0.0.1; the address of the folder that holds them."""
    root = tmp_path_factory.mktemp("sites")
    for game in bundled.games():
        assert main(["docs", game, "-o", str(root / game), "--balance", "3"]) == 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def tab(browser):
    """A tab of the shared browser: `shown(url, expression)` is the expression's value on the page at url."""
    page = browser.new_page()
    page.set_default_timeout(WAIT * 1000)

    def shown(url: str, expression: str):
        page.goto(url)
        return page.evaluate(expression)

    yield shown
    page.close()


def a_card_with_text(ir) -> tuple[str, str, list[str]]:
    """A card's id, name and printed text (cardtext.py, as the gallery gives it): the first card
    with any; in a game with none, its first card and its printed values."""
    for card in ir.cards:
        for side in card_text(ir, card):
            if side.lines:
                return card.id, side.name, list(side.lines)
    side = card_text(ir, ir.cards[0])[0]
    return ir.cards[0].id, side.name, [", ".join(map(str, value)) if isinstance(value, tuple) else str(value)
                                       for value in side.printed.values()]


def words(text: str) -> str:
    return " ".join(text.split())


FACE_AREA = """(() => { const heading = document.getElementById(%s); let el = heading && heading.nextElementSibling;
  while (el && !(el.classList && el.classList.contains('card-faces'))) el = el.nextElementSibling;
  const face = el && el.querySelector('svg'); if (!face) return 0;
  const box = face.getBoundingClientRect(); return box.width * box.height; })()"""


@pytest.mark.parametrize("game", bundled.games())
def test_a_cards_entry_is_visible_on_the_rendered_site(tab, sites, game):
    """On the rendered page: the card's name and printed text are visible, and its face is drawn
    (an SVG with an area, right after the card's heading)."""
    root, address = sites
    card_id, name, texts = a_card_with_text(games.load(game))
    pages = {page: f"{address}/{game}/site/{'' if page == 'index.md' else page.removesuffix('.md') + '/'}"
             for page, _, _ in GAME_PAGES}
    shown = {page: words(tab(url, "document.body.innerText")) for page, url in pages.items()}   # what is visible
    found = [page for page, text in shown.items() if name in text and all(words(t) in text for t in texts)]
    assert found, (name, texts)
    area = tab(pages[found[0]], FACE_AREA % json.dumps(card_id))
    assert area > 1000, f"{card_id}'s face is not drawn"


SEARCH_RESULTS = """new Promise(done => { const start = Date.now(); (function look() {
  const results = document.getElementById('mkdocs-search-results');
  if (results.children.length || Date.now() - start > %d)
    done({shown: results.innerText, links: [...results.querySelectorAll('article a')].map(a => a.getAttribute('href'))});
  else setTimeout(look, 50); })(); })"""


@pytest.mark.parametrize("game", bundled.games())
def test_the_search_finds_a_card_by_its_name(tab, sites, game):
    """The mkdocs theme searches from any page given `?q=`: the search box opens with the
    results, each a link to a section; one of them is the section that holds the card."""
    root, address = sites
    _, name, _ = a_card_with_text(games.load(game))
    found = tab(f"{address}/{game}/site/?q={quote(name)}", SEARCH_RESULTS % (WAIT * 1000))
    assert found["links"], f"the search for {name!r} lists nothing"
    assert found["shown"].strip(), "the results are not visible"
    index = json.loads((root / game / "site" / "search" / "search_index.json").read_text(encoding="utf-8"))
    sections = {doc["location"]: doc["title"] + " " + doc["text"] for doc in index["docs"]}
    assert any(name in sections.get(link.removeprefix("./"), "") for link in found["links"]), found["links"]
