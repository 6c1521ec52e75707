"""Shards across processes: two real bot processes (shard 0 and shard 1 of two) on one
PostgreSQL, each playing in its own servers through SimCord; one is killed by SIGKILL mid-game
and started again.

The processes are ``tests.bot.shard_driver``, driven step by step through their stdin and
stdout (no waiting on the wall clock): both start and play at once until round 1 of each game
has ended by its timer and the next round's timer is pending; then shard 1's process is killed
while shard 0's waits with timers of its own pending in the same tables. A new shard 1 process
takes over exactly its shards' timers (the overdue ones fire at once), and both processes finish
their games at the same time. Every timer fired exactly once over all processes, each in the
process owning its server; each game has one result row; nothing is left in the timers table;
every process, and a third store, read the same stats.
"""

from __future__ import annotations

import asyncio
import json
import queue
import signal
import subprocess
import sys
import threading
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot import platform as platform_module
from bot.app import create_bot
from bot.core.settings import Settings
from bot.core.store import ShardScope, Store
from bot.games.octagion import LOBBY_EXPIRY, NEXT_ROUND, ROUND_END
from tests.bot.shard_driver import GUILDS
from tests.bot.tinygame import TinyAdapter

REPO = Path(__file__).resolve().parents[2]
SHARD_COUNT = 2
# A failsafe only (a driver that hangs fails the test instead of hanging it); nothing waits for it.
LINE_TIMEOUT = 120
# The timers each game fires (Octagion: two rounds ended by their clock and the pause between)
# or cancels (its lobby's idle expiry, armed when it opens and again when Bo joins: the join
# cancels the first, the start the second), and the challenge nobody answers.
OCTAGION_FIRED = Counter({ROUND_END: 2, NEXT_ROUND: 1})
OCTAGION_CANCELLED = Counter({LOBBY_EXPIRY: 2})
CHALLENGE_FIRED = Counter({"challenge_expiry": 1})
# Ada sends the right variant in round 1, Bo sends nothing: per server, (played, won) of Octagion.
EXPECTED_STATS = {"Ada": [1, 1], "Bo": [1, 0]}


class Driver:
    """One driver process: its JSON lines read by a thread (so a hang cannot block the test)."""

    def __init__(self, url: str, shard: int, phase: str, log: Path, *extra: str):
        command = [sys.executable, "-m", "tests.bot.shard_driver", url, str(SHARD_COUNT), str(shard), phase, *extra]
        self.log = log
        self.stderr = log.open("w")
        self.process = subprocess.Popen(
            command, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, text=True
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def expect(self, event: str) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=LINE_TIMEOUT)
        except queue.Empty:
            line = None
        assert line is not None, f"no {event!r} line from the driver; its log:\n{self.tail()}"
        try:
            report = json.loads(line)
        except json.JSONDecodeError:
            raise AssertionError(f"the driver printed something that is not JSON: {line!r}\n{self.tail()}") from None
        assert report["event"] == event, f"expected {event!r}, got {line}\n{self.tail()}"
        assert report["bot_errors"] == [], report["bot_errors"]
        return report

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        assert self.process.wait(timeout=LINE_TIMEOUT) == -signal.SIGKILL

    def finished(self) -> None:
        assert self.process.wait(timeout=LINE_TIMEOUT) == 0, self.tail()

    def stop(self) -> None:
        """At the end, or when the test failed: no driver outlives it."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stderr.close()

    def tail(self) -> str:
        return self.log.read_text()[-6000:]


def start(tmp_path: Path, url: str, shard: int, phase: str, *extra: str) -> Driver:
    return Driver(url, shard, phase, tmp_path / f"shard{shard}-{phase}.log", *extra)


def guild_ids(report: dict[str, Any]) -> set[int]:
    return {server["id"] for server in report["servers"]}


def world_ids(report: dict[str, Any]) -> set[int]:
    """Every id this process's simulated Discord handed out: servers, channels, members, messages."""
    ids = set(report["message_ids"])
    for server in report["servers"]:
        ids |= {server["id"], *server["channels"].values(), *server["members"].values()}
    return ids


def pending(url: str, shard: int) -> list[Any]:
    """The timers stored for one shard's servers, read by a third store."""

    async def read() -> list[Any]:
        store = await Store.open(url, 1, ShardScope(SHARD_COUNT, (shard,)))
        try:
            return await store.pending_timers()
        finally:
            await store.close()

    return asyncio.run(read())


