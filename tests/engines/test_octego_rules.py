"""Octego rules, one test (or more) per rule sentence of the seed and the decisions file."""

from __future__ import annotations

import json

import pytest

from engines.base import Event, IllegalAction, Outcome
from engines.octego import (
    ENGINE,
    destinations_by_piece,
    is_black,
    legal_moves,
    notation,
    piece_at,
    pieces_of,
    square_index,
)
from engines.octego.constants import HOME_ROW_LAYOUT, MOVES_WITHOUT_CAPTURE_FOR_DRAW
from engines.octego.rules import moves_by_piece, parse_move


def start(position: str | None = None, to_move: int = 0):
    options = {"position": position, "to_move": to_move} if position else {}
    return ENGINE.new_game(2, options, seed=7)


def move(state, seat: int, path: str):
    return ENGINE.apply(state, seat, {"type": "move", "path": path})


def ends(state, square: str) -> set[str]:
    """The squares the piece on ``square`` can end on."""
    return set(destinations_by_piece(state, state.to_move).get(square, {}))


def moved(state) -> Event:
    """The move event of the last action."""
    (event,) = [event for event in state.events if event.kind == "move"]
    return event


def last_move_path(state) -> list[str] | None:
    """Squares visited by the last action's move (None if it was not a move)."""
    found = [event for event in state.events if event.kind == "move"]
    return found[0].data["path"] if found else None


# ---------------------------------------------------------------- set-up


def test_home_rows_follow_the_layout_from_each_players_left():
    state = start()
    row1 = [piece_at(state, f"{f}1") for f in "abcdefgh"]
    row8 = [piece_at(state, f"{f}8") for f in "hgfedcba"]  # seat 1's own left is column h
    assert row1 == [(0, kind) for kind in HOME_ROW_LAYOUT]
    assert row8 == [(1, kind) for kind in HOME_ROW_LAYOUT]
    assert sum(1 for cell in state.board if cell) == 16


def test_each_player_has_one_of_each_kind_on_each_colour():
    state = start()
    for seat in (0, 1):
        for colour in (True, False):
            kinds = sorted(kind for sq, kind in pieces_of(state, seat) if is_black(square_index(sq)) == colour)
            assert kinds == ["1", "2", "3", "O"]


def test_first_player_moves_first_and_turns_alternate():
    state = start()
    assert ENGINE.to_act(state) == [0]
    with pytest.raises(IllegalAction, match="not your turn"):
        move(state, 1, "c8-d7")
    state = move(state, 0, "c1-d2")
    assert ENGINE.to_act(state) == [1]
    with pytest.raises(IllegalAction, match="not your turn"):
        move(state, 0, "d2-e3")


# ---------------------------------------------------------------- moving


def test_each_piece_moves_exactly_its_number_of_diagonal_spaces():
    for kind, expected in {
        "1": {"c3", "e3", "c5", "e5"},
        "O": {"c3", "e3", "c5", "e5"},
        "2": {"b2", "d2", "f2", "b4", "f4", "b6", "d6", "f6"},
    }.items():
        state = start(f"{kind}d4 Oa1 / Oh8")
        assert ends(state, "d4") == expected, kind
    three = ends(start("3d4 Ob1 / Oh8"), "d4")
    # Odd displacements only, up to three rows/columns away; includes the neighbours (detours).
    assert three == {
        f"{f}{r}"
        for f in "acegbdfh"
        for r in range(1, 9)
        if abs("abcdefgh".index(f) - 3) % 2 == 1
        and abs(r - 4) % 2 == 1
        and abs("abcdefgh".index(f) - 3) <= 3
        and abs(r - 4) <= 3
    }


def test_octego_moves_one_space_diagonally():
    state = start("Od4 Oa1 / Oh8")
    with pytest.raises(IllegalAction, match="exactly 1 space"):
        move(state, 0, "d4-e5-f6")


