"""Times real interactions through SimCord: the bot runs unmodified against a simulated Discord.

Each interaction gives three rows: end to end (what a test waits, SimCord's own 50 ms settling
included), **bot-side** (from the interaction's arrival in the bot to its last answer or picture,
as :mod:`bench.probe` takes it) and the bot's **CPU** for it (worker processes included,
SimCord's own work excluded).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench import Row, sized

NOOP_ROW = "platform: no-op slash command"
BOT_SIDE = ": bot-side"
BOT_CPU = ": bot CPU"

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
) -> list[Row]:
    """Median/p95 of ``step`` (one interaction) in a fresh simulated server with a fresh database,
    end to end, bot-side and in CPU. ``prepare`` runs before every step (untimed), e.g. to reach
    the position to act in."""
    return asyncio.run(_time(name, step, prepare, games, sized(repeat, 1), baseline, note))


async def _time(name, step, prepare, games, repeat, baseline, note) -> list[Row]:
    import simcord

    from bench.probe import Probe
    from bot.app import create_bot
    from bot.core.settings import Settings
    from bot.dev.world import build_world

    with tempfile.TemporaryDirectory() as folder:
        # One game per channel, its message in the channel (what the per-move figures time).
        settings = Settings(database_path=str(Path(folder) / "bench.db"), game_threads=False)
        bot = create_bot(settings, games)
        try:
            async with simcord.run(bot) as env:
                world = build_world(env)
                probe = Probe(bot)
                ends, sides, cpus = [], [], []
                try:
                    for _ in range(repeat + 2):
                        context = await prepare(world) if prepare else None
                        seen, cpu = len(probe.arrived), probe.cpu_snapshot()["bot"]
                        start = time.perf_counter()
                        await step(world, context)
                        ends.append(time.perf_counter() - start)
                        cpus.append(probe.cpu_snapshot()["bot"] - cpu)
                        sides.append(_bot_side(probe, list(probe.arrived)[seen:], world.channel.id))
                finally:
                    probe.detach()
        finally:
            await bot.release()  # a simulated Discord never calls close(); the store thread must stop
    floor = NOOP_ROW if baseline else None
    return [
        Row(name, ends[2:], baseline=baseline, note=note),
        Row(name + BOT_SIDE, sides[2:], baseline=floor and floor + BOT_SIDE, note="arrival to last answer or picture"),
        Row(name + BOT_CPU, cpus[2:], baseline=floor and floor + BOT_CPU, note="worker processes included"),
    ]


def _bot_side(probe: Any, interactions: list[int], channel_id: int) -> float:
    """From the first interaction's arrival to the bot's last answer, handler end or picture."""
    start = min(probe.arrived[i] for i in interactions)
    ends = [probe.done.get(i, start) for i in interactions] + [probe.answered.get(i, start) for i in interactions]
    ends += [t for t in probe.pictures.get(channel_id, ()) if t >= start]
    return max(ends) - start
