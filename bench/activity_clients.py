"""The open boards of ``python -m bench activity``, in a process of their own (so that none of their
CPU counts as the bot's): real WebSocket clients on 127.0.0.1, each a member's page, and the
players' clicks offered at a fixed rate.

Reads its plan (JSON) on stdin: the server's port, the games with their boards (a token and a
seat, None for a spectator), the rate, the seconds to warm up and to measure. Prints ``open``
once every board has its first view, ``measuring`` and ``measured`` around the measured window,
then one line of JSON: the times from a click to its own board's view of the new version, and to
each other board's, the moves done and refused.

A move is played as on the page: the player on turn picks one of the options of the step their
board shows, the server answers with the narrowed view, and so on until the choices name one
action, which is sent (``act``); the time is taken from that last click.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

WAIT = 60.0  # a view that does not come within this is counted lost


@dataclass
class Board:
    token: str
    seat: int | None
    socket: aiohttp.ClientWebSocketResponse | None = None
    views: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    seen: dict[int, float] = field(default_factory=dict)  # version -> when it arrived
    latest: dict[str, Any] = field(default_factory=dict)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    refusals: int = 0  # acts refused (busy, stale): the version they would have made never comes


@dataclass
class Game:
    session: int
    boards: list[Board]
    done: bool = False


@dataclass
class Tally:
    own: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    lost: int = 0
    unoffered: int = 0
    ended: int = 0
    measuring: bool = False


async def read(board: Board) -> None:
    assert board.socket is not None
    async for message in board.socket:
        if message.type != aiohttp.WSMsgType.TEXT:
            continue
        said = json.loads(message.data)
        if said.get("type") == "view":
            board.seen.setdefault(said["version"], time.perf_counter())
            if not said.get("picks"):
                board.latest = said
            board.arrived.set()
        elif said.get("type") == "refused":
            board.refusals += 1
            board.arrived.set()
        await board.views.put(said)


async def until_seen(board: Board, version: int, deadline: float, refusals: int | None = None) -> float | None:
    """When ``board`` first showed ``version`` (None: not by the deadline, or its act was refused
    after ``refusals`` refusals)."""
    while version not in board.seen:
        if refusals is not None and board.refusals > refusals:
            return None
        board.arrived.clear()
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return None
        try:
            await asyncio.wait_for(board.arrived.wait(), remaining)
        except TimeoutError:
            return None
    return board.seen[version]


async def answer(board: Board) -> dict[str, Any]:
    """The next message this board's own clicks get (a narrowed view or a refusal)."""
    while True:
        said = await asyncio.wait_for(board.views.get(), WAIT)
        if said.get("type") != "view" or said.get("picks"):
            return said


async def move(game: Game, tally: Tally, rng: random.Random) -> None:
    actor = next(
        (b for b in game.boards if b.seat is not None and (b.latest.get("step") or b.latest.get("ready"))), None
    )
    if actor is None or actor.socket is None:
        game.done = game.done or any(b.latest.get("done") for b in game.boards)
        tally.unoffered += 1
        return
    version = actor.latest["version"]
    view, picks = actor.latest, list[str]()
    while not view.get("ready"):
        step = view.get("step") or {}
        options = [option["key"] for option in step.get("options", [])]
        if not options:
            tally.refused += 1
            return
        picks = [*picks, rng.choice(options)]
        while not actor.views.empty():  # what came before this click (a push) is not its answer
            actor.views.get_nowait()
        await actor.socket.send_json({"type": "pick", "picks": picks})
        view = await answer(actor)
        if view.get("type") != "view":
            tally.refused += 1
            return
    refusals = actor.refusals
    clicked = time.perf_counter()
    await actor.socket.send_json({"type": "act", "picks": picks, "version": version})
    deadline = clicked + WAIT
    own = await until_seen(actor, version + 1, deadline, refusals)
    if own is None:
        if actor.refusals > refusals:
            tally.refused += 1
        else:
            tally.lost += 1
        return
    others = [await until_seen(board, version + 1, deadline) for board in game.boards if board is not actor]
    if tally.measuring:
        tally.moves += 1
        tally.own.append(own - clicked)
        tally.others += [seen - clicked for seen in others if seen is not None]
        tally.lost += sum(seen is None for seen in others)


def finished(moving: set[asyncio.Task[None]], idle: list[Game], game: Game, done: asyncio.Task[None]) -> None:
    """A game's move is over: the game may be offered again."""
    moving.discard(done)
    idle.append(game)


async def offer(games: list[Game], tally: Tally, rate: float, seconds: float, rng: random.Random) -> None:
    idle = [game for game in games if not game.done]
    moving: set[asyncio.Task[None]] = set()
    start = time.perf_counter()
    for tick in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, start + tick / rate - time.perf_counter()))
        ready = [game for game in idle if not game.done]
        if not ready:
            tally.unoffered += 1
            continue
        game = ready[rng.randrange(len(ready))]
        idle.remove(game)
        task = asyncio.ensure_future(move(game, tally, rng))
        moving.add(task)
        task.add_done_callback(functools.partial(finished, moving, idle, game))
    if moving:
        await asyncio.wait(moving, timeout=WAIT)


async def open_boards(
    http: aiohttp.ClientSession, url: str, boards: list[tuple[Game, Board]], readers: list[asyncio.Future[None]]
) -> None:
    """Each board connected and said hello; back once every one has its first view."""
    for game, board in boards:
        board.socket = await http.ws_connect(url, max_msg_size=0)
        readers.append(asyncio.ensure_future(read(board)))
        await board.socket.send_json({"type": "hello", "token": board.token, "session": game.session})
    for _, board in boards:
        while not board.seen:  # its first view (seen is filled before arrived is set)
            await asyncio.wait_for(board.arrived.wait(), WAIT)


async def main(plan: dict[str, Any]) -> dict[str, Any]:
    rng = random.Random(plan.get("seed", 1))
    url = f"http://127.0.0.1:{plan['port']}/api/ws"
    games = [Game(g["session"], [Board(b["token"], b["seat"]) for b in g["boards"]]) for g in plan["games"]]
    tally = Tally()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:  # a page each: no pool limit
        readers: list[asyncio.Future[None]] = []
        # First one board a game (what every open game costs, whoever watches: its picture drawn,
        # the workers warm), then the others: the bot measures its memory after each.
        await open_boards(http, url, [(game, game.boards[-1]) for game in games], readers)
        print("first", flush=True)
        sys.stdin.readline()
        await open_boards(http, url, [(game, board) for game in games for board in game.boards[:-1]], readers)
        print("open", flush=True)
        sys.stdin.readline()
        await offer(games, tally, plan["rate"], plan["warmup"], rng)
        print("measuring", flush=True)
        tally.measuring = True
        started = time.perf_counter()
        await offer(games, tally, plan["rate"], plan["seconds"], rng)
        elapsed = time.perf_counter() - started
        print("measured", flush=True)
        for game in games:
            for board in game.boards:
                if board.socket is not None:
                    await board.socket.close()
        for reader in readers:
            reader.cancel()
    tally.ended = sum(game.done for game in games)
    return {
        "own": tally.own,
        "others": tally.others,
        "moves": tally.moves,
        "moves/s": tally.moves / elapsed,
        "refused": tally.refused,
        "lost": tally.lost,
        "unoffered": tally.unoffered,
        "ended": tally.ended,
    }


if __name__ == "__main__":
    given = json.loads(sys.stdin.readline())
    print(json.dumps(asyncio.run(main(given))), flush=True)
