"""What a move costs of Discord's 50 requests a second (issue 41), counted in the strict layer's log
of one move: a click on the public game message lends its token to the board's edit, which Discord
does not count, and so does the click that opened a private menu (tests/bot/test_menu_tokens.py);
a move after a restart edits the board the counted way;
a member who is at the game gets no notice (none is posted or edited), one who is away a new ping."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace

import discord
import pytest

from bot.core.outgoing import TOKEN_SECONDS, Clicks
from bot.core.pace import RequestBudget
from bot.core.settings import Settings
from bot.dev import discord_rules
from bot.features.turn_notices import AT_THE_GAME_SECONDS
from tests.bot.answers import opened_menu
from tests.bot.test_on_discords_terms import counter_shown, game_message, thread_of, tiny_game
from tests.bot.tinygame import TinyAdapter


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "budget.db"))  # games in threads


@pytest.fixture
def games():
    return [TinyAdapter]


def one_move(world) -> tuple[list[discord_rules.Request], list[discord_rules.Request]]:
    """Marks the strict layer's log: call the result after the move for (counted, exempt) requests."""
    rules = discord_rules.rules_of(world.env.backend)
    counted, exempt = len(rules.counted), len(rules.exempt)
    return lambda: (rules.counted[counted:], rules.exempt[exempt:])


def board_edits(requests, record) -> list[discord_rules.Request]:
    return [r for r in requests if r.method == "PATCH" and r.path.endswith(f"/messages/{record.message_id}")]


async def started(world):
    record = await tiny_game(world, world.ada, world.bo)
    await world.env.advance_time(10)  # the card, the thread and the board out
    return await world.platform.store.get_session(record.id)


async def test_a_click_on_the_board_edits_it_through_its_own_token_uncounted(world):
    record = await started(world)
    since = one_move(world)
    await world.ada.click(game_message(world, record), label="+1")
    await world.env.advance_time(10)  # and the card's edit, 4 s later
    counted, exempt = since()
    assert board_edits(counted, record) == [], "the board's edit is not one of the token's 50 a second"
    assert any(r.method == "PATCH" and r.path.endswith("/messages/@original") for r in exempt)
    assert counter_shown(world, record) == "The counter is at 1."
    shown = game_message(world, record)
    assert [c.label for row in shown.components for c in row.children][:2] == ["+1", "+2"], "its controls stay"


async def test_a_move_made_in_a_private_menu_edits_the_board_through_the_token_of_the_click_that_opened_it(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo, wide=True)
    card = world.channel.last_message
    await world.bo.click(card, label="Accept")
    await world.env.advance_time(10)
    (record,) = await world.platform.store.threaded_sessions(world.channel.id)
    since = one_move(world)
    board = game_message(world, record)
    panel = opened_menu(await world.ada.click(board, label="Add…"), board)
    await world.ada.select(panel.message, ["3"])
    await world.env.advance_time(10)
    counted, _ = since()
    assert board_edits(counted, record) == [], "the Add… click's token edits the board; the panel's, the panel"
    assert counter_shown(world, record) == "The counter is at 3."
    assert "Add…" in [c.label for row in game_message(world, record).components for c in row.children]


async def test_after_a_restart_the_board_is_edited_the_counted_way(world, settings, games):
    record = await started(world)
    old = world.env.bot
    await old.platform.stop()  # the click comes while no process runs: its edit is sent after the start
    from bot.app import create_bot

    await world.env.restart_bot(create_bot(settings, games))
    await old.release()
    await world.env.settle()
    since = one_move(world)
    await world.ada.click(game_message(world, record), label="+2")
    await world.env.advance_time(10)
    counted, _ = since()
    assert len(board_edits(counted, record)) <= 1
    assert counter_shown(world, record) == "The counter is at 2."


def test_a_clicks_token_is_used_for_fourteen_minutes_and_only_after_an_update():
    now = discord.utils.utcnow()
    clock = SimpleNamespace(now=now)
    clicks = Clicks(lambda: clock.now)
    update = SimpleNamespace(type=discord.InteractionResponseType.deferred_message_update)
    private = SimpleNamespace(type=discord.InteractionResponseType.deferred_channel_message)
    clicks._latest[1] = SimpleNamespace(created_at=now, response=update)
    clicks._latest[2] = SimpleNamespace(created_at=now, response=private)
    assert clicks.on(1) is not None
    assert clicks.on(2) is None, "a click answered privately has the private answer as its original"
    clock.now = now + timedelta(seconds=TOKEN_SECONDS)
    assert clicks.on(1) is None, "an old token is not tried (Discord would answer 401)"


