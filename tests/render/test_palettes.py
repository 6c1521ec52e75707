"""Pictures are mapped onto each game's fixed palette (issue #29), not searched for one: they stay
what was drawn, antialiased text included. Every registered game (engines/registry.py) must have
its palette, made by ``python -m bench.palettes``."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bench.palettes import full_colour, named_colours
from engines.registry import games
from render import theme
from render.palettes import PALETTES
from tests.render.pixels import TOLERANCE, near
from tests.render.test_phone_text import KINDS


def _drawn(draw) -> tuple[str, Image.Image, bytes]:
    """The picture's game, its full-colour drawing and its PNG."""
    with full_colour() as drawn:
        draw()
    game, rgb = drawn[-1]
    return game, rgb, draw().png


def _entries(game: str) -> list[tuple[int, int, int]]:
    raw = bytes.fromhex(PALETTES[game])
    return [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]


@pytest.mark.parametrize("game", games())
def test_every_game_has_a_full_palette_holding_its_named_colours(game):
    assert game in PALETTES, f"{game}: no palette in render/palettes.py (make it with python -m bench.palettes)"
    entries = _entries(game)
    assert len(entries) == 256
    for colour in named_colours(game):
        assert colour in entries, f"{colour} of {game} is not in its palette"


def test_every_palette_is_a_registered_game_s():
    assert set(PALETTES) <= set(games()), "a palette of a game no longer registered: run python -m bench.palettes"


@pytest.mark.parametrize(("game", "name", "draw"), [pytest.param(*kind, id=f"{kind[0]}:{kind[1]}") for kind in KINDS])
def test_the_picture_is_its_drawing_on_the_games_palette(game, name, draw):
    palette_game, rgb, png = _drawn(draw)
    assert palette_game == ("octagion" if game == "octagion_daily" else game)
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P"
    used = image.getpalette()[: 3 * 256]
    assert bytes(used) == bytes.fromhex(PALETTES[palette_game])[: len(used)], "the game's fixed palette"
    shown = image.convert("RGB")
    # every flat colour (a thousandth of the picture or more) comes out within the pixel tests' tolerance
    for count, colour in rgb.getcolors(rgb.width * rgb.height):
        if count >= rgb.width * rgb.height / 1000:
            mapped = theme.quantized(Image.new("RGB", (1, 1), colour), palette_game).convert("RGB").getpixel((0, 0))
            assert near(mapped, colour), f"{colour} ({count} px) comes out as {mapped}"
    # and antialiased edges stay close: at most 1% of the pixels off by more than the tolerance
    difference = ImageChops.difference(rgb, shown).convert("L")  # a weighted mean of the channels
    off = sum(difference.histogram()[TOLERANCE + 1 :])
    assert off <= 0.01 * rgb.width * rgb.height, f"{off} px differ by more than {TOLERANCE}"


def test_a_picture_without_a_game_still_gets_a_palette_of_its_own():
    image, draw = theme.canvas(40, 20, (1, 2, 3))
    draw.rectangle((0, 0, 19, 19), fill=(200, 100, 50))
    shown = Image.open(io.BytesIO(theme.to_picture(image, "two colours").png))
    assert shown.mode == "P"
    assert sorted(colour for _, colour in shown.convert("RGB").getcolors()) == [(1, 2, 3), (200, 100, 50)]
