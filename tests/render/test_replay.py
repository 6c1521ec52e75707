"""Animated replays: every game, played to its end by computer players, replays as one frame per
move (Octagion: per round) plus the final frame, which holds the finished game's public picture
pixel for pixel; captions in a strip below the picture tell the moves, counted as the boards and
the alt text count them (a resignation is an event, not a move); the file stays under Discord's
limit, is the same every time, and is drawn a frame at a time."""

from __future__ import annotations

import importlib
import io
import re
import weakref
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from render import replay, theme
from render.registry import pictures
from tests.games import GAMES, IDS
from tests.render.pixels import colour_count

NAMES = ["Ada", "Bo", "Cy", "Di"]
SEED = 5
MOVE_LIMIT = 60  # a game still running after this many computer actions ends by resignation
# The picture on the game's message, as the bot draws it: pictures(game).public_picture.


def engine_of(game: str) -> Any:
    return importlib.import_module(f"engines.{game}")


def computer_game(game: str, players: int, options: dict, seed: int = SEED, limit: int = MOVE_LIMIT) -> list:
    """The actions of a game computer players finish (or, after ``limit`` actions, the seat to
    act resigns). Octagion: each seat sets its variant, then the round's timer ends it."""
    if game == "octagion":
        return octagion_game(players, options, seed)
    package = engine_of(game)
    state, log = package.ENGINE.new_game(players, options, seed), []
    while not state.over:
        seat = package.ENGINE.to_act(state)[0]
        action = package.choose_action(state, seat, "easy", seed) if len(log) < limit else {"type": "resign"}
        state = package.ENGINE.apply(state, seat, action)
        log.append((seat, action))
    return log


def octagion_game(players: int, options: dict, seed: int) -> list:
    package = engine_of("octagion")
    engine = package.ENGINE
    state, log = engine.new_game(players, options, seed), []

    def act(seat: int, action: dict) -> None:
        nonlocal state
        state = engine.apply(state, seat, action)
        log.append((seat, action))

    while not state.over:
        for seat in range(players):
            act(seat, package.choose_action(state, seat, "medium", seed))
        act(0, {"type": "end_round", "round": state.round})
        if not state.over:
            act(0, {"type": "next_round"})
    return log


@dataclass
class Replayed:
    game: str
    players: int
    options: dict
    actions: list
    frames: list[replay.Frame]
    picture: theme.Picture
    final_state: Any

    @property
    def names(self) -> list[str]:
        return NAMES[: self.players]


@pytest.fixture(scope="module", params=GAMES, ids=IDS)
def replayed(request) -> Replayed:
    game, players, options = request.param
    actions = computer_game(game, players, options)
    names = NAMES[:players]
    frames = replay.replay_frames(game, players, options, SEED, actions, names)
    picture = replay.replay_picture(game, players, options, SEED, actions, names)
    final = engine_of(game).ENGINE.replay(players, options, SEED, actions)
    return Replayed(game, players, options, actions, frames, picture, final)


