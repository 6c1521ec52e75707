"""The platform every game shares: sessions, the single action path, challenges, turns,
private views, the turn clock, computer players and results.

Every change goes the same way: take the channel's lock, load, apply the engine action,
save state and action in one transaction, then render and answer.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any

import discord
from openskill.models import PlackettLuce

from bot.adapter import GameAdapter, GameSession
from bot.components import SessionButton, view_of
from bot.rendering import RenderPool, as_file
from bot.store import ChannelBusy, Rating, SessionRecord, Store, TimerRecord
from bot.timers import Scheduler
from engines.base import IllegalAction, Outcome

log = logging.getLogger(__name__)

CHALLENGE_SECONDS = 5 * 60
ButtonHandler = Callable[[discord.Interaction, int, str], Awaitable[None]]
SelectHandler = Callable[[discord.Interaction, int, str, list[str]], Awaitable[None]]


class UserError(Exception):
    """Something a user did that cannot be done; the message is answered privately."""


def sentence(text: str) -> str:
    """An engine's reason as a sentence: capital first letter, final full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def escape(name: str) -> str:
    """A player-chosen name made safe for message text (no markdown, no mentions)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


class Platform:
    def __init__(
        self, bot: discord.Client, store: Store, adapters: Sequence[type[GameAdapter]], render_workers: int = 2
    ):
        self.bot = bot
        self.store = store
        self.renderer = RenderPool(render_workers)
        self.games: dict[str, GameAdapter] = {}
        self._buttons: dict[str, ButtonHandler] = {}
        self._selects: dict[str, SelectHandler] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._background: set[asyncio.Task[Any]] = set()
        self.errors: list[BaseException] = []  # unexpected errors, for tests to assert on
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(2**31)
        self.ratings_model = PlackettLuce()
        self.scheduler = Scheduler(
            store,
            {
                "challenge_expiry": self._expire_challenge,
                "turn_warning": self._warn_turn,
                "turn_forfeit": self._forfeit_turn,
            },
        )
        self.register_button("accept", self._accept_challenge)
        self.register_button("decline", self._decline_challenge)
        self.register_button("resign", self._resign_button)
        self.register_button("private", self._private_view_button)
        self.register_button("rematch", self._rematch_button)
        for adapter_class in adapters:
            adapter = adapter_class(self)
            self.games[adapter.name] = adapter

    # ------------------------------------------------------------ registries

    def register_button(self, name: str, handler: ButtonHandler) -> None:
        self._buttons[name] = handler

    def register_select(self, name: str, handler: SelectHandler) -> None:
        self._selects[name] = handler

    def register_timer(self, kind: str, handler: Callable[[TimerRecord], Awaitable[None]]) -> None:
        self.scheduler._handlers[kind] = handler

    async def on_button(self, interaction: discord.Interaction, session_id: int, name: str, arg: str) -> None:
        handler = self._buttons.get(name)
        await self.guard(interaction, session_id, handler(interaction, session_id, arg) if handler else None)

    async def on_select(
        self, interaction: discord.Interaction, session_id: int, name: str, arg: str, values: list[str]
    ) -> None:
        handler = self._selects.get(name)
        await self.guard(interaction, session_id, handler(interaction, session_id, arg, values) if handler else None)

    # --------------------------------------------------------------- answers

    async def guard(
        self, interaction: discord.Interaction, session_id: int | None, work: Awaitable[Any] | None
    ) -> None:
        """Runs a handler: user errors answered privately, anything else logged and apologised for."""
        try:
            if work is None:
                raise UserError("This control is no longer available.")
            await work
        except UserError as error:
            await self.reply_private(interaction, str(error))
        except Exception as error:
            self.errors.append(error)
            log.exception("error handling an interaction for session %s", session_id)
            await self.reply_private(
                interaction, "Sorry, something went wrong on my side. The game is safe; please try again."
            )

    @staticmethod
    async def reply_private(
        interaction: discord.Interaction, text: str, picture: Any = None, view: discord.ui.View | None = None
    ) -> None:
        kwargs: dict[str, Any] = {"ephemeral": True}
        if picture is not None:
            kwargs["file"] = as_file(picture)
        if view is not None:
            kwargs["view"] = view
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, **kwargs)
            else:
                await interaction.response.send_message(text, **kwargs)
        except discord.HTTPException:
            log.warning("could not answer interaction %s privately", interaction.id)

    @staticmethod
    async def defer(interaction: discord.Interaction, *, private_thinking: bool = False) -> None:
        """Acknowledge at once so slow work never hits Discord's 3-second window."""
        if interaction.response.is_done():
            return
        if private_thinking:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()

    # -------------------------------------------------------------- sessions

    def adapter(self, game: str) -> GameAdapter:
        return self.games[game]

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks[channel_id]

    async def load(self, session_id: int) -> GameSession:
        record = await self.store.get_session(session_id)
        if record is None:
            raise UserError("That game no longer exists.")
        adapter = self.games.get(record.game)
        if adapter is None:
            raise UserError("That game is not available on this bot any more.")
        state = adapter.engine.load(record.state) if record.state else None
        return GameSession(record, state)

    async def live_in_channel(self, channel_id: int) -> GameSession | None:
        record = await self.store.live_session(channel_id)
        return await self.load(record.id) if record else None

    async def session_for(self, interaction: discord.Interaction, game: str) -> GameSession:
        """This channel's running game of ``game``, or a clear error."""
        session = await self.live_in_channel(interaction.channel_id)
        title = self.games[game].title
        if session is None or session.record.game != game or session.record.status != "active":
            raise UserError(f"There is no {title} game running in this channel.")
        return session

    def busy_message(self, record: SessionRecord) -> str:
        title = self.games[record.game].title if record.game in self.games else record.game
        what = {"challenge": "a challenge", "lobby": "a lobby", "active": "a game"}[record.status]
        return (
            f"There is already {what} of {title} in this channel (started by <@{record.host_id}>). "
            f"Finish it, or ask the host or a moderator to use `/stop`, or play in a thread."
        )

    async def open_session(
        self,
        interaction: discord.Interaction,
        game: str,
        status: str,
        players: list[int],
        names: list[str],
        meta: dict[str, Any],
        state: Any = None,
    ) -> GameSession:
        adapter = self.games[game]
        now = discord.utils.utcnow()
        meta = {"names": names, **meta}
        try:
            session_id = await self.store.create_session(
                game=game,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                players=players,
                status=status,
                state=adapter.engine.dump(state) if state is not None else {},
                schema_version=adapter.engine.schema_version,
                now=now,
                meta=meta,
            )
        except ChannelBusy:
            existing = await self.store.live_session(interaction.channel_id)
            raise UserError(self.busy_message(existing) if existing else "This channel is busy.") from None
        return await self.load(session_id)

    async def save(self, session: GameSession, action: tuple[int | None, dict[str, Any]] | None = None) -> int | None:
        adapter = self.games[session.record.game]
        if session.state is not None:
            session.record.state = adapter.engine.dump(session.state)
            session.record.schema_version = adapter.engine.schema_version
        return await self.store.save_session(session.record, discord.utils.utcnow(), action)

    async def start_game(
        self, session: GameSession, players: list[int], names: list[str], options: dict[str, Any]
    ) -> None:
        """Turn a challenge or lobby into a running game (the caller holds the channel lock)."""
        adapter = self.games[session.record.game]
        seed = self.new_seed()
        session.state = adapter.engine.new_game(len(players), options, seed)
        session.record.players = players
        session.record.status = "active"
        session.record.meta.update(
            names=names, options=options, seed=seed, started_at=discord.utils.utcnow().isoformat()
        )
        seq = await self.save(session)
        await self.scheduler.cancel(session.id, ["challenge_expiry"])
        await self._arm_turn_clock(session, seq or 0)

    async def act(
        self,
        session_id: int,
        user_id: int,
        action: dict[str, Any],
        *,
        seat: int | None = None,
        refresh: bool = True,
        event: str | None = None,
    ) -> GameSession:
        """The one path for every game change. Raises UserError with a readable reason.

        ``refresh=False`` skips redrawing the game message, for actions that change nothing
        public (an Octagion variant) or whose picture goes to a new message. ``event`` replaces
        the adapter's public sentence for the action (a forfeit on time is not a resignation).
        """
        record = await self.store.get_session(session_id)
        if record is None:
            raise UserError("That game no longer exists.")
        async with self.lock(record.channel_id):
            session = await self.load(session_id)
            adapter = self.games[session.record.game]
            seat = self.check_can_act(session, user_id, seat, any_time=action.get("type") == "resign")
            try:
                session.state = adapter.engine.apply(session.state, seat, action)
            except IllegalAction as error:
                raise UserError(sentence(str(error))) from None
            session.record.meta["last_event"] = event or adapter.describe_action(session, seat, action)
            outcome = adapter.engine.outcome(session.state)
            if outcome is not None:
                session.record.status = "finished"
            seq = await self.save(session, (user_id, dict(action)))
            if outcome is not None:
                await self._finish(session, outcome)
            else:
                await self._arm_turn_clock(session, seq or 0)
            if refresh or outcome is not None:
                await self.refresh_message(session)
        self._spawn(self.play_computer_turns(session_id))
        return session

    def check_can_act(self, session: GameSession, user_id: int, seat: int | None = None, any_time: bool = False) -> int:
        """The seat of a user who may act now in a running game, or a UserError saying why not."""
        if session.record.status != "active":
            raise UserError(
                "This game is over." if session.record.status != "challenge" else "This game has not started yet."
            )
        seat = session.seat_of(user_id) if seat is None else seat
        if seat is None:
            raise UserError("You are not playing in this game.")
        to_act = self.games[session.record.game].engine.to_act(session.state)
        if not any_time and seat not in to_act:
            raise UserError(self.turn_sentence(session, to_act))
        return seat

    async def seat_to_act(self, session_id: int, user_id: int) -> tuple[GameSession, int]:
        """For private flows (menus): the session and the user's seat if it is their move."""
        session = await self.load(session_id)
        return session, self.check_can_act(session, user_id)

    def turn_sentence(self, session: GameSession, to_act: list[int]) -> str:
        if not to_act:
            return "Nobody can act right now."
        if len(to_act) == 1:
            return f"It is {session.mention(to_act[0])}'s turn."
        return "Waiting for " + ", ".join(session.mention(s) for s in to_act) + "."

    # ---------------------------------------------------------- game message

    def message_content(self, session: GameSession) -> str:
        adapter = self.games[session.record.game]
        names = " vs ".join(f"**{escape(n)}**" for n in session.names)
        lines = [f"## {adapter.title}", names]
        if session.record.meta.get("last_event"):
            lines.append(session.record.meta["last_event"])
        status = adapter.status_text(session)
        if status:
            lines.append(status)
        record = session.record
        if record.status == "active" and not adapter.simultaneous:
            lines.append("▶ " + self.turn_sentence(session, adapter.engine.to_act(session.state)))
            if record.meta.get("turn_deadline"):
                lines.append(f"⏱ Turn ends <t:{record.meta['turn_deadline']}:R>")
        elif record.status == "finished":
            lines.append(self.result_sentence(session))
        elif record.status == "stopped":
            lines.append(f"⏹ Stopped by <@{record.meta.get('stopped_by', record.host_id)}>.")
        return "\n".join(lines)

    def result_sentence(self, session: GameSession) -> str:
        outcome = self.games[session.record.game].engine.outcome(session.state)
        if outcome is None:
            return "⏹ The game ended."
        if outcome.is_draw:
            return f"🤝 Draw ({outcome.reason})."
        winners = " and ".join(session.mention(seat) for seat in outcome.winners)
        return f"🏆 {winners} won ({outcome.reason})."

    def message_components(self, session: GameSession) -> list[discord.ui.Item]:
        adapter = self.games[session.record.game]
        if session.record.status == "finished":
            humans = [p for p in session.players if p != self.bot.user.id]
            return (
                [SessionButton(session.id, "rematch", label="Rematch", style=discord.ButtonStyle.primary)]
                if humans
                else []
            )
        if session.record.status != "active":
            return []
        items = list(adapter.components(session))
        if adapter.private_view_label:
            items.append(SessionButton(session.id, "private", label=adapter.private_view_label))
        items.append(SessionButton(session.id, "resign", label="Resign", style=discord.ButtonStyle.danger))
        return items

    async def refresh_message(
        self,
        session: GameSession,
        *,
        repost: bool = False,
        channel: discord.abc.Messageable | None = None,
        via: discord.Interaction | None = None,
    ) -> bool:
        """Show the session's current picture on its game message (posting one if needed).

        ``via``: a publicly deferred interaction whose answer becomes the new game message.
        The state is already saved: if Discord fails here the game is safe, and `/<game> board`
        shows it again. Returns whether the message was updated.
        """
        adapter = self.games[session.record.game]
        picture = await self.renderer.render(adapter.render_public, session)
        content = self.message_content(session)
        view = view_of(self.message_components(session))
        channel = (
            channel
            or self.bot.get_channel(session.record.channel_id)
            or self.bot.get_partial_messageable(session.record.channel_id)
        )
        try:
            if session.record.message_id and not repost:
                message = channel.get_partial_message(session.record.message_id)
                await message.edit(content=content, attachments=[as_file(picture)], view=view)
            else:
                if via is not None:
                    message = await via.followup.send(content, file=as_file(picture), view=view, wait=True)
                else:
                    message = await channel.send(content, file=as_file(picture), view=view)
                session.record.message_id = message.id
                await self.save(session)
        except discord.HTTPException:
            log.exception("could not update the game message of session %s", session.id)
            return False
        return True

    # ------------------------------------------------------------ challenges

    async def challenge(
        self,
        interaction: discord.Interaction,
        game: str,
        invitees: Sequence[discord.abc.User],
        options: dict[str, Any],
        level: str | None = None,
    ) -> None:
        """The shared challenge-by-mention flow of every multi-player game."""
        adapter = self.games[game]
        challenger = interaction.user
        me = self.bot.user
        if len({u.id for u in invitees}) != len(invitees):
            raise UserError("Each player can take only one seat.")
        for user in invitees:
            if user.id == challenger.id:
                raise UserError("You cannot challenge yourself. Mention a friend, or mention me to play the computer.")
            if user.bot and user.id != me.id:
                raise UserError(f"{escape(user.display_name)} is a bot; bots other than me cannot play.")
        against_computer = any(user.id == me.id for user in invitees)
        if against_computer and (not adapter.has_computer or len(invitees) != 1):
            raise UserError(
                f"I can play {adapter.title} only as the single opponent in a two-player game."
                if adapter.has_computer
                else f"{adapter.title} has no computer opponent yet."
            )
        seats = adapter.seat_order(challenger.id, [u.id for u in invitees], options)
        by_id = {u.id: u.display_name for u in [challenger, *invitees]}
        names = [by_id[s] for s in seats]
        meta = {
            "options": options,
            "pending": [u.id for u in invitees if u.id != me.id],
            "seats": seats,
            "computer_level": level or "medium",
        }
        existing = await self.store.live_session(interaction.channel_id)
        if existing is not None:  # checked before deferring, so the answer stays private
            raise UserError(self.busy_message(existing))
        await self.defer(interaction)
        session = await self.open_session(interaction, game, "challenge", seats, names, meta)
        if against_computer:
            async with self.lock(session.record.channel_id):
                await self.start_game(session, seats, names, options)
                await self.refresh_message(session, via=interaction)
            self._spawn(self.play_computer_turns(session.id))
            return
        deadline = discord.utils.utcnow() + timedelta(seconds=CHALLENGE_SECONDS)
        await self.scheduler.add(session.id, "challenge_expiry", deadline)
        mentions = ", ".join(u.mention for u in invitees)
        content = (
            f"## {adapter.title} challenge\n{mentions}: {challenger.mention} challenges you to "
            f"**{adapter.title}**{self._options_text(options)}. Expires <t:{int(deadline.timestamp())}:R>."
        )
        view = view_of(
            [
                SessionButton(session.id, "accept", label="Accept", style=discord.ButtonStyle.success),
                SessionButton(session.id, "decline", label="Decline", style=discord.ButtonStyle.danger),
            ]
        )
        message = await interaction.followup.send(content, view=view, wait=True)
        session.record.message_id = message.id
        await self.save(session)

    @staticmethod
    def _options_text(options: dict[str, Any]) -> str:
        shown = [
            f"{key.replace('_', ' ')}: {value}"
            for key, value in options.items()
            if value not in (None, False, "") and not key.startswith("_")
        ]
        return f" ({', '.join(shown)})" if shown else ""

    async def _challenge_for(self, interaction: discord.Interaction, session_id: int) -> GameSession:
        session = await self.load(session_id)
        if session.record.status != "challenge":
            raise UserError("This challenge is no longer open.")
        pending = session.record.meta.get("pending", [])
        if interaction.user.id not in pending:
            who = ", ".join(f"<@{p}>" for p in pending) or "someone else"
            raise UserError(f"This challenge is for {who}.")
        return session

    async def _accept_challenge(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        record = await self.store.get_session(session_id)
        async with self.lock(record.channel_id):
            session = await self._challenge_for(interaction, session_id)
            await self.defer(interaction)
            meta = session.record.meta
            meta["pending"].remove(interaction.user.id)
            if meta["pending"]:
                await self.save(session)
                waiting = ", ".join(f"<@{p}>" for p in meta["pending"])
                await interaction.message.edit(
                    content=interaction.message.content
                    + f"\n✅ {interaction.user.mention} accepted; waiting for {waiting}."
                )
                return
            await self.start_game(session, meta["seats"], session.names, meta["options"])
            await self.refresh_message(session)

    async def _decline_challenge(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        record = await self.store.get_session(session_id)
        async with self.lock(record.channel_id):
            session = await self._challenge_for(interaction, session_id)
            session.record.status = "declined"
            await self.save(session)
            await self.scheduler.cancel(session_id)
            title = self.games[session.record.game].title
            await interaction.response.edit_message(
                content=f"❌ {interaction.user.mention} declined the {title} challenge "
                f"from <@{session.record.host_id}>.",
                view=None,
            )

    async def _expire_challenge(self, timer: TimerRecord) -> None:
        record = await self.store.get_session(timer.session_id)
        if record is None:
            return
        async with self.lock(record.channel_id):
            session = await self.load(timer.session_id)
            if session.record.status != "challenge":
                return
            session.record.status = "expired"
            await self.save(session)
            title = self.games[session.record.game].title
            if session.record.message_id:
                channel = self.bot.get_partial_messageable(session.record.channel_id)
                try:
                    await channel.get_partial_message(session.record.message_id).edit(
                        content=f"⌛ The {title} challenge from <@{session.record.host_id}> expired "
                        f"(nobody answered within {CHALLENGE_SECONDS // 60} minutes).",
                        view=None,
                    )
                except discord.HTTPException:
                    log.warning("could not mark challenge %s as expired", session.id)

    async def _rematch_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session = await self.load(session_id)
        if interaction.user.id not in session.players:
            raise UserError("Only the players of this game can ask for a rematch.")
        await self.games[session.record.game].rematch(interaction, session)

    # --------------------------------------------------------- shared actions

    async def _resign_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        await self.defer(interaction)
        await self.act(session_id, interaction.user.id, {"type": "resign"})

    async def resign_command(self, interaction: discord.Interaction, game: str) -> None:
        session = await self.session_for(interaction, game)
        await self.defer(interaction, private_thinking=True)
        await self.act(session.id, interaction.user.id, {"type": "resign"})
        await self.reply_private(interaction, "You resigned.")

    async def board_command(self, interaction: discord.Interaction, game: str) -> None:
        session = await self.session_for(interaction, game)
        await self.defer(interaction, private_thinking=True)
        async with self.lock(session.record.channel_id):
            session = await self.load(session.id)
            posted = await self.refresh_message(session, repost=True, channel=interaction.channel)
        await self.reply_private(
            interaction,
            "Here is the current board." if posted else "I could not post the board right now; please try again.",
        )

    async def _private_view_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session = await self.load(session_id)
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not playing in this game.")
        await self.defer(interaction, private_thinking=True)
        await self.send_private_view(interaction, session, seat)

    async def send_private_view(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        seat: int,
        text: str = "",
        view: discord.ui.View | None = None,
    ) -> None:
        """A freshly rendered private picture (old ephemeral messages cannot be edited after 15 min)."""
        adapter = self.games[session.record.game]
        picture = await self.renderer.render(adapter.render_private, session, seat)
        label = adapter.private_view_label or "Your view"
        await self.reply_private(interaction, text or f"**{label}** (only you can see this).", picture, view)

    async def stop_command(self, interaction: discord.Interaction) -> None:
        record = await self.store.live_session(interaction.channel_id)
        if record is None:
            raise UserError("Nothing is running in this channel.")
        permissions = getattr(interaction.user, "guild_permissions", None)
        if interaction.user.id != record.host_id and not (permissions and permissions.manage_messages):
            raise UserError(f"Only the host (<@{record.host_id}>) or a member with Manage Messages can stop this.")
        async with self.lock(record.channel_id):
            session = await self.load(record.id)
            session.record.status = "stopped"
            session.record.meta["stopped_by"] = interaction.user.id
            await self.save(session)
            await self.scheduler.cancel(session.id)
        title = self.games[session.record.game].title
        await interaction.response.send_message(f"⏹ {interaction.user.mention} stopped the {title} session.")
        if session.state is not None:
            await self.refresh_message(session)

    # ------------------------------------------------------- computer players

    def _spawn(self, coroutine: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def play_computer_turns(self, session_id: int) -> None:
        """If it is this bot's turn, think off the event loop, then act like any player.

        One move per call: ``act`` calls this again after every move, so a computer that must
        move twice in a row (the human was skipped) does, and no two loops ever race.
        """
        me = self.bot.user.id
        try:
            session = await self.load(session_id)
            adapter = self.games[session.record.game]
            seat = session.seat_of(me)
            if session.record.status != "active" or seat is None or seat not in adapter.engine.to_act(session.state):
                return
            level = session.record.meta.get("computer_level", "medium")
            seed = session.record.meta.get("seed", 0) + await self.store.count_actions(session_id)
            action = await asyncio.get_running_loop().run_in_executor(
                None, adapter.computer_action, session.state, seat, level, seed
            )
            await self.act(session_id, me, action, seat=seat)
        except UserError:
            log.info("computer move in session %s was overtaken by another change", session_id)
        except Exception as error:
            self.errors.append(error)
            log.exception("the computer player failed in session %s", session_id)

    # ------------------------------------------------------------ turn clock

    async def _arm_turn_clock(self, session: GameSession, seq: int) -> None:
        """Restart the optional per-server turn clock for whoever is to move now."""
        await self.scheduler.cancel(session.id, ["turn_warning", "turn_forfeit"])
        session.record.meta.pop("turn_deadline", None)
        seconds = await self.store.turn_clock_seconds(session.record.guild_id)
        to_act = self.games[session.record.game].engine.to_act(session.state)
        if not seconds or len(to_act) != 1 or session.players[to_act[0]] == self.bot.user.id:
            return
        now = discord.utils.utcnow()
        payload = {"seq": seq, "seat": to_act[0]}
        deadline = now + timedelta(seconds=seconds)
        await self.scheduler.add(session.id, "turn_warning", now + timedelta(seconds=seconds / 2), payload)
        await self.scheduler.add(session.id, "turn_forfeit", deadline, payload)
        session.record.meta["turn_deadline"] = int(deadline.timestamp())
        await self.save(session)

    async def _turn_still_pending(self, timer: TimerRecord) -> GameSession | None:
        session = await self.load(timer.session_id)
        if session.record.status != "active":
            return None
        if await self.store.count_actions(session.id) != timer.payload["seq"]:
            return None
        return session

    async def _warn_turn(self, timer: TimerRecord) -> None:
        session = await self._turn_still_pending(timer)
        if session is None:
            return
        deadline = session.record.meta.get("turn_deadline")
        channel = self.bot.get_partial_messageable(session.record.channel_id)
        await channel.send(
            f"⏳ {session.mention(timer.payload['seat'])}, half of your turn time is gone; "
            f"you forfeit <t:{deadline}:R> unless you move."
        )

    async def _forfeit_turn(self, timer: TimerRecord) -> None:
        session = await self._turn_still_pending(timer)
        if session is None:
            return
        seat = timer.payload["seat"]
        forfeit = f"⌛ {session.mention(seat)} ran out of time and forfeits the game."
        await self.act(session.id, session.players[seat], {"type": "resign"}, seat=seat, event=forfeit)
        await self.bot.get_partial_messageable(session.record.channel_id).send(forfeit)

    # ---------------------------------------------------------------- results

    async def _finish(self, session: GameSession, outcome: Outcome) -> None:
        """Record a finished game's result and update this server's ratings."""
        record = session.record
        await self.scheduler.cancel(session.id)
        now = discord.utils.utcnow()
        started = record.meta.get("started_at")
        duration = (now - discord.utils.parse_time(started)).total_seconds() if started else 0.0
        winners = [record.players[s] for s in outcome.winners]
        await self.store.record_result(
            session_id=session.id,
            game=record.game,
            guild_id=record.guild_id,
            players=record.players,
            scores=list(outcome.scores),
            winners=winners,
            moves=await self.store.count_actions(session.id),
            duration_seconds=duration,
            now=now,
        )
        await self._update_ratings(record, outcome)

    async def _update_ratings(self, record: SessionRecord, outcome: Outcome) -> None:
        """OpenSkill (Plackett-Luce) over the game's sides: partners are rated as one team."""
        sides = outcome.sides()
        if len(sides) < 2:  # a practice game has nobody to be rated against
            return
        model = self.ratings_model
        known = {r.user_id: r for r in await self.store.ratings(record.guild_id, record.game, record.players)}

        def current(user: int):
            old = known.get(user)
            return model.rating(mu=old.mu, sigma=old.sigma) if old else model.rating()

        teams = [[current(record.players[seat]) for seat in side] for side in sides]
        rated = model.rate(teams, ranks=[outcome.ranks[side[0]] for side in sides])
        updated = []
        for side, new_ratings in zip(sides, rated, strict=True):
            for seat, new in zip(side, new_ratings, strict=True):
                user = record.players[seat]
                old = known.get(user)
                updated.append(
                    Rating(
                        user,
                        new.mu,
                        new.sigma,
                        (old.games if old else 0) + 1,
                        (old.wins if old else 0) + int(seat in outcome.winners),
                    )
                )
        await self.store.save_ratings(record.guild_id, record.game, updated)
