"""A member's own commands: /stats, /history, /replay, /record, /leaderboard and /notify."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.features.game_choices import board_choices, extras_of, game_choices, offer_choices
from bot.features.learn.newcomers import learned_mark
from bot.features.privacy_store import mention
from bot.features.puzzles.cog import stats_lines as puzzle_lines
from bot.features.results import PROVISIONAL_GAMES, rating_text
from bot.features.tournaments import store as event_store
from bot.ui.controls import SessionButton, view_of
from bot.ui.replies import acknowledge, escape, reply_private
from render.narration import with_article

if TYPE_CHECKING:
    from bot.core.store import Store
    from bot.features.fair_use import FairUse
    from bot.features.replays import Replays
    from bot.features.turn_notices import TurnNotices
    from bot.ui.adapter import GameAdapter
    from bot.ui.controls import Controls

LEADERBOARD_SIZE = 10
EVENTS_SHOWN = 5  # /stats: the latest tournaments a member played in
POST_LEADERBOARD = "post_leaderboard"  # the private leaderboard's button: its custom id carries the game


class MemberCommands(commands.Cog):
    def __init__(
        self,
        *,
        store: Store,
        controls: Controls,
        replays: Replays,
        fair_use: FairUse,
        notices: TurnNotices,
        games: dict[str, GameAdapter],
        bot: discord.Client,
    ):
        self.store, self.replays, self.fair_use, self.notices = store, replays, fair_use, notices
        self.games, self.bot = games, bot
        self.extras = extras_of(games)
        self.titles = {a.name: a.title for a in games.values()} | {e.name: e.title for e in self.extras.values()}
        offer_choices(self.history_command, game=game_choices(games))
        offer_choices(self.leaderboard_command, game=board_choices(games))
        controls.button(POST_LEADERBOARD, self._post_leaderboard)

    @app_commands.command(name="stats", description="Games played and won, per game, in this server.")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats_command(self, interaction: discord.Interaction, user: discord.Member | None = None) -> None:
        await acknowledge(interaction)
        user = user or interaction.user
        stats = await self.store.user_stats(interaction.guild_id, user.id)
        name = escape(user.display_name, 40) + await learned_mark(self.store, user, self.games)
        if not stats:
            text = f"{name} has not finished a game in this server yet."
        else:
            rows = [await self._stats_row(interaction.guild_id, user.id, g, *counts) for g, counts in stats.items()]
            total_played = sum(p for p, _ in stats.values())
            total_won = sum(w for _, w in stats.values())
            rows.append(f"**All games**: {total_won} won of {total_played}")
            for extra in self.extras.values():
                rows += await extra.stats_lines(interaction.guild_id, user.id)
            events = await event_store.events_of_member(self.store, interaction.guild_id, user.id, EVENTS_SHOWN)
            if events:
                rows.append("**Tournaments**: " + ", ".join(escape(event, 60) for event in events))
            text = "\n".join([f"## Stats of {name}", *rows])
        puzzles = await puzzle_lines(self.store, (user or interaction.user).id)  # shown without games too
        text = "\n".join([text, *puzzles])
        await reply_private(interaction, text)

    @app_commands.command(name="history", description="A member's last 10 finished games here, each with its replay.")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose games (default: yours)", game="Only this game")
    async def history_command(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        await acknowledge(interaction)
        member = member or interaction.user
        with self.fair_use.counting("history", interaction.guild_id, interaction.user.id):
            text, view = await self.replays.history_message(interaction, member, game.value if game else None)
            await reply_private(interaction, text, view=view)

    @app_commands.command(name="replay", description="Watch a finished game again, as an animated picture.")
    @app_commands.guild_only()
    @app_commands.describe(game_id="The game's number (see /history); by default this channel's last finished game")
    async def replay_command(
        self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1] | None = None
    ) -> None:
        await acknowledge(interaction)
        await self.replays.post_replay(interaction, game_id, public=True)

    @app_commands.command(name="record", description="A finished game's record as a text file, one line per move.")
    @app_commands.guild_only()
    @app_commands.describe(game_id="The game's number (see /history); by default this channel's last finished game")
    async def record_command(
        self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1] | None = None
    ) -> None:
        await acknowledge(interaction)
        replays = self.replays
        await replays.send_record(interaction, await replays.finished(interaction, game_id))

    async def _stats_row(self, guild_id: int | None, user_id: int, game: str, played: int, won: int) -> str:
        """ "**Octego**: 3 won of 5 · rating 1568": the rating once the member has a rated game."""
        row = f"**{self.titles.get(game, game)}**: {won} won of {played}"
        rated = await self.store.ratings(guild_id, game, [user_id])
        return f"{row} · rating {rating_text(rated[0])}" if rated else row

    @app_commands.command(name="leaderboard", description="This server's ranking for a game, shown to you first.")
    @app_commands.guild_only()
    async def leaderboard_command(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await acknowledge(interaction)
        post = SessionButton(0, POST_LEADERBOARD, game.value, label="Post in the channel", emoji="📣")
        text = await self.leaderboard_text(interaction.guild_id, game.value)
        await reply_private(interaction, text, view=view_of([post]))

    async def _post_leaderboard(self, interaction: discord.Interaction, _: int, game: str) -> None:
        """The private leaderboard's button: the board as it is now, posted for everyone."""
        if game not in self.titles:
            await reply_private(interaction, "That leaderboard is no longer available.")
            return
        text = await self.leaderboard_text(interaction.guild_id, game)
        shared = f"{text}\n-# Shared by {escape(interaction.user.display_name, 40)}"
        await interaction.followup.send(shared, allowed_mentions=discord.AllowedMentions.none())
        await interaction.edit_original_response(content=f"{text}\n-# Posted in the channel.", view=None)

    async def leaderboard_text(self, guild_id: int | None, game: str) -> str:
        """The server's best members at ``game`` (the computer never among them)."""
        if game in self.extras:
            return await self.extras[game].leaderboard_text(guild_id, LEADERBOARD_SIZE)
        title = self.titles.get(game, game)
        computer = self.bot.user.id if self.bot.user else None
        ranked = await self.store.leaderboard(guild_id, game, LEADERBOARD_SIZE + 1)
        ranked = [rating for rating in ranked if rating.user_id != computer][:LEADERBOARD_SIZE]
        if not ranked:
            return f"Nobody has {with_article(title)} rating here yet: ratings come from games between members."
        lines = [f"## {title} leaderboard"]
        for place, rating in enumerate(ranked, start=1):
            who = mention(rating.user_id)  # a forgotten member is "a former member"
            lines.append(f"{place}. {who}: {rating_text(rating)} · {rating.wins} won of {rating.games}")
        lines.append(f"-# Games against the computer are not rated; a rating settles after {PROVISIONAL_GAMES}.")
        return "\n".join(lines)

    @app_commands.command(name="notify", description="Whether I ping you with a new message when it is your turn.")
    @app_commands.guild_only()
    @app_commands.describe(pings="on (the default) or off; clock warnings still mention you")
    async def notify_command(self, interaction: discord.Interaction, pings: Literal["on", "off"]) -> None:
        await acknowledge(interaction)
        enabled = pings == "on"
        await self.notices.set_wanted(interaction.guild_id, interaction.user.id, enabled)
        if enabled:
            text = "🔔 I will ping you in a game's thread when it is your move (and when a round starts)."
        else:
            text = '🔕 No more "your move" pings in this server; turn clock warnings still mention you.'
        await reply_private(interaction, text)
