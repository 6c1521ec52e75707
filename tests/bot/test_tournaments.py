"""Tournaments through SimCord: a Swiss of eight played to the end by resignations and clock
forfeits, a round-robin, a knockout with byes and a replayed draw, the round's deadline, a
restart mid-round, an Octagion series, and the refusals members meet."""

from __future__ import annotations

import discord
import pytest

from bot.core.settings import Settings
from bot.dev.world import private_texts
from bot.features.tournaments import store as event_store
from bot.games.octagion import OctagionAdapter
from bot.games.octego import OctegoAdapter
from engines.octego import legal_moves

SEED = 99
EXTRA_NAMES = ("Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "tournaments.db"))  # game threads on


@pytest.fixture
def games():
    return [OctegoAdapter, OctagionAdapter]


# ------------------------------------------------------------------ helpers


def host_of(world):
    hosts = world.guild.create_role("Hosts", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("host", global_name="Host"), roles=[hosts])


def players(world, count: int) -> list:
    extra = [world.guild.add_member(world.env.create_user(n.lower(), global_name=n)) for n in EXTRA_NAMES]
    return [*world.members, *extra][:count]


def answer(result) -> str:
    return private_texts(result)[-1]


async def create(world, host, **options) -> int:
    world.platform.new_seed = lambda: SEED
    result = await host.slash(world.channel, "tournament create", **options)
    assert "is open" in answer(result), private_texts(result)
    found = await event_store.live_in_channel(world.platform.store, world.platform.sessions, world.channel.id)
    return found[-1].id


async def event(world, event_id):
    return await world.platform.sessions.load(event_id)


def card_of(world, session) -> discord.Message:
    return world.message(session.record.card_id)


async def join_all(world, event_id, members) -> None:
    session = await event(world, event_id)
    for member in members:
        result = await member.click(card_of(world, session), label="Join")
        assert "You joined" in answer(result), private_texts(result)


async def games_of_round(world, event_id, number) -> dict[int, object]:
    opened = await event_store.games_of_round(world.platform.store, event_id, number)
    return {table: await world.platform.sessions.load(sid) for table, sid in opened.items()}


def thread_of(world, game):
    return next(t for t in world.channel.threads if t.id == game.record.thread_id)


def member(world, everyone, user_id):
    return next(m for m in everyone if m.id == user_id)


async def resign(world, everyone, game, loser_id) -> None:
    result = await member(world, everyone, loser_id).slash(thread_of(world, game), "octego resign")
    assert "resign" in answer(result).lower(), private_texts(result)
    await world.env.settle()


async def move(world, everyone, game) -> None:
    game = await world.platform.sessions.load(game.id)
    seat = game.state.to_move if hasattr(game.state, "to_move") else world.platform.games["octego"].engine.to_act(game.state)[0]
    path = legal_moves(game.state, seat)[0]
    result = await member(world, everyone, game.players[seat]).slash(thread_of(world, game), "octego move", path=path)
    assert private_texts(result)[-1].startswith("Done."), private_texts(result)


# -------------------------------------------------------------------- tests


async def test_a_swiss_of_eight_runs_three_rounds_by_itself(world):
    host = host_of(world)
    everyone = players(world, 8)
    event_id = await create(world, host, game="octego", format="swiss", rounds=3, round_time="1h")
    await join_all(world, event_id, everyone)
    result = await host.click(card_of(world, await event(world, event_id)), label="Start")
    assert "has started" in answer(result), private_texts(result)
    await world.env.settle()
    games = await games_of_round(world, event_id, 1)
    assert len(games) == 4
    for game in games.values():
        assert game.status == "active" and game.record.thread_id is not None
        await resign(world, everyone, game, game.players[1])
    session = await event(world, event_id)
    assert len(session.state.rounds) == 2
