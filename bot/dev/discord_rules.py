"""Discord's own rules where SimCord is lenient, for the tests and the benchmarks.

SimCord answers every request at once and keeps no rule that needs memory of what came before.
Discord does, and a bot that passes its tests on SimCord can still lose posts, freeze games and
get rate limited on the real service. ``use_discord_rules()`` puts these rules over every SimCord
world created afterwards in the process (the test suite turns it on for every test):

- **Nonces.** A message posted with ``nonce`` and ``enforce_nonce`` (discord.py sends both) is
  created once: a second post of the bot with the same nonce within five minutes returns the
  first message and creates nothing. Two different posts (another channel or another first line)
  sharing a nonce are noted as a defect of the bot (``nonce_reuse``).
- **Archived threads.** A thread archives itself after ``auto_archive_duration`` minutes without
  a new message, as the simulated clock moves. An archived thread refuses edits, deletes,
  reactions and pins with 400 / 50083 "Thread is archived"; a new message (or an edit of the
  thread with ``archived: false``) unarchives it.
- **The global rate limit.** 50 requests in any second of the simulated clock per bot token (what
  the bot does by itself; a test's direct calls into it are only logged),
  interaction callbacks and interaction webhooks exempt; past it Discord answers 429 with
  ``retry_after`` and ``global``, which discord.py sleeps out and tries again, five tries in all
  (the fake transport replaces discord.py's, so that handling is done here the same way).
  Edits of messages older than an hour have a cap of their own per channel (429, code 30046).
- **Interaction tokens** expire 15 minutes after the interaction: a follow-up or an edit through
  the token answers 401 / 50027 "Invalid Webhook Token".
- **Invalid requests** (401, 403 and 429 answers) are counted: Discord bans a client that makes
  10,000 in ten minutes, so a test fails when its bot makes more than ``invalid_limit``.

Each rule has a switch (``Rules``); a test that needs one off says so with the
``discord_rules`` marker (``@pytest.mark.discord_rules(archives=False)``).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord

GLOBAL_LIMIT = 50  # counted requests per second per bot token
WINDOW_SECONDS = 1.0
NONCE_SECONDS = 300  # how long Discord remembers a nonce ("a few minutes")
OLD_MESSAGE_SECONDS = 3600  # edits of messages older than this meet the cap below
OLD_EDITS_PER_CHANNEL = 5  # edits of old messages in one channel ...
OLD_EDITS_WINDOW = 60.0  # ... within this many seconds (Discord does not publish the figure)
TOKEN_SECONDS = 15 * 60  # an interaction token's lifetime
TRIES = 5  # discord.py's tries of one request that is rate limited
INVALID_STATUSES = frozenset({401, 403, 429})
THREAD_ARCHIVED = 50083
INVALID_WEBHOOK_TOKEN = 50027
OLD_EDITS_CAPPED = 30046


@dataclass
class Rules:
    """Which rules are on. ``invalid_limit``: how many 401, 403 and 429 answers a test may cause
    (None: no limit)."""

    nonces: bool = True
    archives: bool = True
    rate_limits: bool = True
    tokens: bool = True
    invalid_limit: int | None = 25


@dataclass(frozen=True)
class Request:
    at: float  # the simulated clock, in seconds
    method: str
    path: str


@dataclass
class Refusal:
    status: int
    code: int
    message: str
    retry_after: float | None = None
    is_global: bool = False

    def error(self) -> discord.HTTPException:
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            data.update(retry_after=self.retry_after, **{"global": self.is_global})
        response = _Response(self.status)
        if self.status == 403:
            return discord.Forbidden(response, data)
        if self.status == 404:
            return discord.NotFound(response, data)
        return discord.HTTPException(response, data)


class _Response:
    """Enough of an aiohttp response for discord.py's exceptions."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = {400: "Bad Request", 401: "Unauthorized", 429: "Too Many Requests"}.get(status, "Error")
        self.headers: dict[str, str] = {}


@dataclass
class _Sent:
    message_id: int
    channel_id: int
    at: float
    content: str


