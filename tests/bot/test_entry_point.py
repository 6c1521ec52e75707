"""Opening the board from Discord: the Entry Point command in the global commands' sync, as the
request body the simulated Discord receives, and the game message's "Open the board" answered
with Discord's launch of the Activity (callback type 12), or privately with the way in where
Discord does not launch it (SimCord answers type 12 with "unknown interaction callback type")."""

from __future__ import annotations

import discord
import pytest
import simcord.backend.errors
import simcord.backend.ops.commands
import simcord.http.routes.commands

from bot.core.settings import Settings
from bot.dev.world import private_messages, private_texts
from bot.features.activity.launch import entry_point_command
from bot.games.octego import OctegoAdapter
from bot.ui.game_message import OPEN_BOARD

ACTIVITY_URL = "https://octagon.example.org"
COMMANDS_PUT = "/applications/{}/commands"


@pytest.fixture(autouse=True)
def discord_takes_the_entry_points_handler(monkeypatch):
    """SimCord refuses the Entry Point's ``handler`` field (it models no Activities); Discord
    documents it for command type 4, so the simulated Discord is taught to take it."""
    fields = (*simcord.backend.ops.commands.COMMAND_FIELDS, "handler")
    monkeypatch.setattr(simcord.backend.ops.commands, "COMMAND_FIELDS", fields)
    monkeypatch.setattr(simcord.http.routes.commands, "COMMAND_FIELDS", fields)


@pytest.fixture
def games():
    return [OctegoAdapter]


@pytest.fixture
def activity_url() -> str | None:
    """ACTIVITY_URL: unset, unless a test gives it (``with_activity``)."""
    return None


@pytest.fixture
def settings(activity_url, tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "test.db"), game_threads=False, activity_url=activity_url)


with_activity = pytest.mark.parametrize("activity_url", [ACTIVITY_URL])


def global_syncs(world) -> list[list[dict]]:
    """The bodies of every bulk overwrite of the global commands the bot sent."""
    path = COMMANDS_PUT.format(world.bot.application_id)
    return [entry.json for entry in world.env.backend.http_requests if entry.method == "PUT" and entry.path == path]


@with_activity
async def test_the_sync_keeps_the_entry_point_command(world):
    (payload,) = global_syncs(world)
    entry_points = [command for command in payload if command.get("type") == 4]
    assert entry_points == [
        {"name": "launch", "description": entry_point_command()["description"], "type": 4, "handler": 2}
    ]
    assert {command["name"] for command in payload} >= {"octego", "launch", "help", "stop"}
    # The same tree and the same setting: nothing is sent again after a restart.
    await world.restart(world.bot.settings, [OctegoAdapter])
    assert len(global_syncs(world)) == 1


async def test_without_an_activity_no_entry_point_is_sent(world):
    (payload,) = global_syncs(world)
    assert payload
    assert all(command.get("type", 1) != 4 for command in payload)
    assert "handler" not in str(payload)


REFUSED = "You cannot remove this app's Entry Point command in a bulk update operation"


@pytest.fixture
def activities_enabled(monkeypatch):
    """Discord's rule once Activities are enabled in the developer portal (SimCord has no such rule):
    a bulk overwrite of the global commands without the Entry Point command is refused."""
    original = simcord.http.routes.commands._bulk_upsert_commands

    def bulk_upsert(ctx, guild_id):
        if guild_id is None and not any(command.get("type") == 4 for command in ctx.json or []):
            raise simcord.backend.errors.invalid_form_body(REFUSED)
        return original(ctx, guild_id)

    monkeypatch.setattr(simcord.http.routes.commands, "_bulk_upsert_commands", bulk_upsert)


async def sync_again(world) -> None:
    """The bot's sync as at a start after the command tree changed."""
    async with world.platform.store.transaction() as tx:
        await tx.set_value("command_tree_hash", "")
    await world.bot.sync_commands()


@with_activity
async def test_discord_takes_the_sync_once_activities_are_enabled(world, activities_enabled):
    await sync_again(world)
    assert len(global_syncs(world)) == 2


async def test_without_activity_url_discord_would_refuse_the_sync(world, activities_enabled):
    """Why the setting matters: an application with Activities enabled must say so (ACTIVITY_URL)."""
    with pytest.raises(discord.HTTPException, match=REFUSED):
        await sync_again(world)


async def start(world):
    result = await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    assert result.acknowledged
    await world.bo.click(world.channel.last_message, label="Accept")
    session = await world.session()
    assert session.record.status == "active"
    return session


def buttons(message) -> dict[str, object]:
    return {c.label: c for row in message.components for c in row.children}


@with_activity
async def test_open_the_board_asks_discord_to_launch_the_activity(world):
    session = await start(world)
    game_message = world.message(session.record.message_id)
    button = buttons(game_message)["Open the board"]
    assert button.custom_id == f"b:{session.id}:{OPEN_BOARD}:"
    world.env.backend.http_requests.clear()
    result = await world.cy.click(game_message, label="Open the board")  # a spectator opens it too
    callbacks = [e for e in world.env.backend.http_requests if e.path.startswith("/interactions/")]
    assert callbacks[0].method == "POST"
    assert callbacks[0].path.endswith("/callback")
    assert callbacks[0].json == {"type": 12}  # LAUNCH_ACTIVITY, as Discord documents it: no data
    # SimCord does not launch Activities (400, unknown callback type): the way in, privately.
    (said,) = private_texts(result)
    assert "App Launcher" in said
    assert "(🚀)" in said
    assert (await world.session()).action_number == session.action_number  # nothing changed


async def test_without_an_activity_there_is_no_button(world):
    session = await start(world)
    assert "Open the board" not in buttons(world.message(session.record.message_id))


async def test_in_the_playground_the_answer_links_to_the_page(world):
    world.platform.board.page = "http://127.0.0.1:8765/"  # as the playground does when it serves the page
    session = await start(world)
    world.env.backend.http_requests.clear()
    result = await world.bo.click(world.message(session.record.message_id), label="Open the board")
    assert not any(e.json == {"type": 12} for e in world.env.backend.http_requests)  # not Discord's to launch
    (answer,) = private_messages(result)
    (link,) = [c for row in answer.components for c in row["components"]]
    member = f"user={world.bo.id}&guild={world.guild.id}&channel={world.channel.id}"  # signed in as by the mock
    assert (link["style"], link["url"]) == (5, f"http://127.0.0.1:8765/?session={session.id}&{member}")  # a link
