"""Octa pictures: decode, fit a phone, show what they should and hide the hands."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from engines.base import Event, play_out
from engines.octa import ENGINE, choose_action
from engines.octa.testing import near_win_options
from render import octa as render_octa
from render import theme
from render.octa import SUIT_COLOURS, card_text, draw_face_card, narrate, render_hand, render_table, step_text
from tests.render.pixels import near

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
    assert card_text(state.pool[0]) in text
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
        assert card_text(card) not in text
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
        assert card_text(card) in picture.description
    for card in set(state.hands[1 - seat]) - set(state.hands[seat]):
        assert card_text(card) not in picture.description


def test_turn_colour_bar_and_four_colour_suits():
    state = _mid_game(30)
    image = _decode(render_table(state, NAMES))
    assert near(image.getpixel((5, 3)), theme.SEAT_COLOURS[state.current])
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
    assert near(image.getpixel((5, 3)), theme.HIGHLIGHT)


def test_step_text_describes_the_step_to_play():
    state = ENGINE.new_game(2, {"deal": {"first": 0}}, 3)
    assert state.step == "place_action"
    assert "action pile" in step_text(state)
    assert step_text(ENGINE.apply(state, 1, {"type": "resign"})) == "The game is over"


def test_face_down_jack_card_is_hidden_in_text():
    state = ENGINE.new_game(2, {"deal": {"first": 0, "runs": [[["4H", "5H", "6H", "7H"]], []]}}, seed=3)
    state.runs[0][0]["slots"][1] = "#9C"
    text = render_table(state, NAMES).description
    assert "4H ? 6H 7H" in text
    assert "3/28" in text


# ---------------------------------------------------------------- narration


def test_names_are_inserted_never_replaced():
    """The old narration wrote "Seat 1 ..." and replaced "Seat N" by names afterwards, so a
    player named "Seat 2" turned seat 0's discard into the other player's."""
    names = ["Seat 2", "Bo"]
    assert narrate(Event(3, 0, "discard", {"card": "7H"}), names) == "Seat 2 discarded 7H."
    assert narrate(Event(3, 1, "discard", {"card": "7H"}), names) == "Bo discarded 7H."
    jack = Event(4, 0, "use_action", {"action": "jack", "owner": 1, "run": 0, "card": "6H"})
    assert narrate(jack, names) == "Seat 2 used the Jack on 6H of Bo's run 1."
    assert narrate(jack, ["**Ada**", "**Bo**"]) == "**Ada** used the Jack on 6H of **Bo**'s run 1."


def _played(seed: int, moves: int = 400):
    """Every event of a game between computer players."""
    state = ENGINE.new_game(2, {}, seed)
    events = list(state.events)
    for _ in range(moves):
        if state.over:
            break
        state = ENGINE.apply(state, state.current, choose_action(state, state.current, "easy", seed))
        events += state.events
    return state, events


def test_every_event_of_whole_games_is_narrated_naming_the_right_player():
    names = ["Seat 2", "Bo"]
    kinds = set()
    for seed in range(3):
        state, events = _played(seed)
        for event in events:
            kinds.add(event.kind)
            text = narrate(event, names)
            assert text, event
            assert "Seat 1" not in text
            if event.seat == 0:
                assert text.startswith("Seat 2 "), (event, text)
                mentions_bo = event.data.get("owner") == 1
                assert ("Bo" in text) == mentions_bo, (event, text)
            elif event.seat == 1:
                assert text.startswith("Bo "), (event, text)
                assert "Seat 2" not in text or event.data.get("owner") == 0, (event, text)
    assert {"deal", "turn", "flip", "pass_step", "discard", "lay_run", "end"} <= kinds
    resigned = ENGINE.apply(state if not state.over else ENGINE.new_game(2, {}, 1), 0, {"type": "resign"})
    assert [narrate(event, names) for event in resigned.events] == [
        "Seat 2 resigned.",
        "Bo won (resignation).",
    ]


def test_every_kind_of_event_says_something():
    names = ["Ada", "Bo"]
    samples = [
        Event(0, None, "deal", {"first": 1}),
        Event(0, 1, "turn", {"turn": 0, "drew": True, "revealed": "QH", "reshuffled": True}),
        Event(1, 1, "flip", {"card": "QH", "pile": 0, "match": True, "action": "queen"}),
        Event(2, 1, "use_action", {"action": "queen", "positions": [4, 6], "cards": ["3H", "9H"]}),
        Event(2, 1, "use_action", {"action": "king", "source": "discard", "count": 2}),
        Event(2, 1, "skip_action", {}),
        Event(3, 1, "lay_run", {"cards": ["2H", "3H", "4H"], "run": 0, "token": False}),
        Event(3, 1, "take_line", {"line": "top", "cards": ["2H", "9S", "4C"]}),
        Event(3, 1, "claim_pool_run", {"line": "left", "cards": ["2D", "3D", "4D"], "run": 1}),
        Event(4, 1, "pass_step", {"step": "b_play"}),
        Event(4, 1, "exchange", {"card": "5D", "taken": "8C", "position": 3, "line": "top"}),
        Event(5, 1, "end_turn", {}),
        Event(5, 1, "add_to_run", {"run": 0, "cards": ["5H"], "side": "high"}),
        Event(5, 1, "fill_hidden", {"owner": 1, "run": 0, "card": "6H"}),
        Event(5, None, "stock_reshuffled", {"cards": 40, "runs_returned": 2}),
        Event(5, None, "last_turn", {}),
        Event(6, 1, "octa", {"table": 29}),
        Event(6, None, "end", {"reason": "the stock ran out twice", "winners": [0, 1], "draw": True}),
    ]
    texts = [narrate(event, names) for event in samples]
    assert all(text.endswith((".", "!")) for text in texts), texts
    assert texts[1] == "Bo drew a card and turned up QH from the reshuffled action cards."
    assert texts[3] == "Bo used the Queen: took 3H, 9H from the pool."
    assert texts[10] == "Bo exchanged 5D for 8C at pool position 3 and put their token on the top run."
    assert texts[13] == "Bo put 6H in place of the face-down card of their own run 1 and took the face-down card."
    assert narrate(Event(1, 0, "something_new", {}), names) == ""


def test_the_picture_tells_the_last_action_with_plain_names():
    state = ENGINE.new_game(2, {"deal": {"first": 0}}, 5)
    state = ENGINE.apply(state, 0, {"type": "flip", "pile": 1})
    text = render_table(state, ["Seat 2", "Bo"]).description
    assert f"Last: Seat 2 put {card_text(state.action_piles[1][-1])} on action pile 2" in text
    assert "**" not in text


# ---------------------------------------------------------------- phone layout


def _right_margin_is_empty(image: Image.Image, margin: int) -> bool:
    """Nothing drawn spills into the right margin (below the turn's colour bar)."""
    strip = image.crop((image.width - margin + 2, 10, image.width, image.height))
    return all(near(colour, theme.BACKGROUND) for _, colour in strip.getcolors(1 << 16))


def test_the_longest_run_and_name_stay_inside_the_picture():
    ten = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]  # no run is longer
    state = ENGINE.new_game(2, {"deal": {"first": 0, "runs": [[ten, ["2S", "3S", "4S"]], []]}}, seed=3)
    state.tokens[0] = "run:1"  # the token widens its run's label
    long_name = "Maximiliana-Alexandria von Hohen"  # 32 characters, Discord's longest
    picture = render_table(state, [long_name, "Bo"])
    image = _decode(picture)
    assert image.width <= 480, "narrow, so that its labels read on a phone"
    assert _right_margin_is_empty(image, render_octa.MARGIN)
    assert f"{long_name}: 13/28 cards" in picture.description, "the alt text keeps the whole name"


def test_mid_game_tables_stay_inside_the_picture():
    for moves in (30, 90, 150):
        assert _right_margin_is_empty(_decode(render_table(_mid_game(moves, seed=9), NAMES)), render_octa.MARGIN)
