"""Octagone rules, written from the seed (seeds/octagone.txt) and the decisions (rules/octagone.md)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engines.base import Event, IllegalAction
from engines.octagone import (
    ADVANCED,
    BASIC,
    BOXES,
    COLOURS,
    DIRECTIONS,
    ENGINE,
    JOKER,
    WHITE_LADY,
    aim_options,
    perimeter_triangles,
    placeable_shields,
    shields_left,
)
from engines.octagone.board import PERIMETER
from engines.octagone.rules import (
    END_ALL_PLACED,
    END_NO_AIM,
    END_NO_SHIELD,
    SHIELD_KINDS,
    Placement,
    designated_box,
)


def hand(**counts: int) -> dict[str, int]:
    full = dict.fromkeys(SHIELD_KINDS, 0)
    full.update(counts)
    return full


def position(
    board: dict[str, tuple[str, str]],
    target: str | None,
    hands: list[dict[str, int]],
    to_move: int = 0,
    level: str = ADVANCED,
    last: str | None = None,
    white_lady: str | None = None,
):
    """A mid-game state: ``board`` maps a box to (shield, direction)."""
    players = len(hands)
    state = ENGINE.new_game(players, {"level": level}, seed=1)
    placements = {
        box: Placement(shield, direction, 0, number + 1)
        for number, (box, (shield, direction)) in enumerate(board.items())
    }
    return replace(
        state,
        board=placements,
        target=target,
        hands=hands,
        to_move=to_move,
        last_box=last or next(iter(board), None),
        white_lady=white_lady,
        ply=len(board),
    )


def place(state, seat, shield, direction):
    return ENGINE.apply(state, seat, {"type": "place", "shield": shield, "direction": direction})


# --- the board ---------------------------------------------------------------------------------------


def test_board_has_42_boxes_in_six_coloured_rows_and_22_perimeter_boxes():
    assert len(BOXES) == 42
    assert BOXES[0] == "A1"
    assert BOXES[-1] == "F7"
    assert len(set(COLOURS)) == 6
    assert len(PERIMETER) == 22


# --- which box? first free box, skipping occupied ones ----------------------------------------------


def test_arrow_designates_the_first_free_box_skipping_occupied_boxes():
    occupied = {"A1", "A2", "A3"}
    assert designated_box(occupied, "A1", "E", "orange", ADVANCED) == "A4"
    assert designated_box(occupied | {"A4", "A5"}, "A1", "E", "orange", BASIC) == "A6"


def test_diagonal_arrow_follows_the_diagonal():
    assert designated_box({"C3"}, "C3", "SE", "green", BASIC) == "D4"
    assert designated_box({"C3", "D4", "E5"}, "C3", "SE", "green", BASIC) == "F6"


def test_line_without_free_box_designates_nothing():
    assert designated_box({"F1", "E1", "D1"}, "F1", "N", "pink", BASIC) == "C1"
    assert designated_box({"A5", "A6", "A7"}, "A5", "E", "orange", BASIC) is None


def test_placing_sets_the_next_target_from_the_new_arrow():
    state = position(
        {"A1": ("orange", "E"), "A2": ("orange", "E")},
        target="B1",
        hands=[hand(sky=3), hand(orange=2, sky=2)],
        level=BASIC,
    )
    assert place(state, 0, "sky", "E").target == "B2"
    assert place(state, 0, "sky", "SE").target == "C2"
    with pytest.raises(IllegalAction):  # NE: A2 is occupied, then the board ends (no connection in basic)
        place(state, 0, "sky", "NE")


def test_placement_skips_occupied_boxes_along_the_arrow():
    state = position(
        {"A2": ("orange", "W"), "A3": ("orange", "W")}, target="A1", hands=[hand(orange=2), hand(orange=2)]
    )
    after = place(state, 0, "orange", "E")
    assert after.board["A1"] == Placement("orange", "E", 0, 3)
    assert after.target == "A4"
    assert after.last_box == "A1"


# --- the joker's last free box (advanced level only) --------------------------------------------------


def test_joker_designates_the_last_free_box_in_the_advanced_level():
    assert designated_box({"A1"}, "A1", "E", JOKER, ADVANCED) == "A7"
    assert designated_box({"A1", "A7"}, "A1", "E", JOKER, ADVANCED) == "A6"  # farthest free box
    assert designated_box({"A1", "A6", "A7"}, "A1", "E", JOKER, ADVANCED) == "A5"


def test_joker_designates_the_first_free_box_in_the_basic_level():
    assert designated_box({"A1"}, "A1", "E", JOKER, BASIC) == "A2"


def test_coloured_shield_keeps_the_first_free_box_in_the_advanced_level():
    assert designated_box({"A1"}, "A1", "E", "orange", ADVANCED) == "A2"


# --- perimeter connections --------------------------------------------------------------------------


def test_orthogonal_connection_enters_from_the_opposite_side():
    # Shield on A3 pointing north: the virtual A1 stands below F3, so the line runs F3, E3 ... B3.
    assert designated_box({"A3"}, "A3", "N", "orange", ADVANCED) == "F3"
    assert designated_box({"A3", "F3"}, "A3", "N", "orange", ADVANCED) == "E3"  # fig. 2: skip S
    assert designated_box({"A3"}, "A3", "N", JOKER, ADVANCED) == "B3"  # fig. 3: last free box
    assert designated_box({"A3", "B3"}, "A3", "N", JOKER, ADVANCED) == "C3"  # fig. 4: farthest free


def test_side_connection_along_a_row():
    assert designated_box({"D7"}, "D7", "E", "yellow", ADVANCED) == "D1"
    assert designated_box({"D1"}, "D1", "W", "yellow", ADVANCED) == "D7"


def test_diagonal_connection_runs_along_the_same_diagonal():
    # A3 pointing NE: the diagonal through A3 is C1, B2, A3; it is entered from C1.
    assert designated_box({"A3"}, "A3", "NE", "orange", ADVANCED) == "C1"
    assert designated_box({"A3"}, "A3", "NE", JOKER, ADVANCED) == "B2"
    assert designated_box({"A3", "B2", "C1"}, "A3", "NE", JOKER, ADVANCED) is None


def test_corner_short_diagonal_has_no_connection():
    assert designated_box({"A1"}, "A1", "NE", "orange", ADVANCED) is None
    assert designated_box({"A1"}, "A1", "SW", "orange", ADVANCED) is None
    assert designated_box({"F7"}, "F7", "SW", "pink", ADVANCED) is None
    # ... while the corner's long diagonal does connect: A1 NW re-enters at F6.
    assert designated_box({"A1"}, "A1", "NW", "orange", ADVANCED) == "F6"


def test_no_connection_in_the_basic_level():
    assert designated_box({"A3"}, "A3", "N", "orange", BASIC) is None


def test_connection_only_when_the_arrow_points_off_the_board():
    # A3 pointing S with the whole column full below it does not wrap around.
    assert designated_box({"A3", "B3", "C3", "D3", "E3", "F3"}, "A3", "S", "orange", ADVANCED) is None


def test_perimeter_triangles_are_coloured_like_the_first_box_of_the_connected_line():
    triangles = {(box, direction): colour for box, direction, colour in perimeter_triangles()}
    assert triangles[("A3", "N")] == "pink"  # the line starts at F3
    assert triangles[("A3", "NE")] == "green"  # starts at C1
    assert triangles[("D7", "E")] == "yellow"
    assert ("A1", "NE") not in triangles
    assert ("A1", "NW") in triangles
    assert {box for box, _ in triangles} == set(PERIMETER)
    assert all(3 <= sum(1 for (box, _) in triangles if box == edge) <= 4 for edge in PERIMETER)


# --- which shield? ------------------------------------------------------------------------------------


def test_shield_must_match_the_target_colour_or_be_a_joker():
    state = position({"A1": ("orange", "S")}, target="B1", hands=[hand(sky=1, green=1, joker=1), hand(sky=1)])
    assert placeable_shields(state, 0) == ["sky", JOKER]
    with pytest.raises(IllegalAction, match="sky"):
        place(state, 0, "green", "E")
    place(state, 0, "sky", "E")
    place(state, 0, JOKER, "E")


def test_cannot_play_a_shield_one_does_not_hold():
    state = position({"A1": ("orange", "S")}, target="B1", hands=[hand(joker=1), hand(sky=1)])
    with pytest.raises(IllegalAction, match="no sky"):
        place(state, 0, "sky", "E")


def test_shield_goes_on_the_target_box_only():
    state = position({"A1": ("orange", "S")}, target="B1", hands=[hand(sky=2), hand(sky=1)])
    with pytest.raises(IllegalAction, match="B1"):
        ENGINE.apply(state, 0, {"type": "place", "shield": "sky", "direction": "E", "box": "B2"})
    assert ENGINE.apply(state, 0, {"type": "place", "shield": "sky", "direction": "E", "box": "B1"}).target == "B2"


def test_it_must_be_your_turn():
    state = position({"A1": ("orange", "S")}, target="B1", hands=[hand(sky=2), hand(sky=1)])
    with pytest.raises(IllegalAction, match="not your turn"):
        place(state, 1, "sky", "E")


def test_an_aim_that_designates_no_free_box_is_rejected_and_state_unchanged():
    state = position({"A1": ("orange", "E")}, target="A2", hands=[hand(orange=2), hand(orange=2)], level=BASIC)
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction, match="designate a free box"):
        place(state, 0, "orange", "N")  # A2 north is off the board, no connection in basic
    with pytest.raises(IllegalAction, match="designate"):
        place(state, 0, "orange", "W")  # A1 is occupied and nothing lies beyond
    assert ENGINE.dump(state) == before
    assert {option["direction"] for option in aim_options(state, "orange")} == {"E", "SE", "S", "SW"}


def test_aim_options_name_the_designated_box_and_its_colour():
    state = position({"A1": ("orange", "S")}, target="B1", hands=[hand(sky=1, joker=1), hand(sky=1)])
    options = {option["direction"]: option for option in aim_options(state, JOKER)}
    assert options["E"] == {"direction": "E", "box": "B7", "colour": "sky"}
    assert options["S"]["box"] == "F1"
    assert options["S"]["colour"] == "pink"
    assert {option["direction"]: option["box"] for option in aim_options(state, "sky")}["E"] == "B2"


def test_apply_never_mutates_its_input():
    state = ENGINE.new_game(2, {}, seed=5)
    before = ENGINE.dump(state)
    opened = ENGINE.apply(state, state.to_move, ENGINE.legal_actions(state, state.to_move)[0])
    assert ENGINE.dump(state) == before
    snapshot = ENGINE.dump(opened)
    ENGINE.apply(opened, opened.to_move, ENGINE.legal_actions(opened, opened.to_move)[0])
    assert ENGINE.dump(opened) == snapshot


# --- skipped turns and the end when nobody can play --------------------------------------------------


def test_player_without_matching_shield_or_joker_skips_and_the_other_plays_the_same_box():
    state = position({"A1": ("orange", "S")}, target="B1", hands=[hand(sky=1, green=2), hand(orange=3)])
    after = place(state, 0, "sky", "S")  # designates C1 (green): seat 1 has no green and no joker
    assert after.target == "C1"
    assert after.to_move == 0
    assert [event.kind for event in after.events] == ["place", "skip"]
    assert after.events[1] == Event(after.ply, 1, "skip", {"box": "C1"})
    assert ENGINE.legal_actions(after, 1) == [{"type": "resign"}]


def test_two_skips_in_a_row_end_the_game():
    state = position({"A1": ("orange", "S")}, target="B1", hands=[hand(sky=1, orange=1), hand(orange=3)])
    after = place(state, 0, "sky", "S")  # C1 is green: nobody has green or a joker
    assert after.over
    assert after.outcome.reason == END_NO_SHIELD
    assert [event.kind for event in after.events] == ["place", "skip", "skip", "end"]
    assert ENGINE.outcome(after).ranks == (1, 2)  # seat 0 has 1 shield, seat 1 has 3
    assert ENGINE.to_act(after) == []


# --- the White Lady ------------------------------------------------------------------------------------


def test_the_starter_opens_with_the_white_lady_anywhere_and_aims_her():
    state = ENGINE.new_game(2, {}, seed=11)
    starter = state.to_move
    assert starter == state.starter
    with pytest.raises(IllegalAction):
        place(state, starter, JOKER, "N")
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, 1 - starter, {"type": "white_lady", "box": "C4", "direction": "NE"})
    opened = ENGINE.apply(state, starter, {"type": "white_lady", "box": "C4", "direction": "NE"})
    assert opened.board["C4"].shield == WHITE_LADY
    assert opened.target == "B5"
    assert opened.to_move == 1 - starter
    assert shields_left(opened, starter) == 21  # she is no player's shield
    with pytest.raises(IllegalAction, match="only opens"):
        ENGINE.apply(opened, opened.to_move, {"type": "white_lady", "box": "A1", "direction": "S"})


def test_white_lady_aim_must_designate_a_box():
    basic = ENGINE.new_game(2, {"level": BASIC}, seed=11)
    with pytest.raises(IllegalAction, match="designates no box"):
        ENGINE.apply(basic, basic.to_move, {"type": "white_lady", "box": "A1", "direction": "N"})
    advanced = ENGINE.new_game(2, {"level": ADVANCED}, seed=11)
    opened = ENGINE.apply(advanced, advanced.to_move, {"type": "white_lady", "box": "A1", "direction": "N"})
    assert opened.target == "F1"  # the perimeter connection re-enters from F1


def test_white_lady_is_removed_after_the_next_players_turn():
    state = ENGINE.new_game(2, {}, seed=3)
    opened = ENGINE.apply(state, state.to_move, {"type": "white_lady", "box": "C4", "direction": "E"})
    assert opened.white_lady == "C4"
    assert opened.target == "C5"
    reply = ENGINE.apply(opened, opened.to_move, {"type": "place", "shield": JOKER, "direction": "W"})
    assert "C4" not in reply.board
    assert reply.white_lady is None
    assert [event.kind for event in reply.events] == ["place", "white_lady_removed"]
    assert reply.events[1] == Event(2, None, "white_lady_removed", {"box": "C4"})
    # Her box is free again at once: the joker on C5 aiming west designates the farthest free box, C1,
    # and a coloured shield would have designated C4 itself.
    assert reply.target == "C1"
    assert {option["direction"]: option["box"] for option in aim_options(opened, "green")}["W"] == "C4"


# --- four players -----------------------------------------------------------------------------------


def jokers(state) -> list[int]:
    return [state.hands[seat][JOKER] for seat in range(state.players)]


@pytest.mark.parametrize("seed", range(8))
def test_four_player_deal_gives_the_extra_jokers_to_the_first_seated_of_each_pair(seed):
    """Decision 2026-11-23: by default the pair member who sits first (seats 0 and 1), whoever starts."""
    state = ENGINE.new_game(4, {}, seed=seed)
    for seat in range(4):
        assert sum(state.hands[seat][colour] for colour in COLOURS) == 9
    assert jokers(state) == [2, 2, 1, 1]


@pytest.mark.parametrize("chosen", [[0, 1], [0, 3], [2, 1], [2, 3], [3, 2], (1, 0)])
def test_four_player_pairs_choose_who_takes_their_extra_joker(chosen):
    state = ENGINE.new_game(4, {"extra_joker_seats": chosen}, seed=8)
    assert jokers(state) == [2 if seat in chosen else 1 for seat in range(4)]
    assert sum(jokers(state)) == 6
    # The choice changes the jokers only: the coloured shields and the starter stay the same.
    default = ENGINE.new_game(4, {}, seed=8)
    assert state.starter == default.starter
    for seat in range(4):
        assert {c: state.hands[seat][c] for c in COLOURS} == {c: default.hands[seat][c] for c in COLOURS}


@pytest.mark.parametrize("bad", [[0, 2], [1, 3], [0], [0, 1, 2], [4, 1], [-1, 0], [True, False], "01", 1, ["0", 1]])
def test_four_player_extra_joker_choice_must_name_one_seat_of_each_pair(bad):
    with pytest.raises(ValueError, match="one seat of each pair"):
        ENGINE.new_game(4, {"extra_joker_seats": bad}, seed=8)


def test_four_players_play_the_advanced_level_only():
    with pytest.raises(ValueError, match="four players play the advanced level only"):
        ENGINE.new_game(4, {"level": BASIC}, seed=1)
    with pytest.raises(ValueError, match="played by 2 or 4 players"):
        ENGINE.new_game(3, {}, seed=1)


def test_four_player_turns_go_clockwise():
    state = ENGINE.new_game(4, {}, seed=21)
    seats = [state.to_move]
    state = ENGINE.apply(state, state.to_move, {"type": "white_lady", "box": "D4", "direction": "W"})
    while len(seats) < 6:
        seats.append(state.to_move)
        assert not any(event.kind == "skip" for event in state.events)
        options = [action for action in ENGINE.legal_actions(state, state.to_move) if action["type"] == "place"]
        state = ENGINE.apply(state, state.to_move, options[0])
    assert [(seat - seats[0]) % 4 for seat in seats] == [0, 1, 2, 3, 0, 1]


def test_pairs_add_their_shields_and_fewest_wins():
    hands = [hand(orange=1), hand(sky=1), hand(sky=4), hand(sky=2)]
    state = position({"A1": ("orange", "E")}, target="A2", hands=hands)
    after = place(state, 0, "orange", "S")  # seat 0 places its last shield
    assert after.outcome.reason == END_ALL_PLACED
    # pair {0, 2}: 0 + 4 = 4 shields; pair {1, 3}: 1 + 2 = 3 shields -> pair {1, 3} wins
    outcome = ENGINE.outcome(after)
    assert outcome.scores == (4, 3, 4, 3)
    assert outcome.ranks == (2, 1, 2, 1)
    assert outcome.winners == (1, 3)
    assert outcome.sides() == [(0, 2), (1, 3)], "partners are one side for ratings"


# --- the end of the game --------------------------------------------------------------------------------


def test_game_ends_when_a_player_has_no_more_shields():
    state = position({"A1": ("orange", "E")}, target="A2", hands=[hand(orange=1), hand(orange=2, joker=1)])
    after = place(state, 0, "orange", "E")
    assert after.over
    assert after.outcome.reason == END_ALL_PLACED
    assert after.to_move is None
    assert ENGINE.outcome(after).ranks == (1, 2)
    assert ENGINE.outcome(after).scores == (0, 3)


def test_game_ends_when_the_placed_shield_cannot_be_aimed_at_any_free_box():
    board = {box: ("orange", "E") for box in BOXES if box != "F7"}
    state = position(board, target="F7", hands=[hand(pink=2), hand(pink=2)], last="F6")
    actions = [action for action in ENGINE.legal_actions(state, 0) if action["type"] == "place"]
    assert sorted(action["direction"] for action in actions) == sorted(DIRECTIONS)  # any aim: none is possible
    after = place(state, 0, "pink", "NW")
    assert after.outcome.reason == END_NO_AIM
    assert ENGINE.outcome(after).ranks == (1, 2)


def test_equal_counts_are_a_draw():
    state = position({"A1": ("orange", "S")}, target="B1", hands=[hand(sky=2, orange=1), hand(orange=2)])
    after = place(state, 0, "sky", "S")  # C1 green: nobody can play; 2 shields each
    assert ENGINE.outcome(after).is_draw
    assert ENGINE.outcome(after).scores == (2, 2)


def test_resigning_loses_for_the_whole_pair():
    state = ENGINE.new_game(4, {}, seed=2)
    after = ENGINE.apply(state, 3, {"type": "resign"})
    outcome = ENGINE.outcome(after)
    assert outcome.ranks == (1, 2, 1, 2)
    assert outcome.winners == (0, 2)
    assert outcome.teams == (0, 1, 0, 1)
    assert outcome.reason == "resignation"
    assert outcome.scores == (21, 21, 21, 21)
    assert [event.kind for event in after.events] == ["resign", "end"]
    assert after.events[0].seat == 3
    assert ENGINE.to_act(after) == []
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(after, 0, {"type": "resign"})


def test_unknown_actions_are_rejected_politely():
    state = ENGINE.new_game(2, {}, seed=2)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, state.to_move, {"type": "fly"})
    with pytest.raises(IllegalAction, match="N, NE"):
        ENGINE.apply(state, state.to_move, {"type": "white_lady", "box": "C4", "direction": "UP"})
    with pytest.raises(IllegalAction, match="A1 to F7"):
        ENGINE.apply(state, state.to_move, {"type": "white_lady", "box": "Z9", "direction": "N"})


@pytest.mark.parametrize(
    "action",
    [
        {"type": "place", "shield": ["sky"], "direction": "E"},  # a list where a colour belongs
        {"type": "place", "shield": "sky", "direction": ["E"]},
        {"type": "place", "shield": "sky", "direction": "E", "box": ["B1"]},
        {"type": "place", "shield": {"colour": "sky"}, "direction": "E"},
        {"type": "place", "shield": None, "direction": "E"},
        {"type": "place", "shield": 3, "direction": "E"},
        {"type": "place", "direction": "E"},
        {"type": "place", "shield": "sky"},
        {"type": "place", "shield": "sky", "direction": "E", "colour": "sky"},
        {"type": "place", "shield": "red", "direction": "E"},
        {"type": "white_lady", "box": "C4", "direction": "E"},
        {"type": ["place"]},
        {"shield": "sky", "direction": "E"},
        ["place", "sky", "E"],
        "place sky E",
        None,
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action):
    state = position({"A1": ("orange", "S")}, target="B1", hands=[hand(sky=2), hand(sky=1)])
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, action)
    assert ENGINE.dump(state) == before


@pytest.mark.parametrize(
    "action",
    [
        {"type": "white_lady", "box": ["C4"], "direction": "N"},
        {"type": "white_lady", "box": "C4", "direction": ["N"]},
        {"type": "white_lady", "box": "C4"},
        {"type": "white_lady", "box": "C4", "direction": "N", "shield": "joker"},
        {"type": "white_lady", "box": 34, "direction": "N"},
    ],
)
def test_malformed_openings_are_refused(action):
    state = ENGINE.new_game(2, {}, seed=2)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, state.to_move, action)


def test_every_action_records_its_events_with_the_ply():
    state = ENGINE.new_game(2, {}, seed=3)
    starter = state.to_move
    opened = ENGINE.apply(state, starter, {"type": "white_lady", "box": "C4", "direction": "E"})
    assert opened.ply == 1
    assert opened.events == [
        Event(1, starter, "white_lady", {"box": "C4", "direction": "E", "target": "C5"}),
    ]
    assert opened.board["C4"] == Placement(WHITE_LADY, "E", starter, 1)
    reply = ENGINE.apply(opened, 1 - starter, {"type": "place", "shield": JOKER, "direction": "W", "box": "C5"})
    assert reply.ply == 2
    assert reply.events[0] == Event(
        2, 1 - starter, "place", {"shield": JOKER, "box": "C5", "direction": "W", "target": "C1"}
    )
    assert reply.board["C5"].ply == 2


def test_the_end_is_an_event_and_the_outcome():
    state = position({"A1": ("orange", "E")}, target="A2", hands=[hand(orange=1), hand(orange=2, joker=1)])
    after = place(state, 0, "orange", "E")
    assert after.events[-1] == Event(after.ply, None, "end", {"reason": END_ALL_PLACED, "winners": [0], "draw": False})
    assert after.outcome.teams is None  # two players play for themselves


# --- stored games -------------------------------------------------------------------------------------


FIXTURES = Path(__file__).parent / "fixtures"


def test_a_resigned_game_of_schema_1_loads_with_its_outcome_and_last_events():
    saved = json.loads((FIXTURES / "octagone_resigned_schema1.json").read_text())
    loaded = ENGINE.load(saved["state"])
    assert loaded.ply == saved["state"]["actions"] == 5
    assert loaded.outcome.reason == "resignation"
    assert loaded.outcome.ranks == (2, 1)
    assert [event.kind for event in loaded.events] == ["resign", "end"]
    assert loaded.events[0] == Event(5, 0, "resign", {})
    assert loaded.events[1].data == {"reason": "resignation", "winners": [1], "draw": False}
    assert loaded.board["D2"].ply == 4
    assert ENGINE.to_act(loaded) == []


def test_a_running_four_player_game_of_schema_1_plays_on():
    saved = json.loads((FIXTURES / "octagone_schema1.json").read_text())
    loaded = ENGINE.load(saved["state"])
    assert loaded.ply == 9
    assert loaded.outcome is None
    assert [event.kind for event in loaded.events] == ["place"]
    assert loaded.events[0].data["box"] == "E1"
    after = ENGINE.apply(loaded, 0, {"type": "resign"})
    assert after.outcome.teams == (0, 1, 0, 1)
    assert after.outcome.winners == (1, 3)


# --- the deal ---------------------------------------------------------------------------------------------


def test_two_player_deal_and_replay_from_the_seed():
    state = ENGINE.new_game(2, {}, seed=77)
    for seat in range(2):
        assert state.hands[seat][JOKER] == 3
        assert sum(state.hands[seat][colour] for colour in COLOURS) == 18
    assert ENGINE.dump(ENGINE.new_game(2, {}, seed=77)) == ENGINE.dump(state)
    starters = {ENGINE.new_game(2, {}, seed=seed).starter for seed in range(20)}
    assert starters == {0, 1}
    assert state.level == ADVANCED
    assert state.open_hands is False


# --- properties over random games --------------------------------------------------------------------


def _check_invariants(state) -> None:
    shields = Counter()
    for seat_hand in state.hands:
        shields.update({kind: count for kind, count in seat_hand.items() if count})
        assert all(count >= 0 for count in seat_hand.values())
    shields.update(placed.shield for placed in state.board.values() if placed.shield != WHITE_LADY)
    assert shields == Counter({**dict.fromkeys(COLOURS, 6), JOKER: 6})  # nothing lost, nothing made
    plies = [placed.ply for placed in state.board.values()]
    assert len(plies) == len(set(plies))  # one placement per action
    assert all(1 <= ply <= state.ply for ply in plies)
    assert all(event.ply == state.ply for event in state.events)  # only the last action's events
    assert (state.white_lady is not None) == any(p.shield == WHITE_LADY for p in state.board.values())
    if not state.over and not state.opening:
        assert state.target not in state.board
        assert placeable_shields(state, state.to_move)  # the player to move can play
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([2, 4]),
    basic=st.booleans(),
    choices=st.lists(st.integers(0, 10_000), min_size=60, max_size=60),
)
def test_random_games_keep_every_invariant(seed, players, basic, choices):
    level = BASIC if basic and players == 2 else ADVANCED
    state = ENGINE.new_game(players, {"level": level, "open_hands": bool(seed % 2)}, seed)
    for choice in choices:
        if state.over:
            break
        _check_invariants(state)
        moves = [action for action in ENGINE.legal_actions(state, state.to_move) if action["type"] != "resign"]
        assert moves
        for other in range(players):
            if other != state.to_move:
                assert ENGINE.legal_actions(state, other) == [{"type": "resign"}]
        state = ENGINE.apply(state, state.to_move, moves[choice % len(moves)])
    _check_invariants(state)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 30))
def test_every_listed_action_is_accepted(seed, moves):
    state = ENGINE.new_game(2, {}, seed)
    for number in range(moves):
        if state.over:
            break
        listed = ENGINE.legal_actions(state, state.to_move)
        state = ENGINE.apply(state, state.to_move, listed[(seed + number) % (len(listed) - 1)])
    assume(not state.over)  # the checks below need a player to move
    for action in ENGINE.legal_actions(state, state.to_move):
        ENGINE.apply(state, state.to_move, action)  # raises if a listed action were refused
    # and every refused place action is absent from the list
    listed = ENGINE.legal_actions(state, state.to_move)
    if not state.opening:
        for shield in SHIELD_KINDS:
            for direction in DIRECTIONS:
                action = {"type": "place", "shield": shield, "direction": direction}
                try:
                    ENGINE.apply(state, state.to_move, action)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (action in listed)


@pytest.mark.parametrize("level", [BASIC, ADVANCED])
def test_the_white_lady_openings_are_every_aim_that_designates_a_box(level):
    """The openings are worked out once per level; they must be exactly the aims of the empty board."""
    state = ENGINE.new_game(2, {"level": level}, seed=3)
    starter = ENGINE.to_act(state)[0]
    expected = [
        {"type": "white_lady", "box": box, "direction": option["direction"]}
        for box in BOXES
        for option in aim_options(state, WHITE_LADY, box)
    ]
    assert [a for a in ENGINE.legal_actions(state, starter) if a["type"] != "resign"] == expected
    assert len(expected) > len(BOXES), "most boxes have several aims"
