"""What a game's Discord side is given of the platform: the services it uses, by keyword.

It is not narrow: a game loads, opens and changes its sessions, registers its controls, timers
and message kinds, draws pictures off the event loop, answers privately, shows its message, asks
which thread or channel a command means, starts challenges, and writes its settings in a
transaction of their own; everything else (results, the turn clock, computer players) happens
around it. What it is not given is the store.

Writes. A session changes only inside ``sessions.change`` (or ``sessions.open`` for a new one):
one transaction with its state, action log, timers, outbox entries and whatever the game adds
with ``change.during_commit`` (a feature's own rows). The only other transactions are
bookkeeping that changes no session: the outbox marking what it sent or will retry, the
platform's key-value rows (the command tree's hash, the controls' version, a notice told once)
and settings of a server, channel or member (a game's through :meth:`GameContext.write_settings`,
e.g. Octagion Daily's channel cleared); each is a write of its own that no session's lock
needs to order.

Reads. A game loads its sessions through ``sessions`` and reads the rest through
:class:`StoreReads` (``ctx.reads``): which game is live in a channel, and, for a game with tables of
its own (Octagion Daily's plays), their rows from SQL written in its own store module and nowhere
else (tests/test_architecture.py checks it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.core.outbox import Outbox, Outgoing
from bot.core.sessions import Change, GameSession, Sessions
from bot.core.store import SessionRecord, Store, Transaction
from bot.core.timers import Scheduler
from bot.core.workers import WorkerPool
from bot.ui.controls import Controls
from bot.ui.menus import Menus
from bot.ui.replies import UserError, reply_private
from render.theme import Picture


# What a game uses of three platform parts that import the adapter (which imports this module):
# described here by what they do, so that no import, not even a type's, runs in a circle.
class GameMessage(Protocol):
    """The game message (bot.ui.game_message.Table)."""

    def done(self, session: GameSession, since: int | None = None, upto: int | None = None) -> str: ...

    async def game_picture(self, session: GameSession, edit: int | None = None) -> Outgoing: ...

    def side_seats(self, session: GameSession) -> list[list[int]]: ...

    def post_again(self, change: Change) -> None: ...


class ThreadPlacement(Protocol):
    """Games in threads (bot.features.threads.GameThreads)."""

    async def placement(self, interaction: discord.Interaction) -> tuple[bool, str | None]: ...

    async def tell_once(self, interaction: discord.Interaction, reason: str | None) -> str | None: ...

    async def find(
        self, interaction: discord.Interaction, game: str | None = None, *, moderator: bool = False
    ) -> SessionRecord | None: ...

    async def round_notice(self, change: Change, what: str) -> None: ...


class Challenge(Protocol):
    """The shared challenge-by-mention flow: ``(interaction, game, invitees, options, level, *,
    clock, where)``, as :meth:`bot.features.challenges.Challenges.challenge` takes them."""

    async def __call__(
        self,
        interaction: discord.Interaction,
        game: str,
        invitees: Sequence[discord.abc.User],
        options: dict[str, Any],
        level: str | None = None,
        *,
        clock: str | None = None,
        where: int | None = None,
    ) -> None: ...


class StoreReads:
    """What a game reads of the store beside its sessions: which game is live in a channel, and
    the rows of its own tables (``table_rows``, ``table_row``: SQL with ``?`` placeholders, read in
    one trip, called only from the game's store module). Nothing here writes."""

    def __init__(self, store: Store):
        self._store = store

    async def live_game_in(self, channel_id: int) -> tuple[int, str, str] | None:
        """(id, game, status) of the live session played in a channel, without reading its state."""
        return await self._store.live_session_ref(channel_id)

    async def table_rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows ``sql`` reads of the game's own tables."""
        return await self._store.query(sql, params)

    async def table_row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row ``sql`` reads of the game's own tables (None: no rows)."""
        return await self._store.query_one(sql, params)


@dataclass(kw_only=True)
class GameContext:
    sessions: Sessions  # load, open and change sessions (one transaction per change)
    reads: StoreReads  # which game is live in a channel; its own tables' rows
    controls: Controls
    timers: Scheduler
    outbox: Outbox
    pictures: WorkerPool  # draws pictures in worker processes
    menus: Menus  # the one menu mechanism: a game's declared ActionMenus, their button and autocomplete
    bot: discord.Client
    table: GameMessage  # the game message's content and controls
    threads: ThreadPlacement  # games in threads, and which game a command means
    challenge: Challenge  # the shared challenge-by-mention flow
    busy_text: Callable[[SessionRecord], str]  # "There is already a game of ... in this channel"
    first_message_or_close: Callable[[discord.Interaction, Change], Awaitable[None]]
    new_seed: Callable[[], int]
    settings_transaction: Callable[[], AbstractAsyncContextManager[Transaction]]  # see write_settings

    @property
    def me(self) -> int:
        """The bot's own user id (the computer player's seat)."""
        return self.bot.user.id

    async def render(self, draw: Callable[..., Picture], *args: Any) -> Picture:
        return await self.pictures.run(draw, *args)

    reply_private = staticmethod(reply_private)

    async def write_settings(self, write: Callable[[Transaction], Awaitable[None]]) -> None:
        """A write that changes no session (a server's setting), in a transaction of its own."""
        async with self.settings_transaction() as tx:
            await write(tx)

    async def act(self, session_id: int, user_id: int, action: dict[str, Any], **how: Any) -> GameSession:
        return await self.sessions.act(session_id, user_id, action, **how)

    async def session_for(self, interaction: discord.Interaction, game: str) -> GameSession:
        """The running game of ``game`` a command here means (this thread's or channel's, or the
        caller's own started here), or a clear error."""
        found = await self.threads.find(interaction, game)
        self._check_running(game, found and (found.game, found.status))
        return self.sessions.loaded(found)

    async def running_id(self, interaction: discord.Interaction, game: str) -> int:
        """The id of the running game of ``game`` a command here means (or a clear error), for a
        command that acts at once: the action's own change loads the session."""
        found = await self.threads.find(interaction, game)
        self._check_running(game, found and (found.game, found.status))
        return found.id

    def _check_running(self, game: str, found: tuple[str, str] | None) -> None:
        if found != (game, "active"):
            raise UserError(f"There is no {self.sessions.game(game).title} game running in this channel.")
