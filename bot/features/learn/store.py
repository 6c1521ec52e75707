"""The lessons' SQL: which lessons of which game a member has finished (``learn_progress``), and
what the newcomer line reads: whether a member has played a game (their results), has moved in a
session (its log), and the game in which they were offered its lessons (``learn_offers``)."""

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


# ---------------------------------------------------------------- the newcomer line (newcomers.py)


async def has_played(store: Store, user_id: int, game: str) -> bool:
    """Whether a member has finished a game of ``game`` in any server (their results)."""
    rows = await store.query("SELECT 1 FROM result_players WHERE user_id = ? AND game = ? LIMIT 1", (user_id, game))
    return bool(rows)


async def has_acted(store: Store, session_id: int, user_id: int) -> bool:
    """Whether a member has an action in a session's log (they made their first move there)."""
    rows = await store.query(
        "SELECT 1 FROM actions WHERE session_id = ? AND player_id = ? LIMIT 1", (session_id, user_id)
    )
    return bool(rows)


async def offer(store: Store, user_id: int, game: str, session_id: int) -> int:
    """The session in which a member is offered ``game``'s lessons: this one, unless an earlier
    offer named another (the first written wins, also when two games ask at once)."""
    sql = "SELECT session_id FROM learn_offers WHERE user_id = ? AND game = ?"
    rows = await store.query(sql, (user_id, game))
    if not rows:  # written once: every later "your move" of that game only reads it
        async with store.transaction() as tx:
            tx.write(
                "INSERT INTO learn_offers (user_id, game, session_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (user_id, game, session_id),
            )
        rows = await store.query(sql, (user_id, game))
    return int(rows[0][0])
