"""The local playground: `python -m bot` with no token serves the real bot in a browser."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from urllib.parse import urlsplit

import pytest

from bot import __main__ as entry
from bot.core.settings import Settings
from bot.core.settings_store import DEFAULT_ARCHIVE_MINUTES
from bot.dev import playground
from bot.dev.playground_live import CLOCK_STEP_SECONDS
from bot.dev.world import private_texts
from bot.features.challenges import CHALLENGE_SECONDS
from bot.games.octagion import NEXT_ROUND


def start_playground() -> tuple[subprocess.Popen, str]:
    environment = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "--memory"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environment,
    )
    for line in process.stdout:
        match = re.search(r"Playground running: open (http://127\.0\.0\.1:\d+/\S*)", line)
        if match:
            return process, match.group(1)
    process.kill()
    raise AssertionError("the playground never printed its address")


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM])
def test_playground_serves_its_page_on_loopback_and_stops_cleanly(stop_signal):
    process, url = start_playground()
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            assert response.status == 200
            assert b"<html" in response.read(4096).lower()
        process.send_signal(stop_signal)
        rest, _ = process.communicate(timeout=60)
        assert process.returncode == 0
        assert "Playground stopped." in rest
    finally:
        if process.poll() is None:
            process.kill()


async def test_a_slash_command_in_the_playground_reaches_the_bot(tmp_path):
    stop = asyncio.Event()
    seen = {}

    async def play(world, preview):
        await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
        await world.bo.click(world.channel.last_message, label="Accept")
        [thread] = world.channel.threads  # #games plays each game in a thread of its own
        seen["content"] = thread.last_message.content
        seen["attachments"] = [a.filename for a in thread.last_message.attachments]
        seen["url"] = preview.url
        seen["page"] = playground.channels_page(world, "token")
        seen["thread"] = thread
        stop.set()

    await playground.run_playground(Settings(database_path=str(tmp_path / "pg.db")), ready=play, stop=stop)
    assert "## Octego" in seen["content"]
    assert f"/token/channel/thread-{seen['thread'].id}" in seen["page"], "the channel page links the live thread"
    assert "It is <@" in seen["content"]
    assert seen["attachments"]
    assert seen["attachments"][0].endswith(".png")
    assert seen["url"].startswith("http://127.0.0.1:")


def test_playground_keeps_its_own_database(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    used = {}

    async def fake_run(settings, **kwargs):
        used["database"] = settings.database  # what the store opens: never DATABASE_URL

    monkeypatch.setattr(playground, "run_playground", fake_run)
    monkeypatch.setenv("DATABASE_PATH", "real-bot.db")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:secret@db.example/octagon")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert entry.main([]) == 0
    assert used["database"] == "playground.db"
    assert entry.main(["--memory"]) == 0
    assert used["database"] == ":memory:"


def test_without_preview_packages_it_explains_the_install(monkeypatch, capsys):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr(playground, "preview_available", lambda: False)
    assert entry.main([]) == 2
    assert 'pip install -e ".[playground]"' in capsys.readouterr().out


def test_with_a_token_the_bot_connects_unless_asked_for_the_playground(monkeypatch):
    from bot.core import shutdown

    calls = []

    async def connect(bot, token):  # what `python -m bot` does with a token: connect and serve until stopped
        calls.append("discord")

    monkeypatch.setenv("DISCORD_TOKEN", "test-token-not-real")
    monkeypatch.setattr(shutdown, "serve", connect)
    monkeypatch.setattr(playground, "main", lambda *args, **kwargs: calls.append("playground") or 0)
    assert entry.main([]) == 0
    assert entry.main(["--playground"]) == 0
    assert calls == ["discord", "playground"]


# ------------------------------------------------------------ restarts


async def run(database, play) -> None:
    """One start of the playground on ``database``: ``play(world, playground)``, then stop."""
    stop = asyncio.Event()

    async def ready(world, the_playground):
        try:
            await play(world, the_playground)
        finally:
            stop.set()

    await playground.run_playground(Settings(database_path=str(database)), ready=ready, stop=stop)


def server_ids(world) -> dict:
    return {
        "guild": world.guild.id,
        "channels": {name: channel.id for name, channel in world.channels.items()},
        "members": [member.id for member in world.members],
    }


async def test_a_second_start_has_the_same_server_its_commands_and_every_live_game(tmp_path):
    database = tmp_path / "pg.db"
    first = {}

    async def start_games(world, _):
        first["ids"] = server_ids(world)
        octego, octa = world.channels["octego"], world.channels["octa"]
        await world.ada.slash(octego, "octego challenge", opponent=world.bo)
        await world.bo.click(octego.last_message, label="Accept")
        await world.ada.slash(octa, "octa challenge", opponent=world.bo)  # left open
        first["octego"] = await world.platform.sessions.live_in_channel(octego.id)
        first["clock"] = world.env.now()

    await run(database, start_games)
    second = {}

    async def go_on(world, _):
        second["ids"] = server_ids(world)
        second["clock"] = world.env.now()
        octego, octa = world.channels["octego"], world.channels["octa"]
        shown = octego.last_message  # the game, posted again in the new simulated Discord
        second["game"] = shown.content
        session = await world.platform.sessions.live_in_channel(octego.id)
        second["shown_is_the_game_message"] = shown.id == session.record.message_id
        path = (await world.ada.autocomplete(octego, "octego move", "path", ""))[0]["value"]
        second["move"] = private_texts(await world.ada.slash(octego, "octego move", path=path))[-1]
        second["ply"] = (await world.platform.sessions.live_in_channel(octego.id)).state.ply
        second["challenge"] = octa.last_message.content
        await world.bo.click(octa.last_message, label="Accept")
        second["octa"] = (await world.platform.sessions.live_in_channel(octa.id)).record.status
        second["errors"] = list(world.platform.errors)

    await run(database, go_on)
    assert second["ids"] == first["ids"]
    assert second["clock"] > first["clock"]  # the clock goes on: new messages never take old ids
    assert "## Octego" in second["game"]
    assert "It is <@" in second["game"]
    assert second["shown_is_the_game_message"]
    assert second["move"].startswith("Done."), second["move"]  # a slash command works: commands registered
    assert second["ply"] == first["octego"].state.ply + 1
    assert "challenges you to **Octa**" in second["challenge"]
    assert second["octa"] == "active"
    assert second["errors"] == []


async def test_a_second_start_opens_the_threads_of_the_games_in_games_again(tmp_path):
    """#games plays its games in threads; the simulated Discord is new at every start, so a live
    game gets its card and a thread again, and goes on there."""
    database = tmp_path / "pg.db"
    first = {}

    async def start_games(world, _):
        for challenger, opponent in ((world.ada, world.bo), (world.cy, world.di)):
            await challenger.slash(world.channel, "octego challenge", opponent=opponent)
            await opponent.click(world.channel.last_message, label="Accept")
        first["sessions"] = [r.id for r in await world.platform.store.threaded_sessions(world.channel.id)]

    await run(database, start_games)
    second = {}

    async def go_on(world, _):
        records = await world.platform.store.threaded_sessions(world.channel.id)
        second["sessions"] = [r.id for r in records]
        second["threads"] = {t.id for t in world.channel.threads}
        second["thread_ids"] = {r.thread_id for r in records}
        thread = next(t for t in world.channel.threads if t.id == records[0].thread_id)
        session = await world.platform.sessions.load(records[0].id)
        path = (await world.ada.autocomplete(thread, "octego move", "path", ""))[0]["value"]
        second["move"] = private_texts(await world.ada.slash(thread, "octego move", path=path))[-1]
        second["page"] = playground.channels_page(world, "token")
        second["ply"] = (await world.platform.sessions.load(session.id)).state.ply
        second["errors"] = list(world.platform.errors)

    await run(database, go_on)
    assert second["sessions"] == first["sessions"]
    assert second["threads"] == second["thread_ids"], "each live game has its thread again"
    assert len(second["threads"]) == 2
    assert second["move"].startswith("Done."), second["move"]
    assert second["ply"] == 1
    assert all(f"thread-{t}" in second["page"] for t in second["threads"])
    assert second["errors"] == []


async def resign(member, game_message) -> None:
    question = (await member.click(game_message, label="Resign")).response  # asked privately first
    await member.click(question, label="Resign")


def labels(message) -> list[str]:
    return [item.label for row in message.components for item in row.children]


async def test_finished_games_keep_their_messages_across_restarts(tmp_path):
    """The simulated Discord is new at every start: the last finished games are posted again, in
    their order, a game of #games with its card and a thread ending on its final message."""
    database = tmp_path / "pg.db"

    async def finish_games(world, _):
        octego = world.channels["octego"]
        await world.ada.slash(octego, "octego challenge", opponent=world.bo)
        await world.bo.click(octego.last_message, label="Accept")
        await resign(world.ada, octego.last_message)
        await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
        await world.bo.click(world.channel.last_message, label="Accept")
        [thread] = world.channel.threads
        await resign(world.bo, thread.last_message)
        await world.env.advance_time(DEFAULT_ARCHIVE_MINUTES * 60 + 1)  # the finished game's thread is archived
        await world.cy.slash(world.channel, "octa challenge", opponent=world.di)  # live, after the finished card

    await run(database, finish_games)
    second = {}

    async def look(world, _):
        second["octego"] = [(m.content, labels(m)) for m in world.channels["octego"].history()]
        second["games"] = [(m.content, labels(m)) for m in world.channel.history()]
        second["thread"] = [[m.content for m in t.history()] for t in world.channel.threads]
        backend = world.env.backend
        second["archived"] = [backend.get_channel(t.id).thread_metadata.archived for t in world.channel.threads]
        second["errors"] = list(world.platform.errors)

    await run(database, look)
    [(octego, buttons)] = second["octego"]
    assert "**Ada** resigned." in octego
    assert buttons == ["Rematch", "Replay", "Review"]
    card, _, challenge = second["games"]  # the card, the thread's opening line, the live challenge
    assert card[0].startswith("**Octego** #2")
    assert "won" in card[0]
    assert card[1] == ["Rematch", "Replay", "Review"]
    assert "challenges you to **Octa**" in challenge[0]
    [thread] = second["thread"]
    assert "**Bo** resigned." in thread[-1]
    assert second["archived"] == [True]  # as it was: its archiving was past
    assert second["errors"] == []


