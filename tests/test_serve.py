"""`silvics serve` over HTTP (Starlette's test client): keys, secrecy, refusals, hot seat, saves.

The promises tried here as an attacker would: a request without its seat's key learns nothing;
a seat's pages never name a card it has not seen, in a whole game of each bundled game; a
malformed, out-of-turn, replayed or oversized request is refused and changes nothing; card
text is escaped; a restarted server resumes at the same links.
"""
from __future__ import annotations

import html
import json
import random
import re

import pytest
from tables import PLAYERS, Secrets, new_table, resumed, wait_for_person

from silvics import saves
from silvics.web import app as web_app
from silvics.web.host import HOTSEAT

from conftest import run_cli

testclient = pytest.importorskip("starlette.testclient")


def client_of(table, pace: float = 0.0):
    return testclient.TestClient(web_app.build(table, pace))


def decision_of(html: str) -> int:
    return int(re.search(r'data-decision="(-?\d+)"', html).group(1))


def options_of(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<button type="button" data-option="(\d+)"', html)]


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_a_whole_game_names_no_card_a_seat_has_not_seen(game_id):
    """Both seats people, each at its own link: every page, answer and event each receives is
    scanned for the names of the cards it has never seen."""
    table = new_table(game_id, people=(1, 2))
    secrets_, rng = Secrets(table), random.Random(7)
    keys = {seat: table.keys[f"P{seat + 1}"] for seat in (0, 1)}
    with client_of(table) as client:
        with client.stream("GET", f"/play/{keys[0]}/events") as events:   # the push channel: a number alone
            assert next(events.iter_lines()) == f"data: {table.version}"
        decisions = 0
        while not table.game.over:
            secrets_.update()
            seat = table.game.pending.seat
            pages = {other: client.get(f"/play/{keys[other]}/view").text for other in (0, 1)}
            for other, page in pages.items():
                assert not secrets_.leaked(other, page), f"P{other + 1} was shown {secrets_.leaked(other, page)}"
            if decisions % 15 == 0:   # why not, of a card it has not seen: said no more than the words typed
                hidden = sorted(secrets_.hidden_from(seat))
                name = hidden[0] if hidden else "x"
                asked = client.post(f"/play/{keys[seat]}/why", json={"name": name})
                assert asked.status_code == 200 and not secrets_.leaked(seat, asked.text.replace(name, ""))
            answer = client.post(f"/play/{keys[seat]}/choose", json={
                "decision": decision_of(pages[seat]), "option": rng.choice(options_of(pages[seat]))})
            assert answer.status_code == 200, answer.text
            decisions += 1
        secrets_.update()
        for other in (0, 1):
            final = client.get(f"/play/{keys[other]}").text
            assert "The game is over." in final and not secrets_.leaked(other, final)
    assert decisions > 10


def test_the_leak_checker_names_a_hidden_card_on_a_page_until_the_seat_sees_it():
    """The checker of the test above can fail: a card's name on a page is a leak while the
    seat has never seen the card, as a word only, and no longer once the card has lain face up
    where the seat sees it (its hidden names are worked out again when the seat sees more)."""
    table = new_table("four-forests", people=(1, 2))
    secrets_, game = Secrets(table), table.game
    hidden = sorted(secrets_.hidden_from(0))
    name = hidden[0]
    assert secrets_.leaked(0, f"<li>{name}</li> and {hidden[1]}.") == sorted([name, hidden[1]])
    assert secrets_.leaked(0, f"x{name}x") == []                          # a word, not a part of one
    uid = next(uid for uid, names in secrets_.names.items() if name in names)
    game.state.move(uid, "creatures", facedown=False)                     # face up in the open
    secrets_.update()
    assert name not in secrets_.hidden_from(0) and secrets_.leaked(0, f"<li>{name}</li>") == []
    assert hidden[1] in secrets_.hidden_from(0)


def test_a_request_without_its_key_learns_nothing():
    table = new_table("four-forests")
    key = table.keys["P1"]
    with client_of(table) as client:
        nothing = client.get("/no/such/page")
        assert nothing.status_code == 404
        for wrong in ("", "x", key[:-1], key + "x", key.upper(), "..", "%2e%2e"):
            for path in ("", "/view", "/events", "/face/0"):
                answer = client.get(f"/play/{wrong}{path}")
                assert answer.status_code == 404 and answer.text == nothing.text, (wrong, path)
            for path in ("/choose", "/undo", "/why", "/pass"):
                answer = client.post(f"/play/{wrong}{path}", json={"decision": 0, "option": 0})
                assert answer.status_code in (404, 405) and answer.text == nothing.text
        assert client.get(f"/play/{key}").status_code == 200
        assert client.get(f"/play/{key}/face/99999").status_code == 404
    assert len({*table.keys.values(), *new_table("four-forests").keys.values()}) == 2   # random, not derived
    assert len(key) >= 32


def test_refused_requests_change_nothing():
    table = new_table("four-forests", people=(1, 2))
    keys = table.keys
    with client_of(table) as client:
        page = client.get(f"/play/{keys['P1']}/view").text
        decision, before = decision_of(page), list(table.game.state.choices)
        asked = table.game.pending.seat
        other = keys[f"P{2 - asked}"]
        mine = keys[f"P{asked + 1}"]
        cases = [
            (other, {"decision": decision, "option": 0}, 409, "not yours"),               # out of turn
            (mine, {"decision": decision - 1, "option": 0}, 409, "moved on"),             # replayed
            (mine, {"decision": decision + 5, "option": 0}, 409, "moved on"),
            (mine, {"decision": decision, "option": 999}, 409, "no option 1000"),
            (mine, {"decision": decision, "option": -1}, 409, "no option"),
            (mine, {"decision": decision, "option": "1"}, 400, "whole number"),
            (mine, {"decision": decision, "option": True}, 400, "whole number"),
            (mine, {"decision": decision}, 400, "nothing else"),
            (mine, {"decision": decision, "option": 0, "seat": 1}, 400, "nothing else"),
            (mine, [decision, 0], 400, "nothing else"),
        ]
        for key, body, status, said in cases:
            answer = client.post(f"/play/{key}/choose", json=body)
            assert answer.status_code == status and said in answer.json()["error"], (body, answer.text)
        for raw in (b"{", b"\xff", b"[[[[" * 300 + b"]]]]" * 300, b""):
            answer = client.post(f"/play/{mine}/choose", content=raw)
            assert answer.status_code == 400
        huge = json.dumps({"name": "x" * 10_000})
        answer = client.post(f"/play/{mine}/why", content=huge)
        assert answer.status_code == 400 and "at most 2048 bytes" in answer.json()["error"]
        assert table.game.state.choices == before and table.said == {}
        answered = client.post(f"/play/{mine}/choose", json={"decision": decision, "option": 0})
        assert answered.status_code == 200
        again = client.post(f"/play/{mine}/choose", json={"decision": decision, "option": 0})   # a double click
        assert again.status_code == 409 and len(table.game.state.choices) == decision + 1


def test_racing_answers_to_one_question_play_one():
    """Two tabs of one seat (or a double click) answer the same question at once: one answer
    is played, the others are refused, and the game took one decision."""
    from concurrent.futures import ThreadPoolExecutor
    table = new_table("forest-shuffle")
    key = table.keys["P1"]
    with client_of(table) as client:
        wait_for_person(table)
        page = client.get(f"/play/{key}/view").text
        decision = decision_of(page)
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda option: client.post(f"/play/{key}/choose", json={
                "decision": decision, "option": option}).status_code, [0, 1, 2, 0, 1, 2, 0, 1]))
        assert sorted(answers) == [200] + [409] * 7
        assert len(table.game.state.choices) > decision


