"""The Activity's page in a real browser (Playwright with Debian's chromium, as the playground's
browser test; skipped without it, except in CI): the bot on SimCord serves the page with the
playground's stand-in sign-in (the SDK's DiscordSDKMock), members open one Octego game's board in
browser contexts of their own and play by clicking on the picture, a spectator watches."""

from __future__ import annotations

import base64
import io
import os

import pytest
from PIL import Image

from bot.core.settings import Settings
from bot.features.activity.server import start_for_playground
from bot.games import all_games
from bot.games.octagion.rounds import NEXT_ROUND_PAUSE
from scripts.take_screenshots import CHROMIUM, CHROMIUM_ARGS
from tests.bot.test_activity_board import open_game

pytestmark = pytest.mark.integration
SHOWN_MS = 10_000
PICTURE = "#picture[src^='data:image/png']"  # a board is shown
RACE_SEED = 1234
RESUMED_MS = 30_000  # a page retries after 1, 2, 4, 8 then 16 s while the bot is away
WATCH_THE_MESSAGE = """() => {
  const shown = document.querySelector('#message');
  window.saidDropped = false;
  new MutationObserver(() => { window.saidDropped ||= shown.textContent.includes('reconnecting'); })
    .observe(shown, { childList: true, characterData: true, subtree: true });
}"""


@pytest.fixture
def settings(tmp_path) -> Settings:
    # Game threads on (the default): a game's card is in the channel, its game message in its thread.
    return Settings(token=None, database_path=str(tmp_path / "test.db"))


@pytest.fixture
def games():
    return all_games()


@pytest.fixture
async def browser():
    if not CHROMIUM.exists():
        missing = f"{CHROMIUM} is missing: this test needs Debian's chromium (apt-get install chromium)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        found = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
        yield found
        await found.close()


async def serve_boards(world, port: int = 0):
    """The playground's Activity server (on ``port``, or a free one), started as the bot's own work:
    what a board asks then waits on the simulated clock, as the bot's own timers do."""
    with world.env._bot_scope():
        return await start_for_playground(world.bot, port)


async def board_of(browser, server, world, member_id: int, session_id: int, shown: str = PICTURE, route=None):
    page = await (await browser.new_context()).new_page()
    if route is not None:  # the page's WebSocket goes through the test on its way to the bot
        await page.route_web_socket("**/api/ws", route)
    query = f"session={session_id}&user={member_id}&guild={world.guild.id}&channel={world.channel.id}"
    await page.goto(f"{server.local_url}?{query}")
    await page.wait_for_selector(shown, timeout=SHOWN_MS)
    return page


async def test_two_members_move_by_clicking_and_a_spectator_sees_it(world, browser):
    server = await serve_boards(world)
    session_id = await open_game(world, "octego", 2, {})
    eve = world.guild.add_member(world.env.create_user("eve", global_name="Eve"))
    ada = await board_of(browser, server, world, world.ada.id, session_id)
    bo = await board_of(browser, server, world, world.bo.id, session_id)
    watching = await board_of(browser, server, world, eve.id, session_id)
    assert "You are watching" in await watching.inner_text("#status")
    assert await watching.locator(".region").count() == 0, "a spectator is offered nothing to click"
    await watching.click("#board")  # a member who is not seated tries to move: told why, nothing changes
    assert "You are not playing in this game" in await watching.inner_text("#message")
    assert (await world.platform.sessions.load(session_id)).state.ply == 0
    assert await bo.locator(".region").count() == 0, "only the player on turn is offered a step"
    before = await watching.get_attribute("#picture", "src")

    await ada.locator(".region").first.click()  # a piece: its destinations light up
    await ada.wait_for_function("document.querySelector('#prompt').textContent.includes('goes to')")
    await ada.locator(".region").first.click()  # where it goes
    await watching.wait_for_function(f"document.querySelector('#picture').src !== {before!r}", timeout=SHOWN_MS)
    session = await world.platform.sessions.load(session_id)
    assert session.state.ply == 1, "the click on the board played the move"
    await bo.wait_for_selector(".region", timeout=SHOWN_MS)  # now Bo's turn, on Bo's board
    assert await ada.locator(".region").count() == 0


