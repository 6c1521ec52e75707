"""The optional per-server turn clock: a warning at half time, a forfeit at the end.

It is armed inside the change that gives someone the turn (same transaction), and its
timers carry the action number they were armed for, so a move in time makes them moot.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import discord

from bot.adapter import GameAdapter
from bot.sessions import Change, Sessions
from bot.store import Store, TimerRecord
from bot.table import TEXT
from bot.timers import Scheduler

WARNING, FORFEIT = "turn_warning", "turn_forfeit"


class TurnClock:
    def __init__(
        self, store: Store, sessions: Sessions, timers: Scheduler, games: Mapping[str, GameAdapter], bot: discord.Client
    ):
        self.store = store
        self.games = games
        self.bot = bot
        self._seconds: dict[int, int] = {}  # per server; /settings updates it
        sessions.planners.insert(0, self._plan)  # before the game message is drawn
        timers.register(WARNING, self._warn)
        timers.register(FORFEIT, self._forfeit)

    async def seconds(self, guild_id: int | None) -> int:
        key = guild_id or 0
        if key not in self._seconds:
            self._seconds[key] = await self.store.turn_clock_seconds(guild_id)
        return self._seconds[key]

    async def set_seconds(self, guild_id: int | None, seconds: int) -> None:
        async with self.store.transaction() as tx:
            await tx.set_turn_clock_seconds(guild_id, seconds)
        self._seconds[guild_id or 0] = seconds

    async def _plan(self, change: Change) -> None:
        """Restart the clock for whoever is to move now, if the turn may have changed."""
        started = change.was_status != "active" and change.record.status == "active"
        if not change.logged and not started:
            return
        if change.record.status != "active":
            return
        if change.meta.turn_deadline is not None:  # a clock is running (without one, nothing to cancel)
            change.cancel_timers([WARNING, FORFEIT])
            change.meta.turn_deadline = None
        seconds = await self.seconds(change.record.guild_id)
        to_act = self.games[change.record.game].engine.to_act(change.state)
        if not seconds or len(to_act) != 1 or change.record.players[to_act[0]] == self.bot.user.id:
            return
        payload = {"seq": change.record.actions, "seat": to_act[0]}
        deadline = change.now + timedelta(seconds=seconds)
        change.add_timer(WARNING, change.now + timedelta(seconds=seconds / 2), payload)
        change.add_timer(FORFEIT, deadline, payload)
        change.meta.turn_deadline = int(deadline.timestamp())

    @staticmethod
    def _still_pending(change: Change, timer: TimerRecord) -> bool:
        return change.record.status == "active" and change.record.actions == timer.payload["seq"]

    def _optional(self, change: Change, seat: int) -> dict[str, Any] | None:
        """The answer to an optional question the seat leaves unanswered (then no forfeit)."""
        return self.games[change.record.game].engine.when_time_runs_out(change.state, seat)

    async def _warn(self, change: Change, timer: TimerRecord) -> None:
        if not self._still_pending(change, timer) or self._optional(change, timer.payload["seat"]):
            return
        who = change.session.mention(timer.payload["seat"])
        change.post(
            TEXT,
            {
                "content": f"⏳ {who}, half of your turn time is gone; "
                f"you forfeit <t:{change.meta.turn_deadline}:R> unless you move."
            },
        )

    async def _forfeit(self, change: Change, timer: TimerRecord) -> None:
        if not self._still_pending(change, timer):
            return
        seat = timer.payload["seat"]
        default = self._optional(change, seat)
        if default is not None:  # an optional step: time's up means "no", never a lost game
            change.apply(seat, default, by=change.record.players[seat])
            return
        forfeit = f"⌛ {change.session.mention(seat)} ran out of time and forfeits the game."
        change.apply(seat, {"type": "resign"}, by=change.record.players[seat], event=forfeit)
        change.post(TEXT, {"content": forfeit})
