"""The local playground: the real bot, unmodified, against a simulated Discord in this process,
shown in the browser by SimCord's Preview (loopback only). No token, no network.

One server with a #games channel and four members (Ada, Bo, Cy, Di), so one person can
take every seat. It keeps its own database, never the real bot's.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import signal
from collections.abc import Awaitable, Callable
from typing import Any

from bot.settings import Settings
from bot.world import World, build_world

DEFAULT_DATABASE = "playground.db"
INSTALL_HINT = 'The playground needs its extra packages: run  pip install -e ".[playground]"  and try again.'

Ready = Callable[[World, Any], Awaitable[None]]


# What SimCord's Preview needs at run time (the `playground` extra installs them).
PREVIEW_MODULES = ("simcord", "aiohttp", "av", "linkify_it", "markdown_it", "regex")


def preview_available() -> bool:
    return all(importlib.util.find_spec(module) is not None for module in PREVIEW_MODULES)


async def run_playground(
    settings: Settings, *, port: int | None = None, ready: Ready | None = None, stop: asyncio.Event | None = None
) -> None:
    """Serve the playground until ``stop`` is set (by SIGINT/SIGTERM when run from the command line)."""
    import simcord

    from bot.app import create_bot

    stop = stop or asyncio.Event()
    bot = create_bot(settings)
    try:
        async with simcord.run(bot, check_errors=False, settle_timeout=30) as env:
            world = build_world(env)
            preview = env.preview(world.channel, viewers=world.members, layout="channel", port=port)
            async with preview:
                print(f"Playground running: open {preview.url} in your browser (Ctrl+C stops it).", flush=True)
                if ready is not None:
                    await ready(world, preview)
                await stop.wait()
    finally:
        await bot.release()


def main(settings: Settings, *, in_memory: bool = False, port: int | None = None) -> int:
    if not preview_available():
        print(INSTALL_HINT)
        return 2
    database = ":memory:" if in_memory else DEFAULT_DATABASE
    playground_settings = dataclasses.replace(settings, token=None, database_path=database, dev_guild_id=None)

    async def serve() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await run_playground(playground_settings, port=port, stop=stop)

    asyncio.run(serve())
    print("Playground stopped.", flush=True)
    return 0
