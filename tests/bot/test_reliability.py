"""Faults a hostile tester would try: many players at once, restarts, Discord refusing calls,
a failing statement, another process holding the database. Nothing is lost or stranded."""

from __future__ import annotations

import ast
import asyncio
import gc
import re
import sqlite3
from pathlib import Path

import discord
import pytest

from bot.dev.world import private_texts
from bot.games.octagion import OctagionAdapter
from bot.ui.replies import BUSY_TEXT
from engines.octagion import solution
from tests.bot.tinygame import TinyAdapter

BOT = Path(__file__).resolve().parents[2] / "bot"
SEED = 1234


@pytest.fixture
def games():
    return [TinyAdapter, OctagionAdapter]


async def start_tiny(world, channel=None):
    channel = channel or world.channel
    await world.ada.slash(channel, "tiny challenge", opponent=world.bo)
    await world.bo.click(channel.last_message, label="Accept")
    return channel.last_message


async def start_octagion(world, joiners, **options):
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start", **options)
    lobby = world.channel.last_message
    for member in joiners:
        await member.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    return world.channel.last_message


async def live(world):
    return await world.platform.sessions.live_in_channel(world.channel.id)


def modal_value(result) -> str:
    return result.modal["components"][0]["components"][0].get("value") or ""


# ------------------------------------------------------------------ the variant form


async def test_four_players_open_build_variant_at_once_and_all_are_saved(world):
    members = [world.ada, world.bo, world.cy, world.di]
    round1 = await start_octagion(world, members[1:], rounds=1)
    word = (await live(world)).state.words[0]
    shown = [await member.click(round1, label="Build variant") for member in members]
    assert all(result.modal is not None for result in shown)
    assert world.bot._connection._view_store._modals == {}, "no form object is kept in memory"
    cards = solution(word)
    answers = [
        await m.submit_modal(s, {"variant": " ".join(cards[: i + 1])})
        for i, (m, s) in enumerate(zip(members, shown, strict=True))
    ]
    for placed, answer in enumerate(answers, start=1):
        assert f"({placed} of 8 placed)" in private_texts(answer)[-1]
    variants = (await live(world)).state.variants
    assert [sum(cell is not None for cell in variants[team]) for team in range(4)] == [1, 2, 3, 4]


async def test_a_form_opened_before_a_restart_is_answered_after_it(world, settings):
    round1 = await start_octagion(world, [world.bo], rounds=1)
    word = (await live(world)).state.words[0]
    shown = await world.bo.click(round1, label="Build variant")
    await world.restart(settings, [TinyAdapter, OctagionAdapter])
    answer = await world.bo.submit_modal(shown, {"variant": " ".join(solution(word))})
    assert "(8 of 8 placed)" in private_texts(answer)[-1]
    assert None not in (await live(world)).state.variants[1]


# ------------------------------------------------------------------ Discord refusing calls


async def test_a_challenge_that_cannot_be_posted_is_closed_and_frees_the_channel(world):
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=403, code=50013)
    result = await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    assert "could not post in this channel" in private_texts(result)[-1]
    assert await live(world) is None, "nobody can see it, so it does not block the channel"
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    assert "challenges you" in world.channel.last_message.content


async def test_a_lobby_that_cannot_be_posted_is_closed(world):
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=403, code=50013)
    result = await world.ada.slash(world.channel, "octagion start")
    assert "could not post in this channel" in private_texts(result)[-1]
    assert await live(world) is None


async def test_a_lobby_closes_after_fifteen_idle_minutes(world):
    await world.ada.slash(world.channel, "octagion start")
    lobby = world.channel.last_message
    await world.env.advance_time(10 * 60)
    await world.bo.click(lobby, label="Join")  # activity restarts the idle clock
    await world.env.advance_time(10 * 60)
    assert (await live(world)).record.status == "lobby"
    await world.env.advance_time(6 * 60)
    assert await live(world) is None
    assert "lobby closed" in world.message(lobby.id).content
    assert world.message(lobby.id).components == []


