"""Small words members read (issue #36, item 16): `/notify on|off` as README says it; a stopped
game keeps Replay and Rematch and no step to take; a clock warning that stays true after the turn;
/history and the replay counting the same moves; a member's `/` list within what a picker shows."""

from __future__ import annotations

import pytest

from bot.dev.world import private_texts
from bot.features.turn_clock import parse_clock
from engines.review import REVIEWABLE
from tests.bot.test_octagion_bot import open_game
from tests.bot.test_replays import finish_by_resigning, play


async def test_notify_takes_on_or_off(world):
    [option] = world.bot.tree.get_command("notify").to_dict(world.bot.tree)["options"]
    assert [choice["value"] for choice in option["choices"]] == ["on", "off"]
    off = await world.bo.slash(world.channel, "notify", pings="off")
    assert private_texts(off) == ['🔕 No more "your move" pings in this server; turn clock warnings still mention you.']
    assert not await world.platform.notices.wanted(world.guild.id, world.bo.id)
    on = await world.bo.slash(world.channel, "notify", pings="on")
    assert private_texts(on)[0].startswith("🔔 I will ping you")
    assert await world.platform.notices.wanted(world.guild.id, world.bo.id)


def labels(message) -> list[str]:
    return [child.label for row in message.components for child in row.children]


@pytest.mark.parametrize("game", ["octa", "octagone", "octego", "octiles"])
async def test_a_stopped_game_keeps_replay_and_rematch_and_no_step_to_take(world, game):
    session = await play(world, game, 4)
    await world.ada.slash(world.channel, "stop")
    message = world.message(session.record.message_id)
    assert "⏹" in message.content
    assert "Step:" not in message.content
    assert "🎯" not in message.content, "no target to play on"
    reviewed = ["Review"] if game in REVIEWABLE else []  # a stopped game can be reviewed too
    assert labels(message) == ["Rematch", "Replay", *reviewed], "as README says: they stay"

    await world.cy.click(message, label="Replay")
    replay = world.channel.last_message
    assert replay.content.startswith(f"🎞️ Replay of {world.platform.games[game].title} #{session.id}: ")
    assert ", stopped by Ada, " in replay.content
    assert replay.attachments

    await world.bo.click(message, label="Rematch")
    assert (await world.session()).status == "challenge"


async def test_a_stopped_octagion_round_asks_nothing_more(world):
    await open_game(world, [world.bo], rounds=2)
    session = await world.session()
    await world.ada.slash(world.channel, "stop")
    message = world.message(session.record.message_id)
    assert "Build your variant" not in message.content
    assert "Got it!" not in labels(message)


@pytest.mark.parametrize(("clock", "shown"), [("30m", "t"), ("2d", "f")])
async def test_a_clock_warning_names_the_deadline_as_a_time_that_stays_true(world, clock, shown):
    """Never a relative time: the warning is never edited, and "you forfeit <t:…:R>" read "you
    forfeit 29 minutes ago unless you move" once the game was over."""
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo, clock=clock)
    await world.bo.click(world.channel.last_message, label="Accept")
    deadline = (await world.session()).meta.turn_deadline
    await world.env.advance_time(parse_clock(clock) // 2 + 1)
    warning = world.channel.last_message
    gone = "half of your turn time is gone"
    assert warning.content == f"⏳ {world.ada.mention}, {gone}: move by <t:{deadline}:{shown}> or you forfeit the game."
    await world.env.advance_time(parse_clock(clock))
    assert "ran out of time" in world.channel.last_message.content, "the game is over"
    assert ":R>" not in world.message(warning.id).content


@pytest.mark.parametrize("game", ["octego", "octa"])
async def test_history_and_the_replay_count_the_same_moves(world, game):
    """A move is an action of the game's own: a resignation ends the game without one."""
    session = await finish_by_resigning(world, game, 2)
    assert session.record.actions == 3, "two moves, then the resignation"
    await world.cy.click(world.message(session.record.message_id), label="Replay")
    assert ", 2 moves." in world.channel.last_message.content
    [line] = [
        line
        for line in private_texts(await world.ada.slash(world.channel, "history"))[-1].splitlines()
        if line[:2] == "1."
    ]
    assert " · 2 moves, " in line, line


async def test_a_member_s_slash_list_fits_fifty_and_names_every_tournament_command(world):
    """The command picker of SimCord's page, the playground's, lists the first 50 in alphabetical
    order (Discord's client loads more as one scrolls): a member's list fits, /tournament included.
    A replay and a record are asked for by game number or in the game's channel, not per game."""
    listed = world.ada.available_commands(world.channel)
    assert len(listed) <= 50, sorted(listed)
    shown = sorted(listed)[:50]
    tournament = {leaf.qualified_name for leaf in world.bot.tree.get_command("tournament").walk_commands()}
    assert tournament <= set(shown)
    assert {"replay", "record"} <= set(shown)
    assert not [leaf for leaf in listed if leaf.endswith((" replay", " record"))]
