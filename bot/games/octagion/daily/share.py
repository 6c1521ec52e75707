"""Octagion Daily's Share button: once a member's play is over, their private result has a
**Share** button that posts one public line in the channel where they click it, e.g.
"🧩 **Ada** solved Octagion Daily #41: 13 pts ⭐ in 0:42 · 🔥 3-day streak".

The line gives away nothing of the answer (no letter of the word, no card), so members who have
not played yet can read it, and it pings nobody. A play is shared once: the mark is written in
the play's session, in the same change as the outbox entry that posts the line, so a second
click (or a click after a restart) says it was shared instead of posting again.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.outbox import Outgoing
from bot.core.sessions import GameSession
from bot.games.octagion.daily.names import OVER, SHARE, SHARE_POST, TITLE
from bot.games.octagion.daily.store import DailyPlay, DailyStore
from bot.ui.context import GameContext
from bot.ui.controls import SessionButton
from bot.ui.replies import NAME_LIMIT, UserError, escape, reply_private
from engines.octagion import puzzle_number
from render.octagion_daily import time_text

SHARED = "shared"  # in the play's session options: the line was posted
NOT_YOURS = "This is not your play: share your own with the Share button under your result."
ALREADY_SHARED = "You already shared this play: its line is in the channel."
SHARED_TEXT = "Shared: your line is in the channel, without your answer."


def share_line(name: str, play: DailyPlay) -> str:
    """The public line of a finished play: who, which puzzle, the score (⭐: perfect), the time
    and the streak; nothing of the word or the cards."""
    perfect = (play.won_streak or 0) > 0  # the engine's streak of won days counts this one when it was won
    verb, star = ("solved", " ⭐") if perfect else ("played", "")
    return (
        f"🧩 **{escape(name, NAME_LIMIT)}** {verb} {TITLE} #{puzzle_number(play.day)}: "
        f"{play.score} pts{star} in {time_text(play.seconds)} · 🔥 {play.streak or 1}-day streak. "
        "Play yours: `/octagion daily play`"
    )


def share_button(session_id: int) -> SessionButton:
    """Under a finished play's result: post its line in the channel (it carries the play's session)."""
    return SessionButton(session_id, SHARE, label="Share", emoji="📣", style=discord.ButtonStyle.secondary)


class Sharing:
    """The Share button's work and the public line it posts through the outbox."""

    def __init__(self, ctx: GameContext, tables: DailyStore, play_of: Any):
        self.ctx = ctx
        self.tables = tables
        self.play_of = play_of  # (session) -> the DailyPlay it is
        ctx.controls.button(SHARE, self._share, ack="private")
        ctx.outbox.register(SHARE_POST, self._build)

    async def _share(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        user = interaction.user
        async with self.ctx.sessions.change(session_id) as change:
            play = await self.play_of(change.session)
            if play is None or play.user_id != user.id:
                raise UserError(NOT_YOURS)
            if change.record.status != OVER or not play.finished:
                raise UserError("Your play is not over yet: share it once you have your result.")
            shared = bool(change.meta.options.get(SHARED))
            if not shared:
                change.meta.options[SHARED] = True
                line = share_line(user.display_name, play)
                change.post(SHARE_POST, {"content": line, "channel_id": interaction.channel_id})
        await reply_private(interaction, ALREADY_SHARED if shared else SHARED_TEXT)

    @staticmethod
    async def _build(_: GameSession, payload: dict[str, Any]) -> Outgoing:
        return Outgoing(payload["content"], channel_id=payload["channel_id"], mentions=discord.AllowedMentions.none())
