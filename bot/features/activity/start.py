"""A game started on the board (``POST /api/games``): an ordinary challenge of that channel, made by
the same code as ``/<game> challenge`` (bot/app.py's generated command calls it the same way).

That code reads, of the interaction it is given, who asks and where, and answers privately; a
board's request is not an interaction, so :class:`BoardRequest` gives the challenge code the same
few things (the member, the server, the channel and the bot's permissions there) and collects the
private answers for the page.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.errors import UserError
from bot.features.activity.auth import Identity

COMPUTER = "computer"


class _Answers:
    """The private answers of the challenge code, kept for the page (``response`` and ``followup``)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def is_done(self) -> bool:
        return True  # acknowledged: what follows is a follow-up

    async def send(self, content: str = "", **_: Any) -> None:
        self.said.append(content)


class BoardRequest:
    """What the challenge code reads of an interaction, for a member asking on the board."""

    def __init__(self, bot: discord.Client, member: discord.Member, channel: Any):
        self.client = bot
        self.id = 0  # no interaction: only the logs read it
        self.user = member
        self.guild = member.guild
        self.guild_id = member.guild.id
        self.channel = channel
        self.channel_id = channel.id
        self.app_permissions = channel.permissions_for(member.guild.me)
        self.response = self.followup = _Answers()


async def start_game(bot: Any, platform: Any, identity: Identity, member: discord.Member, body: dict[str, Any]) -> int:
    """The session a board's "play" starts in its channel: a challenge to a member, or a game against
    the computer; UserError with the challenge code's own reasons."""
    game, opponent = body.get("game"), body.get("opponent")
    adapter = platform.games.get(game) if isinstance(game, str) else None
    if adapter is None or not adapter.challengeable:
        raise UserError("That game cannot be started from the board.")
    channel = member.guild.get_channel_or_thread(identity.channel_id)
    if channel is None:
        raise UserError("I cannot see that channel.")
    invitee = bot.user if opponent == COMPUTER else await _member(member.guild, opponent)
    request = BoardRequest(bot, member, channel)
    seats = {"challenger": member.id, "opponent": invitee.id}
    options = adapter.chosen_options({}, seats)
    before = {record.id for record in await live_here(platform, identity.channel_id)}
    await platform.context.challenge(request, adapter.name, [invitee], options, None)
    started = [
        record
        for record in await live_here(platform, identity.channel_id)
        if record.id not in before and record.host_id == member.id
    ]
    if not started:
        raise UserError(" ".join(request.response.said) or "The game could not be started.")
    newest: int = max(record.id for record in started)
    return newest


async def _member(guild: discord.Guild, opponent: Any) -> discord.Member:
    try:
        user_id = int(opponent)
        return guild.get_member(user_id) or await guild.fetch_member(user_id)
    except (TypeError, ValueError, discord.NotFound):
        raise UserError("Choose an opponent who is a member of this server, or the computer.") from None


async def live_here(platform: Any, channel_id: int) -> list[Any]:
    """The live sessions of a channel: the one played in it, and those of its games' threads."""
    store = platform.store
    here = await store.live_session(channel_id)
    return [*([here] if here else []), *await store.threaded_sessions(channel_id)]
