"""The platform wires the parts every game shares; it holds no game logic of its own.

sessions   the one way to change a session (one transaction per change)
outbox     public messages as state, sent after the commit and retried
table      the game message of each session
threads    games in threads: a card per game in its channel, "your move" notices
timers     durable timers, fired inside a session change
challenges invitations, Accept/Decline, expiry, rematch
turn_clock the optional per-server turn clock
results    the result row and ratings of a finished game
computer   computer players, a cog listening to ``session_changed``
controls   the one dispatcher of buttons, selects and modals
replays    finished games watched again, their records, /history
tournaments events of many games, each in its thread (a tournament is a session)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import discord

from bot.core.outage import database_unavailable
from bot.core.outbox import Outbox
from bot.core.pace import RequestBudget
from bot.core.sessions import GameSession, Sessions
from bot.core.settings import Settings
from bot.core.store import Store, TimerRecord
from bot.core.timers import Scheduler
from bot.core.workers import PICTURES, REPLAYS, THINKING
from bot.features.activity.launch import BoardPlace
from bot.features.challenges import Challenges
from bot.features.computer import ComputerPlayers
from bot.features.fair_use import FairUse, FairUseLimits
from bot.features.hints.hints import Hints
from bot.features.learn.newcomers import game_message_line
from bot.features.replays import MessageLinks, Replays
from bot.features.results import Results
from bot.features.review.reviews import Reviews
from bot.features.threads import GameThreads
from bot.features.tournaments.runner import Tournaments, for_event_games
from bot.features.turn_clock import TurnClock
from bot.features.turn_notices import TurnNotices
from bot.ui.adapter import GameAdapter
from bot.ui.context import GameContext, StoreReads
from bot.ui.controls import Controls
from bot.ui.game_message import Table
from bot.ui.menus import Menus
from bot.ui.replies import ErrorLog

# Bump when controls' custom ids change (e.g. a game's menus are redeclared): live messages are redrawn.
CONTROLS_VERSION = "2"  # 2: declared menus (bot/ui/menus.py)
CONTROLS_KEY = "controls_version"


class Platform:
    def __init__(self, bot: discord.Client, store: Store, adapters: Sequence[type[GameAdapter]], settings: Settings):
        self.bot = bot
        self.store = store
        self.errors = ErrorLog()  # unexpected errors, for tests and diagnostics
        self.games: dict[str, GameAdapter] = {}
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(2**31)
        self.pictures, self.thinking = PICTURES, THINKING
        PICTURES.configure(settings.render_workers, settings.picture_queue_limit)
        THINKING.configure(settings.thinking_workers, settings.thinking_queue_limit)
        REPLAYS.configure(REPLAYS.workers, settings.replay_queue_limit)  # replays in a pool of their own
        self.sessions = Sessions(store, self.games, discord.utils.utcnow)
        self.controls = Controls(self.errors)
        self.timers = Scheduler(store, self.sessions, self.errors)
        shards = settings.shards
        budget = RequestBudget.share(len(shards.ids), shards.count) if shards else RequestBudget()
        self.outbox = Outbox(store, self.sessions, bot, self.errors, budget=budget)
        self.turn_clock = TurnClock(store, self.sessions, self.timers, self.games, bot)
        # The Activity: Discord launches it where ACTIVITY_URL is set; without Discord the
        # playground's own page stands in for it (its server sets board.page when it starts).
        self.board = BoardPlace(url=settings.activity_url)
        self.table = Table(
            self.sessions,
            self.outbox,
            self.pictures,
            self.games,
            bot,
            board_offered=self.board.offered,
            newcomer_line=self._newcomer_line,
        )
        self.notices = TurnNotices(store, self.outbox, self.timers, self.table, self.games, bot)
        self.threads = GameThreads(
            store, self.sessions, self.outbox, self.timers, self.table, self.games, bot, settings, notices=self.notices
        )
        self.results = Results(self.sessions, bot)
        self.fair_use = FairUse(FairUseLimits.from_settings(settings))  # per member: replays, challenges...
        self.challenges = Challenges(
            self.sessions,
            self.outbox,
            self.controls,
            self.timers,
            self.games,
            bot,
            threads=self.threads,
            fair_use=self.fair_use,
            new_seed=lambda: self.new_seed(),
        )
        self.computer = ComputerPlayers(self.sessions, self.games, bot, self.errors, self.thinking)
        self.menus = Menus(self.sessions, self.controls, self.table.done, self.pictures.draw)
        self.sessions.committed.append(self._after_commit)
        self.tournaments = Tournaments(
            store=store,
            sessions=self.sessions,
            outbox=self.outbox,
            timers=self.timers,
            games=self.games,
            pictures=PICTURES,
            bot=bot,
            new_seed=lambda: self.new_seed(),
        )
        # A game's change, step by step before it commits: the turn's clock and the thread to open
        # before the game message is drawn; the result (which ends the game's timers) before the
        # thread's archiving is planned, and the "your move" notice after the game message, so
        # the board is redrawn before the ping; last, an event's game passes its result on.
        self.sessions.plan_in_order(
            self.turn_clock.plan,
            self.threads.plan,
            self.table.plan,
            self.results.plan,
            self.threads.plan_last,
            for_event_games(self.tournaments.plan_game_end),
        )
        self.links = MessageLinks()  # Discord's addresses; the playground's pages once its server starts
        self.replays = Replays(
            self.sessions, REPLAYS, self.games, self.controls, self.table, fair_use=self.fair_use, links=self.links
        )
        self.reviews = Reviews(self.replays, THINKING, PICTURES, self.games, self.controls)
        self.hints = Hints(self.sessions, self.replays, self.games, THINKING, PICTURES, self.controls)
        context = GameContext(
            sessions=self.sessions,
            reads=StoreReads(store),
            controls=self.controls,
            timers=self.timers,
            outbox=self.outbox,
            pictures=self.pictures,
            menus=self.menus,
            bot=bot,
            table=self.table,
            threads=self.threads,
            challenge=self.challenges.challenge,
            busy_text=self.challenges.busy_text,
            first_message_or_close=self.challenges.first_message_or_close,
            new_seed=lambda: self.new_seed(),
            settings_transaction=store.transaction,
        )
        for adapter_class in adapters:
            adapter = adapter_class(context)
            self.games[adapter.name] = adapter
            for menu in adapter.menus:
                self.menus.add(menu, adapter.engine)
        self.context = context

    async def _newcomer_line(self, session: GameSession) -> str:
        """The lessons' line for a member's first game of its kind, on its game message."""
        me = self.bot.user
        return await game_message_line(self.store, self.games, me.id if me else None, session)

    def _after_commit(self, session: GameSession, _added: list[TimerRecord], _removed: list[int]) -> None:
        self.outbox.wake(session.id)
        self.bot.dispatch("session_changed", session)

    async def start(self) -> None:
        """Once the bot can talk to Discord: send what is unsent, arm the timers (idempotent)."""
        await self.outbox.start()
        await self.timers.start()
        try:
            await self._redraw_after_control_changes()
        except Exception as error:  # the database is away: the next start redraws
            if not database_unavailable(error):
                raise

    async def _redraw_after_control_changes(self) -> None:
        """After an upgrade that changed the controls' custom ids, every live game message is redrawn
        once, so no player is left with buttons this version does not know."""
        keys = self._controls_keys()
        if all([await self.store.get_value(key) == CONTROLS_VERSION for key in keys]):
            return
        for session_id in await self.store.shown_live_sessions():
            async with self.sessions.change(session_id) as change:
                change.show()
        async with self.store.transaction() as tx:
            for key in keys:
                await tx.set_value(key, CONTROLS_VERSION)

    def _controls_keys(self) -> list[str]:
        """Where the redraw is marked done: per shard when sharded, since each process redraws
        only its own servers' games (one mark for all would make the first process to start
        the only one to redraw)."""
        scope = self.store.scope
        if scope is None:
            return [CONTROLS_KEY]
        return [f"{CONTROLS_KEY}:shard {shard} of {scope.count}" for shard in scope.ids]

    async def stop(self) -> None:
        await self.timers.stop()
        await self.outbox.stop()