def stored(url: str, sessions: list[int], players: list[list[int]]) -> dict[str, Any]:
    """What a third store reads: result rows per session, every timer left, and stats."""

    async def read() -> dict[str, Any]:
        store = await Store.open(url, 1)
        try:
            return {
                "results": {session: len(await store.results(session)) for session in sessions},
                "timers": await store.pending_timers(),
                "stats": [[guild, user, await store.user_stats(guild, user)] for guild, user in players],
            }
        finally:
            await store.close()

    return asyncio.run(read())


def kinds_by_session(rows: list[dict[str, Any]]) -> dict[int, Counter]:
    found: dict[int, Counter] = {}
    for row in rows:
        found.setdefault(row["session_id"], Counter())[row["kind"]] += 1
    return found


@pytest.mark.integration  # two bot processes, one killed and started again
def test_two_shard_processes_on_one_postgres_with_a_restart(tmp_path, postgres_url):
    drivers: list[Driver] = []
    try:
        run_shards(tmp_path, postgres_url, drivers)
    finally:
        for driver in drivers:
            driver.stop()


def run_shards(tmp_path: Path, url: str, drivers: list[Driver]) -> None:
    shard0, shard1 = start(tmp_path, url, 0, "play"), start(tmp_path, url, 1, "play")
    drivers += [shard0, shard1]
    for shard, report in enumerate([shard0.expect("ready"), shard1.expect("ready")]):
        assert {server["shard"] for server in report["servers"]} == {shard}
    shard0.send("go")
    shard1.send("go")
    paused = [shard0.expect("paused"), shard1.expect("paused")]

    # Both stopped mid-game with timers pending in the shared tables; shard 1's process dies.
    at_kill = [pending(url, shard) for shard in range(SHARD_COUNT)]
    for shard in range(SHARD_COUNT):
        assert NEXT_ROUND in {timer.kind for timer in at_kill[shard]}, at_kill[shard]
    shard1.kill()

    shard1_again = start(tmp_path, url, 1, "resume", paused[1]["now"])
    drivers.append(shard1_again)
    resumed = shard1_again.expect("ready")
    check_takeover(paused[1], resumed, at_kill[1])

    shard0.send("continue")
    shard1_again.send("go")
    done = {"shard 0": shard0.expect("done"), "killed": paused[1], "resumed": shard1_again.expect("done")}
    check_timers(done)

    servers = [server for report in (done["shard 0"], done["resumed"]) for server in report["servers"]]
    players = [[server["id"], member] for server in servers for member in server["members"].values()]
    names = {member: name for server in servers for name, member in server["members"].items()}
    for driver in (shard0, shard1_again):
        driver.send(json.dumps({"players": players}))
    stats = [shard0.expect("stats"), shard1_again.expect("stats")]
    shard0.finished()
    shard1_again.finished()

    sessions = {s for report in paused for s in report["sessions"].values()}
    games = {report["sessions"][str(server["channels"]["games"])] for report in paused for server in report["servers"]}
    database = stored(url, sorted(sessions), players)
    assert database["timers"] == [], "no timer is left in the shared table"
    assert database["results"] == {s: int(s in games) for s in sorted(sessions)}, "one result row per game"
    check_stats(database["stats"], stats, names)
    check_ids(stats[0], [paused[1], stats[1]])


def check_takeover(paused: dict[str, Any], resumed: dict[str, Any], pending_at_kill: list[Any]) -> None:
    """The new process has the same world, took over exactly its shard's timers (while shard 0's
    were pending beside them), and fired the overdue one as it started."""
    assert resumed["servers"] == paused["servers"], "the new process's world has the same ids"
    assert resumed["sessions"] == paused["sessions"], "it finds the same live sessions"
    assert None not in paused["sessions"].values()
    assert sorted(row["id"] for row in resumed["armed"]) == sorted(timer.id for timer in pending_at_kill)
    assert {row["guild_id"] for row in resumed["armed"]} <= guild_ids(paused)
    overdue = [row for row in resumed["fired"] if row["kind"] == NEXT_ROUND]
    assert len(overdue) == GUILDS, resumed["fired"]
    for row in overdue:
        assert row["fired_at"] == resumed["restarted_at"]
        assert datetime.fromisoformat(row["deadline"]) < datetime.fromisoformat(row["fired_at"])


