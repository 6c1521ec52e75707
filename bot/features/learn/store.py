"""The lessons' SQL: which lessons of which game a member has finished (``learn_progress``)."""

from __future__ import annotations

from bot.core.store import Store


async def finished(store: Store, user_id: int, game: str) -> set[str]:
    rows = await store.query("SELECT lesson FROM learn_progress WHERE user_id = ? AND game = ?", (user_id, game))
    return {row[0] for row in rows}


async def finished_by_game(store: Store, user_id: int) -> dict[str, set[str]]:
    rows = await store.query("SELECT game, lesson FROM learn_progress WHERE user_id = ?", (user_id,))
    found: dict[str, set[str]] = {}
    for game, lesson in rows:
        found.setdefault(game, set()).add(lesson)
    return found


async def finish(store: Store, user_id: int, game: str, lesson: str) -> None:
    """Marks a lesson finished (finishing it again changes nothing)."""
    async with store.transaction() as tx:
        tx.write(
            "INSERT INTO learn_progress (user_id, game, lesson) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (user_id, game, lesson),
        )
