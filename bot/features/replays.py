"""Finished games watched again: the Replay button, `/replay`, `/record` and `/history`.

A game is rebuilt from what every session already stores: its seed, options and action log
(each action with its seat). The animated picture is drawn by ``render.replay`` in a picture
worker, off the event loop; the record is written by ``engines.record``. Both exist only for a
game that ended: a running game would show hidden hands and shields.

Replays are drawn in a pool of their own (``bot.core.workers.REPLAYS``) with a small queue
(the REPLAY_QUEUE_LIMIT setting), so a long replay never delays a move's picture; while that
queue is full, a member asking for a replay is told privately to try again in a moment.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.attachments import as_file
from bot.core.sessions import GameSession, Sessions
from bot.core.store import LIVE_STATUSES, LoggedMove, PastGame
from bot.core.workers import WorkerPool
from bot.features.fair_use import FairUse
from bot.features.privacy_store import mention
from bot.ui.adapter import HINTS_USED, GameAdapter
from bot.ui.controls import Controls, SessionSelect, view_of
from bot.ui.game_message import REPLAY, Table, partners, versus
from bot.ui.replies import UserError, escape, reply_private
from engines.base import Game
from engines.record import GameRecord, result_of, write_record
from engines.review import reviewable
from render.replay import KINDS as REPLAYABLE
from render.replay import counted, replay_picture
from render.replay import length as replay_length
from render.theme import Picture
from render.wording import plural

HISTORY_REPLAY = "history_replay"  # the select under /history
HISTORY_REVIEW = "history_review"  # /history's second select, of one's own games (bot/features/review/reviews.py)
HISTORY_SIZE = 10
# A running game has no replay or record: they would show hands and shields still hidden.
IN_PROGRESS = "That game is still being played: its replay and record come once it ends."
NO_MENTIONS = discord.AllowedMentions.none()
REPLAYS_BUSY_TEXT = "I am drawing other replays right now; please try again in a moment."


def discord_message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A message's address in Discord (the playground links its own page instead)."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


@dataclass
class MessageLinks:
    """Where a link to a message leads (/history's): its address in Discord, or, in the playground,
    the page of the channel holding it (``page``, which the playground sets once its server has
    started, as it sets the board's page)."""

    page: Callable[[int | None, int, int], str] | None = None

    def __call__(self, guild_id: int | None, channel_id: int, message_id: int) -> str:
        link = self.page or discord_message_link
        return link(guild_id, channel_id, message_id)


class Replays:
    def __init__(
        self,
        sessions: Sessions,
        pictures: WorkerPool,
        games: Mapping[str, GameAdapter],
        controls: Controls,
        table: Table,
        *,
        fair_use: FairUse,
        links: MessageLinks,
    ):
        self.sessions = sessions
        self.table = table  # who plays whom, partners together
        self.store = sessions.store
        self.pictures = pictures  # the replays' own pool (bot.core.workers.REPLAYS)
        self.games = games
        self.fair_use = fair_use  # the platform's, with the limits from the settings
        self.message_link = links  # where /history's links lead
        # The button posts the replay in the channel; the history's select answers privately.
        controls.button(REPLAY, lambda i, sid, _: self.post_replay(i, sid, public=True))
        controls.select(HISTORY_REPLAY, self._history_replay, ack="private")

    # ------------------------------------------------------------ finding the game
    async def finished(self, interaction: discord.Interaction, session_id: int | None) -> GameSession:
        """The finished game asked for: ``session_id`` (of this server), or this channel's latest
        finished game; a clear refusal otherwise."""
        if session_id is None:
            running = await self.store.live_session_ref(interaction.channel_id)
            last = await self.store.last_finished_session(interaction.channel_id)
            if running is not None and running[2] == "active":  # the game here now is the one meant
                earlier = f" `/replay game_id:{last}` shows the last one that ended." if last else ""
                raise UserError(f"{IN_PROGRESS}{earlier}")
            if last is None:
                raise UserError("No game has finished in this channel yet. `/history` lists your games.")
            session_id = last
        record = await self.store.get_session(session_id)
        if record is None or record.guild_id != interaction.guild_id or record.game not in self.games:
            raise UserError(f"There is no game #{session_id} in this server.")
        if record.game not in REPLAYABLE:
            raise UserError(f"{self.games[record.game].title} has no replays.")
        if record.status in LIVE_STATUSES:
            raise UserError(IN_PROGRESS)
        if record.status not in ("finished", "stopped") or not record.state:
            raise UserError(f"Game #{session_id} did not finish (it was {record.status}), so it has no replay.")
        return await self.sessions.load(session_id)

    async def moves(self, session: GameSession) -> list[tuple[int, dict[str, Any]]]:
        """The game's actions as (seat, action), rebuilt from its log."""
        engine = self.games[session.record.game].engine
        logged = await self.store.logged_moves(session.id)
        return seated(engine, session, logged)

    # ------------------------------------------------------------ answers
    async def post_replay(self, interaction: discord.Interaction, session_id: int | None, *, public: bool) -> None:
        self.check_room()  # before anything is read
        session = await self.finished(interaction, session_id)
        await self.send_replay(interaction, session, public=public)

    async def send_record(self, interaction: discord.Interaction, session: GameSession) -> None:
        with self.fair_use.counting("record", interaction.guild_id, interaction.user.id):
            await self._send_record(interaction, session)

    async def _send_record(self, interaction: discord.Interaction, session: GameSession) -> None:
        text = await self.record_text(session)
        file = discord.File(io.BytesIO(text.encode()), filename=f"{session.record.game}-{session.id}.txt")
        title = self.games[session.record.game].title
        await interaction.followup.send(
            f"📜 The record of {title} #{session.id}: keep it, share it, or load it into the engine.",
            file=file,
            ephemeral=True,
        )

    async def send_replay(self, interaction: discord.Interaction, session: GameSession, *, public: bool) -> None:
        async with self.fair_use.replaying(interaction.guild_id, interaction.user.id):
            picture = await self.replay(session)
        text = f"🎞️ {self.heading(session, await self.moves(session))}"
        if not public:
            await reply_private(interaction, text, picture)
            return
        thread = session.record.thread_id
        if thread and interaction.channel_id != thread:  # from the game's card: the replay goes to its thread
            channel = interaction.client.get_partial_messageable(thread)
            await channel.send(text, file=as_file(picture), allowed_mentions=NO_MENTIONS)
            await reply_private(interaction, f"The replay of game #{session.id} is posted in <#{thread}>.")
            return
        if interaction.type == discord.InteractionType.application_command:  # its thinking answer is private
            await reply_private(interaction, f"The replay of game #{session.id} is posted below.")
        await interaction.followup.send(text, file=as_file(picture), allowed_mentions=NO_MENTIONS)

    def check_room(self) -> None:
        """A private "try again in a moment" while the replays' queue is full."""
        if self.pictures.full:
            raise UserError(REPLAYS_BUSY_TEXT)

    async def replay(self, session: GameSession) -> Picture:
        moves = await self.moves(session)
        state = session.state
        self.check_room()  # nothing awaited between the check and the queueing
        return await self.pictures.run(
            replay_picture,
            session.record.game,
            state.players,
            self.games[session.record.game].engine.replay_options(state, session.options),
            session.meta.seed,
            moves,
            list(session.names),
            self.table.final_header(session),  # the ending (the pool passes arguments by position)
        )

    async def record_text(self, session: GameSession) -> str:
        engine = self.games[session.record.game].engine
        started = session.meta.started_at or session.record.created_at.isoformat()
        record = GameRecord(
            game=engine.name,
            names=tuple(session.names),
            options=engine.replay_options(session.state, session.options),
            seed=session.meta.seed,
            actions=tuple(await self.moves(session)),
            date=started[:10],
            result=result_of(session.state),
            extra=self.record_tags(session),
        )
        return write_record(engine, record)

    def record_tags(self, session: GameSession) -> dict[str, str]:
        """The record's own tags: the game's number and, where seats play together, who with whom
        ([Sides "Ada & Bo vs Cy"]; a record reads back with it among its tags)."""
        tags = {"GameId": str(session.id)}
        sides = self.table.side_seats(session)
        if any(len(side) > 1 for side in sides):
            tags["Sides"] = versus(sides, session.names)
        used = session.options.get(HINTS_USED) or []
        if any(used):  # who used hints, and how many: [Hints "Ada 2"]
            tags["Hints"] = ", ".join(f"{session.names[seat]} {count}" for seat, count in enumerate(used) if count)
        return tags

    def heading(self, session: GameSession, moves: list[tuple[int, dict[str, Any]]]) -> str:
        """ "Replay of Octego #12: **Ada** vs **Bo**, **Bo** won (resignation), 14 moves.", partners
        together ("**Ada** & **Cy** vs **Bo** & **Di**, **Ada** & **Cy** won ..."); a finished game
        always has its outcome; its length counted as the replay counts it."""
        adapter = self.games[session.record.game]
        ending = self.table.outcome_phrase(session, session.bold_names)
        sides = self.table.sides(session)
        played = replay_length(session.record.game, session.state, moves)
        return f"Replay of {adapter.title} #{session.id}: {sides}, {ending}, {played}."

    # ------------------------------------------------------------ /history
    async def history_message(
        self, interaction: discord.Interaction, member: discord.abc.User, game: str | None
    ) -> tuple[str, discord.ui.View | None]:
        past = await self.store.history(interaction.guild_id, member.id, game, HISTORY_SIZE)
        name = escape(member.display_name, 40)
        kind = f"{self.games[game].title} " if game else ""
        if not past:
            return f"{name} has no finished {kind}game in this server yet.", None
        lines = [f"## {name}'s last {kind}games"]
        options, reviews = [], []
        for number, entry in enumerate(past, start=1):
            sides = await self._sides_of(entry)
            lines.append(f"{number}. {self._history_line(interaction, entry, sides, member.id)}")
            if entry.session_id is not None:
                label = f"{number}. {self._title(entry.game)} #{entry.session_id}, {entry.finished_at:%d %b %Y}"
                options.append(discord.SelectOption(label=label[:100], value=str(entry.session_id)))
                reviews += options[-1:] if reviewable(entry.game) else []
        view = None
        if options:
            select = SessionSelect(member.id, HISTORY_REPLAY, options=options, placeholder="Replay one of these games")
            review = SessionSelect(member.id, HISTORY_REVIEW, options=reviews, placeholder="Review one of your games")
            view = view_of([select, review] if reviews and member.id == interaction.user.id else [select])
        return "\n".join(lines), view

    def _title(self, game: str) -> str:
        """A game's title (a result of a game this bot no longer hosts keeps its stored name)."""
        return self.games[game].title if game in self.games else game

    async def _sides_of(self, entry: PastGame) -> list[list[int]]:
        """Who played whom in a listed game, as the game message said it (its stored session's
        sides); every seat for itself when the session is gone or its game is no longer hosted."""
        record = await self.store.get_session(entry.session_id) if entry.session_id is not None else None
        if record is None or record.game not in self.games or not record.state:
            return [[seat] for seat in range(len(entry.players))]
        return self.table.side_seats(self.sessions.loaded(record))

    def _history_line(
        self, interaction: discord.Interaction, entry: PastGame, sides: list[list[int]], user_id: int
    ) -> str:
        title = self._title(entry.game)
        names = [escape(name, 32) for name in entry.names]
        if len(names) != len(entry.players):  # a row stored without its names
            names = [mention(player) for player in entry.players]
        line = f"**{title}** {_with_and_against(sides, names, entry.players.index(user_id))}: "
        result = "won" if user_id in entry.winners else "lost"
        if set(entry.winners) >= set(entry.players):
            result = "draw"
        when = int(entry.finished_at.timestamp())
        moves = counted(entry.game, entry.moves) if entry.game in REPLAYABLE else plural(entry.moves, "move")
        length = f"{moves}, {_duration(entry.duration_seconds)}"
        line += f"{result} · {length} · <t:{when}:d>"
        if entry.event:
            line += f" · 🏆 {escape(entry.event, 60)}"
        if entry.message_id and entry.channel_id:
            link = self.message_link(interaction.guild_id, entry.channel_id, entry.message_id)
            line += f" · [game #{entry.session_id}]({link})"
        elif entry.session_id is not None:
            line += f" · game #{entry.session_id}"
        return line

    async def _history_replay(self, interaction: discord.Interaction, _: int, __: str, values: list[str]) -> None:
        if not values or not values[0].isdigit():
            raise UserError("Pick one of the games in the list.")
        await self.post_replay(interaction, int(values[0]), public=False)


def seated(engine: Game, session: GameSession, logged: list[LoggedMove]) -> list[tuple[int, dict[str, Any]]]:
    """Each logged action with its seat. Rows logged before seats were kept are seated by
    replaying: the member's seat, or for an action nobody typed (a timer's) the seat to act."""
    if all(move.seat is not None for move in logged):
        return [(move.seat, move.action) for move in logged]
    players = session.players
    state = engine.new_game(session.state.players, dict(session.options), session.meta.seed)
    moves = []
    for move in logged:
        seat = move.seat
        if seat is None and move.player_id is not None and players.count(move.player_id) == 1:
            seat = players.index(move.player_id)
        if seat is None:
            seat = (engine.to_act(state) or [0])[0]
        moves.append((seat, move.action))
        state = engine.apply(state, seat, move.action)
    return moves


def _with_and_against(sides: list[list[int]], names: list[str], seat: int) -> str:
    """A listed game from one player's seat: "vs Bo", "with Bo vs Cy", "with Bo vs Cy vs Di",
    "alone" (a practice game)."""
    own = next((side for side in sides if seat in side), [seat])
    mates = [other for other in own if other != seat]
    against = versus([side for side in sides if side is not own], names)
    with_mates = f"with {partners(mates, names)}" if mates else ""
    return " ".join(filter(None, [with_mates, f"vs {against}" if against else ""])) or "alone"


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 120:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"
