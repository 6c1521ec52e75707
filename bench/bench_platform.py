"""The platform's own figures: the floor every game move is compared with."""

from __future__ import annotations

import asyncio
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bench import Row
from bench.simcord_harness import NOOP_ROW, time_interaction


async def _noop(world, _context) -> None:
    await world.ada.slash(world.channel, "games")


def _store_saves(repeat: int = 200) -> Row:
    """One save of a state and its action, in one transaction (WAL, on disk)."""
    from bot.store import Store

    async def measure() -> list[float]:
        with tempfile.TemporaryDirectory() as folder:
            store = await Store.open(str(Path(folder) / "bench.db"))
            now = datetime.now(UTC)
            async with store.transaction() as tx:
                session = await tx.insert_session(
                    game="bench",
                    guild_id=1,
                    channel_id=1,
                    host_id=1,
                    players=[1, 2],
                    status="active",
                    state={},
                    schema_version=1,
                    now=now,
                    meta={},
                )
            record = await store.get_session(session)
            state = {"board": list(range(64)), "hands": [[f"card{i}" for i in range(8)]] * 2, "turn": 0}
            samples = []
            for move in range(repeat):
                record.state = {**state, "turn": move}
                record.actions += 1
                start = time.perf_counter()
                async with store.transaction() as tx:
                    await tx.update_session(record, now)
                    await tx.append_action(record.id, record.actions, 1, {"type": "move", "path": "c1-d2-e3"}, now)
                samples.append(time.perf_counter() - start)
            await store.close()
            return samples

    return Row("platform: store save (state + action)", asyncio.run(measure()), baseline=NOOP_ROW)


def run() -> list[Row]:
    return [
        time_interaction(NOOP_ROW, _noop, games=[], baseline=None, note="/games through SimCord, end to end"),
        _store_saves(),
    ]
