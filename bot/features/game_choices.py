"""The games a bot hosts as the choices of the shared commands' options (/rules, /history,
/leaderboard), and the *extras* games offer beside their sessions.

An extra (Octagion Daily) is an object in an adapter's ``extras`` with a ``name`` and ``title``,
``stats_lines(guild_id, user_id)`` for /stats, ``leaderboard_text(guild_id, limit)`` for
/leaderboard and ``settings_commands()`` for /settings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from discord import app_commands


def extras_of(games: Mapping[str, Any]) -> dict[str, Any]:
    """Every extra the games offer, by name."""
    return {extra.name: extra for adapter in games.values() for extra in getattr(adapter, "extras", ())}


def game_choices(games: Mapping[str, Any]) -> list[app_commands.Choice[str]]:
    """Each game, in the order /games lists them."""
    return [app_commands.Choice(name=adapter.title, value=adapter.name) for adapter in games.values()]


def board_choices(games: Mapping[str, Any]) -> list[app_commands.Choice[str]]:
    """Each game, then its extras (Octagion, Octagion Daily, ...): what /leaderboard ranks."""
    choices = []
    for adapter in games.values():
        choices.append(app_commands.Choice(name=adapter.title, value=adapter.name))
        choices += [app_commands.Choice(name=e.title, value=e.name) for e in getattr(adapter, "extras", ())]
    return choices


def offer_choices(command: app_commands.Command, **choices: list[app_commands.Choice[str]]) -> None:
    """Give a cog's copy of ``command`` the choices of the games this bot hosts.

    ``@app_commands.choices`` fixes a parameter's choices when the class is defined, but the
    games are known only when the bot is built (tests build bots with a game of their own), and
    discord.py has no public way to set them later. Each cog instance holds its own copy of its
    commands (``Cog.__new__``), whose parameters are still the class's: the copy gets new
    parameters with these choices, so the class's command, and every other bot's, is left as
    declared (with none).
    """
    for name, offered in choices.items():
        command._params[name] = dataclasses.replace(command._params[name], choices=offered)
