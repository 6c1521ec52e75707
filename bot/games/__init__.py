"""The games the bot hosts: one adapter module per game, in the order /games lists them.

Importing one game's module does not import the others; :func:`all_games` loads them all.
"""

from __future__ import annotations

from importlib import import_module

from bot.adapter import GameAdapter

GAME_ADAPTERS = (
    ("octagion", "OctagionAdapter"),
    ("octego", "OctegoAdapter"),
    ("octa", "OctaAdapter"),
    ("octagone", "OctagoneAdapter"),
    ("octiles", "OctilesAdapter"),
)


def all_games() -> list[type[GameAdapter]]:
    return [getattr(import_module(f"bot.games.{module}"), name) for module, name in GAME_ADAPTERS]
