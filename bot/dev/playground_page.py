"""The playground's page: what the browser talks to, and what is added to how SimCord's Preview
is served (bot/dev/playground.py starts it all).

The browser first gets a page of the server's channels (``Playground.url``). SimCord's Preview
shows one channel at a time, so following a channel's link moves the Preview there. Every page is
served at one address, the playground's, which the next start keeps: the Preview's own server
(a new port at every move and every start) is reached through it (:meth:`Playground._forward`),
so an open tab goes on after a restart (it reloads itself when its session is gone, on the
channel shown last). Two things are added to how the Preview is served, because a person watches
it rather than a test:
what the bot does on its own (timers, computer moves) is published to the open page as it
happens (:class:`LivePages`), and a click is answered as soon as the bot has answered it, not
once every background task of the bot has finished (:func:`answer_page_actions_quickly`).
"""

from __future__ import annotations

import asyncio
import html
import logging
import secrets
from typing import Any
from urllib.parse import urlsplit

from bot.core.store import Store
from bot.dev.playground_live import LivePages, RealTimeClock, answer_page_actions_quickly
from bot.dev.world import MEMBER_NAMES, PlaygroundWorld, bot_member, channel_topic

log = logging.getLogger(__name__)

ADDRESS_KEY = "playground_address"  # "port token": the next start serves the same address if the port is free
SHOWN_KEY = "playground_shown"  # "page member": the channel the Preview showed last, and to whom
CAPABILITY = "X-Simcord-Capability"  # the Preview page's credential, sent with every call of its API
# What a proxy never passes on (RFC 9110 7.6.1), and the length and encoding it recomputes.
HOP_HEADERS = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-authorization"}
    | {"proxy-authenticate", "host", "content-length", "content-encoding", "accept-encoding"}
)
# The Preview page's own addition: when its session is gone (the playground started again, or the
# page of channels moved the Preview elsewhere), the page reloads itself instead of ending, and
# shows the channel the Preview shows now. Loaded before the page's own script.
TAB_SCRIPT = "playground-tab.js"
TAB_SCRIPT_TEXT = """\
const previewFetch = window.fetch.bind(window);
window.fetch = async (...call) => {
  const response = await previewFetch(...call);
  if (response.status === 410 && String(call[0]).startsWith("/api/state")) {
    window.location.reload();
    return new Promise(() => {});
  }
  return response;
};
"""