def test_pieces_stay_on_their_colour_when_moving_diagonally():
    state = start("3d4 2c3 1f6 Od2 Oa1 / Oh8")
    for written in legal_moves(state, 0):
        squares = written.replace("x", "-").split("-")
        if squares[0][0] not in "ah" and squares[0][1] not in "18":
            assert is_black(square_index(squares[0])) == is_black(square_index(squares[-1])), written


def test_direction_may_change_during_a_move_and_backward_is_allowed():
    state = start("2d4 Oa1 / Oh8")
    after = move(state, 0, "d4-e5-f4")  # forward right, then backward right
    assert piece_at(after, "f4") == (0, "2")
    after = move(state, 0, "d4-c3-b4")  # backward left, then forward left
    assert piece_at(after, "b4") == (0, "2")


def test_no_space_may_be_visited_twice_in_one_move():
    state = start("3d4 Oa1 / Oh8")
    with pytest.raises(IllegalAction, match="same space twice"):
        move(state, 0, "d4-e5-d4-c5")
    assert all(
        len(set(m.replace("x", "-").split("-"))) == len(m.replace("x", "-").split("-")) for m in legal_moves(state, 0)
    )


def test_pieces_cannot_jump_over_any_piece():
    state = start("2d4 1e5 Oa1 / Oh8 1c3")
    assert "f6" not in ends(state, "d4")  # own piece on e5 in the way
    assert "b2" not in ends(state, "d4")  # opponent's piece on c3 in the way
    with pytest.raises(IllegalAction, match="blocked on e5"):
        move(state, 0, "d4-e5-f6")


def test_a_blocked_piece_is_trapped_and_may_not_move():
    state = start("2d4 1c3 1e3 2c5 3e5 Oa1 / Oh8")
    assert "d4" not in moves_by_piece(state, 0)
    with pytest.raises(IllegalAction, match="trapped"):
        move(state, 0, "d4-f6")


def test_a_1_cannot_be_trapped_by_opponent_pieces_because_it_captures():
    state = start("1d4 Oa1 / Oh8 1c3 2e3 3c5 Oe5")
    assert ends(state, "d4") == {"c3", "e3", "c5", "e5"}
    after = move(state, 0, "d4xe5")
    assert piece_at(after, "e5") == (0, "1")
    assert after.captured[0] == [*state.captured[0], "O"]


def test_a_2_cannot_take_a_diagonal_neighbour_but_a_3_can_by_a_detour():
    two = start("2d4 Oa1 / Oh8 1e5")
    assert "e5" not in ends(two, "d4")
    three = start("3d4 Oa1 / Oh8 1e5")
    assert "e5" in ends(three, "d4")
    after = move(three, 0, "d4-c5-d6xe5")
    assert piece_at(after, "e5") == (0, "3")
    assert piece_at(after, "d4") is None


def test_pieces_may_not_end_on_their_own_piece():
    state = start("1d4 2e5 Oa1 / Oh8")
    with pytest.raises(IllegalAction, match="your own piece"):
        move(state, 0, "d4-e5")


# ---------------------------------------------------------------- capturing


def test_landing_on_an_opponent_piece_captures_it_for_good():
    state = start("2d4 Oa1 / Oh8 3f6")
    after = move(state, 0, "d4-e5xf6")
    assert piece_at(after, "f6") == (0, "2")
    assert after.captured == [[*state.captured[0], "3"], state.captured[1]]
    assert len(pieces_of(after, 1)) == 1
    assert moved(after).data["capture"] == "3"


def test_an_octego_may_not_capture():
    state = start("Od4 Oa1 / Oh8 1e5")
    assert "e5" not in ends(state, "d4")
    with pytest.raises(IllegalAction, match="Octego piece may not capture"):
        move(state, 0, "d4-e5")


def test_every_numbered_piece_outranks_and_can_capture_an_octego():
    for kind in "123":
        walk = {"1": "d4xe5", "2": "d4-e5xf6", "3": "d4-c5-d6xe5"}[kind]
        target = walk[-2:]
        state = start(f"{kind}d4 Oa1 / Oh8 O{target}")
        after = move(state, 0, walk)
        assert after.captured[0] == [*state.captured[0], "O"]


