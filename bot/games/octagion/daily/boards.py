"""Octagion Daily's boards: `/octagion daily results` (public once the day is over, before that
only for members who finished it), the daily channel (`/settings daily_channel`: a line for each
day's puzzle, edited as members finish it, and the day's board once it is over), and the
streaks /stats and /leaderboard show."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.core.attachments import as_file
from bot.core.outbox import Outgoing
from bot.core.sessions import Change, GameSession, SessionMeta
from bot.core.store import TimerRecord
from bot.games.octagion.daily.names import (
    BOARD_POST,
    CHANNEL,
    CHANNEL_OFF,
    DAY_OVER,
    GAME,
    TITLE,
    TODAY_EDIT,
    TODAY_POST,
)
from bot.games.octagion.daily.store import DailyPlay, DailyStore, set_channel_session
from bot.ui.context import GameContext
from bot.ui.replies import BUSY_TEXT, NAME_LIMIT, UserError, acknowledge, escape, fit, reply_private
from engines.octagion import (
    DAILY_EPOCH,
    DailyEntry,
    Streak,
    daily_word,
    day_closes_at,
    day_is_over,
    puzzle_day,
    puzzle_number,
    ranked,
    score_daily,
    solution,
    streaks,
)
from render import octagion_daily as show

BOARD_LINES = 10  # members listed in a board's text
WAIT_FOR_PLAYS_SECONDS, MAX_WAITS = 30, 10  # a board waits for plays still being scored (a late timer)


def _entry(play: DailyPlay) -> DailyEntry:
    streak = Streak(play.streak or 0, play.won_streak or 0)
    return DailyEntry(play.user_id, play.name, play.score, play.seconds, play.eight_cells, streak)


class Boards:
    """A day's board, the daily channel and the streaks."""

    def __init__(self, ctx: GameContext):
        self.ctx = ctx
        self.sessions = ctx.sessions
        self.tables = DailyStore(ctx.reads)
        ctx.timers.register(DAY_OVER, self._day_over)
        ctx.outbox.register(BOARD_POST, self._build_board_post)
        ctx.outbox.register(TODAY_POST, self._build_today, self._remember_today)
        ctx.outbox.register(TODAY_EDIT, self._build_today_edit, self._remember_today, coalesce=True)

    def now(self) -> datetime:
        return self.sessions.clock()

    # ------------------------------------------------------------ /octagion daily results

    async def results(self, interaction: discord.Interaction, when: str | None) -> None:
        """A day's board: public once the day is over; before that private, and only for members
        who finished that day's puzzle (the others learn how many played, nothing more)."""
        now = self.now()
        day = self._day_asked(when, puzzle_day(now))
        over = day_is_over(day, now)
        await acknowledge(interaction, private=not over)
        guild, user = interaction.guild_id, interaction.user.id
        if not over:
            mine = await self.tables.play(guild, day, user)
            if mine is None or not mine.finished:
                played = await self.tables.players(guild, day)
                await reply_private(interaction, self._spoiler_free(day, played))
                return
        outgoing = await self._board_message(guild, day, viewer=user)
        await self._send(interaction, outgoing, private=not over)

    @staticmethod
    def _spoiler_free(day: date, played: int) -> str:
        number = puzzle_number(day)
        who = {0: "Nobody here has", 1: "1 member here has"}.get(played, f"{played} members here have")
        return (
            f"**{show.title(number, day)}**: {who} played it so far. The board shows answers and scores, so "
            f"you see it once you played (`/octagion daily play`) or when the day is over for everyone "
            f"(<t:{int(day_closes_at(day).timestamp())}:R>)."
        )

    @staticmethod
    def _day_asked(text: str | None, today: date) -> date:
        """``today``, ``yesterday``, a date (2026-01-05) or a puzzle number (#5)."""
        typed = (text or "today").strip().lower()
        try:
            if typed in ("today", "yesterday"):
                day = today - timedelta(days=1 if typed == "yesterday" else 0)
            elif typed.lstrip("#").isdigit():
                day = DAILY_EPOCH + timedelta(days=int(typed.lstrip("#")) - 1)
            else:
                day = date.fromisoformat(typed)
        except (ValueError, OverflowError):
            day = None
        if day is None or not DAILY_EPOCH <= day <= today:
            raise UserError(
                f"Give a day from {DAILY_EPOCH.isoformat()} (#1) to today (#{puzzle_number(today)}): "
                "e.g. `yesterday`, `2026-01-05` or `#5`."
            )
        return day

    async def _board_message(self, guild_id: int, day: date, viewer: int | None) -> Outgoing:
        """A day's board as a picture and as text (the viewer's own row highlighted)."""
        word, number = daily_word(day), puzzle_number(day)
        board = ranked(_entry(play) for play in await self.tables.board(guild_id, day))
        if not board:
            return Outgoing(f"**{show.title(number, day)}**: nobody here played it. The word was **{word}**.")
        scores = [score_daily(entry.cells, word, None) for _, entry in board]
        answer = solution(word)
        picture = await self.ctx.render(show.render_daily_board, number, day, word, board, scores, answer, viewer)
        shown = [(rank, dataclasses.replace(entry, name=escape(entry.name, NAME_LIMIT))) for rank, entry in board]
        return Outgoing(show.board_text(number, day, word, shown, answer, BOARD_LINES), [picture])

    @staticmethod
    async def _send(interaction: discord.Interaction, outgoing: Outgoing, private: bool) -> None:
        if private:
            await reply_private(interaction, outgoing.content, outgoing.pictures[0] if outgoing.pictures else None)
            return
        files = [as_file(picture) for picture in outgoing.pictures]
        await interaction.followup.send(
            fit(outgoing.content), files=files, allowed_mentions=discord.AllowedMentions.none()
        )

    # ------------------------------------------------------------ the daily channel

    def settings_commands(self) -> list[app_commands.Command]:
        """`/settings daily_channel`, added to the shared /settings group."""

        @app_commands.command(name="daily_channel", description="Where Octagion Daily's boards are posted each day.")
        @app_commands.describe(channel="The channel for each day's board and today's line (leave out to stop posting)")
        @app_commands.checks.has_permissions(manage_guild=True)  # default_permissions can be overridden per server
        async def daily_channel(interaction: discord.Interaction, channel: discord.TextChannel | None = None) -> None:
            await acknowledge(interaction)
            await self.set_channel(interaction, channel)

        return [daily_channel]

    async def set_channel(self, interaction: discord.Interaction, channel: discord.abc.GuildChannel | None) -> None:
        """Start posting in ``channel`` (None: stop): today's line at once, each board after its day."""
        guild = interaction.guild_id
        old = await self.tables.channel_session(guild)
        if old is not None:
            await self._close_channel(old)
        if channel is None:
            await self.ctx.write_settings(lambda tx: set_channel_session(tx, guild, None))
            await reply_private(interaction, f"{TITLE} boards are no longer posted in this server.")
            return
        today = puzzle_day(self.now())
        async with self.sessions.open(
            game=GAME,
            guild_id=guild,
            channel_id=channel.id,
            host_id=interaction.user.id,
            players=[],
            status=CHANNEL,
            meta=SessionMeta(),
            busy_text=lambda _: BUSY_TEXT,
        ) as change:
            change.add_timer(DAY_OVER, day_closes_at(today), {"day": today.isoformat()})
            change.post(TODAY_POST, {"day": today.isoformat()})
            change.during_commit(lambda tx: set_channel_session(tx, guild, change.record.id))
        closes = day_closes_at(today).strftime("%H:%M")
        await reply_private(
            interaction,
            f"{TITLE} will be posted in <#{channel.id}>: a line for each day's puzzle (how many played, no "
            f"spoilers) and, once the day is over ({closes} UTC), its board.",
        )

    async def _close_channel(self, session_id: int) -> None:
        try:
            async with self.sessions.change(session_id) as change:
                if change.record.status == CHANNEL:
                    change.record.status = CHANNEL_OFF
                    change.cancel_timers()
        except UserError:
            pass  # already gone

    async def _day_over(self, change: Change, timer: TimerRecord) -> None:
        """A day is over: post its board and the next day's line, and wait for the next day.
        After a long stop only the latest day over is posted; plays still being scored (their
        timers were late too) are waited for, a little."""
        if change.record.status != CHANNEL:
            return
        if await self.tables.channel_session(change.record.guild_id) != change.record.id:
            change.record.status = CHANNEL_OFF  # replaced by another channel meanwhile
            return
        day = max(date.fromisoformat(timer.payload["day"]), puzzle_day(change.now) - timedelta(days=1))
        if not day_is_over(day, change.now):
            day -= timedelta(days=1)
        waits = timer.payload.get("waits", 0)
        if waits < MAX_WAITS and await self.tables.unfinished(change.record.guild_id, day):
            later = change.now + timedelta(seconds=WAIT_FOR_PLAYS_SECONDS)
            change.add_timer(DAY_OVER, later, {"day": day.isoformat(), "waits": waits + 1})
            return
        following = day + timedelta(days=1)
        change.post(TODAY_EDIT, {"day": day.isoformat(), "over": True})  # its line stops inviting
        change.post(BOARD_POST, {"day": day.isoformat()})
        change.post(TODAY_POST, {"day": following.isoformat()})
        change.add_timer(DAY_OVER, day_closes_at(following), {"day": following.isoformat()})

    async def _build_board_post(self, session: GameSession, payload: dict[str, Any]) -> Outgoing:
        return await self._board_message(session.record.guild_id, date.fromisoformat(payload["day"]), viewer=None)

    async def _build_today(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        if session.status != CHANNEL:
            return None
        day = date.fromisoformat(payload["day"])
        played = await self.tables.players(session.record.guild_id, day)
        return Outgoing(show.today_text(puzzle_number(day), day, played, over=payload.get("over", False)))

    async def _build_today_edit(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        """Today's line with the new count, if the channel's latest line is that day's."""
        if session.record.message_id is None or session.meta.options.get("today") != payload["day"]:
            return None
        outgoing = await self._build_today(session, payload)
        if outgoing is not None:
            outgoing.edit = session.record.message_id
        return outgoing

    @staticmethod
    async def _remember_today(change: Change, payload: dict[str, Any], message: discord.Message) -> None:
        change.record.message_id = message.id
        change.meta.options["today"] = payload["day"]

    # ------------------------------------------------------------ /stats and /leaderboard

    async def stats_lines(self, guild_id: int, user_id: int) -> list[str]:
        """A member's streaks, current and longest, for /stats."""
        history = await self.tables.history(guild_id, user_id)
        if not history:
            return []
        summary = streaks(history, puzzle_day(self.now()))
        current, longest = summary.current, summary.longest
        return [
            f"**{TITLE} streaks**: now {_days(current.played)} played and {current.won} won in a row"
            f" · longest {_days(longest.played)} played, {longest.won} won"
        ]

    async def leaderboard_text(self, guild_id: int, limit: int) -> str:
        """The server's longest streaks of days played in a row (then of days won)."""
        leaders = await self.tables.streak_leaders(guild_id, limit)
        if not leaders:
            return f"Nobody here has played {TITLE} yet: `/octagion daily play`."
        lines = [f"## {TITLE}: longest streaks"]
        for place, (user_id, played, won) in enumerate(leaders, start=1):
            lines.append(f"{place}. <@{user_id}>: {_days(played)} played in a row (longest won: {_days(won)})")
        return "\n".join(lines)


def _days(count: int) -> str:
    return f"{count} day" + ("" if count == 1 else "s")
