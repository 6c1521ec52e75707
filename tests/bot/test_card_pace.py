"""Cards of many games in one channel, at the channel's pace (issue 36, items 9 and 10): Discord
keeps a channel's edits to about 5 in 5 seconds, so the outbox paces card edits per channel and
sends the newest state of each card when its turn comes; a card whose channel is gone ends its game
at once instead of being tried for minutes. A game's card is edited at most once every
CARD_EVERY_SECONDS while it is played, its end at once (issue 41)."""

from __future__ import annotations

import itertools

import pytest

from bot.core.pace import BURST, CHANNEL_EDITS, CHANNEL_WINDOW, RequestBudget
from bot.core.sessions import SessionMeta
from bot.core.settings import Settings
from bot.dev import discord_rules
from bot.features.threads import CARD, CARD_EVERY_SECONDS
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


async def open_games_in_channels(world, count: int) -> list[tuple[int, object]]:
    """``count`` running Tiny games, each in a channel of its own (so no channel's pace holds its card)."""
    ids = []
    channels = [world.guild.create_text_channel(f"games-{n}") for n in range(count)]
    with world.env._bot_scope():
        for channel in channels:
            async with world.platform.sessions.open(
                game="tiny",
                guild_id=world.guild.id,
                channel_id=channel.id,
                host_id=world.ada.id,
                players=[world.ada.id, world.bo.id],
                status="challenge",
                meta=SessionMeta(names=[world.ada.name, world.bo.name], options={}, seats=[world.ada.id, world.bo.id]),
                busy_text=lambda _: "busy",
                in_thread=True,
            ) as change:
                change.start([world.ada.id, world.bo.id], [world.ada.name, world.bo.name], {}, 7)
            ids.append((change.record.id, channel))
    await world.env.advance_time(60)  # cards, threads and boards go out
    return ids


def board_in(channel, record):
    thread = next(t for t in channel.threads if t.id == record.thread_id)
    return next(m for m in thread.history() if m.id == record.message_id)


async def test_cards_take_at_most_their_part_of_the_budget_and_the_pings_go_first(world):
    """Thirty games in thirty channels, a move in each at once: the cards (which can wait) take their
    turns at a fifth of the request budget, each sent once with its newest state, while every "your
    move" notice goes out at once (issue 41)."""
    games = await open_games_in_channels(world, 30)
    records = [await world.platform.store.get_session(i) for i, _ in games]
    cards = {r.card_id for r in records}
    rules = discord_rules.rules_of(world.env.backend)
    before = len(rules.counted)
    start = world.env.backend.clock.elapsed
    await at_once(
        world, [world.ada.click(board_in(c, r), label="+1") for r, (_, c) in zip(records, games, strict=True)]
    )
    await world.env.advance_time(60)
    went = rules.counted[before:]
    edits = [r.at for r in went if r.method == "PATCH" and int(r.path.rsplit("/", 1)[1]) in cards]
    pings = [r.at for r in went if r.method == "POST" and r.path.endswith("/messages")]
    assert len(edits) == 30, "every card was edited once"
    share = RequestBudget().can_wait.interval
    assert most_in_a_window(edits, 1.0) <= 1.0 / share + BURST, "no more cards in a second than their part"
    assert len(pings) == 30
    assert max(pings) - start < 2.0, "the notices did not wait behind the cards"
    assert max(edits) - start >= (30 - BURST) * share - 1, "the cards took their turns"
    for record, (_, channel) in zip(records, games, strict=True):
        assert "move 2" in next(m for m in channel.history() if m.id == record.card_id).content


async def test_a_games_card_is_edited_at_most_once_every_pause_and_shows_its_end_at_once(world):
    """Seven moves, one every 5 s: the card (the thread has the live board) is edited at most once
    every CARD_EVERY_SECONDS, shows the last move once that pause is over, and the move that ends
    the game is on it at once, without waiting for the pause."""
    [session_id] = await open_games(world, 1)
    record = await world.platform.store.get_session(session_id)
    members = {m.id: m for m in world.members}
    before = len(card_edits(world))
    clock = world.env.backend.clock
    for turn in range(6):  # the counter goes to 6 in half a minute
        await members[record.players[turn % 2]].click(game_message(world, record), label="+1")
        await world.env.advance_time(5)
    await world.env.advance_time(CARD_EVERY_SECONDS)
    edits = card_edits(world)[before:]
    assert 1 <= len(edits) <= 2, edits
    assert all(b - a >= CARD_EVERY_SECONDS for a, b in itertools.pairwise(edits)), "at most one edit a pause"
    card = world.message(record.card_id)
    assert "move 7" in card.content, "the newest state once the pause is over"
    assert f"▶ **{world.ada.name}** to play" in card.content
    await members[record.players[0]].click(game_message(world, record), label="+2")  # 8: Ada wins
    ended = clock.elapsed
    await world.env.advance_time(5)
    assert (await world.platform.store.get_session(session_id)).status == "finished"
    last = card_edits(world)[-1]
    assert last - ended < 5, "the end is on the card at once"
    assert last - edits[-1] < CARD_EVERY_SECONDS, "without waiting for the pause"
    card = world.message(record.card_id)
    assert f"🏆 {world.ada.mention} won" in card.content, card.content
    await world.env.advance_time(2 * CARD_EVERY_SECONDS)
    assert card_edits(world)[-1] == last, "and the card is not edited again once it shows the end"
