"""The Activity's server: its page and API inside the bot's process (aiohttp, as the metrics are),
on ``ACTIVITY_PORT`` behind the operator's HTTPS proxy, or on a free port in the playground.

Routes (the page's side of them is in its own ``static`` folder beside this module):

``GET /``, ``/static/...``   the page, every URL in it relative (Discord's ``/.proxy/`` mapping)
``POST /api/token``          ``{"code"}`` -> ``{"access_token"}``: Discord's OAuth2 code exchange
``POST /api/session``        ``{"access_token", "guild_id", "channel_id"}`` -> ``{"token", "user"}``:
                             the member checked in that server and channel, our own token; in the
                             playground only, ``{"mock_user_id", ...}`` stands in for Discord's sign-in
``GET /api/games``           the live games of the token's channel, and the games one can start there
``POST /api/games``          ``{"game", "opponent": user id or "computer"}`` -> ``{"session"}``: a
                             challenge of that channel, by the same code as ``/<game> challenge``
``GET /api/ws``              one board: ``hello`` (token, session, since), then ``pick`` and ``act``, Octagion's
                             typed ``race`` answer and the game's own ``button`` (its lobby, Got it!)

A move on the board is played as a click in Discord is: turned away while the bot is stopping or
busy, the one turn check and stale check, the action the menus would build from the same picks
(``board.action``), played by the menus' own ``play`` in one ``sessions.change``; the game message,
its thread and every open board then show it (live.py pushes each committed change).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from bot.core.errors import UserError
from bot.core.sessions import GameSession
from bot.features.activity.auth import AuthError, DiscordOAuth, Identity, Tokens, check_member, token_key
from bot.features.activity.board import action as picked_action
from bot.features.activity.board import turn_menu
from bot.features.activity.board import view as board_view
from bot.features.activity.live import Live, OpenBoard
from bot.features.activity.start import live_here, start_game
from bot.ui.menu_steps import play
from bot.ui.replies import error_text, turned_away_text

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
NOT_SIGNED_IN = "Open the board again: its sign-in is missing."
ELSEWHERE = "This game is not in the channel the board was opened in."
HELLO_FIRST = "The board must say hello first."
GONE_BUTTON = "That button is not on your board any more: the game has moved on."
T = TypeVar("T")


class ActivityServer:
    """The Activity's page, API and live boards for one bot (``playground``: started by the
    playground, which alone takes its mock sign-in)."""

    def __init__(self, bot: Any, platform: Any, settings: Any, *, playground: bool = False):
        self.bot = bot
        self.platform = platform
        self.settings = settings
        self.playground = playground
        self.oauth: DiscordOAuth | None = None
        self.tokens: Tokens | None = None
        self.live = Live(self._draw, platform.errors)
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._bot_context = contextvars.copy_context()

    # ------------------------------------------------------------------ serving
    async def start(self, host: str | None, port: int) -> None:
        settings = self.settings
        self.tokens = Tokens(await token_key(self.platform.store, settings.client_secret))
        client_id = settings.client_id or self.bot.application_id
        if settings.client_secret and client_id:
            self.oauth = DiscordOAuth(client_id, settings.client_secret)
        app = web.Application()
        app.router.add_get("/", self.page)
        if STATIC.is_dir():
            app.router.add_static("/static/", STATIC)
        app.router.add_post("/api/token", self.token)
        app.router.add_post("/api/session", self.session)
        app.router.add_get("/api/games", self.games)
        app.router.add_post("/api/games", self.start_game)
        app.router.add_get("/api/ws", self.socket)
        self.bot.add_listener(self.live.on_session_changed, "on_session_changed")
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        # A board's connection lasts as long as its page, which is not the bot's own work: the server
        # listens from a context of its own, not the bot's (whose context variables mark its work,
        # which a simulated Discord waits to finish). What a board asks is the bot's work again, run
        # in the bot's context like an interaction (``_as_bot``).
        self._bot_context = contextvars.copy_context()
        site = web.TCPSite(self._runner, host, port)
        await contextvars.Context().run(asyncio.get_running_loop().create_task, site.start())
        # IPv4's port: on every interface, port 0 picks a free port per address family.
        self.port = next(address[1] for address in self._runner.addresses if len(address) == 2)
        log.info("the Activity on port %s", self.port)

    async def stop(self) -> None:
        """Every open board is closed as "going away" (its page reconnects, to this bot's next start)."""
        self.bot.remove_listener(self.live.on_session_changed, "on_session_changed")
        for boards in list(self.live.boards.values()):
            for board in list(boards):
                await board.socket.close(code=WSCloseCode.GOING_AWAY, message=b"The bot is restarting.")
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    @property
    def local_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    # ------------------------------------------------------------------ pages and API
    async def page(self, _: web.Request) -> web.StreamResponse:
        index = STATIC / "index.html"
        if not index.is_file():
            return web.Response(status=404, text="The board's page is not in this copy of the bot.")
        return web.FileResponse(index)

    async def token(self, request: web.Request) -> web.Response:
        body = await _body(request)
        if self.oauth is None:
            return _refused("The Activity's sign-in is not set up here (DISCORD_CLIENT_SECRET).", 503)
        code = body.get("code")
        if not isinstance(code, str) or not code:
            return _refused("The sign-in sent no code.", 400)
        try:
            return web.json_response({"access_token": await self.oauth.exchange(code)})
        except AuthError as refused:
            return _refused(refused.message, refused.status)

    async def session(self, request: web.Request) -> web.Response:
        """Our own token for a member signed in with Discord (or, in the playground, picked by
        "Viewing as"), once the bot sees them in that server and channel."""
        body = await _body(request)
        try:
            guild_id, channel_id = int(body["guild_id"]), int(body["channel_id"])
            user_id, name = await self._signed_in(body)
            member = await check_member(self.bot, guild_id, channel_id, user_id)
        except AuthError as refused:
            return _refused(refused.message, refused.status)
        except (KeyError, TypeError, ValueError):
            return _refused("The sign-in must name the server and the channel.", 400)
        identity = Identity(user_id, member.display_name or name, guild_id, channel_id)
        assert self.tokens is not None, "started"
        user = {"id": str(user_id), "name": identity.name}
        return web.json_response({"token": self.tokens.issue(identity), "user": user})

    async def _signed_in(self, body: dict[str, Any]) -> tuple[int, str]:
        if "mock_user_id" in body:
            if not self.playground:
                raise AuthError("Sign in with Discord.", 403)
            return int(body["mock_user_id"]), str(body["mock_user_id"])
        if self.oauth is None:
            raise AuthError("The Activity's sign-in is not set up here (DISCORD_CLIENT_SECRET).", 503)
        access = body.get("access_token")
        if not isinstance(access, str) or not access:
            raise AuthError(NOT_SIGNED_IN)
        return await self.oauth.user(access)

    async def games(self, request: web.Request) -> web.Response:
        """The live games of the channel the board was opened in (and of its games' threads)."""
        try:
            identity = self._bearer(request)
        except AuthError as refused:
            return _refused(refused.message, refused.status)
        sessions = self.platform.sessions
        listed = [
            self._listed(sessions.loaded(record)) for record in await live_here(self.platform, identity.channel_id)
        ]
        startable = [name for name, adapter in self.platform.games.items() if adapter.challengeable]
        return web.json_response({"games": listed, "can_start": startable})

    async def start_game(self, request: web.Request) -> web.Response:
        """A game started on the board: a challenge of its channel, as ``/<game> challenge`` makes it."""
        try:
            identity = self._bearer(request)
            member = await check_member(self.bot, identity.guild_id, identity.channel_id, identity.user_id)
        except AuthError as refused:
            return _refused(refused.message, refused.status)
        turned_away = turned_away_text(self.bot, f"a game started on the board by {identity.user_id}")
        if turned_away is not None:
            return _refused(turned_away, 503)
        body = await _body(request)
        try:
            session_id = await self._as_bot(start_game(self.bot, self.platform, identity, member, body))
        except Exception as error:  # the one funnel's texts: refused, busy, database, sorry
            text = error_text(error, self.platform.errors, "a game started on the board")
            return _refused(text, 400 if isinstance(error, UserError) else 503)
        return web.json_response({"session": session_id})

    def _listed(self, session: GameSession) -> dict[str, Any]:
        adapter = self.platform.games[session.record.game]
        return {
            "session": session.id,
            "game": session.record.game,
            "title": adapter.title,
            "players": list(session.names),
            "status": session.status,
        }

    def _bearer(self, request: web.Request) -> Identity:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme != "Bearer" or not token:
            raise AuthError(NOT_SIGNED_IN)
        assert self.tokens is not None, "started"
        return self.tokens.read(token)

    # ------------------------------------------------------------------ the boards
    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=30)
        await socket.prepare(request)
        board: OpenBoard | None = None
        try:
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                said = _json(message.data)
                if board is None:
                    board = await self._as_bot(self._hello(socket, said))
                    if board is None:
                        break
                elif said.get("type") == "pick":
                    await self._as_bot(self._pick(board, said))
                elif said.get("type") == "act":
                    await self._as_bot(self._act(board, said))
                elif said.get("type") == "race":
                    await self._as_bot(self._race(board, said))
                elif said.get("type") == "button":
                    await self._as_bot(self._button(board, said))
                else:
                    await self.live.send(board, {"type": "error", "reason": "The board sent something I do not know."})
        finally:
            if board is not None:
                self.live.close(board)
        return socket

    async def _as_bot(self, work: Coroutine[Any, Any, T]) -> T:
        """``work`` as the bot's own, in the context the bot runs in."""
        return await self._bot_context.run(asyncio.get_running_loop().create_task, work)

    async def _hello(self, socket: web.WebSocketResponse, said: dict[str, Any]) -> OpenBoard | None:
        """The board's member and session checked, then its first view (None: refused, and closed)."""
        try:
            if said.get("type") != "hello":
                raise AuthError(HELLO_FIRST, 400)
            session = await self.platform.sessions.load(int(said["session"]))
            assert self.tokens is not None, "started"
            identity = self.tokens.read(str(said.get("token") or ""), guild_id=session.record.guild_id)
            if identity.channel_id not in (session.record.channel_id, session.record.play_channel_id):
                raise AuthError(ELSEWHERE, 403)
        except (AuthError, UserError, KeyError, TypeError, ValueError) as refused:
            reason = refused.message if isinstance(refused, AuthError) else str(refused)
            if not isinstance(refused, AuthError | UserError):
                reason = "The board's hello must name its sign-in and a game."
            await socket.send_json({"type": "error", "reason": reason})
            await socket.close()
            return None
        board = OpenBoard(socket, identity, session.id)
        self.live.open(board)
        self.live.push(board, session)  # whatever it saw (``since``), the session as it is now
        return board

    async def _pick(self, board: OpenBoard, said: dict[str, Any]) -> None:
        """A choice under way: that board alone is shown what it narrows to."""
        try:
            picks = _picks(said)
            session = await self.platform.sessions.load(board.session_id)
        except (UserError, ValueError) as refused:
            await self.live.send(board, {"type": "refused", "reason": str(refused)})
            return
        board.picks = picks
        self.live.push(board, session)

    async def _act(self, board: OpenBoard, said: dict[str, Any]) -> None:
        """A complete choice, played as the same click in Discord would be; refused with the reason."""
        await self._as_a_click(board, lambda: self._play(board, _picks(said), said.get("version")))

    async def _race(self, board: OpenBoard, said: dict[str, Any]) -> None:
        """A typed answer (Octagion's variant) for the round the board showed, applied by the game as
        its own form applies it: one that arrives after its round ended is refused, not given to the next."""
        await self._as_a_click(board, lambda: self._type(board, said.get("answer"), said.get("round")))

    async def _button(self, board: OpenBoard, said: dict[str, Any]) -> None:
        """One of the game's own buttons on the board (Octagion's Join, Start, Got it!), pressed as in Discord."""
        await self._as_a_click(board, lambda: self._press(board, said.get("key")))

    async def _as_a_click(self, board: OpenBoard, work: Callable[[], Awaitable[None]]) -> None:
        """``work`` with what a click in Discord gets: turned away while the bot is busy or stopping,
        and any refusal or failure answered with the one funnel's sentence."""
        where = f"the board of session {board.session_id}"
        turned_away = turned_away_text(self.bot, where)
        if turned_away is not None:
            await self.live.send(board, {"type": "refused", "reason": turned_away})
            return
        try:
            await work()
        except Exception as error:  # the one funnel's texts: refused, busy, database, sorry
            await self.live.send(board, {"type": "refused", "reason": error_text(error, self.platform.errors, where)})

    async def _type(self, board: OpenBoard, answer: Any, round_no: Any) -> None:
        if not isinstance(answer, str):
            raise UserError("The board's answer must be a text.")
        if round_no is not None and (not isinstance(round_no, int) or isinstance(round_no, bool)):
            raise UserError("The board's answer must name its round by number.")
        async with self.platform.sessions.change(board.session_id) as change:
            adapter = self.platform.games[change.session.record.game]
            adapter.typed_answer(change, board.user_id, answer, "" if round_no is None else str(round_no))

    async def _press(self, board: OpenBoard, key: Any) -> None:
        session = await self.platform.sessions.load(board.session_id)
        adapter = self.platform.games[session.record.game]
        if key not in [offered for offered, _ in adapter.board_buttons(session, session.seat_of(board.user_id))]:
            raise UserError(GONE_BUTTON)
        identity = board.identity
        try:  # Join needs the member as Discord shows them (their name, not a bot)
            member = await check_member(self.bot, identity.guild_id, identity.channel_id, identity.user_id)
        except AuthError as refused:
            raise UserError(refused.message) from None
        await adapter.press_on_board(member, board.session_id, key)

    async def _play(self, board: OpenBoard, picks: list[str], version: Any) -> None:
        sessions, user_id = self.platform.sessions, board.user_id
        async with sessions.change(board.session_id) as change:
            seat = sessions.check_can_act(change.session, user_id)  # the one turn check
            sessions.check_fresh(change.session, version)  # after it: "it is X's turn" says more
            action = picked_action(self.platform.games, change.session, user_id, picks)
            if isinstance(action, str):
                raise UserError(action)
            adapter = self.platform.games[change.session.record.game]
            menu = turn_menu(adapter)
            assert menu is not None, "picked_action refuses a game that has no menu to pick from"
            play(change, menu, adapter.engine, seat, user_id, action)

    async def _draw(self, session: GameSession, user_id: int, picks: list[str]) -> dict[str, Any]:
        return await board_view(self.platform.games, session, user_id, picks)


