"""Octagion Daily on Discord: one word a day for the whole server, played privately.

Thin glue: the rules (the day's word, the score, streaks) live in ``engines.octagion``, the
pictures and texts in ``render.octagion_daily``. The Octagion adapter hooks it in: its commands
are `/octagion daily play` and `/octagion daily results` (a subcommand group: Discord cannot
have `/octagion daily` as a command beside subcommands under it), its server setting is
`/settings daily_channel`, and /stats and /leaderboard ask it for streaks.

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

import asyncio
import dataclasses
from datetime import date, datetime, timedelta
from typing import Any

import discord
from discord import ButtonStyle, app_commands

from bot.context import GameContext
from bot.core.outbox import Outgoing
from bot.core.sessions import Change, GameSession, SessionMeta
from bot.core.store import DailyPlay, ResultRow, TimerRecord
from bot.ui.attachments import as_file
from bot.ui.controls import SessionButton, session_modal, view_of
from bot.ui.replies import BUSY_TEXT, NAME_LIMIT, UserError, acknowledge, escape, fit, reply_private, sentence
from engines.base import IllegalAction
from engines.octagion import (
    BONUS_STEP_SECONDS,
    COUNTDOWN_SECONDS,
    DAILY_EPOCH,
    MAX_TIME_BONUS,
    DailyEntry,
    Streak,
    daily_word,
    day_closes_at,
    day_is_over,
    next_streak,
    parse_daily_answer,
    puzzle_day,
    puzzle_number,
    ranked,
    score_daily,
    solution,
    solution_count,
    streaks,
)
from render import octagion_daily as show

GAME = "octagion"  # the adapter whose sessions these are
DAILY, TITLE = "octagion_daily", "Octagion Daily"  # its name in results, /stats and /leaderboard
PLAYING, OVER = "daily", "daily_over"  # a play's statuses
CHANNEL, CHANNEL_OFF = "daily_channel", "daily_channel_off"  # the daily channel's
COUNTDOWN_END, DAY_OVER = "octagion_daily_end", "octagion_daily_day_over"  # timers
BOARD_POST, TODAY_POST, TODAY_EDIT = "octagion_daily_board", "octagion_daily_today", "octagion_daily_today_edit"
ANSWER, FORM = "daily_answer", "daily_form"  # the controls (custom ids: b:<play>:daily_answer:save)
SAVE, FINAL = "save", "final"  # what a form's answer does
BOARD_LINES = 10  # members listed in a board's text
WAIT_FOR_PLAYS_SECONDS, MAX_WAITS = 30, 10  # a board waits for plays still being scored (a late timer)

ONE_ATTEMPT_TEXT = (
    "You already played today's puzzle: one attempt per day. See how others did: `/octagion daily results`."
)
OPEN_FIRST_TEXT = "Open today's puzzle first with `/octagion daily play`: your countdown starts when you see the word."
RULES_LINE = (
    f"Your answer is checked when your play ends: **Final answer…** ends it at once (a perfect answer "
    f"earns +1 per full {BONUS_STEP_SECONDS} s left, up to +{MAX_TIME_BONUS}); otherwise the last answer "
    "you saved counts when the countdown runs out."
)


def _seconds(play: DailyPlay) -> float:
    return (play.finished_at - play.started_at).total_seconds() if play.finished_at else 0.0


def _cells(play: DailyPlay) -> tuple[str | None, ...]:
    cells = list(play.cells or [])
    return tuple(cells + [None] * (8 - len(cells)))


def _entry(play: DailyPlay) -> DailyEntry:
    streak = Streak(play.streak or 0, play.won_streak or 0)
    return DailyEntry(play.user_id, play.name, play.score, _seconds(play), _cells(play), streak)


def _placed(cells: Any) -> int:
    return sum(cell is not None for cell in cells or ())


class OctagionDaily:
    """The daily puzzle beside the race: its commands' work, its timers and its messages."""

    name, title = DAILY, TITLE

    def __init__(self, ctx: GameContext):
        self.ctx = ctx
        self.sessions = ctx.sessions
        self.store = ctx.sessions.store
        ctx.controls.button(ANSWER, self._answer_button, ack="modal")
        ctx.controls.modal(FORM, self._answer_form)
        ctx.timers.register(COUNTDOWN_END, self._countdown_end)
        ctx.timers.register(DAY_OVER, self._day_over)
        ctx.outbox.register(BOARD_POST, self._build_board_post)
        ctx.outbox.register(TODAY_POST, self._build_today, self._remember_today)
        ctx.outbox.register(TODAY_EDIT, self._build_today_edit, self._remember_today, coalesce=True)
        ctx.sessions.committed.append(self._after_commit)

    def now(self) -> datetime:
        return self.sessions.clock()

    # ------------------------------------------------------------ /octagion daily play

    async def play(self, interaction: discord.Interaction, cards: str | None, final: bool) -> None:
        """Open today's puzzle (the countdown starts), show it again, answer it, or show the result."""
        await acknowledge(interaction)
        guild, user = interaction.guild_id, interaction.user.id
        play = await self._current_play(guild, user, puzzle_day(self.now()))
        if play is None:
            if cards is not None or final:
                raise UserError(OPEN_FIRST_TEXT)
            play = await self._start(interaction)
        elif cards is not None or final:
            await self._answer(interaction, play.session_id, cards, final)
            return
        if play.finished:
            await self._show_result(interaction, play, "You played today's puzzle.")
        else:
            await self._show_puzzle(interaction, play)

    async def _current_play(self, guild_id: int, user_id: int, today: date) -> DailyPlay | None:
        """Today's play, or yesterday's while its countdown (started before midnight) still runs."""
        play = await self.store.daily_play(guild_id, today, user_id)
        if play is None:
            yesterday = await self.store.daily_play(guild_id, today - timedelta(days=1), user_id)
            if yesterday is not None and not yesterday.finished:
                return yesterday
        return play

    async def _start(self, interaction: discord.Interaction) -> DailyPlay:
        """The member's play of today: its row, its session and its countdown, in one transaction."""
        now = self.now()
        user = interaction.user
        play = DailyPlay(
            guild_id=interaction.guild_id,
            day=puzzle_day(now),
            user_id=user.id,
            session_id=None,  # known once the session is written
            name=user.display_name,
            started_at=now,
            deadline=now + timedelta(seconds=COUNTDOWN_SECONDS),
        )
        meta = SessionMeta(
            names=[user.display_name],
            options={"daily": play.day.isoformat()},
            started_at=now.isoformat(),
            round_deadline=int(play.deadline.timestamp()),
        )

        async def add_row(tx: Any) -> None:
            play.session_id = change.record.id
            if not await tx.start_daily_play(play):
                raise _AlreadyStarted  # a second click at the same moment: the first one's play stands

        try:
            async with self.sessions.open(
                game=GAME,
                guild_id=play.guild_id,
                channel_id=interaction.channel_id,
                host_id=user.id,
                players=[user.id],
                status=PLAYING,
                meta=meta,
                busy_text=lambda _: BUSY_TEXT,
            ) as change:
                change.add_timer(COUNTDOWN_END, play.deadline, {"day": play.day.isoformat()})
                change.during_commit(add_row)
        except _AlreadyStarted:
            existing = await self.store.daily_play(play.guild_id, play.day, user.id)
            if existing is None:
                raise UserError(BUSY_TEXT) from None
            return existing
        return play

    async def _show_puzzle(self, interaction: discord.Interaction, play: DailyPlay) -> None:
        word, number = daily_word(play.day), puzzle_number(play.day)
        picture = await self.ctx.render(show.render_daily_puzzle, number, play.day, word, play.cells)
        saved = f"\nYour answer so far: `{show.variant_text(play.cells)}`." if play.cells else ""
        text = (
            f"**{show.title(number, play.day)}** (only you can see this)\n"
            f"Spell **{word}**: one card per letter, eight different numbers; basic rules, no Treatment Cards.\n"
            f"⏳ Your countdown ends <t:{int(play.deadline.timestamp())}:R>.{saved}\n{RULES_LINE}"
        )
        await reply_private(interaction, text, picture, self._answer_buttons(play.session_id))

    @staticmethod
    def _answer_buttons(session_id: int) -> discord.ui.View:
        return view_of(
            [
                SessionButton(session_id, ANSWER, SAVE, label="Answer…", style=ButtonStyle.primary),
                SessionButton(session_id, ANSWER, FINAL, label="Final answer…", style=ButtonStyle.success),
            ]
        )

    async def _show_result(self, interaction: discord.Interaction, play: DailyPlay, heading: str) -> None:
        """The member's own answer with its penalties, the score and one solution."""
        word, number = daily_word(play.day), puzzle_number(play.day)
        cells = list(_cells(play))
        scored = dataclasses.replace(score_daily(cells, word, None), bonus=play.bonus or 0)
        answer = solution(word)
        count = solution_count(word)
        draw = show.render_daily_answer
        picture = await self.ctx.render(draw, number, play.day, word, cells, scored, _seconds(play), answer, count)
        text = show.answer_text(word, cells, scored, _seconds(play), answer)
        streak = f"\n🔥 {play.streak} days in a row." if (play.streak or 0) > 1 else ""
        board = "\nSee how the server did: `/octagion daily results`."
        await reply_private(
            interaction, f"**{show.title(number, play.day)}**: {heading}\n{text}{streak}{board}", picture
        )

    # ------------------------------------------------------------ answers

    async def _answer_button(self, interaction: discord.Interaction, session_id: int, arg: str) -> None:
        """Answer… or Final answer…: a form prefilled with the answer saved so far. A form must be
        the first answer, so this reads before answering, with a short limit (as the race does)."""
        try:
            session, play = await asyncio.wait_for(self._load(session_id, interaction.user.id), timeout=2)
        except TimeoutError:
            raise UserError(BUSY_TEXT) from None
        if session.status != PLAYING or play.finished:
            raise UserError("Your play of this puzzle is over: `/octagion daily play` shows your result.")
        if self.now() >= play.deadline:
            raise UserError("Time is up: the last answer you saved is being scored.")
        word = daily_word(play.day)
        cards = discord.ui.TextInput(
            label=f"Spell {word}",
            custom_id="variant",
            required=arg == SAVE,
            max_length=80,
            default=show.variant_text(play.cells) if play.cells else None,
            placeholder="S5 T7 R3 A1 N8 G2 E4 R6 · a digit = that position's letter, _ empty",
        )
        heading = "final answer (scored now)" if arg == FINAL else "your answer"
        form = session_modal(session_id, FORM, arg, f"Octagion Daily · {heading}", [cards])
        await interaction.response.send_modal(form)

    async def _answer_form(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: dict[str, str]
    ) -> None:
        typed = values.get("variant", "").strip()
        await self._answer(interaction, session_id, typed or None, final=arg == FINAL)

    async def _load(self, session_id: int, user_id: int) -> tuple[GameSession, DailyPlay]:
        session = await self.sessions.load(session_id)
        play = await self._play_of(session)
        if play is None or play.user_id != user_id:
            raise UserError("This is not your puzzle.")
        return session, play

    async def _play_of(self, session: GameSession) -> DailyPlay | None:
        day = session.meta.options.get("daily")
        if day is None:
            return None
        return await self.store.daily_play(session.record.guild_id, date.fromisoformat(day), session.record.host_id)

    async def _answer(self, interaction: discord.Interaction, session_id: int, text: str | None, final: bool) -> None:
        """Save an answer (``text``), and with ``final`` score it now. Too late: the last answer
        saved is scored, as when the countdown runs out."""
        user = interaction.user.id
        async with self.sessions.change(session_id) as change:
            play = await self._play_of(change.session)
            if play is None or play.user_id != user:
                raise UserError("This is not your puzzle.")
            if play.finished:
                raise UserError(ONE_ATTEMPT_TEXT)
            late = change.now >= play.deadline
            if late:
                await self._finish(change, play, final=False)
            else:
                if text is not None:
                    self._save(change, play, text)
                elif not play.cells:
                    raise UserError("Type your answer first, e.g. `S5 T7 R3 A1 N8 G2 E4 R6`.")
                if final:
                    await self._finish(change, play, final=True)
        if play.finished:
            heading = "Time was up: your last saved answer counts." if late else "Your final answer."
            await self._show_result(interaction, play, heading)
            return
        text = (
            f"Saved: `{show.variant_text(play.cells)}` ({_placed(play.cells)} of 8 placed). "
            f"Change it until your countdown ends <t:{int(play.deadline.timestamp())}:R>. {RULES_LINE}"
        )
        await reply_private(interaction, text, view=self._answer_buttons(session_id))

    @staticmethod
    def _save(change: Change, play: DailyPlay, text: str) -> None:
        try:
            play.cells = parse_daily_answer(text[:200], daily_word(play.day))
        except IllegalAction as error:
            raise UserError(sentence(str(error))) from None
        play.answers += 1
        change.log(play.user_id, {"type": "answer", "cards": play.cells})
        change.during_commit(lambda tx: tx.save_daily_answer(play))

    async def _countdown_end(self, change: Change, _: TimerRecord) -> None:
        """The countdown ran out: the last answer saved is scored (nothing saved: eight empty positions)."""
        if change.record.status != PLAYING:
            return
        play = await self._play_of(change.session)
        if play is not None and not play.finished:
            await self._finish(change, play, final=False)

    async def _finish(self, change: Change, play: DailyPlay, final: bool) -> None:
        """In the change that ends a play: its score and streaks, the result for /stats, and an
        edit of today's line in the daily channel, all in the change's transaction."""
        word = daily_word(play.day)
        scored = score_daily(_cells(play), word, (play.deadline - change.now).total_seconds() if final else None)
        yesterday = await self.store.daily_play(play.guild_id, play.day - timedelta(days=1), play.user_id)
        before = Streak(yesterday.streak or 0, yesterday.won_streak or 0) if yesterday and yesterday.finished else None
        streak = next_streak(before, scored.won)
        play.finished_at = change.now if final else play.deadline  # a countdown that ran out took all of it
        play.score, play.penalties, play.bonus = scored.score, scored.penalties, scored.bonus
        play.streak, play.won_streak = streak.played, streak.won
        change.record.status = OVER
        change.cancel_timers([COUNTDOWN_END])
        change.log(play.user_id if final else None, {"type": "end", "final": final, "score": scored.score})
        channel = await self.store.daily_session_id(play.guild_id)
        change.meta.options["daily_channel"] = channel  # for _after_commit
        result = ResultRow(
            session_id=change.record.id,
            game=DAILY,
            guild_id=play.guild_id,
            players=[play.user_id],
            scores=[float(scored.score)],
            winners=[play.user_id] if scored.won else [],
            moves=play.answers,
            duration_seconds=_seconds(play),
            finished_at=change.now,
        )

        async def write(tx: Any) -> None:
            await tx.finish_daily_play(play)
            await tx.record_result(result)
            if channel is not None:
                await tx.add_outbox(channel, TODAY_EDIT, {"day": play.day.isoformat()}, change.now)

        change.during_commit(write)

    def _after_commit(self, session: GameSession, *_: Any) -> None:
        """A play that ended edited today's line: send it (the platform wakes only the play's own outbox)."""
        channel = session.meta.options.get("daily_channel") if session.status == OVER else None
        if channel is not None and session.record.game == GAME:
            self.ctx.outbox.wake(channel)

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
            mine = await self.store.daily_play(guild, day, user)
            if mine is None or not mine.finished:
                played = await self.store.daily_players(guild, day)
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
        board = ranked(_entry(play) for play in await self.store.daily_board(guild_id, day))
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
        old = await self.store.daily_session_id(guild)
        if old is not None:
            await self._close_channel(old)
        if channel is None:
            async with self.store.transaction() as tx:
                await tx.set_daily_session(guild, None)
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
            change.during_commit(lambda tx: tx.set_daily_session(guild, change.record.id))
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
        if await self.store.daily_session_id(change.record.guild_id) != change.record.id:
            change.record.status = CHANNEL_OFF  # replaced by another channel meanwhile
            return
        day = max(date.fromisoformat(timer.payload["day"]), puzzle_day(change.now) - timedelta(days=1))
        if not day_is_over(day, change.now):
            day -= timedelta(days=1)
        waits = timer.payload.get("waits", 0)
        if waits < MAX_WAITS and await self.store.daily_unfinished(change.record.guild_id, day):
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
        played = await self.store.daily_players(session.record.guild_id, day)
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
        history = await self.store.daily_history(guild_id, user_id)
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
        leaders = await self.store.daily_streak_leaders(guild_id, limit)
        if not leaders:
            return f"Nobody here has played {TITLE} yet: `/octagion daily play`."
        lines = [f"## {TITLE}: longest streaks"]
        for place, (user_id, played, won) in enumerate(leaders, start=1):
            lines.append(f"{place}. <@{user_id}>: {_days(played)} played in a row (longest won: {_days(won)})")
        return "\n".join(lines)


def _days(count: int) -> str:
    return f"{count} day" + ("" if count == 1 else "s")


class _AlreadyStarted(Exception):
    """The member's play of the day exists already (two opens at once): nothing was written."""


__all__ = ["DAILY", "TITLE", "OctagionDaily"]
