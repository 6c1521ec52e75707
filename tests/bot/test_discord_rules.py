"""The strict layer holds SimCord to Discord's own rules (bot/dev/discord_rules.py): each rule,
proved on plain discord.py calls of the bot, and each switch that turns a rule off."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.dev import discord_rules
from bot.dev.discord_rules import GLOBAL_LIMIT, OLD_EDITS_PER_CHANNEL, Rules


def rules_of(world) -> discord_rules.DiscordRules:
    rules = discord_rules.rules_of(world.env.backend)
    assert rules is not None, "the tests install the strict layer for every SimCord world"
    return rules


def channel(world):
    return world.bot.get_partial_messageable(world.channel.id)


async def new_thread(world, minutes: int = 60) -> discord.Thread:
    parent = world.bot.get_channel(world.channel.id)
    return await parent.create_thread(
        name="rules", type=discord.ChannelType.public_thread, auto_archive_duration=minutes
    )


def archived(world, thread_id: int) -> bool:
    return world.env.backend.get_channel(thread_id).thread_metadata.archived


# ------------------------------------------------------------------------ nonces


async def test_a_second_post_with_the_same_nonce_returns_the_first_message(world):
    first = await channel(world).send("Round 2 of 3", nonce="entry-7")
    again = await channel(world).send("Round 2 of 3", nonce="entry-7")
    assert again.id == first.id, "Discord returns the earlier message of the same author and nonce"
    assert [m.content for m in world.channel.history()].count("Round 2 of 3") == 1
    assert rules_of(world).deduplicated == ["entry-7"]


async def test_a_nonce_is_remembered_for_five_minutes_only(world):
    first = await channel(world).send("a", nonce="n1")
    await world.env.advance_time(discord_rules.NONCE_SECONDS + 1)
    later = await channel(world).send("a", nonce="n1")
    assert later.id != first.id


async def test_two_different_posts_sharing_a_nonce_are_a_defect_of_the_bot(world):
    await channel(world).send("Round 1", nonce="...")
    swallowed = await channel(world).send("Round 2", nonce="...")
    assert swallowed.content == "Round 1", "the second post is never made"
    assert rules_of(world).nonce_reuse, "and the layer says so"
    with pytest.raises(AssertionError, match="shared a nonce"):
        rules_of(world).check()
    rules_of(world).nonce_reuse.clear()  # proved: the test ends clean


async def test_a_post_tried_again_with_a_later_deadline_is_still_the_same_post(world):
    first = await channel(world).send("## Octagion\nRound 2 of 3 · ends <t:100:R>", nonce="entry-9")
    again = await channel(world).send("## Octagion\nRound 2 of 3 · ends <t:160:R>", nonce="entry-9")
    assert again.id == first.id
    assert rules_of(world).nonce_reuse == [], "a retry is no other post"


async def test_a_post_without_a_nonce_of_its_own_gets_a_random_one_from_discord_py(world):
    await channel(world).send("x")
    await channel(world).send("x")
    assert [m.content for m in world.channel.history()].count("x") == 2


@pytest.mark.discord_rules(nonces=False)
async def test_the_nonce_rule_can_be_turned_off(world):
    await channel(world).send("a", nonce="same")
    await channel(world).send("b", nonce="same")
    assert [m.content for m in world.channel.history()][-2:] == ["a", "b"]


# ---------------------------------------------------------------- archived threads


async def test_an_archived_thread_refuses_edits_deletes_and_reactions(world):
    thread = await new_thread(world)
    message = await thread.send("board")
    await world.bot.http.edit_channel(thread.id, archived=True)
    for call in (
        lambda: message.edit(content="board, redrawn"),
        lambda: message.delete(),
        lambda: message.add_reaction("✅"),
    ):
        with pytest.raises(discord.HTTPException) as refused:
            await call()
        assert (refused.value.status, refused.value.code) == (400, discord_rules.THREAD_ARCHIVED)
    assert archived(world, thread.id)


async def test_a_new_message_or_an_edit_to_unarchive_opens_an_archived_thread(world):
    thread = await new_thread(world)
    message = await thread.send("board")
    await world.bot.http.edit_channel(thread.id, archived=True)
    await thread.send("still your move")
    assert not archived(world, thread.id), "a new message unarchives the thread"
    await message.edit(content="board, redrawn")
    await world.bot.http.edit_channel(thread.id, archived=True)
    await world.bot.http.edit_channel(thread.id, archived=False)
    await message.edit(content="board, again")
    assert world.env.backend.get_message(thread.id, message.id).content == "board, again"


async def test_a_thread_archives_itself_after_its_quiet_time(world):
    thread = await new_thread(world, minutes=60)
    message = await thread.send("board")
    await world.env.advance_time(59 * 60)
    await message.edit(content="an edit is no new message")
    assert not archived(world, thread.id)
    await world.env.advance_time(61)
    assert archived(world, thread.id), "an hour after its last new message"
    with pytest.raises(discord.HTTPException):
        await message.edit(content="too late")
    await thread.send("a new message")
    await world.env.advance_time(59 * 60)
    assert not archived(world, thread.id), "the quiet time counts from the newest message"


@pytest.mark.discord_rules(archives=False)
async def test_the_archive_rule_can_be_turned_off(world):
    thread = await new_thread(world, minutes=60)
    message = await thread.send("board")
    await world.env.advance_time(2 * 3600)
    await message.edit(content="SimCord alone never archives")
    assert not archived(world, thread.id)


# ------------------------------------------------------------------ rate limits


async def test_past_fifty_requests_in_a_second_discord_answers_429_and_discord_py_waits(world):
    rules = rules_of(world)
    already = sum(1 for r in rules.counted if r.at > rules.now - 1)  # the bot's own, as it started
    with world.env._bot_scope():  # as the bot's own work: its waits follow the simulated clock
        posts = asyncio.ensure_future(asyncio.gather(*(channel(world).send(f"m{n}") for n in range(GLOBAL_LIMIT + 10))))
    await world.env.advance_time(2)
    sent = await posts
    assert len({m.id for m in sent}) == GLOBAL_LIMIT + 10, "every post goes out in the end"
    assert len(rules.rate_limited) == already + 10, "those past the limit were answered 429 first"
    assert rules.most_in_one_second() == GLOBAL_LIMIT
    assert all(status == 429 for _, status, _ in rules.invalid), "each 429 counts as an invalid request"


async def test_interaction_answers_do_not_count_towards_the_limit(world):
    await world.ada.slash(world.channel, "games")
    rules = rules_of(world)
    assert rules.exempt, "the answer went through the interaction's callback"
    assert not any(r.path.startswith(("/interactions", "/webhooks")) for r in rules.counted)


async def test_edits_of_messages_older_than_an_hour_have_a_cap_per_channel(world):
    message = await channel(world).send("card")
    await world.env.advance_time(3601)
    with world.env._bot_scope():  # as the bot's own work: its wait for the cap follows the simulated clock
        edits = asyncio.ensure_future(
            asyncio.gather(*(message.edit(content=f"card {n}") for n in range(OLD_EDITS_PER_CHANNEL + 1)))
        )
    await world.env.advance_time(discord_rules.OLD_EDITS_WINDOW + 1)
    await edits
    codes = [code for _, status, code in rules_of(world).invalid if status == 429]
    assert codes == [discord_rules.OLD_EDITS_CAPPED], "the sixth edit met the cap and was tried again later"


@pytest.mark.discord_rules(rate_limits=False)
async def test_the_rate_limits_can_be_turned_off(world):
    await asyncio.gather(*(channel(world).send(f"m{n}") for n in range(GLOBAL_LIMIT + 10)))
    assert rules_of(world).rate_limited == []


# -------------------------------------------------------------- interaction tokens


def last_interaction_token(world) -> str:
    backend = world.env.backend
    return backend.interactions[max(backend.interactions)].token


async def test_an_interaction_token_expires_after_fifteen_minutes(world):
    await world.ada.slash(world.channel, "games")
    webhook = discord.Webhook.partial(world.env.backend.application_id, last_interaction_token(world), client=world.bot)
    await webhook.send("a follow-up in time")
    await world.env.advance_time(15 * 60)
    with pytest.raises(discord.HTTPException) as refused:
        await webhook.send("too late")
    assert (refused.value.status, refused.value.code) == (401, discord_rules.INVALID_WEBHOOK_TOKEN)


@pytest.mark.discord_rules(tokens=False)
async def test_the_token_rule_can_be_turned_off(world):
    await world.ada.slash(world.channel, "games")
    webhook = discord.Webhook.partial(world.env.backend.application_id, last_interaction_token(world), client=world.bot)
    await world.env.advance_time(14 * 60)
    await webhook.send("SimCord's own lifetime still holds")


# -------------------------------------------------------------- invalid requests


async def test_too_many_invalid_requests_fail_the_test(world):
    rules = rules_of(world)
    rules.rules = Rules(invalid_limit=2)
    world.env.inject_error(
        "POST", "/channels/*/messages", status=403, code=50013, message="Missing Permissions", times=3
    )
    for _ in range(3):
        with pytest.raises(discord.Forbidden):
            await channel(world).send("x")
    assert [status for _, status, _ in rules.invalid] == [403, 403, 403]
    with pytest.raises(AssertionError, match="3 invalid requests"):
        rules.check()
    rules.invalid.clear()  # proved: the test ends clean


@pytest.mark.discord_rules(invalid_limit=None)
async def test_the_invalid_request_limit_can_be_turned_off(world):
    world.env.inject_error(
        "POST", "/channels/*/messages", status=403, code=50013, message="Missing Permissions", times=30
    )
    for _ in range(30):
        with pytest.raises(discord.Forbidden):
            await channel(world).send("x")
    rules_of(world).check()