async def test_a_members_octa_hand_is_on_their_board_only(world, browser):
    server = await serve_boards(world)
    session_id = await open_game(world, "octa", 2, {})
    session = await world.platform.sessions.load(session_id)
    eve = world.guild.add_member(world.env.create_user("eve", global_name="Eve"))
    boards = {
        name: await board_of(browser, server, world, member_id, session_id)
        for name, member_id in (("Ada", world.ada.id), ("Bo", world.bo.id), ("Eve", eve.id))
    }
    said = {name: await page.get_attribute("#picture", "alt") for name, page in boards.items()}
    for seat, name in enumerate(("Ada", "Bo")):
        hand = f"{name}'s hand ({len(session.state.hands[seat])} cards)"
        assert hand in said[name]
        assert all(hand not in text for other, text in said.items() if other != name), (name, said)


async def click_move(page, start: str, end: str) -> None:
    await page.locator(f".region[data-key='{start}']").click(timeout=SHOWN_MS)
    await page.locator(f".region[data-key='{end}']").click(timeout=SHOWN_MS)


async def move_seen_by_all(pages, page, start: str, end: str) -> None:
    """``page`` moves ``start`` to ``end``, then every page's picture is a new one (the move shown there)."""
    seen = [await each.get_attribute("#picture", "src") for each in pages]
    await click_move(page, start, end)
    for each, before in zip(pages, seen, strict=True):
        await each.wait_for_function(f"document.querySelector('#picture').src !== {before!r}", timeout=SHOWN_MS)


async def restart_the_bot(world, settings, games, boards) -> None:
    """The bot stopped and started again on the same database and the same port (ACTIVITY_PORT in a
    deployment), the pages left open: each shows that it reconnects, then goes on with no reload."""
    port = world.bot.activity_server.port
    for page in boards:  # window's variables are gone if anything reloads the page
        await page.evaluate(WATCH_THE_MESSAGE)
    await world.restart(settings, games)
    await serve_boards(world, port)
    for page in boards:  # it said it reconnects, and a view since then took the words away
        await page.wait_for_function(
            "window.saidDropped && document.querySelector('#message').hidden", timeout=RESUMED_MS
        )


async def test_an_octego_game_is_played_to_its_end_on_the_board_across_a_restart(world, browser, settings, games):
    from engines.octego import ENGINE

    await serve_boards(world)
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    card = world.channel.last_message
    await world.bo.click(card, label="Accept")
    [record] = await world.platform.store.threaded_sessions(world.channel.id)
    assert record.thread_id == card.id, "the game plays in a thread of its own, its card in #games"
    # Test set-up: a near-end position (Ada to move): her 1s on c5 and g5 attack Bo's Octegos.
    position = {"position": "Od1 Oe1 1c5 1g5 / Od6 Of6 1a8 2h8", "to_move": 0}
    await world.set_state(record.id, ENGINE.new_game(2, position, 11))
    eve = world.guild.add_member(world.env.create_user("eve", global_name="Eve"))
    server = world.bot.activity_server
    ada, bo, watching = [await board_of(browser, server, world, m.id, record.id) for m in (world.ada, world.bo, eve)]

    boards = (ada, bo, watching)
    await move_seen_by_all(boards, ada, "c5", "d6")
    assert (await world.platform.sessions.load(record.id)).state.ply == 1
    await restart_the_bot(world, settings, games, boards)
    for page, start, end, ply in ((bo, "a8", "b7", 2), (ada, "g5", "f6", 3)):
        await move_seen_by_all(boards, page, start, end)
        assert (await world.platform.sessions.load(record.id)).state.ply == ply
    for page in (ada, bo, watching):
        await page.wait_for_function("document.querySelector('#status').textContent.includes('won')", timeout=SHOWN_MS)
        await page.wait_for_function("document.querySelectorAll('.region').length === 0", timeout=SHOWN_MS)
    session = await world.platform.sessions.load(record.id)
    assert session.status == "finished"
    moves = [(move.player_id, move.action["path"]) for move in await world.platform.store.logged_moves(record.id)]
    assert moves == [(world.ada.id, "c5xd6"), (world.bo.id, "a8-b7"), (world.ada.id, "g5xf6")], "the game's record"
    await world.platform.outbox.flush(record.id)
    await world.env.advance_time(5)  # the card's edits keep their pace
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    game_message = next(m for m in thread.history() if m.id == session.record.message_id)
    won = f"🏆 {world.ada.mention} won (both Octegos captured)."
    assert "**Ada** moved g5xf6, capturing **Bo**'s Octego." in game_message.content
    assert won in game_message.content
    final = base64.b64decode((await watching.get_attribute("#picture", "src")).partition(",")[2])
    assert pixels(final) == pixels(world.env.backend.cdn.get(game_message.attachments[0].url)), (
        "the thread's final picture is the one the boards end on"
    )
    assert won in world.message(card.id).content, "the channel's card shows the finished game"


def pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").tobytes()


async def says(page, selector: str, text: str) -> None:
    """``page``'s ``selector`` comes to hold ``text``."""
    await page.wait_for_function(
        f"document.querySelector({selector!r}).textContent.includes({text!r})", timeout=SHOWN_MS
    )


async def buttons(page) -> list[str]:
    return await page.locator("#buttons button").all_inner_texts()


class SlowAnswers:
    """A page's network, slow for its typed answers while ``slow``: each is held on its way to the bot
    until let go."""

    def __init__(self):
        self.slow = False
        self.held: list[str | bytes] = []
        self.to_bot = None

    def route(self, socket) -> None:
        self.to_bot = socket.connect_to_server()  # the bot's answers reach the page as they come
        socket.on_message(self.from_page)

    def from_page(self, said: str | bytes) -> None:
        if self.slow and '"race"' in str(said):
            self.held.append(said)
        else:
            self.to_bot.send(said)

    def let_go(self) -> None:
        self.slow = False
        for said in self.held:
            self.to_bot.send(said)
        self.held.clear()


async def test_two_members_race_in_octagion_typing_on_their_boards(world, browser):
    from engines.octagion import solution

    await serve_boards(world)
    world.platform.new_seed = lambda: RACE_SEED
    await world.ada.slash(world.channel, "octagion start", rounds=2)
    [record] = await world.platform.store.threaded_sessions(world.channel.id)
    eve = world.guild.add_member(world.env.create_user("eve", global_name="Eve"))
    server, opened, slow = world.bot.activity_server, "#status:has-text('Octagion lobby')", SlowAnswers()
    ada = await board_of(browser, server, world, world.ada.id, record.id, opened)
    bo = await board_of(browser, server, world, world.bo.id, record.id, opened, slow.route)
    watching = await board_of(browser, server, world, eve.id, record.id, opened)
    boards = (ada, bo, watching)
    assert [await buttons(page) for page in boards] == [["Start"], ["Join"], ["Join"]]
    await bo.click("#buttons button:text-is('Join')")  # Bo joins on the board, as in Discord
    for page in boards:  # the lobby, as it is now, on every board
        await says(page, "#status", "Players (2): Ada, Bo")
    assert await buttons(bo) == ["Leave"]
    await ada.click("#buttons button:text-is('Start')")
    for page in boards:
        await page.wait_for_selector(PICTURE, timeout=SHOWN_MS)
    assert await watching.is_hidden("#race"), "a spectator has nothing to type"
    assert await buttons(watching) == []
    await bo.click("#board")  # a click on the picture: the answer is typed
    await says(bo, "#message", "Type your team's variant in the field below the board")
    word = (await world.platform.sessions.load(record.id)).state.words[0]
    for page, answer, placed in ((ada, " ".join(solution(word)), 8), (bo, solution(word)[0], 1)):
        await page.fill("#variant", answer)
        await page.click("#race button[type=submit]")
        await says(page, "#answer", f"({placed} of 8 placed)")

    # Bo sends the whole word just before time is up; it reaches the bot once round 2 has begun.
    slow.slow = True
    await bo.fill("#variant", " ".join(solution(word)))
    await bo.click("#race button[type=submit]")
    session = await world.platform.sessions.load(record.id)
    await world.env.advance_time(session.meta.round_deadline - world.env.now().timestamp() + 1)  # time is up
    for page in boards:  # the round's result, on every board: both answers counted
        await says(page, "#status", "Round 1 of 2 is over")
        await says(page, "#result", "Ada: 8 pts (no penalty) · total 8\nBo: 1 pt (7 penalties) · total 1")
    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    for page in (ada, bo):
        await says(page, "#clock", "Round 2")
    assert len(slow.held) == 1
    slow.let_go()
    await says(bo, "#message", "Round 1 is already over.")
    session = await world.platform.sessions.load(record.id)
    assert session.state.variants[1] == [None] * 8, "Bo's late answer is not given to round 2"
    await ada.click("#buttons button:text-is('Got it!')")  # ends round 2 for everyone, as in Discord
    for page in boards:  # the end on every board; Bo's late answer counted in neither round
        await says(page, "#status", "Final totals: Ada 6 · Bo 1")
        await says(page, "#result", "Ada called Got it! (not perfect, -2)\nBo: 0 pts (8 penalties) · total 1")
