"""Challenges: an invitation by mention, Accept/Decline, a 5-minute expiry, and rematches.

A challenge is a session with status "challenge" whose game message is the invitation;
when the last invitee accepts, the same session starts and its message becomes the game.
A challenge to the computer starts at once. Its first message is sent before the command
answers; if it cannot be posted, the challenge is closed again, so the channel is never
left blocked by a session nobody can see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.core.outbox import Outbox
from bot.core.sessions import Change, GameSession, SessionMeta, Sessions
from bot.core.store import SessionRecord, TimerRecord
from bot.core.timers import Scheduler
from bot.features.fair_use import FairUse
from bot.features.turn_clock import parse_clock
from bot.ui.adapter import HINT_TURNS, HINTS_USED, GameAdapter
from bot.ui.controls import Controls
from bot.ui.replies import UserError, escape, reply_private
from render.wording import plural

if TYPE_CHECKING:
    from bot.features.threads import GameThreads

CHALLENGE_SECONDS = 5 * 60
EXPIRY = "challenge_expiry"
NOT_POSTED = (
    "I could not post in this channel, so nothing was started. Check that I may send messages here, then try again."
)


class Challenges:
    def __init__(
        self,
        sessions: Sessions,
        outbox: Outbox,
        controls: Controls,
        timers: Scheduler,
        games: Mapping[str, GameAdapter],
        bot: discord.Client,
        *,
        threads: GameThreads,
        fair_use: FairUse,
        new_seed: Callable[[], int],
    ):
        self.sessions = sessions
        self.outbox = outbox
        self.games = games
        self.bot = bot
        self.fair_use = fair_use  # the platform's, with the limits from the settings
        self.new_seed = new_seed  # the platform's seed source
        self.threads = threads  # games in threads
        controls.button("accept", self._accept)
        controls.button("decline", self._decline)
        controls.button("rematch", self._rematch, ack="private")
        timers.register(EXPIRY, self._expire)

    def busy_text(self, record: SessionRecord) -> str:
        title = self.games[record.game].title if record.game in self.games else record.game
        what = {"challenge": "a challenge", "lobby": "a lobby", "active": "a game"}[record.status]
        return (
            f"There is already {what} of {title} in this channel (started by <@{record.host_id}>). "
            f"Finish it, or ask the host or a moderator to use `/stop`, or play in a thread."
        )

    # ------------------------------------------------------------------ opening
    async def challenge(
        self,
        interaction: discord.Interaction,
        game: str,
        invitees: Sequence[discord.abc.User],
        options: dict[str, Any],
        level: str | None = None,
        *,
        clock: str | None = None,
        where: int | None = None,
    ) -> None:
        """The shared challenge-by-mention flow (the interaction is already acknowledged privately).

        ``clock``: the game's turn clock as typed (``4h``); by default the server's setting when it
        starts. ``where``: a channel other than the interaction's (a rematch goes to its game's
        thread); the game is then played right there, without a thread of its own.
        """
        with self.fair_use.counting("challenge", interaction.guild_id, interaction.user.id):
            await self._post_challenge(interaction, game, invitees, options, level, clock, where)

    async def _post_challenge(
        self,
        interaction: discord.Interaction,
        game: str,
        invitees: Sequence[discord.abc.User],
        options: dict[str, Any],
        level: str | None,
        clock: str | None,
        where: int | None,
    ) -> None:
        adapter, challenger = self.games[game], interaction.user
        self._check_invitees(adapter, challenger, invitees)
        options = {key: value for key, value in options.items() if key not in (HINTS_USED, HINT_TURNS)}  # a rematch's
        clock_seconds = parse_clock(clock) if clock is not None else None
        if where is None:
            in_thread, reason = await self.threads.placement(interaction)
        else:
            in_thread, reason = False, None
        told = await self.threads.tell_once(interaction, reason)
        seats = adapter.seat_order(challenger.id, [u.id for u in invitees], options)
        options = adapter.seated_options(options, seats)
        by_id = {u.id: u.display_name for u in [challenger, *invitees]}
        names = [by_id[s] for s in seats]
        meta = SessionMeta(
            names=names,
            options=options,
            pending=[u.id for u in invitees if u.id != self.bot.user.id],
            seats=seats,
            computer_level=level or "medium",
            clock_seconds=clock_seconds,
        )
        async with self.sessions.open(
            game=game,
            guild_id=interaction.guild_id,
            channel_id=where or interaction.channel_id,
            host_id=challenger.id,
            players=seats,
            status="challenge",
            meta=meta,
            busy_text=self.busy_text,
            in_thread=in_thread,
        ) as change:
            if not meta.pending:  # only the computer was invited: nobody to wait for
                change.start(seats, names, options, self.new_seed())
            else:
                deadline = change.now + timedelta(seconds=CHALLENGE_SECONDS)
                change.meta.expires_at = int(deadline.timestamp())
                change.add_timer(EXPIRY, deadline)
                change.show()
        await self.first_message_or_close(interaction, change)
        if told:
            await reply_private(interaction, told)
        if not meta.pending:
            record = await self.sessions.store.get_session(change.record.id)  # its thread is open now
            where_told = f"in {self.threads.link(record)}" if record and record.in_thread else "below"
            await reply_private(interaction, f"▶ Your {adapter.title} game against me has started {where_told}.")
        else:
            await reply_private(interaction, f"Challenge posted: {plural(len(invitees), 'player')} invited.")

    async def first_message_or_close(self, interaction: discord.Interaction, opened: Change) -> None:
        """Send a new session's first message now; if Discord refuses it, close the session again."""
        session_id = opened.record.id
        if await self.outbox.flush(session_id):
            return
        async with self.sessions.change(session_id) as change:
            change.end("closed", "⚠️ This could not be posted, so it was closed.")
            change.quiet()
            change.during_commit(lambda tx: tx.drop_outbox(session_id))  # never shown: nothing to send
        raise UserError(NOT_POSTED)

    def _check_invitees(
        self, adapter: GameAdapter, challenger: discord.abc.User, invitees: Sequence[discord.abc.User]
    ) -> None:
        me = self.bot.user
        if len({u.id for u in invitees}) != len(invitees):
            raise UserError("Each player can take only one seat.")
        for user in invitees:
            if user.id == challenger.id:
                raise UserError("You cannot challenge yourself. Mention a friend, or mention me to play the computer.")
            if user.bot and user.id != me.id:
                raise UserError(f"{escape(user.display_name, 40)} is a bot; bots other than me cannot play.")
        against_computer = any(user.id == me.id for user in invitees)
        if against_computer and not adapter.has_computer:
            raise UserError(f"{adapter.title} has no computer opponent yet.")
        if against_computer and len(invitees) != 1 and not adapter.computer_takes_any_seat:
            raise UserError(f"I can play {adapter.title} only as the single opponent in a two-player game.")

    # ----------------------------------------------------------------- answers
    @staticmethod
    def _open_for(change: Change, user_id: int) -> None:
        if change.record.status != "challenge":
            raise UserError("This challenge is no longer open.")
        if user_id not in change.meta.pending:
            who = ", ".join(f"<@{p}>" for p in change.meta.pending) or "someone else"
            raise UserError(f"This challenge is for {who}.")

    async def _accept(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        async with self.sessions.change(session_id) as change:
            self._open_for(change, interaction.user.id)
            change.meta.pending.remove(interaction.user.id)
            if change.meta.pending:
                change.show()  # the invitation shows who accepted
                return
            change.cancel_timers([EXPIRY])
            change.start(change.meta.seats, change.meta.names, change.meta.options, self.new_seed())

    async def _decline(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        async with self.sessions.change(session_id) as change:
            self._open_for(change, interaction.user.id)
            title = self.games[change.record.game].title
            change.end(
                "declined",
                f"❌ {interaction.user.mention} declined the {title} challenge from <@{change.record.host_id}>.",
            )

    async def _expire(self, change: Change, _: TimerRecord) -> None:
        if change.record.status != "challenge":
            return
        title = self.games[change.record.game].title
        change.end(
            "expired",
            f"⌛ The {title} challenge from <@{change.record.host_id}> expired "
            f"(nobody answered within {CHALLENGE_SECONDS // 60} minutes).",
        )

    async def _rematch(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session = await self.sessions.load(session_id)
        if interaction.user.id not in session.players:
            raise UserError("Only the players of this game can ask for a rematch.")
        await self.games[session.record.game].rematch(interaction, session)

    @staticmethod
    def rematch_place(session: GameSession) -> int | None:
        """Where a rematch is played: in the finished game's thread (from its card too)."""
        return session.record.thread_id
