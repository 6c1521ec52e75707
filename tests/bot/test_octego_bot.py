"""Octego through SimCord: challenges (who moves first, the computer), `/octego move` with its
autocomplete, the Move flow (piece, destination, path), illegal input, a restart, a whole
won game with its result, stats and rematch."""

from __future__ import annotations

import pytest

from bot.core.sessions import STALE_TEXT
from bot.dev.world import bot_member, private_texts
from bot.games.octego import OctegoAdapter
from bot.ui.adapter import RULES_FOLDER
from engines.octego import ENGINE, legal_moves
from engines.octego.rules import describe_position
from render.octego import render_board
from tests.bot.answers import opened_menu, private_answer

SEED = 1234


@pytest.fixture
def games():
    return [OctegoAdapter]


# ------------------------------------------------------------------ helpers


async def start(world, **options):
    """Ada challenges Bo by mention and Bo accepts; returns the running session."""
    world.platform.new_seed = lambda: SEED
    result = await world.ada.slash(world.channel, "octego challenge", opponent=world.bo, **options)
    # The challenge is posted in the channel; the command's own answer is private.
    assert result.acknowledged
    assert result.ephemeral
    assert private_texts(result)[-1] == "Challenge posted: 1 player invited."
    challenge = world.channel.last_message
    assert world.bo.mention in challenge.content
    assert "challenges you to **Octego**" in challenge.content
    await world.bo.click(challenge, label="Accept")
    session = await world.session()
    assert session.record.status == "active"
    return session


async def move(actor, world, path):
    result = await actor.slash(world.channel, "octego move", path=path)
    assert result.ephemeral
    return private_texts(result)[-1]


def labels(message):
    return [c.label for row in message.components for c in row.children]


def select_options(menu):
    return menu.components[0]["components"][0]["options"]


async def refused(world, actor, path, sentence):
    """The move is answered privately with ``sentence`` and the game does not change."""
    session = await world.session()
    before, content = ENGINE.dump(session.state), world.channel.last_message.content
    answer = await move(actor, world, path)
    assert sentence in answer, answer
    assert ENGINE.dump((await world.session()).state) == before
    assert world.channel.last_message.content == content


# -------------------------------------------------------------------- tests


async def test_game_message_shows_board_turn_and_controls(world):
    session = await start(world)
    assert session.players == [world.ada.id, world.bo.id]  # the challenger moves first by default
    message = world.channel.last_message
    assert message.id == session.record.message_id
    assert "## Octego" in message.content
    assert "**Ada** vs **Bo**" in message.content
    assert f"▶ It is {world.ada.mention}'s turn." in message.content
    assert labels(message) == ["Move", "Resign"]
    picture = message.attachments[0]
    assert picture.filename == "octego.png"
    assert picture.description == render_board(session.state, session.names).description
    assert "Ada: Octegos d1 e1" in picture.description


async def test_first_option_chooses_who_moves_first(world, monkeypatch):
    session = await start(world, first="them")
    assert session.players == [world.bo.id, world.ada.id]
    assert f"It is {world.bo.mention}'s turn." in world.channel.last_message.content
    assert await move(world.bo, world, "d1-e2") == "Done. **Bo** moved d1-e2."
    await world.ada.slash(world.channel, "octego resign")
    assert "**Ada** resigned." in world.channel.last_message.content
    assert f"🏆 {world.bo.mention} won (resignation)." in world.channel.last_message.content

    for toss, seats in ((1, [world.bo.id, world.ada.id]), (0, [world.ada.id, world.bo.id])):
        monkeypatch.setattr(OctegoAdapter, "coin_toss", staticmethod(lambda toss=toss: toss))
        await world.ada.slash(world.channel, "octego challenge", opponent=world.bo, first="random")
        assert "(first: coin toss)" in world.channel.last_message.content
        await world.bo.click(world.channel.last_message, label="Accept")
        session = await world.session()
        assert session.players == seats
        await world.bo.slash(world.channel, "octego resign")


