"""The Activity's server with no browser: real WebSocket clients (aiohttp) on 127.0.0.1 against the
bot's own server, the bot on SimCord. Two members and a spectator watch one Octego game; a move on
the board shows in the Discord message and every other board, a move in Discord shows on every
board, a member who is not seated is refused with nothing changed, and a board reconnects (with
the last version it saw) after a dropped connection and after a restart of the bot."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from bot.core.settings import Settings
from bot.features.activity.auth import Identity
from bot.games.octego import MOVE_MENU, OctegoAdapter
from bot.ui.menu_steps import narrow
from engines.octego import ENGINE

SEED = 1234
# Ada (seat 0) to move; her 1 on c5 can take Bo's Octego on d6 (tests/bot/test_octego_bot.py's position).
POSITION = {"position": "Od1 Oe1 1c5 1g5 / Od6 Of6 1a8 2h8", "to_move": 0}
WAIT = 10.0  # the most a board waits for a message before the test fails (not a timing assertion)


@pytest.fixture
def games():
    return [OctegoAdapter]


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "test.db"), game_threads=False, activity_port=0)


class BoardClient:
    """One open board, as the page keeps it: a WebSocket and the last version it saw."""

    def __init__(self, http: aiohttp.ClientSession, server: Any, member: Any, world: Any):
        self.http, self.server, self.member, self.world = http, server, member, world
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.version: int | None = None

    def token(self, guild_id: int | None = None, channel_id: int | None = None) -> str:
        identity = Identity(
            self.member.id, self.member.name, guild_id or self.world.guild.id, channel_id or self.world.channel.id
        )
        return self.server.tokens.issue(identity)

    async def open(self, session_id: int, token: str | None = None) -> dict[str, Any]:
        self.socket = await self.http.ws_connect(f"http://127.0.0.1:{self.server.port}/api/ws")
        hello = {"type": "hello", "token": token or self.token(), "session": session_id, "since": self.version}
        await self.socket.send_json(hello)
        return await self.next()

    async def next(self) -> dict[str, Any]:
        assert self.socket is not None
        said = await self.socket.receive_json(timeout=WAIT)
        if said["type"] == "view":
            self.version = said["version"]
        return said

    async def view_at(self, version: int) -> dict[str, Any]:
        """The next views until one of ``version`` (a change in between may be skipped: the latest wins)."""
        while True:
            said = await self.next()
            assert said["type"] == "view", said
            if said["version"] >= version:
                assert said["version"] == version, said
                return said

    async def act(self, picks: list[str], version: int) -> None:
        assert self.socket is not None
        await self.socket.send_json({"type": "act", "picks": picks, "version": version})


def picks_for(session: Any, seat: int, action: dict[str, Any]) -> list[str]:
    """The choices a player makes on the board for ``action``: one per step the menu asks."""
    actions = [a for a in ENGINE.legal_actions(session.state, seat) if a["type"] != "resign"]
    picks: list[str] = []
    at, index = narrow(MOVE_MENU, session, seat, picks, actions)
    while index is not None:
        picks.append(MOVE_MENU.steps[index].key(action))
        at, index = narrow(MOVE_MENU, session, seat, picks, actions)
    assert at.actions == [action]
    return picks


async def start(world) -> Any:
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    session = await world.session()
    await world.set_state(session.id, ENGINE.new_game(2, POSITION, SEED))
    return await world.platform.sessions.load(session.id)


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as client:
        yield client


async def test_a_move_on_the_board_shows_in_discord_and_on_every_board(world, http):
    session = await start(world)
    server = world.bot.activity_server
    ada, bo, cy = (BoardClient(http, server, member, world) for member in (world.ada, world.bo, world.cy))
    first = session.action_number
    views = [await board.open(session.id) for board in (ada, bo, cy)]
    for view in views:
        assert (view["type"], view["session"], view["version"]) == ("view", session.id, first)
        assert view["picture"]
    assert [view["seat"] for view in views] == [0, 1, None]
    assert views[0]["step"] is not None  # Ada is on turn: she is asked for her piece
    assert views[1]["step"] is None
    assert views[2]["step"] is None
    # A choice under way is shown to Ada alone: the piece's destinations.
    await ada.socket.send_json({"type": "pick", "picks": ["c5"]})
    narrowed = await ada.next()
    assert (narrowed["version"], narrowed["picks"]) == (first, ["c5"])
    assert "d6" in [option["key"] for option in narrowed["step"]["options"]]
    action = next(a for a in ENGINE.legal_actions(session.state, 0) if a.get("path") == "c5xd6")
    await ada.act(picks_for(session, 0, action), first)
    for board in (ada, bo, cy):
        assert (await board.view_at(first + 1))["session"] == session.id
    await world.env.advance_time(5)  # the game message is edited at its channel's pace
    message = world.message(session.record.message_id)
    assert "**Ada** moved c5xd6, capturing **Bo**'s Octego." in message.content

    # A move made in Discord shows on every board.
    result = await world.bo.slash(world.channel, "octego move", path="a8-b7")
    assert result.ephemeral
    for board in (ada, bo, cy):
        await board.view_at(first + 2)


async def test_a_member_not_seated_or_not_on_turn_is_refused_and_nothing_changes(world, http):
    session = await start(world)
    server = world.bot.activity_server
    bo, cy = BoardClient(http, server, world.bo, world), BoardClient(http, server, world.cy, world)
    version = session.action_number
    await bo.open(session.id)
    await cy.open(session.id)
    action = next(a for a in ENGINE.legal_actions(session.state, 0) if a.get("path") == "c5xd6")
    await cy.act(picks_for(session, 0, action), version)
    assert await cy.next() == {"type": "refused", "reason": "You are not playing in this game."}
    await bo.act(picks_for(session, 0, action), version)
    refused = await bo.next()
    assert refused["type"] == "refused"
    assert refused["reason"] == f"It is {world.ada.mention}'s turn."
    assert (await world.platform.sessions.load(session.id)).action_number == version


async def test_a_typed_answer_on_a_game_played_by_choices_is_refused(world, http):
    session = await start(world)
    ada = BoardClient(http, world.bot.activity_server, world.ada, world)
    await ada.open(session.id)
    await ada.socket.send_json({"type": "race", "answer": "c5xd6"})
    assert await ada.next() == {
        "type": "refused",
        "reason": "Octego is played by choosing on the board, not by typing.",
    }
    assert (await world.platform.sessions.load(session.id)).action_number == session.action_number


async def test_a_board_for_another_server_or_channel_is_refused(world, http):
    session = await start(world)
    cy = BoardClient(http, world.bot.activity_server, world.cy, world)
    refused = await cy.open(session.id, token=cy.token(guild_id=world.guild.id + 1))
    assert refused == {"type": "error", "reason": "This board was opened in another server."}
    cy.socket = None
    refused = await cy.open(session.id, token=cy.token(channel_id=world.channel.id + 1))
    assert refused == {"type": "error", "reason": "This game is not in the channel the board was opened in."}


async def test_a_board_reconnects_with_the_last_version_and_after_a_restart(world, http, settings):
    session = await start(world)
    ada = BoardClient(http, world.bot.activity_server, world.ada, world)
    first = (await ada.open(session.id))["version"]
    await ada.socket.close()  # a dropped connection: the page opens another with since = what it saw
    action = next(a for a in ENGINE.legal_actions(session.state, 0) if a.get("path") == "c5xd6")
    await world.ada.slash(world.channel, "octego move", path=action["path"])
    assert ada.version == first
    assert (await ada.open(session.id))["version"] == first + 1

    await world.restart(settings, [OctegoAdapter])
    assert ada.socket is not None
    closed = await ada.socket.receive(timeout=WAIT)  # the old bot's server closed every board
    assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    ada.server = world.bot.activity_server  # the restarted bot's (port 0 in the tests: a fixed ACTIVITY_PORT keeps it)
    assert (await ada.open(session.id))["version"] == first + 1  # its token still reads: the key is kept
    await world.bo.slash(world.channel, "octego move", path="a8-b7")
    await ada.view_at(first + 2)


async def test_the_api_signs_in_only_what_it_may_and_lists_the_channels_games(world, http):
    session = await start(world)
    server = world.bot.activity_server
    base = f"http://127.0.0.1:{server.port}"
    mock = {"mock_user_id": str(world.cy.id), "guild_id": str(world.guild.id), "channel_id": str(world.channel.id)}
    async with http.post(f"{base}/api/session", json=mock) as answer:
        assert answer.status == 403  # the playground's stand-in sign-in: not on a bot's own server
    async with http.post(f"{base}/api/token", json={"code": "abc"}) as answer:
        assert answer.status == 503  # no client secret: no sign-in with Discord
        assert "DISCORD_CLIENT_SECRET" in (await answer.json())["error"]
    server.playground = True
    async with http.post(f"{base}/api/session", json=mock) as answer:
        signed = await answer.json()
    assert signed["user"] == {"id": str(world.cy.id), "name": "Cy"}  # as the server shows her
    stranger = {**mock, "mock_user_id": str(world.env.create_user("eve").id)}
    async with http.post(f"{base}/api/session", json=stranger) as answer:
        assert (answer.status, await answer.json()) == (403, {"error": "You are not a member of that server."})
    async with http.get(f"{base}/api/games") as answer:
        assert answer.status == 401
    async with http.get(f"{base}/api/games", headers={"Authorization": f"Bearer {signed['token']}"}) as answer:
        listed = await answer.json()
    (game,) = listed["games"]
    assert game == {
        "session": session.id,
        "game": "octego",
        "title": "Octego",
        "players": ["Ada", "Bo"],
        "status": "active",
    }


async def test_the_playground_serves_the_board_with_its_stand_in_sign_in(tmp_path):
    """The playground starts its own Activity (no token, no secret): "Open the board" on its games,
    the page's address, and a board signed in as the member "Viewing as" picks."""
    from bot.dev import playground

    stop = asyncio.Event()
    seen: dict[str, Any] = {}

    async def play(world, _preview):
        server = world.bot.activity_server
        await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
        await world.bo.click(world.channel.last_message, label="Accept")
        [thread] = world.channel.threads
        session = await world.platform.sessions.live_in_channel(thread.id)
        seen["labels"] = [c.label for row in thread.last_message.components for c in row.children]
        seen["page"] = world.platform.board.page
        async with aiohttp.ClientSession() as http:
            sign_in = {"mock_user_id": str(world.bo.id), "guild_id": str(world.guild.id), "channel_id": str(thread.id)}
            async with http.post(f"{server.local_url}api/session", json=sign_in) as answer:
                token = (await answer.json())["token"]
            socket = await http.ws_connect(f"{server.local_url}api/ws")
            await socket.send_json({"type": "hello", "token": token, "session": session.id, "since": None})
            seen["view"] = await socket.receive_json(timeout=WAIT)
            await socket.close()
        stop.set()

    await playground.run_playground(Settings(database_path=str(tmp_path / "pg.db")), ready=play, stop=stop)
    assert "Open the board" in seen["labels"]
    assert seen["page"].startswith("http://127.0.0.1:")
    assert (seen["view"]["type"], seen["view"]["seat"]) == ("view", 1)


