"""README's screenshots, taken from the real playground in the system Chromium.

    python scripts/take_screenshots.py [--out docs]

Starts the playground as README's command 1 does (``python -m bot`` with no token, its
database in a temporary directory), plays a few moves of each game in the page with Playwright
and saves ``playground.png`` (the desktop page) and ``screenshot-<game>.png`` (each game's
channel at a phone's width), then draws ``octagion-daily-results.png`` with the current theme.

Playwright drives Debian's ``chromium`` (``apt-get install chromium``); it never downloads a
browser. The driver here (:class:`PlaygroundProcess`, :class:`ChannelPage`) is also what
tests/bot/test_playground_browser.py uses.
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

CHROMIUM = Path(shutil.which("chromium") or "/usr/bin/chromium")  # Debian's package
# Headless, and nothing that reaches for the network: on a closed network Chromium's own
# background connections are refused, and they are never needed here.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
ADDRESS = re.compile(r"Playground running: open (http://127\.0\.0\.1:\d+/\S+/)")
START_SECONDS = 60  # a cold start on two cores: imports, worker processes, the database
STOP_SECONDS = 30
ANSWER_MS = 15_000  # the longest the page may take to show an answer of the bot
DESKTOP = {"width": 1000, "height": 960}
PHONE = {"width": 412, "height": 1600}  # a common Android phone's width, in CSS pixels; tall for a whole message
ROOT = Path(__file__).resolve().parent.parent
TURN = re.compile(r"It is @(\w+)'s turn")


class PlaygroundProcess:
    """``python -m bot`` as README's command 1 runs it, its ``playground.db`` in ``data_dir``."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.process: subprocess.Popen[str] | None = None
        self.output: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()

    def start(self) -> str:
        """Start it and return the address it prints (the page of channels)."""
        # An empty DISCORD_TOKEN is no token, and a .env file cannot fill it in (dotenv never
        # overrides the environment): this is the playground even on a developer's machine.
        environment = {**os.environ, "DISCORD_TOKEN": ""}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=self.data_dir,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        while (line := self._next_line()) is not None:
            if match := ADDRESS.search(line):
                return match.group(1)
        raise RuntimeError(f"the playground never printed its address:\n{self.log()}")

    def stop(self) -> int:
        """Ctrl+C, as a person stops it; returns its exit code."""
        assert self.process is not None
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def log(self) -> str:
        return "".join(self.output)

    def _read(self, process: subprocess.Popen[str]) -> None:
        """Drain its output (a full pipe would block it), keeping every line for failures."""
        assert process.stdout is not None
        for line in process.stdout:
            self.output.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def _next_line(self) -> str | None:
        try:
            return self._lines.get(timeout=START_SECONDS)
        except queue.Empty:
            return None


@contextmanager
def running_playground(data_dir: Path) -> Iterator[tuple[PlaygroundProcess, str]]:
    playground = PlaygroundProcess(data_dir)
    try:
        yield playground, playground.start()
    finally:
        playground.kill()


