"""Many Octagion round ends due at the same moment (issue #29, "Timers that draw").

The real bot runs against SimCord in this process (as in :mod:`bench.load`). ``--games``
Octagion games (1,000 by default) are opened in channels of their own; their first round's
message goes out at the same simulated instant, so their round-end timers are all due together.
The simulated clock then jumps past that deadline and the scheduler is woken: every game ends its
round, posts its result picture and arms its next round (far enough away that it does not fall
in the measure). Meanwhile a driver plays Octego moves in other channels (menu clicks and
selects, ``--rate`` moves a second, none at 0) and times how soon the bot acknowledges each
interaction: from when its click was due to be sent (a late event loop sends it late too), and
from its arrival in the bot.

    python -m bench.bench_round_ends [--games 1000] [--rate 20] [--octego 40]

Reported: the wall time from the firing until every result is posted; the bot's CPU seconds in
that time (this process's share that is the bot's, plus its worker processes, as
:mod:`bench.probe` counts them, the Octego moves' included; and the whole process with its
children, SimCord's work included); the acknowledgement times (p50 / p99) during the round ends,
and during a quiet period before them; the event loop's lag; how many Octego moves were done and
how many clicks the bot answered "busy"; and the load average, since other work on the machine
shares its cores. ``python -m bench round_ends`` runs a small version (200 games) as rows of the
table."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

from bench import Row, sized, value

GAMES = 1000
TABLE_GAMES = 200  # the small version `python -m bench` runs
OCTEGO_TABLES = 40
RATE = 20.0  # Octego moves offered a second while the round ends run
QUIET_SECONDS = 3.0
WAIT_SECONDS = 180.0
OCTAGION_OPTIONS = {"rounds": 8, "teams": [0, 1]}
RESULT_FILE = "octagion-result-"


def percentile(samples: list[float], share: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def process_cpu() -> float:
    """CPU seconds of this process and all its children (the worker processes), as the OS counts them."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


