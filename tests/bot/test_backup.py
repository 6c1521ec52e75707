"""A backup taken with ``python -m bot.db backup`` while the bot plays restores into a fresh
file on which a new bot goes on with the game; a restore over the file a running bot holds is
refused."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import re
import sqlite3
import stat
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from bot.core.store import Store
from bot.dev import db_tool as db
from tests.bot.tinygame import TinyAdapter, start_game


@pytest.fixture
def games():
    return [TinyAdapter]


async def test_a_bot_started_on_a_restored_backup_goes_on_with_the_game(world, settings, tmp_path, capsys):
    backup, restored = tmp_path / "backup.db", tmp_path / "restored.db"
    game = await start_game(world)
    await world.ada.click(game, label="+2")
    session_id = (await world.session()).id
    assert db.backup(settings.database_path, str(backup))  # while the bot holds the database
    await world.bo.click(game, label="+1")  # after the backup: not in it
    assert (await world.session()).state.total == 3

    assert db.restore(str(backup), str(restored))
    await world.restart(dataclasses.replace(settings, database_path=str(restored)), [TinyAdapter])
    await world.bo.click(game, label="+2")  # the old message's button, on the restored game
    record = await world.platform.store.get_session(session_id)
    assert (record.state["total"], record.actions) == (4, 2)
    assert f"It is {world.ada.mention}'s turn" in world.message(game.id).content

    # The bot holds the restored file: a restore over it is refused, even with --force.
    capsys.readouterr()
    assert not db.restore(str(backup), str(restored), force=True)
    assert "in use" in capsys.readouterr().out
    with contextlib.closing(sqlite3.connect(restored)) as connection:
        assert connection.execute("SELECT actions FROM sessions WHERE id = ?", (session_id,)).fetchone() == (2,)


# ------------------------------------------------------------------ backups that happen (issue 38)

ROOT = Path(__file__).resolve().parents[2]


def fresh_install(folder: Path) -> Path:
    """A folder as a fresh install leaves it after its first start: the database, migrated."""
    folder.mkdir(parents=True, exist_ok=True)

    async def first_start() -> None:
        store = await Store.open(str(folder / "octagon.db"), 1, None)
        await store.close()

    asyncio.run(first_start())
    return folder / "octagon.db"


@pytest.fixture
def usual_umask():
    """The umask most machines have (files readable by everyone) for the test, restored after."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_backup_into_a_missing_folder_creates_it_and_only_its_user_reads_it(tmp_path, usual_umask, capsys):
    database = fresh_install(tmp_path)
    target = tmp_path / "backups" / "nightly" / "octagon-2026-11-28.db"
    assert db.main(["backup", str(target), "--database", str(database)]) == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
    assert [path.name for path in target.parent.iterdir()] == [target.name], "no partial file left"
    assert "integrity ok" in capsys.readouterr().out


def test_keep_3_keeps_the_three_newest_backups_and_no_other_file_is_touched(tmp_path, capsys):
    database = fresh_install(tmp_path)
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "other-1.sqlite").write_text("not a backup of this name")
    for day in range(1, 6):
        target = folder / f"octagon-2026-11-{day:02}.db"
        assert db.main(["backup", str(target), "--database", str(database), "--keep", "3"]) == 0
        os.utime(target, (day * 86400, day * 86400))  # each a day older than the next
    names = sorted(path.name for path in folder.iterdir())
    assert names == [
        "notes.txt",
        "octagon-2026-11-03.db",
        "octagon-2026-11-04.db",
        "octagon-2026-11-05.db",
        "other-1.sqlite",
    ]
    assert "deleted the older backup" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("backups", "backups is a folder: give the backup's file name, e.g. backups/octagon.db"),
        ("octagon.db/x.db", "could not write the backup octagon.db/x.db: octagon.db is a file, not a folder"),
    ],
)
def test_a_wrong_path_is_one_sentence(tmp_path, capsys, monkeypatch, where, said):
    database = fresh_install(tmp_path)
    (tmp_path / "backups").mkdir()
    monkeypatch.chdir(tmp_path)
    assert db.main(["backup", where, "--database", str(database)]) == 1
    assert capsys.readouterr().out == f"{said}\n"


def readme_cron_line() -> str:
    readme = (ROOT / "README.md").read_text()
    (line,) = re.findall(r"^0 4 \* \* \* (.+)$", readme, flags=re.MULTILINE)
    return line


def test_readmes_nightly_cron_line_works_on_a_fresh_install(tmp_path):
    install = tmp_path / "opt" / "octagon-bot"
    fresh_install(install)
    (install / ".venv").symlink_to(Path(sys.prefix))  # the install's own .venv: this one
    command = readme_cron_line().replace("/opt/octagon-bot", str(install))
    # cron gives the rest of the line to /bin/sh, a % ending it unless escaped (and unescaped then).
    command = command.replace("\\%", "%")
    assert "%" not in re.sub(r"\$\(date \+%F\)", "", command), "an unescaped % would cut the line"
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}  # cron's own
    for _ in range(2):  # the second night's run (same day here) finds its file: refused, nothing lost
        result = subprocess.run(["/bin/sh", "-c", command], env=environment, capture_output=True, text=True)
    backups = list((install / "backups").iterdir())
    (backup,) = backups
    assert backup.name == f"octagon-{date.today():%Y-%m-%d}.db"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert "already exists" in result.stdout
    with contextlib.closing(sqlite3.connect(backup)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_setting_not_allowed_is_the_same_one_sentence_for_the_database_tool(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_POOL_SIZE", "lots")
    assert db.main(["backup", "backups/octagon.db"]) == 1
    assert capsys.readouterr().out == "DATABASE_POOL_SIZE must be a whole number of 1 or more, not 'lots'.\n"
