"""``python -m tests.bot.start_driver PORT [ARGS...]``: ``python -m bot ARGS`` exactly as an
operator starts it (its settings from the environment, its logging, its exit status), with
discord.py's HTTP API and gateway pointed at ``127.0.0.1:PORT`` (``tests.bot.fake_discord``, or
nothing listening there) instead of discord.com: the tests of a start never reach the network."""

from __future__ import annotations

import sys

import discord.gateway
import discord.http
import yarl

from bot.__main__ import main

if __name__ == "__main__":
    local = f"127.0.0.1:{int(sys.argv[1])}"
    discord.http.Route.BASE = f"http://{local}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://{local}/gateway")
    sys.exit(main(sys.argv[2:]))