def test_numbered_pieces_capture_each_other_whatever_their_number():
    state = start("1d4 Oa1 / Oh8 3e5")
    assert move(state, 0, "d4xe5").captured[0] == [*state.captured[0], "3"]


# ---------------------------------------------------------------- changing grids


def test_side_edge_piece_may_step_straight_forward_or_backward_changing_colour():
    state = start("2a4 Oc1 / Oh8")
    assert {"a3", "a5"} <= ends(state, "a4")
    after = move(state, 0, "a4-a5")
    assert piece_at(after, "a5") == (0, "2")
    assert is_black(square_index("a4")) != is_black(square_index("a5"))
    assert moved(after).data["grid_change"] is True
    assert move(start("3h5 Oc1 / Oa8"), 0, "h5-h4").board[square_index("h4")] == "03"


def test_side_edge_piece_may_not_step_sideways():
    state = start("1a4 Oc1 / Oh8")
    assert "b4" not in ends(state, "a4")
    with pytest.raises(IllegalAction, match="change grids only from an edge"):
        move(state, 0, "a4-b4")


def test_home_edge_piece_may_step_left_or_right_on_either_home_edge():
    state = start("1c1 Oa3 / Oh6 2d8")
    assert {"b1", "d1"} <= ends(state, "c1")
    state = move(state, 0, "c1-d1")
    assert piece_at(state, "d1") == (0, "1")
    state = start("2c8 Oa3 / Oh6")  # seat 0's piece on the opponent's edge
    assert {"b8", "d8"} <= ends(state, "c8")


def test_middle_pieces_cannot_change_grids():
    state = start("3d4 Oa1 / Oh8")
    for square in ("d5", "d3", "c4", "e4"):
        assert square not in ends(state, "d4")


def test_grid_change_needs_an_empty_space_and_never_captures():
    state = start("2a4 Oc1 / Oh8 1a5")
    assert "a5" not in ends(state, "a4")
    with pytest.raises(IllegalAction, match="cannot capture"):
        move(state, 0, "a4-a5")


def test_grid_change_ends_the_turn_after_one_space_even_for_a_3():
    state = start("3a4 Oc1 / Oh8")
    after = move(state, 0, "a4-a5")
    assert piece_at(after, "a5") == (0, "3")
    assert after.to_move == 1
    assert not any(m.startswith("a4-a5-") for m in legal_moves(state, 0))


def test_octego_pieces_may_never_change_grids():
    state = start("Oa4 Od1 / Oh8")
    assert ends(state, "a4") == {"b3", "b5"}
    with pytest.raises(IllegalAction, match="Octego pieces may not change grids"):
        move(state, 0, "a4-a5")
    with pytest.raises(IllegalAction, match="Octego pieces may not change grids"):
        move(state, 0, "d1-e1")


# ---------------------------------------------------------------- winning and losing


def test_octego_reaching_the_far_side_wins():
    state = move(start("Oc7 Oa1 / Oh8 1h1"), 0, "c7-d8")
    assert ENGINE.outcome(state).winners == (0,)
    assert state.outcome.reason == "an Octego reached the far side"
    assert [event.kind for event in state.events] == ["move", "end"]
    state = move(start("Oa3 Oa1 / Ob2 Oh8 1h6", to_move=1), 1, "b2-c1")
    assert ENGINE.outcome(state).winners == (1,)
    assert ENGINE.to_act(state) == []


def test_a_numbered_piece_on_the_far_side_does_not_win():
    state = move(start("1c7 Oa1 / Oh8 1h1"), 0, "c7-d8")
    assert ENGINE.outcome(state) is None


