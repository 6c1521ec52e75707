"""Octagone pictures: valid PNGs for phones, visible target and shields, hidden hands kept hidden."""

from __future__ import annotations

import io
import math
from dataclasses import replace

from PIL import Image

from engines.base import play_out
from engines.octagone import COLOURS, DIRECTIONS, ENGINE, JOKER, SHIELD_KINDS
from engines.octagone.ai import choose_action
from render import theme
from render.octagone import BOX_RADIUS, SHIELD_RADIUS, box_centre, render_board, render_hand

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
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def test_board_is_a_phone_sized_png_with_the_target_highlighted():
    state = _game(2, 9)
    picture = render_board(state, NAMES[:2])
    image = _image(picture)
    assert 700 <= image.width <= 1000
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
    event = [e for e in state.events if e["type"] == "place"][-1]
    assert f"on {event['box']} aiming {event['direction']}" in description
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
        # the White Lady (white octagon) appears in the players' panel: count near-white pixels there
        panel_top = round(box_centre("F1")[1] + 60)
        whites = sum(
            1
            for y in range(panel_top, panel_top + 180, 2)
            for x in range(60, 420, 2)
            if _close(image.getpixel((x, y)), theme.WHITE, 6)
        )
        assert whites > 20


def test_opening_board_shows_the_white_lady():
    state = _game(2, 1, seed=7, level="basic")
    image = _image(render_board(state, NAMES[:2]))
    cx, cy = box_centre(state.white_lady)
    dx, dy = (-1, -1) if state.board[state.white_lady].direction in ("N", "S", "E", "W") else (0, -1)
    probe = (round(cx + dx * SHIELD_RADIUS * 0.35 + 3), round(cy + dy * SHIELD_RADIUS * 0.55))
    assert image.getpixel(probe) == theme.WHITE or _close(image.getpixel(probe), theme.WHITE, 10)
