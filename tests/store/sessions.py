"""A session row for the store's tests, written as the platform would open one."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.core.store import Store

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def new_session(
    store: Store,
    channel: int = 1,
    status: str = "active",
    *,
    state: dict[str, Any] | None = None,
    meta: dict[str, Any] | None = None,
    in_thread: bool = False,
) -> int:
    """A two-player game of "tiny" in ``channel`` of server 9; its id."""
    async with store.transaction() as tx:
        return await tx.insert_session(
            game="tiny",
            guild_id=9,
            channel_id=channel,
            host_id=5,
            players=[5, 6],
            status=status,
            state={"total": 0} if state is None else state,
            schema_version=1,
            now=NOW,
            meta={} if meta is None else meta,
            in_thread=in_thread,
        )
