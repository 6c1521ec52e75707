"""Octiles board pictures: valid PNGs, phone-sized, the right things in the right colours."""

from __future__ import annotations

import io

from PIL import Image

from engines.octiles import ENGINE, seat_of
from engines.octiles.board import CIRCLE_CENTRES, SPACE_CENTRES, STOP_CENTRES
from render import octiles as view
from render import theme
from tests.engines.test_octiles_rules import start

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
    assert close(pixel_at(image, STOP_CENTRES["B2"], dx=0.13), view.RUNNER_COLOURS["gold"])
    assert close(pixel_at(image, STOP_CENTRES["D4"], dx=0.13), view.RUNNER_COLOURS["teal"])
    assert close(pixel_at(image, CIRCLE_CENTRES["D1"], dx=0.13), view.PRIZE_COLOURS["orange"])
    assert close(pixel_at(image, CIRCLE_CENTRES["A3"], dx=0.13), view.PRIZE_COLOURS["plum"])
    assert close(pixel_at(image, CIRCLE_CENTRES["A1"], dx=0.1), theme.BACKGROUND)  # empty circle
    assert close(pixel_at(image, STOP_CENTRES["E5"], dy=0.19), view.PRIZE_COLOURS["plum"])  # the marker
    assert close(pixel_at(image, STOP_CENTRES["B5"], dy=0.19), view.STOP_FACE)  # an ordinary stop


def test_last_route_and_changed_tile_are_highlighted():
    state = start(gold="B2", teal="D4")
    before = image_of(view.render_board(state, NAMES))
    moved = ENGINE.apply(state, seat_of(state, "gold"), {"type": "move", "to": "D1"})
    after = image_of(view.render_board(moved, NAMES))
    # c1 holds tile 1: the route runs straight W -> E through it, just off the centre label
    assert close(pixel_at(after, SPACE_CENTRES["c1"], dx=0.3), view.ROUTE)
    assert not close(pixel_at(before, SPACE_CENTRES["c1"], dx=0.3), view.ROUTE)
    turned = ENGINE.apply(state, seat_of(state, "gold"), {"type": "rotate", "space": "e4", "orientation": 2})
    image = image_of(view.render_board(turned, NAMES))
    assert close(pixel_at(image, SPACE_CENTRES["e4"], dx=0.12), view.CHANGED)  # the label badge
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
        "Last move B2 to D1",
        "Spare tile",
        "Grace (Teal) to play",
    ):
        assert fact in text, fact


def test_finished_game_and_viewer_mark():
    state = start(collected={"gold": 4, "teal": 2})
    won = ENGINE.apply(state, seat_of(state, "gold"), {"type": "move", "to": "D1"})
    public = view.render_board(won, NAMES)
    assert "Ada (Gold) wins" in public.description
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


def test_orientation_picker_shows_eight_numbered_turns_of_the_tile():
    state = start(gold="C3", teal="D4")
    picture = view.render_orientations(state, "c3")
    image = image_of(picture)
    assert image.width <= theme.MAX_WIDTH
    assert "Tile 2 on c3" in picture.description
    assert "orientation 7" in picture.description
    spare = view.render_orientations(state)
    assert f"Spare tile {state.spare}" in spare.description
    # the current orientation (7, bottom-right cell) is outlined in the "changed" colour
    outlined = [image.getpixel((x, 385)) for x in range(700, 944)]
    assert any(close(pixel, view.CHANGED, 30) for pixel in outlined)
    assert not any(close(image.getpixel((x, 170)), view.CHANGED, 30) for x in range(0, 944))
