"""Animated replays: a finished game rebuilt from its seed and actions, drawn as the bot draws its
game message after every move, with a caption from the game's narrator.

Frames: one per move (Octagion: one per round, the round's result), then the final frame, the
finished game's public picture, which stays longest. A resignation or a loss on time is an event,
not a move: it makes no frame of its own and the final frame's caption tells it, so the frames,
the board's count and the alt text's count agree. Only public pictures are drawn, and only of a
finished game, so no hidden card or shield shows.

Each frame is the picture with its caption in a strip below it, on one canvas the size of the
final picture plus the strip: the caption never covers the picture, and the final frame holds
the final picture pixel for pixel. Captions wrap (up to :data:`MAX_CAPTION_LINES` lines) at a size
readable on a phone :data:`PHONE_WIDTH` px wide.

Bounded memory: a first pass replays the game without drawing (captions, the final picture);
the frames are then drawn one at a time as the encoder asks for them, so at most one frame and
the final picture are held, however long the game. A file that would pass :data:`MAX_BYTES` is
encoded again from a second drawing of fewer frames (intermediate move frames dropped, evenly
spread; the first, the last and the final frame always stay).

The file is a lossless animated WebP (see :data:`FORMAT` for the measurements behind the choice).
Pure: Pillow and the engines only, so the bot runs it in a worker process.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from PIL import Image, ImageDraw

from engines.base import ALWAYS, GameState
from engines.registry import MissingPart
from engines.registry import engine as registered_engine
from render import registry, theme
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
# The caption strip: readable where Discord's phone layout shows a picture about 280 px wide
# (beside the avatar gutter; issue #28), at the theme's least cap height.
PHONE_WIDTH = 280
CAPTION_BAND = theme.BLACK
CAPTION_PAD = 0.35  # strip padding around the lines, in font sizes
CAPTION_LEADING = 1.2  # line height, in font sizes
MAX_CAPTION_LINES = 4  # a longer caption leaves out sentences from its middle (see _caption_lines)
ELLIPSIS = "\u2026"
# Actions that end a game without a move: events, not moves (engines.base: resign, forfeit).
CONCESSIONS = frozenset(ALWAYS)
# Characters narrators use that Pillow's bundled font cannot draw.
PRINTABLE = str.maketrans({"\u2192": "-"})

Draw = Callable[..., theme.Picture]


@dataclass(frozen=True)
class Frame:
    image: Image.Image  # the picture and its caption strip
    caption: str
    duration_ms: int


@dataclass(frozen=True)
class Shot:
    """A frame before it is drawn: the picture after ``after`` actions (the final frame: None),
    its caption's counter ("move 3 of 40") and the narrator's sentences."""

    after: int | None
    head: str
    sentences: tuple[str, ...]
    duration_ms: int

    @property
    def caption(self) -> str:
        return f"{self.head}: {' '.join(self.sentences)}".rstrip()


T = TypeVar("T", Frame, Shot)


@dataclass(frozen=True)
class ReplayKind:
    """A game's choices: which picture a frame shows, which actions make a frame, and how its
    caption counts them."""

    unit: str  # what the replay counts: "move" or "round"
    picture: Draw  # the picture after an action that makes a frame
    final: Draw  # the finished game's public picture, as on its message (takes ending=)
    narrate: Callable[[Any, Sequence[str]], str]
    # The counter of a frame's caption; it agrees with the picture's own (Octego's board counts
    # the move to play: "move 5" is the position after move 4).
    counter: str = "move {n} of {total}"
    frame_on: str | None = None  # the event kind that makes a frame; None: every move


class _ReplayKinds(Mapping[str, ReplayKind]):
    """Every registered game that has a replay (render/registry.py), looked up when asked, so a
    game registered later is replayable at once."""

    def __getitem__(self, game: str) -> ReplayKind:
        try:
            entry = registry.pictures(game)
        except MissingPart:
            raise KeyError(game) from None
        if entry.replay is None:
            raise KeyError(game)
        plan = entry.replay
        frame = plan.frame or entry.public_picture
        return ReplayKind(plan.unit, frame, entry.public_picture, entry.narrate, plan.counter, plan.frame_on)

    def __iter__(self) -> Iterator[str]:
        return (game for game in registry.games() if game in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


KINDS: Mapping[str, ReplayKind] = _ReplayKinds()


def counted(game: str, count: int) -> str:
    """A replay's length as its alt text and final caption say it: "6 moves", "1 round"."""
    unit = KINDS[game].unit
    return f"{count} {unit}{'' if count == 1 else 's'}"


