"""Every text in every picture is readable on a phone (issues #17, #28): shown 280 px wide (what
Discord's mobile layout leaves beside the avatar gutter: 272-300 px), a capital letter is at least
11 px tall.

Each picture kind is rendered in a representative state while ``theme.recording_text`` notes the
font size of every text drawn (and a wrapper on ``ImageDraw.text`` catches any drawn around the
theme). The height checked is the cap height: the real height of 'X' in the bundled font at that
size (``theme.cap_height``), not the nominal size, scaled by 280 / the PNG's width (and divided by
the supersampling factor of pictures drawn large and scaled down).
"""

from __future__ import annotations

import functools
import importlib
import io
import random
from datetime import date

import pytest
from PIL import Image, ImageDraw

from bench.bench_octagion import finished_game
from engines.base import play_out
from engines.registry import games
from render import theme
from render.registry import pictures
from tests.games import cases
from tests.render.test_pictures import mid_game

NAMES = ["Ada", "Bo", "Cy", "Di"]
# A final picture's header with two long names: it must fit the width without shrinking its text.
LONG_NAME = "Ada Lovelace, Countess of Lovelace"
LONG_NAMES = [LONG_NAME, *NAMES[1:]]
LONG_ENDING = f"Bo won: {LONG_NAME} ran out of time"
DAY = date(2026, 1, 5)
DAILY_WORD = "STRANGER"
PHONE = 280  # px a phone shows a picture's width in (the test's own figure, not the theme's)


def _octego():
    from engines.octego import ENGINE, legal_moves

    rng, state = random.Random(7), ENGINE.new_game(2, {}, 7)
    for _ in range(16):
        if state.over:
            break
        path = rng.choice(legal_moves(state, state.to_move))
        state = ENGINE.apply(state, state.to_move, {"type": "move", "path": path})
    return state


def _octa():
    from engines.octa import ENGINE, choose_action

    return play_out(ENGINE, choose_action, ENGINE.new_game(2, {}, 4), 120, seed=1)


def _octagone(players: int):
    from engines.octagone import ENGINE, choose_action

    return play_out(ENGINE, choose_action, ENGINE.new_game(players, {"open_hands": players == 4}, 7), 16, seed=7)


def _octagion_playing():
    from engines.octagion import ENGINE, choose_action

    state = ENGINE.new_game(4, {"variation": "virulent", "teams": [0, 0, 1, 1]}, 7)
    for seat in (0, 2):
        state = ENGINE.apply(state, seat, choose_action(state, seat, "easy", 7))
    return state


def _daily_board():
    from engines.octagion import DailyEntry, Streak, ranked, score_daily, solution

    answer = tuple(solution(DAILY_WORD))
    entries = [DailyEntry(u, f"member {u}", 13 - u % 9, 10.0 + u, answer, Streak(u, 0)) for u in range(20)]
    board = ranked(entries)
    return board, [score_daily(entry.cells, DAILY_WORD, None) for _, entry in board], answer


def _octiles(turn: bool = True):
    from engines.octiles import ENGINE, choose_action

    state = ENGINE.new_game(2, {"scramble": True}, 7)
    for _ in range(24 if turn else 0):
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, choose_action(state, seat, "medium", seed=7))
    while turn and state.phase != "turn":
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, choose_action(state, seat, "medium", seed=7))
    return state


# A representative state of each game's public picture, as (players, state); a game not here is
# drawn after random legal moves.
SAMPLES = {
    "octego": lambda: (2, _octego()),
    "octa": lambda: (2, _octa()),
    "octagone": lambda: (2, _octagone(2)),
    "octiles": lambda: (2, _octiles()),
    "octagion": lambda: (4, _octagion_playing()),
}


def _sample(game: str):
    if game in SAMPLES:
        return SAMPLES[game]()
    _, players, options = next(case for case in cases() if case[0] == game)
    return players, mid_game(game, players, options)


def _public(game: str, name: str = "public_picture"):
    """The game's public picture (render/registry.py) in its sample state, with the players' names."""

    def draw():
        players, state = _sample(game)
        return pictures(game).public_picture(state, NAMES[:players])

    return (game, name, draw)


def _public_final(game: str):
    """The public picture drawn as a final position, with a long ending between long names."""

    def draw():
        players, state = _sample(game)
        return pictures(game).public_picture(state, LONG_NAMES[:players], ending=LONG_ENDING)

    return (game, "public_picture final", draw)


