"""``python -m bench load --profile``: where the bot's main process spends its CPU per move.

cProfile (the standard library's) watches the event loop's thread while moves are offered, in the
bot's callbacks only: those of SimCord's and the driver's tasks are left out as :mod:`bench.probe`
leaves them out of the bot's CPU (SimCord's HTTP routing inside the bot's tasks is profiled, and
shown in its own group). Its figures are inflated by the profiler's own cost, so read them as
shares: each function's own time is put in one group by the file it is in;
the time of a built-in or of the standard library (``json.dumps``, ``copy.deepcopy``, pickling) goes
to the groups of the functions that called it, in proportion, and the groups add up to the loop
thread's profiled time. The process's other threads (SQLite's) are not
profiled; their CPU per move is printed beside, from the operating system's clock of each thread.
"""

from __future__ import annotations

import asyncio
import asyncio.events
import contextlib
import cProfile
import pstats
import threading
import time
from collections import defaultdict
from typing import Any

# (group, parts of a file's path that put a function in it); the first that matches wins.
GROUPS: list[tuple[str, tuple[str, ...]]] = [
    ("SimCord and the driver", ("/simcord/", "/bench/")),
    (
        "picture hand-off (pool, pickling)",
        ("/bot/core/workers.py", "/concurrent/futures/", "/multiprocessing/", "/render/", "/PIL/"),
    ),
    (
        "outbox calls (requests to Discord)",
        (
            "/bot/core/outbox.py",
            "/bot/core/pace.py",
            "/bot/core/outgoing.py",
            "/bot/core/attachments.py",
            "/discord/http.py",
            "/discord/webhook/",
            "/discord/file.py",
            "/aiohttp/",
            "/multidict/",
            "/yarl/",
        ),
    ),
    (
        "the change (sessions.change, store, engines)",
        (
            "/bot/core/sessions.py",
            "/bot/core/change.py",
            "/bot/core/store.py",
            "/bot/core/sql_store.py",
            "/bot/core/sqlite_database.py",
            "/bot/core/postgres_database.py",
            "/bot/core/statements.py",
            "/bot/core/rows.py",
            "/bot/core/timers.py",
            "/aiosqlite/",
            "/asyncpg/",
            "/engines/",
        ),
    ),
    ("gateway parsing and dispatch (discord.py)", ("/discord/",)),
    ("the bot's handlers (ui, games, features)", ("/bot/",)),
    ("asyncio's loop and the rest", ("",)),
]
NEUTRAL = GROUPS[-1][0]  # the standard library's own time goes to the groups of its callers
DEPTH = 12  # how far up the callers a neutral function's time is followed
TOP = 25


def group_of(filename: str) -> str:
    path = filename.replace("\\", "/")
    return next(name for name, parts in GROUPS if any(part in path for part in parts))


def _label(function: tuple[str, int, str]) -> str:
    filename, line, name = function
    if filename == "~":
        return name
    path = filename.replace("\\", "/")
    for root in ("/site-packages/", "/main/", "/lib/python3"):
        if root in path:
            path = path.split(root, 1)[1]
            break
    return f"{path}:{line}({name})"


def other_threads_cpu() -> float:
    """CPU seconds of this process's threads other than the calling one (SQLite's, the loop's
    executors), as the operating system counts each thread."""
    total = 0.0
    me = threading.get_ident()
    for thread in threading.enumerate():
        if thread.ident is None or thread.ident == me:
            continue
        with contextlib.suppress(OSError, ProcessLookupError):  # a thread that just ended
            total += time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    return total


