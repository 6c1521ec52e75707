"""What the runner and the cards ask of an event, of either kind: a tournament of two-player games
(:class:`~bot.features.tournaments.tournament_event.TournamentEvent`) or an Octagion series of races
(:class:`~bot.features.tournaments.series_event.SeriesEvent`). Each wraps the engine's state
(``engines.tournament``), which is immutable: what changes an event returns it anew, and the runner
stores its ``state`` in the session. The runner never asks which kind it holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict

from bot.core.workers import Drawing
from bot.features.tournaments.config import EventConfig
from bot.ui.adapter import GameAdapter
from engines.tournament import Player, Series, Tournament
from render.tournament import points_text

# Every game of an event: (round, table) -> (its session id, its thread id).
Links = Mapping[tuple[int, int], tuple[int, int | None]]


class GameOutcome(TypedDict):
    """How a game of an event ended, as its last change tells the event: the pairing's result
    (None: not a two-player game) and each player's (id, place, score), a race's entries."""

    result: str | None
    entries: list[tuple[int, int, float]]


@dataclass(frozen=True)
class Recorded:
    """What a result, a withdrawal or the round's time running out made of an event."""

    event: Event
    number: int  # the round (or race) it happened in
    round_complete: bool  # every game of that round has its result: standings, then the next round
    reopen: bool = False  # a game to open in that round (a knockout's drawn game, replayed)
    note: str | None = None  # a line for the channel
    resign_at: int | None = None  # the table whose running game the withdrawn player forfeits


@dataclass(frozen=True)
class Seating:
    """How an event seats its game: the players in seat order, the game's options, the seat that
    moves first, and the game's turn clock (None: the game's own timing)."""

    players: list[int]
    options: dict[str, Any] = field(default_factory=dict)
    first_seat: int = 0
    clock_seconds: int | None = None


class Event(Protocol):
    """An event as it stands. What differs between a tournament and a series, and nothing else."""

    @property
    def state(self) -> Tournament | Series:
        """The engine's state, as the session stores it."""

    # ------------------------------------------------------------ reading
    @property
    def posts_pairings(self) -> bool:
        """Whether a round posts its pairings (a tournament's; a series' race has none)."""

    @property
    def higher_seed_advances(self) -> bool:
        """At the round's deadline, whether a running game goes to the higher seed (a knockout);
        else it is scored a draw."""

    def dump(self) -> dict[str, Any]: ...
    def has_player(self, user_id: int) -> bool: ...
    def name(self, user_id: int) -> str: ...
    def active(self) -> tuple[Player, ...]: ...
    def under_way(self) -> int:
        """The number of the round (or race) being played, or the last one."""

    def round_done(self) -> bool:
        """Whether no game of the round under way waits for a result (the next can be started)."""

    def is_done(self) -> bool: ...

    # ------------------------------------------------------------ the games
    def next_round(self) -> tuple[Event, bool]:
        """The event with its next round paired, and whether that round has a game to play
        (False: byes and forfeits only, already scored)."""

    def games_to_open(self, number: int, opened: Mapping[int, int]) -> list[tuple[int, list[int]]]:
        """Round ``number``'s games not opened yet (``opened``: table -> game): (table, players)."""

    def seat(self, adapter: GameAdapter, players: list[int], seed: int, config: EventConfig) -> Seating: ...
    def in_first_thread(self, number: int) -> bool:
        """Whether round ``number``'s game is played in the thread of round 1's (a series' races)."""

    # ------------------------------------------------------------ changes
    def record(self, number: int, table: int, outcome: GameOutcome | None) -> Recorded | None:
        """A game's result (``outcome`` None: it ended with none, stopped at the deadline);
        None: nothing to record (late, or scored already)."""

    def withdraw(self, user_id: int) -> Recorded: ...
    def settle_deadline(self, number: int) -> Recorded | None:
        """Round ``number``'s time is up: its running games scored; None: nothing to score."""

    def end_by_host(self) -> Event: ...
    def forget(self, member_id: int, former_id: int, name: str) -> Event: ...

    # ------------------------------------------------------------ what members see
    def standings_picture(self, title: str) -> Drawing: ...
    def pairings(self, number: int, title: str) -> tuple[str, Drawing] | None:
        """Round ``number``'s pairings: their text and picture (None: none to show)."""

    def progress(self, config: EventConfig) -> str:
        """The card's line while it runs: the round, its games, its time."""

    def ended_words(self) -> str:
        """ " (ended by the host after round 2)" when the host ended it; else nothing."""

    def no_champion(self) -> bool:
        """Whether the event ended with no winner (a knockout's final forfeited by both)."""

    def places(self) -> list[tuple[int, list[str]]]:
        """The podium: (rank, names) for ranks 1 to 3."""

    def game_lines(self, links: Links) -> list[str]:
        """Every game with its result and a link to its thread."""

    def game_label(self, number: int, table: int) -> str:
        """A game's name in the replay menu."""

    def standings_heading(self, title: str, number: int) -> str:
        """The heading of the standings after round ``number`` (not the final ones)."""

    def standings_lines(self) -> list[str]:
        """The standings as text, one line a player."""


def points_words(points: float) -> str:
    """1 point, 2.5 points, 0 points (both kinds' standings)."""
    return f"{points_text(points)} point" + ("" if points == 1 else "s")


class Ranked(Protocol):
    """A row of either kind's standings."""

    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...


def podium(rows: Sequence[Ranked]) -> list[tuple[int, list[str]]]:
    """(rank, names) for ranks 1 to 3 of standings ``rows`` (a rank shared by several)."""
    ranks = sorted({row.rank for row in rows if row.rank <= 3})
    return [(rank, [row.name for row in rows if row.rank == rank]) for rank in ranks]


def round_time_words(config: EventConfig) -> str:
    """The card's " · time is up in 3 hours" or " · ⏸ paused" after the round's line."""
    if config.paused:
        return " · ⏸ paused"
    return f" · time is up <t:{config.deadline}:R>" if config.deadline else ""


def thread_link(links: Links, number: int, table: int) -> str:
    """ " <#thread>" of round ``number``'s game at ``table``, when it has one; else nothing."""
    where = links.get((number, table))
    return f" <#{where[1]}>" if where and where[1] else ""
