"""Who is at the board: Discord's sign-in for the Activity, then the bot's own short-lived token.

The page asks Discord's client for a code (the Embedded App SDK's ``authorize``); the server
exchanges it at Discord's OAuth2 token endpoint with the application's client secret, reads the
member with ``GET /users/@me``, and checks through the bot that the member belongs to the
Activity's server and may see its channel. It then signs a token of its own (HMAC-SHA256) naming
the member, the server and the channel, valid for an hour: the WebSocket and the API take
that token, never Discord's. The key is derived from the client secret, so a restart (or another
process of the same bot) reads the tokens it gave; without a secret (the playground) it is a
random key kept in the database, so a restart reads them too.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
TOKEN_SECONDS = 3600  # how long the bot's own token is good for (the page asks again after)
RETRY_AFTER_LIMIT = 10.0  # a rate limit longer than this is not waited out: the member is told
REQUEST_SECONDS = 10.0
KEY_NAME = "activity_token_key"  # the database's random key, when no client secret is set
KEY_PURPOSE = b"octagon activity tokens"

EXPIRED_CODE = "That sign-in has expired or was already used: close the board and open it again."
REFUSED_SIGN_IN = "Discord did not accept the sign-in: close the board and open it again."
RATE_LIMITED = "Discord is asking us to slow down: try again in a minute."
DISCORD_AWAY = "Discord did not answer the sign-in: try again in a moment."


class AuthError(Exception):
    """A sign-in or a token refused: the message is what the member reads; ``status`` the HTTP answer."""

    def __init__(self, message: str, status: int = 401):
        super().__init__(message)
        self.message, self.status = message, status


@dataclass(frozen=True)
class Identity:
    """A member at the board: who, in which server and channel."""

    user_id: int
    name: str
    guild_id: int
    channel_id: int


class DiscordOAuth:
    """The two calls to Discord a sign-in takes. ``base_url``: Discord's API, or a test's local fake."""

    def __init__(self, client_id: int, client_secret: str, base_url: str = DISCORD_API):
        self.client_id = client_id
        self._secret = client_secret
        self.base_url = base_url.rstrip("/")
        self.sleep: Callable[[float], Any] = asyncio.sleep

    def __repr__(self) -> str:  # the secret never shows in a log or a traceback's locals
        return f"DiscordOAuth(client_id={self.client_id}, base_url={self.base_url!r})"

    async def exchange(self, code: str) -> str:
        """The member's access token for the code the page's ``authorize`` gave."""
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        answer = await self._call("POST", "/oauth2/token", data=form)
        token = answer.get("access_token")
        if not isinstance(token, str) or not token:
            raise AuthError(DISCORD_AWAY, 502)
        return token

    async def user(self, access_token: str) -> tuple[int, str]:
        """The member the access token belongs to: id and the name Discord shows."""
        answer = await self._call("GET", "/users/@me", headers={"Authorization": f"Bearer {access_token}"})
        try:
            user_id = int(answer["id"])
        except (KeyError, TypeError, ValueError):
            raise AuthError(DISCORD_AWAY, 502) from None
        return user_id, str(answer.get("global_name") or answer.get("username") or user_id)

    async def _call(self, method: str, path: str, **sent: Any) -> dict[str, Any]:
        """One call, tried a second time only after a 429's ``retry_after`` (when it is short)."""
        for attempt in (1, 2):
            status, body = await self._send(method, path, **sent)
            if status == 429:
                wait = _seconds(body.get("retry_after"))
                if attempt == 2 or wait is None or wait > RETRY_AFTER_LIMIT:
                    log.warning("Discord rate limited %s %s (retry after %s s): sign-in refused", method, path, wait)
                    raise AuthError(RATE_LIMITED, 429)
                await self.sleep(wait)
                continue
            if 200 <= status < 300:
                return body
            raise _refusal(status, body, method, path)
        raise AssertionError("unreachable: the loop returns or raises")

    async def _send(self, method: str, path: str, **sent: Any) -> tuple[int, dict[str, Any]]:
        timeout = aiohttp.ClientTimeout(total=REQUEST_SECONDS)
        try:
            async with (
                aiohttp.ClientSession(timeout=timeout) as client,
                client.request(method, self.base_url + path, **sent) as response,
            ):
                try:
                    body = await response.json(content_type=None)
                except (ValueError, aiohttp.ContentTypeError):
                    body = {}
                return response.status, body if isinstance(body, dict) else {}
        except (aiohttp.ClientError, TimeoutError) as error:
            log.warning("Discord did not answer %s %s: %s", method, path, type(error).__name__)
            raise AuthError(DISCORD_AWAY, 502) from None


