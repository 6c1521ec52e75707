"""What the rest of the bot says about the lessons: the mark beside a member's name in /stats once
they finished a game's lessons ("🎓 learned Octego"), and the newcomer line of the first "your
move" of a member who has never played a game ("New to Octego? `/learn` it in 5 minutes").

The newcomer line is offered once per member and game: in the first game of that kind in which
it is their move (the offer is stored with that game), until their first move there; a member
with a finished game of that kind (their results) never gets it. Everything it reads is stored,
so a restart changes nothing. In a game's thread it ends the "your move" notice (and the game
message before the first move, the first mover's "your move"); in a game played in the channel,
the game message is the "your move" message, so it ends that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from discord.abc import Snowflake

from bot.core.store import Store
from bot.features.learn import store
from bot.features.learn.series import SERIES

if TYPE_CHECKING:
    from bot.core.sessions import GameSession
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


async def is_new(lessons: Store, game: GameAdapter, session: GameSession, member: int | None) -> bool:
    """Whether ``member``'s "your move" in ``session`` offers the lessons: their first game of its
    kind, before their first move there (see the module)."""
    if member is None or game.name not in SERIES or session.status != "active":
        return False
    if await store.has_played(lessons, member, game.name) or await store.has_acted(lessons, session.id, member):
        return False
    return await store.offer(lessons, member, game.name, session.id) == session.id  # else offered elsewhere


def offer_text(title: str, names: list[str] | None = None) -> str:
    whom = f", {and_list(names)}" if names else ""
    return f"\n📘 New to {title}{whom}? `/learn` it in 5 minutes."


async def newcomer_line(lessons: Store, game: GameAdapter, session: GameSession, member: int | None) -> str:
    """The line that ends ``member``'s "your move" notice in ``session``: "New to Octego? `/learn`
    it in 5 minutes." when it is their first game of its kind, else nothing."""
    return offer_text(game.title) if await is_new(lessons, game, session, member) else ""


async def game_message_line(
    lessons: Store, games: Mapping[str, GameAdapter], me: int | None, session: GameSession
) -> str:
    """The newcomer line of the game message, naming the members it is for, since everyone there
    reads it: the one member whose move it is, or in a game where everyone acts at once (Octagion's
    rounds) every member who has not acted yet ("New to Octagion, **Ada** and **Bo**?"). In a
    game's thread only before the first action: the thread's first message is its first mover's
    "your move", and the notices after it carry the line."""
    game = games[session.record.game]
    if session.state is None or session.status != "active":
        return ""
    if session.record.in_thread and session.record.actions > 0:
        return ""
    to_act = game.engine.to_act(session.state)
    seats = to_act if game.simultaneous or len(to_act) == 1 else []
    members = {session.players[seat]: session.bold_names[seat] for seat in seats if session.players[seat] != me}
    names = [name for member, name in members.items() if await is_new(lessons, game, session, member)]
    return offer_text(game.title, names) if names else ""
