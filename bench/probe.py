"""Times and CPU taken inside the bot while it runs against SimCord in the same process.

SimCord's own waiting (it settles for 50 ms after each interaction) and its own work (building
payloads, storing messages) must not count as the bot's. So:

- **Times** are taken at the bot's edges: an interaction *arrives* when the bot's gateway parser
  receives it; it is *answered* when the bot first calls its response (a defer, a message, an
  update); a picture is *out* when the bot calls Discord to post or edit a message with a file in
  that channel (an edit through a click's token included). The handler is *done* when the bot's
  command or control handler returns.
- **CPU** of the event-loop thread is split per loop callback by whose task runs it: tasks whose
  coroutine comes from SimCord or from the benchmark's driver are theirs, everything else is the
  bot's; SimCord's HTTP routing, which runs inside the bot's tasks (the simulated "network"), is
  timed on its own and moved from the bot's share to SimCord's. Other threads of the process (the
  SQLite thread) and the worker processes (pictures, computer players) are the bot's.
"""

from __future__ import annotations

import asyncio
import asyncio.events
import collections
import contextlib
import functools
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord

HARNESS_FOLDERS = ("/simcord/", "/bench/")
PICTURE_ROUTE = re.compile(r"/channels/(\d+)/messages(?:/\d+)?$")
# A board edited through the token of a click on it (exempt from the rate limit): in the click's channel.
ORIGINAL_ROUTE = re.compile(r"/webhooks/\d+/([^/]+)/messages/@original$")
RESPONSES = ("defer", "send_message", "edit_message", "send_modal")


def worker_processes_cpu() -> float:
    """CPU seconds (user and system) of this process's worker processes, as the operating system
    counts them: its children spawned by multiprocessing (not a database server it started)."""
    import psutil

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):  # a worker that just ended
            if any("multiprocessing" in part for part in child.cmdline()):
                times = child.cpu_times()
                total += times.user + times.system
    return total


@functools.lru_cache(maxsize=4096)
def _harness_file(filename: str) -> bool:
    return any(folder in Path(filename).as_posix() for folder in HARNESS_FOLDERS)


