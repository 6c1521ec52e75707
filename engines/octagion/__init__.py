"""Octagion: a timed speed-spelling race in teams. ``ENGINE`` is what the bot uses; ``__all__``
is what ``render/``, ``bot/`` and ``bench/`` may use."""

from __future__ import annotations

from .ai import choose_action, think_seconds
from .cards import COUNTDOWN_CARDS, DECK_TABLE, MAX_TREATMENT_CARDS, TREATMENT, word_list, word_solutions
from .daily import (
    BONUS_STEP_SECONDS,
    COUNTDOWN_SECONDS,
    DAILY_EPOCH,
    MAX_TIME_BONUS,
    DailyEntry,
    DailyScore,
    Streak,
    daily_word,
    day_closes_at,
    day_is_over,
    next_streak,
    parse_daily_answer,
    puzzle_day,
    puzzle_number,
    ranked,
    score_daily,
    streaks,
)
from .rules import (
    COMBINATIONS,
    DEFAULT_ROUNDS,
    VARIATIONS,
    OctagionEngine,
    OctagionState,
    has,
    left_empty,
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
    "BONUS_STEP_SECONDS",
    "COMBINATIONS",
    "COUNTDOWN_CARDS",
    "COUNTDOWN_SECONDS",
    "DAILY_EPOCH",
    "DECK_TABLE",
    "DEFAULT_ROUNDS",
    "ENGINE",
    "MAX_TIME_BONUS",
    "MAX_TREATMENT_CARDS",
    "TREATMENT",
    "VARIATIONS",
    "DailyEntry",
    "DailyScore",
    "OctagionState",
    "Streak",
    "choose_action",
    "clear_solver_cache",
    "daily_word",
    "day_closes_at",
    "day_is_over",
    "has",
    "left_empty",
    "next_streak",
    "normalise_variations",
    "own_cells",
    "parse_daily_answer",
    "party_numbers",
    "puzzle_day",
    "puzzle_number",
    "ranked",
    "round_seconds",
    "score_daily",
    "score_variant",
    "solution",
    "solution_count",
    "streaks",
    "team_active",
    "team_members",
    "team_of",
    "think_seconds",
    "word_list",
    "word_solutions",
]
