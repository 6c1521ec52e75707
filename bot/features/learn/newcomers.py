"""What the rest of the bot says about the lessons: the mark beside a member's name in /stats once
they finished a game's lessons ("🎓 learned Octego")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from discord.abc import Snowflake

from bot.core.store import Store
from bot.features.learn import store
from bot.features.learn.series import SERIES

if TYPE_CHECKING:
    from bot.ui.adapter import GameAdapter


def and_list(words: list[str]) -> str:
    return " and ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} and {words[-1]}"


async def learned_mark(lessons: Store, member: Snowflake | None, games: Mapping[str, GameAdapter]) -> str:
    """ " (🎓 learned Octego)" beside a member's name: the games whose every lesson they finished
    (nothing when none)."""
    if member is None:
        return ""
    finished = await store.finished_by_game(lessons, member.id)
    learned = [
        adapter.title
        for game, adapter in games.items()
        if game in SERIES and {lesson.key for lesson in SERIES[game].lessons} <= finished.get(game, set())
    ]
    return f" (🎓 learned {and_list(learned)})" if learned else ""
