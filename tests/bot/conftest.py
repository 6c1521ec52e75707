"""SimCord fixtures: the real bot against a simulated Discord, with a fresh database per test."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import simcord

from bot.app import create_bot
from bot.settings import Settings


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "test.db"))


@pytest.fixture
def games():
    """The games under test (default: every real game)."""
    return None


@pytest.fixture
def simcord_bot(settings, games):
    return create_bot(settings, games)


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    ada: simcord.MemberActor
    bo: simcord.MemberActor
    cy: simcord.MemberActor
    di: simcord.MemberActor

    @property
    def bot(self):
        return self.env.bot

    @property
    def platform(self):
        return self.env.bot.platform

    async def restart(self, settings: Settings, games=None) -> None:
        await self.env.restart_bot(create_bot(settings, games))

    def assert_no_bot_errors(self) -> None:
        assert self.platform.errors == []


@pytest.fixture
async def world(simcord_env) -> World:
    guild = simcord_env.create_guild("Octagon Club")
    channel = guild.create_text_channel("games")
    members = [guild.add_member(simcord_env.create_user(name)) for name in ("ada", "bo", "cy", "di")]
    yield World(simcord_env, guild, channel, *members)
    assert simcord_env.bot.platform.errors == [], "the bot hit unexpected errors"
