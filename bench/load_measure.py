"""What ``python -m bench load`` measures besides the moves themselves (:mod:`bench.load`): a
session change's save, the PostgreSQL server's CPU, the event loop's lag, the memory, the database's
size, and the requests the bot made to (simulated) Discord by kind; and the two ways the benchmark
keeps SimCord from weighing on the bot (its clock following real time, its list of callbacks)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

LAG_TICK = 0.02  # the loop-lag monitor's sleep
CLOCK_STEP_SECONDS = 0.1  # how often the simulated clock catches up with real time


class Records:
    """SimCord's list of the bot's pending callbacks, with removal by identity in constant time:
    the list's own ``remove`` compares records field by field, and with hundreds pending that
    cost (SimCord's, inside the bot's tasks) grew with the load."""

    def __init__(self, records: Any = ()):
        self._by_id = {id(record): record for record in records}

    def append(self, record: Any) -> None:
        self._by_id[id(record)] = record

    def remove(self, record: Any) -> None:
        if self._by_id.pop(id(record), None) is None:
            raise ValueError("not tracked")

    def clear(self) -> None:
        self._by_id.clear()

    def __iter__(self) -> Any:
        return iter(list(self._by_id.values()))

    def __len__(self) -> int:
        return len(self._by_id)


class SaveTimes:
    """How long the store takes to save a change of a session (a move, mostly): its transaction
    from the first statement to COMMIT, as the bot waits for it (event-loop lag included)."""

    def __init__(self, store: Any):
        self.samples: list[float] = []
        self._store = store
        self._transaction = store.transaction
        store.transaction = self._timed

    @contextlib.asynccontextmanager
    async def _timed(self) -> Any:
        saved = False
        start = time.perf_counter()
        async with self._transaction() as tx:
            update = tx.update_session

            async def update_session(*args: Any, **kwargs: Any) -> None:
                nonlocal saved
                saved = True
                await update(*args, **kwargs)

            tx.update_session = update_session
            yield tx
        if saved:
            self.samples.append(time.perf_counter() - start)

    def detach(self) -> None:
        self._store.transaction = self._transaction


class ServerCpu:
    """CPU seconds of the PostgreSQL server's processes when it runs on this machine (pgserver's
    does), which the bot's figure leaves out; None for SQLite (its thread is the bot's) or a
    server elsewhere."""

    def __init__(self, postmaster: Any):
        self._postmaster = postmaster

    @classmethod
    async def of(cls, store: Any) -> ServerCpu:
        import psutil

        if store.dialect != "postgresql":
            return cls(None)
        backend = (await store.database.rows("SELECT pg_backend_pid()"))[0][0]
        try:
            postmaster = psutil.Process(backend).parent()
        except psutil.Error:
            return cls(None)
        return cls(postmaster if postmaster and "postgres" in postmaster.name() else None)

    def seconds(self) -> float | None:
        import psutil

        if self._postmaster is None:
            return None
        total = 0.0
        for process in [self._postmaster, *self._postmaster.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):  # a backend that just ended
                times = process.cpu_times()
                total += times.user + times.system
        return total


async def real_time_clock(env: Any, stop: asyncio.Event) -> None:
    """SimCord's clock follows real time while the load runs, as Discord's does, so that what the
    bot schedules (a card's edit 4 s after a move, a retry) falls due on time. SimCord's own jump
    to each due timer is off meanwhile (``env._advancing``): stepping its clock through thousands of
    pending timers at once stalls the loop for seconds, an artefact of the simulator that a bot on
    Discord never meets. So the bot's own timers that fall due (a sleep waiting for its place in
    the request budget, an outbox retry) are run here, as SimCord's jump would run them."""
    from simcord._settlement import _run_due_virtual_callbacks

    loop = asyncio.get_running_loop()
    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(CLOCK_STEP_SECONDS)
        # The real time gone by, going on from any jump the benchmark makes. The clock alone:
        # SimCord's move also scans every message for polls and events that fall due (this bot
        # makes none), which with the load's messages took the loop for tens of ms.
        now = time.perf_counter()
        env.backend.advance_clock(now - last)
        last = now
        _run_due_virtual_callbacks(env._settlement_state(), loop.time() + CLOCK_STEP_SECONDS / 2)


