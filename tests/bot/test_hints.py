"""Hints in friendly games (issue 39), through the real bot with games in threads: the Hint button and
`/hint` in games against the computer and in challenges that allow hints, never in a rated
or a tournament game; a hint is private, legal, one a turn (also after a restart), and the game's
message, card and final message say who used how many."""

from __future__ import annotations

import re

import pytest

from bot.core.settings import Settings
from bot.dev.world import bot_member, private_messages, private_texts
from bot.features.hints.advice import advise
from bot.features.hints.hints import ONE_A_TURN
from engines.octego import choose_action as octego_ai
from engines.registry import engine as registered_engine
from engines.review import Played, judge_ply
from tests.bot.test_tournaments import create, games_of_round, host_of, join_all, start

SEED = 4321
TURN_BASED = ("octego", "octa", "octagone", "octiles")


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "hints.db"))  # game threads on: the default


# ------------------------------------------------------------------ helpers


async def load(world, session_id):
    return await world.platform.sessions.load(session_id)


async def challenged(world, challenger, opponent, game="octego", **options):
    """The session a challenge opened in #games (its card is the channel's last message)."""
    world.platform.new_seed = lambda: SEED
    result = await challenger.slash(world.channel, f"{game} challenge", opponent=opponent, **options)
    assert result.ephemeral, private_texts(result)
    records = await world.platform.store.threaded_sessions(world.channel.id)
    return await load(world, records[-1].id)


def thread_of(world, session):
    return next(t for t in world.channel.threads if t.id == session.record.thread_id)


async def game_message(world, session):
    session = await load(world, session.id)
    await world.platform.outbox.flush(session.id)
    return next(m for m in thread_of(world, session).history() if m.id == session.record.message_id)


def card(world, session):
    return world.message(session.record.card_id)


def labels(message) -> list[str]:
    return [child.label for row in message.components for child in row.children]


def answer(result):
    messages = private_messages(result)
    assert messages, "answered privately"
    return messages[-1]


def hinted(text: str) -> str:
    """The action a hint names, as the game's record writes it."""
    found = re.search(r"`([^`]+)`", text)
    assert found, text
    return found[1]


# -------------------------------------------------------------------- tests


async def test_a_hint_against_the_computer_is_private_legal_and_one_a_turn_even_after_a_restart(world, settings):
    session = await challenged(world, world.ada, bot_member(world))
    message = await game_message(world, session)
    assert "Hint" in labels(message)

    hint = answer(await world.ada.click(message, label="Hint"))
    assert hint.flags.ephemeral
    assert hint.content.startswith("💡 **Hint** (only you can see this): `")
    assert "You have used 1 hint in this game" in hint.content
    assert [a.filename.endswith(".png") for a in hint.attachments] == [True], "the board with the move ringed"
    path = hinted(hint.content)
    assert (await load(world, session.id)).state.ply == 0, "a hint changes nothing in the game"

    again = answer(await world.ada.click(message, label="Hint"))
    assert again.content == ONE_A_TURN
    await world.restart(settings)
    message = await game_message(world, session)
    again = answer(await world.ada.click(message, label="Hint"))
    assert again.content == ONE_A_TURN, "the turn's hint is stored with the game"

    done = private_texts(await world.ada.slash(thread_of(world, session), "octego move", path=path))
    assert done[-1].startswith("Done."), done
    await world.env.settle()
    session = await load(world, session.id)
    assert session.state.ply == 2, "the hinted move was played, and the computer answered"

    second = answer(await world.ada.slash(thread_of(world, session), "hint"))
    assert second.content.startswith("💡 **Hint**"), "a new turn, a new hint: the command presses the button"
    assert "You have used 2 hints in this game" in second.content
    await world.env.advance_time(5)  # the card is edited a few seconds after a move
    done = private_texts(await world.ada.slash(thread_of(world, session), "octego move", path=hinted(second.content)))
    assert done[-1].startswith("Done."), done
    await world.env.advance_time(5)
    session = await load(world, session.id)
    assert "💡 Hints used: **Ada** 2" in (await game_message(world, session)).content
    assert "💡 Hints used: **Ada** 2" in card(world, session).content

    await world.ada.slash(thread_of(world, session), "octego resign")
    await world.env.advance_time(5)
    session = await load(world, session.id)
    assert session.status == "finished"
    final = await game_message(world, session)
    assert "💡 Hints used: **Ada** 2" in final.content, "the final message says hints were used"
    assert "Hint" not in labels(final)
    found = await world.ada.slash(world.channel, "record", game_id=session.id)
    (sent,) = [m for m in [found.response, *found.followups] if m is not None and m.attachments]
    record = world.env.backend.cdn.get(sent.attachments[0].url).decode()
    assert '[Hints "Ada 2"]' in record, "the game's record says hints were used"


