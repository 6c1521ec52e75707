"""``python -m bot``: run the bot with the settings from the environment or ``.env``."""

from __future__ import annotations

import logging
import sys

from bot.settings import Settings

NO_TOKEN = ("No DISCORD_TOKEN is set: put DISCORD_TOKEN=<your bot token> in the environment or in a .env "
            "file (see .env.example), then run `python -m bot` again.")


def main(argv: list[str] | None = None) -> int:
    settings = Settings.from_environment()
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from bot.app import create_bot

    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = create_bot(settings)
    # log_handler=None: logging is configured above; discord.py never logs the token.
    bot.run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
