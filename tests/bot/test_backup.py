"""A backup taken with ``python -m bot.db backup`` while the bot plays restores into a fresh
file on which a new bot goes on with the game; a restore over the file a running bot holds is
refused."""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3

import pytest

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