def _picks(said: dict[str, Any]) -> list[str]:
    picks = said.get("picks")
    if not isinstance(picks, list) or not all(isinstance(pick, str) for pick in picks):
        raise ValueError("The board's choices must be a list of texts.")
    return picks


def _json(text: str) -> dict[str, Any]:
    try:
        said = json.loads(text)
    except ValueError:
        return {}
    return said if isinstance(said, dict) else {}


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _refused(reason: str, status: int) -> web.Response:
    return web.json_response({"error": reason}, status=status)


async def start_if_configured(bot: Any) -> ActivityServer | None:
    """The Activity's server of a bot whose settings name an ACTIVITY_PORT (None when off), on every
    interface, for the operator's HTTPS proxy."""
    settings = bot.settings
    if settings.activity_port is None:
        return None
    server = ActivityServer(bot, bot.platform, settings)
    await server.start(None, settings.activity_port)
    return server


async def start_for_playground(bot: Any, port: int = 0) -> ActivityServer:
    """The playground's Activity, always on: on this machine (a free port, or ``port``: a restarted
    bot's boards find it where they left it, as behind ACTIVITY_PORT), with the stand-in sign-in
    (the page's DiscordSDKMock and "Viewing as"), its address on "Open the board"."""
    server = ActivityServer(bot, bot.platform, bot.settings, playground=True)
    await server.start("127.0.0.1", port)
    bot.activity_server = server  # stopped with the bot
    bot.platform.board.page = server.local_url  # "Open the board" links here from now on
    return server
