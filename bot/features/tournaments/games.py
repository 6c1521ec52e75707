"""An event's games: each opened once, in a thread of its own (a series' later races in its first
race's), linked to its pairing; stopped when the round's time is up or the host ends the event,
resigned for a player who withdraws; and whether a player is still in the server to play."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import discord

from bot.core.change import Change, GameSession, SessionMeta
from bot.core.sessions import Sessions
from bot.core.store import LIVE_STATUSES, Store, TimerRecord, Transaction
from bot.features.tournaments import store as event_store
from bot.features.tournaments.config import EventConfig
from bot.features.tournaments.event import Event
from bot.features.tournaments.links import EventLink
from bot.ui.adapter import GameAdapter

STOP_GAME = "tournament_stop_game"  # a timer on a game: its round's time is up, or a player withdrew


class EventGames:
    def __init__(
        self,
        *,
        store: Store,
        sessions: Sessions,
        games: Mapping[str, GameAdapter],
        bot: discord.Client,
        new_seed: Callable[[], int],
    ):
        self.store, self.sessions, self.games, self.bot, self.new_seed = store, sessions, games, bot, new_seed

    async def still_here(self, session: GameSession, user_id: int) -> bool:
        """Whether a player is still in the server (a failed member fetch withdraws them)."""
        if self.bot.user is not None and user_id == self.bot.user.id:
            return True
        guild = self.bot.get_guild(session.record.guild_id) if session.record.guild_id else None
        if guild is None:
            return True
        if guild.get_member(user_id) is not None:
            return True
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True  # not known either way: the game starts, and the clock settles a no-show
        return True

    async def open(self, session: GameSession, event: Event, number: int, table: int, players: list[int]) -> None:
        """Round ``number``'s game at ``table``, in the transaction that links it to its pairing."""
        config = EventConfig.of(session.meta.options)
        adapter = self.games[config.game]
        seed = self.new_seed()
        seating = event.seat(adapter, players, seed, config)
        players = seating.players
        names = [event.name(uid) for uid in players]
        options = adapter.seated_options(seating.options, players)
        link = EventLink(session.id, number, table, config.name, config.rated, seating.first_seat)
        meta = SessionMeta(
            names=names, options=options, seats=players, clock_seconds=seating.clock_seconds, tournament=link.to_meta()
        )
        place = await self._first_thread(session) if event.in_first_thread(number) else None
        async with self.sessions.open(
            game=config.game,
            guild_id=session.record.guild_id,
            channel_id=place or session.record.channel_id,
            host_id=session.record.host_id,
            players=players,
            status="challenge",
            meta=meta,
            busy_text=lambda _: "A race of this series is still running in its thread.",
            in_thread=place is None,
        ) as change:
            change.start(players, names, options, seed)
            adapter.tournament_started(change)
            opened = change.record

            async def linked(tx: Transaction) -> None:
                event_store.link_game(tx, session.id, number, table, opened.id, config.name)

            change.during_commit(linked)

    async def _first_thread(self, session: GameSession) -> int | None:
        first = (await event_store.games_of_round(self.store, session.id, 1)).get(1)
        record = await self.store.get_session(first) if first else None
        return record.thread_id if record else None

    async def running(self, event_id: int, number: int) -> list[int]:
        """Round ``number``'s games still being played."""
        opened = await event_store.games_of_round(self.store, event_id, number)
        running = []
        for game_id in opened.values():
            record = await self.store.get_session(game_id)
            if record is not None and record.status in LIVE_STATUSES:
                running.append(game_id)
        return running

    async def resign_in(self, change: Change, number: int, table: int, user_id: int) -> None:
        """A withdrawn player's running game (``change``: the event's) is resigned in its own change."""
        game_id = (await event_store.games_of_round(self.store, change.record.id, number)).get(table)
        if game_id is None:
            return
        record = await self.store.get_session(game_id)
        if record is not None and user_id in record.players:
            change.add_timer_elsewhere(game_id, STOP_GAME, change.now, {"resign": record.players.index(user_id)})

    @staticmethod
    async def stop(change: Change, timer: TimerRecord) -> None:
        """On a tournament game: the round's time is up (stopped), or a player withdrew (resigned)."""
        if change.record.status != "active":
            return
        seat = timer.payload.get("resign")
        if seat is not None:
            name = change.session.shown_names[seat]
            change.apply(seat, {"type": "resign"}, by=None, event=f"**{name}** withdrew from the tournament.")
            return
        if timer.payload.get("why") == "ended":
            header = "The host ended the tournament: not played"
            change.meta.final_header = header
            change.end("stopped", f"⏹ {header} (no points to either player).")
            return
        header = (
            "Round time is up: the higher seed advances"
            if timer.payload.get("knockout")
            else "Round time is up: scored as a draw"
        )
        change.meta.final_header = header
        change.end("stopped", f"⏰ {header}.")