async def test_win_by_capturing_both_octegos_then_stats_and_rematch(world):
    session = await start(world)
    # Test set-up: replace the opening with a near-end position (Ada = seat 0 to move). Ada's
    # 1s on c5 and g5 attack Bo's Octegos on d6 and f6.
    position = {"position": "Od1 Oe1 1c5 1g5 / Od6 Of6 1a8 2h8", "to_move": 0}
    await world.set_state(session.id, ENGINE.new_game(2, position, SEED))

    assert await move(world.ada, world, "c5xd6") == "Done. **Ada** moved c5xd6, capturing **Bo**'s Octego."
    message = world.channel.last_message
    assert message.id == session.record.message_id  # the game message is edited, not reposted
    assert "**Ada** moved c5xd6, capturing **Bo**'s Octego." in message.content
    assert "Octegos on the board: Ada 2 · Bo 1 · Moves played: 1" in message.content
    assert f"It is {world.bo.mention}'s turn." in message.content
    assert "Ada moved c5xd6, capturing Bo's Octego." in message.attachments[0].description

    assert await move(world.bo, world, "a8-b7") == "Done. **Bo** moved a8-b7."
    # The short form with an x is accepted: the only path from g5 to f6.
    assert await move(world.ada, world, "g5 x f6") == "Done. **Ada** moved g5xf6, capturing **Bo**'s Octego."
    session = await world.platform.sessions.load(session.id)
    assert await world.platform.store.live_session(world.channel.id) is None
    assert session.record.status == "finished"
    final = world.channel.last_message
    assert final.id == session.record.message_id
    assert f"🏆 {world.ada.mention} won (both Octegos captured)." in final.content
    assert "**Ada** moved g5xf6, capturing **Bo**'s Octego." in final.content
    assert "**Ada** won" not in final.content  # the result line says it, once
    assert "Octegos on the board: Ada 2 · Bo 0\n" in final.content + "\n"
    assert labels(final) == ["Rematch", "Replay", "Review"]
    assert "Game over: Ada wins (both Octegos captured)." in final.attachments[0].description
    late = await world.bo.slash(world.channel, "octego move", path="b7-c6")
    assert late.ephemeral
    assert private_texts(late) == ["There is no Octego game running in this channel."]

    stats = await world.ada.slash(world.channel, "stats")
    assert "**Octego**: 1 won of 1" in stats.response.content
    stats = await world.bo.slash(world.channel, "stats")
    assert "**Octego**: 0 won of 1" in stats.response.content

    # Rematch: Bo asks, Ada confirms; Bo (who asked) now moves first.
    await world.bo.click(final, label="Rematch")
    challenge = world.channel.last_message
    assert f"{world.ada.mention}: {world.bo.mention} challenges you" in challenge.content
    await world.ada.click(challenge, label="Accept")
    rematch = await world.session()
    assert rematch.id != session.id
    assert rematch.record.status == "active"
    assert rematch.players == [world.bo.id, world.ada.id]
    assert describe_position(rematch.state.board) == describe_position(ENGINE.new_game(2, {}, 1).board)


