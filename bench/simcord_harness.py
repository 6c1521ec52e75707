"""Times real interactions through SimCord: the bot runs unmodified against a simulated Discord."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench import Row

NOOP_ROW = "platform: no-op slash command"

Prepare = Callable[[Any], Awaitable[Any]]  # (world) -> context
Step = Callable[[Any, Any], Awaitable[Any]]  # (world, context) -> None; one interaction


def time_interaction(
    name: str,
    step: Step,
    prepare: Prepare | None = None,
    games: list | None = None,
    repeat: int = 30,
    baseline: str | None = NOOP_ROW,
    note: str = "",
) -> Row:
    """Median/p95 of ``step`` (one interaction) in a fresh simulated server with a fresh database.

    ``prepare`` runs before every step (untimed), e.g. to reach the position to act in.
    """
    return asyncio.run(_time(name, step, prepare, games, repeat, baseline, note))


async def _time(name, step, prepare, games, repeat, baseline, note) -> Row:
    import simcord

    from bot.app import create_bot
    from bot.settings import Settings
    from bot.world import build_world

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_path=str(Path(folder) / "bench.db"))
        bot = create_bot(settings, games)
        try:
            async with simcord.run(bot) as env:
                world = build_world(env)
                samples = []
                for _ in range(repeat + 2):
                    context = await prepare(world) if prepare else None
                    start = time.perf_counter()
                    await step(world, context)
                    samples.append(time.perf_counter() - start)
        finally:
            await bot.release()  # a simulated Discord never calls close(); the store thread must stop
        return Row(name, samples[2:], baseline=baseline, note=note)
