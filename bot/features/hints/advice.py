"""What runs in a computer worker (``bot.core.workers.THINKING``) for a hint: the computer player's
choice for the hinting seat at the hard level (a search within its node budget, never the clock),
checked by the review's judge, and the events the engine emits for it, which the hint's reason is
told from. Plain data in and out.

The hard level may look at what its seat could not know (Octa's King or face-down card is tried on
the cards that really lie there). A hint must not tell a member what they cannot see, so the choice
is judged as a review judges a move, only on what the seat could know (hidden cards averaged over
samples consistent with what it saw, engines.review): when the judge finds it a mistake or worse, the
hint is the judge's best instead (a lesser doubt keeps the stronger search's choice)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.base import Event, Game, IllegalAction
from engines.review import Played, judge_ply, kind, reviewable

LEVEL = "hard"  # the strongest level: a hint is the computer's best, within that level's budget
UNSOUND = ("mistake", "blunder")  # a judged choice replaced by the judge's best


@dataclass(frozen=True)
class Advice:
    action: dict[str, Any]
    notation: str  # the action as the game's record writes it ("c1-d2", "green NE")
    events: tuple[Event, ...]  # what the action does, as the engine tells it
    wins: bool  # the action wins the game at once


def advise(
    choose: Callable[..., dict[str, Any]],
    engine: Game[Any],
    state: Any,
    seat: int,
    level: str,
    seed: int,
    record: Played | None = None,
) -> Advice:
    action = choose(state, seat, level, seed)
    if record is not None and reviewable(record.game) and kind(record.game) == "moves":
        action = judged(engine, state, seat, action, record)
    after = engine.apply(state, seat, action)
    outcome = engine.outcome(after)
    wins = outcome is not None and seat in outcome.winners and not outcome.is_draw
    return Advice(action, engine.notation(state, seat, action), tuple(after.events), wins)


def judged(engine: Game[Any], state: Any, seat: int, action: dict[str, Any], record: Played) -> dict[str, Any]:
    """``action``, unless the review's judge, on what ``seat`` could know, finds it a mistake or worse."""
    ply = len(record.actions) + 1
    review = judge_ply(record.with_action(seat, action), ply)
    if review is None or review.mark not in UNSOUND:
        return action
    try:
        return engine.parse_notation(state, seat, review.best)
    except IllegalAction:  # a best the judge wrote that does not read back: the hard level's choice stands
        return action
