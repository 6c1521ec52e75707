"""``python -m bench.bench_stats``: `/stats` and `/leaderboard` at a million result rows.

A database is filled with synthetic finished games (their ``result_players`` rows and the
ratings they lead to), then the store's reads behind the two commands are timed, first on the
schema before migration 5 and then after it (its indexes built on the full tables):

    python -m bench.bench_stats [--rows 1000000] [--database sqlite|postgresql|postgresql://...]

The games are spread over 1,000 servers and 100,000 players, both as unevenly as real ones
(Zipf: server n has 1/n of the first one's games and players; within a server, player n plays
1/n as often as its most active one), so there are a few huge servers and very busy players.
A `/stats` call is for a player picked as often as they play, a `/leaderboard` call for a
server picked as often as it plays; the busiest player and server have rows of their own.

``python -m bench stats`` (inside ``python -m bench``) runs a smaller SQLite version.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import functools
import itertools
import json
import random
import sqlite3
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import Row, sized
from bench.load_measure import database_for_run
from bot.core.database import open_database
from bot.core.store import Store
from engines.registry import games as registered_games

GUILDS = 1_000
USERS = 100_000
GAME_NAMES = tuple(sorted(registered_games()))  # sorted: the same synthetic rows whatever the registry's order
CALLS = 200  # timed calls of each read
BATCH = 50_000  # rows generated and inserted at a time
STATS_MIGRATION = 5  # the migration for /stats and /leaderboard at scale (bot/core/migrations.py)
BEFORE = STATS_MIGRATION - 1  # the schema it is measured against
FIRST_GUILD = 10**17  # Discord-sized ids, spread over shards
FIRST_USER = 3 * 10**17
SMALL_RUN_ROWS = 100_000  # inside ``python -m bench``


@dataclass
class Population:
    """Who plays where, and how often."""

    seed: int
    guild_weights: list[float] = field(default_factory=list)
    members: list[list[int]] = field(default_factory=list)  # per guild, its players' ids
    member_weights: list[list[float]] = field(default_factory=list)  # cumulative, per guild

    def __post_init__(self) -> None:
        zipf = [1 / rank for rank in range(1, GUILDS + 1)]
        total = sum(zipf)
        self.guild_weights = list(itertools.accumulate(zipf))
        user = FIRST_USER
        for share in zipf:
            size = max(2, round(USERS * share / total))
            self.members.append(list(range(user, user + size)))
            self.member_weights.append(list(itertools.accumulate(1 / rank for rank in range(1, size + 1))))
            user += size

    @staticmethod
    def guild_id(index: int) -> int:
        return FIRST_GUILD + index * 7 * 2**22


def results(population: Population, rows: int) -> Iterator[tuple[list[tuple], list[tuple]]]:
    """Batches of (results rows, result_players rows), ids from 1."""
    chooser = random.Random(population.seed)
    finished = "2026-11-25T12:00:00+00:00"
    for first in range(1, rows + 1, BATCH):
        result_rows, player_rows = [], []
        count = min(BATCH, rows + 1 - first)
        guilds = chooser.choices(range(GUILDS), cum_weights=population.guild_weights, k=count)
        for result_id, guild in zip(range(first, first + count), guilds, strict=True):
            players = _two_players(chooser, population, guild)
            winners = [] if chooser.random() < 0.1 else [chooser.choice(players)]
            game = chooser.choice(GAME_NAMES)
            result_rows.append(
                (
                    result_id,
                    game,
                    population.guild_id(guild),
                    json.dumps(players),
                    json.dumps([chooser.randrange(100) for _ in players]),
                    json.dumps(winners),
                    chooser.randrange(10, 80),
                    float(chooser.randrange(60, 3600)),
                    finished,
                )
            )
            player_rows += [(result_id, user, int(user in winners)) for user in players]
        yield result_rows, player_rows


def _two_players(chooser: random.Random, population: Population, guild: int) -> list[int]:
    members, weights = population.members[guild], population.member_weights[guild]
    first = members[bisect.bisect(weights, chooser.random() * weights[-1])]
    while (second := members[bisect.bisect(weights, chooser.random() * weights[-1])]) == first:
        pass
    return [first, second]


RESULT_COLUMNS = ("id", "game", "guild_id", "players", "scores", "winners", "moves", "duration_seconds", "finished_at")
PLAYER_COLUMNS = ("result_id", "user_id", "won")
RATING_COLUMNS = ("guild_id", "game", "user_id", "mu", "sigma", "games", "wins")


@dataclass
class Filled:
    """What the timed calls pick from: the players and servers as often as they played."""

    players: list[tuple[int, int]]  # (guild id, user id) once per game played
    boards: list[tuple[int, str]]  # (guild id, game) once per game played
    ratings: int


class Tally:
    """Games and wins per (guild, game, user), for the ratings table and the calls' picks."""

    def __init__(self) -> None:
        self.games: Counter[tuple[int, str, int]] = Counter()
        self.wins: Counter[tuple[int, str, int]] = Counter()

    def add(self, result_rows: list[tuple], player_rows: list[tuple], first_id: int) -> None:
        for result_id, user, won in player_rows:
            _, game, guild = result_rows[result_id - first_id][:3]
            self.games[guild, game, user] += 1
            self.wins[guild, game, user] += won

    def ratings(self) -> Iterator[tuple]:
        for (guild, game, user), games in self.games.items():
            wins = self.wins[guild, game, user]
            yield (guild, game, user, 25.0 + 10 * (wins / games - 0.5), max(1.0, 8.33 / games**0.5), games, wins)

    def filled(self) -> Filled:
        players = [(guild, user) for (guild, _, user), games in self.games.items() for _ in range(games)]
        boards = [(guild, game) for (guild, game, _), games in self.games.items() for _ in range(games)]
        return Filled(players, boards, len(self.games))