@dataclass
class DiscordRules:
    """The rules of one simulated Discord (one SimCord backend), and what they saw."""

    backend: Any
    rules: Rules = field(default_factory=Rules)
    counted: list[Request] = field(default_factory=list)  # requests that count towards the limit
    exempt: list[Request] = field(default_factory=list)  # interaction callbacks and webhooks
    rate_limited: list[Request] = field(default_factory=list)  # answered 429
    invalid: list[tuple[Request, int, int]] = field(default_factory=list)  # (request, status, code)
    nonce_reuse: list[str] = field(default_factory=list)
    deduplicated: list[str] = field(default_factory=list)  # nonces that returned an earlier message
    _window: deque[float] = field(default_factory=deque)
    _old_edits: dict[int, deque[float]] = field(default_factory=dict)
    _nonces: dict[str, _Sent] = field(default_factory=dict)
    _swept_at: float = -1.0

    # ----------------------------------------------------------------- the clock
    @property
    def now(self) -> float:
        elapsed: float = self.backend.clock.elapsed
        return elapsed

    def _instant(self) -> datetime:
        instant: datetime = self.backend.clock.now()
        return instant

    # ------------------------------------------------------------- the requests
    def refuse_counted(self, method: str, path: str, body: dict[str, Any] | None) -> Refusal | None:
        """Whether Discord refuses this request of the bot's token now (before it runs)."""
        self.sweep()
        request = Request(self.now, method, path)
        if self.rules.archives:
            refusal = self._archived(method, path, body)
            if refusal is not None:
                return refusal
        if self.rules.rate_limits and _bot_at_work():
            refusal = self._over_global_limit() or self._old_edit_capped(method, path)
            if refusal is not None:
                return refusal
        self._window.append(self.now)
        self.counted.append(request)
        return None

    def refuse_exempt(self, method: str, path: str) -> Refusal | None:
        """An interaction callback or webhook: never rate limited, but its token expires."""
        self.sweep()
        self.exempt.append(Request(self.now, method, path))
        if self.rules.tokens and self._token_expired(path):
            return Refusal(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return None

    def answered(self, method: str, path: str, status: int, code: int) -> None:
        """Note an answer that Discord counts as invalid."""
        if status in INVALID_STATUSES:
            request = Request(self.now, method, path)
            self.invalid.append((request, status, code))
            if status == 429:
                self.rate_limited.append(request)

    # ----------------------------------------------------------------- nonces
    def earlier_post(self, channel_id: int, body: dict[str, Any] | None) -> Any | None:
        """The message an enforced nonce returns instead of a new one, if Discord remembers it."""
        if not self.rules.nonces or not body or body.get("nonce") is None or not body.get("enforce_nonce"):
            return None
        nonce = str(body["nonce"])
        sent = self._nonces.get(nonce)
        if sent is None or self.now - sent.at >= NONCE_SECONDS:
            return None
        message = self.backend.messages.get(sent.channel_id, {}).get(sent.message_id)
        if message is None:
            return None
        if sent.channel_id != channel_id or _headline(sent.content) != _headline(body.get("content") or ""):
            self.nonce_reuse.append(f"nonce {nonce!r}: <#{sent.channel_id}> {sent.content!r}, then <#{channel_id}>")
        self.deduplicated.append(nonce)
        return message

    def posted(self, channel_id: int, body: dict[str, Any] | None, message_id: int) -> None:
        if not body or body.get("nonce") is None or not body.get("enforce_nonce"):
            return
        self._nonces[str(body["nonce"])] = _Sent(message_id, channel_id, self.now, body.get("content") or "")

    # --------------------------------------------------------------- threads
    def sweep(self) -> None:
        """Archive every thread that has had no new message for its auto-archive duration."""
        if not self.rules.archives or self.now - self._swept_at < 1.0:
            return
        self._swept_at = self.now
        instant = self._instant()
        for channel in list(self.backend.channels.values()):
            meta = channel.thread_metadata
            if meta is None or meta.archived:
                continue
            quiet_until = self._last_activity(channel) + timedelta(minutes=meta.auto_archive_duration)
            if instant >= quiet_until:
                self.backend.edit_channel(
                    channel.id, {}, thread_metadata={"archived": True, "archive_timestamp": quiet_until.isoformat()}
                )

    def _last_activity(self, channel: Any) -> datetime:
        meta = channel.thread_metadata
        times = [datetime.fromisoformat(t) for t in (meta.create_timestamp, meta.archive_timestamp) if t]
        posts = [m for m in self.backend.messages.get(channel.id, {}).values() if not m.is_ephemeral]
        if posts:
            times.append(discord.utils.snowflake_time(max(m.id for m in posts)))
        return max(times) if times else self._instant()

    def _archived(self, method: str, path: str, body: dict[str, Any] | None) -> Refusal | None:
        parts = path.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "channels" or not parts[1].isdigit():
            return None
        channel = self.backend.channels.get(int(parts[1]))
        meta = getattr(channel, "thread_metadata", None)
        if meta is None or not meta.archived:
            return None
        if method == "POST" and parts[2:] == ["messages"]:
            if not meta.locked:  # a new message unarchives the thread
                self.backend.edit_channel(
                    channel.id,
                    {},
                    thread_metadata={"archived": False, "archive_timestamp": self._instant().isoformat()},
                )
            return None
        if len(parts) == 2:  # the thread itself: deleting it is allowed, editing only to unarchive it
            if method != "PATCH" or (body and body.get("archived") is False):
                return None
            return Refusal(400, THREAD_ARCHIVED, "Thread is archived")
        if parts[2] != "messages":
            return None
        if method in ("PATCH", "DELETE", "PUT", "POST"):  # edits, deletes, reactions, pins
            return Refusal(400, THREAD_ARCHIVED, "Thread is archived")
        return None

    # ---------------------------------------------------------------- limits
    def _over_global_limit(self) -> Refusal | None:
        while self._window and self._window[0] <= self.now - WINDOW_SECONDS:
            self._window.popleft()
        if len(self._window) < GLOBAL_LIMIT:
            return None
        retry_after = round(self._window[0] + WINDOW_SECONDS - self.now, 3) + 0.001
        return Refusal(429, 0, "You are being rate limited.", retry_after=retry_after, is_global=True)

    def _old_edit_capped(self, method: str, path: str) -> Refusal | None:
        parts = path.strip("/").split("/")
        if method != "PATCH" or len(parts) != 4 or parts[0] != "channels" or parts[2] != "messages":
            return None
        channel_id, message_id = int(parts[1]), int(parts[3])
        age = (self._instant() - discord.utils.snowflake_time(message_id)).total_seconds()
        if age < OLD_MESSAGE_SECONDS:
            return None
        edits = self._old_edits.setdefault(channel_id, deque())
        while edits and edits[0] <= self.now - OLD_EDITS_WINDOW:
            edits.popleft()
        if len(edits) >= OLD_EDITS_PER_CHANNEL:
            retry_after = round(edits[0] + OLD_EDITS_WINDOW - self.now, 3) + 0.001
            return Refusal(
                429,
                OLD_EDITS_CAPPED,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
                retry_after=retry_after,
            )
        edits.append(self.now)
        return None

    def _token_expired(self, path: str) -> bool:
        parts = path.strip("/").split("/")
        if len(parts) < 3 or parts[0] != "webhooks":
            return False
        interaction_id = self.backend.interaction_tokens.get(parts[2])
        if interaction_id is None:
            return False
        created = discord.utils.snowflake_time(interaction_id)
        return (self._instant() - created).total_seconds() >= TOKEN_SECONDS

    # --------------------------------------------------------------- reading
    def most_in_one_second(self) -> int:
        """The most counted requests in any one second of the simulated clock (a sliding window)."""
        times = sorted(r.at for r in self.counted)
        most, start = 0, 0
        for end, at in enumerate(times):
            while times[start] <= at - WINDOW_SECONDS:
                start += 1
            most = max(most, end - start + 1)
        return most

    def check(self) -> None:
        """Fail (AssertionError) when the bot broke a rule no test may let pass."""
        assert not self.nonce_reuse, f"different posts shared a nonce: {self.nonce_reuse}"
        limit = self.rules.invalid_limit
        if limit is not None and len(self.invalid) > limit:
            seen = [f"{r.method} {r.path}: {status}/{code}" for r, status, code in self.invalid[:10]]
            raise AssertionError(f"{len(self.invalid)} invalid requests (401, 403, 429), over {limit}: {seen}")


def _headline(content: str) -> str:
    """What makes a post the post it is: its channel and its first line ("### Round 2 of 3: result").
    A post tried again after a failure may differ below it (a deadline counted from the new try)."""
    return content.split("\n", 1)[0]


def _bot_at_work() -> bool:
    """Whether the request comes from the bot's own work, whose waits follow the simulated clock.
    A test that calls into the bot directly (set-up, a flush) runs on SimCord's real-time clock
    instead, where a second of the simulated clock may never pass: its requests are logged but
    not held to the per-second limits, which judge what the bot does by itself."""
    from simcord._runtime import _BOT_SCOPE

    return _BOT_SCOPE.get() is not None


# ------------------------------------------------------------------ installing
_defaults = Rules()
_installed = False
made: list[DiscordRules] = []  # every simulated Discord's rules, in the order they were made


def set_defaults(**switches: Any) -> Rules:
    """The rules for worlds created from now on in this process (what a test's marker asks);
    the previous defaults, to put back."""
    global _defaults
    previous = _defaults
    _defaults = dataclasses.replace(Rules(), **switches)
    return previous


def restore_defaults(rules: Rules) -> None:
    global _defaults
    _defaults = rules


def rules_of(backend: Any) -> DiscordRules | None:
    """The rules over this simulated Discord (made on first use once installed)."""
    if not _installed:
        return None
    rules = getattr(backend, "discord_rules", None)
    if rules is None:
        rules = DiscordRules(backend, dataclasses.replace(_defaults))
        backend.discord_rules = rules
        made.append(rules)
    return rules


def use_discord_rules() -> None:
    """Put Discord's rules over every SimCord world created in this process from now on. Idempotent."""
    global _installed
    if _installed:
        return
    _installed = True
    from simcord.env import Env
    from simcord.http import client

    _wrap_bot_requests(client)
    _wrap_webhook_requests(client)
    advance = Env.advance_time

    async def advance_time(self: Env, seconds: float) -> None:
        await advance(self, seconds)
        rules = rules_of(self.backend)
        if rules is not None:
            rules.sweep()

    Env.advance_time = advance_time  # type: ignore[method-assign]


def _body(client: Any, kwargs: dict[str, Any], form: Any, files: Any) -> dict[str, Any] | None:
    body = kwargs.get("json")
    if form is not None:
        parsed, _ = client.router.parse_form(list(form), list(files or []))
        body = parsed if parsed is not None else body
    return body if isinstance(body, dict) else None


def _wrap_bot_requests(client: Any) -> None:
    original = client.FakeHTTPClient.request

    async def request(self: Any, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        rules = rules_of(self.backend)
        if rules is None:
            return await original(self, route, files=files, form=form, **kwargs)
        method, path = route.method, client._path_of(route.url)
        body = _body(client, kwargs, form, files)
        for tries in range(TRIES):
            refusal = rules.refuse_counted(method, path, body)
            if refusal is None:
                break
            rules.answered(method, path, refusal.status, refusal.code)
            if refusal.status != 429 or tries == TRIES - 1:
                raise refusal.error()
            await asyncio.sleep(refusal.retry_after or 0.0)  # as discord.py does with a 429
        posting = method == "POST" and path.endswith("/messages") and path.startswith("/channels/")
        channel_id = int(path.split("/")[2]) if posting else 0
        if posting:
            earlier = rules.earlier_post(channel_id, body)
            if earlier is not None:
                return _message_payload(self.backend, earlier)
        try:
            answer = await original(self, route, files=files, form=form, **kwargs)
        except discord.HTTPException as error:
            rules.answered(method, path, error.status, error.code)
            raise
        if posting and isinstance(answer, dict) and "id" in answer:
            rules.posted(channel_id, body, int(answer["id"]))
        return answer

    client.FakeHTTPClient.request = request


def _wrap_webhook_requests(client: Any) -> None:
    original = client.FakeWebhookAdapter.request

    async def request(self: Any, route: Any, session: Any, **kwargs: Any) -> Any:
        rules = rules_of(self.backend)
        if rules is None:
            return await original(self, route, session, **kwargs)
        method, path = route.method, client._path_of(route.url)
        refusal = rules.refuse_exempt(method, path)
        if refusal is not None:
            rules.answered(method, path, refusal.status, refusal.code)
            raise refusal.error()
        try:
            return await original(self, route, session, **kwargs)
        except discord.HTTPException as error:
            rules.answered(method, path, error.status, error.code)
            raise

    client.FakeWebhookAdapter.request = request


def _message_payload(backend: Any, message: Any) -> dict[str, Any]:
    from simcord.http._helpers import message_response
    from simcord.http.router import RequestContext

    return message_response(RequestContext(backend, {}), message)
