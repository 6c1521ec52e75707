"""Random legal Octego games keep every invariant of the rules."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engines.base import IllegalAction
from engines.octego import ENGINE, is_black, legal_moves, notation, square_index
from engines.octego.constants import HOME_ROW_LAYOUT, OCTEGO, STEPS
from engines.octego.rules import piece_moves, piece_targets

FULL_SET = sorted(HOME_ROW_LAYOUT)


def squares_of(notation: str) -> list[str]:
    return notation.replace("x", "-").split("-")


def random_step(state, rng: random.Random):
    return ENGINE.apply(state, state.to_move, {"type": "move", "path": rng.choice(legal_moves(state, state.to_move))})


def check_invariants(state) -> None:
    for seat in (0, 1):
        on_board = [cell[1] for cell in state.board if cell and cell[0] == str(seat)]
        lost = state.captured[1 - seat]  # what the opponent took from this seat
        assert sorted(on_board + lost) == FULL_SET, "pieces lost or duplicated"
    assert len(state.board) == 64
    assert json.loads(json.dumps(ENGINE.dump(state))) == ENGINE.dump(state)
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(1, 80))
def test_random_games_conserve_pieces_alternate_and_round_trip(seed, plies):
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {}, seed)
    for ply in range(plies):
        if state.over:
            break
        seat = state.to_move
        assert ENGINE.to_act(state) == [seat]
        assert seat == ply % 2  # seat 0 first, then strict alternation
        moves = [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "move"]
        assert moves, "a running game always has a move for the player to act"
        assert ENGINE.legal_actions(state, 1 - seat) == [{"type": "resign"}]
        before = json.dumps(ENGINE.dump(state))
        action = rng.choice(moves)
        new = ENGINE.apply(state, seat, action)
        assert json.dumps(ENGINE.dump(state)) == before, "apply changed its input"
        assert new.ply == state.ply + 1
        (event,) = [event for event in new.events if event.kind == "move"]
        assert event.seat == seat
        assert notation(event.data["path"], event.data["capture"]) == action["path"]
        state = new
        check_invariants(state)
    if state.over:
        assert ENGINE.outcome(state) is not None
        assert ENGINE.to_act(state) == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 40))
def test_every_listed_move_is_accepted_and_obeys_the_movement_rules(seed, plies):
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {}, seed)
    for _ in range(plies):
        if state.over:
            break
        state = random_step(state, rng)
    assume(not state.over)  # the checks below need a player to move
    seat = state.to_move
    listed = legal_moves(state, seat)
    assert len(listed) == len(set(listed))
    for square, cell in enumerate(state.board):  # the search's fast generator agrees
        if cell:
            fast = piece_targets(state.board, square)
            assert len(fast) == len(set(fast))
            assert set(fast) == {m.end for m in piece_moves(state.board, square)}
    for written in listed:
        after = ENGINE.apply(state, seat, {"type": "move", "path": written})
        path = squares_of(written)
        kind = state.board[square_index(path[0])][1]
        target = state.board[square_index(path[-1])]
        assert after.board[square_index(path[-1])] == f"{seat}{kind}"
        assert after.board[square_index(path[0])] == ""
        assert ("x" in written) == bool(target)
        straight = path[0][0] == path[-1][0] or path[0][1] == path[-1][1]
        if len(path) == 2 and straight:  # a grid change: one space, colour flips, no capture
            assert kind != OCTEGO
            assert not target
            assert is_black(square_index(path[0])) != is_black(square_index(path[1]))
        else:
            assert len(path) - 1 == STEPS[kind]
            assert len(set(path)) == len(path)
            assert all(not state.board[square_index(sq)] for sq in path[1:-1])
            assert is_black(square_index(path[0])) == is_black(square_index(path[-1]))
        if target:
            assert kind != OCTEGO
            assert target[0] != str(seat)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 40))
def test_short_form_resolves_to_the_same_move_exactly_when_unique(seed, plies):
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {}, seed)
    for _ in range(plies):
        if state.over:
            break
        state = random_step(state, rng)
    assume(not state.over)  # the checks below need a player to move
    seat = state.to_move
    listed = legal_moves(state, seat)
    by_ends: dict[tuple[str, str], list[str]] = {}
    for written in listed:
        path = squares_of(written)
        by_ends.setdefault((path[0], path[-1]), []).append(written)
    for (first, last), paths in by_ends.items():
        short = {"type": "move", "path": f"{first}-{last}"}
        if len(paths) == 1:
            assert ENGINE.apply(state, seat, short).events[0].data["path"] == squares_of(paths[0])
        else:
            with pytest.raises(IllegalAction) as error:
                ENGINE.apply(state, seat, short)
            assert all(p in str(error.value) for p in paths)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 40))
def test_a_capture_mark_is_accepted_exactly_on_a_capture(seed, plies):
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {}, seed)
    for _ in range(plies):
        if state.over:
            break
        state = random_step(state, rng)
    assume(not state.over)  # the checks below need a player to move
    seat = state.to_move
    for written in legal_moves(state, seat):
        path = squares_of(written)
        captures = bool(state.board[square_index(path[-1])])
        dashes = "-".join(path)
        marked = "-".join(path[:-1]) + "x" + path[-1]
        played = ENGINE.apply(state, seat, {"type": "move", "path": dashes}).events[0].data["path"]
        assert played == path, "a capture may be written with '-' alone"
        if captures:
            assert ENGINE.apply(state, seat, {"type": "move", "path": marked}).events[0].data["path"] == path
        else:
            with pytest.raises(IllegalAction, match=f"^{marked} captures nothing: write it {dashes} "):
                ENGINE.apply(state, seat, {"type": "move", "path": marked})
