"""A database outage on SQLite: every statement fails for a while (a fault switch around the
store's database, as a failing disk would make it), then works again.

During the outage players are answered at once and privately that nothing was changed; after
it, what was pending when it began (a board's redraw, a timer) happens by itself within a few
seconds, with no further click. Nothing of it counts as an unexpected error.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from bot.core.outage import SWEEP_SECONDS, database_unavailable
from bot.dev.world import private_texts
from bot.ui.replies import UNAVAILABLE_TEXT
from tests.bot.tinygame import TinyAdapter

CHALLENGE_MINUTES = 5  # how long a challenge stays open


@pytest.fixture
def games():
    return [TinyAdapter]


class FaultyDatabase:
    """The store's database with a switch: while ``failing``, every statement raises the error
    a failing disk gives (nothing reaches the file); everything else is passed through."""

    def __init__(self, database: Any):
        self._database = database
        self.failing = False
        self.refused = 0  # statements refused while failing

    def __getattr__(self, name: str) -> Any:
        return getattr(self._database, name)

    def check(self) -> None:
        if self.failing:
            self.refused += 1
            raise sqlite3.OperationalError("disk I/O error")

    def trips(self) -> Any:
        return FaultyTrips(self._database.trips(), self)

    async def rows(self, sql: str, params: Any = ()) -> list[Any]:
        self.check()
        return await self._database.rows(sql, params)

    async def execute(self, sql: str, params: Any = ()) -> None:
        self.check()
        await self._database.execute(sql, params)


class FaultyTrips:
    def __init__(self, trips: Any, switch: FaultyDatabase):
        self._trips = trips
        self._switch = switch

    async def send(self, statements: list[Any], rows: bool, last: bool) -> list[Any] | None:
        self._switch.check()
        return await self._trips.send(statements, rows, last)

    async def commit(self, statements: list[Any]) -> None:
        self._switch.check()
        await self._trips.commit(statements)

    async def abort(self) -> None:
        await self._trips.abort()

    async def release(self) -> None:
        await self._trips.release()


def install_fault_switch(world) -> FaultyDatabase:
    store = world.platform.store
    store.database = switch = FaultyDatabase(store.database)
    return switch


def fail_right_after_the_next_commit(world, switch: FaultyDatabase) -> None:
    """The outage begins as the next change commits: before its messages go out."""

    def outage_begins(*_: Any) -> None:
        if not switch.refused:
            switch.failing = True

    world.platform.sessions.committed.insert(0, outage_begins)


async def start_tiny(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    return world.channel.last_message


def test_a_disk_error_means_unavailable_and_a_wrong_statement_does_not():
    assert database_unavailable(sqlite3.OperationalError("disk I/O error"))
    assert not database_unavailable(RuntimeError("a bug"))
    assert not database_unavailable(sqlite3.OperationalError("no such table: sessions"))
    assert not database_unavailable(sqlite3.IntegrityError("UNIQUE constraint failed"))
    assert not database_unavailable(ConnectionRefusedError("Discord, not the database"))


async def test_a_move_committed_just_before_an_outage_shows_on_its_board_after_it(world):
    game = await start_tiny(world)
    switch = install_fault_switch(world)
    fail_right_after_the_next_commit(world, switch)

    await world.ada.click(game, label="+2")
    assert switch.failing, "the outage began right after the move's commit"
    await world.env.advance_time(4 * SWEEP_SECONDS)
    assert "added 2" not in world.message(game.id).content, "nothing can be read while the database is away"

    during = await world.bo.click(game, label="+1")
    assert during.acknowledged
    assert private_texts(during) == [UNAVAILABLE_TEXT]

    switch.failing = False
    await world.env.advance_time(2 * SWEEP_SECONDS)  # no click: the sweep finds the redraw
    assert "**Ada** added 2." in world.message(game.id).content
    assert await world.platform.store.outbox() == []
    session = await world.session()
    assert session.state.total == 2, "the move made during the outage changed nothing"
    assert world.platform.errors.counts["database"] == 1, "one player was told"


async def test_a_timer_due_during_an_outage_fires_soon_after_it(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    challenge = world.channel.last_message
    switch = install_fault_switch(world)
    switch.failing = True
    await world.env.advance_time(CHALLENGE_MINUTES * 60 + 60)  # the expiry fails, again and again
    assert "expired" not in world.message(challenge.id).content

    switch.failing = False
    await world.env.advance_time(2 * SWEEP_SECONDS)
    assert "expired" in world.message(challenge.id).content
    assert await world.session() is None


async def test_the_bot_started_during_an_outage_sends_what_was_pending_once_it_ends(world, settings):
    game = await start_tiny(world)
    switch = install_fault_switch(world)
    fail_right_after_the_next_commit(world, switch)
    await world.ada.click(game, label="+1")
    await world.platform.outbox.stop()
    await world.platform.timers.stop()
    with world.env._bot_scope():  # the bot's own work, as after the gateway's READY
        await world.platform.start()  # while nothing can be read

    switch.failing = False
    await world.env.advance_time(2 * SWEEP_SECONDS)
    assert "**Ada** added 1." in world.message(game.id).content
    assert await world.platform.store.outbox() == []
