"""Octagion: a timed speed-spelling race in teams. ``ENGINE`` is what the bot uses; ``__all__``
is what ``render/``, ``bot/`` and ``bench/`` may use."""

from __future__ import annotations

from .ai import choose_action, think_seconds
from .cards import COUNTDOWN_CARDS, DECK_TABLE, MAX_TREATMENT_CARDS, TREATMENT, word_list, word_solutions
from .rules import (
    COMBINATIONS,
    DEFAULT_ROUNDS,
    VARIATIONS,
    OctagionEngine,
    OctagionState,
    has,
    normalise_variations,
    own_cells,
    party_numbers,
    round_seconds,
    score_variant,
    team_active,
    team_members,
    team_of,
)
from .solver import clear_cache as clear_solver_cache
from .solver import solution, solution_count

ENGINE = OctagionEngine()

__all__ = [
    "COMBINATIONS",
    "COUNTDOWN_CARDS",
    "DECK_TABLE",
    "DEFAULT_ROUNDS",
    "ENGINE",
    "MAX_TREATMENT_CARDS",
    "TREATMENT",
    "VARIATIONS",
    "OctagionState",
    "choose_action",
    "clear_solver_cache",
    "has",
    "normalise_variations",
    "own_cells",
    "party_numbers",
    "round_seconds",
    "score_variant",
    "solution",
    "solution_count",
    "team_active",
    "team_members",
    "team_of",
    "think_seconds",
    "word_list",
    "word_solutions",
]
