"""Every game's public picture is a 256-colour PNG Discord shows inline, small enough for a phone."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines.registry import engine as registered_engine
from render.registry import pictures
from tests.games import GAMES, IDS

MAX_BYTES = 100_000


def mid_game(game: str, players: int, options: dict):
    engine = registered_engine(game)
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
    picture = pictures(game).public_picture(mid_game(game, players, options), ["Ada", "Bo", "Cy", "Di"][:players])
    image = Image.open(io.BytesIO(picture.png))
    assert image.format == "PNG"
    assert image.mode == "P", "256 colours: half the encoding time and size of full colour"
    assert len(picture.png) <= MAX_BYTES
    assert picture.description
