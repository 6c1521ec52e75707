"""Octagion Daily on Discord: one word a day for the whole server, played privately.

Thin glue: the rules (the day's word, the score, streaks) live in ``engines.octagion``, the
pictures and texts in ``render.octagion_daily``. The Octagion adapter hooks it in: its commands
are `/octagion daily play` and `/octagion daily results` (a subcommand group: Discord cannot
have `/octagion daily` as a command beside subcommands under it), its server setting is
`/settings daily_channel`, and /stats and /leaderboard ask it for streaks.

plays       a member's play: the puzzle, answers, the countdown, the score
boards      a day's board, the daily channel, the streaks
store       its SQL: a play per member and day, the server's daily channel
migrations  its tables, numbered on their own (run by the store after the core's)

Storage. Each member's play of a day is a session (game ``octagion``, status ``daily``, then
``daily_over``; neither is a live status, so a play never occupies its channel). Its lock keeps
one member's answers in order, its countdown is a durable timer, and each change (an answer,
the end) commits in one transaction with the play's row in ``daily_plays`` (a day's board and
the streaks are read from that table) and, at the end, the result row that /stats counts
under ``octagion_daily``, apart from the race.

Fairness. Everything about a play is private (ephemeral). An answer is saved unchecked: it is
scored when the member gives a final answer or when the countdown runs out. A day's board
(variants, scores, the solution) is shown only to members who finished that day's puzzle,
until the day is over for everyone (its last possible countdown has run out); the day's line
in the daily channel only counts players.

The daily channel. One more session (status ``daily_channel``) posts there: after each day is
over, a durable timer posts that day's board and a line for the new day's puzzle, which is
edited as members finish it ("12 members played today").
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.games.octagion.daily.boards import Boards
from bot.games.octagion.daily.names import DAILY, TITLE
from bot.games.octagion.daily.plays import Plays
from bot.ui.context import GameContext


class OctagionDaily:
    """The daily puzzle beside the race, as the platform sees an adapter's extra: its name and
    title, /stats lines, /leaderboard text and /settings commands; the race's cog calls
    :meth:`play` and :meth:`results` for its `daily` subcommands."""

    name, title = DAILY, TITLE

    def __init__(self, ctx: GameContext):
        self.plays = Plays(ctx)
        self.boards = Boards(ctx)

    async def play(self, interaction: discord.Interaction, cards: str | None, final: bool) -> None:
        await self.plays.play(interaction, cards, final)

    async def results(self, interaction: discord.Interaction, when: str | None) -> None:
        await self.boards.results(interaction, when)

    def settings_commands(self) -> list[app_commands.Command]:
        return self.boards.settings_commands()

    async def stats_lines(self, guild_id: int, user_id: int) -> list[str]:
        return await self.boards.stats_lines(guild_id, user_id)

    async def leaderboard_text(self, guild_id: int, limit: int) -> str:
        return await self.boards.leaderboard_text(guild_id, limit)


__all__ = ["DAILY", "TITLE", "OctagionDaily"]
