"""``python -m bot.db``: a copy moves every table between SQLite and a real PostgreSQL (either
way) with its ids and the next ids, and refuses a target holding data; ``check`` finds what is
wrong. Also migration 5's indexes: the reads behind /stats and /leaderboard use them."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from bot.core import migrations
from bot.core.database import INTERNAL_TABLES, TABLES, count_rows, open_database
from bot.core.store import Rating, ResultRow, Store
from bot.dev import db_tool as db
from bot.games.octagion.daily import store as daily
from bot.ui.context import StoreReads
from tests.store.sessions import NOW
from tests.store.sessions import new_session as new_tiny_session

DAY = date(2026, 1, 1)
REPOSITORY = Path(__file__).resolve().parents[2]


async def new_session(store: Store, channel: int, status: str = "active") -> int:
    """A session whose state and names say which it is, so a copy can be checked row by row."""
    return await new_tiny_session(store, channel, status, state={"total": channel}, meta={"names": ["Ada", "Bo"]})


async def fill(url: str) -> dict[str, int]:
    """A store with a row in every table, and a deleted session whose id is the largest ever
    handed out. The sessions' ids by role."""
    store = await Store.open(url, pool_size=2)
    try:
        live, finished, deleted = [await new_session(store, channel) for channel in (1, 2, 3)]
        await store.database.execute("DELETE FROM sessions WHERE id = ?", (deleted,))
        record = await store.get_session(live)
        record.actions, record.state = 2, {"total": 7}
        async with store.transaction() as tx:
            await tx.update_session(record, NOW)
            await tx.append_action(live, 1, 5, {"type": "add", "amount": 3}, NOW)
            await tx.append_action(live, 2, 6, {"type": "add", "amount": 4}, NOW)
            await tx.add_timer(live, "clock", NOW + timedelta(minutes=2), {"seq": 2})
            await tx.add_outbox(live, "text", {"content": "hello"}, NOW)
            await tx.record_result(ResultRow(finished, "tiny", 9, [5, 6], [1.5, 0.0], [5], 4, 30.25, NOW))
            await tx.save_ratings(9, "tiny", [Rating(5, 26.5, 7.25, 1, 1), Rating(6, 23.5, 7.25, 1, 0)])
            await tx.set_turn_clock_seconds(9, 120)
            await tx.set_value("command_tree_hash", "abc")
            await daily.start_play(tx, daily.DailyPlay(9, DAY, 5, finished, "Ada", NOW, NOW + timedelta(minutes=2)))
            await daily.set_channel_session(tx, 9, live)
    finally:
        await store.close()
    return {"live": live, "finished": finished, "deleted": deleted}


async def everything(store: Store, ids: dict[str, int]) -> dict[str, object]:
    """What the bot reads of the filled store."""
    return {
        "sessions": [await store.get_session(ids[role]) for role in ("live", "finished", "deleted")],
        "actions": await store.actions(ids["live"]),
        "timers": await store.timers(ids["live"]),
        "outbox": await store.outbox(ids["live"]),
        "results": await store.results(ids["finished"]),
        "stats": await store.user_stats(9, 5),
        "ratings": await store.ratings(9, "tiny"),
        "turn clock": await store.turn_clock_seconds(9),
        "bot state": await store.get_value("command_tree_hash"),
        "daily play": await daily.DailyStore(StoreReads(store)).play(9, DAY, 5),
        "daily session": await daily.DailyStore(StoreReads(store)).channel_session(9),
    }


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:{tmp_path / 'octagon.db'}"


@pytest.fixture(params=["sqlite to postgresql", "postgresql to sqlite"])
def direction(request, sqlite_url, postgres_url) -> tuple[str, str]:
    return (sqlite_url, postgres_url) if request.param.startswith("sqlite") else (postgres_url, sqlite_url)


async def opened(url: str) -> Store:
    return await Store.open(url, pool_size=2)


# ------------------------------------------------------------------------------ copy


async def test_a_copy_moves_every_table_with_its_ids_either_way(direction, capsys):
    source_url, target_url = direction
    ids = await fill(source_url)

    assert await db.copy(source_url, target_url)

    source, target = await opened(source_url), await opened(target_url)
    try:
        assert await count_rows(target.database) == await count_rows(source.database)
        assert await everything(target, ids) == await everything(source, ids)
        copied = await everything(target, ids)
        assert copied["sessions"][0].state == {"total": 7}
        assert copied["daily play"].name == "Ada"
        assert copied["daily session"] == ids["live"]
        assert await new_session(target, channel=4) == ids["deleted"] + 1, "no id handed out twice"
        async with target.transaction() as tx:
            timer = await tx.add_timer(ids["live"], "clock", NOW)
        assert timer.id == (await source.timers(ids["live"]))[0].id + 1
    finally:
        await source.close()
        await target.close()
    report = capsys.readouterr().out
    assert "DIFFERENT" not in report
    assert all(table in report for table in TABLES)


