"""A real bot process running some of the shards, on a PostgreSQL database other processes share.

    python -m tests.bot.shard_driver <postgres_url> <shard_count> <shard_ids> play
    python -m tests.bot.shard_driver <postgres_url> <shard_count> <shard_ids> resume <paused_at>

The bot is ``create_bot``'s ShardedOctagonBot (``Settings(database_url=..., shard_count=...,
shard_ids=...)``) in a SimCord world of its own: ``GUILDS`` servers owned by its shards, each
with a #games channel and two members, Ada and Bo, and in the first a #duels channel as well.
In every #games Ada opens a two-round Octagion (``ROUND_SECONDS`` a round), Bo joins, and Ada
sends the right variant in round 1; rounds end by their timer. In #duels Ada challenges Bo to
Octa and nobody answers, so the challenge expires by its timer.

The driver talks to the test in lines: it prints one line of JSON per step (``event``: where it
is, with everything the test checks so far) and waits for the test's line on stdin before going
on. The wait blocks the event loop, so nothing (no timer, no outbox) runs while the test looks.

``play``  ready -> "go" -> the games start, round 1 ends by its timer, the next round's timer is
          pending -> paused -> "continue" -> everything ends -> done -> the stats line -> stats
``resume`` (after a SIGKILL at paused) the same world, ``DOWNTIME`` seconds after ``paused_at``;
          the bot starts and takes over its shards' timers (the overdue ones fire at once)
          -> ready -> "go" -> everything ends -> done -> the stats line -> stats

The stats line is JSON, ``{"players": [[guild_id, user_id], ...]}``: the driver answers with
``Store.user_stats`` for each (read from the shared database, any guild), and with the /stats
answer each member of its own servers gets.

Ids. SimCord's snowflakes are (virtual millisecond << 22 | a sequence per millisecond), and every
SimCord clock starts at the same instant: two processes taking snowflakes at the same virtual
moments would hand out the same ids. So the process of first shard ``k`` starts its clock
``k * CLOCK_OFFSET`` later, far more than any process's whole game lasts, and its guilds,
channels, users and messages all have ids of its own (the test checks they do not collide). A
stand-in client holds the simulated Discord while the world is built, in both phases, before the
bot takes any snowflake (e.g. syncing commands): ``resume`` builds the same ids as ``play``, and
checks them against the live sessions stored for its channels.
"""

from __future__ import annotations

import asyncio
import json
import sys
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord
import simcord

from bot.app import ShardedOctagonBot, create_bot
from bot.core.settings import Settings
from bot.core.store import ShardScope
from bot.dev.discord_rules import use_discord_rules
from bot.dev.world import private_texts
from bot.games.octa import OctaAdapter
from bot.games.octagion import OctagionAdapter
from engines.octagion import solution
from tests.bot.settle import use_settle_limit

GAMES = [OctagionAdapter, OctaAdapter]
GUILDS = 2  # servers per process
ROUNDS = 2
ROUND_SECONDS = 30  # Octagion's shortest round
SEED = 1234
CLOCK_OFFSET = timedelta(days=1)  # between the virtual clocks of two processes (see "Ids")
TO_PAUSE = ROUND_SECONDS + 5  # round 1 has ended by its timer; the next round's timer is pending
DOWNTIME = 20  # seconds between the kill and the new process: the next round's timer is overdue
FINISH_STEPS, STEP = 4, 100  # more than round 2 and the challenge's expiry (5 minutes) need


def emit(event: str, data: dict[str, Any]) -> None:
    """One line for the test (flushed: the test may kill this process right after reading it)."""
    sys.stdout.write(json.dumps({"event": event, **data}, sort_keys=True) + "\n")
    sys.stdout.flush()


def wait_for(expected: str | None = None) -> str:
    """The test's next line. Blocks the event loop on purpose: nothing runs while the test looks."""
    line = sys.stdin.readline().strip()
    if expected is not None and line != expected:
        raise SystemExit(f"expected {expected!r} on stdin, got {line!r}")
    return line


@dataclass
class Server:
    guild: Any  # simcord.GuildHandle
    games: Any  # #games, where Octagion is played
    ada: Any
    bo: Any
    duels: Any = None  # #duels, where a challenge expires (first server only)

    def describe(self, shard_count: int) -> dict[str, Any]:
        channels = {"games": self.games.id} | ({"duels": self.duels.id} if self.duels else {})
        return {
            "id": self.guild.id,
            "shard": (self.guild.id >> 22) % shard_count,
            "channels": channels,
            "members": {"Ada": self.ada.id, "Bo": self.bo.id},
        }

    def message_ids(self) -> list[int]:
        channels = [self.games] + ([self.duels] if self.duels else [])
        return [message.id for channel in channels for message in channel.history()]


