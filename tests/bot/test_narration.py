"""Every game's message line is told by its narrator with the players' own names, escaped once."""

from __future__ import annotations

import pytest

from bot.games import all_games

CHALLENGED = [game.name for game in all_games() if game.challengeable]  # every game started by /<game> challenge


@pytest.mark.parametrize("game", CHALLENGED)
async def test_a_player_named_like_a_seat_or_markup_is_told_by_name(world, game):
    seat_two = world.guild.add_member(world.env.create_user("seat2", global_name="Seat 2"))
    starred = world.guild.add_member(world.env.create_user("starred", global_name="*Bo*"))  # markup, shown as typed
    await seat_two.slash(world.channel, f"{game} challenge", opponent=starred)
    await starred.click(world.channel.last_message, label="Accept")
    session = await world.session()
    assert session.shown_names == ["Seat 2", r"\*Bo\*"]

    await seat_two.slash(world.channel, f"{game} resign")
    content = world.channel.last_message.content
    assert "**Seat 2** resigned." in content
    assert r"**\*Bo\*** resigned" not in content
    assert f"🏆 {starred.mention} won (resignation)." in content
