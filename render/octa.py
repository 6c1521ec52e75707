"""Octa pictures: the public table and a player's private hand.

Cards use a four-colour deck (spades black, hearts red, diamonds blue, clubs green) and
always show the suit's shape as well as its colour. Tokens are discs in the seat colour
carrying the seat number.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engines.base import Event
from engines.octa import (
    CENTRE,
    FACE_DOWN,
    OCTA_LENGTH,
    POOL_LINES,
    POSITION_CELLS,
    WIN_TABLE_CARDS,
    OctaState,
    card_name,
    longest_run,
    rank_of,
    run_length,
    suit_of,
    table_count,
)
from render import theme
from render.narration import shared_sentence
from render.regions import Box, with_regions
from render.wording import plural

WIDTH = 480  # the table; narrow, so its labels read on a phone
MARGIN = 16
TEXT = theme.min_text_size(WIDTH)  # the smallest text: 11 px tall at 360 px wide
TITLE = TEXT + 5
LINE = round(TEXT * 1.3)
TITLE_LINE = round(TITLE * 1.25)
SUIT_COLOURS = {"S": (25, 25, 30), "H": (200, 30, 45), "D": theme.BLUE, "C": (0, 130, 90)}
CARD_BACK = (58, 74, 120)
CARD_BACK_LINE = (88, 108, 160)
FACE_DOWN_RUN = (70, 60, 90)
ACTION_FACE = (255, 243, 214)  # action cards: warmer face so they read apart from number cards
SUPERSAMPLE = 4

# What the player to act does at each step of the turn (the engine's ``state.step``).
STEP_TEXT = {
    "place_action": "Put the revealed action card on action pile 1 or 2",
    "action": "Use the new action card's action, or skip it",
    "option": "Choose option A (lay a run), B (take a pool line), C (claim your pool run) or pass",
    "b_play": "Play at least one of the taken pool cards onto the table, then finish",
    "exchange": "Exchange one hand card with a pool card, or pass",
    "discard": "Discard a card (hand limit 8), or end the turn with fewer than 8 cards",
}


def card_text(code: str) -> str:
    """A card in what members read: its rank and suit letter ("7C", "10H", "QD"). Discord draws
    the suit symbols as emoji in two colours (a red ♦), the pictures' deck has four (a blue ♦, a
    green ♣), so the text names the suit by its letter and never contradicts the picture."""
    return rank_of(code) + suit_of(code)


def step_text(state: OctaState) -> str:
    """The current step in words ("The game is over" once it is)."""
    return "The game is over" if state.over else STEP_TEXT[state.step]


# ---------------------------------------------------------------- narration


def _cards(cards: Sequence[str], joiner: str = " ") -> str:
    return joiner.join(card_text(c) for c in cards)


def narrate(event: Event, names: Sequence[str]) -> str:
    """One event as a sentence, with ``names`` inserted as given (the bot passes bold names,
    the picture plain ones). Events name only public cards, so every sentence is public."""
    data = event.data
    who = _seat_name(names, event.seat) if event.seat is not None else ""
    kind = event.kind
    if kind == "deal":
        return f"The cards are dealt; {_seat_name(names, data['first'])} starts."
    if kind == "turn":
        drew = "drew a card" if data.get("drew") else "could not draw (the stock is empty)"
        revealed = f" and turned up {card_text(data['revealed'])}" if data.get("revealed") else ""
        reshuffled = " from the reshuffled action cards" if data.get("reshuffled") and revealed else ""
        return f"{who} {drew}{revealed}{reshuffled}."
    if kind == "flip":
        matched = f": suits match, the {data['action']} may be used." if data["match"] else "."
        return f"{who} put {card_text(data['card'])} on action pile {data['pile'] + 1}{matched}"
    if kind == "use_action":
        if data["action"] == "jack":
            owner = "their own" if data["owner"] == event.seat else f"{_seat_name(names, data['owner'])}'s"
            return f"{who} used the Jack on {card_text(data['card'])} of {owner} run {data['run'] + 1}."
        if data["action"] == "queen":
            return f"{who} used the Queen: took {_cards(data['cards'], ', ')} from the pool."
        return f"{who} used the King: took {data['count']} cards from the {data['source']}."
    if kind == "skip_action":
        return f"{who} did not use the action."
    if kind == "lay_run":
        return f"{who} laid the run {_cards(data['cards'])}" + (" with their token." if data["token"] else ".")
    if kind == "take_line":
        return f"{who} took the {data['line']} line of the pool: {_cards(data['cards'], ', ')}."
    if kind == "claim_pool_run":
        return f"{who} claimed the pool run {_cards(data['cards'])}."
    if kind == "pass_step":
        return {
            "option": f"{who} chose no option.",
            "b_play": f"{who} finished option B; the token returns and the pool is refilled.",
        }.get(data["step"], f"{who} did not exchange.")
    if kind == "exchange":
        token = f" and put their token on the {data['line']} run." if data.get("line") else "."
        return (
            f"{who} exchanged {card_text(data['card'])} for {card_text(data['taken'])} "
            f"at pool position {data['position']}{token}"
        )
    if kind == "discard":
        return f"{who} discarded {card_text(data['card'])}."
    if kind == "end_turn":
        return f"{who} ended the turn."
    if kind == "add_to_run":
        return f"{who} added {_cards(data['cards'])} to their run {data['run'] + 1}."
    if kind == "fill_hidden":
        owner = "their own" if data["owner"] == event.seat else f"{_seat_name(names, data['owner'])}'s"
        return (
            f"{who} put {card_text(data['card'])} in place of the face-down card of {owner} run "
            f"{data['run'] + 1} and took the face-down card."
        )
    if kind == "stock_reshuffled":
        return "The stock ran out: the discard pile and all runs of 3 were shuffled into a new stock."
    if kind == "last_turn":
        return "The stock ran out again: this is the last turn."
    if kind == "octa":
        return f"{who} has an Octa and {data['table']} cards on the table!"
    return shared_sentence(event, names)


def last_action_text(state: OctaState, names: Sequence[str]) -> str:
    """What the last action did (the result itself is told by the headline)."""
    return " ".join(filter(None, (narrate(event, names) for event in state.events if event.kind != "end")))


# ---------------------------------------------------------------- suit shapes and cards


def _suit_mask(suit: str, size: int) -> Image.Image:
    return theme.suit_mask(suit, size, SUPERSAMPLE)


def draw_suit(
    image: Image.Image, centre: tuple[float, float], suit: str, size: int, colour: tuple[int, int, int] | None = None
) -> None:
    mask = _suit_mask(suit, size)
    x, y = int(centre[0] - size / 2), int(centre[1] - size / 2)
    image.paste(colour or SUIT_COLOURS[suit], (x, y, x + size, y + size), mask)


# A picture repeats the same few dozen cards, card backs, tokens, badges and bars, so each is
# drawn once per process into a small sprite and pasted. Pillow draws shapes without
# anti-aliasing and the (anti-aliased) text and suits stay inside their shape, so pasting through
# a 1-bit mask of the covered pixels gives exactly the pixels that drawing in place would.

Sprite = tuple[Image.Image, Image.Image]  # the drawing and the mask of the pixels it covers
Painter = Callable[[Image.Image, ImageDraw.ImageDraw], None]


def _make_sprite(size: tuple[int, int], paint: Painter) -> Sprite:
    """Paint on a black and on a white canvas: the pixels that come out the same are covered.
    (A pixel blended with the canvas would be left out, which is why sprites have hard edges.)"""
    renders = []
    for background in ((0, 0, 0), (255, 255, 255)):
        image = Image.new("RGB", size, background)
        paint(image, ImageDraw.Draw(image))
        renders.append(image)
    covered = ImageChops.difference(*renders).convert("L").point(lambda v: 255 if v == 0 else 0, "1")
    return renders[0], covered


def _paste(image: Image.Image, sprite: Sprite, corner: tuple[int, int]) -> None:
    picture, covered = sprite
    image.paste(picture, corner, covered)


# Labels that recur from picture to picture ("Stock", "Run 2 (5)", "12 cards in hand") keep their
# anti-aliased glyph mask, and the ink is pasted through it: the same blend draw.text does.
# One-off text (the turn headline, the last move) is drawn directly.


def _label(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    """``draw.text`` for a recurring label, anchored at its top left unless told otherwise."""
    theme.write(image, xy, text, size, fill, anchor)


_MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))  # text_size needs a drawing, not a particular one


@lru_cache(maxsize=1024)  # labels, names and the lines the wrapping tries
def _text_width(text: str, size: int) -> int:
    return theme.text_size(_MEASURE, text, size)[0]


def draw_face_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    code: str,
    border: tuple[int, int, int] = theme.GRID,
    border_width: int = 2,
) -> None:
    """A face-up card: rank in the corner and large in the middle, suit shape beside it.
    ``draw`` is not used: the card is pasted from a cached sprite."""
    x0, y0, x1, y1 = box
    _paste(image, _face_card_sprite(code, x1 - x0, y1 - y0, border, border_width), (x0, y0))


@lru_cache(maxsize=256)  # 52 faces in three sizes, plus the highlighted action cards
def _face_card_sprite(code: str, width: int, height: int, border: tuple[int, int, int], border_width: int) -> Sprite:
    def paint(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        _paint_face_card(image, draw, (0, 0, width, height), code, border, border_width)

    return _make_sprite((width + 1, height + 1), paint)  # boxes include their far edge


def _paint_face_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    code: str,
    border: tuple[int, int, int],
    border_width: int,
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    suit, rank = suit_of(code), rank_of(code)
    ink = SUIT_COLOURS[suit]
    face = ACTION_FACE if rank in ("J", "Q", "K") else theme.CARD_FACE
    draw.rounded_rectangle(box, radius=max(4, w // 8), fill=face, outline=border, width=border_width)
    corner = int(h * 0.16)
    if corner >= TEXT:  # a card big enough for a readable corner index (the hand's)
        draw.text((x0 + w * 0.1, y0 + h * 0.05), rank, font=theme.font(corner), fill=ink)
        draw_suit(image, (x0 + w * 0.1 + corner * 0.35, y0 + h * 0.05 + corner * 1.55), suit, int(corner * 0.7))
        theme.centred_text(draw, ((x0 + x1) / 2, y0 + h * 0.5), rank, int(h * 0.3), ink)
        draw_suit(image, ((x0 + x1) / 2, y0 + h * 0.78), suit, int(h * 0.22))
    else:
        theme.centred_text(draw, ((x0 + x1) / 2, y0 + h * 0.32), rank, max(TEXT, int(h * 0.34)), ink)
        draw_suit(image, ((x0 + x1) / 2, y0 + h * 0.7), suit, max(10, int(min(w, h) * 0.44)))


def draw_card_back(
    image: Image.Image, box: tuple[int, int, int, int], label: str = "", colour: tuple[int, int, int] = CARD_BACK
) -> None:
    x0, y0, x1, y1 = box
    _paste(image, _card_back_sprite(x1 - x0, y1 - y0, label, colour), (x0, y0))


@lru_cache(maxsize=128)  # keyed on the count shown on the stock and action backs
def _card_back_sprite(width: int, height: int, label: str, colour: tuple[int, int, int]) -> Sprite:
    def paint(_image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        inset = max(4, width // 10)
        draw.rounded_rectangle(
            (0, 0, width, height), radius=max(4, width // 8), fill=colour, outline=theme.GRID, width=2
        )
        draw.rounded_rectangle(
            (inset, inset, width - inset, height - inset), radius=max(3, width // 12), outline=CARD_BACK_LINE, width=2
        )
        if label:
            theme.centred_text(draw, (width / 2, height / 2), label, max(TEXT, int(height * 0.26)), theme.INK)

    return _make_sprite((width + 1, height + 1), paint)


def draw_token(image: Image.Image, centre: tuple[float, float], seat: int, radius: int = 16) -> None:
    x, y = centre
    pad = radius + 2  # room for the octagon around the sprite's centre
    sprite = _token_sprite(seat, radius, x - math.floor(x), y - math.floor(y))
    _paste(image, sprite, (math.floor(x) - pad, math.floor(y) - pad))


@lru_cache(maxsize=64)
def _token_sprite(seat: int, radius: int, fraction_x: float, fraction_y: float) -> Sprite:
    pad = radius + 2
    centre = (pad + fraction_x, pad + fraction_y)

    def paint(_image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        colour = theme.SEAT_COLOURS[seat]
        theme.draw_octagon(draw, centre, radius, fill=colour, outline=theme.WHITE, width=2)
        theme.centred_text(draw, centre, str(seat + 1), int(radius * 1.15), theme.readable_ink(colour))

    return _make_sprite((2 * pad + 1, 2 * pad + 1), paint)


# ---------------------------------------------------------------- table
# Laid out for a phone: 480 px wide and no text under TEXT, so every label is at least 11 px tall
# when the picture is shown 360 px wide. Everything stacks in one column, widest first.


CARD = (62, 88)  # pool, action piles, stock and discard
CARD_GAP = 8
SIDE_GAP = 4  # the side's labels each span two columns or stand over the last
RUN_CARD = (33, 56)
RUN_STEP = RUN_CARD[0] + 2  # the longest run, A-10 or 2-A, is 10 cards: one row of a panel
RUN_GAP = 14
RUN_ROW = LINE + RUN_CARD[1] + 12  # a run's label, its cards and the space below
BADGE_RADIUS = 17  # a two-digit count at TEXT size
TOKEN_RADIUS = math.ceil(TEXT / 1.15)  # the smallest octagon whose seat number is TEXT sized
PANEL_PAD = 12
PANEL_INNER = WIDTH - 2 * MARGIN - 2 * PANEL_PAD
LAST_MOVE_LINES = 4
SECTION_GAP = 14


def _seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"Player {seat + 1}"


def _pool_cell_box(origin: tuple[int, int], row: int, col: int) -> tuple[int, int, int, int]:
    x = origin[0] + col * (CARD[0] + CARD_GAP)
    y = origin[1] + row * (CARD[1] + CARD_GAP)
    return x, y, x + CARD[0], y + CARD[1]


def _draw_pool(image: Image.Image, draw: ImageDraw.ImageDraw, state: OctaState, origin: tuple[int, int]) -> None:
    for seat, token in enumerate(state.tokens):
        if token.startswith("pool:"):
            boxes = [_pool_cell_box(origin, *POSITION_CELLS[p]) for p in POOL_LINES[token[5:]]]
            outline = (
                min(b[0] for b in boxes) - 5,
                min(b[1] for b in boxes) - 5,
                max(b[2] for b in boxes) + 5,
                max(b[3] for b in boxes) + 5,
            )
            draw.rounded_rectangle(outline, radius=10, outline=theme.SEAT_COLOURS[seat], width=4)
    for position, (row, col) in POSITION_CELLS.items():
        box = _pool_cell_box(origin, row, col)
        card = state.pool[position - 1]
        if card:
            draw_face_card(image, draw, box, card)
        else:
            draw.rounded_rectangle(box, radius=8, outline=theme.GRID, width=2)
        badge_centre = (box[2] - BADGE_RADIUS + 3, box[3] - BADGE_RADIUS + 3)  # on the cell's bottom-right corner
        _paste(
            image, _position_badge_sprite(position), (badge_centre[0] - BADGE_RADIUS, badge_centre[1] - BADGE_RADIUS)
        )
    centre = _pool_cell_box(origin, 1, 1)
    draw.rounded_rectangle(centre, radius=8, fill=theme.PANEL)
    in_centre = [seat for seat, token in enumerate(state.tokens) if token == CENTRE]
    cx = (centre[0] + centre[2]) / 2
    for index, seat in enumerate(in_centre):
        draw_token(image, (cx, centre[1] + TOKEN_RADIUS + 3 + index * (2 * TOKEN_RADIUS + 4)), seat, TOKEN_RADIUS)
    for seat, token in enumerate(state.tokens):
        if token.startswith("pool:"):  # the token sits on the corner of its run's outline
            first = _pool_cell_box(origin, *POSITION_CELLS[POOL_LINES[token[5:]][0]])
            draw_token(image, (first[0] - 2, first[1] - 2), seat, TOKEN_RADIUS)


@lru_cache(maxsize=64)  # the pool's positions and the discard pile's sizes
def _position_badge_sprite(position: int) -> Sprite:
    """The numbered disc on a pool cell's corner."""

    def paint(_image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.ellipse((0, 0, 2 * BADGE_RADIUS, 2 * BADGE_RADIUS), fill=theme.PANEL, outline=theme.GRID, width=1)
        theme.centred_text(draw, (BADGE_RADIUS, BADGE_RADIUS), str(position), TEXT, theme.INK)

    return _make_sprite((2 * BADGE_RADIUS + 1, 2 * BADGE_RADIUS + 1), paint)


def _side_box(x: int, y: int, column: int) -> tuple[int, int, int, int]:
    """A card place of the side block: three columns, a label line above each card."""
    left = x + column * (CARD[0] + SIDE_GAP)
    return left, y + LINE, left + CARD[0], y + LINE + CARD[1]


def _draw_side(image: Image.Image, draw: ImageDraw.ImageDraw, state: OctaState, x: int, y: int, final: bool) -> None:
    """Action piles and the revealed action card above, stock and discard pile below. A final
    picture marks nothing as waiting for the player on turn."""
    first, second = _side_box(x, y, 0), _side_box(x, y, 1)
    _card_label(image, (first[0], first[1], second[2], second[3]), "Piles 1 2", theme.MUTED)  # one label for both
    for pile in range(2):
        box = _side_box(x, y, pile)
        is_new = not final and state.step != "place_action" and pile == state.new_pile
        if state.action_piles[pile]:
            border = theme.HIGHLIGHT if is_new else theme.GRID
            draw_face_card(image, draw, box, state.action_piles[pile][-1], border=border)
    box = _side_box(x, y, 2)
    if state.revealed and final:
        _card_label(image, box, "Shown", theme.MUTED)
        draw_face_card(image, draw, box, state.revealed)
    elif state.revealed:
        _card_label(image, box, "New", theme.HIGHLIGHT)
        draw_face_card(image, draw, box, state.revealed, border=theme.HIGHLIGHT, border_width=4)
    else:
        _card_label(image, box, "Actions", theme.MUTED)
        draw_card_back(image, box, str(len(state.action_stack)))
    below = y + LINE + CARD[1] + SECTION_GAP
    stock_box, discard_box = _side_box(x, below, 0), _side_box(x, below, 2)  # apart: room for both labels
    _card_label(image, stock_box, "Stock", theme.MUTED)
    draw_card_back(image, stock_box, str(len(state.stock)))
    _card_label(image, discard_box, "Discard", theme.MUTED)
    if state.discard:
        draw_face_card(image, draw, discard_box, state.discard[-1])
    else:
        draw.rounded_rectangle(discard_box, radius=8, outline=theme.GRID, width=2)
    count_at = (discard_box[0] - BADGE_RADIUS - 6, discard_box[3] - 2 * BADGE_RADIUS)  # the pile's size beside it
    _paste(image, _position_badge_sprite(len(state.discard)), count_at)
    if state.stock_runouts:
        note = "Last turn!" if state.final_turn and not final else "Stock reshuffled"
        _label(image, (x, discard_box[3] + 10), note, TEXT, theme.VERMILION)


def _card_label(image: Image.Image, box: tuple[int, int, int, int], text: str, colour: tuple[int, int, int]) -> None:
    _label(image, ((box[0] + box[2]) / 2, box[1] - LINE / 2), text, TEXT, colour, "mm")


def _run_width(state: OctaState, seat: int, index: int) -> int:
    """The width of a run's place: its cards, or its label and the token beside it if wider."""
    label_w = _text_width(_run_label(state, seat, index), TEXT)
    if state.tokens[seat] == f"run:{index}":
        label_w += 2 * TOKEN_RADIUS + 8
    return max(_cards_width(len(state.runs[seat][index]["slots"])), label_w)


def _cards_width(count: int) -> int:
    return count * RUN_STEP - (RUN_STEP - RUN_CARD[0])


def _run_label(state: OctaState, seat: int, index: int) -> str:
    return f"Run {index + 1} ({run_length(state.runs[seat][index])})"


def _run_layout(state: OctaState, seat: int) -> tuple[list[tuple[int, int]], int]:
    """Top-left offset of each run inside the panel's run area, and the area's height."""
    places: list[tuple[int, int]] = []
    x = y = 0
    for index in range(len(state.runs[seat])):
        width = _run_width(state, seat, index)
        if x and x + width > PANEL_INNER:
            x, y = 0, y + RUN_ROW
        places.append((x, y))
        x += width + RUN_GAP
    return places, y + RUN_ROW


BAR_HEIGHT = TEXT + 9  # a progress bar round its TEXT label
PANEL_HEADER = PANEL_PAD + 2 * TOKEN_RADIUS + 10 + BAR_HEIGHT + 14  # name line, progress bars, space


def _panel_height(state: OctaState, seat: int) -> int:
    runs_h = _run_layout(state, seat)[1] if state.runs[seat] else LINE + 8
    return PANEL_HEADER + runs_h + PANEL_PAD - 8


def _draw_player_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: OctaState,
    seat: int,
    name: str,
    y: int,
    height: int,
    final: bool,
) -> dict[str, Box]:
    """The seat's panel; returns where its runs ("run:0.1") and their cards ("slot:0.1.2") are."""
    colour = theme.SEAT_COLOURS[seat]
    on_turn = state.current == seat and not final
    draw.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + height),
        radius=12,
        fill=theme.PANEL,
        outline=colour if on_turn else theme.PANEL,
        width=4,
    )
    left, right = MARGIN + PANEL_PAD, WIDTH - MARGIN - PANEL_PAD
    middle = y + PANEL_PAD + TOKEN_RADIUS
    draw_token(image, (left + TOKEN_RADIUS, middle), seat, TOKEN_RADIUS)
    hand_text = f"{len(state.hands[seat])} in hand"
    hand_x = right - _text_width(hand_text, TEXT)
    _label(image, (hand_x, middle), hand_text, TEXT, theme.MUTED, "lm")
    for i in range(min(len(state.hands[seat]), 3)):  # a small fan: the number says how many
        back_x = hand_x - 10 - i * 7
        draw_card_back(image, (back_x - 20, middle - 15 + i * 2, back_x, middle + 15 - i * 2))
    name_x = left + 2 * TOKEN_RADIUS + 10
    title = theme.fit_text(name, TITLE, hand_x - 50 - name_x - (_text_width(" (to play)", TITLE) if on_turn else 0))
    _label(image, (name_x, middle), title + (" (to play)" if on_turn else ""), TITLE, theme.INK, "lm")
    # Progress: table cards toward 28 and the longest run toward an Octa.
    count, longest = table_count(state, seat), longest_run(state, seat)
    bar_y, bar_w = middle + TOKEN_RADIUS + 10, (right - left - 12) // 2
    cards_label = f"{count}/{WIN_TABLE_CARDS} cards"
    _progress_bar(image, (left, bar_y, left + bar_w, bar_y + BAR_HEIGHT), count, WIN_TABLE_CARDS, colour, cards_label)
    octa_colour = theme.HIGHLIGHT if longest >= OCTA_LENGTH else colour
    octa_label = "Octa!" if longest >= OCTA_LENGTH else f"longest {longest}/{OCTA_LENGTH}"
    _progress_bar(
        image, (right - bar_w, bar_y, right, bar_y + BAR_HEIGHT), longest, OCTA_LENGTH, octa_colour, octa_label
    )
    runs_top = y + PANEL_HEADER
    if not state.runs[seat]:
        _label(image, (left, runs_top), "No runs on the table yet", TEXT, theme.MUTED)
        return {}
    regions: dict[str, Box] = {}
    places, _ = _run_layout(state, seat)
    for index, (run, (offset_x, offset_y)) in enumerate(zip(state.runs[seat], places, strict=True)):
        x, run_y = left + offset_x, runs_top + offset_y
        label = _run_label(state, seat, index)
        _label(image, (x, run_y + LINE / 2), label, TEXT, theme.MUTED, "lm")
        if state.tokens[seat] == f"run:{index}":
            token_x = x + _text_width(label, TEXT) + 8 + TOKEN_RADIUS
            draw_token(image, (token_x, run_y + LINE / 2 - 2), seat, TOKEN_RADIUS)
        _paste(image, _run_cards_sprite(tuple(run["slots"])), (x, run_y + LINE + 4))
        cards_top = run_y + LINE + 4
        regions[f"run:{seat}.{index}"] = (x, run_y, _cards_width(len(run["slots"])), cards_top + RUN_CARD[1] - run_y)
        for slot in range(len(run["slots"])):
            regions[f"slot:{seat}.{index}.{slot}"] = (x + slot * RUN_STEP, cards_top, RUN_CARD[0], RUN_CARD[1])
    return regions


