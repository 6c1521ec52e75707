"""``python -m bot``: connect to Discord with DISCORD_TOKEN, or, with no token (or with
``--playground``), start the local playground in the browser."""

from __future__ import annotations

import argparse
import logging
import sys

from bot.settings import Settings


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--playground",
        action="store_true",
        help="play locally in the browser against a simulated Discord, even if a token is set",
    )
    parser.add_argument("--memory", action="store_true", help="playground only: keep its database in memory")
    parser.add_argument(
        "--port", type=int, default=None, help="playground only: the loopback port of its page (default: a free one)"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    settings = Settings.from_environment()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if arguments.playground or not settings.token:
        from bot import playground

        if not settings.token:
            print(
                "No DISCORD_TOKEN is set, so this is the local playground (set DISCORD_TOKEN in the environment "
                "or a .env file to connect to Discord; see .env.example).",
                flush=True,
            )
        return playground.main(settings, in_memory=arguments.memory, port=arguments.port)

    from bot.app import create_bot

    # log_handler=None: logging is configured above; discord.py never logs the token.
    create_bot(settings).run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