def _kinds():
    """(game, picture name, a function drawing it) for every picture the bot sends: each registered
    game's public picture, playing and final, then its other pictures and the daily puzzle's."""
    from engines.octagion import ENGINE as OCTAGION
    from engines.octagion import score_daily, solution

    def octa(name, *args):
        return ("octa", name, lambda: getattr(importlib.import_module("render.octa"), name)(_octa(), *args))

    def octagion(name, state, *args):
        return ("octagion", name, lambda: getattr(importlib.import_module("render.octagion"), name)(state(), *args))

    def ended():
        return OCTAGION.apply(_octagion_playing(), 1, {"type": "end_round", "reason": "timer"})

    def daily(name, args):
        return ("octagion_daily", name, lambda: getattr(_module("octagion_daily"), name)(*args()))

    answer = solution(DAILY_WORD)
    slipped = [None, *answer[1:]]
    return [
        *(_public(game) for game in games()),
        *(_public_final(game) for game in games()),
        octa("render_hand", NAMES[:2], 0),
        ("octagone", "public_picture 4p", lambda: pictures("octagone").public_picture(_octagone(4), NAMES)),
        ("octagone", "render_hand", lambda: _module("octagone").render_hand(_octagone(2), NAMES[:2], 0)),
        octagion("render_deck", _octagion_playing, NAMES, 0),
        octagion("render_variant", _octagion_playing, NAMES, 0),
        octagion("render_round_result", ended, NAMES),
        octagion("render_scoresheet", finished_game, NAMES),
        daily("render_daily_puzzle", lambda: (5, DAY, DAILY_WORD, [*answer[:3], None, None, None, None, None])),
        daily(
            "render_daily_answer",
            lambda: (5, DAY, DAILY_WORD, slipped, score_daily(slipped, DAILY_WORD, None), 120, answer, 3),
        ),
        daily("render_daily_board", lambda: (5, DAY, DAILY_WORD, *_daily_board(), 19)),
        (
            "octiles",
            "public_picture set-up",
            lambda: pictures("octiles").public_picture(_octiles(turn=False), NAMES[:2]),
        ),
        ("octagion", "render_scoresheet final", lambda: _final("octagion", "render_scoresheet", _octagion_playing())),
        ("octiles", "render_orientations spare", lambda: _module("octiles").render_orientations(_octiles())),
        ("octiles", "render_orientations c3", lambda: _module("octiles").render_orientations(_octiles(), "c3")),
    ]


def _final(game: str, name: str, state):
    """A game's picture drawn as a final position, with a long ending between long names."""
    return getattr(_module(game), name)(state, LONG_NAMES[: state.players], ending=LONG_ENDING)


def _module(game: str):
    return importlib.import_module(f"render.{game}")


def _clear_caches(module) -> None:
    """Sprites and masks drawn by an earlier test would hide their text from the recording."""
    for value in vars(module).values():
        if isinstance(value, functools._lru_cache_wrapper):
            value.cache_clear()


def _drawn_texts(game: str, draw, monkeypatch) -> tuple[list[tuple[str, int]], int]:
    for module in (theme, _module(game)):
        _clear_caches(module)
    plain_text = ImageDraw.ImageDraw.text
    with theme.recording_text() as log:

        def text(self, xy, text, *args, **kwargs):  # text drawn around the theme is counted too
            face = kwargs.get("font")
            if face is not None and getattr(face, "size", None) and text.strip():
                log.append((text, face.size))
            return plain_text(self, xy, text, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
        picture = draw()
    width = Image.open(io.BytesIO(picture.png)).width
    return log, width


# Every picture the bot sends: Octa's, Octagone's, Octagion's and the daily pictures are 480 px
# wide, Octego's board 600 px and Octiles' 720 px (portrait): their smallest text is a capital at
# least 19, 24 and 29 px tall.
KINDS = _kinds()


@pytest.mark.parametrize(
    ("game", "name", "draw"),
    [pytest.param(*kind, id=f"{kind[0]}:{kind[1]}") for kind in KINDS],
)
def test_every_text_is_at_least_11_px_tall_on_a_phone(game, name, draw, monkeypatch):
    texts, width = _drawn_texts(game, draw, monkeypatch)
    assert texts, "the recording saw the picture's text"
    scale = pictures(game).supersample if game in games() else 1  # drawn at this scale, then reduced
    smallest = min(texts, key=lambda drawn: drawn[1])
    shown = theme.cap_height(smallest[1]) * PHONE / (width * scale)
    assert shown >= 11, f"{smallest[0]!r} at size {smallest[1]} is {shown:.1f} px tall at {PHONE} px"


@pytest.mark.parametrize("game", games())
def test_every_picture_a_game_sends_has_a_case_here(game):
    measured = {name.split()[0] for drawn_game, name, _ in KINDS if drawn_game == game}
    missing = {"public_picture", *pictures(game).other_pictures} - measured
    assert not missing, f"{game}: no phone case for {sorted(missing)} (render/registry.py other_pictures)"


def test_the_theme_sizes_text_for_the_same_phone_width():
    assert theme.PHONE_WIDTH == PHONE
    assert theme.PHONE_MIN_CAP == 11


def test_the_smallest_readable_size_grows_with_the_picture_width():
    for width in (280, 480, 720, 960):
        size = theme.min_text_size(width)
        assert theme.phone_cap(size, width) >= theme.PHONE_MIN_CAP > theme.phone_cap(size - 1, width)
    assert theme.min_text_size(480) < theme.min_text_size(960)


def test_suit_symbols_are_drawn_as_suit_shapes_not_missing_glyph_boxes():
    image, _ = theme.canvas(120, 60)
    theme.write(image, (60, 30), "7\u2666", 40, theme.INK)
    boxed, _ = theme.canvas(120, 60)
    theme.write(boxed, (60, 30), "7\uffff", 40, theme.INK)  # a glyph the font lacks: its empty box
    diamond, _ = theme.canvas(120, 60)
    theme.write(diamond, (60, 30), "7\u2665", 40, theme.INK)
    assert image.tobytes() != boxed.tobytes()
    assert image.tobytes() != diamond.tobytes(), "each suit has its own shape"
