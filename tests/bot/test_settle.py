"""The tests' settle limit (tests/bot/settle.py): a settle waits as long as SIMCORD_SETTLE_SECONDS
for the bot's busy work, while a timer of the bot's beyond SimCord's sleep horizon stays parked
for advance_time, as it does with SimCord's own 5 s."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest
import simcord

from tests.bot import settle

BUSY_SECONDS = 0.6  # work in a thread, beyond the horizon below
HORIZON = 0.3


class Napper(discord.Client):
    """On a message: a short nap (within the horizon), a long one (beyond it), and busy work."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.done: list[str] = []
        self.naps: list[asyncio.Task[None]] = []

    async def on_message(self, message: discord.Message) -> None:
        if message.author == self.user:
            return
        loop = asyncio.get_running_loop()
        self.naps += [loop.create_task(self.nap("short", HORIZON / 3)), loop.create_task(self.nap("long", 10.0))]
        self.busy = loop.run_in_executor(None, time.sleep, BUSY_SECONDS)
        await self.busy
        self.done.append("busy")

    async def nap(self, name: str, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.done.append(name)


def say_hi(env: simcord.Env):
    guild = env.create_guild("Club")
    return guild.add_member(env.create_user("ada")).send(guild.create_text_channel("games"), "hi")


async def test_busy_work_longer_than_the_horizon_settles_and_a_later_timer_stays_parked(monkeypatch):
    monkeypatch.setattr(settle, "SLEEP_HORIZON", HORIZON)
    bot = Napper()
    async with simcord.run(bot) as env:
        assert env.settle_timeout == settle.SETTLE_SECONDS > BUSY_SECONDS
        await say_hi(env)
        assert sorted(bot.done) == ["busy", "short"]  # the short nap was waited for, the long one not
        await env.advance_time(10)
        assert sorted(bot.done) == ["busy", "long", "short"]


async def test_a_settle_that_runs_out_names_the_setting(monkeypatch):
    monkeypatch.setattr(settle, "SETTLE_SECONDS", HORIZON)
    bot = Napper()
    async with simcord.run(bot, check_errors=False) as env:
        with pytest.raises(TimeoutError) as raised:  # the busy work outlasts the limit
            await say_hi(env)
        await asyncio.wait([bot.busy])  # ended before the Env detaches (within the same limit)
    assert "SIMCORD_SETTLE_SECONDS (0.3 s" in "\n".join(raised.value.__notes__)


async def test_an_env_with_its_own_limit_keeps_it():
    bot = Napper()
    async with simcord.run(bot, settle_timeout=HORIZON, check_errors=False) as env:
        assert env.settle_timeout == HORIZON
        with pytest.raises(TimeoutError):  # the busy work outlasts this Env's limit
            await say_hi(env)
        await asyncio.wait([bot.busy])