def _seconds(value: Any) -> float | None:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if seconds >= 0 else None


def _refusal(status: int, body: dict[str, Any], method: str, path: str) -> AuthError:
    """Discord's error as the member's sentence: a used or stale code, a refused token, or Discord away."""
    if status == 400 and body.get("error") == "invalid_grant":
        return AuthError(EXPIRED_CODE, 401)
    if status in (400, 401, 403):
        log.info("Discord refused %s %s: %s %s", method, path, status, body.get("error") or body.get("message"))
        return AuthError(REFUSED_SIGN_IN, 401)
    log.warning("Discord answered %s %s with %s", method, path, status)
    return AuthError(DISCORD_AWAY, 502)


# ------------------------------------------------------------------ membership
async def check_member(bot: discord.Client, guild_id: int, channel_id: int, user_id: int) -> discord.Member:
    """The member, if they belong to the server and may see the channel (asked through the bot,
    which sees what Discord shows it); otherwise AuthError saying which."""
    guild = bot.get_guild(guild_id)
    if guild is None:
        raise AuthError("I am not in that server, so I cannot show its games.", 403)
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.NotFound:
            raise AuthError("You are not a member of that server.", 403) from None
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        raise AuthError("I cannot see that channel, so I cannot show its games.", 403)
    if not channel.permissions_for(member).view_channel:
        raise AuthError("You cannot see that channel.", 403)
    return member


# ------------------------------------------------------------------ our own tokens
class Tokens:
    """The bot's own tokens for the board: signed, with their expiry, server and channel inside."""

    def __init__(self, key: bytes, clock: Callable[[], float] = time.time, lifetime: int = TOKEN_SECONDS):
        self._key = key
        self.clock = clock
        self.lifetime = lifetime

    def __repr__(self) -> str:
        return f"Tokens(lifetime={self.lifetime})"

    def issue(self, identity: Identity) -> str:
        claims = {
            "u": str(identity.user_id),
            "n": identity.name,
            "g": str(identity.guild_id),
            "c": str(identity.channel_id),
            "e": int(self.clock()) + self.lifetime,
        }
        body = _b64(json.dumps(claims, separators=(",", ":")).encode())
        return f"{body}.{self._sign(body)}"

    def read(self, token: str, guild_id: int | None = None) -> Identity:
        """The identity a token names, or AuthError: forged, expired, or (``guild_id``) for another server."""
        body, _, signature = token.partition(".")
        if not body or not hmac.compare_digest(signature, self._sign(body)):
            raise AuthError("This board's sign-in is not valid: close the board and open it again.")
        try:
            claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
            identity = Identity(int(claims["u"]), str(claims["n"]), int(claims["g"]), int(claims["c"]))
            expires = int(claims["e"])
        except (ValueError, KeyError, TypeError):
            raise AuthError("This board's sign-in is not valid: close the board and open it again.") from None
        if self.clock() >= expires:
            raise AuthError("This board's sign-in has expired: close the board and open it again.")
        if guild_id is not None and guild_id != identity.guild_id:
            raise AuthError("This board was opened in another server.", 403)
        return identity

    def _sign(self, body: str) -> str:
        return _b64(hmac.new(self._key, body.encode(), hashlib.sha256).digest())


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def key_from_secret(client_secret: str) -> bytes:
    """The tokens' key derived from the client secret: the same in every process and after a restart."""
    return hmac.new(client_secret.encode(), KEY_PURPOSE, hashlib.sha256).digest()


async def token_key(store: Any, client_secret: str | None) -> bytes:
    """The tokens' key: from the client secret when set, else a random one kept in the database
    (made at the first start; a restart reads the same)."""
    if client_secret:
        return key_from_secret(client_secret)
    kept = await store.get_value(KEY_NAME)
    if kept:
        return bytes.fromhex(kept)
    async with store.transaction() as tx:
        await tx.set_value(KEY_NAME, secrets.token_hex(32))
    return bytes.fromhex(await store.get_value(KEY_NAME))
