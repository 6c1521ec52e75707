"""Logging for ``python -m bot``: one handler on stderr, as text or as JSON lines
(``LOG_FORMAT=json``: one object a line with ``time``, ``level``, ``logger``, ``message`` and,
when there is one, ``exception``), and none of discord.py's start-up warnings that do not
concern this bot:

- "PyNaCl is not installed" and "davey is not installed": voice support, which the bot never
  uses (discord.py logs them when the first client is made);
- "logging in using static token" is logged once per process. discord.py logs it at each
  client's login; the playground logs in two clients to its simulated Discord (a stand-in that
  builds the server before the bot connects, then the bot), a real bot one;
- in the playground only, "Guilds intent seems to be disabled": SimCord checks its
  compatibility with discord.py on a probe client made with no intents. The bot itself asks
  for the default intents, Guilds included, so with a real token the warning would be real.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from datetime import UTC, datetime
from types import TracebackType
from typing import TextIO

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FORMATS = ("text", "json")

# (logger, message) that never concern this bot.
VOICE_WARNINGS = (
    ("discord.client", "PyNaCl is not installed, voice will NOT be supported"),
    ("discord.client", "davey is not installed, voice will NOT be supported"),
)
LOGIN_LINE = ("discord.client", "logging in using static token")
PROBE_INTENTS_WARNING = ("discord.state", "Guilds intent seems to be disabled. This may cause state related issues.")


class JsonLines(logging.Formatter):
    """One JSON object a line: time (ISO 8601, UTC, milliseconds), level, logger, message and,
    when the record carries one, exception (its traceback) and stack."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False)


class Quiet(logging.Filter):
    """Drops the given messages of one logger, and lets the ``once`` messages through once."""

    def __init__(self, dropped: set[str], once: set[str]):
        super().__init__()
        self.dropped, self.once = dropped, once
        self.seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.msg if isinstance(record.msg, str) else ""
        if message in self.dropped:
            return False
        if message in self.once:
            if message in self.seen:
                return False
            self.seen.add(message)
        return True


def configure(
    level: str = "INFO", log_format: str = "text", *, playground: bool = False, stream: TextIO | None = None
) -> None:
    """Log to ``stream`` (stderr) at ``level``, as ``text`` or ``json``; replaces any earlier set-up."""
    if log_format not in FORMATS:
        raise ValueError(f"LOG_FORMAT must be one of {', '.join(FORMATS)}, not {log_format!r}")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    # Whatever else would print to stderr goes through the same handler: warnings, and an
    # exception no code caught (in a thread too), so under JSON every line is one object.
    logging.captureWarnings(True)
    sys.excepthook = log_uncaught
    threading.excepthook = log_uncaught_in_thread
    dropped = [*VOICE_WARNINGS, *([PROBE_INTENTS_WARNING] if playground else [])]
    # Every logger a set-up may filter, so that an earlier set-up's filters (the playground's) go.
    for name in {logger for logger, _ in (*VOICE_WARNINGS, PROBE_INTENTS_WARNING, LOGIN_LINE)}:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, Quiet)]:
            logger.removeFilter(old)
        once = {LOGIN_LINE[1]} if name == LOGIN_LINE[0] else set()
        logger.addFilter(Quiet({message for where, message in dropped if where == name}, once))


def log_uncaught(kind: type[BaseException], error: BaseException, traceback: TracebackType | None) -> None:
    logging.getLogger("bot").critical("uncaught %s: %s", kind.__name__, error, exc_info=(kind, error, traceback))


def log_uncaught_in_thread(hook: threading.ExceptHookArgs) -> None:
    if hook.exc_type is SystemExit or hook.exc_value is None:
        return
    logging.getLogger("bot").error(
        "uncaught %s in thread %s: %s",
        hook.exc_type.__name__,
        hook.thread.name if hook.thread else "?",
        hook.exc_value,
        exc_info=(hook.exc_type, hook.exc_value, hook.exc_traceback),
    )
