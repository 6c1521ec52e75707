"""Octiles board pictures: valid PNGs, phone-sized, the right things in the right colours."""

from __future__ import annotations

import io

from PIL import Image

from engines.base import Event
from engines.octiles import (
    CIRCLE_CENTRES,
    ENGINE,
    SPACE_CENTRES,
    STOP_CENTRES,
    TILE_NUMBERS,
    colour_of,
    legal_destinations,
    seat_of,
)
from render import octiles as view
from render import theme
from tests.engines.test_octiles_rules import start, stuck_layout
from tests.render.pixels import colour_count

NAMES = ["Ada", "Grace"]


def image_of(picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    return image.convert("RGB")


def pixel_at(image: Image.Image, point, dx: float = 0.0, dy: float = 0.0):
    """Colour at a board point (board units, y up), offset in board units."""
    left = (view.WIDTH - (view.BOARD_X_RANGE[1] - view.BOARD_X_RANGE[0]) * view.UNIT) / 2
    x = left + (point[0] + dx - view.BOARD_X_RANGE[0]) * view.UNIT
    y = view.HEADER + (view.BOARD_Y_RANGE[1] - (point[1] + dy)) * view.UNIT
    return image.getpixel((round(x), round(y)))


def close(colour, expected, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def test_set_up_picture_decodes_and_fits_a_phone():
    state = ENGINE.new_game(2, {}, 3)
    picture = view.render_board(state, NAMES)
    image = image_of(picture)
    assert image.width <= theme.MAX_WIDTH
    assert image.height == view.picture_height()
    assert picture.filename.endswith(".png")
    assert "places the runners" in picture.description
    gold = NAMES[state.gold_seat]
    assert gold in picture.description


def test_runners_prizes_and_marker_are_drawn_in_their_colours():
    state = start(gold="B2", teal="D4", marker={"colour": "plum", "stop": "E5"}, collected={"teal": 1})
    image = image_of(view.render_board(state, NAMES))
    assert close(pixel_at(image, STOP_CENTRES["B2"], dx=0.22), view.RUNNER_COLOURS["gold"])
    assert close(pixel_at(image, STOP_CENTRES["D4"], dx=0.22), view.RUNNER_COLOURS["teal"])
    assert close(pixel_at(image, CIRCLE_CENTRES["D1"], dx=0.22), view.PRIZE_COLOURS["orange"])
    assert close(pixel_at(image, CIRCLE_CENTRES["A3"], dx=0.22), view.PRIZE_COLOURS["plum"])
    assert close(pixel_at(image, CIRCLE_CENTRES["A1"], dx=0.1), theme.BACKGROUND)  # empty circle
    assert close(pixel_at(image, STOP_CENTRES["E5"], dy=0.19), view.PRIZE_COLOURS["plum"])  # the marker
    assert close(pixel_at(image, STOP_CENTRES["B5"], dy=0.19), view.STOP_FACE)  # an ordinary stop


def test_last_route_and_changed_tile_are_highlighted():
    state = start(gold="B2", teal="D4")
    before = image_of(view.render_board(state, NAMES))
    moved = ENGINE.apply(state, seat_of(state, "gold"), {"type": "move", "to": "D1"})
    after = image_of(view.render_board(moved, NAMES))
    # c1 holds tile 1: the route runs straight W -> E through it, just off the centre badge
    assert close(pixel_at(after, SPACE_CENTRES["c1"], dx=0.4), view.ROUTE)
    assert not close(pixel_at(before, SPACE_CENTRES["c1"], dx=0.4), view.ROUTE)
    turned = ENGINE.apply(state, seat_of(state, "gold"), {"type": "rotate", "space": "e4", "orientation": 2})
    image = image_of(view.render_board(turned, NAMES))
    assert close(pixel_at(image, SPACE_CENTRES["e4"], dx=0.21), view.CHANGED)  # the name badge, past the name
    assert "rotated tile" in view.render_board(turned, NAMES).description


def test_description_lets_a_blind_player_follow():
    state = start(gold="B2", teal="D4", collected={"gold": 0, "teal": 1}, marker={"colour": "plum", "stop": "E5"})
    moved = ENGINE.apply(state, seat_of(state, "gold"), {"type": "move", "to": "D1"})
    text = view.render_board(moved, NAMES).description
    for fact in (
        "Ada is Gold on D1",
        "1/5 orange",
        "Grace is Teal on D4",
        "1/5 plum",
        "Plum marker on E5",
        "Ada (Gold) moved B2 → D1 (via b2.SW, through b2, c1, d1).",
        "Ada collected an orange prize on D1 (1/5).",
        "Spare tile",
        "Grace (Teal) to play",
    ):
        assert fact in text, fact


def test_finished_game_and_viewer_mark():
    state = start(collected={"gold": 4, "teal": 2})
    won = ENGINE.apply(state, seat_of(state, "gold"), {"type": "move", "to": "D1"})
    public = view.render_board(won, NAMES)
    assert "Ada (Gold) wins: all 5 prizes collected." in public.description
    assert "Ada collected an orange prize on D1 (5/5)." in public.description
    assert " won (" not in public.description  # the end is said once, by the status
    # nothing is hidden in Octiles: a seat's view differs from the public one only by the "(you)" mark
    mine = view.render_board(won, NAMES, viewer=0)
    assert mine.description == public.description
    assert image_of(mine).size == image_of(public).size


def test_tile_curves_start_and_end_on_edge_midpoints():
    curve = view.tile_path_curve((0.0, 0.0), 0, 3)
    assert curve[0] == (0.0, 0.5)
    end_x, end_y = curve[-1]
    assert abs(end_x - 0.5 * 0.7071) < 1e-3
    assert abs(end_y + 0.5 * 0.7071) < 1e-3


def test_orientation_picker_shows_each_different_look_once_with_every_number_giving_it():
    state = start(gold="C3", teal="D4")
    picture = view.render_orientations(state, "c3")
    image = image_of(picture)
    assert image.width <= theme.MAX_WIDTH
    assert "Tile 2 on c3, now 7" in picture.description
    groups = view.orientation_groups(2)
    assert sorted(k for same in groups.values() for k in same) == list(range(8))
    assert len(groups) < 8, "tile 2 is symmetric: some turns look alike"
    assert f"{len(groups)} different orientations" in picture.description
    rows = -(-len(groups) // view.ORIENTATION_COLUMNS)
    assert image.height == view.ORIENTATION_TITLE + rows * view.ORIENTATION_CELL
    # the cell of the current orientation (7) is outlined in the "changed" colour, the others not
    now = next(index for index, same in enumerate(groups.values()) if 7 in same)
    for index in range(len(groups)):
        row, column = divmod(index, view.ORIENTATION_COLUMNS)
        left, top = column * view.ORIENTATION_CELL, view.ORIENTATION_TITLE + row * view.ORIENTATION_CELL
        cell = image.crop((left, top, left + view.ORIENTATION_CELL, top + view.ORIENTATION_CELL))
        outlined = colour_count(cell, view.CHANGED, tolerance=30) > 200
        assert outlined == (index == now), index
    spare = view.render_orientations(state)
    assert f"Spare tile {state.spare}" in spare.description
    assert all(len(view.orientation_groups(tile)) in (1, 2, 4, 8) for tile in TILE_NUMBERS)


def test_the_runner_on_turn_sees_where_it_can_go():
    state = start(gold="B2", teal="D4")
    colour, destinations = view.reachable(state)
    assert colour == colour_of(state, state.turn_seat)
    assert set(destinations) == set(legal_destinations(state, state.turn_seat))
    image = image_of(view.render_board(state, NAMES))
    ring = view.RUNNER_COLOURS[colour]
    for end in destinations:  # a ring in the runner's colour just outside the stop or circle
        centre = STOP_CENTRES.get(end) or CIRCLE_CENTRES[end]
        radius = view.REACH_RING["stop" if end in STOP_CENTRES else "circle"] - 0.025  # the ring's middle
        assert any(close(pixel_at(image, centre, dx=d * radius), ring) for d in (-1, 1)), end
    over = ENGINE.apply(state, seat_of(state, "gold"), {"type": "resign"})
    assert view.reachable(over) == (None, {})


# ------------------------------------------------------------------ narration


def narrated(state, names=NAMES) -> list[str]:
    return [view.narrate(event, names) for event in state.events]


def test_every_event_of_a_game_is_one_plain_sentence():
    state = start(gold="B2", teal="D4", scramble=True)
    gold, teal = seat_of(state, "gold"), seat_of(state, "teal")
    assert narrated(state) == ["Ada is Gold (orange prizes) and plays first; Grace is Teal (plum prizes)."]
    state = ENGINE.apply(state, gold, {"type": "move", "to": "D1"})
    assert narrated(state) == [
        "Ada (Gold) moved B2 → D1 (via b2.SW, through b2, c1, d1).",
        "Ada collected an orange prize on D1 (1/5).",
    ]
    state = ENGINE.apply(state, teal, {"type": "place_marker", "stop": "B2"})
    assert narrated(state) == ["Grace put Ada's orange marker on B2: Ada must reach it before collecting again."]
    state = ENGINE.apply(state, teal, {"type": "move", "to": "C3", "scramble": ["a2", "a3", "e3", "e4"]})
    assert narrated(state) == [
        "Grace (Teal) moved D4 → C3 (via c3.NE, through c3).",
        "Grace scrambled the tiles on a2, a3, e3, e4.",
    ]
    state = ENGINE.apply(state, gold, {"type": "move", "to": "B2"})
    assert narrated(state)[1] == "Ada reached the orange marker on B2 and removed it."
    state = ENGINE.apply(state, gold, {"type": "place_marker", "stop": "E5"})
    assert narrated(state) == ["Ada put Grace's plum marker on E5: Grace must reach it before collecting again."]
    # a game stored at the old scramble offer (a phase of its own before the scramble joined the turn)
    offer = ENGINE.load({**ENGINE.dump(state), "phase": "scramble", "turn_seat": teal})
    assert narrated(ENGINE.apply(offer, teal, {"type": "skip_scramble"})) == ["Grace did not scramble."]
    tile, was = state.tiles["b4"]
    turned = ENGINE.apply(state, teal, {"type": "rotate", "space": "b4", "orientation": (was + 1) % 8})
    assert narrated(turned) == [
        f"Grace (Teal) rotated tile {tile} on b4 from orientation {was} to {(was + 1) % 8} (no move)."
    ]
    spare = state.spare
    swapped = ENGINE.apply(state, teal, {"type": "replace", "space": "b4", "orientation": 6})
    assert narrated(swapped) == [
        f"Grace (Teal) replaced tile {tile} on b4 with spare tile {spare} (orientation 6); "
        f"tile {tile} is now the spare (no move)."
    ]
    resigned = ENGINE.apply(state, gold, {"type": "resign"})
    assert narrated(resigned) == ["Ada resigned.", "Grace won (resignation)."]


def test_set_up_option_1_and_passes_are_narrated():
    state = ENGINE.new_game(2, {}, 5)
    gold, teal = state.gold_seat, 1 - state.gold_seat
    state = ENGINE.apply(state, gold, {"type": "place_runners", "gold": "C4", "teal": "D3"})
    assert narrated(state) == [f"{NAMES[gold]} (Gold) put the Gold runner on C4 and the Teal runner on D3."]
    state = ENGINE.apply(state, teal, {"type": "first_circle", "circle": "A2"})
    assert narrated(state) == [
        f"{NAMES[teal]} (Teal) set out the prizes from A2: plum on A2 A6 E6 F3 D1; orange on A4 C6 F5 F1 B1."
    ]
    state = start(gold="C3", teal="B5")
    spare = state.spare
    action = next(a for a in ENGINE.legal_actions(state, 0) if a["type"] == "replace_move" and a["space"] == "c3")
    moved = ENGINE.apply(state, 0, action)
    (line,) = narrated(moved)
    assert line.startswith(
        f"Ada (Gold) put spare tile {spare} on c3 (orientation {action['orientation']}) and moved C3 "
    )
    assert line.endswith("; tile 2 is now the spare.")
    stuck = ENGINE.apply(stuck_layout(), 0, {"type": "pass"})
    assert narrated(stuck) == ["Ada (Gold) had no legal option and passed."]
    drawn = ENGINE.apply(stuck, 1, {"type": "pass"})
    assert narrated(drawn) == [
        "Grace (Teal) had no legal option and passed.",
        "The game ends in a draw (both players passed in a row).",
    ]


def test_narration_puts_in_the_names_as_given_and_never_by_seat_number():
    names = ["Seat 2", "Bo"]
    state = start(gold="B2", teal="D4", gold_seat=0)
    state = ENGINE.apply(state, 0, {"type": "move", "to": "D1"})
    lines = narrated(state, names)
    assert lines[0].startswith("Seat 2 (Gold) moved")
    assert lines[1] == "Seat 2 collected an orange prize on D1 (1/5)."
    assert not any("Bo" in line for line in lines)
    placed = ENGINE.apply(state, 1, {"type": "place_marker", "stop": "B2"})
    assert narrated(placed, names) == [
        "Bo put Seat 2's orange marker on B2: Seat 2 must reach it before collecting again."
    ]
    assert narrated(placed, ["**Seat 2**", "**Bo**"])[0].startswith("**Bo** put **Seat 2**'s orange marker")
    picture = view.render_board(state, names)
    assert "Seat 2 (Gold) moved B2 → D1" in picture.description
    resigned = ENGINE.apply(state, 0, {"type": "resign"})
    assert narrated(resigned, names) == ["Seat 2 resigned.", "Bo won (resignation)."]


def test_unknown_events_say_nothing():
    assert view.narrate(Event(3, 0, "something_new", {}), NAMES) == ""


def test_a_route_is_not_lit_on_tiles_its_own_scramble_shuffled():
    state = start(scramble=True)
    seat = state.turn_seat
    move = next(a for a in ENGINE.legal_actions(state, seat) if a["type"] == "move")
    plain = ENGINE.apply(state, seat, move)
    crossed = [step[0] for step in next(e for e in plain.events if e.kind == "move").data["steps"]]
    others = [space for space in SPACE_CENTRES if space not in crossed]
    scrambled = ENGINE.apply(state, seat, {**move, "scramble": [crossed[0], *others[:3]]})
    lit_plain, _, _ = view._route_parts(plain)
    lit_scrambled, _, _ = view._route_parts(scrambled)
    assert crossed[0] in lit_plain
    assert crossed[0] not in lit_scrambled
    assert set(lit_scrambled) == set(lit_plain) - {crossed[0]}
