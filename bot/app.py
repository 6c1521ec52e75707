"""The bot: builds the command tree, opens the store, re-arms timers and syncs commands."""

from __future__ import annotations

import hashlib
import json
import logging
import sys
from collections.abc import Sequence
from inspect import Parameter, Signature
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import metrics
from bot.core.settings import Settings
from bot.core.store import Store
from bot.features.activity.launch import entry_point_command
from bot.features.activity.server import ActivityServer
from bot.features.activity.server import start_if_configured as start_activity_if_configured
from bot.features.challenge_menu import ChallengeMenu
from bot.features.departures import ServerDepartures
from bot.features.game_buttons import GameButtons
from bot.features.game_commands import GameCommands
from bot.features.help_commands import HelpCommands
from bot.features.learn.cog import Learn
from bot.features.member_commands import MemberCommands
from bot.features.privacy import PrivacyCommands
from bot.features.puzzles.cog import Puzzles
from bot.features.settings_commands import SettingsCommands
from bot.features.stop_command import StopCommand
from bot.features.tournaments.commands import TournamentCommands
from bot.platform import Platform
from bot.ui.adapter import COMPUTER_LEVEL_CHOICES, GameAdapter
from bot.ui.controls import SessionButton, SessionSelect
from bot.ui.replies import UserError, acknowledge, answer_error, reply_private, turned_away

log = logging.getLogger(__name__)

# Game text can never ping @everyone, @here or a role; only the players it names.
ALLOWED_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
PAIRS = ("partner", "opponent2")  # the two more players of a game in pairs


def all_games() -> list[type[GameAdapter]]:
    """Every game the bot hosts, in the order /games lists them."""
    from bot.games import all_games as load_games

    return load_games()


class OctagonTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every command waits its turn like the controls do (autocomplete only reads, so it never waits)."""
        return interaction.type is discord.InteractionType.autocomplete or not await turned_away(interaction)


class OctagonBot(commands.Bot):
    def __init__(self, settings: Settings, games: Sequence[type[GameAdapter]] | None = None):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=ALLOWED_MENTIONS,
            help_command=None,
            tree_cls=OctagonTree,
            **self.shard_options(settings),
        )
        self.settings = settings
        self.game_classes = list(all_games() if games is None else games)
        self.platform: Platform | None = None
        self.store: Store | None = None
        self.metrics: metrics.Metrics | None = None  # METRICS_PORT: /healthz and /metrics
        self.activity_server: ActivityServer | None = None  # ACTIVITY_PORT: the board played in Discord
        self.departures: ServerDepartures | None = None  # a server's data deleted after it removed the bot

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        return {}

    async def setup_hook(self) -> None:
        settings = self.settings
        self.store = await Store.open(settings.database, settings.database_pool_size, settings.shards)
        self.platform = Platform(self, self.store, self.game_classes, self.settings)
        self.metrics = await metrics.start_if_configured(self)
        self.activity_server = await start_activity_if_configured(self)
        self.controls = self.platform.controls
        self.add_dynamic_items(SessionButton, SessionSelect)
        self.add_listener(self.controls.on_interaction, "on_interaction")
        self.add_listener(self.platform.threads.on_raw_thread_delete, "on_raw_thread_delete")
        self.add_listener(self.platform.threads.on_guild_channel_delete, "on_guild_channel_delete")
        self.departures = ServerDepartures(self, self.store, settings.removed_server_days)
        for event in ("on_guild_remove", "on_guild_join", "on_ready"):
            self.add_listener(getattr(self.departures, event), event)
        await self.add_cog(self.platform.computer)
        await build_commands(self)
        self.tree.on_error = self.on_app_command_error
        await self.sync_commands()

    async def on_message(self, message: discord.Message, /) -> None:
        """Nothing: the bot is played through slash commands, buttons and forms, and has no prefix
        commands, so a message that mentions it ("@Bot how do I play?") is not a command it lacks."""

    async def on_ready(self) -> None:
        # Messages and timers go out only once the bot can talk to Discord; overdue timers fire
        # at once. A reconnect calls this again: starting twice arms nothing twice.
        await self.platform.start()
        log.info("ready as %s in %d servers", self.user, len(self.guilds))

    async def on_error(self, event_method: str, /, *args, **kwargs) -> None:
        error = sys.exc_info()[1]
        if error is not None and self.platform:
            self.platform.errors.append(error)
        log.exception("error in %s", event_method)

    async def close(self) -> None:
        await self.release()
        await super().close()

    async def release(self) -> None:
        """Stop timers and rendering and close the database (also when a simulated Discord,
        which never calls close(), lets the bot go). Safe to call twice."""
        if self.activity_server:
            board, self.activity_server = self.activity_server, None
            await board.stop()
        if self.metrics:
            served, self.metrics = self.metrics, None
            await served.stop()
        if self.departures:
            self.departures.stop()
        if self.platform:
            await self.platform.stop()
        if self.store:
            store, self.store = self.store, None
            await store.close()

    async def sync_commands(self) -> None:
        """Instant sync to the development server; global sync only when the tree changed
        (Discord limits command creates per day)."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            return
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        if self.settings.activity_url:  # Discord refuses an overwrite that drops the Activity's Entry Point
            payload.append(entry_point_command())
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        if await self.store.get_value("command_tree_hash") != digest:
            # The tree's own sync cannot send a command type discord.py does not know (the Entry
            # Point's 4): the same bulk overwrite, with the payload above.
            if self.application_id is None:
                raise app_commands.MissingApplicationID
            await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)
            async with self.store.transaction() as tx:
                await tx.set_value("command_tree_hash", digest)
            log.info("synced %d global commands", len(payload))

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure):
            await reply_private(interaction, "You do not have permission to use this command.")
            return
        original = getattr(error, "original", error)
        command = interaction.command and interaction.command.qualified_name
        await answer_error(interaction, original, self.platform.errors, f"/{command}")


