"""Finished games watched again (issue #18): the Replay button, `/<game> replay`, `/<game> record`
and `/history`, for every game, through the real bot."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.dev.world import bot_member, private_texts
from bot.games import adapter as registered_adapter
from bot.games import all_games
from engines.octagion import solution
from engines.record import read_record, replay_record
from engines.registry import engine as registered_engine
from engines.registry import games as registered_games
from render.registry import pictures

# Registered games whose replay is tested here otherwise than by a two-player challenge: the test
# that does it. Every other registered game is challenged, played and replayed (CHALLENGED).
OWN_REPLAY_TESTS = {"octagion": "test_octagion_replays_one_frame_per_round"}  # a lobby; a frame per round
CHALLENGED = [game for game in registered_games() if game not in OWN_REPLAY_TESTS]


@pytest.fixture
def games():
    return all_games()


def attachment_bytes(world, message) -> bytes:
    return world.env.backend.cdn.get(message.attachments[0].url)


def frames_expected(session) -> int:
    """A frame per move, then the final board: a resignation is told in the last caption, not drawn."""
    resigned = any(event.kind == "resign" for event in session.state.events)
    return session.action_number - resigned + 1


def on_top(frame: Image.Image, picture: Image.Image) -> bool:
    """Whether ``picture`` is the top of ``frame``, pixel for pixel (the caption strip is below it)."""
    return frame.crop((0, 0, picture.width, picture.height)).tobytes() == picture.tobytes()


def record_id(record) -> int:
    return int(record.extra["GameId"])


def frames_of(data: bytes) -> list[Image.Image]:
    animation = Image.open(io.BytesIO(data))
    frames = []
    for index in range(animation.n_frames):
        animation.seek(index)
        frames.append(animation.convert("RGB"))
    return frames


async def play(world, game: str, moves: int, seed: int = 3):
    """Ada challenges Bo; the seats to act play ``moves`` actions chosen by the computer player,
    each through the one action path every button and command ends in."""
    world.platform.new_seed = lambda: seed
    await world.ada.slash(world.channel, f"{game} challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    session = await world.session()
    adapter = world.platform.games[game]
    for number in range(moves):
        if session.status != "active":
            break
        seat = adapter.engine.to_act(session.state)[0]
        action = type(adapter).computer_player(session.state, seat, "easy", number)
        session = await world.platform.sessions.act(session.id, session.players[seat], action, seat=seat)
    await world.platform.outbox.flush(session.id)
    return session


async def finish_by_resigning(world, game: str, moves: int):
    session = await play(world, game, moves)
    if session.status == "active":
        await world.bo.slash(world.channel, f"{game} resign")
    finished = await world.platform.sessions.load(session.id)
    assert finished.status == "finished"
    await world.platform.outbox.flush(session.id)
    return finished


@pytest.mark.parametrize("game", registered_games())
def test_every_registered_game_s_replay_is_tested_here(game):
    if game in OWN_REPLAY_TESTS:
        assert OWN_REPLAY_TESTS[game] in globals(), f"{game}: its replay test {OWN_REPLAY_TESTS[game]} is gone"
        return
    own = "give it a replay test of its own (OWN_REPLAY_TESTS)"
    assert registered_adapter(game).challengeable, f"{game}: not started by a challenge: {own}"
    engine = registered_engine(game)
    assert engine.min_players <= 2 <= engine.max_players, f"{game}: not played by two: {own}"
    replay = pictures(game).replay
    assert replay is not None, f"{game}: no replay (render/registry.py)"
    assert replay.unit == "move", f"{game}: its replay counts {replay.unit}s, not a frame per move: {own}"


@pytest.mark.parametrize("game", CHALLENGED)
async def test_the_replay_button_posts_one_frame_per_action_ending_on_the_final_board(world, game):
    session = await finish_by_resigning(world, game, 12)
    message = world.message(session.record.message_id)
    assert "Replay" in [child.label for row in message.components for child in row.children]

    clicked = await world.cy.click(message, label="Replay")  # anyone in the server may watch
    posted = world.channel.last_message
    assert posted.id != message.id
    assert not posted.flags.ephemeral, "the replay is posted in the channel"
    assert posted.content.startswith(f"🎞️ Replay of {world.platform.games[game].title} #{session.id}")
    assert not private_texts(clicked)
    data = attachment_bytes(world, posted)
    assert len(data) < 8 * 1024 * 1024
    frames = frames_of(data)
    assert len(frames) == frames_expected(session)
    final_board = Image.open(io.BytesIO(attachment_bytes(world, message))).convert("RGB")
    assert frames[-1].width == final_board.width
    assert on_top(frames[-1], final_board), "the last frame is the final board, its caption strip below it"


async def test_octagion_replays_one_frame_per_round(world):
    world.platform.new_seed = lambda: 5
    await world.ada.slash(world.channel, "octagion start", rounds=2)
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    for _ in range(2):
        session = await world.session()
        word = session.state.words[0]
        await world.ada.slash(world.channel, "octagion play", cards=" ".join(solution(word)))
        await world.ada.click(world.message(session.record.message_id), label="Got it!")
        await world.env.advance_time(60)
    final = world.channel.last_message
    assert final.attachments[0].filename == "octagion-scores.png"

    await world.bo.slash(world.channel, "replay")
    posted = world.channel.last_message
    frames = frames_of(attachment_bytes(world, posted))
    assert len(frames) == 2 + 1, "one frame per round, then the score sheet"
    sheet = Image.open(io.BytesIO(attachment_bytes(world, final))).convert("RGB")
    assert on_top(frames[-1], sheet)

    result = await world.bo.slash(world.channel, "record")
    answer = [m for m in [result.response, *result.followups] if m is not None and m.attachments][-1]
    engine = world.platform.games["octagion"].engine
    record = read_record(engine, attachment_bytes(world, answer).decode())
    session = await world.platform.sessions.load(record_id(record))
    assert engine.dump(replay_record(engine, record)) == engine.dump(session.state)


async def test_a_replay_works_after_a_restart(world, settings, games):
    session = await finish_by_resigning(world, "octego", 6)
    await world.restart(settings, games)
    await world.ada.click(world.message(session.record.message_id), label="Replay")
    frames = frames_of(attachment_bytes(world, world.channel.last_message))
    assert len(frames) == frames_expected(session)


async def test_a_game_in_progress_has_no_replay_or_record(world):
    session = await play(world, "octa", 4)
    hands_before = session.state
    for command in ("replay", "record"):
        result = await world.cy.slash(world.channel, command, game_id=session.id)
        assert private_texts(result) == ["That game is still being played: its replay and record come once it ends."]
        assert all(m.flags.ephemeral for m in [result.response, *result.followups] if m is not None)
    assert (await world.session()).state == hands_before
    assert not any(m.content.startswith("🎞️") for m in world.channel.history())


async def test_refusals_name_the_channel_and_the_server(world):
    missing = await world.ada.slash(world.channel, "replay")
    assert private_texts(missing)[-1].startswith("No game has finished in this channel yet.")
    unknown = await world.ada.slash(world.channel, "replay", game_id=999)
    assert private_texts(unknown)[-1] == "There is no game #999 in this server."
    session = await finish_by_resigning(world, "octiles", 3)
    found = await world.ada.slash(world.channel, "record", game_id=session.id)
    files = [m.attachments[0].filename for m in [found.response, *found.followups] if m is not None and m.attachments]
    assert files == [f"octiles-{session.id}.txt"], "any game's number, whatever the game"


@pytest.mark.parametrize("game", CHALLENGED)
async def test_a_record_loads_back_into_the_engine_to_the_same_final_state(world, game):
    session = await finish_by_resigning(world, game, 10)
    result = await world.bo.slash(world.channel, "record")
    answer = [m for m in [result.response, *result.followups] if m is not None and m.attachments][-1]
    assert answer.flags.ephemeral
    assert answer.attachments[0].filename == f"{game}-{session.id}.txt"
    text = attachment_bytes(world, answer).decode()
    assert "Ada" in text
    assert "Bo" in text
    engine = world.platform.games[game].engine
    record = read_record(engine, text)
    assert len(record.actions) == session.action_number
    assert engine.dump(replay_record(engine, record)) == engine.dump(session.state)


async def test_an_octego_record_writes_moves_in_the_game_s_notation(world):
    session = await finish_by_resigning(world, "octego", 4)
    result = await world.ada.slash(world.channel, "record", game_id=session.id)
    text = attachment_bytes(world, [m for m in [result.response, *result.followups] if m and m.attachments][-1])
    logged = await world.platform.store.logged_moves(session.id)
    first_path = logged[0].action["path"]
    assert f": {first_path}" in text.decode()


async def test_history_lists_the_last_games_newest_first_with_a_replay_choice(world):
    ids = []
    for game in ("octego", "octiles", "octa"):
        ids.append((await finish_by_resigning(world, game, 2)).id)
    result = await world.cy.slash(world.channel, "history", member=world.ada)
    answer = private_texts(result)[-1]
    lines = [line for line in answer.splitlines() if line[:1].isdigit()]
    assert [line.split("**")[1] for line in lines] == ["Octa", "Octiles Scavenger Hunt", "Octego"]
    assert all("vs Bo: won" in line for line in lines), "Bo resigned each game"
    assert f"game #{ids[-1]}]" in lines[0]
    assert f"/channels/{world.guild.id}/{world.channel.id}/" in lines[0]

    only = await world.ada.slash(world.channel, "history", game="octiles")
    assert len([line for line in private_texts(only)[-1].splitlines() if line[:1].isdigit()]) == 1

    message = [m for m in [result.response, *result.followups] if m is not None and m.components][-1]
    chosen = await world.cy.select(message, [str(ids[0])])
    pictures = [m for m in [chosen.response, *chosen.followups] if m is not None and m.attachments]
    assert pictures
    assert pictures[-1].flags.ephemeral
    assert (
        len(frames_of(attachment_bytes(world, pictures[-1]))) == 2 + 1
    )  # two moves (Bo's resignation is told, not drawn), then the final board


async def test_history_includes_games_against_the_computer(world):
    computer = bot_member(world)
    world.platform.new_seed = lambda: 4
    await world.ada.slash(world.channel, "octego challenge", opponent=computer, level="easy")
    await world.ada.slash(world.channel, "octego resign")
    result = await world.ada.slash(world.channel, "history")
    assert "**Octego** vs" in private_texts(result)[-1]
    assert ": lost" in private_texts(result)[-1]


async def test_history_of_a_member_with_no_games(world):
    result = await world.ada.slash(world.channel, "history", member=world.di)
    assert private_texts(result) == ["Di has no finished game in this server yet."]


async def test_replay_without_a_number_during_a_game_refuses_and_points_to_the_last_one(world):
    first = await finish_by_resigning(world, "octego", 3)
    await play(world, "octego", 2, seed=9)  # a second game, still running
    refused = await world.di.slash(world.channel, "replay")
    assert private_texts(refused) == [
        "That game is still being played: its replay and record come once it ends. "
        f"`/replay game_id:{first.id}` shows the last one that ended."
    ]
    assert not any(m.content.startswith("🎞️") for m in world.channel.history())
    await world.di.slash(world.channel, "replay", game_id=first.id)
    assert world.channel.last_message.content.startswith(f"🎞️ Replay of Octego #{first.id}")