def test_capturing_both_octegos_wins():
    state = start("1d4 Oa1 / Oe5 Oh8 1h6")
    state = move(state, 0, "d4xe5")
    assert ENGINE.outcome(state) is None  # one Octego left
    state = start("1d4 Oa1 / Oe5 1h6")
    state = move(state, 0, "d4xe5")
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (0,)
    assert outcome.scores == (1.0, 0.0)
    assert outcome.reason == "both Octegos captured"


def test_a_player_with_no_legal_move_loses():
    state = start("Oc1 Oe1 1b7 / Oa8")  # seat 1's Octego can only go to b7, which it cannot take
    state = move(state, 0, "c1-d2")
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (0,)
    assert outcome.reason == "no legal move"
    blocked_at_start = start("Oc1 Oe1 1b7 / Oa8", to_move=1)
    assert ENGINE.outcome(blocked_at_start).winners == (0,)
    assert blocked_at_start.ply == 0
    assert [(event.ply, event.kind) for event in blocked_at_start.events] == [(0, "end")]


def test_game_over_refuses_moves_and_lists_nothing():
    state = move(start("Oc7 Oa1 / Oh8"), 0, "c7-d8")
    with pytest.raises(IllegalAction, match="over"):
        move(state, 1, "h8-g7")
    assert ENGINE.legal_actions(state, 0) == []
    assert ENGINE.legal_actions(state, 1) == []


def test_resignation_any_time_by_either_player():
    state = start()
    resigned = ENGINE.apply(state, 1, {"type": "resign"})  # not seat 1's turn: still allowed
    assert ENGINE.outcome(resigned).winners == (0,)
    assert ENGINE.outcome(resigned).reason == "resignation"
    assert ENGINE.outcome(ENGINE.apply(state, 0, {"type": "resign"})).winners == (1,)
    assert ENGINE.legal_actions(state, 1) == [{"type": "resign"}]


# ---------------------------------------------------------------- draws

SHUFFLE = ["c3-d4", "f6-g5", "d4-c3", "g5-f6"]


def test_threefold_repetition_with_the_same_player_to_move_is_a_draw():
    state = start("1c3 Oa1 / 1f6 Oh8")
    for ply in range(8):
        assert ENGINE.outcome(state) is None, ply
        state = move(state, ply % 2, SHUFFLE[ply % 4])
    outcome = ENGINE.outcome(state)
    assert outcome.is_draw
    assert outcome.reason == "threefold repetition"
    assert outcome.scores == (0.5, 0.5)


