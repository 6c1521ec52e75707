"""The local playground: the real bot, unmodified, against a simulated Discord in this process,
shown in the browser by SimCord's Preview (loopback only). No token, no network.

One server, *Octagon Club*: #games and a channel per game, and four members (Ada, Bo, Cy, Di),
so one person can take every seat; Ada owns the server. It keeps its own database, never the
real bot's, and comes back as it was: the same server (same ids) at every start, at the same
address while its port is free, its commands registered again, every live game posted again and
playable, each channel's last finished games and the last tournaments' cards posted again
(``/history`` links to them), and its clock going on from where it stopped, with real time.

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
from bot.core.store import LIVE_STATUSES, SessionRecord, Store, parse_iso
from bot.dev.playground_live import CLOCK_KEY, CLOCK_SAVE_SECONDS, save_clock
from bot.dev.playground_page import ADDRESS_KEY, Playground, channels_page, save_address
from bot.dev.world import PlaygroundWorld, build_playground_world
from bot.features.activity.server import start_for_playground
from bot.features.threads import ARCHIVE_THREAD
from bot.features.tournaments.runner import CARD as EVENT_CARD
from bot.features.tournaments.store import KIT, games_of, past_in_guild

__all__ = ["Playground", "channels_page", "main", "preview_available", "run_playground"]

DEFAULT_DATABASE = "playground.db"
INSTALL_HINT = 'The playground needs its extra packages: run  pip install -e ".[playground]"  and try again.'
COMMANDS_KEY = "command_tree_hash"  # where bot/app.py notes the command tree it synced
FINISHED_SHOWN = (
    5  # a channel's finished games posted again at start, the latest (keeps the start fast), and the server's events
)
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
    resume_at, address = await prepare_store(settings)
    saved_port, token = address.split() if address else (None, None)
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
            await start_for_playground(bot)  # the Activity's page, before the games are posted again
            await play_games_in_their_own_channels(world)
            await show_games_again(world)
            async with Playground(world, port or int(saved_port or 0), token) as playground:
                world.platform.links.page = playground.message_link  # /history leads to the page
                await save_address(bot.store, playground)
                print(f"Playground running: open {playground.url} in your browser (Ctrl+C stops it).", flush=True)
                if ready is not None:
                    await ready(world, playground)
                await stop.wait()
            await save_clock(bot.store, env.now())
    finally:
        await bot.release()


async def prepare_store(settings: Settings) -> tuple[datetime | None, str | None]:
    """Before the bot opens the database: forget the synced command tree (the simulated Discord
    is new at every start, so the bot must register its commands again), read where the clock
    was and the page's address ("port token"). Nothing for a database in memory, which starts clean."""
    if settings.database_path == ":memory:":
        return None, None
    store = await Store.open(settings.database)
    try:
        stopped_at = await store.get_value(CLOCK_KEY)
        address = await store.get_value(ADDRESS_KEY)
        async with store.transaction() as tx:
            await tx.set_value(COMMANDS_KEY, "")
    finally:
        await store.close()
    # More than the last time kept: the last run may have gone on briefly after it.
    resume_at = parse_iso(stopped_at) + timedelta(seconds=CLOCK_SAVE_SECONDS + 1) if stopped_at else None
    return resume_at, address


async def play_games_in_their_own_channels(world: PlaygroundWorld) -> None:
    """#games gives every game a thread of its own, so several run there at once; each game's
    own channel plays its game in the channel itself, as the walkthrough shows (unless Ada
    changed it with `/settings game_threads`)."""
    store = world.platform.store
    for name, channel in world.channels.items():
        if name != "games" and await store.game_threads(channel.id) is None:
            async with store.transaction() as tx:
                await tx.set_game_threads(channel.id, world.guild.id, False)


async def show_games_again(world: PlaygroundWorld) -> None:
    """Post the games of this server again, in the order their messages had: every live game
    (challenge, lobby or game) and each channel's last ``FINISHED_SHOWN`` finished ones, with
    Replay and Rematch (a game of a thread gets its card and a new thread), and the cards of the
    last ``FINISHED_SHOWN`` tournaments, whatever number of games they had. Their messages were
    in the previous run's simulated Discord, which is gone. Each is out before the page opens;
    the links to older finished games lead to their channel."""
    platform = world.platform
    store = platform.store
    channels = {channel.id for channel in world.channels.values()}
    events = [event.id for event in await past_in_guild(store, platform.sessions, world.guild.id, FINISHED_SHOWN)]
    shown = [*await store.shown_live_sessions(), *await store.shown_finished_sessions(FINISHED_SHOWN), *events]
    records = [
        record for record in [await store.get_session(session_id) for session_id in dict.fromkeys(shown)] if record
    ]
    # A channel of an older playground's server no longer exists.
    records = sorted((r for r in records if r.channel_id in channels), key=shown_message)
    for record in records:
        await show_again(world, record)
    for record in records:
        if record.game == KIT:
            await link_this_runs_threads(world, record.id)


async def link_this_runs_threads(world: PlaygroundWorld, event_id: int) -> None:
    """A tournament's card links the threads of its games: those posted again have new threads,
    and the others' threads went with the previous run's simulated Discord (a link to one would
    show as a raw ``<#id>``). So the event's games forget a thread of an earlier run, and its card
    is drawn again once its games are out."""
    platform = world.platform
    threads = {thread.id for channel in world.channels.values() for thread in channel.threads}
    for game_id, thread_id in (await games_of(platform.store, event_id)).values():
        if thread_id is not None and thread_id not in threads:
            async with platform.sessions.change(game_id) as change:
                change.quiet()
                change.record.thread_id = None
    async with platform.sessions.change(event_id) as change:
        change.quiet()
        change.post(EVENT_CARD)
    await platform.outbox.flush(event_id)


def shown_message(record: SessionRecord) -> int:
    """The id of the message that showed the game in its channel (ids grow with time)."""
    return (record.card_id if record.in_thread else record.message_id) or 0


async def show_again(world: PlaygroundWorld, record: SessionRecord) -> None:
    platform = world.platform
    channel = next(channel for channel in world.channels.values() if channel.id == record.channel_id)
    if any(message.id == shown_message(record) for message in channel.history()):
        return  # already posted again at start (a redraw after an upgrade sends it anew)
    async with platform.sessions.change(record.id) as change:
        if change.record.game in platform.sessions.kits:  # a tournament: its card again
            platform.tournaments.show_again(change)
        elif change.record.in_thread:
            platform.threads.show_again(change)
        else:
            change.show(repost=True)
    await platform.outbox.flush(record.id)
    shown = await platform.store.get_session(record.id)
    if shown is not None and shown.thread_id is not None and shown.status not in LIVE_STATUSES:
        await archive_if_it_was(world, record.id)


async def archive_if_it_was(world: PlaygroundWorld, session_id: int) -> None:
    """A finished game's thread shown anew is archived again once its archiving is past (it
    waits for its timer otherwise): the list of channels lists only the threads not archived."""
    platform = world.platform
    if any(timer.kind == ARCHIVE_THREAD for timer in await platform.store.timers(session_id)):
        return
    async with platform.sessions.change(session_id) as change:
        change.quiet()
        change.post(ARCHIVE_THREAD)
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
        activity_port=None,  # its own Activity, on a free port (start_for_playground)
        activity_url=None,
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
