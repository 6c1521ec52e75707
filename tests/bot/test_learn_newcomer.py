"""The newcomer line (issue 39): the first "your move" of a member who has never played a game
offers its lessons ("New to Octego? `/learn` it in 5 minutes"), once per member and game. In a
game played in the channel the game message is that "your move"; in a game's thread, the notice
(and the thread's game message before the first move). Never after the member's first move, never
in their next game of that kind, never for a game without lessons; it survives a restart."""

from __future__ import annotations

import pytest

from bot.core.settings import Settings
from bot.dev.world import private_messages, private_texts
from bot.features.turn_notices import AT_THE_GAME_SECONDS
from bot.games.octagion import OctagionAdapter
from bot.games.octego import OctegoAdapter
from engines.octego import legal_moves
from tests.bot.tinygame import TinyAdapter

SEED = 1234
CARD_PACE = 5  # a game message is edited at most every 4 s: the clock moves past it to read the edit


def line(name: str = "") -> str:
    return f"📘 New to Octego{f', **{name}**' if name else ''}? `/learn` it in 5 minutes."


@pytest.fixture
def games():
    return [OctegoAdapter, TinyAdapter, OctagionAdapter]


async def accepted(world, challenger, opponent, game="octego"):
    world.platform.new_seed = lambda: SEED
    await challenger.slash(world.channel, f"{game} challenge", opponent=opponent)
    card = world.channel.last_message
    await opponent.click(card, label="Accept")
    return await world.platform.sessions.load((await world.session()).id)


async def octego_move(world, actor, session_id, where=None):
    """The first legal move of ``actor``, typed in the game's channel or thread."""
    session = await world.platform.sessions.load(session_id)
    path = legal_moves(session.state, session.players.index(actor.id))[0]
    result = await actor.slash(where or world.channel, "octego move", path=path)
    assert private_texts(result)[-1].startswith("Done."), private_texts(result)
    await world.env.advance_time(CARD_PACE)


def game_message(world, session):
    return world.message(session.record.message_id)


def in_thread(thread, message_id):
    return next(m for m in thread.history() if m.id == message_id)


async def test_a_newcomers_first_your_move_in_the_channel_offers_learn_once(world, settings, games):
    session = await accepted(world, world.ada, world.bo)
    assert line("Ada") in game_message(world, session).content  # Ada moves first: her "your move"
    assert line("Bo") not in game_message(world, session).content

    await octego_move(world, world.ada, session.id)
    content = game_message(world, session).content
    assert line("Bo") in content  # now Bo's first "your move"
    assert line("Ada") not in content
    await world.restart(settings, games)  # what the line reads is stored
    await octego_move(world, world.bo, session.id)
    content = game_message(world, session).content
    assert "New to Octego" not in content, "Ada has moved: her offer was her first move's"

    await world.bo.slash(world.channel, "octego resign")
    await world.env.advance_time(CARD_PACE)
    second = await accepted(world, world.bo, world.ada)  # their second game: each has played one now
    await octego_move(world, world.bo, second.id)
    assert "New to Octego" not in game_message(world, second).content


async def test_an_offer_made_in_an_unfinished_game_is_not_made_again(world):
    first = await accepted(world, world.cy, world.di)
    assert line("Cy") in game_message(world, first).content
    await world.cy.slash(world.channel, "stop")  # ended without a result: Cy has still never played
    await world.env.advance_time(CARD_PACE)
    second = await accepted(world, world.cy, world.di)
    assert "New to Octego" not in game_message(world, second).content  # Cy was offered it once


async def test_an_octagion_round_offers_learn_to_every_member_new_to_it(world):
    """Everyone acts at once in a round: its message names each newcomer who has not played yet."""
    await world.ada.slash(world.channel, "octagion start", rounds=1)
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    session = await world.session()
    offer = "📘 New to Octagion, **Ada** and **Bo**? `/learn` it in 5 minutes."
    assert offer in game_message(world, session).content


async def test_a_game_without_lessons_offers_nothing(world):
    session = await accepted(world, world.ada, world.bo, game="tiny")
    assert "/learn" not in game_message(world, session).content


@pytest.fixture
def threads_settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "threads.db"))  # game threads on


async def test_in_a_thread_the_your_move_notice_offers_learn_and_not_in_the_second_game(world, threads_settings, games):
    await world.restart(threads_settings, games)
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    [record] = await world.platform.store.threaded_sessions(world.channel.id)
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    assert line("Ada") in in_thread(thread, record.message_id).content  # the thread's first message: Ada's "your move"

    await octego_move(world, world.ada, record.id, thread)
    [notice] = [m for m in thread.history() if "your move" in m.content]
    assert notice.content.startswith(f"🔔 {world.bo.mention}, your move in Octego")
    assert notice.content.endswith("\n" + line())
    assert "New to Octego" not in in_thread(thread, record.message_id).content  # the game moved on

    await world.env.advance_time(AT_THE_GAME_SECONDS + 60)  # Ada is away: her next "your move" pings her
    await octego_move(world, world.bo, record.id, thread)
    [notice] = [m for m in thread.history() if "your move" in m.content]
    assert notice.content.startswith(f"🔔 {world.ada.mention}, your move")
    assert "New to Octego" not in notice.content  # Ada has moved in this game

    await world.bo.slash(thread, "octego resign")
    await world.env.advance_time(CARD_PACE)
    await world.bo.slash(world.channel, "octego challenge", opponent=world.ada)
    await world.ada.click(world.channel.last_message, label="Accept")
    second = max(await world.platform.store.threaded_sessions(world.channel.id), key=lambda r: r.id)
    second_thread = next(t for t in world.channel.threads if t.id == second.thread_id)
    assert "New to Octego" not in in_thread(second_thread, second.message_id).content
    await octego_move(world, world.bo, second.id, second_thread)  # the challenger moves first
    assert not [m for m in second_thread.history() if "New to Octego" in m.content]


async def test_privacy_delete_forgets_where_learn_was_offered(world):
    await accepted(world, world.ada, world.bo)
    offers = "SELECT game FROM learn_offers WHERE user_id = ?"
    assert [row[0] for row in await world.platform.store.query(offers, (world.ada.id,))] == ["octego"]
    question = private_messages(await world.ada.slash(world.channel, "privacy delete"))[-1]
    await world.ada.click(question, label="Delete my data")
    assert await world.platform.store.query(offers, (world.ada.id,)) == []