# ------------------------------------------------------------------------------ filling


def fill_sqlite(path: str, population: Population, rows: int) -> Filled:
    """Bulk insert in one transaction, outside the store (set-up, not measured)."""
    tally = Tally()
    connection = sqlite3.connect(path.removeprefix("sqlite:"))
    with connection:
        for result_rows, player_rows in results(population, rows):
            connection.executemany(_insert("results", RESULT_COLUMNS), result_rows)
            connection.executemany(_insert("result_players", PLAYER_COLUMNS), player_rows)
            tally.add(result_rows, player_rows, result_rows[0][0])
        connection.executemany(_insert("ratings", RATING_COLUMNS), tally.ratings())
    connection.close()
    return tally.filled()


def _insert(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


async def fill_postgres(url: str, population: Population, rows: int) -> Filled:
    import asyncpg

    tally = Tally()
    connection = await asyncpg.connect(url)
    try:
        async with connection.transaction():
            for result_rows, player_rows in results(population, rows):
                await connection.copy_records_to_table("results", records=result_rows, columns=RESULT_COLUMNS)
                await connection.copy_records_to_table("result_players", records=player_rows, columns=PLAYER_COLUMNS)
                tally.add(result_rows, player_rows, result_rows[0][0])
            await connection.copy_records_to_table("ratings", records=list(tally.ratings()), columns=RATING_COLUMNS)
    finally:
        await connection.close()
    return tally.filled()


# ------------------------------------------------------------------------------ timing


LEADERBOARD_SIZE = 10  # as /leaderboard shows
# /stats's query before migration 5: every result of the player joined (the store's now reads
# the player's rows of result_players alone, which carry the server and game since).
JOINED_USER_STATS_SQL = (
    "SELECT r.game, COUNT(*) AS games, SUM(p.won) AS wins FROM results r"
    " JOIN result_players p ON p.result_id = r.id"
    " WHERE p.user_id = ? AND r.guild_id IS NOT DISTINCT FROM ? GROUP BY r.game ORDER BY r.game"
)


async def every_rating_sorted(store: Store, guild_id: int, game: str) -> list[Any]:
    """What /leaderboard has read so far: every rating of the server's game, sorted here."""
    ratings = await store.ratings(guild_id, game)
    return sorted(ratings, key=lambda r: r.mu - 3 * r.sigma, reverse=True)[:LEADERBOARD_SIZE]


def stats_read(store: Store, migrated: bool) -> Callable[[int, int], Awaitable[Any]]:
    """/stats's read: the store's own once migrated, the joined query before."""
    if migrated:
        return store.user_stats
    return lambda guild_id, user_id: store.database.rows(JOINED_USER_STATS_SQL, (user_id, guild_id))


def top_ten(store: Store) -> Callable[[int, str], Awaitable[Any]]:
    return lambda guild_id, game: store.leaderboard(guild_id, game, LEADERBOARD_SIZE)


async def timed_calls(store: Store, filled: Filled, calls: int, seed: int, migrated: bool) -> dict[str, list[float]]:
    """Seconds per call of each read; the same picks before and after migration 5."""
    chooser = random.Random(seed)
    players = [chooser.choice(filled.players) for _ in range(calls)]
    boards = [chooser.choice(filled.boards) for _ in range(calls)]
    busiest_player = [Counter(filled.players).most_common(1)[0][0]] * calls
    busiest_board = [Counter(filled.boards).most_common(1)[0][0]] * calls
    stats, sorted_here = stats_read(store, migrated), functools.partial(every_rating_sorted, store)
    reads = {
        "/stats: a player picked as often as they play": (stats, players),
        "/stats: the busiest player": (stats, busiest_player),
        "every rating, sorted in Python: a server's game as often as played": (sorted_here, boards),
        "every rating, sorted in Python: the busiest server's game": (sorted_here, busiest_board),
        "Store.leaderboard (top 10 in SQL): a server's game as often as played": (top_ten(store), boards),
        "Store.leaderboard (top 10 in SQL): the busiest server's game": (top_ten(store), busiest_board),
    }
    times: dict[str, list[float]] = {}
    for name, (read, picks) in reads.items():
        await read(*picks[0])  # the first call reads pages from disk; every later one finds them cached
        samples = []
        for pick in picks:
            start = time.perf_counter()
            await read(*pick)
            samples.append(time.perf_counter() - start)
        times[name] = samples
    return times


async def settle(store: Store) -> None:
    """PostgreSQL: the statistics and visibility map autovacuum would have made after the bulk
    load (the planner needs the first; index-only scans the second). SQLite: nothing, as the bot
    never runs ANALYZE."""
    if store.dialect == "postgresql":
        async with store.database.pool.acquire() as connection:
            await connection.execute("VACUUM ANALYZE")


async def plans(store: Store, filled: Filled, migrated: bool) -> list[str]:
    """The database's plans for /stats of the busiest player and the busiest server's top 10."""
    guild, user = Counter(filled.players).most_common(1)[0][0]
    board = Counter(filled.boards).most_common(1)[0][0]
    explain = "EXPLAIN QUERY PLAN " if store.dialect == "sqlite" else "EXPLAIN "
    found = []
    for label, read, pick in (
        ("/stats", stats_read(store, migrated), (guild, user)),
        ("top 10", top_ten(store), board),
    ):
        sql, params = await caught_query(store, functools.partial(read, *pick))
        found.append(f"{label}:")
        found += [f"  {row[-1]}" for row in await store.database.rows(explain + sql, params)]
    return found


async def caught_query(store: Store, read: Callable[[], Awaitable[Any]]) -> tuple[str, Sequence[Any]]:
    """The SQL and parameters a read of the store sends (its last query)."""
    caught = []
    original = store.database.rows

    async def catching(sql: str, params: Sequence[Any] = ()) -> list[Any]:
        caught.append((sql, params))
        return await original(sql, params)

    store.database.rows = catching  # type: ignore[method-assign]
    try:
        await read()
    finally:
        store.database.rows = original  # type: ignore[method-assign]
    return caught[-1]


@dataclass
class Run:
    dialect: str
    rows: int
    fill_seconds: float
    migration_seconds: float
    ratings: int
    before: dict[str, list[float]]
    after: dict[str, list[float]]
    plan_before: list[str]
    plan_after: list[str]
    history: dict[str, list[float]] = field(default_factory=dict)  # /history, on the newest schema


HISTORY_SIZE = 10  # what /history lists


async def time_history(store: Store, filled: Filled, calls: int, seed: int) -> dict[str, list[float]]:
    """Seconds per /history read (a member's newest ten games, from migration 9's index)."""
    chooser = random.Random(seed)
    players = [chooser.choice(filled.players) for _ in range(calls)]
    busiest = [Counter(filled.players).most_common(1)[0][0]] * calls
    times: dict[str, list[float]] = {}
    reads = {"/history: a player picked as often as they play": players, "/history: the busiest player": busiest}
    for name, picks in reads.items():
        await store.history(*picks[0], None, HISTORY_SIZE)  # pages from disk once
        samples = []
        for guild_id, user_id in picks:
            start = time.perf_counter()
            await store.history(guild_id, user_id, None, HISTORY_SIZE)
            samples.append(time.perf_counter() - start)
        times[name] = samples
    return times


async def measure(url: str, rows: int, calls: int = CALLS, seed: int = 1) -> Run:
    """Fill the empty database at ``url``, time the reads, add migration 5, time them again."""
    store = Store(await open_database(url, pool_size=2))
    try:
        await store.database.migrate(upto=BEFORE)
        population = Population(seed)
        start = time.perf_counter()
        if store.dialect == "postgresql":
            filled = await fill_postgres(url, population, rows)
        else:
            filled = await asyncio.to_thread(fill_sqlite, url, population, rows)
        fill_seconds = time.perf_counter() - start
        await settle(store)
        plan_before = await plans(store, filled, migrated=False)
        before = await timed_calls(store, filled, calls, seed, migrated=False)
        start = time.perf_counter()
        await store.database.migrate(upto=STATS_MIGRATION)
        migration_seconds = time.perf_counter() - start
        await store.migrate()  # the later ones, which the store's code reads too
        await settle(store)
        plan_after = await plans(store, filled, migrated=True)
        after = await timed_calls(store, filled, calls, seed, migrated=True)
        history = await time_history(store, filled, calls, seed)
    finally:
        await store.close()
    return Run(
        store.dialect,
        rows,
        fill_seconds,
        migration_seconds,
        filled.ratings,
        before,
        after,
        plan_before,
        plan_after,
        history,
    )


# ------------------------------------------------------------------------------ reporting


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def speed_up(before: float, after: float) -> str:
    return f"{before / after:.1f}x faster" if after <= before else f"{after / before:.1f}x slower"


def report(run: Run) -> str:
    lines = [
        f"{run.dialect}: {run.rows:,} results, {2 * run.rows:,} result_players rows, {run.ratings:,} ratings "
        f"(filled in {run.fill_seconds:.0f} s); migration {STATS_MIGRATION} (columns filled, indexes built) took "
        f"{run.migration_seconds:.1f} s",
    ]
    header = ("read", f"before {STATS_MIGRATION}: p50 / p99 ms", f"after {STATS_MIGRATION}: p50 / p99 ms", "p50 after")
    table = [header]
    for name, before in run.before.items():
        after = run.after[name]
        table.append(
            (
                name,
                f"{statistics.median(before) * 1000:.2f} / {percentile(before, 0.99) * 1000:.2f}",
                f"{statistics.median(after) * 1000:.2f} / {percentile(after, 0.99) * 1000:.2f}",
                speed_up(statistics.median(before), statistics.median(after)),
            )
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for index, row in enumerate(table):
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        if index == 0:
            lines.append("  ".join("-" * width for width in widths))
    for name, samples in run.history.items():
        lines.append(
            f"{name}: {statistics.median(samples) * 1000:.2f} / {percentile(samples, 0.99) * 1000:.2f} ms (p50 / p99)"
        )
    lines.append("query plans (the busiest player and server), before:")
    lines += [f"    {line}" for line in run.plan_before]
    lines.append("after:")
    lines += [f"    {line}" for line in run.plan_after]
    return "\n".join(lines)


def run() -> list[Row]:
    """Inside ``python -m bench``: a smaller SQLite database; each read after migration 5 against
    the same read before it (1,000 results and one call of each in quick mode)."""
    results = sized(SMALL_RUN_ROWS, 1_000)
    with tempfile.TemporaryDirectory() as folder:
        measured = asyncio.run(measure(str(Path(folder) / "stats.db"), results, calls=sized(50, 1)))
    rows = []
    for name, before in measured.before.items():
        baseline = f"{name}, before migration {STATS_MIGRATION}"
        rows.append(Row(baseline, before, note=f"{results:,} results, SQLite"))
        rows.append(Row(f"{name}, after", measured.after[name], baseline=baseline))
    rows += [Row(name, samples, note=f"{results:,} results, SQLite") for name, samples in measured.history.items()]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_stats", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="result rows (each with two players)")
    parser.add_argument("--database", default="sqlite", help="sqlite, postgresql (a server for the run), or a URL")
    parser.add_argument("--calls", type=int, default=CALLS, help="timed calls of each read")
    options = parser.parse_args(argv)
    with database_for_run(options.database) as url:
        print(f"filling {options.rows:,} results ...", flush=True)
        print(report(asyncio.run(measure(url, options.rows, options.calls))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
