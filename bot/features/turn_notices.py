"""The "your move" notices of games in threads, and the reminder that keeps a quiet thread open.

A notice is posted only when it must ping. When the turn passes to a member who is away (who has
not acted in the game in the last ``AT_THE_GAME_SECONDS``, as this process saw: so also after a
restart, and at the first move of a game), a new message in the game's thread mentions them
("🔔 @Bo, your move in Octego: Ada moved …") so that Discord notifies them, and the previous notice
is deleted once the new one is out. A member who acted in that time is at the game: the board
already says it is their move, so no notice is posted or edited for them (no request of Discord's
50 a second), and a notice of this game still standing is deleted so that no stale "your move"
remains. So active play costs no notice, an away episode a post and a delete. The newcomer line
("New to Octego? `/learn` it…") is only for a member who has not acted in the game yet, who is
never at the game, so it always has its notice. A new Octagion round pings everyone who plays
and is away. A member may turn them off (``/notify``). A game whose thread has had no new message for
``REMINDER_DAYS`` gets a short one ("still your move"): Discord archives a thread after a week
without a new message, and moves only edit the game message.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.core.outbox import NONCE, Outbox
from bot.core.sessions import Change, GameSession
from bot.core.store import Store, TimerRecord
from bot.core.text import fit
from bot.core.timers import Scheduler
from bot.features.learn.newcomers import newcomer_line
from bot.ui.adapter import GameAdapter
from bot.ui.game_message import Table

TURN_NOTICE = "turn_notice"  # "@Bo, your move": a new message, so that it notifies
# A timer: a game whose thread has had no new message for REMINDER_DAYS gets one.
THREAD_REMINDER = "thread_reminder"
REMINDER_DAYS = 6
# A member who acted in a game this recently is at the game: the board tells them it is their move,
# so they get no notice (a notice costs a post and a delete of Discord's 50 requests a second, and
# would ping someone who is playing). In memory: after a restart everyone is pinged.
AT_THE_GAME_SECONDS = 120


class TurnNotices:
    def __init__(
        self,
        store: Store,
        outbox: Outbox,
        timers: Scheduler,
        table: Table,
        games: Mapping[str, GameAdapter],
        bot: discord.Client,
    ):
        self.store = store
        self.outbox = outbox
        self.table = table
        self.games = games
        self.bot = bot
        self._wanted: dict[tuple[int, int], bool] = {}  # (guild, member): wants turn notices
        self._acted: dict[int, dict[int, datetime]] = {}  # session -> member -> when they last acted
        outbox.register(TURN_NOTICE, None, self._posted, coalesce=True, deliver=self._post)
        timers.register(THREAD_REMINDER, self._reminder_due)

    def _me(self) -> int | None:
        """The bot's own id: the computer's seats get no notice."""
        return self.bot.user.id if self.bot.user is not None else None

    def _waiting(self, change: Change) -> int | None:
        """The one member whose move it is (None: several act at once, or it is the computer's)."""
        adapter = self.games[change.record.game]
        to_act = [] if adapter.simultaneous else adapter.engine.to_act(change.state)
        member = change.record.players[to_act[0]] if len(to_act) == 1 else None
        return None if member == self._me() else member

    def started(self, change: Change) -> None:
        """A game of a thread started: its reminder, if its thread stays quiet."""
        change.add_timer(THREAD_REMINDER, change.now + timedelta(days=REMINDER_DAYS))

    def ended(self, change: Change) -> None:
        """A game of a thread ended: its last notice goes."""
        self._acted.pop(change.record.id, None)
        change.post(TURN_NOTICE, notice(clear=True))

    def _at_the_game(self, change: Change, member: int) -> bool:
        """Whether ``member`` acted in this game in the last AT_THE_GAME_SECONDS (as this process saw)."""
        acted = self._acted.get(change.record.id, {}).get(member)
        return acted is not None and (change.now - acted).total_seconds() < AT_THE_GAME_SECONDS

    async def plan_after_move(self, change: Change) -> None:
        """ "Your move" when the turn passes to a member who is away: not to the computer, not back
        to the member who just acted, not to a member at the game, not to one who turned notices off."""
        if not change.logged:
            return
        mover = change.logged[-1][0]
        if mover is not None:  # a member, not the platform (a forfeit)
            self._acted.setdefault(change.record.id, {})[mover] = change.now
        member = self._waiting(change)
        if member is None or member == mover:
            return
        if self._at_the_game(change, member) or not await self.wanted(change.record.guild_id, member):
            if change.meta.notice_id is not None:  # an older "your move" still stands, out of date: it goes
                change.post(TURN_NOTICE, notice(clear=True))
            return
        change.post(TURN_NOTICE, notice(member=member, seq=change.record.actions))

    async def for_round(self, change: Change, what: str) -> None:
        """A ping to every member of a game played in a thread when a new round starts (those at the
        game, and those who turned notices off, are left out; with no one left, the last round's ping goes)."""
        record = change.record
        if not record.in_thread:
            return
        humans = [p for p in dict.fromkeys(record.players) if p != self._me()]
        members = [p for p in humans if not self._at_the_game(change, p) and await self.wanted(record.guild_id, p)]
        if members:
            change.post(TURN_NOTICE, notice(members=members, seq=record.actions, what=what))
        elif change.meta.notice_id is not None:
            change.post(TURN_NOTICE, notice(clear=True))

    async def wanted(self, guild_id: int | None, member: int) -> bool:
        key = (guild_id or 0, member)
        if key not in self._wanted:
            self._wanted[key] = (await self.store.turn_notices(guild_id, [member]))[member]
        return self._wanted[key]

    async def set_wanted(self, guild_id: int | None, member: int, enabled: bool) -> None:
        async with self.store.transaction() as tx:
            await tx.set_turn_notices(guild_id, member, enabled)
        self._wanted[(guild_id or 0, member)] = enabled

    def forget(self, member: int) -> None:
        """A member's preferences were deleted (`/privacy delete`): the default from now on."""
        for key in [key for key in self._wanted if key[1] == member]:
            del self._wanted[key]

    async def _post(self, session: GameSession, payload: dict[str, Any]) -> Any:
        """The new notice, then the previous one deleted: posting first means a thread archived in
        the meantime is unarchived by the post (a delete there would be refused), and a member is
        never left without the notice when Discord fails between the two calls."""
        record = session.record
        if record.thread_id is None:
            return None
        channel = self.bot.get_partial_messageable(record.thread_id)
        fresh = record.status == "active" and record.actions == payload.get("seq")
        posted = None
        previous = session.meta.notice_id
        if fresh and not payload.get("clear"):  # else the game moved on or ended: a newer entry says so
            members = payload.get("members") or [m for m in [payload.get("member")] if m is not None]
            newcomer = await newcomer_line(self.store, self.games[record.game], session, payload.get("member"))
            text = self._wording(session, payload, members) + newcomer
            mentions = discord.AllowedMentions(users=[discord.Object(m) for m in members], everyone=False, roles=False)
            posted = await self.outbox.budget.call(
                lambda: channel.send(text, allowed_mentions=mentions, nonce=payload[NONCE])
            )
        if previous is not None and (posted is None or posted.id != previous):
            with contextlib.suppress(discord.NotFound):
                await self.outbox.in_thread(session, record.thread_id, channel.get_partial_message(previous).delete)
        if posted is None and previous is not None:
            return _NoticeCleared()  # recorded like a post: the deleted notice is forgotten
        return posted

    def _wording(self, session: GameSession, payload: dict[str, Any], members: list[int]) -> str:
        title = self.games[session.record.game].title
        if payload.get("what"):  # a new round: everyone who plays
            return f"🔔 {' '.join(f'<@{m}>' for m in members)}: {title} {payload['what']} starts now."
        if payload.get("reminder"):
            return self.reminder_text(session, payload.get("waiting"), pinged=bool(members))
        return self.text(session, members[0])

    def reminder_text(self, session: GameSession, waiting: int | None, *, pinged: bool) -> str:
        title = self.games[session.record.game].title
        if waiting is None:
            return f"⏳ This game of {title} goes on."
        if pinged:
            return f"🔔 <@{waiting}>, it is still your move in {title}."
        seat = session.record.players.index(waiting)
        return f"⏳ It is still {session.names[seat]}'s move in {title}."

    def text(self, session: GameSession, member: int) -> str:
        title = self.games[session.record.game].title
        said = self.table.narration(session)
        text = f"🔔 <@{member}>, your move in {title}" + (f": {said}" if said else ".")
        if session.meta.turn_deadline:
            text += f" (⏱ <t:{session.meta.turn_deadline}:R>)"
        return fit(text)

    @staticmethod
    async def _posted(change: Change, payload: dict[str, Any], message: Any) -> None:
        """The notice to delete when the next one is out; a reminder is never deleted (it may be
        the thread's newest message, which keeps Discord from archiving it)."""
        forget = isinstance(message, _NoticeCleared) or payload.get("reminder")
        change.meta.notice_id = None if forget else message.id

    async def _reminder_due(self, change: Change, _: TimerRecord) -> None:
        """No new message in the game's thread for REMINDER_DAYS (the latest notice is the newest
        message the bot knows of): a short one, so that Discord never archives the thread mid-game."""
        record = change.record
        if record.status != "active" or not record.in_thread:
            return
        last = discord.utils.snowflake_time(change.meta.notice_id) if change.meta.notice_id else None
        due = last + timedelta(days=REMINDER_DAYS) if last is not None else change.now
        if due > change.now:
            change.add_timer(THREAD_REMINDER, due)
            return
        change.add_timer(THREAD_REMINDER, change.now + timedelta(days=REMINDER_DAYS))
        waiting = self._waiting(change)
        pinged = [waiting] if waiting is not None and await self.wanted(record.guild_id, waiting) else []
        change.post(TURN_NOTICE, notice(members=pinged, seq=record.actions, reminder=True, waiting=waiting))


def notice(
    *,
    member: int | None = None,
    members: list[int] | None = None,
    seq: int | None = None,
    what: str = "",
    clear: bool = False,
    reminder: bool = False,
    waiting: int | None = None,
) -> dict[str, Any]:
    """A TURN_NOTICE entry's payload, every key written: notices coalesce, and the newest wins whole."""
    return {
        "member": member,
        "members": members or [],
        "seq": seq,
        "what": what,
        "clear": clear,
        "reminder": reminder,
        "waiting": waiting,
    }


class _NoticeCleared:
    """What posting a notice answers when it only deleted the previous one (there is no new one)."""

    id = None
