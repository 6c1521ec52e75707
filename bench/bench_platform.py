"""The platform's own figures: the floor every game move is compared with."""

from __future__ import annotations

import asyncio
import multiprocessing
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from bench import Row, sized
from bench.simcord_harness import BOT_SIDE, NOOP_ROW, time_interaction
from bot.core.workers import CORES


async def _noop(world, _context) -> None:
    await world.ada.slash(world.channel, "games")


def _store_saves(repeat: int = 200) -> Row:
    """One save of a state and its action, in one transaction (WAL, on disk)."""
    from bot.core.store import Store

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
            for move in range(sized(repeat, 1)):
                record.state = {**state, "turn": move}
                record.actions += 1
                start = time.perf_counter()
                async with store.transaction() as tx:
                    await tx.update_session(record, now)
                    await tx.append_action(record.id, record.actions, 1, {"type": "move", "path": "c1-d2-e3"}, now)
                samples.append(time.perf_counter() - start)
            await store.close()
            return samples

    return Row("platform: store save (state + action)", asyncio.run(measure()), baseline=NOOP_ROW + BOT_SIDE)


QUIET_MOVE_ROW = "platform: a move in another channel, nothing thinking"
THINKERS = 10  # hard computer moves thinking at once in other channels


async def _other_channel_moves(thinking: Callable[[], Executor] | None, repeat: int) -> list[float]:
    """A move elsewhere (engine apply, then the board drawn in a picture worker, as the bot does)
    timed while ``THINKERS`` hard Octego searches keep running in ``thinking``'s executor."""
    from bot.core.workers import WorkerPool
    from engines.octego import ENGINE, choose_action
    from render.octego import render_board

    loop = asyncio.get_running_loop()
    renderer = WorkerPool("picture", CORES)
    start_state = ENGINE.new_game(2, {}, 1)
    executor = thinking() if thinking else None
    done = asyncio.Event()

    async def think_until_done(seed: int) -> None:
        while not done.is_set():
            await loop.run_in_executor(executor, choose_action, start_state, 0, "hard", seed)

    async def move(state, number: int):
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[number % 3])
        await renderer.run(render_board, state, ["Ada", "Bo"])
        return state

    state = start_state
    for number in range(3):  # warm up: fonts, caches and the workers' start-up are not measured
        state = await move(state, number)
    if executor is not None:
        await asyncio.gather(
            *(loop.run_in_executor(executor, choose_action, start_state, 0, "easy", 0) for _ in range(2))
        )
    thinking_at_once = sized(THINKERS, 2)
    thinkers = [asyncio.ensure_future(think_until_done(seed)) for seed in range(thinking_at_once)] if executor else []
    await asyncio.sleep(0.2)  # let every search get going
    samples = []
    for number in range(sized(repeat, 1)):
        start = time.perf_counter()
        state = await move(state, number)
        samples.append(time.perf_counter() - start)
    done.set()
    await asyncio.gather(*thinkers)
    renderer.shutdown()
    if executor is not None:
        executor.shutdown()
    return samples


def _computer_thinking_beside_moves(repeat: int = 15) -> list[Row]:
    def threads() -> Executor:
        return ThreadPoolExecutor(THINKERS)

    def processes() -> Executor:
        return ProcessPoolExecutor(CORES, mp_context=multiprocessing.get_context("spawn"))

    return [
        Row(QUIET_MOVE_ROW, asyncio.run(_other_channel_moves(None, repeat)), note="Octego apply + board render"),
        Row(
            f"platform: that move while {THINKERS} hard computer moves think in threads",
            asyncio.run(_other_channel_moves(threads, repeat)),
            baseline=QUIET_MOVE_ROW,
            note="the default thread pool, as before",
        ),
        Row(
            f"platform: that move while {THINKERS} hard computer moves think in the process pool",
            asyncio.run(_other_channel_moves(processes, repeat)),
            baseline=QUIET_MOVE_ROW,
            note=f"{CORES} spawned workers, as bot/core/workers.py",
        ),
    ]


def run() -> list[Row]:
    return [
        *time_interaction(NOOP_ROW, _noop, games=[], baseline=None, note="/games through SimCord, end to end"),
        _store_saves(),
        *_computer_thinking_beside_moves(),
    ]
