"""``python -m bench activity``: the Activity under load, beside ``python -m bench load`` in the same run.

The bot runs unmodified against SimCord in this process with its Activity server on a free port
of 127.0.0.1. Octego games are opened directly (an untimed set-up), each watched by its two players
and two spectators: real WebSocket clients in a process of their own (bench/activity_clients.py),
so none of their CPU counts as the bot's. They offer moves at a fixed rate, each made as on the
page (a pick, the narrowed view, the next pick, then the act). Measured:

- from the act's click to the player's own board showing the new version (p50 / p95 / p99),
- from that click to every other board of the game showing it,
- the bot's CPU per move (bench.probe: the bot's share of this process and its worker processes,
  nothing of SimCord's), beside ``bench load``'s, run right after on as many sessions at the same rate,
- the bot's memory per open board: its RSS (and its workers') with every board open and shown,
  less with one board a game open (what a game costs whoever watches it: its pictures, warm
  workers), over the boards opened in between.

    python -m bench activity [--games 50] [--views 200] [--rate 50] [--seconds 30]

Targets (issue 42): own view p99 < 150 ms, every other view p99 < 250 ms, CPU per move no more
than 25% above bench load's, memory per open view < 200 KB.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.load_report import ms, percentile

OWN_TARGET = 0.150
OTHERS_TARGET = 0.250
CPU_TARGET = 1.25  # times bench load's
MEMORY_TARGET = 200 * 1024
WARMUP_SECONDS = 5


async def run(games: int, views: int, rate: float, seconds: float, warmup: float) -> dict[str, Any]:
    import simcord

    from bench import load
    from bench.load_measure import real_time_clock, rss_bytes
    from bench.probe import Probe
    from bot.app import create_bot
    from bot.core.settings import Settings
    from bot.dev.discord_rules import use_discord_rules
    from bot.features.activity.auth import Identity

    use_discord_rules()
    per_game = max(2, views // games)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_path=str(Path(folder) / "activity.db"), game_threads=False, activity_port=0)
        bot = create_bot(settings)
        try:
            async with simcord.run(bot) as env:
                load.THREADS = False  # each game in its channel: the board is the game, not a thread
                tables, watchers = tables_for(env, games, per_game - 2)
                print(f"opening {games} Octego games, {per_game} boards each ...", flush=True)
                for table in tables:
                    await load.open_session(env, table, "octego", {})
                server = bot.activity_server
                assert server is not None, "ACTIVITY_PORT is set: the bot serves the Activity"
                assert server.tokens is not None
                planned: list[dict[str, Any]] = []
                plan = {"port": server.port, "rate": rate, "seconds": seconds, "warmup": warmup, "games": planned}
                for table in tables:
                    assert bot.platform is not None
                    session = await bot.platform.sessions.load(table.session_id)
                    people = [*session.players, *watchers]
                    boards = []
                    for user_id in people:
                        identity = Identity(user_id, str(user_id), table.channel.guild.id, table.channel.id)
                        boards.append({"token": server.tokens.issue(identity), "seat": session.seat_of(user_id)})
                    planned.append({"session": session.id, "boards": boards})
                gc.collect()
                gc.freeze()  # the simulated Discord's set-up is not the bot's heap (as bench load does)
                settle, advancing = env._settle_internal, env._advancing

                async def no_settling(**_: Any) -> None:
                    return None

                env._settle_internal, env._advancing = no_settling, True  # type: ignore[method-assign]  # as bench load
                stop_clock = asyncio.Event()
                clock = asyncio.ensure_future(real_time_clock(env, stop_clock))
                probe = Probe(bot)
                try:
                    report = await drive(plan, probe, rss_bytes, server)
                finally:
                    stop_clock.set()
                    await clock
                    env._settle_internal, env._advancing = settle, advancing  # type: ignore[method-assign]
                    probe.detach()
                    gc.unfreeze()
        finally:
            await bot.release()
    print(f"running bench load on {games} sessions at {rate:g} moves/s for the comparison ...", flush=True)
    load.THREADS = False
    (baseline,) = await load.run(sessions=games, rates=[rate], seconds=seconds, warmup=warmup)
    report.update(games=games, views=games * per_game, offered=rate, load=baseline)
    return report


def tables_for(env: Any, games: int, spectators: int) -> tuple[list[Any], list[int]]:
    """A channel per game in one server; the two players of every game and ``spectators`` more members."""
    from bench.load import Table
    from bot.dev.world import MEMBER_NAMES

    guild = env.create_guild("Activity")
    names = [*MEMBER_NAMES[:2], *(f"Watcher {n + 1}" for n in range(spectators))]
    members = [guild.add_member(env.create_user(name.lower().replace(" ", ""), global_name=name)) for name in names]
    actors = {member.id: member for member in members[:2]}
    tables = [Table(guild.create_text_channel(f"board-{number}"), actors) for number in range(games)]
    return tables, [member.id for member in members[2:]]


# The boards' process reports every click's timings on one line: a full run's is megabytes, past
# asyncio's 64 KiB default for a line.
CLIENTS_LINE_LIMIT = 64 * 1024 * 1024


async def drive(plan: dict[str, Any], probe: Any, rss_bytes: Any, server: Any) -> dict[str, Any]:
    """The boards' process: memory before and with every board open, CPU over the measured window."""
    clients = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.activity_clients",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        limit=CLIENTS_LINE_LIMIT,
    )
    assert clients.stdin is not None
    assert clients.stdout is not None
    clients.stdin.write(json.dumps(plan).encode() + b"\n")
    await clients.stdin.drain()
    await expect(clients, "first")
    gc.collect()
    first, before = server.live.count(), rss_bytes()
    clients.stdin.write(b"go on\n")
    await clients.stdin.drain()
    await expect(clients, "open")
    gc.collect()
    opened = server.live.count()
    with_boards = rss_bytes()
    clients.stdin.write(b"go\n")
    await clients.stdin.drain()
    await expect(clients, "measuring")
    cpu_before, pushes_before = probe.cpu_snapshot(), server.live.pushes
    await expect(clients, "measured")
    cpu_after, pushes = probe.cpu_snapshot(), server.live.pushes - pushes_before
    result: dict[str, Any] = json.loads((await clients.stdout.readline()).decode())
    await clients.wait()
    moves = max(1, result["moves"])
    result.update(
        {
            "open boards": opened,
            "memory per board": (with_boards - before) / max(1, opened - first),
            "bot-only CPU ms/move": (cpu_after["bot only"] - cpu_before["bot only"]) / moves * 1000,
            "views pushed/move": pushes / moves,
        }
    )
    return result


