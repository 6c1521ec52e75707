"""The games the bot hosts: one adapter module per game, in the order /games lists them."""

from __future__ import annotations

from bot.adapter import GameAdapter
from bot.games.octa import OctaAdapter
from bot.games.octagion import OctagionAdapter
from bot.games.octagone import OctagoneAdapter
from bot.games.octego import OctegoAdapter
from bot.games.octiles import OctilesAdapter

GAMES: list[type[GameAdapter]] = [OctagionAdapter, OctegoAdapter, OctaAdapter, OctagoneAdapter, OctilesAdapter]
