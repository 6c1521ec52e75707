"""Review on a finished game of every two-player game (issue #40), through the real bot: Octa,
Octagone and Octiles answer privately like Octego, and in Octa the other player's moves are not
judged (a member's review is on what that member could see)."""

from __future__ import annotations

import pytest

from bot.dev.world import private_messages
from bot.games import all_games
from engines.registry import package
from engines.review import Review

PLIES = {"octa": 24, "octagone": 12, "octiles": 14}


@pytest.fixture
def games():
    return all_games()


async def finished(world, game: str, seed: int = 4):
    """Ada against Bo at easy for a few moves, then the player to act resigns."""
    world.platform.new_seed = lambda: seed
    world.platform.challenges.new_seed = lambda: seed
    await world.ada.slash(world.channel, f"{game} challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    session = await world.session()
    engine, choose = package(game).ENGINE, package(game).choose_action
    while session.status == "active" and session.state.ply < PLIES[game]:
        seat = engine.to_act(session.state)[0]
        action = choose(session.state, seat, "easy", session.state.ply)
        session = await world.platform.sessions.act(session.id, session.players[seat], action, seat=seat)
    if session.status == "active":
        seat = engine.to_act(session.state)[0]
        session = await world.platform.sessions.act(session.id, session.players[seat], {"type": "resign"}, seat=seat)
    assert session.status == "finished"
    await world.platform.outbox.flush(session.id)
    return session


@pytest.mark.parametrize("game", sorted(PLIES))
async def test_review_of_a_finished_game_answers_privately(world, game):
    session = await finished(world, game)
    message = world.message(session.record.message_id)
    assert [c.label for row in message.components for c in row.children][-1] == "Review"
    answer = private_messages(await world.ada.click(message, label="Review"))[-1]
    assert answer.flags.ephemeral
    title = package(game).ENGINE.title
    assert answer.content.startswith(f"🔍 **Review of {title} #{session.id}** for **Ada**: ")
    assert answer.attachments[0].filename == "review-graph.png"
    assert all(a.filename.startswith("review-move-") for a in answer.attachments[1:])
    (stored,) = await world.platform.store.query("SELECT seat, review FROM reviews WHERE session_id = ?", (session.id,))
    review = Review.from_json(stored[1])
    assert stored[0] == 0
    assert review.game == game
    bo_marks = [move.mark for move in review.moves if move.seat == 1]
    if game == "octa":
        assert bo_marks, "Bo moved"
        assert set(bo_marks) == {None}, "Bo's moves are not judged in Ada's review: his hand was hidden"
    else:
        assert any(mark is not None for mark in bo_marks), "nothing hidden: both sides' moves are judged"
