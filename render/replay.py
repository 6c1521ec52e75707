"""Animated replays: a finished game rebuilt from its seed and actions, drawn as the bot draws its
game message after every action, with a caption line from the game's narrator.

Frames: one per action (Octagion: one per round, the round's result), then the final frame,
which is exactly the finished game's public picture (no caption) and stays longest. Only
public pictures are drawn, and only of a finished game, so no hidden card or shield shows.

The file is a lossless animated WebP (see :data:`FORMAT` for the measurements behind the choice).
A game whose file would pass :data:`MAX_BYTES` loses intermediate action frames, evenly spread;
the first action frame, the last one and the final frame always stay.

Pure: Pillow and the engines only, so the bot runs it in a worker process.
"""

from __future__ import annotations

import functools
import importlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageDraw

from engines.base import GameState
from render import octa, octagion, octagone, octego, octiles, theme
from render.narration import outcome_phrase

# The format, from bench/bench_replay.py and each game's typical game (frames of 480 to 720 px
# wide): lossless WebP is smaller every time (60-move Octego 1.07 MB against 1.56 MB as a GIF,
# Octiles 1.8 against 4.5 MB, Octagone 0.3 against 1.2 MB) and encodes in about the same time.
# Discord plays animated WebP attachments inline (since 2024), so the smaller one wins; being
# lossless, every frame is exact and the final frame is the final picture pixel for pixel.
FORMAT = "webp"
MAX_BYTES = 8 * 1024 * 1024  # Discord's upload limit for a server without boosts
FRAME_MS = 1200  # long enough to read a caption
MIN_FRAME_MS = 300
PLAY_MS = 60_000  # a long game's frames are shortened so the replay plays in about a minute
FINAL_MS = 4000
SIZE_MARGIN = 0.9  # aim under the limit when thinning, since frame sizes vary
CAPTION_BAND = theme.BLACK
CAPTION_PAD = 0.25  # band padding around the text, in font sizes
ELLIPSIS = "\u2026"
# Characters narrators use that Pillow's bundled font cannot draw.
PRINTABLE = str.maketrans({"\u2192": "-"})

Draw = Callable[[Any, Sequence[str]], theme.Picture]


@dataclass(frozen=True)
class Frame:
    image: Image.Image
    caption: str  # "" on the final frame
    duration_ms: int


@dataclass(frozen=True)
class ReplayKind:
    """A game's choices: which picture a frame shows, and which actions make a frame."""

    unit: str  # the caption's counter: "move 12: ..." or "round 2: ..."
    picture: Draw  # the picture after an action that makes a frame
    final: Draw  # the finished game's public picture, as on its message
    narrate: Callable[[Any, Sequence[str]], str]
    caption_at: str  # "top" or "bottom": the strip the caption hides least of
    frame_on: str | None = None  # the event kind that makes a frame; None: every action
    band_room: float = 0.0  # the least height of the band, as a share of the picture's (to hide a whole strip)


def _octagion_final(state: Any, names: Sequence[str], ending: str | None = None) -> theme.Picture:
    if state.over:
        return octagion.render_scoresheet(state, names, ending=ending)
    return octagion.render_round(state, names, ending=ending)


def _octagone_board(state: Any, names: Sequence[str], ending: str | None = None) -> theme.Picture:
    return octagone.render_board(state, names, None, ending=ending)


def _octego_board(state: Any, names: Sequence[str], ending: str | None = None) -> theme.Picture:
    return octego.render_board(state, names, None, ending=ending)


def _octa_table(state: Any, names: Sequence[str], ending: str | None = None) -> theme.Picture:
    return octa.render_table(state, names, None, ending=ending)


# Where the caption goes: over Octego's legend, over the space Octa's growing table leaves at the
# bottom, over the title line of the others.
KINDS: dict[str, ReplayKind] = {
    "octego": ReplayKind("move", _octego_board, _octego_board, octego.narrate, "bottom", band_room=0.06),
    "octa": ReplayKind("move", _octa_table, _octa_table, octa.narrate, "bottom"),
    "octagone": ReplayKind("move", _octagone_board, _octagone_board, octagone.narrate, "top"),
    "octiles": ReplayKind("move", octiles.render_board, octiles.render_board, octiles.narrate, "top"),
    "octagion": ReplayKind(
        "round", octagion.render_round_result, _octagion_final, octagion.narrate, "top", frame_on="round_end"
    ),
}


# ---------------------------------------------------------------- frames


def replay_frames(
    game: str, players: int, options: dict, seed: int, actions: Sequence[tuple[int, dict]], names: Sequence[str]
) -> list[Frame]:
    """The frames of a finished game's replay: one per action (Octagion: per round) with its
    caption, then the final public picture without one. All frames share one size."""
    return _replayed(game, players, options, seed, actions, names)[0]


