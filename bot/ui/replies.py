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
from collections.abc import Awaitable, Coroutine
from typing import Any

import discord

from bot.core import loop_lag, shutdown, workers
from bot.core.attachments import as_file
from bot.core.errors import ErrorLog, UserError
from bot.core.outage import database_unavailable
from bot.core.store import StoreBusy
from bot.core.text import MESSAGE_LIMIT, NAME_LIMIT, QUOTE_LIMIT, escape, fit, quote, sentence
from render.theme import Picture

# The errors and the text helpers live in bot/core (the core's sessions, outbox and timers use
# them and import nothing of the UI); the commands and controls find them here too.
__all__ = [
    "BUSY_TEXT",
    "MESSAGE_LIMIT",
    "NAME_LIMIT",
    "QUOTE_LIMIT",
    "RESTARTING_TEXT",
    "SORRY_TEXT",
    "UNAVAILABLE_TEXT",
    "ErrorLog",
    "UserError",
    "acknowledge",
    "answer_error",
    "answer_errors",
    "error_text",
    "escape",
    "fit",
    "quote",
    "reply_private",
    "sentence",
    "turned_away",
    "turned_away_text",
]

log = logging.getLogger(__name__)

BUSY_TEXT = "I am very busy right now; nothing was changed. Please try again in a moment."
SORRY_TEXT = "Sorry, something went wrong on my side; nothing was lost. Please try again."
UNAVAILABLE_TEXT = "The bot's database is unavailable right now; nothing was changed."
RESTARTING_TEXT = "I am restarting; try again in a moment."


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
    except discord.HTTPException:
        log.warning("could not answer interaction %s privately", interaction.id)


async def turned_away(interaction: discord.Interaction) -> bool:
    """While the worker queues are full (bot.core.workers), a player is answered "busy" at once,
    before anything is read or changed, instead of waiting behind everyone else; once the bot is
    stopping, "restarting"."""
    text = turned_away_text(interaction.client, f"interaction {interaction.id}")
    if text is None:
        return False
    await reply_private(interaction, text)
    return True


def turned_away_text(client: Any, what: str) -> str | None:
    """Why someone starting something now (``what``, for the log) is turned away: the bot is
    stopping, or busy; None when it is not (a click in Discord and one on the Activity's board alike)."""
    if shutdown.is_stopping(client):
        return RESTARTING_TEXT
    if not (workers.busy() or loop_lag.busy()):  # the queues or the event loop itself behind
        return None
    log.warning("busy: turned away %s", what)
    return BUSY_TEXT


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
    await reply_private(interaction, error_text(error, errors, context or f"interaction {interaction.id}"))


def error_text(error: BaseException, errors: ErrorLog, context: str) -> str:
    """What a member is told of ``error`` (noted, and logged unless it is theirs to fix)."""
    if isinstance(error, UserError):
        errors.note("refused")
        return str(error)
    if isinstance(error, StoreBusy):
        errors.note("busy")
        log.warning("database busy while handling %s", context)
        return BUSY_TEXT
    if database_unavailable(error):
        errors.note("database")
        log.warning("database unavailable while handling %s: %s", context, error)
        return UNAVAILABLE_TEXT
    errors.append(error)
    log.error("error handling %s", context, exc_info=error)
    return SORRY_TEXT
