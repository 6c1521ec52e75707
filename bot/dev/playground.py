"""The local playground: the real bot, unmodified, against a simulated Discord in this process,
shown in the browser by SimCord's Preview (loopback only). No token, no network.

One server, *Octagon Club*: #games and a channel per game, and four members (Ada, Bo, Cy, Di),
so one person can take every seat; Ada owns the server. It keeps its own database, never the
real bot's, and comes back as it was: the same server (same ids) at every start, its commands
registered again, every live game posted again and playable, and its clock going on from where
it stopped.

This module starts it (the server, the bot, the games posted again); the page the browser talks
to, and what is added to how SimCord's Preview is served, are in ``bot/dev/playground_page.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import signal
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.core.settings import Settings
from bot.core.store import Store, parse_iso
from bot.dev.playground_page import CLOCK_KEY, Playground, channels_page, save_clock
from bot.dev.world import PlaygroundWorld, build_playground_world

__all__ = ["Playground", "channels_page", "main", "preview_available", "run_playground"]

DEFAULT_DATABASE = "playground.db"
INSTALL_HINT = 'The playground needs its extra packages: run  pip install -e ".[playground]"  and try again.'
COMMANDS_KEY = "command_tree_hash"  # where bot/app.py notes the command tree it synced
SETTLE_SECONDS = 30  # what the bot's own background work (a timer firing, a computer thinking) may take

Ready = Callable[[PlaygroundWorld, Playground], Awaitable[None]]

# What SimCord's Preview needs at run time (the `playground` extra installs them).
PREVIEW_MODULES = ("simcord", "aiohttp", "av", "linkify_it", "markdown_it", "regex")


def preview_available() -> bool:
    return all(importlib.util.find_spec(module) is not None for module in PREVIEW_MODULES)


async def run_playground(
    settings: Settings, *, port: int | None = None, ready: Ready | None = None, stop: asyncio.Event | None = None
) -> None:
    """Serve the playground until ``stop`` is set (by SIGINT/SIGTERM when run from the command line)."""
    import discord
    import simcord

    from bot.app import create_bot

    stop = stop or asyncio.Event()
    resume_at = await prepare_store(settings)
    bot = create_bot(settings)
    try:
        # The server is built while a stand-in client holds the simulated Discord, before the bot
        # connects: its ids then never depend on what the bot does at start (syncing commands
        # takes ids too). The clock goes on from the last run's, so timers keep their meaning and
        # new messages never take the id of a message the stored games remember.
        stand_in = discord.Client(intents=discord.Intents.default())
        async with simcord.run(stand_in, check_errors=False, settle_timeout=SETTLE_SECONDS) as env:
            world = build_playground_world(env)
            if resume_at is not None and resume_at > env.now():
                await env.advance_time((resume_at - env.now()).total_seconds())
            await env.restart_bot(bot)  # setup_hook syncs the commands; on_ready sends what is pending
            await play_games_in_their_own_channels(world)
            await show_live_games(world)
            async with Playground(world, port) as playground:
                print(f"Playground running: open {playground.url} in your browser (Ctrl+C stops it).", flush=True)
                if ready is not None:
                    await ready(world, playground)
                await stop.wait()
            await save_clock(bot.store, env.now())
    finally:
        await bot.release()


async def prepare_store(settings: Settings) -> datetime | None:
    """Before the bot opens the database: forget the synced command tree (the simulated Discord
    is new at every start, so the bot must register its commands again) and read where the
    clock was. None for a database in memory, which starts clean."""
    if settings.database_path == ":memory:":
        return None
    store = await Store.open(settings.database)
    try:
        stopped_at = await store.get_value(CLOCK_KEY)
        async with store.transaction() as tx:
            await tx.set_value(COMMANDS_KEY, "")
    finally:
        await store.close()
    # A second more than the last time seen: the last run may have gone on briefly after it.
    return parse_iso(stopped_at) + timedelta(seconds=1) if stopped_at else None


async def play_games_in_their_own_channels(world: PlaygroundWorld) -> None:
    """#games gives every game a thread of its own, so several run there at once; each game's
    own channel plays its game in the channel itself, as the walkthrough shows (unless Ada
    changed it with `/settings game_threads`)."""
    store = world.platform.store
    for name, channel in world.channels.items():
        if name != "games" and await store.game_threads(channel.id) is None:
            async with store.transaction() as tx:
                await tx.set_game_threads(channel.id, world.guild.id, False)


async def show_live_games(world: PlaygroundWorld) -> None:
    """Post every live game (challenge, lobby or game) of this server again: its message was in
    the previous run's simulated Discord, which is gone (a game in a thread gets its card and a
    new thread). Each is out before the page opens."""
    platform = world.platform
    channels = {channel.id: channel for channel in world.channels.values()}
    for session_id in await platform.store.shown_live_sessions():
        record = await platform.store.get_session(session_id)
        channel = channels.get(record.channel_id) if record else None
        if channel is None:
            continue  # a channel of an older playground's server, which no longer exists
        shown = record.card_id if record.in_thread else record.message_id
        if any(message.id == shown for message in channel.history()):
            continue  # already posted again at start (a redraw after an upgrade sends it anew)
        async with platform.sessions.change(session_id) as change:
            if change.record.in_thread:
                platform.threads.show_again(change)
            else:
                change.show(repost=True)
        await platform.outbox.flush(session_id)


def main(settings: Settings, *, in_memory: bool = False, port: int | None = None) -> int:
    if not preview_available():
        print(INSTALL_HINT)
        return 2
    database = ":memory:" if in_memory else DEFAULT_DATABASE
    # Never the real bot's database (DATABASE_URL) or shards: one process, its own SQLite file.
    playground_settings = dataclasses.replace(
        settings,
        token=None,
        database_path=database,
        database_url=None,
        shard_count=None,
        shard_ids=None,
        dev_guild_id=None,
    )

    async def serve() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await run_playground(playground_settings, port=port, stop=stop)

    asyncio.run(serve())
    print("Playground stopped.", flush=True)
    return 0