class LoopProfile:
    """cProfile of the loop's thread between ``start()`` and ``stop()``, and the other threads' CPU."""

    def __init__(self) -> None:
        self.profile = cProfile.Profile()  # the wall clock: a thread's CPU clock costs more than it profiles
        self._undo: Any = None
        self.moves = 0
        self.loop_cpu = self.threads_cpu = 0.0
        self._marks = (0.0, 0.0)

    def start(self) -> None:
        from bench.probe import Probe

        self._marks = (time.thread_time(), other_threads_cpu())
        original, profile = asyncio.events.Handle._run, self.profile

        def run(handle: asyncio.events.Handle) -> None:
            if Probe._is_harness(handle):
                return original(handle)
            profile.enable()
            try:
                return original(handle)
            finally:
                profile.disable()

        asyncio.events.Handle._run = run  # type: ignore[method-assign, assignment]
        self._undo = original

    def stop(self, moves: int) -> None:
        asyncio.events.Handle._run = self._undo  # type: ignore[method-assign]
        loop, threads = self._marks
        self.loop_cpu += time.thread_time() - loop
        self.threads_cpu += other_threads_cpu() - threads
        self.moves += moves

    def groups(self, stats: pstats.Stats) -> dict[str, float]:
        """Own seconds by group; a neutral function's shared among its callers' groups."""
        table = stats.stats  # type: ignore[attr-defined]
        shares: dict[Any, dict[str, float]] = {}

        def share_of(function: Any, depth: int, seen: frozenset[Any]) -> dict[str, float]:
            group = NEUTRAL if function[0] == "~" else group_of(function[0])
            callers = table.get(function, (0, 0, 0, 0, {}))[4]
            if group != NEUTRAL or not callers or depth == 0 or function in seen:
                return {group: 1.0}
            if function in shares:
                return shares[function]
            weights = {caller: edge[3] for caller, edge in callers.items() if caller not in seen}
            whole = sum(weights.values())
            if not whole:
                return {group: 1.0}
            mixed: dict[str, float] = defaultdict(float)
            for caller, weight in weights.items():
                for name, part in share_of(caller, depth - 1, seen | {function}).items():
                    mixed[name] += part * weight / whole
            shares[function] = dict(mixed)
            return shares[function]

        by_group: dict[str, float] = defaultdict(float)
        for function, (_, _, own, _, _) in table.items():
            for name, part in share_of(function, DEPTH, frozenset()).items():
                by_group[name] += own * part
        return dict(by_group)

    def report(self) -> str:
        stats = pstats.Stats(self.profile)
        moves = max(1, self.moves)
        per_move = 1000 / moves
        groups = self.groups(stats)
        whole = sum(groups.values()) or 1.0
        lines = [
            f"profile of the event loop's thread over {self.moves} moves (cProfile: its own cost inflates "
            "every figure, read the shares)",
            f"  loop thread CPU per move (profiled, SimCord's too) {self.loop_cpu * per_move:.1f} ms",
            f"  other threads' CPU per move (SQLite)   {self.threads_cpu * per_move:.1f} ms",
            "",
            "  own time by group                            ms/move  share",
        ]
        for name, seconds in sorted(groups.items(), key=lambda item: -item[1]):
            lines.append(f"  {name:<44} {seconds * per_move:7.2f}  {seconds / whole:5.0%}")
        rows = stats.stats.items()  # type: ignore[attr-defined]
        lines += ["", f"  top {TOP} by cumulative time (ms/move, calls/move, function)"]
        for function, (_, calls, _, cumulative, _) in sorted(rows, key=lambda item: -item[1][3])[:TOP]:
            lines.append(f"  {cumulative * per_move:8.2f} {calls / moves:8.1f}  {_label(function)}")
        lines += ["", f"  top {TOP} by own time (ms/move, calls/move, function)"]
        for function, (_, calls, own, _, _) in sorted(rows, key=lambda item: -item[1][2])[:TOP]:
            lines.append(f"  {own * per_move:8.2f} {calls / moves:8.1f}  {_label(function)}")
        return "\n".join(lines)

    def dump(self, path: str) -> None:
        """The raw profile, for ``python -m pstats`` or snakeviz."""
        self.profile.dump_stats(path)
