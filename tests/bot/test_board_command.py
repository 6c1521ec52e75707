"""`/<game> board` (issue #36): the game message is posted again at the bottom, and the older one
becomes a line pointing down, without picture or controls, so that no live-looking twin is left
(one that kept "Turn ends in 2 days", Move and Resign after the game ended)."""

from __future__ import annotations

import discord
import pytest

from bot.dev.world import private_texts
from bot.games.octego import OctegoAdapter
from bot.ui.game_message import POSTED_AGAIN


@pytest.fixture
def games():
    return [OctegoAdapter]


def labels(message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


async def start_octego(world):
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo, clock="2d")
    await world.bo.click(world.channel.last_message, label="Accept")
    return world.message((await world.session()).record.message_id)


async def test_the_board_posted_again_leaves_no_live_twin(world):
    first = await start_octego(world)
    assert "Turn ends" in first.content
    assert "Resign" in labels(first)

    answer = await world.ada.slash(world.channel, "board")
    assert private_texts(answer) == ["Here is the current board."]
    board = world.channel.last_message
    assert board.id == (await world.session()).record.message_id != first.id
    assert "Turn ends" in board.content
    assert "Resign" in labels(board)
    old = world.message(first.id)
    assert old.content == f"## Octego\n**Ada** vs **Bo**\n{POSTED_AGAIN}"
    assert old.components == [], "no controls"
    assert old.attachments == [], "no picture"

    await world.bo.slash(world.channel, "board")  # again: the second copy points down too
    assert world.message(board.id).content.endswith(POSTED_AGAIN)
    await world.ada.slash(world.channel, "octego resign")
    final = world.channel.last_message
    assert "won" in final.content
    assert labels(final) == ["Rematch", "Replay", "Review"]
    for earlier in (first.id, board.id):
        assert world.message(earlier).content.endswith(POSTED_AGAIN), "after the end, no old turn line"


async def test_a_deleted_game_message_is_posted_again_without_a_stray_line(world):
    first = await start_octego(world)
    world.env.backend.delete_message(world.channel.id, first.id)
    posted = len(world.channel.history())
    await world.ada.slash(world.channel, "board")
    assert len(world.channel.history()) == posted + 1, "the board alone"
    assert "Resign" in labels(world.channel.last_message)
    assert world.platform.errors == []


async def test_the_board_typed_in_the_parent_channel_answers_with_a_link_to_the_thread(world):
    owner = world.guild.add_member(
        world.env.create_user("owner"),
        roles=[world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))],
    )
    await owner.slash(world.channel, "settings game_threads", enabled=True)
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    [record] = await world.platform.store.threaded_sessions(world.channel.id)
    answer = await world.ada.slash(world.channel, "board")
    assert private_texts(answer) == [f"The current board is posted again in <#{record.thread_id}>."]
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    in_thread = await world.bo.slash(thread, "board")
    assert private_texts(in_thread) == ["Here is the current board."]
