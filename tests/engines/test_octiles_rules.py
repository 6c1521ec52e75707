"""Octiles Scavenger Hunt rules, written from the seed and the decisions file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.base import IllegalAction
from engines.octiles import (
    CENTRAL_STOPS,
    CIRCLES,
    ENGINE,
    RING,
    SPACES,
    TILE_NUMBERS,
    acting,
    changed_space,
    colour_of,
    destination_problem,
    free_stops,
    legal_destinations,
    prizes_collected,
    restricted_space,
    routes_from,
    seat_of,
)
from engines.octiles.board import trace
from engines.octiles.rules import scramble_available

FIXTURES = Path(__file__).parent / "fixtures"

# Hand-checked pieces (board edges: 0=N 1=NE 2=E 3=SE 4=S 5=SW 6=W 7=NW):
# b2 = tile 18 at 0 joins S-SW; c1 = tile 1 (all diameters) joins W-E; d1 = tile 13 at 4 joins S-W;
# c3 = tile 2 at 7 joins SW-NE. So B2 -> b2(SW->S) -> printed line -> c1(W->E) -> d1(W->S) -> circle D1,
# and C3 -> c3(SW->NE) -> D4.
FIXED = {"b2": [18, 0], "c1": [1, 0], "d1": [13, 4], "c3": [2, 7]}
PRIZES = {
    "D1": "orange",
    "B6": "orange",
    "F6": "orange",
    "F2": "orange",
    "C6": "orange",
    "A3": "plum",
    "D6": "plum",
    "F4": "plum",
    "E1": "plum",
    "A5": "plum",
}


def tiles_with(fixed: dict[str, list[int]], spare: int | None = None) -> tuple[dict[str, list[int]], int]:
    """A full board: ``fixed`` spaces as given, the other spaces get the unused tiles at orientation 0."""
    unused = [tile for tile in TILE_NUMBERS if tile not in {placed[0] for placed in fixed.values()} and tile != spare]
    tiles = dict(fixed)
    for space in SPACES:
        if space not in tiles:
            tiles[space] = [unused.pop(), 0]
    return tiles, spare if spare is not None else unused.pop()


def start(fixed=FIXED, spare=None, gold="B2", teal="D4", prizes=PRIZES, gold_seat=0, scramble=False, **extra):
    tiles, spare = tiles_with(fixed, spare)
    layout = {
        "tiles": tiles,
        "spare": spare,
        "gold_seat": gold_seat,
        "runners": {"gold": gold, "teal": teal},
        "prizes": prizes,
        **extra,
    }
    return ENGINE.new_game(2, {"layout": layout, "scramble": scramble}, seed=11)


def accepted(state, seat, action):
    return ENGINE.apply(state, seat, action)


def kinds(state) -> list[str]:
    """The kinds of the events the last action recorded."""
    return [event.kind for event in state.events]


def event(state, kind: str) -> dict:
    """The data of the last action's ``kind`` event (with its seat)."""
    found = [e for e in state.events if e.kind == kind]
    assert len(found) == 1, (kind, state.events)
    return {"seat": found[0].seat, **found[0].data}


def route_of(state) -> dict:
    """The route of the last action's move (option 2) or replace-and-move (option 1)."""
    return event(state, next(kind for kind in kinds(state) if kind in ("move", "replace_move")))


def rejected(state, seat, action, words: str):
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, seat, action)
    assert words in str(error.value)
    assert ENGINE.dump(state) == before  # the input state is untouched


# ------------------------------------------------------------------ path tracing


def test_route_through_a_printed_board_line():
    tiles, _ = tiles_with(FIXED)
    route = trace(tiles, "B2", "b2", 5)
    assert route.end == "D1"
    assert route.steps == (("b2", 5, 4), ("c1", 6, 2), ("d1", 6, 4))


def test_route_back_from_a_circle_and_straight_across_a_tile():
    tiles, _ = tiles_with(FIXED)
    assert routes_from(tiles, "D1")[0].steps == (("d1", 4, 6), ("c1", 2, 6), ("b2", 4, 5))
    assert routes_from(tiles, "D1")[0].end == "B2"
    assert trace(tiles, "C3", "c3", 5).end == "D4"


def test_route_crossing_the_same_tile_twice():
    # a2 = tile 1 (diameters), a3 = tile 18 at 0 (S-SW): B2 -> a2 SE->NW -> printed -> a3 SW->S -> a2 N->S -> A1
    tiles, _ = tiles_with({"a2": [1, 0], "a3": [18, 0]})
    route = trace(tiles, "B2", "a2", 3)
    assert route.steps == (("a2", 3, 7), ("a3", 5, 4), ("a2", 0, 4))
    assert route.end == "A1"
    assert route.spaces.count("a2") == 2


def test_runner_stops_at_the_first_stop_and_never_enters_an_empty_space():
    tiles, _ = tiles_with(FIXED)
    # from D4 back across c3 ends at C3 (the first stop), not beyond it
    assert trace(tiles, "D4", "c3", 1).end == "C3"
    del tiles["c1"]
    assert trace(tiles, "B2", "b2", 5) is None


def test_rotation_maps_printed_edges_clockwise():
    # tile 18 at orientation 1 joins board edges (1,2),(3,4),(5,6),(7,0)
    tiles, _ = tiles_with({"b2": [18, 1]})
    assert trace(tiles, "B2", "b2", 5).steps[0] == ("b2", 5, 6)