def test_card_and_pack_text_is_escaped(monkeypatch):
    """A card whose name is markup is shown as text, wherever a page names it."""
    table = new_table("four-forests")
    naming = table.naming[0]
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    monkeypatch.setattr(naming, "names", {card: hostile for card in naming.names})
    with client_of(table) as client:
        page = client.get(f"/play/{table.keys['P1']}").text
    assert hostile not in page and "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page
    assert "<script>" not in page.replace('<script src="/static/table.js" defer></script>', "")


def test_undo_and_why_not_answer_on_the_page():
    table = new_table("forest-shuffle")
    key = table.keys["P1"]
    with client_of(table) as client:
        wait_for_person(table)
        page = client.get(f"/play/{key}/view").text
        refused = client.post(f"/play/{key}/undo", json={"decision": decision_of(page)}).text
        assert "nothing to undo: this is your first decision" in refused
        first = decision_of(page)
        sapling = int(re.search(r'data-option="(\d+)">plant a sapling<', page).group(1))
        client.post(f"/play/{key}/choose", json={"decision": first, "option": sapling})
        page = client.get(f"/play/{key}/view").text
        assert decision_of(page) == first + 1 and "Your decision" in page       # which card: P1 again
        went = client.post(f"/play/{key}/undo", json={"decision": decision_of(page)}).text
        assert "Went back to your previous decision." in went and decision_of(went) == first
        assert table.game.state.choices == table.save.choices and len(table.game.state.choices) == first
        why = client.post(f"/play/{key}/why", json={"name": "Kapok Tree"}).text
        assert "Why not Kapok Tree?" in why and "no card you can see" in why


