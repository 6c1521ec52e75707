"""The game message: one public message per session that shows whatever the session is now.

A challenge shows its invitation with Accept/Decline, a lobby its players, a running game
its picture, turn line and controls, a finished game its result and Rematch, and a closed
challenge or lobby the sentence that closed it. A change that should be seen asks for it
(``change.show()``); the outbox then edits (or posts) the message from the stored session.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

import discord

from bot.core.outbox import Outbox, Outgoing
from bot.core.sessions import Change, GameSession, Sessions, turn_events
from bot.core.store import LIVE_STATUSES
from bot.core.workers import Drawing, WorkerPool
from bot.ui.adapter import HINT, GameAdapter
from bot.ui.controls import SessionButton, view_of
from engines.base import Event
from engines.review import REVIEWABLE
from render.narration import final_header
from render.replay import KINDS as REPLAYABLE

GAME_MESSAGE = "game_message"
TEXT = "text"
EDIT_TEXT = "edit_text"  # replace an older message's text and remove its controls
RESIGN = "resign"  # the Resign button's control: it asks to confirm (bot/features/game_buttons.py)
RESIGN_ROW = 1  # the row under the game's own controls
REPLAY = "replay"  # a finished game's Replay button (bot/features/replays.py)
REVIEW = "review"  # a finished game's Review button (bot/features/review/reviews.py)
RETIRE = "retire_game_message"  # an older game message, left behind by a repost: a line pointing down
OPEN_BOARD = "board"  # a running game's "Open the board": the Activity (bot/features/activity/launch.py)


POSTED_AGAIN = "⬇ This board was posted again below: play on that one."

# A game conceded by a seat (its last action's event) and the final header that tells it.
CONCEDED_ENDINGS = {"resign": "resigned", "forfeit": "out_of_time"}


def conceding(session: GameSession) -> tuple[str, int] | None:
    """(event kind, seat) when the game's last action was a seat's resignation or loss on time."""
    events = session.state.events if session.state is not None else []
    found = [(e.kind, e.seat) for e in events if e.kind in CONCEDED_ENDINGS and e.seat is not None]
    return found[-1] if found else None


def side_seats(teams: Sequence[int] | None, seats: int) -> list[list[int]]:
    """Who plays whom, for every game and mode: the seats of each side in order of first
    appearance, partners (seats of one team) together; without teams every seat is a side."""
    grouped: dict[int, list[int]] = {}
    for seat, team in enumerate(teams or range(seats)):
        grouped.setdefault(team, []).append(seat)
    return list(grouped.values())


def partners(seats: Iterable[int], names: Sequence[str]) -> str:
    """One side's names: "Ada & Bo" (a computer with several seats named once)."""
    return " & ".join(dict.fromkeys(names[seat] for seat in seats))