class Playground:
    """What the browser talks to: a page of the server's channels at ``url``, which moves the one
    Preview (``preview``) to the channel chosen, and the playground's Apps > Challenge form."""

    def __init__(self, world: PlaygroundWorld, port: int | None = None, token: str | None = None):
        self.world = world
        self.env = world.env
        self.preview: Any = None  # simcord.Preview of the channel shown
        self.live = LivePages(world)
        self.clock = RealTimeClock(world.env)
        self._port = port or 0
        self._token = token or secrets.token_urlsafe(16)  # the channel page is a credential, like the Preview's URL
        self._runner: Any = None
        self._http: Any = None  # the client that reaches the Preview's own server
        self._bound_port: int | None = None
        self._moving = asyncio.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._bound_port}/{self._token}/"

    @property
    def page_url(self) -> str:
        """The Preview page, at the playground's address (its credential is the token)."""
        return f"http://127.0.0.1:{self._bound_port}/#{self._token}"

    @property
    def address(self) -> str:
        """The port and token, as ``ADDRESS_KEY`` keeps them."""
        return f"{self._bound_port} {self._token}"

    def message_link(self, _: int | None, channel_id: int, message_id: int) -> str:
        """Where a link to a message leads (``/history``'s): the page of the channel or thread
        holding it; the channel's own page for a message of an earlier run (not posted again)."""
        messages = self.env.backend.messages
        for name, channel in self.world.channels.items():
            if message_id in messages.get(channel.id, {}):
                return f"{self.url}channel/{name}"
            thread = next((t for t in channel.threads if message_id in messages.get(t.id, {})), None)
            if thread is not None:
                return f"{self.url}channel/thread-{thread.id}"
        name = next((name for name, channel in self.world.channels.items() if channel.id == channel_id), None)
        return f"{self.url}channel/{name}" if name else self.url

    async def __aenter__(self) -> Playground:
        import aiohttp

        answer_page_actions_quickly(self.env, lambda: self.preview)
        # A connection per request: the Preview's server changes at every move, and a kept one
        # could be closed by it under the request (a failed click for nothing).
        self._http = aiohttp.ClientSession(auto_decompress=False, connector=aiohttp.TCPConnector(force_close=True))
        await self._serve()
        await self.show(*await self._shown_last())
        self.live.start()
        self.clock.start()
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.clock.stop()
        await self.live.stop()
        if self.preview is not None:
            await self.preview.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._http is not None:
            await self._http.close()

    async def _shown_last(self) -> tuple[Any, Any]:
        """The channel the Preview showed when the playground stopped, and to whom (#games to
        Ada at the first start, or when that was a thread: a game's thread is opened anew)."""
        store = self.world.bot.store
        saved = (await store.get_value(SHOWN_KEY) or "").split() if store is not None else []
        name, member = [*saved, "", ""][:2]
        players = dict(zip(MEMBER_NAMES, self.world.members, strict=True))
        return self.world.channels.get(name, self.world.channel), players.get(member, self.world.ada)

    async def show(self, channel: Any, viewer: Any = None) -> Any:
        """Move the Preview to ``channel``, seen by ``viewer`` (default Ada; the page can switch)."""
        viewer = viewer or self.world.ada
        async with self._moving:
            current = self.preview
            if current is not None and current.channel.id == channel.id and current.viewers[0].id == viewer.id:
                return current
            if current is not None:
                await current.close()
                self.preview = None  # until the next one is open (opening fails while a click still runs)
            viewers = [viewer, *(m for m in self.world.members if m.id != viewer.id)]
            preview = self.env.preview(channel, viewers=viewers, layout="channel")
            await preview.__aenter__()  # closed by the next move or on exit
            self.preview = preview
            self.live.watch(preview)
            return preview

    # ------------------------------------------------------------ the channel page
    async def _serve(self) -> None:
        from aiohttp import web

        app = web.Application()
        app.router.add_get(f"/{self._token}/", self._channels_page)
        app.router.add_get(f"/{self._token}/channel/{{name}}", self._open_channel)
        app.router.add_post(f"/{self._token}/challenge", self._challenge)
        app.router.add_get(f"/{TAB_SCRIPT}", self._tab_script)
        app.router.add_route("*", "/{path:.*}", self._forward)  # the Preview page and its API
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self._port)
        try:
            await site.start()
        except OSError:  # the port kept from the last start is taken now: any free one
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            await site.start()
        self._bound_port = site._server.sockets[0].getsockname()[1]

    def _local(self, request: Any) -> None:
        """Only pages of this address may use it (as the Preview checks: no other site's page
        reaching it through a name that points at 127.0.0.1)."""
        from aiohttp import web

        if request.host not in {f"127.0.0.1:{self._bound_port}", f"localhost:{self._bound_port}"}:
            raise web.HTTPForbidden()

    async def _channels_page(self, request: Any) -> Any:
        from aiohttp import web

        self._local(request)
        return web.Response(text=channels_page(self.world, self._token), content_type="text/html")

    async def _open_channel(self, request: Any) -> Any:
        from aiohttp import web

        self._local(request)
        name = request.match_info["name"]
        channel = self.world.channels.get(name) or self._thread(name)
        if channel is None:
            raise web.HTTPNotFound()
        return await self._go(channel, self.world.ada)

    def _thread(self, name: str) -> Any:
        """A game's thread by its page name (``thread-<id>``), or None."""
        found = (t for channel in self.world.channels.values() for t in channel.threads if f"thread-{t.id}" == name)
        return next(found, None)

    async def _challenge(self, request: Any) -> Any:
        """Apps > Challenge, which the Preview's page cannot open: ``member`` right-clicks
        ``target`` in ``channel``; the page then shows the answer (a private game menu)."""
        from aiohttp import web
        from simcord import SetupError

        self._local(request)
        form = await request.post()
        players = dict(zip(MEMBER_NAMES, self.world.members, strict=True))
        channel = self.world.channels.get(str(form.get("channel")))
        member = players.get(str(form.get("member")))
        target = bot_member(self.world) if form.get("target") == "TestBot" else players.get(str(form.get("target")))
        if channel is None or member is None or target is None:
            raise web.HTTPBadRequest(text="Pick a member, someone to challenge and a channel.")
        try:
            await member.context_menu(channel, "Challenge", target)
        except SetupError:
            raise web.HTTPServiceUnavailable(text="The playground is busy: go back and try again.") from None
        return await self._go(channel, member)

    async def _go(self, channel: Any, viewer: Any) -> Any:
        from aiohttp import web
        from simcord import SetupError

        try:
            await self.show(channel, viewer)
        except SetupError:  # an action of the page is still running
            raise web.HTTPServiceUnavailable(text="The playground is busy: go back and try again.") from None
        await self._note_shown(channel, viewer)
        raise web.HTTPSeeOther(self.page_url)

    async def _note_shown(self, channel: Any, viewer: Any) -> None:
        store = self.world.bot.store
        name = next((name for name, shown in self.world.channels.items() if shown.id == channel.id), "")
        member = next(name for name, one in zip(MEMBER_NAMES, self.world.members, strict=True) if one.id == viewer.id)
        if store is not None and name:
            async with store.transaction() as tx:
                await tx.set_value(SHOWN_KEY, f"{name} {member}")

    # ------------------------------------------------------------ the Preview, at this address
    async def _tab_script(self, request: Any) -> Any:
        from aiohttp import web

        self._local(request)
        return web.Response(text=TAB_SCRIPT_TEXT, content_type="application/javascript")

    async def _forward(self, request: Any) -> Any:
        """Pass a request of the Preview page to the Preview's own server, as if made there: its
        host and origin, and its credential for the playground's token (the page's)."""
        import aiohttp
        from aiohttp import web

        self._local(request)
        preview = self.preview
        if preview is None or preview._closed:  # moving to another channel: the page tries again
            raise web.HTTPServiceUnavailable(text="The playground is busy: try again.")
        capability = request.headers.get(CAPABILITY)
        if capability is not None and not secrets.compare_digest(capability, self._token):
            raise web.HTTPUnauthorized()
        there = urlsplit(preview.url).netloc
        headers = {name: value for name, value in request.headers.items() if name.lower() not in HOP_HEADERS}
        headers["Host"] = there
        if capability is not None:
            headers[CAPABILITY] = preview.capability
        if "Origin" in headers:
            headers["Origin"] = f"http://{there}"
        try:
            async with self._http.request(
                request.method,
                f"http://{there}{request.path_qs}",
                headers=headers,
                data=await request.read(),
                allow_redirects=False,
            ) as response:
                body = await response.read()
                answer = {name: value for name, value in response.headers.items() if name.lower() not in HOP_HEADERS}
        except aiohttp.ClientError:  # the Preview closed meanwhile (a move): the page polls again
            raise web.HTTPServiceUnavailable(text="The playground is busy: try again.") from None
        if request.path == "/" and response.status == 200:  # the page: its own addition first
            body = body.replace(
                b'<script type="module"', f'<script src="/{TAB_SCRIPT}"></script><script type="module"'.encode(), 1
            )
        return web.Response(status=response.status, body=body, headers=answer)


