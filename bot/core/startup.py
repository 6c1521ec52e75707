"""Logging in at start, retried while Discord cannot be reached.

A machine that boots before its network is up, a DNS or ISP blip, or Discord answering 5xx
would otherwise end the process at once; the bot tries again itself, waiting 1, 2, 4, ... up
to ``LONGEST_WAIT`` seconds between attempts (one warning a failed attempt), for as long as it
takes. What a retry cannot fix is not retried: a token Discord refuses raises
``discord.LoginFailure`` at the first answer (``python -m bot`` exits with its own status).
The first gateway connection is retried the same way (discord.py's connect loop fails outright
when no connection was ever made: ``self.ws`` is still None); once one was made, its own loop
reconnects with its backoff.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)

FIRST_WAIT = 1.0
LONGEST_WAIT = 60.0
POLL = 0.25  # how often a wait looks whether the bot was stopped meanwhile (SIGTERM)


async def start(bot: Any, token: str) -> None:
    """``bot.start(token)``, with the login and the first connection tried again while Discord
    is unreachable; returns early if the bot is closed meanwhile (a stop was requested)."""
    if await login(bot, token):
        await connect(bot)


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` means Discord could not be reached now (worth another attempt)."""
    if isinstance(error, discord.LoginFailure):
        return False
    if isinstance(error, discord.HTTPException):
        return error.status >= 500
    return isinstance(error, OSError | aiohttp.ClientError | asyncio.TimeoutError)


def causes(error: BaseException) -> Iterator[BaseException]:
    """``error`` and the exceptions it was raised from or while handling."""
    seen: BaseException | None = error
    while seen is not None:
        yield seen
        seen = seen.__cause__ or seen.__context__


def waits() -> Iterator[float]:
    """1, 2, 4, ... seconds, then ``LONGEST_WAIT`` for ever."""
    wait = FIRST_WAIT
    while True:
        yield wait
        wait = min(wait * 2, LONGEST_WAIT)


async def login(bot: Any, token: str) -> bool:
    """Log ``bot`` in, trying again while Discord is unreachable; False if the bot was closed
    (a stop requested) before it could."""
    for attempt, wait in enumerate(waits(), start=1):
        try:
            await bot.login(token)
            if attempt > 1:
                log.info("logged in to Discord at attempt %d", attempt)
            return True
        except Exception as error:
            if not unreachable(error):
                raise
            log.warning(
                "could not reach Discord at start (attempt %d: %s: %s); trying again in %.0f s",
                attempt,
                type(error).__name__,
                error,
                wait,
            )
        await forget_session(bot)
        if not await pause(bot, wait):
            return False
    return False  # unreachable: waits() never ends


async def forget_session(bot: Any) -> None:
    """Close the HTTP session a failed login opened, so the next attempt opens its own."""
    http = bot.http
    session = getattr(http, "_HTTPClient__session", None)
    if session and not session.closed:  # discord.py's MISSING before the first login is falsy
        await session.close()
    http.connector = discord.utils.MISSING  # closed with the session: the next login makes one


async def pause(bot: Any, seconds: float) -> bool:
    """Wait ``seconds``; False as soon as the bot is closed (a stop was requested)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        if bot.is_closed():
            return False
        await asyncio.sleep(min(POLL, end - loop.time()))
    return not bot.is_closed()


async def connect(bot: Any) -> None:
    """``bot.connect()``, tried again while the first connection cannot be made."""
    for attempt, wait in enumerate(waits(), start=1):
        try:
            await bot.connect()
            return
        except Exception as error:
            if getattr(bot, "ws", None) is not None or not any(unreachable(cause) for cause in causes(error)):
                raise
            log.warning(
                "could not reach Discord's gateway at start (attempt %d); trying again in %.0f s", attempt, wait
            )
        if not await pause(bot, wait):
            return
