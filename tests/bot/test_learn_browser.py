"""A newcomer learns Octego in the playground, in a real browser (issue 39): README's command 1
(`python -m bot`, no token) in a temporary directory, its page driven by Playwright in the system
Chromium, as tests/bot/test_playground_browser.py does. Ada's first game of Octego offers her the
lessons; she takes them with clicks: the first three answered with the lesson's own Move menu, the
page showing ✓ beside each finished lesson and the next one. Skipped without chromium, except in
CI (CI=true), where .ci/run installs it."""

from __future__ import annotations

import re

import pytest

from bot.features.learn.series import SERIES
from scripts.take_screenshots import ChannelPage, Choice, Member, running_playground
from tests.bot.test_playground_browser import browser  # noqa: F401 (the fixture: chromium, or a skip)

pytestmark = pytest.mark.integration

LESSONS = SERIES["octego"].lessons
TOTAL = len(LESSONS)


def pick(tab: ChannelPage, placeholder: str, label: str) -> None:
    """In the latest menu whose placeholder is ``placeholder``, the choice whose label starts with
    ``label`` (a capture's label goes on to name the piece taken)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    menu = tab.messages.locator(".preview-select").filter(has_text=placeholder).last
    wanted = tab.page.locator(".option-label", has_text=re.compile(f"^{re.escape(label)}"))
    option = tab.page.locator(".select-option:visible").filter(has=wanted).first
    for _ in range(3):  # a menu opened just as its message was redrawn closes again
        menu.get_by_role("combobox").click()
        try:
            option.wait_for(timeout=3_000)
            break
        except PlaywrightTimeoutError:
            tab.page.keyboard.press("Escape")
    option.click()
    tab.settle()


def answered_right(tab: ChannelPage, number: int) -> None:
    """The lesson's answer is right: the page says so and offers the next lesson."""
    tab.wait_for_text(f"{LESSONS[number - 1].why}", timeout_ms=15_000)
    assert tab.messages.get_by_text("Right.").count()
    tab.click(f"Next: {LESSONS[number].title} ▶")
    tab.wait_for_text(f"lesson {number + 1} of {TOTAL}")


def test_a_newcomer_finishes_octegos_first_three_lessons_by_clicking(browser, tmp_path):  # noqa: F811
    with running_playground(tmp_path) as (_, address):
        tab = ChannelPage(browser.new_page(), address)
        tab.open_channel("octego")
        tab.view_as("Ada")
        tab.slash("octego challenge", opponent=Member("Bo"))
        tab.view_as("Bo")
        tab.click("Accept")
        tab.wait_for_text("New to Octego, Ada? /learn it in 5 minutes.")  # her first game: her first move
        tab.view_as("Ada")
        tab.slash("learn", game=Choice("Octego"))
        tab.wait_for_text(f"lesson 1 of {TOTAL}")
        assert tab.messages.get_by_text(LESSONS[0].title).count()

        tab.click("Move")  # 1: the 1 on c1, one diagonal step forward
        pick(tab, "Piece to move…", "1 on c1")
        pick(tab, "Where does it go?", "d2")
        answered_right(tab, 1)

        tab.click("Move")  # 2: the 3 on c1 to d4, by one of its two paths
        pick(tab, "Piece to move…", "3 on c1")
        pick(tab, "Where does it go?", "d4")
        pick(tab, "Which way?", "c1-d2-c3-d4")
        answered_right(tab, 2)

        tab.click("Move")  # 3: capture the 2 on e5
        pick(tab, "Piece to move…", "2 on c3")
        pick(tab, "Where does it go?", "e5")
        answered_right(tab, 3)

        page = tab.messages.inner_text()
        marks = page[page.rindex(f"lesson 4 of {TOTAL}") :]
        assert all(f"✓ {lesson.title}" in marks for lesson in LESSONS[:3]), marks
        assert f"✓ {LESSONS[3].title}" not in marks
        assert f"Your task: {LESSONS[3].task}".replace("**", "") in marks.replace("**", "")
        # Only the member saw any of it: the lessons are private.
        assert tab.messages.locator(".message-ephemeral-note").count()