def test_repetition_counts_only_with_the_same_player_to_move():
    # Seat 0's 1 walks a triangle (a1-b1, b1-a2, a2-a1) while seat 1 shuffles: a board recurs
    # every 6 moves, but with the same player to move only every 12.
    state = start("1a1 Od4 / Oh8 1f6")
    first_board = list(state.board)
    triangle, shuffle = ["a1-b1", "b1-a2", "a2-a1"], ["f6-g5", "g5-f6"]
    boards_seen = 1
    for ply in range(24):
        seat = ply % 2
        path = triangle[(ply // 2) % 3] if seat == 0 else shuffle[(ply // 2) % 2]
        state = move(state, seat, path)
        boards_seen += state.board == first_board
        if ply < 23:
            assert ENGINE.outcome(state) is None, ply
    assert boards_seen == 5  # the board alone came back 4 times, the position (with mover) 3
    assert ENGINE.outcome(state).reason == "threefold repetition"


def test_100_moves_without_a_capture_is_a_draw_and_a_capture_resets_the_count():
    data = ENGINE.dump(start("2d4 Oa1 / Oh8 1g7 1b7"))
    data["moves_since_capture"] = MOVES_WITHOUT_CAPTURE_FOR_DRAW - 1
    state = ENGINE.load(data)
    drawn = move(state, 0, "d4-e5-f4")
    assert ENGINE.outcome(drawn).is_draw
    assert ENGINE.outcome(drawn).reason == "100 moves without a capture"
    assert ENGINE.outcome(state) is None  # 99 quiet moves are not enough
    data["board"][square_index("f6")] = "11"
    state = ENGINE.load(data)
    after = move(state, 0, "d4-e5xf6")
    assert ENGINE.outcome(after) is None
    assert after.moves_since_capture == 0


# ---------------------------------------------------------------- notation


def test_move_notation_prints_full_paths_with_x_for_captures():
    state = start("3d4 Oa1 / Oh8 1e5")
    listed = legal_moves(state, 0)
    assert "d4-c5-d6xe5" in listed
    assert "d4-c3-b2-a3" in listed
    assert "a1-b2" in listed
    assert "d4-c3-b2-a1" not in listed  # own Octego there
    after = move(state, 0, "d4-c5-d6xe5")
    assert last_move_path(after) == ["d4", "c5", "d6", "e5"]
    assert last_move_path(state) is None


def test_grid_change_notation_is_a_straight_step():
    state = start("2a3 Oc1 / Oh8")
    assert "a3-a4" in legal_moves(state, 0)
    assert "a3-a2" in legal_moves(state, 0)


def test_short_form_accepted_when_exactly_one_path_joins_the_squares():
    state = start("2c1 Oa3 / Oh8")
    after = move(state, 0, "c1-e3")
    assert last_move_path(after) == ["c1", "d2", "e3"]
    # Capture written with x or -, upper case and spaces are fine.
    state = start("2c1 Oa3 / Oh8 1e3")
    assert last_move_path(move(state, 0, " C1 x E3 ")) == ["c1", "d2", "e3"]


def test_a_capture_mark_on_a_move_that_captures_nothing_is_refused():
    state = start("1c1 Oa3 / Oh8")
    for written, plain in (("c1xd2", "c1-d2"), ("C1 x D2", "c1-d2")):
        with pytest.raises(IllegalAction) as error:
            move(state, 0, written)
        assert str(error.value).startswith(f"{written.lower().replace(' ', '')} captures nothing: write it {plain} ")
    assert last_move_path(move(state, 0, "c1-d2")) == ["c1", "d2"]
    state = start("2c1 Oa3 / Oh8")
    with pytest.raises(IllegalAction, match=r"^c1-d2xe3 captures nothing: write it c1-d2-e3 "):
        move(state, 0, "c1-d2xe3")


def test_a_capture_mark_goes_before_the_captured_square():
    state = start("1c1 Oa3 / Oh8 1d2")
    after = move(state, 0, "c1xd2")
    assert last_move_path(after) == ["c1", "d2"]
    assert moved(after).data["capture"] == "1"
    state = start("2c1 Oa3 / Oh8 1e3")
    assert last_move_path(move(state, 0, "c1-d2xe3")) == ["c1", "d2", "e3"]
    for misplaced in ("c1xd2-e3", "c1xd2xe3"):
        with pytest.raises(IllegalAction, match=r"^That move captures on e3, not d2: write it c1-d2xe3 "):
            move(state, 0, misplaced)


def test_short_form_with_several_paths_asks_for_the_full_path():
    state = start("3d4 Oa1 / Oh8")
    with pytest.raises(IllegalAction) as error:
        move(state, 0, "d4-e7")
    message = str(error.value)
    assert "3 paths" in message
    for path in ("d4-e5-d6-e7", "d4-c5-d6-e7", "d4-e5-f6-e7"):
        assert path in message
    assert parse_move(state, 0, "d4-c5-e7") == "d4-c5-d6-e7"
    # Naming a middle square picks one of them.
    assert last_move_path(move(state, 0, "d4-c5-e7")) == ["d4", "c5", "d6", "e7"]


def test_unreadable_or_impossible_moves_are_explained():
    state = start()
    with pytest.raises(IllegalAction, match="can't read"):
        move(state, 0, "c1-z9")
    with pytest.raises(IllegalAction, match="like c1-d2-e3"):
        move(state, 0, "c1")
    with pytest.raises(IllegalAction, match="no piece on c4"):
        move(state, 0, "c4-d5")
    with pytest.raises(IllegalAction, match="not yours"):
        move(state, 0, "c8-d7")
    with pytest.raises(IllegalAction, match="It can reach: b2, d2"):
        move(state, 0, "c1-e3")
    with pytest.raises(IllegalAction, match="the actions are move, resign"):
        ENGINE.apply(state, 0, {"type": "teleport"})
    with pytest.raises(IllegalAction, match="needs its path"):
        ENGINE.apply(state, 0, {"type": "move"})


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (None, "An action is a dict with a type"),
        ("c1-d2", "An action is a dict with a type"),
        (["move", "c1-d2"], "An action is a dict with a type"),
        ({"path": "c1-d2"}, "An action is a dict with a type"),
        ({"type": "move", "path": ["c1", "d2"]}, "The path of a move action must be a text"),
        ({"type": "move", "path": None}, "The path of a move action must be a text"),
        ({"type": "move", "path": 12}, "The path of a move action must be a text"),
        ({"type": "move", "path": {"from": "c1"}}, "The path of a move action must be a text"),
        ({"type": "move", "path": "c1-d2", "promote": "3"}, "A move action has no field 'promote'"),
        ({"type": "move", "path": ""}, "like c1-d2-e3"),
        ({"type": "move", "path": "c1-d2-" * 40}, "A 1 piece moves exactly 1 space; that path has 79"),
        ({"type": "move", "path": "é1-ü2"}, "can't read"),
        ({"type": "resign", "why": "bored"}, "A resign action has no field 'why'"),
    ],
)
def test_malformed_actions_are_refused_with_a_reason(action, reason):
    state = start()
    with pytest.raises(IllegalAction, match=reason):
        ENGINE.apply(state, 0, action)


