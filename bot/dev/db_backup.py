"""``python -m bot.db backup`` and ``restore`` (see :mod:`bot.dev.db_tool`): the SQLite store
copied with SQLite's online backup API to a checked file only its user can read, the oldest
beyond ``--keep`` deleted; a backup checked, then copied into place over a store no program holds.
PostgreSQL's are ``pg_dump`` and ``pg_restore``: both print the commands instead."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from pathlib import Path
from urllib.parse import quote

from bot.core import migrations
from bot.core.database import (
    is_postgres,
)
from bot.core.store import LIVE_SQL


def shown(url: str) -> str:
    """The URL without its password."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def sqlite_path(url: str) -> Path:
    return Path(url.removeprefix("sqlite:"))


def _connect(path: Path, mode: str, timeout: float = 30.0) -> sqlite3.Connection:
    """A connection to an existing file (``mode`` ro or rw: never creates one by mistake)."""
    uri = f"file:{quote(str(path.resolve()))}?mode={mode}"
    return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)


def _same_file(first: Path, second: Path) -> bool:
    return first.resolve() == second.resolve() or (first.exists() and second.exists() and first.samefile(second))


def _partial(target: Path) -> Path:
    """Where a copy is written before it is renamed to ``target`` (same folder: an atomic rename)."""
    return target.with_name(f".{target.name}.partial-{os.getpid()}")


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def describe(connection: sqlite3.Connection) -> tuple[str, int, str]:
    """A copy's integrity check, schema version and contents in words; each query reads it whole."""
    integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "sessions" not in tables:
        return integrity, version, "no sessions table"
    sessions, live = connection.execute(f"SELECT COUNT(*), COUNT(*) FILTER (WHERE {LIVE_SQL}) FROM sessions").fetchone()
    return integrity, version, f"{sessions:,} sessions ({live:,} live)"


def backup_problems(integrity: str, version: int, contents: str) -> list[str]:
    problems = []
    if integrity != "ok":
        problems.append(f"its integrity check failed: {integrity}")
    newest = len(migrations.CORE)
    if version == 0 or contents == "no sessions table":
        problems.append("it is not a database of this bot (no schema version or no sessions table)")
    elif version > newest:
        problems.append(f"its schema version {version} is newer than this code's {newest}: upgrade the bot first")
    return problems


def postgres_guidance(url: str, path: str, action: str) -> None:
    """What to run instead for PostgreSQL (the URL without its password: use PGPASSWORD or ~/.pgpass)."""
    target = shown(url)
    print(f"{target} is PostgreSQL: use its own tools to {action} instead, e.g.")
    if action == "back it up":
        print(f"  pg_dump --format=custom --file={path} '{target}'")
        print("pg_dump reads one consistent snapshot and is safe while the bot runs.")
    else:
        print(f"  pg_restore --clean --if-exists --no-owner --dbname='{target}' {path}")
        print("Stop the bot first; then check the result with: python -m bot.db check")
    print("Give the password through PGPASSWORD or ~/.pgpass rather than in the URL.")


def backup(source_url: str, path: str, force: bool = False, keep: int | None = None) -> bool:
    """Copy the SQLite store at ``source_url`` to ``path`` while the bot may be running, readable
    by this user only, creating its folder; with ``keep``, delete the oldest backups of the same
    name pattern beyond ``keep`` (:func:`older_backups`). Whether it worked."""
    if is_postgres(source_url):
        postgres_guidance(source_url, path, "back it up")
        return False
    source, target = sqlite_path(source_url), Path(path)
    if not source.exists():
        print(f"no such SQLite file: {source}")
        return False
    if _same_file(source, target):
        print("the backup must go to another file than the database")
        return False
    if target.is_dir():
        print(f"{target} is a folder: give the backup's file name, e.g. {target / 'octagon.db'}")
        return False
    if target.exists() and not force:
        print(f"{target} already exists: nothing written. --force replaces it.")
        return False
    try:
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        version, contents = _write_backup(source, target)
    except (OSError, sqlite3.Error) as error:
        reason = _not_a_folder(target) or getattr(error, "strerror", None) or str(error)
        print(f"could not write the backup {target}: {reason}")
        return False
    if version is None:
        return False
    print(f"backed up {source} to {target}: schema version {version}, {contents}, integrity ok")
    for old in older_backups(target, keep) if keep is not None else []:
        old.unlink()
        print(f"deleted the older backup {old} (--keep {keep})")
    return True


def _not_a_folder(target: Path) -> str | None:
    """Why ``target``'s folder cannot be made, when a file stands where a folder should."""
    for folder in target.parents:
        if folder.exists():
            return None if folder.is_dir() else f"{folder} is a file, not a folder"
    return None


