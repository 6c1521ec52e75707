"""A session as loaded (:class:`GameSession`, with the bot's :class:`SessionMeta`) and a
:class:`Change`: the work of one ``sessions.change`` block (bot/core/sessions.py), built up by the
caller (engine actions, timers, public messages, extra writes) and then written by the sessions
in one transaction. ``bot.core.sessions`` re-exports them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from typing import Any, Protocol

from bot.core.errors import UserError
from bot.core.store import SessionRecord, Transaction
from bot.core.text import NAME_LIMIT, escape, sentence
from engines.base import Event, Game, IllegalAction, Outcome


class GameInfo(Protocol):
    """What sessions need to know of a game: its engine and its name for people."""

    engine: Game
    title: str


@dataclass
class SessionMeta:
    """The bot's own details of a session, stored beside the engine state."""

    names: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    started_at: str | None = None
    computer_level: str = "medium"
    pending: list[int] = field(default_factory=list)  # challenged players who have not accepted yet
    seats: list[int] = field(default_factory=list)  # a challenge's seat order, for when it starts
    expires_at: int | None = None  # unix time an open challenge expires
    headline: str = ""  # the platform's own line for the latest action (a forfeit), instead of the narrator's
    # The events of the turn so far (one seat's actions in a row, as stored dicts), so the game
    # message tells a turn of several actions (a computer's) in full, not only its last action.
    turn_events: list[dict[str, Any]] = field(default_factory=list)
    turn_seat: int | None = None
    turn_deadline: int | None = None  # unix time the turn clock runs out
    clock_seconds: int | None = None  # this game's turn clock (None: a game stored before clocks per game)
    notice_id: int | None = None  # the latest "your move" notice in the game's thread (deleted by the next)
    final_header: str = ""  # a stopped game's final picture's header ("Stopped by Ada")
    stopped_by: int | None = None
    ended_note: str = ""  # why a challenge or lobby closed (declined, expired, could not be posted)
    # Octagion's lobby and rounds.
    team_count: int | None = None
    player_teams: dict[str, int] = field(default_factory=dict)
    round_deadline: int | None = None
    # A tournament's game: {"id": tournament session, "round": n, "table": n, "name": event, "rated": bool}.
    tournament: dict[str, Any] | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SessionMeta:
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class GameSession:
    """A stored session with its engine state loaded."""

    record: SessionRecord
    state: Any
    meta: SessionMeta

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def players(self) -> list[int]:
        return self.record.players

    @property
    def names(self) -> list[str]:
        return self.meta.names or [str(p) for p in self.players]

    @property
    def options(self) -> dict[str, Any]:
        return self.meta.options

    @property
    def action_number(self) -> int:
        """How many actions this game has had: what every control is built for."""
        return self.record.actions

    def seat_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None

    @property
    def shown_names(self) -> list[str]:
        """Names as message text shows them, trimmed and escaped: the one place this is done."""
        return [escape(name, NAME_LIMIT) for name in self.names]

    @property
    def bold_names(self) -> list[str]:
        """Names for narration in message text (a picture's alt text uses the plain names)."""
        return [f"**{name}**" for name in self.shown_names]

    def mention(self, seat: int) -> str:
        return f"<@{self.players[seat]}>"


def _plain_event(event: Event) -> dict[str, Any]:
    return {"ply": event.ply, "seat": event.seat, "kind": event.kind, "data": dict(event.data)}