def test_seats_outside_the_game_are_refused():
    state = start()
    for seat in (2, -1, "0", None, True):
        with pytest.raises(IllegalAction, match="not playing"):
            ENGINE.apply(state, seat, {"type": "move", "path": "c1-d2"})


# ---------------------------------------------------------------- state handling


def test_apply_never_changes_its_input():
    state = start("3d4 Oa1 / Oh8 1e5")
    before = json.dumps(ENGINE.dump(state), sort_keys=True)
    move(state, 0, "d4-c5-d6xe5")
    with pytest.raises(IllegalAction):
        move(state, 0, "d4-e5")
    ENGINE.apply(state, 1, {"type": "resign"})
    assert json.dumps(ENGINE.dump(state), sort_keys=True) == before


def test_json_round_trip_is_exact():
    state = move(move(start(), 0, "c1-d2"), 1, "b8-c7-d6")
    text = json.dumps(ENGINE.dump(state))
    loaded = ENGINE.load(json.loads(text))
    assert loaded == state
    assert ENGINE.dump(loaded) == ENGINE.dump(state)


def test_load_rejects_an_unknown_schema():
    data = ENGINE.dump(start())
    assert data["schema"] == 2
    data["schema"] = 99
    with pytest.raises(ValueError, match="schema"):
        ENGINE.load(data)


def test_position_option_derives_captured_pieces_and_rejects_nonsense():
    state = start("Od4 1c1 / Oe8 Ob8 2g8", to_move=1)
    assert state.to_move == 1
    assert sorted(state.captured[1]) == sorted(["O", "1", "2", "2", "3", "3"])
    assert sorted(state.captured[0]) == sorted(["1", "1", "2", "3", "3"])
    for bad, reason in (
        ("Od4", "a position is '<seat 0 pieces> / <seat 1 pieces>'"),
        ("Xd4 / Oe8", "bad piece 'Xd4'"),
        ("Od4 Od4 / Oe8", "two pieces on d4"),
        ("Od4 Oe4 Of4 / Oe8", "seat 0 has too many Octego pieces"),
    ):
        with pytest.raises(ValueError, match=reason):
            start(bad)