def thread_links(world: PlaygroundWorld, channel: Any, token: str) -> str:
    """The channel's game threads that are not archived, as links under it."""
    backend = world.env.backend
    threads = [t for t in channel.threads if not backend.get_channel(t.id).thread_metadata.archived]
    if not threads:
        return ""
    links = "".join(
        f'<li>🧵 <a href="/{token}/channel/thread-{t.id}">{html.escape(t.name or "")}</a></li>' for t in threads
    )
    return f"<ul>{links}</ul>"


def channels_page(world: PlaygroundWorld, token: str) -> str:
    """The page of channels: one link each, and the form for Apps > Challenge."""
    rows = "".join(
        f'<li><a href="/{token}/channel/{name}">#{name}</a> <small>{html.escape(channel_topic(name))}</small>'
        f"{thread_links(world, channel, token)}</li>"
        for name, channel in world.channels.items()
    )
    names = list(MEMBER_NAMES)

    def choice(field: str, values: list[str]) -> str:
        options = "".join(f"<option>{html.escape(value)}</option>" for value in values)
        return f'<select name="{field}">{options}</select>'

    challenge = (
        f'<form method="post" action="/{token}/challenge">{choice("member", names)} right-clicks '
        f"{choice('target', [*names[1:], names[0], 'TestBot'])} in {choice('channel', list(world.channels))} "
        "and picks <button>Apps &gt; Challenge</button></form>"
    )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Octagon Club playground</title>"
        '<meta name=viewport content="width=device-width"></head><body style="font-family:sans-serif;max-width:40em">'
        f"<h1>{html.escape(world.guild.name)}</h1><p>Pick a channel. The page shows one channel at a time: "
        "come back here (the browser's Back) for another.</p>"
        f"<ul>{rows}</ul><h2>Apps &gt; Challenge</h2>"
        "<p>Discord's right-click menu on a member, which the channel page does not have:</p>"
        f"{challenge}</body></html>"
    )


async def save_address(store: Store | None, playground: Playground) -> None:
    if store is not None:
        async with store.transaction() as tx:
            await tx.set_value(ADDRESS_KEY, playground.address)
