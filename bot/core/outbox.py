"""The outbox: public messages are state, written with the change they belong to.

A change adds entries (``change.post(kind, payload)``) in its own transaction; after the
commit the sender posts or edits each message, in order per session, and deletes the entry.
A failed send is retried with backoff, also after a restart, and blocks the later entries
of its session so that messages never appear out of order (a redraw of the game message
blocks nothing: a later redraw shows the newer state anyway).

What an entry looks like on Discord is built at send time from the session as stored then,
by the builder registered for its kind. ``after`` runs once a new message is out (an edit
needs nothing more), in a session change that also removes the entry: e.g. to remember the
new game message's id, or to start a round's clock once players can see it.

Every post carries a nonce derived from its entry (``nonce_of``), the same at every try and after a
restart: Discord returns the message it already has for a nonce it saw in the last few minutes
instead of posting it again, so a post whose entry could not be removed in time never appears
twice, and no two entries' posts ever share a nonce (Discord would swallow the second).

A post that Discord keeps refusing is tried again with a capped backoff for as long as its game
is live (its later entries wait, so that messages never appear out of order); only an entry of a
game that has ended, or one that Discord refuses for good (a 4xx answer that no retry changes),
is given up after ``GIVE_UP_AFTER`` tries, and then the entries behind it go on at once.

When the database goes away, failing sends need nothing from it: the sender keeps what it could
not record in memory (an entry to try again, a message sent whose entry could not be removed)
and a sweep looks at the pending entries every few seconds until none is left, so whatever was
pending goes out by itself once the database is back. Stopping lets a send in progress finish
(its message out and its entry removed), so a graceful stop never sends a message twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import discord
from discord.ext import commands

from bot.core import metrics
from bot.core.errors import ErrorLog
from bot.core.outage import SWEEP_SECONDS, database_unavailable, note_unreachable
from bot.core.outgoing import (
    GONE_CODES,
    NONCE,
    UNKNOWN_CHANNEL,
    After,
    Builder,
    Clicks,
    Deliver,
    DiscordPosts,
    Gone,
    Kind,
    NotYet,
    Outgoing,
    batch_of,
    nonce_of,
    refused_for_good,
)
from bot.core.pace import AT_ONCE, OLD_MESSAGE_SECONDS, UNSPACED, ChannelEdits, RequestBudget, Spacing
from bot.core.sessions import GameSession, Sessions
from bot.core.store import LIVE_STATUSES, OutboxEntry, Store

__all__ = ["NONCE", "NotYet", "Outbox", "Outgoing", "nonce_of"]  # the vocabulary, from bot.core.outgoing

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 2
LONGEST_RETRY_SECONDS = 300
# Tries before an entry that will never go out is dropped (2 + 4 + ... + 256 + 300 s: about 13.5
# minutes); an entry of a live game that fails for a passing reason (Discord down, rate limited,
# the database away) is never dropped.
GIVE_UP_AFTER = 10
STOP_GRACE_SECONDS = 5  # how long stopping waits for the sends in progress to finish
GONE = object()  # what sending answers when the game's thread has gone
WAITING = object()  # what sending answers when a message waits for the game's thread
PACED = object()  # what sending answers when an edit waits for its channel's pace


class Outbox:
    def __init__(
        self, store: Store, sessions: Sessions, bot: discord.Client, errors: ErrorLog, *, budget: RequestBudget
    ):
        self.store = store
        self.sessions = sessions
        self.bot = bot
        self.errors = errors
        self.budget = budget  # every call the outbox makes to Discord waits for its place in it
        self.posts = DiscordPosts(bot, budget, Clicks(sessions.clock))
        if isinstance(bot, commands.Bot):  # a click's token edits the message it was on, uncounted
            bot.add_listener(self.posts.clicks.clicked, "on_interaction")
        self.channel_edits = ChannelEdits()  # the pace of paced edits (cards), per channel
        self.spacing: dict[str, Spacing] = {}  # kind -> how far apart one session's paced edits are
        self.kinds: dict[str, Kind] = {}
        self._draining: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._retries: dict[int, tuple[datetime, asyncio.Task[None]]] = {}
        self._started = False
        self._sweeper: asyncio.Task[None] | None = None
        # Entries sent whose removal the database refused (entry id -> session id): never sent
        # again, removed once the database answers.
        self._sent_unrecorded: dict[int, int] = {}
        # Sessions whose next message Discord has refused more than once in a row (an outage):
        # what a member is told when they act there, until one of its messages goes out.
        self._refused: set[int] = set()
        self.gone: Gone | None = None  # who is told that a game's thread has gone (on_thread_gone)
        errors.watch("database", self._sweep_soon)  # a change may have committed unseen

    def register(
        self,
        kind: str,
        build: Builder | None,
        after: After | None = None,
        *,
        coalesce: bool = False,
        deliver: Deliver | None = None,
        opens: bool = False,
        paced: bool = False,
        every: float = 0.0,
    ) -> None:
        """``every``: a paced kind's edits of one session this many seconds apart (unless ``AT_ONCE``)."""
        self.kinds[kind] = Kind(build, after, coalesce, deliver, opens, paced)
        if every:
            self.spacing[kind] = Spacing(every)

    def on_thread_gone(self, handler: Gone) -> None:
        """Who is told when a game's thread answers that it is gone (the game threads, which end
        the game there): registered where that feature is built, like a kind."""
        self.gone = handler

    # ----------------------------------------------------------------- running
    async def start(self) -> None:
        """Send whatever a previous run left unsent (called once the bot can talk to Discord)."""
        self._started = True
        try:
            pending = await self.store.outbox()
        except Exception as error:
            self._unreachable("reading the outbox at start", error)
            return
        for session_id in sorted({entry.session_id for entry in pending}):
            self.wake(session_id)

    async def finish(self, seconds: float) -> bool:
        """Keep sending until nothing is pending or ``seconds`` have passed (a graceful stop's
        flush); whether everything went out."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while loop.time() < deadline:
            try:
                if not await self.store.outbox():
                    return True
            except Exception as error:
                self._unreachable("flushing the outbox", error)
                return False
            await asyncio.sleep(0.1)
        return False

    async def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """Send nothing new; a send in progress finishes (up to ``grace`` seconds), so that its
        entry is removed with its message out and never sent twice."""
        self._started = False
        waiting = [task for _, task in self._retries.values()]
        if self._sweeper is not None:
            waiting.append(self._sweeper)
        self._retries.clear()
        self._sweeper = None
        for task in waiting:
            task.cancel()
        sending = [task for task in self._draining.values() if not task.done()]
        if sending:
            await asyncio.wait(sending, timeout=grace)
        for task in sending:
            task.cancel()
        await asyncio.gather(*waiting, *sending, return_exceptions=True)

    def wake(self, session_id: int) -> None:
        """Send this session's pending entries soon (one sender per session at a time)."""
        if not self._started:
            return
        task = self._draining.get(session_id)
        if task is not None and not task.done():
            self._again.add(session_id)
            return
        self._draining[session_id] = asyncio.get_running_loop().create_task(self._drain(session_id))

    async def flush(self, session_id: int) -> bool:
        """Send this session's entries now; whether all of those went out (for a first message).
        Entries added meanwhile do not count: a computer opponent may already have moved."""
        waiting = {entry.id for entry in await self.store.outbox(session_id)}
        task = self._draining.get(session_id)
        if task is not None and not task.done():
            await asyncio.shield(task)
        await self._drain(session_id, single_pass=True)
        return not waiting & {entry.id for entry in await self.store.outbox(session_id)}

    async def _drain(self, session_id: int, single_pass: bool = False) -> None:
        try:
            while True:
                self._again.discard(session_id)
                await self._send_pending(session_id, keep_going=single_pass)
                if single_pass or session_id not in self._again:
                    return
        except Exception as error:  # reading or recording failed: the sweep tries again
            if single_pass:
                raise
            self._unreachable(f"sending the outbox of session {session_id}", error)
        finally:
            if not single_pass and self._draining.get(session_id) is asyncio.current_task():
                del self._draining[session_id]

    async def _send_pending(self, session_id: int, keep_going: bool = False) -> None:
        """``keep_going``: also while the outbox is stopping (a flush someone waits for)."""
        await self._record_sent()
        entries = [e for e in await self.store.outbox(session_id) if e.id not in self._sent_unrecorded]
        queued = entries  # what a paced message's send takes with it, also entries not yet due
        now = self.sessions.clock()
        waiting = False  # a message waits for the game's thread: only what opens it goes ahead
        while entries:
            if not (self._started or keep_going):
                return  # stopping: what is left stays pending for the next start
            entry = entries[0]
            kind = self.kinds.get(entry.kind)
            skippable = kind is not None and (kind.coalesce or kind.opens)  # they block nothing
            if entry.next_attempt_at > now or (waiting and not skippable):
                if entry.next_attempt_at > now:
                    self._retry_at(session_id, (entry.next_attempt_at - now).total_seconds())
                if not skippable and not waiting:
                    return
                entries = entries[1:]
                continue
            batch = batch_of(entries, kind, now)
            if kind is not None and kind.paced:  # one message (a card): every entry of it goes as one
                batch = [e for e in queued if e.kind == entry.kind]  # also one skipped as not yet due
            sent = await self._send(batch)
            if sent is GONE:  # the game ended with its thread: what was pending is dropped
                entries = queued = await self.store.outbox(session_id)
                continue
            if sent is WAITING:
                waiting = True
            elif sent is PACED:
                pass  # tried again at its channel's pace, with the newest state then
            elif sent and kind is not None and kind.opens and waiting:  # the thread is open: what waited goes, in order
                entries, waiting = await self.store.outbox(session_id), False
                queued = entries
                continue
            elif not sent and not skippable:
                return  # later messages wait, so that they never appear out of order
            entries = [e for e in entries if e not in batch]

    async def _send(self, batch: list[OutboxEntry]) -> bool | object:
        """Send one entry (or a coalesced run of them); False if it must be tried again later,
        ``GONE`` if the game's thread has gone (and the session's entries with it)."""
        entry = batch[-1]
        kind = self.kinds.get(entry.kind)
        payload: dict[str, Any] = {}
        for earlier in batch[:-1]:  # e.g. one repost asked for anywhere in the run ...
            payload.update({k: v for k, v in earlier.payload.items() if v})
        payload.update(entry.payload)  # ... while what the newest entry says wins
        session = None
        outgoing = None
        try:
            if kind is None:
                raise LookupError(f"no outbox kind {entry.kind!r}")
            session = await self.sessions.load(entry.session_id)
            if kind.deliver is not None:
                message = await kind.deliver(session, {**payload, NONCE: nonce_of(entry)})
            elif kind.build is not None:
                outgoing = await kind.build(session, payload)
                if outgoing is not None and kind.paced and self._hold(entry, session, outgoing, payload):
                    return PACED
                message = await self._deliver(session, outgoing, nonce_of(entry)) if outgoing is not None else None
        except NotYet:
            self._retry_at(entry.session_id, FIRST_RETRY_SECONDS)
            return WAITING
        except discord.HTTPException as error:
            if session is not None and self.gone is not None and self._thread_gone(session, outgoing, error):
                card_gone = outgoing is not None and outgoing.channel_id == session.record.channel_id
                await self.gone(session.id, error, card_gone)  # the game ends there: its entries are dropped
                return GONE
            if entry.attempts >= 1:
                self._refused.add(entry.session_id)
            return await self._failed(
                entry, f"Discord answered {error.status}", session, lasting=refused_for_good(error)
            )
        except Exception as error:
            if database_unavailable(error):
                return await self._failed(entry, "the database is unavailable", session)
            self.errors.append(error)
            log.exception("outbox entry %s (%s) of session %s failed", entry.id, entry.kind, entry.session_id)
            return await self._failed(entry, "an error", session, lasting=True)
        self._refused.discard(entry.session_id)
        ids = [e.id for e in batch]
        posted = message is not None and (outgoing is None or outgoing.edit is None or message.id != outgoing.edit)
        if kind.after is not None and posted:
            # What follows the message (its id, a round's clock) commits with the entry's removal:
            # a crash in between sends the message again rather than losing what follows it.
            try:
                async with self.sessions.change(entry.session_id) as change:
                    change.during_commit(lambda tx: tx.outbox_done(ids))
                    await kind.after(change, payload, message)
                return True
            except Exception as error:
                lasting = not database_unavailable(error)
                if lasting:
                    self.errors.append(error)
                    log.exception("after sending outbox entry %s of session %s", entry.id, entry.session_id)
                return await self._failed(entry, "what follows the message failed", session, lasting=lasting)
        try:
            async with self.store.transaction() as tx:
                await tx.outbox_done(ids)
        except Exception as error:  # sent: remembered, so never sent again, and removed later
            self._sent_unrecorded.update(dict.fromkeys(ids, entry.session_id))
            self._unreachable(f"removing sent outbox entries {ids}", error)
        return True

    def _hold(self, entry: OutboxEntry, session: GameSession, outgoing: Outgoing, payload: dict[str, Any]) -> bool:
        """Whether a paced edit must wait for its channel's pace, its session's spacing (unless it asks
        to go ``AT_ONCE``) or its turn among what can wait (then its session is woken when it may go)."""
        if outgoing.edit is None:
            return False
        channel_id = outgoing.channel_id or session.record.play_channel_id
        age = (self.sessions.clock() - discord.utils.snowflake_time(outgoing.edit)).total_seconds()
        old = age >= OLD_MESSAGE_SECONDS
        now = asyncio.get_running_loop().time()
        spacing = UNSPACED if payload.get(AT_ONCE) else self.spacing.get(entry.kind, UNSPACED)
        wait = self.channel_edits.wait(channel_id, old=old, count=False) or spacing.wait(entry.session_id, now)
        wait = wait or self.budget.can_wait.wait((entry.session_id, entry.kind), now)  # its turn in the budget
        if wait:
            self._retry_at(entry.session_id, wait)
        else:
            self.channel_edits.count(channel_id, old=old)
            spacing.count(entry.session_id, now)  # the session's next edit of this message waits for it
        return bool(wait)

    def waiting_for_discord(self, session_id: int) -> bool:
        """Whether Discord has refused this session's messages for a while: what a member who acts
        there is told (their action is saved; the board shows it once Discord answers)."""
        return session_id in self._refused

    async def _record_sent(self) -> None:
        """Remove the entries that went out while the database refused their removal."""
        if not self._sent_unrecorded:
            return
        ids = sorted(self._sent_unrecorded)
        async with self.store.transaction() as tx:
            await tx.outbox_done(ids)
        for entry_id in ids:
            self._sent_unrecorded.pop(entry_id, None)

    def _thread_gone(
        self, session: GameSession | None, outgoing: Outgoing | None, error: discord.HTTPException
    ) -> bool:
        """Whether Discord said that the game's thread will never take a message again: its thread
        refuses it, or its card's channel is unknown (deleted while the bot was away: its threads
        went with it)."""
        if session is None or self.gone is None or session.record.thread_id is None or error.code not in GONE_CODES:
            return False
        if outgoing is None or outgoing.channel_id in (None, session.record.thread_id):
            return True
        return error.code == UNKNOWN_CHANNEL and outgoing.channel_id == session.record.channel_id

    async def _deliver(self, session: GameSession, outgoing: Outgoing, nonce: str) -> discord.Message | None:
        return await self.posts.deliver(session, outgoing, nonce)

    async def in_thread(self, session: GameSession, channel_id: int, call: Callable[[], Awaitable[Any]]) -> Any:
        """An edit or a delete where the game is played, its thread unarchived if need be
        (``DiscordPosts.in_thread``)."""
        return await self.posts.in_thread(session, channel_id, call)

    async def _failed(
        self, entry: OutboxEntry, why: str, session: GameSession | None, *, lasting: bool = False
    ) -> bool:
        """Try ``entry`` again later, or give it up: after ``GIVE_UP_AFTER`` tries, when its game has
        ended or the failure is ``lasting`` (no retry will change it). Whether it was given up
        (then the entries behind it go on)."""
        live = session is not None and session.status in LIVE_STATUSES
        if entry.attempts + 1 >= GIVE_UP_AFTER and (lasting or not live):
            log.error("giving up outbox entry %s (%s) of session %s: %s", entry.id, entry.kind, entry.session_id, why)
            try:
                async with self.store.transaction() as tx:
                    await tx.outbox_done([entry.id])
            except Exception as error:  # the sweep tries the entry again
                self._unreachable(f"giving up outbox entry {entry.id}", error)
                return False
            metrics.posts_given_up(entry.kind)
            return True
        delay = min(FIRST_RETRY_SECONDS * 2**entry.attempts, LONGEST_RETRY_SECONDS)
        log.warning(
            "could not send outbox entry %s (%s) of session %s: %s; retrying in %ss",
            entry.id,
            entry.kind,
            entry.session_id,
            why,
            delay,
        )
        try:
            async with self.store.transaction() as tx:
                await tx.outbox_retry_later(entry.id, self.sessions.clock() + timedelta(seconds=delay))
        except Exception as error:  # the retry is kept in memory instead, and the sweep looks again
            self._unreachable(f"delaying outbox entry {entry.id}", error)
            delay = min(delay, SWEEP_SECONDS)
        self._retry_at(entry.session_id, delay)
        return False

    def _unreachable(self, doing: str, error: Exception) -> None:
        """Something the sender needed from the database failed: the sweep tries again soon."""
        note_unreachable(log, self.errors, doing, error)
        self._sweep_soon()

    def _sweep_soon(self) -> None:
        """Look at the pending entries every few seconds until none is left (one sweeper)."""
        if self._started and (self._sweeper is None or self._sweeper.done()):
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="outbox-sweep")

    async def _sweep(self) -> None:
        while self._started:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self._record_sent()
                pending = await self.store.outbox()
            except Exception as error:
                if not database_unavailable(error):
                    self.errors.append(error)
                log.warning("outbox sweep: %s; trying again in %ss", error, SWEEP_SECONDS)
                continue
            if not pending:
                return
            now = self.sessions.clock()
            for session_id in sorted({entry.session_id for entry in pending if entry.next_attempt_at <= now}):
                self.wake(session_id)

    def _retry_at(self, session_id: int, delay: float) -> None:
        """Wake this session's sender after ``delay`` (one pending retry per session, the earliest)."""
        if not self._started:
            return
        when = self.sessions.clock() + timedelta(seconds=max(delay, 0.0))
        pending = self._retries.get(session_id)
        if pending is not None and not pending[1].done():
            if pending[0] <= when:
                return
            pending[1].cancel()
        self._retries[session_id] = (when, asyncio.get_running_loop().create_task(self._retry(session_id, delay)))

    async def _retry(self, session_id: int, delay: float) -> None:
        await asyncio.sleep(max(delay, 0.0))
        self._retries.pop(session_id, None)
        self.wake(session_id)
