"""Sessions: the one way a game in a channel changes.

    async with sessions.change(session_id) as change:
        change.apply(seat, action, by=user_id)

takes the session's lock, loads it, lets the caller apply engine actions, and commits in
**one transaction** the new state, the action log rows, the timers added and removed, the
result and ratings when the game ends (planners contribute those), and the outbox entries
(public messages to post or edit). Nothing is written if the block raises. After the commit
the listeners (computer players, the outbox sender) hear of it through
``bot.dispatch("session_changed", ...)``. What the block builds up is a
:class:`~bot.core.change.Change` (bot/core/change.py, re-exported here).

Nothing else in ``bot/`` takes a session's lock, and every change of a session goes through
here. The other transactions that exist change no session, so no session's lock needs to order
them, and each is one write of its own:

- the outbox's bookkeeping (``bot/core/outbox.py``): marking entries sent, or to retry later,
  after Discord answered; a session's messages were written with its change;
- key-value rows (``set_value``): the command tree's hash (bot/app.py), the controls' version
  (bot/platform.py), a "no thread here" notice told once (bot/features/threads.py), the
  playground's clock (bot/dev/playground.py);
- a server's, channel's or member's settings: /settings (bot/features/settings_commands.py, the
  turn clock through bot/features/turn_clock.py), /notify (bot/features/threads.py), a game's own
  through ``GameContext.write_settings`` (bot/ui/context.py).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from datetime import datetime, timedelta
from typing import Any

from bot.core.change import Change, GameInfo, GameSession, SessionMeta
from bot.core.errors import UserError
from bot.core.store import ChannelBusy, SessionRecord, Store, TimerRecord, Transaction
from engines.base import Event

__all__ = ["STALE_TEXT", "Change", "GameInfo", "GameSession", "SessionMeta", "Sessions", "TimerGone", "turn_events"]

STALE_TEXT = "This menu is out of date: the game has moved on since it was opened. Open it again."


def turn_events(session: GameSession) -> list[Event]:
    """The events of the turn so far (see ``SessionMeta.turn_events``); a session stored before
    they were kept tells its last action's."""
    told = session.meta.turn_events
    if not told:
        return list(session.state.events) if session.state is not None else []
    return [Event(e["ply"], e["seat"], e["kind"], e["data"]) for e in told]


Planner = Callable[[Change], Awaitable[None]]
# Told of every commit: the session as committed, the timers it added and the timer ids it removed.
Committed = Callable[[GameSession, list[TimerRecord], list[int]], None]