# ------------------------------------------------------------------ set-up


def test_new_game_deals_17_tiles_and_a_spare_and_draws_colours():
    golds = set()
    for seed in range(12):
        state = ENGINE.new_game(2, {}, seed)
        placed = sorted([placed[0] for placed in state.tiles.values()] + [state.spare])
        assert placed == list(TILE_NUMBERS)
        assert set(state.tiles) == set(SPACES)
        assert all(0 <= placed[1] < 8 for placed in state.tiles.values())
        assert ENGINE.to_act(state) == [state.gold_seat]
        golds.add(state.gold_seat)
    assert golds == {0, 1}  # colours are assigned at random


def test_gold_places_both_runners_on_central_stops():
    state = ENGINE.new_game(2, {}, 5)
    gold, teal = state.gold_seat, 1 - state.gold_seat
    rejected(state, teal, {"type": "place_runners", "gold": "C3", "teal": "D4"}, "not your turn")
    rejected(state, gold, {"type": "place_runners", "gold": "B2", "teal": "D4"}, "central stop")
    rejected(state, gold, {"type": "place_runners", "gold": "C3", "teal": "C3"}, "different")
    assert len(ENGINE.legal_actions(state, gold)) == 12
    state = accepted(state, gold, {"type": "place_runners", "gold": "c4", "teal": "D3"})
    assert state.runners == {"gold": "C4", "teal": "D3"}
    assert ENGINE.to_act(state) == [teal]
    assert set(CENTRAL_STOPS) >= set(state.runners.values())


def test_teal_chooses_the_first_circle_and_prizes_alternate_round_the_ring():
    state = ENGINE.new_game(2, {}, 5)
    gold, teal = state.gold_seat, 1 - state.gold_seat
    state = accepted(state, gold, {"type": "place_runners", "gold": "C4", "teal": "D3"})
    rejected(state, gold, {"type": "first_circle", "circle": "A1"}, "not your turn")
    rejected(state, teal, {"type": "first_circle", "circle": "Z9"}, "not a circle")
    state = accepted(state, teal, {"type": "first_circle", "circle": "A2"})
    start_index = RING.index("A2")
    for k in range(20):
        circle = RING[(start_index + k) % 20]
        expected = None if k % 2 else ("plum" if k % 4 == 0 else "orange")
        assert state.prizes.get(circle) == expected
    assert list(state.prizes.values()).count("orange") == list(state.prizes.values()).count("plum") == 5
    assert ENGINE.to_act(state) == [gold]  # Gold plays first
    assert acting(state)[1].startswith("Gold's turn")


# ------------------------------------------------------------------ destinations


def test_move_onto_own_prize_collects_it():
    state = start()
    gold = seat_of(state, "gold")
    state = accepted(state, gold, {"type": "move", "to": "D1"})
    assert state.runners["gold"] == "D1"
    assert "D1" not in state.prizes
    assert prizes_collected(state)[gold] == 1
    assert kinds(state) == ["move", "collect"]
    assert route_of(state)["steps"] == [["b2", 5, 4], ["c1", 6, 2], ["d1", 6, 4]]
    assert event(state, "move") == {
        "seat": gold,
        "colour": "gold",
        "start": "B2",
        "via": "b2.SW",
        "end": "D1",
        "steps": [["b2", 5, 4], ["c1", 6, 2], ["d1", 6, 4]],
    }
    assert event(state, "collect") == {"seat": gold, "circle": "D1", "prize": "orange", "count": 1}


def test_no_move_onto_an_empty_circle_or_an_opponents_prize():
    empty = start(prizes={k: v for k, v in PRIZES.items() if k != "D1"})
    rejected(empty, seat_of(empty, "gold"), {"type": "move", "to": "D1"}, "empty")
    plum = start(prizes={**PRIZES, "D1": "plum"})
    rejected(plum, seat_of(plum, "gold"), {"type": "move", "to": "D1"}, "Teal's plum prize")
    assert "D1" not in legal_destinations(plum, seat_of(plum, "gold"))


def test_no_collecting_while_own_marker_is_on_the_board():
    state = start(marker={"colour": "orange", "stop": "E5"}, collected={"gold": 1})
    rejected(state, seat_of(state, "gold"), {"type": "move", "to": "D1"}, "reach it before collecting")


def test_no_move_onto_the_opponents_runner_or_marker():
    runner = start(gold="C3", teal="D4")
    rejected(runner, seat_of(runner, "gold"), {"type": "move", "to": "D4"}, "occupied by Teal's runner")
    marker = start(gold="C3", teal="B5", marker={"colour": "plum", "stop": "D4"}, collected={"teal": 1})
    rejected(marker, seat_of(marker, "gold"), {"type": "move", "to": "D4"}, "Teal's plum marker")
    assert destination_problem(marker, "teal", "D4") is None  # the marker's owner may go there


def test_a_move_needs_a_path_and_cannot_end_where_it_started():
    state = start(gold="C3", teal="B5")
    rejected(state, seat_of(state, "gold"), {"type": "move", "to": "E5"}, "no path")
    rejected(state, seat_of(state, "gold"), {"type": "move", "to": "C3"}, "already on")


