"""A review's pictures (engines.review): the advantage graph and the boards of the biggest mistakes.

The graph is the member's expected result after every move (0 % a loss, 100 % a win), each
marked move a dot with its sign (?! inaccuracy, ? mistake, ?? blunder) and the turning point a
labelled line. A mistake's board is the position before the move, the move played drawn as a red
arrow and the better move as a green one. Both are drawn 600 px wide, read at 280 px.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.registry import engine
from engines.review import MoveReview, Review
from render import theme

WIDTH, HEIGHT = 600, 380
TEXT = theme.min_text_size(WIDTH)
PLOT = (92, 58, WIDTH - 20, HEIGHT - 62)  # left, top, right, bottom of the plot area
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
MARK_COLOURS = {"inaccuracy": theme.YELLOW, "mistake": theme.ORANGE, "blunder": theme.VERMILION}
PLAYED, BETTER = theme.VERMILION, theme.GREEN
STRIP = 3 * (TEXT + 6) + 10  # the caption above a mistake's board


def advantage_graph(review_json: str, name: str) -> theme.Picture:
    """The advantage graph of a review (as :meth:`Review.to_json` stores it) for the member ``name``."""
    review = Review.from_json(review_json)
    image, draw = theme.canvas(WIDTH, HEIGHT)
    left, top, right, bottom = PLOT
    theme.write(image, (left, 10), theme.fit_text(f"{name}'s expected result", TEXT, WIDTH - 80), TEXT, theme.INK, "lt")
    draw.rectangle(PLOT, fill=theme.PANEL)
    for value, label in ((1.0, "win"), (0.5, "even"), (0.0, "loss")):
        y = _y(value)
        draw.line([(left, y), (right, y)], fill=theme.GRID, width=1 if value == 0.5 else 2)
        theme.write(image, (left - 6, y), label, TEXT, theme.MUTED, "rm")
    points = review.advantage()
    xy = [(_x(index, len(points)), _y(value)) for index, value in enumerate(points)]
    turn = review.turning_point()
    if turn is not None:
        x = xy[turn][0]
        draw.line([(x, top), (x, bottom)], fill=theme.MUTED, width=2)
        anchor = "lt" if x < (left + right) / 2 else "rt"
        theme.write(image, (x + (6 if anchor == "lt" else -6), top + 6), "turning point", TEXT, theme.INK, anchor)
    draw.line(xy, fill=theme.SKY_BLUE, width=4, joint="curve")
    for index, move in enumerate(review.moves, start=1):
        if move.seat == review.seat and move.mark in SIGNS:
            _mark(image, draw, xy[index], move.mark)
    _legend(image, draw, review)
    return theme.to_picture(image, _describe(review, name), "review-graph.png")


def _x(index: int, count: int) -> float:
    left, _, right, _ = PLOT
    return left + (right - left) * index / max(1, count - 1)


def _y(value: float) -> float:
    _, top, _, bottom = PLOT
    return bottom - (bottom - top) * value


def _mark(image: Image.Image, draw: ImageDraw.ImageDraw, centre: tuple[float, float], mark: str) -> None:
    x, y = centre
    radius = 8
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=MARK_COLOURS[mark], outline=theme.WHITE)
    label_y = y - 14 if y > PLOT[1] + 30 else y + 14
    theme.write(image, (x, label_y), SIGNS[mark], TEXT, MARK_COLOURS[mark], "ms" if label_y < y else "mt")


def _legend(image: Image.Image, draw: ImageDraw.ImageDraw, review: Review) -> None:
    """Under the plot, each mark's dot, sign and count ("?? 1"): the words are in the summary."""
    counts = review.counts()
    step = (WIDTH - 40) / len(SIGNS)
    for index, mark in enumerate(SIGNS):
        x, y = 40 + step * index + 14, HEIGHT - 26
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=MARK_COLOURS[mark], outline=theme.WHITE)
        theme.write(image, (x + 18, y), f"{SIGNS[mark]} {counts[mark]}", TEXT, theme.INK, "lm")


def _describe(review: Review, name: str) -> str:
    points = review.advantage()
    counts = review.counts()
    marked = ", ".join(f"{counts[mark]} {mark}" for mark in SIGNS)
    return (f"Graph of {name}'s expected result over {len(points) - 1} moves, ending at {points[-1]:.0%}; {marked}.")[
        :1000
    ]


# ---------------------------------------------------------------- a mistake's board


def _octego_board() -> tuple[Callable[..., theme.Picture], Callable[[str], tuple[int, int]]]:
    from render.octego import render_board, square_centre

    return render_board, square_centre


BOARDS: dict[str, Callable[[], tuple[Callable[..., theme.Picture], Callable[[str], tuple[int, int]]]]] = {
    "octego": _octego_board
}


def mistake_board(
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    actions: Sequence[tuple[int, dict[str, Any]]],
    move_json: dict[str, Any],
    names: Sequence[str],
    why: str,
) -> theme.Picture:
    """The board before the move, the move played (red) and the better one (green), with ``why``."""
    move = MoveReview(**move_json)
    state = engine(game).replay(players, options, seed, list(actions[: move.ply - 1]))
    draw_board, centre = BOARDS[game]()
    board = Image.open(io.BytesIO(draw_board(state, names, move.seat).png)).convert("RGB")
    image, draw = theme.canvas(board.width, board.height + STRIP)
    image.paste(board, (0, STRIP))
    overlay = ImageDraw.Draw(image)
    for path, colour in ((move.best, BETTER), (move.played, PLAYED)):
        squares = [centre(square) for square in re.split(r"[-x]", path)]
        squares = [(x, y + STRIP) for x, y in squares]
        if len(squares) > 2:
            overlay.line(squares[:-1], fill=colour, width=9, joint="curve")
        theme.draw_arrow(overlay, squares[-2], squares[-1], colour, width=9, head=26)
    for line, text in enumerate(theme.wrap(why, TEXT, board.width - 24)[:3]):
        theme.write(image, (12, 8 + line * (TEXT + 6)), text, TEXT, theme.INK, "lt")
    draw.rectangle((0, STRIP - 2, board.width, STRIP), fill=theme.GRID)
    description = f"The board before move {move.ply}: {move.played} played (red arrow), {move.best} better (green)."
    return theme.to_picture(image, description, f"review-move-{move.ply}.png")