class TurnedAway(logging.Filter):
    """Counts the interactions the bot answered "busy" (and keeps their log lines quiet)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self._logger = logging.getLogger("bot.ui.replies")
        self._logger.addFilter(self)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("busy: turned away"):
            self.count += 1
            return False
        return True

    def detach(self) -> None:
        self._logger.removeFilter(self)


class Results:
    """When each channel's round result went out (a new message with the result picture)."""

    def __init__(self) -> None:
        from simcord.http import router

        self.posted: dict[int, float] = {}
        self.changed = asyncio.Event()
        self._router = router
        self._dispatch = original = router.dispatch

        def dispatch(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
            answer = original(backend, method, path, *args, **kwargs)
            files = kwargs.get("files") or ()
            if method == "POST" and any(getattr(f, "filename", "").startswith(RESULT_FILE) for f in files):
                channel = int(path.split("/")[2])
                self.posted.setdefault(channel, time.perf_counter())
                self.changed.set()
            return answer

        router.dispatch = dispatch

    async def until(self, count: int, wait: float) -> bool:
        deadline = time.perf_counter() + wait
        while len(self.posted) < count:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                return False
        return True

    def detach(self) -> None:
        self._router.dispatch = self._dispatch


def timed_driver(env: Any, probe: Any, tables: list[Any]) -> Any:
    """:class:`bench.load.Driver` whose first click of a move is timed from when it was due to be
    sent (an event loop that is late to send it is late to answer it), the others from their
    arrival in the bot."""
    from bench.load import Driver

    class TimedDriver(Driver):
        offered: ClassVar[dict[asyncio.Task, float]] = {}
        in_bot: ClassVar[list[float]] = []  # from each interaction's arrival in the bot

        async def interact(self, started: Any) -> tuple[int, bool]:
            offered = self.offered.pop(asyncio.current_task(), None)
            result = await started
            interaction_id = result._interaction.id
            finished = await self.probe.until_done(interaction_id)
            if finished and interaction_id in self.probe.answered:
                arrived, answered = self.probe.arrived[interaction_id], self.probe.answered[interaction_id]
                self.tally.answers.append(answered - (arrived if offered is None else offered))
                self.in_bot.append(answered - arrived)
            else:
                self.tally.lost += 1
            return interaction_id, finished

        async def move_at(self, table: Any, offered: float) -> None:
            self.offered[asyncio.current_task()] = offered
            await self.move(table)

    return TimedDriver(env, probe, tables, seed=1)


async def octego_stream(driver: Any, tables: list[Any], rate: float, stop: asyncio.Event) -> None:
    """Octego moves at ``rate`` a second, each on a table not already moving, until ``stop``
    (none at a rate of 0)."""
    if rate <= 0:
        await stop.wait()
        return
    idle = list(tables)
    moving: set[asyncio.Task] = set()
    start, tick = time.perf_counter(), 0
    while not stop.is_set():
        offered = start + tick / rate
        await asyncio.sleep(max(0.0, offered - time.perf_counter()))
        tick += 1
        if not idle:
            continue
        table = idle.pop(driver.random.randrange(len(idle)))
        task = asyncio.ensure_future(driver.move_at(table, offered))
        moving.add(task)
        task.add_done_callback(lambda done, table=table: (moving.discard(done), idle.append(table)))
        if tick % 10 == 0:
            driver.tidy_simcord()
    if moving:
        await asyncio.wait(moving, timeout=60)


async def measure(games: int, rate: float, octego: int, quiet_seconds: float = QUIET_SECONDS) -> dict[str, Any]:
    import simcord

    import bot.games.octagion.rounds as rounds
    from bench.load import build_tables, open_session
    from bench.load_measure import lag_monitor, real_time_clock
    from bench.probe import Probe
    from bot.app import create_bot
    from bot.core.settings import Settings
    from engines.octagion import round_seconds

    pause = rounds.NEXT_ROUND_PAUSE
    # The next rounds are not part of the measure: their timers fall far beyond it.
    rounds.NEXT_ROUND_PAUSE = 3600
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_path=str(Path(folder) / "round_ends.db"), game_threads=False)
        bot = create_bot(settings)
        try:
            async with simcord.run(bot) as env:
                tables = build_tables(env, games + octego)
                octagion, others = tables[:games], tables[games:]
                print(f"opening {games} Octagion and {octego} Octego games ...", flush=True)
                for table in octagion:
                    await open_session(env, table, "octagion", OCTAGION_OPTIONS)
                for table in others:
                    await open_session(env, table, "octego", {})
                await env.settle()
                session = await bot.platform.sessions.load(octagion[0].session_id)
                due = round_seconds(session.state)
                pending = await bot.store.pending_timers()
                deadlines = {t.deadline for t in pending if t.kind == "octagion_round_end"}
                assert len(deadlines) == 1, f"round ends not due together: {len(deadlines)} deadlines"
                probe, results = Probe(bot), Results()
                settle = env._settle_internal

                async def no_settling(**_: Any) -> None:
                    return None

                env._settle_internal = no_settling  # overlap interactions, as on Discord
                # SimCord's clock follows real time moved by the bench alone (bench load's clock),
                # and jumps to the round ends when the bench says: a timer of the bot falling due
                # would otherwise make SimCord step its clock through every pending timer, scanning
                # every message at each step (seconds in which nothing else runs).
                advancing, env._advancing = env._advancing, True
                stop_clock = asyncio.Event()
                clock = asyncio.ensure_future(real_time_clock(env, stop_clock))
                driver = timed_driver(env, probe, others)
                try:
                    print(f"quiet: {quiet_seconds:g} s of Octego moves ...", flush=True)
                    stop = asyncio.Event()
                    stream = asyncio.ensure_future(octego_stream(driver, others, rate, stop))
                    await asyncio.sleep(quiet_seconds)
                    stop.set()
                    await stream
                    quiet = driver.tally.answers
                    driver.tally = type(driver.tally)()
                    driver.in_bot.clear()

                    print(f"firing {games} round ends ...", flush=True)
                    stop = asyncio.Event()
                    stream = asyncio.ensure_future(octego_stream(driver, others, rate, stop))
                    turned_away = TurnedAway()
                    lags: list[float] = []
                    monitor = asyncio.ensure_future(lag_monitor(lags, stop))
                    await asyncio.sleep(0.5)  # the stream runs before the round ends are due
                    cpu, whole, load = probe.cpu_snapshot(), process_cpu(), os.getloadavg()
                    start = time.perf_counter()
                    env._move_clock(env._virtual_time + due + 1)
                    bot.platform.timers._wake()  # the scheduler's sleep ends: everything is due
                    finished = await results.until(games, WAIT_SECONDS)
                    wall = time.perf_counter() - start
                    cpu_after, whole_after = probe.cpu_snapshot(), process_cpu()
                    stop.set()
                    await stream
                    await monitor
                    turned_away.detach()
                    busy = driver.tally
                finally:
                    stop_clock.set()
                    await clock
                    env._settle_internal, env._advancing = settle, advancing
                    env._work.callbacks = list(env._work.callbacks)
                    results.detach()
                    probe.detach()
        finally:
            rounds.NEXT_ROUND_PAUSE = pause
            await bot.release()
    return {
        "games": games,
        "posted": len(results.posted),
        "finished": finished,
        "wall": wall,
        "bot cpu": cpu_after["bot only"] - cpu["bot only"],
        "workers cpu": cpu_after["worker processes"] - cpu["worker processes"],
        "drawing cpu": cpu_after["workers"] - cpu["workers"],
        "process cpu": whole_after - whole,
        "quiet": quiet,
        "during": busy.answers,
        "in bot": list(driver.in_bot),
        "loop lag": lags,
        "busy": turned_away.count,
        "refused": busy.refused,
        "lost": busy.lost,
        "moves": busy.moves,
        "load": load,
        "load after": os.getloadavg(),
        "cores": os.cpu_count() or 1,
    }


