"""The table's web server: Starlette routes over one hosted game (host.Table).

Every route but the static files takes a seat's key in its path, `/play/KEY/…`; a key that is
not one of the table's gets 404 and the same page as any unknown path, so a guess learns
nothing. A page is the seat's view (view.py) in a Jinja2 template, autoescaped: card and pack
text is never markup. Changes are pushed as server-sent events carrying only a number; the
page then fetches its own view. Requests are JSON of at most MAX_BODY bytes, each naming the
decision it answers. The bots play in a task of their own, at `pace` seconds a decision, on a
copy of the game, so that a person's page stays live while a bot thinks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from silvics.interpreter.game import GameError

from .host import Refusal, Table
from .view import Faces, seat_view

MAX_BODY = 2048  # bytes: the largest request a page sends is a card's name to ask about
HEARTBEAT = 15.0  # seconds between keep-alive comments on the push channel
HEADERS = {  # nothing outside the table loads, nothing frames it, no link names a key elsewhere
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "style-src-attr 'unsafe-inline'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
FACE_HEADERS = {  # a face is printed data: cached by the page, never run
    "Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, max-age=86400",
}
FOLDER = Path(__file__).parent
TEMPLATES = Environment(
    loader=PackageLoader("silvics.web", "templates"), autoescape=select_autoescape(default=True)
)


class Server:
    """The routes' shared state: the table, its lock, the faces drawn, and the news of changes."""

    def __init__(self, table: Table, pace: float):
        self.table, self.pace = table, pace
        self.lock = asyncio.Lock()
        self.faces = Faces(table.rules)
        self.news = asyncio.Condition()
        self.bots_task: asyncio.Task | None = None
        self.failure = ""  # a fault of the rules met while playing, shown on every page
        self.closing = False  # the server is stopping: the push channels end

    async def close(self):
        self.closing = True
        await self.announce()

    async def announce(self):
        async with self.news:
            self.news.notify_all()

    async def bots(self):
        """Play the bots' decisions as they come, a pace apart."""
        while True:
            async with self.news:
                await self.news.wait_for(lambda: self.table.bot_to_play() is not None or self.failure)
            if self.failure:
                return
            await asyncio.sleep(self.pace)
            async with self.lock:
                seat = self.table.bot_to_play()
                if seat is None:
                    continue
                decision, trial = len(self.table.game.state.choices), self.table.game.copy()
            try:
                option = await asyncio.to_thread(self.table.bot_choice, seat, trial)  # thinks on a copy
                async with self.lock:
                    played = self.table.play_bot(seat, decision, option)
            except GameError as error:  # a fault of the rules: said on every page, nothing more played
                self.failure, played = str(error), True
            if played:
                await self.announce()


def serving(table: Table, pace: float, host: str, port: int):
    """A uvicorn server of the table that, asked to stop (Ctrl-C), first ends the pages' push
    channels, so that it stops at once and quietly (never after a timeout, with a traceback)."""
    import uvicorn

    app = build(table, pace)

    class Serving(uvicorn.Server):
        async def shutdown(self, sockets=None):
            await app.state.server.close()
            await super().shutdown(sockets)

    return Serving(uvicorn.Config(app, host=host, port=port, log_level="warning"))


def build(table: Table, pace: float = 1.0) -> Starlette:
    """The web application serving `table`, its bots playing `pace` seconds a decision."""
    server = Server(table, pace)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        server.bots_task = asyncio.create_task(server.bots())
        await server.announce()
        yield
        server.bots_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await server.bots_task

    routes = [
        Route("/play/{key}", _keyed(server, page)),
        Route("/play/{key}/view", _keyed(server, fragment)),
        Route("/play/{key}/events", _keyed(server, events)),
        Route("/play/{key}/face/{number:int}", _keyed(server, face)),
        Route("/play/{key}/choose", _keyed(server, choose), methods=["POST"]),
        Route("/play/{key}/undo", _keyed(server, undo), methods=["POST"]),
        Route("/play/{key}/why", _keyed(server, why), methods=["POST"]),
        Route("/play/{key}/pass", _keyed(server, hand_over), methods=["POST"]),
        Mount("/static", StaticFiles(packages=[("silvics.web", "static")]), name="static"),
        Mount("/fonts", StaticFiles(packages=[("silvics.compiler", "fonts")]), name="fonts"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: _not_found, 405: _not_found})
    app.state.server = server
    return app


def _keyed(server: Server, handler):
    """The handler, given the seats the request's key opens; 404 for any other key."""

    async def endpoint(request: Request) -> Response:
        seats = server.table.seats_of(request.path_params["key"])
        if seats is None:
            return await _not_found(request, None)
        return await handler(server, request, seats)

    return endpoint


async def _not_found(request: Request, _error) -> Response:
    return HTMLResponse("<!doctype html><title>Not found</title><p>Not found.", 404, headers=HEADERS)


# ---- pages ----
async def page(server: Server, request: Request, seats) -> Response:
    """The whole page: the table's frame and, inside it, the seat's view."""
    body = await _drawn(server, request, seats)
    shell = TEMPLATES.get_template("page.html").render(
        game=server.table.rules.name, base=_base(request), body=body
    )
    return HTMLResponse(shell, headers=HEADERS)


