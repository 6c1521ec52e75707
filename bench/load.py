"""``python -m bench load``: many sessions of all five games played at once through SimCord.

The bot runs unmodified against a simulated Discord in this process. Sessions are opened
directly through the platform (an untimed set-up), then a driver offers moves at a fixed rate,
each to a session that is not already moving, the way players would: it clicks the game
message's menu button and picks the choices of a random legal action (Octagion: a team's
variant with `/octagion play`, and sometimes Got it!). SimCord's settling (it waits 50 ms after
every interaction) is turned off while the load runs, so interactions overlap as they would
on Discord. Times and CPU are the bot's own, taken by :mod:`bench.probe`.

    python -m bench load [--sessions 1000] [--rate 50 100 150] [--seconds 30]
                         [--database sqlite|postgresql|both|postgresql://...] [--threads on|off]

Each game is played in a thread of its own (``--threads off``: in its channel), so a move's cost
includes what games in threads add: the turn notice posted, the last one deleted, the card edited.

Each rate is a separate run on the same sessions, reported one after the other. The store is a
SQLite file (the default) or PostgreSQL: a server started for the run in a temporary folder
(pgserver), or the empty database at a URL; ``both`` runs SQLite and then PostgreSQL in one
invocation and prints them side by side, so that their ratio comes from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import itertools
import os
import random
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from engines.registry import games

# Options a game is loaded with instead of its defaults: Octagion long enough to keep playing.
LOAD_OPTIONS = {"octagion": {"rounds": 16, "teams": [0, 1]}}
CHANNELS_PER_GUILD = 250  # Discord allows 500 channels in a server
WARMUP_SECONDS = 5
LAG_TICK = 0.02  # the loop-lag monitor's sleep
GOT_IT_SHARE = 0.2  # of Octagion moves, the part that ends the round
CLOCK_STEP_SECONDS = 0.1  # how often the simulated clock catches up with real time
THREAD_OPEN_SECONDS = 30  # how long a new game's thread may take to open (its first post answered 429)
THREADS = True  # games in threads (the default on a server); --threads off plays in the channels


@dataclasses.dataclass
class Table:
    """One session's channel and the members who play there. ``place``: where its game is
    played, the game's thread (as on a server with game threads, the default) or the channel."""

    channel: Any
    actors: dict[int, Any]  # user id -> simcord MemberActor in this channel's guild
    session_id: int = 0
    place: Any = None


@dataclasses.dataclass
class Tally:
    moves: int = 0
    refused: int = 0
    lost: int = 0  # an interaction or picture that never came (within a minute)
    answers: list[float] = dataclasses.field(default_factory=list)  # arrival -> first response, per interaction
    pictures: list[float] = dataclasses.field(default_factory=list)  # arrival of the move -> its picture out
    unoffered: int = 0  # ticks where every session was already moving
    completed: list[float] = dataclasses.field(default_factory=list)  # when each move was done


