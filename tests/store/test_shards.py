"""Shards: a process's sweeps (timers to arm, outbox entries to send, games to show again) see
only the guilds its shards own, (guild_id >> 22) % shard_count; everything else is shared."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.settings import Settings
from bot.core.store import ShardScope, Store

NOW = datetime(2026, 1, 1, tzinfo=UTC)
SHARDS = 4


def guild_of_shard(shard: int, n: int = 1) -> int:
    return ((n * SHARDS + shard) << 22) | 7


async def open_game(store, guild: int, channel: int) -> int:
    async with store.transaction() as tx:
        session_id = await tx.insert_session(
            game="tiny",
            guild_id=guild,
            channel_id=channel,
            host_id=5,
            players=[5, 6],
            status="active",
            state={},
            schema_version=1,
            now=NOW,
            meta={},
        )
        await tx.add_timer(session_id, "clock", NOW + timedelta(minutes=channel))
        await tx.add_outbox(session_id, "post", {}, NOW)
    record = await store.get_session(session_id)
    record.message_id = 1000 + channel
    async with store.transaction() as tx:
        await tx.update_session(record, NOW)
    return session_id


async def test_each_process_sweeps_only_its_own_shards_guilds(database_url):
    everything = await Store.open(database_url)
    games = {shard: await open_game(everything, guild_of_shard(shard), channel=shard + 1) for shard in range(SHARDS)}
    lower, upper = ShardScope(SHARDS, (0, 1)), ShardScope(SHARDS, (2, 3))
    first, second = await Store.open(database_url, scope=lower), await Store.open(database_url, scope=upper)
    try:
        for store, shards in ((first, (0, 1)), (second, (2, 3))):
            mine = [games[shard] for shard in shards]
            assert [timer.session_id for timer in await store.pending_timers()] == mine
            assert [entry.session_id for entry in await store.outbox()] == mine
            assert await store.shown_live_sessions() == mine
            # A session is still readable by id from any process (stats, results: shared).
            assert (await store.get_session(games[3 - shards[0]])).id == games[3 - shards[0]]
        assert len(await everything.pending_timers()) == SHARDS
    finally:
        for store in (everything, first, second):
            await store.close()


def test_the_scope_follows_discords_shard_rule():
    scope = ShardScope(SHARDS, (1, 3))
    assert [scope.owns(guild_of_shard(shard)) for shard in range(SHARDS)] == [False, True, False, True]
    assert ShardScope(SHARDS, (0,)).owns(None)  # direct messages belong to shard 0


def test_shard_settings_from_the_environment(monkeypatch):
    monkeypatch.setenv("SHARD_COUNT", "8")
    monkeypatch.setenv("SHARD_IDS", "0-2, 6")
    monkeypatch.setenv("DATABASE_URL", "postgresql://octagon:hunter2@db.example/octagon")
    settings = Settings.from_environment()
    assert settings.shards == ShardScope(8, (0, 1, 2, 6))
    assert settings.database == "postgresql://octagon:hunter2@db.example/octagon"
    assert "hunter2" not in repr(settings)
    monkeypatch.delenv("SHARD_IDS")
    assert Settings.from_environment().shards == ShardScope(8, tuple(range(8)))


def test_nothing_set_means_sqlite_and_no_shards(monkeypatch):
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings.from_environment()
    assert (settings.database, settings.shards) == ("octagon.db", None)
