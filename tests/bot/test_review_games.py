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


def controls(message) -> list[dict]:
    """Every button and select of a message (a channel message or an interaction's answer)."""
    rows = [row.to_dict() if hasattr(row, "to_dict") else row for row in message.components]
    return [control for row in rows for control in row["components"]]


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


async def test_review_of_a_race_shows_each_round_against_the_solver(world):
    """Octagion, one round: Ada places six right cards of the word and lets the clock run out."""
    from engines.octagion import solution

    world.platform.new_seed = lambda: 1234
    await world.ada.slash(world.channel, "octagion start", rounds=1)
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    session = await world.session()
    word = session.state.words[0]
    await world.ada.slash(world.channel, "octagion play", cards=" ".join(solution(word)[:6]))
    await world.env.advance_time(125)
    session = await world.platform.sessions.load(session.id)
    assert session.status == "finished"
    await world.platform.outbox.flush(session.id)
    final = world.channel.last_message
    assert [c.label for row in final.components for c in row.children] == ["Rematch", "Replay", "Review"]

    answer = private_messages(await world.ada.click(final, label="Review"))[-1]
    assert answer.flags.ephemeral
    best = " ".join(solution(word))
    assert answer.content == (
        f"🔍 **Review of Octagion #{session.id}** for **Ada**: 6 points against the solver's 10; "
        f"0 of 1 round as well as the solver.\nRound 1, {word}: 6 points; the solver's {best} scores 10."
    )
    assert [a.filename for a in answer.attachments] == ["review-rounds.png"]
    assert answer.attachments[0].description.startswith("Ada's rounds against the solver: round 1 ")


async def test_history_offers_a_review_of_one_s_own_games(world):
    session = await finished(world, "octiles")
    listed = await world.ada.slash(world.channel, "history")
    message = [m for m in [listed.response, *listed.followups] if m is not None and m.components][-1]
    selects = controls(message)
    assert [s["placeholder"] for s in selects] == ["Replay one of these games", "Review one of your games"]
    assert [o["value"] for o in selects[1]["options"]] == [str(session.id)]
    answer = private_messages(await world.ada.select(message, [str(session.id)], custom_id=selects[1]["custom_id"]))
    assert answer[-1].content.startswith(f"🔍 **Review of Octiles Scavenger Hunt #{session.id}** for **Ada**: ")
    assert answer[-1].attachments[0].filename == "review-graph.png"

    of_ada = await world.cy.slash(world.channel, "history", member=world.ada)
    message = [m for m in [of_ada.response, *of_ada.followups] if m is not None and m.components][-1]
    assert [s["placeholder"] for s in controls(message)] == ["Replay one of these games"], (
        "a review judges the asker's own moves: Cy has none here"
    )
