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
                         [--profile [FILE]]

``--profile`` prints where the bot's event loop spends its CPU per move (:mod:`bench.load_profile`).

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
import dataclasses
import gc
import itertools
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.load_measure import (
    Records,
    SaveTimes,
    ServerCpu,
    database_for_run,
    measured,
    real_time_clock,
)
from bench.load_profile import LoopProfile
from bench.load_report import shown, side_by_side, targets
from engines.registry import games

EPHEMERAL = 1 << 6  # a message's flag: only its member sees it

# Options a game is loaded with instead of its defaults: Octagion long enough to keep playing.
LOAD_OPTIONS = {"octagion": {"rounds": 16, "teams": [0, 1]}}
CHANNELS_PER_GUILD = 250  # Discord allows 500 channels in a server
WARMUP_SECONDS = 5
GOT_IT_SHARE = 0.2  # of Octagion moves, the part that ends the round
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
            labels = [c.label for row in message.components for c in row.children] if message is not None else []
            if "Got it!" not in labels:  # its board not redrawn yet for this round: a player would wait
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

        # The private answer: the original response, or a follow-up when the original is the public
        # message clicked (a menu's button answers with a deferred update of the game message).
        interaction = self.env.backend.interactions[interaction_id]
        ids = [i for i in (interaction.message_id, *interaction.followup_ids) if i is not None]
        messages = [self.env.backend.get_message(interaction.channel_id, i) for i in ids]
        private = [m for m in messages if m.flags & EPHEMERAL]
        return ResponseMessage(self.env, private[-1] if private else messages[0])

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


async def run(
    sessions: int,
    rates: Sequence[float],
    seconds: float,
    warmup: float = WARMUP_SECONDS,
    database: str | None = None,
    profile: LoopProfile | None = None,
) -> list[dict[str, Any]]:
    """``database``: a SQLite path or a PostgreSQL URL (an empty database); None: a SQLite file
    in a temporary folder. ``profile``: profiles the loop while moves are offered (not the warm-up)."""
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
                        if profile is not None:
                            profile.start()
                        reports.append(await measured(driver, probe, saves, server, rate, seconds, sessions, database))
                        if profile is not None:
                            profile.stop(reports[-1]["moves"])
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
    parser.add_argument(
        "--profile",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="profile the bot's event loop while moves are offered (cProfile) and print where its CPU goes; "
        "with FILE, also write the raw profile there (python -m pstats FILE)",
    )
    options = parser.parse_args(argv)
    global THREADS
    THREADS = options.threads == "on"
    choices = ["sqlite", "postgresql"] if options.database == "both" else [options.database]
    results = []
    profile = None if options.profile is None else LoopProfile()
    for choice in choices:
        with database_for_run(choice) as url:
            results.append(
                asyncio.run(run(options.sessions, options.rate, options.seconds, database=url, profile=profile))
            )
    print("\n\n".join(shown(report) for reports in results for report in reports))
    print("\n" + "\n\n".join(targets(reports) for reports in results))
    if len(results) == 2:
        print("\n" + side_by_side(*results))
    if profile is not None:
        print("\n" + profile.report())
        if options.profile:
            profile.dump(options.profile)
    return 0
