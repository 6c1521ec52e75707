"""Octagion Daily's storage (its own migration 1), on SQLite and on PostgreSQL: one play per
member and day, answers and a finish that counts once, a day's board, a member's history, the
longest streaks, and the server's daily channel beside its other settings."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.core import migrations
from bot.core.database import TABLES, open_database
from bot.core.store import Store
from bot.games.octagion.daily import migrations as daily_migrations
from bot.games.octagion.daily.store import (
    DailyPlay,
    DailyStore,
    finish_play,
    save_answer,
    set_channel_session,
    start_play,
)
from bot.ui.context import StoreReads
from tests.store.test_store import new_session

GUILD, OTHER_GUILD = 9, 10
DAY = date(2026, 1, 1)
START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def tables(store) -> DailyStore:
    """The daily's reads, through the context's reads as in the bot."""
    return DailyStore(StoreReads(store))


def a_play(user: int, day: date = DAY, session_id: int | None = None, guild: int = GUILD) -> DailyPlay:
    return DailyPlay(guild, day, user, session_id, f"member {user}", START, START + timedelta(seconds=120))


async def start(store, play: DailyPlay) -> bool:
    async with store.transaction() as tx:
        return await start_play(tx, play)


async def finish(store, play: DailyPlay, score: int, seconds: float, streak=(1, 1)) -> None:
    play.finished_at = play.started_at + timedelta(seconds=seconds)
    play.score, play.penalties, play.bonus = score, max(0, 8 - score), max(0, score - 8)
    play.streak, play.won_streak = streak
    async with store.transaction() as tx:
        await finish_play(tx, play)


async def test_one_play_per_member_and_day(store, tables):
    session_id = await new_session(store, status="daily")
    assert await start(store, a_play(5, session_id=session_id))
    assert not await start(store, a_play(5, session_id=session_id)), "the second one is refused"
    assert await start(store, a_play(5, day=DAY + timedelta(days=1)))
    assert await start(store, a_play(5, guild=OTHER_GUILD)), "each server keeps its own"
    stored = await tables.play(GUILD, DAY, 5)
    assert stored == a_play(5, session_id=session_id)
    assert await tables.play(GUILD, DAY, 6) is None


async def test_the_last_answer_is_kept_and_a_finish_counts_once(store, tables):
    play = a_play(5)
    await start(store, play)
    for cells in (["S5", None], ["T7", "R3", None, None, None, None, None, None]):
        play.cells = cells
        async with store.transaction() as tx:
            await save_answer(tx, play)
    stored = await tables.play(GUILD, DAY, 5)
    assert stored.cells == ["T7", "R3", None, None, None, None, None, None]
    assert stored.answers == 2
    assert not stored.finished
    assert await tables.unfinished(GUILD, DAY) == 1

    await finish(store, play, 13, 9.5, streak=(3, 2))
    await finish(store, play, 0, 120, streak=(1, 0))  # a late timer: the first finish stands
    stored = await tables.play(GUILD, DAY, 5)
    assert (stored.score, stored.bonus, stored.streak, stored.won_streak) == (13, 5, 3, 2)
    assert stored.finished_at == START + timedelta(seconds=9.5)
    assert await tables.unfinished(GUILD, DAY) == 0


async def test_a_days_board_has_its_finished_plays_only(store, tables):
    for user, score in ((5, 7), (6, 13), (7, 10)):
        await start(store, play := a_play(user))
        await finish(store, play, score, 30)
    await start(store, a_play(8))  # still playing
    await start(store, other := a_play(9, guild=OTHER_GUILD))
    await finish(store, other, 13, 5)
    board = await tables.board(GUILD, DAY)
    assert [(p.user_id, p.score) for p in board] == [(6, 13), (7, 10), (5, 7)]
    assert await tables.players(GUILD, DAY) == 3
    assert await tables.players(GUILD, DAY + timedelta(days=1)) == 0


async def test_a_members_history_and_the_longest_streaks(store, tables):
    for offset, (user, score, streak) in enumerate([(5, 13, (1, 1)), (5, 9, (2, 2)), (5, 3, (3, 0)), (6, 8, (1, 1))]):
        await start(store, play := a_play(user, day=DAY + timedelta(days=offset)))
        await finish(store, play, score, 40, streak=streak)
    await start(store, a_play(7))  # unfinished: no streak yet
    assert await tables.history(GUILD, 5) == [
        (DAY, 13),
        (DAY + timedelta(days=1), 9),
        (DAY + timedelta(days=2), 3),
    ]
    assert await tables.streak_leaders(GUILD, 10) == [(5, 3, 2), (6, 1, 1)]
    assert await tables.streak_leaders(GUILD, 1) == [(5, 3, 2)]
    assert await tables.streak_leaders(OTHER_GUILD, 10) == []


async def test_the_daily_channel_lives_beside_the_turn_clock(store, tables):
    assert await tables.channel_session(GUILD) is None
    async with store.transaction() as tx:
        await tx.set_turn_clock_seconds(GUILD, 120)
    channel = await new_session(store, channel=44, status="daily_channel")
    async with store.transaction() as tx:
        await set_channel_session(tx, GUILD, channel)
    assert await tables.channel_session(GUILD) == channel
    assert await store.turn_clock_seconds(GUILD) == 120
    async with store.transaction() as tx:
        await set_channel_session(tx, GUILD, None)
    assert await tables.channel_session(GUILD) is None
    assert await tables.channel_session(OTHER_GUILD) is None


async def feature_version(store, feature: str = "octagion_daily") -> int | None:
    row = await store.query_one("SELECT version FROM feature_versions WHERE feature = ?", (feature,))
    return row[0] if row else None


async def test_a_new_database_gets_the_daily_tables_from_the_dailys_own_migrations(store):
    assert await store.schema_version() == len(migrations.CORE)
    assert "daily_plays" in await store.database.table_names()
    assert await feature_version(store) == len(daily_migrations.MIGRATIONS.migrations)
    await store.migrate()  # again: nothing to do
    assert await feature_version(store) == len(daily_migrations.MIGRATIONS.migrations)


async def run_script(database, script: str) -> None:
    for statement in filter(str.strip, script.split(";")):
        await database.execute(statement)


async def test_a_database_made_when_the_core_held_the_daily_tables_keeps_them(database_url):
    """Before the daily had migrations of its own, the core's migration 6 made its tables: such a
    database opens with the daily's migration 1 counted as applied (not run again) and its rows."""
    database = await open_database(database_url, pool_size=2)
    try:
        await database.migrate(upto=5)
        await run_script(database, daily_migrations.MIGRATIONS.scripts(database.dialect)[0])  # the old core 6
        await database.migrate(upto=len(migrations.CORE))
        assert "feature_versions" not in await database.table_names()
    finally:
        await database.close()
    old = await Store.open(database_url, pool_size=2)
    try:
        async with old.transaction() as tx:
            await start_play(tx, a_play(5))
    finally:
        await old.close()
    store = await Store.open(database_url, pool_size=2)
    try:
        assert await feature_version(store) == 1
        assert await DailyStore(StoreReads(store)).play(GUILD, DAY, 5) == a_play(5)
    finally:
        await store.close()


def test_the_features_migrations_are_found_by_their_files():
    found = migrations.features()
    assert daily_migrations.MIGRATIONS in found
    assert [feature.feature for feature in found] == sorted(feature.feature for feature in found)
    assert set(migrations.feature_tables()) <= set(TABLES), "python -m bot.db copy moves every feature's tables"
