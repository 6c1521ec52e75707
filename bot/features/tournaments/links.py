"""What a game knows of the event it plays in (``SessionMeta.tournament``, written when the event
opens it), and the gate that lets only such games' changes reach the event's code: a change of a
game outside any event never calls into the tournaments."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any

from bot.core.change import Change, SessionMeta
from bot.core.sessions import Planner


@dataclass(frozen=True)
class EventLink:
    """The event (``id``: its session) and the pairing a game plays: round, table, the event's
    name and whether it is rated, and the seat its pairing's first player sits in."""

    id: int
    round: int
    table: int
    name: str
    rated: bool
    first_seat: int = 0

    @classmethod
    def of(cls, meta: SessionMeta) -> EventLink | None:
        """The game's link (None: a game outside any event)."""
        link = meta.tournament
        if not link:
            return None
        return cls(
            id=link["id"],
            round=link["round"],
            table=link["table"],
            name=link["name"],
            rated=link["rated"],
            first_seat=link.get("first_seat", 0),
        )

    def to_meta(self) -> dict[str, Any]:
        return asdict(self)


EventStep = Callable[[Change, EventLink], Awaitable[None]]


def for_event_games(step: EventStep) -> Planner:
    """A change's step for the games that play in an event only: ``step`` is given the game's
    link, and a game outside any event passes by without calling it."""

    async def planner(change: Change) -> None:
        link = EventLink.of(change.meta)
        if link is not None:
            await step(change, link)

    return planner
