"""The Octiles computer opponent: legal and better than chance (its move times: bench/bench_octiles.py)."""

from __future__ import annotations

import pytest

from engines.octiles import ENGINE, choose_action, seat_of
from engines.octiles.ai import LEVELS
from tests.engines.test_octiles_rules import PRIZES, start


@pytest.mark.parametrize("level", LEVELS)
def test_computer_plays_whole_games_legally(level):
    state = ENGINE.new_game(2, {"scramble": True}, 21)
    for _ in range(40):
        if ENGINE.outcome(state) is not None:
            break
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, choose_action(state, seat, level, seed=3))  # raises if illegal


def test_computer_collects_a_prize_it_can_reach():
    state = start()
    action = choose_action(state, seat_of(state, "gold"), "medium")
    assert action == {"type": "move", "to": "D1"}


def test_computer_heads_for_its_marker_when_it_must():
    state = start(
        gold="D1",
        teal="D4",
        collected={"gold": 1},
        marker={"colour": "orange", "stop": "B2"},
        prizes={k: v for k, v in PRIZES.items() if k != "D1"},
    )
    action = choose_action(state, seat_of(state, "gold"), "medium")
    assert action["type"] in ("move", "replace_move")
    assert action["to"] == "B2"


def test_computer_makes_set_up_and_marker_choices():
    state = ENGINE.new_game(2, {}, 4)
    state = ENGINE.apply(state, state.gold_seat, choose_action(state, state.gold_seat))
    teal = seat_of(state, "teal")
    state = ENGINE.apply(state, teal, choose_action(state, teal))
    assert state.phase == "turn"
    assert len(state.prizes) == 10
    marker = start(gold="B2", teal="D4")
    marker = ENGINE.apply(marker, seat_of(marker, "gold"), {"type": "move", "to": "D1"})
    choice = choose_action(marker, seat_of(marker, "teal"))
    assert choice["type"] == "place_marker"
    ENGINE.apply(marker, seat_of(marker, "teal"), choice)


def test_medium_beats_easy_most_of_the_time():
    wins = 0
    for game in range(4):
        state = ENGINE.new_game(2, {}, 100 + game)
        medium_seat = game % 2
        for _ in range(220):
            if ENGINE.outcome(state) is not None:
                break
            seat = ENGINE.to_act(state)[0]
            level = "medium" if seat == medium_seat else "easy"
            state = ENGINE.apply(state, seat, choose_action(state, seat, level, seed=game))
        outcome = ENGINE.outcome(state)
        wins += outcome is not None and outcome.winners == (medium_seat,)
    assert wins >= 3
