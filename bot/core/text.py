"""Text the bot writes into messages: the limits it keeps to, a reason made a sentence, and a
player's own words (names, input) repeated safely."""

from __future__ import annotations

import discord

MESSAGE_LIMIT = 2000  # Discord's limit for a message's text
QUOTE_LIMIT = 60  # how much of a player's own input an answer repeats
NAME_LIMIT = 40  # how much of a player's name a message repeats


def sentence(text: str) -> str:
    """An engine's reason as a sentence: capital first letter, final full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def escape(text: str, limit: int | None = None) -> str:
    """A player-chosen text made safe for message text: trimmed, no markdown, no mentions."""
    text = " ".join(str(text).split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def quote(text: str) -> str:
    """What a player typed, repeated in an answer: short and escaped."""
    return escape(text, QUOTE_LIMIT)


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
