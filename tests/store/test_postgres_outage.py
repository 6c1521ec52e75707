"""A real PostgreSQL stopped (as by a crash: ``pg_ctl stop -m immediate``) right after a move
commits, and started again on the same data folder by the test. The bot runs against SimCord.

While the server is down a click is answered privately that nothing was changed; once it is
back, the move's pending redraw reaches the board by itself, with no further click, within a
few seconds (waited for with a generous limit), and nothing counts as an unexpected error.

The server is this test's own (stopping the test process's shared one would break the tests
after it), in a folder of its own, listening on a Unix socket there: the same URL after the
restart.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import create_bot
from bot.core.settings import Settings
from bot.dev.world import build_world, private_texts
from bot.ui.replies import UNAVAILABLE_TEXT
from tests.bot.settle import use_settle_limit
from tests.bot.tinygame import TinyAdapter

pytestmark = pytest.mark.integration  # a PostgreSQL server of its own, stopped and started

RETURN_LIMIT_SECONDS = 60  # generous: "within a few seconds" on a quiet machine

use_settle_limit()


@pytest.fixture
def own_server():
    import pgserver

    folder = Path(tempfile.mkdtemp(prefix="octagon-outage-pg-"))
    try:
        server = pgserver.get_server(folder, cleanup_mode="delete")
        yield server
        start_again(server)  # a failed test may have left it stopped: cleanup stops it cleanly
        server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def stop_abruptly(server: Any) -> None:
    from pgserver._commands import pg_ctl

    pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=server.pgdata, user=server.system_user)


def start_again(server: Any) -> None:
    with server._lock:
        server.ensure_postgres_running()


def board_shows(world, message_id: int, text: str) -> bool:
    return text in world.message(message_id).content


async def test_a_pending_redraw_goes_out_by_itself_after_postgres_returns(own_server):
    own_server.psql("CREATE DATABASE outage;")
    url = own_server.get_uri("outage")
    bot = create_bot(Settings(token=None, database_url=url, game_threads=False), [TinyAdapter])
    try:
        async with simcord.run(bot) as env:
            world = build_world(env)
            await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
            await world.bo.click(world.channel.last_message, label="Accept")
            game = world.channel.last_message
            stopped = []

            def server_dies(*_: Any) -> None:  # the move has committed; its redraw is not out
                if not stopped:
                    stop_abruptly(own_server)
                    stopped.append(True)

            world.platform.sessions.committed.insert(0, server_dies)
            await world.ada.click(game, label="+2")
            assert stopped
            await env.advance_time(10)
            assert not board_shows(world, game.id, "added 2"), "nothing can be read while the server is down"

            during = await world.bo.click(game, label="+1")
            assert private_texts(during) == [UNAVAILABLE_TEXT]

            await asyncio.to_thread(start_again, own_server)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + RETURN_LIMIT_SECONDS
            while not board_shows(world, game.id, "**Ada** added 2.") and loop.time() < deadline:
                await env.advance_time(1)  # no click: only the bot's own sweep
            assert board_shows(world, game.id, "**Ada** added 2.")
            assert await world.platform.store.outbox() == []
            assert (await world.session()).state.total == 2
            assert list(world.platform.errors) == []
    finally:
        await bot.release()
