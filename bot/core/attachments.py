"""Pictures as Discord attachments (they are drawn in worker processes: ``bot.core.workers``)."""

from __future__ import annotations

import io

import discord

from render.theme import Picture


def as_file(picture: Picture) -> discord.File:
    """A Discord attachment with the picture's text alternative as its description."""
    return discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.description[:1000])
