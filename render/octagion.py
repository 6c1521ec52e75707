"""Octagion pictures: the round's sequence, a team's deck and variant, round results, score sheet.

All pictures are 480 px wide and as tall as they need, so that on a phone (shown 360 px wide)
the smallest text is still 11 px tall; many teams make them taller, never wider. Every colour
is paired with text (a "-1" under a penalised card and its reason in words, a number in each
team badge).
The bot's message texts (lobby, round result, totals, a variant) are written here too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.base import Event
from engines.octagion import (
    COMBINATIONS,
    COUNTDOWN_CARDS,
    DECK_TABLE,
    DEFAULT_ROUNDS,
    TREATMENT,
    OctagionState,
    has,
    normalise_variations,
    party_numbers,
    score_variant,
    team_active,
    team_members,
    team_of,
)
from render import theme
from render.narration import shared_sentence
from render.theme import Picture
from render.wording import plural

WIDTH = 480  # narrow, portrait pictures: shown 360 px wide on a phone, the smallest text stays readable
MARGIN = 16
GAP = 6
TEXT = theme.min_text_size(WIDTH)  # the smallest text: a capital 11 px tall once shown 360 px wide
LABEL = TEXT + 3  # names, scores, the word's letters
TITLE = TEXT + 7
LINE = TEXT + 11  # the height of a line of TEXT
CARD_W = (WIDTH - 2 * MARGIN - 7 * GAP) // 8  # eight cards across the picture
ROW_X = (WIDTH - 8 * CARD_W - 7 * GAP) // 2
CARD_H = 70  # a card with its letter and its number
WORD_CARD_H = 62  # a card with its letter only
MARK_H = 28  # the "-1" under a penalised card
TEAM_COLOURS = (
    theme.SKY_BLUE,
    theme.ORANGE,
    theme.GREEN,
    theme.PURPLE,
    theme.YELLOW,
    theme.VERMILION,
    theme.BLUE,
    theme.WHITE,
)
TREATMENT_FACE = theme.BLUE
RESULT_TEAMS_PER_PAGE = 10
COMPACT_FROM_TEAMS = 4  # from this many teams, cards are lower to save height
VARIATION_TITLES = {
    "alpha": "Alpha",
    "beta": "Beta",
    "gamma": "Gamma",
    "delta": "Delta",
    "epsilon": "Epsilon",
    "zeta": "Zeta",
}

VIRULENT_PARTS = COMBINATIONS["virulent"]
VARIATION_HELP = {  # for choosing: `/octagion start variation:` and the lobby's list
    "none": "basic rules",
    "alpha": "rounds get 5 s shorter",
    "beta": "Treatment Cards set per team",
    "gamma": "Countdown Cards set the time",
    "delta": "Countdown Card picks the word",
    "epsilon": "a different word per team",
    "zeta": "words need not be spellable",
    "virulent": "Beta + Gamma + Delta + Epsilon",
}


# ---------------------------------------------------------------- narration


def narrate(event: Event, names: Sequence[str]) -> str:
    """One engine event as a plain sentence; "" for events that stay private (a team's variant)
    or say nothing (a round starting: its picture says so).

    ``names`` are inserted as given: the bot passes names ready for message text, the pictures'
    alt text plain ones.
    """
    data = event.data
    who = names[event.seat] if event.seat is not None else ""
    if event.kind == "got_it":
        return f"{who} called Got it!"
    if event.kind == "round_end":
        if data["reason"] == "timer":
            return "Time is up!"
        if data["reason"] == "got it":
            return ""  # the got_it event says who ended the round
        return f"Round {data['round']} is over."
    if event.kind == "resign":
        return f"{who} left the game."
    return shared_sentence(event, names)


def _last_action(state: OctagionState, names: Sequence[str]) -> str:
    """What the last action did, for a picture's alt text (the end is told by the picture)."""
    said = " ".join(filter(None, (narrate(event, names) for event in state.events if event.kind != "end")))
    return f"{said} " if said else ""


# ---------------------------------------------------------------- small helpers


def team_name(state: OctagionState, names: Sequence[str], team: int, limit: int = 28) -> str:
    members = team_members(state, team)
    labels = [names[seat] for seat in members]
    text = " & ".join(labels) if len(labels) <= 2 else f"{labels[0]}, {labels[1]} +{len(labels) - 2}"
    if not team_active(state, team):
        text += " (left)"
    return text if len(text) <= limit else text[: limit - 2] + ".."


def _team_colour(team: int) -> tuple[int, int, int]:
    return TEAM_COLOURS[team % len(TEAM_COLOURS)]


def clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def variant_text(cells: Sequence[str | None]) -> str:
    """A variant as a player would type it: "S5 T7 _ *"."""
    return " ".join("_" if cell is None else cell for cell in cells)


def _variations_label(state: OctagionState) -> str:
    chosen = state.options["variations"]
    if {"beta", "gamma", "delta", "epsilon"} <= set(chosen):
        rest = [VARIATION_TITLES[v] for v in chosen if v not in ("beta", "gamma", "delta", "epsilon")]
        return " + ".join(["Virulent", *rest])
    return " + ".join(VARIATION_TITLES[v] for v in chosen) or "Basic rules"


# ---------------------------------------------------------------- drawing helpers (shared with the daily pictures)


def write(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int = TEXT,
    fill: tuple[int, int, int] = theme.INK,
    anchor: str = "lm",
) -> None:
    theme.write(draw._image, xy, text, size, fill, anchor)


def wrap_text(text: str, size: int = TEXT, width: float = WIDTH - 2 * MARGIN) -> list[str]:
    """``text`` in lines at most ``width`` px wide, broken between words; no line starts or ends
    with a "·" separator."""
    return list(_wrapped(text, size, width))


@lru_cache(maxsize=512)  # measuring words costs more than drawing them, and headings recur
def _wrapped(text: str, size: int, width: float) -> tuple[str, ...]:
    face = theme.font(size)
    lines: list[str] = []
    for word in text.split(" "):
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return tuple(line.removesuffix(" ·").removeprefix("· ") for line in lines if line not in ("", "·"))


def _title_lines(title: str, subtitle: str) -> tuple[list[str], list[str]]:
    return wrap_text(title, TITLE), wrap_text(subtitle)


def header_height(title: str, subtitle: str, status: Sequence[str] = ()) -> int:
    titles, subtitles = _title_lines(title, subtitle)
    return MARGIN + len(titles) * (TITLE + 12) + len(status) * LINE + len(subtitles) * LINE + 22


def draw_header(draw: ImageDraw.ImageDraw, title: str, subtitle: str, status: Sequence[str] = ()) -> int:
    """The title, the ``status`` lines (a final picture's outcome, highlighted) and a muted
    subtitle (each wrapped), a rule under them; returns the y below."""
    titles, subtitles = _title_lines(title, subtitle)
    y = MARGIN
    for line in titles:
        write(draw, (MARGIN, y + (TITLE + 12) / 2), line, TITLE)
        y += TITLE + 12
    for line in status:
        write(draw, (MARGIN, y + LINE / 2), line, LABEL, theme.HIGHLIGHT)
        y += LINE
    for line in subtitles:
        write(draw, (MARGIN, y + LINE / 2), line, TEXT, theme.MUTED)
        y += LINE
    draw.line([(MARGIN, y + 8), (WIDTH - MARGIN, y + 8)], fill=theme.GRID, width=2)
    return y + 22


def draw_lines(
    draw: ImageDraw.ImageDraw,
    y: float,
    lines: Sequence[str],
    fill: tuple[int, int, int] = theme.MUTED,
    centred: bool = False,
) -> float:
    """Lines of TEXT from ``y`` (left-aligned, or centred); returns the y below them."""
    for line in lines:
        if centred:
            write(draw, (WIDTH / 2, y + LINE / 2), line, TEXT, fill, "mm")
        else:
            write(draw, (MARGIN, y + LINE / 2), line, TEXT, fill)
        y += LINE
    return y


def card_x(index: int, card: int = CARD_W, gap: int = GAP, left: int = ROW_X) -> int:
    return left + index * (card + gap)


def draw_letter_card(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    letter: str,
    number: str = "",
    face: tuple[int, int, int] = theme.CARD_FACE,
    ink: tuple[int, int, int] | None = None,
    border: tuple[int, int, int] = theme.GRID,
    border_width: int = 2,
) -> None:
    """A card: its letter large and, when given, its number under it (no text under TEXT)."""
    x0, y0, x1, y1 = box
    ink = ink or theme.readable_ink(face)
    width, height = x1 - x0, y1 - y0
    draw.rounded_rectangle(box, radius=6, fill=face, outline=border, width=border_width)
    if number:
        size = max(TEXT, min(int(height * 0.46), int(width * 0.66)))
        write(draw, ((x0 + x1) / 2, y0 + height * 0.37), letter, size, ink, "mm")
        write(draw, ((x0 + x1) / 2, y1 - height * 0.2), number, TEXT, ink, "mm")
    else:
        size = max(TEXT, min(int(height * 0.55), int(width * 0.8)))
        write(draw, ((x0 + x1) / 2, (y0 + y1) / 2), letter, size, ink, "mm")


def dashed_box(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: tuple[int, int, int], dash: int = 7
) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        draw.line([(x, y0), (min(x + dash, x1), y0)], fill=colour, width=3)
        draw.line([(x, y1), (min(x + dash, x1), y1)], fill=colour, width=3)
    for y in range(y0, y1, dash * 2):
        draw.line([(x0, y), (x0, min(y + dash, y1))], fill=colour, width=3)
        draw.line([(x1, y), (x1, min(y + dash, y1))], fill=colour, width=3)


def draw_penalty_mark(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """The point a penalised card costs, under it: the reason is told in words below the row."""
    write(draw, ((box[0] + box[2]) / 2, box[3] + MARK_H / 2 + 2), "-1", TEXT, theme.PENALTY, "mm")


def slip_lines(positions: Sequence[dict], width: float = WIDTH - 2 * MARGIN) -> list[str]:
    """A scored variant's penalised positions in words, by reason: "empty: D, E · wrong letter: A1"."""
    by_reason: dict[str, list[str]] = {}
    for position in positions:
        if position["points"] < 0:
            by_reason.setdefault(position["reason"], []).append(position["card"] or position["letter"])
    lines: list[str] = []
    for group in (f"{reason}: {', '.join(cards)}" for reason, cards in by_reason.items()):
        if lines and theme.font(TEXT).getlength(f"{lines[-1]} · {group}") <= width:
            lines[-1] = f"{lines[-1]} · {group}"
        else:  # a reason starts a line rather than being cut from its cards
            lines.extend(wrap_text(group, TEXT, width))
    return lines


def _badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], team: int, radius: int = 15) -> None:
    """A team marker: an octagon in the team colour with the team number (colour never alone)."""
    colour = _team_colour(team)
    theme.draw_octagon(draw, centre, radius, fill=colour, outline=theme.BACKGROUND, width=1)
    write(draw, centre, str(team + 1), TEXT, theme.readable_ink(colour), "mm")