@lru_cache(maxsize=128)  # most runs stay as they are from one turn to the next
def _run_cards_sprite(slots: tuple[str, ...]) -> Sprite:
    """A run's cards side by side (one paste instead of one per card)."""

    def paint(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        for index, slot in enumerate(slots):
            box = (index * RUN_STEP, 0, index * RUN_STEP + RUN_CARD[0], RUN_CARD[1])
            if slot.startswith(FACE_DOWN):
                draw_card_back(image, box, "J", colour=FACE_DOWN_RUN)
            else:
                draw_face_card(image, draw, box, slot)

    return _make_sprite((_cards_width(len(slots)) + 1, RUN_CARD[1] + 1), paint)


def _progress_bar(
    image: Image.Image,
    box: tuple[int, int, int, int],
    amount: int,
    goal: int,
    colour: tuple[int, int, int],
    label: str,
) -> None:
    x0, y0, x1, y1 = box
    _paste(image, _progress_bar_sprite(x1 - x0, y1 - y0, amount, goal, colour, label), (x0, y0))


@lru_cache(maxsize=128)  # a game shows a few dozen counts and lengths per seat
def _progress_bar_sprite(
    width: int, height: int, amount: int, goal: int, colour: tuple[int, int, int], label: str
) -> Sprite:
    def paint(_image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.rounded_rectangle(
            (0, 0, width, height), radius=height // 2, fill=theme.BACKGROUND, outline=theme.GRID, width=1
        )
        filled = int(width * min(1.0, amount / goal))
        if amount:
            draw.rounded_rectangle((0, 0, max(filled, height), height), radius=height // 2, fill=colour)
        text_w, _ = theme.text_size(draw, label, TEXT)
        draw.rectangle((6, 2, 14 + text_w, height - 2), fill=theme.BACKGROUND)  # the label reads on any fill
        draw.text((10, height / 2), label, font=theme.font(TEXT), fill=theme.INK, anchor="lm")

    return _make_sprite((width + 1, height + 1), paint)


def render_table(
    state: OctaState, names: Sequence[str], viewer: int | None = None, *, ending: str | None = None
) -> theme.Picture:
    """The public table: pool, action piles, stock and discard, both players' runs. No hand cards.
    With ``ending`` ("Stopped by Ada") the table is final whatever the state says: that outcome
    as its title, and nothing waiting for a player."""
    final = ending is not None or state.over
    title = _wrap(_title(state, names), TITLE, WIDTH - 2 * MARGIN) if ending is None else _ending_lines(ending, names)
    step = [] if final else _wrap(step_text(state), TEXT, WIDTH - 2 * MARGIN)
    last_move = _last_move_lines(state, names)
    # The header and the last move keep their height all game, so the message does not jump when
    # edited; only the runs make the table grow (and an ending longer than a turn's title).
    header_h = 18 + max(_title_lines(names), len(title)) * TITLE_LINE + _step_lines() * LINE + 6
    last_move_h = 2 * PANEL_PAD + LINE * (1 + LAST_MOVE_LINES)
    middle_h = LINE + 3 * CARD[1] + 2 * CARD_GAP + 8
    panel_heights = [_panel_height(state, seat) for seat in range(2)]
    height = header_h + last_move_h + middle_h + sum(panel_heights) + 4 * SECTION_GAP + MARGIN
    image, draw = theme.canvas(WIDTH, height)
    _draw_header(image, draw, theme.HIGHLIGHT if final else theme.SEAT_COLOURS[state.current], title, step, header_h)
    y = header_h
    _draw_last_move(image, draw, last_move, (MARGIN, y, WIDTH - MARGIN, y + last_move_h))
    y += last_move_h + SECTION_GAP
    pool_origin, pool_width = (MARGIN + 8, y + LINE), 3 * CARD[0] + 2 * CARD_GAP
    _label(image, (pool_origin[0] + pool_width / 2, y + LINE / 2 - 4), "Pool", TEXT, theme.MUTED, "mm")
    _draw_pool(image, draw, state, pool_origin)
    side_x, side_y = pool_origin[0] + 3 * (CARD[0] + CARD_GAP) + 14, y - 4
    _draw_side(image, draw, state, side_x, side_y, final)
    regions = {f"pool:{p}": _region(_pool_cell_box(pool_origin, *cell)) for p, cell in POSITION_CELLS.items()}
    regions.update({f"pile:{pile}": _region(_side_box(side_x, side_y, pile)) for pile in range(2)})
    y += middle_h + SECTION_GAP
    for seat in range(2):
        panel = _draw_player_panel(image, draw, state, seat, _seat_name(names, seat), y, panel_heights[seat], final)
        regions.update(panel)
        y += panel_heights[seat] + SECTION_GAP
    picture = theme.to_picture(image, describe_table(state, names, ending=ending), "octa_table.png")
    return with_regions(picture, regions)


def _region(corners: tuple[int, int, int, int]) -> Box:
    """A region from a box's corners (left, top, right, bottom)."""
    left, top, right, bottom = corners
    return left, top, right - left, bottom - top


ENDING_LINES = 3  # a final table's title: room for two long names around "won: ... ran out of time"


def _ending_lines(ending: str, names: Sequence[str]) -> list[str]:
    return theme.fit_lines(ending, TITLE, WIDTH - 2 * MARGIN, ENDING_LINES, tuple(names))


def _last_move_lines(state: OctaState, names: Sequence[str]) -> list[str]:
    text = last_action_text(state, names) or "-"  # the theme draws the suit symbols as shapes
    lines = _wrap(text, TEXT, WIDTH - 2 * MARGIN - 2 * PANEL_PAD)
    if len(lines) > LAST_MOVE_LINES:  # the alt text has the whole of it
        lines = [*lines[: LAST_MOVE_LINES - 1], theme.fit_text(lines[LAST_MOVE_LINES - 1] + " …", TEXT, PANEL_INNER)]
    return lines


def _draw_last_move(
    image: Image.Image, draw: ImageDraw.ImageDraw, lines: list[str], box: tuple[int, int, int, int]
) -> None:
    x0, y0, _x1, _y1 = box
    draw.rounded_rectangle(box, radius=12, fill=theme.PANEL)
    _label(image, (x0 + PANEL_PAD, y0 + PANEL_PAD), "Last move", TEXT, theme.MUTED)
    for index, line in enumerate(lines):
        theme.write(image, (x0 + PANEL_PAD, y0 + PANEL_PAD + LINE * (index + 1)), line, TEXT, theme.INK, "la")


def _wrap(text: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and _text_width(lines[-1] + " " + word, size) <= width:  # cached: texts recur
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


@lru_cache(maxsize=1)
def _step_lines() -> int:
    """Lines of the longest step text (the result of a finished game fits the same room)."""
    return max(len(_wrap(text, TEXT, WIDTH - 2 * MARGIN)) for text in STEP_TEXT.values())


def _title_lines(names: Sequence[str]) -> int:
    return max(len(_wrap(f"Turn 999: {_seat_name(names, seat)} to play", TITLE, WIDTH - 2 * MARGIN)) for seat in (0, 1))


def _title(state: OctaState, names: Sequence[str]) -> str:
    if state.over:
        return _result_line(state, names)
    return f"Turn {state.turn + 1}: {_seat_name(names, state.current)} to play"


def _draw_header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    colour: tuple[int, int, int],
    title: list[str],
    step: list[str],
    height: int,
) -> None:
    """The colour bar (the player on turn's, the highlight once over), then the title and the
    step, centred in the room kept for them."""
    draw.rectangle((0, 0, WIDTH, 8), fill=colour)
    y = 18 + (height - 24 - len(title) * TITLE_LINE - len(step) * LINE) // 2
    for line in title:
        theme.write(image, (MARGIN, y), line, TITLE, theme.INK, "la")
        y += TITLE_LINE
    for line in step:
        _label(image, (MARGIN, y), line, TEXT, theme.MUTED)
        y += LINE


def _result_line(state: OctaState, names: Sequence[str]) -> str:
    outcome = state.outcome
    if outcome.is_draw:
        return "Game over: a draw"
    seat = outcome.winners[0]
    winner = _seat_name(names, seat)
    if outcome.reason == "resignation":
        return f"{winner} wins by resignation"
    if outcome.reason == "time forfeit":
        return f"{winner} wins on time"
    if longest_run(state, seat) >= OCTA_LENGTH and table_count(state, seat) >= WIN_TABLE_CARDS:
        return f"{winner} wins with an Octa!"
    return f"{winner} wins with more cards on the table"


def describe_table(state: OctaState, names: Sequence[str], *, ending: str | None = None) -> str:
    parts = [f"Octa, turn {state.turn + 1}."]
    if ending is not None:
        parts.append(f"Game over: {ending}.")
    elif state.over:
        parts.append(_result_line(state, names) + ".")
    else:
        parts.append(f"{_seat_name(names, state.current)} to play: {step_text(state)}.")
    event = last_action_text(state, names)
    if event:
        parts.append(f"Last: {event}")
    pool = ", ".join(f"{p} {card_text(c)}" if c else f"{p} empty" for p, c in enumerate(state.pool, 1))
    parts.append(f"Pool: {pool}.")
    tops = [card_text(p[-1]) for p in state.action_piles if p]
    parts.append(
        f"Action cards: {' and '.join(tops)}" + (f"; new {card_text(state.revealed)}." if state.revealed else ".")
    )
    top = f", top {card_text(state.discard[-1])}" if state.discard else ""
    parts.append(f"Stock {len(state.stock)}, discard {len(state.discard)}{top}.")
    for seat in range(2):
        runs = (
            "; ".join(
                " ".join("?" if s.startswith(FACE_DOWN) else card_text(s) for s in run["slots"])
                for run in state.runs[seat]
            )
            or "no runs"
        )
        parts.append(
            f"{_seat_name(names, seat)}: {table_count(state, seat)}/{WIN_TABLE_CARDS} cards, "
            f"longest {longest_run(state, seat)}, {len(state.hands[seat])} in hand, "
            f"token {_token_text(state.tokens[seat])}; runs {runs}."
        )
    return " ".join(parts)[:1000]


def _token_text(token: str) -> str:
    if token == CENTRE:
        return "in the centre"
    if token.startswith("pool:"):
        return f"on the pool's {token[5:]} run"
    return f"on run {int(token[4:]) + 1}"


# ---------------------------------------------------------------- hand


HAND_CARD = (100, 140)
HAND_WIDTH = 480  # narrow, so its labels read on a phone
HAND_PER_ROW = 4
HAND_MARGIN = 24


def render_hand(state: OctaState, names: Sequence[str], seat: int) -> theme.Picture:
    """The seat's own hand, drawn large (send it only to that seat, ephemerally)."""
    hand = sorted(state.hands[seat], key=_hand_order)
    size = theme.min_text_size(HAND_WIDTH)
    line = round(size * 1.3)
    on_turn = state.current == seat and not state.over
    hint = _wrap(step_text(state), size, HAND_WIDTH - 2 * HAND_MARGIN) if on_turn else []
    rows = max(1, math.ceil(len(hand) / HAND_PER_ROW))
    gap = (HAND_WIDTH - 2 * HAND_MARGIN - HAND_PER_ROW * HAND_CARD[0]) // (HAND_PER_ROW - 1)
    row_h = HAND_CARD[1] + line + 10
    top = 24 + line * (1 + len(hint)) + 8
    image, draw = theme.canvas(HAND_WIDTH, top + rows * row_h)
    draw.rectangle((0, 0, HAND_WIDTH, 8), fill=theme.SEAT_COLOURS[seat])
    heading = f"{_seat_name(names, seat)}'s hand: {plural(len(hand), 'card')}"
    _label(image, (HAND_MARGIN, 20), heading, size + 3, theme.INK)
    for index, text in enumerate(hint):
        _label(image, (HAND_MARGIN, 20 + line * (index + 1) + 4), text, size, theme.MUTED)
    regions: dict[str, Box] = {}
    for index, card in enumerate(hand):
        row, col = divmod(index, HAND_PER_ROW)
        x = HAND_MARGIN + col * (HAND_CARD[0] + gap)
        y = top + row * row_h
        draw_face_card(image, draw, (x, y, x + HAND_CARD[0], y + HAND_CARD[1]), card)
        regions.setdefault(f"hand:{card}", (x, y, HAND_CARD[0], HAND_CARD[1]))  # a card held twice: the first
        _label(image, (x + HAND_CARD[0] / 2, y + HAND_CARD[1] + line / 2 + 4), card_name(card), size, theme.MUTED, "mm")
    cards = ", ".join(card_text(c) for c in hand) or "no cards"
    description = f"{_seat_name(names, seat)}'s hand ({plural(len(hand), 'card')}): {cards}."
    return with_regions(theme.to_picture(image, description, "octa_hand.png"), regions)


def _hand_order(code: str) -> tuple[int, int]:
    rank = rank_of(code)
    order = {"A": 1, "J": 11, "Q": 12, "K": 13}
    return "SHDC".index(suit_of(code)), order.get(rank, 0) or int(rank)
