"""Octagion: a timed speed-spelling race in teams. ``ENGINE`` is what the bot uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Outcome

from . import rules
from .cards import COUNTDOWN_CARDS, DECK, DECK_TABLE, TREATMENT, word_at, word_cards, word_list
from .rules import (
    OctagionState,
    parse_variant,
    party_numbers,
    round_seconds,
    score_variant,
    sequence_for,
    team_members,
    team_of,
    variant_action,
)
from .solver import best_variant, conforms, solution, solution_count


class OctagionEngine:
    name = "octagion"
    title = "Octagion"
    min_players = 1
    max_players = 25
    schema_version = rules.SCHEMA_VERSION

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> OctagionState:
        return rules.new_game(players, options, seed)

    def apply(self, state: OctagionState, seat: int, action: Mapping[str, Any]) -> OctagionState:
        return rules.apply(state, seat, action)

    def legal_actions(self, state: OctagionState, seat: int) -> list[dict[str, Any]]:
        return rules.legal_actions(state, seat)

    def to_act(self, state: OctagionState) -> list[int]:
        return rules.to_act(state)

    def outcome(self, state: OctagionState) -> Outcome | None:
        return rules.outcome(state)

    def dump(self, state: OctagionState) -> dict[str, Any]:
        return rules.dump(state)

    def load(self, data: Mapping[str, Any]) -> OctagionState:
        return rules.load(data)


ENGINE = OctagionEngine()

__all__ = [
    "COUNTDOWN_CARDS",
    "DECK",
    "DECK_TABLE",
    "ENGINE",
    "TREATMENT",
    "OctagionState",
    "best_variant",
    "conforms",
    "parse_variant",
    "party_numbers",
    "round_seconds",
    "score_variant",
    "sequence_for",
    "solution",
    "solution_count",
    "team_members",
    "team_of",
    "variant_action",
    "word_at",
    "word_cards",
    "word_list",
]
