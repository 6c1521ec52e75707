"""The Resign button asks first, privately, and its question expires once the game moves on;
`/<game> resign` is typed on purpose and resigns at once."""

from __future__ import annotations

import discord
import pytest

from bot.core.sessions import STALE_TEXT
from bot.dev.world import private_texts
from tests.bot.tinygame import TinyAdapter, start_game


@pytest.fixture
def games():
    return [TinyAdapter]


def buttons(message) -> list[tuple[str, int]]:
    """(label, row) of each button of a message (a channel message's rows or a private answer's dicts)."""
    rows = [row.to_dict() if hasattr(row, "to_dict") else row for row in message.components]
    return [(button.get("label"), index) for index, row in enumerate(rows) for button in row["components"]]


async def test_the_resign_button_is_grey_and_below_the_game_s_own_controls(world):
    game = await start_game(world)
    assert buttons(game) == [("+1", 0), ("+2", 0), ("My view", 0), ("Resign", 1)]
    resign = next(child for row in game.components for child in row.children if child.label == "Resign")
    assert resign.style == discord.ButtonStyle.secondary  # not the red of a main action


async def test_resigning_asks_privately_and_keep_playing_changes_nothing(world):
    game = await start_game(world)
    asked = await world.bo.click(game, label="Resign")
    assert asked.ephemeral
    question = asked.response
    assert question.content.startswith("Resign this game of Tiny?")
    assert [label for label, _ in buttons(question)] == ["Resign", "Keep playing"]
    assert (await world.session()).status == "active", "the question alone changes nothing"
    assert "resigned" not in world.message(game.id).content

    await world.bo.click(question, label="Keep playing")
    assert question.content == "You keep playing."
    assert question.components == []
    assert (await world.session()).status == "active"

    # Out of turn too: Bo asks again and confirms.
    question = (await world.bo.click(game, label="Resign")).response
    await world.bo.click(question, label="Resign")
    assert question.content == "You resigned."
    message = world.message(game.id)
    assert "**Bo** resigned." in message.content
    assert f"🏆 {world.ada.mention} won (resignation)." in message.content


async def test_a_confirmation_expires_with_the_turn(world):
    game = await start_game(world)
    question = (await world.ada.click(game, label="Resign")).response
    await world.ada.slash(world.channel, "tiny add", amount=1)  # the game moves on
    before = await world.session()

    late = await world.ada.click(question, label="Resign")
    assert private_texts(late)[-1] == STALE_TEXT
    assert all(message.ephemeral for message in late.followups)
    after = await world.session()
    assert (after.status, after.state.total, after.action_number) == ("active", 1, before.action_number)
    assert "resigned" not in world.message(game.id).content


async def test_only_players_are_asked(world):
    game = await start_game(world)
    outsider = await world.cy.click(game, label="Resign")
    assert private_texts(outsider) == ["You are not playing in this game."]


async def test_the_command_resigns_at_once(world):
    game = await start_game(world)
    result = await world.bo.slash(world.channel, "tiny resign")
    assert private_texts(result) == ["You resigned."]
    assert await world.session() is None, "the game is over"
    assert "**Bo** resigned." in world.message(game.id).content
