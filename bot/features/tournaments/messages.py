"""A tournament's messages in its channel, as outbox entries of its session: the card (edited as it
goes), a round's pairings, the standings after each round, and a line of news. What they say is
the event's own (:mod:`bot.features.tournaments.cards`, and each kind's text)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.core.change import Change, GameSession
from bot.core.outgoing import Outgoing
from bot.core.store import Store
from bot.core.workers import WorkerPool
from bot.features.tournaments import store as event_store
from bot.features.tournaments.cards import card_message, standings_text
from bot.features.tournaments.event import Links
from bot.features.tournaments.kinds import event_of, load_event
from bot.ui.adapter import GameAdapter
from render.theme import Picture

# Outbox kinds of a tournament's session.
CARD = "tournament_card"  # its card in the channel, edited as it goes
PAIRINGS = "tournament_pairings"  # a round's pairings: text and picture, a new message
STANDINGS = "tournament_standings"  # after each round (and the final one): text and picture
OPEN_GAMES = "tournament_open_games"  # opens the round's games that have none yet
ANNOUNCE = "tournament_text"  # a line in the channel (cancelled, paused, a player withdrawn)

NO_MENTIONS = discord.AllowedMentions.none()
PINGS = discord.AllowedMentions(users=True, roles=False, everyone=False)


class EventMessages:
    """Builds each message from the session as it is when the outbox sends it (the standings
    from the state their post was written with)."""

    def __init__(self, *, store: Store, games: Mapping[str, GameAdapter], pictures: WorkerPool):
        self.store, self.games, self.pictures = store, games, pictures

    async def card(self, session: GameSession, _: dict[str, Any]) -> Outgoing:
        titles = {name: adapter.title for name, adapter in self.games.items()}
        links = await self.links(session) if session.status == "finished" else {}  # only the final card lists games
        content, view = card_message(titles, session, links)
        record = session.record
        return Outgoing(content, view=view, edit=record.card_id, channel_id=record.channel_id, mentions=NO_MENTIONS)

    @staticmethod
    async def card_posted(change: Change, _: dict[str, Any], message: discord.Message | None) -> None:
        if message is not None:
            change.record.card_id = message.id

    async def links(self, session: GameSession) -> Links:
        if session.state is None:
            return {}
        return await event_store.games_of(self.store, session.id)

    async def pairings(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        if session.state is None:
            return None
        shown = event_of(session.state).pairings(payload["round"], session.meta.options["name"])
        if shown is None:
            return None
        content, picture = shown
        return Outgoing(
            content, [await self.pictures.draw(picture)], channel_id=session.record.channel_id, mentions=PINGS
        )

    async def standings(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        if "state" in payload:
            event = load_event(payload["state"])
        elif session.state is not None:
            event = event_of(session.state)
        else:
            return None
        name = session.meta.options["name"]
        final = payload.get("final", session.status == "finished")
        picture = await self.pictures.draw(event.standings_picture(name))
        content = standings_text(event, name, payload.get("round", 0), final)
        if final:
            content += "\n" + "\n".join(event.game_lines(await self.links(session)))
        return Outgoing(content, [picture], channel_id=session.record.channel_id, mentions=NO_MENTIONS)

    @staticmethod
    async def announcement(session: GameSession, payload: dict[str, Any]) -> Outgoing:
        return Outgoing(payload["content"], channel_id=session.record.channel_id, mentions=NO_MENTIONS)

    async def standings_picture(self, session: GameSession) -> Picture:
        """The standings now (/tournament standings, the card's button)."""
        picture: Picture = await self.pictures.draw(
            event_of(session.state).standings_picture(session.meta.options["name"])
        )
        return picture
