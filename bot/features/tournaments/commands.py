"""/tournament: create, join, leave, start, standings, withdraw, history, and the host's pause,
resume, remove and end (a cog); the card's buttons run the same code."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines.tournament as kit
from bot.core.change import GameSession
from bot.core.errors import UserError
from bot.features.tournaments import store as event_store
from bot.features.tournaments.cards import JOIN, LEAVE, STANDINGS_BUTTON, START, summary
from bot.features.tournaments.config import (
    MAX_SERIES_RACES,
    SERIES,
    EventConfig,
    event_name,
    parse_round_time,
    parse_start,
)
from bot.features.tournaments.kinds import event_of
from bot.features.tournaments.links import EventLink
from bot.ui.adapter import GameAdapter
from bot.ui.replies import acknowledge, reply_private
from engines.tournament import FORMAT_NAMES

if TYPE_CHECKING:
    from bot.core.sessions import Sessions
    from bot.core.store import Store
    from bot.features.challenges import Challenges
    from bot.features.threads import GameThreads
    from bot.features.tournaments.runner import Tournaments
    from bot.ui.controls import Controls

HOST_ROLE_KEY = "tournament_role:{guild}"
HISTORY_SIZE = 10
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value=kit.SWISS),
    app_commands.Choice(name="Round-robin", value=kit.ROUND_ROBIN),
    app_commands.Choice(name="Knockout", value=kit.KNOCKOUT),
    app_commands.Choice(name="Series (Octagion)", value=SERIES),
]
SCORING_CHOICES = [
    app_commands.Choice(name="By finishing order", value=kit.PLACING),
    app_commands.Choice(name="By each race's score", value=kit.SCORE),
]


@app_commands.guild_only()
class TournamentCommands(
    commands.GroupCog,
    group_name="tournament",
    group_description="Swiss, round-robin and knockout events, run by the bot.",
):
    def __init__(
        self,
        *,
        runner: Tournaments,
        store: Store,
        sessions: Sessions,
        controls: Controls,
        threads: GameThreads,
        challenges: Challenges,
        games: dict[str, GameAdapter],
    ):
        self.runner = runner
        self.store, self.sessions, self.threads, self.challenges = store, sessions, threads, challenges
        self.games = games
        controls.button(JOIN, self._join_button, ack="private")
        controls.button(LEAVE, self._leave_button, ack="private")
        controls.button(START, self._start_button, ack="private")
        controls.button(STANDINGS_BUTTON, self._standings_button, ack="private")

    # ------------------------------------------------------------ creating
    @app_commands.command(
        name="create", description="Create a tournament in this channel (Manage Server, or the host role)."
    )
    @app_commands.describe(
        game="The game played",
        format="Swiss, round-robin, knockout; Octagion plays a series of races",
        name="The event's name (default: the game and format)",
        rounds="Swiss: rounds (default from the players); a series: races (default 3)",
        round_time="Time per round, e.g. 1h or 1d (default 1d); each game gets a matching turn clock",
        start="When it starts: in 30m, 2h, or a UTC time such as 18:00 (default: when you press Start)",
        rated="Whether its games count for the ratings (default yes)",
        computer="Whether the computer plays too (default no)",
        double="Round-robin: everyone meets everyone twice, sides swapped",
        scoring="A series: points by finishing order (default) or by each race's score",
    )
    @app_commands.choices(format=FORMAT_CHOICES, scoring=SCORING_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        format: app_commands.Choice[str],
        name: app_commands.Range[str, 1, 80] | None = None,
        rounds: app_commands.Range[int, 1, 63] | None = None,
        round_time: str | None = None,
        start: str | None = None,
        rated: bool = True,
        computer: bool = False,
        double: bool = False,
        scoring: app_commands.Choice[str] | None = None,
    ) -> None:
        await acknowledge(interaction)
        await self._check_may_host(interaction)
        adapter = self.games.get(game)
        if adapter is None:
            raise UserError("Pick one of the games in the list.")
        config = self._config(interaction, adapter, format.value, name, rounds, round_time, start, rated, computer)
        config.double = double
        config.scoring = scoring.value if scoring else kit.PLACING
        in_thread, reason = await self.threads.placement(interaction)
        if not in_thread:
            why = reason.split(", so")[0] if reason else "game threads are off here"
            raise UserError(
                f"A tournament plays each game in a thread of its own, and here {why}. Try another channel."
            )
        guild_id, channel_id = where(interaction)
        opened = await self.runner.create(
            guild_id=guild_id, channel_id=channel_id, host_id=interaction.user.id, config=config
        )
        await self.challenges.first_message_or_close(interaction, opened)
        await reply_private(
            interaction,
            f"🏆 **{config.name}** is open: players join with the card's **Join** button (or `/tournament join`).",
        )

    @staticmethod
    def _config(
        interaction: discord.Interaction,
        adapter: GameAdapter,
        fmt: str,
        name: str | None,
        rounds: int | None,
        round_time: str | None,
        start: str | None,
        rated: bool,
        computer: bool,
    ) -> EventConfig:
        if fmt == SERIES and not adapter.simultaneous:
            raise UserError("A series is for Octagion's races; pick Swiss, round-robin or knockout for this game.")
        if fmt != SERIES and (adapter.simultaneous or adapter.engine.min_players > 2 or adapter.engine.max_players < 2):
            raise UserError(f"{adapter.title} is raced by everyone at once: pick the **Series** format.")
        if rounds is not None and fmt not in (kit.SWISS, SERIES):
            raise UserError(f"A {FORMAT_NAMES[fmt]} tournament's rounds follow from its players: leave `rounds` out.")
        if fmt == SERIES and rounds is not None and rounds > MAX_SERIES_RACES:
            raise UserError(f"A series has at most {MAX_SERIES_RACES} races.")
        if computer and fmt == SERIES:
            raise UserError("A series is raced by members only: leave `computer` out.")
        if computer and not adapter.has_computer:
            raise UserError(f"{adapter.title} has no computer player.")
        now = interaction.created_at
        return EventConfig(
            name=event_name(name, adapter.title, fmt),
            game=adapter.name,
            format=fmt,
            round_seconds=parse_round_time(round_time),
            rounds=rounds,
            start_at=parse_start(start, now),
            rated=rated,
            computer=computer,
        )

    @create.autocomplete("game")
    async def game_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=adapter.title, value=adapter.name)
            for adapter in self.games.values()
            if current.lower() in adapter.title.lower()
        ][:25]

    async def _check_may_host(self, interaction: discord.Interaction) -> None:
        if interaction.permissions.manage_guild:
            return
        role = await self.store.get_value(HOST_ROLE_KEY.format(guild=interaction.guild_id))
        roles = {r.id for r in getattr(interaction.user, "roles", [])}
        if role is not None and int(role) in roles:
            return
        raise UserError(
            "Only members with Manage Server (or the tournament host role, `/settings tournament_role`) can host."
        )

    # ------------------------------------------------------------ joining
    @app_commands.command(name="join", description="Join the tournament open in this channel.")
    async def join(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        found = await self._find(interaction, status="lobby")
        await reply_private(interaction, await self.runner.join(found.id, interaction.user))

    @app_commands.command(name="leave", description="Leave the tournament open in this channel before it starts.")
    async def leave(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        found = await self._find(interaction, status="lobby")
        await reply_private(interaction, await self.runner.leave(found.id, interaction.user.id))

    @app_commands.command(name="start", description="Start the tournament now (its host).")
    async def start(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        found = await self._find(interaction, status="lobby")
        await reply_private(interaction, await self.runner.start(found.id, interaction.user.id))

    @app_commands.command(
        name="withdraw", description="Withdraw from the tournament: your remaining games are forfeited."
    )
    async def withdraw(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        found = await self._find(interaction)
        await reply_private(interaction, await self.runner.withdraw(found.id, interaction.user.id))

    # ------------------------------------------------------------ the host
    @app_commands.command(name="pause", description="Pause the tournament: no new round starts (its host).")
    async def pause(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        found = await self._find(interaction, status="active")
        await reply_private(interaction, await self.runner.pause(found.id, interaction.user.id, True))

    @app_commands.command(name="resume", description="Resume a paused tournament (its host).")
    async def resume(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        found = await self._find(interaction, status="active")
        await reply_private(interaction, await self.runner.pause(found.id, interaction.user.id, False))

    @app_commands.command(name="remove", description="Remove a player: their remaining games are forfeited (its host).")
    @app_commands.describe(player="The player to remove")
    async def remove(self, interaction: discord.Interaction, player: discord.User) -> None:
        await acknowledge(interaction)
        found = await self._find(interaction)
        answer = await self.runner.withdraw(found.id, player.id, by=interaction.user.id, reason="removed by the host")
        await reply_private(interaction, answer)

    @app_commands.command(
        name="end", description="End the tournament now; running games are stopped, not played (its host)."
    )
    async def end(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        found = await self._find(interaction)
        await reply_private(interaction, await self.runner.end(found.id, interaction.user.id))

    # ------------------------------------------------------------ reading
    @app_commands.command(name="standings", description="The tournament's standings, privately.")
    async def standings(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        found = await self._find(interaction, live_only=False)
        await self._send_standings(interaction, found)

    @app_commands.command(name="history", description="This server's past tournaments and their winners.")
    async def history(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        past = await event_store.past_in_guild(self.store, self.sessions, where(interaction)[0], HISTORY_SIZE)
        if not past:
            raise UserError(
                "No tournament has finished in this server yet. A host starts one with `/tournament create`."
            )
        titles = {name: adapter.title for name, adapter in self.games.items()}
        lines = ["🏆 **Past tournaments**", *(summary(session, titles) for session in past)]
        await reply_private(interaction, "\n".join(lines))

    async def _send_standings(self, interaction: discord.Interaction, session: GameSession) -> None:
        config = EventConfig.of(session.meta.options)
        if session.state is None:
            names = ", ".join(session.meta.names) or "nobody yet"
            raise UserError(f"**{config.name}** has not started: {len(session.players)} joined so far ({names}).")
        picture = await self.runner.messages.standings_picture(session)
        text = "\n".join([f"🏆 **{config.name}**", *event_of(session.state).standings_lines()])
        await reply_private(interaction, text, picture)

    # ------------------------------------------------------------ buttons
    async def _join_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        await reply_private(interaction, await self.runner.join(session_id, interaction.user))

    async def _leave_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        await reply_private(interaction, await self.runner.leave(session_id, interaction.user.id))

    async def _start_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        await reply_private(interaction, await self.runner.start(session_id, interaction.user.id))

    async def _standings_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session = await self.sessions.load(session_id)
        await self._send_standings(interaction, session)

    # ------------------------------------------------------------ finding it
    async def _find(
        self, interaction: discord.Interaction, *, status: str | None = None, live_only: bool = True
    ) -> GameSession:
        """The tournament a command here means: this channel's (the caller's, when several run),
        or the one whose game this thread plays; with ``live_only`` False, else the latest one."""
        store, sessions = self.store, self.sessions
        channel_id = where(interaction)[1]
        live = await event_store.live_in_channel(store, sessions, channel_id)
        if not live:
            live = await self._of_thread(interaction)
        if status is not None:
            live = [s for s in live if s.status == status] or live
        if len(live) > 1:
            mine = [s for s in live if interaction.user.id in s.players or interaction.user.id == s.record.host_id]
            live = mine if len(mine) == 1 else live
        if len(live) == 1:
            return live[0]
        if len(live) > 1:
            names = ", ".join(f"**{s.meta.options['name']}**" for s in live)
            raise UserError(f"Several tournaments run here ({names}): use the buttons on its card.")
        if not live_only:
            latest = await event_store.latest_in_channel(store, sessions, channel_id)
            if latest is not None:
                return latest
        raise UserError("No tournament is running in this channel. A host starts one with `/tournament create`.")

    async def _of_thread(self, interaction: discord.Interaction) -> list[GameSession]:
        """In a tournament game's thread: that game's tournament."""
        record = await self.store.live_session(where(interaction)[1])
        if record is None:
            return []
        game = await self.sessions.load(record.id)
        link = EventLink.of(game.meta)
        if link is None:
            return []
        event = await self.sessions.load(link.id)
        return [event] if event.status in ("lobby", "active") else []


def where(interaction: discord.Interaction) -> tuple[int, int]:
    """The server and the channel of a command (the cog is for servers only: both are there)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError("Tournaments are run in a server's channels.")
    return interaction.guild_id, interaction.channel_id