class Change:
    """The work of one ``sessions.change`` block: build it up, then it commits as one."""

    def __init__(self, session: GameSession, game: GameInfo, now: datetime):
        self.session = session
        self.game = game
        self.now = now
        self.logged: list[tuple[int | None, dict[str, Any], int | None]] = []
        self.new_timers: list[tuple[str, datetime, dict[str, Any]]] = []
        # Timers of other sessions, written with this change (a tournament's game tells its
        # tournament its result; a tournament ends the games of a round whose time is up).
        self.timers_elsewhere: list[tuple[int, str, datetime, dict[str, Any]]] = []
        self.cancelled: list[list[str] | None] = []
        self.posts: list[tuple[str, dict[str, Any], float]] = []
        self.show_table = False  # redraw the game message after the commit
        self.repost_table = False  # post it anew (at the bottom of the channel) instead of editing it
        self.in_transaction: list[Callable[[Transaction], Awaitable[None]]] = []
        self.was_status = session.record.status
        self.outcome: Outcome | None = None

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def meta(self) -> SessionMeta:
        return self.session.meta

    @property
    def record(self) -> SessionRecord:
        return self.session.record

    @property
    def finished(self) -> bool:
        return self.was_status != "finished" and self.record.status == "finished"

    # ---------------------------------------------------------------- changing
    def apply(
        self, seat: int, action: dict[str, Any], *, by: int | None, event: str | None = None, quiet: bool = False
    ) -> None:
        """Apply one engine action for ``seat`` (the engine explains a refusal, as a UserError).

        ``quiet``: nothing public changes (an Octagion variant), so the game message stays.
        ``event`` replaces the narrator's line for the action (a forfeit is not a resignation).
        """
        engine = self.game.engine
        before = self.session.state
        try:
            self.session.state = engine.apply(before, seat, action)
        except IllegalAction as error:
            raise UserError(sentence(str(error))) from None
        self._tell(seat, before.events, self.session.state.events)
        self.log(by, action, seat)
        self.meta.headline = event or ""
        if not quiet:
            self.show_table = True
        self.outcome = engine.outcome(self.session.state)
        if self.outcome is not None:
            self.record.status = "finished"
            self.show_table = True

    def _tell(self, seat: int, earlier: list[Event], events: list[Event]) -> None:
        """Add an action's events to the turn's (a game where everyone acts at once keeps the last
        action's). The turn goes on while the same seat acts and nobody else did anything in
        between (an Octagone skip); a new turn starts with what the action before ended on about
        this seat (Octa's automatic draw)."""
        fresh = [_plain_event(event) for event in events]
        others = any(event.seat not in (None, seat) for event in earlier)
        if getattr(self.game, "simultaneous", False):
            self.meta.turn_events = fresh
        elif (seat == self.meta.turn_seat and not others) or self._follows_a_members_move(seat):
            self.meta.turn_events = [*self.meta.turn_events, *fresh]
        else:
            start = len(earlier)
            while start > 0 and earlier[start - 1].seat == seat:
                start -= 1
            self.meta.turn_events = [_plain_event(event) for event in earlier[start:]] + fresh
        self.meta.turn_seat = seat

    def _follows_a_members_move(self, seat: int) -> bool:
        """A computer seat acting after a member's move that other members have not read yet: the
        turn told goes on, so the game message tells every action since the last member's move
        (the game names its computer seats; alone with the computer, a member knows their move)."""
        computer_seats = getattr(self.game, "computer_seats", None)
        if computer_seats is None or self.meta.turn_seat is None:
            return False
        computers = computer_seats(self.session)
        members = {player for at, player in enumerate(self.record.players) if at not in computers}
        return seat in computers and len(members) > 1

    def start(self, players: list[int], names: list[str], options: dict[str, Any], seed: int) -> None:
        """Turn a challenge or lobby into a running game."""
        self.session.state = self.game.engine.new_game(len(players), options, seed)
        self.record.players = list(players)
        self.record.status = "active"
        self.meta.names = list(names)
        self.meta.options = dict(options)
        self.meta.seed = seed
        self.meta.started_at = self.now.isoformat()
        self.meta.pending = []
        self.meta.turn_events, self.meta.turn_seat = [], None
        self.show_table = True

    def log(self, by: int | None, action: dict[str, Any], seat: int | None = None) -> None:
        """Add an action to the session's log (written with the change) and count it: every
        action an engine applies, with its seat (replays and records read it), and what a
        session records without an engine (a daily answer)."""
        self.logged.append((by, dict(action), seat))
        self.record.actions += 1

    def end(self, status: str, note: str = "") -> None:
        """Close the session without a result (stopped, declined, expired)."""
        self.record.status = status
        self.meta.ended_note = note
        self.cancel_timers()
        self.show_table = True

    def add_timer(self, kind: str, deadline: datetime, payload: dict[str, Any] | None = None) -> None:
        self.new_timers.append((kind, deadline, payload or {}))

    def add_timer_elsewhere(
        self, session_id: int, kind: str, deadline: datetime, payload: dict[str, Any] | None = None
    ) -> None:
        """A timer of another session, committed with this change: it fires in that session's own
        change (under its lock), so no change ever holds two sessions' locks."""
        self.timers_elsewhere.append((session_id, kind, deadline, payload or {}))

    def cancel_timers(self, kinds: list[str] | None = None) -> None:
        """Remove this session's pending timers (of ``kinds``, or all), including ones added earlier here."""
        self.cancelled.append(kinds)
        self.new_timers = [t for t in self.new_timers if kinds is not None and t[0] not in kinds]

    def post(self, kind: str, payload: dict[str, Any] | None = None, *, after_seconds: float = 0) -> None:
        """A public message to send after the commit (the outbox keeps trying until it is out);
        ``after_seconds``: not before then (a card's edit waits for the moves that follow)."""
        self.posts.append((kind, payload or {}, after_seconds))

    def show(self, *, repost: bool = False) -> None:
        """Redraw the game message after the commit (``repost``: as a new message)."""
        self.show_table = True
        self.repost_table = self.repost_table or repost

    def quiet(self) -> None:
        """Do not redraw the game message for this change (the caller posts what is needed)."""
        self.show_table = False
        self.repost_table = False

    def during_commit(self, step: Callable[[Transaction], Awaitable[None]]) -> None:
        """Extra writes that must share this change's transaction (results, ratings)."""
        self.in_transaction.append(step)