class ShardedOctagonBot(OctagonBot, commands.AutoShardedBot):
    """The bot for ``SHARD_COUNT``/``SHARD_IDS``: this process runs those shards, and its store
    sweeps (timers, outbox, shown games) only the guilds they own."""

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        return {"shard_count": settings.shard_count, "shard_ids": list(settings.shards.ids)}


def create_bot(settings: Settings | None = None, games: Sequence[type[GameAdapter]] | None = None) -> OctagonBot:
    settings = settings or Settings.from_environment()
    if settings.shard_count is None:
        return OctagonBot(settings, games)
    return ShardedOctagonBot(settings, games)


async def build_commands(bot: OctagonBot) -> None:
    """The shared commands and buttons as cogs, then each game as a cog: `/<game>` with its own
    commands and challenge."""
    bot.tree.clear_commands(guild=None)
    platform = bot.platform
    assert platform is not None, "the platform is built in setup_hook, before the commands"
    shared = [
        HelpCommands(games=platform.games),
        StopCommand(sessions=platform.sessions, threads=platform.threads, games=platform.games),
        MemberCommands(
            store=platform.store,
            controls=platform.controls,
            replays=platform.replays,
            fair_use=platform.fair_use,
            notices=platform.notices,
            games=platform.games,
            bot=bot,
        ),
        PrivacyCommands(
            store=platform.store,
            sessions=platform.sessions,
            controls=platform.controls,
            games=platform.games,
            tournaments=platform.tournaments,
            notices=platform.notices,
            grace_days=bot.settings.removed_server_days,
        ),
        SettingsCommands(store=platform.store, turn_clock=platform.turn_clock, games=platform.games),
        ChallengeMenu(bot=bot, controls=platform.controls, challenges=platform.challenges, games=platform.games),
        GameCommands(
            sessions=platform.sessions,
            threads=platform.threads,
            table=platform.table,
            controls=platform.controls,
            games=platform.games,
        ),
        GameButtons(
            sessions=platform.sessions,
            controls=platform.controls,
            pictures=platform.pictures,
            games=platform.games,
            board=platform.board,
        ),
        TournamentCommands(
            runner=platform.tournaments,
            store=platform.store,
            sessions=platform.sessions,
            controls=platform.controls,
            threads=platform.threads,
            challenges=platform.challenges,
            games=platform.games,
        ),
        Learn(
            store=platform.store,
            sessions=platform.sessions,
            controls=platform.controls,
            menus=platform.menus,
            pictures=platform.pictures,
            challenge=platform.challenges.challenge,
            games=platform.games,
        ),
        Puzzles(
            store=platform.store,
            sessions=platform.sessions,
            controls=platform.controls,
            menus=platform.menus,
            pictures=platform.pictures,
            thinking=platform.thinking,
            games=platform.games,
        ),
    ]
    for cog in shared:
        await bot.add_cog(cog)
    for adapter in platform.games.values():
        if adapter.challengeable:
            adapter.app_command.add_command(challenge_command(platform, adapter))
        await bot.add_cog(adapter)