async def test_round_clock_starts_only_once_the_round_is_visible(world):
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start", rounds=2)
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    # The round's message fails twice (Discord down for a few seconds), then goes out.
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503, times=2)
    started = world.env.now()
    await world.ada.click(lobby, label="Start")
    await world.env.advance_time(10)  # retries after 2 and 4 seconds
    round1 = world.channel.last_message
    assert "Round 1 of 2" in round1.content
    session = await live(world)
    [timer] = [t for t in await world.platform.store.timers(session.id) if t.kind == "octagion_round_end"]
    assert f"<t:{int(timer.deadline.timestamp())}:R>" in round1.content, "the clock players see is the real one"
    assert (timer.deadline - started).total_seconds() > 120, "the clock started after the retries"


async def test_a_result_that_fails_to_post_is_posted_later_and_the_click_succeeds(world):
    round1 = await start_octagion(world, [world.bo], rounds=2)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503, times=3)
    clicked = await world.bo.click(round1, label="Got it!")
    await world.env.advance_time(20)  # retries after 2, 4 and 8 seconds
    assert [t for t in private_texts(clicked) if "wrong" in t] == [], "a click that took effect is not a failure"
    results = [m for m in world.channel.history() if m.content.startswith("### Round 1 of 2: result")]
    assert len(results) == 1
    assert await world.platform.store.outbox() == []


async def test_a_failed_game_message_edit_is_retried(world):
    game = await start_tiny(world)
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{game.id}", status=503, times=2)
    await world.ada.click(game, label="+2")
    await world.env.advance_time(10)  # retries after 2 and 4 seconds
    assert "**Ada** added 2." in world.message(game.id).content
    assert await world.platform.store.outbox() == []


# ------------------------------------------------------------------ the database


async def test_a_failing_statement_in_one_channel_leaves_another_channels_move_stored(world):
    other = world.guild.create_text_channel("more-games")
    await start_tiny(world)
    await start_tiny(world, other)
    first = await live(world)
    second = await world.platform.sessions.live_in_channel(other.id)
    store = world.platform.store
    await store.database.execute(
        f"CREATE TEMP TRIGGER fail_first BEFORE INSERT ON actions WHEN NEW.session_id = {first.id} "
        "BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
    )
    add = {"type": "add", "amount": 2}
    results = await asyncio.gather(
        world.platform.sessions.act(first.id, world.ada.id, add),
        world.platform.sessions.act(second.id, world.ada.id, add),
        return_exceptions=True,
    )
    assert isinstance(results[0], sqlite3.IntegrityError)
    assert not isinstance(results[1], Exception)
    assert (await world.platform.sessions.load(second.id)).state.total == 2
    assert [a[2] for a in await store.actions(second.id)] == [add]
    assert (await world.platform.sessions.load(first.id)).state.total == 0
    assert await store.actions(first.id) == []
    assert await store.integrity_check() == "ok"


async def test_another_process_holding_the_database_gets_a_clear_busy_answer(world, settings):
    game = await start_tiny(world)
    holder = sqlite3.connect(settings.database_path, timeout=0)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = await world.ada.click(game, label="+1")
    finally:
        holder.rollback()
        holder.close()
    assert result.acknowledged, "acknowledged before touching the database"
    assert private_texts(result) == [BUSY_TEXT]
    assert (await live(world)).state.total == 0, "no state change"
    await world.ada.click(game, label="+1")
    assert (await live(world)).state.total == 1, "once the lock is gone, the move goes through"


async def test_a_finished_game_has_exactly_one_result(world):
    game = await start_tiny(world)
    session = await live(world)
    question = (await world.bo.click(game, label="Resign")).response
    await world.bo.click(question, label="Resign")
    assert len(await world.platform.store.results(session.id)) == 1
    async with world.platform.sessions.change(session.id) as change:
        change.show()
    assert len(await world.platform.store.results(session.id)) == 1


# ------------------------------------------------------------------ smaller items


