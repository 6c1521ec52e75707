"""PostgreSQL's pooled connections (issue #29): the reads of a change share the connection its
transaction uses, a task gives its connection back as soon as it awaits anything else, and
tasks never share one. Counted on a real server's pool (the test process's pgserver)."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from datetime import timedelta

import pytest

from bot.core.sessions import SessionMeta, Sessions
from bot.core.store import Store
from tests.bot.tinygame import TinyEngine
from tests.store.sessions import NOW


@dataclass(frozen=True)
class Tiny:
    engine: TinyEngine
    title: str = "Tiny"


class Acquisitions:
    """How many times the store's pool handed out a connection: through ``acquire``, or through
    a statement asked of the pool itself (asyncpg's pool takes a connection for each)."""

    TAKING = ("acquire", "fetch", "fetchrow", "fetchval", "execute", "executemany")

    def __init__(self, store: Store):
        self.count = 0
        self._pool = store.database.pool
        store.database.pool = self

    def __getattr__(self, name: str):
        found = getattr(self._pool, name)
        if name in self.TAKING:
            self.count += 1
        return found


@pytest.fixture
async def pg_store(postgres_url):
    store = await Store.open(postgres_url, pool_size=2)
    yield store
    await store.close()


async def all_back(store: Store) -> None:
    """Every connection in the pool idle again (a lease returns once its task moves on)."""
    pool = store.database.pool
    pool = getattr(pool, "_pool", pool)  # under Acquisitions
    for _ in range(100):
        if pool.get_idle_size() == pool.get_size():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{pool.get_size() - pool.get_idle_size()} connection(s) never went back to the pool")


async def test_a_session_change_and_its_reads_take_one_pooled_connection(pg_store):
    clock = (NOW + timedelta(seconds=n) for n in itertools.count())
    sessions = Sessions(pg_store, {"tiny": Tiny(TinyEngine())}, lambda: next(clock))
    async with sessions.open(
        game="tiny",
        guild_id=9,
        channel_id=1,
        host_id=5,
        players=[5, 6],
        status="challenge",
        meta=SessionMeta(names=["Ada", "Bo"], seats=[5, 6]),
        busy_text=lambda _: "busy",
    ) as opening:
        opening.start([5, 6], ["Ada", "Bo"], {}, seed=1)
        opening.add_timer("clock", NOW + timedelta(minutes=5))
    session_id = opening.record.id
    (timer,) = await pg_store.timers(session_id)
    await all_back(pg_store)

    acquisitions = Acquisitions(pg_store)
    # A timer's change: it reads the session and its timers, then deletes the timer and saves
    # the move in one transaction.
    async with sessions.change(session_id, timer=timer) as change:
        seat = TinyEngine().to_act(change.state)[0]
        change.apply(seat, {"type": "add", "amount": 1}, by=change.session.players[seat])
    assert acquisitions.count == 1, "the change's reads and its transaction share one pooled connection"

    await all_back(pg_store)
    assert (await pg_store.get_session(session_id)).actions == 1
    assert await pg_store.timers(session_id) == []


async def test_reads_in_a_row_share_a_connection_and_it_goes_back_when_the_task_waits(pg_store):
    await all_back(pg_store)
    acquisitions = Acquisitions(pg_store)
    for _ in range(5):
        await pg_store.query("SELECT 1")
    assert acquisitions.count == 1, "reads one after another, nothing else awaited, take one connection"

    await asyncio.sleep(0)  # awaiting anything else gives the connection back
    pool = pg_store.database.pool._pool
    assert pool.get_idle_size() == pool.get_size()
    await pg_store.query("SELECT 1")
    assert acquisitions.count == 2


async def test_a_task_waiting_on_another_never_holds_the_connection_it_needs(postgres_url):
    """One connection in the pool: a task that read and then waits for a second task's read
    must have given its connection back, or both would wait for ever."""
    store = await Store.open(postgres_url, pool_size=1)
    try:
        second_read = asyncio.Event()

        async def first() -> int:
            await store.query("SELECT 1")
            await second_read.wait()
            return (await store.query_one("SELECT 2"))[0]

        async def second() -> int:
            value = (await store.query_one("SELECT 3"))[0]
            second_read.set()
            return value

        assert await asyncio.wait_for(asyncio.gather(first(), second()), timeout=10) == [2, 3]
    finally:
        await store.close()


async def test_tasks_read_at_once_each_on_a_connection_of_its_own(pg_store):
    """Concurrent tasks never share a connection (asyncpg runs one statement at a time on one)."""

    async def reader(number: int) -> list[int]:
        seen = []
        for step in range(5):
            row = await pg_store.query_one("SELECT ?::int + ?::int, pg_sleep(0.001)", (number, step))
            seen.append(row[0])
        return seen

    results = await asyncio.gather(*(reader(n * 10) for n in range(6)))
    assert results == [[n * 10 + step for step in range(5)] for n in range(6)]
    await all_back(pg_store)


async def test_a_read_inside_a_transaction_sees_its_writes_and_a_failed_one_leaves_the_pool_whole(pg_store):
    async with pg_store.transaction() as tx:
        await tx.query("INSERT INTO bot_state (key, value) VALUES (?, ?) RETURNING key", ("lease", "inside"))
        # A read through the store in the transaction's task runs on the transaction's connection.
        assert await pg_store.get_value("lease") == "inside"

    async def failing_change() -> None:
        async with pg_store.transaction() as tx:
            await tx.query("UPDATE bot_state SET value = ? WHERE key = ? RETURNING key", ("gone", "lease"))
            raise RuntimeError("the block fails")

    with pytest.raises(RuntimeError):
        await failing_change()
    await all_back(pg_store)
    assert await pg_store.get_value("lease") == "inside"
    with pytest.raises(Exception, match="no_such_table"):
        await pg_store.query("SELECT * FROM no_such_table")
    await all_back(pg_store)
    assert (await pg_store.query_one("SELECT 1"))[0] == 1
