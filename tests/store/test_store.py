"""The SQLite store: migrations, one transaction per state change, timers and results."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import MIGRATIONS, ChannelBusy, Store

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(str(tmp_path / "store.db"))
    yield store
    await store.close()


async def new_session(store, channel=1, status="active"):
    return await store.create_session(
        game="tiny",
        guild_id=9,
        channel_id=channel,
        host_id=5,
        players=[5, 6],
        status=status,
        state={"total": 0},
        schema_version=1,
        now=NOW,
    )


async def test_fresh_file_reaches_the_newest_schema(store):
    assert await store.schema_version() == len(MIGRATIONS)


async def test_old_file_is_migrated_without_losing_data(tmp_path):
    path = str(tmp_path / "old.db")
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[0] + "\nPRAGMA user_version = 1;")
    old.execute(
        "INSERT INTO sessions (game, guild_id, channel_id, host_id, players, status, state, schema_version,"
        " created_at, updated_at) VALUES ('tiny', 9, 1, 5, '[5, 6]', 'active', '{}', 1, ?, ?)",
        (NOW.isoformat(), NOW.isoformat()),
    )
    old.commit()
    old.close()

    store = await Store.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        record = await store.live_session(1)
        assert record.players == [5, 6]
        assert record.meta == {}
        assert record.message_id is None
    finally:
        await store.close()


async def test_one_live_session_per_channel(store):
    await new_session(store, channel=1)
    with pytest.raises(ChannelBusy):
        await new_session(store, channel=1, status="challenge")
    await new_session(store, channel=2)


async def test_state_and_action_are_saved_together(store):
    record = await store.get_session(await new_session(store))
    record.state = {"total": 2}
    assert await store.save_session(record, NOW, (5, {"type": "add", "amount": 2})) == 1
    record.state = {"total": 3}
    assert await store.save_session(record, NOW, (6, {"type": "add", "amount": 1})) == 2
    assert (await store.get_session(record.id)).state == {"total": 3}
    assert await store.actions(record.id) == [
        (1, 5, {"type": "add", "amount": 2}),
        (2, 6, {"type": "add", "amount": 1}),
    ]


async def test_a_failed_save_changes_nothing(store):
    record = await store.get_session(await new_session(store))
    record.state = {"total": 2}
    with pytest.raises(TypeError):
        await store.save_session(record, NOW, (5, {"not json": object()}))
    assert (await store.get_session(record.id)).state == {"total": 0}
    assert await store.actions(record.id) == []


async def test_timers_are_returned_in_deadline_order_and_cancelled_by_kind(store):
    session = await new_session(store)
    await store.add_timer(session, "late", NOW + timedelta(minutes=5))
    await store.add_timer(session, "early", NOW + timedelta(minutes=1), {"seq": 3})
    assert [t.kind for t in await store.pending_timers()] == ["early", "late"]
    assert (await store.pending_timers())[0].payload == {"seq": 3}
    await store.delete_timers(session, ["early"])
    assert [t.kind for t in await store.pending_timers()] == ["late"]


async def test_results_feed_stats(store):
    session = await new_session(store)
    await store.record_result(
        session_id=session,
        game="tiny",
        guild_id=9,
        players=[5, 6],
        scores=[1, 0],
        winners=[5],
        moves=4,
        duration_seconds=30,
        now=NOW,
    )
    await store.record_result(
        session_id=None,
        game="tiny",
        guild_id=9,
        players=[5, 6],
        scores=[0.5, 0.5],
        winners=[5, 6],
        moves=9,
        duration_seconds=60,
        now=NOW,
    )
    assert await store.user_stats(9, 5) == {"tiny": (2, 2)}
    assert await store.user_stats(9, 6) == {"tiny": (2, 1)}
    assert await store.user_stats(10, 5) == {}
