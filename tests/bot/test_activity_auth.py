"""The Activity's sign-in: the OAuth2 code exchange and ``GET /users/@me`` against a local fake of
Discord on 127.0.0.1 that answers as Discord documents (its errors too), the member and channel
checked through the bot (SimCord), and the bot's own tokens refused when expired, forged or used
for another server."""

from __future__ import annotations

import discord
import pytest
from aiohttp import web

from bot.features.activity.auth import (
    EXPIRED_CODE,
    KEY_NAME,
    RATE_LIMITED,
    REFUSED_SIGN_IN,
    AuthError,
    DiscordOAuth,
    Identity,
    Tokens,
    check_member,
    key_from_secret,
    token_key,
)

CLIENT_ID = 111222333444555666
SECRET = "s3cret-of-the-app"
GOOD_CODE = "code-from-authorize"
ACCESS = "access-token-of-ada"
ADA = {"id": "80351110224678912", "username": "ada", "global_name": "Ada", "discriminator": "0", "avatar": None}


class FakeDiscord:
    """Discord's two sign-in endpoints as documented: a token for the one good code (each code
    once), ``invalid_grant`` for any other, 401 for a wrong bearer token, and ``throttle`` 429s
    with ``retry_after`` before answering."""

    def __init__(self) -> None:
        self.forms: list[dict[str, str]] = []
        self.throttle = 0
        self.used: set[str] = set()

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self.token)
        app.router.add_get("/api/v10/users/@me", self.me)
        return app

    def limited(self) -> web.Response | None:
        if self.throttle:
            self.throttle -= 1
            body = {"message": "You are being rate limited.", "retry_after": 0.25, "global": False}
            return web.json_response(body, status=429)
        return None

    async def token(self, request: web.Request) -> web.Response:
        assert request.content_type == "application/x-www-form-urlencoded"
        form = dict(await request.post())
        self.forms.append({k: str(v) for k, v in form.items()})
        if (limited := self.limited()) is not None:
            return limited
        if form.get("client_id") != str(CLIENT_ID) or form.get("client_secret") != SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code" or form.get("code") != GOOD_CODE or GOOD_CODE in self.used:
            body = {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
            return web.json_response(body, status=400)
        self.used.add(GOOD_CODE)
        answer = {"access_token": ACCESS, "token_type": "Bearer", "expires_in": 604800, "scope": "identify guilds"}
        return web.json_response({**answer, "refresh_token": "refresh"})

    async def me(self, request: web.Request) -> web.Response:
        if (limited := self.limited()) is not None:
            return limited
        if request.headers.get("Authorization") != f"Bearer {ACCESS}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(ADA)


@pytest.fixture
async def discord_api():
    fake = FakeDiscord()
    runner = web.AppRunner(fake.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    waits: list[float] = []
    oauth = DiscordOAuth(CLIENT_ID, SECRET, base_url=f"http://127.0.0.1:{port}/api/v10")

    async def sleep(seconds: float) -> None:  # the wait is asked for, not spent: no timed test
        waits.append(seconds)

    oauth.sleep = sleep
    yield fake, oauth, waits
    await runner.cleanup()


async def test_a_good_code_gives_the_member(discord_api):
    fake, oauth, _ = discord_api
    access = await oauth.exchange(GOOD_CODE)
    assert access == ACCESS
    assert fake.forms == [
        {"client_id": str(CLIENT_ID), "client_secret": SECRET, "grant_type": "authorization_code", "code": GOOD_CODE}
    ]
    assert await oauth.user(access) == (int(ADA["id"]), "Ada")
    assert SECRET not in repr(oauth)


async def test_a_bad_or_used_code_is_refused_with_a_clear_sentence(discord_api):
    _, oauth, _ = discord_api
    with pytest.raises(AuthError) as refused:
        await oauth.exchange("made-up")
    assert (refused.value.message, refused.value.status) == (EXPIRED_CODE, 401)
    await oauth.exchange(GOOD_CODE)
    with pytest.raises(AuthError, match="expired or was already used"):
        await oauth.exchange(GOOD_CODE)  # a code is good once


async def test_a_wrong_access_token_is_refused(discord_api):
    _, oauth, _ = discord_api
    with pytest.raises(AuthError) as refused:
        await oauth.user("not-a-token")
    assert refused.value.message == REFUSED_SIGN_IN


async def test_a_rate_limit_is_waited_out_once_then_given_up(discord_api):
    fake, oauth, waits = discord_api
    fake.throttle = 1
    assert await oauth.exchange(GOOD_CODE) == ACCESS
    assert waits == [0.25]  # retried once, after Discord's retry_after
    assert len(fake.forms) == 2
    fake.throttle = 2
    with pytest.raises(AuthError) as refused:
        await oauth.user(ACCESS)
    assert (refused.value.message, refused.value.status) == (RATE_LIMITED, 429)
    assert waits == [0.25, 0.25]


async def test_discord_away_is_told(discord_api):
    _, oauth, _ = discord_api
    away = DiscordOAuth(CLIENT_ID, SECRET, base_url=oauth.base_url.replace("/api/v10", "/nothing"))
    with pytest.raises(AuthError, match="Discord did not"):
        await away.exchange(GOOD_CODE)


# ------------------------------------------------------------------ the bot's own tokens
class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_token_names_its_member_until_it_expires():
    clock = Clock()
    tokens = Tokens(key_from_secret(SECRET), clock, lifetime=3600)
    ada = Identity(80351110224678912, "Ada", 1000, 2000)
    token = tokens.issue(ada)
    assert tokens.read(token, guild_id=1000) == ada
    clock.now += 3599
    assert tokens.read(token) == ada
    clock.now += 1
    with pytest.raises(AuthError, match="has expired"):
        tokens.read(token)


def test_a_token_for_another_server_or_forged_is_refused():
    tokens = Tokens(key_from_secret(SECRET))
    token = tokens.issue(Identity(1, "Ada", 1000, 2000))
    with pytest.raises(AuthError, match="another server") as refused:
        tokens.read(token, guild_id=1001)
    assert refused.value.status == 403
    body, _, signature = token.partition(".")
    forged = Tokens(key_from_secret("another secret")).issue(Identity(1, "Ada", 1001, 2000))
    for wrong in (f"{forged.partition('.')[0]}.{signature}", f"{body}.{signature[:-2]}", "", "abc"):
        with pytest.raises(AuthError, match="not valid"):
            tokens.read(wrong)
    # The same secret gives the same key: another process, or the bot after a restart, reads it.
    assert Tokens(key_from_secret(SECRET)).read(token).name == "Ada"


# ------------------------------------------------------------------ through the bot
async def test_the_member_must_be_in_the_server_and_see_the_channel(world):
    guild, bot = world.guild, world.bot
    member = await check_member(bot, guild.id, world.channel.id, world.ada.id)
    assert member.id == world.ada.id
    stranger = world.env.create_user("eve", global_name="Eve")
    with pytest.raises(AuthError, match="not a member of that server"):
        await check_member(bot, guild.id, world.channel.id, stranger.id)
    hidden = guild.create_text_channel(
        "staff", overwrites={guild.default_role: discord.PermissionOverwrite(view_channel=False)}
    )
    with pytest.raises(AuthError, match="cannot see that channel"):
        await check_member(bot, guild.id, hidden.id, world.bo.id)
    with pytest.raises(AuthError, match="not in that server"):
        await check_member(bot, 42, world.channel.id, world.ada.id)


async def test_without_a_secret_the_key_is_kept_in_the_database(world):
    store = world.platform.store
    first = await token_key(store, None)
    assert await store.get_value(KEY_NAME) == first.hex()
    assert await token_key(store, None) == first  # as after a restart
    assert await token_key(store, SECRET) == key_from_secret(SECRET)