def test_two_routes_to_one_destination_need_a_via():
    # b2 = tile 13 at 7 joins NE-NW and b3 = tile 11 at 0 joins SE-SW: C3 reaches B3 by both tiles.
    state = start(fixed={"b2": [13, 7], "b3": [11, 0]}, gold="C3", teal="E5")
    gold = seat_of(state, "gold")
    assert sorted(route.via for route in legal_destinations(state, gold)["B3"]) == ["b2.NE", "b3.SE"]
    rejected(state, gold, {"type": "move", "to": "B3"}, "two routes")
    rejected(state, gold, {"type": "move", "to": "B3", "via": "c2.NW"}, "leaves by")
    listed = [a for a in ENGINE.legal_actions(state, gold) if a["type"] == "move" and a["to"] == "B3"]
    assert sorted(a["via"] for a in listed) == ["b2.NE", "b3.SE"]
    for action in listed:
        moved = accepted(state, gold, action)
        assert route_of(moved)["via"] == action["via"]
        assert moved.runners["gold"] == "B3"
    assert route_of(accepted(state, gold, listed[0] | {"via": "B2.ne"}))["steps"][0][0] == "b2"


# ------------------------------------------------------------------ the three options


def test_option_1_replaces_with_the_spare_and_must_cross_the_new_tile():
    state = start(gold="C3", teal="B5")
    gold = seat_of(state, "gold")
    spare = state.spare
    rejected(state, gold, {"type": "replace_move", "space": "e4", "orientation": 0, "to": "D4"}, "must cross")
    options = [a for a in ENGINE.legal_actions(state, gold) if a["type"] == "replace_move"]
    assert options
    action = next(a for a in options if a["space"] == "c3")
    moved = accepted(state, gold, action)
    assert moved.tiles["c3"] == [spare, action["orientation"]]
    assert moved.spare == 2  # the removed tile is the new spare
    assert "c3" in [step[0] for step in route_of(moved)["steps"]]
    assert changed_space(moved) == "c3"
    assert kinds(moved) == ["replace_move"]
    done = event(moved, "replace_move")
    assert (done["space"], done["tile"], done["removed"], done["orientation"]) == (
        "c3",
        spare,
        2,
        action["orientation"],
    )
    assert (done["start"], done["end"]) == ("C3", action["to"])
    for a in options:  # every listed option-1 move crosses its new tile
        route = route_of(accepted(state, gold, a))
        assert a["space"] in [step[0] for step in route["steps"]]


def test_option_3_rotate_or_replace_without_moving():
    state = start(gold="C3", teal="B5")
    gold = seat_of(state, "gold")
    rotated = accepted(state, gold, {"type": "rotate", "space": "e4", "orientation": 2})
    assert rotated.tiles["e4"][1] == 2
    assert rotated.runners["gold"] == "C3"
    tile, was = state.tiles["e4"]
    assert rotated.events[0].ply == rotated.ply == state.ply + 1
    assert event(rotated, "rotate") == {
        "seat": gold,
        "colour": "gold",
        "space": "e4",
        "tile": tile,
        "orientation": 2,
        "was": was,
    }
    replaced = accepted(state, gold, {"type": "replace", "space": "e4", "orientation": 5})
    assert replaced.tiles["e4"] == [state.spare, 5]
    assert replaced.spare == state.tiles["e4"][0]
    assert replaced.runners == state.runners
    assert event(replaced, "replace") == {
        "seat": gold,
        "colour": "gold",
        "space": "e4",
        "tile": state.spare,
        "removed": tile,
        "orientation": 5,
    }
    rejected(state, gold, {"type": "rotate", "space": "c1", "orientation": 3}, "changes nothing")  # tile 1
    rejected(state, gold, {"type": "rotate", "space": "zz", "orientation": 3}, "not a tile space")
    rejected(state, gold, {"type": "rotate", "space": "e4", "orientation": 9}, "0 to 7")


def test_no_option_3_two_turns_in_a_row():
    state = start(gold="C3", teal="B5")
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    state = accepted(state, gold, {"type": "rotate", "space": "e4", "orientation": 2})
    state = accepted(state, teal, {"type": "rotate", "space": "e3", "orientation": 2})
    rejected(state, gold, {"type": "rotate", "space": "d2", "orientation": 2}, "must move")
    rejected(state, gold, {"type": "replace", "space": "d2", "orientation": 2}, "must move")
    assert not [a for a in ENGINE.legal_actions(state, gold) if a["type"] in ("rotate", "replace")]
    state = accepted(state, gold, {"type": "move", "to": "D4"})
    teal_actions = ENGINE.legal_actions(state, teal)
    assert {a["type"] for a in teal_actions} <= {"move", "replace_move", "pass"}
    state = accepted(state, teal, teal_actions[0])
    # having moved, Gold may change a tile again
    assert [a for a in ENGINE.legal_actions(state, gold) if a["type"] == "rotate"]