def test_the_hot_seat_shows_one_seat_at_a_time_behind_a_pass_screen():
    table = new_table("four-forests", people=(1, 2), hotseat=True)
    assert list(table.keys) == [HOTSEAT]
    key = table.keys[HOTSEAT]
    with client_of(table) as client:
        passes = 0
        for _ in range(12):
            screen = client.get(f"/play/{key}/view").text
            asked = table.game.pending.seat
            if table.facing != asked:                    # another person's turn: the screen is handed over
                assert f"Pass the screen to P{asked + 1}" in screen and "Your hand" not in screen
                hidden = "The last player's view is hidden." in screen   # said only once a view was shown
                assert hidden == (passes > 0), screen
                assert client.post(f"/play/{key}/choose", json={"decision": 0, "option": 0}).status_code == 409
                wrong = client.post(f"/play/{key}/pass", json={"seat": 1 - asked})
                assert wrong.status_code == 409 and "not waiting on" in wrong.json()["error"]
                screen = client.post(f"/play/{key}/pass", json={"seat": asked}).text
                passes += 1
            assert f"you are P{asked + 1}" in screen and "Your hand" in screen
            client.post(f"/play/{key}/choose", json={"decision": decision_of(screen), "option": options_of(screen)[0]})
        assert passes >= 3


def test_a_restarted_server_resumes_at_the_same_links(tmp_path):
    path = tmp_path / "game.json"
    table = new_table("reforest", path=path)
    key = table.keys["P1"]
    with client_of(table) as client:
        for _ in range(5):
            wait_for_person(table)
            page = client.get(f"/play/{key}/view").text
            client.post(f"/play/{key}/choose", json={"decision": decision_of(page), "option": options_of(page)[-1]})
        wait_for_person(table)
        choices = list(table.game.state.choices)
    assert saves.read(path).keys == {"P1": key}
    again = resumed(path)
    assert again.keys == {"P1": key} and again.game.state.choices == choices
    with client_of(again) as client:
        assert client.get(f"/play/{key}/view").status_code == 200


def test_serve_says_what_is_wrong_in_one_line(tmp_path, monkeypatch):
    status, out, err = run_cli("serve", "four-forests", "--players", "2", "--human", "3")
    assert status == 2 and "there is no seat 3 in a 2-player game" in err
    status, out, err = run_cli("serve", "--resume", tmp_path / "none.json", "--human", "1")
    assert status == 2 and "leave out" in err
    status, out, err = run_cli("serve", "four-forests", "--pace", "-1")
    assert status == 2 and "--pace" in err
    shown = []
    import uvicorn
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets: shown.append(
        (server.config.host, server.config.port, [s.getsockname()[:2] for s in sockets])))
    status, out, err = run_cli("serve", "four-forests", "--players", "2", "--human", "1", "--human", "2",
                               "--host", "0.0.0.0", "--port", "0")
    (host, port, bound), = shown
    assert status == 0 and host == "0.0.0.0" and port > 0 and bound == [("0.0.0.0", port)]
    assert "warning: serving on 0.0.0.0" in err
    links = re.findall(rf"(P\d): http://0\.0\.0\.0:{port}/play/(\S+)", out)   # the port taken, not 0
    assert [seat for seat, _ in links] == ["P1", "P2"] and len({key for _, key in links}) == 2