def decoded(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame of an animated file as RGB, with its duration."""
    animation = Image.open(io.BytesIO(data))
    frames = []
    for index in range(animation.n_frames):
        animation.seek(index)
        frames.append((animation.convert("RGB"), animation.info["duration"]))
    return frames


def png_pixels(picture: theme.Picture) -> Image.Image:
    return Image.open(io.BytesIO(picture.png)).convert("RGB")


def on_canvas(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A picture on the replay's canvas (the final picture's size), as the replay places it."""
    return replay._on_canvas(image, size)


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def picture_part(frame: Image.Image, picture: Image.Image) -> Image.Image:
    """The part of a frame above its caption strip: the final picture's size, at the top."""
    return frame.crop((0, 0, frame.width, frame.height - strip_height(frame, picture)))


def strip_height(frame: Image.Image, picture: Image.Image) -> int:
    """The caption strip's height: whatever the frame has below the final picture's height."""
    return frame.height - picture.height


def without_asides(text: str) -> str:
    return re.sub(r" \([^()]*\)", "", text)


def is_subsequence(part: list[str], whole: list[str]) -> bool:
    remaining = iter(whole)
    return all(word in remaining for word in part)


def is_move(action: dict) -> bool:
    return action["type"] not in ("resign", "forfeit")


def plural(count: int, unit: str) -> str:
    return f"{count} {unit}{'' if count == 1 else 's'}"


@pytest.fixture
def caption_text(monkeypatch):
    """The texts drawn in each frame's caption strip (the picture is drawn before the strip's
    drawing starts), frame by frame: [[(text, font size), ...], ...]."""
    frames: list[list[tuple[str, int]]] = []
    drawing = [False]
    captioned, direct, write = replay._captioned, ImageDraw.ImageDraw.text, theme.write

    def in_strip(*args, **kwargs):
        frames.append([])
        drawing[0] = True
        try:
            return captioned(*args, **kwargs)
        finally:
            drawing[0] = False

    def text(self, xy, text, fill=None, font=None, *args, **kwargs):
        if drawing[0]:
            frames[-1].append((text, font.size))
        return direct(self, xy, text, fill, font, *args, **kwargs)

    def themed(image, xy, text, size, *args, **kwargs):
        if not drawing[0]:
            return write(image, xy, text, size, *args, **kwargs)
        frames[-1].append((text, size))
        drawing[0] = False  # the theme's own drawing of the same text is not a second text
        try:
            return write(image, xy, text, size, *args, **kwargs)
        finally:
            drawing[0] = True

    monkeypatch.setattr(replay, "_captioned", in_strip)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    monkeypatch.setattr(theme, "write", themed)
    return frames


@pytest.fixture
def drawn_text(monkeypatch):
    """Every (text, font size) drawn in a picture, by the theme or straight through Pillow."""
    direct = ImageDraw.ImageDraw.text
    with theme.recording_text() as log:

        def text(self, xy, text, fill=None, font=None, *args, **kwargs):
            log.append((text, getattr(font, "size", 0)))
            return direct(self, xy, text, fill, font, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
        yield log


# ---------------------------------------------------------------- frames


def test_a_replay_has_one_frame_per_move_or_round_plus_the_final_frame(replayed):
    if replayed.game == "octagion":
        rounds = len(replayed.final_state.history)
        assert rounds == replayed.options["rounds"]
        assert len(replayed.frames) == rounds + 1
    else:
        moves = [action for _, action in replayed.actions if is_move(action)]
        assert len(replayed.frames) == len(moves) + 1
    assert len(decoded(replayed.picture.png)) == len(replayed.frames)
    assert len({frame.image.size for frame in replayed.frames}) == 1


def test_the_last_frame_holds_the_final_public_picture_pixel_for_pixel(replayed):
    assert replayed.final_state.over
    public = png_pixels(pictures(replayed.game).public_picture(replayed.final_state, replayed.names))
    last, _ = decoded(replayed.picture.png)[-1]
    assert last.width == public.width
    assert last.height > public.height, "the caption strip is below the picture, on the same canvas"
    assert same_pixels(picture_part(last, public), public)


def test_every_decoded_frame_is_the_frame_drawn(replayed):
    """Lossless: the file shows exactly the frames, captions and all."""
    frames = decoded(replayed.picture.png)
    for frame, (image, _) in zip(replayed.frames, frames, strict=True):
        assert same_pixels(image, frame.image)


def test_captions_tell_each_move_with_the_narrators_words_and_end_on_the_result(replayed):
    game, names = replayed.game, replayed.names
    engine = engine_of(game).ENGINE
    narrate = importlib.import_module(f"render.{game}").narrate
    state = engine.new_game(replayed.players, replayed.options, SEED)
    told = []
    for seat, action in replayed.actions:
        state = engine.apply(state, seat, action)
        words = " ".join(filter(None, (narrate(event, names) for event in state.events)))
        if not is_move(action):
            ending = words  # the last action: Bo resigned. Ada won (resignation).
        elif game != "octagion" or any(event.kind == "round_end" for event in state.events):
            told.append(words)
            ending = f"{outcome_words(state.outcome, names)}." if state.over else ""
    unit = "round" if game == "octagion" else "move"
    counter = "after move" if game == "octego" else unit
    total = len(told)
    expected = [f"{counter} {n} of {total}: {words}".rstrip() for n, words in enumerate(told, 1)]
    assert [frame.caption for frame in replayed.frames] == [*expected, f"{plural(total, unit)}: {ending}"]


def outcome_words(outcome, names) -> str:
    if outcome.is_draw:
        return f"a draw ({outcome.reason})"
    return f"{' and '.join(names[seat] for seat in outcome.winners)} won ({outcome.reason})"


def test_octego_captions_count_as_its_board_does(drawn_text):
    """The board heads the position after move 4 "move 5" (the move to play) and the finished
    game "22 moves"; the caption says "after move 4" and the final one "22 moves"."""
    actions = computer_game("octego", 2, {}, limit=8)
    assert actions[-1] == (0, {"type": "resign"})
    picture = replay.replay_picture("octego", 2, {}, SEED, actions, ["Ada", "Bo"])
    frames = replay.replay_frames("octego", 2, {}, SEED, actions, ["Ada", "Bo"])
    moves = len(actions) - 1
    counters = [text for text, _ in drawn_text if re.fullmatch(r"move \d+|\d+ moves?", text)]
    for frame in frames[:-1]:
        after = int(re.match(r"after move (\d+) of (\d+):", frame.caption).group(1))
        assert f"move {after + 1}" in counters
    assert frames[0].caption.startswith(f"after move 1 of {moves}: Ada moved ")
    assert frames[1].caption.startswith(f"after move 2 of {moves}: Bo moved ")
    assert frames[-1].caption == f"{moves} moves: Ada resigned. Bo won (resignation)."
    assert f"{moves} moves" in counters, "the final board counts the moves, not the resignation"
    assert picture.description.endswith(f", {moves} moves.")
    assert len(frames) == moves + 1


def test_the_caption_is_a_strip_below_the_picture_never_over_it(replayed):
    engine = engine_of(replayed.game).ENGINE
    state = engine.new_game(replayed.players, replayed.options, SEED)
    for seat, action in replayed.actions:
        state = engine.apply(state, seat, action)
        if replayed.game != "octagion" or state.history:
            break
    final = png_pixels(pictures(replayed.game).public_picture(replayed.final_state, replayed.names))
    first = replayed.frames[0].image
    draw = replay.KINDS[replayed.game].picture
    picture = on_canvas(png_pixels(draw(state, replayed.names)), final.size)
    assert same_pixels(picture_part(first, final), picture), "the picture's pixels, untouched"
    strip = (0, final.height, first.width, first.height)
    assert colour_count(first, theme.HIGHLIGHT, strip) > 0, "the counter, in the highlight colour"
    assert colour_count(first, theme.INK, strip) > 0, "the narrator's words"
    assert strip_height(first, final) < first.height / 4


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_every_caption_is_drawn_whole_on_lines_readable_on_a_phone(game, players, options, caption_text):
    """Wrapped, never cut: the strip shows the whole caption, or (a computer's turn of many skips)
    the caption with whole sentences left out for "…", never the move's own sentence; every text
    at least 11 px tall once the frame is shown 280 px wide."""
    actions = computer_game(game, players, options)
    frames = replay.replay_frames(game, players, options, SEED, actions, NAMES[:players])
    assert len(caption_text) == len(frames)
    width = frames[0].image.width
    elided = 0
    for frame, drawn in zip(frames, caption_text, strict=True):
        assert all(theme.cap_height(size) * 280 / width >= theme.PHONE_MIN_CAP for _, size in drawn)
        assert 1 <= len(drawn) <= replay.MAX_CAPTION_LINES + 1, "the counter and at most that many lines"
        caption = frame.caption.replace("\u2192", "-")
        shown = " ".join(text for text, _ in drawn)
        if shown == caption:
            continue
        elided += 1
        head = caption.partition(": ")[0]
        assert shown.startswith(f"{head}: ")
        assert all(word == replay.ELLIPSIS or replay.ELLIPSIS not in word for word in shown.split()), "no cut word"
        words = [word for word in without_asides(shown).split() if word != replay.ELLIPSIS]
        assert is_subsequence(words, without_asides(caption).split()), "whole words of the caption, in order"
        assert shown.split(f" {replay.ELLIPSIS}")[0].endswith("."), "the move's sentence, to its end"
    if (game, players) == ("octagone", 4):
        assert elided > 0, "four computer skips do not fit: sentences are left out"
    if game == "octiles":  # its moves are long: they take several lines, still whole
        longest = max(range(len(frames)), key=lambda index: len(frames[index].caption))
        assert len(frames[longest].caption) > 120
        assert len(caption_text[longest]) >= 3


def test_the_final_frame_stays_longest(replayed):
    durations = [duration for _, duration in decoded(replayed.picture.png)]
    assert durations[-1] == replay.FINAL_MS
    assert all(duration < durations[-1] for duration in durations[:-1])


def test_the_file_is_under_discords_limit_and_named_for_its_format(replayed):
    assert len(replayed.picture.png) <= replay.MAX_BYTES
    assert replayed.picture.filename == f"{replayed.game}-replay.{replay.FORMAT}"
    assert Image.open(io.BytesIO(replayed.picture.png)).format == replay.FORMAT.upper()


def test_the_description_names_the_players_the_result_and_the_length(replayed):
    description = replayed.picture.description
    assert all(name in description for name in replayed.names)
    assert replayed.final_state.outcome.reason in description
    steps = len(replayed.frames) - 1
    unit = "round" if replayed.game == "octagion" else "move"
    assert description.endswith(f", {plural(steps, unit)}.")
    assert replayed.frames[-1].caption.startswith(f"{plural(steps, unit)}: ")
    assert replay.length(replayed.game, replayed.final_state, replayed.actions) == plural(steps, unit)


# ---------------------------------------------------------------- resignation, determinism, refusal


@pytest.mark.parametrize("concession", ["resign", "forfeit"])
@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_a_conceded_game_replays_and_is_the_same_every_time(game, players, options, concession):
    """A resignation or a loss on time is an event: no frame of its own, no move counted; the
    final frame's caption tells it."""
    actions = computer_game(game, players, options, limit=4)
    if actions[-1][1]["type"] == "resign":
        actions = [*actions[:-1], (actions[-1][0], {"type": concession})]
    if game == "octagion":  # the first round is played; then Ada, alone in her team, leaves
        actions = [*octagion_game(players, options, SEED)[: players + 2], (0, {"type": concession})]
    names = NAMES[:players]
    final = engine_of(game).ENGINE.replay(players, options, SEED, actions)
    assert final.over
    assert any(event.kind == concession for event in final.events)
    first = replay.replay_picture(game, players, options, SEED, actions, names)
    again = replay.replay_picture(game, players, options, SEED, actions, names)
    assert first == again
    frames = decoded(first.png)
    drawn = replay.replay_frames(game, players, options, SEED, actions, names)
    narrate = importlib.import_module(f"render.{game}").narrate
    told = " ".join(filter(None, (narrate(event, names) for event in final.events)))
    assert told.startswith(names[actions[-1][0]])
    if game == "octagion":
        assert len(frames) == len(final.history) + 1 == 2
        assert drawn[-1].caption == f"1 round: {told}"
    else:
        moves = len(actions) - 1
        assert len(frames) == moves + 1
        assert drawn[-2].caption.startswith(f"move {moves} of {moves}:") or drawn[-2].caption.startswith(
            f"after move {moves} of {moves}:"
        )
        assert drawn[-1].caption == f"{plural(moves, 'move')}: {told}"
    public = png_pixels(pictures(game).public_picture(final, names))
    assert same_pixels(picture_part(frames[-1][0], public), public)


def test_a_game_still_running_is_not_replayed():
    actions = computer_game("octagone", 2, {})[:-1]
    with pytest.raises(ValueError, match="finished"):
        replay.replay_frames("octagone", 2, {}, SEED, actions, ["Ada", "Bo"])


# ---------------------------------------------------------------- bounded memory


def frames_alive(monkeypatch) -> list[int]:
    """After each frame is drawn, how many drawn frames are still held anywhere."""
    drawn: list[weakref.ref] = []
    alive: list[int] = []
    captioned = replay._captioned

    def watched(*args, **kwargs):
        image = captioned(*args, **kwargs)
        drawn.append(weakref.ref(image))
        alive.append(sum(ref() is not None for ref in drawn))
        return image

    monkeypatch.setattr(replay, "_captioned", watched)
    return alive


def test_a_replay_is_encoded_as_its_frames_are_drawn_holding_one_at_a_time(monkeypatch):
    actions = computer_game("octego", 2, {})
    alive = frames_alive(monkeypatch)
    picture = replay.replay_picture("octego", 2, {}, SEED, actions, ["Ada", "Bo"])
    assert len(alive) == len(decoded(picture.png)) == len(actions) + 1
    assert max(alive) <= 2, "the frame being drawn and, at most, the one the encoder just took"


def test_a_thinned_replay_draws_its_fewer_frames_again_one_at_a_time(monkeypatch):
    actions = computer_game("octego", 2, {})
    names = ["Ada", "Bo"]
    full = replay.encode(replay.replay_frames("octego", 2, {}, SEED, actions, names))
    alive = frames_alive(monkeypatch)
    small = replay.replay_picture("octego", 2, {}, SEED, actions, names, max_bytes=len(full) // 2)
    kept = len(decoded(small.png))
    assert kept < len(actions) + 1
    assert len(alive) >= len(actions) + 1 + kept, "a first drawing of every frame, then the kept ones"
    assert max(alive) <= 2


# ---------------------------------------------------------------- size limit


def test_a_replay_over_the_limit_drops_middle_frames_but_keeps_first_last_and_final():
    actions = computer_game("octego", 2, {})
    names = ["Ada", "Bo"]
    frames = replay.replay_frames("octego", 2, {}, SEED, actions, names)
    full = replay.encode(frames)
    limit = len(full) // 2
    small = replay.replay_picture("octego", 2, {}, SEED, actions, names, max_bytes=limit)
    kept = decoded(small.png)
    assert len(small.png) <= limit
    assert 3 <= len(kept) < len(frames)
    assert same_pixels(kept[0][0], frames[0].image)
    assert same_pixels(kept[-2][0], frames[-2].image)
    assert same_pixels(kept[-1][0], frames[-1].image)
    assert kept[-1][1] == replay.FINAL_MS


def test_thinning_spreads_the_kept_frames_evenly():
    frames = [replay.Frame(Image.new("RGB", (4, 4)), f"move {n}", 1200) for n in range(1, 101)]
    frames.append(replay.Frame(Image.new("RGB", (4, 4)), "", replay.FINAL_MS))
    kept = replay.thinned(frames, 11)
    moves = [1, 12, 23, 34, 45, 56, 67, 78, 89, 100]
    assert [frame.caption for frame in kept] == [f"move {n}" for n in moves] + [""]
    assert kept[-1].duration_ms == replay.FINAL_MS
    assert all(frame.duration_ms < replay.FINAL_MS for frame in kept[:-1])


def test_a_picture_larger_than_the_final_one_is_scaled_down_onto_its_canvas():
    tall = Image.new("RGB", (480, 960), (200, 10, 10))
    placed = replay._on_canvas(tall, (480, 480))
    assert placed.size == (480, 480)
    assert placed.getpixel((240, 10)) == (200, 10, 10), "the picture, half size, centred at the top"
    assert placed.getpixel((10, 10)) == theme.BACKGROUND[:3]
