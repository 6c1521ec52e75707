"""SimCord's settle limit for every world the tests create: one setting, SIMCORD_SETTLE_SECONDS.

SimCord's ``settle_timeout`` (5 s by default) does two things. It is how long an operation (a
click, ``settle()``, ``advance_time()``) may wait for the bot's work before failing, which a
loaded machine can exceed. And in a plain settle it is also a horizon: a sleep of the bot's (a
timer due in 4 s) ending before the deadline is waited for in real time, one ending after it is
left parked for ``advance_time``. The tests were written against the 5-second horizon (the round
pause of 15 s must not pass by itself), so raising the limit alone makes a settle sit out every
timer due within it, and tests that check a timer has not fired yet fail.

``use_settle_limit()`` separates the two: every Env created without an explicit
``settle_timeout`` may wait ``SETTLE_SECONDS`` for the bot's work (a settle returns as soon as
the work is done, so a generous limit costs nothing on a quiet machine), while its plain settles
wait for the bot's sleeps only up to ``SLEEP_HORIZON`` (3 s): the request budget's waits (under a
second) and the outbox's first retry (2 s) go by in a settle, while a game card's edit 4 s after
a move (and anything later) is parked for ``advance_time``, so a move in a game played in a
thread does not cost 4 s of real time (the suite took twice as long with the 5-second horizon).
A test that reads a card after a move moves the clock on first. An Env given its own
``settle_timeout`` (the playground's) is left exactly as SimCord makes it. The crash and shard
drivers, being separate processes, call it themselves.
"""

from __future__ import annotations

import os
from contextvars import ContextVar
from typing import Any

import simcord
import simcord.env

SETTLE_SECONDS = float(os.environ.get("SIMCORD_SETTLE_SECONDS", "30"))
SLEEP_HORIZON = 3.0  # below the card edit's 4 s pause (bot/features/threads.py: CARD_PAUSE_SECONDS)

# The loop time up to which the settle running in this task waits for the bot's sleeps.
_horizon: ContextVar[float | None] = ContextVar("simcord_sleep_horizon", default=None)


def use_settle_limit() -> None:
    """Apply SETTLE_SECONDS (and the 5-second sleep horizon) to every Env created from now on in
    this process. Idempotent."""
    if getattr(simcord.Env, "_tests_settle_limit", False):
        return
    simcord.Env._tests_settle_limit = True
    init, settle = simcord.Env.__init__, simcord.Env._settle_internal
    is_parked, callback_is_parked = simcord.env._is_parked, simcord.env._callback_is_parked

    def __init__(self: simcord.Env, bot: Any, **options: Any) -> None:
        horizon = None
        if "settle_timeout" not in options:
            options["settle_timeout"], horizon = SETTLE_SECONDS, SLEEP_HORIZON
        init(self, bot, **options)
        self._tests_sleep_horizon = horizon

    async def _settle_internal(self: simcord.Env, **options: Any) -> None:
        horizon = getattr(self, "_tests_sleep_horizon", None)
        plain = options.get("timeout") is None and options.get("_deadline") is None
        # Set in every settle, None when it is not a plain one: an advance's settles (which park
        # every sleep anyway) never inherit a horizon from the task that started them.
        token = _horizon.set(self._loop.time() + horizon if plain and horizon is not None else None)
        try:
            return await settle(self, **options)
        except TimeoutError as error:
            if horizon is not None:
                error.add_note(f"the limit is SIMCORD_SETTLE_SECONDS ({SETTLE_SECONDS:g} s; tests/bot/settle.py)")
            raise
        finally:
            _horizon.reset(token)

    def within_horizon(check: Any) -> Any:
        def parked(state: Any, item: Any, deadline: float) -> bool:
            horizon = _horizon.get()
            return check(state, item, deadline if horizon is None else min(deadline, horizon))

        return parked

    simcord.Env.__init__ = __init__
    simcord.Env._settle_internal = _settle_internal
    simcord.env._is_parked = within_horizon(is_parked)
    simcord.env._callback_is_parked = within_horizon(callback_is_parked)