def test_cannot_change_the_tile_the_opponent_just_changed_except_with_option_1():
    state = start(gold="C3", teal="E5")
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    state = accepted(state, gold, {"type": "rotate", "space": "e4", "orientation": 2})
    assert restricted_space(state, teal) == "e4"
    rejected(state, teal, {"type": "rotate", "space": "e4", "orientation": 3}, "just changed")
    rejected(state, teal, {"type": "replace", "space": "e4", "orientation": 3}, "just changed")
    listed = ENGINE.legal_actions(state, teal)
    assert not [a for a in listed if a["type"] in ("rotate", "replace") and a["space"] == "e4"]
    assert [a for a in listed if a["type"] in ("rotate", "replace") and a["space"] == "e3"]
    # option 1 on that tile is allowed: Teal on E5 leaves by e4.NW
    option_1 = [a for a in listed if a["type"] == "replace_move" and a["space"] == "e4"]
    assert option_1
    accepted(state, teal, option_1[0])
    # the restriction lasts only for that next turn
    later = accepted(state, teal, {"type": "rotate", "space": "e3", "orientation": 3})
    later = accepted(later, gold, {"type": "move", "to": "D4"})
    assert restricted_space(later, gold) is None
    assert restricted_space(later, teal) is None


def test_option_1_change_does_not_restrict_the_opponent():
    state = start(gold="C3", teal="B5")
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    action = next(a for a in ENGINE.legal_actions(state, gold) if a["type"] == "replace_move")
    state = accepted(state, gold, action)
    assert restricted_space(state, teal) is None


def test_not_your_turn_and_unknown_actions():
    state = start()
    teal = seat_of(state, "teal")
    rejected(state, teal, {"type": "move", "to": "C3"}, "not your turn")
    rejected(state, seat_of(state, "gold"), {"type": "dance"}, "has no action 'dance'")
    rejected(state, seat_of(state, "gold"), {"type": "place_marker", "stop": "B3"}, "not possible")


# ------------------------------------------------------------------ markers


def test_marker_flow_from_the_first_prize():
    state = start(gold="B2", teal="D4")
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    state = accepted(state, gold, {"type": "move", "to": "D1"})  # first prize
    assert state.phase == "marker"
    assert kinds(state) == ["move", "collect"]
    assert ENGINE.to_act(state) == [teal]  # the other player places it
    assert state.pending_marker["colour"] == "orange"  # the collector's marker
    assert len(free_stops(state)) == 15
    assert "D4" not in free_stops(state)
    rejected(state, teal, {"type": "place_marker", "stop": "D4"}, "runner")
    rejected(state, gold, {"type": "place_marker", "stop": "B2"}, "not your turn")
    state = accepted(state, teal, {"type": "place_marker", "stop": "B2"})
    assert state.marker == {"colour": "orange", "stop": "B2"}
    assert event(state, "marker") == {"seat": teal, "stop": "B2", "colour": "orange", "owner": gold}
    assert ENGINE.to_act(state) == [teal]  # then Teal's turn
    state = accepted(state, teal, {"type": "move", "to": "C3"})  # D4 -> c3 -> C3
    # Gold must reach the marker: D1 -> d1 -> c1 -> printed line -> b2 -> B2
    state = accepted(state, gold, {"type": "move", "to": "B2"})
    assert kinds(state) == ["move", "marker_reached"]
    assert event(state, "marker_reached") == {"seat": gold, "stop": "B2", "colour": "orange"}
    assert state.marker is None
    assert state.phase == "marker"
    assert ENGINE.to_act(state) == [gold]
    assert state.pending_marker["colour"] == "plum"
    stops = [a["stop"] for a in ENGINE.legal_actions(state, gold)]
    assert "B2" not in stops
    assert "C3" not in stops
    assert len(stops) == 14
    state = accepted(state, gold, {"type": "place_marker", "stop": "E5"})
    assert state.marker == {"colour": "plum", "stop": "E5"}
    # the plum marker takes effect at once: Teal may not collect until reaching E5
    assert "reach it" in destination_problem(state, "teal", "A3")
    assert destination_problem(state, "gold", "D1") is not None  # (empty now) but gold is free of markers
    assert destination_problem(state, "gold", "B6") is None


def test_later_prizes_do_not_place_a_new_marker():
    state = start(gold="B2", teal="D4", collected={"teal": 1}, marker={"colour": "plum", "stop": "E5"})
    gold = seat_of(state, "gold")
    state = accepted(state, gold, {"type": "move", "to": "D1"})
    assert state.phase == "turn"
    assert state.marker == {"colour": "plum", "stop": "E5"}


# ------------------------------------------------------------------ scramble, win, pass, draw, resign


def test_a_turn_may_end_with_the_scramble_once_per_game():
    state = start(gold="C3", teal="B5", scramble=True)
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    assert scramble_available(state, gold)
    listed = ENGINE.legal_actions(state, gold)
    assert {"type": "move", "to": "D4"} in listed
    assert not any("scramble" in action for action in listed), "listed without it: any may carry one"
    chosen = ["a2", "c1", "d4", "e3"]
    scrambled = accepted(state, gold, {"type": "move", "to": "D4", "scramble": chosen})
    assert kinds(scrambled) == ["move", "scramble"]
    assert scrambled.runners["gold"] == "D4"
    assert sorted(scrambled.tiles[s][0] for s in chosen) == sorted(state.tiles[s][0] for s in chosen)
    assert all(scrambled.tiles[s] == state.tiles[s] for s in SPACES if s not in chosen)
    assert scrambled.spare == state.spare
    assert scrambled.scramble_used == [gold == 0, gold == 1]
    assert not scramble_available(scrambled, gold)
    assert scrambled.phase == "turn"
    assert ENGINE.to_act(scrambled) == [teal]
    assert event(scrambled, "scramble") == {
        "seat": gold,
        "spaces": chosen,
        "placed": [scrambled.tiles[s] for s in chosen],
    }
    # replays exactly from the seed
    assert accepted(state, gold, {"type": "move", "to": "D4", "scramble": chosen}).tiles == scrambled.tiles
    # Teal's turn without it is just the turn; Teal keeps the scramble for later
    turned = (scrambled.tiles["e4"][1] + 1) % 8
    plain = accepted(scrambled, teal, {"type": "rotate", "space": "e4", "orientation": turned})
    assert kinds(plain) == ["rotate"]
    assert plain.phase == "turn"
    assert ENGINE.to_act(plain) == [gold]
    assert scramble_available(plain, teal)
    # an option-3 change carries it too: the change first, then the shuffle
    changed = accepted(
        scrambled, teal, {"type": "rotate", "space": "e4", "orientation": turned, "scramble": ["A2", "b3", "c4", "D1"]}
    )
    assert kinds(changed) == ["rotate", "scramble"]
    assert changed.tiles["e4"] == [scrambled.tiles["e4"][0], turned]
    assert event(changed, "scramble")["spaces"] == ["a2", "b3", "c4", "d1"]
    assert changed.scramble_used == [True, True]
    assert ENGINE.to_act(changed) == [gold]


