"""Cards of many games in one channel, at the channel's pace (issue 36, items 9 and 10): Discord
keeps a channel's edits to about 5 in 5 seconds, so the outbox paces card edits per channel and
sends the newest state of each card when its turn comes; a card whose channel is gone ends its game
at once instead of being tried for minutes."""

from __future__ import annotations

import pytest

from bot.core.pace import CHANNEL_EDITS, CHANNEL_WINDOW
from bot.core.settings import Settings
from bot.dev import discord_rules
from bot.features.threads import CARD
from tests.bot.test_fair_use import at_once
from tests.bot.test_on_discords_terms import game_message, open_tiny_games
from tests.bot.tinygame import TinyAdapter


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "cards.db"))  # games in threads


@pytest.fixture
def games():
    return [TinyAdapter]


async def open_games(world, count: int) -> list[int]:
    """``count`` running Tiny games of #games in threads, their cards, threads and boards out."""
    ids = await open_tiny_games(world, count)
    await world.env.advance_time(60)  # cards, threads and boards go out
    return ids


def card_edits(world) -> list[float]:
    """When each edit of a message of #games went out, on the simulated clock."""
    rules = discord_rules.rules_of(world.env.backend)
    prefix = f"/channels/{world.channel.id}/messages/"
    return [r.at for r in rules.counted if r.method == "PATCH" and r.path.startswith(prefix)]


def most_in_a_window(times: list[float], window: float) -> int:
    times = sorted(times)
    return max((sum(1 for t in times if start <= t < start + window) for start in times), default=0)


async def test_fifty_cards_in_one_channel_are_edited_at_its_pace_and_each_ends_right(world):
    ids = await open_games(world, 50)
    before = len(card_edits(world))
    records = [await world.platform.store.get_session(i) for i in ids]
    members = {m.id: m for m in world.members}
    await at_once(world, [members[r.players[0]].click(game_message(world, r), label="+1") for r in records])
    await world.env.advance_time(5 * 60)
    edits = card_edits(world)[before:]
    assert most_in_a_window(edits, CHANNEL_WINDOW) <= CHANNEL_EDITS, "no more than 5 edits in any 5 s"
    assert len(edits) >= 50, "every card was edited"
    for record in records:
        card = world.message(record.card_id)
        assert "move 2" in card.content, card.content
    assert discord_rules.rules_of(world.env.backend).rate_limited == []


async def test_cards_older_than_an_hour_meet_the_old_message_cap_without_a_429(world):
    ids = await open_games(world, 8)
    await world.env.advance_time(3601)  # every card is now older than an hour
    before = len(card_edits(world))
    records = [await world.platform.store.get_session(i) for i in ids]
    members = {m.id: m for m in world.members}
    for turn in range(2):  # two moves in every game: each card's edits coalesce while it waits
        records = [await world.platform.store.get_session(i) for i in ids]
        await at_once(world, [members[r.players[turn]].click(game_message(world, r), label="+1") for r in records])
        await world.env.advance_time(10)
    await world.env.advance_time(5 * 60)
    rules = discord_rules.rules_of(world.env.backend)
    assert [code for _, status, code in rules.invalid if status == 429] == [], "never the 30046 cap"
    assert len(card_edits(world)) - before <= len(ids) + 4, "the waiting edits were coalesced"
    for record in records:
        assert "move 3" in world.message(record.card_id).content


async def test_a_card_whose_channel_is_gone_ends_its_game_at_once(world):
    [session_id] = await open_games(world, 1)
    record = await world.platform.store.get_session(session_id)
    # #games is deleted while the bot is away (no event reaches it), then the card is to be edited.
    world.env.backend.channels.pop(world.channel.id)
    with world.env._bot_scope():
        async with world.platform.sessions.change(session_id) as change:
            change.post(CARD)
    await world.env.advance_time(10)
    record = await world.platform.store.get_session(session_id)
    assert record.status == "stopped", "the game ended with its channel"
    assert await world.platform.store.outbox(session_id) == [], "nothing is tried again for minutes"


async def test_a_card_links_its_thread_as_soon_as_the_thread_is_open(world):
    """A game opened directly (as a tournament opens its pairings) posts its card before its thread
    exists: the card links the thread once it is open, not only after the first move (issue 36,
    item 14)."""
    [session_id] = await open_games(world, 1)
    record = await world.platform.store.get_session(session_id)
    card = world.message(record.card_id)
    assert f"<#{record.thread_id}>" in card.content, card.content
    assert "opening a thread" not in card.content
