"""An Octagion series: N races of the same members, standings after each.

Each race gives points by finishing order (``PLACING``: with n in the race, first n points,
last 1, players sharing a place sharing its points) or by the race's own score (``SCORE``),
as the host chooses. A member missing a race scores nothing in it. Standings rank by points,
then races won, then (by placing) the total of the races' scores; level on all, a rank is shared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines.base import Outcome, _from_plain, _to_plain

from .model import MIN_PLAYERS, Player, TournamentError

PLACING = "placing"
SCORE = "score"
SERIES_SCORING = (PLACING, SCORE)


@dataclass(frozen=True)
class RaceEntry:
    """How a player did in one race: ``place`` 1 is first (shared when tied), ``score`` the race's own."""

    player: int
    place: int
    score: float


@dataclass(frozen=True)
class Race:
    number: int
    entries: tuple[RaceEntry, ...]


@dataclass(frozen=True)
class Series:
    players: tuple[Player, ...]
    races_planned: int
    scoring: str = PLACING
    races: tuple[Race, ...] = ()
    withdrawn: tuple[int, ...] = ()
    schema: int = 1

    def name(self, player_id: int) -> str:
        for player in self.players:
            if player.id == player_id:
                return player.name
        raise TournamentError("That player is not in this series.")

    @property
    def active(self) -> tuple[Player, ...]:
        return tuple(player for player in self.players if player.id not in self.withdrawn)


@dataclass(frozen=True)
class SeriesStanding:
    rank: int
    player: int
    name: str
    points: float
    wins: int
    races: int
    total_score: float
    withdrawn: bool = False


def new_series(players: Sequence[Player], races: int, scoring: str = PLACING) -> Series:
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise TournamentError("A player can join a series only once.")
    if len(players) < MIN_PLAYERS:
        raise TournamentError(f"A series needs at least {MIN_PLAYERS} players, and {len(players)} joined.")
    if races < 1:
        raise TournamentError("A series has at least one race.")
    if scoring not in SERIES_SCORING:
        raise TournamentError(f"A series scores races by {PLACING} or by {SCORE}, not {scoring!r}.")
    seeded = tuple(Player(p.id, p.name, p.rating, seed) for seed, p in enumerate(players, 1))
    return Series(seeded, races, scoring)


def record_race(series: Series, entries: Sequence[RaceEntry]) -> Series:
    """The series with its next race's results."""
    if is_series_finished(series):
        raise TournamentError(f"The series is over: all {series.races_planned} races are run.")
    known = {player.id for player in series.players}
    racers = [entry.player for entry in entries]
    if len(set(racers)) != len(racers):
        raise TournamentError("A player finishes a race only once.")
    if not set(racers) <= known:
        raise TournamentError("Only the series' players score in its races.")
    if any(entry.player in series.withdrawn for entry in entries):
        raise TournamentError("A withdrawn player races no more.")
    race = Race(len(series.races) + 1, tuple(entries))
    return replace(series, races=(*series.races, race))


def entries_from_outcome(outcome: Outcome, players_by_seat: Sequence[int]) -> tuple[RaceEntry, ...]:
    """A finished Octagion race (one player a seat) as race entries."""
    return tuple(
        RaceEntry(player, outcome.ranks[seat], outcome.scores[seat]) for seat, player in enumerate(players_by_seat)
    )


def withdraw_from_series(series: Series, player: int) -> Series:
    name = series.name(player)
    if player in series.withdrawn:
        raise TournamentError(f"{name} has already withdrawn.")
    return replace(series, withdrawn=(*series.withdrawn, player))


def forget_in_series(series: Series, player: int, new_id: int, name: str) -> Series:
    """The series with ``player`` known as ``new_id`` called ``name`` everywhere (a member who
    deleted their data becomes "a former member"); their races stay."""
    players = tuple(replace(p, id=new_id, name=name) if p.id == player else p for p in series.players)
    races = tuple(
        replace(race, entries=tuple(replace(e, player=new_id) if e.player == player else e for e in race.entries))
        for race in series.races
    )
    withdrawn = tuple(new_id if w == player else w for w in series.withdrawn)
    return replace(series, players=players, races=races, withdrawn=withdrawn)


def is_series_finished(series: Series) -> bool:
    return len(series.races) >= series.races_planned or len(series.active) == 0


def race_points(series: Series, race: Race) -> dict[int, float]:
    """What each player in ``race`` scored towards the series."""
    if series.scoring == SCORE:
        return {entry.player: float(entry.score) for entry in race.entries}
    field = len(race.entries)
    sharing = {entry.place: sum(other.place == entry.place for other in race.entries) for entry in race.entries}
    return {entry.player: field - entry.place + 1 - (sharing[entry.place] - 1) / 2 for entry in race.entries}


def series_standings(series: Series) -> tuple[SeriesStanding, ...]:
    totals = {player.id: [0.0, 0, 0, 0.0] for player in series.players}  # points, wins, races, score
    for race in series.races:
        scored = race_points(series, race)
        for entry in race.entries:
            line = totals[entry.player]
            line[0] += scored[entry.player]
            line[1] += entry.place == 1
            line[2] += 1
            line[3] += entry.score

    def key(player: Player) -> tuple[float, ...]:
        points, wins, _, score = totals[player.id]
        return (points, wins, score) if series.scoring == PLACING else (points, wins)

    order = sorted(series.players, key=lambda player: (tuple(-v for v in key(player)), player.seed))
    return tuple(
        SeriesStanding(
            rank=1 + sum(key(other) > key(player) for other in series.players),
            player=player.id,
            name=player.name,
            points=totals[player.id][0],
            wins=int(totals[player.id][1]),
            races=int(totals[player.id][2]),
            total_score=totals[player.id][3],
            withdrawn=player.id in series.withdrawn,
        )
        for player in order
    )


SERIES_SCHEMA = 1


def dump_series(series: Series) -> dict[str, Any]:
    data: dict[str, Any] = _to_plain(series)
    data["schema"] = SERIES_SCHEMA
    return data


def load_series(data: dict[str, Any]) -> Series:
    if data.get("schema") != SERIES_SCHEMA:
        raise ValueError(f"cannot load a series of schema {data.get('schema')!r} (this code has {SERIES_SCHEMA})")
    series: Series = _from_plain(Series, dict(data))
    return series
