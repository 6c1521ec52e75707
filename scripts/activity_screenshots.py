"""README's screenshots of the Activity: every registered game's board as the player on turn sees
it and as a spectator does, in Debian's chromium (Playwright), at a phone's width.

    python scripts/activity_screenshots.py [folder]    (default: docs/activity)

The bot runs on SimCord with the playground's Activity (the SDK's DiscordSDKMock signs each member
in); each game is opened in a channel of its own, seeded, as a tournament opens one.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WIDTH = 360  # a phone's viewport, in CSS pixels: the picture is shown about 340 px wide


async def shoot(browser: Any, url: str, path: Path) -> None:
    context = await browser.new_context(viewport={"width": WIDTH, "height": 640}, device_scale_factor=1)
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_selector("#picture[src^='data:image/png']", timeout=20_000)
    await page.wait_for_timeout(300)
    await page.screenshot(path=str(path), full_page=True)
    await context.close()


async def main(folder: Path) -> None:
    import simcord
    from playwright.async_api import async_playwright

    from bot.app import create_bot
    from bot.core.settings import Settings
    from bot.dev.world import build_world
    from bot.features.activity.server import start_for_playground
    from scripts.take_screenshots import CHROMIUM, CHROMIUM_ARGS
    from tests.bot.test_activity_board import open_game
    from tests.games import GAMES

    with tempfile.TemporaryDirectory() as work:
        bot = create_bot(Settings(database_path=str(Path(work) / "shots.db"), game_threads=False))
        async with simcord.run(bot) as env:
            world = build_world(env)
            server = await start_for_playground(bot)
            eve = world.guild.add_member(env.create_user("eve", global_name="Eve"))
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
                for game, players, options in GAMES:
                    channel = world.guild.create_text_channel(f"{game}-{players}")
                    session_id = await open_game(world, game, players, options, channel)
                    session = await world.platform.sessions.load(session_id)
                    seat = world.platform.games[game].engine.to_act(session.state)[0]
                    for who, member_id in (("player", session.players[seat]), ("spectator", eve.id)):
                        query = f"session={session_id}&user={member_id}&guild={world.guild.id}&channel={channel.id}"
                        path = folder / f"{game}-{players}-{who}.png"
                        await shoot(browser, f"{server.local_url}?{query}", path)
                        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
                await browser.close()
        await bot.release()


if __name__ == "__main__":
    chosen = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "activity"
    chosen.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(chosen))
