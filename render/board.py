"""The Activity's board as a viewer sees it: the game's public picture (with the viewer's own hand
where the game draws it there), and for a seated player of a game whose private view is a picture
of its own (Octa's hand, Octagion's deck) that picture below it, the two regions' tables merged.
Drawn in a worker process. Apart from :mod:`render.regions`, which the games' renderers use, since
this reads the registry of those renderers.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from render import theme
from render.regions import stacked
from render.registry import pictures


def board_picture(
    game: str, state: Any, names: list[str], seat: int | None, ending: str | None = None
) -> theme.Picture:
    """The Activity's picture for a viewer: the public picture as ``seat`` sees it (a spectator:
    ``None``) and, for a seated player, the game's private picture below it when it has one."""
    entry = pictures(game)
    public = entry.public_picture(state, names, seat, ending=ending)
    if seat is None or entry.seated_below is None or ending is not None or state.over:
        return public
    below = getattr(import_module(f"render.{game}"), entry.seated_below)
    return stacked([public, below(state, names, seat)], public.filename, game)