async def test_a_game_started_on_the_board_is_a_challenge_of_its_channel(world, http):
    server = world.bot.activity_server
    base = f"http://127.0.0.1:{server.port}"
    ada = BoardClient(http, server, world.ada, world)
    headers = {"Authorization": f"Bearer {ada.token()}"}
    async with http.get(f"{base}/api/games", headers=headers) as answer:
        assert (await answer.json()) == {"games": [], "can_start": ["octego"]}
    async with http.post(
        f"{base}/api/games", headers=headers, json={"game": "octego", "opponent": str(world.ada.id)}
    ) as answer:
        assert (answer.status, await answer.json()) == (
            400,
            {"error": "You cannot challenge yourself. Mention a friend, or mention me to play the computer."},
        )
    async with http.post(
        f"{base}/api/games", headers=headers, json={"game": "octego", "opponent": str(world.bo.id)}
    ) as answer:
        started = await answer.json()
    session = await world.session()
    assert started == {"session": session.id}
    assert session.status == "challenge"
    challenge = world.channel.last_message
    assert "challenges you to **Octego**" in challenge.content  # the invitation, as the slash command posts it
    await world.bo.click(challenge, label="Accept")
    assert (await world.session()).status == "active"
    async with http.post(
        f"{base}/api/games", headers=headers, json={"game": "chess", "opponent": "computer"}
    ) as answer:
        assert (answer.status, await answer.json()) == (400, {"error": "That game cannot be started from the board."})


async def test_a_game_against_the_computer_starts_at_once_from_the_board(world, http):
    server = world.bot.activity_server
    headers = {"Authorization": f"Bearer {BoardClient(http, server, world.cy, world).token()}"}
    body = {"game": "octego", "opponent": "computer"}
    async with http.post(f"http://127.0.0.1:{server.port}/api/games", headers=headers, json=body) as answer:
        started = await answer.json()
    session = await world.session()
    assert started == {"session": session.id}
    assert session.status == "active"
    assert session.players == [world.cy.id, world.bot.user.id]
