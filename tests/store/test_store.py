"""The store on SQLite and on a real PostgreSQL (every test runs on both): migrations, one
transaction per state change, timers, results, ratings and settings."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta

import pytest

from bot.core.database import UniqueViolation
from bot.core.store import LAST_FINISHED_SQL, MIGRATIONS, PLAYED_IN_SQL, ChannelBusy, ResultRow, Store
from tests.store.sessions import NOW, new_session


async def save(store, record, *actions):
    """The state and its actions, as one change would write them."""
    first = record.actions + 1
    record.actions += len(actions)
    async with store.transaction() as tx:
        await tx.update_session(record, NOW)
        for offset, (player, action) in enumerate(actions):
            await tx.append_action(record.id, first + offset, player, action, NOW)


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


async def test_games_in_threads_share_their_channel_and_a_thread_finds_its_game(store):
    first = await new_session(store, channel=1, in_thread=True)
    second = await new_session(store, channel=1, status="challenge", in_thread=True)
    in_channel = await new_session(store, channel=1)  # the channel's own game, beside its threads
    with pytest.raises(ChannelBusy):
        await new_session(store, channel=1, status="challenge")
    assert [r.id for r in await store.threaded_sessions(1)] == [first, second]
    record = await store.get_session(first)
    record.thread_id = 77
    await save(store, record)
    assert (await store.live_session(77)).id == first
    assert (await store.live_session(1)).id == in_channel
    assert await store.sessions_in_threads([77, 78]) == [first]


async def test_state_and_action_are_saved_together(store):
    record = await store.get_session(await new_session(store))
    record.state = {"total": 2}
    await save(store, record, (5, {"type": "add", "amount": 2}))
    record.state = {"total": 3}
    await save(store, record, (6, {"type": "add", "amount": 1}))
    stored = await store.get_session(record.id)
    assert stored.state == {"total": 3}
    assert stored.actions == 2
    assert await store.actions(record.id) == [
        (1, 5, {"type": "add", "amount": 2}),
        (2, 6, {"type": "add", "amount": 1}),
    ]


async def test_a_failed_transaction_changes_nothing(store):
    record = await store.get_session(await new_session(store))
    record.state = {"total": 2}
    with pytest.raises(TypeError):
        await save(store, record, (5, {"type": "add", "amount": 2}), (5, {"not json": object()}))
    stored = await store.get_session(record.id)
    assert stored.state == {"total": 0}
    assert stored.actions == 0
    assert await store.actions(record.id) == []


async def test_an_action_number_is_written_once(store):
    record = await store.get_session(await new_session(store))
    await save(store, record, (5, {"type": "add", "amount": 1}))
    record.actions = 0  # a writer that loaded the session before that action
    with pytest.raises(UniqueViolation):
        await save(store, record, (6, {"type": "add", "amount": 2}))
    assert [a[2] for a in await store.actions(record.id)] == [{"type": "add", "amount": 1}]


async def test_timers_are_returned_in_deadline_order_and_cancelled_by_kind(store):
    session = await new_session(store)
    async with store.transaction() as tx:
        await tx.add_timer(session, "late", NOW + timedelta(minutes=5))
        await tx.add_timer(session, "early", NOW + timedelta(minutes=1), {"seq": 3})
    assert [t.kind for t in await store.pending_timers()] == ["early", "late"]
    assert (await store.pending_timers())[0].payload == {"seq": 3}
    async with store.transaction() as tx:
        await tx.delete_timers(session, ["early"])
    assert [t.kind for t in await store.pending_timers()] == ["late"]


async def test_outbox_entries_are_kept_in_order_until_done(store):
    session = await new_session(store)
    async with store.transaction() as tx:
        await tx.add_outbox(session, "text", {"content": "one"}, NOW)
        await tx.add_outbox(session, "text", {"content": "two"}, NOW)
    assert [e.payload["content"] for e in await store.outbox(session)] == ["one", "two"]
    first = (await store.outbox(session))[0].id
    async with store.transaction() as tx:
        await tx.outbox_retry_later(first, NOW + timedelta(seconds=2))
    assert (await store.outbox(session))[0].attempts == 1
    async with store.transaction() as tx:
        await tx.outbox_done([first])
    assert [e.payload["content"] for e in await store.outbox()] == ["two"]


def result(session, winners, scores, moves):
    return ResultRow(session, "tiny", 9, [5, 6], scores, winners, moves, 30.0, NOW)


async def test_results_feed_stats_and_a_session_has_one_result(store):
    session = await new_session(store)
    async with store.transaction() as tx:
        assert await tx.record_result(result(session, [5], [1, 0], 4)) is not None
        assert await tx.record_result(result(session, [6], [0, 1], 4)) is None, "exactly once"
        assert await tx.record_result(result(None, [5, 6], [0.5, 0.5], 9)) is not None
    assert await store.user_stats(9, 5) == {"tiny": (2, 1)}, "a draw is nobody's win"
    assert await store.user_stats(9, 6) == {"tiny": (2, 0)}
    assert await store.user_stats(10, 5) == {}


async def test_the_live_session_lookup_uses_the_partial_index(store):
    for channel in range(1, 300):  # enough rows that PostgreSQL's planner prefers the index
        await new_session(store, channel=channel, status="active" if channel == 1 else "finished")
    explain = "EXPLAIN QUERY PLAN" if store.dialect == "sqlite" else "EXPLAIN"
    # A game of a thread by the thread index, the one game of a channel without threads by the unique one.
    rows = await store.database.rows(f"{explain} SELECT * FROM sessions WHERE {PLAYED_IN_SQL}", (1, 1))
    plan = " ".join(str(row[-1]) for row in rows)
    assert "one_live_session_per_channel" in plan
    assert "sessions_by_thread" in plan


async def test_a_channel_s_last_finished_game_is_read_by_its_index(store):
    for channel in range(1, 300):
        await new_session(store, channel=channel, status="finished" if channel % 3 else "active")
    explain = "EXPLAIN QUERY PLAN" if store.dialect == "sqlite" else "EXPLAIN"
    rows = await store.database.rows(f"{explain} {LAST_FINISHED_SQL}", (2, "tiny"))
    assert "finished_by_channel" in " ".join(str(row[-1]) for row in rows)
    assert await store.last_finished_session(2, "tiny") is not None
    assert await store.last_finished_session(3, "tiny") is None, "a live game is not a finished one"


async def test_concurrent_changes_commit_whole_and_a_failing_one_changes_nothing(store):
    """One-trip transactions run without the lock, beside one of several trips (a timer's id
    comes back mid-way) and one that fails: each commits whole or not at all."""
    records = [await store.get_session(await new_session(store, channel=n)) for n in range(1, 21)]

    async def with_timer(record):
        async with store.transaction() as tx:
            await tx.update_session(record, NOW)
            await tx.add_timer(record.id, "clock", NOW + timedelta(minutes=1))
            await tx.append_action(record.id, 1, 5, {"type": "add", "amount": 1}, NOW)

    async def failing(record):
        async with store.transaction() as tx:
            await tx.update_session(record, NOW)
            await tx.append_action(record.id, 1, 5, {"type": "add", "amount": 1}, NOW)
            await tx.append_action(record.id, 1, 5, {"type": "add", "amount": 2}, NOW)  # the same number twice

    for record in records:
        record.state = {"total": 1}
    records[0].actions = records[1].actions = 1  # save() counts the others' actions itself
    changes = [save(store, r, (5, {"type": "add", "amount": 1})) for r in records[2:]]
    outcomes = await asyncio.gather(with_timer(records[0]), failing(records[1]), *changes, return_exceptions=True)

    assert isinstance(outcomes[1], UniqueViolation)
    assert [o for i, o in enumerate(outcomes) if i != 1] == [None] * 19
    assert (await store.get_session(records[1].id)).state == {"total": 0}, "the failed change left nothing"
    assert await store.actions(records[1].id) == []
    for record in [records[0], *records[2:]]:
        assert (await store.get_session(record.id)).state == {"total": 1}
        assert len(await store.actions(record.id)) == 1
    assert [t.kind for t in await store.timers(records[0].id)] == ["clock"]
    assert await store.integrity_check() == "ok"


async def test_text_with_quotes_and_sql_in_it_is_stored_as_it_is(store):
    """A change on PostgreSQL goes as one script with its values written as literals: names and
    states holding quotes, backslashes and SQL come back exactly, and nothing else runs."""
    record = await store.get_session(await new_session(store))
    nasty = "Ada's \\ \"game\"'); DROP TABLE sessions; -- ? $1 ''"
    record.state = {"note": nasty}
    record.meta = {"names": [nasty, "Bo"]}
    await save(store, record, (5, {"type": "say", "text": nasty}))
    stored = await store.get_session(record.id)
    assert stored.state == {"note": nasty}
    assert stored.meta["names"][0] == nasty
    assert (await store.actions(record.id))[-1][2] == {"type": "say", "text": nasty}


def test_postgres_literals():
    from bot.core.postgres_database import inline, literal

    assert literal(None) == "NULL"
    assert literal(True) == "TRUE"
    assert literal(12) == "12"
    assert literal(1.5) == "1.5"
    assert literal("it's") == "'it''s'"
    assert inline("UPDATE t SET a = ?, b = ? WHERE id = ?", ("x'y", None, 3)) == (
        "UPDATE t SET a = 'x''y', b = NULL WHERE id = 3"
    )
    for wrong in (float("nan"), b"bytes", "nul\x00"):
        with pytest.raises((TypeError, ValueError)):
            literal(wrong)
    with pytest.raises(ValueError, match="more values"):
        inline("SELECT ?", (1, 2))


async def test_each_logged_action_keeps_its_seat(store):
    record = await store.get_session(await new_session(store))
    record.actions = 2
    async with store.transaction() as tx:
        await tx.update_session(record, NOW)
        await tx.append_action(record.id, 1, 5, {"type": "add", "amount": 1}, NOW, seat=0)
        await tx.append_action(record.id, 2, None, {"type": "tick"}, NOW, seat=1)  # a timer's, for seat 1
    moves = await store.logged_moves(record.id)
    assert [(m.seat, m.player_id, m.action["type"]) for m in moves] == [(0, 5, "add"), (1, None, "tick")]


async def test_history_lists_a_member_s_finished_games_newest_first(store):
    finished = []
    for minute in range(12):
        session_id = await new_session(store, channel=100 + minute, status="finished")
        finished.append(session_id)
        row = ResultRow(session_id, "tiny", 9, [5, 6], [1, 0], [5], 3, 60.0, NOW + timedelta(minutes=minute))
        async with store.transaction() as tx:
            await tx.record_result(row)
    past = await store.history(9, 6, None, 10)
    assert [game.session_id for game in past] == finished[::-1][:10]
    assert (past[0].winners, past[0].channel_id, past[0].moves) == ([5], 111, 3)
    assert await store.history(9, 6, "other game", 10) == []
    assert await store.history(8, 6, None, 10) == [], "another server's games are not listed"
    assert await store.last_finished_session(111, "tiny") == finished[-1]


async def test_history_reads_the_newest_games_from_an_index_not_by_sorting_them_all(store, monkeypatch):
    for minute in range(300):  # enough rows that PostgreSQL's planner prefers the index
        row = ResultRow(None, "tiny", 9, [5 + minute % 7, 6], [1, 0], [6], 3, 60.0, NOW + timedelta(minutes=minute))
        async with store.transaction() as tx:
            await tx.record_result(row)
    asked = []
    query = store.query

    async def noting(sql, params=()):
        asked.append((sql, list(params)))
        return await query(sql, params)

    monkeypatch.setattr(store, "query", noting)
    if store.dialect == "postgresql":  # the statistics autovacuum would have made by now
        await store.database.rows("ANALYZE result_players")
    for game, index in ((None, "result_players_history"), ("tiny", "result_players_history_by_game")):
        newest = await store.history(9, 6, game, 10)
        assert [g.finished_at for g in newest] == [NOW + timedelta(minutes=m) for m in range(299, 289, -1)]
        sql, params = asked[-1]
        explain = "EXPLAIN QUERY PLAN" if store.dialect == "sqlite" else "EXPLAIN"
        plan = " ".join(str(row[-1]) for row in await store.database.rows(f"{explain} {sql}", params))
        assert index in plan, plan
        assert "TEMP B-TREE" not in plan, "no sort of all the member's games (SQLite)"
        assert "Sort" not in plan.split("Limit")[-1] or store.dialect == "sqlite", "nor PostgreSQL's"
