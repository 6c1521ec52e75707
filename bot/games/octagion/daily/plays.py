"""Octagion Daily's plays: `/octagion daily play` opens today's puzzle (the countdown starts),
shows it again, saves an answer or ends the play; the countdown's timer scores the last answer
saved. Each change commits the play's row with the session (``change.during_commit``)."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import date, datetime, timedelta
from typing import Any

import discord
from discord import ButtonStyle

from bot.core.sessions import Change, GameSession, SessionMeta
from bot.core.store import ResultRow, TimerRecord
from bot.games.octagion.daily.names import (
    ANSWER,
    COUNTDOWN_END,
    DAILY,
    FINAL,
    FORM,
    GAME,
    OVER,
    PLAYING,
    SAVE,
    TODAY_EDIT,
)
from bot.games.octagion.daily.share import Sharing, share_button
from bot.games.octagion.daily.store import DailyPlay, DailyStore, finish_play, save_answer, start_play
from bot.games.octagion.variants import variant_placeholder
from bot.ui.context import GameContext
from bot.ui.controls import SessionButton, session_modal, view_of
from bot.ui.replies import BUSY_TEXT, UserError, acknowledge, reply_private, sentence
from engines.base import IllegalAction
from engines.octagion import (
    BONUS_STEP_SECONDS,
    COUNTDOWN_SECONDS,
    MAX_TIME_BONUS,
    Streak,
    daily_word,
    next_streak,
    parse_daily_answer,
    puzzle_day,
    puzzle_number,
    score_daily,
    solution,
    solution_count,
)
from render import octagion_daily as show

ONE_ATTEMPT_TEXT = (
    "You already played today's puzzle: one attempt per day. See how others did: `/octagion daily results`."
)
OPEN_FIRST_TEXT = "Open today's puzzle first with `/octagion daily play`: your countdown starts when you see the word."
RULES_LINE = (
    f"Your answer is checked when your play ends: **Final answer…** ends it at once (a perfect answer "
    f"earns +1 per full {BONUS_STEP_SECONDS} s left, up to +{MAX_TIME_BONUS}); otherwise the last answer "
    "you saved counts when the countdown runs out."
)


def _placed(cells: Any) -> int:
    return sum(cell is not None for cell in cells or ())


class Plays:
    """A member's play of the day: its commands' work, its form, its countdown and its end."""

    def __init__(self, ctx: GameContext):
        self.ctx = ctx
        self.sessions = ctx.sessions
        self.tables = DailyStore(ctx.reads)
        ctx.controls.button(ANSWER, self._answer_button, ack="modal")
        ctx.controls.modal(FORM, self._answer_form)
        ctx.timers.register(COUNTDOWN_END, self._countdown_end)
        ctx.sessions.committed.append(self._after_commit)
        self.sharing = Sharing(ctx, self.tables, self._play_of)

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
        play = await self.tables.play(guild_id, today, user_id)
        if play is None:
            yesterday = await self.tables.play(guild_id, today - timedelta(days=1), user_id)
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
            if not await start_play(tx, play):
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
            existing = await self.tables.play(play.guild_id, play.day, user.id)
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
        """The member's own answer with its penalties, the score and one solution; Share posts a
        line without them in the channel."""
        word, number = daily_word(play.day), puzzle_number(play.day)
        cells = list(play.eight_cells)
        scored = dataclasses.replace(score_daily(cells, word, None), bonus=play.bonus or 0)
        answer = solution(word)
        count = solution_count(word)
        draw = show.render_daily_answer
        picture = await self.ctx.render(draw, number, play.day, word, cells, scored, play.seconds, answer, count)
        text = show.answer_text(word, cells, scored, play.seconds, answer)
        streak = f"\n🔥 {play.streak} days in a row." if (play.streak or 0) > 1 else ""
        board = "\nSee how the server did: `/octagion daily results`. **Share** posts your score here, not your answer."
        content = f"**{show.title(number, play.day)}**: {heading}\n{text}{streak}{board}"
        await reply_private(interaction, content, picture, view_of([share_button(play.session_id)]))

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
            placeholder=variant_placeholder(word, treatments=False),
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
        return await self.tables.play(session.record.guild_id, date.fromisoformat(day), session.record.host_id)

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
        change.during_commit(lambda tx: save_answer(tx, play))

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
        scored = score_daily(play.eight_cells, word, (play.deadline - change.now).total_seconds() if final else None)
        yesterday = await self.tables.play(play.guild_id, play.day - timedelta(days=1), play.user_id)
        before = Streak(yesterday.streak or 0, yesterday.won_streak or 0) if yesterday and yesterday.finished else None
        streak = next_streak(before, scored.won)
        play.finished_at = change.now if final else play.deadline  # a countdown that ran out took all of it
        play.score, play.penalties, play.bonus = scored.score, scored.penalties, scored.bonus
        play.streak, play.won_streak = streak.played, streak.won
        change.record.status = OVER
        change.cancel_timers([COUNTDOWN_END])
        change.log(play.user_id if final else None, {"type": "end", "final": final, "score": scored.score})
        channel = await self.tables.channel_session(play.guild_id)
        change.meta.options["daily_channel"] = channel  # for _after_commit
        result = ResultRow(
            session_id=change.record.id,
            game=DAILY,
            guild_id=play.guild_id,
            players=[play.user_id],
            scores=[float(scored.score)],
            winners=[play.user_id] if scored.won else [],
            moves=play.answers,
            duration_seconds=play.seconds,
            finished_at=change.now,
        )

        async def write(tx: Any) -> None:
            await finish_play(tx, play)
            await tx.record_result(result)
            if channel is not None:
                await tx.add_outbox(channel, TODAY_EDIT, {"day": play.day.isoformat()}, change.now)

        change.during_commit(write)

    def _after_commit(self, session: GameSession, *_: Any) -> None:
        """A play that ended edited today's line: send it (the platform wakes only the play's own outbox)."""
        channel = session.meta.options.get("daily_channel") if session.status == OVER else None
        if channel is not None and session.record.game == GAME:
            self.ctx.outbox.wake(channel)


class _AlreadyStarted(Exception):
    """The member's play of the day exists already (two opens at once): nothing was written."""
