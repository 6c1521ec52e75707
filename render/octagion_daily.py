"""Octagion Daily pictures and texts: the puzzle (private), a member's own answer with its
penalties and one solution (private), and a day's board (rank, name, answer, score, time,
streak).

The pictures share the Octagion pictures' width, text sizes and cards (``render.octagion``):
480 px wide, so their smallest text reads on a phone. Names in pictures come plain; names in
texts come ready for message text (trimmed, escaped). Every penalised card carries its reason
in words, never colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from PIL import ImageDraw

from engines.octagion import COUNTDOWN_SECONDS, DECK_TABLE, DailyEntry, DailyScore
from render import theme
from render.octagion import (
    CARD_H,
    CARD_W,
    GAP,
    LABEL,
    LINE,
    MARGIN,
    MARK_H,
    TEXT,
    TITLE,
    WIDTH,
    WORD_CARD_H,
    card_x,
    clock_text,
    dashed_box,
    draw_header,
    draw_letter_card,
    draw_lines,
    draw_penalty_mark,
    header_height,
    slip_lines,
    variant_text,
    wrap_text,
    write,
)
from render.theme import Picture
from render.wording import plural

NAME_LIMIT = 16
SOLUTION_CARD_H = 62  # a solution's cards, a little lower than the answer's
BOARD_ROWS = 15  # members drawn on a board picture; the text lists as many
ROW_H = 78  # a board row: the member's line, then their answer as tiles
TILE = (46, 34)  # a card of a board row: "S5" on one line
TILE_GAP = 4
TILES_X = WIDTH - MARGIN - 8 - (8 * TILE[0] + 7 * TILE_GAP)
MORE_H = LINE + 2  # "… and 9 more"
DECK_TILE_H = 40
DECK_H = LINE + 6 * (DECK_TILE_H + GAP)  # a column's number, then its six cards
SCORE_X, TIME_X, STREAK_X = 309, 366, WIDTH - MARGIN - 8  # right edges of the board's columns


# ---------------------------------------------------------------- words


def day_label(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


def title(number: int, day: date) -> str:
    return f"Octagion Daily #{number} · {day_label(day)}"


def time_text(seconds: float) -> str:
    """Time from the first look to the final answer; the whole countdown when it ran out."""
    return clock_text(min(int(seconds), COUNTDOWN_SECONDS))


def score_text(score: int, bonus: int) -> str:
    return plural(score, "pt") + (f" (+{bonus} time bonus)" if bonus else "")


def _streak_text(entry: DailyEntry) -> str:
    played, won = entry.streak.played, entry.streak.won
    return f"🔥 {played}" + (f" (won {won})" if won else "") if played > 1 else ""


def _plain(name: str, limit: int = NAME_LIMIT) -> str:
    name = " ".join(name.split())
    return name if len(name) <= limit else name[: limit - 1] + "…"


# ---------------------------------------------------------------- drawing helpers


def _cell(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], cell: str | None, letter: str, slip: bool, tile: bool
) -> None:
    """A card of an answer (its letter and number, as one label on a ``tile``), or a dashed slot
    showing the letter wanted."""
    if cell is None:
        dashed_box(draw, box, theme.PENALTY if slip else theme.MUTED)
        write(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), letter, TEXT, theme.MUTED, "mm")
        return
    border = {"border": theme.PENALTY, "border_width": 4 if tile else 5} if slip else {}
    if tile:
        draw_letter_card(draw, box, cell, **border)
    else:
        draw_letter_card(draw, box, cell[0], cell[1:], **border)


def _row(
    draw: ImageDraw.ImageDraw,
    y: int,
    word: str,
    cells: Sequence[str | None],
    positions: Sequence[dict] | None,
    height: int = CARD_H,
) -> None:
    """Eight cards across the picture; with ``positions`` (a score's breakdown) the penalised
    ones are framed and marked "-1"."""
    for index, letter in enumerate(word):
        box = (card_x(index), y, card_x(index) + CARD_W, y + height)
        slip = positions is not None and positions[index]["points"] < 0
        _cell(draw, box, cells[index] if index < len(cells) else None, letter, slip, tile=False)
        if slip:
            draw_penalty_mark(draw, box)


def _tiles(
    draw: ImageDraw.ImageDraw, y: int, word: str, cells: Sequence[str | None], positions: Sequence[dict]
) -> None:
    """An answer on a board row: eight small tiles, the penalised ones framed."""
    for index, letter in enumerate(word):
        x = card_x(index, TILE[0], TILE_GAP, TILES_X)
        cell = cells[index] if index < len(cells) else None
        _cell(draw, (x, y, x + TILE[0], y + TILE[1]), cell, letter, positions[index]["points"] < 0, tile=True)


def _word_cards(draw: ImageDraw.ImageDraw, y: int, word: str) -> int:
    for index, letter in enumerate(word):
        draw_letter_card(
            draw, (card_x(index), y, card_x(index) + CARD_W, y + WORD_CARD_H), letter, face=theme.HIGHLIGHT
        )
    return y + WORD_CARD_H


def _deck(draw: ImageDraw.ImageDraw, y: int, word: str) -> int:
    """The 48 cards by number, the word's letters bright: what a player has on the table."""
    for number, letters in DECK_TABLE.items():
        x = card_x(number - 1)
        draw.rounded_rectangle((x, y, x + CARD_W, y + LINE - 2), radius=6, fill=theme.PANEL)
        write(draw, (x + CARD_W / 2, y + LINE / 2 - 1), str(number), TEXT, theme.INK, "mm")
        for row, letter in enumerate(sorted(letters)):
            top = y + LINE + GAP + row * (DECK_TILE_H + GAP)
            face, ink = (theme.CARD_FACE, theme.DARK_INK) if letter in word else (theme.PANEL, theme.MUTED)
            draw_letter_card(draw, (x, top, x + CARD_W, top + DECK_TILE_H), f"{letter}{number}", face=face, ink=ink)
    return y + DECK_H


# ---------------------------------------------------------------- the puzzle (private)


def render_daily_puzzle(number: int, day: date, word: str, cells: Sequence[str | None] | None) -> Picture:
    """The word to spell, the member's answer saved so far (not checked: that is the final
    answer's business) and the deck with the word's letters bright."""
    heading, subtitle = title(number, day), "Spell the word with eight cards of eight different numbers"
    deck_label = wrap_text("The deck (the word's letters bright)")
    top = header_height(heading, subtitle)
    answer_h = LINE + CARD_H + 16 if cells else 0
    height = top + WORD_CARD_H + 16 + answer_h + len(deck_label) * LINE + DECK_H + MARGIN
    image, draw = theme.canvas(WIDTH, height)
    draw_header(draw, heading, subtitle)
    y = _word_cards(draw, top, word) + 16
    if cells:
        y = draw_lines(draw, y, ["Your answer so far"])
        _row(draw, y, word, cells, None)
        y += CARD_H + 16
    y = draw_lines(draw, y, deck_label)
    _deck(draw, y, word)
    answer = f" Your answer so far: {variant_text(cells)}." if cells else ""
    description = f"{title(number, day)}: spell {word}.{answer} The deck's cards with the word's letters are bright."
    return Picture(theme.to_picture(image, description, game="octagion").png, description, "octagion-daily.png")


# ---------------------------------------------------------------- a member's answer (private)


def render_daily_answer(
    number: int,
    day: date,
    word: str,
    cells: Sequence[str | None],
    scored: DailyScore,
    seconds: float,
    solution: Sequence[str],
    solutions: int,
) -> Picture:
    """The member's answer with each penalty marked and named, the score and time, and one solution."""
    heading, subtitle = title(number, day), f"Your answer for {word} · time {time_text(seconds)}"
    reasons = slip_lines(scored.positions)
    penalties = plural(scored.penalties, "penalty", "penalties") if scored.penalties else "perfect"
    verdict = wrap_text(f"{score_text(scored.score, scored.bonus)} · {penalties}", TITLE)
    listed = "the only solution" if solutions == 1 else f"one solution of {solutions}"
    solution_label = wrap_text(f"{word}: {listed}")
    top = header_height(heading, subtitle)
    marks = MARK_H if reasons else 8
    verdict_h = len(verdict) * (TITLE + 12)
    height = top + CARD_H + marks + len(reasons) * LINE + 8 + verdict_h + 8 + len(solution_label) * LINE
    image, draw = theme.canvas(WIDTH, height + SOLUTION_CARD_H + MARGIN)
    draw_header(draw, heading, subtitle)
    _row(draw, top, word, cells, scored.positions)
    y = draw_lines(draw, top + CARD_H + marks, reasons, theme.PENALTY) + 8
    colour = theme.GOOD if scored.penalties == 0 else theme.INK
    for line in verdict:
        write(draw, (WIDTH / 2, y + (TITLE + 12) / 2), line, TITLE, colour, "mm")
        y += TITLE + 12
    y = draw_lines(draw, y + 8, solution_label)
    _row(draw, y, word, solution, None, SOLUTION_CARD_H)
    slips = [f"{index + 1} {p['reason']}" for index, p in enumerate(scored.positions) if p["points"] < 0]
    description = (
        f"{title(number, day)}: your answer for {word}, {variant_text(cells)}: {score_text(scored.score, scored.bonus)}"
        + (f" ({'; '.join(slips)})" if slips else ", perfect")
        + f", in {time_text(seconds)}. One solution: {variant_text(solution)}."
    )
    return Picture(theme.to_picture(image, description, game="octagion").png, description, "octagion-daily-answer.png")


# ---------------------------------------------------------------- a day's board


def render_daily_board(
    number: int,
    day: date,
    word: str,
    board: Sequence[tuple[int, DailyEntry]],
    scores: Sequence[DailyScore],
    solution: Sequence[str],
    viewer: int | None = None,
) -> Picture:
    """The first ``BOARD_ROWS`` of a day's board (and the viewer's own row if lower), each
    member on two lines: rank, name, score, time and streak, then the answer with penalties
    framed; one solution at the bottom. ``scores`` are the entries' breakdowns, in the board's order."""
    shown = list(range(min(len(board), BOARD_ROWS)))
    mine = next((k for k, (_, entry) in enumerate(board) if entry.user_id == viewer), None)
    if mine is not None and mine not in shown:
        shown.append(mine)
    heading, subtitle = title(number, day), f"{word} · {plural(len(board), 'member')} played"
    solution_label = wrap_text(f"One solution for {word}")
    top = header_height(heading, subtitle)
    rows_top = top + LINE
    more = MORE_H if len(board) > len(shown) else 0
    height = rows_top + len(shown) * ROW_H + more + 16 + len(solution_label) * LINE + SOLUTION_CARD_H + MARGIN
    image, draw = theme.canvas(WIDTH, height)
    draw_header(draw, heading, subtitle)
    middle = top + LINE / 2 - 4
    write(draw, (MARGIN, middle), "#", TEXT, theme.MUTED)
    write(draw, (MARGIN + 44, middle), "Member, answer", TEXT, theme.MUTED)
    for x, label in ((SCORE_X, "Score"), (TIME_X, "Time"), (STREAK_X, "Streak")):
        write(draw, (x, middle), label, TEXT, theme.MUTED, "rm")
    for line, index in enumerate(shown):
        _board_row(draw, rows_top + line * ROW_H, line, board[index], scores[index], word, viewer)
    y = rows_top + len(shown) * ROW_H
    if more:
        write(draw, (MARGIN, y + more / 2), f"… and {len(board) - len(shown)} more", TEXT, theme.MUTED)
        y += more
    y = draw_lines(draw, y + 16, solution_label)
    _row(draw, y, word, solution, None, SOLUTION_CARD_H)
    ranks = ", ".join(
        f"{board[k][0]}. {_plain(board[k][1].name)} {board[k][1].score} in {time_text(board[k][1].seconds)}"
        for k in shown
    )
    description = f"{title(number, day)} board for {word}: {ranks}. One solution: {variant_text(solution)}."
    return Picture(
        theme.to_picture(image, description, game="octagion").png, description, f"octagion-daily-{number}.png"
    )


def _board_row(
    draw: ImageDraw.ImageDraw,
    y: int,
    line: int,
    ranked_entry: tuple[int, DailyEntry],
    scored: DailyScore,
    word: str,
    viewer: int | None,
) -> None:
    """A member's band: rank, name, score (green when won), time and streak, then their answer."""
    rank, entry = ranked_entry
    fill = theme.HIGHLIGHT if entry.user_id == viewer else (theme.PANEL if line % 2 == 0 else theme.BACKGROUND)
    ink = theme.readable_ink(fill)
    draw.rounded_rectangle((MARGIN - 8, y + 2, WIDTH - MARGIN + 8, y + ROW_H - 2), radius=8, fill=fill)
    middle = y + 6 + LINE / 2
    write(draw, (MARGIN, middle), str(rank), LABEL, ink)
    name_room = SCORE_X - theme.font(LABEL).getlength(str(entry.score)) - 12 - (MARGIN + 44)
    write(draw, (MARGIN + 44, middle), theme.fit_text(_plain(entry.name), TEXT, name_room), TEXT, ink)
    colour = theme.GOOD if scored.won and fill != theme.HIGHLIGHT else ink
    write(draw, (SCORE_X, middle), str(entry.score), LABEL, colour, "rm")
    write(draw, (TIME_X, middle), time_text(entry.seconds), TEXT, ink, "rm")
    streak = plural(entry.streak.played, "day") if entry.streak.played else "-"
    write(draw, (STREAK_X, middle), streak, TEXT, ink, "rm")
    _tiles(draw, y + ROW_H - TILE[1] - 8, word, entry.cells, scored.positions)


# ---------------------------------------------------------------- message texts


def board_text(
    number: int, day: date, word: str, board: Sequence[tuple[int, DailyEntry]], solution: Sequence[str], limit: int
) -> str:
    """A day's board as text: the first ``limit`` rows, the word and one solution."""
    lines = [f"## {title(number, day)}", f"The word: **{word}** · {plural(len(board), 'member')} played"]
    for rank, entry in board[:limit]:
        streak = _streak_text(entry)
        lines.append(
            f"{rank}. **{entry.name}**: {plural(entry.score, 'pt')} · {time_text(entry.seconds)}"
            + (f" · {streak}" if streak else "")
        )
    if len(board) > limit:
        lines.append(f"… and {len(board) - limit} more")
    lines.append(f"One solution: `{variant_text(solution)}`")
    return "\n".join(lines)


def answer_text(
    word: str, cells: Sequence[str | None], scored: DailyScore, seconds: float, solution: Sequence[str]
) -> str:
    """A member's own result, as they are told it."""
    slips = [f"{cells[i] or '_'} at {i + 1}: {p['reason']}" for i, p in enumerate(scored.positions) if p["points"] < 0]
    verdict = "perfect!" if not slips else plural(len(slips), "penalty", "penalties") + f" ({'; '.join(slips)})"
    return (
        f"Your answer for **{word}**: `{variant_text(cells)}`, {verdict}\n"
        f"**{score_text(scored.score, scored.bonus)}** in {time_text(seconds)}. "
        f"One solution: `{variant_text(solution)}`."
    )


def today_text(number: int, day: date, players: int, over: bool = False) -> str:
    """A day's line in the daily channel: how many played, nothing more (no spoilers)."""
    if over:
        return f"🧩 **{title(number, day)}** is over: {plural(players, 'member')} played it."
    played = "Nobody has played it yet" if not players else f"{plural(players, 'member')} played today"
    return f"🧩 **{title(number, day)}** is open: `/octagion daily play`. {played}."
