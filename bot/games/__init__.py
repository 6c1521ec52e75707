"""The games the bot hosts: one adapter module per game, listed in the order /games shows them."""

from __future__ import annotations

from bot.adapter import GameAdapter

GAMES: list[type[GameAdapter]] = []

# Each game's module registers its adapter here (one line per game).
# from bot.games.octagion import OctagionAdapter; GAMES.append(OctagionAdapter)
# from bot.games.octego import OctegoAdapter; GAMES.append(OctegoAdapter)
# from bot.games.octa import OctaAdapter; GAMES.append(OctaAdapter)
# from bot.games.octagone import OctagoneAdapter; GAMES.append(OctagoneAdapter)
# from bot.games.octiles import OctilesAdapter; GAMES.append(OctilesAdapter)
