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
from engines.review import MoveReview, Played, Review, RoundsReview
from render import theme
from render.board import board_picture

WIDTH, HEIGHT = 600, 380
TEXT = theme.min_text_size(WIDTH)
PLOT = (92, 58, WIDTH - 20, HEIGHT - 62)  # left, top, right, bottom of the plot area
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
MARK_COLOURS = {"inaccuracy": theme.YELLOW, "mistake": theme.ORANGE, "blunder": theme.VERMILION}
PLAYED, BETTER = theme.VERMILION, theme.GREEN


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


# ---------------------------------------------------------------- a move in words

_VALUE_ONLY = ("action", "source", "card", "cards", "space", "to", "line", "shield", "hand_card", "stop", "circle")
_ONE_BASED = ("pile", "run")  # numbered from 1 on the table, from 0 in the record


def move_words(notation: str) -> str:
    """A move of the record's generic notation (``use_action action=king source=stock``) as a
    member reads it (``use action king stock``): the type in words, fields by their value, piles and
    runs counted from 1 as the table shows them, a token only when one is used. A game's own
    notation (``c4-d5``, ``green NE``) is kept as it is."""
    words = notation.split()
    if len(words) == 1 and "_" in notation and notation.islower():  # a bare type: "skip_action"
        return notation.replace("_", " ")
    if len(words) < 2 or not all("=" in word for word in words[1:]):
        return notation
    out = [words[0].replace("_", " ")]
    for word in words[1:]:
        key, _, value = word.partition("=")
        if value in ("no", "-"):
            continue
        if key in _ONE_BASED and value.isdigit():
            value = str(int(value) + 1)
        value = value.replace(",", " ")
        if key == "token":
            out.append("with token")
        else:  # a key the type names already ("add_to_run run=3") or that the value says by itself
            named = key in _VALUE_ONLY or key in words[0].split("_")
            out.append(value if named else f"{key.replace('_', ' ')} {value}")
    return " ".join(out)


# ---------------------------------------------------------------- a mistake's board
# The board before the move, drawn as the mover saw it: the game's picture for that seat (never
# another player's hidden cards or shields), with the moves drawn on it where the game has a place
# to draw them (Octego's squares, Octagone's box and arrow), else named in the caption.


def _octego_arrows(image: Image.Image, state: Any, move: MoveReview, top: int) -> None:
    from render.octego import square_centre

    overlay = ImageDraw.Draw(image)
    for path, colour in ((move.best, BETTER), (move.played, PLAYED)):
        squares = [(x, y + top) for x, y in (square_centre(square) for square in re.split(r"[-x]", path))]
        if len(squares) > 2:
            overlay.line(squares[:-1], fill=colour, width=9, joint="curve")
        theme.draw_arrow(overlay, squares[-2], squares[-1], colour, width=9, head=26)


def _octagone_arrows(image: Image.Image, state: Any, move: MoveReview, top: int) -> None:
    """An arrow out of the box each move aimed from ("green NE": the target box; "C4 NE": the
    White Lady's box), pointing the way it aimed."""
    from render.octagone import CELL, _unit, box_centre

    overlay = ImageDraw.Draw(image)
    for notation, colour in ((move.best, BETTER), (move.played, PLAYED)):
        words = notation.split()
        box = words[0] if len(words) == 2 and words[0][:1].isupper() else state.target
        if box is None:
            continue
        x, y = box_centre(box)
        dx, dy = _unit(words[-1])
        start, end = (x + dx * CELL * 0.3, y + top + dy * CELL * 0.3), (x + dx * CELL * 1.4, y + top + dy * CELL * 1.4)
        theme.draw_arrow(overlay, start, end, colour, width=7, head=20)


ARROWS: dict[str, Callable[[Image.Image, Any, MoveReview, int], None]] = {
    "octego": _octego_arrows,
    "octagone": _octagone_arrows,
}


def seat_view(game: str, state: Any, names: Sequence[str], seat: int) -> Image.Image:
    """The position as ``seat`` saw it: the Activity's board for that seat (the public picture, and
    the game's private picture for the seat below it: Octa's hand)."""
    return _image(board_picture(game, state, list(names), seat))


def _image(picture: theme.Picture) -> Image.Image:
    return Image.open(io.BytesIO(picture.png)).convert("RGB")


