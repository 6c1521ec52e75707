"""Octiles' hook for reviews (engines.review): the hard level's look ahead judges one turn.

Nothing in Octiles is hidden once play starts: the tiles are dealt face down but turned face up
before the runners are placed, the spare tile and the decoy markers are on the table for both.
What no player knows is how a scramble falls (the four tiles come back shuffled and turned at
random), so a turn that ends with a scramble is judged on its average over several falls of the
tiles (the game's seed replaced by seeds drawn from an RNG seeded by the game and the ply, so a
review is the same every time), never on the fall that really happened.

A turn is scored as the hard level scores it: every legal action by the position it leads to,
then the most promising ones (and the one played) by the other player's best reply and who can
reach a target next turn. Placing a decoy marker is scored by the position it leads to. The
runners' and the first circle's set-up choices are not judged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Event, rng_from

from .ai import _after_reply, evaluate
from .rules import OctilesEngine, OctilesState, colour_of

_RULES = OctilesEngine()
JUDGED = ("move", "replace_move", "rotate", "replace", "pass", "place_marker")
SCRAMBLE_FALLS = 6  # falls of the scrambled tiles a scrambling turn is averaged over


def hidden(state: OctilesState) -> bool:
    """Octiles hides nothing: both players' turns are judged in either player's review."""
    return False


def judge(
    state: OctilesState, seat: int, action: dict[str, Any], budget: int, seen: Sequence[Event] = ()
) -> dict[str, Any] | None:
    """The best action, its score and the played action's score for ``seat`` (the evaluation's
    points: 100 a prize; a won game 100,000)."""
    if action.get("type") not in JUDGED:
        return None
    colour = colour_of(state, seat)
    actions = [a for a in _RULES.legal_actions(state, seat) if a["type"] != "resign"]
    if state.phase == "marker":
        scores = [(evaluate(_RULES.apply(state, seat, a), colour), index) for index, a in enumerate(actions)]
        played_score = evaluate(_RULES.apply(state, seat, action), colour)
    else:
        first = sorted(
            ((evaluate(_RULES.apply(state, seat, a), colour), index) for index, a in enumerate(actions)),
            key=lambda item: (-item[0], item[1]),
        )
        candidates = first[: max(1, min(budget, len(first)))]
        scores = [(_after_reply(_RULES.apply(state, seat, actions[index]), colour), index) for _, index in candidates]
        played_score = _played(state, seat, action, colour)
    best_score, best_index = max(scores, key=lambda item: (item[0], -item[1]))
    best = action if played_score >= best_score else actions[best_index]
    return {
        "forced": len(actions) == 1,
        "best": _RULES.notation(state, seat, best),
        "best_score": max(best_score, played_score),
        "played_score": played_score,
        "facts": {},
    }


def points(state: OctilesState) -> float:
    """The static evaluation for the seat to act (what the curve is fitted on)."""
    acting = _RULES.to_act(state)
    return evaluate(state, colour_of(state, acting[0])) if acting else 0.0


def _played(state: OctilesState, seat: int, action: dict[str, Any], colour: str) -> float:
    """The played action's score; with a scramble, its average over falls of the tiles."""
    if "scramble" not in action:
        return _after_reply(_RULES.apply(state, seat, action), colour)
    rng = rng_from(state.seed, "octiles-review", state.ply, seat)
    total = 0.0
    for _ in range(SCRAMBLE_FALLS):
        fall = state.copy()
        fall.seed = rng.randrange(2**31)  # the scramble's fall comes from the seed: another seed, another fall
        total += _after_reply(_RULES.apply(fall, seat, action), colour)
    return total / SCRAMBLE_FALLS
