"""The games, registered once: every list of games (the bot's, the pictures', the replays', the
tests' and the benchmarks') derives from :func:`games`.

A game is a package ``engines/<game>/`` exposing ``ENGINE`` (a :class:`engines.base.Game` whose
``name`` is the game's) in ``__all__``. Registering it is one line in :data:`_PACKAGES`; the
layers above add their own parts (``render/registry.py``, ``bot/games/__init__.py``) and their
checks fail, naming the part, when one is missing. Packages are imported on first use, so asking
for the list of games loads no engine.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from engines.base import Game

# The registered games, in the order /games lists them (a new game goes last, so the
# playground's channels before it keep their ids): name -> its package, imported on first use.
_PACKAGES: dict[str, str | ModuleType] = {
    "octagion": "engines.octagion",
    "octego": "engines.octego",
    "octa": "engines.octa",
    "octagone": "engines.octagone",
    "octiles": "engines.octiles",
}


# Packages under engines/ that are not games: pure kits the bot's features build on, used through
# their ``__all__`` like a game's package.
KITS = ("tournament", "puzzles")


class MissingPart(LookupError):
    """A registered game lacks a part a layer needs; the message names the game and the part."""


def games() -> tuple[str, ...]:
    """Every registered game's name, in the order /games lists them."""
    return tuple(_PACKAGES)


def package(game: str) -> ModuleType:
    """The game's engine package (``ENGINE``, ``choose_action`` and the rest of its ``__all__``)."""
    try:
        found = _PACKAGES[game]
    except KeyError:
        raise MissingPart(f"{game!r} is not a registered game (engines/registry.py)") from None
    return import_module(found) if isinstance(found, str) else found


def engine(game: str) -> Game[Any]:
    found: Game[Any] = package(game).ENGINE
    return found


def register(game: str, found: str | ModuleType) -> None:
    """Add a game: its package's import path, or the package itself (a game built at runtime)."""
    if game in _PACKAGES:
        raise ValueError(f"{game!r} is already registered")
    _PACKAGES[game] = found


def unregister(game: str) -> None:
    del _PACKAGES[game]


def check(game: str) -> None:
    """Raise :class:`MissingPart` naming what the game's package lacks."""
    found = package(game)
    exported = getattr(found, "__all__", ())
    if "ENGINE" not in exported or not hasattr(found, "ENGINE"):
        raise MissingPart(f"{game}: its engine package exports no ENGINE in __all__")
    if not isinstance(found.ENGINE, Game):
        raise MissingPart(f"{game}: its ENGINE is not an engines.base.Game")
    if found.ENGINE.name != game:
        raise MissingPart(f"{game}: its ENGINE is named {found.ENGINE.name!r}")