def _replayed(
    game: str,
    players: int,
    options: dict,
    seed: int,
    actions: Sequence[tuple[int, dict]],
    names: Sequence[str],
    ending: str | None = None,
) -> tuple[list[Frame], GameState]:
    kind = KINDS[game]
    engine = importlib.import_module(f"engines.{game}").ENGINE
    state = engine.new_game(players, options, seed)
    pictures: list[Image.Image] = []
    captions: list[str] = []
    for seat, action in actions:
        state = engine.apply(state, seat, action)
        if kind.frame_on is None or any(event.kind == kind.frame_on for event in state.events):
            captions.append(f"{kind.unit} {len(captions) + 1}: {_sentences(kind, state, names)}".rstrip())
            pictures.append(_pixels(kind.picture, state, names))
    if not state.over:
        raise ValueError("a replay is only drawn for a finished game")
    final_picture = functools.partial(kind.final, ending=ending) if ending else kind.final
    final = _pixels(final_picture, state, names).convert("RGB")
    size = final.size  # the final frame is the final public picture itself, pixel for pixel
    images = [_on_canvas(image, size) for image in pictures]
    band = _band(size, kind.caption_at, kind.band_room)
    each = _frame_ms(len(images))
    frames = [Frame(_captioned(image, text, band), text, each) for image, text in zip(images, captions, strict=True)]
    return [*frames, Frame(final, "", FINAL_MS)], state


def _sentences(kind: ReplayKind, state: GameState, names: Sequence[str]) -> str:
    return " ".join(filter(None, (kind.narrate(event, names) for event in state.events)))


def _pixels(draw: Draw, state: GameState, names: Sequence[str]) -> Image.Image:
    """The picture's pixels as its PNG decodes them, without writing the PNG."""
    with theme.capturing_images() as images:
        draw(state, names)
    return images[-1]


def _frame_ms(count: int) -> int:
    """Frames of a long game go faster, so its replay lasts about :data:`PLAY_MS` (in hundredths
    of a second, which a GIF can also keep)."""
    share = PLAY_MS // max(count, 1)
    return max(MIN_FRAME_MS, min(FRAME_MS, share)) // 10 * 10