def test_a_scramble_is_refused_with_the_rule_it_breaks():
    move = {"type": "move", "to": "D4"}
    off = start(gold="C3", teal="B5")
    rejected(off, 0, {**move, "scramble": ["a2", "a3", "b2", "b3"]}, "this game is played without the scramble rule")
    state = start(gold="C3", teal="B5", scramble=True)
    rejected(state, 0, {**move, "scramble": ["a2", "a3", "b2"]}, "a scramble takes exactly four different tile spaces")
    rejected(state, 0, {**move, "scramble": ["a2", "a2", "b2", "b3"]}, "exactly four different tile spaces")
    rejected(state, 0, {**move, "scramble": ["a2", "a3", "b2", "b3", "b4"]}, "exactly four different")
    rejected(state, 0, {**move, "scramble": ["a2", "a3", "b2", "zz"]}, "zz is not a tile space")
    rejected(state, 0, {**move, "scramble": "a2 a3 b2 b3"}, "The scramble of a move action must be a list of texts")
    rejected(state, 0, {"type": "pass", "scramble": ["a2", "a3", "b2", "b3"]}, "has no field 'scramble'")
    rejected(state, 0, {"type": "move", "to": "E5", "scramble": ["a2", "a3", "b2", "b3"]}, "no path leads")
    used = accepted(state, 0, {**move, "scramble": ["a2", "a3", "b2", "b3"]})
    used = accepted(used, 1, {"type": "rotate", "space": "e4", "orientation": (used.tiles["e4"][1] + 1) % 8})
    again = {"type": "move", "to": "C3", "scramble": ["c1", "c2", "c3", "c4"]}
    rejected(used, 0, again, "you already used your scramble")
    rejected(used, 0, {"type": "skip_scramble"}, "that is not possible now")
    rejected(used, 0, {"type": "scramble", "tiles": ["c1", "c2", "c3", "c4"]}, "that is not possible now")


def test_the_scramble_comes_after_the_prize_and_before_the_marker_placement():
    state = start(gold="B2", teal="D4", scramble=True)
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    chosen = ["a2", "a3", "e3", "e4"]
    state = accepted(state, gold, {"type": "move", "to": "D1", "scramble": chosen})
    assert kinds(state) == ["move", "collect", "scramble"]
    assert state.phase == "marker"
    assert ENGINE.to_act(state) == [teal]  # Teal places Gold's marker on the scrambled board
    state = accepted(state, teal, {"type": "place_marker", "stop": "B2"})
    assert state.phase == "turn"
    assert ENGINE.to_act(state) == [teal], "no scramble question after the marker"


def test_a_winning_move_ends_the_game_before_any_scramble():
    state = start(collected={"gold": 4, "teal": 2}, marker={"colour": "plum", "stop": "E5"}, scramble=True)
    gold = seat_of(state, "gold")
    won = accepted(state, gold, {"type": "move", "to": "D1", "scramble": ["a2", "a3", "e3", "e4"]})
    assert kinds(won) == ["move", "collect", "end"]
    assert won.outcome.winners == (gold,)
    assert won.tiles == state.tiles


def stored_at_scramble_offer(before, seat, action):
    """A game as the earlier version stored it after ``seat`` played ``action`` (no marker set off):
    the old ``scramble`` phase, the mover still on turn, the next turn not yet counted."""
    after = ENGINE.dump(accepted(before, seat, action))
    old = {"phase": "scramble", "turn_seat": seat, "turns_played": before.turns_played, "positions": before.positions}
    return ENGINE.load({**after, **old})


