"""``python -m bot.db backup`` and ``restore``: a backup taken while another connection writes
holds exactly the sessions committed before it (none half-written, none uncommitted) and
restores into a fresh file with every session as it was. A restore refuses a broken, newer or
foreign backup and an existing target without --force. (tests/bot/test_backup.py: a bot goes on
with a game from a restored backup, and a restore over a running bot's file is refused.)"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from bot.core import migrations
from bot.core.store import Store
from bot.dev import db_tool as db
from tests.store.sessions import NOW, new_session

REPOSITORY = Path(__file__).resolve().parents[2]
STATE = {"total": 0, "padding": "x" * 20_000}  # large rows: a backup takes a while to read


def session_ids(path: Path) -> list[int]:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return [row[0] for row in connection.execute("SELECT id FROM sessions ORDER BY id")]


def write_sessions(path: Path, stop: threading.Event, going: threading.Event, committed: list[tuple[int, float]]):
    """Another connection (as the bot's would be) inserting sessions, one per transaction,
    until ``stop``: each id with the time its commit returned. ``going`` once five are in."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None, timeout=30)) as connection:
        connection.execute("PRAGMA busy_timeout=30000")
        channel = 10_000
        while not stop.is_set():
            channel += 1
            connection.execute("BEGIN IMMEDIATE")
            cursor = connection.execute(
                "INSERT INTO sessions (game, guild_id, channel_id, host_id, players, status, state,"
                " schema_version, created_at, updated_at) VALUES ('tiny', 9, ?, 5, '[5, 6]', 'finished', ?, 1, ?, ?)",
                (channel, '{"total": 1}', NOW.isoformat(), NOW.isoformat()),
            )
            connection.execute("COMMIT")
            committed.append((cursor.lastrowid, time.monotonic()))
            if len(committed) == 5:
                going.set()


async def test_a_backup_taken_during_writes_holds_what_was_committed_and_restores_whole(tmp_path):
    source, backup, restored = tmp_path / "octagon.db", tmp_path / "backup.db", tmp_path / "restored.db"
    store = await Store.open(str(source))
    try:
        first = [await new_session(store, channel, state=STATE) for channel in range(1, 301)]
        # The store is in a write transaction with a session not committed yet.
        async with store.transaction() as tx:
            pending = await tx.insert_session(
                game="tiny", guild_id=9, channel_id=999, host_id=5, players=[5, 6], status="active",
                state=STATE, schema_version=1, now=NOW, meta={},
            )  # fmt: skip
            assert await asyncio.to_thread(db.backup, str(source), str(backup))
        assert session_ids(backup) == first  # not the uncommitted one
        assert pending in session_ids(source)

        # Another connection commits sessions all the while: some commit during a backup (the
        # backup blocks no writer), and each backup holds exactly the sessions committed before it.
        stop, going, committed = threading.Event(), threading.Event(), []
        writer = threading.Thread(target=write_sessions, args=(source, stop, going, committed))
        writer.start()
        try:
            assert await asyncio.to_thread(going.wait, 30)
            overlapped = False
            for _ in range(20):
                started = time.monotonic()
                assert await asyncio.to_thread(db.backup, str(source), str(backup), force=True)
                ended = time.monotonic()
                during = [i for i, at in committed if started < at < ended]
                held = session_ids(backup)
                # Ids are handed out in order: the backup holds every session up to one, none after.
                assert held == [*first, *range(pending, held[-1] + 1)]
                assert all(i <= held[-1] for i, at in committed if at < started)  # all committed before it
                if during:
                    overlapped = True
                    break
            assert overlapped, "no session was committed while a backup ran"
        finally:
            stop.set()
            writer.join()

        assert db.restore(str(backup), str(restored))
        copy = await Store.open(str(restored))
        try:
            for session_id in held:
                assert await copy.get_session(session_id) == await store.get_session(session_id)
            assert session_ids(restored) == held
        finally:
            await copy.close()
    finally:
        await store.close()


async def make_database(path: Path) -> list[int]:
    store = await Store.open(str(path))
    try:
        return [await new_session(store, channel) for channel in (1, 2, 3)]
    finally:
        await store.close()


async def test_restore_replaces_an_existing_database_only_with_force(tmp_path, capsys):
    source, backup, target = tmp_path / "octagon.db", tmp_path / "backup.db", tmp_path / "target.db"
    ids = await make_database(source)
    await make_database(target)
    store = await Store.open(str(target))
    await new_session(store, 4)  # the target now holds four sessions, in WAL mode
    await store.close()
    assert db.backup(str(source), str(backup))
    capsys.readouterr()
    assert not db.restore(str(backup), str(target))
    assert "already exists" in capsys.readouterr().out
    assert len(session_ids(target)) == 4
    assert not db.backup(str(source), str(backup))  # nor does a backup replace a file without --force
    assert db.restore(str(backup), str(target), force=True)
    assert session_ids(target) == ids
    assert "restored" in capsys.readouterr().out


async def test_restore_refuses_a_broken_a_newer_or_a_foreign_backup(tmp_path, capsys):
    source, target = tmp_path / "octagon.db", tmp_path / "target.db"
    await make_database(source)

    newer = tmp_path / "newer.db"
    assert db.backup(str(source), str(newer))
    with contextlib.closing(sqlite3.connect(newer)) as connection:
        connection.execute(f"PRAGMA user_version = {len(migrations.CORE) + 1}")
    foreign = tmp_path / "foreign.db"
    with contextlib.closing(sqlite3.connect(foreign)) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 400)
    broken = tmp_path / "broken.db"
    assert db.backup(str(source), str(broken))
    data = bytearray(broken.read_bytes())
    page = 4096
    with contextlib.closing(sqlite3.connect(source)) as connection:
        root = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sessions'").fetchone()[0]
    data[(root - 1) * page + 8 : root * page] = b"\xff" * (page - 8)  # the sessions table's page, wiped
    broken.write_bytes(bytes(data))

    for backup, why in (
        (newer, ("newer than this code",)),
        (foreign, ("not a database of this bot",)),
        (text, ("not a usable SQLite database",)),
        # SQLite notices the wiped page in the integrity check, or on the way to it.
        (broken, ("integrity check failed", "malformed")),
        (tmp_path / "missing.db", ("no such backup",)),
    ):
        capsys.readouterr()
        assert not db.restore(str(backup), str(target)), backup.name
        out = capsys.readouterr().out
        assert any(reason in out for reason in why), out
        assert not target.exists()