def ms(samples: list[float]) -> str:
    if not samples:
        return "n/a"
    return f"{statistics.median(samples) * 1000:.0f} / {percentile(samples, 0.99) * 1000:.0f}"


def report(figures: dict[str, Any]) -> str:
    loads = " / ".join(f"{x:.2f}" for x in figures["load"])
    after = " / ".join(f"{x:.2f}" for x in figures["load after"])
    return "\n".join(
        [
            f"{figures['games']} Octagion round ends due at once, {figures['cores']} cores",
            f"  results posted                       {figures['posted']} of {figures['games']}"
            + ("" if figures["finished"] else " (gave up waiting)"),
            f"  wall time until all posted           {figures['wall']:.2f} s",
            f"  bot CPU                              {figures['bot cpu']:.2f} s "
            f"(worker processes {figures['workers cpu']:.2f} s, of which drawing {figures['drawing cpu']:.2f} s)",
            f"  process + children CPU               {figures['process cpu']:.2f} s (SimCord and driver included)",
            f"  Octego ack p50 / p99 (ms), quiet     {ms(figures['quiet'])} ({len(figures['quiet'])} interactions)",
            f"  Octego ack p50 / p99 (ms), during    {ms(figures['during'])} ({len(figures['during'])} interactions)",
            f"  ... from arrival in the bot          {ms(figures['in bot'])}",
            f"  event-loop lag p50 / p99 (ms)        {ms(figures['loop lag'])}",
            f"  Octego moves / refused / lost        {figures['moves']} / {figures['refused']} / {figures['lost']} "
            f"(clicks answered busy: {figures['busy']})",
            f"  load average before / after          {loads}  ->  {after}",
        ]
    )


def run() -> list[Row]:
    """The rows of ``python -m bench``: a small version (``TABLE_GAMES`` round ends; 5 in quick mode)."""
    games = sized(TABLE_GAMES, 5)
    figures = asyncio.run(measure(games, RATE, sized(OCTEGO_TABLES, 2), quiet_seconds=sized(QUIET_SECONDS, 0.5)))
    name = f"round ends: {games} due at once"
    note = "load average " + " / ".join(f"{x:.2f}" for x in figures["load"])
    return [
        value(f"{name}, wall until all posted", figures["wall"], "s", note=note),
        value(f"{name}, bot CPU", figures["bot cpu"], "s", note="worker processes included"),
        Row(f"{name}, Octego ack meanwhile", figures["during"] or [float("nan")], note="from when the click was due"),
        Row(f"{name}, Octego ack quiet", figures["quiet"] or [float("nan")]),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_round_ends", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--rate", type=float, default=RATE, help="Octego moves offered a second")
    parser.add_argument("--octego", type=int, default=OCTEGO_TABLES, help="Octego games the moves go to")
    options = parser.parse_args(argv)
    print(report(asyncio.run(measure(options.games, options.rate, options.octego))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
