"""Octagone pictures: valid PNGs for phones, visible target and shields, hidden hands kept hidden."""

from __future__ import annotations

import io
import math
from dataclasses import replace

from PIL import Image

from engines.base import Event, play_out
from engines.octagone import COLOURS, DIRECTIONS, ENGINE, JOKER, choose_action
from engines.octagone.rules import SHIELD_KINDS
from render import theme
from render.octagone import (
    BOARD_BOTTOM,
    BOX_RADIUS,
    CHIP_ROW,
    LEGEND_HEIGHT,
    PLAYER_LINE,
    SHIELD_RADIUS,
    box_centre,
    narrate,
    render_board,
    render_hand,
)
from tests.render.pixels import TOLERANCE, near

NAMES = ["Ana", "Bo", "Cy", "Di"]


def _game(players: int, moves: int, seed: int = 3, **options):
    return play_out(ENGINE, choose_action, ENGINE.new_game(players, options, seed), moves, seed=seed)


def _image(picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.format == "PNG"
    assert image.width <= theme.MAX_WIDTH
    return image.convert("RGB")


def _close(pixel, colour, tolerance=12) -> bool:
    return near(pixel, colour, max(tolerance, TOLERANCE))


def test_board_is_a_phone_sized_png_with_the_target_highlighted():
    state = _game(2, 9)
    picture = render_board(state, NAMES[:2])
    image = _image(picture)
    assert image.width <= 600, "narrow, so that its labels read on a phone"
    cx, cy = box_centre(state.target)
    edge = (BOX_RADIUS - 1) * math.cos(math.pi / 8)
    assert _close(image.getpixel((round(cx), round(cy - edge + 2))), theme.HIGHLIGHT)
    # a box that is not the target has no yellow outline there
    other = next(box for box in ("A1", "F7", "C4") if box != state.target and box not in state.board)
    ox, oy = box_centre(other)
    assert not _close(image.getpixel((round(ox), round(oy - edge + 2))), theme.HIGHLIGHT)


def test_placed_shields_show_their_colour_and_jokers_are_black():
    state = _game(2, 12)
    image = _image(render_board(state, NAMES[:2]))
    fills = {
        "orange": theme.ORANGE,
        "sky": theme.SKY_BLUE,
        "green": theme.GREEN,
        "yellow": theme.YELLOW,
        "blue": theme.BLUE,
        "pink": theme.PURPLE,
        JOKER: theme.BLACK,
    }
    checked = 0
    for box, placed in state.board.items():
        cx, cy = box_centre(box)
        # Probe beside the arrow's shaft, on the side away from the shield's letter.
        row_step, column_step = DIRECTIONS[placed.direction]
        norm = math.hypot(row_step, column_step)
        dx, dy = column_step / norm, row_step / norm
        probe = (round(cx + dy * SHIELD_RADIUS * 0.5), round(cy - dx * SHIELD_RADIUS * 0.5))
        assert _close(image.getpixel(probe), fills[placed.shield], 20), (box, placed)
        checked += 1
    assert checked >= 3


def test_description_tells_the_last_move_the_turn_and_the_counts():
    state = _game(2, 6)
    description = render_board(state, NAMES[:2]).description
    event = next(e for e in state.events if e.kind == "place")
    assert event.ply == state.ply
    assert f"on {event.data['box']} aiming {event.data['direction']}" in description
    assert narrate(event, NAMES[:2]) in description
    assert f"{NAMES[state.to_move]} to play on {state.target}" in description
    for seat in range(2):
        assert f"{NAMES[seat]} {sum(state.hands[seat].values())}" in description


def test_public_board_with_hidden_hands_does_not_reveal_them():
    state = _game(2, 8)
    swapped_hands = [dict(hand) for hand in state.hands]
    # Same counts, different contents: move one shield of seat 1 from one kind to another.
    kinds = [kind for kind in SHIELD_KINDS if swapped_hands[1][kind] > 0]
    empty = next(kind for kind in SHIELD_KINDS if kind != kinds[0])
    swapped_hands[1][kinds[0]] -= 1
    swapped_hands[1][empty] += 1
    other = replace(state, hands=swapped_hands)
    for viewer in (None, 0):
        first, second = render_board(state, NAMES[:2], viewer), render_board(other, NAMES[:2], viewer)
        assert first.png == second.png
        assert first.description == second.description
    assert render_hand(state, NAMES[:2], 0).png == render_hand(other, NAMES[:2], 0).png
    assert render_hand(state, NAMES[:2], 1).png != render_hand(other, NAMES[:2], 1).png


def test_open_hands_are_shown_to_everyone():
    hidden = _game(2, 4, seed=5)
    shown = replace(hidden, open_hands=True)
    hidden_picture, open_picture = render_board(hidden, NAMES[:2]), render_board(shown, NAMES[:2])
    assert _image(open_picture).height > _image(hidden_picture).height
    assert "holds" in open_picture.description
    assert "holds" not in hidden_picture.description


def test_private_hand_lists_counts_per_colour_and_what_fits_the_target():
    state = _game(2, 5)
    seat = state.to_move
    picture = render_hand(state, NAMES[:2], seat)
    image = _image(picture)
    assert image.width <= 1000
    for kind in (*COLOURS, JOKER):
        count = state.hands[seat][kind]
        if count:
            word = "sky blue" if kind == "sky" else kind
            assert f"{count} {word}" in picture.description
    assert f"Target {state.target}" in picture.description


def test_four_player_board_with_pairs_and_the_white_lady_beside_the_winners():
    state = _game(4, 200, seed=5, open_hands=True)
    assert state.over
    picture = render_board(state, NAMES)
    image = _image(picture)
    assert "Game over" in picture.description
    assert "Pairs:" in picture.description
    winners = ENGINE.outcome(state).winners
    if winners != (0, 1, 2, 3):
        assert " & ".join(NAMES[seat] for seat in winners) + " win" in picture.description
        # the White Lady (a white octagon, wider than any stroke of a letter) follows each winner's
        # name on their line, and no one else's
        for seat in range(4):
            line_top = BOARD_BOTTOM + LEGEND_HEIGHT + 6 + seat * (PLAYER_LINE + CHIP_ROW)  # open hands
            widest = max(_white_run(image, y, range(40, 300)) for y in range(line_top, line_top + PLAYER_LINE))
            assert (widest >= 15) == (seat in winners), (seat, widest)


def _white_run(image: Image.Image, y: int, xs: range) -> int:
    """The longest run of near-white pixels of row ``y`` within ``xs``."""
    longest = run = 0
    for x in xs:
        run = run + 1 if _close(image.getpixel((x, y)), theme.WHITE, 6) else 0
        longest = max(longest, run)
    return longest


def test_opening_board_shows_the_white_lady():
    state = _game(2, 1, seed=7, level="basic")
    image = _image(render_board(state, NAMES[:2]))
    cx, cy = box_centre(state.white_lady)
    dx, dy = (-1, -1) if state.board[state.white_lady].direction in ("N", "S", "E", "W") else (0, -1)
    probe = (round(cx + dx * SHIELD_RADIUS * 0.35 + 3), round(cy + dy * SHIELD_RADIUS * 0.55))
    assert image.getpixel(probe) == theme.WHITE or _close(image.getpixel(probe), theme.WHITE, 10)


def test_narrator_says_each_event_in_one_sentence():
    names = ["Ana", "Bo"]
    assert (
        narrate(Event(1, 0, "white_lady", {"box": "C4", "direction": "NE", "target": "B5"}), names)
        == "Ana placed the White Lady on C4 aiming NE (next target B5)."
    )
    assert (
        narrate(Event(2, 1, "place", {"shield": "sky", "box": "B5", "direction": "S", "target": "C5"}), names)
        == "Bo placed a sky blue shield on B5 aiming S (next target C5)."
    )
    assert (
        narrate(Event(9, 1, "place", {"shield": JOKER, "box": "F7", "direction": "NW", "target": None}), names)
        == "Bo placed a joker on F7 aiming NW (no free box left)."
    )
    assert (
        narrate(Event(5, 0, "place", {"shield": "orange", "box": "A1", "direction": "W", "target": "A7"}), names)
        == "Ana placed an orange shield on A1 aiming W (next target A7)."
    )
    assert narrate(Event(2, None, "white_lady_removed", {"box": "C4"}), names) == "The White Lady leaves C4."
    assert narrate(Event(3, 0, "skip", {"box": "B2"}), names) == "Ana has no sky blue shield or joker for B2 and skips."
    assert narrate(Event(4, 1, "resign"), names) == "Bo resigned."
    assert (
        narrate(Event(4, None, "end", {"reason": "resignation", "winners": [0], "draw": False}), names)
        == "Ana won (resignation)."
    )


def test_narrator_uses_names_as_given_never_seat_numbers():
    names = ["Seat 2", "Bo"]
    state = ENGINE.new_game(2, {"level": "basic"}, seed=3)
    while state.to_move != 0 or state.opening:  # play until seat 0 places a shield
        state = ENGINE.apply(state, state.to_move, choose_action(state, state.to_move, "easy"))
    state = ENGINE.apply(state, 0, choose_action(state, 0, "easy"))
    said = [narrate(event, names) for event in state.events if event.seat == 0]
    assert said
    assert all(sentence.startswith("Seat 2 ") and "Bo" not in sentence for sentence in said)
    resigned = ENGINE.apply(state, 0, {"type": "resign"})
    assert narrate(resigned.events[0], names) == "Seat 2 resigned."
    bold = ["**Seat 2**", "**Bo**"]
    assert narrate(resigned.events[0], bold) == "**Seat 2** resigned."
    description = render_board(resigned, names).description
    assert "Seat 2 resigned." in description
    assert "Game over: Bo wins" in description


def test_long_names_are_shortened_in_the_picture_but_not_in_the_alt_text():
    long_names = ["Maximiliana-Alexandria von Hohen", "Bartholomew-Fitzgerald McAllist", "Cy", "Di"]
    state = _game(4, 6, seed=3, open_hands=True)
    picture = render_board(state, long_names)
    image = _image(picture)
    strip = image.crop((image.width - 10, 0, image.width, image.height))  # the right margin
    assert all(_close(colour, theme.BACKGROUND) for _, colour in strip.getcolors(1 << 16))
    assert long_names[0] in picture.description
    hand = render_hand(state, long_names, 0)
    strip = _image(hand).crop((470, 0, 480, 40))
    assert all(_close(colour, theme.BACKGROUND) for _, colour in strip.getcolors(1 << 16))