@contextmanager
def chromium() -> Iterator[object]:
    """The system Chromium under Playwright (a ``Browser``)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
        try:
            yield browser
        finally:
            browser.close()


@dataclass(frozen=True)
class Member:
    """An option value that names a member (picked from the page's member list)."""

    name: str


@dataclass(frozen=True)
class Choice:
    """An option value picked by its label from the command's list of choices."""

    label: str


FIRST_SUGGESTION = object()  # an option value: type nothing, take the bot's first autocomplete choice


class ChannelPage:
    """One browser tab on the playground, used as a person uses it."""

    def __init__(self, page, address: str):
        self.page = page
        self.address = address

    def open_channel(self, name: str) -> None:
        """From the page of channels, follow ``#name`` (the tab moves to that channel's Preview)."""
        self.page.goto(self.address)
        self.page.get_by_role("link", name=f"#{name}", exact=True).click()
        self.page.locator("#channel-name").filter(has_text=re.compile(f"^{name}$")).wait_for(timeout=ANSWER_MS)

    def open_thread(self, name: str) -> None:
        """From the page of channels, follow the live game thread whose name starts with ``name``."""
        self.page.goto(self.address)
        self.page.get_by_role("link", name=re.compile(f"^{re.escape(name)}")).first.click()
        self.page.locator("#channel-name").filter(has_text=re.compile(f"^{re.escape(name)}")).wait_for(
            timeout=ANSWER_MS
        )

    def view_as(self, member: str) -> None:
        picker = self.page.locator("#viewer-picker")
        if picker.evaluate("picker => picker.selectedOptions[0]?.text") == member:
            return
        picker.select_option(label=member)
        self.page.wait_for_function(
            """name => document.querySelector('#viewer-picker')?.selectedOptions[0]?.text === name
                && !document.querySelector('#action-status')?.textContent.endsWith('…')""",
            arg=member,
            timeout=ANSWER_MS,
        )

    def settle(self) -> None:
        """Wait until the page has the answer of its last action (its status no longer "…ing…")."""
        self.page.wait_for_timeout(300)  # the status changes once the action is under way
        self.page.wait_for_function(
            "() => !document.querySelector('#action-status')?.textContent.endsWith('…')", timeout=ANSWER_MS
        )

    def choose_first(self) -> str:
        """Open the latest message's menu and pick its first choice; returns the choice's label."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        menu = self.messages.locator(".preview-select").last
        choices = self.page.locator(".select-option:visible")
        for _ in range(3):  # a menu opened just as its message was redrawn closes again
            menu.get_by_role("combobox").click()
            try:
                choices.first.wait_for(timeout=3_000)
                break
            except PlaywrightTimeoutError:
                self.page.keyboard.press("Escape")
        wanted = max(1, int(menu.get_attribute("data-minimum") or 1))  # a run is 3 cards or more
        labels = choices.locator(".option-label").all_inner_texts()[:wanted]
        for index in range(len(labels)):
            choices.nth(index).click()
        apply = self.page.get_by_role("button", name="Apply", exact=True)
        if apply.is_visible():  # a menu of several choices is applied once they are picked
            apply.click()
        self.settle()
        return ", ".join(labels)

    def choose(self, placeholder: str, label: str) -> None:
        """In the latest message's select whose placeholder is ``placeholder``, pick ``label``."""
        menu = self.messages.locator(".preview-select").filter(has_text=placeholder).last
        menu.get_by_role("combobox").click()
        option = self.page.locator(".select-option:visible").filter(has_text=re.compile(f"^{re.escape(label)}$"))
        option.first.click()
        self.settle()

    def choose_first_until(self, done: Callable[[], bool], steps: int = 20) -> None:
        """Pick the first choice of each menu the bot offers until ``done()`` (a turn's end)."""
        for _ in range(steps):
            if done():
                return
            self.choose_first()
        if not done():
            raise RuntimeError(f"the menus never ended; the page ends with:\n{self.messages.inner_text()[-600:]}")

    def whose_turn(self) -> str:
        """The member the game message says is on turn."""
        public = self.messages.locator("article.channel-message").filter(
            has_not=self.page.locator(".message-ephemeral-note")
        )
        return TURN.search(public.filter(has_text=TURN).last.inner_text()).group(1)

    def take_turn(self, button: str) -> str:
        """As the member on turn: click ``button`` and pick first choices until the turn passes."""
        player = self.whose_turn()
        self.view_as(player)
        self.click(button)
        self.choose_first_until(lambda: self.whose_turn() != player)
        return player

    def slash(self, command: str, **options: object) -> None:
        """Type ``/command`` in the message box, fill its options and send it."""
        self.page.locator("#channel-composer-input").click()
        self.page.keyboard.type(f"/{command}")
        self.command_entry(command).click()
        for name, value in options.items():
            self._fill_option(name, value)
        self.page.locator("#send-message").click()
        self.page.locator(".command-chip").wait_for(state="detached", timeout=ANSWER_MS)
        self.settle()

    def command_entry(self, command: str):
        """The slash command's line in the list the message box shows after "/"."""
        title = self.page.locator(".command-entry-title strong", has_text=re.compile(f"^/{command}$"))
        return self.page.locator(".command-entry", has=title)

    def listed_commands(self) -> list[str]:
        """The slash commands the message box lists when "/" is typed (then the box is emptied)."""
        self.page.locator("#channel-composer-input").click()
        self.page.keyboard.type("/")
        titles = self.page.locator(".command-entry-title strong")
        titles.first.wait_for(timeout=ANSWER_MS)
        listed = titles.all_inner_texts()
        self.page.keyboard.press("Backspace")
        return listed

    def click(self, label: str) -> None:
        """Click the button ``label`` of the latest message that has one."""
        self.messages.get_by_role("button", name=label, exact=True).last.click()
        self.settle()

    def wait_for_text(self, text: str | re.Pattern, timeout_ms: float = ANSWER_MS) -> None:
        self.messages.get_by_text(text).last.wait_for(timeout=timeout_ms)

    @property
    def messages(self):
        return self.page.locator("#channel-message-list")

    def _fill_option(self, name: str, value: object) -> None:
        field = self.page.locator(f'.command-option-input[data-option="{name}"]')
        if not field.count():  # an optional option: add it from the command's "+N more"
            self.page.locator(".command-ghost").click()
            self._suggestion(name).click()
        field.click()
        if isinstance(value, Member | Choice):
            label = value.name if isinstance(value, Member) else value.label
            field.press_sequentially(label)
            self._suggestion(label).click()
        elif value is FIRST_SUGGESTION:
            self._first_suggestion(field).click()
        else:
            field.fill(str(value))

    def _first_suggestion(self, field):
        """Ask the bot for its autocomplete choices (an edit of the field does) and take the first."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        first = self.page.locator(".command-suggestion").first
        for _ in range(3):  # an answer that came back for an older draft is not shown: ask again
            field.press_sequentially(" ")
            field.press("Backspace")
            try:
                first.wait_for(timeout=5_000)
                break
            except PlaywrightTimeoutError:
                continue
        return first

    def _suggestion(self, label: str):
        label_text = self.page.locator(".command-suggestion-label", has_text=re.compile(f"^{re.escape(label)}$"))
        return self.page.locator(".command-suggestion", has=label_text).first


# ---------------------------------------------------------------- the screenshots


def challenge(tab: ChannelPage, game: str) -> None:
    """Ada challenges Bo in #game and Bo accepts."""
    tab.open_channel(game)
    tab.view_as("Ada")
    tab.slash(f"{game} challenge", opponent=Member("Bo"))
    tab.view_as("Bo")
    tab.click("Accept")
    tab.wait_for_text(TURN)


def play_octego(tab: ChannelPage) -> None:
    challenge(tab, "octego")
    for _ in range(4):
        player = tab.whose_turn()
        tab.view_as(player)
        tab.slash("octego move", path=FIRST_SUGGESTION)
        tab.wait_for_text(re.compile(f"{player} moved"))


def play_octagion(tab: ChannelPage) -> None:
    tab.open_channel("octagion")
    tab.view_as("Ada")
    tab.slash("octagion start", rounds=2)
    tab.view_as("Bo")
    tab.click("Join")
    tab.view_as("Ada")
    tab.click("Start")
    tab.wait_for_text(re.compile(r"Round 1 of 2\b"))
    tab.slash("octagion play", cards="1 2 3 4 5 6 7 8")  # a digit: that position's letter
    tab.click("Got it!")
    tab.wait_for_text("Round 1 of 2: result")


def play_octa(tab: ChannelPage) -> None:
    challenge(tab, "octa")
    for _ in range(2):
        tab.take_turn("Turn panel")


def play_octagone(tab: ChannelPage) -> None:
    challenge(tab, "octagone")
    tab.view_as(tab.whose_turn())
    tab.slash("octagone place", box="D4", direction=FIRST_SUGGESTION)  # the White Lady opens
    for _ in range(3):
        tab.take_turn("Place")


def play_octiles(tab: ChannelPage) -> None:
    challenge(tab, "octiles")
    for _ in range(2):  # Gold places the runners, Teal the first prize
        tab.take_turn("Set up")
    tab.view_as(tab.whose_turn())
    tab.slash("octiles move", to=FIRST_SUGGESTION)


# The games #games runs at once, each in its thread: (game, challenger, opponent).
THREADED_GAMES = (("octego", "Ada", "Bo"), ("octa", "Cy", "Di"), ("octiles", "Bo", "Cy"))


def play_in_threads(tab: ChannelPage) -> None:
    """Three games challenged and accepted in #games (three cards there, a thread each), then a
    move in the Octego thread, so that Bo gets a "your move" notice."""
    tab.open_channel("games")
    for game, challenger, opponent in THREADED_GAMES:
        tab.view_as(challenger)
        tab.slash(f"{game} challenge", opponent=Member(opponent))
        tab.view_as(opponent)
        tab.click("Accept")
        tab.wait_for_text(re.compile(r"🧵"))
    tab.open_thread("Octego · Ada vs Bo")
    tab.view_as("Ada")
    tab.slash("octego move", path=FIRST_SUGGESTION)
    tab.wait_for_text(re.compile("your move in Octego"))


# One scene per game registered in engines/registry.py (checked before anything starts:
# :func:`check_scenes`), in the order the screenshots are played.
SCENES = {
    "octego": play_octego,
    "octagion": play_octagion,
    "octa": play_octa,
    "octagone": play_octagone,
    "octiles": play_octiles,
}


def check_scenes() -> None:
    """Stop, naming the game, when a registered game has no scene here (or a scene plays a game
    no longer registered), so no game's screenshot is forgotten silently."""
    from engines.registry import games

    registered = games()
    missing = [game for game in registered if game not in SCENES]
    if missing:
        raise SystemExit(
            f"take_screenshots: no scene for {', '.join(missing)}, registered in engines/registry.py: "
            "add a play_<game> to SCENES in scripts/take_screenshots.py"
        )
    unknown = [game for game in SCENES if game not in registered]
    if unknown:
        raise SystemExit(f"take_screenshots: SCENES plays {', '.join(unknown)}, not registered in engines/registry.py")


def game_message(tab: ChannelPage):
    """The channel's latest public message with a picture (the game's), its picture loaded."""
    public = tab.messages.locator("article.channel-message").filter(has=tab.page.locator(".attachment-image"))
    message = public.filter(has_not=tab.page.locator(".message-ephemeral-note")).last
    message.evaluate("message => message.scrollIntoView({block: 'start'})")
    message.locator(".attachment-image").first.wait_for(timeout=ANSWER_MS)
    tab.page.wait_for_function(
        "message => [...message.querySelectorAll('img')].every(image => image.naturalWidth > 0)",
        arg=message.element_handle(),
        timeout=ANSWER_MS,
    )
    return message


def save_phone_view(browser, address: str, game: str, path: Path) -> None:
    """The game's message as a phone shows it: its text, buttons and picture."""
    page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    tab = ChannelPage(page, address)
    tab.open_channel(game)
    game_message(tab).screenshot(path=path)
    page.close()


def take(out: Path) -> None:
    check_scenes()
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as data_dir,
        chromium() as browser,
        running_playground(Path(data_dir)) as (_, address),
    ):
        tab = ChannelPage(browser.new_page(viewport=DESKTOP), address)
        for game, play in SCENES.items():
            play(tab)
            print(f"played {game}", flush=True)
        save_desktop_view(tab, out / "playground.png")
        for game in SCENES:
            save_phone_view(browser, address, game, out / f"screenshot-{game}.png")
        play_in_threads(tab)
        save_threads_views(browser, address, out)
        play_a_team_race(tab)
        save_channel_end(browser, address, "games", out / "screenshot-team-game.png")
        finish_a_game_and_post_the_leaderboard(tab)
        save_channel_end(browser, address, "games", out / "screenshot-leaderboard.png")
    (out / "octagion-daily-results.png").write_bytes(daily_results_picture())