def test_serve_that_cannot_listen_says_why_before_printing_links_or_saving(tmp_path):
    """A port in use, a port that is no port, a host that is not this machine's: one line saying
    what to do, exit status 2, no link printed (none would work) and no save file written."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        cases = {
            ("--port", str(busy)): f"cannot serve at 127.0.0.1:{busy}: address already in use; another server",
            ("--port", "70000"): "--port 70000: a port is a number from 1 to 65535",
            ("--port", "-1"): "--port -1: a port is a number from 1 to 65535",
            ("--host", "no-such-host.invalid"): "cannot serve at no-such-host.invalid: ",
            ("--host", "192.0.2.1"): "cannot serve at 192.0.2.1:8000: cannot assign requested address; "
                                     "this machine has no such address",
        }
        for given, said in cases.items():
            path = tmp_path / "game.json"
            status, out, err = run_cli("serve", "four-forests", "--players", "2", "--save", path, *given)
            assert status == 2 and said in err and "http://" not in out and "Traceback" not in err, given
            assert not path.exists(), given


def test_a_large_grid_shows_on_each_space_what_the_rules_drawing_shows():
    """Renature's board: each space shows its text in the rules' drawing (the terminal's), a
    starting space 'S' and a brook '~', and the printed words on hover."""
    table = new_table("renature")
    with client_of(table) as client:
        page = client.get(f"/play/{table.keys['P1']}/view").text
    shown = re.findall(r'<span class="shows">([^<]*)</span>', page)
    drawings = table.game.observe(0).drawings
    assert len(shown) == len(drawings) == 306 and sorted(shown) == sorted(drawings.values())
    assert {"S", "~"} <= set(shown)


def test_the_story_shows_no_heading_before_anything_under_it_is_told():
    """Reforest's terrains are offered before anything of the setup is told: the story panel of P1's
    first page is empty, not "Setup:" alone; once P1 has answered, it tells the answer under it."""
    table = new_table("reforest", modules=["terrain"])
    key = table.keys["P1"]
    with client_of(table) as client:
        page = client.get(f"/play/{key}/view").text
        assert story_of(page) == [], story_of(page)
        client.post(f"/play/{key}/choose", json={"decision": decision_of(page), "option": options_of(page)[0]})
        wait_for_person(table)
        told = story_of(client.get(f"/play/{key}/view").text)
    assert told[:2] == ["Setup:", "You discard it; then draw 1 card from the deck — Root Pit"], told


def story_of(page: str) -> list[str]:
    """The lines of a page's story panel, as a person reads them."""
    panel = page[page.index('<section class="story">'):]
    panel = panel[:panel.index("</section>")]
    return [html.unescape(line).strip() for line in re.findall(r"<p>(.*?)</p>", panel)]


def test_a_question_offering_spaces_outlines_them_on_the_grid_and_names_them_in_words():
    """Renature asks for a space of the board: each offered space is clickable on the board, and
    the buttons say 'the board, row r5, column 14', never the engine's key."""
    table = new_table("renature")
    key = table.keys["P1"]
    with client_of(table) as client:
        for _ in range(40):
            page = client.get(f"/play/{key}/view").text
            if "free space" in page:
                break
            client.post(f"/play/{key}/choose", json={"decision": decision_of(page), "option": options_of(page)[0]})
        offered = re.findall(r'<td [^>]*class="offered" data-option="(\d+)"', page)
        buttons = re.findall(r'<button type="button" data-option="\d+">([^<]*)</button>', page)
    assert offered and sorted(map(int, offered)) == list(range(len(buttons)))
    assert all(re.fullmatch(r"the board, row r\d+, column \d+", words) for words in buttons), buttons


def test_a_face_down_card_whose_mark_says_its_word_is_captioned_once():
    """Four Forests: another player's vote lies face down, marked for or against: it reads 'vote
    against', not 'vote' then 'vote against'."""
    table = new_table("four-forests", people=(1, 2))
    keys = [table.keys["P1"], table.keys["P2"]]
    captions = []
    with client_of(table) as client:
        while not table.game.over and len(captions) < 3:
            seat = table.game.pending.seat
            pages = [client.get(f"/play/{key}/view").text for key in keys]
            captions += re.findall(r'<figcaption>([^<]*)<span class="mark">(vote [a-z]+)</span>', "".join(pages))
            client.post(f"/play/{keys[seat]}/choose",
                        json={"decision": decision_of(pages[seat]), "option": options_of(pages[seat])[0]})
    assert captions and all(before.strip() != "vote" for before, _ in captions), captions


def test_a_zone_beneath_a_face_down_card_is_named_by_the_word_for_it():
    """Forest Shuffle: slots under a sapling read 'The sapling's slots', not 'Slots of card 1 in
    P2's forest' (where the card lies, as a zone out of sight would be named)."""
    table = new_table("forest-shuffle", people=(1, 2))
    keys, rng, titled = [table.keys["P1"], table.keys["P2"]], random.Random(3), set()
    with client_of(table) as client:
        while not table.game.over and "The sapling&#39;s slots" not in titled:
            seat = table.game.pending.seat
            pages = [client.get(f"/play/{key}/view").text for key in keys]
            titled |= set(re.findall(r"<h3>([^<]*slots)</h3>", "".join(pages)))
            client.post(f"/play/{keys[seat]}/choose",
                        json={"decision": decision_of(pages[seat]), "option": rng.choice(options_of(pages[seat]))})
    assert "The sapling&#39;s slots" in titled and not [t for t in titled if "of card" in t], titled


def test_the_card_a_question_is_about_is_marked_where_it_lies():
    """Reforest's terrains, seed 7: P1 is asked "discard it; then draw 1 card from the deck?
    (Seep Spring)": the Seep Spring dealt to P1 is marked (class `about`), alone; no other card is."""
    table = new_table("reforest", seed=7, modules=("terrain",))
    with client_of(table) as client:
        wait_for_person(table)                                     # P2, a bot, decides first
        page = client.get(f"/play/{table.keys['P1']}/view").text
    assert "discard it; then draw 1 card from the deck? (Seep Spring)" in page
    marked = re.findall(r'<figure class="card [^"]*\babout\b[^"]*"[^>]*data-name="([^"]+)"', page)
    assert marked == ["Seep Spring"], marked