def length(game: str, state: GameState, actions: Sequence[tuple[int, dict]]) -> str:
    """The length of a finished game as its replay counts it ("6 moves", "2 rounds"), without
    replaying it: for the bot's line above a replay."""
    return counted(game, played(game, state, actions))


def counts_rounds(game: str) -> bool:
    """Whether the game's length is its rounds (Octagion), read from its state alone."""
    return KINDS[game].frame_on is not None


def played(game: str, state: GameState, actions: Sequence[tuple[int, dict]]) -> int:
    """How long a finished game was, as every length shown counts it (the replay, `/history`): its
    moves, leaving out a resignation or a loss on time (events, not moves); Octagion its scored
    rounds (``actions`` unused)."""
    if counts_rounds(game):
        return len(state.history)
    return sum(action.get("type") not in CONCESSIONS for _, action in actions)


# ---------------------------------------------------------------- the plan: captions, no pictures


@dataclass(frozen=True)
class _Plan:
    shots: list[Shot]  # the move frames, then the final frame
    state: GameState  # the finished game
    final: Image.Image  # the final public picture's pixels (RGB)
    strip: int  # the caption strip's height in px
    size: tuple[int, int]  # every frame's: the final picture above the strip


def _plan(
    game: str,
    players: int,
    options: dict,
    seed: int,
    actions: Sequence[tuple[int, dict]],
    names: Sequence[str],
    ending: str | None,
) -> _Plan:
    """The first pass: the game replayed without drawing a frame, for every caption, the final
    picture and the canvas they share."""
    kind = KINDS[game]
    engine = registered_engine(game)
    state = engine.new_game(players, options, seed)
    moves: list[tuple[int, tuple[str, ...]]] = []
    conceded: tuple[str, ...] = ()
    for index, (seat, action) in enumerate(actions, 1):
        state = engine.apply(state, seat, action)
        words = _sentences(kind, state, names)
        if action.get("type") in CONCESSIONS:  # an event, not a move: the final caption tells it
            conceded = words
        elif kind.frame_on is None or any(event.kind == kind.frame_on for event in state.events):
            moves.append((index, words))
    if not state.over and not ending:
        raise ValueError("a replay is only drawn for a finished game, or one stopped (its ending says how)")
    total, each = len(moves), _frame_ms(len(moves))
    shots = [
        Shot(index, kind.counter.format(n=n, total=total), words, each) for n, (index, words) in enumerate(moves, 1)
    ]
    if conceded and actions[-1][1].get("type") not in CONCESSIONS:
        conceded = ()  # a member left earlier and their team played on: the result tells the end
    closing = conceded or (f"{outcome_phrase(state.outcome, names) if state.over else ending}.",)
    shots.append(Shot(None, counted(game, total), closing, FINAL_MS))
    final = _pixels(kind.final, state, names, ending).convert("RGB")
    size = caption_size(final.width)
    lines = max(len(_caption_lines(shot, size, final.width)) for shot in shots)
    strip = _strip_height(size, lines)
    return _Plan(shots, state, final, strip, (final.width, final.height + strip))


def _sentences(kind: ReplayKind, state: GameState, names: Sequence[str]) -> tuple[str, ...]:
    return tuple(filter(None, (kind.narrate(event, names) for event in state.events)))


def _pixels(draw: Draw, state: GameState, names: Sequence[str], ending: str | None = None) -> Image.Image:
    """The picture's pixels as its PNG decodes them, without writing the PNG."""
    with theme.capturing_images() as images:
        if ending:
            draw(state, names, ending=ending)
        else:
            draw(state, names)
    return images[-1]


def _frame_ms(count: int) -> int:
    """Frames of a long game go faster, so its replay lasts about :data:`PLAY_MS` (in hundredths
    of a second, which a GIF can also keep)."""
    share = PLAY_MS // max(count, 1)
    return max(MIN_FRAME_MS, min(FRAME_MS, share)) // 10 * 10


# ---------------------------------------------------------------- frames, drawn one at a time


def replay_frames(
    game: str, players: int, options: dict, seed: int, actions: Sequence[tuple[int, dict]], names: Sequence[str]
) -> list[Frame]:
    """The frames of a finished game's replay, all of them at once (for tests and a short game;
    :func:`replay_picture` never holds them): one per move (Octagion: per round) with its caption,
    then the final public picture with the game's length and result. All frames share one size."""
    plan = _plan(game, players, options, seed, actions, names, None)
    return list(_frames(game, players, options, seed, actions, names, plan, plan.shots))


