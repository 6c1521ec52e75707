"""Less event-loop work per click, and an event loop that overload cannot starve (issue #29):
replays in a queue of their own, turned-away interactions answered before anything is read, a
"busy" signal from the loop's lag, and the legal actions of a position worked out once."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path

import pytest

from bot.core.workers import REPLAYS
from bot.dev.world import private_texts
from bot.features.replays import REPLAYS_BUSY_TEXT
from bot.games import all_games
from tests.bot.test_replays import finish_by_resigning, frames_of

RELEASE_WAIT = 120  # seconds a held worker waits for its release at most (a failed test ends it)


def hold_until_released(flag: str) -> None:
    """In a worker: keep it busy until ``flag`` exists (the test decides when, not a clock)."""
    deadline = time.monotonic() + RELEASE_WAIT
    while not Path(flag).exists() and time.monotonic() < deadline:
        time.sleep(0.01)


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
