"""Fair use (issue #30): per-member limits on replays, records, `/history` and challenges, one
replay drawn at a time per member and a few per server; each refusal a private sentence with the
time to wait, changing nothing. Time passes with SimCord's clock (`advance_time`), never a sleep."""

from __future__ import annotations

import asyncio
import dataclasses

import discord
import pytest

from bot.dev.world import private_texts
from bot.features.fair_use import ONE_REPLAY_AT_A_TIME, SERVER_REPLAYS_BUSY
from tests.bot.test_replays import finish_by_resigning


@pytest.fixture
def settings(settings):
    return dataclasses.replace(
        settings, replays_per_minute=1, records_per_minute=1, history_per_minute=2, challenges_per_minute=2
    )


def replays_posted(world) -> int:
    return sum(m.content.startswith("🎞️") for m in world.channel.history())


async def test_a_second_replay_within_the_minute_is_refused_with_the_time_to_wait(world):
    session = await finish_by_resigning(world, "octego", 4)
    game = world.message(session.record.message_id)
    assert not private_texts(await world.ada.click(game, label="Replay"))
    assert replays_posted(world) == 1

    refused = await world.ada.click(game, label="Replay")
    assert private_texts(refused) == ["You can ask for another replay in 60 seconds."]
    await world.env.advance_time(45)
    refused = await world.ada.slash(world.channel, "replay")
    assert private_texts(refused) == ["You can ask for another replay in 15 seconds."]
    assert replays_posted(world) == 1, "a refusal posts nothing"

    assert not private_texts(await world.bo.click(game, label="Replay")), "the limit is each member's own"
    await world.env.advance_time(15)
    assert not private_texts(await world.ada.click(game, label="Replay"))
    assert replays_posted(world) == 3


async def test_one_replay_in_progress_per_member_and_a_few_per_server(world):
    session = await finish_by_resigning(world, "octego", 3)
    game = world.message(session.record.message_id)
    fair_use, guild = world.platform.fair_use, world.guild.id
    fair_use.begin_replay(guild, world.ada.id)  # Ada's replay is being drawn
    assert private_texts(await world.ada.click(game, label="Replay")) == [ONE_REPLAY_AT_A_TIME]
    fair_use.begin_replay(guild, world.bo.id)  # and Bo's: the server's two
    assert private_texts(await world.cy.click(game, label="Replay")) == [SERVER_REPLAYS_BUSY]
    fair_use.end_replay(guild, world.bo.id)
    assert replays_posted(world) == 0
    assert not private_texts(await world.cy.click(game, label="Replay")), "one of the server's two is free"
    fair_use.end_replay(guild, world.ada.id)
    assert not private_texts(await world.ada.click(game, label="Replay")), "a refused replay used nothing"
    assert replays_posted(world) == 2


async def test_records_and_history_have_their_limits(world):
    session = await finish_by_resigning(world, "octa", 3)
    first = await world.cy.slash(world.channel, "record", game_id=session.id)
    assert any(m.attachments for m in [first.response, *first.followups] if m is not None)
    again = await world.cy.slash(world.channel, "record", game_id=session.id)
    assert private_texts(again) == ["You can ask for another game record in 60 seconds."]

    for _ in range(2):
        assert "Ada's last games" in private_texts(await world.di.slash(world.channel, "history", member=world.ada))[-1]
    await world.env.advance_time(20)
    refused = await world.di.slash(world.channel, "history", member=world.ada)
    assert private_texts(refused) == ["You can use `/history` again in 40 seconds."]
    await world.env.advance_time(40)
    assert "Ada's last games" in private_texts(await world.di.slash(world.channel, "history", member=world.ada))[-1]


async def test_a_refused_request_does_not_count(world):
    for _ in range(3):  # no game has finished: each answer is a refusal of its own, never "wait"
        missing = await world.ada.slash(world.channel, "record")
        assert private_texts(missing)[-1].startswith("No game has finished in this channel yet.")


async def test_challenges_have_a_limit_per_member(world):
    for _ in range(2):
        await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
        await world.bo.click(world.channel.last_message, label="Decline")
    posted = len(world.channel.history())
    refused = await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    assert private_texts(refused) == ["You can send another challenge in 60 seconds."]
    assert len(world.channel.history()) == posted, "nothing was posted"
    assert await world.session() is None
    await world.bo.slash(world.channel, "octego challenge", opponent=world.ada)  # Bo's own allowance
    assert (await world.session()).status == "challenge"


async def test_challenges_sent_at_the_same_instant_cannot_pass_the_limit_together(world):
    """Ten challenges at once against a limit of 2: the check and the count are one step."""
    owner = world.guild.add_member(
        world.env.create_user("owner"),
        roles=[world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))],
    )
    await owner.slash(world.channel, "settings game_threads", enabled=True)  # no challenge finds the channel busy
    sent = await at_once(
        world, [world.ada.slash(world.channel, "octego challenge", opponent=world.bo) for _ in range(10)]
    )
    answers = [private_texts(result)[-1] for result in sent]
    assert sum(a.startswith("Challenge posted") for a in answers) == 2, answers
    assert answers.count("You can send another challenge in 60 seconds.") == 8, answers
    assert len(await world.platform.store.threaded_sessions(world.channel.id)) == 2


async def at_once(world, interactions):
    """Sends the interactions all before the bot handles any (as Discord delivers a burst), then
    waits for the bot: SimCord's wait after each send is skipped for the burst, as bench/load.py does."""
    env = world.env
    settle, env._settle_internal = env._settle_internal, no_wait
    try:
        sent = await asyncio.gather(*interactions)
    finally:
        env._settle_internal = settle
    await env.settle()
    return sent


async def no_wait(**_):
    return None