def build_servers(env: Any, scope: ShardScope) -> list[Server]:
    """``GUILDS`` servers spread over this process's shards, each checked to belong to one."""
    servers = []
    for n in range(GUILDS):
        shard = scope.ids[n % len(scope.ids)]
        guild = env.create_guild(f"Shard {shard} club {n}", shard_id=shard)
        if not scope.owns(guild.id):
            raise SystemExit(f"guild {guild.id} is not on shard {shard} of {scope.count}")
        games = guild.create_text_channel("games")
        duels = guild.create_text_channel("duels") if n == 0 else None
        ada, bo = (guild.add_member(env.create_user(f"{name.lower()}{n}", global_name=name)) for name in ("Ada", "Bo"))
        servers.append(Server(guild, games, ada, bo, duels))
    return servers


@dataclass
class Record:
    """What this process's bot did with timers, seen by wrapping its own objects (bot/ is unchanged)."""

    created: list[dict[str, Any]] = field(default_factory=list)  # timers written by a commit here
    removed: list[int] = field(default_factory=list)  # timer ids a commit here removed (fired or cancelled)
    fired: list[dict[str, Any]] = field(default_factory=list)  # timers whose change committed here
    armed: list[dict[str, Any]] = field(default_factory=list)  # stored timers the scheduler's start read

    def instrument(self, bot: ShardedOctagonBot) -> None:
        platform = bot.platform
        sessions, store = platform.sessions, platform.store
        change = sessions.change

        @asynccontextmanager
        async def change_and_record(session_id: int, *, timer: Any = None):
            async with change(session_id, timer=timer) as opened:
                yield opened
            if timer is not None:  # reached only once the change (and the timer's removal) committed
                guild_id, now = opened.record.guild_id, sessions.clock()
                self.fired.append({**timer_row(timer, guild_id), "fired_at": now.isoformat()})

        def committed(session: Any, added: list[Any], removed: list[int]) -> None:
            self.created += [timer_row(timer, session.record.guild_id) for timer in added]
            self.removed += removed

        pending_timers = store.pending_timers

        async def pending_and_record() -> list[Any]:
            timers = await pending_timers()
            for timer in timers:
                self.armed.append(timer_row(timer, (await store.get_session(timer.session_id)).guild_id))
            return timers

        sessions.change = change_and_record
        sessions.committed.append(committed)
        store.pending_timers = pending_and_record

    def as_json(self) -> dict[str, Any]:
        return {"created": self.created, "removed": self.removed, "fired": self.fired, "armed": self.armed}


def timer_row(timer: Any, guild_id: int | None) -> dict[str, Any]:
    return {
        "id": timer.id,
        "kind": timer.kind,
        "session_id": timer.session_id,
        "guild_id": guild_id,
        "deadline": timer.deadline.isoformat(),
        "payload": timer.payload,
    }