def test_helpers_group_moves_by_piece_and_destination():
    state = start()
    grouped = moves_by_piece(state, 0)
    assert grouped["c1"] == ["c1-d2", "c1-b2"] or sorted(grouped["c1"]) == ["c1-b2", "c1-d2"]
    assert sum(len(v) for v in grouped.values()) == len(legal_moves(state, 0))
    destinations = destinations_by_piece(state, 0)
    assert destinations["h1"]["g4"] == ["h1-g2-h3-g4", "h1-g2-f3-g4"]
    assert moves_by_piece(state, 1) == {}
    assert legal_moves(state, 1) == []
    actions = ENGINE.legal_actions(state, 0)
    assert actions[-1] == {"type": "resign"}
    assert [a["path"] for a in actions[:-1]] == legal_moves(state, 0)


# ---------------------------------------------------------------- events and stored games


def test_a_move_records_one_move_event_with_its_path_capture_and_grid_change():
    state = start("3d4 2a4 Oa1 / Oh8 1e5")
    after = move(state, 0, "d4-c5-e5")  # a short form is recorded as the full path
    assert after.ply == state.ply + 1
    assert after.events == [
        Event(1, 0, "move", {"path": ["d4", "c5", "d6", "e5"], "capture": "1", "grid_change": False})
    ]
    assert notation(moved(after).data["path"], moved(after).data["capture"]) == "d4-c5-d6xe5"
    after = move(after, 1, "h8-g7")
    assert after.events == [Event(2, 1, "move", {"path": ["h8", "g7"], "capture": None, "grid_change": False})]
    after = move(after, 0, "a4-a5")
    assert moved(after).data == {"path": ["a4", "a5"], "capture": None, "grid_change": True}
    resigned = ENGINE.apply(after, 0, {"type": "resign"})
    assert [(event.kind, event.seat) for event in resigned.events] == [("resign", 0), ("end", None)]
    assert resigned.events[-1].data == {"reason": "resignation", "winners": [1], "draw": False}


def schema_1(state_fields: dict) -> dict:
    """A state as the schema 1 engine dumped it (fields it had; values from the test)."""
    board = ENGINE.new_game(2, {}, 7).board
    return {
        "seed": 7,
        "board": board,
        "to_move": 0,
        "move_number": 0,
        "captured": [[], []],
        "last_move": None,
        "moves_since_capture": 0,
        "history": [],
        "winner": None,
        "end_reason": None,
        "schema_version": 1,
        **state_fields,
    }


def test_schema_1_states_load_with_their_result_and_last_move():
    drawn = ENGINE.load(
        schema_1(
            {
                "move_number": 40,
                "end_reason": "threefold repetition",
                "last_move": {"seat": 1, "path": ["f6", "g5"], "capture": None, "grid_change": False},
            }
        )
    )
    assert drawn.ply == 40
    assert drawn.outcome == Outcome((1, 1), (0.5, 0.5), "threefold repetition")
    assert [event.kind for event in drawn.events] == ["move", "end"]
    assert moved(drawn) == Event(40, 1, "move", {"path": ["f6", "g5"], "capture": None, "grid_change": False})
    won = ENGINE.load(schema_1({"move_number": 9, "winner": 0, "end_reason": "both Octegos captured"}))
    assert won.outcome == Outcome((1, 2), (1.0, 0.0), "both Octegos captured")
    assert ENGINE.to_act(won) == []
    resigned = ENGINE.load(schema_1({"move_number": 3, "to_move": 1, "winner": 0, "end_reason": "resignation"}))
    assert resigned.ply == 4  # the resignation was an action
    assert resigned.outcome.winners == (0,)
    assert resigned.outcome.reason == "resignation"
    assert [(event.kind, event.seat) for event in resigned.events] == [("resign", 1), ("end", None)]
    running = ENGINE.load(schema_1({"history": start().history}))
    assert running.outcome is None
    assert running.events == []
    assert running == start()
