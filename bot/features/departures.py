"""A server's data deleted after the bot is removed from it (issue #30).

When the bot leaves a server (``on_guild_remove``) the deletion is planned, durably, for the
REMOVED_SERVER_DAYS setting later (30 by default); added back before then (``on_guild_join``),
nothing is deleted. One task sleeps until the next planned deletion; at each start (``on_ready``)
it sweeps what came due while the bot was stopped. Each process deletes only its own shards'
servers, and a server it is in again is never deleted.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

import discord

from bot.core.outage import database_unavailable
from bot.core.store import Store
from bot.features import privacy_store

log = logging.getLogger(__name__)

LONGEST_SLEEP = timedelta(days=1)  # the task looks again at least daily
RETRY_SECONDS = 60  # after the database was unavailable


class ServerDepartures:
    def __init__(self, bot: discord.Client, store: Store, grace_days: int):
        self.bot = bot
        self.store = store
        self.grace = timedelta(days=grace_days)
        self._task: asyncio.Task[None] | None = None

    async def on_guild_remove(self, guild: discord.abc.Snowflake) -> None:
        after = discord.utils.utcnow() + self.grace
        async with self.store.transaction() as tx:
            privacy_store.plan_server_deletion(tx, guild.id, after)
        log.info("removed from server %s: its data is deleted on %s unless I am added back", guild.id, after)
        self.wake()

    async def on_guild_join(self, guild: discord.abc.Snowflake) -> None:
        async with self.store.transaction() as tx:
            privacy_store.cancel_server_deletion(tx, guild.id)

    async def on_ready(self) -> None:
        """The guilds Discord says the bot is in: a server kept in the store that is not among them
        removed the bot while no process of it was running (no ``on_guild_remove`` came), so its
        deletion is planned now, for this process's shards only."""
        try:
            await self._plan_departed_while_away()
        except Exception as error:  # the database is away: the next READY looks again
            if not database_unavailable(error):
                log.exception("comparing the stored servers with Discord's failed")
        self.wake()

    async def _plan_departed_while_away(self) -> None:
        scope = self.store.scope
        planned = await privacy_store.planned_server_deletions(self.store)
        gone = [
            guild_id
            for guild_id in await privacy_store.stored_servers(self.store)
            if guild_id not in planned
            and self.bot.get_guild(guild_id) is None
            and (scope is None or scope.owns(guild_id))
        ]
        if not gone:
            return
        after = discord.utils.utcnow() + self.grace
        async with self.store.transaction() as tx:
            for guild_id in gone:
                privacy_store.plan_server_deletion(tx, guild_id, after)
        log.info(
            "removed from servers %s while I was away: their data is deleted on %s unless I am added back", gone, after
        )

    def wake(self) -> None:
        """(Re)start the task that deletes what is due, then sleeps until the next deletion."""
        self.stop()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                following = await self.sweep()
            except Exception as error:  # the database is away, or a bug: logged, tried again later
                if not database_unavailable(error):
                    log.exception("deleting the data of servers that removed me failed; trying again later")
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if following is None:
                return
            wait = min(following - discord.utils.utcnow(), LONGEST_SLEEP)
            await asyncio.sleep(max(wait.total_seconds(), 0.0))

    async def sweep(self) -> datetime | None:
        """Delete the data of this process's servers that came due; when the next one is due."""
        now, following = discord.utils.utcnow(), None
        scope = self.store.scope
        for guild_id, due in (await privacy_store.planned_server_deletions(self.store)).items():
            if scope is not None and not scope.owns(guild_id):
                continue
            if self.bot.get_guild(guild_id) is not None:  # added back while the bot was stopped
                await self.on_guild_join(discord.Object(guild_id))
            elif due <= now:
                async with self.store.transaction() as tx:
                    privacy_store.delete_server(tx, guild_id)
                log.info("deleted the data of server %s, which removed me", guild_id)
            else:
                following = due if following is None else min(following, due)
        return following