async def test_move_button_flow(world):
    session = await start(world)
    game = world.channel.last_message
    menu = opened_menu(await world.ada.click(game, label="Move"), game)
    assert menu.content.startswith("**Your move** (1/2)")
    pieces = select_options(menu)
    assert [o["value"] for o in pieces] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    assert pieces[0]["label"] == "3 on a1"
    assert pieces[0]["description"] == "4 destinations: d4, b4, d2, a2"
    assert pieces[3]["label"] == "Octego on d1"

    await world.ada.select(menu, ["a1"])
    ends = select_options(menu)
    assert [(o["value"], o["label"]) for o in ends] == [
        ("d4", "d4"),
        ("b4", "b4"),
        ("d2", "d2"),
        ("a2", "a2: grid change"),
    ]
    assert ends[1]["description"] == "2 paths: you choose next"
    assert ends[0]["description"] == "a1-b2-c3-d4"

    # Two paths lead from a1 to b4: a third select asks which.
    await world.ada.select(menu, ["b4"])
    assert "2 paths lead from **a1** to **b4**" in menu.content
    assert [o["value"] for o in select_options(menu)] == ["a1-b2-c3-b4", "a1-b2-a3-b4"]
    await world.ada.select(menu, ["a1-b2-a3-b4"])
    assert menu.content == "Done. **Ada** moved a1-b2-a3-b4."
    assert menu.components == []
    session = await world.session()
    assert session.state.events[0].data["path"] == ["a1", "b2", "a3", "b4"]
    assert "**Ada** moved a1-b2-a3-b4." in world.message(game.id).content

    # Bo: a destination with a single path is played at once.
    menu = private_answer(await world.bo.click(game, label="Move"))
    await world.bo.select(menu, ["e8"])
    await world.bo.select(menu, ["f7"])
    assert menu.content == "Done. **Bo** moved e8-f7."
    assert (await world.session()).state.to_move == 0

    # A menu from an earlier position cannot play anything.
    stale = private_answer(await world.ada.click(game, label="Move"))
    await move(world.ada, world, "c1-d2")
    await move(world.bo, world, "f7-g6")
    before = ENGINE.dump((await world.session()).state)
    late = await world.ada.select(stale, ["c1"])
    assert private_texts(late)[-1] == STALE_TEXT
    assert ENGINE.dump((await world.session()).state) == before

    # Only the player on turn gets a menu.
    result = await world.bo.click(game, label="Move")
    assert result.ephemeral
    assert private_texts(result) == [f"It is {world.ada.mention}'s turn."]
    result = await world.cy.click(game, label="Move")
    assert result.ephemeral
    assert private_texts(result) == ["You are not playing in this game."]


async def test_autocomplete_lists_the_players_legal_moves(world):
    session = await start(world)
    choices = await world.ada.autocomplete(world.channel, "octego move", "path", "c1")
    assert [c["value"] for c in choices] == ["c1-d2", "c1-b2"]
    assert choices[0]["name"] == "c1-d2 (1)"
    everything = await world.ada.autocomplete(world.channel, "octego move", "path", "")
    assert [c["value"] for c in everything] == legal_moves(session.state, 0)[:25]
    short = await world.ada.autocomplete(world.channel, "octego move", "path", "A1-B4")
    assert [c["value"] for c in short] == ["a1-b2-c3-b4", "a1-b2-a3-b4"]
    assert await world.ada.autocomplete(world.channel, "octego move", "path", "z9") == []
    # Only for the player on turn.
    assert await world.bo.autocomplete(world.channel, "octego move", "path", "") == []
    assert await world.cy.autocomplete(world.channel, "octego move", "path", "") == []

    # A capture is labelled as one (test set-up: a position with a capture available).
    async with world.platform.sessions.change(session.id) as change:
        change.session.state = ENGINE.new_game(2, {"position": "Od1 Oe1 1c5 / Od6 Oe8 2b6", "to_move": 0}, SEED)
    choices = await world.ada.autocomplete(world.channel, "octego move", "path", "c5")
    assert {c["value"]: c["name"] for c in choices} == {
        "c5xd6": "c5xd6 (1, captures Octego)",
        "c5xb6": "c5xb6 (1, captures 2)",
        "c5-b4": "c5-b4 (1)",
        "c5-d4": "c5-d4 (1)",
    }


async def test_illegal_moves_are_answered_privately(world):
    await start(world)
    await refused(world, world.ada, "b1-c2-d1", "The space d1 is occupied by your own piece. It can reach: b3, d3.")
    await refused(world, world.ada, "c1-b1", "The space b1 is occupied: changing grids needs an empty space")
    await refused(
        world,
        world.ada,
        "a1-b4",
        "The move a1-b4 can be played along 2 paths: a1-b2-c3-b4, a1-b2-a3-b4. Please write the full path.",
    )
    await refused(world, world.ada, "d1-d2", "Octego pieces may not change grids.")
    await refused(world, world.ada, "e8-d7", "The piece on e8 is not yours.")
    await refused(world, world.ada, "nonsense", "Write a move as the spaces it visits")
    await refused(world, world.bo, "e8-d7", f"It is {world.ada.mention}'s turn.")
    await refused(world, world.cy, "c1-d2", "You are not playing in this game.")
    # A legal move still works afterwards.
    assert await move(world.ada, world, "c1-d2") == "Done. **Ada** moved c1-d2."


