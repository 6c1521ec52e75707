"""A local stand-in for Discord's HTTP API, just enough for a bot's login: ``/users/@me`` and
``/oauth2/applications/@me`` answer for the token ``GOOD_TOKEN`` and refuse any other with 401,
as Discord does; every request's path is recorded (``/gateway/bot`` is where connecting begins).
The bot process reaches it through ``tests.bot.start_driver``, which points discord.py at it."""

from __future__ import annotations

import asyncio
import json

from aiohttp import web

GOOD_TOKEN = "good.token.for-the-fake"
USER = {"id": "100000000000000001", "username": "octagon", "discriminator": "0", "avatar": None, "bot": True}
APPLICATION = {
    "id": "100000000000000002",
    "name": "octagon",
    "description": "",
    "icon": None,
    "bot_public": True,
    "bot_require_code_grant": False,
    "verify_key": "0" * 64,
    "flags": 0,
    "owner": {**USER, "id": "100000000000000003", "username": "owner", "bot": False},
}


class FakeDiscord:
    def __init__(self) -> None:
        self.paths: list[str] = []
        self.runner: web.AppRunner | None = None
        self.gateway_reached = asyncio.Event()

    async def start(self, port: int) -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.answer)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", port).start()

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    async def answer(self, request: web.Request) -> web.Response:
        self.paths.append(request.path)
        if request.path == "/gateway":
            self.gateway_reached.set()
        if request.headers.get("Authorization") != f"Bot {GOOD_TOKEN}":
            return reply({"message": "401: Unauthorized", "code": 0}, status=401)
        if request.path.endswith("/users/@me"):
            return reply(USER)
        if request.path.endswith("/oauth2/applications/@me"):
            return reply(APPLICATION)
        if request.path.endswith("/commands") and request.method == "PUT":
            return reply([])
        if request.path.endswith("/gateway/bot"):  # where connecting begins; no gateway answers at /gateway
            url = f"ws://{request.host}/gateway"
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            return reply({"url": url, "shards": 1, "session_start_limit": limit})
        return reply({"message": "404: Not Found", "code": 0}, status=404)


def reply(body: object, status: int = 200) -> web.Response:
    """JSON as Discord sends it: discord.py reads a body as JSON only under exactly this type."""
    return web.Response(body=json.dumps(body).encode(), status=status, headers={"Content-Type": "application/json"})