async def test_only_each_channels_last_finished_games_are_posted_again(tmp_path):
    database = tmp_path / "pg.db"
    games = playground.FINISHED_SHOWN + 1

    async def finish_games(world, _):
        octego = world.channels["octego"]
        for _ in range(games):
            await world.ada.slash(octego, "octego challenge", opponent=world.bo)
            await world.bo.click(octego.last_message, label="Accept")
            await resign(world.ada, octego.last_message)

    await run(database, finish_games)
    shown = []

    async def look(world, _):
        records = [await world.platform.store.get_session(number) for number in range(1, games + 1)]
        ids = {m.id for m in world.channels["octego"].history()}
        shown.extend(record.id for record in records if record.message_id in ids)

    await run(database, look)
    assert shown == list(range(2, games + 1))


async def test_a_second_start_serves_the_same_address_unless_its_port_is_taken(tmp_path):
    import socket

    database = tmp_path / "pg.db"
    urls = []

    async def note_the_address(_, the_playground):
        urls.append(the_playground.url)

    await run(database, note_the_address)
    await run(database, note_the_address)
    port = urlsplit(urls[0]).port
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        await run(database, note_the_address)
    assert urls[1] == urls[0]
    assert urlsplit(urls[2]).port != port
    assert urlsplit(urls[2]).path == urlsplit(urls[0]).path  # the same token: only the port changed