class Probe:
    """Attach to a bot started under SimCord; ``detach()`` puts everything back."""

    def __init__(self, bot: Any):
        self.bot = bot
        self.arrived: dict[int, float] = {}
        self.answered: dict[int, float] = {}
        self.done: dict[int, float] = {}
        self.pictures: dict[int, list[float]] = collections.defaultdict(list)  # channel -> times a picture went out
        self._waiters: dict[Any, asyncio.Event] = {}
        self._undo: list[Callable[[], None]] = []
        self.harness_cpu = 0.0  # loop-thread CPU of SimCord and the driver
        self._routing_cpu = 0.0  # SimCord's HTTP routing inside the bot's tasks
        self._parsing_cpu = 0.0  # the bot's gateway parsing inside SimCord's (the driver's) tasks
        self._routing_depth = 0
        self._hook_arrivals()
        self._hook_answers()
        self._hook_handlers()
        self._hook_routing()
        self._hook_loop()

    # ------------------------------------------------------------ times
    def _hook_arrivals(self) -> None:
        parsers = self.bot._connection.parsers
        original = parsers["INTERACTION_CREATE"]

        def arrive(data: dict[str, Any]) -> None:
            # SimCord calls the parser from the driver's task; parsing is the bot's work.
            self.arrived[int(data["id"])] = time.perf_counter()
            cpu = time.thread_time()
            try:
                original(data)
            finally:
                self._parsing_cpu += time.thread_time() - cpu

        parsers["INTERACTION_CREATE"] = arrive
        self._undo.append(lambda: parsers.__setitem__("INTERACTION_CREATE", original))

    def _hook_answers(self) -> None:
        probe = self
        for name in RESPONSES:
            original = getattr(discord.InteractionResponse, name)

            def make(original: Callable[..., Any]) -> Callable[..., Any]:
                async def answer(self: discord.InteractionResponse, *args: Any, **kwargs: Any) -> Any:
                    probe.answered.setdefault(self._parent.id, time.perf_counter())
                    return await original(self, *args, **kwargs)

                return answer

            setattr(discord.InteractionResponse, name, make(original))
            self._undo.append(lambda name=name, original=original: setattr(discord.InteractionResponse, name, original))

    def _hook_handlers(self) -> None:
        controls, tree = self.bot.platform.controls, self.bot.tree
        run, call = controls.run, tree._call

        async def run_control(interaction: discord.Interaction, *args: Any, **kwargs: Any) -> None:
            try:
                await run(interaction, *args, **kwargs)
            finally:
                self._finish(interaction.id)

        async def call_command(interaction: discord.Interaction) -> None:
            try:
                await call(interaction)
            finally:
                self._finish(interaction.id)

        controls.run, tree._call = run_control, call_command
        self._undo.append(lambda: (setattr(controls, "run", run), setattr(tree, "_call", call)))

    def _finish(self, interaction_id: int) -> None:
        self.done[interaction_id] = time.perf_counter()
        self._signal(interaction_id)

    def _hook_routing(self) -> None:
        from simcord.http import router

        original = router.dispatch

        def dispatch(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
            start, cpu = time.perf_counter(), time.thread_time()
            self._routing_depth += 1
            try:
                return original(backend, method, path, *args, **kwargs)
            finally:
                self._routing_depth -= 1
                if self._routing_depth == 0:
                    self._routing_cpu += time.thread_time() - cpu
                found = PICTURE_ROUTE.search(path)
                channel = int(found[1]) if found else None
                hook = ORIGINAL_ROUTE.search(path)
                if hook and hook[1] in backend.interaction_tokens:
                    channel = backend.interaction_by_token(hook[1]).channel_id
                if channel is not None and kwargs.get("files") and method in ("POST", "PATCH"):
                    self.pictures[channel].append(start)
                    self._signal(("picture", channel))

        router.dispatch = dispatch
        self._undo.append(lambda: setattr(router, "dispatch", original))

    # ------------------------------------------------------------ CPU
    def _hook_loop(self) -> None:
        original = asyncio.events.Handle._run
        probe = self

        def run(handle: asyncio.events.Handle) -> None:
            if not probe._is_harness(handle):
                return original(handle)
            cpu = time.thread_time()
            try:
                return original(handle)
            finally:
                probe.harness_cpu += time.thread_time() - cpu

        asyncio.events.Handle._run = run
        self._undo.append(lambda: setattr(asyncio.events.Handle, "_run", original))

    @staticmethod
    def _is_harness(handle: asyncio.events.Handle) -> bool:
        task = getattr(handle._callback, "__self__", None)
        if not isinstance(task, asyncio.Task):
            return False
        code = getattr(task.get_coro(), "cr_code", None)
        return code is not None and _harness_file(code.co_filename)

    def cpu_snapshot(self) -> dict[str, float]:
        """Cumulative CPU seconds: the bot's (loop thread, other threads, workers) and SimCord's.

        ``workers``: timed inside the worker calls; ``worker processes``: the worker processes'
        whole CPU as the operating system counts it (unpickling, pickling and idle wake-ups too);
        ``bot only``: the bot's share of this process plus ``worker processes``, nothing of
        SimCord's or the driver's."""
        from bot.core.workers import PICTURES, REPLAYS, THINKING

        loop_thread = time.thread_time()
        harness = self.harness_cpu + self._routing_cpu - self._parsing_cpu
        in_process = (loop_thread - harness) + (time.process_time() - loop_thread)
        workers = PICTURES.cpu_seconds + THINKING.cpu_seconds + REPLAYS.cpu_seconds
        worker_processes = worker_processes_cpu()
        return {
            "bot": in_process + workers,
            "harness": harness,
            "workers": workers,
            "worker processes": worker_processes,
            "bot only": in_process + worker_processes,
        }

    # ------------------------------------------------------------ waiting
    def _signal(self, key: Any) -> None:
        event = self._waiters.pop(key, None)
        if event is not None:
            event.set()

    async def until_done(self, interaction_id: int, wait: float = 60) -> bool:
        if interaction_id not in self.done:
            event = self._waiters.setdefault(interaction_id, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), wait)
            except TimeoutError:
                return False
        return True

    async def picture_after(self, channel_id: int, since: float, wait: float = 60) -> float | None:
        """When the first picture after ``since`` went out in the channel (waiting for it)."""
        deadline = time.perf_counter() + wait
        while True:
            later = [t for t in self.pictures.get(channel_id, ()) if t >= since]
            if later:
                return min(later)
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return None
            event = self._waiters.setdefault(("picture", channel_id), asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                return None

    def detach(self) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()