async def lag_monitor(samples: list[float], stop: asyncio.Event) -> None:
    """How late the event loop wakes a task that asked to sleep ``LAG_TICK``."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        samples.append(time.perf_counter() - start - LAG_TICK)


def rss_bytes() -> int:
    import psutil

    me = psutil.Process()
    total: int = me.memory_info().rss + sum(child.memory_info().rss for child in me.children(recursive=True))
    return total


class RequestCount:
    """The requests the bot made to (simulated) Discord while moves were offered, from the strict
    layer's log: those that count towards Discord's 50 a second by what they are for (the game
    message, the card in the channel, the turn notices, anything else), the exempt ones
    (interaction answers), and the 429s Discord answered."""

    def __init__(self, driver: Any):
        from bot.dev.discord_rules import rules_of

        rules = rules_of(driver.env.backend)
        assert rules is not None, "the load runs under Discord's rules (use_discord_rules)"
        self._rules = rules
        self._messages = driver.env.backend.messages
        self._parents = {str(table.channel.id) for table in driver.tables}
        self._from = self._marks()
        self.counted: dict[str, int] = {}
        self.exempt = self.rate_limited = 0

    def _marks(self) -> tuple[int, int, int]:
        rules = self._rules
        return len(rules.counted), len(rules.exempt), len(rules.rate_limited)

    def stop(self) -> None:
        counted, exempt, limited = self._from
        rules = self._rules
        self.counted = {"board": 0, "card": 0, "notice": 0, "other": 0}
        for request in rules.counted[counted:]:
            self.counted[self._kind(request.method, request.path)] += 1
        self.exempt = len(rules.exempt) - exempt
        self.rate_limited = len(rules.rate_limited) - limited

    def _kind(self, method: str, path: str) -> str:
        parts = path.strip("/").split("/")
        if len(parts) < 3 or parts[0] != "channels" or parts[2] != "messages":
            return "other"
        if method == "PATCH":
            return "card" if parts[1] in self._parents else "notice" if self._notice(parts) else "board"
        return "notice" if method in ("POST", "DELETE") and parts[1] not in self._parents else "other"

    def _notice(self, parts: list[str]) -> bool:
        """An edit of a "your move" notice (to name a member who is at the game), not of the board."""
        message = self._messages.get(int(parts[1]), {}).get(int(parts[3])) if len(parts) > 3 else None
        return message is not None and message.content.startswith("🔔")


async def database_bytes(store: Any, location: str) -> int:
    """The database's size: PostgreSQL's own figure, or the SQLite file with its WAL."""
    if store.dialect == "postgresql":
        size: int = (await store.database.rows("SELECT pg_database_size(current_database())"))[0][0]
        return size
    path = Path(location.removeprefix("sqlite:"))
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


async def measured(
    driver: Any,
    probe: Any,
    saves: SaveTimes,
    server: ServerCpu,
    rate: float,
    seconds: float,
    sessions: int,
    database: str,
) -> dict[str, Any]:
    lags: list[float] = []
    stop = asyncio.Event()
    monitor = asyncio.ensure_future(lag_monitor(lags, stop))
    saves.samples = []
    requests = RequestCount(driver)
    cpu_before, server_before, start = probe.cpu_snapshot(), server.seconds(), time.perf_counter()
    tally = await driver.offer(rate, seconds)
    cpu_after, server_after = probe.cpu_snapshot(), server.seconds()
    requests.stop()
    stop.set()
    await monitor
    moves = max(1, tally.moves)
    store = probe.bot.store
    return {
        "database": store.dialect,
        "sessions": sessions,
        "offered": rate,
        # Moves done while moves were offered (those finishing later still give their times).
        "moves/s": sum(start <= t <= start + seconds for t in tally.completed) / seconds,
        "answer": tally.answers,
        "picture": tally.pictures,
        "save": saves.samples,
        "bot CPU ms/move": (cpu_after["bot"] - cpu_before["bot"]) / moves * 1000,
        "workers CPU ms/move": (cpu_after["workers"] - cpu_before["workers"]) / moves * 1000,
        "SimCord+driver CPU ms/move": (cpu_after["harness"] - cpu_before["harness"]) / moves * 1000,
        "bot-only CPU ms/move": (cpu_after["bot only"] - cpu_before["bot only"]) / moves * 1000,
        "worker processes CPU ms/move": (cpu_after["worker processes"] - cpu_before["worker processes"]) / moves * 1000,
        "cores": os.cpu_count() or 1,
        "load average": os.getloadavg(),
        "server CPU ms/move": None
        if server_before is None or server_after is None
        else (server_after - server_before) / moves * 1000,
        "RSS MB": rss_bytes() / 2**20,
        "database MB": await database_bytes(store, database) / 2**20,
        "loop lag": lags,
        "moves": tally.moves,
        "refused": tally.refused,
        "lost": tally.lost,
        "unoffered": tally.unoffered,
        "requests/move": {kind: count / moves for kind, count in requests.counted.items()},
        "exempt/move": requests.exempt / moves,
        "429s": requests.rate_limited,
    }


@contextlib.contextmanager
def database_for_run(choice: str) -> Iterator[str]:
    """The URL of an empty database for ``choice``: ``sqlite`` (a file) or ``postgresql`` (a
    pgserver server), each in a temporary folder removed afterwards, or a ``postgresql://`` URL."""
    from bot.core.database import is_postgres

    if is_postgres(choice):
        yield choice
        return
    if choice not in ("sqlite", "postgresql"):
        raise SystemExit(f"--database: sqlite, postgresql or a postgresql:// URL, not {choice!r}")
    with tempfile.TemporaryDirectory() as folder:
        if choice == "sqlite":
            yield str(Path(folder) / "load.db")
            return
        import pgserver

        server = pgserver.get_server(folder, cleanup_mode="stop")  # type: ignore[attr-defined]
        try:
            yield server.get_uri()
        finally:
            server.cleanup()