def _write_backup(source: Path, target: Path) -> tuple[int | None, str]:
    """The snapshot written beside ``target`` as a file only its owner reads, checked, then
    renamed to it; (schema version, contents), or (None, "") when the copy failed its check."""
    partial = _partial(target)
    _remove(partial)
    try:
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # SQLite keeps the mode
        with contextlib.closing(_connect(source, "rw")) as reader, contextlib.closing(sqlite3.connect(partial)) as copy:
            # pages=-1: the whole database in one step, i.e. one read transaction, one snapshot.
            # (In steps, every write of the bot would start the copy over.)
            reader.backup(copy, pages=-1)
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            integrity, version, contents = describe(copy)
        if integrity != "ok":
            print(f"the copy's integrity check failed ({integrity}): nothing written to {target}")
            return None, ""
        os.chmod(partial, 0o600)
        os.replace(partial, target)
    finally:
        _remove(partial)
    return version, contents


def older_backups(target: Path, keep: int) -> list[Path]:
    """The backups beside ``target`` beyond the newest ``keep``, oldest first. A backup is a
    file whose name is ``target``'s with other digits (``octagon-2026-11-28.db`` for
    ``octagon-2026-11-29.db``): no other file in the folder is ever deleted."""
    pattern = re.compile(
        "".join(r"\d+" if part.isdigit() else re.escape(part) for part in re.split(r"(\d+)", target.name))
    )
    backups = [path for path in target.parent.iterdir() if path.is_file() and pattern.fullmatch(path.name)]
    backups.sort(key=lambda path: (path.stat().st_mtime, path.name))
    return backups[: max(0, len(backups) - keep)]


def restore(path: str, target_url: str, force: bool = False) -> bool:
    """Check the backup at ``path`` and copy it into the SQLite store at ``target_url``; whether it worked."""
    if is_postgres(target_url):
        postgres_guidance(target_url, path, "restore it")
        return False
    source, target = Path(path), sqlite_path(target_url)
    if not source.is_file():
        print(f"no such backup: {source}")
        return False
    if _same_file(source, target):
        print("the backup and the target are the same file")
        return False
    try:
        with contextlib.closing(_connect(source, "ro")) as reader:
            integrity, version, contents = describe(reader)
    except sqlite3.DatabaseError as error:
        print(f"{source} is not a usable SQLite database ({error}): nothing restored")
        return False
    problems = backup_problems(integrity, version, contents)
    if problems:
        print(f"not restoring {source}: " + "; ".join(problems))
        return False
    if target.exists() and not force:
        print(f"{target} already exists: nothing restored. Stop the bot, then --force replaces it.")
        return False
    with contextlib.closing(_connect(source, "ro")) as reader:
        ok = _restore_over(reader, target) if target.exists() else _restore_new(reader, target)
    if ok:
        newest = len(migrations.CORE)
        later = f" (the bot migrates it to {newest} when it starts)" if version < newest else ""
        print(f"restored {source} into {target}: schema version {version}{later}, {contents}, integrity ok")
    return ok


def _restore_new(reader: sqlite3.Connection, target: Path) -> bool:
    partial = _partial(target)
    _remove(partial)
    try:
        with contextlib.closing(sqlite3.connect(partial)) as copy:
            reader.backup(copy, pages=-1)
            copy.execute("PRAGMA journal_mode=DELETE")
        os.replace(partial, target)
    finally:
        _remove(partial)
    return True


def _restore_over(reader: sqlite3.Connection, target: Path) -> bool:
    """Replace an existing database in one transaction, holding it exclusively: a program that
    has it open (a running bot holds a lock on it for as long as it is connected) makes this refuse."""
    with contextlib.closing(_connect(target, "rw", timeout=0)) as writer:
        try:
            writer.execute("PRAGMA locking_mode=EXCLUSIVE")  # kept until this connection closes
            writer.execute("BEGIN EXCLUSIVE")
            writer.execute("ROLLBACK")
        except sqlite3.OperationalError:
            print(f"{target} is in use (a running bot?): stop it first. Nothing restored.")
            return False
        except sqlite3.DatabaseError as error:
            print(f"{target} is not an SQLite database ({error}): move it away first. Nothing restored.")
            return False
        reader.backup(writer, pages=-1)
        integrity = writer.execute("PRAGMA integrity_check").fetchone()[0]
    if integrity != "ok":  # the backup was checked: this would be the disk
        print(f"the restored {target} fails its integrity check: {integrity}")
        return False
    return True