async def test_a_challenge_that_allows_hints_says_so_before_it_is_accepted_and_is_not_rated(world):
    session = await challenged(world, world.ada, world.bo, hints=True)
    invitation = card(world, session)
    assert "hints allowed, not rated" in invitation.content, "the challenged member sees it before accepting"
    await world.bo.click(invitation, label="Accept")
    session = await load(world, session.id)
    message = await game_message(world, session)
    assert "Hint" in labels(message)

    early = answer(await world.bo.click(message, label="Hint"))
    assert early.content == "A hint is for your turn: ask again once it is your move."
    hint = answer(await world.ada.click(message, label="Hint"))
    assert hint.content.startswith("💡 **Hint**")
    refused = answer(await world.cy.click(message, label="Hint"))
    assert refused.content == "Only the players of this game can ask for a hint."

    await world.bo.slash(thread_of(world, session), "octego resign")
    await world.env.advance_time(5)
    session = await load(world, session.id)
    assert session.status == "finished"
    assert "💡 Hint used: **Ada** 1" in (await game_message(world, session)).content
    assert "💡 Hint used: **Ada** 1" in card(world, session).content
    ratings = await world.platform.store.ratings(world.guild.id, "octego", [world.ada.id, world.bo.id])
    assert ratings == [], "a game with hints is friendly: no rating changes"

    await world.bo.click(await game_message(world, session), label="Rematch")
    rematch = await world.platform.sessions.live_in_channel(session.record.thread_id)  # played in the thread
    assert rematch.id != session.id
    assert rematch.options.get("hints") is True, "a rematch allows hints again, as its invitation says"
    assert "_hints_used" not in rematch.options, "and starts with none used"


async def test_a_rated_game_has_no_hint(world):
    session = await challenged(world, world.ada, world.bo)
    await world.bo.click(card(world, session), label="Accept")
    session = await load(world, session.id)
    message = await game_message(world, session)
    assert "Hint" not in labels(message)
    refused = answer(await world.ada.slash(thread_of(world, session), "hint"))
    assert refused.content.startswith("Hints are off in this game: it is rated.")
    assert "_hints_used" not in (await load(world, session.id)).meta.options, "nothing counted"


async def test_a_tournament_game_has_no_hint(world):
    host = host_of(world)
    event_id = await create(world, host, game="octego", format="swiss", rounds=1, round_time="4h")
    await join_all(world, event_id, world.members[:3])  # one game and a bye
    await start(world, host, event_id)
    (played,) = (await games_of_round(world, event_id, 1)).values()
    message = await game_message(world, played)
    assert "Hint" not in labels(message)
    seat = world.platform.games["octego"].engine.to_act(played.state)[0]
    on_turn = next(m for m in world.members if m.id == played.players[seat])
    refused = answer(await on_turn.slash(thread_of(world, played), "hint"))
    assert refused.content.startswith("Hints are off in tournament games")


async def test_octagion_is_a_race_and_has_no_hint(world):
    await world.ada.slash(world.channel, "octagion start")
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    refused = answer(await world.ada.slash(world.channel, "hint"))
    assert refused.content == "Octagion is a race: everyone plays at once, so it has no hints."


async def test_a_hint_with_no_game_running_says_where_to_ask(world):
    refused = answer(await world.ada.slash(world.channel, "hint"))
    assert (
        refused.content
        == "There is no game running here. In a channel with game threads, use the command in your game's thread."
    )


@pytest.mark.parametrize("game", TURN_BASED)
async def test_every_turn_based_game_hints_a_legal_action_with_a_reason(world, game):
    session = await challenged(world, world.ada, bot_member(world), game=game)
    adapter = world.platform.games[game]
    session = await load(world, session.id)
    seat = session.seat_of(world.ada.id)
    assert adapter.engine.to_act(session.state) == [seat], "the challenger starts"
    hint = answer(await world.ada.click(await game_message(world, session), label="Hint"))
    assert hint.content.startswith("💡 **Hint** (only you can see this): `"), hint.content
    reason = hint.content.splitlines()[0].split("`: ", 1)[1]
    assert reason.endswith(".")
    assert len(reason) > len("wins."), "a reason, told from what the action does"
    advice = await world.platform.hints.advise(session, adapter, seat, await world.platform.replays.moves(session))
    assert hinted(hint.content) == advice.notation, "the action shown is the computer's choice"
    played = await world.platform.sessions.act(session.id, world.ada.id, advice.action, seat=seat)
    assert played.state.ply == session.state.ply + 1, "the hinted action is accepted by the engine"


def test_a_choice_the_review_judges_a_mistake_is_replaced_by_the_judges_best():
    """The hint's search is checked on what its seat could know (the review's judge): a choice the
    judge finds a mistake or worse gives way to the judge's best, which the engine accepts."""
    engine = registered_engine("octego")
    state, actions = engine.new_game(2, {}, SEED), []
    while len(actions) < 8:  # a few plies into a game
        seat = engine.to_act(state)[0]
        action = octego_ai(state, seat, "easy", len(actions))
        actions.append((seat, action))
        state = engine.apply(state, seat, action)
    seat = engine.to_act(state)[0]
    record = Played("octego", 2, {}, SEED, tuple(actions))
    moves = [a for a in engine.legal_actions(state, seat) if a["type"] != "resign"]
    ply = len(actions) + 1
    marks = {m["path"]: judge_ply(record.with_action(seat, m), ply).mark for m in moves}
    bad = next(m for m in moves if marks[m["path"]] in ("mistake", "blunder"))
    fine = next(m for m in moves if marks[m["path"]] == "best")

    advice = advise(lambda *_: bad, engine, state, seat, "hard", 1, record)
    assert advice.action != bad
    assert marks[advice.action["path"]] in ("best", "good")
    assert engine.apply(state, seat, advice.action).ply == state.ply + 1
    assert advise(lambda *_: fine, engine, state, seat, "hard", 1, record).action == fine, "a sound choice stands"
