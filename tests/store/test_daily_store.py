"""Octagion Daily's storage (migration 6), on SQLite and on PostgreSQL: one play per member and
day, answers and a finish that counts once, a day's board, a member's history, the longest
streaks, and the server's daily channel beside its other settings."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bot.core.store import DailyPlay
from tests.store.test_store import new_session

GUILD, OTHER_GUILD = 9, 10
DAY = date(2026, 1, 1)
START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def a_play(user: int, day: date = DAY, session_id: int | None = None, guild: int = GUILD) -> DailyPlay:
    return DailyPlay(guild, day, user, session_id, f"member {user}", START, START + timedelta(seconds=120))


async def start(store, play: DailyPlay) -> bool:
    async with store.transaction() as tx:
        return await tx.start_daily_play(play)


async def finish(store, play: DailyPlay, score: int, seconds: float, streak=(1, 1)) -> None:
    play.finished_at = play.started_at + timedelta(seconds=seconds)
    play.score, play.penalties, play.bonus = score, max(0, 8 - score), max(0, score - 8)
    play.streak, play.won_streak = streak
    async with store.transaction() as tx:
        await tx.finish_daily_play(play)


async def test_one_play_per_member_and_day(store):
    session_id = await new_session(store, status="daily")
    assert await start(store, a_play(5, session_id=session_id))
    assert not await start(store, a_play(5, session_id=session_id)), "the second one is refused"
    assert await start(store, a_play(5, day=DAY + timedelta(days=1)))
    assert await start(store, a_play(5, guild=OTHER_GUILD)), "each server keeps its own"
    stored = await store.daily_play(GUILD, DAY, 5)
    assert stored == a_play(5, session_id=session_id)
    assert await store.daily_play(GUILD, DAY, 6) is None


async def test_the_last_answer_is_kept_and_a_finish_counts_once(store):
    play = a_play(5)
    await start(store, play)
    for cells in (["S5", None], ["T7", "R3", None, None, None, None, None, None]):
        play.cells = cells
        async with store.transaction() as tx:
            await tx.save_daily_answer(play)
    stored = await store.daily_play(GUILD, DAY, 5)
    assert stored.cells == ["T7", "R3", None, None, None, None, None, None]
    assert stored.answers == 2
    assert not stored.finished
    assert await store.daily_unfinished(GUILD, DAY) == 1

    await finish(store, play, 13, 9.5, streak=(3, 2))
    await finish(store, play, 0, 120, streak=(1, 0))  # a late timer: the first finish stands
    stored = await store.daily_play(GUILD, DAY, 5)
    assert (stored.score, stored.bonus, stored.streak, stored.won_streak) == (13, 5, 3, 2)
    assert stored.finished_at == START + timedelta(seconds=9.5)
    assert await store.daily_unfinished(GUILD, DAY) == 0


async def test_a_days_board_has_its_finished_plays_only(store):
    for user, score in ((5, 7), (6, 13), (7, 10)):
        await start(store, play := a_play(user))
        await finish(store, play, score, 30)
    await start(store, a_play(8))  # still playing
    await start(store, other := a_play(9, guild=OTHER_GUILD))
    await finish(store, other, 13, 5)
    board = await store.daily_board(GUILD, DAY)
    assert [(p.user_id, p.score) for p in board] == [(6, 13), (7, 10), (5, 7)]
    assert await store.daily_players(GUILD, DAY) == 3
    assert await store.daily_players(GUILD, DAY + timedelta(days=1)) == 0


async def test_a_members_history_and_the_longest_streaks(store):
    for offset, (user, score, streak) in enumerate([(5, 13, (1, 1)), (5, 9, (2, 2)), (5, 3, (3, 0)), (6, 8, (1, 1))]):
        await start(store, play := a_play(user, day=DAY + timedelta(days=offset)))
        await finish(store, play, score, 40, streak=streak)
    await start(store, a_play(7))  # unfinished: no streak yet
    assert await store.daily_history(GUILD, 5) == [
        (DAY, 13),
        (DAY + timedelta(days=1), 9),
        (DAY + timedelta(days=2), 3),
    ]
    assert await store.daily_streak_leaders(GUILD, 10) == [(5, 3, 2), (6, 1, 1)]
    assert await store.daily_streak_leaders(GUILD, 1) == [(5, 3, 2)]
    assert await store.daily_streak_leaders(OTHER_GUILD, 10) == []


async def test_the_daily_channel_lives_beside_the_turn_clock(store):
    assert await store.daily_session_id(GUILD) is None
    async with store.transaction() as tx:
        await tx.set_turn_clock_seconds(GUILD, 120)
    channel = await new_session(store, channel=44, status="daily_channel")
    async with store.transaction() as tx:
        await tx.set_daily_session(GUILD, channel)
    assert await store.daily_session_id(GUILD) == channel
    assert await store.turn_clock_seconds(GUILD) == 120
    async with store.transaction() as tx:
        await tx.set_daily_session(GUILD, None)
    assert await store.daily_session_id(GUILD) is None
    assert await store.daily_session_id(OTHER_GUILD) is None