def notices(world, record) -> list[discord.Message]:
    return [m for m in thread_of(world, record).history() if "your move" in m.content]


def in_thread(requests, record) -> list[str]:
    return [r.method for r in requests if r.path.startswith(f"/channels/{record.thread_id}/messages")]


async def test_members_at_the_game_get_no_notice_and_one_away_is_pinged(world):
    """A notice only when it must ping: members moving in turn within two minutes cost no notice
    request after the first; a member away for three minutes is pinged by a new notice, which goes
    once they have moved."""
    record = await started(world)  # Tiny: the first to reach 8 wins, adding 1 or 2 a move
    await world.ada.click(game_message(world, record), label="+1")  # Bo has not acted yet: pinged
    await world.env.advance_time(10)
    [first] = notices(world, record)
    assert first.content.startswith(f"🔔 {world.bo.mention}, your move in Tiny")
    since = one_move(world)
    await world.bo.click(game_message(world, record), label="+1")  # Ada acted 10 s ago: at the game
    await world.env.advance_time(10)
    counted, _ = since()
    assert notices(world, record) == [], "Bo's notice went, and Ada, at the game, got none"
    assert in_thread(counted, record) == ["DELETE"], "the stale notice deleted, nothing posted or edited"
    since = one_move(world)
    for member in (world.ada, world.bo):  # each a minute after the other's move
        await member.click(game_message(world, record), label="+1")
        await world.env.advance_time(60)
    counted, _ = since()
    assert in_thread(counted, record) == [], "no notice posted, edited or deleted while both play"
    assert notices(world, record) == []
    assert counter_shown(world, record) == "The counter is at 4."
    await world.env.advance_time(AT_THE_GAME_SECONDS + 60)  # both step away for three minutes
    since = one_move(world)
    await world.ada.click(game_message(world, record), label="+1")
    await world.env.advance_time(10)
    counted, _ = since()
    [ping] = notices(world, record)
    assert ping.content.startswith(f"🔔 {world.bo.mention}, your move in Tiny: **Ada** added 1.")
    assert [u.id for u in ping.mentions] == [world.bo.id], "a new message, so that Discord notifies Bo"
    assert in_thread(counted, record) == ["POST"]
    since = one_move(world)
    await world.bo.click(game_message(world, record), label="+1")  # Ada acted 10 s ago: at the game
    await world.env.advance_time(10)
    counted, _ = since()
    assert notices(world, record) == [], "Bo moved: the notice that pinged him went, no stale one stands"
    assert in_thread(counted, record) == ["DELETE"]


async def test_shard_processes_together_stay_under_discords_fifty_a_second():
    """Four processes of one token, two shards of eight each: their budgets, spent at once as fast as
    they allow, never pass 49 requests in any second together (the split is kept per process, no
    process asks another)."""
    budgets = [RequestBudget.share(2, 8) for _ in range(4)]
    loop = asyncio.get_running_loop()
    went: list[float] = []

    async def spend(budget: RequestBudget) -> None:
        for _ in range(budget.per_second + 5):  # a second's share and some: the rest wait
            await budget.take()
            went.append(loop.time())

    await asyncio.gather(*(spend(budget) for budget in budgets))
    assert max(sum(1 for t in went if start <= t < start + 1.0) for start in went) <= 49
    assert all(b.waited for b in budgets), "each process's requests past its share waited"
    assert sum(1 for t in went if t < min(went) + 1.0) == sum(b.per_second for b in budgets) == 44


async def test_a_board_that_waits_for_its_place_is_sent_with_the_newest_state(world):
    """Moves that come while a board's edit waits for its place in the budget are not each sent:
    the edits waiting behind it are sent as one, with the newest state."""
    record = await started(world)
    budget = world.platform.outbox.budget
    since = one_move(world)
    with world.env._bot_scope():
        now = asyncio.get_running_loop().time()
        for _ in range(budget.per_second):  # the budget is spent for this second
            budget._window.count(now)
        for amount in (1, 2, 1, 2):
            session = await world.platform.sessions.load(record.id)
            member = session.players[session.state.turn]
            await world.platform.sessions.act(record.id, member, {"type": "add", "amount": amount})
    await world.env.advance_time(10)
    counted, _ = since()
    assert 1 <= len(board_edits(counted, record)) <= 2, "four moves, at most two edits of the board"
    assert counter_shown(world, record) == "The counter is at 6."
