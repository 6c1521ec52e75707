"""``python -m tests.bot.start_driver PORT [ARGS...]``: ``python -m bot ARGS`` exactly as an
operator starts it (its settings from the environment, its logging, its exit status), with
discord.py's HTTP API pointed at ``http://127.0.0.1:PORT`` (``tests.bot.fake_discord``, or
nothing listening there) instead of discord.com: the tests of a start never reach the network."""

from __future__ import annotations

import sys

import discord.http

from bot.__main__ import main

if __name__ == "__main__":
    discord.http.Route.BASE = f"http://127.0.0.1:{int(sys.argv[1])}/api/v10"
    sys.exit(main(sys.argv[2:]))
