"""Each bundled game's site in a real browser, Debian's `chromium` run headless: a card's
entry (its name and text) is visible on the rendered page, and the site's search lists it.

The browser is driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON
messages ended by a NUL byte on file descriptors 3 and 4), with the standard library only.
`--dump-dom` is not enough: mkdocs' search runs in a Web Worker, and the dump is taken
before the Worker answers, whatever `--virtual-time-budget` says.
"""
import functools
import http.server
import json
import os
import select
import shutil
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from silvics import bundled, games
from silvics.cli import main
from silvics.compiler.english import english
from silvics.interpreter.ir import Node
from silvics.reference import GAME_PAGES

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (`apt-get install chromium`; .ci/run installs it where it "
                             "runs as root with apt-get)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT = 20          # seconds a page, or an answer from the browser, may take


class Chromium:
    """A headless chromium, spoken to over the DevTools protocol on a pipe."""

    def __init__(self, profile: Path):
        to_browser, from_browser = os.pipe(), os.pipe()
        self.process = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(3, 4),
            preexec_fn=functools.partial(_as_fds_3_and_4, to_browser[0], from_browser[1]))
        os.close(to_browser[0])
        os.close(from_browser[1])
        self.writing, self.reading, self.pending, self.last_id = to_browser[1], from_browser[0], b"", 0

    def call(self, method: str, session: str | None = None, **params) -> dict:
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params} | ({"sessionId": session} if session else {})
        os.write(self.writing, json.dumps(message).encode() + b"\0")
        reply = self.until(lambda m: m.get("id") == self.last_id)
        assert "error" not in reply, f"{method}: {reply['error']}"
        return reply["result"]

    def until(self, wanted) -> dict:
        """The next message `wanted` accepts; the events before it are let go."""
        deadline = time.monotonic() + WAIT
        while True:
            while b"\0" not in self.pending:
                assert select.select([self.reading], [], [], max(0.0, deadline - time.monotonic()))[0], \
                    "chromium did not answer in time"
                chunk = os.read(self.reading, 1 << 16)
                assert chunk, "chromium closed its pipe"
                self.pending += chunk
            raw, _, self.pending = self.pending.partition(b"\0")
            if wanted(message := json.loads(raw)):
                return message

    def open(self, url: str) -> str:
        """A new tab showing `url`, loaded; its session id."""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session)
        self.call("Page.navigate", session, url=url)
        self.until(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == session)
        return session

    def evaluate(self, session: str, expression: str):
        """The value of a JavaScript expression (a promise is awaited) in a tab."""
        reply = self.call("Runtime.evaluate", session, expression=expression, awaitPromise=True, returnByValue=True)
        assert "exceptionDetails" not in reply, reply["exceptionDetails"]
        return reply["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close")
            self.process.wait(timeout=WAIT)
        except (AssertionError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        os.close(self.writing)
        os.close(self.reading)


def _as_fds_3_and_4(reading: int, writing: int):
    """In the child: the pipe's ends where --remote-debugging-pipe looks for them (copied
    first, as either may already be 3 or 4)."""
    reading, writing = os.dup(reading), os.dup(writing)
    os.dup2(reading, 3)
    os.dup2(writing, 4)


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
def browser(tmp_path_factory):
    chromium = Chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield chromium
    chromium.close()


def a_card_with_text(ir) -> tuple[str, list[str]]:
    """A card's name and its text: the English of the effects, conditions and computed numbers
    of the first card with any (the printed text of cardtext.py is made of them); in a game
    with none, the printed values of its first card."""
    for card in ir.cards:
        for side in card.sides:
            if texts := [english(value) for value in side.attributes.values() if isinstance(value, Node)]:
                return side.name or card.id, texts
    side = ir.cards[0].sides[0]
    return side.name or ir.cards[0].id, [", ".join(map(str, value)) if isinstance(value, tuple) else str(value)
                                         for value in side.attributes.values()]


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("game", bundled.games())
def test_a_cards_entry_is_visible_on_the_rendered_site(sites, browser, game):
    root, address = sites
    name, texts = a_card_with_text(games.load(game))
    shown = []
    for page, _, _ in GAME_PAGES:
        stem = page.removesuffix(".md")
        session = browser.open(f"{address}/{game}/site/{'' if stem == 'index' else stem + '/'}")
        shown.append(words(browser.evaluate(session, "document.body.innerText")))       # what is rendered visible
    assert any(name in page and all(words(text) in page for text in texts) for page in shown), (name, texts)


SEARCH_RESULTS = """new Promise(done => { const start = Date.now(); (function look() {
  const results = document.getElementById('mkdocs-search-results');
  if (results.children.length || Date.now() - start > %d)
    done({shown: results.innerText, links: [...results.querySelectorAll('article a')].map(a => a.getAttribute('href'))});
  else setTimeout(look, 50); })(); })"""


@pytest.mark.parametrize("game", bundled.games())
def test_the_search_finds_a_card_by_its_name(sites, browser, game):
    """The mkdocs theme searches from any page given `?q=`: the search box opens with the
    results, each a link to a section; one of them is the section that holds the card."""
    root, address = sites
    name, _ = a_card_with_text(games.load(game))
    session = browser.open(f"{address}/{game}/site/?q={quote(name)}")
    found = browser.evaluate(session, SEARCH_RESULTS % (WAIT * 1000))
    assert found["links"], f"the search for {name!r} lists nothing"
    assert found["shown"].strip(), "the results are not visible"
    index = json.loads((root / game / "site" / "search" / "search_index.json").read_text(encoding="utf-8"))
    sections = {doc["location"]: doc["title"] + " " + doc["text"] for doc in index["docs"]}
    assert any(name in sections.get(link.removeprefix("./"), "") for link in found["links"]), found["links"]