async def test_a_copy_refuses_a_target_that_holds_data_unless_told_to_replace_it(sqlite_url, postgres_url, capsys):
    ids = await fill(sqlite_url)
    target = await opened(postgres_url)
    try:
        await new_session(target, channel=99)

        assert not await db.copy(sqlite_url, postgres_url)
        assert "already holds data" in capsys.readouterr().out
        assert (await count_rows(target.database))["sessions"] == 1, "nothing copied"

        assert await db.copy(sqlite_url, postgres_url, replace=True)
        assert await target.live_session(99) is None, "emptied first"
        assert (await target.get_session(ids["live"])).state == {"total": 7}
    finally:
        await target.close()


async def test_the_bots_own_bookkeeping_in_the_target_does_not_block_a_copy(sqlite_url, postgres_url):
    """A bot started once against the new database wrote its command tree hash there."""
    await fill(sqlite_url)
    target = await opened(postgres_url)
    try:
        async with target.transaction() as tx:
            await tx.set_value("command_tree_hash", "written by a bot started on the target")
        assert await db.copy(sqlite_url, postgres_url)
        assert await target.get_value("command_tree_hash") == "abc", "the source's"
    finally:
        await target.close()


async def test_a_missing_sqlite_source_is_not_taken_for_an_empty_store(tmp_path, postgres_url, capsys):
    missing = str(tmp_path / "misspelt.db")
    assert not await db.copy(missing, postgres_url)
    assert not await asyncio.to_thread(Path(missing).exists)
    assert "no such SQLite file" in capsys.readouterr().out


async def test_the_copy_knows_every_table_of_the_newest_schema(database_url):
    """A migration that adds a table must add it to TABLES, or copies would leave it behind."""
    database = await open_database(database_url, pool_size=1)
    try:
        await database.migrate()
        assert await database.table_names() - set(INTERNAL_TABLES) == set(TABLES)
    finally:
        await database.close()


async def test_a_copy_refuses_a_source_with_a_table_it_does_not_know(sqlite_url, postgres_url, capsys):
    await fill(sqlite_url)
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:")) as plain:
        plain.execute("CREATE TABLE added_later (id INTEGER PRIMARY KEY)")
    assert not await db.copy(sqlite_url, postgres_url)
    assert "tables this copy does not know: added_later" in capsys.readouterr().out


# ------------------------------------------------------------------------------ check


async def test_check_passes_a_good_store(database_url, capsys):
    await fill(database_url)
    assert await db.check(database_url)
    report = capsys.readouterr().out
    assert f"schema version: {len(migrations.CORE)} of {len(migrations.CORE)}" in report
    assert "no problems found" in report


async def test_check_finds_rows_whose_session_is_gone(database_url, capsys):
    ids = await fill(database_url)
    # Only a fault (or a hand) bypasses the foreign keys: SQLite's are off in a plain connection,
    # PostgreSQL's triggers are off in replica mode.
    if database_url.startswith("postgresql"):
        database = await open_database(database_url, pool_size=1)
        await database.execute(
            f"SET session_replication_role = replica; DELETE FROM sessions WHERE id = {ids['live']};"
            " RESET session_replication_role"
        )
        await database.close()
    else:
        with sqlite3.connect(database_url.removeprefix("sqlite:")) as plain:
            plain.execute("DELETE FROM sessions WHERE id = ?", (ids["live"],))
    assert not await db.check(database_url)
    report = capsys.readouterr().out
    for orphans in ("2 actions rows", "1 timers rows", "1 outbox rows"):
        assert f"PROBLEM: {orphans} whose session is gone" in report


async def test_check_finds_an_action_counter_behind_the_log(database_url, capsys):
    await fill(database_url)
    store = await opened(database_url)
    try:
        lagging = await new_session(store, channel=5)
        async with store.transaction() as tx:
            await tx.append_action(lagging, 1, 5, {"type": "add"}, NOW)  # the counter stays at 0
    finally:
        await store.close()
    assert not await db.check(database_url)
    assert "PROBLEM: 1 sessions whose action counter is behind their log" in capsys.readouterr().out


