"""The open boards of the Activity, kept live: after each committed change of a session (the
bot's ``session_changed``, dispatched once the change's transaction is written), every open
board of that session is sent a fresh view, its own (a player's hand stays theirs).

Nothing is polled. A board's sends go one at a time, and a board that falls behind skips to the
latest change instead of queueing every one: what it shows is always the session as committed.
Boards of one change that would see the same thing (the spectators, or a player's two tabs) share
one view, drawn and encoded once.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.core.sessions import GameSession
from bot.features.activity.auth import Identity

log = logging.getLogger(__name__)

# A viewer's view of a session: (session, the viewer's user id, their picks so far) -> the JSON sent.
Draw = Callable[[GameSession, int, list[str]], Awaitable[dict[str, Any]]]
Shown = tuple[int | None, str]  # a view's version and its JSON text, as sent


@dataclass(eq=False)
class OpenBoard:
    """One open board: a WebSocket showing one session to one member."""

    socket: web.WebSocketResponse
    identity: Identity
    session_id: int
    picks: list[str] = field(default_factory=list)  # a choice under way (the page's highlighted piece)
    shown: int | None = None  # the version last sent
    _wanted: GameSession | None = None
    _sending: asyncio.Task[None] | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one message at a time on the socket

    @property
    def user_id(self) -> int:
        return self.identity.user_id


class Live:
    """Every open board, by session, and the push of each committed change to them."""

    def __init__(self, draw: Draw, errors: Any):
        self.draw = draw
        self.errors = errors  # the platform's ErrorLog: an unexpected failure is kept for the tests
        self.boards: dict[int, set[OpenBoard]] = {}
        self._shared: dict[int, tuple[GameSession, dict[int | None, asyncio.Future[Shown]]]] = {}
        self.pushes = 0  # views sent after changes (the benchmark reads it)

    def open(self, board: OpenBoard) -> None:
        self.boards.setdefault(board.session_id, set()).add(board)

    def close(self, board: OpenBoard) -> None:
        boards = self.boards.get(board.session_id)
        if boards is not None:
            boards.discard(board)
            if not boards:
                del self.boards[board.session_id]
                self._shared.pop(board.session_id, None)
        if board._sending is not None and not board._sending.done():
            board._sending.cancel()

    def count(self) -> int:
        return sum(len(boards) for boards in self.boards.values())

    async def on_session_changed(self, session: GameSession) -> None:
        """The bot's ``session_changed``: the committed session, to every board open on it."""
        boards = self.boards.get(session.id)
        if not boards:
            return
        self._shared[session.id] = (session, {})
        for board in list(boards):
            board.picks = []  # a choice begun on the position before means nothing now
            self.push(board, session)

    def push(self, board: OpenBoard, session: GameSession) -> None:
        """Show ``session`` on ``board`` once what is being sent to it is sent (the latest wins)."""
        board._wanted = session
        if board._sending is None or board._sending.done():
            board._sending = asyncio.create_task(self._send_latest(board))

    async def _send_latest(self, board: OpenBoard) -> None:
        while board._wanted is not None:
            session, board._wanted = board._wanted, None
            try:
                version, text = await self.view(session, board)
            except Exception as error:
                self.errors.append(error)
                log.exception("could not draw a view of session %s", session.id)
                await self.send(board, {"type": "error", "reason": "The board could not be drawn."})
                return
            if await self.send_text(board, text):
                board.shown = version
                self.pushes += 1

    async def send(self, board: OpenBoard, message: dict[str, Any]) -> bool:
        """``message`` to the board's page; False when the page has gone (its close ends the board)."""
        return await self.send_text(board, json.dumps(message))

    async def send_text(self, board: OpenBoard, text: str) -> bool:
        async with board._lock:
            try:
                await board.socket.send_str(text)
            except (ConnectionResetError, RuntimeError):
                return False
        return True

    async def view(self, session: GameSession, board: OpenBoard) -> Shown:
        """``board``'s view of ``session`` (its version and its JSON text): drawn and encoded once per
        change for every board that sees the same (a seat's or a spectator's), then shared; with
        picks, drawn for that board alone."""
        if board.picks:
            return await self._drawn(session, board.user_id, board.picks)
        shared = self._shared.get(session.id)
        if shared is None or shared[0] is not session:
            return await self._drawn(session, board.user_id, [])
        key = session.seat_of(board.user_id)
        drawing = shared[1].get(key)
        if drawing is None:  # the first board of this seat (or of the spectators) draws it for the others
            drawing = shared[1][key] = asyncio.ensure_future(self._drawn(session, board.user_id, []))
        return await asyncio.shield(drawing)

    async def _drawn(self, session: GameSession, user_id: int, picks: list[str]) -> Shown:
        view = {"type": "view", **await self.draw(session, user_id, picks)}
        return view.get("version"), json.dumps(view)
