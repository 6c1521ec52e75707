"""The bot on Discord's terms: what the strict layer (bot/dev/discord_rules.py) showed SimCord had
hidden, each played through as members would (nonces, archived threads, a long outage, the
global rate limit, servers left while the bot was down, mentions of the bot)."""

from __future__ import annotations

import dataclasses
import logging

import discord
import pytest

from bot.core.sessions import SessionMeta
from bot.core.settings import Settings
from bot.core.store import LIVE_STATUSES
from bot.dev import discord_rules
from bot.dev.world import bot_member, private_texts
from bot.features.privacy_store import planned_server_deletions
from bot.features.turn_notices import AT_THE_GAME_SECONDS, REMINDER_DAYS
from bot.games.octagion import NEXT_ROUND_PAUSE, ROUND_POST, OctagionAdapter
from bot.games.octego import OctegoAdapter
from bot.ui.game_message import WAITING_FOR_DISCORD
from engines.octagion import round_seconds
from tests.bot.test_fair_use import at_once
from tests.bot.tinygame import TinyAdapter

DAY = 86400


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "terms.db"))  # games in threads: the default


@pytest.fixture
def games():
    return [TinyAdapter, OctegoAdapter, OctagionAdapter]


def rules_of(world) -> discord_rules.DiscordRules:
    return discord_rules.rules_of(world.env.backend)


def cards(world) -> list[discord.Message]:
    return [
        m for m in world.channel.history() if m.author.id == world.bot.user.id and m.type == discord.MessageType.default
    ]


def thread_of(world, record):
    """Where the game is played: its thread, or for a rematch the thread it is played in."""
    return next(t for t in world.channel.threads if t.id in (record.thread_id, record.channel_id))


def game_message(world, record) -> discord.Message:
    return next(m for m in thread_of(world, record).history() if m.id == record.message_id)


def counter_shown(world, record) -> str:
    """What the Tiny game message's picture says (its text alternative): "The counter is at 3."."""
    return game_message(world, record).attachments[0].description


async def tiny_game(world, challenger, opponent) -> object:
    """A Tiny game in a thread of its own, accepted on its card."""
    result = await challenger.slash(world.channel, "tiny challenge", opponent=opponent)
    assert result.ephemeral
    card = world.channel.last_message
    await opponent.click(card, label="Accept")
    records = await world.platform.store.threaded_sessions(world.channel.id)
    return next(r for r in records if r.card_id == card.id)


async def add(world, actor, record, amount: int = 1) -> object:
    await actor.click(game_message(world, record), label=f"+{amount}")
    return await world.platform.store.get_session(record.id)


def member_of(world, user_id: int):
    return next(m for m in world.members if m.id == user_id)


def archived(world, record) -> bool:
    return world.env.backend.get_channel(thread_of(world, record).id).thread_metadata.archived


# ----------------------------------------------------------------------- nonces


