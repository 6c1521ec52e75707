"""What a tournament is: its players, its rounds of pairings with their results, its withdrawals.

A :class:`Tournament` is plain, frozen data (tuples and frozen dataclasses): every change is a
new tournament, it dumps to JSON and loads back like a game state. Players are known by an
integer id (the bot's member id, or any number); a pairing names them by id.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import IllegalAction, _from_plain, _to_plain

SWISS = "swiss"
ROUND_ROBIN = "round_robin"
KNOCKOUT = "knockout"
FORMATS = (SWISS, ROUND_ROBIN, KNOCKOUT)
FORMAT_NAMES = {SWISS: "Swiss", ROUND_ROBIN: "round-robin", KNOCKOUT: "knockout"}

# A tournament needs at least this many players (reconstruction: two players make a match, not an event).
MIN_PLAYERS = 3

# A pairing's result, from the first player's side.
FIRST_WINS = "first"
SECOND_WINS = "second"
DRAW = "draw"
FIRST_FORFEITS = "first forfeits"  # on the clock, or by withdrawing
SECOND_FORFEITS = "second forfeits"
BOTH_FORFEIT = "both forfeit"
DEADLINE = "deadline"  # still running when the round's time was up (scored a draw; knockout: the higher seed advances)
BYE = "bye"  # no opponent: scored as a win
NOT_PLAYED = "not played"  # still running when the host ended the event: no points, in no tie-break
RESULTS = (FIRST_WINS, SECOND_WINS, DRAW, FIRST_FORFEITS, SECOND_FORFEITS, BOTH_FORFEIT, DEADLINE, BYE)
# Points for (first, second): win 1, draw 1/2, loss and forfeit 0, a bye 1.
POINTS = {
    FIRST_WINS: (1.0, 0.0),
    SECOND_WINS: (0.0, 1.0),
    DRAW: (0.5, 0.5),
    FIRST_FORFEITS: (0.0, 1.0),
    SECOND_FORFEITS: (1.0, 0.0),
    BOTH_FORFEIT: (0.0, 0.0),
    DEADLINE: (0.5, 0.5),
    BYE: (1.0, 0.0),
    NOT_PLAYED: (0.0, 0.0),
}

FIRST, SECOND = "first", "second"  # the sides of a game: who moves first


class TournamentError(IllegalAction):
    """Something the tournament's rules refuse; ``str(error)`` is a sentence a player can read."""


@dataclass(frozen=True)
class Player:
    """An entrant: ``seed`` 1 is the highest rating (ties keep the order of joining)."""

    id: int
    name: str
    rating: float = 0.0
    seed: int = 0


@dataclass(frozen=True)
class Pairing:
    """One game of a round at ``table`` (1 = the top table): ``first`` moves first against
    ``second`` (None: a bye). ``result`` is None while the game runs. A knockout replay of a
    drawn game is a pairing of its own, ``replay_of`` the table it replays, sides swapped.
    ``rematch``: these two met before (a Swiss round where no pairing without one existed)."""

    table: int
    first: int
    second: int | None
    result: str | None = None
    replay_of: int | None = None
    rematch: bool = False

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def points_of(self, player: int) -> float:
        """What ``player`` scored here (the result must be in)."""
        first, second = POINTS[self.result]  # type: ignore[index]
        return first if player == self.first else second

    def opponent_of(self, player: int) -> int | None:
        return self.second if player == self.first else self.first

    def side_of(self, player: int) -> str:
        return FIRST if player == self.first else SECOND


@dataclass(frozen=True)
class Round:
    """``rematches``: how many pairings repeat an earlier game (Swiss, only when none was avoidable)."""

    number: int
    pairings: tuple[Pairing, ...]
    rematches: int = 0

    @property
    def complete(self) -> bool:
        return all(pairing.result is not None for pairing in self.pairings)

    def pairing(self, table: int) -> Pairing:
        for pairing in self.pairings:
            if pairing.table == table:
                return pairing
        raise TournamentError(f"Round {self.number} has no table {table}.")

    def running(self) -> tuple[Pairing, ...]:
        return tuple(pairing for pairing in self.pairings if pairing.result is None)