async def test_an_open_tab_goes_on_after_a_restart(tmp_path):
    """Every page is at the playground's one address, which the next start keeps, so an open tab
    of a channel finds the playground again: its session of the last run is gone (the page then
    reloads itself, through the script the playground adds to it), and the reloaded page shows
    the same channel to the same member, with what was posted there."""
    import aiohttp

    database = tmp_path / "pg.db"
    seen = {}

    async def open_a_tab(world, the_playground):
        async with aiohttp.ClientSession() as http:
            form = {"member": "Bo", "target": "Cy", "channel": "octego"}
            async with http.post(the_playground.url + "challenge", data=form, allow_redirects=False) as response:
                seen["tab"] = response.headers["Location"]
            tab = Page(http, seen["tab"])
            await tab.open()
            seen["context"] = tab.headers["X-Simcord-Context"]
        await world.bo.slash(world.channels["octego"], "octego challenge", opponent=world.cy)
        seen["bo"] = str(world.bo.id)

    async def come_back(world, the_playground):
        async with aiohttp.ClientSession() as http:
            tab = Page(http, seen["tab"])  # the same address, the same credential
            async with http.get(
                tab.base + "/api/state", headers={**tab.headers, "X-Simcord-Context": seen["context"]}
            ) as response:
                seen["old_session"] = response.status
            async with http.get(tab.base + "/playground-tab.js") as response:
                seen["script"] = await response.text()
            await tab.open()  # what the reload does
            seen["shown"] = tab.texts()
            seen["viewer"] = str(tab.snapshot["viewerId"])

    await run(database, open_a_tab)
    await run(database, come_back)
    assert seen["old_session"] == 410
    assert "window.location.reload()" in seen["script"]  # on a 410, the page reloads instead of ending
    assert any("challenges you to **Octego**" in text for text in seen["shown"]), seen["shown"]
    assert seen["viewer"] == seen["bo"]