def play_a_team_race(tab: ChannelPage) -> None:
    """An Octagion race in #games: Ada and Bo in team 1, Cy in team 2; Cy calls Got it! on an
    empty variant, so Ada & Bo win; the card shows the sides as partners."""
    tab.open_channel("games")
    tab.view_as("Ada")
    tab.slash("octagion start", rounds=1, teams=2)
    for member, team in (("Bo", "Team 1"), ("Cy", "Team 2")):
        tab.view_as(member)
        tab.choose("Join a team", team)
    tab.view_as("Ada")
    tab.click("Start")
    tab.open_thread("Octagion")
    tab.view_as("Cy")
    tab.wait_for_text(re.compile(r"Round 1 of 1\b"))
    tab.click("Got it!")
    tab.wait_for_text(re.compile(r"won"))


def finish_a_game_and_post_the_leaderboard(tab: ChannelPage) -> None:
    """Bo resigns the Octego game of #games, then Ada posts Octego's leaderboard in #games."""
    tab.open_thread("Octego · Ada vs Bo")
    tab.view_as("Bo")
    tab.slash("octego resign")
    tab.open_channel("games")
    tab.view_as("Ada")
    tab.slash("leaderboard", game=Choice("Octego"))
    tab.messages.get_by_role("button", name=re.compile("Post in the channel")).last.click()  # after its emoji
    tab.settle()
    tab.wait_for_text(re.compile("leaderboard"))


