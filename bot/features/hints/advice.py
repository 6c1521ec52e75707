"""What runs in a computer worker (``bot.core.workers.THINKING``) for a hint: the computer player's
choice for the hinting seat at the hard level (a search within its node budget, never the clock),
and the events the engine emits for it, which the hint's reason is told from. Plain data in and out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.base import Event, Game

LEVEL = "hard"  # the strongest level: a hint is the computer's best, within that level's budget


@dataclass(frozen=True)
class Advice:
    action: dict[str, Any]
    notation: str  # the action as the game's record writes it ("c1-d2", "green NE")
    events: tuple[Event, ...]  # what the action does, as the engine tells it
    wins: bool  # the action wins the game at once


def advise(
    choose: Callable[..., dict[str, Any]], engine: Game[Any], state: Any, seat: int, level: str, seed: int
) -> Advice:
    action = choose(state, seat, level, seed)
    after = engine.apply(state, seat, action)
    outcome = engine.outcome(after)
    wins = outcome is not None and seat in outcome.winners and not outcome.is_draw
    return Advice(action, engine.notation(state, seat, action), tuple(after.events), wins)
