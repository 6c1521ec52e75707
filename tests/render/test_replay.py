"""Animated replays: every game, played to its end by computer players, replays as one frame per
action (Octagion: per round) plus the final frame, which is the finished game's public picture
pixel for pixel; captions tell the moves, the file stays under Discord's limit and is the same
every time."""

from __future__ import annotations

import importlib
import io
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageChops

from render import octa, octagion, octagone, octego, octiles, replay, theme
from tests.games import GAMES, IDS
from tests.render.pixels import colour_count

NAMES = ["Ada", "Bo", "Cy", "Di"]
SEED = 5
MOVE_LIMIT = 60  # a game still running after this many computer actions ends by resignation
# The picture on the game's message, as the bot draws it (bot/games/<game>.py public_picture).
PUBLIC_PICTURE = {
    "octego": lambda state, names: octego.render_board(state, names, None),
    "octa": lambda state, names: octa.render_table(state, names, None),
    "octagone": lambda state, names: octagone.render_board(state, names, None),
    "octiles": lambda state, names: octiles.render_board(state, names),
    "octagion": lambda state, names: octagion.render_scoresheet(state, names),
}


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


# ---------------------------------------------------------------- frames


def test_a_replay_has_one_frame_per_action_or_round_plus_the_final_frame(replayed):
    if replayed.game == "octagion":
        rounds = len(replayed.final_state.history)
        assert rounds == replayed.options["rounds"]
        assert len(replayed.frames) == rounds + 1
    else:
        assert len(replayed.frames) == len(replayed.actions) + 1
    assert len(decoded(replayed.picture.png)) == len(replayed.frames)
    assert len({frame.image.size for frame in replayed.frames}) == 1


def test_the_last_frame_is_the_final_public_picture_pixel_for_pixel(replayed):
    assert replayed.final_state.over
    public = png_pixels(PUBLIC_PICTURE[replayed.game](replayed.final_state, replayed.names))
    last, _ = decoded(replayed.picture.png)[-1]
    assert same_pixels(last, on_canvas(public, last.size))
    # Octa's table grows during a game and Octagion's round results are taller than its score
    # sheet: their frames share the largest size, the picture at the top of it.
    if replayed.game not in ("octa", "octagion"):
        assert last.size == public.size


def test_every_decoded_frame_is_the_frame_drawn(replayed):
    """Lossless: the file shows exactly the frames, captions and all."""
    frames = decoded(replayed.picture.png)
    for frame, (image, _) in zip(replayed.frames, frames, strict=True):
        assert same_pixels(image, frame.image)


def test_captions_tell_each_action_with_the_narrators_words(replayed):
    game, names = replayed.game, replayed.names
    engine = engine_of(game).ENGINE
    narrate = importlib.import_module(f"render.{game}").narrate
    state = engine.new_game(replayed.players, replayed.options, SEED)
    expected = []
    for seat, action in replayed.actions:
        state = engine.apply(state, seat, action)
        if game != "octagion" or any(event.kind == "round_end" for event in state.events):
            words = " ".join(filter(None, (narrate(event, names) for event in state.events)))
            unit = "round" if game == "octagion" else "move"
            expected.append(f"{unit} {len(expected) + 1}: {words}".rstrip())
    assert [frame.caption for frame in replayed.frames] == [*expected, ""]


def test_octego_captions_read_as_moves():
    actions = computer_game("octego", 2, {})
    frames = replay.replay_frames("octego", 2, {}, SEED, actions, ["Ada", "Bo"])
    assert frames[0].caption.startswith("move 1: Ada moved ")
    assert frames[1].caption.startswith("move 2: Bo moved ")


def test_the_caption_is_drawn_over_the_picture_in_the_highlight_colour(replayed):
    engine = engine_of(replayed.game).ENGINE
    state = engine.new_game(replayed.players, replayed.options, SEED)
    for seat, action in replayed.actions:
        state = engine.apply(state, seat, action)
        if replayed.game != "octagion" or state.history:
            break
    draw = replay.KINDS[replayed.game].picture
    picture = on_canvas(png_pixels(draw(state, replayed.names)), replayed.frames[0].image.size)
    changed = ImageChops.difference(picture, replayed.frames[0].image).getbbox()
    assert changed is not None
    left, top, right, bottom = changed
    width, height = picture.size
    assert (left, right) == (0, width), "the caption is a band across the picture"
    assert top == 0 or bottom == height, "at its top or its bottom"
    assert bottom - top < height / 5
    assert colour_count(replayed.frames[0].image, theme.HIGHLIGHT, changed) > 0


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
    assert f"{steps} {'round' if replayed.game == 'octagion' else 'move'}" in description


def test_caption_text_is_readable_on_a_phone():
    actions = computer_game("octagone", 2, {})
    with theme.recording_text() as log:
        frames = replay.replay_frames("octagone", 2, {}, SEED, actions, ["Ada", "Bo"])
    counters = [size for text, size in log if text == "move 1:"]
    assert counters
    assert min(counters) >= theme.min_text_size(frames[0].image.width)


# ---------------------------------------------------------------- resignation, determinism, refusal


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_a_resigned_game_replays_and_is_the_same_every_time(game, players, options):
    actions = computer_game(game, players, options, limit=4)
    if game == "octagion":  # the first round is played; then Ada, alone in her team, leaves
        actions = [*octagion_game(players, options, SEED)[: players + 2], (0, {"type": "resign"})]
    names = NAMES[:players]
    final = engine_of(game).ENGINE.replay(players, options, SEED, actions)
    assert final.over
    assert any(event.kind == "resign" for event in final.events)
    first = replay.replay_picture(game, players, options, SEED, actions, names)
    again = replay.replay_picture(game, players, options, SEED, actions, names)
    assert first == again
    frames = decoded(first.png)
    if game == "octagion":
        assert len(frames) == len(final.history) + 1 == 2
    else:
        assert len(frames) == len(actions) + 1
        resigned = replay.replay_frames(game, players, options, SEED, actions, names)[-2]
        assert resigned.caption.startswith(f"move {len(actions)}: {names[actions[-1][0]]} resigned.")
    public = png_pixels(PUBLIC_PICTURE[game](final, names))
    assert same_pixels(frames[-1][0], on_canvas(public, frames[-1][0].size))


def test_a_game_still_running_is_not_replayed():
    actions = computer_game("octagone", 2, {})[:-1]
    with pytest.raises(ValueError, match="finished"):
        replay.replay_frames("octagone", 2, {}, SEED, actions, ["Ada", "Bo"])


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
