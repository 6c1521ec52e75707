"""Tournaments run by the bot: an event is a session of its own (``game = 'tournament'``, its
state the pure :mod:`engines.tournament` data), so it changes like a game: under its lock, in one
transaction with its timers and its outbox entries, restart-proof.

    /tournament create ──► card in the channel (Join, Leave, Start)
    Start (or the start time) ──► round 1 paired ──► pairings posted ──► each game opened in a
    thread of its own (OPEN_GAMES, once per pairing even across a crash: tournament_games' key)
    a game ends ──► in that game's last transaction, a RESULT timer on the tournament, due now
    ──► the tournament's change records it; a complete round posts the standings and pairs the
    next round (or ends with the podium)
    the round's time is up ──► running games scored by the rule on the card, and stopped

No change holds two sessions' locks: a game tells its tournament through a timer written with its
last change, and a tournament stops or forfeits a game through a timer on that game. A tournament
and an Octagion series run the same steps; what differs is the event's own (:mod:`.event`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.core.change import Change, GameSession, SessionMeta
from bot.core.errors import UserError
from bot.core.outbox import Outbox
from bot.core.sessions import Sessions
from bot.core.store import LIVE_STATUSES, Store, TimerRecord
from bot.core.text import NAME_LIMIT, escape
from bot.core.timers import Scheduler
from bot.core.workers import WorkerPool
from bot.features import privacy_store
from bot.features.privacy_store import FORMER_MEMBER
from bot.features.tournaments import store as event_store
from bot.features.tournaments.config import EventConfig
from bot.features.tournaments.event import Event, GameOutcome, Recorded
from bot.features.tournaments.games import STOP_GAME, EventGames
from bot.features.tournaments.kinds import TournamentKit, event_of, new_event
from bot.features.tournaments.links import EventLink, for_event_games
from bot.features.tournaments.messages import ANNOUNCE, CARD, OPEN_GAMES, PAIRINGS, STANDINGS, EventMessages
from bot.features.tournaments.store import KIT
from bot.ui.adapter import GameAdapter
from engines.base import Outcome
from engines.tournament import Player, TournamentError, entries_from_outcome, result_from_outcome

__all__ = ["CARD", "Tournaments", "for_event_games"]

# Timers of a tournament's session (its games' STOP_GAME: bot/features/tournaments/games.py).
START_DUE = "tournament_start"  # the start time typed at create
RESULT = "tournament_result"  # a game's result, written with the game's end
ROUND_DUE = "tournament_round_due"  # the round's time is up


class Tournaments:
    def __init__(
        self,
        *,
        store: Store,
        sessions: Sessions,
        outbox: Outbox,
        timers: Scheduler,
        games: Mapping[str, GameAdapter],
        pictures: WorkerPool,
        bot: discord.Client,
        new_seed: Callable[[], int],
    ):
        self.store, self.sessions, self.bot = store, sessions, bot
        self.games = EventGames(store=store, sessions=sessions, games=games, bot=bot, new_seed=new_seed)
        self.messages = EventMessages(store=store, games=games, pictures=pictures)
        sessions.kits[KIT] = TournamentKit()
        outbox.register(CARD, self.messages.card, self.messages.card_posted, coalesce=True)
        outbox.register(PAIRINGS, self.messages.pairings)
        outbox.register(STANDINGS, self.messages.standings)
        outbox.register(ANNOUNCE, self.messages.announcement)
        outbox.register(OPEN_GAMES, None, deliver=self._open_games)
        timers.register(START_DUE, self._start_due)
        timers.register(RESULT, self._result_in)
        timers.register(ROUND_DUE, self._round_due)
        timers.register(STOP_GAME, self.games.stop)

    # ================================================================ the lobby
    async def create(self, *, guild_id: int, channel_id: int, host_id: int, config: EventConfig) -> Change:
        meta = SessionMeta(names=[], options=config.to_options())
        async with self.sessions.open(
            game=KIT,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            players=[],
            status="lobby",
            meta=meta,
            busy_text=lambda _: "This channel is busy.",
            in_thread=True,  # its games are played in threads: the channel stays free
        ) as change:
            if config.start_at is not None:
                change.add_timer(START_DUE, datetime.fromtimestamp(config.start_at, change.now.tzinfo))
            change.post(CARD)
        return change

    async def join(self, tournament_id: int, user: discord.abc.User) -> str:
        async with self.sessions.change(tournament_id) as change:
            self._check_kit(change)
            name = change.meta.options["name"]
            if change.record.status != "lobby":
                raise UserError(f"**{name}** has already started: joining is closed.")
            if user.bot:
                raise UserError("Bots cannot join a tournament (the host can let the computer play).")
            if user.id in change.record.players:
                raise UserError(f"You have already joined **{name}**.")
            change.record.players.append(user.id)
            change.meta.names.append(user.display_name)
            change.post(CARD)
        return f"✅ You joined **{name}**: {len(change.record.players)} in so far."

    async def leave(self, tournament_id: int, user_id: int) -> str:
        async with self.sessions.change(tournament_id) as change:
            self._check_kit(change)
            name = change.meta.options["name"]
            if change.record.status != "lobby":
                raise UserError(f"**{name}** has started: use `/tournament withdraw` to leave it.")
            if user_id not in change.record.players:
                raise UserError(f"You are not in **{name}**.")
            index = change.record.players.index(user_id)
            del change.record.players[index], change.meta.names[index]
            change.post(CARD)
        return f"You left **{name}**."

    async def start(self, tournament_id: int, user_id: int | None) -> str:
        """Start now (the host, or the start time when ``user_id`` is None)."""
        async with self.sessions.change(tournament_id) as change:
            self._check_kit(change)
            if user_id is not None:
                self._check_host(change, user_id, "start it")
            if change.record.status != "lobby":
                raise UserError("This tournament has already started.")
            return await self._begin(change)

    async def _start_due(self, change: Change, _: TimerRecord) -> None:
        if change.record.status == "lobby":
            await self._begin(change)

    async def _begin(self, change: Change) -> str:
        config = EventConfig.of(change.meta.options)
        change.cancel_timers([START_DUE])
        players = await self._entrants(change, config)
        try:
            event = new_event(config, players)
        except TournamentError as error:
            note = f"❌ **{config.name}** was cancelled: {error}"
            change.end("cancelled", note)
            change.post(CARD)
            change.post(ANNOUNCE, {"content": note})
            return note
        change.session.state = event.state
        change.record.status = "active"
        change.meta.started_at = change.now.isoformat()
        self._pair(change, event)
        change.post(CARD)
        return f"▶ **{config.name}** has started."

    async def _entrants(self, change: Change, config: EventConfig) -> list[Player]:
        """The players with their ratings in this game (seeds), the computer last when it plays."""
        ids = list(change.record.players)
        names = list(change.meta.names)
        if config.computer and self.bot.user is not None and self.bot.user.id not in ids:
            ids.append(self.bot.user.id)
            names.append("Computer")
            change.record.players.append(self.bot.user.id)
            change.meta.names.append("Computer")
        known = {r.user_id: r for r in await self.store.ratings(change.record.guild_id, config.game, ids)}
        return [
            Player(uid, name, (known[uid].mu - 3 * known[uid].sigma) if uid in known else 0.0)
            for uid, name in zip(ids, names, strict=True)
        ]

    # ============================================================ rounds and games
    def _pair(self, change: Change, event: Event) -> None:
        """Pair rounds until one has a game to play (or the event is over)."""
        while not event.is_done():
            event, to_play = event.next_round()
            change.session.state = event.state
            if to_play:
                self._round_started(change, event.under_way())
                return
            self._post_standings(change, event, final=event.is_done())  # byes and forfeits only: on to the next
        self._finish(change)

    def _round_started(self, change: Change, number: int) -> None:
        config = EventConfig.of(change.meta.options)
        change.cancel_timers([ROUND_DUE])
        deadline = change.now + timedelta(seconds=config.round_seconds)
        change.meta.options["deadline"] = int(deadline.timestamp())
        if config.paused:
            change.meta.options["remaining"] = config.round_seconds
        else:
            change.add_timer(ROUND_DUE, deadline, {"round": number})
        if event_of(change.session.state).posts_pairings:
            change.post(PAIRINGS, {"round": number})
        change.post(OPEN_GAMES, {"round": number})

    async def _open_games(self, session: GameSession, payload: dict[str, Any]) -> None:
        """The round's games that are not open yet (a retry after a crash skips those that are);
        it posts nothing itself, so the outbox entry's nonce is not needed."""
        number = payload["round"]
        for _ in range(3):  # a withdrawal found here changes the tournament: look again
            session = await self.sessions.load(session.id)
            if session.status != "active":
                return
            opened = await event_store.games_of_round(self.store, session.id, number)
            event = event_of(session.state)
            games = event.games_to_open(number, opened)
            gone = [uid for _, players in games for uid in players if not await self.games.still_here(session, uid)]
            if gone:
                for uid in gone:
                    await self.withdraw(session.id, uid, reason="left the server")
                continue
            for table, players in games:
                await self.games.open(session, event, number, table, players)
            return

    # ============================================================ results
    async def plan_game_end(self, change: Change, link: EventLink) -> None:
        """In the last change of a game played in an event (``for_event_games`` lets no other
        through): its result, for the event, written in the same transaction as a timer on it."""
        if change.was_status != "active" or change.record.status in LIVE_STATUSES:
            return
        payload: dict[str, Any] = {"round": link.round, "table": link.table, "game": change.record.id}
        outcome = change.outcome or (change.game.engine.outcome(change.state) if change.state is not None else None)
        if change.record.players and isinstance(outcome, Outcome):
            entries = entries_from_outcome(outcome, change.record.players)
            told: GameOutcome = {
                "result": result_from_outcome(outcome, link.first_seat) if len(outcome.scores) == 2 else None,
                "entries": [(e.player, e.place, e.score) for e in entries],
            }
            payload["outcome"] = told
        change.add_timer_elsewhere(link.id, RESULT, change.now, payload)

    async def _result_in(self, change: Change, timer: TimerRecord) -> None:
        if change.record.status != "active":
            return  # ended or cancelled meanwhile: its games' results change nothing
        payload = timer.payload
        step = event_of(change.session.state).record(payload["round"], payload["table"], payload.get("outcome"))
        if step is not None:
            await self._after(change, step)

    async def _after(self, change: Change, step: Recorded) -> None:
        """After a result, a withdrawal or the round's deadline: the card; once the round is
        complete, its standings and the next round (none while paused), or the end."""
        event = step.event
        change.session.state = event.state
        if step.note:
            change.post(ANNOUNCE, {"content": step.note})
        if step.reopen:
            change.post(OPEN_GAMES, {"round": step.number})
        change.post(CARD)
        if not step.round_complete:
            if event.is_done():  # a series with fewer than two players left
                self._finish(change)
            return
        change.cancel_timers([ROUND_DUE])
        self._post_standings(change, event, final=event.is_done(), number=step.number)
        if event.is_done():
            self._finish(change)
        elif not EventConfig.of(change.meta.options).paused:
            await self._next_round(change, event)

    async def _next_round(self, change: Change, event: Event) -> None:
        """Before the next round is paired, every player still entered who has left the server is
        withdrawn, so no pairing (not even one against a withdrawn player) keeps them in."""
        name = change.meta.options["name"]
        for player in event.active():
            if await self.games.still_here(change.session, player.id):
                continue
            event = event.withdraw(player.id).event
            who = escape(player.name, NAME_LIMIT)
            change.post(ANNOUNCE, {"content": f"🚪 **{who}** withdrew from **{name}** (left the server)."})
        change.session.state = event.state
        self._pair(change, event)

    @staticmethod
    def _post_standings(change: Change, event: Event, *, final: bool, number: int | None = None) -> None:
        """The standings after round (or race) ``number`` (by default the one under way), drawn
        from the state as it is now, when that round's last result is recorded: the post may go
        out after the next round is paired, or late after an outage, and still shows and names
        this round."""
        round_ = event.under_way() if number is None else number
        change.post(STANDINGS, {"round": round_, "final": final, "state": event.dump()})

    def _finish(self, change: Change) -> None:
        change.record.status = "finished"
        change.cancel_timers()
        change.post(CARD)

    async def _round_due(self, change: Change, timer: TimerRecord) -> None:
        """The round's time is up: running games are scored by the card's rule and stopped."""
        if change.record.status != "active":
            return
        number: int = timer.payload["round"]
        event = event_of(change.session.state)
        for game_id in await self.games.running(change.record.id, number):
            payload = {"why": "deadline", "knockout": event.higher_seed_advances}
            change.add_timer_elsewhere(game_id, STOP_GAME, change.now, payload)
        step = event.settle_deadline(number)
        if step is not None:
            await self._after(change, step)

    # ============================================================ players and the host
    async def withdraw(
        self, tournament_id: int, user_id: int, *, by: int | None = None, reason: str = "", named: bool = True
    ) -> str:
        """A player leaves a running tournament (``by``: the host removing them): a game still
        running is their forfeit, and they are paired no more."""
        async with self.sessions.change(tournament_id) as change:
            self._check_kit(change)
            if by is not None and by != user_id:
                self._check_host(change, by, "remove a player")
            name = change.meta.options["name"]
            if change.record.status == "lobby":
                if user_id not in change.record.players:
                    raise UserError("That member is not in this tournament.")
                index = change.record.players.index(user_id)
                del change.record.players[index], change.meta.names[index]
                change.post(CARD)
                return f"Left **{name}** before its start."
            if change.record.status != "active":
                raise UserError(f"**{name}** is over: there is nothing to withdraw from.")
            event = event_of(change.session.state)
            if not event.has_player(user_id):
                raise UserError("That member is not in this tournament.")
            try:
                step = event.withdraw(user_id)
            except TournamentError as error:
                raise UserError(str(error)) from None
            if step.resign_at is not None:
                await self.games.resign_in(change, step.number, step.resign_at, user_id)
            who = escape(step.event.name(user_id), NAME_LIMIT) if named else FORMER_MEMBER
            why = f" ({reason})" if reason else ""
            change.post(ANNOUNCE, {"content": f"🚪 **{who}** withdrew from **{name}**{why}."})
            await self._after(change, step)
        return f"🚪 {who} withdrew from **{name}**: their remaining games are forfeited."

    async def forget_member(self, member_id: int, former_id: int) -> None:
        """/privacy delete: the member is withdrawn at once from every event still running (a
        running game forfeited), and every event, over or not, names them "a former member"."""
        for found in await privacy_store.member_sessions(self.store, member_id):
            if found.game != KIT or member_id not in found.players:
                continue
            if found.live:
                with suppress(UserError):  # already withdrawn, or over meanwhile
                    await self.withdraw(found.id, member_id, reason="deleted their data", named=False)
            async with self.sessions.change(found.id) as change:
                self._forget_in(change, member_id, former_id)

    @staticmethod
    def _forget_in(change: Change, member_id: int, former_id: int) -> None:
        if change.session.state is not None:  # a lobby has no event yet: its names are below
            event = event_of(change.session.state)
            if event.has_player(member_id):
                change.session.state = event.forget(member_id, former_id, FORMER_MEMBER).state
        players = change.record.players
        change.meta.names = [
            FORMER_MEMBER if p == member_id else n for p, n in zip(players, change.meta.names, strict=False)
        ]
        change.record.players = [former_id if p == member_id else p for p in players]
        if change.record.card_id is not None:
            change.post(CARD)

    async def pause(self, tournament_id: int, user_id: int, pause: bool) -> str:
        async with self.sessions.change(tournament_id) as change:
            self._check_kit(change)
            self._check_host(change, user_id, "pause or resume it")
            config = EventConfig.of(change.meta.options)
            if change.record.status != "active":
                raise UserError("Only a running tournament can be paused or resumed.")
            if pause == config.paused:
                raise UserError("It is already paused." if pause else "It is not paused.")
            options = change.meta.options
            options["paused"] = pause
            if pause:
                left = max(0, (config.deadline or 0) - int(change.now.timestamp()))
                options["remaining"] = left
                change.cancel_timers([ROUND_DUE])
                note = f"⏸ **{config.name}** is paused: games go on, and no new round starts until it resumes."
            else:
                event = event_of(change.session.state)
                deadline = change.now + timedelta(seconds=config.remaining or 0)
                options["deadline"], options["remaining"] = int(deadline.timestamp()), None
                note = f"▶ **{config.name}** resumed."
                if event.round_done():
                    await self._next_round(change, event)
                else:
                    change.add_timer(ROUND_DUE, deadline, {"round": event.under_way()})
            change.post(ANNOUNCE, {"content": note})
            change.post(CARD)
        return note

    async def end(self, tournament_id: int, user_id: int) -> str:
        """The host ends it now: a lobby is cancelled; running games are stopped and not played (no
        points to either player, in no tie-break), and the final standings say when it ended."""
        async with self.sessions.change(tournament_id) as change:
            self._check_kit(change)
            self._check_host(change, user_id, "end it")
            name = change.meta.options["name"]
            if change.record.status == "lobby":
                note = f"⏹ <@{user_id}> cancelled **{name}** before its start."
                change.end("cancelled", note)
                change.post(CARD)
                change.post(ANNOUNCE, {"content": note})
                return note
            if change.record.status != "active":
                raise UserError(f"**{name}** is already over.")
            event = event_of(change.session.state)
            for game_id in await self.games.running(change.record.id, event.under_way()):
                change.add_timer_elsewhere(game_id, STOP_GAME, change.now, {"why": "ended"})
            event = event.end_by_host()
            change.session.state = event.state
            change.post(ANNOUNCE, {"content": f"⏹ <@{user_id}> ended **{name}**: final standings below."})
            self._post_standings(change, event, final=True)
            self._finish(change)
        return f"⏹ You ended **{name}**."

    @staticmethod
    def show_again(change: Change) -> None:
        """Post the card anew where its message is gone (the playground's new simulated Discord)."""
        change.record.card_id = None
        change.post(CARD)

    # ============================================================ checks
    @staticmethod
    def _check_kit(change: Change) -> None:
        if change.record.game != KIT:
            raise UserError("That is not a tournament.")

    @staticmethod
    def _check_host(change: Change, user_id: int, what: str) -> None:
        if user_id != change.record.host_id:
            raise UserError(f"Only the host (<@{change.record.host_id}>) can {what}.")