def percentile(samples: Sequence[float], share: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def load_games() -> list[tuple[str, dict[str, Any]]]:
    """(game, options) for every registered game, in the registry's order."""
    return [(game, LOAD_OPTIONS.get(game, {})) for game in games()]


class Driver:
    def __init__(self, env: Any, probe: Any, tables: list[Table], seed: int = 1):
        self.env, self.probe, self.tables = env, probe, tables
        self.platform = env.bot.platform
        self.random = random.Random(seed)
        self.tally = Tally()

    # ------------------------------------------------------------ one interaction
    async def interact(self, started: Any) -> tuple[int, bool]:
        """Wait for the bot to finish handling an interaction; its id and whether it finished."""
        result = await started
        interaction_id = result._interaction.id
        finished = await self.probe.until_done(interaction_id)
        if finished and interaction_id in self.probe.answered:
            self.tally.answers.append(self.probe.answered[interaction_id] - self.probe.arrived[interaction_id])
        else:
            self.tally.lost += 1
        return interaction_id, finished

    # ------------------------------------------------------------ moves
    async def move(self, table: Table) -> None:
        session = await self.platform.sessions.load(table.session_id)
        if session.status != "active":
            await open_session(self.env, table, session.record.game, LOAD_OPTIONS.get(session.record.game, {}))
            return
        if session.record.game == "octagion":
            await self.octagion_move(table, session)
        else:
            await self.menu_move(table, session)

    async def menu_move(self, table: Table, session: Any) -> None:
        menus, adapter = self.platform.menus, self.platform.games[session.record.game]
        engine = adapter.engine
        seat = engine.to_act(session.state)[0]
        actor = table.actors[session.players[seat]]
        message = next(m for m in reversed(table.place.history()) if m.id == session.record.message_id)
        buttons = [c for row in message.components for c in row.children if ":menu:" in (c.custom_id or "")]
        opened = [(button, menus.menus[button.custom_id.rsplit(":", 1)[1]][0]) for button in buttons]
        offered = [
            (button, menu, action) for button, menu in opened for action in menus.actions(menu, engine, session, seat)
        ]
        if not offered:
            self.tally.refused += 1
            return
        button, menu, action = self.random.choice(offered)
        path = menu_path(menus, menu, engine, session, seat, action)
        last, finished = await self.interact(actor.click(message, custom_id=button.custom_id))
        panel = None
        for values in path:
            if not finished:
                return
            panel = panel or self._result_of(last)
            last, finished = await self.select(actor, panel, values)
        panel = panel or self._result_of(last)
        if not finished or not panel.content.startswith("Done."):
            self.tally.refused += 1
            return
        await self.picture_of(table, last)

    async def select(self, actor: Any, panel: Any, values: list[str]) -> tuple[int, bool]:
        """Choose ``values`` in the panel's select, paging forward until they are shown."""
        from bot.ui.menus import PAGE

        for page in itertools.count(1):
            options = [o["value"] for row in panel.components for c in row["components"] for o in c.get("options", [])]
            if all(value in options for value in values):
                return await self.interact(actor.select(panel, values))
            if f"{PAGE}{page}" not in options:
                return 0, False
            _, finished = await self.interact(actor.select(panel, [f"{PAGE}{page}"]))
            if not finished:
                return 0, False
        raise AssertionError("unreachable")

    async def octagion_move(self, table: Table, session: Any) -> None:
        state = session.state
        if state.phase != "playing":
            self.tally.refused += 1
            return
        actor = table.actors[self.random.choice(session.players)]
        if self.random.random() < GOT_IT_SHARE:  # the round message's own button, as players press it
            message = next((m for m in reversed(table.place.history()) if m.id == session.record.message_id), None)
            if message is None:
                self.tally.refused += 1
                return
            last, finished = await self.interact(actor.click(message, label="Got it!"))
            if finished and not self.env.backend.interactions[last].followup_ids:  # else refused: said privately
                await self.picture_of(table, last)
            else:
                self.tally.refused += 1
            return
        variant = "".join(self.random.sample("12345678", 8))
        last, finished = await self.interact(actor.slash(table.place, "octagion play", cards=variant))
        if self._answered(last, finished, "Only you can see this."):
            self.moved()  # a variant is private: no public picture to wait for

    def _answered(self, interaction_id: int, finished: bool, sign: str) -> bool:
        """Whether the bot's private answer says the action took effect (``sign`` is in it)."""
        if finished and sign in self._result_of(interaction_id).content:
            return True
        self.tally.refused += 1
        return False

    def moved(self) -> None:
        self.tally.moves += 1
        self.tally.completed.append(time.perf_counter())

    async def picture_of(self, table: Table, interaction_id: int) -> None:
        arrived = self.probe.arrived[interaction_id]
        out = await self.probe.picture_after(table.place.id, arrived)
        self.moved()
        if out is None:
            self.tally.lost += 1
        else:
            self.tally.pictures.append(out - arrived)

    def _result_of(self, interaction_id: int) -> Any:
        from simcord.results import ResponseMessage

        interaction = self.env.backend.interactions[interaction_id]
        message = self.env.backend.get_message(interaction.channel_id, interaction.message_id)
        return ResponseMessage(self.env, message)

    def tidy_simcord(self) -> None:
        """What SimCord's settling would do between interactions: forget cancelled callbacks (it
        removes each finished one from a list, so a list that only grows makes every callback of
        the bot slower), and its log of every event (not the bot's memory)."""
        work = self.env._work
        work.callbacks = Records(r for r in work.callbacks if r.handle is not None and not r.handle.cancelled())
        self.env.backend.transcript.clear()

    # ------------------------------------------------------------ the offered load
    async def offer(self, rate: float, seconds: float) -> Tally:
        self.tally = Tally()
        idle = list(self.tables)
        self.random.shuffle(idle)
        moving: set[asyncio.Task[None]] = set()
        start = time.perf_counter()
        ticks = int(rate * seconds)
        for tick in range(ticks):
            await asyncio.sleep(max(0.0, start + tick / rate - time.perf_counter()))
            if not idle:
                self.tally.unoffered += 1
                continue
            table = idle.pop(self.random.randrange(len(idle)))
            task = asyncio.ensure_future(self.move(table))
            moving.add(task)
            task.add_done_callback(lambda done, table=table: (moving.discard(done), idle.append(table)))
            if tick % max(1, int(rate / 10)) == 0:
                self.tidy_simcord()
        if moving:
            await asyncio.wait(moving, timeout=120)
        return self.tally


class Records:
    """SimCord's list of the bot's pending callbacks, with removal by identity in constant time:
    the list's own ``remove`` compares records field by field, and with hundreds pending that
    cost (SimCord's, inside the bot's tasks) grew with the load."""

    def __init__(self, records: Any = ()):
        self._by_id = {id(record): record for record in records}

    def append(self, record: Any) -> None:
        self._by_id[id(record)] = record

    def remove(self, record: Any) -> None:
        if self._by_id.pop(id(record), None) is None:
            raise ValueError("not tracked")

    def clear(self) -> None:
        self._by_id.clear()

    def __iter__(self) -> Any:
        return iter(list(self._by_id.values()))

    def __len__(self) -> int:
        return len(self._by_id)


def menu_path(menus: Any, menu: Any, engine: Any, session: Any, seat: int, action: dict) -> list[list[str]]:
    """The values to pick, step after step, for the menu to end on ``action``."""
    chosen: list[str] = []
    picks: list[list[str]] = []
    while True:
        _, index = menus.narrow(menu, engine, session, seat, chosen)
        if index is None:
            return picks
        step = menu.steps[index]
        key = step.key(action)
        values = [str(v) for v in key] if step.many else [str(key)]
        picks.append(values)
        chosen.append("+".join(values))


async def open_session(env: Any, table: Table, game: str, options: dict) -> None:
    """A running game in the table's channel, opened directly (set-up is not measured)."""
    platform = env.bot.platform
    # The bot's code runs on the bot's clock (SimCord's), as in its own tasks: called from here it
    # would read the real monotonic clock, and the request budget would mix the two.
    with env._bot_scope():
        await open_game(platform, table, game, options)
    table.place = await place_of(platform, table) if THREADS else table.channel


async def open_game(platform: Any, table: Table, game: str, options: dict) -> None:
    from bot.core.sessions import SessionMeta
    from bot.dev.world import MEMBER_NAMES

    players = list(table.actors)[:2]
    names = list(MEMBER_NAMES[: len(players)])
    meta = SessionMeta(names=names, options=options, seats=players)
    async with platform.sessions.open(
        game=game,
        guild_id=table.channel.guild.id,
        channel_id=table.channel.id,
        host_id=players[0],
        players=players,
        status="challenge",
        meta=meta,
        busy_text=lambda _: "busy",
        in_thread=THREADS,
    ) as change:
        change.start(players, names, options, random.randrange(2**31))
        if game == "octagion":
            from bot.games.octagion import ROUND_POST

            change.quiet()
            change.post(ROUND_POST, {"round": 1})
    table.session_id = change.record.id
    await platform.outbox.flush(table.session_id)


async def place_of(platform: Any, table: Table) -> Any:
    """The thread of the table's game once its game message is out: the outbox may have been
    answered 429 (a channel's messages come at Discord's pace) and posts it at its retry, as the
    clock goes on."""
    for _ in range(int(THREAD_OPEN_SECONDS / 0.05)):
        record = await platform.store.get_session(table.session_id)
        thread = next((thread for thread in table.channel.threads if thread.id == record.thread_id), None)
        if thread is not None and any(message.id == record.message_id for message in thread.history()):
            return thread
        await asyncio.sleep(0.05)
    raise TimeoutError(f"the thread of session {table.session_id} never opened")


class SaveTimes:
    """How long the store takes to save a change of a session (a move, mostly): its transaction
    from the first statement to COMMIT, as the bot waits for it (event-loop lag included)."""

    def __init__(self, store: Any):
        self.samples: list[float] = []
        self._store = store
        self._transaction = store.transaction
        store.transaction = self._timed

    @contextlib.asynccontextmanager
    async def _timed(self) -> Any:
        saved = False
        start = time.perf_counter()
        async with self._transaction() as tx:
            update = tx.update_session

            async def update_session(*args: Any, **kwargs: Any) -> None:
                nonlocal saved
                saved = True
                await update(*args, **kwargs)

            tx.update_session = update_session
            yield tx
        if saved:
            self.samples.append(time.perf_counter() - start)

    def detach(self) -> None:
        self._store.transaction = self._transaction


class ServerCpu:
    """CPU seconds of the PostgreSQL server's processes when it runs on this machine (pgserver's
    does), which the bot's figure leaves out; None for SQLite (its thread is the bot's) or a
    server elsewhere."""

    def __init__(self, postmaster: Any):
        self._postmaster = postmaster

    @classmethod
    async def of(cls, store: Any) -> ServerCpu:
        import psutil

        if store.dialect != "postgresql":
            return cls(None)
        backend = (await store.database.rows("SELECT pg_backend_pid()"))[0][0]
        try:
            postmaster = psutil.Process(backend).parent()
        except psutil.Error:
            return cls(None)
        return cls(postmaster if postmaster and "postgres" in postmaster.name() else None)

    def seconds(self) -> float | None:
        import psutil

        if self._postmaster is None:
            return None
        total = 0.0
        for process in [self._postmaster, *self._postmaster.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):  # a backend that just ended
                times = process.cpu_times()
                total += times.user + times.system
        return total


async def real_time_clock(env: Any, stop: asyncio.Event) -> None:
    """SimCord's clock follows real time while the load runs, as Discord's does, so that what the
    bot schedules (a card's edit 4 s after a move, a retry) falls due on time. SimCord's own jump
    to each due timer is off meanwhile (``env._advancing``): stepping its clock through thousands of
    pending timers at once stalls the loop for seconds, an artefact of the simulator that a bot on
    Discord never meets. So the bot's own timers that fall due (a sleep waiting for its place in
    the request budget, an outbox retry) are run here, as SimCord's jump would run them."""
    from simcord._settlement import _run_due_virtual_callbacks

    loop = asyncio.get_running_loop()
    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(CLOCK_STEP_SECONDS)
        # The real time gone by, going on from any jump the benchmark makes. The clock alone:
        # SimCord's move also scans every message for polls and events that fall due (this bot
        # makes none), which with the load's messages took the loop for tens of ms.
        now = time.perf_counter()
        env.backend.advance_clock(now - last)
        last = now
        _run_due_virtual_callbacks(env._settlement_state(), loop.time() + CLOCK_STEP_SECONDS / 2)


async def lag_monitor(samples: list[float], stop: asyncio.Event) -> None:
    """How late the event loop wakes a task that asked to sleep ``LAG_TICK``."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        samples.append(time.perf_counter() - start - LAG_TICK)


def rss_bytes() -> int:
    import psutil

    me = psutil.Process()
    return me.memory_info().rss + sum(child.memory_info().rss for child in me.children(recursive=True))


async def run(
    sessions: int,
    rates: Sequence[float],
    seconds: float,
    warmup: float = WARMUP_SECONDS,
    database: str | None = None,
) -> list[dict[str, Any]]:
    """``database``: a SQLite path or a PostgreSQL URL (an empty database); None: a SQLite file
    in a temporary folder."""
    import simcord

    from bench.probe import Probe
    from bot.app import create_bot
    from bot.core.database import is_postgres
    from bot.core.settings import Settings
    from bot.dev.discord_rules import use_discord_rules

    use_discord_rules()  # Discord's global rate limit answers 429 past 50 counted requests a second

    reports = []
    with tempfile.TemporaryDirectory() as folder:
        database = database or str(Path(folder) / "load.db")
        where = {"database_url": database} if is_postgres(database) else {"database_path": database}
        # Each game in a thread of its own, as a server with game threads (the default) has them:
        # a move also posts a "your move" notice, deletes the last one and edits the game's card.
        settings = Settings(**where, game_threads=THREADS)
        bot = create_bot(settings)
        try:
            async with simcord.run(bot) as env:
                tables = build_tables(env, sessions)
                print(f"opening {sessions} sessions ({bot.store.dialect}) ...", flush=True)
                played = load_games()
                for number, table in enumerate(tables):
                    game, options = played[number % len(played)]
                    await open_session(env, table, game, options)
                # The simulated Discord's set-up (1,000 channels, their messages) is not the bot's
                # heap: frozen out of the collector, so that a full collection scans what a bot on
                # Discord would hold (unfrozen, such collections stalled the loop 0.4 s each).
                gc.collect()
                gc.freeze()
                probe, saves = Probe(bot), SaveTimes(bot.store)
                server = await ServerCpu.of(bot.store)
                settle = env._settle_internal

                async def no_settling(**_: Any) -> None:
                    return None

                env._settle_internal = no_settling  # overlap interactions, as on Discord
                advancing, env._advancing = env._advancing, True
                stop_clock = asyncio.Event()
                clock = asyncio.ensure_future(real_time_clock(env, stop_clock))
                try:
                    driver = Driver(env, probe, tables)
                    print("warming up ...", flush=True)
                    await driver.offer(rate=min(rates), seconds=warmup)
                    for rate in rates:
                        print(f"offering {rate:g} moves/s for {seconds:g} s ...", flush=True)
                        reports.append(await measured(driver, probe, saves, server, rate, seconds, sessions, database))
                finally:
                    stop_clock.set()
                    await clock
                    env._settle_internal, env._advancing = settle, advancing
                    env._work.callbacks = list(env._work.callbacks)
                    probe.detach()
                    saves.detach()
                    gc.unfreeze()
        finally:
            await bot.release()
    return reports


async def measured(
    driver: Driver,
    probe: Any,
    saves: SaveTimes,
    server: ServerCpu,
    rate: float,
    seconds: float,
    sessions: int,
    database: str,
) -> dict:
    lags: list[float] = []
    stop = asyncio.Event()
    monitor = asyncio.ensure_future(lag_monitor(lags, stop))
    saves.samples = []
    requests = RequestCount(driver)
    cpu_before, server_before, start = probe.cpu_snapshot(), server.seconds(), time.perf_counter()
    tally = await driver.offer(rate, seconds)
    cpu_after, server_after = probe.cpu_snapshot(), server.seconds()
    requests.stop()
    stop.set()
    await monitor
    moves = max(1, tally.moves)
    store = probe.bot.store
    return {
        "database": store.dialect,
        "sessions": sessions,
        "offered": rate,
        # Moves done while moves were offered (those finishing later still give their times).
        "moves/s": sum(start <= t <= start + seconds for t in tally.completed) / seconds,
        "answer": tally.answers,
        "picture": tally.pictures,
        "save": saves.samples,
        "bot CPU ms/move": (cpu_after["bot"] - cpu_before["bot"]) / moves * 1000,
        "workers CPU ms/move": (cpu_after["workers"] - cpu_before["workers"]) / moves * 1000,
        "SimCord+driver CPU ms/move": (cpu_after["harness"] - cpu_before["harness"]) / moves * 1000,
        "bot-only CPU ms/move": (cpu_after["bot only"] - cpu_before["bot only"]) / moves * 1000,
        "worker processes CPU ms/move": (cpu_after["worker processes"] - cpu_before["worker processes"]) / moves * 1000,
        "cores": os.cpu_count() or 1,
        "load average": os.getloadavg(),
        "server CPU ms/move": None if server_before is None else (server_after - server_before) / moves * 1000,
        "RSS MB": rss_bytes() / 2**20,
        "database MB": await database_bytes(store, database) / 2**20,
        "loop lag": lags,
        "refused": tally.refused,
        "lost": tally.lost,
        "unoffered": tally.unoffered,
        "requests/move": {kind: count / moves for kind, count in requests.counted.items()},
        "exempt/move": requests.exempt / moves,
        "429s": requests.rate_limited,
    }


class RequestCount:
    """The requests the bot made to (simulated) Discord while moves were offered, from the strict
    layer's log: those that count towards Discord's 50 a second by what they are for (the game
    message, the card in the channel, the turn notices, anything else), the exempt ones
    (interaction answers), and the 429s Discord answered."""

    def __init__(self, driver: Driver):
        from bot.dev.discord_rules import rules_of

        rules = rules_of(driver.env.backend)
        assert rules is not None, "the load runs under Discord's rules (use_discord_rules)"
        self._rules = rules
        self._messages = driver.env.backend.messages
        self._parents = {str(table.channel.id) for table in driver.tables}
        self._from = self._marks()
        self.counted: dict[str, int] = {}
        self.exempt = self.rate_limited = 0

    def _marks(self) -> tuple[int, int, int]:
        rules = self._rules
        return len(rules.counted), len(rules.exempt), len(rules.rate_limited)

    def stop(self) -> None:
        counted, exempt, limited = self._from
        rules = self._rules
        self.counted = {"board": 0, "card": 0, "notice": 0, "other": 0}
        for request in rules.counted[counted:]:
            self.counted[self._kind(request.method, request.path)] += 1
        self.exempt = len(rules.exempt) - exempt
        self.rate_limited = len(rules.rate_limited) - limited

    def _kind(self, method: str, path: str) -> str:
        parts = path.strip("/").split("/")
        if len(parts) < 3 or parts[0] != "channels" or parts[2] != "messages":
            return "other"
        if method == "PATCH":
            return "card" if parts[1] in self._parents else "notice" if self._notice(parts) else "board"
        return "notice" if method in ("POST", "DELETE") and parts[1] not in self._parents else "other"

    def _notice(self, parts: list[str]) -> bool:
        """An edit of a "your move" notice (to name a member who is at the game), not of the board."""
        message = self._messages.get(int(parts[1]), {}).get(int(parts[3])) if len(parts) > 3 else None
        return message is not None and message.content.startswith("🔔")


async def database_bytes(store: Any, location: str) -> int:
    """The database's size: PostgreSQL's own figure, or the SQLite file with its WAL."""
    if store.dialect == "postgresql":
        return (await store.database.rows("SELECT pg_database_size(current_database())"))[0][0]
    path = Path(location.removeprefix("sqlite:"))
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


@contextlib.contextmanager
def database_for_run(choice: str) -> Iterator[str]:
    """The URL of an empty database for ``choice``: ``sqlite`` (a file) or ``postgresql`` (a
    pgserver server), each in a temporary folder removed afterwards, or a ``postgresql://`` URL."""
    from bot.core.database import is_postgres

    if is_postgres(choice):
        yield choice
        return
    if choice not in ("sqlite", "postgresql"):
        raise SystemExit(f"--database: sqlite, postgresql or a postgresql:// URL, not {choice!r}")
    with tempfile.TemporaryDirectory() as folder:
        if choice == "sqlite":
            yield str(Path(folder) / "load.db")
            return
        import pgserver

        server = pgserver.get_server(folder, cleanup_mode="stop")
        try:
            yield server.get_uri()
        finally:
            server.cleanup()


def build_tables(env: Any, sessions: int) -> list[Table]:
    from bot.dev.world import MEMBER_NAMES

    users = [env.create_user(name.lower(), global_name=name) for name in MEMBER_NAMES[:2]]
    tables: list[Table] = []
    for first in range(0, sessions, CHANNELS_PER_GUILD):
        guild = env.create_guild(f"Load {first // CHANNELS_PER_GUILD + 1}")
        actors = {user.id: guild.add_member(user) for user in users}
        for number in range(first, min(sessions, first + CHANNELS_PER_GUILD)):
            tables.append(Table(guild.create_text_channel(f"games-{number}"), actors))
    return tables


def ms(samples: list[float], digits: int = 0) -> str:
    """p50 / p95 / p99 in milliseconds."""
    parts = (statistics.median(samples), percentile(samples, 0.95), percentile(samples, 0.99))
    return " / ".join(f"{value * 1000:.{digits}f}" for value in parts) if samples else "n/a"


def _server_cpu(report: dict[str, Any]) -> str:
    server = report["server CPU ms/move"]
    if report["database"] == "sqlite":
        return "none: SQLite's thread is in the bot's"
    return "not measured (a server elsewhere)" if server is None else f"{server:.1f} ms (not the bot's)"


def capacity(report: dict[str, Any]) -> float:
    """Moves a second the machine's cores could carry at the bot-only CPU per move."""
    return report["cores"] * 1000 / max(report["bot-only CPU ms/move"], 1e-9)


DISCORD_REQUESTS_PER_SECOND = 50  # per bot token, across all its processes; interaction answers exempt


def discord_capacity(report: dict[str, Any]) -> float:
    """Moves a second Discord's global rate limit allows at the counted requests per move."""
    counted: float = sum(report["requests/move"].values())
    return DISCORD_REQUESTS_PER_SECOND / max(counted, 1e-9)


def _requests(report: dict[str, Any]) -> str:
    per_move = report["requests/move"]
    parts = ", ".join(f"{kind} {count:.2f}" for kind, count in per_move.items())
    return f"{sum(per_move.values()):.2f} ({parts}); exempt {report['exempt/move']:.2f}"


def shown(report: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"{report['database']}, sessions {report['sessions']}, offered {report['offered']:g} moves/s: "
            f"achieved {report['moves/s']:.1f} moves/s",
            f"  answer (ms, p50 / p95 / p99)           {ms(report['answer'])}",
            f"  picture out (ms, p50 / p95 / p99)      {ms(report['picture'])}",
            f"  save (ms, p50 / p95 / p99)             {ms(report['save'], 1)} ({len(report['save'])} saves)",
            f"  event-loop lag (ms, p50 / p95 / p99)   {ms(report['loop lag'])}",
            f"  bot CPU per move                       {report['bot CPU ms/move']:.1f} ms "
            f"(of which worker processes {report['workers CPU ms/move']:.1f} ms)",
            f"  database server CPU per move           {_server_cpu(report)}",
            f"  SimCord and driver CPU per move        {report['SimCord+driver CPU ms/move']:.1f} ms (not the bot's)",
            f"  bot-only CPU per move                  {report['bot-only CPU ms/move']:.1f} ms "
            f"(worker processes as the OS counts them {report['worker processes CPU ms/move']:.1f} ms)",
            f"  capacity it implies on this machine    {capacity(report):.0f} moves/s on {report['cores']} cores "
            f"(load average {' / '.join(f'{load:.1f}' for load in report['load average'])})",
            f"  counted requests per move              {_requests(report)}",
            f"  capacity on Discord (50 requests/s)    {discord_capacity(report):.0f} moves/s "
            f"(global 429s answered: {report['429s']})",
            f"  RSS (bot and its workers)              {report['RSS MB']:.0f} MB",
            f"  database                               {report['database MB']:.1f} MB",
            f"  refused / lost / not offered           {report['refused']} / {report['lost']} / {report['unoffered']}",
        ]
    )


