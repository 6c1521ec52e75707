"""``python -m bot``: connect to Discord with DISCORD_TOKEN, or, with no token (or with
``--playground``), start the local playground in the browser. ``python -m bot invite`` prints
the URL that adds the bot to a server with the permissions it needs."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import TYPE_CHECKING

from bot import __version__
from bot.core import logs
from bot.core.settings import SettingError, Settings

if TYPE_CHECKING:
    from asyncio import AbstractEventLoop
    from collections.abc import Callable


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "command",
        nargs="?",
        choices=("run", "invite", "healthcheck"),
        default="run",
        help="run (default): the bot or the playground; invite: print the bot's invite URL; healthcheck: "
        "exit 0 only if the bot running here answers /healthz ok (METRICS_PORT; the container's HEALTHCHECK)",
    )
    parser.add_argument(
        "--playground",
        action="store_true",
        help="play locally in the browser against a simulated Discord, even if a token is set",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--memory", action="store_true", help="playground only: keep its database in memory")
    parser.add_argument(
        "--port", type=int, default=None, help="playground only: the loopback port of its page (default: a free one)"
    )
    return parser.parse_args(argv)


# Exit statuses (README, "Exit statuses"): the systemd unit restarts on every other one.
EXIT_FAILED = 1  # anything else: a restart may fix it
EXIT_BAD_TOKEN = 77  # Discord refused DISCORD_TOKEN (sysexits' EX_NOPERM): a restart cannot fix it
EXIT_BAD_SETTING = 78  # a setting that is not allowed (sysexits' EX_CONFIG): nor this

HEALTHCHECK_SECONDS = 5

log = logging.getLogger("bot")


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    try:
        settings = Settings.from_environment()  # reads .env into the environment too
    except SettingError as error:
        configure_logs_anyway()
        log.error("%s", error)
        return EXIT_BAD_SETTING
    if arguments.command == "invite":
        return invite(settings)
    if arguments.command == "healthcheck":
        return healthcheck(settings)
    playground = arguments.playground or not settings.token
    logs.configure(settings.log_level, settings.log_format, playground=playground)
    try:
        return run(settings, arguments, playground)
    except Exception as error:  # logged through the set-up above: one JSON object under LOG_FORMAT=json
        if refused_token(error):
            log.error("Discord refused DISCORD_TOKEN: reset the token on the developer portal (Bot, Reset Token).")
            return EXIT_BAD_TOKEN
        log.exception("The bot stopped: %s", error)
        return EXIT_FAILED


def refused_token(error: Exception) -> bool:
    import discord  # loaded by then: only a start with a token gets here

    return isinstance(error, discord.LoginFailure)


def configure_logs_anyway() -> None:
    """The logging set-up when the settings are refused: LOG_FORMAT if it is allowed, else text."""
    given = os.environ.get("LOG_FORMAT", "").strip().lower()
    logs.configure("INFO", given if given in logs.FORMATS else "text")


def run(settings: Settings, arguments: argparse.Namespace, playground: bool) -> int:
    if playground:
        from bot.dev import playground as local

        if not settings.token:
            print(
                "No DISCORD_TOKEN is set, so this is the local playground (set DISCORD_TOKEN in the environment "
                "or a .env file to connect to Discord; see .env.example).",
                flush=True,
            )
        return local.main(settings, in_memory=arguments.memory, port=arguments.port)

    import asyncio

    from bot.app import create_bot
    from bot.core import shutdown

    # Logging is configured above; discord.py never logs the token. SIGTERM and SIGINT stop the
    # bot gracefully (bot.core.shutdown): changes in progress commit, pending messages go out.
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        runner.run(shutdown.serve(create_bot(settings), settings.token))
    return 0


def event_loop_factory() -> Callable[[], AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (a dependency on Linux and macOS): the same asyncio
    API, with its scheduling, sockets and timers in C, so the loop itself costs less per move. None
    (asyncio's own loop) elsewhere. The playground keeps asyncio's: SimCord needs that loop's timers."""
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], AbstractEventLoop] = uvloop.new_event_loop
    return factory


def healthcheck(settings: Settings) -> int:
    """Ask the bot running on this machine for /healthz: 0 if it answers ok, else 1."""
    import urllib.error
    import urllib.request

    if settings.metrics_port is None:
        print("unhealthy: METRICS_PORT is not set, so there is no /healthz to ask", file=sys.stderr)
        return 1
    host = "127.0.0.1" if settings.metrics_host in ("0.0.0.0", "::", "") else settings.metrics_host
    url = f"http://{host}:{settings.metrics_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=HEALTHCHECK_SECONDS) as answer:
            print(answer.read().decode().strip())
            return 0
    except urllib.error.HTTPError as refused:  # 503 with what is wrong
        print(f"unhealthy: {refused.read().decode().strip() or refused.code}", file=sys.stderr)
    except OSError as error:
        print(f"unhealthy: no answer from {url} ({getattr(error, 'reason', error)})", file=sys.stderr)
    return 1


def invite(settings: Settings) -> int:
    from bot.features.invite import NoClientId, client_id, invite_text

    try:
        application_id = client_id(os.environ, settings.token)
    except NoClientId as error:
        print(f"No invite URL: {error}.", file=sys.stderr)
        return 1
    print(invite_text(application_id))
    return 0


if __name__ == "__main__":
    sys.exit(main())
