"""/games and /rules name the running release at their foot (bot.__version__)."""

from __future__ import annotations

import pytest

import bot
from tests.bot.tinygame import TinyAdapter


@pytest.mark.parametrize("games", [[TinyAdapter]])
async def test_games_and_rules_show_the_version(world):
    result = await world.ada.slash(world.channel, "games")
    assert result.response.content.splitlines()[-1] == f"-# Octagon Games Bot {bot.__version__}"
    result = await world.ada.slash(world.channel, "rules", game="tiny")
    assert result.response.embeds[0].footer.text == f"Octagon Games Bot {bot.__version__}"
