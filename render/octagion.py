"""Octagion pictures: the round's sequence, a team's deck and variant, round results, score sheet.

All pictures are at most 960 px wide; many teams make them taller, never wider. Every colour
is paired with text (a reason tag under a penalised card, a number in each team badge).
The bot's message texts (lobby, round result, totals, a variant) are written here too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

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

WIDTH = 960
MARGIN = 28
GAP = 10
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
SHORT_REASON = {"wrong letter": "WRONG", "repeated number": "REPEAT", "empty": "EMPTY"}
RESULT_TEAMS_PER_PAGE = 10
COMPACT_FROM_TEAMS = 4  # from this many teams, names go left of the cards to save height
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


def _badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], team: int, radius: int = 15) -> None:
    """A team marker: an octagon in the team colour with the team number (colour never alone)."""
    colour = _team_colour(team)
    theme.draw_octagon(draw, centre, radius, fill=colour, outline=theme.BACKGROUND, width=1)
    theme.centred_text(draw, centre, str(team + 1), int(radius * 1.1), theme.readable_ink(colour))


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


def _header(draw: ImageDraw.ImageDraw, title: str, subtitle: str) -> int:
    draw.text((MARGIN, 22), title, font=theme.font(34), fill=theme.INK)
    draw.text((MARGIN, 66), subtitle, font=theme.font(20), fill=theme.MUTED)
    draw.line([(MARGIN, 100), (WIDTH - MARGIN, 100)], fill=theme.GRID, width=2)
    return 116


def _row_geometry(
    count: int = 8, width: int = WIDTH - 2 * MARGIN, gap: int = GAP, max_card: int = 104
) -> tuple[int, int]:
    card = min(max_card, (width - gap * (count - 1)) // count)
    start = MARGIN + (width - (card * count + gap * (count - 1))) // 2
    return card, start


def _dashed_box(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    colour: tuple[int, int, int],
    dash: int = 10,
    width: int = 3,
) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        draw.line([(x, y0), (min(x + dash, x1), y0)], fill=colour, width=width)
        draw.line([(x, y1), (min(x + dash, x1), y1)], fill=colour, width=width)
    for y in range(y0, y1, dash * 2):
        draw.line([(x0, y), (x0, min(y + dash, y1))], fill=colour, width=width)
        draw.line([(x1, y), (x1, min(y + dash, y1))], fill=colour, width=width)


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
    """A blue Treatment Card: a white star and, when big enough, the word "wild"."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=max(4, (x1 - x0) // 8), fill=TREATMENT_FACE, outline=border, width=border_width)
    height = y1 - y0
    big = height >= 70
    _star(draw, ((x0 + x1) / 2, y0 + height * (0.42 if big else 0.5)), min(x1 - x0, height) * 0.3, theme.WHITE)
    if big:
        theme.centred_text(draw, ((x0 + x1) / 2, y1 - height * 0.15), "wild", int(height * 0.17), theme.WHITE)


def _draw_cell(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    cell: str | None,
    border: tuple[int, int, int] = theme.GRID,
    border_width: int = 2,
    face: tuple[int, int, int] = theme.CARD_FACE,
) -> None:
    """One variant position: a letter card, a Treatment Card ("*" on blue) or a dashed empty slot."""
    if cell is None:
        _dashed_box(draw, box, theme.MUTED)
    elif cell == TREATMENT:
        _treatment_card(draw, box, border, border_width)
    else:
        theme.draw_card(draw, box, cell[0], cell[1:], face=face, border=border, border_width=border_width)


# ---------------------------------------------------------------- round picture