def side_by_side(sqlite: list[dict[str, Any]], postgresql: list[dict[str, Any]]) -> str:
    """One line per rate and database, and PostgreSQL's figures over SQLite's of the same run."""
    header = (
        "offered",
        "database",
        "moves/s",
        "save p50 / p95 / p99 ms",
        "answer p99 ms",
        "picture p99 ms",
        "bot CPU ms/move",
        "server CPU ms/move",
    )
    lines = [header]
    for lite, pg in zip(sqlite, postgresql, strict=True):
        for report in (lite, pg):
            server = report["server CPU ms/move"]
            lines.append(
                (
                    f"{report['offered']:g}",
                    report["database"],
                    f"{report['moves/s']:.1f}",
                    ms(report["save"], 1),
                    f"{percentile(report['answer'], 0.99) * 1000:.0f}",
                    f"{percentile(report['picture'], 0.99) * 1000:.0f}",
                    f"{report['bot CPU ms/move']:.1f}",
                    "-" if server is None else f"{server:.1f}",
                )
            )
        lines.append(
            (
                "",
                "ratio",
                f"{pg['moves/s'] / lite['moves/s']:.2f}x",
                f"{_median_ratio(pg['save'], lite['save'])} (p50)",
                "",
                "",
                f"{pg['bot CPU ms/move'] / lite['bot CPU ms/move']:.2f}x",
                "",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip() for line in lines]
    out.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(out)


def _median_ratio(samples: list[float], baseline: list[float]) -> str:
    if not samples or not baseline:
        return "n/a"
    return f"{statistics.median(samples) / statistics.median(baseline):.2f}x"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument(
        "--rate", type=float, nargs="+", default=[50.0, 100.0, 150.0], help="offered moves/s, one run each"
    )
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--database",
        default="sqlite",
        help="sqlite (default), postgresql (a server started for the run), both (one after the other, "
        "compared), or the URL of an empty PostgreSQL database",
    )
    parser.add_argument(
        "--threads", choices=["on", "off"], default="on", help="games in threads (default) or in their channels"
    )
    options = parser.parse_args(argv)
    global THREADS
    THREADS = options.threads == "on"
    choices = ["sqlite", "postgresql"] if options.database == "both" else [options.database]
    results = []
    for choice in choices:
        with database_for_run(choice) as url:
            results.append(asyncio.run(run(options.sessions, options.rate, options.seconds, database=url)))
    print("\n\n".join(shown(report) for reports in results for report in reports))
    if len(results) == 2:
        print("\n" + side_by_side(*results))
    return 0