def test_a_game_stored_at_the_old_scramble_offer_plays_on():
    before = start(gold="C3", teal="B5", scramble=True)
    gold, teal = seat_of(before, "gold"), seat_of(before, "teal")
    state = stored_at_scramble_offer(before, gold, {"type": "move", "to": "D4"})
    assert acting(state) == (gold, "scramble four tiles (once per game) or skip")
    listed = ENGINE.legal_actions(state, gold)
    assert listed[0] == {"type": "skip_scramble"}
    assert len(listed) == 1 + 2380  # skip, or any four of the 17 spaces
    assert ENGINE.legal_actions(state, teal) == []
    rejected(state, gold, {"type": "scramble", "tiles": ["a2", "a3", "b2"]}, "exactly four different")
    rejected(state, gold, {"type": "scramble", "tiles": ["a2", "a2", "b2", "b3"]}, "exactly four different")
    rejected(state, gold, {"type": "move", "to": "C3"}, "that is not possible now: scramble four tiles")
    rejected(state, teal, {"type": "skip_scramble"}, "not your turn")
    chosen = ["a2", "c1", "d4", "e3"]
    scrambled = accepted(state, gold, {"type": "scramble", "tiles": chosen})
    assert kinds(scrambled) == ["scramble"]
    assert sorted(scrambled.tiles[s][0] for s in chosen) == sorted(state.tiles[s][0] for s in chosen)
    assert scrambled.scramble_used[gold]
    assert (scrambled.phase, ENGINE.to_act(scrambled), scrambled.turns_played) == ("turn", [teal], 1)
    skipped = accepted(state, gold, {"type": "skip_scramble"})
    assert kinds(skipped) == ["skip_scramble"]
    assert (skipped.phase, ENGINE.to_act(skipped), skipped.scramble_used) == ("turn", [teal], [False, False])
    # the same position as the new flow reaches with no scramble
    plain = accepted(before, gold, {"type": "move", "to": "D4"})
    assert ENGINE.dump(skipped) | {"events": [], "ply": 0} == ENGINE.dump(plain) | {"events": [], "ply": 0}


def test_collecting_the_fifth_prize_wins():
    state = start(collected={"gold": 4, "teal": 2})
    gold = seat_of(state, "gold")
    state = accepted(state, gold, {"type": "move", "to": "D1"})
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (gold,)
    assert outcome.scores[gold] == 5
    assert outcome.reason == "all 5 prizes collected"
    assert kinds(state) == ["move", "collect", "end"]
    assert state.over
    assert ENGINE.to_act(state) == []
    assert ENGINE.legal_actions(state, gold) == []
    rejected(state, 1 - gold, {"type": "resign"}, "over")


def stuck_layout(**extra):
    """Both runners on circles of tile a2 with nowhere legal to go, and both just used option 3.

    a2 = tile 13 at 4 joins S-W (A1-A3, both runners on circles); the spare is tile 1, so option 1 on a2
    leads Gold a2 S->N, a3 S->W to empty circle A4, and Teal a2 W->E, b2 W->S, printed line, c1 W->SW to
    circle B1 while Teal's own marker is on the board.
    """
    fixed = {"a2": [13, 4], "a3": [11, 0], "b2": [6, 4], "c1": [18, 1]}
    prizes = {"B6": "orange", "F6": "orange", "F2": "orange", "B1": "plum", "D6": "plum", "E1": "plum"}
    settings = dict(
        fixed=fixed,
        spare=1,
        gold="A1",
        teal="A3",
        prizes=prizes,
        collected={"gold": 2, "teal": 2},
        marker={"colour": "plum", "stop": "E5"},
        last_option={"gold": 3, "teal": 3},
    )
    settings.update(extra)
    return start(**settings)


def test_a_player_with_no_legal_option_passes_and_two_passes_draw():
    state = stuck_layout()
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    assert ENGINE.legal_actions(state, gold) == [{"type": "pass"}]
    state = accepted(state, gold, {"type": "pass"})
    assert ENGINE.outcome(state) is None
    assert ENGINE.to_act(state) == [teal]
    assert ENGINE.legal_actions(state, teal) == [{"type": "pass"}]
    state = accepted(state, teal, {"type": "pass"})
    outcome = ENGINE.outcome(state)
    assert outcome.is_draw
    assert outcome.reason == "both players passed in a row"
    assert outcome.scores == (2.0, 2.0)
    assert kinds(state) == ["pass", "end"]
    assert event(state, "end") == {"seat": None, "reason": outcome.reason, "winners": [0, 1], "draw": True}


def test_pass_is_refused_while_an_option_exists_and_a_move_resets_the_count():
    state = stuck_layout(last_option={"gold": 3, "teal": 0})
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    state = accepted(state, gold, {"type": "pass"})
    rejected(state, teal, {"type": "pass"}, "may not pass")
    state = accepted(state, teal, {"type": "rotate", "space": "e4", "orientation": 3})
    assert state.passes_in_row == 0
    assert ENGINE.outcome(state) is None


THERE_AND_BACK = (  # from the start() position (Gold on B2, Teal on D4) and back to it
    ("gold", {"type": "move", "to": "B3"}),
    ("teal", {"type": "move", "to": "C3"}),
    ("gold", {"type": "move", "to": "B2"}),
    ("teal", {"type": "move", "to": "D4"}),
)


def test_the_third_time_a_position_begins_a_turn_the_game_is_a_draw():
    state = start()
    state = accepted(state, seat_of(state, "gold"), {"type": "rotate", "space": "e4", "orientation": 3})
    cycle = (  # back to the position after the rotation, not to the start
        ("teal", {"type": "move", "to": "C3"}),
        ("gold", {"type": "move", "to": "B3"}),
        ("teal", {"type": "move", "to": "D4"}),
        ("gold", {"type": "move", "to": "B2"}),
    )
    for colour, action in cycle * 2:  # that position begins its third turn with the last move
        assert ENGINE.outcome(state) is None
        state = accepted(state, seat_of(state, colour), action)
    outcome = ENGINE.outcome(state)
    assert outcome.is_draw
    assert outcome.reason == "the same position occurred 3 times"


