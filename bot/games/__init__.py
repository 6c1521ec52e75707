"""The games the bot hosts: one adapter per game registered in engines/registry.py, in its order
(the order /games lists them).

Registering a game's adapter is one line in :data:`_ADAPTERS` (its class in ``bot.games.<game>``).
Importing one game's module does not import the others; :func:`all_games` loads them all, and
:func:`check` names the first part a registered game lacks in any layer.
"""

from __future__ import annotations

from importlib import import_module

from bot.ui.adapter import RULES_FOLDER, GameAdapter
from engines.registry import MissingPart, games
from engines.registry import engine as registered_engine

# game -> its adapter: the class's name in bot.games.<game>, or the class (a game built at runtime)
_ADAPTERS: dict[str, str | type[GameAdapter]] = {
    "octagion": "OctagionAdapter",
    "octego": "OctegoAdapter",
    "octa": "OctaAdapter",
    "octagone": "OctagoneAdapter",
    "octiles": "OctilesAdapter",
}


def adapter(game: str) -> type[GameAdapter]:
    try:
        found = _ADAPTERS[game]
    except KeyError:
        raise MissingPart(f"{game}: no adapter registered (bot/games/__init__.py)") from None
    return getattr(import_module(f"bot.games.{game}"), found) if isinstance(found, str) else found


def all_games() -> list[type[GameAdapter]]:
    """Every registered game's adapter, in the order /games lists them."""
    return [adapter(game) for game in games()]


def register(game: str, found: type[GameAdapter]) -> None:
    if game in _ADAPTERS:
        raise ValueError(f"{game!r} already has an adapter")
    _ADAPTERS[game] = found


def unregister(game: str) -> None:
    del _ADAPTERS[game]


def check(game: str) -> None:
    """Raise :class:`MissingPart` naming the first part the game lacks: engine, pictures, adapter,
    rules text."""
    from render.registry import check as check_pictures  # here: importing one game loads no other

    check_pictures(game)
    found = adapter(game)
    if found.name != game:
        raise MissingPart(f"{game}: its adapter {found.__name__} is named {found.name!r}")
    if found.engine is not registered_engine(game):
        raise MissingPart(f"{game}: its adapter {found.__name__} plays another engine")
    # Its /rules text: written on the class, or by default read from its file.
    if not isinstance(found.rules, str) and not (RULES_FOLDER / f"{game}.md").is_file():
        raise MissingPart(f"{game}: no rules text for /rules (bot/games/rules/{game}.md)")
