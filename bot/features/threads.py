"""Games in threads: any number of games in one channel, a ping when it is your turn.

A challenge (or an Octagion lobby) in a channel that allows it is a session ``in_thread``: its
message in the channel is the game's **card**. When the game starts, the bot opens a public
thread from the card and plays the whole game there; the card becomes one compact line (game,
players, move or round, whose turn, a link to the thread), edited as the game goes and ending
on the result with Replay and Rematch. Where a thread cannot be made (no permission, the
channel is a thread or a forum, ``/settings game_threads off``) the game is played in the
channel as before, one live game per channel.

Everything goes through the outbox, so a thread is opened once even across a crash: a thread
started from a message has that message's id, and Discord's "already has a thread" answer
counts as success. A thread that answers that it is gone (deleted, locked, permissions
removed) ends its game as stopped, with the card saying so.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import Any, Literal

import discord

from bot.core.outbox import NotYet, Outbox, Outgoing
from bot.core.pace import AT_ONCE
from bot.core.sessions import Change, GameSession, Sessions
from bot.core.settings import Settings
from bot.core.store import LIVE_STATUSES, SessionRecord, Store, TimerRecord
from bot.core.timers import Scheduler
from bot.features.turn_notices import TurnNotices
from bot.ui.adapter import GameAdapter
from bot.ui.game_message import TEXT, Table
from bot.ui.replies import UserError, fit

log = logging.getLogger(__name__)

CARD = "card"  # the game's compact card in its channel
OPEN_THREAD = "open_thread"
THREAD_INTRO = "thread_intro"  # the thread's first message, mentioning the players (adds them to it)
ARCHIVE_THREAD = "archive_thread"  # a timer, and the outbox entry it posts
# A day-long game must not be archived mid-game: the longest auto-archive Discord has.
LONGEST_ARCHIVE_MINUTES: Literal[10080] = 10080
CARD_PAUSE_SECONDS = 4  # a card's edit after a move waits this long, so that the moves meanwhile share it
# And a card is edited at most once every CARD_EVERY_SECONDS during play. The game's thread has its
# live board; the card only tells the channel which games run, how far they are and whose turn it
# is, and a minute is fresh enough for that. Each edit is one of the token's 50 requests a second
# shared by every game: at this pace a game costs at most one a minute however fast it is played
# (a third of a request a move at a move every 20 s). Its start, its thread's link and its end are
# shown at once (``AT_ONCE``).
CARD_EVERY_SECONDS = 60
SHOW_AT_ONCE = {AT_ONCE: True}
THREAD_EXISTS = 160004  # "a thread has already been created for this message": ours, from before a crash
THREAD_LIMIT = 160006  # the server's active-thread limit
THREAD_NAME_LIMIT = 100
PARENT_TYPES = (discord.ChannelType.text, discord.ChannelType.news)
GONE_NOTE = "⏹ The game's thread was deleted or closed to me, so the game stopped."
TOLD_KEY = "told_in_channel:{channel}:{user}"


class GameThreads:
    def __init__(
        self,
        store: Store,
        sessions: Sessions,
        outbox: Outbox,
        timers: Scheduler,
        table: Table,
        games: Mapping[str, GameAdapter],
        bot: discord.Client,
        settings: Settings,
        *,
        notices: TurnNotices,
    ):
        self.settings = settings
        self.notices = notices  # "your move" in the game's thread
        self.store = store
        self.sessions = sessions
        self.outbox = outbox
        self.table = table
        self.games = games
        self.bot = bot
        outbox.register(
            CARD, self._build_card, self._remember_card, coalesce=True, paced=True, every=CARD_EVERY_SECONDS
        )
        outbox.register(OPEN_THREAD, None, self._thread_opened, deliver=self._open_thread, opens=True)
        outbox.register(THREAD_INTRO, self._build_intro)
        outbox.register(ARCHIVE_THREAD, None, deliver=self._archive)
        outbox.on_thread_gone(self.thread_gone)
        timers.register(ARCHIVE_THREAD, self._archive_due)

    # --------------------------------------------------------------- placement
    async def placement(self, interaction: discord.Interaction) -> tuple[bool, str | None]:
        """Whether a game started here gets a thread, and if not, why (for the challenger)."""
        channel = interaction.channel
        kind = getattr(channel, "type", None)
        if interaction.guild_id is None or kind in (discord.ChannelType.private, discord.ChannelType.group):
            return False, None
        if kind not in PARENT_TYPES:
            where = "this is a thread" if isinstance(channel, discord.Thread) else "this channel cannot hold threads"
            return False, f"{where}, so the game is played right here (one game at a time)."
        chosen = await self.store.game_threads(interaction.channel_id)
        if chosen is False:
            return False, "game threads are off in this channel (`/settings game_threads`): one game at a time here."
        if chosen is None and not self.settings.game_threads:
            return False, None  # the operator's choice for every channel (GAME_THREADS=off): nothing to explain
        permissions = interaction.app_permissions
        missing = [
            name
            for allowed, name in (
                (permissions.create_public_threads, "Create Public Threads"),
                (permissions.send_messages_in_threads, "Send Messages in Threads"),
            )
            if not allowed
        ]
        if missing:
            lacking = " and ".join(missing)
            return False, f"I lack *{lacking}* here, so the game is played in this channel (one game at a time)."
        return True, None

    async def tell_once(self, interaction: discord.Interaction, reason: str | None) -> str | None:
        """The reason a game is played in the channel, the first time this member starts one here."""
        if reason is None:
            return None
        key = TOLD_KEY.format(channel=interaction.channel_id, user=interaction.user.id)
        if await self.store.get_value(key):
            return None
        async with self.store.transaction() as tx:
            await tx.set_value(key, "1")
        return f"🧵 No thread for this game: {reason}"

    # ------------------------------------------------------------- finding games
    @staticmethod
    def link(record: SessionRecord) -> str:
        return f"<#{record.thread_id}>" if record.thread_id else "its thread"

    async def find(
        self, interaction: discord.Interaction, game: str | None = None, *, moderator: bool = False
    ) -> SessionRecord | None:
        """The live session a command in this channel means: the game of this thread, the one game
        of a channel without threads, or in a channel with game threads the caller's single one
        started here. With several (or, for a ``moderator``, any that are not theirs) the answer
        lists the threads to use instead."""
        here = await self.store.live_session(interaction.channel_id)
        if here is not None:
            return here
        threaded = [r for r in await self.store.threaded_sessions(interaction.channel_id) if game in (None, r.game)]
        user = interaction.user.id
        mine = [r for r in threaded if user in r.players or user == r.host_id]
        if len(mine) == 1:
            return mine[0]
        listed = mine or (threaded if moderator else [])
        if not listed:
            return None
        places = ", ".join(self._place(record) for record in listed[:10])
        raise UserError(f"Several games here could be meant: {places}. Use the command in the game's thread.")

    def _place(self, record: SessionRecord) -> str:
        title = self.games[record.game].title if record.game in self.games else record.game
        if record.thread_id:
            return f"{title} #{record.id} in <#{record.thread_id}>"
        return f"the {title} {record.status} #{record.id}"

    # ------------------------------------------------------------------ planning
    async def plan(self, change: Change) -> None:
        record = change.record
        if not record.in_thread:
            return
        started = change.was_status != "active" and record.status == "active"
        if started and record.thread_id is None:
            if record.card_id is None and record.status == "active" and change.was_status == "new":
                change.post(CARD)  # a game against the computer starts at once: its card first
            change.post(OPEN_THREAD)
            change.post(THREAD_INTRO)
        if record.status == "active" and not started and change.logged:  # the turn may have changed
            change.post(CARD, after_seconds=CARD_PAUSE_SECONDS)  # at most every CARD_EVERY_SECONDS
        elif started and record.card_id is not None:
            change.post(CARD, SHOW_AT_ONCE)
        if self._game_of_a_thread_ended(change):
            change.post(CARD, SHOW_AT_ONCE)
            self.notices.ended(change)

    async def plan_last(self, change: Change) -> None:
        """Planned last: when a game of a thread ends, its thread's archiving (after the planner
        that ends the game's own timers, results); while it runs, the "your move" notice, after
        the game message, so that the board is redrawn before the ping that announces it."""
        record = change.record
        if not record.in_thread:
            return
        if self._game_of_a_thread_ended(change):
            minutes = await self.store.archive_minutes(record.guild_id)
            change.add_timer(ARCHIVE_THREAD, change.now + timedelta(minutes=minutes))
        elif record.status == "active":
            if change.was_status != "active":
                self.notices.started(change)
            await self.notices.plan_after_move(change)

    @staticmethod
    def _game_of_a_thread_ended(change: Change) -> bool:
        """This change ends a game that has (or was opening) a thread; not a challenge or lobby
        that closed before its game began."""
        record = change.record
        ended = change.was_status in (*LIVE_STATUSES, "new") and record.status not in LIVE_STATUSES
        return ended and (record.thread_id is not None or change.was_status == "active")

    async def round_notice(self, change: Change, what: str) -> None:
        """A new round of a game in a thread pings everyone who plays (``TurnNotices.for_round``)."""
        await self.notices.for_round(change, what)

    # ------------------------------------------------------------------- the card
    def thread_name(self, session: GameSession) -> str:
        """ "Octego · Ada vs Bo · #12": plain text, within Discord's 100 characters."""
        title = self.games[session.record.game].title
        number = f" · #{session.id}"
        sides = " ".join(self.table.sides(session, bold=False).split())
        room = THREAD_NAME_LIMIT - len(title) - len(number) - 3
        if len(sides) > room:
            sides = sides[: room - 1].rstrip() + "…"
        return f"{title} · {sides}{number}"

    def card_text(self, session: GameSession) -> str:
        adapter = self.games[session.record.game]
        record = session.record
        parts = [f"**{adapter.title}** #{session.id}", self.table.sides(session)]
        if record.status == "active":
            parts.append(self.progress(session))
            if not adapter.simultaneous:
                to_act = adapter.engine.to_act(session.state)
                if len(to_act) == 1:
                    parts.append(f"▶ {session.bold_names[to_act[0]]} to play")
        elif record.status == "finished":
            parts.append(self.table.result_sentence(session))
        else:
            parts.append(session.meta.ended_note or "⏹ Stopped.")
        parts += filter(None, [adapter.hints_note(session)])  # hints used, seen by all
        where = f"<#{record.thread_id}>" if record.thread_id else "opening a thread…"
        return fit(" · ".join(parts) + f"\n🧵 {where}")

    @staticmethod
    def progress(session: GameSession) -> str:
        state = session.state
        rounds = getattr(state, "round", None)
        if isinstance(rounds, int):
            return f"round {rounds}"
        return f"move {state.ply + 1}"

    async def _build_card(self, session: GameSession, _: dict[str, Any]) -> Outgoing | None:
        if session.state is None:  # a challenge or lobby: the table draws it on the card itself
            return None
        view = self.table.finished_view(session) if session.status == "finished" else None
        return Outgoing(
            self.card_text(session),
            view=view,
            edit=session.record.card_id,
            channel_id=session.record.channel_id,
            mentions=discord.AllowedMentions.none(),
        )

    @staticmethod
    async def _remember_card(change: Change, _: dict[str, Any], message: discord.Message) -> None:
        change.record.card_id = message.id

    # ------------------------------------------------------------------ the thread
    async def _open_thread(self, session: GameSession, payload: dict[str, Any]) -> Any:
        record = session.record
        ended = record.status not in LIVE_STATUSES and not payload.get("again")  # "again": shown anew, ended too
        if record.thread_id is not None or ended:
            return None  # opened before a crash, or the game ended meanwhile
        card_id, channel_id = record.card_id, record.channel_id
        if card_id is None:
            raise NotYet
        http, budget = self.bot.http, self.outbox.budget
        with contextlib.suppress(discord.NotFound):  # opened before a crash: a thread has its card's id
            return await budget.call(lambda: http.get_channel(card_id))
        try:
            return await budget.call(
                lambda: http.start_thread_with_message(
                    channel_id,
                    card_id,
                    name=self.thread_name(session),
                    auto_archive_duration=LONGEST_ARCHIVE_MINUTES,
                    rate_limit_per_user=None,
                )
            )
        except discord.HTTPException as error:
            if error.code == THREAD_EXISTS:
                return await budget.call(lambda: http.get_channel(card_id))
            if error.code == THREAD_LIMIT or error.status == 403:
                return {"fallback": "limit" if error.code == THREAD_LIMIT else "permissions"}
            raise

    async def _thread_opened(self, change: Change, _: dict[str, Any], opened: Any) -> None:
        record = change.record
        if "fallback" in opened:
            why = (
                "this server has reached Discord's limit of active threads"
                if opened["fallback"] == "limit"
                else "I may not open threads here any more"
            )
            await self._play_in_channel(change, why)
            return
        record.thread_id = int(opened["id"])
        change.post(CARD, SHOW_AT_ONCE)  # the card posted before the thread existed links it now, not at the first move

    async def _play_in_channel(self, change: Change, why: str) -> None:
        """No thread could be opened: the game is played in the channel, if the channel is free."""
        record = change.record
        busy = await self.store.live_session(record.channel_id)
        if busy is not None and busy.id != record.id:
            change.end("stopped", f"⏹ The game could not start: {why}, and this channel already has a game.")
            return
        record.in_thread = False
        record.message_id = None
        change.post(
            TEXT,
            {"content": f"🧵 This game is played here in the channel: {why}."},
        )
        change.show()

    async def _build_intro(self, session: GameSession, _: dict[str, Any]) -> Outgoing | None:
        humans = [p for p in dict.fromkeys(session.players) if p != self.bot.user.id]
        if not session.record.in_thread or not humans:
            return None
        title = self.games[session.record.game].title
        mentions = " ".join(f"<@{p}>" for p in humans)
        text = f"{mentions}: your game of **{title}** is played here. Good luck!"
        return Outgoing(
            text,
            mentions=discord.AllowedMentions(users=[discord.Object(p) for p in humans], everyone=False, roles=False),
        )

    @staticmethod
    def show_again(change: Change) -> None:
        """Post a game of a thread anew where its messages are gone (the playground's simulated
        Discord is new at every start): its card, and once started a new thread for it."""
        record = change.record
        record.card_id = record.thread_id = record.message_id = None
        change.meta.notice_id = None
        if change.session.state is None or record.status in ("challenge", "lobby"):
            change.show(repost=True)  # the challenge or lobby is the card
            return
        change.post(CARD)
        change.post(OPEN_THREAD, {"again": True})
        change.post(THREAD_INTRO)
        change.show(repost=True)

    # ----------------------------------------------------------- the end of a thread
    async def _archive_due(self, change: Change, _: TimerRecord) -> None:
        change.post(ARCHIVE_THREAD)

    async def _archive(self, session: GameSession, _: dict[str, Any]) -> None:
        thread_id = session.record.thread_id
        if thread_id is None or session.status in LIVE_STATUSES:
            return None
        if await self.store.live_session(thread_id) is not None:
            return None  # a rematch played in the thread keeps it open (Discord archives it once it is quiet)
        with contextlib.suppress(discord.NotFound):
            await self.outbox.budget.call(lambda: self.bot.http.edit_channel(thread_id, archived=True))
        return None

    async def thread_gone(
        self, session_id: int, error: discord.HTTPException | None = None, card_gone: bool = False
    ) -> None:
        """The game's thread is deleted or closed to the bot: the game ends as stopped, its card
        says so (unless the card's channel went too)."""
        await self._stop_for_good(session_id, show_card=not card_gone)
        if error is not None:
            log.warning("the thread of session %s is gone (Discord answered %s)", session_id, error.code)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        for session_id in await self.store.sessions_in_threads([payload.thread_id]):
            await self.thread_gone(session_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel with game cards is deleted: its games (in its threads, gone with it) stop."""
        for record in await self.store.threaded_sessions(channel.id):
            await self._stop_for_good(record.id, show_card=False)  # the card went with its channel

    async def _stop_for_good(self, session_id: int, *, show_card: bool) -> None:
        """A game whose thread is gone ends as stopped, and nothing it had to send is sent but
        (``show_card``) its card saying so."""
        async with self.sessions.change(session_id) as change:
            change.during_commit(lambda tx: tx.drop_outbox(session_id))
            if change.record.status in LIVE_STATUSES:
                change.meta.final_header = "Stopped: the thread is gone"
                change.end("stopped", GONE_NOTE)
            change.quiet()
            if show_card:
                change.during_commit(lambda tx: tx.add_outbox(session_id, CARD, SHOW_AT_ONCE, change.now))
