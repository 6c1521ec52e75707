"""Octagion's race on the Activity's board: two members type their variants on the board (applied as
the Discord form applies them), a bad answer is refused with nothing changed, and every board of the
session gets the new view."""

from __future__ import annotations

import aiohttp
import pytest

from bot.core.settings import Settings
from bot.games.octagion import OctagionAdapter
from engines.octagion import solution
from tests.bot.test_activity_server import BoardClient

SEED = 1234


@pytest.fixture
def games():
    return [OctagionAdapter]


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "test.db"), game_threads=False, activity_port=0)


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as client:
        yield client


async def test_two_members_answer_on_the_board_and_a_bad_answer_is_refused(world, http):
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start")
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    session = await world.session()
    server = world.bot.activity_server
    ada, bo = (BoardClient(http, server, member, world) for member in (world.ada, world.bo))
    first = (await ada.open(session.id))["version"]
    await bo.open(session.id)
    assert ada.socket is not None
    assert bo.socket is not None
    await ada.socket.send_json({"type": "race", "answer": "not a variant at all"})
    refused = await ada.next()
    assert refused["type"] == "refused", refused
    assert refused["reason"]
    assert (await world.platform.sessions.load(session.id)).action_number == first
    word = (await world.platform.sessions.load(session.id)).state.words[0]
    await ada.socket.send_json({"type": "race", "answer": " ".join(solution(word))})
    for board in (ada, bo):
        view = await board.view_at(first + 1)
        assert view["race"] is not None
    state = (await world.platform.sessions.load(session.id)).state
    assert any(state.variants[0])
