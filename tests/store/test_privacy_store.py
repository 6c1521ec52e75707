"""Privacy's SQL (bot/features/privacy_store.py), on SQLite and on PostgreSQL: a member forgotten
everywhere they appear (their id and name replaced, seats and actions kept; preferences and daily
plays deleted, others' untouched), and a server's data deleted whole, another server's kept."""

from __future__ import annotations

from datetime import timedelta

from bot.core.records_store import Rating, ResultRow
from bot.features import privacy_store
from bot.features.privacy_store import FORMER_MEMBER
from tests.store.sessions import NOW, new_session

ADA, BO = 5, 6  # the players of tests.store.sessions' game, in server 9
GUILD, OTHER_GUILD = 9, 10
FORMER = -77


async def finished_game(store) -> int:
    meta = {"names": ["Ada", "Bo"], "seats": [ADA, BO], "final_header": "Stopped by Ada", "stopped_by": ADA}
    session_id = await new_session(store, status="finished", meta=meta)
    async with store.transaction() as tx:
        for seq, (player, seat) in enumerate([(ADA, None), (BO, None), (ADA, None)], start=1):
            await tx.append_action(session_id, seq, player, {"type": "move", "n": seq}, NOW, seat)
        await tx.record_result(ResultRow(session_id, "tiny", GUILD, [ADA, BO], [2, 1], [ADA], 3, 60.0, NOW))
        await tx.save_ratings(GUILD, "tiny", [Rating(ADA, 27.0, 7.0, 1, 1), Rating(BO, 23.0, 7.0, 1, 0)])
        await tx.set_turn_notices(GUILD, ADA, False)
        await tx.set_turn_notices(GUILD, BO, False)
        for user in (ADA, BO):
            tx.write(
                "INSERT INTO daily_plays (guild_id, day, user_id, name, started_at, deadline, streak)"
                " VALUES (?, '2026-01-01', ?, ?, ?, ?, 3)",
                (GUILD, user, f"member {user}", NOW.isoformat(), NOW.isoformat()),
            )
    return session_id


async def test_a_member_is_forgotten_everywhere_and_their_seats_and_actions_stay(store):
    session_id = await finished_game(store)
    running = await new_session(store, channel=2)
    found = await privacy_store.member_sessions(store, ADA, live=False)
    assert [session.id for session in found] == [session_id], "the running game is not among the finished ones"
    assert [s.id for s in await privacy_store.member_sessions(store, ADA, live=True)] == [running]

    async with store.transaction() as tx:
        await privacy_store.forget_in_log(tx, session_id, ADA, FORMER, [0, 1, 0])  # seats kept, then the id
        await privacy_store.forget_in_stored_session(tx, found[0], ADA, FORMER)
        await privacy_store.forget_member_records(tx, ADA, FORMER)

    record = await store.get_session(session_id)
    assert record.players == [FORMER, BO]
    assert record.host_id == FORMER
    assert record.meta["names"] == [FORMER_MEMBER, "Bo"]
    assert record.meta["seats"] == [FORMER, BO]
    assert record.meta["final_header"] == f"Stopped by {FORMER_MEMBER}"
    assert record.meta["stopped_by"] == FORMER
    logged = await store.logged_moves(session_id)
    assert [(m.seat, m.player_id, m.action["n"]) for m in logged] == [(0, FORMER, 1), (1, BO, 2), (0, FORMER, 3)]
    [result] = await store.results(session_id)
    assert (list(result.players), list(result.winners)) == ([FORMER, BO], [FORMER])
    assert await store.user_stats(GUILD, ADA) == {}
    assert await store.user_stats(GUILD, FORMER) == {"tiny": (1, 1)}
    assert [r.user_id for r in await store.leaderboard(GUILD, "tiny", 10)] == [FORMER, BO]
    assert await store.turn_notices(GUILD, [ADA, BO]) == {ADA: True, BO: False}, "Ada's preference is gone"
    daily = await store.query("SELECT user_id FROM daily_plays ORDER BY user_id")
    assert [row["user_id"] for row in daily] == [BO]
    assert (await store.get_session(running)).players == [ADA, BO], "another session is left to its own change"


async def test_a_server_s_data_is_deleted_whole_and_only_after_it_is_due(store):
    session_id = await finished_game(store)
    async with store.transaction() as tx:
        await tx.set_turn_notices(OTHER_GUILD, ADA, False)
        privacy_store.plan_server_deletion(tx, GUILD, NOW + timedelta(days=30))
        privacy_store.plan_server_deletion(tx, OTHER_GUILD, NOW + timedelta(days=30))
        privacy_store.cancel_server_deletion(tx, OTHER_GUILD)  # the bot was added back there
    assert await privacy_store.planned_server_deletions(store) == {GUILD: NOW + timedelta(days=30)}

    async with store.transaction() as tx:
        privacy_store.delete_server(tx, GUILD)
    assert await store.get_session(session_id) is None
    for table in ("actions", "results", "result_players", "ratings", "daily_plays"):
        assert await store.query(f"SELECT * FROM {table}") == [], table
    assert await store.turn_notices(OTHER_GUILD, [ADA]) == {ADA: False}, "another server keeps its data"
    assert await store.turn_notices(GUILD, [ADA]) == {ADA: True}
    assert await privacy_store.planned_server_deletions(store) == {}