def render_round(
    state: OctagionState, names: Sequence[str], viewer: int | None = None, team: int | None = None
) -> Picture:
    """The sequence(s) to spell this round, as big letter cards, and the round's clock.

    Under Epsilon/Virulent each team has its own word: all are drawn (the viewer's team first),
    or only ``team``'s when given.
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
    compact = len(teams) >= COMPACT_FROM_TEAMS  # names left of the cards, to save height
    label_w = 220 if compact else 0
    card_w, start = _row_geometry(
        width=WIDTH - 2 * MARGIN - label_w, max_card=104 if len(teams) <= 2 else (72 if compact else 84)
    )
    start += label_w
    card_h = int(card_w * 1.25)
    label_h = 40 if distinct and not compact else 0
    row_h = label_h + card_h + (16 if compact else 22)
    top = 116
    height = top + len(teams) * row_h + 70
    image, draw = theme.canvas(WIDTH, height)
    clock = clock_text(state.seconds)
    countdown = ""
    if state.countdown is not None and has(state, "gamma"):
        card = COUNTDOWN_CARDS[state.countdown]
        countdown = f" · Countdown level {card.level}"
    _header(
        draw, f"Octagion · Round {state.round} of {rounds}", f"{_variations_label(state)} · time {clock}{countdown}"
    )
    y = top
    for t in teams:
        if compact:
            _badge(draw, (MARGIN + 15, y + 24), t)
            draw.text((MARGIN + 38, y + 12), team_name(state, names, t, limit=15), font=theme.font(21), fill=theme.INK)
            draw.text((MARGIN + 38, y + 42), f"word {state.word_refs[t]}", font=theme.font(17), fill=theme.MUTED)
        elif distinct:
            _badge(draw, (MARGIN + 15, y + 16), t)
            draw.text(
                (MARGIN + 40, y + 4),
                f"{team_name(state, names, t)} · word {state.word_refs[t]}",
                font=theme.font(22),
                fill=theme.INK,
            )
        y += label_h
        for index, letter in enumerate(state.words[t]):
            x = start + index * (card_w + GAP)
            theme.draw_card(draw, (x, y, x + card_w, y + card_h), letter)
        y += card_h + (16 if compact else 22)
    footer = "Build your variant: one card per letter, eight different numbers."
    if state.phase != "playing" or state.over:
        footer = "This round is over."
    theme.centred_text(draw, (WIDTH / 2, height - 36), footer, 20, theme.MUTED)
    words = (
        "; ".join(f"{team_name(state, names, t)}: {state.words[t]}" for t in teams)
        if distinct
        else state.words[teams[0]]
    )
    description = (
        f"{_last_action(state, names)}Octagion round {state.round} of {rounds}: spell {words}. "
        f"Time {clock}. Rules: {_variations_label(state)}."
    )
    treatments = _treatment_summary(state, names)
    if treatments:
        description += f" Treatment Cards left: {treatments}."
    return Picture(theme.to_picture(image, description).png, description, f"octagion-round-{state.round}.png")


def _treatment_summary(state: OctagionState, names: Sequence[str]) -> str:
    if not any(state.treatments):
        return ""
    return ", ".join(f"{team_name(state, names, t)} {state.treatments[t]}" for t in range(state.team_count))


# ---------------------------------------------------------------- deck picture


def render_deck(state: OctagionState, names: Sequence[str], viewer: int | None) -> Picture:
    """A team's 48 cards in 8 columns by number (private: drawn with highlights for ``viewer``).

    Cards whose letter the team's word needs are bright; others are dimmed. Cards already in
    the variant carry a green "IN" tag. In party mode, the viewer's own numbers are marked.
    """
    team = None if viewer is None else team_of(state, viewer)
    word = state.words[team] if team is not None else ""
    variant = state.variants[team] if team is not None else []
    mine = set(party_numbers(state, viewer)) if viewer is not None else set(range(1, 9))
    column_w = (WIDTH - 2 * MARGIN - 7 * GAP) // 8
    card_h = 88
    top = 150
    height = top + 6 * (card_h + 8) + 110
    image, draw = theme.canvas(WIDTH, height)
    owner = team_name(state, names, team) if team is not None else "Octagion"
    subtitle = f"Needed letters bright · word {word}" if word else "All 48 cards, by number"
    _header(draw, f"Deck · {owner}", subtitle)
    for number, letters in DECK_TABLE.items():
        x = MARGIN + (number - 1) * (column_w + GAP)
        header_fill = theme.HIGHLIGHT if number in mine and state.options["party"] else theme.PANEL
        draw.rounded_rectangle((x, 112, x + column_w, 144), radius=8, fill=header_fill)
        theme.centred_text(draw, (x + column_w / 2, 128), str(number), 24, theme.readable_ink(header_fill))
        for row, letter in enumerate(sorted(letters)):
            y = top + row * (card_h + 8)
            card = f"{letter}{number}"
            needed = not word or letter in word
            face = theme.CARD_FACE if needed else theme.PANEL
            ink = theme.DARK_INK if needed else theme.MUTED
            in_use = card in variant
            theme.draw_card(
                draw,
                (x, y, x + column_w, y + card_h),
                letter,
                str(number),
                face=face,
                ink=ink,
                border=theme.GOOD if in_use else theme.GRID,
                border_width=5 if in_use else 2,
            )
            if in_use:
                draw.rounded_rectangle((x + column_w - 34, y + 4, x + column_w - 4, y + 24), radius=5, fill=theme.GOOD)
                theme.centred_text(draw, (x + column_w - 19, y + 14), "IN", 14, theme.WHITE)
    y = top + 6 * (card_h + 8) + 14
    left = state.treatments[team] if team is not None else 0
    for k in range(left):
        box = (MARGIN + k * 58, y, MARGIN + k * 58 + 48, y + 64)
        _treatment_card(draw, box)
    used = (
        state.history
        and team is not None
        and sum((h["results"][team] or {}).get("treatment_used", 0) for h in state.history)
    )
    label = f"Treatment Cards left: {left}" + (f" (used {used})" if used else "")
    draw.text((MARGIN + max(left, 0) * 58 + (12 if left else 0), y + 18), label, font=theme.font(22), fill=theme.INK)
    party = ""
    if state.options["party"] and viewer is not None:
        party = " You place numbers " + ", ".join(map(str, sorted(mine))) + "."
    description = (
        f"Deck of {owner}: 48 cards in columns 1 to 8. "
        + (f"Word {word}. " if word else "")
        + f"In the variant: {', '.join(c for c in variant if c and c != TREATMENT) or 'nothing yet'}. "
        f"Treatment Cards left: {left}.{party}"
    )
    return Picture(theme.to_picture(image, description).png, description, "octagion-deck.png")


# ---------------------------------------------------------------- variant picture


def render_variant(state: OctagionState, names: Sequence[str], viewer: int) -> Picture:
    """The viewer's team variant: 8 slots under the sequence's letters; empty slots dashed."""
    team = team_of(state, viewer)
    word = state.words[team]
    variant = state.variants[team]
    card_w, start = _row_geometry()
    card_h = int(card_w * 1.25)
    height = 116 + 40 + card_h + 70
    image, draw = theme.canvas(WIDTH, height)
    _header(
        draw,
        f"Variant · {team_name(state, names, team)}",
        f"Round {state.round} · word {word} · Treatment Cards left {state.treatments[team]}",
    )
    slips = _slips(variant, word)
    for index, cell in enumerate(variant):
        x = start + index * (card_w + GAP)
        theme.centred_text(draw, (x + card_w / 2, 134), word[index], 26, theme.HIGHLIGHT)
        slip = slips.get(index)
        border = {"border": theme.PENALTY, "border_width": 6} if slip else {}
        _draw_cell(draw, (x, 156, x + card_w, 156 + card_h), cell, **border)
        if slip:
            theme.centred_text(draw, (x + card_w / 2, 156 + card_h + 16), SHORT_REASON[slip], 16, theme.PENALTY)
    placed = sum(cell is not None for cell in variant)
    footer = f"{placed} of 8 positions filled" + (f" · {_count(len(slips), 'slip')} (-1 each)" if slips else "")
    theme.centred_text(draw, (WIDTH / 2, height - 26), footer, 20, theme.PENALTY if slips else theme.MUTED)
    description = (
        f"Variant of {team_name(state, names, team)} for {word}: {variant_text(variant)}. {placed} of 8 filled."
        + (f" {_slips_sentence(variant, slips)}" if slips else "")
    )
    return Picture(theme.to_picture(image, description).png, description, "octagion-variant.png")


# ---------------------------------------------------------------- round result picture


def result_pages(state: OctagionState, round_number: int | None = None) -> int:
    """How many pictures ``render_round_result`` needs for a round (``page`` 0 .. pages-1)."""
    record = state.history[(round_number or len(state.history)) - 1]
    teams = sum(result is not None for result in record["results"])
    return max(1, -(-teams // RESULT_TEAMS_PER_PAGE))


def _draw_result_cards(
    draw: ImageDraw.ImageDraw, positions: list[dict], x0: int, y: int, card_w: int, card_h: int, tag_size: int
) -> None:
    for index, position in enumerate(positions):
        x = x0 + index * (card_w + GAP)
        box = (x, y, x + card_w, y + card_h)
        penalised = position["points"] < 0
        if position["card"] is None:
            _dashed_box(draw, box, theme.PENALTY)
            theme.centred_text(
                draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), position["letter"], card_h // 3, theme.MUTED
            )
        else:
            _draw_cell(
                draw,
                box,
                position["card"],
                border=theme.PENALTY if penalised else theme.GRID,
                border_width=6 if penalised else 2,
            )
        if penalised:
            theme.centred_text(
                draw, (x + card_w / 2, y + card_h + 14), SHORT_REASON[position["reason"]], tag_size, theme.PENALTY
            )


def _score_label(result: dict) -> str:
    got_it = f"Got it! {result['got_it_points']:+d}  " if result["got_it"] else ""
    return f"{got_it}{result['score']} pts"


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
    compact = len(ranked) >= COMPACT_FROM_TEAMS
    label_w = 220 if compact else 0
    card_w, start = _row_geometry(width=WIDTH - 2 * MARGIN - label_w, max_card=80 if compact else 96)
    start += label_w
    card_h = int(card_w * 1.2)
    tag_h = 24
    row_h = (0 if compact else 40) + card_h + tag_h + 16
    words = {record["words"][t] for t in teams}
    solutions = {word: info for word, info in record["solutions"].items() if word in words}
    sol_card = 58
    as_text = len(solutions) > 2  # many words (Epsilon): one text line each instead of cards
    sol_h = len(solutions) * 34 + 10 if as_text else len(solutions) * (sol_card + 58)
    height = 116 + len(teams) * row_h + 24 + sol_h + 10
    image, draw = theme.canvas(WIDTH, height)
    ending = (
        "Got it! called by " + team_name(state, names, record["got_it_team"])
        if record["got_it_team"] is not None
        else f"time up ({clock_text(record['seconds'])})"
    )
    page_label = f" · page {page + 1} of {pages}" if pages > 1 else ""
    _header(draw, f"Round {record['round']} result{page_label}", ending)
    y = 116
    several_words = len(set(record["words"])) > 1
    for t in teams:
        result = record["results"][t]
        colour = theme.GOOD if result["penalties"] == 0 else theme.INK
        _badge(draw, (MARGIN + 15, y + 17), t)
        if compact:
            draw.text((MARGIN + 38, y + 4), team_name(state, names, t, limit=15), font=theme.font(21), fill=theme.INK)
            if several_words:
                draw.text((MARGIN + 38, y + 32), record["words"][t], font=theme.font(17), fill=theme.MUTED)
            draw.text(
                (MARGIN + 38, y + (58 if several_words else 38)), _score_label(result), font=theme.font(24), fill=colour
            )
        else:
            label = team_name(state, names, t) + (f" · {record['words'][t]}" if several_words else "")
            draw.text((MARGIN + 40, y + 4), label, font=theme.font(24), fill=theme.INK)
            draw.text((WIDTH - MARGIN, y + 2), _score_label(result), font=theme.font(28), anchor="ra", fill=colour)
            y += 40
        _draw_result_cards(draw, result["positions"], start, y, card_w, card_h, 16 if compact else 19)
        y += card_h + tag_h + 16
    draw.line([(MARGIN, y), (WIDTH - MARGIN, y)], fill=theme.GRID, width=2)
    y += 16
    for word, info in solutions.items():
        count = info["count"]
        if info["solution"]:
            title = f"{word}: one solution of {count}" if count != 1 else f"{word}: the only solution"
        else:
            need = info["best"].count(TREATMENT)
            title = f"{word}: no solution without Treatment Cards (needs {need})"
        if as_text:
            cards = " ".join("*" if cell == TREATMENT else cell for cell in info["solution"] or info["best"])
            draw.text((MARGIN, y), f"{title}:  {cards}", font=theme.font(20), fill=theme.INK)
            y += 34
            continue
        draw.text((MARGIN, y), title, font=theme.font(22), fill=theme.INK)
        y += 32
        for index, cell in enumerate(info["solution"] or info["best"]):
            x = MARGIN + index * (sol_card + 8)
            _draw_cell(draw, (x, y, x + sol_card, y + sol_card + 8), cell)
        y += sol_card + 26
    description = _result_description(state, names, record, teams, solutions) + (
        f" Page {page + 1} of {pages}." if pages > 1 else ""
    )
    return Picture(
        theme.to_picture(image, description).png, description, f"octagion-result-{record['round']}-{page + 1}.png"
    )


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
        f"{word}: {' '.join(info['solution'])} ({info['count']} solutions)"
        if info["solution"]
        else f"{word}: no solution without Treatment Cards"
        for word, info in solutions.items()
    )
    return f"Round {record['round']} scores: " + ", ".join(parts) + f". One solution: {solutions}."


# ---------------------------------------------------------------- score sheet


def render_scoresheet(state: OctagionState, names: Sequence[str], viewer: int | None = None) -> Picture:
    """Teams x rounds with totals, ranked; the winner's row highlighted with a gold band and a star."""
    rounds = state.options["rounds"]
    keys = [(team_active(state, t), state.totals[t]) for t in range(state.team_count)]
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    order = sorted(range(state.team_count), key=lambda t: (ranks[t], t))
    rank_w, name_w, total_w = 56, 230, 90
    round_w = (WIDTH - 2 * MARGIN - rank_w - name_w - total_w) // rounds
    font_size = 20 if round_w >= 40 else 16
    row_h = 44
    top = 116
    height = top + (len(order) + 1) * row_h + 50
    image, draw = theme.canvas(WIDTH, height)
    over = state.over
    _header(
        draw,
        "Octagion · final scores" if over else "Octagion · scores so far",
        f"{len(state.history)} of {rounds} rounds · {_variations_label(state)}",
    )
    columns_x = MARGIN + rank_w + name_w
    draw.text((MARGIN + rank_w, top + row_h / 2), "Team", font=theme.font(20), fill=theme.MUTED, anchor="lm")
    for k in range(rounds):
        theme.centred_text(
            draw, (columns_x + (k + 0.5) * round_w, top + row_h / 2), f"R{k + 1}", font_size, theme.MUTED
        )
    theme.centred_text(draw, (WIDTH - MARGIN - total_w / 2, top + row_h / 2), "Total", 20, theme.MUTED)
    for line, t in enumerate(order):
        y = top + (line + 1) * row_h
        winner = over and ranks[t] == 1
        fill = theme.HIGHLIGHT if winner else (theme.PANEL if line % 2 == 0 else theme.BACKGROUND)
        ink = theme.readable_ink(fill)
        draw.rounded_rectangle((MARGIN, y + 2, WIDTH - MARGIN, y + row_h - 2), radius=8, fill=fill)
        if winner:
            _star(draw, (MARGIN + 16, y + row_h / 2), 13, ink, points=5)
        theme.centred_text(draw, (MARGIN + rank_w / 2 + (8 if winner else 0), y + row_h / 2), str(ranks[t]), 22, ink)
        _badge(draw, (MARGIN + rank_w + 14, y + row_h / 2), t, radius=13)
        draw.text(
            (MARGIN + rank_w + 34, y + row_h / 2),
            team_name(state, names, t, limit=18),
            font=theme.font(20),
            fill=ink,
            anchor="lm",
        )
        for k, record in enumerate(state.history):
            result = record["results"][t]
            text = "-" if result is None else str(result["score"])
            theme.centred_text(draw, (columns_x + (k + 0.5) * round_w, y + row_h / 2), text, font_size, ink)
        theme.centred_text(draw, (WIDTH - MARGIN - total_w / 2, y + row_h / 2), str(state.totals[t]), 24, ink)
    winners = [team_name(state, names, t) for t in order if ranks[t] == 1]
    if over:
        verdict = ("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(winners)
        theme.centred_text(draw, (WIDTH / 2, height - 28), verdict, 22, theme.HIGHLIGHT)
    standings = ", ".join(f"{ranks[t]}. {team_name(state, names, t)} {state.totals[t]}" for t in order)
    description = (
        f"{_last_action(state, names)}Octagion scores after {len(state.history)} of {rounds} rounds: {standings}."
    )
    if over:
        description += (" Winner: " if len(winners) == 1 else " Shared win: ") + ", ".join(winners) + "."
    return Picture(theme.to_picture(image, description).png, description, "octagion-scores.png")


# ---------------------------------------------------------------- message text (names come ready for it)

WHOLE = 10_000  # message text never cuts a team's names: they come trimmed and escaped already


def _count(number: int, one: str, many: str | None = None) -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


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
    parts = [_count(options.get("rounds", DEFAULT_ROUNDS), "round"), variations_text(variations)]
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
        lines.append(f"{joined} player(s). Pick a team to join (or switch); the host presses **Start**.")
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
        detail = _count(penalties, "penalty", "penalties") if penalties else "no penalty"
        lines.append(
            f"**{team_name(state, names, team, WHOLE)}**: {results[team]['score']} pts ({detail})"
            f" · total {state.totals[team]}"
        )
    for word, info in record["solutions"].items():
        if info["solution"]:
            count = _count(info["count"], "solution")
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
    note = f" ({_count(treatment, 'Treatment Card')})" if treatment else ""
    slips = _slips(cells, state.words[team])
    shown = f"Your team's variant for **{state.words[team]}**: `{variant_text(cells)}` ({placed} of 8 placed{note})."
    return shown + (f" {_slips_sentence(cells, slips)}" if slips else "")