@dataclass(frozen=True)
class Tournament:
    """``rounds_planned``: Swiss, as chosen (at most players - 1); round-robin, as the schedule
    needs (twice with ``double``); knockout, as the bracket needs. ``withdrawn``: ids, in order.
    ``ended_after``: set when the host ended the event, the last round that had every result."""

    format: str
    players: tuple[Player, ...]
    rounds_planned: int
    double: bool = False
    rounds: tuple[Round, ...] = ()
    withdrawn: tuple[int, ...] = ()
    schema: int = 1
    ended_after: int | None = None

    # ------------------------------------------------------------ looking up
    def player(self, player_id: int) -> Player:
        for player in self.players:
            if player.id == player_id:
                return player
        raise TournamentError("That player is not in this tournament.")

    def name(self, player_id: int) -> str:
        return self.player(player_id).name

    def seed(self, player_id: int) -> int:
        return self.player(player_id).seed

    @property
    def active(self) -> tuple[Player, ...]:
        """Players still taking part (not withdrawn), in seed order."""
        return tuple(player for player in self.players if player.id not in self.withdrawn)

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise TournamentError(f"There is no round {number} yet: {len(self.rounds)} paired so far.")
        return self.rounds[number - 1]

    def games_of(self, player_id: int) -> Iterator[tuple[int, Pairing]]:
        """(round number, pairing) of every pairing ``player_id`` was in, byes included."""
        for round_ in self.rounds:
            for pairing in round_.pairings:
                if player_id in pairing.players:
                    yield round_.number, pairing

    def finished_games_of(self, player_id: int) -> Iterator[Pairing]:
        return (pairing for _, pairing in self.games_of(player_id) if pairing.result is not None)

    def current_pairing(self, player_id: int) -> Pairing | None:
        """``player_id``'s game still running in the current round (None: none is)."""
        current = self.current_round
        if current is None:
            return None
        return next((p for p in current.running() if player_id in p.players), None)


def new_tournament(
    format: str, players: Sequence[Player], *, rounds: int | None = None, double: bool = False
) -> Tournament:
    """A tournament about to pair its first round. Players are seeded by rating (highest first,
    ties in the order given); ``rounds`` is for Swiss only (default: enough rounds to find a
    sole winner, at most players - 1)."""
    if format not in FORMATS:
        raise TournamentError(f"A tournament is {_or(FORMAT_NAMES.values())}, not {format!r}.")
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise TournamentError("A player can join a tournament only once.")
    if len(players) < MIN_PLAYERS:
        raise TournamentError(f"A tournament needs at least {MIN_PLAYERS} players, and {len(players)} joined.")
    if double and format != ROUND_ROBIN:
        raise TournamentError("Only a round-robin can be played twice over (double).")
    if rounds is not None and format != SWISS:
        raise TournamentError(f"A {FORMAT_NAMES[format]} tournament's rounds follow from its players.")
    order = sorted(range(len(players)), key=lambda index: (-players[index].rating, index))
    seeded = tuple(
        Player(players[index].id, players[index].name, players[index].rating, seed)
        for seed, index in enumerate(order, 1)
    )
    return Tournament(format, seeded, _rounds_planned(format, len(players), rounds, double), double)


def swiss_rounds(players: int) -> int:
    """The Swiss default: enough rounds for a sole winner (log2 of the players, rounded up), at most players - 1."""
    return max(1, min(players - 1, math.ceil(math.log2(players))))


def _rounds_planned(format: str, count: int, rounds: int | None, double: bool) -> int:
    if format == SWISS:
        if rounds is None:
            return swiss_rounds(count)
        if not 1 <= rounds <= count - 1:
            raise TournamentError(
                f"A Swiss tournament of {count} players has 1 to {count - 1} rounds (players - 1), not {rounds}."
            )
        return rounds
    if format == ROUND_ROBIN:
        once = count - 1 if count % 2 == 0 else count
        return once * (2 if double else 1)
    return math.ceil(math.log2(count))


def _or(words: Iterator[str] | Sequence[str] | Any) -> str:
    words = list(words)
    return ", ".join(words[:-1]) + f" or {words[-1]}"


# ---------------------------------------------------------------- storage

SCHEMA = 1


def dump(tournament: Tournament) -> dict[str, Any]:
    """JSON-able data; :func:`load` reads it back."""
    data: dict[str, Any] = _to_plain(tournament)
    data["schema"] = SCHEMA
    return data


def load(data: Mapping[str, Any]) -> Tournament:
    version = data.get("schema")
    if version != SCHEMA:
        raise ValueError(f"cannot load a tournament of schema {version!r} (this code has {SCHEMA})")
    tournament: Tournament = _from_plain(Tournament, dict(data))
    return tournament
