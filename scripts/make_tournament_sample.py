"""Write docs/tournament-pairings.png and docs/tournament-standings.png, the pictures the README
shows: a Swiss tournament of six members of Octego run by the real bot against SimCord, from
``/tournament create`` to the podium, each picture as the bot posted it in the channel. Prints
the card and the messages along the way.

    python scripts/make_tournament_sample.py
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Ada", "Bo", "Cy", "Di", "Eve", "Fay")
SEED = 5


async def run() -> None:
    import simcord

    from bot.app import create_bot
    from bot.core.settings import Settings
    from bot.dev.world import build_world

    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(Settings(database_path=str(Path(folder) / "sample.db")))
        try:
            async with simcord.run(bot) as env:
                await play(env, build_world(env))
        finally:
            await bot.release()


async def play(env, world) -> None:
    from bot.features.tournaments import store as event_store

    platform = world.platform
    platform.new_seed = lambda: SEED
    hosts = world.guild.create_role("Hosts", permissions=discord.Permissions(manage_guild=True))
    members = [world.guild.add_member(env.create_user(n.lower(), global_name=n), roles=[hosts]) for n in NAMES]
    ada = members[0]
    await ada.slash(world.channel, "tournament create", game="octego", format="swiss", name="Octego Autumn Open")
    (event,) = await event_store.live_in_channel(platform.store, platform.sessions, world.channel.id)
    for member in members:
        await member.click(world.message(event.record.card_id), label="Join")
    print("CARD (open):\n" + world.message(event.record.card_id).content + "\n")
    await ada.click(world.message(event.record.card_id), label="Start")
    await env.settle()
    by_id = {m.id: m for m in members}
    number = 0
    while (session := await platform.sessions.load(event.id)).status == "active":
        number = len(session.state.rounds)
        if number == 1:
            pairings = next(m for m in world.channel.history() if "round 1 of" in m.content)
            save(env, pairings, "tournament-pairings.png")
            print("PAIRINGS:\n" + pairings.content + "\n")
            print("CARD (running):\n" + world.message(event.record.card_id).content + "\n")
        opened = await event_store.games_of_round(platform.store, event.id, number)
        for table, game_id in sorted(opened.items()):
            game = await platform.sessions.load(game_id)
            if game.status != "active":
                continue
            loser = game.players[(table + number) % 2]  # a different side resigns at each table
            thread = next(t for t in world.channel.threads if t.id == game.record.thread_id)
            await by_id[loser].slash(thread, "octego resign")
        await env.settle()
    final = next(m for m in reversed(world.channel.history()) if "final standings" in m.content)
    save(env, final, "tournament-standings.png")
    print("FINAL STANDINGS:\n" + final.content + "\n")
    print("CARD (final):\n" + world.message(event.record.card_id).content)


def save(env, message, name: str) -> None:
    target = ROOT / "docs" / name
    target.write_bytes(env.backend.cdn.get(message.attachments[0].url))
    print(f"{target.relative_to(ROOT)}: {target.stat().st_size:,} bytes")


if __name__ == "__main__":
    asyncio.run(run())
