"""Tournaments run by the bot: a tournament is a session of its own (``game = 'tournament'``, its
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
last change, and a tournament stops or forfeits a game through a timer on that game.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextlib import suppress
from datetime import datetime, timedelta
from typing import Any, ClassVar

import discord

import engines.tournament as kit
from bot.core.change import Change, GameSession, SessionMeta
from bot.core.errors import UserError
from bot.core.outbox import Outbox, Outgoing
from bot.core.sessions import Sessions
from bot.core.store import LIVE_STATUSES, Store, TimerRecord
from bot.core.text import NAME_LIMIT, escape
from bot.core.timers import Scheduler
from bot.core.workers import WorkerPool, drawing
from bot.features import privacy_store
from bot.features.privacy_store import FORMER_MEMBER
from bot.features.threads import GameThreads
from bot.features.tournaments import store as event_store
from bot.features.tournaments.cards import card_message, final_lines, pairings_text, standings_text
from bot.features.tournaments.config import SERIES, SERIES_RACES, EventConfig
from bot.features.tournaments.store import KIT
from bot.ui.adapter import GameAdapter
from engines.base import Outcome
from engines.tournament import Player, Series, Tournament, TournamentError
from render.tournament import render_pairings, render_series_standings, render_standings

log = logging.getLogger(__name__)

# Outbox kinds of a tournament's session.
CARD = "tournament_card"  # its card in the channel, edited as it goes
PAIRINGS = "tournament_pairings"  # a round's pairings: text and picture, a new message
STANDINGS = "tournament_standings"  # after each round (and the final one): text and picture
OPEN_GAMES = "tournament_open_games"  # opens the round's games that have none yet
ANNOUNCE = "tournament_text"  # a line in the channel (cancelled, paused, a player withdrawn)
# Timers.
START_DUE = "tournament_start"  # the start time typed at create
RESULT = "tournament_result"  # on the tournament: a game's result, written with the game's end
ROUND_DUE = "tournament_round_due"  # the round's time is up
STOP_GAME = "tournament_stop_game"  # on a game: its round's time is up, or a player withdrew

NO_MENTIONS = discord.AllowedMentions.none()


class TournamentStorage:
    """How a tournament's state is stored in its session (the kit's dump and load)."""

    schema = 1

    @staticmethod
    def load(data: Mapping[str, Any]) -> Tournament | Series:
        if data.get("kind") == SERIES:
            return kit.load_series(dict(data["series"]))
        return kit.load(data)

    @staticmethod
    def dump(state: Tournament | Series) -> dict[str, Any]:
        if isinstance(state, Series):
            return {"kind": SERIES, "series": kit.dump_series(state)}
        return kit.dump(state)


class TournamentKit:
    """The sessions' GameInfo of a tournament: its storage, and no planner of the games'."""

    title = "Tournament"
    engine = TournamentStorage()
    planners: ClassVar[list[Any]] = []


class Tournaments:
    def __init__(
        self,
        store: Store,
        sessions: Sessions,
        outbox: Outbox,
        timers: Scheduler,
        threads: GameThreads,
        games: Mapping[str, GameAdapter],
        pictures: WorkerPool,
        bot: discord.Client,
    ):
        self.store, self.sessions, self.outbox, self.threads = store, sessions, outbox, threads
        self.games, self.pictures, self.bot = games, pictures, bot
        self.new_seed = lambda: 0  # the platform's seed source
        sessions.kits[KIT] = TournamentKit()
        outbox.register(CARD, self._build_card, self._card_posted, coalesce=True)
        outbox.register(PAIRINGS, self._build_pairings)
        outbox.register(STANDINGS, self._build_standings)
        outbox.register(ANNOUNCE, self._build_announcement)
        outbox.register(OPEN_GAMES, None, deliver=self._open_games)
        timers.register(START_DUE, self._start_due)
        timers.register(RESULT, self._result_in)
        timers.register(ROUND_DUE, self._round_due)
        timers.register(STOP_GAME, self._stop_game)

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
            if config.is_series:
                state: Tournament | Series = kit.new_series(players, config.rounds or SERIES_RACES, config.scoring)
            else:
                rounds = config.rounds if config.format == kit.SWISS else None
                state = kit.new_tournament(config.format, players, rounds=rounds, double=config.double)
        except TournamentError as error:
            note = f"❌ **{config.name}** was cancelled: {error}"
            change.end("cancelled", note)
            change.post(CARD)
            change.post(ANNOUNCE, {"content": note})
            return note
        change.session.state = state
        change.record.status = "active"
        change.meta.started_at = change.now.isoformat()
        if isinstance(state, Series):
            self._next_race(change)
        else:
            self._pair(change)
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
    def _pair(self, change: Change) -> None:
        """Pair rounds until one has a game to play (or the tournament is over)."""
        state: Tournament = change.session.state
        while not kit.is_finished(state):
            state = kit.pair_next_round(state)
            if not kit.is_round_complete(state):
                change.session.state = state
                self._round_started(change, state.current_round.number)
                return
            change.session.state = state  # byes and forfeits only: on to the next round
            self._post_standings(change, state.current_round.number, final=kit.is_finished(state))
        change.session.state = state
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
        if isinstance(change.session.state, Tournament):  # a series' race has no pairings to post
            change.post(PAIRINGS, {"round": number})
        change.post(OPEN_GAMES, {"round": number})

    def _next_race(self, change: Change) -> None:
        self._round_started(change, len(change.session.state.races) + 1)

    async def _open_games(self, session: GameSession, payload: dict[str, Any], _nonce: str | None = None) -> None:
        """The round's games that are not open yet (a retry after a crash skips those that are);
        it posts nothing itself, so the outbox entry's nonce is not needed."""
        number = payload["round"]
        for _ in range(3):  # a withdrawal found here changes the tournament: look again
            session = await self.sessions.load(session.id)
            if session.status != "active":
                return
            opened = await event_store.games_of_round(self.store, session.id, number)
            state = session.state
            if isinstance(state, Series):
                if len(state.races) + 1 != number or 1 in opened:
                    return
                games = [(1, [p.id for p in state.active])]
            else:
                if len(state.rounds) < number:
                    return
                games = [(p.table, list(p.players)) for p in state.round(number).running() if p.table not in opened]
            gone = [uid for _, players in games for uid in players if not await self._still_here(session, uid)]
            if gone:
                for uid in gone:
                    await self.withdraw(session.id, uid, reason="left the server")
                continue
            for table, players in games:
                await self._open_game(session, number, table, players)
            return

    async def _still_here(self, session: GameSession, user_id: int) -> bool:
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

    async def _open_game(self, event: GameSession, number: int, table: int, players: list[int]) -> None:
        config = EventConfig.of(event.meta.options)
        adapter = self.games[config.game]
        state = event.state
        in_series = isinstance(state, Series)
        options = {} if in_series else adapter.challenge_options({}, {"challenger": players[0], "opponent": players[1]})
        seed = self.new_seed()
        first_seat = 0 if in_series else _first_seat(adapter, options, seed)
        if first_seat:  # the pairing's first player sits where this deal moves first
            players = [players[1], players[0]]
        names = [state.name(uid) for uid in players]
        options = adapter.seated_options(options, players)
        link = {"id": event.id, "round": number, "table": table, "name": config.name, "rated": config.rated}
        link["first_seat"] = first_seat
        meta = SessionMeta(
            names=names,
            options=options,
            seats=players,
            clock_seconds=None if in_series else config.game_clock,
            tournament=link,
        )
        place = await self._series_thread(event) if in_series and number > 1 else None
        async with self.sessions.open(
            game=config.game,
            guild_id=event.record.guild_id,
            channel_id=place or event.record.channel_id,
            host_id=event.record.host_id,
            players=players,
            status="challenge",
            meta=meta,
            busy_text=lambda _: "A race of this series is still running in its thread.",
            in_thread=place is None,
        ) as change:
            change.start(players, names, options, seed)
            adapter.tournament_started(change)
            opened = change.record

            async def linked(tx: Any) -> None:
                event_store.link_game(tx, event.id, number, table, opened.id, config.name)

            change.during_commit(linked)

    async def _series_thread(self, event: GameSession) -> int | None:
        """A series' races after the first are played in the first race's thread."""
        first = (await event_store.games_of_round(self.store, event.id, 1)).get(1)
        record = await self.store.get_session(first) if first else None
        return record.thread_id if record else None

    # ============================================================ results
    async def plan_game_end(self, change: Change) -> None:
        """In a tournament game's last change: its result, for the tournament, in the same transaction."""
        link = change.meta.tournament
        if not link or change.was_status != "active" or change.record.status in LIVE_STATUSES:
            return
        payload: dict[str, Any] = {"round": link["round"], "table": link["table"], "game": change.record.id}
        outcome = change.outcome or (change.game.engine.outcome(change.state) if change.state is not None else None)
        if change.record.players and isinstance(outcome, Outcome):
            payload["outcome"] = {
                "result": _pairing_result(outcome, link.get("first_seat", 0)),
                "entries": [
                    [e.player, e.place, e.score] for e in kit.entries_from_outcome(outcome, change.record.players)
                ],
            }
        change.add_timer_elsewhere(link["id"], RESULT, change.now, payload)

    async def _result_in(self, change: Change, timer: TimerRecord) -> None:
        if change.record.status != "active":
            return  # ended or cancelled meanwhile: its games' results change nothing
        payload, state = timer.payload, change.session.state
        outcome = payload.get("outcome")
        if isinstance(state, Series):
            if len(state.races) + 1 != payload["round"]:
                return
            entries = [kit.RaceEntry(*entry) for entry in outcome["entries"]] if outcome else []
            self._race_done(change, kit.record_race(state, entries))
            return
        pairing = state.round(payload["round"]).pairing(payload["table"])
        if pairing.result is not None:
            return  # scored already (the deadline, a withdrawal)
        result = outcome["result"] if outcome else kit.DEADLINE
        state = kit.record_result(state, payload["round"], payload["table"], result)
        change.session.state = state
        if any(p.replay_of == payload["table"] and p.result is None for p in state.round(payload["round"]).pairings):
            change.post(OPEN_GAMES, {"round": payload["round"]})  # a knockout's drawn game, replayed
        await self._after_result(change)

    async def _after_result(self, change: Change) -> None:
        state: Tournament = change.session.state
        change.post(CARD)
        if not kit.is_round_complete(state):
            return
        change.cancel_timers([ROUND_DUE])
        self._post_standings(change, state.current_round.number, final=kit.is_finished(state))
        if kit.is_finished(state):
            self._finish(change)
        elif not EventConfig.of(change.meta.options).paused:
            await self._withdraw_gone(change)
            self._pair(change)

    async def _withdraw_gone(self, change: Change) -> None:
        """Before a round is paired: every player still entered who has left the server is
        withdrawn, so no pairing (not even one against a withdrawn player) keeps them in."""
        state: Tournament = change.session.state
        name = change.meta.options["name"]
        for player in state.active:
            if player.id in state.withdrawn or await self._still_here(change.session, player.id):
                continue
            change.session.state = kit.withdraw(change.session.state, player.id)
            who = escape(player.name, NAME_LIMIT)
            change.post(ANNOUNCE, {"content": f"🚪 **{who}** withdrew from **{name}** (left the server)."})

    def _race_done(self, change: Change, series: Series) -> None:
        change.session.state = series
        change.cancel_timers([ROUND_DUE])
        final = kit.is_series_finished(series) or len(series.active) < 2
        self._post_standings(change, len(series.races), final=final)
        change.post(CARD)
        if final:
            self._finish(change)
        elif not EventConfig.of(change.meta.options).paused:
            self._next_race(change)

    @staticmethod
    def _post_standings(change: Change, number: int, *, final: bool) -> None:
        """The standings after round (or race) ``number``, drawn from the state as it is now, when
        that round's last result is recorded: the post may go out after the next round is paired,
        or late after an outage, and still shows and names this round."""
        state = TournamentStorage.dump(change.session.state)
        change.post(STANDINGS, {"round": number, "final": final, "state": state})

    def _finish(self, change: Change) -> None:
        change.record.status = "finished"
        change.cancel_timers()
        change.post(CARD)

    async def _round_due(self, change: Change, timer: TimerRecord) -> None:
        """The round's time is up: running games are scored by the card's rule and stopped."""
        state = change.session.state
        number = timer.payload.get("round")
        if change.record.status != "active":
            return
        running = await self._running_games(change, number)
        knockout = isinstance(state, Tournament) and state.format == kit.KNOCKOUT
        for game_id in running:
            change.add_timer_elsewhere(game_id, STOP_GAME, change.now, {"why": "deadline", "knockout": knockout})
        if isinstance(state, Series):
            if len(state.races) + 1 == number:
                self._race_done(change, kit.record_race(state, []))
            return
        if number != len(state.rounds) or kit.is_round_complete(state):
            return
        change.session.state = kit.settle_deadline(state)
        change.post(ANNOUNCE, {"content": f"⏰ Round {number}'s time is up: games still running were scored."})
        await self._after_result(change)

    async def _running_games(self, change: Change, number: int) -> list[int]:
        opened = await event_store.games_of_round(self.store, change.record.id, number)
        running = []
        for game_id in opened.values():
            record = await self.store.get_session(game_id)
            if record is not None and record.status in LIVE_STATUSES:
                running.append(game_id)
        return running

    async def _stop_game(self, change: Change, timer: TimerRecord) -> None:
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
            state = change.session.state
            if user_id not in [p.id for p in state.players]:
                raise UserError("That member is not in this tournament.")
            try:
                if isinstance(state, Series):
                    change.session.state = kit.withdraw_from_series(state, user_id)
                else:
                    running = state.current_pairing(user_id)
                    change.session.state = kit.withdraw(state, user_id)
                    if running is not None:
                        await self._resign_in_game(change, len(state.rounds), running.table, user_id)
            except TournamentError as error:
                raise UserError(str(error)) from None
            who = escape(change.session.state.name(user_id), NAME_LIMIT) if named else FORMER_MEMBER
            why = f" ({reason})" if reason else ""
            change.post(ANNOUNCE, {"content": f"🚪 **{who}** withdrew from **{name}**{why}."})
            if isinstance(change.session.state, Series):
                change.post(CARD)
                if len(change.session.state.active) < 2:
                    self._finish(change)
            else:
                await self._after_result(change)
        return f"🚪 {who} withdrew from **{name}**: their remaining games are forfeited."

    async def _resign_in_game(self, change: Change, number: int, table: int, user_id: int) -> None:
        game_id = (await event_store.games_of_round(self.store, change.record.id, number)).get(table)
        if game_id is None:
            return
        record = await self.store.get_session(game_id)
        if record is not None and user_id in record.players:
            change.add_timer_elsewhere(game_id, STOP_GAME, change.now, {"resign": record.players.index(user_id)})

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
        state = change.session.state
        if isinstance(state, Series) and member_id in [p.id for p in state.players]:
            change.session.state = kit.forget_in_series(state, member_id, former_id, FORMER_MEMBER)
        elif isinstance(state, Tournament) and member_id in [p.id for p in state.players]:
            change.session.state = kit.forget_player(state, member_id, former_id, FORMER_MEMBER)
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
                number = self._current_number(change.session.state)
                deadline = change.now + timedelta(seconds=config.remaining or 0)
                options["deadline"], options["remaining"] = int(deadline.timestamp()), None
                note = f"▶ **{config.name}** resumed."
                if self._round_done(change.session.state):
                    if isinstance(change.session.state, Tournament):
                        await self._withdraw_gone(change)
                    self._continue(change)
                else:
                    change.add_timer(ROUND_DUE, deadline, {"round": number})
            change.post(ANNOUNCE, {"content": note})
            change.post(CARD)
        return note

    def _continue(self, change: Change) -> None:
        state = change.session.state
        if isinstance(state, Series):
            self._next_race(change)
        else:
            self._pair(change)

    @staticmethod
    def _round_done(state: Tournament | Series) -> bool:
        return True if isinstance(state, Series) else kit.is_round_complete(state)

    @staticmethod
    def _current_number(state: Tournament | Series) -> int:
        return len(state.races) + 1 if isinstance(state, Series) else len(state.rounds)

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
            state = change.session.state
            for game_id in await self._running_games(change, self._current_number(state)):
                change.add_timer_elsewhere(game_id, STOP_GAME, change.now, {"why": "ended"})
            if isinstance(state, Tournament):
                change.session.state = kit.end_by_host(state)
            change.post(ANNOUNCE, {"content": f"⏹ <@{user_id}> ended **{name}**: final standings below."})
            self._post_standings(change, self._current_number(change.session.state), final=True)
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

    def _check_host(self, change: Change, user_id: int, what: str) -> None:
        if user_id != change.record.host_id:
            raise UserError(f"Only the host (<@{change.record.host_id}>) can {what}.")

    # ============================================================ messages
    async def _build_card(self, session: GameSession, _: dict[str, Any]) -> Outgoing:
        titles = {name: adapter.title for name, adapter in self.games.items()}
        links = await self._links(session) if session.status == "finished" else {}  # only the final card lists games
        content, view = card_message(titles, session, links)
        return Outgoing(
            content, view=view, edit=session.record.card_id, channel_id=session.record.channel_id, mentions=NO_MENTIONS
        )

    async def _card_posted(self, change: Change, _: dict[str, Any], message: Any) -> None:
        if message is not None:
            change.record.card_id = message.id

    async def _links(self, session: GameSession) -> dict[tuple[int, int], tuple[int, int | None]]:
        if session.state is None:
            return {}
        return await event_store.games_of(self.store, session.id)

    async def _build_pairings(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        state = session.state
        if not isinstance(state, Tournament) or len(state.rounds) < payload["round"]:
            return None
        name = session.meta.options["name"]
        picture = await self.pictures.draw(drawing(render_pairings, state, payload["round"], name))
        content = pairings_text(state, payload["round"], name)
        mentions = discord.AllowedMentions(users=True, roles=False, everyone=False)
        return Outgoing(content, [picture], channel_id=session.record.channel_id, mentions=mentions)

    async def _build_standings(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        state = TournamentStorage.load(payload["state"]) if "state" in payload else session.state
        if state is None:
            return None
        name = session.meta.options["name"]
        final = payload.get("final", session.status == "finished")
        picture = await self._standings_picture(state, name)
        content = standings_text(state, name, payload.get("round", 0), final)
        if final:
            content += "\n" + "\n".join(final_lines(state, await self._links(session)))
        return Outgoing(content, [picture], channel_id=session.record.channel_id, mentions=NO_MENTIONS)

    async def _build_announcement(self, session: GameSession, payload: dict[str, Any]) -> Outgoing:
        return Outgoing(payload["content"], channel_id=session.record.channel_id, mentions=NO_MENTIONS)

    async def standings_picture(self, session: GameSession) -> Any:
        """The standings now (/tournament standings, the card's button)."""
        return await self._standings_picture(session.state, session.meta.options["name"])

    async def _standings_picture(self, state: Tournament | Series, name: str) -> Any:
        if isinstance(state, Series):
            return await self.pictures.draw(drawing(render_series_standings, state, name))
        return await self.pictures.draw(drawing(render_standings, state, name))


def _pairing_result(outcome: Outcome, first_seat: int) -> str | None:
    """A two-player game's result for its pairing (None: not a two-player game); the pairing's
    first player sat at ``first_seat``."""
    if len(outcome.scores) != 2:
        return None
    return kit.result_from_outcome(outcome, first_seat)


def _first_seat(adapter: GameAdapter, options: dict[str, Any], seed: int) -> int:
    """The seat that moves first in a two-player game dealt from ``seed`` (Octa, Octagone and
    Octiles draw it at random, Octego's is seat 0): the tournament seats its pairing's first
    player there, so the pairing, its picture, the card and the game name the same player."""
    acting = adapter.engine.to_act(adapter.engine.new_game(2, options, seed))
    return acting[0] if len(acting) == 1 else 0