async def fragment(server: Server, request: Request, seats) -> Response:
    return HTMLResponse(await _drawn(server, request, seats), headers=HEADERS)


async def _drawn(server: Server, request: Request, seats) -> str:
    """The seat's view, or the hand-over screen of a hot seat between two people."""
    table = server.table
    async with server.lock:
        seat = table.seat_shown(seats)
        if seat is None:
            asked = table.asked_person()
            assert asked is not None, "a hot seat is handed over only to a person the game waits on"
            return TEMPLATES.get_template("pass.html").render(  # (no view was shown before the first)
                seat=f"P{asked + 1}", number=asked, version=table.version, handed=table.facing is not None
            )
        view = seat_view(table, seat, server.faces)
    return TEMPLATES.get_template("table.html").render(
        view=view, version=table.version, failure=server.failure, hotseat=table.hotseat, base=_base(request)
    )


def _base(request: Request) -> str:
    return f"/play/{request.path_params['key']}"


async def face(server: Server, request: Request, seats) -> Response:
    svg = server.faces.svg(request.path_params["number"])
    if svg is None:
        return await _not_found(request, None)
    return Response(svg, media_type="image/svg+xml", headers=FACE_HEADERS)


async def events(server: Server, request: Request, seats) -> Response:
    """The push channel: the table's version now, then at each change (a comment now and then
    keeps proxies from closing it)."""

    async def stream():
        table, seen = server.table, -1
        while not server.closing and not await request.is_disconnected():
            if table.version != seen:
                seen = table.version
                yield f"data: {seen}\n\n"
                continue
            if not await _moved(server, seen):
                yield ": still here\n\n"

    headers = {**HEADERS, "X-Accel-Buffering": "no"}
    return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)


async def _moved(server: Server, version: int) -> bool:
    """Whether the table moves on from `version` within a heartbeat."""
    try:
        async with server.news:
            await asyncio.wait_for(
                server.news.wait_for(lambda: server.table.version != version or server.closing), HEARTBEAT
            )
    except TimeoutError:
        return False
    return True


# ---- what people do ----
class BadRequest(Refusal):
    """A request no page of ours sends."""


def _refused(message: str, status: int) -> Response:
    return JSONResponse({"error": message}, status, headers=HEADERS)


def _refusals(handler):
    """A handler whose Refusal (a BadRequest: 400) is answered as one."""

    async def endpoint(server, request, seats):
        try:
            return await handler(server, request, seats)
        except BadRequest as bad:
            return _refused(str(bad), 400)
        except Refusal as refusal:
            return _refused(str(refusal), 409)

    return endpoint


@_refusals
async def choose(server: Server, request: Request, seats) -> Response:
    asked = await _asked(request, {"decision": int, "option": int})
    return await _done(server, request, seats, lambda seat: server.table.choose(seat, **asked))


@_refusals
async def undo(server: Server, request: Request, seats) -> Response:
    asked = await _asked(request, {"decision": int})
    return await _done(server, request, seats, lambda seat: server.table.undo(seat, **asked))


@_refusals
async def why(server: Server, request: Request, seats) -> Response:
    asked = await _asked(request, {"name": str})
    return await _done(server, request, seats, lambda seat: server.table.why(seat, asked["name"][:200]))


@_refusals
async def hand_over(server: Server, request: Request, seats) -> Response:
    asked = await _asked(request, {"seat": int})
    if asked["seat"] not in seats:
        raise Refusal("this link is not that seat's")
    return await _done(server, request, seats, lambda _: server.table.hand_over(asked["seat"]), shown=False)


async def _done(server: Server, request: Request, seats, action, shown: bool = True) -> Response:
    """Do `action(seat)` for the seat the key's page shows, then answer with the page as it is
    now; a Refusal changes nothing (the handler's decorator answers it)."""
    table = server.table
    async with server.lock:
        seat = table.seat_shown(seats)
        if shown and seat is None:
            raise Refusal("pass the screen first: it is handed over to the next person")
        try:
            action(seat)
        except GameError as error:  # the rules met a fault: said on every page, nothing more played
            server.failure = str(error)
    await server.announce()
    return await fragment(server, request, seats)


async def _asked(request: Request, fields: dict) -> dict:
    """The request's JSON object with exactly these fields of these types (Refusal otherwise)."""
    length = request.headers.get("content-length", "")
    if not length.isdigit() or int(length) > MAX_BODY:
        raise BadRequest(f"a request has a body of at most {MAX_BODY} bytes, with its length given")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest(f"a request has a body of at most {MAX_BODY} bytes")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise BadRequest("a request is a JSON object") from None
    if not isinstance(data, dict) or set(data) != set(fields):
        raise BadRequest(f"a request here gives {', '.join(fields)} and nothing else")
    for name, kind in fields.items():
        if type(data[name]) is not kind:
            raise BadRequest(f"{name} must be {'a whole number' if kind is int else 'text'}")
    return data