class Driver:
    """One process's bot and world, and the steps of its phases."""

    def __init__(self, url: str, shard_count: int, shard_ids: tuple[int, ...]):
        self.settings = Settings(
            token=None,
            database_url=url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            render_workers=1,
            thinking_workers=1,
            game_threads=False,  # its games play in its channels, one each
        )
        self.scope = self.settings.shards
        self.record = Record()
        self.env: Any = None
        self.bot: ShardedOctagonBot | None = None
        self.servers: list[Server] = []

    @asynccontextmanager
    async def world(self):
        """The simulated Discord with this process's servers, held by a stand-in client until
        ``start_bot``; the same ids in every phase (see "Ids" above)."""
        stand_in = discord.AutoShardedClient(
            intents=discord.Intents.default(), shard_count=self.scope.count, shard_ids=list(self.scope.ids)
        )
        # strict_sync=False: Discord keeps one list of global commands for every process of the
        # bot, synced by whichever started first (the stored hash tells the others); each process
        # here has a simulated Discord of its own, which must know them without a sync.
        async with simcord.run(stand_in, check_errors=False, strict_sync=False) as env:
            self.env = env
            await env.advance_time((CLOCK_OFFSET * self.scope.ids[0]).total_seconds())
            self.servers = build_servers(env, self.scope)
            try:
                yield env
            finally:
                if self.bot is not None:
                    await self.bot.release()

    async def start_bot(self) -> None:
        bot = create_bot(self.settings, GAMES)
        if not isinstance(bot, ShardedOctagonBot):
            raise SystemExit(f"create_bot made a {type(bot).__name__} for shards")
        setup_hook = bot.setup_hook

        async def setup_and_instrument() -> None:
            await setup_hook()  # the platform exists from here; on_ready starts its timers later
            self.record.instrument(bot)
            bot.platform.new_seed = lambda: SEED

        bot.setup_hook = setup_and_instrument
        self.bot = bot
        await self.env.restart_bot(bot)  # setup_hook opens the store; on_ready arms the timers

    async def start_games(self) -> None:
        for server in self.servers:
            if server.duels is not None:
                await server.ada.slash(server.duels, "octa challenge", opponent=server.bo)
            await server.ada.slash(server.games, "octagion start", rounds=ROUNDS, seconds=ROUND_SECONDS)
            lobby = server.games.last_message
            await server.bo.click(lobby, label="Join")
            await server.ada.click(lobby, label="Start")
            round_one = server.games.last_message
            word = (await self.bot.platform.sessions.live_in_channel(server.games.id)).state.words[0]
            form = await server.ada.click(round_one, label="Build variant")
            await server.ada.submit_modal(form, {"variant": " ".join(solution(word))})

    async def sessions(self) -> dict[str, int | None]:
        """The live session of each channel (None if it has none), by channel id."""
        found = {}
        for server in self.servers:
            for channel in filter(None, (server.games, server.duels)):
                live = await self.bot.platform.store.live_session(channel.id)
                found[str(channel.id)] = live.id if live else None
        return found

    def report(self) -> dict[str, Any]:
        bot = self.bot
        return {
            "shards": list(self.scope.ids),
            "now": self.env.now().isoformat(),
            "servers": [server.describe(self.scope.count) for server in self.servers],
            "message_ids": [i for server in self.servers for i in server.message_ids()],
            "bot_user_id": self.env.backend.bot_user.id,
            "bot_errors": [f"{type(e).__name__}: {e}" for e in bot.platform.errors] if bot and bot.platform else [],
            **self.record.as_json(),
        }

    async def finish(self) -> None:
        for _ in range(FINISH_STEPS):
            await self.env.advance_time(STEP)

    async def stats(self) -> None:
        """Answer the stats line: the shared database's stats of any player, and /stats here."""
        asked = json.loads(wait_for())
        store = self.bot.platform.store
        read = [[guild, user, await store.user_stats(guild, user)] for guild, user in asked["players"]]
        answered = {}
        for server in self.servers:
            for member in (server.ada, server.bo):
                answer = await member.slash(server.games, "stats")
                answered[str(member.id)] = private_texts(answer)[-1]
        emit("stats", {**self.report(), "stats": read, "slash_stats": answered})


async def play(driver: Driver) -> int:
    async with driver.world():
        await driver.start_bot()
        emit("ready", driver.report())
        wait_for("go")
        await driver.start_games()
        await driver.env.advance_time(TO_PAUSE)
        emit("paused", {**driver.report(), "sessions": await driver.sessions()})
        wait_for("continue")
        await driver.finish()
        emit("done", driver.report())
        await driver.stats()
    return 0


async def resume(driver: Driver, paused_at: datetime) -> int:
    async with driver.world() as env:
        await env.advance_time((paused_at + timedelta(seconds=DOWNTIME) - env.now()).total_seconds())
        restarted_at = env.now().isoformat()
        await driver.start_bot()
        emit("ready", {**driver.report(), "restarted_at": restarted_at, "sessions": await driver.sessions()})
        wait_for("go")
        await driver.finish()
        emit("done", driver.report())
        await driver.stats()
    return 0


def main(argv: list[str]) -> int:
    use_settle_limit()  # a settle waits as long as in the test process
    use_discord_rules()  # Discord's rules, as in the test process
    if len(argv) < 4 or argv[3] not in ("play", "resume") or (argv[3] == "resume") != (len(argv) == 5):
        usage = "<postgres_url> <shard_count> <shard_ids> play | resume <paused_at>"
        print(f"usage: python -m tests.bot.shard_driver {usage}", file=sys.stderr)
        return 2
    url, count, ids, phase = argv[:4]
    driver = Driver(url, int(count), tuple(int(i) for i in ids.split(",")))
    if phase == "play":
        return asyncio.run(play(driver))
    return asyncio.run(resume(driver, datetime.fromisoformat(argv[4])))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