async def expect(process: Any, word: str) -> None:
    line = (await process.stdout.readline()).decode().strip()
    if line != word:
        raise RuntimeError(f"the boards' process said {line!r}, not {word!r} (see its error above)")


def shown(report: dict[str, Any]) -> str:
    load = report["load"]
    own, others = report["own"], report["others"]
    cpu, load_cpu = report["bot-only CPU ms/move"], load["bot-only CPU ms/move"]
    ratio = cpu / max(load_cpu, 1e-9)
    memory = report["memory per board"]
    rows = [
        ("click -> own view (ms, p50 / p95 / p99)", ms(own), "p99 < 150", percentile(own, 0.99) < OWN_TARGET),
        (
            "click -> every other view (ms, p50 / p95 / p99)",
            ms(others),
            "p99 < 250",
            percentile(others, 0.99) < OTHERS_TARGET,
        ),
        (
            "bot-only CPU per move (ms)",
            f"{cpu:.1f} (bench load: {load_cpu:.1f}, {ratio:.2f}x)",
            "<= 1.25x bench load's",
            ratio <= CPU_TARGET,
        ),
        ("memory per open view (KB)", f"{memory / 1024:.0f}", "< 200", memory < MEMORY_TARGET),
    ]
    width = max(len(row[0]) for row in rows)
    lines = [
        f"activity: {report['games']} Octego games, {report['open boards']} open boards, offered "
        f"{report['offered']:g} moves/s: achieved {report['moves/s']:.1f} moves/s "
        f"(bench load: {load['moves/s']:.1f})",
        *(
            f"  {name.ljust(width)}  {value}  target {target}: {'met' if met else 'NOT met'}"
            for name, value, target, met in rows
        ),
        f"  views pushed per move {report['views pushed/move']:.1f}; refused / lost / not offered "
        f"{report['refused']} / {report['lost']} / {report['unoffered']}; games ended {report['ended']}",
    ]
    return "\n".join(lines)


def main(argv: list[str], quick: bool = False) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench activity", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--views", type=int, default=200, help="open boards in all (two players and spectators)")
    parser.add_argument("--rate", type=float, default=50.0, help="offered moves/s")
    parser.add_argument("--seconds", type=float, default=30.0)
    options = parser.parse_args(argv)
    if quick:  # a tiny size: it must not rot; its figures mean nothing
        options.games, options.views, options.rate, options.seconds = 4, 16, 4.0, 2.0
    started = time.perf_counter()
    warmup = 1.0 if quick else WARMUP_SECONDS
    report = asyncio.run(run(options.games, options.views, options.rate, options.seconds, warmup))
    print("\n" + shown(report))
    print(f"(took {time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0
