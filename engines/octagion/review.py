"""Octagion's hook for reviews (engines.review): a race is reviewed by rounds, not moves.

For each round, the member's team's answer (its variant when the round was scored) against the
solver's best (:func:`engines.octagion.solver.best_variant`: a solution of the round's word, or as
few Treatment Cards as the word needs) and the points each scored or would have scored: the
solver calls "Got it!" when its answer is right, and uses a Treatment Card only where the word
needs one and the team still had it (else the place stays empty). Nothing is searched, so there
is no budget; the record replays exactly, so the review is the same every time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import TREATMENT
from .rules import OctagionEngine, score_variant, team_of
from .solver import best_variant

_RULES = OctagionEngine()


def rounds(
    players: int, options: dict[str, Any], seed: int, actions: Sequence[tuple[int, dict[str, Any]]], seat: int
) -> list[dict[str, Any]]:
    """One entry per scored round for ``seat``'s team: ``round``, ``word``, ``answer`` (its cards,
    None for an empty place), ``points``, ``best`` (the solver's cards) and ``best_points``."""
    state = _RULES.new_game(players, options, seed)
    treatments = state.treatments[team_of(state, seat)]
    for acting, action in actions:
        state = _RULES.apply(state, acting, action)
    team = team_of(state, seat)
    reviewed = []
    for scored in state.history:
        result = scored["results"][team]
        if result is None:  # the team had left
            continue
        word = scored["words"][team]
        best: list[str | None] = list(best_variant(word))
        needed = best.count(TREATMENT)
        if needed > treatments:  # not enough Treatment Cards left: those places stay empty
            best = [None if card == TREATMENT else card for card in best]
        right = None not in best  # every place filled: the solver calls "Got it!"
        best_scored = score_variant(best, word, got_it=right)
        reviewed.append(
            {
                "round": scored["round"],
                "word": word,
                "answer": list(scored["variants"][team]),
                "points": result["score"],
                "best": best,
                "best_points": best_scored["score"],
            }
        )
        treatments -= result.get("treatment_used", 0)
    return reviewed
