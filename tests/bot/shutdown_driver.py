"""A real bot process under load that is stopped by SIGTERM, and the process that starts after it.

    python -m tests.bot.shutdown_driver <db_path> play
    python -m tests.bot.shutdown_driver <db_path> resume

``play``: Tiny games in three channels of a SimCord world (in this process), Ada and Bo clicking
+1 in turn as fast as the bot answers, a new game wherever one ended. It prints ``{"phase":
"loaded"}`` once the load runs; the test then sends SIGTERM, which the bot's own handler
(``bot.core.shutdown``) turns into a graceful stop while the clicks go on. When the stop is over
it prints one line of JSON: every click's outcome (``ok``: the move was taken; ``restarting``;
anything else), the moves taken per session, and the ids of the outbox entries it delivered.

``resume``: a new process on the same file builds the same world (the ids aligned as in
``tests.bot.crash_driver``), starts the bot, lets the outbox send what was left, and prints the
ids it delivered and what the database holds.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.app import create_bot
from bot.core import shutdown
from bot.core.outbox import Outbox
from bot.core.settings import Settings
from bot.dev.discord_rules import use_discord_rules
from bot.dev.world import World, build_world, private_texts
from bot.ui.replies import RESTARTING_TEXT
from tests.bot.crash_driver import align_snowflakes, emit
from tests.bot.settle import use_settle_limit
from tests.bot.tinygame import TinyAdapter

EXTRA_CHANNELS = ("more-games", "even-more-games")
PLAY_LIMIT_SECONDS = 120  # the test sends SIGTERM long before
RESUME_SECONDS = 30  # virtual seconds for the outbox to send what was left


def settings(db_path: str) -> Settings:
    return Settings(token=None, database_path=db_path, game_threads=False)


def channels(world: World) -> list[Any]:
    return [world.channel, *(world.guild.create_text_channel(name) for name in EXTRA_CHANNELS)]


def record_deliveries() -> list[int]:
    """The ids of the outbox entries this process sends (its sender wrapped, before any bot starts)."""
    delivered: list[int] = []
    send = Outbox._send

    async def send_and_record(self, batch):
        sent = await send(self, batch)
        if sent is True:
            delivered.extend(entry.id for entry in batch)
        return sent

    Outbox._send = send_and_record
    return delivered


async def one_click(world: World, channel: Any, outcomes: list[str], moves: dict[str, int]) -> None:
    """The player on turn adds 1 in this channel's game (or a new game starts there). Once the
    bot is stopping its database may be closed: the driver then reads nothing."""
    if shutdown.is_stopping(world.bot):  # a new challenge: answered before anything is read
        answer = await world.ada.slash(channel, "tiny challenge", opponent=world.bo)
        texts = private_texts(answer)
        outcomes.append("restarting" if texts == [RESTARTING_TEXT] else (texts or ["no answer"])[-1])
        CLICKED_WHILE_STOPPING.set()
        return
    session = await world.platform.sessions.live_in_channel(channel.id)
    if session is None or session.status != "active":
        await world.ada.slash(channel, "tiny challenge", opponent=world.bo)
        challenge = channel.last_message
        if challenge is not None and "challenges you" in challenge.content:
            await world.bo.click(challenge, label="Accept")
        return
    player = (world.ada, world.bo)[session.state.turn]
    game = next(m for m in reversed(channel.history()) if m.id == session.record.message_id)
    LAST_SEEN[channel.id] = (player, game, session.id)
    await click(LAST_SEEN[channel.id], outcomes, moves)


LAST_SEEN: dict[int, tuple[Any, Any, int]] = {}
# Set once a click came while the bot was stopping. The stop waits for it before its flush, so
# that the clicks during the stop are never outrun by a stop that ends (and closes the bot) first.
CLICKED_WHILE_STOPPING = asyncio.Event()


def stop_after_a_click_while_stopping(bot: Any) -> None:
    outbox = bot.platform.outbox
    finish = outbox.finish

    async def finish_after_the_click(seconds: float) -> bool:
        await CLICKED_WHILE_STOPPING.wait()
        return await finish(seconds)

    outbox.finish = finish_after_the_click  # per channel: who was on turn, the game's message, its session


async def click(seen: tuple[Any, Any, int], outcomes: list[str], moves: dict[str, int]) -> None:
    player, game, session_id = seen
    answer = await player.click(game, label="+1")
    texts = private_texts(answer)
    outcome = "ok" if not texts else ("restarting" if texts == [RESTARTING_TEXT] else texts[-1])
    outcomes.append(outcome)
    if outcome == "ok":
        moves[str(session_id)] = moves.get(str(session_id), 0) + 1


async def play(db_path: str) -> int:
    delivered = record_deliveries()
    bot = create_bot(settings(db_path), [TinyAdapter])
    outcomes: list[str] = []
    moves: dict[str, int] = {}
    async with simcord.run(bot, check_errors=False) as env:
        world = build_world(env)
        places = channels(world)
        stop_after_a_click_while_stopping(bot)
        shutdown.install_signal_handlers(bot)
        emit({"phase": "loaded"})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PLAY_LIMIT_SECONDS
        while not shutdown.is_stopping(bot) and loop.time() < deadline:
            for channel in places:
                if shutdown.is_stopping(bot):
                    break
                await one_click(world, channel, outcomes, moves)
        while outcomes[-1:] != ["restarting"]:  # clicks while it stops
            await one_click(world, places[0], outcomes, moves)
        await shutdown.stopped(bot)
        errors = [f"{type(e).__name__}: {e}" for e in bot.platform.errors]
    emit({"phase": "play", "outcomes": outcomes, "moves": moves, "delivered": delivered, "bot_errors": errors})
    return 0


def stored_guild(db_path: str) -> int:
    db = sqlite3.connect(Path(db_path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return db.execute("SELECT guild_id FROM sessions ORDER BY id LIMIT 1").fetchone()[0]
    finally:
        db.close()


async def resume(db_path: str) -> int:
    delivered = record_deliveries()
    async with simcord.run(discord.Client(intents=discord.Intents.default()), check_errors=False) as env:
        align_snowflakes(env, stored_guild(db_path))
        world = build_world(env)
        channels(world)
        bot = create_bot(settings(db_path), [TinyAdapter])
        try:
            await env.restart_bot(bot)  # on_ready starts the outbox: what was left goes out
            await env.advance_time(RESUME_SECONDS)
            errors = [f"{type(e).__name__}: {e}" for e in bot.platform.errors]
        finally:
            await bot.release()
    emit({"phase": "resume", "delivered": delivered, "bot_errors": errors})
    return 0


def main(argv: list[str]) -> int:
    use_settle_limit()
    use_discord_rules()  # Discord's rules, as in the test process
    if len(argv) != 2 or argv[1] not in ("play", "resume"):
        print("usage: python -m tests.bot.shutdown_driver <db_path> play|resume", file=sys.stderr)
        return 2
    db_path, phase = argv
    return asyncio.run(play(db_path) if phase == "play" else resume(db_path))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
