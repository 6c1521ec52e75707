"""The Octego board picture: decodes, fits a phone, and shows what the state says."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engines.base import Event
from engines.octego import ENGINE
from render import theme
from render.octego import (
    BLACK_SPACE,
    CAPTURE_COLOUR,
    CELL,
    HEIGHT,
    PANEL_TOP,
    PATH_COLOUR,
    PURPLE_SPACE,
    WIDTH,
    narrate,
    render_board,
    square_centre,
)

NAMES = ["Ada", "Grace"]


def close(pixel, colour, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def decode(picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    return image.convert("RGB")


def token_ring(image: Image.Image, square: str):
    """A pixel on a token's coloured face, right of its centre (clear of the octagon marks)."""
    x, y = square_centre(square)
    return image.getpixel((x + int(CELL * 0.27), y))


def played(*paths: str, position: str | None = None):
    state = ENGINE.new_game(2, {"position": position} if position else {}, 1)
    for path in paths:
        state = ENGINE.apply(state, state.to_move, {"type": "move", "path": path})
    return state


def test_picture_decodes_and_fits_a_phone():
    picture = render_board(played(), NAMES)
    image = decode(picture)
    assert picture.png.startswith(b"\x89PNG")
    assert image.size == (WIDTH, HEIGHT)
    assert WIDTH <= 720 < HEIGHT <= 1000, "portrait, narrow enough for large labels on a phone"
    assert picture.filename.endswith(".png")


def test_spaces_show_two_grids_and_seats_have_their_colours():
    image = decode(render_board(played(), NAMES))
    assert close(image.getpixel(square_centre("d4")), BLACK_SPACE, 12)  # d4: black space
    assert close(image.getpixel(square_centre("e4")), PURPLE_SPACE, 12)  # e4: purple space
    # Seat 0 (row 1) blue circles, seat 1 (row 8) orange squares.
    assert close(token_ring(image, "c1"), theme.SKY_BLUE)
    assert close(token_ring(image, "c8"), theme.ORANGE)
    # An Octego's centre is solid white; a numbered piece has a dark octagon at its centre.
    assert close(image.getpixel(square_centre("d1")), theme.WHITE)
    assert close(image.getpixel(square_centre("c1")), theme.DARK_INK)
    # The squares' corners differ: a square token fills its corner, a circle does not.
    x, y = square_centre("a8")
    corner = (x - int(CELL * 0.28), y - int(CELL * 0.28))
    assert close(image.getpixel(corner), theme.ORANGE)
    x, y = square_centre("a1")
    assert not close(image.getpixel((x - int(CELL * 0.28), y - int(CELL * 0.28))), theme.SKY_BLUE)


def test_row_1_stays_at_the_bottom_whoever_looks():
    state = played()
    for viewer in (None, 0, 1):
        image = decode(render_board(state, NAMES, viewer))
        assert close(token_ring(image, "f1"), theme.SKY_BLUE)
        assert square_centre("a1")[1] > square_centre("a8")[1]


def test_last_move_path_and_capture_are_drawn():
    state = played("d4-e5-f4", position="2d4 Oa1 / Oh8 1f4")
    image = decode(render_board(state, NAMES))
    assert close(image.getpixel(square_centre("e5")), PATH_COLOUR)  # the square passed through
    x, y = square_centre("f4")
    badge = (x + int(CELL * 0.31), y - int(CELL * 0.31))
    assert close(image.getpixel((badge[0] - 6, badge[1])), CAPTURE_COLOUR, 50)
    quiet = decode(render_board(played("d4-e5-f6", position="2d4 Oa1 / Oh8 1f4"), NAMES))
    x, y = square_centre("f6")
    assert not close(quiet.getpixel((x + int(CELL * 0.31) - 6, y - int(CELL * 0.31))), CAPTURE_COLOUR, 50)
    before = decode(render_board(ENGINE.new_game(2, {"position": "2d4 Oa1 / Oh8 1f4"}, 1), NAMES))
    assert not close(before.getpixel(square_centre("e5")), PATH_COLOUR)


def test_captured_pieces_appear_under_the_board():
    state = played("d4-e5xf4", position="2d4 Oa1 / Oh8 1f4 3c8 3h1 2a5 2g7 1c1")
    without = played("d4-e5-f6", position="2d4 Oa1 / Oh8 1f4 3c8 3h1 2a5 2g7 1c1")
    image, other = decode(render_board(state, NAMES)), decode(render_board(without, NAMES))
    panel = (0, PANEL_TOP, image.width, image.height)

    def orange_pixels(picture: Image.Image) -> int:
        raw = picture.crop(panel).tobytes()
        pixels = (raw[i : i + 3] for i in range(0, len(raw), 3))
        return sum(1 for pixel in pixels if close(pixel, theme.ORANGE, 25))

    assert orange_pixels(image) > orange_pixels(other) + 200  # one more orange token taken


