"""The Review button of a finished game (issue #40), through the real bot: a private answer with
the advantage graph and the three biggest mistakes, stored once computed, for the players only."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.core.errors import UserError
from bot.dev.world import private_messages
from bot.features.fair_use import ONE_REVIEW_AT_A_TIME
from bot.games import all_games
from engines.octego import choose_action
from tests.bot.test_fair_use import at_once


@pytest.fixture
def games():
    return all_games()


async def finished_octego(world, seed: int = 7, limit: int = 60):
    """Ada (easy) against Bo (medium) until the game ends; Bo resigns if it has not by ``limit``."""
    world.platform.new_seed = lambda: seed
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    session = await world.session()
    while session.status == "active" and session.state.ply < limit:
        seat = session.state.to_move
        action = choose_action(session.state, seat, "easy" if seat == 0 else "medium", session.state.ply)
        session = await world.platform.sessions.act(session.id, session.players[seat], action, seat=seat)
    if session.status == "active":
        await world.bo.slash(world.channel, "octego resign")
    session = await world.platform.sessions.load(session.id)
    assert session.status == "finished"
    await world.platform.outbox.flush(session.id)
    return session


def answer_of(result):
    messages = private_messages(result)
    assert messages, "the review is answered privately"
    return messages[-1]


def pictures_of(world, message) -> list[Image.Image]:
    return [Image.open(io.BytesIO(world.env.backend.cdn.get(a.url))) for a in message.attachments]


async def test_review_answers_privately_with_the_graph_and_three_boards_then_reuses_it(world):
    session = await finished_octego(world)
    message = world.message(session.record.message_id)
    first = answer_of(await world.ada.click(message, label="Review"))
    assert first.flags.ephemeral
    assert first.content.startswith(f"🔍 **Review of Octego #{session.id}** for **Ada**: accuracy ")
    assert "blunder" in first.content
    names = [a.filename for a in first.attachments]
    assert names[0] == "review-graph.png"
    assert len(names) == 4, "the graph and the three biggest mistakes' boards"
    assert all(name.startswith("review-move-") for name in names[1:])
    lines = first.content.splitlines()
    assert [line[:2] for line in lines[-3:]] == ["1.", "2.", "3."]
    assert all("%" in line and "; " in line for line in lines[-3:]), "each mistake says why, and the better move"
    graph = pictures_of(world, first)[0]
    assert graph.width <= 1000
    assert world.channel.last_message.id == message.id or not world.channel.last_message.flags.ephemeral
    stored = await world.platform.store.query("SELECT seat FROM reviews WHERE session_id = ?", (session.id,))
    assert [row[0] for row in stored] == [0]

    calls = world.platform.thinking.calls
    again = answer_of(await world.ada.click(message, label="Review"))
    assert world.platform.thinking.calls == calls, "the stored review is reused, not computed again"
    assert again.content == first.content
    assert [world.env.backend.cdn.get(a.url) for a in again.attachments] == [
        world.env.backend.cdn.get(a.url) for a in first.attachments
    ]


async def test_only_the_players_may_ask_and_never_while_it_runs(world):
    session = await finished_octego(world, limit=4)
    message = world.message(session.record.message_id)
    refused = answer_of(await world.cy.click(message, label="Review"))
    assert refused.flags.ephemeral
    assert refused.content == f"Only the players of Octego #{session.id} can ask for its review: it judges their moves."
    assert not refused.attachments
    assert await world.platform.store.query("SELECT * FROM reviews") == []

    await world.bo.click(message, label="Rematch")
    await world.ada.click(world.channel.last_message, label="Accept")
    running = await world.session()
    assert running.status == "active"
    with pytest.raises(UserError, match="is still being played: its review comes once it ends"):
        await world.platform.reviews.reviewed(world.guild.id, world.ada.id, running.id)


def recording_edits(world) -> list[tuple[int, str]]:
    """From now on, every message edit SimCord makes, in order: (message id, its text after)."""
    backend = world.env.backend
    seen: list[tuple[int, str]] = []
    edit = backend.edit_message

    def recording(channel_id, message_id, fields):
        message = edit(channel_id, message_id, fields)
        seen.append((message_id, message.content))
        return message

    backend.edit_message = recording
    return seen


async def test_the_private_answer_shows_how_far_the_review_has_got(world):
    session = await finished_octego(world, limit=20)
    message = world.message(session.record.message_id)
    moves = len(await world.platform.replays.moves(session))
    edits = recording_edits(world)
    answer = answer_of(await world.ada.click(message, label="Review"))
    edited = [text for message_id, text in edits if message_id == answer.id]
    progress = [text for text in edited if text.startswith("🔍 Reviewing")]
    assert progress == [f"🔍 Reviewing… move {ply} of {moves}" for ply in (1, *range(8, moves + 1, 8))]
    assert edited[-1] == answer.content, "then the review itself, in the same message"
    assert answer.content.startswith("🔍 **Review of Octego")


async def test_one_review_at_a_time_per_member(world):
    session = await finished_octego(world, limit=6)
    message = world.message(session.record.message_id)
    with world.platform.fair_use.reviewing(world.guild.id, world.ada.id):  # Ada's last review is being computed
        refused = answer_of(await world.ada.click(message, label="Review"))
        assert refused.content == ONE_REVIEW_AT_A_TIME
        assert await world.platform.store.query("SELECT * FROM reviews") == [], "a refusal computes nothing"
        bo = answer_of(await world.bo.click(message, label="Review"))
        assert bo.content.startswith("🔍 **Review of Octego"), "the limit is each member's own"

    sent = await at_once(world, [world.ada.click(message, label="Review") for _ in range(2)])
    answers = sorted(answer_of(result).content for result in sent)
    assert answers[0] == ONE_REVIEW_AT_A_TIME, "two clicks at once: the second waits for the first"
    assert answers[1].startswith("🔍 **Review of Octego")
    stored = await world.platform.store.query("SELECT seat FROM reviews WHERE session_id = ?", (session.id,))
    assert sorted(row[0] for row in stored) == [0, 1]
    again = answer_of(await world.ada.click(message, label="Review"))
    assert again.content == answers[1], "once shown, asking again is answered from the store"