async def test_history_links_open_the_games_channel_in_the_playground(tmp_path):
    import aiohttp

    seen = {"status": None}

    async def history(world, the_playground):
        octego = world.channels["octego"]
        await world.ada.slash(octego, "octego challenge", opponent=world.bo)
        await world.bo.click(octego.last_message, label="Accept")
        await resign(world.ada, octego.last_message)
        [text] = private_texts(await world.ada.slash(world.channel, "history"))
        [link] = re.findall(r"\]\((\S+)\)", text)
        seen["link"], seen["url"] = link, the_playground.url
        if link.startswith(the_playground.url):  # never discord.com, which the test cannot reach
            async with aiohttp.ClientSession() as http, http.get(link, allow_redirects=False) as response:
                seen["status"] = response.status
        seen["shown"] = the_playground.preview.channel.id == octego.id

    await run(tmp_path / "pg.db", history)
    assert seen["link"] == seen["url"] + "channel/octego"
    assert seen["status"] == 303
    assert seen["shown"]


async def test_the_simulated_clock_follows_real_time(tmp_path):
    """Between timers SimCord's clock stood still: a Daily played in 20 s was "0:00"."""
    seen = {}

    async def wait_a_second(world, _):
        started, simulated = time.perf_counter(), world.env.now()

        def moved() -> float:
            return (world.env.now() - simulated).total_seconds()

        await asyncio.sleep(1)
        for _ in range(100):  # the clock moves in steps: wait for the one that passes the second
            if moved() >= 1:
                break
            await asyncio.sleep(0.1)
        seen["moved"], seen["real"] = moved(), time.perf_counter() - started

    await run(tmp_path / "pg.db", wait_a_second)
    assert seen["moved"] >= 1
    # Never ahead of real time: the clock catches up a step at a time, so when the test read it
    # first it could lag real time by up to a step, which a later step makes up.
    assert seen["moved"] <= seen["real"] + CLOCK_STEP_SECONDS


async def test_memory_starts_clean_every_time():
    sessions = []

    async def challenge(world, _):
        sessions.append(await world.platform.sessions.live_in_channel(world.channel.id))
        sessions.append(list(world.channel.history()))
        await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)

    await run(":memory:", challenge)
    await run(":memory:", challenge)
    assert sessions == [None, [], None, []]


async def test_ada_owns_the_server_so_settings_can_be_tried(tmp_path):
    answers = []

    async def settings(world, _):
        answers.extend(private_texts(await world.ada.slash(world.channel, "settings turn_clock", clock="5m")))

    await run(tmp_path / "pg.db", settings)
    assert answers == [
        "Turn clock set to 5 minutes per turn for games that start from now on"
        " (a challenge's `clock:` option still chooses its own)."
    ]


# ------------------------------------------------------------ the page


