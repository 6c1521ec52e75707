"""Pictures are drawn in worker processes, a dead worker costs a retry, and while the workers are
swamped a player is told "busy" at once and nothing changes."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time

import pytest

from bot.core.workers import REPLAY_NICENESS, REPLAYS
from bot.dev.world import private_texts
from bot.ui.replies import BUSY_TEXT
from tests.bot import tinygame
from tests.bot.answers import private_answer
from tests.bot.test_platform import start_game
from tests.bot.tinygame import TinyAdapter

MOST_NICE = 19  # the lowest priority a process can have on Linux


@pytest.fixture
def games():
    return [TinyAdapter]


@pytest.fixture
def settings(settings):
    return dataclasses.replace(settings, picture_queue_limit=1)


async def test_the_game_picture_is_drawn_in_a_worker_process(world, monkeypatch):
    monkeypatch.setattr(
        TinyAdapter, "public_picture", lambda self, s: tinygame.drawing(tinygame.render_reporting_its_process, s.state)
    )
    game = await start_game(world)
    assert game.attachments[0].description == "Drawn in a worker."


async def test_a_worker_killed_while_drawing_is_replaced_and_the_picture_still_comes(world, monkeypatch):
    monkeypatch.setattr(
        TinyAdapter, "public_picture", lambda self, s: tinygame.drawing(tinygame.render_dying_once, s.state)
    )
    game = await start_game(world)
    flag = tinygame.died_flag(os.getpid(), (await world.session()).state.seed)
    assert flag.exists(), "the first worker died"
    flag.unlink()
    assert game.attachments[0].description == "The counter is at 0."
    assert world.platform.errors == []


async def test_a_full_picture_queue_turns_players_away_before_anything_changes(world):
    game = await start_game(world)
    pictures = world.platform.pictures
    drawing_elsewhere = asyncio.ensure_future(pictures.run(time.sleep, 0.5))  # another channel's picture
    await asyncio.sleep(0)
    assert pictures.full

    clicked = await world.ada.click(game, label="+1")
    typed = await world.ada.slash(world.channel, "tiny add", amount=2)
    await drawing_elsewhere
    assert private_texts(clicked) == [BUSY_TEXT]
    assert private_texts(typed) == [BUSY_TEXT]
    assert (await world.session()).state.total == 0, "nothing changed"

    await world.ada.click(game, label="+1")
    assert (await world.session()).state.total == 1, "once the queue drained, the move is played"


async def test_a_menu_already_open_is_let_through_when_busy(world):
    """Turning away the last step of a move would waste the steps taken: only starts wait."""
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo, wide=True)
    await world.bo.click(world.channel.last_message, label="Accept")
    menu = private_answer(await world.ada.click(world.channel.last_message, label="Add…"))
    pictures = world.platform.pictures
    drawing_elsewhere = asyncio.ensure_future(pictures.run(time.sleep, 0.5))
    await asyncio.sleep(0)
    assert pictures.full

    await world.ada.select(menu, ["5"])
    await drawing_elsewhere
    assert menu.content == "Done. **Ada** added 5."
    assert (await world.session()).state.total == 5


async def test_workers_run_at_a_lower_os_priority_than_the_bot(world):
    """Acknowledgements run on the bot's event loop: drawing and searching must never win the CPU
    over it, and a replay never over a move's picture."""
    bot_niceness = os.nice(0)
    if bot_niceness + REPLAY_NICENESS > MOST_NICE:
        pytest.skip(f"the tests run at niceness {bot_niceness}: no lower priority is left for the workers")
    picture_niceness = await world.platform.pictures.run(os.nice, 0)
    thinking_niceness = await world.platform.thinking.run(os.nice, 0)
    replay_niceness = await REPLAYS.run(os.nice, 0)
    assert picture_niceness > bot_niceness
    assert thinking_niceness > bot_niceness
    assert replay_niceness > picture_niceness
