"""The optional turn clock: a warning at half time (and an hour before the end of a clock
over two hours), a forfeit at the end.

Each game keeps its own clock (``SessionMeta.clock_seconds``), chosen at its challenge or taken
from the server's setting then, so that changing the setting never alters a running game.
Clocks run from minutes to days (``30m``, ``4h``, ``2d``): correspondence play in threads.
It is armed inside the change that gives someone the turn (same transaction), and its
timers carry the action number they were armed for, so a move in time makes them moot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import discord

from bot.core.sessions import Change, Sessions
from bot.core.store import Store, TimerRecord
from bot.core.text import QUOTE_LIMIT
from bot.core.timers import Scheduler
from bot.ui.adapter import GameAdapter
from bot.ui.game_message import TEXT
from bot.ui.replies import UserError

WARNING, FORFEIT = "turn_warning", "turn_forfeit"
LAST_HOUR = 3600
# A clock longer than this also warns an hour before it runs out.
LAST_HOUR_WARNING_AFTER = 2 * 3600
LONGEST_CLOCK = 7 * 24 * 3600  # a week
UNITS = {"m": 60, "h": 3600, "d": 86400}
DURATION = re.compile(r"([0-9]+)([mhd])")  # ASCII digits: "²" or "٣" are digits to str.isdigit, not to us
OFF_WORDS = ("off", "0", "none", "no")
# The longest typed duration read (spaces dropped): "1d23h59m" fits many times over; a longer text is
# never a duration (Discord lets a member type 6,000 characters, and int() refuses past 4,300 digits).
LONGEST_TYPED = 24
TURN_CLOCK_RANGE = "A turn clock runs from 1 minute (`1m`) to 7 days (`7d`), or `off`."


def read_duration(text: str, what: str = "a clock", examples: str = "`30m`, `4h`, `2d`, or `off`") -> int | None:
    """Seconds from a typed duration: ``30m``, ``4h``, ``2d``, ``1h30m``, plain minutes (``45``), or
    None for ``off``; its range is the caller's to check. A UserError saying the text is not
    ``what`` explains anything else."""
    typed = text.strip().lower().replace(" ", "")
    if typed in OFF_WORDS:
        return None
    if len(typed) <= LONGEST_TYPED and typed.isascii():
        if typed.isdigit():
            return int(typed) * 60
        parts = DURATION.findall(typed)
        if parts and "".join(number + unit for number, unit in parts) == typed:
            return sum(int(number) * UNITS[unit] for number, unit in parts)
    raise UserError(f"{typed_back(text)} is not {what}: write minutes, hours or days, e.g. {examples}.")


def parse_clock(text: str) -> int:
    """Seconds from a typed turn clock (see ``read_duration``), from 1 minute to 7 days, or 0 for
    ``off``. A UserError explains anything else."""
    seconds = read_duration(text)
    if seconds is None:
        return 0
    if not 60 <= seconds <= LONGEST_CLOCK:
        raise UserError(TURN_CLOCK_RANGE)
    return seconds


def typed_back(text: str) -> str:
    """What a member typed, repeated in an answer as code (``-5m``, never an escaped ``\\-5m``):
    on one line, short, without backticks; "That" when nothing was typed."""
    shown = " ".join(text.replace("`", "'").split())
    if not shown:
        return "That"
    return f"`{shown if len(shown) <= QUOTE_LIMIT else shown[: QUOTE_LIMIT - 1] + '…'}`"


def deadline_time(deadline: int, now: float) -> str:
    """A deadline as Discord shows a clock time in each reader's zone: the time alone when it is
    under half a day away, else with its date. Never a relative time ("in 29 minutes"), which a
    message never edited would read as "29 minutes ago" once the turn is over."""
    return f"<t:{deadline}:{'t' if deadline - now < 12 * 3600 else 'f'}>"


def clock_words(seconds: int) -> str:
    """``2 days``, ``4 hours``, ``1 hour 30 minutes``, ``off``."""
    if not seconds:
        return "off"
    words = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        count, seconds = divmod(seconds, size)
        if count:
            words.append(f"{count} {unit}{'' if count == 1 else 's'}")
    return " ".join(words)


class TurnClock:
    def __init__(
        self, store: Store, sessions: Sessions, timers: Scheduler, games: Mapping[str, GameAdapter], bot: discord.Client
    ):
        self.store = store
        self.games = games
        self.bot = bot
        self._seconds: dict[int, int] = {}  # per server; /settings updates it
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

    async def plan(self, change: Change) -> None:
        """Restart the clock for whoever is to move now, if the turn may have changed."""
        started = change.was_status != "active" and change.record.status == "active"
        if not change.logged and not started:
            return
        if change.record.status != "active":
            return
        if change.meta.turn_deadline is not None:  # a clock is running (without one, nothing to cancel)
            change.cancel_timers([WARNING, FORFEIT])
            change.meta.turn_deadline = None
        if change.meta.clock_seconds is None:  # chosen once per game, when it starts
            change.meta.clock_seconds = await self.seconds(change.record.guild_id)
        seconds = change.meta.clock_seconds
        to_act = self.games[change.record.game].engine.to_act(change.state)
        if not seconds or len(to_act) != 1 or change.record.players[to_act[0]] == self.bot.user.id:
            return
        payload = {"seq": change.record.actions, "seat": to_act[0]}
        deadline = change.now + timedelta(seconds=seconds)
        change.add_timer(WARNING, change.now + timedelta(seconds=seconds / 2), payload)
        if seconds > LAST_HOUR_WARNING_AFTER:
            change.add_timer(WARNING, deadline - timedelta(seconds=LAST_HOUR), {**payload, "last_hour": True})
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
        gone = "your turn time is almost up" if timer.payload.get("last_hour") else "half of your turn time is gone"
        deadline = change.meta.turn_deadline
        if deadline is None:  # the clock was turned off meanwhile: nothing to warn of
            return
        by = deadline_time(deadline, change.now.timestamp())
        change.post(TEXT, {"content": f"⏳ {who}, {gone}: move by {by} or you forfeit the game."})

    async def _forfeit(self, change: Change, timer: TimerRecord) -> None:
        if not self._still_pending(change, timer):
            return
        seat = timer.payload["seat"]
        default = self._optional(change, seat)
        if default is not None:  # an optional step: time's up means "no", never a lost game
            change.apply(seat, default, by=change.record.players[seat])
            return
        forfeit = f"⌛ {change.session.mention(seat)} ran out of time and forfeits the game."
        change.apply(seat, {"type": "forfeit"}, by=change.record.players[seat], event=forfeit)
        change.post(TEXT, {"content": forfeit})
