"""The playground's live side, added to SimCord's Preview because a person watches it rather than
a test: a click is answered as soon as the bot has answered it (:func:`answer_page_actions_quickly`),
what the bot does on its own is published to the open page as it happens (:class:`LivePages`), and
the simulated clock follows real time (:class:`RealTimeClock`), kept in the playground's database
so that the next start goes on from it."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.core.store import Store, iso
from bot.dev.world import PlaygroundWorld

log = logging.getLogger(__name__)

CLOCK_KEY = "playground_clock"  # the simulated clock when last seen, so that the next start goes on from it
CLOCK_SAVE_SECONDS = 1  # the clock is kept at most this often (it moves all the time)
CLOCK_STEP_SECONDS = 0.2  # how often the simulated clock is moved on to follow real time
PAGE_POLL_SECONDS = 0.2  # how often LivePages looks for changes (the page itself polls every 0.5 s)
ANSWER_WAIT_SECONDS = 0.5  # a click waits this long for the bot's work before the page gets its receipt
SHOWN_MESSAGES = 60  # the page's window is 50 messages of its channel


def answer_page_actions_quickly(env: Any, preview: Callable[[], Any]) -> None:
    """A click in the page comes back when the bot's work for it is done or, if that takes longer
    than ``ANSWER_WAIT_SECONDS``, as soon as the interaction has its answer: not once every
    background task of the bot is done.

    SimCord settles after every page action: it waits for all the bot's work that is not parked,
    and a sleep that ends before the settle's deadline (``SETTLE_SECONDS``) is not parked. So
    Got it! waited for Octagion's 15-second pause before the next round, page frozen, and a click
    that set a computer thinking waited for its move. Here a page action's settle is short; if
    the bot is still busy then, the receipt goes back as soon as the interaction has its answer
    (the form of a button that opens one included), and LivePages shows the rest when it is out.
    Everything else (the bot's own timers, tests' operations) settles as before.
    """
    settle = env._settle_internal
    loop = asyncio.get_running_loop()

    async def settle_page_action(**options: Any) -> None:
        bounded = options.get("timeout") is not None or options.get("_deadline") is not None
        if env._operation_label != "preview.action" or bounded:
            await settle(**options)
            return
        give_up = loop.time() + env.settle_timeout
        while True:
            try:
                await settle(**options, timeout=ANSWER_WAIT_SECONDS)
                return
            except TimeoutError:
                if _answered(preview()):
                    return  # the rest is the bot's own work: LivePages shows it when it is out
                if loop.time() >= give_up:
                    raise

    env._settle_internal = settle_page_action


def _answered(preview: Any) -> bool:
    action = getattr(preview, "_active_action", None)
    interaction = getattr(action, "interaction", None)
    return interaction is None or interaction.responded


class BackgroundLoop:
    """A loop the playground runs beside the bot (``_run``), started and stopped with the page."""

    name = "playground-loop"
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        raise NotImplementedError


class LivePages(BackgroundLoop):
    """Publishes to the open page what changed in its channel since the page was last published.

    SimCord's page polls its published snapshot every 0.5 s, but the Preview publishes only
    after a page action or Refresh: an Octagion round ended by its timer, a computer's move or
    an expired challenge stayed out of sight until someone clicked. Every ``PAGE_POLL_SECONDS``
    this compares the channel's messages with what each page showed when published, and
    publishes the pages that differ, between operations (never during a click's own).
    It also keeps the playground's clock in the store, so the next start goes on from it.
    """

    name = "playground-live-pages"

    def __init__(self, world: PlaygroundWorld):
        self.env = world.env
        self.world = world
        self.preview: Any = None
        self._shown: dict[str, tuple[Any, ...]] = {}  # page id -> the channel as it was when last published
        self._saved_clock: datetime | None = None

    def watch(self, preview: Any) -> None:
        """Note what each publication of ``preview`` shows (its own after an action included)."""
        self.preview = preview
        self._shown.clear()
        publish = preview._publish

        def publish_and_note(page: Any, **options: Any) -> None:
            self._shown[page.id] = channel_state(self.env, page.channel_id)
            publish(page, **options)

        preview._publish = publish_and_note
        for page in list(preview._pages.values()):
            self._shown[page.id] = channel_state(self.env, page.channel_id)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(PAGE_POLL_SECONDS)
            try:
                self.publish_changes()
                await self._keep_clock()
            except Exception:  # the page goes on being shown: try again at the next look
                log.exception("the playground could not update the open page")

    def publish_changes(self) -> None:
        """Publish every page whose channel changed since it was last published."""
        preview = self.preview
        if preview is None or preview._closed or self.env._operation_task is not None:
            return
        states: dict[int, tuple[Any, ...]] = {}
        for page in list(preview._pages.values()):
            if page.channel_id not in states:
                states[page.channel_id] = channel_state(self.env, page.channel_id)
            if self._shown.get(page.id) != states[page.channel_id]:
                preview._advance_presentation_time()  # "ends in 2 minutes" counts from now
                preview._publish(page, reason="refresh")

    async def _keep_clock(self) -> None:
        now = self.env.now()
        saved = self._saved_clock
        if (saved is None or (now - saved).total_seconds() >= CLOCK_SAVE_SECONDS) and self.world.bot.store is not None:
            await save_clock(self.world.bot.store, now)
            self._saved_clock = now


def channel_state(env: Any, channel_id: int) -> tuple[Any, ...]:
    """What a page shows of a channel, compactly: its latest messages (the page shows at most
    ``SHOWN_MESSAGES``), each with what an edit changes."""
    latest = itertools.islice(reversed(env.backend.messages.get(channel_id, {}).values()), SHOWN_MESSAGES)
    return tuple(
        (m.id, m.edited_timestamp, m.flags, m.content, tuple(a.get("id") for a in m.attachments), repr(m.components))
        for m in latest
    )


async def save_clock(store: Store | None, now: datetime) -> None:
    if store is not None:
        async with store.transaction() as tx:
            await tx.set_value(CLOCK_KEY, iso(now))


class RealTimeClock(BackgroundLoop):
    """Moves SimCord's clock on with real time, every ``CLOCK_STEP_SECONDS``, as Discord's goes on.

    SimCord's clock moves only when a test advances it or when a timer of the bot is due (it
    then jumps to that instant): between timers it stood still, so a 20-second Daily play took
    "0:00" and a turn clock ran late. This adds to it the real time gone by since the last step,
    never more, so it never runs ahead of real time; when something else moved it on (a timer
    due, a test's ``advance_time``) it goes on from there. It waits while an operation runs
    (a click in the page, a test's step), as SimCord's own timers do, and catches up after.
    """

    name = "playground-real-time"

    def __init__(self, env: Any):
        self.env = env

    async def _run(self) -> None:
        # perf_counter, not time.monotonic or the loop's time: SimCord reads those as its own clock.
        real, simulated = time.perf_counter(), self.env.backend.clock.elapsed
        while True:
            await asyncio.sleep(CLOCK_STEP_SECONDS)
            now = time.perf_counter()
            target = simulated + (now - real)
            current = self.env.backend.clock.elapsed
            if current >= target:  # moved on by something else: real time goes on from there
                real, simulated = now, current
            elif self.env._operation_task is None and not self.env._advancing:
                self.env._move_clock(target)
