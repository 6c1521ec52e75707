"""The Octiles computer opponent: legal and better than chance (its move times: bench/bench_octiles.py)."""

from __future__ import annotations

import dataclasses

import pytest

from engines.octiles import ENGINE, PRIZE_COLOUR, choose_action, free_stops, seat_of
from engines.octiles.ai import LEVELS, UNREACHABLE, blocked_for, distances, graph_of
from tests.engines.test_octiles_properties import check_invariants
from tests.engines.test_octiles_rules import PRIZES, start, stored_at_scramble_offer

MAX_PLIES = 200  # a whole game between two computers of one level takes 50 to 120


@pytest.mark.parametrize("level", LEVELS)
def test_computer_plays_a_whole_game_legally_to_its_end(level):
    """Both seats at ``level``, from the runners' set-up to the fifth prize: each choice is one the
    engine lists (a scramble rides on a listed turn), none a resignation, and every position keeps
    the invariants of the property tests."""
    state = ENGINE.new_game(2, {"scramble": True}, 21)
    for _ in range(MAX_PLIES):
        if ENGINE.outcome(state) is not None:
            break
        seat = ENGINE.to_act(state)[0]
        action = choose_action(state, seat, level, seed=3)
        turn = {name: value for name, value in action.items() if name != "scramble"}
        assert turn in ENGINE.legal_actions(state, seat), f"{level} chose {action}, not a listed action"
        state = ENGINE.apply(state, seat, action)
        check_invariants(state)
    outcome = ENGINE.outcome(state)
    assert outcome is not None, f"{level} against {level}: no end after {MAX_PLIES} plies"
    assert outcome.reason == "all 5 prizes collected"
    assert sorted(state.collected.values())[-1] == 5


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
    assert choice["stop"] in free_stops(marker)
    owner = "gold" if marker.pending_marker["colour"] == PRIZE_COLOUR["gold"] else "teal"
    reach = distances(graph_of(marker), marker.runners[owner], blocked_for(marker, owner))
    furthest = max(reach.get(stop, UNREACHABLE + 1) for stop in free_stops(marker))
    assert reach.get(choice["stop"], UNREACHABLE + 1) == furthest, "as far from the marker's owner as a stop can be"
    placed = ENGINE.apply(marker, seat_of(marker, "teal"), choice)
    assert placed.marker == {"colour": marker.pending_marker["colour"], "stop": choice["stop"]}
    assert placed.phase == "turn"


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


def near_the_end(**extra):
    """Teal has 4 prizes and is one move from the last (B2 -> D1); Gold must move (option 3 last turn)."""
    prizes = {"D1": "plum", "B6": "orange", "F6": "orange", "F2": "orange"}
    return start(
        gold="D4",
        teal="B2",
        prizes=prizes,
        collected={"gold": 2, "teal": 4},
        marker={"colour": "orange", "stop": "E5"},
        last_option={"gold": 3},
        **extra,
    )


def test_the_computers_turn_carries_its_scramble_when_the_opponent_is_about_to_win():
    state = near_the_end(scramble=True)
    gold = seat_of(state, "gold")
    for level in ("medium", "hard"):
        action = choose_action(state, gold, level, seed=1)
        assert action["type"] in ("move", "replace_move")
        assert len(set(action["scramble"])) == 4
        assert {"b2", "c1", "d1"} <= set(action["scramble"])  # the tiles of Teal's route to D1
        after = ENGINE.apply(state, gold, action)
        assert [event.kind for event in after.events][-1] == "scramble"
    assert "scramble" not in choose_action(state, gold, "easy", seed=1), "easy never scrambles"
    assert "scramble" not in choose_action(near_the_end(), gold, "medium", seed=1), "not without the rule"
    used = dataclasses.replace(state, scramble_used=[True, True])
    assert "scramble" not in choose_action(used, gold, "medium", seed=1), "not twice"


def test_the_computer_keeps_its_scramble_early_in_the_game():
    state = start(scramble=True)
    gold = seat_of(state, "gold")
    assert "scramble" not in choose_action(state, gold, "hard", seed=1)


def test_the_computer_answers_the_old_scramble_offer_of_a_stored_game():
    state = near_the_end(scramble=True)
    gold = seat_of(state, "gold")
    move = {"type": "replace_move", "space": "d4", "orientation": 5, "to": "E4"}  # leaves Teal's route alone
    offer = stored_at_scramble_offer(state, gold, move)
    choice = choose_action(offer, gold, "medium", seed=1)
    assert choice["type"] == "scramble"
    assert {"b2", "c1", "d1"} <= set(choice["tiles"])
    ENGINE.apply(offer, gold, choice)
    early = stored_at_scramble_offer(start(scramble=True), gold, {"type": "move", "to": "B3"})
    assert choose_action(early, gold, "medium") == {"type": "skip_scramble"}
