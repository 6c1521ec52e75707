"""Sides as the game has them (issue 28): with Ada and Bo in Octagion's team 1 and Cy in team 2,
every text a member reads has Ada & Bo as partners against Cy: the start line, the game message,
the result, the replay's heading, the record and /history; a computer team wins by its name."""

from __future__ import annotations

import pytest

from bot.dev.world import private_texts
from bot.games.octagion import OctagionAdapter
from engines.record import read_record
from tests.bot.test_octagion_bot import SEED, live
from tests.bot.test_octagion_lobby import choose, select_id
from tests.bot.test_replays import attachment_bytes


@pytest.fixture
def games():
    return [OctagionAdapter]


async def start_team_game(world):
    """Ada and Bo in team 1, Cy in team 2, one round; returns the lobby's message (the start line)."""
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start", rounds=1, teams=2)
    lobby = world.channel.last_message
    await world.bo.select(lobby, ["0"], custom_id=select_id(lobby, "octagion_team"))
    await world.cy.select(world.channel.last_message, ["1"], custom_id=select_id(lobby, "octagion_team"))
    await world.ada.click(world.channel.last_message, label="Start")
    return lobby


async def finish_team_game(world):
    """Cy calls Got it! on an empty variant: -2 for team 2, so Ada & Bo win; the final message."""
    await world.cy.click(world.channel.last_message, label="Got it!")
    final = world.channel.last_message
    assert final.attachments[0].filename == "octagion-scores.png"
    return final


def history_lines(result) -> list[str]:
    return [line for line in private_texts(result)[-1].splitlines() if line[:1].isdigit()]


async def test_partners_are_together_in_the_start_line_the_game_message_and_the_result(world):
    lobby = await start_team_game(world)
    assert world.message(lobby.id).content == f"## Octagion\n▶ Started by {world.ada.mention}: Ada & Bo vs Cy."
    round_message = world.channel.last_message
    assert round_message.content.splitlines()[1] == "**Ada** & **Bo** vs **Cy**"

    final = await finish_team_game(world)
    lines = final.content.splitlines()
    assert lines[1] == "**Ada** & **Bo** vs **Cy**"
    assert f"🏆 {world.ada.mention} & {world.bo.mention} won (all rounds played)." in lines


async def test_the_replay_heading_and_the_record_keep_partners_together(world):
    await start_team_game(world)
    await finish_team_game(world)
    await world.cy.slash(world.channel, "replay")
    heading = world.channel.last_message.content
    assert "**Ada** & **Bo** vs **Cy**, **Ada** & **Bo** won (all rounds played)" in heading

    result = await world.cy.slash(world.channel, "record")
    answer = [m for m in [result.response, *result.followups] if m is not None and m.attachments][-1]
    text = attachment_bytes(world, answer).decode()
    assert '[Sides "Ada & Bo vs Cy"]' in text
    record = read_record(world.platform.games["octagion"].engine, text)
    assert record.extra["Sides"] == "Ada & Bo vs Cy", "the record reads back with its sides"
    assert record.names == ("Ada", "Bo", "Cy")


async def test_history_names_partners_as_partners_and_opponents_as_opponents(world):
    await start_team_game(world)
    await finish_team_game(world)
    [ada_line] = history_lines(await world.ada.slash(world.channel, "history"))
    assert ada_line.startswith("1. **Octagion** with Bo vs Cy: won ·")
    [bo_line] = history_lines(await world.bo.slash(world.channel, "history"))
    assert bo_line.startswith("1. **Octagion** with Ada vs Cy: won ·")
    [cy_line] = history_lines(await world.cy.slash(world.channel, "history"))
    assert cy_line.startswith("1. **Octagion** vs Ada & Bo: lost ·")


async def test_a_game_won_by_a_computer_team_names_the_team(world):
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start", rounds=1)
    await choose(world, world.ada, "octagion_computers", ["add:medium"])
    await world.ada.click(world.channel.last_message, label="Start")
    assert "**Ada** vs **Computer (medium)**" in world.channel.last_message.content
    await world.ada.click(world.channel.last_message, label="Got it!")  # an empty variant: -2
    assert await live(world) is None
    final = world.channel.last_message.content
    assert "🏆 **Computer (medium)** won (all rounds played)." in final
    assert world.platform.bot.user.mention not in final
    [line] = history_lines(await world.ada.slash(world.channel, "history"))
    assert line.startswith("1. **Octagion** vs Computer (medium): lost ·")
