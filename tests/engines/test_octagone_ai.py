"""Octagone's computer opponent: always legal and better than random play (its move times: bench/bench_octagone.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines.base import Outcome
from engines.octagone import ENGINE, JOKER, choose_action
from engines.octagone.ai import LEVELS
from engines.octagone.rules import SHIELD_KINDS, Placement


def _random_move(state, seat, rng):
    return rng.choice([action for action in ENGINE.legal_actions(state, seat) if action["type"] != "resign"])


def _play(seed: int, players: int, computer_seats: set[int], level: str) -> Outcome | None:
    state = ENGINE.new_game(players, {}, seed)
    rng = random.Random(seed)
    while not state.over:
        seat = state.to_move
        if seat in computer_seats:
            action = choose_action(state, seat, level, seed)
            assert action in ENGINE.legal_actions(state, seat)
            assert action["type"] != "resign"
        else:
            action = _random_move(state, seat, rng)
        state = ENGINE.apply(state, seat, action)
    return ENGINE.outcome(state)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_legal_games(level):
    for seed in range(3):
        assert _play(seed, 2, {0, 1}, level) is not None


def test_four_player_games_are_legal():
    for seed in range(3):
        assert _play(seed, 4, {0, 1, 2, 3}, "hard") is not None


def test_medium_beats_random_play_in_most_games():
    wins = 0
    for seed in range(20):
        seat = seed % 2
        outcome = _play(seed, 2, {seat}, "medium")
        wins += outcome.ranks[seat] == 1 and not outcome.is_draw
    assert wins >= 14, f"medium won only {wins} of 20 games against random play"


def test_four_player_pair_beats_random_pair_in_most_games():
    wins = 0
    for seed in range(20):
        pair = {seed % 2, seed % 2 + 2}
        outcome = _play(seed, 4, pair, "medium")
        wins += outcome.ranks[min(pair)] == 1 and not outcome.is_draw
    assert wins >= 12, f"the computer pair won only {wins} of 20 games"


def test_computer_sends_the_opponent_to_a_colour_it_lacks():
    """Seat 0 plays on B4; seat 1 holds only sky and orange shields, no joker.

    Aiming at B5 (sky) lets seat 1 play; aiming at a green, yellow, blue or pink box forces it to skip.
    """
    state = ENGINE.new_game(2, {"level": "advanced"}, seed=4)
    hands = [dict.fromkeys(SHIELD_KINDS, 0), dict.fromkeys(SHIELD_KINDS, 0)]
    hands[0].update(sky=3, green=3)
    hands[1].update(sky=3, orange=3)
    board = {
        box: Placement("orange", "S", 1, n + 1)
        for n, box in enumerate(
            ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "B1", "B2", "B3", "C1", "C2", "C3", "D1", "D2", "D3", "D4"]
        )
    }
    state = replace(state, board=board, target="B4", hands=hands, to_move=0, last_box="A4", ply=len(board))
    action = choose_action(state, 0, "medium")
    after = ENGINE.apply(state, 0, action)
    assert after.target[0] not in "AB"  # a colour seat 1 lacks
    assert any(event.kind == "skip" and event.seat == 1 for event in after.events)
    assert after.to_move == 0 or ENGINE.outcome(after).winners == (0,)
    assert hands[1][JOKER] == 0
