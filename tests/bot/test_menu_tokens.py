"""A move made through a game's private menu edits the public board through the token of the click
that opened the menu (issue 41): the game message's button is answered by a deferred update of the
game message, which Discord lets that click's token edit for 15 minutes without counting it
against the bot's 50 requests a second, and the menu follows as a private follow-up. Counted in
the strict layer's log, in thread mode (the default)."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.settings import Settings
from bot.dev import discord_rules
from bot.games.octego import OctegoAdapter
from bot.games.octiles import OctilesAdapter
from bot.ui import menus
from tests.bot.answers import opened_menu
from tests.bot.test_on_discords_terms import counter_shown, game_message
from tests.bot.tinygame import TinyAdapter, TinyState


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "tokens.db"))  # games in threads


@pytest.fixture
def games():
    return [OctegoAdapter, OctilesAdapter, TinyAdapter]


def one_move(world):
    """Marks the strict layer's log: call the result after the move for (counted, exempt) requests."""
    rules = discord_rules.rules_of(world.env.backend)
    counted, exempt = len(rules.counted), len(rules.exempt)
    return lambda: (rules.counted[counted:], rules.exempt[exempt:])


def board_edits(requests, record) -> list[discord_rules.Request]:
    return [r for r in requests if r.method == "PATCH" and r.path.endswith(f"/messages/{record.message_id}")]


def token_of_first_click(exempt) -> str:
    """The token of the first interaction answered since the mark, read from its callback's path
    (/interactions/<id>/<token>/callback)."""
    callback = next(r for r in exempt if r.method == "POST" and r.path.endswith("/callback"))
    return callback.path.split("/")[3]


def edits_through(exempt, token: str) -> list[discord_rules.Request]:
    """The edits made as the original response of the interaction with ``token``."""
    return [r for r in exempt if r.method == "PATCH" and r.path.endswith(f"/{token}/messages/@original")]


async def started(world, game: str, **options):
    """Ada challenges Bo in #games, Bo accepts on the card: the game runs in its thread, its board out."""
    await world.ada.slash(world.channel, f"{game} challenge", opponent=world.bo, **options)
    await world.bo.click(world.channel.last_message, label="Accept")
    await world.env.advance_time(10)  # the thread, the board and the card out
    (record,) = await world.platform.store.threaded_sessions(world.channel.id)
    return record


async def test_an_octego_move_made_in_the_menu_edits_the_board_through_the_move_click(world):
    world.platform.challenges.new_seed = lambda: 1234
    record = await started(world, "octego")
    board = game_message(world, record)
    since = one_move(world)
    opened = await world.ada.click(board, label="Move")
    menu = opened_menu(opened, board)
    assert menu.content.startswith("**Your move** (1/2)")
    assert opened.response.content == board.content, "the deferred update changes nothing on the board"
    # Others clicking Move meanwhile are refused at once, privately, and do not take the board's token.
    for other, why in (
        (world.bo, f"It is {world.ada.mention}'s turn."),
        (world.cy, "You are not playing in this game."),
    ):
        refused = await other.click(board, label="Move")
        assert refused.ephemeral
        assert not refused.deferred, "a refusal is the click's answer itself, not a deferred one"
        assert refused.response.content == why
        assert refused.followups == []
    await world.ada.select(menu, ["c1"])
    await world.ada.select(menu, ["d2"])
    assert menu.content == "Done. **Ada** moved c1-d2."
    await world.env.advance_time(10)  # and the card's edit, 4 s later
    counted, exempt = since()
    assert board_edits(counted, record) == [], "the board's edit is not one of the token's 50 a second"
    assert len(edits_through(exempt, token_of_first_click(exempt))) == 1, "the Move click's token edited the board"
    shown = game_message(world, record)
    assert "**Ada** moved c1-d2." in shown.content
    assert f"It is {world.bo.mention}'s turn." in shown.content
    assert [c.label for row in shown.components for c in row.children][:1] == ["Move"], "its controls stay"


async def test_octiles_set_up_in_the_menu_edits_the_board_through_the_set_up_click(world):
    world.platform.challenges.new_seed = lambda: 1234  # Ada is Gold and sets up first
    record = await started(world, "octiles")
    for member, choices, said in (
        (world.ada, (["C3"], ["D4"]), "put the Gold runner on C3 and the Teal runner on D4"),
        (world.bo, (["A2"],), "set out the prizes from A2"),
    ):
        board = game_message(world, record)
        since = one_move(world)
        menu = opened_menu(await member.click(board, label="Set up"), board)
        for values in choices:
            await member.select(menu, values)
        assert menu.content.startswith("Done.")
        await world.env.advance_time(10)
        counted, exempt = since()
        assert board_edits(counted, record) == []
        assert len(edits_through(exempt, token_of_first_click(exempt))) == 1
        assert said in game_message(world, record).content
    assert (await world.platform.sessions.load(record.id)).state.phase == "turn"


async def test_a_menu_with_one_action_plays_it_at_once_and_answers_privately(world):
    """The button's click plays the only action: its answer is a private follow-up, never an edit of
    the board in its place, and the board is edited through that click's token."""
    record = await started(world, "tiny", wide=True)
    await world.set_state(record.id, TinyState(seed=1, players=2, total=198, target=200, most=40))
    await world.env.advance_time(10)
    board = game_message(world, record)
    since = one_move(world)
    opened = await world.ada.click(board, label="Add…")  # +1 or +2: a choice
    menu = opened_menu(opened, board)
    await world.ada.select(menu, ["1"])
    await world.env.advance_time(10)
    board = game_message(world, record)
    answer = opened_menu(await world.bo.click(board, label="Add…"), board)  # +1 only: played at once
    assert answer.content == "Done. **Bo** added 1."
    assert answer.components == []
    await world.env.advance_time(10)
    counted, _ = since()
    assert board_edits(counted, record) == [], "both boards through the clicks' tokens"
    assert counter_shown(world, record) == "The counter is at 200."
    assert (await world.platform.sessions.load(record.id)).status == "finished"


async def test_a_slow_turn_check_acknowledges_the_click_first(world, monkeypatch):
    """A session read slower than the menus allow before answering (Discord drops a click left 3 s):
    the click is acknowledged as an update meanwhile, then the menu, or a refusal, follows privately."""
    monkeypatch.setattr(menus, "CHECK_SECONDS", 0.01)
    record = await started(world, "tiny", wide=True)
    sessions = world.platform.sessions
    check = sessions.seat_on_turn
    slow = []

    async def slow_once(*args, **kwargs):
        if not slow:
            slow.append(args)
            await asyncio.sleep(0.2)  # longer than CHECK_SECONDS: given up
        return await check(*args, **kwargs)

    monkeypatch.setattr(sessions, "seat_on_turn", slow_once)
    board = game_message(world, record)
    menu = opened_menu(await world.ada.click(board, label="Add…"), board)
    assert menu.content == "**Your turn**: how much do you add?"
    slow.clear()
    refused = await world.bo.click(board, label="Add…")
    assert refused.deferred
    assert refused.response.id == board.id
    assert [m.content for m in refused.followups] == [f"It is {world.ada.mention}'s turn."]
    assert all(m.ephemeral for m in refused.followups)
    await world.ada.select(menu, ["5"])
    assert menu.content == "Done. **Ada** added 5."
