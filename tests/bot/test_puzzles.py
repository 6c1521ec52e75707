"""/puzzle through SimCord: a member plays a puzzle cut from a real game with the game's own menu,
privately; the answer moves their puzzle rating up, a wrong move is shown the reply it allows and
moves it down; the daily puzzle is the same for everyone, its answer private to those who played
it until the next day, with a share line without the answer and a streak over the days."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from bot.dev.world import private_messages
from bot.games import adapter
from engines import puzzles
from engines.octagion import puzzle_day, puzzle_number
from tests.bot.test_learn import choose, labels
from tests.bot.test_privacy import ask_to_delete

GAME = "octego"


@pytest.fixture
def games():
    return [adapter(game) for game in puzzles.GAMES]


def shown_puzzle(page, game: str = GAME) -> puzzles.Puzzle:
    """The puzzle a page shows, by the id in its heading."""
    found = re.search(r"puzzle `(\w+)`", page.content)
    assert found, page.content
    item = puzzles.puzzle(game, found.group(1))
    assert item is not None
    return item


def menu_actions(world, item) -> list[dict]:
    engine = world.platform.games[item.game].engine
    return [a for a in engine.legal_actions(item.state(), item.seat) if a["type"] != "resign"]


def the_answer(world, item) -> dict:
    return next(a for a in menu_actions(world, item) if puzzles.is_answer(item, a))


def a_wrong_move(world, item) -> dict:
    return next(a for a in menu_actions(world, item) if not puzzles.is_answer(item, a))


async def puzzle_page(world, member, game: str = GAME, **options):
    result = await member.slash(world.channel, "puzzle", game=game, **options)
    assert result.ephemeral
    return private_messages(result)[-1]


async def stats(world, member) -> str:
    return private_messages(await member.slash(world.channel, "stats"))[-1].content


async def test_the_answer_solves_the_puzzle_and_moves_the_rating_up(world):
    before = [m.id for m in world.channel.history() if not m.flags.ephemeral]
    page = await puzzle_page(world, world.ada)
    item = shown_puzzle(page)
    assert labels(page) == ["Move"]
    assert page.attachments[0].filename == "octego.png"
    assert "Your puzzle rating: **1500 ± 700** (0 solved of 0 puzzles)" in page.content
    menu = await choose(world, world.ada, page, GAME, the_answer(world, item))
    assert menu.content.startswith("✓ **Solved.**"), menu.content
    rating = int(re.search(r"Puzzle rating: 1500 → \*\*(\d+)\*\*", menu.content).group(1))
    assert rating > 1500
    assert labels(menu) == ["Next puzzle ▶"]
    assert f"**Octego puzzles**: rating {rating}, 1 solved of 1 puzzle" in await stats(world, world.ada)
    assert [m.id for m in world.channel.history() if not m.flags.ephemeral] == before  # nothing public

    following = private_messages(await world.ada.click(menu, label="Next puzzle ▶"))[-1]
    if len(puzzles.load(GAME)) > 1:
        assert shown_puzzle(following).id != item.id  # a puzzle played is not offered again


async def test_a_wrong_move_is_shown_what_it_allows_and_moves_the_rating_down(world):
    page = await puzzle_page(world, world.bo)
    item = shown_puzzle(page)
    menu = await choose(world, world.bo, page, GAME, a_wrong_move(world, item))
    assert menu.content.startswith("✗ **Not this one.**"), menu.content
    assert "It allows this" in menu.content  # the hard search's answer to the wrong move
    assert menu.attachments[0].filename == "octego.png"  # the board after that reply
    assert f"The winning move was **{item.answer}**" in menu.content
    rating = int(re.search(r"Puzzle rating: 1500 → \*\*(\d+)\*\*", menu.content).group(1))
    assert rating < 1500
    assert f"**Octego puzzles**: rating {rating}, 0 solved of 1 puzzle" in await stats(world, world.bo)


async def test_the_daily_puzzle_hides_its_answer_until_the_next_day_and_keeps_a_streak(world):
    today = puzzle_day(world.env.now())
    item = puzzles.daily(GAME, today)
    page = await puzzle_page(world, world.ada, daily=True)
    assert page.content.startswith(f"## Octego daily puzzle #{puzzle_number(today)}")
    menu = await choose(world, world.ada, page, GAME, the_answer(world, item))
    assert menu.content.startswith("✓ **Solved.**")
    assert "🔥 Streak: 1 day played and 1 solved in a row." in menu.content
    share = re.search(r"Share \(no spoiler\): `([^`]+)`", menu.content).group(1)
    assert f"#{puzzle_number(today)}" in share
    assert "✓ solved" in share
    assert item.answer not in share

    others = await puzzle_page(world, world.bo, daily=True)  # Bo has not played: no answer for him
    todays_lines = [line for line in others.content.splitlines() if not line.startswith("-# Yesterday")]
    assert not any(item.answer in line for line in todays_lines), others.content
    assert labels(others) == ["Move"]
    again = await puzzle_page(world, world.ada, daily=True)  # Ada played: her answer, privately
    assert f"You solved today's puzzle: its answer was **{item.answer}**" in again.content

    await world.env.advance_time(timedelta(days=1).total_seconds())
    tomorrow = puzzle_day(world.env.now())
    assert tomorrow == today + timedelta(days=1)
    next_day = await puzzle_page(world, world.bo, daily=True)
    assert f"Yesterday's puzzle #{puzzle_number(today)}: the answer was **{item.answer}**." in next_day.content
    following = puzzles.daily(GAME, tomorrow)
    page = await puzzle_page(world, world.ada, daily=True)
    menu = await choose(world, world.ada, page, GAME, a_wrong_move(world, following))
    assert menu.content.startswith("✗ **Not this one.**")
    assert "🔥 Streak: 2 days played and 0 solved in a row." in menu.content

    await world.env.advance_time(timedelta(days=2).total_seconds())  # a day missed: the streak starts again
    page = await puzzle_page(world, world.ada, daily=True)
    menu = await choose(
        world, world.ada, page, GAME, the_answer(world, puzzles.daily(GAME, puzzle_day(world.env.now())))
    )
    assert "🔥 Streak: 1 day played and 1 solved in a row." in menu.content


async def test_an_octagone_puzzle_is_solved_with_the_place_menu(world):
    page = await puzzle_page(world, world.cy, "octagone")
    item = shown_puzzle(page, "octagone")
    assert labels(page) == ["Place"]
    menu = await choose(world, world.cy, page, "octagone", the_answer(world, item))
    assert menu.content.startswith("✓ **Solved.**"), menu.content
    assert "**Octagone puzzles**: rating " in await stats(world, world.cy)


async def test_a_puzzle_answered_again_moves_the_rating_once(world):
    page = await puzzle_page(world, world.di)
    item = shown_puzzle(page)
    first = await choose(world, world.di, page, GAME, the_answer(world, item))
    rating = int(re.search(r"Puzzle rating: 1500 → \*\*(\d+)\*\*", first.content).group(1))
    again = await choose(world, world.di, page, GAME, the_answer(world, item))  # the old page's button again
    assert f"You had played this puzzle already: your puzzle rating stays **{rating}**." in again.content
    assert f"**Octego puzzles**: rating {rating}, 1 solved of 1 puzzle" in await stats(world, world.di)


async def test_a_puzzle_no_longer_in_the_set_is_refused_privately(world, monkeypatch):
    page = await puzzle_page(world, world.ada)
    gone = shown_puzzle(page).id
    shipped = puzzles.puzzle
    monkeypatch.setattr(puzzles, "puzzle", lambda game, wanted: None if wanted == gone else shipped(game, wanted))
    shown = await world.ada.click(page, label="Move")  # a new set shipped since the page was shown
    assert shown.ephemeral
    assert private_messages(shown)[-1].content == "This puzzle is no longer available: type `/puzzle` for another."
    assert "Octego puzzles" not in await stats(world, world.ada)


async def test_privacy_delete_forgets_a_members_puzzles(world):
    page = await puzzle_page(world, world.bo)
    await choose(world, world.bo, page, GAME, the_answer(world, shown_puzzle(page)))
    daily = await puzzle_page(world, world.bo, daily=True)
    await choose(world, world.bo, daily, GAME, a_wrong_move(world, puzzles.daily(GAME, puzzle_day(world.env.now()))))
    assert "Octego puzzles" in await stats(world, world.bo)
    await world.bo.click(await ask_to_delete(world, world.bo), label="Delete my data")
    for table in ("puzzle_ratings", "puzzle_attempts", "puzzle_daily"):
        assert not await world.platform.store.query(f"SELECT * FROM {table} WHERE user_id = ?", (world.bo.id,)), table
    assert "Octego puzzles" not in await stats(world, world.bo)