def check_timers(done: dict[str, dict[str, Any]]) -> None:
    """Every timer written fired exactly once or was cancelled, in the process owning its server."""
    created = [row for report in done.values() for row in report["created"]]
    fired = [row for report in done.values() for row in report["fired"]]
    removed = {timer_id for report in done.values() for timer_id in report["removed"]}
    fired_ids = [row["id"] for row in fired]
    assert len(fired_ids) == len(set(fired_ids)), f"a timer fired twice: {Counter(fired_ids).most_common(3)}"
    assert {row["id"] for row in created} <= removed, "a timer was never fired nor cancelled"
    cancelled = [row for row in created if row["id"] not in set(fired_ids)]

    for name, report in done.items():
        own = guild_ids(report)
        strays = [row for row in report["fired"] if row["guild_id"] not in own]
        assert strays == [], f"the {name} process fired timers of another shard's servers: {strays}"
        shards = {(row["guild_id"] >> 22) % SHARD_COUNT for row in report["fired"]}
        assert shards <= set(report["shards"])

    fired_kinds, cancelled_kinds = kinds_by_session(fired), kinds_by_session(cancelled)
    challenges = {s for s, kinds in fired_kinds.items() if "challenge_expiry" in kinds}
    assert len(challenges) == SHARD_COUNT, "one challenge expired in each shard"
    assert len(fired_kinds) == SHARD_COUNT * (GUILDS + 1), "every game and challenge fired timers"
    for session, kinds in fired_kinds.items():
        assert kinds == (CHALLENGE_FIRED if session in challenges else OCTAGION_FIRED), (session, kinds)
        assert cancelled_kinds.get(session, Counter()) == (Counter() if session in challenges else OCTAGION_CANCELLED)


def check_stats(database: list[list[Any]], answers: list[dict[str, Any]], names: dict[int, str]) -> None:
    """Every process reads the stats a third store reads; /stats says them in each server."""
    read = [[guild, user, {game: list(pair) for game, pair in games.items()}] for guild, user, games in database]
    assert read == [[guild, user, {"octagion": EXPECTED_STATS[names[user]]}] for guild, user, _ in read]
    for report in answers:
        assert report["stats"] == read, f"shards {report['shards']} read other stats"
        for user, answer in report["slash_stats"].items():
            played, won = EXPECTED_STATS[names[int(user)]]
            assert f"**Octagion**: {won} won of {played}" in answer, answer
    assert sorted(user for report in answers for user in report["slash_stats"]) == sorted(str(u) for u in names)


def check_ids(shard0: dict[str, Any], shard1: list[dict[str, Any]]) -> None:
    """The two simulated Discords never handed out the same id (the bot itself is one user)."""
    ids1 = set().union(*map(world_ids, shard1))
    assert world_ids(shard0) & ids1 == set()
    assert {shard0["bot_user_id"]} == {report["bot_user_id"] for report in shard1}


# ------------------------------------------------------------------ an upgrade, shard by shard


def shard_settings(url: str, shards: tuple[int, ...]) -> Settings:
    return Settings(
        token=None,
        database_url=url,
        shard_count=SHARD_COUNT,
        shard_ids=shards,
        render_workers=1,
        thinking_workers=1,
        game_threads=False,
    )


async def test_after_an_upgrade_each_shard_redraws_its_own_games(postgres_url, monkeypatch):
    """The processes of an upgraded bot start one after the other; the first must not mark the
    redraw done for the servers of the others."""
    bot = create_bot(shard_settings(postgres_url, (0, 1)), [TinyAdapter])
    async with simcord.run(bot, check_errors=False) as env:
        messages = []
        for shard in range(SHARD_COUNT):
            guild = env.create_guild(f"Shard {shard}", shard_id=shard)
            channel = guild.create_text_channel("games")
            ada, bo = (guild.add_member(env.create_user(f"{name}{shard}")) for name in ("ada", "bo"))
            await ada.slash(channel, "tiny challenge", opponent=bo)
            await bo.click(channel.last_message, label="Accept")
            game = channel.last_message
            # As an older version left it: no controls this version knows.
            await env.bot.get_channel(channel.id).get_partial_message(game.id).edit(view=None)
            messages.append((channel, game.id))

        def controls(shard: int) -> list[Any]:
            channel, message_id = messages[shard]
            return next(m for m in channel.history() if m.id == message_id).components

        async def restart_as(shard: int) -> None:
            old = env.bot
            await old.platform.stop()
            await env.restart_bot(create_bot(shard_settings(postgres_url, (shard,)), [TinyAdapter]))
            await old.release()

        monkeypatch.setattr(platform_module, "CONTROLS_VERSION", "upgraded")
        await restart_as(0)
        assert controls(0) != [], "shard 0's process redrew its own game"
        assert controls(1) == [], "and not shard 1's"
        await restart_as(1)
        assert controls(1) != [], "shard 1's process, started later, redrew its game too"
        errors = list(env.bot.platform.errors)
        await env.bot.release()
    assert errors == []