def _team_line(
    draw: ImageDraw.ImageDraw,
    y: float,
    state: OctagionState,
    names: Sequence[str],
    team: int,
    extra: str = "",
    right: str = "",
    right_fill: tuple[int, int, int] = theme.INK,
) -> None:
    """A line from ``y``: the team's badge, its name (cut to fit) and ``extra``, ``right`` at the right edge."""
    middle = y + LINE / 2
    _badge(draw, (MARGIN + 15, middle), team)
    room = WIDTH - 2 * MARGIN - 40 - theme.font(LABEL).getlength(extra)
    if right:
        room -= theme.font(LABEL).getlength(right) + 12
        write(draw, (WIDTH - MARGIN, middle), right, LABEL, right_fill, "rm")
    write(draw, (MARGIN + 40, middle), theme.fit_text(team_name(state, names, team), LABEL, room) + extra, LABEL)


def _star(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, colour: tuple[int, int, int], points: int = 8
) -> None:
    """A filled star (eight points by default: an octagram for the Treatment Card)."""
    cx, cy = centre
    corners = []
    for k in range(points * 2):
        r = radius if k % 2 == 0 else radius * 0.5
        angle = math.pi * k / points - math.pi / 2
        corners.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    draw.polygon(corners, fill=colour)


def _treatment_card(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    border: tuple[int, int, int] = theme.GRID,
    border_width: int = 2,
) -> None:
    """A blue Treatment Card: a white star and, when tall enough, the word "wild"."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=6, fill=TREATMENT_FACE, outline=border, width=border_width)
    height = y1 - y0
    tall = height >= 66
    _star(draw, ((x0 + x1) / 2, y0 + height * (0.37 if tall else 0.5)), min(x1 - x0, height) * 0.3, theme.WHITE)
    if tall:
        write(draw, ((x0 + x1) / 2, y1 - height * 0.2), "wild", TEXT, theme.WHITE, "mm")


def _draw_cell(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    cell: str | None,
    border: tuple[int, int, int] = theme.GRID,
    border_width: int = 2,
) -> None:
    """One variant position: a letter card, a Treatment Card ("*" on blue) or a dashed empty slot."""
    if cell is None:
        dashed_box(draw, box, theme.MUTED)
    elif cell == TREATMENT:
        _treatment_card(draw, box, border, border_width)
    else:
        draw_letter_card(draw, box, cell[0], cell[1:], border=border, border_width=border_width)


def _draw_cell_on_background(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    cell: str | None,
    border: tuple[int, int, int] = theme.GRID,
    border_width: int = 2,
) -> None:
    """``_draw_cell`` on the picture's background, a letter card pasted from a tile drawn once
    (the same pixels: the card covers its box but its corners, which show the background): a
    round's word and its result's cards recur from game to game, and drawing a rounded card and
    its letters costs more than pasting it. Treatment Cards (a star at fractions of a pixel)
    and empty slots are drawn."""
    if cell is None or cell == TREATMENT:
        _draw_cell(draw, box, cell, border, border_width)
        return
    x0, y0, x1, y1 = box
    draw._image.paste(_cell_tile(x1 - x0, y1 - y0, cell, border, border_width), (x0, y0))


@lru_cache(maxsize=1024)  # a few sizes of 26 letters with up to 8 numbers, and two borders
def _cell_tile(width: int, height: int, cell: str, border: tuple[int, int, int], border_width: int) -> Image.Image:
    image, draw = theme.canvas(width + 1, height + 1)
    _draw_cell(draw, (0, 0, width, height), cell, border, border_width)
    return image


def _picture(image, description: str, filename: str) -> Picture:
    return Picture(theme.to_picture(image, description).png, description, filename)


# ---------------------------------------------------------------- round picture


def render_round(
    state: OctagionState,
    names: Sequence[str],
    viewer: int | None = None,
    team: int | None = None,
    *,
    ending: str | None = None,
) -> Picture:
    """The sequence(s) to spell this round, as big letter cards, and the round's clock.

    Under Epsilon/Virulent each team has its own word: all are drawn (the viewer's team first),
    or only ``team``'s when given. With ``ending`` ("Stopped by Ada") the round is final: that
    outcome under the title, and no invitation to build a variant.
    """
    rounds = state.options["rounds"]
    teams = list(range(state.team_count)) if team is None else [team]
    if viewer is not None and team is None:
        mine = team_of(state, viewer)
        teams.remove(mine)
        teams.insert(0, mine)
    distinct = len(set(state.words)) > 1
    if not distinct:
        teams = teams[:1]
    card_h = WORD_CARD_H - (8 if len(teams) >= COMPACT_FROM_TEAMS else 0)
    label_h = LINE + 4 if distinct else 0
    row_h = label_h + card_h + 14
    clock = clock_text(state.seconds)
    countdown = ""
    if state.countdown is not None and has(state, "gamma"):
        countdown = f" · Countdown level {COUNTDOWN_CARDS[state.countdown].level}"
    title = f"Octagion · Round {state.round} of {rounds}"
    subtitle = f"{_variations_label(state)} · time {clock}{countdown}"
    status = _ending_lines(ending, names)
    footer = _round_footer(state, ending)
    top = header_height(title, subtitle, status)
    image, draw = theme.canvas(WIDTH, top + len(teams) * row_h + len(footer) * LINE + MARGIN)
    y = draw_header(draw, title, subtitle, status)
    for t in teams:
        if distinct:
            _team_line(draw, y, state, names, t, f" · word {state.word_refs[t]}")
        y += label_h
        for index, letter in enumerate(state.words[t]):
            x = card_x(index)
            _draw_cell_on_background(draw, (x, y, x + CARD_W, y + card_h), letter)
        y += card_h + 14
    draw_lines(draw, y, footer, centred=True)
    words = (
        "; ".join(f"{team_name(state, names, t)}: {state.words[t]}" for t in teams)
        if distinct
        else state.words[teams[0]]
    )
    was = "the words were" if distinct else "the word was"
    task = f"spell {words}" if ending is None else f"{was} {words}. Game over: {ending}"
    description = (
        f"{_last_action(state, names)}Octagion round {state.round} of {rounds}: {task}. "
        f"Time {clock}. Rules: {_variations_label(state)}."
    )
    treatments = _treatment_summary(state, names)
    if treatments:
        description += f" Treatment Cards left: {treatments}."
    return _picture(image, description, f"octagion-round-{state.round}.png")


ENDING_LINES = 3  # room for two long team names around "won: ... ran out of time"


def _ending_lines(ending: str | None, names: Sequence[str]) -> list[str]:
    """A final picture's outcome under its title, long names shortened to fit ``ENDING_LINES``."""
    if ending is None:
        return []
    return theme.fit_lines(ending, LABEL, WIDTH - 2 * MARGIN, ENDING_LINES, tuple(names))


def _round_footer(state: OctagionState, ending: str | None) -> list[str]:
    """What to do now; nothing once the game has ended (the header says how)."""
    if ending is not None:
        return []
    over = state.phase != "playing" or state.over
    return wrap_text(
        "This round is over." if over else "Build your variant: one card per letter, eight different numbers."
    )


def _treatment_summary(state: OctagionState, names: Sequence[str]) -> str:
    if not any(state.treatments):
        return ""
    return ", ".join(f"{team_name(state, names, t)} {state.treatments[t]}" for t in range(state.team_count))


# ---------------------------------------------------------------- deck picture

DECK_CARD_H = 62
NUMBER_H = 36  # a column's number above its cards
SMALL_TREATMENT = (36, 52)  # the Treatment Cards a deck holds
IN_BAND = 26  # the green "IN" band over the number of a card in the variant


def render_deck(state: OctagionState, names: Sequence[str], viewer: int | None) -> Picture:
    """A team's 48 cards in 8 columns by number (private: drawn with highlights for ``viewer``).

    Cards whose letter the team's word needs are bright; others are dimmed. Cards already in
    the variant carry a green "IN" band (the column says their number). In party mode, the
    viewer's own numbers are marked.
    """
    team = None if viewer is None else team_of(state, viewer)
    word = state.words[team] if team is not None else ""
    variant = state.variants[team] if team is not None else []
    mine = set(party_numbers(state, viewer)) if viewer is not None else set(range(1, 9))
    owner = team_name(state, names, team) if team is not None else "Octagion"
    title = f"Deck · {owner}"
    subtitle = f"Needed letters bright · word {word}" if word else "All 48 cards, by number"
    left = state.treatments[team] if team is not None else 0
    per_row = (WIDTH - 2 * MARGIN + GAP) // (SMALL_TREATMENT[0] + GAP)
    treatment_rows = -(-left // per_row)
    top = header_height(title, subtitle)
    cards_top = top + NUMBER_H + GAP
    cards_bottom = cards_top + 6 * (DECK_CARD_H + GAP)
    height = cards_bottom + 8 + LINE + treatment_rows * (SMALL_TREATMENT[1] + GAP) + MARGIN
    image, draw = theme.canvas(WIDTH, height)
    draw_header(draw, title, subtitle)
    for number, letters in DECK_TABLE.items():
        x = card_x(number - 1)
        header_fill = theme.HIGHLIGHT if number in mine and state.options["party"] else theme.PANEL
        draw.rounded_rectangle((x, top, x + CARD_W, top + NUMBER_H), radius=6, fill=header_fill)
        write(draw, (x + CARD_W / 2, top + NUMBER_H / 2), str(number), LABEL, theme.readable_ink(header_fill), "mm")
        for row, letter in enumerate(sorted(letters)):
            y = cards_top + row * (DECK_CARD_H + GAP)
            _deck_card(draw, (x, y, x + CARD_W, y + DECK_CARD_H), letter, number, word, f"{letter}{number}" in variant)
    used = (
        state.history
        and team is not None
        and sum((h["results"][team] or {}).get("treatment_used", 0) for h in state.history)
    )
    label = f"Treatment Cards left: {left}" + (f" (used {used})" if used else "")
    y = cards_bottom + 8
    write(draw, (MARGIN, y + LINE / 2), label)
    y += LINE
    for k in range(left):
        row, column = divmod(k, per_row)
        x, top_y = MARGIN + column * (SMALL_TREATMENT[0] + GAP), y + row * (SMALL_TREATMENT[1] + GAP)
        _treatment_card(draw, (x, top_y, x + SMALL_TREATMENT[0], top_y + SMALL_TREATMENT[1]))
    party = ""
    if state.options["party"] and viewer is not None:
        party = " You place numbers " + ", ".join(map(str, sorted(mine))) + "."
    description = (
        f"Deck of {owner}: 48 cards in columns 1 to 8. "
        + (f"Word {word}. " if word else "")
        + f"In the variant: {', '.join(c for c in variant if c and c != TREATMENT) or 'nothing yet'}. "
        f"Treatment Cards left: {left}.{party}"
    )
    return _picture(image, description, "octagion-deck.png")


def _deck_card(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], letter: str, number: int, word: str, in_use: bool
) -> None:
    needed = not word or letter in word
    face, ink = (theme.CARD_FACE, theme.DARK_INK) if needed else (theme.PANEL, theme.MUTED)
    border = {"border": theme.GOOD, "border_width": 4} if in_use else {}
    draw_letter_card(draw, box, letter, str(number), face=face, ink=ink, **border)
    if in_use:
        x0, _, x1, y1 = box
        draw.rounded_rectangle((x0, y1 - IN_BAND, x1, y1), radius=6, fill=theme.GOOD)
        write(draw, ((x0 + x1) / 2, y1 - IN_BAND / 2), "IN", TEXT, theme.WHITE, "mm")


# ---------------------------------------------------------------- variant picture


def render_variant(state: OctagionState, names: Sequence[str], viewer: int) -> Picture:
    """The viewer's team variant: 8 slots under the sequence's letters; empty slots dashed,
    cards that will cost a point framed, marked "-1" and named with their reason."""
    team = team_of(state, viewer)
    word = state.words[team]
    variant = state.variants[team]
    slips = _slips(variant, word)
    placed = sum(cell is not None for cell in variant)
    title = f"Variant · {team_name(state, names, team)}"
    subtitle = f"Round {state.round} · word {word} · Treatment Cards left {state.treatments[team]}"
    summary = f"{placed} of 8 positions filled" + (f" · {plural(len(slips), 'slip')}, -1 each" if slips else "")
    reasons = slip_lines(
        [
            {"points": -1, "reason": reason, "card": variant[index], "letter": word[index]}
            for index, reason in slips.items()
        ]
    )
    footer = wrap_text(summary) + reasons
    top = header_height(title, subtitle)
    cards_top = top + LINE
    height = cards_top + CARD_H + (MARK_H if slips else 8) + len(footer) * LINE + MARGIN
    image, draw = theme.canvas(WIDTH, height)
    draw_header(draw, title, subtitle)
    for index, cell in enumerate(variant):
        x = card_x(index)
        write(draw, (x + CARD_W / 2, top + LINE / 2 - 4), word[index], LABEL, theme.HIGHLIGHT, "mm")
        box = (x, cards_top, x + CARD_W, cards_top + CARD_H)
        border = {"border": theme.PENALTY, "border_width": 5} if index in slips else {}
        _draw_cell(draw, box, cell, **border)
        if index in slips:
            draw_penalty_mark(draw, box)
    y = cards_top + CARD_H + (MARK_H if slips else 8)
    y = draw_lines(draw, y, footer[: len(footer) - len(reasons)], theme.PENALTY if slips else theme.MUTED, True)
    draw_lines(draw, y, reasons, theme.PENALTY, True)
    description = (
        f"Variant of {team_name(state, names, team)} for {word}: {variant_text(variant)}. {placed} of 8 filled."
        + (f" {_slips_sentence(variant, slips)}" if slips else "")
    )
    return _picture(image, description, "octagion-variant.png")


# ---------------------------------------------------------------- round result picture


def result_pages(state: OctagionState, round_number: int | None = None) -> int:
    """How many pictures ``render_round_result`` needs for a round (``page`` 0 .. pages-1)."""
    record = state.history[(round_number or len(state.history)) - 1]
    teams = sum(result is not None for result in record["results"])
    return max(1, -(-teams // RESULT_TEAMS_PER_PAGE))


def _draw_result_cards(draw: ImageDraw.ImageDraw, positions: list[dict], y: int, card_h: int) -> None:
    for index, position in enumerate(positions):
        x = card_x(index)
        box = (x, y, x + CARD_W, y + card_h)
        penalised = position["points"] < 0
        if position["card"] is None:
            dashed_box(draw, box, theme.PENALTY)
            write(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), position["letter"], LABEL, theme.MUTED, "mm")
        else:
            border = {"border": theme.PENALTY, "border_width": 5} if penalised else {}
            _draw_cell_on_background(draw, box, position["card"], **border)
        if penalised:
            draw_penalty_mark(draw, box)


def _score_label(result: dict) -> str:
    got_it = f"Got it! {result['got_it_points']:+d}  " if result["got_it"] else ""
    return f"{got_it}{plural(result['score'], 'pt')}"


def _solution_title(word: str, info: dict) -> list[str]:
    count = info["count"]
    if info["solution"]:
        title = f"{word}: one solution of {count}" if count != 1 else f"{word}: the only solution"
    else:
        title = f"{word}: no solution without Treatment Cards (needs {info['best'].count(TREATMENT)})"
    return wrap_text(title)


NOTHING_PLACED = "nothing placed: 8 empty, -1 each"


def _result_block_height(positions: list[dict], card_h: int) -> int:
    """A team's block: its line, then its cards, "-1" marks and slips in words (or one line when
    nothing was placed: eight empty slots would only repeat the word)."""
    if all(position["card"] is None for position in positions):
        return 2 * LINE + 18
    reasons = slip_lines(positions)
    return LINE + 4 + card_h + (MARK_H if reasons else 0) + len(reasons) * LINE + 14


def _draw_result_block(draw: ImageDraw.ImageDraw, y: int, positions: list[dict], card_h: int) -> None:
    """What ``_result_block_height`` makes room for, under the team's line at ``y``."""
    y += LINE + 4
    if all(position["card"] is None for position in positions):
        draw_lines(draw, y, [NOTHING_PLACED], theme.PENALTY)
        return
    _draw_result_cards(draw, positions, y, card_h)
    draw_lines(draw, y + card_h + MARK_H, slip_lines(positions), theme.PENALTY)


def render_round_result(
    state: OctagionState,
    names: Sequence[str],
    viewer: int | None = None,
    round_number: int | None = None,
    page: int = 0,
) -> Picture:
    """Every team's frozen variant with penalties marked, the round scores and one solution.

    Teams are ranked by round score; with more than ``RESULT_TEAMS_PER_PAGE`` teams, ask
    ``result_pages`` and render each ``page``.
    """
    if not state.history:
        raise ValueError("no round has been scored yet")
    record = state.history[(round_number or len(state.history)) - 1]
    ranked = [t for t in range(state.team_count) if record["results"][t] is not None]
    ranked.sort(key=lambda t: (-record["results"][t]["score"], t))
    pages = max(1, -(-len(ranked) // RESULT_TEAMS_PER_PAGE))
    teams = ranked[page * RESULT_TEAMS_PER_PAGE : (page + 1) * RESULT_TEAMS_PER_PAGE]
    card_h = CARD_H - (10 if len(ranked) >= COMPACT_FROM_TEAMS else 0)
    blocks = {t: _result_block_height(record["results"][t]["positions"], card_h) for t in teams}
    words = {record["words"][t] for t in teams}
    solutions = {word: info for word, info in record["solutions"].items() if word in words}
    as_text = len(solutions) > 2  # many words (Epsilon): each solution a line of text instead of cards
    titles = {word: _solution_title(word, info) for word, info in solutions.items()}
    solutions_h = sum(len(lines) * LINE + (LINE + 8 if as_text else CARD_H + 12) for lines in titles.values())
    ending = (
        "Got it! called by " + team_name(state, names, record["got_it_team"])
        if record["got_it_team"] is not None
        else f"time up ({clock_text(record['seconds'])})"
    )
    page_label = f" · page {page + 1} of {pages}" if pages > 1 else ""
    title = f"Round {record['round']} result{page_label}"
    top = header_height(title, ending)
    image, draw = theme.canvas(WIDTH, top + sum(blocks.values()) + 12 + solutions_h + MARGIN)
    y = draw_header(draw, title, ending)
    several_words = len(set(record["words"])) > 1
    for t in teams:
        result = record["results"][t]
        colour = theme.GOOD if result["penalties"] == 0 else theme.INK
        extra = f" · {record['words'][t]}" if several_words else ""
        _team_line(draw, y, state, names, t, extra, _score_label(result), colour)
        _draw_result_block(draw, y, result["positions"], card_h)
        y += blocks[t]
    draw.line([(MARGIN, y), (WIDTH - MARGIN, y)], fill=theme.GRID, width=2)
    y += 12
    for word, info in solutions.items():
        y = draw_lines(draw, y, titles[word])
        cells = info["solution"] or info["best"]
        if as_text:
            y = draw_lines(draw, y, [" ".join(cells)], theme.INK) + 8
            continue
        for index, cell in enumerate(cells):
            _draw_cell_on_background(draw, (card_x(index), y, card_x(index) + CARD_W, y + CARD_H), cell)
        y += CARD_H + 12
    description = _result_description(state, names, record, teams, solutions) + (
        f" Page {page + 1} of {pages}." if pages > 1 else ""
    )
    return _picture(image, description, f"octagion-result-{record['round']}-{page + 1}.png")


def _result_description(
    state: OctagionState, names: Sequence[str], record: dict, teams: list[int], solutions: dict
) -> str:
    parts = []
    for t in teams:
        result = record["results"][t]
        faults = [f"{i + 1} {p['reason']}" for i, p in enumerate(result["positions"]) if p["points"] < 0]
        text = f"{team_name(state, names, t)} {result['score']}"
        if result["got_it"]:
            text += f" (Got it! {result['got_it_points']:+d})"
        if faults:
            text += " [" + "; ".join(faults) + "]"
        parts.append(text)
    solutions = "; ".join(
        f"{word}: {' '.join(info['solution'])} ({plural(info['count'], 'solution')})"
        if info["solution"]
        else f"{word}: no solution without Treatment Cards"
        for word, info in solutions.items()
    )
    return f"Round {record['round']} scores: " + ", ".join(parts) + f". One solution: {solutions}."


# ---------------------------------------------------------------- score sheet

SHEET_LINE = LINE + 4
ROUNDS_PER_LINE = 8  # a team's round scores wrap after this many columns
SHEET_COLUMNS_X = MARGIN + 52  # where the badge, the name and the round columns start


def _round_x(k: int) -> float:
    column = (WIDTH - MARGIN - 8 - SHEET_COLUMNS_X) / ROUNDS_PER_LINE
    return SHEET_COLUMNS_X + (k % ROUNDS_PER_LINE + 0.5) * column


def render_scoresheet(
    state: OctagionState, names: Sequence[str], viewer: int | None = None, *, ending: str | None = None
) -> Picture:
    """Teams ranked, each a band: rank, name and total, then its score in every round (R1, R2 ...
    columns, wrapping after eight); the winner's band gold with a star. With ``ending`` ("Stopped
    by Ada") the sheet is final: that outcome under its title (a winner only if the game named one)."""
    rounds = state.options["rounds"]
    keys = [(team_active(state, t), state.totals[t]) for t in range(state.team_count)]
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    order = sorted(range(state.team_count), key=lambda t: (ranks[t], t))
    round_lines = -(-rounds // ROUNDS_PER_LINE)
    band = 8 + SHEET_LINE * (1 + round_lines)
    over = state.over
    winners = [team_name(state, names, t) for t in order if ranks[t] == 1]
    verdict = ("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(winners)
    verdict_lines = wrap_text(verdict, LABEL) if over else []
    title = "Octagion · final scores" if over or ending is not None else "Octagion · scores so far"
    subtitle = f"{len(state.history)} of {rounds} rounds · {_variations_label(state)}"
    status = _ending_lines(ending, names)
    top = header_height(title, subtitle, status)
    bands_top = top + SHEET_LINE * (1 + round_lines)
    height = bands_top + len(order) * (band + 4) + len(verdict_lines) * (LABEL + 12) + 8 + MARGIN
    image, draw = theme.canvas(WIDTH, height)
    draw_header(draw, title, subtitle, status)
    write(draw, (SHEET_COLUMNS_X, top + SHEET_LINE / 2), "Team", TEXT, theme.MUTED)
    write(draw, (WIDTH - MARGIN - 8, top + SHEET_LINE / 2), "Total", TEXT, theme.MUTED, "rm")
    for k in range(rounds):
        y = top + SHEET_LINE * (1 + k // ROUNDS_PER_LINE) + SHEET_LINE / 2
        write(draw, (_round_x(k), y), f"R{k + 1}", TEXT, theme.MUTED, "mm")
    for line, t in enumerate(order):
        y = bands_top + line * (band + 4)
        winner = over and ranks[t] == 1
        fill = theme.HIGHLIGHT if winner else (theme.PANEL if line % 2 == 0 else theme.BACKGROUND)
        _score_band(draw, (y, y + band), fill, winner, ranks[t], team_name(state, names, t), t)
        ink = theme.readable_ink(fill)
        write(draw, (WIDTH - MARGIN - 8, y + 4 + SHEET_LINE / 2), str(state.totals[t]), LABEL + 2, ink, "rm")
        for k, record in enumerate(state.history):
            result = record["results"][t]
            middle = y + 4 + SHEET_LINE * (1 + k // ROUNDS_PER_LINE) + SHEET_LINE / 2
            write(draw, (_round_x(k), middle), "-" if result is None else str(result["score"]), TEXT, ink, "mm")
    y = bands_top + len(order) * (band + 4) + 8
    for verdict_line in verdict_lines:
        write(draw, (WIDTH / 2, y + (LABEL + 12) / 2), verdict_line, LABEL, theme.HIGHLIGHT, "mm")
        y += LABEL + 12
    standings = ", ".join(f"{ranks[t]}. {team_name(state, names, t)} {state.totals[t]}" for t in order)
    description = (
        f"{_last_action(state, names)}Octagion scores after {len(state.history)} of {rounds} rounds: {standings}."
    )
    if ending is not None:
        description += f" Game over: {ending}."
    if over:
        description += f" {verdict}."
    return _picture(image, description, "octagion-scores.png")


def _score_band(
    draw: ImageDraw.ImageDraw,
    rows: tuple[int, int],
    fill: tuple[int, int, int],
    winner: bool,
    rank: int,
    name: str,
    team: int,
) -> None:
    """A team's band on the score sheet and its first line: a star for a winner, the rank, badge, name."""
    top, bottom = rows
    ink = theme.readable_ink(fill)
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, bottom), radius=8, fill=fill)
    middle = top + 4 + SHEET_LINE / 2
    if winner:
        _star(draw, (MARGIN + 15, middle), 11, ink, points=5)
    write(draw, (MARGIN + (37 if winner else 26), middle), str(rank), LABEL, ink, "mm")
    _badge(draw, (SHEET_COLUMNS_X + 15, middle), team)
    room = WIDTH - MARGIN - 8 - 70 - (SHEET_COLUMNS_X + 36)
    write(draw, (SHEET_COLUMNS_X + 36, middle), theme.fit_text(name, LABEL, room), LABEL, ink)


# ---------------------------------------------------------------- message text (names come ready for it)

WHOLE = 10_000  # message text never cuts a team's names: they come trimmed and escaped already


def numbers_text(numbers: Sequence[int]) -> str:
    """A party member's numbers: "numbers 1-3", "numbers 7-8", "number 8"."""
    if len(numbers) == 1:
        return f"number {numbers[0]}"
    return f"numbers {numbers[0]}-{numbers[-1]}"


def variations_text(variations: Sequence[str]) -> str:
    """ "variation alpha", "variations beta + gamma", "variation virulent" or "basic rules"."""
    chosen = [name for name in variations if name != "none"]
    if set(chosen) == set(VIRULENT_PARTS):
        return "variation virulent"
    if not chosen:
        return "basic rules"
    return ("variation " if len(chosen) == 1 else "variations ") + " + ".join(chosen)


def lobby_options_text(options: dict) -> str:
    """A lobby's options in words: "1 round, variation alpha, 0:45 per round"."""
    variations = normalise_variations(options.get("variation"))
    parts = [plural(options.get("rounds", DEFAULT_ROUNDS), "round"), variations_text(variations)]
    if "gamma" in variations:
        parts.append(f"{options.get('gamma_levels', 'standard')} countdown")
    if "seconds" in options:
        parts.append(f"{clock_text(options['seconds'])} per round")
    if "treatment" in options:
        parts.append(f"{options['treatment']} Treatment Cards per team")
    if options.get("party"):
        parts.append("party mode")
    return ", ".join(parts)


@dataclass(frozen=True)
class LobbyTeam:
    """One line of a lobby: a team (or a player on their own, or a computer) and its members."""

    key: str  # stable while the lobby is open: "t0" (team 1), "u<user id>", "c0" (computer 1)
    title: str
    members: tuple[str, ...]
    treatment: int | None = None  # Treatment Cards when Beta sets them per team


def lobby_text(host: str, options: dict, teams: Sequence[LobbyTeam], team_mode: bool) -> str:
    """A lobby's message: its host and options, then who has joined."""
    lines = ["## Octagion lobby", f"Host: {host} · {lobby_options_text(options)}"]
    humans = [team for team in teams if not team.key.startswith("c")]
    computers = [team.title for team in teams if team.key.startswith("c")]
    if team_mode:
        lines += [f"**{team.title}**: " + ", ".join(team.members) for team in humans]
    else:
        lines.append(f"**Players ({len(humans)})**: " + ", ".join(team.title for team in humans))
    if computers:
        lines.append(f"**Computer teams**: {', '.join(computers)}")
    if any(team.treatment is not None for team in teams):
        counts = " · ".join(f"{team.title} {team.treatment}" for team in teams)
        lines.append(f"Treatment Cards (Beta): {counts}")
    if team_mode:
        joined = sum(len(team.members) for team in humans)
        lines.append(f"{plural(joined, 'player')}. Pick a team to join (or switch); the host presses **Start**.")
    else:
        practice = " Alone, it is a practice game." if len(teams) == 1 else ""
        lines.append(f"Press **Join** to play; the host presses **Start**.{practice}")
    lines.append("The host may combine variations and add computer teams below before starting.")
    return "\n".join(lines)


def totals_text(state: OctagionState, names: Sequence[str]) -> str:
    ranked = sorted(range(state.team_count), key=lambda t: (-state.totals[t], t))
    return " · ".join(f"**{team_name(state, names, t, WHOLE)}** {state.totals[t]}" for t in ranked)


def result_text(state: OctagionState, record: dict, names: Sequence[str]) -> str:
    """A round's result message: who ended it, each team's score, one solution per word."""
    lines = [f"### Round {record['round']} of {state.options['rounds']}: result"]
    results, caller = record["results"], record["got_it_team"]
    if caller is not None:
        perfect = results[caller] and results[caller]["got_it_points"] > 0
        verdict = "perfect, +2" if perfect else "not perfect, -2"
        lines.append(f"🖐 **{team_name(state, names, caller, WHOLE)}** called Got it! ({verdict})")
    else:
        lines.append(f"⏰ Time is up ({clock_text(record['seconds'])}).")
    for team in sorted((t for t, r in enumerate(results) if r), key=lambda t: (-results[t]["score"], t)):
        penalties = results[team]["penalties"]
        detail = plural(penalties, "penalty", "penalties") if penalties else "no penalty"
        lines.append(
            f"**{team_name(state, names, team, WHOLE)}**: {plural(results[team]['score'], 'pt')} ({detail})"
            f" · total {state.totals[team]}"
        )
    for word, info in record["solutions"].items():
        if info["solution"]:
            count = plural(info["count"], "solution")
            lines.append(f"One solution for **{word}**: `{variant_text(info['solution'])}` ({count})")
        else:
            lines.append(f"**{word}** has no solution without Treatment Cards, e.g. `{variant_text(info['best'])}`")
    return "\n".join(lines)


def _slips(variant: Sequence[str | None], word: str) -> dict[int, str]:
    """Placed cards that will cost a point (a wrong letter, a number already used), by index."""
    scored = score_variant(variant, word)["positions"]
    return {i: p["reason"] for i, p in enumerate(scored) if p["card"] is not None and p["points"] < 0}


def _slips_sentence(variant: Sequence[str | None], slips: dict[int, str]) -> str:
    listed = "; ".join(f"{variant[i]} at position {i + 1}: {reason}" for i, reason in slips.items())
    return f"⚠ {listed} (each costs 1 point)."


def variant_sentence(state: OctagionState, seat: int) -> str:
    """The seat's team variant as the player who set it is told (with the slips it holds)."""
    team = team_of(state, seat)
    cells = state.variants[team]
    placed = sum(cell is not None for cell in cells)
    treatment = cells.count(TREATMENT)
    note = f", {plural(treatment, 'Treatment Card')}" if treatment else ""  # one pair of brackets
    slips = _slips(cells, state.words[team])
    shown = f"Your team's variant for **{state.words[team]}**: `{variant_text(cells)}` ({placed} of 8 placed{note})."
    return shown + (f" {_slips_sentence(cells, slips)}" if slips else "")
