"""Every game's public picture is a 256-colour PNG Discord shows inline, small enough for a phone."""

from __future__ import annotations

import importlib
import io
import random

import pytest
from PIL import Image

from tests.games import GAMES, IDS

PUBLIC = {
    "octego": "render_board",
    "octa": "render_table",
    "octagone": "render_board",
    "octiles": "render_board",
    "octagion": "render_round",
}
MAX_BYTES = 100_000


def mid_game(game: str, players: int, options: dict):
    engine = importlib.import_module(f"engines.{game}").ENGINE
    state = engine.new_game(players, options, 3)
    rng = random.Random(3)
    for _ in range(20):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(engine.to_act(state))
        state = engine.apply(
            state, seat, rng.choice([a for a in engine.legal_actions(state, seat) if a["type"] != "resign"])
        )
    return state


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_the_public_picture_is_a_small_palette_png(game, players, options):
    draw = getattr(importlib.import_module(f"render.{game}"), PUBLIC[game])
    picture = draw(mid_game(game, players, options), ["Ada", "Bo", "Cy", "Di"][:players])
    image = Image.open(io.BytesIO(picture.png))
    assert image.format == "PNG"
    assert image.mode == "P", "256 colours: half the encoding time and size of full colour"
    assert len(picture.png) <= MAX_BYTES
    assert picture.description