def set_up_by_actions(seed: int):
    """A game whose first turn begins after Gold places the runners and Teal picks the first circle."""
    state = ENGINE.new_game(2, {}, seed)
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    state = accepted(state, gold, {"type": "place_runners", "gold": "C4", "teal": "D3"})
    return accepted(state, teal, {"type": "first_circle", "circle": "A2"})


def there_and_back_from(state):
    """Gold and Teal each step to a stop and back, returning to ``state``'s position, or None."""
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    home = dict(state.runners)
    for gold_to in sorted(set(legal_destinations(state, gold)) - set(CIRCLES)):
        after_gold = accepted(state, gold, {"type": "move", "to": gold_to})
        for teal_to in sorted(set(legal_destinations(after_gold, teal)) - set(CIRCLES)):
            after_teal = accepted(after_gold, teal, {"type": "move", "to": teal_to})
            if home["gold"] in legal_destinations(after_teal, gold):
                back = accepted(after_teal, gold, {"type": "move", "to": home["gold"]})
                if home["teal"] in legal_destinations(back, teal):
                    return (
                        ("gold", {"type": "move", "to": gold_to}),
                        ("teal", {"type": "move", "to": teal_to}),
                        ("gold", {"type": "move", "to": home["gold"]}),
                        ("teal", {"type": "move", "to": home["teal"]}),
                    )
    return None


@pytest.mark.parametrize("set_up", ["layout", "actions"])
def test_the_position_at_the_start_of_the_first_turn_counts_for_repetition(set_up):
    """Back to the starting position twice: three occurrences in all, so a draw (not on a fourth)."""
    if set_up == "layout":
        state, cycle = start(), THERE_AND_BACK
    else:
        state = next(state for state in map(set_up_by_actions, range(50)) if there_and_back_from(state))
        cycle = there_and_back_from(state)
    moves = list(cycle * 2)
    for colour, action in moves[:-1]:
        state = accepted(state, seat_of(state, colour), action)
        assert ENGINE.outcome(state) is None, "the starting position has occurred only twice so far"
    state = accepted(state, seat_of(state, moves[-1][0]), moves[-1][1])
    assert ENGINE.outcome(state).is_draw
    assert ENGINE.outcome(state).reason == "the same position occurred 3 times"


def test_a_hundred_turns_without_a_prize_end_in_a_draw():
    state = start()
    state.turns_played, state.last_prize_turn = 98, 0
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    state = accepted(state, gold, {"type": "move", "to": "B3"})
    assert ENGINE.outcome(state) is None, "99 turns without a prize"
    state = accepted(state, teal, {"type": "move", "to": "C3"})
    assert ENGINE.outcome(state).reason == "100 turns passed with no prize collected"


def test_collecting_a_prize_starts_the_count_and_the_positions_afresh():
    state = start()
    state.turns_played, state.last_prize_turn = 98, 0
    state.positions = {"earlier": 2}
    gold = seat_of(state, "gold")
    state = accepted(state, gold, {"type": "move", "to": "D1", "via": "b2.SW"})
    assert state.collected["gold"] == 1
    assert state.turns_played - state.last_prize_turn < 2
    assert "earlier" not in state.positions
    assert ENGINE.outcome(state) is None


def test_resign_ends_the_game_for_the_other_player():
    state = start()
    teal = seat_of(state, "teal")
    over = accepted(state, teal, {"type": "resign"})  # at any time, even off turn
    assert ENGINE.outcome(over).winners == (1 - teal,)
    assert ENGINE.outcome(over).reason == "resignation"
    assert kinds(over) == ["resign", "end"]
    assert over.phase == "turn"  # the phase is only for a running game: the end is the outcome


def test_dump_load_round_trip_through_json():
    state = start(scramble=True)
    state = accepted(state, seat_of(state, "gold"), {"type": "move", "to": "D1"})
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert ENGINE.load(data) == state
    assert ENGINE.dump(ENGINE.load(data)) == ENGINE.dump(state)
    with pytest.raises(ValueError, match="schema 99"):
        ENGINE.load({**data, "schema": 99})


def test_colour_helpers():
    state = start(gold_seat=1)
    assert colour_of(state, 1) == "gold"
    assert colour_of(state, 0) == "teal"
    assert seat_of(state, "teal") == 0


# ------------------------------------------------------------------ events, malformed actions, stored games


def test_set_up_records_colours_runners_and_prizes():
    state = ENGINE.new_game(2, {}, 5)
    gold, teal = state.gold_seat, 1 - state.gold_seat
    assert state.ply == 0
    assert event(state, "colours") == {"seat": None, "gold": gold, "teal": teal}
    state = accepted(state, gold, {"type": "place_runners", "gold": "c4", "teal": "D3"})
    assert state.ply == 1
    assert event(state, "runners") == {"seat": gold, "gold": "C4", "teal": "D3"}
    state = accepted(state, teal, {"type": "first_circle", "circle": "a2"})
    assert event(state, "prizes") == {
        "seat": teal,
        "circle": "A2",
        "plum": [c for c in RING if state.prizes.get(c) == "plum"],
        "orange": [c for c in RING if state.prizes.get(c) == "orange"],
    }
    assert state.ply == 2


