"""Answers to people: the one error funnel, private replies, and safe repetition of user text.

Every slash command and every control runs through :func:`answer_errors`: a ``UserError``
becomes a private sentence, a busy database a private "try again", a database that cannot be
reached a private "nothing was changed", anything else is logged, kept for the tests and
answered with a private apology. No stack trace ever reaches a player. Before any of it,
:func:`turned_away` answers "busy" while the worker processes are swamped, and "restarting"
once the bot is stopping (:mod:`bot.core.shutdown`).
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from bot.core import loop_lag, metrics, shutdown, workers
from bot.core.outage import database_unavailable
from bot.core.store import StoreBusy
from bot.ui.attachments import as_file
from render.theme import Picture

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # Discord's limit for a message's text
QUOTE_LIMIT = 60  # how much of a player's own input an answer repeats
NAME_LIMIT = 40  # how much of a player's name a message repeats
BUSY_TEXT = "I am very busy right now; nothing was changed. Please try again in a moment."
SORRY_TEXT = "Sorry, something went wrong on my side; nothing was lost. Please try again."
UNAVAILABLE_TEXT = "The bot's database is unavailable right now; nothing was changed."
RESTARTING_TEXT = "I am restarting; try again in a moment."


class UserError(Exception):
    """Something a user did that cannot be done; the message is answered privately."""


class ErrorLog(list):
    """Unexpected errors, newest last, at most ``limit`` of them: for tests and diagnostics.

    ``counts``: every failure by kind ("unexpected", "refused", "busy", "database",
    "restarting"), for the metrics; ``watch`` tells a part of the bot when a kind happens (the
    outbox and the timers look again while the database is away)."""

    def __init__(self, limit: int = 100):
        super().__init__()
        self.limit = limit
        self.counts: Counter[str] = Counter()
        self._watchers: defaultdict[str, list[Callable[[], None]]] = defaultdict(list)

    def append(self, error: BaseException) -> None:
        super().append(error)
        del self[: -self.limit]
        self.note("unexpected")

    def note(self, kind: str) -> None:
        self.counts[kind] += 1
        for watcher in self._watchers[kind]:
            watcher()

    def watch(self, kind: str, watcher: Callable[[], None]) -> None:
        self._watchers[kind].append(watcher)


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


async def acknowledge(interaction: discord.Interaction, *, private: bool = True) -> None:
    """Acknowledge at once, before any database read or render (Discord allows 3 seconds).

    ``private``: the answer will be a private message ("thinking" that only its user sees).
    Otherwise a command's answer is public, and a control's click becomes a deferred update
    of the message it is on.
    """
    if interaction.response.is_done():
        return
    try:
        if private:
            await interaction.response.defer(ephemeral=True, thinking=True)
        elif interaction.type == discord.InteractionType.application_command:
            await interaction.response.defer(thinking=True)
        else:
            await interaction.response.defer()
    except discord.HTTPException:
        log.warning("could not acknowledge interaction %s", interaction.id)
        return
    metrics.acknowledged(interaction)


async def reply_private(
    interaction: discord.Interaction, text: str, picture: Picture | None = None, view: discord.ui.View | None = None
) -> None:
    kwargs: dict[str, Any] = {"ephemeral": True}
    if picture is not None:
        kwargs["file"] = as_file(picture)
    if view is not None:
        kwargs["view"] = view
    try:
        if interaction.response.is_done():
            await interaction.followup.send(fit(text), **kwargs)
        else:
            await interaction.response.send_message(fit(text), **kwargs)
            metrics.acknowledged(interaction)  # the answer itself acknowledged it
    except discord.HTTPException:
        log.warning("could not answer interaction %s privately", interaction.id)


async def turned_away(interaction: discord.Interaction) -> bool:
    """While the worker queues are full (bot.core.workers), a player is answered "busy" at once,
    before anything is read or changed, instead of waiting behind everyone else; once the bot is
    stopping, "restarting"."""
    if shutdown.is_stopping(interaction.client):
        await reply_private(interaction, RESTARTING_TEXT)
        return True
    if not (workers.busy() or loop_lag.busy()):  # the queues or the event loop itself behind
        return False
    log.warning("busy: turned away interaction %s", interaction.id)
    await reply_private(interaction, BUSY_TEXT)
    return True


async def answer_errors(
    interaction: discord.Interaction, work: Awaitable[Any], errors: ErrorLog, context: str = ""
) -> None:
    """Run one handler's work; whatever goes wrong is answered privately and never twice.
    Once the bot is stopping, nothing new starts: the work is dropped and the player told."""
    if shutdown.is_stopping(interaction.client):
        if isinstance(work, Coroutine):
            work.close()  # never awaited: nothing of it runs
        errors.note("restarting")
        await reply_private(interaction, RESTARTING_TEXT)
        return
    try:
        await work
    except Exception as error:  # the one place that turns errors into answers
        await answer_error(interaction, error, errors, context)


async def answer_error(interaction: discord.Interaction, error: BaseException, errors: ErrorLog, context: str) -> None:
    if isinstance(error, UserError):
        errors.note("refused")
        await reply_private(interaction, str(error))
    elif isinstance(error, StoreBusy):
        errors.note("busy")
        log.warning("database busy while handling %s", context or interaction.id)
        await reply_private(interaction, BUSY_TEXT)
    elif database_unavailable(error):
        errors.note("database")
        log.warning("database unavailable while handling %s: %s", context or interaction.id, error)
        await reply_private(interaction, UNAVAILABLE_TEXT)
    else:
        errors.append(error)
        log.error("error handling %s", context or f"interaction {interaction.id}", exc_info=error)
        await reply_private(interaction, SORRY_TEXT)