def _frames(
    game: str,
    players: int,
    options: dict,
    seed: int,
    actions: Sequence[tuple[int, dict]],
    names: Sequence[str],
    plan: _Plan,
    shots: Sequence[Shot],
) -> Iterator[Frame]:
    """``shots`` drawn in order, each when asked for: the game is replayed again and a picture is
    drawn only after an action that has a shot."""
    kind = KINDS[game]
    engine = registered_engine(game)
    wanted = {shot.after: shot for shot in shots if shot.after is not None}
    state = engine.new_game(players, options, seed)
    for index, (seat, action) in enumerate(actions, 1):
        state = engine.apply(state, seat, action)
        if index in wanted:
            shot = wanted[index]
            picture = _on_canvas(_pixels(kind.picture, state, names), plan.final.size)
            yield Frame(_captioned(picture, shot, plan), shot.caption, shot.duration_ms)
    for shot in shots:
        if shot.after is None:
            yield Frame(_captioned(plan.final, shot, plan), shot.caption, shot.duration_ms)


def _on_canvas(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` in RGB on a canvas of the final picture's size: a smaller picture sits at the
    top on the background; a larger one (an Octa table before a run left it, an Octagion round
    result taller than the score sheet) is scaled down to fit, so that the last frame can hold
    the final picture itself."""
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


def caption_size(width: int) -> int:
    """The caption's font size in a frame ``width`` px wide: a capital letter at least
    ``theme.PHONE_MIN_CAP`` px tall once the frame is shown :data:`PHONE_WIDTH` px wide."""
    size = 8
    while theme.cap_height(size) * PHONE_WIDTH / width < theme.PHONE_MIN_CAP:
        size += 1
    return size


def _strip_height(size: int, lines: int) -> int:
    return 2 * round(size * CAPTION_PAD) + lines * round(size * CAPTION_LEADING)


def _caption_lines(shot: Shot, size: int, width: int) -> list[str]:
    """The caption wrapped between words to the strip's width, in at most
    :data:`MAX_CAPTION_LINES` lines. A longer one (a computer's turn of many skips, an Octiles
    move through many tiles) loses whole parts, never half a word: sentences from the middle,
    marked "…", keeping the move and the last sentence (often the result), then the last one too
    (the final frame tells the result), then the move's asides in brackets, longest first; only
    a move still too long without them is cut at the end of its last line."""
    inner = width - 2 * round(size * CAPTION_PAD)
    for sentences in _shorter(shot.sentences):
        lines = theme.wrap(f"{shot.head}: {' '.join(sentences)}".translate(PRINTABLE), size, inner)
        if len(lines) <= MAX_CAPTION_LINES:
            return lines
    text = f"{shot.head}: {' '.join(sentences)}".translate(PRINTABLE)
    return theme.fit_lines(text, size, inner, MAX_CAPTION_LINES)


_ASIDE = re.compile(r" \([^()]*\)")


def _shorter(sentences: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """``sentences``, then ever shorter versions of them, as :func:`_caption_lines` tries them."""
    yield sentences
    first, *rest = sentences or ("",)
    if rest:
        *middle, last = rest
        for keep in range(len(middle) - 1, -1, -1):
            yield (first, *middle[:keep], ELLIPSIS, last)
    tail = (ELLIPSIS,) if rest else ()
    while asides := _ASIDE.findall(first):
        first = first.replace(max(asides, key=len), "", 1)
        yield (first, *tail)


def _captioned(picture: Image.Image, shot: Shot, plan: _Plan) -> Image.Image:
    """``picture`` above the caption strip on a canvas of its own (the picture's pixels as they
    are): the counter ("move 12 of 40:") in the highlight colour, then the narrator's words."""
    width, height = plan.size
    image = Image.new("RGB", plan.size, CAPTION_BAND)
    image.paste(picture, (0, 0))
    size = caption_size(width)
    pad, leading = round(size * CAPTION_PAD), round(size * CAPTION_LEADING)
    lines = _caption_lines(shot, size, width)
    top = height - plan.strip + pad + (plan.strip - 2 * pad - len(lines) * leading) / 2
    head = f"{shot.head}:"
    for number, line in enumerate(lines):
        middle = top + (number + 0.5) * leading
        rest = line
        if number == 0 and line.startswith(head):
            theme.write(image, (pad, middle), head, size, theme.HIGHLIGHT, anchor="lm")
            rest = line[len(head) :].lstrip()
            x = pad + theme.font(size).getlength(head + " ")
        else:
            x = pad
        if rest:
            _write_direct(image, (x, middle), rest, size)
    return image


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
    ``max_bytes``: intermediate move frames are dropped evenly until it fits. ``ending``: the
    final picture's header, as the game message drew it (a clock forfeit, a resignation).

    Frames are drawn as the encoder takes them, never all held; a file over the limit is drawn
    again with fewer frames."""
    plan = _plan(game, players, options, seed, actions, names, ending)
    shots = plan.shots
    description = _description(game, plan.state, names, len(shots) - 1, ending)

    def encoded(chosen: list[Shot]) -> bytes:
        frames = _frames(game, players, options, seed, actions, names, plan, chosen)
        return _webp(frames, [shot.duration_ms for shot in chosen], plan.size)

    data = encoded(shots)
    while len(data) > max_bytes and len(shots) > 3:
        keep = max(3, int(len(shots) * max_bytes / len(data) * SIZE_MARGIN))
        shots = thinned(shots, min(keep, len(shots) - 1))
        data = encoded(shots)
    if len(data) > max_bytes:
        raise ValueError(f"a replay of {len(shots)} frames is {len(data)} bytes, over {max_bytes}")
    return theme.Picture(data, description, f"{game}-replay.{FORMAT}")


def thinned(frames: Sequence[T], count: int) -> list[T]:
    """``count`` frames (at least 3): the first move frame, the last one and the final frame,
    and move frames evenly spread between, each shown as long as a game of that many moves."""
    moves, final = list(frames[:-1]), frames[-1]
    wanted = max(2, count - 1)
    if len(moves) <= wanted:
        return [*moves, final]
    picks = sorted({round(i * (len(moves) - 1) / (wanted - 1)) for i in range(wanted)})
    kept = [replace(moves[index], duration_ms=_frame_ms(wanted)) for index in picks]
    return [*kept, final]


def encode(frames: Sequence[Frame], file_format: str = FORMAT) -> bytes:
    """Frames already drawn as a looping animation in ``file_format`` ("webp" or "gif", kept for
    comparison in the benchmark)."""
    durations = [frame.duration_ms for frame in frames]
    if file_format == "gif":
        return _gif(frames, durations)
    return _webp(iter(frames), durations, frames[0].image.size)


class _Animation(Image.Image):
    """Frames handed to Pillow's animated writer one at a time: the writer seeks frame after
    frame (a multi-frame image, as a file's frames are), and each seek takes the next frame from
    ``frames``, drawn only then; the one before is let go."""

    def __init__(self, frames: Iterator[Frame], count: int) -> None:
        super().__init__()
        self._frames, self._count, self._at = frames, count, -1
        self.seek(0)

    @property
    def n_frames(self) -> int:
        return self._count

    @property
    def is_animated(self) -> bool:
        return self._count > 1

    def tell(self) -> int:
        return self._at

    def seek(self, frame: int) -> None:
        if frame <= self._at:  # the writer goes back to frame 0 once done: nothing to draw again
            return
        while self._at < frame:
            image = next(self._frames).image
            self._at += 1
        self.im, self._mode, self._size = image.im, image.mode, image.size


def _webp(frames: Iterator[Frame], durations: Sequence[int], size: tuple[int, int]) -> bytes:
    """Lossless animated WebP; every frame after the first stores only the rectangle that changed
    (no key frames: a replay is watched from the start). Method 1 at quality 0 is libwebp's
    fastest lossless effort that still compresses (method 0 doubles the size). The frames are
    drawn as the writer takes them (:class:`_Animation`)."""
    animation = _Animation(frames, len(durations))
    if animation.size != size:
        raise ValueError(f"frames of {animation.size}, not {size}")
    buffer = io.BytesIO()
    animation.save(
        buffer,
        format="WEBP",
        save_all=True,
        duration=list(durations),
        loop=0,
        lossless=True,
        method=1,
        quality=0,
        kmin=0,
        kmax=0,
    )
    return buffer.getvalue()


def _gif(frames: Iterable[Frame], durations: list[int]) -> bytes:
    """Animated GIF, each frame with its own 256-colour palette (exact for the final picture,
    already in 256 colours); Pillow stores the changed rectangle of each frame (and holds every
    frame while it writes: for the benchmark's comparison only)."""
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
        duration=durations,
        loop=0,
        disposal=1,
    )
    return buffer.getvalue()


def _description(game: str, state: GameState, names: Sequence[str], steps: int, ending: str | None) -> str:
    """Alt text: who played, the result (a stopped game: its ending) and the number of moves (Octagion: rounds)."""
    result = outcome_phrase(state.outcome, names) if state.outcome is not None else ending
    title = registered_engine(game).title
    return f"Replay of {title} ({', '.join(names[: state.players])}): {result}, {counted(game, steps)}."
