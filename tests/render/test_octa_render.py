"""Octa pictures: decode, fit a phone, show what they should and hide the hands."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from engines.base import play_out
from engines.octa import ENGINE
from engines.octa.ai import choose_action
from engines.octa.cards import card_name
from engines.octa.testing import near_win_options
from render import theme
from render.octa import SUIT_COLOURS, draw_face_card, render_hand, render_table

NAMES = ["Alice", "Bob"]


def _decode(picture):
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.format == "PNG"
    assert image.width <= theme.MAX_WIDTH
    return image.convert("RGB")


def _mid_game(moves: int = 80, seed: int = 4):
    return play_out(ENGINE, choose_action, ENGINE.new_game(2, {}, seed), moves, seed=1)


def test_table_decodes_and_describes_the_essentials():
    state = _mid_game()
    picture = render_table(state, NAMES)
    image = _decode(picture)
    assert image.height < 1600
    text = picture.description
    assert f"{NAMES[state.current]} to play" in text
    assert f"Stock {len(state.stock)}" in text
    for seat in (0, 1):
        assert f"{NAMES[seat]}: " in text
        assert f"{len(state.hands[seat])} in hand" in text
    assert card_name(state.pool[0]) in text
    assert len(text) <= 1000


def test_public_table_never_shows_hand_cards():
    state = ENGINE.new_game(
        2,
        {
            "deal": {
                "first": 0,
                "hands": [
                    ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H"],
                    ["9D"] * 2 + ["10D"] * 2 + ["AD"] + ["2C", "3C", "4C"],
                ],
                "pool": ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"],
                "stock_top": ["10S"],
            }
        },
        seed=1,
    )
    text = render_table(state, NAMES, viewer=0).description
    for card in state.hands[0] + state.hands[1]:
        assert card_name(card) not in text
    # The same table for a hand that differs only in cards gives the same picture.
    other = ENGINE.load(ENGINE.dump(state))
    other.hands[1] = ["JC"] * len(state.hands[1])
    assert render_table(other, NAMES).png == render_table(state, NAMES).png


def test_hand_shows_only_the_owners_cards():
    state = _mid_game(40)
    seat = state.current
    picture = render_hand(state, NAMES, seat)
    _decode(picture)
    for card in state.hands[seat]:
        assert card_name(card) in picture.description
    for card in set(state.hands[1 - seat]) - set(state.hands[seat]):
        assert card_name(card) not in picture.description


def test_turn_colour_bar_and_four_colour_suits():
    state = _mid_game(30)
    image = _decode(render_table(state, NAMES))
    assert image.getpixel((5, 3)) == theme.SEAT_COLOURS[state.current]
    card = Image.new("RGB", (104, 146), theme.BACKGROUND)
    draw = ImageDraw.Draw(card)
    draw_face_card(card, draw, (0, 0, 103, 145), "7H")
    centre_suit = card.getpixel((52, int(146 * 0.78)))
    assert centre_suit == SUIT_COLOURS["H"]
    draw_face_card(card, draw, (0, 0, 103, 145), "7D")
    assert card.getpixel((52, int(146 * 0.78))) == SUIT_COLOURS["D"]
    assert len(set(SUIT_COLOURS.values())) == 4


def test_finished_game_headline_names_the_winner():
    state = ENGINE.new_game(2, near_win_options(), seed=2)
    state = ENGINE.apply(state, 0, {"type": "flip", "pile": 0})
    state = ENGINE.apply(state, 0, {"type": "add_to_run", "run": 3, "cards": ["5C"]})
    picture = render_table(state, NAMES)
    _decode(picture)
    assert "Alice wins with an Octa" in picture.description
    image = _decode(picture)
    assert image.getpixel((5, 3)) == theme.HIGHLIGHT


def test_face_down_jack_card_is_hidden_in_text():
    state = ENGINE.new_game(2, {"deal": {"first": 0, "runs": [[["4H", "5H", "6H", "7H"]], []]}}, seed=3)
    state.runs[0][0]["slots"][1] = "#9C"
    text = render_table(state, NAMES).description
    assert "4♥ ? 6♥ 7♥" in text
    assert "3/28" in text
