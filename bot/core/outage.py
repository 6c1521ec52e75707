"""What a database that cannot be reached looks like, from either database.

During an outage (PostgreSQL stopped or restarting, a SQLite file whose disk fails) every
statement fails. The bot then answers players at once and privately that nothing was changed,
and its background senders (the outbox, the timers) keep what they could not do in memory and
try again every few seconds, without needing the database to remember that they must.
"""

from __future__ import annotations

import logging
import sqlite3
import traceback
from collections.abc import Iterator

# How often the outbox and the timers look again while the database is away (or entries wait).
SWEEP_SECONDS = 3.0

# What a SQLite statement says when its SQL is wrong rather than its database unreachable.
_SQLITE_MISTAKES = ("no such", "syntax error", "has no column", "locked", "busy")


def note_unreachable(log: logging.Logger, errors: list[BaseException], doing: str, error: BaseException) -> None:
    """A background sender could not do ``doing``: an outage is a warning (it tries again in a
    few seconds), anything else an unexpected error kept in ``errors``."""
    if database_unavailable(error):
        log.warning("%s: the database is unavailable (%s); trying again in %ss", doing, error, SWEEP_SECONDS)
    else:
        errors.append(error)
        log.error("%s failed; trying again in %ss", doing, SWEEP_SECONDS, exc_info=error)


def database_unavailable(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) means the database cannot be reached right now,
    as opposed to a statement that is wrong or a rule that a row broke."""
    return any(_unreachable(cause) for cause in _causes(error))


def _causes(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _unreachable(error: BaseException) -> bool:
    if isinstance(error, sqlite3.OperationalError):
        return not any(mistake in str(error) for mistake in _SQLITE_MISTAKES)
    module = type(error).__module__
    if module.startswith("asyncpg"):
        from asyncpg import exceptions  # loaded already: the error came from it

        return isinstance(error, exceptions.PostgresConnectionError | exceptions.OperatorInterventionError) or (
            isinstance(error, exceptions.InterfaceError) and "closed" in str(error)
        )
    # A refused or vanished connection (the server's socket is gone): only when it came from
    # the database's driver, never from Discord's HTTP client.
    return isinstance(error, OSError | TimeoutError) and _raised_in_driver(error)


def _raised_in_driver(error: BaseException) -> bool:
    return any("/asyncpg/" in frame.filename for frame in traceback.extract_tb(error.__traceback__))