class Page:
    """The browser's side of SimCord's Preview page, over its loopback HTTP API."""

    def __init__(self, http, preview_url: str):
        parts = urlsplit(preview_url)
        self.http, self.base = http, f"{parts.scheme}://{parts.netloc}"
        self.headers = {"X-Simcord-Capability": parts.fragment}
        self.snapshot: dict = {}

    async def open(self) -> None:
        async with self.http.post(self.base + "/api/pages", json={}, headers=self.headers) as response:
            self.snapshot = await response.json()
        self.headers["X-Simcord-Context"] = self.snapshot["context"]["id"]

    async def read(self) -> dict:
        """What the page's own polling reads (it never asks the bot for anything)."""
        async with self.http.get(self.base + "/api/state", headers=self.headers) as response:
            self.snapshot = await response.json()
        return self.snapshot

    def texts(self) -> list[str]:
        return [message.get("content") or "" for message in self.snapshot["messages"].values()]

    async def shows(self, text: str, polls: int = 100) -> bool:
        """Whether ``text`` appears in the page while it polls as the browser does (at most
        ``polls`` reads, 0.1 s apart)."""
        for _ in range(polls):
            if any(text in shown for shown in self.texts()):
                return True
            await asyncio.sleep(0.1)
            await self.read()
        return False

    async def click(self, message, label: str) -> dict:
        """Click a button as the page does: by the control the published snapshot shows."""
        components = self.snapshot["messages"][str(message.id)]["components"]
        key = next(c["control_key"] for c in walk(components) if c.get("label") == label)
        body = {
            "protocol_version": 3,
            "sequence": 1,
            "request_id": str(uuid.uuid4()),
            "generation": self.snapshot["context"]["generation"],
            "bot_generation": self.snapshot["botGeneration"],
            "published_revision": self.snapshot["publishedRevision"],
            "kind": "click",
            "target_id": str(message.id),
            "control_key": key,
        }
        async with self.http.post(self.base + "/api/action", json=body, headers=self.headers) as response:
            return await response.json()


def walk(node):
    if isinstance(node, dict):
        yield node
        yield from (found for value in node.values() for found in walk(value))
    elif isinstance(node, list):
        yield from (found for value in node for found in walk(value))


async def on_page(world, the_playground, channel_name: str, play) -> None:
    """Open ``channel_name`` in the page as a browser does, then ``play(channel, page)``."""
    import aiohttp

    channel = world.channels[channel_name]
    preview = await the_playground.show(channel)
    async with aiohttp.ClientSession() as http:
        page = Page(http, preview.url)
        await page.open()
        await play(channel, page)


async def test_what_a_timer_does_reaches_the_open_page_without_a_click(tmp_path):
    seen = {}

    async def octagion_round_ends_by_its_timer(world, the_playground):
        async def play(channel, page):
            await world.ada.slash(channel, "octagion start", rounds=1)
            await world.ada.click(channel.last_message, label="Start")
            await page.read()
            seen["before"] = page.texts()
            session = await world.platform.sessions.live_in_channel(channel.id)
            await world.env.advance_time(session.state.seconds + 1)  # the round's timer fires
            seen["shown"] = await page.shows("### Round 1 of 1: result")
            seen["clicked"] = page.snapshot["lastAction"]

        await on_page(world, the_playground, "octagion", play)

    async def challenge_expires(world, the_playground):
        async def play(channel, page):
            await world.ada.slash(channel, "octego challenge", opponent=world.bo)
            await world.env.advance_time(CHALLENGE_SECONDS + 1)
            seen["expired"] = await page.shows("challenge from <@")

        await on_page(world, the_playground, "octego", play)

    await run(tmp_path / "pg.db", octagion_round_ends_by_its_timer)
    await run(tmp_path / "pg.db", challenge_expires)
    assert not any("result" in text for text in seen["before"])
    assert seen["shown"]
    assert seen["clicked"] is None  # nobody clicked anything in the page
    assert seen["expired"]


async def test_got_it_comes_back_with_the_result_without_waiting_for_the_next_round(tmp_path):
    """A page action used to settle all the bot's work, the 15-second pause before the next
    round included. Now the click's receipt comes back once its own work is done: the result is
    in the page, and the next round's timer has not fired yet."""
    seen = {}

    async def got_it(world, the_playground):
        async def play(channel, page):
            await world.ada.slash(channel, "octagion start", rounds=2)
            await world.bo.click(channel.last_message, label="Join")
            await world.ada.click(channel.last_message, label="Start")
            seen["round_shown"] = await page.shows("**Round 1 of 2**")
            seen["receipt"] = await page.click(channel.last_message, "Got it!")
            seen["channel"] = [message.content for message in channel.history()]
            session = await world.platform.sessions.live_in_channel(channel.id)
            seen["timers"] = [timer.kind for timer in await world.platform.store.timers(session.id)]
            await page.read()
            seen["page"] = page.texts()

        await on_page(world, the_playground, "octagion", play)

    await run(tmp_path / "pg.db", got_it)
    assert seen["round_shown"]
    assert seen["receipt"]["settlement"] == "settled"
    assert not seen["receipt"]["rejected"]
    assert any(text.startswith("### Round 1 of 2: result") for text in seen["channel"])
    assert not any("Round 2 of 2" in text for text in seen["channel"])
    assert NEXT_ROUND in seen["timers"]  # the pause is still running
    assert any(text.startswith("### Round 1 of 2: result") for text in seen["page"])