def versus(sides: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    """The sides face to face: "Ada & Bo vs Cy"."""
    return " vs ".join(partners(side, names) for side in sides)


def winning_sides(sides: Sequence[Sequence[int]], winners: Iterable[int], names: Sequence[str]) -> list[str]:
    """Each side with a winning seat, named as partners: ["Ada & Bo"]."""
    won = set(winners)
    return [partners(side, names) for side in sides if won & set(side)]


WAITING_FOR_DISCORD = (
    "⏳ Discord is not taking my messages at the moment: your move is saved, and the game's messages will "
    "show it as soon as Discord answers again."
)


class Table:
    def __init__(
        self,
        sessions: Sessions,
        outbox: Outbox,
        pictures: WorkerPool,
        games: Mapping[str, GameAdapter],
        bot: discord.Client,
        *,
        board_offered: Callable[[], bool] = lambda: False,
        newcomer_line: Callable[[GameSession], Awaitable[str]] | None = None,
    ):
        self.sessions = sessions
        self.outbox = outbox
        self.pictures = pictures
        self.games = games
        self.bot = bot
        # "Open the board" on running games: asked at each drawing, since the playground serves
        # its board only once its server has started.
        self.board_offered = board_offered
        # A line for a member's first game of its kind, under the turn line (the lessons').
        self.newcomer_line = newcomer_line
        outbox.register(GAME_MESSAGE, self._build, self._remember_message, coalesce=True)
        outbox.register(RETIRE, None, deliver=self._retire)
        outbox.register(TEXT, self._build_text)
        outbox.register(EDIT_TEXT, self._build_edit_text)

    async def plan(self, change: Change) -> None:
        if change.show_table:
            change.post(GAME_MESSAGE, {"repost": change.repost_table})

    def post_again(self, change: Change) -> None:
        """The game message posted anew at the bottom (`/board`): the older one becomes a
        line pointing down, without picture or controls, so that no twin looks live and none
        keeps a turn's deadline after the game ends."""
        if change.record.message_id:
            change.post(RETIRE, {"message_id": change.record.message_id})
        change.show(repost=True)

    # ------------------------------------------------------------------ sending
    async def _retire(self, session: GameSession, payload: dict[str, Any]) -> None:
        channel_id = session.record.play_channel_id
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(payload["message_id"])
        content = f"## {self.games[session.record.game].title}\n{self.sides(session)}\n{POSTED_AGAIN}"
        with contextlib.suppress(discord.NotFound):  # deleted by someone: nothing is left to retire
            await self.outbox.in_thread(
                session, channel_id, lambda: message.edit(content=content, attachments=[], view=None)
            )

    async def _build(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        adapter = self.games[session.record.game]
        record = session.record
        # A game played in a thread shows its challenge or lobby on its card, in the channel.
        on_card = record.in_thread and (session.state is None or record.status in ("challenge", "lobby"))
        shown = record.card_id if on_card else record.message_id
        edit = None if payload.get("repost") else shown
        channel = record.channel_id if on_card else None
        status = session.status
        if status == "challenge":
            content, view = self.challenge_content(session), self._challenge_view(session)
            return Outgoing(content, view=view, edit=edit, channel_id=channel)
        if status == "lobby":
            content, view = adapter.lobby_message(session)
            return Outgoing(content, view=view, edit=edit, channel_id=channel)
        if session.state is None:  # a challenge or lobby that closed: its last word, no controls
            if edit is None:
                return None  # it was never shown: nothing to say
            return Outgoing(session.meta.ended_note or "This session is closed.", edit=edit, channel_id=channel)
        return await self.game_picture(session, edit)

    async def game_picture(self, session: GameSession, edit: int | None = None) -> Outgoing:
        """A running or finished game's message: its picture, text and controls."""
        picture = await self.pictures.draw(self.public_drawing(session))
        newcomer = await self.newcomer_line(session) if self.newcomer_line else ""
        return Outgoing(self.content(session) + newcomer, [picture], view_of(self.components(session)), edit=edit)

    def public_drawing(self, session: GameSession) -> Drawing:
        """The game's public picture; once the game is over, drawn as a final position, headed by
        how it ended where the engine's outcome does not say it (a stop, a clock forfeit)."""
        drawn = self.games[session.record.game].public_picture(session)
        if session.status in LIVE_STATUSES:
            return drawn
        ending = self.final_header(session)
        return drawn.with_keywords(ending=ending) if ending else drawn

    def final_header(self, session: GameSession) -> str | None:
        """The final picture's header when the engine's outcome does not tell how the game ended:
        who resigned or ran out of time, who stopped it."""
        if session.status == "finished" and session.state is not None:
            outcome = self.games[session.record.game].engine.outcome(session.state)
            conceded = conceding(session)
            if outcome is None or not outcome.winners or conceded is None:
                return None
            kind, seat = conceded
            winners = winning_sides(self.side_seats(session), outcome.winners, session.names)
            return final_header(CONCEDED_ENDINGS[kind], session.names[seat], winners)
        return session.meta.final_header or "Stopped"

    @staticmethod
    async def _remember_message(change: Change, _: dict[str, Any], message: discord.Message) -> None:
        record = change.record
        if record.in_thread and message.channel.id == record.channel_id:
            record.card_id = message.id  # the challenge or lobby: the game's card
        else:
            record.message_id = message.id

    @staticmethod
    async def _build_text(_: GameSession, payload: dict[str, Any]) -> Outgoing:
        return Outgoing(payload["content"])

    @staticmethod
    async def _build_edit_text(_: GameSession, payload: dict[str, Any]) -> Outgoing:
        return Outgoing(payload["content"], edit=payload["message_id"])

    # ------------------------------------------------------------------ content
    def side_seats(self, session: GameSession) -> list[list[int]]:
        """The one answer to "who plays whom" in a session: its seats by side, partners together
        (the engine's teams; a finished game's outcome says them too)."""
        state = session.state
        teams = None
        if state is not None:
            teams = self.games[session.record.game].engine.teams(state)
            teams = teams or (state.outcome.teams if state.outcome is not None else None)
        return side_seats(teams, len(session.names))

    def sides(self, session: GameSession, *, bold: bool = True) -> str:
        """Who plays whom: "**Ada** vs **Bo**", or partners together: "**Ada** & **Cy** vs **Bo** & **Di**"
        (``bold=False``: the plain names, for a thread's name)."""
        return versus(self.side_seats(session), session.bold_names if bold else session.names)

    def named_seats(self, session: GameSession) -> list[str]:
        """Each seat as a result names it: a member by mention, a computer seat by its name
        ("**Computer (medium)**"), never the bot's own mention."""
        computer = self.bot.user.id if self.bot.user else None
        return [
            bold if player == computer else f"<@{player}>"
            for player, bold in zip(session.players, session.bold_names, strict=False)
        ]

    def outcome_phrase(self, session: GameSession, names: Sequence[str]) -> str:
        """How a finished game ended, partners together: "**Ada** & **Bo** won (all rounds played)";
        a stopped one "stopped by Ada"."""
        outcome = self.games[session.record.game].engine.outcome(session.state)
        if outcome is None:
            header = self.final_header(session) or "Stopped"
            return header[:1].lower() + header[1:]
        if outcome.is_draw:
            return f"a draw ({outcome.reason})"
        return f"{' and '.join(winning_sides(self.side_seats(session), outcome.winners, names))} won ({outcome.reason})"

    def content(self, session: GameSession) -> str:
        adapter = self.games[session.record.game]
        lines = [f"## {adapter.title}", self.sides(session)]
        said = self.narration(session)
        if said:
            lines.append(said)
        status = adapter.status_text(session)
        if status:
            lines.append(status)
        if session.status == "active" and not adapter.simultaneous:
            lines.append("▶ " + self.sessions.turn_sentence(session, adapter.engine.to_act(session.state)))
            if session.meta.turn_deadline:
                lines.append(f"⏱ Turn ends <t:{session.meta.turn_deadline}:R>")
        elif session.status == "finished":
            lines.append(self.result_sentence(session))
        elif session.status in ("stopped", "closed"):
            lines.append(session.meta.ended_note or "⏹ Stopped.")
        lines += filter(None, [adapter.hints_note(session)])  # hints used (bot/features/hints), seen by all
        return "\n".join(lines)

    def narration(self, session: GameSession) -> str:
        """What the turn so far did, in words (every action of a computer's turn, not only its
        last): the platform's own line (a forfeit) or the game's narrator on the turn's events
        (the result line tells the end)."""
        if session.meta.headline or session.state is None:
            return session.meta.headline
        return self.told(session, turn_events(session))

    def told(self, session: GameSession, events: Iterable[Event]) -> str:
        """``events`` in words, by the game's narrator, as one paragraph."""
        narrate = self.games[session.record.game].narrate
        return " ".join(filter(None, (narrate(event, session.bold_names) for event in events if event.kind != "end")))

    def done(self, session: GameSession, since: int | None = None, upto: int | None = None) -> str:
        """A private answer to the player whose action just took effect: what the actions after
        ply ``since`` (up to ply ``upto``) did; by default, the last action. While Discord refuses
        the game's messages (an outage), it says the action is saved and will show."""
        if session.meta.headline or session.state is None:
            said = session.meta.headline
        elif since is None:
            said = self.told(session, session.state.events)
        else:
            last = session.state.ply if upto is None else upto
            said = self.told(session, [event for event in turn_events(session) if since < event.ply <= last])
        done = f"Done. {said}".strip()
        if self.outbox.waiting_for_discord(session.id):
            done += f"\n{WAITING_FOR_DISCORD}"
        return done

    def result_sentence(self, session: GameSession) -> str:
        outcome = self.games[session.record.game].engine.outcome(session.state)
        if outcome is None:
            return "⏹ The game ended."
        if outcome.is_draw:
            return f"🤝 Draw ({outcome.reason})."
        named = self.named_seats(session)
        winners = " and ".join(winning_sides(self.side_seats(session), outcome.winners, named))
        conceded = conceding(session)
        if conceded is not None and conceded[0] == "forfeit":  # a clock forfeit is not a resignation
            return f"🏆 {winners} won: {session.bold_names[conceded[1]]} ran out of time."
        return f"🏆 {winners} won ({outcome.reason})."

    def finished_items(self, session: GameSession) -> list[discord.ui.Item]:
        """A finished game's only controls: Rematch (unless only the computer played) and Replay."""
        humans = [p for p in session.players if p != self.bot.user.id]
        rematch = SessionButton(session.id, "rematch", label="Rematch", style=discord.ButtonStyle.primary)
        items: list[discord.ui.Item] = [rematch] if humans else []
        if session.record.game in REPLAYABLE:
            items.append(SessionButton(session.id, REPLAY, label="Replay", emoji="🎞️"))
        if session.record.game in REVIEWABLE:
            items.append(SessionButton(session.id, REVIEW, label="Review", emoji="🔍"))
        return items

    @staticmethod
    def ended(session: GameSession) -> bool:
        """A game that was played and is over: finished, or stopped after its start (it keeps
        Replay and Rematch too)."""
        return session.status == "finished" or (session.status == "stopped" and session.state is not None)

    def finished_view(self, session: GameSession) -> discord.ui.View | None:
        return view_of(self.finished_items(session))

    def components(self, session: GameSession) -> list[discord.ui.Item]:
        adapter = self.games[session.record.game]
        if self.ended(session):
            return self.finished_items(session)
        if session.status != "active" or not adapter.playing_now(session):
            return []
        items = list(adapter.components(session))
        if adapter.private_view_label:
            items.append(SessionButton(session.id, "private", label=adapter.private_view_label))
        if adapter.hints_allowed(session):  # bot/features/hints
            items.append(SessionButton(session.id, HINT, label="Hint", emoji="💡"))
        # Grey and on a row of its own, away from the main button.
        items.append(SessionButton(session.id, RESIGN, label="Resign", row=RESIGN_ROW))
        if self.board_offered():
            items.append(SessionButton(session.id, OPEN_BOARD, label="Open the board", emoji="🎲", row=RESIGN_ROW))
        return items

    # --------------------------------------------------------------- challenges
    def challenge_content(self, session: GameSession) -> str:
        adapter = self.games[session.record.game]
        meta = session.meta
        host = f"<@{session.record.host_id}>"
        invited = [p for p in meta.seats if p != session.record.host_id and p != self.bot.user.id]
        mentions = ", ".join(f"<@{p}>" for p in invited)
        invitation = f"{mentions}: {host} challenges you to **{adapter.title}**{adapter.options_text(meta.options)}."
        if meta.expires_at:
            invitation += f" Expires <t:{meta.expires_at}:R>."
        lines = [f"## {adapter.title} challenge", invitation]
        if adapter.team_play and len(meta.seats) == 4:  # pairs sit across: seats 0 & 2 against 1 & 3
            pairs = (" & ".join(f"<@{p}>" for p in meta.seats[first::2]) for first in (0, 1))
            lines.append(f"Pairs: {' vs '.join(pairs)}.")
        accepted = [p for p in invited if p not in meta.pending]
        if accepted:
            waiting = ", ".join(f"<@{p}>" for p in meta.pending)
            lines.append(f"✅ {', '.join(f'<@{p}>' for p in accepted)} accepted; waiting for {waiting}.")
        return "\n".join(lines)

    def _challenge_view(self, session: GameSession) -> discord.ui.View:
        return view_of(
            [
                SessionButton(session.id, "accept", label="Accept", style=discord.ButtonStyle.success),
                SessionButton(session.id, "decline", label="Decline", style=discord.ButtonStyle.danger),
                *self.games[session.record.game].challenge_components(session),
            ]
        )
