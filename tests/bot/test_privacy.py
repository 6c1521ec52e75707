"""Privacy (issue #30): `/privacy info` says what is kept and for how long; `/privacy delete`,
confirmed privately, resigns the member's running games and makes them "a former member" in every
finished game, which still replays to the same end; their preferences go. A server that removes
the bot has its data deleted after the grace period, unless the bot is added back."""

from __future__ import annotations

import discord

from bot.dev.world import private_messages, private_texts
from bot.features.privacy_store import FORMER_MEMBER
from engines.record import read_record, replay_record
from tests.bot.test_replays import attachment_bytes, finish_by_resigning, frames_of

DAY = 24 * 60 * 60


async def rows(world, sql: str, *params) -> list:
    return await world.platform.store.query(sql, params)


async def ask_to_delete(world, member):
    asked = await member.slash(world.channel, "privacy delete")
    question = private_messages(asked)[-1]
    assert "This cannot be undone." in question.content
    return question


async def test_privacy_info_says_what_is_kept_and_for_how_long(world):
    answer = await world.ada.slash(world.channel, "privacy info")
    [text] = private_texts(answer)
    assert "## What I keep about you" in text
    assert "30 days later" in text
    assert "`/privacy delete`" in text


async def test_delete_resigns_running_games_and_leaves_every_finished_game_replayable(world, settings, games):
    finished = [await finish_by_resigning(world, game, 6) for game in ("octego", "octa")]
    async with world.platform.store.transaction() as tx:  # a game logged before seats were kept
        tx.write("UPDATE actions SET seat = NULL WHERE session_id = ?", (finished[0].id,))
    elsewhere = world.guild.create_text_channel("more")
    await world.ada.slash(elsewhere, "octiles challenge", opponent=world.cy)
    await world.cy.click(elsewhere.last_message, label="Accept")
    running = await world.platform.sessions.live_in_channel(elsewhere.id)
    await world.ada.slash(world.channel, "notify", pings="off")
    assert await rows(world, "SELECT * FROM member_settings WHERE user_id = ?", world.ada.id)

    question = await ask_to_delete(world, world.ada)
    await world.restart(settings, games)  # the confirmation carries what it needs
    clicked = await world.ada.click(question, label="Delete my data")
    assert private_texts(clicked) == [
        '🗑️ Done: you are "a former member" in 3 games, and your preferences and streaks are deleted.'
        " You resigned 1 game in progress first."
    ]
    resigned = await world.platform.sessions.load(running.id)
    assert resigned.status == "finished"
    assert any(event.kind == "resign" for event in resigned.state.events), "Ada resigned it first"

    for session in [*finished, resigned]:
        game = session.record.game
        result = await world.di.slash(world.channel, "record", game_id=session.id)
        answer = next(m for m in private_messages(result) if m.attachments)
        text = attachment_bytes(world, answer).decode()
        assert FORMER_MEMBER in text
        assert "Ada" not in text
        engine = world.platform.games[game].engine
        assert engine.dump(replay_record(engine, read_record(engine, text))) == engine.dump(session.state)
    await world.bo.slash(world.channel, "replay", game_id=finished[0].id)
    replay = world.channel.last_message
    assert replay.content.startswith(f"🎞️ Replay of Octego #{finished[0].id}: **{FORMER_MEMBER}** vs **Bo**")
    assert len(frames_of(attachment_bytes(world, replay))) > 1

    history = private_texts(await world.bo.slash(world.channel, "history"))[-1]
    assert f"vs {FORMER_MEMBER}" in history
    assert "Ada" not in history
    board = private_texts(await world.bo.slash(world.channel, "leaderboard", game="octego"))[-1]
    assert f"{FORMER_MEMBER}: " in board
    for table in ("member_settings", "result_players", "ratings", "daily_plays"):
        assert not await rows(world, f"SELECT * FROM {table} WHERE user_id = ?", world.ada.id), table
    assert not await rows(world, "SELECT * FROM actions WHERE player_id = ?", world.ada.id)
    assert not await rows(world, "SELECT * FROM sessions WHERE host_id = ?", world.ada.id)
    assert not await world.platform.store.user_stats(world.guild.id, world.ada.id)
    assert await world.platform.notices.wanted(world.guild.id, world.ada.id), "the default again"


async def test_the_confirmation_can_be_declined_and_keeps_everything(world):
    session = await finish_by_resigning(world, "octego", 4)
    question = await ask_to_delete(world, world.ada)
    await world.ada.click(question, label="Keep it")
    assert "Ada" in (await world.platform.sessions.load(session.id)).names
    assert await rows(world, "SELECT * FROM result_players WHERE user_id = ?", world.ada.id)


async def test_a_server_that_removes_the_bot_has_its_data_deleted_after_the_grace_period(world):
    await finish_by_resigning(world, "octego", 4)
    await world.bo.slash(world.channel, "notify", pings="off")
    guild = world.guild.id
    async with world.platform.store.transaction() as tx:  # another server's settings stay
        await tx.set_turn_notices(guild + 1, world.bo.id, False)

    world.env.backend.remove_guild(guild)
    await world.env.advance_time(29 * DAY)
    assert await rows(world, "SELECT * FROM sessions WHERE guild_id = ?", guild), "kept during the grace period"
    await world.env.advance_time(2 * DAY)
    for table in ("sessions", "results", "result_players", "ratings", "member_settings"):
        assert not await rows(world, f"SELECT * FROM {table} WHERE guild_id = ?", guild), table
    assert not await rows(world, "SELECT * FROM actions")
    assert await rows(world, "SELECT * FROM member_settings WHERE guild_id = ?", guild + 1)


async def test_a_server_that_adds_the_bot_back_keeps_its_data(world, settings, games):
    session = await finish_by_resigning(world, "octego", 4)
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    world.bot.dispatch("guild_join", discord.Object(world.guild.id))  # added back
    await world.env.advance_time(31 * DAY)
    assert (await world.platform.sessions.load(session.id)).status == "finished"


async def test_a_planned_deletion_survives_a_restart(world, settings, games):
    session = await finish_by_resigning(world, "octego", 4)
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    await world.restart(settings, games)  # the plan is in the database; the start sweeps it
    await world.env.advance_time(31 * DAY)
    assert await world.platform.store.get_session(session.id) is None
