"""Octagion: a timed speed-spelling race in teams. ``ENGINE`` is what the bot uses; ``__all__``
is what ``render/``, ``bot/`` and ``bench/`` may use."""

from __future__ import annotations

from .ai import choose_action
from .cards import COUNTDOWN_CARDS, DECK_TABLE, TREATMENT, word_list, word_solutions
from .rules import (
    DEFAULT_ROUNDS,
    OctagionEngine,
    OctagionState,
    has,
    party_numbers,
    round_seconds,
    team_active,
    team_members,
    team_of,
)
from .solver import clear_cache as clear_solver_cache
from .solver import solution, solution_count

ENGINE = OctagionEngine()

__all__ = [
    "COUNTDOWN_CARDS",
    "DECK_TABLE",
    "DEFAULT_ROUNDS",
    "ENGINE",
    "TREATMENT",
    "OctagionState",
    "choose_action",
    "clear_solver_cache",
    "has",
    "party_numbers",
    "round_seconds",
    "solution",
    "solution_count",
    "team_active",
    "team_members",
    "team_of",
    "word_list",
    "word_solutions",
]
