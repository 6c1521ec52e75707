"""``python -m bench.palettes``: make ``render/palettes.py``, each game's fixed 256-colour palette.

The palette is worked out once here, from many of the game's pictures drawn in full colour, so
that a picture at run time is only mapped onto it (``theme.quantized``), not searched for one:

- every named colour (a constant of ``render.theme`` or of the game's module) and every flat
  colour (one that fills at least ``FLAT_SHARE`` of some picture) gets an entry of its own, so
  the board, cards and text come out exactly;
- the remaining entries go to the antialiased edges between them, by a median cut over every
  other pixel of every picture.

Run it again after a change of colours or layout; ``tests/render/test_palettes.py`` checks that
the pictures stay close to their full-colour drawing.
"""

from __future__ import annotations

import collections
import importlib
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from PIL import Image

from engines.registry import MissingPart, games
from engines.registry import engine as registered_engine
from render import theme
from render.registry import pictures

FLAT_SHARE = 0.0005  # of a picture's pixels
MAX_FLAT = 128  # leaves at least 128 entries for the edges
OUT = Path(__file__).resolve().parent.parent / "render" / "palettes.py"
NAMES = ["Ada", "Bo", "Cy", "Di"]


@contextmanager
def full_colour() -> Iterator[list[tuple[str, Image.Image]]]:
    """Inside, every picture drawn is noted in full colour with its game."""
    drawn: list[tuple[str, Image.Image]] = []
    plain = theme.quantized

    def noting(image: Image.Image, game: str | None = None) -> Image.Image:
        drawn.append((game or "", image.convert("RGB")))
        return plain(image, None)

    theme.quantized = noting
    try:
        yield drawn
    finally:
        theme.quantized = plain


# The set-up a game's public picture is drawn in at many depths, as (players, options), when not
# its fewest players with default options; None: drawn only in the phone test's kinds (Octagion's
# round, deck, variant, round result and score sheet are all among them). A game not here is drawn
# in its default set-up, so a newly registered game gets a palette with no edit here.
SETUPS: dict[str, tuple[int, dict] | None] = {
    "octagone": (4, {"open_hands": True}),
    "octiles": (2, {"scramble": True}),
    "octagion": None,
}


def setups() -> dict[str, tuple[int, dict]]:
    """(players, options) of every registered game drawn at many depths, in the registry's order."""
    unknown = set(SETUPS) - set(games())
    if unknown:
        raise MissingPart(f"bench/palettes.py SETUPS names games not registered: {sorted(unknown)}")
    drawn = {game: SETUPS.get(game, (registered_engine(game).min_players, {})) for game in games()}
    return {game: setup for game, setup in drawn.items() if setup is not None}


def _played(game: str, players: int, options: dict, seed: int, actions: int):
    engine = registered_engine(game)
    state, rng = engine.new_game(players, options, seed), random.Random(seed)
    for _ in range(actions):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(engine.to_act(state))
        legal = [a for a in engine.legal_actions(state, seat) if a["type"] != "resign"]
        state = engine.apply(state, seat, rng.choice(legal))
    return state


def _drawings() -> Iterator[Callable[[], object]]:
    """The phone test's every picture kind, then public pictures of random games at many depths."""
    from tests.render.test_phone_text import KINDS

    for _, _, draw in KINDS:
        yield draw
    for game, (players, options) in setups().items():
        render = pictures(game).public_picture
        for seed in range(3):
            for actions in (0, 6, 20, 60, 200):
                state = _played(game, players, options, seed, actions)
                yield lambda render=render, state=state, players=players: render(state, NAMES[:players])
                yield lambda render=render, state=state, players=players: render(
                    state, NAMES[:players], ending="Stopped by Ada"
                )


def named_colours(game: str) -> list[tuple[int, int, int]]:
    """The RGB constants of the theme and of the game's module (and those in its dicts and tuples)."""
    found: list[tuple[int, int, int]] = []

    def visit(value, depth: int = 0) -> None:
        if isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, int) and 0 <= v < 256 for v in value):
            found.append(value)
        elif depth < 2 and isinstance(value, tuple | list):
            for item in value:
                visit(item, depth + 1)
        elif depth < 2 and isinstance(value, dict):
            for item in value.values():
                visit(item, depth + 1)

    modules = [theme, importlib.import_module(f"render.{game}")]
    if game == "octagion":
        modules.append(importlib.import_module("render.octagion_daily"))
    for module in modules:
        for name, value in vars(module).items():
            if name.isupper():
                visit(value)
    return list(dict.fromkeys(found))


def palette_of(images: list[Image.Image], named: list[tuple[int, int, int]] = ()) -> bytes:
    """256 RGB entries: the ``named`` and flat colours of ``images``, then a median cut of all
    their other pixels."""
    totals: collections.Counter = collections.Counter()
    flat: set[tuple[int, int, int]] = set()
    for image in images:
        counts = image.getcolors(image.width * image.height)
        threshold = FLAT_SHARE * image.width * image.height
        for count, colour in counts:
            totals[colour] += count
            if count >= threshold:
                flat.add(colour)
    chosen = list(dict.fromkeys([*named, *sorted(flat, key=lambda colour: -totals[colour])]))[:MAX_FLAT]
    rest = [(colour, count) for colour, count in totals.items() if colour not in set(chosen)]
    edges: list[tuple[int, int, int]] = []
    if rest:
        # every other colour, as often as it was drawn (at most 64 times: the many pixels of one
        # soft shadow must not take every entry), for the median cut
        pixels = [colour for colour, count in rest for _ in range(min(count, 64))]
        strip = Image.new("RGB", (len(pixels), 1))
        strip.putdata(pixels)
        cut = strip.quantize(256 - len(chosen), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        entries = cut.getpalette()[: 3 * len(cut.getcolors())]
        edges = [tuple(entries[i : i + 3]) for i in range(0, len(entries), 3)]
    colours = (chosen + [colour for colour in edges if colour not in set(chosen)])[:256]
    colours += [colours[0]] * (256 - len(colours))
    return bytes(channel for colour in colours for channel in colour)


def main() -> int:
    with full_colour() as drawn:
        for draw in _drawings():
            draw()
    by_game: dict[str, list[Image.Image]] = collections.defaultdict(list)
    for game, image in drawn:
        by_game[game].append(image)
    lines = [
        '"""Each game\'s fixed 256-colour palette (RGB, hex): made by ``python -m bench.palettes``, not by hand."""',
        "",
        "PALETTES = {",
    ]
    for game in sorted(by_game):
        if not game:
            continue
        hexed = palette_of(by_game[game], named_colours(game)).hex()
        lines.append(f'    "{game}": (')
        lines.extend(f'        "{hexed[i : i + 96]}"' for i in range(0, len(hexed), 96))
        lines.append("    ),")
        print(f"{game}: {len(by_game[game])} pictures", file=sys.stderr)
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