async def test_check_finds_an_old_schema_version(database_url, capsys):
    database = await open_database(database_url, pool_size=1)
    await database.migrate(upto=len(migrations.CORE) - 1)
    await database.close()
    assert not await db.check(database_url)
    assert f"schema version {len(migrations.CORE) - 1} is behind" in capsys.readouterr().out


async def test_check_finds_a_postgresql_sequence_behind_the_ids(postgres_url, capsys):
    """Rows inserted with their ids and no setval: the next session would take a used id."""
    store = await opened(postgres_url)
    try:
        await store.database.execute(
            "INSERT INTO sessions (id, game, channel_id, host_id, players, status, state, schema_version,"
            " created_at, updated_at) VALUES (10, 'tiny', 1, 5, '[]', 'finished', '{}', 1, '', '')"
        )
    finally:
        await store.close()
    assert not await db.check(postgres_url)
    assert "PROBLEM: the id sequence of sessions is behind its largest id" in capsys.readouterr().out


def test_the_command_line_copies_checks_and_says_so_by_its_exit_status(sqlite_url, postgres_url):
    asyncio.run(fill(sqlite_url))

    def run(*arguments: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "bot.db", *arguments]
        return subprocess.run(command, cwd=REPOSITORY, capture_output=True, text=True, timeout=120, check=False)

    copied = run("copy", "--from", sqlite_url, "--to", postgres_url)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    assert "result_players" in copied.stdout
    assert run("check", "--database", postgres_url).returncode == 0
    again = run("copy", "--from", sqlite_url, "--to", postgres_url)
    assert again.returncode == 1
    assert "already holds data" in again.stdout
    missing = run("check", "--database", sqlite_url + ".missing")
    assert missing.returncode == 1


# ------------------------------------------------------------------------------ migration 5


async def test_the_leaderboard_is_the_best_ratings_by_mu_minus_three_sigma(store):
    ratings = [Rating(user, 20.0 + user % 7, 1.0 + user % 3, 1, 0) for user in range(1, 40)]
    async with store.transaction() as tx:
        await tx.save_ratings(9, "tiny", ratings)
        await tx.save_ratings(10, "tiny", [Rating(99, 100.0, 0.1, 1, 1)])  # another server
    expected = sorted(ratings, key=lambda r: (-(r.mu - 3 * r.sigma), r.user_id))[:10]
    assert await store.leaderboard(9, "tiny", 10) == expected


async def test_stats_and_leaderboard_read_one_index_range_each(tmp_path):
    """/stats no longer joins results: SQLite, which keeps no statistics, read every game of the
    player's server through results_by_game to do so."""
    store = await opened(str(tmp_path / "plans.db"))
    try:
        stats_plan, board_plan = await plans_of(store, store.user_stats(9, 5), store.leaderboard(9, "tiny", 10))
    finally:
        await store.close()
    assert stats_plan == [
        "SEARCH result_players USING COVERING INDEX result_players_for_stats (user_id=? AND guild_id=?)"
    ]
    assert "ratings_by_rank" in " ".join(board_plan)


async def test_migration_5_gives_the_results_of_an_older_store_to_stats(database_url):
    database = await open_database(database_url, pool_size=1)
    await database.migrate(upto=4)
    for result_id, guild, game, winner in (
        (1, 9, "octa", 5),
        (2, 9, "octa", 6),
        (3, 9, "octego", 5),
        (4, 8, "octa", 5),
    ):
        await database.execute(
            "INSERT INTO results (id, game, guild_id, players, scores, winners, moves, duration_seconds, finished_at)"
            " VALUES (?, ?, ?, '[5, 6]', '[0, 0]', '[]', 1, 1.0, '')",
            (result_id, game, guild),
        )
        for user in (5, 6):
            await database.execute(
                "INSERT INTO result_players (result_id, user_id, won) VALUES (?, ?, ?)",
                (result_id, user, int(user == winner)),
            )
    store = Store(database)
    try:
        await store.migrate()
        assert await store.user_stats(9, 5) == {"octa": (2, 1), "octego": (1, 1)}
        assert await store.user_stats(8, 6) == {"octa": (1, 0)}
    finally:
        await store.close()


async def plans_of(store: Store, *reads) -> list[list[str]]:
    """SQLite's plan for the query each read runs (the store's own SQL, caught on its way)."""
    caught = []
    original = store.database.rows

    async def catching(sql, params=()):
        caught.append((sql, params))
        return await original(sql, params)

    store.database.rows = catching
    try:
        for read in reads:
            await read
    finally:
        store.database.rows = original
    return [[str(row[-1]) for row in await original(f"EXPLAIN QUERY PLAN {sql}", params)] for sql, params in caught]
