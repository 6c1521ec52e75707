"""Computer players think in worker processes, and a worker that dies costs a retry, not the game."""

from __future__ import annotations

import os

import pytest

from bot.dev.world import bot_member
from tests.bot import tinygame
from tests.bot.tinygame import TinyAdapter


@pytest.fixture
def games():
    return [TinyAdapter]


async def play_against_the_computer(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=bot_member(world))
    await world.ada.click(world.channel.last_message, label="+1")
    return await world.session()


async def test_the_computer_thinks_in_a_worker_process(world, monkeypatch):
    monkeypatch.setattr(TinyAdapter, "computer_player", tinygame.computer_reporting_its_process)
    session = await play_against_the_computer(world)
    assert session.state.total == 3, "the move was chosen in another process (it adds 1 in the bot's own)"


async def test_a_worker_killed_mid_thought_is_replaced_and_the_move_still_comes(world, monkeypatch):
    monkeypatch.setattr(TinyAdapter, "computer_player", tinygame.computer_dying_once)
    session = await play_against_the_computer(world)
    flag = tinygame.died_flag(os.getpid(), session.state.seed)
    assert flag.exists(), "the first worker died"
    flag.unlink()
    assert session.state.total == 3, "a fresh worker made the move"
    assert f"It is {world.ada.mention}'s turn" in world.channel.last_message.content
