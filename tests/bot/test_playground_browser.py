"""The playground in a real browser: README's command 1 (`python -m bot`, no token) in a temporary
directory, its page driven by Playwright in the system Chromium (Debian's `chromium`; Playwright
never downloads a browser). No test installs anything: without chromium these tests are skipped,
saying how to install it, except in CI (CI=true), where .ci/run installs it and they fail."""

from __future__ import annotations

import os
import re

import pytest
from discord import app_commands

from bot.games import all_games
from scripts.take_screenshots import (
    CHROMIUM,
    FIRST_SUGGESTION,
    ChannelPage,
    Member,
    PlaygroundProcess,
    chromium,
    running_playground,
)

pytestmark = pytest.mark.integration

ROUND_SECONDS = 30  # the shortest round `/octagion start` allows
# The page shows what the bot did on its own within this long (the playground publishes within
# 0.2 s and the page polls every 0.5 s; the rest is slack for a busy two-core machine).
SHOWN_WITHIN_MS = 5_000
INSTALL_CHROMIUM = "apt-get install chromium"  # as root, or through sudo
RESTART_MS = 30_000  # an open tab polls every 0.5 s; once its session is gone it reloads itself


def every_games_commands() -> list[str]:
    """Every registered game's slash commands, e.g. "octego move" or "octagion daily play": its
    cog's own (Octagion's start among them) and the generated challenge of a game started by one."""

    def names(command) -> list[str]:  # a group's are its subcommands'
        if isinstance(command, app_commands.Group):
            return [f"{command.name} {name}" for sub in command.commands for name in names(sub)]
        return [command.name]

    commands = []
    for adapter in all_games():
        own = [name for command in adapter.__cog_app_commands__ for name in names(command)]
        generated = ["challenge"] if adapter.challengeable else []
        commands += [f"{adapter.name} {name}" for name in own + generated]
    return commands


EVERY_GAME = every_games_commands()


@pytest.fixture
def browser():
    if not CHROMIUM.exists():
        missing = f"{CHROMIUM} is missing: this test needs Debian's chromium ({INSTALL_CHROMIUM})"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{missing}; in CI, .ci/run installs it")
        pytest.skip(missing)
    with chromium() as browser:
        yield browser


def test_a_round_ended_by_its_timer_appears_in_the_open_page_without_a_click(browser, tmp_path):
    with running_playground(tmp_path) as (_, address):
        tab = ChannelPage(browser.new_page(), address)
        tab.open_channel("octagion")
        tab.slash("octagion start", rounds=1, seconds=ROUND_SECONDS)
        tab.click("Start")
        tab.wait_for_text(re.compile(r"Round 1 of 1\b"))
        tab.page.evaluate("window.notReloaded = true")  # gone if anything reloads the page
        assert not tab.messages.get_by_text("Round 1 of 1: result").count()

        # Nothing is clicked from here on: the timer ends the round, and the page shows it.
        tab.wait_for_text("Round 1 of 1: result", timeout_ms=ROUND_SECONDS * 1000 + SHOWN_WITHIN_MS)
        assert tab.page.evaluate("window.notReloaded") is True


def test_a_second_start_has_the_slash_commands_and_the_previous_game_playable(browser, tmp_path):
    """The tab open on #octego stays open across the restart: it goes on by itself (one address
    for every page, kept by the next start), as README promises."""
    first = PlaygroundProcess(tmp_path)
    try:
        address = first.start()
        tab = ChannelPage(browser.new_page(), address)
        tab.open_channel("octego")
        tab.slash("octego challenge", opponent=Member("Bo"))
        tab.view_as("Bo")
        tab.click("Accept")
        tab.wait_for_text("Octegos on the board")
        tab.view_as("Ada")
        tab.slash("octego move", path=FIRST_SUGGESTION)
        tab.wait_for_text(re.compile(r"Ada moved \S+\."))
        ada_moved = re.search(r"Ada moved \S+\.", tab.messages.inner_text()).group()
        tab.page.evaluate("window.beforeRestart = true")  # gone once the page has reloaded
        assert first.stop() == 0, first.log()
    finally:
        first.kill()

    with running_playground(tmp_path) as (second, second_address):
        assert second_address == address
        # No navigation: the open tab finds the playground again, reloads itself and shows the
        # channel it showed.
        tab.page.wait_for_function("() => window.beforeRestart === undefined", timeout=RESTART_MS)
        tab.page.locator("#channel-name").filter(has_text=re.compile("^octego$")).wait_for(timeout=RESTART_MS)
        tab.wait_for_text(re.compile(re.escape(ada_moved)))  # the game, posted again as it was
        assert tab.messages.get_by_role("button", name="Move", exact=True).count()
        listed = tab.listed_commands()
        assert [command for command in EVERY_GAME if f"/{command}" not in listed] == [], listed
        tab.view_as("Bo")
        tab.slash("octego move", path=FIRST_SUGGESTION)
        tab.wait_for_text(re.compile(r"Bo moved \S+\."))
        assert "There is already a game" not in tab.messages.inner_text(), second.log()