def test_the_refusal_off_turn_says_what_the_game_waits_for():
    state = start()
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, seat_of(state, "teal"), {"type": "move", "to": "C3"})
    assert str(error.value) == "it is not your turn: Gold's turn: move, replace and move, or change a tile"


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"type": "move", "to": ["A1"]}, "The to of a move action must be a text"),
        ({"type": "move", "to": None}, "must be a text"),
        ({"type": "move", "to": "D1", "via": ["b2.SW"]}, "The via of a move action must be a text"),
        ({"type": "move"}, "needs its to"),
        ({"type": "move", "to": "D1", "space": "c3"}, "has no field 'space'"),
        ({"type": "rotate", "space": ["e4"], "orientation": 2}, "must be a text"),
        ({"type": "rotate", "space": "e4", "orientation": "2"}, "must be a whole number"),
        ({"type": "rotate", "space": "e4", "orientation": True}, "must be a whole number"),
        ({"type": "replace_move", "space": "c3", "orientation": 1, "to": {"stop": "D4"}}, "must be a text"),
        ({"type": "place_runners", "gold": ["C3"], "teal": "D4"}, "must be a text"),
        ({"type": "pass", "really": True}, "has no field"),
        ({"type": ["move"], "to": "D1"}, "An action is a dict"),
        (["move", "D1"], "An action is a dict"),
    ],
)
def test_malformed_actions_are_refused_not_crashed_on(action, words):
    state = start()
    rejected(state, seat_of(state, "gold"), action, words)


def test_malformed_set_up_marker_and_scramble_actions_are_refused():
    fresh = ENGINE.new_game(2, {}, 5)
    rejected(fresh, fresh.gold_seat, {"type": "place_runners", "gold": "C3", "teal": 4}, "must be a text")
    marker = accepted(start(gold="B2", teal="D4"), 0, {"type": "move", "to": "D1"})
    rejected(marker, 1, {"type": "place_marker", "stop": ["B2"]}, "must be a text")
    rejected(marker, 1, {"type": "place_marker"}, "needs its stop")
    offer = stored_at_scramble_offer(start(gold="C3", teal="B5", scramble=True), 0, {"type": "move", "to": "D4"})
    rejected(offer, 0, {"type": "scramble", "tiles": "a2 a3 b2 b3"}, "must be a list of texts")
    rejected(offer, 0, {"type": "scramble", "tiles": [["a2"], "a3", "b2", "b3"]}, "must be a list of texts")
    rejected(offer, 0, {"type": "scramble", "tiles": ["a2", "a3", "b2", "zz"]}, "zz is not a tile space")


def schema_1(state: dict, **changes) -> dict:
    """A state as schema 1 stored it: the fixture's game with ``changes``."""
    return {**state, **changes}


def test_schema_1_endings_load_as_outcomes():
    saved = json.loads(FIXTURES.joinpath("octiles_schema1.json").read_text())["state"]
    won = ENGINE.load(
        schema_1(
            saved, phase="over", winner=1, end_reason="Teal collected all 5 prizes", collected={"gold": 2, "teal": 5}
        )
    )
    assert won.outcome.winners == (1,)
    assert won.outcome.scores == (2.0, 5.0)
    assert won.outcome.reason == "all 5 prizes collected"
    assert won.phase == "turn"
    drawn = ENGINE.load(schema_1(saved, phase="over", winner=None, end_reason="both players passed in a row: draw"))
    assert drawn.outcome.is_draw
    assert drawn.outcome.reason == "both players passed in a row"
    resigned = ENGINE.load(schema_1(saved, phase="over", winner=0, end_reason="Teal resigned"))
    assert resigned.outcome.reason == "resignation"
    assert resigned.ply == 2 + saved["turn_number"] + 1
    for state in (won, drawn, resigned):
        assert ENGINE.to_act(state) == []
        assert not hasattr(state, "log")
        assert state.last_change == {"seat": 1, "space": "c4", "tile": 14, "option": 3}


def test_a_schema_1_game_resigned_at_the_scramble_offer_keeps_its_phase():
    saved = json.loads(FIXTURES.joinpath("octiles_schema1.json").read_text())["state"]
    route = {"seat": 0, "start": "C3", "via": "b2.NE", "end": "B3", "steps": [["b2", 1, 0]]}
    stored = schema_1(saved, phase="over", winner=1, end_reason="Gold resigned", scramble_rule=True, last_route=route)
    state = ENGINE.load({**stored, "last_change": None})
    assert state.phase == "scramble"
    assert state.outcome.winners == (1,)
    running = ENGINE.load({**stored, "phase": "scramble", "winner": None, "end_reason": "", "last_change": None})
    assert running.phase == "scramble"
    assert ENGINE.to_act(running) == [0]


def test_time_running_out_means_no_scramble_only_at_the_old_scramble_offer():
    state = start(scramble=True)
    gold = seat_of(state, "gold")
    assert ENGINE.when_time_runs_out(state, gold) is None, "in the turn itself the clock forfeits"
    moved = accepted(state, gold, {"type": "move", "to": "B3"})
    assert moved.phase == "turn", "no scramble question follows a turn"
    assert ENGINE.when_time_runs_out(moved, 1 - gold) is None
    offer = stored_at_scramble_offer(state, gold, {"type": "move", "to": "B3"})
    assert ENGINE.when_time_runs_out(offer, gold) == {"type": "skip_scramble"}
    assert ENGINE.when_time_runs_out(offer, 1 - gold) is None
