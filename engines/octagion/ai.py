"""A computer team member for Octagion, using only the engine's public API.

Octagion is a race, so the bot decides *when* a computer acts: call ``choose_action`` once
``think_seconds(level)`` after a round starts (and again later if you like). Levels:

- ``easy``: spells the word with a couple of slips (a wrong card or an empty position);
- ``medium``: a correct variant, but never risks "Got it!";
- ``hard``: a correct variant, then calls "Got it!" when the variant has no penalty.
"""

from __future__ import annotations

from typing import Any

from engines.base import rng_from

from .cards import DECK, TREATMENT
from .rules import legal_actions, party_numbers, score_variant, sequence_for, team_of
from .solver import best_variant

THINK_SECONDS = {"easy": 75, "medium": 45, "hard": 25}
# In a short round (Gamma, Alpha's late rounds) a computer answers within this share of it.
THINK_SHARE = {"easy": 0.8, "medium": 0.6, "hard": 0.4}
EASY_SLIPS = 2


def think_seconds(level: str = "medium", round_seconds: int | None = None) -> int:
    """How long after a round starts a computer of ``level`` answers (always before the round ends)."""
    level = level if level in THINK_SECONDS else "medium"
    if round_seconds is None:
        return THINK_SECONDS[level]
    return max(1, min(THINK_SECONDS[level], int(round_seconds * THINK_SHARE[level])))


def _plan(state: Any, seat: int, level: str, seed: int) -> list[str | None]:
    team = team_of(state, seat)
    word = sequence_for(state, seat)
    plan: list[str | None] = list(best_variant(word))
    # Treatment Cards beyond what the team still has become empty positions.
    allowed = state.treatments[team]
    for index, cell in enumerate(plan):
        if cell == TREATMENT:
            if allowed > 0:
                allowed -= 1
            else:
                plan[index] = None
    if level == "easy":
        rng = rng_from(seed, "octagion-ai", state.round, seat)
        for index in rng.sample(range(len(plan)), EASY_SLIPS):
            spare = [card for card in DECK if card not in plan]
            plan[index] = rng.choice([None, rng.choice(spare)])
    return plan


def _merge_for_party(state: Any, seat: int, plan: list[str | None]) -> list[str | None]:
    """In party mode, change only the cells holding (or receiving) this seat's numbers."""
    mine = set(party_numbers(state, seat))
    current = list(state.variants[team_of(state, seat)])

    def owned(cell: str | None) -> bool:
        return cell is None or cell == TREATMENT or int(cell[1:]) in mine

    merged = list(current)
    for index, wanted in enumerate(plan):
        if not (owned(current[index]) and owned(wanted)):
            continue
        if wanted not in (None, TREATMENT) and wanted in merged:
            merged[merged.index(wanted)] = None  # move the card rather than duplicate it
        merged[index] = wanted
    treatments_left = state.treatments[team_of(state, seat)]
    for index, cell in enumerate(merged):
        if cell == TREATMENT:
            if treatments_left > 0:
                treatments_left -= 1
            else:
                merged[index] = None
    return merged


def choose_action(state: Any, seat: int, level: str = "medium", seed: int = 0) -> dict[str, Any]:
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError("this seat cannot act now")
    if {"type": "next_round"} in legal:
        return {"type": "next_round"}
    plan = _merge_for_party(state, seat, _plan(state, seat, level, seed))
    current = state.variants[team_of(state, seat)]
    if plan != current:
        return {"type": "set_variant", "cards": plan}
    perfect = score_variant(current, sequence_for(state, seat))["penalties"] == 0
    if level == "hard" and perfect:
        return {"type": "got_it"}
    return {"type": "set_variant", "cards": list(current)}  # nothing better to do: keep the variant