async def test_two_challenges_in_one_channel_within_a_minute_each_get_their_own_card(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    await world.env.advance_time(20)
    await world.cy.slash(world.channel, "tiny challenge", opponent=world.di)
    shown = cards(world)
    assert len(shown) == 2, [m.content for m in shown]
    assert world.bo.mention in shown[0].content
    assert world.di.mention in shown[1].content
    assert rules_of(world).deduplicated == [], "no post was taken for an earlier one"


async def test_every_post_carries_a_nonce_of_its_own(world):
    for challenger, opponent in ((world.ada, world.bo), (world.cy, world.di)):
        record = await tiny_game(world, challenger, opponent)
        await add(world, challenger, record)
        await add(world, opponent, record)
    posts = [r for r in world.env.backend.http_requests if r.method == "POST" and r.path.endswith("/messages")]
    nonces = [r.json.get("nonce") for r in posts]
    assert all(nonces), "no post leaves its nonce to chance"
    assert "..." not in nonces, "discord.utils.MISSING is never sent as a nonce"
    assert len(set(nonces)) == len(nonces), "no two posts share one"


# -------------------------------------------------------------------- threads


async def test_a_rematch_played_two_hours_after_the_first_game_updates_its_board_at_every_move(world):
    first = await tiny_game(world, world.ada, world.bo)
    await world.ada.slash(thread_of(world, first), "tiny resign")
    card = world.message(first.card_id)
    await world.bo.click(card, label="Rematch")
    challenge = thread_of(world, first).last_message
    await world.ada.click(challenge, label="Accept")
    rematch = await world.platform.store.live_session(first.thread_id)
    assert rematch is not None, "the rematch is played in the same thread"
    movers = [member_of(world, p) for p in rematch.players]
    for move in range(5):
        await world.env.advance_time(30 * 60)  # past the first game's archive time (an hour)
        rematch = await add(world, movers[move % 2], rematch)
        assert counter_shown(world, rematch) == f"The counter is at {move + 1}.", f"move {move + 1}"
        assert not archived(world, rematch), "the thread stays open while a game is played in it"
    assert rules_of(world).invalid == []


async def test_a_slow_game_without_clock_or_notices_keeps_its_thread_open_for_ten_days(world):
    for member in (world.ada, world.bo):
        await member.slash(world.channel, "notify", pings="off")
    record = await tiny_game(world, world.ada, world.bo)
    movers = [member_of(world, p) for p in record.players]
    for day in range(10):
        await world.env.advance_time(DAY)
        assert not archived(world, record), f"day {day + 1}"
        record = await add(world, movers[day % 2], record) if day < 7 else record
    assert counter_shown(world, record) == "The counter is at 7.", "the board is right"
    thread = thread_of(world, record)
    reminders = [m for m in thread.history() if "still" in m.content]
    assert reminders, "a quiet thread got a short new message"
    assert all(not m.mentions for m in reminders), "members who turned notices off are not pinged"
    assert len(reminders) <= 2, "one every six days at most"
    record = await add(world, movers[1], record)
    assert record.status == "finished", "the last move ends the game, on day ten"
    assert counter_shown(world, record) == "The counter is at 8."
    assert rules_of(world).invalid == []


async def test_a_reminder_pings_the_member_whose_move_it_is(world):
    record = await tiny_game(world, world.ada, world.bo)
    await world.env.advance_time(REMINDER_DAYS * DAY + 60)
    [reminder] = [m for m in thread_of(world, record).history() if "still" in m.content]
    waiting = member_of(world, record.players[0])
    assert reminder.content == f"🔔 {waiting.mention}, it is still your move in Tiny."
    assert [u.id for u in reminder.mentions] == [waiting.id]


async def test_a_notice_is_posted_before_the_old_one_goes_so_an_archived_thread_opens_again(world):
    record = await tiny_game(world, world.ada, world.bo)
    first, second = (member_of(world, p) for p in record.players)
    record = await add(world, first, record)
    await world.env.advance_time(AT_THE_GAME_SECONDS + 60)  # the first player is away: their move is pinged
    await world.bot.http.edit_channel(record.thread_id, archived=True)  # as after a week without a new message
    record = await add(world, second, record)
    notices = [m for m in thread_of(world, record).history() if "your move" in m.content]
    assert len(notices) == 1, [m.content for m in notices]
    assert first.mention in notices[0].content
    assert counter_shown(world, record) == "The counter is at 2."
    assert not archived(world, record)


async def test_a_stale_notice_goes_when_the_next_member_has_notices_off(world):
    await world.ada.slash(world.channel, "notify", pings="off")
    record = await tiny_game(world, world.bo, world.ada)
    first, second = (member_of(world, p) for p in record.players)
    record = await add(world, first, record)
    await add(world, second, record)
    notices = [m for m in thread_of(world, record).history() if "your move" in m.content]
    assert all(world.ada.mention not in m.content for m in notices), "no notice left for Ada's turn"


# ---------------------------------------------------------------- a long outage


@pytest.mark.discord_rules(invalid_limit=None)  # Discord is down: every call fails with 503
async def test_a_forty_minute_outage_mid_race_ends_with_every_round_and_the_result_posted_in_order(world, settings):
    await world.ada.slash(world.channel, "octagion start", rounds=3)
    lobby = world.channel.last_message
    await world.ada.click(lobby, label="Start")
    await world.env.settle()
    record = next(iter(await world.platform.store.threaded_sessions(world.channel.id)))
    thread = thread_of(world, record)
    assert any("Round 1" in m.content for m in thread.history())
    world.env.inject_error("*", "/channels/*", status=503, code=0, message="Service Unavailable", times=None)
    await world.env.advance_time(40 * 60)
    world.env.backend.faults.clear()  # Discord is back
    for _ in range(12):  # the outbox's retries come due (five minutes apart at most)
        await world.env.advance_time(60)
    await world.env.advance_time(10 * 60)
    posted = [m.content for m in thread.history() if m.author.id == world.bot.user.id]
    rounds = [text.split("\n")[0] for text in posted if text.startswith("## Octagion") or "Round " in text[:40]]
    order = [n for n in (1, 2, 3) if any(f"Round {n}" in text for text in rounds)]
    assert order == [1, 2, 3], rounds
    result = await world.platform.store.get_session(record.id)
    assert result.status not in LIVE_STATUSES, "the race ended"
    assert await world.platform.store.outbox(record.id) == [], "nothing was left behind"


# --------------------------------------------------------------- the rate limit


async def open_tiny_games(world, count: int) -> list[int]:
    """``count`` running Tiny games of #games, each in a thread of its own, opened directly (as a
    tournament opens its pairings). Set-up as the bot's own work, so that what it sends follows the
    simulated clock."""
    pairs = [(world.ada, world.bo), (world.cy, world.di)]
    ids = []
    with world.env._bot_scope():
        for n in range(count):
            a, b = pairs[n % 2]
            async with world.platform.sessions.open(
                game="tiny",
                guild_id=world.guild.id,
                channel_id=world.channel.id,
                host_id=a.id,
                players=[a.id, b.id],
                status="challenge",
                meta=SessionMeta(names=[a.name, b.name], options={}, seats=[a.id, b.id]),
                busy_text=lambda _: "busy",
                in_thread=True,
            ) as change:
                change.start([a.id, b.id], [a.name, b.name], {}, 7)
            ids.append(change.record.id)
    return ids


async def test_a_hundred_moves_at_once_stay_within_fifty_requests_a_second(world):
    records = await open_tiny_games(world, 100)
    await world.env.advance_time(30)  # the cards, threads and first boards go out at Discord's pace
    rules = rules_of(world)
    before, exempt = len(rules.counted), len(rules.exempt)
    sessions = [await world.platform.store.get_session(r) for r in records]
    members = {m.id: m for m in world.members}
    clicks = [members[s.players[0]].click(game_message(world, s), label="+1") for s in sessions]
    answers = await at_once(world, clicks)
    assert all(not private_texts(a) or "busy" not in private_texts(a)[-1] for a in answers)
    await world.env.advance_time(30)
    assert rules.rate_limited == [], "no request was answered 429"
    assert rules.most_in_one_second() <= discord_rules.GLOBAL_LIMIT
    # The boards go through their clicks' tokens (exempt), the notices the counted way.
    boards = sum(1 for r in rules.exempt[exempt:] if r.method == "PATCH" and r.path.endswith("/messages/@original"))
    assert boards >= 100, "each move's board went out"
    assert len(rules.counted) - before >= 100, "each move's notice went out"
    for s in sessions:
        assert counter_shown(world, await world.platform.store.get_session(s.id)) == "The counter is at 1."


# ------------------------------------------------------ servers, and mentions


async def test_a_server_that_removed_the_bot_while_it_was_down_is_planned_for_deletion_at_ready(world, settings, games):
    record = await tiny_game(world, world.ada, world.bo)
    assert record.guild_id == world.guild.id
    old = world.env.bot
    await old.platform.stop()
    world.env.backend.guilds.pop(world.guild.id)  # removed while no process of the bot was running
    from bot.app import create_bot

    await world.env.restart_bot(create_bot(settings, games))
    await old.release()
    await world.env.settle()
    planned = await planned_server_deletions(world.platform.store)
    assert world.guild.id in planned


async def test_a_mention_of_the_bot_with_words_logs_no_error(world, caplog):
    caplog.set_level(logging.ERROR)
    # SimCord listens for command errors itself, which silences discord.py's own report of them
    # (a traceback at ERROR): taken away here, as a real deployment has no such listener.
    world.bot.extra_events.pop("on_command_error", None)
    me = bot_member(world)
    await world.ada.send(world.channel, f"{me.mention} how do I play?")
    await world.env.settle()
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


@pytest.mark.discord_rules(invalid_limit=None)  # Discord is down: the board's edits fail with 503
async def test_a_member_who_moves_while_discord_refuses_the_board_is_told_the_move_is_saved(world):
    from engines.octego import legal_moves

    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    card = world.channel.last_message
    await world.bo.click(card, label="Accept")
    [record] = await world.platform.store.threaded_sessions(world.channel.id)
    thread = thread_of(world, record)

    played = []

    async def move(actor) -> str:
        session = await world.platform.sessions.load(record.id)
        played.append(legal_moves(session.state, session.players.index(actor.id))[0])
        return private_texts(await actor.slash(thread, "octego move", path=played[-1]))[-1]

    first, second = (member_of(world, p) for p in record.players)
    world.env.inject_error("PATCH", f"/channels/{thread.id}/messages/*", status=503, times=None)
    assert WAITING_FOR_DISCORD not in await move(first), "one failure is no outage yet"
    await world.env.advance_time(10)  # the board's edit is tried again, and refused again
    answer = await move(second)
    assert answer.startswith("Done.")
    assert WAITING_FOR_DISCORD in answer
    world.env.backend.faults.clear()
    await world.env.advance_time(60)
    assert WAITING_FOR_DISCORD not in await move(first)
    shown = await world.platform.store.get_session(record.id)
    assert played[-1].split("-")[-1] in game_message(world, shown).content, "the board went out again"


# ------------------------------------------------------------- posts after a crash


@pytest.mark.parametrize("threads", [False, True])
async def test_a_round_posted_just_before_the_bot_died_is_not_posted_again_after_the_restart(
    world, settings, games, threads
):
    """The worst moment (issue 36, item 8): round 2's message is out, but the process dies before
    the change that records it (and removes its outbox entry) commits. The new process sends the
    entry again with the same nonce, and Discord answers with the message it already has."""
    settings = dataclasses.replace(settings, game_threads=threads)
    await world.restart(settings, games)
    world.platform.new_seed = lambda: 1234
    await world.ada.slash(world.channel, "octagion start", rounds=3)
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    round_kind = world.platform.outbox.kinds[ROUND_POST]
    recorded = round_kind.after

    async def die_after_round_two(change, payload, message):
        if payload.get("round") == 2:
            raise RuntimeError("killed: round 2 is out, its entry not yet removed")
        await recorded(change, payload, message)

    round_kind.after = die_after_round_two
    [record] = await world.platform.store.threaded_sessions(world.channel.id) if threads else [None]
    session_id = record.id if threads else (await world.platform.sessions.live_in_channel(world.channel.id)).id
    session = await world.platform.sessions.load(session_id)
    place = thread_of(world, session.record) if threads else world.channel
    await world.env.advance_time(round_seconds(session.state) + 1)
    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    assert sum("Round 2 of 3" in m.content for m in place.history()) == 1, "round 2 went out once"
    world.platform.errors.clear()  # the error stood in for a killed process
    await world.restart(settings, games)  # a new process: the entry is still pending
    await world.env.advance_time(60)
    posts = [m for m in place.history() if "Round 2 of 3" in m.content]
    assert len(posts) == 1, "the post tried again returned the message already out"
    assert discord_rules.rules_of(world.env.backend).deduplicated, "by its nonce"
    assert await world.platform.store.outbox(session.id) == []
