"""Octego's computer players: legal, repeatable, and the hard one sees one move ahead. The searches
are bounded by nodes, not time, so these tests never depend on the clock (move times:
bench/bench_octego.py)."""

from __future__ import annotations

import random

import pytest

from engines.octego import ENGINE, NODE_BUDGET, choose_action, legal_moves, piece_at
from engines.octego.ai import LEVELS, MAX_DEPTH, Search, evaluate
from engines.octego.rules import generate_moves

NODES = 3000  # search nodes per medium or hard move in tests, to keep them short


def midgame(seed: int = 3, plies: int = 14):
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {}, seed)
    for _ in range(plies):
        moves = legal_moves(state, state.to_move)
        state = ENGINE.apply(state, state.to_move, {"type": "move", "path": rng.choice(moves)})
        assert not state.over
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_returns_a_legal_move(level):
    for state in (ENGINE.new_game(2, {}, 1), midgame()):
        action = choose_action(state, state.to_move, level, seed=4, nodes=NODES)
        assert action["type"] == "move"
        assert action["path"] in legal_moves(state, state.to_move)
        ENGINE.apply(state, state.to_move, action)  # accepted


def test_hard_with_its_default_budget_returns_a_legal_move():
    state = midgame(5)
    action = choose_action(state, state.to_move, "hard", seed=1)
    assert action["path"] in legal_moves(state, state.to_move)


def test_the_same_seed_gives_the_same_easy_move():
    state = midgame(7)
    first = choose_action(state, state.to_move, "easy", seed=11)
    assert all(choose_action(state, state.to_move, "easy", seed=11) == first for _ in range(3))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_search_plays_the_same_move_for_the_same_seed_and_budget(level):
    # The budget is counted in nodes, so a busy machine cannot change the move.
    for state in (midgame(7), midgame(8, 20)):
        first = choose_action(state, state.to_move, level, seed=11, nodes=NODES)
        assert choose_action(state, state.to_move, level, seed=11, nodes=NODES) == first


def test_the_search_stops_at_its_node_budget_and_deepens_with_more_nodes():
    state = midgame(9)
    reached = []
    for nodes in (500, 5000, NODE_BUDGET["hard"]):
        search = Search(state, state.to_move, nodes, random.Random(1))
        plan = search.best(MAX_DEPTH, noise=0)
        assert plan in {(m.start, m.end) for m in generate_moves(state.board, state.to_move)}
        assert search.nodes <= nodes + 1  # the node over the budget is where it stops
        reached.append(search.depth_reached)
    assert reached == sorted(reached)
    assert reached[-1] >= 3


@pytest.mark.parametrize("seat", [0, 1])
def test_hard_moves_an_octego_onto_the_last_row_to_win(seat):
    # A capture is on offer as a decoy; the win is one Octego step away.
    if seat == 0:
        state = ENGINE.new_game(2, {"position": "Oc7 Oa1 1d4 / Oh8 3e5 Og6"}, 0)
    else:
        state = ENGINE.new_game(2, {"position": "Oa3 Oh5 3e4 / Of2 Oa8 1d5", "to_move": 1}, 0)
    action = choose_action(state, seat, "hard", seed=2, nodes=NODES)
    after = ENGINE.apply(state, seat, action)
    assert ENGINE.outcome(after).winners == (seat,), action


def test_hard_avoids_an_immediate_loss():
    # Seat 1's Octego on d2 reaches row 1 next move unless seat 0 takes it now (e3xd2);
    # taking the 3 on f4 instead looks tempting but loses.
    state = ENGINE.new_game(2, {"position": "Oa5 Oh4 1e3 2b3 / Od2 Oa8 3f4"}, 0)
    for seed in range(3):
        action = choose_action(state, 0, "hard", seed=seed, nodes=NODES)
        assert action["path"] == "e3xd2"
        after = ENGINE.apply(state, 0, action)
        assert piece_at(after, "d2") == (0, "1")


def test_medium_also_stops_a_one_move_threat():
    state = ENGINE.new_game(2, {"position": "Oa5 Oh4 1e3 2b3 / Od2 Oa8 3f4"}, 0)
    assert choose_action(state, 0, "medium", seed=0, nodes=NODES)["path"] == "e3xd2"


def test_evaluation_prefers_advanced_octegos_and_material():
    behind = ENGINE.new_game(2, {"position": "Oc3 Oa1 / Oh8 Of8"}, 0).board
    ahead = ENGINE.new_game(2, {"position": "Oc5 Oa1 / Oh8 Of8"}, 0).board
    assert evaluate(ahead, 0) > evaluate(behind, 0)
    richer = ENGINE.new_game(2, {"position": "Oc3 Oa1 1h3 / Oh8 Of8"}, 0).board
    assert evaluate(richer, 0) > evaluate(behind, 0)


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level"):
        choose_action(ENGINE.new_game(2, {}, 0), 0, "grandmaster")


def test_asking_out_of_turn_is_an_error_not_a_resignation():
    state = ENGINE.new_game(2, {}, 0)
    with pytest.raises(ValueError, match="cannot move now"):
        choose_action(state, 1, "hard", nodes=NODES)
