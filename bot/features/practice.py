"""A private practice table: a position a member plays alone with the game's own menus (a lesson,
a puzzle), as a session that is never stored. Unrated practice: no result, no rating, no history."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord

from bot.core.sessions import GameSession, SessionMeta
from bot.core.store import SessionRecord

NO_SESSION = 0  # the session part of practice controls' custom ids: a practice table is no stored session


def practice_table(interaction: discord.Interaction, game: str, schema: int, state: Any, seat: int) -> GameSession:
    """``state`` as a table with the member in ``seat`` and me in every other one."""
    me = interaction.client.user
    assert me is not None  # the bot is logged in: it answers an interaction
    players = [me.id] * state.players
    names = [me.display_name] * state.players
    players[seat], names[seat] = interaction.user.id, interaction.user.display_name
    now = datetime.now(UTC)
    record = SessionRecord(
        id=NO_SESSION,
        game=game,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        host_id=interaction.user.id,
        players=players,
        status="active",
        state={},
        schema_version=schema,
        created_at=now,
        updated_at=now,
    )
    return GameSession(record=record, state=state, meta=SessionMeta(names=names))
