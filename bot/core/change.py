"""A :class:`Change`: the work of one ``sessions.change`` block (bot/core/sessions.py), built up
by the caller (engine actions, timers, public messages, extra writes) and then written by the
sessions in one transaction. ``bot.core.sessions`` re-exports it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from bot.core.store import SessionRecord, Transaction
from bot.ui.replies import UserError, sentence
from engines.base import Event, Game, IllegalAction, Outcome

if TYPE_CHECKING:
    from bot.core.sessions import GameSession, SessionMeta


class GameInfo(Protocol):
    """What sessions need to know of a game: its engine and its name for people."""

    engine: Game
    title: str


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
