"""Many Octagion round ends due at the same moment (issue #29, "Timers that draw"): every game gets
its result and its next round; the timers fire a bounded number at a time, in the background, so
the pictures they send never fill the queue that answers players "busy"; and a click in another
channel is answered, and its picture drawn, while they go out. Behaviour only: the times are
``python -m bench.bench_round_ends``'s."""

from __future__ import annotations

import dataclasses

import discord
import pytest

from bot.core import timers, workers
from bot.core.pace import PER_SECOND
from bot.core.sessions import SessionMeta
from bot.dev.world import MEMBER_NAMES, private_texts
from bot.games import all_games
from bot.games.octagion import NEXT_ROUND_PAUSE, ROUND_END, ROUND_POST
from bot.ui.replies import BUSY_TEXT
from engines.octagion import round_seconds

# More round ends than fire at once, and few enough first rounds to go out in one second of the
# bot's request budget (bot/core/pace.py), so that every round's clock starts at the same moment.
GAMES = 2 * timers.CONCURRENT_FIRINGS + 8
assert GAMES < PER_SECOND
RESULT_FILE = "octagion-result-"


@pytest.fixture
def games():
    return all_games()


@pytest.fixture
def settings(settings):
    # A small picture queue: the round ends' pictures alone would fill it many times over.
    return dataclasses.replace(settings, picture_queue_limit=8)


async def open_octagion(world, channel) -> int:
    """A two-team Octagion game in ``channel``, its first round's message out (its clock armed)."""
    players = [world.ada.id, world.bo.id]
    meta = SessionMeta(names=list(MEMBER_NAMES[:2]), options={"rounds": 3}, seats=players)
    async with world.platform.sessions.open(
        game="octagion",
        guild_id=world.guild.id,
        channel_id=channel.id,
        host_id=players[0],
        players=players,
        status="challenge",
        meta=meta,
        busy_text=lambda _: "busy",
    ) as change:
        change.start(players, list(MEMBER_NAMES[:2]), {"rounds": 3}, 1000 + channel.id % 1000)
        change.quiet()
        change.post(ROUND_POST, {"round": 1})
    await world.platform.outbox.flush(change.record.id)
    return change.record.id


async def open_games(world) -> tuple[list, list[int]]:
    """``GAMES`` Octagion games in channels of their own, their round ends due together. The last
    is opened through its lobby, so that the bot, not the test, arms the timers' wait."""
    channels = [world.guild.create_text_channel(f"octagion-{n}") for n in range(GAMES)]
    ids = [await open_octagion(world, channel) for channel in channels[:-1]]
    await world.ada.slash(channels[-1], "octagion start")
    lobby = channels[-1].last_message
    await world.bo.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    ids.append((await world.platform.sessions.live_in_channel(channels[-1].id)).id)
    deadlines = {timer.deadline for timer in await world.platform.store.pending_timers() if timer.kind == ROUND_END}
    assert len(deadlines) == 1, "the round ends are due at the same moment"
    return channels, ids


def watch_round_ends(world, monkeypatch) -> dict:
    """Timers firing at once (the most a round end saw), and whether a player would have been
    told "busy" whenever a picture was asked for."""
    seen = {"most": 0, "busy": []}
    scheduler = world.platform.timers
    handler = scheduler._handlers[ROUND_END]

    async def counted(change, timer):
        seen["most"] = max(seen["most"], len(scheduler._firing))  # the firings started and not ended
        await handler(change, timer)

    scheduler.register(ROUND_END, counted)
    run = workers.PICTURES.run

    async def asked(func, *args):
        seen["busy"].append(workers.busy())
        return await run(func, *args)

    monkeypatch.setattr(workers.PICTURES, "run", asked)
    return seen


def record_sends(world, monkeypatch, events: list) -> None:
    """Every message the outbox sends, in order: a round's result, or another picture by channel."""
    outbox = world.platform.outbox
    deliver = outbox._deliver

    async def delivering(session, outgoing, nonce):
        message = await deliver(session, outgoing, nonce)
        if any(p.filename.startswith(RESULT_FILE) for p in outgoing.pictures):
            events.append(("result", session.record.channel_id))
        elif outgoing.pictures:
            events.append(("picture", session.record.channel_id))
        return message

    monkeypatch.setattr(outbox, "_deliver", delivering)
    defer = discord.InteractionResponse.defer

    async def acknowledged(self, *args, **kwargs):
        events.append(("ack", self._parent.channel_id))
        return await defer(self, *args, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "defer", acknowledged)


def results_in(channel, round_no: int) -> list:
    named = f"{RESULT_FILE}{round_no}-"
    return [m for m in channel.history() if any(a.filename.startswith(named) for a in m.attachments)]


async def test_many_round_ends_due_at_once_all_post_their_result_and_next_round(world, monkeypatch):
    channels, ids = await open_games(world)
    first = await world.platform.sessions.load(ids[0])
    seen = watch_round_ends(world, monkeypatch)

    await world.env.advance_time(round_seconds(first.state) + 1)
    await world.env.advance_time(2)  # the results go out at the pace of the bot's request budget

    assert all(len(results_in(channel, 1)) == 1 for channel in channels), "every game posts its result once"
    for session_id in ids:
        session = await world.platform.sessions.load(session_id)
        assert (session.state.phase, session.state.round) == ("between", 1)
    assert 1 < seen["most"] <= timers.CONCURRENT_FIRINGS, "due together, fired a bounded number at a time"
    assert seen["busy"], "pictures were drawn"
    assert not any(seen["busy"]), "the round ends' pictures never made the bot busy for players"

    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    await world.env.advance_time(2)
    for channel, session_id in zip(channels, ids, strict=True):
        session = await world.platform.sessions.load(session_id)
        assert (session.state.phase, session.state.round) == ("playing", 2)
        assert "Round 2 of " in channel.last_message.content, "the next round's message is out"


async def test_a_click_elsewhere_is_answered_while_the_round_ends_go_out(world, monkeypatch):
    channels, ids = await open_games(world)
    first = await world.platform.sessions.load(ids[0])
    octego = world.guild.create_text_channel("octego")
    await world.ada.slash(octego, "octego challenge", opponent=world.bo)
    invitation = octego.last_message
    events: list = []
    record_sends(world, monkeypatch, events)

    # The round ends fall due, then Bo accepts the challenge in #octego: the bot works on both at once.
    world.env.backend.advance_clock(round_seconds(first.state) + 1)
    accepted = await world.bo.click(invitation, label="Accept")

    assert BUSY_TEXT not in private_texts(accepted)
    assert (await world.platform.sessions.live_in_channel(octego.id)).status == "active"
    assert all(len(results_in(channel, 1)) == 1 for channel in channels), "every game posts its result"
    results = [at for at, (kind, _) in enumerate(events) if kind == "result"]
    answered = events.index(("ack", octego.id))
    drawn = events.index(("picture", octego.id))
    assert len(results) == GAMES
    assert answered < results[-1], "the click was answered before the last round end's result went out"
    assert drawn < results[-1], "and its game's picture drawn: the round ends' pictures wait behind it"