def test_description_lets_a_blind_player_follow():
    state = played("d4-e5xf4", position="2d4 Oa1 / Oh8 1f4")
    text = render_board(state, NAMES).description
    for fact in ("Ada", "Grace", "Ada moved d4-e5xf4, capturing Grace's 1.", "Grace's turn", "Octegos a1", "h8"):
        assert fact in text, fact
    assert "1 move played" in text
    assert "your turn" in render_board(state, NAMES, viewer=1).description
    assert len(text) <= 1024


@pytest.mark.parametrize(("ending", "winner"), [("resign", "Grace wins"), ("octego", "Ada wins")])
def test_finished_game_says_who_won(ending, winner):
    if ending == "resign":
        state = ENGINE.apply(played(), 0, {"type": "resign"})
    else:
        state = played("c7-d8", position="Oc7 Oa1 / Oh8")
    picture = render_board(state, NAMES)
    assert winner in picture.description
    assert "Game over" in picture.description
    assert ("Ada resigned." in picture.description) == (ending == "resign")
    assert "0 moves played" in picture.description if ending == "resign" else "1 move played" in picture.description
    decode(picture)


def test_a_resignation_keeps_the_board_but_draws_no_last_move():
    state = played("d4-e5-f6", position="2d4 Oa1 / Oh8 1f4")
    resigned = ENGINE.apply(state, 1, {"type": "resign"})
    image = decode(render_board(resigned, NAMES))
    assert not close(image.getpixel(square_centre("e5")), PATH_COLOUR)
    assert close(token_ring(image, "f6"), theme.SKY_BLUE)
    text = render_board(resigned, NAMES).description
    assert "Grace resigned." in text
    assert "1 move played" in text
    assert "Game over: Ada wins (resignation)." in text


# ---------------------------------------------------------------- the narrator


def test_narrator_words_each_event_with_the_names_as_given():
    capture = played("d4-e5xf4", position="2d4 Oa1 / Oh8 1f4").events[0]
    assert narrate(capture, NAMES) == "Ada moved d4-e5xf4, capturing Grace's 1."
    assert narrate(capture, ["**Ada**", "**Grace**"]) == "**Ada** moved d4-e5xf4, capturing **Grace**'s 1."
    octego = played("c1-d2", "h6xg7", position="1c1 Oa1 Og7 / Oh8 1h6").events[0]
    assert narrate(octego, NAMES) == "Grace moved h6xg7, capturing Ada's Octego."
    grid = played("a4-a5", position="2a4 Oc1 / Oh8").events[0]
    assert narrate(grid, NAMES) == "Ada moved a4-a5 (grid change)."
    assert narrate(Event(3, 1, "resign"), NAMES) == "Grace resigned."
    won = Event(3, None, "end", {"reason": "both Octegos captured", "winners": [0], "draw": False})
    assert narrate(won, NAMES) == "Ada won (both Octegos captured)."
    drawn = Event(9, None, "end", {"reason": "threefold repetition", "winners": [0, 1], "draw": True})
    assert narrate(drawn, NAMES) == "The game ends in a draw (threefold repetition)."
    assert narrate(Event(1, None, "something new"), NAMES) == ""


def test_narrator_never_confuses_a_player_named_like_a_seat():
    names = ["Seat 2", "Bo"]
    state = played("c1-d2", position="1c1 Oa1 / Oh8 1e3")
    assert narrate(state.events[0], names) == "Seat 2 moved c1-d2."
    state = ENGINE.apply(state, 1, {"type": "move", "path": "e3xd2"})
    assert narrate(state.events[0], names) == "Bo moved e3xd2, capturing Seat 2's 1."
    capture = played("c1-d2", "h8-g7", "d2xe3", position="1c1 Oa1 / Oh8 1e3").events[0]
    assert narrate(capture, names) == "Seat 2 moved d2xe3, capturing Bo's 1."
    resigned = ENGINE.apply(played(), 0, {"type": "resign"})
    said = [narrate(event, names) for event in resigned.events]
    assert said == ["Seat 2 resigned.", "Bo won (resignation)."]
    description = render_board(resigned, names).description
    assert "Seat 2 resigned." in description
    assert "Bo resigned" not in description


def test_long_names_do_not_break_the_layout():
    picture = render_board(played("c1-d2"), ["A" * 60, "Ω" * 40])
    assert decode(picture).width <= theme.MAX_WIDTH