def save_channel_end(browser, address: str, channel: str, path: Path, keep: int = 1400) -> None:
    """The end of a channel at a phone's width, as Ada sees it: its last ``keep`` pixels."""
    page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    tab = ChannelPage(page, address)
    tab.open_channel(channel)
    tab.view_as("Ada")
    last = tab.messages.locator("article.channel-message").last
    last.evaluate("message => message.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(500)
    tab.messages.screenshot(path=path)
    page.close()
    with Image.open(path) as shot:
        shot.crop((0, max(0, shot.height - keep), shot.width, shot.height)).save(path)


def save_threads_views(browser, address: str, out: Path) -> None:
    """#games with its three live game cards, and the Octego thread ending on Bo's notice, at a
    phone's width."""
    page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    tab = ChannelPage(page, address)
    tab.open_channel("games")
    tab.view_as("Ada")
    cards = tab.messages.locator("article.channel-message").filter(has_text="🧵")
    cards.last.evaluate("message => message.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(500)
    tab.messages.screenshot(path=out / "screenshot-games-threads.png")
    tab.open_thread("Octego · Ada vs Bo")
    tab.view_as("Bo")
    notice = tab.messages.locator("article.channel-message").filter(has_text="your move").last
    notice.evaluate("message => message.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(500)
    tab.messages.screenshot(path=out / "screenshot-thread-notice.png")
    page.close()


def save_desktop_view(tab: ChannelPage, path: Path) -> None:
    """The whole page on a desktop: #octego as Ada, its game message at the top."""
    tab.open_channel("octego")
    tab.view_as("Ada")
    message = game_message(tab)
    tab.page.wait_for_timeout(500)  # the page scrolls to its latest message once it has them all
    message.evaluate("message => message.scrollIntoView({block: 'start'})")
    tab.page.screenshot(path=path)


def daily_results_picture() -> bytes:
    """Octagion Daily's board as README shows it, drawn with the current theme."""
    from datetime import date

    from engines.octagion import DailyEntry, Streak, ranked, score_daily, solution
    from render.octagion_daily import render_daily_board

    word = "ABSTRACT"
    answer = tuple(solution(word))
    slipped = (answer[0], answer[2], answer[1], *answer[3:])  # two cards swapped: wrong letters
    plays = [  # name, score, seconds, answer, days played in a row
        ("Ada", 13, 14, answer, 12),
        ("Bo", 12, 37, answer, 3),
        ("Cy", 11, 58, answer, 1),
        ("Farid", 9, 96, answer, 7),
        ("Di", 7, 120, (None, *answer[1:]), 5),
        ("Evangeline", 6, 71, slipped, 2),
        ("Grace", 5, 120, (*answer[:5], None, None, None), 1),
    ]
    entries = [
        DailyEntry(user_id, name, score, seconds, cells, Streak(streak, 0))
        for user_id, (name, score, seconds, cells, streak) in enumerate(plays, start=1)
    ]
    board = ranked(entries)
    scores = [score_daily(entry.cells, word, None) for _, entry in board]
    return render_daily_board(5, date(2026, 1, 5), word, board, scores, answer).png


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the pictures go (default: docs/)")
    take(parser.parse_args(argv).out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