def test_postgresql_gets_the_pg_dump_and_pg_restore_commands(capsys):
    url = "postgresql://octagon:secret@db.example/octagon"
    assert not db.backup(url, "octagon.dump")
    out = capsys.readouterr().out
    assert "pg_dump --format=custom --file=octagon.dump 'postgresql://octagon:***@db.example/octagon'" in out
    assert not db.restore("octagon.dump", url)
    out += capsys.readouterr().out
    assert "pg_restore --clean --if-exists --no-owner --dbname='postgresql://octagon:***@db.example/octagon'" in out
    assert "secret" not in out


async def test_the_command_line_backs_up_and_restores_the_configured_database(tmp_path):
    ids = await make_database(tmp_path / "octagon.db")
    environment = {"PATH": "", "DATABASE_PATH": "octagon.db", "DATABASE_URL": "", "DISCORD_TOKEN": ""}

    def run(*arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "bot.db", *arguments],
            cwd=tmp_path,
            env={**environment, "PYTHONPATH": str(REPOSITORY)},
            capture_output=True,
            text=True,
            timeout=60,
        )

    backed_up = run("backup", "saved.db")
    assert backed_up.returncode == 0, backed_up.stdout + backed_up.stderr
    assert f"schema version {len(migrations.CORE)}, 3 sessions (3 live), integrity ok" in backed_up.stdout
    (tmp_path / "octagon.db").unlink()
    restored = run("restore", "saved.db")
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert session_ids(tmp_path / "octagon.db") == ids
    assert run("restore", "saved.db").returncode == 1  # it exists now
