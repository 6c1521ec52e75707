"""Octagion's race on the Activity's board: two members type their variants on the board (applied as
the Discord form applies them), a bad answer is refused with nothing changed, and every board of the
session gets the new view."""

from __future__ import annotations

import aiohttp
import pytest

from bot.core.settings import Settings
from bot.features.activity.server import GONE_BUTTON
from bot.games.octagion import OctagionAdapter
from bot.games.octagion.rounds import NEXT_ROUND_PAUSE
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


async def test_an_answer_typed_for_a_round_that_is_over_is_refused_not_given_to_the_next(world, http):
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start", rounds=2)
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    first_round = world.channel.last_message
    session = await world.session()
    ada = BoardClient(http, world.bot.activity_server, world.ada, world)
    assert (await ada.open(session.id))["race"]["round"] == 1
    late = " ".join(solution(session.state.words[0]))  # typed during round 1, sent once it is over
    await world.bo.click(first_round, label="Got it!")
    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    session = await world.platform.sessions.load(session.id)
    assert session.state.round == 2
    while (await ada.next())["race"] is None:  # the round's result, then round 2 on the board
        pass
    assert ada.socket is not None
    await ada.socket.send_json({"type": "race", "answer": late, "round": 1})
    assert await not_a_view(ada) == {"type": "refused", "reason": "Round 1 is already over."}
    now = await world.platform.sessions.load(session.id)
    assert now.action_number == session.action_number
    assert now.state.variants == session.state.variants, "nothing given to round 2"
    await ada.socket.send_json({"type": "race", "answer": late, "round": 2})  # round 2's own: it counts
    await ada.view_at(session.action_number + 1)
    assert (await world.platform.sessions.load(session.id)).state.variants != session.state.variants


async def not_a_view(board: BoardClient) -> dict:
    """The board's next message that is not a view (the same round may be shown again meanwhile)."""
    while (said := await board.next())["type"] == "view":
        pass
    return said


async def test_the_lobby_is_joined_and_started_on_the_board_and_a_button_not_offered_is_refused(world, http):
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start")
    lobby = await world.session()
    server = world.bot.activity_server
    ada, bo = (BoardClient(http, server, member, world) for member in (world.ada, world.bo))
    assert (await ada.open(lobby.id))["buttons"] == [{"key": "start", "label": "Start"}]
    assert (await bo.open(lobby.id))["buttons"] == [{"key": "join", "label": "Join"}]
    assert bo.socket is not None
    await bo.socket.send_json({"type": "button", "key": "start"})  # only the host is offered Start
    assert await not_a_view(bo) == {"type": "refused", "reason": GONE_BUTTON}
    assert (await world.session()).players == [world.ada.id]
    await bo.socket.send_json({"type": "button", "key": "join"})
    joined = await bo.view_at(lobby.action_number)  # a lobby's members are not actions: same version
    assert joined["buttons"] == [{"key": "leave", "label": "Leave"}]
    assert "Players (2): Ada, Bo" in joined["status"]
    assert (await world.session()).players == [world.ada.id, world.bo.id]
    assert ada.socket is not None
    await ada.socket.send_json({"type": "button", "key": "start"})
    while (started := await ada.next())["race"] is None:  # the lobby's last view, then round 1
        pass
    assert started["buttons"] == [{"key": "gotit:1", "label": "Got it!"}]
    assert (await world.session()).status == "active"
