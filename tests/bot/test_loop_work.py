"""Less event-loop work per click, and an event loop that overload cannot starve (issue #29):
replays in a queue of their own, turned-away interactions answered before anything is read, a
"busy" signal from the loop's lag, and the legal actions of a position worked out once."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import time
from pathlib import Path

import pytest

from bot.core import loop_lag
from bot.core.loop_lag import LAG_LIMIT_SECONDS, SUSTAINED, LagMonitor
from bot.core.workers import REPLAYS
from bot.dev.world import private_texts
from bot.features.replays import REPLAYS_BUSY_TEXT
from bot.games import all_games
from bot.ui.menus import PAGE
from bot.ui.replies import BUSY_TEXT
from tests.bot.answers import private_answer
from tests.bot.test_menus import start_wide
from tests.bot.test_replays import finish_by_resigning, frames_of
from tests.bot.tinygame import TinyAdapter

RELEASE_WAIT = 120  # seconds a held worker waits for its release at most (a failed test ends it)


def hold_until_released(flag: str) -> None:
    """In a worker: keep it busy until ``flag`` exists (the test decides when, not a clock)."""
    deadline = time.monotonic() + RELEASE_WAIT
    while not Path(flag).exists() and time.monotonic() < deadline:
        time.sleep(0.01)


def count_reads(monkeypatch, platform) -> list[str]:
    """Every session read from now on, by name (``sessions.change`` reads through ``sessions.load``)."""
    reads: list[str] = []
    readers = [(platform.sessions, "load"), (platform.sessions, "live_in_channel")]
    readers += [(platform.store, name) for name in ("get_session", "live_session", "live_session_ref")]

    def counted(read, name):
        def counting(*args, **kwargs):
            reads.append(name)
            return read(*args, **kwargs)

        return counting

    for owner, name in readers:
        monkeypatch.setattr(owner, name, counted(getattr(owner, name), name))
    return reads


def count_loads_by_controls(monkeypatch, platform) -> list[int]:
    """The sessions loaded by the control dispatcher's handlers from now on (what the bot does
    after the commit, in tasks of its own, such as redrawing the game message, is not counted)."""
    loaded: list[int] = []
    load = platform.sessions.load

    def counting(session_id, *args, **kwargs):
        callers = inspect.stack(context=0)
        dispatching = [caller.frame.f_locals.get("self") for caller in callers if caller.function == "run"]
        if any(dispatcher is platform.controls for dispatcher in dispatching):
            loaded.append(session_id)
        return load(session_id, *args, **kwargs)

    monkeypatch.setattr(platform.sessions, "load", counting)
    return loaded


async def start_octego(world):
    """Ada challenges Bo to Octego and Bo accepts: the game message."""
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    session = await world.session()
    await world.platform.outbox.flush(session.id)
    return world.message(session.record.message_id)


async def wait_for_wakes(monitor: LagMonitor, wakes: int) -> None:
    woken = monitor.wakes
    while monitor.wakes < woken + wakes:  # noqa: ASYNC110 (the monitor is what is watched: no event of its own)
        await asyncio.sleep(monitor.tick / 2)


def hold_the_loop(seconds: float) -> None:
    """Keep the event loop from running anything (what overload does), on purpose."""
    time.sleep(seconds)


@pytest.fixture
def games():
    return all_games()


@pytest.fixture
def settings(settings):
    return dataclasses.replace(settings, replay_queue_limit=1)


async def test_a_full_replay_queue_turns_replays_away_and_never_delays_a_move(world, tmp_path):
    finished = await finish_by_resigning(world, "octego", 4)
    game_message = world.message(finished.record.message_id)
    replays = world.platform.replays.pictures
    assert replays is REPLAYS
    assert replays is not world.platform.pictures, "replays have a pool of their own"

    released = tmp_path / "released"
    long_replay = asyncio.ensure_future(replays.run(hold_until_released, str(released)))
    await asyncio.sleep(0)
    assert replays.full
    try:
        clicked = await world.cy.click(game_message, label="Replay")
        assert private_texts(clicked) == [REPLAYS_BUSY_TEXT]

        # Meanwhile a new game in the channel gets its picture: the moves' pool is not behind the replay.
        await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
        await world.bo.click(world.channel.last_message, label="Accept")
        new_game = world.channel.last_message
        assert new_game.attachments, "the new game's picture came while the replay worker was held"
        assert not long_replay.done()
    finally:
        released.touch()
        await long_replay

    clicked = await world.cy.click(game_message, label="Replay")
    assert not private_texts(clicked)
    replay = world.channel.last_message
    assert len(frames_of(world.env.backend.cdn.get(replay.attachments[0].url))) > 1, "once drained, the replay comes"


async def test_a_turned_away_click_or_command_is_answered_before_anything_is_read(world, monkeypatch, tmp_path):
    game = await start_octego(world)
    pictures = world.platform.pictures
    monkeypatch.setattr(pictures, "queue_limit", 1)
    released = tmp_path / "released"
    another_channels_picture = asyncio.ensure_future(pictures.run(hold_until_released, str(released)))
    await asyncio.sleep(0)
    assert pictures.full
    reads = count_reads(monkeypatch, world.platform)
    try:
        clicked = await world.ada.click(game, label="Move")
        typed = await world.ada.slash(world.channel, "board")
    finally:
        released.touch()
        await another_channels_picture
    assert private_texts(clicked) == [BUSY_TEXT]
    assert private_texts(typed) == [BUSY_TEXT]
    assert reads == [], "a turned-away interaction reads nothing"


async def test_a_late_event_loop_turns_players_away_before_anything_is_read(world, monkeypatch):
    game = await start_octego(world)
    reads = count_reads(monkeypatch, world.platform)
    monkeypatch.setattr(loop_lag, "busy", lambda: True)
    clicked = await world.ada.click(game, label="Move")
    typed = await world.ada.slash(world.channel, "board")
    assert private_texts(clicked) == [BUSY_TEXT]
    assert private_texts(typed) == [BUSY_TEXT]
    assert reads == []

    monkeypatch.undo()
    opened = await world.ada.click(game, label="Move")
    assert private_texts(opened) != [BUSY_TEXT], "once the loop keeps up, the menu opens"


async def test_the_loop_is_busy_only_while_it_wakes_late_again_and_again():
    monitor = LagMonitor(asyncio.get_running_loop())
    await wait_for_wakes(monitor, 1)
    held = LAG_LIMIT_SECONDS * 2  # the loop held this long wakes the monitor at least this late

    hold_the_loop(held)  # one late wake alone: a collection of garbage, a slow import
    assert not monitor.busy()
    await wait_for_wakes(monitor, 1)
    assert monitor.lags[-1] > LAG_LIMIT_SECONDS

    for _ in range(SUSTAINED - 1):
        hold_the_loop(held)
        await wait_for_wakes(monitor, 1)
    hold_the_loop(held)
    assert monitor.busy(), "late at every one of the last wakes, the one overdue now included"

    for _ in range(100):  # the loop keeps up again (on a starved machine, some wakes stay late)
        await wait_for_wakes(monitor, 1)
        if not monitor.busy():
            break
    assert not monitor.busy()


@pytest.mark.parametrize("games", [[TinyAdapter]])
async def test_a_menu_click_loads_the_session_once_and_a_position_s_actions_are_worked_out_once(
    world, games, monkeypatch
):
    game = await start_wide(world)
    session_id = (await world.session()).id
    menus = world.platform.menus
    worked_out: list[tuple[int, int]] = []  # (action number, seat) of each time the legal actions were worked out
    actions = menus.actions

    def working_out(menu, engine, session, seat):
        worked_out.append((session.action_number, seat))
        return actions(menu, engine, session, seat)

    monkeypatch.setattr(menus, "actions", working_out)
    loaded = count_loads_by_controls(monkeypatch, world.platform)

    menu = private_answer(await world.ada.click(game, label="Add…"))
    assert loaded == [session_id]
    await world.ada.select(menu, [f"{PAGE}1"])  # the second page of the 40 choices
    assert loaded == [session_id] * 2
    await world.ada.select(menu, ["30"])  # the last click plays the action
    assert loaded == [session_id] * 3, "each click loads the session once, the one that plays it too"
    assert menu.content == "Done. **Ada** added 30."
    assert (await world.session()).state.total == 30
    assert worked_out == [(0, 0)], "three clicks at one position: its legal actions worked out once"
