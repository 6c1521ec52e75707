"""The ways to /learn (issue 39's newcomer path): /help names how to start every registered game
and points to /learn; a member who finished a game's lessons has it marked in /stats."""

from __future__ import annotations

import pytest

from bot.dev.world import private_messages
from bot.features.help_commands import how_to_start
from bot.features.learn.series import SERIES
from tests.bot.test_learn import answer, intended, learn
from tests.bot.tinygame import TinyAdapter


async def test_help_answers_privately_how_to_start_each_game_and_names_learn(world):
    result = await world.bo.slash(world.channel, "help")
    assert result.ephemeral
    text = private_messages(result)[-1].content
    assert "`/learn` teaches any of them in five minutes" in text
    for command in ("`/rules game:`", "`/games`", "`/stats`"):
        assert command in text
    for adapter in world.platform.games.values():
        assert f"**{adapter.title}**: {how_to_start(adapter)}" in text
    assert "`/octego challenge opponent:@someone` (mention me instead to play the computer)" in text
    assert "`/octagion start`: open an Octagion lobby in this channel" in text
    assert [m for m in world.channel.history() if not m.flags.ephemeral] == []


@pytest.mark.parametrize("games", [[TinyAdapter]])
async def test_help_lists_the_registered_games_not_a_list_of_its_own(world):
    text = private_messages(await world.ada.slash(world.channel, "help"))[-1].content
    assert "**Tiny**: `/tiny challenge opponent:@someone`" in text
    assert "Octego" not in text


async def finish_octego(world, member, start: int = 0) -> None:
    """Octego's lessons from ``start`` (where /learn resumes) to the last, each answered rightly."""
    series = SERIES["octego"]
    page = await learn(world, member, "octego")
    for number, lesson in enumerate(series.lessons[start:], start=start + 1):
        menu = await answer(world, member, page, "octego", intended(world, "octego", lesson, member))
        assert menu.content.startswith("✓ **Right.**"), menu.content
        if number < len(series.lessons):
            await member.click(menu, label=f"Next: {series.lessons[number].title} ▶")
            page = menu


async def stats_text(world, asker, user=None) -> str:
    options = {"user": user} if user is not None else {}
    return private_messages(await asker.slash(world.channel, "stats", **options))[-1].content


async def test_a_member_who_finished_octegos_lessons_is_marked_in_stats(world):
    assert "learned" not in await stats_text(world, world.ada)
    page = await learn(world, world.ada, "octego")
    first = SERIES["octego"].lessons[0]
    await answer(world, world.ada, page, "octego", intended(world, "octego", first, world.ada))
    assert "learned" not in await stats_text(world, world.ada)  # one lesson is not the series

    await finish_octego(world, world.ada, start=1)
    mine = await stats_text(world, world.ada)
    assert mine.splitlines()[0] == "Ada (🎓 learned Octego) has not finished a game in this server yet."
    seen_by_bo = await stats_text(world, world.bo, world.ada)
    assert seen_by_bo.startswith("Ada (🎓 learned Octego) ")
    assert "learned" not in await stats_text(world, world.bo)
