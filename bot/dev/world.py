"""A simulated Discord server with four members, shared by the tests and the benchmarks: one
#games channel and Ada, Bo, Cy and Di, so one person can take every seat. The local playground
builds its own (``build_playground_world``): a channel per game as well, the same ids at every start."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

MEMBER_NAMES = ("Ada", "Bo", "Cy", "Di")


@dataclass
class World:
    env: Any  # simcord.Env
    guild: Any  # simcord.GuildHandle
    channel: Any  # simcord.ChannelHandle
    ada: Any  # simcord.MemberActor, and so on
    bo: Any
    cy: Any
    di: Any

    @property
    def bot(self):
        return self.env.bot

    @property
    def platform(self):
        return self.env.bot.platform

    @property
    def members(self) -> list[Any]:
        return [self.ada, self.bo, self.cy, self.di]

    async def session(self) -> Any:
        """The live session of #games (a GameSession), or None when nothing runs there."""
        return await self.platform.sessions.live_in_channel(self.channel.id)

    async def set_state(self, session_id: int, state: Any) -> None:
        """Test set-up only: put a running game in a chosen position, shown on its game message
        before the caller goes on (the outbox sends from a task the simulator does not wait for)."""
        async with self.platform.sessions.change(session_id) as change:
            change.session.state = state
            change.show()
        await self.platform.outbox.flush(session_id)

    def message(self, message_id: int) -> Any:
        """A message of #games as it is now (edits included)."""
        return next(m for m in self.channel.history() if m.id == message_id)

    async def restart(self, settings, games=None) -> None:
        """Stop the bot and start a fresh process-equivalent on the same database."""
        from bot.app import create_bot

        old = self.env.bot
        await old.platform.stop()  # as a process that ends: nothing of the old bot sends any more
        await self.env.restart_bot(create_bot(settings, games))
        await old.release()


def build_world(env: Any) -> World:
    guild = env.create_guild("Octagon Club")
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name.lower(), global_name=name)) for name in MEMBER_NAMES]
    return World(env, guild, channel, *members)


@dataclass
class PlaygroundWorld(World):
    """The playground's server: #games (``channel``) and a channel per game, by name."""

    channels: dict[str, Any] = dataclasses.field(default_factory=dict)


def playground_channel_names() -> list[str]:
    """#games, then one channel per game in the order /games lists them (a new game is appended,
    so the channels before it keep their ids)."""
    from engines.registry import games

    return ["games", *games()]


def build_playground_world(env: Any) -> PlaygroundWorld:
    """The playground's server, built before the bot connects, in the same order at every start:
    SimCord's ids are (virtual millisecond << 22 | a sequence), its clock starts at the same
    instant in every process, so the same steps give the same guild, channel and member ids,
    and the games stored by the previous run are found in their channels again.
    Ada owns the server, so she has Manage Server and /settings is hers to try."""
    users = [env.create_user(name.lower(), global_name=name) for name in MEMBER_NAMES]
    guild = env.create_guild("Octagon Club", owner=users[0])
    members = [guild.add_member(user) for user in users]
    channels = {name: guild.create_text_channel(name, topic=channel_topic(name)) for name in playground_channel_names()}
    return PlaygroundWorld(env, guild, channels["games"], *members, channels=channels)


def channel_topic(channel: str) -> str:
    if channel == "games":
        return "Any game, and /games, /stats, /leaderboard; /settings is for Ada, who owns the server."
    return f"Type /{channel} to start a game here."


def private_messages(result: Any) -> list[Any]:
    """The private (ephemeral) answers to an interaction: its response and follow-ups."""
    return [m for m in (result.response, *result.followups) if m is not None and m.flags.ephemeral]


def private_texts(result: Any) -> list[str]:
    return [m.content for m in private_messages(result)]


def bot_member(world: World) -> Any:
    """The bot itself as a member, to mention it as an opponent (a challenge to the computer)."""
    from simcord import UserHandle
    from simcord.actors import MemberActor

    handle = UserHandle(world.env, world.env.backend.bot_user)
    if handle.id not in world.env.backend.get_guild(world.guild.id).members:
        world.guild.add_member(handle)  # in a real server the bot is a member of its guilds
    return MemberActor(world.env, world.guild, handle)


def menu_endings(menus: Any, menu: Any, engine: Any, session: Any, seat: int, chosen: tuple = ()) -> list[dict]:
    """Every action ``menu`` can end on, walking every choice it offers from ``chosen`` (tests of a
    game's menus). Each option shown is checked on the way: a label, a value that fits a custom id,
    a description that computes; a step of several choices at once is checked on a sample."""
    if not chosen:  # the walk replays from the start for every path: list the actions once
        listed = menus.actions(menu, engine, session, seat)
        menu = dataclasses.replace(menu, actions=lambda state, seat: listed)
    at, index = menus.narrow(menu, engine, session, seat, list(chosen))
    if index is None:
        return [at.actions[0]]
    step = menu.steps[index]
    values = step.values(at.actions)
    for value in values:
        assert "|" not in value
        assert len(f"s:{session.id}:menu:" + "|".join([menu.name, "99999", *chosen, value])) <= 100
        assert step.label is None or step.label(at, value)
        if step.description:
            step.description(at, value)
    if step.many:  # each action is its own set of choices: a sample is narrowed to exactly it
        for action in at.actions[:: max(1, len(at.actions) // 6)]:
            picked = "+".join(map(str, step.key(action)))
            assert menus.narrow(menu, engine, session, seat, [*chosen, picked])[0].actions == [action]
        return list(at.actions)
    return [found for value in values for found in menu_endings(menus, menu, engine, session, seat, (*chosen, value))]