def challenge_command(platform: Platform, adapter: GameAdapter) -> app_commands.Command:
    """`/<game> challenge`, generated from what the game declares: an opponent (with a partner
    and the opponent's partner where pairs play), the game's extra options, and ``level``, the
    computer's strength, when the bot is challenged."""
    Member = discord.Member
    parameters = [
        Parameter("interaction", Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
        Parameter("opponent", Parameter.KEYWORD_ONLY, annotation=Member),
    ]
    described = {"opponent": "Who you play against (mention me to play the computer)"}
    if adapter.team_play:
        parameters += [Parameter(n, Parameter.KEYWORD_ONLY, annotation=Member | None, default=None) for n in PAIRS]
        described |= {"partner": "Four players: your partner (give opponent2 too)"}
        described |= {"opponent2": "Four players: your opponent's partner"}
    choices: dict[str, list[app_commands.Choice[str]]] = {"level": COMPUTER_LEVEL_CHOICES}
    for extra in adapter.offered_options:  # the game's own extras, then hints
        kind = (str | None) if extra.choices else (bool | None)
        parameters.append(Parameter(extra.name, Parameter.KEYWORD_ONLY, annotation=kind, default=None))
        described[extra.name] = extra.description
        if extra.choices:
            choices[extra.name] = [app_commands.Choice(name=shown, value=value) for shown, value in extra.choices]
    parameters.append(Parameter("level", Parameter.KEYWORD_ONLY, annotation=str | None, default=None))
    described["level"] = "How strong the computer plays, when you challenge me (default: medium)"
    parameters.append(Parameter("clock", Parameter.KEYWORD_ONLY, annotation=str | None, default=None))
    described["clock"] = "Time per turn: 30m, 4h, 2d (up to 7d) or off (default: the server's setting)"

    async def challenge(interaction: discord.Interaction, opponent: discord.Member, **chosen: Any) -> None:
        await acknowledge(interaction)
        level, clock = chosen.pop("level", None), chosen.pop("clock", None)
        partner, opponent2 = (chosen.pop(name, None) for name in PAIRS)
        if (partner is None) != (opponent2 is None):
            raise UserError("For four players give both `partner` and `opponent2`; for two players, neither.")
        invitees = [opponent] if partner is None else [opponent, partner, opponent2]
        users = dict(zip(("challenger", "opponent", *PAIRS), [interaction.user, *invitees], strict=False))
        options = adapter.chosen_options(chosen, {role: user.id for role, user in users.items()})
        await platform.context.challenge(interaction, adapter.name, invitees, options, level, clock=clock)

    # discord.py reads a command's options from its callback's signature: the callback takes
    # **chosen, so the signature it shows is synthesised from the parameters above. Guarded by
    # tests/bot/test_platform.py::test_every_challenge_is_generated_with_the_same_options.
    challenge.__signature__ = Signature(parameters)
    app_commands.describe(**described)(challenge)
    app_commands.choices(**choices)(challenge)
    players = "someone (or three people, in pairs)" if adapter.team_play else "someone"
    description = f"Challenge {players} to {adapter.title} (challenge me to play the computer)."
    return app_commands.Command(name="challenge", description=description[:100], callback=challenge)