def _on_canvas(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` in RGB on a canvas of the final picture's size: a smaller picture sits at the
    top on the background; a larger one (an Octa table before a run left it, an Octagion round
    result taller than the score sheet) is scaled down to fit, so that the last frame can be the
    final picture itself."""
    rgb = image.convert("RGB")
    if rgb.size == size:
        return rgb
    scale = min(1.0, size[0] / rgb.width, size[1] / rgb.height)
    if scale < 1.0:
        fitted = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
        rgb = rgb.resize(fitted, Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", size, theme.BACKGROUND)
    canvas.paste(rgb, ((size[0] - rgb.width) // 2, 0))
    return canvas


# ---------------------------------------------------------------- caption


def _band(size: tuple[int, int], place: str, room: float = 0.0) -> tuple[int, int, int, int]:
    """The caption's band: one line of text readable on a phone, across the top or the bottom,
    at least ``room`` of the picture's height."""
    width, height = size
    text = theme.min_text_size(width)
    tall = round(text * CAPTION_PAD) * 2 + theme.cap_height(text) + round(text * 0.3)  # room for descenders
    tall = max(tall, round(height * room))
    return (0, 0, width, tall) if place == "top" else (0, height - tall, width, height)


def _captioned(image: Image.Image, caption: str, band: tuple[int, int, int, int]) -> Image.Image:
    """``caption`` in ``band``: its counter ("move 12:") in the highlight colour, then the
    narrator's words on the same line."""
    size = theme.min_text_size(image.width)
    pad = round(size * CAPTION_PAD)
    draw = ImageDraw.Draw(image)
    draw.rectangle(band, fill=CAPTION_BAND)
    middle = (band[1] + band[3]) / 2
    prefix, _, rest = caption.partition(": ")
    line = _fit(draw, f"{prefix}: {rest}" if rest else prefix, size, image.width - 2 * pad)
    head = line[: len(prefix) + 1]
    theme.write(image, (pad, middle), head, size, theme.HIGHLIGHT, anchor="lm")
    if len(line) > len(head):
        x = pad + theme.font(size).getlength(head + " ")
        _write_direct(image, (x, middle), line[len(head) + 1 :], size)
    return image


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    """``text`` on one line of ``width`` px, cut at a word and ended with an ellipsis if too long."""
    text = text.translate(PRINTABLE)
    if theme.text_size(draw, text, size)[0] <= width:
        return text
    words = text.split(" ")
    while len(words) > 1 and theme.text_size(draw, " ".join(words) + ELLIPSIS, size)[0] > width:
        words.pop()
    return " ".join(words).rstrip(",;:.") + ELLIPSIS


def _write_direct(image: Image.Image, xy: tuple[float, float], text: str, size: int) -> None:
    """Text new in every frame, drawn without filling the shared mask cache; suits (Octa's
    cards) go through :func:`theme.write`, which draws their shapes."""
    if any(char in theme.SUIT_GLYPHS for char in text):
        theme.write(image, xy, text, size, theme.INK, anchor="lm")
    else:
        ImageDraw.Draw(image).text(xy, text, fill=theme.INK, font=theme.font(size), anchor="lm")


# ---------------------------------------------------------------- the file


def replay_picture(
    game: str,
    players: int,
    options: dict,
    seed: int,
    actions: Sequence[tuple[int, dict]],
    names: Sequence[str],
    ending: str | None = None,
    max_bytes: int = MAX_BYTES,
) -> theme.Picture:
    """The animated replay of a finished game (``png`` carries the animation's bytes), under
    ``max_bytes``: intermediate action frames are dropped evenly until it fits. ``ending``: the
    final picture's header, as the game message drew it (a clock forfeit, a resignation)."""
    frames, state = _replayed(game, players, options, seed, actions, names, ending)
    description = _description(game, state, names, len(frames) - 1)
    data = encode(frames)
    while len(data) > max_bytes and len(frames) > 3:
        keep = max(3, int(len(frames) * max_bytes / len(data) * SIZE_MARGIN))
        frames = thinned(frames, min(keep, len(frames) - 1))
        data = encode(frames)
    if len(data) > max_bytes:
        raise ValueError(f"a replay of {len(frames)} frames is {len(data)} bytes, over {max_bytes}")
    return theme.Picture(data, description, f"{game}-replay.{FORMAT}")


def thinned(frames: Sequence[Frame], count: int) -> list[Frame]:
    """``count`` frames (at least 3): the first action frame, the last one and the final frame,
    and action frames evenly spread between, each shown as long as a game of that many moves."""
    moves, final = list(frames[:-1]), frames[-1]
    wanted = max(2, count - 1)
    if len(moves) <= wanted:
        return [*moves, final]
    picks = sorted({round(i * (len(moves) - 1) / (wanted - 1)) for i in range(wanted)})
    kept = [replace(moves[index], duration_ms=_frame_ms(wanted)) for index in picks]
    return [*kept, final]


def encode(frames: Sequence[Frame], file_format: str = FORMAT) -> bytes:
    """The frames as a looping animation in ``file_format`` ("webp" or "gif", kept for comparison)."""
    return ENCODERS[file_format](frames)


def _webp(frames: Sequence[Frame]) -> bytes:
    """Lossless animated WebP; every frame after the first stores only the rectangle that changed
    (no key frames: a replay is watched from the start). Method 1 at quality 0 is libwebp's
    fastest lossless effort that still compresses (method 0 doubles the size)."""
    buffer = io.BytesIO()
    frames[0].image.save(
        buffer,
        format="WEBP",
        save_all=True,
        append_images=[frame.image for frame in frames[1:]],
        duration=[frame.duration_ms for frame in frames],
        loop=0,
        lossless=True,
        method=1,
        quality=0,
        kmin=0,
        kmax=0,
    )
    return buffer.getvalue()


def _gif(frames: Sequence[Frame]) -> bytes:
    """Animated GIF, each frame with its own 256-colour palette (exact for the final picture,
    already in 256 colours); Pillow stores the changed rectangle of each frame."""
    palettes = [
        frame.image.quantize(theme.PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        for frame in frames
    ]
    buffer = io.BytesIO()
    palettes[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=palettes[1:],
        duration=[frame.duration_ms for frame in frames],
        loop=0,
        disposal=1,
    )
    return buffer.getvalue()


ENCODERS: dict[str, Callable[[Sequence[Frame]], bytes]] = {"webp": _webp, "gif": _gif}


def _description(game: str, state: GameState, names: Sequence[str], steps: int) -> str:
    """Alt text: who played, the result and the number of moves (Octagion: rounds)."""
    kind = KINDS[game]
    result = outcome_phrase(state.outcome, names)
    title = importlib.import_module(f"engines.{game}").ENGINE.title
    return (
        f"Replay of {title} ({', '.join(names[: state.players])}): {result}, {steps} {kind.unit}{'s' * (steps != 1)}."
    )