async def test_stop_uses_the_members_permissions_in_this_channel(world):
    moderators = world.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    moderator = world.guild.add_member(world.env.create_user("mod"), roles=[moderators])
    helper = world.guild.add_member(world.env.create_user("helper"))
    locked = world.guild.create_text_channel(
        "locked",
        overwrites={
            moderators: discord.PermissionOverwrite(manage_messages=False),
            helper: discord.PermissionOverwrite(manage_messages=True),
        },
    )
    await start_tiny(world, locked)
    refused = await moderator.slash(locked, "stop")
    assert "Only the host" in private_texts(refused)[-1], "Manage Messages is denied in this channel"
    stopped = await helper.slash(locked, "stop")
    assert "stopped the Tiny session" in private_texts(stopped)[-1]
    assert "stopped the Tiny session" in locked.last_message.content


async def test_settings_checks_its_own_permission(world):
    # A server may let everyone see the command (an integration permission override) ...
    commands = await world.bot.tree.fetch_commands()
    [settings_command] = [c for c in commands if c.name == "settings"]
    world.guild.set_command_permissions(settings_command.id, {world.bo: True})
    # ... the command still checks Manage Server itself.
    result = await world.bo.slash(world.channel, "settings turn_clock", clock="5m")
    assert private_texts(result) == ["You do not have permission to use this command."]
    assert await world.platform.turn_clock.seconds(world.guild.id) == 0


async def test_answers_to_a_challenge_whose_session_is_gone(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    challenge = world.channel.last_message
    session = await live(world)
    await world.platform.store.database.execute("DELETE FROM sessions WHERE id = ?", (session.id,))
    for label in ("Accept", "Decline"):
        result = await world.bo.click(challenge, label=label)
        assert private_texts(result) == ["That game no longer exists."]


async def test_locks_and_error_log_do_not_grow_with_the_number_of_games(world):
    game = await start_tiny(world)
    for member in (world.ada, world.bo, world.ada, world.bo):
        await member.click(game, label="+1")
    gc.collect()
    assert len(world.platform.sessions._locks) == 0
    assert world.platform.errors.limit == 100


async def test_octagion_echoes_no_raw_user_text(world):
    await start_octagion(world, [world.bo], rounds=1)
    result = await world.ada.slash(world.channel, "octagion play", cards="@everyone " + "x" * 5000)
    [answer] = private_texts(result)
    assert len(answer) < 2000
    assert "@everyone" not in answer.replace("@\u200beveryone", "")


# ------------------------------------------------------------------ the code itself


def _bot_imports() -> dict[str, set[str]]:
    """Every ``bot.*`` import of every module in bot/, TYPE_CHECKING ones included."""
    graph: dict[str, set[str]] = {}
    for path in BOT.rglob("*.py"):
        module = ".".join(path.relative_to(BOT.parent).with_suffix("").parts).removesuffix(".__init__")
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot"):
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names if alias.name.startswith("bot")}
        graph[module] = found
    return graph


def test_no_import_circle_in_bot():
    graph = _bot_imports()
    visiting, done = set(), set()

    def visit(module: str, path: list[str]) -> None:
        if module in done or module not in graph:
            return
        assert module not in visiting, "import circle: " + " -> ".join([*path, module])
        visiting.add(module)
        for imported in graph[module]:
            visit(imported, [*path, module])
        visiting.discard(module)
        done.add(module)

    for module in graph:
        visit(module, [])


def test_only_the_store_its_databases_and_sessions_take_locks_or_roll_back():
    offenders = [
        f"{path.name}:{number}"
        for path in BOT.rglob("*.py")
        if path.name not in ("store.py", "database.py", "sqlite_database.py", "postgres_database.py", "sessions.py")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"rollback|\.lock\b", line)
    ]
    assert offenders == []


async def test_a_timer_whose_handler_fails_fires_again(world):
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    expire = world.platform.challenges._expire
    fired = []

    async def fails_once(change, timer):
        fired.append(timer.id)
        if len(fired) == 1:
            raise RuntimeError("injected handler failure")
        await expire(change, timer)

    world.platform.timers.register("challenge_expiry", fails_once)
    await world.env.advance_time(5 * 60 + 30)
    assert len(fired) == 2, "the row survived the failure, so the timer fired again"
    assert fired[0] == fired[1]
    assert await live(world) is None
    assert "expired" in world.channel.last_message.content
    assert [str(e) for e in world.platform.errors] == ["injected handler failure"]
    world.platform.errors.clear()
