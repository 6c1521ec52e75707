"""``python -m bot.db``: check a store, copy one to another database, back it up and restore it.

    python -m bot.db check [--database URL]
    python -m bot.db copy --from sqlite:octagon.db --to postgresql://user:password@host/octagon

``check`` (default: the settings' database, ``DATABASE_URL`` or else ``DATABASE_PATH``) prints
the schema version against the newest, the database's own integrity check, rows left behind
(actions, timers, outbox entries, results or daily plays whose session is gone; players of a
result that is gone), channels with two live sessions, sessions whose action counter is behind
their log, and the rows of every table; it exits with 1 if anything is wrong.

``copy`` migrates both databases to the newest schema (as the bot does when it starts), moves
every table, ids and all, in one transaction on the target, sets the target's next ids past
every id the source ever handed out (old messages' buttons carry session ids) and checks each
table's row count against the source's. It refuses a target that already holds data unless
``--replace`` (which empties it first, in the same transaction). Stop the bot first: what it
writes during a copy is not copied. Either direction works (back to SQLite too). A URL is
``sqlite:path``, a bare path, or ``postgresql://...``. The rows' checks of ``check`` need the
newest schema; an older one is reported as such.

    python -m bot.db backup PATH [--database SOURCE] [--force] [--keep N]
    python -m bot.db restore PATH [--database TARGET] [--force]

``backup`` copies the SQLite store (default: the settings' database) to ``PATH`` with SQLite's
online backup API, safe while the bot runs: one consistent snapshot (the bot's writes go on
meanwhile, thanks to WAL), written to a temporary file, checked (integrity, schema version) and
only then renamed to ``PATH``, a single self-contained file that only its user can read (0600),
in a folder created if missing (0700). It refuses an existing ``PATH`` unless ``--force``.
``--keep N`` then deletes the oldest backups named like ``PATH`` with other digits beyond N.

``restore`` checks the backup first (an SQLite database, its integrity, a schema version this
code knows; an older one is migrated when the bot next starts), then copies it into the target
(default: the settings' database). It refuses a target that exists unless ``--force``, and even
then one that another program holds open (a running bot: stop it first).

For PostgreSQL both print the ``pg_dump`` / ``pg_restore`` commands to run instead.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.core import migrations
from bot.core.database import (
    INTERNAL_TABLES,
    TABLES,
    Database,
    Statement,
    copy_table,
    count_rows,
    is_postgres,
    open_database,
)
from bot.core.store import LIVE_SQL, Store
from bot.dev.db_backup import backup, restore, shown

BATCH = 5_000  # rows per executemany
# The bot's own bookkeeping (command tree hash, controls version): the source's replaces the
# target's, which a bot started once against the target already wrote.
BOOKKEEPING = "bot_state"


def _orphans_of_sessions(table: str) -> tuple[str, tuple[str, ...], str]:
    sql = f"SELECT COUNT(*) FROM {table} x WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = x.session_id)"
    return f"{table} rows whose session is gone", (table, "sessions"), sql


# Each: what is wrong, the tables it needs, and SQL counting the rows where it is.
PROBLEMS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    *(_orphans_of_sessions(table) for table in ("actions", "timers", "outbox")),
    (
        "results whose session is gone",
        ("results", "sessions"),
        "SELECT COUNT(*) FROM results x WHERE x.session_id IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = x.session_id)",
    ),
    (
        "daily_plays rows whose session is gone",
        ("daily_plays", "sessions"),
        "SELECT COUNT(*) FROM daily_plays x WHERE x.session_id IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = x.session_id)",
    ),
    (
        "result_players rows whose result is gone",
        ("result_players", "results"),
        "SELECT COUNT(*) FROM result_players p WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.id = p.result_id)",
    ),
    (
        # Games in threads share their channel; a game played in its channel has it to itself.
        "channels with more than one live session",
        ("sessions",),
        f"SELECT COUNT(*) FROM (SELECT channel_id FROM sessions WHERE in_thread = 0 AND {LIVE_SQL}"
        " GROUP BY channel_id HAVING COUNT(*) > 1) AS shared",
    ),
    (
        # The next action would take a number the log already holds, and the move would fail.
        "sessions whose action counter is behind their log",
        ("sessions", "actions"),
        "SELECT COUNT(*) FROM sessions s WHERE s.actions < (SELECT COALESCE(MAX(a.seq), 0) FROM actions a"
        " WHERE a.session_id = s.id)",
    ),
)


def missing_sqlite_file(url: str) -> bool:
    """Opening a SQLite path creates the file: a misspelt path would look like an empty store."""
    return not is_postgres(url) and not Path(url.removeprefix("sqlite:")).exists()


def table_lines(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    cells = [[str(cell) for cell in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return lines


# ------------------------------------------------------------------------------ check


async def check(url: str) -> bool:
    """Print the report; whether all is well."""
    if missing_sqlite_file(url):
        print(f"no such SQLite file: {url}")
        return False
    database = await open_database(url, pool_size=2)
    try:
        return await _check(database, url)
    finally:
        await database.close()


async def _check(database: Database, url: str) -> bool:
    problems: list[str] = []
    version, newest = await database.schema_version(), len(migrations.CORE)
    print(f"database: {database.dialect}, {shown(url)}")
    print(f"schema version: {version} of {newest}")
    if version < newest:
        problems.append(f"schema version {version} is behind {newest}: the bot migrates it when it starts")
    elif version > newest:
        problems.append(f"schema version {version} is newer than this code's {newest}")
    integrity = await database.integrity_check()
    print(f"integrity check: {integrity}")
    if integrity != "ok":
        problems.append(f"integrity check: {integrity}")
    tables = await database.table_names()
    if version == newest:  # the rows' checks read the newest schema's columns
        problems += await _row_problems(database, tables)
    counts = await count_rows(database, [table for table in TABLES if table in tables])
    print("\n".join(table_lines(("table", "rows"), [(t, f"{n:,}") for t, n in counts.items()])))
    print("\n".join(f"PROBLEM: {problem}" for problem in problems) or "no problems found")
    return not problems


async def _row_problems(database: Database, tables: set[str]) -> list[str]:
    problems = [f"table {table} is missing" for table in TABLES if table not in tables]
    for label, needs, sql in PROBLEMS:
        if set(needs) <= tables and (found := (await database.rows(sql))[0][0]):
            problems.append(f"{found} {label}")
    return problems + [f"the id sequence of {table} is behind its largest id" for table in await database.ids_behind()]


# ------------------------------------------------------------------------------ copy


async def copy(source_url: str, target_url: str, replace: bool = False, batch: int = BATCH) -> bool:
    """Copy every table; print the counts; whether they all match."""
    if missing_sqlite_file(source_url):
        print(f"no such SQLite file: {source_url}")
        return False
    if source_url.removeprefix("sqlite:") == target_url.removeprefix("sqlite:"):
        print("the source and the target are the same database")
        return False
    source = await Store.open(source_url, pool_size=2)
    try:
        target = await Store.open(target_url, pool_size=2)
        try:
            return await _copy(source.database, target.database, replace, batch)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: Database, target: Database, replace: bool, batch: int) -> bool:
    held = {table: rows for table, rows in (await count_rows(target)).items() if rows and table != BOOKKEEPING}
    if held and not replace:
        listed = ", ".join(f"{table} {rows:,}" for table, rows in held.items())
        print(f"the target already holds data ({listed}): nothing copied. --replace empties it first.")
        return False
    unknown = await source.table_names() - set(TABLES) - set(INTERNAL_TABLES)
    if unknown:  # a migration added a table that TABLES does not list: it would be left behind
        print(f"tables this copy does not know: {', '.join(sorted(unknown))}: nothing copied")
        return False
    columns = {table: await target.columns(table) for table in TABLES}
    for table in TABLES:
        if set(await source.columns(table)) != set(columns[table]):
            print(f"table {table} has other columns in the source: both must be at the same schema version")
            return False
    async with source.snapshot() as reader:
        expected = {table: (await reader.rows(f"SELECT COUNT(*) FROM {table}"))[0][0] for table in TABLES}
        emptied = TABLES if replace else (BOOKKEEPING,)
        await _write_all(reader, source, target, columns, batch, emptied)
    copied = await count_rows(target)
    lines = [
        (t, f"{expected[t]:,}", f"{copied[t]:,}", "ok" if expected[t] == copied[t] else "DIFFERENT") for t in TABLES
    ]
    print("\n".join(table_lines(("table", "source rows", "target rows", ""), lines)))
    return expected == copied


async def _write_all(
    reader: Any, source: Database, target: Database, columns: dict[str, list[str]], batch: int, emptied: Sequence[str]
) -> None:
    """One transaction on the target: empty ``emptied``, copy every table, move the ids on."""
    trips = target.trips()
    try:
        await trips.send([Statement(f"DELETE FROM {t}") for t in reversed(TABLES) if t in emptied], False, False)
        for table in TABLES:
            print(f"copying {table} ...", flush=True)
            await copy_table(reader, trips, table, columns[table], batch)
        # Read after the rows: the next ids are past every id copied.
        await trips.commit(target.next_id_statements(await source.next_ids()))
    except BaseException:
        await trips.abort()
        raise
    finally:
        await trips.release()


# ------------------------------------------------------------------------------ backup and restore


# ------------------------------------------------------------------------------ command line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.db", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="schema version, integrity and row counts; exit 1 on a problem")
    checking.add_argument("--database", help="a URL or SQLite path (default: DATABASE_URL, else DATABASE_PATH)")
    copying = commands.add_parser("copy", help="copy every table to another database and compare the counts")
    copying.add_argument("--from", dest="source", required=True, help="sqlite:path, a path, or postgresql://...")
    copying.add_argument("--to", dest="target", required=True, help="sqlite:path, a path, or postgresql://...")
    copying.add_argument("--replace", action="store_true", help="empty a target that holds data first")
    copying.add_argument("--batch", type=int, default=BATCH, help="rows per insert batch")
    backing_up = commands.add_parser("backup", help="copy the SQLite store to PATH, safely while the bot runs")
    backing_up.add_argument("path", help="the backup file to write")
    backing_up.add_argument("--database", help="the SQLite path (default: DATABASE_URL, else DATABASE_PATH)")
    backing_up.add_argument("--force", action="store_true", help="replace PATH if it exists")
    backing_up.add_argument(
        "--keep", type=_at_least_one, metavar="N", help="then delete the oldest backups named like PATH beyond N"
    )
    restoring = commands.add_parser("restore", help="check a backup and copy it into the store (bot stopped)")
    restoring.add_argument("path", help="the backup file to restore")
    restoring.add_argument("--database", help="the SQLite path (default: DATABASE_URL, else DATABASE_PATH)")
    restoring.add_argument("--force", action="store_true", help="replace a database that exists (not one in use)")
    options = parser.parse_args(argv)
    from bot.core.settings import SettingError

    if options.command == "copy":
        return 0 if asyncio.run(copy(options.source, options.target, options.replace, options.batch)) else 1
    try:
        database: str = getattr(options, "database", None) or _configured_database()
    except SettingError as error:  # the same sentence the bot's start gives
        print(error)
        return 1
    if options.command == "check":
        ok = asyncio.run(check(database))
    elif options.command == "backup":
        ok = backup(database, options.path, options.force, options.keep)
    else:
        ok = restore(options.path, database, options.force)
    return 0 if ok else 1


def _at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, not {text!r}")
    return int(text)


def _configured_database() -> str:
    from bot.core.settings import Settings

    return Settings.from_environment().database


if __name__ == "__main__":
    sys.exit(main())