async def test_the_channel_page_moves_the_preview_and_offers_apps_challenge(tmp_path):
    import aiohttp

    seen = {}

    async def browse(world, the_playground):
        url = seen["url"] = the_playground.url
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as response:
                seen["page"] = await response.text()
            async with http.get(url + "channel/octego", allow_redirects=False) as response:
                seen["octego"] = (response.status, response.headers["Location"])
            seen["page_url"] = the_playground.page_url
            seen["shown"] = the_playground.preview.channel.id == world.channels["octego"].id
            form = {"member": "Bo", "target": "Cy", "channel": "octa"}
            async with http.post(url + "challenge", data=form, allow_redirects=False) as response:
                seen["challenge"] = response.status
            preview = the_playground.preview
            seen["after_challenge"] = (preview.channel.id == world.channels["octa"].id, preview.viewers[0].id)
            page = Page(http, the_playground.page_url)  # where the redirect goes
            await page.open()
            seen["menu"] = page.texts()
            async with http.get(the_playground.page_url.split("#")[0]) as response:  # the Preview's page
                seen["preview_page"] = (response.status, await response.text())
            stranger = Page(http, the_playground.page_url.split("#")[0] + "#not-the-token")
            async with http.post(stranger.base + "/api/pages", json={}, headers=stranger.headers) as response:
                seen["stranger"] = response.status
            async with http.get(url.replace(url.split("/")[3], "not-the-token")) as response:
                seen["guessed"] = response.status
            async with http.get(url, headers={"Host": "attacker.example"}) as response:
                seen["other_host"] = response.status
            seen["bo"] = world.bo.id
            seen["cy"] = world.cy.mention

    await run(tmp_path / "pg.db", browse)
    assert all(f'channel/{name}"' in seen["page"] for name in ("games", "octagion", "octego", "octa", "octiles"))
    assert "Apps &gt; Challenge" in seen["page"]
    assert seen["octego"] == (303, seen["page_url"])
    assert urlsplit(seen["page_url"]).netloc == urlsplit(seen["url"]).netloc  # one port for every page
    assert seen["preview_page"][0] == 200
    assert '<script src="/playground-tab.js"></script>' in seen["preview_page"][1]
    assert seen["stranger"] == 401
    assert seen["shown"]
    assert seen["challenge"] == 303
    assert seen["after_challenge"] == (True, seen["bo"])
    assert seen["menu"] == [f"Challenge {seen['cy']} to which game?"]  # Bo sees his private game menu
    assert seen["guessed"] == 404
    assert seen["other_host"] == 403


async def test_games_runs_a_tournament_of_the_four_members_and_the_computer_across_a_restart(tmp_path):
    """Ada owns the server, so she can host; the computer plays its own games; the card comes back."""
    database = tmp_path / "pg.db"
    first = {}

    async def open_it(world, _):
        world.platform.new_seed = lambda: 7
        created = await world.ada.slash(
            world.channel, "tournament create", game="octego", format="swiss", computer=True
        )
        first["created"] = private_texts(created)[-1]
        card = world.channel.last_message
        for member in world.members:
            await member.click(card, label="Join")
        first["started"] = private_texts(await world.ada.click(world.channel.last_message, label="Start"))[-1]
        await world.env.settle()
        (event,) = await world.platform.store.query("SELECT id FROM sessions WHERE game = 'tournament'")
        first["event"] = event[0]
        session = await world.platform.sessions.load(event[0])
        first["players"] = len(session.state.players)
        first["computer"] = world.bot.user.id in [p.id for p in session.state.players]
        first["errors"] = list(world.platform.errors)

    await run(database, open_it)
    assert "is open" in first["created"]
    assert first["players"] == 5
    assert first["computer"]
    assert first["errors"] == []
    second = {}

    async def go_on(world, _):
        session = await world.platform.sessions.load(first["event"])
        second["card"] = world.message(session.record.card_id).content
        second["round"] = len(session.state.rounds)
        second["errors"] = list(world.platform.errors)

    await run(database, go_on)
    assert "Round 1 of 3" in second["card"], second["card"]
    assert second["round"] == 1
    assert second["errors"] == []