async def test_old_move_button_works_after_a_restart(world, settings):
    session = await start(world)
    game = world.channel.last_message
    await move(world.ada, world, "d1-e2")
    await world.restart(settings, [OctegoAdapter])
    menu = private_answer(await world.bo.click(game, label="Move"))
    assert menu.content.startswith("**Your move** (1/2)")
    await world.bo.select(menu, ["d8"])
    await world.bo.select(menu, ["c7"])
    assert menu.content == "Done. **Bo** moved d8-c7."
    session = await world.platform.sessions.load(session.id)
    assert session.state.ply == 2
    assert session.state.to_move == 0
    assert "**Bo** moved d8-c7." in world.message(game.id).content
    assert f"It is {world.ada.mention}'s turn." in world.message(game.id).content


async def test_against_the_computer(world):
    world.platform.new_seed = lambda: SEED
    me = bot_member(world)
    await world.ada.slash(world.channel, "octego challenge", opponent=me, level="easy")
    session = await world.session()
    assert session.players == [world.ada.id, me.id]
    assert session.meta.computer_level == "easy"
    game = world.channel.last_message
    for turn in range(4):
        assert session.state.to_move == 0
        assert session.state.ply == 2 * turn
        answer = await move(world.ada, world, legal_moves(session.state, 0)[0])
        assert answer.startswith("Done. **Ada** moved")
        session = await world.platform.sessions.load(session.id)
        if session.record.status != "active":
            break
        # The computer has answered: its move is on the game message and it is Ada's turn again.
        assert [(event.kind, event.seat) for event in session.state.events] == [("move", 1)]
        content = world.message(game.id).content
        assert "**TestBot** moved" in content
        assert f"It is {world.ada.mention}'s turn." in content
    assert session.state.ply >= 7


async def test_computer_moves_first_when_asked(world):
    me = bot_member(world)
    await world.ada.slash(world.channel, "octego challenge", opponent=me, first="them", level="easy")
    session = await world.session()
    assert session.players == [me.id, world.ada.id]
    assert session.state.ply == 1
    assert session.state.to_move == 1
    assert "**TestBot** moved" in world.channel.last_message.content


async def test_rules_summary(world):
    result = await world.ada.slash(world.channel, "rules", game="octego")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "Octego: how to play"
    assert embed.description == (RULES_FOLDER / "octego.md").read_text(encoding="utf-8")
    for phrase in (
        "**Goal**",
        "both of your opponent's Octegos",
        "**Changing grids**",
        "`c1-d2xe3`",
        "`/octego challenge opponent:@someone`",
        "**Move** button",
        "`/octego move path:c1-d2`",
        "**Rematch**",
    ):
        assert phrase in embed.description


async def test_a_player_named_like_a_seat_is_narrated_by_name(world):
    seat_two = world.guild.add_member(world.env.create_user("seat2", global_name="Seat 2"))
    world.platform.new_seed = lambda: SEED
    await seat_two.slash(world.channel, "octego challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    assert (await world.session()).names == ["Seat 2", "Bo"]
    assert await move(seat_two, world, "c1-d2") == "Done. **Seat 2** moved c1-d2."
    assert "**Seat 2** moved c1-d2." in world.channel.last_message.content
    assert "Seat 2 moved c1-d2." in world.channel.last_message.attachments[0].description
    assert await move(world.bo, world, "f8-e7") == "Done. **Bo** moved f8-e7."
    await seat_two.slash(world.channel, "octego resign")
    content = world.channel.last_message.content
    assert "**Seat 2** resigned." in content
    assert "**Bo** resigned" not in content