class Sessions:
    def __init__(self, store: Store, games: Mapping[str, GameInfo], clock: Callable[[], datetime]):
        self.store = store
        self.games = games
        self.clock = clock
        # What contributes to a game's change before it commits, in order: given once, as one list,
        # where the platform is built (``plan_in_order``).
        self.planners: tuple[Planner, ...] = ()
        # Sessions that are not games (a tournament): their GameInfo by name, each with the
        # planners of its own (``planners``); the games' planners never see them.
        self.kits: dict[str, GameInfo] = {}
        self.committed: list[Committed] = []
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._changing = 0  # changes (and sessions being opened) entered and not yet left
        self._idle = asyncio.Event()
        self._idle.set()

    # ------------------------------------------------------------ a graceful stop
    @contextmanager
    def _in_progress(self) -> Iterator[None]:
        self._changing += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._changing -= 1
            if self._changing == 0:
                self._idle.set()

    @property
    def in_progress(self) -> int:
        """How many changes are in progress (entered and not yet committed or rolled back)."""
        return self._changing

    async def settled(self, seconds: float) -> bool:
        """Wait until no change is in progress, for up to ``seconds``; whether none is (what a
        graceful stop waits for before it closes the database)."""
        try:
            await asyncio.wait_for(self._idle.wait(), seconds)
            return True
        except TimeoutError:
            return False

    # -------------------------------------------------------------------- reads
    def game(self, name: str) -> GameInfo:
        return self.games[name]

    def info(self, name: str) -> GameInfo | None:
        """A game's, or a kit's (a tournament), GameInfo; None: not on this bot."""
        return self.games.get(name) or self.kits.get(name)

    def plan_in_order(self, *planners: Planner) -> None:
        """The steps of every game's change before it commits, in the order they run (once)."""
        if self.planners:
            raise RuntimeError("the planners are given once, in one list, where the platform is built")
        self.planners = planners

    def _planners(self, change: Change) -> Sequence[Planner]:
        if change.record.game in self.kits:
            return getattr(change.game, "planners", ())
        return self.planners

    def loaded(self, record: SessionRecord) -> GameSession:
        """A stored session with its state loaded."""
        game = self.info(record.game)
        if game is None:
            raise UserError("That game is not available on this bot any more.")
        state = game.engine.load(record.state) if record.state else None
        return GameSession(record, state, SessionMeta.from_json(record.meta))

    async def load(self, session_id: int) -> GameSession:
        record = await self.store.get_session(session_id)
        if record is None:
            raise UserError("That game no longer exists.")
        return self.loaded(record)

    async def live_in_channel(self, channel_id: int) -> GameSession | None:
        record = await self.store.live_session(channel_id)
        return self.loaded(record) if record else None

    # ------------------------------------------------------------ the turn check
    def check_can_act(self, session: GameSession, user_id: int, seat: int | None = None, any_time: bool = False) -> int:
        """The seat of a user who may act now in a running game, or a UserError saying why not."""
        if session.status != "active":
            raise UserError(
                "This game has not started yet." if session.status in ("challenge", "lobby") else "This game has ended."
            )
        seat = session.seat_of(user_id) if seat is None else seat
        if seat is None:
            raise UserError("You are not playing in this game.")
        to_act = self.games[session.record.game].engine.to_act(session.state)
        if not any_time and seat not in to_act:
            raise UserError(self.turn_sentence(session, to_act))
        return seat

    @staticmethod
    def check_fresh(session: GameSession, built_for: int | str | None) -> None:
        """The one stale check: a control built for an earlier action number is refused."""
        if built_for is not None and str(built_for) != str(session.action_number):
            raise UserError(STALE_TEXT)

    async def seat_on_turn(
        self, session_id: int, user_id: int, built_for: int | str | None = None
    ) -> tuple[GameSession, int]:
        """For a control of the player on turn (a menu step): the session and the user's seat,
        after the one turn check and, for a control built earlier, the one stale check."""
        session = await self.load(session_id)
        seat = self.check_can_act(session, user_id)
        self.check_fresh(session, built_for)
        return session, seat

    @staticmethod
    def turn_sentence(session: GameSession, to_act: list[int]) -> str:
        if not to_act:
            return "Nobody can act right now."
        if len(to_act) == 1:
            return f"It is {session.mention(to_act[0])}'s turn."
        return "Waiting for " + ", ".join(session.mention(s) for s in to_act) + "."

    # ------------------------------------------------------------------ writes
    def _lock(self, session_id: int) -> asyncio.Lock:
        lock = self._locks.get(session_id)
        if lock is None:  # held only while in use: nothing grows with the number of games
            lock = self._locks[session_id] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def open(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        players: list[int],
        status: str,
        meta: SessionMeta,
        busy_text: Callable[[SessionRecord], str],
        in_thread: bool = False,
    ) -> AsyncIterator[Change]:
        """A new session in a channel (a challenge, a lobby, or a game against the computer).

        The block sets it up (timers, the first message, ``change.start``); the row and all of
        that commit together. ``in_thread``: it will be played in a thread of its own, so it
        shares the channel with any number of others; otherwise a channel that already has a
        live session raises a UserError.
        """
        with self._in_progress():  # a graceful stop waits for it
            now = self.clock()
            record = SessionRecord(
                id=0,
                game=game,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                players=list(players),
                status=status,
                state={},
                schema_version=self.info(game).engine.schema,
                created_at=now,
                updated_at=now,
                meta={},
                in_thread=in_thread,
            )
            change = Change(GameSession(record, None, meta), self.info(game), now)
            change.was_status = "new"
            yield change
            for planner in self._planners(change):
                await planner(change)
            self._prepare(change)
            try:
                async with self.store.transaction() as tx:
                    record.id = await tx.insert_session(
                        game=game,
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=host_id,
                        players=record.players,
                        status=record.status,
                        state=record.state,
                        schema_version=record.schema_version,
                        now=now,
                        meta=record.meta,
                        in_thread=in_thread,
                    )
                    added, removed = await self._write(tx, change)
            except ChannelBusy:
                existing = await self.store.live_session(channel_id)
                raise UserError(busy_text(existing) if existing else "This channel is busy.") from None
            self._announce(change, added, removed)

    @asynccontextmanager
    async def change(self, session_id: int, *, timer: TimerRecord | None = None) -> AsyncIterator[Change]:
        """Change one session in one transaction (see the module's docstring).

        ``timer``: the timer being fired; it is deleted in this transaction, and a timer that is
        already gone (fired or cancelled) raises ``TimerGone`` before anything runs.
        """
        with self._in_progress():  # a graceful stop waits for it
            async with self._lock(session_id):
                session = await self.load(session_id)
                if timer is not None and timer.id not in {t.id for t in await self.store.timers(session_id)}:
                    raise TimerGone(timer.id)
                change = Change(session, self.info(session.record.game), self.clock())
                yield change
                for planner in self._planners(change):
                    await planner(change)
                self._prepare(change)
                async with self.store.transaction() as tx:
                    if timer is not None and not await tx.delete_timer(timer.id):
                        raise TimerGone(timer.id)
                    added, removed = await self._write(tx, change)
                if timer is not None:
                    removed.append(timer.id)
            self._announce(change, added, removed)

    async def act(
        self,
        session_id: int,
        user_id: int,
        action: dict[str, Any],
        *,
        seat: int | None = None,
        built_for: int | None = None,
        quiet: bool = False,
        event: str | None = None,
    ) -> GameSession:
        """One player's action: the turn check, the engine, one transaction. Returns the new session."""
        async with self.change(session_id) as change:
            any_time = action.get("type") == "resign"
            seat = self.check_can_act(change.session, user_id, seat, any_time=any_time)
            self.check_fresh(change.session, built_for)  # after the turn check: "it is X's turn" says more
            change.apply(seat, action, by=user_id, event=event, quiet=quiet)
        return change.session

    # ------------------------------------------------------------ committing
    @staticmethod
    def _prepare(change: Change) -> None:
        session, record = change.session, change.record
        if session.state is not None:
            record.state = change.game.engine.dump(session.state)
            record.schema_version = change.game.engine.schema
        record.meta = session.meta.to_json()

    @staticmethod
    async def _write(tx: Transaction, change: Change) -> tuple[list[TimerRecord], list[int]]:
        record = change.record
        await tx.update_session(record, change.now)
        first_seq = record.actions - len(change.logged) + 1
        for offset, (player_id, action, seat) in enumerate(change.logged):
            await tx.append_action(record.id, first_seq + offset, player_id, action, change.now, seat)
        removed: list[int] = []
        for kinds in change.cancelled:
            removed += await tx.delete_timers(record.id, kinds)
        added = [await tx.add_timer(record.id, *timer) for timer in change.new_timers]
        added += [await tx.add_timer(*timer) for timer in change.timers_elsewhere]
        for kind, payload, after_seconds in change.posts:
            not_before = change.now + timedelta(seconds=after_seconds) if after_seconds else None
            await tx.add_outbox(record.id, kind, payload, change.now, not_before)
        for step in change.in_transaction:
            await step(tx)
        record.updated_at = change.now
        return added, removed

    def _announce(self, change: Change, added: list[TimerRecord], removed: list[int]) -> None:
        for listener in self.committed:
            listener(change.session, added, removed)


class TimerGone(Exception):
    """The timer being fired was already fired or cancelled: nothing to do."""
