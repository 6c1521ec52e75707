"""Octagion Daily pictures: they fit a phone, a long board keeps the viewer's own row, and the
penalties of an answer are named, not only coloured."""

from __future__ import annotations

import io
from datetime import date

from PIL import Image

from engines.octagion import DailyEntry, Streak, ranked, score_daily, solution
from render import octagion_daily as R
from render import theme
from tests.render.pixels import colour_count

DAY = date(2026, 1, 5)
WORD = "STRANGER"
ANSWER = solution(WORD)


def image_of(picture):
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.width <= 1000
    return image.convert("RGB")


def board_of(count: int):
    entries = [
        DailyEntry(user, f"member {user}", 13 - user % 9, 10.0 + user, tuple(ANSWER), Streak(user, 0))
        for user in range(count)
    ]
    board = ranked(entries)
    return board, [score_daily(entry.cells, WORD, None) for _, entry in board]


def test_a_long_board_shows_the_first_rows_and_the_viewers_own():
    board, scores = board_of(R.BOARD_ROWS + 10)
    last = board[-1][1].user_id
    short = image_of(R.render_daily_board(5, DAY, WORD, board[: R.BOARD_ROWS], scores[: R.BOARD_ROWS], ANSWER))
    picture = R.render_daily_board(5, DAY, WORD, board, scores, ANSWER, viewer=last)
    image = image_of(picture)
    assert image.height == short.height + R.ROW_H + R.MORE_H  # the viewer's row and "… and 9 more"
    assert f"member {last}" in picture.description
    assert colour_count(image, theme.HIGHLIGHT) > 1000, "the viewer's row is highlighted"
    assert picture.filename == "octagion-daily-5.png"


def test_an_answer_names_its_penalties():
    cells = [None, *ANSWER[1:]]
    picture = R.render_daily_answer(5, DAY, WORD, cells, score_daily(cells, WORD, None), 120, ANSWER, 3)
    image_of(picture)
    assert "1 empty" in picture.description
    assert "7 pts" in picture.description
    text = R.answer_text(WORD, cells, score_daily(cells, WORD, None), 120, ANSWER)
    assert "1 penalty (_ at 1: empty)" in text
    assert "2:00" in text


def test_the_puzzle_shows_the_word_and_no_verdict():
    picture = R.render_daily_puzzle(5, DAY, WORD, [*ANSWER[:3], None, None, None, None, None])
    image_of(picture)
    assert f"spell {WORD}" in picture.description
    assert "penalt" not in picture.description
    assert "is open" in R.today_text(5, DAY, 12)
    assert "12 members played today" in R.today_text(5, DAY, 12)