def mistake_board(played: Played, move_json: dict[str, Any], names: Sequence[str], why: str) -> theme.Picture:
    """The board before the move as its mover saw it, the move played (red) and the better one
    (green) drawn where the game has a place for them, with ``why`` above."""
    move = MoveReview(**move_json)
    game = played.game
    state = engine(game).replay(played.players, played.options, played.seed, list(played.actions[: move.ply - 1]))
    board = seat_view(game, state, names, move.seat)
    size = theme.min_text_size(board.width)  # read at 280 px whatever the board's width
    lines = theme.wrap(why, size, board.width - 24)[:4]
    strip = len(lines) * (size + 6) + 16
    image, draw = theme.canvas(board.width, board.height + strip)
    image.paste(board, (0, strip))
    if game in ARROWS:
        ARROWS[game](image, state, move, strip)
    for line, text in enumerate(lines):
        theme.write(image, (12, 8 + line * (size + 6)), text, size, theme.INK, "lt")
    draw.rectangle((0, strip - 2, board.width, strip), fill=theme.GRID)
    drawn, better = (" (red arrow)", " (green)") if game in ARROWS else ("", "")
    played_words, best = move_words(move.played), move_words(move.best)
    description = f"Before move {move.ply} as seen by its mover: {played_words} played{drawn}, {best} better{better}."
    return theme.to_picture(image, description[:1000], f"review-move-{move.ply}.png")


# ---------------------------------------------------------------- a race's rounds (Octagion)

CELL_W, CELL_H, CELL_GAP = 56, 40, 6
LABEL_W = WIDTH - 20 - 8 * CELL_W - 7 * CELL_GAP - 20  # "You" / "Best" left of the cards
ROUND_H = TEXT + 10 + 2 * (CELL_H + 8) + 14


def rounds_table(review_json: str, name: str) -> theme.Picture:
    """Each round of a race: the word, the member's team's answer (a wrong or empty place in red)
    and the solver's best, with the points each scored or would have scored."""
    from engines.octagion import score_variant

    review = RoundsReview.from_json(review_json)
    top = 14 + TEXT + 16
    image, draw = theme.canvas(WIDTH, top + max(1, len(review.rounds)) * ROUND_H + 10)
    title = f"{name}: {review.points()} points, the solver {review.best_points()}"
    theme.write(image, (20, 14), theme.fit_text(title, TEXT, WIDTH - 40), TEXT, theme.INK, "lt")
    for index, entry in enumerate(review.rounds):
        y = top + index * ROUND_H
        draw.line([(20, y - 6), (WIDTH - 20, y - 6)], fill=theme.GRID, width=2)
        theme.write(image, (20, y), f"Round {entry['round']}: {entry['word']}", TEXT, theme.HIGHLIGHT, "lt")
        score = f"{entry['points']} of {entry['best_points']} points"
        theme.write(
            image,
            (WIDTH - 20, y),
            score,
            TEXT,
            theme.INK if entry["points"] < entry["best_points"] else theme.GREEN,
            "rt",
        )
        for row, (label, cards) in enumerate((("You", entry["answer"]), ("Best", entry["best"]))):
            row_y = y + TEXT + 10 + row * (CELL_H + 8)
            theme.write(image, (20, row_y + CELL_H / 2), label, TEXT, theme.MUTED, "lm")
            reasons = [place["reason"] for place in score_variant(cards, entry["word"])["positions"]]
            for place, (card, reason) in enumerate(zip(cards, reasons, strict=True)):
                x = 20 + LABEL_W + place * (CELL_W + CELL_GAP)
                right = reason in ("ok", "treatment")
                draw.rounded_rectangle(
                    (x, row_y, x + CELL_W, row_y + CELL_H),
                    radius=6,
                    fill=theme.CARD_FACE if card else theme.PANEL,
                    outline=theme.GREEN if right else theme.VERMILION,
                    width=3,
                )
                ink = theme.DARK_INK if card else theme.VERMILION
                theme.write(image, (x + CELL_W / 2, row_y + CELL_H / 2), card or "-", TEXT, ink, "mm")
    description = f"{name}'s rounds against the solver: " + "; ".join(
        f"round {e['round']} {e['word']}: {e['points']} points, the solver's {e['best_points']}" for e in review.rounds
    )
    return theme.to_picture(image, description[:1000], "review-rounds.png")
