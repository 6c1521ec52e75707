"""Octagion Daily pictures and texts: the puzzle (private), a member's own answer with its
penalties and one solution (private), and a day's board (rank, name, answer, score, time,
streak).

Names in pictures come plain; names in texts come ready for message text (trimmed, escaped).
Every penalised card carries its reason in words, never colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from PIL import ImageDraw

from engines.octagion import COUNTDOWN_SECONDS, DECK_TABLE, DailyEntry, DailyScore
from render import theme
from render.octagion import SHORT_REASON, clock_text, variant_text
from render.theme import Picture

WIDTH = 960
MARGIN = 28
GAP = 10
BOARD_ROWS = 15  # members drawn on a board picture; the text lists as many
ROW_H = 58
TILE = 40  # a card of a board row
NAME_LIMIT = 16
WORD_CARD = 96  # the puzzle's letter cards
DECK_CARD_H = 48
DECK_H = 38 + 6 * (DECK_CARD_H + 6)  # a column's number, then its six cards
ANSWER_ROW_H = 150  # "Your answer so far" and its cards


# ---------------------------------------------------------------- words


def day_label(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


def title(number: int, day: date) -> str:
    return f"Octagion Daily #{number} · {day_label(day)}"


def time_text(seconds: float) -> str:
    """Time from the first look to the final answer; the whole countdown when it ran out."""
    return clock_text(min(int(seconds), COUNTDOWN_SECONDS))


def score_text(score: int, bonus: int) -> str:
    return f"{score} pts" + (f" (+{bonus} time bonus)" if bonus else "")


def _count(number: int, one: str, many: str | None = None) -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


def _streak_text(entry: DailyEntry) -> str:
    played, won = entry.streak.played, entry.streak.won
    return f"🔥 {played}" + (f" (won {won})" if won else "") if played > 1 else ""


def _plain(name: str, limit: int = NAME_LIMIT) -> str:
    name = " ".join(name.split())
    return name if len(name) <= limit else name[: limit - 1] + "…"


# ---------------------------------------------------------------- drawing helpers


def _header(draw: ImageDraw.ImageDraw, heading: str, subtitle: str) -> int:
    draw.text((MARGIN, 22), heading, font=theme.font(32), fill=theme.INK)
    draw.text((MARGIN, 64), subtitle, font=theme.font(20), fill=theme.MUTED)
    draw.line([(MARGIN, 98), (WIDTH - MARGIN, 98)], fill=theme.GRID, width=2)
    return 114


def _dashed(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, 12):
        draw.line([(x, y0), (min(x + 6, x1), y0)], fill=colour, width=2)
        draw.line([(x, y1), (min(x + 6, x1), y1)], fill=colour, width=2)
    for y in range(y0, y1, 12):
        draw.line([(x0, y), (x0, min(y + 6, y1))], fill=colour, width=2)
        draw.line([(x1, y), (x1, min(y + 6, y1))], fill=colour, width=2)


def _cell(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], cell: str | None, letter: str, slip: bool) -> None:
    """A card of an answer: its letter and number, or a dashed slot showing the letter wanted."""
    if cell is None:
        _dashed(draw, box, theme.PENALTY if slip else theme.MUTED)
        theme.centred_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), letter, (box[3] - box[1]) // 3)
        return
    border = theme.PENALTY if slip else theme.GRID
    theme.draw_card(draw, box, cell[0], cell[1:], border=border, border_width=5 if slip else 2)


def _row(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    card: int,
    word: str,
    cells: Sequence[str | None],
    positions: Sequence[dict] | None,
    gap: int = GAP,
    tags: bool = True,
) -> None:
    """Eight cards from ``x``; with ``positions`` (a score's breakdown) the penalised ones are
    framed and, with ``tags``, named under the card."""
    height = int(card * 1.25)
    for index, letter in enumerate(word):
        left = x + index * (card + gap)
        slip = positions is not None and positions[index]["points"] < 0
        _cell(draw, (left, y, left + card, y + height), cells[index] if index < len(cells) else None, letter, slip)
        if slip and tags:
            reason = SHORT_REASON[positions[index]["reason"]]
            theme.centred_text(draw, (left + card / 2, y + height + 14), reason, 16, theme.PENALTY)


def _row_start(card: int, gap: int = GAP) -> int:
    return (WIDTH - 8 * card - 7 * gap) // 2


def _word_cards(draw: ImageDraw.ImageDraw, y: int, word: str, card: int = WORD_CARD) -> int:
    height = int(card * 1.25)
    for index, letter in enumerate(word):
        x = _row_start(card) + index * (card + GAP)
        theme.draw_card(draw, (x, y, x + card, y + height), letter, face=theme.HIGHLIGHT)
    return y + height


def _deck(draw: ImageDraw.ImageDraw, y: int, word: str) -> int:
    """The 48 cards by number, the word's letters bright: what a player has on the table."""
    column = (WIDTH - 2 * MARGIN - 7 * GAP) // 8
    card_h = DECK_CARD_H
    for number, letters in DECK_TABLE.items():
        x = MARGIN + (number - 1) * (column + GAP)
        draw.rounded_rectangle((x, y, x + column, y + 30), radius=8, fill=theme.PANEL)
        theme.centred_text(draw, (x + column / 2, y + 15), str(number), 22)
        for row, letter in enumerate(sorted(letters)):
            top = y + 38 + row * (card_h + 6)
            needed = letter in word
            face, ink = (theme.CARD_FACE, theme.DARK_INK) if needed else (theme.PANEL, theme.MUTED)
            theme.draw_card(draw, (x, top, x + column, top + card_h), f"{letter}{number}", face=face, ink=ink)
    return y + DECK_H


# ---------------------------------------------------------------- the puzzle (private)


def render_daily_puzzle(number: int, day: date, word: str, cells: Sequence[str | None] | None) -> Picture:
    """The word to spell, the member's answer saved so far (not checked: that is the final
    answer's business) and the deck with the word's letters bright."""
    height = 114 + int(WORD_CARD * 1.25) + 24 + (ANSWER_ROW_H if cells else 0) + 36 + DECK_H + 24
    image, draw = theme.canvas(WIDTH, height)
    _header(draw, title(number, day), "Spell the word with eight cards of eight different numbers")
    y = _word_cards(draw, 114, word) + 24
    if cells:
        draw.text((MARGIN, y), "Your answer so far", font=theme.font(22), fill=theme.MUTED)
        _row(draw, _row_start(80), y + 32, 80, word, cells, None)
        y += ANSWER_ROW_H
    draw.text((MARGIN, y), "The deck (the word's letters bright)", font=theme.font(22), fill=theme.MUTED)
    _deck(draw, y + 36, word)
    answer = f" Your answer so far: {variant_text(cells)}." if cells else ""
    description = f"{title(number, day)}: spell {word}.{answer} The deck's cards with the word's letters are bright."
    return Picture(theme.to_picture(image, description).png, description, "octagion-daily.png")


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
    """The member's answer with each penalty marked, the score and time, and one solution."""
    card = 96
    card_h = int(card * 1.25)
    height = 114 + card_h + 40 + 50 + 34 + 74 + 20
    image, draw = theme.canvas(WIDTH, height)
    _header(draw, title(number, day), f"Your answer for {word} · time {time_text(seconds)}")
    _row(draw, _row_start(card), 114, card, word, cells, scored.positions)
    y = 114 + card_h + 40
    colour = theme.GOOD if scored.penalties == 0 else theme.INK
    penalties = _count(scored.penalties, "penalty", "penalties") if scored.penalties else "perfect"
    theme.centred_text(draw, (WIDTH / 2, y + 18), f"{score_text(scored.score, scored.bonus)} · {penalties}", 30, colour)
    y += 50
    listed = "the only solution" if solutions == 1 else f"one solution of {solutions}"
    draw.text((MARGIN, y), f"{word}: {listed}", font=theme.font(22), fill=theme.MUTED)
    _row(draw, _row_start(56, 8), y + 32, 56, word, solution, None, gap=8)
    slips = [f"{index + 1} {p['reason']}" for index, p in enumerate(scored.positions) if p["points"] < 0]
    description = (
        f"{title(number, day)}: your answer for {word}, {variant_text(cells)}: {score_text(scored.score, scored.bonus)}"
        + (f" ({'; '.join(slips)})" if slips else ", perfect")
        + f", in {time_text(seconds)}. One solution: {variant_text(solution)}."
    )
    return Picture(theme.to_picture(image, description).png, description, "octagion-daily-answer.png")


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
    """The first ``BOARD_ROWS`` of a day's board (and the viewer's own row if lower): rank,
    name, answer with penalties framed, score, time and streak; one solution at the bottom.
    ``scores`` are the entries' breakdowns, in the board's order."""
    shown = list(range(min(len(board), BOARD_ROWS)))
    mine = next((k for k, (_, entry) in enumerate(board) if entry.user_id == viewer), None)
    if mine is not None and mine not in shown:
        shown.append(mine)
    top = 114 + 30
    height = top + len(shown) * ROW_H + (34 if len(board) > len(shown) else 0) + 24 + 40 + 60 + 20
    image, draw = theme.canvas(WIDTH, height)
    _header(draw, title(number, day), f"{word} · {_count(len(board), 'member')} played")
    tiles_x, score_x, time_x, streak_x = 270, 696, 786, WIDTH - MARGIN
    for x, label, anchor in ((MARGIN, "#", "lm"), (76, "Member", "lm"), (tiles_x, "Answer", "lm")):
        draw.text((x, 114 + 12), label, font=theme.font(18), fill=theme.MUTED, anchor=anchor)
    for x, label in ((score_x, "Score"), (time_x, "Time"), (streak_x, "Streak")):
        draw.text((x, 114 + 12), label, font=theme.font(18), fill=theme.MUTED, anchor="rm")
    for line, index in enumerate(shown):
        rank, entry = board[index]
        y = top + line * ROW_H
        fill = theme.HIGHLIGHT if entry.user_id == viewer else (theme.PANEL if line % 2 == 0 else theme.BACKGROUND)
        ink = theme.readable_ink(fill)
        draw.rounded_rectangle((MARGIN - 8, y + 2, WIDTH - MARGIN + 8, y + ROW_H - 2), radius=8, fill=fill)
        middle = y + ROW_H / 2
        draw.text((MARGIN, middle), str(rank), font=theme.font(24), fill=ink, anchor="lm")
        draw.text((76, middle), _plain(entry.name), font=theme.font(21), fill=ink, anchor="lm")
        _row(draw, tiles_x, y + 4, TILE, word, entry.cells, scores[index].positions, gap=4, tags=False)
        colour = theme.GOOD if scores[index].won and fill != theme.HIGHLIGHT else ink
        draw.text((score_x, middle), str(entry.score), font=theme.font(26), fill=colour, anchor="rm")
        draw.text((time_x, middle), time_text(entry.seconds), font=theme.font(21), fill=ink, anchor="rm")
        streak = _count(entry.streak.played, "day") if entry.streak.played else "-"
        draw.text((streak_x, middle), streak, font=theme.font(21), fill=ink, anchor="rm")
    y = top + len(shown) * ROW_H
    if len(board) > len(shown):
        draw.text((MARGIN, y + 6), f"… and {len(board) - len(shown)} more", font=theme.font(20), fill=theme.MUTED)
        y += 34
    y += 24
    draw.text((MARGIN, y), f"One solution for {word}", font=theme.font(22), fill=theme.MUTED)
    _row(draw, _row_start(48, 8), y + 34, 48, word, solution, None, gap=8)
    ranks = ", ".join(
        f"{board[k][0]}. {_plain(board[k][1].name)} {board[k][1].score} in {time_text(board[k][1].seconds)}"
        for k in shown
    )
    description = f"{title(number, day)} board for {word}: {ranks}. One solution: {variant_text(solution)}."
    return Picture(theme.to_picture(image, description).png, description, f"octagion-daily-{number}.png")


# ---------------------------------------------------------------- message texts


def board_text(
    number: int, day: date, word: str, board: Sequence[tuple[int, DailyEntry]], solution: Sequence[str], limit: int
) -> str:
    """A day's board as text: the first ``limit`` rows, the word and one solution."""
    lines = [f"## {title(number, day)}", f"The word: **{word}** · {_count(len(board), 'member')} played"]
    for rank, entry in board[:limit]:
        streak = _streak_text(entry)
        lines.append(
            f"{rank}. **{entry.name}**: {entry.score} pts · {time_text(entry.seconds)}"
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
    verdict = "perfect!" if not slips else _count(len(slips), "penalty", "penalties") + f" ({'; '.join(slips)})"
    return (
        f"Your answer for **{word}**: `{variant_text(cells)}`, {verdict}\n"
        f"**{score_text(scored.score, scored.bonus)}** in {time_text(seconds)}. "
        f"One solution: `{variant_text(solution)}`."
    )


def today_text(number: int, day: date, players: int, over: bool = False) -> str:
    """A day's line in the daily channel: how many played, nothing more (no spoilers)."""
    if over:
        return f"🧩 **{title(number, day)}** is over: {_count(players, 'member')} played it."
    played = "Nobody has played it yet" if not players else f"{_count(players, 'member')} played today"
    return f"🧩 **{title(number, day)}** is open: `/octagion daily play`. {played}."
